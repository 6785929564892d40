//! `rollscope calls`: glue from args to the calls reducer and the row schema in
//! `docs/calls.md`.

use std::borrow::Cow;
use std::io;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::Value;

use crate::cli::{CallStatusArg, CallsArgs};
use crate::cmd::turns::{duration_cell, time_cell};
use crate::cmd::RunError;
use crate::cmd::{Context, UsageError};
use crate::exit::ExitStatus;
use crate::output::table::Tone;
use crate::output::{Cell, Column, Out};
use crate::reduce::calls::{is_canonical_json_string, Call, CallStatus, CallsReducer, Text};
use crate::reduce::session::SessionInfo;
use crate::reduce::{drive, FileReport, SourceFile};

/// Write one row (`docs/calls.md`: the file's identity, then the call) as compact JSON, as
/// serde_json would write it; texts held in the file are copied from it.
fn write_row(
    buf: &mut Vec<u8>,
    path: &str,
    session: &SessionInfo,
    c: &Call,
    file: Option<&SourceFile>,
) -> io::Result<()> {
    fn key(buf: &mut Vec<u8>, k: &str) {
        buf.push(if buf.is_empty() { b'{' } else { b',' });
        buf.push(b'"');
        buf.extend_from_slice(k.as_bytes());
        buf.extend_from_slice(b"\":");
    }
    fn string(buf: &mut Vec<u8>, k: &str, v: Option<&str>) {
        key(buf, k);
        match v {
            // Writing to a Vec cannot fail.
            Some(v) => serde_json::to_writer(&mut *buf, v).unwrap_or(()),
            None => buf.extend_from_slice(b"null"),
        }
    }
    fn number(buf: &mut Vec<u8>, k: &str, v: Option<impl ToString>) {
        key(buf, k);
        match v {
            Some(v) => buf.extend_from_slice(v.to_string().as_bytes()),
            None => buf.extend_from_slice(b"null"),
        }
    }
    fn text(
        buf: &mut Vec<u8>,
        k: &str,
        v: Option<&Text>,
        file: Option<&SourceFile>,
    ) -> io::Result<()> {
        match v {
            Some(Text::InFile { offset, len }) => {
                key(buf, k);
                let from = buf.len();
                read_text(file, *offset, *len, buf)?;
                if !is_canonical_json_string(&buf[from..]) {
                    return Err(changed());
                }
                Ok(())
            }
            v => {
                string(buf, k, v.and_then(Text::owned));
                Ok(())
            }
        }
    }
    buf.clear();
    string(buf, "path", Some(path));
    string(buf, "session_id", session.session_id.as_deref());
    string(buf, "thread_id", session.thread_id.as_deref());
    number(buf, "turn_index", c.turn_index);
    string(buf, "turn_id", c.turn_id.as_deref());
    string(buf, "call_id", c.call_id.as_deref());
    string(buf, "kind", Some(&c.kind));
    string(buf, "name", c.name.as_deref());
    string(buf, "namespace", c.namespace.as_deref());
    string(buf, "status", Some(c.status.as_str()));
    number(buf, "call_line", c.call_line);
    number(buf, "output_line", c.output_line);
    string(buf, "called_at", c.called_at.as_deref());
    string(buf, "answered_at", c.answered_at.as_deref());
    number(buf, "duration_ms", c.duration_ms);
    number(buf, "exit_code", c.exit_code);
    text(buf, "arguments", c.arguments.as_ref(), file)?;
    text(buf, "output", c.output.as_ref(), file)?;
    key(buf, "inherited");
    buf.extend_from_slice(if c.inherited { b"true}" } else { b"false}" });
    Ok(())
}

/// Append the JSON string at `offset` of the file.
fn read_text(
    file: Option<&SourceFile>,
    offset: u64,
    len: usize,
    buf: &mut Vec<u8>,
) -> io::Result<()> {
    let file = file.ok_or_else(|| io::Error::other("text of a file that is no longer open"))?;
    file.read_at(offset, len, buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => changed(),
        _ => e,
    })
}

fn changed() -> io::Error {
    io::Error::other("the file changed while it was read (a text is no longer where it was)")
}

