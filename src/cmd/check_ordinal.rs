//! `rollscope check-ordinal`: glue from args to the ordinal check, the lineage check and
//! the row schema in `docs/check-ordinal.md`.
//!
//! Two phases per file: the ordinal check over the file itself (in parallel, in the one
//! pass), then, in input order, the lineage check of a paginated file's `history_base`
//! ([`crate::lineage`]). The rules about ordinals, heads and lineage turn both into findings.

use std::sync::Mutex;

use serde::Serialize;

use crate::analysis::ordinal::OrdinalReport;
use crate::analysis::{FileFacts, Needs, ReadOptions};
use crate::cli::{CheckOrdinalArgs, DenyArg};
use crate::cmd::Context;
use crate::codex::{Answer, Behaviour, Reading};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::findings::{Finding, Rule, Severity};
use crate::input::Source;
use crate::lineage::{Follower, JudgeOnly, Resolver};
use crate::output::diagnostics::{self, Report, Shown, Style};
use crate::output::table::Tone;
use crate::output::Cell;
use crate::rules::{self, select::Overrides, Checker, Hook, Stage};
use crate::statedb::{Homes, ThreadState};

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
    problems: Vec<Problem<'a>>,
    codex_version: String,
    codex_version_source: &'static str,
}

/// One problem of a row: a finding in `check-ordinal`'s terms.
#[derive(Serialize)]
struct Problem<'a> {
    kind: &'static str,
    severity: Severity,
    line: u64,
    byte_offset: u64,
    expected: Option<u64>,
    found: Option<u64>,
    message: &'a str,
}

impl<'a> Problem<'a> {
    fn of(f: &'a Finding) -> Problem<'a> {
        Problem {
            kind: kind(f),
            severity: f.severity,
            line: f.line(),
            byte_offset: f.line_offset().unwrap_or(0),
            expected: f.expected,
            found: f.found,
            message: &f.message,
        }
    }
}

/// `check-ordinal`'s name for the kind of a finding (`docs/check-ordinal.md`, "Problem
/// kinds"): the case of a rule that has several, else its rule's kind here.
fn kind(f: &Finding) -> &'static str {
    use rules::{file, history_base, meta, ordinal};
    let kinds: [(Rule, &str); 11] = [
        (file::bom::RULE, "start"),
        (meta::first::RULE, "start"),
        (meta::missing::RULE, "start"),
        (meta::history_mode::RULE, "start"),
        (ordinal::start::RULE, "start"),
        (ordinal::in_legacy::RULE, "unexpected"),
        (ordinal::missing::RULE, "missing"),
        (ordinal::subagent_prefix::RULE, "missing"),
        (ordinal::gap::RULE, "gap"),
        (ordinal::tail_unparseable::RULE, "tail_unparseable"),
        (history_base::shape::RULE, "base"),
    ];
    if let Some(case) = f.case {
        return case;
    }
    if f.rule.group() == "history_base" {
        return "base";
    }
    if f.rule.group() == "state" {
        return "projection";
    }
    kinds
        .iter()
        .find(|(r, _)| *r == f.rule)
        .map_or("unexpected", |(_, k)| k)
}

/// The checks `check-ordinal` makes: those that read the ordinal sequence (a paginated
/// file's head among it) and the lineage, and what Codex's databases say of a file (the
/// `state` rules' file checks; those about the databases themselves are `lint`'s).
fn checker() -> Checker {
    Checker::new(|_, hook| {
        matches!(hook.stage(), Stage::Ordinals | Stage::Lineage)
            || matches!(
                hook,
                Hook::File {
                    stage: Stage::StateDb,
                    ..
                }
            )
    })
}

pub fn run(args: &CheckOrdinalArgs) -> Result<ExitStatus, Error> {
    let settings = super::settings(&args.settings)?;
    let mut cx = Context::for_lines(&args.input, &args.output)?;
    let mut severities = Overrides::default();
    if args.deny.contains(&DenyArg::Gap) {
        severities.set_rule(rules::ordinal::gap::RULE, Severity::Error);
    }
    if args.deny.contains(&DenyArg::NonMonotonic) {
        severities.set_rule(rules::ordinal::non_monotonic::RULE, Severity::Error);
    }
    let style = args.output.format.style();
    let homes = Homes::new(
        args.state.codex_home.clone(),
        args.state.codex_home_as.clone(),
    );
    let checker = checker()
        .with_columns(style == Some(Style::Sarif))
        .with_digests(style == Some(Style::Sarif))
        .without_fixes()
        .with_state(std::sync::Arc::new(homes));
    let mut out = match style {
        None => Report::Rows(cx.lines()),
        Some(s) => cx.findings(
            s,
            &checker,
            settings.codex.run_reading(),
            args.root.root.as_deref(),
        ),
    };
    let resolver = Mutex::new(Resolver::new(&cx.sources, cx.codex_home()));
    let read = cx.read.clone();
    let mut lineage = Follower::new(&resolver, &read);
    let mut failed = false;
    let mut files = 0u64;
    let needs = needs(style);
    let read_one = |s: &Source, r: &ReadOptions| read_file(s, r, &needs, &checker, &resolver);
    cx.each_file_with(read_one, &mut out, |cx, out, r, state| {
        let Some(rep) = r.ordinals.as_ref() else {
            return Ok(());
        };
        files += 1;
        if let (Some(path), Some(lines), true) = (r.source.path(), &r.lines, read_whole(&r)) {
            lineage.note_lines(path, std::sync::Arc::clone(lines));
        }
        let mut problems = Vec::new();
        let reading = settings.codex.reading(r.session.cli_version.as_deref());
        let follows = reading.does(Behaviour::HistoryBase, Answer::Reads);
        if let (Some(base), Some(at), true) = (rep.history_base.as_ref(), rep.meta, follows) {
            let followed = lineage.follow(&r.source, base, at, &mut JudgeOnly);
            for (src, cause) in &followed.unreadable {
                cx.error(src, cause);
            }
            problems = followed.problems;
        }
        let findings: Vec<Finding> =
            rules::ordinals(&r, &problems, &checker, reading, state.as_ref())
                .iter()
                .map(|f| severities.apply(f).into_owned())
                .collect();
        let ok = !findings.iter().any(Finding::is_error);
        failed |= !ok;
        // A file whose read failed part-way (its error is on stderr, the exit is 2) was not
        // checked to its end: it is never called ok.
        emit(out, &r, rep, &findings, ok && r.io_error.is_none(), reading)
    })?;
    // Where people read the lines, the run's total closes them (on stderr, as `lint`'s);
    // for one file, its own line is the total.
    let total = match &out {
        Report::Findings(d) if d.style().for_people() && files > 1 => {
            let (errors, warnings, infos) = d.counts();
            let read_as = super::read_as(settings.codex);
            Some(diagnostics::total(
                errors,
                warnings,
                infos,
                files as usize,
                &read_as,
            ))
        }
        _ => None,
    };
    if let Report::Findings(d) = &mut out {
        d.problems(&cx.problems);
    }
    out.finish()?;
    cx.say_if_empty(files, "rollouts");
    if let Some(line) = total {
        cx.diag.summary(&line);
    }
    if failed {
        cx.status = cx.status.merge(ExitStatus::Findings);
    }
    Ok(cx.status)
}

