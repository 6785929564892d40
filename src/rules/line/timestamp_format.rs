//! `line.timestamp-format`: a timestamp that is not RFC 3339 UTC.

use crate::decode::Record;
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** Every record's `timestamp` is an RFC 3339 time in UTC (`…Z`), as Codex
    /// writes them (`2026-11-29T12:00:29.944Z`).
    ///
    /// **Why it matters.** Codex keeps the line, but sorts and lists threads by these times:
    /// a local time or another shape puts the session at the wrong time (or none) in its
    /// listing and in every tool that groups by day.
    ///
    /// **Example.** `"timestamp": "2026-11-29 12:02:16"`; `"…T13:02:16+01:00"`.
    ///
    /// **Fix.** Write UTC times in RFC 3339, with `Z`.
    "line.timestamp-format", Warning, "a timestamp that is not RFC 3339 UTC",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(Stage::RecordTimestamp, Kinds::ALL, check)],
);

fn check(rec: &Record<'_>, _: &RecordCx<'_>, out: &mut Found<'_>) {
    let ts = rec.timestamp.as_ref();
    if !crate::time::is_utc(ts) {
        out.push_rec(
            rec,
            format!(
                "timestamp {:?} is not an RFC 3339 time in UTC: Codex lists and sorts threads \
                 by these times",
                short(ts)
            ),
        );
    }
}
