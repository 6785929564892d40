//! `rollscope turns`: glue from args to the turn segmentation and the row schema in
//! `docs/turns.md`.

use serde::Serialize;

use crate::analysis::tokens::Tokens;
use crate::analysis::turns::{Detail, Turn, TurnStatus};
use crate::analysis::Needs;
use crate::cli::TurnsArgs;
use crate::cmd::Context;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::output::table::{Tone, FILE_COLUMNS};
use crate::output::{counted, glyphs, Cell, Column};
use crate::time::Zone;

/// One turn row: the file's identity, then the turn.
#[derive(Serialize)]
struct Row<'a> {
    path: &'a str,
    session_id: Option<&'a str>,
    thread_id: Option<&'a str>,
    #[serde(flatten)]
    turn: &'a Turn,
}

fn tone(s: TurnStatus) -> Tone {
    match s {
        TurnStatus::Completed => Tone::Good,
        TurnStatus::Failed => Tone::Bad,
        TurnStatus::Aborted | TurnStatus::Stale => Tone::Warn,
        TurnStatus::RolledBack | TurnStatus::Unknown => Tone::Dim,
        TurnStatus::Open => Tone::Plain,
    }
}

/// A status at a glance: one mark before its name.
fn mark(s: TurnStatus, unicode: bool) -> &'static str {
    let (u, a) = match s {
        TurnStatus::Completed => ("✓", "+"),
        TurnStatus::Failed => ("✗", "x"),
        TurnStatus::Aborted => ("■", "!"),
        TurnStatus::Stale => ("◌", "~"),
        TurnStatus::Open => ("▶", ">"),
        TurnStatus::RolledBack => ("↺", "<"),
        TurnStatus::Unknown => ("?", "?"),
    };
    if unicode {
        u
    } else {
        a
    }
}

/// What a turn shows in one column of the table.
type CellOf = fn(&Turn, &Shown) -> Cell;

/// How the table shows what is not in the turn: the clock, the marks.
struct Shown {
    zone: Zone,
    unicode: bool,
}

/// The table after its `path` column: each column, and the cell a turn gives it.
const TABLE: [(Column, CellOf); 11] = [
    (Column::right("index").rank(8), |t, _| Cell::num(t.index)),
    (Column::left("status").text().rank(8), |t, s| {
        let status = format!("{} {}", mark(t.status, s.unicode), t.status.as_str());
        Cell::status(&status, t.inherited).tone(tone(t.status))
    }),
    (Column::left("started_at").clock().rank(3), |t, s| {
        Cell::time(t.started_at.as_deref(), s.zone, true)
    }),
    (
        Column::right("duration").field("duration_ms").rank(6),
        |t, _| Cell::duration(t.duration_ms),
    ),
    // Each turn's duration against the longest one's.
    (
        Column::left("bar")
            .bar("the duration, against the longest turn's")
            .rank(4),
        |t, _| Cell::bar(t.duration_ms.unwrap_or(0) as f64),
    ),
    (Column::left("model").rank(3), |t, _| {
        Cell::opt(t.model.as_deref())
    }),
    (Column::left("effort").rank(1), |t, _| {
        Cell::opt(t.effort.as_deref())
    }),
    (Column::right("tool_calls").rank(3), |t, _| {
        Cell::num(t.tool_calls)
    }),
    (
        Column::right("tokens").field("tokens.total_tokens").rank(5),
        |t, _| Cell::num(t.tokens.total_tokens),
    ),
    (Column::left("user_message").text().rank(7), |t, _| {
        Cell::opt(t.user_message.as_deref())
    }),
    (Column::left("turn_id").hidden(), |t, _| {
        Cell::opt(t.turn_id.as_deref())
    }),
];

/// The table's columns: the file's, then the turn's.
pub fn columns(many_files: bool) -> Vec<Column> {
    Column::after_file(many_files, TABLE.map(|(column, _)| column))
}

pub fn run(args: &TurnsArgs) -> Result<ExitStatus, Error> {
    let mut cx = Context::new(&args.input, &args.output)?;
    // clap takes only these names; the library's callers may not.
    let statuses: Vec<TurnStatus> = args
        .status
        .iter()
        .map(|s| {
            TurnStatus::from_name(s)
                .ok_or_else(|| Error::Usage(format!("--status: no status `{s}`")))
        })
        .collect::<Result<_, _>>()?;
    let many = cx.sources.len() > 1;
    let mut out = cx.out(columns(many))?;
    let shown = Shown {
        zone: cx.zone,
        unicode: glyphs::unicode(),
    };
    let (mut shown_turns, mut calls, mut tokens) = (0u64, 0u64, Tokens::default());
    cx.each_file(
        &Needs::default().turns(Detail::Full),
        &mut out,
        |cx, out, r| {
            let Some(turns) = r.turns.as_ref() else {
                return Ok(());
            };
            let path = r.source.display();
            let file_cells = cx.file_cells(&r.source, &r.session);
            for t in &turns.turns {
                if !statuses.is_empty() && !statuses.contains(&t.status) {
                    continue;
                }
                shown_turns += 1;
                calls += t.tool_calls;
                tokens += t.tokens;
                let row = Row {
                    path: &path,
                    session_id: r.session.session_id.as_deref(),
                    thread_id: r.session.thread_id.as_deref(),
                    turn: t,
                };
                out.row(&row, || {
                    let cells = TABLE.iter().map(|(_, cell)| cell(t, &shown));
                    file_cells.iter().cloned().chain(cells).collect()
                })?;
            }
            Ok(())
        },
    )?;
    // Under tool_calls and tokens, their sums; the count of turns in the first column
    // the width leaves free.
    let mut footer = vec![Cell::text(""); FILE_COLUMNS + 7];
    footer.extend([Cell::num(calls), Cell::num(tokens.total_tokens)]);
    out.footer_label(&counted(shown_turns, "turn"));
    if shown_turns > 0 {
        out.footer(footer);
    }
    let rows = out.rows();
    out.finish()?;
    cx.say_if_empty(rows, "turns");
    Ok(cx.status)
}
