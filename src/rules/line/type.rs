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
    "line.type", Error, "a record without a string type",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, bad) in super::rejected(facts) {
        if matches!(bad.error, DecodeError::TypeMissing | DecodeError::TypeNotString) {
            out.push_nth(nth, Some(bad.line()), super::message(bad));
        }
    }
}
