//! `rollscope check-ordinal`: the acceptance lines of issue 4.
//!
//! Expected values come from the spec and from the files themselves (read here with
//! serde_json, independently of rollscope's decoder), never from what the code printed.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::util::*;

const FORK_PARENT: &str = "rollout-2026-11-29T12-00-55-01a2272d-fced-7f63-8ff0-e3a6e151dcbb.jsonl";
const FORK_CHILD: &str = "rollout-2026-11-29T12-00-55-01a2272d-fdfa-7c33-abe8-a07f91b0fc53.jsonl";
const REVERT_OLD: &str = "rollout-2026-11-29T12-31-25-01a22749-ec63-7791-aa7e-90f634c94a03.jsonl";
const REVERT_NEW: &str = "rollout-2026-11-29T12-31-26-01a22749-ec63-7791-aa7e-90f634c94a03_01a22749-ed72-7ef2-83d3-0a2ada3ba658.jsonl";

fn broken(rel: &str) -> PathBuf {
    testdata(&format!("broken/{rel}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `check-ordinal --format ndjson ARGS`, asserting the exit code.
fn check(args: &[&str], code: i32) -> Vec<Value> {
    let mut v = vec!["check-ordinal", "--format", "ndjson"];
    v.extend_from_slice(args);
    rows(&v, code)
}

/// The one row for one path.
fn check_one(path: &Path, code: i32) -> Value {
    let r = check(&[s(path)], code);
    assert_eq!(r.len(), 1, "{r:?}");
    r.into_iter().next().unwrap()
}

fn problems(row: &Value) -> &Vec<Value> {
    row["problems"].as_array().expect("problems is an array")
}

/// Exactly one problem, and it is `(kind, severity, line, expected, found)`.
fn assert_one_problem(
    row: &Value,
    kind: &str,
    severity: &str,
    line: u64,
    expected: Option<u64>,
    found: Option<u64>,
) -> Value {
    let p = problems(row);
    assert_eq!(p.len(), 1, "{row:#}");
    let p = &p[0];
    assert_eq!(p["kind"], kind, "{p:#}");
    assert_eq!(p["severity"], severity, "{p:#}");
    assert_eq!(p["line"], line, "{p:#}");
    assert_eq!(p["expected"], json_opt(expected), "{p:#}");
    assert_eq!(p["found"], json_opt(found), "{p:#}");
    assert!(p["message"].as_str().is_some_and(|m| !m.is_empty()));
    p.clone()
}

fn json_opt(v: Option<u64>) -> Value {
    v.map_or(Value::Null, Value::from)
}

/// The decoded bytes of a rollout (plain or zstd).
fn decoded(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap();
    if raw.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
        let mut out = Vec::new();
        zstd::stream::read::Decoder::new(&raw[..])
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    }
}

/// What a file says, read independently: `(history_mode, records, ordinals, line offsets)`.
struct Facts {
    paginated: bool,
    records: u64,
    ordinals: Vec<u64>,
    /// Byte offset of each line start.
    offsets: Vec<u64>,
    base_end: Option<u64>,
    len: u64,
}

fn facts(path: &Path) -> Facts {
    let data = decoded(path);
    let mut f = Facts {
        paginated: false,
        records: 0,
        ordinals: Vec::new(),
        offsets: Vec::new(),
        base_end: None,
        len: data.len() as u64,
    };
    let mut off = 0u64;
    let mut meta_seen = false;
    for line in data.split_inclusive(|&b| b == b'\n') {
        f.offsets.push(off);
        off += line.len() as u64;
        let v: Value = serde_json::from_slice(line).expect("real lines are JSON");
        f.records += 1;
        if let Some(o) = v["ordinal"].as_u64() {
            f.ordinals.push(o);
        }
        if v["type"] == "session_meta" && !meta_seen {
            meta_seen = true;
            f.paginated = v["payload"]["history_mode"] == "paginated";
            f.base_end = v["payload"]["history_base"]["end_ordinal_exclusive"].as_u64();
        }
    }
    f
}

/// A real file is clean and its row matches what the file says.
fn assert_clean_row(row: &Value) {
    let path = PathBuf::from(row["path"].as_str().unwrap());
    let f = facts(&path);
    assert_eq!(row["ok"], true, "{row:#}");
    assert!(problems(row).is_empty(), "{row:#}");
    assert_eq!(row["records"], f.records, "{row:#}");
    if f.paginated {
        assert_eq!(row["history_mode"], "paginated");
        assert_eq!(
            f.ordinals.len() as u64,
            f.records,
            "every real paginated line has one"
        );
        let first = f.ordinals[0];
        let last = *f.ordinals.last().unwrap();
        assert_eq!(row["first"], first);
        assert_eq!(row["last"], last);
        assert_eq!(row["expected_first"], f.base_end.unwrap_or(0));
        assert_eq!(row["next_on_resume"], last + 1);
    } else {
        assert_eq!(row["history_mode"], "legacy");
        for k in ["first", "last", "expected_first", "next_on_resume"] {
            assert_eq!(row[k], Value::Null, "{k}: {row:#}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Acceptance 1: real files check clean.

#[test]
fn every_real_scenario_checks_clean() {
    let scenarios = scenarios_under(&testdata("real"));
    assert!(scenarios.len() >= 30, "{scenarios:?}");
    for dir in scenarios {
        let files = rollouts_under(&dir);
        let rows = check(&[s(&dir)], 0);
        assert_eq!(rows.len(), files.len(), "{}", dir.display());
        for row in &rows {
            assert_clean_row(row);
        }
    }
}

#[test]
fn every_real_file_alone_checks_clean_and_finds_its_source_by_folder() {
    for file in rollouts_under(&testdata("real")) {
        let row = check_one(&file, 0);
        assert_clean_row(&row);
    }
}

#[test]
fn the_whole_real_tree_at_once_checks_clean() {
    let rows = check(&[s(&testdata("real"))], 0);
    assert_eq!(rows.len(), rollouts_under(&testdata("real")).len());
    assert!(rows
        .iter()
        .all(|r| r["ok"] == true && problems(r).is_empty()));
}

#[test]
fn shared_corpus_checks_clean() {
    let Some(corpus) = shared_corpus() else {
        return;
    };
    let rows = check(&[s(&corpus)], 0);
    assert_eq!(rows.len(), rollouts_under(&corpus).len());
    for row in &rows {
        assert_clean_row(row);
    }
    // And each file alone (forks and reverts find their source through the folder).
    for file in rollouts_under(&corpus) {
        assert_clean_row(&check_one(&file, 0));
    }
}

#[test]
fn real_fork_starts_at_its_history_base_end() {
    let row = check_one(
        &real("0.171.0", "fork").join(format!("sessions/2026/11/29/{FORK_CHILD}")),
        0,
    );
    assert_eq!(row["expected_first"], 14);
    assert_eq!(row["first"], 14);
    assert!(problems(&row).is_empty(), "{row:#}");
}

#[test]
fn real_revert_file_finds_its_source_and_starts_at_32() {
    let dir = real("0.171.0", "revert").join("sessions/2026/11/29");
    let row = check_one(&dir.join(REVERT_NEW), 0);
    assert_eq!(row["expected_first"], 32);
    assert_eq!(row["first"], 32);
    assert!(problems(&row).is_empty(), "{row:#}");
}

// ---------------------------------------------------------------------------------------
// Acceptance 2: hand-made broken copies.

#[test]
fn deleted_line_is_a_gap_warning_exit_0_and_an_error_with_deny_gap() {
    let path = broken("ordinal-line-deleted.jsonl");
    // Line 9 of the real file (ordinal 8) is gone: line 9 now holds ordinal 9.
    let row = check_one(&path, 0);
    assert_one_problem(&row, "gap", "warning", 9, Some(8), Some(9));
    assert_eq!(row["ok"], true);
    assert_eq!(row["next_on_resume"], 16);

    let denied = check(&["--deny", "gap", s(&path)], 1);
    assert_one_problem(&denied[0], "gap", "error", 9, Some(8), Some(9));
    assert_eq!(denied[0]["ok"], false);
}

/// A duplicate is a warning under every Codex that reads ordinals: from 0.154 the
/// projection skips it, from 0.146 to 0.153 a client's view stops there; the model is sent
/// everything (`docs/codex-versions.md`). `--deny non-monotonic` makes it an error.
#[test]
fn duplicated_line_is_a_duplicate() {
    let path = broken("ordinal-line-duplicated.jsonl");
    let row = check_one(&path, 0);
    // Lines 9 and 10 both carry ordinal 8; 9 is due at line 10.
    assert_one_problem(&row, "duplicate", "warning", 10, Some(9), Some(8));
    assert_eq!(row["ok"], true);
    let p = problems(&row)[0]["message"].as_str().unwrap().to_string();
    assert!(p.contains("Codex 0.171.0 skips it"), "{p}");
    let old = check(&["--codex", "0.153", s(&path)], 0);
    let p = problems(&old[0])[0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(p.contains("a client is shown no turn"), "{p}");
    let denied = check(&["--deny", "non-monotonic", s(&path)], 1);
    assert_one_problem(&denied[0], "duplicate", "error", 10, Some(9), Some(8));
    assert_eq!(denied[0]["ok"], false);
}

/// Codex 0.154+ meets the jump first (it logs `skipping missing rollout ordinal range` at
/// line 9), then skips line 10 as regressed (`testdata/versions/ordinal-swapped/`); 0.146 to
/// 0.153 stop at the jump; earlier versions read no ordinal, and only the decrease is said.
#[test]
fn swapped_lines_are_a_jump_then_a_decrease() {
    let path = broken("ordinal-lines-swapped.jsonl");
    let row = check_one(&path, 0);
    let p = problems(&row);
    assert_eq!(p.len(), 2, "{row:#}");
    // Line 9 holds 9 where 8 is due; line 10 holds 8: the highest so far is 9, so 10 is due.
    assert_fields(
        &p[0],
        json!({"kind": "gap", "severity": "warning", "line": 9, "expected": 8, "found": 9}),
    );
    assert_fields(
        &p[1],
        json!({"kind": "decrease", "severity": "warning", "line": 10, "expected": 10, "found": 8}),
    );
    let old = check(&["--codex", "0.128", s(&path)], 0);
    assert_one_problem(&old[0], "decrease", "info", 10, Some(10), Some(8));
}

#[test]
fn a_paginated_file_codex_cannot_read_the_head_of_is_a_start_error() {
    // The session_meta line cut short: no mode from it, but the ordinals say paginated.
    let row = check_one(&broken("ordinal-session-meta-cut.jsonl"), 1);
    assert_eq!(row["history_mode"], "paginated");
    assert_eq!(row["ok"], false);
    assert_one_problem(&row, "start", "error", 1, None, None);
    assert_eq!(row["next_on_resume"], 16);
    // A BOM: we read the file, Codex fails on its first line.
    let row = check_one(&broken("ordinal-bom.jsonl"), 1);
    assert_eq!(row["history_mode"], "paginated");
    assert_one_problem(&row, "start", "error", 1, None, None);
}

#[test]
fn last_ordinal_removed_is_missing_and_resume_fails() {
    let row = check_one(&broken("ordinal-last-missing.jsonl"), 1);
    assert_one_problem(&row, "missing", "error", 16, Some(15), None);
    assert_eq!(row["next_on_resume"], Value::Null);
    assert_eq!(row["last"], 14);
}

#[test]
fn torn_last_line_is_tail_unparseable_naming_the_reused_ordinal() {
    let path = broken("ordinal-torn-last-line.jsonl");
    let out = output(&["check-ordinal", "--format", "ndjson", s(&path)], 1);
    let row = &ndjson(&out.stdout)[0];
    // Line 16 (ordinal 15) is torn; Codex resumes after line 15 (ordinal 14) and writes 15
    // again.
    let p = assert_one_problem(row, "tail_unparseable", "error", 16, Some(15), Some(15));
    assert!(p["message"].as_str().unwrap().contains("15 again"), "{p:#}");
    assert_eq!(row["next_on_resume"], 15);
    assert_eq!(row["last"], 15);
    // The torn line itself is also reported by the reader, on stderr.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ordinal-torn-last-line.jsonl:16: torn last line"),
        "{err}"
    );
}

#[test]
fn ordinal_in_legacy_file_is_unexpected_warning() {
    let row = check_one(&broken("ordinal-in-legacy.jsonl"), 0);
    assert_one_problem(&row, "unexpected", "warning", 6, None, Some(5));
    assert_eq!(row["history_mode"], "legacy");
    assert_eq!(
        (row["first"].clone(), row["last"].clone()),
        (5.into(), 5.into())
    );
    assert_eq!(row["expected_first"], Value::Null);
    assert_eq!(row["next_on_resume"], Value::Null);
}

#[test]
fn fork_with_end_byte_offset_off_by_one_is_a_base_error() {
    let dir = broken("fork-offset-off-by-one");
    // The parent holds ordinals 0..13 and the cutoff is 14: the boundary is its end.
    let parent_len = facts(&dir.join(FORK_PARENT)).len;
    assert_eq!(parent_len, 41041);
    let rows = check(&[s(&dir)], 1);
    assert_eq!(rows.len(), 2);
    assert!(problems(&rows[0]).is_empty(), "{:#}", rows[0]);
    assert!(rows[1]["path"].as_str().unwrap().ends_with(FORK_CHILD));
    assert_one_problem(
        &rows[1],
        "base",
        "error",
        1,
        Some(parent_len),
        Some(parent_len - 1),
    );
    // The child alone finds the same source through its folder.
    let alone = check_one(&dir.join(FORK_CHILD), 1);
    assert_eq!(without_path(&alone), without_path(&rows[1]));
}

#[test]
fn fork_whose_source_is_absent_is_reported_not_passed() {
    let row = check_one(&broken("fork-source-absent").join(FORK_CHILD), 0);
    let p = assert_one_problem(&row, "base", "warning", 1, None, None);
    let msg = p["message"].as_str().unwrap();
    assert!(
        msg.contains("01a2272d-fced-7f63-8ff0-e3a6e151dcbb"),
        "{msg}"
    );
    assert!(msg.contains("not found"), "{msg}");
    assert_eq!(row["ok"], true);
}

#[test]
fn table_lists_problems_as_path_line_kind_message_then_a_summary() {
    let path = broken("ordinal-line-duplicated.jsonl");
    let deny = ["check-ordinal", "--deny", "non-monotonic"];
    let colored = output(&[&deny[..], &["--color", "always", s(&path)]].concat(), 1);
    assert!(String::from_utf8_lossy(&colored.stdout).contains('\x1b'));
    let out = output(&[&deny[..], &["--color", "never", s(&path)]].concat(), 1);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with(&format!("{}:10: duplicate: ", s(&path))),
        "{text}"
    );
    assert!(
        lines[1].starts_with(&format!("{}: paginated", s(&path))),
        "{text}"
    );
    assert!(!text.contains('\x1b'));
}

#[test]
fn clean_file_table_is_one_summary_line() {
    let file = real_file("0.171.0", "qa", "rollout-");
    let out = output(&["check-ordinal", "--color", "never", s(&file)], 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.trim_end().ends_with(": ok"), "{text}");
}

#[test]
fn a_problem_has_exactly_the_documented_fields() {
    // The row's own fields are checked for every subcommand by `contract.rs`.
    let row = check_one(&broken("ordinal-line-deleted.jsonl"), 0);
    let p = problems(&row)[0].as_object().unwrap();
    let pkeys: Vec<&str> = p.keys().map(String::as_str).collect();
    assert_eq!(
        pkeys,
        [
            "kind",
            "severity",
            "line",
            "byte_offset",
            "expected",
            "found",
            "message"
        ]
    );
    // Line 9's offset is the sum of the first 8 lines' lengths.
    assert_eq!(
        p["byte_offset"],
        facts(&broken("ordinal-line-deleted.jsonl")).offsets[8]
    );
}

// ---------------------------------------------------------------------------------------
// Exit codes.

#[test]
fn io_error_beats_findings() {
    let missing = broken("ordinal-last-missing.jsonl");
    let rows = check(&[s(&missing), "testdata/no-such-file.jsonl"], 2);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["ok"], false);
}

#[test]
fn unknown_deny_kind_is_a_usage_error() {
    output(&["check-ordinal", "--deny", "duplicate", "-"], 2);
}

/// Copy the real fork (or the broken one) into a temp dir, compressing the chosen files.
fn fork_copy(src_dir: &Path, zst_parent: bool, zst_child: bool) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let place = |name: &str, zst: bool| {
        let from = src_dir.join(name);
        if zst {
            compress_into(&from, tmp.path())
        } else {
            let to = tmp.path().join(name);
            std::fs::copy(&from, &to).unwrap();
            to
        }
    };
    place(FORK_PARENT, zst_parent);
    let child = place(FORK_CHILD, zst_child);
    (tmp, child)
}

#[test]
fn zst_fork_source_is_checked_on_decoded_bytes() {
    let real_dir = real("0.171.0", "fork").join("sessions/2026/11/29");
    let plain = check_one(&real_dir.join(FORK_CHILD), 0);
    for (zp, zc) in [(true, false), (false, true), (true, true)] {
        let (_tmp, child) = fork_copy(&real_dir, zp, zc);
        let row = check_one(&child, 0);
        assert_eq!(
            without_path(&row),
            without_path(&plain),
            "zst parent {zp}, child {zc}"
        );
    }
    // The off-by-one stays off by one, in decoded bytes, with a compressed source.
    let broken_dir = broken("fork-offset-off-by-one");
    let plain = check_one(&broken_dir.join(FORK_CHILD), 1);
    let (_tmp, child) = fork_copy(&broken_dir, true, false);
    let row = check_one(&child, 1);
    // The same row, but for paths (the message names the source file found).
    let strip = |r: &Value| {
        let mut r = without_path(r);
        for p in r["problems"].as_array_mut().unwrap() {
            p.as_object_mut().unwrap().remove("message");
        }
        r
    };
    assert_eq!(strip(&row), strip(&plain));
    assert_one_problem(&row, "base", "error", 1, Some(41041), Some(41040));
}

// ---------------------------------------------------------------------------------------
// Finding the source: $CODEX_HOME, archived_sessions, `_<rollout>` names, stdin.

#[test]
fn source_is_found_under_codex_home_sessions() {
    let home = tempfile::tempdir().unwrap();
    let day = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&day).unwrap();
    let real_dir = real("0.171.0", "fork").join("sessions/2026/11/29");
    std::fs::copy(real_dir.join(FORK_PARENT), day.join(FORK_PARENT)).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let child = elsewhere.path().join(FORK_CHILD);
    std::fs::copy(real_dir.join(FORK_CHILD), &child).unwrap();

    // Without CODEX_HOME: not found, a warning.
    let row = check_one(&child, 0);
    assert_one_problem(&row, "base", "warning", 1, None, None);

    // With it: found and clean.
    let out = rollscope()
        .env("CODEX_HOME", home.path())
        .args(["check-ordinal", "--format", "ndjson", s(&child)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let row = &ndjson(&out.stdout)[0];
    assert!(problems(row).is_empty(), "{row:#}");

    // Standard input finds it there too.
    let out = rollscope()
        .env("CODEX_HOME", home.path())
        .args(["check-ordinal", "--format", "ndjson", "-"])
        .pipe_stdin(real_dir.join(FORK_CHILD))
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let row = &ndjson(&out.stdout)[0];
    assert_eq!(row["path"], "-");
    assert!(problems(row).is_empty(), "{row:#}");
}

/// A child continuing the real revert file (rollout id after `_`) at `end`, with the given
/// `end_byte_offset`.
fn child_of_revert(end: u64, offset: u64) -> String {
    let meta = serde_json::json!({
        "timestamp": "2026-11-29T13:00:00.000Z",
        "ordinal": end,
        "type": "session_meta",
        "payload": {
            "id": "01a22800-0000-7000-8000-000000000001",
            "history_mode": "paginated",
            "history_base": {
                "thread_id": "01a22749-ed72-7ef2-83d3-0a2ada3ba658",
                "end_ordinal_exclusive": end,
                "end_byte_offset": offset,
            },
        },
    });
    let ev = serde_json::json!({
        "timestamp": "2026-11-29T13:00:00.001Z",
        "ordinal": end + 1,
        "type": "event_msg",
        "payload": {"type": "task_started"},
    });
    format!("{meta}\n{ev}\n")
}

#[test]
fn source_named_thread_underscore_rollout_is_found_in_archived_sessions() {
    let home = tempfile::tempdir().unwrap();
    let archived = home.path().join("archived_sessions");
    std::fs::create_dir_all(&archived).unwrap();
    let src = real("0.171.0", "revert")
        .join("sessions/2026/11/29")
        .join(REVERT_NEW);
    std::fs::copy(&src, archived.join(REVERT_NEW)).unwrap();
    // The revert's own source, the file it reverts (its lineage is followed too).
    for f in std::fs::read_dir(src.parent().unwrap()).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, archived.join(f.file_name().unwrap())).unwrap();
    }
    // Cut after ordinal 39: the boundary is the line holding ordinal 40.
    let f = facts(&src);
    let idx = f.ordinals.iter().position(|&o| o == 40).unwrap();
    let boundary = f.offsets[idx];

    let work = tempfile::tempdir().unwrap();
    let child = work
        .path()
        .join("rollout-2026-11-29T13-00-00-01a22800-0000-7000-8000-000000000001.jsonl");
    let run = |offset: u64, code: i32| -> Value {
        std::fs::write(&child, child_of_revert(40, offset)).unwrap();
        let out = rollscope()
            .env("CODEX_HOME", home.path())
            .args(["check-ordinal", "--format", "ndjson", s(&child)])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ndjson(&out.stdout).remove(0)
    };
    let ok = run(boundary, 0);
    assert!(problems(&ok).is_empty(), "{ok:#}");
    assert_eq!(ok["expected_first"], 40);
    // The previous line's start: just after a newline, but not the boundary.
    let wrong = run(f.offsets[idx - 1], 1);
    assert_one_problem(
        &wrong,
        "base",
        "error",
        1,
        Some(boundary),
        Some(f.offsets[idx - 1]),
    );
    // A cutoff beyond the source's ordinals.
    std::fs::write(&child, child_of_revert(90, f.len)).unwrap();
    let out = rollscope()
        .env("CODEX_HOME", home.path())
        .args(["check-ordinal", "--format", "ndjson", s(&child)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let row = &ndjson(&out.stdout)[0];
    let last = *f.ordinals.last().unwrap();
    assert_one_problem(row, "base", "error", 1, Some(89), Some(last));
}

#[test]
fn legacy_source_is_a_base_error() {
    // The real legacy copy-fork parent, under a name declaring the id a child points at.
    let work = tempfile::tempdir().unwrap();
    let legacy = real_file("0.171.0", "legacy_appserver", "rollout-");
    let id = "01a22800-0000-7000-8000-0000000000aa";
    std::fs::copy(
        &legacy,
        work.path()
            .join(format!("rollout-2026-11-29T12-00-00-{id}.jsonl")),
    )
    .unwrap();
    let meta = serde_json::json!({
        "timestamp": "t", "ordinal": 3, "type": "session_meta",
        "payload": {"id": "c", "history_mode": "paginated",
            "history_base": {"thread_id": id, "end_ordinal_exclusive": 3, "end_byte_offset": 0}},
    });
    let child = work
        .path()
        .join("rollout-2026-11-29T13-00-00-01a22800-0000-7000-8000-0000000000bb.jsonl");
    std::fs::write(&child, format!("{meta}\n")).unwrap();
    let row = check_one(&child, 1);
    let p = assert_one_problem(&row, "base", "error", 1, None, None);
    assert!(
        p["message"].as_str().unwrap().contains("not paginated"),
        "{p:#}"
    );
}

#[test]
fn revert_pair_copied_anywhere_still_checks_clean() {
    let work = tempfile::tempdir().unwrap();
    let dir = real("0.171.0", "revert").join("sessions/2026/11/29");
    for n in [REVERT_OLD, REVERT_NEW] {
        std::fs::copy(dir.join(n), work.path().join(n)).unwrap();
    }
    let rows = check(&[s(work.path())], 0);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| problems(r).is_empty()), "{rows:#?}");
}

#[test]
fn a_file_whose_read_fails_part_way_is_never_called_ok() {
    // A real paginated rollout, compressed, its second half gone: the records before the
    // cut decode, then zstd fails. What the rest held is unknown, so the file is not ok
    // (its error is on stderr, and the exit is 2) in either format.
    let work = tempfile::tempdir().unwrap();
    let plain = std::fs::read(real_file("0.171.0", "revert", REVERT_OLD)).unwrap();
    let packed = zstd::encode_all(&plain[..], 3).unwrap();
    let cut = work.path().join(format!("{REVERT_OLD}.zst"));
    std::fs::write(&cut, &packed[..packed.len() / 2]).unwrap();
    let out = rollscope()
        .args(["check-ordinal", "--format", "ndjson"])
        .arg(&cut)
        .assert()
        .code(2);
    let rows = ndjson(&out.get_output().stdout);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["ok"], false, "{:#}", rows[0]);
    let human = rollscope().arg("check-ordinal").arg(&cut).assert().code(2);
    let text = String::from_utf8_lossy(&human.get_output().stdout).into_owned();
    assert!(text.trim_end().ends_with(": not read to its end"), "{text}");
    let err = String::from_utf8_lossy(&human.get_output().stderr).into_owned();
    assert!(err.contains("incomplete frame"), "{err}");
}

/// Issue #24's named change: `check-ordinal` prints its problems in `lint`'s finding
/// formats too. `ordinal-line-duplicated.jsonl` repeats ordinal 8 at line 10
/// (`testdata/broken/README.md`): one `ordinal.non-monotonic` error there, exit 1 in every
/// format; `human` and `concise` keep the file's summary line.
#[test]
fn problems_print_in_lints_finding_formats() {
    let path = broken("ordinal-line-duplicated.jsonl");
    let p = s(&path);
    let text = |format: &str| {
        let args = [
            "check-ordinal",
            "--deny",
            "non-monotonic",
            "--format",
            format,
            p,
        ];
        let out = output(&args, 1);
        String::from_utf8(out.stdout).unwrap()
    };
    let summary = format!("{p}: paginated, 17 records, ordinals 0..15");
    let human = text("human");
    assert!(
        human.starts_with("error[ordinal.non-monotonic]: ordinal 8 repeats"),
        "{human}"
    );
    assert!(human.contains(&format!("--> {p}:10:1")), "{human}");
    assert!(human.contains("= help: "), "{human}");
    assert!(human.contains(&summary), "{human}");
    let concise = text("concise");
    let lines: Vec<&str> = concise.lines().collect();
    assert_eq!(lines.len(), 2, "{concise}");
    assert!(lines[0].starts_with(&format!("{p}:10:1: error[ordinal.non-monotonic] ")));
    assert!(lines[1].starts_with(&summary));
    let github = text("github");
    // Annotations name the file from the root, the current directory (the project's).
    let rel = Path::new(p)
        .strip_prefix(root())
        .unwrap()
        .display()
        .to_string();
    assert!(
        github.starts_with(&format!(
            "::error file={rel},line=10,title=ordinal.non-monotonic (Codex 0.171.0)::"
        )),
        "{github}"
    );
    assert_eq!(github.lines().count(), 1);
    let log: Value = serde_json::from_str(&text("sarif")).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "ordinal.non-monotonic");
    assert_eq!(results[0]["level"], "error");
    let region = &results[0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], 10);
}

