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
