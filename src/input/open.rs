//! Opening a source as a buffered byte stream, decompressing zstd (detected from the magic
//! bytes, never the name) as a stream, multi-frame files included.

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::sync::Arc;

use crate::input::reread::{FileId, Reopen};
use crate::input::Source;

/// zstd frame magic number, little-endian `0xFD2FB528`.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
/// The last three bytes of a zstd skippable frame's magic (`0x184D2A5?`, little-endian).
const SKIPPABLE_MAGIC_TAIL: [u8; 3] = [0x2A, 0x4D, 0x18];
/// Read buffer size for files.
const READ_BUF: usize = 256 * 1024;

/// A readable, buffered, decompressed stream.
pub type Stream = Box<dyn BufRead + Send>;

/// Open a source; zstd is detected from the first four bytes.
pub fn open(source: &Source) -> io::Result<Stream> {
    match source {
        Source::Stdin => wrap(Box::new(io::stdin())),
        Source::File(p) => {
            let f = File::open(p)?;
            super::tally::pass(p);
            wrap(Box::new(f))
        }
    }
}

/// Open a file to read its head only (a lineage source's `session_meta`): not a pass over
/// it, so not tallied as one.
pub fn open_head(path: &Path) -> io::Result<Stream> {
    wrap(Box::new(File::open(path)?))
}

/// Open a source, and for a plain (not compressed) file a second handle on it: the decoded
/// stream's offsets are then the file's own, so a part of a line can be read again later.
pub fn open_rereadable(source: &Source) -> io::Result<(Stream, Option<Reopen>)> {
    match source {
        Source::Stdin => Ok((wrap(Box::new(io::stdin()))?, None)),
        Source::File(p) => {
            let f = File::open(p)?;
            super::tally::pass(p);
            // Only a regular file can be read again where it was: a pipe or FIFO named on
            // the command line (`<(zcat …)`) cannot be read twice, and opening a FIFO again
            // would wait for a writer.
            let meta = f.metadata().ok();
            let regular = meta.as_ref().is_some_and(|m| m.is_file());
            let id = meta.as_ref().and_then(FileId::from_meta);
            let f = Arc::new(f);
            let handle = if regular { second_handle(&f) } else { None };
            let (stream, zstd) = wrap_detect(Box::new(Shared(f)))?;
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

/// A handle to read parts of a plain file back, without a stream over it: what a reader
/// that is mid-pass over the file needs to look at lines it already passed (not a pass,
/// so not tallied). `None` for standard input, a compressed file, or anything but a
/// regular file.
pub fn reopen(source: &Source) -> io::Result<Option<Reopen>> {
    let Source::File(p) = source else {
        return Ok(None);
    };
    let f = File::open(p)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Ok(None);
    }
    // Parts are read back at their offsets: where this leaves the cursor does not matter.
    let mut head = Vec::with_capacity(ZSTD_MAGIC.len());
    (&f).take(ZSTD_MAGIC.len() as u64).read_to_end(&mut head)?;
    if is_zstd(&head) {
        return Ok(None);
    }
    Ok(Some(Reopen {
        path: p.clone(),
        id: FileId::from_meta(&meta),
        handle: Some(Arc::new(f)),
    }))
}

/// A file read through a handle it shares with its [`Reopen`].
struct Shared(Arc<File>);

impl Read for Shared {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        (&*self.0).read(buf)
    }
}

/// The handle a [`Reopen`] reads parts of the file through. On Unix, the stream's own: a
/// part is read at its offset (`pread`), which leaves the stream's place alone, and a
/// descriptor duplicated for each file was two system calls of `lint`'s thirteen over a
/// chain of small forks. Elsewhere a handle of its own, as Windows' positioned read moves
/// the handle's place.
fn second_handle(f: &Arc<File>) -> Option<Arc<File>> {
    if cfg!(unix) {
        Some(Arc::clone(f))
    } else {
        f.try_clone().ok().map(Arc::new)
    }
}

/// Whether `source` is a regular file whose bytes are zstd (its lines and offsets are those
/// of the stream it decompresses to); false for anything that cannot be looked at.
pub fn is_compressed(source: &Source) -> bool {
    let Source::File(p) = source else {
        return false;
    };
    // Looked at before it is opened: opening a FIFO would wait for a writer.
    if !std::fs::metadata(p).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(f) = File::open(p) else {
        return false;
    };
    let mut head = Vec::with_capacity(ZSTD_MAGIC.len());
    (&f).take(ZSTD_MAGIC.len() as u64)
        .read_to_end(&mut head)
        .is_ok_and(|_| is_zstd(&head))
}

/// Whether standard input is something a user piped or redirected in (a pipe, a socket, a
/// file), not a terminal nor nothing at all (`/dev/null`, closed).
pub fn stdin_is_given() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        let Ok(meta) = File::from(fd).metadata() else {
            return false;
        };
        let t = meta.file_type();
        t.is_fifo() || t.is_socket() || t.is_file()
    }
    #[cfg(not(unix))]
    {
        use std::io::IsTerminal;
        !io::stdin().is_terminal()
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
        Ok((Box::new(PooledReader::new(Unpacking(dec))), true))
    } else {
        Ok((Box::new(rdr), false))
    }
}

