//! What Codex's state databases beside the rollouts say about them: `state_5.sqlite`'s
//! `threads` (each thread's rollout path) and `thread_history_1.sqlite`'s projection (the
//! checkpoint where it goes on in each rollout, the turns it stored). Read only, never
//! written ([`open`]); found in a Codex home ([`Home`]) and held against the rollout each
//! row names ([`probe`]). The `state` rules judge what they find.

pub mod open;
pub mod probe;
pub mod rows;
pub mod thread;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use rows::{Checkpoint, History, Read, ThreadRow, TurnRow, HISTORY_DB, STATE_DB};
pub use thread::ThreadState;

use crate::input::placement::{ARCHIVED, SESSIONS};

/// One Codex home's databases, read once.
#[derive(Debug)]
pub struct Home {
    /// The folder the databases are in (the home).
    pub dir: PathBuf,
    /// The home the rows' paths were written under, when given (`--codex-home-as`).
    pub written_as: Option<PathBuf>,
    pub state: Read<Vec<ThreadRow>>,
    pub history: Read<History>,
    /// Where each thread's row is in `state`, by id in lower case.
    by_id: HashMap<String, usize>,
}

impl Home {
    /// Read the databases in `dir` (each absent, unreadable or read).
    pub fn read(dir: &Path, written_as: Option<&Path>) -> Home {
        let state = rows::read(&dir.join(STATE_DB), rows::threads);
        let by_id = state
            .rows()
            .map(|rows| {
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| (r.id.to_ascii_lowercase(), i))
                    .collect()
            })
            .unwrap_or_default();
        Home {
            dir: dir.to_path_buf(),
            written_as: written_as.map(Path::to_path_buf),
            state,
            history: rows::read(&dir.join(HISTORY_DB), rows::history),
            by_id,
        }
    }

    /// Whether the home has a state database at all (a home of a Codex before them, or a
    /// folder of copied rollouts, has none, and nothing is checked).
    pub fn has_databases(&self) -> bool {
        !matches!(self.state, Read::Absent) || !matches!(self.history, Read::Absent)
    }

    pub fn thread(&self, id: &str) -> Option<&ThreadRow> {
        let i = *self.by_id.get(&id.to_ascii_lowercase())?;
        self.state.rows()?.get(i)
    }

    pub fn checkpoint(&self, id: &str) -> Option<Checkpoint> {
        self.history.rows()?.checkpoints.get(id).copied()
    }

    pub fn turns(&self, id: &str) -> &[TurnRow] {
        self.history
            .rows()
            .and_then(|h| h.turns.get(id))
            .map_or(&[], Vec::as_slice)
    }

    /// Where a row's rollout is in this home: its path as written, with the home it was
    /// written under replaced by [`Home::dir`]. That home is `--codex-home-as` when given;
    /// else the part of the path before its last `sessions` or `archived_sessions` folder
    /// (the only folders Codex writes rollouts in), split at `/` and `\` alike so that a
    /// home written on Windows reads here. A path in neither is taken as written.
    pub fn local_path(&self, row: &ThreadRow) -> PathBuf {
        let written = row.rollout_path.as_str();
        if let Some(prefix) = &self.written_as {
            let prefix = prefix.to_string_lossy();
            let prefix = prefix.trim_end_matches(['/', '\\']);
            if let Some(rest) = written.strip_prefix(prefix) {
                if rest.starts_with(['/', '\\']) {
                    return join_parts(&self.dir, rest.split(['/', '\\']));
                }
            }
        }
        let parts: Vec<&str> = written.split(['/', '\\']).collect();
        match parts.iter().rposition(|p| *p == SESSIONS || *p == ARCHIVED) {
            Some(i) => join_parts(&self.dir, parts.into_iter().skip(i)),
            None => PathBuf::from(written),
        }
    }
}

fn join_parts<'a>(dir: &Path, parts: impl Iterator<Item = &'a str>) -> PathBuf {
    parts
        .filter(|p| !p.is_empty())
        .fold(dir.to_path_buf(), |p, part| p.join(part))
}

/// The homes of one run, each read the first time a file in it asks: by the folder its
/// databases are in.
#[derive(Debug, Default)]
pub struct Homes {
    /// `--codex-home`: the databases of every input are read there.
    pub only: Option<PathBuf>,
    /// `--codex-home-as`.
    pub written_as: Option<PathBuf>,
    read: Mutex<HashMap<PathBuf, Arc<Home>>>,
}

impl Homes {
    pub fn new(only: Option<PathBuf>, written_as: Option<PathBuf>) -> Homes {
        Homes {
            only,
            written_as,
            read: Mutex::new(HashMap::new()),
        }
    }

    /// The home of the rollout at `path`: `--codex-home`, else the home it lies in.
    pub fn of(&self, path: &Path) -> Option<Arc<Home>> {
        let dir = match &self.only {
            Some(d) => d.clone(),
            None => crate::input::placement::home_dir(path)?.to_path_buf(),
        };
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        Some(self.read(&dir))
    }

    /// The home whose databases are in `dir`, read now if it was not.
    pub fn read(&self, dir: &Path) -> Arc<Home> {
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        let home = read
            .entry(dir.to_path_buf())
            .or_insert_with(|| Arc::new(Home::read(dir, self.written_as.as_deref())));
        Arc::clone(home)
    }

    /// Every home read so far, by folder.
    pub fn all(&self) -> Vec<Arc<Home>> {
        let read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        let mut homes: Vec<Arc<Home>> = read.values().cloned().collect();
        homes.sort_by(|a, b| a.dir.cmp(&b.dir));
        homes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home(written_as: Option<&str>) -> Home {
        Home {
            dir: PathBuf::from("/copy/.codex"),
            written_as: written_as.map(PathBuf::from),
            state: Read::Absent,
            history: Read::Absent,
            by_id: HashMap::new(),
        }
    }

    fn row(path: &str) -> ThreadRow {
        ThreadRow {
            id: "t".into(),
            rollout_path: path.into(),
            archived: false,
            history_mode: None,
        }
    }

    #[test]
    fn a_rows_path_is_moved_to_the_home_it_is_read_in() {
        let name = "rollout-2026-12-03T03-53-48-01a23a09-771b-7211-b366-5b4d0b149589.jsonl";
        let at = |h: &Home, p: &str| h.local_path(&row(p)).display().to_string();
        let detected = home(None);
        assert_eq!(
            at(
                &detected,
                &format!("/home/dev/.codex/sessions/2026/12/03/{name}")
            ),
            format!("/copy/.codex/sessions/2026/12/03/{name}")
        );
        assert_eq!(
            at(
                &detected,
                &format!("C:\\Users\\dev\\.codex\\archived_sessions\\{name}")
            ),
            format!("/copy/.codex/archived_sessions/{name}")
        );
        // A home whose own path holds a `sessions` folder: the last one is the home's.
        assert_eq!(
            at(
                &detected,
                &format!("/srv/sessions/u/.codex/sessions/2026/12/03/{name}")
            ),
            format!("/copy/.codex/sessions/2026/12/03/{name}")
        );
        assert_eq!(at(&detected, "/elsewhere/x.jsonl"), "/elsewhere/x.jsonl");
        let given = home(Some("/home/dev/.codex/"));
        assert_eq!(
            at(
                &given,
                &format!("/home/dev/.codex/sessions/2026/12/03/{name}")
            ),
            format!("/copy/.codex/sessions/2026/12/03/{name}")
        );
        assert_eq!(
            at(&given, "/home/dev/.codex/custom/x.jsonl"),
            "/copy/.codex/custom/x.jsonl"
        );
    }
}
