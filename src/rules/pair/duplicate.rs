//! `pair.duplicate`: a tool output written twice.

use crate::decode::Line;
use crate::findings::{Edit, Fix, Related};
use crate::replay::prompt::Pair;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

use super::own_line;

rule! {
    /// **Checks.** No call in the rebuilt history gets two outputs.
    ///
    /// **Why it matters.** Codex sends both copies (verified with 0.147 and 0.171, although
    /// its source reads as if it collapsed them): the model sees the tool answer twice.
    ///
    /// **Example.** A writer that retries a write and appends the output again.
    ///
    /// **Fix.** Write each output once.
    ///
    /// The fix deletes the later copy, when it is a line of its own without an ordinal (a
    /// legacy file's `response_item`). It is unsafe: Codex sends both copies, so the history
    /// it sends from the repaired file has one item fewer (asked of 0.171 through `repair`:
    /// 20 items before, 19 after, `testdata/repair/verdicts/pair.duplicate.json`). When the
    /// payloads are the same bytes, what is left is the file written once (the fixture fixed
    /// is its clean twin, `tests/cli/fixes.rs`); when they differ, or the first cannot be
    /// read again, the model also loses what the later one said.
    "pair.duplicate", Warning, "a tool output written twice",
    effect: Warns,
    fix: Sometimes [Unsafe],
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Pairing, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(r) = facts.replay else { return };
    for (nth, p) in r.pairs.iter().enumerate() {
        let at = p.at.as_ref().and_then(|a| a.own_pos());
        if let Pair::OutputDuplicate { call_id, first } = &p.pair {
            let first_line = first.and_then(|a| out.line_at(a.own_pos()?));
            let fix = own_line(p, out).map(|line| {
                let delete = vec![Edit::delete_line(out.file().clone(), &line)];
                let payload = |l: &Line| facts.record_at(l).map(|(_, payload)| payload);
                match first_line.and_then(|f| payload(&f)) {
                    Some(a) if payload(&line).is_some_and(|b| a == b) => Fix::unsafe_(
                        "delete the copy written again (the model then sees the output once)",
                        delete,
                    ),
                    _ => Fix::unsafe_(
                        "delete the later output (it may say what the first does not)",
                        delete,
                    ),
                }
            });
            let related = first_line.map(|l| Related {
                file: out.file().clone(),
                span: Some(out.span(&l)),
                note: "the first output".to_string(),
            });
            let first = first
                .map(|a| format!(" (first at line {})", a.line))
                .unwrap_or_default();
            let f = out.push_at(
                nth,
                at,
                format!(
                    "output for call {} written again{first}: the resumed prompt sends both \
                     copies",
                    short(call_id)
                ),
            );
            f.fix = fix;
            f.related.extend(related);
        }
    }
}
