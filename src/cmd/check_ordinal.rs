//! `rollscope check-ordinal`: glue from args to the ordinal check, the lineage check and
//! the row schema in `docs/check-ordinal.md`.
//!
//! Two phases per file: the ordinal check over the file itself (in parallel, in the one
//! pass), then, in input order, the lineage check of a paginated file's `history_base`
//! ([`crate::lineage`]).

use serde::Serialize;

use crate::analysis::ordinal::{OrdinalOptions, OrdinalReport, ProblemKind};
use crate::analysis::Needs;
use crate::cli::{CheckOrdinalArgs, DenyArg};
use crate::cmd::Context;
use crate::exit::ExitStatus;
use crate::findings::{Finding, Severity};
use crate::lineage::{Lineage, Resolver};
use crate::output::findings::{located, message};
use crate::output::table::Tone;
use crate::output::{Cell, Out};
use crate::Error;

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
    problems: Vec<Problem>,
}

/// One problem of a row: a finding in `check-ordinal`'s terms.
#[derive(Serialize)]
struct Problem {
    kind: ProblemKind,
    severity: Severity,
    line: u64,
    byte_offset: u64,
    expected: Option<u64>,
    found: Option<u64>,
    message: String,
}

impl Problem {
    fn of(f: &Finding) -> Problem {
        Problem {
            kind: ProblemKind::of(&f.cause),
            severity: f.severity,
            line: f.line(),
            byte_offset: f.at.map_or(0, |p| p.offset),
            expected: f.expected,
            found: f.found,
            message: message(f),
        }
    }
}

pub fn run(args: &CheckOrdinalArgs) -> Result<ExitStatus, Error> {
    super::no_table(&args.output, "check-ordinal")?;
    let mut cx = Context::new(&args.input, &args.output)?;
    let opts = OrdinalOptions {
        deny_gap: args.deny.contains(&DenyArg::Gap),
    };
    let mut out = Out::lines(cx.format, cx.color);
    let resolver = Resolver::new(&cx.sources, cx.codex_home());
    let mut lineage = Lineage::new(resolver, cx.read.clone());
    let mut findings = false;
    cx.each_file(&Needs::default().ordinals(opts), |cx, r| {
        let Some(mut rep) = r.ordinals else {
            return Ok(());
        };
        let path = r.source.display();
        if let (Some(base), Some(at)) = (rep.history_base.clone(), rep.meta_pos) {
            let checked = lineage.check(&r.source, &base, at);
            if let Some((src, cause)) = &checked.unreadable {
                cx.error(src, cause);
            }
            rep.add(checked.finding);
        }
        findings |= !rep.ok();
        // A file whose read failed part-way (its error is on stderr, the exit is 2) was not
        // checked to its end: it is never called ok.
        emit(&mut out, &path, &rep, r.io_error.is_none())
    })?;
    let rows = out.rows();
    out.finish()?;
    cx.say_if_empty(rows, "rollouts");
    if findings {
        cx.status = cx.status.merge(ExitStatus::Findings);
    }
    Ok(cx.status)
}

fn emit(out: &mut Out, path: &str, rep: &OrdinalReport, whole: bool) -> std::io::Result<()> {
    let row = Row {
        path,
        history_mode: &rep.history_mode,
        ok: rep.ok() && whole,
        records: rep.records,
        first: rep.first,
        last: rep.last,
        expected_first: rep.expected_first,
        next_on_resume: rep.next_on_resume,
        problems: if out.is_table() {
            Vec::new()
        } else {
            rep.findings.iter().map(Problem::of).collect()
        },
    };
    out.row(&row, || {
        let mut lines: Vec<Cell> = rep
            .findings
            .iter()
            .map(|f| located(path, f, ProblemKind::of(&f.cause).as_str()))
            .collect();
        lines.push(summary(path, rep, whole));
        lines
    })
}

/// `path: paginated, 41 records, ordinals 0..=40, next resume at 41: ok`.
fn summary(path: &str, rep: &OrdinalReport, whole: bool) -> Cell {
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
    let errors = rep.findings.iter().filter(|f| f.is_error()).count();
    let warnings = rep.findings.len() - errors;
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
    Cell::text(&format!("{path}: {}: {verdict}", parts.join(", "))).tone(tone)
}
