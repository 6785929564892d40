//! Tool calls, their outputs, and what proves their outcomes.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::lenient::{lenient_bool, lenient_opt_i64, lenient_opt_u64, lenient_str, raw_str};
use crate::decode::{raw_value, Members, Record};

/// A tool call's response item type. [`CallType::answer`] is the call↔output table: which
/// output type answers which call type, for every reader that pairs them (`calls`, the
/// replay's prompt, `--view history`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallType {
    Function,
    Custom,
    LocalShell,
    ToolSearch,
    WebSearch,
    ImageGeneration,
}

impl CallType {
    /// Every call type, in the order `--kind` lists them.
    pub const ALL: [CallType; 6] = [
        CallType::Function,
        CallType::Custom,
        CallType::LocalShell,
        CallType::ToolSearch,
        CallType::WebSearch,
        CallType::ImageGeneration,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            CallType::Function => "function_call",
            CallType::Custom => "custom_tool_call",
            CallType::LocalShell => "local_shell_call",
            CallType::ToolSearch => "tool_search_call",
            CallType::WebSearch => "web_search_call",
            CallType::ImageGeneration => "image_generation_call",
        }
    }

    /// The output type that answers a call of this type (Codex's `ensure_call_outputs_present`
    /// and `remove_orphan_outputs`: a `local_shell_call` is answered by a
    /// `function_call_output`); `None` for a call that carries its own outcome (`status`),
    /// which no output answers.
    pub const fn answer(self) -> Option<OutputType> {
        match self {
            CallType::Function | CallType::LocalShell => Some(OutputType::Function),
            CallType::Custom => Some(OutputType::Custom),
            CallType::ToolSearch => Some(OutputType::ToolSearch),
            CallType::WebSearch | CallType::ImageGeneration => None,
        }
    }

    /// The call type named `t`.
    pub fn of(t: &str) -> Option<CallType> {
        CallType::ALL.into_iter().find(|c| c.name() == t)
    }
}

/// A tool output's response item type: the answer to the call types that name it
/// ([`CallType::answer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputType {
    Function,
    Custom,
    ToolSearch,
}

impl OutputType {
    pub const ALL: [OutputType; 3] = [
        OutputType::Function,
        OutputType::Custom,
        OutputType::ToolSearch,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            OutputType::Function => "function_call_output",
            OutputType::Custom => "custom_tool_call_output",
            OutputType::ToolSearch => "tool_search_output",
        }
    }

    /// The prefix of the id of the output Codex makes for a call that has none (its
    /// `synthetic_output_id`).
    pub const fn synthetic_id_prefix(self) -> &'static str {
        match self {
            OutputType::Function => "fco",
            OutputType::Custom => "ctco",
            OutputType::ToolSearch => "tso",
        }
    }

    /// The output type named `t`.
    pub fn of(t: &str) -> Option<OutputType> {
        OutputType::ALL.into_iter().find(|o| o.name() == t)
    }
}

/// Response item types that are tool calls ([`CallType`]'s names).
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time, in bounds"
)]
pub const CALL_TYPES: &[&str] = &{
    let mut names = [""; CallType::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = CallType::ALL[i].name();
        i += 1;
    }
    names
};

/// Response item types that are tool outputs ([`OutputType`]'s names).
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time, in bounds"
)]
pub const OUTPUT_TYPES: &[&str] = &{
    let mut names = [""; OutputType::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = OutputType::ALL[i].name();
        i += 1;
    }
    names
};

pub fn is_call_type(t: &str) -> bool {
    CALL_TYPES.contains(&t)
}

pub fn is_output_type(t: &str) -> bool {
    OUTPUT_TYPES.contains(&t)
}

/// The call type named `t` when an output answers it (not one that carries its own outcome).
pub fn answered_call_type(t: &str) -> Option<CallType> {
    CallType::of(t).filter(|c| c.answer().is_some())
}

/// The output type that answers a call of type `t`; `None` when `t` is no call type or one
/// that carries its own outcome.
pub fn answer_of(t: &str) -> Option<OutputType> {
    CallType::of(t)?.answer()
}

