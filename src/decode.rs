//! The one tolerant rollout line decoder.
//!
//! [`Decoder`] turns a byte stream into [`Entry`]s: decoded records, blank lines and bad
//! lines, each located by its 1-based line number and the byte offset of the line start in
//! the decoded stream. A bad line never ends the stream: it becomes an [`Entry::Bad`] with a
//! typed [`DecodeError`] and reading goes on. Only the envelope
//! `{timestamp, ordinal?, type, payload, metadata?}` is decoded here; the payload stays raw
//! JSON ([`RawValue`]) until a reducer asks for the part it needs.
//!
//! The rules mirror Codex's own `decode_rollout_line` (see `research/upstream.md` §1.1):
//! the line must be a JSON object, `timestamp` must be a string, `ordinal` is an optional
//! unsigned integer (`null` allowed), `type` is required and `payload` must be an object.
//! Unknown record types and unknown fields pass through untouched.
//!
//! This module knows nothing of clap or of output.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};

use serde::Deserialize;
use serde_json::value::RawValue;

/// The UTF-8 byte order mark. Codex's reader fails on it (openai/codex#28139).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The line buffer's starting capacity.
const INITIAL_BUF: usize = 64 * 1024;
/// A line buffer grown past this is shrunk back before the next line.
const SHRINK_ABOVE: usize = 16 * 1024 * 1024;

/// Default for `--max-line-bytes`: 512 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 512 * 1024 * 1024;

/// Where a line sits in its (decoded) input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the first byte of the line in the decoded stream (the BOM included).
    pub offset: u64,
}

/// Why a line was rejected. Each variant is a line Codex's own reader would reject too.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("invalid UTF-8 at column {col}")]
    Utf8 { col: usize },
    #[error("invalid JSON at column {col}: {msg}")]
    Json { col: usize, msg: String },
    #[error("line is a JSON {found}, not an object")]
    NotObject { found: &'static str },
    #[error("`timestamp` is missing")]
    TimestampMissing,
    #[error("`timestamp` is not a string")]
    TimestampNotString,
    #[error("`type` is missing")]
    TypeMissing,
    #[error("`type` is not a string")]
    TypeNotString,
    #[error("`payload` is missing")]
    PayloadMissing,
    #[error("`payload` is not an object")]
    PayloadNotObject,
    #[error("`ordinal` is not an unsigned integer")]
    OrdinalInvalid,
    #[error("line is {len} bytes, longer than --max-line-bytes {limit}; skipped")]
    TooLong { len: u64, limit: usize },
}

impl DecodeError {
    /// A short stable name for the error, used in NDJSON and counters.
    pub fn kind(&self) -> &'static str {
        match self {
            DecodeError::Utf8 { .. } => "invalid_utf8",
            DecodeError::Json { .. } => "invalid_json",
            DecodeError::NotObject { .. } => "not_object",
            DecodeError::TimestampMissing => "timestamp_missing",
            DecodeError::TimestampNotString => "timestamp_not_string",
            DecodeError::TypeMissing => "type_missing",
            DecodeError::TypeNotString => "type_not_string",
            DecodeError::PayloadMissing => "payload_missing",
            DecodeError::PayloadNotObject => "payload_not_object",
            DecodeError::OrdinalInvalid => "ordinal_invalid",
            DecodeError::TooLong { .. } => "line_too_long",
        }
    }
}

/// A rejected line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub pos: Pos,
    pub error: DecodeError,
    /// The line was the last one, had no final newline, and failed to decode: a torn write.
    pub torn: bool,
    /// The line carried an `"ordinal"` that a raw scan could read, though the line failed.
    /// `check-ordinal` needs it: Codex's next resume reuses such ordinals.
    pub ordinal_hint: Option<u64>,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.torn {
            write!(f, "torn last line (no final newline): {}", self.error)
        } else {
            self.error.fmt(f)
        }
    }
}

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
}

impl<'a> Record<'a> {
    /// The payload's `type` field (for `event_msg`, `response_item`, ...), with the known
    /// aliases folded: `turn_started` reads as `task_started`, `turn_complete` as
    /// `task_complete`.
    pub fn payload_type(&self) -> Option<&str> {
        self.payload_type.as_deref()
    }

