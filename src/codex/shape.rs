//! What Codex's typed decoder requires of a record before it takes it: per `response_item`
//! variant, the fields it must find and the JSON type each must have. A record that fails is
//! skipped whole (`WARN … skipping unknown rollout line … error=missing field …` /
//! `invalid type …`), and what hung on it goes with it (a call's output becomes an orphan).
//!
//! The table holds only what the real Codex answered: the sweep of
//! `testdata/typed/` (every top-level field of each variant of the 0.171 shell file removed
//! and mistyped, one at a time, each asked of the real 0.171). A variant it does not name is
//! not judged.

/// A JSON value's type, as a field's first byte says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    String,
    Array,
    Object,
    /// A string or an array (a function output: text, or content items).
    StringOrArray,
    /// Any JSON value (a tool search's `arguments`).
    Any,
    Bool,
    /// A string or an object (an enum written as its name, or with data).
    StringOrObject,
    /// A number (an unsigned integer where Codex reads one).
    Number,
}

impl JsonType {
    /// Whether the JSON text `raw` is of this type (null stands for an absent optional).
    fn admits(self, raw: &str) -> bool {
        let first = raw.as_bytes().first().copied();
        matches!(
            (self, first),
            (JsonType::String, Some(b'"'))
                | (JsonType::Array, Some(b'['))
                | (JsonType::Object, Some(b'{'))
                | (JsonType::StringOrArray, Some(b'"' | b'['))
                | (JsonType::Any, Some(_))
                | (JsonType::Bool, Some(b't' | b'f'))
                | (JsonType::StringOrObject, Some(b'"' | b'{'))
                | (JsonType::Number, Some(b'0'..=b'9'))
        )
    }

    fn expected(self) -> &'static str {
        match self {
            JsonType::String => "a string",
            JsonType::Array => "a sequence",
            JsonType::Object => "a struct",
            JsonType::StringOrArray => "a string or a sequence",
            JsonType::Any => "a value",
            JsonType::Bool => "a boolean",
            JsonType::StringOrObject => "a string or a map",
            JsonType::Number => "a number",
        }
    }
}

/// One field of a variant.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub json: JsonType,
    /// Codex fails without it; an optional one fails only when present with another type.
    pub required: bool,
    /// An optional field Codex sends as `null` when the record lacks it (an `Option` it
    /// serializes always).
    pub written: bool,
}

const fn req(name: &'static str, json: JsonType) -> Field {
    Field {
        name,
        json,
        required: true,
        written: false,
    }
}

const fn opt(name: &'static str, json: JsonType) -> Field {
    Field {
        name,
        json,
        required: false,
        written: false,
    }
}

/// An optional field sent as `null` when absent.
const fn null_if_absent(name: &'static str, json: JsonType) -> Field {
    Field {
        name,
        json,
        required: false,
        written: true,
    }
}

use JsonType::{Any, Array, Bool, Number, Object, String as Str, StringOrArray, StringOrObject};

const PASSTHROUGH: Field = opt("internal_chat_message_metadata_passthrough", Object);

