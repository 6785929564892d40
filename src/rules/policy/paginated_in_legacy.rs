//! `policy.paginated-in-legacy`: a paginated-only item in a legacy rollout.

use crate::decode::{Kind, Record};
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** A legacy file holds no `item_completed` that only paginated mode
    /// persists (legacy keeps only `FunctionCallOutput`, `Plan`, `Extension` and
    /// `SubAgentActivity` items).
    ///
    /// **Why it matters.** Legacy readers take the turn's items from the legacy events.
    /// Codex resumes with the same history (verified with 0.128, 0.147 and 0.171), but the
    /// extra items duplicate the events for any reader that projects both.
    ///
    /// **Example.** `item_completed` `AgentMessage` beside the `agent_message` event.
    ///
    /// **Fix.** Write one of the two, as the file's mode says.
    "policy.paginated-in-legacy", Warning, "a paginated-only event in a legacy rollout",
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

/// `item_completed` items a legacy file persists.
const LEGACY_ITEMS: &[&str] = &[
    "FunctionCallOutput",
    "Plan",
    "Extension",
    "SubAgentActivity",
];

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if !cx.legacy() || rec.payload_type() != Some("item_completed") {
        return;
    }
    let item = crate::model::completed_item_type(rec);
    if let Some(item) = item.filter(|i| !LEGACY_ITEMS.contains(&i.as_ref())) {
        out.push_rec(
            rec,
            format!(
                "item_completed `{}` is persisted only in paginated rollouts: a legacy client \
                 may show it twice",
                short(&item)
            ),
        );
    }
}
