//! Reading a plain file again later: a row's large text is read back from where it lies
//! when the row is written, instead of being held until the file's end.

use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::budget::{Budget, Share};

/// How to read a plain file again later: a handle on it, the one its stream reads through
/// on Unix, a second one opened with it elsewhere (it reads the file even if it is moved or
/// archived meanwhile), and its path and identity, to open it again when the handle is not
/// kept (see [`SourceFile`]).
#[derive(Debug)]
pub struct Reopen {
    pub(super) path: PathBuf,
    pub(super) id: Option<FileId>,
    pub(super) handle: Option<Arc<File>>,
}

impl Reopen {
    /// The handle, once.
    pub fn take_handle(&mut self) -> Option<Arc<File>> {
        self.handle.take()
    }

    /// Open the file again; an error if another file now stands at its path.
    pub fn open(&self) -> io::Result<File> {
        let f = File::open(&self.path)?;
        if self.id.is_some() && FileId::of(&f) != self.id {
            return Err(io::Error::other("the file was replaced while it was read"));
        }
        Ok(f)
    }
}

impl Reopen {
    /// Where the file is and which file it is, to read it on from an offset later.
    pub fn at(&self) -> FileAt {
        FileAt {
            path: self.path.clone(),
            id: self.id,
        }
    }
}

/// A plain file read once in a run, to be read on from an offset later (a lineage source
/// read past where a rebuild of it stopped, for a later cutoff): its path, and which file
/// stood there, so that another file put there meanwhile is an error, never read in its
/// place.
#[derive(Debug, Clone)]
pub struct FileAt {
    path: PathBuf,
    id: Option<FileId>,
}

impl FileAt {
    /// A stream over the file from `offset` on: not a pass over it from its start, so not
    /// tallied ([`super::tally`]).
    pub fn open_from(&self, offset: u64) -> io::Result<super::Stream> {
        use std::io::{Seek, SeekFrom};
        let reopen = Reopen {
            path: self.path.clone(),
            id: self.id,
            handle: None,
        };
        let mut f = reopen.open()?;
        f.seek(SeekFrom::Start(offset))?;
        Ok(Box::new(super::PooledReader::new(Box::new(f))))
    }
}

/// A file's identity (device and inode) where the platform has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct FileId(u64, u64);

impl FileId {
    pub(super) fn of(f: &File) -> Option<FileId> {
        FileId::from_meta(&f.metadata().ok()?)
    }

    pub(super) fn from_meta(m: &std::fs::Metadata) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId(m.dev(), m.ino()))
        }
        #[cfg(not(unix))]
        {
            let _ = m;
            None
        }
    }
}

/// Whether `a` and `b` name one existing file (links followed): the same device and inode;
/// where the platform has no inode, as the `same-file` crate tells (Windows: the volume and
/// file index, which a hard link shares). Two `stat`s, where comparing canonical paths cost
/// a `readlink` for each part of each path (4% of the state view's time over the bench tree,
/// whose every file is held against its thread's row).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        matches!((file_id(a), file_id(b)), (Some(x), Some(y)) if x == y)
    }
    #[cfg(not(unix))]
    {
        same_file::is_same_file(a, b).unwrap_or(false)
    }
}

/// The identity of the file at `p`, links followed.
fn file_id(p: &Path) -> Option<FileId> {
    std::fs::metadata(p)
        .ok()
        .and_then(|m| FileId::from_meta(&m))
}

/// A run's input files, to tell whether a path it writes names one of them: the same file
/// ([`same_file`]), or the path an input was given by (made absolute, not resolved: the
/// input may be gone from it since). Built once, a `stat` an input; a path is then one
/// `stat` and two lookups, where comparing it with every input in turn cost two `stat`s an
/// input (`repair --out-dir` over 2,001 files: 8 million `statx`, 52 s). Where the platform
/// has no inode, a path is compared with the inputs in turn.
#[derive(Debug, Default)]
pub struct FileSet {
    ids: HashSet<FileId>,
    names: HashSet<PathBuf>,
    /// The inputs without an identity (where the platform has none), compared in turn.
    others: Vec<PathBuf>,
}

impl FileSet {
    pub fn of<'a>(paths: impl IntoIterator<Item = &'a Path>) -> FileSet {
        let mut set = FileSet::default();
        for p in paths {
            set.names.insert(absolute(p));
            match file_id(p) {
                Some(id) => {
                    set.ids.insert(id);
                }
                // Absent or unreadable on Unix: no file to protect but at its name.
                None if cfg!(unix) => {}
                None => set.others.push(p.to_path_buf()),
            }
        }
        set
    }

    /// Whether `path` names one of the files, or is the name one was given by.
    pub fn holds(&self, path: &Path) -> bool {
        self.names.contains(&absolute(path))
            || file_id(path).is_some_and(|id| self.ids.contains(&id))
            || self.others.iter().any(|p| same_file(p, path))
    }
}

