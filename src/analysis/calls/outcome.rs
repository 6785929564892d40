//! What the file proves about a call's outcome: the evidence of end events and completed
//! items, and what an output's text says in the three formats Codex wrote over its versions.

use serde_json::Value;

use crate::decode::{select, Record};
use crate::model::ToolOutcome;

/// One source's word on a call's outcome.
#[derive(Debug, Clone, Default)]
pub(super) struct Proof {
    pub(super) timestamp: String,
    pub(super) exit_code: Option<i64>,
    pub(super) duration_ms: Option<u64>,
    /// Failed for a reason other than the exit code (status, success flag, MCP error).
    pub(super) failed: bool,
    /// The source proves the tool finished (not merely in progress).
    pub(super) settled: bool,
}

/// The outcome sources of one `call_id`, richest first.
#[derive(Debug, Default)]
pub(super) struct Evidence {
    pub(super) item: Option<Proof>,
    pub(super) exec_end: Option<Proof>,
    pub(super) patch_end: Option<Proof>,
    pub(super) mcp_end: Option<Proof>,
}

impl Evidence {
    pub(super) fn ranked(&self) -> impl Iterator<Item = &Proof> {
        [&self.item, &self.exec_end, &self.patch_end, &self.mcp_end]
            .into_iter()
            .flatten()
    }
}

pub(super) fn is_failed_status(s: Option<&str>) -> bool {
    matches!(s, Some("failed" | "declined" | "error"))
}

pub(super) fn is_settled_status(s: Option<&str>) -> bool {
    matches!(s, Some("completed" | "failed" | "declined" | "error"))
}

pub(super) fn proof(rec: &Record<'_>, o: &ToolOutcome<'_>, extra_ms: Option<u64>) -> Proof {
    let status = o.status.as_deref();
    Proof {
        timestamp: rec.timestamp.to_string(),
        exit_code: o.exit_code,
        duration_ms: o.duration_ms().or(extra_ms),
        failed: is_failed_status(status)
            || o.has_error()
            || o.success == Some(false)
            || o.mcp_failed(),
        settled: is_settled_status(status)
            || o.exit_code.is_some()
            || o.success.is_some()
            || o.has_error()
            || o.result.is_some(),
    }
}

/// What an output text's header says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutputMeta {
    pub exit_code: Option<i64>,
    pub duration_ms: Option<u64>,
    /// `Process running with session ID N` (0.128+ unified exec): the command had not
    /// finished when the output was written, so the output proves no outcome (and its
    /// `Wall time` is how long the tool waited, not how long the command ran).
    pub running: bool,
}

/// The header of an output text (see the module doc for the three formats).
pub fn parse_output_meta(text: &str) -> OutputMeta {
    let t = text.trim_start();
    if t.starts_with('{') {
        // Checked by the decoder's scanner, then only `metadata` is parsed: the text (a
        // whole command output) is never built into a `Value`. Where the scanner leaves
        // the decision to serde, serde decides.
        let meta = match crate::decode::is_json(t) {
            Some(true) => select::fields(t, ["metadata"])
                .and_then(|[m]| m)
                .and_then(|m| serde_json::from_str::<Value>(m).ok()),
            Some(false) => None,
            None => serde_json::from_str::<Value>(t)
                .ok()
                .and_then(|mut v| v.get_mut("metadata").map(Value::take)),
        };
        if let Some(meta) = meta.filter(|m| m.is_object()) {
            let exit = meta.get("exit_code").and_then(Value::as_i64);
            let dur = meta
                .get("duration_seconds")
                .and_then(Value::as_f64)
                .and_then(seconds_to_ms);
            return OutputMeta {
                exit_code: exit,
                duration_ms: dur,
                running: false,
            };
        }
    }
    header_meta(t.lines().take(12))
}

