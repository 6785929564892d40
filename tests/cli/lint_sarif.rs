//! `rollscope lint --format sarif`: a log valid against the SARIF 2.1.0 schema (vendored in
//! `testdata/sarif/`), whose rules are the rules selected and whose results are the NDJSON
//! findings, one for one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::*;

/// Clean files, files with findings about the whole file, and every broken copy, relative
/// to the project root (where the runs run, so artifact URIs stay relative).
fn samples() -> Vec<PathBuf> {
    let mut files = vec![
        real_file("0.171.0", "shell", ""),
        real_file("0.36.0", "shell", ""),
        testdata("replay/meta-missing"),
        testdata("replay/compaction-metadata-len-mismatch.jsonl"),
    ];
    let mut broken: Vec<PathBuf> = std::fs::read_dir(testdata("broken"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    broken.sort();
    assert!(broken.len() > 20);
    files.extend(broken);
    files
        .into_iter()
        .map(|f| f.strip_prefix(root()).unwrap().to_path_buf())
        .collect()
}

/// The vendored schema's validator, formats (`uri`, `uri-reference`) checked too.
fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(testdata("sarif/sarif-schema-2.1.0.json")).unwrap();
    // The draft-07 copy carries a `language` pattern that is no valid regex (a stray `]`),
    // which the validator refuses to compile; SARIF's errata 01 corrected it to this one.
    let broken = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert!(
        text.contains(broken),
        "the vendored schema changed: review this fix"
    );
    let text = text.replace(broken, r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#);
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

#[track_caller]
fn assert_valid(v: &jsonschema::Validator, log: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(log)
        .map(|e| format!("{e} (at {})", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// `lint --format sarif ARGS... PATHS...`: exit code, the log, stderr.
fn sarif(args: &[&str], paths: &[&Path]) -> (i32, Value, String) {
    let mut cmd = rollscope();
    cmd.current_dir(root());
    cmd.args(["lint", "--format", "sarif"])
        .args(args)
        .args(paths);
    let out = cmd.output().unwrap();
    let log = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    let code = out.status.code().unwrap();
    (code, log, String::from_utf8(out.stderr).unwrap())
}

/// `lint --format ndjson ARGS... PATHS...`: exit code and rows.
fn ndjson_lint(args: &[&str], paths: &[&Path]) -> (i32, Vec<Value>) {
    let out = rollscope()
        .current_dir(root())
        .args(["lint", "--format", "ndjson"])
        .args(args)
        .args(paths)
        .output()
        .unwrap();
    (out.status.code().unwrap(), ndjson(&out.stdout))
}

/// A result as the NDJSON row it stands for: `(path, line, byte_offset, rule, severity,
/// message)`.
fn as_row(result: &Value) -> (Value, Value, Value, Value, Value, Value) {
    let loc = &result["locations"][0]["physicalLocation"];
    let severity = match result["level"].as_str().unwrap() {
        "note" => "info",
        other => other,
    };
    (
        loc["artifactLocation"]["uri"].clone(),
        loc["region"]["startLine"].clone(),
        loc["region"]["byteOffset"].clone(),
        result["ruleId"].clone(),
        severity.into(),
        result["message"]["text"].clone(),
    )
}

/// A row as the result it stands for: a finding about the whole file is at line 1.
fn row(r: &Value) -> (Value, Value, Value, Value, Value, Value) {
    let line = match &r["line"] {
        Value::Null => 1.into(),
        l => l.clone(),
    };
    (
        r["path"].clone(),
        line,
        r["byte_offset"].clone(),
        r["rule"].clone(),
        r["severity"].clone(),
        r["message"].clone(),
    )
}

fn rule_ids(log: &Value) -> Vec<String> {
    log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

/// Every rule of `lint --list-rules`: `(slug, group)`, in registry order.
fn listed() -> Vec<(String, String)> {
    rows(&["lint", "--list-rules", "--format", "ndjson"], 0)
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap().to_string();
            (s("slug"), s("group"))
        })
        .collect()
}

#[test]
fn sarif_logs_validate_against_the_sarif_2_1_0_schema() {
    let v = validator();
    let files = samples();
    for f in &files {
        let (code, log, _) = sarif(&[], &[f]);
        assert!(code == 0 || code == 1, "{}: exit {code}", f.display());
        assert_valid(&v, &log, &f.display().to_string());
    }
    let all: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let (_, log, _) = sarif(&["--fail-on", "info"], &all);
    assert_valid(&v, &log, "every sample in one run");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() > 30, "{}", results.len());
    // The check has teeth: a URI with a space in it is refused.
    let mut bad = log.clone();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        "a b.jsonl".into();
    assert!(!v.is_valid(&bad));
    // Every result has a region (line 1 for a finding about the whole file: code scanning
    // drops a result without one) and a fingerprint, and no two share one.
    let mut prints = std::collections::HashSet::new();
    for r in results {
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert!(region["startLine"].as_u64().is_some_and(|l| l >= 1), "{r}");
        let print = r["partialFingerprints"]["rollscope/v1"].as_str();
        assert!(print.is_some_and(|p| p.len() == 32), "{r}");
        assert!(
            prints.insert(print.unwrap().to_string()),
            "a fingerprint twice: {r}"
        );
    }
    assert!(results
        .iter()
        .any(|r| r["locations"][0]["physicalLocation"]["region"]
            == serde_json::json!({"startLine": 1})));
    assert_eq!(log["runs"][0]["columnKind"], "unicodeCodePoints");
}

/// Microsoft's SARIF multitool (`validate --rule-kind "Sarif;Gh"`: SARIF's own rules and
/// the ones GitHub code scanning holds an upload to) finds nothing in a log of every
/// sample, nor in a clean file's, but the advice to name an `informationUri` (SARIF2005:
/// rollscope has no public home yet); a result without a region (SARIF2017) or anything
/// else fails. It exits 0 whatever it finds, so its own log is read.
#[test]
fn sarif_logs_pass_the_sarif_multitool_s_sarif_and_github_rules() {
    let Some(multitool) = tool(
        "sarif-multitool",
        "the logs were not checked against SARIF's and GitHub's rules",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let files = samples();
    let all: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let (_, every, _) = sarif(&["--fail-on", "info"], &all);
    let (_, clean, _) = sarif(&[], &[&files[0]]);
    // The check has teeth: a result without a message text is an error.
    let mut bad = every.clone();
    bad["runs"][0]["results"][0]["message"]
        .as_object_mut()
        .unwrap()
        .remove("text");
    for (name, log) in [("every", &every), ("clean", &clean), ("bad", &bad)] {
        let text = serde_json::to_string_pretty(log).unwrap();
        std::fs::write(dir.path().join(format!("{name}.sarif")), text).unwrap();
    }
    let report = dir.path().join("validation.json");
    // The executable itself: npm's `sarif-multitool` wrapper passes its arguments through
    // a shell unquoted, where `Sarif;Gh` would be two commands.
    let out = std::process::Command::new(&multitool)
        .args([
            "validate",
            "--rule-kind",
            "Sarif;Gh",
            "--log",
            "ForceOverwrite",
        ])
        .arg("--output")
        .arg(&report)
        .args(["every", "clean", "bad"].map(|n| dir.path().join(format!("{n}.sarif"))))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}: {said}", multitool.display());
    let report: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in report["runs"][0]["results"].as_array().unwrap() {
        // Absent, a result's level is a warning.
        if r["ruleId"] == "SARIF2005" && r["level"] != "error" {
            continue;
        }
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        let file = uri.rsplit('/').next().unwrap().to_string();
        let rule = r["ruleId"].as_str().unwrap().to_string();
        let text = r["message"]["arguments"].to_string();
        errors
            .entry(file)
            .or_default()
            .push(format!("{rule} {text}"));
    }
    let bad = errors.remove("bad.sarif").unwrap_or_default();
    assert!(bad.iter().any(|r| r.starts_with("GH")), "{bad:?}\n{said}");
    assert!(errors.is_empty(), "{errors:?}\n{said}");
}

#[test]
fn sarif_results_are_the_ndjson_findings_one_for_one() {
    for f in samples() {
        let (code, log, stderr) = sarif(&[], &[&f]);
        let (nd_code, rows) = ndjson_lint(&[], &[&f]);
        assert_eq!(code, nd_code, "{}", f.display());
        // A machine format: no summary line.
        assert_eq!(stderr, "", "{}", f.display());
        let results = log["runs"][0]["results"].as_array().unwrap();
        let got: Vec<_> = results.iter().map(as_row).collect();
        let want: Vec<_> = rows.iter().map(row).collect();
        assert_eq!(got, want, "{}", f.display());
        let ids = rule_ids(&log);
        for r in results {
            let i = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(ids[i], r["ruleId"].as_str().unwrap());
            // A whole line, or the whole file (line 1 alone).
            let region = &r["locations"][0]["physicalLocation"]["region"];
            if region.get("endLine").is_some() {
                assert_eq!(region["startColumn"], 1);
            } else {
                assert_eq!(region, &serde_json::json!({"startLine": 1}));
            }
        }
    }
}

#[test]
fn sarif_rules_are_the_rules_selected_in_registry_order() {
    let f = testdata("broken/bom.jsonl");
    let all: Vec<String> = listed().into_iter().map(|(s, _)| s).collect();
    let (_, log, _) = sarif(&[], &[&f]);
    assert_eq!(rule_ids(&log), all);
    let (_, log, _) = sarif(&["--select", "meta,file", "--ignore", "file.bom"], &[&f]);
    let want: Vec<String> = listed()
        .into_iter()
        .filter(|(s, g)| (g == "meta" || g == "file") && s != "file.bom")
        .map(|(s, _)| s)
        .collect();
    assert_eq!(rule_ids(&log), want);
    assert!(log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["ruleId"] != "file.bom"));
    let rule = &log["runs"][0]["tool"]["driver"]["rules"][0];
    assert_eq!(rule["properties"]["group"], "file");
    assert!(rule["help"]["markdown"]
        .as_str()
        .unwrap()
        .contains("**Fix.**"));
}

#[test]
fn the_sarif_driver_is_rollscope_at_its_version() {
    let (code, log, _) = sarif(&[], &[&testdata("replay/output-deleted.jsonl")]);
    assert_eq!(code, 0);
    assert_eq!(log["version"], "2.1.0");
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "rollscope");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        driver.get("informationUri").and_then(Value::as_str),
        Some(env!("CARGO_PKG_REPOSITORY")).filter(|u| !u.is_empty())
    );
    // A clean file: an empty result list, not none.
    let (code, log, _) = sarif(&[], &[&real_file("0.171.0", "shell", "")]);
    assert_eq!(code, 0);
    assert!(log["runs"][0]["results"].as_array().unwrap().is_empty());
}

#[test]
fn sarif_artifacts_are_uris_of_the_paths_and_stdin_is_dev_stdin() {
    let tmp = tempfile::tempdir().unwrap();
    let named = tmp.path().join("a b%.jsonl");
    std::fs::copy(testdata("broken/bom.jsonl"), &named).unwrap();
    let (code, log, _) = sarif(&[], &[&named]);
    assert_eq!(code, 1);
    let uri = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"];
    let want = format!("file://{}/a%20b%25.jsonl", tmp.path().display());
    assert_eq!(uri.as_str(), Some(want.as_str()));

    let out = rollscope()
        .args(["lint", "--format", "sarif", "-"])
        .pipe_stdin(testdata("broken/bom.jsonl"))
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let loc = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "file:///dev/stdin");
    assert_valid(&validator(), &log, "stdin");
}

