//! `stats`' census of one file: counts per record type, line facts, and its own usage per
//! day and model; and the regrouping of file censuses by day, month, model, cwd or total.
//!
//! `records` counts the envelope `type` of every decoded line; `response_items` and `events`
//! count `payload.type` of `response_item` and `event_msg` lines (event aliases folded), which
//! is what the format's usual jq recipes count (`jq -r .type | sort | uniq -c`, and the same
//! over `.payload.type`: `docs/stats.md`). Usage is attributed to a [`UsageKey`] (the event's
//! day and the model of the turn it happened in) so that every grouping sums to the same
//! grand total. Turns and tool calls are the shared segmentation's
//! ([`crate::analysis::turns`]), so `stats`, `turns` and `calls` always agree.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use crate::analysis::session::{SessionInfo, SessionTracker};
use crate::analysis::tokens::{self, Tokens};
use crate::analysis::turns::TurnCounts;
use crate::analysis::Fold;
use crate::decode::{select, BadLine, Kind, Line, Record, StreamInfo};
use crate::time::{self, Zone};

/// Where one increment of usage is attributed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UsageKey {
    /// The day of the event carrying the usage, in the chosen zone.
    pub day: Option<NaiveDate>,
    /// `turn_context.model` of the turn the usage happened in.
    pub model: Option<String>,
}

/// The counts every `stats` row writes (`docs/stats.md`): a file's, or a group's (its
/// files' summed).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Counts {
    pub lines: u64,
    pub blank_lines: u64,
    pub bytes: u64,
    pub parse_errors: u64,
    /// Whether the file starts with a byte order mark; `None` in a group's counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bom: Option<bool>,
    pub records: BTreeMap<String, u64>,
    pub response_items: BTreeMap<String, u64>,
    pub events: BTreeMap<String, u64>,
    /// Turns, as `rollscope turns` cuts them (one row each).
    pub turns: u64,
    /// Tool calls: call items (`model::CALL_TYPES`) and server-side `tool_search_output`s
    /// with no call; the call rows of `rollscope calls`, which adds one row per orphan
    /// output on top.
    pub tool_calls: u64,
    pub tokens: Tokens,
}

impl Counts {
    /// Add another file's or group's numbers: lines, bytes, errors, turns and calls (not
    /// its per-type counts, tokens or `bom`).
    pub fn add_numbers(&mut self, o: &Counts) {
        self.lines += o.lines;
        self.blank_lines += o.blank_lines;
        self.bytes += o.bytes;
        self.parse_errors += o.parse_errors;
        self.turns += o.turns;
        self.tool_calls += o.tool_calls;
    }

    /// Add another file's or group's counts per type.
    fn add_types(&mut self, o: &Counts) {
        merge_counts(&mut self.records, &o.records);
        merge_counts(&mut self.response_items, &o.response_items);
        merge_counts(&mut self.events, &o.events);
    }
}

fn merge_counts(into: &mut BTreeMap<String, u64>, from: &BTreeMap<String, u64>) {
    for (k, v) in from {
        *into.entry(k.clone()).or_default() += v;
    }
}

/// The census of one file.
#[derive(Debug, Clone, Default)]
pub struct Census {
    pub counts: Counts,
    pub torn_lines: u64,
    /// Usage per day and model; sums to `counts.tokens`.
    pub usage: BTreeMap<UsageKey, Tokens>,
    /// The session's first model, for groupings that need one model per session.
    pub first_model: Option<String>,
}

/// A model of a file's census, by its place in the census's list (usage is keyed by it line
/// after line: a number costs less to copy and compare than the name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ModelId(u32);

/// The counting half of the census, fed line by line.
#[derive(Debug)]
pub struct CensusCount {
    zone: Zone,
    parse_errors: u64,
    torn_lines: u64,
    blank_lines: u64,
    /// The models of the file's `turn_context`s, in the order they first appear.
    models: Vec<String>,
    /// The latest `turn_context`'s model, as its place in `models`.
    model: Option<ModelId>,
    records: Tally,
    response_items: Tally,
    events: Tally,
}

