//! `rollscope stats`: counts equal to the format's usual jq recipes, own tokens equal to the
//! mock model's billing, tolerant reading of broken files, zstd, groupings.

use std::collections::BTreeMap;
use std::path::Path;

use predicates::prelude::*;
use serde_json::{json, Value};

use crate::util::*;

/// What the format's usual jq recipes count (`docs/stats.md`), computed independently of
/// rollscope: `jq -r .type | sort | uniq -c`, and the same over `.payload.type` of
/// `response_item` and `event_msg` lines (with Codex's event aliases folded).
struct JqCounts {
    records: BTreeMap<String, u64>,
    response_items: BTreeMap<String, u64>,
    events: BTreeMap<String, u64>,
}

fn jq_counts(path: &Path) -> JqCounts {
    let mut c = JqCounts {
        records: BTreeMap::new(),
        response_items: BTreeMap::new(),
        events: BTreeMap::new(),
    };
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let t = v["type"].as_str().unwrap().to_string();
        let pt = v["payload"]["type"].as_str().map(|s| match s {
            "turn_started" => "task_started".to_string(),
            "turn_complete" => "task_complete".to_string(),
            s => s.to_string(),
        });
        match (t.as_str(), pt) {
            ("response_item", Some(p)) => *c.response_items.entry(p).or_default() += 1,
            ("event_msg", Some(p)) => *c.events.entry(p).or_default() += 1,
            _ => {}
        }
        *c.records.entry(t).or_default() += 1;
    }
    c
}

fn counts(v: &Value) -> BTreeMap<String, u64> {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
        .collect()
}

const TOKEN_FIELDS: [&str; 5] = [
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "total_tokens",
];

fn tokens5(v: &Value) -> [u64; 5] {
    TOKEN_FIELDS.map(|f| v[f].as_u64().unwrap_or(0))
}

/// Every file of every scenario under `corpus`: counts as jq counts them, no parse errors,
/// tokens as the mock model billed the responses recorded in that file.
fn check_corpus(corpus: &Path) {
    let scenarios = scenarios_under(corpus);
    assert!(
        scenarios.len() >= 30,
        "{} scenarios under {}",
        scenarios.len(),
        corpus.display()
    );
    let mut files = 0;
    for unit in scenarios {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(unit.join("oracle/expected.json")).unwrap(),
        )
        .unwrap();
        for (rel, exp) in expected.as_object().unwrap() {
            let path = unit.join(rel);
            let rows = ndjson_rows(&["stats"], &path);
            assert_eq!(rows.len(), 1);
            let row = &rows[0];
            let jq = if path.extension().is_some_and(|e| e == "zst") {
                None
            } else {
                Some(jq_counts(&path))
            };
            if let Some(jq) = jq {
                assert_eq!(counts(&row["records"]), jq.records, "records of {rel}");
                assert_eq!(counts(&row["response_items"]), jq.response_items, "{rel}");
                assert_eq!(counts(&row["events"]), jq.events, "events of {rel}");
            }
            assert_eq!(row["parse_errors"], 0, "{rel}");
            assert_eq!(
                tokens5(&row["tokens"]),
                tokens5(&exp["recorded_usage_sum"]),
                "tokens of {}",
                path.display()
            );
            files += 1;
        }
    }
    assert!(files >= 40);
}

#[test]
fn counts_and_own_tokens_match_jq_and_the_billing_oracle_on_every_real_file() {
    check_corpus(&testdata("real"));
}

#[test]
fn counts_and_own_tokens_match_on_the_shared_corpus_when_present() {
    if let Some(corpus) = shared_corpus() {
        check_corpus(&corpus);
    }
}

fn grand_total(args: &[&str]) -> [u64; 5] {
    let rows = rows(args, 0);
    let mut sum = [0u64; 5];
    for r in &rows {
        for (s, v) in sum.iter_mut().zip(tokens5(&r["tokens"])) {
            *s += v;
        }
    }
    sum
}

fn oracle_total(dir: &Path) -> [u64; 5] {
    let mut sum = [0u64; 5];
    for unit in scenarios_under(dir)
        .into_iter()
        .chain(std::iter::once(dir.to_path_buf()))
    {
        let Ok(text) = std::fs::read_to_string(unit.join("oracle/expected.json")) else {
            continue;
        };
        let v: Value = serde_json::from_str(&text).unwrap();
        for exp in v.as_object().unwrap().values() {
            for (s, x) in sum.iter_mut().zip(tokens5(&exp["recorded_usage_sum"])) {
                *s += x;
            }
        }
    }
    sum
}

#[test]
fn every_grouping_sums_to_the_same_grand_total_and_forks_count_once() {
    let all = testdata("real");
    let dirs = [
        all.clone(),
        real("0.171.0", "fork"),
        real("0.171.0", "copy_fork"),
        real("0.171.0", "revert"),
        real("0.36.0", "compaction"),
    ];
    for dir in dirs {
        let d = dir.to_str().unwrap();
        let want = oracle_total(&dir);
        assert!(want[4] > 0);
        for by in ["file", "day", "month", "model", "cwd", "total"] {
            for utc in [false, true] {
                let mut args = vec!["stats", "--format", "ndjson", "--by", by, d];
                if utc {
                    args.push("--utc");
                }
                assert_eq!(grand_total(&args), want, "--by {by} (utc {utc}) over {d}");
            }
        }
    }
}

