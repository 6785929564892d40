//! `turn.id-mismatch`: an event that names another turn than its own.

use crate::decode::Pos;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every `turn_context`, `task_complete` and `turn_aborted` that names a
    /// `turn_id` falls inside the turn of that id.
    ///
    /// **Why it matters.** Codex's reconstruction ignores a `turn_context` that names another
    /// turn, so the turn's settings (model, cwd, policies) are not restored on resume; a
    /// terminal event for another turn leaves the turn it falls in unsettled. rollscope
    /// settles each event on the turn it names, as Codex does.
    ///
    /// **Example.** A `task_complete` with the previous turn's id written after the next
    /// `task_started`.
    ///
    /// **Fix.** Stamp each event with the id of the turn it belongs to.
    "turn.id-mismatch", Warning, "an event names another turn than its own",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Turns, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for m in facts.file.turns.iter().flat_map(|t| &t.mismatches) {
        let event = m.event.as_str();
        let unsettled = if event == "turn_context" {
            ", so this turn's settings are not restored on resume"
        } else {
            ""
        };
        let at = Pos {
            line: m.line,
            offset: m.offset,
        };
        out.push_at(
            0,
            Some(at),
            format!(
                "{event} names turn {} but falls in turn {} ({}): Codex settles it on the turn it \
                 names{unsettled}",
                short(&m.turn_id),
                m.turn,
                short(&m.turn_own_id)
            ),
        );
    }
}
