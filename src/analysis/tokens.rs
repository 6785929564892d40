//! A session's **own** token usage, per response, attributed to caller-chosen keys.
//!
//! Two sources, decided per file at the end (the rules of issue #2, checked against the mock
//! model's billing in `testdata/real/*/*/oracle/expected.json`):
//! - `token_usage_record` (Codex 0.171+): one per model response; its `usage` is the
//!   increment. Used whenever the file has one of its own: it survives where the matching
//!   `token_count` was never written (a process killed during a tool run).
//! - otherwise `event_msg/token_count` with `info`: an event adds usage only when its
//!   cumulative `total_token_usage` differs from the previous event's in the same file, and
//!   then adds `last_token_usage` (or, when that is absent, the difference of the totals).
//!   This ignores re-emitted events, survives 0.36's counter restart at every resume, and
//!   does not count a fork's inherited cumulative total.
//!
//! Records a fork or sub-agent copied from its parent ([`Provenance::Inherited`]) never add
//! usage, but an inherited `token_count` still sets the baseline the next event is compared
//! with.

use std::ops::AddAssign;

use serde::Serialize;

use crate::analysis::session::Provenance;
use crate::decode::{select, Kind, Record};
use crate::model::{TokenCountInfo, TokenUsageRecord, Usage};

/// Token totals. `cache_write_input_tokens` appears only where some usage had it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tokens {
    pub input_tokens: u64,
    pub cached_input_tokens: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_write_input_tokens: Option<u64>,
    pub output_tokens: u64,
    pub reasoning_output_tokens: u64,
    pub total_tokens: u64,
}

impl Tokens {
    pub fn is_zero(&self) -> bool {
        *self == Tokens::default()
    }
}

impl From<Usage> for Tokens {
    fn from(u: Usage) -> Tokens {
        Tokens {
            input_tokens: u.input_tokens,
            cached_input_tokens: u.cached_input_tokens,
            cache_write_input_tokens: u.cache_write_input_tokens,
            output_tokens: u.output_tokens,
            reasoning_output_tokens: u.reasoning_output_tokens,
            total_tokens: u.total_tokens,
        }
    }
}

impl AddAssign for Tokens {
    fn add_assign(&mut self, o: Tokens) {
        // Saturating: a hostile file must not wrap a sum (or panic in debug builds).
        self.input_tokens = self.input_tokens.saturating_add(o.input_tokens);
        self.cached_input_tokens = self
            .cached_input_tokens
            .saturating_add(o.cached_input_tokens);
        self.cache_write_input_tokens =
            match (self.cache_write_input_tokens, o.cache_write_input_tokens) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
            };
        self.output_tokens = self.output_tokens.saturating_add(o.output_tokens);
        self.reasoning_output_tokens = self
            .reasoning_output_tokens
            .saturating_add(o.reasoning_output_tokens);
        self.total_tokens = self.total_tokens.saturating_add(o.total_tokens);
    }
}

/// The increment between two cumulative totals. A field that went down means the counter
/// restarted (0.36 at every resume): the new total is then the increment.
fn difference(now: Usage, prev: Option<Usage>) -> Tokens {
    let Some(prev) = prev else { return now.into() };
    let restarted = now.total_tokens < prev.total_tokens
        || now.input_tokens < prev.input_tokens
        || now.output_tokens < prev.output_tokens;
    if restarted {
        now.into()
    } else {
        minus(now, prev).into()
    }
}

/// Usage per key in the order it was added, consecutive increments of one key summed: a key
/// that changes seldom (a day, a model) makes a short list, a key per line one entry per
/// usage record, and neither pays for a map. A key may come back later.
#[derive(Debug, Clone)]
struct Increments<K>(Vec<(K, Tokens)>);

impl<K: PartialEq> Increments<K> {
    fn add(&mut self, key: K, t: Tokens) {
        match self.0.last_mut() {
            Some((last, sum)) if *last == key => *sum += t,
            _ => self.0.push((key, t)),
        }
    }
}

