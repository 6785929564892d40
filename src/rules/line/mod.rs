//! Lines: what Codex's reader rejects or skips, and what it reads wrong.

use crate::decode::{BadLine, DecodeError, Line};
use crate::findings::{Edit, Fix};
use crate::rules::{Facts, Found};

group![
    json,
    not_object,
    timestamp,
    timestamp_format,
    r#type,
    ordinal,
    payload,
    item_type,
    unknown_type,
    oversized,
    blank
];

/// The lines the decoder rejected, with their place in the list (the `line.*` rules read
/// it in that order): each but the first line Codex cannot read (`meta.first` says that one)
/// and the lines past a cut.
fn rejected<'a>(facts: &Facts<'a>) -> impl Iterator<Item = (usize, &'a BadLine)> {
    let head = match facts.head() {
        Some(crate::analysis::ordinal::Head::FirstLineUnreadable(b)) => Some(b.pos.line),
        _ => None,
    };
    let cut = facts.cut_line();
    let replayed = facts.replay.is_some();
    facts.file.bad.iter().enumerate().filter(move |(_, b)| {
        replayed && Some(b.pos.line) != head && cut.is_none_or(|l| b.pos.line <= l)
    })
}

/// Report each line the decoder rejected for a cause `of` picks (a rule's own causes),
/// each with its deletion fix.
fn report(facts: &Facts<'_>, out: &mut Found<'_>, of: impl Fn(&DecodeError) -> bool) {
    for (nth, bad) in rejected(facts) {
        if of(&bad.error) {
            let fix = delete(facts, bad, out);
            out.push_nth(nth, Some(bad.line()), message(bad)).fix = fix;
        }
    }
}

/// What a rejected line costs.
fn message(bad: &BadLine) -> String {
    if matches!(bad.error, DecodeError::Utf8 { .. }) {
        format!(
            "Codex cannot read this line ({bad}): invalid UTF-8 makes Codex 0.147 refuse the \
             whole file"
        )
    } else {
        format!("Codex cannot read this line ({bad}): its record is lost on resume")
    }
}

/// Delete a line Codex cannot read: it skips the line, so what it rebuilds stays the same
/// (safe). Unsafe for a line that is not UTF-8, which makes Codex 0.147 refuse the whole
/// file: deleted, its record is lost where replacing the bad bytes would keep it. None in
/// a paginated file for a line that carries an ordinal, where the deletion would open a
/// gap.
fn delete(facts: &Facts<'_>, bad: &BadLine, out: &Found<'_>) -> Option<Fix> {
    let paginated = facts.ordinals().is_some_and(|o| o.paginated);
    if paginated && bad.ordinal_hint.is_some() {
        return None;
    }
    let edits = vec![Edit::delete_line(out.file().clone(), &bad.line())];
    Some(match bad.error {
        DecodeError::Utf8 { .. } => Fix::unsafe_("delete the line that is not UTF-8", edits),
        _ => Fix::safe("delete the line Codex skips", edits),
    })
}

/// Delete the record at `line`, which Codex skips (safe), when it carries no ordinal.
fn delete_record(line: &Line, ordinal: Option<u64>, out: &Found<'_>) -> Option<Fix> {
    ordinal.is_none().then(|| {
        Fix::safe(
            "delete the line Codex skips",
            vec![Edit::delete_line(out.file().clone(), line)],
        )
    })
}
