//! `rollscope calls`: glue from args to the call pairing and the row schema in
//! `docs/calls.md`.

use std::borrow::Cow;
use std::io;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Serialize;
use serde_json::Value;

use crate::analysis::calls::{command, Call, CallStatus, Encoding, Text};
use crate::analysis::session::SessionInfo;
use crate::analysis::Needs;
use crate::cli::CallsArgs;
use crate::cmd::Context;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::input::{io_cause, SourceFile};
use crate::output::json::{string_json, string_plain, JsonText};
use crate::output::table::Tone;
use crate::output::{counted, Cell, Column};
use crate::time::Zone;

/// One row (`docs/calls.md`): the file's identity, then the call.
#[derive(Serialize)]
struct Row<'a> {
    path: &'a str,
    session_id: Option<&'a str>,
    thread_id: Option<&'a str>,
    turn_index: Option<u64>,
    turn_id: Option<&'a str>,
    call_id: Option<&'a str>,
    kind: &'a str,
    name: Option<&'a str>,
    namespace: Option<&'a str>,
    status: CallStatus,
    call_line: Option<u64>,
    output_line: Option<u64>,
    called_at: Option<&'a str>,
    answered_at: Option<&'a str>,
    duration_ms: Option<u64>,
    exit_code: Option<i64>,
    arguments: Option<JsonText<'a>>,
    arguments_encoding: Option<Encoding>,
    output: Option<JsonText<'a>>,
    inherited: bool,
}

/// Buffers for the texts of a JSON row read back from their file.
#[derive(Default)]
struct TextBufs {
    arguments: Vec<u8>,
    output: Vec<u8>,
}

impl<'a> Row<'a> {
    /// The row of `c`; its texts held in `file` are read into `bufs`.
    fn new(
        path: &'a str,
        session: &'a SessionInfo,
        c: &'a Call,
        file: Option<&SourceFile>,
        bufs: &'a mut TextBufs,
    ) -> io::Result<Row<'a>> {
        Ok(Row {
            path,
            session_id: session.session_id.as_deref(),
            thread_id: session.thread_id.as_deref(),
            turn_index: c.turn_index,
            turn_id: c.turn_id.as_deref(),
            call_id: c.call_id.as_deref(),
            kind: &c.kind,
            name: c.name.as_deref(),
            namespace: c.namespace.as_deref(),
            status: c.status,
            call_line: c.call_line,
            output_line: c.output_line,
            called_at: c.called_at.as_deref(),
            answered_at: c.answered_at.as_deref(),
            duration_ms: c.duration_ms,
            exit_code: c.exit_code,
            arguments: text_json(c.arguments.as_ref(), file, &mut bufs.arguments)?,
            arguments_encoding: c.arguments_encoding,
            output: text_json(c.output.as_ref(), file, &mut bufs.output)?,
            inherited: c.inherited,
        })
    }
}

/// A row's text for a JSON row; its JSON string in `file` is read into `buf`.
fn text_json<'a>(
    t: Option<&'a Text>,
    file: Option<&SourceFile>,
    buf: &'a mut Vec<u8>,
) -> io::Result<Option<JsonText<'a>>> {
    Ok(match t {
        None => None,
        Some(Text::Owned(s)) => Some(JsonText::Str(Cow::Borrowed(s))),
        Some(Text::Json(j)) => Some(string_json(j, file, buf)?),
    })
}

/// A row's text for a table.
fn text_plain<'a>(
    t: Option<&'a Text>,
    file: Option<&SourceFile>,
) -> io::Result<Option<Cow<'a, str>>> {
    Ok(match t {
        None => None,
        Some(Text::Owned(s)) => Some(Cow::Borrowed(s)),
        Some(Text::Json(j)) => Some(string_plain(j, file)?),
    })
}

/// The row filters.
struct Filter {
    names: Option<GlobSet>,
    statuses: Vec<CallStatus>,
    kinds: Vec<String>,
}

