//! What `repair` prints for people: a line per fix, a line per finding left, a unified
//! diff. Rollout text in them is made safe for a terminal (`sanitize`).

use serde::Serialize;

use super::sanitize::clean;
use super::table::Tone;
use super::Cell;
use crate::findings::Applicability;
use crate::repair::{Fixed, Left};

/// One fix as a row (`--format ndjson|json`; `docs/repair.md` has the schema).
#[derive(Debug, Serialize)]
pub struct FixRow<'a> {
    pub path: &'a str,
    /// The line it is about, in the text of the pass that found it.
    pub line: Option<u64>,
    pub rule: &'static str,
    pub applicability: Applicability,
    pub action: &'a str,
    pub bytes_removed: u64,
    pub bytes_added: u64,
    pub applied: bool,
    /// Why it was not applied, or why the file was not written; `null` otherwise.
    pub reason: Option<&'a str>,
    /// The pass that applied or found it (1 for the first).
    pub pass: usize,
}

/// `path:line: rule: action`, with what kept it back.
pub fn fix_line(path: &str, f: &Fixed, written: Option<&str>) -> Cell {
    let at = f.line.map(|n| format!(":{n}")).unwrap_or_default();
    let unsafe_ = if f.applicability == Applicability::Unsafe {
        " [unsafe]"
    } else {
        ""
    };
    let (tail, tone) = match (&f.reason, written) {
        (Some(why), _) => (format!(" (not applied: {why})"), Tone::Warn),
        (None, Some(why)) => (format!(" (not written: {why})"), Tone::Bad),
        (None, None) => (String::new(), Tone::Plain),
    };
    Cell::text(&format!(
        "{path}{at}: {}: {}{unsafe_}{tail}",
        f.rule.slug(),
        f.action
    ))
    .tone(tone)
}

/// `path:line: rule: left: message (why)`.
pub fn left_line(path: &str, l: &Left) -> Cell {
    let at = l.line.map(|n| format!(":{n}")).unwrap_or_default();
    Cell::text(&format!(
        "{path}{at}: {}: not repaired: {} ({})",
        l.rule.slug(),
        l.message,
        l.why
    ))
    .tone(Tone::Bad)
}

/// The unified diff of `old` and `new` (three lines of context), each line made safe for a
/// terminal; empty when they are equal.
pub fn diff(path: &str, old: &[u8], new: &[u8]) -> String {
    let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
    if old == new {
        return String::new();
    }
    let text = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
    let unified = text
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string();
    let mut out = String::with_capacity(unified.len());
    for line in unified.lines() {
        out.push_str(&clean(line));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_shows_what_changes_and_nothing_can_drive_a_terminal() {
        let d = diff("r.jsonl", b"a\n\x1b[31mb\nc\n", b"a\nc\n");
        assert!(d.starts_with("--- a/r.jsonl\n+++ b/r.jsonl\n@@"), "{d}");
        assert!(d.contains("\n-"), "{d}");
        assert!(!d.contains('\x1b'), "{d}");
        assert_eq!(diff("r", b"same\n", b"same\n"), "");
    }
}
