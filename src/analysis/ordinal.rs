//! The ordinal sequence of one file: are a rollout's ordinals sound, and which ones will
//! Codex's next resume break?
//!
//! What it establishes are facts ([`Fault`]s, each at the line that shows it): the rules
//! `ordinal.*` and those about a file's head (`file.bom`, `meta.first`, `meta.missing`,
//! `meta.history-mode`) turn them into findings. What is checked is Codex's own reading
//! (`ordinal_state_for_rollout` and the recorder's `RolloutOrdinalState`, in its
//! `rollout/src/ordinal.rs`):
//! - The mode comes from the first `session_meta` (`history_mode`; absent means legacy).
//! - Legacy: Codex never writes ordinals, so every record that carries one is a foreign
//!   writer's ([`Fault::InLegacy`]).
//! - Paginated: every record carries one ([`Fault::Missing`]). The first is
//!   `history_base.end_ordinal_exclusive` when the file has a `history_base`, else 0
//!   ([`Fault::Start`]). Real files decide here: the 0.171 fork and revert files start at their
//!   base's `end_ordinal_exclusive` (14 and 32), their `session_meta` consuming it, as the
//!   upstream recorder does, not at 0 as other paginated files do. Each next ordinal is the
//!   previous plus one: a duplicate or a decrease breaks the thread-history projection for
//!   good; a gap is tolerated by the recorder but not by dense readers.
//! - Resume: Codex resumes at (ordinal of the last *parseable* record) + 1, scanning
//!   backwards and skipping what it cannot decode. "Parseable" is approximated as: the
//!   envelope decodes and `type` is one of the 13 record types of the newest Codex
//!   ([`CODEX_RECORD_TYPES`]); payload schemas are not checked. Lines after it that carry
//!   an ordinal at or above that number are [`Fault::TailUnparseable`]: the next resume
//!   writes their ordinal again. A last parseable record without an ordinal makes the resume
//!   fail (`next_on_resume` is null), as does a sub-agent file whose inherited prefix stops
//!   short of `subagent_history_start_ordinal - 1`.
//!
//! Sequence checks read the ordinal of every line that carries one: decoded records of any
//! type, and the `ordinal_hint` of lines that failed to decode. That is what is on disk, and
//! what turns a skipped tail line into a duplicate once Codex resumes over it (#44417).
//! Gaps are only reported at the end of the file, and only for ordinals that never appear:
//! two swapped lines are one decrease, not a gap and a decrease.
//!
//! The lineage check (`history_base.*`) needs a second file; it lives in [`crate::lineage`].
//! This analysis only keeps what that check needs ([`OrdinalReport::meta`]).

use std::collections::BTreeMap;

use crate::analysis::session::{SessionInfo, SessionTracker};
use crate::analysis::Fold;
use crate::decode::{BadLine, Kind, Line, Pos, Record, StreamInfo};
use crate::model::HistoryBase;

/// The `type` strings the newest Codex decodes, in its order: the `RolloutItem` variants its
/// history projection names when it meets another (0.171: "unknown variant `no_such_record`,
/// expected one of `session_meta`, `dynamic_tools_updated`, …",
/// `testdata/replay/verdicts/record-type-unknown.json`). Any other type fails Codex's
/// `decode_rollout_line`, so the reader skips it; one of these is skipped only when its
/// payload does not decode (a `dynamic_tools_updated` needs `thread_id` and `tools`:
/// `verdicts/dynamic-tools-updated.json` is one that does).
pub const CODEX_RECORD_TYPES: [&str; 13] = [
    "session_meta",
    "dynamic_tools_updated",
    "response_item",
    "inter_agent_communication",
    "inter_agent_communication_metadata",
    "compacted",
    "turn_context",
    "token_usage_record",
    "world_state",
    "retained_context",
    "security_risk_score",
    "event_msg",
    "realtime_item",
];
/// Records seen before the first `session_meta` are held until the mode is known; past this
/// many, the file is judged without one (legacy, as Codex reads a file with no mode). Codex's
/// own head reader looks at 10 records.
const MAX_PENDING: usize = 100_000;

/// What keeps Codex from reading a file's first line as its `session_meta`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// Line 1 starts with a UTF-8 byte order mark.
    Bom,
    /// The first non-blank line cannot be decoded.
    FirstLineUnreadable(Box<BadLine>),
    /// The first record is of another type than `session_meta` (as written).
    FirstRecordNotMeta { type_name: String },
    /// No `session_meta` at all, while the lines carry ordinals.
    NoMetaWithOrdinals,
}

/// What a line that Codex cannot parse is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unparseable {
    /// A record whose `type` Codex does not know (as written).
    UnknownType(String),
    /// A line nobody can decode.
    Bad(Box<BadLine>),
}

