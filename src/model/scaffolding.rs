//! Contextual user scaffolding: the user-role texts Codex writes itself, not the user.

use crate::decode::select;

/// The marker pairs of Codex's `is_contextual_user_fragment`: a user message whose text
/// starts and ends with one of these is scaffolding, not something the user typed.
const CONTEXTUAL_MARKERS: &[(&str, &str)] = &[
    ("# agents.md instructions for ", "</instructions>"),
    ("<user_instructions>", "</user_instructions>"),
    ("<agents_instructions>", "</agents_instructions>"),
    ("<environment_context>", "</environment_context>"),
    ("<multiagent_context>", "</multiagent_context>"),
    ("<skill>", "</skill>"),
    ("<user_shell_command>", "</user_shell_command>"),
    ("<turn_aborted>", "</turn_aborted>"),
    ("<subagent_notification>", "</subagent_notification>"),
    ("<goal_context>", "</goal_context>"),
    ("<hook_prompt", "</hook_prompt>"),
    ("<codex_internal_context", "</codex_internal_context>"),
    ("<recommended_plugins>", "</recommended_plugins>"),
    ("<permissions instructions>", "</permissions instructions>"),
    ("<skills_instructions>", "</skills_instructions>"),
];

/// True when one text fragment is contextual scaffolding (case-insensitive, trimmed).
pub fn is_contextual_fragment(text: &str) -> bool {
    let t = text.trim();
    ends_are_contextual(t, t)
}

/// The check of [`is_contextual_fragment`] on a trimmed text given by its ends: `head` starts
/// it and `tail` ends it, each either the whole text or at least its 64 first (last)
/// characters. Only those are read.
fn ends_are_contextual(head: &str, tail: &str) -> bool {
    // Where the ends are ASCII (nearly always), compare them in place; otherwise lowercase
    // them as Unicode, as Codex does.
    let (h, t) = (head.as_bytes(), tail.as_bytes());
    let (h, t) = (
        h.get(..64).unwrap_or(h),
        t.get(t.len().saturating_sub(64)..).unwrap_or(t),
    );
    if h.is_ascii() && t.is_ascii() {
        return CONTEXTUAL_MARKERS.iter().any(|(open, close)| {
            h.get(..open.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(open.as_bytes()))
                && t.len()
                    .checked_sub(close.len())
                    .and_then(|from| t.get(from..))
                    .is_some_and(|t| t.eq_ignore_ascii_case(close.as_bytes()))
        });
    }
    let h: String = head.chars().take(64).collect::<String>().to_lowercase();
    let tail_start = tail
        .char_indices()
        .rev()
        .nth(63)
        .map(|(i, _)| i)
        .unwrap_or(0);
    let t = tail[tail_start..].to_lowercase();
    CONTEXTUAL_MARKERS
        .iter()
        .any(|(open, close)| h.starts_with(open) && t.ends_with(close))
}

/// [`is_contextual_fragment`] of a raw JSON string (valid, as the decoder checked it). Only
/// the ends of the text decide, so the text is not unescaped where it can be helped: most
/// scaffolding (`<environment_context>\n…\n</environment_context>`) is decided by its raw
/// ends in place; a text with escapes near its ends has a window at each end unescaped;
/// only a short one is unescaped whole. (User scaffolding holds an escaped newline every
/// line: unescaping it whole was a large share of `stats`, `docs/performance.md`.)
pub(super) fn raw_is_contextual_fragment(raw: &str) -> bool {
    let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
        return false;
    };
    if let Some(is) = raw_ends_are_contextual(inner) {
        return is;
    }
    if let Some(is) = windowed_is_contextual_fragment(inner) {
        return is;
    }
    select::str_value(raw).is_some_and(|text| is_contextual_fragment(&text))
}

