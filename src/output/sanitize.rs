//! Terminal safety: rollout text is untrusted.
//!
//! Anything printed in a table or a human diagnostic goes through [`clean`], which removes
//! escape sequences (CSI, OSC, DCS and two-byte escapes), other C0/C1 control characters and
//! bidirectional overrides, and turns tabs and line breaks into spaces. NDJSON and JSON never
//! pass through here: they stay exact.

use std::borrow::Cow;

/// True for characters that must never reach a terminal raw.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

/// Strip control and escape sequences; whitespace controls become one space.
pub fn clean(s: &str) -> Cow<'_, str> {
    strip(s, false)
}

/// Strip control and escape sequences as [`clean`] does, but keep line breaks and tabs (a
/// `\r` is dropped: at a terminal it moves back over the line): for text shown on lines of
/// its own (a Markdown transcript's quotes and code blocks).
pub fn clean_keeping_lines(s: &str) -> Cow<'_, str> {
    strip(s, true)
}

fn strip(s: &str, keep_lines: bool) -> Cow<'_, str> {
    let kept = |c: char| keep_lines && (c == '\n' || c == '\t');
    if !s.chars().any(|c| is_unsafe(c) && !kept(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\u{1b}' => skip_escape(&mut it),
            '\u{9b}' => skip_csi(&mut it),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut it),
            c if kept(c) => out.push(c),
            '\r' if keep_lines => {}
            '\t' | '\n' | '\r' | '\u{0b}' | '\u{0c}' => {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            c if is_unsafe(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn skip_escape(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match it.peek() {
        Some('[') => {
            it.next();
            skip_csi(it);
        }
        Some(']') | Some('P') | Some('X') | Some('^') | Some('_') => {
            it.next();
            skip_string(it);
        }
        Some(_) => {
            it.next();
        }
        None => {}
    }
}

/// CSI: parameter and intermediate bytes, then one final byte in `@`..=`~`.
fn skip_csi(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in it.by_ref() {
        if ('@'..='~').contains(&c) {
            break;
        }
    }
}

/// OSC/DCS/...: up to BEL or ST (`ESC \`).
fn skip_string(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = it.next() {
        if c == '\u{7}' || c == '\u{9c}' {
            break;
        }
        if c == '\u{1b}' {
            if it.peek() == Some(&'\\') {
                it.next();
            }
            break;
        }
    }
}

/// Clean and cut to at most `max` characters, marking the cut with `…`.
pub fn cut(s: &str, max: usize) -> String {
    let s = clean(s);
    let s = s.trim();
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Clean and keep the last `max` characters (for paths), marking the cut with `…`.
pub fn cut_left(s: &str, max: usize) -> String {
    let s = clean(s);
    let n = s.chars().count();
    if n <= max {
        return s.into_owned();
    }
    let skip = n - max.saturating_sub(1);
    let mut out = String::from("…");
    out.extend(s.chars().skip(skip));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_csi_osc_and_controls() {
        assert_eq!(clean("a\x1b[31mred\x1b[0m b"), "ared b");
        assert_eq!(clean("x\x1b]0;title\x07y"), "xy");
        assert_eq!(
            clean("x\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\y"),
            "xlinky"
        );
        assert_eq!(clean("bell\x07 nul\0"), "bell nul");
        assert_eq!(clean("line\r\nnext\ttab"), "line next tab");
        assert_eq!(clean("rtl\u{202E}txt"), "rtltxt");
        assert_eq!(clean("c1\u{9b}2Jz"), "c1z");
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(clean("plain ünïcode"), Cow::Borrowed(_)));
    }

    #[test]
    fn cuts_mark_the_cut() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
        assert_eq!(cut_left("/a/b/c/d", 5), "…/c/d");
    }

    #[test]
    fn lines_can_be_kept() {
        assert_eq!(
            clean_keeping_lines("a\x1b[2Jb\r\nc\td\u{202E}e"),
            "ab\nc\tde"
        );
        assert!(matches!(clean_keeping_lines("x\ny\tz"), Cow::Borrowed(_)));
    }
}
