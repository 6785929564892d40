//! `turns`: the turn lifecycle of one file, and the turn segmentation every command shares.
//!
//! [`TurnLog`] watches a file stream by and remembers, compactly, what can begin, settle or
//! drop a turn. At the end it decides how this writer marks turns and cuts the file into
//! [`Turn`]s. `stats` counts turns with the same log and `calls` places each call in a turn
//! with it, so the three commands always agree.
//!
//! **Where a turn begins** (decided per file, at the end):
//! - at each `event_msg/task_started` (alias `turn_started`), when the file has any;
//! - otherwise (writers before about 0.128: see the 0.36 and 0.80 files in the corpus) at
//!   each real user message: each `event_msg/user_message`, or, in files with none, each
//!   `response_item` user message that is not contextual scaffolding. Real 0.36/0.80 files
//!   write the `response_item` user message *just before* its `user_message` event, so the
//!   turn starts at that response item when there is one (real files decide; the seeds do
//!   not order the pair).
//!
//! **Status** (what the file proves; `docs/turns.md`):
//! - `completed` / `failed`: a `task_complete` (alias `turn_complete`) without / with `error`.
//!   It wins over a `turn_aborted` of the same turn (same-process recover), in either order.
//! - `aborted`: a `turn_aborted` (its `reason` is kept). Codex 0.36 does write one on
//!   SIGINT: `research/real-rollouts.md` says it writes nothing, but the real 0.36
//!   `interrupt_sigint` file has it, and the file decides.
//! - `rolled_back`: dropped by a later `thread_rolled_back {num_turns}`. Each marker drops
//!   the last `num_turns` *user* turns still standing before it, and every turn after the cut
//!   (Codex's `drop_last_n_user_turns`), so consecutive markers add up.
//! - `stale` / `open`: no terminal event in a file whose writer writes `task_started`: a
//!   later turn began (the writer died mid-turn), or it is the last turn.
//! - `unknown`: no terminal event in a file whose writer never wrote `task_started`: there
//!   the absence of a terminal event proves nothing.
//!
//! Terminal events and `turn_context`s go to the turn their `turn_id` names when one does,
//! else to the turn they fall in. Settings come from the turn's last `turn_context` (writers
//! before 0.128 wrote one per model request). Tokens are the session's own usage
//! ([`UsageAccount`], the same rules as `stats`) keyed by line, then summed per turn.

use std::collections::HashMap;

use serde::Serialize;

use crate::decode::{Kind, Record, StreamInfo};
use crate::model::{self, ItemCompleted, Message, TurnContext, TurnEvent};
use crate::reduce::session::SessionTracker;
use crate::reduce::tokens::{carries_usage, Tokens, UsageAccount};
use crate::reduce::Reducer;
use crate::time;

/// What the file proves about a turn's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnStatus {
    Completed,
    Failed,
    Aborted,
    RolledBack,
    Stale,
    Open,
    Unknown,
}

impl TurnStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TurnStatus::Completed => "completed",
            TurnStatus::Failed => "failed",
            TurnStatus::Aborted => "aborted",
            TurnStatus::RolledBack => "rolled_back",
            TurnStatus::Stale => "stale",
            TurnStatus::Open => "open",
            TurnStatus::Unknown => "unknown",
        }
    }
}

/// How the file's writer marks where turns begin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnSource {
    /// `event_msg/task_started` (Codex 0.128+).
    TaskStarted,
    /// `event_msg/user_message` (older writers).
    UserMessageEvent,
    /// Real user `response_item` messages (files with neither).
    UserResponseMessage,
}

