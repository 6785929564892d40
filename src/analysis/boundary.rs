//! Where an ordinal cutoff falls in a file: what the lineage check reads of a `history_base`
//! source rollout.
//!
//! Ordinals are read as the sequence checks read them: every line that carries one, decoded
//! or not. Byte offsets are the decoded stream's, so a `.zst` source counts the bytes of the
//! plain JSONL Codex wrote.

use crate::analysis::session::SessionTracker;
use crate::analysis::Fold;
use crate::decode::{BadLine, Line, Pos, Record, StreamInfo};

/// A cutoff to look for: `history_base.end_ordinal_exclusive` and `end_byte_offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cutoff {
    pub end_ordinal: u64,
    pub end_byte_offset: u64,
}

#[cfg(test)]
impl Cutoff {
    /// No cutoff: the tests' probe of a whole file, read for its lines.
    pub const NONE: Cutoff = Cutoff {
        end_ordinal: u64::MAX,
        end_byte_offset: u64::MAX,
    };
}

/// What a source rollout says about a cutoff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Probe {
    pub history_mode: String,
    /// Decoded bytes.
    pub bytes: u64,
    /// Some line starts exactly at the target offset (or it is the end of a file that ends
    /// in a newline).
    pub target_at_line_start: bool,
    /// The first line with `ordinal >= end`: its position.
    pub first_at_end: Option<Pos>,
    /// Just after the last line with `ordinal < end` that comes before `first_at_end`.
    pub prefix_end: Option<u64>,
    /// The source holds ordinal `end - 1`.
    pub holds_last_prefix: bool,
    /// The highest ordinal in the source.
    pub max_ordinal: Option<u64>,
}

/// Reads a source rollout for one cutoff.
#[derive(Debug)]
pub struct BoundaryProbe {
    cutoff: Cutoff,
    r: Probe,
    /// The previous line had an ordinal below `end` (its end is the next line's start).
    prefix_open: bool,
}

impl BoundaryProbe {
    pub fn new(cutoff: Cutoff) -> Self {
        BoundaryProbe {
            cutoff,
            r: Probe::default(),
            prefix_open: false,
        }
    }

    fn line(&mut self, pos: Pos, ordinal: Option<u64>) {
        let end = self.cutoff.end_ordinal;
        if pos.offset == self.cutoff.end_byte_offset {
            self.r.target_at_line_start = true;
        }
        if self.prefix_open {
            self.r.prefix_end = Some(pos.offset);
            self.prefix_open = false;
        }
        let Some(o) = ordinal else { return };
        self.r.max_ordinal = Some(self.r.max_ordinal.map_or(o, |m| m.max(o)));
        if o.checked_add(1) == Some(end) {
            self.r.holds_last_prefix = true;
        }
        if self.r.first_at_end.is_some() {
            return;
        }
        if o >= end {
            self.r.first_at_end = Some(pos);
        } else {
            self.prefix_open = true;
        }
    }

    /// What the file said, at its end.
    pub fn finish(self, session: &SessionTracker, info: &StreamInfo) -> Probe {
        self.end(session.info().mode(), info.bytes, info.no_final_newline)
    }

    /// What the file said, at its end: `bytes` long, ending without a newline or not, its
    /// history mode `history_mode`.
    fn end(mut self, history_mode: &str, bytes: u64, no_final_newline: bool) -> Probe {
        if self.prefix_open {
            self.r.prefix_end = Some(bytes);
        }
        if self.cutoff.end_byte_offset == bytes && !no_final_newline && bytes > 0 {
            self.r.target_at_line_start = true;
        }
        self.r.bytes = bytes;
        self.r.history_mode = history_mode.to_string();
        self.r
    }
}

/// Lines a file's [`Lines`] may hold (32 bytes each: 8 MiB): a larger file's are not
/// kept, and its forks read it again for their cutoffs.
pub const MAX_LINES: usize = 1 << 18;

/// Every line of a file as a probe reads it (where it starts, its ordinal) and how the
/// file ends: the probe for any cutoff, told without reading the file again
/// ([`Lines::probe`]). A file's own pass records them; the forks of it that follow, at
/// whatever cutoff each, are judged from them.
#[derive(Debug, Clone, Default)]
pub struct Lines {
    lines: Vec<(Pos, Option<u64>)>,
    history_mode: String,
    bytes: u64,
    no_final_newline: bool,
}

