//! `rollscope calls`: glue from args to the calls reducer and the row schema in
//! `docs/calls.md`.

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Serialize;
use serde_json::Value;

use crate::cli::{CallStatusArg, CallsArgs};
use crate::cmd::turns::{duration_cell, time_cell};
use crate::cmd::RunError;
use crate::cmd::{Context, UsageError};
use crate::exit::ExitStatus;
use crate::output::table::Tone;
use crate::output::{Cell, Column, Out};
use crate::reduce::calls::{Call, CallStatus, CallsReducer};
use crate::reduce::{drive, FileReport};

/// One call row: the file's identity, then the call.
#[derive(Serialize)]
struct Row<'a> {
    path: &'a str,
    session_id: Option<&'a str>,
    thread_id: Option<&'a str>,
    #[serde(flatten)]
    call: &'a Call,
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

fn cells(path: &str, many: bool, c: &Call) -> Vec<Cell> {
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
    let output = c.output.as_deref().map(|o| {
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
        match c.arguments.as_deref() {
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
            for c in calls.iter().filter(|c| filter.keeps(c)) {
                counts[c.status as usize] += 1;
                let row = Row {
                    path: &path,
                    session_id: r.session.session_id.as_deref(),
                    thread_id: r.session.thread_id.as_deref(),
                    call: c,
                };
                out.row(&row, || cells(&path, many, c))?;
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
