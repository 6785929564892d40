//! Typed, lenient views of the payloads the reducers read.
//!
//! Every struct here borrows what it can and defaults every field, so a payload with
//! missing or extra fields still decodes: schema drift across Codex versions must degrade
//! to "absent", never to a rejected record. Only the fields some reducer needs are named;
//! everything else stays in the raw payload untouched.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// `session_meta` payload (the fields rollscope reads).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SessionMeta<'a> {
    #[serde(borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub session_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub timestamp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub cwd: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub originator: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub cli_version: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub history_mode: Option<Cow<'a, str>>,
    pub history_base: Option<HistoryBase>,
    #[serde(borrow)]
    pub forked_from_id: Option<Cow<'a, str>>,
    pub forked_from_ordinal_exclusive: Option<u64>,
    pub subagent_history_start_ordinal: Option<u64>,
}

/// `session_meta.history_base`: where a paginated fork or revert continues its source.
/// `thread_id` holds the source's *rollout* id (the physical file).
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct HistoryBase {
    pub thread_id: Option<String>,
    pub end_ordinal_exclusive: Option<u64>,
    pub end_byte_offset: Option<u64>,
}

/// `turn_context` payload (the fields rollscope reads).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TurnContext<'a> {
    #[serde(borrow)]
    pub turn_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub model: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub cwd: Option<Cow<'a, str>>,
    pub approval_policy: Option<Value>,
    pub sandbox_policy: Option<Value>,
    #[serde(borrow)]
    pub effort: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub reasoning_effort: Option<Cow<'a, str>>,
    pub collaboration_mode: Option<Value>,
}

impl TurnContext<'_> {
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

/// One usage block (`token_count.info.*_token_usage`, `token_usage_record.usage`).
/// Missing fields read as zero; unknown fields are ignored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Usage {
    #[serde(deserialize_with = "lenient_u64")]
    pub input_tokens: u64,
    #[serde(deserialize_with = "lenient_u64")]
    pub cached_input_tokens: u64,
    #[serde(
        deserialize_with = "lenient_opt_u64",
        alias = "cache_creation_input_tokens"
    )]
    pub cache_write_input_tokens: Option<u64>,
    #[serde(deserialize_with = "lenient_u64")]
    pub output_tokens: u64,
    #[serde(deserialize_with = "lenient_u64")]
    pub reasoning_output_tokens: u64,
    #[serde(deserialize_with = "lenient_u64")]
    pub total_tokens: u64,
}

/// `event_msg/token_count` payload.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenCount {
    pub info: Option<TokenCountInfo>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenCountInfo {
    pub total_token_usage: Option<Usage>,
    pub last_token_usage: Option<Usage>,
}

/// `token_usage_record` payload (Codex 0.171+: one per model response).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenUsageRecord<'a> {
    #[serde(borrow)]
    pub thread_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub turn_id: Option<Cow<'a, str>>,
    pub usage: Option<Usage>,
}

/// Accept integers, floats with no fraction, and numeric strings; anything else is zero.
fn lenient_u64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(lenient_opt_u64(d)?.unwrap_or(0))
}