/// What is wrong with a file's ordinals (or the head its ordinal state is read from).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The head of a paginated file (a file of another mode has its head in
    /// [`OrdinalReport::legacy_head`]).
    Head(Head),
    /// A `history_mode` other than `legacy` or `paginated` (as written): the ordinals are
    /// not judged.
    UnknownHistoryMode { mode: String },
    /// A record of a legacy file carries ordinal `found`.
    InLegacy { found: u64 },
    /// A record of a paginated file has none (`expected`: the one due); `fails_resume` when
    /// it is the last record Codex can parse.
    Missing {
        expected: Option<u64>,
        fails_resume: bool,
    },
    /// The first ordinal is `found`, not the `expected` one the file must start at.
    Start { expected: u64, found: u64 },
    /// Ordinal `found`, already used; `expected` is the one due (none past `u64::MAX`).
    /// `previous`: the line just before, when it carries the same ordinal.
    Duplicate {
        expected: Option<u64>,
        found: u64,
        previous: Option<Pos>,
    },
    /// Ordinal `found`, below the highest so far and never used, after `from`.
    Decrease {
        expected: Option<u64>,
        found: u64,
        from: u64,
    },
    /// Ordinals `lo..=hi` skipped at a jump to `found`, `unseen` of them never appearing
    /// anywhere (0: every one comes later, out of order; Codex 0.146 and later still meet
    /// the jump here).
    Gap {
        lo: u64,
        hi: u64,
        unseen: u64,
        found: u64,
    },
    /// A line after the last one Codex can parse (`last_line`, ordinal `last_ordinal`)
    /// carries ordinal `found`, at or above the `next` one the next resume writes.
    TailUnparseable {
        line: Unparseable,
        last_line: u64,
        last_ordinal: u64,
        next: u64,
        found: u64,
    },
    /// A sub-agent's inherited prefix ends at `last`, short of
    /// `subagent_history_start_ordinal` `start`.
    SubagentPrefix { start: u64, last: u64 },
}

/// A fault, and the line that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub at: Line,
    pub fault: Fault,
}

/// The result for one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrdinalReport {
    /// `legacy`, `paginated`, or the unknown string the file wrote (checked as legacy).
    pub history_mode: String,
    pub paginated: bool,
    /// Decoded records (any type; rejected and blank lines are not records).
    pub records: u64,
    /// Ordinal of the first and last line carrying one, in file order.
    pub first: Option<u64>,
    pub last: Option<u64>,
    pub expected_first: Option<u64>,
    pub next_on_resume: Option<u64>,
    /// What is wrong, sorted by line (in the order found, on one line).
    pub problems: Vec<Problem>,
    /// The paginated file's `history_base`, for the lineage check.
    pub history_base: Option<HistoryBase>,
    /// The first `session_meta`'s line (the lineage findings point there).
    pub meta: Option<Line>,
    /// What keeps Codex from reading the head of a file that is not paginated (a BOM, no
    /// `session_meta` first): the ordinal check holds it for paginated files only, in
    /// `problems`, where it breaks the ordinal state; a resume suffers it in every file.
    pub legacy_head: Option<Problem>,
}

/// What Codex makes of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Class {
    /// Decodes with a known type: the reverse scanner stops here.
    Parseable,
    /// A line Codex cannot parse.
    Unparseable(Unparseable),
}

/// One line, reduced to what the checks need.
#[derive(Debug, Clone)]
struct Obs {
    pos: Pos,
    ordinal: Option<u64>,
    class: Class,
}

impl Obs {
    fn is_record(&self) -> bool {
        !matches!(self.class, Class::Unparseable(Unparseable::Bad(_)))
    }
}

/// The line a fault shows at, its characters counted: `count` counts them from the record
/// at hand; a held line has them.
type Count<'c> = &'c dyn Fn() -> Line;

/// A jump past the next ordinal, judged at the end (later lines may fill it).
#[derive(Debug, Clone)]
struct PendingGap {
    at: Line,
    lo: u64,
    hi: u64,
    found: u64,
}

/// The last parseable record.
#[derive(Debug, Clone)]
struct LastParseable {
    pos: Pos,
    /// Its whole line, in a sub-agent file (whose prefix fault shows here).
    at: Option<Line>,
    ordinal: Option<u64>,
    /// Index of its `Missing` fault, when it has no ordinal.
    missing_idx: Option<usize>,
}

/// A line after the last parseable record that carries an ordinal.
#[derive(Debug, Clone)]
struct TailLine {
    at: Line,
    ordinal: u64,
    line: Unparseable,
}

/// Disjoint, inclusive ranges of the ordinals seen so far (one range in a sound file).
#[derive(Debug, Default)]
struct Seen {
    ranges: BTreeMap<u64, u64>,
}

impl Seen {
    fn contains(&self, o: u64) -> bool {
        self.ranges
            .range(..=o)
            .next_back()
            .is_some_and(|(_, &hi)| o <= hi)
    }

