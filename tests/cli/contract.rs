//! The contract every row-printing subcommand keeps, checked for each one from one table:
//! `--format json` is one array of the `--format ndjson` rows; rows have the fields its
//! `docs/` page documents, in that order; a closed pipe (`| head`) ends it quietly with exit
//! 0; standard input and `.zst` give the rows of the plain file. A new subcommand gets all
//! of it by adding one line to [`CONTRACTS`].

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use serde_json::Value;

use crate::util::*;

/// A subcommand under contract: its name and the page documenting its rows.
struct Contract {
    command: &'static str,
    doc: &'static str,
}

const CONTRACTS: &[Contract] = &[
    Contract {
        command: "stats",
        doc: "docs/stats.md",
    },
    Contract {
        command: "turns",
        doc: "docs/turns.md",
    },
    Contract {
        command: "calls",
        doc: "docs/calls.md",
    },
    Contract {
        command: "check-ordinal",
        doc: "docs/check-ordinal.md",
    },
    Contract {
        command: "replay",
        doc: "docs/replay.md",
    },
    Contract {
        command: "lint",
        doc: "docs/lint.md",
    },
];

/// Inputs whose result does not depend on where they lie (no `history_base` to look up
/// beside them): real files of several Codex versions and broken copies with a defect that
/// a stream can end in (a torn last line) or that makes `check-ordinal` exit 1.
fn samples() -> Vec<PathBuf> {
    vec![
        real_file("0.171.0", "shell", ""),
        real_file("0.147.0", "resume", ""),
        real_file("0.128.0", "apply_patch", ""),
        real_file("0.80.0", "shell", ""),
        real_file("0.36.0", "shell", ""),
        testdata("broken/ordinal-torn-last-line.jsonl"),
        testdata("broken/ordinal-line-duplicated.jsonl"),
    ]
}

/// What a run printed: exit code and stdout.
fn run(command: &str, format: &str, input: Input<'_>) -> (i32, Vec<u8>) {
    let mut cmd = rollscope();
    cmd.args([command, "--format", format, "-q"]);
    match input {
        Input::Path(p) => {
            cmd.arg(p);
        }
        Input::Stdin(p) => {
            cmd.arg("-").pipe_stdin(p).unwrap();
        }
    }
    let out = cmd.output().unwrap();
    let code = out.status.code().expect("exited");
    assert!(
        code == 0 || code == 1,
        "{command} {input:?}: exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (code, out.stdout)
}

/// The NDJSON of `c` on the sample `s` by path, and its output in `format` on `input` (the
/// same sample another way), which must end with the same exit code.
fn beside_ndjson(c: &Contract, s: &Path, format: &str, input: Input<'_>) -> (Vec<u8>, Vec<u8>) {
    let (code, nd) = run(c.command, "ndjson", Input::Path(s));
    let (other_code, other) = run(c.command, format, input);
    assert_eq!(other_code, code, "{} {format} {input:?}", c.command);
    (nd, other)
}

#[derive(Debug, Clone, Copy)]
enum Input<'a> {
    Path(&'a Path),
    Stdin(&'a Path),
}

/// The rows of a run without their `path`.
/// The rows without their path, nor `lint`'s findings about the file's name and place:
/// those are about the path, which a stream or a copy elsewhere does not have.
fn rows_without_path(stdout: &[u8]) -> Vec<Value> {
    const NAME_RULES: [&str; 3] = ["file.name", "file.location", "file.zst-shadowed"];
    ndjson(stdout)
        .iter()
        .filter(|r| !NAME_RULES.iter().any(|n| r["rule"] == *n))
        .map(without_path)
        .collect()
}

/// The top-level fields of the first `| field | type | meaning |` table of a docs page, in
/// order: a nested field's row (`tokens.input_tokens`, `records.TYPE`) names its parent.
fn documented_fields(doc: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(doc)).unwrap();
    let table = text
        .split("| field | type | meaning |")
        .nth(1)
        .unwrap_or_else(|| panic!("{doc} has no field table"));
    let mut fields: Vec<String> = Vec::new();
    for l in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let path = l.split('`').nth(1).expect("a field in backquotes");
        let top = path.split('.').next().unwrap();
        if fields.last().map(String::as_str) != Some(top) {
            fields.push(top.to_string());
        }
    }
    fields
}

