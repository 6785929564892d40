//! A replay as a transcript a person reads and shares: the turns in order, each with the
//! time of its first line and its status, and what happened in it (messages, reasoning
//! summaries, tool calls with their command and outcome, images and compactions noted).
//!
//! Made from either view: the history (what a resume sends the model: rolled-back turns
//! are gone from it, as Codex drops them) or the items a client shows (`--view ui`: the
//! app-server hides a rolled-back turn, so does [`super::ui`]). Facts only, the texts as the
//! rollout holds them: the Markdown, its escaping and its cuts are `output::markdown`'s.

use serde_json::Value;

use crate::analysis::calls::{command, output_body, parse_output_meta};
use crate::analysis::turns::{Turn, TurnStatus};
use crate::model::{answered_call_type, is_output_type};

use super::item::{At, Item, Origin};
use super::ui::UiRow;
use super::Replayed;

/// One file's transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// The file replayed, as its rows name it.
    pub path: String,
    pub thread_id: Option<String>,
    pub cli_version: Option<String>,
    /// The Codex version the file was read as.
    pub reading: String,
    /// What the transcript shows: what the model is sent, or what a client shows.
    pub view: View,
    pub sections: Vec<Section>,
    /// Why the replay could not be done (a cut naming no turn).
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    History,
    Ui,
}

/// A run of entries under one heading.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub heading: Heading,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Heading {
    /// A turn of the file: its number as `turns` prints it, the timestamp of its first line,
    /// its status.
    Turn {
        index: u64,
        started: Option<String>,
        status: Option<TurnStatus>,
    },
    /// What the history holds before the file's first turn (its instructions).
    Start,
    /// Items read from a lineage source (a fork's parent), before the file's own.
    Source { path: String },
    /// The history a compaction left, at this line of the file.
    Compacted { line: u64 },
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A message: its role (`user`, `assistant`, `developer`, ...), its text parts joined,
    /// and the images it holds.
    Message {
        role: String,
        text: String,
        images: Vec<Image>,
    },
    /// A reasoning item's summary (its encrypted content is never shown).
    Reasoning { summary: String },
    /// A tool call: its name, what it ran (a shell command, a patch, the arguments as
    /// written) and, once an output answers it, the outcome.
    Call {
        name: String,
        call_id: Option<String>,
        input: Input,
        outcome: Option<Outcome>,
    },
    /// An output whose call is not in the transcript before it.
    Output {
        call_id: Option<String>,
        outcome: Outcome,
    },
    /// Files a patch changed (the ui view's `fileChange`).
    Files { paths: Vec<String> },
    /// A web search and its query.
    Search { query: Option<String> },
    /// The context was compacted here.
    Compaction,
    /// An item of another kind, named by its type.
    Other { kind: String },
}

/// What a call ran.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A shell command line.
    Shell(String),
    /// An `apply_patch` text.
    Patch(String),
    /// Arguments, as written (JSON for function calls).
    Arguments(String),
    /// Nothing shown (a ui item names its tool only).
    None,
}

/// What an output says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outcome {
    pub exit_code: Option<i64>,
    pub duration_ms: Option<u64>,
    /// `completed`, `failed`, ... where the item says (ui items).
    pub status: Option<String>,
    /// The output's text without Codex's header (exit code, wall time), when it has one.
    pub text: Option<String>,
    pub images: Vec<Image>,
    /// Made by the prompt normalisation (`--for-prompt`), not read.
    pub synthetic: bool,
}

/// An image a message or output holds: never inlined, only noted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// `image/png`, for a data URL.
    pub mime: Option<String>,
    /// Decoded bytes, for a data URL.
    pub bytes: Option<u64>,
    /// It is a link to elsewhere (not inline data).
    pub remote: bool,
}

impl Transcript {
    fn new(r: &Replayed, view: View) -> Transcript {
        let s = &r.facts.session;
        Transcript {
            path: r.facts.source.display(),
            thread_id: s.thread_id.clone(),
            cli_version: s.cli_version.clone(),
            reading: r.reading.to_string(),
            view,
            sections: Vec::new(),
            error: r.error.clone(),
        }
    }

