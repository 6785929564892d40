//! One line decoded into a [`Record`]: the envelope checked as Codex's reader checks it,
//! by the scanner where it can and by serde_json where it cannot, and the payload kept raw.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::select::str_value;
use super::{chars_in, scan, select, DecodeError, Line, Pos};

/// The record types Codex writes. Anything else is [`Kind::Other`] and passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    SessionMeta,
    ResponseItem,
    EventMsg,
    TurnContext,
    Compacted,
    WorldState,
    TokenUsageRecord,
    Other,
}

impl Kind {
    fn from_type(t: &str) -> Kind {
        match t {
            "session_meta" => Kind::SessionMeta,
            "response_item" => Kind::ResponseItem,
            "event_msg" => Kind::EventMsg,
            "turn_context" => Kind::TurnContext,
            "compacted" => Kind::Compacted,
            "world_state" => Kind::WorldState,
            "token_usage_record" => Kind::TokenUsageRecord,
            _ => Kind::Other,
        }
    }
}

/// One decoded line. Borrows the decoder's line buffer: valid until the next read.
#[derive(Debug)]
pub struct Record<'a> {
    pub pos: Pos,
    /// The raw line (without its line ending and BOM).
    pub raw: &'a str,
    pub timestamp: Cow<'a, str>,
    pub ordinal: Option<u64>,
    /// The record's `type`, as written.
    pub type_name: Cow<'a, str>,
    pub kind: Kind,
    pub payload: &'a RawValue,
    pub metadata: Option<&'a RawValue>,
    payload_type: Option<Cow<'a, str>>,
    /// Every top-level payload member, as the scanner found them (spans of `raw`); `None`
    /// where the serde path decoded the line or a key held an escape.
    fields: Option<&'a [scan::Field]>,
    /// Where `raw` starts in the decoded stream (`pos.offset`, past a BOM on line 1).
    pub(super) raw_offset: u64,
    /// The length of the line's ending (see [`Line::eol`]).
    pub(super) eol: u8,
    /// The payload re-serialized without repeated keys, made only when a view needs it.
    deduplicated: std::cell::OnceCell<Box<str>>,
    /// Whether the record is a message the user typed, once a reader judged it
    /// ([`Record::judged_user_message`]).
    user_message: std::cell::OnceCell<bool>,
}

impl<'a> Record<'a> {
    /// The payload's `type` field (for `event_msg`, `response_item`, ...), with the known
    /// aliases folded: `turn_started` reads as `task_started`, `turn_complete` as
    /// `task_complete`.
    pub fn payload_type(&self) -> Option<&str> {
        self.payload_type.as_deref()
    }

    /// Whether the record is a message the user typed, judged by `judge` the first time a
    /// reader asks (the turn segmentation and the replay both ask, and the judgement reads
    /// the message's content).
    pub fn judged_user_message(&self, judge: impl FnOnce() -> bool) -> bool {
        *self.user_message.get_or_init(judge)
    }

    /// Parse the payload into a typed view. Errors are returned, never panics.
    ///
    /// A payload that repeats a key is read as Codex reads it, through a `Value`: the last
    /// value wins (typed views derived by serde would reject the repeat).
    pub fn parse_payload<'s, T: Deserialize<'s>>(&'s self) -> serde_json::Result<T> {
        match serde_json::from_str(self.payload.get()) {
            Err(e) if e.to_string().starts_with("duplicate field") => {
                let text = self.deduplicated.get_or_init(|| {
                    serde_json::from_str::<serde_json::Value>(self.payload.get())
                        .map(|v| v.to_string().into_boxed_str())
                        .unwrap_or_default()
                });
                serde_json::from_str(text)
            }
            r => r,
        }
    }

    /// The raw JSON text of a few top-level payload fields, found without parsing the
    /// rest (see [`select::fields`]); the last of a repeated key wins.
    pub fn payload_fields<const N: usize>(&self, keys: [&str; N]) -> [Option<&'a str>; N] {
        let Some(members) = self.noted_members() else {
            return select::fields(self.payload.get(), keys).unwrap_or([None; N]);
        };
        let mut out = [None; N];
        for (key, value) in members {
            if let Some((_, slot)) = keys.iter().zip(&mut out).find(|(k, _)| **k == key) {
                *slot = Some(value);
            }
        }
        out
    }

