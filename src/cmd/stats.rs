//! `rollscope stats`: glue from args to the census and the row schema in `docs/stats.md`.

use std::collections::BTreeMap;
use std::io;

use serde::Serialize;

use crate::analysis::census::{Census, GroupBy, GroupTotals, Groups};
use crate::analysis::session::SessionInfo;
use crate::analysis::tokens::Tokens;
use crate::analysis::Needs;
use crate::cli::{ByArg, StatsArgs};
use crate::cmd::Context;
use crate::exit::ExitStatus;
use crate::output::table::Tone;
use crate::output::{Cell, Column, Out};
use crate::Error;

/// One file row (NDJSON schema: `docs/stats.md`).
#[derive(Serialize)]
struct FileRow<'a> {
    path: String,
    session_id: Option<&'a str>,
    thread_id: Option<&'a str>,
    history_mode: &'a str,
    cli_version: Option<&'a str>,
    originator: Option<&'a str>,
    cwd: Option<&'a str>,
    started_at: Option<&'a str>,
    lines: u64,
    blank_lines: u64,
    bytes: u64,
    parse_errors: u64,
    bom: bool,
    records: &'a BTreeMap<String, u64>,
    response_items: &'a BTreeMap<String, u64>,
    events: &'a BTreeMap<String, u64>,
    turns: u64,
    tool_calls: u64,
    tokens: Tokens,
}

/// One group row.
#[derive(Serialize)]
struct GroupRow<'a> {
    by: &'static str,
    group: Option<&'a str>,
    sessions: u64,
    lines: u64,
    blank_lines: u64,
    bytes: u64,
    parse_errors: u64,
    records: &'a BTreeMap<String, u64>,
    response_items: &'a BTreeMap<String, u64>,
    events: &'a BTreeMap<String, u64>,
    turns: u64,
    tool_calls: u64,
    tokens: Tokens,
}

fn token_cells(t: &Tokens) -> Vec<Cell> {
    vec![
        Cell::num(t.input_tokens),
        Cell::num(t.cached_input_tokens),
        Cell::num(t.output_tokens),
        Cell::num(t.reasoning_output_tokens),
        Cell::num(t.total_tokens),
    ]
}

const TOKEN_COLUMNS: [&str; 5] = ["input", "cached", "output", "reasoning", "total"];

fn file_columns() -> Vec<Column> {
    let mut c = vec![
        Column::left("path"),
        Column::left("started"),
        Column::left("version"),
        Column::left("mode"),
        Column::right("lines"),
        Column::right("errors"),
        Column::right("turns"),
        Column::right("calls"),
    ];
    c.extend(TOKEN_COLUMNS.iter().map(|n| Column::right(n)));
    c
}

fn group_columns(by: &'static str) -> Vec<Column> {
    let mut c = vec![
        Column::left(by),
        Column::right("sessions"),
        Column::right("lines"),
        Column::right("errors"),
        Column::right("turns"),
        Column::right("calls"),
    ];
    c.extend(TOKEN_COLUMNS.iter().map(|n| Column::right(n)));
    c
}

fn by_name(by: ByArg) -> &'static str {
    match by {
        ByArg::File => "file",
        ByArg::Day => "day",
        ByArg::Month => "month",
        ByArg::Model => "model",
        ByArg::Cwd => "cwd",
        ByArg::Total => "total",
    }
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
    let by = by_name(args.by);
    let columns = if group_by.is_some() {
        group_columns(by)
    } else {
        file_columns()
    };
    let mut out = Out::new(cx.format, cx.color, columns);
    let mut groups = group_by.map(|g| Groups::new(g, zone));
    let mut total = GroupTotals::default();
    cx.each_file(&Needs::default().census(zone), |_, r| {
        let Some(f) = r.census.as_ref() else {
            return Ok(());
        };
        if let Some(g) = groups.as_mut() {
            g.add(&r.session, f);
            return Ok(());
        }
        total.sessions += 1;
        total.lines += f.lines;
        total.parse_errors += f.parse_errors;
        total.turns += f.turns;
        total.tool_calls += f.tool_calls;
        total.tokens += f.tokens;
        emit_file(&mut out, &r.source.display(), &r.session, f)
    })?;
    if let Some(g) = groups {
        for (key, t) in g.finish() {
            let row = GroupRow {
                by,
                group: key.as_deref(),
                sessions: t.sessions,
                lines: t.lines,
                blank_lines: t.blank_lines,
                bytes: t.bytes,
                parse_errors: t.parse_errors,
                records: &t.records,
                response_items: &t.response_items,
                events: &t.events,
                turns: t.turns,
                tool_calls: t.tool_calls,
                tokens: t.tokens,
            };
            out.row(&row, || {
                let mut c = vec![
                    match key.as_deref() {
                        Some(k) => Cell::cut(k, 60),
                        None => Cell::text("(unknown)").tone(Tone::Dim),
                    },
                    Cell::num(t.sessions),
                    Cell::num(t.lines),
                    errors_cell(t.parse_errors),
                    Cell::num(t.turns),
                    Cell::num(t.tool_calls),
                ];
                c.extend(token_cells(&t.tokens));
                c
            })?;
            total.sessions += t.sessions;
            total.lines += t.lines;
            total.parse_errors += t.parse_errors;
            total.turns += t.turns;
            total.tool_calls += t.tool_calls;
            total.tokens += t.tokens;
        }
        if by != "total" {
            let mut c = vec![
                Cell::text("total"),
                Cell::text(""),
                Cell::num(total.lines),
                errors_cell(total.parse_errors),
                Cell::num(total.turns),
                Cell::num(total.tool_calls),
            ];
            c.extend(token_cells(&total.tokens));
            out.footer(c);
        }
    } else {
        let mut c = vec![
            Cell::text(&format!("total ({} files)", total.sessions)),
            Cell::text(""),
            Cell::text(""),
            Cell::text(""),
            Cell::num(total.lines),
            errors_cell(total.parse_errors),
            Cell::num(total.turns),
            Cell::num(total.tool_calls),
        ];
        c.extend(token_cells(&total.tokens));
        out.footer(c);
    }
    out.finish()?;
    Ok(cx.status)
}

fn errors_cell(n: u64) -> Cell {
    if n > 0 {
        Cell::num(n).tone(Tone::Bad)
    } else {
        Cell::num(n)
    }
}

fn emit_file(out: &mut Out, path: &str, s: &SessionInfo, f: &Census) -> io::Result<()> {
    let row = FileRow {
        path: path.to_string(),
        session_id: s.session_id.as_deref(),
        thread_id: s.thread_id.as_deref(),
        history_mode: s.mode(),
        cli_version: s.cli_version.as_deref(),
        originator: s.originator.as_deref(),
        cwd: s.cwd.as_deref(),
        started_at: s.started_at.as_deref(),
        lines: f.lines,
        blank_lines: f.blank_lines,
        bytes: f.bytes,
        parse_errors: f.parse_errors,
        bom: f.bom,
        records: &f.records,
        response_items: &f.response_items,
        events: &f.events,
        turns: f.turns,
        tool_calls: f.tool_calls,
        tokens: f.tokens,
    };
    out.row(&row, || {
        let mut c = vec![
            Cell::path(path, 48),
            short_time(s.started_at.as_deref()),
            Cell::opt(s.cli_version.as_deref()),
            Cell::text(s.mode()),
            Cell::num(f.lines),
            errors_cell(f.parse_errors),
            Cell::num(f.turns),
            Cell::num(f.tool_calls),
        ];
        c.extend(token_cells(&f.tokens));
        c
    })
}