/// [`raw_is_contextual_fragment`] read off the raw contents `inner` in place, from the
/// plain ASCII at each end of the text (before its first escape or non-ASCII character,
/// after its last); `None` when that is too little to tell. Plain ASCII compares the same in
/// Codex's ASCII and Unicode paths.
fn raw_ends_are_contextual(inner: &str) -> Option<bool> {
    // Up to its first (after its last) escape, the raw text trims as the text does.
    let b = inner.trim().as_bytes();
    // At most 64 bytes are looked at at each end: no marker is longer than 58.
    let first = b.get(..64).unwrap_or(b);
    // Up to the first escape or non-ASCII byte (the whole when there is none).
    let head = first
        .split(|&c| c == b'\\' || !c.is_ascii())
        .next()
        .unwrap_or(first);
    let all_plain = head.len() == b.len();
    let mut tail = None;
    let mut undecided = false;
    for (open, close) in CONTEXTUAL_MARKERS {
        // Most texts differ from every opener in their first byte: no tail is looked at.
        #[allow(
            clippy::indexing_slicing,
            reason = "`end_matches` cuts no more than a slice holds"
        )]
        let opens = end_matches(head, open.as_bytes(), all_plain, |s, n| &s[..n]);
        if opens == Some(false) {
            continue;
        }
        let tail = *tail.get_or_insert_with(|| plain_tail(b));
        #[allow(
            clippy::indexing_slicing,
            reason = "`end_matches` cuts no more than a slice holds"
        )]
        let closes = end_matches(tail, close.as_bytes(), all_plain, |s, n| &s[s.len() - n..]);
        match (opens, closes) {
            (Some(true), Some(true)) => return Some(true),
            (_, Some(false)) => {}
            _ => undecided = true,
        }
    }
    (!undecided).then_some(false)
}

/// Whether the text's end, known only as far as `plain` (its plain ASCII end), is `marker`
/// (ignoring ASCII case): `Some(false)` as soon as a plain byte differs or the whole (plain)
/// text is too short, `None` when the plain bytes match but do not reach across the marker.
/// `end` takes the first or the last `n` bytes of a slice.
fn end_matches(
    plain: &[u8],
    marker: &[u8],
    all_plain: bool,
    end: impl Fn(&[u8], usize) -> &[u8],
) -> Option<bool> {
    let n = plain.len().min(marker.len());
    let (p, m) = (end(plain, n), end(marker, n));
    // The outermost byte first: where texts and markers differ, they nearly always differ
    // there.
    #[allow(
        clippy::indexing_slicing,
        reason = "only called when `n > 0`, on `p` and `m`, which hold `n` bytes"
    )]
    let outer = |s: &[u8]| end(s, 1)[0].to_ascii_lowercase();
    if n > 0 && (outer(p) != outer(m) || !p.eq_ignore_ascii_case(m)) {
        Some(false)
    } else if n == marker.len() {
        Some(true)
    } else if all_plain {
        Some(false)
    } else {
        None
    }
}

/// The plain ASCII end of a JSON string's raw contents `b`: the bytes after its last
/// backslash or non-ASCII byte and after the escape that backslash belongs to (a `\uXXXX`
/// takes six bytes). Only the last 64 bytes are looked at: an escape from before them may
/// reach 5 bytes into them, but no marker is longer than 58 bytes, so only plain bytes are
/// ever compared.
#[allow(
    clippy::indexing_slicing,
    reason = "`from <= b.len()`; `q` is a position found in `b[from..]`; `after` is clamped"
)]
fn plain_tail(b: &[u8]) -> &[u8] {
    let from = b.len().saturating_sub(64);
    let Some(k) = b[from..].iter().rposition(|&c| c == b'\\' || !c.is_ascii()) else {
        return &b[from..];
    };
    let q = from + k;
    let mut after = q + 1;
    if b[q] == b'\\' {
        // The last of an odd run of backslashes opens an escape, the last of an even run
        // closes a `\\` (what was trimmed off before `b` is white space, so the run is whole).
        let run = b[..=q].iter().rev().take_while(|&&c| c == b'\\').count();
        if run % 2 == 1 {
            after = q + if b.get(q + 1) == Some(&b'u') { 6 } else { 2 };
        }
    }
    &b[after.min(b.len())..]
}

