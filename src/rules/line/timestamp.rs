//! `line.timestamp`: a record without its timestamp.

use crate::decode::DecodeError;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every record has a string `timestamp`.
    ///
    /// **Why it matters.** Codex's reader rejects the line and the record is lost on resume.
    ///
    /// **Example.** A record written without its envelope's `timestamp`.
    ///
    /// **Fix.** Stamp every record (RFC 3339, UTC).
    ///
    /// The fix (safe) deletes the line, which Codex skips (0.147 resumes the file without it to
    /// the same history, `testdata/lint/line.timestamp/verdict-0.147.0-fixed.json`). None in a
    /// paginated file for a line that carries an ordinal (deleted, it would open a gap).
    "line.timestamp", Error, "a record without a string timestamp",
    effect: Loses,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    super::report(facts, out, |e| {
        matches!(
            e,
            DecodeError::TimestampMissing | DecodeError::TimestampNotString
        )
    });
}