/// What the pass reads of each file: its ordinals; the start of each line a finding points
/// at, where people read them (the human format); and its lines, from which a fork of it
/// at any cutoff, followed after it, is judged instead of reading the file again
/// ([`crate::lineage::Follower::note_lines`]).
fn needs(style: Option<Style>) -> Needs {
    let needs = Needs::default().ordinals().lines();
    match style {
        Some(Style::Human) => needs.reread(),
        _ => needs,
    }
}

/// One file's pass (a worker's). A file with a lineage is looked up there too: the thread
/// that follows lineages, in file order, then finds it looked up.
fn read_file(
    s: &Source,
    read: &ReadOptions,
    needs: &Needs,
    checker: &Checker,
    resolver: &Mutex<Resolver>,
) -> (FileFacts, Option<ThreadState>) {
    let (facts, state) = rules::read_for_ordinals(s, read, needs, checker);
    let base = facts
        .ordinals
        .as_ref()
        .and_then(|o| o.history_base.as_ref());
    if let (Some(path), Some(_)) = (s.path(), base) {
        Resolver::warm(resolver, path);
    }
    (facts, state)
}

/// Whether the pass read the file to its end, as a lineage reader reading it would.
fn read_whole(r: &FileFacts) -> bool {
    r.opened && r.io_error.is_none() && r.corrupt_compression.is_none()
}

fn emit(
    out: &mut Report,
    r: &FileFacts,
    rep: &OrdinalReport,
    findings: &[Finding],
    ok: bool,
    reading: Reading,
) -> std::io::Result<()> {
    let path = r.source.display();
    let diag = match out {
        Report::Rows(out) => {
            let row = Row {
                path: &path,
                history_mode: &rep.history_mode,
                ok,
                records: rep.records,
                first: rep.first,
                last: rep.last,
                expected_first: rep.expected_first,
                next_on_resume: rep.next_on_resume,
                problems: findings.iter().map(Problem::of).collect(),
                codex_version: reading.version.to_string(),
                codex_version_source: reading.source.as_str(),
            };
            return out.row(&row, Vec::new);
        }
        Report::Findings(diag) => diag,
    };
    for f in findings {
        let excerpt = match (diag.style(), f.span, r.file.as_ref()) {
            (Style::Human, Some(span), Some(file)) => {
                crate::input::reread::excerpt(file, r.stream.bytes, span.line_offset, 200)
            }
            _ => None,
        };
        let shown = Shown {
            path: &path,
            finding: f,
            excerpt: excerpt.as_deref(),
            label: kind(f),
            codex: reading,
        };
        diag.write(&shown)?;
    }
    diag.note(|| vec![summary(&path, rep, findings, r.io_error.is_none(), reading)])
}

/// `path: paginated, 41 records, ordinals 0..=40, next resume at 41: ok`.
fn summary(
    path: &str,
    rep: &OrdinalReport,
    findings: &[Finding],
    whole: bool,
    reading: Reading,
) -> Cell {
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
    let errors = findings.iter().filter(|f| f.is_error()).count();
    let warnings = findings.len() - errors;
    let (verdict, tone) = match (errors, warnings) {
        _ if !whole => ("not read to its end".to_string(), Tone::Bad),
        (0, 0) => ("ok".to_string(), Tone::Good),
        (0, w) => (format!("ok, {}", plural(w, "warning")), Tone::Warn),
        (e, 0) => (plural(e, "error"), Tone::Bad),
        (e, w) => (
            format!("{}, {}", plural(e, "error"), plural(w, "warning")),
            Tone::Bad,
        ),
    };
    parts.push(format!("as Codex {} reads it", reading.version));
    Cell::text(&format!("{path}: {}: {verdict}", parts.join(", "))).tone(tone)
}