/// A row's text, for the table.
fn text_of<'a>(t: Option<&'a Text>, file: Option<&SourceFile>) -> io::Result<Option<Cow<'a, str>>> {
    match t {
        None => Ok(None),
        Some(Text::Owned(s)) => Ok(Some(Cow::Borrowed(s))),
        Some(Text::InFile { offset, len }) => {
            let mut buf = Vec::with_capacity(*len);
            read_text(file, *offset, *len, &mut buf)?;
            if !is_canonical_json_string(&buf) {
                return Err(changed());
            }
            let s: String = serde_json::from_slice(&buf).map_err(|_| changed())?;
            Ok(Some(Cow::Owned(s)))
        }
    }
}

/// The row filters.
struct Filter {
    names: Option<GlobSet>,
    statuses: Vec<CallStatus>,
    kinds: Vec<&'static str>,
}

impl Filter {
    fn new(args: &CallsArgs) -> Result<Filter, UsageError> {
        let names = if args.name.is_empty() {
            None
        } else {
            let mut b = GlobSetBuilder::new();
            for g in &args.name {
                let glob = Glob::new(g).map_err(|e| UsageError(format!("--name {g}: {e}")))?;
                b.add(glob);
            }
            Some(b.build().map_err(|e| UsageError(format!("--name: {e}")))?)
        };
        let statuses = args
            .status
            .iter()
            .map(|s| match s {
                CallStatusArg::Ok => CallStatus::Ok,
                CallStatusArg::Error => CallStatus::Error,
                CallStatusArg::Unknown => CallStatus::Unknown,
                CallStatusArg::Orphan => CallStatus::Orphan,
            })
            .collect();
        let kinds = args.kind.iter().map(|k| k.type_name()).collect();
        Ok(Filter {
            names,
            statuses,
            kinds,
        })
    }

