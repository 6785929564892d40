//! The record side of the turn segmentation: what can begin, settle or drop a turn.

use std::collections::HashSet;

use crate::analysis::session::SessionTracker;
use crate::analysis::tokens::carries_usage;
use crate::analysis::turns::{rollback, Detail, TurnSource};
use crate::analysis::Fold;
use crate::decode::{select, Kind, Record};
use crate::model::{self, RawContent, ToolOutcome, TurnContext, TurnEvent};

/// A line's position: line number and ordinal.
pub(super) type At = (u64, Option<u64>);

/// Where a record sits and what an implicit turn starting there would carry.
#[derive(Debug, Clone)]
pub(super) struct Mark {
    pub(super) line: u64,
    /// Where its line starts in the decoded stream.
    pub(super) offset: u64,
    pub(super) ordinal: Option<u64>,
    pub(super) timestamp: String,
    pub(super) inherited: bool,
}

impl Mark {
    fn of(rec: &Record<'_>, session: &SessionTracker) -> Mark {
        Mark {
            line: rec.pos.line,
            offset: rec.pos.offset,
            ordinal: rec.ordinal,
            timestamp: rec.timestamp.to_string(),
            inherited: session.is_inherited(),
        }
    }
}

#[derive(Debug, Clone)]
pub(super) struct Start {
    pub(super) source: TurnSource,
    pub(super) line: u64,
    /// Where its line starts in the decoded stream.
    pub(super) offset: u64,
    pub(super) ordinal: Option<u64>,
    pub(super) timestamp: String,
    pub(super) inherited: bool,
    /// The record before this one (it ends the previous turn).
    pub(super) prev: Option<At>,
    pub(super) turn_id: Option<String>,
}

#[derive(Debug)]
pub(super) struct Settings {
    pub(super) line: u64,
    /// Where its line starts in the decoded stream.
    pub(super) offset: u64,
    pub(super) turn_id: Option<String>,
    pub(super) model: Option<String>,
    pub(super) effort: Option<String>,
    pub(super) cwd: Option<String>,
    pub(super) approval_policy: Option<String>,
    pub(super) sandbox: Option<String>,
}

#[derive(Debug, Clone)]
pub(super) enum Outcome {
    Complete {
        error: Option<String>,
        last_agent_message: Option<String>,
    },
    Aborted {
        reason: Option<String>,
    },
}

#[derive(Debug, Clone)]
pub(super) struct Terminal {
    pub(super) line: u64,
    /// Where its line starts in the decoded stream.
    pub(super) offset: u64,
    pub(super) timestamp: String,
    pub(super) turn_id: Option<String>,
    pub(super) duration_ms: Option<u64>,
    pub(super) outcome: Outcome,
}

/// A piece of text tied to a line, deduplicated per stretch between candidate starts.
#[derive(Debug)]
pub(super) struct Text {
    pub(super) stretch: u64,
    pub(super) line: u64,
    pub(super) text: Option<String>,
}

/// The shared turn segmentation, record side: what can begin, settle or drop a turn, kept
/// compactly. [`TurnLog::count`] or [`TurnLog::finish`] (`segment.rs`) cut the file into
/// turns at the end.
#[derive(Debug)]
pub struct TurnLog {
    pub(super) detail: Detail,
    pub(super) starts: Vec<Start>,
    /// Counts candidate starts: texts keep one entry per stretch between two of them.
    pub(super) stretch: u64,
    pub(super) settings: Vec<Settings>,
    pub(super) terminals: Vec<Terminal>,
    /// Valid `thread_rolled_back` markers: line and `num_turns`.
    pub(super) rollbacks: Vec<(u64, u32)>,
    /// Evidence of a real user message (a user turn), with the first text per stretch.
    pub(super) users: Vec<Text>,
    /// The last agent message per stretch.
    pub(super) agents: Vec<Text>,
    /// Lines of call items.
    pub(super) calls: Vec<u64>,
    /// `call_id`s of `tool_search_call` items.
    pub(super) search_calls: HashSet<String>,
    /// Server-side `tool_search_output`s: line and `call_id`. Those naming no
    /// `tool_search_call` are calls of their own.
    pub(super) server_searches: Vec<(u64, Option<String>)>,
    /// The first record other than usage that proves the session was active (a real user
    /// message, a `turn_context`, a tool call or output): an implicit turn begins there when
    /// it comes before the first turn start.
    pub(super) first_activity: Option<Mark>,
    /// Usage-carrying records seen before any turn start or activity: where an implicit
    /// turn would begin if one of them adds usage.
    pub(super) early_usage: Vec<Mark>,
    pub(super) last: Option<At>,
    /// A `task_started` has been seen: typed user messages no longer decide a count.
    pub(super) task_started_seen: bool,
}

