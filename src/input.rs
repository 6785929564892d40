//! Input discovery and opening.
//!
//! Turns the command line's `PATH...` (or `$CODEX_HOME`) into an ordered list of
//! [`Source`]s, and opens each one as a buffered byte stream, decompressing zstd (detected
//! from the magic bytes, never the name) as a stream, multi-frame files included.
//!
//! Order is deterministic: arguments in the order given, each directory's rollouts sorted by
//! path. In a walk, `X.jsonl` shadows `X.jsonl.zst` (Codex prefers the plain file too), what
//! is not a regular file is skipped, and symlinked directories are not followed. A path given
//! explicitly is read as given, whatever it is (a FIFO, `/dev/fd/N`).

use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

/// zstd frame magic number, little-endian `0xFD2FB528`.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
/// The last three bytes of a zstd skippable frame's magic (`0x184D2A5?`, little-endian).
const SKIPPABLE_MAGIC_TAIL: [u8; 3] = [0x2A, 0x4D, 0x18];
/// Read buffer size for files.
const READ_BUF: usize = 256 * 1024;

/// One input to read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// Standard input (`-`).
    Stdin,
    /// A file, by the path it was found under.
    File(PathBuf),
}

impl Source {
    /// The path as shown to users (`-` for standard input).
    pub fn display(&self) -> String {
        match self {
            Source::Stdin => "-".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::Stdin => None,
            Source::File(p) => Some(p),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

/// A problem finding inputs: the run goes on, and ends with exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {cause}")]
pub struct InputError {
    pub path: String,
    pub cause: String,
}

/// Where to look when no path is given.
#[derive(Debug, Clone)]
pub struct DefaultRoots {
    pub codex_home: PathBuf,
    pub archived: bool,
}

impl DefaultRoots {
    /// `$CODEX_HOME`, else `~/.codex`.
    pub fn from_env(archived: bool) -> Result<Self, InputError> {
        let home = match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
            Some(h) => PathBuf::from(h),
            None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
                Some(h) => PathBuf::from(h).join(".codex"),
                None => {
                    return Err(InputError {
                        path: "~/.codex".into(),
                        cause: "neither CODEX_HOME nor HOME is set".into(),
                    })
                }
            },
        };
        Ok(DefaultRoots {
            codex_home: home,
            archived,
        })
    }

    /// The directories to walk, in order; an error when none exists.
    pub fn roots(&self) -> Result<Vec<PathBuf>, InputError> {
        let mut wanted = vec![self.codex_home.join("sessions")];
        if self.archived {
            wanted.push(self.codex_home.join("archived_sessions"));
        }
        let found: Vec<PathBuf> = wanted.iter().filter(|p| p.is_dir()).cloned().collect();
        if found.is_empty() {
            let names: Vec<String> = wanted.iter().map(|p| p.display().to_string()).collect();
            let what = match names.as_slice() {
                [one] => format!("{one} does not exist"),
                many => format!("neither {} exists", many.join(" nor ")),
            };
            return Err(InputError {
                path: self.codex_home.display().to_string(),
                cause: format!("no rollouts to read: {what} (set CODEX_HOME or pass a PATH)"),
            });
        }
        Ok(found)
    }
}

/// The result of discovery: the sources in output order, and the problems met.
#[derive(Debug, Default)]
pub struct Discovery {
    pub sources: Vec<Source>,
    pub errors: Vec<InputError>,
}

/// Expand the given paths (or the default roots when `paths` is empty).
pub fn discover(paths: &[PathBuf], roots: Option<&DefaultRoots>) -> Discovery {
    let mut out = Discovery::default();
    let mut seen: HashSet<Source> = HashSet::new();
    let mut push = |out: &mut Discovery, s: Source| {
        // Each input is read once: `-` given twice would only read an empty stream again.
        if seen.insert(s.clone()) {
            out.sources.push(s);
        }
    };
    if paths.is_empty() {
        let dirs = match roots.map(|r| r.roots()) {
            Some(Ok(d)) => d,
            Some(Err(e)) => {
                out.errors.push(e);
                return out;
            }
            None => Vec::new(),
        };
        for dir in dirs {
            for s in walk(&dir, &mut out.errors) {
                push(&mut out, s);
            }
        }
        return out;
    }
    for p in paths {
        if p.as_os_str() == "-" {
            push(&mut out, Source::Stdin);
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                for s in walk(p, &mut out.errors) {
                    push(&mut out, s);
                }
            }
            // Anything else given explicitly is read as given (file, FIFO, /dev/fd/N).
            Ok(_) => push(&mut out, Source::File(p.clone())),
            Err(e) => out.errors.push(InputError {
                path: p.display().to_string(),
                cause: io_cause(&e),
            }),
        }
    }
    out
}

/// True for `rollout-*.jsonl` and `rollout-*.jsonl.zst`.
pub fn is_rollout_name(name: &str) -> bool {
    name.starts_with("rollout-") && (name.ends_with(".jsonl") || name.ends_with(".jsonl.zst"))
}

