//! What a new user runs into at the terminal (issue #14): each test names one thing a
//! first run tripped over, and failed before it was fixed.

use crate::util::*;

/// Every subcommand, as `--help` lists them.
const SUBCOMMANDS: [&str; 8] = [
    "stats",
    "turns",
    "calls",
    "check-ordinal",
    "replay",
    "lint",
    "completions",
    "man",
];

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_total_row_counts_one_file_in_the_singular() {
    let file = real_file("0.171.0", "shell", "");
    let out = output(&["stats", "--color", "never", file.to_str().unwrap()], 0);
    let table = text(&out.stdout);
    assert!(table.contains("total (1 file) "), "{table}");
    assert!(!table.contains("1 files"), "{table}");
    let tree = testdata("real");
    let out = output(&["stats", "--color", "never", tree.to_str().unwrap()], 0);
    assert!(text(&out.stdout).contains(" files)"));
}

/// A grouped table's total row fills its `sessions` cell, counting each file once even
/// where its tokens fall into several groups.
#[test]
fn a_grouped_table_s_total_row_counts_each_session_once() {
    let tree = testdata("real");
    let tree = tree.to_str().unwrap();
    let files = rows(&["stats", "--format", "ndjson", tree], 0).len();
    assert!(files > 30);
    for by in ["day", "month", "model", "cwd"] {
        let out = output(&["stats", "--by", by, "--color", "never", tree], 0);
        let table = text(&out.stdout);
        let total = table
            .lines()
            .find(|l| l.trim_start_matches('│').trim_start().starts_with("total "))
            .unwrap_or_else(|| panic!("--by {by}: no total row\n{table}"));
        let cells: Vec<&str> = total.split('│').map(str::trim).collect();
        assert_eq!(cells[1], "total", "{total}");
        assert_eq!(cells[2], files.to_string(), "--by {by}: {total}");
    }
}

#[test]
fn since_after_until_is_a_usage_error_in_one_line() {
    let tree = testdata("real");
    for cmd in ["stats", "turns", "calls", "lint"] {
        let out = output(
            &[
                cmd,
                "--since",
                "2026-12-01",
                "--until",
                "2026-11-01",
                tree.to_str().unwrap(),
            ],
            2,
        );
        assert!(out.stdout.is_empty(), "{cmd}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{cmd}: {err}");
        assert!(
            err.contains("--since 2026-12-01 is after --until 2026-11-01"),
            "{err}"
        );
    }
    // One day given as both ends is that day, not an empty range.
    let day = rows(
        &[
            "stats",
            "--utc",
            "--since",
            "2026-11-29",
            "--until",
            "2026-11-29",
            "--format",
            "ndjson",
            tree.to_str().unwrap(),
        ],
        0,
    );
    assert!(!day.is_empty());
}

#[test]
fn a_subcommand_s_version_is_rollscope_s() {
    let want = format!("rollscope {}\n", env!("CARGO_PKG_VERSION"));
    for cmd in SUBCOMMANDS {
        for flag in ["-V", "--version"] {
            let out = output(&[cmd, flag], 0);
            assert_eq!(text(&out.stdout), want, "{cmd} {flag}");
        }
    }
}

/// `--utc` speaks of `--by day|month` only where there is a `--by`.
#[test]
fn the_utc_help_names_by_only_where_there_is_a_by() {
    for cmd in SUBCOMMANDS {
        let help = text(&output(&[cmd, "--help"], 0).stdout);
        let has_by = help.contains("--by <");
        let utc: String = help
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("--utc"))
            .take(2)
            .collect();
        if utc.is_empty() {
            continue;
        }
        assert_eq!(utc.contains("--by"), has_by, "{cmd}: {utc}");
    }
}

