//! `calls`: every tool call of one file, paired with its output, and what the file proves
//! about its outcome.
//!
//! Calls are the `response_item`s in [`model::CALL_TYPES`]; outputs those in
//! [`model::OUTPUT_TYPES`]. An output pairs with a call of the same `call_id` (never by
//! position, never by the item's own `id`) and of a matching kind (`function_call_output`
//! answers a `function_call` or `local_shell_call`, `custom_tool_call_output` a
//! `custom_tool_call`, `tool_search_output` a `tool_search_call`), the first such call not
//! yet answered. An output with no such call is an `orphan` row, except a server-side
//! `tool_search_output` (`execution: "server"`), which Codex's `remove_orphan_outputs`
//! keeps: it is a call row of its own (`ok`). A second output for an answered call is a
//! duplicate and is ignored (Codex keeps the first).
//!
//! **Outcome sources**, richest first: `event_msg/item_completed` (paginated files; its item
//! `id` is the `call_id`), `exec_command_end`, `patch_apply_end`, `mcp_tool_call_end`, then
//! the output text, whose format changed across Codex versions (checked against the real
//! corpus): a JSON string `{"output", "metadata": {"exit_code", "duration_seconds"}}` (0.36
//! shell, 0.128 `apply_patch`), `Exit code: N` / `Wall time: S seconds` (0.80 shell, 0.171
//! `apply_patch`), `Process exited with code N` / `Wall time: S seconds` (0.128+
//! `exec_command`). `exit_code` and `duration_ms` come from the first source that has them.
//!
//! **Status** (`docs/calls.md`): `error` when the tool ran and failed (a non-zero exit code;
//! a failed or declined item or end event; `patch_apply_end.success == false`; an MCP
//! `isError` or `Err`; an output saying `apply_patch verification failed: …`, or `error: …`
//! for an `apply_patch` (0.36)); else `ok` when an output or a settled item/end event exists
//! (an item proves the outcome even when the output line is missing: `output_line` is then
//! null); else `unknown`. An output saying `Process running with session ID N` (unified
//! exec, the command not finished) proves no outcome. `web_search_call` and `image_generation_call` carry their own
//! `status`: `completed` is `ok`, `failed` is `error`, anything else `unknown`.

use std::collections::{HashMap, HashSet, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::decode::{select, Kind, Record, StreamInfo};
use crate::model::{self, raw_text, ItemCompleted, ToolItem, ToolOutcome};
use crate::reduce::session::SessionTracker;
use crate::reduce::turns::{TurnLog, Turns};
use crate::reduce::Reducer;

/// What the file proves about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    Ok,
    Error,
    Unknown,
    Orphan,
}

impl CallStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::Ok => "ok",
            CallStatus::Error => "error",
            CallStatus::Unknown => "unknown",
            CallStatus::Orphan => "orphan",
        }
    }
}

/// A row's `arguments` or `output` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    /// The text itself.
    Owned(String),
    /// `len` bytes at `offset` of the file ([`FileReport::file`](crate::reduce::FileReport)):
    /// a JSON string, quotes included, escaped exactly as serde_json escapes its text
    /// ([`is_canonical_json_string`]), so these bytes are the row's field as written. Read
    /// again when the row is written: a file's large texts are not held until its end.
    InFile { offset: u64, len: usize },
}

impl Text {
    /// The text, when it is held.
    pub fn owned(&self) -> Option<&str> {
        match self {
            Text::Owned(s) => Some(s),
            Text::InFile { .. } => None,
        }
    }
}

/// Texts shorter than this are held: reading them again would cost more than they weigh.
const IN_FILE_MIN: usize = 256;

/// One call, or one output without a call (NDJSON schema: `docs/calls.md`; the command adds
/// path and session ids and writes it).
#[derive(Debug, Clone)]
pub struct Call {
    /// The turn the call (or orphan output) falls in, 1-based; null before the first turn.
    pub turn_index: Option<u64>,
    pub turn_id: Option<String>,
    pub call_id: Option<String>,
    /// The call's `response_item` type; for an orphan, the output's.
    pub kind: String,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub status: CallStatus,
    pub call_line: Option<u64>,
    pub output_line: Option<u64>,
    pub called_at: Option<String>,
    pub answered_at: Option<String>,
    pub duration_ms: Option<u64>,
    pub exit_code: Option<i64>,
    pub arguments: Option<Text>,
    pub output: Option<Text>,
    /// The call was copied from a parent session (fork, sub-agent).
    pub inherited: bool,
}

#[derive(Debug)]
struct CallItem {
    line: u64,
    timestamp: String,
    kind: String,
    call_id: Option<String>,
    name: Option<String>,
    namespace: Option<String>,
    arguments: Option<Text>,
    /// `apply_patch`, as a tool of its own or (0.36) run through the shell tool.
    is_patch: bool,
    own_status: Option<String>,
    inherited: bool,
}

impl CallItem {
    /// Kinds that carry their own outcome instead of an output.
    fn has_own_status(&self) -> bool {
        matches!(
            self.kind.as_str(),
            "web_search_call" | "image_generation_call"
        )
    }
}

#[derive(Debug)]
struct OutputItem {
    line: u64,
    timestamp: String,
    kind: String,
    call_id: Option<String>,
    text: Text,
    /// The output object's `success` flag (some writers).
    success: Option<bool>,
    /// What the text's head says.
    facts: OutputFacts,
    /// A `tool_search_output` with `execution: "server"`.
    server: bool,
    inherited: bool,
}

/// One source's word on a call's outcome.
#[derive(Debug, Clone, Default)]
struct Proof {
    timestamp: String,
    exit_code: Option<i64>,
    duration_ms: Option<u64>,
    /// Failed for a reason other than the exit code (status, success flag, MCP error).
    failed: bool,
    /// The source proves the tool finished (not merely in progress).
    settled: bool,
}

/// The outcome sources of one `call_id`, richest first.
#[derive(Debug, Default)]
struct Evidence {
    item: Option<Proof>,
    exec_end: Option<Proof>,
    patch_end: Option<Proof>,
    mcp_end: Option<Proof>,
}