/// The text of an output without what Codex wrote around the command's own output: the
/// `output` of a JSON output (`{"output", "metadata"}`), or what follows the header's
/// `Output:` line (the header ends there, within its first twelve lines: `Exit code`,
/// `Wall time`, `Chunk ID`, `Original token count`...). A text of neither form is all
/// output.
pub fn output_body(text: &str) -> std::borrow::Cow<'_, str> {
    let t = text.trim_start();
    if t.starts_with('{') {
        if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(t) {
            if let (Some(Value::String(out)), true) = (o.get("output"), o.contains_key("metadata"))
            {
                return std::borrow::Cow::Owned(out.clone());
            }
        }
        return std::borrow::Cow::Borrowed(text);
    }
    let mut at = 0;
    for line in text.split_inclusive('\n').take(12) {
        at += line.len();
        if line.trim_end() == "Output:" {
            let head = text.get(..at - line.len()).unwrap_or_default();
            if header_meta(head.lines()) != OutputMeta::default() || head.contains("Chunk ID:") {
                return std::borrow::Cow::Borrowed(text.get(at..).unwrap_or_default());
            }
            break;
        }
    }
    std::borrow::Cow::Borrowed(text)
}

/// What the header lines of an output say (the first twelve lines, or fewer: only the
/// header counts, up to `Output:`, so that the command's own output never does).
fn header_meta<'a>(lines: impl IntoIterator<Item = &'a str>) -> OutputMeta {
    let mut m = OutputMeta::default();
    for line in lines {
        let line = line.trim_end();
        if line == "Output:" {
            break;
        }
        if let Some(rest) = line
            .strip_prefix("Exit code: ")
            .or_else(|| line.strip_prefix("Process exited with code "))
        {
            m.exit_code = m.exit_code.or_else(|| rest.trim().parse().ok());
        } else if let Some(rest) = line.strip_prefix("Wall time: ") {
            let secs = rest.trim().trim_end_matches("seconds").trim();
            m.duration_ms = m
                .duration_ms
                .or_else(|| secs.parse::<f64>().ok().and_then(seconds_to_ms));
        } else if line.starts_with("Process running with session ID") {
            m.running = true;
        }
    }
    if m.running && m.exit_code.is_none() {
        m.duration_ms = None;
    } else {
        m.running = false;
    }
    m
}

fn seconds_to_ms(s: f64) -> Option<u64> {
    (s.is_finite() && s >= 0.0).then(|| (s * 1000.0).round() as u64)
}

/// What an output text's head says: its header ([`parse_output_meta`]) and whether it
/// reports a failed patch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct OutputFacts {
    pub(super) meta: OutputMeta,
    /// Starts with `apply_patch verification failed` (any call).
    pub(super) verification_failed: bool,
    /// Starts with `error:` (a failure when the call is an `apply_patch`).
    pub(super) error_prefix: bool,
}

impl OutputFacts {
    pub(super) fn of(text: &str) -> OutputFacts {
        let t = text.trim_start();
        OutputFacts {
            meta: parse_output_meta(text),
            verification_failed: t.starts_with("apply_patch verification failed"),
            error_prefix: t.starts_with("error:"),
        }
    }

    /// The output says the patch was not applied.
    pub(super) fn patch_failed(&self, is_patch: bool) -> bool {
        self.verification_failed || (is_patch && self.error_prefix)
    }

