//! `line.payload`: a payload Codex cannot decode into its record.

use crate::decode::DecodeError;
use crate::findings::Effect;
use crate::replay::history::Fault;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every record has an object `payload` of the shape its type requires (a
    /// `compacted` as `CompactedItemWire`, a `thread_rolled_back` with a `u32` `num_turns`, a
    /// response item (`message`, `function_call`, …) or a `turn_context` with its required
    /// fields, each of the JSON type Codex decodes: `docs/codex-versions.md`). A
    /// `turn_context` Codex skips is a warning: the history is whole, only the resumed
    /// settings come from the one before.
    ///
    /// **Why it matters.** Codex skips the whole line: what it carried is lost on resume (a
    /// rollback marker that does not decode rolls nothing back, verified with 0.147).
    ///
    /// **Example.** `"num_turns": "2"`; a `replacement_history` entry that is a number; a
    /// `function_call` without `arguments` (its output is then dropped as an orphan).
    ///
    /// **Fix.** Write the payload with the types Codex writes.
    ///
    /// The fix (safe) deletes the line, which Codex skips (0.147 resumes the file without it to
    /// the same history, `testdata/lint/line.payload/verdict-0.147.0-fixed.json`), when it
    /// carries no ordinal (deleted, it would open a gap).
    "line.payload", Error, "a payload Codex cannot decode into its record type",
    effect: Loses,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[
        Hook::file(Stage::Decoder, check),
        Hook::file(Stage::History, in_history),
    ],
);

/// Each line the decoder rejected for this.
fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    super::report(facts, out, |e| {
        matches!(
            e,
            DecodeError::PayloadMissing | DecodeError::PayloadNotObject
        )
    });
}

/// A record that decodes, whose payload Codex cannot decode into its type (a compaction, a
/// rollback marker): the history rebuild finds it.
fn in_history(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.history_problems.iter().enumerate() {
        let message = match &p.fault {
            Fault::RollbackUndecodable => "thread_rolled_back.num_turns is not an unsigned \
                                           32-bit integer: Codex cannot decode the line, so \
                                           nothing is rolled back"
                .to_string(),
            Fault::CompactionUndecodable { error } => format!(
                "Codex cannot decode this compacted record ({}): it skips the line and the \
                 checkpoint is lost",
                short(error)
            ),
            Fault::ItemUndecodable { error } => format!(
                "Codex cannot decode this response item ({}): it skips the line, so the item \
                 is not sent (and an output whose call it was is dropped)",
                short(error)
            ),
            _ => continue,
        };
        let line = p.at.own_pos().and_then(|pos| out.line_at(pos));
        let fix = line.and_then(|l| super::delete_record(&l, p.at.ordinal, out));
        out.push_at(nth, p.at.own_pos(), message).fix = fix;
    }
    // A turn context Codex skips: the history is whole, the settings are the previous ones.
    let first = r.history_problems.len();
    for (n, (at, error)) in r.state.undecodable_contexts.iter().enumerate() {
        let Some(pos) = at.own_pos() else { continue };
        out.push_at(
            first + n,
            Some(pos),
            format!(
                "Codex cannot decode this turn_context ({}): it skips the line, so the resumed \
                 session takes its settings from the turn context before it (the history is \
                 whole)",
                short(error)
            ),
        )
        .effect(Effect::Warns);
    }
}
