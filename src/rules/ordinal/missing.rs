//! `ordinal.missing`: a paginated record without its ordinal.

use crate::analysis::ordinal::Fault;
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
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::Missing {
            expected,
            fails_resume,
        } = p.fault
        {
            let message = if fails_resume {
                "the last record Codex can parse has no ordinal: the next resume fails (\"final \
                 paginated rollout record is missing an ordinal\")"
            } else {
                "record has no ordinal: every record of a paginated rollout needs one (Codex's \
                 history projection rejects the line)"
            };
            let f = out.push_nth(nth, Some(p.at), message.to_string());
            f.expected = expected;
        }
    }
}
