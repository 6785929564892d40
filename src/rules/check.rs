//! Running the units: a [`Checker`] holds the hooks of the units a run reports, and runs
//! them over a file's records as the pass reads them and over its facts once it is read.

use std::sync::{Arc, Mutex};

use crate::analysis::{FileFacts, ReadOptions};
use crate::codex::Reading;
use crate::decode::{Kind, Record};
use crate::findings::{Finding, Rule};
use crate::input::placement::{self, Placement};
use crate::input::Source;
use crate::lineage::{self, Resolver};
use crate::replay::{self, Replayed};
use crate::statedb::{Homes, ThreadState};

use super::facts::{Facts, HomeFacts, RecordCx};
use super::found::{Findings, Lines};
use super::stage::Stage;
use super::unit::{FileCheck, HomeCheck, Hook, RecordCheck, Unit};

/// The record kinds, as the per-kind tables index them.
const KINDS: [Kind; 8] = [
    Kind::SessionMeta,
    Kind::ResponseItem,
    Kind::EventMsg,
    Kind::TurnContext,
    Kind::Compacted,
    Kind::WorldState,
    Kind::TokenUsageRecord,
    Kind::Other,
];

/// A record check, and what it reads.
#[derive(Debug, Clone, Copy)]
struct RecordHook {
    rule: Rule,
    stage: Stage,
    longer_than: u64,
    check: RecordCheck,
}

/// The checks a run makes.
#[derive(Debug)]
pub struct Checker {
    /// Per record kind (its discriminant), the record checks that read it.
    records: Vec<Vec<RecordHook>>,
    files: Vec<(Rule, Stage, FileCheck)>,
    homes: Vec<(Rule, HomeCheck)>,
    placement: bool,
    /// Judge the place of a file outside a Codex home too (`lint`); the state view judges a
    /// name only where Codex looks for it.
    outside_home: bool,
    /// Spans reach their ends, their end columns counted (for SARIF).
    columns: bool,
    /// Findings carry fixes and related places (for `repair`).
    fixes: bool,
    /// Give each finding the digest of its line (for SARIF's fingerprints).
    digests: bool,
    /// Where the `state` rules read Codex's databases; `None` when none of them is checked.
    state: Option<Arc<Homes>>,
}

impl Checker {
    /// The checks of the hooks `keep` keeps, units in registry order.
    pub fn new(keep: impl Fn(&Unit, &Hook) -> bool) -> Checker {
        let mut records = vec![Vec::new(); KINDS.len()];
        let mut files = Vec::new();
        let mut homes = Vec::new();
        for unit in super::units() {
            for hook in unit.hooks.iter().filter(|h| keep(unit, h)) {
                match *hook {
                    Hook::Record {
                        stage,
                        kinds,
                        longer_than,
                        check,
                    } => {
                        for kind in KINDS.into_iter().filter(|&k| kinds.contains(k)) {
                            if let Some(list) = records.get_mut(kind as usize) {
                                list.push(RecordHook {
                                    rule: unit.rule,
                                    stage,
                                    longer_than,
                                    check,
                                });
                            }
                        }
                    }
                    Hook::File { stage, check } => files.push((unit.rule, stage, check)),
                    Hook::Home { check } => homes.push((unit.rule, check)),
                }
            }
        }
        let placement = files.iter().any(|(_, stage, _)| *stage == Stage::Placement);
        Checker {
            records,
            files,
            homes,
            placement,
            outside_home: true,
            columns: false,
            fixes: true,
            digests: false,
            state: None,
        }
    }

    /// Whether a check reads what Codex's state databases say of a file.
    pub fn reads_state(&self) -> bool {
        self.files
            .iter()
            .any(|(_, stage, _)| *stage == Stage::StateDb)
            || !self.homes.is_empty()
    }

    /// The homes whose databases the `state` rules read, when they are checked.
    pub fn state(&self) -> Option<&Arc<Homes>> {
        self.state.as_ref()
    }

