//! What a Codex client shows when it resumes a thread: the app-server's turns and items, as
//! the corpus' oracles record them (`oracle/ui_resume.json`; `docs/replay.md`, the UI view).
//!
//! Items come from events, never from `response_item`s: `item_completed` in paginated
//! files, the legacy events (`user_message`, `agent_message`, `agent_reasoning`,
//! `patch_apply_end`, …) in legacy ones, so nothing is counted twice. Only the file's own
//! records are shown (a paginated fork's or revert's inherited turns are not: the real
//! app-server does not show them either); a rolled-back turn is hidden.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::analysis::turns::{TurnStatus, Turns};
use crate::decode::{select, Kind, Members, Record};
use crate::model::ToolOutcome;

/// One item a client is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct UiItem {
    pub line: u64,
    /// The app-server's item type (`userMessage`, `agentMessage`, `reasoning`, ...).
    pub kind: String,
    /// Its compact text, as the oracles compare it: a message's text, a reasoning summary, a
    /// command, changed paths one a line, a search query; `None` when it has none.
    pub text: Option<String>,
    /// The kind's other fields worth showing (exit code, status, paths...).
    pub fields: Map<String, Value>,
    /// A command's output, when the log was asked to keep outputs (a transcript shows
    /// them; the rows do not).
    pub output: Option<String>,
    /// The turn id an `item_completed` names.
    turn_id: Option<String>,
}

/// A shown item with its turn.
#[derive(Debug, Clone, PartialEq)]
pub struct UiRow {
    pub turn_index: Option<u64>,
    pub turn_id: Option<String>,
    pub turn_status: Option<TurnStatus>,
    pub item: UiItem,
}

/// Collects the items of one file.
#[derive(Debug, Default)]
pub struct UiLog {
    items: Vec<UiItem>,
    /// The last item shown is a legacy reasoning item still open to more summary parts.
    reasoning_open: bool,
    /// Keep commands' outputs ([`UiItem::output`]).
    outputs: bool,
}

impl UiLog {
    /// A log that keeps commands' outputs (`outputs`), or not.
    pub fn new(outputs: bool) -> UiLog {
        UiLog {
            outputs,
            ..UiLog::default()
        }
    }

    /// One record of the file. `paginated` and `cli_version` are the session's.
    pub fn record(&mut self, rec: &Record<'_>, paginated: bool, cli_version: Option<&str>) {
        let v = super::cli_version(cli_version);
        let item = match (rec.kind, paginated) {
            (Kind::EventMsg, true) if rec.payload_type() == Some("item_completed") => {
                completed(rec, self.outputs)
            }
            (Kind::EventMsg, false) => legacy_event(rec, v, self.outputs),
            // A compaction shows from 0.110 on (0.80 shows none); paginated files have
            // their own `ContextCompaction` item.
            (Kind::Compacted, false) if v.is_some_and(|v| v >= (0, 110)) => Some(UiItem {
                line: 0,
                kind: "contextCompaction".into(),
                text: None,
                fields: Map::new(),
                output: None,
                turn_id: None,
            }),
            _ => None,
        };
        // A turn start closes a legacy reasoning item.
        if rec.kind == Kind::EventMsg
            && matches!(rec.payload_type(), Some("task_started" | "user_message"))
        {
            self.reasoning_open = false;
        }
        let Some(mut item) = item else {
            return;
        };
        item.line = rec.pos.line;
        let reasoning = !paginated && item.kind == "reasoning";
        if reasoning && self.reasoning_open {
            // Consecutive legacy reasoning events are one item to a client, their summary
            // parts joined by newlines (the real app-server, 0.80 to 0.147).
            if let (Some(last), Some(more)) = (self.items.last_mut(), item.text) {
                let text = last.text.get_or_insert_with(String::new);
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&more);
            }
            return;
        }
        self.reasoning_open = reasoning;
        self.items.push(item);
    }

    /// The rows, in file order, each in its turn; rolled-back turns hidden. A turn without
    /// an id is named as the app-server names it (`turn-N`).
    pub fn finish(self, turns: Option<&Turns>) -> Vec<UiRow> {
        let mut rows = Vec::with_capacity(self.items.len());
        // Turn ids to turns, once (the first turn of an id, as a scan in order finds it).
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for (i, t) in turns.iter().flat_map(|t| t.turns.iter().enumerate()) {
            if let Some(id) = t.turn_id.as_deref() {
                by_id.entry(id).or_insert(i);
            }
        }
        for item in self.items {
            let turn = turns.and_then(|t| {
                let named = item.turn_id.as_deref().and_then(|id| by_id.get(id));
                named
                    .copied()
                    .or_else(|| t.turn_of(item.line))
                    .and_then(|i| t.turns.get(i))
            });
            if turn.is_some_and(|t| t.status == TurnStatus::RolledBack) {
                continue;
            }
            let turn_id = turn
                .map(|t| {
                    t.turn_id
                        .clone()
                        .unwrap_or_else(|| format!("turn-{}", t.index))
                })
                .or_else(|| item.turn_id.clone());
            rows.push(UiRow {
                turn_index: turn.map(|t| t.index),
                turn_id,
                turn_status: turn.map(|t| t.status),
                item,
            });
        }
        rows
    }
}

