//! `calls`: every tool call of one file, paired with its output, and what the file proves
//! about its outcome.
//!
//! Calls are the `response_item`s in [`crate::model::CALL_TYPES`]; outputs those in
//! [`crate::model::OUTPUT_TYPES`]. An output pairs with a call of the same `call_id` (never by
//! position, never by the item's own `id`) and of a matching kind
//! ([`crate::model::CallType::answer`]: `function_call_output` answers a `function_call` or
//! `local_shell_call`, `custom_tool_call_output` a `custom_tool_call`, `tool_search_output` a
//! `tool_search_call`), the first such call not
//! yet answered. An output with no such call is an `orphan` row, except a server-side
//! `tool_search_output` (`execution: "server"`), which Codex's `remove_orphan_outputs`
//! keeps: it is a call row of its own (`ok`). A second output for an answered call is a
//! duplicate and is ignored (Codex keeps the first).
//!
//! **Outcome sources**, richest first: `event_msg/item_completed` (paginated files; its item
//! `id` is the `call_id`), `exec_command_end`, `patch_apply_end`, `mcp_tool_call_end`, then
//! the output text, whose format changed across Codex versions (checked against the real
//! corpus): a JSON string `{"output", "metadata": {"exit_code", "duration_seconds"}}` (0.36
//! shell, 0.128 `apply_patch`), `Exit code: N` / `Wall time: S seconds` (0.80 shell, 0.171
//! `apply_patch`), `Process exited with code N` / `Wall time: S seconds` (0.128+
//! `exec_command`). `exit_code` and `duration_ms` come from the first source that has them.
//!
//! **Status** (`docs/calls.md`): `error` when the tool ran and failed (a non-zero exit code;
//! a failed or declined item or end event; `patch_apply_end.success == false`; an MCP
//! `isError` or `Err`; an output saying `apply_patch verification failed: …`, or `error: …`
//! for an `apply_patch` (0.36)); else `ok` when an output or a settled item/end event exists
//! (an item proves the outcome even when the output line is missing: `output_line` is then
//! null); else `unknown`. An output saying `Process running with session ID N` (unified
//! exec, the command not finished) proves no outcome. `web_search_call` and `image_generation_call` carry their own
//! `status`: `completed` is `ok`, `failed` is `error`, anything else `unknown`.
//!
//! The record side collects calls, outputs and outcome evidence (`collect.rs`); what an
//! output's text says is read in `outcome.rs`; pairing and each row's status are decided at
//! the end of the file, once the turns are cut (`pairing.rs`).

mod collect;
mod command;
mod outcome;
mod pairing;

pub use collect::CallCollector;
pub use command::command;
pub use outcome::{output_body, parse_output_meta, OutputMeta};

use serde::Serialize;

use crate::input::FileText;

/// What the file proves about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    Ok,
    Error,
    Unknown,
    Orphan,
}

impl CallStatus {
    /// Every status, in the order of their discriminants (and of `calls --status`).
    pub const ALL: [CallStatus; 4] = [
        CallStatus::Ok,
        CallStatus::Error,
        CallStatus::Unknown,
        CallStatus::Orphan,
    ];

    /// The status named `name` by [`CallStatus::as_str`].
    pub fn from_name(name: &str) -> Option<CallStatus> {
        CallStatus::ALL.into_iter().find(|s| s.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::Ok => "ok",
            CallStatus::Error => "error",
            CallStatus::Unknown => "unknown",
            CallStatus::Orphan => "orphan",
        }
    }
}

/// A row's `arguments` or `output` text.
#[derive(Debug, Clone)]
pub enum Text {
    /// The text itself (one the record did not write as a JSON string: the parts of an
    /// array joined, an object's JSON).
    Owned(Box<str>),
    /// The text of this JSON string (quotes included), as the record wrote it: held, or where
    /// it lies in the file ([`FileFacts::file`](crate::analysis::FileFacts)), which the output
    /// layer reads when it writes the row: a file's large texts are not held until its end.
    Json(FileText),
}

