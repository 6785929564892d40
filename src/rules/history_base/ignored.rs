//! `history_base.ignored`: a paginated fork read as a Codex version that does not follow
//! its `history_base`.

use crate::codex::{Answer, Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::words::num;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The Codex version the file is read as (`--codex`) follows a paginated
    /// file's `history_base`. Reported only for a paginated file with one, read as a version
    /// that does not.
    ///
    /// **Why it matters.** Codex before 0.147 does not read `history_base`: it resumes the
    /// fork with its own items only, and the history it inherits from its source (what the
    /// user and the model wrote before the fork) is not sent; a fork whose source is absent
    /// is resumed alone too, where 0.147 and later refuse it (`docs/codex-versions.md`).
    ///
    /// **Example.** A `codex fork` or sub-agent rollout of Codex 0.171, read with
    /// `--codex 0.128`.
    ///
    /// **Fix.** Resume it with Codex 0.147 or later.
    "history_base.ignored", Error, "a fork whose source this Codex version does not read",
    effect: Loses,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Lineage, check)]);

/// What the version does with a paginated fork.
fn effect(r: &Reading) -> Effect {
    match r.answer(Behaviour::HistoryBase) {
        Answer::Ignores => Effect::Loses,
        _ => Effect::Nothing,
    }
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let session = &facts.file.session;
    let Some(base) = session.history_base.as_ref().filter(|_| session.paginated) else {
        return;
    };
    if effect(&facts.codex) != Effect::Loses {
        return;
    }
    let source = base.thread_id.as_deref().unwrap_or("?");
    let below = base
        .end_ordinal_exclusive
        .map(|e| format!(" (its records below ordinal {})", num(Some(e))))
        .unwrap_or_default();
    out.push(
        facts.ordinals().and_then(|o| o.meta),
        format!(
            "history_base names source rollout {source}{below}: Codex {} does not read it, so \
             the history inherited from it is not sent (0.147 and later send it)",
            facts.codex.version
        ),
    );
}
