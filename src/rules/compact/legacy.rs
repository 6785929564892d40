//! `compact.legacy`: a compaction without replacement history.

use crate::replay::history::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Reports a `compacted` record without `replacement_history` (Codex before
    /// 0.128).
    ///
    /// **Why it matters.** On resume Codex rebuilds the history from the user messages and
    /// the summary (the legacy fallback): an unusual prompt shape, and what the compaction
    /// kept beyond the summary is gone. A fact, not a defect.
    ///
    /// **Example.** Any compaction of Codex 0.36 or 0.80.
    ///
    /// **Fix.** Nothing to fix; newer Codex writes the replacement history.
    "compact.legacy", Info, "a compaction without replacement history",
    effect: Nothing,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::History, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.history_problems.iter().enumerate() {
        if p.fault == Fault::CompactionLegacy {
            out.push_at(
                nth,
                p.at.own_pos(),
                "compaction without replacement_history: on resume Codex rebuilds the history \
                 from the user messages and this summary"
                    .to_string(),
            );
        }
    }
}