impl Evidence {
    fn ranked(&self) -> impl Iterator<Item = &Proof> {
        [&self.item, &self.exec_end, &self.patch_end, &self.mcp_end]
            .into_iter()
            .flatten()
    }
}

fn is_failed_status(s: Option<&str>) -> bool {
    matches!(s, Some("failed" | "declined" | "error"))
}

fn is_settled_status(s: Option<&str>) -> bool {
    matches!(s, Some("completed" | "failed" | "declined" | "error"))
}

fn proof(rec: &Record<'_>, o: &ToolOutcome<'_>, extra_ms: Option<u64>) -> Proof {
    let status = o.status.as_deref();
    Proof {
        timestamp: rec.timestamp.to_string(),
        exit_code: o.exit_code,
        duration_ms: o.duration_ms().or(extra_ms),
        failed: is_failed_status(status)
            || o.has_error()
            || o.success == Some(false)
            || o.mcp_failed(),
        settled: is_settled_status(status)
            || o.exit_code.is_some()
            || o.success.is_some()
            || o.has_error()
            || o.result.is_some(),
    }
}

/// What an output text's header says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutputMeta {
    pub exit_code: Option<i64>,
    pub duration_ms: Option<u64>,
    /// `Process running with session ID N` (0.128+ unified exec): the command had not
    /// finished when the output was written, so the output proves no outcome (and its
    /// `Wall time` is how long the tool waited, not how long the command ran).
    pub running: bool,
}

/// `exit_code` and `duration_ms` read from an output text (see the module doc for the
/// three formats).
pub fn parse_output_text(text: &str) -> (Option<i64>, Option<u64>) {
    let m = parse_output_meta(text);
    (m.exit_code, m.duration_ms)
}

/// The header of an output text (see the module doc for the three formats).
pub fn parse_output_meta(text: &str) -> OutputMeta {
    let t = text.trim_start();
    if t.starts_with('{') {
        // Checked by the decoder's scanner, then only `metadata` is parsed: the text (a
        // whole command output) is never built into a `Value`. Where the scanner leaves
        // the decision to serde, serde decides.
        let meta = match crate::decode::is_json(t) {
            Some(true) => select::fields(t, ["metadata"])
                .and_then(|[m]| m)
                .and_then(|m| serde_json::from_str::<Value>(m).ok()),
            Some(false) => None,
            None => serde_json::from_str::<Value>(t)
                .ok()
                .and_then(|mut v| v.get_mut("metadata").map(Value::take)),
        };
        if let Some(meta) = meta.filter(|m| m.is_object()) {
            let exit = meta.get("exit_code").and_then(Value::as_i64);
            let dur = meta
                .get("duration_seconds")
                .and_then(Value::as_f64)
                .and_then(seconds_to_ms);
            return OutputMeta {
                exit_code: exit,
                duration_ms: dur,
                running: false,
            };
        }
    }
    let mut m = OutputMeta::default();
    // Only the header: stop at `Output:` so that the command's own output never counts.
    for line in t.lines().take(12) {
        let line = line.trim_end();
        if line == "Output:" {
            break;
        }
        if let Some(rest) = line
            .strip_prefix("Exit code: ")
            .or_else(|| line.strip_prefix("Process exited with code "))
        {
            m.exit_code = m.exit_code.or_else(|| rest.trim().parse().ok());
        } else if let Some(rest) = line.strip_prefix("Wall time: ") {
            let secs = rest.trim().trim_end_matches("seconds").trim();
            m.duration_ms = m
                .duration_ms
                .or_else(|| secs.parse::<f64>().ok().and_then(seconds_to_ms));
        } else if line.starts_with("Process running with session ID") {
            m.running = true;
        }
    }
    if m.running && m.exit_code.is_none() {
        m.duration_ms = None;
    } else {
        m.running = false;
    }
    m
}

/// A server-side `tool_search_output` (`"execution": "server"`): `Some(call_id)`; `None`
/// for anything else.
pub(crate) fn server_search_output(rec: &Record<'_>) -> Option<Option<String>> {
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
    if s.execution.and_then(model::raw_str).as_deref() != Some("server") {
        return None;
    }
    Some(s.call_id.and_then(model::raw_str).map(|c| c.into_owned()))
}

fn seconds_to_ms(s: f64) -> Option<u64> {
    (s.is_finite() && s >= 0.0).then(|| (s * 1000.0).round() as u64)
}

/// What an output text's head says: its header ([`parse_output_meta`]) and whether it
/// reports a failed patch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct OutputFacts {
    meta: OutputMeta,
    /// Starts with `apply_patch verification failed` (any call).
    verification_failed: bool,
    /// Starts with `error:` (a failure when the call is an `apply_patch`).
    error_prefix: bool,
}

impl OutputFacts {
    fn of(text: &str) -> OutputFacts {
        let t = text.trim_start();
        OutputFacts {
            meta: parse_output_meta(text),
            verification_failed: t.starts_with("apply_patch verification failed"),
            error_prefix: t.starts_with("error:"),
        }
    }

    /// The output says the patch was not applied.
    fn patch_failed(&self, is_patch: bool) -> bool {
        self.verification_failed || (is_patch && self.error_prefix)
    }

    /// The facts of the text of `raw`, a canonical JSON string
    /// ([`is_canonical_json_string`]), read from its first few KiB when they decide them
    /// (the usual case: a header of a few lines), else from the whole text.
    fn of_json_string(raw: &str) -> OutputFacts {
        const HEAD: usize = 4096;
        let unescape = |json: &str| serde_json::from_str::<String>(json).unwrap_or_default();
        let inner = &raw[1..raw.len() - 1];
        if inner.len() > HEAD {
            let head = unescape(&format!("\"{}\"", &inner[..escape_safe_cut(inner, HEAD)]));
            if let Some(facts) = OutputFacts::of_head(&head) {
                return facts;
            }
        }
        OutputFacts::of(&unescape(raw))
    }

