//! Where the files of a run lie for a tool that ties findings to a repository (GitHub code
//! scanning, workflow annotations): relative to a root directory (`--root`, default the
//! current one), `/`-separated, without `./`; a file outside the root keeps its absolute
//! path.

use std::path::{Component, Path, PathBuf};

use crate::input::Source;

/// The root the paths of a SARIF log and of annotations are relative to.
#[derive(Debug, Clone)]
pub struct Root {
    /// The root, absolute, `.` and `..` resolved as written.
    dir: PathBuf,
    /// The same with symbolic links resolved, when it exists.
    real: Option<PathBuf>,
    /// The directory relative paths are taken from (the current one).
    cwd: PathBuf,
}

/// Where a file lies from the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Inside it: the path from it, `/`-separated.
    Inside(String),
    /// Outside it: its absolute path.
    Outside(PathBuf),
    /// Standard input.
    Stdin,
}

impl Root {
    /// `dir` (relative to the current directory), or the current directory itself.
    pub fn new(dir: Option<&Path>) -> Root {
        let cwd = std::env::current_dir().unwrap_or_default();
        let dir = normal(&cwd.join(dir.unwrap_or(Path::new("."))));
        let real = dir.canonicalize().ok();
        Root { dir, real, cwd }
    }

    /// The root, absolute.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where `source` lies from the root.
    pub fn place(&self, source: &Source) -> Place {
        let Some(path) = source.path() else {
            return Place::Stdin;
        };
        let abs = normal(&self.cwd.join(path));
        if let Some(rel) = inside(&abs, &self.dir) {
            return Place::Inside(rel);
        }
        // Through a symbolic link (`/tmp` to `/private/tmp`, a linked checkout): the real
        // paths may still nest.
        if let (Some(real_root), Ok(real)) = (&self.real, abs.canonicalize()) {
            if let Some(rel) = inside(&real, real_root) {
                return Place::Inside(rel);
            }
        }
        Place::Outside(abs)
    }

    /// `source`'s path as an annotation names it: from the root, else absolute (`-` for
    /// standard input).
    pub fn display(&self, source: &Source) -> String {
        match self.place(source) {
            Place::Inside(rel) => rel,
            Place::Outside(abs) => abs.display().to_string(),
            Place::Stdin => "-".to_string(),
        }
    }
}

/// `path` from `root`, `/`-separated, when `path` lies below it.
fn inside(path: &Path, root: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// An absolute path with `.` dropped and `..` taking the part before it, as written (no
/// link is followed: `a/link/..` is `a`).
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(dir: &str, cwd: &str) -> Root {
        Root {
            dir: normal(&Path::new(cwd).join(dir)),
            real: None,
            cwd: PathBuf::from(cwd),
        }
    }

    fn file(p: &str) -> Source {
        Source::File(p.into())
    }

    #[test]
    fn paths_are_taken_from_the_root_without_dots() {
        let r = root(".", "/repo");
        assert_eq!(
            r.place(&file("./testdata/a.jsonl")),
            Place::Inside("testdata/a.jsonl".into())
        );
        assert_eq!(
            r.place(&file("x/../testdata/./a.jsonl")),
            Place::Inside("testdata/a.jsonl".into())
        );
        assert_eq!(
            r.place(&file("/repo/sub/a.jsonl")),
            Place::Inside("sub/a.jsonl".into())
        );
        assert_eq!(
            r.place(&file("../other/a.jsonl")),
            Place::Outside("/other/a.jsonl".into())
        );
        assert_eq!(r.place(&Source::Stdin), Place::Stdin);
        let sub = root("testdata", "/repo");
        assert_eq!(sub.display(&file("testdata/b/c.jsonl")), "b/c.jsonl");
        assert_eq!(sub.display(&file("README.md")), "/repo/README.md");
        // A sibling whose name starts with the root's is outside it.
        assert_eq!(
            sub.place(&file("testdata2/x.jsonl")),
            Place::Outside("/repo/testdata2/x.jsonl".into())
        );
    }
}
