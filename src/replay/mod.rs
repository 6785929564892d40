//! Replay: rebuild what Codex rebuilds from a rollout on resume and fork (`docs/replay.md`;
//! upstream `Session::reconstruct_history_from_rollout`): the model history ([`history`]), the
//! prompt made of it ([`prompt`]), the session state ([`state`]) and what a client is shown
//! ([`ui`]), with what will fail or be lossy on resume as findings.
//!
//! One replay reads the file once, beside the shared analyses of that pass (the turn
//! segmentation, whose rollback code the history shares; the ordinal check, whose head and
//! sequence findings are the replay's too): [`analysis::read_observed`]. A paginated
//! fork's or revert's lineage (`history_base`) is followed when its `session_meta` is read:
//! the source rollout, found by the shared [`Resolver`], is read first through the one
//! lineage reader ([`lineage::follow`]: its records with `ordinal < end_ordinal_exclusive`),
//! chains followed, cycles refused. A legacy copy-fork
//! holds its parent's records itself.
//!
//! Items are held as where they lie in a plain file ([`input::FileText`]), never as text, so a
//! history of hundreds of MB costs a few words per item; [`Replayed::json`] reads one back
//! when it is written.

mod cut;
mod files;
pub mod history;
pub mod item;
pub mod pairing;
pub mod prompt;
mod run;
mod shared;
pub mod state;
pub mod transcript;

pub use shared::Lineages;
pub mod ui;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::analysis::session::SessionInfo;
use crate::analysis::turns::{Detail, Turn, TurnStatus};
use crate::analysis::{self, FileFacts, Needs, ReadOptions};
use crate::codex::{Answer, Behaviour, Reading, Spec};
use crate::decode::{Kind, Line, Pos, Record};
use crate::input::{self, FileText, Source, TextWindow};
use crate::lineage::{self, Resolver};
pub use cut::{Cut, CutAt, TurnRef};
pub use files::{Files, ReadFile};
use history::{Base, Rollback};
use item::{At, Item, Items, Origin};
use prompt::PairFact;
use run::Run;
use state::State;
use ui::UiRow;

/// `major.minor` of a `cli_version`, when it reads as one (the behaviours that changed
/// between Codex versions are keyed on it).
pub(crate) fn cli_version(v: Option<&str>) -> Option<(u64, u64)> {
    let mut parts = v?.split('.').map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??))
}

/// What a replay computes.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Normalise the history as Codex does before sending it.
    pub for_prompt: bool,
    pub cut: Option<Cut>,
    /// Collect what a client is shown.
    pub ui: bool,
    /// Keep the commands' outputs a client is shown (for a transcript).
    pub ui_outputs: bool,
    /// Lineages rebuilt once and shared by the files of a run that inherit them (one
    /// resolver must find every source of the run); `None`: each file follows its own.
    pub lineages: Option<shared::Lineages>,
    /// The Codex version the file is read as.
    pub codex: Spec,
}

