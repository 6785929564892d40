//! `ordinal.gap`: ordinals that never appear.

use crate::analysis::ordinal::Fault;
use crate::codex::{Behaviour, Reading};
use crate::findings::Effect;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** No ordinal is skipped: none for good, and none that comes later out of
    /// order (reported only where the Codex version read as meets the jump: 0.146 and later).
    ///
    /// **Why it matters.** Codex's recorder tolerates gaps; its thread-history projection
    /// depends on the version (`docs/codex-versions.md`): from 0.154 it records the gap as a
    /// skipped range with a warning (`skipping missing rollout ordinal range`) and nothing is
    /// lost; from 0.146 to 0.153 it expected the next ordinal exactly and stopped there for
    /// good (a client never shows the rest; openai/codex#38792); before 0.146 ordinals are
    /// not read.
    ///
    /// **Example.** A line deleted by hand.
    ///
    /// **Fix.** A writer numbers its records densely. A file Codex already read is best left
    /// as it is: 0.154 and later read on past a gap, and renumbering moves every later
    /// ordinal under Codex's thread-history database, which keeps the old ones
    /// (openai/codex#41079: "delete the redundant line, do NOT renumber").
    "ordinal.gap", Warning, "ordinals that never appear",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]).follows(effect);

/// What the version does with a gap.
fn effect(r: &Reading) -> Effect {
    super::projection_effect(r, Behaviour::OrdinalGap)
}

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        if let Fault::Gap {
            lo,
            hi,
            unseen,
            found,
        } = p.fault
        {
            let effect = effect(&facts.codex);
            let words =
                |warns: &str| super::projection_words(&facts.codex, Behaviour::OrdinalGap, warns);
            let message = if unseen == 0 {
                // Every skipped ordinal comes later: a jump Codex meets here all the same.
                if effect == Effect::Nothing {
                    continue;
                }
                let does = words(
                    "logs them as a skipped range here and then skips the later lines as \
                     regressed; the resume still sends everything",
                );
                format!(
                    "ordinal jumps to {found}, expected {lo}: the ordinals skipped come later, \
                     out of order: {does}"
                )
            } else {
                let what = if lo == hi {
                    format!("ordinal {lo} never appears")
                } else if unseen == (hi - lo).saturating_add(1) {
                    format!("ordinals {lo}..={hi} never appear")
                } else {
                    format!("{unseen} of the ordinals {lo}..={hi} never appear")
                };
                let does = words("logs it as a skipped range; nothing is lost");
                format!("ordinal jumps to {found}, expected {lo}: {what} ({does})")
            };
            let f = out.push_nth(nth, Some(p.at), message);
            f.effect(effect);
            (f.expected, f.found) = (Some(lo), Some(found));
        }
    }
}
