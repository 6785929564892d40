//! `policy.transient-event`: an event Codex's persistence policy never writes.

use crate::decode::{Kind, Record};
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** No `event_msg` is one Codex's persistence policy never writes: deltas,
    /// `*_begin` events, approval requests, errors and warnings, session and environment
    /// events (`codex-rs/rollout/src/policy.rs`). An `exec_command_end` is info: older Codex
    /// persisted it in its extended mode.
    ///
    /// **Why it matters.** Codex ignores them on resume (verified with 0.128, 0.147 and
    /// 0.171: the same history); a foreign writer that records its event stream wholesale
    /// bloats the file, and its readers see events no Codex file has.
    ///
    /// **Example.** `agent_message_delta` events, one per streamed token.
    ///
    /// **Fix.** Persist what Codex persists (`docs/rules.md` lists the policy's classes).
    ///
    /// The fix (safe) deletes the event, when it carries no ordinal: Codex ignores it, and its
    /// app-server shows the thread the same without it
    /// (`testdata/lint/policy.transient-event/ui-0.147.0-fixed.json`).
    "policy.transient-event", Warning, "an event Codex never persists",
    effect: Warns,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(
        Stage::RecordPolicy,
        Kinds::of(&[Kind::EventMsg]),
        check,
    )],
);

/// An event the policy never persists, in either mode (`codex-rs/rollout/src/policy.rs`):
/// the list, and the families `collab_*` (begin and end) and `realtime_conversation_*`.
fn transient(t: &str) -> bool {
    matches!(
        t,
        "error"
            | "warning"
            | "guardian_warning"
            | "stream_error"
            | "deprecation_notice"
            | "thread_queue_changed"
            | "guardian_assessment"
            | "exec_command_begin"
            | "exec_command_output_delta"
            | "terminal_interaction"
            | "patch_apply_begin"
            | "patch_apply_updated"
            | "turn_diff"
            | "view_image_tool_call"
            | "dynamic_tool_call_request"
            | "dynamic_tool_call_response"
            | "mcp_tool_call_begin"
            | "web_search_begin"
            | "image_generation_begin"
            | "safety_buffering"
            | "model_reroute"
            | "model_verification"
            | "turn_moderation_metadata"
            | "agent_reasoning_section_break"
            | "raw_response_item"
            | "raw_response_completed"
            | "agent_message_delta"
            | "agent_message_content_delta"
            | "agent_reasoning_delta"
            | "agent_reasoning_raw_content_delta"
            | "plan_delta"
            | "reasoning_content_delta"
            | "reasoning_raw_content_delta"
            | "session_configured"
            | "environment_connected"
            | "environment_disconnected"
            | "mcp_startup_update"
            | "mcp_startup_complete"
            | "shutdown_complete"
            | "exec_approval_request"
            | "apply_patch_approval_request"
            | "request_permissions"
            | "request_user_input"
            | "elicitation_request"
            | "plan_update"
            | "item_started"
            | "hook_started"
            | "hook_completed"
    ) || t.starts_with("collab_")
        || t.starts_with("realtime_conversation_")
}

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    let _ = cx;
    let Some(t) = rec.payload_type() else { return };
    // Older Codex persisted `exec_command_end` in its extended mode: legitimate, worth
    // knowing.
    let old = t == "exec_command_end";
    if !old && !transient(t) {
        return;
    }
    let file = out.file().clone();
    let f = out.push_rec(
        rec,
        format!(
            "event `{}` is never persisted by Codex (its persistence policy drops it): a \
             foreign writer's stream",
            short(t)
        ),
    );
    if old {
        f.severity = crate::findings::Severity::Info;
    }
    // Not an `exec_command_end`: older Codex wrote it, and its clients may show it.
    if !old {
        f.fix = super::delete(rec, "delete the event Codex never persists", file);
    }
}