    /// Call `f(key, raw value)` for each top-level payload member, in order, until it
    /// returns `false` ([`select::members`], without walking the payload again when the
    /// scanner noted its members). `None` when `f` stopped or a key has an escape.
    pub fn payload_members(&self, mut f: impl FnMut(&'a str, &'a str) -> bool) -> Option<()> {
        let Some(mut members) = self.noted_members() else {
            return select::members(self.payload.get(), f);
        };
        members.all(|(key, value)| f(key, value)).then_some(())
    }

    /// The payload's members as the scanner noted them (key, raw value), when it did.
    fn noted_members(&self) -> Option<impl Iterator<Item = (&'a str, &'a str)>> {
        let raw = self.raw;
        let fields = self.fields?;
        Some(
            fields
                .iter()
                .map(move |f| (&raw[f.key.0..f.key.1], &raw[f.value.0..f.value.1])),
        )
    }

    /// The raw JSON text of one top-level payload field (see [`Record::payload_fields`]).
    pub fn payload_field(&self, key: &str) -> Option<&'a str> {
        let [v] = self.payload_fields([key]);
        v
    }

    /// Where `part`, a slice of this record's line (`raw`, or a value borrowed from it such
    /// as `payload`), starts in the decoded stream; `None` for text from elsewhere (a
    /// payload [`parse_payload`](Self::parse_payload) re-serialized to drop repeated keys).
    pub fn stream_offset_of(&self, part: &str) -> Option<u64> {
        let base = self.raw.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        (at >= base && at + part.len() <= base + self.raw.len())
            .then(|| self.raw_offset + (at - base) as u64)
    }

    /// The whole line, its characters counted (a pass over the line: for a fact about this
    /// record, not for every record).
    pub fn line(&self) -> Line {
        let bom = self.raw_offset - self.pos.offset;
        Line {
            chars: Some(u64::from(bom > 0) + chars_in(self.raw.as_bytes())),
            ..self.line_uncounted()
        }
    }

    /// The whole line, its characters left to count ([`Line`]).
    pub fn line_uncounted(&self) -> Line {
        let bom = self.raw_offset - self.pos.offset;
        Line {
            pos: self.pos,
            len: bom + self.raw.len() as u64,
            eol: self.eol,
            chars: None,
        }
    }

    /// The line length in bytes, without line ending.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// True when the raw line is empty (never for a decoded record).
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
}

/// The raw values of some named keys of a JSON object, read as the `serde_json::Value`
/// Codex reads a line into reads them: a key given twice keeps its last value (a derived
/// struct would reject the repeat), and `null` reads as absent.
struct RawFields<'a, const N: usize> {
    values: [Option<&'a RawValue>; N],
}

impl<'a, const N: usize> RawFields<'a, N> {
    fn parse(json: &'a str, keys: &'static [&'static str; N]) -> serde_json::Result<Self> {
        use serde::de::DeserializeSeed;
        let mut de = serde_json::Deserializer::from_str(json);
        let fields = Keys(keys).deserialize(&mut de)?;
        de.end()?;
        Ok(fields)
    }
}

/// The keys [`RawFields`] collects (serde's seed and visitor for it).
struct Keys<const N: usize>(&'static [&'static str; N]);

