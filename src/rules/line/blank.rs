//! `line.blank`: blank lines, which Codex never writes.

use crate::findings::{Edit, Fix, Span};
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** No line is blank (empty, or only whitespace).
    ///
    /// **Why it matters.** Codex never writes one, and its readers skip them: 0.128, 0.147
    /// and 0.171 resume a file with blank lines at its head, in its middle or at its end to
    /// the history of the file without them, and the app-server shows the same turns
    /// (`testdata/lint/line.blank/verdicts.json`). A blank line is a foreign writer's mark,
    /// and a strict JSON Lines reader (one JSON value a line) fails on it.
    ///
    /// **Example.** A writer that ends each record with `\n\n`; a file concatenated from
    /// parts, each with a trailing newline.
    ///
    /// **Fix.** Write one record a line, and nothing else.
    ///
    /// The fix (safe) deletes each run of blank lines: Codex skips them, so what it rebuilds
    /// is the same (the verdicts above).
    "line.blank", Warning, "a blank line, which Codex never writes",
    effect: Warns,
    fix: Always [Safe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each run of consecutive blank lines: one finding, spanning them all.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    // A file of blank lines alone is `file.empty`'s.
    if facts.empty() || facts.replay.is_none() {
        return;
    }
    let cut = facts.cut_line();
    for run in &facts.file.blank {
        if cut.is_some_and(|l| run.first.pos.line > l) {
            break;
        }
        let (first, last) = (out.span(&run.first), out.span(&run.last));
        let span = Span {
            end: last.end,
            end_line: last.end_line,
            end_column: last.end_column,
            ..first
        };
        let what = match run.lines() {
            1 => "a blank line".to_string(),
            n => format!("{n} blank lines (to line {})", run.last.pos.line),
        };
        let fix = Fix::safe(
            "delete the blank lines",
            vec![Edit::delete(
                out.file().clone(),
                run.first.pos.offset..run.last.next(),
            )],
        );
        out.push_span(
            0,
            Some(span),
            format!(
                "{what}: Codex never writes one and skips it; a strict JSON Lines reader fails"
            ),
        )
        .fixed(fix);
    }
}
