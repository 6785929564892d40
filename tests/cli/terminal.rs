//! Tables at a real terminal (issue #14): run in a pseudo-terminal through util-linux
//! `script`, they fit its width, whatever the subcommand; piped, they are never cut; and
//! rows of files whose paths end alike never look alike.

use std::path::{Path, PathBuf};

use crate::util::*;

/// `s` quoted for `sh`.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// What rollscope prints on a terminal of `cols` columns (stdout and stderr both reach
/// it; `\r\n` made `\n`); `None`, with a note, when `script` is not installed.
/// `columns_env`: a `COLUMNS` value to set.
fn in_terminal(args: &[&str], cols: u16, columns_env: Option<&str>) -> Option<String> {
    // Set after `stty`: the shell sets COLUMNS itself when the size changes.
    let columns = match columns_env {
        Some(v) => format!("COLUMNS={} ", quote(v)),
        None => "unset COLUMNS; ".to_string(),
    };
    let mut line = format!("stty cols {cols} rows 50; {columns}exec \"$ROLLSCOPE\"");
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    let (out, _) = in_pty(&line, &[])?;
    Some(out.replace("\r\n", "\n"))
}

/// Display width, counting each char as one column (the tables here hold no wide ones).
fn width(line: &str) -> usize {
    line.chars().count()
}

/// The table lines of `text` (its borders and rows).
fn table_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with(['│', '┌', '├', '└']))
        .collect()
}

