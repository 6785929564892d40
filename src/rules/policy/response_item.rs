//! `policy.response-item`: a response item Codex never persists.

use crate::decode::{Kind, Record};
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** No `response_item` is of a type Codex never persists
    /// (`additional_tools`, `compaction_trigger`).
    ///
    /// **Why it matters.** Codex's policy filters them out of its own files, and its reader
    /// drops them on resume (verified with 0.128, 0.147 and 0.171: the same history, the item
    /// not sent). The file comes from a foreign writer or proxy, and other readers may replay
    /// an item Codex never sends.
    ///
    /// **Example.** A `compaction_trigger` item recorded by a proxy.
    ///
    /// **Fix.** Leave them out of the rollout.
    ///
    /// The fix (safe) deletes the item, when it carries no ordinal: Codex drops it anyway, and
    /// its app-server shows the thread the same without it
    /// (`testdata/lint/policy.response-item/ui-0.147.0-fixed.json`).
    "policy.response-item", Warning, "a response item Codex never persists",
    effect: Warns,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(
        Stage::RecordPolicy,
        Kinds::of(&[Kind::ResponseItem]),
        check,
    )],
);

/// Response item types the policy filters out.
const UNPERSISTED_ITEMS: &[&str] = &["additional_tools", "compaction_trigger"];

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    let _ = cx;
    if let Some(t) = rec.payload_type().filter(|t| UNPERSISTED_ITEMS.contains(t)) {
        let fix = super::delete(
            rec,
            "delete the item Codex never persists",
            out.file().clone(),
        );
        out.push_rec(
            rec,
            format!(
                "response_item `{}` is never persisted by Codex: it would replay as history \
                 Codex never sends",
                short(t)
            ),
        )
        .fix = fix;
    }
}
