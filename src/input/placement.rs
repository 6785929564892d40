//! Where a rollout sits and what it is called, as Codex's discovery sees it: a name Codex
//! parses (`rollout-<YYYY-MM-DDThh-mm-ss>-<uuid>[_<uuid>].jsonl[.zst]`, in its
//! `rollout/src/rollout_file_name.rs`), the session folder it lies in (a Codex home's
//! `sessions/`, whose date folders Codex walks, or the flat `archived_sessions/`: its
//! `rollout/src/list.rs`), and a plain twin beside a `.jsonl.zst`, which Codex reads instead
//! (its `rollout/src/compression.rs`). Only file names and metadata are looked at, never
//! contents. What it finds are facts ([`Placement`]: no verdict, no wording); the rules
//! `file.name`, `file.location` and `file.zst-shadowed` judge them.

use std::path::{Component, Path, PathBuf};

/// The session folders of a Codex home: the live sessions, in date folders, and the
/// archived ones.
pub const SESSIONS: &str = "sessions";
pub const ARCHIVED: &str = "archived_sessions";

/// Where a file lies relative to the nearest session folder above it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Home {
    /// Under `sessions/`, in the folders `dirs` (`["2026", "11", "29"]`).
    Sessions { dirs: Vec<String> },
    /// Under `archived_sessions/`, in the folders `dirs` (none when flat).
    Archived { dirs: Vec<String> },
}

/// The Codex home `path` lies in, as written: the folder that holds its nearest ancestor
/// named `sessions` or `archived_sessions`.
pub fn home_dir(path: &Path) -> Option<&Path> {
    path.ancestors().skip(1).find_map(|a| {
        let name = a.file_name()?;
        (name == SESSIONS || name == ARCHIVED)
            .then(|| a.parent())
            .flatten()
    })
}

/// The session folder a file is under, if any: the nearest ancestor named `sessions` or
/// `archived_sessions` (of the path made absolute, without resolving links).
pub fn home_of(path: &Path) -> Option<Home> {
    let abs = absolute(path);
    let names: Vec<&std::ffi::OsStr> = abs
        .parent()?
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let at = names
        .iter()
        .rposition(|n| *n == SESSIONS || *n == ARCHIVED)?;
    let (home, dirs) = names.get(at..)?.split_first()?;
    let dirs: Vec<String> = dirs
        .iter()
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    Some(if *home == SESSIONS {
        Home::Sessions { dirs }
    } else {
        Home::Archived { dirs }
    })
}

/// `path` made absolute as [`std::path::absolute`] makes it, the current directory asked
/// once a run (rollscope never changes it): a walk asks for thousands of files.
fn absolute(path: &Path) -> std::borrow::Cow<'_, Path> {
    static CWD: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let joined = match CWD.get_or_init(|| std::env::current_dir().ok()) {
        Some(cwd) if path.is_relative() && !path.as_os_str().is_empty() => cwd.join(path),
        _ => path.to_path_buf(),
    };
    std::path::absolute(&joined)
        .map(std::borrow::Cow::Owned)
        .unwrap_or(std::borrow::Cow::Borrowed(path))
}

/// True for a name lint's walk takes inside a session folder: `*.jsonl`, `*.jsonl.zst`.
pub fn is_jsonl_name(name: &str) -> bool {
    name.ends_with(".jsonl") || name.ends_with(".jsonl.zst")
}

/// `rollout-<19-char ts>-<ids>.jsonl[.zst]` → `(thread id, rollout id)`.
pub fn ids_from_file_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("rollout-")?;
    let rest = rest
        .strip_suffix(".jsonl.zst")
        .or_else(|| rest.strip_suffix(".jsonl"))?;
    // The timestamp is exactly 19 characters (`YYYY-MM-DDThh-mm-ss`), then `-`.
    let ids = rest.get(19..)?.strip_prefix('-')?;
    let (thread, rollout) = ids.split_once('_').unwrap_or((ids, ids));
    if thread.is_empty() || rollout.is_empty() {
        return None;
    }
    Some((thread, rollout))
}

/// The thread id the name of the rollout at `path` declares, in lower case (as Codex's
/// databases and the lineage compare ids).
pub fn thread_id(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    ids_from_file_name(name).map(|(thread, _)| thread.to_ascii_lowercase())
}

/// The rollout id a file name declares.
pub fn rollout_id_from_file_name(name: &str) -> Option<&str> {
    ids_from_file_name(name).map(|(_, r)| r)
}

/// The local date a rollout name carries (`YYYY`, `MM`, `DD`), when it is one Codex parses:
/// `rollout-`, a 19-character `YYYY-MM-DDThh-mm-ss`, `-`, a UUID thread id, optionally `_`
/// and a UUID rollout id, `.jsonl` or `.jsonl.zst`.
pub fn parse_name(name: &str) -> Option<[&str; 3]> {
    // The ids as the lineage reads them (the thread id twice when there is no `_`).
    let (thread, rollout) = ids_from_file_name(name)?;
    let ts = name.get("rollout-".len()..)?.get(..19)?;
    let shape = ts.bytes().enumerate().all(|(i, c)| match i {
        4 | 7 | 13 | 16 => c == b'-',
        10 => c == b'T',
        _ => c.is_ascii_digit(),
    });
    let uuid = |s: &str| s.len() == 36 && uuid::Uuid::try_parse(s).is_ok();
    (shape && uuid(thread) && uuid(rollout)).then(|| [&ts[0..4], &ts[5..7], &ts[8..10]])
}

