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
    "line.not-object", Error, "a line that is not a JSON object",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, bad) in super::rejected(facts) {
        if matches!(bad.error, DecodeError::NotObject { .. }) {
            out.push_nth(nth, Some(bad.line()), super::message(bad));
        }
    }
}