impl<'de, const N: usize> serde::de::DeserializeSeed<'de> for Keys<N> {
    type Value = RawFields<'de, N>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, const N: usize> serde::de::Visitor<'de> for Keys<N> {
    type Value = RawFields<'de, N>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut values = [None; N];
        while let Some(key) = m.next_key::<Cow<'de, str>>()? {
            match self.0.iter().zip(&mut values).find(|(k, _)| **k == key) {
                Some((_, slot)) => {
                    let v: &'de RawValue = m.next_value()?;
                    *slot = (v.get() != "null").then_some(v);
                }
                None => {
                    m.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(RawFields { values })
    }
}

/// The envelope keys, in [`RawEnvelope`]'s order.
const ENVELOPE_KEYS: &[&str; 5] = &["timestamp", "ordinal", "type", "payload", "metadata"];

/// The envelope as serde sees it. Every field is optional here so that each missing or
/// mistyped one gets its own located error.
struct RawEnvelope<'a> {
    timestamp: Option<&'a RawValue>,
    ordinal: Option<&'a RawValue>,
    type_: Option<&'a RawValue>,
    payload: Option<&'a RawValue>,
    metadata: Option<&'a RawValue>,
}

impl<'a> RawEnvelope<'a> {
    fn parse(line: &'a str) -> serde_json::Result<Self> {
        let [timestamp, ordinal, type_, payload, metadata] =
            RawFields::parse(line, ENVELOPE_KEYS)?.values;
        Ok(RawEnvelope {
            timestamp,
            ordinal,
            type_,
            payload,
            metadata,
        })
    }
}

/// The payload's `type` (the last one, when repeated); a non-string reads as none.
fn payload_head(payload: &RawValue) -> Option<Cow<'_, str>> {
    let [t] = RawFields::parse(payload.get(), &["type"]).ok()?.values;
    str_value(t?.get())
}

/// Decode one line (without line ending) into a record.
///
/// A one-pass scanner (`decode/scan.rs`) checks the line and finds the envelope's fields
/// and the payload's `type`; whatever it is not sure of (every bad line, and a few unusual
/// good ones) goes through serde_json, which decides and locates the error.
pub fn decode_line(bytes: &[u8], pos: Pos) -> Result<Record<'_>, DecodeError> {
    decode_indexed(bytes, pos, None, None)
}

/// [`decode_line`], keeping the payload's top-level members in `index` (a list reused from
/// line to line) so that [`Record::payload_fields`] needs no second look at the payload.
/// `scanned`: the line was already scanned where it lay (`scan::scan_in_buffer`), and
/// `index` holds its members.
pub(super) fn decode_indexed<'a>(
    bytes: &'a [u8],
    pos: Pos,
    mut index: Option<&'a mut Vec<scan::Field>>,
    scanned: Option<scan::Parts>,
) -> Result<Record<'a>, DecodeError> {
    let mut scratch = Vec::new();
    let list = match index {
        Some(ref mut list) => list,
        None => &mut scratch,
    };
    let parts = scanned.or_else(|| scan::scan(bytes, list));
    if let Some(p) = parts {
        let fields = match index {
            Some(list) if p.fields_complete => Some(&list[..]),
            _ => None,
        };
        // SAFETY: `scan` accepts only valid UTF-8 (it checks every stretch of a string that
        // holds non-ASCII bytes, and admits nothing but ASCII outside strings).
        let text = unsafe { std::str::from_utf8_unchecked(bytes) };
        let raw = |s: scan::Span| &text[s.0..s.1];
        // A plain string's contents: its span less the quotes.
        let plain =
            |s: Option<scan::Span>, yes: bool| s.filter(|_| yes).map(|s| &text[s.0 + 1..s.1 - 1]);
        let payload_type = match p.payload_type {
            scan::PayloadType::Plain(s) => PeekedType::Plain(raw(s)),
            scan::PayloadType::Absent => PeekedType::Absent,
            scan::PayloadType::Slow => PeekedType::Slow,
        };
        return envelope_record(
            text,
            pos,
            RawEnvelope {
                timestamp: p.timestamp.map(|s| raw_value(raw(s))),
                ordinal: p.ordinal.map(|s| raw_value(raw(s))),
                type_: p.type_.map(|s| raw_value(raw(s))),
                payload: p.payload.map(|s| raw_value(raw(s))),
                metadata: p.metadata.map(|s| raw_value(raw(s))),
            },
            payload_type,
            Plain {
                timestamp: plain(p.timestamp, p.plain_timestamp),
                type_: plain(p.type_, p.plain_type),
            },
            fields,
        );
    }
    decode_line_serde(bytes, pos)
}

