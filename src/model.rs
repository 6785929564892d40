//! Typed, lenient views of the payloads the reducers read.
//!
//! Every struct here borrows what it can and defaults every field, so a payload with
//! missing or extra fields still decodes: schema drift across Codex versions must degrade
//! to "absent", never to a rejected record. Only the fields some reducer needs are named;
//! everything else stays in the raw payload untouched.

use std::borrow::Cow;

use serde::{de, Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

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

/// `turn_context` payload (the fields rollscope reads), each field read on its own.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TurnContext<'a> {
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub turn_id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub model: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub cwd: Option<Cow<'a, str>>,
    pub approval_policy: Option<Value>,
    pub sandbox_policy: Option<Value>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub effort: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub reasoning_effort: Option<Cow<'a, str>>,
    pub collaboration_mode: Option<Value>,
}

impl<'a> TurnContext<'a> {
    /// Read from the record's payload members, each field as the derived reader reads it;
    /// the members rollscope does not read are never parsed.
    pub fn from_record(rec: &Record<'a>) -> Option<TurnContext<'a>> {
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
        // `Option<Value>`: `null` is absent, and so is a value a `Value` cannot hold (a
        // number beyond f64): each field is read on its own, as `stats` and `calls` read
        // the one field each needs.
        fn value(raw: Option<&str>) -> Option<Option<Value>> {
            Some(
                raw.and_then(|r| serde_json::from_str(r).ok())
                    .filter(|v: &Value| !v.is_null()),
            )
        }
        Some(TurnContext {
            turn_id: turn_id.and_then(select::str_value),
            model: model.and_then(select::str_value),
            cwd: cwd.and_then(select::str_value),
            approval_policy: value(approval)?,
            sandbox_policy: value(sandbox)?,
            effort: effort.and_then(select::str_value),
            reasoning_effort: reasoning.and_then(select::str_value),
            collaboration_mode: value(collaboration)?,
        })
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
    #[serde(deserialize_with = "lenient_info")]
    pub info: Option<TokenCountInfo>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenCountInfo {
    #[serde(deserialize_with = "lenient_usage")]
    pub total_token_usage: Option<Usage>,
    #[serde(deserialize_with = "lenient_usage")]
    pub last_token_usage: Option<Usage>,
}

impl TokenCountInfo {
    /// `token_count.info` from its raw JSON text, read as [`TokenCount`] reads it.
    pub fn from_raw(raw: &str) -> Option<TokenCountInfo> {
        lenient_info(&mut serde_json::Deserializer::from_str(raw)).ok()?
    }
}

impl Usage {
    /// A usage block from its raw JSON text, read as the typed views read one.
    pub fn from_raw(raw: &str) -> Option<Usage> {
        lenient_usage(&mut serde_json::Deserializer::from_str(raw)).ok()?
    }
}

/// `token_usage_record` payload (Codex 0.171+: one per model response).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenUsageRecord<'a> {
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub thread_id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub turn_id: Option<Cow<'a, str>>,
    #[serde(deserialize_with = "lenient_usage")]
    pub usage: Option<Usage>,
    /// The thread's cumulative usage after this response (lets a lost record be noticed).
    #[serde(deserialize_with = "lenient_usage")]
    pub thread_token_usage: Option<Usage>,
}

/// Any owned value read leniently: a value of the wrong shape is absent.
///
/// The value is read as `T` straight from its text; only where that fails is it read as a
/// `serde_json::Value` and converted (so duplicate keys still read as a `Value` reads
/// them: the last one wins). Building a `Value` for every `token_count` cost more than
/// everything else `stats` does with it. The one difference with always going through a
/// `Value`: a value that a `Value` cannot hold (a number beyond `f64`, a lone surrogate
/// escape) somewhere `T` ignores no longer fails the whole payload.
fn lenient_owned<'de, D: Deserializer<'de>, T: de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    let raw = Box::<RawValue>::deserialize(d)?;
    if let Ok(t) = serde_json::from_str::<T>(raw.get()) {
        return Ok(Some(t));
    }
    let v: Value = serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
    Ok(serde_json::from_value(v).ok())
}

/// A usage block read leniently, as [`lenient_owned`] reads it (through a `Value`), but in
/// one pass and without building the `Value`: each field as [`lenient_u64`] reads it, the
/// last of duplicate keys winning, both spellings of the cache-write field at once making
/// no usage (a duplicate field), anything but an object or an array making no usage.
fn lenient_usage<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Usage>, D::Error> {
    enum Key {
        Input,
        Cached,
        Write,
        Creation,
        Output,
        Reasoning,
        Total,
        Other,
    }
    impl<'de> Deserialize<'de> for Key {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct K;
            impl de::Visitor<'_> for K {
                type Value = Key;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a key")
                }
                fn visit_str<E>(self, s: &str) -> Result<Key, E> {
                    Ok(match s {
                        "input_tokens" => Key::Input,
                        "cached_input_tokens" => Key::Cached,
                        "cache_write_input_tokens" => Key::Write,
                        "cache_creation_input_tokens" => Key::Creation,
                        "output_tokens" => Key::Output,
                        "reasoning_output_tokens" => Key::Reasoning,
                        "total_tokens" => Key::Total,
                        _ => Key::Other,
                    })
                }
            }
            d.deserialize_identifier(K)
        }
    }
    struct V;
    impl<'de> de::Visitor<'de> for V {
        type Value = Option<Usage>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a usage object")
        }
        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Option<Usage>, A::Error> {
            let mut u = Usage::default();
            let (mut write, mut creation) = (None, None);
            while let Some(key) = map.next_key::<Key>()? {
                let slot = match key {
                    Key::Input => &mut u.input_tokens,
                    Key::Cached => &mut u.cached_input_tokens,
                    Key::Output => &mut u.output_tokens,
                    Key::Reasoning => &mut u.reasoning_output_tokens,
                    Key::Total => &mut u.total_tokens,
                    Key::Write => {
                        write = Some(map.next_value::<LenientU64>()?.0);
                        continue;
                    }
                    Key::Creation => {
                        creation = Some(map.next_value::<LenientU64>()?.0);
                        continue;
                    }
                    Key::Other => {
                        // Skipped as a derived struct skips it (as `lenient_owned` does).
                        map.next_value::<de::IgnoredAny>()?;
                        continue;
                    }
                };
                *slot = map.next_value::<LenientU64>()?.0.unwrap_or(0);
            }
            u.cache_write_input_tokens = match (write, creation) {
                (Some(_), Some(_)) => return Ok(None),
                (Some(w), None) | (None, Some(w)) => w,
                (None, None) => None,
            };
            Ok(Some(u))
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Option<Usage>, A::Error> {
            // A struct can be read from an array: leave that oddity to the `Value` route.
            let v = Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
            Ok(serde_json::from_value(v).ok())
        }
        fn visit_bool<E>(self, _: bool) -> Result<Option<Usage>, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Option<Usage>, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Option<Usage>, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Option<Usage>, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Option<Usage>, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Option<Usage>, E> {
            Ok(None)
        }
    }
    d.deserialize_any(V)
}

