//! Replay: rebuild what Codex rebuilds from a rollout on resume and fork (seed `000_…`
//! B.3, B.12.7, B.13; `research/upstream.md` §5): the model history ([`history`]), the
//! prompt made of it ([`prompt`]), the session state ([`state`]) and what a client is shown
//! ([`ui`]), with what will fail or be lossy on resume as findings.
//!
//! One replay reads the file once, beside the shared analyses of that pass (the turn
//! segmentation, whose rollback code the history shares; the ordinal check, whose head and
//! sequence findings are the replay's too): [`analysis::read_observed`]. A paginated
//! fork's or revert's lineage (`history_base`) is followed when its `session_meta` is read:
//! the source rollout, found by the shared [`Resolver`], is read first (its records with
//! `ordinal < end_ordinal_exclusive`), chains followed, cycles refused. A legacy copy-fork
//! holds its parent's records itself.
//!
//! Items are held as where they lie in a plain file ([`input::FileText`]), never as text, so a
//! history of hundreds of MB costs a few words per item; [`Replayed::json`] reads one back
//! when it is written.

pub mod history;
pub mod item;
pub mod prompt;
pub mod state;
pub mod ui;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::analysis::boundary::BoundaryProbe;
use crate::analysis::session::SessionInfo;
use crate::analysis::turns::{Detail, Turn, TurnStatus};
use crate::analysis::{self, FileFacts, Fold, Needs, ReadOptions};
use crate::decode::{Decoder, Entry, Kind, Line, Pos, Record};
use crate::input::{self, Handles, Source, SourceFile, TextWindow};
use crate::lineage::{self, check, Resolver};
use crate::model::HistoryBase;
use history::{Base, History, Rollback};
use item::{At, Body, Item, Origin};
use prompt::PairFact;
use state::{State, StateLog};
use ui::{UiLog, UiRow};

/// `major.minor` of a `cli_version`, when it reads as one (the behaviours that changed
/// between Codex versions are keyed on it).
pub(crate) fn cli_version(v: Option<&str>) -> Option<(u64, u64)> {
    let mut parts = v?.split('.').map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??))
}

/// How deep a lineage is followed (each fork or revert of a fork is one level).
pub const MAX_LINEAGE_DEPTH: usize = 64;

/// A turn named on the command line: its `index` as `turns` prints it (1-based), or its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnRef {
    Index(u64),
    Id(String),
}

/// Where the replay stops, as a fork at that point would carry the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cut {
    /// Through the end of this turn.
    Through(TurnRef),
    /// Before this turn begins.
    Before(TurnRef),
}

/// What a replay computes.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Normalise the history as Codex does before sending it.
    pub for_prompt: bool,
    pub cut: Option<Cut>,
    /// Collect what a client is shown.
    pub ui: bool,
}

/// A reader that rides along the replay's pass: each record of the file replayed (not of
/// its lineage sources) and the session so far. The rules read records this way.
pub type Watch<'w> = &'w mut dyn FnMut(&Record<'_>, &SessionInfo);

/// A file the replay read: the file replayed (first), then each lineage source.
#[derive(Debug)]
pub struct ReadFile {
    pub path: String,
    /// The `end_ordinal_exclusive` a source was read up to; `None` for the file replayed.
    pub end_ordinal: Option<u64>,
    /// Records read from it into the replay.
    pub records: u64,
    reread: Option<SourceFile>,
    /// Its length as read (reads back never go past it).
    size: u64,
    /// Items lie in file order, close together: rows are written with one read per window
    /// rather than one per item.
    window: TextWindow,
}

impl ReadFile {
    fn new(path: String, end_ordinal: Option<u64>, reread: Option<SourceFile>) -> ReadFile {
        ReadFile {
            path,
            end_ordinal,
            records: 0,
            reread,
            size: 0,
            window: TextWindow::default(),
        }
    }
}

/// Where a cut fell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutAt {
    pub through: bool,
    pub turn_index: u64,
    pub turn_id: Option<String>,
    /// The last line replayed.
    pub last_line: u64,
}

