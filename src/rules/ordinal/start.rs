//! `ordinal.start`: a first ordinal other than where the file starts.

use crate::analysis::ordinal::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The first ordinal is `history_base.end_ordinal_exclusive` (0 without a
    /// `history_base`).
    ///
    /// **Why it matters.** Every later ordinal is shifted, and a fork's cut into its source
    /// is wrong.
    ///
    /// **Example.** A fork child that starts again at 0.
    ///
    /// **Fix.** Start at the cutoff the `history_base` names.
    "ordinal.start", Error, "the first ordinal is not where the file must start",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::Start { expected, found } = p.fault {
            let why = if expected == 0 {
                "a paginated rollout without history_base starts at 0".to_string()
            } else {
                format!("history_base.end_ordinal_exclusive is {expected}")
            };
            let f = out.push_nth(
                nth,
                Some(p.at),
                format!("first ordinal is {found}, expected {expected}: {why}"),
            );
            (f.expected, f.found) = (Some(expected), Some(found));
        }
    }
}
