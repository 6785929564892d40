//! The turn segmentation every command shares: the turn lifecycle of one file.
//!
//! [`TurnLog`] (`log.rs`) watches a file stream by and remembers, compactly, what can begin,
//! settle or drop a turn. At the end (`segment.rs`) it decides how this writer marks turns and
//! cuts the file into [`Turn`]s; rollback markers are applied by [`rollback`]. `stats` counts
//! turns with the same log and `calls` places each call in a turn with it, so the three
//! commands always agree.
//!
//! **Where a turn begins** (decided per file, at the end):
//! - at each `event_msg/task_started` (alias `turn_started`), when the file has any;
//! - otherwise (writers before about 0.128: see the 0.36 and 0.80 files in `testdata/real/`) at
//!   each real user message: each `event_msg/user_message`, or, in files with none, each
//!   `response_item` user message that is not contextual scaffolding. Real 0.36/0.80 files
//!   write the `response_item` user message *just before* its `user_message` event, so the
//!   turn starts at that response item when there is one (real files decide: the format's
//!   description does not order the pair).
//!
//! **Status** (what the file proves; `docs/turns.md`):
//! - `completed` / `failed`: a `task_complete` (alias `turn_complete`) without / with `error`.
//!   It wins over a `turn_aborted` of the same turn (same-process recover), in either order.
//! - `aborted`: a `turn_aborted` (its `reason` is kept). Codex 0.36, which writes no
//!   `task_*` event, does write one on SIGINT (it was thought to write nothing there): the
//!   real 0.36 file in `testdata/real/0.36.0/interrupt_sigint/` has it, and the file decides.
//! - `rolled_back`: dropped by a later `thread_rolled_back {num_turns}`. Each marker drops
//!   the last `num_turns` *user* turns still standing before it, and every turn after the cut
//!   (Codex's `drop_last_n_user_turns`), so consecutive markers add up. Only a `num_turns`
//!   Codex can decode (a `u32`) rolls back.
//! - `stale` / `open`: no terminal event in a file whose writer writes `task_started`: a
//!   later turn began (the writer died mid-turn), or it is the last turn.
//! - `unknown`: no terminal event in a file whose writer never wrote `task_started`: there
//!   the absence of a terminal event proves nothing.
//!
//! **Implicit first turn**: when a record proving activity (a real user message, a
//! `turn_context`, a tool call or output, an own usage increment) comes before the first
//! turn start (its line was lost), a turn begins there, so that every call and every own
//! usage increment belongs to a turn and `turns` always sums to `stats`.
//!
//! Terminal events and `turn_context`s go to the turn their `turn_id` names. An id that
//! names no turn goes to the turn the event falls in only when that turn has no id (old
//! writers); otherwise the event proves nothing about it and is ignored. Without an id, the
//! turn it falls in. Settings come from the turn's last `turn_context` (writers before
//! 0.128 wrote one per model request). Tokens are the session's own usage
//! ([`crate::analysis::tokens::UsageAccount`], the same rules as `stats`) keyed by line,
//! then summed per turn.

mod log;
pub mod rollback;
mod segment;

pub use log::{is_real_user_message, started_turn_id, TurnLog};

use serde::Serialize;

use crate::analysis::tokens::Tokens;

/// What the file proves about a turn's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnStatus {
    Completed,
    Failed,
    Aborted,
    RolledBack,
    Stale,
    Open,
    Unknown,
}

impl TurnStatus {
    /// Every status, in the order `turns --status` lists them.
    pub const ALL: [TurnStatus; 7] = [
        TurnStatus::Completed,
        TurnStatus::Failed,
        TurnStatus::Aborted,
        TurnStatus::RolledBack,
        TurnStatus::Stale,
        TurnStatus::Open,
        TurnStatus::Unknown,
    ];

    /// The status named `name` by [`TurnStatus::as_str`].
    pub fn from_name(name: &str) -> Option<TurnStatus> {
        TurnStatus::ALL.into_iter().find(|s| s.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TurnStatus::Completed => "completed",
            TurnStatus::Failed => "failed",
            TurnStatus::Aborted => "aborted",
            TurnStatus::RolledBack => "rolled_back",
            TurnStatus::Stale => "stale",
            TurnStatus::Open => "open",
            TurnStatus::Unknown => "unknown",
        }
    }
}

/// How the file's writer marks where turns begin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnSource {
    /// `event_msg/task_started` (Codex 0.128+).
    TaskStarted,
    /// `event_msg/user_message` (older writers).
    UserMessageEvent,
    /// Real user `response_item` messages (files with neither).
    UserResponseMessage,
}

