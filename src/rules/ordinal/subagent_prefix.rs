//! `ordinal.subagent-prefix`: a sub-agent whose inherited prefix is cut short.

use crate::analysis::ordinal::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A sub-agent file's inherited prefix reaches
    /// `subagent_history_start_ordinal - 1`.
    ///
    /// **Why it matters.** Its resume fails: the sub-agent's own history starts after a
    /// prefix that is not all there.
    ///
    /// **Example.** A sub-agent file cut short before its own records.
    ///
    /// **Fix.** Restore the inherited prefix from the parent.
    "ordinal.subagent-prefix", Error, "a sub-agent's inherited prefix is incomplete",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::SubagentPrefix { start, last } = p.fault {
            let reach = start.saturating_sub(1);
            let f = out.push_nth(
                nth,
                Some(p.at),
                format!(
                    "sub-agent rollout is incomplete: its inherited prefix must reach ordinal \
                     {reach} (subagent_history_start_ordinal {start}) but the last parseable \
                     record has {last}: the next resume fails"
                ),
            );
            (f.expected, f.found) = (Some(reach), Some(last));
        }
    }
}
