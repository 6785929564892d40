//! `ordinal.non-monotonic`: an ordinal that repeats or goes back.

use crate::analysis::ordinal::Fault;
use crate::codex::{Behaviour, Reading};
use crate::decode::Line;
use crate::findings::{Edit, Effect, Fix, Related};
use crate::rules::words::due;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Ordinals only grow: none repeats an earlier one or goes back.
    ///
    /// **Why it matters.** It depends on the Codex version (`docs/codex-versions.md`). From
    /// 0.146 to 0.153 the thread-history projection stops there for good ("expected ordinal
    /// N, got N-1", openai/codex#41566, #41079): a client never shows the rest of the thread,
    /// while the model still gets everything (a warning). From 0.154 the projection skips the
    /// line with a warning and the resume reads it into the history (verified with 0.171: the
    /// same turns shown, everything sent; a warning). Before 0.146 ordinals are not read
    /// (info).
    ///
    /// **Example.** Two writers appending to one file; a line written twice.
    ///
    /// **Fix.** For a duplicate, delete the later line and renumber nothing (the cure
    /// confirmed in openai/codex#41079); never let two writers share a file.
    ///
    /// The fix deletes the later line. Safe when the line repeats the record before it (the
    /// same ordinal and payload: what is left is the file written once). Unsafe otherwise:
    /// the resume reads the line, so the history loses what it held (a user message,
    /// `testdata/lint/ordinal.non-monotonic/verdict-0.171.0-message-deleted.json`), and a
    /// deleted `thread_settings_applied` is written again on the next resume
    /// (`…-settings-deleted.json`). A decrease has no mechanical cure: renumbering moves
    /// every later ordinal (and a fork's `history_base` that counts them).
    "ordinal.non-monotonic", Warning, "a duplicate or decreasing ordinal",
    effect: Warns,
    fix: Sometimes [Safe, Unsafe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]).follows(effect);

/// What the version does with such a line.
fn effect(r: &Reading) -> Effect {
    super::projection_effect(r, Behaviour::OrdinalOutOfOrder)
}

/// What the version does, in words.
fn consequence(r: &Reading) -> String {
    super::projection_words(
        r,
        Behaviour::OrdinalOutOfOrder,
        "skips it in the thread-history projection with a warning; the resume still sends it",
    )
}

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
                    "ordinal {found} repeats {earlier}; expected {}: {}",
                    due(*expected),
                    consequence(&facts.codex)
                );
                (message, *expected, *found, "duplicate")
            }
            Fault::Decrease {
                expected,
                found,
                from,
            } => {
                let message = format!(
                    "ordinal goes back from {from} to {found}; expected {}: {}",
                    due(*expected),
                    consequence(&facts.codex)
                );
                (message, *expected, *found, "decrease")
            }
            _ => continue,
        };
        let (fix, related) = match &p.fault {
            Fault::Duplicate { previous, .. } => {
                let before = previous.and_then(|pos| out.line_at(pos));
                let related = before.map(|l| Related {
                    file: out.file().clone(),
                    span: Some(out.span(&l)),
                    note: "the line whose ordinal it repeats".to_string(),
                });
                (Some(delete(facts, &p.at, before, out)), related)
            }
            _ => (None, None),
        };
        let f = out.push_nth(nth, Some(p.at), message);
        f.effect(effect(&facts.codex));
        (f.expected, f.found, f.case) = (expected, Some(found), Some(case));
        f.fix = fix;
        f.related.extend(related);
    }
}

/// Delete the line `at` that repeats an ordinal: safe when it repeats the record just
/// before it (`before`) whole, unsafe when it may hold a record of its own.
fn delete(facts: &Facts<'_>, at: &Line, before: Option<Line>, out: &Found<'_>) -> Fix {
    let edits = vec![Edit::delete_line(out.file().clone(), at)];
    let record = |l: &Line| facts.record_at(l);
    match before.and_then(|b| record(&b)) {
        Some(a) if record(at).is_some_and(|b| a == b) => {
            Fix::safe("delete the record written again", edits)
        }
        _ => Fix::unsafe_(
            "delete the later line (its record may be one Codex uses)",
            edits,
        ),
    }
}
