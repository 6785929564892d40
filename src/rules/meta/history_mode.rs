//! `meta.history-mode`: a history mode Codex does not know.

use crate::analysis::ordinal::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** `session_meta.history_mode` is absent, `legacy` or `paginated`.
    ///
    /// **Why it matters.** Codex refuses to load a rollout of any other mode ("unknown
    /// variant, expected `legacy` or `paginated`", verified with 0.171); its ordinals are not
    /// judged.
    ///
    /// **Example.** `"history_mode": "stacked"` from a newer or foreign writer.
    ///
    /// **Fix.** Write `legacy` (or nothing) unless the file follows the paginated contract.
    "meta.history-mode", Error, "history_mode is not legacy or paginated",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::UnknownHistoryMode { mode } = &p.fault {
            out.push_nth(
                nth,
                Some(p.at),
                format!(
                    "history_mode {mode:?} is unknown: Codex refuses to load this rollout at \
                     all (its ordinals are not checked)"
                ),
            );
        }
    }
}
