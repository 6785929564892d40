//! Where a finding is in its file.

use crate::decode::{Line, Pos};

/// A stretch of a file's text: its bytes, and the line and column where it starts and where
/// it ends. Offsets count in the decoded stream (the text of a `.zst`, not its compressed
/// bytes; a BOM included); lines from 1; columns from 1, in Unicode scalar values (a BOM is
/// one, a `\t` one). The end is exclusive: the position just past the last character, as
/// SARIF's `endColumn` is. A span that runs to the end of its line may leave its end column
/// uncounted (`None`): SARIF reads an absent `endColumn` as the end of the line, and the
/// characters are counted only for an output that prints the column. For an output that
/// prints only where a finding starts, a whole line whose length the pass did not keep is
/// not read back: its span ends where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// The bytes, `start..end`.
    pub start: u64,
    pub end: u64,
    pub start_line: u64,
    pub start_column: u64,
    pub end_line: u64,
    pub end_column: Option<u64>,
    /// Where the start line begins (the byte offset rows report).
    pub line_offset: u64,
}

impl Span {
    /// The whole of `line` before its ending (its end column when its characters were
    /// counted).
    pub fn whole(line: &Line) -> Span {
        Span {
            start: line.pos.offset,
            end: line.pos.offset + line.len,
            start_line: line.pos.line,
            start_column: 1,
            end_line: line.pos.line,
            end_column: line.chars.map(|c| c + 1),
            line_offset: line.pos.offset,
        }
    }

    /// The start of the line at `pos`, as a place (no characters): where only the line's
    /// start is known, as of a line in another file.
    pub fn start_of(pos: Pos) -> Span {
        Span {
            start: pos.offset,
            end: pos.offset,
            start_line: pos.line,
            start_column: 1,
            end_line: pos.line,
            end_column: Some(1),
            line_offset: pos.offset,
        }
    }

    /// The bytes `from..to` of `line` (offsets in the stream), the characters `first..past`
    /// of it (0-based).
    pub fn within(line: &Line, bytes: std::ops::Range<u64>, chars: std::ops::Range<u64>) -> Span {
        Span {
            start: bytes.start,
            end: bytes.end,
            start_line: line.pos.line,
            start_column: chars.start + 1,
            end_line: line.pos.line,
            end_column: Some(chars.end + 1),
            line_offset: line.pos.offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::Pos;

    #[test]
    fn a_lines_span_ends_past_its_last_character() {
        let line = Line {
            pos: Pos {
                line: 4,
                offset: 100,
            },
            len: 12,
            eol: 1,
            chars: Some(10),
        };
        let s = Span::whole(&line);
        assert_eq!((s.start, s.end), (100, 112));
        assert_eq!(
            (s.start_line, s.start_column, s.end_line, s.end_column),
            (4, 1, 4, Some(11))
        );
        assert_eq!(
            Span::whole(&Line {
                chars: None,
                ..line
            })
            .end_column,
            None
        );
        let start = Span::start_of(line.pos);
        assert_eq!((start.start, start.end, start.start_line), (100, 100, 4));
        assert_eq!((start.start_column, start.end_column), (1, Some(1)));
        let bom = Span::within(&line, 100..103, 0..1);
        assert_eq!(
            (bom.start_column, bom.end_column, bom.line_offset),
            (1, Some(2), 100)
        );
    }
}