/// One turn (NDJSON schema: `docs/turns.md`; the command adds path and session ids).
#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    /// 1-based, in file order.
    pub index: u64,
    pub turn_id: Option<String>,
    pub status: TurnStatus,
    pub reason: Option<String>,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub duration_ms: Option<u64>,
    pub model: Option<String>,
    pub effort: Option<String>,
    pub cwd: Option<String>,
    pub approval_policy: Option<String>,
    pub sandbox: Option<String>,
    pub line_start: u64,
    /// Where `line_start` starts in the decoded stream (for findings; not a row field).
    #[serde(skip)]
    pub offset_start: u64,
    pub line_end: u64,
    pub ordinal_start: Option<u64>,
    pub ordinal_end: Option<u64>,
    pub user_message: Option<String>,
    pub last_agent_message: Option<String>,
    pub tool_calls: u64,
    pub tokens: Tokens,
    /// The turn was copied from a parent session (fork, sub-agent); it has no own tokens.
    pub inherited: bool,
}

/// How much of the segmentation a command needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    /// Turn starts only: enough to count turns (`stats`).
    Count,
    /// Turn bounds and ids, no texts, settings or outcomes: enough to place a line in its
    /// turn (`calls`). [`TurnLog::finish`] gives the same turns and ids as with `Full`.
    Place,
    /// Bounds, ids and statuses (rollbacks, failures, the open turn), no texts, settings or
    /// tokens (`replay`). The same turns, ids and statuses as with `Full`.
    Status,
    /// Everything a [`Turn`] row holds.
    Full,
}

/// What `stats` needs from the segmentation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnCounts {
    /// Turns: the rows of `turns`.
    pub turns: u64,
    /// Call rows of `calls` that are not orphans.
    pub tool_calls: u64,
}

/// The turns of one file, and where each begins.
#[derive(Debug, Clone, Default)]
pub struct Turns {
    pub turns: Vec<Turn>,
    /// The same counts [`TurnLog::count`] gives.
    pub counts: TurnCounts,
    bounds: Vec<u64>,
    /// Events that name another turn than the one they fall in (at [`Detail::Status`] and
    /// above).
    pub mismatches: Vec<IdMismatch>,
    /// Indexes (into `turns`) of user turns without a `turn_context` of their own (at
    /// [`Detail::Status`] and above).
    pub without_context: Vec<usize>,
}

/// The events that name their turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdEvent {
    TurnContext,
    TaskComplete,
    TurnAborted,
}

impl IdEvent {
    pub fn as_str(self) -> &'static str {
        match self {
            IdEvent::TurnContext => "turn_context",
            IdEvent::TaskComplete => "task_complete",
            IdEvent::TurnAborted => "turn_aborted",
        }
    }
}

/// A `turn_context` or terminal event whose `turn_id` is not the id of the turn it falls in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdMismatch {
    pub line: u64,
    /// Where the line starts in the decoded stream.
    pub offset: u64,
    pub event: IdEvent,
    /// The id the event names.
    pub turn_id: String,
    /// The turn it falls in (1-based) and that turn's id.
    pub turn: u64,
    pub turn_own_id: String,
}

impl Turns {
    /// The index (into `turns`) of the turn a line falls in; `None` before the first turn.
    pub fn turn_of(&self, line: u64) -> Option<usize> {
        self.bounds.partition_point(|&b| b <= line).checked_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Needs, ReadOptions};
    use crate::input::Source;
    use crate::testkit;
    use serde_json::json;

    fn turns(lines: &[&str]) -> Vec<Turn> {
        let facts = testkit::facts(&testkit::jsonl(lines), Needs::default().turns(Detail::Full));
        facts.turns.unwrap().turns
    }

    /// What `stats` counts: a counting segmentation.
    fn count(lines: &[&str]) -> TurnCounts {
        let facts = testkit::facts(
            &testkit::jsonl(lines),
            Needs::default().turns(Detail::Count),
        );
        assert!(facts.turns.is_none());
        facts.turn_counts.unwrap()
    }

