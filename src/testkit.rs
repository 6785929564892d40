//! The unit tests' shared kit: a JSONL line builder, one helper that runs the pass (or any
//! single [`Fold`]) over lines, and the `.jsonl` files of `testdata/` with the small random
//! source the tests mutate them with.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::analysis::session::SessionTracker;
use crate::analysis::{self, FileFacts, Fold, Needs, ReadOptions};
use crate::decode::{Decoder, Entry, StreamInfo};
use crate::input::Source;

/// One rollout line, built field by field: `event(json!({"type": "task_started"}))
/// .at(3).ordinal(2)`. Its `Display` is the JSON line (keys in Codex's order).
#[derive(Debug, Clone)]
pub struct Line {
    timestamp: String,
    ordinal: Option<u64>,
    type_: String,
    payload: Value,
    metadata: Option<Value>,
}

/// A record of any type.
pub fn line(type_: &str, payload: Value) -> Line {
    Line {
        timestamp: "2026-01-01T00:00:00.000Z".to_string(),
        ordinal: None,
        metadata: None,
        type_: type_.to_string(),
        payload,
    }
}

/// A `session_meta` record.
pub fn meta(payload: Value) -> Line {
    line("session_meta", payload)
}

/// An `event_msg` record.
pub fn event(payload: Value) -> Line {
    line("event_msg", payload)
}

/// A `response_item` record.
pub fn item(payload: Value) -> Line {
    line("response_item", payload)
}

/// A `turn_context` record.
pub fn turn_context(payload: Value) -> Line {
    line("turn_context", payload)
}

impl Line {
    /// Stamped `secs` seconds after 2026-01-01T00:00:00Z (under a minute).
    pub fn at(mut self, secs: u32) -> Line {
        self.timestamp = format!("2026-01-01T00:00:{secs:02}.000Z");
        self
    }

    /// Stamped with this text: another day, milliseconds, or a stamp that does not parse.
    pub fn stamped(mut self, timestamp: &str) -> Line {
        self.timestamp = timestamp.to_string();
        self
    }

    pub fn ordinal(mut self, ordinal: u64) -> Line {
        self.ordinal = Some(ordinal);
        self
    }

    /// With the envelope's `metadata` (Codex's harness metadata of a response item).
    pub fn metadata(mut self, metadata: Value) -> Line {
        self.metadata = Some(metadata);
        self
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut o = serde_json::Map::new();
        o.insert("timestamp".into(), Value::String(self.timestamp.clone()));
        if let Some(n) = self.ordinal {
            o.insert("ordinal".into(), n.into());
        }
        o.insert("type".into(), Value::String(self.type_.clone()));
        o.insert("payload".into(), self.payload.clone());
        if let Some(m) = &self.metadata {
            o.insert("metadata".into(), m.clone());
        }
        write!(f, "{}", Value::Object(o))
    }
}

/// Lines joined into a file's text, each ended by `\n`. Anything that displays as a line
/// goes: built [`Line`]s, or raw text for what the builder cannot write (torn or invalid
/// lines, repeated keys).
pub fn jsonl<T: fmt::Display>(lines: &[T]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&l.to_string());
        s.push('\n');
    }
    s
}

/// The one pass over `text` (read as standard input), computing `needs`.
pub fn facts(text: &str, needs: Needs) -> FileFacts {
    analysis::read_stream(
        text.as_bytes(),
        Source::Stdin,
        &ReadOptions::default(),
        &needs,
    )
}

/// Feed one analysis every entry of `text`, beside a session tracker, as the pass does;
/// the tracker and the stream facts at the end (for the analysis's own `finish`).
pub fn feed<F: Fold>(fold: &mut F, text: &str) -> (SessionTracker, StreamInfo) {
    let mut session = SessionTracker::new();
    let mut dec = Decoder::new(text.as_bytes());
    while let Some(next) = dec.next() {
        match next.expect("reading a string cannot fail") {
            Entry::Record(rec) => {
                session.observe(&rec);
                fold.record(&rec, &session);
            }
            Entry::Blank(line) => fold.blank(line),
            Entry::Bad(b) => fold.bad(&b),
        }
    }
    let info = dec.info().clone();
    (session, info)
}

/// Call `f` on every record of `text`, in order (for a reader that is not a [`Fold`]).
pub fn each_record(text: &str, mut f: impl FnMut(&crate::decode::Record<'_>)) {
    let mut dec = Decoder::new(text.as_bytes());
    while let Some(next) = dec.next() {
        if let Entry::Record(rec) = next.expect("reading a string cannot fail") {
            f(&rec);
        }
    }
}

/// Every `.jsonl` file under `testdata/<under>` (`""` for all of `testdata/`), sorted.
pub fn jsonl_files(under: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(under);
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Every line (without its `\n`) of every `.jsonl` file under `testdata/<under>`.
pub fn lines(under: &str) -> Vec<Vec<u8>> {
    jsonl_files(under)
        .iter()
        .flat_map(|p| {
            let data = std::fs::read(p).unwrap();
            data.split(|&b| b == b'\n')
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Byte strings that break JSON text or its line structure (quotes, escapes and lone
/// surrogates, brackets, invalid UTF-8, line breaks, a byte order mark, half numbers), for
/// the tests that insert them at random into testdata ([`fragment`]).
const FRAGMENTS: &[&[u8]] = &[
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
    b"\x0b",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xef\xbb\xbf",
    b" ",
    b"\n",
    b"\r",
    b"\r\n",
    b"\n\n",
    b" \t\r\n",
    b"null",
    b"-",
    b"0",
    b"1e",
    b"\"type\":",
];

/// One of the fragments that break JSON text or its line structure, picked by `rnd` (a
/// [`xorshift`]).
pub fn fragment(rnd: &mut impl FnMut(usize) -> usize) -> &'static [u8] {
    FRAGMENTS[rnd(FRAGMENTS.len())]
}

/// A xorshift random source, the same sequence for the same seed: `next(n)` is in `0..n`
/// (`0` when `n` is `0`). For tests that try many generated or mutated inputs.
pub fn xorshift(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_built_line_is_the_json_codex_writes() {
        let l = event(json!({"type": "task_started", "turn_id": "t"}))
            .at(3)
            .ordinal(2);
        assert_eq!(
            l.to_string(),
            r#"{"timestamp":"2026-01-01T00:00:03.000Z","ordinal":2,"type":"event_msg","payload":{"type":"task_started","turn_id":"t"}}"#
        );
        assert_eq!(jsonl(&[l.clone(), l]).lines().count(), 2);
    }
}
