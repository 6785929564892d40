//! `rollscope lint`: the same findings as `replay --view state`, exit codes by `--fail-on`,
//! rule selection, the formats, and the registry's documentation.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::*;

/// Every `.jsonl` fixture of `testdata/` (real, broken, replay), one file each.
fn fixtures() -> Vec<PathBuf> {
    let mut files = rollouts_under(&testdata("real"));
    for dir in ["broken", "replay"] {
        for e in std::fs::read_dir(testdata(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "jsonl") {
                files.push(p);
            }
        }
    }
    for rule in std::fs::read_dir(testdata("lint")).unwrap() {
        let rule = rule.unwrap().path();
        for side in ["fires", "clean"] {
            if let Ok(dir) = std::fs::read_dir(rule.join(side)) {
                files.extend(dir.map(|e| e.unwrap().path()).filter(|p| p.is_file()));
            }
        }
    }
    files
}

pub(crate) fn lint(args: &[&str], path: &std::path::Path) -> (i32, Vec<Value>) {
    let mut a = vec!["lint", "--format", "ndjson"];
    a.extend_from_slice(args);
    a.push(path.to_str().unwrap());
    let out = rollscope().args(&a).output().unwrap();
    (out.status.code().unwrap(), ndjson(&out.stdout))
}

/// The rules only `lint` checks: a file's name and place (`replay` reads records, not
/// names) and its content (`docs/lint.md`).
const LINT_ONLY: [&str; 5] = [
    "file.name",
    "file.location",
    "file.zst-shadowed",
    "content.secret",
    "content.inline-media",
];

#[test]
fn lint_and_replay_report_the_same_findings_for_every_fixture() {
    let files = fixtures();
    assert!(files.len() > 60);
    for f in files {
        let (_, rows) = lint(&[], &f);
        let got: Vec<(Value, Value, Value)> = rows
            .iter()
            .filter(|r| !LINT_ONLY.iter().any(|s| r["rule"] == *s))
            .map(|r| (r["rule"].clone(), r["severity"].clone(), r["line"].clone()))
            .collect();
        let st = &ndjson_rows(&["replay", "--view", "state"], &f)[0];
        let want: Vec<(Value, Value, Value)> = st["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["rule"].clone(), d["severity"].clone(), d["line"].clone()))
            .collect();
        assert_eq!(got, want, "{}", f.display());
    }
}

#[test]
fn clean_real_files_lint_without_error_and_exit_0() {
    let (code, rows) = lint(&[], &testdata("real"));
    assert_eq!(code, 0);
    assert!(rows.iter().all(|r| r["severity"] != "error"), "{rows:?}");
    if let Some(corpus) = shared_corpus() {
        let (code, rows) = lint(&[], &corpus);
        assert_eq!(code, 0, "{rows:?}");
    }
}

#[test]
fn the_exit_code_follows_fail_on() {
    // Warnings only: 0 by default, 1 with --fail-on warning.
    let warn = testdata("replay/output-deleted.jsonl");
    assert_eq!(lint(&[], &warn).0, 0);
    assert_eq!(lint(&["--fail-on", "warning"], &warn).0, 1);
    let err = testdata("broken/bom.jsonl");
    assert_eq!(lint(&[], &err).0, 1);
    // Ignoring the rule that fires leaves nothing to fail on.
    assert_eq!(lint(&["--ignore", "file"], &err), (0, vec![]));
}

#[test]
fn select_and_ignore_take_slugs_and_groups() {
    let f = testdata("replay/meta-missing");
    let (_, rows) = lint(&["--select", "meta.missing"], &f);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["rule"], "meta.missing");
    assert_eq!(rows[0]["line"], Value::Null);
    let (_, rows) = lint(&["--select", "meta", "--ignore", "meta.missing"], &f);
    assert!(rows.iter().all(|r| r["rule"] == "meta.first"), "{rows:?}");
    let out = output(
        &["lint", "--select", "ordinal.gapp", f.to_str().unwrap()],
        2,
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("did you mean `ordinal.gap`?"), "{err}");
}