    #[test]
    fn a_placing_log_places_turns_and_a_status_log_settles_them_as_the_full_log_does() {
        // Every testdata file, and each with one line cut out (a lost task_started, a
        // lost turn_context...): the same turns, starts and ids, and the same counts at
        // every detail.
        let mut files = 0;
        for path in testkit::jsonl_files("") {
            let text = std::fs::read(&path).unwrap();
            let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
            for cut in std::iter::once(usize::MAX).chain(0..lines.len().min(40)) {
                let input: Vec<u8> = lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != cut)
                    .flat_map(|(_, l)| l.iter().copied().chain([b'\n']))
                    .collect();
                let run = |detail: Detail| {
                    let needs = Needs::default().turns(detail);
                    let opts = ReadOptions::default();
                    crate::analysis::read_stream(&input[..], Source::Stdin, &opts, &needs)
                };
                let places = |detail: Detail| {
                    let facts = run(detail);
                    let turns = facts.turns.unwrap();
                    let places: Vec<_> = turns
                        .turns
                        .into_iter()
                        .map(|t| (t.index, t.line_start, t.turn_id))
                        .collect();
                    (places, turns.counts)
                };
                let (full, placing) = (places(Detail::Full), places(Detail::Place));
                let at = || format!("{} without line {cut}", path.display());
                assert_eq!(full, placing, "{}", at());
                let status = |detail: Detail| -> Vec<_> {
                    let t = run(detail).turns.unwrap().turns;
                    t.into_iter()
                        .map(|t| (t.index, t.turn_id, t.status))
                        .collect()
                };
                assert_eq!(status(Detail::Full), status(Detail::Status), "{}", at());
                assert_eq!(run(Detail::Count).turn_counts, Some(full.1), "{}", at());
            }
            files += 1;
        }
        assert!(files > 10);
    }

    fn statuses(t: &[Turn]) -> Vec<&'static str> {
        t.iter().map(|t| t.status.as_str()).collect()
    }

    const META: &str =
        r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"s1"}}"#;

    /// An event `ts` seconds in, its payload as JSON text.
    fn ev(ts: u32, payload: &str) -> String {
        let payload = serde_json::from_str(payload).unwrap();
        testkit::event(payload).at(ts).to_string()
    }

    fn started(ts: u32, id: &str) -> String {
        testkit::event(json!({"type": "task_started", "turn_id": id}))
            .at(ts)
            .to_string()
    }

    fn complete(ts: u32, id: &str) -> String {
        let done = format!("done {id}");
        let payload = json!({"type": "task_complete", "turn_id": id, "last_agent_message": done});
        testkit::event(payload).at(ts).to_string()
    }

    /// A `turn_aborted` of turn `id`, interrupted.
    fn aborted(ts: u32, id: &str) -> String {
        let payload = json!({"type": "turn_aborted", "turn_id": id, "reason": "interrupted"});
        testkit::event(payload).at(ts).to_string()
    }

    /// A whole turn at `ts`: its start, its user message and its completion (three lines).
    fn user_turn(ts: u32, id: &str, text: &str) -> String {
        [started(ts, id), user_item(text), complete(ts, id)].join("\n")
    }

    /// A rollback marker dropping `num_turns` (its JSON text).
    fn rolled_back(num_turns: &str) -> String {
        ev(
            9,
            &format!(r#"{{"type":"thread_rolled_back","num_turns":{num_turns}}}"#),
        )
    }

    fn user_item(text: &str) -> String {
        let content = json!([{"type": "input_text", "text": text}]);
        testkit::item(json!({"type": "message", "role": "user", "content": content})).to_string()
    }

    fn user_event(text: &str) -> String {
        testkit::event(json!({"type": "user_message", "message": text})).to_string()
    }

    #[test]
    fn task_started_turns_complete_stale_and_open() {
        let t = turns(&[
            META,
            &started(1, "a"),
            &user_item("one"),
            &complete(3, "a"),
            &started(4, "b"),
            &user_item("two"),
            &started(6, "c"),
            &user_item("three"),
        ]);
        assert_eq!(statuses(&t), ["completed", "stale", "open"]);
        assert_eq!(t[0].line_start, 2);
        assert_eq!(t[0].line_end, 4);
        assert_eq!(t[0].duration_ms, Some(2000));
        assert_eq!(t[0].ended_at.as_deref(), Some("2026-01-01T00:00:03.000Z"));
        assert_eq!(t[0].user_message.as_deref(), Some("one"));
        assert_eq!(t[0].last_agent_message.as_deref(), Some("done a"));
        assert_eq!(t[2].line_end, 8);
        assert_eq!(t[1].ended_at, None);
    }

    #[test]
    fn failed_with_error_and_aborted_with_reason() {
        let t = turns(&[
            META,
            &started(1, "a"),
            &ev(
                2,
                r#"{"type":"task_complete","turn_id":"a","error":{"message":"boom"}}"#,
            ),
            &started(3, "b"),
            &ev(
                4,
                r#"{"type":"turn_aborted","turn_id":"b","reason":"interrupted","duration_ms":7}"#,
            ),
        ]);
        assert_eq!(statuses(&t), ["failed", "aborted"]);
        assert_eq!(t[0].reason.as_deref(), Some("boom"));
        assert_eq!(t[1].reason.as_deref(), Some("interrupted"));
        assert_eq!(t[1].duration_ms, Some(7));
    }

    #[test]
    fn abort_then_complete_for_the_same_turn_is_completed() {
        // Same-process recover: the complete comes after another turn began.
        let t = turns(&[
            META,
            &started(1, "a"),
            &aborted(2, "a"),
            &started(3, "b"),
            &complete(4, "a"),
            &complete(5, "b"),
        ]);
        assert_eq!(statuses(&t), ["completed", "completed"]);
    }

    #[test]
    fn old_writers_start_turns_at_user_messages_and_prove_little() {
        // 0.36 order: the response item, then its user_message event.
        let t = turns(&[
            META,
            &user_item("<environment_context>x</environment_context>"),
            &user_item("one"),
            &user_event("one"),
            r#"{"timestamp":"t","type":"turn_context","payload":{"model":"m1","sandbox_policy":{"mode":"read-only"}}}"#,
            r#"{"timestamp":"t","type":"turn_context","payload":{"model":"m2","sandbox_policy":{"mode":"read-only"}}}"#,
            &user_item("two"),
            &user_event("two"),
            &ev(9, r#"{"type":"turn_aborted","reason":"interrupted"}"#),
            &user_item("three"),
            &user_event("three"),
        ]);
        assert_eq!(statuses(&t), ["unknown", "aborted", "unknown"]);
        assert_eq!(t[0].line_start, 3);
        assert_eq!(t[0].line_end, 6);
        assert_eq!(t[0].model.as_deref(), Some("m2"));
        assert_eq!(t[0].sandbox.as_deref(), Some("read-only"));
        assert_eq!(t[1].user_message.as_deref(), Some("two"));
    }

    #[test]
    fn files_without_events_use_real_user_response_messages() {
        let t = turns(&[META, &user_item("one"), &user_item("two")]);
        assert_eq!(statuses(&t), ["unknown", "unknown"]);
        assert_eq!(
            count(&[META, &user_item("one"), &user_item("two")]).turns,
            2
        );
    }

    #[test]
    fn rollback_markers_add_up() {
        let rb = rolled_back("1");
        let t = turns(&[
            META,
            &user_turn(1, "a", "one"),
            &user_turn(2, "b", "two"),
            &user_turn(3, "c", "three"),
            &rb,
            &rb,
            &user_turn(4, "d", "four"),
        ]);
        assert_eq!(
            statuses(&t),
            ["completed", "rolled_back", "rolled_back", "completed"]
        );
    }

    #[test]
    fn rollback_counts_user_turns_and_drops_what_follows_the_cut() {
        let t = turns(&[
            META,
            &user_turn(1, "a", "one"),
            &user_turn(2, "b", "two"),
            // A turn without a user message (a compaction turn, say).
            &started(3, "c"),
            &complete(3, "c"),
            &rolled_back("1"),
        ]);
        assert_eq!(statuses(&t), ["completed", "rolled_back", "rolled_back"]);
        // More turns than there are: everything from the first user turn.
        let t = turns(&[META, &started(1, "a"), &user_item("one"), &rolled_back("5")]);
        assert_eq!(statuses(&t), ["rolled_back"]);
    }

    #[test]
    fn usage_and_calls_are_counted_per_turn() {
        let tc = |total: u64, last: u64| token_count(5, total, last);
        let call = r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","call_id":"c","name":"x"}}"#;
        let t = turns(&[
            META,
            &started(1, "a"),
            call,
            call,
            &tc(10, 10),
            &tc(10, 10),
            &started(2, "b"),
            &tc(25, 15),
            r#"{"timestamp":"t","type":"turn_context","payload":{"turn_id":"a","model":"late"}}"#,
        ]);
        assert_eq!(t[0].tool_calls, 2);
        assert_eq!(t[0].tokens.total_tokens, 10);
        assert_eq!(t[1].tokens.total_tokens, 15);
        // A turn_context naming turn a goes to turn a, wherever it sits.
        assert_eq!(t[0].model.as_deref(), Some("late"));
        assert_eq!(t[1].model, None);
    }

    #[test]
    fn paginated_items_give_texts_and_ordinals() {
        let t = turns(&[
            r#"{"timestamp":"t","ordinal":0,"type":"session_meta","payload":{"id":"s"}}"#,
            r#"{"timestamp":"t","ordinal":1,"type":"event_msg","payload":{"type":"task_started","turn_attribution":{"turn_id":"x"}}}"#,
            r#"{"timestamp":"t","ordinal":2,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"hi"}]}}}"#,
            r#"{"timestamp":"t","ordinal":3,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":"hello"}]}}}"#,
        ]);
        assert_eq!(t[0].turn_id.as_deref(), Some("x"));
        assert_eq!(t[0].user_message.as_deref(), Some("hi"));
        assert_eq!(t[0].last_agent_message.as_deref(), Some("hello"));
        assert_eq!((t[0].ordinal_start, t[0].ordinal_end), (Some(1), Some(3)));
        assert_eq!(statuses(&t), ["open"]);
    }

    fn token_count(ts: u32, total: u64, last: u64) -> String {
        ev(
            ts,
            &format!(
                r#"{{"type":"token_count","info":{{"total_token_usage":{{"total_tokens":{total}}},"last_token_usage":{{"total_tokens":{last}}}}}}}"#
            ),
        )
    }

    fn turn_context(id: &str, model: &str) -> String {
        testkit::turn_context(json!({"turn_id": id, "model": model})).to_string()
    }

    #[test]
    fn an_event_naming_no_turn_proves_nothing_about_a_turn_with_an_id() {
        // The reviewer's ghost: a task_complete for a turn the file never started.
        let t = turns(&[
            META,
            &started(1, "t1"),
            &aborted(2, "t1"),
            &complete(3, "ghost"),
            &turn_context("ghost", "other"),
        ]);
        assert_eq!(statuses(&t), ["aborted"]);
        assert_eq!(t[0].reason.as_deref(), Some("interrupted"));
        assert_eq!(t[0].turn_id.as_deref(), Some("t1"));
        assert_eq!(t[0].ended_at.as_deref(), Some("2026-01-01T00:00:02.000Z"));
        // Nor do its settings come from a turn_context of another id.
        assert_eq!(t[0].model, None);

        // Same-process recover still works for the same id.
        let t = turns(&[
            META,
            &started(1, "t1"),
            &ev(2, r#"{"type":"turn_aborted","turn_id":"t1"}"#),
            &complete(3, "t1"),
        ]);
        assert_eq!(statuses(&t), ["completed"]);

        // A turn without an id of its own (old writers) takes what falls in it.
        let t = turns(&[
            META,
            &user_item("one"),
            &user_event("one"),
            &ev(2, r#"{"type":"turn_aborted","reason":"interrupted"}"#),
            &complete(3, "x"),
        ]);
        assert_eq!(statuses(&t), ["completed"]);
        assert_eq!(t[0].reason, None);
    }

    #[test]
    fn rollback_needs_a_u32_num_turns() {
        let file = |num: &str| {
            let t = turns(&[
                META,
                &user_turn(1, "a", "one"),
                &user_turn(2, "b", "two"),
                &rolled_back(num),
            ]);
            statuses(&t)
        };
        // Codex decodes num_turns as u32: anything else fails the line, nothing is dropped.
        for bad in [
            r#""1""#,
            "1.5",
            "1.0",
            "1e0",
            "-1",
            "4294967296",
            "18446744073709551615",
            "null",
            "[1]",
        ] {
            assert_eq!(file(bad), ["completed", "completed"], "{bad}");
        }
        assert_eq!(file("0"), ["completed", "completed"]);
        assert_eq!(file("1"), ["completed", "rolled_back"]);
        assert_eq!(file("4294967295"), ["rolled_back", "rolled_back"]);
        // No num_turns at all: the line does not decode either.
        let t = turns(&[
            META,
            &started(1, "a"),
            &user_item("one"),
            &ev(9, r#"{"type":"thread_rolled_back"}"#),
        ]);
        assert_eq!(statuses(&t), ["open"]);
    }

    #[test]
    fn an_escaped_user_role_is_a_user_message_for_every_command() {
        let escaped = r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"\u0075ser","content":[{"type":"input_text","text":"hello"}]}}"#;
        let lines = [META, escaped, &user_item("again")];
        let t = turns(&lines);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].user_message.as_deref(), Some("hello"));
        assert_eq!(count(&lines).turns, 2);
    }

    #[test]
    fn activity_before_the_first_start_begins_an_implicit_turn() {
        // A file whose first task_started line was lost: its turn_context, a call and its
        // usage come before the first start that survived.
        let call = r#"{"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call","call_id":"c","name":"x"}}"#;
        let lines = [
            META,
            &turn_context("t1", "m1"),
            &user_item("one"),
            call,
            &token_count(3, 10, 10),
            &started(4, "t2"),
            &user_item("two"),
            &token_count(5, 15, 5),
            &complete(6, "t2"),
        ];
        let t = turns(&lines);
        assert_eq!(statuses(&t), ["stale", "completed"]);
        assert_eq!(t[0].turn_id.as_deref(), Some("t1"));
        assert_eq!(t[0].line_start, 2);
        assert_eq!(t[0].line_end, 5);
        assert_eq!(t[0].model.as_deref(), Some("m1"));
        assert_eq!(t[0].user_message.as_deref(), Some("one"));
        assert_eq!((t[0].tool_calls, t[0].tokens.total_tokens), (1, 10));
        assert_eq!(t[1].tokens.total_tokens, 5);
        assert_eq!(
            count(&lines),
            TurnCounts {
                turns: 2,
                tool_calls: 1
            }
        );

        // Its missing start proves nothing about the outcome: terminal events decide.
        let t = turns(&[
            META,
            &turn_context("t1", "m1"),
            &aborted(2, "t1"),
            &started(4, "t2"),
            &complete(6, "t2"),
            &complete(7, "t1"),
        ]);
        assert_eq!(statuses(&t), ["completed", "completed"]);
        assert_eq!(t[0].turn_id.as_deref(), Some("t1"));

        // Usage alone begins it too; usage first, then a later turn_context.
        let lines = [
            META,
            &token_count(1, 7, 7),
            &turn_context("t1", "m1"),
            &started(4, "t2"),
        ];
        let t = turns(&lines);
        assert_eq!(statuses(&t), ["stale", "open"]);
        assert_eq!((t[0].line_start, t[0].tokens.total_tokens), (2, 7));
        assert_eq!(count(&lines).turns, 2);

        // Scaffolding and re-emitted usage prove nothing: no implicit turn.
        let lines = [
            META,
            &user_item("<environment_context>x</environment_context>"),
            &token_count(1, 0, 0),
            &started(4, "t2"),
        ];
        assert_eq!(statuses(&turns(&lines)), ["open"]);
        assert_eq!(count(&lines).turns, 1);
    }

    #[test]
    fn a_file_with_usage_but_no_turn_start_has_one_implicit_turn() {
        let lines = [META, &token_count(1, 10, 10), &token_count(2, 25, 15)];
        let t = turns(&lines);
        assert_eq!(statuses(&t), ["unknown"]);
        assert_eq!(t[0].tokens.total_tokens, 25);
        assert_eq!(t[0].line_start, 2);
        assert_eq!(count(&lines).turns, 1);
        // Nothing at all: no turn.
        assert!(turns(&[META]).is_empty());
        assert_eq!(count(&[META]).turns, 0);
    }

    #[test]
    fn a_server_tool_search_without_call_counts_as_a_call() {
        let search = |exec: &str, id: &str| {
            format!(
                r#"{{"timestamp":"t","type":"response_item","payload":{{"type":"tool_search_output","call_id":"{id}","execution":"{exec}","tools":[]}}}}"#
            )
        };
        let call = r#"{"timestamp":"t","type":"response_item","payload":{"type":"tool_search_call","call_id":"paired","execution":"server"}}"#;
        let lines = [
            META,
            &started(1, "a"),
            &search("server", "alone"),
            call,
            &search("server", "paired"),
            // A client output without call is an orphan, not a call.
            &search("client", "lost"),
        ];
        let t = turns(&lines);
        assert_eq!(t[0].tool_calls, 2);
        assert_eq!(count(&lines).tool_calls, 2);
    }

    #[test]
    fn odd_payloads_never_panic() {
        let t = turns(&[
            META,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":7}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","error":null,"duration_ms":"x"}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":"many"}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","item":[1]}}"#,
            r#"{"timestamp":"t","type":"turn_context","payload":{"model":5}}"#,
        ]);
        assert_eq!(statuses(&t), ["completed"]);
        assert_eq!(t[0].turn_id, None);
    }
}
