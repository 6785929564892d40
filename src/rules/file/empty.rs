//! `file.empty`: a file with no line that holds anything.

use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The file holds at least one line that is not blank.
    ///
    /// **Why it matters.** Codex refuses an empty rollout ("does not start with session
    /// metadata"); its listing hides it.
    ///
    /// **Example.** A file created when a session started, and never written.
    ///
    /// **Fix.** Delete it, or write the session's records into it.
    "file.empty", Error, "the file is empty",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Empty, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    if facts.replay.is_some() && facts.empty() {
        out.push(
            None,
            "the file is empty: Codex refuses to resume it (\"does not start with session \
             metadata\")"
                .to_string(),
        );
    }
}
