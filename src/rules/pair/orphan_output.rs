//! `pair.orphan-output`: a tool output without its call.

use crate::replay::prompt::Pair;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every tool output in the rebuilt history answers a call in it.
    ///
    /// **Why it matters.** Codex drops it before sending (`remove_orphan_outputs`, "Orphan
    /// function call output", verified with 0.147; the API would reject it with a 400): what
    /// the tool said is lost to the model.
    ///
    /// **Example.** A call line deleted, or cut away by a compaction.
    ///
    /// **Fix.** Keep each call with its output.
    "pair.orphan-output", Warning, "a tool output without its call",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Pairing, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.pairs.iter().enumerate() {
        let at = p.at.as_ref().and_then(|a| a.own_pos());
        if let Pair::OutputWithoutCall { call_id } = &p.pair {
            out.push_at(
                nth,
                at,
                format!(
                    "output for call {} has no call in the history: the resumed prompt drops it",
                    short(call_id)
                ),
            );
        }
    }
}
