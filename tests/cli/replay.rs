//! `rollscope replay`: real Codex is the judge. The requests it sent when it resumed or
//! forked (the corpus oracles), what its app-server showed on resume (`ui_resume.json`),
//! and what it rebuilt from each broken fixture (`testdata/replay/verdicts/`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use serde_json::Value;

use crate::util::*;

/// An item as compared with a request's: without the rollout-only key Codex never sends,
/// `internal_chat_message_metadata_passthrough` (0.147 and 0.171 write it into every
/// `response_item` payload).
fn sent(item: &Value) -> Value {
    let mut i = item.clone();
    if let Some(m) = i.as_object_mut() {
        m.remove("internal_chat_message_metadata_passthrough");
    }
    i
}

fn items(rows: &[Value]) -> Vec<Value> {
    rows.iter().map(|r| sent(&r["item"])).collect()
}

fn state(path: &Path) -> Value {
    let rows = ndjson_rows(&["replay", "--view", "state"], path);
    assert_eq!(rows.len(), 1, "{}", path.display());
    rows.into_iter().next().unwrap()
}

fn diagnostics(st: &Value) -> Vec<(String, String)> {
    st["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["severity"].as_str().unwrap().to_string(),
                d["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_oracle_checker_passes_every_resume_and_fork_codex_performed() {
    let Some(corpus) = shared_corpus() else {
        return;
    };
    let checker = corpus.join("../../tools/replay_oracle_check.py");
    let bin = assert_cmd::cargo::cargo_bin("rollscope");
    let cmd = format!(
        "{} replay --for-prompt --format ndjson {{file}}",
        bin.display()
    );
    let out = StdCommand::new("python3")
        .arg(&checker)
        .arg("--all")
        .arg(&corpus)
        .arg("--cmd")
        .arg(&cmd)
        .output()
        .expect("python3 runs the oracle checker");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let passed = stdout.lines().filter(|l| l.starts_with("PASS")).count();
    assert!(passed >= 17, "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
}

/// The turns (ids, in order) and their items (kind and compact text).
type Shown = Vec<(String, Vec<(String, String)>)>;

fn shown_by_replay(file: &Path, home: &Path) -> Shown {
    let out = rollscope()
        .env("CODEX_HOME", home)
        .args(["replay", "--view", "ui", "--format", "ndjson"])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut shown: Shown = Vec::new();
    for r in ndjson(&out.stdout) {
        let id = r["turn_id"].as_str().unwrap_or("").to_string();
        if shown.last().is_none_or(|(last, _)| *last != id) {
            shown.push((id, Vec::new()));
        }
        let kind = r["kind"].as_str().unwrap();
        let text = r["text"].as_str().unwrap_or("").to_string();
        shown.last_mut().unwrap().1.push((kind.to_string(), text));
    }
    shown
}

#[test]
fn the_ui_view_shows_the_turns_and_items_the_real_app_server_showed() {
    let Some(corpus) = shared_corpus() else {
        return;
    };
    let mut threads = 0;
    for unit in scenarios_under(&corpus) {
        let oracle = unit.join("oracle/ui_resume.json");
        let Ok(text) = std::fs::read_to_string(&oracle) else {
            continue;
        };
        let ui: Value = serde_json::from_str(&text).unwrap();
        for t in ui["threads"].as_array().unwrap() {
            if !t["error"].is_null() {
                continue;
            }
            // A `.jsonl.zst` thread is reported by the path the app-server decompressed
            // it to: the unit holds the compressed file.
            let mut file = unit.join(t["rollout_file"].as_str().unwrap());
            if !file.exists() {
                file = unit.join(t["unit_files"][0].as_str().unwrap());
            }
            let want: Shown = t["turns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|turn| {
                    let msgs = turn["items"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|i| {
                            let text = i["text"].as_str().unwrap_or("").to_string();
                            (i["type"].as_str().unwrap().to_string(), text)
                        })
                        .collect();
                    (turn["id"].as_str().unwrap().to_string(), msgs)
                })
                .collect();
            assert_eq!(shown_by_replay(&file, &unit), want, "{}", file.display());
            threads += 1;
        }
    }
    assert!(threads >= 30, "{threads} threads checked");
}

#[test]
fn replay_for_prompt_equals_the_history_real_codex_rebuilt_from_each_fixture() {
    let dir = testdata("replay/verdicts");
    let mut resumed = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let fixture = testdata("replay").join(v["fixture"].as_str().unwrap());
        match v["outcome"].as_str().unwrap() {
            "resumed" => {
                let rows = ndjson_rows(&["replay", "--for-prompt"], &fixture);
                let want: Vec<Value> = v["history"].as_array().unwrap().iter().map(sent).collect();
                assert_eq!(items(&rows), want, "{}", fixture.display());
                resumed += 1;
            }
            "refused" => {
                // A file Codex refuses has an error diagnostic saying why.
                let st = state(&fixture);
                let errors: Vec<_> = diagnostics(&st)
                    .into_iter()
                    .filter(|(s, _)| s == "error")
                    .collect();
                assert!(!errors.is_empty(), "{}: {st:#}", fixture.display());
            }
            other => panic!("{}: outcome {other}", path.display()),
        }
    }
    assert!(resumed >= 12);
}

/// Each broken file, and the rule its defect must be diagnosed by (from the rule's
/// definition: `src/findings/rules.rs`).
const NAMED: &[(&str, &str)] = &[
    (
        "replay/compaction-metadata-len-mismatch.jsonl",
        "compact.metadata-len",
    ),
    (
        "replay/world-state-patch-before-full.jsonl",
        "world_state.patch-before-full",
    ),
    ("replay/output-deleted.jsonl", "pair.missing-output"),
    ("replay/call-deleted.jsonl", "pair.orphan-output"),
    (
        "replay/local-shell-call-output-by-id.jsonl",
        "pair.orphan-output",
    ),
    ("replay/meta-not-first.jsonl", "meta.first"),
    ("replay/meta-missing", "meta.missing"),
    ("replay/history-mode-unknown.jsonl", "meta.history-mode"),
    ("replay/model-provider-null.jsonl", "meta.model-provider"),
    ("broken/bom.jsonl", "file.bom"),
    ("broken/invalid-json-mid-file.jsonl", "line.json"),
    ("broken/invalid-utf8.jsonl", "line.json"),
    ("broken/json-array-line.jsonl", "line.not-object"),
    ("broken/missing-timestamp.jsonl", "line.timestamp"),
    ("broken/torn-last-line.jsonl", "line.json"),
    ("broken/ordinal-last-missing.jsonl", "ordinal.missing"),
    (
        "broken/ordinal-torn-last-line.jsonl",
        "ordinal.tail-unparseable",
    ),
    (
        "broken/ordinal-line-duplicated.jsonl",
        "ordinal.non-monotonic",
    ),
    ("broken/ordinal-session-meta-cut.jsonl", "meta.first"),
    ("broken/calls-output-deleted.jsonl", "pair.missing-output"),
    ("broken/calls-call-deleted.jsonl", "pair.orphan-output"),
    ("broken/session-meta-mistyped-field.jsonl", "meta.first"),
    ("broken/turns-rolled-back-num-turns-string.jsonl", "line.payload"),
    ("broken/turns-task-complete-deleted.jsonl", "turn.unterminated"),
    (
        "broken/fork-offset-off-by-one/rollout-2026-11-29T12-00-55-01a2272d-fdfa-7c33-abe8-a07f91b0fc53.jsonl",
        "history_base.byte-offset",
    ),
];

#[test]
fn the_state_view_names_the_problem_of_each_broken_file() {
    for (rel, rule) in NAMED {
        let st = state(&testdata(rel));
        let rules: Vec<String> = diagnostics(&st).into_iter().map(|(_, r)| r).collect();
        assert!(rules.iter().any(|r| r == rule), "{rel}: {rules:?}");
    }
}

#[test]
fn a_fork_whose_source_is_absent_replays_alone_and_codex_home_makes_it_an_error() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join("sessions")).unwrap();
    let child = testdata("broken/fork-source-absent");
    let out = rollscope()
        .env("CODEX_HOME", home.path())
        .args(["replay", "--view", "state", "--format", "ndjson"])
        .arg(&child)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let st = &ndjson(&out.stdout)[0];
    assert!(diagnostics(st).contains(&("error".into(), "history_base.resolve".into())));
    assert_eq!(st["files"].as_array().unwrap().len(), 1);
    // Its own records still replay.
    let rows = ndjson_rows(&["replay"], &child);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r["origin"] == "record"));
}

