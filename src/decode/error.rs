//! Why a line was rejected ([`DecodeError`]), and what is kept of a rejected line
//! ([`BadLine`], with the ordinal a raw scan can still read in it).

use std::fmt;

use super::{Line, Pos};

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
    /// Its bytes before its line ending, the ending's length, its characters ([`Line`]).
    pub len: u64,
    pub eol: u8,
    pub chars: u64,
    pub error: DecodeError,
    /// The line was the last one, had no final newline, and failed to decode: a torn write.
    pub torn: bool,
    /// The line carried an `"ordinal"` that a raw scan could read, though the line failed.
    /// `check-ordinal` needs it: Codex's next resume reuses such ordinals.
    pub ordinal_hint: Option<u64>,
}

impl BadLine {
    /// The whole line.
    pub fn line(&self) -> Line {
        Line {
            pos: self.pos,
            len: self.len,
            eol: self.eol,
            chars: Some(self.chars),
        }
    }
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

/// A raw scan for `"ordinal":N` in a line that failed to decode (a torn or foreign line can
/// still carry the ordinal Codex's reverse scanner would skip).
pub fn ordinal_hint(bytes: &[u8]) -> Option<u64> {
    let key = b"\"ordinal\"";
    let i = memchr::memmem::find(bytes, key)?;
    let rest = bytes.get(i + key.len()..)?.trim_ascii_start();
    let rest = rest.strip_prefix(b":")?.trim_ascii_start();
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    std::str::from_utf8(rest.get(..digits)?).ok()?.parse().ok()
}
