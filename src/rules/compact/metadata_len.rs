//! `compact.metadata-len`: a compaction whose metadata does not match its history.

use crate::codex::{Answer, Behaviour, Reading};
use crate::findings::Effect;
use crate::replay::history::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A `compacted` record's `replacement_history_metadata` has one entry per
    /// `replacement_history` item (and comes only with one).
    ///
    /// **Why it matters.** From 0.154 Codex rejects the line ("replacement_history_metadata
    /// has M entries for H history items") and the checkpoint is lost: on resume the history
    /// rests on the previous compaction, and everything written since is replayed onto it
    /// (verified with 0.171; an error). Earlier versions apply the compaction as written
    /// (info; `docs/codex-versions.md`).
    ///
    /// **Example.** A writer that drops the `{}` entries of items without metadata.
    ///
    /// **Fix.** Write one metadata entry (`{}` when empty) per history item.
    "compact.metadata-len", Error, "replacement_history_metadata does not match replacement_history",
    effect: Loses,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::History, check)]).follows(effect);

/// What the version does with such a compaction.
fn effect(r: &Reading) -> Effect {
    match r.answer(Behaviour::CompactionMetadataMismatch) {
        Answer::Reads => Effect::Nothing,
        _ => Effect::Loses,
    }
}

/// What the version does, in words.
fn consequence(r: &Reading) -> String {
    match effect(r) {
        Effect::Nothing => format!(
            "Codex {} applies it as written (0.154 and later skip it)",
            r.version
        ),
        _ => format!(
            "Codex {} skips this compaction, so the history rests on the previous one",
            r.version
        ),
    }
}

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
                         items: {}",
                        consequence(&facts.codex)
                    ),
                );
                f.effect(effect(&facts.codex));
                (f.expected, f.found) = (Some(h), Some(metadata));
            }
            None => {
                out.push_at(
                    nth,
                    at,
                    format!(
                        "replacement_history_metadata ({metadata} entries) without \
                         replacement_history: {}",
                        consequence(&facts.codex)
                    ),
                )
                .effect(effect(&facts.codex));
            }
        }
    }
}
