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

impl Cutoff {
    /// No cutoff: what a probe with it finds of a whole file answers every cutoff at the
    /// file's end past its ordinals ([`Probe::at_end`]), the cutoff of a fork of the whole
    /// file.
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

impl Probe {
    /// What a probe for `cutoff` finds, told from `self`, a probe of the whole file for
    /// [`Cutoff::NONE`] (the file read to its end, `no_final_newline` as it was read): where
    /// the cutoff lies at the file's end and past every ordinal it holds, no line starts at
    /// it but the end of a file that ends in a newline, and every line with an ordinal is
    /// below it, as for no cutoff. `None` for any other cutoff: the file must be read for it.
    pub fn at_end(&self, cutoff: Cutoff, no_final_newline: bool) -> Option<Probe> {
        let past_ordinals = self.max_ordinal.is_none_or(|m| m < cutoff.end_ordinal);
        if self.first_at_end.is_some() || !past_ordinals || cutoff.end_byte_offset != self.bytes {
            return None;
        }
        Some(Probe {
            history_mode: self.history_mode.clone(),
            bytes: self.bytes,
            target_at_line_start: self.bytes > 0 && !no_final_newline,
            first_at_end: None,
            prefix_end: self.prefix_end,
            holds_last_prefix: self
                .max_ordinal
                .is_some_and(|m| m.checked_add(1) == Some(cutoff.end_ordinal)),
            max_ordinal: self.max_ordinal,
        })
    }
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
    pub fn finish(mut self, session: &SessionTracker, info: &StreamInfo) -> Probe {
        if self.prefix_open {
            self.r.prefix_end = Some(info.bytes);
        }
        if self.cutoff.end_byte_offset == info.bytes && !info.no_final_newline && info.bytes > 0 {
            self.r.target_at_line_start = true;
        }
        self.r.bytes = info.bytes;
        self.r.history_mode = session.info().mode().to_string();
        self.r
    }
}

impl Fold for BoundaryProbe {
    fn record(&mut self, rec: &Record<'_>, _session: &SessionTracker) {
        self.line(rec.pos, rec.ordinal);
    }

    fn bad(&mut self, bad: &BadLine) {
        self.line(bad.pos, bad.ordinal_hint);
    }

    fn blank(&mut self, line: Line) {
        let pos = line.pos;
        self.line(pos, None);
    }
}

/// What the pass finds of `text` for `cutoff` (`Needs::boundary`, the probe the lineage
/// reader runs too), and whether the text ends without a newline.
#[cfg(test)]
pub(crate) fn probe_text(text: &[u8], cutoff: Cutoff) -> (Probe, bool) {
    let needs = crate::analysis::Needs::default().boundary(cutoff);
    let read = crate::analysis::ReadOptions::default();
    let source = crate::input::Source::Stdin;
    let facts = crate::analysis::read_stream(text, source, &read, &needs);
    let probe = facts.boundary.unwrap_or_default();
    (probe, facts.stream.no_final_newline)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On every file of `testdata/` (and each cut short of its last byte, its final newline
    /// mostly): a cutoff at the file's end past its ordinals is told from the probe of
    /// the whole file as reading it for that cutoff finds it; any other is not told.
    #[test]
    fn a_cutoff_at_the_end_is_told_from_the_whole_file_s_probe() {
        let (mut told, mut untold) = (0, 0);
        for file in crate::testkit::jsonl_files("") {
            let whole = std::fs::read(&file).unwrap();
            let cuts = [whole.len(), whole.len().saturating_sub(1)];
            for text in cuts.map(|n| &whole[..n]) {
                let (w, no_final_newline) = probe_text(text, Cutoff::NONE);
                let max = w.max_ordinal.unwrap_or(0);
                let bytes = text.len() as u64;
                for end_ordinal in [0, max, max + 1, max + 7] {
                    for end_byte_offset in [bytes, bytes.saturating_sub(1), bytes + 1] {
                        let cutoff = Cutoff {
                            end_ordinal,
                            end_byte_offset,
                        };
                        let (read, _) = probe_text(text, cutoff);
                        match w.at_end(cutoff, no_final_newline) {
                            Some(p) => {
                                assert_eq!(p, read, "{} {cutoff:?}", file.display());
                                told += 1;
                            }
                            None => untold += 1,
                        }
                    }
                }
            }
        }
        assert!(told > 200 && untold > 2000, "{told} told, {untold} not");
    }
}
