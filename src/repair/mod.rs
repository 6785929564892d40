//! `repair`: a rollout's fixes applied to a copy of its text, in passes, and the copy
//! checked before anything is written (`docs/repair.md`). Facts and decisions: what is
//! applied, what is left and why, whether the result holds. Writing files is [`write`](mod@write);
//! printing is the command's and the output layer's.
//!
//! A file is first checked where it lies. Only when a fix applies is it read into memory
//! and repaired on scratch copies in a private directory: each pass lints the copy (with
//! the file's own name, its lineage sources found where the original finds them), takes
//! the fixes that touch disjoint bytes, and applies them. The result is compared with the
//! original checked the same way, finding by finding (each moved by the edits made
//! before it): a repair that leaves a finding it meant to cure, or adds one, is refused.

pub mod carry;
pub mod forks;
pub mod verify;
pub mod write;

use std::collections::{HashMap, HashSet};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::analysis::ReadOptions;
use crate::codex::Spec;
use crate::findings::{self, Applicability, Edit, Finding, Fix, Rule, Severity};
use crate::input::Source;
use crate::lineage::resolve::Resolver;
use crate::replay::{self, Lineages};
use crate::rules::{self, select::Selection, Checker};
use crate::statedb::{Homes, ThreadState};

/// Passes at most: fixes that touch the same bytes wait for the next pass.
pub const MAX_PASSES: usize = 4;

/// What a repair run asks of every file.
pub struct Settings<'a> {
    /// The rules whose fixes apply (`--select`, `--ignore`, the config file's).
    pub selection: &'a Selection,
    /// Apply unsafe fixes too.
    pub unsafe_fixes: bool,
    /// The Codex version files are read as.
    pub codex: Spec,
    pub read: &'a ReadOptions,
    /// The run's inputs (lineage sources are found among them).
    pub sources: &'a [Source],
    /// The run's Codex home.
    pub home: Option<PathBuf>,
    /// The forks that name the files repaired as their source.
    pub forks: &'a forks::Forks,
    /// The forks repaired in the same run (written with `--out-dir` or `--in-place`): an
    /// edit of their source's part is allowed, their `end_byte_offset` rewritten after.
    pub carried: Option<&'a HashSet<PathBuf>>,
    /// Forks whose source's repair moved their cutoff: the new `end_byte_offset`, by path.
    pub rewrites: &'a HashMap<PathBuf, Rewrite>,
    /// Codex's state databases of the files' homes: an edit before a thread's projection
    /// checkpoint is unsafe.
    pub homes: &'a Homes,
    /// The lineages the run's checks rebuilt, shared by every check (the originals', the
    /// copies', each pass's): a chain's files are not each read again for every fork below
    /// them. Nothing is written while a run decides (the copies are written once decided,
    /// `cmd::repair`), and each copy made to be read as a source has a path of its own, so
    /// a lineage kept is what reading its sources again would give.
    pub lineages: Lineages,
}

/// A fork's `history_base.end_byte_offset`, from what it says to where its source's
/// repair moved that byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rewrite {
    pub from: u64,
    pub to: u64,
}

/// A file as it was read: its bytes as they lie, its text (decompressed), and what shows
/// later that it has not changed since.
#[derive(Debug, Clone)]
pub struct Original {
    pub raw: Vec<u8>,
    pub text: Vec<u8>,
    /// A zstd stream (detected from its bytes).
    pub compressed: bool,
    /// `None` for standard input.
    pub stamp: Option<Stamp>,
}

/// What a file was when it was read: size, modification time and the digest of its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    pub size: u64,
    pub modified: Option<SystemTime>,
    pub digest: [u8; 32],
}

impl Stamp {
    pub fn of(bytes: &[u8], meta: &std::fs::Metadata) -> Stamp {
        Stamp {
            size: meta.len(),
            modified: meta.modified().ok(),
            digest: Sha256::digest(bytes).into(),
        }
    }
}

