//! `history_base.in-legacy`: a history base in a legacy rollout.

use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A legacy file has no `history_base`.
    ///
    /// **Why it matters.** Only paginated files continue a source by reference; Codex
    /// ignores a legacy file's `history_base`, so the inherited history it names is not
    /// there (a legacy fork copies its parent's records instead).
    ///
    /// **Example.** A writer that adds `history_base` without switching to paginated mode.
    ///
    /// **Fix.** Write `history_mode: paginated` with the paginated contract, or copy the
    /// parent's records.
    "history_base.in-legacy", Warning, "a history_base in a legacy rollout",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::MetaBase, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let session = &facts.file.session;
    if facts.replay.is_some() && session.history_base.is_some() && session.mode() == "legacy" {
        out.push(
            facts.ordinals().and_then(|o| o.meta),
            "history_base in a legacy rollout: Codex ignores it (only paginated files continue \
             a source by reference)"
                .to_string(),
        );
    }
}