/// [`raw_is_contextual_fragment`] from a window of raw text at each end of `inner` (a JSON
/// string's contents, escapes unresolved), unescaped on their own. `None` when the text is
/// too short for two windows, or when white space at an end leaves fewer than 64
/// characters in its window: then the whole text must be unescaped.
fn windowed_is_contextual_fragment(inner: &str) -> Option<bool> {
    const WINDOW: usize = 256;
    let b = inner.as_bytes();
    if b.len() <= 2 * WINDOW {
        return None;
    }
    let head_cut = escape_boundary(inner, 0, WINDOW)?;
    let tail_cut = escape_boundary(inner, head_cut, b.len() - WINDOW)?;
    let unescape = crate::decode::unescape;
    let head = unescape(&inner[..head_cut])?;
    let tail = unescape(&inner[tail_cut..])?;
    let (head, tail) = (head.trim_start(), tail.trim_end());
    if head.chars().nth(63).is_none() || tail.chars().nth(63).is_none() {
        return None;
    }
    Some(ends_are_contextual(head, tail))
}

/// The first place at or after `at` in a JSON string's raw contents `s` where the text may
/// be cut: on a character boundary, not inside an escape, nor between the two halves of a
/// surrogate pair. `from` is such a place before `at`, from which escapes are followed.
fn escape_boundary(s: &str, from: usize, at: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = from;
    while i < at {
        // `i < at <= b.len()`: the loop condition and the callers' windows.
        let Some(k) = b.get(i..at).and_then(|w| memchr::memchr(b'\\', w)) else {
            i = at;
            break;
        };
        let q = i + k;
        i = q + match b.get(q + 1)? {
            // A high surrogate is always followed by its low half (the decoder checked the
            // pairs): the two go together.
            b'u' if matches!(
                b.get(q + 2..q + 4)?,
                [b'd' | b'D', b'8'..=b'9' | b'a'..=b'b' | b'A'..=b'B']
            ) =>
            {
                12
            }
            b'u' => 6,
            _ => 2,
        };
    }
    // Escapes end within a checked string; past its end no boundary would ever be found.
    if i > b.len() {
        return None;
    }
    // Past an escape `i` is on ASCII; elsewhere it may be inside a character.
    while !s.is_char_boundary(i) {
        i += 1;
    }
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_md_and_turn_aborted_are_scaffolding() {
        assert!(is_contextual_fragment(
            "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\nhi\n</INSTRUCTIONS>"
        ));
        assert!(is_contextual_fragment(
            "<turn_aborted>\nThe user interrupted\n</turn_aborted>"
        ));
        assert!(!is_contextual_fragment(
            "please read <environment_context> docs"
        ));
    }

    #[test]
    fn contextual_fragments_match_in_any_case_and_with_non_ascii_ends() {
        assert!(is_contextual_fragment(
            "  <ENVIRONMENT_CONTEXT>x</Environment_Context>\n"
        ));
        assert!(is_contextual_fragment(
            "<environment_context>é</environment_context>"
        ));
        assert!(!is_contextual_fragment(
            "é<environment_context>x</environment_context>"
        ));
        assert!(!is_contextual_fragment("<skill>"));
        assert!(is_contextual_fragment(&format!(
            "<skill>{}</skill>",
            "long body ".repeat(100)
        )));
    }

    #[test]
    fn a_text_that_is_no_json_string_is_no_raw_scaffolding() {
        // The callers pass checked JSON strings: `""` is the shortest. Shorter, the cut
        // inside the quotes panicked.
        assert!(!raw_is_contextual_fragment(""));
        assert!(!raw_is_contextual_fragment("\""));
        assert!(!raw_is_contextual_fragment("\"\""));
    }

    #[test]
    fn a_high_surrogate_escape_at_the_end_of_unchecked_text_gives_no_cut() {
        // A checked string always pairs it; alone at the end, the cut went past the text
        // and the search for a character boundary never ended.
        assert_eq!(escape_boundary(r"\ud83d", 0, 1), None);
        assert_eq!(escape_boundary(r"\ud83d\ude00x", 0, 1), Some(12));
    }

    #[test]
    fn markers_fit_in_the_plain_tail_window() {
        assert!(CONTEXTUAL_MARKERS
            .iter()
            .all(|(open, close)| open.len() <= 58 && close.len() <= 58));
    }

    #[test]
    fn raw_scaffolding_check_agrees_with_the_unescaped_text() {
        // Texts of every length around the windowed path's (only a window at each end
        // unescaped), built of
        // escapes, surrogate pairs, non-ASCII and white space in every position around the
        // windows' edges, with and without markers at their ends: the raw check must say
        // what the check of the unescaped text says.
        let pieces: &[&str] = &[
            "a",
            "Z",
            " ",
            r"\n",
            r"\t",
            r"\\",
            r#"\""#,
            r"\/",
            r"\u0041",
            r"\u00e9",
            r"\ud83d\ude00",
            r"\uD83D\uDE00",
            "é",
            "日",
            r"\u2028",
            r"\u00a0",
            "x y",
            "<",
        ];
        // Markers plain, in other cases, escaped, with a Kelvin sign (which lowercases to
        // `k` in Codex's Unicode path) or a dotted capital I, and escapes right beside them.
        let opens = [
            "",
            "<environment_context>",
            "<ENVIRONMENT_context>",
            r"\n<environment_context>",
            "# AGENTS.md instructions for /x",
            "é",
            r"\u00c9",
            "<skill>",
            r"\u003cskill>",
            "<s\u{212a}ill>",
            r"<s\u212aill>",
            "<SK\u{130}LL>",
            r"\\<skill>",
        ];
        let closes = [
            "",
            "</environment_context>",
            "</Environment_Context>",
            r"\n</environment_context>",
            "</INSTRUCTIONS>",
            "</skill>",
            r"</skill\u003e",
            "</s\u{212a}ill>",
            r"</s\u212aill>",
            r"\\</skill>",
            r"\u00e9</skill>",
            r"\ud83d\ude00</skill>",
            "é",
        ];
        let pads = [
            "",
            "",
            " ",
            r"\n",
            r"\n\n  ",
            r"\u00a0",
            "\u{a0}",
            r"\u0020",
            &r"\n".repeat(700),
            &" ".repeat(3000),
        ];
        let mut next = crate::testkit::xorshift(0x9e37_79b9_7f4a_7c15u64);
        let (mut in_place, mut windowed, mut scaffolding) = (0, 0, 0);
        for _ in 0..20_000 {
            let mut body = String::new();
            let len = [0, next(40), 200 + next(4_000)][next(3)];
            while body.len() < len {
                body.push_str(pieces[next(pieces.len())]);
            }
            let raw = format!(
                "\"{}{}{}{}{}\"",
                pads[next(pads.len())],
                opens[next(opens.len())],
                body,
                closes[next(closes.len())],
                pads[next(pads.len())],
            );
            let text: String = serde_json::from_str(&raw).unwrap();
            let inner = &raw[1..raw.len() - 1];
            in_place += raw_ends_are_contextual(inner).is_some() as usize;
            windowed += windowed_is_contextual_fragment(inner).is_some() as usize;
            let is = is_contextual_fragment(&text);
            scaffolding += is as usize;
            assert_eq!(raw_is_contextual_fragment(&raw), is, "{raw}");
        }
        // Both answers came up, and each way of reading the raw text was taken often.
        assert!(scaffolding > 300, "{scaffolding}");
        assert!(in_place > 1_500, "{in_place}");
        assert!(windowed > 3_000, "{windowed}");
    }
}