    fn insert(&mut self, o: u64) {
        if self.contains(o) {
            return;
        }
        let mut lo = o;
        let mut hi = o;
        if let Some((&plo, &phi)) = self.ranges.range(..o).next_back() {
            if phi.checked_add(1) == Some(o) {
                lo = plo;
                self.ranges.remove(&plo);
            }
        }
        if let Some(next) = o.checked_add(1) {
            if let Some(nhi) = self.ranges.remove(&next) {
                hi = nhi;
            }
        }
        self.ranges.insert(lo, hi);
    }

    /// How many of `lo..=hi` were never seen.
    fn unseen_in(&self, lo: u64, hi: u64) -> u64 {
        let mut covered = 0u64;
        let start = self.ranges.range(..=lo).next_back().map_or(lo, |(&s, _)| s);
        for (&s, &e) in self.ranges.range(start..=hi) {
            let a = s.max(lo);
            let b = e.min(hi);
            if a <= b {
                covered += b - a + 1;
            }
        }
        (hi - lo).saturating_add(1).saturating_sub(covered)
    }
}

#[derive(Debug)]
enum Mode {
    /// Not known yet: no `session_meta` so far.
    /// Each with its whole line, counted while the record was at hand.
    Pending(Vec<(Obs, Line)>),
    Legacy,
    Paginated(Box<Paginated>),
}

/// The state of a paginated check.
#[derive(Debug, Default)]
struct Paginated {
    expected_first: u64,
    subagent_start: Option<u64>,
    /// Highest ordinal so far.
    high: Option<u64>,
    /// The previous ordinal and its line.
    prev: Option<(u64, Pos)>,
    seen: Seen,
    gaps: Vec<PendingGap>,
    last_parseable: Option<LastParseable>,
    tail: Vec<TailLine>,
}

/// The ordinal check of one file.
#[derive(Debug)]
pub struct OrdinalCheck {
    mode: Mode,
    history_mode: Option<String>,
    history_base: Option<HistoryBase>,
    meta: Option<Line>,
    records: u64,
    first: Option<u64>,
    last: Option<u64>,
    problems: Vec<Problem>,
    /// Why Codex cannot read this file's first line as its `session_meta`, if it cannot.
    head: Option<Problem>,
    /// The file's first line (a BOM's, or a missing `session_meta`'s, place).
    first_line: Option<Line>,
    /// A non-blank line has been seen.
    seen_line: bool,
    /// The mode was inferred from ordinals, with no `session_meta` to say it.
    inferred: bool,
    /// `history_mode` is neither `legacy` nor `paginated`.
    unknown_mode: bool,
    /// Count the characters of the `session_meta` line (a long one): where the file will
    /// not be read again to count them when a finding needs them.
    count_meta: bool,
}

impl Default for OrdinalCheck {
    fn default() -> Self {
        OrdinalCheck::new(true)
    }
}

impl OrdinalCheck {
    /// `count_meta`: count the `session_meta` line's characters now (the file will not be
    /// read again).
    pub fn new(count_meta: bool) -> Self {
        OrdinalCheck {
            count_meta,
            mode: Mode::Pending(Vec::new()),
            history_mode: None,
            history_base: None,
            meta: None,
            records: 0,
            first: None,
            last: None,
            problems: Vec::new(),
            head: None,
            first_line: None,
            seen_line: false,
            inferred: false,
            unknown_mode: false,
        }
    }

    /// Remember what Codex would make of the first non-blank line: its resume and append
    /// paths (`ordinal_state_for_rollout`) require it to parse as a `session_meta`.
    fn note_head(&mut self, count: Count<'_>, problem: impl FnOnce() -> Option<Head>) {
        if std::mem::replace(&mut self.seen_line, true) {
            return;
        }
        if let Some(head) = problem() {
            self.head = Some(Problem {
                at: count(),
                fault: Fault::Head(head),
            });
        }
    }

