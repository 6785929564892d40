//! `tokens.none`: a session that recorded no token usage.

use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Reports a file with turns but no `token_count` carrying usage.
    ///
    /// **Why it matters.** Codex restores the session's token usage from the last
    /// `token_count` on resume: it starts at zero, and no tool can say what the session
    /// used. A fact about the writer.
    ///
    /// **Example.** A writer that records no usage events.
    ///
    /// **Fix.** Write `token_count` events after each response.
    "tokens.none", Info, "no token usage recorded",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Usage, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    let has_turns = facts
        .file
        .turns
        .as_ref()
        .is_some_and(|t| !t.turns.is_empty());
    if has_turns && r.state.token_info.is_none() && !facts.partial() {
        out.push(
            None,
            "no token_count with usage in the file: on resume Codex's usage starts at zero"
                .to_string(),
        );
    }
}
