//! `rollscope calls`: pairing by `call_id`, the outcome each real scenario proves on every
//! Codex version, the hand-made broken copies, agreement with `stats`, formats and filters.

use std::path::Path;

use predicates::prelude::*;
use serde_json::{json, Value};

use crate::util::*;

fn calls(path: &Path) -> Vec<Value> {
    ndjson_rows(&["calls"], path)
}

fn lines_of(path: &Path) -> Vec<Value> {
    let text = if path.to_string_lossy().ends_with(".zst") {
        let raw = std::fs::read(path).unwrap();
        String::from_utf8(zstd::decode_all(&raw[..]).unwrap()).unwrap()
    } else {
        std::fs::read_to_string(path).unwrap()
    };
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The row whose arguments contain `needle`.
fn by_args<'a>(rows: &'a [Value], needle: &str) -> &'a Value {
    let hits: Vec<&Value> = rows
        .iter()
        .filter(|r| r["arguments"].as_str().is_some_and(|a| a.contains(needle)))
        .collect();
    assert_eq!(hits.len(), 1, "{needle}: {rows:#?}");
    hits[0]
}

/// The versions of `scenario` present under `corpus`.
fn units(corpus: &Path, scenario: &str) -> Vec<(String, std::path::PathBuf)> {
    scenarios_under(corpus)
        .into_iter()
        .filter(|u| u.file_name().unwrap() == scenario)
        .map(|u| {
            let v = u.parent().unwrap().file_name().unwrap();
            (v.to_string_lossy().to_string(), u)
        })
        .collect()
}

/// In every `shell` scenario (one per Codex version, each with its own output format),
/// `cat missing.txt` fails with exit code 1 and `exit 3` with exit code 3; the others
/// succeed with exit code 0.
fn check_shell(corpus: &Path) -> usize {
    let units = units(corpus, "shell");
    for (v, unit) in &units {
        let p = &rollouts_under(unit)[0];
        let r = calls(p);
        assert_eq!(r.len(), 5, "{v}");
        let missing = by_args(&r, "cat missing.txt");
        assert_eq!(
            (&missing["status"], &missing["exit_code"]),
            (&Value::from("error"), &Value::from(1)),
            "{v}"
        );
        let fail = by_args(&r, "exit 3");
        assert_eq!(
            (&fail["status"], &fail["exit_code"]),
            (&Value::from("error"), &Value::from(3)),
            "{v}"
        );
        for needle in ["ls -la", "cat README.md", "python3 hello.py"] {
            let ok = by_args(&r, needle);
            assert_eq!(
                (&ok["status"], &ok["exit_code"]),
                (&Value::from("ok"), &Value::from(0)),
                "{v} {needle}"
            );
        }
        assert!(by_args(&r, "python3 hello.py")["output"]
            .as_str()
            .unwrap()
            .contains("Hello from demo"));
    }
    units.len()
}

#[test]
fn shell_exit_codes_on_every_codex_version() {
    // 0.36 (JSON metadata), 0.80 (`Exit code: N`), 0.128, 0.147, 0.171 (`Process exited
    // with code N`; 0.171 also writes item_completed CommandExecution).
    assert_eq!(check_shell(&testdata("real")), 5);
}

#[test]
fn shell_exit_codes_on_every_codex_version_of_the_shared_corpus() {
    if let Some(corpus) = shared_corpus() {
        assert!(check_shell(&corpus) >= 5);
    }
}

/// How a call's arguments are written, read from the call itself (`docs/calls.md`):
/// `arguments` and `action` hold JSON (as a string whose text parses, or as a value), a
/// custom tool's `input` string and a revised prompt are text; null without any.
fn encoding_of(call: &Value) -> Value {
    let parses = |t: &str| serde_json::from_str::<Value>(t).is_ok();
    let present = |k: &str| Some(&call[k]).filter(|v| !v.is_null());
    let (value, holds_json) = match (present("arguments"), present("input"), present("action")) {
        (Some(a), _, _) | (None, None, Some(a)) => (a, true),
        (None, Some(i), _) => (i, false),
        (None, None, None) => {
            return match present("revised_prompt") {
                Some(_) => "text".into(),
                None => Value::Null,
            };
        }
    };
    match value.as_str() {
        Some(t) if holds_json && parses(t) => "json".into(),
        Some(_) => "text".into(),
        None => "json".into(),
    }
}

