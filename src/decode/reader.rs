//! The streaming [`Decoder`]: one buffer of its own, reused from file to file on a thread,
//! cut into lines that are decoded where they lie.

use std::io::{self, BufRead};

use super::envelope::decode_indexed;
use super::{
    chars_in, ordinal_hint, scan, BadLine, DecodeError, Entry, Line, Pos, StreamInfo,
    DEFAULT_MAX_LINE_BYTES,
};

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
/// The buffers a thread keeps for its next decoders hold at most this many bytes in all.
const KEEP_SPARE: usize = 8 * 1024 * 1024;
/// A thread keeps at most this many buffers: one for the file it reads, more for the
/// sources a lineage reader reads while that file's decoder is open.
const SPARES: usize = 4;

thread_local! {
    /// The buffers of the thread's dropped decoders, smallest first. A worker reading
    /// thousands of files reuses them instead of faulting in fresh (zeroed) pages for each
    /// file; and a lineage reader, which reads a fork's source while the fork's own decoder
    /// is open, takes a second one instead of zeroing a new buffer for every source (a
    /// fifth of `lint` over a chain of small forks).
    static SPARE_BUFS: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
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
    /// The current record's payload members (see
    /// [`Record::payload_fields`](super::Record::payload_fields)).
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
            fields: Vec::new(),
        }
    }

    /// Lines longer than this many bytes are reported and skipped without being buffered.
    pub fn max_line_bytes(mut self, limit: usize) -> Self {
        self.max_line = limit.max(1);
        self
    }

    /// A stream that begins at `at` in a file (a line's start): its lines are numbered
    /// and its offsets counted from there, as a stream of the whole file would number and
    /// count them (a BOM is looked for on line 1 only).
    pub fn starting_at(mut self, at: Pos) -> Self {
        self.info.lines = at.line.saturating_sub(1);
        self.info.bytes = at.offset;
        self
    }

    pub fn info(&self) -> &StreamInfo {
        &self.info
    }

    /// Read more after `end`: first move the unfinished line to the front, or grow the
    /// buffer when the line fills it. Sets `eof` at the end of the stream.
    #[allow(
        clippy::indexing_slicing,
        reason = "`start <= end <= buf.len()`, `room <= buf.len() - end`, and a read returns at most `room`"
    )]
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
        // cost more than reading it (`docs/performance.md`, third pass).
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
    /// holding no more of it than one read. Returns what is known of it.
    #[allow(
        clippy::indexing_slicing,
        reason = "`n` is what a read into `buf` returned, so at most its length; `start <= end`"
    )]
    fn skip_long_line(&mut self) -> io::Result<Skipped> {
        let mut len = (self.end - self.start) as u64;
        let mut chars = chars_in(&self.buf[self.start..self.end]);
        let mut last = self.buf[self.start..self.end].last().copied();
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
                return Ok(Skipped {
                    len,
                    newline: false,
                    cr: last == Some(b'\r'),
                    chars,
                });
            }
            if let Some(k) = memchr::memchr(b'\n', &self.buf[..n]) {
                self.start = k + 1;
                self.scanned = k + 1;
                self.end = n;
                self.lines_end = memchr::memrchr(b'\n', &self.buf[..n]).map_or(0, |j| j + 1);
                let rest = &self.buf[..k];
                return Ok(Skipped {
                    len: len + k as u64,
                    newline: true,
                    cr: rest.last().or(last.as_ref()) == Some(&b'\r'),
                    chars: chars + chars_in(rest),
                });
            }
            chars += chars_in(&self.buf[..n]);
            last = self.buf[..n].last().copied();
            len += n as u64;
        }
    }

    /// The next entry, or `None` at the end of the stream. An `Err` is an I/O failure of the
    /// stream itself (it ends this input, not the run).
    // Kept out of its callers' loops: inlined into the pass's loop, it cost more instructions
    // per line than the call saves (`docs/performance.md`, fifth pass).
    #[allow(clippy::should_implement_trait)]
    #[inline(never)]
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
            // Here and below: `start <= scanned <= end <= buf.len()` (the fields' invariant),
            // and a line's end is a `\n` found in `buf[start..end]`, so before `end`.
            #[allow(clippy::indexing_slicing, reason = "`start <= end <= buf.len()`")]
            let scanned = fresh
                .then(|| scan::scan_in_buffer(&self.buf[self.start..self.end], &mut self.fields))
                .flatten();
            if let Some((p, k)) = scanned {
                let (from, nl) = (self.start, self.start + k);
                self.start = nl + 1;
                self.scanned = nl + 1;
                self.info.bytes += k as u64 + 1;
                if k > self.max_line {
                    #[allow(clippy::indexing_slicing, reason = "`from..nl` is in `buf`")]
                    let line = Skipped::of(&self.buf[from..nl], true);
                    return Some(Ok(self.too_long(line, offset)));
                }
                parts = Some(p);
                break (from, nl, true);
            }
            #[allow(clippy::indexing_slicing, reason = "`scanned <= end <= buf.len()`")]
            let newline = memchr::memchr(b'\n', &self.buf[self.scanned..self.end]);
            if let Some(k) = newline {
                let nl = self.scanned + k;
                let from = self.start;
                self.start = nl + 1;
                self.scanned = nl + 1;
                self.info.bytes += (nl - from) as u64 + 1;
                if nl - from > self.max_line {
                    #[allow(clippy::indexing_slicing, reason = "`from..nl` is in `buf`")]
                    let line = Skipped::of(&self.buf[from..nl], true);
                    return Some(Ok(self.too_long(line, offset)));
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
                    #[allow(clippy::indexing_slicing, reason = "`from..to` is in `buf`")]
                    let line = Skipped::of(&self.buf[from..to], false);
                    return Some(Ok(self.too_long(line, offset)));
                }
                break (from, to, false);
            }
            if self.end - self.start > self.max_line {
                let line = match self.skip_long_line() {
                    Ok(r) => r,
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                };
                self.info.bytes += line.len + line.newline as u64;
                return Some(Ok(self.too_long(line, offset)));
            }
            if let Err(e) = self.fill() {
                self.done = true;
                return Some(Err(e));
            }
        };
        #[allow(
            clippy::indexing_slicing,
            reason = "`from..to` is a line of `buf[start..end]`, cut above"
        )]
        let line = &self.buf[from..to];
        Some(Ok(line_entry(
            line,
            newline,
            offset,
            &mut self.info,
            &mut self.fields,
            parts,
        )))
    }

    /// A line longer than `max_line` (already skipped and counted in `info.bytes`).
    fn too_long(&mut self, line: Skipped, offset: u64) -> Entry<'static> {
        self.info.lines += 1;
        Entry::Bad(BadLine {
            pos: Pos {
                line: self.info.lines,
                offset,
            },
            len: line.len - u64::from(line.cr),
            eol: u8::from(line.cr) + u8::from(line.newline),
            chars: line.chars - u64::from(line.cr),
            error: DecodeError::TooLong {
                len: line.len,
                limit: self.max_line,
            },
            torn: false,
            ordinal_hint: None,
        })
    }
}

