//! `rollscope check-ordinal`: glue from args to the ordinal reducer, the lineage check and
//! the row schema in `docs/check-ordinal.md`.
//!
//! Two phases per file: the pure [`OrdinalReducer`] over the file itself (in parallel,
//! through `drive`), then, in input order, the lineage check of a paginated file's
//! `history_base`: find the source rollout by its rollout id, read it through the ordinary
//! reader with a [`SourceProbe`], judge the cutoff.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cli::{CheckOrdinalArgs, DenyArg};
use crate::cmd::Context;
use crate::cmd::RunError;
use crate::exit::ExitStatus;
use crate::input::{self, DefaultRoots, Source};
use crate::output::table::Tone;
use crate::output::{Cell, Out};
use crate::reduce::lineage::{self, BaseTarget, ProbeResult, SourceProbe};
use crate::reduce::ordinal::{OrdinalOptions, OrdinalReducer, OrdinalReport, Problem, Severity};
use crate::reduce::{drive, reduce_source, FileReport, ReadOptions};

/// One file row (NDJSON schema: `docs/check-ordinal.md`).
#[derive(Serialize)]
struct Row<'a> {
    path: &'a str,
    history_mode: &'a str,
    ok: bool,
    records: u64,
    first: Option<u64>,
    last: Option<u64>,
    expected_first: Option<u64>,
    next_on_resume: Option<u64>,
    problems: &'a [Problem],
}

pub fn run(args: &CheckOrdinalArgs) -> Result<ExitStatus, RunError> {
    let mut cx = Context::new(&args.input, &args.output)?;
    let opts = OrdinalOptions {
        deny_gap: args.deny.contains(&DenyArg::Gap),
    };
    let mut out = Out::lines(cx.format, cx.color);
    let sources = std::mem::take(&mut cx.sources);
    let read = cx.read.clone();
    let mut finder = SourceFinder::new(&sources, read.clone());
    let mut findings = false;
    drive(
        &sources,
        &read,
        |_| OrdinalReducer::new(opts),
        |r: FileReport<OrdinalReport>| {
            if !cx.report(&r) {
                return Ok(());
            }
            let Some(mut rep) = r.output else {
                return Ok(());
            };
            let path = r.source.display();
            if let (Some(base), Some(at)) = (rep.history_base.clone(), rep.meta_pos) {
                let problem = match lineage::target(&base, at) {
                    Err(p) => Some(p),
                    Ok(t) => match finder.check(&r.source, &t) {
                        Lookup::Judged(src, probe) => lineage::judge(&t, &src, &probe, at),
                        Lookup::NotFound(searched) => Some(lineage::not_found(&t, &searched, at)),
                        Lookup::Unreadable(src, cause) => {
                            cx.diag.error(&src, &cause);
                            cx.status = cx.status.merge(ExitStatus::Error);
                            Some(unreadable(&t, &src, &cause, at))
                        }
                    },
                };
                rep.add(problem);
            }
            findings |= !rep.ok();
            emit(&mut out, &path, &rep)
        },
    )?;
    out.finish()?;
    if findings {
        cx.status = cx.status.merge(ExitStatus::Findings);
    }
    Ok(cx.status)
}

fn unreadable(t: &BaseTarget, src: &str, cause: &str, at: crate::decode::Pos) -> Problem {
    let mut p = lineage::not_found(t, src, at);
    p.message = format!(
        "source rollout {src} (history_base.thread_id {}) could not be read ({cause}): the \
         lineage could not be checked",
        t.rollout_id
    );
    p
}

fn emit(out: &mut Out, path: &str, rep: &OrdinalReport) -> std::io::Result<()> {
    let ok = rep.ok();
    let row = Row {
        path,
        history_mode: &rep.history_mode,
        ok,
        records: rep.records,
        first: rep.first,
        last: rep.last,
        expected_first: rep.expected_first,
        next_on_resume: rep.next_on_resume,
        problems: &rep.problems,
    };
    out.row(&row, || {
        let mut lines: Vec<Cell> = rep
            .problems
            .iter()
            .map(|p| {
                let tone = match p.severity {
                    Severity::Error => Tone::Bad,
                    Severity::Warning => Tone::Warn,
                };
                Cell::text(&format!(
                    "{path}:{}: {}: {}",
                    p.line,
                    p.kind.as_str(),
                    p.message
                ))
                .tone(tone)
            })
            .collect();
        lines.push(summary(path, rep));
        lines
    })
}

/// `path: paginated, 41 records, ordinals 0..=40, next resume at 41: ok`.
fn summary(path: &str, rep: &OrdinalReport) -> Cell {
    let plural = |n: usize, what: &str| {
        if n == 1 {
            format!("1 {what}")
        } else {
            format!("{n} {what}s")
        }
    };
    let ordinals = match (rep.first, rep.last) {
        (Some(f), Some(l)) => {
            let stray = if rep.paginated { "" } else { "stray " };
            if f == l {
                format!("{stray}ordinal {f}")
            } else {
                format!("{stray}ordinals {f}..{l}")
            }
        }
        _ => "no ordinals".to_string(),
    };
    let mut parts = vec![
        rep.history_mode.clone(),
        plural(rep.records as usize, "record"),
        ordinals,
    ];
    if let Some(e) = rep.expected_first.filter(|&e| e != 0) {
        parts.push(format!("first expected {e}"));
    }
    if rep.paginated {
        parts.push(match rep.next_on_resume {
            Some(n) => format!("next resume writes {n}"),
            None => "next resume fails".to_string(),
        });
    }
    let errors = rep.problems.iter().filter(|p| p.is_error()).count();
    let warnings = rep.problems.len() - errors;
    let (verdict, tone) = match (errors, warnings) {
        (0, 0) => ("ok".to_string(), Tone::Good),
        (0, w) => (format!("ok, {}", plural(w, "warning")), Tone::Warn),
        (e, 0) => (plural(e, "error"), Tone::Bad),
        (e, w) => (
            format!("{}, {}", plural(e, "error"), plural(w, "warning")),
            Tone::Bad,
        ),
    };
    Cell::text(&format!("{path}: {}: {verdict}", parts.join(", "))).tone(tone)
}