/// Everything one replay found.
#[derive(Debug)]
pub struct Replayed {
    /// The one pass over the file replayed (its session, stream, bad lines, turns, ordinals).
    pub facts: FileFacts,
    pub files: Vec<ReadFile>,
    /// The history, or the prompt with [`Options::for_prompt`].
    pub items: Vec<Item>,
    /// History items before the prompt normalisation.
    pub history_len: usize,
    /// Items of the prompt made of them (whether or not `--for-prompt` asked for it).
    pub prompt_len: usize,
    pub base: Base,
    pub rollbacks: Vec<Rollback>,
    pub compactions: u64,
    pub state: State,
    pub ui: Vec<UiRow>,
    /// What is wrong with the lineage, in the order it was followed.
    pub lineage: Vec<lineage::Problem>,
    /// What went wrong rebuilding the history, record by record.
    pub history_problems: Vec<history::Problem>,
    /// What the pairing of the rebuilt history's calls and outputs shows.
    pub pairs: Vec<PairFact>,
    /// The last record of the file replayed (within the cut).
    pub last_record: Option<Line>,
    pub cut: Option<CutAt>,
    /// Why the replay could not be done (a cut naming no turn); the file was still read.
    pub error: Option<String>,
    /// The timestamps of item lines of held input (file, line), for the transcript.
    held_times: std::collections::HashMap<(usize, u64), Box<str>>,
}

impl Replayed {
    /// The JSON text of a body read in file `file`.
    pub fn body_json(&self, file: usize, body: &Body) -> std::io::Result<String> {
        match body {
            Body::Held(s) => Ok(s.to_string()),
            Body::InFile { .. } => {
                let f = self
                    .files
                    .get(file)
                    .ok_or_else(|| std::io::Error::other("no such file in the replay"))?;
                f.window.read(f.reread.as_ref(), f.size, body)
            }
        }
    }

    /// An item's JSON text, exactly as it lies in its file (or as the replay made it).
    pub fn json(&self, item: &Item) -> std::io::Result<String> {
        self.body_json(item.at.map_or(0, |a| a.file), &item.body)
    }

    /// The path of the file an item was read in (the file replayed for a synthetic one).
    pub fn path_of(&self, item: &Item) -> &str {
        let file = item.at.map_or(0, |a| a.file);
        self.files.get(file).map_or("", |f| f.path.as_str())
    }

    /// The `timestamp` of the line at `at`, for a transcript: read from the line's start
    /// in a plain file (Codex writes it first), `None` elsewhere.
    pub fn timestamp(&self, at: &At) -> Option<String> {
        let Some(f) = self.files.get(at.file)?.reread.as_ref() else {
            // Held input (standard input, `.zst`): its item lines' times were kept.
            return self
                .held_times
                .get(&(at.file, at.line))
                .map(|t| t.to_string());
        };
        let mut buf = [0; 96];
        // A line shorter than that ends the file: read what there is.
        let mut n = buf.len();
        while n > 0 && f.read_exact_at(at.offset, buf.get_mut(..n)?).is_err() {
            n /= 2;
        }
        // Up to the first byte that is not UTF-8 (a character cut by the read's end).
        let head = buf.get(..n)?.utf8_chunks().next().map_or("", |c| c.valid());
        let rest = head.split_once("\"timestamp\":\"")?.1;
        Some(rest.split_once('"')?.0.to_string())
    }

    /// The start of the line at `pos` in the file replayed (up to `max` bytes, without its
    /// line ending), for a diagnostic's excerpt; `None` for input that cannot be read again.
    pub fn excerpt(&self, pos: Pos, max: usize) -> Option<String> {
        let f = self.files.first()?;
        input::reread::excerpt(f.reread.as_ref()?, f.size, pos.offset, max)
    }

    /// The bytes of `line` (without its ending) in the file replayed, read back; `None` for
    /// input that cannot be read again. For a fix that moves or compares a line.
    pub fn bytes(&self, line: &Line) -> Option<Vec<u8>> {
        let f = self.files.first()?;
        let reader = f.reread.as_ref()?;
        if line.next() > f.size {
            return None;
        }
        let mut buf = vec![0; usize::try_from(line.len).ok()?];
        reader.read_exact_at(line.pos.offset, &mut buf).ok()?;
        Some(buf)
    }

