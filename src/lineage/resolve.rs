//! Finding a lineage source on disk by its rollout id.
//!
//! Where it looks, in order: the inputs given on the command line; the child's own
//! directory; the `sessions` and `archived_sessions` of the Codex home the child sits in
//! (when its path has a `sessions` or `archived_sessions` ancestor); the Codex home of the
//! run (`$CODEX_HOME`, or `~/.codex`), `sessions` and `archived_sessions`. Directories are
//! walked with the ordinary discovery (so `X.jsonl` is preferred over `X.jsonl.zst`, as Codex
//! does), once each, and remembered.

// Paths hashed by the thousand: a fast hash (std's SipHash was a tenth of a chain's
// `check-ordinal`).
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::input::{self, Source};
use crate::lineage::rollout_id_from_file_name;
use crate::model::HistoryBase;

/// A place searched for a lineage source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The inputs given on the command line.
    GivenInputs,
    /// A directory walked for rollouts.
    Dir(PathBuf),
    /// A Codex home with neither `sessions` nor `archived_sessions`.
    EmptyHome(PathBuf),
}

impl Place {
    /// A Codex home's session folder: where Codex itself looks.
    pub fn is_codex_home(&self) -> bool {
        matches!(self, Place::Dir(d) if d.file_name()
            .is_some_and(|n| n == "sessions" || n == "archived_sessions"))
    }
}

/// Finds source rollouts by rollout id.
#[derive(Debug)]
pub struct Resolver {
    given: HashMap<String, PathBuf>,
    dirs: HashMap<PathBuf, HashMap<String, PathBuf>>,
    /// The run's Codex home, when one is known.
    home: Option<PathBuf>,
    /// Directories searched after a child's own: those of the file a child is a copy of.
    also: Vec<PathBuf>,
    /// The canonical path of each path looked at so far, and whether it is a directory:
    /// each lineage step compares files and directories by it, and `realpath` costs a
    /// `readlink` a component (a third of `check-ordinal`'s time over a chain of forks).
    /// Keyed by the path's bytes: `Path`'s hash parses components (7% of `lint` over a chain
    /// of forks); a path spelt two ways is looked up twice, to the same answer.
    canonical: HashMap<OsString, (PathBuf, bool)>,
    /// Each file's own `history_base` (`None`: it names none), by canonical path, as a
    /// file's own pass or a lineage step read it: a fork's source is then not opened a
    /// second time for its head (a third of the opens over a chain of forks). The first
    /// `session_meta` of a rollout is written once, at its head, so every reading of it
    /// finds the same; a file written again in the run (`repair`'s scratch copy, checked
    /// after each fix) is noted again by its next pass, the latest reading kept.
    heads: HashMap<OsString, Option<HistoryBase>>,
}

impl Resolver {
    /// A resolver over the run's inputs and its Codex home.
    pub fn new(sources: &[Source], home: Option<PathBuf>) -> Self {
        Resolver {
            given: index(
                sources
                    .iter()
                    .filter_map(Source::path)
                    .map(Path::to_path_buf),
            ),
            dirs: HashMap::new(),
            home,
            also: Vec::new(),
            canonical: HashMap::new(),
            heads: HashMap::new(),
        }
    }

    /// A resolver for copies of `original` placed elsewhere (`repair`'s scratch copies): they
    /// find their sources where `original` finds its own, besides the run's inputs and home.
    pub fn for_copies_of(original: &Source, sources: &[Source], home: Option<PathBuf>) -> Self {
        let mut r = Resolver::new(sources, home);
        r.also = r.places(original);
        r
    }

    /// The file that declares `rollout_id`, never `child` itself; else every place searched.
    pub fn find(&mut self, child: &Source, rollout_id: &str) -> Result<PathBuf, Vec<Place>> {
        let id = rollout_id.to_ascii_lowercase();
        let me = child.path().map(|p| self.canonical(p));
        let mut searched = vec![Place::GivenInputs];
        if let Some(p) = self.given.get(&id).cloned() {
            if me.as_ref() != Some(&self.canonical(&p)) {
                return Ok(p);
            }
        }
        for dir in self.places(child) {
            searched.push(Place::Dir(dir.clone()));
            let idx = self
                .dirs
                .entry(dir.clone())
                .or_insert_with(|| index(walk(&dir).into_iter()));
            if let Some(p) = idx.get(&id).cloned() {
                if me.as_ref() != Some(&self.canonical(&p)) {
                    return Ok(p);
                }
            }
        }
        if let Some(home) = &self.home {
            let dirs = [home.join("sessions"), home.join("archived_sessions")];
            if !dirs.iter().any(|d| d.is_dir()) {
                searched.push(Place::EmptyHome(home.clone()));
            }
        }
        Err(searched)
    }

    /// The `history_base` the file at canonical path `key` names at its head, when the run
    /// read it already ([`Resolver::note_head`]).
    pub fn head(&self, key: &Path) -> Option<Option<HistoryBase>> {
        self.heads.get(key.as_os_str()).cloned()
    }

    /// What the head of the file at canonical path `key` names: its own `history_base`
    /// when it is paginated and names one, else `None`. It replaces an earlier note.
    pub fn note_head(&mut self, key: &Path, base: Option<&HistoryBase>) {
        match self.heads.get_mut(key.as_os_str()) {
            Some(known) => *known = base.cloned(),
            None => {
                self.heads.insert(key.as_os_str().to_owned(), base.cloned());
            }
        }
    }

    /// The canonical path of `p` (itself when it has none: it does not exist), looked up
    /// once a run.
    pub fn canonical(&mut self, p: &Path) -> PathBuf {
        self.looked_up(p).0
    }

