//! `line.json`: a line that is not JSON, or not UTF-8.

use crate::decode::DecodeError;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every line is valid UTF-8 JSON.
    ///
    /// **Why it matters.** Codex skips an invalid JSON line: its record is lost on resume.
    /// Invalid UTF-8 anywhere makes Codex 0.147 refuse the whole file. A torn last line (a
    /// crash mid-write) is one too.
    ///
    /// **Example.** A line cut in half; a Latin-1 byte in a message.
    ///
    /// **Fix.** Write each record as one line of UTF-8 JSON.
    ///
    /// The fix deletes the line: safe for one that is not JSON, which Codex skips (0.147
    /// resumes the file without it to the same history,
    /// `testdata/lint/line.json/verdict-0.147.0-fixed.json`); unsafe for one that is not UTF-8,
    /// whose record replacing the bad bytes would keep. None in a paginated file for a line
    /// that carries an ordinal (deleted, it would open a gap).
    "line.json", Error, "a line that is not valid JSON or UTF-8",
    effect: Loses,
    fix: Sometimes [Safe, Unsafe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Decoder, check)]);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    super::report(facts, out, |e| {
        matches!(e, DecodeError::Utf8 { .. } | DecodeError::Json { .. })
    });
}