impl Original {
    /// Read `source` whole.
    pub fn read(source: &Source) -> io::Result<Original> {
        let (raw, stamp) = match source {
            Source::Stdin => {
                let mut raw = Vec::new();
                io::stdin().lock().read_to_end(&mut raw)?;
                (raw, None)
            }
            Source::File(p) => {
                let mut f = std::fs::File::open(p)?;
                let mut raw = Vec::new();
                f.read_to_end(&mut raw)?;
                let meta = f.metadata()?;
                let stamp = Stamp::of(&raw, &meta);
                (raw, Some(stamp))
            }
        };
        let compressed = raw.starts_with(&ZSTD_MAGIC);
        let text = if compressed {
            zstd::stream::decode_all(raw.as_slice())?
        } else {
            raw.clone()
        };
        Ok(Original {
            raw,
            text,
            compressed,
            stamp,
        })
    }

    /// `text` as this file's bytes: compressed again when the file was.
    pub fn encode(&self, text: &[u8]) -> io::Result<Vec<u8>> {
        if self.compressed {
            zstd::stream::encode_all(text, 3)
        } else {
            Ok(text.to_vec())
        }
    }
}

const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// One fix: applied, or listed and why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    pub rule: Rule,
    /// The line it is about, in the text its pass read (the original's in the first).
    pub line: Option<u64>,
    /// The pass that applied it (1 for the first); for one not applied, the pass that
    /// found it.
    pub pass: usize,
    pub applicability: Applicability,
    /// What it does, in a few words (the fix's own).
    pub action: String,
    pub bytes_removed: u64,
    pub bytes_added: u64,
    pub applied: bool,
    /// Why it was not applied.
    pub reason: Option<String>,
}

/// A finding no applied fix cures, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Left {
    pub rule: Rule,
    pub line: Option<u64>,
    pub severity: Severity,
    pub message: String,
    pub why: String,
}

/// What repair made of one file.
#[derive(Debug, Default)]
pub struct Repair {
    /// The fixes applied, in order, then those listed and not applied.
    pub fixes: Vec<Fixed>,
    /// The errors left (no allowed fix cures them).
    pub left: Vec<Left>,
    /// The file as read, when a fix was to be applied (or it was read for writing).
    pub original: Option<Original>,
    /// The repaired text, when fixes were applied and the check held.
    pub repaired: Option<Vec<u8>>,
    /// Why the repaired text is not to be written: the check found what it should not.
    pub refused: Option<String>,
    /// The passes ran out with fixes still to apply.
    pub unsettled: bool,
    /// The edits applied, pass by pass (the first: a fork's offset rewritten, if any), of
    /// the original's text: what moves its forks' cutoffs.
    pub edits: Vec<Vec<Edit>>,
}

impl Repair {
    /// Whether it changes the file.
    pub fn changes(&self) -> bool {
        self.repaired.is_some()
    }

    pub fn applied(&self) -> impl Iterator<Item = &Fixed> {
        self.fixes.iter().filter(|f| f.applied)
    }
}