impl CensusCount {
    pub fn new(zone: Zone) -> Self {
        CensusCount {
            zone,
            parse_errors: 0,
            torn_lines: 0,
            blank_lines: 0,
            models: Vec::new(),
            model: None,
            records: Tally::default(),
            response_items: Tally::default(),
            events: Tally::default(),
        }
    }

    /// The model usage at this point is attributed to: the latest `turn_context`'s.
    pub fn model(&self) -> Option<ModelId> {
        self.model
    }

    /// The day of a record, in the census's zone.
    pub fn day_of(&self, rec: &Record<'_>) -> Option<NaiveDate> {
        time::parse_ms(&rec.timestamp).and_then(|ms| self.zone.day(ms))
    }

    /// The census, once the file is read: `usage` is the file's own usage by day and
    /// model, `counts` its turns and calls.
    pub fn finish(
        self,
        info: &StreamInfo,
        usage: BTreeMap<(Option<NaiveDate>, Option<ModelId>), Tokens>,
        counts: TurnCounts,
    ) -> Census {
        // A `ModelId` is an index into `models`, made where the name was put there.
        let name = |m: ModelId| self.models.get(m.0 as usize).cloned();
        let usage: BTreeMap<UsageKey, Tokens> = usage
            .into_iter()
            .map(|((day, model), t)| {
                let model = model.and_then(name);
                (UsageKey { day, model }, t)
            })
            .collect();
        Census {
            counts: Counts {
                lines: info.lines,
                blank_lines: self.blank_lines,
                bytes: info.bytes,
                parse_errors: self.parse_errors,
                bom: Some(info.bom),
                records: self.records.into_map(),
                response_items: self.response_items.into_map(),
                events: self.events.into_map(),
                turns: counts.turns,
                tool_calls: counts.tool_calls,
                tokens: tokens::sum(usage.values()),
            },
            torn_lines: self.torn_lines,
            usage,
            first_model: self.models.into_iter().next(),
        }
    }
}

impl Fold for CensusCount {
    fn record(&mut self, rec: &Record<'_>, _session: &SessionTracker) {
        self.records.bump(&rec.type_name);
        match rec.kind {
            Kind::ResponseItem => {
                let t = rec.payload_type().unwrap_or("(none)");
                self.response_items.bump(t);
            }
            Kind::EventMsg => self.events.bump(rec.payload_type().unwrap_or("(none)")),
            Kind::TurnContext => {
                // Only `model` is read: picked out without parsing the rest (the
                // policies would become `Value`s), as `TurnContext` reads it.
                if let Some(m) = rec.payload_field("model").and_then(select::str_value) {
                    let at = match self.models.iter().position(|known| *known == m) {
                        Some(at) => at,
                        None => {
                            self.models.push(m.into_owned());
                            self.models.len() - 1
                        }
                    };
                    self.model = Some(ModelId(at as u32));
                }
            }
            _ => {}
        }
    }

    fn bad(&mut self, bad: &BadLine) {
        self.parse_errors += 1;
        if bad.torn {
            self.torn_lines += 1;
        }
    }

    fn blank(&mut self, _line: Line) {
        self.blank_lines += 1;
    }
}

/// Occurrences per name, counted line by line. A file holds a few dozen names, so the
/// first ones are kept in a list searched by length first, the most frequent moving to
/// the front (a tree's string comparisons on every line cost more); any beyond go to a
/// tree.
#[derive(Debug, Default)]
struct Tally {
    few: Vec<(Box<str>, u64)>,
    rest: BTreeMap<String, u64>,
}

impl Tally {
    const FEW: usize = 48;

    fn bump(&mut self, key: &str) {
        let found = self
            .few
            .iter()
            .position(|(k, _)| k.len() == key.len() && **k == *key);
        #[allow(
            clippy::indexing_slicing,
            reason = "`i` is a position found in `few`, and `i - 1` is taken only when `i > 0`"
        )]
        match found {
            Some(i) => {
                self.few[i].1 += 1;
                if i > 0 && self.few[i].1 > self.few[i - 1].1 {
                    self.few.swap(i, i - 1);
                }
            }
            None if self.few.len() < Self::FEW => self.few.push((key.into(), 1)),
            None => bump(&mut self.rest, key),
        }
    }

    fn into_map(self) -> BTreeMap<String, u64> {
        let mut map = self.rest;
        map.extend(self.few.into_iter().map(|(k, n)| (k.into(), n)));
        map
    }
}