#[test]
fn rows_carry_the_location_and_the_rules_help() {
    // (These fixtures are not named as rollouts: `file.name` is left out.)
    let (_, rows) = lint(
        &["--ignore", "file.name"],
        &testdata("replay/compaction-metadata-len-mismatch.jsonl"),
    );
    let r = &rows[0];
    assert_eq!(r["rule"], "compact.metadata-len");
    assert_eq!(
        (r["line"].as_u64(), r["column"].as_u64()),
        (Some(53), Some(1))
    );
    assert!(r["byte_offset"].as_u64().unwrap() > 0);
    assert!(r["help"]
        .as_str()
        .unwrap()
        .starts_with("Write one metadata entry"));
}

#[test]
fn human_and_concise_formats_locate_and_explain_each_finding() {
    let f = testdata("replay/compaction-metadata-len-mismatch.jsonl");
    let out = output(
        &[
            "lint",
            "--ignore",
            "file.name",
            "--color",
            "never",
            f.to_str().unwrap(),
        ],
        1,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("error[compact.metadata-len]: "), "{text}");
    assert!(
        text.contains(&format!("  --> {}:53:1\n", f.display())),
        "{text}"
    );
    assert!(text.contains("53 | {\"timestamp\""), "{text}");
    assert!(
        text.contains("  = help: Write one metadata entry"),
        "{text}"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "1 error, 0 warnings in 1 file, read as Codex 0.171.0 (the newest rollscope knows)\n"
    );

    let whole = testdata("replay/meta-missing");
    let out = output(&["lint", "--format", "concise", whole.to_str().unwrap()], 1);
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.contains(".jsonl: error[meta.missing] "), "{first}");
}

#[test]
fn github_annotations_name_the_file_line_and_rule() {
    let f = testdata("replay/output-deleted.jsonl");
    let out = output(
        &[
            "lint",
            "--ignore",
            "file.name",
            "--format",
            "github",
            f.to_str().unwrap(),
        ],
        0,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The path from the root, the current directory (the project's).
    let want = format!(
        "::warning file={},line=20,title=pair.missing-output (Codex 0.171.0)::",
        f.strip_prefix(root()).unwrap().display()
    );
    assert!(text.starts_with(&want), "{text}");
}

#[test]
fn every_rule_explains_itself_and_is_listed() {
    let out = output(&["lint", "--list-rules", "--format", "json"], 0);
    let listed: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        listed,
        rows(&["lint", "--list-rules", "--format", "ndjson"], 0)
    );
    let slugs: Vec<&str> = listed.iter().map(|r| r["slug"].as_str().unwrap()).collect();
    assert!(slugs.len() >= 28);
    for slug in &slugs {
        let out = output(&["lint", "--explain", slug], 0);
        let text = String::from_utf8(out.stdout).unwrap();
        // Plain text in a pipe: the sections without their Markdown bold.
        assert!(
            text.starts_with(slug) && text.contains("\nFix. ") && !text.contains("**"),
            "{text}"
        );
    }
    output(&["lint", "--explain", "no.such-rule"], 2);
}

/// What a rule folder's `expect` file says (format in `testdata/lint/README.md`).
pub(crate) struct Expect {
    /// `line N`, or `file` (a finding about the whole file: `line` null).
    pub(crate) line: Value,
    /// `also SLUG`: rules the same defect fires too (a BOM also hides `session_meta`).
    pub(crate) also: Vec<String>,
    /// `lint NAME`: the files of `fires/` and `clean/` to lint; the others are there for
    /// them (a fork's source). Default: every file of the folder.
    pub(crate) lint: Vec<String>,
    /// `codex VERSION`: `fires/` is linted as this Codex version (a rule that fires only
    /// where a version differs); `clean/` as the newest, which reads it whole.
    pub(crate) codex: Option<String>,
}

pub(crate) fn expect(dir: &std::path::Path) -> Expect {
    let text = std::fs::read_to_string(dir.join("expect")).unwrap();
    let mut e = Expect {
        line: Value::Null,
        also: Vec::new(),
        lint: Vec::new(),
        codex: None,
    };
    let mut located = false;
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match l.split_once(' ') {
            None if l == "file" => located = true,
            Some(("line", n)) => {
                e.line = n.parse::<u64>().unwrap().into();
                located = true;
            }
            Some(("also", slug)) => e.also.push(slug.to_string()),
            Some(("lint", name)) => e.lint.push(name.to_string()),
            Some(("codex", v)) => e.codex = Some(v.to_string()),
            _ => panic!("{}: bad expect line `{l}`", dir.display()),
        }
    }
    assert!(located, "{}: expect names no line", dir.display());
    e
}

