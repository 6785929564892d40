//! `file.location`: a rollout outside the folder Codex looks in.

use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A rollout inside a Codex home sits where Codex looks for it: in
    /// `sessions/YYYY/MM/DD/`, the folder of the date its name carries, or directly in
    /// `archived_sessions/`. Files outside any Codex home are not judged.
    ///
    /// **Why it matters.** Codex walks the date folders to list and find threads: a file
    /// elsewhere under `sessions/` is not listed and, for lookups that walk by date, not
    /// found.
    ///
    /// **Example.** `sessions/2026/11/rollout-2026-11-29T12-00-00-….jsonl` (no day folder);
    /// a file of the 29th in `sessions/2026/11/30/`.
    ///
    /// **Fix.** Move it to `sessions/<its name's date as YYYY/MM/DD>/`.
    "file.location", Warning, "a rollout outside the folder Codex looks in",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Placement, check)]).lint_only();

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    if let Some(expected) = facts.placement.and_then(|p| p.misplaced()) {
        out.push(
            None,
            format!(
                "a rollout outside the folder Codex looks in: it belongs in {}",
                short(&expected)
            ),
        );
    }
}