/// After 20 notes about one file's bad lines, the rest are counted in one line; a file of
/// which no line is a record says it is no rollout. (`stats /bin/ls` printed 494 lines.)
#[test]
fn bad_line_notes_stop_at_twenty_a_file_and_a_file_of_no_records_says_so() {
    // 60 lines of a build log.
    let junk = testdata("broken/not-a-rollout.jsonl");
    let out = output(&["stats", junk.to_str().unwrap()], 0);
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let path = junk.display().to_string();
    assert_eq!(lines.len(), 22, "{err}");
    for (i, l) in lines[..20].iter().enumerate() {
        assert!(l.starts_with(&format!("{path}:{}: ", i + 1)), "{l}");
    }
    assert_eq!(lines[20], format!("… and 40 more bad lines in {path}"));
    assert!(lines[21].starts_with(&format!("{path}: does not look like a rollout")));
    // A rollout with damage past the first 20 lines is one still: 14 good lines, 25 bad.
    let damaged = testdata("broken/bad-lines-appended.jsonl");
    let err = text(&output(&["stats", damaged.to_str().unwrap()], 0).stderr);
    assert_eq!(err.lines().count(), 21, "{err}");
    assert!(
        err.starts_with(&format!("{}:15: ", damaged.display())),
        "{err}"
    );
    assert!(err.ends_with(&format!(
        "… and 5 more bad lines in {}\n",
        damaged.display()
    )));
    // -q: none of it.
    let out = output(&["stats", "-q", junk.to_str().unwrap()], 0);
    assert!(out.stderr.is_empty());
    // lint's findings are output, never cut: each of the 60 lines has one.
    let rows = rows(&["lint", "--format", "ndjson", junk.to_str().unwrap()], 1);
    let mut at: Vec<u64> = rows.iter().filter_map(|r| r["line"].as_u64()).collect();
    at.dedup();
    assert_eq!(at, (1..=60).collect::<Vec<u64>>());
}

/// An empty result looks the same in every command: nothing on stdout (`[]` for `--format
/// json`), and one line on stderr that says why. `stats` printed a `total (0 files)` table,
/// the others nothing at all. (A folder that holds no rollout is one with `--allow-empty`;
/// without it, an error: `common.rs`.)
#[test]
fn an_empty_result_says_why_in_one_line_and_prints_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().to_str().unwrap();
    for cmd in ["stats", "turns", "calls", "check-ordinal", "replay"] {
        let output = |args: &[&str], code: i32| {
            let mut args = args.to_vec();
            args.insert(1, "--allow-empty");
            output(&args, code)
        };
        let out = output(&[cmd, empty], 0);
        assert!(out.stdout.is_empty(), "{cmd}: {}", text(&out.stdout));
        assert_eq!(
            text(&out.stderr),
            "rollscope: no rollout files found\n",
            "{cmd}"
        );
        let out = output(&[cmd, "--format", "json", empty], 0);
        assert_eq!(text(&out.stdout), "[]\n", "{cmd}");
        let out = output(&[cmd, "--format", "ndjson", "-q", empty], 0);
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{cmd}");
    }
    let tree = testdata("real");
    let out = output(
        &["stats", "--since", "2030-01-01", tree.to_str().unwrap()],
        0,
    );
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.starts_with("rollscope: no session started in the --since/--until range (")
            && err.ends_with(" files read)\n")
            && err.lines().count() == 1,
        "{err}"
    );
    let qa = real_file("0.128.0", "qa", "");
    let out = output(&["calls", qa.to_str().unwrap()], 0);
    assert!(out.stdout.is_empty());
    assert_eq!(text(&out.stderr), "rollscope: no tool calls in 1 file\n");
}

/// The docs called rows "flat" while a turn's `tokens` (and other fields) nest: a reader
/// who took that at its word wrote jq paths that find nothing.
#[test]
fn the_docs_do_not_call_rows_flat_where_they_nest() {
    let tree = testdata("real");
    let turns = rows(&["turns", "--format", "ndjson", tree.to_str().unwrap()], 0);
    assert!(turns[0]["tokens"].is_object(), "a turn's tokens nest");
    let docs = std::fs::read_to_string(root().join("docs/README.md")).unwrap();
    let prose = docs.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        !prose.contains("flat JSON"),
        "docs/README.md calls rows flat"
    );
    assert!(prose.contains(".tokens.total_tokens"));
}