    /// The history view's transcript. `json` reads an item's text back (`None`: it could
    /// not be read, and the item is noted by its kind).
    pub fn of_history(r: &Replayed, mut json: impl FnMut(&Item) -> Option<String>) -> Transcript {
        let mut b = Builder::default();
        let turns = r.facts.turns.as_ref();
        for item in &r.items {
            let heading = heading_of(r, item, |line| {
                let turns = turns?;
                turns.turns.get(turns.turn_of(line)?)
            });
            // A synthetic item goes with the item before it.
            let entries = match heading {
                Some(h) => b.under(h),
                None => &mut b.open.entries,
            };
            let Some(text) = json(item) else {
                entries.push(Entry::Other {
                    kind: "unreadable".into(),
                });
                continue;
            };
            let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            push_item(entries, &v, item.origin == Origin::Synthetic);
        }
        b.finish(Transcript::new(r, View::History))
    }

    /// The ui view's transcript: the items a client shows, turn by turn.
    pub fn of_ui(r: &Replayed) -> Transcript {
        let mut b = Builder::default();
        let turns = r.facts.turns.as_ref();
        for row in &r.ui {
            let turn = row
                .turn_index
                .and_then(|i| turns?.turns.iter().find(|t| t.index == i));
            let heading = match row.turn_index {
                Some(index) => Heading::Turn {
                    index,
                    started: turn.and_then(|t| started(r, t)),
                    status: row.turn_status,
                },
                None => Heading::Start,
            };
            b.under(heading).push(ui_entry(row));
        }
        b.finish(Transcript::new(r, View::Ui))
    }
}

/// Sections as entries come: the open one, and those before it.
struct Builder {
    done: Vec<Section>,
    open: Section,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder {
            done: Vec::new(),
            open: Section {
                heading: Heading::Start,
                entries: Vec::new(),
            },
        }
    }
}

impl Builder {
    /// The entries go under `heading`: a new section when it differs from the open one.
    fn under(&mut self, heading: Heading) -> &mut Vec<Entry> {
        if self.open.heading != heading {
            let next = Section {
                heading,
                entries: Vec::new(),
            };
            let done = std::mem::replace(&mut self.open, next);
            if !done.entries.is_empty() {
                self.done.push(done);
            }
        }
        &mut self.open.entries
    }

    fn finish(mut self, mut t: Transcript) -> Transcript {
        if !self.open.entries.is_empty() {
            self.done.push(self.open);
        }
        t.sections = self.done;
        t
    }
}

/// Where an item of the history belongs; `None` for one read nowhere (synthetic).
fn heading_of<'t>(
    r: &Replayed,
    item: &Item,
    turn_of: impl Fn(u64) -> Option<&'t Turn>,
) -> Option<Heading> {
    let at = item.at?;
    Some(match item.origin {
        Origin::SourceRollout => Heading::Source {
            path: r.path_of(item).to_string(),
        },
        Origin::ReplacementHistory | Origin::CompactionRebuild => {
            Heading::Compacted { line: at.line }
        }
        Origin::Record | Origin::Synthetic => match turn_of(at.line) {
            Some(turn) => Heading::Turn {
                index: turn.index,
                started: started(r, turn),
                status: Some(turn.status),
            },
            None => Heading::Start,
        },
    })
}

/// The timestamp of a turn's first line: as the turn was read, else read back.
fn started(r: &Replayed, turn: &Turn) -> Option<String> {
    if let Some(ts) = turn.started_at.as_ref().filter(|t| !t.is_empty()) {
        return Some(ts.clone());
    }
    r.timestamp(&At {
        file: 0,
        line: turn.line_start,
        offset: turn.offset_start,
        ordinal: turn.ordinal_start,
    })
}

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

/// The text parts of a content array, joined by blank lines, and its images.
fn content(parts: Option<&Value>) -> (String, Vec<Image>) {
    let mut texts = Vec::new();
    let mut images = Vec::new();
    for p in parts.and_then(Value::as_array).into_iter().flatten() {
        if let Some(t) = str_of(p, "text") {
            texts.push(t);
        } else if let Some(url) = str_of(p, "image_url").or_else(|| str_of(p, "url")) {
            images.push(Image::of_url(url));
        }
    }
    (texts.join("\n\n"), images)
}

