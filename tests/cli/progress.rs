//! The progress bar (issue #14): on stderr when it is a terminal, for every subcommand that
//! reads files; never in a pipe, never with `-q`. The terminal is a pseudo-terminal made by
//! util-linux `script`; `ROLLSCOPE_PROGRESS_DELAY=0` shows the bar at once, so no test
//! waits for it.

use crate::util::*;

/// Every subcommand that reads files, as it is run over a tree.
const READERS: [&[&str]; 6] = [
    &["stats"],
    &["turns"],
    &["calls"],
    &["check-ordinal"],
    &["replay"],
    &["lint"],
];

/// One frame of the bar (`[==>   ] 12/41 files  …  ETA 1s`), and the erase that follows
/// it before anything else is written.
fn frames() -> regex::Regex {
    regex::Regex::new(r"\[[=> ]*\] \d+/\d+ files  [^\r\n]*ETA [^\r\n]*\r\x1b\[2K").unwrap()
}

/// Is util-linux `script` here? When not, the test says so and does not run.
fn script_here() -> bool {
    in_pty("true", &[]).is_some()
}

/// Run the shell command line `line` in a pseudo-terminal, the bar shown at once.
fn in_terminal(line: &str, envs: &[(&str, &str)]) -> (String, Option<i32>) {
    let mut all = vec![("ROLLSCOPE_PROGRESS_DELAY", "0")];
    all.extend_from_slice(envs);
    in_pty(line, &all).expect("script is here: checked first")
}

/// `"$ROLLSCOPE" ARGS… testdata/real`, stdout thrown away: what the terminal shows is
/// stderr's.
fn over_the_tree(args: &[&str]) -> String {
    format!(
        r#""$ROLLSCOPE" {} testdata/real > /dev/null"#,
        args.join(" ")
    )
}

#[test]
fn every_subcommand_shows_the_progress_bar_on_a_terminal() {
    if !script_here() {
        return;
    }
    for args in READERS {
        let (shown, code) = in_terminal(&over_the_tree(args), &[]);
        assert!(frames().is_match(&shown), "{args:?}: no bar in {shown:?}");
        assert!(code.is_some(), "{args:?}: {shown:?}");
    }
}

#[test]
fn the_bar_counts_files_and_bytes_of_the_total_and_is_cleared_at_the_end() {
    if !script_here() {
        return;
    }
    let files = rollouts_under(&testdata("real")).len();
    let (shown, _) = in_terminal(&over_the_tree(&["stats"]), &[]);
    assert!(shown.contains(&format!(" 0/{files} files  ")), "{shown:?}");
    // Bytes of the total on disk, a rate and the time left.
    assert!(shown.contains(" B/s  ETA "), "{shown:?}");
    // Cleared at the end: the terminal's last bytes erase it.
    assert!(shown.ends_with("\r\x1b[2K"), "{shown:?}");
}

#[test]
fn the_bar_is_cleared_before_the_table_is_printed_on_the_same_terminal() {
    if !script_here() {
        return;
    }
    let line = r#""$ROLLSCOPE" stats --color never testdata/real"#;
    let (shown, code) = in_terminal(line, &[]);
    assert_eq!(code, Some(0), "{shown}");
    // Frames, each erased, then the table and nothing of the bar.
    let bar = regex::Regex::new(&format!("^(?:{})+", frames().as_str())).unwrap();
    let end = bar.find(&shown).expect("the bar first").end();
    let table = &shown[end..];
    assert!(table.contains("total"), "{shown:?}");
    assert!(!table.contains(" files  "), "{shown:?}");
}

/// `lint` writes its findings to the terminal while the bar is shown: they come out whole,
/// and once the bar's frames are taken out the terminal shows what a pipe gets.
#[test]
fn lines_written_while_the_bar_is_shown_come_out_whole() {
    if !script_here() {
        return;
    }
    let args = ["lint", "--format", "concise", "--color", "never"];
    let line = format!(r#""$ROLLSCOPE" {} testdata/real"#, args.join(" "));
    let (shown, code) = in_terminal(&line, &[]);
    assert!(frames().is_match(&shown), "no bar in {shown:?}");
    let piped = rollscope()
        .args(args)
        .arg("testdata/real")
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(code, piped.status.code());
    // The closing count wraps at the terminal's width (its continuation indented two
    // columns); a pipe gets it on one line.
    let text = frames()
        .replace_all(&shown, "")
        .replace("\r\n", "\n")
        .replace("\n  ", " ");
    let want = format!(
        "{}{}",
        String::from_utf8_lossy(&piped.stdout),
        String::from_utf8_lossy(&piped.stderr)
    );
    assert_eq!(text, want);
}

#[test]
fn rows_written_past_the_bar_are_the_bytes_a_pipe_gets() {
    if !script_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rows.ndjson");
    let line = format!(
        r#""$ROLLSCOPE" turns --format ndjson testdata/real > '{}'"#,
        file.display()
    );
    let (shown, code) = in_terminal(&line, &[]);
    assert_eq!(code, Some(0), "{shown}");
    assert!(frames().is_match(&shown), "no bar in {shown:?}");
    let piped = rollscope()
        .args(["turns", "--format", "ndjson", "testdata/real"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), piped.stdout);
}

#[test]
fn a_pipe_never_shows_the_bar() {
    let tree = testdata("real");
    for args in READERS {
        let out = rollscope()
            .args(args)
            .arg(&tree)
            .env("ROLLSCOPE_PROGRESS_DELAY", "0")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains(" files  "), "{args:?}: {stderr}");
        assert!(!stderr.contains("\x1b[2K"), "{args:?}: {stderr}");
    }
}

#[test]
fn quiet_never_shows_the_bar_on_a_terminal() {
    if !script_here() {
        return;
    }
    for args in READERS {
        let quiet: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
        let (shown, _) = in_terminal(&over_the_tree(&quiet), &[]);
        assert!(!shown.contains(" files  "), "{args:?}: {shown:?}");
    }
}

#[test]
fn progress_never_turns_the_bar_off_on_a_terminal() {
    if !script_here() {
        return;
    }
    let (shown, _) = in_terminal(
        &over_the_tree(&["stats"]),
        &[("ROLLSCOPE_PROGRESS", "never")],
    );
    assert!(!shown.contains(" files  "), "{shown:?}");
}

/// A run over the tree ends long before a minute.
#[test]
fn a_run_shorter_than_the_delay_shows_no_bar() {
    if !script_here() {
        return;
    }
    let delay = [("ROLLSCOPE_PROGRESS_DELAY", "60000")];
    let (shown, _) = in_terminal(&over_the_tree(&["stats"]), &delay);
    assert!(!shown.contains(" files  "), "{shown:?}");
}

#[test]
fn a_single_file_shows_no_bar() {
    if !script_here() {
        return;
    }
    let file = real_file("0.171.0", "shell", "");
    let line = format!(r#""$ROLLSCOPE" stats '{}' > /dev/null"#, file.display());
    let (shown, _) = in_terminal(&line, &[]);
    assert!(!shown.contains(" files  "), "{shown:?}");
}