    /// The facts of a text from its beginning `head`, when that is enough: the header
    /// ends (`Output:`) or twelve lines (all [`parse_output_meta`] reads) are complete
    /// within it, and the text does not start with `{` (a JSON output is read whole).
    fn of_head(head: &str) -> Option<OutputFacts> {
        let t = head.trim_start();
        if t.len() < 64 || t.starts_with('{') {
            return None;
        }
        let mut end = 0;
        let mut decided = false;
        for (n, line) in t.split_inclusive('\n').enumerate() {
            if !line.ends_with('\n') {
                break;
            }
            end += line.len();
            if line.trim_end() == "Output:" || n + 1 == 12 {
                decided = true;
                break;
            }
        }
        decided.then(|| OutputFacts {
            meta: parse_output_meta(&t[..end]),
            verification_failed: t.starts_with("apply_patch verification failed"),
            error_prefix: t.starts_with("error:"),
        })
    }
}

/// The largest cut at most `max` bytes into the inside of a canonical JSON string that
/// splits neither an escape nor a character.
fn escape_safe_cut(inner: &str, max: usize) -> usize {
    let b = inner.as_bytes();
    let mut cut = max.min(b.len());
    let mut at = 0;
    while let Some(k) = memchr::memchr(b'\\', &b[at..cut]) {
        let i = at + k;
        let len = if b.get(i + 1) == Some(&b'u') { 6 } else { 2 };
        if i + len > cut {
            cut = i;
            break;
        }
        at = i + len;
    }
    while !inner.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

/// Is `raw` one JSON string, quotes included, escaped exactly as serde_json escapes its
/// text (so that serde_json would write these very bytes)? serde_json escapes `"` and `\`,
/// writes `\b \f \n \r \t` for those controls and `\u00xx` (lowercase) for the other
/// controls, and nothing else: no `\/`, no `\u` for other characters, UTF-8 as is. Raw
/// controls, an unescaped quote inside, or invalid UTF-8 are no JSON string at all.
pub fn is_canonical_json_string(raw: &[u8]) -> bool {
    // The decoder's string check (vectorised), then the escapes serde would write
    // otherwise (rare, so looked for rather than walked).
    crate::decode::json_string_len(raw) == Some(raw.len()) && canonical_escapes(raw)
}

/// [`is_canonical_json_string`] for a string of a decoded line, so a valid JSON string:
/// only `\u` and `\/` escapes can make it differ, and those are rare, so they are looked
/// for instead of walking every escape.
fn canonical_escapes(raw: &[u8]) -> bool {
    if !matches!(raw, [b'"', .., b'"']) || raw.len() < 2 {
        return false;
    }
    for needle in [&b"\\u"[..], &b"\\/"[..]] {
        for i in memchr::memmem::find_iter(raw, needle) {
            // An escape when an even run of backslashes precedes this one.
            let run = raw[..i].iter().rev().take_while(|&&c| c == b'\\').count();
            if run % 2 == 0 && (needle[1] == b'/' || !canonical_u_escape(&raw[i..])) {
                return false;
            }
        }
    }
    true
}

/// Is `e`, starting `\u`, an escape serde_json writes: `\u00xx`, lowercase, for a control
/// character without a short form?
fn canonical_u_escape(e: &[u8]) -> bool {
    let Some(&[b'0', b'0', hi @ (b'0' | b'1'), lo]) = e.get(2..6) else {
        return false;
    };
    let lo = match lo {
        b'0'..=b'9' => lo - b'0',
        b'a'..=b'f' => lo - b'a' + 10,
        _ => return false,
    };
    !matches!((hi - b'0') * 16 + lo, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d)
}

/// Which calls an output can answer (Codex's `remove_orphan_outputs`):
/// `function_call_output` a `function_call` or `local_shell_call`, `custom_tool_call_output`
/// a `custom_tool_call`, `tool_search_output` a `tool_search_call`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Fit {
    Function,
    Custom,
    Search,
}

fn call_fit(call_kind: &str) -> Option<Fit> {
    match call_kind {
        "function_call" | "local_shell_call" => Some(Fit::Function),
        "custom_tool_call" => Some(Fit::Custom),
        "tool_search_call" => Some(Fit::Search),
        _ => None,
    }
}

fn output_fit(output_kind: &str) -> Option<Fit> {
    match output_kind {
        "function_call_output" => Some(Fit::Function),
        "custom_tool_call_output" => Some(Fit::Custom),
        "tool_search_output" => Some(Fit::Search),
        _ => None,
    }
}

/// The `calls` reducer.
#[derive(Debug, Default)]
pub struct CallsReducer {
    /// The input is a plain file that the output layer reads again: large texts are
    /// held as where they lie ([`Text::InFile`]).
    in_file: bool,
    /// Some text is held as where it lies.
    points_into_file: bool,
    log: TurnLog,
    calls: Vec<CallItem>,
    outputs: Vec<OutputItem>,
    evidence: HashMap<String, Evidence>,
}

impl CallsReducer {
    pub fn new() -> CallsReducer {
        CallsReducer {
            // Rows need their turn's index and id only.
            log: TurnLog::placing(),
            ..CallsReducer::default()
        }
    }

