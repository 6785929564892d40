//! `line.oversized`: a record over Codex's record limits.

use crate::decode::{DecodeError, Record};
use crate::findings::Severity;
use crate::rules::words::size;
use crate::rules::{Facts, Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** No record is longer than 16 MiB. A line longer than `--max-line-bytes`
    /// (512 MiB by default) is skipped unread and reported here too.
    ///
    /// **Why it matters.** Not the resume: Codex 0.128 and 0.171 resumed files with a line of
    /// 30 MiB and of 150 MiB and sent every item (`testdata/typed/cases/line-30mib`; a tool
    /// output that long is cut in the middle to the model's budget, as any long output is).
    /// But Codex's compression validation refuses a record over 16 MiB, and `codex
    /// migrate-rollouts` one over 24 MiB (`oversized_rollout_record`, upstream): the file
    /// cannot be compressed to cold storage or migrated to paginated history. Such records
    /// also slow every resume.
    ///
    /// **Example.** A tool output of 30 MB written inline; an old inline compaction
    /// checkpoint.
    ///
    /// **Fix.** Truncate large outputs before writing them.
    "line.oversized", Warning, "a record over 16 MiB: Codex will not compress or migrate the file",
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[
        Hook::file(Stage::Decoder, too_long),
        Hook::record(Stage::RecordSize, Kinds::ALL, record).longer_than(RECORD_WARN),
    ],
);

/// Codex's compression validation refuses a record over this (`inspect_rollout`).
pub const RECORD_WARN: u64 = 16 << 20;
/// `codex migrate-rollouts` refuses a record over this (`MAX_ROLLOUT_LINE_BYTES`).
pub const RECORD_ERROR: u64 = 24 << 20;

/// The severity of a record of `bytes` bytes, if it is one this rule reports: a warning
/// over either limit (the resume reads it whole: a 150 MiB line verified, 0.128 and 0.171).
pub fn oversized(bytes: u64) -> Option<Severity> {
    (bytes > RECORD_WARN).then_some(Severity::Warning)
}

/// A line longer than `--max-line-bytes`, skipped unread: judged by Codex's limits; one
/// within them (a low `--max-line-bytes`) is still a line nothing here checked.
fn too_long(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, bad) in super::rejected(facts) {
        if let DecodeError::TooLong { len, .. } = bad.error {
            let f = out.push_nth(nth, Some(bad.line()), super::message(bad));
            f.severity = oversized(len).unwrap_or(Severity::Warning);
        }
    }
}

fn record(rec: &Record<'_>, _: &RecordCx<'_>, out: &mut Found<'_>) {
    let bytes = rec.raw.len() as u64;
    let Some(severity) = oversized(bytes) else {
        return;
    };
    let f = out.push_rec(
        rec,
        format!(
            "a record of {}: Codex resumes it, but its compression refuses records over 16 \
             MiB{}",
            size(bytes),
            if bytes > RECORD_ERROR {
                ", and `codex migrate-rollouts` over 24 MiB"
            } else {
                ""
            }
        ),
    );
    f.severity = severity;
}
