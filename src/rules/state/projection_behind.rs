//! `state.projection-behind`: a projection that has not read the end of its rollout yet.

use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A paginated thread's projection checkpoint is at the end of its rollout,
    /// or at the start of a line with the ordinal it expects (then it is behind).
    ///
    /// **Why it matters.** Codex writes a line to the rollout first and projects it after:
    /// a checkpoint behind the end is normal while Codex runs. Left behind (a Codex killed
    /// between the two, a file copied in from elsewhere), `thread/read` shows a client the
    /// turns before the checkpoint only, until a resume projects the rest (Codex 0.153.4 and
    /// 0.171: one turn of two, then both after `thread/resume`).
    ///
    /// **Example.** A rollout restored from a backup newer than the databases.
    ///
    /// **Fix.** Resume the thread: the projection catches up.
    "state.projection-behind", Info, "a projection that has not read the end of its rollout",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::StateDb, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(s) = super::state(facts) else {
        return;
    };
    let Some((c, spot)) = s.checkpoint_spot() else {
        return;
    };
    let Some(line) = spot
        .starts
        .filter(|m| m.ordinal == Some(c.next_ordinal) && c.next_byte_offset < s.size)
    else {
        return;
    };
    let f = out.push_at(
        0,
        Some(super::at(line)),
        format!(
            "Codex's thread-history projection has read this thread up to this line (byte {} \
             of {}): `thread/read` shows a client the turns before it only, until a resume \
             projects the rest (normal while Codex is writing the thread)",
            c.next_byte_offset, s.size
        ),
    );
    (f.expected, f.found) = (Some(s.size), Some(c.next_byte_offset));
}
