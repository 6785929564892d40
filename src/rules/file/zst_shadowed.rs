//! `file.zst-shadowed`: a compressed rollout its plain twin hides.

use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A `.jsonl.zst` rollout has no plain `.jsonl` twin beside it.
    ///
    /// **Why it matters.** Codex reads the plain file and ignores the compressed one: the
    /// `.zst` is never resumed or listed, and whatever it holds beyond the plain file is
    /// invisible. rollscope's walks prefer the plain file too; lint reports the `.zst`
    /// without reading it.
    ///
    /// **Example.** A compression job that wrote `X.jsonl.zst` but failed to delete `X.jsonl`.
    ///
    /// **Fix.** Keep one of the two: delete the plain file once the `.zst` is verified, or
    /// the `.zst`.
    "file.zst-shadowed", Warning, "a .jsonl.zst shadowed by its plain twin",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Placement, check)]).lint_only();

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    if let Some(plain) = facts.placement.and_then(|p| p.twin.as_ref()) {
        out.push(
            None,
            format!(
                "{plain} sits beside this file: Codex reads the plain file and ignores this one"
            ),
        );
    }
}