/// What is known of a line skipped unread: its length (without its `\n`), whether a `\n`
/// ended it and a `\r` came before that, and its characters (the `\r` among them).
struct Skipped {
    len: u64,
    newline: bool,
    cr: bool,
    chars: u64,
}

impl Skipped {
    /// A line that lies whole in the buffer.
    fn of(line: &[u8], newline: bool) -> Skipped {
        Skipped {
            len: line.len() as u64,
            newline,
            cr: line.last() == Some(&b'\r'),
            chars: chars_in(line),
        }
    }
}

impl<R> Drop for Decoder<R> {
    fn drop(&mut self) {
        // Kept initialised (its length): the next decoder does not zero it again.
        give_back(std::mem::take(&mut self.buf));
    }
}

/// The thread's largest spare buffer, or a new one.
fn spare_buf() -> Vec<u8> {
    let mut buf = SPARE_BUFS
        .try_with(|p| p.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default();
    if buf.len() < INITIAL_BUF {
        buf.resize(INITIAL_BUF, 0);
    }
    buf
}

/// Keep `buf` for the thread's next decoder: the largest [`SPARES`] buffers that hold at
/// most [`KEEP_SPARE`] bytes together (the largest alone when it fills them).
fn give_back(buf: Vec<u8>) {
    if buf.capacity() == 0 || buf.capacity() > KEEP_SPARE {
        return;
    }
    let _ = SPARE_BUFS.try_with(|p| {
        let mut p = p.borrow_mut();
        let at = p.partition_point(|b| b.capacity() < buf.capacity());
        p.insert(at, buf);
        while p.len() > SPARES
            || (p.len() > 1 && p.iter().map(Vec::capacity).sum::<usize>() > KEEP_SPARE)
        {
            p.remove(0);
        }
    });
}

/// Classify one physical line (without its `\n`) and decode it.
fn line_entry<'a>(
    line: &'a [u8],
    newline: bool,
    offset: u64,
    info: &mut StreamInfo,
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
    let (mut start, mut bytes) = (0, line);
    if pos.line == 1 {
        if let Some(rest) = line.strip_prefix(BOM) {
            info.bom = true;
            (start, bytes) = (BOM.len(), rest);
        }
    }
    let mut cr = false;
    if let Some(rest) = bytes.strip_suffix(b"\r") {
        info.crlf_lines += 1;
        bytes = rest;
        cr = true;
    }
    let eol = u8::from(cr) + u8::from(newline);
    // The whole line, counted (for a blank or a bad line: few, and short or reported).
    let whole = || Line {
        pos,
        len: (start + bytes.len()) as u64,
        eol,
        chars: Some(u64::from(start > 0) + chars_in(bytes)),
    };
    if bytes.iter().all(|b| b.is_ascii_whitespace()) || is_unicode_blank(bytes) {
        return Entry::Blank(whole());
    }
    let torn = !newline;
    match decode_indexed(bytes, pos, Some(fields), scanned) {
        Ok(mut rec) => {
            rec.raw_offset += start as u64;
            rec.eol = eol;
            info.records += 1;
            Entry::Record(rec)
        }
        Err(error) => {
            let line = whole();
            Entry::Bad(BadLine {
                pos,
                len: line.len,
                eol,
                chars: line.chars.unwrap_or_default(),
                ordinal_hint: ordinal_hint(bytes),
                error,
                torn,
            })
        }
    }
}

