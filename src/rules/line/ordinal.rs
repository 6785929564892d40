//! `line.ordinal`: an ordinal that is not an unsigned integer.

use crate::decode::DecodeError;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** An `ordinal`, when written, is an unsigned integer.
    ///
    /// **Why it matters.** Codex rejects the line; in a paginated file the record and its
    /// place in the sequence are lost.
    ///
    /// **Example.** `"ordinal": "12"` or `-1`.
    ///
    /// **Fix.** Write the ordinal as a number.
    ///
    /// The fix (safe) deletes the line, which Codex skips (0.171 resumes the file without it to
    /// the same history, `testdata/lint/line.ordinal/verdict-0.171.0-fixed.json`). None where a
    /// raw scan reads an ordinal in the line (deleted, it would open a gap).
    "line.ordinal", Error, "an ordinal that is not an unsigned integer",
    effect: Loses,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    super::report(facts, out, |e| matches!(e, DecodeError::OrdinalInvalid));
}
