//! Shared test helpers: a clean `rollscope` command, paths to test data and the shared
//! corpus, and NDJSON parsing.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// The project root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `testdata/<rel>`.
pub fn testdata(rel: &str) -> PathBuf {
    root().join("testdata").join(rel)
}

/// A real scenario copied into `testdata/real/<version>/<scenario>`.
pub fn real(version: &str, scenario: &str) -> PathBuf {
    testdata(&format!("real/{version}/{scenario}"))
}

/// The one rollout file of a real scenario whose name contains `needle` (or the only one).
pub fn real_file(version: &str, scenario: &str, needle: &str) -> PathBuf {
    let files = rollouts_under(&real(version, scenario));
    let hits: Vec<_> = files
        .iter()
        .filter(|p| p.to_string_lossy().contains(needle))
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "{version}/{scenario}: {needle} matches {hits:?}"
    );
    hits[0].clone()
}

/// Every rollout file below `dir`, sorted.
pub fn rollouts_under(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("rollout-") && (n.ends_with(".jsonl") || n.ends_with(".jsonl.zst"))
        })
        .collect();
    v.sort();
    v
}

/// Every real scenario directory (`<version>/<scenario>`) under a corpus root.
pub fn scenarios_under(corpus: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(corpus)
        .min_depth(2)
        .max_depth(2)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_dir())
        .map(|e| e.into_path())
        .collect();
    v.sort();
    v
}

/// `../shared/corpus/real` when present (CI has it beside the clone). Tests that sweep it
/// print a plain skip note where it is absent.
pub fn shared_corpus() -> Option<PathBuf> {
    let p = root().join("../shared/corpus/real");
    if p.is_dir() {
        Some(p)
    } else {
        // Written straight to the process's stderr so the note shows even when the test
        // harness captures output.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: ../shared/corpus/real is not present; the corpus sweep did not run"
        );
        None
    }
}

/// A program a test needs that a machine may lack: its path, found as the test runs it.
///
/// - `sarif-multitool`: `$SARIF_MULTITOOL` when set (`.ci/run` sets it to the
///   multitool's own executable), else `Sarif.Multitool` or `sarif-multitool` on `PATH`;
/// - `time`: GNU time at `/usr/bin/time` (`-f %M` must work; a shell's `time` is no program);
/// - `script`: util-linux's `script` on `PATH` (BSD's takes other arguments);
/// - any other name (`jq`, `zsh`, `fish`, `duckdb`, `strace`, `bash`, `mkfifo`, …): that
///   program on `PATH`.
///
/// Where it is missing the test does not run, `unrun` saying what did not. Under CI (`CI`
/// is `true` or `1`), which must run every test, that is a failure naming the tool and
/// `.ci/run`, which installs them; elsewhere the test prints `SKIPPED: NAME is not
/// installed; UNRUN` on stderr (past the harness's capture, so it shows) and `None` lets it
/// return.
pub fn tool(name: &str, unrun: &str) -> Option<PathBuf> {
    if let Some(path) = find_tool(name) {
        return Some(path);
    }
    let what = match name {
        "time" => "GNU time (/usr/bin/time)",
        "script" => "util-linux `script`",
        "sarif-multitool" => {
            "sarif-multitool ($SARIF_MULTITOOL, Sarif.Multitool or sarif-multitool on PATH)"
        }
        _ => name,
    };
    if under_ci() {
        panic!(
            "{what} is not installed, and under CI no test may skip for want of a tool \
             (here: {unrun}): run the tests through `.ci/run`, which installs it"
        );
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {what} is not installed; {unrun}"
    );
    None
}

/// Is this a CI run (`CI=true` or `CI=1`, as CI services and `.ci/run` set it)?
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// [`tool`]'s search, without a word on a miss.
fn find_tool(name: &str) -> Option<PathBuf> {
    use std::process::Command;
    match name {
        "sarif-multitool" => std::env::var_os("SARIF_MULTITOOL")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| executable(p))
            .or_else(|| on_path("Sarif.Multitool"))
            .or_else(|| on_path("sarif-multitool")),
        "time" => {
            let time = PathBuf::from("/usr/bin/time");
            let gnu = Command::new(&time)
                .args(["-f", "%M", "true"])
                .output()
                .is_ok_and(|o| o.status.success());
            gnu.then_some(time)
        }
        "script" => on_path("script").filter(|p| {
            Command::new(p)
                .arg("--version")
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("util-linux"))
        }),
        _ => on_path(name),
    }
}

/// The first executable file `program` in a directory of `PATH`.
fn on_path(program: &str) -> Option<PathBuf> {
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|d| d.join(format!("{program}{}", std::env::consts::EXE_SUFFIX)))
        .find(|p| executable(p))
}

