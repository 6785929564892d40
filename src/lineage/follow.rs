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
    /// The problems of the source's own lineage, each with the level below the source of
    /// the lineage step that found it (1: the source's own `history_base`).
    nested: Vec<(usize, Problem)>,
    /// The deepest level below the source its lineage was followed to (0: it has none).
    height: usize,
    /// The depth it was read at.
    depth: usize,
}

impl Read {
    /// What following its lineage from `depth` finds, where that is known from this reading
    /// without reading again: its lineage is followed to the same files, and only the depth
    /// limit moves. From as deep or deeper, the limit comes as soon or sooner: the steps past
    /// it are left out, and the first of them says it is too deep (unless its
    /// `history_base` is malformed, which is judged first). From less deep, only a lineage
    /// that ended before the limit is the same. A cycle depends on the files visited
    /// before: never reused.
    fn at(&self, depth: usize) -> Option<(Vec<(usize, Problem)>, usize)> {
        if self
            .nested
            .iter()
            .any(|(_, p)| matches!(p.fault, Fault::Cycle { .. }))
        {
            return None;
        }
        let limited = self.depth + self.height > MAX_DEPTH;
        if depth < self.depth && limited {
            return None;
        }
        // The first level below this source that is past the limit from `depth`.
        let cut = (MAX_DEPTH + 1).saturating_sub(depth);
        if self.height < cut {
            return Some((self.nested.clone(), self.height));
        }
        let shape_at_cut = self
            .nested
            .iter()
            .any(|(level, p)| *level == cut && is_shape(&p.fault));
        let mut out: Vec<(usize, Problem)> = Vec::new();
        if !shape_at_cut {
            out.push((cut, Problem::new(None, Fault::TooDeep { depth: MAX_DEPTH })));
        }
        out.extend(
            self.nested
                .iter()
                .filter(|(level, p)| *level < cut || (*level == cut && is_shape(&p.fault)))
                .cloned(),
        );
        Some((out, cut))
    }
}

/// A fault of a `history_base`'s shape, judged before anything is looked up.
fn is_shape(f: &Fault) -> bool {
    matches!(
        f,
        Fault::NoThreadId | Fault::ZeroEnd | Fault::NoEnd | Fault::NoOffset
    )
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
    /// The deepest level reached while the current source is read.
    reached: usize,
    found: Followed,
    /// The level each of `found.problems` was found at.
    levels: Vec<usize>,
    /// Sources read so far (each open and read of one, not the reuses).
    reads: usize,
}

impl<'r> Follower<'r> {
    pub fn new(resolver: &'r Mutex<Resolver>, read: &'r ReadOptions) -> Follower<'r> {
        Follower {
            resolver,
            read,
            visited: Vec::new(),
            cache: HashMap::new(),
            reached: 0,
            found: Followed::default(),
            levels: Vec::new(),
            reads: 0,
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
        self.levels.clear();
        std::mem::take(&mut self.found)
    }

