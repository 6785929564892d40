//! The lineage half of `check-ordinal`: does a paginated file's `history_base` point at a
//! real boundary of its source rollout?
//!
//! Pure parts only: reading rollout ids from file names, the [`SourceProbe`] reducer run over
//! the source (through the ordinary reader, so `.zst` sources count decoded bytes), and the
//! judgement. Finding the source on disk is the glue's job (`cmd/check_ordinal.rs`).
//!
//! The rules (`research/upstream.md` §4, lineage trim; `research/real-rollouts.md`):
//! - `history_base.thread_id` holds the source's **rollout** id: the part of its file name
//!   after `_` in `rollout-<ts>-<thread>_<rollout>.jsonl`, or the thread id when there is no
//!   `_`. The real 0.171 revert's new file names its base by the old file's id, which has no
//!   `_`; the fork's child names its parent's.
//! - `end_ordinal_exclusive` must be > 0 (the cutoff cannot include the source's
//!   `session_meta`), and the source must hold ordinal `end_ordinal_exclusive - 1`.
//! - The source must be paginated.
//! - `end_byte_offset` must lie within the source, just after a newline, and equal the byte
//!   offset of the source's first record with `ordinal >= end_ordinal_exclusive` (the end of
//!   the file when there is none, as in the real fork, whose base is its parent's whole
//!   file). Upstream tolerates one exception, kept here: an offset that only differs by lines
//!   without ordinal between the last prefix record and that record.
//! - Upstream's fork code skips the byte check for `.zst` sources; the issue asks for it on
//!   decoded bytes, which is what the reader's offsets are. The issue decides.

use crate::decode::{BadLine, Pos, Record, StreamInfo};
use crate::model::HistoryBase;
use crate::reduce::ordinal::{Problem, ProblemKind, Severity};
use crate::reduce::session::SessionTracker;
use crate::reduce::Reducer;

/// `rollout-<19-char ts>-<ids>.jsonl[.zst]` → `(thread id, rollout id)`.
pub fn ids_from_file_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("rollout-")?;
    let rest = rest
        .strip_suffix(".jsonl.zst")
        .or_else(|| rest.strip_suffix(".jsonl"))?;
    // The timestamp is exactly 19 characters (`YYYY-MM-DDThh-mm-ss`), then `-`.
    let ids = rest.get(19..)?.strip_prefix('-')?;
    let (thread, rollout) = ids.split_once('_').unwrap_or((ids, ids));
    if thread.is_empty() || rollout.is_empty() {
        return None;
    }
    Some((thread, rollout))
}

/// The rollout id a file name declares.
pub fn rollout_id_from_file_name(name: &str) -> Option<&str> {
    ids_from_file_name(name).map(|(_, r)| r)
}

/// The parts of a `history_base` that must hold before any source is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseTarget {
    pub rollout_id: String,
    pub end_ordinal: u64,
    pub end_byte_offset: u64,
}

/// Check the shape of a `history_base`; a problem when it cannot even be looked up.
pub fn target(base: &HistoryBase, at: Pos) -> Result<BaseTarget, Problem> {
    let fail = |msg: &str| Problem {
        kind: ProblemKind::Base,
        severity: Severity::Error,
        line: at.line,
        byte_offset: at.offset,
        expected: None,
        found: None,
        message: msg.to_string(),
    };
    let rollout_id = match base.thread_id.as_deref().map(str::trim) {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => {
            return Err(fail(
                "history_base has no thread_id (the source's rollout id)",
            ))
        }
    };
    let end_ordinal = match base.end_ordinal_exclusive {
        Some(0) => {
            let mut p = fail(
                "history_base.end_ordinal_exclusive is 0: the cutoff cannot include the source's \
                 session metadata",
            );
            p.found = Some(0);
            return Err(p);
        }
        Some(n) => n,
        None => return Err(fail("history_base has no end_ordinal_exclusive")),
    };
    let Some(end_byte_offset) = base.end_byte_offset else {
        return Err(fail("history_base has no end_byte_offset"));
    };
    Ok(BaseTarget {
        rollout_id,
        end_ordinal,
        end_byte_offset,
    })
}

/// What a source rollout says about a cutoff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProbeResult {
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

/// Reads a source rollout for one cutoff. Ordinals are read as the sequence checks read them:
/// every line that carries one, decoded or not.
#[derive(Debug)]
pub struct SourceProbe {
    end: u64,
    target: u64,
    r: ProbeResult,
    /// The previous line had an ordinal below `end` (its end is the next line's start).
    prefix_open: bool,
}

impl SourceProbe {
    pub fn new(end_ordinal: u64, end_byte_offset: u64) -> Self {
        SourceProbe {
            end: end_ordinal,
            target: end_byte_offset,
            r: ProbeResult::default(),
            prefix_open: false,
        }
    }

