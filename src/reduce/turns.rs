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
//!   (Codex's `drop_last_n_user_turns`), so consecutive markers add up. Only a `num_turns`
//!   Codex can decode (a `u32`) rolls back.
//! - `stale` / `open`: no terminal event in a file whose writer writes `task_started`: a
//!   later turn began (the writer died mid-turn), or it is the last turn.
//! - `unknown`: no terminal event in a file whose writer never wrote `task_started`: there
//!   the absence of a terminal event proves nothing.
//!
//! **Implicit first turn**: when a record proving activity (a real user message, a
//! `turn_context`, a tool call or output, an own usage increment) comes before the first
//! turn start (its line was lost), a turn begins there, so that every call and every own
//! usage increment belongs to a turn and `turns` always sums to `stats`.
//!
//! Terminal events and `turn_context`s go to the turn their `turn_id` names. An id that
//! names no turn goes to the turn the event falls in only when that turn has no id (old
//! writers); otherwise the event proves nothing about it and is ignored. Without an id, the
//! turn it falls in. Settings come from the turn's last `turn_context` (writers before
//! 0.128 wrote one per model request). Tokens are the session's own usage
//! ([`UsageAccount`], the same rules as `stats`) keyed by line, then summed per turn.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::decode::{select, Kind, Record, StreamInfo};
use crate::model::{self, RawContent, ToolOutcome, TurnContext, TurnEvent};
use crate::reduce::calls::server_search_output;
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

/// Where a record sits and what an implicit turn starting there would carry.
#[derive(Debug, Clone)]
struct Mark {
    line: u64,
    ordinal: Option<u64>,
    timestamp: String,
    inherited: bool,
}

impl Mark {
    fn of(rec: &Record<'_>, session: &SessionTracker) -> Mark {
        Mark {
            line: rec.pos.line,
            ordinal: rec.ordinal,
            timestamp: rec.timestamp.to_string(),
            inherited: session.is_inherited(),
        }
    }
}

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
    /// Turn bounds and ids, no texts, settings or outcomes: enough to place a line in its
    /// turn (`calls`). [`TurnLog::finish`] gives the same turns and ids as with `Full`.
    Ids,
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
    /// Valid `thread_rolled_back` markers: line and `num_turns`.
    rollbacks: Vec<(u64, u32)>,
    /// Evidence of a real user message (a user turn), with the first text per stretch.
    users: Vec<Text>,
    /// The last agent message per stretch.
    agents: Vec<Text>,
    /// Lines of call items.
    calls: Vec<u64>,
    /// `call_id`s of `tool_search_call` items.
    search_calls: HashSet<String>,
    /// Server-side `tool_search_output`s: line and `call_id`. Those naming no
    /// `tool_search_call` are calls of their own.
    server_searches: Vec<(u64, Option<String>)>,
    /// The first record other than usage that proves the session was active (a real user
    /// message, a `turn_context`, a tool call or output): an implicit turn begins there when
    /// it comes before the first turn start.
    first_activity: Option<Mark>,
    /// Usage-carrying records seen before any turn start or activity: where an implicit
    /// turn would begin if one of them adds usage.
    early_usage: Vec<Mark>,
    /// Own usage by line (full detail only: a counting log is handed the usage of its
    /// early lines by its owner, who accounts usage anyway; see [`TurnLog::count`]).
    usage: UsageAccount<u64>,
    last: Option<At>,
    /// A `task_started` has been seen: typed user messages no longer decide a count.
    task_started_seen: bool,
}