/// `--list-rules --format sarif`: the rules as code scanning takes them, every rule of the
/// registry described, no results.
#[test]
fn the_rule_list_as_sarif_is_a_valid_log_of_every_rule_and_no_result() {
    let out = rollscope()
        .args(["lint", "--list-rules", "--format", "sarif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid(&validator(), &log, "--list-rules");
    let run = &log["runs"][0];
    assert_eq!(run["results"].as_array().map(Vec::len), Some(0));
    let listed = rollscope()
        .args(["lint", "--list-rules", "--format", "json"])
        .output()
        .unwrap();
    let rules: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    let ids: Vec<&Value> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["id"])
        .collect();
    let slugs: Vec<&Value> = rules.iter().map(|r| &r["slug"]).collect();
    assert_eq!(ids, slugs);
}

/// Issue #24's named change: a result's region ends where its span ends, columns counted in
/// Unicode scalar values, and the run says so. A BOM is one character (columns 1 to 2); a
/// line that is not JSON spans the whole line, whose characters the test counts itself.
#[test]
fn regions_end_where_the_span_ends_counted_in_characters() {
    let run = |path: &Path| -> Value {
        let out = output(&["lint", "--format", "sarif", path.to_str().unwrap()], 1);
        let log: Value = serde_json::from_slice(&out.stdout).unwrap();
        log["runs"][0].clone()
    };
    let region = |run: &Value, rule: &str| -> Value {
        let r = run["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["ruleId"] == rule)
            .unwrap_or_else(|| panic!("no {rule}"));
        r["locations"][0]["physicalLocation"]["region"].clone()
    };
    let bom = std::fs::read_dir(testdata("lint/file.bom/fires"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let r = run(&bom);
    assert_eq!(r["columnKind"], "unicodeCodePoints");
    let b = region(&r, "file.bom");
    assert_eq!(
        [
            &b["startLine"],
            &b["startColumn"],
            &b["endLine"],
            &b["endColumn"]
        ],
        [1, 1, 1, 2]
    );

    let tmp = tempfile::tempdir().unwrap();
    let clean = std::fs::read_to_string(&bom).unwrap();
    let clean = clean.trim_start_matches('\u{feff}');
    let mut lines: Vec<&str> = clean.lines().collect();
    let bad = r#"{"timestamp":"2026-11-29T12:02:16.352Z","type":"event_msg","payload":{"type":"agent_message","message":"héllo — ünïcode ✓""#;
    lines.insert(4, bad);
    let path = tmp.path().join(bom.file_name().unwrap());
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let j = region(&run(&path), "line.json");
    let chars = bad.chars().count() as u64;
    assert!(chars < bad.len() as u64, "the line is not ASCII");
    assert_eq!(
        [
            &j["startLine"],
            &j["startColumn"],
            &j["endLine"],
            &j["endColumn"]
        ],
        [5, 1, 5, chars + 1]
    );
}

/// `lint --format sarif ARGS... PATHS...` run in `dir`: exit code and the log.
fn sarif_in(dir: &Path, args: &[&str], paths: &[&Path]) -> (i32, Value) {
    let out = rollscope()
        .current_dir(dir)
        .args(["lint", "--no-config", "--format", "sarif"])
        .args(args)
        .args(paths)
        .output()
        .unwrap();
    let log = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    (out.status.code().unwrap(), log)
}

/// Each result as `(rule, start line, fingerprint)`.
fn printed(log: &Value) -> Vec<(String, u64, String)> {
    log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
                r["partialFingerprints"]["rollscope/v1"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect()
}

/// Code scanning matches an alert across runs by its fingerprint: the findings of a file
/// and of the same file with a blank line inserted at its top have the same fingerprints
/// (their lines all moved down one; the blank line is a finding of its own), and a run
/// repeated gives the same log. Two findings of one rule on identical lines differ by their
/// occurrence (`ordinal-line-duplicated.jsonl`: the same record twice). (A file that
/// starts with a BOM is not among them: a line before it makes it no BOM.)
#[test]
fn fingerprints_survive_lines_moving_and_runs_repeating() {
    for name in [
        "ordinal-line-deleted.jsonl",
        "ordinal-line-duplicated.jsonl",
        "invalid-json-mid-file.jsonl",
        "calls-output-deleted.jsonl",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rollout.jsonl");
        let text = std::fs::read(testdata(&format!("broken/{name}"))).unwrap();
        std::fs::write(&file, &text).unwrap();
        let (_, first) = sarif_in(dir.path(), &[], &[Path::new("rollout.jsonl")]);
        let (_, again) = sarif_in(dir.path(), &[], &[Path::new("rollout.jsonl")]);
        assert_eq!(first, again, "{name}: a second run differs");
        let before = printed(&first);
        assert!(!before.is_empty(), "{name}");
        let mut moved = b"\n".to_vec();
        moved.extend_from_slice(&text);
        std::fs::write(&file, &moved).unwrap();
        let (_, after) = sarif_in(dir.path(), &[], &[Path::new("rollout.jsonl")]);
        let after = printed(&after);
        for (rule, line, print) in &before {
            // A finding about the whole file stays at line 1; one of a line moves with it,
            // unless it is about the file's start, which is now the blank line.
            let found = after.iter().find(|(_, _, p)| p == print);
            assert!(
                found.is_some(),
                "{name}: {rule} at line {line} lost its fingerprint: {after:?}"
            );
        }
        let new: Vec<_> = after
            .iter()
            .filter(|(_, _, p)| !before.iter().any(|(_, _, q)| q == p))
            .collect();
        assert!(
            new.iter().all(|(_, line, _)| *line == 1),
            "{name}: findings new in the moved file: {new:?}"
        );
    }
}

/// Paths are relative to `--root` (default: the current directory), normalised (no `./`,
/// no `..`), based at `%SRCROOT%`, whose absolute URI `originalUriBaseIds` gives; a file
/// outside the root is an absolute `file://` URI. The github format names files the same
/// way.
#[test]
fn paths_are_relative_to_the_root_and_based_at_srcroot() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let file = repo.join("logs/rollout.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::copy(testdata("broken/bom.jsonl"), &file).unwrap();
    let outside = dir.path().join("elsewhere.jsonl");
    std::fs::copy(testdata("broken/bom.jsonl"), &outside).unwrap();
    let location = |log: &Value, i: usize| {
        log["runs"][0]["results"][i]["locations"][0]["physicalLocation"]["artifactLocation"].clone()
    };
    let want = serde_json::json!({"uri": "logs/rollout.jsonl", "uriBaseId": "%SRCROOT%"});
    for (cwd, args, path) in [
        (&repo, vec![], "./logs/rollout.jsonl"),
        (&repo, vec![], "logs/../logs/./rollout.jsonl"),
        (
            &dir.path().to_path_buf(),
            vec!["--root", "repo"],
            "repo/logs/rollout.jsonl",
        ),
    ] {
        let (code, log) = sarif_in(cwd, &args, &[Path::new(path)]);
        assert_eq!(code, 1);
        assert_eq!(location(&log, 0), want, "{path} {args:?}");
        let base = &log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"];
        let root = format!("file://{}/", repo.canonicalize().unwrap().display());
        let lexical = format!("file://{}/", repo.display());
        assert!(base == &root || base == &lexical, "{base}");
        assert_valid(&validator(), &log, path);
    }
    let (_, log) = sarif_in(&repo, &[], &[&outside]);
    let at = location(&log, 0);
    assert_eq!(at["uri"], format!("file://{}", outside.display()));
    assert!(at.get("uriBaseId").is_none(), "{at}");
    // Annotations: the same paths.
    let out = rollscope()
        .current_dir(dir.path())
        .args([
            "lint",
            "--no-config",
            "--format",
            "github",
            "--root",
            "repo",
        ])
        .args(["./repo/logs/rollout.jsonl", "elsewhere.jsonl"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .any(|l| l.contains(" file=logs/rollout.jsonl,")),
        "{text}"
    );
    let abs = format!(" file={},", outside.display()).replace(':', "%3A");
    assert!(text.lines().any(|l| l.contains(&abs)), "{text}");
}

/// A `.zst`'s lines and offsets count in the stream it decompresses to: that stream is an
/// artifact nested in the `.zst` (`parentIndex`), and the results' regions are on it.
#[test]
fn a_compressed_file_is_a_stream_nested_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let packed = compress_into(&testdata("broken/ordinal-line-deleted.jsonl"), dir.path());
    let name = packed.file_name().unwrap().to_str().unwrap().to_string();
    let (code, log) = sarif_in(dir.path(), &["--fail-on", "warning"], &[Path::new(&name)]);
    assert_eq!(code, 1);
    let artifacts = log["runs"][0]["artifacts"].as_array().unwrap();
    assert_eq!(artifacts.len(), 2, "{artifacts:?}");
    assert_eq!(
        artifacts[0]["location"],
        serde_json::json!({"uri": name, "uriBaseId": "%SRCROOT%"})
    );
    assert_eq!(artifacts[1]["parentIndex"], 0);
    assert_eq!(
        artifacts[1]["location"]["uri"],
        name.strip_suffix(".zst").unwrap()
    );
    let gap = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "ordinal.gap")
        .unwrap();
    let loc = &gap["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["index"], 1);
    assert_eq!(loc["region"]["startLine"], 9);
    // The same line as the plain file's: the offset counts in the stream.
    let plain = ndjson_lint(&[], &[&testdata("broken/ordinal-line-deleted.jsonl")]).1;
    let want = plain.iter().find(|r| r["rule"] == "ordinal.gap").unwrap();
    assert_eq!(loc["region"]["byteOffset"], want["byte_offset"]);
    assert_valid(&validator(), &log, "zst");
}

/// An input that could not be read, or a folder that held none, leaves a trace in the log:
/// a notification of the invocation, which did not succeed; a run with none succeeded.
#[test]
fn unreadable_inputs_are_the_invocations_notifications() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let gone = dir.path().join("gone.jsonl");
    let good = testdata("broken/bom.jsonl");
    let (code, log) = sarif_in(&root(), &[], &[&gone, &empty, &good]);
    assert_eq!(code, 2);
    let inv = &log["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let notes = inv["toolExecutionNotifications"].as_array().unwrap();
    let said: Vec<(&str, &str)> = notes
        .iter()
        .map(|n| {
            (
                n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap(),
                n["message"]["text"].as_str().unwrap(),
            )
        })
        .collect();
    let (gone_uri, empty_uri) = (
        format!("file://{}", gone.display()),
        format!("file://{}", empty.display()),
    );
    assert_eq!(said.len(), 2, "{said:?}");
    assert_eq!(said[0].0, gone_uri);
    assert!(
        said[1].0 == empty_uri && said[1].1.starts_with("no rollout found"),
        "{said:?}"
    );
    assert!(notes.iter().all(|n| n["level"] == "error"));
    // The good file's findings are there all the same.
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
    assert_valid(&validator(), &log, "notifications");
    let (code, log) = sarif_in(&root(), &[], &[&good]);
    assert_eq!(code, 1);
    assert_eq!(
        log["runs"][0]["invocations"],
        serde_json::json!([{"executionSuccessful": true}])
    );
}
