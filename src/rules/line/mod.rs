//! Lines: what Codex's reader rejects or skips, and what it reads wrong.

use crate::decode::{BadLine, DecodeError};
use crate::rules::Facts;

group![
    json,
    not_object,
    timestamp,
    timestamp_format,
    r#type,
    ordinal,
    payload,
    unknown_type,
    oversized
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
