//! A paginated rollout's ordinals: present, starting where they must, rising by one, and
//! what Codex's next resume writes.

group![
    in_legacy,
    missing,
    start,
    non_monotonic,
    gap,
    tail_unparseable,
    subagent_prefix
];

use crate::codex::{Answer, Behaviour, Reading};
use crate::findings::Effect;

/// What the thread-history projection of `r`'s version does with an ordinal out of
/// sequence (`b`: a repeat or a decrease, or a jump): it stops for good (0.146 to 0.153), it
/// warns (0.154 on), or no version before it reads ordinals (`docs/codex-versions.md`).
fn projection_effect(r: &Reading, b: Behaviour) -> Effect {
    match r.answer(b) {
        Answer::ProjectionStops => Effect::ClientStuck,
        Answer::Ignores => Effect::Nothing,
        _ => Effect::Warns,
    }
}

/// What the projection does, in words, given `warns`: the words for the version that
/// warns.
fn projection_words(r: &Reading, b: Behaviour, warns: &str) -> String {
    let v = r.version;
    match projection_effect(r, b) {
        Effect::ClientStuck => format!(
            "Codex {v}'s thread-history projection fails here for good: a client is shown no \
             turn of the thread (the model still gets everything)"
        ),
        Effect::Nothing => format!("Codex {v} does not read ordinals"),
        _ => format!("Codex {v} {warns}"),
    }
}
