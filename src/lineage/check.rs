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
//! The source is read through the ordinary pass ([`crate::analysis::boundary`]), once per
//! cutoff, however many children name it.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::analysis::boundary::{Cutoff, Probe};
use crate::analysis::{self, Needs, ReadOptions};
use crate::decode::Pos;
use crate::findings::{Boundary, Cause, Finding, Severity};
use crate::input::Source;
use crate::lineage::Resolver;
use crate::model::HistoryBase;

/// The parts of a `history_base` that must hold before any source is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseTarget {
    pub rollout_id: String,
    pub cutoff: Cutoff,
}

/// Check the shape of a `history_base`; a finding when it cannot even be looked up. `at` is
/// the `session_meta` holding it.
pub fn target(base: &HistoryBase, at: Pos) -> Result<BaseTarget, Box<Finding>> {
    let fail = |cause| Box::new(Finding::new(cause, Some(at)));
    let rollout_id = match base.thread_id.as_deref().map(str::trim) {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => return Err(fail(Cause::BaseNoThreadId)),
    };
    let end_ordinal = match base.end_ordinal_exclusive {
        Some(0) => {
            let f = Finding::new(Cause::BaseZeroEnd, Some(at)).comparing(None, Some(0));
            return Err(Box::new(f));
        }
        Some(n) => n,
        None => return Err(fail(Cause::BaseNoEnd)),
    };
    let Some(end_byte_offset) = base.end_byte_offset else {
        return Err(fail(Cause::BaseNoOffset));
    };
    Ok(BaseTarget {
        rollout_id,
        cutoff: Cutoff {
            end_ordinal,
            end_byte_offset,
        },
    })
}

/// Judge a cutoff against what its source says. `source` is the source's path as shown.
pub fn judge(t: &BaseTarget, source: &str, probe: &Probe, at: Pos) -> Option<Finding> {
    let end = t.cutoff.end_ordinal;
    let finding = |cause, expected: Option<u64>, found: Option<u64>| {
        Some(Finding::new(cause, Some(at)).comparing(expected, found))
    };
    let source = source.to_string();
    if probe.history_mode != "paginated" {
        let mode = probe.history_mode.clone();
        return finding(Cause::BaseSourceNotPaginated { source, mode }, None, None);
    }
    if !probe.holds_last_prefix {
        let highest = probe.max_ordinal;
        let cause = Cause::BaseOutsideSource {
            source,
            end,
            highest,
        };
        return finding(cause, Some(end - 1), highest);
    }
    let expected = probe.first_at_end.map_or(probe.bytes, |p| p.offset);
    let boundary = Boundary {
        end_ordinal: end,
        first_at_end: probe.first_at_end.map(|p| p.line),
    };
    let found = t.cutoff.end_byte_offset;
    if found > probe.bytes {
        let bytes = probe.bytes;
        let cause = Cause::BaseOffsetPastEnd {
            source,
            bytes,
            boundary,
        };
        return finding(cause, Some(expected), Some(found));
    }
    if !probe.target_at_line_start {
        let cause = Cause::BaseOffsetNotAtLineStart { source, boundary };
        return finding(cause, Some(expected), Some(found));
    }
    let lo = probe.prefix_end.unwrap_or(expected);
    if found != expected && !(lo <= found && found <= expected) {
        let cause = Cause::BaseOffsetMismatch { source, boundary };
        return finding(cause, Some(expected), Some(found));
    }
    None
}

/// What checking one file's lineage gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// What is wrong with the lineage, if anything (a warning when it could not be checked).
    pub finding: Option<Finding>,
    /// A source that was found but could not be read: its path and the cause (an I/O error
    /// of the run, beside the finding).
    pub unreadable: Option<(String, String)>,
}

/// Checks `history_base`s: finds each source with a [`Resolver`] and reads it once per cutoff.
#[derive(Debug)]
pub struct Lineage {
    resolver: Resolver,
    read: ReadOptions,
    probes: HashMap<(PathBuf, Cutoff), Result<Probe, String>>,
}

impl Lineage {
    pub fn new(resolver: Resolver, read: ReadOptions) -> Lineage {
        Lineage {
            resolver,
            read,
            probes: HashMap::new(),
        }
    }

