//! The record side of call pairing: calls, outputs and the evidence of their outcomes.

use std::collections::HashMap;

use serde_json::value::RawValue;

use crate::analysis::calls::outcome::{proof, Evidence, OutputFacts};
use crate::analysis::calls::{Encoding, Text};
use crate::analysis::session::SessionTracker;
use crate::analysis::Fold;
use crate::decode::{Kind, Record};
use crate::input::FileText;
use crate::model::{self, raw_text, ItemCompleted, ToolItem, ToolOutcome};

/// Texts shorter than this are held: reading them again would cost more than they weigh.
const IN_FILE_MIN: usize = 256;

#[derive(Debug)]
pub(super) struct CallItem {
    pub(super) line: u64,
    pub(super) timestamp: String,
    pub(super) kind: String,
    pub(super) call_id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) namespace: Option<String>,
    pub(super) arguments: Option<Text>,
    pub(super) arguments_encoding: Option<Encoding>,
    /// `apply_patch`, as a tool of its own or (0.36) run through the shell tool.
    pub(super) is_patch: bool,
    pub(super) own_status: Option<String>,
    pub(super) inherited: bool,
}

impl CallItem {
    /// Kinds that carry their own outcome instead of an output.
    pub(super) fn has_own_status(&self) -> bool {
        model::CallType::of(&self.kind).is_some_and(|c| c.answer().is_none())
    }
}

#[derive(Debug)]
pub(super) struct OutputItem {
    pub(super) line: u64,
    pub(super) timestamp: String,
    pub(super) kind: String,
    pub(super) call_id: Option<String>,
    pub(super) text: Text,
    /// The output object's `success` flag (some writers).
    pub(super) success: Option<bool>,
    /// What the text's head says.
    pub(super) facts: OutputFacts,
    /// A `tool_search_output` with `execution: "server"`.
    pub(super) server: bool,
    pub(super) inherited: bool,
}

/// The record side of call pairing: every call, output and piece of outcome evidence of a
/// file, kept until [`CallCollector::finish`] pairs them.
#[derive(Debug, Default)]
pub struct CallCollector {
    /// The input is a plain file that the output layer reads again: large texts are held
    /// as where they lie ([`FileText::InFile`]).
    in_file: bool,
    /// Some text is held as where it lies.
    points_into_file: bool,
    calls: Vec<CallItem>,
    outputs: Vec<OutputItem>,
    evidence: HashMap<String, Evidence>,
}

impl CallCollector {
    /// `in_file`: the input is a plain file that can be read again at its records' offsets.
    pub fn new(in_file: bool) -> CallCollector {
        CallCollector {
            in_file,
            ..CallCollector::default()
        }
    }

    /// Whether some text is held as where it lies in the file (which must then stay open).
    pub fn points_into_file(&self) -> bool {
        self.points_into_file
    }

    /// What was collected: calls, outputs, and the evidence per `call_id`.
    pub(super) fn into_parts(self) -> (Vec<CallItem>, Vec<OutputItem>, HashMap<String, Evidence>) {
        (self.calls, self.outputs, self.evidence)
    }

    fn response_item(&mut self, rec: &Record<'_>, t: &str, session: &SessionTracker) {
        let is_call = model::is_call_type(t);
        if !is_call && !model::is_output_type(t) {
            return;
        }
        let item: ToolItem<'_> =
            ToolItem::read_fast(rec).unwrap_or_else(|| rec.parse_payload().unwrap_or_default());
        let call_id = item.call_id.as_deref().map(str::to_string);
        if is_call {
            // The value the arguments come from, and whether a string of it holds JSON
            // (`arguments`, `action`) or is the text itself (a custom tool's `input`).
            let raw = match (item.arguments, item.input, item.action) {
                (Some(a), _, _) => Some((a, true)),
                (None, Some(i), _) => Some((i, false)),
                (None, None, a) => a.map(|a| (a, true)),
            };
            let name = item.name.as_deref().map(str::to_string);
            let (arguments, encoding, mentions_patch) = match raw {
                Some((r, holds_json)) => match self.string(rec, r) {
                    Some(text) => {
                        let json = holds_json && json_string_holds_json(r.get());
                        let encoding = if json { Encoding::Json } else { Encoding::Text };
                        let m = json_string_mentions(r.get(), "apply_patch");
                        (Some(text), Some(encoding), m)
                    }
                    // Any other value: its JSON.
                    None => {
                        let a = raw_text(r).into_owned();
                        let m = a.contains("apply_patch");
                        (Some(Text::Owned(a.into())), Some(Encoding::Json), m)
                    }
                },
                None => match item.revised_prompt.as_deref() {
                    Some(p) => (
                        Some(Text::Owned(p.into())),
                        Some(Encoding::Text),
                        p.contains("apply_patch"),
                    ),
                    None => (None, None, false),
                },
            };
            let is_patch = name.as_deref() == Some("apply_patch")
                || (matches!(t, "function_call" | "local_shell_call") && mentions_patch);
            self.calls.push(CallItem {
                line: rec.pos.line,
                timestamp: rec.timestamp.to_string(),
                kind: t.to_string(),
                call_id,
                name,
                namespace: item.namespace.as_deref().map(str::to_string),
                arguments,
                arguments_encoding: encoding,
                is_patch,
                own_status: item.status.as_deref().map(str::to_string),
                inherited: session.is_inherited(),
            });
        } else {
            let (text, success, facts) = match (item.output, item.tools) {
                (Some(o), _) => match self.string(rec, o) {
                    Some(text) => (text, None, OutputFacts::of_json_string(o.get())),
                    None => {
                        let o = model::output_text(o);
                        let facts = OutputFacts::of(&o.text);
                        (Text::Owned(o.text.into()), o.success, facts)
                    }
                },
                (None, tools) => {
                    let text = tools.map(|r| raw_text(r).into_owned()).unwrap_or_default();
                    let facts = OutputFacts::of(&text);
                    (Text::Owned(text.into()), None, facts)
                }
            };
            self.outputs.push(OutputItem {
                line: rec.pos.line,
                timestamp: rec.timestamp.to_string(),
                kind: t.to_string(),
                call_id,
                text,
                success,
                facts,
                server: model::server_search_output(rec).is_some(),
                inherited: session.is_inherited(),
            });
        }
    }

