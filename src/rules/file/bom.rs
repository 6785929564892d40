//! `file.bom`: a byte order mark before the first record.

use crate::analysis::ordinal::{Fault, Head, Problem};
use crate::findings::{Edit, Fix, Span};
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Line 1 starts with a UTF-8 byte order mark (`EF BB BF`).
    ///
    /// **Why it matters.** Codex parses the first line as JSON and fails on the mark
    /// ("failed to parse first rollout record", openai/codex#28139): it refuses to resume the
    /// thread, and its listing hides it.
    ///
    /// **Example.** A writer opened the file with a BOM-adding encoding (`utf-8-sig`).
    ///
    /// **Fix.** Write UTF-8 without a BOM; strip the first three bytes of an affected file.
    ///
    /// The fix (safe) deletes the three bytes: Codex parses the first record again (the
    /// fixture fixed is its clean twin, byte for byte: `tests/cli/fixes.rs`).
    "file.bom", Error, "the file starts with a UTF-8 byte order mark",
    effect: Refused,
    fix: Always [Safe],
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[
        Hook::file(Stage::Ordinals, head),
        Hook::file(Stage::Head, head),
    ],
);

/// A file's head, as its ordinal check found it (a paginated file's among its ordinal
/// problems, another's apart).
fn head(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.heads(out.stage()) {
        found(nth, p, out);
    }
}

fn found(nth: usize, p: &Problem, out: &mut Found<'_>) {
    if p.fault != Fault::Head(Head::Bom) {
        return;
    }
    // The mark itself: three bytes, one character.
    let at = p.at.pos.offset;
    let span = Span::within(&p.at, at..at + 3, 0..1);
    let fix = Fix::safe(
        "delete the byte order mark",
        vec![Edit::delete(out.file().clone(), at..at + 3)],
    );
    out.push_span(
        nth,
        Some(span),
        "line 1 starts with a UTF-8 byte order mark: Codex cannot parse its first record, so \
         its resume fails (openai/codex#28139)"
            .to_string(),
    )
    .fixed(fix);
}
