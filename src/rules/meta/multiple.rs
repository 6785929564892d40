//! `meta.multiple`: a second session metadata record.

use crate::decode::{select, Record};
use crate::findings::Severity;
use crate::rules::{Found, Hook, RecordCx, Unit};

rule! {
    /// **Checks.** The file holds one `session_meta`.
    ///
    /// **Why it matters.** In a paginated file, a second one breaks the contract (the
    /// recorder writes it once; "session metadata identity changed" when its id differs). In
    /// a legacy file, or when it is the parent's (`forked_from_id`) heading the copy of its
    /// history that a copy-fork or a sub-agent (the real 0.171 writes it as line 2 of a
    /// paginated child) carries, it is a fact, as info: the first one is the file's own.
    ///
    /// **Example.** A fork that copied its parent's records, `session_meta` included.
    ///
    /// **Fix.** In a paginated file, remove the later ones.
    "meta.multiple", Error, "more than one session_meta",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::session_meta(check)]);

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if cx.is_first_meta(rec) {
        return;
    }
    // A fork's or sub-agent's copy of its parent's history starts with the parent's
    // session_meta: the real 0.171 sub-agent child writes it as line 2 of a paginated file.
    // A fact, as in a legacy copy-fork.
    let meta_id = rec.payload_field("id").and_then(select::str_value);
    let parents = matches!(
        (meta_id.as_deref(), cx.session.forked_from_id.as_deref()),
        (Some(id), Some(parent)) if id.eq_ignore_ascii_case(parent)
    );
    let copied = !cx.paginated() || parents;
    let first_line = cx.session.meta_line.unwrap_or(0);
    if copied {
        let f = out.push_rec(
            rec,
            format!(
                "another session_meta (the first, at line {first_line}, is the file's own): \
                 copied history, as a fork or sub-agent copies its parent's"
            ),
        );
        f.severity = Severity::Info;
    } else {
        out.push_rec(
            rec,
            format!(
                "another session_meta (the first is at line {first_line}): a paginated rollout \
                 has exactly one"
            ),
        );
    }
}
