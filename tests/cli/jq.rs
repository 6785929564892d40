//! `--jq FILTER` (issue #32): the JSON a command prints, filtered in the process by jaq.
//!
//! - Every jq recipe of README.md, `docs/*.md` and the commands' `--help` gives with `--jq`
//!   what it gives through `jq -rc` (its shell tail, such as `| sort | uniq -c`, aside): the
//!   NDJSON rows one input each, and `jq -s` as `--format json`. A recipe that cannot be
//!   said with `--jq` is listed in [`NOT_EXPRESSIBLE`] with why, and the number covered is
//!   asserted, so that none is skipped in silence.
//! - Then what the flag promises: `--jq` alone filters NDJSON rows; a format that prints no
//!   JSON is a usage error; a filter that does not compile is one, said before any input is
//!   read; an error on a row is said, the next rows filtered, the run ending with exit 2;
//!   strings raw; a SARIF log is one input; `lint`'s exit 1 is kept; `halt`, `debug`.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::docs::examples;
use crate::util::*;

// ---------------------------------------------------------------------------------------
// The recipes

/// Recipes `--jq` cannot say, each by a piece of its command, with why. None today: every
/// recipe is one rollscope command piped to one jq filter.
const NOT_EXPRESSIBLE: &[(&str, &str)] = &[];

/// How many recipes run both ways: the docs' and the help's (a new recipe changes it).
const COVERED: usize = 48;

/// A jq recipe: `PRODUCER | jq FLAGS 'FILTER' [| TAIL]`.
#[derive(Debug)]
struct Recipe {
    /// Where it is written (`docs/stats.md:9`, `rollscope stats --help`).
    place: String,
    /// The command as written.
    command: String,
    /// The shell text before `| jq`, its last stage `rollscope …`.
    producer: String,
    /// `jq -s`: the rows as one array.
    slurp: bool,
    /// The filter, as the shell reads it from the command (quotes and all).
    filter: String,
    /// Run against the help's sample Codex home (the help's recipes name no path).
    in_home: bool,
}

/// The stages of a shell pipeline (`a | b`), cut at each `|` outside quotes (not `||`).
fn stages(command: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = command.chars().peekable();
    let (mut single, mut double) = (false, false);
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                out.last_mut().unwrap().push(c);
                if let Some(n) = chars.next() {
                    out.last_mut().unwrap().push(n);
                }
                continue;
            }
            '|' if !single && !double => {
                if chars.peek() == Some(&'|') {
                    out.last_mut().unwrap().push_str("||");
                    chars.next();
                    continue;
                }
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().unwrap().push(c);
    }
    out.iter().map(|s| s.trim().to_string()).collect()
}

/// The words of one stage as the shell splits them, each as written (quotes kept).
fn words(stage: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let (mut single, mut double) = (false, false);
    let mut chars = stage.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                word.push(c);
                word.extend(chars.next());
                continue;
            }
            c if c.is_whitespace() && !single && !double => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                continue;
            }
            _ => {}
        }
        word.push(c);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The recipe in `command`, or why it is none `--jq` can say (`Ok(None)`: no jq in it).
fn recipe(place: &str, command: &str, in_home: bool) -> Result<Option<Recipe>, String> {
    let stages = stages(&command.replace("\\\n", " "));
    let Some(at) = stages
        .iter()
        .position(|s| words(s).first().map(String::as_str) == Some("jq"))
    else {
        return Ok(None);
    };
    let producer = stages[..at].join(" | ");
    if !stages
        .get(at.wrapping_sub(1))
        .is_some_and(|s| s.starts_with("rollscope "))
    {
        return Err("jq does not read a rollscope command".into());
    }
    let (mut slurp, mut filter) = (false, None);
    for w in words(&stages[at]).into_iter().skip(1) {
        match w.as_str() {
            "--slurp" => slurp = true,
            "--raw-output" | "--compact-output" => {}
            f if f.starts_with('-') && f.len() > 1 && !f.starts_with("--") => {
                for c in f.chars().skip(1) {
                    match c {
                        's' => slurp = true,
                        'r' | 'c' => {}
                        _ => return Err(format!("jq option -{c}")),
                    }
                }
            }
            f if f.starts_with('-') => return Err(format!("jq option {f}")),
            _ if filter.is_some() => return Err("jq reads files".into()),
            _ => filter = Some(w),
        }
    }
    let filter = filter.ok_or("no filter")?;
    if slurp && !producer.contains("--format ndjson") {
        return Err("jq -s over what is no NDJSON".into());
    }
    Ok(Some(Recipe {
        place: place.to_string(),
        command: command.to_string(),
        producer,
        slurp,
        filter,
        in_home,
    }))
}