impl Image {
    /// The image a URL points at: for a data URL, its type and size.
    pub fn of_url(url: &str) -> Image {
        let Some(rest) = url.strip_prefix("data:") else {
            return Image {
                mime: None,
                bytes: None,
                remote: true,
            };
        };
        let (head, data) = rest.split_once(',').unwrap_or((rest, ""));
        let mime = head.split(';').next().filter(|m| !m.is_empty());
        let bytes = if head.ends_with(";base64") {
            let data = data.trim_end_matches('=');
            (data.len() as u64 * 3) / 4
        } else {
            data.len() as u64
        };
        Image {
            mime: mime.map(str::to_string),
            bytes: Some(bytes),
            remote: false,
        }
    }
}

/// A history item as entries: a call's output goes to its call when the call is in the
/// same section, before it.
fn push_item(entries: &mut Vec<Entry>, v: &Value, synthetic: bool) {
    let type_ = str_of(v, "type").unwrap_or_default();
    let call_id = str_of(v, "call_id").map(str::to_string);
    let entry = match type_ {
        "message" => {
            let (text, images) = content(v.get("content"));
            Entry::Message {
                role: str_of(v, "role").unwrap_or("unknown").to_string(),
                text,
                images,
            }
        }
        "reasoning" => {
            let (summary, _) = content(v.get("summary"));
            if summary.is_empty() {
                // Only encrypted reasoning: nothing a person can read.
                return;
            }
            Entry::Reasoning { summary }
        }
        "web_search_call" => Entry::Search {
            query: v
                .get("action")
                .and_then(|a| str_of(a, "query"))
                .map(str::to_string),
        },
        "compaction" | "compaction_summary" => Entry::Compaction,
        t if answered_call_type(t).is_some() => Entry::Call {
            name: str_of(v, "name")
                .map(str::to_string)
                .unwrap_or_else(|| t.to_string()),
            call_id,
            input: input_of(v),
            outcome: None,
        },
        t if is_output_type(t) => {
            let mut outcome = outcome_of(v);
            outcome.synthetic = synthetic;
            let call = entries.iter_mut().rev().find_map(|e| match e {
                Entry::Call {
                    call_id: Some(id),
                    outcome: o @ None,
                    ..
                } if Some(id.as_str()) == call_id.as_deref() => Some(o),
                _ => None,
            });
            match call {
                Some(slot) => {
                    *slot = Some(outcome);
                    return;
                }
                None => Entry::Output { call_id, outcome },
            }
        }
        other => Entry::Other {
            kind: other.to_string(),
        },
    };
    entries.push(entry);
}

/// What a history call ran.
fn input_of(v: &Value) -> Input {
    let raw = match v.get("arguments").or_else(|| v.get("input")) {
        Some(Value::String(a)) => a.clone(),
        Some(other) => other.to_string(),
        None => match v.get("action") {
            Some(a) => a.to_string(),
            None => return Input::None,
        },
    };
    if raw.trim_start().starts_with("*** Begin Patch") {
        return Input::Patch(raw);
    }
    if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(&raw) {
        if let Some(patch) = o.get("input").and_then(Value::as_str) {
            if patch.trim_start().starts_with("*** Begin Patch") {
                return Input::Patch(patch.to_string());
            }
        }
        if o.contains_key("cmd") || o.contains_key("command") {
            return Input::Shell(command(&raw));
        }
    }
    Input::Arguments(raw)
}

/// An output item's outcome: its text's header read as `calls` reads it, its text without
/// the header, the images of a content array; a tool search's status and the tools found.
fn outcome_of(v: &Value) -> Outcome {
    let output = v.get("output");
    let header = |text: String, images: Vec<Image>| {
        let meta = parse_output_meta(&text);
        Outcome {
            exit_code: meta.exit_code,
            duration_ms: meta.duration_ms,
            text: Some(output_body(&text).into_owned()),
            images,
            ..Outcome::default()
        }
    };
    match output {
        Some(Value::String(s)) => header(s.clone(), Vec::new()),
        // Text parts are one text (its header, `Output:`, in the first), the images noted.
        Some(Value::Array(parts)) => {
            let mut texts = Vec::new();
            let mut images = Vec::new();
            for p in parts {
                if let Some(t) = str_of(p, "text") {
                    texts.push(t);
                } else if let Some(url) = str_of(p, "image_url").or_else(|| str_of(p, "url")) {
                    images.push(Image::of_url(url));
                }
            }
            header(texts.join("\n"), images)
        }
        Some(Value::Object(o)) => {
            // `{content, success}` as some versions wrote it.
            let text = o
                .get("content")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| Value::Object(o.clone()).to_string());
            Outcome {
                text: Some(text),
                ..Outcome::default()
            }
        }
        Some(other) => Outcome {
            text: Some(other.to_string()),
            ..Outcome::default()
        },
        None => Outcome {
            status: str_of(v, "status").map(str::to_string),
            text: v
                .get("tools")
                .and_then(Value::as_array)
                .map(|t| tool_names(t)),
            ..Outcome::default()
        },
    }
}