/// A reader that rides along the replay's pass: each record of the file replayed (not of
/// its lineage sources) and the session so far. The rules read records this way.
pub type Watch<'w> = &'w mut dyn FnMut(&Record<'_>, &SessionInfo);

/// Everything one replay found.
#[derive(Debug)]
pub struct Replayed {
    /// The one pass over the file replayed (its session, stream, bad lines, turns, ordinals).
    pub facts: FileFacts,
    pub files: Files,
    /// The history, or the prompt with [`Options::for_prompt`].
    pub items: Items,
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
    /// The Codex version the file was read as, and why.
    pub reading: Reading,
    /// Why the replay could not be done (a cut naming no turn); the file was still read.
    pub error: Option<String>,
    /// The timestamps of item lines of held input (file, line), for the transcript.
    held_times: HashMap<(usize, u64), Box<str>>,
    /// Items lie in file order, close together: rows are written with one read per window
    /// rather than one per item (a window per file read back, by file).
    windows: RefCell<HashMap<usize, TextWindow>>,
}

impl Replayed {
    /// The JSON text of a body read in file `file`.
    pub fn body_json(&self, file: usize, body: &FileText) -> std::io::Result<String> {
        match body {
            FileText::Held(s) => Ok(s.to_string()),
            FileText::InFile { .. } => {
                let f = self
                    .files
                    .get(file)
                    .ok_or_else(|| std::io::Error::other("no such file in the replay"))?;
                let mut windows = self.windows.borrow_mut();
                let window = windows.entry(file).or_default();
                window.read(f.reread.as_deref(), f.size, body)
            }
        }
    }

    /// An item's JSON text, exactly as it lies in its file (or as the replay made it).
    pub fn json(&self, item: &Item) -> std::io::Result<String> {
        self.body_json(item.at.map_or(0, |a| a.file), &item.body)
    }

    /// The path of the file an item was read in (the file replayed for a synthetic one).
    pub fn path_of(&self, item: &Item) -> &str {
        self.path_of_file(item.at.map_or(0, |a| a.file))
    }

    /// The path of file `id` of the replay ([`At::file`]).
    pub fn path_of_file(&self, id: usize) -> &str {
        self.files.get(id).map_or("", |f| &f.path)
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
        let f = self.files.own();
        input::reread::excerpt(f.reread.as_ref()?, f.size, pos.offset, max)
    }

    /// The bytes of `line` (without its ending) in the file replayed, read back; `None` for
    /// input that cannot be read again. For a fix that moves or compares a line.
    pub fn bytes(&self, line: &Line) -> Option<Vec<u8>> {
        let f = self.files.own();
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
        let f = self.files.own();
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

/// Replay one file, handing each of its records to `watch` too as the pass reads it.
pub fn replay(
    source: &Source,
    resolver: &Mutex<Resolver>,
    read: &ReadOptions,
    opts: &Options,
    watch: Watch<'_>,
) -> Replayed {
    let (spooled, spool_error) = cut::spool(source, opts.cut.as_ref());
    let (cut, cut_error) = match &opts.cut {
        None => (None, None),
        Some(c) => match cut::cut_line(source, spooled.as_deref(), read, c) {
            Ok(at) => (Some(at), None),
            Err(e) => (None, Some(e)),
        },
    };
    // The input could not be read whole: that says more than the cut it failed to find.
    let error = spool_error.or(cut_error);
    let input = Input {
        spooled: spooled.as_deref(),
        cut: cut.as_ref(),
        // With no replay to do (a cut naming no turn), the pass still reads the file.
        replaying: error.is_none(),
    };
    let pass = read_pass(source, &input, resolver, read, opts, watch);
    let error = error.or_else(|| pass.facts.io_error.clone());
    finish(pass, opts, cut, error)
}

/// How the pass reads the file replayed: from the copy of it held in memory, if any, and
/// where it stops.
struct Input<'a> {
    spooled: Option<&'a [u8]>,
    cut: Option<&'a CutAt>,
    replaying: bool,
}

/// What the pass over the file replayed gave.
struct Pass<'r> {
    facts: FileFacts,
    run: Run<'r>,
    /// The lines a fork or sub-agent copied from its parent, as ranges.
    inherited: Vec<(u64, u64)>,
    last_record: Option<Line>,
    lineage: Vec<lineage::Problem>,
}

/// The one pass over the file replayed: the shared analyses of its records (the turn
/// statuses, the ordinals, the listing) and the rebuild beside them, its lineage followed
/// when its `session_meta` is read.
fn read_pass<'r>(
    source: &'r Source,
    input: &Input<'_>,
    resolver: &Mutex<Resolver>,
    read: &ReadOptions,
    opts: &Options,
    watch: Watch<'_>,
) -> Pass<'r> {
    // The analyses read only what the cut keeps: turns, ordinals and bad lines are those
    // of the prefix a fork there would carry.
    let mut read_cut = read.clone();
    read_cut.until_line = input.cut.map(|c| c.last_line);
    let mut run = Run::new(source);
    run.ui = ui::UiLog::new(opts.ui_outputs);
    if opts.for_prompt {
        run.history.look_for_images();
    }
    // The statuses (rolled back, open) without the texts and settings `turns` shows.
    let needs = Needs::default()
        .turns(Detail::Status)
        .ordinals()
        .listing()
        .reread();
    let mut follower = lineage::Follower::new(resolver, read);
    let mut lineage = Vec::new();
    let mut inherited: Vec<(u64, u64)> = Vec::new();
    let mut last_record: Option<Line> = None;
    let mut follows = true;
    let mut observe =
        |rec: &Record<'_>, session: &analysis::session::SessionTracker, rereadable: bool| {
            if !input.replaying {
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
            let first_meta = rec.kind == Kind::SessionMeta && info.meta_line == Some(rec.pos.line);
            if first_meta {
                let reading = opts.codex.reading(info.cli_version.as_deref());
                run.history.read_as(reading);
                follows = reading.does(Behaviour::HistoryBase, Answer::Reads);
            }
            if first_meta && paginated && follows {
                if let Some(base) = info.history_base.clone() {
                    let at = rec.line_uncounted();
                    let reading = opts.codex.reading(info.cli_version.as_deref());
                    let child = (source, &base, at);
                    let l = opts.lineages.as_ref();
                    let found = follow(&mut follower, &mut run, child, reading, l);
                    lineage.extend(found);
                    run.state.new_file();
                }
            }
            run.feed(rec, At::of(rec, 0), Origin::Record, rereadable);
            if opts.ui {
                run.ui.record(rec, paginated, info.cli_version.as_deref());
            }
        };
    let mut facts = match input.spooled {
        Some(bytes) => {
            analysis::read_stream_observed(bytes, source.clone(), &read_cut, &needs, &mut observe)
        }
        None => analysis::read_observed(source, &read_cut, &needs, &mut observe),
    };
    // The file replayed is the run's first; it keeps its handle there.
    {
        let f = run.files.own_mut();
        f.reread = facts.file.take().map(Arc::new);
        f.size = facts.stream.bytes;
    }
    Pass {
        facts,
        run,
        inherited,
        last_record,
        lineage,
    }
}

