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
        )
    }

    fn expected(self) -> &'static str {
        match self {
            JsonType::String => "a string",
            JsonType::Array => "a sequence",
            JsonType::Object => "a struct",
            JsonType::StringOrArray => "a string or a sequence",
            JsonType::Any => "a value",
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
}

const fn req(name: &'static str, json: JsonType) -> Field {
    Field {
        name,
        json,
        required: true,
    }
}

const fn opt(name: &'static str, json: JsonType) -> Field {
    Field {
        name,
        json,
        required: false,
    }
}

use JsonType::{Any, Array, Object, String as Str, StringOrArray};

const PASSTHROUGH: Field = opt("internal_chat_message_metadata_passthrough", Object);

/// The `response_item` variants the sweep asked about, and their fields (0.171; evidence:
/// `testdata/typed/{shell171,apply_patch171,web_search171,mcp171}/`).
static RESPONSE_ITEMS: &[(&str, &[Field])] = &[
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
        &[opt("id", Str), req("summary", Array), PASSTHROUGH],
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

/// Why Codex's decoder rejects a `response_item` of payload type `type_` whose top-level
/// fields `field` gives (the raw JSON text of one), in serde's words; `None` when it takes
/// it, or when the variant is not in the table.
pub fn response_item_fault<'a>(
    type_: &str,
    field: impl Fn(&str) -> Option<&'a str>,
) -> Option<std::string::String> {
    let (_, fields) = RESPONSE_ITEMS.iter().find(|(t, _)| *t == type_)?;
    for f in fields.iter() {
        match field(f.name) {
            None if f.required => return Some(format!("missing field `{}`", f.name)),
            Some(v) if v != "null" && !f.json.admits(v) => {
                return Some(format!(
                    "invalid type for `{}`, expected {}",
                    f.name,
                    f.json.expected()
                ))
            }
            Some("null") if f.required => {
                return Some(format!(
                    "invalid type for `{}`: null, expected {}",
                    f.name,
                    f.json.expected()
                ))
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(type_: &str, fields: &[(&str, &str)]) -> Option<std::string::String> {
        response_item_fault(type_, |k| {
            fields.iter().find(|(n, _)| *n == k).map(|(_, v)| *v)
        })
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
