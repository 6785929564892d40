//! The digest of a line's bytes, for a finding's fingerprint (SARIF's
//! `partialFingerprints`): what the line holds, not where it lies, so a fingerprint
//! survives lines inserted above it.
//!
//! SHA-256 of the line without its ending (`\n`, `\r\n`), cut to 128 bits. Lines are read
//! back after the pass: a plain file's at their offsets (no second pass over it), a
//! compressed one's by decompressing it again up to the last line wanted. Standard input,
//! and anything that is not a regular file (a FIFO would wait for a writer), cannot be read
//! again: their lines have no digest.

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};

use sha2::{Digest, Sha256};

use super::Source;

/// A line's digest: the first 16 bytes of the SHA-256 of its bytes.
pub type LineDigest = [u8; 16];

/// The digest of the line starting at each of `offsets` (byte offsets in the decoded
/// stream, in any order), aligned with them; `None` for a line that cannot be read again
/// (or lies past the end of the file as it is now).
pub fn line_digests(source: &Source, offsets: &[u64]) -> Vec<Option<LineDigest>> {
    if offsets.is_empty() {
        return Vec::new();
    }
    let Source::File(path) = source else {
        return vec![None; offsets.len()];
    };
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return vec![None; offsets.len()];
    }
    let read = match super::reopen(source) {
        Ok(Some(plain)) => plain.open().and_then(|f| at_offsets(f, offsets)),
        Ok(None) => super::open(source).and_then(|s| in_stream(s, offsets)),
        Err(e) => Err(e),
    };
    read.unwrap_or_else(|_| vec![None; offsets.len()])
}

/// A plain file's lines, each read from its offset.
fn at_offsets(file: std::fs::File, offsets: &[u64]) -> io::Result<Vec<Option<LineDigest>>> {
    let mut r = BufReader::with_capacity(64 * 1024, file);
    let mut out = Vec::with_capacity(offsets.len());
    for &offset in offsets {
        r.seek(SeekFrom::Start(offset))?;
        out.push(digest_line(&mut r)?);
    }
    Ok(out)
}

/// A stream's lines, read in one pass up to the last offset wanted.
fn in_stream(mut s: impl BufRead, offsets: &[u64]) -> io::Result<Vec<Option<LineDigest>>> {
    let mut wanted: Vec<u64> = offsets.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    let mut found = std::collections::HashMap::with_capacity(wanted.len());
    let mut at = 0u64;
    for &offset in &wanted {
        // Skip to the offset (a line start: findings point at lines).
        while at < offset {
            let buf = s.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let n = buf
                .len()
                .min(usize::try_from(offset - at).unwrap_or(usize::MAX));
            s.consume(n);
            at += n as u64;
        }
        if at < offset {
            break;
        }
        let mut counted = Counted {
            inner: &mut s,
            n: 0,
        };
        let digest = digest_line(&mut counted)?;
        at += counted.n;
        found.insert(offset, digest);
    }
    Ok(offsets
        .iter()
        .map(|o| found.get(o).copied().flatten())
        .collect())
}

/// The digest of the line the reader is at: its bytes to the next `\n` (or the end),
/// without the ending; `None` at the end of the input.
fn digest_line(r: &mut impl BufRead) -> io::Result<Option<LineDigest>> {
    let mut hash = Sha256::new();
    let mut any = false;
    // A `\r` that ended a read is held back until the next byte is known: before `\n` it
    // is the line's ending, before anything else its content.
    let mut pending_cr = false;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        if let Some((body, _)) = memchr::memchr(b'\n', buf).and_then(|k| Some((buf.get(..k)?, k))) {
            let k = body.len();
            if pending_cr && k > 0 {
                hash.update(b"\r");
            }
            hash.update(body.strip_suffix(b"\r").unwrap_or(body));
            r.consume(k + 1);
            return Ok(Some(finish(hash)));
        }
        if pending_cr {
            hash.update(b"\r");
        }
        let n = buf.len();
        let (body, cr) = match buf.strip_suffix(b"\r") {
            Some(body) => (body, true),
            None => (buf, false),
        };
        pending_cr = cr;
        hash.update(body);
        r.consume(n);
    }
    if pending_cr {
        // A `\r` at the very end of the input, with no `\n` after it, is the line's own.
        hash.update(b"\r");
    }
    Ok(any.then(|| finish(hash)))
}

fn finish(hash: Sha256) -> LineDigest {
    let full: [u8; 32] = hash.finalize().into();
    let mut d = [0u8; 16];
    for (to, from) in d.iter_mut().zip(full) {
        *to = from;
    }
    d
}

/// A reader that counts what is consumed through it.
struct Counted<'a, R> {
    inner: &'a mut R,
    n: u64,
}

impl<R: BufRead> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.n += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.n += n as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &[u8]) -> Option<LineDigest> {
        digest_line(&mut io::Cursor::new(text)).unwrap()
    }

    #[test]
    fn a_line_is_its_bytes_without_its_ending() {
        let plain = of(b"{\"a\":1}");
        assert!(plain.is_some());
        assert_eq!(of(b"{\"a\":1}\n"), plain);
        assert_eq!(of(b"{\"a\":1}\r\n"), plain);
        assert_eq!(of(b"{\"a\":1}\nnext\n"), plain);
        assert_ne!(of(b"{\"a\":2}\n"), plain);
        assert_ne!(
            of(b"{\"a\":1}\r"),
            plain,
            "a lone \\r at the end is content"
        );
        assert_eq!(of(b""), None, "no line at the end of the input");
        assert_eq!(
            of(b"\n"),
            Some(finish(Sha256::new())),
            "an empty line is one"
        );
        let full = Sha256::digest(b"{\"a\":1}");
        assert_eq!(plain.unwrap()[..], full[..16]);
    }

    #[test]
    fn a_cr_split_from_its_newline_across_reads_is_still_the_ending() {
        // A one-byte buffer: `\r` and `\n` come in two reads.
        let mut r = BufReader::with_capacity(1, io::Cursor::new(b"ab\r\ncd\n".to_vec()));
        assert_eq!(digest_line(&mut r).unwrap(), of(b"ab"));
        assert_eq!(digest_line(&mut r).unwrap(), of(b"cd"));
        let mut r = BufReader::with_capacity(1, io::Cursor::new(b"a\rb\n".to_vec()));
        assert_eq!(digest_line(&mut r).unwrap(), of(b"a\rb"));
    }

    #[test]
    fn plain_and_compressed_files_give_the_same_digests_and_stdin_none() {
        let dir = tempfile::tempdir().unwrap();
        let text = b"first\n{\"x\":1}\r\n\nlast";
        let plain = dir.path().join("a.jsonl");
        std::fs::write(&plain, text).unwrap();
        let packed = dir.path().join("a.jsonl.zst");
        std::fs::write(&packed, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
        let offsets = [15, 0, 6, 16, 99];
        let empty = Some(finish(Sha256::new()));
        let want = vec![empty, of(b"first"), of(b"{\"x\":1}"), of(b"last"), None];
        assert_eq!(line_digests(&Source::File(plain), &offsets), want);
        assert_eq!(line_digests(&Source::File(packed), &offsets), want);
        assert_eq!(line_digests(&Source::Stdin, &[0]), vec![None]);
    }
}