/// Accumulates own usage from both sources, keyed by `K` (a day, a model, a line...).
#[derive(Debug, Clone)]
pub struct UsageAccount<K: PartialEq + Clone> {
    from_records: Increments<K>,
    own_records: u64,
    /// `thread_token_usage` of the latest `token_usage_record` (copies included): the
    /// cumulative total the next record continues from.
    prev_thread_total: Option<Usage>,
    from_counts: Increments<K>,
    prev_total: Option<Usage>,
    /// The raw `info` of a `token_count` whose cumulative total is `prev_total`: an event
    /// repeating it (Codex re-emits one for each rate-limit update) is skipped unparsed.
    prev_info_raw: String,
    /// The latest own `token_count` cumulative total, and where its usage went.
    last_own_count: Option<(Usage, K)>,
}

impl<K: PartialEq + Clone> Default for UsageAccount<K> {
    fn default() -> Self {
        UsageAccount {
            from_records: Increments(Vec::new()),
            own_records: 0,
            prev_thread_total: None,
            from_counts: Increments(Vec::new()),
            prev_total: None,
            prev_info_raw: String::new(),
            last_own_count: None,
        }
    }
}

/// `a - b` field by field, when `a` is ahead of `b` in total; `None` otherwise.
fn ahead(a: Usage, b: Usage) -> Option<Tokens> {
    (a.total_tokens > b.total_tokens).then(|| minus(a, b).into())
}

/// `a - b` field by field, saturating.
fn minus(a: Usage, b: Usage) -> Usage {
    Usage {
        input_tokens: a.input_tokens.saturating_sub(b.input_tokens),
        cached_input_tokens: a.cached_input_tokens.saturating_sub(b.cached_input_tokens),
        cache_write_input_tokens: a
            .cache_write_input_tokens
            .map(|c| c.saturating_sub(b.cache_write_input_tokens.unwrap_or(0))),
        output_tokens: a.output_tokens.saturating_sub(b.output_tokens),
        reasoning_output_tokens: a
            .reasoning_output_tokens
            .saturating_sub(b.reasoning_output_tokens),
        total_tokens: a.total_tokens.saturating_sub(b.total_tokens),
    }
}

/// Whether a record can carry usage (cheap check before parsing a payload).
pub fn carries_usage(rec: &Record<'_>) -> bool {
    match rec.kind {
        Kind::TokenUsageRecord => true,
        Kind::EventMsg => rec.payload_type() == Some("token_count"),
        _ => false,
    }
}

impl<K: PartialEq + Clone> UsageAccount<K> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed a record; `key` is asked for only when the record adds usage. `own_id` is the
    /// session's thread id: a `token_usage_record` naming another thread is a copy.
    pub fn feed(
        &mut self,
        rec: &Record<'_>,
        provenance: Provenance,
        own_id: Option<&str>,
        key: impl FnOnce() -> K,
    ) {
        match rec.kind {
            Kind::TokenUsageRecord => {
                // The three fields read, picked out without parsing the rest; each read as
                // `TokenUsageRecord` reads it.
                let [thread_id, usage, thread_usage] =
                    rec.payload_fields(["thread_id", "usage", "thread_token_usage"]);
                let r = TokenUsageRecord {
                    thread_id: thread_id.and_then(select::str_value),
                    turn_id: None,
                    usage: usage.and_then(Usage::from_raw),
                    thread_token_usage: thread_usage.and_then(Usage::from_raw),
                };
                let prev_thread = match r.thread_token_usage {
                    Some(t) => self.prev_thread_total.replace(t),
                    None => self.prev_thread_total,
                };
                let foreign =
                    matches!((r.thread_id.as_deref(), own_id), (Some(t), Some(o)) if t != o);
                if provenance == Provenance::Inherited || foreign {
                    return;
                }
                let Some(u) = r.usage else { return };
                self.own_records += 1;
                let mut inc: Tokens = u.into();
                // A record lost from the file (deleted, torn, undecodable) shows as a jump
                // in the cumulative total: what came before this response is more than the
                // previous record's total. Real files never jump.
                if let (Some(t), Some(prev)) = (r.thread_token_usage, prev_thread) {
                    if let Some(lost) = ahead(minus(t, u), prev) {
                        inc += lost;
                    }
                }
                self.from_records.add(key(), inc);
            }
            Kind::EventMsg if rec.payload_type() == Some("token_count") => {
                let Some(raw) = rec.payload_field("info") else {
                    return;
                };
                if self.prev_total.is_some() && raw == self.prev_info_raw {
                    // The same info, so the same total: nothing to add (see below).
                    return;
                }
                let Some(info) = TokenCountInfo::from_raw(raw) else {
                    return;
                };
                let inc = match (info.total_token_usage, info.last_token_usage) {
                    (Some(total), last) => {
                        self.prev_info_raw.clear();
                        self.prev_info_raw.push_str(raw);
                        if self.prev_total == Some(total) {
                            return;
                        }
                        let prev = self.prev_total.replace(total);
                        match last {
                            Some(l) => l.into(),
                            None => difference(total, prev),
                        }
                    }
                    (None, Some(last)) => last.into(),
                    (None, None) => return,
                };
                if provenance == Provenance::Inherited {
                    return;
                }
                let k = key();
                if let Some(total) = info.total_token_usage {
                    self.last_own_count = Some((total, k.clone()));
                }
                self.from_counts.add(k, inc);
            }
            _ => {}
        }
    }

    /// True when the file's own `token_usage_record`s are the source.
    pub fn uses_records(&self) -> bool {
        self.own_records > 0
    }

    /// The usage per key, from the source the file supports, in the order it was added
    /// (consecutive increments of one key summed; a key may come back later).
    pub fn finish(mut self) -> Vec<(K, Tokens)> {
        if !self.uses_records() {
            return self.from_counts.0;
        }
        // The last records lost but their `token_count` kept: the count's cumulative total
        // runs ahead of the last record's.
        if let (Some((count, k)), Some(rec)) = (self.last_own_count.take(), self.prev_thread_total)
        {
            if let Some(lost) = ahead(count, rec) {
                self.from_records.add(k, lost);
            }
        }
        self.from_records.0
    }
}