/// Follow the lineage of `source` into `run`, taking the rebuilds other files of the run
/// left where it may, and leaving its own for the next file whose lineage reaches its
/// first source ([`shared`]). The problems found.
fn follow(
    follower: &mut lineage::Follower<'_>,
    run: &mut Run<'_>,
    child: (&Source, &crate::model::HistoryBase, Line),
    reading: crate::codex::Reading,
    lineages: Option<&shared::Lineages>,
) -> Vec<lineage::Problem> {
    let (source, base, at) = child;
    // Only a lineage that comes first is the same rebuild for every child.
    let first = !run.fed && !run.files.has_sources() && run.history.is_empty();
    let keeper = lineages
        .filter(|_| first)
        .map(|l| shared::Keeper::new(l, reading, run.history.images()));
    run.keeper = keeper;
    let followed = follower.follow(source, base, at, run);
    if let (Some(keeper), Some((path, cutoff))) = (run.keeper.take(), &followed.first) {
        let found = lineage::Kept {
            problems: followed.problems.clone(),
            sources: followed.sources,
            resume: followed.resume,
        };
        let held = shared::Held {
            history: &mut run.history,
            state: &mut run.state,
            files: &mut run.files,
            held_times: &mut run.held_times,
        };
        keeper.leave(path, *cutoff, held, found);
    }
    followed.problems
}

