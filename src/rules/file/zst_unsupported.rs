//! `file.zst-unsupported`: a compressed rollout the Codex version read as cannot read.

use crate::codex::{Answer, Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The Codex version the file is read as (`--codex`) reads `.jsonl.zst`
    /// rollouts. Reported only for such a file read as a version that does not.
    ///
    /// **Why it matters.** Codex before 0.147 reads the compressed bytes as text and refuses
    /// the resume ("stream did not contain valid UTF-8"); 0.147 and later decompress it
    /// (`docs/codex-versions.md`). Cold sessions that a newer Codex compressed cannot be
    /// resumed with an older one.
    ///
    /// **Example.** A `rollout-….jsonl.zst` that Codex 0.171 compressed, read with
    /// `--codex 0.128`.
    ///
    /// **Fix.** Decompress it (`zstd -d --rm`) to the same name without `.zst`, or resume it
    /// with Codex 0.147 or later.
    "file.zst-unsupported", Error, "a compressed rollout this Codex version cannot read",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Empty, check)]);

/// What the version does with a compressed rollout.
fn effect(r: &Reading) -> Effect {
    match r.answer(Behaviour::Compressed) {
        Answer::Refuses => Effect::Refused,
        _ => Effect::Nothing,
    }
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let compressed = facts
        .source()
        .path()
        .and_then(|p| p.file_name())
        .is_some_and(|n| n.as_encoded_bytes().ends_with(b".zst"));
    if !compressed || effect(&facts.codex) != Effect::Refused {
        return;
    }
    out.push(
        None,
        format!(
            "a compressed rollout: Codex {} reads it as text and refuses to resume it \
             (\"stream did not contain valid UTF-8\"; 0.147 and later decompress it)",
            facts.codex.version
        ),
    );
}
