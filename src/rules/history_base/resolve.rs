//! `history_base.resolve`: a history base whose source is missing or unusable.

use crate::findings::Severity;
use crate::lineage::Fault;
use crate::rules::words::{num, place};
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The `history_base` source rollout can be found (the inputs, the file's
    /// folder, its Codex home, `$CODEX_HOME`), read, is paginated and reaches the cutoff; the
    /// lineage does not loop (it is followed to its root however deep, as Codex follows it),
    /// and reads no more than 987 rollouts before the file (Codex 0.171 refuses the resume
    /// of a longer one: its thread store cannot list that history).
    ///
    /// **Why it matters.** Codex cannot rebuild the inherited prefix ("missing source
    /// rollout", "cutoff is outside resolved source rollout") and refuses the resume. A
    /// warning when no Codex home could be searched: the check could not be done.
    ///
    /// **Example.** A fork copied to another machine without its parent.
    ///
    /// **Fix.** Copy the source rollout into the same Codex home.
    "history_base.resolve", Error, "the history_base source is missing or unusable",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Lineage, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.lineage.iter().enumerate() {
        let (message, could_not_check) = match &p.fault {
            Fault::SourceNotPaginated { source, mode } => (
                format!(
                    "source rollout {source} is not paginated (history_mode {mode}): Codex \
                     refuses the lineage"
                ),
                false,
            ),
            Fault::OutsideSource {
                source,
                end,
                highest,
            } => (
                format!(
                    "history_base.end_ordinal_exclusive {end} is outside source rollout \
                     {source}: it holds no ordinal {} (its highest is {})",
                    end.saturating_sub(1),
                    num(*highest)
                ),
                false,
            ),
            Fault::SourceNotFound {
                rollout_id,
                searched,
                refused,
            } => {
                let places: Vec<String> = searched.iter().map(place).collect();
                let message = format!(
                    "source rollout {rollout_id} (history_base.thread_id) not found in {}: {}",
                    places.join(", "),
                    outcome(*refused)
                );
                (message, !refused)
            }
            Fault::SourceUnreadable {
                source,
                rollout_id,
                cause,
                refused,
            } => (
                format!(
                    "source rollout {source} (history_base.thread_id {rollout_id}) could not be \
                     read ({cause}): {}",
                    outcome(*refused)
                ),
                !refused,
            ),
            Fault::Cycle { source } => (
                format!(
                    "the lineage (history_base) leads back to {source}, already read: a cycle, \
                     so Codex cannot rebuild the inherited history"
                ),
                false,
            ),
            Fault::TooManySources { sources } => (
                format!(
                    "the lineage (history_base) reads {sources} rollouts before this one: \
                     Codex refuses to resume past {} (it cannot list the history of more: \
                     \"Expression tree is too large\")",
                    crate::lineage::CODEX_MAX_SOURCES
                ),
                false,
            ),
            _ => continue,
        };
        let f = out.push_nth(nth, p.at, message);
        (f.expected, f.found) = (p.expected, p.found);
        f.related.extend(super::source(p));
        // A lineage that could not be checked is a warning, never a pass: an error only
        // where Codex would refuse it (the source is not in the Codex home it looks in).
        if could_not_check {
            f.severity = Severity::Warning;
        }
    }
}

/// What a source that could not be had means: Codex refuses the resume (it looked where
/// Codex looks, or found the file and could not read it), or rollscope could not check.
fn outcome(refused: bool) -> &'static str {
    if refused {
        "Codex cannot rebuild the inherited history and refuses the resume"
    } else {
        "the lineage could not be checked"
    }
}