    /// Parse the payload into a typed view. Errors are returned, never panics.
    pub fn parse_payload<T: Deserialize<'a>>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.payload.get())
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

/// What the decoder yields per line.
#[derive(Debug)]
pub enum Entry<'a> {
    Record(Record<'a>),
    Blank(Pos),
    Bad(BadLine),
}

impl Entry<'_> {
    pub fn pos(&self) -> Pos {
        match self {
            Entry::Record(r) => r.pos,
            Entry::Blank(p) => *p,
            Entry::Bad(b) => b.pos,
        }
    }
}

/// Facts about the stream as a whole, filled in while reading.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamInfo {
    /// Decoded bytes read so far.
    pub bytes: u64,
    /// Lines read so far (blank and bad ones included).
    pub lines: u64,
    /// The stream started with a UTF-8 BOM (stripped).
    pub bom: bool,
    /// Lines that ended in `\r\n`.
    pub crlf_lines: u64,
    /// The last line had no final newline.
    pub no_final_newline: bool,
}

/// The envelope as serde sees it. Every field is optional here so that each missing or
/// mistyped one gets its own located error.
#[derive(Deserialize)]
struct RawEnvelope<'a> {
    #[serde(borrow, default)]
    timestamp: Option<&'a RawValue>,
    #[serde(borrow, default)]
    ordinal: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "type")]
    type_: Option<&'a RawValue>,
    #[serde(borrow, default)]
    payload: Option<&'a RawValue>,
    #[serde(borrow, default)]
    metadata: Option<&'a RawValue>,
}

/// Only the payload's `type`.
#[derive(Deserialize)]
struct PayloadHead<'a> {
    #[serde(borrow, default, rename = "type")]
    type_: Option<Cow<'a, str>>,
}

/// The streaming decoder. Reuses one line buffer; never holds more than one line (and never
/// more than `max_line_bytes` of it).
pub struct Decoder<R> {
    rdr: R,
    buf: Vec<u8>,
    max_line: usize,
    info: StreamInfo,
    done: bool,
    /// Whether record payloads get their `type` peeked (costs a second scan of the payload).
    peek_payload_type: bool,
}

/// The outcome of reading one physical line.
enum Line {
    Eof,
    /// The line is in `buf`; `newline` tells whether it ended in `\n`.
    Ok {
        newline: bool,
    },
    /// The line was longer than the limit and was skipped; `len` bytes without the newline.
    TooLong {
        len: u64,
    },
}

impl<R: BufRead> Decoder<R> {
    pub fn new(rdr: R) -> Self {
        Decoder {
            rdr,
            buf: Vec::with_capacity(INITIAL_BUF),
            max_line: DEFAULT_MAX_LINE_BYTES,
            info: StreamInfo::default(),
            done: false,
            peek_payload_type: true,
        }
    }

    /// Lines longer than this many bytes are reported and skipped without being buffered.
    pub fn max_line_bytes(mut self, limit: usize) -> Self {
        self.max_line = limit.max(1);
        self
    }

    /// Skip peeking at the payload `type` (for commands that never look at it).
    pub fn peek_payload_type(mut self, yes: bool) -> Self {
        self.peek_payload_type = yes;
        self
    }

    pub fn info(&self) -> &StreamInfo {
        &self.info
    }

