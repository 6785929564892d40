//! Lenient readers of one JSON value each: a value of the wrong shape is absent, not an error.

use std::borrow::Cow;

use serde::{de, Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::decode::select;

/// Any owned value read leniently: a value of the wrong shape is absent.
///
/// The value is read as `T` straight from its text; only where that fails is it read as a
/// `serde_json::Value` and converted (so duplicate keys still read as a `Value` reads
/// them: the last one wins). Building a `Value` for every `token_count` cost more than
/// everything else `stats` does with it. The one difference with always going through a
/// `Value`: a value that a `Value` cannot hold (a number beyond `f64`, a lone surrogate
/// escape) somewhere `T` ignores no longer fails the whole payload.
pub(super) fn lenient_owned<'de, D: Deserializer<'de>, T: de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    let raw = Box::<RawValue>::deserialize(d)?;
    if let Ok(t) = serde_json::from_str::<T>(raw.get()) {
        return Ok(Some(t));
    }
    let v: Value = serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
    Ok(serde_json::from_value(v).ok())
}

/// A number read as [`lenient_opt_u64`] reads it, without a `Value`.
pub(super) struct LenientU64(pub(super) Option<u64>);

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
pub(super) fn strict_opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(v.as_u64())
}

/// Accept integers, floats with no fraction, and numeric strings; anything else is zero.
pub(super) fn lenient_u64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(lenient_opt_u64(d)?.unwrap_or(0))
}

pub(super) fn lenient_opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(match v {
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// A value kept when it is a string (borrowed when it can be), checked and dropped otherwise.
pub(super) struct MaybeStr<'a>(pub(super) Option<Cow<'a, str>>);

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
pub(super) struct Discard;

impl Discard {
    pub(super) fn seq<'de, A: de::SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<Discard>()?.is_some() {}
        Ok(())
    }
    pub(super) fn map<'de, A: de::MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
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

// ---------------------------------------------------------------------------------------
// Views for `turns` and `calls`. Every field that could drift in type is read leniently:
// a string where a string is expected, otherwise absent; JSON values stay raw.
// ---------------------------------------------------------------------------------------

/// A string field read leniently: a JSON string (borrowed when it has no escapes), anything
/// else (number, object, null) reads as absent instead of failing the whole payload.
pub(super) fn lenient_str<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Cow<'de, str>>, D::Error> {
    let raw: Option<&'de RawValue> = Option::deserialize(d)?;
    Ok(raw.and_then(raw_str))
}

/// A boolean read leniently: anything but `true`/`false` is absent.
pub(super) fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    let raw: Option<&'de RawValue> = Option::deserialize(d)?;
    Ok(match raw.map(RawValue::get) {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => None,
    })
}

/// A signed integer read leniently (exit codes can be negative).
pub(super) fn lenient_opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
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
