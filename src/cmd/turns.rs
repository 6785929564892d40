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

fn columns(many_files: bool) -> Vec<Column> {
    Column::with_file(
        many_files,
        [
            Column::right("#"),
            Column::left("status"),
            Column::left("started"),
            Column::right("duration"),
            Column::left("model"),
            Column::left("effort"),
            Column::right("calls"),
            Column::right("tokens"),
            Column::left("user message"),
        ],
    )
}

pub fn run(args: &TurnsArgs) -> Result<ExitStatus, Error> {
    let mut cx = Context::new(&args.input, &args.output)?;
    let statuses: Vec<TurnStatus> = args
        .status
        .iter()
        .map(|s| TurnStatus::from_name(s).expect("clap checks --status"))
        .collect();
    let many = cx.sources.len() > 1;
    let mut out = Out::new(cx.format, cx.color, columns(many));
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
                let mut c = Vec::new();
                if many {
                    c.push(Cell::path(&path, 28));
                }
                let status = if t.inherited {
                    format!("{} (inherited)", t.status.as_str())
                } else {
                    t.status.as_str().to_string()
                };
                c.extend([
                    Cell::num(t.index),
                    Cell::text(&status).tone(tone(t.status)),
                    Cell::time(t.started_at.as_deref()),
                    Cell::duration(t.duration_ms),
                    Cell::opt(t.model.as_deref()),
                    Cell::opt(t.effort.as_deref()),
                    Cell::num(t.tool_calls),
                    Cell::num(t.tokens.total_tokens),
                    match t.user_message.as_deref() {
                        Some(m) => Cell::cut(m, 56),
                        None => Cell::opt(None::<&str>),
                    },
                ]);
                c
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
    out.finish()?;
    Ok(cx.status)
}
