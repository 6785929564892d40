//! A text of the input held as where it lies in its file, and read back from there when it
//! is written: a file's large texts (a call's output, a history item) then cost a few words
//! each until then, not their length.

use std::cell::RefCell;
use std::io;

use crate::decode::Record;
use crate::input::SourceFile;

/// A text of a file: where it lies (a plain file, which can be read again), or held (input
/// that cannot be read again: standard input, a pipe, `.zst`; a text made in memory). What
/// the text is (a JSON value, a JSON string) is the reader's to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileText {
    /// `len` bytes from `offset` of the file.
    InFile {
        offset: u64,
        len: usize,
    },
    Held(Box<str>),
}

impl FileText {
    /// `part` of `rec`'s line: where it lies when the file can be read again, else a copy.
    pub fn of(rec: &Record<'_>, part: &str, rereadable: bool) -> FileText {
        match rereadable.then(|| rec.stream_offset_of(part)).flatten() {
            Some(offset) => FileText::InFile {
                offset,
                len: part.len(),
            },
            None => FileText::Held(part.into()),
        }
    }

    /// The text's bytes: a held text's own, or those at its place in `file`, read into `buf`
    /// (kept from text to text: only what it grows by is ever zeroed). An error when there is
    /// no file to read (`None`), or the file no longer holds that many bytes there
    /// ([`changed`]).
    pub fn read<'a>(
        &'a self,
        file: Option<&SourceFile>,
        buf: &'a mut Vec<u8>,
    ) -> io::Result<&'a [u8]> {
        let (offset, len) = match self {
            FileText::Held(s) => return Ok(s.as_bytes()),
            FileText::InFile { offset, len } => (*offset, *len),
        };
        let file = file.ok_or_else(not_rereadable)?;
        if buf.len() < len {
            buf.resize(len, 0);
        }
        let dst = buf.get_mut(..len).ok_or_else(changed)?;
        file.read_exact_at(offset, dst)
            .map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => changed(),
                _ => e,
            })?;
        Ok(dst)
    }

    /// The text as a `String` ([`FileText::read`]); bytes that are not UTF-8 are a
    /// [`changed`] file.
    pub fn read_string(&self, file: Option<&SourceFile>) -> io::Result<String> {
        if let FileText::Held(s) = self {
            return Ok(s.to_string());
        }
        let mut buf = Vec::new();
        self.read(file, &mut buf)?;
        String::from_utf8(buf).map_err(|_| changed())
    }
}

/// The error of a text read back from a file that changed since it was read: cut short, or
/// holding other bytes there.
pub fn changed() -> io::Error {
    io::Error::other("the file changed while it was read (a text is no longer where it was)")
}

fn not_rereadable() -> io::Error {
    io::Error::other("the file cannot be read again")
}

/// The texts of one file read back in file order, through a window: they lie close
/// together, so they are read with one read per window rather than one per text.
#[derive(Debug, Default)]
pub struct TextWindow(RefCell<Window>);

/// The last stretch of the file read back.
#[derive(Debug, Default)]
struct Window {
    start: u64,
    bytes: Vec<u8>,
}

/// How much is read back at once.
const WINDOW: u64 = 256 * 1024;

impl TextWindow {
    /// `text` as a `String`: held, or read back from `file`, whose length as read is `size`
    /// (a window never reads past it). Errors as [`FileText::read_string`]'s.
    pub fn read(
        &self,
        file: Option<&SourceFile>,
        size: u64,
        text: &FileText,
    ) -> io::Result<String> {
        let FileText::InFile { offset, len } = *text else {
            return text.read_string(file);
        };
        let f = file.ok_or_else(not_rereadable)?;
        let end = offset + len as u64;
        let mut w = self.0.borrow_mut();
        let inside = offset >= w.start && end <= w.start + w.bytes.len() as u64;
        if !inside {
            if len as u64 >= WINDOW / 2 || end > size {
                return text.read_string(file);
            }
            let to = (offset + WINDOW).min(size);
            w.start = offset;
            w.bytes.resize((to - offset) as usize, 0);
            let Window { bytes, .. } = &mut *w;
            if let Err(e) = f.read_exact_at(offset, bytes) {
                w.bytes.clear();
                return Err(match e.kind() {
                    io::ErrorKind::UnexpectedEof => changed(),
                    _ => e,
                });
            }
        }
        // Inside the window: checked above, or the window was just read from `offset` on,
        // past `end`.
        let at = (offset - w.start) as usize;
        let bytes = w.bytes.get(at..at + len).ok_or_else(changed)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| changed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{open_rereadable, Handles, Source};

    /// `content` in a file, and a reader of it.
    fn file(content: &[u8]) -> (tempfile::TempDir, std::path::PathBuf, SourceFile) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-x.jsonl");
        std::fs::write(&path, content).unwrap();
        let reopen = open_rereadable(&Source::File(path.clone()))
            .unwrap()
            .1
            .unwrap();
        let f = SourceFile::new(reopen, &Handles::default());
        (dir, path, f)
    }

    #[test]
    fn a_text_is_read_back_from_where_it_lies_or_as_held() {
        let (_dir, _path, f) = file(b"{\"a\":\"text\"}\n");
        let at = FileText::InFile { offset: 5, len: 6 };
        let held = FileText::Held("\"held\"".into());
        let mut buf = b"longer than the text".to_vec();
        assert_eq!(at.read(Some(&f), &mut buf).unwrap(), b"\"text\"");
        assert_eq!(held.read(None, &mut buf).unwrap(), b"\"held\"");
        assert_eq!(at.read_string(Some(&f)).unwrap(), "\"text\"");
        assert_eq!(held.read_string(None).unwrap(), "\"held\"");
        let window = TextWindow::default();
        for _ in 0..2 {
            assert_eq!(window.read(Some(&f), 13, &at).unwrap(), "\"text\"");
            assert_eq!(window.read(None, 13, &held).unwrap(), "\"held\"");
        }
        // Past the length the file was read to: read on its own, not through the window.
        let past = FileText::InFile { offset: 5, len: 8 };
        assert_eq!(window.read(Some(&f), 12, &past).unwrap(), "\"text\"}\n");
        let err = at.read(None, &mut buf).unwrap_err();
        assert!(err.to_string().contains("cannot be read again"), "{err}");
        let err = window.read(None, 13, &at).unwrap_err();
        assert!(err.to_string().contains("cannot be read again"), "{err}");
    }

    #[test]
    fn a_text_of_a_file_cut_since_its_pass_is_a_changed_file() {
        let (_dir, path, f) = file(b"{\"a\":\"text\"}\n");
        let at = FileText::InFile { offset: 5, len: 6 };
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(8)
            .unwrap();
        let changed = |e: io::Error| {
            assert!(
                e.to_string().contains("the file changed while it was read"),
                "{e}"
            )
        };
        changed(at.read(Some(&f), &mut Vec::new()).unwrap_err());
        changed(at.read_string(Some(&f)).unwrap_err());
        changed(TextWindow::default().read(Some(&f), 13, &at).unwrap_err());
    }
}
