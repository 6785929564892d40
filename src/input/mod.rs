//! Input discovery and opening.
//!
//! Turns the command line's `PATH...` (or `$CODEX_HOME`) into an ordered list of
//! [`Source`]s, and opens each one as a buffered byte stream, decompressing zstd (detected
//! from the magic bytes, never the name) as a stream, multi-frame files included.
//!
//! Order is deterministic: arguments in the order given, each directory's rollouts sorted by
//! path. In a walk, `X.jsonl` shadows `X.jsonl.zst` (Codex prefers the plain file too), what
//! is not a regular file is skipped, and symlinked directories are not followed. A path given
//! explicitly is read as given, whatever it is (a FIFO, `/dev/fd/N`).
//!
//! Opening (`open.rs`), reading a plain file again later (`reread.rs`) and the texts held
//! as where they lie in it (`text.rs`) are modules of their own.

pub mod digest;
pub mod label;
mod open;
pub mod placement;
pub mod reread;
pub mod tally;
pub mod text;

pub use open::{
    is_compressed, is_corrupt_compression, open, open_head, open_rereadable, reopen,
    stdin_is_given, wrap, PooledReader, Stream,
};
pub use reread::{FileAt, Handles, Reopen, SourceFile};
pub use text::{FileText, TextWindow};

// Paths hashed by the thousand: a fast hash (std's SipHash was a tenth of a chain's
// `check-ordinal`).
use foldhash::{HashSet, HashSetExt};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// Standard input (`-`).
    Stdin,
    /// A file, by the path it was found under.
    File(PathBuf),
}

/// A path as shown to users: lossy where it is not UTF-8. A UTF-8 path is copied as it is:
/// `Display` walks it in lossy chunks, a cost paid several times a file (2% of `lint`'s
/// samples over a chain of small forks).
pub fn shown(p: &Path) -> String {
    match p.to_str() {
        Some(s) => s.to_owned(),
        None => p.display().to_string(),
    }
}

impl Source {
    /// The path as shown to users (`-` for standard input).
    pub fn display(&self) -> String {
        match self {
            Source::Stdin => "-".to_string(),
            Source::File(p) => shown(p),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::Stdin => None,
            Source::File(p) => Some(p),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

/// A problem finding inputs: the run goes on, and ends with exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {cause}")]
pub struct InputError {
    pub path: String,
    pub cause: String,
}

/// Where to look when no path is given.
#[derive(Debug, Clone)]
pub struct DefaultRoots {
    pub codex_home: PathBuf,
    pub archived: bool,
}

impl DefaultRoots {
    /// `$CODEX_HOME`, else `~/.codex`.
    pub fn from_env(archived: bool) -> Result<Self, InputError> {
        let home = match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
            Some(h) => PathBuf::from(h),
            None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
                Some(h) => PathBuf::from(h).join(".codex"),
                None => {
                    return Err(InputError {
                        path: "~/.codex".into(),
                        cause: "neither CODEX_HOME nor HOME is set".into(),
                    })
                }
            },
        };
        Ok(DefaultRoots {
            codex_home: home,
            archived,
        })
    }

    /// The directories to walk, in order; an error when none exists.
    pub fn roots(&self) -> Result<Vec<PathBuf>, InputError> {
        let mut wanted = vec![self.codex_home.join("sessions")];
        if self.archived {
            wanted.push(self.codex_home.join("archived_sessions"));
        }
        let found: Vec<PathBuf> = wanted.iter().filter(|p| p.is_dir()).cloned().collect();
        if found.is_empty() {
            let names: Vec<String> = wanted.iter().map(|p| p.display().to_string()).collect();
            let what = match names.as_slice() {
                [one] => format!("{one} does not exist"),
                many => format!("neither {} exists", many.join(" nor ")),
            };
            return Err(InputError {
                path: self.codex_home.display().to_string(),
                cause: format!("no rollouts to read: {what} (set CODEX_HOME or pass a PATH)"),
            });
        }
        Ok(found)
    }
}

/// The result of discovery: the sources in output order, and the problems met.
#[derive(Debug, Default)]
pub struct Discovery {
    pub sources: Vec<Source>,
    pub errors: Vec<InputError>,
    /// The directories given as paths in which the walk found nothing to read (and met no
    /// error): a typo or a wrong folder, which the commands refuse unless told otherwise.
    pub empty: Vec<PathBuf>,
}

/// What a directory walk takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Walk {
    /// `rollout-*.jsonl[.zst]`, a plain file shadowing its `.zst` twin (as Codex reads).
    #[default]
    Rollouts,
    /// Also every `*.jsonl[.zst]` inside a session folder, whatever its name, and shadowed
    /// `.zst` twins: all a Codex home holds that lint has something to say about.
    Everything,
}