/// One turn (NDJSON schema: `docs/turns.md`; the command adds path and session ids).
#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    /// 1-based, in file order.
    pub index: u64,
    pub turn_id: Option<String>,
    pub status: TurnStatus,
    pub reason: Option<String>,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub duration_ms: Option<u64>,
    pub model: Option<String>,
    pub effort: Option<String>,
    pub cwd: Option<String>,
    pub approval_policy: Option<String>,
    pub sandbox: Option<String>,
    pub line_start: u64,
    pub line_end: u64,
    pub ordinal_start: Option<u64>,
    pub ordinal_end: Option<u64>,
    pub user_message: Option<String>,
    pub last_agent_message: Option<String>,
    pub tool_calls: u64,
    pub tokens: Tokens,
    /// The turn was copied from a parent session (fork, sub-agent); it has no own tokens.
    pub inherited: bool,
}

/// A line's position: line number and ordinal.
type At = (u64, Option<u64>);

#[derive(Debug, Clone)]
struct Start {
    source: TurnSource,
    line: u64,
    ordinal: Option<u64>,
    timestamp: String,
    inherited: bool,
    /// The record before this one (it ends the previous turn).
    prev: Option<At>,
    turn_id: Option<String>,
}

#[derive(Debug)]
struct Settings {
    line: u64,
    turn_id: Option<String>,
    model: Option<String>,
    effort: Option<String>,
    cwd: Option<String>,
    approval_policy: Option<String>,
    sandbox: Option<String>,
}

#[derive(Debug, Clone)]
enum Outcome {
    Complete {
        error: Option<String>,
        last_agent_message: Option<String>,
    },
    Aborted {
        reason: Option<String>,
    },
}

#[derive(Debug, Clone)]
struct Terminal {
    line: u64,
    timestamp: String,
    turn_id: Option<String>,
    duration_ms: Option<u64>,
    outcome: Outcome,
}

/// A piece of text tied to a line, deduplicated per stretch between candidate starts.
#[derive(Debug)]
struct Text {
    stretch: u64,
    line: u64,
    text: Option<String>,
}

/// How much a [`TurnLog`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Turn starts only: enough to count turns (`stats`).
    Count,
    /// Everything a [`Turn`] row holds.
    Full,
}

/// The shared turn segmentation. Feed every record; [`TurnLog::count`] or
/// [`TurnLog::finish`] at the end.
#[derive(Debug)]
pub struct TurnLog {
    detail: Detail,
    starts: Vec<Start>,
    /// Counts candidate starts: texts keep one entry per stretch between two of them.
    stretch: u64,
    settings: Vec<Settings>,
    terminals: Vec<Terminal>,
    rollbacks: Vec<(u64, u64)>,
    /// Evidence of a real user message (a user turn), with the first text per stretch.
    users: Vec<Text>,
    /// The last agent message per stretch.
    agents: Vec<Text>,
    calls: Vec<u64>,
    usage: UsageAccount<u64>,
    last: Option<At>,
}

impl Default for TurnLog {
    fn default() -> Self {
        TurnLog::new()
    }
}

impl TurnLog {
    /// A log that keeps everything a turn row needs.
    pub fn new() -> TurnLog {
        TurnLog::with_detail(Detail::Full)
    }

    /// A log that only counts turns (cheaper; `stats`).
    pub fn counting() -> TurnLog {
        TurnLog::with_detail(Detail::Count)
    }

    fn with_detail(detail: Detail) -> TurnLog {
        TurnLog {
            detail,
            starts: Vec::new(),
            stretch: 0,
            settings: Vec::new(),
            terminals: Vec::new(),
            rollbacks: Vec::new(),
            users: Vec::new(),
            agents: Vec::new(),
            calls: Vec::new(),
            usage: UsageAccount::new(),
            last: None,
        }
    }