    fn response_item(&mut self, rec: &Record<'_>, t: &str, session: &SessionTracker) {
        let is_call = model::is_call_type(t);
        if !is_call && !model::is_output_type(t) {
            return;
        }
        let item: ToolItem<'_> = ToolItem::read_fast(rec.payload.get())
            .unwrap_or_else(|| rec.parse_payload().unwrap_or_default());
        let call_id = item.call_id.as_deref().map(str::to_string);
        if is_call {
            let raw = item.arguments.or(item.input).or(item.action);
            let name = item.name.as_deref().map(str::to_string);
            let (arguments, mentions_patch) = match raw {
                Some(r) => match self.in_file(rec, r) {
                    Some(text) => (Some(text), json_string_mentions(r.get(), "apply_patch")),
                    None => {
                        let a = raw_text(r).into_owned();
                        let m = a.contains("apply_patch");
                        (Some(Text::Owned(a)), m)
                    }
                },
                None => match item.revised_prompt.as_deref() {
                    Some(p) => (Some(Text::Owned(p.to_string())), p.contains("apply_patch")),
                    None => (None, false),
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
                is_patch,
                own_status: item.status.as_deref().map(str::to_string),
                inherited: session.is_inherited(),
            });
        } else {
            let (text, success, facts) = match (item.output, item.tools) {
                (Some(o), _) => match self.in_file(rec, o) {
                    Some(text) => (text, None, OutputFacts::of_json_string(o.get())),
                    None => {
                        let o = model::output_text(o);
                        let facts = OutputFacts::of(&o.text);
                        (Text::Owned(o.text), o.success, facts)
                    }
                },
                (None, tools) => {
                    let text = tools.map(|r| raw_text(r).into_owned()).unwrap_or_default();
                    let facts = OutputFacts::of(&text);
                    (Text::Owned(text), None, facts)
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
                server: server_search_output(rec).is_some(),
                inherited: session.is_inherited(),
            });
        }
    }

    /// Where a large JSON string value of `rec` lies in the file, when the file can be
    /// read again there and its bytes are the row's field as written.
    fn in_file(&mut self, rec: &Record<'_>, value: &RawValue) -> Option<Text> {
        let raw = value.get();
        if !self.in_file || raw.len() < IN_FILE_MIN || !canonical_escapes(raw.as_bytes()) {
            return None;
        }
        let offset = rec.stream_offset_of(raw)?;
        self.points_into_file = true;
        Some(Text::InFile {
            offset,
            len: raw.len(),
        })
    }

