//! Session and turn metadata: the `session_meta` and `turn_context` payloads.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;

use super::lenient::{lenient_owned, lenient_str, strict_opt_u64};
use crate::decode::{select, Record};

/// `session_meta` payload (the fields rollscope reads). Every field is read on its own:
/// one mistyped field is absent, it never takes the others with it.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SessionMeta<'a> {
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub session_id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub timestamp: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub cwd: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub originator: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub cli_version: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub history_mode: Option<Cow<'a, str>>,
    #[serde(deserialize_with = "lenient_owned")]
    pub history_base: Option<HistoryBase>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub forked_from_id: Option<Cow<'a, str>>,
    #[serde(deserialize_with = "strict_opt_u64")]
    pub forked_from_ordinal_exclusive: Option<u64>,
    #[serde(deserialize_with = "strict_opt_u64")]
    pub subagent_history_start_ordinal: Option<u64>,
}

/// `session_meta.history_base`: where a paginated fork or revert continues its source.
/// `thread_id` holds the source's *rollout* id (the physical file).
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct HistoryBase {
    #[serde(deserialize_with = "lenient_owned")]
    pub thread_id: Option<String>,
    #[serde(deserialize_with = "strict_opt_u64")]
    pub end_ordinal_exclusive: Option<u64>,
    #[serde(deserialize_with = "strict_opt_u64")]
    pub end_byte_offset: Option<u64>,
}

/// `turn_context` payload (the fields rollscope reads), each field read on its own:
/// [`TurnContext::from_record`].
#[derive(Debug, Default)]
pub struct TurnContext<'a> {
    pub turn_id: Option<Cow<'a, str>>,
    pub model: Option<Cow<'a, str>>,
    pub cwd: Option<Cow<'a, str>>,
    pub approval_policy: Option<Value>,
    pub sandbox_policy: Option<Value>,
    pub effort: Option<Cow<'a, str>>,
    pub reasoning_effort: Option<Cow<'a, str>>,
    pub collaboration_mode: Option<Value>,
}

impl<'a> TurnContext<'a> {
    /// Read from the record's payload members, the members rollscope does not read never
    /// parsed: a string field is its string (as `lenient_str` reads one) or absent.
    pub fn from_record(rec: &Record<'a>) -> TurnContext<'a> {
        let [turn_id, model, cwd, approval, sandbox, effort, reasoning, collaboration] = rec
            .payload_fields([
                "turn_id",
                "model",
                "cwd",
                "approval_policy",
                "sandbox_policy",
                "effort",
                "reasoning_effort",
                "collaboration_mode",
            ]);
        // `null` is absent, and so is a value a `Value` cannot hold (a number beyond f64):
        // each field is read on its own, as `stats` and `calls` read the one field each
        // needs.
        fn value(raw: Option<&str>) -> Option<Value> {
            raw.and_then(|r| serde_json::from_str(r).ok())
                .filter(|v: &Value| !v.is_null())
        }
        TurnContext {
            turn_id: turn_id.and_then(select::str_value),
            model: model.and_then(select::str_value),
            cwd: cwd.and_then(select::str_value),
            approval_policy: value(approval),
            sandbox_policy: value(sandbox),
            effort: effort.and_then(select::str_value),
            reasoning_effort: reasoning.and_then(select::str_value),
            collaboration_mode: value(collaboration),
        }
    }

    /// The reasoning effort, wherever this version put it.
    pub fn effort(&self) -> Option<String> {
        if let Some(e) = self.effort.as_deref().or(self.reasoning_effort.as_deref()) {
            return Some(e.to_string());
        }
        self.collaboration_mode
            .as_ref()
            .and_then(|c| c.pointer("/settings/reasoning_effort"))
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    /// The sandbox mode: `sandbox_policy.type` (0.80+) or `.mode` (0.36), or a bare string.
    pub fn sandbox(&self) -> Option<String> {
        let p = self.sandbox_policy.as_ref()?;
        match p {
            Value::String(s) => Some(s.clone()),
            Value::Object(o) => o
                .get("type")
                .or_else(|| o.get("mode"))
                .and_then(Value::as_str)
                .map(str::to_string),
            _ => None,
        }
    }

    /// The approval policy as a string when it is one (newer versions may nest it).
    pub fn approval_policy(&self) -> Option<String> {
        match self.approval_policy.as_ref()? {
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }
}