/// `token_count.info` read as [`lenient_owned`] reads it, in one pass: the last of
/// duplicate keys wins (as in a `Value`), an array goes the `Value` way, anything else but
/// an object is no info.
fn lenient_info<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TokenCountInfo>, D::Error> {
    enum InfoKey {
        Total,
        Last,
        Other,
    }
    impl<'de> Deserialize<'de> for InfoKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct K;
            impl de::Visitor<'_> for K {
                type Value = InfoKey;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a key")
                }
                fn visit_str<E>(self, s: &str) -> Result<InfoKey, E> {
                    Ok(match s {
                        "total_token_usage" => InfoKey::Total,
                        "last_token_usage" => InfoKey::Last,
                        _ => InfoKey::Other,
                    })
                }
            }
            d.deserialize_identifier(K)
        }
    }
    struct UsageField(Option<Usage>);
    impl<'de> Deserialize<'de> for UsageField {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            lenient_usage(d).map(UsageField)
        }
    }
    struct V;
    impl<'de> de::Visitor<'de> for V {
        type Value = Option<TokenCountInfo>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("token_count info")
        }
        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut info = TokenCountInfo::default();
            while let Some(key) = map.next_key::<InfoKey>()? {
                match key {
                    InfoKey::Total => info.total_token_usage = map.next_value::<UsageField>()?.0,
                    InfoKey::Last => info.last_token_usage = map.next_value::<UsageField>()?.0,
                    InfoKey::Other => {
                        map.next_value::<de::IgnoredAny>()?;
                    }
                }
            }
            Ok(Some(info))
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            let v = Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
            Ok(serde_json::from_value(v).ok())
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(V)
}

/// A number read as [`lenient_opt_u64`] reads it, without a `Value`.
struct LenientU64(Option<u64>);

impl<'de> Deserialize<'de> for LenientU64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = LenientU64;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_u64<E>(self, n: u64) -> Result<LenientU64, E> {
                Ok(LenientU64(Some(n)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<LenientU64, E> {
                Ok(LenientU64(u64::try_from(n).ok()))
            }
            fn visit_f64<E>(self, f: f64) -> Result<LenientU64, E> {
                Ok(LenientU64((f >= 0.0).then_some(f as u64)))
            }
            fn visit_str<E>(self, s: &str) -> Result<LenientU64, E> {
                Ok(LenientU64(s.trim().parse().ok()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<LenientU64, E> {
                Ok(LenientU64(None))
            }
            fn visit_unit<E>(self) -> Result<LenientU64, E> {
                Ok(LenientU64(None))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<LenientU64, A::Error> {
                Discard::seq(seq).map(|_| LenientU64(None))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<LenientU64, A::Error> {
                Discard::map(map).map(|_| LenientU64(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// An unsigned integer that must be one (as Codex's `u64` fields): anything else is absent.
fn strict_opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(v.as_u64())
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
    ends_are_contextual(t, t)
}

/// The check of [`is_contextual_fragment`] on a trimmed text given by its ends: `head` starts
/// it and `tail` ends it, each either the whole text or at least its 64 first (last)
/// characters. Only those are read.
fn ends_are_contextual(head: &str, tail: &str) -> bool {
    // Where the ends are ASCII (nearly always), compare them in place; otherwise lowercase
    // them as Unicode, as Codex does.
    let (h, t) = (
        &head.as_bytes()[..head.len().min(64)],
        &tail.as_bytes()[tail.len().saturating_sub(64)..],
    );
    if h.is_ascii() && t.is_ascii() {
        return CONTEXTUAL_MARKERS.iter().any(|(open, close)| {
            h.len() >= open.len()
                && h[..open.len()].eq_ignore_ascii_case(open.as_bytes())
                && t.len() >= close.len()
                && t[t.len() - close.len()..].eq_ignore_ascii_case(close.as_bytes())
        });
    }
    let h: String = head.chars().take(64).collect::<String>().to_lowercase();
    let tail_start = tail
        .char_indices()
        .rev()
        .nth(63)
        .map(|(i, _)| i)
        .unwrap_or(0);
    let t = tail[tail_start..].to_lowercase();
    CONTEXTUAL_MARKERS
        .iter()
        .any(|(open, close)| h.starts_with(open) && t.ends_with(close))
}

/// A `response_item` message, reduced to what turn detection needs.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Message<'a> {
    #[serde(borrow, rename = "type")]
    pub type_: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub role: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub content: Option<Content<'a>>,
}

/// A message's `content`, read without building a `serde_json::Value` (which copied every
/// text): a string, or parts, of which only the `type` and `text` strings are kept. It
/// accepts and rejects exactly what a `Value` would, and keeps the last of duplicate keys as
/// a `Value` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content<'a> {
    Text(Cow<'a, str>),
    Parts(Vec<Part<'a>>),
    /// An object, number or boolean: no text.
    Other,
}

/// One content part: its `type` and `text` when they are strings (a part that is not an
/// object has neither).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Part<'a> {
    pub type_: Option<Cow<'a, str>>,
    pub text: Option<Cow<'a, str>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> de::Visitor<'de> for V<'a> {
            type Value = Content<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("message content")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(s)))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'a>, A::Error> {
                let mut parts = Vec::new();
                while let Some(p) = seq.next_element::<Part<'a>>()? {
                    parts.push(p);
                }
                Ok(Content::Parts(parts))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Content<'a>, A::Error> {
                Discard::map(map).map(|_| Content::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Part<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> de::Visitor<'de> for V<'a> {
            type Value = Part<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a content part")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Part<'a>, A::Error> {
                let mut part = Part::default();
                while let Some(key) = map.next_key::<PartKey>()? {
                    match key {
                        PartKey::Type => part.type_ = map.next_value::<MaybeStr<'a>>()?.0,
                        PartKey::Text => part.text = map.next_value::<MaybeStr<'a>>()?.0,
                        PartKey::Other => {
                            map.next_value::<Discard>()?;
                        }
                    }
                }
                Ok(part)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Part<'a>, A::Error> {
                Discard::seq(seq).map(|_| Part::default())
            }
            fn visit_str<E>(self, _: &str) -> Result<Part<'a>, E> {
                Ok(Part::default())
            }
            fn visit_bool<E>(self, _: bool) -> Result<Part<'a>, E> {
                Ok(Part::default())
            }
            fn visit_i64<E>(self, _: i64) -> Result<Part<'a>, E> {
                Ok(Part::default())
            }
            fn visit_u64<E>(self, _: u64) -> Result<Part<'a>, E> {
                Ok(Part::default())
            }
            fn visit_f64<E>(self, _: f64) -> Result<Part<'a>, E> {
                Ok(Part::default())
            }
            fn visit_unit<E>(self) -> Result<Part<'a>, E> {
                Ok(Part::default())
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The keys of a content part that matter.
enum PartKey {
    Type,
    Text,
    Other,
}

impl<'de> Deserialize<'de> for PartKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = PartKey;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, s: &str) -> Result<PartKey, E> {
                Ok(match s {
                    "type" => PartKey::Type,
                    "text" => PartKey::Text,
                    _ => PartKey::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A value kept when it is a string (borrowed when it can be), checked and dropped otherwise.
struct MaybeStr<'a>(Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for MaybeStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> de::Visitor<'de> for V<'a> {
            type Value = MaybeStr<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(Some(Cow::Borrowed(s))))
            }
            fn visit_str<E>(self, s: &str) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(Some(Cow::Owned(s.to_string()))))
            }
            fn visit_string<E>(self, s: String) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(Some(Cow::Owned(s))))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<MaybeStr<'a>, A::Error> {
                Discard::seq(seq).map(|_| MaybeStr(None))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<MaybeStr<'a>, A::Error> {
                Discard::map(map).map(|_| MaybeStr(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(None))
            }
            fn visit_unit<E>(self) -> Result<MaybeStr<'a>, E> {
                Ok(MaybeStr(None))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// Any value, read as fully as a `serde_json::Value` would be (same errors) and dropped.
