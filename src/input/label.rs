//! How a file is named to a person: relative to the root it was found under, that root's
//! own name first (`sessions/2026/11/29/rollout-….jsonl`, `archived_sessions/…`,
//! `real/0.171.0/…`), so a table's paths are short and still say where each file is. A
//! file given by itself, or whose short name another file has too, is named as given.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::Source;

/// Each file's short name, for `sources` found under the directories `roots`.
pub fn labels(sources: &[Source], roots: &[PathBuf]) -> HashMap<PathBuf, String> {
    let mut out: HashMap<PathBuf, String> = HashMap::new();
    for s in sources {
        let Some(path) = s.path() else { continue };
        if let Some(label) = short(path, roots) {
            out.insert(path.to_path_buf(), label);
        }
    }
    // Two files with one short name (two roots of the same name, say): both as given.
    let mut seen = HashSet::new();
    let twice: HashSet<String> = out
        .values()
        .filter(|l| !seen.insert(l.as_str()))
        .cloned()
        .collect();
    out.retain(|_, l| !twice.contains(l));
    out
}

/// `path` relative to the deepest of `roots` holding it, after that root's name.
fn short(path: &Path, roots: &[PathBuf]) -> Option<String> {
    let (root, rel) = roots
        .iter()
        .filter_map(|r| Some((r, path.strip_prefix(r).ok()?)))
        .max_by_key(|(r, _)| r.components().count())?;
    if rel.as_os_str().is_empty() {
        return None;
    }
    let named = match root.file_name() {
        Some(name) => Path::new(name).join(rel),
        None => rel.to_path_buf(),
    };
    Some(named.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(p: &str) -> Source {
        Source::File(PathBuf::from(p))
    }

    #[test]
    fn files_are_named_from_the_root_they_were_found_under() {
        let roots = [
            PathBuf::from("/home/u/.codex/sessions"),
            PathBuf::from("/home/u/.codex/archived_sessions"),
        ];
        let sources = [
            file("/home/u/.codex/sessions/2026/11/29/rollout-a.jsonl"),
            file("/home/u/.codex/archived_sessions/rollout-b.jsonl"),
            file("/elsewhere/rollout-c.jsonl"),
            Source::Stdin,
        ];
        let l = labels(&sources, &roots);
        let name = |p: &str| l.get(Path::new(p)).map(String::as_str);
        assert_eq!(
            name("/home/u/.codex/sessions/2026/11/29/rollout-a.jsonl"),
            Some("sessions/2026/11/29/rollout-a.jsonl")
        );
        assert_eq!(
            name("/home/u/.codex/archived_sessions/rollout-b.jsonl"),
            Some("archived_sessions/rollout-b.jsonl")
        );
        assert_eq!(name("/elsewhere/rollout-c.jsonl"), None);
    }

    #[test]
    fn files_whose_short_names_clash_are_named_as_given() {
        let roots = [PathBuf::from("a/sessions"), PathBuf::from("b/sessions")];
        let sources = [
            file("a/sessions/rollout-x.jsonl"),
            file("b/sessions/rollout-x.jsonl"),
            file("b/sessions/rollout-y.jsonl"),
        ];
        let l = labels(&sources, &roots);
        assert_eq!(l.len(), 1);
        assert_eq!(
            l.get(Path::new("b/sessions/rollout-y.jsonl")).unwrap(),
            "sessions/rollout-y.jsonl"
        );
    }

    #[test]
    fn the_deepest_root_names_a_file() {
        let roots = [PathBuf::from("t"), PathBuf::from("t/real")];
        let l = labels(&[file("t/real/v/rollout-x.jsonl")], &roots);
        assert_eq!(l.values().next().unwrap(), "real/v/rollout-x.jsonl");
    }
}
