//! Glue between a run and the `state` rules' checks of each Codex home's databases: which
//! threads a run asked about, and the findings about the databases themselves.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::cli::StateArgs;
use crate::codex::Reading;
use crate::findings::Finding;
use crate::input::placement::{ARCHIVED, SESSIONS};
use crate::input::Source;
use crate::rules::{self, Checker, HomeFacts};

/// The thread id a rollout's name carries, in lower case.
pub fn thread_of(source: &Source) -> Option<String> {
    let name = source.path()?.file_name()?.to_str()?;
    crate::lineage::ids_from_file_name(name).map(|(thread, _)| thread.to_ascii_lowercase())
}

/// Which rows of a home's databases a run reports on: every row when it was given the
/// home whole (no path, `--codex-home`, or a path that is a home or its `sessions/` or
/// `archived_sessions/`), else those of the threads it read.
pub struct Scope {
    threads: Option<HashSet<String>>,
    /// The homes given whole, read even when no rollout in them was (all were deleted).
    homes: Vec<PathBuf>,
}

impl Scope {
    pub fn of(
        paths: &[PathBuf],
        state: &StateArgs,
        default_home: Option<PathBuf>,
        read: HashSet<String>,
    ) -> Scope {
        let mut homes: Vec<PathBuf> = paths.iter().filter_map(|p| home_of(p)).collect();
        homes.extend(state.codex_home.clone());
        if paths.is_empty() {
            homes.extend(default_home);
        }
        let whole = !homes.is_empty();
        Scope {
            threads: (!whole).then_some(read),
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
        let rollouts = home.rollouts();
        let facts = HomeFacts {
            home,
            rollouts: &rollouts,
            threads: scope.threads.as_ref(),
            codex,
        };
        out.extend(rules::home(&facts, checker));
    }
    out
}