    /// The last turn of the file replayed, when it has not ended.
    pub fn open_turn(&self) -> Option<&Turn> {
        open_turn(&self.facts)
    }

    /// The whole line at `pos` of the file replayed: read back to its end (a plain file), or
    /// as the pass kept it (input that cannot be read again). For a finding's span; `count`:
    /// count its characters too.
    pub fn line_at(&self, pos: Pos, count: bool) -> Option<Line> {
        if let Some(held) = &self.facts.held {
            return held.line(pos);
        }
        let f = self.files.first()?;
        let reader = f.reread.as_ref()?;
        let (mut len, mut chars, mut at) = (0u64, 0u64, pos.offset);
        // Most lines a finding points at are short: read a little, then more and more.
        let mut buf = vec![0; 1024];
        let mut last = None;
        loop {
            let n = usize::try_from(f.size.checked_sub(at)?)
                .unwrap_or(usize::MAX)
                .min(buf.len());
            let chunk = buf.get_mut(..n)?;
            reader.read_exact_at(at, chunk).ok()?;
            let (body, newline) = match memchr::memchr(b'\n', chunk) {
                Some(k) => (chunk.get(..k)?, true),
                None => (&*chunk, false),
            };
            len += body.len() as u64;
            if count {
                chars += crate::decode::chars_in(body);
            }
            if let Some(&b) = body.last() {
                last = Some(b);
            }
            at += n as u64;
            if newline || n == 0 || at >= f.size {
                // A `\r` before the `\n` (or at the end) is part of the ending.
                let cr = last == Some(b'\r');
                return Some(Line {
                    pos,
                    len: len - u64::from(cr),
                    eol: u8::from(cr) + u8::from(newline),
                    chars: count.then(|| chars - u64::from(cr)),
                });
            }
            if buf.len() < 256 * 1024 {
                buf.resize(buf.len() * 2, 0);
            }
        }
    }
}

fn open_turn(facts: &FileFacts) -> Option<&Turn> {
    facts
        .turns
        .as_ref()
        .and_then(|t| t.turns.last())
        .filter(|t| t.status == TurnStatus::Open)
}

/// The replay's state while it reads.
struct Run<'r> {
    history: History,
    state: StateLog,
    ui: UiLog,
    files: Vec<ReadFile>,
    lineage: Vec<lineage::Problem>,
    /// The files of the lineage read so far (a cycle is one of them again); the file
    /// replayed's entry is made when a lineage is first followed.
    visited: Vec<PathBuf>,
    replayed: Option<PathBuf>,
    resolver: &'r Mutex<Resolver>,
    read: &'r ReadOptions,
    /// The file replayed, and a second reader of it opened when a text of it must be read
    /// back during its pass.
    replayed_source: &'r Source,
    own: Option<Option<SourceFile>>,
    held_times: std::collections::HashMap<(usize, u64), Box<str>>,
}

