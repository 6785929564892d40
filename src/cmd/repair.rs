//! `rollscope repair`: glue from args to the repair engine (`crate::repair`), the writers
//! (`crate::repair::write`) and the report (`crate::output::repair`). Files are repaired
//! in parallel; the report and the writes follow input order. `docs/repair.md`.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::cli::{RepairArgs, RepairFormatArg};
use crate::cmd::Context;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::input::reread::FileSet;
use crate::input::{io_cause, Source};
use crate::output::repair::{self as render, FixRow};
use crate::output::{self, Format, Out};
use crate::parallel;
use crate::repair::{self, write, Original, Repair};

/// Where the repaired copies go.
enum Target {
    /// Nowhere: the report says what would change.
    None,
    /// One file, or standard output.
    File(PathBuf),
    Stdout,
    Dir(PathBuf),
    InPlace,
}

pub fn run(args: &RepairArgs) -> Result<ExitStatus, Error> {
    let target = target_of(args)?;
    let jq = super::jq(&args.jq, args.format)?;
    let settings = super::settings(&args.settings)?;
    let lint = &settings.config.lint;
    let selection = super::selection(&args.select, &args.ignore, lint)?;
    let mut cx = Context::for_findings(&args.input, args.color.into())?;
    fits(&target, &cx.sources)?;
    let sources = cx.sources.clone();
    let read = cx.read.clone();
    let inputs: Vec<PathBuf> = sources
        .iter()
        .filter_map(|s| s.path().map(Path::to_path_buf))
        .collect();
    let folders: Vec<PathBuf> = args
        .input
        .paths
        .iter()
        .filter(|p| p.is_dir())
        .cloned()
        .collect();
    let home = cx.codex_home();
    let forks = repair::forks::Forks::find(&sources, home.as_deref());
    // Written over a home or a folder, a fork is repaired with its source: the source's
    // edits of the fork's part are allowed, the fork's cutoff rewritten (`repair::carry`).
    let carried: HashSet<PathBuf> = inputs.iter().cloned().collect();
    let together = matches!(target, Target::Dir(_) | Target::InPlace);
    let no_rewrites = HashMap::new();
    // Each file's own home: an edit Codex's projection has read is unsafe.
    let homes = crate::statedb::Homes::default();
    let rs = repair::Settings {
        selection: &selection,
        unsafe_fixes: args.unsafe_fixes,
        codex: settings.codex,
        read: &read,
        sources: &sources,
        home,
        forks: &forks,
        carried: together.then_some(&carried),
        rewrites: &no_rewrites,
        homes: &homes,
        lineages: crate::replay::Lineages::default(),
    };
    // The report goes to stdout, or to stderr when the copy does.
    let human = args.format == RepairFormatArg::Human;
    let out = match args.format {
        RepairFormatArg::Human => Out::lines(Format::Table, cx.color),
        RepairFormatArg::Ndjson => Out::new(Format::Ndjson, cx.color, Vec::new()),
        RepairFormatArg::Json => Out::new(Format::Json, cx.color, Vec::new()),
    };
    let mut out = out.filtered(jq.as_ref());
    let mut tally = Tally::default();
    let mut results = Vec::with_capacity(sources.len());
    parallel::ordered(
        &sources,
        cx.jobs,
        |s| (s.clone(), repair::repair(s, &rs)),
        |done| {
            results.push(done);
            Ok(())
        },
    )?;
    if together {
        repair::carry::carry(&mut results, &rs)?;
    }
    let input_files = FileSet::of(inputs.iter().map(PathBuf::as_path));
    let places = Places {
        target: &target,
        inputs: &input_files,
        folders: &folders,
        diff: args.diff,
    };
    for (source, result) in results {
        match result {
            Ok(r) => emit(&mut out, &cx, &places, &source, &r, &mut tally)?,
            Err(e) => cx.error(&source.display(), &io_cause(&e)),
        }
    }
    // The report's last line, where the report goes.
    if human && tally.files > 0 {
        let line = tally.summary(!matches!(target, Target::None));
        if matches!(target, Target::Stdout) {
            cx.diag.summary(&line);
        } else {
            out.row(&(), || vec![output::Cell::text(&line)])?;
        }
    }
    out.finish()?;
    cx.say_if_empty(tally.files, "rollouts");
    let failed = match target {
        // A fix held back (unsafe, not asked for) is a change the file needs too.
        Target::None => tally.changing > 0 || tally.refused > 0 || tally.held > 0,
        _ => tally.left > 0 || tally.refused > 0,
    };
    if failed {
        cx.status = cx.status.merge(ExitStatus::Findings);
    }
    Ok(cx.status)
}

