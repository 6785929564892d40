//! `rollscope turns`: glue from args to the turn segmentation and the row schema in
//! `docs/turns.md`.

use serde::Serialize;

use crate::analysis::tokens::Tokens;
use crate::analysis::turns::{Detail, Turn, TurnStatus};
use crate::analysis::Needs;
use crate::cli::TurnsArgs;
use crate::cmd::Context;
use crate::exit::ExitStatus;
use crate::output::table::Tone;
use crate::output::{Cell, Column, Out};
use crate::Error;

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

/// What a turn shows in one column of the table.
type CellOf = fn(&Turn) -> Cell;

/// The table after its `file` column: each column, and the cell a turn gives it.
const TABLE: [(Column, CellOf); 9] = [
    (Column::right("#"), |t| Cell::num(t.index)),
    (Column::left("status"), |t| {
        Cell::status(t.status.as_str(), t.inherited).tone(tone(t.status))
    }),
    (Column::left("started"), |t| {
        Cell::time(t.started_at.as_deref())
    }),
    (Column::right("duration"), |t| Cell::duration(t.duration_ms)),
    (Column::left("model"), |t| Cell::opt(t.model.as_deref())),
    (Column::left("effort"), |t| Cell::opt(t.effort.as_deref())),
    (Column::right("calls"), |t| Cell::num(t.tool_calls)),
    (Column::right("tokens"), |t| {
        Cell::num(t.tokens.total_tokens)
    }),
    (Column::left("user message"), |t| {
        match t.user_message.as_deref() {
            Some(m) => Cell::cut(m, 56),
            None => Cell::opt(None::<&str>),
        }
    }),
];

pub fn run(args: &TurnsArgs) -> Result<ExitStatus, Error> {
    let mut cx = Context::new(&args.input, &args.output)?;
    let statuses: Vec<TurnStatus> = args
        .status
        .iter()
        .map(|s| TurnStatus::from_name(s).expect("clap checks --status"))
        .collect();
    let many = cx.sources.len() > 1;
    let columns = Column::with_file(many, TABLE.map(|(column, _)| column));
    let mut out = Out::new(cx.format, cx.color, columns);
    let (mut shown, mut calls, mut tokens) = (0u64, 0u64, Tokens::default());
    cx.each_file(&Needs::default().turns(Detail::Full), |_, r| {
        let Some(turns) = r.turns.as_ref() else {
            return Ok(());
        };
        let path = r.source.display();
        for t in &turns.turns {
            if !statuses.is_empty() && !statuses.contains(&t.status) {
                continue;
            }
            shown += 1;
            calls += t.tool_calls;
            tokens += t.tokens;
            let row = Row {
                path: &path,
                session_id: r.session.session_id.as_deref(),
                thread_id: r.session.thread_id.as_deref(),
                turn: t,
            };
            out.row(&row, || {
                let file = many.then(|| Cell::path(&path, 28));
                let cells = TABLE.iter().map(|(_, cell)| cell(t));
                file.into_iter().chain(cells).collect()
            })?;
        }
        Ok(())
    })?;
    let mut footer = Vec::new();
    if many {
        footer.push(Cell::text(""));
    }
    footer.extend([
        Cell::text(""),
        Cell::text(&format!(
            "{shown} turn{}",
            if shown == 1 { "" } else { "s" }
        )),
        Cell::text(""),
        Cell::text(""),
        Cell::text(""),
        Cell::text(""),
        Cell::num(calls),
        Cell::num(tokens.total_tokens),
        Cell::text(""),
    ]);
    if shown > 0 {
        out.footer(footer);
    }
    let rows = out.rows();
    out.finish()?;
    cx.say_if_empty(rows, "turns");
    Ok(cx.status)
}
