//! `meta.id-vs-filename`: a session id that is not the file name's.

use crate::codex::{Answer, Behaviour, Reading};
use crate::decode::{select, Record};
use crate::findings::Effect;
use crate::rules::words::short;
use crate::rules::{Found, Hook, RecordCx, Unit};

rule! {
    /// **Checks.** The first `session_meta`'s `id` is the thread id of the file's name
    /// (`rollout-<time>-<thread id>[_<rollout id>].jsonl`).
    ///
    /// **Why it matters.** What Codex does depends on the version (`docs/codex-versions.md`,
    /// verified with 0.110 to 0.171): 0.171 refuses `codex resume <the id in the name>`
    /// ("thread source changed during resume"; resuming by the metadata's id or `--last`
    /// works), an error; 0.147 to 0.160 resume it by either id, under the id in the name,
    /// with a warning; 0.110 and 0.128 run it under the metadata's id, and resuming by that
    /// id fails or starts an empty thread.
    ///
    /// **Example.** A rollout copied under another session's name.
    ///
    /// **Fix.** Name the file after its `session_meta.id`.
    "meta.id-vs-filename", Error, "the session_meta id differs from the file name",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::session_meta(check)]).follows(effect);

/// What the version does with such a file.
fn effect(r: &Reading) -> Effect {
    match r.answer(Behaviour::MetaIdDiffers) {
        Answer::Refuses => Effect::Refused,
        _ => Effect::Warns,
    }
}

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if !cx.is_first_meta(rec) {
        return;
    }
    let meta_id = rec.payload_field("id").and_then(select::str_value);
    if let (Some(id), Some(file_id)) = (meta_id, cx.file_id) {
        if !id.eq_ignore_ascii_case(file_id) {
            let v = cx.codex.version;
            let does = match cx.codex.answer(Behaviour::MetaIdDiffers) {
                Answer::Refuses => format!(
                    "Codex {v} refuses `resume <the id in the name>` (\"thread source changed \
                     during resume\"); resuming by the metadata's id or --last works"
                ),
                Answer::ResumesUnderMetaId => format!(
                    "Codex {v} resumes it by the id in the name and runs it under the \
                     metadata's id (resuming by the metadata's id fails)"
                ),
                _ => format!(
                    "Codex {v} resumes it by either id, under the id in the name, with a \
                     warning (\"state db discrepancy\")"
                ),
            };
            out.push_rec(
                rec,
                format!(
                    "session_meta.id {} is not the thread id {} of the file name: {does}",
                    short(&id),
                    short(file_id)
                ),
            )
            .effect(effect(&cx.codex));
        }
    }
}
