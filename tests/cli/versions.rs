//! Codex's reading per version (`docs/codex-versions.md`), held against the real Codex: for
//! every fixture of `testdata/versions/` and every version that resumed it
//! (`<case>/verdicts/<version>.json`), `replay --codex VERSION` says what that version did:
//! the state view's `outcome` (refused, or resumed with or without loss), `--for-prompt`'s
//! items exactly as that version sent them, and its `client_view` where the app-server's view
//! was recorded (`<version>-client.json`). Then the table the page is made of: the page is
//! the table, and every fixture a row cites exists.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{ndjson, output, rollscope, root, shared_corpus, testdata};

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn sent(item: &Value) -> Value {
    let mut i = item.clone();
    if let Some(m) = i.as_object_mut() {
        m.remove("internal_chat_message_metadata_passthrough");
    }
    i
}

/// The file a case resumes, placed as the verdict placed it: a name Codex does not know
/// goes under a Codex home's `sessions/` (where the name decides), the others stay where
/// they are (a fork's source beside it).
fn subject(case: &Path, fixture: &str, home: &Path) -> PathBuf {
    let file = case.parent().unwrap().join(fixture);
    let name = file.file_name().unwrap().to_str().unwrap();
    if name.starts_with("rollout-") {
        return file;
    }
    let day = home.join("sessions/2026/11/29");
    std::fs::create_dir_all(&day).unwrap();
    let placed = day.join(name);
    std::fs::copy(&file, &placed).unwrap();
    placed
}

