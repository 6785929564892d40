//! `line.item-type`: a response item of a type Codex does not know.

use crate::replay::history::Fault;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every `response_item`'s payload `type` is one the Codex version read as
    /// decodes (its list: `docs/codex-versions.md`; a number is read as the index of one).
    ///
    /// **Why it matters.** Codex reads an item of another type as `Other` and never sends
    /// it, without a warning (verified with 0.128, 0.147, 0.160 and 0.171, legacy and
    /// paginated): what it held is lost to the model on resume. An item of a type a newer
    /// Codex wrote is lost the same way to an older one.
    ///
    /// **Example.** `"type": "frobnicate"` on an assistant message; `"type": 99`.
    ///
    /// **Fix.** Write the item with a type Codex decodes, or keep foreign data out of the
    /// rollout.
    "line.item-type", Error, "a response item of a type Codex does not know: never sent",
    effect: Loses,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::History, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.history_problems.iter().enumerate() {
        if let Fault::ItemUnknownType { written } = &p.fault {
            out.push_at(
                nth,
                p.at.own_pos(),
                format!(
                    "a response item of type {}: Codex {} does not know it, reads it as Other \
                     and never sends it",
                    short(written),
                    facts.codex.version
                ),
            );
        }
    }
}
