//! The reducer core: one loop over sources and entries, shared by every subcommand.
//!
//! A [`Reducer`] is fed each entry of one file, in order, beside the [`SessionTracker`] that
//! knows the file's identity and which records are its own. [`drive`] runs one reducer per
//! file, in parallel across files, and hands each [`FileReport`] to a sink **in input
//! order**, whatever the number of threads: output is identical for `-j 1` and `-j N`.
//!
//! Reducers are pure: no I/O, no printing, nothing from clap.

pub mod calls;
pub mod lineage;
pub mod ordinal;
pub mod session;
pub mod stats;
pub mod tokens;
pub mod turns;

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use crate::decode::{BadLine, Decoder, Entry, Pos, Record, StreamInfo};
use crate::input::{self, Source};
use session::{SessionInfo, SessionTracker};

/// A per-file fold over decoded entries.
pub trait Reducer: Send {
    type Output: Send;
    /// A decoded record; `session` has already observed it.
    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker);
    /// A rejected line (it is also collected in the report).
    fn bad(&mut self, _bad: &BadLine) {}
    /// A blank line.
    fn blank(&mut self, _pos: Pos) {}
    /// The end of the file (or of what could be read of it).
    fn finish(self, session: &SessionTracker, info: &StreamInfo) -> Self::Output;
    /// Called before the first entry when the input is a plain file that can be read again
    /// at the offsets its records give ([`Record::stream_offset_of`]). Return `true` to keep
    /// it open in the report ([`FileReport::file`]): a reducer may then hold where a large
    /// text lies instead of the text, and the output layer reads it when it writes the row.
    fn reread_file(&mut self) -> bool {
        false
    }
    /// Whether [`Reducer::reread_file`] may say yes: only then is a second handle on each
    /// file opened.
    const MAY_REREAD: bool = false;
    /// Asked at the end, when [`Reducer::reread_file`] said yes: whether the output points
    /// into the file (else the report does not offer it for reading again).
    fn points_into_file(&self) -> bool {
        true
    }
}

/// A plain file whose lines can be read again in part (see [`Reducer::reread_file`]).
///
/// Up to [`MAX_HELD`] of them keep the handle opened with the file, so their texts are read
/// even if the file is moved or archived before its rows are written (as Codex archives a
/// session). Reports wait in the reorder window by the hundred, and an open file each ran
/// into the limit on open files (256 by default on macOS): past that many, a file is opened
/// again by its path when first read, and must be the same file.
#[derive(Debug)]
pub struct SourceFile {
    reopen: input::Reopen,
    held: bool,
    file: std::sync::OnceLock<Result<std::fs::File, (io::ErrorKind, String)>>,
}

/// How many [`SourceFile`]s keep their handle open at once.
const MAX_HELD: usize = 8;
static HELD: AtomicUsize = AtomicUsize::new(0);

impl SourceFile {
    fn new(mut reopen: input::Reopen) -> SourceFile {
        let file = std::sync::OnceLock::new();
        let handle = reopen.take_handle().and_then(|f| {
            if HELD.fetch_add(1, Ordering::Relaxed) < MAX_HELD {
                Some(f)
            } else {
                HELD.fetch_sub(1, Ordering::Relaxed);
                None
            }
        });
        let held = handle.is_some();
        if let Some(f) = handle {
            let _ = file.set(Ok(f));
        }
        SourceFile { reopen, held, file }
    }

    /// Append the `len` bytes at `offset` to `buf`. A file that shrank since it was read is
    /// an error (`UnexpectedEof`).
    pub fn read_at(&self, offset: u64, len: usize, buf: &mut Vec<u8>) -> io::Result<()> {
        let file = self
            .file
            .get_or_init(|| {
                self.reopen
                    .open()
                    .map_err(|e| (e.kind(), input::io_cause(&e)))
            })
            .as_ref()
            .map_err(|(kind, cause)| io::Error::new(*kind, cause.clone()))?;
        let from = buf.len();
        buf.resize(from + len, 0);
        let r = read_exact_at(file, &mut buf[from..], offset);
        if r.is_err() {
            buf.truncate(from);
        }
        r
    }
}