    /// The facts of the text of `raw`, a JSON string of a decoded record: read off the raw
    /// text when its header holds no escape but line breaks (the usual case), else from
    /// its first few KiB unescaped when they decide them, else from the whole text.
    pub(super) fn of_json_string(raw: &str) -> OutputFacts {
        const HEAD: usize = 4096;
        fn unescape(inner: &str) -> std::borrow::Cow<'_, str> {
            crate::decode::unescape(inner).unwrap_or_default()
        }
        let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
            return OutputFacts::of(raw);
        };
        if let Some(facts) = OutputFacts::of_raw_header(inner) {
            return facts;
        }
        // A JSON output (0.36) is read whole.
        if inner.len() > HEAD && !inner.trim_start().starts_with('{') {
            let head = unescape(&inner[..escape_safe_cut(inner, HEAD)]);
            if let Some(facts) = OutputFacts::of_head(&head) {
                return facts;
            }
        }
        OutputFacts::of(&unescape(inner))
    }

    /// The facts of a JSON string's text read off its raw contents `inner` (escapes
    /// unresolved), when the header holds no escape but the line breaks (`\n`): its lines
    /// are then the raw text between them, as they are, and nothing needs unescaping.
    /// `None` otherwise, and for a JSON output (read whole).
    fn of_raw_header(inner: &str) -> Option<OutputFacts> {
        // Plain leading white space is the text's own; an escaped one is not read here.
        let t = inner.trim_start();
        if t.starts_with(['\\', '{']) {
            return None;
        }
        // At most the twelve lines `parse_output_meta` reads, on the stack: this runs for
        // every output.
        let mut lines = [""; 12];
        let mut n = 0;
        let mut rest = t;
        for slot in &mut lines {
            let Some(i) = memchr::memchr(b'\\', rest.as_bytes()) else {
                if !rest.is_empty() {
                    *slot = rest;
                    n += 1;
                }
                break;
            };
            if rest.as_bytes().get(i + 1) != Some(&b'n') {
                return None;
            }
            // `i` is a backslash and `i + 1` an `n`: both cuts are character boundaries.
            let line = &rest[..i];
            *slot = line;
            n += 1;
            rest = &rest[i + 2..];
            if line.trim_end() == "Output:" {
                break;
            }
        }
        Some(OutputFacts {
            meta: header_meta(lines.into_iter().take(n)),
            verification_failed: t.starts_with("apply_patch verification failed"),
            error_prefix: t.starts_with("error:"),
        })
    }

    /// The facts of a text from its beginning `head`, when that is enough: the header
    /// ends (`Output:`) or twelve lines (all [`parse_output_meta`] reads) are complete
    /// within it, and the text does not start with `{` (a JSON output is read whole).
    fn of_head(head: &str) -> Option<OutputFacts> {
        let t = head.trim_start();
        if t.len() < 64 || t.starts_with('{') {
            return None;
        }
        let mut end = 0;
        let mut decided = false;
        for (n, line) in t.split_inclusive('\n').enumerate() {
            if !line.ends_with('\n') {
                break;
            }
            end += line.len();
            if line.trim_end() == "Output:" || n + 1 == 12 {
                decided = true;
                break;
            }
        }
        decided.then(|| OutputFacts {
            meta: parse_output_meta(&t[..end]),
            verification_failed: t.starts_with("apply_patch verification failed"),
            error_prefix: t.starts_with("error:"),
        })
    }
}

