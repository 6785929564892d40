//! The `state` rules' checks of each Codex home's databases, once a run's files are read:
//! which threads the run asked about, where each thread's rollouts lie, and the findings
//! about the databases themselves.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::codex::Reading;
use crate::findings::Finding;
use crate::input::placement::{ARCHIVED, SESSIONS};
use crate::input::Source;
use crate::statedb::Home;

use super::{Checker, HomeFacts};

/// The thread id a rollout's name carries, in lower case.
pub fn thread_of(source: &Source) -> Option<String> {
    crate::input::placement::thread_id(source.path()?)
}

/// Which rows of a home's databases a run reports on: every row when it was given the
/// home whole (no path, `--codex-home`, or a path that is a home or its `sessions/` or
/// `archived_sessions/`), else those of the threads it read.
pub struct Scope {
    threads: Option<HashSet<String>>,
    /// The threads whose rollouts the run read.
    read: HashSet<String>,
    /// The homes given whole, read even when no rollout in them was (all were deleted).
    homes: Vec<PathBuf>,
}

impl Scope {
    /// `paths`: the run's; `codex_home`: `--codex-home`; `default_home`: the home read when
    /// no path is given; `read`: the threads of the files read.
    pub fn of(
        paths: &[PathBuf],
        codex_home: Option<&Path>,
        default_home: Option<PathBuf>,
        read: HashSet<String>,
    ) -> Scope {
        let mut homes: Vec<PathBuf> = paths.iter().filter_map(|p| home_of(p)).collect();
        homes.extend(codex_home.map(Path::to_path_buf));
        if paths.is_empty() {
            homes.extend(default_home);
        }
        let whole = !homes.is_empty();
        Scope {
            threads: (!whole).then(|| read.clone()),
            read,
            homes,
        }
    }
}

/// The Codex home `path` is, or whose rollout folder (`sessions/`, `archived_sessions/`) it
/// is: a folder that holds a state database.
fn home_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name().and_then(|n| n.to_str());
    let home = match name {
        Some(SESSIONS | ARCHIVED) => path.parent()?,
        _ => path,
    };
    let has = |db| home.join(db).is_file();
    (has(crate::statedb::STATE_DB) || has(crate::statedb::HISTORY_DB)).then(|| home.to_path_buf())
}

/// The findings about the databases of every home the run read, home by home.
pub fn findings(checker: &Checker, scope: &Scope, codex: Reading) -> Vec<Finding> {
    let Some(homes) = checker.state() else {
        return Vec::new();
    };
    for dir in &scope.homes {
        homes.read(dir);
    }
    let mut out = Vec::new();
    for home in homes.all().iter().filter(|h| h.has_databases()) {
        // Where a row's file went is looked for only when some row's file is gone.
        let gone = home
            .state
            .rows()
            .is_some_and(|rows| rows.iter().any(|r| !home.local_path(r).exists()));
        let rollouts = if gone { rollouts(home) } else { HashMap::new() };
        let facts = HomeFacts {
            home,
            rollouts: &rollouts,
            threads: scope.threads.as_ref(),
            read: &scope.read,
            codex,
        };
        out.extend(super::home(&facts, checker));
    }
    out
}

/// The rollouts in a home's `sessions/` and `archived_sessions/`, by thread id in lower case
/// (where a row's file went).
fn rollouts(home: &Home) -> HashMap<String, Vec<PathBuf>> {
    let mut out: HashMap<String, Vec<PathBuf>> = HashMap::new();
    for dir in [SESSIONS, ARCHIVED] {
        let walk = walkdir::WalkDir::new(home.dir.join(dir)).sort_by_file_name();
        for entry in walk.into_iter().filter_map(Result::ok) {
            let id = crate::input::placement::thread_id(entry.path());
            if let (Some(id), true) = (id, entry.file_type().is_file()) {
                out.entry(id).or_default().push(entry.into_path());
            }
        }
    }
    out
}