/// Every dotted key path the rows hold (`tokens.total_tokens`); array elements are
/// walked as their parent's path.
fn key_paths(rows: &[serde_json::Value]) -> std::collections::HashSet<String> {
    fn walk(v: &serde_json::Value, at: &str, out: &mut std::collections::HashSet<String>) {
        match v {
            serde_json::Value::Object(o) => {
                for (k, v) in o {
                    let p = if at.is_empty() {
                        k.clone()
                    } else {
                        format!("{at}.{k}")
                    };
                    out.insert(p.clone());
                    walk(v, &p, out);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, at, out)),
            _ => {}
        }
    }
    let mut out = std::collections::HashSet::new();
    rows.iter().for_each(|r| walk(r, "", &mut out));
    out
}

/// The command line of a table in the catalog, as arguments (`stats --by day|month` is
/// run as `stats --by day`).
fn catalog_args(command: &str) -> Vec<String> {
    command
        .replace("(--view history)", "")
        .split_whitespace()
        .map(|w| w.split('|').next().unwrap().to_string())
        .collect()
}

/// A header named a column differently from its row field (`errors` for `parse_errors`,
/// `calls` for `tool_calls`, `version` for `cli_version`, `#` for `index`), with no map
/// between them anywhere. Each column now names the field it shows, a test proves each
/// field is in the rows, and `docs/columns.md` is made from the definitions.
#[test]
fn every_table_column_names_a_field_its_ndjson_rows_have() {
    let tree = testdata("real");
    let tree = tree.to_str().unwrap();
    for (command, columns) in rollscope::cmd::tables() {
        let mut args = catalog_args(command);
        args.extend(["--format".into(), "ndjson".into(), tree.into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let fields = key_paths(&rows(&args, 0));
        for c in &columns {
            if c.field.is_empty() {
                continue;
            }
            assert!(
                fields.contains(c.field),
                "{command}: column `{}` shows `{}`, which no row has",
                c.name,
                c.field
            );
        }
    }
}

#[test]
fn table_headers_are_the_field_names_people_meet_in_ndjson() {
    let f = real_file("0.171.0", "shell", "");
    let f = f.to_str().unwrap();
    let header = |args: &[&str]| -> Vec<String> {
        let out = output(
            &[args, &["--color", "never", "--width", "0", f]].concat(),
            0,
        );
        let t = text(&out.stdout);
        let line = t.lines().nth(1).unwrap_or_default().to_string();
        line.split('│')
            .map(|c| c.trim().split(" (").next().unwrap().to_string())
            .filter(|c| !c.is_empty())
            .collect()
    };
    let stats = header(&["stats"]);
    for name in ["parse_errors", "tool_calls", "cli_version", "started_at"] {
        assert!(stats.iter().any(|h| h == name), "{stats:?}");
    }
    assert!(!stats.iter().any(|h| h == "errors" || h == "version"));
    let turns = header(&["turns"]);
    assert!(turns.iter().any(|h| h == "index"), "{turns:?}");
    assert!(!turns.iter().any(|h| h == "#"), "{turns:?}");
    let calls = header(&["calls"]);
    for name in ["turn_index", "exit_code", "called_at"] {
        assert!(calls.iter().any(|h| h == name), "{calls:?}");
    }
}

#[test]
fn the_columns_page_is_the_column_definitions() {
    let page = rollscope::output::table::catalog_markdown(&rollscope::cmd::tables());
    let path = root().join("docs/columns.md");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &page).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == page,
        "docs/columns.md is stale: rerun this test with BLESS=1"
    );
}

