//! `turn.no-context`: a user turn without its settings.

use crate::decode::Pos;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Reports a user turn without a `turn_context` of its own.
    ///
    /// **Why it matters.** Codex takes the previous turn's settings from the last
    /// `turn_context` on resume; without one it has no `previous_turn_settings` and injects
    /// the whole context again. A fact about the writer, or a turn killed before it began.
    ///
    /// **Example.** A writer that records `task_started` and the user message but no
    /// `turn_context`.
    ///
    /// **Fix.** Write a `turn_context` at the start of every turn.
    "turn.no-context", Info, "a user turn without a turn_context",
    effect: Nothing,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Turns, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(t) = facts.file.turns.as_ref() else {
        return;
    };
    for turn in t.without_context.iter().filter_map(|&i| t.turns.get(i)) {
        let start = Pos {
            line: turn.line_start,
            offset: turn.offset_start,
        };
        out.push_at(
            0,
            Some(start),
            format!(
                "user turn {} has no turn_context: on resume Codex has no previous turn settings \
                 and injects the whole context again",
                turn.index
            ),
        );
    }
}