    /// The checks, the `state` rules reading the databases of `homes` (when they are
    /// checked at all).
    pub fn with_state(mut self, homes: Arc<Homes>) -> Checker {
        if self.reads_state() {
            self.state = Some(homes);
        }
        self
    }

    /// The checks, their findings' spans reaching their ends and counting end columns (an
    /// output that prints them).
    pub fn with_columns(mut self, columns: bool) -> Checker {
        self.columns = columns;
        self
    }

    /// The checks, their findings without fixes or related places: for an output that
    /// prints neither, no line is read back to make them.
    pub fn without_fixes(mut self) -> Checker {
        self.fixes = false;
        self
    }

    /// Where the findings of one file go, spans and fixes as the checker makes them.
    fn findings(&self, file: Source) -> Findings {
        Findings::new(file)
            .with_columns(self.columns)
            .with_fixes(self.fixes)
    }

    /// The checks, each finding given the digest of the line it starts on (SARIF's
    /// fingerprints).
    pub fn with_digests(mut self, digests: bool) -> Checker {
        self.digests = digests;
        self
    }

    /// The checks, judging a file's place only inside a Codex home (the state view: what a
    /// resume does with a file is not about where a copy of it lies).
    pub fn in_home_only(mut self) -> Checker {
        self.outside_home = false;
        self
    }

    /// The checks of every hook of the units `keep` keeps.
    pub fn of_units(keep: impl Fn(&Unit) -> bool) -> Checker {
        Checker::new(|unit, _| keep(unit))
    }

    /// The rules whose checks it makes, in registry order.
    pub fn rules(&self) -> Vec<Rule> {
        let mut made: Vec<Rule> = self.files.iter().map(|(r, _, _)| *r).collect();
        made.extend(self.homes.iter().map(|(r, _)| *r));
        made.extend(self.records.iter().flatten().map(|h| h.rule));
        super::all()
            .iter()
            .copied()
            .filter(|r| made.contains(r))
            .collect()
    }

    /// Whether any check reads records as they stream by.
    pub fn reads_records(&self) -> bool {
        self.records.iter().any(|l| !l.is_empty())
    }

    /// Check one record.
    pub fn record(&self, rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Findings) {
        let Some(hooks) = self.records.get(rec.kind as usize) else {
            return;
        };
        let Some(first) = hooks.first() else {
            return;
        };
        // One sink for the record, each check's rule and stage set as it runs.
        let mut found = out.of(first.rule, first.stage, None);
        let len = rec.raw.len() as u64;
        for h in hooks.iter().filter(|h| len > h.longer_than) {
            found.set(h.rule, h.stage);
            (h.check)(rec, cx, &mut found);
        }
    }

    /// Check the facts of a whole file. `lines` finds the whole line at a position a fact
    /// kept.
    pub fn file(&self, facts: &Facts<'_>, out: &mut Findings, lines: Option<Lines<'_>>) {
        for &(rule, stage, check) in &self.files {
            check(facts, &mut out.of(rule, stage, lines));
        }
    }
}

/// A file replayed, and what the checks found in it.
#[derive(Debug)]
pub struct Checked {
    pub replay: Replayed,
    /// In line order.
    pub findings: Vec<Finding>,
}