#[test]
fn json_is_one_array_of_the_ndjson_rows() {
    for c in CONTRACTS {
        for s in samples() {
            let (nd, json) = beside_ndjson(c, &s, "json", Input::Path(&s));
            let arr: Value = serde_json::from_slice(&json).unwrap();
            assert_eq!(
                arr.as_array().unwrap(),
                &ndjson(&nd),
                "{} {}",
                c.command,
                s.display()
            );
        }
    }
}

#[test]
fn rows_have_the_documented_fields_in_order() {
    for c in CONTRACTS {
        let fields = documented_fields(c.doc);
        assert!(fields.len() > 5, "{}: {fields:?}", c.doc);
        let mut rows_seen = 0;
        for s in samples() {
            let (_, nd) = run(c.command, "ndjson", Input::Path(&s));
            for row in ndjson(&nd) {
                let keys: Vec<&str> = row
                    .as_object()
                    .unwrap()
                    .keys()
                    .map(String::as_str)
                    .collect();
                // `tokens.cache_write_input_tokens` aside, rows carry every field, always.
                assert_eq!(keys, fields, "{} {}", c.command, s.display());
                rows_seen += 1;
            }
        }
        assert!(rows_seen > 0, "{}: no rows", c.command);
    }
}

#[test]
fn standard_input_gives_the_rows_of_the_file() {
    for c in CONTRACTS {
        for s in samples() {
            let (from_file, from_stdin) = beside_ndjson(c, &s, "ndjson", Input::Stdin(&s));
            assert_eq!(
                rows_without_path(&from_stdin),
                rows_without_path(&from_file),
                "{} {}",
                c.command,
                s.display()
            );
            assert!(ndjson(&from_stdin).iter().all(|r| r["path"] == "-"));
        }
    }
}

#[test]
fn zst_gives_the_rows_of_the_plain_file_by_path_and_on_standard_input() {
    let tmp = tempfile::tempdir().unwrap();
    for s in samples() {
        let zst = compress_into(&s, tmp.path());
        for c in CONTRACTS {
            let (code, plain) = run(c.command, "ndjson", Input::Path(&s));
            let plain = rows_without_path(&plain);
            for input in [Input::Path(&zst), Input::Stdin(&zst)] {
                let (zst_code, rows) = run(c.command, "ndjson", input);
                assert_eq!(zst_code, code, "{} {input:?}", c.command);
                assert_eq!(rows_without_path(&rows), plain, "{} {input:?}", c.command);
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly_with_exit_0() {
    let tmp = tempfile::tempdir().unwrap();
    let src = real_file("0.171.0", "shell", ".jsonl");
    // A file with findings too, so that every command (`lint` included) writes rows.
    let broken = testdata("broken/ordinal-line-duplicated.jsonl");
    // Enough rows to overflow a pipe buffer, so rollscope really meets the closed pipe.
    for i in 0..400 {
        let from = if i % 2 == 0 { &src } else { &broken };
        std::fs::copy(from, tmp.path().join(format!("rollout-{i:04}.jsonl"))).unwrap();
    }
    let bin = assert_cmd::cargo::cargo_bin("rollscope");
    for c in CONTRACTS {
        for args in ["--format ndjson", "--format json", "-j 1 --format ndjson"] {
            let out = StdCommand::new("bash")
                .arg("-c")
                .arg(format!(
                    "{} {} {args} {} | head -1; exit ${{PIPESTATUS[0]}}",
                    bin.display(),
                    c.command,
                    tmp.path().display()
                ))
                .output()
                .unwrap();
            let what = format!("{} {args}", c.command);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{what}: {stderr}");
            assert_eq!(stderr, "", "{what}");
            assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
        }
    }
}