struct Discard;

impl Discard {
    fn seq<'de, A: de::SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<Discard>()?.is_some() {}
        Ok(())
    }
    fn map<'de, A: de::MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
        while map.next_entry::<Discard, Discard>()?.is_some() {}
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Discard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Discard;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Discard, E> {
                Ok(Discard)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Discard, E> {
                Ok(Discard)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Discard, E> {
                Ok(Discard)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Discard, E> {
                Ok(Discard)
            }
            fn visit_str<E>(self, _: &str) -> Result<Discard, E> {
                Ok(Discard)
            }
            fn visit_unit<E>(self) -> Result<Discard, E> {
                Ok(Discard)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Discard, A::Error> {
                Discard::seq(seq).map(|_| Discard)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Discard, A::Error> {
                Discard::map(map).map(|_| Discard)
            }
        }
        d.deserialize_any(V)
    }
}

impl Message<'_> {
    /// The `input_text` / `output_text` / `text` parts of the content.
    pub fn texts(&self) -> Vec<&str> {
        match &self.content {
            Some(Content::Text(s)) => vec![s.as_ref()],
            Some(Content::Parts(parts)) => parts.iter().filter_map(|p| p.text.as_deref()).collect(),
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
        let has_image = matches!(&self.content, Some(Content::Parts(parts))
            if parts.iter().any(|p| p.type_.as_deref() == Some("input_image")));
        (!texts.is_empty() || has_image) && !texts.iter().any(|t| is_contextual_fragment(t))
    }
}

/// A message's `content` as it lies in the line: the raw JSON strings of its texts (what
/// [`Message::texts`] gives, escapes unresolved) and whether a part is an image. Read by
/// walking the (valid) text instead of parsing it: a user message is often long
/// scaffolding, and only the ends of its texts decide.
#[derive(Debug, Default)]
pub struct RawContent<'a> {
    pub texts: Vec<&'a str>,
    pub has_image: bool,
}

impl<'a> RawContent<'a> {
    /// From the raw `content` member (absent: no texts).
    pub fn of(content: Option<&'a str>) -> RawContent<'a> {
        let mut c = RawContent::default();
        let Some(raw) = content else { return c };
        if raw.starts_with('"') {
            c.texts.push(raw);
            return c;
        }
        let mut texts = Vec::new();
        let mut has_image = false;
        // Each part walked once: its `type` and `text` picked as it is skipped.
        let walked = select::element_fields(raw, ["type", "text"], |picked| {
            if let Some([type_, text]) = picked {
                if let Some(t) = text.filter(|t| t.starts_with('"')) {
                    texts.push(t);
                }
                has_image |= type_.and_then(select::str_value).as_deref() == Some("input_image");
            }
            true
        });
        if walked.is_some() {
            c.texts = texts;
            c.has_image = has_image;
        }
        c
    }

    /// [`Message::is_real_user_message`] for a `role: user` message with this content.
    pub fn is_real_user_message(&self) -> bool {
        (!self.texts.is_empty() || self.has_image)
            && !self.texts.iter().any(|t| raw_is_contextual_fragment(t))
    }

    /// The texts, escapes resolved, joined by newlines; `None` without texts.
    pub fn joined(&self) -> Option<String> {
        if self.texts.is_empty() {
            return None;
        }
        let texts: Vec<Cow<'_, str>> = self
            .texts
            .iter()
            .map(|t| select::str_value(t).unwrap_or_default())
            .collect();
        Some(texts.join("\n"))
    }
}

/// [`is_contextual_fragment`] of a raw JSON string (valid, as the decoder checked it). Only
/// the ends of the text decide, so the text is not unescaped where it can be helped: most
/// scaffolding (`<environment_context>\n…\n</environment_context>`) is decided by its raw
/// ends in place; a text with escapes near its ends has a window at each end unescaped;
/// only a short one is unescaped whole. (User scaffolding holds an escaped newline every
/// line: unescaping it whole cost 5% of `stats` on a tree of older rollouts.)
fn raw_is_contextual_fragment(raw: &str) -> bool {
    let inner = &raw[1..raw.len() - 1];
    if let Some(is) = raw_ends_are_contextual(inner) {
        return is;
    }
    if let Some(is) = windowed_is_contextual_fragment(inner) {
        return is;
    }
    select::str_value(raw).is_some_and(|text| is_contextual_fragment(&text))
}

/// [`raw_is_contextual_fragment`] read off the raw contents `inner` in place, from the
/// plain ASCII at each end of the text (before its first escape or non-ASCII character,
/// after its last); `None` when that is too little to tell. Plain ASCII compares the same in
/// Codex's ASCII and Unicode paths.
fn raw_ends_are_contextual(inner: &str) -> Option<bool> {
    // Up to its first (after its last) escape, the raw text trims as the text does.
    let b = inner.trim().as_bytes();
    // At most 64 bytes are looked at at each end: no marker is longer than 58.
    let first = &b[..b.len().min(64)];
    let head = &first[..first
        .iter()
        .position(|&c| c == b'\\' || !c.is_ascii())
        .unwrap_or(first.len())];
    let all_plain = head.len() == b.len();
    let mut tail = None;
    let mut undecided = false;
    for (open, close) in CONTEXTUAL_MARKERS {
        // Most texts differ from every opener in their first byte: no tail is looked at.
        let opens = end_matches(head, open.as_bytes(), all_plain, |s, n| &s[..n]);
        if opens == Some(false) {
            continue;
        }
        let tail = *tail.get_or_insert_with(|| plain_tail(b));
        let closes = end_matches(tail, close.as_bytes(), all_plain, |s, n| &s[s.len() - n..]);
        match (opens, closes) {
            (Some(true), Some(true)) => return Some(true),
            (_, Some(false)) => {}
            _ => undecided = true,
        }
    }
    (!undecided).then_some(false)
}

/// Whether the text's end, known only as far as `plain` (its plain ASCII end), is `marker`
/// (ignoring ASCII case): `Some(false)` as soon as a plain byte differs or the whole (plain)
/// text is too short, `None` when the plain bytes match but do not reach across the marker.
/// `end` takes the first or the last `n` bytes of a slice.
fn end_matches(
    plain: &[u8],
    marker: &[u8],
    all_plain: bool,
    end: impl Fn(&[u8], usize) -> &[u8],
) -> Option<bool> {
    let n = plain.len().min(marker.len());
    let (p, m) = (end(plain, n), end(marker, n));
    // The outermost byte first: where texts and markers differ, they nearly always differ
    // there.
    let outer = |s: &[u8]| end(s, 1)[0].to_ascii_lowercase();
    if n > 0 && (outer(p) != outer(m) || !p.eq_ignore_ascii_case(m)) {
        Some(false)
    } else if n == marker.len() {
        Some(true)
    } else if all_plain {
        Some(false)
    } else {
        None
    }
}

/// The plain ASCII end of a JSON string's raw contents `b`: the bytes after its last
/// backslash or non-ASCII byte and after the escape that backslash belongs to (a `\uXXXX`
/// takes six bytes). Only the last 64 bytes are looked at: an escape from before them may
/// reach 5 bytes into them, but no marker is longer than 58 bytes, so only plain bytes are
/// ever compared.
fn plain_tail(b: &[u8]) -> &[u8] {
    let from = b.len().saturating_sub(64);
    let Some(k) = b[from..].iter().rposition(|&c| c == b'\\' || !c.is_ascii()) else {
        return &b[from..];
    };
    let q = from + k;
    let mut after = q + 1;
    if b[q] == b'\\' {
        // The last of an odd run of backslashes opens an escape, the last of an even run
        // closes a `\\` (what was trimmed off before `b` is white space, so the run is whole).
        let run = b[..=q].iter().rev().take_while(|&&c| c == b'\\').count();
        if run % 2 == 1 {
            after = q + if b.get(q + 1) == Some(&b'u') { 6 } else { 2 };
        }
    }
    &b[after.min(b.len())..]
}

/// [`raw_is_contextual_fragment`] from a window of raw text at each end of `inner` (a JSON
/// string's contents, escapes unresolved), unescaped on their own. `None` when the text is
/// too short for two windows, or when white space at an end leaves fewer than 64
/// characters in its window: then the whole text must be unescaped.
fn windowed_is_contextual_fragment(inner: &str) -> Option<bool> {
    const WINDOW: usize = 256;
    let b = inner.as_bytes();
    if b.len() <= 2 * WINDOW {
        return None;
    }
    let head_cut = escape_boundary(inner, 0, WINDOW)?;
    let tail_cut = escape_boundary(inner, head_cut, b.len() - WINDOW)?;
    let unescape = |s: &str| serde_json::from_str::<String>(&format!("\"{s}\"")).ok();
    let head = unescape(&inner[..head_cut])?;
    let tail = unescape(&inner[tail_cut..])?;
    let (head, tail) = (head.trim_start(), tail.trim_end());
    if head.chars().nth(63).is_none() || tail.chars().nth(63).is_none() {
        return None;
    }
    Some(ends_are_contextual(head, tail))
}

/// The first place at or after `at` in a JSON string's raw contents `s` where the text may
/// be cut: on a character boundary, not inside an escape, nor between the two halves of a
/// surrogate pair. `from` is such a place before `at`, from which escapes are followed.
fn escape_boundary(s: &str, from: usize, at: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = from;
    while i < at {
        let Some(k) = memchr::memchr(b'\\', &b[i..at]) else {
            i = at;
            break;
        };
        let q = i + k;
        i = q + match b.get(q + 1)? {
            // A high surrogate is always followed by its low half (the decoder checked the
            // pairs): the two go together.
            b'u' if matches!(
                b.get(q + 2..q + 4)?,
                [b'd' | b'D', b'8'..=b'9' | b'a'..=b'b' | b'A'..=b'B']
            ) =>
            {
                12
            }
            b'u' => 6,
            _ => 2,
        };
    }
    // Past an escape `i` is on ASCII; elsewhere it may be inside a character.
    while !s.is_char_boundary(i) {
        i += 1;
    }
    Some(i)
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

// ---------------------------------------------------------------------------------------
// Views for `turns` and `calls`. Every field that could drift in type is read leniently:
// a string where a string is expected, otherwise absent; JSON values stay raw.
// ---------------------------------------------------------------------------------------

/// A string field read leniently: a JSON string (borrowed when it has no escapes), anything
/// else (number, object, null) reads as absent instead of failing the whole payload.
fn lenient_str<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    let raw: Option<&'de RawValue> = Option::deserialize(d)?;
    Ok(raw.and_then(raw_str))
}

/// A boolean read leniently: anything but `true`/`false` is absent.
fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    let raw: Option<&'de RawValue> = Option::deserialize(d)?;
    Ok(match raw.map(RawValue::get) {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => None,
    })
}

/// A signed integer read leniently (exit codes can be negative).
fn lenient_opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// The text of a raw JSON string; `None` for any other JSON value.
pub fn raw_str(r: &RawValue) -> Option<Cow<'_, str>> {
    select::str_value(r.get())
}

