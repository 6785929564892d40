//! `pair.orphan-output`: a tool output without its call.

use crate::findings::{Edit, Fix};
use crate::replay::prompt::Pair;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

use super::own_line;

rule! {
    /// **Checks.** Every tool output in the rebuilt history answers a call in it.
    ///
    /// **Why it matters.** Codex drops it before sending (`remove_orphan_outputs`, "Orphan
    /// function call output", verified with 0.147; the API would reject it with a 400): what
    /// the tool said is lost to the model.
    ///
    /// **Example.** A call line deleted, or cut away by a compaction.
    ///
    /// **Fix.** The call is gone: put its line back from a copy of the file, if there is one;
    /// otherwise delete the output (`rollscope repair` does, where the output is a line of
    /// its own), which changes nothing Codex sends. A writer keeps each call with its output.
    ///
    /// The fix (safe) deletes an orphan output that is a line of its own without an
    /// ordinal (a legacy file's `response_item`): Codex drops it anyway, so the history it
    /// sends and the turns its app-server shows are the same (0.147,
    /// `testdata/lint/pair.orphan-output/verdict-0.147.0-fixed.json`).
    "pair.orphan-output", Warning, "a tool output without its call",
    effect: Warns,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Pairing, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.pairs.iter().enumerate() {
        let at = p.at.as_ref().and_then(|a| a.own_pos());
        if let Pair::OutputWithoutCall { call_id } = &p.pair {
            let fix = own_line(p, out).map(|line| {
                Fix::safe(
                    "delete the output Codex drops",
                    vec![Edit::delete_line(out.file().clone(), &line)],
                )
            });
            let f = out.push_at(
                nth,
                at,
                format!(
                    "output for call {} has no call in the history: the resumed prompt drops it",
                    short(call_id)
                ),
            );
            f.fix = fix;
        }
    }
}
