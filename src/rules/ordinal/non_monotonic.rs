//! `ordinal.non-monotonic`: an ordinal that repeats or goes back.

use crate::analysis::ordinal::Fault;
use crate::rules::words::due;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Ordinals only grow: none repeats an earlier one or goes back.
    ///
    /// **Why it matters.** Codex's thread-history projection stops there for good ("expected
    /// ordinal N, got N-1", openai/codex#41566); a resume skips the line with a warning.
    ///
    /// **Example.** Two writers appending to one file; a line written twice.
    ///
    /// **Fix.** Renumber from the first bad line; never let two writers share a file.
    "ordinal.non-monotonic", Error, "a duplicate or decreasing ordinal",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        let (message, expected, found, case) = match &p.fault {
            Fault::Duplicate {
                expected,
                found,
                previous,
            } => {
                let earlier = match previous {
                    Some(pos) => format!("the previous line's (line {})", pos.line),
                    None => "an earlier line's".to_string(),
                };
                let message = format!(
                    "ordinal {found} repeats {earlier}; expected {}: Codex's thread-history \
                     projection stops here for good",
                    due(*expected)
                );
                (message, *expected, *found, "duplicate")
            }
            Fault::Decrease {
                expected,
                found,
                from,
            } => {
                let message = format!(
                    "ordinal goes back from {from} to {found}; expected {}: Codex's \
                     thread-history projection stops here for good",
                    due(*expected)
                );
                (message, *expected, *found, "decrease")
            }
            _ => continue,
        };
        let f = out.push_nth(nth, Some(p.at), message);
        (f.expected, f.found, f.case) = (expected, Some(found), Some(case));
    }
}