impl Filter {
    fn new(args: &CallsArgs) -> Result<Filter, Error> {
        let names = if args.name.is_empty() {
            None
        } else {
            let mut b = GlobSetBuilder::new();
            for g in &args.name {
                let glob = Glob::new(g).map_err(|e| Error::Usage(format!("--name {g}: {e}")))?;
                b.add(glob);
            }
            Some(
                b.build()
                    .map_err(|e| Error::Usage(format!("--name: {e}")))?,
            )
        };
        // clap takes only these names; the library's callers may not.
        let statuses = args
            .status
            .iter()
            .map(|s| {
                CallStatus::from_name(s)
                    .ok_or_else(|| Error::Usage(format!("--status: no status `{s}`")))
            })
            .collect::<Result<_, _>>()?;
        Ok(Filter {
            names,
            statuses,
            kinds: args.kind.clone(),
        })
    }

    fn keeps(&self, c: &Call) -> bool {
        if !self.statuses.is_empty() && !self.statuses.contains(&c.status) {
            return false;
        }
        if !self.kinds.is_empty() && !self.kinds.contains(&c.kind) {
            return false;
        }
        match &self.names {
            None => true,
            Some(set) => {
                let Some(name) = c.name.as_deref() else {
                    return false;
                };
                set.is_match(name) || qualified(c).is_some_and(|q| set.is_match(q))
            }
        }
    }
}

/// `NAMESPACE__NAME` for a namespaced call: the flat name older Codex versions gave MCP
/// tools (`mcp__weather__lookup_weather`).
fn qualified(c: &Call) -> Option<String> {
    Some(format!(
        "{}__{}",
        c.namespace.as_deref()?,
        c.name.as_deref()?
    ))
}

fn tone(s: CallStatus) -> Tone {
    match s {
        CallStatus::Ok => Tone::Good,
        CallStatus::Error | CallStatus::Orphan => Tone::Bad,
        CallStatus::Unknown => Tone::Warn,
    }
}

/// The part of a shell output after its header (0.36 JSON `output`, or after `Output:`).
fn brief_output(text: &str) -> &str {
    if let Some(i) = text.find("\nOutput:\n") {
        return &text[i + "\nOutput:\n".len()..];
    }
    text
}

/// A call as its table row shows it: the call, and its texts as read.
struct Shown<'a> {
    call: &'a Call,
    arguments: Option<&'a str>,
    output: Option<&'a str>,
    zone: Zone,
}