impl Run<'_> {
    fn feed(&mut self, rec: &Record<'_>, at: At, origin: Origin, rereadable: bool) {
        let Run {
            history,
            files,
            own,
            replayed_source,
            ..
        } = self;
        // A long user message is read back only when a legacy compaction needs its text.
        let mut read = |i: &Item| -> Option<String> {
            let json = match &i.body {
                Body::Held(s) => s.to_string(),
                Body::InFile { .. } => {
                    let file = i.at.map_or(0, |a| a.file);
                    let reader = match files.get(file)?.reread.as_ref() {
                        Some(r) => r,
                        // The file replayed, during its pass: opened again for this.
                        None if file == 0 => own
                            .get_or_insert_with(|| {
                                let reopen = input::reopen(replayed_source).ok()??;
                                Some(SourceFile::new(reopen, &Handles::new(1)))
                            })
                            .as_ref()?,
                        None => return None,
                    };
                    i.body.read_string(Some(reader)).ok()?
                }
            };
            item::message_text(&json)
        };
        let effect = history.record(rec, at, origin, rereadable, &mut read);
        if !rereadable && matches!(rec.kind, Kind::ResponseItem | Kind::Compacted) {
            self.held_times
                .insert((at.file, at.line), rec.timestamp.as_ref().into());
        }
        self.state.record(rec, at, rereadable, effect);
        if let Some(f) = self.files.get_mut(at.file) {
            f.records += 1;
        }
    }

    /// Read the lineage source of `child` (whose `session_meta` is `at`) into the replay, its
    /// own lineage first.
    fn follow(&mut self, child: &Source, base: &HistoryBase, at: Line, depth: usize) {
        if let Some(p) = self.replayed.take() {
            self.visited.push(std::fs::canonicalize(&p).unwrap_or(p));
        }
        // A source's problems point at the file replayed's session_meta.
        let at0 = (depth == 1).then_some(at);
        let target = match check::target(base, at0) {
            Ok(t) => t,
            Err(p) => {
                self.lineage.push(*p);
                return;
            }
        };
        if depth > MAX_LINEAGE_DEPTH {
            let fault = lineage::Fault::TooDeep {
                depth: MAX_LINEAGE_DEPTH,
            };
            self.lineage.push(lineage::Problem::new(at0, fault));
            return;
        }
        let found = self
            .resolver
            .lock()
            .map(|mut r| r.find(child, &target.rollout_id))
            .unwrap_or_else(|e| e.into_inner().find(child, &target.rollout_id));
        let path = match found {
            Ok(p) => p,
            Err(searched) => {
                // Codex looks in the Codex home the thread belongs to: not there, it refuses.
                // With no home to search, the lineage could not be checked.
                let refused = searched.iter().any(lineage::Place::is_codex_home);
                let fault = lineage::Fault::SourceNotFound {
                    rollout_id: target.rollout_id.clone(),
                    searched,
                    refused,
                };
                self.lineage.push(lineage::Problem::new(at0, fault));
                return;
            }
        };
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        let shown = path.display().to_string();
        if self.visited.contains(&key) {
            let fault = lineage::Fault::Cycle { source: shown };
            self.lineage
                .push(lineage::Problem::new(at0, fault).in_source(&path));
            return;
        }
        self.visited.push(key);
        let source = Source::File(path.clone());
        let (stream, reopen) = match input::open_rereadable(&source) {
            Ok(s) => s,
            Err(e) => {
                self.unreadable(&path, &target.rollout_id, input::io_cause(&e), at0);
                return;
            }
        };
        let file = self.files.len();
        let rereadable = reopen.is_some();
        let reread = reopen.map(|r| SourceFile::new(r, &self.read.handles));
        let end = Some(target.cutoff.end_ordinal);
        self.files.push(ReadFile::new(shown.clone(), end, reread));
        let mut dec = Decoder::new(stream).max_line_bytes(self.read.max_line_bytes);
        let mut session = analysis::session::SessionTracker::new();
        // A source that breaks off part-way is not replayed at all, as Codex cannot rebuild
        // from it: what it fed is taken back (the history is still empty here, as the
        // lineage is followed at the first record, so the copy costs nothing).
        let saved = (self.history.clone(), self.state.clone());
        // The lineage check's probe of the cutoff rides along (`check-ordinal`'s judge).
        let mut probe = BoundaryProbe::new(target.cutoff);
        let mut read_error = false;
        self.state.new_file();
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
                            self.follow(&source, &b, rec.line(), depth + 1);
                            self.state.new_file();
                        }
                    }
                    if rec.ordinal.is_some_and(|o| o < target.cutoff.end_ordinal) {
                        let origin = Origin::SourceRollout;
                        self.feed(&rec, At::of(&rec, file), origin, rereadable);
                    }
                }
                Err(e) => {
                    let cause = format!("read error: {}", input::io_cause(&e));
                    self.unreadable(&path, &target.rollout_id, cause, at0);
                    read_error = true;
                    break;
                }
            }
        }
        // `file` is the entry pushed above (`follow` only pushes more after it).
        if let Some(f) = self.files.get_mut(file) {
            f.size = dec.info().bytes;
        }
        if read_error {
            (self.history, self.state) = saved;
            for f in self.files.iter_mut().skip(file) {
                f.records = 0;
            }
        } else {
            let probe = probe.finish(&session, dec.info());
            self.lineage
                .extend(check::judge(&target, &path, &probe, at0));
        }
    }

    fn unreadable(&mut self, path: &Path, rollout_id: &str, cause: String, at: Option<Line>) {
        let fault = lineage::Fault::SourceUnreadable {
            source: path.display().to_string(),
            rollout_id: rollout_id.to_string(),
            cause,
            // What Codex cannot read, it cannot resume from.
            refused: true,
        };
        self.lineage
            .push(lineage::Problem::new(at, fault).in_source(path));
    }
}

