//! `file.no-final-newline`: a last line without its newline.

use crate::findings::{Edit, Fix};
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The last line ends with a newline.
    ///
    /// **Why it matters.** Codex's next append goes right after the last byte: Codex 0.128
    /// appends its next record onto the unterminated line, so that record is lost too
    /// (0.147 and 0.171 end the line first).
    ///
    /// **Example.** A writer that puts the newline before each record instead of after.
    ///
    /// **Fix.** End every record with a newline (`\n`).
    ///
    /// The fix (safe) appends one: what 0.147 and 0.171 do themselves before their next record.
    "file.no-final-newline", Warning, "the last line has no final newline",
    effect: Warns,
    fix: Always [Safe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::FinalNewline, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    // A torn last line (one that does not decode) is `line.json`'s.
    let torn = facts.file.bad.last().is_some_and(|b| b.torn);
    if !facts.file.stream.no_final_newline || torn || facts.empty() {
        return;
    }
    // At the end of the file (what follows the last record, blank, ends there too).
    let end = facts.file.stream.bytes;
    let fix = (!facts.partial()).then(|| {
        Fix::safe(
            "end the last line with a newline",
            vec![Edit::insert(out.file().clone(), end, "\n".to_string())],
        )
    });
    let f = out.push(
        r.last_record,
        "the last line has no final newline: Codex 0.128 appends its next record onto it, and \
         that record is lost too"
            .to_string(),
    );
    f.fix = fix;
}
