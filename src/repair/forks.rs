//! The paginated forks that name a rollout as their source (`session_meta.history_base`):
//! each carries its source's bytes up to its `end_byte_offset`, so an edit of the source
//! before that byte would move the fork's cutoff ("cutoff byte offset is past the source
//! rollout"). Looked for once a run: among the inputs, in each input's folder and Codex
//! home, and in the run's Codex home.

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::input::{self, Source};
use crate::lineage::rollout_id_from_file_name;

/// A fork of a source: the file, and the source's byte it carries up to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fork {
    pub path: PathBuf,
    pub end_byte_offset: u64,
    /// `history_base.end_ordinal_exclusive`, when it says one.
    pub end_ordinal: Option<u64>,
}

/// Forks by the rollout id (lowercase) of the source they name.
#[derive(Debug, Default)]
pub struct Forks {
    by_source: HashMap<String, Vec<Fork>>,
}

impl Forks {
    /// Look through the places the rollouts of `sources` may have forks.
    pub fn find(sources: &[Source], home: Option<&Path>) -> Forks {
        let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
        let mut files: BTreeSet<PathBuf> = BTreeSet::new();
        for p in sources.iter().filter_map(Source::path) {
            files.insert(p.to_path_buf());
            if let Some(dir) = p.parent() {
                dirs.insert(if dir.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    dir.to_path_buf()
                });
            }
            if let Some(h) = input::placement::home_dir(p) {
                dirs.insert(h.join("sessions"));
                dirs.insert(h.join("archived_sessions"));
            }
        }
        if let Some(h) = home {
            dirs.insert(h.join("sessions"));
            dirs.insert(h.join("archived_sessions"));
        }
        let dirs: Vec<PathBuf> = dirs.into_iter().filter(|d| d.is_dir()).collect();
        files.extend(
            input::discover(&dirs, None)
                .sources
                .into_iter()
                .filter_map(|s| s.path().map(Path::to_path_buf)),
        );
        let mut forks = Forks::default();
        for f in files {
            if let Some((source, end, end_ordinal)) = history_base(&f) {
                forks.by_source.entry(source).or_default().push(Fork {
                    path: f,
                    end_byte_offset: end,
                    end_ordinal,
                });
            }
        }
        forks
    }

    /// The forks of the rollout at `path` (none for a name that is not a rollout's).
    pub fn of(&self, path: &Path) -> &[Fork] {
        path.file_name()
            .and_then(|n| n.to_str())
            .and_then(rollout_id_from_file_name)
            .map(str::to_ascii_lowercase)
            .and_then(|id| self.by_source.get(&id))
            .map_or(&[], Vec::as_slice)
    }
}

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type")]
    type_: Option<String>,
    payload: Option<Meta>,
}

#[derive(Deserialize)]
struct Meta {
    history_base: Option<Base>,
}

#[derive(Deserialize)]
struct Base {
    thread_id: Option<String>,
    end_byte_offset: Option<u64>,
    end_ordinal_exclusive: Option<u64>,
}

/// The source a file's first `session_meta` names, and the byte it ends at: read from the
/// first lines only (a `.zst` decompressed as it is read).
fn history_base(path: &Path) -> Option<(String, u64, Option<u64>)> {
    let stream = input::open(&Source::File(path.to_path_buf())).ok()?;
    for line in BufReader::new(stream).split(b'\n').take(8) {
        let line = line.ok()?;
        let Ok(l) = serde_json::from_slice::<Line>(&line) else {
            continue;
        };
        if l.type_.as_deref() != Some("session_meta") {
            continue;
        }
        let base = l.payload?.history_base?;
        return Some((
            base.thread_id?.to_ascii_lowercase(),
            base.end_byte_offset?,
            base.end_ordinal_exclusive,
        ));
    }
    None
}