/// A raw value as text: a JSON string's content, or the JSON itself for anything else.
pub fn raw_text(r: &RawValue) -> Cow<'_, str> {
    raw_str(r).unwrap_or_else(|| Cow::Borrowed(r.get()))
}

/// `event_msg` payloads that shape turns: `task_started`, `task_complete`, `turn_aborted`,
/// `thread_rolled_back`, `user_message`, `agent_message` (the fields `turns` reads).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TurnEvent<'a> {
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub turn_id: Option<Cow<'a, str>>,
    /// 0.171: `task_started.turn_attribution.turn_id` (the same id, nested).
    #[serde(borrow)]
    pub turn_attribution: Option<&'a RawValue>,
    /// `turn_aborted.reason` (`interrupted`, `replaced`, ...).
    #[serde(borrow)]
    pub reason: Option<&'a RawValue>,
    /// `task_complete.error`: present and not null on a failed turn.
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub last_agent_message: Option<Cow<'a, str>>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub duration_ms: Option<u64>,
    /// `thread_rolled_back.num_turns`.
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub num_turns: Option<u64>,
    /// `user_message.message` / `agent_message.message`.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub message: Option<Cow<'a, str>>,
}

impl TurnEvent<'_> {
    /// The turn id, top-level or in `turn_attribution`.
    pub fn turn_id(&self) -> Option<String> {
        if let Some(t) = &self.turn_id {
            return Some(t.to_string());
        }
        #[derive(Deserialize)]
        struct Attribution<'b> {
            #[serde(borrow, default, deserialize_with = "lenient_str")]
            turn_id: Option<Cow<'b, str>>,
        }
        let a: Attribution<'_> = serde_json::from_str(self.turn_attribution?.get()).ok()?;
        a.turn_id.map(Cow::into_owned)
    }

    /// `reason` as text (a string, or the JSON of anything else).
    pub fn reason_text(&self) -> Option<String> {
        self.reason.map(|r| raw_text(r).into_owned())
    }

    /// `error` as text when it is set: a string, an object's `message`, or its JSON.
    pub fn error_text(&self) -> Option<String> {
        let e = self.error?;
        if e.get() == "null" {
            return None;
        }
        if let Some(s) = raw_str(e) {
            return Some(s.into_owned());
        }
        let v: Value = serde_json::from_str(e.get()).ok()?;
        Some(
            v.get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string()),
        )
    }
}

/// A `response_item` tool call or tool output (the fields `calls` reads). JSON-valued
/// fields stay raw so that `arguments` and `output` are reported exactly.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolItem<'a> {
    #[serde(borrow, rename = "type", deserialize_with = "lenient_str")]
    pub type_: Option<Cow<'a, str>>,
    /// The pairing key between a call and its output.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub call_id: Option<Cow<'a, str>>,
    /// The item's own identity (never a pairing key).
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub name: Option<Cow<'a, str>>,
    /// 0.171: deferred tools (MCP behind `tool_search`, sub-agent tools) name their namespace.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub namespace: Option<Cow<'a, str>>,
    /// `function_call.arguments` (a JSON string), `tool_search_call.arguments` (an object).
    #[serde(borrow)]
    pub arguments: Option<&'a RawValue>,
    /// `custom_tool_call.input`.
    #[serde(borrow)]
    pub input: Option<&'a RawValue>,
    /// `local_shell_call.action`, `web_search_call.action`.
    #[serde(borrow)]
    pub action: Option<&'a RawValue>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub status: Option<Cow<'a, str>>,
    /// Outputs: a string, an array of content parts, or (some writers) `{content, success}`.
    #[serde(borrow)]
    pub output: Option<&'a RawValue>,
    /// `tool_search_output.tools`.
    #[serde(borrow)]
    pub tools: Option<&'a RawValue>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub revised_prompt: Option<Cow<'a, str>>,
}

