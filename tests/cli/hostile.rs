//! Hostile input (issue #15): one named test per shape of input nobody should have to
//! handle, each run through every subcommand that reads rollouts (`stats`, `turns`,
//! `calls`, `check-ordinal`, `replay`, `lint --no-config`, in NDJSON), with the exit code and
//! the exact message each one must give. What the shapes are and what rollscope does with
//! each is the table in `docs/robustness.md` ("Hostile input").
//!
//! The expected values are the behaviour's, written from the rules: exit 0 for a clean run,
//! 1 for findings (`lint`, `check-ordinal`), 2 when an input cannot be found or read; a bad
//! line is `path:line: cause (byte offset N)` on stderr, counted, and reading goes on; a
//! read error is one line, `rollscope: path: cause`; never a panic. Positions are computed
//! from the bytes the test wrote, never copied from a run.
//!
//! The files are made at test time in temporary directories. The shapes too large for every
//! run (a 200 MB line, a zstd bomb of 4 GB) are `#[ignore]`d, each beside a smaller twin that
//! always runs:
//!
//! ```sh
//! cargo test --release --test cli -- --ignored hostile
//! ```

mod files;
mod lineage;
mod streams;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::util::*;

/// Every subcommand that reads rollouts, by the name the tests give it.
pub const READERS: [&str; 6] = ["stats", "turns", "calls", "check-ordinal", "replay", "lint"];

/// The arguments that run `cmd` in NDJSON (`lint` without a config file).
pub fn args_of(cmd: &str) -> Vec<&str> {
    match cmd {
        "lint" => vec!["lint", "--no-config", "--format", "ndjson"],
        c => vec![c, "--format", "ndjson"],
    }
}

/// One subcommand's run: its exit code, NDJSON rows and stderr.
#[derive(Debug)]
pub struct Ran {
    pub cmd: &'static str,
    pub code: Option<i32>,
    pub rows: Vec<Value>,
    pub stderr: String,
    /// Peak RSS in KiB, when measured ([`every_measured`]).
    pub rss_kib: Option<u64>,
    /// Wall time of the run.
    pub wall: std::time::Duration,
}

impl Ran {
    fn of(cmd: &'static str, out: Output) -> Ran {
        let mut r = Ran::of_table(cmd, &out);
        r.rows = ndjson(&out.stdout);
        r
    }

    /// A run whose stdout is a table (no rows kept).
    fn of_table(cmd: &'static str, out: &Output) -> Ran {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{cmd} panicked:\n{stderr}");
        Ran {
            cmd,
            code: out.status.code(),
            rows: Vec::new(),
            stderr,
            rss_kib: None,
            wall: std::time::Duration::ZERO,
        }
    }

    /// Its stderr, a line each (what a run over the template says, to expect it again).
    pub fn notes(&self) -> Vec<String> {
        self.stderr.lines().map(String::from).collect()
    }

    /// Peak RSS at most `bound_kib` (when it could be measured).
    #[track_caller]
    pub fn within(&self, bound_kib: u64) -> &Ran {
        if let Some(rss) = self.rss_kib {
            assert!(
                rss <= bound_kib,
                "{}: peak RSS {rss} KiB > {bound_kib} KiB",
                self.cmd
            );
        }
        self
    }

    /// The exit code and the whole of stderr, line for line.
    #[track_caller]
    pub fn said(&self, code: i32, stderr: &[String]) -> &Ran {
        let got: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            (self.code, got),
            (Some(code), stderr.iter().map(String::as_str).collect()),
            "{}",
            self.cmd
        );
        self
    }
}

/// Run every reader over `paths` (after `extra` arguments, before the paths), with `env`.
pub fn every(extra: &[&str], paths: &[&Path], env: &[(&str, &Path)]) -> Vec<Ran> {
    READERS
        .iter()
        .map(|&cmd| {
            let mut c = rollscope();
            c.args(args_of(cmd)).args(extra).args(paths);
            for (k, v) in env {
                c.env(k, v);
            }
            let t = std::time::Instant::now();
            let mut r = Ran::of(cmd, c.output().unwrap());
            r.wall = t.elapsed();
            r
        })
        .collect()
}

