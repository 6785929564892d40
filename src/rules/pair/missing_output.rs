//! `pair.missing-output`: a tool call without its output.

use crate::replay::prompt::Pair;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every tool call in the rebuilt history has an output.
    ///
    /// **Why it matters.** Codex sends a synthetic `aborted` output right after it
    /// (`ensure_call_outputs_present`, verified with 0.147): the model reads the call as
    /// aborted. Not reported for the open last turn, whose call may still be running.
    ///
    /// **Example.** A session killed while a command ran.
    ///
    /// **Fix.** Nothing, if the session was killed; otherwise write the output.
    "pair.missing-output", Warning, "a tool call without output",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Pairing, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.pairs.iter().enumerate() {
        let at = p.at.as_ref().and_then(|a| a.own_pos());
        // The open last turn's call may still be running; one a fork or sub-agent copied
        // from its parent is answered in the parent's file.
        if let Pair::CallWithoutOutput {
            call_id,
            open_turn: false,
            inherited: false,
        } = &p.pair
        {
            out.push_at(
                nth,
                at,
                format!(
                    "call {} has no output: the resumed prompt gets a synthetic \"aborted\" \
                     output",
                    short(call_id)
                ),
            );
        }
    }
}