/// What the replay found, made from the pass: the history finished, paired, made a prompt
/// when asked; the state and the UI view finished.
fn finish(pass: Pass<'_>, opts: &Options, cut: Option<CutAt>, error: Option<String>) -> Replayed {
    let Pass {
        facts,
        run,
        inherited,
        last_record,
        lineage,
    } = pass;
    let Run {
        history,
        state,
        ui,
        files,
        held_times,
        ..
    } = run;
    let rebuilt = history.finish();
    let turns = facts.turns.as_ref();
    let open_from = open_turn(&facts).map(|t| t.line_start);
    let pairing = &rebuilt.pairing;
    let copied = |line: u64| {
        let k = inherited.partition_point(|&(start, _)| start <= line);
        k.checked_sub(1)
            .and_then(|k| inherited.get(k))
            .is_some_and(|&(_, end)| line <= end)
    };
    let pairs = prompt::facts(&rebuilt.items, pairing, open_from, &copied);
    let history_len = rebuilt.items.len();
    let prompt_len = history_len - pairing.dropped() + pairing.unanswered_len();
    let reading = opts.codex.reading(facts.session.cli_version.as_deref());
    let items = if opts.for_prompt {
        let reserialize =
            prompt::reserializes(facts.session.cli_version.as_deref(), &rebuilt.items);
        let ids = reading.does(Behaviour::HistoryItemIds, Answer::Keeps);
        let images = reading.does(Behaviour::ImagePreparation, Answer::Prepares);
        prompt::build(rebuilt.items, pairing, reserialize, ids, images, |i| {
            read_text(&files, i.at.map_or(0, |a| a.file), &i.body)
        })
        .into_iter()
        .map(Arc::new)
        .collect()
    } else {
        rebuilt.items
    };
    let state = state.finish(turns, |at, b| read_text(&files, at.file, b));
    let ui = ui.finish(turns);
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
        reading,
        error,
        held_times,
        windows: RefCell::default(),
    }
}

