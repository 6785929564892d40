//! Cutting a file into turns, once its records are all seen: where each turn begins and
//! ends, which events settle it, what it holds.

use std::collections::{HashMap, HashSet};

use crate::analysis::tokens::Tokens;
use crate::analysis::turns::log::{At, Outcome, Settings, Start, Terminal, TurnLog};
use crate::analysis::turns::{
    rollback, IdEvent, IdMismatch, Turn, TurnCounts, TurnSource, TurnStatus, Turns,
};
use crate::time;

impl TurnLog {
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
    fn implicit_start(&self, first: Option<u64>, usage: &[(u64, Tokens)]) -> Option<Start> {
        // The first line that adds usage; only one seen before any start or activity can
        // come first (see `record`).
        let first_usage = usage
            .iter()
            .find(|(_, t)| !t.is_zero())
            .and_then(|&(line, _)| {
                let i = self
                    .early_usage
                    .binary_search_by_key(&line, |m| m.line)
                    .ok()?;
                self.early_usage.get(i)
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
            offset: m.offset,
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

    /// The number of turns (what `turns` prints for the file) and of call rows, without
    /// cutting the file. `usage`: the file's own usage by line (sorted, one entry a line), of
    /// at least the records
    /// [`TurnLog::is_early_usage`] named (other lines may be absent).
    pub fn count(self, usage: &[(u64, Tokens)]) -> TurnCounts {
        let tool_calls = self.call_lines().count() as u64;
        let (first, n) = self.first_start();
        let implicit = self.implicit_start(first, usage).is_some();
        TurnCounts {
            turns: n + u64::from(implicit),
            tool_calls,
        }
    }

    /// Cut the file into turns. `usage`: the file's own usage by line (sorted, one entry a
    /// line; every line at full
    /// detail; at less, the turns' tokens are not asked for and only the lines
    /// [`TurnLog::is_early_usage`] named matter).
    pub fn finish(self, usage: &[(u64, Tokens)]) -> Turns {
        let call_lines: Vec<u64> = self.call_lines().collect();
        let counts = TurnCounts {
            turns: 0,
            tool_calls: call_lines.len() as u64,
        };
        let mut starts = self.turn_starts();
        if let Some(s) = self.implicit_start(starts.first().map(|s| s.line), usage) {
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
            let (Some(id), Some(turn)) = (id, turn_of(line).and_then(|i| turns.get_mut(i))) else {
                continue;
            };
            if turn.turn_id.is_none() && !started.contains(id) {
                turn.turn_id = Some(id.to_string());
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
                    let k = ids.partition_point(|&i| bounds.get(i).is_some_and(|&b| b <= line));
                    ids.get(k.saturating_sub(1)).copied()
                }
                None => {
                    turn_of(line).filter(|&i| turns.get(i).is_some_and(|t| t.turn_id.is_none()))
                }
            }
        };
        // A turn_context or terminal event inside a turn whose id it does not name.
        let mut mismatches = Vec::new();
        let events = self
            .settings
            .iter()
            .map(|s| (IdEvent::TurnContext, s.turn_id.as_deref(), s.line, s.offset))
            .chain(self.terminals.iter().map(|t| {
                let kind = match t.outcome {
                    Outcome::Complete { .. } => IdEvent::TaskComplete,
                    Outcome::Aborted { .. } => IdEvent::TurnAborted,
                };
                (kind, t.turn_id.as_deref(), t.line, t.offset)
            }));
        for (event, id, line, offset) in events {
            let (Some(id), Some(i)) = (id, turn_of(line)) else {
                continue;
            };
            let own = turns.get(i).and_then(|t| t.turn_id.as_deref());
            if let Some(own) = own.filter(|&own| own != id) {
                mismatches.push(IdMismatch {
                    line,
                    offset,
                    event,
                    turn_id: id.to_string(),
                    turn: i as u64 + 1,
                    turn_own_id: own.to_string(),
                });
            }
        }
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
        let mut with_context = vec![false; turns.len()];
        // Every index below is a turn's (`turn_of` and `target` give no other): `get_mut`
        // only spares the proof.
        for (i, s) in settings {
            if let (Some(turn), Some(ctx)) = (turns.get_mut(i), with_context.get_mut(i)) {
                turn.settings = Some(s);
                *ctx = true;
            }
        }
        for (i, t) in terminals {
            let Some(turn) = turns.get_mut(i) else {
                continue;
            };
            match t.outcome {
                Outcome::Complete { .. } => turn.complete = Some(t),
                Outcome::Aborted { .. } => turn.aborted = Some(t),
            }
        }
        for u in &self.users {
            if let Some(turn) = turn_of(u.line).and_then(|i| turns.get_mut(i)) {
                turn.user = true;
                if turn.user_message.is_none() {
                    turn.user_message = u.text.clone();
                }
            }
        }
        for a in self.agents {
            if let Some(turn) = turn_of(a.line).and_then(|i| turns.get_mut(i)) {
                turn.last_agent = a.text;
            }
        }
        for line in call_lines {
            if let Some(turn) = turn_of(line).and_then(|i| turns.get_mut(i)) {
                turn.tool_calls += 1;
            }
        }
        for &(line, t) in usage {
            if let Some(turn) = turn_of(line).and_then(|i| turns.get_mut(i)) {
                turn.tokens += t;
            }
        }
        let spans: Vec<rollback::Span> = turns
            .iter()
            .map(|b| rollback::Span {
                line: b.start.line,
                user: b.user,
            })
            .collect();
        for (b, dropped) in turns
            .iter_mut()
            .zip(rollback::dropped(&spans, &self.rollbacks))
        {
            b.rolled_back = dropped;
        }

        // A user turn that no turn_context of its own settles the settings of.
        let without_context = turns
            .iter()
            .zip(&with_context)
            .enumerate()
            .filter(|(_, (b, &ctx))| b.user && !ctx)
            .map(|(i, _)| i)
            .collect();
        let task_writer = source == TurnSource::TaskStarted;
        let rows = turns
            .into_iter()
            .enumerate()
            .map(|(i, b)| b.into_turn(i, i + 1 == n, task_writer))
            .collect();
        Turns {
            counts: TurnCounts {
                turns: n as u64,
                ..counts
            },
            turns: rows,
            bounds,
            mismatches,
            without_context,
        }
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
            offset_start: self.start.offset,
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
