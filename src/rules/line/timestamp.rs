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
    "line.timestamp", Error, "a record without a string timestamp",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, bad) in super::rejected(facts) {
        if matches!(bad.error, DecodeError::TimestampMissing | DecodeError::TimestampNotString) {
            out.push_nth(nth, Some(bad.line()), super::message(bad));
        }
    }
}