/// A body's text, read back from file `file` of the run (`None` where it cannot be).
fn read_text(files: &Files, file: usize, body: &FileText) -> Option<String> {
    let f = files.get(file);
    body.read_string(f.and_then(|f| f.reread.as_deref())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{self, Line};
    use serde_json::json;
    use std::path::{Path, PathBuf};

    const SOURCE: &str = "01a22800-0000-7000-8000-00000000000a";
    const CHILD: &str = "01a22800-0000-7000-8000-00000000000b";

    fn name(id: &str) -> String {
        format!("rollout-2026-01-01T00-00-00-{id}.jsonl")
    }

    fn user(text: &str) -> serde_json::Value {
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
    }

    /// A paginated rollout: its `session_meta` (with `base` as its `history_base`) at
    /// ordinal `first`, then one user message a text.
    fn paginated(id: &str, first: u64, base: Option<serde_json::Value>, texts: &[&str]) -> String {
        let mut meta = json!({"id": id, "history_mode": "paginated"});
        if let Some(b) = base {
            meta["history_base"] = b;
        }
        let mut lines: Vec<Line> = vec![testkit::meta(meta).ordinal(first)];
        for (i, t) in texts.iter().enumerate() {
            lines.push(testkit::item(user(t)).ordinal(first + 1 + i as u64));
        }
        testkit::jsonl(&lines)
    }

    fn replay_of(path: &Path, all: &[PathBuf], opts: &Options) -> Replayed {
        let sources: Vec<Source> = all.iter().cloned().map(Source::File).collect();
        let resolver = Mutex::new(Resolver::new(&sources, None));
        let source = Source::File(path.to_path_buf());
        replay(
            &source,
            &resolver,
            &ReadOptions::default(),
            opts,
            &mut |_, _| {},
        )
    }

    fn texts(r: &Replayed) -> Vec<String> {
        r.items
            .iter()
            .map(|i| {
                let v: serde_json::Value = serde_json::from_str(&r.json(i).unwrap()).unwrap();
                v["content"][0]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    }

    /// A fork (by reference) and its source, in `dir`: the source holds ordinals 0..=3
    /// (`s1`..`s3`), the fork's base ends at `end` with the byte offset `offset` (the
    /// boundary's when `None`).
    fn fork(dir: &Path, end: u64, offset: Option<u64>) -> (PathBuf, PathBuf) {
        let source = paginated(SOURCE, 0, None, &["s1", "s2", "s3"]);
        let boundary = source
            .split_inclusive('\n')
            .take(end as usize)
            .map(str::len)
            .sum::<usize>() as u64;
        let base = json!({
            "thread_id": SOURCE,
            "end_ordinal_exclusive": end,
            "end_byte_offset": offset.unwrap_or(boundary),
        });
        let (sp, cp) = (dir.join(name(SOURCE)), dir.join(name(CHILD)));
        std::fs::write(&sp, source).unwrap();
        std::fs::write(&cp, paginated(CHILD, end, Some(base), &["own"])).unwrap();
        (sp, cp)
    }

    #[test]
    fn a_fork_reads_its_source_up_to_the_cutoff_first() {
        let dir = tempfile::tempdir().unwrap();
        let (sp, cp) = fork(dir.path(), 3, None);
        let r = replay_of(&cp, &[cp.clone(), sp], &Options::default());
        assert!(r.lineage.is_empty(), "{:?}", r.lineage);
        assert_eq!(texts(&r), ["s1", "s2", "own"]);
        assert_eq!(r.files.count(), 2);
        let source = r.files.listed().nth(1).unwrap();
        assert_eq!((source.end_ordinal, source.records), (Some(3), 3));
        // The source's items are read back from the source.
        assert!(r.path_of(&r.items[0]).ends_with(&name(SOURCE)));
        assert!(r.path_of(&r.items[2]).ends_with(&name(CHILD)));
    }

    #[test]
    fn a_cutoff_off_its_boundary_is_a_lineage_problem_and_the_source_still_counts() {
        let dir = tempfile::tempdir().unwrap();
        let (sp, cp) = fork(dir.path(), 3, Some(1));
        let r = replay_of(&cp, &[cp.clone(), sp.clone()], &Options::default());
        assert_eq!(r.lineage.len(), 1, "{:?}", r.lineage);
        let p = &r.lineage[0];
        assert!(matches!(
            p.fault,
            lineage::Fault::OffsetNotAtLineStart { .. }
        ));
        assert_eq!(p.at.map(|l| l.pos.line), Some(1));
        assert_eq!(p.source.as_ref().map(|s| s.path.clone()), Some(sp));
        assert_eq!(texts(&r), ["s1", "s2", "own"]);
    }

    #[test]
    fn a_missing_source_adds_nothing_and_is_judged_by_where_it_was_looked_for() {
        let dir = tempfile::tempdir().unwrap();
        let (sp, cp) = fork(dir.path(), 3, None);
        std::fs::remove_file(&sp).unwrap();
        let r = replay_of(&cp, std::slice::from_ref(&cp), &Options::default());
        assert_eq!(texts(&r), ["own"]);
        assert_eq!(r.files.count(), 1);
        match &r.lineage[..] {
            [p] => assert!(
                matches!(
                    &p.fault,
                    lineage::Fault::SourceNotFound { refused: false, .. }
                ),
                "{p:?}"
            ),
            other => panic!("{other:?}"),
        }
    }

    /// Two turns of a legacy file, each a `task_started`, a user message and a
    /// `task_complete`.
    fn two_turns() -> String {
        let mut lines = vec![testkit::meta(json!({"id": CHILD}))];
        for (id, text) in [("t1", "first"), ("t2", "second")] {
            lines.push(testkit::event(
                json!({"type": "task_started", "turn_id": id}),
            ));
            lines.push(testkit::item(user(text)));
            lines.push(testkit::event(
                json!({"type": "task_complete", "turn_id": id}),
            ));
        }
        testkit::jsonl(&lines)
    }

    #[test]
    fn a_cut_keeps_what_a_fork_there_would_carry() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name(CHILD));
        std::fs::write(&path, two_turns()).unwrap();
        let with = |cut: Cut| Options {
            cut: Some(cut),
            ..Options::default()
        };
        let through = replay_of(&path, &[], &with(Cut::Through(TurnRef::Index(1))));
        assert_eq!(texts(&through), ["first"]);
        let at = through.cut.unwrap();
        assert_eq!((at.through, at.turn_index, at.last_line), (true, 1, 4));
        let before = replay_of(&path, &[], &with(Cut::Before(TurnRef::Id("t2".into()))));
        assert_eq!(texts(&before), ["first"]);
        assert_eq!(before.cut.unwrap().last_line, 4);
        let none = replay_of(&path, &[], &with(Cut::Through(TurnRef::Index(3))));
        assert_eq!(
            none.error.as_deref(),
            Some("no turn 3 in the file (2 turns)")
        );
        assert!(none.items.is_empty());
    }
}
