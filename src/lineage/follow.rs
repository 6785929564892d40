//! Following a lineage: the one reader of `history_base` sources, for `replay` (and so
//! `lint`), which feeds their records into the history it rebuilds, and for
//! `check-ordinal`, which judges the cutoffs alone.
//!
//! From a child's `session_meta`, the source is found ([`Resolver`]), opened and read to its
//! end: its own lineage first (when its `session_meta` names one), its records below the
//! cutoff handed to a [`Visitor`], its cutoff probed ([`BoundaryProbe`]) and judged
//! ([`check::judge`]). A cycle, a lineage deeper than [`MAX_DEPTH`], a source not found or
//! not readable are problems too. Problems of the child's own `history_base` point at its
//! `session_meta`; those of a source's own lineage point nowhere in the child.
//!
//! A missing source is judged one way for every command: Codex looks for it in the Codex
//! home the thread belongs to, so when a Codex home was searched and it is not there, Codex
//! refuses the resume (an error); with no Codex home to search, the lineage could not be
//! checked (a warning). A source found but not readable is refused: what Codex cannot read,
//! it cannot resume from.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::analysis::boundary::{BoundaryProbe, Cutoff, Probe};
use crate::analysis::session::SessionTracker;
use crate::analysis::{Fold, ReadOptions};
use crate::decode::{Decoder, Entry, Kind, Line, Record};
use crate::input::{self, Source, SourceFile};
use crate::model::HistoryBase;

use super::check::{self, Fault, Problem};
use super::resolve::{Place, Resolver};

/// How deep a lineage is followed (each fork or revert of a fork is one level).
pub const MAX_DEPTH: usize = 64;

/// What a lineage reader hands a source's records to.
pub trait Visitor {
    /// Whether it takes records at all. One that does not lets the reader judge a source
    /// once for every child that names it with the same cutoff.
    fn takes_records(&self) -> bool {
        true
    }
    /// A source is opened: its path as shown, the cutoff's end ordinal, and a second reader
    /// of it where it can be read again. Returns the number records of it carry.
    fn open(&mut self, shown: &str, end: u64, reread: Option<SourceFile>) -> usize;
    /// The source's own lineage was followed, before its first record.
    fn nested(&mut self) {}
    /// One record of source `file`, below its cutoff.
    fn record(&mut self, rec: &Record<'_>, file: usize, rereadable: bool);
    /// Source `file` was read: its length as read, and whether it was read to its end (when
    /// not, what it fed is to be taken back: Codex cannot rebuild from it).
    fn close(&mut self, file: usize, size: u64, whole: bool);
}

/// A visitor that takes no records: the cutoffs are judged, nothing is rebuilt.
#[derive(Debug, Default)]
pub struct JudgeOnly;

impl Visitor for JudgeOnly {
    fn takes_records(&self) -> bool {
        false
    }
    fn open(&mut self, _: &str, _: u64, _: Option<SourceFile>) -> usize {
        0
    }
    fn record(&mut self, _: &Record<'_>, _: usize, _: bool) {}
    fn close(&mut self, _: usize, _: u64, _: bool) {}
}

/// What reading a source gave, kept for the next child that names it with the same cutoff
/// (for a visitor that takes no records).
#[derive(Debug, Clone)]
struct Read {
    probe: Result<Probe, String>,
    /// The problems of the source's own lineage.
    nested: Vec<Problem>,
}

/// What following a lineage found.
#[derive(Debug, Default)]
pub struct Followed {
    /// What is wrong with the lineage, or why it could not be checked, in the order it was
    /// followed.
    pub problems: Vec<Problem>,
    /// Sources found but not readable: path and cause (an I/O error of the run).
    pub unreadable: Vec<(String, String)>,
}

/// The lineage reader.
#[derive(Debug)]
pub struct Follower<'r> {
    resolver: &'r Mutex<Resolver>,
    read: &'r ReadOptions,
    /// The files of the lineage read so far (a cycle is one of them again).
    visited: Vec<PathBuf>,
    /// Sources read whole, by path and cutoff (with a visitor that takes no records).
    cache: HashMap<(PathBuf, Cutoff), Read>,
    found: Followed,
}

impl<'r> Follower<'r> {
    pub fn new(resolver: &'r Mutex<Resolver>, read: &'r ReadOptions) -> Follower<'r> {
        Follower {
            resolver,
            read,
            visited: Vec::new(),
            cache: HashMap::new(),
            found: Followed::default(),
        }
    }