    fn line(&mut self, pos: Pos, ordinal: Option<u64>) {
        if pos.offset == self.target {
            self.r.target_at_line_start = true;
        }
        if self.prefix_open {
            self.r.prefix_end = Some(pos.offset);
            self.prefix_open = false;
        }
        let Some(o) = ordinal else { return };
        self.r.max_ordinal = Some(self.r.max_ordinal.map_or(o, |m| m.max(o)));
        if o.checked_add(1) == Some(self.end) {
            self.r.holds_last_prefix = true;
        }
        if self.r.first_at_end.is_some() {
            return;
        }
        if o >= self.end {
            self.r.first_at_end = Some(pos);
        } else {
            self.prefix_open = true;
        }
    }
}

impl Reducer for SourceProbe {
    type Output = ProbeResult;

    fn record(&mut self, rec: &Record<'_>, _session: &SessionTracker) {
        self.line(rec.pos, rec.ordinal);
    }

    fn bad(&mut self, bad: &BadLine) {
        self.line(bad.pos, bad.ordinal_hint);
    }

    fn blank(&mut self, pos: Pos) {
        self.line(pos, None);
    }

    fn finish(mut self, session: &SessionTracker, info: &StreamInfo) -> ProbeResult {
        if self.prefix_open {
            self.r.prefix_end = Some(info.bytes);
        }
        if self.target == info.bytes && !info.no_final_newline && info.bytes > 0 {
            self.r.target_at_line_start = true;
        }
        self.r.bytes = info.bytes;
        self.r.history_mode = session.info().mode().to_string();
        self.r
    }
}

/// Judge a cutoff against its source. `source` is the source's path as shown to users.
pub fn judge(t: &BaseTarget, source: &str, probe: &ProbeResult, at: Pos) -> Option<Problem> {
    let problem = |expected: Option<u64>, found: Option<u64>, message: String| Problem {
        kind: ProblemKind::Base,
        severity: Severity::Error,
        line: at.line,
        byte_offset: at.offset,
        expected,
        found,
        message,
    };
    if probe.history_mode != "paginated" {
        return Some(problem(
            None,
            None,
            format!(
                "source rollout {source} is not paginated (history_mode {}): Codex refuses \
                 the lineage",
                probe.history_mode
            ),
        ));
    }
    if !probe.holds_last_prefix {
        let last = probe
            .max_ordinal
            .map_or_else(|| "none".to_string(), |m| m.to_string());
        return Some(problem(
            Some(t.end_ordinal - 1),
            probe.max_ordinal,
            format!(
                "history_base.end_ordinal_exclusive {} is outside source rollout {source}: it \
                 holds no ordinal {} (its highest is {last})",
                t.end_ordinal,
                t.end_ordinal - 1
            ),
        ));
    }
    let expected = probe.first_at_end.map_or(probe.bytes, |p| p.offset);
    let boundary = match probe.first_at_end {
        Some(p) => format!(
            "the byte offset of its first record with ordinal >= {} (line {})",
            t.end_ordinal, p.line
        ),
        None => format!(
            "the end of the source: no record there has ordinal >= {}",
            t.end_ordinal
        ),
    };
    let found = t.end_byte_offset;
    if found > probe.bytes {
        return Some(problem(
            Some(expected),
            Some(found),
            format!(
                "history_base.end_byte_offset {found} is past the end of source rollout {source} \
                 ({} decoded bytes); expected {expected}, {boundary}",
                probe.bytes
            ),
        ));
    }
    if !probe.target_at_line_start {
        return Some(problem(
            Some(expected),
            Some(found),
            format!(
                "history_base.end_byte_offset {found} is not just after a newline in source \
                 rollout {source}; expected {expected}, {boundary}"
            ),
        ));
    }
    let lo = probe.prefix_end.unwrap_or(expected);
    if found != expected && !(lo <= found && found <= expected) {
        return Some(problem(
            Some(expected),
            Some(found),
            format!(
                "history_base.end_byte_offset {found} does not match its ordinal boundary in \
                 source rollout {source}: expected {expected}, {boundary}"
            ),
        ));
    }
    None
}

