//! `history_base.shape`: a history base that cannot be looked up.

use crate::lineage::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** `history_base` has a `thread_id`, an `end_ordinal_exclusive` above 0 and an
    /// `end_byte_offset`.
    ///
    /// **Why it matters.** Without them the lineage cannot even be looked up: Codex cannot
    /// rebuild the inherited prefix.
    ///
    /// **Example.** `"history_base": {"thread_id": "…"}` alone.
    ///
    /// **Fix.** Write the cutoff the fork was made at (ordinal and byte offset).
    "history_base.shape", Error, "a malformed history_base",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Lineage, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.lineage.iter().enumerate() {
        let message = match p.fault {
            Fault::NoThreadId => "history_base has no thread_id (the source's rollout id)",
            Fault::ZeroEnd => {
                "history_base.end_ordinal_exclusive is 0: the cutoff cannot include the \
                 source's session metadata"
            }
            Fault::NoEnd => "history_base has no end_ordinal_exclusive",
            Fault::NoOffset => "history_base has no end_byte_offset",
            _ => continue,
        };
        let f = out.push_nth(nth, p.at, message.to_string());
        (f.expected, f.found) = (p.expected, p.found);
    }
}