    /// Observe one record (after `session` has).
    pub fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        let full = self.detail == Detail::Full;
        match rec.kind {
            Kind::EventMsg => match rec.payload_type() {
                Some("task_started") => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    self.start(rec, session, TurnSource::TaskStarted, ev.turn_id());
                }
                Some("user_message") => {
                    self.start(rec, session, TurnSource::UserMessageEvent, None);
                    if full {
                        let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                        self.user(rec.pos.line, ev.message.map(|m| m.into_owned()));
                    }
                }
                Some("task_complete") if full => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    let outcome = Outcome::Complete {
                        error: ev.error_text(),
                        last_agent_message: ev.last_agent_message.as_deref().map(str::to_string),
                    };
                    self.terminal(rec, &ev, outcome);
                }
                Some("turn_aborted") if full => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    let outcome = Outcome::Aborted {
                        reason: ev.reason_text(),
                    };
                    self.terminal(rec, &ev, outcome);
                }
                Some("thread_rolled_back") if full => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    self.rollbacks
                        .push((rec.pos.line, ev.num_turns.unwrap_or(0)));
                }
                Some("agent_message") if full => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    if let Some(m) = ev.message {
                        self.agent(rec.pos.line, m.into_owned());
                    }
                }
                Some("item_completed") if full => self.item_completed(rec),
                _ => {}
            },
            Kind::ResponseItem => match rec.payload_type() {
                Some("message") => self.message(rec, session),
                Some(t) if full && model::is_call_type(t) => self.calls.push(rec.pos.line),
                _ => {}
            },
            Kind::TurnContext if full => {
                if let Ok(tc) = rec.parse_payload::<TurnContext<'_>>() {
                    self.settings.push(Settings {
                        line: rec.pos.line,
                        turn_id: tc.turn_id.as_deref().map(str::to_string),
                        model: tc.model.as_deref().map(str::to_string),
                        effort: tc.effort(),
                        cwd: tc.cwd.as_deref().map(str::to_string),
                        approval_policy: tc.approval_policy(),
                        sandbox: tc.sandbox(),
                    });
                }
            }
            _ => {}
        }
        if full && carries_usage(rec) {
            let line = rec.pos.line;
            self.usage
                .feed(rec, session.provenance(), session.own_id(), || line);
        }
        self.last = Some((rec.pos.line, rec.ordinal));
    }

    fn start(
        &mut self,
        rec: &Record<'_>,
        session: &SessionTracker,
        source: TurnSource,
        turn_id: Option<String>,
    ) {
        self.stretch += 1;
        self.starts.push(Start {
            source,
            line: rec.pos.line,
            ordinal: rec.ordinal,
            timestamp: rec.timestamp.to_string(),
            inherited: session.is_inherited(),
            prev: self.last,
            turn_id,
        });
    }

    fn user(&mut self, line: u64, text: Option<String>) {
        let stretch = self.stretch;
        match self.users.last_mut() {
            // One entry per stretch: the first text wins.
            Some(u) if u.stretch == stretch => {
                if u.text.is_none() {
                    u.text = text;
                }
            }
            _ => self.users.push(Text {
                stretch,
                line,
                text,
            }),
        }
    }

    fn agent(&mut self, line: u64, text: String) {
        let stretch = self.stretch;
        let entry = Text {
            stretch,
            line,
            text: Some(text),
        };
        match self.agents.last_mut() {
            // One entry per stretch: the last text wins.
            Some(a) if a.stretch == stretch => *a = entry,
            _ => self.agents.push(entry),
        }
    }

    fn terminal(&mut self, rec: &Record<'_>, ev: &TurnEvent<'_>, outcome: Outcome) {
        self.terminals.push(Terminal {
            line: rec.pos.line,
            timestamp: rec.timestamp.to_string(),
            turn_id: ev.turn_id(),
            duration_ms: ev.duration_ms,
            outcome,
        });
    }

    fn message(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        if self.detail == Detail::Count {
            if is_real_user_message(rec) {
                self.start(rec, session, TurnSource::UserResponseMessage, None);
            }
            return;
        }
        let Ok(m) = rec.parse_payload::<Message<'_>>() else {
            return;
        };
        if m.is_real_user_message() {
            self.start(rec, session, TurnSource::UserResponseMessage, None);
            self.user(rec.pos.line, join_texts(&m.texts()));
        } else if m.role.as_deref() == Some("assistant") {
            if let Some(t) = join_texts(&m.texts()) {
                self.agent(rec.pos.line, t);
            }
        }
    }

    fn item_completed(&mut self, rec: &Record<'_>) {
        let Ok(ic) = rec.parse_payload::<ItemCompleted<'_>>() else {
            return;
        };
        let Some(item) = ic.item() else { return };
        match item.type_.as_deref() {
            Some("UserMessage") => self.user(rec.pos.line, item.content_text()),
            Some("AgentMessage") => {
                if let Some(t) = item.content_text() {
                    self.agent(rec.pos.line, t);
                }
            }
            _ => {}
        }
    }

    /// How this file's writer marks turn starts.
    pub fn source(&self) -> TurnSource {
        if self
            .starts
            .iter()
            .any(|s| s.source == TurnSource::TaskStarted)
        {
            TurnSource::TaskStarted
        } else if self
            .starts
            .iter()
            .any(|s| s.source == TurnSource::UserMessageEvent)
        {
            TurnSource::UserMessageEvent
        } else {
            TurnSource::UserResponseMessage
        }
    }

    /// The starts of the turns, in file order.
    fn turn_starts(&self) -> Vec<Start> {
        let source = self.source();
        if source != TurnSource::UserMessageEvent {
            return self
                .starts
                .iter()
                .filter(|s| s.source == source)
                .cloned()
                .collect();
        }
        // A user_message event's turn starts at the real user response message written
        // just before it, if there is one since the previous event.
        let mut out: Vec<Start> = Vec::new();
        let mut pending: Option<&Start> = None;
        for s in &self.starts {
            match s.source {
                TurnSource::UserResponseMessage => pending = Some(s),
                TurnSource::UserMessageEvent => {
                    let at = pending.take().unwrap_or(s);
                    out.push(Start {
                        source: TurnSource::UserMessageEvent,
                        ..at.clone()
                    });
                }
                TurnSource::TaskStarted => {}
            }
        }
        out
    }

    /// The number of turns (what `turns` prints for the file).
    pub fn count(&self) -> u64 {
        let source = self.source();
        self.starts.iter().filter(|s| s.source == source).count() as u64
    }

    /// Cut the file into turns.
    pub fn finish(self) -> Turns {
        let starts = self.turn_starts();
        let source = self.source();
        let bounds: Vec<u64> = starts.iter().map(|s| s.line).collect();
        let turn_of = |line: u64| bounds.partition_point(|&b| b <= line).checked_sub(1);
        let n = starts.len();

        let mut turns: Vec<Building> = starts
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let end = match starts.get(i + 1) {
                    Some(next) => next.prev.unwrap_or((next.line.saturating_sub(1), None)),
                    None => self.last.unwrap_or((s.line, s.ordinal)),
                };
                Building {
                    start: s.clone(),
                    end,
                    settings: None,
                    complete: None,
                    aborted: None,
                    rolled_back: false,
                    user: false,
                    user_message: None,
                    last_agent: None,
                    tool_calls: 0,
                    tokens: Tokens::default(),
                }
            })
            .collect();

        let mut by_id: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, s) in starts.iter().enumerate() {
            if let Some(id) = &s.turn_id {
                by_id.entry(id.clone()).or_default().push(i);
            }
        }
        // The turn an event belongs to: the one its turn_id names (the latest that began
        // before the event, else the latest), else the one it falls in.
        let target = |id: Option<&str>, line: u64| -> Option<usize> {
            if let Some(ids) = id.and_then(|id| by_id.get(id)) {
                let before = ids.iter().rev().find(|&&i| starts[i].line <= line);
                return before.or(ids.last()).copied();
            }
            turn_of(line)
        };

        for s in self.settings {
            if let Some(i) = target(s.turn_id.as_deref(), s.line) {
                turns[i].settings = Some(s);
            }
        }
        for t in self.terminals {
            let Some(i) = target(t.turn_id.as_deref(), t.line) else {
                continue;
            };
            match t.outcome {
                Outcome::Complete { .. } => turns[i].complete = Some(t),
                Outcome::Aborted { .. } => turns[i].aborted = Some(t),
            }
        }
        for u in &self.users {
            if let Some(i) = turn_of(u.line) {
                turns[i].user = true;
                if turns[i].user_message.is_none() {
                    turns[i].user_message = u.text.clone();
                }
            }
        }
        for a in self.agents {
            if let Some(i) = turn_of(a.line) {
                turns[i].last_agent = a.text;
            }
        }
        for line in &self.calls {
            if let Some(i) = turn_of(*line) {
                turns[i].tool_calls += 1;
            }
        }
        for (line, t) in self.usage.finish() {
            if let Some(i) = turn_of(line) {
                turns[i].tokens += t;
            }
        }
        for (line, num) in self.rollbacks {
            roll_back(&mut turns, line, num);
        }

        let task_writer = source == TurnSource::TaskStarted;
        let rows = turns
            .into_iter()
            .enumerate()
            .map(|(i, b)| b.into_turn(i, i + 1 == n, task_writer))
            .collect();
        Turns {
            turns: rows,
            bounds,
        }
    }
}

