//! `rollscope turns`: one row per turn with the status each real scenario proves, the
//! hand-made broken copies, agreement with `stats`, formats and filters.

use std::path::{Path, PathBuf};

use predicates::prelude::*;
use serde_json::Value;

use crate::util::*;

fn turns(path: &Path) -> Vec<Value> {
    ndjson_rows(&["turns"], path)
}

fn statuses(rows: &[Value]) -> Vec<String> {
    rows.iter()
        .map(|r| r["status"].as_str().unwrap().to_string())
        .collect()
}

/// What each real scenario proves about its turns, file by file (files sorted by path).
/// Writers before 0.128 (0.36, 0.80) write no `task_started`: a turn there is `aborted` when
/// a `turn_aborted` falls in it and `unknown` otherwise. `None`: a scenario this table does
/// not know (a newer corpus); it is still checked against `stats`.
fn expected(version: &str, scenario: &str) -> Option<Vec<Vec<&'static str>>> {
    let old = matches!(version, "0.36.0" | "0.80.0");
    let c = "completed";
    Some(match (scenario, old) {
        ("qa" | "shell" | "apply_patch" | "web_search" | "mcp" | "legacy_appserver", false) => {
            vec![vec![c]]
        }
        ("qa" | "shell" | "apply_patch", true) => vec![vec!["unknown"]],
        ("resume", false) => vec![vec![c, c, c]],
        ("resume", true) => vec![vec!["unknown"; 3]],
        ("compaction", false) => vec![vec![c, c]],
        ("compaction", true) => vec![vec!["unknown"; 2]],
        // SIGINT: Codex writes turn_aborted (0.36 too, whatever the research notes said).
        ("interrupt_sigint", _) => vec![vec!["aborted"]],
        // SIGKILL: the file just stops.
        ("interrupt_sigkill" | "killed_in_tool", false) => vec![vec!["open"]],
        ("interrupt_sigkill" | "killed_in_tool", true) => vec![vec!["unknown"]],
        ("killed_in_tool_resume" | "kill_then_resume", false) => vec![vec!["stale", c]],
        ("killed_in_tool_resume" | "kill_then_resume", true) => vec![vec!["unknown"; 2]],
        ("rollback", false) => vec![vec![c, c, "rolled_back", c]],
        ("rollback_twice", false) => vec![vec![c, "rolled_back", "rolled_back", c]],
        // Parent, then child (the child of a copy-fork repeats the parent's turn).
        ("fork", false) => vec![vec![c], vec![c]],
        ("copy_fork", false) => vec![vec![c], vec![c, c]],
        // The reverted file keeps its 3 turns; the new file holds turn 4.
        ("revert", false) => vec![vec![c, c, c], vec![c]],
        ("cold_zst", false) => vec![vec![c, c], vec![c]],
        _ => return None,
    })
}

fn version_and_scenario(unit: &Path) -> (String, String) {
    let scenario = unit.file_name().unwrap().to_string_lossy().to_string();
    let version = unit
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    (version, scenario)
}

fn check_statuses(corpus: &Path) -> usize {
    let mut files = 0;
    for unit in scenarios_under(corpus) {
        let (version, scenario) = version_and_scenario(&unit);
        let paths = rollouts_under(&unit);
        let Some(want) = expected(&version, &scenario) else {
            eprintln!(
                "note: {version}/{scenario}: no expected turn statuses; checked against stats only"
            );
            continue;
        };
        assert_eq!(paths.len(), want.len(), "{version}/{scenario}: files");
        for (p, w) in paths.iter().zip(want) {
            let r = turns(p);
            assert_eq!(statuses(&r), w, "{version}/{scenario}: {}", p.display());
            for (i, row) in r.iter().enumerate() {
                assert_eq!(row["index"], i as u64 + 1);
                assert_eq!(row["path"], p.to_str().unwrap());
            }
            files += 1;
        }
    }
    files
}

every_real_file! {
    check_statuses:
    every_real_file_shows_the_statuses_its_scenario_proves,
    every_shared_corpus_file_shows_the_statuses_its_scenario_proves
}

