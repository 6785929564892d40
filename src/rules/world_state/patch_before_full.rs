//! `world_state.patch-before-full`: a world-state patch before any full snapshot.

use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** No `world_state` patch (`full: false`) comes before a full snapshot.
    ///
    /// **Why it matters.** Codex ignores such a patch ("ignored world-state patch without a
    /// full snapshot", verified with 0.171): the state it describes is lost on resume.
    ///
    /// **Example.** A writer that starts with a patch after a compaction cleared the state.
    ///
    /// **Fix.** Write a full snapshot first.
    "world_state.patch-before-full", Warning, "a world_state patch before any full snapshot",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::State, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for at in &r.state.patches_before_full {
        out.push_at(
            0,
            at.own_pos(),
            "world_state patch before any full snapshot: Codex ignores it on resume".to_string(),
        );
    }
}
