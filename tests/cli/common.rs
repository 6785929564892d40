//! Behaviour shared by every subcommand: input discovery, exit codes, closed pipes, color
//! and terminal safety. Exercised through `stats`, the command every later one shares its
//! input and output layers with.

use std::path::Path;
use std::process::Command as StdCommand;

use predicates::prelude::*;

use crate::util::*;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn copy(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
    std::fs::copy(src, dst).unwrap();
}

/// A `$CODEX_HOME` with one dated session and one archived session.
fn codex_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let a = real_file("0.171.0", "qa", ".jsonl");
    let b = real_file("0.147.0", "shell", ".jsonl");
    copy(
        &a,
        &home
            .path()
            .join("sessions/2026/11/29")
            .join(a.file_name().unwrap()),
    );
    copy(
        &b,
        &home
            .path()
            .join("archived_sessions")
            .join(b.file_name().unwrap()),
    );
    home
}

#[test]
fn codex_home_supplies_sessions_and_archived_sessions() {
    let home = codex_home();
    let out = rollscope()
        .env("CODEX_HOME", home.path())
        .args(["stats", "--format", "ndjson"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows = ndjson(&out.stdout);
    assert_eq!(rows.len(), 2);
    assert!(rows[0]["path"]
        .as_str()
        .unwrap()
        .contains("/sessions/2026/11/29/"));
    assert!(rows[1]["path"]
        .as_str()
        .unwrap()
        .contains("/archived_sessions/"));
    let out = rollscope()
        .env("CODEX_HOME", home.path())
        .args(["stats", "--format", "ndjson", "--no-archived"])
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), 1);
}

#[test]
fn a_real_scenario_folder_works_as_codex_home() {
    let unit = real("0.171.0", "fork");
    let out = rollscope()
        .env("CODEX_HOME", &unit)
        .args(["stats", "--format", "ndjson"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(ndjson(&out.stdout).len(), 2);
}

#[test]
fn home_falls_back_to_dot_codex() {
    let home = tempfile::tempdir().unwrap();
    let a = real_file("0.171.0", "qa", ".jsonl");
    copy(
        &a,
        &home
            .path()
            .join(".codex/sessions/2026/11/29")
            .join(a.file_name().unwrap()),
    );
    let out = rollscope()
        .env("HOME", home.path())
        .args(["stats", "--format", "ndjson"])
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), 1);
}