    fn event(&mut self, rec: &Record<'_>) {
        match rec.payload_type() {
            Some("item_completed") => {
                let Some(ic) = ItemCompleted::read_fast(rec.payload.get())
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
                let Some(o) = ToolOutcome::read_fast(rec.payload.get())
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

impl Reducer for CallsReducer {
    type Output = Vec<Call>;

    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        self.log.record(rec, session);
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

    fn finish(self, _session: &SessionTracker, _info: &StreamInfo) -> Vec<Call> {
        let turns = self.log.finish();
        pair(self.calls, self.outputs, &self.evidence, &turns)
    }

    const MAY_REREAD: bool = true;

    fn reread_file(&mut self) -> bool {
        self.in_file = true;
        true
    }

    fn points_into_file(&self) -> bool {
        self.points_into_file
    }
}

/// Does the text of `raw`, a canonical JSON string, contain `word` (ASCII letters and `_`,
/// which such a string never escapes)? Only a match that touches an escape (`\u001a`
/// before `pply…`) needs the text itself.
fn json_string_mentions(raw: &str, word: &str) -> bool {
    if !raw.contains(word) {
        return false;
    }
    !raw.contains("\\u") || raw_text(trusted(raw)).contains(word)
}

/// A JSON value of a decoded record as a [`RawValue`] again.
fn trusted(json: &str) -> &RawValue {
    // SAFETY: `RawValue` is `#[repr(transparent)]` over `str`; `json` came from one.
    unsafe { &*(json as *const str as *const RawValue) }
}

fn pair(
    calls: Vec<CallItem>,
    outputs: Vec<OutputItem>,
    evidence: &HashMap<String, Evidence>,
    turns: &Turns,
) -> Vec<Call> {
    // Unanswered calls per call_id and fit, in file order: an output takes the first of
    // its queue, so pairing is linear whatever the number of calls sharing an id.
    let mut waiting: HashMap<(&str, Fit), VecDeque<usize>> = HashMap::new();
    for (i, c) in calls.iter().enumerate() {
        if let (Some(id), Some(fit)) = (c.call_id.as_deref(), call_fit(&c.kind)) {
            if !c.has_own_status() {
                waiting.entry((id, fit)).or_default().push_back(i);
            }
        }
    }
    // Every (call_id, fit) some call has: an output that finds its queue empty is a
    // duplicate of an answered call when its key is here, an orphan otherwise.
    let known: HashSet<(&str, Fit)> = waiting.keys().copied().collect();
    let mut answer: Vec<Option<usize>> = vec![None; calls.len()];
    let mut orphans: Vec<usize> = Vec::new();
    let mut servers: Vec<usize> = Vec::new();
    for (o, out) in outputs.iter().enumerate() {
        let fit = output_fit(&out.kind);
        let key = out.call_id.as_deref().zip(fit);
        let hit = key.and_then(|k| waiting.get_mut(&k)?.pop_front());
        match hit {
            Some(ci) => answer[ci] = Some(o),
            // A duplicate output of an answered call: ignored (Codex keeps the first).
            None if key.is_some_and(|k| known.contains(&k)) => {}
            // A server-side tool search with no call: a call of its own.
            None if out.server => servers.push(o),
            None => orphans.push(o),
        }
    }

    let place = |line: u64| -> (Option<u64>, Option<String>) {
        match turns.turn_of(line).and_then(|i| turns.turns.get(i)) {
            Some(t) => (Some(t.index), t.turn_id.clone()),
            None => (None, None),
        }
    };

    let mut rows: Vec<(u64, Call)> =
        Vec::with_capacity(calls.len() + orphans.len() + servers.len());
    let mut outputs: Vec<Option<OutputItem>> = outputs.into_iter().map(Some).collect();
    for (ci, c) in calls.into_iter().enumerate() {
        let out = answer[ci].and_then(|o| outputs[o].take());
        let ev = c.call_id.as_deref().and_then(|id| evidence.get(id));
        let row = settle(c, out, ev, &place);
        rows.push(row);
    }
    // Rows of an output alone: a server-side tool search (its own call) or an orphan.
    let lone = [(servers, CallStatus::Ok), (orphans, CallStatus::Orphan)];
    for (indexes, status) in lone {
        for o in indexes {
            let Some(out) = outputs[o].take() else {
                continue;
            };
            rows.push((out.line, output_only_row(out, status, &place)));
        }
    }
    rows.sort_by_key(|(line, _)| *line);
    rows.into_iter().map(|(_, c)| c).collect()
}

/// The row of an output with no call: `Ok` for a server-side tool search, which is its own
/// call (answered where it stands); `Orphan` otherwise (its exit code read from its text).
fn output_only_row(
    out: OutputItem,
    status: CallStatus,
    place: &impl Fn(u64) -> (Option<u64>, Option<String>),
) -> Call {
    let (turn_index, turn_id) = place(out.line);
    let server = status != CallStatus::Orphan;
    let (exit_code, duration_ms) = if server {
        (None, None)
    } else {
        (out.facts.meta.exit_code, out.facts.meta.duration_ms)
    };
    Call {
        turn_index,
        turn_id,
        call_id: out.call_id,
        kind: out.kind,
        name: None,
        namespace: None,
        status,
        call_line: server.then_some(out.line),
        output_line: Some(out.line),
        called_at: server.then(|| out.timestamp.clone()),
        answered_at: Some(out.timestamp),
        duration_ms,
        exit_code,
        arguments: None,
        output: Some(out.text),
        inherited: out.inherited,
    }
}

/// Decide one call's row from its output and the other outcome sources.
fn settle(
    c: CallItem,
    out: Option<OutputItem>,
    ev: Option<&Evidence>,
    place: &impl Fn(u64) -> (Option<u64>, Option<String>),
) -> (u64, Call) {
    let (turn_index, turn_id) = place(c.line);
    let text_meta = out.as_ref().map(|o| o.facts.meta).unwrap_or_default();
    let proofs: Vec<&Proof> = ev.map(|e| e.ranked().collect()).unwrap_or_default();
    let exit_code = proofs
        .iter()
        .find_map(|p| p.exit_code)
        .or(text_meta.exit_code);
    let duration_ms = proofs
        .iter()
        .find_map(|p| p.duration_ms)
        .or(text_meta.duration_ms);
    let status = if c.has_own_status() {
        match c.own_status.as_deref() {
            Some("completed") => CallStatus::Ok,
            Some("failed") => CallStatus::Error,
            _ => CallStatus::Unknown,
        }
    } else {
        let failed = exit_code.is_some_and(|code| code != 0)
            || proofs.iter().any(|p| p.failed)
            || out
                .as_ref()
                .is_some_and(|o| o.success == Some(false) || o.facts.patch_failed(c.is_patch));
        // An output saying the process is still running proves no outcome.
        let known = (out.is_some() && !text_meta.running) || proofs.iter().any(|p| p.settled);
        if failed {
            CallStatus::Error
        } else if known {
            CallStatus::Ok
        } else {
            CallStatus::Unknown
        }
    };
    let answered_at = match &out {
        Some(o) => Some(o.timestamp.clone()),
        None => proofs
            .iter()
            .find(|p| p.settled)
            .map(|p| p.timestamp.clone()),
    };
    let line = c.line;
    let call = Call {
        turn_index,
        turn_id,
        call_id: c.call_id,
        kind: c.kind,
        name: c.name,
        namespace: c.namespace,
        status,
        call_line: Some(c.line),
        output_line: out.as_ref().map(|o| o.line),
        called_at: Some(c.timestamp),
        answered_at,
        duration_ms,
        exit_code,
        arguments: c.arguments,
        output: out.map(|o| o.text),
        inherited: c.inherited,
    };
    (line, call)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source;
    use crate::reduce::{reduce_stream, ReadOptions};

    fn calls(lines: &[&str]) -> Vec<Call> {
        let text = lines.join("\n") + "\n";
        reduce_stream(
            text.as_bytes(),
            Source::Stdin,
            &ReadOptions::default(),
            CallsReducer::new(),
        )
        .output
        .unwrap()
    }

    fn item(payload: &str) -> String {
        format!(
            r#"{{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{payload}}}"#
        )
    }

    fn event(payload: &str) -> String {
        format!(
            r#"{{"timestamp":"2026-01-01T00:00:02.000Z","type":"event_msg","payload":{payload}}}"#
        )
    }

    fn fc(call_id: &str, name: &str, args: &str) -> String {
        item(&format!(
            r#"{{"type":"function_call","name":"{name}","arguments":{},"call_id":"{call_id}"}}"#,
            serde_json::to_string(args).unwrap()
        ))
    }

    fn fco(call_id: &str, output: &str) -> String {
        item(&format!(
            r#"{{"type":"function_call_output","call_id":"{call_id}","output":{}}}"#,
            serde_json::to_string(output).unwrap()
        ))
    }

    // Rows are final only at the end of the file: each of these later lines changes a row
    // that an earlier line seemed to settle (`docs/calls.md`, "When a row is final").

    #[test]
    fn a_richer_source_after_the_output_still_decides_the_row() {
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &fco(
                "a",
                "Process exited with code 0\nWall time: 1 seconds\nOutput:\nfine\n",
            ),
            &fc("b", "exec_command", "{}"),
            &fco("b", "Process exited with code 0\nOutput:\n"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"failed","exit_code":3}}"#,
            ),
        ]);
        assert_eq!(c[0].status, CallStatus::Error);
        assert_eq!((c[0].exit_code, c[0].duration_ms), (Some(3), Some(1000)));
        assert_eq!(c[0].output_line, Some(2));
        assert_eq!(c[1].status, CallStatus::Ok);
    }

