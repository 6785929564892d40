//! Does a paginated file's `history_base` point at a real boundary of its source rollout?
//!
//! - `end_ordinal_exclusive` must be > 0 (the cutoff cannot include the source's
//!   `session_meta`), and the source must hold ordinal `end_ordinal_exclusive - 1`.
//! - The source must be paginated.
//! - `end_byte_offset` must lie within the source, just after a newline, and equal the byte
//!   offset of the source's first record with `ordinal >= end_ordinal_exclusive` (the end of
//!   the file when there is none, as in the real fork, whose base is its parent's whole
//!   file). Upstream tolerates one exception, kept here: an offset that only differs by lines
//!   without ordinal between the last prefix record and that record.
//! - Upstream's fork code skips the byte check for `.zst` sources; `check-ordinal` asks for it
//!   on decoded bytes, which is what the reader's offsets are.
//!
//! The source is read, and probed for the cutoff ([`crate::analysis::boundary`]), by the
//! lineage reader ([`super::follow`]); this module judges what the probe saw.

use std::path::{Path, PathBuf};

use crate::analysis::boundary::{Cutoff, Probe};
use crate::decode::{Line, Pos};
use crate::lineage::resolve::Place;
use crate::model::HistoryBase;

/// Where the ordinal boundary of a `history_base` cutoff lies in its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Boundary {
    /// `history_base.end_ordinal_exclusive`.
    pub end_ordinal: u64,
    /// The line of the source's first record with `ordinal >= end_ordinal`; `None` when
    /// there is none (the boundary is then the end of the source).
    pub first_at_end: Option<u64>,
}

/// What is wrong with a file's lineage (`session_meta.history_base`), or why it could not
/// be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// `history_base` has no `thread_id`.
    NoThreadId,
    /// `history_base.end_ordinal_exclusive` is 0.
    ZeroEnd,
    /// `history_base` has no `end_ordinal_exclusive`.
    NoEnd,
    /// `history_base` has no `end_byte_offset`.
    NoOffset,
    /// The source rollout is not paginated.
    SourceNotPaginated { source: String, mode: String },
    /// The source holds no ordinal `end - 1` (`highest` is its highest).
    OutsideSource {
        source: String,
        end: u64,
        highest: Option<u64>,
    },
    /// `end_byte_offset` is past the end of the source (`bytes` long).
    OffsetPastEnd {
        source: String,
        bytes: u64,
        boundary: Boundary,
    },
    /// `end_byte_offset` is not just after a newline of the source.
    OffsetNotAtLineStart { source: String, boundary: Boundary },
    /// `end_byte_offset` is not the source's ordinal boundary.
    OffsetMismatch { source: String, boundary: Boundary },
    /// No file declares the source's rollout id in any place searched. `refused`: the
    /// reader judged that Codex refuses the resume (a Codex home was searched), rather than
    /// that the lineage could not be checked.
    SourceNotFound {
        rollout_id: String,
        searched: Vec<Place>,
        refused: bool,
    },
    /// The source was found but could not be read (`refused` as above).
    SourceUnreadable {
        source: String,
        rollout_id: String,
        cause: String,
        refused: bool,
    },
    /// The lineage leads back to a file already read: a cycle.
    Cycle { source: String },
    /// The lineage holds more sources than Codex can list the history of
    /// ([`super::CODEX_MAX_SOURCES`]): `sources` rollouts before the file.
    TooManySources { sources: usize },
}

/// A lineage fault and where it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The child's `session_meta`; `None` for a fault of a source's own lineage.
    pub at: Option<Line>,
    pub fault: Fault,
    /// The ordinal or byte offset that should be there, and the one that is.
    pub expected: Option<u64>,
    pub found: Option<u64>,
    /// The source rollout the fault is about, once one was found.
    pub source: Option<SourceAt>,
}

/// A source rollout, and the place in it a fault concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceAt {
    pub path: PathBuf,
    /// The line at the cutoff (the source's first record at or past it), for a fault of the
    /// byte offset that names one; `None` for the file as a whole.
    pub at: Option<Pos>,
}

impl Problem {
    pub fn new(at: Option<Line>, fault: Fault) -> Problem {
        Problem {
            at,
            fault,
            expected: None,
            found: None,
            source: None,
        }
    }

    /// The same problem, about the source rollout at `path` as a whole.
    pub fn in_source(mut self, path: &Path) -> Problem {
        self.source = Some(SourceAt {
            path: path.to_path_buf(),
            at: None,
        });
        self
    }
}

/// The parts of a `history_base` that must hold before any source is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseTarget {
    pub rollout_id: String,
    pub cutoff: Cutoff,
}

/// Check the shape of a `history_base`; a problem when it cannot even be looked up. `at` is
/// the `session_meta` holding it.
pub fn target(base: &HistoryBase, at: Option<Line>) -> Result<BaseTarget, Box<Problem>> {
    let fail = |fault| Box::new(Problem::new(at, fault));
    let rollout_id = match base.thread_id.as_deref().map(str::trim) {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => return Err(fail(Fault::NoThreadId)),
    };
    let end_ordinal = match base.end_ordinal_exclusive {
        Some(0) => {
            let mut p = Problem::new(at, Fault::ZeroEnd);
            p.found = Some(0);
            return Err(Box::new(p));
        }
        Some(n) => n,
        None => return Err(fail(Fault::NoEnd)),
    };
    let Some(end_byte_offset) = base.end_byte_offset else {
        return Err(fail(Fault::NoOffset));
    };
    Ok(BaseTarget {
        rollout_id,
        cutoff: Cutoff {
            end_ordinal,
            end_byte_offset,
        },
    })
}