/// The length of the JSON string at the start of `bytes` (quotes included), checked as the
/// decoder checks every string of a line; `None` when `bytes` does not start with a valid
/// one.
pub fn json_string_len(bytes: &[u8]) -> Option<usize> {
    scan::string_len(bytes)
}

/// `bytes` as a [`RawValue`] when they are exactly one JSON string, checked as the decoder
/// checks every string of a line.
pub fn json_string(bytes: &[u8]) -> Option<&RawValue> {
    if scan::string_len(bytes)? != bytes.len() {
        return None;
    }
    // SAFETY: the scanner accepts only valid UTF-8 (it checks every stretch of a string that
    // holds non-ASCII bytes).
    let text = unsafe { std::str::from_utf8_unchecked(bytes) };
    Some(raw_value(text))
}

/// `text` as a [`RawValue`] when it is exactly one JSON value (no white space around it),
/// checked by the decoder's scanner (serde decides where the scanner leaves it): the
/// check of a text read back from a file, far cheaper than `RawValue::from_string`'s parse.
pub fn json_value(text: &str) -> Option<&RawValue> {
    match scan::value_len(text.as_bytes()) {
        Some(n) if n == text.len() => Some(raw_value(text)),
        Some(_) => None,
        None => serde_json::from_str::<&RawValue>(text)
            .ok()
            .filter(|r| r.get().len() == text.len()),
    }
}

/// Whether `text` is one JSON value (JSON white space around it allowed), checked as the
/// decoder checks a line's values, so as Codex's reader checks them (a number beyond `f64`
/// is valid); `None` where the decoder would ask serde (nesting deeper than it scans).
pub fn is_json(text: &str) -> Option<bool> {
    let b = text.trim_start_matches([' ', '\t', '\n', '\r']).as_bytes();
    // JSON's white space only (not a form feed, which `is_ascii_whitespace` allows).
    scan::value_len(b).map(|n| {
        b.iter()
            .skip(n)
            .all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    })
}

/// The serde path of [`decode_line`]: decides every line the scanner is not sure of, and
/// locates its error.
pub(crate) fn decode_line_serde(bytes: &[u8], pos: Pos) -> Result<Record<'_>, DecodeError> {
    let text = std::str::from_utf8(bytes).map_err(|e| DecodeError::Utf8 {
        col: e.valid_up_to() + 1,
    })?;
    // serde would happily read a JSON array into the envelope struct: only objects pass.
    if !text.trim_start().starts_with('{') {
        return Err(match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => DecodeError::NotObject {
                found: json_kind(text),
            },
            Err(e) => json_error(e),
        });
    }
    // What Codex's reader rejects (it parses each line into a `serde_json::Value`) that
    // skipping over values would let through: nesting of 128 levels or more, and lone
    // surrogate escapes. A number beyond f64 is not among them: Codex builds serde_json
    // with `arbitrary_precision`, which keeps such numbers as text.
    codex_value_check(text)?;
    let env = match RawEnvelope::parse(text) {
        Ok(env) => env,
        Err(e) => return Err(json_error(e)),
    };
    envelope_record(text, pos, env, PeekedType::Slow, Plain::default(), None)
}

