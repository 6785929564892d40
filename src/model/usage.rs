//! Token usage: the `token_count` and `token_usage_record` payloads and their usage blocks.

use std::borrow::Cow;

use serde::{de, Deserialize, Deserializer};
use serde_json::Value;

use super::lenient::{
    keys, lenient_opt_u64, lenient_str, lenient_u64, read_leniently, Lenient, LenientU64,
};

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

/// A usage block read leniently, as [`lenient_owned`] reads it (through a `Value`), but in
/// one pass and without building the `Value`: each field as [`lenient_u64`] reads it, the
/// last of duplicate keys winning, both spellings of the cache-write field at once making
/// no usage (a duplicate field), anything but an object or an array making no usage.
///
/// [`lenient_owned`]: super::lenient::lenient_owned
fn lenient_usage<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Usage>, D::Error> {
    read_leniently(d)
}

impl<'de> Lenient<'de> for Option<Usage> {
    fn map<A: de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        keys! {
            enum Key {
                Input = "input_tokens",
                Cached = "cached_input_tokens",
                Write = "cache_write_input_tokens",
                Creation = "cache_creation_input_tokens",
                Output = "output_tokens",
                Reasoning = "reasoning_output_tokens",
                Total = "total_tokens",
            }
        }
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

    fn seq<A: de::SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        struct_from_array(seq)
    }
}

/// A struct read from an array, as serde can: an oddity left to the `Value` route.
fn struct_from_array<'de, T: de::DeserializeOwned, A: de::SeqAccess<'de>>(
    seq: A,
) -> Result<Option<T>, A::Error> {
    let v = Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
    Ok(serde_json::from_value(v).ok())
}

/// `token_count.info` read as [`lenient_owned`] reads it, in one pass: the last of
/// duplicate keys wins (as in a `Value`), an array goes the `Value` way, anything else but
/// an object is no info.
///
/// [`lenient_owned`]: super::lenient::lenient_owned
fn lenient_info<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TokenCountInfo>, D::Error> {
    read_leniently(d)
}

impl<'de> Lenient<'de> for Option<TokenCountInfo> {
    fn map<A: de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        keys! {
            enum InfoKey { Total = "total_token_usage", Last = "last_token_usage" }
        }
        struct UsageField(Option<Usage>);
        impl<'de> Deserialize<'de> for UsageField {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                lenient_usage(d).map(UsageField)
            }
        }
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

    fn seq<A: de::SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        struct_from_array(seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lenient::lenient_owned;

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
        let usages = |i: TokenCountInfo| (i.total_token_usage, i.last_token_usage);
        for c in cases {
            let json = format!(r#"{{"info":{c}}}"#);
            let old = via_value::<TokenCountInfo>(c).map(|i| i.map(usages));
            let new = serde_json::from_str::<Wrap>(&json).map(|w| w.info.map(usages));
            assert_eq!(new.map_err(|_| ()), old, "{c}");
            let fast = serde_json::from_str::<Fast>(&json).map(|w| w.info.map(usages));
            assert_eq!(fast.map_err(|_| ()), old, "lenient_info {c}");
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