/// Repair `source`: decide, apply in passes, check. Nothing is written.
pub fn repair(source: &Source, s: &Settings<'_>) -> io::Result<Repair> {
    let opts = replay::Options {
        codex: s.codex,
        lineages: Some(s.lineages.clone()),
        ..replay::Options::default()
    };
    let checker = Checker::of_units(|_| true);
    let rewrite = source.path().and_then(|p| s.rewrites.get(p)).copied();
    // A file is first checked where it lies: most need nothing, and are not copied.
    if let (Source::File(_), None) = (source, rewrite) {
        let resolver = Mutex::new(Resolver::new(s.sources, s.home.clone()));
        let probe = check(source, &resolver, s.read, &opts, &checker)?;
        let choice = choose(&probe, source, source, s, 1);
        if choice.apply.is_empty() {
            return Ok(Repair {
                fixes: choice.listed,
                left: left_of(&probe, s),
                ..Repair::default()
            });
        }
    }
    let original = Original::read(source)?;
    let scratch_dir = tempfile::Builder::new()
        .prefix("rollscope-repair-")
        .tempdir()?;
    let name = match source {
        Source::File(p) => p
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("rollout.jsonl")),
        Source::Stdin => PathBuf::from("stdin.jsonl"),
    };
    let scratch = Source::File(scratch_dir.path().join(name));
    let resolver = Mutex::new(Resolver::for_copies_of(source, s.sources, s.home.clone()));
    let check_text = |text: &[u8]| -> io::Result<Vec<Finding>> {
        write_scratch(&scratch, &original.encode(text)?)?;
        check(&scratch, &resolver, s.read, &opts, &checker)
    };
    let before = check_text(&original.text)?;
    let mut trail = verify::Trail::new(&before);
    let mut text = original.text.clone();
    let mut found = before.clone();
    let mut fixes = Vec::new();
    let mut unsettled = false;
    let mut edits_made = Vec::new();
    if let Some(w) = rewrite {
        // Pass 0: the cutoff where its source's repair moved it.
        let Some((line, edit)) = offset_edit(&text, w, &scratch) else {
            return Ok(Repair {
                refused: Some(format!(
                    "its source's repair moves its cutoff from byte {} to {}, and its \
                     session_meta's end_byte_offset {} cannot be found to rewrite",
                    w.from, w.to, w.from
                )),
                original: Some(original),
                ..Repair::default()
            });
        };
        fixes.push(Fixed {
            rule: rules::history_base::byte_offset::RULE,
            line: Some(line),
            pass: 0,
            applicability: Applicability::Safe,
            action: format!(
                "end_byte_offset {} → {}: its source's repair moved the cutoff",
                w.from, w.to
            ),
            bytes_removed: edit.end - edit.start,
            bytes_added: edit.content.len() as u64,
            applied: true,
            reason: None,
        });
        let next = findings::apply(&text, &[&edit])
            .map_err(|o| io::Error::other(format!("fixes overlap at byte {}", o.at)))?;
        trail.moved(&text, std::slice::from_ref(&edit));
        edits_made.push(vec![edit]);
        text = next;
        found = check_text(&text)?;
    }
    for pass in 1..=MAX_PASSES + 1 {
        let choice = choose(&found, &scratch, source, s, pass);
        if choice.apply.is_empty() {
            fixes.extend(choice.listed);
            break;
        }
        if pass > MAX_PASSES {
            unsettled = true;
            fixes.extend(choice.listed);
            break;
        }
        let (taken, edits) = disjoint(&choice.apply);
        let next = findings::apply(&text, &edits.iter().collect::<Vec<_>>())
            .map_err(|o| io::Error::other(format!("fixes overlap at byte {}", o.at)))?;
        let projected = source.path().and_then(|p| projected_to(s.homes, p));
        for (f, fix) in &taken {
            trail.applied(f);
            let mut done = fixed(f, fix, pass, true, None);
            if let Some(at) = projected.filter(|at| edits_before(fix, *at)) {
                // Applied under --unsafe-fixes: said with what to do next.
                done.applicability = Applicability::Unsafe;
                done.action = format!(
                    "{}; it edits bytes Codex has projected (checkpoint at byte {at}): {REBUILD}",
                    done.action
                );
            }
            fixes.push(done);
        }
        trail.moved(&text, &edits);
        edits_made.push(edits);
        text = next;
        found = check_text(&text)?;
    }
    let applied: Vec<Fixed> = fixes.iter().filter(|f| f.applied).cloned().collect();
    if applied.is_empty() {
        return Ok(Repair {
            fixes,
            left: left_of(&found, s),
            original: Some(original),
            ..Repair::default()
        });
    }
    let problems = trail.judge(&found);
    let refused = (!problems.is_empty()).then(|| problems.join("; "));
    Ok(Repair {
        fixes,
        left: left_of(&found, s),
        repaired: refused.is_none().then_some(text),
        original: Some(original),
        refused,
        unsettled,
        edits: edits_made,
    })
}