/// A tree holding the same rollouts under two folders: every path has a twin with the
/// same tail.
fn twin_tree(dir: &Path) -> PathBuf {
    let files = [
        real_file("0.171.0", "shell", ""),
        real_file("0.128.0", "compaction", ""),
    ];
    for team in ["team-a", "team-b"] {
        let to = dir.join(team).join("sessions/2026/11/29");
        std::fs::create_dir_all(&to).unwrap();
        for f in &files {
            std::fs::copy(f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    dir.to_path_buf()
}

/// Every table a subcommand prints, with the arguments that make it.
const TABLES: [&[&str]; 9] = [
    &["stats"],
    &["stats", "--by", "day"],
    &["stats", "--by", "model"],
    &["turns"],
    &["calls"],
    &["replay"],
    &["replay", "--view", "ui"],
    &["lint", "--list-rules"],
    &["stats", "--by", "cwd"],
];

#[test]
fn at_80_columns_no_table_line_of_any_subcommand_is_wider_than_the_terminal() {
    let tree = testdata("real");
    for args in TABLES {
        let mut all = args.to_vec();
        all.extend(["--color", "never"]);
        if args[0] != "lint" {
            all.push(tree.to_str().unwrap());
        }
        let Some(text) = in_terminal(&all, 80, None) else {
            return;
        };
        let lines = table_lines(&text);
        assert!(lines.len() > 3, "{args:?}: no table\n{text}");
        for l in &lines {
            assert!(width(l) <= 80, "{args:?}: {} columns\n{text}", width(l));
        }
    }
}

#[test]
fn columns_wins_over_the_measured_width() {
    let tree = testdata("real");
    let args = ["turns", "--color", "never", tree.to_str().unwrap()];
    let Some(wide) = in_terminal(&args, 250, None) else {
        return;
    };
    let narrow = in_terminal(&args, 250, Some("80")).unwrap();
    let widest = |t: &str| table_lines(t).into_iter().map(width).max().unwrap_or(0);
    assert!(widest(&wide) > 80, "{wide}");
    assert!(widest(&wide) <= 250, "{wide}");
    assert!(widest(&narrow) <= 80, "{narrow}");
}

#[test]
fn a_table_in_a_pipe_is_never_cut_unless_width_asks() {
    let tree = testdata("real");
    let tree = tree.to_str().unwrap();
    let mut c = rollscope();
    c.env("COLUMNS", "80");
    let out = c
        .args(["turns", "--color", "never", tree])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('…'), "{text}");
    assert!(table_lines(&text).iter().any(|l| width(l) > 80));
    // The whole of a long user message is there.
    let messages = rows(&["turns", "--format", "ndjson", tree], 0);
    let longest = messages
        .iter()
        .filter_map(|r| r["user_message"].as_str())
        .max_by_key(|m| m.len())
        .unwrap();
    assert!(
        text.contains(longest.split('\n').next().unwrap()),
        "{longest}"
    );
    let out = output(&["turns", "--color", "never", "--width", "80", tree], 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(table_lines(&text).iter().all(|l| width(l) <= 80), "{text}");
}

#[test]
fn rows_of_files_whose_paths_end_alike_never_look_alike_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let tree = twin_tree(dir.path());
    let tree = tree.to_str().unwrap();
    for args in [
        &["stats"][..],
        &["turns"],
        &["calls"],
        &["replay", "--view", "ui"],
    ] {
        let mut all = args.to_vec();
        all.extend(["--color", "never", tree]);
        let Some(text) = in_terminal(&all, 80, None) else {
            return;
        };
        let body: Vec<&str> = table_lines(&text)
            .into_iter()
            .filter(|l| l.starts_with('│'))
            .skip(1)
            .filter(|l| !l.contains("total (") && !l.contains(" turns "))
            .collect();
        assert!(body.len() >= 4, "{args:?}\n{text}");
        // Four files, two names: four path cells, each naming its team. Two files hold
        // each session: the path is shown beside it (issue #31), where its header says.
        let header = cells(table_lines(&text)[1]);
        let at = header.iter().position(|c| *c == "path");
        let at = at.unwrap_or_else(|| panic!("{args:?}: no path column\n{text}")) + 1;
        let paths: std::collections::HashSet<&str> = body
            .iter()
            .map(|l| l.split('│').nth(at).unwrap().trim())
            .collect();
        assert_eq!(paths.len(), 4, "{args:?}: {paths:?}\n{text}");
        for p in &paths {
            assert!(p.contains("team-a") || p.contains("team-b"), "{p}\n{text}");
        }
        assert!(body.iter().all(|l| width(l) <= 80), "{args:?}\n{text}");
    }
}

#[test]
fn chosen_columns_come_in_their_order_and_an_unknown_one_is_a_usage_error() {
    let f = real_file("0.171.0", "shell", "");
    let f = f.to_str().unwrap();
    let out = output(
        &[
            "turns",
            "--color",
            "never",
            "--columns",
            "status,index,path",
            f,
        ],
        0,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().nth(1).unwrap();
    let cells: Vec<&str> = header.split('│').map(str::trim).collect();
    assert_eq!(cells, ["", "status", "index", "path", ""], "{text}");
    let out = output(&["turns", "--columns", "status,nope", f], 2);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("`nope`") && err.contains("user_message"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// `LC_ALL=C` cannot show box drawing, bars or marks: tables fall back to ASCII.
#[test]
fn where_the_locale_cannot_show_unicode_tables_bars_and_marks_are_ascii() {
    let tree = testdata("real");
    let tree = tree.to_str().unwrap();
    for args in [
        &["stats", "--by", "day"][..],
        &["turns", "--width", "70"],
        &["calls", "--width", "70"],
    ] {
        let mut c = rollscope();
        c.env("LC_ALL", "C");
        let out = c
            .args(args)
            .args(["--color", "never", tree])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.is_ascii(), "{args:?}\n{text}");
        assert!(text.starts_with("+-"), "{args:?}\n{text}");
    }
    let mut c = rollscope();
    c.env("LC_ALL", "C");
    let out = c
        .args(["stats", "--by", "day", "--color", "never", tree])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("| ####"));
}

/// `stats --by day|month` draws each group's total tokens as a bar against the largest;
/// NDJSON carries the numbers only.
#[test]
fn stats_by_day_draws_a_bar_of_each_day_s_total_tokens() {
    let dir = tempfile::tempdir().unwrap();
    // Two days: one session on the 29th, two on the 30th (a copy moved a day later).
    let f = real_file("0.171.0", "shell", "");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::copy(&f, dir.path().join("rollout-a.jsonl")).unwrap();
    for name in ["rollout-b.jsonl", "rollout-c.jsonl"] {
        std::fs::write(
            dir.path().join(name),
            text.replace("2026-11-29T", "2026-11-30T"),
        )
        .unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let out = output(&["stats", "--by", "day", "--color", "never", d], 0);
    let t = String::from_utf8(out.stdout).unwrap();
    let bar = |day: &str| -> usize {
        let line = t.lines().find(|l| l.contains(day)).unwrap();
        line.split('│')
            .nth(3)
            .unwrap()
            .trim()
            .chars()
            .filter(|&c| c == '█')
            .count()
    };
    assert_eq!(bar("2026-11-30"), 20, "{t}");
    assert_eq!(bar("2026-11-29"), 10, "{t}");
    let rows = rows(&["stats", "--by", "day", "--format", "ndjson", d], 0);
    assert!(rows.iter().all(|r| r.get("bar").is_none()));
}

/// `turns` shows each status with a mark and each duration with a bar, at a glance.
#[test]
fn turns_mark_each_status_and_bar_each_duration() {
    let tree = testdata("real/0.128.0");
    let out = output(&["turns", "--color", "never", tree.to_str().unwrap()], 0);
    let t = String::from_utf8(out.stdout).unwrap();
    for (mark, status) in [
        ("✓", "completed"),
        ("■", "aborted"),
        ("◌", "stale"),
        ("▶", "open"),
    ] {
        assert!(t.contains(&format!("{mark} {status}")), "{status}\n{t}");
    }
    // The longest turn's bar is the column's whole width; a turn without a duration has none.
    let header = t.lines().nth(1).unwrap();
    let at = header.split('│').position(|c| c.trim() == "bar").unwrap();
    let bars: Vec<&str> = t
        .lines()
        .skip(3)
        .filter_map(|l| l.split('│').nth(at))
        .collect();
    assert!(bars.iter().any(|b| b.trim().chars().count() == 20), "{t}");
    let rows = rows(&["turns", "--format", "ndjson", tree.to_str().unwrap()], 0);
    assert!(rows
        .iter()
        .all(|r| !r["status"].as_str().unwrap().contains(' ')));
}

/// `text` without its ANSI color sequences (`ESC [ … m`).
fn uncolored(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\u{1b}') {
        out.push_str(&rest[..i]);
        rest = rest[i..].split_once('m').map_or("", |(_, r)| r);
    }
    out + rest
}

/// The lines of `text` wider than `cols` display columns, once uncolored.
fn wider_than(text: &str, cols: usize) -> Vec<String> {
    uncolored(text)
        .lines()
        .filter(|l| unicode_width::UnicodeWidthStr::width(*l) > cols)
        .map(str::to_string)
        .collect()
}

/// The words of `words` that are not whole words of `text` (a word cut by a line break,
/// or lost).
/// Backticks do not count: in color, code is shown without them.
fn broken_words(words: &str, text: &str) -> Vec<String> {
    let text = uncolored(text).replace('`', "");
    let have: std::collections::HashSet<&str> = text.split_whitespace().collect();
    words
        .replace('`', "")
        .split_whitespace()
        .filter(|w| !have.contains(w))
        .map(str::to_string)
        .collect()
}

/// Issue #31: at 80 columns, `lint`'s human diagnostics fit: the quoted line is cut with a
/// mark, the message and the help wrap at words (every word of the help is there whole),
/// in color or not; the other commands that print them (`check-ordinal`,
/// `replay --view state`) do the same.
#[test]
fn at_80_columns_human_diagnostics_fit_and_break_no_word() {
    let f = "testdata/broken/calls-call-deleted.jsonl";
    let help = rows(&["lint", "--format", "ndjson", f], 0)
        .into_iter()
        .find(|r| r["rule"] == "pair.orphan-output")
        .unwrap()["help"]
        .as_str()
        .unwrap()
        .to_string();
    for color in ["never", "always"] {
        let Some(text) = in_terminal(&["lint", "--color", color, f], 80, None) else {
            return;
        };
        assert!(text.contains("pair.orphan-output"), "{text}");
        let wide = wider_than(&text, 80);
        assert!(
            wide.is_empty(),
            "{color}: lines wider than 80: {wide:#?}\n{text}"
        );
        let broken = broken_words(&help, &text);
        assert!(broken.is_empty(), "{color}: {broken:?}\n{text}");
        let plain = uncolored(&text);
        let quoted = plain
            .lines()
            .find(|l| l.starts_with("30 | "))
            .unwrap_or_else(|| panic!("no quoted line\n{text}"));
        assert!(quoted.ends_with('…'), "{quoted}");
    }
    for args in [
        &["check-ordinal", "--format", "human", "--color", "never"][..],
        &[
            "replay", "--view", "state", "--format", "human", "--color", "never",
        ],
    ] {
        let mut all = args.to_vec();
        all.push("testdata/broken/ordinal-line-duplicated.jsonl");
        let Some(text) = in_terminal(&all, 80, None) else {
            return;
        };
        assert!(text.contains(" = help: "), "{args:?}\n{text}");
        let wide = wider_than(&text, 80);
        assert!(wide.is_empty(), "{args:?}: {wide:#?}\n{text}");
    }
}

/// Issue #31: in a pipe, `lint`'s human diagnostics are as they always were: one line a
/// help, the quoted line's first 100 characters (tools and the docs' examples read them).
#[test]
fn in_a_pipe_human_diagnostics_are_never_wrapped() {
    let f = "testdata/broken/calls-call-deleted.jsonl";
    let mut c = rollscope();
    c.env("COLUMNS", "40");
    let out = c.args(["lint", "--color", "never", f]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let help = text
        .lines()
        .find(|l| l.starts_with("  = help: The call"))
        .unwrap();
    assert!(
        help.ends_with("A writer keeps each call with its output."),
        "{text}"
    );
    let quoted = text.lines().find(|l| l.starts_with("30 | ")).unwrap();
    assert_eq!(quoted.chars().count(), "30 | ".len() + 100, "{quoted}");
}

/// The slug of every rule.
fn slugs() -> Vec<String> {
    rows(&["lint", "--list-rules", "--format", "ndjson"], 0)
        .iter()
        .map(|r| r["slug"].as_str().unwrap().to_string())
        .collect()
}

/// Issue #31: `lint --explain` renders the rule's documentation for the terminal: at 80
/// columns no line is wider, no word is cut, and no Markdown markup is left; in a pipe it
/// is the same words as plain text, a paragraph a line.
#[test]
fn lint_explain_fits_80_columns_and_is_plain_text_in_a_pipe() {
    for slug in slugs() {
        let piped = output(&["lint", "--explain", &slug], 0);
        let piped = String::from_utf8(piped.stdout).unwrap();
        assert!(!piped.contains("**"), "{slug}: markup in a pipe\n{piped}");
        assert!(!piped.contains('\u{1b}'), "{slug}\n{piped}");
        assert!(piped.contains("\nChecks. "), "{slug}\n{piped}");
        for color in ["never", "always"] {
            let Some(text) = in_terminal(&["lint", "--color", color, "--explain", &slug], 80, None)
            else {
                return;
            };
            let wide = wider_than(&text, 80);
            assert!(wide.is_empty(), "{slug} {color}: {wide:#?}\n{text}");
            assert!(!text.contains("**"), "{slug} {color}\n{text}");
            let broken = broken_words(&piped, &text);
            assert!(broken.is_empty(), "{slug} {color}: {broken:?}\n{text}");
        }
    }
}

/// A Codex home of every real session of the corpus, one folder (issue #31): MCP calls,
/// inherited rows, shell calls and patches of five Codex versions side by side. A file
/// that shares its thread with another (a revert's second file) is left out: every session
/// here is one file.
fn corpus_home(dir: &Path) -> PathBuf {
    let to = dir.join("sessions/2026/11/29");
    std::fs::create_dir_all(&to).unwrap();
    for f in rollouts_under(&testdata("real")) {
        let name = f.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".jsonl") && !name.contains('_') {
            std::fs::copy(&f, to.join(&name)).unwrap();
        }
    }
    dir.to_path_buf()
}

/// The cells of a table line, trimmed (the borders' empty ends left out).
fn cells(line: &str) -> Vec<&str> {
    let parts: Vec<&str> = line.split('│').collect();
    parts[1..parts.len() - 1].iter().map(|c| c.trim()).collect()
}

/// Issue #31, 1: at 80 columns `calls` over a home of many sessions keeps what it is read
/// for, the command and its exit code, and names each session by a short thread id, not a
/// path cut in its middle; a rare long status or tool name does not set a column's width.
#[test]
fn calls_over_a_home_at_80_columns_keeps_the_command_and_its_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let home = corpus_home(dir.path());
    let home = home.to_str().unwrap();
    let Some(text) = in_terminal(&["calls", "--color", "never", home], 80, None) else {
        return;
    };
    let lines = table_lines(&text);
    assert!(lines.len() > 40, "{text}");
    let header = cells(lines[1]);
    for want in ["session", "arguments", "exit_code"] {
        assert!(header.contains(&want), "{want}: {header:?}\n{text}");
    }
    assert!(!header.contains(&"path"), "{header:?}\n{text}");
    for l in &lines {
        assert!(width(l) <= 80, "{} columns\n{text}", width(l));
    }
    // The MCP session (thread 01a22763-5672-7d22-8700-fe355115a9f3) by its last 8 digits.
    assert!(text.contains("│ 5115a9f3 "), "{text}");
    assert!(!text.contains("rollout-"), "{text}");
    // A shell call shows its command.
    let at = header.iter().position(|c| *c == "arguments").unwrap();
    let args: Vec<&str> = lines[3..]
        .iter()
        .filter(|l| l.starts_with('│'))
        .map(|l| cells(l)[at])
        .collect();
    assert!(args.contains(&"ls -la"), "{args:?}\n{text}");
}

/// Issue #31, 2: `replay`'s transcript at 100 columns gives its width to the text, and a
/// tool call's text is its command, not its JSON arguments.
#[test]
fn the_transcript_at_100_columns_gives_the_text_the_width_and_calls_show_their_command() {
    let f = real_file("0.171.0", "shell", "");
    let Some(text) = in_terminal(
        &["replay", "--color", "never", f.to_str().unwrap()],
        100,
        None,
    ) else {
        return;
    };
    let lines = table_lines(&text);
    let header = cells(lines[1]);
    let at = header
        .iter()
        .position(|c| *c == "text")
        .expect("a text column");
    let widths: Vec<usize> = lines[1].split('│').map(width).collect();
    let text_w = widths[at + 1];
    assert!(
        widths.iter().all(|&w| w <= text_w) && text_w >= 40,
        "{widths:?}\n{text}"
    );
    assert!(lines.iter().all(|l| width(l) <= 100), "{text}");
    assert!(!text.contains("{\"cmd\""), "{text}");
    let row = lines
        .iter()
        .find(|l| l.contains("call exec_comm") && l.contains("│ python3 hello.py "));
    assert!(row.is_some(), "{text}");
}