/// Every paired row really pairs a call and an output of the same `call_id`, read straight
/// from the file; call rows equal `stats`' tool calls; real files have no orphan.
fn check_pairing(corpus: &Path) -> usize {
    let mut files = 0;
    for unit in scenarios_under(corpus) {
        for p in rollouts_under(&unit) {
            let lines = lines_of(&p);
            let r = calls(&p);
            let s = &ndjson_rows(&["stats"], &p)[0];
            assert_eq!(
                r.len() as u64,
                s["tool_calls"].as_u64().unwrap(),
                "{}",
                p.display()
            );
            for row in &r {
                assert_ne!(row["status"], "orphan", "{}: {row}", p.display());
                let call = &lines[row["call_line"].as_u64().unwrap() as usize - 1]["payload"];
                assert_eq!(call["type"], row["kind"]);
                assert_eq!(call["call_id"], row["call_id"]);
                assert_eq!(
                    row["arguments_encoding"],
                    encoding_of(call),
                    "{}: {row}",
                    p.display()
                );
                if let Some(o) = row["output_line"].as_u64() {
                    let out = &lines[o as usize - 1]["payload"];
                    assert!(out["type"].as_str().unwrap().ends_with("_output"));
                    assert_eq!(out["call_id"], row["call_id"], "{}", p.display());
                }
            }
            // Every output of the file is some row's output.
            let outputs = lines
                .iter()
                .filter(|l| {
                    l["type"] == "response_item"
                        && l["payload"]["type"]
                            .as_str()
                            .is_some_and(|t| t.ends_with("_output"))
                })
                .count();
            let paired = r.iter().filter(|row| row["output_line"].is_u64()).count();
            assert_eq!(paired, outputs, "{}", p.display());
            files += 1;
        }
    }
    files
}

every_real_file! {
    check_pairing:
    calls_pair_and_agree_with_stats_on_every_real_file,
    calls_pair_and_agree_with_stats_on_every_shared_corpus_file
}

#[test]
fn a_failed_apply_patch_is_an_error_on_every_version() {
    // 0.36 runs apply_patch through the shell tool and answers `error: …`; 0.128 and
    // 0.171 use the freeform tool and answer `apply_patch verification failed: …`.
    for v in ["0.36.0", "0.128.0", "0.171.0"] {
        let r = calls(&real_file(v, "apply_patch", ""));
        let by_id = |id: &str| r.iter().find(|c| c["call_id"] == id).unwrap().clone();
        assert_eq!(by_id("call_patch")["status"], "ok", "{v}");
        assert_eq!(by_id("call_patch_bad")["status"], "error", "{v}");
        assert_eq!(by_id("call_run")["status"], "ok", "{v}");
        assert!(by_id("call_patch_bad")["output"]
            .as_str()
            .unwrap()
            .contains("Failed to read file to update"));
    }
    // 0.171's item_completed FileChange proves the good patch and times it.
    let r = calls(&real_file("0.171.0", "apply_patch", ""));
    assert_eq!(r[0]["kind"], "custom_tool_call");
    assert_eq!(r[0]["name"], "apply_patch");
    assert!(r[0]["duration_ms"].is_u64());
}

#[test]
fn arguments_say_whether_they_are_json_or_a_custom_tool_s_text() {
    // 0.128 and 0.171 write `apply_patch` as a custom tool: its `input` is the patch itself;
    // the shell command after it is a function call, its `arguments` a JSON string.
    for v in ["0.128.0", "0.171.0"] {
        let p = real_file(v, "apply_patch", "");
        let lines = lines_of(&p);
        let rows = calls(&p);
        let mut seen = Vec::new();
        for row in &rows {
            let call = &lines[row["call_line"].as_u64().unwrap() as usize - 1]["payload"];
            let kind = call["type"].as_str().unwrap();
            let (written, encoding) = match kind {
                "custom_tool_call" => {
                    let patch = call["input"].as_str().unwrap();
                    assert!(patch.starts_with("*** Begin Patch"), "{v}: {patch}");
                    assert!(
                        serde_json::from_str::<Value>(patch).is_err(),
                        "{v}: {patch}"
                    );
                    (patch, "text")
                }
                "function_call" => {
                    let args = call["arguments"].as_str().unwrap();
                    let parsed: Value = serde_json::from_str(args).unwrap();
                    assert!(parsed["cmd"].is_string(), "{v}: {args}");
                    (args, "json")
                }
                other => panic!("{v}: a {other} in the apply_patch scenario"),
            };
            assert_eq!(row["arguments"], written, "{v}");
            assert_eq!(row["arguments_encoding"], encoding, "{v}: {row}");
            seen.push(kind);
        }
        seen.dedup();
        seen.sort_unstable();
        assert_eq!(seen, ["custom_tool_call", "function_call"], "{v}");
    }
}

