//! A lineage rebuilt once for every file of a run that inherits it: the forks of one
//! parent (sub-agents, `codex fork`) name the same source and cutoff, and each would read
//! the whole source again. The first to follow it leaves what its sources fed into the
//! replay (history, state, the files read, as spans of those files, never copies of their
//! items); the next one with the same source, cutoff and reading takes a copy of that
//! instead of reading them, in whatever order the workers reach them.
//!
//! Taken only where it is the same replay: when nothing of the child was fed before its
//! lineage (its `session_meta` is its first record), when the lineage found no cycle, and
//! when the child is not one of the lineage's own files (it would be a cycle for it). The
//! problems found are the same; those at the child's `session_meta` are placed at the
//! next child's. Memory: at most [`MAX_HELD_ITEMS`] history items are held, the oldest
//! lineage let go first.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::history::History;
use super::run::Run;
use super::state::StateLog;
use super::ReadFile;
use crate::analysis::boundary::Cutoff;
use crate::codex::Reading;
use crate::decode::Line;
use crate::input::{self, Handles, Source, SourceFile};
use crate::lineage::{Fault, Problem};

/// History items held in all the lineages kept, at most (each a few hundred bytes: tens of
/// MB).
pub const MAX_HELD_ITEMS: usize = 250_000;

/// The lineages rebuilt so far in a run, shared by its workers (clones share them).
#[derive(Debug, Clone, Default)]
pub struct Lineages(Arc<Mutex<Kept>>);

#[derive(Debug, Default)]
struct Kept {
    by_key: HashMap<Key, Arc<Rebuilt>>,
    /// Oldest first: the order they are let go in.
    order: VecDeque<Key>,
    items: usize,
}

/// What makes two children's lineages the same rebuild.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    /// The first source, as its canonical path.
    pub(super) source: PathBuf,
    pub(super) cutoff: Cutoff,
    pub(super) reading: Reading,
    /// `--for-prompt` looks for images as it reads.
    pub(super) images: bool,
}

/// What a lineage's sources fed into a replay.
#[derive(Debug)]
pub(super) struct Rebuilt {
    history: History,
    state: StateLog,
    /// Each source: its path as shown, its cutoff, the records it carried, its length, and
    /// whether it could be read again (a plain file: reopened for the next child).
    files: Vec<(String, Option<u64>, u64, u64, bool)>,
    held_times: Vec<((usize, u64), Box<str>)>,
    problems: Vec<Problem>,
    /// The canonical paths of its files.
    keys: HashSet<PathBuf>,
    items: usize,
}

impl Lineages {
    /// The lineage kept under `key`, when `child` may take it.
    pub(super) fn get(&self, key: &Key, child: &Source) -> Option<Arc<Rebuilt>> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let rebuilt = kept.by_key.get(key)?.clone();
        drop(kept);
        let me = child.path().map(canonical);
        match me {
            Some(me) if rebuilt.keys.contains(&me) => None,
            _ => Some(rebuilt),
        }
    }

    /// Keep what `run` holds after following a lineage that found `problems` (not when
    /// one of them is a cycle, which depends on the child).
    pub(super) fn put(&self, key: Key, run: &Run<'_>, problems: &[Problem]) {
        if problems
            .iter()
            .any(|p| matches!(p.fault, Fault::Cycle { .. }))
        {
            return;
        }
        let files: Vec<(String, Option<u64>, u64, u64, bool)> = run
            .files
            .iter()
            .skip(1)
            .map(|f| {
                let rereadable = f.reread.is_some();
                (f.path.clone(), f.end_ordinal, f.records, f.size, rereadable)
            })
            .collect();
        let keys = files
            .iter()
            .map(|(p, ..)| canonical(std::path::Path::new(p)))
            .collect();
        let items = run.history.len();
        let rebuilt = Rebuilt {
            history: run.history.clone(),
            state: run.state.clone(),
            files,
            held_times: run
                .held_times
                .iter()
                .map(|(k, v)| (*k, v.clone()))
                .collect(),
            problems: problems.to_vec(),
            keys,
            items,
        };
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.by_key.contains_key(&key) {
            return;
        }
        kept.items += items;
        kept.order.push_back(key.clone());
        kept.by_key.insert(key, Arc::new(rebuilt));
        while kept.items > MAX_HELD_ITEMS && kept.order.len() > 1 {
            let Some(old) = kept.order.pop_front() else {
                break;
            };
            if let Some(r) = kept.by_key.remove(&old) {
                kept.items -= r.items;
            }
        }
    }
}

impl Rebuilt {
    /// Put it into `run`, which holds nothing of its child yet; the problems it found, those
    /// at a child's `session_meta` placed at `at`.
    pub(super) fn restore(&self, run: &mut Run<'_>, at: Line, handles: &Handles) -> Vec<Problem> {
        run.history = self.history.clone();
        run.state = self.state.clone();
        for (path, end, records, size, rereadable) in &self.files {
            let reread = rereadable
                .then(|| {
                    input::reopen(&Source::File(PathBuf::from(path)))
                        .ok()
                        .flatten()
                })
                .flatten()
                .map(|r| SourceFile::new(r, handles));
            let mut f = ReadFile::new(path.clone(), *end, reread);
            f.records = *records;
            f.size = *size;
            run.files.push(f);
        }
        run.held_times
            .extend(self.held_times.iter().map(|(k, v)| (*k, v.clone())));
        self.problems
            .iter()
            .cloned()
            .map(|mut p| {
                if p.at.is_some() {
                    p.at = Some(at);
                }
                p
            })
            .collect()
    }
}

fn canonical(p: &std::path::Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}