    fn keeps(&self, c: &Call) -> bool {
        if !self.statuses.is_empty() && !self.statuses.contains(&c.status) {
            return false;
        }
        if !self.kinds.is_empty() && !self.kinds.contains(&c.kind.as_str()) {
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

/// The command line of a shell call's JSON arguments (`cmd` or `command`, a string or an
/// argv whose last element is the script), else the arguments as written.
fn brief_arguments(args: &str) -> String {
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(args) else {
        return args.to_string();
    };
    match o.get("cmd").or_else(|| o.get("command")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(argv)) => {
            let parts: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
            match parts.as_slice() {
                [_, flag, script] if flag.starts_with('-') => script.to_string(),
                _ => parts.join(" "),
            }
        }
        _ => args.to_string(),
    }
}

/// The part of a shell output after its header (0.36 JSON `output`, or after `Output:`).
fn brief_output(text: &str) -> &str {
    if let Some(i) = text.find("\nOutput:\n") {
        return &text[i + "\nOutput:\n".len()..];
    }
    text
}

fn columns(many_files: bool) -> Vec<Column> {
    let mut c = Vec::new();
    if many_files {
        c.push(Column::left("file"));
    }
    c.extend([
        Column::right("turn"),
        Column::right("line"),
        Column::left("status"),
        Column::left("name"),
        Column::right("exit"),
        Column::right("duration"),
        Column::left("called"),
        Column::left("arguments"),
        Column::left("output"),
    ]);
    c
}

fn cells(
    path: &str,
    many: bool,
    c: &Call,
    arguments: Option<&str>,
    output: Option<&str>,
) -> Vec<Cell> {
    let mut v = Vec::new();
    if many {
        v.push(Cell::path(path, 28));
    }
    let status = if c.inherited {
        format!("{} (inherited)", c.status.as_str())
    } else {
        c.status.as_str().to_string()
    };
    let name = match (qualified(c), c.name.as_deref()) {
        (Some(q), _) => Cell::cut(&q, 36),
        (None, Some(n)) => Cell::cut(n, 36),
        (None, None) => Cell::cut(&c.kind, 36).tone(Tone::Dim),
    };
    let output = output.map(|o| {
        let shown = match serde_json::from_str::<Value>(o.trim_start()) {
            Ok(Value::Object(obj)) => match obj.get("output").and_then(Value::as_str) {
                Some(inner) => inner.to_string(),
                None => o.to_string(),
            },
            _ => brief_output(o).to_string(),
        };
        Cell::cut(&shown, 40)
    });
    v.extend([
        Cell::opt(c.turn_index),
        Cell::opt(c.call_line.or(c.output_line)),
        Cell::text(&status).tone(tone(c.status)),
        name,
        match c.exit_code {
            Some(0) => Cell::text("0"),
            Some(code) => Cell::text(&code.to_string()).tone(Tone::Bad),
            None => Cell::opt(None::<&str>),
        },
        duration_cell(c.duration_ms),
        time_cell(c.called_at.as_deref().or(c.answered_at.as_deref())),
        match arguments {
            Some(a) => Cell::cut(&brief_arguments(a), 40),
            None => Cell::opt(None::<&str>),
        },
        output.unwrap_or_else(|| Cell::opt(None::<&str>)),
    ]);
    v
}

pub fn run(args: &CallsArgs) -> Result<ExitStatus, RunError> {
    let filter = Filter::new(args)?;
    let mut cx = Context::new(&args.input, &args.output)?;
    let many = cx.sources.len() > 1;
    let mut out = Out::new(cx.format, cx.color, columns(many));
    let mut counts = [0u64; 4];
    let mut json = Vec::new();
    let sources = std::mem::take(&mut cx.sources);
    drive(
        &sources,
        &cx.read.clone(),
        |_| CallsReducer::new(),
        |r: FileReport<Vec<Call>>| {
            if !cx.report(&r) {
                return Ok(());
            }
            let Some(calls) = r.output.as_ref() else {
                return Ok(());
            };
            let path = r.source.display();
            let file = r.file.as_ref();
            for c in calls.iter().filter(|c| filter.keeps(c)) {
                // Texts held in the file are read first: failing that ends this file's
                // rows (an error of its own), while a failing stdout ends the run.
                let texts = if out.is_table() {
                    text_of(c.arguments.as_ref(), file)
                        .and_then(|a| Ok(Some((a, text_of(c.output.as_ref(), file)?))))
                } else {
                    write_row(&mut json, &path, &r.session, c, file).map(|()| None)
                };
                let texts = match texts {
                    Ok(t) => t,
                    Err(e) => {
                        let cause = format!("read error: {}", crate::input::io_cause(&e));
                        cx.diag.error(&path, &cause);
                        cx.status = cx.status.merge(ExitStatus::Error);
                        break;
                    }
                };
                counts[c.status as usize] += 1;
                match texts {
                    Some((a, o)) => {
                        out.row_json(b"", || cells(&path, many, c, a.as_deref(), o.as_deref()))?
                    }
                    None => out.row_json(&json, Vec::new)?,
                }
            }
            Ok(())
        },
    )?;
    let total: u64 = counts.iter().sum();
    if total > 0 {
        let [ok, error, unknown, orphan] = counts;
        let mut footer = Vec::new();
        if many {
            footer.push(Cell::text(""));
        }
        footer.extend([Cell::text(""), Cell::text("")]);
        footer.push(Cell::text(&format!(
            "{total} row{}",
            if total == 1 { "" } else { "s" }
        )));
        footer.extend((0..5).map(|_| Cell::text("")));
        footer.push(Cell::text(&format!(
            "{ok} ok, {error} error, {unknown} unknown, {orphan} orphan"
        )));
        out.footer(footer);
    }
    out.finish()?;
    Ok(cx.status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn briefs_for_the_table() {
        assert_eq!(
            brief_arguments(r#"{"command": ["bash", "-lc", "cat x"], "workdir": "/w"}"#),
            "cat x"
        );
        assert_eq!(brief_arguments(r#"{"cmd": "ls -la"}"#), "ls -la");
        assert_eq!(brief_arguments("*** Begin Patch"), "*** Begin Patch");
        assert_eq!(
            brief_output("Chunk ID: 1\nWall time: 0 seconds\nOutput:\nhello\n"),
            "hello\n"
        );
    }
}