#[test]
fn a_fork_reads_its_source_first_and_a_copy_fork_is_not_read_twice() {
    let fork = real("0.171.0", "fork");
    let child = rollouts_under(&fork)
        .into_iter()
        .find(|p| p.to_string_lossy().contains("fdfa"))
        .unwrap();
    let rows = ndjson_rows(&["replay"], &child);
    let origins: Vec<&str> = rows.iter().map(|r| r["origin"].as_str().unwrap()).collect();
    let first_own = origins.iter().position(|o| *o == "record").unwrap();
    assert!(first_own > 0 && origins[..first_own].iter().all(|o| *o == "source_rollout"));
    assert!(rows[0]["path"].as_str().unwrap().contains("fced"));
    let st = state(&child);
    assert_eq!(st["files"].as_array().unwrap().len(), 2);

    let copy = real("0.171.0", "copy_fork");
    for f in rollouts_under(&copy) {
        let st = state(&f);
        assert_eq!(st["files"].as_array().unwrap().len(), 1, "{}", f.display());
        let rows = ndjson_rows(&["replay"], &f);
        assert!(rows.iter().all(|r| r["origin"] == "record"));
    }
}

#[test]
fn a_revert_reads_its_base_file_before_its_own() {
    let files = rollouts_under(&real("0.171.0", "revert"));
    let newest = files
        .iter()
        .find(|f| f.to_string_lossy().contains('_'))
        .unwrap();
    let rows = ndjson_rows(&["replay"], newest);
    assert!(rows.iter().any(|r| r["origin"] == "source_rollout"));
    assert!(rows.iter().any(|r| r["origin"] == "record"));
}

#[test]
fn the_history_starts_with_the_last_compaction_and_the_0_36_one_is_rebuilt() {
    for version in ["0.128.0", "0.171.0"] {
        let f = &rollouts_under(&real(version, "compaction"))[0];
        let rows = ndjson_rows(&["replay"], f);
        assert_eq!(rows[0]["origin"], "replacement_history", "{version}");
        let st = state(f);
        assert_eq!(st["history"]["base"]["kind"], "replacement_history");
        // The base is the last compaction of the file.
        let compacted: Vec<u64> = std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("\"type\":\"compacted\""))
            .map(|(i, _)| i as u64 + 1)
            .collect();
        assert_eq!(st["history"]["base"]["line"], *compacted.last().unwrap());
    }
    let f = &rollouts_under(&real("0.36.0", "compaction"))[0];
    let rows = ndjson_rows(&["replay"], f);
    let rebuilt: Vec<&Value> = rows
        .iter()
        .filter(|r| r["origin"] == "compaction_rebuild")
        .collect();
    assert!(!rebuilt.is_empty());
    let text = rebuilt[0]["item"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("You were originally given instructions from a user"),
        "{text}"
    );
}

#[test]
fn rolled_back_turns_of_turns_are_the_turns_replay_drops() {
    let mut files = rollouts_under(&testdata("real"));
    for e in std::fs::read_dir(testdata("replay")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "jsonl") {
            files.push(p);
        }
    }
    files.push(testdata("broken/turns-rolled-back-appended.jsonl"));
    let mut with_rollback = 0;
    for f in files {
        let st = state(&f);
        // Only where no compaction replaced the history are all kept lines in it.
        if st["history"]["base"]["kind"] != "start" {
            continue;
        }
        let turns = ndjson_rows(&["turns"], &f);
        let rows = ndjson_rows(&["replay"], &f);
        let kept: BTreeSet<u64> = rows
            .iter()
            .filter(|r| r["origin"] == "record")
            .map(|r| r["line"].as_u64().unwrap())
            .collect();
        if f.extension().is_some_and(|e| e == "zst") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        let response_lines: Vec<u64> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| {
                l.contains("\"type\":\"response_item\"") && !l.contains("ghost_snapshot")
            })
            .map(|(i, _)| i as u64 + 1)
            .collect();
        let mut rolled = Vec::new();
        for t in &turns {
            let (lo, hi) = (
                t["line_start"].as_u64().unwrap(),
                t["line_end"].as_u64().unwrap(),
            );
            let lines: Vec<u64> = response_lines
                .iter()
                .copied()
                .filter(|l| (lo..=hi).contains(l))
                .collect();
            let dropped = !lines.is_empty() && lines.iter().all(|l| !kept.contains(l));
            let is_rolled_back = t["status"] == "rolled_back";
            if !lines.is_empty() {
                assert_eq!(
                    dropped,
                    is_rolled_back,
                    "{} turn {}",
                    f.display(),
                    t["index"]
                );
            }
            if is_rolled_back {
                rolled.push(t["index"].as_u64().unwrap());
            }
        }
        let listed: Vec<u64> = st["rolled_back_turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(listed, rolled, "{}", f.display());
        with_rollback += usize::from(!rolled.is_empty());
    }
    assert!(with_rollback >= 3, "{with_rollback} files with a rollback");
}