/// Parse the line as Codex does, into a `serde_json::Value`, and fail where it fails. Codex
/// builds serde_json with `arbitrary_precision`, so a number beyond f64 is no error there;
/// ours stops at such a number, so each one is replaced by `0` in a copy and the check goes
/// on (at most a few dozen times: beyond that the line is given the benefit of the doubt).
pub(crate) fn codex_value_check(text: &str) -> Result<(), DecodeError> {
    const MAX_RETRIES: usize = 32;
    let mut owned: Option<String> = None;
    // Bytes the replacements took out, all before any later error: columns map back.
    let mut removed = 0;
    for _ in 0..MAX_RETRIES {
        let cur = owned.as_deref().unwrap_or(text);
        let e = match serde_json::from_str::<serde_json::Value>(cur) {
            Ok(_) => return Ok(()),
            Err(e) => e,
        };
        if !e.to_string().starts_with("number out of range") {
            return Err(match json_error(e) {
                DecodeError::Json { col, msg } => DecodeError::Json {
                    col: col + removed,
                    msg,
                },
                other => other,
            });
        }
        // The error's column lies in the number (at its end, or where a long exponent
        // overflowed): walk back to its start and on to its end.
        let b = cur.as_bytes();
        let number = |c: &u8| matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
        let mut end = error_offset(cur, &e);
        while b.get(end).is_some_and(number) {
            end += 1;
        }
        let start = b
            .iter()
            .take(end)
            .rposition(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .map_or(0, |i| i + 1);
        if start >= end {
            return Ok(());
        }
        removed += end - start - 1;
        let mut next = String::with_capacity(cur.len());
        next.push_str(&cur[..start]);
        next.push('0');
        next.push_str(&cur[end..]);
        owned = Some(next);
    }
    Ok(())
}

/// Where in `text` serde's error points: just past the byte at its line and column (both
/// 1-based, the column counted in bytes). A line of a rollout holds no raw `\n`, but a value
/// may: white space between its tokens can be one, and serde counts columns from it.
fn error_offset(text: &str, e: &serde_json::Error) -> usize {
    let line_start = match e.line() {
        0 | 1 => 0,
        n => text
            .bytes()
            .enumerate()
            .filter(|&(_, c)| c == b'\n')
            .nth(n - 2)
            .map_or(text.len(), |(i, _)| i + 1),
    };
    (line_start + e.column()).min(text.len())
}

/// What is known of the payload's `type` before serde is asked.
enum PeekedType<'a> {
    /// A plain string (no escapes), its contents.
    Plain(&'a str),
    /// Known to be absent (or unusable: a duplicate key, a non-string).
    Absent,
    /// Ask serde.
    Slow,
}

/// The envelope's string fields already known to be plain strings (no escapes), by their
/// contents; `None` where not known.
#[derive(Default)]
struct Plain<'a> {
    timestamp: Option<&'a str>,
    type_: Option<&'a str>,
}

/// Borrow valid JSON text as a [`RawValue`] without parsing it again. Only for text the
/// scanner checked: a decoded line's values (this module's, and the members a [`Record`]
/// hands out).
pub(crate) fn raw_value(json: &str) -> &RawValue {
    // SAFETY: `RawValue` is `#[repr(transparent)]` over `str`, and serde_json makes its own
    // borrowed raw values with this very cast. `json` is valid JSON: the scanner checked it
    // (every caller passes a value of a decoded line).
    unsafe { &*(json as *const str as *const RawValue) }
}

/// What a fast reader walks: the members of a payload, of a record (its members as the
/// scanner noted them) or of a JSON object's text.
pub trait Members<'a> {
    /// [`Record::payload_members`].
    fn members(self, f: impl FnMut(&'a str, &'a str) -> bool) -> Option<()>;
}

impl<'a> Members<'a> for &'a str {
    fn members(self, f: impl FnMut(&'a str, &'a str) -> bool) -> Option<()> {
        select::members(self, f)
    }
}

impl<'a> Members<'a> for &Record<'a> {
    fn members(self, f: impl FnMut(&'a str, &'a str) -> bool) -> Option<()> {
        self.payload_members(f)
    }
}