fn str_of(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The `text` parts of a content array, joined by newlines.
fn content_text(v: Option<&Value>) -> Option<String> {
    let parts: Vec<&str> = v?
        .as_array()?
        .iter()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// Strings of an array joined by newlines; `None` when empty.
fn lines_of(v: Option<&Value>) -> Option<String> {
    let parts: Vec<&str> = v?.as_array()?.iter().filter_map(Value::as_str).collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// A command as the app-server shows it: the argv joined and shell-quoted.
fn command_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Array(args) => Some(
            args.iter()
                .map(|a| quote(a.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

/// POSIX shell quoting: a word of safe characters as it is, else in single quotes.
fn quote(arg: &str) -> String {
    let safe = !arg.is_empty()
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if safe {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// The changed paths of a `changes` map, sorted, one a line.
fn paths_of(v: Option<&Value>) -> (Option<String>, Value) {
    let mut paths: Vec<&str> = v
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    paths.sort_unstable();
    let list = Value::from(paths.clone());
    ((!paths.is_empty()).then(|| paths.join("\n")), list)
}

fn ui(kind: &str, text: Option<String>, fields: Map<String, Value>) -> UiItem {
    UiItem {
        line: 0,
        kind: kind.into(),
        text,
        fields,
        output: None,
        turn_id: None,
    }
}

/// The members of an `item_completed` item a client's row is made of. Only these are
/// parsed: a command's whole output (`aggregated_output`) is built only for a log that
/// keeps outputs.
const ITEM_KEYS: [&str; 12] = [
    "type",
    "content",
    "summary_text",
    "command",
    "status",
    "exit_code",
    "duration",
    "changes",
    "query",
    "server",
    "tool",
    "aggregated_output",
];

/// An `item_completed` event's item.
fn completed(rec: &Record<'_>, outputs: bool) -> Option<UiItem> {
    let raw = rec.payload_field("item")?;
    let f = select::fields(raw, ITEM_KEYS)?;
    // `k` is a literal index of `ITEM_KEYS`.
    let field = |k: usize| f.get(k).copied().flatten();
    let value = |k: usize| field(k).and_then(|r| serde_json::from_str::<Value>(r).ok());
    let string = |k: usize| field(k).and_then(select::str_value).map(|s| s.into_owned());
    let type_ = string(0)?;
    let mut fields = Map::new();
    let (kind, text) = match type_.as_str() {
        "UserMessage" => ("userMessage", content_text(value(1).as_ref())),
        "AgentMessage" => ("agentMessage", content_text(value(1).as_ref())),
        "Reasoning" => ("reasoning", lines_of(value(2).as_ref())),
        "CommandExecution" => {
            outcome_fields(raw, &mut fields);
            ("commandExecution", command_text(value(3).as_ref()))
        }
        "FileChange" => {
            // The changed paths are the keys; the changes themselves are not parsed.
            let mut paths: Vec<String> = Vec::new();
            if let Some(changes) = f[7] {
                let walked = select::members(changes, |k, _| {
                    paths.push(k.to_string());
                    true
                });
                if walked.is_none() {
                    // An escaped key: serde resolves it.
                    let m: Map<String, Value> = serde_json::from_str(changes).unwrap_or_default();
                    paths = m.keys().cloned().collect();
                }
            }
            paths.sort_unstable();
            paths.dedup();
            fields.insert("paths".into(), Value::from(paths.clone()));
            if let Some(s) = value(4) {
                fields.insert("status".into(), s);
            }
            ("fileChange", (!paths.is_empty()).then(|| paths.join("\n")))
        }
        "WebSearch" => ("webSearch", string(8)),
        "McpToolCall" => {
            let (server, tool) = (
                string(9).unwrap_or_default(),
                string(10).unwrap_or_default(),
            );
            ("mcpToolCall", Some(format!("{server}/{tool}")))
        }
        "ContextCompaction" => ("contextCompaction", None),
        other => {
            // A newer item type: its name as the app-server spells it (camelCase).
            let mut k = other.to_string();
            if let Some(first) = k.get_mut(..1) {
                first.make_ascii_lowercase();
            }
            let mut it = ui(&k, None, fields);
            it.turn_id = turn_id(rec);
            return Some(it);
        }
    };
    let mut it = ui(kind, text, fields);
    it.turn_id = turn_id(rec);
    if outputs && kind == "commandExecution" {
        it.output = string(11);
    }
    Some(it)
}

/// A tool outcome's `status`, `exit_code` and `duration_ms`, read as `calls` reads them
/// (a `{secs, nanos}` duration in whole milliseconds); each only where the file has it.
fn outcome_fields<'a>(members: impl Members<'a> + Copy, fields: &mut Map<String, Value>) {
    let Some(o) = ToolOutcome::read_fast(members) else {
        return;
    };
    if let Some(s) = &o.status {
        fields.insert("status".into(), Value::from(s.as_ref()));
    }
    if let Some(c) = o.exit_code {
        fields.insert("exit_code".into(), Value::from(c));
    }
    if let Some(ms) = o.duration_ms() {
        fields.insert("duration_ms".into(), Value::from(ms));
    }
}

fn turn_id(rec: &Record<'_>) -> Option<String> {
    rec.payload_field("turn_id")
        .and_then(select::str_value)
        .map(|s| s.into_owned())
}

/// A legacy event that a client shows as an item.
fn legacy_event(rec: &Record<'_>, v: Option<(u64, u64)>, outputs: bool) -> Option<UiItem> {
    let t = rec.payload_type()?;
    if !matches!(
        t,
        "user_message"
            | "agent_message"
            | "agent_reasoning"
            | "patch_apply_end"
            | "exec_command_end"
            | "web_search_end"
            | "mcp_tool_call_end"
    ) {
        return None;
    }
    let p: Value = rec.parse_payload().ok()?;
    let mut fields = Map::new();
    Some(match t {
        "user_message" => ui("userMessage", str_of(&p, "message"), fields),
        "agent_message" => ui("agentMessage", str_of(&p, "message"), fields),
        "agent_reasoning" => ui("reasoning", str_of(&p, "text"), fields),
        // File edits show from 0.140 on.
        "patch_apply_end" if v.is_none_or(|v| v >= (0, 140)) => {
            let (text, paths) = paths_of(p.get("changes"));
            fields.insert("paths".into(), paths);
            if let Some(s) = p.get("success") {
                fields.insert("success".into(), s.clone());
            }
            ui("fileChange", text, fields)
        }
        "exec_command_end" => {
            outcome_fields(rec, &mut fields);
            let mut it = ui("commandExecution", command_text(p.get("command")), fields);
            if outputs {
                it.output = exec_output(&p);
            }
            it
        }
        "web_search_end" => ui("webSearch", str_of(&p, "query"), fields),
        "mcp_tool_call_end" => {
            let inv = p.get("invocation");
            let server = inv.and_then(|i| str_of(i, "server")).unwrap_or_default();
            let tool = inv.and_then(|i| str_of(i, "tool")).unwrap_or_default();
            ui("mcpToolCall", Some(format!("{server}/{tool}")), fields)
        }
        _ => return None,
    })
}

/// What a legacy `exec_command_end` says the command printed: its aggregated output, else
/// its formatted output, else its stdout and stderr.
fn exec_output(p: &Value) -> Option<String> {
    for key in ["aggregated_output", "formatted_output"] {
        if let Some(s) = str_of(p, key) {
            return Some(s);
        }
    }
    let parts: Vec<String> = ["stdout", "stderr"]
        .iter()
        .filter_map(|k| str_of(p, k))
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_shell_quoted_as_the_app_server_shows_them() {
        let argv = serde_json::json!(["/bin/bash", "-lc", "ls -la"]);
        assert_eq!(command_text(Some(&argv)).unwrap(), "/bin/bash -lc 'ls -la'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