#[test]
fn a_call_killed_in_its_tool_is_unknown() {
    for v in ["0.128.0", "0.171.0"] {
        for scenario in ["killed_in_tool", "killed_in_tool_resume"] {
            let r = calls(&real_file(v, scenario, ""));
            assert_eq!(r.len(), 1, "{v}/{scenario}");
            assert_eq!(r[0]["status"], "unknown", "{v}/{scenario}");
            assert_eq!(r[0]["output_line"], Value::Null);
            assert_eq!(r[0]["exit_code"], Value::Null);
            assert!(r[0]["arguments"].as_str().unwrap().contains("sleep 45"));
        }
    }
    // 0.36 never wrote the killed call at all.
    assert!(calls(&real_file("0.36.0", "killed_in_tool", "")).is_empty());
}

#[test]
fn the_mcp_call_behind_tool_search_is_paired_with_its_namespace() {
    // 0.171 defers MCP tools: tool_search_call → tool_search_output → namespaced call.
    let p = real_file("0.171.0", "mcp", "");
    let r = calls(&p);
    assert_eq!(r.len(), 2);
    let search = &r[0];
    assert_fields(search, json!({"kind": "tool_search_call", "status": "ok"}));
    assert!(search["output_line"].is_u64());
    assert!(search["output"].as_str().unwrap().contains("mcp__weather"));
    let mcp = &r[1];
    assert_fields(
        mcp,
        json!({
            "kind": "function_call",
            "name": "lookup_weather",
            "namespace": "mcp__weather",
            "status": "ok",
            "call_id": "call_mcp",
        }),
    );
    assert!(mcp["output_line"].as_u64().unwrap() > mcp["call_line"].as_u64().unwrap());
    // The output is an array of input_text parts: their texts, joined.
    assert!(mcp["output"]
        .as_str()
        .unwrap()
        .contains("Sunny, 21 C in Paris"));
    // item_completed McpToolCall timed it: {secs: 0, nanos: 1380972}.
    assert_eq!(mcp["duration_ms"], 1);
    // --name matches the bare name and NAMESPACE__NAME.
    for glob in ["lookup_*", "mcp__weather__*"] {
        let f = ndjson_rows(&["calls", "--name", glob], &p);
        assert_eq!(f.len(), 1, "{glob}");
        assert_eq!(f[0]["call_id"], "call_mcp");
    }
}

#[test]
fn web_search_takes_its_own_status() {
    let r = calls(&real_file("0.171.0", "web_search", ""));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["kind"], "web_search_call");
    assert_eq!(r[0]["status"], "ok");
    assert_eq!(r[0]["call_id"], Value::Null);
    assert!(r[0]["arguments"]
        .as_str()
        .unwrap()
        .contains("python f-strings"));
}

#[test]
fn calls_know_their_turn() {
    let p = real_file("0.147.0", "rollback_twice", "");
    let r = calls(&p);
    let t = ndjson_rows(&["turns"], &p);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["turn_index"], 2);
    assert_eq!(r[0]["turn_id"], t[1]["turn_id"]);
}

// --- hand-made broken copies --------------------------------------------------------------

#[test]
fn a_deleted_output_makes_its_call_unknown() {
    let r = calls(&testdata("broken/calls-output-deleted.jsonl"));
    assert_eq!(r.len(), 5);
    assert_fields(
        by_args(&r, "cat missing.txt"),
        json!({"status": "unknown", "output": null, "exit_code": null}),
    );
    assert_eq!(by_args(&r, "exit 3")["status"], "error");
}