impl Drop for SourceFile {
    fn drop(&mut self) {
        if self.held {
            HELD.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

#[cfg(unix)]
fn read_exact_at(f: &std::fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(f: &std::fs::File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
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

/// Everything one file produced.
#[derive(Debug)]
pub struct FileReport<O> {
    pub source: Source,
    pub session: SessionInfo,
    pub info: StreamInfo,
    /// Lines the decoder rejected, in file order.
    pub bad: Vec<BadLine>,
    /// Set when the file could not be opened or read to the end: the cause, one line.
    pub io_error: Option<String>,
    /// `None` only when the file could not be opened at all.
    pub output: Option<O>,
    /// The file, still open, when the reducer asked for it ([`Reducer::reread_file`]).
    pub file: Option<SourceFile>,
}

/// How to read.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub max_line_bytes: usize,
    /// Worker threads; 1 reads on the calling thread.
    pub jobs: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_line_bytes: crate::decode::DEFAULT_MAX_LINE_BYTES,
            jobs: 1,
        }
    }
}

/// Read one stream through a reducer.
pub fn reduce_stream<R: Reducer>(
    stream: impl io::BufRead,
    source: Source,
    opts: &ReadOptions,
    reducer: R,
) -> FileReport<R::Output> {
    reduce_stream_with(stream, source, None, opts, reducer)
}

/// [`reduce_stream`] of a plain file that can be read again (`file`, a second handle).
fn reduce_stream_with<R: Reducer>(
    stream: impl io::BufRead,
    source: Source,
    file: Option<input::Reopen>,
    opts: &ReadOptions,
    mut reducer: R,
) -> FileReport<R::Output> {
    let file = file.filter(|_| reducer.reread_file()).map(SourceFile::new);
    let mut dec = Decoder::new(stream).max_line_bytes(opts.max_line_bytes);
    let mut session = SessionTracker::new();
    let mut bad = Vec::new();
    let mut io_error = None;
    while let Some(next) = dec.next() {
        match next {
            Ok(Entry::Record(rec)) => {
                session.observe(&rec);
                reducer.record(&rec, &session);
            }
            Ok(Entry::Blank(pos)) => reducer.blank(pos),
            Ok(Entry::Bad(b)) => {
                reducer.bad(&b);
                bad.push(b);
            }
            Err(e) => io_error = Some(format!("read error: {}", input::io_cause(&e))),
        }
    }
    let info = dec.info().clone();
    let file = file.filter(|_| reducer.points_into_file());
    let output = reducer.finish(&session, &info);
    FileReport {
        source,
        session: session.into_info(),
        info,
        bad,
        io_error,
        output: Some(output),
        file,
    }
}

/// Open and read one source.
pub fn reduce_source<R: Reducer>(
    source: &Source,
    opts: &ReadOptions,
    reducer: R,
) -> FileReport<R::Output> {
    let opened = if R::MAY_REREAD {
        input::open_rereadable(source)
    } else {
        input::open(source).map(|s| (s, None))
    };
    match opened {
        Ok((stream, file)) => reduce_stream_with(stream, source.clone(), file, opts, reducer),
        Err(e) => FileReport {
            source: source.clone(),
            session: SessionInfo::default(),
            info: StreamInfo::default(),
            bad: Vec::new(),
            io_error: Some(input::io_cause(&e)),
            output: None,
            file: None,
        },
    }
}

/// Run `make()` reducers over every source and pass each report to `sink`, in input order.
/// A sink error (a closed pipe, say) stops the run and is returned.
pub fn drive<R, F, S>(
    sources: &[Source],
    opts: &ReadOptions,
    make: F,
    mut sink: S,
) -> io::Result<()>
where
    R: Reducer,
    F: Fn(&Source) -> R + Sync,
    S: FnMut(FileReport<R::Output>) -> io::Result<()> + Send,
{
    let jobs = opts.jobs.max(1).min(sources.len().max(1));
    if jobs == 1 {
        for s in sources {
            sink(reduce_source(s, opts, make(s)))?;
        }
        return Ok(());
    }
    // Whichever worker finishes a file hands out the reports now in order; the calling
    // thread is one of the workers. No thread waits for reports: a thread that did only that
    // was woken once per file (6,000 context switches on a 2,400-file tree, 5% of `stats`).
    // While one worker feeds the sink (which may be slow: `calls` reads texts back and
    // formats rows), the others go on reading files and leave their reports to it.
    let next_index = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let window = Window::new(sink);
    let work = || loop {
        // A worker that panics (a bug) leaves a hole the output cannot pass: it stops the
        // others, so that the panic reaches the caller instead of every worker waiting.
        let _guard = StopOnPanic(&|| window.stop(&stop));
        // Files are taken in input order, each by the first free worker.
        let i = next_index.fetch_add(1, Ordering::Relaxed);
        if i >= sources.len() || stop.load(Ordering::Relaxed) {
            return;
        }
        if !window.wait_for_room(i, &stop) {
            return;
        }
        let report = reduce_source(&sources[i], opts, make(&sources[i]));
        if !window.put(i, report) {
            // The sink failed (a closed pipe, say): every worker winds down.
            window.stop(&stop);
            return;
        }
    };
    std::thread::scope(|scope| {
        for w in 1..jobs {
            let spawned = std::thread::Builder::new()
                .name(format!("rollscope-{w}"))
                .spawn_scoped(scope, work);
            if spawned.is_err() {
                // No more threads to be had: the ones running do all the files.
                break;
            }
        }
        work();
    });
    // Every worker has let go of the sink after looking at the queue, so nothing is left in
    // it; were a report left (a `try_lock` that failed for no holder, which std does not
    // rule out), it goes out here rather than never.
    window.put_rest();
    let (_, result) = window.sink.into_inner().unwrap_or_else(|e| e.into_inner());
    result
}

/// Stops the run when dropped by a panicking worker.
struct StopOnPanic<'a>(&'a dyn Fn());

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            (self.0)();
        }
    }
}

