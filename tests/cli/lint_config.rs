//! `rollscope lint`'s config file: found from the current directory upwards, the command
//! line winning over it, its severity overrides reaching the exit code and every format,
//! and each of its errors naming the file and line. Every run runs in a temporary directory.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::*;

/// A temporary directory holding `name` with `text`, and the file's path (with symbolic
/// links resolved, as the current directory is).
fn with_config(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().canonicalize().unwrap().join(name);
    std::fs::write(&path, text).unwrap();
    (tmp, path)
}

/// `lint --format ndjson ARGS... FILES...` run in `dir`: exit code, rows, stderr.
fn lint_in(dir: &Path, args: &[&str], files: &[&str]) -> (i32, Vec<Value>, String) {
    let out = rollscope()
        .current_dir(dir)
        .args(["lint", "--format", "ndjson"])
        .args(args)
        .args(files.iter().map(|f| testdata(f)))
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), ndjson(&out.stdout), stderr)
}

/// `(rule, severity)` of each row.
fn rules(rows: &[Value]) -> Vec<(String, String)> {
    let s = |v: &Value| v.as_str().unwrap().to_string();
    rows.iter()
        .map(|r| (s(&r["rule"]), s(&r["severity"])))
        .collect()
}

fn pair(rule: &str, severity: &str) -> (String, String) {
    (rule.to_string(), severity.to_string())
}

/// A rollout (named as Codex names them) whose only finding is a `pair.missing-output`
/// warning, and two more with one `pair` warning each.
const WARNS: &str =
    "lint/pair.missing-output/fires/rollout-2026-11-29T12-02-16-01a2272f-3a4a-7f32-804b-af9053b29ff1.jsonl";
const DUPLICATED: &str =
    "lint/pair.duplicate/fires/rollout-2026-11-29T12-02-13-01a2272f-3017-77a3-b67a-87a70a36353e.jsonl";
const ORPHAN: &str =
    "lint/pair.orphan-output/fires/rollout-2026-11-29T12-02-16-01a2272f-3a4a-7f32-804b-af9053b29ff1.jsonl";

#[test]
fn a_config_file_is_found_from_a_subdirectory_under_either_name() {
    for name in ["rollscope.toml", ".rollscope.toml"] {
        let (tmp, _) = with_config(name, "[lint]\nfail-on = \"warning\"\n");
        let sub = tmp.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        assert_eq!(lint_in(&sub, &[], &[WARNS]).0, 1, "{name}");
        // The nearest one wins.
        std::fs::write(sub.join("rollscope.toml"), "").unwrap();
        assert_eq!(lint_in(&sub, &[], &[WARNS]).0, 0, "{name}");
    }
}

#[test]
fn the_command_line_wins_over_the_config_file_key_by_key() {
    let (tmp, _) = with_config(
        "rollscope.toml",
        "[lint]\nselect = [\"file\"]\nignore = [\"pair.duplicate\"]\nfail-on = \"warning\"\n",
    );
    let dir = tmp.path();
    let files = [WARNS, DUPLICATED];
    // The file's select leaves no pair rule in.
    assert_eq!(lint_in(dir, &[], &files).1, Vec::<Value>::new());
    // --select replaces it; the file's ignore and fail-on still hold.
    let (code, rows, _) = lint_in(dir, &["--select", "pair"], &files);
    assert_eq!(rules(&rows), [pair("pair.missing-output", "warning")]);
    assert_eq!(code, 1);
    // --ignore replaces the file's; --fail-on replaces its fail-on.
    let (code, rows, _) = lint_in(
        dir,
        &["--select", "pair", "--ignore", "file", "--fail-on", "error"],
        &files,
    );
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(code, 0);
}

#[test]
fn a_rules_own_severity_beats_its_groups() {
    let (tmp, _) = with_config(
        "rollscope.toml",
        "[lint.severity]\n\"pair.missing-output\" = \"error\"\n\"pair\" = \"info\"\n",
    );
    let files = [WARNS, ORPHAN];
    let (_, rows, _) = lint_in(tmp.path(), &[], &files);
    assert_eq!(
        rules(&rows),
        [
            pair("pair.missing-output", "error"),
            pair("pair.orphan-output", "info")
        ]
    );
}