    /// Check the `history_base` of `child`, held by its `session_meta` at `at`.
    pub fn check(&mut self, child: &Source, base: &HistoryBase, at: Pos) -> Checked {
        let t = match target(base, at) {
            Ok(t) => t,
            Err(f) => {
                return Checked {
                    finding: Some(*f),
                    unreadable: None,
                }
            }
        };
        let path = match self.resolver.find(child, &t.rollout_id) {
            Ok(p) => p,
            Err(searched) => {
                let cause = Cause::BaseSourceNotFound {
                    rollout_id: t.rollout_id.clone(),
                    searched,
                };
                return Checked {
                    finding: Some(could_not_check(cause, at)),
                    unreadable: None,
                };
            }
        };
        let shown = path.display().to_string();
        let read = &self.read;
        let probe = self
            .probes
            .entry((path.clone(), t.cutoff))
            .or_insert_with(|| {
                let facts = analysis::read(
                    &Source::File(path),
                    read,
                    &Needs::default().boundary(t.cutoff),
                );
                match (facts.io_error, facts.boundary) {
                    (None, Some(p)) => Ok(p),
                    (Some(cause), _) => Err(cause),
                    (None, None) => Err("could not be read".to_string()),
                }
            });
        match probe {
            Ok(p) => Checked {
                finding: judge(&t, &shown, p, at),
                unreadable: None,
            },
            Err(cause) => {
                let why = Cause::BaseSourceUnreadable {
                    source: shown.clone(),
                    rollout_id: t.rollout_id.clone(),
                    cause: cause.clone(),
                };
                Checked {
                    finding: Some(could_not_check(why, at)),
                    unreadable: Some((shown, cause.clone())),
                }
            }
        }
    }
}

/// A lineage that could not be checked: a warning, never a pass.
fn could_not_check(cause: Cause, at: Pos) -> Finding {
    Finding::new(cause, Some(at)).with_severity(Severity::Warning)
}

#[cfg(test)]
mod tests {
    use super::*;
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

    fn run(text: &str, end: u64, off: u64) -> Option<Finding> {
        let cutoff = Cutoff {
            end_ordinal: end,
            end_byte_offset: off,
        };
        let t = BaseTarget {
            rollout_id: "s".into(),
            cutoff,
        };
        judge(&t, "src", &probe(text, cutoff), Pos { line: 1, offset: 0 })
    }

    #[test]
    fn exact_boundary_passes_and_off_by_one_fails() {
        let (text, offs) = source(5, "paginated");
        assert_eq!(run(&text, 3, offs[3]), None);
        let p = run(&text, 3, offs[3] + 1).unwrap();
        assert_eq!((p.expected, p.found), (Some(offs[3]), Some(offs[3] + 1)));
        assert!(
            matches!(p.cause, Cause::BaseOffsetNotAtLineStart { .. }),
            "{p:?}"
        );
        let p = run(&text, 3, offs[2]).unwrap();
        assert!(matches!(p.cause, Cause::BaseOffsetMismatch { .. }), "{p:?}");
        assert_eq!(p.rule, crate::findings::Rule::HistoryBaseByteOffset);
    }

    #[test]
    fn whole_file_base_points_at_the_end() {
        let (text, _) = source(5, "paginated");
        let len = text.len() as u64;
        assert_eq!(run(&text, 5, len), None);
        let p = run(&text, 5, len + 1).unwrap();
        assert!(
            matches!(p.cause, Cause::BaseOffsetPastEnd { bytes, .. } if bytes == len),
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
        assert!(matches!(&p.cause, Cause::BaseSourceNotPaginated { mode, .. } if mode == "legacy"));
        assert_eq!(p.rule, crate::findings::Rule::HistoryBaseResolve);
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
        let cause = |b: HistoryBase| target(&b, at).unwrap_err().cause;
        assert_eq!(cause(base(None, Some(1), Some(1))), Cause::BaseNoThreadId);
        assert_eq!(cause(base(Some("x"), Some(0), Some(1))), Cause::BaseZeroEnd);
        assert_eq!(cause(base(Some("x"), None, Some(1))), Cause::BaseNoEnd);
        assert_eq!(cause(base(Some("x"), Some(1), None)), Cause::BaseNoOffset);
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