/// A zstd stream whose decompression errors say so: an error the decoder makes itself (a
/// truncated frame, bytes that are no frame, a corrupt block) carries no OS error code, and
/// is marked [`Corrupt`]; a read error of the file beneath passes as it is.
struct Unpacking<R>(R);

impl<R: Read> Read for Unpacking<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            if e.raw_os_error().is_none() && !is_corrupt_compression(&e) {
                io::Error::new(e.kind(), Corrupt(e.to_string()))
            } else {
                e
            }
        })
    }
}

/// A compressed stream that cannot be decompressed: its decoder's message.
#[derive(Debug)]
struct Corrupt(String);

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Corrupt {}

/// Whether a read error is the compressed stream's own (it cannot be decompressed), not the
/// file's.
pub fn is_corrupt_compression(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Corrupt>())
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
    /// The first bytes of the stream, to tell zstd by (fewer than its magic number at its
    /// end, or when the source gives fewer at once). Up to [`DIRECT_READ`] bytes are read
    /// for it: a rollout that short (a fork of a few lines) is then read whole in this one
    /// read, where asking for the magic number alone took a read more of every file. A
    /// longer one's next reads go straight from the source into the decoder's buffer.
    #[allow(
        clippy::indexing_slicing,
        reason = "`buf` is `READ_BUF` long, and `pos <= filled <= buf.len()` (see `fill_buf`)"
    )]
    fn peek_head(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled {
            self.filled = self.inner.read(&mut self.buf[..DIRECT_READ])?;
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..self.filled])
    }
}

/// A read at least this large bypasses the buffer (once what it holds is handed out); the
/// head is peeked with a read this large.
const DIRECT_READ: usize = 16 * 1024;

impl<R: Read> Read for PooledReader<R> {
    #[allow(
        clippy::indexing_slicing,
        reason = "`pos <= filled <= buf.len()` (see `fill_buf`); `n` is at most `out.len()`"
    )]
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        // A large read with nothing buffered goes straight to the source, as BufReader's:
        // the decoder reads 64 KiB and more at a time, and copying every byte through this
        // buffer too was a cost of its own. What is buffered (the peeked head) is handed
        // out first, alone: a short file's next read is its end.
        if out.len() >= DIRECT_READ && self.pos == self.filled {
            return self.inner.read(out);
        }
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for PooledReader<R> {
    // `filled` is only ever what a read into `buf` returned (a `Read` returns at most the
    // length it is given), `pos` only 0 or a value clamped to `filled`.
    #[allow(clippy::indexing_slicing, reason = "`pos <= filled <= buf.len()`")]
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
    let head = head.get(..ZSTD_MAGIC.len()).unwrap_or(head);
    let [first, tail @ ..] = head else {
        return false;
    };
    if tail.is_empty() {
        return false;
    }
    let frame = ZSTD_MAGIC.starts_with(head);
    let skippable = first & 0xF0 == 0x50 && SKIPPABLE_MAGIC_TAIL.starts_with(tail);
    frame || skippable
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_reopen_for_reading_back_is_had_for_a_plain_file_only() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("a.jsonl");
        std::fs::write(&plain, b"{\"a\":1}\n").unwrap();
        let packed = dir.path().join("a.jsonl.zst");
        std::fs::write(&packed, zstd::encode_all(&b"{\"a\":1}\n"[..], 3).unwrap()).unwrap();
        assert!(reopen(&Source::File(plain)).unwrap().is_some());
        assert!(reopen(&Source::File(packed)).unwrap().is_none());
        assert!(reopen(&Source::File(dir.path().to_path_buf()))
            .unwrap()
            .is_none());
        assert!(reopen(&Source::Stdin).unwrap().is_none());
        assert!(reopen(&Source::File(dir.path().join("missing"))).is_err());
    }

    /// A reader that counts the reads it is asked for.
    struct Counted(
        io::Cursor<Vec<u8>>,
        std::sync::Arc<std::sync::atomic::AtomicUsize>,
    );

    impl Read for Counted {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.0.read(out)
        }
    }

    #[test]
    fn a_short_file_is_read_in_its_head_s_read_and_one_for_its_end() {
        let reads = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let short = "{\"a\":1}\n".repeat(100);
        let long = "{\"a\":1}\n".repeat(30_000);
        for (text, most) in [(&short, 2), (&long, 2 + long.len() / (64 * 1024) + 1)] {
            reads.store(0, std::sync::atomic::Ordering::Relaxed);
            let bytes = io::Cursor::new(text.as_bytes().to_vec());
            let s = wrap(Box::new(Counted(bytes, reads.clone()))).unwrap();
            let mut d = crate::decode::Decoder::new(s);
            let mut lines = 0;
            while let Some(e) = d.next() {
                assert!(e.is_ok());
                lines += 1;
            }
            assert_eq!(lines, text.len() / 8);
            let n = reads.load(std::sync::atomic::Ordering::Relaxed);
            assert!(n <= most, "{n} reads of {} bytes", text.len());
        }
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
}
