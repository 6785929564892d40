//! The docs' examples run: every ```` ```console ```` block of README.md and docs/*.md is a
//! session of `$ command` lines, each followed by what it prints.
//!
//! - Each command runs with `sh -c` from the project root, with the freshly built
//!   `rollscope` first on `PATH`, `NO_COLOR=1`, `TZ=UTC`, `LC_ALL=C.UTF-8`, `COLUMNS` and
//!   `CODEX_HOME` unset and `HOME` a folder that does not exist (so no real sessions are
//!   read). What it prints on stdout and stderr, as a terminal would show them (one
//!   stream), must be the lines that follow it up to the next `$ ` line or the end of the
//!   block, exactly. The exit code is not compared: what a failure prints is (`; echo
//!   "exit $?"` shows it where it matters). One stream is deterministic where rollscope's
//!   stderr comes before what it writes to a pipe (a bad-line note before the rows that
//!   `jq` prints); a note rollscope writes after its rows, while `jq` still prints them,
//!   could land either side: use `-q` there, or no pipe.
//! - A command line ending in `\` continues on the next line.
//! - ```` ```console,ignore ```` shows a session that is not run (a tool that is not
//!   installed, a path on the reader's machine); ```` ```sh ```` and every other fence are
//!   prose.
//! - A command that uses `jq` is skipped, with a note on stderr, where `jq` is not
//!   installed (a failure under CI: `crate::util::tool`).
//! - `BLESS=1 cargo test --test cli docs::` rewrites each shown output with what the
//!   command printed.

use std::path::Path;
use std::process::{Command, Stdio};

use super::{blocks, pages, path_of, Page};
use crate::util::{root, tool};

/// One `$ command` of a console block and the output shown after it.
pub(crate) struct Example {
    /// The 1-based line of the `$`.
    pub line: usize,
    pub command: String,
    pub shown: Vec<String>,
    /// The 0-based lines `[start, end)` of the page that hold the shown output.
    out: (usize, usize),
}

/// Does this fence's info string mark a block to run?
fn runs(info: &str) -> bool {
    let mut words = info.split([',', ' ']).filter(|w| !w.is_empty());
    words.next() == Some("console") && !words.any(|w| w == "ignore")
}

/// The examples of a page, in order.
pub(crate) fn of(p: &Page) -> Vec<Example> {
    let mut out = Vec::new();
    for b in blocks(&p.text).into_iter().filter(|b| runs(&b.info)) {
        let mut j = 0;
        assert!(
            b.lines.first().is_some_and(|l| l.starts_with("$ ")),
            "{}:{}: a console block starts with a `$ command` line",
            p.rel,
            b.first + 1
        );
        while j < b.lines.len() {
            let start = j;
            let mut command = b.lines[j]["$ ".len()..].to_string();
            while command.ends_with('\\') && j + 1 < b.lines.len() {
                j += 1;
                command.push('\n');
                command.push_str(&b.lines[j]);
            }
            j += 1;
            let out_start = j;
            while j < b.lines.len() && !b.lines[j].starts_with("$ ") {
                j += 1;
            }
            out.push(Example {
                line: b.first + start + 1,
                command,
                shown: b.lines[out_start..j].to_vec(),
                out: (b.first + out_start, b.first + j),
            });
        }
    }
    out
}

pub(crate) fn uses_jq(command: &str) -> bool {
    command
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .any(|w| w == "jq")
}

/// What `command` prints, stdout and stderr as one stream; `None` when it needs `jq` and
/// there is none ([`tool`]: a note, or a failure under CI).
pub(crate) fn run(command: &str) -> Option<String> {
    if uses_jq(command) && tool("jq", &format!("`$ {command}` did not run")).is_none() {
        return None;
    }
    let out = sh(&format!("exec 2>&1\n{command}")).output().unwrap();
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `sh -c SCRIPT` as an example runs: from the project root, the freshly built `rollscope`
/// first on `PATH`, the environment of a reader's terminal without their Codex home
/// (above); standard input empty.
pub(crate) fn sh(script: &str) -> Command {
    let bin = Path::new(env!("CARGO_BIN_EXE_rollscope"));
    let mut dirs = vec![bin.parent().unwrap().to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(script)
        .current_dir(root())
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .env("NO_COLOR", "1")
        .env("TZ", "UTC")
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", root().join("testdata/no-such-home"))
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    for var in [
        "COLUMNS",
        "LINES",
        "CODEX_HOME",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "FORCE_COLOR",
    ] {
        c.env_remove(var);
    }
    c
}

/// The lines of a command's output, as a block shows them.
fn lines(printed: &str) -> Vec<String> {
    if printed.is_empty() {
        return Vec::new();
    }
    let body = printed.strip_suffix('\n').unwrap_or(printed);
    body.split('\n').map(str::to_string).collect()
}

/// The first lines of a text, for a failure message.
fn excerpt(lines: &[String]) -> String {
    let mut s: Vec<String> = lines.iter().take(30).map(|l| format!("    {l}")).collect();
    if lines.len() > 30 {
        s.push(format!("    … ({} lines in all)", lines.len()));
    }
    if s.is_empty() {
        s.push("    (nothing)".into());
    }
    s.join("\n")
}

#[test]
fn every_console_example_prints_what_it_shows() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let mut ran = 0;
    for p in pages() {
        let examples = of(&p);
        let mut text: Vec<String> = p.text.lines().map(str::to_string).collect();
        let mut changed = false;
        let mut page_failures = Vec::new();
        // From the last, so that rewriting one output moves no line of the ones before.
        for ex in examples.iter().rev() {
            let Some(printed) = run(&ex.command) else {
                continue;
            };
            ran += 1;
            let got = lines(&printed);
            if got == ex.shown {
                continue;
            }
            if bless {
                text.splice(ex.out.0..ex.out.1, got);
                changed = true;
            } else {
                page_failures.push(format!(
                    "{}:{}: `$ {}` printed other than the example shows (BLESS=1 rewrites the example):\n  shown:\n{}\n  printed:\n{}\n",
                    p.rel,
                    ex.line,
                    ex.command,
                    excerpt(&ex.shown),
                    excerpt(&got)
                ));
            }
        }
        failures.extend(page_failures.into_iter().rev());
        if changed {
            let mut new = text.join("\n");
            new.push('\n');
            std::fs::write(path_of(&p), new).unwrap();
        }
    }
    assert!(ran > 0, "no console example ran");
    super::report("examples whose output changed", failures);
}

#[test]
fn the_runner_reads_commands_continuations_and_outputs() {
    let p = Page {
        rel: "test.md".into(),
        text: "text\n```console\n$ echo a \\\n  b\na b\n$ true\n```\n```console,ignore\n$ duckdb\n```\n```sh\n$ nope\n```\n".into(),
    };
    let ex = of(&p);
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].command, "echo a \\\n  b");
    assert_eq!(ex[0].shown, ["a b"]);
    assert_eq!((ex[0].line, ex[0].out), (3, (4, 5)));
    assert_eq!(ex[1].command, "true");
    assert!(ex[1].shown.is_empty());
    assert_eq!(run(&ex[0].command).as_deref(), Some("a b\n"));
    assert_eq!(run("echo out; echo err >&2").as_deref(), Some("out\nerr\n"));
    assert_eq!(lines(""), Vec::<String>::new());
    assert_eq!(lines("\n"), [""]);
}
