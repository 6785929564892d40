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
//! A child whose cutoff of a source is not kept goes on from the source's rebuild at the
//! latest cutoff kept below it, when that rebuild says where it goes on from
//! ([`crate::lineage::Resume`]: the source's lines, every record below its cutoff lying
//! before the first line past it): it reads the records between the two cutoffs alone.
//! Sub-agents fork their parent wherever it was when each was spawned; their rebuilds are
//! then one reading of the parent, in pieces, not one each. Its problems are those below the
//! source; the source's own cutoff is judged again (from its lines), and a read of it that
//! breaks off is taken back as a source read whole would be.
//!
//! Taken only where it is the same replay: when nothing of the child was fed before its
//! lineage (its `session_meta` is its first record), when the lineage found no cycle, and
//! so when no file the child's lineage reaches before it is one of its files
//! ([`crate::lineage::Visitor::kept`] says why). The problems found are the same (the lineage reader places them,
//! [`crate::lineage::Follower`]). Memory: at most [`MAX_HELD_ITEMS`] history items are
//! held, the oldest lineage let go first.
//!
//! Rebuilt once whatever the thread scheduling: a run that sets out to rebuild a lineage
//! says so, and another that needs it meanwhile waits for it rather than read its sources
//! too (two forks of one parent begun together would each read the whole parent; over a
//! chain, the fork begun beside the one before it would read one source more). Never a
//! deadlock: a run waits only for a run that is not waiting itself, so no run waits, even
//! through others, for itself.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, ThreadId};

use foldhash::HashMap as FastMap;
use imbl::Vector;

use super::history::History;
use super::state::StateLog;
use super::{Files, ReadFile};
use crate::analysis::boundary::Cutoff;
use crate::codex::Reading;
use crate::fifo::Fifo;
use crate::lineage::{Fault, Kept};

/// History items held in all the lineages kept, at most (each a few hundred bytes: tens of
/// MB). Each lineage counts all its items, though those it shares with another are held
/// once: the bound is on what is held, and loose.
pub const MAX_HELD_ITEMS: usize = 250_000;

/// A source file kept (two paths and a reader) weighs about as much as this many items.
const FILE_WEIGHT: usize = 4;

/// The lineages rebuilt so far in a run, shared by its workers (clones share them).
#[derive(Debug, Clone, Default)]
pub struct Lineages(Arc<Shelf>);

#[derive(Debug, Default)]
struct Shelf {
    store: Mutex<Store>,
    /// Signalled when a lineage being rebuilt is kept or given up.
    changed: Condvar,
}

#[derive(Debug)]
struct Store {
    /// The lineages being rebuilt now, by the thread rebuilding each.
    building: FastMap<Key, ThreadId>,
    /// The threads waiting for one.
    waiting: Vec<ThreadId>,
    /// By key (a canonical path hashed for every source of every lineage followed), each
    /// weighing what it holds: at most [`MAX_HELD_ITEMS`], the oldest let go first.
    by_key: Fifo<Key, Arc<Rebuilt>>,
    /// The cutoffs kept of each source with a rebuild that goes on
    /// ([`crate::lineage::Resume`]), by source, reading and images: the latest below a
    /// child's cutoff is gone on from.
    /// Those let go are dropped as they are met.
    resumable: FastMap<(OsString, Reading, bool), Vec<Cutoff>>,
}

impl Default for Store {
    fn default() -> Store {
        Store {
            building: FastMap::default(),
            waiting: Vec::new(),
            by_key: Fifo::new(MAX_HELD_ITEMS),
            resumable: FastMap::default(),
        }
    }
}

impl Store {
    /// The rebuild kept of `key`'s source, reading and images at the latest cutoff at or
    /// below `key`'s that goes on ([`crate::lineage::Resume`]).
    fn below(&mut self, key: &Key) -> Option<Arc<Rebuilt>> {
        let Store {
            by_key, resumable, ..
        } = self;
        let source = (key.source.clone(), key.reading, key.images);
        let cutoffs = resumable.get_mut(&source)?;
        let at = |cutoff: Cutoff| Key {
            cutoff,
            ..key.clone()
        };
        cutoffs.retain(|c| by_key.contains_key(&at(*c)));
        let best = cutoffs
            .iter()
            .filter(|c| c.end_ordinal <= key.cutoff.end_ordinal)
            .max_by_key(|c| c.end_ordinal)?;
        by_key.get(&at(*best)).cloned()
    }