/// A `response_item` tool call or tool output (the fields `calls` reads). JSON-valued
/// fields stay raw so that `arguments` and `output` are reported exactly.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolItem<'a> {
    #[serde(borrow, rename = "type", deserialize_with = "lenient_str")]
    pub type_: Option<Cow<'a, str>>,
    /// The pairing key between a call and its output.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub call_id: Option<Cow<'a, str>>,
    /// The item's own identity (never a pairing key).
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub name: Option<Cow<'a, str>>,
    /// 0.171: deferred tools (MCP behind `tool_search`, sub-agent tools) name their namespace.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub namespace: Option<Cow<'a, str>>,
    /// `function_call.arguments` (a JSON string), `tool_search_call.arguments` (an object).
    #[serde(borrow)]
    pub arguments: Option<&'a RawValue>,
    /// `custom_tool_call.input`.
    #[serde(borrow)]
    pub input: Option<&'a RawValue>,
    /// `local_shell_call.action`, `web_search_call.action`.
    #[serde(borrow)]
    pub action: Option<&'a RawValue>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub status: Option<Cow<'a, str>>,
    /// Outputs: a string, an array of content parts, or (some writers) `{content, success}`.
    #[serde(borrow)]
    pub output: Option<&'a RawValue>,
    /// `tool_search_output.tools`.
    #[serde(borrow)]
    pub tools: Option<&'a RawValue>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub revised_prompt: Option<Cow<'a, str>>,
}

impl<'a> ToolItem<'a> {
    /// Read a payload already checked as a JSON object (a decoded record's), as serde
    /// would, in one pass that skips the values it does not need instead of parsing them.
    /// `None` where it is not sure to agree with serde (an escaped key, a repeated field,
    /// anything unexpected): ask serde then.
    pub fn read_fast(payload: impl Members<'a>) -> Option<ToolItem<'a>> {
        let mut item = ToolItem::default();
        let mut seen = 0u16;
        payload.members(|key, value| {
            let slot = match key {
                "type" => 0,
                "call_id" => 1,
                "id" => 2,
                "name" => 3,
                "namespace" => 4,
                "arguments" => 5,
                "input" => 6,
                "action" => 7,
                "status" => 8,
                "output" => 9,
                "tools" => 10,
                "revised_prompt" => 11,
                _ => return true,
            };
            if seen & (1 << slot) != 0 {
                // serde rejects the repeat; `parse_payload` then keeps the last.
                return false;
            }
            seen |= 1 << slot;
            let raw = (value != "null").then(|| raw_value(value));
            let text = || raw.and_then(raw_str);
            match slot {
                0 => item.type_ = text(),
                1 => item.call_id = text(),
                2 => item.id = text(),
                3 => item.name = text(),
                4 => item.namespace = text(),
                5 => item.arguments = raw,
                6 => item.input = raw,
                7 => item.action = raw,
                8 => item.status = text(),
                9 => item.output = raw,
                10 => item.tools = raw,
                _ => item.revised_prompt = text(),
            }
            true
        })?;
        Some(item)
    }
}

/// The text of a tool output and, when the writer recorded one, its `success` flag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputText {
    pub text: String,
    pub success: Option<bool>,
}

/// Read a tool output: a string as is; an array's text parts joined by newlines; an object
/// `{content, success}` by its content; anything else as its JSON.
pub fn output_text(raw: &RawValue) -> OutputText {
    if let Some(s) = raw_str(raw) {
        return OutputText {
            text: s.into_owned(),
            success: None,
        };
    }
    let Ok(v) = serde_json::from_str::<Value>(raw.get()) else {
        return OutputText {
            text: raw.get().to_string(),
            success: None,
        };
    };
    value_output_text(&v)
}