/// [`every`] over `paths`, each run's peak RSS measured; each one printed (with its wall
/// time), for the numbers of `docs/robustness.md`.
pub fn every_measured(extra: &[&str], paths: &[&Path]) -> Vec<Ran> {
    READERS
        .iter()
        .map(|&cmd| {
            let mut args = args_of(cmd);
            args.extend_from_slice(extra);
            let paths: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
            args.extend_from_slice(&paths);
            let t = std::time::Instant::now();
            let (out, rss) = measured(&args, None);
            let mut r = Ran::of(cmd, out);
            r.wall = t.elapsed();
            r.rss_kib = rss;
            eprintln!("{cmd}: {:.2} s, peak RSS {rss:?} KiB", r.wall.as_secs_f64());
            r
        })
        .collect()
}

/// The run of `cmd` among `runs`.
pub fn of<'a>(runs: &'a [Ran], cmd: &str) -> &'a Ran {
    runs.iter().find(|r| r.cmd == cmd).unwrap()
}

/// A bad line's note on stderr.
pub fn note(path: &Path, line: usize, offset: usize, cause: &str) -> String {
    format!("{}:{line}: {cause} (byte offset {offset})", path.display())
}

/// A read error's line on stderr.
pub fn read_error(path: &Path, cause: &str) -> String {
    format!("rollscope: {}: {cause}", path.display())
}

/// A row without the fields that name where it lies (its path and lines), to compare rows
/// of files that differ by lines inserted.
pub fn placeless(row: &Value) -> Value {
    let mut r = row.clone();
    for k in [
        "path",
        "line",
        "line_start",
        "line_end",
        "call_line",
        "output_line",
    ] {
        r.as_object_mut().unwrap().remove(k);
    }
    r
}

/// The legacy 0.147.0 `shell` rollout: one turn, five tool calls, clean for every reader.
pub fn template() -> PathBuf {
    real_file("0.147.0", "shell", "")
}

/// The paginated 0.171.0 `qa` rollout (16 lines, ordinals 0..15), clean for every reader.
pub fn paginated_template() -> PathBuf {
    real_file("0.171.0", "qa", "")
}

/// The lines of a file, each without its `\n`.
pub fn lines_of(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    let mut v: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if v.last().is_some_and(Vec::is_empty) {
        v.pop();
    }
    v
}

/// Write `lines` (each ended by `\n`) to `dir/name`; the path, and each line's byte offset.
pub fn write_lines(dir: &Path, name: &str, lines: &[Vec<u8>]) -> (PathBuf, Vec<usize>) {
    let mut bytes = Vec::new();
    let mut offsets = Vec::new();
    for l in lines {
        offsets.push(bytes.len());
        bytes.extend_from_slice(l);
        bytes.push(b'\n');
    }
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    (path, offsets)
}

/// The runs of every reader over the template itself, for comparison.
pub fn template_runs() -> Vec<Ran> {
    every(&[], &[&template()], &[])
}

/// Peak RSS of a child, in KiB, measured by GNU time (`/usr/bin/time -f %M`): the output of
/// `rollscope ARGS` (stdin fed by `feed` when given) and the peak, `None` where GNU time
/// is not installed ([`tool`]: a failure under CI).
pub fn measured(
    args: &[&str],
    feed: Option<Box<dyn FnOnce(std::process::ChildStdin) + Send>>,
) -> (Output, Option<u64>) {
    let time = tool("time", "peak RSS not measured");
    let gnu = time.is_some();
    let report = tempfile::NamedTempFile::new().unwrap();
    let mut c = match &time {
        Some(time) => rollscope_under(&[
            time.to_str().unwrap(),
            "-f",
            "%M",
            "-o",
            report.path().to_str().unwrap(),
        ]),
        None => rollscope_under(&["env"]),
    };
    c.args(args)
        .stdin(if feed.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let writer = feed.map(|f| {
        let stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || f(stdin))
    });
    let out = child.wait_with_output().unwrap();
    if let Some(w) = writer {
        w.join().unwrap();
    }
    // GNU time writes "Command exited with non-zero status N" first when it is not 0.
    let rss = gnu.then(|| {
        let text = std::fs::read_to_string(report.path()).unwrap();
        text.lines().last().unwrap().trim().parse().unwrap()
    });
    (out, rss)
}

