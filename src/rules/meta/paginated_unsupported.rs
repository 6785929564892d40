//! `meta.paginated-unsupported`: a paginated rollout read as a Codex version that does not
//! write paginated history.

use crate::codex::{Answer, Behaviour};
use crate::decode::Record;
use crate::rules::{Found, Hook, RecordCx, Unit};

rule! {
    /// **Checks.** The Codex version the file is read as (`--codex`) keeps a paginated file
    /// paginated when it resumes it. Reported only for a paginated file read as a version
    /// that does not.
    ///
    /// **Why it matters.** Codex 0.110 and 0.128 resume a paginated rollout as any other and
    /// append their records without `ordinal` (verified: 11 records, `docs/codex-versions.md`):
    /// the resume itself works, but afterwards Codex 0.147 and later refuse the file ("final
    /// paginated rollout record is missing an ordinal").
    ///
    /// **Example.** A rollout of Codex 0.171, read with `--codex 0.128`.
    ///
    /// **Fix.** Resume it with Codex 0.147 or later; a file an older Codex appended to needs
    /// its appended records numbered (or removed) before a newer Codex resumes it.
    "meta.paginated-unsupported", Warning, "a paginated rollout this Codex version appends to without ordinals",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::session_meta(check)]);

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if !cx.is_first_meta(rec) || !cx.paginated() {
        return;
    }
    if !cx.codex.does(Behaviour::PaginatedAppend, Answer::Ignores) {
        return;
    }
    out.push_rec(
        rec,
        format!(
            "a paginated rollout: Codex {} resumes it but appends its records without \
             ordinals, after which 0.147 and later refuse the file",
            cx.codex.version
        ),
    );
}