/// Apply one `thread_rolled_back {num_turns}` at `line`: among the turns that began before
/// it and still stand, cut at the `num`-th user turn from the end and drop everything after.
fn roll_back(turns: &mut [Building], line: u64, num: u64) {
    if num == 0 {
        return;
    }
    let standing: Vec<usize> = (0..turns.len())
        .filter(|&i| turns[i].start.line < line && !turns[i].rolled_back)
        .collect();
    let users: Vec<usize> = standing
        .iter()
        .copied()
        .filter(|&i| turns[i].user)
        .collect();
    if users.is_empty() {
        return;
    }
    let k = usize::try_from(num).unwrap_or(usize::MAX).min(users.len());
    let cut = users[users.len() - k];
    for i in standing {
        if i >= cut {
            turns[i].rolled_back = true;
        }
    }
}

struct Building {
    start: Start,
    end: At,
    settings: Option<Settings>,
    complete: Option<Terminal>,
    aborted: Option<Terminal>,
    rolled_back: bool,
    user: bool,
    user_message: Option<String>,
    last_agent: Option<String>,
    tool_calls: u64,
    tokens: Tokens,
}

impl Building {
    fn into_turn(self, i: usize, last: bool, task_writer: bool) -> Turn {
        let settled = self.complete.as_ref().or(self.aborted.as_ref());
        let (mut status, reason, last_agent_message) = match settled.map(|t| &t.outcome) {
            Some(Outcome::Complete {
                error,
                last_agent_message,
            }) => (
                if error.is_some() {
                    TurnStatus::Failed
                } else {
                    TurnStatus::Completed
                },
                error.clone(),
                last_agent_message.clone().or(self.last_agent),
            ),
            Some(Outcome::Aborted { reason }) => {
                (TurnStatus::Aborted, reason.clone(), self.last_agent)
            }
            None => (
                if !task_writer {
                    TurnStatus::Unknown
                } else if last {
                    TurnStatus::Open
                } else {
                    TurnStatus::Stale
                },
                None,
                self.last_agent,
            ),
        };
        if self.rolled_back {
            status = TurnStatus::RolledBack;
        }
        let started_ms = time::parse_ms(&self.start.timestamp);
        let ended_at = settled.map(|t| t.timestamp.clone());
        let duration_ms = settled.and_then(|t| {
            t.duration_ms.or_else(|| {
                let end = time::parse_ms(&t.timestamp)?;
                u64::try_from(end - started_ms?).ok()
            })
        });
        let turn_id = self
            .start
            .turn_id
            .clone()
            .or_else(|| self.settings.as_ref().and_then(|s| s.turn_id.clone()));
        let s = self.settings;
        Turn {
            index: i as u64 + 1,
            turn_id,
            status,
            reason,
            started_at: Some(self.start.timestamp),
            ended_at,
            duration_ms,
            model: s.as_ref().and_then(|s| s.model.clone()),
            effort: s.as_ref().and_then(|s| s.effort.clone()),
            cwd: s.as_ref().and_then(|s| s.cwd.clone()),
            approval_policy: s.as_ref().and_then(|s| s.approval_policy.clone()),
            sandbox: s.as_ref().and_then(|s| s.sandbox.clone()),
            line_start: self.start.line,
            line_end: self.end.0.max(self.start.line),
            ordinal_start: self.start.ordinal,
            ordinal_end: self.end.1,
            user_message: self.user_message,
            last_agent_message,
            tool_calls: self.tool_calls,
            tokens: self.tokens,
            inherited: self.start.inherited,
        }
    }
}