/// Blank as Codex sees it (`line.trim().is_empty()`): only Unicode white space, such as a
/// vertical tab or a no-break space. Checked only for lines that cannot be JSON objects.
fn is_unicode_blank(bytes: &[u8]) -> bool {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    first.is_some_and(|&b| b != b'{')
        && std::str::from_utf8(bytes).is_ok_and(|t| t.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::outcome;
    use crate::decode::tests::{entries, testdata_lines, GOOD};

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
    fn a_line_says_its_length_ending_and_characters() {
        let long = format!(
            r#"{{"timestamp":"t","type":"x","payload":{{"s":"{}"}}}}"#,
            "é".repeat(40)
        );
        let input = format!("\u{feff}{GOOD}\r\n  \n{{\"bad\": \"ü\"\n{long}\n{GOOD}");
        let mut d = Decoder::new(input.as_bytes()).max_line_bytes(100);
        let mut got = Vec::new();
        while let Some(e) = d.next() {
            let l = match e.unwrap() {
                Entry::Record(r) => r.line(),
                Entry::Blank(l) => l,
                Entry::Bad(b) => b.line(),
            };
            got.push((l.pos.line, l.len, l.eol, l.chars));
        }
        let good = GOOD.len() as u64;
        assert_eq!(
            got,
            [
                // The BOM is three bytes and one character; `\r\n` ends the line.
                (1, good + 3, 2, Some(good + 1)),
                (2, 2, 1, Some(2)),
                // A bad line counts its characters too.
                (3, 12, 1, Some(11)),
                // A line skipped as too long, `é` two bytes each.
                (4, long.len() as u64, 1, Some(long.len() as u64 - 40)),
                // The last line, unterminated.
                (5, good, 0, Some(good)),
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

    /// A stream begun at a line's start numbers its lines and counts its offsets as the
    /// whole file's stream does.
    #[test]
    fn a_stream_begun_mid_file_numbers_and_counts_as_the_whole_file() {
        let text = b"{\"type\":\"a\",\"payload\":{}}\r\n\n{\"type\":\"b\",\"payload\":{}}\nnot json\n{\"type\":\"c\",\"payload\":{}}";
        let positions = |mut d: Decoder<&[u8]>| {
            let mut out = Vec::new();
            while let Some(Ok(e)) = d.next() {
                out.push(match e {
                    Entry::Record(r) => r.pos,
                    Entry::Bad(b) => b.pos,
                    Entry::Blank(l) => l.pos,
                });
            }
            (out, d.info().bytes)
        };
        let (whole, bytes) = positions(Decoder::new(&text[..]));
        for k in 0..whole.len() {
            let at = whole[k];
            let rest = &text[at.offset as usize..];
            let (from, end) = positions(Decoder::new(rest).starting_at(at));
            assert_eq!(from, whole[k..], "from line {}", at.line);
            assert_eq!(end, bytes);
        }
    }

    #[test]
    fn bom_is_stripped_and_reported_in_info() {
        let input = format!("\u{feff}{GOOD}\n");
        let mut d = Decoder::new(input.as_bytes());
        while d.next().is_some() {}
        assert!(d.info().bom);
    }

    #[test]
    fn unicode_white_space_lines_are_blank() {
        assert_eq!(
            entries("\u{b}\n\u{a0} \n".as_bytes()),
            ["1@0 blank", "2@2 blank"]
        );
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
    fn nested_decoders_reuse_the_buffers_of_the_last_ones_within_the_bound() {
        // A lineage reader opens a source's decoder while the fork's own is open: the
        // next file's two decoders get both buffers back, not one and a fresh one.
        let input = format!("{GOOD}\n");
        let read = |d: &mut Decoder<std::io::Cursor<&[u8]>>| while d.next().is_some() {};
        std::thread::spawn(move || {
            let mut outer = Decoder::new(std::io::Cursor::new(input.as_bytes()));
            let mut inner = Decoder::new(std::io::Cursor::new(input.as_bytes()));
            read(&mut outer);
            read(&mut inner);
            let mut had = [outer.buf.as_ptr(), inner.buf.as_ptr()];
            drop((inner, outer));
            let outer = Decoder::new(std::io::Cursor::new(input.as_bytes()));
            let inner = Decoder::new(std::io::Cursor::new(input.as_bytes()));
            let mut got = [outer.buf.as_ptr(), inner.buf.as_ptr()];
            had.sort();
            got.sort();
            assert_eq!(got, had);
            // Kept: at most SPARES buffers, at most KEEP_SPARE bytes (one larger alone).
            let many: Vec<_> = (0..SPARES + 2)
                .map(|_| Decoder::new(std::io::Cursor::new(input.as_bytes())))
                .collect();
            drop((many, inner, outer));
            assert_eq!(SPARE_BUFS.with(|p| p.borrow().len()), SPARES);
            give_back(vec![0; KEEP_SPARE - INITIAL_BUF]);
            let kept =
                SPARE_BUFS.with(|p| p.borrow().iter().map(Vec::capacity).collect::<Vec<_>>());
            assert!(kept.iter().sum::<usize>() <= KEEP_SPARE, "{kept:?}");
            assert_eq!(kept.last(), Some(&(KEEP_SPARE - INITIAL_BUF)));
            give_back(vec![0; KEEP_SPARE + 1]);
            assert!(SPARE_BUFS.with(|p| p.borrow().iter().all(|b| b.capacity() <= KEEP_SPARE)));
        })
        .join()
        .unwrap();
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
                Entry::Blank(l) => format!("{}@{} blank", l.pos.line, l.pos.offset),
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
                            format!("{place} {}", outcome(&Ok(r)))
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
        let mut rnd = crate::testkit::xorshift(0x1319_8a2e_0370_7344u64);
        let mut files = 0;
        for path in crate::testkit::jsonl_files("") {
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
                            let ins = crate::testkit::fragment(&mut rnd);
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
}
