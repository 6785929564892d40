//! `meta.missing`: a file with no session metadata.

use crate::analysis::ordinal::{Fault, Head, Problem};
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** The file holds a `session_meta` at all.
    ///
    /// **Why it matters.** Without one Codex cannot learn the thread ("failed to parse thread
    /// ID from rollout file", "does not start with session metadata"): the resume is refused.
    ///
    /// **Example.** The first line was lost in a crash, or a tool wrote only events.
    ///
    /// **Fix.** Write the `session_meta` the session started with as the first line.
    "meta.missing", Error, "no session_meta in the file",
    effect: Refused,
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[
        Hook::file(Stage::Ordinals, head),
        Hook::file(Stage::Head, head),
        Hook::file(Stage::NoMeta, in_file),
    ],
);

/// A file's head, as its ordinal check found it (a paginated file's among its ordinal
/// problems, another's apart).
fn head(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.heads(out.stage()) {
        found(nth, p, out);
    }
}

fn found(nth: usize, p: &Problem, out: &mut Found<'_>) {
    if p.fault == Fault::Head(Head::NoMetaWithOrdinals) {
        out.push_nth(
            nth,
            Some(p.at),
            "no session_meta: the lines carry ordinals, so the file is checked as paginated, \
             but Codex cannot resume it (\"failed to parse thread ID from rollout file\")"
                .to_string(),
        );
    }
}

/// Any other file without one (an empty file is `file.empty`'s; one not read to its end may
/// hold one past where the read stopped).
fn in_file(facts: &Facts<'_>, out: &mut Found<'_>) {
    let f = facts.file;
    let said = matches!(facts.head(), Some(Head::NoMetaWithOrdinals));
    if facts.replay.is_some()
        && f.opened
        && f.session.meta_line.is_none()
        && !said
        && !facts.empty()
        && !facts.partial()
    {
        out.push(
            None,
            "no session_meta in the file: Codex cannot learn the thread and refuses to resume \
             it (\"does not start with session metadata\")"
                .to_string(),
        );
    }
}
