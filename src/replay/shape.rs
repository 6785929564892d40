//! What the records of one file say about its shape, beside the history: timestamps that
//! are not RFC 3339 UTC, record types Codex does not know, a `session_meta` after the first
//! or one whose id is not the file name's, a fork point that disagrees with the history
//! base, records too large for Codex, and whether Codex's listing finds a preview.

use crate::analysis::ordinal::CODEX_RECORD_TYPES;
use crate::analysis::session::SessionInfo;
use crate::decode::{select, Kind, Record};
use crate::findings::{Cause, Finding, Severity};

/// Codex's compression validation refuses a record over this (`inspect_rollout`).
pub const RECORD_WARN: u64 = 16 << 20;
/// `codex migrate-rollouts` refuses a record over this (`MAX_ROLLOUT_LINE_BYTES`).
pub const RECORD_ERROR: u64 = 24 << 20;
/// A record worth knowing about (`size.large`).
const RECORD_LARGE: u64 = 2 * 1000 * 1000;
/// A file worth knowing about (`size.large`).
const FILE_LARGE: u64 = 100 * 1000 * 1000;
/// The records Codex's listing reads for a preview: `HEAD_RECORD_LIMIT` (10), then up to
/// `USER_EVENT_SCAN_LIMIT` (200) more (`rollout/src/list.rs`).
const PREVIEW_SCAN: u64 = 10 + 200;

/// The severity of a record of `bytes` bytes for `line.oversized`, if it is one.
pub fn oversized(bytes: u64) -> Option<Severity> {
    if bytes > RECORD_ERROR {
        Some(Severity::Error)
    } else if bytes > RECORD_WARN {
        Some(Severity::Warning)
    } else {
        None
    }
}

/// The shape findings of one file, gathered as its records stream by.
#[derive(Debug, Default)]
pub struct Shape {
    findings: Vec<Finding>,
    /// The thread id the file name declares (lowercase).
    file_id: Option<String>,
    records: u64,
    preview: bool,
}

impl Shape {
    pub fn new(file_id: Option<String>) -> Shape {
        Shape {
            file_id,
            ..Shape::default()
        }
    }

    /// Judge one record of a file whose session so far is `info`.
    pub fn observe(&mut self, rec: &Record<'_>, info: &SessionInfo) {
        let out = &mut self.findings;
        let at = Some(rec.pos);
        self.records += 1;
        if !self.preview && self.records <= PREVIEW_SCAN {
            self.preview = is_preview(rec, info.mode() == "paginated");
        }
        let bytes = rec.raw.len() as u64;
        if let Some(sev) = oversized(bytes) {
            out.push(Finding::new(Cause::RecordOversized { bytes }, at).with_severity(sev));
        } else if bytes > RECORD_LARGE {
            out.push(Finding::new(Cause::RecordLarge { bytes }, at));
        }
        let ts = rec.timestamp.as_ref();
        if !ts.ends_with('Z') || crate::time::parse_ms(ts).is_none() {
            let cause = Cause::TimestampFormat {
                timestamp: ts.to_string(),
            };
            out.push(Finding::new(cause, at));
        }
        match rec.kind {
            Kind::Other if !CODEX_RECORD_TYPES.contains(&rec.type_name.as_ref()) => {
                let cause = Cause::UnknownType {
                    type_name: rec.type_name.to_string(),
                };
                out.push(Finding::new(cause, at));
            }
            Kind::SessionMeta if info.meta_line != Some(rec.pos.line) => {
                let paginated = info.mode() == "paginated";
                // A fork's or sub-agent's copy of its parent's history starts with the
                // parent's session_meta: the real 0.171 sub-agent child writes it as line 2
                // of a paginated file. A fact, as in a legacy copy-fork.
                let meta_id = rec.payload_field("id").and_then(select::str_value);
                let parents = matches!(
                    (meta_id.as_deref(), info.forked_from_id.as_deref()),
                    (Some(id), Some(parent)) if id.eq_ignore_ascii_case(parent)
                );
                let copied = !paginated || parents;
                let cause = Cause::MetaMultiple {
                    first_line: info.meta_line.unwrap_or(0),
                    copied,
                };
                let f = Finding::new(cause, at);
                out.push(if copied {
                    f.with_severity(Severity::Info)
                } else {
                    f
                });
            }
            Kind::SessionMeta => {
                let meta_id = rec.payload_field("id").and_then(select::str_value);
                if let (Some(id), Some(file_id)) = (meta_id, self.file_id.as_deref()) {
                    if !id.eq_ignore_ascii_case(file_id) {
                        let cause = Cause::MetaIdVsFileName {
                            meta_id: id.into_owned(),
                            file_id: file_id.to_string(),
                        };
                        out.push(Finding::new(cause, at));
                    }
                }
                if let Some(cause) = fork_boundary(rec, info) {
                    out.push(Finding::new(cause, at));
                }
            }
            _ => {}
        }
        super::policy::check(rec, info.mode(), out);
    }