/// `turns` and `stats` agree on every file: one row per turn `stats` counts, tool calls
/// and every token field summing to the file's own totals.
fn check_agreement_with_stats(corpus: &Path) -> usize {
    let mut files = 0;
    for unit in scenarios_under(corpus) {
        for p in rollouts_under(&unit) {
            let s = &ndjson_rows(&["stats"], &p)[0];
            let t = turns(&p);
            assert_eq!(
                t.len() as u64,
                s["turns"].as_u64().unwrap(),
                "{}",
                p.display()
            );
            let calls: u64 = t.iter().map(|r| r["tool_calls"].as_u64().unwrap()).sum();
            assert_eq!(calls, s["tool_calls"].as_u64().unwrap(), "{}", p.display());
            for field in [
                "input_tokens",
                "cached_input_tokens",
                "output_tokens",
                "reasoning_output_tokens",
                "total_tokens",
            ] {
                let sum: u64 = t.iter().map(|r| r["tokens"][field].as_u64().unwrap()).sum();
                assert_eq!(
                    sum,
                    s["tokens"][field].as_u64().unwrap(),
                    "{field}: {}",
                    p.display()
                );
            }
            files += 1;
        }
    }
    files
}

every_real_file! {
    check_agreement_with_stats:
    turns_agree_with_stats_on_every_real_file,
    turns_agree_with_stats_on_every_shared_corpus_file
}

#[test]
fn a_paginated_turn_carries_its_ids_lines_ordinals_texts_and_settings() {
    // 0.171 qa: session_meta (ordinal 0), task_started at line 2, 16 lines in all.
    let p = real_file("0.171.0", "qa", "");
    let text = std::fs::read_to_string(&p).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let started = &lines[1]["payload"];
    assert_eq!(started["type"], "task_started");
    let r = &turns(&p)[0];
    assert_eq!(r["turn_id"], started["turn_id"]);
    assert_eq!(r["session_id"], lines[0]["payload"]["session_id"]);
    assert_eq!(r["thread_id"], lines[0]["payload"]["id"]);
    assert_eq!(
        (r["line_start"].as_u64(), r["line_end"].as_u64()),
        (Some(2), Some(16))
    );
    assert_eq!(
        (r["ordinal_start"].as_u64(), r["ordinal_end"].as_u64()),
        (Some(1), Some(15))
    );
    assert_eq!(r["started_at"], lines[1]["timestamp"]);
    let complete = &lines[15];
    assert_eq!(complete["payload"]["type"], "task_complete");
    assert_eq!(r["ended_at"], complete["timestamp"]);
    assert_eq!(r["duration_ms"], complete["payload"]["duration_ms"]);
    assert_eq!(
        r["last_agent_message"],
        complete["payload"]["last_agent_message"]
    );
    assert_eq!(r["user_message"], "What does this project do?");
    assert_eq!(r["model"], "gpt-5.5");
    assert_eq!(r["cwd"], "/workspace/demo");
    assert_eq!(r["approval_policy"], "never");
    assert_eq!(r["sandbox"], "danger-full-access");
    assert_eq!(r["reason"], Value::Null);
    assert_eq!(r["inherited"], false);
}

#[test]
fn old_writers_take_settings_from_the_turns_last_turn_context() {
    // 0.36 wrote one turn_context per model request (4 in the shell turn) and no ordinals.
    let r = &turns(&real_file("0.36.0", "shell", ""))[0];
    assert_eq!(r["model"], "gpt-5-codex");
    assert_eq!(r["sandbox"], "danger-full-access");
    assert_eq!(r["approval_policy"], "never");
    assert_eq!(r["turn_id"], Value::Null);
    assert_eq!(r["ordinal_start"], Value::Null);
    // The turn begins at the typed user message (line 3), not at the scaffolding before it.
    assert_eq!(r["line_start"], 3);
    assert_eq!(r["tool_calls"], 5);
    assert_eq!(
        r["user_message"],
        "Look around the repo, run hello.py and tell me what happens."
    );
}

