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

mod scan;
pub mod select;

/// The UTF-8 byte order mark. Codex's reader fails on it (openai/codex#28139).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The buffer's starting size (a stream shorter than this never grows it).
const INITIAL_BUF: usize = 64 * 1024;
/// How much is read at once past the first `INITIAL_BUF` bytes of a stream.
const READ_CHUNK: usize = 256 * 1024;
/// A buffer grown past this is given back when a line longer than the limit is skipped.
const SHRINK_ABOVE: usize = 16 * 1024 * 1024;
/// An unfinished line starting this far into the buffer moves to its front.
const COMPACT_FROM: usize = 1024 * 1024;
/// A buffer up to this size is handed from one decoder to the next on the same thread.
const KEEP_SPARE: usize = 8 * 1024 * 1024;

thread_local! {
    /// The buffer of the thread's last decoder. A worker reading thousands of files reuses
    /// it instead of faulting in fresh (zeroed) pages for each file.
    static SPARE_BUF: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

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
    /// Every top-level payload member, as the scanner found them (spans of `raw`); `None`
    /// where the serde path decoded the line or a key held an escape.
    fields: Option<&'a [scan::Field]>,
    /// Where `raw` starts in the decoded stream (`pos.offset`, past a BOM on line 1).
    raw_offset: u64,
    /// The payload re-serialized without repeated keys, made only when a view needs it.
    deduplicated: std::cell::OnceCell<Box<str>>,
}