impl<'a> ToolItem<'a> {
    /// Read a payload already checked as a JSON object (a decoded record's), as serde
    /// would, in one pass that skips the values it does not need instead of parsing them.
    /// `None` where it is not sure to agree with serde (an escaped key, a repeated field,
    /// anything unexpected): ask serde then.
    pub fn read_fast(payload: &'a str) -> Option<ToolItem<'a>> {
        let mut item = ToolItem::default();
        let mut seen = 0u16;
        select::members(payload, |key, value| {
            let slot = match key {
                "type" => 0,
                "call_id" => 1,
                "id" => 2,
                "name" => 3,
                "namespace" => 4,
                "arguments" => 5,
                "input" => 6,
                "action" => 7,
                "status" => 8,
                "output" => 9,
                "tools" => 10,
                "revised_prompt" => 11,
                _ => return true,
            };
            if seen & (1 << slot) != 0 {
                // serde rejects the repeat; `parse_payload` then keeps the last.
                return false;
            }
            seen |= 1 << slot;
            let raw = (value != "null").then(|| trusted_raw(value));
            let text = || raw.and_then(raw_str);
            match slot {
                0 => item.type_ = text(),
                1 => item.call_id = text(),
                2 => item.id = text(),
                3 => item.name = text(),
                4 => item.namespace = text(),
                5 => item.arguments = raw,
                6 => item.input = raw,
                7 => item.action = raw,
                8 => item.status = text(),
                9 => item.output = raw,
                10 => item.tools = raw,
                _ => item.revised_prompt = text(),
            }
            true
        })?;
        Some(item)
    }
}

/// Borrow JSON text a record's payload holds (so already checked) as a [`RawValue`].
fn trusted_raw(json: &str) -> &RawValue {
    // SAFETY: `RawValue` is `#[repr(transparent)]` over `str` (serde_json makes its own
    // borrowed raw values with this cast); the text is a value of a decoded, valid line.
    unsafe { &*(json as *const str as *const RawValue) }
}

/// The text of a tool output and, when the writer recorded one, its `success` flag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputText {
    pub text: String,
    pub success: Option<bool>,
}

/// Read a tool output: a string as is; an array's text parts joined by newlines; an object
/// `{content, success}` by its content; anything else as its JSON.
pub fn output_text(raw: &RawValue) -> OutputText {
    if let Some(s) = raw_str(raw) {
        return OutputText {
            text: s.into_owned(),
            success: None,
        };
    }
    let Ok(v) = serde_json::from_str::<Value>(raw.get()) else {
        return OutputText {
            text: raw.get().to_string(),
            success: None,
        };
    };
    value_output_text(&v)
}

fn value_output_text(v: &Value) -> OutputText {
    match v {
        Value::String(s) => OutputText {
            text: s.clone(),
            success: None,
        },
        Value::Array(parts) => OutputText {
            text: parts
                .iter()
                .filter_map(|p| match p {
                    Value::String(s) => Some(s.as_str()),
                    _ => p.get("text").and_then(Value::as_str),
                })
                .collect::<Vec<_>>()
                .join("\n"),
            success: None,
        },
        Value::Object(o) if o.contains_key("content") => {
            let mut t = o.get("content").map(value_output_text).unwrap_or_default();
            t.success = o.get("success").and_then(Value::as_bool);
            t
        }
        other => OutputText {
            text: other.to_string(),
            success: None,
        },
    }
}

/// Read one field's raw value with the function serde would use for it.
macro_rules! with_serde {
    ($value:expr, $f:ident) => {
        $f(&mut serde_json::Deserializer::from_str($value)).ok()
    };
}

/// What proves a tool's outcome: an `item_completed` item (`CommandExecution`, `FileChange`,
/// `McpToolCall`, `DynamicToolCall`, ...) or a legacy `exec_command_end`, `patch_apply_end`,
/// `mcp_tool_call_end` event. One lenient view for all of them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolOutcome<'a> {
    #[serde(borrow, rename = "type", deserialize_with = "lenient_str")]
    pub type_: Option<Cow<'a, str>>,
    /// Items: the item id, which is the call's `call_id` for tool items.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub id: Option<Cow<'a, str>>,
    /// Events: the call they end.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub call_id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub status: Option<Cow<'a, str>>,
    #[serde(deserialize_with = "lenient_opt_i64")]
    pub exit_code: Option<i64>,
    /// `{secs, nanos}`.
    #[serde(borrow)]
    pub duration: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub duration_ms: Option<u64>,
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
    /// MCP: a `CallToolResult` (item) or `{"Ok": CallToolResult} | {"Err": string}` (event).
    #[serde(borrow)]
    pub result: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_bool")]
    pub success: Option<bool>,
    /// `UserMessage` / `AgentMessage` items: their content parts.
    #[serde(borrow)]
    pub content: Option<&'a RawValue>,
}

impl<'a> ToolOutcome<'a> {
    /// [`ToolItem::read_fast`] for this view: what serde reads, or `None` to ask serde.
    pub fn read_fast(payload: &'a str) -> Option<ToolOutcome<'a>> {
        let mut v = ToolOutcome::default();
        let mut seen = 0u16;
        select::members(payload, |key, value| {
            let slot = match key {
                "type" => 0,
                "id" => 1,
                "call_id" => 2,
                "status" => 3,
                "exit_code" => 4,
                "duration" => 5,
                "duration_ms" => 6,
                "error" => 7,
                "result" => 8,
                "success" => 9,
                "content" => 10,
                _ => return true,
            };
            if seen & (1 << slot) != 0 {
                return false;
            }
            seen |= 1 << slot;
            let raw = (value != "null").then(|| trusted_raw(value));
            let ok = match slot {
                0 => with_serde!(value, lenient_str).map(|x| v.type_ = x),
                1 => with_serde!(value, lenient_str).map(|x| v.id = x),
                2 => with_serde!(value, lenient_str).map(|x| v.call_id = x),
                3 => with_serde!(value, lenient_str).map(|x| v.status = x),
                4 => with_serde!(value, lenient_opt_i64).map(|x| v.exit_code = x),
                5 => {
                    v.duration = raw;
                    Some(())
                }
                6 => with_serde!(value, lenient_opt_u64).map(|x| v.duration_ms = x),
                7 => {
                    v.error = raw;
                    Some(())
                }
                8 => {
                    v.result = raw;
                    Some(())
                }
                9 => with_serde!(value, lenient_bool).map(|x| v.success = x),
                _ => {
                    v.content = raw;
                    Some(())
                }
            };
            ok.is_some()
        })?;
        Some(v)
    }

    /// `duration` (`{secs, nanos}`) or `duration_ms`, in whole milliseconds (rounded).
    pub fn duration_ms(&self) -> Option<u64> {
        if let Some(ms) = self.duration_ms {
            return Some(ms);
        }
        #[derive(Deserialize)]
        struct SecsNanos {
            #[serde(default, deserialize_with = "lenient_opt_u64")]
            secs: Option<u64>,
            #[serde(default, deserialize_with = "lenient_opt_u64")]
            nanos: Option<u64>,
        }
        let d: SecsNanos = serde_json::from_str(self.duration?.get()).ok()?;
        let secs = d.secs?;
        let nanos = d.nanos.unwrap_or(0);
        Some(
            secs.saturating_mul(1000)
                .saturating_add((nanos.saturating_add(500_000)) / 1_000_000),
        )
    }

    /// `error` is set (not null).
    pub fn has_error(&self) -> bool {
        self.error.is_some_and(|e| e.get() != "null")
    }

    /// The MCP result says the tool failed: `isError: true`, or an `Err` result.
    pub fn mcp_failed(&self) -> bool {
        let Some(r) = self.result else { return false };
        let Ok(v) = serde_json::from_str::<Value>(r.get()) else {
            return false;
        };
        if v.get("Err").is_some() {
            return true;
        }
        let res = v.get("Ok").unwrap_or(&v);
        res.get("isError").and_then(Value::as_bool) == Some(true)
            || res.get("is_error").and_then(Value::as_bool) == Some(true)
    }

    /// The text parts of `content` (`UserMessage`/`AgentMessage`), joined by newlines.
    pub fn content_text(&self) -> Option<String> {
        let t = output_text(self.content?);
        (!t.text.is_empty()).then_some(t.text)
    }
}

/// `event_msg/item_completed` (paginated history, 0.171+).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ItemCompleted<'a> {
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub turn_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub item: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub started_at_ms: Option<u64>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub completed_at_ms: Option<u64>,
}