#[test]
fn a_rolled_back_turns_context_no_longer_counts() {
    let f = testdata("replay/rollback-one-turn.jsonl");
    let turns = ndjson_rows(&["turns"], &f);
    let last_standing = turns
        .iter()
        .rev()
        .find(|t| t["status"] != "rolled_back")
        .unwrap();
    let st = state(&f);
    let line = st["turn_context"]["line"].as_u64().unwrap();
    let (lo, hi) = (
        last_standing["line_start"].as_u64().unwrap(),
        last_standing["line_end"].as_u64().unwrap(),
    );
    assert!((lo..=hi).contains(&line), "{line} not in {lo}..={hi}");
}

#[test]
fn a_world_state_patch_merges_as_rfc_7396_says() {
    let st = state(&testdata("replay/world-state-patch.jsonl"));
    let ws = &st["world_state"];
    // The fixture's patch (testdata/replay/README.md): one value changed, one key added,
    // one deleted with null.
    assert_eq!(ws["environments"]["timezone"], "Europe/Berlin", "{ws:#}");
    assert_eq!(
        ws["rollscope_added"]["note"], "added by a merge patch",
        "{ws:#}"
    );
    assert!(ws.get("context_window_guidance").is_none(), "{ws:#}");
    assert_eq!(st["world_state_patches"], 1);
    assert!(diagnostics(&st).is_empty());
}

fn cut_copy(src: &Path, lines: usize, dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(src).unwrap();
    let head: String = text.split_inclusive('\n').take(lines).collect();
    let out = dir.join(src.file_name().unwrap());
    std::fs::write(&out, head).unwrap();
    out
}

