//! The one tolerant rollout line decoder.
//!
//! [`Decoder`] turns a byte stream into [`Entry`]s: decoded records, blank lines and bad
//! lines, each located by its 1-based line number and the byte offset of the line start in
//! the decoded stream. A bad line never ends the stream: it becomes an [`Entry::Bad`] with a
//! typed [`DecodeError`] and reading goes on. Only the envelope
//! `{timestamp, ordinal?, type, payload, metadata?}` is decoded here; the payload stays raw
//! JSON ([`RawValue`](serde_json::value::RawValue)) until a reducer asks for the part it
//! needs.
//!
//! The rules mirror Codex's own `decode_rollout_line` (its `rollout/src/lib.rs`):
//! the line must be a JSON object, `timestamp` must be a string, `ordinal` is an optional
//! unsigned integer (`null` allowed), `type` is required and `payload` must be an object.
//! Unknown record types and unknown fields pass through untouched.
//!
//! The parts: `reader.rs` is the streaming [`Decoder`] (its buffer, and the cutting of the
//! stream into lines); `envelope.rs` decodes one line into a [`Record`]; `scan.rs` is the
//! one-pass scanner that checks a line and finds its envelope, with serde_json deciding
//! whatever it is not sure of; `error.rs` says why a line was rejected; `select.rs` reads a
//! few fields of a payload without parsing the rest; `unescape.rs` resolves the escapes of a
//! checked string.
//!
//! This module knows nothing of clap or of output.

// The two modules with `unsafe` code (see the crate's doc).
#[allow(unsafe_code)]
mod envelope;
mod error;
mod reader;
#[allow(unsafe_code)]
pub(crate) mod scan;
pub mod select;
mod unescape;

pub(crate) use envelope::{codex_value_check, decode_line_serde, raw_value};
pub use envelope::{
    decode_line, fold_alias, is_json, json_string, json_string_len, json_value, Kind, Members,
    Record,
};
pub use error::{ordinal_hint, BadLine, DecodeError};
pub use reader::Decoder;
pub use unescape::unescape;

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

/// A whole line of the stream: where it starts, how many bytes it holds before its line
/// ending (a BOM included), how long that ending is, and how many Unicode scalar values it
/// holds (a BOM is one; for a line that is not UTF-8, its bytes that do not continue a
/// character), when they were counted.
///
/// The decoder hands out a record's [`Pos`] only; [`Record::line`] makes its `Line`, counting
/// its characters, and [`Record::line_uncounted`] without: a fact kept for every record of a
/// file (each turn's start, each history item) leaves the count to whoever makes a span of
/// it, so that the pass pays for it only where a finding needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Line {
    pub pos: Pos,
    pub len: u64,
    /// Bytes of the line ending: 1 (`\n`), 2 (`\r\n`), 0 (the last line, unterminated).
    pub eol: u8,
    pub chars: Option<u64>,
}

impl Line {
    /// The byte offset just past the line and its ending: where the next line starts.
    pub fn next(&self) -> u64 {
        self.pos.offset + self.len + u64::from(self.eol)
    }

    /// The line's bytes before its ending, as offsets in the stream.
    pub fn range(&self) -> std::ops::Range<u64> {
        self.pos.offset..self.pos.offset + self.len
    }
}

/// How many Unicode scalar values `bytes` hold (for bytes that are not UTF-8: those that do
/// not continue a character). Written so that it vectorises.
pub fn chars_in(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64
}

/// What the decoder yields per line.
#[derive(Debug)]
pub enum Entry<'a> {
    Record(Record<'a>),
    Blank(Line),
    Bad(BadLine),
}

impl Entry<'_> {
    pub fn pos(&self) -> Pos {
        match self {
            Entry::Record(r) => r.pos,
            Entry::Blank(l) => l.pos,
            Entry::Bad(b) => b.pos,
        }
    }
}

/// Everything a decoded line says (or why it was refused), as one comparable text: for the
/// checks that hold two ways of decoding to each other (the scanner and serde, a line
/// where it lies and alone), in the tests and in `crate::fuzz`.
pub(crate) fn outcome(r: &Result<Record<'_>, DecodeError>) -> String {
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

/// Facts about the stream as a whole, filled in while reading.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamInfo {
    /// Decoded bytes read so far.
    pub bytes: u64,
    /// Lines read so far (blank and bad ones included).
    pub lines: u64,
    /// Lines decoded as records so far.
    pub records: u64,
    /// The stream started with a UTF-8 BOM (stripped).
    pub bom: bool,
    /// Lines that ended in `\r\n`.
    pub crlf_lines: u64,
    /// The last line had no final newline.
    pub no_final_newline: bool,
}

#[cfg(test)]
mod tests {
    //! What the tests of the decoder's parts share.

    use super::*;

    pub(super) fn entries(input: &[u8]) -> Vec<String> {
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
                Entry::Blank(l) => format!("{}@{} blank", l.pos.line, l.pos.offset),
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

    pub(super) const GOOD: &str =
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"turn_started"}}"#;

    /// The lines of every file in `testdata/`, real and broken.
    pub(super) fn testdata_lines() -> Vec<Vec<u8>> {
        crate::testkit::lines("")
    }
}
