//! How a finding may be cured: edits to bytes, as data. Nothing here writes a file.

use std::ops::Range;

use serde::Serialize;

use crate::decode::Line;
use crate::input::Source;

/// How safe a fix is.
///
/// `Safe`: what the real Codex rebuilds from the file (the model history, and what a
/// client is shown) is unchanged or restored, and no record Codex uses is lost (a duplicate
/// record Codex skips, like the redundant line of openai/codex#41079, may go). `Unsafe`:
/// anything else (a fix that drops a record Codex uses, or renumbers). Each rule's fix says
/// which, and on what evidence (`docs/rules.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    Safe,
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// A cure: edits, how safe they are, and what they do in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    pub description: String,
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn new(applicability: Applicability, description: String, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability,
            description,
            edits,
        }
    }

    pub fn safe(description: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Safe, description.into(), edits)
    }

    pub fn unsafe_(description: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Unsafe, description.into(), edits)
    }
}

/// One edit of one file: the bytes `start..end` of its decoded text replaced by `content`
/// (nothing: a deletion; an empty range: an insertion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub file: Source,
    pub start: u64,
    pub end: u64,
    pub content: String,
}

impl Edit {
    pub fn delete(file: Source, range: Range<u64>) -> Edit {
        Edit::replace(file, range, String::new())
    }

    pub fn insert(file: Source, at: u64, content: String) -> Edit {
        Edit::replace(file, at..at, content)
    }

    /// Delete the line at `line`, its ending included (the last line, unterminated: the
    /// line alone, so the line before keeps its own ending).
    pub fn delete_line(file: Source, line: &Line) -> Edit {
        Edit::delete(file, line.pos.offset..line.next())
    }

    pub fn replace(file: Source, range: Range<u64>, content: String) -> Edit {
        Edit {
            file,
            start: range.start,
            end: range.end,
            content,
        }
    }
}

/// When a rule's findings carry a fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FixWhen {
    #[serde(rename = "none")]
    Never,
    Sometimes,
    Always,
}

/// A rule's fixes: when its findings carry one, and how safe they can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixes {
    pub when: FixWhen,
    pub applicabilities: &'static [Applicability],
}

impl Fixes {
    /// No fix.
    pub const NONE: Fixes = Fixes {
        when: FixWhen::Never,
        applicabilities: &[],
    };
}

/// Two edits that touch the same bytes (or insert at the same place).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlap {
    pub at: u64,
}

/// `text` with `edits` applied (all of them edits of that text; offsets into it). Edits
/// that overlap are refused, the text unchanged; an edit past the end is one that overlaps
/// nothing but the end.
pub fn apply(text: &[u8], edits: &[&Edit]) -> Result<Vec<u8>, Overlap> {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort_by_key(|e| (e.start, e.end));
    let len = text.len() as u64;
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0u64;
    let mut last_insert: Option<u64> = None;
    for e in sorted {
        let insert = e.start == e.end;
        if e.start < at
            || e.end < e.start
            || e.end > len
            || (insert && last_insert == Some(e.start))
        {
            return Err(Overlap { at: e.start });
        }
        last_insert = insert.then_some(e.start);
        out.extend_from_slice(text.get(at as usize..e.start as usize).unwrap_or_default());
        out.extend_from_slice(e.content.as_bytes());
        at = e.end;
    }
    out.extend_from_slice(text.get(at as usize..).unwrap_or_default());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(range: Range<u64>, s: &str) -> Edit {
        Edit::replace(Source::Stdin, range, s.to_string())
    }

    #[test]
    fn edits_apply_in_order_and_overlaps_are_refused() {
        let text = b"abcdef";
        let (a, b, c) = (edit(0..1, ""), edit(3..3, "X"), edit(4..6, "yz!"));
        assert_eq!(apply(text, &[&c, &a, &b]).unwrap(), b"bcXdyz!");
        assert_eq!(apply(text, &[]).unwrap(), text);
        assert!(apply(text, &[&edit(1..3, ""), &edit(2..4, "")]).is_err());
        assert!(apply(text, &[&edit(2..2, "a"), &edit(2..2, "b")]).is_err());
        assert!(apply(text, &[&edit(5..9, "")]).is_err());
        // An insertion where a deletion starts comes before it.
        assert_eq!(
            apply(text, &[&edit(2..2, "-"), &edit(2..4, "")]).unwrap(),
            b"ab-ef"
        );
    }
}
