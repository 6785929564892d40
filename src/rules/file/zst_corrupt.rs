//! `file.zst-corrupt`: a compressed rollout that cannot be decompressed.

use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A `.jsonl.zst` rollout decompresses to its end: its last frame is whole,
    /// and nothing but frames follows.
    ///
    /// **Why it matters.** Codex refuses to resume it: 0.147 and 0.171 stop with "failed to
    /// read session metadata …: incomplete frame" for a cut file and "Unknown frame
    /// descriptor" for bytes after its frame (`testdata/lint/file.zst-corrupt/verdicts.json`).
    /// What rollscope shows of it is only what it could read.
    ///
    /// **Example.** A copy of a cold session cut short; a file another tool appended to.
    ///
    /// **Fix.** Restore the file from where it was copied; if only its end is damaged,
    /// `zstd -d` what can be read and keep the complete lines.
    "file.zst-corrupt", Error, "a compressed rollout that cannot be decompressed",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Empty, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(cause) = &facts.file.corrupt_compression else {
        return;
    };
    out.push(
        None,
        format!(
            "the compressed stream cannot be decompressed ({cause}): Codex refuses to resume it"
        ),
    );
}