/// Walk one directory for rollouts, sorted by path.
fn walk(dir: &Path, errors: &mut Vec<InputError>) -> Vec<Source> {
    let mut files: Vec<PathBuf> = Vec::new();
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name();
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e
                    .path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| dir.display().to_string());
                let cause = match e.io_error() {
                    Some(io) => io_cause(io),
                    None => e.to_string(),
                };
                errors.push(InputError { path, cause });
                continue;
            }
        };
        let name = match entry.file_name().to_str() {
            Some(n) => n,
            None => continue,
        };
        if !is_rollout_name(name) {
            continue;
        }
        let ft = entry.file_type();
        let regular = if ft.is_symlink() {
            // A symlinked file still counts; a symlinked directory is never entered.
            std::fs::metadata(entry.path())
                .map(|m| m.is_file())
                .unwrap_or(false)
        } else {
            ft.is_file()
        };
        if regular {
            files.push(entry.into_path());
        }
    }
    // Codex prefers the plain file over its compressed twin; so do we.
    let plain: HashSet<PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .cloned()
        .collect();
    files.retain(|p| match p.to_str().and_then(|s| s.strip_suffix(".zst")) {
        Some(stem) => !plain.contains(Path::new(stem)),
        None => true,
    });
    files.sort();
    files.into_iter().map(Source::File).collect()
}

/// A readable, buffered, decompressed stream.
pub type Stream = Box<dyn BufRead + Send>;

/// Open a source; zstd is detected from the first four bytes.
pub fn open(source: &Source) -> io::Result<Stream> {
    match source {
        Source::Stdin => wrap(Box::new(io::stdin())),
        Source::File(p) => wrap(Box::new(File::open(p)?)),
    }
}

/// Open a source, and for a plain (not compressed) file a second handle on it: the decoded
/// stream's offsets are then the file's own, so a part of a line can be read again later.
pub fn open_rereadable(source: &Source) -> io::Result<(Stream, Option<Reopen>)> {
    match source {
        Source::Stdin => Ok((wrap(Box::new(io::stdin()))?, None)),
        Source::File(p) => {
            let f = File::open(p)?;
            // Only a regular file can be read again where it was: a pipe or FIFO named on
            // the command line (`<(zcat …)`) cannot be read twice, and opening a FIFO again
            // would wait for a writer.
            let meta = f.metadata().ok();
            let regular = meta.as_ref().is_some_and(|m| m.is_file());
            let id = meta.as_ref().and_then(FileId::from_meta);
            let handle = if regular { f.try_clone().ok() } else { None };
            let (stream, zstd) = wrap_detect(Box::new(f))?;
            Ok((
                stream,
                (regular && !zstd).then(|| Reopen {
                    path: p.clone(),
                    id,
                    handle,
                }),
            ))
        }
    }
}

/// How to read a plain file again later: a second handle on it, opened with the first (it
/// reads the file even if it is moved or archived meanwhile), and its path and identity,
/// to open it again when the handle is not kept (see `reduce::SourceFile`).
#[derive(Debug)]
pub struct Reopen {
    path: PathBuf,
    id: Option<FileId>,
    handle: Option<File>,
}

impl Reopen {
    /// The second handle, once.
    pub fn take_handle(&mut self) -> Option<File> {
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

/// A file's identity (device and inode) where the platform has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

impl FileId {
    fn of(f: &File) -> Option<FileId> {
        FileId::from_meta(&f.metadata().ok()?)
    }

    fn from_meta(m: &std::fs::Metadata) -> Option<FileId> {
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

/// Open anything readable (used by tests and by `open`).
pub fn wrap(inner: Box<dyn Read + Send>) -> io::Result<Stream> {
    wrap_detect(inner).map(|(s, _)| s)
}

/// [`wrap`], saying whether the stream was zstd.
fn wrap_detect(inner: Box<dyn Read + Send>) -> io::Result<(Stream, bool)> {
    let mut rdr = PooledReader::new(inner);
    if is_zstd(rdr.peek_head()?) {
        let dec = zstd::stream::read::Decoder::with_buffer(rdr)?;
        Ok((Box::new(PooledReader::new(dec)), true))
    } else {
        Ok((Box::new(rdr), false))
    }
}

thread_local! {
    /// Read buffers given back by the readers this thread dropped.
    static SPARE_READ_BUFS: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A `BufReader` whose buffer is taken from, and given back to, a per-thread pool. A worker
/// goes through thousands of files: allocating and freeing a fresh buffer for each made the
/// allocator map and unmap memory, and every unmap stopped the other worker's CPU to flush
/// its TLB.
pub struct PooledReader<R> {
    inner: R,
    /// Always `READ_BUF` long (initialised once, when first allocated).
    buf: Vec<u8>,
    pos: usize,
    filled: usize,
}

impl<R> PooledReader<R> {
    pub fn new(inner: R) -> Self {
        let buf = SPARE_READ_BUFS
            .with(|p| p.borrow_mut().pop())
            .unwrap_or_else(|| vec![0; READ_BUF]);
        PooledReader {
            inner,
            buf,
            pos: 0,
            filled: 0,
        }
    }
}

impl<R> Drop for PooledReader<R> {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        SPARE_READ_BUFS.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < 4 {
                p.push(buf);
            }
        });
    }
}

impl<R: Read> PooledReader<R> {
    /// The first bytes of the stream, enough to tell zstd (fewer at its end, or when the
    /// source gives fewer at once). Only these few are buffered: the decoder's large reads
    /// then go straight from the source into its own buffer, instead of through this one.
    fn peek_head(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled {
            self.filled = self.inner.read(&mut self.buf[..ZSTD_MAGIC.len()])?;
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..self.filled])
    }
}

/// A read at least this large bypasses the buffer (once what it holds is handed out).
const DIRECT_READ: usize = 16 * 1024;

impl<R: Read> Read for PooledReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        // A large read with nothing buffered goes straight to the source, as BufReader's.
        // (The decoder reads 64 KiB and more at a time: copying every byte through this
        // buffer too cost 3% of `stats`' instructions.)
        if out.len() >= DIRECT_READ {
            if self.pos == self.filled {
                return self.inner.read(out);
            }
            // The few peeked bytes, then straight from the source in the same call. A failed
            // read consumed nothing: the next call meets the failure again.
            let n = self.filled - self.pos;
            if n < out.len() / 2 {
                out[..n].copy_from_slice(&self.buf[self.pos..self.filled]);
                self.pos = self.filled;
                return Ok(n + self.inner.read(&mut out[n..]).unwrap_or(0));
            }
        }
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for PooledReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled {
            self.filled = self.inner.read(&mut self.buf)?;
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.filled);
    }
}