/// What `stats` needs from the segmentation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Turns: the rows of `turns`.
    pub turns: u64,
    /// Call rows of `calls` that are not orphans.
    pub tool_calls: u64,
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

    /// A log whose turns have their index and id right and nothing else (`calls`).
    pub fn placing() -> TurnLog {
        TurnLog::with_detail(Detail::Ids)
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
            search_calls: HashSet::new(),
            server_searches: Vec::new(),
            first_activity: None,
            early_usage: Vec::new(),
            usage: UsageAccount::new(),
            last: None,
            task_started_seen: false,
        }
    }

    /// Observe one record (after `session` has).
    pub fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        let full = self.detail == Detail::Full;
        let ids = self.detail != Detail::Count;
        match rec.kind {
            Kind::EventMsg => match rec.payload_type() {
                Some("task_started") => {
                    self.task_started_seen = true;
                    // Counting needs where turns start, not their ids.
                    let turn_id = if ids {
                        rec.parse_payload::<TurnEvent<'_>>()
                            .unwrap_or_default()
                            .turn_id()
                    } else {
                        None
                    };
                    self.start(rec, session, TurnSource::TaskStarted, turn_id);
                }
                Some("user_message") => {
                    self.active(rec, session);
                    self.start(rec, session, TurnSource::UserMessageEvent, None);
                    if full {
                        let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                        self.user(rec.pos.line, ev.message.map(|m| m.into_owned()));
                    }
                }
                Some("task_complete") if ids => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    let outcome = Outcome::Complete {
                        error: ev.error_text().filter(|_| full),
                        last_agent_message: ev
                            .last_agent_message
                            .as_deref()
                            .filter(|_| full)
                            .map(str::to_string),
                    };
                    self.terminal(rec, &ev, outcome);
                }
                Some("turn_aborted") if ids => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    let outcome = Outcome::Aborted {
                        reason: ev.reason_text().filter(|_| full),
                    };
                    self.terminal(rec, &ev, outcome);
                }
                Some("thread_rolled_back") if full => {
                    if let Some(n) = rollback_turns(rec) {
                        self.rollbacks.push((rec.pos.line, n));
                    }
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
                Some(t) if model::is_call_type(t) => {
                    self.active(rec, session);
                    self.calls.push(rec.pos.line);
                    if t == "tool_search_call" {
                        let item: model::ToolItem<'_> = rec.parse_payload().unwrap_or_default();
                        if let Some(id) = item.call_id {
                            self.search_calls.insert(id.into_owned());
                        }
                    }
                }
                Some(t) if model::is_output_type(t) => {
                    self.active(rec, session);
                    if let Some(call_id) = server_search_output(rec) {
                        self.server_searches.push((rec.pos.line, call_id));
                    }
                }
                _ => {}
            },
            Kind::TurnContext => {
                self.active(rec, session);
                if ids && !full {
                    // Only its turn id places anything.
                    self.settings.push(Settings {
                        line: rec.pos.line,
                        turn_id: rec
                            .payload_field("turn_id")
                            .and_then(select::str_value)
                            .map(|t| t.into_owned()),
                        model: None,
                        effort: None,
                        cwd: None,
                        approval_policy: None,
                        sandbox: None,
                    });
                } else if full {
                    if let Some(tc) = TurnContext::from_record(rec) {
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
            }
            _ => {}
        }
        if carries_usage(rec) {
            // Once a turn start or some activity has been seen, later usage can no longer
            // begin the implicit turn: counting keeps it under one key.
            let early = self.starts.is_empty() && self.first_activity.is_none();
            if early {
                self.early_usage.push(Mark::of(rec, session));
            }
            if ids {
                // Placing needs only the usage that may begin the implicit turn.
                let key = if full || early {
                    rec.pos.line
                } else {
                    u64::MAX
                };
                self.usage
                    .feed(rec, session.provenance(), session.own_id(), || key);
            }
        }
        self.last = Some((rec.pos.line, rec.ordinal));
    }

    /// Note a record that proves the session was active (the first one counts).
    fn active(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        if self.first_activity.is_none() {
            self.first_activity = Some(Mark::of(rec, session));
        }
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
        if self.detail != Detail::Full {
            // Once the writer marks turns with task_started, a typed message neither starts
            // a turn nor can be the first activity before the first one: skip the parse
            // (about a quarter of `stats`' time on a large tree).
            if self.task_started_seen {
                return;
            }
            if is_real_user_message(rec) {
                self.active(rec, session);
                self.start(rec, session, TurnSource::UserResponseMessage, None);
            }
            return;
        }
        // Only user and assistant messages shape turns: the others (developer
        // instructions, often large) are never parsed.
        let role = rec.payload_field("role").and_then(select::str_value);
        if !matches!(role.as_deref(), Some("user" | "assistant")) {
            return;
        }
        let content = RawContent::of(rec.payload_field("content"));
        if role.as_deref() == Some("user") {
            if content.is_real_user_message() {
                self.active(rec, session);
                self.start(rec, session, TurnSource::UserResponseMessage, None);
                self.user(rec.pos.line, content.joined());
            }
        } else if let Some(t) = content.joined() {
            self.agent(rec.pos.line, t);
        }
    }

    fn item_completed(&mut self, rec: &Record<'_>) {
        // Only message items matter here: the item's type is looked up first, and the
        // (often large) tool items are never parsed.
        let Some(item) = rec.payload_field("item") else {
            return;
        };
        let kind = select::fields(item, ["type"])
            .and_then(|[t]| t)
            .and_then(select::str_value);
        if !matches!(kind.as_deref(), Some("UserMessage" | "AgentMessage")) {
            return;
        }
        let Ok(item) = serde_json::from_str::<ToolOutcome<'_>>(item) else {
            return;
        };
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

    /// Lines of the calls that are rows of `calls` (orphans aside): call items, and
    /// server-side `tool_search_output`s naming no `tool_search_call` (a server search
    /// writes its result without a call; Codex's `remove_orphan_outputs` keeps it).
    fn call_lines(&self) -> impl Iterator<Item = u64> + '_ {
        let own = self
            .server_searches
            .iter()
            .filter(|(_, id)| id.as_ref().is_none_or(|id| !self.search_calls.contains(id)))
            .map(|(line, _)| *line);
        self.calls.iter().copied().chain(own)
    }

    /// The implicit first turn: when a record proving activity (`first_activity`, or the
    /// first own usage increment) comes before the first turn start (at `first`), a turn
    /// begins there, so that every call and every own usage increment belongs to a turn.
    fn implicit_start(&self, first: Option<u64>, usage: &BTreeMap<u64, Tokens>) -> Option<Start> {
        // The first line that adds usage; only one seen before any start or activity can
        // come first (see `record`).
        let first_usage = usage
            .iter()
            .find(|(_, t)| !t.is_zero())
            .and_then(|(&line, _)| {
                let i = self
                    .early_usage
                    .binary_search_by_key(&line, |m| m.line)
                    .ok()?;
                Some(&self.early_usage[i])
            });
        let first = first.unwrap_or(u64::MAX);
        let m = [self.first_activity.as_ref(), first_usage]
            .into_iter()
            .flatten()
            .filter(|m| m.line < first)
            .min_by_key(|m| m.line)?;
        Some(Start {
            source: self.source(),
            line: m.line,
            ordinal: m.ordinal,
            timestamp: m.timestamp.clone(),
            inherited: m.inherited,
            prev: None,
            turn_id: None,
        })
    }

    /// The line of the first turn start and the number of turn starts, without building
    /// them (what [`TurnLog::turn_starts`] would give).
    fn first_start(&self) -> (Option<u64>, u64) {
        let source = self.source();
        let mut of_source = self.starts.iter().filter(|s| s.source == source);
        let Some(first) = of_source.next() else {
            return (None, 0);
        };
        let n = 1 + of_source.count() as u64;
        if source != TurnSource::UserMessageEvent {
            return (Some(first.line), n);
        }
        // The first event's turn starts at the real user response message just before it.
        let pending = self
            .starts
            .iter()
            .take_while(|s| s.source != TurnSource::UserMessageEvent)
            .filter(|s| s.source == TurnSource::UserResponseMessage)
            .last();
        (Some(pending.unwrap_or(first).line), n)
    }

    /// Whether the usage-carrying record just recorded at `line` came before any turn
    /// start or activity: only such a record's usage can begin the implicit first turn.
    /// A counting log's owner keys that record's usage by its line for [`TurnLog::count`].
    pub fn is_early_usage(&self, line: u64) -> bool {
        self.early_usage.last().is_some_and(|m| m.line == line)
    }

    /// The number of turns (what `turns` prints for the file) and of call rows.
    /// `early_usage`: the file's own usage (as [`UsageAccount::finish`] gives it) of the
    /// records [`TurnLog::is_early_usage`] named, by line; other lines may be absent.
    pub fn count(self, early_usage: &BTreeMap<u64, Tokens>) -> Counts {
        let tool_calls = self.call_lines().count() as u64;
        let (first, n) = self.first_start();
        let implicit = self.implicit_start(first, early_usage).is_some();
        Counts {
            turns: n + u64::from(implicit),
            tool_calls,
        }
    }

    /// Cut the file into turns.
    pub fn finish(mut self) -> Turns {
        let call_lines: Vec<u64> = self.call_lines().collect();
        let usage = std::mem::take(&mut self.usage).finish();
        let mut starts = self.turn_starts();
        if let Some(s) = self.implicit_start(starts.first().map(|s| s.line), &usage) {
            starts.insert(0, s);
        }
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
                    turn_id: s.turn_id.clone(),
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

        // A turn whose start carries no id (an implicit turn, a start with a mistyped id)
        // takes the id of the first turn_context, else terminal event, that falls in it and
        // names no started turn.
        let started: HashSet<&str> = starts.iter().filter_map(|s| s.turn_id.as_deref()).collect();
        let named = self
            .settings
            .iter()
            .map(|s| (s.turn_id.as_deref(), s.line))
            .chain(
                self.terminals
                    .iter()
                    .map(|t| (t.turn_id.as_deref(), t.line)),
            );
        for (id, line) in named {
            let (Some(id), Some(i)) = (id, turn_of(line)) else {
                continue;
            };
            if turns[i].turn_id.is_none() && !started.contains(id) {
                turns[i].turn_id = Some(id.to_string());
            }
        }
        let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in turns.iter().enumerate() {
            if let Some(id) = t.turn_id.as_deref() {
                by_id.entry(id).or_default().push(i);
            }
        }
        // The turn an event belongs to. With a turn_id: the turn of that id (the latest that
        // began at or before the event, else the first). An id that names no turn goes to
        // the turn the event falls in only when that turn has no id of its own (old
        // writers); otherwise it proves nothing about that turn and is ignored. Without a
        // turn_id: the turn it falls in.
        let target = |id: Option<&str>, line: u64| -> Option<usize> {
            let Some(id) = id else {
                return turn_of(line);
            };
            match by_id.get(id) {
                Some(ids) => {
                    let k = ids.partition_point(|&i| starts[i].line <= line);
                    Some(ids[k.saturating_sub(1)])
                }
                None => turn_of(line).filter(|&i| turns[i].turn_id.is_none()),
            }
        };
        let mut settings: Vec<(usize, Settings)> = Vec::new();
        for s in self.settings {
            if let Some(i) = target(s.turn_id.as_deref(), s.line) {
                settings.push((i, s));
            }
        }
        let mut terminals: Vec<(usize, Terminal)> = Vec::new();
        for t in self.terminals {
            if let Some(i) = target(t.turn_id.as_deref(), t.line) {
                terminals.push((i, t));
            }
        }
        drop(by_id);
        for (i, s) in settings {
            turns[i].settings = Some(s);
        }
        for (i, t) in terminals {
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
        for line in call_lines {
            if let Some(i) = turn_of(line) {
                turns[i].tool_calls += 1;
            }
        }
        for (line, t) in usage {
            if let Some(i) = turn_of(line) {
                turns[i].tokens += t;
            }
        }
        roll_back(&mut turns, &self.rollbacks);

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

/// `thread_rolled_back.num_turns` as Codex decodes it: a `u32`. Anything else (a string,
/// a fraction, a negative or larger number, no field) fails to decode the whole line in
/// Codex, so the marker rolls nothing back.
fn rollback_turns(rec: &Record<'_>) -> Option<u32> {
    #[derive(Deserialize)]
    struct Rollback<'a> {
        #[serde(borrow)]
        num_turns: Option<&'a RawValue>,
    }
    let r: Rollback<'_> = rec.parse_payload().ok()?;
    serde_json::from_str::<u32>(r.num_turns?.get()).ok()
}

/// Apply the `thread_rolled_back {num_turns}` markers in file order (Codex's
/// `drop_last_n_user_turns`): among the turns that began before a marker and still stand,
/// cut at the `num`-th user turn from the end and drop everything from there.
///
/// The standing turns form a stack (a marker only ever drops a suffix of them), so each turn
/// is pushed and dropped at most once: linear in turns plus markers.
fn roll_back(turns: &mut [Building], rollbacks: &[(u64, u32)]) {
    // Standing turns, in order, and the positions in `standing` of the user turns.
    let mut standing: Vec<usize> = Vec::new();
    let mut users: Vec<usize> = Vec::new();
    let mut next = 0;
    for &(line, num) in rollbacks {
        while next < turns.len() && turns[next].start.line < line {
            if turns[next].user {
                users.push(standing.len());
            }
            standing.push(next);
            next += 1;
        }
        if num == 0 || users.is_empty() {
            continue;
        }
        let k = usize::try_from(num).unwrap_or(usize::MAX).min(users.len());
        let cut = users[users.len() - k];
        for &i in &standing[cut..] {
            turns[i].rolled_back = true;
        }
        standing.truncate(cut);
        users.truncate(users.len() - k);
    }
}

struct Building {
    start: Start,
    /// The start's turn id, else the one the turn's records give it.
    turn_id: Option<String>,
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
        let turn_id = self.turn_id;
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

/// A `response_item` user message that the user typed (not contextual scaffolding).
pub fn is_real_user_message(rec: &Record<'_>) -> bool {
    if rec.kind != Kind::ResponseItem || rec.payload_type() != Some("message") {
        return false;
    }
    // Only a `role: user` message needs its content parsed; the role is looked up in the
    // record's member index (escapes resolved, the last of a repeated key winning, as in
    // the full parse).
    let role = rec.payload_field("role").and_then(select::str_value);
    if role.as_deref() != Some("user") {
        return false;
    }
    RawContent::of(rec.payload_field("content")).is_real_user_message()
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

    /// A reducer over a [`TurnLog`] of a chosen detail, giving each turn's place.
    struct Places(TurnLog);

    impl Reducer for Places {
        type Output = Vec<(u64, u64, Option<String>)>;
        fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
            self.0.record(rec, session);
        }
        fn finish(self, _: &SessionTracker, _: &StreamInfo) -> Self::Output {
            let t = self.0.finish();
            t.turns
                .into_iter()
                .map(|t| (t.index, t.line_start, t.turn_id))
                .collect()
        }
    }

    #[test]
    fn a_placing_log_places_turns_as_the_full_log_does() {
        // Every testdata file, and each with one line cut out (a lost task_started, a
        // lost turn_context...): the same turns, starts and ids.
        let mut files = 0;
        for path in crate::testdata::jsonl_files("") {
            let text = std::fs::read(&path).unwrap();
            let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
            for cut in std::iter::once(usize::MAX).chain(0..lines.len().min(40)) {
                let input: Vec<u8> = lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != cut)
                    .flat_map(|(_, l)| l.iter().copied().chain([b'\n']))
                    .collect();
                let run = |log: TurnLog| {
                    let opts = ReadOptions::default();
                    reduce_stream(&input[..], Source::Stdin, &opts, Places(log)).output
                };
                let (full, placing) = (run(TurnLog::new()), run(TurnLog::placing()));
                assert_eq!(full, placing, "{} without line {cut}", path.display());
            }
            files += 1;
        }
        assert!(files > 10);
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
        assert_eq!(
            count(&[META, &user_item("one"), &user_item("two")]).turns,
            2
        );
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

    /// What `stats` counts: a counting log, handed the usage of its early lines as the
    /// stats reducer hands it.
    fn count(lines: &[&str]) -> Counts {
        let text = lines.join("\n") + "\n";
        let mut log = TurnLog::counting();
        let mut usage: UsageAccount<Option<u64>> = UsageAccount::new();
        let mut session = SessionTracker::new();
        for (i, l) in text.lines().enumerate() {
            let rec = crate::decode::decode_line(
                l.as_bytes(),
                crate::decode::Pos {
                    line: i as u64 + 1,
                    offset: 0,
                },
            )
            .unwrap();
            session.observe(&rec);
            log.record(&rec, &session);
            if carries_usage(&rec) {
                let early = log.is_early_usage(rec.pos.line).then_some(rec.pos.line);
                usage.feed(&rec, session.provenance(), session.own_id(), || early);
            }
        }
        let early: BTreeMap<u64, Tokens> = usage
            .finish()
            .into_iter()
            .filter_map(|(line, t)| Some((line?, t)))
            .collect();
        log.count(&early)
    }

    fn token_count(ts: u32, total: u64, last: u64) -> String {
        ev(
            ts,
            &format!(
                r#"{{"type":"token_count","info":{{"total_token_usage":{{"total_tokens":{total}}},"last_token_usage":{{"total_tokens":{last}}}}}}}"#
            ),
        )
    }

    fn turn_context(id: &str, model: &str) -> String {
        format!(
            r#"{{"timestamp":"2026-01-01T00:00:00.000Z","type":"turn_context","payload":{{"turn_id":"{id}","model":"{model}"}}}}"#
        )
    }

    #[test]
    fn an_event_naming_no_turn_proves_nothing_about_a_turn_with_an_id() {
        // The reviewer's ghost: a task_complete for a turn the file never started.
        let t = turns(&[
            META,
            &started(1, "t1"),
            &ev(
                2,
                r#"{"type":"turn_aborted","turn_id":"t1","reason":"interrupted"}"#,
            ),
            &complete(3, "ghost"),
            &turn_context("ghost", "other"),
        ]);
        assert_eq!(statuses(&t), ["aborted"]);
        assert_eq!(t[0].reason.as_deref(), Some("interrupted"));
        assert_eq!(t[0].turn_id.as_deref(), Some("t1"));
        assert_eq!(t[0].ended_at.as_deref(), Some("2026-01-01T00:00:02.000Z"));
        // Nor do its settings come from a turn_context of another id.
        assert_eq!(t[0].model, None);

        // Same-process recover still works for the same id.
        let t = turns(&[
            META,
            &started(1, "t1"),
            &ev(2, r#"{"type":"turn_aborted","turn_id":"t1"}"#),
            &complete(3, "t1"),
        ]);
        assert_eq!(statuses(&t), ["completed"]);

        // A turn without an id of its own (old writers) takes what falls in it.
        let t = turns(&[
            META,
            &user_item("one"),
            &user_event("one"),
            &ev(2, r#"{"type":"turn_aborted","reason":"interrupted"}"#),
            &complete(3, "x"),
        ]);
        assert_eq!(statuses(&t), ["completed"]);
        assert_eq!(t[0].reason, None);
    }

    #[test]
    fn rollback_needs_a_u32_num_turns() {
        let file = |num: &str| {
            let rb = ev(
                9,
                &format!(r#"{{"type":"thread_rolled_back","num_turns":{num}}}"#),
            );
            let t = turns(&[
                META,
                &started(1, "a"),
                &user_item("one"),
                &complete(1, "a"),
                &started(2, "b"),
                &user_item("two"),
                &complete(2, "b"),
                &rb,
            ]);
            statuses(&t)
        };
        // Codex decodes num_turns as u32: anything else fails the line, nothing is dropped.
        for bad in [
            r#""1""#,
            "1.5",
            "1.0",
            "1e0",
            "-1",
            "4294967296",
            "18446744073709551615",
            "null",
            "[1]",
        ] {
            assert_eq!(file(bad), ["completed", "completed"], "{bad}");
        }
        assert_eq!(file("0"), ["completed", "completed"]);
        assert_eq!(file("1"), ["completed", "rolled_back"]);
        assert_eq!(file("4294967295"), ["rolled_back", "rolled_back"]);
        // No num_turns at all: the line does not decode either.
        let t = turns(&[
            META,
            &started(1, "a"),
            &user_item("one"),
            &ev(9, r#"{"type":"thread_rolled_back"}"#),
        ]);
        assert_eq!(statuses(&t), ["open"]);
    }

    /// `roll_back` against the plain definition (each marker recomputes the standing turns
    /// and cuts at its `num`-th user turn from the end), on many generated files.
    #[test]
    fn the_linear_rollback_matches_the_definition() {
        fn naive(user: &[bool], starts: &[u64], markers: &[(u64, u32)]) -> Vec<bool> {
            let mut rolled = vec![false; user.len()];
            for &(line, num) in markers {
                let standing: Vec<usize> = (0..user.len())
                    .filter(|&i| starts[i] < line && !rolled[i])
                    .collect();
                let users: Vec<usize> = standing.iter().copied().filter(|&i| user[i]).collect();
                if num == 0 || users.is_empty() {
                    continue;
                }
                let k = (num as usize).min(users.len());
                let cut = users[users.len() - k];
                for i in standing {
                    if i >= cut {
                        rolled[i] = true;
                    }
                }
            }
            rolled
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..500 {
            let (mut user, mut starts, mut markers) = (Vec::new(), Vec::new(), Vec::new());
            let mut line = 1;
            for _ in 0..rand(12) {
                line += 1;
                if rand(3) == 0 {
                    markers.push((line, rand(4) as u32));
                } else {
                    starts.push(line);
                    user.push(rand(4) != 0);
                }
            }
            let mut b: Vec<Building> = starts
                .iter()
                .zip(&user)
                .map(|(&line, &user)| Building {
                    start: Start {
                        source: TurnSource::TaskStarted,
                        line,
                        ordinal: None,
                        timestamp: String::new(),
                        inherited: false,
                        prev: None,
                        turn_id: None,
                    },
                    turn_id: None,
                    end: (line, None),
                    settings: None,
                    complete: None,
                    aborted: None,
                    rolled_back: false,
                    user,
                    user_message: None,
                    last_agent: None,
                    tool_calls: 0,
                    tokens: Tokens::default(),
                })
                .collect();
            roll_back(&mut b, &markers);
            let got: Vec<bool> = b.iter().map(|b| b.rolled_back).collect();
            assert_eq!(
                got,
                naive(&user, &starts, &markers),
                "{starts:?} {user:?} {markers:?}"
            );
        }
    }

    #[test]
    fn an_escaped_user_role_is_a_user_message_for_every_command() {
        let escaped = r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"\u0075ser","content":[{"type":"input_text","text":"hello"}]}}"#;
        let lines = [META, escaped, &user_item("again")];
        let t = turns(&lines);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].user_message.as_deref(), Some("hello"));
        assert_eq!(count(&lines).turns, 2);
    }

    #[test]
    fn activity_before_the_first_start_begins_an_implicit_turn() {
        // A file whose first task_started line was lost: its turn_context, a call and its
        // usage come before the first start that survived.
        let call = r#"{"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call","call_id":"c","name":"x"}}"#;
        let lines = [
            META,
            &turn_context("t1", "m1"),
            &user_item("one"),
            call,
            &token_count(3, 10, 10),
            &started(4, "t2"),
            &user_item("two"),
            &token_count(5, 15, 5),
            &complete(6, "t2"),
        ];
        let t = turns(&lines);
        assert_eq!(statuses(&t), ["stale", "completed"]);
        assert_eq!(t[0].turn_id.as_deref(), Some("t1"));
        assert_eq!(t[0].line_start, 2);
        assert_eq!(t[0].line_end, 5);
        assert_eq!(t[0].model.as_deref(), Some("m1"));
        assert_eq!(t[0].user_message.as_deref(), Some("one"));
        assert_eq!((t[0].tool_calls, t[0].tokens.total_tokens), (1, 10));
        assert_eq!(t[1].tokens.total_tokens, 5);
        assert_eq!(
            count(&lines),
            Counts {
                turns: 2,
                tool_calls: 1
            }
        );

        // Its missing start proves nothing about the outcome: terminal events decide.
        let t = turns(&[
            META,
            &turn_context("t1", "m1"),
            &ev(
                2,
                r#"{"type":"turn_aborted","turn_id":"t1","reason":"interrupted"}"#,
            ),
            &started(4, "t2"),
            &complete(6, "t2"),
            &complete(7, "t1"),
        ]);
        assert_eq!(statuses(&t), ["completed", "completed"]);
        assert_eq!(t[0].turn_id.as_deref(), Some("t1"));

        // Usage alone begins it too; usage first, then a later turn_context.
        let lines = [
            META,
            &token_count(1, 7, 7),
            &turn_context("t1", "m1"),
            &started(4, "t2"),
        ];
        let t = turns(&lines);
        assert_eq!(statuses(&t), ["stale", "open"]);
        assert_eq!((t[0].line_start, t[0].tokens.total_tokens), (2, 7));
        assert_eq!(count(&lines).turns, 2);

        // Scaffolding and re-emitted usage prove nothing: no implicit turn.
        let lines = [
            META,
            &user_item("<environment_context>x</environment_context>"),
            &token_count(1, 0, 0),
            &started(4, "t2"),
        ];
        assert_eq!(statuses(&turns(&lines)), ["open"]);
        assert_eq!(count(&lines).turns, 1);
    }

    #[test]
    fn a_file_with_usage_but_no_turn_start_has_one_implicit_turn() {
        let lines = [META, &token_count(1, 10, 10), &token_count(2, 25, 15)];
        let t = turns(&lines);
        assert_eq!(statuses(&t), ["unknown"]);
        assert_eq!(t[0].tokens.total_tokens, 25);
        assert_eq!(t[0].line_start, 2);
        assert_eq!(count(&lines).turns, 1);
        // Nothing at all: no turn.
        assert!(turns(&[META]).is_empty());
        assert_eq!(count(&[META]).turns, 0);
    }

    #[test]
    fn a_server_tool_search_without_call_counts_as_a_call() {
        let search = |exec: &str, id: &str| {
            format!(
                r#"{{"timestamp":"t","type":"response_item","payload":{{"type":"tool_search_output","call_id":"{id}","execution":"{exec}","tools":[]}}}}"#
            )
        };
        let call = r#"{"timestamp":"t","type":"response_item","payload":{"type":"tool_search_call","call_id":"paired","execution":"server"}}"#;
        let lines = [
            META,
            &started(1, "a"),
            &search("server", "alone"),
            call,
            &search("server", "paired"),
            // A client output without call is an orphan, not a call.
            &search("client", "lost"),
        ];
        let t = turns(&lines);
        assert_eq!(t[0].tool_calls, 2);
        assert_eq!(count(&lines).tool_calls, 2);
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
