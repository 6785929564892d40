//! Following a lineage: the one reader of `history_base` sources, for `replay` (and so
//! `lint`), which feeds their records into the history it rebuilds, and for
//! `check-ordinal`, which judges the cutoffs alone.
//!
//! From a child's `session_meta`, the source is found ([`Resolver`]), opened and read to its
//! end: its own lineage first (when its `session_meta` names one), its records below the
//! cutoff handed to a [`Visitor`], its cutoff probed ([`BoundaryProbe`]) and judged
//! ([`check::judge`]). A cycle, a source not found or not readable are problems too. There
//! is no depth limit of rollscope's own: the real Codex 0.171 follows a chain to its root
//! (`testdata/replay/deep-chain/`; it refuses the resume past
//! [`super::CODEX_MAX_SOURCES`] sources, for a reason of its thread store: a problem too),
//! and the reader holds one small record a level, never a frame of the stack or an open
//! file. Problems of the child's own `history_base` point at its
//! `session_meta`; those of a source's own lineage point nowhere in the child.
//!
//! A missing source is judged one way for every command: Codex looks for it in the Codex
//! home the thread belongs to, so when a Codex home was searched and it is not there, Codex
//! refuses the resume (an error); with no Codex home to search, the lineage could not be
//! checked (a warning). A source found but not readable is refused: what Codex cannot read,
//! it cannot resume from.