/// The reorder window of a parallel [`drive`]: finished reports wait in `queue` until every
/// earlier one has gone to the sink.
struct Window<T, S> {
    queue: Mutex<Queue<T>>,
    /// Signalled when `next` moves on (or the run stops), for workers waiting for room.
    moved: Condvar,
    /// The sink and its first error (which stops the run). Held by one worker at a time,
    /// the one handing reports out.
    sink: Mutex<(S, io::Result<()>)>,
}

struct Queue<T> {
    pending: BTreeMap<usize, FileReport<T>>,
    /// The index of the next report for the sink.
    next: usize,
    /// Workers waiting for `next` to move on.
    waiting: usize,
}

impl<T, S: FnMut(FileReport<T>) -> io::Result<()>> Window<T, S> {
    fn new(sink: S) -> Self {
        Window {
            queue: Mutex::new(Queue {
                pending: BTreeMap::new(),
                next: 0,
                waiting: 0,
            }),
            moved: Condvar::new(),
            sink: Mutex::new((sink, Ok(()))),
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue<T>> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stop the run: no worker starts another file, and none waits any longer.
    fn stop(&self, stop: &AtomicBool) {
        // Set under the lock a waiting worker checks it under, so none can miss it.
        let _q = self.queue();
        stop.store(true, Ordering::Relaxed);
        self.moved.notify_all();
    }

    /// Wait while file `i` is too far ahead of the output: pending reports (and so memory)
    /// stay bounded whatever the number of files. False when the run was stopped.
    fn wait_for_room(&self, i: usize, stop: &AtomicBool) -> bool {
        let mut q = self.queue();
        while i >= q.next + LOOK_AHEAD && !stop.load(Ordering::Relaxed) {
            q.waiting += 1;
            q = self.moved.wait(q).unwrap_or_else(|e| e.into_inner());
            q.waiting -= 1;
        }
        !stop.load(Ordering::Relaxed)
    }

    /// Hand out what is in order, once the workers are done.
    fn put_rest(&self) {
        // (The queue's lock is let go before `put` takes it again.)
        let rest = {
            let mut q = self.queue();
            let next = q.next;
            q.pending.remove(&next).map(|r| (next, r))
        };
        if let Some((next, r)) = rest {
            self.put(next, r);
        }
    }

    /// Queue report `i`, then hand out what is in order unless another worker is doing so
    /// (it will take this one too). False once the sink has failed.
    fn put(&self, i: usize, report: FileReport<T>) -> bool {
        self.queue().pending.insert(i, report);
        loop {
            let mut sink = match self.sink.try_lock() {
                Ok(s) => s,
                // The sink panicked (the panic is on its way to the caller): it is not
                // called again, half-way through a row as it may be.
                Err(std::sync::TryLockError::Poisoned(_)) => return false,
                // The worker holding the sink looks again once it lets go of it.
                Err(std::sync::TryLockError::WouldBlock) => return true,
            };
            if sink.1.is_err() {
                return false;
            }
            loop {
                let next = {
                    let mut q = self.queue();
                    let n = q.next;
                    let r = q.pending.remove(&n);
                    if r.is_some() {
                        q.next += 1;
                        if q.waiting > 0 {
                            self.moved.notify_all();
                        }
                    }
                    r
                };
                let Some(r) = next else { break };
                if let Err(e) = (sink.0)(r) {
                    sink.1 = Err(e);
                    self.queue().pending.clear();
                    return false;
                }
            }
            drop(sink);
            // A report that came while the sink was held, and was left to this worker.
            let q = self.queue();
            if !q.pending.contains_key(&q.next) {
                return true;
            }
        }
    }
}

/// How many files past the last one handed to the sink a worker may start.
const LOOK_AHEAD: usize = 256;

/// The default worker count: the machine's parallelism.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Default reading with `jobs` workers.
    fn with_jobs(jobs: usize) -> ReadOptions {
        ReadOptions {
            jobs,
            ..ReadOptions::default()
        }
    }

    /// Counts the records of a file.
    struct Lines(usize);

    impl Reducer for Lines {
        type Output = usize;
        fn record(&mut self, _rec: &Record<'_>, _session: &SessionTracker) {
            self.0 += 1;
        }
        fn finish(self, _session: &SessionTracker, _info: &StreamInfo) -> usize {
            self.0
        }
    }

    /// More files than the reorder window, the first one long (so the workers that run
    /// ahead of it wait for the output), file `i` holding `i % 7 + 1` records.
    fn many_files(dir: &std::path::Path) -> Vec<Source> {
        let line =
            r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"x"}}"#;
        (0..LOOK_AHEAD * 3)
            .map(|i| {
                let path = dir.join(format!("rollout-{i:04}.jsonl"));
                let n = if i == 0 { 20_000 } else { i % 7 + 1 };
                std::fs::write(&path, format!("{line}\n").repeat(n)).unwrap();
                Source::File(path)
            })
            .collect()
    }

    #[test]
    fn reports_reach_the_sink_in_input_order_for_any_job_count() {
        let dir = tempfile::tempdir().unwrap();
        let sources = many_files(dir.path());
        for jobs in [1, 2, 3, 8] {
            let opts = with_jobs(jobs);
            let mut seen = Vec::new();
            drive(
                &sources,
                &opts,
                |_| Lines(0),
                |r| {
                    // A slow sink now and then, so that reports queue while it is held.
                    if seen.len() % 64 == 1 {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                    seen.push((r.source, r.output.unwrap()));
                    Ok(())
                },
            )
            .unwrap();
            let want: Vec<(Source, usize)> = sources
                .iter()
                .enumerate()
                .map(|(i, s)| (s.clone(), if i == 0 { 20_000 } else { i % 7 + 1 }))
                .collect();
            assert_eq!(seen, want, "-j {jobs}");
        }
    }

    #[test]
    fn a_failing_sink_stops_the_run_and_its_error_is_returned() {
        let dir = tempfile::tempdir().unwrap();
        let sources = many_files(dir.path());
        for jobs in [1, 2, 4] {
            let opts = with_jobs(jobs);
            let mut calls = 0;
            let err = drive(
                &sources,
                &opts,
                |_| Lines(0),
                |_| {
                    calls += 1;
                    if calls == 10 {
                        return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
                    }
                    Ok(())
                },
            )
            .unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::BrokenPipe, "-j {jobs}");
            assert_eq!(
                calls, 10,
                "-j {jobs}: the sink is not called after it failed"
            );
        }
    }

    /// Runs `f` on its own thread: its result (a panic caught), or `None` when it has not
    /// finished within `secs` (a hang).
    fn within<T: Send + 'static>(
        secs: u64,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<std::thread::Result<T>> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
        });
        rx.recv_timeout(std::time::Duration::from_secs(secs)).ok()
    }

    /// Counts records, or panics on every record (a reducer bug).
    enum Either {
        Lines(Lines),
        Boom,
    }

    impl Reducer for Either {
        type Output = usize;
        fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
            match self {
                Either::Lines(l) => l.record(rec, session),
                Either::Boom => panic!("a reducer bug"),
            }
        }
        fn finish(self, session: &SessionTracker, info: &StreamInfo) -> usize {
            match self {
                Either::Lines(l) => l.finish(session, info),
                Either::Boom => 0,
            }
        }
    }

    #[test]
    fn a_panicking_reducer_reaches_the_caller_instead_of_hanging_the_workers() {
        let dir = tempfile::tempdir().unwrap();
        let sources = many_files(dir.path());
        for jobs in [2, 4] {
            let sources = sources.clone();
            let run = within(60, move || {
                let opts = with_jobs(jobs);
                // File 1 panics; the others run up to the window past it and wait.
                let make = |s: &Source| {
                    if s == &sources[1] {
                        Either::Boom
                    } else {
                        Either::Lines(Lines(0))
                    }
                };
                drive(&sources, &opts, make, |_| Ok(()))
            });
            let run = run.unwrap_or_else(|| panic!("-j {jobs}: drive hung"));
            assert!(run.is_err(), "-j {jobs}: the panic reaches the caller");
        }
    }

    #[test]
    fn a_panicking_sink_is_not_called_again_and_hangs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let sources = many_files(dir.path());
        for jobs in [2, 4] {
            let sources = sources.clone();
            let calls = std::sync::Arc::new(AtomicUsize::new(0));
            let counted = calls.clone();
            let run = within(60, move || {
                let opts = with_jobs(jobs);
                drive(
                    &sources,
                    &opts,
                    |_| Lines(0),
                    |_| {
                        if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                            // Slow, so the other workers fill the window meanwhile.
                            std::thread::sleep(std::time::Duration::from_millis(300));
                            panic!("a sink bug");
                        }
                        Ok(())
                    },
                )
            });
            let run = run.unwrap_or_else(|| panic!("-j {jobs}: drive hung"));
            assert!(run.is_err(), "-j {jobs}: the panic reaches the caller");
            assert_eq!(calls.load(Ordering::SeqCst), 1, "-j {jobs}");
        }
    }

    #[test]
    fn what_is_left_in_the_queue_at_the_end_goes_out_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let sources: Vec<Source> = many_files(dir.path()).into_iter().take(3).collect();
        let report = |i: usize| reduce_source(&sources[i], &ReadOptions::default(), Lines(0));
        let reports = [report(0), report(1), report(2)];
        let run = within(30, move || {
            let mut seen = Vec::new();
            let window = Window::new(|r: FileReport<usize>| {
                seen.push(r.source);
                Ok(())
            });
            // As if a worker had queued them and found the sink held.
            for (i, r) in reports.into_iter().enumerate() {
                window.queue().pending.insert(i, r);
            }
            window.put_rest();
            drop(window);
            seen
        });
        let seen = run.expect("put_rest hung").unwrap();
        assert_eq!(seen, sources);
    }

    #[test]
    fn a_held_file_is_read_again_after_it_is_moved() {
        // As Codex archives a session while `calls` still has its rows to write.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-2026-01-01T00-00-00-x.jsonl");
        std::fs::write(&path, "0123456789\n").unwrap();
        let (_, reopen) = input::open_rereadable(&Source::File(path.clone())).unwrap();
        let file = SourceFile::new(reopen.unwrap());
        std::fs::rename(&path, dir.path().join("archived.jsonl")).unwrap();
        let mut buf = Vec::new();
        file.read_at(3, 4, &mut buf).unwrap();
        assert_eq!(buf, b"3456");
    }
}
