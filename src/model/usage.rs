//! Token usage: the `token_count` and `token_usage_record` payloads and their usage blocks.

use std::borrow::Cow;

use serde::{de, Deserialize, Deserializer};
use serde_json::Value;

use super::lenient::{lenient_opt_u64, lenient_str, lenient_u64, LenientU64};

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
///
/// [`lenient_owned`]: super::lenient::lenient_owned
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
