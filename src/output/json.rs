//! The JSON wire format where serde alone does not do it: a JSON string held as the record
//! wrote it, or as where it lies in its file (a [`FileText`], read back when its row is
//! written), is copied as it is when those bytes are what serde_json would write for it.

use std::borrow::Cow;
use std::io;

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::input::text::changed;
use crate::input::{FileText, SourceFile};

/// A text, ready for a JSON row.
#[derive(Debug)]
pub enum JsonText<'a> {
    /// Written by serde.
    Str(Cow<'a, str>),
    /// One JSON string, escaped exactly as serde_json escapes its text: written as it is.
    Raw(&'a RawValue),
}

impl Serialize for JsonText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonText::Str(t) => s.serialize_str(t),
            JsonText::Raw(r) => r.serialize(s),
        }
    }
}

/// A JSON string `t` as the record wrote it (quotes included), for a JSON row. One in the
/// file is read into `buf` and copied from there when serde would write the same bytes (the
/// usual case: Codex writes with serde_json); else it is unescaped and written again. An
/// error when the file cannot be read there, or no longer holds a JSON string there (it
/// changed while it was read).
pub fn string_json<'a>(
    t: &'a FileText,
    file: Option<&SourceFile>,
    buf: &'a mut Vec<u8>,
) -> io::Result<JsonText<'a>> {
    let raw = match t {
        // As the decoder checked it.
        FileText::Held(s) => crate::decode::raw_value(s),
        // Checked again: the file may have changed since it was read.
        FileText::InFile { .. } => {
            crate::decode::json_string(t.read(file, buf)?).ok_or_else(changed)?
        }
    };
    as_written(raw)
}

/// A JSON string of a record, as a JSON row writes it: as it is when serde would write the
/// same bytes, else unescaped and written again.
fn as_written(raw: &RawValue) -> io::Result<JsonText<'_>> {
    if canonical_escapes(raw.get().as_bytes()) {
        return Ok(JsonText::Raw(raw));
    }
    // A checked JSON string: the decoder's, or one read back and checked again.
    let s = crate::decode::select::str_value(raw.get()).ok_or_else(changed)?;
    Ok(JsonText::Str(s))
}

/// A JSON string `t` as the record wrote it (quotes included), for a table: its text.
pub fn string_plain<'a>(t: &'a FileText, file: Option<&SourceFile>) -> io::Result<Cow<'a, str>> {
    match t {
        FileText::Held(s) => crate::decode::select::str_value(s).ok_or_else(changed),
        FileText::InFile { .. } => {
            let mut buf = Vec::new();
            let s: String =
                serde_json::from_slice(t.read(file, &mut buf)?).map_err(|_| changed())?;
            Ok(Cow::Owned(s))
        }
    }
}

/// Would serde_json write the text of `raw`, a JSON string, back to these very bytes?
/// serde_json escapes `"` and `\`, writes `\b \f \n \r \t` for those controls and `\u00xx`
/// (lowercase) for the other controls, and nothing else: no `\/`, no `\u` for other
/// characters, UTF-8 as is. So in a valid JSON string only `\u` and `\/` escapes can make
/// it differ, and those are rare: they are searched for (a search per escape kind cost less
/// than stopping at every backslash). Whether `raw` is a valid JSON string at all is the
/// decoder's check.
fn canonical_escapes(raw: &[u8]) -> bool {
    if !matches!(raw, [b'"', .., b'"']) || raw.len() < 2 {
        return false;
    }
    for needle in [&b"\\u"[..], &b"\\/"[..]] {
        for i in memchr::memmem::find_iter(raw, needle) {
            let Some((before, e)) = raw.split_at_checked(i) else {
                continue;
            };
            // An escape when an even run of backslashes precedes this one.
            let run = before.iter().rev().take_while(|&&c| c == b'\\').count();
            if run % 2 == 0 && (needle == b"\\/" || !canonical_u_escape(e)) {
                return false;
            }
        }
    }
    true
}