    /// The mode is known: from the first `session_meta`, or (`None`) from its absence.
    fn decide(&mut self, meta: Option<&SessionInfo>) {
        let pending = match std::mem::replace(&mut self.mode, Mode::Legacy) {
            Mode::Pending(p) => p,
            other => {
                self.mode = other;
                return;
            }
        };
        let mut mode = meta.map_or("legacy", SessionInfo::mode);
        // No session_meta at all, yet lines carry ordinals: only a paginated writer writes
        // them, so check them as such (and say the file cannot be resumed, at the end).
        if meta.is_none() && pending.iter().any(|(o, _)| o.ordinal.is_some()) {
            mode = "paginated";
            self.inferred = true;
        }
        self.history_mode = Some(mode.to_string());
        if let Some(info) = meta.filter(|_| !matches!(mode, "legacy" | "paginated")) {
            // Codex refuses the file: its ordinals are not judged against either mode (one
            // `ordinal.in-legacy` per line would only bury the finding that matters).
            self.unknown_mode = true;
            let mode = info.mode().to_string();
            self.problems.push(Problem {
                at: self.meta.unwrap_or_default(),
                fault: Fault::UnknownHistoryMode { mode },
            });
        }
        if mode == "paginated" {
            let info = meta.cloned().unwrap_or_default();
            let base_end = info
                .history_base
                .as_ref()
                .and_then(|b| b.end_ordinal_exclusive);
            self.history_base = info.history_base;
            let first_seen = pending.iter().find_map(|(o, _)| o.ordinal);
            self.mode = Mode::Paginated(Box::new(Paginated {
                // Without a session_meta there is no history_base to say where the file
                // starts: take its first ordinal, and let the head finding speak.
                expected_first: if self.inferred {
                    first_seen.unwrap_or(0)
                } else {
                    base_end.unwrap_or(0)
                },
                subagent_start: info.subagent_history_start_ordinal,
                ..Paginated::default()
            }));
        }
        for (obs, line) in pending {
            self.observe(obs, &|| line);
        }
    }

    fn observe(&mut self, obs: Obs, count: Count<'_>) {
        if let Mode::Pending(p) = &mut self.mode {
            // Held until the mode is known: counted now, while the record is at hand.
            p.push((obs, count()));
            if p.len() > MAX_PENDING {
                self.decide(None);
            }
            return;
        }
        // Legacy: `first`/`last` are the stray ordinals of records; paginated: of every line
        // that carries one (the raw scan the sequence checks read).
        let counts = matches!(self.mode, Mode::Paginated(_)) || obs.is_record();
        if let (Some(o), true) = (obs.ordinal, counts) {
            self.first.get_or_insert(o);
            self.last = Some(o);
        }
        match &mut self.mode {
            Mode::Pending(_) => {}
            Mode::Legacy => {
                if let (Some(o), true, false) = (obs.ordinal, obs.is_record(), self.unknown_mode) {
                    self.problems.push(Problem {
                        at: count(),
                        fault: Fault::InLegacy { found: o },
                    });
                }
            }
            Mode::Paginated(st) => st.observe(obs, count, &mut self.problems),
        }
    }

    /// The report, at the end of the file.
    pub fn finish(mut self, info: &StreamInfo) -> OrdinalReport {
        if matches!(self.mode, Mode::Pending(_)) {
            self.decide(None);
        }
        let line_one = self.first_line.unwrap_or_default();
        if info.bom && self.head.is_none() {
            self.head = Some(Problem {
                at: line_one,
                fault: Fault::Head(Head::Bom),
            });
        }
        if self.inferred && self.head.is_none() {
            self.head = Some(Problem {
                at: line_one,
                fault: Fault::Head(Head::NoMetaWithOrdinals),
            });
        }
        let mut legacy_head = None;
        if let Some(head) = self.head.take() {
            if matches!(self.mode, Mode::Paginated(_)) {
                self.problems.push(head);
            } else {
                legacy_head = Some(head);
            }
        }
        let (paginated, expected_first, next_on_resume) = match &mut self.mode {
            Mode::Paginated(st) => {
                let next = st.finish(&mut self.problems);
                (true, Some(st.expected_first), next)
            }
            _ => (false, None, None),
        };
        // By line; on one line, in the order found.
        self.problems.sort_by_key(|p| p.at.pos.line);
        OrdinalReport {
            history_mode: self.history_mode.unwrap_or_else(|| "legacy".to_string()),
            paginated,
            records: self.records,
            first: self.first,
            last: self.last,
            expected_first,
            next_on_resume,
            problems: self.problems,
            history_base: if paginated { self.history_base } else { None },
            meta: self.meta,
            legacy_head,
        }
    }
}

impl Paginated {
    fn observe(&mut self, obs: Obs, count: Count<'_>, problems: &mut Vec<Problem>) {
        let mut missing_idx = None;
        match obs.ordinal {
            Some(o) => self.sequence(&obs, count, o, problems),
            None if obs.is_record() => {
                let expected = match self.high {
                    Some(h) => h.checked_add(1),
                    None => Some(self.expected_first),
                };
                missing_idx = Some(problems.len());
                problems.push(Problem {
                    at: count(),
                    fault: Fault::Missing {
                        expected,
                        fails_resume: false,
                    },
                });
            }
            None => {}
        }
        match obs.class {
            Class::Parseable => {
                // A sub-agent file's prefix fault shows at its last parseable record.
                let at = self.subagent_start.is_some_and(|s| s > 0).then(count);
                self.last_parseable = Some(LastParseable {
                    pos: obs.pos,
                    at,
                    ordinal: obs.ordinal,
                    missing_idx,
                });
                self.tail.clear();
            }
            Class::Unparseable(line) => {
                if let Some(o) = obs.ordinal {
                    self.tail.push(TailLine {
                        at: count(),
                        ordinal: o,
                        line,
                    });
                }
            }
        }
    }

