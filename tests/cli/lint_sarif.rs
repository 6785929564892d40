//! `rollscope lint --format sarif`: a log valid against the SARIF 2.1.0 schema (vendored in
//! `testdata/sarif/`), whose rules are the rules selected and whose results are the NDJSON
//! findings, one for one.

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

fn row(r: &Value) -> (Value, Value, Value, Value, Value, Value) {
    (
        r["path"].clone(),
        r["line"].clone(),
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
    // A finding about the whole file has a location without region; the others have one.
    assert!(results.iter().any(|r| r["locations"][0]["physicalLocation"]
        .get("region")
        .is_none()));
    assert!(results
        .iter()
        .any(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].is_u64()));
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
            let region = &r["locations"][0]["physicalLocation"]["region"];
            if region.is_object() {
                assert_eq!(region["startColumn"], 1);
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
