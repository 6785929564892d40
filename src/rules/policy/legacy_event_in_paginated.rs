//! `policy.legacy-event-in-paginated`: a legacy-only event in a paginated rollout.

use crate::decode::{Kind, Record};
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** A paginated file holds none of the events Codex persists only in legacy
    /// mode (`user_message`, `agent_message`, `agent_reasoning`, `patch_apply_end`,
    /// `context_compacted`, `mcp_tool_call_end`, `web_search_end`, …).
    ///
    /// **Why it matters.** Paginated files carry these as `item_completed` items. Codex
    /// resumes with the same history (verified with 0.147 and 0.171, whose app-server shows
    /// the turn once), but the file breaks its mode's contract: a reader that projects both
    /// the events and the items sees the turn's messages twice.
    ///
    /// **Example.** A writer switched to paginated mode that still emits legacy events.
    ///
    /// **Fix.** Write `item_completed` instead.
    "policy.legacy-event-in-paginated", Warning, "a legacy-only event in a paginated rollout",
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

/// Events persisted only in legacy mode.
const LEGACY_ONLY: &[&str] = &[
    "user_message",
    "agent_message",
    "agent_reasoning",
    "agent_reasoning_raw_content",
    "entered_review_mode",
    "exited_review_mode",
    "patch_apply_end",
    "context_compacted",
    "mcp_tool_call_end",
    "web_search_end",
    "image_generation_end",
];

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    let Some(t) = rec.payload_type() else { return };
    if cx.paginated() && LEGACY_ONLY.contains(&t) {
        out.push_rec(
            rec,
            format!(
                "event `{}` is persisted only in legacy rollouts; a paginated one carries it as \
                 an item_completed",
                short(t)
            ),
        );
    }
}