/// Where a run writes: its target, its inputs (never written over but in place), the
/// folders given (what `--out-dir` keeps paths relative to), and whether diffs are shown.
struct Places<'a> {
    target: &'a Target,
    inputs: &'a FileSet,
    folders: &'a [PathBuf],
    diff: bool,
}

/// One file's repair: its copy written as the target asks, its report, its diff.
fn emit(
    out: &mut Out,
    cx: &Context,
    places: &Places<'_>,
    source: &Source,
    r: &Repair,
    tally: &mut Tally,
) -> std::io::Result<()> {
    let path = source.display();
    tally.files += 1;
    let written = write_copy(places.target, source, r, places.inputs, places.folders);
    let not_written = r.refused.clone().or(written.err());
    tally.add(r, not_written.is_some());
    // Not an error of the run (exit 2): the file is left as it was, and said so (exit 1):
    // here, unless a fix it applied says why on its line (a refusal of the check).
    let said = r.refused.is_some() && r.fixes.iter().any(|f| f.applied && f.reason.is_none());
    if let (Some(why), false) = (&not_written, said) {
        cx.diag.summary(&format!("{path}: not written: {why}"));
    }
    let to_stderr = matches!(places.target, Target::Stdout);
    report(out, cx, &path, r, not_written.as_deref(), to_stderr)?;
    if places.diff {
        if let (Some(original), Some(repaired)) = (&r.original, &r.repaired) {
            output::FileRows::end_file(out)?;
            output::raw(render::diff(&path, &original.text, repaired).as_bytes())?;
        }
    }
    output::FileRows::end_file(out)
}

/// Where the copies go, from the flags.
fn target_of(args: &RepairArgs) -> Result<Target, Error> {
    let target = match (&args.output, &args.out_dir, args.in_place) {
        (Some(o), _, _) if o.as_os_str() == "-" => Target::Stdout,
        (Some(o), _, _) => Target::File(o.clone()),
        (None, Some(d), _) => Target::Dir(d.clone()),
        (None, None, true) => Target::InPlace,
        (None, None, false) => Target::None,
    };
    if matches!(target, Target::Stdout) && (args.format != RepairFormatArg::Human || args.diff) {
        return Err(Error::Usage(
            "-o - writes the repaired file to standard output: --format ndjson|json, --jq and \
             --diff cannot share it"
                .into(),
        ));
    }
    Ok(target)
}

/// A usage error when the inputs found do not fit the target: `-o` writes one file,
/// `--in-place` cannot replace standard input.
fn fits(target: &Target, sources: &[Source]) -> Result<(), Error> {
    let n = sources.len();
    if matches!(target, Target::File(_) | Target::Stdout) && n != 1 {
        return Err(Error::Usage(format!(
            "-o writes one file, and {n} inputs were found: --out-dir writes many"
        )));
    }
    if matches!(target, Target::InPlace) && sources.contains(&Source::Stdin) {
        return Err(Error::Usage(
            "--in-place cannot replace standard input: -o FILE writes its copy".into(),
        ));
    }
    Ok(())
}

/// Write the copy `target` asks for: the repaired bytes, or the file as it was when nothing
/// changed (a `-o` or `--out-dir` copy of a clean file is the file). `Ok(true)` when
/// something was written.
fn write_copy(
    target: &Target,
    source: &Source,
    r: &Repair,
    inputs: &FileSet,
    folders: &[PathBuf],
) -> Result<bool, String> {
    if matches!(target, Target::None) || r.refused.is_some() {
        return Ok(false);
    }
    // The repaired text as the file's bytes, or the file as it lies (not decoded: a
    // compressed stream cut short is copied as it is).
    let bytes = || -> Result<Vec<u8>, String> {
        match (&r.original, &r.repaired) {
            (Some(o), Some(text)) => o.encode(text).map_err(|e| io_cause(&e)),
            (Some(o), None) => Ok(o.raw.clone()),
            (None, _) => match source {
                Source::File(p) => std::fs::read(p).map_err(|e| io_cause(&e)),
                Source::Stdin => Original::read(source)
                    .map(|o| o.raw)
                    .map_err(|e| io_cause(&e)),
            },
        }
    };
    let refusal = |e: write::Refusal| e.to_string();
    match target {
        Target::None => Ok(false),
        Target::Stdout => {
            output::raw(&bytes()?).map_err(|e| io_cause(&e))?;
            Ok(true)
        }
        Target::File(f) => {
            write::to_file(f, &bytes()?, inputs).map_err(refusal)?;
            Ok(true)
        }
        Target::Dir(dir) => {
            let rel = match source {
                Source::File(p) => {
                    let root = folders.iter().find(|f| p.starts_with(f));
                    repair::relative_path(p, root.map(PathBuf::as_path))
                }
                Source::Stdin => PathBuf::from("stdin.jsonl"),
            };
            write::to_file(&dir.join(rel), &bytes()?, inputs).map_err(refusal)?;
            Ok(true)
        }
        Target::InPlace => {
            let (Some(path), Some(original), Some(text)) =
                (source.path(), r.original.as_ref(), r.repaired.as_ref())
            else {
                return Ok(false);
            };
            let bytes = original.encode(text).map_err(|e| io_cause(&e))?;
            write::in_place(path, original, &bytes).map_err(refusal)?;
            Ok(true)
        }
    }
}