#[test]
fn interrupts_are_aborted_with_their_reason() {
    for v in ["0.36.0", "0.128.0", "0.171.0"] {
        let r = &turns(&real_file(v, "interrupt_sigint", ""))[0];
        assert_eq!(r["status"], "aborted", "{v}");
        assert_eq!(r["reason"], "interrupted", "{v}");
        assert!(r["ended_at"].is_string(), "{v}");
    }
}

#[test]
fn a_process_killed_mid_turn_leaves_an_open_turn_and_a_resume_makes_it_stale() {
    for v in ["0.128.0", "0.171.0"] {
        let r = turns(&real_file(v, "killed_in_tool", ""));
        assert_eq!(statuses(&r), ["open"], "{v}");
        assert_eq!(r[0]["ended_at"], Value::Null);
        assert_eq!(r[0]["duration_ms"], Value::Null);
        assert_eq!(r[0]["tool_calls"], 1);
    }
    let r = turns(&real_file("0.147.0", "kill_then_resume", ""));
    assert_eq!(statuses(&r), ["stale", "completed"]);
    assert_eq!(r[1]["user_message"], "Please continue.");
    // Before task_started existed, nothing proves the first turn died.
    let r = turns(&real_file("0.80.0", "kill_then_resume", ""));
    assert_eq!(statuses(&r), ["unknown", "unknown"]);
}

#[test]
fn two_rollback_markers_drop_two_turns() {
    let r = turns(&real_file("0.147.0", "rollback_twice", ""));
    assert_eq!(
        statuses(&r),
        ["completed", "rolled_back", "rolled_back", "completed"]
    );
}

#[test]
fn a_copy_fork_child_shows_the_parents_turn_as_inherited_with_no_own_tokens() {
    let child = real_file("0.171.0", "copy_fork", "f8fb");
    let r = turns(&child);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["inherited"], true);
    assert_eq!(r[0]["tokens"]["total_tokens"], 0);
    assert_eq!(r[1]["inherited"], false);
    // The child's own usage: the mock billed 4053 tokens for its one response.
    assert_eq!(r[1]["tokens"]["total_tokens"], 4053);
}

#[test]
fn compressed_rollouts_are_read() {
    let zst = real_file("0.171.0", "cold_zst", ".zst");
    assert_eq!(statuses(&turns(&zst)), ["completed"]);
}

// --- hand-made broken copies --------------------------------------------------------------

#[test]
fn an_appended_rollback_marker_rolls_back_the_last_turns() {
    // From 0.147.0/resume (3 completed turns) + `thread_rolled_back {num_turns: 2}`.
    let r = turns(&testdata("broken/turns-rolled-back-appended.jsonl"));
    assert_eq!(statuses(&r), ["completed", "rolled_back", "rolled_back"]);
    // What the turns were before the rollback still shows.
    assert!(r[1]["ended_at"].is_string());
}

#[test]
fn a_task_complete_deleted_mid_file_makes_that_turn_stale() {
    let r = turns(&testdata("broken/turns-task-complete-deleted.jsonl"));
    assert_eq!(statuses(&r), ["completed", "stale", "completed"]);
    assert_eq!(r[1]["ended_at"], Value::Null);
}

#[test]
fn a_task_complete_for_an_unknown_turn_leaves_the_aborted_turn_alone() {
    let r = turns(&testdata(
        "broken/turns-task-complete-unknown-turn-id.jsonl",
    ));
    assert_eq!(statuses(&r), ["aborted"]);
    assert_eq!(r[0]["reason"], "interrupted");
    // Ended by its own turn_aborted (line 12, 1532 ms), not by the stray event.
    assert_eq!(r[0]["ended_at"], "2026-11-29T12:01:54.050Z");
    assert_eq!(r[0]["duration_ms"], 1532);
}