/// The checks after the envelope is found, shared by both paths.
fn envelope_record<'a>(
    text: &'a str,
    pos: Pos,
    env: RawEnvelope<'a>,
    peeked: PeekedType<'a>,
    plain: Plain<'a>,
    fields: Option<&'a [scan::Field]>,
) -> Result<Record<'a>, DecodeError> {
    let timestamp = match (plain.timestamp, env.timestamp) {
        (Some(s), _) => Cow::Borrowed(s),
        (None, None) => return Err(DecodeError::TimestampMissing),
        (None, Some(raw)) => match str_value(raw.get()) {
            Some(s) => s,
            None if raw.get() == "null" => return Err(DecodeError::TimestampMissing),
            None => return Err(DecodeError::TimestampNotString),
        },
    };
    let ordinal = match env.ordinal {
        None => None,
        Some(raw) => {
            let r = raw.get();
            if !r.is_empty() && r.len() < 20 && r.bytes().all(|c| c.is_ascii_digit()) {
                r.parse().ok()
            } else {
                serde_json::from_str::<Option<u64>>(r).map_err(|_| DecodeError::OrdinalInvalid)?
            }
        }
    };
    let type_name = match (plain.type_, env.type_) {
        (Some(s), _) => Cow::Borrowed(s),
        (None, None) => return Err(DecodeError::TypeMissing),
        (None, Some(raw)) => str_value(raw.get()).ok_or(DecodeError::TypeNotString)?,
    };
    let payload = match env.payload {
        None => return Err(DecodeError::PayloadMissing),
        Some(p) if p.get().starts_with('{') => p,
        Some(_) => return Err(DecodeError::PayloadNotObject),
    };
    let kind = Kind::from_type(&type_name);
    let payload_type = match peeked {
        PeekedType::Plain(t) => Some(fold_alias(Cow::Borrowed(t))),
        PeekedType::Absent => None,
        PeekedType::Slow => payload_head(payload).map(fold_alias),
    };
    Ok(Record {
        pos,
        raw: text,
        timestamp,
        ordinal,
        type_name,
        kind,
        payload,
        metadata: env.metadata,
        payload_type,
        fields,
        raw_offset: pos.offset,
        eol: 1,
        deduplicated: std::cell::OnceCell::new(),
        user_message: std::cell::OnceCell::new(),
    })
}

/// Fold Codex's event aliases into the names its writer emits.
pub fn fold_alias(t: Cow<'_, str>) -> Cow<'_, str> {
    match t.as_ref() {
        "turn_started" => Cow::Borrowed("task_started"),
        "turn_complete" => Cow::Borrowed("task_complete"),
        _ => t,
    }
}

fn json_error(e: serde_json::Error) -> DecodeError {
    DecodeError::Json {
        col: e.column(),
        msg: strip_position(&e.to_string()),
    }
}

/// The JSON kind of a valid, non-object value.
fn json_kind(text: &str) -> &'static str {
    match text.trim_start().as_bytes().first() {
        Some(b'[') => "array",
        Some(b'"') => "string",
        Some(b't') | Some(b'f') => "boolean",
        Some(b'n') => "null",
        _ => "number",
    }
}