    /// Follow the lineage of `child`, whose `session_meta` at `at` holds `base`, handing the
    /// sources' records to `visitor`. Returns what it found; the reader may follow another
    /// child's lineage after (its cache of sources kept).
    pub fn follow(
        &mut self,
        child: &Source,
        base: &HistoryBase,
        at: Line,
        visitor: &mut dyn Visitor,
    ) -> Followed {
        self.visited.clear();
        if let Some(p) = child.path() {
            self.visited
                .push(std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()));
        }
        self.source(child, base, Some(at), 1, visitor);
        std::mem::take(&mut self.found)
    }

    /// The source named by `base` in `child` (its `session_meta` at `at`, `None` below the
    /// first level), `depth` levels down.
    fn source(
        &mut self,
        child: &Source,
        base: &HistoryBase,
        at: Option<Line>,
        depth: usize,
        visitor: &mut dyn Visitor,
    ) {
        let target = match check::target(base, at) {
            Ok(t) => t,
            Err(p) => return self.found.problems.push(*p),
        };
        if depth > MAX_DEPTH {
            let fault = Fault::TooDeep { depth: MAX_DEPTH };
            return self.found.problems.push(Problem::new(at, fault));
        }
        let path = match self.find(child, &target.rollout_id) {
            Ok(p) => p,
            Err(searched) => {
                let refused = searched.iter().any(Place::is_codex_home);
                let fault = Fault::SourceNotFound {
                    rollout_id: target.rollout_id.clone(),
                    searched,
                    refused,
                };
                return self.found.problems.push(Problem::new(at, fault));
            }
        };
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if self.visited.contains(&key) {
            let fault = Fault::Cycle {
                source: path.display().to_string(),
            };
            let p = Problem::new(at, fault).in_source(&path);
            return self.found.problems.push(p);
        }
        let cached = (!visitor.takes_records())
            .then(|| self.cache.get(&(key.clone(), target.cutoff)).cloned())
            .flatten();
        let read = match cached {
            Some(read) => {
                self.found.problems.extend(read.nested.iter().cloned());
                read
            }
            None => {
                self.visited.push(key.clone());
                let read = self.read_source(&path, target.cutoff, depth, visitor);
                self.visited.pop();
                if !visitor.takes_records() {
                    self.cache.insert((key, target.cutoff), read.clone());
                }
                read
            }
        };
        match read.probe {
            Ok(probe) => self
                .found
                .problems
                .extend(check::judge(&target, &path, &probe, at)),
            Err(cause) => {
                let shown = path.display().to_string();
                let fault = Fault::SourceUnreadable {
                    source: shown.clone(),
                    rollout_id: target.rollout_id.clone(),
                    cause: cause.clone(),
                    refused: true,
                };
                self.found
                    .problems
                    .push(Problem::new(at, fault).in_source(&path));
                self.found.unreadable.push((shown, cause));
            }
        }
    }

    fn find(&self, child: &Source, rollout_id: &str) -> Result<PathBuf, Vec<Place>> {
        match self.resolver.lock() {
            Ok(mut r) => r.find(child, rollout_id),
            Err(poisoned) => poisoned.into_inner().find(child, rollout_id),
        }
    }

    /// Read the source at `path` to its end: its own lineage when its `session_meta` names
    /// one, its records below the cutoff to `visitor`, its cutoff probed.
    fn read_source(
        &mut self,
        path: &Path,
        cutoff: Cutoff,
        depth: usize,
        visitor: &mut dyn Visitor,
    ) -> Read {
        let problems_before = self.found.problems.len();
        let source = Source::File(path.to_path_buf());
        let (stream, reopen) = match input::open_rereadable(&source) {
            Ok(s) => s,
            Err(e) => {
                return Read {
                    probe: Err(input::io_cause(&e)),
                    nested: Vec::new(),
                }
            }
        };
        let rereadable = reopen.is_some();
        let reread = reopen.map(|r| SourceFile::new(r, &self.read.handles));
        let file = visitor.open(&path.display().to_string(), cutoff.end_ordinal, reread);
        let mut dec = Decoder::new(stream).max_line_bytes(self.read.max_line_bytes);
        let mut session = SessionTracker::new();
        let mut probe = BoundaryProbe::new(cutoff);
        let mut error = None;
        while let Some(next) = dec.next() {
            match next {
                Ok(Entry::Blank(l)) => probe.blank(l),
                Ok(Entry::Bad(b)) => probe.bad(&b),
                Ok(Entry::Record(rec)) => {
                    session.observe(&rec);
                    probe.record(&rec, &session);
                    let info = session.info();
                    if rec.kind == Kind::SessionMeta
                        && info.meta_line == Some(rec.pos.line)
                        && info.mode() == "paginated"
                    {
                        if let Some(b) = info.history_base.clone() {
                            self.source(&source, &b, None, depth + 1, visitor);
                            visitor.nested();
                        }
                    }
                    if rec.ordinal.is_some_and(|o| o < cutoff.end_ordinal) {
                        visitor.record(&rec, file, rereadable);
                    }
                }
                Err(e) => {
                    error = Some(format!("read error: {}", input::io_cause(&e)));
                    break;
                }
            }
        }
        visitor.close(file, dec.info().bytes, error.is_none());
        let nested = self
            .found
            .problems
            .get(problems_before..)
            .unwrap_or_default()
            .to_vec();
        Read {
            probe: match error {
                Some(cause) => Err(cause),
                None => Ok(probe.finish(&session, dec.info())),
            },
            nested,
        }
    }
}
