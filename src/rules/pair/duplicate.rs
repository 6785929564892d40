//! `pair.duplicate`: a tool output written twice.

use crate::replay::prompt::Pair;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** No call in the rebuilt history gets two outputs.
    ///
    /// **Why it matters.** Codex sends both copies (verified with 0.147 and 0.171, although
    /// its source reads as if it collapsed them): the model sees the tool answer twice.
    ///
    /// **Example.** A writer that retries a write and appends the output again.
    ///
    /// **Fix.** Write each output once.
    "pair.duplicate", Warning, "a tool output written twice",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Pairing, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.pairs.iter().enumerate() {
        let at = p.at.as_ref().and_then(|a| a.own_pos());
        if let Pair::OutputDuplicate {
            call_id,
            first_line,
        } = &p.pair
        {
            let first = first_line
                .map(|l| format!(" (first at line {l})"))
                .unwrap_or_default();
            out.push_at(
                nth,
                at,
                format!(
                    "output for call {} written again{first}: the resumed prompt sends both \
                     copies",
                    short(call_id)
                ),
            );
        }
    }
}
