//! `turn.unterminated`: a turn that never ended.

use crate::analysis::turns::TurnStatus;
use crate::decode::Pos;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every turn but the last ends (`task_complete` or `turn_aborted`) before the
    /// next begins. A turn copied from a parent (a fork's or sub-agent's inherited history)
    /// is the parent's to end: a 0.154 sub-agent copies the turn that spawned it while it
    /// still runs, with no end event, and the parent's own file ends it
    /// (`testdata/lint/turn.unterminated/inherited/`, made by the real 0.154).
    ///
    /// **Why it matters.** Codex resumes (verified with 0.147); its app-server shows the turn
    /// as interrupted, and nothing proves what the turn's calls did. The open last turn
    /// (still running, or killed last) is not flagged.
    ///
    /// **Example.** A writer that died mid-turn and was restarted.
    ///
    /// **Fix.** Write `turn_aborted` for a turn given up.
    "turn.unterminated", Warning, "a turn that never ended",
    effect: ClientPartial,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Turns, check)]);

/// Turns that never ended before the next began (the open last turn is not one).
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let cut = facts.cut_line();
    for t in facts.file.turns.iter().flat_map(|t| &t.turns) {
        if t.status == TurnStatus::Stale && !t.inherited && cut.is_none_or(|c| t.line_start <= c) {
            let id = t
                .turn_id
                .as_deref()
                .map(|t| format!(" ({})", short(t)))
                .unwrap_or_default();
            let start = Pos {
                line: t.line_start,
                offset: t.offset_start,
            };
            out.push_at(
                0,
                Some(start),
                format!(
                    "turn {}{id} never ended (no task_complete or turn_aborted) before the next \
                     began: the writer died or lost the event",
                    t.index
                ),
            );
        }
    }
}