/// What looking for a source rollout gave.
enum Lookup {
    /// Found and read: its path as shown, and what it says.
    Judged(String, ProbeResult),
    /// Not found; where we looked.
    NotFound(String),
    /// Found but unreadable: its path and the cause.
    Unreadable(String, String),
}

/// Finds source rollouts by rollout id and reads them, remembering both.
///
/// Where it looks, in order: the inputs given on the command line; the child's own
/// directory; the `sessions` and `archived_sessions` of the Codex home the child sits in
/// (when its path has a `sessions` or `archived_sessions` ancestor); `$CODEX_HOME` (or
/// `~/.codex`) `sessions` and `archived_sessions`. Directories are walked with the ordinary
/// discovery (so `X.jsonl` is preferred over `X.jsonl.zst`, as Codex does), once each.
struct SourceFinder {
    read: ReadOptions,
    given: HashMap<String, PathBuf>,
    dirs: HashMap<PathBuf, HashMap<String, PathBuf>>,
    /// `$CODEX_HOME` (or `~/.codex`), once resolved; `None` inside when unknown.
    home: Option<Option<PathBuf>>,
    probes: HashMap<(PathBuf, u64, u64), Result<ProbeResult, String>>,
}

impl SourceFinder {
    fn new(sources: &[Source], read: ReadOptions) -> Self {
        SourceFinder {
            read,
            given: index(
                sources
                    .iter()
                    .filter_map(Source::path)
                    .map(Path::to_path_buf),
            ),
            dirs: HashMap::new(),
            home: None,
            probes: HashMap::new(),
        }
    }

    fn check(&mut self, child: &Source, t: &BaseTarget) -> Lookup {
        let id = t.rollout_id.to_ascii_lowercase();
        let me = child.path().map(same_file_key);
        let not_me = |p: &PathBuf| me.as_ref() != Some(&same_file_key(p));
        let mut searched: Vec<String> = vec!["the given inputs".to_string()];
        let mut found = self.given.get(&id).filter(|p| not_me(p)).cloned();
        if found.is_none() {
            for dir in self.places(child) {
                searched.push(dir.display().to_string());
                let idx = self
                    .dirs
                    .entry(dir.clone())
                    .or_insert_with(|| index(walk(&dir).into_iter()));
                if let Some(p) = idx.get(&id).filter(|p| not_me(p)) {
                    found = Some(p.clone());
                    break;
                }
            }
        }
        let Some(path) = found else {
            if let Some(Some(home)) = &self.home {
                let dirs = [home.join("sessions"), home.join("archived_sessions")];
                if !dirs.iter().any(|d| d.is_dir()) {
                    searched.push(format!(
                        "{} (no sessions or archived_sessions there)",
                        home.display()
                    ));
                }
            }
            return Lookup::NotFound(searched.join(", "));
        };
        let shown = path.display().to_string();
        let key = (path.clone(), t.end_ordinal, t.end_byte_offset);
        let read = &self.read;
        let probe = self.probes.entry(key).or_insert_with(|| {
            let r = reduce_source(
                &Source::File(path.clone()),
                read,
                SourceProbe::new(t.end_ordinal, t.end_byte_offset),
            );
            match (r.io_error, r.output) {
                (None, Some(p)) => Ok(p),
                (Some(cause), _) => Err(cause),
                (None, None) => Err("could not be read".to_string()),
            }
        });
        match probe {
            Ok(p) => Lookup::Judged(shown, p.clone()),
            Err(cause) => Lookup::Unreadable(shown, cause.clone()),
        }
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
            if let Some(home) = p.ancestors().skip(1).find_map(|a| {
                let name = a.file_name()?;
                (name == "sessions" || name == "archived_sessions")
                    .then(|| a.parent())
                    .flatten()
            }) {
                v.push(home.join("sessions"));
                v.push(home.join("archived_sessions"));
            }
        }
        let home = self
            .home
            .get_or_insert_with(|| DefaultRoots::from_env(true).ok().map(|r| r.codex_home));
        if let Some(home) = home {
            v.push(home.join("sessions"));
            v.push(home.join("archived_sessions"));
        }
        let mut seen = std::collections::HashSet::new();
        v.retain(|d| d.is_dir() && seen.insert(same_file_key(d)));
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
            .and_then(lineage::rollout_id_from_file_name)
            .map(str::to_ascii_lowercase);
        if let Some(id) = id {
            m.entry(id).or_insert(p);
        }
    }
    m
}

/// A path to compare files by (the canonical path when there is one).
fn same_file_key(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}