#[test]
fn no_sessions_directory_is_a_one_line_error_with_exit_2() {
    let empty = tempfile::tempdir().unwrap();
    let out = rollscope()
        .env("CODEX_HOME", empty.path())
        .args(["stats"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("sessions") && stderr.contains("archived_sessions"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_missing_path_is_reported_and_the_run_goes_on_with_exit_2() {
    let good = real_file("0.171.0", "qa", ".jsonl");
    let (rows, stderr) = ndjson_run(&["stats", "/no/such/rollout.jsonl"], &good, 2);
    assert_eq!(rows.len(), 1);
    assert!(
        stderr.starts_with("rollscope: /no/such/rollout.jsonl: "),
        "{stderr}"
    );
    assert!(stderr.contains("No such file"), "{stderr}");
}

#[test]
fn an_unreadable_file_is_reported_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("rollout-bad.jsonl.zst");
    // zstd magic followed by garbage: a read error mid-stream.
    std::fs::write(&bad, [0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    let good = real_file("0.171.0", "qa", ".jsonl");
    copy(&good, &tmp.path().join(good.file_name().unwrap()));
    let (rows, stderr) = ndjson_run(&["stats"], tmp.path(), 2);
    assert!(
        stderr.contains("rollout-bad.jsonl.zst: read error"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The good file is still counted.
    assert!(rows
        .iter()
        .any(|r| r["parse_errors"] == 0 && r["lines"] == 16));
}

#[test]
fn a_walk_reads_rollouts_only_prefers_plain_twins_and_skips_symlinked_dirs() {
    let tmp = tempfile::tempdir().unwrap();
    let src = real_file("0.171.0", "qa", ".jsonl");
    let day = tmp.path().join("sessions/2026/11/29");
    let name = src.file_name().unwrap().to_str().unwrap().to_string();
    copy(&src, &day.join(&name));
    compress_into(&src, &day); // the twin: X.jsonl.zst beside X.jsonl
    copy(&src, &day.join("notes.jsonl"));
    std::fs::create_dir_all(tmp.path().join("elsewhere")).unwrap();
    copy(
        &src,
        &tmp.path().join("elsewhere").join("rollout-linked.jsonl"),
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(tmp.path().join("elsewhere"), day.join("linkdir")).unwrap();
    let rows = rows(
        &[
            "stats",
            "--format",
            "ndjson",
            tmp.path().join("sessions").to_str().unwrap(),
        ],
        0,
    );
    let paths: Vec<&str> = rows.iter().map(|r| r["path"].as_str().unwrap()).collect();
    assert_eq!(paths.len(), 1, "{paths:?}");
    assert!(paths[0].ends_with(&name));
}

#[test]
fn an_explicit_path_is_read_whatever_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    let src = real_file("0.171.0", "qa", ".jsonl");
    let odd = tmp.path().join("whatever.log");
    copy(&src, &odd);
    let rows = ndjson_rows(&["stats"], &odd);
    assert_eq!(rows[0]["lines"], 16);
}

#[cfg(unix)]
#[test]
fn process_substitution_and_fifos_are_read_as_given() {
    let src = real_file("0.171.0", "qa", ".jsonl");
    let bin = assert_cmd::cargo::cargo_bin("rollscope");
    let out = StdCommand::new("bash")
        .arg("-c")
        .arg(format!(
            "{} stats --format ndjson <(cat {})",
            bin.display(),
            src.display()
        ))
        .env("TZ", "UTC")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = ndjson(&out.stdout);
    assert_eq!(rows[0]["lines"], 16);
    assert!(rows[0]["path"].as_str().unwrap().starts_with("/dev/fd/"));
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_after_an_unreadable_input_still_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let src = real_file("0.171.0", "shell", ".jsonl");
    // Sorted first: zstd magic followed by garbage, a read error.
    std::fs::write(
        tmp.path().join("rollout-0000-bad.jsonl.zst"),
        [0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3, 4],
    )
    .unwrap();
    for i in 1..400 {
        copy(&src, &tmp.path().join(format!("rollout-{i:04}.jsonl")));
    }
    let bin = assert_cmd::cargo::cargo_bin("rollscope");
    let out = StdCommand::new("bash")
        .arg("-c")
        .arg(format!(
            "{} stats --format ndjson {} | head -1; exit ${{PIPESTATUS[0]}}",
            bin.display(),
            tmp.path().display()
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("rollout-0000-bad.jsonl.zst: read error"),
        "{stderr}"
    );
}

#[test]
fn stdin_given_twice_is_read_once() {
    let src = real_file("0.171.0", "qa", ".jsonl");
    let out = rollscope()
        .args(["stats", "--format", "ndjson", "-", "-"])
        .pipe_stdin(&src)
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), 1);
}

#[test]
fn output_order_is_by_path_and_identical_for_any_job_count() {
    let d = testdata("real");
    let one = rollscope()
        .args([
            "stats",
            "--format",
            "ndjson",
            "-j",
            "1",
            d.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let many = rollscope()
        .args([
            "stats",
            "--format",
            "ndjson",
            "-j",
            "4",
            d.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(one.stdout, many.stdout);
    let rows = ndjson(&one.stdout);
    let paths: Vec<String> = rows
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    rollscope()
        .args(["stats", "-j", "0", d.to_str().unwrap()])
        .assert()
        .code(2);
}

#[test]
fn usage_errors_exit_2() {
    rollscope()
        .args(["stats", "--format", "yaml"])
        .assert()
        .code(2);
    rollscope().args(["no-such-command"]).assert().code(2);
    rollscope()
        .args(["stats", "--max-line-bytes", "lots"])
        .assert()
        .code(2);
}

#[test]
fn help_lists_the_subcommands() {
    rollscope()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("stats"));
}

#[test]
fn color_is_decided_by_the_flag_and_no_color_never_by_format() {
    let f = real_file("0.171.0", "qa", ".jsonl");
    let p = f.to_str().unwrap();
    let esc = |args: &[&str], no_color: bool| {
        let mut c = rollscope();
        if no_color {
            c.env("NO_COLOR", "1");
        }
        let out = c.args(args).output().unwrap();
        out.stdout.contains(&0x1b)
    };
    assert!(esc(&["stats", "--color", "always", p], false));
    assert!(!esc(&["stats", "--color", "never", p], false));
    // Not a terminal: auto means no color.
    assert!(!esc(&["stats", p], false));
    assert!(!esc(&["stats", "--color", "auto", p], true));
    // JSON is never colored, whatever --color says.
    assert!(!esc(
        &["stats", "--color", "always", "--format", "ndjson", p],
        false
    ));
    assert!(!esc(
        &["stats", "--color", "always", "--format", "json", p],
        false
    ));
}

#[test]
fn rollout_text_in_tables_is_stripped_of_escape_sequences_but_ndjson_stays_exact() {
    let f = testdata("broken/hostile-escape-sequences.jsonl");
    let p = f.to_str().unwrap();
    let table = output(&["stats", "--by", "cwd", "--color", "never", p], 0);
    assert!(!table.stdout.contains(&0x1b));
    assert!(!table.stdout.contains(&0x07));
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(text.contains("/work/evil"), "{text}");
    let rows = rows(&["stats", "--by", "cwd", "--format", "ndjson", p], 0);
    assert_eq!(rows[0]["group"], "/work/\u{1b}[31mevil\u{1b}]0;pwned\u{7}");
}

/// Every shell `completions` knows, each in the file clap_complete names for it
/// (`rollscope.bash`, `_rollscope`, `rollscope.fish`, `_rollscope.ps1`, `rollscope.elv`).
#[test]
fn completions_are_generated_from_the_cli_and_match_the_committed_files() {
    use clap::ValueEnum;
    use clap_complete::{Generator, Shell};
    let dir = root().join("completions");
    let mut files = Vec::new();
    for shell in Shell::value_variants() {
        let name = shell.to_possible_value().unwrap().get_name().to_string();
        let file = shell.file_name("rollscope");
        let out = output(&["completions", &name], 0);
        assert!(!out.stdout.is_empty(), "{name}");
        let path = dir.join(&file);
        if std::env::var_os("BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &out.stdout).unwrap();
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(
            out.stdout == committed,
            "completions/{file} is stale: rerun this test with BLESS=1"
        );
        files.push(file);
    }
    assert_eq!(files.len(), 5, "{files:?}");
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    present.sort();
    files.sort();
    assert_eq!(
        present, files,
        "completions/ holds a file no shell is generated into"
    );
}

#[test]
fn rules_page_is_the_registry() {
    let page = rollscope::output::rules::markdown();
    crate::util::assert_generated("docs/rules.md", &page, "this test");
}

/// Every command and every format it takes, as a gate runs them.
const GATES: [(&[&str], &[&str]); 8] = [
    (&["stats"], &["table", "ndjson", "json"]),
    (&["turns"], &["table", "ndjson", "json"]),
    (&["calls"], &["table", "ndjson", "json"]),
    (
        &["check-ordinal"],
        &[
            "text", "ndjson", "json", "human", "concise", "github", "sarif",
        ],
    ),
    (&["replay"], &["table", "ndjson", "json"]),
    (
        &["replay", "--view", "state"],
        &[
            "table", "ndjson", "json", "human", "concise", "github", "sarif",
        ],
    ),
    (
        &["lint", "--no-config"],
        &["human", "concise", "ndjson", "json", "github", "sarif"],
    ),
    (&["repair", "--no-config"], &["human", "ndjson", "json"]),
];

/// `CMD --format F ARGS...`, with `env` and nothing on standard input (as a CI step's): exit
/// code and stderr. (assert_cmd would give it an empty pipe, which draws the note that the
/// Codex home is read instead.)
fn gate(cmd: &[&str], format: &str, args: &[&str], env: &[(&str, &Path)]) -> (i32, String) {
    let mut c = StdCommand::new(assert_cmd::cargo::cargo_bin("rollscope"));
    c.stdin(std::process::Stdio::null());
    c.args(cmd).args(["--format", format]).args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    (out.status.code().unwrap(), text(&out.stderr))
}

/// A gate cannot pass by accident: a directory given as a path that holds no rollout (an
/// empty one, one of files not named `rollout-*`, one of no `.jsonl` at all) is an error,
/// exit 2, in every command and format, with one line saying what was searched, and the
/// rest of the run goes on; `lint` and `repair` (which gate) say the same of a Codex home
/// that holds none (one whose state database is there still has that to check).
/// `--allow-empty` makes either an empty result (exit 0), and a `--since` that leaves
/// nothing is never an error. (On 7313e33 every one exited 0.)
#[test]
fn a_path_that_holds_no_rollout_is_an_error_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let misnamed = dir.path().join("misnamed");
    copy(
        &real_file("0.171.0", "qa", ".jsonl"),
        &misnamed.join("session.jsonl"),
    );
    std::fs::write(misnamed.join("rollout-notes.txt"), "x\n").unwrap();
    let good = real_file("0.171.0", "qa", ".jsonl");
    for (cmd, formats) in GATES {
        let lint = matches!(cmd[0], "lint" | "repair");
        let searched = if lint {
            "rollout-*.jsonl[.zst] and session folders' *.jsonl[.zst]"
        } else {
            "rollout-*.jsonl[.zst]"
        };
        let said = |d: &Path| {
            format!(
                "rollscope: {}: no rollout found: searched below it for {searched} \
                 (--allow-empty: exit 0)\n",
                d.display()
            )
        };
        for &format in formats {
            let what = format!("{} --format {format}", cmd.join(" "));
            for d in [&empty, &misnamed] {
                let (code, err) = gate(cmd, format, &[d.to_str().unwrap()], &[]);
                assert_eq!((code, err), (2, said(d)), "{what} {}", d.display());
                let (code, err) = gate(cmd, format, &["--allow-empty", d.to_str().unwrap()], &[]);
                assert_eq!(code, 0, "{what} --allow-empty: {err}");
                assert!(!err.contains("no rollout found"), "{what}: {err}");
            }
            // The good file is still read: its rows come out, and the exit stays 2.
            let (code, err) = gate(
                cmd,
                format,
                &[empty.to_str().unwrap(), good.to_str().unwrap()],
                &[],
            );
            assert_eq!(code, 2, "{what}: {err}");
            assert!(err.contains(&said(&empty)), "{what}: {err}");
            // An empty Codex home: an error for the commands that gate, else an empty result.
            let home = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(home.path().join("sessions/2026/11/29")).unwrap();
            let env = [("CODEX_HOME", home.path())];
            let (code, err) = gate(cmd, format, &[], &env);
            if lint {
                let line = format!(
                    "rollscope: {}: no rollout found: searched sessions/ for {searched} \
                     (--allow-empty: exit 0)\n",
                    home.path().display()
                );
                assert_eq!((code, err), (2, line), "{what} in an empty home");
                let (code, err) = gate(cmd, format, &["--allow-empty"], &env);
                assert_eq!(code, 0, "{what} --allow-empty in an empty home: {err}");
            } else {
                assert_eq!(code, 0, "{what} in an empty home: {err}");
            }
        }
        // A Codex home whose rollouts are gone but whose state database is there: `lint`
        // and `repair` have it to check (the `state` rules), the others nothing to read.
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("state_5.sqlite"), b"").unwrap();
        let (code, err) = gate(cmd, formats[0], &[home.path().to_str().unwrap()], &[]);
        if lint {
            assert!(
                code < 2 && !err.contains("no rollout found"),
                "{}: {err}",
                cmd[0]
            );
        } else {
            assert_eq!(code, 2, "{}: {err}", cmd[0]);
        }
        // A range that leaves nothing is an empty result, not this error.
        let (code, err) = gate(
            cmd,
            formats[0],
            &["--since", "2030-01-01", good.to_str().unwrap()],
            &[],
        );
        assert_eq!(code, 0, "{} --since: {err}", cmd.join(" "));
    }
}

/// `cat one.jsonl | rollscope stats` read the whole Codex home and ignored the pipe, in
/// silence (on e116183): with no PATH, a standard input that is a pipe or a file is one
/// stderr line saying the home is read and `-` reads standard input; `-` reads it; a
/// standard input that is nothing (`/dev/null`, as in cron) draws no line; `-q` silences it.
#[test]
fn a_pipe_without_a_path_is_said_never_silently_skipped() {
    let home = codex_home();
    let piped = real_file("0.147.0", "shell", ".jsonl");
    let said = format!(
        "rollscope: no PATH given: reading the Codex home ({}, {}), not standard input; \
         `-` reads standard input\n",
        home.path().join("sessions").display(),
        home.path().join("archived_sessions").display()
    );
    for cmd in ["stats", "turns", "calls", "check-ordinal", "replay", "lint"] {
        let run = |args: &[&str], stdin: Option<&Path>| {
            let mut c = rollscope();
            c.env("CODEX_HOME", home.path())
                .arg(cmd)
                .args(["--format", "ndjson"])
                .args(args);
            if let Some(f) = stdin {
                c.pipe_stdin(f).unwrap();
            }
            c.output().unwrap()
        };
        let out = run(&[], Some(&piped));
        let err = text(&out.stderr);
        assert!(err.starts_with(&said), "{cmd}: {err}");
        assert_eq!(err.matches("no PATH given").count(), 1, "{cmd}: {err}");
        // The home's two files were read, not the pipe's.
        let rows = ndjson(&out.stdout);
        assert!(
            rows.iter().all(|r| r["path"] != "-"),
            "{cmd} read the pipe: {rows:?}"
        );
        let quiet = run(&["-q"], Some(&piped));
        assert!(!text(&quiet.stderr).contains("no PATH given"), "{cmd} -q");
        // Nothing on standard input (`/dev/null`): no word of it.
        let none = StdCommand::new(assert_cmd::cargo::cargo_bin("rollscope"))
            .env("CODEX_HOME", home.path())
            .args([cmd, "--format", "ndjson"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!text(&none.stderr).contains("no PATH given"), "{cmd}");
        // `-`: the pipe is read.
        let dash = run(&["-"], Some(&piped));
        assert!(!text(&dash.stderr).contains("no PATH given"), "{cmd}");
        let rows = ndjson(&dash.stdout);
        assert!(
            cmd == "lint" || rows.iter().any(|r| r["path"] == "-"),
            "{cmd} - : {rows:?}"
        );
    }
}