/// The source could not be found: the check could not be done (a warning, never a pass).
pub fn not_found(t: &BaseTarget, searched: &str, at: Pos) -> Problem {
    Problem {
        kind: ProblemKind::Base,
        severity: Severity::Warning,
        line: at.line,
        byte_offset: at.offset,
        expected: None,
        found: None,
        message: format!(
            "source rollout {} (history_base.thread_id) not found in {searched}: the lineage \
             could not be checked",
            t.rollout_id
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source;
    use crate::reduce::{reduce_stream, ReadOptions};

    #[test]
    fn ids_from_names() {
        let plain = "rollout-2026-11-29T12-31-25-01a22749-ec63-7791-aa7e-90f634c94a03.jsonl";
        assert_eq!(
            ids_from_file_name(plain),
            Some((
                "01a22749-ec63-7791-aa7e-90f634c94a03",
                "01a22749-ec63-7791-aa7e-90f634c94a03"
            ))
        );
        let revert = "rollout-2026-11-29T12-31-26-01a22749-ec63-7791-aa7e-90f634c94a03_01a22749-ed72-7ef2-83d3-0a2ada3ba658.jsonl.zst";
        assert_eq!(
            rollout_id_from_file_name(revert),
            Some("01a22749-ed72-7ef2-83d3-0a2ada3ba658")
        );
        assert_eq!(rollout_id_from_file_name("rollout-short.jsonl"), None);
        assert_eq!(rollout_id_from_file_name("notes.jsonl"), None);
        assert_eq!(
            rollout_id_from_file_name("rollout-2026-11-29T12-31-26-_.jsonl"),
            None
        );
        assert_eq!(
            rollout_id_from_file_name("rollout-2026-11-29T12-31-2é-x.jsonl"),
            None
        );
    }

    fn line(o: u64) -> String {
        format!(r#"{{"timestamp":"t","ordinal":{o},"type":"event_msg","payload":{{}}}}"#)
    }

    /// A source: meta at 0, then ordinals 1..n; returns the text and each line's offset.
    fn source(n: u64, mode: &str) -> (String, Vec<u64>) {
        let mut text = format!(
            r#"{{"timestamp":"t","ordinal":0,"type":"session_meta","payload":{{"id":"s","history_mode":"{mode}"}}}}"#
        );
        text.push('\n');
        let mut offs = vec![0];
        for o in 1..n {
            offs.push(text.len() as u64);
            text.push_str(&line(o));
            text.push('\n');
        }
        (text, offs)
    }

    fn probe(text: &str, end: u64, off: u64) -> ProbeResult {
        reduce_stream(
            text.as_bytes(),
            Source::Stdin,
            &ReadOptions::default(),
            SourceProbe::new(end, off),
        )
        .output
        .unwrap()
    }

    fn run(text: &str, end: u64, off: u64) -> Option<Problem> {
        let t = BaseTarget {
            rollout_id: "s".into(),
            end_ordinal: end,
            end_byte_offset: off,
        };
        judge(
            &t,
            "src",
            &probe(text, end, off),
            Pos { line: 1, offset: 0 },
        )
    }

    #[test]
    fn exact_boundary_passes_and_off_by_one_fails() {
        let (text, offs) = source(5, "paginated");
        assert_eq!(run(&text, 3, offs[3]), None);
        let p = run(&text, 3, offs[3] + 1).unwrap();
        assert_eq!((p.expected, p.found), (Some(offs[3]), Some(offs[3] + 1)));
        assert!(p.message.contains("not just after a newline"));
        let p = run(&text, 3, offs[2]).unwrap();
        assert!(p.message.contains("does not match"), "{}", p.message);
    }

    #[test]
    fn whole_file_base_points_at_the_end() {
        let (text, _) = source(5, "paginated");
        let len = text.len() as u64;
        assert_eq!(run(&text, 5, len), None);
        let p = run(&text, 5, len + 1).unwrap();
        assert!(p.message.contains("past the end"));
    }

    #[test]
    fn cutoff_outside_source_and_legacy_source_fail() {
        let (text, _) = source(5, "paginated");
        let p = run(&text, 9, text.len() as u64).unwrap();
        assert_eq!((p.expected, p.found), (Some(8), Some(4)));
        let (legacy, offs) = source(5, "legacy");
        assert!(run(&legacy, 3, offs[3])
            .unwrap()
            .message
            .contains("not paginated"));
    }

    #[test]
    fn lines_without_ordinal_between_prefix_and_boundary_are_tolerated() {
        let (mut text, _) = source(3, "paginated");
        let blank_at = text.len() as u64;
        text.push('\n');
        let third = text.len() as u64;
        text.push_str(&line(3));
        text.push('\n');
        assert_eq!(run(&text, 3, third), None);
        assert_eq!(run(&text, 3, blank_at), None);
    }

    #[test]
    fn shape_problems() {
        let at = Pos { line: 1, offset: 0 };
        let base = |id: Option<&str>, end: Option<u64>, off: Option<u64>| HistoryBase {
            thread_id: id.map(str::to_string),
            end_ordinal_exclusive: end,
            end_byte_offset: off,
        };
        assert!(target(&base(None, Some(1), Some(1)), at).is_err());
        assert!(target(&base(Some("x"), Some(0), Some(1)), at).is_err());
        assert!(target(&base(Some("x"), Some(1), None), at).is_err());
        assert_eq!(
            target(&base(Some("x"), Some(2), Some(9)), at).unwrap(),
            BaseTarget {
                rollout_id: "x".into(),
                end_ordinal: 2,
                end_byte_offset: 9
            }
        );
    }
}
