//! Pairing calls with their outputs, and deciding each row, once the file is read.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::analysis::calls::collect::{CallCollector, CallItem, OutputItem};
use crate::analysis::calls::outcome::{Evidence, Proof};
use crate::analysis::calls::{Call, CallStatus};
use crate::analysis::turns::Turns;
use crate::model::{self, OutputType};

impl CallCollector {
    /// Every call and orphan output, paired and settled, placed in `turns`.
    pub fn finish(self, turns: &Turns) -> Vec<Call> {
        let (calls, outputs, evidence) = self.into_parts();
        pair(calls, outputs, &evidence, turns)
    }
}

fn pair(
    calls: Vec<CallItem>,
    outputs: Vec<OutputItem>,
    evidence: &HashMap<String, Evidence>,
    turns: &Turns,
) -> Vec<Call> {
    // Unanswered calls per call_id and the output type that answers them (none for a call
    // that carries its own outcome), in file order: an output takes the first of its queue,
    // so pairing is linear whatever the number of calls sharing an id.
    let mut waiting: HashMap<(&str, OutputType), VecDeque<usize>> = HashMap::new();
    for (i, c) in calls.iter().enumerate() {
        if let (Some(id), Some(fit)) = (c.call_id.as_deref(), model::answer_of(&c.kind)) {
            waiting.entry((id, fit)).or_default().push_back(i);
        }
    }
    // Every (call_id, answer) some call has: an output that finds its queue empty is a
    // duplicate of an answered call when its key is here, an orphan otherwise.
    let known: HashSet<(&str, OutputType)> = waiting.keys().copied().collect();
    let mut answer: Vec<Option<usize>> = vec![None; calls.len()];
    let mut orphans: Vec<usize> = Vec::new();
    let mut servers: Vec<usize> = Vec::new();
    for (o, out) in outputs.iter().enumerate() {
        let fit = OutputType::of(&out.kind);
        let key = out.call_id.as_deref().zip(fit);
        let hit = key.and_then(|k| waiting.get_mut(&k)?.pop_front());
        match hit {
            Some(ci) => {
                if let Some(slot) = answer.get_mut(ci) {
                    *slot = Some(o);
                }
            }
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
    // `answer` has one entry a call, each an index into `outputs`.
    for (c, answered) in calls.into_iter().zip(answer) {
        let out = answered.and_then(|o| outputs.get_mut(o)?.take());
        let ev = c.call_id.as_deref().and_then(|id| evidence.get(id));
        let row = settle(c, out, ev, &place);
        rows.push(row);
    }
    // Rows of an output alone: a server-side tool search (its own call) or an orphan.
    let lone = [(servers, CallStatus::Ok), (orphans, CallStatus::Orphan)];
    for (indexes, status) in lone {
        for o in indexes {
            let Some(out) = outputs.get_mut(o).and_then(Option::take) else {
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
        arguments_encoding: None,
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
        arguments_encoding: c.arguments_encoding,
        output: out.map(|o| o.text),
        inherited: c.inherited,
    };
    (line, call)
}