/// The files of `dir` to lint: those `expect` names (paths relative to `dir`) that are
/// there, or all the files directly in it.
pub(crate) fn targets(dir: &std::path::Path, e: &Expect) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = if e.lint.is_empty() {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| p.is_file())
            .collect()
    } else {
        e.lint
            .iter()
            .map(|n| dir.join(n))
            .filter(|p| p.is_file())
            .collect()
    };
    files.sort();
    assert!(!files.is_empty(), "{}: nothing to lint", dir.display());
    files
}

/// `testdata/lint/<slug>/`: `fires/` holds a file the rule fires on, at the line `expect`
/// names, with no other rule at warning or error but the consequences `expect` names;
/// `clean/` a file that fires neither the rule nor anything at warning or error.
#[test]
fn each_rule_fixture_fires_its_rule_and_its_clean_twin_fires_nothing() {
    let mut rules = 0;
    for e in std::fs::read_dir(testdata("lint")).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let slug = dir.file_name().unwrap().to_str().unwrap().to_string();
        let want = expect(&dir);
        let serious = |r: &&Value| r["severity"] != "info";
        let of_rule = |r: &&Value| r["rule"] == slug.as_str();
        let named = |r: &&Value| of_rule(r) || want.also.iter().any(|a| r["rule"] == a.as_str());
        let as_version: Vec<&str> = match &want.codex {
            Some(v) => vec!["--codex", v],
            None => Vec::new(),
        };
        for f in targets(&dir.join("fires"), &want) {
            let (_, rows) = lint(&as_version, &f);
            let fired: Vec<&Value> = rows.iter().filter(of_rule).collect();
            assert!(
                fired.iter().any(|r| r["line"] == want.line),
                "{slug}: {rows:?}"
            );
            let others: Vec<&Value> = rows.iter().filter(serious).filter(|r| !named(r)).collect();
            assert!(others.is_empty(), "{slug}: {others:?}");
        }
        for f in targets(&dir.join("clean"), &want) {
            let (code, rows) = lint(&[], &f);
            assert_eq!(code, 0, "{slug} clean");
            let bad: Vec<&Value> = rows.iter().filter(|r| serious(r) || of_rule(r)).collect();
            assert!(bad.is_empty(), "{slug} clean: {bad:?}");
        }
        rules += 1;
    }
    assert!(rules >= 10);
}

/// Whether a rule's fixtures are Codex homes with their state databases, rebuilt from SQL
/// text by `tests/cli/state.rs` (which holds every such rule to firing there), not a folder
/// of `testdata/lint/`.
pub(crate) fn of_a_home(slug: &str) -> bool {
    slug.starts_with("state.")
}

#[test]
fn every_rule_of_the_registry_has_a_fixture_folder() {
    let missing: Vec<String> = rows(&["lint", "--list-rules", "--format", "ndjson"], 0)
        .iter()
        .map(|r| r["slug"].as_str().unwrap().to_string())
        .filter(|slug| !of_a_home(slug))
        .filter(|slug| !testdata("lint").join(slug).join("expect").is_file())
        .collect();
    assert!(missing.is_empty(), "no testdata/lint folder: {missing:?}");
}

/// The rollout ids that some file of `tree` continues by reference (`history_base`).
fn lineage_sources(tree: &std::path::Path) -> Vec<String> {
    rollouts_under(tree)
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).ok()?;
            let meta: Value = serde_json::from_str(text.lines().next()?).ok()?;
            let id = meta["payload"]["history_base"]["thread_id"].as_str()?;
            Some(id.to_string())
        })
        .collect()
}

/// Acceptance 5 of issue #13: one pass over each file; a fork's or revert's source once
/// more, for its lineage. `ROLLSCOPE_TRACE_READS` makes rollscope tally its passes.
#[test]
fn linting_a_tree_reads_each_file_once_and_a_lineage_source_once_more() {
    let mut trees = vec![testdata("real")];
    trees.extend(shared_corpus());
    for tree in trees {
        let out = rollscope()
            .env("ROLLSCOPE_TRACE_READS", "1")
            .args(["lint", "--format", "ndjson"])
            .arg(&tree)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let passes: Vec<(u32, String)> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("rollscope: read "))
            .map(|l| {
                let (n, path) = l.split_once("× ").unwrap();
                (n.parse().unwrap(), path.to_string())
            })
            .collect();
        assert_eq!(passes.len(), rollouts_under(&tree).len(), "{stderr}");
        let sources = lineage_sources(&tree);
        assert!(!sources.is_empty(), "{}: no fork to follow", tree.display());
        for (n, path) in passes {
            // The rollout id a name declares: its last 36 characters before `.jsonl`.
            let stem = path.trim_end_matches(".zst").trim_end_matches(".jsonl");
            let rollout_id = &stem[stem.len() - 36..];
            let is_source = sources.iter().any(|id| id == rollout_id);
            let want = if is_source { 2 } else { 1 };
            assert_eq!(n, want, "{path}");
        }
    }
}