/// Expand the given paths (or the default roots when `paths` is empty).
pub fn discover(paths: &[PathBuf], roots: Option<&DefaultRoots>) -> Discovery {
    discover_with(paths, roots, Walk::Rollouts)
}

/// [`discover`], walking directories for what `walk` takes.
pub fn discover_with(paths: &[PathBuf], roots: Option<&DefaultRoots>, walk: Walk) -> Discovery {
    let mut out = Discovery::default();
    let mut seen: HashSet<Source> = HashSet::new();
    // Each input is read once: `-` given twice would only read an empty stream again. The
    // set is grown once for a walk's files (growing it a file at a time hashed each path
    // again at every doubling).
    let mut push = |out: &mut Discovery, found: Vec<Source>| {
        seen.reserve(found.len());
        for s in found {
            if seen.insert(s.clone()) {
                out.sources.push(s);
            }
        }
    };
    if paths.is_empty() {
        let dirs = match roots.map(|r| r.roots()) {
            Some(Ok(d)) => d,
            Some(Err(e)) => {
                out.errors.push(e);
                return out;
            }
            None => Vec::new(),
        };
        for dir in dirs {
            let found = walk_dir(&dir, walk, &mut out.errors);
            push(&mut out, found);
        }
        return out;
    }
    for p in paths {
        if p.as_os_str() == "-" {
            push(&mut out, vec![Source::Stdin]);
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                let errors = out.errors.len();
                let found = walk_dir(p, walk, &mut out.errors);
                if found.is_empty() && out.errors.len() == errors {
                    out.empty.push(p.clone());
                }
                push(&mut out, found);
            }
            // Anything else given explicitly is read as given (file, FIFO, /dev/fd/N).
            Ok(_) => push(&mut out, vec![Source::File(p.clone())]),
            Err(e) => out.errors.push(InputError {
                path: p.display().to_string(),
                cause: io_cause(&e),
            }),
        }
    }
    out
}

/// Each source's size on disk in bytes, in order (what a progress report counts): a
/// compressed file's compressed size; 0 for standard input, and for anything that is not a
/// regular file or cannot be looked at (a FIFO, a file gone since it was found).
pub fn disk_sizes(sources: &[Source]) -> Vec<u64> {
    let size = |s: &Source| match s {
        Source::Stdin => 0,
        Source::File(p) => std::fs::metadata(p)
            .ok()
            .filter(|m| m.is_file())
            .map_or(0, |m| m.len()),
    };
    sources.iter().map(size).collect()
}

impl Walk {
    /// What a walk looks for, in words (for a directory that held none of it).
    pub fn searched(self) -> &'static str {
        match self {
            Walk::Rollouts => "rollout-*.jsonl[.zst]",
            Walk::Everything => "rollout-*.jsonl[.zst] and session folders' *.jsonl[.zst]",
        }
    }
}

/// True for `rollout-*.jsonl` and `rollout-*.jsonl.zst`.
pub fn is_rollout_name(name: &str) -> bool {
    name.starts_with("rollout-") && (name.ends_with(".jsonl") || name.ends_with(".jsonl.zst"))
}