impl<'a> Record<'a> {
    /// The payload's `type` field (for `event_msg`, `response_item`, ...), with the known
    /// aliases folded: `turn_started` reads as `task_started`, `turn_complete` as
    /// `task_complete`.
    pub fn payload_type(&self) -> Option<&str> {
        self.payload_type.as_deref()
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
        let Some(fields) = self.fields else {
            return select::fields(self.payload.get(), keys).unwrap_or([None; N]);
        };
        // The scanner noted every member: no need to walk the payload again.
        let raw = self.raw;
        let mut out = [None; N];
        for f in fields {
            let key = &raw[f.key.0..f.key.1];
            if let Some(k) = keys.iter().position(|k| *k == key) {
                out[k] = Some(&raw[f.value.0..f.value.1]);
            }
        }
        out
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
            match self.0.iter().position(|k| *k == key) {
                Some(i) => {
                    let v: &'de RawValue = m.next_value()?;
                    values[i] = (v.get() != "null").then_some(v);
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
    json_str(t?.get())
}

/// The streaming decoder. It reads into one buffer of its own and decodes every line where
/// it lies (a line is never copied, only moved to the front once when it straddles a read);
/// the buffer holds at most one partial line beyond what was read, and never more than
/// `max_line_bytes` of a line.
pub struct Decoder<R> {
    rdr: R,
    /// `buf[start..end]` is read and not yet handed out; all of `buf` is initialised.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The search for the current line's `\n` goes on from here.
    scanned: usize,
    /// Just past the last `\n` read into the buffer (at most `start` when the current line
    /// is not all read): a line starting before it is checked where it lies, a line that
    /// is not all there never is (that would scan its start twice).
    lines_end: usize,
    /// The reader has nothing more.
    eof: bool,
    max_line: usize,
    info: StreamInfo,
    done: bool,
    /// Whether record payloads get their `type` peeked.
    peek_payload_type: bool,
    /// The current record's payload members (see [`Record::payload_fields`]).
    fields: Vec<scan::Field>,
}

impl<R: BufRead> Decoder<R> {
    pub fn new(rdr: R) -> Self {
        Decoder {
            rdr,
            buf: spare_buf(),
            start: 0,
            end: 0,
            scanned: 0,
            lines_end: 0,
            eof: false,
            max_line: DEFAULT_MAX_LINE_BYTES,
            info: StreamInfo::default(),
            done: false,
            peek_payload_type: true,
            fields: Vec::new(),
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

    /// Read more after `end`: first move the unfinished line to the front, or grow the
    /// buffer when the line fills it. Sets `eof` at the end of the stream.
    fn fill(&mut self) -> io::Result<()> {
        // Small streams never grow the buffer; longer ones read in large chunks.
        let chunk = if self.info.bytes + (self.end as u64) < INITIAL_BUF as u64 {
            INITIAL_BUF
        } else {
            READ_CHUNK
        };
        // The unfinished line moves to the front when there is too little room behind it,
        // or when it starts far into a buffer that a giant line grew: reads then stay at
        // the front, in cache. A grown buffer is kept to the end of the file (and so within
        // the peak a giant line set): a rollout holding one giant line often holds more
        // (each compaction repeats the history), and faulting in fresh pages for each one
        // cost more than reading it (ten 20 MiB lines: 51,000 page faults).
        if self.start > 0 && (self.buf.len() - self.end < chunk || self.start >= COMPACT_FROM) {
            let partial = self.end - self.start;
            self.buf.copy_within(self.start..self.end, 0);
            self.end = partial;
            self.scanned -= self.start;
            self.lines_end = self.lines_end.saturating_sub(self.start);
            self.start = 0;
        }
        if self.buf.len() - self.end < chunk {
            // Only what is about to be read is initialised (and so resident).
            self.buf.resize(self.end + chunk, 0);
        }
        // Large reads only while a long line is being gathered.
        let room = if self.end - self.start >= chunk {
            (self.buf.len() - self.end).min(chunk.max(self.buf.len() / 4))
        } else {
            (self.buf.len() - self.end).min(chunk)
        };
        loop {
            match self.rdr.read(&mut self.buf[self.end..self.end + room]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    let read = &self.buf[self.end..self.end + n];
                    if let Some(k) = memchr::memrchr(b'\n', read) {
                        self.lines_end = self.end + k + 1;
                    }
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Skip the rest of a line already longer than `max_line` (its start is in the buffer),
    /// holding no more of it than one read. Returns its length and whether a `\n` ended it.
    fn skip_long_line(&mut self) -> io::Result<(u64, bool)> {
        let mut len = (self.end - self.start) as u64;
        self.start = 0;
        self.end = 0;
        self.scanned = 0;
        self.lines_end = 0;
        if self.buf.len() > SHRINK_ABOVE {
            self.buf = Vec::new();
        }
        if self.buf.len() < INITIAL_BUF {
            self.buf.resize(INITIAL_BUF, 0);
        }
        loop {
            let n = loop {
                match self.rdr.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            if n == 0 {
                self.eof = true;
                return Ok((len, false));
            }
            if let Some(k) = memchr::memchr(b'\n', &self.buf[..n]) {
                self.start = k + 1;
                self.scanned = k + 1;
                self.end = n;
                self.lines_end = memchr::memrchr(b'\n', &self.buf[..n]).map_or(0, |j| j + 1);
                return Ok((len + k as u64, true));
            }
            len += n as u64;
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
        let mut parts = None;
        let (from, to, newline) = loop {
            // A line not yet looked at is checked where it lies, which finds its end on the
            // way; only when that fails (a bad or unusual line, or one not all read yet) is
            // its end searched for, and the line checked again once found.
            let fresh = self.scanned == self.start && self.lines_end > self.start;
            if let Some((p, k)) = fresh
                .then(|| scan::scan_in_buffer(&self.buf[self.start..self.end], &mut self.fields))
                .flatten()
            {
                let (from, nl) = (self.start, self.start + k);
                self.start = nl + 1;
                self.scanned = nl + 1;
                self.info.bytes += k as u64 + 1;
                if k > self.max_line {
                    return Some(Ok(self.too_long(k as u64, offset)));
                }
                parts = Some(p);
                break (from, nl, true);
            }
            if let Some(k) = memchr::memchr(b'\n', &self.buf[self.scanned..self.end]) {
                let nl = self.scanned + k;
                let from = self.start;
                self.start = nl + 1;
                self.scanned = nl + 1;
                self.info.bytes += (nl - from) as u64 + 1;
                if nl - from > self.max_line {
                    return Some(Ok(self.too_long((nl - from) as u64, offset)));
                }
                break (from, nl, true);
            }
            self.scanned = self.end;
            if self.eof {
                if self.start == self.end {
                    self.done = true;
                    return None;
                }
                let (from, to) = (self.start, self.end);
                self.start = to;
                self.info.bytes += (to - from) as u64;
                if to - from > self.max_line {
                    return Some(Ok(self.too_long((to - from) as u64, offset)));
                }
                break (from, to, false);
            }
            if self.end - self.start > self.max_line {
                let (len, newline) = match self.skip_long_line() {
                    Ok(r) => r,
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                };
                self.info.bytes += len + newline as u64;
                return Some(Ok(self.too_long(len, offset)));
            }
            if let Err(e) = self.fill() {
                self.done = true;
                return Some(Err(e));
            }
        };
        Some(Ok(line_entry(
            &self.buf[from..to],
            newline,
            offset,
            &mut self.info,
            self.peek_payload_type,
            &mut self.fields,
            parts,
        )))
    }

    /// A line longer than `max_line` (already skipped and counted in `info.bytes`).
    fn too_long(&mut self, len: u64, offset: u64) -> Entry<'static> {
        self.info.lines += 1;
        Entry::Bad(BadLine {
            pos: Pos {
                line: self.info.lines,
                offset,
            },
            error: DecodeError::TooLong {
                len,
                limit: self.max_line,
            },
            torn: false,
            ordinal_hint: None,
        })
    }
}

impl<R> Drop for Decoder<R> {
    fn drop(&mut self) {
        // Kept initialised (its length): the next decoder does not zero it again.
        let buf = std::mem::take(&mut self.buf);
        if buf.capacity() <= KEEP_SPARE {
            SPARE_BUF.with(|c| {
                let old = c.take();
                c.set(if old.capacity() > buf.capacity() {
                    old
                } else {
                    buf
                });
            });
        }
    }
}

/// The thread's spare buffer, or a new one.
fn spare_buf() -> Vec<u8> {
    let mut buf = SPARE_BUF.with(|c| c.take());
    if buf.len() < INITIAL_BUF {
        buf.resize(INITIAL_BUF, 0);
    }
    buf
}

/// Classify one physical line (without its `\n`) and decode it.
fn line_entry<'a>(
    line: &'a [u8],
    newline: bool,
    offset: u64,
    info: &mut StreamInfo,
    peek_payload_type: bool,
    fields: &'a mut Vec<scan::Field>,
    scanned: Option<scan::Parts>,
) -> Entry<'a> {
    info.lines += 1;
    if !newline {
        info.no_final_newline = true;
    }
    let pos = Pos {
        line: info.lines,
        offset,
    };
    let mut start = 0;
    if pos.line == 1 && line.starts_with(BOM) {
        info.bom = true;
        start = BOM.len();
    }
    let mut end = line.len();
    if end > start && line[end - 1] == b'\r' {
        info.crlf_lines += 1;
        end -= 1;
    }
    let bytes = &line[start..end];
    if bytes.iter().all(|b| b.is_ascii_whitespace()) || is_unicode_blank(bytes) {
        return Entry::Blank(pos);
    }
    let torn = !newline;
    match decode_indexed(bytes, pos, peek_payload_type, Some(fields), scanned) {
        Ok(mut rec) => {
            rec.raw_offset += start as u64;
            Entry::Record(rec)
        }
        Err(error) => Entry::Bad(BadLine {
            pos,
            ordinal_hint: ordinal_hint(bytes),
            error,
            torn,
        }),
    }
}

/// Decode one line (without line ending) into a record.
///
/// A one-pass scanner (`decode/scan.rs`) checks the line and finds the envelope's fields
/// and the payload's `type`; whatever it is not sure of (every bad line, and a few unusual
/// good ones) goes through serde_json, which decides and locates the error.
pub fn decode_line(
    bytes: &[u8],
    pos: Pos,
    peek_payload_type: bool,
) -> Result<Record<'_>, DecodeError> {
    decode_indexed(bytes, pos, peek_payload_type, None, None)
}

/// [`decode_line`], keeping the payload's top-level members in `index` (a list reused from
/// line to line) so that [`Record::payload_fields`] needs no second look at the payload.
/// `scanned`: the line was already scanned where it lay (`scan::scan_in_buffer`), and
/// `index` holds its members.
fn decode_indexed<'a>(
    bytes: &'a [u8],
    pos: Pos,
    peek_payload_type: bool,
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
            peek_payload_type,
            fields,
        );
    }
    decode_line_serde(bytes, pos, peek_payload_type)
}

/// The length of the JSON string at the start of `bytes` (quotes included), checked as the
/// decoder checks every string of a line; `None` when `bytes` does not start with a valid
/// one.
pub fn json_string_len(bytes: &[u8]) -> Option<usize> {
    scan::string_len(bytes)
}

/// Whether `text` is one JSON value (JSON white space around it allowed), checked as the
/// decoder checks a line's values, so as Codex's reader checks them (a number beyond `f64`
/// is valid); `None` where the decoder would ask serde (nesting deeper than it scans).
pub fn is_json(text: &str) -> Option<bool> {
    let b = text.trim_start_matches([' ', '\t', '\n', '\r']).as_bytes();
    // JSON's white space only (not a form feed, which `is_ascii_whitespace` allows).
    scan::value_len(b).map(|n| {
        b[n..]
            .iter()
            .all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    })
}

/// Blank as Codex sees it (`line.trim().is_empty()`): only Unicode white space, such as a
/// vertical tab or a no-break space. Checked only for lines that cannot be JSON objects.
fn is_unicode_blank(bytes: &[u8]) -> bool {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    first.is_some_and(|&b| b != b'{')
        && std::str::from_utf8(bytes).is_ok_and(|t| t.trim().is_empty())
}

/// The serde path of [`decode_line`]: decides every line the scanner is not sure of, and
/// locates its error.
fn decode_line_serde(
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
    // What Codex's reader rejects (it parses each line into a `serde_json::Value`) that
    // skipping over values would let through: nesting of 128 levels or more, and lone
    // surrogate escapes. A number beyond f64 is not among them: Codex builds serde_json
    // with `arbitrary_precision`, which keeps such numbers as text.
    codex_value_check(text)?;
    let env = match RawEnvelope::parse(text) {
        Ok(env) => env,
        Err(e) => return Err(json_error(e)),
    };
    envelope_record(
        text,
        pos,
        env,
        PeekedType::Slow,
        Plain::default(),
        peek_payload_type,
        None,
    )
}

/// Parse the line as Codex does, into a `serde_json::Value`, and fail where it fails. Codex
/// builds serde_json with `arbitrary_precision`, so a number beyond f64 is no error there;
/// ours stops at such a number, so each one is replaced by `0` in a copy and the check goes
/// on (at most a few dozen times: beyond that the line is given the benefit of the doubt).
fn codex_value_check(text: &str) -> Result<(), DecodeError> {
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
        // The error's column is the last byte of the number: walk back to its start.
        let end = e.column().min(cur.len());
        let b = cur.as_bytes();
        let start = b[..end]
            .iter()
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

/// Borrow valid JSON text as a [`RawValue`] without parsing it again.
fn raw_value(json: &str) -> &RawValue {
    // SAFETY: `RawValue` is `#[repr(transparent)]` over `str`, and serde_json makes its own
    // borrowed raw values with this very cast. `json` is valid JSON: the scanner checked it.
    unsafe { &*(json as *const str as *const RawValue) }
}

/// A JSON string value (raw JSON text) as a string: borrowed when it has no escapes.
fn json_str(raw: &str) -> Option<Cow<'_, str>> {
    let b = raw.as_bytes();
    if b.len() >= 2 && b[0] == b'"' && !b[1..b.len() - 1].contains(&b'\\') {
        return Some(Cow::Borrowed(&raw[1..raw.len() - 1]));
    }
    serde_json::from_str::<Cow<'_, str>>(raw).ok()
}

/// The checks after the envelope is found, shared by both paths.
fn envelope_record<'a>(
    text: &'a str,
    pos: Pos,
    env: RawEnvelope<'a>,
    peeked: PeekedType<'a>,
    plain: Plain<'a>,
    peek_payload_type: bool,
    fields: Option<&'a [scan::Field]>,
) -> Result<Record<'a>, DecodeError> {
    let timestamp = match (plain.timestamp, env.timestamp) {
        (Some(s), _) => Cow::Borrowed(s),
        (None, None) => return Err(DecodeError::TimestampMissing),
        (None, Some(raw)) => match json_str(raw.get()) {
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
        (None, Some(raw)) => json_str(raw.get()).ok_or(DecodeError::TypeNotString)?,
    };
    let payload = match env.payload {
        None => return Err(DecodeError::PayloadMissing),
        Some(p) if p.get().starts_with('{') => p,
        Some(_) => return Err(DecodeError::PayloadNotObject),
    };
    let kind = Kind::from_type(&type_name);
    let payload_type = if !peek_payload_type {
        None
    } else {
        match peeked {
            PeekedType::Plain(t) => Some(fold_alias(Cow::Borrowed(t))),
            PeekedType::Absent => None,
            PeekedType::Slow => payload_head(payload).map(fold_alias),
        }
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
        deduplicated: std::cell::OnceCell::new(),
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
    fn stream_offsets_of_values_point_into_the_stream() {
        // A BOM and a CRLF line before: the payload's offset is where its bytes are.
        let input = format!("\u{feff}{GOOD}\r\n{GOOD}\n");
        let bytes = input.as_bytes();
        let mut d = Decoder::new(bytes);
        let mut seen = 0;
        while let Some(Ok(e)) = d.next() {
            let Entry::Record(r) = e else { continue };
            let p = r.payload.get();
            let at = r.stream_offset_of(p).unwrap() as usize;
            assert_eq!(&bytes[at..at + p.len()], p.as_bytes());
            assert_eq!(r.stream_offset_of("elsewhere"), None);
            seen += 1;
        }
        assert_eq!(seen, 2);
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
    fn unicode_white_space_lines_are_blank() {
        assert_eq!(
            entries("\u{b}\n\u{a0} \n".as_bytes()),
            ["1@0 blank", "2@2 blank"]
        );
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

    /// A reader that hands out its data in pieces of varying size, with an `Interrupted`
    /// error now and then.
    struct Choppy<'a> {
        data: &'a [u8],
        step: usize,
        calls: usize,
    }

    impl std::io::Read for Choppy<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.calls += 1;
            if self.calls % 7 == 0 {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let n = (1 + (self.calls * self.step) % 70_001)
                .min(out.len())
                .min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn lines_straddling_reads_and_giant_lines_keep_their_offsets() {
        let long = |n: usize| {
            format!(
                "{{\"timestamp\":\"t\",\"type\":\"a\",\"payload\":{{\"x\":\"{}\"}}}}",
                "y".repeat(n)
            )
        };
        let lines = [
            GOOD.to_string(),
            long(70_000),
            String::new(),
            long(1_000_000),
            format!("{GOOD}\r"),
            long(300_000),
            GOOD.to_string(),
        ];
        let mut input = lines.join("\n");
        input.push('\n');
        input.push_str(&long(100_000)); // a last line without newline
        for step in [1, 977, 65_536, 262_144] {
            let rdr = std::io::BufReader::new(Choppy {
                data: input.as_bytes(),
                step,
                calls: 0,
            });
            let mut d = Decoder::new(rdr);
            let mut offset = 0u64;
            let mut all = lines.to_vec();
            all.push(long(100_000));
            for (i, l) in all.iter().enumerate() {
                let e = d.next().unwrap().unwrap();
                assert_eq!(e.pos().offset, offset, "line {i}, step {step}");
                assert_eq!(e.pos().line, i as u64 + 1);
                match e {
                    Entry::Record(r) => assert_eq!(r.raw, l.trim_end_matches('\r')),
                    Entry::Blank(_) => assert!(l.is_empty()),
                    Entry::Bad(b) => panic!("{b:?}"),
                }
                offset += l.len() as u64 + 1;
            }
            assert!(d.next().is_none());
            assert_eq!(d.info().bytes, input.len() as u64);
            assert_eq!(d.info().crlf_lines, 1);
            assert!(d.info().no_final_newline);
        }
    }

    #[test]
    fn repeated_giant_lines_reuse_one_buffer_no_larger_than_the_longest_needs() {
        // As a rollout that compacted several times: each `compacted` line repeats a large
        // history. The buffer grown for the first is kept for the next ones (no fresh pages
        // for each), and never grows past the longest line and a read or two.
        let long = |n: usize| {
            format!(
                "{{\"timestamp\":\"t\",\"type\":\"compacted\",\"payload\":{{\"x\":\"{}\"}}}}",
                "y".repeat(n)
            )
        };
        // Past 16 MiB, where a buffer used to be given back after its line.
        let sizes = [17_000_000, 12_000_000, 17_000_000, 1_000_000];
        let mut input = String::new();
        for n in sizes {
            for _ in 0..50 {
                input.push_str(GOOD);
                input.push('\n');
            }
            input.push_str(&long(n));
            input.push('\n');
        }
        let longest = long(17_000_000).len();
        let mut d = Decoder::new(std::io::Cursor::new(input.as_bytes()));
        let (mut records, mut giants, mut grown_to) = (0, 0, 0);
        while let Some(e) = d.next() {
            match e.unwrap() {
                Entry::Record(r) => {
                    records += 1;
                    giants += (r.type_name == "compacted") as usize;
                }
                other => panic!("{:?}", other.pos()),
            }
            assert!(d.buf.len() <= longest + 2 * READ_CHUNK, "{}", d.buf.len());
            if giants == 1 && grown_to == 0 {
                grown_to = d.buf.len();
            }
            if giants > 1 {
                assert!(d.buf.len() >= grown_to, "the grown buffer was given back");
            }
        }
        assert_eq!((records, giants), (4 * 51, 4));
        assert_eq!(d.info().bytes, input.len() as u64);
    }

    #[test]
    fn an_overlong_line_across_many_reads_is_skipped_and_the_next_one_read() {
        let big = "z".repeat(3_000_000);
        let input = format!("{GOOD}\n{big}\n{GOOD}\n{big}");
        let rdr = std::io::BufReader::new(Choppy {
            data: input.as_bytes(),
            step: 4099,
            calls: 0,
        });
        let mut d = Decoder::new(rdr).max_line_bytes(100_000);
        let mut got = Vec::new();
        while let Some(e) = d.next() {
            got.push(match e.unwrap() {
                Entry::Record(r) => format!("{}@{} rec", r.pos.line, r.pos.offset),
                Entry::Bad(b) => format!("{}@{} {}", b.pos.line, b.pos.offset, b.error),
                Entry::Blank(p) => format!("{}@{} blank", p.line, p.offset),
            });
            assert!(d.buf.len() <= 2 * READ_CHUNK + 100_000, "{}", d.buf.len());
        }
        let g = GOOD.len() + 1;
        let skipped = "line is 3000000 bytes, longer than --max-line-bytes 100000; skipped";
        assert_eq!(
            got,
            [
                "1@0 rec".to_string(),
                format!("2@{g} {skipped}"),
                format!("3@{} rec", g + big.len() + 1),
                format!("4@{} {skipped}", 2 * g + big.len() + 1),
            ]
        );
        assert_eq!(d.info().bytes, input.len() as u64);
    }

    /// Every field of a decoded line, for comparing the two paths.
    fn outcome(r: Result<Record<'_>, DecodeError>) -> String {
        match r {
            Ok(r) => format!(
                "{} {} {:?} {} {:?} {} {:?} {:?}",
                r.raw,
                r.timestamp,
                r.ordinal,
                r.type_name,
                r.kind,
                r.payload.get(),
                r.metadata.map(|m| m.get()),
                r.payload_type()
            ),
            Err(e) => format!("{e:?}"),
        }
    }

    /// The lines of every file in `testdata/`, real and broken.
    fn testdata_lines() -> Vec<Vec<u8>> {
        crate::testdata::lines("")
    }

    #[test]
    fn the_scanner_and_serde_agree_on_every_testdata_line_and_mutations_of_it() {
        let lines = testdata_lines();
        assert!(lines.len() > 900);
        let check = |l: &[u8]| {
            for peek in [true, false] {
                let fast = outcome(decode_line(l, Pos::default(), peek));
                let slow = outcome(decode_line_serde(l, Pos::default(), peek));
                assert_eq!(fast, slow, "{:?}", String::from_utf8_lossy(l));
            }
        };
        let mut rnd = crate::testdata::xorshift(0x243f_6a88_85a3_08d3u64);
        const NASTY: &[&[u8]] = &[
            b"\"",
            b"\\",
            b"\\u",
            b"\\ud800",
            b"\\uDC00",
            b"\\ud83d\\ude00",
            b"\\uDBFF\\uDFFF",
            b"\\ud800\\u0041",
            b"\\u00e9",
            b"\\n",
            b"}",
            b"]",
            b",",
            b":",
            b"{",
            b"[",
            b"\x01",
            b"\xff",
            b"\xc3",
            b"\xe2\x82",
            b" ",
            b"null",
            b"-",
            b"0",
            b"1e",
            b"\"type\":",
        ];
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
                        let ins = NASTY[rnd(NASTY.len())];
                        m.splice(at..at, ins.iter().copied());
                    }
                }
                check(&m);
            }
        }
    }

    #[test]
    fn a_line_checked_in_the_buffer_is_found_and_read_as_on_its_own() {
        // Every testdata line that scans on its own, followed by its `\n` (after white
        // space or not) and more text: found in the buffer, with the same parts. Without its
        // `\n`, or with a `\n` as white space inside it, it is left to the line search.
        let mut found = 0;
        for l in testdata_lines() {
            let mut fields = Vec::new();
            let Some(alone) = scan::scan(&l, &mut fields) else {
                let mut buf = l.clone();
                buf.extend_from_slice(b"\n{}\n");
                assert!(
                    scan::scan_in_buffer(&buf, &mut Vec::new()).is_none(),
                    "{:?}",
                    String::from_utf8_lossy(&l)
                );
                continue;
            };
            let alone_fields = fields.clone();
            for tail in [&b"\n{\"next\":1}\n"[..], b" \t\r\n\xff", b"\n"] {
                let mut buf = l.clone();
                buf.extend_from_slice(tail);
                let mut fields = Vec::new();
                let got = scan::scan_in_buffer(&buf, &mut fields);
                assert_eq!(
                    got,
                    Some((
                        alone,
                        l.len() + tail.iter().position(|&c| c == b'\n').unwrap()
                    ))
                );
                assert_eq!(fields, alone_fields);
            }
            assert!(scan::scan_in_buffer(&l, &mut Vec::new()).is_none());
            // A `\n` as white space after the envelope's opening brace: two lines.
            let mut split = l.clone();
            split.insert(1, b'\n');
            split.push(b'\n');
            assert!(scan::scan_in_buffer(&split, &mut Vec::new()).is_none());
            found += 1;
        }
        assert!(found > 900, "{found}");
    }

    #[test]
    fn lines_checked_where_they_lie_decode_as_lines_searched_for_first() {
        // The decoder checks a fresh line where it lies in its buffer, which finds the
        // line's end on the way. Read one byte at a time, no line is all there when first
        // looked at, so every line goes the other way (its end searched for, then checked):
        // both must give the same entries and stream facts, on every testdata file and on
        // mutations of it.
        let describe = |input: &[u8], one_byte_reads: bool| -> Vec<String> {
            let mut out = Vec::new();
            let mut push = |d: &mut Decoder<Box<dyn BufRead + '_>>| {
                while let Some(e) = d.next() {
                    out.push(match e.unwrap() {
                        Entry::Record(r) => {
                            let place = format!(
                                "{:?} {:?} {:?}",
                                r.pos,
                                r.raw_offset,
                                r.payload_fields(["type", "role", "content"])
                            );
                            format!("{place} {}", outcome(Ok(r)))
                        }
                        other => format!("{other:?}"),
                    });
                }
                out.push(format!("{:?}", d.info()));
            };
            let rdr: Box<dyn BufRead + '_> = if one_byte_reads {
                Box::new(std::io::BufReader::with_capacity(
                    1,
                    Choppy {
                        data: input,
                        step: 70_001,
                        calls: 0,
                    },
                ))
            } else {
                Box::new(input)
            };
            push(&mut Decoder::new(rdr));
            out
        };
        let mut rnd = crate::testdata::xorshift(0x1319_8a2e_0370_7344u64);
        const INSERTS: &[&[u8]] = &[
            b"\n",
            b"\r",
            b" \t\r\n",
            b"\r\n",
            b"\n\n",
            b" ",
            b"\x0b",
            b"\x01",
            b"\xff",
            b"{",
            b"}",
            b"\"",
            b"\\",
            b"\\n",
            b",",
            b"\xef\xbb\xbf",
        ];
        let mut files = 0;
        for path in crate::testdata::jsonl_files("") {
            let text = std::fs::read(&path).unwrap();
            let crlf: Vec<u8> = text
                .iter()
                .flat_map(|&c| {
                    if c == b'\n' {
                        vec![b'\r', b'\n']
                    } else {
                        vec![c]
                    }
                })
                .collect();
            let mut variants = vec![text.clone(), crlf, [b"\xef\xbb\xbf", &text[..]].concat()];
            // A `\n` as white space inside a line (after a brace or a comma that opens
            // a member): two lines, however the first was found.
            for after in [&b"{"[..], b",\""] {
                let starts: Vec<usize> = text
                    .windows(after.len())
                    .enumerate()
                    .filter(|(_, w)| *w == after)
                    .map(|(i, _)| i + 1)
                    .collect();
                if !starts.is_empty() {
                    let at = starts[rnd(starts.len())];
                    let mut m = text.clone();
                    m.splice(at..at, b" \n".iter().copied());
                    variants.push(m);
                }
            }
            for _ in 0..12 {
                let mut m = text.clone();
                for _ in 0..1 + rnd(3) {
                    let at = rnd(m.len() + 1);
                    match rnd(3) {
                        0 => m.truncate(at),
                        1 if at < m.len() => m[at] ^= 1 << rnd(8),
                        _ => {
                            let ins = INSERTS[rnd(INSERTS.len())];
                            m.splice(at..at, ins.iter().copied());
                        }
                    }
                }
                variants.push(m);
            }
            for v in &variants {
                assert_eq!(
                    describe(v, false),
                    describe(v, true),
                    "{} (a variant)",
                    path.display()
                );
            }
            files += 1;
        }
        assert!(files > 20, "{files}");
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
            let walked = decode_line(line, Pos::default(), true).unwrap();
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