impl TurnLog {
    /// A log that keeps what `detail` needs.
    pub fn new(detail: Detail) -> TurnLog {
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
            last: None,
            task_started_seen: false,
        }
    }

    pub fn detail(&self) -> Detail {
        self.detail
    }

    /// Whether the segmentation needs the usage of every line ([`TurnLog::finish`] sums it
    /// per turn), or only of the lines [`TurnLog::is_early_usage`] names.
    pub fn keeps_usage_by_line(&self) -> bool {
        self.detail == Detail::Full
    }

    /// Whether the usage-carrying record just observed at `line` came before any turn
    /// start or activity: only such a record's usage can begin the implicit first turn.
    pub fn is_early_usage(&self, line: u64) -> bool {
        self.early_usage.last().is_some_and(|m| m.line == line)
    }

    fn observe(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        let full = self.detail == Detail::Full;
        let statuses = self.detail >= Detail::Status;
        let ids = self.detail != Detail::Count;
        match rec.kind {
            Kind::EventMsg => match rec.payload_type() {
                Some("task_started") => {
                    self.task_started_seen = true;
                    // Counting needs where turns start, not their ids.
                    let turn_id = if ids { started_turn_id(rec) } else { None };
                    self.start(rec, session, TurnSource::TaskStarted, turn_id);
                }
                Some("user_message") => {
                    self.active(rec, session);
                    self.start(rec, session, TurnSource::UserMessageEvent, None);
                    if full {
                        let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                        self.user(rec.pos.line, ev.message().map(|m| m.into_owned()));
                    } else if statuses {
                        // A user turn, for rollbacks; its text is not asked for.
                        self.user(rec.pos.line, None);
                    }
                }
                Some("task_complete") if ids => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    let outcome = Outcome::Complete {
                        error: ev.error_text().filter(|_| statuses),
                        last_agent_message: full
                            .then(|| ev.last_agent_message())
                            .flatten()
                            .map(|m| m.into_owned()),
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
                Some("thread_rolled_back") if statuses => {
                    if let Some(n) = rollback::marker(rec) {
                        self.rollbacks.push((rec.pos.line, n));
                    }
                }
                Some("agent_message") if full => {
                    let ev: TurnEvent<'_> = rec.parse_payload().unwrap_or_default();
                    if let Some(m) = ev.message() {
                        self.agent(rec.pos.line, m.into_owned());
                    }
                }
                Some("item_completed") if statuses => self.item_completed(rec),
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
                    if let Some(call_id) = model::server_search_output(rec) {
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
                        offset: rec.pos.offset,
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
                    let tc = TurnContext::from_record(rec);
                    self.settings.push(Settings {
                        line: rec.pos.line,
                        offset: rec.pos.offset,
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
        if carries_usage(rec) {
            // Once a turn start or some activity has been seen, later usage can no longer
            // begin the implicit turn.
            let early = self.starts.is_empty() && self.first_activity.is_none();
            if early {
                self.early_usage.push(Mark::of(rec, session));
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
            offset: rec.pos.offset,
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
            offset: rec.pos.offset,
            timestamp: rec.timestamp.to_string(),
            turn_id: ev.turn_id(),
            duration_ms: ev.duration_ms,
            outcome,
        });
    }

    fn message(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        if self.detail < Detail::Status {
            // Once the writer marks turns with task_started, a typed message neither starts
            // a turn nor can be the first activity before the first one: skip the parse,
            // which was the largest cost of counting turns.
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
        let full = self.detail == Detail::Full;
        // Statuses need the user turns only; texts, the agents' too.
        let wanted = match role.as_deref() {
            Some("user") => true,
            Some("assistant") => full,
            _ => false,
        };
        if !wanted {
            return;
        }
        let content = RawContent::of(rec.payload_field("content"));
        if role.as_deref() == Some("user") {
            if rec.judged_user_message(|| content.is_real_user_message()) {
                self.active(rec, session);
                self.start(rec, session, TurnSource::UserResponseMessage, None);
                self.user(rec.pos.line, if full { content.joined() } else { None });
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
        if self.detail != Detail::Full {
            // A user turn, for rollbacks; no text is asked for.
            if kind.as_deref() == Some("UserMessage") {
                self.user(rec.pos.line, None);
            }
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
}

impl Fold for TurnLog {
    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        self.observe(rec, session);
    }
}

/// The turn a `task_started` begins: its top-level `turn_id`, else the full parse (0.171
/// nests it in `turn_attribution`). The one reading of it for the turn segmentation and
/// the replay's state.
pub fn started_turn_id(rec: &Record<'_>) -> Option<String> {
    match rec.payload_field("turn_id").and_then(select::str_value) {
        Some(id) => Some(id.into_owned()),
        None => rec
            .parse_payload::<TurnEvent<'_>>()
            .unwrap_or_default()
            .turn_id(),
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
    rec.judged_user_message(|| RawContent::of(rec.payload_field("content")).is_real_user_message())
}