    /// Read one physical line into `buf` (without the `\n`), bounded by `max_line`.
    fn read_line(&mut self) -> io::Result<Line> {
        self.buf.clear();
        if self.buf.capacity() > SHRINK_ABOVE {
            // One giant line must not pin its buffer for the rest of the file.
            self.buf.shrink_to(INITIAL_BUF);
        }
        let mut total: u64 = 0;
        let mut too_long = false;
        loop {
            let avail = match self.rdr.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if total == 0 {
                    return Ok(Line::Eof);
                }
                self.info.bytes += total;
                return Ok(if too_long {
                    Line::TooLong { len: total }
                } else {
                    Line::Ok { newline: false }
                });
            }
            let (chunk, found) = match memchr::memchr(b'\n', avail) {
                Some(i) => (&avail[..i], true),
                None => (avail, false),
            };
            let n = chunk.len();
            total += n as u64;
            if !too_long {
                if self.buf.len() + n > self.max_line {
                    too_long = true;
                    self.buf = Vec::with_capacity(INITIAL_BUF);
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let consume = if found { n + 1 } else { n };
            self.rdr.consume(consume);
            if found {
                self.info.bytes += total + 1;
                return Ok(if too_long {
                    Line::TooLong { len: total }
                } else {
                    Line::Ok { newline: true }
                });
            }
        }
    }

    /// The next entry, or `None` at the end of the stream. An `Err` is an I/O failure of the
    /// stream itself (it ends this input, not the run).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<io::Result<Entry<'_>>> {
        if self.done {
            return None;
        }
        let offset = self.info.bytes;
        let line = match self.read_line() {
            Ok(l) => l,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        let newline = match line {
            Line::Eof => {
                self.done = true;
                return None;
            }
            Line::TooLong { len } => {
                self.info.lines += 1;
                let pos = Pos {
                    line: self.info.lines,
                    offset,
                };
                return Some(Ok(Entry::Bad(BadLine {
                    pos,
                    error: DecodeError::TooLong {
                        len,
                        limit: self.max_line,
                    },
                    torn: false,
                    ordinal_hint: None,
                })));
            }
            Line::Ok { newline } => newline,
        };
        self.info.lines += 1;
        if !newline {
            self.info.no_final_newline = true;
        }
        let pos = Pos {
            line: self.info.lines,
            offset,
        };
        let mut start = 0;
        if pos.line == 1 && self.buf.starts_with(BOM) {
            self.info.bom = true;
            start = BOM.len();
        }
        let mut end = self.buf.len();
        if end > start && self.buf[end - 1] == b'\r' {
            self.info.crlf_lines += 1;
            end -= 1;
        }
        let bytes = &self.buf[start..end];
        if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            return Some(Ok(Entry::Blank(pos)));
        }
        let torn = !newline;
        Some(Ok(match decode_line(bytes, pos, self.peek_payload_type) {
            Ok(rec) => Entry::Record(rec),
            Err(error) => Entry::Bad(BadLine {
                pos,
                ordinal_hint: ordinal_hint(bytes),
                error,
                torn,
            }),
        }))
    }
}