fn value_output_text(v: &Value) -> OutputText {
    match v {
        Value::String(s) => OutputText {
            text: s.clone(),
            success: None,
        },
        Value::Array(parts) => OutputText {
            text: parts
                .iter()
                .filter_map(|p| match p {
                    Value::String(s) => Some(s.as_str()),
                    _ => p.get("text").and_then(Value::as_str),
                })
                .collect::<Vec<_>>()
                .join("\n"),
            success: None,
        },
        Value::Object(o) if o.contains_key("content") => {
            let mut t = o.get("content").map(value_output_text).unwrap_or_default();
            t.success = o.get("success").and_then(Value::as_bool);
            t
        }
        other => OutputText {
            text: other.to_string(),
            success: None,
        },
    }
}

/// Read one field's raw value with the function serde would use for it.
macro_rules! with_serde {
    ($value:expr, $f:ident) => {
        $f(&mut serde_json::Deserializer::from_str($value)).ok()
    };
}

/// What proves a tool's outcome: an `item_completed` item (`CommandExecution`, `FileChange`,
/// `McpToolCall`, `DynamicToolCall`, ...) or a legacy `exec_command_end`, `patch_apply_end`,
/// `mcp_tool_call_end` event. One lenient view for all of them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolOutcome<'a> {
    #[serde(borrow, rename = "type", deserialize_with = "lenient_str")]
    pub type_: Option<Cow<'a, str>>,
    /// Items: the item id, which is the call's `call_id` for tool items.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub id: Option<Cow<'a, str>>,
    /// Events: the call they end.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub call_id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub status: Option<Cow<'a, str>>,
    #[serde(deserialize_with = "lenient_opt_i64")]
    pub exit_code: Option<i64>,
    /// `{secs, nanos}`.
    #[serde(borrow)]
    pub duration: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub duration_ms: Option<u64>,
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
    /// MCP: a `CallToolResult` (item) or `{"Ok": CallToolResult} | {"Err": string}` (event).
    #[serde(borrow)]
    pub result: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_bool")]
    pub success: Option<bool>,
    /// `UserMessage` / `AgentMessage` items: their content parts.
    #[serde(borrow)]
    pub content: Option<&'a RawValue>,
}

impl<'a> ToolOutcome<'a> {
    /// [`ToolItem::read_fast`] for this view: what serde reads, or `None` to ask serde.
    pub fn read_fast(payload: impl Members<'a>) -> Option<ToolOutcome<'a>> {
        let mut v = ToolOutcome::default();
        let mut seen = 0u16;
        payload.members(|key, value| {
            let slot = match key {
                "type" => 0,
                "id" => 1,
                "call_id" => 2,
                "status" => 3,
                "exit_code" => 4,
                "duration" => 5,
                "duration_ms" => 6,
                "error" => 7,
                "result" => 8,
                "success" => 9,
                "content" => 10,
                _ => return true,
            };
            if seen & (1 << slot) != 0 {
                return false;
            }
            seen |= 1 << slot;
            let raw = (value != "null").then(|| raw_value(value));
            let ok = match slot {
                0 => with_serde!(value, lenient_str).map(|x| v.type_ = x),
                1 => with_serde!(value, lenient_str).map(|x| v.id = x),
                2 => with_serde!(value, lenient_str).map(|x| v.call_id = x),
                3 => with_serde!(value, lenient_str).map(|x| v.status = x),
                4 => with_serde!(value, lenient_opt_i64).map(|x| v.exit_code = x),
                5 => {
                    v.duration = raw;
                    Some(())
                }
                6 => with_serde!(value, lenient_opt_u64).map(|x| v.duration_ms = x),
                7 => {
                    v.error = raw;
                    Some(())
                }
                8 => {
                    v.result = raw;
                    Some(())
                }
                9 => with_serde!(value, lenient_bool).map(|x| v.success = x),
                _ => {
                    v.content = raw;
                    Some(())
                }
            };
            ok.is_some()
        })?;
        Some(v)
    }

    /// `duration` (`{secs, nanos}`) or `duration_ms`, in whole milliseconds (rounded).
    pub fn duration_ms(&self) -> Option<u64> {
        if let Some(ms) = self.duration_ms {
            return Some(ms);
        }
        #[derive(Deserialize)]
        struct SecsNanos {
            #[serde(default, deserialize_with = "lenient_opt_u64")]
            secs: Option<u64>,
            #[serde(default, deserialize_with = "lenient_opt_u64")]
            nanos: Option<u64>,
        }
        let d: SecsNanos = serde_json::from_str(self.duration?.get()).ok()?;
        let secs = d.secs?;
        let nanos = d.nanos.unwrap_or(0);
        Some(
            secs.saturating_mul(1000)
                .saturating_add((nanos.saturating_add(500_000)) / 1_000_000),
        )
    }

    /// `error` is set (not null).
    pub fn has_error(&self) -> bool {
        self.error.is_some_and(|e| e.get() != "null")
    }

    /// The MCP result says the tool failed: `isError: true`, or an `Err` result.
    pub fn mcp_failed(&self) -> bool {
        let Some(r) = self.result else { return false };
        let Ok(v) = serde_json::from_str::<Value>(r.get()) else {
            return false;
        };
        if v.get("Err").is_some() {
            return true;
        }
        let res = v.get("Ok").unwrap_or(&v);
        res.get("isError").and_then(Value::as_bool) == Some(true)
            || res.get("is_error").and_then(Value::as_bool) == Some(true)
    }

    /// The text parts of `content` (`UserMessage`/`AgentMessage`), joined by newlines.
    pub fn content_text(&self) -> Option<String> {
        let t = output_text(self.content?);
        (!t.text.is_empty()).then_some(t.text)
    }
}

/// `event_msg/item_completed` (paginated history, 0.171+).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ItemCompleted<'a> {
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub turn_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub item: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub started_at_ms: Option<u64>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub completed_at_ms: Option<u64>,
}