    /// Look `p` up before a lineage step asks for it, its file's `lstat` made without
    /// holding `resolver`: a worker that read `p` warms what the thread that follows the
    /// run's lineages, one file after another, will ask (`check-ordinal`).
    pub fn warm(resolver: &std::sync::Mutex<Resolver>, p: &Path) {
        let lock = || {
            resolver
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if lock().canonical.contains_key(p.as_os_str()) {
            return;
        }
        let plain_file = is_plain_file(p);
        lock().looked_up_as(p, |_| plain_file);
    }

    fn looked_up(&mut self, p: &Path) -> (PathBuf, bool) {
        self.looked_up_as(p, is_plain_file)
    }

    /// Its canonical path, and whether it is a directory, looked up once a run; whether it
    /// is a plain file (not a link, not a folder) asked of `plain_file` when it is not
    /// looked up yet.
    fn looked_up_as(
        &mut self,
        p: &Path,
        plain_file: impl FnOnce(&Path) -> bool,
    ) -> (PathBuf, bool) {
        if let Some(known) = self.canonical.get(p.as_os_str()) {
            return known.clone();
        }
        let known = self.look_up_as(p, plain_file(p));
        self.canonical
            .insert(p.as_os_str().to_owned(), known.clone());
        known
    }

    /// Its canonical path, and whether it is a directory. A file that is not a link lies
    /// where its directory's canonical path (looked up once for every file in it) says:
    /// `realpath` costs a `readlink` for each component of a path, and a lineage follows
    /// thousands of files of a few directories.
    fn look_up_as(&mut self, p: &Path, plain_file: bool) -> (PathBuf, bool) {
        if let (Some(dir), Some(name)) = (p.parent(), p.file_name()) {
            if plain_file {
                let dir = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                };
                let (dir, is_dir) = self.looked_up(dir);
                if is_dir {
                    return (dir.join(name), false);
                }
            }
        }
        (same_file_key(p), p.is_dir())
    }

    /// The directories to search for a child's source, in order, without repeats.
    fn places(&mut self, child: &Source) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = Vec::new();
        if let Some(p) = child.path() {
            if let Some(dir) = p.parent() {
                let dir = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                };
                v.push(dir.to_path_buf());
            }
            if let Some(home) = crate::input::placement::home_dir(p) {
                v.push(home.join("sessions"));
                v.push(home.join("archived_sessions"));
            }
        }
        v.extend(self.also.iter().cloned());
        if let Some(home) = &self.home {
            v.push(home.join("sessions"));
            v.push(home.join("archived_sessions"));
        }
        let mut seen = HashSet::new();
        v.retain(|d| {
            let (key, dir) = self.looked_up(d);
            dir && seen.insert(key)
        });
        v
    }
}

/// Rollout files under a directory, by the ordinary discovery (errors are not ours to
/// report: the directory was not given).
fn walk(dir: &Path) -> Vec<PathBuf> {
    input::discover(&[dir.to_path_buf()], None)
        .sources
        .into_iter()
        .filter_map(|s| s.path().map(Path::to_path_buf))
        .collect()
}

/// Rollout id (lowercase) → first file that declares it.
fn index(paths: impl Iterator<Item = PathBuf>) -> HashMap<String, PathBuf> {
    let mut m = HashMap::new();
    for p in paths {
        let id = p
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(rollout_id_from_file_name)
            .map(str::to_ascii_lowercase);
        if let Some(id) = id {
            m.entry(id).or_insert(p);
        }
    }
    m
}

/// Whether `p` is a file that is not a link (nor a folder).
fn is_plain_file(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| !m.file_type().is_symlink() && !m.is_dir())
}

/// A path to compare files by (the canonical path when there is one).
fn same_file_key(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Looked up through its directory's canonical path or not, a path's canonical form
    /// is `realpath`'s: through a linked directory, a linked file, `..`, a relative path;
    /// itself when nothing is there.
    #[test]
    fn a_canonical_path_is_realpaths_however_it_is_reached() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real");
        std::fs::create_dir_all(real.join("sub")).unwrap();
        let file = real.join("sub/a.jsonl");
        std::fs::write(&file, "{}\n").unwrap();
        std::os::unix::fs::symlink(&real, tmp.path().join("linked")).unwrap();
        std::os::unix::fs::symlink(&file, real.join("b.jsonl")).unwrap();
        let paths = [
            file.clone(),
            tmp.path().join("linked/sub/a.jsonl"),
            real.join("b.jsonl"),
            real.join("sub/../sub/a.jsonl"),
            real.join("sub/./a.jsonl"),
            real.join("sub"),
            tmp.path().join("linked"),
        ];
        let mut r = Resolver::new(&[], None);
        for p in &paths {
            let want = std::fs::canonicalize(p).unwrap();
            assert_eq!(r.canonical(p), want, "{}", p.display());
            // Again, from what the run remembers.
            assert_eq!(r.canonical(p), want, "{}", p.display());
            // Looked up ahead by a worker, the same.
            let warmed = std::sync::Mutex::new(Resolver::new(&[], None));
            Resolver::warm(&warmed, p);
            assert_eq!(warmed.lock().unwrap().canonical(p), want, "{}", p.display());
        }
        let missing = real.join("sub/missing.jsonl");
        assert_eq!(r.canonical(&missing), missing);
        // A relative path, from the current directory (the package's, under cargo).
        let relative = Path::new("Cargo.toml");
        assert_eq!(r.canonical(relative), relative.canonicalize().unwrap());
    }
}