#[test]
fn a_cut_at_a_turn_replays_the_prefix_a_fork_there_would_carry() {
    let f = real_file("0.147.0", "resume", "");
    let turns = ndjson_rows(&["turns"], &f);
    let dir = tempfile::tempdir().unwrap();
    for t in &turns {
        let n = t["index"].as_u64().unwrap();
        let end = t["line_end"].as_u64().unwrap() as usize;
        let start = t["line_start"].as_u64().unwrap() as usize;
        let through = ndjson_rows(&["replay", "--through-turn", &n.to_string()], &f);
        let prefix = cut_copy(&f, end, dir.path());
        assert_eq!(
            items(&through),
            items(&ndjson_rows(&["replay"], &prefix)),
            "through {n}"
        );
        let before = ndjson_rows(&["replay", "--before-turn", &n.to_string()], &f);
        let prefix = cut_copy(&f, start - 1, dir.path());
        assert_eq!(
            items(&before),
            items(&ndjson_rows(&["replay"], &prefix)),
            "before {n}"
        );
        if let Some(id) = t["turn_id"].as_str() {
            let by_id = ndjson_rows(&["replay", "--through-turn", id], &f);
            assert_eq!(items(&by_id), items(&through));
        }
    }
    // The state of a cut is the state of the cut copy: its turns, open turn and findings.
    let n = turns.len().to_string();
    // Without where it was read (the copy lies elsewhere) and what the cut says of itself.
    fn strip(v: Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.into_iter()
                    .filter(|(k, _)| !matches!(k.as_str(), "path" | "cut" | "files"))
                    .map(|(k, v)| (k, strip(v)))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.into_iter().map(strip).collect()),
            other => other,
        }
    }
    for t in &turns {
        let n = t["index"].as_u64().unwrap().to_string();
        let end = t["line_end"].as_u64().unwrap() as usize;
        let prefix = cut_copy(&f, end, dir.path());
        let cut = ndjson_rows(&["replay", "--view", "state", "--through-turn", &n], &f);
        assert_eq!(
            strip(cut[0].clone()),
            strip(state(&prefix)),
            "state through {n}"
        );
    }
    // Standard input with a cut is read once.
    let text = std::fs::read(&f).unwrap();
    let piped = rollscope()
        .args(["replay", "--format", "ndjson", "--through-turn", &n, "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let from_file = ndjson_rows(&["replay", "--through-turn", &n], &f);
    assert_eq!(items(&ndjson(&piped.stdout)), items(&from_file));
    assert!(!from_file.is_empty());

    let out = output(&["replay", "--through-turn", "99", f.to_str().unwrap()], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no turn 99"));
    output(&["replay", "--through-turn", "0", f.to_str().unwrap()], 2);
}

#[test]
fn clean_real_files_have_no_error_diagnostic() {
    let mut files = rollouts_under(&testdata("real"));
    if let Some(corpus) = shared_corpus() {
        files.extend(rollouts_under(&corpus));
    }
    assert!(files.len() >= 38);
    for f in files {
        let errors: Vec<_> = diagnostics(&state(&f))
            .into_iter()
            .filter(|(s, _)| s == "error")
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", f.display());
    }
}

#[test]
fn the_transcript_table_is_terminal_safe() {
    let out = output(
        &[
            "replay",
            "--color",
            "never",
            testdata("broken/hostile-escape-sequences.jsonl")
                .to_str()
                .unwrap(),
        ],
        0,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("user"));
}

#[test]
fn the_readme_walkthrough_prints_what_replay_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let cmd =
        "$ rollscope replay --view state testdata/replay/compaction-metadata-len-mismatch.jsonl\n";
    let shown = readme
        .split(cmd)
        .nth(1)
        .expect("the walkthrough in README.md");
    let shown = &shown[..shown.find("```").unwrap()];
    let out = rollscope()
        .current_dir(root())
        .args(["replay", "--view", "state", "--color", "never"])
        .arg("testdata/replay/compaction-metadata-len-mismatch.jsonl")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}

#[test]
fn an_unknown_history_mode_is_one_error_not_a_warning_per_line() {
    let st = state(&testdata("replay/history-mode-unknown.jsonl"));
    assert_eq!(
        diagnostics(&st),
        [("error".to_string(), "meta.history-mode".to_string())]
    );
}

/// A paginated rollout: `session_meta` (ordinal `first`), then one user message per text,
/// each with the next ordinal; with a `history_base` when `base` names one
/// (`rollout id, end_ordinal_exclusive, end_byte_offset`).
fn paginated(id: &str, first: u64, base: Option<(&str, u64, u64)>, texts: &[&str]) -> String {
    let base = base.map_or(String::new(), |(src, end, off)| {
        format!(
            r#","history_base":{{"thread_id":"{src}","end_ordinal_exclusive":{end},"end_byte_offset":{off}}}"#
        )
    });
    let mut out = format!(
        r#"{{"timestamp":"2026-11-29T12:00:00.000Z","ordinal":{first},"type":"session_meta","payload":{{"id":"{id}","timestamp":"2026-11-29T12:00:00.000Z","cwd":"/w","originator":"t","cli_version":"0.171.0","history_mode":"paginated"{base}}}}}"#
    );
    out.push('\n');
    for (i, t) in texts.iter().enumerate() {
        out.push_str(&record(
            1,
            first + 1 + i as u64,
            "response_item",
            &user_message(t),
        ));
        out.push('\n');
    }
    out
}

/// A record line of the tests' day, at second `second` (no line ending).
fn record(second: u64, ordinal: u64, kind: &str, payload: &str) -> String {
    format!(
        r#"{{"timestamp":"2026-11-29T12:00:{second:02}.000Z","ordinal":{ordinal},"type":"{kind}","payload":{payload}}}"#
    )
}

/// A user message's payload saying `t`.
fn user_message(t: &str) -> String {
    format!(
        r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{t}"}}]}}"#
    )
}

fn rollout_name(id: &str) -> String {
    format!("rollout-2026-11-29T12-00-00-{id}.jsonl")
}

const A: &str = "01a22749-0000-7000-8000-00000000000a";
const B: &str = "01a22749-0000-7000-8000-00000000000b";
const C: &str = "01a22749-0000-7000-8000-00000000000c";

fn texts_of(rows: &[Value]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            r["item"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn a_chain_of_forks_is_read_source_first() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&dir).unwrap();
    let a = paginated(A, 0, None, &["a1", "a2"]);
    let b = paginated(B, 3, Some((A, 3, a.len() as u64)), &["b1"]);
    // C forks B after b1 (ordinal 4): it inherits a1, a2 and b1.
    let c = paginated(C, 5, Some((B, 5, b.len() as u64)), &["c1"]);
    for (id, text) in [(A, &a), (B, &b), (C, &c)] {
        std::fs::write(dir.join(rollout_name(id)), text).unwrap();
    }
    let child = dir.join(rollout_name(C));
    let rows = ndjson_rows(&["replay"], &child);
    assert_eq!(texts_of(&rows), ["a1", "a2", "b1", "c1"]);
    let origins: Vec<&str> = rows.iter().map(|r| r["origin"].as_str().unwrap()).collect();
    assert_eq!(
        origins,
        [
            "source_rollout",
            "source_rollout",
            "source_rollout",
            "record"
        ]
    );
    assert!(rows[0]["path"]
        .as_str()
        .unwrap()
        .ends_with(&rollout_name(A)));
    let st = state(&child);
    assert_eq!(st["files"].as_array().unwrap().len(), 3);
    // Hand-made files record no usage (`tokens.none`, info): nothing else is said.
    let said: Vec<(String, String)> = diagnostics(&st)
        .into_iter()
        .filter(|(s, _)| s != "info")
        .collect();
    assert!(said.is_empty(), "{st:#}");

    // A source that breaks off part-way is not replayed at all.
    let broken = dir.join(rollout_name(A));
    std::fs::write(&broken, &a[..a.len() / 2]).unwrap();
    let rows = ndjson_rows(&["replay"], &child);
    assert!(
        rows.iter()
            .all(|r| !r["path"].as_str().unwrap().contains(A)),
        "{rows:?}"
    );
    std::fs::write(&broken, &a).unwrap();

    // A cold (`.zst`) source is read the same way.
    let plain = dir.join(rollout_name(A));
    compress_into(&plain, &dir);
    std::fs::remove_file(&plain).unwrap();
    let cold = ndjson_rows(&["replay"], &child);
    assert_eq!(texts_of(&cold), ["a1", "a2", "b1", "c1"]);
    assert!(cold[0]["path"].as_str().unwrap().ends_with(".jsonl.zst"));
}

#[test]
fn a_lineage_that_loops_is_refused_and_read_once() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&dir).unwrap();
    // A's base is B and B's base is A: each names the other's first line.
    let a = paginated(A, 1, Some((B, 1, 0)), &["a1"]);
    let b = paginated(B, 1, Some((A, 1, 0)), &["b1"]);
    std::fs::write(dir.join(rollout_name(A)), &a).unwrap();
    std::fs::write(dir.join(rollout_name(B)), &b).unwrap();
    let st = state(&dir.join(rollout_name(A)));
    let messages: Vec<&str> = st["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "history_base.resolve")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(messages.iter().any(|m| m.contains("cycle")), "{st:#}");
    assert_eq!(st["files"].as_array().unwrap().len(), 2);
}

#[test]
fn ui_command_rows_carry_status_exit_code_and_duration() {
    let f = real_file("0.171.0", "shell", "");
    let rows = ndjson_rows(&["replay", "--view", "ui"], &f);
    let cmd = rows
        .iter()
        .find(|r| r["kind"] == "commandExecution")
        .unwrap();
    assert_eq!(cmd["status"], "completed", "{cmd}");
    assert!(
        cmd["exit_code"].is_i64() && cmd["duration_ms"].is_u64(),
        "{cmd}"
    );
}

#[test]
fn prompt_items_do_not_depend_on_for_prompt() {
    for fixture in ["replay/call-deleted.jsonl", "replay/output-deleted.jsonl"] {
        let f = testdata(fixture);
        let plain = state(&f);
        let asked = ndjson_rows(&["replay", "--view", "state", "--for-prompt"], &f);
        assert_eq!(plain["history"], asked[0]["history"], "{fixture}");
        let prompt = ndjson_rows(&["replay", "--for-prompt"], &f);
        assert_eq!(plain["history"]["prompt_items"], prompt.len(), "{fixture}");
    }
}

#[test]
fn a_forks_rollback_drops_its_sources_turn_and_that_turns_context() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&dir).unwrap();
    let line = |o: u64, type_: &str, payload: &str| record(1, o, type_, payload) + "\n";
    let user = user_message;
    let mut a = paginated(A, 0, None, &[]);
    for (o, turn) in [(1, "t1"), (4, "t2")] {
        a += &line(
            o,
            "event_msg",
            &format!(r#"{{"type":"task_started","turn_id":"{turn}"}}"#),
        );
        a += &line(
            o + 1,
            "turn_context",
            &format!(
                r#"{{"turn_id":"{turn}","model":"m-{turn}","cwd":"/w","approval_policy":"never"}}"#
            ),
        );
        a += &line(o + 2, "response_item", &user(turn));
    }
    let mut b = paginated(B, 7, Some((A, 7, a.len() as u64)), &[]);
    b += &line(
        8,
        "event_msg",
        r#"{"type":"thread_rolled_back","num_turns":1}"#,
    );
    std::fs::write(dir.join(rollout_name(A)), &a).unwrap();
    std::fs::write(dir.join(rollout_name(B)), &b).unwrap();
    let child = dir.join(rollout_name(B));
    assert_eq!(texts_of(&ndjson_rows(&["replay"], &child)), ["t1"]);
    let st = state(&child);
    assert_eq!(st["turn_context"]["context"]["model"], "m-t1", "{st:#}");
    assert_eq!(st["rollbacks"][0]["items_dropped"], 1);
}

