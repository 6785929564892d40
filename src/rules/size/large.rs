//! `size.large`: a large file, or a large record.

use crate::decode::Record;
use crate::rules::line::oversized::RECORD_WARN;
use crate::rules::words::size;
use crate::rules::{Facts, Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** Reports a file over 100 MB, or a record over 2 MB (up to 16 MiB, where
    /// `line.oversized` takes over).
    ///
    /// **Why it matters.** Codex reads the whole file on every resume and keeps large records
    /// in memory: slow resumes and out-of-memory kills (openai/codex#24948, #29531). A fact
    /// worth knowing before sharing or compressing the file.
    ///
    /// **Example.** A long session with big tool outputs and many compactions.
    ///
    /// **Fix.** Compact or start a new session; truncate large outputs.
    "size.large", Info, "a file over 100 MB or a record over 2 MB",
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[
        Hook::record(Stage::RecordSize, Kinds::ALL, record).longer_than(RECORD_LARGE),
        Hook::file(Stage::FileSize, file),
    ],
);

/// A record worth knowing about (up to where `line.oversized` takes over).
const RECORD_LARGE: u64 = 2 * 1000 * 1000;
/// A file worth knowing about.
const FILE_LARGE: u64 = 100 * 1000 * 1000;

fn record(rec: &Record<'_>, _: &RecordCx<'_>, out: &mut Found<'_>) {
    let bytes = rec.raw.len() as u64;
    if bytes > RECORD_LARGE && bytes <= RECORD_WARN {
        out.push_rec(
            rec,
            format!(
                "a record of {}: every resume holds it in memory",
                size(bytes)
            ),
        );
    }
}

fn file(facts: &Facts<'_>, out: &mut Found<'_>) {
    let bytes = facts.file.stream.bytes;
    if facts.replay.is_some() && bytes > FILE_LARGE {
        out.push(
            None,
            format!("the file is {}: every resume reads it whole", size(bytes)),
        );
    }
}