/// `p` made absolute against the working directory, as written (`..` and links kept).
fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// How many files may keep their handle open past their pass, shared by the readers of one
/// run. Reports wait in the scheduler's reorder window by the hundred, and an open file each
/// ran into the limit on open files (256 by default on macOS): past the budget, a file is
/// opened again by its path when first read, and must be the same file.
#[derive(Debug, Clone)]
pub struct Handles(Budget);

impl Handles {
    /// A budget of `max` handles.
    pub fn new(max: usize) -> Handles {
        Handles(Budget::new(max))
    }
}

impl Default for Handles {
    /// Eight: enough for the reports in flight that are written next.
    fn default() -> Handles {
        Handles::new(8)
    }
}

/// A plain file whose lines can be read again in part. Its second handle is kept when the
/// budget allows, so its texts are read even if the file is moved or archived before its
/// rows are written (as Codex archives a session); else it is opened again by its path.
#[derive(Debug)]
pub struct SourceFile {
    reopen: Reopen,
    /// The handle opened with the file, while it is kept, takes one of the budget.
    _slot: Share,
    file: OnceLock<Result<Arc<File>, (io::ErrorKind, String)>>,
}

impl SourceFile {
    pub fn new(mut reopen: Reopen, handles: &Handles) -> SourceFile {
        let file = OnceLock::new();
        let mut slot = handles.0.share();
        if let Some(f) = reopen.take_handle() {
            if slot.take(1) {
                let _ = file.set(Ok(f));
            }
        }
        SourceFile {
            reopen,
            _slot: slot,
            file,
        }
    }

    /// Append the `len` bytes at `offset` to `buf`. A file that shrank since it was read is
    /// an error (`UnexpectedEof`). (The tests' way to read a text back.)
    #[cfg(test)]
    pub fn read_at(&self, offset: u64, len: usize, buf: &mut Vec<u8>) -> io::Result<()> {
        let from = buf.len();
        buf.resize(from + len, 0);
        let r = self.read_exact_at(offset, &mut buf[from..]);
        if r.is_err() {
            buf.truncate(from);
        }
        r
    }

    /// Fill `dst` with the bytes at `offset`. A file that shrank since it was read is an
    /// error (`UnexpectedEof`).
    pub fn read_exact_at(&self, offset: u64, dst: &mut [u8]) -> io::Result<()> {
        let file = self
            .file
            .get_or_init(|| {
                self.reopen
                    .open()
                    .map(Arc::new)
                    .map_err(|e| (e.kind(), super::io_cause(&e)))
            })
            .as_ref()
            .map_err(|(kind, cause)| io::Error::new(*kind, cause.clone()))?;
        read_exact_at(file, dst, offset)
    }
}

/// The start of the line at `offset` of `file` (`size` bytes long): up to `max` bytes,
/// without its line ending or a BOM, cut at the first byte that is not UTF-8 (`max` may cut
/// a character) unless the line starts with one. For a diagnostic's excerpt; `None` when the
/// file cannot be read there.
pub fn excerpt(file: &SourceFile, size: u64, offset: u64, max: usize) -> Option<String> {
    let len = (size.checked_sub(offset)? as usize).min(max);
    let mut buf = vec![0; len];
    file.read_exact_at(offset, &mut buf).ok()?;
    let line = buf.split(|&b| b == b'\n').next().unwrap_or_default();
    let text = match line.utf8_chunks().next() {
        Some(c) if !c.valid().is_empty() => c.valid().to_string(),
        _ => String::from_utf8_lossy(line).into_owned(),
    };
    // A byte order mark is not part of the line (the decoder strips it too).
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Some(text.trim_end_matches('\r').to_string())
}

#[cfg(unix)]
fn read_exact_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
}