/// One lineage reader (issue #25): a fork whose source is missing is an error for
/// `check-ordinal`, `lint` and `replay --view state` alike when a Codex home was searched
/// (Codex looks there, and refuses the resume), and a warning for all three when there was
/// none to search (the lineage could not be checked). `check-ordinal` said "warning" for
/// both before.
#[test]
fn every_reader_judges_a_missing_fork_source_alike() {
    let child = testdata("lint/history_base.byte-offset/fires")
        .join("rollout-2026-11-29T12-00-55-01a2272d-fdfa-7c33-abe8-a07f91b0fc53.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(child.file_name().unwrap());
    std::fs::copy(&child, &copy).unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join("sessions")).unwrap();
    for (codex_home, severity, ends) in [
        (home.clone(), "error", "refuses the resume"),
        (
            dir.path().join("no-home"),
            "warning",
            "the lineage could not be checked",
        ),
    ] {
        let text = |args: &[&str]| -> String {
            let out = rollscope()
                .env("CODEX_HOME", &codex_home)
                .args(args)
                .arg(&copy)
                .output()
                .unwrap();
            assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        let run = |args: &[&str]| -> Vec<Value> { ndjson(text(args).as_bytes()) };
        let co = run(&["check-ordinal", "--format", "ndjson"]);
        let problems = co[0]["problems"].as_array().unwrap();
        let lint = run(&["lint", "--format", "ndjson", "--select", "history_base"]);
        let state = text(&["replay", "--view", "state", "--format", "concise"]);
        let said: Vec<(String, String)> = problems
            .iter()
            .chain(lint.iter())
            .map(|p| (p["severity"].to_string(), p["message"].to_string()))
            .collect();
        assert_eq!(said.len(), 2, "{said:?}");
        for (sev, message) in &said {
            assert_eq!(sev.trim_matches('"'), severity, "{said:?}");
            assert!(message.trim_matches('"').ends_with(ends), "{message}");
            assert!(message.contains("not found in"), "{message}");
        }
        assert_eq!(said[0], said[1]);
        let line = state
            .lines()
            .find(|l| l.contains("history_base.resolve"))
            .unwrap_or_else(|| panic!("{state}"));
        assert!(
            line.contains(&format!("{severity}[history_base.resolve]")),
            "{line}"
        );
        assert!(line.ends_with(ends), "{line}");
    }
}

/// Over many files, the lines end with the run's total on stderr, as `lint`'s do (on
/// 7313e33 a whole home gave one `…: ok` line per file and no total): counted from the
/// rows' problems, in every format people read; none where tools read (rows, annotations,
/// SARIF). `table`, the default's old name, is still taken.
#[test]
fn the_lines_end_with_the_runs_total() {
    let dirs = [testdata("real"), broken("fork-offset-off-by-one")];
    let paths: Vec<&str> = dirs.iter().map(|d| s(d)).collect();
    let rows = check(&paths, 1);
    let count = |sev: &str| {
        rows.iter()
            .flat_map(problems)
            .filter(|p| p["severity"] == sev)
            .count()
    };
    let (errors, warnings) = (count("error"), count("warning"));
    assert!(
        errors >= 1 && rows.len() > 40,
        "{errors} errors, {} files",
        rows.len()
    );
    let plural = |n: usize, what: &str| match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    };
    let want = format!(
        "{}, {} in {}, read as Codex 0.171.0 (the newest rollscope knows)",
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(rows.len(), "file")
    );
    for format in ["table", "text", "human", "concise"] {
        let mut args = vec!["check-ordinal", "--format", format];
        args.extend(&paths);
        let out = output(&args, 1);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().last(), Some(want.as_str()), "{format}: {err}");
    }
    for format in ["ndjson", "json", "github", "sarif"] {
        let mut args = vec!["check-ordinal", "--format", format];
        args.extend(&paths);
        let out = output(&args, 1);
        assert!(
            out.stderr.is_empty(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `--help` lists only what applies: `check-ordinal` prints lines, so it has no table
/// options and no `table` format (7313e33 advertised `--format table`, `--width` and
/// `--columns`); `replay` says which views its table options are for, and what each format
/// prints in which view. The table options given to `check-ordinal` are usage errors.
#[test]
fn help_lists_only_what_applies() {
    let long = |args: &[&str]| String::from_utf8(output(args, 0).stdout).unwrap();
    let check = long(&["check-ordinal", "--help"]);
    for absent in ["--width", "--columns", "table"] {
        assert!(
            !check.contains(absent),
            "check-ordinal --help shows {absent}:\n{check}"
        );
    }
    assert!(check.contains("[default: text]"), "{check}");
    for flag in ["--width", "--columns"] {
        let out = output(&["check-ordinal", flag, "80", "-"], 2);
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("unexpected argument '{flag}'")),
            "{err}"
        );
    }
    let replay = long(&["replay", "--help"]);
    let option = |name: &str| {
        let at = replay.find(&format!("      {name} <")).unwrap();
        replay[at..].lines().nth(1).unwrap().trim().to_string()
    };
    assert!(
        option("--width").starts_with("History and ui views: "),
        "{replay}"
    );
    assert!(
        option("--columns").starts_with("History and ui views: "),
        "{replay}"
    );
    for value in ["human", "concise", "github", "sarif"] {
        let line = replay
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {value}:")))
            .unwrap_or_else(|| panic!("no help for --format {value}:\n{replay}"));
        assert!(line.contains("The state view"), "{line}");
    }
}