/// The last line to replay for `cut`, from a first pass over the turns (over `spooled`,
/// standard input read into memory, when there is one).
fn cut_line(
    source: &Source,
    spooled: Option<&[u8]>,
    read: &ReadOptions,
    cut: &Cut,
) -> Result<CutAt, String> {
    let needs = Needs::default().turns(Detail::Place);
    let facts = match spooled {
        Some(bytes) => analysis::read_stream(bytes, source.clone(), read, &needs),
        None => analysis::read(source, read, &needs),
    };
    if let Some(e) = facts.io_error {
        return Err(e);
    }
    let turns = facts.turns.map(|t| t.turns).unwrap_or_default();
    let (through, r) = match cut {
        Cut::Through(r) => (true, r),
        Cut::Before(r) => (false, r),
    };
    let found = turns.iter().find(|t| match r {
        TurnRef::Index(n) => t.index == *n,
        TurnRef::Id(id) => t.turn_id.as_deref() == Some(id.as_str()),
    });
    let Some(t) = found else {
        let what = match r {
            TurnRef::Index(n) => format!("no turn {n}"),
            TurnRef::Id(id) => format!("no turn with id {id}"),
        };
        let n = turns.len();
        let s = if n == 1 { "" } else { "s" };
        return Err(format!("{what} in the file ({n} turn{s})"));
    };
    Ok(CutAt {
        through,
        turn_index: t.index,
        turn_id: t.turn_id.clone(),
        last_line: if through {
            t.line_end
        } else {
            t.line_start.saturating_sub(1)
        },
    })
}