/// The `response_item` variants the sweep asked about, and their fields (0.171; evidence:
/// `testdata/typed/{shell171,apply_patch171,web_search171,mcp171}/`).
static RESPONSE_ITEMS: &[(&str, &[Field])] = &[
    // Never written to a rollout; reached by a `type` of 0 (its index). Without `tools`, or
    // without `role`, the line is skipped (`testdata/typed/cases/tag-index-0`,
    // `additional-tools`; their types not asked).
    ("additional_tools", &[req("tools", Any), req("role", Any)]),
    (
        "message",
        &[
            opt("id", Str),
            req("role", Str),
            req("content", Array),
            PASSTHROUGH,
        ],
    ),
    (
        "reasoning",
        // Without `content` or `encrypted_content` the item is sent with them `null`, as a
        // file that writes them `null` (the sweep: `shell171`, both removed, sent as clean).
        &[
            opt("id", Str),
            req("summary", Array),
            null_if_absent("content", Array),
            null_if_absent("encrypted_content", Str),
            PASSTHROUGH,
        ],
    ),
    (
        "function_call",
        &[
            opt("id", Str),
            req("name", Str),
            req("arguments", Str),
            req("call_id", Str),
            PASSTHROUGH,
        ],
    ),
    (
        "function_call_output",
        // Without `call_id` the output is still read (the sweep: the call then gets a
        // synthetic output too).
        &[
            opt("id", Str),
            opt("call_id", Str),
            req("output", StringOrArray),
            PASSTHROUGH,
        ],
    ),
    (
        "custom_tool_call",
        &[
            opt("id", Str),
            req("call_id", Str),
            req("name", Str),
            req("input", Str),
            PASSTHROUGH,
        ],
    ),
    (
        "custom_tool_call_output",
        // Unlike a function output, one without `call_id` is skipped.
        &[
            opt("id", Str),
            req("call_id", Str),
            req("output", StringOrArray),
            PASSTHROUGH,
        ],
    ),
    (
        "web_search_call",
        &[
            opt("id", Str),
            opt("status", Str),
            opt("action", Object),
            PASSTHROUGH,
        ],
    ),
    (
        "tool_search_call",
        // `arguments` may be any value (0.171 sends `"x"` as it is).
        &[
            opt("id", Str),
            opt("call_id", Str),
            opt("status", Str),
            req("execution", Str),
            req("arguments", Any),
            PASSTHROUGH,
        ],
    ),
    (
        "tool_search_output",
        &[
            opt("id", Str),
            opt("call_id", Str),
            req("status", Str),
            req("execution", Str),
            req("tools", Array),
            PASSTHROUGH,
        ],
    ),
];

/// What Codex makes of a `response_item` payload's `type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Variant<'a> {
    /// A variant it knows, by name.
    Known(&'a str),
    /// A name it does not know (serde's `other`): read, never sent, no warning.
    Other,
    /// The line does not decode: skipped (serde's words).
    Fails(std::string::String),
}

/// What a version that knows the variants `known` (in declaration order,
/// [`Answer::Knows`](super::Answer::Knows)) makes of a `type` written as the string `name`,
/// or as the raw JSON `raw` when it is not a string (`None`: absent). A number is read as an
/// index into `known` (serde's variant index), past the end as `Other`.
pub fn variant<'a>(
    name: Option<&'a str>,
    raw: Option<&str>,
    known: &'static [&'static str],
) -> Variant<'a> {
    if let Some(name) = name {
        // `compaction_summary` is an alias of `compaction` (upstream `models.rs`); a
        // `ghost_snapshot` is the legacy kind every reader strips by design
        // (`testdata/replay/ghost-snapshot.jsonl`): never sent, nothing to report.
        let known =
            known.contains(&name) || matches!(name, "compaction_summary" | "ghost_snapshot");
        return if known && name != "other" {
            Variant::Known(name)
        } else {
            Variant::Other
        };
    }
    let Some(raw) = raw else {
        return Variant::Fails("missing field `type`".into());
    };
    match raw.parse::<u64>() {
        Ok(n) => match usize::try_from(n).ok().and_then(|n| known.get(n)) {
            Some(&"other") | None => Variant::Other,
            Some(name) => Variant::Known(name),
        },
        Err(_) => Variant::Fails(format!("invalid type for `type`: {}", short_raw(raw))),
    }
}

/// A raw JSON value cut for a message.
fn short_raw(raw: &str) -> &str {
    let end = raw.char_indices().nth(24).map_or(raw.len(), |(i, _)| i);
    &raw[..end]
}

/// The bit of field `i` (none past the sixteenth: no variant has so many).
fn bit(i: usize) -> u16 {
    u32::try_from(i)
        .ok()
        .and_then(|i| 1u16.checked_shl(i))
        .unwrap_or(0)
}

/// A `turn_context` payload's fields (0.171; evidence: `testdata/typed/shell171/`, the
/// `turn_context` rows: each field removed and mistyped; `permission_profile` is an object
/// in every real file, and a string was refused).
static TURN_CONTEXT: &[Field] = &[
    opt("turn_id", Str),
    opt("root_turn_id", Str),
    opt("disabled_plugin_ids", Array),
    req("cwd", Str),
    req("approval_policy", StringOrObject),
    opt("approvals_reviewer", StringOrObject),
    opt("permission_profile", Object),
    req("model", Str),
    opt("comp_hash", Str),
    opt("collaboration_mode", Object),
    opt("multi_agent_version", StringOrObject),
    opt("realtime_active", Bool),
    opt("summary", StringOrObject),
    opt("sandbox_policy", Object),
];