/// Every jq recipe of the docs (console examples) and of the commands' `--help`, and the
/// ones that cannot be said with `--jq` (with why).
fn recipes() -> (Vec<Recipe>, Vec<(String, String)>) {
    let (mut ok, mut not) = (Vec::new(), Vec::new());
    let mut take =
        |place: String, command: &str, in_home: bool| match recipe(&place, command, in_home) {
            Ok(Some(r)) => ok.push(r),
            Ok(None) => {}
            Err(why) => not.push((command.to_string(), format!("{place}: {why}"))),
        };
    for p in crate::docs::pages() {
        for ex in examples::of(&p) {
            take(format!("{}:{}", p.rel, ex.line), &ex.command, false);
        }
        // A ```sh block holding a jq pipeline is a recipe too.
        for b in crate::docs::blocks(&p.text) {
            if b.info == "sh" {
                for (i, l) in b.lines.iter().enumerate() {
                    if l.contains("rollscope ") && l.contains("jq") {
                        take(format!("{}:{}", p.rel, b.first + i + 1), l, false);
                    }
                }
            }
        }
    }
    let mut subs = vec![String::new()];
    subs.extend(crate::help::subcommands());
    for sub in subs {
        let args: Vec<&str> = [sub.as_str(), "--help"]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        for e in crate::help::examples(&crate::help::help(&args)) {
            take(format!("rollscope {sub} --help"), &e, true);
        }
    }
    (ok, not)
}

/// `sh -c SCRIPT` as the docs' examples run (project root, fresh rollscope first on PATH),
/// or for a help recipe in `home`'s Codex home; its stdout and stderr apart.
fn sh(script: &str, home: Option<&Path>) -> Output {
    let mut c = examples::sh(script);
    if let Some(home) = home {
        c.env("CODEX_HOME", home).current_dir(home);
    }
    c.output().unwrap()
}