/// Decode one line (without line ending) into a record.
pub fn decode_line(
    bytes: &[u8],
    pos: Pos,
    peek_payload_type: bool,
) -> Result<Record<'_>, DecodeError> {
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
    let env: RawEnvelope<'_> = match serde_json::from_str(text) {
        Ok(env) => env,
        Err(e) => return Err(json_error(e)),
    };
    let timestamp = match env.timestamp {
        None => return Err(DecodeError::TimestampMissing),
        Some(raw) => match serde_json::from_str::<Cow<'_, str>>(raw.get()) {
            Ok(s) => s,
            Err(_) if raw.get() == "null" => return Err(DecodeError::TimestampMissing),
            Err(_) => return Err(DecodeError::TimestampNotString),
        },
    };
    let ordinal = match env.ordinal {
        None => None,
        Some(raw) => serde_json::from_str::<Option<u64>>(raw.get())
            .map_err(|_| DecodeError::OrdinalInvalid)?,
    };
    let type_name = match env.type_ {
        None => return Err(DecodeError::TypeMissing),
        Some(raw) => serde_json::from_str::<Cow<'_, str>>(raw.get())
            .map_err(|_| DecodeError::TypeNotString)?,
    };
    let payload = match env.payload {
        None => return Err(DecodeError::PayloadMissing),
        Some(p) if p.get().starts_with('{') => p,
        Some(_) => return Err(DecodeError::PayloadNotObject),
    };
    let kind = Kind::from_type(&type_name);
    let payload_type = if peek_payload_type {
        serde_json::from_str::<PayloadHead<'_>>(payload.get())
            .ok()
            .and_then(|h| h.type_)
            .map(fold_alias)
    } else {
        None
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

/// A raw scan for `"ordinal":N` in a line that failed to decode (a torn or foreign line can
/// still carry the ordinal Codex's reverse scanner would skip).
pub fn ordinal_hint(bytes: &[u8]) -> Option<u64> {
    let key = b"\"ordinal\"";
    let i = memchr::memmem::find(bytes, key)?;
    let rest = &bytes[i + key.len()..];
    let rest = trim_ascii_start(rest);
    let rest = rest.strip_prefix(b":")?;
    let rest = trim_ascii_start(rest);
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()
}

fn trim_ascii_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(input: &[u8]) -> Vec<String> {
        let mut d = Decoder::new(input);
        let mut out = Vec::new();
        while let Some(e) = d.next() {
            out.push(match e.unwrap() {
                Entry::Record(r) => format!(
                    "{}@{} rec {} {:?} {:?}",
                    r.pos.line,
                    r.pos.offset,
                    r.type_name,
                    r.payload_type(),
                    r.ordinal
                ),
                Entry::Blank(p) => format!("{}@{} blank", p.line, p.offset),
                Entry::Bad(b) => format!(
                    "{}@{} bad {}{}",
                    b.pos.line,
                    b.pos.offset,
                    b.error.kind(),
                    if b.torn { " torn" } else { "" }
                ),
            });
        }
        out
    }

    const GOOD: &str = r#"{"timestamp":"t","type":"event_msg","payload":{"type":"turn_started"}}"#;

    #[test]
    fn decodes_envelope_and_folds_aliases() {
        let input = format!("{GOOD}\n");
        assert_eq!(
            entries(input.as_bytes()),
            ["1@0 rec event_msg Some(\"task_started\") None"]
        );
    }

    #[test]
    fn offsets_count_decoded_bytes_including_crlf_and_bom() {
        let input = format!("\u{feff}{GOOD}\r\n\n{GOOD}\n");
        let first = GOOD.len() + 3 + 2;
        assert_eq!(
            entries(input.as_bytes()),
            [
                "1@0 rec event_msg Some(\"task_started\") None".to_string(),
                format!("2@{first} blank"),
                format!("3@{} rec event_msg Some(\"task_started\") None", first + 1),
            ]
        );
    }

    #[test]
    fn bom_is_stripped_and_reported_in_info() {
        let input = format!("\u{feff}{GOOD}\n");
        let mut d = Decoder::new(input.as_bytes());
        while d.next().is_some() {}
        assert!(d.info().bom);
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
    fn torn_last_line_is_flagged_and_keeps_its_ordinal_hint() {
        let input = format!("{GOOD}\n{{\"timestamp\":\"t\",\"ordinal\":7,\"type\":\"ev");
        let mut d = Decoder::new(input.as_bytes());
        let _ = d.next();
        match d.next().unwrap().unwrap() {
            Entry::Bad(b) => {
                assert!(b.torn);
                assert_eq!(b.ordinal_hint, Some(7));
            }
            other => panic!("{other:?}"),
        }
        assert!(d.next().is_none());
        assert!(d.info().no_final_newline);
    }

    #[test]
    fn last_line_without_newline_that_parses_is_a_record() {
        let input = GOOD.to_string();
        assert_eq!(
            entries(input.as_bytes()),
            ["1@0 rec event_msg Some(\"task_started\") None"]
        );
    }

    #[test]
    fn overlong_line_is_skipped_without_buffering_and_reading_goes_on() {
        let long = format!(
            "{{\"timestamp\":\"{}\",\"type\":\"a\",\"payload\":{{}}}}",
            "x".repeat(1000)
        );
        let input = format!("{long}\n{GOOD}\n");
        let mut d = Decoder::new(std::io::BufReader::with_capacity(64, input.as_bytes()))
            .max_line_bytes(100);
        match d.next().unwrap().unwrap() {
            Entry::Bad(b) => assert_eq!(
                b.error,
                DecodeError::TooLong {
                    len: long.len() as u64,
                    limit: 100
                }
            ),
            other => panic!("{other:?}"),
        }
        assert!(d.buf.capacity() < 1000 || d.buf.capacity() == 64 * 1024);
        match d.next().unwrap().unwrap() {
            Entry::Record(r) => assert_eq!(r.pos.offset, long.len() as u64 + 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unknown_types_and_fields_pass_through() {
        let input =
            "{\"timestamp\":\"t\",\"type\":\"brand_new\",\"extra\":1,\"payload\":{\"x\":2}}\n";
        assert_eq!(entries(input.as_bytes()), ["1@0 rec brand_new None None"]);
    }
}
