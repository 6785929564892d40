//! `ordinal.missing`: a paginated record without its ordinal.

use crate::analysis::ordinal::Fault;
use crate::codex::{Answer, Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Every record of a paginated file has an `ordinal`.
    ///
    /// **Why it matters.** The thread-store writer and the history projection reject the
    /// line; on the last record Codex can parse, the next resume fails ("final paginated
    /// rollout record is missing an ordinal", openai/codex#45150).
    ///
    /// **Example.** A line appended by a tool that does not know about ordinals.
    ///
    /// **Fix.** Give the record the next ordinal.
    "ordinal.missing", Error, "a paginated record without ordinal",
    effect: Loses,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

/// What the version does when the last record has no ordinal.
fn tail_effect(r: &Reading) -> Effect {
    match r.answer(Behaviour::TailWithoutOrdinal) {
        Answer::Refuses => Effect::Refused,
        _ => Effect::Nothing,
    }
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::Missing {
            expected,
            fails_resume,
        } = p.fault
        {
            let v = facts.codex.version;
            let (message, effect) = match (fails_resume, tail_effect(&facts.codex)) {
                (true, Effect::Refused) => (
                    format!(
                        "the last record Codex can parse has no ordinal: Codex {v} refuses to \
                         resume (\"final paginated rollout record is missing an ordinal\")"
                    ),
                    Effect::Refused,
                ),
                (true, e) => (
                    format!(
                        "the last record Codex can parse has no ordinal: Codex {v} does not \
                         read ordinals and resumes (0.147 and later refuse)"
                    ),
                    e,
                ),
                (false, _) => (
                    "record has no ordinal: every record of a paginated rollout needs one \
                     (Codex's history projection rejects the line)"
                        .to_string(),
                    Effect::Loses,
                ),
            };
            let f = out.push_nth(nth, Some(p.at), message);
            f.effect(effect);
            f.expected = expected;
        }
    }
}