#[test]
fn a_lost_first_task_started_leaves_an_implicit_turn_that_keeps_its_usage_and_call() {
    let p = testdata("broken/turns-first-task-started-deleted.jsonl");
    let r = turns(&p);
    // As in the intact file: the killed turn (stale: the resume began a turn after it),
    // then the completed one, with the same ids and the same usage each.
    let intact = turns(&real_file("0.128.0", "killed_in_tool_resume", ""));
    assert_eq!(statuses(&r), ["stale", "completed"]);
    for i in 0..2 {
        assert_eq!(r[i]["turn_id"], intact[i]["turn_id"], "{i}");
        assert_eq!(r[i]["tokens"], intact[i]["tokens"], "{i}");
        assert_eq!(r[i]["tool_calls"], intact[i]["tool_calls"], "{i}");
        assert_eq!(r[i]["model"], intact[i]["model"], "{i}");
    }
    // It begins at the first record proving activity: the turn_context, now line 4.
    assert_eq!(r[0]["line_start"], 4);
    assert_eq!(r[0]["line_end"], 9);
    // Turns agree with stats: the oracle's 7637 tokens, 2 turns.
    let s = &ndjson_rows(&["stats"], &p)[0];
    assert_eq!(s["turns"], 2);
    assert_eq!(s["tokens"]["total_tokens"], 7637);
    let sum: u64 = r
        .iter()
        .map(|t| t["tokens"]["total_tokens"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 7637);
}

#[test]
fn a_rollback_whose_num_turns_is_not_a_u32_rolls_nothing_back() {
    let r = turns(&testdata("broken/turns-rolled-back-num-turns-string.jsonl"));
    assert_eq!(statuses(&r), ["completed", "completed", "completed"]);
}

#[test]
fn an_escaped_user_role_counts_the_same_in_turns_and_stats() {
    // A writer with no user_message events (turns start at the user response items):
    // the 0.36 qa file without them, its typed message's role written `"\u0075ser"`.
    let src = std::fs::read_to_string(real_file("0.36.0", "qa", "")).unwrap();
    let typed = "\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"What";
    assert!(src.contains(typed));
    let text: String = src
        .lines()
        .filter(|l| !l.contains("\"type\":\"user_message\""))
        .map(|l| {
            l.replacen(
                "\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"What",
                "\"role\":\"\\u0075ser\",\"content\":[{\"type\":\"input_text\",\"text\":\"What",
                1,
            ) + "\n"
        })
        .collect();
    assert!(text.contains("\\u0075ser"));
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("rollout-escaped-role.jsonl");
    std::fs::write(&p, text).unwrap();
    let r = turns(&p);
    let s = &ndjson_rows(&["stats"], &p)[0];
    assert_eq!(r.len(), 1);
    assert_eq!(s["turns"], 1);
    assert!(r[0]["user_message"].as_str().unwrap().starts_with("What"));
}

// --- formats and filters ------------------------------------------------------------------

fn resume_file() -> PathBuf {
    real_file("0.147.0", "resume", "")
}

#[test]
fn the_table_has_one_line_per_turn_and_cuts_long_text_to_its_width() {
    let p = real_file("0.171.0", "shell", "");
    let args = ["turns", "--color", "never", "--width", "60"];
    let out = output(&[&args[..], &[p.to_str().unwrap()]].concat(), 0);
    let text = String::from_utf8(out.stdout).unwrap();
    let body: Vec<&str> = text.lines().filter(|l| l.contains("completed")).collect();
    assert_eq!(body.len(), 1, "{text}");
    // The user message is longer than its column: cut, with an ellipsis.
    assert!(body[0].contains("Look around the repo"), "{text}");
    assert!(body[0].contains('…'), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 60), "{text}");
    assert!(!text.contains('\u{1b}'));
    assert!(text.contains("1 turn"));
}

#[test]
fn statuses_are_colored_when_asked() {
    let p = resume_file();
    rollscope()
        .args(["turns", "--color", "always", p.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("\u{1b}[32m✓ completed"));
}

#[test]
fn status_filter_takes_a_comma_separated_list() {
    let p = testdata("broken/turns-task-complete-deleted.jsonl");
    let r = ndjson_rows(&["turns", "--status", "stale,open"], &p);
    assert_eq!(statuses(&r), ["stale"]);
    assert_eq!(r[0]["index"], 2);
}

#[test]
fn an_unknown_status_is_a_usage_error_listing_the_values() {
    rollscope()
        .args(["turns", "--status", "done", "x.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("rolled_back").and(predicate::str::contains("stale")));
}