#[cfg(windows)]
#[allow(
    clippy::indexing_slicing,
    reason = "a read returns at most the length it is given"
)]
fn read_exact_at(f: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match f.seek_read(buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{open_rereadable, Source};
    use std::io::Read;
    use std::path::Path;

    const NAME: &str = "rollout-2026-01-01T00-00-00-x.jsonl";

    /// A file `name` holding `content`, in a new temporary directory (removed when dropped).
    fn written(name: &str, content: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        (dir, path)
    }

    /// What opening `path` as a rollout says about reading it again.
    fn reopen_of(path: &Path) -> Option<Reopen> {
        open_rereadable(&Source::File(path.to_path_buf()))
            .unwrap()
            .1
    }

    #[test]
    fn a_file_opened_again_must_be_the_same_file() {
        let (dir, path) = written(NAME, b"{}\n");
        let reopen = reopen_of(&path).expect("a plain file can be read again");
        assert!(reopen.open().is_ok());
        // Replaced (a new file renamed over it), as an editor or a rotation would.
        let other = dir.path().join("other");
        std::fs::write(&other, "{}\n").unwrap();
        std::fs::rename(&other, &path).unwrap();
        if cfg!(unix) {
            let err = reopen.open().unwrap_err();
            assert!(err.to_string().contains("replaced"), "{err}");
        }
    }

    /// One file however it is named (a relative path, `..`, a symlink, a hard link, as
    /// `realpath` would find it or not); another file, or none, is not it.
    #[test]
    fn one_file_is_the_same_file_by_any_of_its_names() {
        let (dir, path) = written(NAME, b"{}\n");
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        let dotted = d.join("sub").join("..").join(NAME);
        assert!(same_file(&path, &path));
        assert!(same_file(&path, &dotted));
        let other = d.join("other.jsonl");
        std::fs::write(&other, "{}\n").unwrap();
        assert!(!same_file(&path, &other));
        assert!(!same_file(&path, &d.join("absent.jsonl")));
        assert!(!same_file(&d.join("absent.jsonl"), &d.join("absent.jsonl")));
        #[cfg(unix)]
        {
            let link = d.join("link.jsonl");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            assert!(same_file(&link, &path));
            let hard = d.join("hard.jsonl");
            std::fs::hard_link(&path, &hard).unwrap();
            assert!(same_file(&hard, &path));
            // Renamed over: the name now names another file.
            std::fs::rename(&other, &hard).unwrap();
            assert!(!same_file(&hard, &path));
        }
    }

    /// A set of inputs holds each input by any name and by the name it was given, even once
    /// another file stands there; not another file, nor a name no input was given by.
    #[test]
    fn a_set_of_inputs_holds_them_by_any_name() {
        let (dir, path) = written(NAME, b"{}\n");
        let d = dir.path();
        let gone = d.join("gone.jsonl");
        let other = d.join("other.jsonl");
        std::fs::write(&other, "{}\n").unwrap();
        let set = FileSet::of([path.as_path(), gone.as_path()]);
        assert!(set.holds(&path));
        assert!(set.holds(&d.join(".").join(NAME)));
        assert!(set.holds(&gone), "the name an absent input was given by");
        assert!(!set.holds(&other));
        assert!(!set.holds(&d.join("new.jsonl")));
        std::fs::write(&gone, "{}\n").unwrap();
        assert!(set.holds(&gone), "another file put at an input's name");
        #[cfg(unix)]
        {
            let hard = d.join("hard.jsonl");
            std::fs::hard_link(&path, &hard).unwrap();
            assert!(set.holds(&hard));
            let link = d.join("link.jsonl");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            assert!(set.holds(&link));
        }
    }

    #[cfg(unix)]
    #[test]
    #[allow(clippy::disallowed_macros)] // the skip note of a test
    fn a_fifo_is_never_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(NAME);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("SKIPPED: mkfifo is not available");
            return;
        }
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || std::fs::write(path, "{}\n").unwrap())
        };
        let (mut stream, reopen) = open_rereadable(&Source::File(path)).unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        writer.join().unwrap();
        assert_eq!(text, "{}\n");
        assert!(reopen.is_none());
    }

    #[test]
    fn a_zstd_file_is_never_read_again_in_place() {
        let zst = zstd::encode_all(&b"{}\n"[..], 3).unwrap();
        let (_dir, path) = written(&format!("{NAME}.zst"), &zst);
        assert!(reopen_of(&path).is_none());
    }

    #[test]
    fn a_held_file_is_read_again_after_it_is_moved() {
        // As Codex archives a session while `calls` still has its rows to write.
        let (dir, path) = written(NAME, b"0123456789\n");
        let file = SourceFile::new(reopen_of(&path).unwrap(), &Handles::default());
        std::fs::rename(&path, dir.path().join("archived.jsonl")).unwrap();
        let mut buf = Vec::new();
        file.read_at(3, 4, &mut buf).unwrap();
        assert_eq!(buf, b"3456");
    }

    #[test]
    fn a_file_cut_since_its_pass_is_an_error_when_read_back() {
        // As a file truncated between `calls`' pass and the writing of its rows (issue #15,
        // `tests/cli/hostile/files.rs`): the held handle, and one opened again by its path
        // past the budget, both meet the new end; nothing half-read is kept.
        let (_dir, path) = written(NAME, b"0123456789\n");
        let held = SourceFile::new(reopen_of(&path).unwrap(), &Handles::default());
        let by_path = SourceFile::new(reopen_of(&path).unwrap(), &Handles::new(0));
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(5)
            .unwrap();
        for file in [&held, &by_path] {
            let mut buf = b"kept".to_vec();
            for (offset, len) in [(3, 4), (5, 1), (100, 1)] {
                let err = file.read_at(offset, len, &mut buf).unwrap_err();
                assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{offset}+{len}");
                assert_eq!(buf, b"kept");
            }
            file.read_at(1, 4, &mut buf).unwrap();
            assert_eq!(buf, b"kept1234");
        }
    }

    #[test]
    fn past_the_budget_a_file_is_opened_again_by_its_path_and_handles_come_back() {
        let (_dir, path) = written(NAME, b"0123456789\n");
        let handles = Handles::new(1);
        let open = || SourceFile::new(reopen_of(&path).unwrap(), &handles);
        let (first, second) = (open(), open());
        assert_eq!((first._slot.units(), second._slot.units()), (1, 0));
        let mut buf = Vec::new();
        second.read_at(0, 2, &mut buf).unwrap();
        assert_eq!(buf, b"01");
        drop(first);
        assert_eq!(
            open()._slot.units(),
            1,
            "the handle went back to the budget"
        );
    }
}
