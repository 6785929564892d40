//! `compact.window`: a compaction without its window number.

use crate::replay::history::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Reports a `compacted` record with a replacement history but no
    /// `window_number`.
    ///
    /// **Why it matters.** Codex's bounded resume (`ModelContextScan`) stops at a compaction
    /// only when it has both; without the window number it reads the whole file back to the
    /// start. Slower, not wrong.
    ///
    /// **Example.** Compactions of Codex 0.128.
    ///
    /// **Fix.** Nothing to fix; newer Codex writes the window.
    "compact.window", Info, "a compaction without window_number",
    effect: Nothing,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::History, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.history_problems.iter().enumerate() {
        if p.fault == Fault::CompactionNoWindow {
            out.push_at(
                nth,
                p.at.own_pos(),
                "compaction without window_number: Codex's bounded resume scan reads past it to \
                 the start of the file"
                    .to_string(),
            );
        }
    }
}