    fn sequence(&mut self, obs: &Obs, count: Count<'_>, o: u64, problems: &mut Vec<Problem>) {
        let mut fault = |fault| {
            problems.push(Problem { at: count(), fault });
        };
        match self.high {
            None => {
                let e = self.expected_first;
                if o != e {
                    fault(Fault::Start {
                        expected: e,
                        found: o,
                    });
                }
                self.high = Some(o);
            }
            Some(h) => {
                let next = h.checked_add(1);
                if Some(o) == next {
                    self.high = Some(o);
                } else if o > h {
                    // h + 1 < o: a jump; judged at the end, when we know what never came.
                    self.gaps.push(PendingGap {
                        at: count(),
                        lo: h + 1,
                        hi: o - 1,
                        found: o,
                    });
                    self.high = Some(o);
                } else if self.seen.contains(o) {
                    let previous = match self.prev {
                        Some((p, line)) if p == o => Some(line),
                        _ => None,
                    };
                    fault(Fault::Duplicate {
                        expected: next,
                        found: o,
                        previous,
                    });
                } else {
                    let from = self.prev.map_or(h, |(p, _)| p);
                    fault(Fault::Decrease {
                        expected: next,
                        found: o,
                        from,
                    });
                }
            }
        }
        self.seen.insert(o);
        self.prev = Some((o, obs.pos));
    }

    /// Gaps, resume prediction. Returns `next_on_resume`.
    fn finish(&mut self, problems: &mut Vec<Problem>) -> Option<u64> {
        for g in &self.gaps {
            let unseen = self.seen.unseen_in(g.lo, g.hi);
            problems.push(Problem {
                at: g.at,
                fault: Fault::Gap {
                    lo: g.lo,
                    hi: g.hi,
                    unseen,
                    found: g.found,
                },
            });
        }
        let last = self.last_parseable.as_ref()?;
        let Some(last_ordinal) = last.ordinal else {
            if let Some(p) = last.missing_idx.and_then(|i| problems.get_mut(i)) {
                if let Fault::Missing { fails_resume, .. } = &mut p.fault {
                    *fails_resume = true;
                }
            }
            return None;
        };
        if let Some(s) = self.subagent_start.filter(|&s| s > 0) {
            if last_ordinal < s - 1 {
                problems.push(Problem {
                    at: last.at.unwrap_or(Line {
                        pos: last.pos,
                        ..Line::default()
                    }),
                    fault: Fault::SubagentPrefix {
                        start: s,
                        last: last_ordinal,
                    },
                });
                return None;
            }
        }
        let next = last_ordinal.checked_add(1)?;
        for t in &self.tail {
            if t.ordinal < next {
                continue;
            }
            problems.push(Problem {
                at: t.at,
                fault: Fault::TailUnparseable {
                    line: t.line.clone(),
                    last_line: last.pos.line,
                    last_ordinal,
                    next,
                    found: t.ordinal,
                },
            });
        }
        Some(next)
    }
}

