//! What Codex's state databases beside the rollouts say of them (`src/statedb/`): a row whose
//! rollout is not there, a projection checkpoint past the end of its file, inside a line, or
//! at an ordinal it does not expect, stored turns whose bounds are not their lines, a
//! projection behind or missing. Checked where a rollout lies in a Codex home that has the
//! databases, for Codex 0.153 and later (no verdict of an earlier version was asked for:
//! they are not checked).

use crate::codex::{Answer, Behaviour, Reading};
use crate::decode::Pos;
use crate::findings::Effect;
use crate::rules::Facts;
use crate::statedb::probe::Mark;
use crate::statedb::ThreadState;

group![
    rollout_missing,
    unreadable,
    checkpoint_past_end,
    checkpoint_misplaced,
    checkpoint_at_duplicate,
    projection_behind,
    projection_missing,
    turn_bounds,
];

/// The oldest version the rules judge (the oldest whose verdicts are kept).
const OLDEST: crate::codex::Version = crate::codex::Version::new(0, 153, 0);

/// Whether the version read as is one the rules judge.
fn judged(r: &Reading) -> bool {
    r.version >= OLDEST
}

/// The file's thread state, when the rules judge it and the row names this file (its
/// projection is held against it).
fn state<'a>(facts: &Facts<'a>) -> Option<&'a ThreadState> {
    facts
        .state
        .filter(|s| judged(&facts.codex) && s.missing_at.is_none())
}

/// Where a record's line starts (for a finding at it).
fn at(m: Mark) -> Pos {
    Pos {
        line: m.line,
        offset: m.offset,
    }
}

/// What a projection that stops, skips or ignores does, as an effect: it stops for good
/// (a client's view is stuck), it skips with a warning, or nothing is read.
fn projection_effect(r: &Reading, b: Behaviour) -> Effect {
    match r.answer(b) {
        Answer::ProjectionStops => Effect::ClientStuck,
        Answer::Ignores => Effect::Nothing,
        Answer::Refuses => Effect::Refused,
        _ => Effect::Warns,
    }
}

/// What worked for every version tried when a thread's projection went wrong: the
/// projection is rebuilt from the rollout by the next resume once its database is gone
/// (0.153.4, 0.154, 0.171: every turn shown again).
const REBUILD: &str = "with Codex closed, move thread_history_1.sqlite (and its -wal and -shm) \
                       aside: the next resume of each thread rebuilds its projection from the \
                       rollout";
