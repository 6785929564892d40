//! A lineage rebuilt once for every file of a run that inherits it: the forks of one
//! parent (sub-agents, `codex fork`) name the same source and cutoff, and each would read
//! the whole source again; each fork of a chain inherits the lineage of the one before it
//! and would read it all again. The first to follow a lineage leaves what its sources fed
//! into the replay (history, its pairing, state, the files read, as spans of those files,
//! never copies of their items); the next one whose lineage reaches the same source with
//! the same cutoff and reading, at any depth, takes that instead of reading those sources,
//! in whatever order the workers reach them. Its files are listed after the sources read
//! above it and keep their numbers, which count from the lineage's root
//! ([`super::files`]).
//!
//! What is left and taken is held in persistent collections (`imbl`): taking a lineage
//! copies a few pointers, and the taker's own items are added beside what it shares, never
//! by copying what it inherits. A fork 2 000 deep does its own items' work, not its
//! lineage's again: its calls are paired forward from its lineage's pairing
//! ([`super::pairing`]).
//!
//! Taken only where it is the same replay: when nothing of the child was fed before its
//! lineage (its `session_meta` is its first record), when the lineage found no cycle, and
//! so when no file the child's lineage reaches before it is one of its files
//! ([`crate::lineage::Visitor::kept`] says why). The problems found are the same (the lineage reader places them,
//! [`crate::lineage::Follower`]). Memory: at most [`MAX_HELD_ITEMS`] history items are
//! held, the oldest lineage let go first.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use foldhash::HashMap as FastMap;
use imbl::Vector;

use super::history::History;
use super::state::StateLog;
use super::{Files, ReadFile};
use crate::analysis::boundary::Cutoff;
use crate::codex::Reading;
use crate::lineage::{Fault, Kept};

/// History items held in all the lineages kept, at most (each a few hundred bytes: tens of
/// MB). Each lineage counts all its items, though those it shares with another are held
/// once: the bound is on what is held, and loose.
pub const MAX_HELD_ITEMS: usize = 250_000;

/// A source file kept (two paths and a reader) weighs about as much as this many items.
const FILE_WEIGHT: usize = 4;

/// The lineages rebuilt so far in a run, shared by its workers (clones share them).
#[derive(Debug, Clone, Default)]
pub struct Lineages(Arc<Mutex<Store>>);

#[derive(Debug, Default)]
struct Store {
    /// By key: a canonical path hashed for every source of every lineage followed.
    by_key: FastMap<Key, Arc<Rebuilt>>,
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
    /// Its sources, root first, as the run that read them numbered them (shared with the
    /// runs that take it).
    files: Vector<ReadFile>,
    held_times: Vec<((usize, u64), Box<str>)>,
    found: Kept,
    /// What it holds, counted against [`MAX_HELD_ITEMS`]: its items and its files (each
    /// [`FILE_WEIGHT`] items).
    items: usize,
}

/// What a run holds of its lineage: what a kept lineage is made of and put back into.
pub(super) struct Held<'a> {
    pub(super) history: &'a mut History,
    pub(super) state: &'a mut StateLog,
    pub(super) files: &'a mut Files,
    pub(super) held_times: &'a mut HashMap<(usize, u64), Box<str>>,
}

/// What a run needs to look up, take and leave kept lineages.
#[derive(Debug)]
pub(super) struct Keeper {
    lineages: Lineages,
    reading: Reading,
    images: bool,
    /// The lineage offered to the lineage reader, to be taken.
    offered: Option<Arc<Rebuilt>>,
}

impl Keeper {
    pub(super) fn new(lineages: &Lineages, reading: Reading, images: bool) -> Keeper {
        Keeper {
            lineages: lineages.clone(),
            reading,
            images,
            offered: None,
        }
    }

    fn key(&self, source: &Path, cutoff: Cutoff) -> Key {
        Key {
            source: source.to_path_buf(),
            cutoff,
            reading: self.reading,
            images: self.images,
        }
    }

    /// The lineage from `source` at `cutoff`, when one is kept; it is then offered.
    pub(super) fn offer(&mut self, source: &Path, cutoff: Cutoff) -> Option<Kept> {
        let rebuilt = self.lineages.get(&self.key(source, cutoff))?;
        let found = rebuilt.found.clone();
        self.offered = Some(rebuilt);
        Some(found)
    }

    /// Put the lineage offered into what a run holds, after the files it lists already.
    pub(super) fn take(&mut self, run: Held<'_>) {
        if let Some(rebuilt) = self.offered.take() {
            rebuilt.restore(run);
        }
    }

    /// Keep what `run` holds after following the lineage from `source` at `cutoff`,
    /// which found `found` (not when one of its problems is a cycle, which depends on the
    /// child).
    pub(super) fn leave(&self, source: &Path, cutoff: Cutoff, run: Held<'_>, found: Kept) {
        let cycle = found
            .problems
            .iter()
            .any(|p| matches!(p.fault, Fault::Cycle { .. }));
        // Each fork of one parent would copy the same lineage only to find it kept.
        let key = self.key(source, cutoff);
        if cycle || self.lineages.holds(&key) {
            return;
        }
        let files = run.files.sources().clone();
        let items = run.history.len() + FILE_WEIGHT * files.len();
        // Paired now, the forks that take it pair their own items alone.
        run.history.pair();
        let rebuilt = Rebuilt {
            history: run.history.clone(),
            state: run.state.clone(),
            files,
            held_times: run
                .held_times
                .iter()
                .map(|(k, v)| (*k, v.clone()))
                .collect(),
            found,
            items,
        };
        self.lineages.put(key, rebuilt);
    }
}

impl Lineages {
    fn holds(&self, key: &Key) -> bool {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.by_key.contains_key(key)
    }

    fn get(&self, key: &Key) -> Option<Arc<Rebuilt>> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.by_key.get(key).cloned()
    }

    fn put(&self, key: Key, rebuilt: Rebuilt) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.by_key.contains_key(&key) {
            return;
        }
        kept.items += rebuilt.items;
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
    /// Put it into `run`, whose history is still empty, after the files it lists already.
    /// Its files keep their numbers ([`super::item::At::file`] counts from the root).
    fn restore(&self, run: Held<'_>) {
        *run.history = self.history.clone();
        *run.state = self.state.clone();
        run.files.take(&self.files);
        run.held_times
            .extend(self.held_times.iter().map(|(k, v)| (*k, v.clone())));
    }
}