fn bump(map: &mut BTreeMap<String, u64>, key: &str) {
    if let Some(n) = map.get_mut(key) {
        *n += 1;
    } else {
        map.insert(key.to_string(), 1);
    }
}

/// How `--by` regroups file rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    Day,
    Month,
    Model,
    Cwd,
    Total,
}

impl GroupBy {
    /// The name rows give it (`by`), as `--by` spells it.
    pub fn name(self) -> &'static str {
        match self {
            GroupBy::Day => "day",
            GroupBy::Month => "month",
            GroupBy::Model => "model",
            GroupBy::Cwd => "cwd",
            GroupBy::Total => "total",
        }
    }
}

/// The totals of one group. `sessions` counts the files that contributed to it.
#[derive(Debug, Clone, Default)]
pub struct GroupTotals {
    pub sessions: u64,
    pub counts: Counts,
}

impl GroupTotals {
    /// Add `sessions` files' worth of `counts`, tokens and all.
    pub fn add(&mut self, sessions: u64, counts: &Counts) {
        self.sessions += sessions;
        self.counts.add_numbers(counts);
        self.counts.tokens += counts.tokens;
    }
}

/// Regroups files. Tokens go where each increment happened (its day, its turn's model);
/// file counts (lines, records, turns...) go to the session's start day, its first model or
/// its cwd. Every grouping sums to the same grand total.
#[derive(Debug)]
pub struct Groups {
    by: GroupBy,
    zone: Zone,
    groups: BTreeMap<Option<String>, GroupTotals>,
}

impl Groups {
    pub fn new(by: GroupBy, zone: Zone) -> Groups {
        Groups {
            by,
            zone,
            groups: BTreeMap::new(),
        }
    }

    /// How it groups.
    pub fn by(&self) -> GroupBy {
        self.by
    }