/// Every finding that points at a line gives that line's byte offset: over every fixture
/// of `testdata/` that is a plain file, `byte_offset` is where line `line` starts.
/// A finding about the `session_meta` points at its line wherever that lies: here after a
/// blank line, which is no record.
#[test]
fn a_history_base_in_a_legacy_file_points_at_its_session_meta_where_it_lies() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/lint/history_base.in-legacy/fires")
        .join("rollout-2026-11-29T12-02-16-01a2272f-3a4a-7f32-804b-af9053b29ff1.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(fixture.file_name().unwrap());
    let mut bytes = b"\n".to_vec();
    bytes.extend(std::fs::read(&fixture).unwrap());
    std::fs::write(&copy, bytes).unwrap();
    let (_, rows) = lint(&["--select", "history_base"], &copy);
    let row = rows
        .iter()
        .find(|r| r["rule"] == "history_base.in-legacy")
        .expect("the rule fires");
    assert_eq!(
        (row["line"].as_u64(), row["byte_offset"].as_u64()),
        (Some(2), Some(1))
    );
}

#[test]
fn a_findings_byte_offset_is_where_its_line_starts() {
    let mut checked = 0;
    for f in fixtures() {
        if f.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        let bytes = std::fs::read(&f).unwrap();
        let starts: Vec<u64> = std::iter::once(0)
            .chain(
                bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i as u64 + 1),
            )
            .collect();
        let (_, rows) = lint(&[], &f);
        for r in rows.iter().filter(|r| !r["line"].is_null()) {
            let line = r["line"].as_u64().unwrap() as usize;
            let offset = r["byte_offset"].as_u64().unwrap();
            // Line 1's record starts after a byte order mark.
            let bom = line == 1 && bytes.starts_with(b"\xEF\xBB\xBF");
            let want = starts[line - 1] + if bom { 3 } else { 0 };
            assert!(
                offset == want || (bom && offset == 0),
                "{} {}: {r}",
                f.display(),
                r["rule"]
            );
            checked += 1;
        }
    }
    assert!(checked > 100);
}

/// The fix `ordinal.tail-unparseable` gives is the one the real Codex bears out: ending
/// the torn line with a newline leaves it unparseable, and the next resume writes its
/// ordinal again; removing it leaves nothing to reuse
/// (`testdata/lint/ordinal.tail-unparseable/verdict-0.171.0-fixes.json`).
#[test]
fn the_tail_unparseable_fix_is_the_one_real_codex_bears_out() {
    let path = testdata("lint/ordinal.tail-unparseable/verdict-0.171.0-fixes.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        v["newline"]["next_on_resume"]["codex_reused_torn_tail_ordinal"],
        true
    );
    assert!(v["cut"]["next_on_resume"]["torn_tail_ordinal"].is_null());
    assert_eq!(v["cut"]["unparseable_lines"], serde_json::json!([]));
    let out = output(&["lint", "--explain", "ordinal.tail-unparseable"], 0);
    let doc = String::from_utf8(out.stdout).unwrap();
    let fix = doc.split("Fix.").nth(1).expect("a fix paragraph");
    assert!(fix.contains("Remove the unparseable line"), "{fix}");
    assert!(!fix.contains("End the torn line with a newline"), "{fix}");
}