    #[test]
    fn a_duplicate_output_changes_nothing_even_when_it_says_otherwise() {
        let c = calls(&[
            &fc("a", "shell", "{}"),
            &fco("a", "Exit code: 0\nOutput:\n"),
            &fco("a", "Exit code: 9\nOutput:\n"),
        ]);
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].status, c[0].exit_code), (CallStatus::Ok, Some(0)));
        assert_eq!(c[0].output_line, Some(2));
    }

    #[test]
    fn an_unanswered_call_keeps_its_place_before_later_answered_calls() {
        let c = calls(&[
            &fc("a", "shell", "{}"),
            &fc("b", "shell", "{}"),
            &fco("b", "Exit code: 0\nOutput:\n"),
            &fc("c", "shell", "{}"),
            &fco("c", "Exit code: 1\nOutput:\n"),
        ]);
        let got: Vec<_> = c
            .iter()
            .map(|c| {
                (
                    c.call_id.as_deref().unwrap(),
                    c.status.as_str(),
                    c.call_line,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("a", "unknown", Some(1)),
                ("b", "ok", Some(2)),
                ("c", "error", Some(4))
            ]
        );
    }

    #[test]
    fn an_output_before_its_call_answers_it_so_orphans_are_known_only_at_the_end() {
        let c = calls(&[
            &fco("a", "Exit code: 0\nOutput:\n"),
            &fco("lost", "x"),
            &fc("a", "shell", "{}"),
        ]);
        let got: Vec<_> = c
            .iter()
            .map(|c| (c.status.as_str(), c.call_line, c.output_line))
            .collect();
        // Rows in line order: the orphan (line 2), then the call (line 3) answered by line 1.
        assert_eq!(got, [("orphan", None, Some(2)), ("ok", Some(3), Some(1))]);
    }

    #[test]
    fn large_texts_of_a_plain_file_are_where_they_lie_and_read_back_exactly() {
        use std::io::Write;
        let big = "Exit code: 0\nWall time: 2 seconds\nOutput:\n".to_string()
            + &"line \"quoted\" \\ tab\t é\n".repeat(400);
        let lines = [
            fc(
                "a",
                "shell",
                &format!(r#"{{"command":"apply_patch {}"}}"#, "x".repeat(300)),
            ),
            fco("a", &big),
            fco("orphan", &big),
        ];
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
        let r = crate::reduce::reduce_source(
            &Source::File(f.path().to_path_buf()),
            &ReadOptions::default(),
            CallsReducer::new(),
        );
        let file = r.file.expect("kept open");
        let rows = r.output.unwrap();
        let read = |t: &Option<Text>| match t {
            Some(Text::InFile { offset, len }) => {
                let mut buf = Vec::new();
                file.read_at(*offset, *len, &mut buf).unwrap();
                assert!(is_canonical_json_string(&buf));
                serde_json::from_slice::<String>(&buf).unwrap()
            }
            other => panic!("held: {other:?}"),
        };
        assert_eq!(read(&rows[0].output), big);
        assert!(read(&rows[0].arguments).starts_with(r#"{"command":"apply_patch xxx"#));
        assert_eq!(read(&rows[1].output), big);
        // What the head of the text says was read without the rest of it.
        assert_eq!(
            (rows[0].exit_code, rows[0].duration_ms),
            (Some(0), Some(2000))
        );
        assert_eq!(
            (rows[1].exit_code, rows[1].status),
            (Some(0), CallStatus::Orphan)
        );
    }

    #[test]
    fn canonical_json_strings_are_exactly_what_serde_writes() {
        // Every string of up to three of these pieces: canonical exactly when serde_json
        // writes its text back to the same bytes.
        let pieces = [
            "a", "é", "\u{7f}", "/", r"\/", r"\n", r"\u000a", r"\u001f", r"\u001F", r"\u0000",
            r"\u00e9", r"\u0041", r"\t", r"\b", r"\f", r"\r", r#"\""#, r"\\", "\u{2028}",
        ];
        let mut n = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let raw = format!("\"{a}{b}{c}\"");
                    let text: String = serde_json::from_str(&raw).unwrap();
                    let same = serde_json::to_string(&text).unwrap() == raw;
                    assert_eq!(is_canonical_json_string(raw.as_bytes()), same, "{raw}");
                    // The quick check of a decoded line's strings agrees.
                    assert_eq!(canonical_escapes(raw.as_bytes()), same, "{raw}");
                    n += usize::from(same);
                }
            }
        }
        assert!(n > 1000);
        for bad in ["", "\"", "\"a\"b\"", "\"\u{1}\"", "a", "\"\\\""] {
            assert!(!is_canonical_json_string(bad.as_bytes()), "{bad:?}");
        }
        assert!(!is_canonical_json_string(b"\"\xff\""));
    }

    #[test]
    fn the_head_of_an_output_says_what_the_whole_text_says() {
        let headers = [
            "Exit code: 2\nWall time: 1.5 seconds\nOutput:\n",
            "Chunk ID: 1\nWall time: 0.2 seconds\nProcess running with session ID 4\nOutput:\n",
            "apply_patch verification failed: no\n",
            "  \n error: bad\n",
            "",
        ];
        let bodies = [
            "x\n",
            "é\\\"\t\u{1}\n",
            "{\"json\": 1}\n",
            "a very long line ",
        ];
        for h in headers {
            for body in bodies {
                for pad in [4000, 4090, 4095, 4096, 4100, 9000] {
                    let text = format!("{h}{}", body.repeat(pad / body.len() + 1));
                    let raw = serde_json::to_string(&text).unwrap();
                    assert_eq!(OutputFacts::of_json_string(&raw), OutputFacts::of(&text));
                }
            }
        }
        // A 0.36 JSON output is read whole, whatever its length.
        let json = format!(
            r#"{{"output":"{}","metadata":{{"exit_code":1,"duration_seconds":0.5}}}}"#,
            "y".repeat(5000)
        );
        let raw = serde_json::to_string(&json).unwrap();
        let facts = OutputFacts::of_json_string(&raw);
        assert_eq!(
            (facts.meta.exit_code, facts.meta.duration_ms),
            (Some(1), Some(500))
        );
    }

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
    fn three_historical_output_formats() {
        // 0.36: a JSON string with metadata.
        assert_eq!(
            parse_output_text(
                r#"{"output":"x","metadata":{"exit_code":1,"duration_seconds":0.25}}"#
            ),
            (Some(1), Some(250))
        );
        // 0.80.
        assert_eq!(
            parse_output_text("Exit code: 3\nWall time: 0 seconds\nOutput:\n"),
            (Some(3), Some(0))
        );
        // 0.128+.
        assert_eq!(
            parse_output_text(
                "Chunk ID: ab\nWall time: 0.0120 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nExit code: 9\n"
            ),
            (Some(1), Some(12))
        );
        assert_eq!(parse_output_text("just text"), (None, None));
    }

    #[test]
    fn pairs_by_call_id_not_position() {
        let c = calls(&[
            &fc("a", "shell", "{}"),
            &fc("b", "shell", "{}"),
            &fco("b", "Exit code: 2\nOutput:\n"),
            &fco("a", "Exit code: 0\nOutput:\nok"),
        ]);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].call_id.as_deref(), Some("a"));
        assert_eq!(c[0].status, CallStatus::Ok);
        assert_eq!(c[0].output_line, Some(4));
        assert_eq!(c[1].status, CallStatus::Error);
        assert_eq!(c[1].exit_code, Some(2));
        assert_eq!(c[1].output_line, Some(3));
    }

    #[test]
    fn missing_output_is_unknown_and_stray_output_is_orphan() {
        let c = calls(&[&fc("a", "shell", "{}"), &fco("zzz", "hi")]);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].status, CallStatus::Unknown);
        assert_eq!(c[0].output, None);
        assert_eq!(c[1].status, CallStatus::Orphan);
        assert_eq!(c[1].kind, "function_call_output");
        assert_eq!(c[1].output.as_ref().and_then(Text::owned), Some("hi"));
    }

    #[test]
    fn output_of_the_wrong_kind_is_an_orphan_and_duplicates_are_ignored() {
        let c = calls(&[
            &fc("a", "shell", "{}"),
            &item(r#"{"type":"custom_tool_call_output","call_id":"a","output":"x"}"#),
            &fco("a", "first"),
            &fco("a", "second"),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(s, ["ok", "orphan"]);
        assert_eq!(c[0].output.as_ref().and_then(Text::owned), Some("first"));
    }

    #[test]
    fn item_completed_proves_an_outcome_without_output() {
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"failed","exit_code":7,"duration":{"secs":1,"nanos":500000000}},"started_at_ms":1,"completed_at_ms":9}"#,
            ),
            &fco("a", "Process exited with code 0\nOutput:\n"),
        ]);
        // The item is the richest source: it wins over the output text.
        assert_eq!(c[0].exit_code, Some(7));
        assert_eq!(c[0].duration_ms, Some(1500));
        assert_eq!(c[0].status, CallStatus::Error);

        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"completed","exit_code":0},"started_at_ms":10,"completed_at_ms":14}"#,
            ),
        ]);
        assert_eq!(c[0].status, CallStatus::Ok);
        assert_eq!(c[0].output_line, None);
        assert_eq!(c[0].duration_ms, Some(4));
        assert_eq!(
            c[0].answered_at.as_deref(),
            Some("2026-01-01T00:00:02.000Z")
        );

        // In progress proves nothing.
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"in_progress"}}"#,
            ),
        ]);
        assert_eq!(c[0].status, CallStatus::Unknown);
    }

    #[test]
    fn legacy_end_events() {
        let c = calls(&[
            &fc("a", "shell", "{}"),
            &event(
                r#"{"type":"exec_command_end","call_id":"a","exit_code":5,"duration":{"secs":0,"nanos":2000000}}"#,
            ),
            &item(
                r#"{"type":"custom_tool_call","call_id":"p","name":"apply_patch","input":"*** Begin Patch"}"#,
            ),
            &event(r#"{"type":"patch_apply_end","call_id":"p","success":false}"#),
            &fc("m", "mcp__w__look", "{}"),
            &event(
                r#"{"type":"mcp_tool_call_end","call_id":"m","duration":{"secs":2,"nanos":0},"result":{"Ok":{"content":[],"isError":true}}}"#,
            ),
            &fc("n", "mcp__w__look", "{}"),
            &event(r#"{"type":"mcp_tool_call_end","call_id":"n","result":{"Ok":{"content":[]}}}"#),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(s, ["error", "error", "error", "ok"]);
        assert_eq!(c[0].exit_code, Some(5));
        assert_eq!(c[0].duration_ms, Some(2));
        assert_eq!(c[2].duration_ms, Some(2000));
    }

    #[test]
    fn patch_failures_in_output_text() {
        let c = calls(&[
            &item(r#"{"type":"custom_tool_call","call_id":"p","name":"apply_patch","input":"x"}"#),
            &item(
                r#"{"type":"custom_tool_call_output","call_id":"p","output":"apply_patch verification failed: nope"}"#,
            ),
            &fc(
                "q",
                "shell",
                r#"{"command":["bash","-lc","apply_patch <<'EOF'\n*** Begin Patch"]}"#,
            ),
            &fco("q", "error: Failed to read file to update x"),
            &fc("r", "shell", r#"{"command":["bash","-lc","echo hi"]}"#),
            &fco("r", "error: not a patch, just output"),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(s, ["error", "error", "ok"]);
    }

    #[test]
    fn own_status_kinds_and_array_outputs() {
        let c = calls(&[
            &item(
                r#"{"type":"web_search_call","id":"ws","status":"completed","action":{"type":"search","query":"q"}}"#,
            ),
            &item(r#"{"type":"image_generation_call","id":"ig","status":"failed"}"#),
            &item(r#"{"type":"web_search_call","id":"ws2","status":"in_progress"}"#),
            &item(
                r#"{"type":"function_call","name":"lookup","namespace":"mcp__w","arguments":"{}","call_id":"m"}"#,
            ),
            &item(
                r#"{"type":"function_call_output","call_id":"m","output":[{"type":"input_text","text":"Wall time: 0.0030 seconds\nOutput:"},{"type":"input_text","text":"Sunny"}]}"#,
            ),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(s, ["ok", "error", "unknown", "ok"]);
        assert_eq!(
            c[0].arguments.as_ref().and_then(Text::owned),
            Some(r#"{"type":"search","query":"q"}"#)
        );
        assert_eq!(c[3].namespace.as_deref(), Some("mcp__w"));
        assert_eq!(
            c[3].output.as_ref().and_then(Text::owned),
            Some("Wall time: 0.0030 seconds\nOutput:\nSunny")
        );
        assert_eq!(c[3].duration_ms, Some(3));
    }

    #[test]
    fn calls_are_placed_in_turns() {
        let c = calls(&[
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}"#,
            &fc("early", "x", "{}"),
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":"T1"}}"#,
            &fc("a", "x", "{}"),
            &fco("a", "ok"),
        ]);
        // A call before the first turn start begins an implicit turn: every call has one.
        assert_eq!((c[0].turn_index, c[0].turn_id.as_deref()), (Some(1), None));
        assert_eq!(
            (c[1].turn_index, c[1].turn_id.as_deref()),
            (Some(2), Some("T1"))
        );
    }

    #[test]
    fn many_calls_sharing_an_id_pair_in_order_and_wrong_kinds_are_orphans() {
        let cto = |id: &str| {
            item(&format!(
                r#"{{"type":"custom_tool_call_output","call_id":"{id}","output":"x"}}"#
            ))
        };
        let c = calls(&[
            &fc("same", "shell", "{}"),
            &fc("same", "shell", "{}"),
            &fc("same", "shell", "{}"),
            &cto("same"),
            &fco("same", "first"),
            &cto("same"),
            &fco("same", "second"),
            &fco("other", "stray"),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(
            s,
            ["ok", "ok", "unknown", "orphan", "orphan", "orphan"],
            "{c:#?}"
        );
        assert_eq!(c[0].output.as_ref().and_then(Text::owned), Some("first"));
        assert_eq!(c[1].output.as_ref().and_then(Text::owned), Some("second"));
        assert_eq!(c[3].kind, "custom_tool_call_output");
        assert_eq!(c[5].call_id.as_deref(), Some("other"));
    }

    #[test]
    fn a_server_tool_search_output_without_call_is_a_call_row() {
        let search = |exec: &str, id: &str| {
            item(&format!(
                r#"{{"type":"tool_search_output","call_id":"{id}","status":"completed","execution":"{exec}","tools":[{{"type":"namespace","name":"mcp__w"}}]}}"#
            ))
        };
        let c = calls(&[
            &search("server", "alone"),
            &item(
                r#"{"type":"tool_search_call","call_id":"paired","execution":"server","arguments":{"query":"q"}}"#,
            ),
            &search("server", "paired"),
            &search("client", "lost"),
            &item(r#"{"type":"tool_search_output","execution":"server","tools":[]}"#),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(s, ["ok", "ok", "orphan", "ok"], "{c:#?}");
        // Self-contained: the item is both the call and its output.
        assert_eq!(c[0].kind, "tool_search_output");
        assert_eq!((c[0].call_line, c[0].output_line), (Some(1), Some(1)));
        assert_eq!(
            c[0].output.as_ref().and_then(Text::owned),
            Some(r#"[{"type":"namespace","name":"mcp__w"}]"#)
        );
        assert_eq!(c[0].name, None);
        // With a call, the server output pairs with it as usual.
        assert_eq!(
            (c[1].kind.as_str(), c[1].output_line),
            ("tool_search_call", Some(3))
        );
        assert_eq!(c[2].kind, "tool_search_output");
        assert_eq!(c[3].call_id, None);
    }

    #[test]
    fn a_process_still_running_proves_no_outcome() {
        let running = "Chunk ID: ab\nWall time: 1.0020 seconds\nProcess running with session ID 42\nOriginal token count: 3\nOutput:\nBuilding...\n";
        assert_eq!(
            parse_output_meta(running),
            OutputMeta {
                exit_code: None,
                duration_ms: None,
                running: true
            }
        );
        // The command's own output saying so does not count.
        assert!(
            !parse_output_meta(
                "Process exited with code 0\nOutput:\nProcess running with session ID 1\n"
            )
            .running
        );

        let c = calls(&[
            &fc("a", "exec_command", r#"{"cmd":"npm run build"}"#),
            &fco("a", running),
        ]);
        assert_eq!(c[0].status, CallStatus::Unknown);
        assert_eq!((c[0].exit_code, c[0].duration_ms), (None, None));
        // The output is still shown, and when it was written.
        assert_eq!(c[0].output_line, Some(2));
        assert_eq!(c[0].output.as_ref().and_then(Text::owned), Some(running));

        // A later end event or item proves the outcome.
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &fco("a", running),
            &event(
                r#"{"type":"exec_command_end","call_id":"a","exit_code":2,"duration":{"secs":3,"nanos":0}}"#,
            ),
            &fc("b", "exec_command", "{}"),
            &fco("b", running),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"b","status":"completed","exit_code":0}}"#,
            ),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(s, ["error", "ok"]);
        assert_eq!((c[0].exit_code, c[0].duration_ms), (Some(2), Some(3000)));
    }

    #[test]
    fn odd_payloads_never_panic() {
        let c = calls(&[
            &item(r#"{"type":"function_call","call_id":5,"name":["x"],"arguments":{"a":1}}"#),
            &item(r#"{"type":"function_call_output","output":null}"#),
            &event(r#"{"type":"item_completed","item":"nope"}"#),
            &event(r#"{"type":"exec_command_end","call_id":null,"exit_code":"x"}"#),
            &item(
                r#"{"type":"function_call_output","call_id":"q","output":{"content":"boom","success":false}}"#,
            ),
        ]);
        let s: Vec<_> = c.iter().map(|c| c.status.as_str()).collect();
        assert_eq!(s, ["unknown", "orphan", "orphan"]);
        assert_eq!(
            c[0].arguments.as_ref().and_then(Text::owned),
            Some(r#"{"a":1}"#)
        );
        assert_eq!(c[2].output.as_ref().and_then(Text::owned), Some("boom"));
    }
}
