//! `policy.rollback-in-paginated`: a rollback marker in a paginated rollout.

use crate::decode::{Kind, Record};
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** A paginated file holds no `thread_rolled_back` marker.
    ///
    /// **Why it matters.** Paginated Codex rejects `thread/rollback` and reverts by writing
    /// a new file whose `history_base` cuts the old one (0.171 `thread/revert`). A resume
    /// does apply the marker (verified with 0.128, 0.147 and 0.171: the turn is dropped), but
    /// a reader that projects the paginated history by ordinal does not, and Codex's bounded
    /// resume falls back to a full scan.
    ///
    /// **Example.** A legacy-style rollback appended to a paginated rollout.
    ///
    /// **Fix.** Revert through `history_base`, or keep the file legacy.
    "policy.rollback-in-paginated", Warning, "a rollback marker in a paginated rollout",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(
        Stage::RecordPolicy,
        Kinds::of(&[Kind::EventMsg]),
        check,
    )],
);

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if cx.paginated() && rec.payload_type() == Some("thread_rolled_back") {
        out.push_rec(
            rec,
            "thread_rolled_back in a paginated rollout: paginated Codex reverts through a new \
             file's history_base"
                .to_string(),
        );
    }
}
