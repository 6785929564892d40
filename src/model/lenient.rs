//! Lenient readers of one JSON value each: a value of the wrong shape is absent, not an error.

use std::borrow::Cow;
use std::marker::PhantomData;

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
#[derive(Default)]
pub(super) struct LenientU64(pub(super) Option<u64>);

impl<'de> Deserialize<'de> for LenientU64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read_leniently(d)
    }
}

impl Lenient<'_> for LenientU64 {
    fn u64(n: u64) -> Self {
        LenientU64(Some(n))
    }
    fn i64(n: i64) -> Self {
        LenientU64(u64::try_from(n).ok())
    }
    fn f64(f: f64) -> Self {
        LenientU64((f >= 0.0).then_some(f as u64))
    }
    fn str(s: &str) -> Self {
        LenientU64(s.trim().parse().ok())
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
#[derive(Default)]
pub(super) struct MaybeStr<'a>(pub(super) Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for MaybeStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read_leniently(d)
    }
}

impl<'de: 'a, 'a> Lenient<'de> for MaybeStr<'a> {
    fn str(s: &str) -> Self {
        MaybeStr(Some(Cow::Owned(s.to_string())))
    }
    fn borrowed_str(s: &'de str) -> Self {
        MaybeStr(Some(Cow::Borrowed(s)))
    }
    fn string(s: String) -> Self {
        MaybeStr(Some(Cow::Owned(s)))
    }
}

/// Any value, read as fully as a `serde_json::Value` would be (same errors) and dropped.
#[derive(Default)]
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
        read_leniently(d)
    }
}

impl Lenient<'_> for Discard {}

/// A reader of one JSON value of any kind, for [`read_leniently`]: what it makes of the
/// kinds of value it takes. Every kind it leaves to the defaults makes its `Default`; an
/// array or an object is read to its end first, as a `Value` would read it (failing where
/// a `Value` fails).
pub(super) trait Lenient<'de>: Default {
    fn u64(_: u64) -> Self {
        Self::default()
    }
    fn i64(_: i64) -> Self {
        Self::default()
    }
    fn f64(_: f64) -> Self {
        Self::default()
    }
    /// A string; by default also what the two below make.
    fn str(_: &str) -> Self {
        Self::default()
    }
    /// A string without escapes, borrowed from the input.
    fn borrowed_str(s: &'de str) -> Self {
        Self::str(s)
    }
    /// A string with escapes, unescaped.
    fn string(s: String) -> Self {
        Self::str(&s)
    }
    fn seq<A: de::SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        Discard::seq(seq).map(|_| Self::default())
    }
    fn map<A: de::MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Discard::map(map).map(|_| Self::default())
    }
}

/// Read one value of any kind with its [`Lenient`] reader (`true`, `false` and `null`
/// make its `Default`).
pub(super) fn read_leniently<'de, T: Lenient<'de>, D: Deserializer<'de>>(
    d: D,
) -> Result<T, D::Error> {
    struct V<T>(PhantomData<T>);
    impl<'de, T: Lenient<'de>> de::Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<T, E> {
            Ok(T::default())
        }
        fn visit_unit<E>(self) -> Result<T, E> {
            Ok(T::default())
        }
        fn visit_u64<E>(self, n: u64) -> Result<T, E> {
            Ok(T::u64(n))
        }
        fn visit_i64<E>(self, n: i64) -> Result<T, E> {
            Ok(T::i64(n))
        }
        fn visit_f64<E>(self, f: f64) -> Result<T, E> {
            Ok(T::f64(f))
        }
        fn visit_str<E>(self, s: &str) -> Result<T, E> {
            Ok(T::str(s))
        }
        fn visit_borrowed_str<E>(self, s: &'de str) -> Result<T, E> {
            Ok(T::borrowed_str(s))
        }
        fn visit_string<E>(self, s: String) -> Result<T, E> {
            Ok(T::string(s))
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
            T::seq(seq)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::map(map)
        }
    }
    d.deserialize_any(V(PhantomData))
}

/// An enum of the keys of an object that a reader handles, and `Other` for every other
/// key, read as serde reads a field name: `keys! { enum PartKey { Type = "type" } }`.
macro_rules! keys {
    ($(#[$meta:meta])* enum $name:ident { $($variant:ident = $key:literal),+ $(,)? }) => {
        $(#[$meta])*
        enum $name {
            $($variant,)+
            Other,
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("a key")
                    }
                    fn visit_str<E>(self, s: &str) -> Result<$name, E> {
                        Ok(match s {
                            $($key => $name::$variant,)+
                            _ => $name::Other,
                        })
                    }
                }
                d.deserialize_identifier(V)
            }
        }
    };
}
pub(super) use keys;

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
