//! `line.not-object`: a line that is JSON but not an object.

use crate::decode::DecodeError;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every line is a JSON object.
    ///
    /// **Why it matters.** Codex cannot read another value as a record and skips it: what it
    /// held is lost on resume.
    ///
    /// **Example.** `[1,2,3]` on a line of its own.
    ///
    /// **Fix.** Write records as `{timestamp, type, payload}` objects.
    ///
    /// The fix (safe) deletes the line, which Codex skips (0.147 resumes the file without it to
    /// the same history, `testdata/lint/line.not-object/verdict-0.147.0-fixed.json`). None in a
    /// paginated file for a line that carries an ordinal (deleted, it would open a gap).
    "line.not-object", Error, "a line that is not a JSON object",
    effect: Loses,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    super::report(facts, out, |e| matches!(e, DecodeError::NotObject { .. }));
}