/// A `compacted` payload's fields (0.171; evidence: `testdata/typed/compaction171*/`: each
/// field removed and mistyped; without `message` or with a field of another type the line is
/// skipped, and so is the checkpoint; `window_id` is not read: `5` passed).
static COMPACTED: &[Field] = &[
    req("message", Str),
    opt("replacement_history", Array),
    opt("replacement_history_metadata", Array),
    opt("retained_context", Object),
    opt("window_number", Number),
    opt("first_window_id", Str),
    opt("previous_window_id", Str),
    opt("compaction_response_id", Str),
    opt("latest_token_usage_record", Object),
    opt("resume_metadata", Object),
];

/// A payload's top-level members checked against its record's fields as they are
/// read, with no allocation: each member given once ([`Shape::member`]), then
/// [`Shape::finish`] says why Codex's decoder rejects it, in serde's words.
#[derive(Debug)]
pub struct Shape {
    fields: &'static [Field],
    /// The fields seen, a bit each (a variant has fewer than 16).
    seen: u16,
    fault: Option<std::string::String>,
}

impl Shape {
    /// The shape of `response_item` payload type `type_`; `None` for a variant the table
    /// does not name.
    pub fn of(type_: &str) -> Option<Shape> {
        let (_, fields) = RESPONSE_ITEMS.iter().find(|(t, _)| *t == type_)?;
        Some(Shape::with(fields))
    }

    /// The shape of a `turn_context` payload.
    pub fn turn_context() -> Shape {
        Shape::with(TURN_CONTEXT)
    }

    /// The shape of a `compacted` payload.
    pub fn compacted() -> Shape {
        Shape::with(COMPACTED)
    }

    fn with(fields: &'static [Field]) -> Shape {
        Shape {
            fields,
            seen: 0,
            fault: None,
        }
    }

    /// One member: its key and raw JSON value. `false` once a fault is found (nothing more
    /// to read).
    pub fn member(&mut self, key: &str, raw: &str) -> bool {
        let Some(i) = self.fields.iter().position(|f| f.name == key) else {
            return true;
        };
        self.seen |= bit(i);
        let Some(f) = self.fields.get(i) else {
            return true;
        };
        let fits = if raw == "null" {
            !f.required
        } else {
            f.json.admits(raw)
        };
        if !fits {
            self.fault = Some(format!(
                "invalid type for `{}`, expected {}",
                f.name,
                f.json.expected()
            ));
        }
        fits
    }

    /// Whether a member was found at fault.
    pub fn failed(&self) -> bool {
        self.fault.is_some()
    }

    /// The fields Codex sends as `null` that the payload lacks (once every member was
    /// given).
    pub fn unwritten(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.fields
            .iter()
            .enumerate()
            .filter(|(i, f)| f.written && self.seen & bit(*i) == 0)
            .map(|(_, f)| f.name)
    }

    /// Why Codex rejects the item, once every member was given; `None` when it takes it.
    pub fn finish(&self) -> Option<std::string::String> {
        if self.fault.is_some() {
            return self.fault.clone();
        }
        let missing = self
            .fields
            .iter()
            .enumerate()
            .find(|(i, f)| f.required && self.seen & bit(*i) == 0)?;
        Some(format!("missing field `{}`", missing.1.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(type_: &str, fields: &[(&str, &str)]) -> Option<std::string::String> {
        let mut shape = Shape::of(type_)?;
        for (k, v) in fields {
            if !shape.member(k, v) {
                break;
            }
        }
        shape.finish()
    }

    #[test]
    fn a_required_field_missing_or_any_field_mistyped_fails_and_the_rest_passes() {
        let call = [
            ("name", "\"exec\""),
            ("arguments", "\"{}\""),
            ("call_id", "\"c\""),
        ];
        assert_eq!(fault("function_call", &call), None);
        assert_eq!(
            fault("function_call", &call[..2]).as_deref(),
            Some("missing field `call_id`")
        );
        let mistyped = [("id", "5"), ("role", "\"user\""), ("content", "[]")];
        assert!(fault("message", &mistyped).unwrap().contains("`id`"));
        // An optional field may be absent or null.
        assert_eq!(fault("message", &mistyped[1..]), None);
        assert_eq!(
            fault("function_call_output", &[("output", "[]"), ("id", "null")]),
            None
        );
        // A variant the table does not name is not judged.
        assert_eq!(fault("web_search_call", &[]), None);
    }
}
