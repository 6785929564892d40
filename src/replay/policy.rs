//! What Codex's persistence policy would never have written (`codex-rs/rollout/src/policy.rs`,
//! `research/upstream.md` §3): transient events, one mode's events in the other's file,
//! response items Codex filters out, a rollback marker in a paginated file.

use crate::decode::{Kind, Record};
use crate::findings::{Cause, Finding, Severity};

/// Events the policy never persists, in either mode.
const TRANSIENT: &[&str] = &[
    "error",
    "warning",
    "guardian_warning",
    "stream_error",
    "deprecation_notice",
    "thread_queue_changed",
    "guardian_assessment",
    "exec_command_begin",
    "exec_command_output_delta",
    "terminal_interaction",
    "patch_apply_begin",
    "patch_apply_updated",
    "turn_diff",
    "view_image_tool_call",
    "dynamic_tool_call_request",
    "dynamic_tool_call_response",
    "mcp_tool_call_begin",
    "web_search_begin",
    "image_generation_begin",
    "safety_buffering",
    "model_reroute",
    "model_verification",
    "turn_moderation_metadata",
    "agent_reasoning_section_break",
    "raw_response_item",
    "raw_response_completed",
    "agent_message_delta",
    "agent_message_content_delta",
    "agent_reasoning_delta",
    "agent_reasoning_raw_content_delta",
    "plan_delta",
    "reasoning_content_delta",
    "reasoning_raw_content_delta",
    "session_configured",
    "environment_connected",
    "environment_disconnected",
    "mcp_startup_update",
    "mcp_startup_complete",
    "shutdown_complete",
    "exec_approval_request",
    "apply_patch_approval_request",
    "request_permissions",
    "request_user_input",
    "elicitation_request",
    "plan_update",
    "item_started",
    "hook_started",
    "hook_completed",
];

/// Prefixes of transient event families (`collab_*_begin/end`, `realtime_conversation_*`).
const TRANSIENT_PREFIXES: &[&str] = &["collab_", "realtime_conversation_"];

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

/// `item_completed` items a legacy file persists.
const LEGACY_ITEMS: &[&str] = &[
    "FunctionCallOutput",
    "Plan",
    "Extension",
    "SubAgentActivity",
];

/// Response item types the policy filters out.
const UNPERSISTED_ITEMS: &[&str] = &["additional_tools", "compaction_trigger"];

/// The policy's findings about one record of a file of this `history_mode` (a mode Codex
/// does not know has neither mode's policy: `meta.history-mode` says what matters).
pub fn check(rec: &Record<'_>, mode: &str, out: &mut Vec<Finding>) {
    let (paginated, legacy) = (mode == "paginated", mode == "legacy");
    let at = Some(rec.pos);
    match rec.kind {
        Kind::EventMsg => {
            let Some(t) = rec.payload_type() else { return };
            if t == "exec_command_end" {
                // Older Codex persisted it in its extended mode: legitimate, worth knowing.
                let cause = Cause::TransientEvent { event: t.into() };
                out.push(Finding::new(cause, at).with_severity(Severity::Info));
            } else if TRANSIENT.contains(&t) || TRANSIENT_PREFIXES.iter().any(|p| t.starts_with(p))
            {
                out.push(Finding::new(Cause::TransientEvent { event: t.into() }, at));
            } else if paginated && LEGACY_ONLY.contains(&t) {
                out.push(Finding::new(
                    Cause::LegacyEventInPaginated { event: t.into() },
                    at,
                ));
            } else if paginated && t == "thread_rolled_back" {
                out.push(Finding::new(Cause::RollbackInPaginated, at));
            } else if legacy && t == "item_completed" {
                let item = crate::model::completed_item_type(rec);
                if let Some(item) = item.filter(|i| !LEGACY_ITEMS.contains(&i.as_ref())) {
                    let cause = Cause::PaginatedInLegacy {
                        item: item.into_owned(),
                    };
                    out.push(Finding::new(cause, at));
                }
            }
        }
        Kind::ResponseItem => {
            if let Some(t) = rec.payload_type().filter(|t| UNPERSISTED_ITEMS.contains(t)) {
                let cause = Cause::UnpersistedResponseItem { item: t.into() };
                out.push(Finding::new(cause, at));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit;
    use serde_json::json;

    fn found(mode: &str, line: testkit::Line) -> Vec<(&'static str, Severity)> {
        let mut out = Vec::new();
        testkit::each_record(&testkit::jsonl(&[line]), |rec| check(rec, mode, &mut out));
        out.iter().map(|f| (f.rule.slug(), f.severity)).collect()
    }

    #[test]
    fn the_policy_is_judged_by_the_files_mode() {
        let delta = testkit::event(json!({"type": "agent_message_delta", "delta": "x"}));
        assert_eq!(
            found("legacy", delta.clone()),
            [("policy.transient-event", Severity::Warning)]
        );
        assert_eq!(
            found("paginated", delta),
            [("policy.transient-event", Severity::Warning)]
        );
        let end = testkit::event(json!({"type": "exec_command_end", "exit_code": 0}));
        assert_eq!(
            found("legacy", end),
            [("policy.transient-event", Severity::Info)]
        );
        let user = testkit::event(json!({"type": "user_message", "message": "hi"}));
        assert_eq!(found("legacy", user.clone()), []);
        assert_eq!(
            found("paginated", user.clone()),
            [("policy.legacy-event-in-paginated", Severity::Warning)]
        );
        // A mode Codex does not know has neither mode's policy.
        assert_eq!(found("stacked", user), []);
        let item = |t: &str| testkit::event(json!({"type": "item_completed", "item": {"type": t}}));
        assert_eq!(found("legacy", item("Plan")), []);
        assert_eq!(
            found("legacy", item("AgentMessage")),
            [("policy.paginated-in-legacy", Severity::Warning)]
        );
        assert_eq!(found("paginated", item("AgentMessage")), []);
        let trigger = testkit::item(json!({"type": "compaction_trigger"}));
        assert_eq!(
            found("legacy", trigger),
            [("policy.response-item", Severity::Warning)]
        );
        let rollback = testkit::event(json!({"type": "thread_rolled_back", "num_turns": 1}));
        assert_eq!(found("legacy", rollback.clone()), []);
        assert_eq!(
            found("paginated", rollback),
            [("policy.rollback-in-paginated", Severity::Warning)]
        );
    }
}