/// The edit of a fork's text that rewrites its `history_base.end_byte_offset` from
/// `w.from` to `w.to`, in its first `session_meta` line, and that line's number. `None`
/// when the number is not written there once, plainly.
fn offset_edit(text: &[u8], w: Rewrite, file: &Source) -> Option<(u64, Edit)> {
    const KEY: &[u8] = b"\"end_byte_offset\"";
    let mut start = 0usize;
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        let at = start;
        start += line.len() + 1;
        if memchr::memmem::find(line, b"\"session_meta\"").is_none() {
            continue;
        }
        let mut found = memchr::memmem::find_iter(line, KEY).filter_map(|k| {
            let from = k + KEY.len();
            let rest = line.get(from..)?;
            let skip = rest
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b':'))
                .count();
            let digits = rest
                .get(skip..)?
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let number = std::str::from_utf8(rest.get(skip..skip + digits)?).ok()?;
            (number.parse::<u64>().ok()? == w.from).then_some(from + skip..from + skip + digits)
        });
        let range = found.next()?;
        if found.next().is_some() {
            return None;
        }
        let (from, to) = ((at + range.start) as u64, (at + range.end) as u64);
        let edit = Edit::replace(file.clone(), from..to, w.to.to_string());
        return Some((n as u64 + 1, edit));
    }
    None
}

/// Lint `source` with every rule; its findings, or the read error that stopped it.
fn check(
    source: &Source,
    resolver: &Mutex<Resolver>,
    read: &ReadOptions,
    opts: &replay::Options,
    checker: &Checker,
) -> io::Result<Vec<Finding>> {
    let c = rules::replay(source, resolver, read, opts, checker);
    // A compressed stream cut short is a finding (`file.zst-corrupt`, which no fix cures),
    // as in `lint`; any other read error ends the file's repair.
    if c.replay.facts.corrupt_compression.is_some() {
        return Ok(c.findings);
    }
    match (&c.replay.error, &c.replay.facts.io_error) {
        (Some(e), _) | (None, Some(e)) => Err(io::Error::other(e.clone())),
        _ => Ok(c.findings),
    }
}

fn write_scratch(scratch: &Source, bytes: &[u8]) -> io::Result<()> {
    match scratch.path() {
        Some(p) => std::fs::write(p, bytes),
        None => Err(io::Error::other("no scratch file")),
    }
}

/// The fixes of a pass: those to apply, and those listed but not applied.
struct Choice<'f> {
    apply: Vec<(&'f Finding, &'f Fix)>,
    listed: Vec<Fixed>,
}

/// Which fixes of `found` (findings of `file`, a copy of `original` or itself) apply
/// under `s`.
fn choose<'f>(
    found: &'f [Finding],
    file: &Source,
    original: &Source,
    s: &Settings<'_>,
    pass: usize,
) -> Choice<'f> {
    let mut choice = Choice {
        apply: Vec::new(),
        listed: Vec::new(),
    };
    let forks = original.path().map_or(&[][..], |p| s.forks.of(p));
    let projected = original.path().and_then(|p| projected_to(s.homes, p));
    for f in found {
        let Some(fix) = f.fix.as_ref() else {
            continue;
        };
        if !s.selection.contains(f.rule) || rules::about_place(f.rule) {
            continue;
        }
        let carried = forks.iter().find(|k| {
            fix.edits.iter().any(|e| e.start < k.end_byte_offset)
                && !s.carried.is_some_and(|c| c.contains(&k.path))
        });
        let why_not = if fix.edits.iter().any(|e| &e.file != file) {
            Some("it edits another file".to_string())
        } else if let Some(k) = carried {
            Some(format!(
                "it edits bytes the fork {} carries (its history_base ends at byte {}): the \
                 fork's cutoff would move (repaired with it by --out-dir or --in-place, the \
                 fork's offset is rewritten)",
                k.path.display(),
                k.end_byte_offset
            ))
        } else if fix.applicability == Applicability::Unsafe && !s.unsafe_fixes {
            Some("unsafe: --unsafe-fixes applies it".to_string())
        } else {
            projected
                .filter(|at| edits_before(fix, *at) && !s.unsafe_fixes)
                .map(|at| {
                    format!(
                        "unsafe: it edits bytes Codex has projected (its thread-history \
                         checkpoint is at byte {at} of thread_history_1.sqlite), which would \
                         leave the checkpoint off its line; --unsafe-fixes applies it, then \
                         {REBUILD}"
                    )
                })
        };
        match why_not {
            None => choice.apply.push((f, fix)),
            Some(why) => {
                let mut listed = fixed(f, fix, pass, false, Some(why));
                if projected.is_some_and(|at| edits_before(fix, at)) {
                    listed.applicability = Applicability::Unsafe;
                }
                choice.listed.push(listed);
            }
        }
    }
    choice
}

