//! `ordinal.gap`: ordinals that never appear.

use crate::analysis::ordinal::Fault;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** No ordinal is skipped for good.
    ///
    /// **Why it matters.** Codex's recorder tolerates gaps; dense readers of the history
    /// (writer reopen, projection) do not.
    ///
    /// **Example.** A line deleted by hand.
    ///
    /// **Fix.** Renumber the lines after the gap.
    "ordinal.gap", Warning, "ordinals that never appear",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::Gap {
            lo,
            hi,
            unseen,
            found,
        } = p.fault
        {
            let what = if lo == hi {
                format!("ordinal {lo} never appears")
            } else if unseen == (hi - lo).saturating_add(1) {
                format!("ordinals {lo}..={hi} never appear")
            } else {
                format!("{unseen} of the ordinals {lo}..={hi} never appear")
            };
            let f = out.push_nth(
                nth,
                Some(p.at),
                format!(
                    "ordinal jumps to {found}, expected {lo}: {what} (Codex's recorder tolerates \
                     gaps; dense readers of the history do not)"
                ),
            );
            (f.expected, f.found) = (Some(lo), Some(found));
        }
    }
}
