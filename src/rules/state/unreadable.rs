//! `state.unreadable`: a state database rollscope could not read.

use crate::input::Source;
use crate::rules::{Found, HomeFacts, Hook, Unit};
use crate::statedb::{Read, HISTORY_DB, STATE_DB};

rule! {
    /// **Checks.** Codex's state databases in a Codex home (`state_5.sqlite`,
    /// `thread_history_1.sqlite`) can be read: opened read-only, in one read transaction,
    /// with the tables and columns the `state` rules read.
    ///
    /// **Why it matters.** When one cannot be read, the `state` rules say nothing about it,
    /// and that must not read as "nothing wrong". A rollback-journal database under a
    /// writer's exclusive lock is waited for 2 seconds, then reported busy; a WAL database
    /// whose `-shm` file is missing in a read-only folder cannot be read without writing
    /// beside it; a schema rollscope does not know is reported, never guessed at.
    ///
    /// **Example.** `lint` while another tool holds `BEGIN EXCLUSIVE` on `state_5.sqlite`.
    ///
    /// **Fix.** Run again once the writer is done; read a copy of the home (with its `-wal`
    /// files) with `--codex-home`; for a schema, a newer rollscope.
    "state.unreadable", Warning, "a state database that could not be read",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::home(check)]);

fn check(facts: &HomeFacts<'_>, out: &mut Found<'_>) {
    let home = facts.home;
    let problems = [
        (STATE_DB, unreadable(&home.state)),
        (HISTORY_DB, unreadable(&home.history)),
    ];
    for (nth, (name, problem)) in problems.into_iter().enumerate() {
        let Some(p) = problem else {
            continue;
        };
        let f = out.push_nth(
            nth,
            None,
            format!(
                "{name} could not be read ({}): the state rules did not check what it holds",
                p.words()
            ),
        );
        f.file = Source::File(home.dir.join(name));
        f.case = Some(p.case());
    }
}

fn unreadable<T>(r: &Read<T>) -> Option<&crate::statedb::open::Unreadable> {
    match r {
        Read::Unreadable(e) => Some(e),
        _ => None,
    }
}
