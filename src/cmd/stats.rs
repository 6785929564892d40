//! `rollscope stats`: glue from args to the census and the row schema in `docs/stats.md`.

use std::io;

use serde::Serialize;

use crate::analysis::census::{Counts, GroupBy, GroupTotals, Groups};
use crate::analysis::session::SessionInfo;
use crate::analysis::Needs;
use crate::cli::{ByArg, StatsArgs};
use crate::cmd::Context;
use crate::exit::ExitStatus;
use crate::output::table::Tone;
use crate::output::{counted, Cell, Column, Out};
use crate::Error;

/// One file row (NDJSON schema: `docs/stats.md`): the session, then its counts.
#[derive(Serialize)]
struct FileRow<'a> {
    path: &'a str,
    session_id: Option<&'a str>,
    thread_id: Option<&'a str>,
    history_mode: &'a str,
    cli_version: Option<&'a str>,
    originator: Option<&'a str>,
    cwd: Option<&'a str>,
    started_at: Option<&'a str>,
    #[serde(flatten)]
    counts: &'a Counts,
}

/// One group row: the group, then its files' counts.
#[derive(Serialize)]
struct GroupRow<'a> {
    by: &'static str,
    group: Option<&'a str>,
    sessions: u64,
    #[serde(flatten)]
    counts: &'a Counts,
}

/// The columns every row and footer ends with, [`count_cells`] their cells.
const COUNT_COLUMNS: [&str; 9] = [
    "lines",
    "errors",
    "turns",
    "calls",
    "input",
    "cached",
    "output",
    "reasoning",
    "total",
];

fn count_cells(c: &Counts) -> impl Iterator<Item = Cell> {
    let t = &c.tokens;
    let errors = if c.parse_errors > 0 {
        Cell::num(c.parse_errors).tone(Tone::Bad)
    } else {
        Cell::num(c.parse_errors)
    };
    [
        Cell::num(c.lines),
        errors,
        Cell::num(c.turns),
        Cell::num(c.tool_calls),
        Cell::num(t.input_tokens),
        Cell::num(t.cached_input_tokens),
        Cell::num(t.output_tokens),
        Cell::num(t.reasoning_output_tokens),
        Cell::num(t.total_tokens),
    ]
    .into_iter()
}

/// A table's columns: its rows' own, then the counts.
fn with_count_columns(mut own: Vec<Column>) -> Vec<Column> {
    own.extend(COUNT_COLUMNS.iter().map(|n| Column::right(n)));
    own
}

/// `started_at` shortened for the table: `2026-11-29 12:00`.
fn short_time(ts: Option<&str>) -> Cell {
    match ts {
        Some(t) if t.len() >= 16 => Cell::text(&t[..16].replace('T', " ")),
        other => Cell::opt(other),
    }
}

pub fn run(args: &StatsArgs) -> Result<ExitStatus, Error> {
    let mut cx = Context::new(&args.input, &args.output)?;
    let zone = cx.zone;
    let group_by = match args.by {
        ByArg::File => None,
        ByArg::Day => Some(GroupBy::Day),
        ByArg::Month => Some(GroupBy::Month),
        ByArg::Model => Some(GroupBy::Model),
        ByArg::Cwd => Some(GroupBy::Cwd),
        ByArg::Total => Some(GroupBy::Total),
    };
    let columns = match group_by {
        Some(g) => with_count_columns(vec![Column::left(g.name()), Column::right("sessions")]),
        None => with_count_columns(vec![
            Column::left("path"),
            Column::left("started"),
            Column::left("version"),
            Column::left("mode"),
        ]),
    };
    let mut out = Out::new(cx.format, cx.color, columns);
    let mut groups = group_by.map(|g| Groups::new(g, zone));
    // What the table's footer sums: the sessions, and every number a row shows.
    let mut total = GroupTotals::default();
    let mut files = 0u64;
    cx.each_file(&Needs::default().census(zone), |_, r| {
        let Some(f) = r.census.as_ref() else {
            return Ok(());
        };
        if let Some(g) = groups.as_mut() {
            g.add(&r.session, f);
            // A session's tokens can land in several groups: the footer counts it once.
            files += 1;
            return Ok(());
        }
        total.add(1, &f.counts);
        emit_file(&mut out, &r.source.display(), &r.session, &f.counts)
    })?;
    let footer = match groups {
        Some(g) => {
            let by = g.by();
            for (key, t) in g.finish() {
                let row = GroupRow {
                    by: by.name(),
                    group: key.as_deref(),
                    sessions: t.sessions,
                    counts: &t.counts,
                };
                out.row(&row, || {
                    let group = match key.as_deref() {
                        Some(k) => Cell::cut(k, 60),
                        None => Cell::text("(unknown)").tone(Tone::Dim),
                    };
                    let mut c = vec![group, Cell::num(t.sessions)];
                    c.extend(count_cells(&t.counts));
                    c
                })?;
                total.add(t.sessions, &t.counts);
            }
            (by != GroupBy::Total).then(|| vec![Cell::text("total"), Cell::num(files)])
        }
        None => {
            let files = Cell::text(&format!("total ({})", counted(total.sessions, "file")));
            Some(vec![files, Cell::text(""), Cell::text(""), Cell::text("")])
        }
    };
    // No file, no table: the run says so on stderr.
    if let Some(mut c) = footer.filter(|_| cx.handed > 0) {
        c.extend(count_cells(&total.counts));
        out.footer(c);
    }
    let rows = out.rows();
    out.finish()?;
    cx.say_if_empty(rows, "sessions");
    Ok(cx.status)
}

fn emit_file(out: &mut Out, path: &str, s: &SessionInfo, counts: &Counts) -> io::Result<()> {
    let row = FileRow {
        path,
        session_id: s.session_id.as_deref(),
        thread_id: s.thread_id.as_deref(),
        history_mode: s.mode(),
        cli_version: s.cli_version.as_deref(),
        originator: s.originator.as_deref(),
        cwd: s.cwd.as_deref(),
        started_at: s.started_at.as_deref(),
        counts,
    };
    out.row(&row, || {
        let mut c = vec![
            Cell::path(path, 48),
            short_time(s.started_at.as_deref()),
            Cell::opt(s.cli_version.as_deref()),
            Cell::text(s.mode()),
        ];
        c.extend(count_cells(counts));
        c
    })
}