    /// A problem found at `depth`.
    fn push(&mut self, depth: usize, p: Problem) {
        self.found.problems.push(p);
        self.levels.push(depth);
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
        self.reached = self.reached.max(depth);
        let target = match check::target(base, at) {
            Ok(t) => t,
            Err(p) => return self.push(depth, *p),
        };
        if depth > MAX_DEPTH {
            let fault = Fault::TooDeep { depth: MAX_DEPTH };
            return self.push(depth, Problem::new(at, fault));
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
                return self.push(depth, Problem::new(at, fault));
            }
        };
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if self.visited.contains(&key) {
            let fault = Fault::Cycle {
                source: path.display().to_string(),
            };
            let p = Problem::new(at, fault).in_source(&path);
            return self.push(depth, p);
        }
        let cached = (!visitor.takes_records())
            .then(|| self.cache.get(&(key.clone(), target.cutoff)))
            .flatten()
            .and_then(|read| Some((read.probe.clone(), read.at(depth)?)));
        let probe = match cached {
            Some((probe, (nested, height))) => {
                for (level, p) in nested {
                    self.push(depth + level, p);
                }
                self.reached = self.reached.max(depth + height);
                probe
            }
            None => {
                self.visited.push(key.clone());
                let read = self.read_source(&path, target.cutoff, depth, visitor);
                self.visited.pop();
                let probe = read.probe.clone();
                if !visitor.takes_records() {
                    self.cache.insert((key, target.cutoff), read);
                }
                probe
            }
        };
        match probe {
            Ok(probe) => {
                if let Some(p) = check::judge(&target, &path, &probe, at) {
                    self.push(depth, p);
                }
            }
            Err(cause) => {
                let shown = path.display().to_string();
                let fault = Fault::SourceUnreadable {
                    source: shown.clone(),
                    rollout_id: target.rollout_id.clone(),
                    cause: cause.clone(),
                    refused: true,
                };
                self.push(depth, Problem::new(at, fault).in_source(&path));
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
        self.reads += 1;
        let problems_before = self.found.problems.len();
        let reached_before = std::mem::replace(&mut self.reached, depth);
        let source = Source::File(path.to_path_buf());
        // A second handle to read texts back only for a visitor that keeps records.
        let opened = if visitor.takes_records() {
            input::open_rereadable(&source)
        } else {
            input::open(&source).map(|s| (s, None))
        };
        let (stream, reopen) = match opened {
            Ok(s) => s,
            Err(e) => {
                self.reached = reached_before.max(depth);
                return Read {
                    probe: Err(input::io_cause(&e)),
                    nested: Vec::new(),
                    height: 0,
                    depth,
                };
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
        let nested: Vec<(usize, Problem)> = self
            .levels
            .iter()
            .zip(&self.found.problems)
            .skip(problems_before)
            .map(|(level, p)| (level - depth, p.clone()))
            .collect();
        let height = self.reached - depth;
        self.reached = reached_before.max(self.reached);
        Read {
            probe: match error {
                Some(cause) => Err(cause),
                None => Ok(probe.finish(&session, dec.info())),
            },
            nested,
            height,
            depth,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::Pos;
    use crate::testkit;
    use serde_json::json;

    fn id(k: usize) -> String {
        format!("01a22800-0000-7000-8000-{k:012x}")
    }

    /// A chain of `n` paginated rollouts in `dir`, each but the first a fork of the whole of
    /// the one before: their paths, root first.
    fn chain(dir: &std::path::Path, n: usize) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        let mut prev_len = 0u64;
        for k in 0..n {
            let first = 3 * k as u64;
            let mut meta = json!({"id": id(k), "history_mode": "paginated"});
            if k > 0 {
                meta["history_base"] = json!({
                    "thread_id": id(k - 1),
                    "end_ordinal_exclusive": first,
                    "end_byte_offset": prev_len,
                });
            }
            let text = testkit::jsonl(&[
                testkit::meta(meta).ordinal(first),
                testkit::event(json!({"type": "token_count"})).ordinal(first + 1),
                testkit::event(json!({"type": "token_count"})).ordinal(first + 2),
            ]);
            prev_len = text.len() as u64;
            let path = dir.join(format!("rollout-2026-01-01T00-00-00-{}.jsonl", id(k)));
            std::fs::write(&path, text).unwrap();
            paths.push(path);
        }
        paths
    }

    fn meta_line() -> Line {
        Line {
            pos: Pos { line: 1, offset: 0 },
            ..Line::default()
        }
    }

    fn too_deep(p: &[Problem]) -> bool {
        p.iter().any(|p| matches!(p.fault, Fault::TooDeep { .. }))
    }

    fn base_of(paths: &[PathBuf], k: usize, off_by: u64) -> HistoryBase {
        HistoryBase {
            thread_id: Some(id(k - 1)),
            end_ordinal_exclusive: Some(3 * k as u64),
            end_byte_offset: Some(std::fs::metadata(&paths[k - 1]).unwrap().len() + off_by),
        }
    }

    /// Each child of a chain checked in turn by one reader (as `check-ordinal` checks a
    /// folder), against a fresh reader for each: a source read for one child is reused for
    /// the next exactly where it holds, so both find the same problems in the same order,
    /// the child one level past the limit is told it is too deep, and the one at the limit
    /// is not. In the second chain every fifth fork's byte offset is off by one, so a
    /// lineage carries problems at many levels, some past the limit.
    #[test]
    fn a_source_read_for_one_child_is_reused_only_where_it_holds() {
        for off_every in [0, 5] {
            let dir = tempfile::tempdir().unwrap();
            let n = MAX_DEPTH + 8;
            let paths = chain(dir.path(), n);
            let off = |k: usize| u64::from(off_every > 0 && k % off_every == 0);
            // Rewrite the forks whose offset is to be off (their own length is unchanged).
            for k in 1..n {
                if off(k) == 1 {
                    let text = std::fs::read_to_string(&paths[k]).unwrap();
                    let wrong = std::fs::metadata(&paths[k - 1]).unwrap().len();
                    let text = text.replacen(
                        &format!("\"end_byte_offset\":{wrong}"),
                        &format!("\"end_byte_offset\":{}", wrong + 1),
                        1,
                    );
                    std::fs::write(&paths[k], text).unwrap();
                }
            }
            let sources: Vec<Source> = paths.iter().cloned().map(Source::File).collect();
            let resolver = Mutex::new(Resolver::new(&sources, None));
            let read = ReadOptions::default();
            let mut shared = Follower::new(&resolver, &read);
            for (k, path) in paths.iter().enumerate().skip(1) {
                let child = Source::File(path.clone());
                let base = base_of(&paths, k, off(k));
                let reused = shared.follow(&child, &base, meta_line(), &mut JudgeOnly);
                let mut fresh = Follower::new(&resolver, &read);
                let alone = fresh.follow(&child, &base, meta_line(), &mut JudgeOnly);
                assert_eq!(reused.problems, alone.problems, "child {k}");
                // Child k has k sources: past the limit only beyond 64.
                assert_eq!(too_deep(&reused.problems), k > MAX_DEPTH, "child {k}");
                if off_every > 0 && k > 10 {
                    assert!(!reused.problems.is_empty(), "child {k}");
                }
            }
            // Each source read once for the chain, not once per child that follows it.
            assert!(shared.reads < 2 * n, "{} reads for {n} files", shared.reads);
        }
    }
}