#[test]
fn the_fork_folder_totals_the_parent_plus_the_childs_own_usage() {
    // The child's cumulative total is 7653 (it inherits its parent's 3600); its own 4053.
    let t = grand_total(&[
        "stats",
        "--format",
        "ndjson",
        "--by",
        "total",
        real("0.171.0", "fork").to_str().unwrap(),
    ]);
    assert_eq!(t[4], 7653);
    let child = real_file("0.171.0", "copy_fork", "f8fb");
    let rows = ndjson_rows(&["stats"], &child);
    assert_eq!(rows[0]["tokens"]["total_tokens"], 4053);
}

#[test]
fn group_rows_carry_group_and_sessions() {
    let dir = real("0.171.0", "fork");
    let rows = ndjson_rows(&["stats", "--by", "day", "--utc"], &dir);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["group"], "2026-11-29");
    assert_eq!(rows[0]["sessions"], 2);
    assert!(rows[0].get("path").is_none());
    let models = ndjson_rows(&["stats", "--by", "model"], &dir);
    assert_eq!(models[0]["group"], "gpt-5.5");
}

/// A real file's records, for comparing with its broken copies.
const SOURCE_RECORDS: u64 = 14;

struct Broken {
    file: &'static str,
    records: u64,
    parse_errors: u64,
    blank_lines: u64,
    /// `:line: reason` expected on stderr, if any.
    stderr: Option<(u64, &'static str)>,
}

#[test]
fn broken_files_keep_every_good_line_and_report_each_bad_one() {
    let cases = [
        Broken {
            file: "torn-last-line.jsonl",
            records: 13,
            parse_errors: 1,
            blank_lines: 0,
            stderr: Some((14, "torn last line")),
        },
        Broken {
            file: "invalid-json-mid-file.jsonl",
            records: 13,
            parse_errors: 1,
            blank_lines: 0,
            stderr: Some((5, "invalid JSON at column")),
        },
        Broken {
            file: "invalid-utf8.jsonl",
            records: 13,
            parse_errors: 1,
            blank_lines: 0,
            stderr: Some((6, "invalid UTF-8 at column 15")),
        },
        Broken {
            file: "bom.jsonl",
            records: 14,
            parse_errors: 0,
            blank_lines: 0,
            stderr: Some((1, "byte order mark")),
        },
        Broken {
            file: "crlf.jsonl",
            records: 14,
            parse_errors: 0,
            blank_lines: 0,
            stderr: None,
        },
        Broken {
            file: "blank-lines.jsonl",
            records: 14,
            parse_errors: 0,
            blank_lines: 3,
            stderr: None,
        },
        Broken {
            file: "json-array-line.jsonl",
            records: 14,
            parse_errors: 1,
            blank_lines: 0,
            stderr: Some((4, "line is a JSON array, not an object")),
        },
        Broken {
            file: "missing-timestamp.jsonl",
            records: 13,
            parse_errors: 1,
            blank_lines: 0,
            stderr: Some((4, "`timestamp` is missing")),
        },
    ];
    for c in cases {
        let path = testdata(&format!("broken/{}", c.file));
        let p = path.to_str().unwrap();
        let out = rollscope()
            .args(["stats", "--format", "ndjson", p])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", c.file);
        let row = &ndjson(&out.stdout)[0];
        let records: u64 = counts(&row["records"]).values().sum();
        assert_eq!(records, c.records, "{}", c.file);
        assert_eq!(row["parse_errors"], c.parse_errors, "{}", c.file);
        assert_eq!(row["blank_lines"], c.blank_lines, "{}", c.file);
        assert_eq!(
            row["lines"].as_u64().unwrap(),
            c.records + c.parse_errors + c.blank_lines,
            "{}",
            c.file
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        match c.stderr {
            None => assert_eq!(stderr, "", "{}", c.file),
            Some((line, reason)) => {
                let want = format!("{p}:{line}: ");
                let hits: Vec<&str> = stderr.lines().filter(|l| l.starts_with(&want)).collect();
                assert_eq!(hits.len(), 1, "{}: stderr was {stderr}", c.file);
                assert!(hits[0].contains(reason), "{}: {}", c.file, hits[0]);
                assert_eq!(stderr.lines().count(), 1, "{}: {stderr}", c.file);
            }
        }
        // -q silences the per-line notes.
        rollscope()
            .args(["stats", "-q", "--format", "ndjson", p])
            .assert()
            .success()
            .stderr("");
    }
    assert_eq!(SOURCE_RECORDS, 14);
}

#[test]
fn one_mistyped_session_meta_field_loses_only_that_field() {
    let f = testdata("broken/session-meta-mistyped-field.jsonl");
    let rows = ndjson_rows(&["stats"], &f);
    let r = &rows[0];
    assert_eq!(r["cli_version"], Value::Null);
    assert_eq!(r["thread_id"], "01a2272d-9d87-7932-b6ae-b428ac561278");
    assert_eq!(r["history_mode"], "paginated");
    assert_eq!(r["cwd"], "/workspace/demo");
    assert_eq!(r["tokens"]["total_tokens"], 17330);
}

#[test]
fn a_bad_line_is_located_by_its_byte_offset() {
    let path = testdata("broken/invalid-json-mid-file.jsonl");
    let data = std::fs::read(&path).unwrap();
    let offset: usize = data
        .split(|b| *b == b'\n')
        .take(4)
        .map(|l| l.len() + 1)
        .sum();
    rollscope()
        .args(["stats", "--format", "ndjson", path.to_str().unwrap()])
        .assert()
        .success()
        .stderr(predicate::str::contains(":5: invalid JSON at column"))
        .stderr(predicate::str::contains(format!("(byte offset {offset})")));
}

#[test]
fn an_overlong_line_is_reported_and_skipped() {
    let path = real_file("0.171.0", "qa", ".jsonl");
    // The first line (session_meta) is about 25 KB.
    let (rows, stderr) = ndjson_run(&["stats", "--max-line-bytes", "16K"], &path, 0);
    assert!(rows[0]["parse_errors"].as_u64().unwrap() >= 1);
    assert!(
        stderr.contains(":1: line is") && stderr.contains("longer than --max-line-bytes 16384"),
        "{stderr}"
    );
}

#[test]
fn a_codex_compressed_cold_file_is_read() {
    let zst = real_file("0.171.0", "cold_zst", ".zst");
    let rows = ndjson_rows(&["stats"], &zst);
    assert_eq!(rows[0]["lines"], 14);
    assert_eq!(rows[0]["history_mode"], "paginated");
}

#[test]
fn file_rows_carry_identity_fields() {
    let f = real_file("0.171.0", "shell", ".jsonl");
    let rows = ndjson_rows(&["stats"], &f);
    let r = &rows[0];
    assert_fields(
        r,
        json!({
            "session_id": "01a2272d-9d87-7932-b6ae-b428ac561278",
            "thread_id": "01a2272d-9d87-7932-b6ae-b428ac561278",
            "history_mode": "paginated",
            "cli_version": "0.171.0",
            "originator": "codex_exec",
            "started_at": "2026-11-29T12:00:30.602Z",
            "lines": 45,
        }),
    );
    assert_eq!(
        r["bytes"].as_u64().unwrap(),
        std::fs::metadata(&f).unwrap().len()
    );
    // The shell scenario runs ls, cat README.md, cat missing.txt, python3 hello.py, exit 3.
    assert_eq!(r["tool_calls"], 5);
    assert_eq!(r["turns"], 1);
    // 0.171 writes cache_write_input_tokens, so it is reported.
    assert_eq!(r["tokens"]["cache_write_input_tokens"], 0);
    let old = real_file("0.36.0", "shell", ".jsonl");
    let old_rows = ndjson_rows(&["stats"], &old);
    assert!(old_rows[0]["tokens"]
        .get("cache_write_input_tokens")
        .is_none());
    assert_eq!(old_rows[0]["history_mode"], "legacy");
}

#[test]
fn table_ends_with_a_totals_row() {
    let dir = real("0.171.0", "fork");
    rollscope()
        .args(["stats", dir.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("total (2 files)").and(predicate::str::contains("7,653")));
}

#[test]
fn since_and_until_select_sessions_by_start() {
    let dir = testdata("real");
    let d = dir.to_str().unwrap();
    let all = rows(&["stats", "--format", "ndjson", d], 0).len();
    assert!(all >= 40);
    assert_eq!(
        rows(
            &[
                "stats",
                "--format",
                "ndjson",
                "--since",
                "2026-11-29",
                "--until",
                "2026-11-29",
                d
            ],
            0
        )
        .len(),
        all
    );
    assert_eq!(
        rows(
            &["stats", "--format", "ndjson", "--since", "2026-11-30", d],
            0
        )
        .len(),
        0
    );
    assert_eq!(
        rows(
            &["stats", "--format", "ndjson", "--until", "2026-11-28", d],
            0
        )
        .len(),
        0
    );
    // The 0.171 fork folder's sessions started at 12:00:55Z; the rollback_twice one at 12:31Z.
    let late = rows(
        &[
            "stats",
            "--format",
            "ndjson",
            "--since",
            "2026-11-29T12:30:00Z",
            d,
        ],
        0,
    );
    assert!(!late.is_empty() && late.len() < all);
    assert!(late
        .iter()
        .all(|r| r["started_at"].as_str().unwrap() >= "2026-11-29T12:30:00"));
    rollscope()
        .args(["stats", "--since", "last tuesday", d])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--since"));
}
