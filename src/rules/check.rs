//! Running the units: a [`Checker`] holds the hooks of the units a run reports, and runs
//! them over a file's records as the pass reads them and over its facts once it is read.

use std::sync::Mutex;

use crate::analysis::{FileFacts, ReadOptions};
use crate::decode::{Kind, Record};
use crate::findings::{Finding, Rule};
use crate::input::placement::{self, Placement};
use crate::input::Source;
use crate::lineage::{self, Resolver};
use crate::replay::{self, Replayed};

use super::facts::{Facts, RecordCx};
use super::found::{Counter, Findings};
use super::stage::Stage;
use super::unit::{FileCheck, Hook, RecordCheck, Unit};

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

/// The checks a run makes.
#[derive(Debug)]
pub struct Checker {
    /// Per record kind (its discriminant), the record checks that read it.
    records: Vec<Vec<(Rule, Stage, RecordCheck)>>,
    files: Vec<(Rule, Stage, FileCheck)>,
    placement: bool,
}

impl Checker {
    /// The checks of the hooks `keep` keeps, units in registry order.
    pub fn new(keep: impl Fn(&Unit, &Hook) -> bool) -> Checker {
        let mut records = vec![Vec::new(); KINDS.len()];
        let mut files = Vec::new();
        for unit in super::units() {
            for hook in unit.hooks.iter().filter(|h| keep(unit, h)) {
                match *hook {
                    Hook::Record {
                        stage,
                        kinds,
                        check,
                    } => {
                        for kind in KINDS.into_iter().filter(|&k| kinds.contains(k)) {
                            if let Some(list) = records.get_mut(kind as usize) {
                                list.push((unit.rule, stage, check));
                            }
                        }
                    }
                    Hook::File { stage, check } => files.push((unit.rule, stage, check)),
                }
            }
        }
        let placement = files.iter().any(|(_, stage, _)| *stage == Stage::Placement);
        Checker {
            records,
            files,
            placement,
        }
    }

    /// The checks of every hook of the units `keep` keeps.
    pub fn of_units(keep: impl Fn(&Unit) -> bool) -> Checker {
        Checker::new(|unit, _| keep(unit))
    }

    /// The rules whose checks it makes, in registry order.
    pub fn rules(&self) -> Vec<Rule> {
        let mut made: Vec<Rule> = self.files.iter().map(|(r, _, _)| *r).collect();
        made.extend(self.records.iter().flatten().map(|(r, _, _)| *r));
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
        for &(rule, stage, check) in self.records.get(rec.kind as usize).into_iter().flatten() {
            check(rec, cx, &mut out.of(rule, stage, None));
        }
    }

    /// Check the facts of a whole file. `count` reads back the characters of a line a fact
    /// left uncounted.
    pub fn file(&self, facts: &Facts<'_>, out: &mut Findings, count: Option<Counter<'_>>) {
        for &(rule, stage, check) in &self.files {
            check(facts, &mut out.of(rule, stage, count));
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
    let mut found = Findings::new(source.clone());
    let file_id = source
        .path()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .and_then(lineage::ids_from_file_name)
        .map(|(thread, _)| thread.to_ascii_lowercase());
    let reads_records = checker.reads_records() && std::env::var_os("NOHOOKS").is_none();
    let mut watch = |rec: &Record<'_>, session: &crate::analysis::session::SessionInfo| {
        if reads_records {
            let cx = RecordCx::new(session, file_id.as_deref());
            checker.record(rec, &cx, &mut found);
        }
    };
    let replay = replay::replay(source, resolver, read, opts, &mut watch);
    let placement: Option<Placement> = checker
        .placement
        .then(|| source.path().and_then(placement::placement))
        .flatten();
    let count = |line: &crate::decode::Line| replay.count_chars(line);
    checker.file(
        &Facts::of_replay(&replay, placement.as_ref()),
        &mut found,
        Some(&count),
    );
    Checked {
        findings: found.finish(),
        replay,
    }
}

/// Check the ordinal and lineage facts of a file read by a pass with
/// [`crate::analysis::Needs::ordinals`] (`check-ordinal`): `lineage`, its lineage checked
/// once the pass was done.
pub fn ordinals(
    facts: &FileFacts,
    lineage: Option<&lineage::Problem>,
    checker: &Checker,
) -> Vec<Finding> {
    let mut found = Findings::new(facts.source.clone()).lineage_late();
    let facts = Facts {
        file: facts,
        replay: None,
        lineage: lineage.map(std::slice::from_ref).unwrap_or_default(),
        placement: None,
    };
    checker.file(&facts, &mut found, None);
    found.finish()
}