impl<'a> ItemCompleted<'a> {
    /// The completed item, when it is an object.
    pub fn item(&self) -> Option<ToolOutcome<'a>> {
        let item = self.item?.get();
        ToolOutcome::read_fast(item).or_else(|| serde_json::from_str(item).ok())
    }

    /// [`ToolItem::read_fast`] for this view: what serde reads, or `None` to ask serde.
    pub fn read_fast(payload: &'a str) -> Option<ItemCompleted<'a>> {
        let mut v = ItemCompleted::default();
        let mut seen = 0u8;
        select::members(payload, |key, value| {
            let slot = match key {
                "turn_id" => 0,
                "item" => 1,
                "started_at_ms" => 2,
                "completed_at_ms" => 3,
                _ => return true,
            };
            if seen & (1 << slot) != 0 {
                return false;
            }
            seen |= 1 << slot;
            // Each field on its own: one a `Value` cannot hold (a number beyond f64) is
            // absent, and does not take the item with it (as `turns` reads the item).
            match slot {
                0 => v.turn_id = with_serde!(value, lenient_str).flatten(),
                1 => v.item = (value != "null").then(|| trusted_raw(value)),
                2 => v.started_at_ms = with_serde!(value, lenient_opt_u64).flatten(),
                _ => v.completed_at_ms = with_serde!(value, lenient_opt_u64).flatten(),
            }
            true
        })?;
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `RawContent` against the serde `Message` reader, for a message payload.
    fn raw_content_agrees(payload: &str) {
        let Ok(m) = serde_json::from_str::<Message<'_>>(payload) else {
            return;
        };
        let [content] = select::fields(payload, ["content"]).unwrap();
        let c = RawContent::of(content);
        let texts = m.texts();
        let joined = (!texts.is_empty()).then(|| texts.join("\n"));
        assert_eq!(c.joined(), joined, "{payload}");
        if m.role.as_deref() == Some("user") && m.type_.as_deref() == Some("message") {
            assert_eq!(
                c.is_real_user_message(),
                m.is_real_user_message(),
                "{payload}"
            );
        }
    }

    #[test]
    fn raw_content_reads_messages_as_the_serde_reader_does() {
        let long = "x".repeat(600);
        let cases = [
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"<environment_context>{long}</environment_context>"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"\n <environment_context>{long}</environment_context>\n"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"<environment_context>\n{long}\n</environment_context>"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"\u003cenvironment_context>{long}</environment_context>"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"  <ENVIRONMENT_CONTEXT>{long}é</environment_context>  "}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"hello {long}"}},{{"type":"input_image","image_url":"data:"}}]}}"#),
            r#"{"type":"message","role":"user","content":[{"type":"input_image","image_url":"data:"}]}"#.to_string(),
            r#"{"type":"message","role":"user","content":[]}"#.to_string(),
            r#"{"type":"message","role":"user","content":"typed"}"#.to_string(),
            r#"{"type":"message","role":"user","content":{"text":"no"}}"#.to_string(),
            r#"{"type":"message","role":"user","content":[1,"s",null,{"text":7},{"text":"a","text":"b"},{"typ\u0065":"input_image"}]}"#.to_string(),
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a\u00e9\n"},{"type":"output_text","text":""}]}"#.to_string(),
            r#"{"type":"message","role":"user"}"#.to_string(),
        ];
        for c in &cases {
            raw_content_agrees(c);
        }
        // Every message of testdata.
        let mut n = 0;
        for path in crate::testdata::jsonl_files("") {
            let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
            for line in text.lines() {
                let Ok(Value::Object(env)) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                if let Some(p @ Value::Object(o)) = env.get("payload") {
                    if o.get("type").and_then(Value::as_str) == Some("message") {
                        raw_content_agrees(&p.to_string());
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 100, "only {n} messages");
    }

    /// `ToolItem::read_fast` reads what serde reads, or declines.
    fn fast_agrees(payload: &str) -> bool {
        let line = format!(r#"{{"timestamp":"t","type":"response_item","payload":{payload}}}"#);
        let rec = crate::decode::decode_line(line.as_bytes(), Default::default()).unwrap();
        let slow: ToolItem<'_> = rec.parse_payload().unwrap_or_default();
        match ToolItem::read_fast(rec.payload.get()) {
            Some(fast) => {
                assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{payload}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn the_fast_tool_item_reader_agrees_with_serde_or_declines() {
        // Read in one pass: every shape of value, white space, nesting, escapes in values.
        for p in [
            r#"{"type":"function_call","name":"shell","arguments":"{\"a\":\"\\\"}\"}","call_id":"c"}"#,
            r#"{ "type" : "function_call_output" , "call_id" : "c" , "output" : [ {"type":"input_text","text":"a]}\"["} ] }"#,
            r#"{"type":"local_shell_call","action":{"command":["a","}"],"n":[1,{"x":[]}]},"status":null,"id":5}"#,
            r#"{"type":"x","call_id":null,"name":true,"namespace":-1.5e3,"output":{"content":"c","success":false}}"#,
            r#"{"type":"function_call","extra":{"call_id":"nested, not ours"},"extra":1,"call_id":"top"}"#,
            r#"{}"#,
        ] {
            assert!(fast_agrees(p), "declined {p}");
        }
        // The outcome views too, numbers and flags read leniently as serde reads them.
        for p in [
            r#"{"type":"exec_command_end","call_id":"c","exit_code":"7","duration":{"secs":1,"nanos":2},"aggregated_output":"x\"}","success":"yes"}"#,
            r#"{"type":"CommandExecution","id":"c","exit_code":-2.0,"duration_ms":null,"error":null,"result":{"Ok":{}}}"#,
        ] {
            let fast = ToolOutcome::read_fast(p).unwrap();
            let slow: ToolOutcome<'_> = serde_json::from_str(p).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        }
        let p = r#"{"type":"item_completed","turn_id":5,"item":{"type":"CommandExecution","id":"c","status":"completed"},"started_at_ms":"3","completed_at_ms":9}"#;
        let fast = ItemCompleted::read_fast(p).unwrap();
        let slow: ItemCompleted<'_> = serde_json::from_str(p).unwrap();
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        assert_eq!(format!("{:?}", fast.item()), format!("{:?}", slow.item()));
        assert!(ToolOutcome::read_fast(r#"{"id":"a","id":"b"}"#).is_none());
        // Declined, left to serde: a key with an escape, a field of ours repeated.
        for p in [
            r#"{"type":"function_call","call\u005fid":"c"}"#,
            r#"{"type":"function_call","call_id":"a","call_id":"b"}"#,
        ] {
            assert!(!fast_agrees(p), "read {p}");
        }
    }

    #[test]
    fn the_fast_readers_agree_with_serde_on_every_testdata_payload() {
        let mut n = 0;
        for p in crate::testdata::jsonl_files("") {
            for line in std::fs::read(&p).unwrap().split(|&b| b == b'\n') {
                let Ok(rec) = crate::decode::decode_line(line, Default::default()) else {
                    continue;
                };
                let payload = rec.payload.get();
                let slow: ToolItem<'_> = rec.parse_payload().unwrap_or_default();
                if let Some(fast) = ToolItem::read_fast(payload) {
                    assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{}", p.display());
                    n += 1;
                }
                let slow = rec.parse_payload::<ToolOutcome<'_>>().ok();
                if let Some(fast) = ToolOutcome::read_fast(payload) {
                    assert_eq!(format!("{:?}", Some(fast)), format!("{slow:?}"));
                }
                let slow = rec.parse_payload::<ItemCompleted<'_>>().ok();
                if let Some(fast) = ItemCompleted::read_fast(payload) {
                    let items = (
                        fast.item().map(|i| format!("{i:?}")),
                        slow.as_ref()
                            .and_then(|s| s.item())
                            .map(|i| format!("{i:?}")),
                    );
                    assert_eq!(items.0, items.1);
                    assert_eq!(format!("{:?}", Some(fast)), format!("{slow:?}"));
                }
            }
        }
        assert!(n > 1000, "only {n} payloads read");
    }

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

    /// What `Message` read when its content was a `serde_json::Value`.
    fn value_reading(json: &str) -> Option<(Vec<String>, bool)> {
        let v: Value = serde_json::from_str(json).ok()?;
        let content = v.get("content");
        let texts: Vec<String> = match content {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str).map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        let image = matches!(content, Some(Value::Array(parts))
            if parts.iter().any(|p| p.get("type").and_then(Value::as_str) == Some("input_image")));
        Some((texts, image))
    }

    #[test]
    fn borrowed_content_reads_what_a_value_read() {
        let cases = [
            r#"{"content":"plain"}"#,
            r#"{"content":"esc\naped \u00e9"}"#,
            r#"{"content":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"x"}]}"#,
            r#"{"content":[{"text":"first","text":"last"},{"text":5},{"type":7,"text":"t"}]}"#,
            r#"{"content":[1,"s",null,true,[{"text":"nested"}],{"text":{"a":[1,2]}}]}"#,
            r#"{"content":{"text":"object"}}"#,
            r#"{"content":null}"#,
            r#"{"content":42}"#,
            r#"{"content":[{"text":"x","extra":1e400}]}"#,
            r#"{"content":[{"te\u0078t":"escaped key"}]}"#,
            r#"{"content":[{"text":"lone \ud800"}]}"#,
            r#"{}"#,
        ];
        for c in cases {
            let new = serde_json::from_str::<Message<'_>>(c).ok().map(|m| {
                let image = matches!(&m.content, Some(Content::Parts(p))
                        if p.iter().any(|p| p.type_.as_deref() == Some("input_image")));
                (
                    m.texts().iter().map(|t| t.to_string()).collect::<Vec<_>>(),
                    image,
                )
            });
            assert_eq!(new, value_reading(c), "{c}");
        }
    }

    #[test]
    fn contextual_fragments_match_in_any_case_and_with_non_ascii_ends() {
        assert!(is_contextual_fragment(
            "  <ENVIRONMENT_CONTEXT>x</Environment_Context>\n"
        ));
        assert!(is_contextual_fragment(
            "<environment_context>é</environment_context>"
        ));
        assert!(!is_contextual_fragment(
            "é<environment_context>x</environment_context>"
        ));
        assert!(!is_contextual_fragment("<skill>"));
        assert!(is_contextual_fragment(&format!(
            "<skill>{}</skill>",
            "long body ".repeat(100)
        )));
    }

    #[test]
    fn markers_fit_in_the_plain_tail_window() {
        assert!(CONTEXTUAL_MARKERS
            .iter()
            .all(|(open, close)| open.len() <= 58 && close.len() <= 58));
    }

    #[test]
    fn raw_scaffolding_check_agrees_with_the_unescaped_text() {
        // Texts of every length around the windowed path's (only a window at each end
        // unescaped), built of
        // escapes, surrogate pairs, non-ASCII and white space in every position around the
        // windows' edges, with and without markers at their ends: the raw check must say
        // what the check of the unescaped text says.
        let pieces: &[&str] = &[
            "a",
            "Z",
            " ",
            r"\n",
            r"\t",
            r"\\",
            r#"\""#,
            r"\/",
            r"\u0041",
            r"\u00e9",
            r"\ud83d\ude00",
            r"\uD83D\uDE00",
            "é",
            "日",
            r"\u2028",
            r"\u00a0",
            "x y",
            "<",
        ];
        // Markers plain, in other cases, escaped, with a Kelvin sign (which lowercases to
        // `k` in Codex's Unicode path) or a dotted capital I, and escapes right beside them.
        let opens = [
            "",
            "<environment_context>",
            "<ENVIRONMENT_context>",
            r"\n<environment_context>",
            "# AGENTS.md instructions for /x",
            "é",
            r"\u00c9",
            "<skill>",
            r"\u003cskill>",
            "<s\u{212a}ill>",
            r"<s\u212aill>",
            "<SK\u{130}LL>",
            r"\\<skill>",
        ];
        let closes = [
            "",
            "</environment_context>",
            "</Environment_Context>",
            r"\n</environment_context>",
            "</INSTRUCTIONS>",
            "</skill>",
            r"</skill\u003e",
            "</s\u{212a}ill>",
            r"</s\u212aill>",
            r"\\</skill>",
            r"\u00e9</skill>",
            r"\ud83d\ude00</skill>",
            "é",
        ];
        let pads = [
            "",
            "",
            " ",
            r"\n",
            r"\n\n  ",
            r"\u00a0",
            "\u{a0}",
            r"\u0020",
            &r"\n".repeat(700),
            &" ".repeat(3000),
        ];
        let mut next = crate::testdata::xorshift(0x9e37_79b9_7f4a_7c15u64);
        let (mut in_place, mut windowed, mut scaffolding) = (0, 0, 0);
        for _ in 0..20_000 {
            let mut body = String::new();
            let len = [0, next(40), 200 + next(4_000)][next(3)];
            while body.len() < len {
                body.push_str(pieces[next(pieces.len())]);
            }
            let raw = format!(
                "\"{}{}{}{}{}\"",
                pads[next(pads.len())],
                opens[next(opens.len())],
                body,
                closes[next(closes.len())],
                pads[next(pads.len())],
            );
            let text: String = serde_json::from_str(&raw).unwrap();
            let inner = &raw[1..raw.len() - 1];
            in_place += raw_ends_are_contextual(inner).is_some() as usize;
            windowed += windowed_is_contextual_fragment(inner).is_some() as usize;
            let is = is_contextual_fragment(&text);
            scaffolding += is as usize;
            assert_eq!(raw_is_contextual_fragment(&raw), is, "{raw}");
        }
        // Both answers came up, and each way of reading the raw text was taken often.
        assert!(scaffolding > 300, "{scaffolding}");
        assert!(in_place > 1_500, "{in_place}");
        assert!(windowed > 3_000, "{windowed}");
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
    fn lenient_views_read_strings_and_tolerate_the_rest() {
        let ev: TurnEvent<'_> = serde_json::from_str(
            r#"{"turn_id":null,"turn_attribution":{"turn_id":"t\u00e9"},"message":"a\nb","reason":{"kind":"x"},"error":null}"#,
        )
        .unwrap();
        assert_eq!(ev.turn_id(), Some("t\u{e9}".to_string()));
        assert_eq!(ev.message.as_deref(), Some("a\nb"));
        assert_eq!(ev.reason_text().as_deref(), Some(r#"{"kind":"x"}"#));
        assert_eq!(ev.error_text(), None);
        let item: ToolItem<'_> =
            serde_json::from_str(r#"{"type":"function_call","call_id":5,"name":null}"#).unwrap();
        assert_eq!((item.call_id, item.name), (None, None));
    }

    #[test]
    fn output_text_reads_strings_arrays_and_content_objects() {
        let raw = |s: &str| -> Box<RawValue> { RawValue::from_string(s.to_string()).unwrap() };
        assert_eq!(output_text(&raw(r#""plain""#)).text, "plain");
        let parts = r#"[{"type":"input_text","text":"a"},{"type":"input_image"},{"type":"input_text","text":"b"}]"#;
        assert_eq!(output_text(&raw(parts)).text, "a\nb");
        let o = output_text(&raw(r#"{"content":"boom","success":false}"#));
        assert_eq!((o.text.as_str(), o.success), ("boom", Some(false)));
        assert_eq!(output_text(&raw("42")).text, "42");
    }

    #[test]
    fn tool_outcomes_read_durations_and_mcp_errors() {
        let o: ToolOutcome<'_> = serde_json::from_str(
            r#"{"duration":{"secs":1,"nanos":2500000},"result":{"Err":"gone"}}"#,
        )
        .unwrap();
        assert_eq!(o.duration_ms(), Some(1003));
        assert!(o.mcp_failed());
        let o: ToolOutcome<'_> =
            serde_json::from_str(r#"{"result":{"content":[],"isError":false},"error":null}"#)
                .unwrap();
        assert!(!o.mcp_failed());
        assert!(!o.has_error());
    }

    #[test]
    fn lenient_owned_reads_what_the_value_route_read() {
        /// The `Value` route `lenient_owned` replaced.
        fn via_value<T: de::DeserializeOwned>(json: &str) -> Result<Option<T>, ()> {
            let v: Value = serde_json::from_str(json).map_err(|_| ())?;
            Ok(serde_json::from_value(v).ok())
        }
        #[derive(Deserialize)]
        struct Wrap {
            #[serde(deserialize_with = "lenient_owned", default)]
            info: Option<TokenCountInfo>,
        }
        let cases = [
            r#"{"total_token_usage":{"input_tokens":5,"total_tokens":7},"last_token_usage":null}"#,
            r#"{"total_token_usage":{"input_tokens":"5","output_tokens":2.0}}"#,
            r#"{"total_token_usage":[1,2]}"#,
            r#"{"total_token_usage":{"input_tokens":1,"input_tokens":2}}"#,
            r#"{"total_token_usage":{"input_tokens":1},"total_token_usage":{"input_tokens":9}}"#,
            r#""a string""#,
            r#"null"#,
            r#"42"#,
            r#"[{"input_tokens":3},null]"#,
            r#"{"t\u006ftal_token_usage":{"input_tokens":3}}"#,
        ];
        #[derive(Deserialize)]
        struct Fast {
            #[serde(deserialize_with = "lenient_info", default)]
            info: Option<TokenCountInfo>,
        }
        for c in cases {
            let fast = serde_json::from_str::<Fast>(&format!(r#"{{"info":{c}}}"#))
                .map(|w| w.info.map(|i| (i.total_token_usage, i.last_token_usage)))
                .map_err(|_| ());
            let old = via_value::<TokenCountInfo>(c)
                .map(|i| i.map(|i| (i.total_token_usage, i.last_token_usage)));
            assert_eq!(fast, old, "lenient_info {c}");
        }
        for c in cases {
            let new = serde_json::from_str::<Wrap>(&format!(r#"{{"info":{c}}}"#))
                .map(|w| w.info.map(|i| (i.total_token_usage, i.last_token_usage)))
                .map_err(|_| ());
            let old = via_value::<TokenCountInfo>(c)
                .map(|i| i.map(|i| (i.total_token_usage, i.last_token_usage)));
            assert_eq!(new, old, "{c}");
        }
        // Where a `Value` could not hold a field that nothing reads, the rest still reads.
        for c in [
            r#"{"total_token_usage":{"input_tokens":1},"x":1e400}"#,
            r#"{"total_token_usage":{"input_tokens":1},"x":"\ud800"}"#,
        ] {
            let w: Wrap = serde_json::from_str(&format!(r#"{{"info":{c}}}"#)).unwrap();
            assert_eq!(w.info.unwrap().total_token_usage.unwrap().input_tokens, 1);
        }
    }

    #[test]
    fn lenient_usage_reads_what_the_value_route_read() {
        #[derive(Deserialize)]
        struct Fast {
            #[serde(deserialize_with = "lenient_usage", default)]
            u: Option<Usage>,
        }
        #[derive(Deserialize)]
        struct Slow {
            #[serde(deserialize_with = "lenient_owned", default)]
            u: Option<Usage>,
        }
        let cases = [
            r#"{"input_tokens":5,"cached_input_tokens":1,"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":7}"#,
            r#"{"input_tokens":"12","output_tokens":3.0,"extra":{"a":[1,2]},"total_tokens":-4}"#,
            r#"{"input_tokens":1,"input_tokens":2,"total_tokens":null}"#,
            r#"{"cache_write_input_tokens":3}"#,
            r#"{"cache_creation_input_tokens":4}"#,
            r#"{"cache_write_input_tokens":3,"cache_creation_input_tokens":4}"#,
            r#"{"cache_write_input_tokens":null,"output_tokens":true,"total_tokens":[1]}"#,
            r#"{"input_tokens":1e30,"output_tokens":2.7,"total_tokens":" 9 "}"#,
            r#"[1,2,null,3,4,5]"#,
            r#"[1,"x"]"#,
            r#""text""#,
            r#"17"#,
            r#"null"#,
            r#"{}"#,
            r#"{"input_tokens":1,"x":1e400}"#,
        ];
        for c in cases {
            let json = format!(r#"{{"u":{c}}}"#);
            let fast = serde_json::from_str::<Fast>(&json)
                .map(|f| f.u)
                .map_err(|_| ());
            let slow = serde_json::from_str::<Slow>(&json)
                .map(|f| f.u)
                .map_err(|_| ());
            assert_eq!(fast, slow, "{c}");
        }
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
