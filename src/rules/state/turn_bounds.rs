//! `state.turn-bounds`: a stored turn whose rollout bounds are not the lines they name.

use crate::codex::{Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Each turn of a paginated thread stored in `thread_history_1.sqlite`
    /// (`thread_turns`) names its lines: `rollout_byte_offset` starts the line whose ordinal
    /// is `rollout_ordinal` (its `task_started`), and `rollout_end_byte_offset` ends the line
    /// whose ordinal is `rollout_end_ordinal` (its `task_complete`).
    ///
    /// **Why it matters.** Bounds that are not the lines say the database was made for
    /// another copy of the file, or the file was edited after it was projected. The views
    /// tried do not read them (Codex 0.153.4 and 0.171: `thread/read`, `thread/resume` and
    /// `thread/turns/list` show every turn and item, and the bounds stay wrong), so this is
    /// information, and a sign to look at the checkpoint too.
    ///
    /// **Example.** A line inserted before a turn after Codex stored it.
    ///
    /// **Fix.** With Codex closed, move `thread_history_1.sqlite` aside: the next resume
    /// rebuilds the turns from the rollout.
    "state.turn-bounds", Info, "a stored turn whose bounds are not the lines they name",
    effect: Nothing,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::StateDb, check)]).follows(effect);

fn effect(r: &Reading) -> Effect {
    super::projection_effect(r, Behaviour::TurnBounds)
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(s) = super::state(facts) else {
        return;
    };
    // A turn past the end of a file cut back is `state.checkpoint-past-end`'s.
    let within = |o: Option<u64>| o.is_none_or(|o| o <= s.size);
    for (nth, t) in s.turns.iter().enumerate() {
        if !within(t.byte_offset) || !within(t.end_byte_offset) {
            continue;
        }
        let start = t.byte_offset.and_then(|o| s.probe.spot(o));
        let end = t.end_byte_offset.and_then(|o| s.probe.spot(o));
        let mut wrong = Vec::new();
        match (t.byte_offset, start.and_then(|sp| sp.starts)) {
            (Some(o), Some(m)) if m.ordinal != Some(t.ordinal) => wrong.push(format!(
                "its start (byte {o}) is the line of ordinal {}, not {}",
                m.ordinal.map_or("none".into(), |o| o.to_string()),
                t.ordinal
            )),
            (Some(o), None) => wrong.push(format!("its start (byte {o}) is not a line's start")),
            _ => {}
        }
        match (t.end_byte_offset, t.end_ordinal, end.and_then(|sp| sp.ends)) {
            (Some(_), Some(e), Some(m)) if m.ordinal != Some(e) => wrong.push(format!(
                "its end is the end of the line of ordinal {}, not {e}",
                m.ordinal.map_or("none".into(), |o| o.to_string())
            )),
            (Some(o), _, None) => wrong.push(format!("its end (byte {o}) is not a line's end")),
            _ => {}
        }
        if wrong.is_empty() {
            continue;
        }
        let line = start.and_then(|sp| sp.starts.or(sp.inside).or(sp.after));
        let f = out.push_at(
            nth,
            line.map(super::at),
            format!(
                "Codex's stored turn {} ({}) does not name its lines: {}",
                t.turn_id,
                t.status,
                wrong.join("; ")
            ),
        );
        f.effect(effect(&facts.codex));
    }
}