    /// The run rebuilding `key`'s source, reading and images at the latest cutoff below
    /// `key`'s, when one is.
    fn building_below(&self, key: &Key) -> Option<ThreadId> {
        self.building
            .iter()
            .filter(|(k, _)| {
                k.source == key.source
                    && k.reading == key.reading
                    && k.images == key.images
                    && k.cutoff.end_ordinal <= key.cutoff.end_ordinal
                    && *k != key
            })
            .max_by_key(|(k, _)| k.cutoff.end_ordinal)
            .map(|(_, owner)| *owner)
    }
}

/// What makes two children's lineages the same rebuild.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    /// The first source, as its canonical path (its bytes: `Path`'s hash parses components,
    /// and a canonical path has one spelling).
    pub(super) source: OsString,
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
    /// A lineage was asked for already: the first is the one this run rebuilds.
    asked: bool,
    /// The lineage this run said it rebuilds, until it keeps it or gives it up.
    building: Option<Key>,
    /// The lineage offered is its source's rebuild at an earlier cutoff, to go on from to
    /// this one.
    resuming: Option<Cutoff>,
}

impl Keeper {
    pub(super) fn new(lineages: &Lineages, reading: Reading, images: bool) -> Keeper {
        Keeper {
            lineages: lineages.clone(),
            reading,
            images,
            offered: None,
            asked: false,
            building: None,
            resuming: None,
        }
    }

    fn key(&self, source: &Path, cutoff: Cutoff) -> Key {
        Key {
            source: source.as_os_str().to_owned(),
            cutoff,
            reading: self.reading,
            images: self.images,
        }
    }

    /// The lineage from `source` at `cutoff`, when one is kept (or, being rebuilt by
    /// another run, once that run kept it); it is then offered. The first asked for is
    /// the one this run rebuilds when none is kept: it says so.
    pub(super) fn offer(&mut self, source: &Path, cutoff: Cutoff) -> Option<Kept> {
        let key = self.key(source, cutoff);
        let first = !std::mem::replace(&mut self.asked, true);
        let rebuilt = match self.lineages.wait_for(&key, first) {
            Ok(kept) => kept,
            Err(building) => {
                if building {
                    self.building = Some(key.clone());
                }
                return self.offer_below(&key);
            }
        };
        let mut found = rebuilt.found.clone();
        found.resume = None;
        self.offered = Some(rebuilt);
        Some(found)
    }

    /// The lineage from `key`'s source at the latest cutoff kept below `key`'s that goes
    /// on ([`crate::lineage::Resume`]), offered to be gone on from: its problems those below
    /// the source (the source's own cutoff is judged again, and the sources counted again).
    fn offer_below(&mut self, key: &Key) -> Option<Kept> {
        let below = self.lineages.below(key)?;
        let resume = below.found.resume.clone()?;
        let found = Kept {
            problems: below
                .found
                .problems
                .iter()
                .filter(|p| p.at.is_none())
                .cloned()
                .collect(),
            sources: below.found.sources,
            resume: Some(resume),
        };
        self.resuming = Some(key.cutoff);
        self.offered = Some(below);
        Some(found)
    }

    /// Whether the lineage offered is to be gone on from ([`Keeper::offer`]).
    pub(super) fn resuming(&self) -> bool {
        self.resuming.is_some() && self.offered.is_some()
    }