/// What to do after an edit of projected bytes: verified with the real Codex (0.153.4,
/// 0.154, 0.171): without the projection database, the next resume rebuilds it from the
/// rollout and every turn is shown (`docs/state.md`).
const REBUILD: &str = "with Codex closed, move thread_history_1.sqlite (and its -wal, -shm) \
                       aside: the next resume rebuilds the projection from the repaired file";

/// Whether a fix edits bytes before `at`.
fn edits_before(fix: &Fix, at: u64) -> bool {
    fix.edits.iter().any(|e| e.start < at)
}

/// How far Codex has projected the rollout at `path` ([`ThreadState::projected_to`]).
fn projected_to(homes: &Homes, path: &std::path::Path) -> Option<u64> {
    ThreadState::watch(homes, path)?.projected_to()
}

/// The fixes of `apply` whose edits touch bytes no fix before them touches (the others
/// wait for the next pass), with all their edits.
fn disjoint<'f>(apply: &[(&'f Finding, &'f Fix)]) -> (Vec<(&'f Finding, &'f Fix)>, Vec<Edit>) {
    let mut sorted: Vec<(&Finding, &Fix)> = apply.to_vec();
    sorted.sort_by_key(|(_, fix)| {
        fix.edits
            .iter()
            .map(|e| (e.start, e.end))
            .min()
            .unwrap_or_default()
    });
    let mut taken = Vec::new();
    let mut edits: Vec<Edit> = Vec::new();
    for (f, fix) in sorted {
        let mut trial: Vec<&Edit> = edits.iter().chain(&fix.edits).collect();
        trial.sort_by_key(|e| (e.start, e.end));
        if verify::overlap(&trial) {
            continue;
        }
        edits.extend(fix.edits.iter().cloned());
        taken.push((f, fix));
    }
    (taken, edits)
}

fn fixed(f: &Finding, fix: &Fix, pass: usize, applied: bool, reason: Option<String>) -> Fixed {
    let removed = fix.edits.iter().map(|e| e.end - e.start).sum();
    let added = fix.edits.iter().map(|e| e.content.len() as u64).sum();
    Fixed {
        rule: f.rule,
        line: f.span.map(|s| s.start_line),
        pass,
        applicability: fix.applicability,
        action: fix.description.clone(),
        bytes_removed: removed,
        bytes_added: added,
        applied,
        reason,
    }
}

/// The errors of `found` that stay: none of the rules about a file's place (`lint` says
/// those), none of a rule left out.
fn left_of(found: &[Finding], s: &Settings<'_>) -> Vec<Left> {
    found
        .iter()
        .filter(|f| f.is_error() && s.selection.contains(f.rule) && !rules::about_place(f.rule))
        .map(|f| Left {
            rule: f.rule,
            line: f.span.map(|s| s.start_line),
            severity: f.severity,
            message: f.message.clone(),
            why: match &f.fix {
                None => "no fix cures it".to_string(),
                Some(fix) if fix.applicability == Applicability::Unsafe && !s.unsafe_fixes => {
                    format!(
                        "its fix ({}) is unsafe: --unsafe-fixes applies it",
                        fix.description
                    )
                }
                Some(fix) => format!("its fix ({}) could not be applied", fix.description),
            },
        })
        .collect()
}

/// Where a file given alone, or found under `root`, goes in `--out-dir`: its path relative
/// to its Codex home when it lies in one, else to the folder it was found under, else its
/// name.
pub fn relative_path(path: &Path, root: Option<&Path>) -> PathBuf {
    let home = crate::input::placement::home_dir(path);
    if let Some(rel) = home.and_then(|h| path.strip_prefix(h).ok()) {
        return rel.to_path_buf();
    }
    if let Some(rel) = root.and_then(|r| path.strip_prefix(r).ok()) {
        if !rel.as_os_str().is_empty() {
            return rel.to_path_buf();
        }
    }
    path.file_name().map(PathBuf::from).unwrap_or_default()
}