/// The largest cut at most `max` bytes into the inside of a canonical JSON string that
/// splits neither an escape nor a character.
fn escape_safe_cut(inner: &str, max: usize) -> usize {
    let b = inner.as_bytes();
    let mut cut = max.min(b.len());
    let mut at = 0;
    // `at <= cut <= b.len()`: `at` only moves to the end of an escape that ends by `cut`.
    while let Some(k) = b.get(at..cut).and_then(|s| memchr::memchr(b'\\', s)) {
        let i = at + k;
        let len = if b.get(i + 1) == Some(&b'u') { 6 } else { 2 };
        if i + len > cut {
            cut = i;
            break;
        }
        at = i + len;
    }
    while !inner.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `exit_code` and `duration_ms` read from an output text.
    fn parse_output_text(text: &str) -> (Option<i64>, Option<u64>) {
        let m = parse_output_meta(text);
        (m.exit_code, m.duration_ms)
    }

    #[test]
    fn the_head_of_an_output_says_what_the_whole_text_says() {
        let headers = [
            "Exit code: 2\nWall time: 1.5 seconds\nOutput:\n",
            "Chunk ID: 1\nWall time: 0.2 seconds\nProcess running with session ID 4\nOutput:\n",
            "apply_patch verification failed: no\n",
            "  \n error: bad\n",
            "",
        ];
        let bodies = [
            "x\n",
            "é\\\"\t\u{1}\n",
            "{\"json\": 1}\n",
            "a very long line ",
        ];
        for h in headers {
            for body in bodies {
                for pad in [4000, 4090, 4095, 4096, 4100, 9000] {
                    let text = format!("{h}{}", body.repeat(pad / body.len() + 1));
                    let raw = serde_json::to_string(&text).unwrap();
                    assert_eq!(OutputFacts::of_json_string(&raw), OutputFacts::of(&text));
                }
            }
        }
        // A 0.36 JSON output is read whole, whatever its length.
        let json = format!(
            r#"{{"output":"{}","metadata":{{"exit_code":1,"duration_seconds":0.5}}}}"#,
            "y".repeat(5000)
        );
        let raw = serde_json::to_string(&json).unwrap();
        let facts = OutputFacts::of_json_string(&raw);
        assert_eq!(
            (facts.meta.exit_code, facts.meta.duration_ms),
            (Some(1), Some(500))
        );
    }

    #[test]
    fn the_raw_header_says_what_the_unescaped_text_says() {
        // Texts put together from header-like lines, escapes Codex writes (and some it
        // does not), white space at the start, bodies, JSON: read off the raw JSON string,
        // and as JSON strings written otherwise (`\u` for a letter, `\/`), they say what the
        // text says.
        let pieces = [
            "Exit code: 3\n",
            "Exit code: x\n",
            "Process exited with code 0\n",
            "Wall time: 1.25 seconds\n",
            "Wall time: -1 seconds\n",
            "Chunk ID: 9\n",
            "Process running with session ID 7\n",
            "Output:\n",
            "Output:  \n",
            "Original token count: 4\n",
            "apply_patch verification failed: x\n",
            "error: bad\n",
            "\n",
            "  ",
            "\t",
            "\r\n",
            "\"q\"",
            "\\n",
            "é",
            "\u{2028}",
            "\u{a0}",
            "{\"a\":1}",
            "plain text ",
        ];
        let mut rnd = crate::testkit::xorshift(0x5851_f42d_4c95_7f2d);
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..rnd(16) {
                text.push_str(pieces[rnd(pieces.len())]);
            }
            let want = OutputFacts::of(&text);
            let raw = serde_json::to_string(&text).unwrap();
            assert_eq!(OutputFacts::of_json_string(&raw), want, "{raw}");
            let other = raw.replace('E', "\\u0045").replace('/', "\\/");
            assert_eq!(OutputFacts::of_json_string(&other), want, "{other}");
        }
    }

    #[test]
    fn three_historical_output_formats() {
        // 0.36: a JSON string with metadata.
        assert_eq!(
            parse_output_text(
                r#"{"output":"x","metadata":{"exit_code":1,"duration_seconds":0.25}}"#
            ),
            (Some(1), Some(250))
        );
        // 0.80.
        assert_eq!(
            parse_output_text("Exit code: 3\nWall time: 0 seconds\nOutput:\n"),
            (Some(3), Some(0))
        );
        // 0.128+.
        assert_eq!(
            parse_output_text(
                "Chunk ID: ab\nWall time: 0.0120 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nExit code: 9\n"
            ),
            (Some(1), Some(12))
        );
        assert_eq!(parse_output_text("just text"), (None, None));
    }

    #[test]
    fn an_output_body_is_what_follows_the_header() {
        let exec = "Exit code: 0\nWall time: 0.2 seconds\nOutput:\nhello\nOutput:\n";
        assert_eq!(output_body(exec), "hello\nOutput:\n");
        let unified = "Chunk ID: 1a\nWall time: 0.0 seconds\nProcess exited with code 0\n\
                       Original token count: 2\nOutput:\nx\n";
        assert_eq!(output_body(unified), "x\n");
        let json = r#"{"output":"a\nb","metadata":{"exit_code":0,"duration_seconds":0.1}}"#;
        assert_eq!(output_body(json), "a\nb");
        // No header: all of it is output, even a line `Output:`.
        assert_eq!(output_body("Output:\nx"), "Output:\nx");
        assert_eq!(output_body("plain"), "plain");
    }
}
