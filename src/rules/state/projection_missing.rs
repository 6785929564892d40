//! `state.projection-missing`: a paginated thread Codex knows, with no projection.

use crate::rules::{Facts, Found, Hook, Stage, Unit};
use crate::statedb::Read;

rule! {
    /// **Checks.** A paginated thread that `state_5.sqlite` knows has a checkpoint in
    /// `thread_history_1.sqlite`.
    ///
    /// **Why it matters.** Without one (the database deleted, or never written for the
    /// thread), `thread/read` shows a client no turn of the thread until a resume rebuilds
    /// its projection from the rollout (Codex 0.153.4 and 0.171: 0 turns, then all after
    /// `thread/resume`). The resume itself sends the whole history.
    ///
    /// **Example.** `thread_history_1.sqlite` removed to cure another thread.
    ///
    /// **Fix.** Resume the thread.
    "state.projection-missing", Info, "a paginated thread with no projection",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::StateDb, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(s) = super::state(facts) else {
        return;
    };
    if s.checkpoint.is_some() {
        return;
    }
    let why = match &s.home.history {
        Read::Absent => "there is no thread_history_1.sqlite beside state_5.sqlite",
        Read::Rows(_) => "thread_history_1.sqlite has no checkpoint for it",
        // Said once for the home (`state.unreadable`).
        Read::Unreadable(_) => return,
    };
    out.push(
        None,
        format!(
            "Codex knows this paginated thread but {why}: `thread/read` shows a client no turn \
             of it until a resume rebuilds its projection from the rollout"
        ),
    );
}