impl<'a> ItemCompleted<'a> {
    /// The completed item, when it is an object.
    pub fn item(&self) -> Option<ToolOutcome<'a>> {
        let item = self.item?.get();
        ToolOutcome::read_fast(item).or_else(|| serde_json::from_str(item).ok())
    }

    /// [`ToolItem::read_fast`] for this view: what serde reads, or `None` to ask serde.
    pub fn read_fast(payload: impl Members<'a>) -> Option<ItemCompleted<'a>> {
        let mut v = ItemCompleted::default();
        let mut seen = 0u8;
        payload.members(|key, value| {
            let slot = match key {
                "turn_id" => 0,
                "item" => 1,
                "started_at_ms" => 2,
                "completed_at_ms" => 3,
                _ => return true,
            };
            if seen & (1 << slot) != 0 {
                return false;
            }
            seen |= 1 << slot;
            // Each field on its own: one a `Value` cannot hold (a number beyond f64) is
            // absent, and does not take the item with it (as `turns` reads the item).
            match slot {
                0 => v.turn_id = with_serde!(value, lenient_str).flatten(),
                1 => v.item = (value != "null").then(|| raw_value(value)),
                2 => v.started_at_ms = with_serde!(value, lenient_opt_u64).flatten(),
                _ => v.completed_at_ms = with_serde!(value, lenient_opt_u64).flatten(),
            }
            true
        })?;
        Some(v)
    }
}