/// Peek at the magic bytes without consuming them: a zstd frame (`28 B5 2F FD`) or a
/// skippable frame (`5? 2A 4D 18`, which a zstd stream may start with). A pipe may hand
/// over fewer than four bytes in its first read; a JSON rollout never starts with either
/// pair of first bytes, so two matching bytes are decisive.
fn is_zstd(head: &[u8]) -> bool {
    let n = head.len().min(ZSTD_MAGIC.len());
    if n < 2 {
        return false;
    }
    let frame = head[..n] == ZSTD_MAGIC[..n];
    let skippable = head[0] & 0xF0 == 0x50 && head[1..n] == SKIPPABLE_MAGIC_TAIL[..n - 1];
    frame || skippable
}

/// A short cause for an I/O error, without Rust's "(os error N)" suffix.
pub fn io_cause(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_file_opened_again_must_be_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-2026-01-01T00-00-00-x.jsonl");
        std::fs::write(&path, "{}\n").unwrap();
        let (_, reopen) = open_rereadable(&Source::File(path.clone())).unwrap();
        let reopen = reopen.expect("a plain file can be read again");
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

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_never_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-2026-01-01T00-00-00-x.jsonl");
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
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-2026-01-01T00-00-00-x.jsonl.zst");
        std::fs::write(&path, zstd::encode_all(&b"{}\n"[..], 3).unwrap()).unwrap();
        let (_, reopen) = open_rereadable(&Source::File(path)).unwrap();
        assert!(reopen.is_none());
    }

    #[test]
    fn rollout_names() {
        assert!(is_rollout_name("rollout-2026-01-01T00-00-00-x.jsonl"));
        assert!(is_rollout_name("rollout-x.jsonl.zst"));
        assert!(!is_rollout_name("notes.jsonl"));
        assert!(!is_rollout_name("rollout-x.json"));
    }

    #[test]
    fn plain_input_passes_through() {
        let mut s = wrap(Box::new(&b"{\"a\":1}\n"[..])).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert_eq!(out, "{\"a\":1}\n");
    }

    #[test]
    fn multi_frame_zstd_is_decoded_as_one_stream() {
        let mut data = zstd::encode_all(&b"line one\n"[..], 3).unwrap();
        data.extend(zstd::encode_all(&b"line two\n"[..], 3).unwrap());
        let mut s = wrap(Box::new(std::io::Cursor::new(data))).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert_eq!(out, "line one\nline two\n");
    }

    #[test]
    fn a_stream_starting_with_a_skippable_frame_is_zstd() {
        let mut data = vec![0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, b'x', b'y', b'z'];
        data.extend(zstd::encode_all(&b"line\n"[..], 3).unwrap());
        let mut s = wrap(Box::new(std::io::Cursor::new(data))).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert_eq!(out, "line\n");
    }

    #[test]
    fn stdin_is_listed_once() {
        let d = discover(&[PathBuf::from("-"), PathBuf::from("-")], None);
        assert_eq!(d.sources, vec![Source::Stdin]);
    }

    #[test]
    fn walk_prefers_plain_twin_and_sorts() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("2026/01/02");
        std::fs::create_dir_all(&d).unwrap();
        for n in [
            "rollout-b.jsonl",
            "rollout-b.jsonl.zst",
            "rollout-a.jsonl.zst",
            "other.txt",
        ] {
            std::fs::write(d.join(n), b"").unwrap();
        }
        let mut errors = Vec::new();
        let got: Vec<String> = walk(dir.path(), &mut errors)
            .iter()
            .map(|s| {
                s.path()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(got, ["rollout-a.jsonl.zst", "rollout-b.jsonl"]);
        assert!(errors.is_empty());
    }
}