/// Judge a cutoff against what its source, at `path`, says; `at` is the child's
/// `session_meta`.
pub fn judge(t: &BaseTarget, path: &Path, probe: &Probe, at: Option<Line>) -> Option<Problem> {
    let end = t.cutoff.end_ordinal;
    let problem = |fault: Fault, expected: Option<u64>, found: Option<u64>| {
        // An offset fault is about the line at the cutoff; the others, about the file.
        let line = match &fault {
            Fault::OffsetPastEnd { .. }
            | Fault::OffsetNotAtLineStart { .. }
            | Fault::OffsetMismatch { .. } => probe.first_at_end,
            _ => None,
        };
        Some(Problem {
            at,
            fault,
            expected,
            found,
            source: Some(SourceAt {
                path: path.to_path_buf(),
                at: line,
            }),
        })
    };
    let source = crate::input::shown(path);
    if probe.history_mode != "paginated" {
        let mode = probe.history_mode.clone();
        return problem(Fault::SourceNotPaginated { source, mode }, None, None);
    }
    if !probe.holds_last_prefix {
        let highest = probe.max_ordinal;
        let fault = Fault::OutsideSource {
            source,
            end,
            highest,
        };
        return problem(fault, Some(end - 1), highest);
    }
    let expected = probe.first_at_end.map_or(probe.bytes, |p| p.offset);
    let boundary = Boundary {
        end_ordinal: end,
        first_at_end: probe.first_at_end.map(|p| p.line),
    };
    let found = t.cutoff.end_byte_offset;
    if found > probe.bytes {
        let bytes = probe.bytes;
        let fault = Fault::OffsetPastEnd {
            source,
            bytes,
            boundary,
        };
        return problem(fault, Some(expected), Some(found));
    }
    if !probe.target_at_line_start {
        let fault = Fault::OffsetNotAtLineStart { source, boundary };
        return problem(fault, Some(expected), Some(found));
    }
    let lo = probe.prefix_end.unwrap_or(expected);
    if found != expected && !(lo <= found && found <= expected) {
        let fault = Fault::OffsetMismatch { source, boundary };
        return problem(fault, Some(expected), Some(found));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Needs;
    use crate::testkit;

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

    fn probe(text: &str, cutoff: Cutoff) -> Probe {
        testkit::facts(text, Needs::default().boundary(cutoff))
            .boundary
            .unwrap()
    }

    fn run(text: &str, end: u64, off: u64) -> Option<Problem> {
        let cutoff = Cutoff {
            end_ordinal: end,
            end_byte_offset: off,
        };
        let t = BaseTarget {
            rollout_id: "s".into(),
            cutoff,
        };
        judge(&t, Path::new("src"), &probe(text, cutoff), None)
    }

    #[test]
    fn exact_boundary_passes_and_off_by_one_fails() {
        let (text, offs) = source(5, "paginated");
        assert_eq!(run(&text, 3, offs[3]), None);
        let p = run(&text, 3, offs[3] + 1).unwrap();
        assert_eq!((p.expected, p.found), (Some(offs[3]), Some(offs[3] + 1)));
        assert!(
            matches!(p.fault, Fault::OffsetNotAtLineStart { .. }),
            "{p:?}"
        );
        let p = run(&text, 3, offs[2]).unwrap();
        assert!(matches!(p.fault, Fault::OffsetMismatch { .. }), "{p:?}");
        // The place in the source: its line at the cutoff (ordinal 3, the fourth line).
        let at = p.source.and_then(|s| s.at).unwrap();
        assert_eq!((at.line, at.offset), (4, offs[3]));
    }

    #[test]
    fn whole_file_base_points_at_the_end() {
        let (text, _) = source(5, "paginated");
        let len = text.len() as u64;
        assert_eq!(run(&text, 5, len), None);
        let p = run(&text, 5, len + 1).unwrap();
        assert!(
            matches!(p.fault, Fault::OffsetPastEnd { bytes, .. } if bytes == len),
            "{p:?}"
        );
    }

    #[test]
    fn cutoff_outside_source_and_legacy_source_fail() {
        let (text, _) = source(5, "paginated");
        let p = run(&text, 9, text.len() as u64).unwrap();
        assert_eq!((p.expected, p.found), (Some(8), Some(4)));
        let (legacy, offs) = source(5, "legacy");
        let p = run(&legacy, 3, offs[3]).unwrap();
        assert!(matches!(&p.fault, Fault::SourceNotPaginated { mode, .. } if mode == "legacy"));
        // About the source as a whole.
        let s = p.source.unwrap();
        assert_eq!((s.path.as_path(), s.at), (Path::new("src"), None));
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
        let at = None;
        let base = |id: Option<&str>, end: Option<u64>, off: Option<u64>| HistoryBase {
            thread_id: id.map(str::to_string),
            end_ordinal_exclusive: end,
            end_byte_offset: off,
        };
        let fault = |b: HistoryBase| target(&b, at).unwrap_err().fault;
        assert_eq!(fault(base(None, Some(1), Some(1))), Fault::NoThreadId);
        assert_eq!(fault(base(Some("x"), Some(0), Some(1))), Fault::ZeroEnd);
        assert_eq!(fault(base(Some("x"), None, Some(1))), Fault::NoEnd);
        assert_eq!(fault(base(Some("x"), Some(1), None)), Fault::NoOffset);
        assert_eq!(
            target(&base(Some("x"), Some(2), Some(9)), at).unwrap(),
            BaseTarget {
                rollout_id: "x".into(),
                cutoff: Cutoff {
                    end_ordinal: 2,
                    end_byte_offset: 9
                }
            }
        );
    }
}