/// The tools a tool search found, one a line; a namespace's as `namespace.tool`.
fn tool_names(tools: &[Value]) -> String {
    let mut names = Vec::new();
    for t in tools {
        let name = str_of(t, "name").unwrap_or("?");
        match t.get("tools").and_then(Value::as_array) {
            Some(inner) => names.extend(
                inner
                    .iter()
                    .map(|i| format!("{name}.{}", str_of(i, "name").unwrap_or("?"))),
            ),
            None => names.push(name.to_string()),
        }
    }
    names.join("\n")
}

/// A ui item as an entry.
fn ui_entry(row: &UiRow) -> Entry {
    let item = &row.item;
    let text = || item.text.clone().unwrap_or_default();
    let field_str = |k: &str| item.fields.get(k).and_then(Value::as_str);
    match item.kind.as_str() {
        "userMessage" | "agentMessage" => Entry::Message {
            role: if item.kind == "userMessage" {
                "user"
            } else {
                "assistant"
            }
            .into(),
            text: text(),
            images: Vec::new(),
        },
        "reasoning" => Entry::Reasoning { summary: text() },
        "commandExecution" => Entry::Call {
            name: "shell".into(),
            call_id: None,
            input: Input::Shell(text()),
            outcome: Some(Outcome {
                exit_code: item.fields.get("exit_code").and_then(Value::as_i64),
                duration_ms: item.fields.get("duration_ms").and_then(Value::as_u64),
                status: field_str("status").map(str::to_string),
                text: item.output.clone(),
                ..Outcome::default()
            }),
        },
        "fileChange" => Entry::Files {
            paths: item
                .fields
                .get("paths")
                .and_then(Value::as_array)
                .map(|p| {
                    p.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
        },
        "webSearch" => Entry::Search {
            query: item.text.clone(),
        },
        "mcpToolCall" => Entry::Call {
            name: text(),
            call_id: None,
            input: Input::None,
            outcome: None,
        },
        "contextCompaction" => Entry::Compaction,
        other => Entry::Other {
            kind: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_output_goes_to_its_call() {
        let mut entries = Vec::new();
        let call = json!({"type": "function_call", "name": "shell", "call_id": "c1",
            "arguments": "{\"command\":[\"bash\",\"-lc\",\"ls\"]}"});
        let out = json!({"type": "function_call_output", "call_id": "c1",
            "output": "Exit code: 2\nWall time: 1.5 seconds\nOutput:\nno such file\n"});
        push_item(&mut entries, &call, false);
        push_item(&mut entries, &out, false);
        let [Entry::Call {
            input,
            outcome: Some(o),
            ..
        }] = entries.as_slice()
        else {
            panic!("{entries:?}");
        };
        assert_eq!(input, &Input::Shell("ls".into()));
        assert_eq!((o.exit_code, o.duration_ms), (Some(2), Some(1500)));
        assert_eq!(o.text.as_deref(), Some("no such file\n"));
    }

    #[test]
    fn an_output_without_its_call_stands_alone() {
        let mut entries = Vec::new();
        let out = json!({"type": "function_call_output", "call_id": "c9", "output": "x"});
        push_item(&mut entries, &out, true);
        assert!(matches!(
            entries.as_slice(),
            [Entry::Output {
                outcome: Outcome {
                    synthetic: true,
                    ..
                },
                ..
            }]
        ));
    }

    #[test]
    fn images_are_noted_by_type_and_size() {
        let i = Image::of_url("data:image/png;base64,AAAAAAAA");
        assert_eq!(
            (i.mime.as_deref(), i.bytes, i.remote),
            (Some("image/png"), Some(6), false)
        );
        assert!(Image::of_url("https://example.com/a.png").remote);
    }
}
