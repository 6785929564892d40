//! `file.name`: a file Codex would not find by its name.

use crate::findings::Severity;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The file is named as Codex names rollouts:
    /// `rollout-<YYYY-MM-DDThh-mm-ss>-<thread id>[_<rollout id>].jsonl[.zst]`, the ids
    /// being UUIDs. An error for a `.jsonl`/`.jsonl.zst` inside a Codex home's `sessions/`
    /// or `archived_sessions/` (lint's walk takes every such file, whatever its name); a
    /// warning elsewhere.
    ///
    /// **Why it matters.** Codex finds a thread by its file name: under `sessions/` a file it
    /// does not recognise is never found, so its resume is refused and its listing hides it
    /// (verified with 0.128, 0.147 and 0.171). Elsewhere the file cannot be moved into a Codex
    /// home as it is.
    ///
    /// **Example.** `sessions/2026/11/29/session-copy.jsonl`; `rollout-2026-11-29-abc.jsonl`.
    ///
    /// **Fix.** Rename it `rollout-<local start time>-<session_meta.id>.jsonl`.
    "file.name", Warning, "the file name is not a rollout name",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Placement, check)]).lint_only();

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(p) = facts.placement else { return };
    if p.date.is_some() {
        return;
    }
    if p.home.is_some() {
        let f = out.push(
            None,
            "not a rollout file name (rollout-<time>-<thread id>.jsonl): Codex never finds \
             this file, so it cannot be listed or resumed"
                .to_string(),
        );
        f.severity = Severity::Error;
    } else {
        out.push(
            None,
            "not a rollout file name (rollout-<time>-<thread id>.jsonl): Codex would not find \
             it in a Codex home under this name"
                .to_string(),
        );
    }
}