    fn usage_group(&self, k: &UsageKey, session_day: Option<NaiveDate>) -> Option<String> {
        let day = k.day.or(session_day);
        match self.by {
            GroupBy::Day => day.map(|d| d.format("%Y-%m-%d").to_string()),
            GroupBy::Month => day.map(|d| d.format("%Y-%m").to_string()),
            GroupBy::Model => k.model.clone(),
            #[allow(
                clippy::unreachable,
                reason = "`add`, the only caller, asks only for the groupings by day, month and model"
            )]
            GroupBy::Cwd | GroupBy::Total => unreachable!("file-level groupings"),
        }
    }

    /// Add one file.
    pub fn add(&mut self, session: &SessionInfo, f: &Census) {
        let session_day = session.started_ms.and_then(|ms| self.zone.day(ms));
        let home: Option<String> = match self.by {
            GroupBy::Total => Some("total".to_string()),
            GroupBy::Cwd => session.cwd.clone(),
            GroupBy::Day => session_day.map(|d| d.format("%Y-%m-%d").to_string()),
            GroupBy::Month => session_day.map(|d| d.format("%Y-%m").to_string()),
            GroupBy::Model => f.first_model.clone(),
        };
        let mut touched = std::collections::BTreeSet::new();
        let g = self.groups.entry(home.clone()).or_default();
        g.counts.add_numbers(&f.counts);
        g.counts.add_types(&f.counts);
        touched.insert(home.clone());
        match self.by {
            GroupBy::Total | GroupBy::Cwd => g.counts.tokens += f.counts.tokens,
            _ => {
                for (k, t) in &f.usage {
                    let key = self.usage_group(k, session_day);
                    self.groups.entry(key.clone()).or_default().counts.tokens += *t;
                    touched.insert(key);
                }
            }
        }
        for k in touched {
            self.groups.entry(k).or_default().sessions += 1;
        }
    }

    /// The groups, sorted by key (unknown last).
    pub fn finish(self) -> Vec<(Option<String>, GroupTotals)> {
        let mut v: Vec<_> = self.groups.into_iter().collect();
        v.sort_by(|a, b| match (&a.0, &b.0) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, _) => std::cmp::Ordering::Greater,
            (_, None) => std::cmp::Ordering::Less,
            (x, y) => x.cmp(y),
        });
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Needs;
    use crate::testkit;

    #[test]
    fn a_tally_counts_every_name_past_its_short_list() {
        // More names than the short list holds, in an order that makes frequent ones move
        // forward; names of equal length that differ only at the end.
        let mut tally = Tally::default();
        let mut want = BTreeMap::new();
        for i in 0..5_000u64 {
            let key = format!("type_{:03}", (i * i + 7 * i) % 131);
            tally.bump(&key);
            *want.entry(key).or_insert(0) += 1;
        }
        tally.bump("");
        *want.entry(String::new()).or_insert(0) += 1;
        assert!(want.len() > Tally::FEW);
        assert_eq!(tally.into_map(), want);
    }

    fn stats(text: &str) -> Census {
        let needs = Needs::default().census(Zone::Utc);
        testkit::facts(text, needs).census.unwrap()
    }

    #[test]
    fn counts_types_payload_types_and_folds_aliases() {
        let s = stats(concat!(
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"a"}}"#,
            "\n",
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"event_msg","payload":{"type":"turn_started"}}"#,
            "\n",
            "\n",
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"function_call","call_id":"c"}}"#,
            "\n",
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c"}}"#,
            "\n",
            "not json\n",
        ));
        assert_eq!(s.counts.lines, 6);
        assert_eq!(s.counts.blank_lines, 1);
        assert_eq!(s.counts.parse_errors, 1);
        assert_eq!(s.counts.records.values().sum::<u64>(), 4);
        assert_eq!(s.counts.events.get("task_started"), Some(&1));
        assert_eq!(s.counts.tool_calls, 1);
        assert_eq!(s.counts.turns, 1);
    }

    #[test]
    fn usage_is_attributed_to_day_and_model() {
        let s = stats(concat!(
            r#"{"timestamp":"2026-01-01T23:00:00Z","type":"turn_context","payload":{"model":"m1"}}"#,
            "\n",
            r#"{"timestamp":"2026-01-01T23:59:00Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":10},"last_token_usage":{"total_tokens":10}}}}"#,
            "\n",
            r#"{"timestamp":"2026-01-02T00:01:00Z","type":"turn_context","payload":{"model":"m2"}}"#,
            "\n",
            r#"{"timestamp":"2026-01-02T00:02:00Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":15},"last_token_usage":{"total_tokens":5}}}}"#,
            "\n",
        ));
        assert_eq!(s.counts.tokens.total_tokens, 15);
        let by: Vec<(String, String, u64)> = s
            .usage
            .iter()
            .map(|(k, v)| {
                (
                    k.day.unwrap().to_string(),
                    k.model.clone().unwrap(),
                    v.total_tokens,
                )
            })
            .collect();
        assert_eq!(
            by,
            [
                ("2026-01-01".into(), "m1".into(), 10),
                ("2026-01-02".into(), "m2".into(), 5)
            ]
        );
    }

    #[test]
    fn turns_and_tool_calls_are_those_of_turns_and_calls() {
        // Usage and a call before the first task_started (its line was lost) begin an
        // implicit turn; a server-side tool search with no call is a call of its own.
        let s = stats(concat!(
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"a"}}"#,
            "\n",
            r#"{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"function_call","call_id":"c"}}"#,
            "\n",
            r#"{"timestamp":"2026-01-01T00:00:02Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":10},"last_token_usage":{"total_tokens":10}}}}"#,
            "\n",
            r#"{"timestamp":"2026-01-01T00:00:03Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}"#,
            "\n",
            r#"{"timestamp":"2026-01-01T00:00:04Z","type":"response_item","payload":{"type":"tool_search_output","call_id":"s","execution":"server","tools":[]}}"#,
            "\n",
        ));
        assert_eq!(s.counts.turns, 2);
        assert_eq!(s.counts.tool_calls, 2);
        assert_eq!(s.counts.tokens.total_tokens, 10);
    }

    #[test]
    fn old_files_without_task_started_count_user_messages() {
        let s = stats(concat!(
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]}}"#,
            "\n",
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#,
            "\n",
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"again"}]}}"#,
            "\n",
        ));
        assert_eq!(s.counts.turns, 2);
    }
}