/// Issue #24's named change: `replay --view state` prints its diagnostics in `lint`'s
/// finding formats too; the other views refuse them (a usage error). In
/// `output-duplicated.jsonl` line 21 is written again as line 22
/// (`testdata/lint/README.md`): one `pair.duplicate` warning at line 22.
#[test]
fn the_state_view_prints_findings_in_lints_formats_and_the_others_refuse_them() {
    let path = testdata("replay/output-duplicated.jsonl");
    let p = path.to_str().unwrap();
    let text = |format: &str| {
        let out = output(&["replay", "--view", "state", "--format", format, p], 0);
        String::from_utf8(out.stdout).unwrap()
    };
    let concise = text("concise");
    assert!(
        concise.contains(&format!("{p}:22:1: warning[pair.duplicate] ")),
        "{concise}"
    );
    assert!(
        concise.contains("resumes, client view complete, as Codex 0.171.0"),
        "{concise}"
    );
    let human = text("human");
    assert!(
        human.contains("warning[pair.duplicate]: output for call"),
        "{human}"
    );
    assert!(human.contains(&format!("--> {p}:22:1")), "{human}");
    let github = text("github");
    assert_eq!(
        github.lines().collect::<Vec<_>>().len(),
        1,
        "annotations alone: {github}"
    );
    // Annotations name the file from the root, the current directory (the project's).
    let rel = std::path::Path::new(p)
        .strip_prefix(root())
        .unwrap()
        .display()
        .to_string();
    assert!(github.starts_with(&format!(
        "::warning file={rel},line=22,title=pair.duplicate (Codex 0.171.0)::"
    )));
    let log: Value = serde_json::from_str(&text("sarif")).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "pair.duplicate");
    for view in ["history", "ui"] {
        for format in ["human", "concise", "github", "sarif"] {
            let out = output(&["replay", "--view", view, "--format", format, p], 2);
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(
                err.contains("only `--view state` reports findings"),
                "{err}"
            );
        }
    }
}

/// A `local_shell_call` that carries only its item `id` is paired by nothing: Codex 0.147
/// and 0.171 send it with no synthetic output, and drop an output whose `call_id` is that
/// id as an orphan ("Orphan function call output", `testdata/replay/verdicts/` and
/// `by-version/`). rollscope once took the id for the call id, and so warned of a missing
/// output Codex never adds and missed the orphan.
#[test]
fn a_local_shell_call_without_a_call_id_is_answered_by_nothing() {
    let rules = |rel: &str| -> Vec<String> {
        diagnostics(&state(&testdata(rel)))
            .into_iter()
            .map(|(_, r)| r)
            .collect()
    };
    let alone = rules("replay/local-shell-call-no-call-id.jsonl");
    assert!(!alone.iter().any(|r| r.starts_with("pair.")), "{alone:?}");
    let by_id = rules("replay/local-shell-call-output-by-id.jsonl");
    assert_eq!(
        by_id
            .iter()
            .filter(|r| r.starts_with("pair."))
            .collect::<Vec<_>>(),
        ["pair.orphan-output"]
    );
    // 0.128 and 0.147 agree: the call is sent (0.128 without its `id`, as it sends every
    // history item), answered by nothing, and the output by id is dropped.
    for v in ["0.128.0", "0.147.0"] {
        for f in [
            "local-shell-call-no-call-id",
            "local-shell-call-output-by-id",
        ] {
            let path = testdata(&format!("replay/by-version/{f}-{v}.json"));
            let verdict: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(verdict["outcome"], "resumed", "{}", path.display());
            let history = verdict["history"].as_array().unwrap();
            let calls = history
                .iter()
                .filter(|i| i["type"] == "local_shell_call")
                .count();
            let answers = history
                .iter()
                .filter(|i| i["type"] == "function_call_output" && i["call_id"] != "call_ls")
                .count();
            assert_eq!((calls, answers), (1, 0), "{}", path.display());
        }
    }
}