/// `line.blank`, the rule `docs/contributing.md` adds: one finding a run of blank lines,
/// at the lines `testdata/broken/README.md` says `blank-lines.jsonl` has blank (3, 9, and
/// 17 at the end); a run of several is one finding whose span ends on its last line.
#[test]
fn blank_lines_are_found_one_run_at_a_time() {
    let (code, rows) = lint(
        &["--select", "line.blank"],
        &testdata("broken/blank-lines.jsonl"),
    );
    assert_eq!(code, 0, "a warning does not fail the default gate");
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [3, 9, 17]);

    let tmp = tempfile::tempdir().unwrap();
    let clean = std::fs::read_to_string(
        std::fs::read_dir(testdata("lint/line.blank/clean"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
    )
    .unwrap();
    let mut lines: Vec<&str> = clean.lines().collect();
    lines.splice(4..4, ["", " ", ""]);
    let path = tmp
        .path()
        .join("rollout-2026-11-29T12-02-16-01a2272f-3a4a-7f32-804b-af9053b29ff1.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = output(
        &[
            "lint",
            "--format",
            "sarif",
            "--select",
            "line.blank",
            path.to_str().unwrap(),
        ],
        0,
    );
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    let region = &results[0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["endLine"].as_u64()),
        (Some(5), Some(7))
    );
    assert!(results[0]["message"]["text"]
        .as_str()
        .unwrap()
        .starts_with("3 blank lines"));
}

/// What `line.blank`'s documentation says of Codex, as its verdicts recorded it: every
/// version resumed every placement of blank lines to the history (and the turns shown) of
/// the file without them.
#[test]
fn codex_skips_blank_lines_as_line_blank_says() {
    let path = testdata("lint/line.blank/verdicts.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 9);
    for r in runs {
        assert_eq!(r["verdict"], "resumed", "{r}");
        assert_eq!(r["history_same_as_clean"], true, "{r}");
        assert_ne!(r["ui_turns_same_as_clean"], false, "{r}");
    }
}

/// A turn copied from the parent is the parent's to end: the real 0.154 sub-agent's file
/// holds the parent's turn that spawned it, still running, with no end event, and the
/// parent's file ends it. `turn.unterminated` says nothing there (it still fires on the
/// file's own turns: its `fires/` fixture).
#[test]
fn a_turn_a_sub_agent_copied_from_its_parent_is_not_unterminated() {
    let dir = testdata("lint/turn.unterminated/inherited");
    let turns = rows(&["turns", "--format", "ndjson", dir.to_str().unwrap()], 0);
    let copied: Vec<&Value> = turns
        .iter()
        .filter(|t| t["inherited"] == true && t["status"] == "stale")
        .collect();
    assert_eq!(copied.len(), 1, "{turns:#?}");
    let out = output(&["lint", "--format", "ndjson", dir.to_str().unwrap()], 0);
    let rules: Vec<String> = ndjson(&out.stdout)
        .iter()
        .map(|f| f["rule"].as_str().unwrap().to_string())
        .collect();
    assert!(!rules.iter().any(|r| r == "turn.unterminated"), "{rules:?}");
}

/// Messages that say where and what to do now (on e116183, `meta.first` did not say where
/// the session_meta was, and `pair.orphan-output`'s help told a user whose call was already
/// gone to keep each call with its output): the line the session_meta is at, and the fix
/// `rollscope repair` makes; the orphan's help says how to mend the file as it is.
#[test]
fn messages_say_where_and_what_to_do_now() {
    // A real rollout whose session_meta was written third.
    let src = std::fs::read_to_string(real_file("0.128.0", "shell", ".jsonl")).unwrap();
    let lines: Vec<&str> = src.lines().collect();
    assert!(
        lines[0].contains("\"type\":\"session_meta\""),
        "{}",
        lines[0]
    );
    let mut moved = vec![lines[1], lines[2], lines[0]];
    moved.extend_from_slice(&lines[3..]);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("meta-third.jsonl");
    std::fs::write(&f, moved.join("\n") + "\n").unwrap();
    let found = rows(
        &[
            "lint",
            "--no-config",
            "--format",
            "ndjson",
            "--select",
            "meta.first",
            f.to_str().unwrap(),
        ],
        1,
    );
    assert_eq!(found.len(), 1, "{found:?}");
    let msg = found[0]["message"].as_str().unwrap();
    assert!(msg.contains("session_meta is at line 3"), "{msg}");
    assert!(
        msg.ends_with("`rollscope repair` can move session_meta to the head of the file"),
        "{msg}"
    );
    let f = testdata("broken/calls-call-deleted.jsonl");
    let found = rows(
        &[
            "lint",
            "--no-config",
            "--format",
            "ndjson",
            "--select",
            "pair.orphan-output",
            f.to_str().unwrap(),
        ],
        0,
    );
    let help = found[0]["help"].as_str().unwrap();
    assert!(help.starts_with("The call is gone: "), "{help}");
    assert!(help.contains("`rollscope repair`"), "{help}");
}