    /// Add the findings about the whole file (`bytes` long, its session `info`) and hand
    /// them all over.
    pub fn finish(mut self, bytes: u64, info: &SessionInfo) -> Vec<Finding> {
        if bytes > FILE_LARGE {
            self.findings
                .push(Finding::new(Cause::FileLarge { bytes }, None));
        }
        // Only a file Codex can list at all lacks a preview: without a session_meta, or of
        // a mode Codex refuses, it is hidden anyway (and `meta.*` says why).
        let listable = info.meta_line.is_some() && matches!(info.mode(), "legacy" | "paginated");
        if listable && self.records > 0 && !self.preview {
            let scanned = self.records.min(PREVIEW_SCAN);
            self.findings
                .push(Finding::new(Cause::NoPreview { scanned }, None));
        }
        self.findings
    }
}

/// A record Codex's listing takes its preview from: a `user_message` event, a
/// `thread_goal_updated`, or in a paginated file (which persists no `user_message`, so
/// this is inferred) an `item_completed` `UserMessage`.
fn is_preview(rec: &Record<'_>, paginated: bool) -> bool {
    if rec.kind != Kind::EventMsg {
        return false;
    }
    match rec.payload_type() {
        Some("user_message" | "thread_goal_updated") => true,
        Some("item_completed") if paginated => {
            crate::model::completed_item_type(rec).is_some_and(|t| t == "UserMessage")
        }
        _ => false,
    }
}

/// The fork point of the file's first `session_meta` against its history base: only a fork
/// by reference (a `history_base`) is judged; `forked_from_ordinal_exclusive` without
/// `forked_from_id` is wrong anywhere. A legacy copy-fork (the real 0.171 writes
/// `forked_from_id` alone there) and a sub-agent (no `history_base`) are not.
fn fork_boundary(rec: &Record<'_>, info: &SessionInfo) -> Option<Cause> {
    let [id, forked] = rec.payload_fields(["forked_from_id", "forked_from_ordinal_exclusive"]);
    let has_id = id.is_some_and(|v| v != "null");
    let forked_raw = forked.filter(|v| *v != "null");
    let forked = forked_raw.and_then(|v| v.parse::<u64>().ok());
    let base_end = info
        .history_base
        .as_ref()
        .and_then(|b| b.end_ordinal_exclusive);
    let wrong = if !has_id {
        forked_raw.is_some()
    } else if info.history_base.is_some() {
        forked.is_none() || forked != base_end
    } else {
        false
    };
    wrong.then_some(Cause::ForkBoundary {
        has_id,
        forked,
        base_end,
    })
}

/// The `session_meta` fields every Codex version writes and requires as strings (the
/// oldest files hold exactly these, `research/upstream.md` §1): one absent or mistyped makes
/// Codex refuse the file ("failed to read session metadata", verified with 0.171 on a
/// `cli_version` written as a number).
pub fn meta_fields(rec: &Record<'_>) -> Option<Cause> {
    const REQUIRED: [&str; 5] = ["id", "timestamp", "cwd", "originator", "cli_version"];
    let values = rec.payload_fields(REQUIRED);
    REQUIRED.iter().zip(values).find_map(|(&field, v)| {
        let found = match v.and_then(|v| v.as_bytes().first().copied()) {
            Some(b'"') => return None,
            None => None,
            Some(b'{') => Some("an object"),
            Some(b'[') => Some("an array"),
            Some(b'n') => Some("null"),
            Some(b't' | b'f') => Some("a boolean"),
            Some(_) => Some("a number"),
        };
        Some(Cause::MetaUndecodable { field, found })
    })
}
