//! `state.checkpoint-at-duplicate`: a projection stopped at a line whose ordinal it does not
//! expect, a duplicate or an earlier one.

use crate::analysis::ordinal::Fault;
use crate::codex::{Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** No record after a paginated thread's projection checkpoint repeats an
    /// ordinal or goes below one (a duplicate or a decrease, as `ordinal.non-monotonic`
    /// finds them), where the projection still has to read it.
    ///
    /// **Why it matters.** The #41079 duplicate (openai/codex#41079: `token_count` N,
    /// `thread_settings_applied` N, `task_started` N+1): Codex 0.153 stops its projection
    /// there for good (`expected ordinal 45, got 44`), its checkpoint stays before it, and a
    /// client is shown the turns before and never another, while `exec resume` still sends
    /// the whole history (with `thread_history_1.sqlite` deleted: no turn at all). From 0.154
    /// the projection skips the line with a warning, and a resume repairs a projection 0.153
    /// left stuck.
    ///
    /// **Example.** A rollout written by Codex 0.150–0.153 with the #41079 duplicate, its
    /// databases beside it.
    ///
    /// **Fix.** Upgrade to Codex 0.154 or later and resume the thread (that repairs it). On
    /// 0.153, delete the duplicate line (do not renumber: the database keeps the old
    /// ordinals), then move `thread_history_1.sqlite` aside with Codex closed.
    "state.checkpoint-at-duplicate", Warning,
    "a projection that has a duplicate or decreasing ordinal still to read",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::StateDb, check)]).follows(effect);

fn effect(r: &Reading) -> Effect {
    super::projection_effect(r, Behaviour::CheckpointRegress)
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(s) = super::state(facts) else {
        return;
    };
    let Some(c) = s.checkpoint.filter(|c| c.next_byte_offset <= s.size) else {
        return;
    };
    let first = facts.sequence().find_map(|(_, p)| match p.fault {
        Fault::Duplicate { found, .. } | Fault::Decrease { found, .. }
            if p.at.pos.offset >= c.next_byte_offset =>
        {
            Some((p.at, found))
        }
        _ => None,
    });
    let Some((line, found)) = first else {
        return;
    };
    let v = facts.codex.version;
    let effect = effect(&facts.codex);
    let does = match effect {
        Effect::ClientStuck => format!(
            "Codex {v}'s projection stops here for good: a client is shown the turns before \
             the checkpoint and never another, while the model gets everything. Upgrade to \
             Codex 0.154 or later and resume the thread, which repairs it"
        ),
        _ => format!(
            "Codex {v} skips the line with a warning and a resume shows every turn (a \
             projection Codex 0.153 left stuck here is repaired by that resume)"
        ),
    };
    let f = out.push(
        Some(line),
        format!(
            "ordinal {found} repeats or goes back after Codex's thread-history checkpoint (byte \
             {}, ordinal {}), where the projection has yet to read it: {does}",
            c.next_byte_offset, c.next_ordinal
        ),
    );
    f.effect(effect);
    f.found = Some(found);
}
