//! Session identity and lineage: which session a file is, and which of its records are its
//! own.
//!
//! Every command runs this tracker beside its reducer. It takes the identity from the
//! *first* `session_meta` (Codex's rule: later ones are copies), and it marks records that
//! a fork or sub-agent copied from its parent as [`Provenance::Inherited`], so that nothing
//! downstream counts a parent's usage twice.
//!
//! How inherited records are recognised (real files decide: what Codex 0.36 to 0.171 wrote,
//! `testdata/real/`):
//! - A legacy copy-fork (0.171 `copy_fork`) repeats the parent's records verbatim after its
//!   own `session_meta`, starting with the parent's `session_meta`. A `session_meta` with
//!   another id opens an inherited region.
//! - A paginated sub-agent copies the parent's history below
//!   `subagent_history_start_ordinal`: records with a smaller ordinal are inherited.
//! - The region ends at the first record that names this session's own id (0.171 writes
//!   `thread_settings_applied {thread_id}` right after the copy), or, for writers that carry
//!   no ids, at the first turn start stamped later than both this session's `session_meta`
//!   and every inherited record so far (copies are written in one burst, or keep their
//!   original, earlier timestamps).
//! - A paginated fork (`history_base`) holds only its own suffix: nothing is inherited.

use serde::Serialize;

use crate::decode::{Kind, Record};
use crate::model::{HistoryBase, SessionMeta};
use crate::time;

/// Whether a record belongs to this session or was copied from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provenance {
    Own,
    Inherited,
}

/// What the file says about its session. Filled from the first `session_meta`.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct SessionInfo {
    pub session_id: Option<String>,
    pub thread_id: Option<String>,
    pub history_mode: Option<String>,
    /// `history_mode` is `paginated` (read once, for the checks each record asks).
    #[serde(skip)]
    pub paginated: bool,
    pub cli_version: Option<String>,
    pub originator: Option<String>,
    pub cwd: Option<String>,
    /// Session start: `session_meta.timestamp`, else the first record's timestamp.
    pub started_at: Option<String>,
    #[serde(skip)]
    pub started_ms: Option<i64>,
    #[serde(skip)]
    pub history_base: Option<HistoryBase>,
    #[serde(skip)]
    pub forked_from_id: Option<String>,
    #[serde(skip)]
    pub subagent_history_start_ordinal: Option<u64>,
    /// Line of the first `session_meta`, if any.
    #[serde(skip)]
    pub meta_line: Option<u64>,
    /// Number of `session_meta` records (more than one in copy-forks).
    #[serde(skip)]
    pub session_metas: u64,
    /// Records marked inherited.
    #[serde(skip)]
    pub inherited_records: u64,
}

impl SessionInfo {
    /// The thread's short name for people: the last 8 characters of its id. A UUIDv7
    /// begins with its time, the same for sessions started close together; its end is
    /// random, and tells them apart.
    pub fn short_id(&self) -> Option<&str> {
        let id = self.thread_id.as_deref()?;
        let start = id.char_indices().rev().nth(7).map_or(0, |(i, _)| i);
        id.get(start..)
    }

    /// The history mode as Codex reads it: absent means legacy.
    pub fn mode(&self) -> &str {
        self.history_mode.as_deref().unwrap_or("legacy")
    }
}

/// Tracks identity and provenance while a file streams by.
#[derive(Debug, Default)]
pub struct SessionTracker {
    info: SessionInfo,
    own_id_quoted: Option<String>,
    own_meta_ms: Option<i64>,
    in_region: bool,
    region_max_ms: Option<i64>,
    current: Option<Provenance>,
}

impl SessionTracker {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn info(&self) -> &SessionInfo {
        &self.info
    }

    pub fn into_info(self) -> SessionInfo {
        self.info
    }

    /// The provenance of the record last observed.
    pub fn provenance(&self) -> Provenance {
        self.current.unwrap_or(Provenance::Own)
    }

    pub fn is_inherited(&self) -> bool {
        self.provenance() == Provenance::Inherited
    }

    /// This session's own thread id, once known.
    pub fn own_id(&self) -> Option<&str> {
        self.info.thread_id.as_deref()
    }