/// Tables showed UTC while `--since` and `--by day` read local time: at UTC+14 a session
/// picked by `--since 2026-11-30` said it started on the 29th. Now one clock rules both,
/// and the header says which.
#[test]
fn table_times_are_on_the_clock_the_filters_use_and_the_header_names_it() {
    let f = real_file("0.171.0", "shell", "");
    let f = f.to_str().unwrap();
    // Kiritimati's offset, as a POSIX TZ rule (no tz database needed).
    let at = |args: &[&str]| -> String {
        let mut c = rollscope();
        c.env("TZ", "<+14>-14");
        let out = c.args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        text(&out.stdout)
    };
    // Started 2026-11-29T12:00:30Z: the 30th at 02:00 at UTC+14.
    let local = at(&["stats", "--color", "never", "--since", "2026-11-30", f]);
    assert!(local.contains("started_at (+14:00)"), "{local}");
    assert!(local.contains("2026-11-30 02:00"), "{local}");
    assert!(!local.contains("2026-11-29 12:00"), "{local}");
    let utc = at(&[
        "stats",
        "--color",
        "never",
        "--utc",
        "--since",
        "2026-11-29",
        f,
    ]);
    assert!(utc.contains("started_at (UTC)"), "{utc}");
    assert!(utc.contains("2026-11-29 12:00"), "{utc}");
    // In UTC the session started on the 29th: --since the 30th leaves it out.
    let none = at(&["stats", "--utc", "--since", "2026-11-30", f]);
    assert!(none.is_empty(), "{none}");
    for cmd in ["turns", "calls", "replay"] {
        let t = at(&[cmd, "--color", "never", f]);
        assert!(
            t.contains(" (+14:00)") && t.contains("2026-11-30 02:00:3"),
            "{cmd}\n{t}"
        );
        let t = at(&[cmd, "--color", "never", "--utc", f]);
        assert!(
            t.contains(" (UTC)") && t.contains("2026-11-29 12:00:3"),
            "{cmd}\n{t}"
        );
    }
    // NDJSON times are the file's own, whatever the clock.
    let rows = {
        let mut c = rollscope();
        c.env("TZ", "<+14>-14");
        ndjson(
            &c.args(["stats", "--format", "ndjson", f])
                .output()
                .unwrap()
                .stdout,
        )
    };
    assert_eq!(rows[0]["started_at"], "2026-11-29T12:00:30.602Z");
}

/// Files found under the default roots are named from there: the table says
/// `sessions/2026/11/29/rollout-…`, not the last 48 characters of an absolute path.
#[test]
fn files_in_the_codex_home_are_named_from_the_folder_they_are_in() {
    let home = real("0.171.0", "shell");
    let mut c = rollscope();
    c.env("CODEX_HOME", &home);
    let out = c
        .args(["stats", "--color", "never", "--width", "0"])
        .output()
        .unwrap();
    let t = text(&out.stdout);
    let row = t.lines().nth(3).unwrap();
    let cell = row.split('│').nth(1).unwrap().trim();
    assert!(
        cell.starts_with("sessions/2026/11/29/rollout-2026-11-29T12-00-30-"),
        "{t}"
    );
    assert!(!t.contains(home.to_str().unwrap()), "{t}");
    // NDJSON keeps the path as read.
    let mut c = rollscope();
    c.env("CODEX_HOME", &home);
    let rows = ndjson(
        &c.args(["stats", "--format", "ndjson"])
            .output()
            .unwrap()
            .stdout,
    );
    assert!(rows[0]["path"]
        .as_str()
        .unwrap()
        .starts_with(home.to_str().unwrap()));
}

/// Across a daylight-saving change, local times have two offsets: the header says
/// `(local)` and each time carries its own offset, so no hour reads twice.
#[test]
fn local_times_on_both_sides_of_daylight_saving_carry_their_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let f = real_file("0.171.0", "shell", "");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::copy(&f, dir.path().join("rollout-november.jsonl")).unwrap();
    let july = text.replace("2026-11-29T", "2026-07-29T");
    std::fs::write(dir.path().join("rollout-july.jsonl"), july).unwrap();
    let mut c = rollscope();
    // Central European time as a POSIX rule: +01:00, +02:00 from March to October.
    c.env("TZ", "CET-1CEST,M3.5.0,M10.5.0/3");
    let out = c
        .args(["stats", "--color", "never", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    let t = text_of(&out.stdout);
    assert!(t.contains("started_at (local)"), "{t}");
    assert!(t.contains("2026-07-29 14:00 +02:00"), "{t}");
    assert!(t.contains("2026-11-29 13:00 +01:00"), "{t}");
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