/// serde_json appends " at line L column C"; we report the column ourselves.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::outcome;
    use crate::decode::tests::{entries, testdata_lines, GOOD};
    use crate::decode::{Decoder, Entry};

    #[test]
    fn decodes_envelope_and_folds_aliases() {
        let input = format!("{GOOD}\n");
        assert_eq!(
            entries(input.as_bytes()),
            ["1@0 rec event_msg Some(\"task_started\") None"]
        );
    }

    #[test]
    fn each_envelope_defect_is_its_own_error() {
        let cases: &[(&str, &str)] = &[
            ("[1,2]", "not_object"),
            ("\"x\"", "not_object"),
            ("{\"type\":\"a\",\"payload\":{}}", "timestamp_missing"),
            (
                "{\"timestamp\":5,\"type\":\"a\",\"payload\":{}}",
                "timestamp_not_string",
            ),
            ("{\"timestamp\":\"t\",\"payload\":{}}", "type_missing"),
            (
                "{\"timestamp\":\"t\",\"type\":\"a\",\"payload\":[]}",
                "payload_not_object",
            ),
            ("{\"timestamp\":\"t\",\"type\":\"a\"}", "payload_missing"),
            (
                "{\"timestamp\":\"t\",\"ordinal\":-1,\"type\":\"a\",\"payload\":{}}",
                "ordinal_invalid",
            ),
            ("{\"timestamp\":\"t\",", "invalid_json"),
        ];
        for (line, kind) in cases {
            let input = format!("{line}\n");
            let got = entries(input.as_bytes());
            assert_eq!(got, [format!("1@0 bad {kind}")], "line {line}");
        }
    }

    #[test]
    fn codex_rejects_what_its_value_parse_rejects_and_so_do_we() {
        let deep = |n: usize| {
            format!(
                "{{\"timestamp\":\"t\",\"type\":\"a\",\"payload\":{{\"x\":{}1{}}}}}\n",
                "[".repeat(n),
                "]".repeat(n)
            )
        };
        // The envelope and payload objects are two levels: 125 more make 127, the limit.
        assert_eq!(entries(deep(125).as_bytes()), ["1@0 rec a None None"]);
        assert_eq!(entries(deep(126).as_bytes()), ["1@0 bad invalid_json"]);
        for lone in [r"\ud800", r"\uDC00", r"x\ud83dy"] {
            let line = format!(
                "{{\"timestamp\":\"t\",\"type\":\"a\",\"payload\":{{\"s\":\"{lone}\"}}}}\n"
            );
            assert_eq!(entries(line.as_bytes()), ["1@0 bad invalid_json"], "{lone}");
        }
        let pair = "{\"timestamp\":\"t\",\"type\":\"a\",\"payload\":{\"s\":\"\\ud83d\\ude00\"}}\n";
        assert_eq!(entries(pair.as_bytes()), ["1@0 rec a None None"]);
        // Codex's serde_json keeps numbers as text (`arbitrary_precision`): 1e400 is fine.
        let big = "{\"timestamp\":\"t\",\"type\":\"a\",\"payload\":{\"n\":1e400}}\n";
        assert_eq!(entries(big.as_bytes()), ["1@0 rec a None None"]);
    }

    #[test]
    fn a_number_beyond_f64_after_a_raw_newline_is_found_by_its_line_and_column() {
        // Found by the scanner fuzzer: serde counts the column from the last `\n`, so the
        // number was looked for near the text's start, and a value Codex reads was refused.
        // A line holds no raw `\n`; a value read back may, as white space.
        assert_eq!(codex_value_check("{\"a\":\n\r\n 1E400}"), Ok(()));
        assert_eq!(
            codex_value_check("{\"k\":\"x44\"\n,\"a\":\n-1e999,\"b\":[2e400]}"),
            Ok(())
        );
        let Err(DecodeError::Json { msg, .. }) = codex_value_check("{\"a\":\n1E400,\"b\":tru}")
        else {
            panic!("a later defect is still found");
        };
        assert!(msg.contains("expected ident"), "{msg}");
    }

    #[test]
    fn a_number_beyond_f64_does_not_hide_a_later_defect() {
        let lone =
            "{\"timestamp\":\"t\",\"type\":\"x\",\"payload\":{},\"n\":1e400,\"s\":\"\\ud800\"}\n";
        assert_eq!(entries(lone.as_bytes()), ["1@0 bad invalid_json"]);
        let deep = format!(
            "{{\"timestamp\":\"t\",\"type\":\"x\",\"payload\":{{}},\"n\":-1e400,\"a\":{}{}}}\n",
            "[".repeat(127),
            "]".repeat(127)
        );
        assert_eq!(entries(deep.as_bytes()), ["1@0 bad invalid_json"]);
        let fine = "{\"timestamp\":\"t\",\"type\":\"x\",\"payload\":{\"a\":1e400,\"b\":2E+999}}\n";
        assert_eq!(entries(fine.as_bytes()), ["1@0 rec x None None"]);
        // An exponent too long for serde's counter: its error points inside the number
        // (found by the mutation sweep below, `1e1795953629944`).
        let long =
            "{\"timestamp\":\"t\",\"type\":\"x\",\"payload\":{\"a\":1e1795953629944,\"b\":1}}\n";
        assert_eq!(entries(long.as_bytes()), ["1@0 rec x None None"]);
        assert_eq!(
            decode_line_serde(long.trim_end().as_bytes(), Pos::default())
                .map(|r| r.type_name.into_owned())
                .ok(),
            Some("x".to_string())
        );
    }

    #[test]
    fn a_repeated_payload_key_keeps_its_last_value() {
        let line = r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","type":"function_call","call_id":"c1","call_id":"c2"}}"#;
        let mut d = Decoder::new(line.as_bytes());
        match d.next().unwrap().unwrap() {
            Entry::Record(r) => {
                assert_eq!(r.payload_type(), Some("function_call"));
                #[derive(Deserialize)]
                struct Call<'a> {
                    #[serde(borrow)]
                    call_id: Cow<'a, str>,
                }
                let c: Call<'_> = r.parse_payload().unwrap();
                assert_eq!(c.call_id, "c2");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_repeated_envelope_key_keeps_its_last_value() {
        let line = "{\"timestamp\":5,\"type\":\"a\",\"timestamp\":\"t\",\"payload\":{}}\n";
        assert_eq!(entries(line.as_bytes()), ["1@0 rec a None None"]);
    }

    #[test]
    fn null_ordinal_is_allowed() {
        let input = "{\"timestamp\":\"t\",\"ordinal\":null,\"type\":\"a\",\"payload\":{}}\n";
        assert_eq!(entries(input.as_bytes()), ["1@0 rec a None None"]);
    }

    #[test]
    fn invalid_utf8_reports_column() {
        let mut input = b"{\"timestamp\":\"".to_vec();
        input.push(0xff);
        input.extend_from_slice(b"\"}\n");
        let mut d = Decoder::new(&input[..]);
        match d.next().unwrap().unwrap() {
            Entry::Bad(b) => assert_eq!(b.error, DecodeError::Utf8 { col: 15 }),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_scanner_and_serde_agree_on_every_testdata_line_and_mutations_of_it() {
        let lines = testdata_lines();
        assert!(lines.len() > 900);
        let check = |l: &[u8]| {
            let fast = outcome(&decode_line(l, Pos::default()));
            let slow = outcome(&decode_line_serde(l, Pos::default()));
            assert_eq!(fast, slow, "{:?}", String::from_utf8_lossy(l));
        };
        let mut rnd = crate::testkit::xorshift(0x243f_6a88_85a3_08d3u64);
        for l in &lines {
            check(l);
            for _ in 0..8 {
                let mut m = l.clone();
                let at = rnd(m.len() + 1);
                match rnd(3) {
                    0 if !m.is_empty() => {
                        m.remove(at.min(m.len() - 1));
                    }
                    1 => m.truncate(at),
                    _ => {
                        let ins = crate::testkit::fragment(&mut rnd);
                        m.splice(at..at, ins.iter().copied());
                    }
                }
                check(&m);
            }
        }
    }

    #[test]
    fn payload_fields_hold_what_serde_reads_whoever_found_them() {
        // Through the decoder (the scanner's index), through `decode_line` (the walker),
        // and for lines with an escaped or repeated key: the same values as a `Value` read.
        let mut lines = testdata_lines();
        lines.push(
            br#"{"timestamp":"t","type":"x","payload":{"a":1,"a":{"b":[2]},"c":"d"}}"#.to_vec(),
        );
        lines.push(br#"{"timestamp":"t","type":"x","payload":{"\u0061":1,"c":"d"}}"#.to_vec());
        let mut checked = 0;
        for line in &lines {
            let Ok(serde_json::Value::Object(env)) =
                serde_json::from_slice::<serde_json::Value>(line)
            else {
                continue;
            };
            let Some(serde_json::Value::Object(payload)) = env.get("payload") else {
                continue;
            };
            let mut text = line.clone();
            text.push(b'\n');
            let mut dec = Decoder::new(&text[..]);
            let Some(Ok(Entry::Record(indexed))) = dec.next() else {
                continue;
            };
            let walked = decode_line(line, Pos::default()).unwrap();
            for (k, v) in payload {
                for rec in [&indexed, &walked] {
                    let raw = rec.payload_field(k).unwrap();
                    let got: serde_json::Value = serde_json::from_str(raw).unwrap();
                    assert_eq!(&got, v, "{k} in {}", String::from_utf8_lossy(line));
                }
                checked += 1;
            }
            assert_eq!(indexed.payload_field("no such key"), None);
        }
        assert!(checked > 1000, "only {checked} fields checked");
    }

    #[test]
    fn unknown_types_and_fields_pass_through() {
        let input =
            "{\"timestamp\":\"t\",\"type\":\"brand_new\",\"extra\":1,\"payload\":{\"x\":2}}\n";
        assert_eq!(entries(input.as_bytes()), ["1@0 rec brand_new None None"]);
    }
}