    /// Observe one record (call before handing it to a reducer).
    pub fn observe(&mut self, rec: &Record<'_>) -> Provenance {
        let p = self.classify(rec);
        if p == Provenance::Inherited {
            self.info.inherited_records += 1;
        }
        self.current = Some(p);
        p
    }

    fn classify(&mut self, rec: &Record<'_>) -> Provenance {
        // Only the branches that need the time parse it (most records need none).
        let ts = || time::parse_ms(&rec.timestamp);
        if self.info.started_at.is_none() && self.info.meta_line.is_none() {
            // Until a session_meta says otherwise, the first record dates the session.
            self.info.started_at = Some(rec.timestamp.to_string());
            self.info.started_ms = ts();
        }
        if rec.kind == Kind::SessionMeta {
            let ts_ms = ts();
            self.info.session_metas += 1;
            let meta: SessionMeta<'_> = rec.parse_payload().unwrap_or_default();
            if self.info.meta_line.is_none() {
                self.adopt(rec, meta, ts_ms);
                return Provenance::Own;
            }
            let same = meta.id.as_deref().is_some() && meta.id.as_deref() == self.own_id();
            if same {
                return Provenance::Own;
            }
            self.in_region = true;
            self.region_max_ms = ts_ms;
            return Provenance::Inherited;
        }
        if let (Some(start), Some(o)) = (self.info.subagent_history_start_ordinal, rec.ordinal) {
            return if o < start {
                Provenance::Inherited
            } else {
                self.in_region = false;
                Provenance::Own
            };
        }
        if !self.in_region {
            return Provenance::Own;
        }
        let ts_ms = ts();
        if self.names_own_id(rec) || self.starts_later_turn(rec, ts_ms) {
            self.in_region = false;
            return Provenance::Own;
        }
        if let Some(ms) = ts_ms {
            self.region_max_ms = Some(self.region_max_ms.map_or(ms, |m| m.max(ms)));
        }
        Provenance::Inherited
    }

    fn adopt(&mut self, rec: &Record<'_>, meta: SessionMeta<'_>, ts_ms: Option<i64>) {
        let i = &mut self.info;
        i.meta_line = Some(rec.pos.line);
        i.thread_id = meta.id.as_deref().map(str::to_string);
        i.session_id = meta
            .session_id
            .as_deref()
            .or(meta.id.as_deref())
            .map(str::to_string);
        i.history_mode = meta.history_mode.as_deref().map(str::to_string);
        i.paginated = i.mode() == "paginated";
        i.cli_version = meta.cli_version.as_deref().map(str::to_string);
        i.originator = meta.originator.as_deref().map(str::to_string);
        i.cwd = meta.cwd.as_deref().map(str::to_string);
        i.history_base = meta.history_base;
        i.forked_from_id = meta.forked_from_id.as_deref().map(str::to_string);
        i.subagent_history_start_ordinal = meta.subagent_history_start_ordinal;
        let started = meta.timestamp.as_deref().map(str::to_string);
        let started_ms = started.as_deref().and_then(time::parse_ms);
        if started_ms.is_some() {
            i.started_at = started;
            i.started_ms = started_ms;
        } else {
            i.started_at = Some(rec.timestamp.to_string());
            i.started_ms = ts_ms;
        }
        self.own_meta_ms = ts_ms;
        self.own_id_quoted = i.thread_id.as_ref().map(|id| format!("\"{id}\""));
    }

    fn names_own_id(&self, rec: &Record<'_>) -> bool {
        match &self.own_id_quoted {
            Some(q) => memchr::memmem::find(rec.raw.as_bytes(), q.as_bytes()).is_some(),
            None => false,
        }
    }