/// A server-side `tool_search_output` (`"execution": "server"`): `Some(call_id)`; `None`
/// for anything else.
pub fn server_search_output(rec: &Record<'_>) -> Option<Option<String>> {
    if rec.payload_type() != Some("tool_search_output") {
        return None;
    }
    #[derive(Deserialize)]
    struct Search<'a> {
        #[serde(borrow)]
        execution: Option<&'a RawValue>,
        #[serde(borrow)]
        call_id: Option<&'a RawValue>,
    }
    let s: Search<'_> = rec.parse_payload().ok()?;
    if s.execution.and_then(raw_str).as_deref() != Some("server") {
        return None;
    }
    Some(s.call_id.and_then(raw_str).map(|c| c.into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ToolItem::read_fast` reads what serde reads, or declines.
    fn fast_agrees(payload: &str) -> bool {
        let line = format!(r#"{{"timestamp":"t","type":"response_item","payload":{payload}}}"#);
        let rec = crate::decode::decode_line(line.as_bytes(), Default::default()).unwrap();
        let slow: ToolItem<'_> = rec.parse_payload().unwrap_or_default();
        // The members the scanner noted, and the payload walked as text: the same reading.
        let walked = ToolItem::read_fast(rec.payload.get()).map(|t| format!("{t:?}"));
        match ToolItem::read_fast(&rec) {
            Some(fast) => {
                assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{payload}");
                assert_eq!(
                    walked.as_deref(),
                    Some(format!("{fast:?}").as_str()),
                    "{payload}"
                );
                true
            }
            None => {
                assert_eq!(walked, None, "{payload}");
                false
            }
        }
    }

    #[test]
    fn the_fast_tool_item_reader_agrees_with_serde_or_declines() {
        // Read in one pass: every shape of value, white space, nesting, escapes in values.
        for p in [
            r#"{"type":"function_call","name":"shell","arguments":"{\"a\":\"\\\"}\"}","call_id":"c"}"#,
            r#"{ "type" : "function_call_output" , "call_id" : "c" , "output" : [ {"type":"input_text","text":"a]}\"["} ] }"#,
            r#"{"type":"local_shell_call","action":{"command":["a","}"],"n":[1,{"x":[]}]},"status":null,"id":5}"#,
            r#"{"type":"x","call_id":null,"name":true,"namespace":-1.5e3,"output":{"content":"c","success":false}}"#,
            r#"{"type":"function_call","extra":{"call_id":"nested, not ours"},"extra":1,"call_id":"top"}"#,
            r#"{}"#,
        ] {
            assert!(fast_agrees(p), "declined {p}");
        }
        // The outcome views too, numbers and flags read leniently as serde reads them.
        for p in [
            r#"{"type":"exec_command_end","call_id":"c","exit_code":"7","duration":{"secs":1,"nanos":2},"aggregated_output":"x\"}","success":"yes"}"#,
            r#"{"type":"CommandExecution","id":"c","exit_code":-2.0,"duration_ms":null,"error":null,"result":{"Ok":{}}}"#,
        ] {
            let fast = ToolOutcome::read_fast(p).unwrap();
            let slow: ToolOutcome<'_> = serde_json::from_str(p).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        }
        let p = r#"{"type":"item_completed","turn_id":5,"item":{"type":"CommandExecution","id":"c","status":"completed"},"started_at_ms":"3","completed_at_ms":9}"#;
        let fast = ItemCompleted::read_fast(p).unwrap();
        let slow: ItemCompleted<'_> = serde_json::from_str(p).unwrap();
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        assert_eq!(format!("{:?}", fast.item()), format!("{:?}", slow.item()));
        assert!(ToolOutcome::read_fast(r#"{"id":"a","id":"b"}"#).is_none());
        // Declined, left to serde: a key with an escape, a field of ours repeated.
        for p in [
            r#"{"type":"function_call","call\u005fid":"c"}"#,
            r#"{"type":"function_call","call_id":"a","call_id":"b"}"#,
        ] {
            assert!(!fast_agrees(p), "read {p}");
        }
    }

    #[test]
    fn the_fast_readers_agree_with_serde_on_every_testdata_payload() {
        let mut n = 0;
        for p in crate::testkit::jsonl_files("") {
            for line in std::fs::read(&p).unwrap().split(|&b| b == b'\n') {
                let Ok(rec) = crate::decode::decode_line(line, Default::default()) else {
                    continue;
                };
                let payload = rec.payload.get();
                // Read from the members the scanner noted or from the payload's text: the same.
                let both = |a: Option<String>, b: Option<String>| assert_eq!(a, b, "{payload}");
                let dbg = |x: &dyn std::fmt::Debug| format!("{x:?}");
                both(
                    ToolItem::read_fast(&rec).map(|x| dbg(&x)),
                    ToolItem::read_fast(payload).map(|x| dbg(&x)),
                );
                both(
                    ToolOutcome::read_fast(&rec).map(|x| dbg(&x)),
                    ToolOutcome::read_fast(payload).map(|x| dbg(&x)),
                );
                both(
                    ItemCompleted::read_fast(&rec).map(|x| dbg(&x)),
                    ItemCompleted::read_fast(payload).map(|x| dbg(&x)),
                );
                let slow: ToolItem<'_> = rec.parse_payload().unwrap_or_default();
                if let Some(fast) = ToolItem::read_fast(payload) {
                    assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{}", p.display());
                    n += 1;
                }
                let slow = rec.parse_payload::<ToolOutcome<'_>>().ok();
                if let Some(fast) = ToolOutcome::read_fast(payload) {
                    assert_eq!(format!("{:?}", Some(fast)), format!("{slow:?}"));
                }
                let slow = rec.parse_payload::<ItemCompleted<'_>>().ok();
                if let Some(fast) = ItemCompleted::read_fast(payload) {
                    let items = (
                        fast.item().map(|i| format!("{i:?}")),
                        slow.as_ref()
                            .and_then(|s| s.item())
                            .map(|i| format!("{i:?}")),
                    );
                    assert_eq!(items.0, items.1);
                    assert_eq!(format!("{:?}", Some(fast)), format!("{slow:?}"));
                }
            }
        }
        assert!(n > 1000, "only {n} payloads read");
    }

    #[test]
    fn the_call_output_table_pairs_as_codex_does() {
        // `--kind` lists these, in this order.
        assert_eq!(
            CALL_TYPES,
            [
                "function_call",
                "custom_tool_call",
                "local_shell_call",
                "tool_search_call",
                "web_search_call",
                "image_generation_call"
            ]
        );
        assert_eq!(
            OUTPUT_TYPES,
            [
                "function_call_output",
                "custom_tool_call_output",
                "tool_search_output"
            ]
        );
        let answers: Vec<(&str, Option<&str>)> = CallType::ALL
            .iter()
            .map(|c| (c.name(), c.answer().map(OutputType::name)))
            .collect();
        assert_eq!(
            answers,
            [
                ("function_call", Some("function_call_output")),
                ("custom_tool_call", Some("custom_tool_call_output")),
                ("local_shell_call", Some("function_call_output")),
                ("tool_search_call", Some("tool_search_output")),
                ("web_search_call", None),
                ("image_generation_call", None),
            ]
        );
        for c in CallType::ALL {
            assert_eq!(CallType::of(c.name()), Some(c));
            assert_eq!(answer_of(c.name()), c.answer());
            assert_eq!(answered_call_type(c.name()).is_some(), c.answer().is_some());
            assert!(is_call_type(c.name()) && !is_output_type(c.name()));
        }
        for o in OutputType::ALL {
            assert_eq!(OutputType::of(o.name()), Some(o));
            assert!(is_output_type(o.name()) && !is_call_type(o.name()));
        }
        for t in ["message", "reasoning", "", "function_call_outputs"] {
            assert_eq!((CallType::of(t), OutputType::of(t)), (None, None));
        }
    }

    #[test]
    fn output_text_reads_strings_arrays_and_content_objects() {
        let raw = |s: &str| -> Box<RawValue> { RawValue::from_string(s.to_string()).unwrap() };
        assert_eq!(output_text(&raw(r#""plain""#)).text, "plain");
        let parts = r#"[{"type":"input_text","text":"a"},{"type":"input_image"},{"type":"input_text","text":"b"}]"#;
        assert_eq!(output_text(&raw(parts)).text, "a\nb");
        let o = output_text(&raw(r#"{"content":"boom","success":false}"#));
        assert_eq!((o.text.as_str(), o.success), ("boom", Some(false)));
        assert_eq!(output_text(&raw("42")).text, "42");
    }

    #[test]
    fn tool_outcomes_read_durations_and_mcp_errors() {
        let o: ToolOutcome<'_> = serde_json::from_str(
            r#"{"duration":{"secs":1,"nanos":2500000},"result":{"Err":"gone"}}"#,
        )
        .unwrap();
        assert_eq!(o.duration_ms(), Some(1003));
        assert!(o.mcp_failed());
        let o: ToolOutcome<'_> =
            serde_json::from_str(r#"{"result":{"content":[],"isError":false},"error":null}"#)
                .unwrap();
        assert!(!o.mcp_failed());
        assert!(!o.has_error());
    }
}