    /// Put the lineage offered into what a run holds, after the files it lists already.
    /// One to be gone on from has its source read up to this run's cutoff.
    pub(super) fn take(&mut self, run: Held<'_>) {
        if let Some(rebuilt) = self.offered.take() {
            let end = self.resuming.take().map(|c| c.end_ordinal);
            let source = rebuilt.files.len();
            rebuilt.restore(Held {
                history: run.history,
                state: run.state,
                files: run.files,
                held_times: run.held_times,
            });
            if let (Some(end), Some(f)) = (end, run.files.get_mut(source)) {
                f.end_ordinal = Some(end);
            }
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
        // A source's lines (32 bytes each) weigh about a quarter of an item each.
        let lines = found.resume.as_ref().map_or(0, |r| r.lines.weight() / 4);
        let items = run.history.len() + FILE_WEIGHT * files.len() + lines;
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

impl Drop for Keeper {
    /// The lineage it said it rebuilds is kept or given up: those waiting for it go on.
    fn drop(&mut self) {
        if let Some(key) = self.building.take() {
            let mut store = self.lineages.lock();
            store.building.remove(&key);
            drop(store);
            self.lineages.0.changed.notify_all();
        }
    }
}

impl Lineages {
    fn lock(&self) -> MutexGuard<'_, Store> {
        self.0.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn holds(&self, key: &Key) -> bool {
        self.lock().by_key.contains_key(key)
    }

    /// The lineage kept under `key`; while another run rebuilds it (and waits for none
    /// itself), once that run is done with it. When there is none: with `first`, this run
    /// then says it rebuilds it, unless another does (`Err(true)`: it does).
    fn wait_for(&self, key: &Key, first: bool) -> Result<Arc<Rebuilt>, bool> {
        let me = thread::current().id();
        let mut store = self.lock();
        loop {
            if let Some(kept) = store.by_key.get(key) {
                return Ok(kept.clone());
            }
            let Some(&owner) = store.building.get(key) else {
                break;
            };
            store = match self.wait_on(store, owner) {
                Some(store) => store,
                None => return Err(false),
            };
        }
        if first {
            store.building.insert(key.clone(), me);
        }
        Err(first)
    }

    /// The rebuild kept of `key`'s source, reading and images at the latest cutoff at or
    /// below `key`'s that goes on ([`crate::lineage::Resume`]); while another run rebuilds
    /// one below (and waits for none itself), once that run is done with it.
    fn below(&self, key: &Key) -> Option<Arc<Rebuilt>> {
        let mut store = self.lock();
        loop {
            if let Some(kept) = store.below(key) {
                return Some(kept);
            }
            // A rebuild of the source at a cutoff below, under way (forks begun together on
            // many cores): waited for, by a run that waits for none itself, rather than
            // the whole source read again beside it.
            let owner = store.building_below(key)?;
            store = self.wait_on(store, owner)?;
        }
    }

    /// Wait for the run `owner` to keep or give up what it rebuilds; the store again after.
    /// `None`, not waiting, when that is this run or a run that waits itself: so no run
    /// ever waits, even through others, for itself.
    fn wait_on<'s>(
        &'s self,
        mut store: MutexGuard<'s, Store>,
        owner: ThreadId,
    ) -> Option<MutexGuard<'s, Store>> {
        let me = thread::current().id();
        if owner == me || store.waiting.contains(&owner) {
            return None;
        }
        store.waiting.push(me);
        let mut store = self
            .0
            .changed
            .wait(store)
            .unwrap_or_else(|e| e.into_inner());
        store.waiting.retain(|t| *t != me);
        Some(store)
    }

    fn put(&self, key: Key, rebuilt: Rebuilt) {
        let mut kept = self.lock();
        if kept.by_key.contains_key(&key) {
            return;
        }
        let weight = rebuilt.items;
        if rebuilt.found.resume.is_some() {
            let source = (key.source.clone(), key.reading, key.images);
            kept.resumable.entry(source).or_default().push(key.cutoff);
        }
        kept.by_key.insert(key, Arc::new(rebuilt), weight);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    const CUT: Cutoff = Cutoff {
        end_ordinal: 3,
        end_byte_offset: 100,
    };

    fn keeper(l: &Lineages) -> Keeper {
        Keeper::new(l, Reading::default(), false)
    }

    /// Leave an empty lineage from `source`, as a run that followed it does.
    fn leave(k: &Keeper, source: &str) {
        leave_found(k, source, CUT, Kept::default());
    }

    /// Leave an empty lineage from `source` at `cutoff` that goes on
    /// ([`crate::lineage::Resume`]).
    fn leave_going_on(k: &Keeper, source: &str, cutoff: Cutoff) {
        let resume = crate::lineage::Resume {
            lines: Arc::default(),
            from: crate::decode::Pos::default(),
            file: None,
        };
        let found = Kept {
            resume: Some(resume),
            ..Kept::default()
        };
        leave_found(k, source, cutoff, found);
    }

    /// Leave an empty lineage from `source` at `cutoff`, which found `found`.
    fn leave_found(k: &Keeper, source: &str, cutoff: Cutoff, found: Kept) {
        let mut history = History::new();
        let mut state = StateLog::default();
        let mut files = Files::new(ReadFile::new("child", None));
        let mut held_times = HashMap::new();
        let held = Held {
            history: &mut history,
            state: &mut state,
            files: &mut files,
            held_times: &mut held_times,
        };
        k.leave(Path::new(source), cutoff, held, found);
    }

    /// A second run asking on a thread of its own (`ask`), found still waiting 50 ms after
    /// it began.
    fn waiting_second<T: Send + 'static>(
        lineages: &Lineages,
        ask: impl FnOnce(&mut Keeper) -> T + Send + 'static,
    ) -> thread::JoinHandle<T> {
        let l = lineages.clone();
        let (started, waiting) = mpsc::channel();
        let second = thread::spawn(move || {
            let mut k = keeper(&l);
            started.send(()).unwrap();
            ask(&mut k)
        });
        waiting.recv().unwrap();
        thread::sleep(Duration::from_millis(50));
        assert!(!second.is_finished(), "the second run did not wait");
        second
    }

    /// Runs `f` on a thread of its own; what it returns, unless it takes a second.
    fn within_a_second<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(1)).ok()
    }

    /// Two forks of one parent begun together: the second waits for the first's rebuild
    /// and takes it, rather than read the parent too.
    #[test]
    fn a_lineage_being_rebuilt_is_waited_for_and_taken() {
        let lineages = Lineages::default();
        let mut first = keeper(&lineages);
        assert!(first.offer(Path::new("/parent"), CUT).is_none());
        // Until the first keeps it, the second waits.
        let second = waiting_second(&lineages, |k| k.offer(Path::new("/parent"), CUT).is_some());
        leave(&first, "/parent");
        drop(first);
        assert!(second.join().unwrap());
    }

    /// Forks of one parent at two cutoffs begun together: the one at the later cutoff
    /// waits for the earlier one's rebuild and goes on from it, rather than read the parent
    /// too; one at a cutoff below it does not wait, nor goes on.
    #[test]
    fn a_rebuild_below_being_made_is_waited_for_and_gone_on_from() {
        let later = Cutoff {
            end_ordinal: 9,
            end_byte_offset: 300,
        };
        let lineages = Lineages::default();
        let mut first = keeper(&lineages);
        assert!(first.offer(Path::new("/parent"), CUT).is_none());
        let second = waiting_second(&lineages, move |k| {
            let found = k.offer(Path::new("/parent"), later);
            (found.is_some_and(|f| f.resume.is_some()), k.resuming())
        });
        let l = lineages.clone();
        let lower = Cutoff {
            end_ordinal: 1,
            end_byte_offset: 10,
        };
        let below =
            within_a_second(move || keeper(&l).offer(Path::new("/parent"), lower).is_none());
        assert_eq!(below, Some(true), "a fork below waited, or went on");
        leave_going_on(&first, "/parent", CUT);
        drop(first);
        assert_eq!(second.join().unwrap(), (true, true));
    }

    /// One that gives a lineage up (it kept nothing) lets those waiting for it go on to
    /// read it themselves.
    #[test]
    fn a_lineage_given_up_lets_those_waiting_read_it() {
        let lineages = Lineages::default();
        let mut first = keeper(&lineages);
        assert!(first.offer(Path::new("/parent"), CUT).is_none());
        let l = lineages.clone();
        let second = thread::spawn(move || keeper(&l).offer(Path::new("/parent"), CUT).is_some());
        thread::sleep(Duration::from_millis(50));
        drop(first);
        assert!(!second.join().unwrap());
    }

    /// Two runs each rebuilding the lineage the other needs (a chain of files that name
    /// each other, cutoffs and all): the one that asks second does not wait for one that
    /// waits, so neither waits for ever.
    #[test]
    fn two_runs_needing_each_others_lineage_never_wait_for_each_other() {
        let lineages = Lineages::default();
        let l1 = lineages.clone();
        let (a_built, a_built_rx) = mpsc::channel();
        let (b_built, b_built_rx) = mpsc::channel();
        let a = thread::spawn(move || {
            let mut k = keeper(&l1);
            assert!(k.offer(Path::new("/a"), CUT).is_none());
            a_built.send(()).unwrap();
            b_built_rx.recv().unwrap();
            // B rebuilds /b and waits for nothing yet: A waits for it.
            let taken = k.offer(Path::new("/b"), CUT).is_some();
            (k, taken)
        });
        a_built_rx.recv().unwrap();
        let mut b = keeper(&lineages);
        assert!(b.offer(Path::new("/b"), CUT).is_none());
        b_built.send(()).unwrap();
        // Let A begin waiting for /b.
        thread::sleep(Duration::from_millis(50));
        let l = lineages.clone();
        // B now needs /a, which A rebuilds while it waits: B does not wait.
        let asked = within_a_second(move || {
            let found = b.offer(Path::new("/a"), CUT).is_some();
            leave(&b, "/b");
            drop(b);
            drop(l);
            found
        });
        assert_eq!(asked, Some(false), "B waited for A, which waits for B");
        let (a_keeper, taken) = a.join().unwrap();
        assert!(taken);
        drop(a_keeper);
    }
}