/// Replay `source` and check it: the record checks ride along the replay's pass, the file
/// checks read what it rebuilt.
pub fn replay(
    source: &Source,
    resolver: &Mutex<Resolver>,
    read: &ReadOptions,
    opts: &replay::Options,
    checker: &Checker,
) -> Checked {
    let mut found = checker.findings(source.clone());
    let file_id = source.path().and_then(placement::thread_id);
    let reads_records = checker.reads_records();
    let mut state = watch(checker, source);
    let mut watch = |rec: &Record<'_>, session: &crate::analysis::session::SessionInfo| {
        if let Some(s) = state.as_mut() {
            s.probe.observe(rec.line_uncounted(), rec.ordinal);
        }
        if reads_records {
            let reading = opts.codex.reading(session.cli_version.as_deref());
            let cx = RecordCx::new(session, file_id.as_deref(), reading);
            checker.record(rec, &cx, &mut found);
        }
    };
    let replay = replay::replay(source, resolver, read, opts, &mut watch);
    if let (Some(s), Some(path)) = (state.as_mut(), source.path()) {
        s.finish(path);
    }
    let placement: Option<Placement> = checker
        .placement
        .then(|| source.path().and_then(placement::placement))
        .flatten()
        .filter(|p| checker.outside_home || p.home.is_some());
    let lines = |pos: crate::decode::Pos, count: bool| replay.line_at(pos, count);
    let facts = Facts {
        state: state.as_ref(),
        ..Facts::of_replay(&replay, placement.as_ref())
    };
    checker.file(&facts, &mut found, Some(&lines));
    let mut findings = found.finish();
    if checker.digests {
        digest(&mut findings, source);
    }
    Checked { findings, replay }
}

/// Give each finding with a span the digest of the line it starts on, read again.
fn digest(findings: &mut [Finding], source: &Source) {
    let at: Vec<(usize, u64)> = findings
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.span.map(|s| (i, s.line_offset)))
        .collect();
    let offsets: Vec<u64> = at.iter().map(|&(_, o)| o).collect();
    let digests = crate::input::digest::line_digests(source, &offsets);
    for ((i, _), d) in at.into_iter().zip(digests) {
        if let Some(f) = findings.get_mut(i) {
            f.digest = d;
        }
    }
}

/// Check the ordinal and lineage facts of a file read by a pass with
/// [`crate::analysis::Needs::ordinals`] (`check-ordinal`): `lineage`, its lineage checked
/// once the pass was done.
pub fn ordinals(
    facts: &FileFacts,
    lineage: &[lineage::Problem],
    checker: &Checker,
    codex: Reading,
    state: Option<&ThreadState>,
) -> Vec<Finding> {
    let mut found = checker.findings(facts.source.clone()).lineage_late();
    let facts = Facts {
        file: facts,
        replay: None,
        lineage,
        placement: None,
        codex,
        state,
    };
    checker.file(&facts, &mut found, None);
    let mut findings = found.finish();
    if checker.digests {
        digest(&mut findings, &facts.file.source);
    }
    findings
}

/// What Codex's databases say of `source`, to be placed on its pass, when the checker
/// reads them.
fn watch(checker: &Checker, source: &Source) -> Option<ThreadState> {
    ThreadState::watch(checker.state.as_deref()?, source.path()?)
}

/// Read `source` for `check-ordinal` (`needs`), placing on the pass the offsets Codex's
/// databases name for it when the checker reads them: the facts, and the thread's state.
pub fn read_for_ordinals(
    source: &Source,
    read: &ReadOptions,
    needs: &crate::analysis::Needs,
    checker: &Checker,
) -> (FileFacts, Option<ThreadState>) {
    let mut state = watch(checker, source);
    let facts = crate::analysis::read_observed(source, read, needs, &mut |rec, _, _| {
        if let Some(s) = state.as_mut() {
            s.probe.observe(rec.line_uncounted(), rec.ordinal);
        }
    });
    if let (Some(s), Some(path)) = (state.as_mut(), source.path()) {
        s.finish(path);
    }
    (facts, state)
}

/// Check one Codex home's databases: the findings about them, each about the database file
/// it concerns.
pub fn home(facts: &HomeFacts<'_>, checker: &Checker) -> Vec<Finding> {
    let db = Source::File(facts.home.dir.join(crate::statedb::STATE_DB));
    let mut found = checker.findings(db);
    for &(rule, check) in &checker.homes {
        check(facts, &mut found.of(rule, Stage::StateDb, None));
    }
    found.finish()
}