    /// A JSON string value of `rec` as a row's text: a large one of a plain file as where
    /// it lies in the file, any other held as written. `None` for a value that is no string.
    fn string(&mut self, rec: &Record<'_>, value: &RawValue) -> Option<Text> {
        let raw = value.get();
        if !raw.starts_with('"') {
            return None;
        }
        let text = FileText::of(rec, raw, self.in_file && raw.len() >= IN_FILE_MIN);
        self.points_into_file |= matches!(text, FileText::InFile { .. });
        Some(Text::Json(text))
    }

    fn event(&mut self, rec: &Record<'_>) {
        match rec.payload_type() {
            Some("item_completed") => {
                let Some(ic) = ItemCompleted::read_fast(rec)
                    .or_else(|| rec.parse_payload::<ItemCompleted<'_>>().ok())
                else {
                    return;
                };
                let Some(item) = ic.item() else { return };
                if matches!(
                    item.type_.as_deref(),
                    Some("UserMessage" | "AgentMessage" | "Reasoning" | "Plan")
                ) {
                    return;
                }
                let Some(id) = item.id.as_deref() else { return };
                let span = match (ic.started_at_ms, ic.completed_at_ms) {
                    (Some(s), Some(c)) => c.checked_sub(s),
                    _ => None,
                };
                let p = proof(rec, &item, span);
                self.evidence.entry(id.to_string()).or_default().item = Some(p);
            }
            Some(t @ ("exec_command_end" | "patch_apply_end" | "mcp_tool_call_end")) => {
                let Some(o) = ToolOutcome::read_fast(rec)
                    .or_else(|| rec.parse_payload::<ToolOutcome<'_>>().ok())
                else {
                    return;
                };
                let Some(id) = o.call_id.as_deref() else {
                    return;
                };
                let mut p = proof(rec, &o, None);
                // An end event is written when the tool finished.
                p.settled = true;
                let e = self.evidence.entry(id.to_string()).or_default();
                match t {
                    "exec_command_end" => e.exec_end = Some(p),
                    "patch_apply_end" => e.patch_end = Some(p),
                    _ => e.mcp_end = Some(p),
                }
            }
            _ => {}
        }
    }
}

impl Fold for CallCollector {
    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        match rec.kind {
            Kind::ResponseItem => {
                if let Some(t) = rec.payload_type() {
                    self.response_item(rec, t, session);
                }
            }
            Kind::EventMsg => self.event(rec),
            _ => {}
        }
    }
}

/// Does the text of `raw`, a JSON string of a decoded record, contain `word` (ASCII letters
/// and `_`)? Only a `\u` escape can spell such a character, so only a string holding one
/// needs its text.
fn json_string_mentions(raw: &str, word: &str) -> bool {
    if !raw.contains("\\u") {
        return raw.contains(word);
    }
    crate::decode::select::str_value(raw).is_some_and(|t| t.contains(word))
}

/// Is the text of `raw`, a JSON string of a decoded record, itself a JSON document (as
/// jq's `fromjson` or DuckDB's `json` read it)? A model's malformed arguments are not.
fn json_string_holds_json(raw: &str) -> bool {
    crate::decode::select::str_value(raw)
        .is_some_and(|t| serde_json::from_str::<serde::de::IgnoredAny>(&t).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_only_an_escape_spells_is_not_mentioned() {
        assert!(json_string_mentions(
            r#""apply_patch <<EOF""#,
            "apply_patch"
        ));
        assert!(json_string_mentions(
            r#""\u0001 apply_patch""#,
            "apply_patch"
        ));
        assert!(!json_string_mentions(
            r#""\u001apply_patch""#,
            "apply_patch"
        ));
        assert!(!json_string_mentions(r#""ls -la""#, "apply_patch"));
    }

    #[test]
    fn a_string_holds_json_when_its_text_parses() {
        for (raw, json) in [
            (r#""{\"cmd\":\"ls\"}""#, true),
            (r#"" [1, 2] ""#, true),
            // Only escapes spell the quotes: the text is what parses.
            (r#""{\u0022a\u0022:1}""#, true),
            (r#""{\"cmd\":\"ls\"""#, false),
            (r#""*** Begin Patch""#, false),
            (r#""""#, false),
            (r#""{} {}""#, false),
        ] {
            assert_eq!(json_string_holds_json(raw), json, "{raw}");
        }
    }
}