/// `rollscope ARGS --codex VERSION --format ndjson PATH`, any exit code but 2.
fn run(args: &[&str], version: &str, path: &Path) -> Vec<Value> {
    let out = rollscope()
        .args(args)
        .args(["--codex", version, "--format", "ndjson", "--no-config"])
        .arg(path)
        .output()
        .unwrap();
    assert_ne!(
        out.status.code(),
        Some(2),
        "{args:?} {version} {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    ndjson(&out.stdout)
}

/// A file `version` resumed: the state view does not call it refused, and `--for-prompt`
/// sends what that version sent (the verdict's `history`).
fn assert_resumed_as(verdict: &Value, version: &str, fixture: &Path, state: &Value, what: &str) {
    assert_ne!(state["outcome"], "refused", "{what}: {state:#}");
    let rows = run(&["replay", "--for-prompt"], version, fixture);
    let got: Vec<Value> = rows.iter().map(|r| sent(&r["item"])).collect();
    let want: Vec<Value> = verdict["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(sent)
        .collect();
    assert_eq!(got, want, "{what}");
}

#[test]
fn each_version_reads_each_fixture_as_the_real_codex_of_that_version_did() {
    let dir = testdata("versions");
    let home = tempfile::tempdir().unwrap();
    let (mut checked, mut resumed, mut clients) = (0, 0, 0);
    for case in std::fs::read_dir(&dir).unwrap() {
        let case = case.unwrap().path();
        let Ok(verdicts) = std::fs::read_dir(case.join("verdicts")) else {
            continue;
        };
        for v in verdicts {
            let path = v.unwrap().path();
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            // `<version>.json` is the resume by the id in the name (the outcome);
            // `-client` what the app-server showed; other suffixes are remedies.
            let (version, kind) = stem.split_once('-').unwrap_or((&stem, ""));
            if !matches!(kind, "" | "client") {
                continue;
            }
            let verdict = read_json(&path);
            let fixture = subject(&case, verdict["fixture"].as_str().unwrap(), home.path());
            let what = format!("{} as {version}", path.display());
            let state = run(&["replay", "--view", "state"], version, &fixture);
            let state = &state[0];
            assert_eq!(state["codex_version"], version, "{what}");
            assert_eq!(state["codex_version_source"], "flag", "{what}");
            if kind == "client" {
                // The app-server showed no turn where the clean source has some: stuck.
                let stuck = verdict["turn_count"] == 0 && verdict["clean_source_turn_count"] != 0;
                let want = if stuck { "stuck" } else { "complete" };
                assert_eq!(state["client_view"], want, "{what}: {state:#}");
                clients += 1;
                continue;
            }
            checked += 1;
            match verdict["outcome"].as_str().unwrap() {
                "resumed" => {
                    assert_resumed_as(&verdict, version, &fixture, state, &what);
                    resumed += 1;
                }
                "refused" => assert_eq!(state["outcome"], "refused", "{what}: {state:#}"),
                other => panic!("{what}: outcome {other}"),
            }
        }
    }
    assert!(
        checked >= 66 && resumed >= 40 && clients >= 4,
        "{checked} {resumed} {clients}"
    );
}

/// The verdicts of `testdata/replay/by-version/` (a fixture of `testdata/replay` resumed by
/// an older Codex): `--codex` that version rebuilds what it sent, and does not call it
/// refused.
#[test]
fn each_older_version_reads_the_replay_fixtures_as_it_did() {
    let mut checked = 0;
    for e in std::fs::read_dir(testdata("replay/by-version")).unwrap() {
        let path = e.unwrap().path();
        let verdict = read_json(&path);
        let version = verdict["codex_version"].as_str().unwrap();
        let fixture = testdata("replay").join(verdict["fixture"].as_str().unwrap());
        let what = format!("{} as {version}", path.display());
        assert_eq!(verdict["outcome"], "resumed", "{what}");
        let state = &run(&["replay", "--view", "state"], version, &fixture)[0];
        assert_resumed_as(&verdict, version, &fixture, state, &what);
        checked += 1;
    }
    assert!(checked >= 5);
}

/// A defect whose effect differs by version has a severity that follows it: the same file
/// is an error where the version refuses it or loses history, a warning where it only warns
/// or a client's view is stuck, info where nothing changes.
#[test]
fn a_findings_severity_follows_what_the_version_does() {
    let severity = |rel: &str, version: &str, rule: &str| -> String {
        let rows = run(&["lint"], version, &testdata(rel));
        let f = rows
            .iter()
            .find(|r| r["rule"] == rule)
            .unwrap_or_else(|| panic!("{rel} as {version}: no {rule}: {rows:#?}"));
        assert_eq!(f["codex_version"], version);
        f["severity"].as_str().unwrap().to_string()
    };
    let dup = "versions/ordinal-duplicate";
    let dup = std::fs::read_dir(testdata(dup))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .unwrap();
    let dup = dup.strip_prefix(root().join("testdata")).unwrap();
    let dup = dup.to_str().unwrap();
    for (version, want) in [
        ("0.128.0", "info"),
        ("0.153.4", "warning"),
        ("0.171.0", "warning"),
    ] {
        assert_eq!(
            severity(dup, version, "ordinal.non-monotonic"),
            want,
            "{version}"
        );
    }
    let compaction = "replay/compaction-metadata-len-mismatch.jsonl";
    assert_eq!(
        severity(compaction, "0.147.0", "compact.metadata-len"),
        "info"
    );
    assert_eq!(
        severity(compaction, "0.154.0", "compact.metadata-len"),
        "error"
    );
    // The exit code follows: 0.147 applies the compaction.
    let args = |v: &'static str| ["lint", "--no-config", "--codex", v];
    let path = testdata(compaction);
    let p = path.to_str().unwrap();
    output(&[&args("0.147.0")[..], &[p]].concat(), 0);
    output(&[&args("0.171.0")[..], &[p]].concat(), 1);
}

#[test]
fn a_version_is_parsed_or_refused_and_file_reads_each_files_own() {
    let p = testdata("replay/compaction-metadata-len-mismatch.jsonl");
    let p = p.to_str().unwrap();
    let out = output(&["lint", "--codex", "0.17x", p], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--codex: `0.17x` is not a Codex version"),
        "{err}"
    );
    // The file says 0.171.0.
    let rows = ndjson(
        &output(
            &[
                "replay", "--view", "state", "--format", "ndjson", "--codex", "file", p,
            ],
            0,
        )
        .stdout,
    );
    assert_eq!(rows[0]["codex_version"], "0.171.0");
    assert_eq!(rows[0]["codex_version_source"], "file");
    // A version older than every row reads as the oldest row.
    let rows = ndjson(
        &output(
            &["check-ordinal", "--format", "ndjson", "--codex", "0.1", p],
            0,
        )
        .stdout,
    );
    assert_eq!(rows[0]["codex_version"], "0.1.0");
    // Nothing named: the newest.
    let rows = ndjson(&output(&["check-ordinal", "--format", "ndjson", p], 0).stdout);
    assert_eq!(rows[0]["codex_version_source"], "default");
}

/// `[codex] version` in `rollscope.toml` is read by the three commands that read files as a
/// version, and `--codex` wins over it.
#[test]
fn the_config_files_codex_version_is_read_and_the_flag_wins() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("rollscope.toml");
    std::fs::write(&config, "[codex]\nversion = \"0.150.0\"\n").unwrap();
    let file = testdata("replay/compaction-metadata-len-mismatch.jsonl");
    for args in [
        &["replay", "--view", "state"][..],
        &["check-ordinal"][..],
        &["lint"][..],
    ] {
        let with = |extra: &[&str]| -> Value {
            let out = rollscope()
                .current_dir(dir.path())
                .args(args)
                .args(["--format", "ndjson"])
                .args(extra)
                .arg(&file)
                .output()
                .unwrap();
            let rows = ndjson(&out.stdout);
            rows.into_iter().next().unwrap_or(Value::Null)
        };
        let row = with(&[]);
        assert_eq!(row["codex_version"], "0.150.0", "{args:?}");
        assert_eq!(row["codex_version_source"], "config", "{args:?}");
        assert_eq!(with(&["--codex", "0.171"])["codex_version"], "0.171.0");
        assert_eq!(with(&["--no-config"])["codex_version_source"], "default");
    }
}

#[test]
fn the_versions_page_is_the_table_and_every_fixture_it_cites_exists() {
    use rollscope::codex::{table::TABLE, Evidence};
    for row in TABLE {
        for e in row.evidence {
            if let Evidence::Fixture(rel) = e {
                assert!(root().join(rel).exists(), "{rel}: cited, missing");
            }
        }
    }
    let page = rollscope::output::versions::markdown();
    crate::util::assert_generated("docs/codex-versions.md", &page, "this test");
}

/// The scenarios whose files hold a real defect: a process killed or interrupted mid-turn.
const KILLED: [&str; 5] = [
    "killed_in_tool",
    "killed_in_tool_resume",
    "kill_then_resume",
    "interrupt_sigint",
    "interrupt_sigkill",
];

/// Every clean real rollout (every scenario but the killed ones) lints without an error or
/// a warning, read as the newest Codex and as the Codex that wrote it (`--codex file`).
fn clean_scenarios_lint_clean_as_the_newest_and_as_their_own_version(tree: &Path) -> usize {
    let mut files = 0;
    for codex in ["newest", "file"] {
        let rows = run(&["lint"], codex, tree);
        let serious: Vec<&Value> = rows
            .iter()
            .filter(|r| r["severity"] != "info")
            .filter(|r| {
                let path = r["path"].as_str().unwrap();
                !KILLED.iter().any(|k| path.contains(&format!("/{k}/")))
            })
            .collect();
        assert!(serious.is_empty(), "--codex {codex}: {serious:#?}");
        files = crate::util::rollouts_under(tree).len();
    }
    files
}

crate::util::every_real_file!(
    clean_scenarios_lint_clean_as_the_newest_and_as_their_own_version:
        clean_real_files_lint_clean_as_the_newest_and_their_own_codex,
        clean_corpus_files_lint_clean_as_the_newest_and_their_own_codex
);

/// `--list-rules` and SARIF's `defaultConfiguration` give the severities of the version
/// chosen: under 0.150 a duplicate ordinal stops what a client is shown (a warning) and a
/// compaction whose metadata does not match is applied (info); under the newest, the
/// compaction is skipped (an error).
#[test]
fn the_rule_list_shows_the_severities_of_the_version_chosen() {
    let severity = |version: &str, slug: &str| -> String {
        let rows = ndjson(
            &output(
                &[
                    "lint",
                    "--list-rules",
                    "--format",
                    "ndjson",
                    "--codex",
                    version,
                ],
                0,
            )
            .stdout,
        );
        let row = rows.iter().find(|r| r["slug"] == slug).unwrap();
        row["severity"].as_str().unwrap().to_string()
    };
    assert_eq!(severity("0.150", "compact.metadata-len"), "info");
    assert_eq!(severity("0.171", "compact.metadata-len"), "error");
    assert_eq!(severity("0.150", "ordinal.non-monotonic"), "warning");
    assert_eq!(severity("0.128", "ordinal.non-monotonic"), "info");
    let out = output(
        &[
            "lint",
            "--list-rules",
            "--format",
            "sarif",
            "--codex",
            "0.150",
        ],
        0,
    );
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let rule = rules
        .iter()
        .find(|r| r["id"] == "compact.metadata-len")
        .unwrap();
    assert_eq!(rule["defaultConfiguration"]["level"], "note");
    assert_eq!(log["runs"][0]["properties"]["codex_version"], "0.150.0");
}