/// What a call shows in one column of the table.
type CellOf = fn(&Shown<'_>) -> Cell;

/// The table after its file's columns: each column, and the cell a call gives it. On a
/// narrow terminal it keeps what it is read for, the command and its exit code, before the
/// name and status; the times and output go first.
const TABLE: [(Column, CellOf); 11] = [
    (Column::right("turn_index").rank(4), |s| {
        Cell::opt(s.call.turn_index)
    }),
    // An orphan output has no call line: its own line stands in.
    (Column::right("line").field("call_line").rank(5), |s| {
        Cell::opt(s.call.call_line.or(s.call.output_line))
    }),
    (Column::left("status").text().rank(6), |s| {
        Cell::status(s.call.status.as_str(), s.call.inherited).tone(tone(s.call.status))
    }),
    (Column::left("name").text().rank(6), |s| {
        let c = s.call;
        match (qualified(c), c.name.as_deref()) {
            (Some(q), _) => Cell::text(&q),
            (None, Some(n)) => Cell::text(n),
            (None, None) => Cell::text(&c.kind).tone(Tone::Dim),
        }
    }),
    (Column::right("exit_code").rank(7), |s| {
        match s.call.exit_code {
            Some(0) => Cell::text("0"),
            Some(code) => Cell::text(&code.to_string()).tone(Tone::Bad),
            None => Cell::opt(None::<&str>),
        }
    }),
    (
        Column::right("duration").field("duration_ms").rank(3),
        |s| Cell::duration(s.call.duration_ms),
    ),
    // An orphan output has no call time: its answer's stands in.
    (Column::left("called_at").clock().rank(1), |s| {
        let at = s.call.called_at.as_deref();
        Cell::time(at.or(s.call.answered_at.as_deref()), s.zone, true)
    }),
    (Column::left("arguments").text().rank(8), |s| {
        match s.arguments {
            Some(a) => Cell::text(&command(a)),
            None => Cell::opt(None::<&str>),
        }
    }),
    (Column::left("output").text().rank(2), |s| match s.output {
        Some(o) => Cell::text(&shown_output(o)),
        None => Cell::opt(None::<&str>),
    }),
    (Column::left("call_id").hidden(), |s| {
        Cell::opt(s.call.call_id.as_deref())
    }),
    (Column::left("kind").hidden(), |s| Cell::text(&s.call.kind)),
];

/// The table's columns: the file's, then the call's.
pub fn columns(many_files: bool) -> Vec<Column> {
    Column::after_file(many_files, TABLE.map(|(column, _)| column))
}

/// An output as the table shows it: a JSON object's `output` string, else the text after
/// its header.
fn shown_output(o: &str) -> String {
    match serde_json::from_str::<Value>(o.trim_start()) {
        Ok(Value::Object(obj)) => match obj.get("output").and_then(Value::as_str) {
            Some(inner) => inner.to_string(),
            None => o.to_string(),
        },
        _ => brief_output(o).to_string(),
    }
}

pub fn run(args: &CallsArgs) -> Result<ExitStatus, Error> {
    let filter = Filter::new(args)?;
    let mut cx = Context::new(&args.input, &args.output)?;
    let many = cx.sources.len() > 1;
    let mut out = cx.out(columns(many))?;
    let zone = cx.zone;
    let mut counts = [0u64; CallStatus::ALL.len()];
    let mut bufs = TextBufs::default();
    let table = out.is_table();
    cx.each_file(&Needs::default().calls(), &mut out, |cx, out, r| {
        let Some(calls) = r.calls.as_ref() else {
            return Ok(());
        };
        let path = r.source.display();
        let file_cells = cx.file_cells(&r.source, &r.session);
        let file = r.file.as_ref();
        for c in calls.iter().filter(|c| filter.keeps(c)) {
            // Texts held in the file are read first: failing that ends this file's rows (an
            // error of its own), while a failing stdout ends the run.
            if table {
                let texts = text_plain(c.arguments.as_ref(), file)
                    .and_then(|a| Ok((a, text_plain(c.output.as_ref(), file)?)));
                let (a, o) = match texts {
                    Ok(t) => t,
                    Err(e) => {
                        cx.error(&path, &format!("read error: {}", io_cause(&e)));
                        break;
                    }
                };
                #[allow(
                    clippy::indexing_slicing,
                    reason = "a status's discriminant is below the number of statuses, `counts`' length"
                )]
                {
                    counts[c.status as usize] += 1;
                }
                let shown = Shown {
                    call: c,
                    arguments: a.as_deref(),
                    output: o.as_deref(),
                    zone,
                };
                out.row(&(), || {
                    let cells = TABLE.iter().map(|(_, cell)| cell(&shown));
                    file_cells.iter().cloned().chain(cells).collect()
                })?;
            } else {
                let row = match Row::new(&path, &r.session, c, file, &mut bufs) {
                    Ok(row) => row,
                    Err(e) => {
                        cx.error(&path, &format!("read error: {}", io_cause(&e)));
                        break;
                    }
                };
                #[allow(
                    clippy::indexing_slicing,
                    reason = "a status's discriminant is below the number of statuses, `counts`' length"
                )]
                {
                    counts[c.status as usize] += 1;
                }
                out.row(&row, Vec::new)?;
            }
        }
        Ok(())
    })?;
    let total: u64 = counts.iter().sum();
    if total > 0 {
        let [ok, error, unknown, orphan] = counts;
        out.caption(&format!(
            "{}: {ok} ok, {error} error, {unknown} unknown, {orphan} orphan",
            counted(total, "row")
        ));
    }
    let rows = out.rows();
    out.finish()?;
    cx.say_if_empty(rows, "tool calls");
    Ok(cx.status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn briefs_for_the_table() {
        assert_eq!(
            brief_output("Chunk ID: 1\nWall time: 0 seconds\nOutput:\nhello\n"),
            "hello\n"
        );
    }
}
