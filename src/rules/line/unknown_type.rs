//! `line.unknown-type`: a record type Codex does not know.

use crate::analysis::ordinal::CODEX_RECORD_TYPES;
use crate::decode::{Kind, Record};
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** Every record's `type` is one the newest Codex decodes (`session_meta`,
    /// `dynamic_tools_updated`, `response_item`, `event_msg`, `turn_context`, `compacted`,
    /// `world_state`, `token_usage_record`, `inter_agent_communication[_metadata]`,
    /// `retained_context`, `security_risk_score`, `realtime_item`: the list 0.171 names when
    /// it skips another, `testdata/replay/verdicts/record-type-unknown.json`).
    ///
    /// **Why it matters.** Codex skips a record of another type by design (a newer writer's
    /// record): what it held is not replayed. As the last line of a paginated file it makes
    /// Codex reuse its ordinal (`ordinal.tail-unparseable`).
    ///
    /// **Example.** `"type": "annotation"` from a tool that adds its own records.
    ///
    /// **Fix.** Keep foreign data out of the rollout, or in the payload of a known record.
    "line.unknown-type", Warning, "a record of a type Codex does not know",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(
        Stage::RecordKind,
        Kinds::of(&[Kind::Other]),
        check,
    )],
);

fn check(rec: &Record<'_>, _: &RecordCx<'_>, out: &mut Found<'_>) {
    let type_name = rec.type_name.as_ref();
    if !CODEX_RECORD_TYPES.contains(&type_name) {
        out.push_rec(
            rec,
            format!(
                "record type `{}` is unknown to Codex: it skips the record on resume",
                short(type_name)
            ),
        );
    }
}