#[test]
fn a_deleted_call_makes_its_output_an_orphan() {
    let r = calls(&testdata("broken/calls-call-deleted.jsonl"));
    assert_eq!(r.len(), 5);
    let o: Vec<&Value> = r.iter().filter(|c| c["status"] == "orphan").collect();
    assert_eq!(o.len(), 1);
    assert_fields(
        o[0],
        json!({
            "call_id": "call_fail",
            "kind": "function_call_output",
            "call_line": null,
            "output_line": 30,
            "name": null,
            "arguments": null,
            "arguments_encoding": null,
            // The output text still tells its exit code.
            "exit_code": 3,
        }),
    );
    let s = &ndjson_rows(&["stats"], &testdata("broken/calls-call-deleted.jsonl"))[0];
    assert_eq!(s["tool_calls"], 4);
}

#[test]
fn an_item_completed_proves_the_outcome_of_a_call_whose_output_is_missing() {
    let r = calls(&testdata(
        "broken/calls-output-deleted-item-completed.jsonl",
    ));
    let c = by_args(&r, "cat missing.txt");
    assert_fields(
        c,
        json!({"status": "error", "exit_code": 1, "output_line": null, "output": null}),
    );
    assert!(c["answered_at"].is_string());
}

#[test]
fn an_exec_whose_output_says_the_process_still_runs_is_unknown() {
    let r = calls(&testdata("broken/calls-exec-still-running.jsonl"));
    assert_eq!(r.len(), 5);
    let c = by_args(&r, "cat missing.txt");
    assert_fields(
        c,
        json!({
            "status": "unknown",
            "exit_code": null,
            "duration_ms": null,
            // The output is still there: the model saw it.
            "output_line": 23,
        }),
    );
    assert!(c["output"]
        .as_str()
        .unwrap()
        .contains("Process running with session ID 4242"));
    assert_eq!(by_args(&r, "exit 3")["status"], "error");
}

#[test]
fn a_server_tool_search_output_without_call_is_a_call_of_its_own() {
    let p = testdata("broken/calls-server-tool-search-output-without-call.jsonl");
    let r = calls(&p);
    assert_eq!(r.len(), 2);
    let search = &r[0];
    assert_eq!(search["kind"], "tool_search_output");
    assert_eq!(search["status"], "ok");
    assert_eq!(search["call_id"], "call_search");
    assert_eq!(search["call_line"], 13);
    assert_eq!(search["output_line"], 13);
    assert_eq!(
        (&search["arguments"], &search["arguments_encoding"]),
        (&Value::Null, &Value::Null)
    );
    assert!(search["output"]
        .as_str()
        .unwrap()
        .contains("lookup_weather"));
    // The MCP call it found is paired as before.
    assert_eq!(r[1]["name"], "lookup_weather");
    assert_eq!(r[1]["namespace"], "mcp__weather");
    assert_eq!(r[1]["status"], "ok");
    // Not an orphan: stats and turns count it as a call.
    let s = &ndjson_rows(&["stats"], &p)[0];
    assert_eq!(s["tool_calls"], 2);
    let t = ndjson_rows(&["turns"], &p);
    assert_eq!(t[0]["tool_calls"], 2);
}

#[test]
fn a_call_before_the_first_surviving_turn_start_has_a_turn() {
    let p = testdata("broken/turns-first-task-started-deleted.jsonl");
    let r = calls(&p);
    let t = ndjson_rows(&["turns"], &p);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["status"], "unknown");
    assert_eq!(r[0]["turn_index"], 1);
    assert_eq!(r[0]["turn_id"], t[0]["turn_id"]);
    assert!(r[0]["turn_id"].is_string());
}

// --- formats and filters ------------------------------------------------------------------