/// The record types rollscope takes for Codex's are the ones the real 0.171 names when it
/// skips another ("unknown variant `no_such_record`, expected one of …"), and a record of
/// one it knows is read, not skipped: a `dynamic_tools_updated` as a paginated file's last
/// line is parsed (Codex appends the next ordinal after it), while an unknown type there is
/// skipped and its ordinal written again, as `ordinal.tail-unparseable` says.
#[test]
fn the_record_types_are_the_ones_real_codex_names() {
    let verdict = |name: &str| -> Value {
        let path = testdata(&format!("replay/verdicts/{name}.json"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let unknown = verdict("record-type-unknown");
    let reason = unknown["stderr_tail"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|l| l.contains("expected one of"))
        .unwrap();
    let listed: Vec<&str> = reason
        .split_once("expected one of ")
        .unwrap()
        .1
        .split(", ")
        .map(|t| t.trim().trim_matches('`'))
        .collect();
    assert_eq!(
        listed,
        rollscope::analysis::ordinal::CODEX_RECORD_TYPES,
        "{reason}"
    );
    let rules_on = |name: &str| -> Vec<String> {
        let out = rollscope()
            .args(["lint", "--format", "ndjson"])
            .arg(testdata(&format!("replay/{name}.jsonl")))
            .output()
            .unwrap();
        ndjson(&out.stdout)
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(unknown["next_on_resume"]["codex_reused_ordinal"], true);
    let fired = rules_on("record-type-unknown");
    assert!(
        fired.contains(&"ordinal.tail-unparseable".to_string())
            && fired.contains(&"line.unknown-type".to_string()),
        "{fired:?}"
    );
    let known = verdict("dynamic-tools-updated");
    assert_eq!(known["next_on_resume"]["codex_reused_ordinal"], false);
    assert!(known["reason"].as_str().unwrap().contains("no warning"));
    let fired = rules_on("dynamic-tools-updated");
    assert!(
        !fired
            .iter()
            .any(|r| r.starts_with("ordinal.") || r == "line.unknown-type"),
        "{fired:?}"
    );
}

/// A fork chain 101 `history_base` links deep (`testdata/replay/deep-chain/`): the real
/// Codex 0.171 resumed its last fork without a warning and sent the history of all of them,
/// source first (`verdict.json`: the first request's input after the base instructions
/// Codex makes, up to the new turn). `--for-prompt` gives exactly those items, and neither
/// the state view nor `lint` finds a lineage problem.
#[test]
fn a_101_deep_chain_replays_as_the_real_codex_resumed_it() {
    let dir = testdata("replay/deep-chain");
    let verdict: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("verdict.json")).unwrap()).unwrap();
    assert_eq!(verdict["verdict"], "resumed");
    let end = verdict["history_end"].as_u64().unwrap() as usize;
    let sent: Vec<Value> = verdict["first_request_input"].as_array().unwrap()[1..end].to_vec();
    assert_eq!(sent.len(), 206, "101 forks and the root, as sent");
    let leaf = dir.join(
        "sessions/2026/11/29/rollout-2026-11-29T12-02-40-01a2272f-9822-792b-b360-3dc051755b43.jsonl",
    );
    let run = |args: &[&str]| {
        let out = rollscope()
            .args(args)
            .arg(&leaf)
            .env("CODEX_HOME", &dir)
            .output()
            .unwrap();
        (out.status.code(), ndjson(&out.stdout))
    };
    let (code, rows) = run(&["replay", "--for-prompt", "--format", "ndjson"]);
    assert_eq!(code, Some(0));
    assert_eq!(items(&rows), sent);
    let (_, st) = run(&["replay", "--view", "state", "--format", "ndjson"]);
    assert_eq!(st[0]["outcome"], "resumes", "{:#}", st[0]);
    assert_eq!(st[0]["files"].as_array().unwrap().len(), 102);
    let (code, findings) = run(&["lint", "--format", "ndjson"]);
    assert!(
        !findings
            .iter()
            .any(|f| f["rule"].as_str().unwrap().starts_with("history_base")),
        "{findings:#?}"
    );
    assert_eq!(code, Some(0));
}

/// Forks of one parent share its rebuild: each fork's rows are what it gives replayed
/// alone (history, for the prompt, state, in every format), with one worker or two, while
/// the parent is read once for all of them (`ROLLSCOPE_TRACE_READS`), not once a fork. A
/// fork that cuts the parent elsewhere is its own rebuild.
#[test]
fn forks_of_one_parent_share_its_rebuild_and_give_what_each_gives_alone() {
    let home = tempfile::tempdir().unwrap();
    let day = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&day).unwrap();
    let parent = paginated(A, 0, None, &["p1", "p2", "p3"]);
    std::fs::write(day.join(rollout_name(A)), &parent).unwrap();
    let whole = parent.len() as u64;
    let first_two = parent
        .lines()
        .take(3)
        .map(|l| l.len() as u64 + 1)
        .sum::<u64>();
    let mut forks = Vec::new();
    for k in 0..6u64 {
        let id = format!("01a22749-0000-7000-8000-0000000001{k:02}");
        let (end, off) = if k == 5 { (3, first_two) } else { (4, whole) };
        let text = paginated(&id, end, Some((A, end, off)), &[&format!("f{k}")]);
        let path = day.join(rollout_name(&id));
        std::fs::write(&path, text).unwrap();
        forks.push(path);
    }
    let run = |args: &[&str], files: &[&Path], trace: bool| {
        let mut c = rollscope();
        c.args(args).args(files).env("CODEX_HOME", home.path());
        if trace {
            c.env("ROLLSCOPE_TRACE_READS", "1");
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        (out.stdout, String::from_utf8(out.stderr).unwrap())
    };
    let all: Vec<&Path> = forks.iter().map(PathBuf::as_path).collect();
    for view in [
        vec!["replay", "--format", "ndjson"],
        vec!["replay", "--for-prompt", "--format", "ndjson"],
        vec!["replay", "--view", "state", "--format", "ndjson"],
        vec!["replay", "--format", "markdown"],
    ] {
        let alone: Vec<u8> = all.iter().flat_map(|f| run(&view, &[f], false).0).collect();
        for jobs in ["1", "2"] {
            let mut args = view.clone();
            args.extend(["-j", jobs]);
            assert_eq!(
                String::from_utf8(run(&args, &all, false).0).unwrap(),
                String::from_utf8(alone.clone()).unwrap(),
                "{args:?}"
            );
        }
    }
    let texts = texts_of(&ndjson(
        &run(&["replay", "--format", "ndjson"], &all[4..6], false).0,
    ));
    assert_eq!(texts, ["p1", "p2", "p3", "f4", "p1", "p2", "f5"]);
    // Read once for the five forks of the whole parent, once for the one that cuts it.
    for cmd in ["replay", "lint"] {
        let (_, stderr) = run(&[cmd, "--format", "ndjson", "-j", "1"], &all, true);
        let parent_reads = stderr
            .lines()
            .find(|l| l.contains(A))
            .unwrap_or_else(|| panic!("{stderr}"));
        assert!(
            parent_reads.starts_with("rollscope: read 2× "),
            "{cmd}: {stderr}"
        );
    }
}

/// rollscope run with `CODEX_HOME` at `home`: its stdout and stderr, the passes over each
/// file on stderr with `trace` (`ROLLSCOPE_TRACE_READS`); exit 0 or 1.
fn run_home(home: &Path, args: &[&str], files: &[PathBuf], trace: bool) -> (Vec<u8>, String) {
    let mut c = rollscope();
    c.args(args).args(files).env("CODEX_HOME", home);
    if trace {
        c.env("ROLLSCOPE_TRACE_READS", "1");
    }
    let out = c.output().unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{args:?}");
    (out.stdout, String::from_utf8(out.stderr).unwrap())
}

/// Each of `views` over all of `files` in one run, with each of `jobs` workers, gives what
/// each file gives replayed alone; what they gave alone, by view.
fn each_as_alone(home: &Path, views: &[&[&str]], files: &[PathBuf], jobs: &[&str]) -> Vec<String> {
    let mut alone_by_view = Vec::new();
    for view in views {
        let alone: Vec<u8> = files
            .iter()
            .flat_map(|f| run_home(home, view, std::slice::from_ref(f), false).0)
            .collect();
        let alone = String::from_utf8(alone).unwrap();
        for jobs in jobs {
            let mut args = view.to_vec();
            args.extend(["-j", jobs]);
            let together = String::from_utf8(run_home(home, &args, files, false).0).unwrap();
            assert_eq!(together, alone, "{args:?}");
        }
        alone_by_view.push(alone);
    }
    alone_by_view
}

/// Each fork of a chain takes the rebuild the fork before it left (its whole lineage, at
/// the next level up): over the 101-deep chain of `testdata/replay/deep-chain/`, and over a
/// copy whose 50th fork names a byte offset one past its source's cutoff (a problem every
/// fork below it inherits, deeper each time), each file's rows are what it gives replayed
/// alone (history, state, findings; one worker or two), while each file is read twice (as
/// itself and as its child's source) where it was read once for every fork below it.
#[test]
fn a_chain_takes_each_forks_rebuild_and_gives_what_each_gives_alone() {
    let fixture = testdata("replay/deep-chain");
    let damaged = tempfile::tempdir().unwrap();
    let day = "sessions/2026/11/29";
    std::fs::create_dir_all(damaged.path().join(day)).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(fixture.join(day))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 102);
    for (k, name) in names.iter().enumerate() {
        let mut text = std::fs::read_to_string(fixture.join(day).join(name)).unwrap();
        if k == 50 {
            let at = text.find("\"end_byte_offset\":").unwrap() + 18;
            let len = text[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
            let off: u64 = text[at..at + len].parse().unwrap();
            text.replace_range(at..at + len, &(off + 1).to_string());
        }
        std::fs::write(damaged.path().join(day).join(name), text).unwrap();
    }
    for home in [fixture.as_path(), damaged.path()] {
        let files: Vec<PathBuf> = names.iter().map(|n| home.join(day).join(n)).collect();
        let views: [&[&str]; 3] = [
            &["replay", "--format", "ndjson"],
            &["replay", "--view", "state", "--format", "ndjson"],
            &["lint", "--format", "ndjson"],
        ];
        let alone = each_as_alone(home, &views, &files, &["1", "2"]);
        if home == damaged.path() {
            // The fork whose offset is off, and each below it.
            let off = alone[2].matches("history_base.byte-offset").count();
            assert_eq!(off, 52, "{}", alone[2]);
        }
        let (_, stderr) = run_home(
            home,
            &["lint", "--format", "ndjson", "-j", "1"],
            &files,
            true,
        );
        let mut reads: Vec<&str> = stderr
            .lines()
            .map(|l| l.split(' ').nth(2).unwrap())
            .collect();
        reads.sort();
        assert_eq!(reads.len(), 102, "{stderr}");
        assert_eq!(
            reads.iter().filter(|r| **r == "2×").count(),
            101,
            "{stderr}"
        );
    }
}

/// Sub-agents fork their parent wherever it was when each was spawned: each fork's rebuild
/// goes on from the one before it, reading the records between rather than the parent
/// again. Between the cutoffs lie a call answered past the next cutoff, a rollback, a
/// compaction, token usage, a blank line and a line that is no JSON; one fork names a byte
/// offset off its cutoff, one cuts the parent below the forks listed before it, one forks
/// the whole. Each fork's rows are what it gives replayed alone (history, prompt, state,
/// findings; one worker, two or four), and the parent is read whole twice (as itself, and for
/// the first fork; once more for the fork below the others), not once a fork. A second
/// parent writes an ordinal below a cutoff after it: its forks are each read whole, with
/// the same rows.
#[test]
fn forks_at_spread_cutoffs_go_on_from_each_other_and_give_what_each_gives_alone() {
    let home = tempfile::tempdir().unwrap();
    let day = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&day).unwrap();
    let line = |o: u64, kind: &str, payload: &str| record(o % 10, o, kind, payload);
    let user = user_message;
    // The parent's lines, each with the ordinal the next fork may cut before.
    let meta = |id: &str| {
        format!(
            r#"{{"id":"{id}","timestamp":"2026-11-29T12:00:00.000Z","cwd":"/w","originator":"t","cli_version":"0.171.0","history_mode":"paginated"}}"#
        )
    };
    let body = |id: &str, late: bool| -> Vec<String> {
        let mut v = vec![
            line(0, "session_meta", &meta(id)),
            line(1, "event_msg", r#"{"type":"task_started","turn_id":"t1"}"#),
            line(2, "response_item", &user("p1")),
            line(
                3,
                "response_item",
                r#"{"type":"function_call","name":"shell","call_id":"c1","arguments":"{}"}"#,
            ),
            line(4, "event_msg", r#"{"type":"task_complete","turn_id":"t1"}"#),
            line(5, "event_msg", r#"{"type":"task_started","turn_id":"t2"}"#),
            line(
                6,
                "response_item",
                r#"{"type":"function_call_output","call_id":"c1","output":"done"}"#,
            ),
            line(
                7,
                "event_msg",
                r#"{"type":"token_count","info":{"total_token_usage":{"input_tokens":5,"output_tokens":1,"total_tokens":6}}}"#,
            ),
            line(8, "response_item", &user("p2")),
            String::new(),
            line(
                9,
                "event_msg",
                r#"{"type":"thread_rolled_back","num_turns":1}"#,
            ),
            line(10, "response_item", &user("p3")),
            "{not json".to_string(),
            line(
                11,
                "compacted",
                &format!(
                    r#"{{"message":"s","replacement_history":[{}],"window_number":1}}"#,
                    user("kept")
                ),
            ),
            line(12, "response_item", &user("p4")),
            line(13, "response_item", &user("p5")),
        ];
        if late {
            // An ordinal below the forks' cutoffs, written after them.
            v.push(line(3, "response_item", &user("late")));
        }
        v
    };
    let mut all = Vec::new();
    for (n, parent, late, forks) in [
        (
            1,
            A,
            false,
            &[(6, 0), (9, 0), (12, 0), (12, 1), (14, 0), (4, 0)][..],
        ),
        (2, B, true, &[(6, 0), (9, 0), (14, 0)][..]),
    ] {
        let lines = body(parent, late);
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(day.join(rollout_name(parent)), &text).unwrap();
        // Where the line with each ordinal starts.
        let mut starts = std::collections::HashMap::new();
        let mut at = 0u64;
        for l in &lines {
            if let Ok(v) = serde_json::from_str::<Value>(l) {
                starts.entry(v["ordinal"].as_u64().unwrap()).or_insert(at);
            }
            at += l.len() as u64 + 1;
        }
        for (k, &(end, off_by)) in forks.iter().enumerate() {
            let id = format!("01a22749-0000-7000-8000-000000000{n}{k:02}");
            let off = starts.get(&end).copied().unwrap_or(at) + off_by;
            let fork = paginated(&id, end, Some((parent, end, off)), &[&format!("f{k}")]);
            let path = day.join(rollout_name(&id));
            std::fs::write(&path, fork).unwrap();
            all.push(path);
        }
    }
    all.sort();
    let views: [&[&str]; 5] = [
        &["replay", "--format", "ndjson"],
        &["replay", "--for-prompt", "--format", "ndjson"],
        &["replay", "--view", "state", "--format", "ndjson"],
        &["replay", "--view", "ui", "--format", "ndjson"],
        &["lint", "--format", "ndjson"],
    ];
    // Four workers begin forks together: the later ones wait for the earlier ones' rebuilds.
    each_as_alone(home.path(), &views, &all, &["1", "2", "4"]);
    let run =
        |args: &[&str], files: &[PathBuf], trace: bool| run_home(home.path(), args, files, trace);
    // The history the fork at 9 carries: the rollback and compaction lie past it.
    let rows = ndjson(&run(&["replay", "--format", "ndjson"], &all[1..2], false).0);
    assert_eq!(
        rows.iter()
            .map(|r| r["item"]["type"].as_str().unwrap())
            .collect::<Vec<_>>(),
        [
            "message",
            "function_call",
            "function_call_output",
            "message",
            "message"
        ]
    );
    let mut with_parents = all.clone();
    with_parents.push(day.join(rollout_name(A)));
    with_parents.push(day.join(rollout_name(B)));
    with_parents.sort();
    let (_, stderr) = run(
        &["lint", "--format", "ndjson", "-j", "1"],
        &with_parents,
        true,
    );
    let reads = |id: &str| {
        stderr
            .lines()
            .find(|l| l.contains(id))
            .and_then(|l| l.split(' ').nth(2))
            .unwrap_or_else(|| panic!("{stderr}"))
            .to_string()
    };
    // As itself, for the first fork, for the fork below the others.
    assert_eq!(reads(A), "3×", "{stderr}");
    // As itself and for each of its three forks.
    assert_eq!(reads(B), "4×", "{stderr}");
}

/// Forks of the real 0.171 parent (`testdata/real/0.171.0/fork/`: turn context, world
/// state, reasoning-free messages, item events, token usage) at a cutoff after each of its
/// lines that a fork can cut at, listed in order, and one listed last that cuts below the
/// others: each goes on from the rebuild before it (the last from the latest below its
/// cutoff, not the latest kept), its rows in every view and its findings what it gives
/// alone, with one worker, two and four; the parent is read whole twice with one worker
/// (as itself, and for the first fork).
#[test]
fn forks_of_a_real_parent_at_many_cutoffs_go_on_from_each_other() {
    let real = testdata("real/0.171.0/fork/sessions/2026/11/29");
    let name = "rollout-2026-11-29T12-00-55-01a2272d-fced-7f63-8ff0-e3a6e151dcbb.jsonl";
    let parent_id = "01a2272d-fced-7f63-8ff0-e3a6e151dcbb";
    let text = std::fs::read_to_string(real.join(name)).unwrap();
    let home = tempfile::tempdir().unwrap();
    let day = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&day).unwrap();
    std::fs::write(day.join(name), &text).unwrap();
    // Where the line with each ordinal starts (the file's ordinals are its line numbers
    // less one), and its end.
    let starts: Vec<u64> = text
        .split_inclusive('\n')
        .scan(0u64, |at, l| {
            let start = *at;
            *at += l.len() as u64;
            Some(start)
        })
        .chain(std::iter::once(text.len() as u64))
        .collect();
    let mut forks = Vec::new();
    for (k, end) in [2u64, 5, 8, 11, 14, 3].into_iter().enumerate() {
        let id = format!("01a2272d-fced-7f63-8ff0-e3a6e1520{k:03}");
        let base = (parent_id, end, starts[end as usize]);
        let fork = paginated(&id, end, Some(base), &[&format!("f{k}")]);
        let path = day.join(format!("rollout-2026-11-29T12-01-0{k}-{id}.jsonl"));
        std::fs::write(&path, fork).unwrap();
        forks.push(path);
    }
    let views: [&[&str]; 4] = [
        &["replay", "--format", "ndjson"],
        &["replay", "--for-prompt", "--format", "ndjson"],
        &["replay", "--view", "state", "--format", "ndjson"],
        &["lint", "--format", "ndjson"],
    ];
    each_as_alone(home.path(), &views, &forks, &["1", "2", "4"]);
    let mut all = forks.clone();
    all.insert(0, day.join(name));
    let (_, stderr) = run_home(
        home.path(),
        &["lint", "--format", "ndjson", "-j", "1"],
        &all,
        true,
    );
    let parent_reads = stderr
        .lines()
        .find(|l| l.contains(parent_id))
        .and_then(|l| l.split(' ').nth(2))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(parent_reads, "2×", "{stderr}");
}
