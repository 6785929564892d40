//! `file.name`: a file Codex would not find by its name.

use crate::codex::{Answer, Behaviour};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The file is named as Codex names rollouts:
    /// `rollout-<YYYY-MM-DDThh-mm-ss>-<thread id>[_<rollout id>].jsonl[.zst]`, the ids
    /// being UUIDs. An error for a `.jsonl`/`.jsonl.zst` inside a Codex home's `sessions/`
    /// or `archived_sessions/` (lint's walk takes every such file, whatever its name); a
    /// warning elsewhere.
    ///
    /// **Why it matters.** Codex finds a thread by its file name: from 0.147 a file under
    /// `sessions/` that it does not recognise is never found ("no rollout found for thread
    /// id"), so its resume is refused and its listing hides it (verified with 0.147, 0.154,
    /// 0.160 and 0.171). Codex 0.110 and 0.128 find any name that holds the thread id
    /// (`session-<id>.jsonl`), a warning when read as those (`docs/codex-versions.md`).
    /// Elsewhere the file cannot be moved into a Codex home as it is.
    ///
    /// **Example.** `sessions/2026/11/29/session-copy.jsonl`; `rollout-2026-11-29-abc.jsonl`.
    ///
    /// **Fix.** Rename it `rollout-<local start time>-<session_meta.id>.jsonl`.
    "file.name", Warning, "the file name is not a rollout name",
}

/// Not `lint`'s alone: in a Codex home the name decides whether Codex resumes the file at
/// all, which the state view says too (it judges names only there).
pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Placement, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(p) = facts.placement else { return };
    if p.date.is_some() {
        return;
    }
    if p.home.is_some() {
        let v = facts.codex.version;
        // Versions before 0.147 find a name that holds the thread id.
        let id = facts.file.session.thread_id.as_deref();
        let holds_id = facts
            .source()
            .path()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .zip(id)
            .is_some_and(|(n, id)| n.to_ascii_lowercase().contains(&id.to_ascii_lowercase()));
        if holds_id && facts.codex.does(Behaviour::NameUnrecognised, Answer::Reads) {
            out.push(
                None,
                format!(
                    "not a rollout file name (rollout-<time>-<thread id>.jsonl): Codex {v} finds \
                     it by the thread id the name holds, but 0.147 and later never find it"
                ),
            )
            .effect(Effect::Warns);
            return;
        }
        out.push(
            None,
            format!(
                "not a rollout file name (rollout-<time>-<thread id>.jsonl): Codex {v} never \
                 finds this file, so it cannot be listed or resumed"
            ),
        )
        .effect(Effect::Refused);
    } else {
        out.push(
            None,
            "not a rollout file name (rollout-<time>-<thread id>.jsonl): Codex would not find \
             it in a Codex home under this name"
                .to_string(),
        );
    }
}
