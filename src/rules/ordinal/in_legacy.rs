//! `ordinal.in-legacy`: an ordinal in a legacy rollout.

use crate::analysis::ordinal::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** No record of a legacy file carries an `ordinal`.
    ///
    /// **Why it matters.** Codex never writes ordinals in legacy mode and ignores them: a
    /// foreign writer, whose file a paginated reader would misjudge.
    ///
    /// **Example.** `"ordinal": 5` on one line of a legacy rollout.
    ///
    /// **Fix.** Drop the ordinals, or write the file as paginated throughout.
    "ordinal.in-legacy", Warning, "an ordinal in a legacy rollout",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::InLegacy { found } = p.fault {
            let f = out.push_nth(
                nth,
                Some(p.at),
                format!(
                    "ordinal {found} in a legacy rollout: Codex never writes ordinals in legacy \
                     mode (a foreign writer?)"
                ),
            );
            f.found = Some(found);
        }
    }
}