/// Replay one file, handing each of its records to `watch` too as the pass reads it.
pub fn replay(
    source: &Source,
    resolver: &Mutex<Resolver>,
    read: &ReadOptions,
    opts: &Options,
    watch: Watch<'_>,
) -> Replayed {
    // Standard input, a pipe or a FIFO cannot be read twice: with a cut, it is read into
    // memory once. (Opened again, a FIFO waited for a writer that never came, and a pipe
    // named by `/dev/fd/N` was empty: `tests/cli/hostile/files.rs`,
    // `a_fifo_given_as_a_path_is_read_and_one_in_a_walk_is_skipped`.)
    let once_only = match source {
        Source::Stdin => true,
        Source::File(p) => !std::fs::metadata(p).is_ok_and(|m| m.is_file()),
    };
    let mut spool_error = None;
    let spooled: Option<Vec<u8>> = (opts.cut.is_some() && once_only).then(|| {
        let mut buf = Vec::new();
        let read = input::open(source).and_then(|mut s| {
            use std::io::Read;
            s.read_to_end(&mut buf)
        });
        if let Err(e) = read {
            spool_error = Some(format!("read error: {}", input::io_cause(&e)));
        }
        buf
    });
    let (cut, mut error) = match &opts.cut {
        None => (None, None),
        Some(c) => match cut_line(source, spooled.as_deref(), read, c) {
            Ok(at) => (Some(at), None),
            Err(e) => (None, Some(e)),
        },
    };
    if spool_error.is_some() {
        error = spool_error;
    }
    // The analyses read only what the cut keeps: turns, ordinals and bad lines are those
    // of the prefix a fork there would carry.
    let mut read_cut = read.clone();
    read_cut.until_line = cut.as_ref().map(|c| c.last_line);
    let mut run = Run {
        history: History::new(),
        state: StateLog::default(),
        ui: UiLog::default(),
        files: vec![ReadFile::new(source.display(), None, None)],
        lineage: Vec::new(),
        visited: Vec::new(),
        replayed: source.path().map(PathBuf::from),
        resolver,
        read,
        replayed_source: source,
        own: None,
        held_times: Default::default(),
    };
    // The statuses (rolled back, open) without the texts and settings `turns` shows.
    let needs = Needs::default()
        .turns(Detail::Status)
        .ordinals()
        .listing()
        .reread();
    // The lines a fork or sub-agent copied from its parent, as ranges.
    let mut inherited: Vec<(u64, u64)> = Vec::new();
    let mut last_record: Option<Line> = None;
    let skip = error.is_some();
    let mut observe =
        |rec: &Record<'_>, session: &analysis::session::SessionTracker, rereadable: bool| {
            if skip {
                return;
            }
            let info = session.info();
            let paginated = info.mode() == "paginated";
            last_record = Some(rec.line_uncounted());
            watch(rec, info);
            if session.is_inherited() {
                match inherited.last_mut() {
                    Some((_, end)) if *end + 1 >= rec.pos.line => *end = rec.pos.line,
                    _ => inherited.push((rec.pos.line, rec.pos.line)),
                }
            }
            if rec.kind == Kind::SessionMeta && info.meta_line == Some(rec.pos.line) && paginated {
                if let Some(base) = info.history_base.clone() {
                    run.follow(source, &base, rec.line_uncounted(), 1);
                    run.state.new_file();
                }
            }
            run.feed(rec, At::of(rec, 0), Origin::Record, rereadable);
            if opts.ui {
                run.ui.record(rec, paginated, info.cli_version.as_deref());
            }
        };
    let mut facts = match &spooled {
        Some(bytes) => analysis::read_stream_observed(
            &bytes[..],
            source.clone(),
            &read_cut,
            &needs,
            &mut observe,
        ),
        None => analysis::read_observed(source, &read_cut, &needs, &mut observe),
    };
    if error.is_none() {
        error = facts.io_error.clone();
    }
    // The file replayed is the run's first.
    if let Some(f) = run.files.first_mut() {
        f.reread = facts.file.take();
        f.size = facts.stream.bytes;
    }
    let Run {
        history,
        state,
        ui,
        mut files,
        lineage,
        held_times,
        ..
    } = run;
    // The file replayed keeps its handle in `files`; the facts no longer need it.
    let rebuilt = history.finish();
    let turns = facts.turns.as_ref();
    let open_from = open_turn(&facts).map(|t| t.line_start);
    let pairing = prompt::pair(&rebuilt.items);
    let copied = |line: u64| {
        let k = inherited.partition_point(|&(start, _)| start <= line);
        k.checked_sub(1)
            .and_then(|k| inherited.get(k))
            .is_some_and(|&(_, end)| line <= end)
    };
    let pairs = prompt::facts(&rebuilt.items, &pairing, open_from, &copied);
    let history_len = rebuilt.items.len();
    let prompt_len =
        history_len - pairing.dropped.iter().filter(|d| **d).count() + pairing.unanswered.len();
    let read_item = |files: &[ReadFile], i: &Item| -> Option<String> {
        let f = files.get(i.at.map_or(0, |a| a.file));
        i.body.read_string(f.and_then(|f| f.reread.as_ref())).ok()
    };
    let items = if opts.for_prompt {
        let reserialize =
            prompt::reserializes(facts.session.cli_version.as_deref(), &rebuilt.items);
        prompt::build(rebuilt.items, &pairing, reserialize, |i| {
            read_item(&files, i)
        })
    } else {
        rebuilt.items
    };
    let state = state.finish(turns, |at, b| {
        let f = files.get(at.file);
        b.read_string(f.and_then(|f| f.reread.as_ref())).ok()
    });
    let ui = ui.finish(turns);
    files.shrink_to_fit();
    Replayed {
        facts,
        files,
        items,
        history_len,
        prompt_len,
        base: rebuilt.base,
        rollbacks: rebuilt.rollbacks,
        compactions: rebuilt.compactions,
        state,
        ui,
        lineage,
        history_problems: rebuilt.problems,
        pairs,
        last_record,
        cut,
        error,
        held_times,
    }
}