impl Lines {
    /// What a probe for `cutoff` finds, reading the file these lines are of: the same
    /// probe, fed the same lines.
    pub fn probe(&self, cutoff: Cutoff) -> Probe {
        let mut probe = BoundaryProbe::new(cutoff);
        for &(pos, ordinal) in &self.lines {
            probe.line(pos, ordinal);
        }
        probe.end(&self.history_mode, self.bytes, self.no_final_newline)
    }

    /// What they weigh against [`MAX_LINES`]: a line each, and one.
    pub fn weight(&self) -> usize {
        self.lines.len() + 1
    }

    /// The file's length as read.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Where the lines past `end` begin, when every line below it comes before them: the
    /// first line with an ordinal at or past `end` (the end of the file when none is), and
    /// no line after it with an ordinal below. A rebuild of the records below `end` goes on
    /// from there for a later cutoff. `None` when a line below `end` comes later.
    pub fn past(&self, end: u64) -> Option<Pos> {
        let at = self
            .lines
            .iter()
            .position(|(_, o)| o.is_some_and(|o| o >= end));
        let Some(at) = at else {
            let line = self.lines.last().map_or(1, |(p, _)| p.line + 1);
            return Some(Pos {
                line,
                offset: self.bytes,
            });
        };
        let rest = self.lines.get(at..)?;
        if rest.iter().any(|(_, o)| o.is_some_and(|o| o < end)) {
            return None;
        }
        rest.first().map(|(pos, _)| *pos)
    }

    /// Where a read for the records below `end` may stop: the start of the line after the
    /// last line below it (the file's end when that is the last).
    pub fn below_end(&self, end: u64) -> u64 {
        let last = self
            .lines
            .iter()
            .rposition(|(_, o)| o.is_some_and(|o| o < end));
        last.and_then(|k| self.lines.get(k + 1))
            .map_or(self.bytes, |(pos, _)| pos.offset)
    }
}

/// Records a file's [`Lines`] as the pass reads it, up to [`MAX_LINES`].
#[derive(Debug, Default)]
pub struct LineRecorder {
    lines: Vec<(Pos, Option<u64>)>,
    overflowed: bool,
}

impl LineRecorder {
    fn line(&mut self, pos: Pos, ordinal: Option<u64>) {
        if self.overflowed {
            return;
        }
        if self.lines.len() >= MAX_LINES {
            self.overflowed = true;
            self.lines = Vec::new();
            return;
        }
        self.lines.push((pos, ordinal));
    }

    /// The lines, at the file's end; `None` past [`MAX_LINES`].
    pub fn finish(self, session: &SessionTracker, info: &StreamInfo) -> Option<Lines> {
        (!self.overflowed).then(|| Lines {
            lines: self.lines,
            history_mode: session.info().mode().to_string(),
            bytes: info.bytes,
            no_final_newline: info.no_final_newline,
        })
    }
}

/// What reads a file line by line, each by where it starts and its ordinal (a bad line's
/// as it seems to be written, a blank line none): the probe, and the lines recorded for it.
trait ByLine {
    fn line(&mut self, pos: Pos, ordinal: Option<u64>);
}

impl ByLine for BoundaryProbe {
    fn line(&mut self, pos: Pos, ordinal: Option<u64>) {
        BoundaryProbe::line(self, pos, ordinal);
    }
}

impl ByLine for LineRecorder {
    fn line(&mut self, pos: Pos, ordinal: Option<u64>) {
        LineRecorder::line(self, pos, ordinal);
    }
}

impl<T: ByLine> Fold for T {
    fn record(&mut self, rec: &Record<'_>, _session: &SessionTracker) {
        self.line(rec.pos, rec.ordinal);
    }

    fn bad(&mut self, bad: &BadLine) {
        self.line(bad.pos, bad.ordinal_hint);
    }

    fn blank(&mut self, line: Line) {
        self.line(line.pos, None);
    }
}