#[test]
fn every_jq_recipe_gives_with_jq_what_it_gives_through_jq() {
    let (recipes, not) = recipes();
    // Every recipe `--jq` cannot say is listed, with why; and every one listed is one.
    for (command, why) in &not {
        assert!(
            NOT_EXPRESSIBLE
                .iter()
                .any(|(piece, _)| command.contains(piece)),
            "a recipe --jq cannot say, not listed in NOT_EXPRESSIBLE ({why}): {command}"
        );
    }
    for (piece, why) in NOT_EXPRESSIBLE {
        assert!(
            not.iter().any(|(c, _)| c.contains(piece)),
            "NOT_EXPRESSIBLE lists `{piece}` ({why}), which no recipe is"
        );
    }
    assert_eq!(
        recipes.len(),
        COVERED,
        "recipes covered (update COVERED for a new one): {:#?}",
        recipes.iter().map(|r| &r.place).collect::<Vec<_>>()
    );
    let Some(_) = tool("jq", "no recipe was compared with jq") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    crate::help::sample_home(home.path());
    let mut failures = Vec::new();
    for r in &recipes {
        let home = r.in_home.then_some(home.path());
        let flags = if r.slurp { "-rcs" } else { "-rc" };
        let through_jq = sh(&format!("{} | jq {flags} {}", r.producer, r.filter), home);
        let producer = if r.slurp {
            r.producer.replacen("--format ndjson", "--format json", 1)
        } else {
            r.producer.clone()
        };
        let with_jq = sh(&format!("{producer} --jq {}", r.filter), home);
        let (ours, theirs) = (
            String::from_utf8_lossy(&with_jq.stdout),
            String::from_utf8_lossy(&through_jq.stdout),
        );
        let stderr = String::from_utf8_lossy(&with_jq.stderr);
        if ours != theirs || theirs.is_empty() || stderr.contains("--jq") {
            failures.push(format!(
                "{}: `{}`\n  with --jq (exit {:?}):\n{ours}\n  stderr: {stderr}\n  through jq:\n{theirs}",
                r.place,
                r.command,
                with_jq.status.code()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} recipes differ:\n\n{}",
        failures.len(),
        recipes.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_recipe_reader_takes_the_pipeline_apart() {
    let r = recipe(
        "x",
        "cat a | rollscope stats --format ndjson - \\\n  | jq -s -r 'map(\"a|b\") | .[]' | sort | uniq -c",
        false,
    )
    .unwrap()
    .unwrap();
    assert_eq!(r.producer, "cat a | rollscope stats --format ndjson -");
    assert_eq!(r.filter, "'map(\"a|b\") | .[]'");
    assert!(r.slurp);
    assert!(recipe("x", "rollscope stats", false).unwrap().is_none());
    let not = |c: &str| recipe("x", c, false).unwrap_err();
    assert_eq!(not("rollscope stats | jq --arg a b '.'"), "jq option --arg");
    assert_eq!(not("rollscope stats | jq . f.json"), "jq reads files");
    assert_eq!(not("cat f | jq ."), "jq does not read a rollscope command");
    assert_eq!(
        not("rollscope stats --format json | jq -s ."),
        "jq -s over what is no NDJSON"
    );
    assert_eq!(stages("a || b | c"), ["a || b", "c"]);
}

// ---------------------------------------------------------------------------------------
// What the flag promises

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// `rollscope ARGS`: its output, the exit code asserted.
fn run(args: &[&str], code: i32) -> Output {
    output(args, code)
}

#[test]
fn jq_alone_filters_the_ndjson_rows_of_every_command() {
    let file = real_file("0.171.0", "shell", "");
    let file = file.to_str().unwrap();
    // A torn last line: an error for `check-ordinal` and `lint`, a fix for `repair`.
    let broken = testdata("broken/ordinal-torn-last-line.jsonl");
    let broken = broken.to_str().unwrap();
    let cases: [(&[&str], &str, i32); 10] = [
        (&["stats"], file, 0),
        (&["turns"], file, 0),
        (&["calls"], file, 0),
        (&["check-ordinal"], broken, 1),
        (&["replay"], file, 0),
        (&["replay", "--view", "state"], broken, 0),
        (&["replay", "--view", "ui"], file, 0),
        (&["lint"], broken, 1),
        (&["repair"], broken, 1),
        (&["lint", "--list-rules"], "", 0),
    ];
    for (args, path, code) in cases {
        let with = |extra: &[&str]| {
            let mut a: Vec<&str> = args.to_vec();
            a.extend(extra);
            a.extend([path].iter().filter(|p| !p.is_empty()));
            run(&a, code)
        };
        let rows = ndjson(&with(&["--format", "ndjson"]).stdout);
        assert!(!rows.is_empty(), "{args:?}");
        // `--jq .` alone: each row as it is; `--format json --jq '.[]'`: the array's rows.
        assert_eq!(ndjson(&with(&["--jq", "."]).stdout), rows, "{args:?}");
        let array = with(&["--format", "json", "--jq", ".[]"]);
        assert_eq!(ndjson(&array.stdout), rows, "{args:?} --format json");
        let n = with(&["--format", "json", "--jq", "length"]);
        assert_eq!(stdout(&n), format!("{}\n", rows.len()), "{args:?}");
    }
}

#[test]
fn a_format_that_prints_no_json_with_jq_is_a_usage_error() {
    let file = real_file("0.171.0", "shell", "");
    let file = file.to_str().unwrap();
    for (args, json) in [
        (&["stats", "--format", "table"][..], "ndjson or json"),
        (&["turns", "--format", "table"], "ndjson or json"),
        (&["calls", "--format", "table"], "ndjson or json"),
        (
            &["check-ordinal", "--format", "text"],
            "ndjson, json or sarif",
        ),
        (
            &["check-ordinal", "--format", "github"],
            "ndjson, json or sarif",
        ),
        (&["replay", "--format", "table"], "ndjson or json"),
        (
            &["replay", "--view", "ui", "--format", "table"],
            "ndjson or json",
        ),
        (
            &["replay", "--view", "state", "--format", "human"],
            "ndjson, json or sarif",
        ),
        (&["lint", "--format", "human"], "ndjson, json or sarif"),
        (
            &["lint", "--format", "concise", "--list-rules"],
            "ndjson, json or sarif",
        ),
        (&["repair", "--format", "human"], "ndjson or json"),
    ] {
        let mut a = args.to_vec();
        a.extend(["--jq", ".", file]);
        let out = run(&a, 2);
        assert_eq!(stdout(&out), "", "{args:?}");
        let format = args[args.iter().position(|a| *a == "--format").unwrap() + 1];
        assert_eq!(
            stderr(&out),
            format!(
                "rollscope: --jq filters JSON, and --format {format} prints none: give --format \
                 {json} (or no --format: --jq alone filters ndjson rows)\n"
            ),
            "{args:?}"
        );
    }
    // A diff is no JSON, nor the rule's documentation; `-o -` writes the copy to stdout.
    for args in [
        &["repair", "--diff", "--jq", "."][..],
        &["repair", "-o", "-", "--jq", "."],
        &["lint", "--explain", "ordinal.gap", "--jq", "."],
    ] {
        let mut a = args.to_vec();
        a.push(file);
        let out = run(&a, 2);
        assert!(stderr(&out).contains("--jq"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_filter_that_does_not_compile_is_a_usage_error_before_any_input_is_read() {
    // A path that does not exist: the filter is what fails, and first.
    for (filter, said) in [
        (
            ".a | map(",
            "error: syntax error, unclosed `(` at line 1, column 9 (unexpected end of input at line 1, column 10)",
        ),
        ("{a: }", "error: syntax error, unexpected `}`, expected term at line 1, column 5"),
        ("nope(1)", "error: nope/1 is not defined at line 1, column 1"),
    ] {
        for sub in ["stats", "check-ordinal", "lint", "repair"] {
            let out = run(&[sub, "--jq", filter, "no/such/file.jsonl"], 2);
            assert_eq!(stdout(&out), "", "{sub} {filter}");
            assert_eq!(stderr(&out), format!("rollscope: --jq: {said}\n"), "{sub}");
        }
    }
    // jq reads the next inputs; here each is filtered alone.
    let out = run(&["stats", "--jq", "[inputs]", "-"], 2);
    assert!(stderr(&out).contains("--format json hands the filter every row as one array"));
}

#[test]
fn an_error_on_a_row_is_said_and_the_next_rows_are_filtered_ending_with_exit_2() {
    let dir = real("0.171.0", "");
    let rows = rows(&["stats", "--format", "ndjson", dir.to_str().unwrap()], 0);
    assert!(rows.len() > 3);
    let out = run(
        &[
            "stats",
            "--jq",
            "if .turns == 1 then .turns else error(\"not one: \\(.turns)\") end",
            dir.to_str().unwrap(),
        ],
        2,
    );
    let ones = rows.iter().filter(|r| r["turns"] == 1).count();
    assert!(ones > 0 && ones < rows.len());
    assert_eq!(stdout(&out), "1\n".repeat(ones));
    let said: Vec<String> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r["turns"] != 1)
        .map(|(i, r)| {
            format!(
                "rollscope: --jq: error (at row {}): not one: {}",
                i + 1,
                r["turns"]
            )
        })
        .collect();
    assert_eq!(stderr(&out).lines().collect::<Vec<_>>(), said);
    // An error value that is no string is shown as JSON, as jq shows it; on the one input
    // of `--format json`, without a row.
    let out = run(
        &[
            "stats",
            "--format",
            "json",
            "--jq",
            "error({a: 1})",
            dir.to_str().unwrap(),
        ],
        2,
    );
    assert_eq!(
        stderr(&out),
        "rollscope: --jq: error: (not a string): {\"a\":1}\n"
    );
}

#[test]
fn strings_are_raw_and_anything_else_compact_json() {
    let file = real_file("0.171.0", "shell", "");
    let path = file.to_str().unwrap();
    let out = run(
        &[
            "stats",
            "--jq",
            ".path, [.path], {path}, .lines, null",
            path,
        ],
        0,
    );
    let path_json = serde_json::to_string(path).unwrap();
    assert_eq!(
        stdout(&out),
        format!("{path}\n[{path_json}]\n{{\"path\":{path_json}}}\n45\nnull\n")
    );
    // A text with a line break is printed raw as well, as `jq -r` prints it.
    let out = run(&["stats", "--jq", "\"a\\nb\", [\"a\\nb\"]", path], 0);
    assert_eq!(stdout(&out), "a\nb\n[\"a\\nb\"]\n");
}

#[test]
fn a_sarif_log_is_one_input() {
    let broken = testdata("broken/ordinal-torn-last-line.jsonl");
    let broken = broken.to_str().unwrap();
    for args in [
        &["lint", "--format", "sarif"][..],
        &["check-ordinal", "--format", "sarif"],
        &["replay", "--view", "state", "--format", "sarif"],
    ] {
        let mut a = args.to_vec();
        a.push(broken);
        let code = if args[0] == "replay" { 0 } else { 1 };
        let log: Value = serde_json::from_slice(&run(&a, code).stdout).unwrap();
        a.extend(["--jq", "[.version, (.runs[0].results | length)]"]);
        let n = log["runs"][0]["results"].as_array().unwrap().len();
        assert!(n > 0, "{args:?}");
        assert_eq!(
            stdout(&run(&a, code)),
            format!("[\"2.1.0\",{n}]\n"),
            "{args:?}"
        );
    }
    let out = run(
        &[
            "lint",
            "--list-rules",
            "--format",
            "sarif",
            "--jq",
            ".runs[0].tool.driver.name",
        ],
        0,
    );
    assert_eq!(stdout(&out), "rollscope\n");
}

#[test]
fn lint_keeps_its_exit_1_for_findings() {
    let bom = testdata("broken/bom.jsonl");
    let out = run(
        &[
            "lint",
            "--jq",
            "select(.severity == \"error\") | .rule",
            bom.to_str().unwrap(),
        ],
        1,
    );
    assert_eq!(stdout(&out), "file.bom\n");
    // Filtered out of sight, the findings still fail the run.
    let out = run(&["lint", "--jq", "empty", bom.to_str().unwrap()], 1);
    assert_eq!(stdout(&out), "");
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly_with_exit_0() {
    let dir = real("0.171.0", "");
    let bin = assert_cmd::cargo::cargo_bin("rollscope");
    for args in [
        "calls --jq .name",
        "calls --format json --jq '.[] | .name'",
        "replay --jq .",
    ] {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "{} {args} {} | head -1; exit ${{PIPESTATUS[0]}}",
                bin.display(),
                dir.display()
            ))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args}");
        assert_eq!(stdout(&out).lines().count(), 1, "{args}");
    }
}

#[test]
fn halt_ends_the_run_and_debug_writes_to_stderr() {
    let dir = real("0.171.0", "");
    let dir = dir.to_str().unwrap();
    let first = rows(&["stats", "--format", "ndjson", dir], 0)[0]["lines"].clone();
    // `halt` after the first row: the run ends there, cleanly.
    let out = run(&["stats", "--jq", ".lines, halt", dir], 0);
    assert_eq!(stdout(&out), format!("{first}\n"));
    assert_eq!(stderr(&out), "");
    // `halt_error`: its message as it is, and exit 2.
    let out = run(&["stats", "--jq", "\"stop\\n\" | halt_error", dir], 2);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "stop\nrollscope: --jq: the filter halted with exit code 5\n"
    );
    // `debug` as jq writes it; the rows go on.
    let out = run(&["stats", "--jq", "first(.lines | debug)", dir], 0);
    assert_eq!(
        stdout(&out).lines().next(),
        Some(first.to_string().as_str())
    );
    assert!(stderr(&out).starts_with(&format!("[\"DEBUG:\",{first}]\n")));
}

#[test]
fn a_filter_may_begin_with_a_hyphen() {
    let file = real_file("0.171.0", "shell", "");
    let out = run(&["stats", "--jq", "-.lines", file.to_str().unwrap()], 0);
    assert_eq!(stdout(&out), "-45\n");
}

/// The differences docs/recipes.md lists between jaq and jq: each filter, what jq 1.6
/// prints for it and what `--jq` prints (`None`: an error).
const DIFFERENCES: &[(&str, Option<&str>, Option<&str>)] = &[
    ("[6 / 2] | @tsv", Some("3"), Some("3.0")),
    ("[6 / 2 | floor] | @tsv", Some("3"), Some("3")),
    ("1.5 % 1", Some("0"), Some("0.5")),
    (
        "\"2026-11-29T12:00:30.602Z\" | fromdateiso8601",
        None,
        Some("1795953630.602"),
    ),
    (
        "1795953630.602 | todate",
        Some("2026-11-29T12:00:30Z"),
        Some("2026-11-29T12:00:30.602Z"),
    ),
    ("\"abc\" | test(\"(?<=a)b\")", Some("true"), None),
    ("\"١\" | test(\"\\\\d\")", Some("true"), Some("false")),
    ("null | .[1:]", Some("null"), None),
    ("[0, 1] | .[3] = 3", Some("[0,1,null,3]"), None),
    ("null | .a = 1", Some("{\"a\":1}"), None),
    ("[1, 2] | .[1.0]", Some("2"), None),
    ("1 / 0", None, Some("1.7976931348623157e+308")),
    ("[limit(0; 1, 2)]", Some("[1]"), Some("[]")),
    ("[limit(-1; 1, 2)]", Some("[1,2]"), Some("[]")),
    (". |= empty", Some("null"), Some("")),
    ("[null, \"a\"] | join(\"-\")", Some("-a"), Some("null-a")),
    ("[[1]] | join(\"-\")", None, Some("[1]")),
    ("\"[1] [2]\" | fromjson", None, Some("[1]\n[2]")),
    ("\"dGVzdA\" | @base64d", Some("test"), None),
    ("[1, 2, 3] | has(-1)", Some("false"), Some("true")),
    (
        "[1, 2, 3] | delpaths([[0], [0]])",
        Some("[2,3]"),
        Some("[3]"),
    ),
    (
        "12345678901234567890 | . + 0",
        Some("12345678901234567000"),
        Some("12345678901234567890"),
    ),
    ("[.5]", Some("[0.5]"), None),
    ("tostream", Some("[[],[]]"), None),
];

/// What `filter` prints on the input `[]` (a run that found nothing, `--format json`),
/// with `--jq` or through jq; `None` on an error.
fn printed(filter: &str, jq: Option<&Path>) -> Option<String> {
    let empty = tempfile::tempdir().unwrap();
    let out = match jq {
        None => rollscope()
            .args([
                "stats",
                "-q",
                "--allow-empty",
                "--format",
                "json",
                "--jq",
                filter,
            ])
            .arg(empty.path())
            .output()
            .unwrap(),
        Some(jq) => Command::new(jq)
            .args(["-rc", filter])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                // jq may exit before it reads (a filter it does not parse): a closed pipe.
                match c.stdin.take().unwrap().write_all(b"[]") {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e),
                    _ => {}
                }
                c.wait_with_output()
            })
            .unwrap(),
    };
    let text = stdout(&out);
    (out.status.success() && stderr(&out).is_empty()).then(|| text.trim_end().to_string())
}

#[test]
fn the_documented_differences_from_jq_hold() {
    let doc = std::fs::read_to_string(root().join("docs/recipes.md")).unwrap();
    // jq 1.6 prints what the page says (CI's); another jq may print otherwise.
    let jq16 = tool("jq", "the differences were not held against jq").filter(|jq| {
        let v = Command::new(jq).arg("--version").output().unwrap();
        String::from_utf8_lossy(&v.stdout).trim() == "jq-1.6"
    });
    for (filter, theirs, ours) in DIFFERENCES {
        let shown = filter.replace('|', "\\|");
        assert!(
            doc.contains(&format!("`{shown}")),
            "recipes.md does not show `{filter}`"
        );
        assert_eq!(printed(filter, None).as_deref(), *ours, "--jq '{filter}'");
        if let Some(jq) = &jq16 {
            assert_eq!(
                printed(filter, Some(jq)).as_deref(),
                *theirs,
                "jq '{filter}'"
            );
        }
    }
}