#[test]
fn ndjson_output_is_exact_and_a_table_of_set_width_cuts_it() {
    let p = real_file("0.128.0", "shell", "");
    let lines = lines_of(&p);
    let r = calls(&p);
    let ls = by_args(&r, "ls -la");
    let out_line = &lines[ls["output_line"].as_u64().unwrap() as usize - 1];
    assert_eq!(ls["output"], out_line["payload"]["output"]);

    let args = ["calls", "--color", "never", "--width", "60"];
    let args = [&args[..], &["--columns", "status,name,exit_code,output"]].concat();
    let out = output(&[&args[..], &[p.to_str().unwrap()]].concat(), 0);
    let text = String::from_utf8(out.stdout).unwrap();
    let body: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("exec_command"))
        .collect();
    assert_eq!(body.len(), 5, "{text}");
    assert!(body.iter().any(|l| l.contains('…')), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 60), "{text}");
    assert!(
        text.contains("3 ok, 2 error, 0 unknown, 0 orphan"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn statuses_are_colored_when_asked() {
    let p = real_file("0.128.0", "shell", "");
    rollscope()
        .args(["calls", "--color", "always", p.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{1b}[31merror"));
}

#[test]
fn filters_by_status_kind_and_name() {
    let p = real_file("0.171.0", "apply_patch", "");
    let p = p.to_str().unwrap();
    let ids = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["calls", "--format", "ndjson"];
        a.extend_from_slice(args);
        a.push(p);
        rows(&a, 0)
            .iter()
            .map(|r| r["call_id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&["--status", "error"]), ["call_patch_bad"]);
    assert_eq!(ids(&["--status", "ok,unknown"]), ["call_patch", "call_run"]);
    assert_eq!(ids(&["--kind", "function_call"]), ["call_run"]);
    assert_eq!(
        ids(&["--kind", "custom_tool_call,web_search_call"]),
        ["call_patch", "call_patch_bad"]
    );
    assert_eq!(ids(&["--name", "exec_*"]), ["call_run"]);
    assert_eq!(
        ids(&["--name", "apply_patch", "--status", "ok"]),
        ["call_patch"]
    );
    assert!(ids(&["--name", "nothing*"]).is_empty());
    // An orphan has its output's kind.
    let b = testdata("broken/calls-call-deleted.jsonl");
    let r = ndjson_rows(&["calls", "--kind", "function_call_output"], &b);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["status"], "orphan");
}

#[test]
fn bad_filters_are_usage_errors() {
    rollscope()
        .args(["calls", "--kind", "shell_call", "x.jsonl"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("function_call").and(predicate::str::contains("possible")),
        );
    rollscope()
        .args(["calls", "--status", "fine", "x.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("orphan"));
    rollscope()
        .args(["calls", "--name", "[oops", "x.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid glob"));
}

/// A made-up session whose texts are large (so a plain file's are read back from it when
/// the rows are written) and full of escapes; its identity comes only after the calls.
fn late_identity_session() -> (String, String, String) {
    let ts = "2026-03-01T10:00:00.000Z";
    let args = format!(
        r#"{{"cmd":"printf '%s' \"{}\" | tee /tmp/out/é"}}"#,
        "a\\\\b".repeat(100)
    );
    let output = format!(
        "Process exited with code 3\nWall time: 0.5 seconds\nOutput:\n{}",
        "quote \" backslash \\ tab \t del \u{7f} ctl \u{1} é ☃ \u{2028}\n".repeat(200)
    );
    let item =
        |p: String| format!(r#"{{"timestamp":"{ts}","type":"response_item","payload":{p}}}"#);
    let lines = [
        item(format!(
            r#"{{"type":"function_call","name":"exec_command","arguments":{},"call_id":"c1"}}"#,
            serde_json::to_string(&args).unwrap()
        )),
        // Escapes serde_json would not write (`\/`, `\u00e9`): the text is not copied as is.
        item(format!(
            r#"{{"type":"function_call_output","call_id":"c1","output":"{}\/\u00e9{}"}}"#,
            serde_json::to_string(&output).unwrap().trim_matches('"'),
            "x".repeat(300)
        )),
        item(format!(
            r#"{{"type":"function_call_output","call_id":"stray","output":{}}}"#,
            serde_json::to_string(&output).unwrap()
        )),
        format!(
            r#"{{"timestamp":"{ts}","type":"session_meta","payload":{{"id":"late-thread","timestamp":"{ts}"}}}}"#
        ),
    ];
    (lines.join("\n") + "\n", args, output)
}

#[test]
fn rows_read_back_from_a_plain_file_equal_the_rows_of_the_same_bytes_on_stdin() {
    let (text, args, output) = late_identity_session();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rollout-late.jsonl");
    std::fs::write(&file, &text).unwrap();
    for format in ["ndjson", "json", "table"] {
        let from_file = rollscope()
            .args(["calls", "--format", format, file.to_str().unwrap()])
            .output()
            .unwrap();
        let from_stdin = rollscope()
            .args(["calls", "--format", format, "-"])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert_eq!(from_file.status.code(), Some(0), "{format}");
        assert_eq!(from_stdin.status.code(), Some(0), "{format}");
        let path = file.to_str().unwrap();
        let mut expected = String::from_utf8(from_stdin.stdout).unwrap();
        if format != "table" {
            let quoted = serde_json::to_string(path).unwrap();
            expected = expected.replace(r#""path":"-""#, &format!(r#""path":{quoted}"#));
        }
        assert_eq!(
            String::from_utf8(from_file.stdout).unwrap(),
            expected,
            "{format}"
        );
    }
    // The rows the spec says, whatever the input.
    let r = calls(&file);
    assert_eq!(r.len(), 2);
    // The first session_meta names the file, even when it comes after the calls.
    for row in &r {
        assert_eq!(row["session_id"], "late-thread");
        assert_eq!(row["thread_id"], "late-thread");
    }
    assert_eq!(r[0]["status"], "error");
    assert_eq!(r[0]["exit_code"], 3);
    assert_eq!(r[0]["duration_ms"], 500);
    assert_eq!(r[0]["arguments"], args.as_str());
    assert_eq!(
        r[0]["output"],
        format!("{output}/é{}", "x".repeat(300)).as_str()
    );
    assert_eq!(
        (r[1]["status"].as_str(), r[1]["output_line"].as_u64()),
        (Some("orphan"), Some(3))
    );
    assert_eq!(r[1]["output"], output.as_str());
}

#[cfg(unix)]
#[test]
fn a_fifo_named_on_the_command_line_gives_the_rows_of_its_file() {
    // A pipe cannot be read twice: its texts are held, not read again where they were
    // (which would fail, or wait for a writer that never comes).
    // A file with an output long enough to be left in a regular file.
    let file = real_file("0.171.0", "shell", ".jsonl");
    let want = rollscope()
        .args(["calls", "--format", "ndjson"])
        .arg(&file)
        .output()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("rollout-2026-01-01T00-00-00-x.jsonl");
    let Some(mkfifo) = tool("mkfifo", "no FIFO was read") else {
        return;
    };
    let made = std::process::Command::new(mkfifo).arg(&fifo).status();
    assert!(made.unwrap().success(), "mkfifo {}", fifo.display());
    let writer = {
        let (fifo, file) = (fifo.clone(), file.clone());
        std::thread::spawn(move || std::fs::write(fifo, std::fs::read(file).unwrap()).unwrap())
    };
    let got = rollscope()
        .args(["calls", "--format", "ndjson"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    writer.join().unwrap();
    assert_eq!(got.status.code(), Some(0));
    let path = |p: &Path| p.display().to_string();
    let want: Vec<Value> = ndjson(&want.stdout)
        .into_iter()
        .map(|mut r| {
            r["path"] = Value::String(path(&fifo));
            r
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(ndjson(&got.stdout), want);
}

#[test]
fn a_json_output_followed_by_a_form_feed_is_not_read_as_json() {
    // A form feed is not JSON white space: the text is no JSON, its metadata proves nothing.
    let rows = calls(&testdata(
        "broken/calls-json-output-trailing-form-feed.jsonl",
    ));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[0]["exit_code"], Value::Null);
    assert_eq!(rows[0]["duration_ms"], Value::Null);
}

#[test]
fn a_turn_context_field_beyond_f64_does_not_hide_its_other_fields() {
    // turns, calls and stats read the turn_context field by field, and agree.
    let file = testdata("broken/turn-context-policy-beyond-f64.jsonl");
    let turns = ndjson_rows(&["turns"], &file);
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0]["turn_id"], "T1");
    assert_eq!(turns[0]["model"], "gpt-x");
    let calls = calls(&file);
    assert_eq!(calls[0]["turn_id"], "T1");
    let by_model = ndjson_rows(&["stats", "--by", "model"], &file);
    assert_eq!(by_model[0]["group"], "gpt-x");
}