/// The turns of one file, and where each begins.
#[derive(Debug, Clone, Default)]
pub struct Turns {
    pub turns: Vec<Turn>,
    bounds: Vec<u64>,
}

impl Turns {
    /// The index (into `turns`) of the turn a line falls in; `None` before the first turn.
    pub fn turn_of(&self, line: u64) -> Option<usize> {
        self.bounds.partition_point(|&b| b <= line).checked_sub(1)
    }
}

fn join_texts(texts: &[&str]) -> Option<String> {
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// A `response_item` user message that the user typed (not contextual scaffolding).
pub fn is_real_user_message(rec: &Record<'_>) -> bool {
    if rec.kind != Kind::ResponseItem || rec.payload_type() != Some("message") {
        return false;
    }
    // Cheap pre-filter before a full parse of the content.
    if memchr::memmem::find(rec.payload.get().as_bytes(), b"\"user\"").is_none() {
        return false;
    }
    rec.parse_payload::<Message<'_>>()
        .map(|m| m.is_real_user_message())
        .unwrap_or(false)
}

/// The `turns` reducer: one [`Turn`] per turn of the file.
#[derive(Debug, Default)]
pub struct TurnsReducer {
    log: TurnLog,
}

impl TurnsReducer {
    pub fn new() -> TurnsReducer {
        TurnsReducer::default()
    }
}

impl Reducer for TurnsReducer {
    type Output = Vec<Turn>;

    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        self.log.record(rec, session);
    }

    fn finish(self, _session: &SessionTracker, _info: &StreamInfo) -> Vec<Turn> {
        self.log.finish().turns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source;
    use crate::reduce::{reduce_stream, ReadOptions};

    fn turns(lines: &[&str]) -> Vec<Turn> {
        let text = lines.join("\n") + "\n";
        reduce_stream(
            text.as_bytes(),
            Source::Stdin,
            &ReadOptions::default(),
            TurnsReducer::new(),
        )
        .output
        .unwrap()
    }

    fn statuses(t: &[Turn]) -> Vec<&'static str> {
        t.iter().map(|t| t.status.as_str()).collect()
    }

    const META: &str =
        r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"s1"}}"#;

    fn ev(ts_s: u32, payload: &str) -> String {
        format!(
            r#"{{"timestamp":"2026-01-01T00:00:{ts_s:02}.000Z","type":"event_msg","payload":{payload}}}"#
        )
    }

    fn started(ts: u32, id: &str) -> String {
        ev(
            ts,
            &format!(r#"{{"type":"task_started","turn_id":"{id}"}}"#),
        )
    }

    fn complete(ts: u32, id: &str) -> String {
        ev(
            ts,
            &format!(
                r#"{{"type":"task_complete","turn_id":"{id}","last_agent_message":"done {id}"}}"#
            ),
        )
    }

    fn user_item(text: &str) -> String {
        format!(
            r#"{{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}}}"#
        )
    }

    fn user_event(text: &str) -> String {
        ev(
            0,
            &format!(r#"{{"type":"user_message","message":"{text}"}}"#),
        )
    }

    #[test]
    fn task_started_turns_complete_stale_and_open() {
        let t = turns(&[
            META,
            &started(1, "a"),
            &user_item("one"),
            &complete(3, "a"),
            &started(4, "b"),
            &user_item("two"),
            &started(6, "c"),
            &user_item("three"),
        ]);
        assert_eq!(statuses(&t), ["completed", "stale", "open"]);
        assert_eq!(t[0].line_start, 2);
        assert_eq!(t[0].line_end, 4);
        assert_eq!(t[0].duration_ms, Some(2000));
        assert_eq!(t[0].ended_at.as_deref(), Some("2026-01-01T00:00:03.000Z"));
        assert_eq!(t[0].user_message.as_deref(), Some("one"));
        assert_eq!(t[0].last_agent_message.as_deref(), Some("done a"));
        assert_eq!(t[2].line_end, 8);
        assert_eq!(t[1].ended_at, None);
    }

    #[test]
    fn failed_with_error_and_aborted_with_reason() {
        let t = turns(&[
            META,
            &started(1, "a"),
            &ev(
                2,
                r#"{"type":"task_complete","turn_id":"a","error":{"message":"boom"}}"#,
            ),
            &started(3, "b"),
            &ev(
                4,
                r#"{"type":"turn_aborted","turn_id":"b","reason":"interrupted","duration_ms":7}"#,
            ),
        ]);
        assert_eq!(statuses(&t), ["failed", "aborted"]);
        assert_eq!(t[0].reason.as_deref(), Some("boom"));
        assert_eq!(t[1].reason.as_deref(), Some("interrupted"));
        assert_eq!(t[1].duration_ms, Some(7));
    }

    #[test]
    fn abort_then_complete_for_the_same_turn_is_completed() {
        // Same-process recover: the complete comes after another turn began.
        let t = turns(&[
            META,
            &started(1, "a"),
            &ev(
                2,
                r#"{"type":"turn_aborted","turn_id":"a","reason":"interrupted"}"#,
            ),
            &started(3, "b"),
            &complete(4, "a"),
            &complete(5, "b"),
        ]);
        assert_eq!(statuses(&t), ["completed", "completed"]);
    }

    #[test]
    fn old_writers_start_turns_at_user_messages_and_prove_little() {
        // 0.36 order: the response item, then its user_message event.
        let t = turns(&[
            META,
            &user_item("<environment_context>x</environment_context>"),
            &user_item("one"),
            &user_event("one"),
            r#"{"timestamp":"t","type":"turn_context","payload":{"model":"m1","sandbox_policy":{"mode":"read-only"}}}"#,
            r#"{"timestamp":"t","type":"turn_context","payload":{"model":"m2","sandbox_policy":{"mode":"read-only"}}}"#,
            &user_item("two"),
            &user_event("two"),
            &ev(9, r#"{"type":"turn_aborted","reason":"interrupted"}"#),
            &user_item("three"),
            &user_event("three"),
        ]);
        assert_eq!(statuses(&t), ["unknown", "aborted", "unknown"]);
        assert_eq!(t[0].line_start, 3);
        assert_eq!(t[0].line_end, 6);
        assert_eq!(t[0].model.as_deref(), Some("m2"));
        assert_eq!(t[0].sandbox.as_deref(), Some("read-only"));
        assert_eq!(t[1].user_message.as_deref(), Some("two"));
    }

    #[test]
    fn files_without_events_use_real_user_response_messages() {
        let t = turns(&[META, &user_item("one"), &user_item("two")]);
        assert_eq!(statuses(&t), ["unknown", "unknown"]);
        let mut log = TurnLog::counting();
        let mut session = SessionTracker::new();
        for (i, l) in [META.to_string(), user_item("one"), user_item("two")]
            .iter()
            .enumerate()
        {
            let rec = crate::decode::decode_line(
                l.as_bytes(),
                crate::decode::Pos {
                    line: i as u64 + 1,
                    offset: 0,
                },
                true,
            )
            .unwrap();
            session.observe(&rec);
            log.record(&rec, &session);
        }
        assert_eq!(log.count(), 2);
    }

    #[test]
    fn rollback_markers_add_up() {
        let rb = ev(9, r#"{"type":"thread_rolled_back","num_turns":1}"#);
        let t = turns(&[
            META,
            &started(1, "a"),
            &user_item("one"),
            &complete(1, "a"),
            &started(2, "b"),
            &user_item("two"),
            &complete(2, "b"),
            &started(3, "c"),
            &user_item("three"),
            &complete(3, "c"),
            &rb,
            &rb,
            &started(4, "d"),
            &user_item("four"),
            &complete(4, "d"),
        ]);
        assert_eq!(
            statuses(&t),
            ["completed", "rolled_back", "rolled_back", "completed"]
        );
    }

    #[test]
    fn rollback_counts_user_turns_and_drops_what_follows_the_cut() {
        let t = turns(&[
            META,
            &started(1, "a"),
            &user_item("one"),
            &complete(1, "a"),
            &started(2, "b"),
            &user_item("two"),
            &complete(2, "b"),
            // A turn without a user message (a compaction turn, say).
            &started(3, "c"),
            &complete(3, "c"),
            &ev(9, r#"{"type":"thread_rolled_back","num_turns":1}"#),
        ]);
        assert_eq!(statuses(&t), ["completed", "rolled_back", "rolled_back"]);
        // More turns than there are: everything from the first user turn.
        let t = turns(&[
            META,
            &started(1, "a"),
            &user_item("one"),
            &ev(9, r#"{"type":"thread_rolled_back","num_turns":5}"#),
        ]);
        assert_eq!(statuses(&t), ["rolled_back"]);
    }

    #[test]
    fn usage_and_calls_are_counted_per_turn() {
        let tc = |total: u64, last: u64| {
            ev(
                5,
                &format!(
                    r#"{{"type":"token_count","info":{{"total_token_usage":{{"total_tokens":{total}}},"last_token_usage":{{"total_tokens":{last}}}}}}}"#
                ),
            )
        };
        let call = r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","call_id":"c","name":"x"}}"#;
        let t = turns(&[
            META,
            &started(1, "a"),
            call,
            call,
            &tc(10, 10),
            &tc(10, 10),
            &started(2, "b"),
            &tc(25, 15),
            r#"{"timestamp":"t","type":"turn_context","payload":{"turn_id":"a","model":"late"}}"#,
        ]);
        assert_eq!(t[0].tool_calls, 2);
        assert_eq!(t[0].tokens.total_tokens, 10);
        assert_eq!(t[1].tokens.total_tokens, 15);
        // A turn_context naming turn a goes to turn a, wherever it sits.
        assert_eq!(t[0].model.as_deref(), Some("late"));
        assert_eq!(t[1].model, None);
    }

    #[test]
    fn paginated_items_give_texts_and_ordinals() {
        let t = turns(&[
            r#"{"timestamp":"t","ordinal":0,"type":"session_meta","payload":{"id":"s"}}"#,
            r#"{"timestamp":"t","ordinal":1,"type":"event_msg","payload":{"type":"task_started","turn_attribution":{"turn_id":"x"}}}"#,
            r#"{"timestamp":"t","ordinal":2,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"hi"}]}}}"#,
            r#"{"timestamp":"t","ordinal":3,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":"hello"}]}}}"#,
        ]);
        assert_eq!(t[0].turn_id.as_deref(), Some("x"));
        assert_eq!(t[0].user_message.as_deref(), Some("hi"));
        assert_eq!(t[0].last_agent_message.as_deref(), Some("hello"));
        assert_eq!((t[0].ordinal_start, t[0].ordinal_end), (Some(1), Some(3)));
        assert_eq!(statuses(&t), ["open"]);
    }

    #[test]
    fn odd_payloads_never_panic() {
        let t = turns(&[
            META,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":7}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","error":null,"duration_ms":"x"}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":"many"}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","item":[1]}}"#,
            r#"{"timestamp":"t","type":"turn_context","payload":{"model":5}}"#,
        ]);
        assert_eq!(statuses(&t), ["completed"]);
        assert_eq!(t[0].turn_id, None);
    }
}