fn executable(p: &Path) -> bool {
    let Ok(meta) = p.metadata() else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// What the tests' environment leaves out: color and width choices, the real Codex home.
const SURPRISES: [&str; 6] = [
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "FORCE_COLOR",
    "COLUMNS",
    "CODEX_HOME",
];

/// `rollscope` with a clean environment: no color or locale surprises, no real CODEX_HOME,
/// a fixed time zone.
pub fn rollscope() -> Command {
    let mut c = Command::cargo_bin("rollscope").unwrap();
    for var in SURPRISES {
        c.env_remove(var);
    }
    c.env("TZ", "UTC");
    c.env("LC_ALL", "C.UTF-8");
    c.env("HOME", root().join("testdata/no-such-home"));
    c
}

/// `WRAPPER... rollscope` (GNU time, setpriv, strace), with [`rollscope`]'s clean
/// environment: the arguments that follow are rollscope's.
pub fn rollscope_under(wrapper: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(wrapper[0]);
    c.args(&wrapper[1..]).arg(env!("CARGO_BIN_EXE_rollscope"));
    for var in SURPRISES.iter().chain(&["ROLLSCOPE_PROGRESS"]) {
        c.env_remove(var);
    }
    c.env("TZ", "UTC")
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", root().join("testdata/no-such-home"));
    c
}

/// Parse NDJSON stdout into values (every line must be JSON).
pub fn ndjson(stdout: &[u8]) -> Vec<Value> {
    std::str::from_utf8(stdout)
        .expect("stdout is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// A row without its `path` (which names the input as given), for comparing the rows of
/// one content read in different ways.
pub fn without_path(row: &Value) -> Value {
    let mut r = row.clone();
    r.as_object_mut().unwrap().remove("path");
    r
}

/// Assert the fields of `row` that the object `want` names: each has the value it gives
/// (an absent field reads as `null`).
#[track_caller]
pub fn assert_fields(row: &Value, want: Value) {
    let want = want.as_object().expect("an object of fields");
    let got: serde_json::Map<String, Value> =
        want.keys().map(|k| (k.clone(), row[k].clone())).collect();
    assert_eq!(&got, want, "{row:#}");
}

/// Run with args; asserts the exit code.
pub fn output(args: &[&str], code: i32) -> Output {
    let out = rollscope().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "rollscope {args:?}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Run with args and return NDJSON rows; asserts the exit code.
pub fn rows(args: &[&str], code: i32) -> Vec<Value> {
    ndjson(&output(args, code).stdout)
}

/// The two tests of a check over every real rollout, `check(corpus)` giving the number of
/// files it checked: one over `testdata/real`, one over the shared corpus when present.
macro_rules! every_real_file {
    ($check:ident: $on_testdata:ident, $on_shared_corpus:ident) => {
        #[test]
        fn $on_testdata() {
            assert!($check(&testdata("real")) >= 38);
        }

        #[test]
        fn $on_shared_corpus() {
            if let Some(corpus) = shared_corpus() {
                assert!($check(&corpus) >= 37);
            }
        }
    };
}
pub(crate) use every_real_file;

/// `rollscope ARGS... --format ndjson PATH` (`args` starting with the subcommand): its
/// rows and its stderr, the exit code asserted.
pub fn ndjson_run(args: &[&str], path: &Path, code: i32) -> (Vec<Value>, String) {
    let mut a = vec![args[0], "--format", "ndjson"];
    a.extend_from_slice(&args[1..]);
    a.push(path.to_str().unwrap());
    let out = output(&a, code);
    (ndjson(&out.stdout), String::from_utf8(out.stderr).unwrap())
}

/// [`ndjson_run`]'s rows, for a run that exits 0.
pub fn ndjson_rows(args: &[&str], path: &Path) -> Vec<Value> {
    ndjson_run(args, path, 0).0
}

/// zstd-compress a file into `dir`, keeping its name plus `.zst`.
pub fn compress_into(src: &Path, dir: &Path) -> PathBuf {
    let data = std::fs::read(src).unwrap();
    let out = dir.join(format!(
        "{}.zst",
        src.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&out, zstd::encode_all(&data[..], 3).unwrap()).unwrap();
    out
}

/// Run the shell command line `line` in a pseudo-terminal made by util-linux `script`
/// (`$ROLLSCOPE` names the binary), with `rollscope()`'s clean environment and `envs`: what
/// the terminal received (`\r\n` kept), and the exit code. `None` where util-linux
/// `script` is not installed ([`tool`]: a failure under CI).
pub fn in_pty(line: &str, envs: &[(&str, &str)]) -> Option<(String, Option<i32>)> {
    use std::process::{Command, Stdio};
    let script = tool("script", "no pseudo-terminal test ran")?;
    let mut c = Command::new(script);
    c.args(["-q", "-e", "-c", line, "/dev/null"]);
    for var in SURPRISES.iter().chain(&["ROLLSCOPE_PROGRESS"]) {
        c.env_remove(var);
    }
    c.env("ROLLSCOPE", env!("CARGO_BIN_EXE_rollscope"))
        .env("TERM", "xterm")
        .env("TZ", "UTC")
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", root().join("testdata/no-such-home"))
        .current_dir(root());
    for (k, v) in envs {
        c.env(k, v);
    }
    let out = c.stdin(Stdio::null()).output().ok()?;
    Some((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    ))
}

/// A generated page (`rel` from the repository's root) is `page`: rewritten with `BLESS=1`,
/// else a failure naming the test to rerun.
#[track_caller]
pub fn assert_generated(rel: &str, page: &str, test: &str) {
    let path = root().join(rel);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, page).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        page == committed,
        "{rel} is out of date: rerun {test} with BLESS=1"
    );
}
