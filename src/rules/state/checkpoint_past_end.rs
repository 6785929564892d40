//! `state.checkpoint-past-end`: a projection checkpoint past the end of its rollout.

use crate::codex::{Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The thread-history checkpoint of a paginated thread
    /// (`thread_history_projection_state.next_rollout_byte_offset` in
    /// `thread_history_1.sqlite`) lies within its rollout.
    ///
    /// **Why it matters.** Codex writes a line to the rollout before it projects it, so the
    /// checkpoint is never past the file's end unless the file was cut back after (by hand,
    /// by a restore, by a sync tool). Codex 0.153 to 0.171 then warn `durable rollout shrank
    /// before projection`: the resume sends what the file holds, but a client keeps being
    /// shown the turns that are gone and is never shown the next one (on 0.160, once the file
    /// grew past the old offset, the projection restarted inside a line).
    ///
    /// **Example.** `head -n -20 rollout-….jsonl > x && mv x rollout-….jsonl`.
    ///
    /// **Fix.** Put the cut bytes back if a copy has them; else, with Codex closed, move
    /// `thread_history_1.sqlite` aside: the next resume rebuilds the projection from the
    /// rollout.
    "state.checkpoint-past-end", Warning, "a projection checkpoint past the end of its rollout",
    effect: ClientStuck,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::StateDb, check)]).follows(effect);

fn effect(r: &Reading) -> Effect {
    super::projection_effect(r, Behaviour::CheckpointPastEnd)
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(s) = super::state(facts) else {
        return;
    };
    let Some(c) = s.checkpoint.filter(|c| c.next_byte_offset > s.size) else {
        return;
    };
    let v = facts.codex.version;
    let f = out.push(
        None,
        format!(
            "Codex's thread-history checkpoint is at byte {}, past the end of the file ({} \
             bytes): the file was cut back after Codex projected it. Codex {v} warns `durable \
             rollout shrank before projection`: the resume sends what the file holds, but a \
             client keeps being shown the turns that are gone and is never shown another. \
             Put the cut bytes back, or {}",
            c.next_byte_offset,
            s.size,
            super::REBUILD
        ),
    );
    f.effect(effect(&facts.codex));
    (f.expected, f.found) = (Some(s.size), Some(c.next_byte_offset));
}