    fn starts_later_turn(&self, rec: &Record<'_>, ts_ms: Option<i64>) -> bool {
        let is_turn_start = match rec.kind {
            Kind::EventMsg => matches!(rec.payload_type(), Some("task_started" | "user_message")),
            Kind::TurnContext => true,
            _ => false,
        };
        if !is_turn_start {
            return false;
        }
        let Some(ms) = ts_ms else { return false };
        let after_meta = self.own_meta_ms.is_none_or(|m| ms > m);
        let after_region = self.region_max_ms.is_none_or(|m| ms > m);
        after_meta && after_region
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_id_is_the_end_of_the_thread_id() {
        let s = |id: Option<&str>| SessionInfo {
            thread_id: id.map(str::to_string),
            ..SessionInfo::default()
        };
        let uuid = s(Some("01a22763-5672-7d22-8700-fe355115a9f3"));
        assert_eq!(uuid.short_id(), Some("5115a9f3"));
        assert_eq!(s(Some("T1")).short_id(), Some("T1"));
        assert_eq!(s(Some("ééééééééé")).short_id(), Some("éééééééé"));
        assert_eq!(s(None).short_id(), None);
    }
    use crate::analysis::Fold;
    use crate::testkit::{self, Line};
    use serde_json::json;

    /// The provenance the tracker gave each record.
    #[derive(Default)]
    struct Provenances(Vec<Provenance>);

    impl Fold for Provenances {
        fn record(&mut self, _rec: &Record<'_>, session: &SessionTracker) {
            self.0.push(session.provenance());
        }
    }

    fn run(lines: &[Line]) -> (Vec<Provenance>, SessionInfo) {
        let mut p = Provenances::default();
        let (session, _) = testkit::feed(&mut p, &testkit::jsonl(lines));
        (p.0, session.into_info())
    }

    /// A fork's own `session_meta`, a second in.
    fn child_meta() -> Line {
        let t = "2026-01-01T00:00:01.000Z";
        testkit::meta(json!({"id": "child", "timestamp": t, "forked_from_id": "parent"})).stamped(t)
    }

    /// The parent's `session_meta`, copied into the fork and stamped `t`.
    fn parent_meta(t: &str) -> Line {
        testkit::meta(json!({"id": "parent"})).stamped(t)
    }

    /// An event of this type (and nothing else), stamped `t`.
    fn event(t: &str, type_: &str) -> Line {
        testkit::event(json!({ "type": type_ })).stamped(t)
    }

    /// The stamp of the copy the fork made of its parent: a millisecond after its own meta.
    const COPY: &str = "2026-01-01T00:00:01.001Z";

    #[test]
    fn copied_parent_records_are_inherited_until_own_id_appears() {
        let settings = json!({"type": "thread_settings_applied", "thread_id": "child"});
        let (p, info) = run(&[
            child_meta(),
            parent_meta(COPY),
            event(COPY, "task_started"),
            event(COPY, "token_count"),
            testkit::event(settings).stamped(COPY),
            event("2026-01-01T00:00:02.000Z", "token_count"),
        ]);
        use Provenance::*;
        assert_eq!(p, [Own, Inherited, Inherited, Inherited, Own, Own]);
        assert_eq!(info.thread_id.as_deref(), Some("child"));
        assert_eq!(info.session_metas, 2);
    }

    #[test]
    fn without_ids_the_copy_ends_at_a_later_turn_start() {
        // The fork's meta, the copy's records, then a turn start after them.
        let files = [
            // Stamped as the fork copied them.
            [
                child_meta(),
                parent_meta(COPY),
                event(COPY, "token_count"),
                event("2026-01-01T00:00:03.000Z", "user_message"),
            ],
            // With their original, earlier stamps: a turn start among them is no later one.
            [
                child_meta(),
                parent_meta("2025-12-31T00:00:00.000Z"),
                event("2025-12-31T00:00:05.000Z", "task_started"),
                event("2026-01-01T00:00:09.000Z", "task_started"),
            ],
        ];
        for file in files {
            let (p, _) = run(&file);
            use Provenance::*;
            assert_eq!(p, [Own, Inherited, Inherited, Own], "{file:?}");
        }
    }

    #[test]
    fn subagent_records_below_start_ordinal_are_inherited() {
        let kid = json!({"id": "kid", "subagent_history_start_ordinal": 2});
        let (p, _) = run(&[
            testkit::meta(kid).stamped("t").ordinal(0),
            event("t", "token_count").ordinal(1),
            event("t", "token_count").ordinal(2),
        ]);
        use Provenance::*;
        assert_eq!(p, [Own, Inherited, Own]);
    }

    #[test]
    fn session_id_falls_back_to_id_and_start_to_meta_timestamp() {
        let (_, info) = run(&[child_meta()]);
        assert_eq!(info.session_id.as_deref(), Some("child"));
        assert_eq!(info.started_at.as_deref(), Some("2026-01-01T00:00:01.000Z"));
        assert_eq!(info.mode(), "legacy");
    }
}