/// One file's report: its fixes, what is left, why it was not written.
fn report(
    out: &mut Out,
    cx: &Context,
    path: &str,
    r: &Repair,
    not_written: Option<&str>,
    to_stderr: bool,
) -> std::io::Result<()> {
    for f in &r.fixes {
        let reason = f.reason.as_deref().or(not_written.filter(|_| f.applied));
        let row = FixRow {
            path,
            line: f.line,
            rule: f.rule.slug(),
            applicability: f.applicability,
            action: &f.action,
            bytes_removed: f.bytes_removed,
            bytes_added: f.bytes_added,
            applied: f.applied && not_written.is_none(),
            reason,
            pass: f.pass,
        };
        let line = || render::fix_line(path, f, not_written);
        if to_stderr {
            cx.diag.summary(&line().render());
        } else {
            out.row(&row, || vec![line()])?;
        }
    }
    if out.is_table() || to_stderr {
        for l in &r.left {
            let line = render::left_line(path, l);
            if to_stderr {
                cx.diag.summary(&line.render());
            } else {
                out.row(&(), || vec![line])?;
            }
        }
        if r.unsettled {
            let note = format!(
                "{path}: fixes still touched the same bytes after {} passes: run repair again",
                repair::MAX_PASSES
            );
            cx.diag.note(path, &note);
        }
    }
    Ok(())
}

/// `1 fix`, `3 fixes`.
fn fixes(n: u64) -> String {
    if n == 1 {
        "1 fix".to_string()
    } else {
        format!("{n} fixes")
    }
}

/// What the run did, for its summary and exit code.
#[derive(Default)]
struct Tally {
    files: u64,
    /// Files a fix changes.
    changing: u64,
    fixes: u64,
    /// Files whose repair was not written (the check refused it, or the writer).
    refused: u64,
    /// Errors no allowed fix cures.
    left: u64,
    /// Fixes listed and not applied.
    held: u64,
}

impl Tally {
    fn add(&mut self, r: &Repair, not_written: bool) {
        if r.changes() {
            self.changing += 1;
            self.fixes += r.applied().count() as u64;
        }
        if not_written && (r.changes() || r.refused.is_some()) {
            self.refused += 1;
        }
        self.left += r.left.len() as u64;
        self.held += r.fixes.iter().filter(|f| !f.applied).count() as u64;
    }

    fn summary(&self, writing: bool) -> String {
        let files = |n: u64| output::counted(n, "file");
        if self.changing == 0 && self.refused == 0 {
            let mut s = if self.held > 0 {
                format!(
                    "no fix applies ({} read); {} held back (the reasons are above)",
                    files(self.files),
                    fixes(self.held)
                )
            } else {
                format!("nothing to repair ({} read)", files(self.files))
            };
            if self.left > 0 {
                s.push_str(&format!(
                    "; {} no fix cures",
                    output::counted(self.left, "error")
                ));
            }
            return s;
        }
        let verb = if writing { "applied" } else { "would apply" };
        let mut s = format!(
            "{verb} {} to {} of {}",
            fixes(self.fixes),
            files(self.changing),
            self.files
        );
        if self.refused > 0 {
            s.push_str(&format!("; {} not written", files(self.refused)));
        }
        if self.left > 0 {
            s.push_str(&format!(
                "; {} no fix cures",
                output::counted(self.left, "error")
            ));
        }
        if !writing {
            s.push_str(" (-o, --out-dir or --in-place writes the repaired copies)");
        }
        s
    }
}
