//! `line.type`: a record without its type.

use crate::decode::DecodeError;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every record has a string `type`.
    ///
    /// **Why it matters.** Codex cannot tell what the record is and skips it.
    ///
    /// **Example.** `{"timestamp": "…", "payload": {…}}`.
    ///
    /// **Fix.** Write the record's type.
    ///
    /// The fix (safe) deletes the line, which Codex skips (0.147 resumes the file without it to
    /// the same history, `testdata/lint/line.type/verdict-0.147.0-fixed.json`). None in a
    /// paginated file for a line that carries an ordinal (deleted, it would open a gap).
    "line.type", Error, "a record without a string type",
    effect: Loses,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    super::report(facts, out, |e| {
        matches!(e, DecodeError::TypeMissing | DecodeError::TypeNotString)
    });
}