/// Walk one directory for what `walk` takes, sorted by path.
fn walk_dir(dir: &Path, walk: Walk, errors: &mut Vec<InputError>) -> Vec<Source> {
    let mut files: Vec<PathBuf> = Vec::new();
    // Sorted by name within each folder, compared as the paths' bytes: siblings' paths are
    // their folder's path joined with their names, so the bytes order them as the names do,
    // without parsing two paths a comparison (`sort_by_file_name` does; it was a third of
    // `stats` over a folder of 2,000 forks). A test holds the two orders equal.
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by(|a, b| {
            let (a, b) = (a.path().as_os_str(), b.path().as_os_str());
            a.as_encoded_bytes().cmp(b.as_encoded_bytes())
        });
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e
                    .path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| dir.display().to_string());
                let cause = match e.io_error() {
                    Some(io) => io_cause(io),
                    None => e.to_string(),
                };
                errors.push(InputError { path, cause });
                continue;
            }
        };
        let name = match entry.file_name().to_str() {
            Some(n) => n,
            None => continue,
        };
        let taken = is_rollout_name(name)
            || (walk == Walk::Everything
                && placement::is_jsonl_name(name)
                && placement::home_of(entry.path()).is_some());
        if !taken {
            continue;
        }
        let ft = entry.file_type();
        let regular = if ft.is_symlink() {
            // A symlinked file still counts; a symlinked directory is never entered.
            std::fs::metadata(entry.path())
                .map(|m| m.is_file())
                .unwrap_or(false)
        } else {
            ft.is_file()
        };
        if regular {
            files.push(entry.into_path());
        }
    }
    // Codex prefers the plain file over its compressed twin; so do we. A twin's path is
    // the plain file's with `.zst` added, byte for byte (both are the walk's joins), so the
    // paths are compared as strings (`Path`'s hash parses components).
    if walk == Walk::Rollouts {
        let keep: Vec<bool> = {
            let plain: HashSet<&str> = files
                .iter()
                .filter_map(|p| p.to_str())
                .filter(|p| p.ends_with(".jsonl"))
                .collect();
            files
                .iter()
                .map(|p| {
                    let stem = p.to_str().and_then(|s| s.strip_suffix(".zst"));
                    !stem.is_some_and(|s| plain.contains(s))
                })
                .collect()
        };
        let mut keep = keep.into_iter();
        files.retain(|_| keep.next().unwrap_or(true));
    }
    // In path order already: the walk goes depth first through folders sorted by name
    // (`the_walk_orders_files_as_their_names_do`); sorting again compared parsed paths.
    debug_assert!(files.is_sorted());
    files.into_iter().map(Source::File).collect()
}

/// A short cause for an I/O error, without Rust's "(os error N)" suffix.
pub fn io_cause(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollout_names() {
        assert!(is_rollout_name("rollout-2026-01-01T00-00-00-x.jsonl"));
        assert!(is_rollout_name("rollout-x.jsonl.zst"));
        assert!(!is_rollout_name("notes.jsonl"));
        assert!(!is_rollout_name("rollout-x.json"));
    }

    /// The walk's order (names compared as path bytes) is walkdir's `sort_by_file_name`
    /// order, and paths' order, over names that sort apart by case, punctuation, length and
    /// non-ASCII bytes, in folders nested as Codex's date folders are.
    #[test]
    fn the_walk_orders_files_as_their_names_do() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "a", "a.b", "a-b", "A", "b", "\u{e4}", "a b", "a0", "aa", "Z",
        ];
        for d in [
            "2025/01/02",
            "2025/1/02",
            "2025/01",
            "2025-01",
            "2025.01",
            "\u{e4}",
        ] {
            for n in names {
                let f = dir.path().join(d).join(format!("rollout-{n}.jsonl"));
                std::fs::create_dir_all(f.parent().unwrap()).unwrap();
                std::fs::write(&f, b"{}\n").unwrap();
            }
        }
        let got: Vec<PathBuf> = walk_dir(dir.path(), Walk::Rollouts, &mut Vec::new())
            .into_iter()
            .filter_map(|s| s.path().map(Path::to_path_buf))
            .collect();
        let want: Vec<PathBuf> = walkdir::WalkDir::new(dir.path())
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(walkdir::DirEntry::into_path)
            .collect();
        assert_eq!(got.len(), 60);
        assert_eq!(got, want);
        assert!(got.is_sorted());
    }

    #[test]
    fn disk_sizes_are_the_files_bytes_and_nothing_for_stdin_or_a_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("rollout-a.jsonl");
        std::fs::write(&f, b"{}\n{}\n").unwrap();
        let sources = [
            Source::File(f),
            Source::Stdin,
            Source::File(dir.path().join("gone.jsonl")),
            Source::File(dir.path().to_path_buf()),
        ];
        assert_eq!(disk_sizes(&sources), [6, 0, 0, 0]);
    }

    #[test]
    fn stdin_is_listed_once() {
        let d = discover(&[PathBuf::from("-"), PathBuf::from("-")], None);
        assert_eq!(d.sources, vec![Source::Stdin]);
    }

    #[test]
    fn walk_prefers_plain_twin_and_sorts() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("2026/01/02");
        std::fs::create_dir_all(&d).unwrap();
        for n in [
            "rollout-b.jsonl",
            "rollout-b.jsonl.zst",
            "rollout-a.jsonl.zst",
            "other.txt",
        ] {
            std::fs::write(d.join(n), b"").unwrap();
        }
        let mut errors = Vec::new();
        let got: Vec<String> = walk_dir(dir.path(), Walk::Rollouts, &mut errors)
            .iter()
            .map(|s| {
                s.path()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(got, ["rollout-a.jsonl.zst", "rollout-b.jsonl"]);
        assert!(errors.is_empty());
    }
}
