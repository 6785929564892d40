//! Help (issue #14): `-h` is the short summary, `--help` the long text ending with real
//! examples, and every example runs against a sample Codex home and succeeds.

use std::path::Path;
use std::process::Command;

use crate::util::*;

/// Every subcommand but `help`, as `--help` lists them.
pub(crate) fn subcommands() -> Vec<String> {
    use clap::CommandFactory;
    rollscope::cli::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

pub(crate) fn help(args: &[&str]) -> String {
    let out = output(args, 0);
    String::from_utf8(out.stdout).unwrap()
}

/// The `$ ` lines of a help text's `Examples:` section.
pub(crate) fn examples(text: &str) -> Vec<String> {
    let Some((_, section)) = text.split_once("\nExamples:\n") else {
        return Vec::new();
    };
    section
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("$ "))
        .map(str::to_string)
        .collect()
}

#[test]
fn dash_h_is_a_summary_and_dash_dash_help_the_long_text_with_two_to_four_examples() {
    let mut all: Vec<Vec<String>> = vec![vec![]];
    all.extend(subcommands().into_iter().map(|s| vec![s]));
    for cmd in all {
        let args = |flag: &str| -> Vec<String> {
            let mut a = cmd.clone();
            a.push(flag.into());
            a
        };
        let short = help(&args("-h").iter().map(String::as_str).collect::<Vec<_>>());
        let long = help(
            &args("--help")
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        assert_ne!(short, long, "{cmd:?}: -h and --help print the same");
        assert!(short.len() < long.len(), "{cmd:?}");
        assert!(examples(&short).is_empty(), "{cmd:?}: -h shows examples");
        let n = examples(&long).len();
        assert!((2..=4).contains(&n), "{cmd:?}: {n} examples\n{long}");
        for e in examples(&long) {
            assert!(
                e.starts_with("rollscope ") || e.contains("<(rollscope "),
                "{e}"
            );
        }
    }
}

/// A Codex home holding a few real sessions (several turns, calls, a rollback, a
/// compaction), copied so the examples read a tree like a user's.
pub(crate) fn sample_home(dir: &Path) {
    for (version, scenario) in [
        ("0.171.0", "shell"),
        ("0.171.0", "compaction"),
        ("0.147.0", "resume"),
        ("0.147.0", "rollback_twice"),
        ("0.128.0", "interrupt_sigint"),
        ("0.147.0", "kill_then_resume"),
        ("0.128.0", "apply_patch"),
    ] {
        for f in rollouts_under(&real(version, scenario)) {
            let to = dir.join("sessions/2026/11/29");
            std::fs::create_dir_all(&to).unwrap();
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    // And one a writer broke: an ordinal line deleted (a gap).
    let broken = "rollout-2026-11-29T12-00-29-01a2272d-9a96-7661-8a5b-9daaa2a6ee7f.jsonl";
    std::fs::copy(
        testdata("broken/ordinal-line-deleted.jsonl"),
        dir.join("sessions/2026/11/29").join(broken),
    )
    .unwrap();
}

#[test]
fn every_example_in_the_help_runs_against_a_codex_home_and_succeeds() {
    let Some(bash) = tool("bash", "no example in the help ran") else {
        return;
    };
    let mut has_jq = None;
    let home = tempfile::tempdir().unwrap();
    sample_home(home.path());
    let bin = assert_cmd::cargo::cargo_bin("rollscope");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    let mut all = vec![String::new()];
    all.extend(subcommands());
    for cmd in all {
        let long = if cmd.is_empty() {
            help(&["--help"])
        } else {
            help(&[&cmd, "--help"])
        };
        for e in examples(&long) {
            if e.contains("| jq")
                && !*has_jq.get_or_insert_with(|| {
                    tool("jq", "the help's examples through `| jq` did not run").is_some()
                })
            {
                continue;
            }
            // Each in a directory of its own: what it writes is its own output.
            let work = tempfile::tempdir().unwrap();
            let out = Command::new(&bash)
                .args(["-o", "pipefail", "-c", &e])
                .current_dir(work.path())
                .env("PATH", &path)
                .env("CODEX_HOME", home.path())
                .env("HOME", work.path())
                .env("TZ", "UTC")
                .env_remove("COLUMNS")
                .output()
                .unwrap();
            let code = out.status.code();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(code, Some(0) | Some(1)),
                "`{e}` exited {code:?}: {stderr}"
            );
            let wrote = std::fs::read_dir(work.path()).unwrap().count() > 0;
            assert!(
                !out.stdout.is_empty() || wrote || e.starts_with("source "),
                "`{e}` printed nothing: {stderr}"
            );
            ran += 1;
        }
    }
    assert!(ran >= 15, "{ran} examples ran");
}
