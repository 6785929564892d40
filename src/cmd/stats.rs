//! `rollscope stats`: glue from args to the census and the row schema in `docs/stats.md`.

use std::io;

use serde::Serialize;

use crate::analysis::census::{Counts, GroupBy, GroupTotals, Groups};
use crate::analysis::session::SessionInfo;
use crate::analysis::Needs;
use crate::cli::{ByArg, StatsArgs};
use crate::cmd::Context;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::output::table::Tone;
use crate::output::{counted, Cell, Column, Out};
use crate::time::Zone;

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

/// The columns every row and footer ends with, [`count_cells`] their cells. Token counts
/// are shown by their short names (`input` is `tokens.input_tokens`).
const COUNT_COLUMNS: [Column; 9] = [
    Column::right("lines").rank(2),
    Column::right("parse_errors").rank(4),
    Column::right("turns").rank(6),
    Column::right("tool_calls").rank(5),
    Column::right("input").field("tokens.input_tokens").rank(4),
    Column::right("cached")
        .field("tokens.cached_input_tokens")
        .rank(1),
    Column::right("output")
        .field("tokens.output_tokens")
        .rank(3),
    Column::right("reasoning")
        .field("tokens.reasoning_output_tokens")
        .rank(1),
    Column::right("total").field("tokens.total_tokens").rank(7),
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

/// The columns of a table of files (`by: None`) or of groups; [`count_cells`] fill the
/// last ones.
pub fn columns(by: Option<GroupBy>) -> Vec<Column> {
    let mut own = match by {
        Some(g) => {
            let mut v = vec![
                // A cwd is a path: cut in its middle, keeping the folder's own name.
                match g {
                    GroupBy::Cwd => Column::left(g.name()).field("group").path().rank(9),
                    _ => Column::left(g.name()).field("group").text().rank(9),
                },
                Column::right("sessions").rank(6),
            ];
            // A day's or a month's bar: its total tokens against the largest group's.
            if matches!(g, GroupBy::Day | GroupBy::Month) {
                v.push(
                    Column::left("bar")
                        .bar("total tokens, against the largest row's")
                        .rank(5),
                );
            }
            v
        }
        None => vec![
            Column::left("path").path().rank(9),
            Column::left("started_at").clock().rank(6),
            Column::left("cli_version").rank(3),
            Column::left("history_mode").rank(2),
        ],
    };
    own.extend(COUNT_COLUMNS);
    own
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
    let with_bar = matches!(group_by, Some(GroupBy::Day | GroupBy::Month));
    let mut out = cx.out(columns(group_by))?;
    let mut groups = group_by.map(|g| Groups::new(g, zone));
    // What the table's footer sums: the sessions, and every number a row shows.
    let mut total = GroupTotals::default();
    let mut files = 0u64;
    cx.each_file(&Needs::default().census(zone), &mut out, |cx, out, r| {
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
        let path = cx.path_cell(&r.source);
        emit_file(
            out,
            &r.source.display(),
            path,
            cx.zone,
            &r.session,
            &f.counts,
        )
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
                        Some(k) => Cell::text(k),
                        None => Cell::text("(unknown)").tone(Tone::Dim),
                    };
                    let mut c = vec![group, Cell::num(t.sessions)];
                    if with_bar {
                        c.push(Cell::bar(t.counts.tokens.total_tokens as f64));
                    }
                    c.extend(count_cells(&t.counts));
                    c
                })?;
                total.add(t.sessions, &t.counts);
            }
            (by != GroupBy::Total).then(|| {
                let mut c = vec![Cell::text("total"), Cell::num(files)];
                if with_bar {
                    c.push(Cell::text(""));
                }
                c
            })
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

fn emit_file(
    out: &mut Out,
    path: &str,
    path_cell: Cell,
    zone: Zone,
    s: &SessionInfo,
    counts: &Counts,
) -> io::Result<()> {
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
            path_cell,
            Cell::time(s.started_at.as_deref(), zone, false),
            Cell::opt(s.cli_version.as_deref()),
            Cell::text(s.mode()),
        ];
        c.extend(count_cells(counts));
        c
    })
}
