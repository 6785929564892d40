//! `repair`: a rollout's fixes applied to a copy of its text, in passes, and the copy
//! checked before anything is written (`docs/repair.md`). Facts and decisions: what is
//! applied, what is left and why, whether the result holds. Writing files is [`write`];
//! printing is the command's and the output layer's.
//!
//! A file is first checked where it lies. Only when a fix applies is it read into memory
//! and repaired on scratch copies in a private directory: each pass lints the copy (with
//! the file's own name, its lineage sources found where the original finds them), takes
//! the fixes that touch disjoint bytes, and applies them. The result is compared with the
//! original checked the same way, finding by finding (each moved by the edits made
//! before it): a repair that leaves a finding it meant to cure, or adds one, is refused.

pub mod forks;
pub mod verify;
pub mod write;

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
use crate::replay;
use crate::rules::{self, select::Selection, Checker};

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
        ..replay::Options::default()
    };
    let checker = Checker::of_units(|_| true);
    // A file is first checked where it lies: most need nothing, and are not copied.
    if let Source::File(_) = source {
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
        for (f, fix) in &taken {
            trail.applied(f);
            fixes.push(fixed(f, fix, pass, true, None));
        }
        trail.moved(&text, &edits);
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
    })
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
    for f in found {
        let Some(fix) = f.fix.as_ref() else {
            continue;
        };
        if !s.selection.contains(f.rule) || rules::about_place(f.rule) {
            continue;
        }
        let carried = forks
            .iter()
            .find(|k| fix.edits.iter().any(|e| e.start < k.end_byte_offset));
        let why_not = if fix.edits.iter().any(|e| &e.file != file) {
            Some("it edits another file".to_string())
        } else if let Some(k) = carried {
            Some(format!(
                "it edits bytes the fork {} carries (its history_base ends at byte {}): the \
                 fork's cutoff would move",
                k.path.display(),
                k.end_byte_offset
            ))
        } else if fix.applicability == Applicability::Unsafe && !s.unsafe_fixes {
            Some("unsafe: --unsafe-fixes applies it".to_string())
        } else {
            None
        };
        match why_not {
            None => choice.apply.push((f, fix)),
            Some(why) => choice.listed.push(fixed(f, fix, pass, false, Some(why))),
        }
    }
    choice
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
    let home = path.ancestors().skip(1).find_map(|a| {
        let name = a.file_name()?;
        (name == "sessions" || name == "archived_sessions")
            .then(|| a.parent())
            .flatten()
    });
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