fn lenient_opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(match v {
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// The marker pairs of Codex's `is_contextual_user_fragment`: a user message whose text
/// starts and ends with one of these is scaffolding, not something the user typed.
const CONTEXTUAL_MARKERS: &[(&str, &str)] = &[
    ("# agents.md instructions for ", "</instructions>"),
    ("<user_instructions>", "</user_instructions>"),
    ("<agents_instructions>", "</agents_instructions>"),
    ("<environment_context>", "</environment_context>"),
    ("<multiagent_context>", "</multiagent_context>"),
    ("<skill>", "</skill>"),
    ("<user_shell_command>", "</user_shell_command>"),
    ("<turn_aborted>", "</turn_aborted>"),
    ("<subagent_notification>", "</subagent_notification>"),
    ("<goal_context>", "</goal_context>"),
    ("<hook_prompt", "</hook_prompt>"),
    ("<codex_internal_context", "</codex_internal_context>"),
    ("<recommended_plugins>", "</recommended_plugins>"),
    ("<permissions instructions>", "</permissions instructions>"),
    ("<skills_instructions>", "</skills_instructions>"),
];

/// True when one text fragment is contextual scaffolding (case-insensitive, trimmed).
pub fn is_contextual_fragment(text: &str) -> bool {
    let t = text.trim();
    // Only the ends matter; avoid lowercasing a giant string.
    let head: String = t.chars().take(64).collect::<String>().to_lowercase();
    let tail_start = t.char_indices().rev().nth(63).map(|(i, _)| i).unwrap_or(0);
    let tail = t[tail_start..].to_lowercase();
    CONTEXTUAL_MARKERS
        .iter()
        .any(|(open, close)| head.starts_with(open) && tail.ends_with(close))
}

/// A `response_item` message, reduced to what turn detection needs.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Message<'a> {
    #[serde(borrow, rename = "type")]
    pub type_: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub role: Option<Cow<'a, str>>,
    pub content: Option<Value>,
}

impl Message<'_> {
    /// The `input_text` / `output_text` / `text` parts of the content.
    pub fn texts(&self) -> Vec<&str> {
        match &self.content {
            Some(Value::String(s)) => vec![s.as_str()],
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A `role: user` message that the user really typed: it has content and none of its
    /// text parts is contextual scaffolding (Codex's `is_user_turn_boundary`).
    pub fn is_real_user_message(&self) -> bool {
        if self.type_.as_deref() != Some("message") || self.role.as_deref() != Some("user") {
            return false;
        }
        let texts = self.texts();
        let has_image = matches!(&self.content, Some(Value::Array(parts))
            if parts.iter().any(|p| p.get("type").and_then(Value::as_str) == Some("input_image")));
        (!texts.is_empty() || has_image) && !texts.iter().any(|t| is_contextual_fragment(t))
    }
}

/// Response item types that are tool calls.
pub const CALL_TYPES: &[&str] = &[
    "function_call",
    "custom_tool_call",
    "local_shell_call",
    "tool_search_call",
    "web_search_call",
    "image_generation_call",
];

/// Response item types that are tool outputs.
pub const OUTPUT_TYPES: &[&str] = &[
    "function_call_output",
    "custom_tool_call_output",
    "tool_search_output",
];

pub fn is_call_type(t: &str) -> bool {
    CALL_TYPES.contains(&t)
}

pub fn is_output_type(t: &str) -> bool {
    OUTPUT_TYPES.contains(&t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(json: &str) -> Message<'_> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn environment_context_is_not_a_user_turn() {
        let m = msg(
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n <cwd>/x</cwd>\n</environment_context>"}]}"#,
        );
        assert!(!m.is_real_user_message());
    }

    #[test]
    fn agents_md_and_turn_aborted_are_scaffolding() {
        assert!(is_contextual_fragment(
            "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\nhi\n</INSTRUCTIONS>"
        ));
        assert!(is_contextual_fragment(
            "<turn_aborted>\nThe user interrupted\n</turn_aborted>"
        ));
        assert!(!is_contextual_fragment(
            "please read <environment_context> docs"
        ));
    }

    #[test]
    fn typed_text_is_a_user_turn() {
        let m = msg(
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"run hello.py"}]}"#,
        );
        assert!(m.is_real_user_message());
        let a = msg(
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}"#,
        );
        assert!(!a.is_real_user_message());
    }

    #[test]
    fn usage_is_lenient() {
        let u: Usage =
            serde_json::from_str(r#"{"input_tokens":"12","output_tokens":3.0,"extra":1}"#).unwrap();
        assert_eq!(
            (u.input_tokens, u.output_tokens, u.total_tokens),
            (12, 3, 0)
        );
        let c: Usage = serde_json::from_str(r#"{"cache_creation_input_tokens":5}"#).unwrap();
        assert_eq!(c.cache_write_input_tokens, Some(5));
    }
}
