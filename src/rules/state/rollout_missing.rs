//! `state.rollout-missing`: a thread row of `state_5.sqlite` whose rollout is not there.

use crate::codex::{Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, HomeFacts, Hook, Stage, Unit};
use crate::statedb::Read;

rule! {
    /// **Checks.** Every thread of `state_5.sqlite` (`threads.rollout_path`) names a
    /// rollout that is there (the path read in the home the database is in; a home copied
    /// elsewhere is read with `--codex-home-as`).
    ///
    /// **Why it matters.** Codex looks the thread up by that path and nowhere else: moved to
    /// another day's folder, renamed, put in `archived_sessions/` by hand, or deleted,
    /// Codex 0.153 to 0.171 refuse it (`no rollout found for thread id …`; `thread/read`:
    /// `invalid paginated history lineage … missing source rollout`), though a file with its
    /// id is right there. `codex doctor` flags the row, not where the file went.
    ///
    /// **Example.** `mv sessions/2026/12/03/rollout-…-<id>.jsonl sessions/2026/11/30/`.
    ///
    /// **Fix.** Put the file back where the database says (the finding names both places);
    /// archive and unarchive with Codex (`codex archive`), which moves the file and the row
    /// together. With no file left, the row is stale: nothing resumes it.
    "state.rollout-missing", Error, "a thread row whose rollout is not there",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::file(Stage::StateDb, check_file), Hook::home(check)],
)
.follows(effect);

fn effect(r: &Reading) -> Effect {
    super::projection_effect(r, Behaviour::StateRolloutMissing)
}

/// A rollout whose row names another path, where nothing is: said at the file.
fn check_file(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some((s, named)) = facts
        .state
        .filter(|_| super::judged(&facts.codex))
        .and_then(|s| Some((s, s.missing_at.as_ref()?)))
    else {
        return;
    };
    let v = facts.codex.version;
    let f = out.push(
        None,
        format!(
            "thread {} is moved: Codex's database (state_5.sqlite) says its rollout is {}, \
             where nothing is, and Codex {v} looks nowhere else: it refuses to resume it (`no \
             rollout found for thread id`). Put this file back there",
            s.row.id,
            named.display()
        ),
    );
    f.effect(effect(&facts.codex));
    f.logical = Some(format!("threads[{}]", s.row.id));
}

/// Rows whose rollout is not there and no file of the run has their thread: said at the
/// database.
fn check(facts: &HomeFacts<'_>, out: &mut Found<'_>) {
    if !super::judged(&facts.codex) {
        return;
    }
    let Read::Rows(rows) = &facts.home.state else {
        return;
    };
    for (nth, row) in rows.iter().enumerate() {
        if !facts.asked(&row.id) || facts.read.contains(&row.id.to_ascii_lowercase()) {
            continue;
        }
        let here = facts.home.local_path(row);
        if here.exists() {
            continue;
        }
        let found = facts
            .rollouts
            .get(&row.id.to_ascii_lowercase())
            .map(|paths| {
                paths
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            });
        let v = facts.codex.version;
        let message = match found {
            Some(files) => format!(
                "thread {} is moved: the database says {}, the file is {files}. Codex {v} \
                 refuses to resume it (`no rollout found for thread id`): put the file back \
                 where the database says",
                row.id,
                here.display()
            ),
            None => format!(
                "thread {}'s rollout {} is not there, and no file in the home has its id: \
                 Codex {v} refuses the thread (`no rollout found for thread id`); the row is \
                 stale",
                row.id,
                here.display()
            ),
        };
        let f = out.push_nth(nth, None, message);
        f.effect(effect(&facts.codex));
        f.logical = Some(format!("threads[{}]", row.id));
    }
}
