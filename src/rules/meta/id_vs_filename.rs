//! `meta.id-vs-filename`: a session id that is not the file name's.

use crate::decode::{select, Kind, Record};
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** The first `session_meta`'s `id` is the thread id of the file's name
    /// (`rollout-<time>-<thread id>[_<rollout id>].jsonl`).
    ///
    /// **Why it matters.** Codex finds a thread by its file name, then runs it under the
    /// metadata's id (verified with 0.171): a reader that finds threads by name opens the
    /// wrong one, and a resume by id does not find the file.
    ///
    /// **Example.** A rollout copied under another session's name.
    ///
    /// **Fix.** Name the file after its `session_meta.id`.
    "meta.id-vs-filename", Error, "the session_meta id differs from the file name",
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(
        Stage::RecordKind,
        Kinds::of(&[Kind::SessionMeta]),
        check,
    )],
);

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if !cx.is_first_meta(rec) {
        return;
    }
    let meta_id = rec.payload_field("id").and_then(select::str_value);
    if let (Some(id), Some(file_id)) = (meta_id, cx.file_id) {
        if !id.eq_ignore_ascii_case(file_id) {
            out.push_rec(
                rec,
                format!(
                    "session_meta.id {} is not the thread id {} of the file name: Codex finds \
                     the file by its name and runs it under the metadata's id",
                    short(&id),
                    short(file_id)
                ),
            );
        }
    }
}
