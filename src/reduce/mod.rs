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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

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
    mut reducer: R,
) -> FileReport<R::Output> {
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
    let output = reducer.finish(&session, &info);
    FileReport {
        source,
        session: session.into_info(),
        info,
        bad,
        io_error,
        output: Some(output),
    }
}

/// Open and read one source.
pub fn reduce_source<R: Reducer>(
    source: &Source,
    opts: &ReadOptions,
    reducer: R,
) -> FileReport<R::Output> {
    match input::open(source) {
        Ok(stream) => reduce_stream(stream, source.clone(), opts, reducer),
        Err(e) => FileReport {
            source: source.clone(),
            session: SessionInfo::default(),
            info: StreamInfo::default(),
            bad: Vec::new(),
            io_error: Some(input::io_cause(&e)),
            output: None,
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
    S: FnMut(FileReport<R::Output>) -> io::Result<()>,
{
    let jobs = opts.jobs.max(1).min(sources.len().max(1));
    if jobs == 1 {
        for s in sources {
            sink(reduce_source(s, opts, make(s)))?;
        }
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("rollscope-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, FileReport<R::Output>)>();
    std::thread::scope(|scope| {
        let stop = &stop;
        let make = &make;
        scope.spawn(move || {
            use rayon::prelude::*;
            pool.install(|| {
                sources
                    .par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, s)| {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let report = reduce_source(s, opts, make(s));
                        if tx.send((i, report)).is_err() {
                            stop.store(true, Ordering::Relaxed);
                        }
                    });
            });
        });
        // Re-order: hand out reports strictly by index.
        let mut pending: BTreeMap<usize, FileReport<R::Output>> = BTreeMap::new();
        let mut next = 0usize;
        let mut result = Ok(());
        for (i, report) in rx.iter() {
            pending.insert(i, report);
            while let Some(r) = pending.remove(&next) {
                next += 1;
                if let Err(e) = sink(r) {
                    stop.store(true, Ordering::Relaxed);
                    result = Err(e);
                    break;
                }
            }
            if result.is_err() {
                break;
            }
        }
        // Dropping the receiver makes pending sends fail, so workers wind down quickly.
        drop(rx);
        result
    })
}

/// The default worker count: the machine's parallelism.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