/// `MiB` in KiB.
pub const MIB: u64 = 1024;

/// `O_NONBLOCK`, to open a FIFO's end without waiting for the other.
#[cfg(target_os = "linux")]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(all(unix, not(target_os = "linux")))]
const O_NONBLOCK: i32 = 0x0004;

/// Make a FIFO at `path`; false where `mkfifo` is not installed ([`tool`]: a failure under
/// CI).
#[cfg(unix)]
pub fn mkfifo(path: &Path) -> bool {
    let Some(mkfifo) = tool("mkfifo", "no FIFO test ran") else {
        return false;
    };
    let made = std::process::Command::new(mkfifo)
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}: {made}", path.display());
    true
}

/// Run `rollscope ARGS` whose input is the FIFO `fifo`, writing `bytes` into it once
/// rollscope opens it, then closing it. Never waits for a reader that does not come: the
/// write end is opened without blocking, again and again until rollscope has opened the
/// read end or exited.
#[cfg(unix)]
pub fn through_fifo(cmd: &'static str, args: &[&str], fifo: &Path, bytes: &[u8]) -> Ran {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut child = Running::start(rollscope_under(&["env"]).args(args));
    let mut w = loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(O_NONBLOCK)
            .open(fifo)
        {
            Ok(w) => break Some(w),
            // ENXIO: no reader yet.
            Err(_) if !child.exited() => std::thread::sleep(std::time::Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let mut rest = bytes;
    let start = std::time::Instant::now();
    while let (Some(f), false) = (w.as_mut(), rest.is_empty()) {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            break;
        }
        match f.write(rest) {
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(1))
            }
            Err(_) => break,
        }
    }
    drop(w);
    child.finish(cmd, std::time::Duration::from_secs(60))
}

/// A child running with its stdout and stderr read as they come (a full pipe never stops
/// it).
pub struct Running {
    child: std::process::Child,
    out: std::thread::JoinHandle<Vec<u8>>,
    err: std::thread::JoinHandle<Vec<u8>>,
}

impl Running {
    /// Start `c`, its stdin closed.
    pub fn start(c: &mut std::process::Command) -> Running {
        use std::io::Read;
        let mut child = c
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let drain = |mut r: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut v = Vec::new();
                let _ = r.read_to_end(&mut v);
                v
            })
        };
        let out = drain(Box::new(child.stdout.take().unwrap()));
        let err = drain(Box::new(child.stderr.take().unwrap()));
        Running { child, out, err }
    }

    pub fn exited(&mut self) -> bool {
        self.child.try_wait().unwrap().is_some()
    }

    /// Its run, killed (and the test failed) if it runs past `limit`: what a hang looks
    /// like.
    pub fn finish(self, cmd: &'static str, limit: std::time::Duration) -> Ran {
        Ran::of(cmd, self.output(cmd, limit))
    }

    /// [`Running::finish`] for a run that prints a table.
    pub fn finish_table(self, cmd: &'static str, limit: std::time::Duration) -> Ran {
        Ran::of_table(cmd, &self.output(cmd, limit))
    }

    fn output(mut self, cmd: &'static str, limit: std::time::Duration) -> Output {
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("{cmd} still ran after {limit:?}: it hangs");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        Output {
            status,
            stdout: self.out.join().unwrap(),
            stderr: self.err.join().unwrap(),
        }
    }
}
