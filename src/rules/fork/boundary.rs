//! `fork.boundary`: a fork point that disagrees with the history base.

use crate::decode::Record;
use crate::rules::words::num;
use crate::rules::{Found, Hook, RecordCx, Unit};

rule! {
    /// **Checks.** In a fork by reference (a `session_meta` with a `history_base`),
    /// `forked_from_id` and `forked_from_ordinal_exclusive` come together, and the latter
    /// equals `history_base.end_ordinal_exclusive`; `forked_from_ordinal_exclusive` is never
    /// written without `forked_from_id`. A legacy copy-fork (which the real 0.171 writes
    /// with `forked_from_id` alone) and a sub-agent are not judged.
    ///
    /// **Why it matters.** Codex records the logical fork point apart from the physical
    /// history base; the real 0.171 fork writes both equal. When they differ, a reader that
    /// follows one and a reader that follows the other rebuild different histories.
    ///
    /// **Example.** `"forked_from_ordinal_exclusive": 12` with `"end_ordinal_exclusive": 14`.
    ///
    /// **Fix.** Write the fork point once, into both fields.
    "fork.boundary", Warning, "the fork point and the history base disagree",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::session_meta(check)]);

/// The fork point of the file's first `session_meta` against its history base: only a fork
/// by reference (a `history_base`) is judged; `forked_from_ordinal_exclusive` without
/// `forked_from_id` is wrong anywhere. A legacy copy-fork (the real 0.171 writes
/// `forked_from_id` alone there) and a sub-agent (no `history_base`) are not.
fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if !cx.is_first_meta(rec) {
        return;
    }
    let info = cx.session;
    let [id, forked] = rec.payload_fields(["forked_from_id", "forked_from_ordinal_exclusive"]);
    let has_id = id.is_some_and(|v| v != "null");
    let forked_raw = forked.filter(|v| *v != "null");
    let forked = forked_raw.and_then(|v| v.parse::<u64>().ok());
    let base_end = info
        .history_base
        .as_ref()
        .and_then(|b| b.end_ordinal_exclusive);
    let wrong = if !has_id {
        forked_raw.is_some()
    } else if info.history_base.is_some() {
        forked.is_none() || forked != base_end
    } else {
        false
    };
    if !wrong {
        return;
    }
    let message = match (has_id, forked, base_end) {
        (false, Some(f), _) => {
            format!(
                "forked_from_ordinal_exclusive {f} without forked_from_id: a fork point of no fork"
            )
        }
        (_, None, Some(b)) => format!(
            "forked_from_id without forked_from_ordinal_exclusive, in a fork by reference \
             (history_base.end_ordinal_exclusive {b}): the fork point is not recorded"
        ),
        (_, f, b) => format!(
            "forked_from_ordinal_exclusive {} is not history_base.end_ordinal_exclusive {}: the \
             fork point and the history base disagree",
            num(f),
            num(b)
        ),
    };
    out.push_rec(rec, message);
}