/// What Codex's discovery sees of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The session folder it lies under, if any.
    pub home: Option<Home>,
    /// The local date its name carries (`YYYY`, `MM`, `DD`), when its name is a rollout name
    /// Codex parses.
    pub date: Option<[String; 3]>,
    /// The name of the plain twin beside a `.jsonl.zst` (which Codex reads instead), when
    /// there is one.
    pub twin: Option<String>,
}

/// How a file lies and is named; `None` for a name that is not UTF-8 (no rollout's).
pub fn placement(path: &Path) -> Option<Placement> {
    let name = path.file_name()?.to_str()?;
    let twin = name
        .strip_suffix(".zst")
        .filter(|p| p.ends_with(".jsonl"))
        .filter(|p| path.with_file_name(p).is_file());
    Some(Placement {
        home: home_of(path),
        date: parse_name(name).map(|d| d.map(str::to_string)),
        twin: twin.map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "01a2272f-3a4a-7f32-804b-af9053b29ff1";

    #[test]
    fn a_rollout_name_carries_a_timestamp_and_uuid_ids() {
        let plain = format!("rollout-2026-11-29T12-02-16-{ID}.jsonl");
        assert_eq!(parse_name(&plain), Some(["2026", "11", "29"]));
        let revert = format!("rollout-2026-11-29T12-02-16-{ID}_{ID}.jsonl.zst");
        assert!(parse_name(&revert).is_some());
        for bad in [
            "session.jsonl",
            "rollout-2026-11-29-abc.jsonl",
            "rollout-2026-11-29T12-02-16-not-a-uuid.jsonl",
            &format!("rollout-2026-11-29 12-02-16-{ID}.jsonl"),
            &format!("rollout-2026-11-29T12-02-16-{ID}_.jsonl"),
            &format!("rollout-2026-11-29T12-02-16-{ID}.json"),
            // Not ASCII where the digits go: no name, and no panic.
            &format!("rollout-2026é1-29T12-02-16-{ID}.jsonl"),
            &format!("rollout-2026-11-29T12-02-1é-{ID}.jsonl"),
        ] {
            assert_eq!(parse_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_nearest_session_folder_is_the_home() {
        let p = Path::new("/h/.codex/sessions/2026/11/29/x.jsonl");
        assert_eq!(
            home_of(p),
            Some(Home::Sessions {
                dirs: vec!["2026".into(), "11".into(), "29".into()]
            })
        );
        let p = Path::new("/h/.codex/archived_sessions/x.jsonl");
        assert_eq!(home_of(p), Some(Home::Archived { dirs: vec![] }));
        assert_eq!(home_of(Path::new("/tmp/x.jsonl")), None);
    }

    /// As `std::path::absolute` alone finds it (asking for the current directory each
    /// time), for relative paths and odd ones.
    #[test]
    fn a_relative_path_s_home_is_that_of_its_absolute_path() {
        let plain = |path: &Path| {
            let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            let names: Vec<String> = abs
                .parent()?
                .components()
                .filter_map(|c| match c {
                    Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect();
            let at = names.iter().rposition(|n| n == SESSIONS || n == ARCHIVED)?;
            let (home, dirs) = names.get(at..)?.split_first()?;
            let dirs = dirs.to_vec();
            Some(if home == SESSIONS {
                Home::Sessions { dirs }
            } else {
                Home::Archived { dirs }
            })
        };
        for p in [
            "sessions/2026/11/29/x.jsonl",
            "./sessions/x.jsonl",
            "a/../archived_sessions/x.jsonl",
            "sessions/../x.jsonl",
            "x.jsonl",
            "sessions",
            ".",
            "..",
            "",
            "/",
            "/sessions/x.jsonl/",
            "//h/./sessions/2026/x.jsonl",
        ] {
            assert_eq!(home_of(Path::new(p)), plain(Path::new(p)), "{p:?}");
        }
        assert!(home_of(Path::new("sessions/2026/x.jsonl")).is_some());
    }

    #[test]
    fn a_placement_is_the_folders_and_the_name_s_date() {
        let name = format!("rollout-2026-11-29T12-02-16-{ID}.jsonl");
        let dirs = |d: &[&str]| d.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let date = Some(["2026", "11", "29"].map(String::from));
        assert_eq!(
            placement(Path::new(&format!("/h/sessions/2026/11/30/{name}"))),
            Some(Placement {
                home: Some(Home::Sessions {
                    dirs: dirs(&["2026", "11", "30"])
                }),
                date: date.clone(),
                twin: None,
            })
        );
        assert_eq!(
            placement(Path::new(&format!("/h/archived_sessions/{name}"))),
            Some(Placement {
                home: Some(Home::Archived { dirs: vec![] }),
                date,
                twin: None,
            })
        );
        assert_eq!(
            placement(Path::new("/tmp/copy.jsonl")),
            Some(Placement {
                home: None,
                date: None,
                twin: None,
            })
        );
    }
}