/// Sum a map of tokens.
pub fn sum<'a>(it: impl IntoIterator<Item = &'a Tokens>) -> Tokens {
    let mut t = Tokens::default();
    for x in it {
        t += *x;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{decode_line, Pos};

    fn feed_all(lines: &[(&str, Provenance)]) -> Tokens {
        let mut acc: UsageAccount<()> = UsageAccount::new();
        for (l, p) in lines {
            let rec = decode_line(l.as_bytes(), Pos::default()).unwrap();
            acc.feed(&rec, *p, Some("me"), || ());
        }
        sum(acc.finish().iter().map(|(_, t)| t))
    }

    fn tc(total: u64, last: Option<u64>) -> String {
        let last = last
            .map(|l| format!(r#","last_token_usage":{{"input_tokens":{l},"total_tokens":{l}}}"#))
            .unwrap_or_default();
        format!(
            r#"{{"timestamp":"t","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":{total},"total_tokens":{total}}}{last}}}}}}}"#
        )
    }

    use Provenance::*;

    #[test]
    fn re_emitted_token_count_with_unchanged_total_adds_nothing() {
        let a = tc(100, Some(100));
        let b = tc(100, Some(100));
        let c = tc(150, Some(50));
        assert_eq!(
            feed_all(&[(&a, Own), (&b, Own), (&c, Own)]).total_tokens,
            150
        );
    }

    #[test]
    fn an_info_seen_before_an_other_one_counts_again() {
        // Only a repeat of the latest total is skipped unread: the same text after another
        // total is a counter restart (0.36 at resume) and adds its last usage.
        let a = tc(100, Some(100));
        let b = tc(150, Some(50));
        assert_eq!(
            feed_all(&[(&a, Own), (&a, Own), (&b, Own), (&a, Own)]).total_tokens,
            250
        );
        // A repeat of an inherited total adds nothing either.
        assert_eq!(feed_all(&[(&a, Inherited), (&a, Own)]).total_tokens, 0);
    }

    #[test]
    fn counter_restart_at_resume_still_adds_each_response() {
        // Codex 0.36 restarted the cumulative counter at every resume.
        let lines = [
            tc(100, Some(100)),
            tc(250, Some(150)),
            tc(120, Some(120)),
            tc(200, Some(80)),
        ];
        let v: Vec<(&str, Provenance)> = lines.iter().map(|l| (l.as_str(), Own)).collect();
        assert_eq!(feed_all(&v).total_tokens, 450);
    }

    #[test]
    fn fork_child_inheriting_a_cumulative_total_adds_only_its_last_usage() {
        let a = tc(7653, Some(4053));
        assert_eq!(feed_all(&[(&a, Own)]).total_tokens, 4053);
    }

    #[test]
    fn missing_last_usage_falls_back_to_the_difference() {
        let a = tc(100, None);
        let b = tc(130, None);
        assert_eq!(feed_all(&[(&a, Own), (&b, Own)]).total_tokens, 130);
    }

    #[test]
    fn inherited_events_set_the_baseline_but_add_nothing() {
        let a = tc(3602, Some(3602));
        let b = tc(7655, Some(4053));
        assert_eq!(feed_all(&[(&a, Inherited), (&b, Own)]).total_tokens, 4053);
    }

    #[test]
    fn null_info_carries_nothing() {
        let n =
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null}}"#;
        assert_eq!(feed_all(&[(n, Own)]).total_tokens, 0);
    }

    #[test]
    fn own_usage_records_win_and_foreign_ones_are_skipped() {
        let own = r#"{"timestamp":"t","type":"token_usage_record","payload":{"thread_id":"me","usage":{"total_tokens":10}}}"#;
        let other = r#"{"timestamp":"t","type":"token_usage_record","payload":{"thread_id":"dad","usage":{"total_tokens":99}}}"#;
        let count = tc(500, Some(500));
        assert_eq!(
            feed_all(&[(own, Own), (other, Own), (&count, Own)]).total_tokens,
            10
        );
    }

    fn rec(thread: &str, usage: u64, thread_total: u64) -> String {
        format!(
            r#"{{"timestamp":"t","type":"token_usage_record","payload":{{"thread_id":"{thread}","usage":{{"total_tokens":{usage}}},"thread_token_usage":{{"total_tokens":{thread_total}}}}}}}"#
        )
    }

    #[test]
    fn a_lost_usage_record_is_recovered_from_the_next_cumulative_total() {
        // Real 0.171 shell: 3670, 4120, 4570, 4970 (cumulative 3670, 7790, 12360, 17330).
        let lines = [
            rec("me", 3670, 3670),
            rec("me", 4570, 12360),
            rec("me", 4970, 17330),
        ];
        let v: Vec<(&str, Provenance)> = lines.iter().map(|l| (l.as_str(), Own)).collect();
        assert_eq!(feed_all(&v).total_tokens, 17330);
    }

    #[test]
    fn a_lost_last_record_is_recovered_from_its_surviving_token_count() {
        let a = rec("me", 3670, 3670);
        let b = tc(7790, Some(4120));
        assert_eq!(feed_all(&[(&a, Own), (&b, Own)]).total_tokens, 7790);
    }

    #[test]
    fn a_fork_childs_inherited_cumulative_is_not_a_lost_record() {
        // Real 0.171 fork child: usage 4053, thread total 7653 (the parent's 3600 inherited),
        // and a copy-fork's copied parent record before the child's own.
        let child = rec("me", 4053, 7653);
        let count = tc(7653, Some(4053));
        assert_eq!(feed_all(&[(&child, Own), (&count, Own)]).total_tokens, 4053);
        let parent = rec("dad", 3602, 3602);
        let own = rec("me", 4053, 7655);
        assert_eq!(
            feed_all(&[(&parent, Inherited), (&own, Own)]).total_tokens,
            4053
        );
    }

    #[test]
    fn sums_saturate_instead_of_wrapping() {
        let big = 1u64 << 63;
        let a = tc(1, Some(big));
        let b = tc(2, Some(big));
        assert_eq!(feed_all(&[(&a, Own), (&b, Own)]).total_tokens, u64::MAX);
    }

    #[test]
    fn increments_sum_a_key_while_it_lasts_and_keep_it_apart_when_it_comes_back() {
        let t = |n| Tokens {
            total_tokens: n,
            ..Default::default()
        };
        let mut inc = Increments(Vec::new());
        for (k, n) in [("a", 1), ("a", 2), ("b", 4), ("a", 8)] {
            inc.add(k, t(n));
        }
        assert_eq!(inc.0, [("a", t(3)), ("b", t(4)), ("a", t(8))]);
    }

    #[test]
    fn cache_write_appears_only_when_present() {
        let mut t = Tokens::default();
        t += Tokens {
            total_tokens: 1,
            ..Default::default()
        };
        assert_eq!(t.cache_write_input_tokens, None);
        t += Tokens {
            cache_write_input_tokens: Some(2),
            ..Default::default()
        };
        assert_eq!(t.cache_write_input_tokens, Some(2));
        let json = serde_json::to_string(&Tokens::default()).unwrap();
        assert!(!json.contains("cache_write"));
    }
}
