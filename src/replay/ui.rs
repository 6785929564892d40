//! What a Codex client shows when it resumes a thread: the app-server's turns and items
//! (`oracle/ui_resume.json`; `corpus-gen/README.md`, "What the app-server shows").
//!
//! Items come from events, never from `response_item`s: `item_completed` in paginated
//! files, the legacy events (`user_message`, `agent_message`, `agent_reasoning`,
//! `patch_apply_end`, …) in legacy ones, so nothing is counted twice. Only the file's own
//! records are shown (a paginated fork's or revert's inherited turns are not: the real
//! app-server does not show them either); a rolled-back turn is hidden.

use serde_json::{Map, Value};

use crate::analysis::turns::{TurnStatus, Turns};
use crate::decode::{Kind, Record};

/// One item a client is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct UiItem {
    pub line: u64,
    /// The app-server's item type (`userMessage`, `agentMessage`, `reasoning`, ...).
    pub kind: String,
    /// Its compact text (`corpus-gen/README.md`): a message's text, a reasoning summary, a
    /// command, changed paths one a line, a search query; `None` when it has none.
    pub text: Option<String>,
    /// The kind's other fields worth showing (exit code, status, paths...).
    pub fields: Map<String, Value>,
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
}

/// `major.minor` of a `cli_version`, when it reads as one.
fn version(v: Option<&str>) -> Option<(u64, u64)> {
    let mut parts = v?.split('.').map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??))
}

impl UiLog {
    /// One record of the file. `paginated` and `cli_version` are the session's.
    pub fn record(&mut self, rec: &Record<'_>, paginated: bool, cli_version: Option<&str>) {
        let v = version(cli_version);
        let item = match (rec.kind, paginated) {
            (Kind::EventMsg, true) if rec.payload_type() == Some("item_completed") => {
                completed(rec)
            }
            (Kind::EventMsg, false) => legacy_event(rec, v),
            // A compaction shows from 0.110 on (0.80 shows none); paginated files have
            // their own `ContextCompaction` item.
            (Kind::Compacted, false) if v.is_some_and(|v| v >= (0, 110)) => Some(UiItem {
                line: 0,
                kind: "contextCompaction".into(),
                text: None,
                fields: Map::new(),
                turn_id: None,
            }),
            _ => None,
        };
        if let Some(mut item) = item {
            item.line = rec.pos.line;
            self.items.push(item);
        }
    }

    /// The rows, in file order, each in its turn; rolled-back turns hidden. A turn without
    /// an id is named as the app-server names it (`turn-N`).
    pub fn finish(self, turns: Option<&Turns>) -> Vec<UiRow> {
        let mut rows = Vec::with_capacity(self.items.len());
        for item in self.items {
            let turn = turns.and_then(|t| {
                let by_id = item
                    .turn_id
                    .as_deref()
                    .and_then(|id| t.turns.iter().find(|x| x.turn_id.as_deref() == Some(id)));
                by_id.or_else(|| t.turn_of(item.line).map(|i| &t.turns[i]))
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
        turn_id: None,
    }
}

/// An `item_completed` event's item.
fn completed(rec: &Record<'_>) -> Option<UiItem> {
    let payload: Value = rec.parse_payload().ok()?;
    let item = payload.get("item")?;
    let type_ = item.get("type")?.as_str()?;
    let mut fields = Map::new();
    let (kind, text) = match type_ {
        "UserMessage" => ("userMessage", content_text(item.get("content"))),
        "AgentMessage" => ("agentMessage", content_text(item.get("content"))),
        "Reasoning" => ("reasoning", lines_of(item.get("summary_text"))),
        "CommandExecution" => {
            for key in ["status", "exit_code", "duration_ms"] {
                if let Some(v) = item.get(key) {
                    fields.insert(key.into(), v.clone());
                }
            }
            ("commandExecution", command_text(item.get("command")))
        }
        "FileChange" => {
            let (text, paths) = paths_of(item.get("changes"));
            fields.insert("paths".into(), paths);
            if let Some(s) = item.get("status") {
                fields.insert("status".into(), s.clone());
            }
            ("fileChange", text)
        }
        "WebSearch" => ("webSearch", str_of(item, "query")),
        "McpToolCall" => {
            let server = str_of(item, "server").unwrap_or_default();
            let tool = str_of(item, "tool").unwrap_or_default();
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
            it.turn_id = str_of(&payload, "turn_id");
            return Some(it);
        }
    };
    let mut it = ui(kind, text, fields);
    it.turn_id = str_of(&payload, "turn_id");
    Some(it)
}

/// A legacy event that a client shows as an item.
fn legacy_event(rec: &Record<'_>, v: Option<(u64, u64)>) -> Option<UiItem> {
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
            for key in ["exit_code", "duration"] {
                if let Some(x) = p.get(key) {
                    fields.insert(key.into(), x.clone());
                }
            }
            ui("commandExecution", command_text(p.get("command")), fields)
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