#[test]
fn a_severity_override_changes_the_exit_code_the_counts_and_every_format() {
    let (tmp, _) = with_config(
        "rollscope.toml",
        "[lint.severity]\n\"pair.missing-output\" = \"error\"\n",
    );
    let dir = tmp.path();
    assert_eq!(lint_in(dir, &["--no-config"], &[WARNS]).0, 0);
    assert_eq!(lint_in(dir, &[], &[WARNS]).0, 1);
    let run = |format: &str| {
        rollscope()
            .current_dir(dir)
            .args(["lint", "--color", "never", "--format", format])
            .arg(testdata(WARNS))
            .output()
            .unwrap()
    };
    let human = run("human");
    assert_eq!(human.status.code(), Some(1));
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.starts_with("error[pair.missing-output]"), "{text}");
    let summary = String::from_utf8(human.stderr).unwrap();
    assert_eq!(
        summary,
        "1 error, 0 warnings in 1 file, read as Codex 0.171.0 (the newest rollscope knows)\n"
    );
    let github = String::from_utf8(run("github").stdout).unwrap();
    assert!(github.starts_with("::error "), "{github}");
    let sarif: Value = serde_json::from_slice(&run("sarif").stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["level"], "error");
}

#[test]
fn each_config_error_is_a_usage_error_naming_the_file_and_line() {
    let cases = [
        ("[lint]\nselct = [\"pair\"]\n", 2, "unknown field `selct`"),
        ("[lint]\n\nfail-on = 3\n", 3, "invalid type: integer `3`"),
        (
            "[lint]\nignore = \"pair\"\n",
            2,
            "invalid type: string \"pair\"",
        ),
        (
            "[lint]\nselect = [\"file\",\n  \"ordinal.gapp\"]\n",
            3,
            "unknown rule or group `ordinal.gapp`; did you mean `ordinal.gap`?",
        ),
        (
            "[lint]\nfail-on = \"fatal\"\n",
            2,
            "unknown severity `fatal`",
        ),
        (
            "[lint.severity]\n\"pair\" = \"info\"\n\"polcy\" = \"info\"\n",
            3,
            "unknown rule or group `polcy`; did you mean `policy`?",
        ),
        (
            "[lint.severity]\n\"pair\" = \"loud\"\n",
            2,
            "unknown severity `loud`",
        ),
        ("[output]\n", 1, "unknown field `output`"),
        ("[lint\n", 1, ""),
    ];
    for (text, line, want) in cases {
        let (tmp, path) = with_config("rollscope.toml", text);
        let (code, rows, stderr) = lint_in(tmp.path(), &[], &[WARNS]);
        assert_eq!((code, rows), (2, Vec::<Value>::new()), "{text:?}: {stderr}");
        let head = format!("rollscope: {}:{line}: {want}", path.display());
        assert!(stderr.starts_with(&head), "{text:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn two_config_files_in_one_directory_are_a_usage_error_naming_both() {
    let (tmp, a) = with_config("rollscope.toml", "");
    let b = tmp.path().join(".rollscope.toml");
    std::fs::write(&b, "").unwrap();
    let (code, _, stderr) = lint_in(tmp.path(), &[], &[WARNS]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(&a.display().to_string()) && stderr.contains(&b.display().to_string()),
        "{stderr}"
    );
}

#[test]
fn no_config_reads_none_and_config_reads_the_one_named() {
    let (tmp, _) = with_config("rollscope.toml", "[lint]\nfail-on = \"fatal\"\n");
    let dir = tmp.path();
    assert_eq!(lint_in(dir, &[], &[WARNS]).0, 2);
    assert_eq!(lint_in(dir, &["--no-config"], &[WARNS]).0, 0);
    let other = dir.join("strict.toml");
    std::fs::write(&other, "[lint]\nfail-on = \"warning\"\n").unwrap();
    let named = other.to_str().unwrap();
    assert_eq!(lint_in(dir, &["--config", named], &[WARNS]).0, 1);
    let (code, _, stderr) = lint_in(dir, &["--config", "absent.toml"], &[WARNS]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("rollscope: absent.toml: "), "{stderr}");
}