// Paths hashed by the thousand: a fast hash (std's SipHash was a tenth of a chain's
// `check-ordinal`).
use foldhash::{HashMap, HashMapExt, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::analysis::boundary::{BoundaryProbe, Cutoff, LineRecorder, Lines, Probe, MAX_LINES};
use crate::analysis::session::SessionTracker;
use crate::analysis::{Fold, ReadOptions};
use crate::decode::{Decoder, Entry, Kind, Line, Pos, Record};
use crate::fifo::Fifo;
use crate::input::{self, FileAt, Reopen, Source, SourceFile};
use crate::model::HistoryBase;

use super::check::{self, BaseTarget, Fault, Problem};
use super::resolve::{Place, Resolver};

/// What a lineage reader hands a source's records to.
pub trait Visitor {
    /// Whether it takes records at all. One that does not lets the reader judge a source
    /// once for every child that names it with the same cutoff.
    fn takes_records(&self) -> bool {
        true
    }
    /// A source is opened: its path as shown, its canonical path and the cutoff's end
    /// ordinal. Sources are opened child first (the child's source, then that source's
    /// source...), before any is read. Returns the number records of it carry.
    fn open(&mut self, shown: &str, key: &Path, end: u64) -> usize;
    /// Source `file` is about to be read: a second reader of it, where it can be read
    /// again. Sources are read deepest first.
    fn reading(&mut self, _file: usize, _reread: Option<SourceFile>) {}
    /// The source's own lineage was followed, before its first record.
    fn nested(&mut self) {}
    /// What it holds already of the lineage that starts at `source` (a canonical path) with
    /// `cutoff`: a rebuild left by another file's replay ([`Kept`]), which it takes in place
    /// of reading those sources. `None` by default.
    ///
    /// Such a rebuild found no cycle, so none of the files this lineage reached before
    /// `source` is one of its files: from `source` it followed the same `history_base`
    /// links this lineage follows (each file names its source alone), and had it reached
    /// one of them it would have come back to `source`, a cycle.
    fn kept(&mut self, _source: &Path, _cutoff: Cutoff) -> Option<Kept> {
        None
    }
    /// Take the rebuild [`Visitor::kept`] offered, now: after every source above it was
    /// opened, before any is read (its files are listed after theirs).
    fn take_kept(&mut self) {}
    /// One record of source `file`, below its cutoff.
    fn record(&mut self, rec: &Record<'_>, file: usize, rereadable: bool);
    /// Source `file` was read: its length as read, and whether it was read to its end (when
    /// not, what it fed is to be taken back: Codex cannot rebuild from it). Sources are
    /// closed deepest first, each before the next is read.
    fn close(&mut self, file: usize, size: u64, whole: bool);
}

/// A lineage a visitor holds already, from its first source down: what following it found
/// (as found with that source first: a fault of its cutoff lies at the child's
/// `session_meta`) and how many sources it reads.
#[derive(Debug, Clone, Default)]
pub struct Kept {
    pub problems: Vec<Problem>,
    pub sources: usize,
    /// It is the source's rebuild at an earlier cutoff: its records from there up to this
    /// cutoff are still to be read ([`Resume`]). Its problems are then those below the
    /// source; the source's cutoff is judged from its lines.
    pub resume: Option<Resume>,
}

/// Where a rebuild of a source up to a cutoff goes on from, for a later cutoff: the
/// source's lines as the run read them (their probe judges any cutoff) and the first line
/// past the cutoff, every record below it lying before. Sub-agents fork their parent
/// wherever it was when each was spawned: each fork's rebuild goes on from the one before
/// it, reading the records between, not the parent again.
#[derive(Debug, Clone)]
pub struct Resume {
    pub lines: Arc<Lines>,
    pub from: Pos,
    /// The source, as the file first read (another file put at its path meanwhile is an
    /// error, never read in its place).
    pub file: Option<FileAt>,
}

impl Resume {
    /// Where a rebuild at `cutoff` of the source these lines are of goes on from.
    fn past(lines: Arc<Lines>, file: Option<FileAt>, cutoff: Cutoff) -> Option<Resume> {
        let from = lines.past(cutoff.end_ordinal)?;
        Some(Resume { lines, from, file })
    }
}

/// A visitor that takes no records: the cutoffs are judged, nothing is rebuilt.
#[derive(Debug, Default)]
pub struct JudgeOnly;

impl Visitor for JudgeOnly {
    fn takes_records(&self) -> bool {
        false
    }
    fn open(&mut self, _: &str, _: &Path, _: u64) -> usize {
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
    /// The sources its own lineage reads before it.
    height: usize,
}

impl Read {
    /// Whether following the source's lineage again finds what this reading found: always,
    /// but for a cycle, which depends on the files visited before it.
    fn reusable(&self) -> bool {
        !self
            .nested
            .iter()
            .any(|(_, p)| matches!(p.fault, Fault::Cycle { .. }))
    }
}

/// What following a lineage found.
#[derive(Debug, Default)]
pub struct Followed {
    /// What is wrong with the lineage, or why it could not be checked, in the order it was
    /// followed.
    pub problems: Vec<Problem>,
    /// Sources found but not readable: path and cause (an I/O error of the run).
    pub unreadable: Vec<(String, String)>,
    /// The sources the lineage reads (or would read) before the child.
    pub sources: usize,
    /// Its first source (the child's own), as its canonical path, and the cutoff, where the
    /// child's `history_base` has the shape to be looked up and the source is found.
    pub first: Option<(PathBuf, Cutoff)>,
    /// Where a rebuild of the lineage from its first source goes on from for a later
    /// cutoff of that source, when the source (a plain file, its lines within
    /// [`MAX_LINES`]) was read whole and every record below the cutoff lies before the
    /// lines past it.
    pub resume: Option<Resume>,
}

/// One source of the lineage being followed.
struct Level {
    path: PathBuf,
    /// Its canonical path (a cycle is one of them again).
    key: PathBuf,
    target: BaseTarget,
    /// The `session_meta` naming it: the child's at the first level, `None` below.
    at: Option<Line>,
    /// Its own `session_meta` names a lineage of its own (followed or not).
    has_base: bool,
    /// What is known of it before it is read: a cached reading, or why it cannot be read.
    known: Option<Result<Probe, String>>,
    /// The visitor holds its lineage rebuilt already, it first ([`Visitor::kept`]).
    kept: bool,
    /// What it holds is the source's rebuild at an earlier cutoff, to go on from.
    resume: Option<Resume>,
}

/// The lineage reader. A lineage is followed without recursion, however deep: first up,
/// from the child to each source named by the one before (reading only up to each
/// source's `session_meta`), then down, each source read whole from the deepest, as Codex
/// rebuilds it. A cycle is refused.
#[derive(Debug)]
pub struct Follower<'r> {
    resolver: &'r Mutex<Resolver>,
    read: &'r ReadOptions,
    /// Sources read whole, by path and cutoff (with a visitor that takes no records).
    /// Keyed by the path's bytes (`Path`'s hash parses components; canonical paths have one
    /// spelling).
    cache: HashMap<(OsString, Cutoff), Read>,
    found: Followed,
    /// The level each of `found.problems` was found at.
    levels: Vec<usize>,
    /// Sources read so far (each read of one whole, not the reuses).
    reads: usize,
    /// The lines the run's own pass of a file recorded ([`Follower::note_lines`]), by the
    /// file's path as read (its bytes), the latest files' up to [`MAX_LINES`] lines in
    /// all: a child that forks it, at any cutoff, is judged without reading it again.
    wholes: Fifo<OsString, Arc<Lines>>,
}

impl<'r> Follower<'r> {
    pub fn new(resolver: &'r Mutex<Resolver>, read: &'r ReadOptions) -> Follower<'r> {
        Follower {
            resolver,
            read,
            cache: HashMap::new(),
            found: Followed::default(),
            levels: Vec::new(),
            reads: 0,
            wholes: Fifo::new(MAX_LINES),
        }
    }

    /// The lines the run's own pass of the file at `path` (as the run reads it) recorded,
    /// read to its end ([`Lines`]). A child that forks it, followed after, is judged from
    /// them (for a visitor that takes no records), at whatever cutoff, instead of reading
    /// the file again. They replace an earlier note of the same path.
    pub fn note_lines(&mut self, path: &Path, lines: Arc<Lines>) {
        let weight = lines.weight();
        self.wholes
            .insert(path.as_os_str().to_owned(), lines, weight);
    }

    /// The probe of `level`'s source for its cutoff, told from the lines its own pass
    /// recorded ([`Follower::note_lines`]), when there are.
    fn told(&self, level: &Level) -> Option<Probe> {
        let lines = self.wholes.get(level.path.as_os_str())?;
        Some(lines.probe(level.target.cutoff))
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
        let (levels, beyond) = self.up(child, base, at, visitor);
        self.down(&levels, beyond, visitor);
        let sources = levels.len() + beyond;
        if sources > super::CODEX_MAX_SOURCES {
            self.push(1, Problem::new(Some(at), Fault::TooManySources { sources }));
        }
        self.levels.clear();
        self.found.sources = sources;
        self.found.first = levels.first().map(|l| (l.key.clone(), l.target.cutoff));
        std::mem::take(&mut self.found)
    }

    /// A problem found at `depth`.
    fn push(&mut self, depth: usize, p: Problem) {
        self.found.problems.push(p);
        self.levels.push(depth);
    }

    /// The sources of the lineage, from the child's up, as far as they can be found: each
    /// named by the one before. Stops at a source with no lineage of its own, at one that
    /// is not found, not readable or already visited (a cycle), at a `history_base` of the
    /// wrong shape, and (with `reuse`) at a source read before with the same cutoff, whose
    /// own lineage's problems are then the cached ones, or at one whose lineage the
    /// visitor holds rebuilt already.
    /// Also the number of sources beyond the last level that a cached reading of it says
    /// its lineage holds.
    fn up(
        &mut self,
        child: &Source,
        base: &HistoryBase,
        at: Line,
        visitor: &mut dyn Visitor,
    ) -> (Vec<Level>, usize) {
        let records = visitor.takes_records();
        let me = child.path().map(|p| self.canonical(p));
        if let Some(me) = &me {
            // What the child's own pass read at its head, for a fork of it.
            self.resolver().note_head(me, Some(base));
        }
        let mut visited: HashSet<OsString> = me.map(PathBuf::into_os_string).into_iter().collect();
        let mut levels: Vec<Level> = Vec::new();
        let mut next = Some((base.clone(), Some(at), child.clone()));
        while let Some((base, at, namer)) = next.take() {
            let depth = levels.len() + 1;
            let target = match check::target(&base, at) {
                Ok(t) => t,
                Err(p) => {
                    self.push(depth, *p);
                    break;
                }
            };
            let path = match self.find(&namer, &target.rollout_id) {
                Ok(p) => p,
                Err(searched) => {
                    let refused = searched.iter().any(Place::is_codex_home);
                    let fault = Fault::SourceNotFound {
                        rollout_id: target.rollout_id.clone(),
                        searched,
                        refused,
                    };
                    self.push(depth, Problem::new(at, fault));
                    break;
                }
            };
            let key = self.canonical(&path);
            if visited.contains(key.as_os_str()) {
                let fault = Fault::Cycle {
                    source: input::shown(&path),
                };
                let p = Problem::new(at, fault).in_source(&path);
                self.push(depth, p);
                break;
            }
            let mut level = Level {
                path,
                key: key.clone(),
                target,
                at,
                has_base: false,
                known: None,
                kept: false,
                resume: None,
            };
            if let Some(kept) = visitor.kept(&key, level.target.cutoff) {
                for mut p in kept.problems {
                    if matches!(p.fault, Fault::TooManySources { .. }) {
                        continue;
                    }
                    // At the child's `session_meta` there: at this level's here.
                    if p.at.is_some() {
                        p.at = at;
                    }
                    self.push(depth, p);
                }
                level.kept = true;
                level.resume = kept.resume;
                levels.push(level);
                return (levels, kept.sources.saturating_sub(1));
            }
            let cached = (!records)
                .then(|| {
                    self.cache
                        .get(&(key.clone().into_os_string(), level.target.cutoff))
                })
                .flatten()
                .filter(|read| read.reusable())
                .cloned();
            if let Some(read) = cached {
                for (l, p) in read.nested {
                    self.push(depth + l, p);
                }
                level.known = Some(read.probe);
                levels.push(level);
                return (levels, read.height);
            }
            visited.insert(key.into_os_string());
            match self.own_base(&level.path, &level.key) {
                Ok(Some(b)) => {
                    level.has_base = true;
                    next = Some((b, None, Source::File(level.path.clone())));
                }
                Ok(None) => {}
                Err(cause) => level.known = Some(Err(cause)),
            }
            levels.push(level);
        }
        (levels, 0)
    }

    /// Read the sources found by [`Follower::up`], the deepest first, each handed to the
    /// visitor and judged.
    fn down(&mut self, levels: &[Level], beyond: usize, visitor: &mut dyn Visitor) {
        // Opened child first: the order the replay lists its files in.
        let files: Vec<Option<usize>> = levels
            .iter()
            .map(|l| {
                (l.known.is_none() && !l.kept).then(|| {
                    let shown = input::shown(&l.path);
                    visitor.open(&shown, &l.key, l.target.cutoff.end_ordinal)
                })
            })
            .collect();
        for (k, level) in levels.iter().enumerate().rev() {
            let depth = k + 1;
            if level.kept {
                visitor.take_kept();
                if let Some(resume) = &level.resume {
                    // Listed after the levels above it, opened: its place is its depth.
                    let probe = self.resume_source(level, resume, depth, visitor);
                    if depth == 1 && probe.is_ok() {
                        let lines = Arc::clone(&resume.lines);
                        let file = resume.file.clone();
                        self.found.resume = Resume::past(lines, file, level.target.cutoff);
                    }
                    self.judge(depth, level, probe);
                }
                continue;
            }
            let probe = match (&level.known, files.get(k).copied().flatten()) {
                (Some(known), _) => known.clone(),
                (None, file) => {
                    if level.has_base {
                        visitor.nested();
                    }
                    let told = (!visitor.takes_records())
                        .then(|| self.told(level))
                        .flatten();
                    let probe = match told {
                        Some(p) => Ok(p),
                        None => {
                            let read = self.read_source(level, file.unwrap_or(0), depth, visitor);
                            if let (Some(lines), Ok(_)) = (read.lines, &read.probe) {
                                let cutoff = level.target.cutoff;
                                self.found.resume = Resume::past(lines, read.file, cutoff);
                            }
                            read.probe
                        }
                    };
                    if !visitor.takes_records() {
                        let nested = self
                            .levels
                            .iter()
                            .zip(&self.found.problems)
                            .filter(|(l, _)| **l > depth)
                            .map(|(l, p)| (l - depth, p.clone()))
                            .collect();
                        let read = Read {
                            probe: probe.clone(),
                            nested,
                            height: levels.len() - depth + beyond,
                        };
                        self.cache.insert(
                            (level.key.clone().into_os_string(), level.target.cutoff),
                            read,
                        );
                    }
                    probe
                }
            };
            self.judge(depth, level, probe);
        }
    }

    /// The verdict on one source's cutoff, or why it could not be read.
    fn judge(&mut self, depth: usize, level: &Level, probe: Result<Probe, String>) {
        match probe {
            Ok(probe) => {
                if let Some(p) = check::judge(&level.target, &level.path, &probe, level.at) {
                    self.push(depth, p);
                }
            }
            Err(cause) => {
                let shown = input::shown(&level.path);
                let fault = Fault::SourceUnreadable {
                    source: shown.clone(),
                    rollout_id: level.target.rollout_id.clone(),
                    cause: cause.clone(),
                    refused: true,
                };
                self.push(depth, Problem::new(level.at, fault).in_source(&level.path));
                self.found.unreadable.push((shown, cause));
            }
        }
    }

    /// The run's resolver (a panic elsewhere leaves what it holds as good as before).
    fn resolver(&self) -> MutexGuard<'r, Resolver> {
        self.resolver.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `path`'s canonical path (a cycle is one of them again), through the run's resolver,
    /// which looks each up once.
    fn canonical(&self, path: &Path) -> PathBuf {
        self.resolver().canonical(path)
    }

    fn find(&self, child: &Source, rollout_id: &str) -> Result<PathBuf, Vec<Place>> {
        self.resolver().find(child, rollout_id)
    }

    /// The source's own `history_base` (canonical path `key`): what the run read at its head
    /// already, else read there now.
    fn own_base(&self, path: &Path, key: &Path) -> Result<Option<HistoryBase>, String> {
        if let Some(known) = self.resolver().head(key) {
            return Ok(known);
        }
        let base = own_base(path, self.read)?;
        self.resolver().note_head(key, base.as_ref());
        Ok(base)
    }

    /// Read one source to its end: its records below the cutoff to `visitor` (as its
    /// `file`), its cutoff probed; for the first source of a lineage a visitor rebuilds, its
    /// lines recorded too, when it is a plain file read whole ([`Resume`]).
    fn read_source(
        &mut self,
        level: &Level,
        file: usize,
        depth: usize,
        visitor: &mut dyn Visitor,
    ) -> SourceRead {
        self.reads += 1;
        let cutoff = level.target.cutoff;
        let source = Source::File(level.path.clone());
        // A second handle to read texts back only for a visitor that keeps records.
        let opened = if visitor.takes_records() {
            input::open_rereadable(&source)
        } else {
            input::open(&source).map(|s| (s, None))
        };
        let (stream, reopen) = match opened {
            Ok(s) => s,
            Err(e) => {
                visitor.close(file, 0, false);
                return SourceRead::failed(input::io_cause(&e));
            }
        };
        let rereadable = reopen.is_some();
        let at = reopen.as_ref().map(Reopen::at);
        visitor.reading(file, reopen.map(|r| SourceFile::new(r, &self.read.handles)));
        let mut dec = Decoder::new(stream).max_line_bytes(self.read.max_line_bytes);
        let mut session = SessionTracker::new();
        let mut probe = BoundaryProbe::new(cutoff);
        let mut lines = (depth == 1 && rereadable).then(LineRecorder::default);
        let mut error = None;
        while let Some(next) = dec.next() {
            match next {
                Ok(Entry::Blank(l)) => {
                    probe.blank(l);
                    lines.blank(l);
                }
                Ok(Entry::Bad(b)) => {
                    probe.bad(&b);
                    lines.bad(&b);
                }
                Ok(Entry::Record(rec)) => {
                    session.observe(&rec);
                    probe.record(&rec, &session);
                    lines.record(&rec, &session);
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
        match error {
            Some(cause) => SourceRead::failed(cause),
            None => SourceRead {
                probe: Ok(probe.finish(&session, dec.info())),
                lines: lines
                    .and_then(|r| r.finish(&session, dec.info()))
                    .map(Arc::new),
                file: at,
            },
        }
    }

    /// Go on reading a source whose rebuild at an earlier cutoff the visitor took: its
    /// records from `resume.from` up to its cutoff (the file is read no further than the
    /// last of them), its cutoff judged from its lines. The file is as the run first read
    /// it (its lines say so): a source that changed between is judged as first read.
    fn resume_source(
        &mut self,
        level: &Level,
        resume: &Resume,
        place: usize,
        visitor: &mut dyn Visitor,
    ) -> Result<Probe, String> {
        let cutoff = level.target.cutoff;
        let stop = resume.lines.below_end(cutoff.end_ordinal);
        let mut error = None;
        if resume.from.offset < stop {
            let opened = match &resume.file {
                Some(file) => file.open_from(resume.from.offset),
                None => Err(std::io::Error::other("the source cannot be read again")),
            };
            match opened {
                Ok(stream) => {
                    let mut dec = Decoder::new(stream)
                        .max_line_bytes(self.read.max_line_bytes)
                        .starting_at(resume.from);
                    while let Some(next) = dec.next() {
                        match next {
                            Ok(Entry::Record(rec)) => {
                                if rec.pos.offset >= stop {
                                    break;
                                }
                                if rec.ordinal.is_some_and(|o| o < cutoff.end_ordinal) {
                                    visitor.record(&rec, place, true);
                                }
                            }
                            Ok(Entry::Blank(l)) if l.pos.offset >= stop => break,
                            Ok(Entry::Bad(b)) if b.pos.offset >= stop => break,
                            Ok(_) => {}
                            Err(e) => {
                                error = Some(format!("read error: {}", input::io_cause(&e)));
                                break;
                            }
                        }
                    }
                }
                Err(e) => error = Some(input::io_cause(&e)),
            }
        }
        visitor.close(place, resume.lines.bytes(), error.is_none());
        match error {
            Some(cause) => Err(cause),
            None => Ok(resume.lines.probe(cutoff)),
        }
    }
}

/// What reading a source gave: its probe, or why it could not be read; and its lines, when
/// they were recorded.
struct SourceRead {
    probe: Result<Probe, String>,
    lines: Option<Arc<Lines>>,
    /// The file read, to read it on later.
    file: Option<FileAt>,
}

impl SourceRead {
    fn failed(cause: String) -> SourceRead {
        SourceRead {
            probe: Err(cause),
            lines: None,
            file: None,
        }
    }
}

/// The `history_base` a source's own first `session_meta` names when it is paginated (its
/// own lineage), read from its head; an error when it cannot be opened or read up to there.
fn own_base(path: &Path, read: &ReadOptions) -> Result<Option<HistoryBase>, String> {
    let stream = input::open_head(path).map_err(|e| input::io_cause(&e))?;
    let mut dec = Decoder::new(stream).max_line_bytes(read.max_line_bytes);
    let mut session = SessionTracker::new();
    while let Some(next) = dec.next() {
        match next {
            Ok(Entry::Record(rec)) => {
                session.observe(&rec);
                let info = session.info();
                if rec.kind == Kind::SessionMeta && info.meta_line == Some(rec.pos.line) {
                    return Ok((info.mode() == "paginated")
                        .then(|| info.history_base.clone())
                        .flatten());
                }
            }
            Ok(_) => {}
            Err(e) => return Err(format!("read error: {}", input::io_cause(&e))),
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::boundary::probe_text;
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

    fn base_of(paths: &[PathBuf], k: usize, off_by: u64) -> HistoryBase {
        HistoryBase {
            thread_id: Some(id(k - 1)),
            end_ordinal_exclusive: Some(3 * k as u64),
            end_byte_offset: Some(std::fs::metadata(&paths[k - 1]).unwrap().len() + off_by),
        }
    }

    /// Each child of a chain checked in turn by one reader (as `check-ordinal` checks a
    /// folder), against a fresh reader for each: a source read for one child is reused for
    /// the next exactly where it holds, so both find the same problems in the same order.
    /// In the second chain every fifth fork's byte offset is off by one, so a lineage carries
    /// problems at many levels.
    #[test]
    fn a_source_read_for_one_child_is_reused_only_where_it_holds() {
        for off_every in [0, 5] {
            let dir = tempfile::tempdir().unwrap();
            let n = 72;
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
            let mut told = Follower::new(&resolver, &read);
            for (k, path) in paths.iter().enumerate().skip(1) {
                let child = Source::File(path.clone());
                let base = base_of(&paths, k, off(k));
                let reused = shared.follow(&child, &base, meta_line(), &mut JudgeOnly);
                let mut fresh = Follower::new(&resolver, &read);
                let alone = fresh.follow(&child, &base, meta_line(), &mut JudgeOnly);
                assert_eq!(reused.problems, alone.problems, "child {k}");
                // Told the lines the source's own pass recorded (as `check-ordinal` tells
                // them, in the files' order): the same, and the source never read, its
                // fork's cutoff on its end or off it.
                let text = std::fs::read(&paths[k - 1]).unwrap();
                let (_, lines) = probe_text(&text, Cutoff::NONE);
                told.note_lines(&paths[k - 1], Arc::new(lines.unwrap()));
                let before = told.reads;
                let found = told.follow(&child, &base, meta_line(), &mut JudgeOnly);
                assert_eq!(found.problems, alone.problems, "child {k}");
                assert_eq!(told.reads - before, 0, "child {k}");
                // One problem a fork whose offset is off, at any depth.
                let off_forks = (1..=k).filter(|&j| off(j) == 1).count();
                assert_eq!(reused.problems.len(), off_forks, "child {k}");
            }
            // Each source read once for the chain, not once per child that follows it.
            assert!(shared.reads < 2 * n, "{} reads for {n} files", shared.reads);
        }
    }

    /// A file's head is read once a run: a child's own pass says what its head names, a
    /// lineage step what a source's names, and a later step takes that rather than open the
    /// file again for it.
    #[test]
    fn a_head_the_run_read_is_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let paths = chain(dir.path(), 3);
        let sources: Vec<Source> = paths.iter().cloned().map(Source::File).collect();
        let read = ReadOptions::default();
        let follow = |resolver: &Mutex<Resolver>, k: usize| {
            let child = Source::File(paths[k].clone());
            Follower::new(resolver, &read).follow(
                &child,
                &base_of(&paths, k, 0),
                meta_line(),
                &mut JudgeOnly,
            )
        };
        let key = |r: &Mutex<Resolver>, k: usize| r.lock().unwrap().canonical(&paths[k]);
        // Read from the files: the fork's source is followed to the root.
        let resolver = Mutex::new(Resolver::new(&sources, None));
        let followed = follow(&resolver, 2);
        assert_eq!((followed.sources, followed.problems.len()), (2, 0));
        let mut r = resolver.lock().unwrap();
        let (child, source) = (r.canonical(&paths[2]), r.canonical(&paths[1]));
        assert_eq!(r.head(&child), Some(Some(base_of(&paths, 2, 0))));
        assert_eq!(r.head(&source), Some(Some(base_of(&paths, 1, 0))));
        drop(r);
        // What the run says the source's head names is taken, not read again: were it read,
        // the lineage would reach the root.
        let resolver = Mutex::new(Resolver::new(&sources, None));
        let source = key(&resolver, 1);
        resolver.lock().unwrap().note_head(&source, None);
        assert_eq!(follow(&resolver, 2).sources, 1);
        // A file written again in the run (repair's scratch copy) is noted again: the
        // latest note is taken.
        let base = base_of(&paths, 1, 0);
        resolver.lock().unwrap().note_head(&source, Some(&base));
        assert_eq!(follow(&resolver, 2).sources, 2);
        // A child's own pass says what its head names before a fork of it is followed.
        let resolver = Mutex::new(Resolver::new(&sources, None));
        follow(&resolver, 1);
        let fork = key(&resolver, 1);
        let noted = resolver.lock().unwrap().head(&fork);
        assert_eq!(noted, Some(Some(base_of(&paths, 1, 0))));
    }

    /// Counts the records each source hands over, and checks the order of the calls.
    #[derive(Default)]
    struct Count {
        opened: Vec<u64>,
        records: Vec<usize>,
        closed: Vec<usize>,
    }

    impl Visitor for Count {
        fn open(&mut self, _: &str, _: &Path, end: u64) -> usize {
            self.opened.push(end);
            self.records.push(0);
            self.opened.len() - 1
        }
        fn record(&mut self, _: &Record<'_>, file: usize, _: bool) {
            self.records[file] += 1;
        }
        fn close(&mut self, file: usize, _: u64, whole: bool) {
            assert!(whole);
            self.closed.push(file);
        }
    }

    /// A chain thousands of forks deep is followed to its root, in a thread with a small
    /// stack (no recursion a level): every source opened child first, read and closed
    /// deepest first, each handing over its own records (and the chain is longer than
    /// Codex resumes).
    #[test]
    fn a_chain_thousands_deep_is_followed_to_its_root_without_recursion() {
        let n = 3000;
        let dir = tempfile::tempdir().unwrap();
        let paths = chain(dir.path(), n);
        let found = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let sources: Vec<Source> = paths.iter().cloned().map(Source::File).collect();
                let resolver = Mutex::new(Resolver::new(&sources, None));
                let read = ReadOptions::default();
                let mut f = Follower::new(&resolver, &read);
                let leaf = n - 1;
                let mut count = Count::default();
                let child = Source::File(paths[leaf].clone());
                let followed = f.follow(&child, &base_of(&paths, leaf, 0), meta_line(), &mut count);
                (followed.problems, count)
            })
            .unwrap()
            .join()
            .unwrap();
        let (problems, count) = found;
        // The one problem: more sources than Codex lists (each cutoff is right).
        let faults: Vec<&Fault> = problems.iter().map(|p| &p.fault).collect();
        assert_eq!(faults, [&Fault::TooManySources { sources: n - 1 }]);
        assert_eq!(count.opened.len(), n - 1);
        // The child's source first: its cutoff is the highest.
        assert_eq!(count.opened[0], 3 * (n as u64 - 1));
        assert!(
            count.records.iter().all(|&r| r == 3),
            "{:?}",
            &count.records[..5]
        );
        let deepest_first: Vec<usize> = (0..n - 1).rev().collect();
        assert_eq!(count.closed, deepest_first);
    }

    /// Codex resumes a file whose lineage reads 987 rollouts and refuses one that reads 988
    /// (`testdata/replay/deep-chain/`): a problem at the child's `session_meta`, found alike
    /// by a fresh reader and by one whose cache holds the sources of the chain already.
    #[test]
    fn a_lineage_past_what_codex_lists_is_a_problem() {
        let n = crate::lineage::CODEX_MAX_SOURCES + 2;
        let dir = tempfile::tempdir().unwrap();
        let paths = chain(dir.path(), n);
        let sources: Vec<Source> = paths.iter().cloned().map(Source::File).collect();
        let resolver = Mutex::new(Resolver::new(&sources, None));
        let read = ReadOptions::default();
        let too_many = |p: &[Problem]| {
            p.iter()
                .filter_map(|p| match p.fault {
                    Fault::TooManySources { sources } => Some((sources, p.at.is_some())),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        let mut shared = Follower::new(&resolver, &read);
        for k in [n - 2, n - 1] {
            let child = Source::File(paths[k].clone());
            let base = base_of(&paths, k, 0);
            let alone =
                Follower::new(&resolver, &read).follow(&child, &base, meta_line(), &mut JudgeOnly);
            let reused = shared.follow(&child, &base, meta_line(), &mut JudgeOnly);
            let want = if k > crate::lineage::CODEX_MAX_SOURCES {
                vec![(k, true)]
            } else {
                vec![]
            };
            assert_eq!(too_many(&alone.problems), want, "child {k}");
            assert_eq!(reused.problems, alone.problems, "child {k}");
        }
    }
}
