//! `rollback.overflow`: a rollback larger than the history.

use crate::replay::history::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** `thread_rolled_back.num_turns` is at most the user turns left in the
    /// history.
    ///
    /// **Why it matters.** Codex drops every user turn (keeping only the leading context),
    /// which is rarely what the writer meant.
    ///
    /// **Example.** `"num_turns": 10` in a session of three turns.
    ///
    /// **Fix.** Count the turns standing before writing the marker.
    "rollback.overflow", Warning, "a rollback larger than the history",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::History, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.history_problems.iter().enumerate() {
        if let Fault::RollbackOverflow {
            num_turns,
            user_turns,
        } = p.fault
        {
            out.push_at(
                nth,
                p.at.own_pos(),
                format!(
                    "thread_rolled_back drops {num_turns} turns but only {user_turns} user turns \
                     stand: every user turn is dropped"
                ),
            );
        }
    }
}