/// What the pass finds of `text` for `cutoff` (`Needs::boundary`, the probe the lineage
/// reader runs too), and the lines it records (`Needs::lines`).
#[cfg(test)]
pub(crate) fn probe_text(text: &[u8], cutoff: Cutoff) -> (Probe, Option<Lines>) {
    let needs = crate::analysis::Needs::default().boundary(cutoff).lines();
    let read = crate::analysis::ReadOptions::default();
    let source = crate::input::Source::Stdin;
    let facts = crate::analysis::read_stream(text, source, &read, &needs);
    let probe = facts.boundary.unwrap_or_default();
    (probe, facts.lines.map(std::sync::Arc::unwrap_or_clone))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On every file of `testdata/` (and each cut short of its last byte, its final newline
    /// mostly): the probe for a cutoff told from the lines the pass recorded is what
    /// reading the file for that cutoff finds, for cutoffs on and past a line in the
    /// middle (its start, its ordinal), the last ordinal and the end.
    #[test]
    fn any_cutoff_is_told_from_the_lines_as_reading_the_file_finds_it() {
        let mut told = 0;
        for file in crate::testkit::jsonl_files("") {
            let whole = std::fs::read(&file).unwrap();
            let cuts = [whole.len(), whole.len().saturating_sub(1)];
            for text in cuts.map(|n| &whole[..n]) {
                let (_, lines) = probe_text(text, Cutoff::NONE);
                let lines = lines.expect("a small file's lines are recorded");
                let bytes = text.len() as u64;
                // The line in the middle, the last ordinal, the end: on them and past them.
                let (mid, max) = lines.lines.get(lines.lines.len() / 2).map_or(
                    (Pos::default(), 0),
                    |&(pos, o)| {
                        let max = lines.lines.iter().filter_map(|l| l.1).max();
                        (pos, max.or(o).unwrap_or(0))
                    },
                );
                let mid_ordinal = lines
                    .lines
                    .get(lines.lines.len() / 2)
                    .and_then(|l| l.1)
                    .unwrap_or(1);
                let ordinals = [0, mid_ordinal, mid_ordinal + 1, max, max.saturating_add(1)];
                let offsets = [0, mid.offset, mid.offset + 1, bytes, bytes + 1];
                for &end_ordinal in &ordinals {
                    for &end_byte_offset in &offsets {
                        let cutoff = Cutoff {
                            end_ordinal,
                            end_byte_offset,
                        };
                        let (read, _) = probe_text(text, cutoff);
                        assert_eq!(lines.probe(cutoff), read, "{} {cutoff:?}", file.display());
                        told += 1;
                    }
                }
            }
        }
        assert!(told > 20_000, "{told}");
    }

    /// Where a rebuild goes on from: the first line at or past the cutoff, when no line
    /// below it comes after; where a read for a cutoff may stop: past its last line below.
    #[test]
    fn a_rebuild_goes_on_past_its_cutoff_only_where_every_line_below_comes_before() {
        let text = b"{\"ordinal\":0,\"type\":\"a\",\"payload\":{}}\n\n{\"ordinal\":1,\"type\":\"a\",\"payload\":{}}\n{\"ordinal\":2,\"type\":\"a\",\"payload\":{}}\n";
        let (_, lines) = probe_text(text, Cutoff::NONE);
        let lines = lines.unwrap();
        let starts: Vec<u64> = lines.lines.iter().map(|(p, _)| p.offset).collect();
        assert_eq!(
            lines.past(1).map(|p| (p.line, p.offset)),
            Some((3, starts[2]))
        );
        assert_eq!(lines.past(0).map(|p| p.line), Some(1));
        // None past the last: the end.
        let end = lines.past(9).unwrap();
        assert_eq!((end.line, end.offset), (5, lines.bytes()));
        assert_eq!(lines.below_end(1), starts[1]);
        assert_eq!(lines.below_end(2), starts[3]);
        assert_eq!(lines.below_end(3), lines.bytes());
        // An ordinal below the cutoff written after a line past it: no going on.
        let late = b"{\"ordinal\":2,\"type\":\"a\",\"payload\":{}}\n{\"ordinal\":1,\"type\":\"a\",\"payload\":{}}\n";
        let (_, lines) = probe_text(late, Cutoff::NONE);
        assert_eq!(lines.unwrap().past(2).map(|p| p.line), None);
    }

    #[test]
    fn a_file_past_the_bound_keeps_no_lines() {
        let mut r = LineRecorder::default();
        for line in 1..=MAX_LINES as u64 + 1 {
            r.line(Pos { line, offset: line }, Some(line));
        }
        let session = SessionTracker::new();
        assert!(r.finish(&session, &StreamInfo::default()).is_none());
    }
}