impl Fold for OrdinalCheck {
    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        self.records += 1;
        let count = || rec.line();
        if self.first_line.is_none() {
            // Its characters count only where a head fault may show there: a BOM, or a
            // first record that is not the session's metadata.
            let bom = rec.line_uncounted().len > rec.raw.len() as u64;
            self.first_line = Some(if bom || rec.kind != Kind::SessionMeta {
                rec.line()
            } else {
                rec.line_uncounted()
            });
        }
        self.note_head(&count, || {
            (rec.kind != Kind::SessionMeta).then(|| Head::FirstRecordNotMeta {
                type_name: rec.type_name.to_string(),
            })
        });
        let info = session.info();
        let is_first_meta = rec.kind == Kind::SessionMeta
            && self.meta.is_none()
            && info.meta_line == Some(rec.pos.line);
        if is_first_meta {
            // Findings show there only about a lineage, or a mode Codex does not know: its
            // characters (a `session_meta` can be long) are counted only then.
            let known_mode = matches!(info.mode(), "legacy" | "paginated");
            let counted = self.count_meta && info.history_base.is_some() || !known_mode;
            self.meta = Some(if counted {
                rec.line()
            } else {
                rec.line_uncounted()
            });
            self.decide(Some(info));
        }
        // Every named `Kind` is one of Codex's types; only `Other` needs the full list.
        let known = rec.kind != Kind::Other || CODEX_RECORD_TYPES.contains(&rec.type_name.as_ref());
        let class = if known {
            Class::Parseable
        } else {
            Class::Unparseable(Unparseable::UnknownType(rec.type_name.to_string()))
        };
        let obs = Obs {
            pos: rec.pos,
            ordinal: rec.ordinal,
            class,
        };
        self.observe(obs, &count);
    }

    fn bad(&mut self, bad: &BadLine) {
        let line = bad.line();
        let count = || line;
        if self.first_line.is_none() {
            self.first_line = Some(line);
        }
        self.note_head(&count, || {
            Some(Head::FirstLineUnreadable(Box::new(bad.clone())))
        });
        let obs = Obs {
            pos: bad.pos,
            ordinal: bad.ordinal_hint,
            class: Class::Unparseable(Unparseable::Bad(Box::new(bad.clone()))),
        };
        self.observe(obs, &count);
    }

    fn blank(&mut self, line: Line) {
        if self.first_line.is_none() {
            self.first_line = Some(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Needs;
    use crate::testkit;
    use serde_json::{json, Value};

    fn check(text: &str) -> OrdinalReport {
        let needs = Needs::default().ordinals();
        testkit::facts(text, needs).ordinals.expect("read")
    }

    /// `(kind, line, expected, found)` of every problem, in `check-ordinal`'s words.
    fn kinds(r: &OrdinalReport) -> Vec<(&'static str, u64, Option<u64>, Option<u64>)> {
        r.problems
            .iter()
            .map(|p| {
                let (kind, expected, found) = match &p.fault {
                    Fault::Head(_) | Fault::UnknownHistoryMode { .. } => ("start", None, None),
                    Fault::InLegacy { found } => ("unexpected", None, Some(*found)),
                    Fault::Missing { expected, .. } => ("missing", *expected, None),
                    Fault::Start { expected, found } => ("start", Some(*expected), Some(*found)),
                    Fault::Duplicate {
                        expected, found, ..
                    } => ("duplicate", *expected, Some(*found)),
                    Fault::Decrease {
                        expected, found, ..
                    } => ("decrease", *expected, Some(*found)),
                    Fault::Gap { lo, found, .. } => ("gap", Some(*lo), Some(*found)),
                    Fault::TailUnparseable { next, found, .. } => {
                        ("tail_unparseable", Some(*next), Some(*found))
                    }
                    Fault::SubagentPrefix { start, last } => {
                        ("missing", Some(start - 1), Some(*last))
                    }
                };
                (kind, p.at.pos.line, expected, found)
            })
            .collect()
    }

    #[test]
    fn a_paginated_file_whose_first_line_codex_cannot_read_cannot_be_resumed() {
        // Torn session_meta: no meta at all, but the ordinals say paginated.
        let torn = file(&[
            r#"{"timestamp":"t","ordinal":0,"type":"session_meta","payload":{"id":"a""#.to_string(),
            ev(1),
            ev(2),
        ]);
        let r = check(&torn);
        assert_eq!(r.history_mode, "paginated");
        assert_eq!(kinds(&r), [("start", 1, None, None)]);
        assert_eq!(r.next_on_resume, Some(3));
        // A BOM before a good session_meta.
        let bom = format!("\u{feff}{}", paginated(&[0, 1, 2]));
        let r = check(&bom);
        assert_eq!(kinds(&r), [("start", 1, None, None)]);
        // The first record is not a session_meta.
        let late = file(&[ev(0), meta(1, json!({})), ev(2)]);
        let r = check(&late);
        assert!(
            kinds(&r).contains(&("start", 1, None, None)),
            "{:?}",
            kinds(&r)
        );
        // A legacy file with a BOM is not this checker's business.
        let legacy =
            "\u{feff}{\"timestamp\":\"t\",\"type\":\"session_meta\",\"payload\":{\"id\":\"a\"}}\n";
        let r = check(legacy);
        assert!(r.problems.is_empty());
        assert_eq!(r.legacy_head.map(|h| h.fault), Some(Fault::Head(Head::Bom)));
    }

    #[test]
    fn an_unknown_history_mode_is_an_error() {
        let text = file(&[
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"a","history_mode":"paged"}}"#
                .to_string(),
        ]);
        let r = check(&text);
        assert_eq!(r.history_mode, "paged");
        assert_eq!(kinds(&r), [("start", 1, None, None)]);
    }

    /// A paginated `session_meta` at `ordinal`, with `extra` payload fields.
    fn meta(ordinal: u64, extra: Value) -> String {
        let mut payload = json!({"id": "a", "history_mode": "paginated"});
        if let (Value::Object(p), Value::Object(e)) = (&mut payload, extra) {
            p.extend(e);
        }
        testkit::meta(payload).ordinal(ordinal).to_string()
    }

    fn ev(ordinal: u64) -> String {
        testkit::event(json!({"type": "token_count"}))
            .ordinal(ordinal)
            .to_string()
    }

    /// A record of a type Codex does not know.
    fn brand_new(ordinal: u64) -> String {
        testkit::line("brand_new", json!({}))
            .ordinal(ordinal)
            .to_string()
    }
    fn file(lines: &[String]) -> String {
        testkit::jsonl(lines)
    }

    fn paginated(ordinals: &[u64]) -> String {
        let mut lines = vec![meta(ordinals[0], json!({}))];
        lines.extend(ordinals[1..].iter().map(|&o| ev(o)));
        file(&lines)
    }

    #[test]
    fn sound_paginated_file_is_clean_and_predicts_next() {
        let r = check(&paginated(&[0, 1, 2, 3]));
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.history_mode, "paginated");
        assert_eq!(
            (
                r.records,
                r.first,
                r.last,
                r.expected_first,
                r.next_on_resume
            ),
            (4, Some(0), Some(3), Some(0), Some(4))
        );
    }

    #[test]
    fn legacy_file_without_ordinals_has_nulls() {
        let text = file(&[
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"a"}}"#.into(),
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"x"}}"#.into(),
        ]);
        let r = check(&text);
        assert_eq!(r.history_mode, "legacy");
        assert!(r.problems.is_empty());
        assert_eq!(
            (r.first, r.last, r.expected_first, r.next_on_resume),
            (None, None, None, None)
        );
    }

    #[test]
    fn stray_ordinal_in_legacy_is_unexpected() {
        let text = file(&[
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"a","history_mode":"legacy"}}"#.into(),
            r#"{"timestamp":"t","ordinal":7,"type":"event_msg","payload":{"type":"x"}}"#.into(),
        ]);
        let r = check(&text);
        assert_eq!(kinds(&r), [("unexpected", 2, None, Some(7))]);
        assert_eq!(
            (r.first, r.last, r.next_on_resume),
            (Some(7), Some(7), None)
        );
    }

    #[test]
    fn deleted_line_is_a_gap() {
        let text = paginated(&[0, 1, 3, 4]);
        let r = check(&text);
        assert_eq!(kinds(&r), [("gap", 3, Some(2), Some(3))]);
    }

    #[test]
    fn duplicated_line_is_a_duplicate() {
        let r = check(&paginated(&[0, 1, 2, 2, 3]));
        assert_eq!(kinds(&r), [("duplicate", 4, Some(3), Some(2))]);
        assert_eq!(r.next_on_resume, Some(4));
    }

    /// Codex 0.154+ logs the jump to 3 as a skipped range, then skips 2 as regressed
    /// (`testdata/versions/ordinal-swapped/`): both are facts, the jump's with nothing unseen.
    #[test]
    fn swapped_lines_are_a_jump_filled_later_then_a_decrease() {
        let r = check(&paginated(&[0, 1, 3, 2, 4]));
        assert_eq!(
            kinds(&r),
            [
                ("gap", 3, Some(2), Some(3)),
                ("decrease", 4, Some(4), Some(2))
            ]
        );
        assert!(matches!(r.problems[0].fault, Fault::Gap { unseen: 0, .. }));
    }

    #[test]
    fn reuse_of_an_old_ordinal_is_a_duplicate() {
        let r = check(&paginated(&[0, 1, 2, 3, 1, 4]));
        assert_eq!(kinds(&r), [("duplicate", 5, Some(4), Some(1))]);
    }

    #[test]
    fn partly_filled_gap_reports_what_never_came() {
        let r = check(&paginated(&[0, 4, 2, 5]));
        assert_eq!(
            kinds(&r),
            [
                ("gap", 2, Some(1), Some(4)),
                ("decrease", 3, Some(5), Some(2))
            ]
        );
        assert_eq!(
            r.problems[0].fault,
            Fault::Gap {
                lo: 1,
                hi: 3,
                unseen: 2,
                found: 4
            }
        );
    }

    #[test]
    fn fork_starts_at_history_base_end() {
        let base = || json!({"history_base": {"thread_id": "p", "end_ordinal_exclusive": 14, "end_byte_offset": 9}});
        let ok = file(&[meta(14, base()), ev(15)]);
        let r = check(&ok);
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!((r.expected_first, r.next_on_resume), (Some(14), Some(16)));
        assert_eq!(r.history_base.and_then(|b| b.end_byte_offset), Some(9));
        let bad = file(&[meta(0, base()), ev(1)]);
        assert_eq!(kinds(&check(&bad)), [("start", 1, Some(14), Some(0))]);
    }

    #[test]
    fn paginated_without_base_must_start_at_zero() {
        assert_eq!(
            kinds(&check(&paginated(&[1, 2]))),
            [("start", 1, Some(0), Some(1))]
        );
    }

    #[test]
    fn last_record_without_ordinal_is_missing_and_resume_fails() {
        let text = file(&[
            meta(0, json!({})),
            ev(1),
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"x"}}"#.into(),
        ]);
        let r = check(&text);
        assert_eq!(kinds(&r), [("missing", 3, Some(2), None)]);
        assert_eq!(r.next_on_resume, None);
        assert_eq!(
            r.problems[0].fault,
            Fault::Missing {
                expected: Some(2),
                fails_resume: true
            }
        );
    }

    #[test]
    fn torn_last_line_names_the_reused_ordinal() {
        let mut text = paginated(&[0, 1, 2]);
        text.push_str(r#"{"timestamp":"t","ordinal":3,"type":"event_msg","pay"#);
        let r = check(&text);
        assert_eq!(kinds(&r), [("tail_unparseable", 4, Some(3), Some(3))]);
        assert_eq!((r.last, r.next_on_resume), (Some(3), Some(3)));
        assert!(matches!(
            &r.problems[0].fault,
            Fault::TailUnparseable { line: Unparseable::Bad(b), last_line: 3, last_ordinal: 2, .. } if b.torn
        ));
    }

    #[test]
    fn unknown_type_at_tail_is_skipped_by_codex() {
        let text = file(&[meta(0, json!({})), ev(1), brand_new(2), brand_new(3)]);
        let r = check(&text);
        assert_eq!(
            kinds(&r),
            [
                ("tail_unparseable", 3, Some(2), Some(2)),
                ("tail_unparseable", 4, Some(2), Some(3))
            ]
        );
        assert_eq!(r.next_on_resume, Some(2));
    }

    #[test]
    fn resume_over_a_skipped_tail_shows_as_duplicate() {
        let text = file(&[meta(0, json!({})), ev(1), brand_new(2), ev(2)]);
        let r = check(&text);
        assert_eq!(kinds(&r), [("duplicate", 4, Some(3), Some(2))]);
        assert_eq!(r.next_on_resume, Some(3));
    }

    #[test]
    fn unknown_type_mid_file_is_not_a_tail_problem() {
        let text = file(&[meta(0, json!({})), brand_new(1), ev(2)]);
        let r = check(&text);
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.next_on_resume, Some(3));
    }

    #[test]
    fn incomplete_subagent_prefix_fails_resume() {
        let text = file(&[meta(0, json!({"subagent_history_start_ordinal": 5})), ev(1)]);
        let r = check(&text);
        assert_eq!(kinds(&r), [("missing", 2, Some(4), Some(1))]);
        assert_eq!(r.next_on_resume, None);
        let full = file(&[
            meta(0, json!({"subagent_history_start_ordinal": 3})),
            ev(1),
            ev(2),
            ev(3),
        ]);
        assert!(check(&full).problems.is_empty());
    }

    #[test]
    fn records_before_the_meta_are_judged_by_its_mode() {
        // The sequence is sound; only the head is wrong (Codex needs session_meta first).
        let text = file(&[ev(0), meta(1, json!({})), ev(2)]);
        let r = check(&text);
        assert_eq!(r.history_mode, "paginated");
        assert_eq!(kinds(&r), [("start", 1, None, None)]);
        assert_eq!(r.meta.map(|l| l.pos.line), Some(2));
    }

    #[test]
    fn no_meta_at_all_with_ordinals_is_checked_as_paginated_and_cannot_resume() {
        let r = check(&file(&[ev(0), ev(1)]));
        assert_eq!(r.history_mode, "paginated");
        assert_eq!(kinds(&r), [("start", 1, None, None)]);
        assert_eq!(r.next_on_resume, Some(2));
        // Without ordinals there is nothing to check: legacy, as Codex reads a missing mode.
        let plain = "{\"timestamp\":\"t\",\"type\":\"event_msg\",\"payload\":{}}\n";
        let r = check(plain);
        assert_eq!(r.history_mode, "legacy");
        assert!(r.problems.is_empty());
    }

    #[test]
    fn unknown_history_mode_is_reported_as_written_and_checked_as_legacy() {
        let text = file(&[
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"a","history_mode":"paged"}}"#.into(),
        ]);
        let r = check(&text);
        assert_eq!(r.history_mode, "paged");
        assert!(!r.paginated);
        assert_eq!(
            r.problems[0].fault,
            Fault::UnknownHistoryMode {
                mode: "paged".into()
            }
        );
    }

    #[test]
    fn seen_set_counts_unseen() {
        let mut s = Seen::default();
        for o in [0, 1, 2, 5, 7, 6, 3] {
            s.insert(o);
        }
        assert!(s.contains(3) && !s.contains(4));
        assert_eq!(s.unseen_in(0, 7), 1);
        assert_eq!(s.unseen_in(4, 4), 1);
        assert_eq!(s.unseen_in(8, 10), 3);
        assert_eq!(s.ranges.len(), 2);
    }

    #[test]
    fn never_panics_on_extreme_ordinals() {
        let r = check(&paginated(&[0, u64::MAX, u64::MAX, 1]));
        assert_eq!(r.next_on_resume, Some(2));
        assert!(!r.problems.is_empty());
    }
}
