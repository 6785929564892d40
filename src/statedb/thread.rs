//! One rollout held against its thread's rows: the row whose path is this file, its
//! projection checkpoint and stored turns, and where their offsets fall in the file
//! ([`Probe`], filled on the pass).

use std::path::Path;
use std::sync::Arc;

use super::probe::{Probe, Spot};
use super::{Checkpoint, Home, Homes, ThreadRow, TurnRow};

/// What the databases say of one rollout, and where it lands in the file.
#[derive(Debug)]
pub struct ThreadState {
    pub home: Arc<Home>,
    pub row: ThreadRow,
    pub checkpoint: Option<Checkpoint>,
    pub turns: Vec<TurnRow>,
    pub probe: Probe,
    /// Where the row says the thread's rollout is, when that is not this file and nothing
    /// is there (the file moved, or was renamed): Codex looks there and nowhere else.
    pub missing_at: Option<std::path::PathBuf>,
    /// The file's size once it was read. Codex writes a line to the file before it
    /// projects it, so a checkpoint may lag while Codex runs; past the end it never is.
    pub size: u64,
}

impl ThreadState {
    /// The state of the rollout at `path` (the thread its name declares), when its home has a `threads` row
    /// for the thread: the row names this file, or names a path where nothing is (the
    /// file was moved: [`ThreadState::missing_at`]). The projection is held against the file
    /// only where the row names it and the thread is paginated (the projection reads
    /// ordinals; a legacy thread's is not checked), and not in a `.zst`: whether the
    /// offsets count in its compressed or decompressed bytes is not known
    /// (`docs/state.md`).
    pub fn watch(homes: &Homes, path: &Path) -> Option<ThreadState> {
        let id = crate::input::placement::thread_id(path)?;
        let home = homes.of(path)?;
        let row = home.thread(&id)?.clone();
        let named = home.local_path(&row);
        if !crate::input::reread::same_file(&named, path) {
            if named.exists() {
                return None;
            }
            return Some(ThreadState {
                probe: Probe::default(),
                home,
                row,
                checkpoint: None,
                turns: Vec::new(),
                missing_at: Some(named),
                size: 0,
            });
        }
        if row.history_mode.as_deref() != Some("paginated")
            || path.extension().is_some_and(|e| e == "zst")
        {
            return None;
        }
        let checkpoint = home.checkpoint(&row.id);
        let turns = home.turns(&row.id).to_vec();
        let offsets = checkpoint.map(|c| c.next_byte_offset).into_iter().chain(
            turns
                .iter()
                .flat_map(|t| [t.byte_offset, t.end_byte_offset])
                .flatten(),
        );
        Some(ThreadState {
            probe: Probe::new(offsets),
            home,
            row,
            checkpoint,
            turns,
            missing_at: None,
            size: 0,
        })
    }

    /// The pass is over: the file's size, read again now (a file that cannot be read
    /// again keeps the size 0 and a checkpoint is past its end: it was just read whole).
    pub fn finish(&mut self, path: &Path) {
        self.size = std::fs::metadata(path).map_or(0, |m| m.len());
    }

    /// How far Codex has projected the file: its checkpoint, or the end of a stored turn
    /// past it (what an edit must not move), when the row names this file.
    pub fn projected_to(&self) -> Option<u64> {
        if self.missing_at.is_some() {
            return None;
        }
        let turns = self.turns.iter().filter_map(|t| t.end_byte_offset);
        self.checkpoint
            .map(|c| c.next_byte_offset)
            .into_iter()
            .chain(turns)
            .max()
    }

    /// Where the checkpoint falls.
    pub fn checkpoint_spot(&self) -> Option<(Checkpoint, &Spot)> {
        let c = self.checkpoint?;
        Some((c, self.probe.spot(c.next_byte_offset)?))
    }
}