/// Is `e`, starting `\u`, an escape serde_json writes: `\u00xx`, lowercase, for a control
/// character without a short form?
fn canonical_u_escape(e: &[u8]) -> bool {
    let Some(&[b'0', b'0', hi @ (b'0' | b'1'), lo]) = e.get(2..6) else {
        return false;
    };
    let lo = match lo {
        b'0'..=b'9' => lo - b'0',
        b'a'..=b'f' => lo - b'a' + 10,
        _ => return false,
    };
    !matches!((hi - b'0') * 16 + lo, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a JSON row writes for `raw` held in a file.
    fn written(raw: &str) -> Option<String> {
        let mut buf = raw.as_bytes().to_vec();
        if !canonical_escapes(&buf) {
            return None;
        }
        let value = crate::decode::json_string(&buf)?;
        let out = serde_json::to_string(&JsonText::Raw(value)).unwrap();
        buf.clear();
        Some(out)
    }

    #[test]
    fn canonical_json_strings_are_exactly_what_serde_writes() {
        // Every string of up to three of these pieces: copied as it lies exactly when
        // serde_json writes its text back to the same bytes.
        let pieces = [
            "a", "é", "\u{7f}", "/", r"\/", r"\n", r"\u000a", r"\u001f", r"\u001F", r"\u0000",
            r"\u00e9", r"\u0041", r"\t", r"\b", r"\f", r"\r", r#"\""#, r"\\", "\u{2028}",
        ];
        let mut n = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let raw = format!("\"{a}{b}{c}\"");
                    let text: String = serde_json::from_str(&raw).unwrap();
                    let serde = serde_json::to_string(&text).unwrap();
                    let same = serde == raw;
                    assert_eq!(canonical_escapes(raw.as_bytes()), same, "{raw}");
                    if same {
                        assert_eq!(written(&raw).as_deref(), Some(serde.as_str()));
                    }
                    n += usize::from(same);
                }
            }
        }
        assert!(n > 1000);
        for bad in ["", "\"", "a", "\"\\\""] {
            assert_eq!(written(bad), None, "{bad:?}");
        }
        assert_eq!(written("\"a\"b\""), None);
        assert_eq!(written("\"\u{1}\""), None);
    }

    #[test]
    fn a_text_in_a_file_cut_since_its_pass_is_a_changed_file() {
        // `calls` reads an output back by its offset when its row is written: the file may
        // have been truncated since the pass (issue #15, `tests/cli/hostile/files.rs`).
        let (_dir, path, file) = file_holding(b"{\"output\":\"a long text\"}\n");
        let text = FileText::InFile {
            offset: 10,
            len: 13,
        };
        let mut buf = Vec::new();
        assert!(string_json(&text, Some(&file), &mut buf).is_ok());
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(12)
            .unwrap();
        let err = string_json(&text, Some(&file), &mut buf).unwrap_err();
        assert!(
            err.to_string()
                .contains("the file changed while it was read"),
            "{err}"
        );
        let err = string_plain(&text, Some(&file)).unwrap_err();
        assert!(
            err.to_string()
                .contains("the file changed while it was read"),
            "{err}"
        );
    }

    #[test]
    fn a_text_that_is_no_json_string_is_a_changed_file() {
        let (_dir, _path, file) = file_holding(b"{\"output\":\"a long text\"}\n");
        let text = FileText::InFile { offset: 0, len: 4 };
        let mut buf = Vec::new();
        let err = string_json(&text, Some(&file), &mut buf).unwrap_err();
        assert!(err.to_string().contains("the file changed"), "{err}");
        let err = string_plain(&text, Some(&file)).unwrap_err();
        assert!(err.to_string().contains("the file changed"), "{err}");
        let err = string_json(&text, None, &mut buf).unwrap_err();
        assert!(err.to_string().contains("cannot be read again"), "{err}");
    }

    #[test]
    fn a_held_json_string_is_written_as_the_record_wrote_it() {
        let mut buf = Vec::new();
        for (raw, text) in [(r#""a\nb""#, "a\nb"), (r#""\u0041""#, "A")] {
            let held = FileText::Held(raw.into());
            let json = string_json(&held, None, &mut buf).unwrap();
            let expected = serde_json::to_string(text).unwrap();
            assert_eq!(serde_json::to_string(&json).unwrap(), expected);
            assert_eq!(string_plain(&held, None).unwrap(), text);
        }
    }

    /// `content` in a file, and a reader of it.
    fn file_holding(content: &[u8]) -> (tempfile::TempDir, std::path::PathBuf, SourceFile) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-x.jsonl");
        std::fs::write(&path, content).unwrap();
        let source = crate::input::Source::File(path.clone());
        let reopen = crate::input::open_rereadable(&source).unwrap().1.unwrap();
        let file = SourceFile::new(reopen, &crate::input::Handles::default());
        (dir, path, file)
    }
}