/// How a row's `arguments` text is written, so that a reader knows whether to parse it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// A JSON document (it parses): a function call's arguments, an `action` object.
    Json,
    /// Text to read as it is: a custom tool's input (an `apply_patch` patch), a revised
    /// prompt, arguments meant as JSON that do not parse.
    Text,
}

/// One call, or one output without a call (NDJSON schema: `docs/calls.md`; the command adds
/// path and session ids and writes it).
#[derive(Debug, Clone)]
pub struct Call {
    /// The turn the call (or orphan output) falls in, 1-based; null before the first turn.
    pub turn_index: Option<u64>,
    pub turn_id: Option<String>,
    pub call_id: Option<String>,
    /// The call's `response_item` type; for an orphan, the output's.
    pub kind: String,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub status: CallStatus,
    pub call_line: Option<u64>,
    pub output_line: Option<u64>,
    pub called_at: Option<String>,
    pub answered_at: Option<String>,
    pub duration_ms: Option<u64>,
    pub exit_code: Option<i64>,
    pub arguments: Option<Text>,
    /// How `arguments` is written; `None` exactly when there are no arguments.
    pub arguments_encoding: Option<Encoding>,
    pub output: Option<Text>,
    /// The call was copied from a parent session (fork, sub-agent).
    pub inherited: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Needs, ReadOptions};
    use crate::input::Source;
    use crate::testkit;
    use serde_json::json;

    fn calls(lines: &[&str]) -> Vec<Call> {
        let facts = testkit::facts(&testkit::jsonl(lines), Needs::default().calls());
        facts.calls.unwrap()
    }

    fn statuses(c: &[Call]) -> Vec<&'static str> {
        c.iter().map(|c| c.status.as_str()).collect()
    }

    /// A row's text, when it is held.
    fn held(t: &Option<Text>) -> Option<String> {
        match t.as_ref()? {
            Text::Owned(s) => Some(s.to_string()),
            Text::Json(FileText::Held(raw)) => serde_json::from_str(raw).ok(),
            Text::Json(FileText::InFile { .. }) => None,
        }
    }

    /// A response item, its payload as JSON text.
    fn item(payload: &str) -> String {
        let payload = serde_json::from_str(payload).unwrap();
        testkit::item(payload).at(1).to_string()
    }

    /// An event, its payload as JSON text.
    fn event(payload: &str) -> String {
        let payload = serde_json::from_str(payload).unwrap();
        testkit::event(payload).at(2).to_string()
    }

    fn fc(call_id: &str, name: &str, args: &str) -> String {
        let payload =
            json!({"type": "function_call", "name": name, "arguments": args, "call_id": call_id});
        testkit::item(payload).at(1).to_string()
    }

    /// A shell call without arguments.
    fn shell(call_id: &str) -> String {
        fc(call_id, "shell", "{}")
    }

    /// A shell call's output (0.80 style) saying it exited with `code`, and nothing else.
    fn exited(call_id: &str, code: i64) -> String {
        fco(call_id, &format!("Exit code: {code}\nOutput:\n"))
    }

    fn fco(call_id: &str, output: &str) -> String {
        let payload = json!({"type": "function_call_output", "call_id": call_id, "output": output});
        testkit::item(payload).at(1).to_string()
    }

    // Rows are final only at the end of the file: each of these later lines changes a row
    // that an earlier line seemed to settle (`docs/calls.md`, "When a row is final").

    #[test]
    fn a_richer_source_after_the_output_still_decides_the_row() {
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &fco(
                "a",
                "Process exited with code 0\nWall time: 1 seconds\nOutput:\nfine\n",
            ),
            &fc("b", "exec_command", "{}"),
            &fco("b", "Process exited with code 0\nOutput:\n"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"failed","exit_code":3}}"#,
            ),
        ]);
        assert_eq!(c[0].status, CallStatus::Error);
        assert_eq!((c[0].exit_code, c[0].duration_ms), (Some(3), Some(1000)));
        assert_eq!(c[0].output_line, Some(2));
        assert_eq!(c[1].status, CallStatus::Ok);
    }

    /// A row as the pairing tests see it: call_id, status, call and output lines, exit code.
    type Paired<'a> = (
        Option<&'a str>,
        &'static str,
        Option<u64>,
        Option<u64>,
        Option<i64>,
    );

    fn paired(c: &[Call]) -> Vec<Paired<'_>> {
        c.iter()
            .map(|c| {
                let id = c.call_id.as_deref();
                (
                    id,
                    c.status.as_str(),
                    c.call_line,
                    c.output_line,
                    c.exit_code,
                )
            })
            .collect()
    }

    #[test]
    fn outputs_pair_by_call_id_and_rows_keep_line_order_whatever_comes_later() {
        let files = [
            // A duplicate output changes nothing, even when it says otherwise.
            (
                vec![shell("a"), exited("a", 0), exited("a", 9)],
                vec![(Some("a"), "ok", Some(1), Some(2), Some(0))],
            ),
            // An unanswered call keeps its place before later answered calls.
            (
                vec![
                    shell("a"),
                    shell("b"),
                    exited("b", 0),
                    shell("c"),
                    exited("c", 1),
                ],
                vec![
                    (Some("a"), "unknown", Some(1), None, None),
                    (Some("b"), "ok", Some(2), Some(3), Some(0)),
                    (Some("c"), "error", Some(4), Some(5), Some(1)),
                ],
            ),
            // An output before its call answers it, so orphans are known only at the end:
            // rows in line order, the orphan (line 2), then the call (line 3) answered by
            // line 1.
            (
                vec![exited("a", 0), fco("lost", "x"), shell("a")],
                vec![
                    (Some("lost"), "orphan", None, Some(2), None),
                    (Some("a"), "ok", Some(3), Some(1), Some(0)),
                ],
            ),
        ];
        for (file, want) in files {
            let lines: Vec<&str> = file.iter().map(String::as_str).collect();
            assert_eq!(paired(&calls(&lines)), want, "{file:#?}");
        }
    }

    #[test]
    fn large_texts_of_a_plain_file_are_where_they_lie_and_read_back_exactly() {
        use std::io::Write;
        let big = "Exit code: 0\nWall time: 2 seconds\nOutput:\n".to_string()
            + &"line \"quoted\" \\ tab\t é\n".repeat(400);
        let lines = [
            fc(
                "a",
                "shell",
                &format!(r#"{{"command":"apply_patch {}"}}"#, "x".repeat(300)),
            ),
            fco("a", &big),
            fco("orphan", &big),
        ];
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
        let r = crate::analysis::read(
            &Source::File(f.path().to_path_buf()),
            &ReadOptions::default(),
            &Needs::default().calls(),
        );
        let file = r.file.expect("kept open");
        let rows = r.calls.unwrap();
        let read = |t: &Option<Text>| match t {
            Some(Text::Json(FileText::InFile { offset, len })) => {
                let mut buf = Vec::new();
                file.read_at(*offset, *len, &mut buf).unwrap();
                serde_json::from_slice::<String>(&buf).unwrap()
            }
            other => panic!("held: {other:?}"),
        };
        assert_eq!(read(&rows[0].output), big);
        assert!(read(&rows[0].arguments).starts_with(r#"{"command":"apply_patch xxx"#));
        assert_eq!(read(&rows[1].output), big);
        // What the head of the text says was read without the rest of it.
        assert_eq!(
            (rows[0].exit_code, rows[0].duration_ms),
            (Some(0), Some(2000))
        );
        assert_eq!(
            (rows[1].exit_code, rows[1].status),
            (Some(0), CallStatus::Orphan)
        );
    }

    #[test]
    fn arguments_say_whether_they_are_json_or_text() {
        let c = calls(&[
            &fc("a", "exec_command", r#"{"cmd":"ls"}"#),
            // A model's malformed arguments, which Codex answers with a parse error.
            &fc("b", "exec_command", r#"{"cmd":"ls""#),
            &item(
                r#"{"type":"custom_tool_call","call_id":"c","name":"apply_patch","input":"*** Begin Patch\n*** End Patch\n"}"#,
            ),
            // A custom tool's input is its text, even one that would parse.
            &item(r#"{"type":"custom_tool_call","call_id":"d","name":"t","input":"{}"}"#),
            &item(
                r#"{"type":"local_shell_call","call_id":"e","status":"completed","action":{"type":"exec","command":["ls"]}}"#,
            ),
            &item(
                r#"{"type":"web_search_call","status":"completed","action":{"type":"search","query":"x"}}"#,
            ),
            &item(
                r#"{"type":"tool_search_call","call_id":"f","execution":"client","arguments":{"query":"w"}}"#,
            ),
            &item(
                r#"{"type":"tool_search_call","call_id":"g","execution":"client","arguments":"x"}"#,
            ),
            &item(
                r#"{"type":"image_generation_call","status":"completed","revised_prompt":"a cat"}"#,
            ),
            &item(r#"{"type":"function_call","call_id":"h","name":"n"}"#),
            &fco("lost", "x"),
        ]);
        let got: Vec<_> = c
            .iter()
            .map(|c| (c.arguments_encoding, c.arguments.is_some()))
            .collect();
        let (json, text) = (Some(Encoding::Json), Some(Encoding::Text));
        assert_eq!(
            got,
            [
                (json, true),
                (text, true),
                (text, true),
                (text, true),
                (json, true),
                (json, true),
                (json, true),
                (text, true),
                (text, true),
                (None, false),
                (None, false),
            ]
        );
    }

    #[test]
    fn pairs_by_call_id_not_position() {
        let c = calls(&[
            &shell("a"),
            &shell("b"),
            &exited("b", 2),
            &fco("a", "Exit code: 0\nOutput:\nok"),
        ]);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].call_id.as_deref(), Some("a"));
        assert_eq!(c[0].status, CallStatus::Ok);
        assert_eq!(c[0].output_line, Some(4));
        assert_eq!(c[1].status, CallStatus::Error);
        assert_eq!(c[1].exit_code, Some(2));
        assert_eq!(c[1].output_line, Some(3));
    }

    #[test]
    fn missing_output_is_unknown_and_stray_output_is_orphan() {
        let c = calls(&[&shell("a"), &fco("zzz", "hi")]);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].status, CallStatus::Unknown);
        assert!(c[0].output.is_none());
        assert_eq!(c[1].status, CallStatus::Orphan);
        assert_eq!(c[1].kind, "function_call_output");
        assert_eq!(held(&c[1].output).as_deref(), Some("hi"));
    }

    #[test]
    fn output_of_the_wrong_kind_is_an_orphan_and_duplicates_are_ignored() {
        let c = calls(&[
            &shell("a"),
            &item(r#"{"type":"custom_tool_call_output","call_id":"a","output":"x"}"#),
            &fco("a", "first"),
            &fco("a", "second"),
        ]);
        assert_eq!(statuses(&c), ["ok", "orphan"]);
        assert_eq!(held(&c[0].output).as_deref(), Some("first"));
    }

    #[test]
    fn item_completed_proves_an_outcome_without_output() {
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"failed","exit_code":7,"duration":{"secs":1,"nanos":500000000}},"started_at_ms":1,"completed_at_ms":9}"#,
            ),
            &fco("a", "Process exited with code 0\nOutput:\n"),
        ]);
        // The item is the richest source: it wins over the output text.
        assert_eq!(c[0].exit_code, Some(7));
        assert_eq!(c[0].duration_ms, Some(1500));
        assert_eq!(c[0].status, CallStatus::Error);

        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"completed","exit_code":0},"started_at_ms":10,"completed_at_ms":14}"#,
            ),
        ]);
        assert_eq!(c[0].status, CallStatus::Ok);
        assert_eq!(c[0].output_line, None);
        assert_eq!(c[0].duration_ms, Some(4));
        assert_eq!(
            c[0].answered_at.as_deref(),
            Some("2026-01-01T00:00:02.000Z")
        );

        // In progress proves nothing.
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"a","status":"in_progress"}}"#,
            ),
        ]);
        assert_eq!(c[0].status, CallStatus::Unknown);
    }

    #[test]
    fn legacy_end_events() {
        let c = calls(&[
            &shell("a"),
            &event(
                r#"{"type":"exec_command_end","call_id":"a","exit_code":5,"duration":{"secs":0,"nanos":2000000}}"#,
            ),
            &item(
                r#"{"type":"custom_tool_call","call_id":"p","name":"apply_patch","input":"*** Begin Patch"}"#,
            ),
            &event(r#"{"type":"patch_apply_end","call_id":"p","success":false}"#),
            &fc("m", "mcp__w__look", "{}"),
            &event(
                r#"{"type":"mcp_tool_call_end","call_id":"m","duration":{"secs":2,"nanos":0},"result":{"Ok":{"content":[],"isError":true}}}"#,
            ),
            &fc("n", "mcp__w__look", "{}"),
            &event(r#"{"type":"mcp_tool_call_end","call_id":"n","result":{"Ok":{"content":[]}}}"#),
        ]);
        assert_eq!(statuses(&c), ["error", "error", "error", "ok"]);
        assert_eq!(c[0].exit_code, Some(5));
        assert_eq!(c[0].duration_ms, Some(2));
        assert_eq!(c[2].duration_ms, Some(2000));
    }

    #[test]
    fn patch_failures_in_output_text() {
        let c = calls(&[
            &item(r#"{"type":"custom_tool_call","call_id":"p","name":"apply_patch","input":"x"}"#),
            &item(
                r#"{"type":"custom_tool_call_output","call_id":"p","output":"apply_patch verification failed: nope"}"#,
            ),
            &fc(
                "q",
                "shell",
                r#"{"command":["bash","-lc","apply_patch <<'EOF'\n*** Begin Patch"]}"#,
            ),
            &fco("q", "error: Failed to read file to update x"),
            &fc("r", "shell", r#"{"command":["bash","-lc","echo hi"]}"#),
            &fco("r", "error: not a patch, just output"),
        ]);
        assert_eq!(statuses(&c), ["error", "error", "ok"]);
    }

    #[test]
    fn own_status_kinds_and_array_outputs() {
        let c = calls(&[
            &item(
                r#"{"type":"web_search_call","id":"ws","status":"completed","action":{"type":"search","query":"q"}}"#,
            ),
            &item(r#"{"type":"image_generation_call","id":"ig","status":"failed"}"#),
            &item(r#"{"type":"web_search_call","id":"ws2","status":"in_progress"}"#),
            &item(
                r#"{"type":"function_call","name":"lookup","namespace":"mcp__w","arguments":"{}","call_id":"m"}"#,
            ),
            &item(
                r#"{"type":"function_call_output","call_id":"m","output":[{"type":"input_text","text":"Wall time: 0.0030 seconds\nOutput:"},{"type":"input_text","text":"Sunny"}]}"#,
            ),
        ]);
        assert_eq!(statuses(&c), ["ok", "error", "unknown", "ok"]);
        assert_eq!(
            held(&c[0].arguments).as_deref(),
            Some(r#"{"type":"search","query":"q"}"#)
        );
        assert_eq!(c[3].namespace.as_deref(), Some("mcp__w"));
        assert_eq!(
            held(&c[3].output).as_deref(),
            Some("Wall time: 0.0030 seconds\nOutput:\nSunny")
        );
        assert_eq!(c[3].duration_ms, Some(3));
    }

    #[test]
    fn calls_are_placed_in_turns() {
        let c = calls(&[
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}"#,
            &fc("early", "x", "{}"),
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":"T1"}}"#,
            &fc("a", "x", "{}"),
            &fco("a", "ok"),
        ]);
        // A call before the first turn start begins an implicit turn: every call has one.
        assert_eq!((c[0].turn_index, c[0].turn_id.as_deref()), (Some(1), None));
        assert_eq!(
            (c[1].turn_index, c[1].turn_id.as_deref()),
            (Some(2), Some("T1"))
        );
    }

    #[test]
    fn many_calls_sharing_an_id_pair_in_order_and_wrong_kinds_are_orphans() {
        let cto = |id: &str| {
            item(&format!(
                r#"{{"type":"custom_tool_call_output","call_id":"{id}","output":"x"}}"#
            ))
        };
        let c = calls(&[
            &shell("same"),
            &shell("same"),
            &shell("same"),
            &cto("same"),
            &fco("same", "first"),
            &cto("same"),
            &fco("same", "second"),
            &fco("other", "stray"),
        ]);
        assert_eq!(
            statuses(&c),
            ["ok", "ok", "unknown", "orphan", "orphan", "orphan"],
            "{c:#?}"
        );
        assert_eq!(held(&c[0].output).as_deref(), Some("first"));
        assert_eq!(held(&c[1].output).as_deref(), Some("second"));
        assert_eq!(c[3].kind, "custom_tool_call_output");
        assert_eq!(c[5].call_id.as_deref(), Some("other"));
    }

    #[test]
    fn a_server_tool_search_output_without_call_is_a_call_row() {
        let search = |exec: &str, id: &str| {
            item(&format!(
                r#"{{"type":"tool_search_output","call_id":"{id}","status":"completed","execution":"{exec}","tools":[{{"type":"namespace","name":"mcp__w"}}]}}"#
            ))
        };
        let c = calls(&[
            &search("server", "alone"),
            &item(
                r#"{"type":"tool_search_call","call_id":"paired","execution":"server","arguments":{"query":"q"}}"#,
            ),
            &search("server", "paired"),
            &search("client", "lost"),
            &item(r#"{"type":"tool_search_output","execution":"server","tools":[]}"#),
        ]);
        assert_eq!(statuses(&c), ["ok", "ok", "orphan", "ok"], "{c:#?}");
        // Self-contained: the item is both the call and its output.
        assert_eq!(c[0].kind, "tool_search_output");
        assert_eq!((c[0].call_line, c[0].output_line), (Some(1), Some(1)));
        assert_eq!(
            held(&c[0].output).as_deref(),
            Some(r#"[{"type":"namespace","name":"mcp__w"}]"#)
        );
        assert_eq!(c[0].name, None);
        // With a call, the server output pairs with it as usual.
        assert_eq!(
            (c[1].kind.as_str(), c[1].output_line),
            ("tool_search_call", Some(3))
        );
        assert_eq!(c[2].kind, "tool_search_output");
        assert_eq!(c[3].call_id, None);
    }

    #[test]
    fn odd_payloads_never_panic() {
        let c = calls(&[
            &item(r#"{"type":"function_call","call_id":5,"name":["x"],"arguments":{"a":1}}"#),
            &item(r#"{"type":"function_call_output","output":null}"#),
            &event(r#"{"type":"item_completed","item":"nope"}"#),
            &event(r#"{"type":"exec_command_end","call_id":null,"exit_code":"x"}"#),
            &item(
                r#"{"type":"function_call_output","call_id":"q","output":{"content":"boom","success":false}}"#,
            ),
        ]);
        assert_eq!(statuses(&c), ["unknown", "orphan", "orphan"]);
        assert_eq!(held(&c[0].arguments).as_deref(), Some(r#"{"a":1}"#));
        assert_eq!(held(&c[2].output).as_deref(), Some("boom"));
    }

    #[test]
    fn a_large_text_with_rare_escapes_is_held_in_the_file_and_reads_as_the_same_text() {
        // `\/` and `\u` escapes of letters: JSON strings serde would write otherwise. Held
        // as where they lie all the same, they read back as the text itself, and say what
        // it says (an `apply_patch` spelled with escapes is one, a header is still read).
        use std::io::Write;
        let args = format!(
            r#""{{\"command\":\"\u0061pply_patch \/{}\"}}""#,
            "x".repeat(300)
        );
        let output = format!(
            r#""Exit code: 3\nWall time: 1 seconds\nOutput:\n{}""#,
            r"\u00e9\/".repeat(200)
        );
        let lines = [
            format!(
                r#"{{"timestamp":"t","type":"response_item","payload":{{"type":"function_call","name":"shell","arguments":{args},"call_id":"a"}}}}"#
            ),
            format!(
                r#"{{"timestamp":"t","type":"response_item","payload":{{"type":"function_call_output","call_id":"a","output":{output}}}}}"#
            ),
        ];
        let text = testkit::jsonl(&lines);
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        let needs = Needs::default().calls();
        let opts = ReadOptions::default();
        let from_file = crate::analysis::read(&Source::File(f.path().to_path_buf()), &opts, &needs);
        let streamed = testkit::facts(&text, needs).calls.unwrap();
        let file = from_file.file.expect("kept open");
        let rows = from_file.calls.unwrap();
        for (t, want) in [
            (&rows[0].arguments, &streamed[0].arguments),
            (&rows[0].output, &streamed[0].output),
        ] {
            let Some(Text::Json(FileText::InFile { offset, len })) = t else {
                panic!("held: {t:?}");
            };
            let mut buf = Vec::new();
            file.read_at(*offset, *len, &mut buf).unwrap();
            let text: String = serde_json::from_slice(&buf).unwrap();
            assert_eq!(Some(text.as_str()), held(want).as_deref());
        }
        assert_eq!(rows[0].status, CallStatus::Error);
        assert_eq!(
            (rows[0].exit_code, rows[0].duration_ms),
            (Some(3), Some(1000))
        );
        assert_eq!(
            (
                streamed[0].status,
                streamed[0].exit_code,
                streamed[0].duration_ms
            ),
            (rows[0].status, rows[0].exit_code, rows[0].duration_ms)
        );
    }

    #[test]
    fn a_process_still_running_proves_no_outcome() {
        let running = "Chunk ID: ab\nWall time: 1.0020 seconds\nProcess running with session ID 42\nOriginal token count: 3\nOutput:\nBuilding...\n";
        assert_eq!(
            parse_output_meta(running),
            OutputMeta {
                exit_code: None,
                duration_ms: None,
                running: true
            }
        );
        // The command's own output saying so does not count.
        assert!(
            !parse_output_meta(
                "Process exited with code 0\nOutput:\nProcess running with session ID 1\n"
            )
            .running
        );

        let c = calls(&[
            &fc("a", "exec_command", r#"{"cmd":"npm run build"}"#),
            &fco("a", running),
        ]);
        assert_eq!(c[0].status, CallStatus::Unknown);
        assert_eq!((c[0].exit_code, c[0].duration_ms), (None, None));
        // The output is still shown, and when it was written.
        assert_eq!(c[0].output_line, Some(2));
        assert_eq!(held(&c[0].output).as_deref(), Some(running));

        // A later end event or item proves the outcome.
        let c = calls(&[
            &fc("a", "exec_command", "{}"),
            &fco("a", running),
            &event(
                r#"{"type":"exec_command_end","call_id":"a","exit_code":2,"duration":{"secs":3,"nanos":0}}"#,
            ),
            &fc("b", "exec_command", "{}"),
            &fco("b", running),
            &event(
                r#"{"type":"item_completed","item":{"type":"CommandExecution","id":"b","status":"completed","exit_code":0}}"#,
            ),
        ]);
        assert_eq!(statuses(&c), ["error", "ok"]);
        assert_eq!((c[0].exit_code, c[0].duration_ms), (Some(2), Some(3000)));
    }

    #[test]
    fn short_texts_and_texts_of_streams_are_held_as_written() {
        let big = "x".repeat(1000);
        let lines = [fc("a", "shell", "ls"), fco("a", &big)];
        let c = calls(&lines.iter().map(String::as_str).collect::<Vec<_>>());
        // Standard input cannot be read again: even the large text is held.
        assert!(matches!(
            c[0].arguments,
            Some(Text::Json(FileText::Held(_)))
        ));
        assert!(matches!(c[0].output, Some(Text::Json(FileText::Held(_)))));
        assert_eq!(held(&c[0].output).as_deref(), Some(big.as_str()));
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_text_stays_three_words() {
        // Every row holds two: an owned text is boxed (no spare capacity), so that a
        // `FileText` fits beside it.
        assert_eq!(size_of::<Option<Text>>(), 24);
    }
}
