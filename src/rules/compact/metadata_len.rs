//! `compact.metadata-len`: a compaction whose metadata does not match its history.

use crate::replay::history::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A `compacted` record's `replacement_history_metadata` has one entry per
    /// `replacement_history` item (and comes only with one).
    ///
    /// **Why it matters.** Codex rejects the line ("replacement_history_metadata has M entries
    /// for H history items") and the checkpoint is lost: on resume the history rests on the
    /// previous compaction, and everything written since is replayed onto it (verified with
    /// 0.171).
    ///
    /// **Example.** A writer that drops the `{}` entries of items without metadata.
    ///
    /// **Fix.** Write one metadata entry (`{}` when empty) per history item.
    "compact.metadata-len", Error, "replacement_history_metadata does not match replacement_history",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::History, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.history_problems.iter().enumerate() {
        let Fault::CompactionMetadataLen { history, metadata } = p.fault else {
            continue;
        };
        let at = p.at.own_pos();
        match history {
            Some(h) => {
                let f = out.push_at(
                    nth,
                    at,
                    format!(
                        "replacement_history_metadata has {metadata} entries for {h} history \
                         items: Codex skips this compaction, so the history rests on the \
                         previous one"
                    ),
                );
                (f.expected, f.found) = (Some(h), Some(metadata));
            }
            None => {
                out.push_at(
                    nth,
                    at,
                    format!(
                        "replacement_history_metadata ({metadata} entries) without \
                         replacement_history: Codex skips this compaction, so the history rests \
                         on the previous one"
                    ),
                );
            }
        }
    }
}
