//! `state.checkpoint-misplaced`: a projection checkpoint inside a line, or at a line whose
//! ordinal is above the one it expects.

use crate::codex::{Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};
use crate::statedb::probe::Mark;

rule! {
    /// **Checks.** A paginated thread's projection checkpoint
    /// (`next_rollout_byte_offset`, `next_rollout_ordinal` in `thread_history_1.sqlite`)
    /// lies at the start of a line, and the line there carries the ordinal it expects (or
    /// a lower one: `state.checkpoint-at-duplicate`).
    ///
    /// **Why it matters.** The projection stores no path: its offset is applied to whatever
    /// file `state_5.sqlite` names now, so a file replaced by another copy, or edited before
    /// the checkpoint, leaves it inside a line (openai/codex#43744: a view showing 0.75% of
    /// a session). What Codex does depends on the ordinal of the line it falls in:
    /// - the one expected (the offset moved inside the line it was at): every version skips
    ///   the rest of the line with a warning and goes on;
    /// - a lower one: Codex 0.153 stops the projection for good; 0.154 and later skip it;
    /// - a higher one (also at a line's start): Codex 0.153 stops for good; 0.154 and later
    ///   store the turn from there, and a client is shown it without the items before (14 of
    ///   15: the user's message lost), while the model gets everything.
    ///
    /// **Example.** A rollout copied over by an older copy of itself, its databases kept.
    ///
    /// **Fix.** Upgrade to Codex 0.154 or later and resume the thread; where items are lost
    /// from the view, with Codex closed, move `thread_history_1.sqlite` aside: the next
    /// resume rebuilds the projection from the rollout.
    "state.checkpoint-misplaced", Warning,
    "a projection checkpoint inside a line or before an ordinal it does not expect",
    effect: ClientPartial,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::StateDb, check)]).follows(effect);

/// The worst of the cases (the severity shown for the rule under a version).
fn effect(r: &Reading) -> Effect {
    gap(r).max(super::projection_effect(r, Behaviour::CheckpointRegress))
}

/// What the version does when the line after the checkpoint has a higher ordinal.
fn gap(r: &Reading) -> Effect {
    match super::projection_effect(r, Behaviour::CheckpointGap) {
        Effect::Warns => Effect::ClientPartial,
        e => e,
    }
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(s) = super::state(facts) else {
        return;
    };
    let Some((c, spot)) = s.checkpoint_spot() else {
        return;
    };
    if c.next_byte_offset >= s.size {
        return;
    }
    let r = &facts.codex;
    let v = r.version;
    let expected = c.next_ordinal;
    let offset = c.next_byte_offset;
    // The line the checkpoint is in (or starts), and where in it.
    let (line, place): (Option<Mark>, String) = if spot.at_boundary() {
        match spot.starts {
            Some(m) if m.ordinal.is_some_and(|o| o > expected) => {
                (Some(m), "at the start of this line".to_string())
            }
            _ => return,
        }
    } else {
        match spot.inside {
            Some(m) => (
                Some(m),
                format!("{} bytes into this line", offset - m.offset),
            ),
            // A line the decoder rejected: judged by the record after it.
            None => (spot.after, "inside a line the decoder rejected".to_string()),
        }
    };
    let found = line.and_then(|m| m.ordinal);
    let (effect, does) = match found {
        Some(o) if o == expected => (
            super::projection_effect(r, Behaviour::CheckpointInsideLine),
            format!(
                "the line has ordinal {o}, the one it expects: Codex {v} skips the rest of the \
                 line with a warning and goes on (every turn is shown after a resume)"
            ),
        ),
        Some(o) if o < expected => {
            let e = super::projection_effect(r, Behaviour::CheckpointRegress);
            let does = if e == Effect::ClientStuck {
                "stops its projection there for good (a client is never shown another turn; the \
                 model gets everything): upgrade to Codex 0.154 or later and resume"
            } else {
                "skips the lines it projected before with a warning and goes on"
            };
            (
                e,
                format!("the line has ordinal {o}, below {expected}: Codex {v} {does}"),
            )
        }
        Some(o) => {
            let e = gap(r);
            let does = if e == Effect::ClientStuck {
                format!(
                    "stops its projection there for good (a client is never shown another \
                     turn; the model gets everything): upgrade to Codex 0.154 or later, or {}",
                    super::REBUILD
                )
            } else {
                format!(
                    "stores the turn from there: a client is shown it without the items \
                     before (the model gets everything); {}",
                    super::REBUILD
                )
            };
            (
                e,
                format!("the line has ordinal {o}, above {expected}: Codex {v} {does}"),
            )
        }
        None => (
            super::projection_effect(r, Behaviour::CheckpointInsideLine),
            format!("no line with an ordinal follows: Codex {v} skips the rest with a warning"),
        ),
    };
    let message = format!(
        "Codex's thread-history checkpoint (byte {offset}, ordinal {expected}) lies {place}: \
         {does}"
    );
    let f = out.push_at(0, line.map(super::at), message);
    f.effect(effect);
    (f.expected, f.found) = (Some(expected), found);
}
