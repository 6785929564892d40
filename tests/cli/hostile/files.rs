//! Hostile files and trees: a directory under a rollout's name, FIFOs, a file nobody may
//! read, symlink loops, a file cut while it is read, and proof that no input is written.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::*;

/// Run `rollscope ARGS`, killed (and the test failed) past `limit`.
fn within_time(cmd: &'static str, args: &[&str], limit: Duration) -> Ran {
    Running::start(rollscope_under(&["env"]).args(args)).finish(cmd, limit)
}

/// Every reader over `paths`, each killed if it runs past 60 s.
fn every_within(paths: &[&Path]) -> Vec<Ran> {
    READERS
        .iter()
        .map(|&cmd| {
            let mut args = args_of(cmd);
            args.extend(paths.iter().map(|p| p.to_str().unwrap()));
            within_time(cmd, &args, Duration::from_secs(60))
        })
        .collect()
}

/// The rows of `runs` that are about `path`, without their places, beside those of the
/// template's own run: the same, reader by reader.
#[track_caller]
fn as_template(base: &[Ran], runs: &[Ran], path: &Path) {
    for r in runs {
        let mine: Vec<Value> = r
            .rows
            .iter()
            .filter(|row| row["path"] == path.to_str().unwrap())
            .map(placeless)
            .collect();
        let want: Vec<Value> = of(base, r.cmd).rows.iter().map(placeless).collect();
        assert_eq!(mine, want, "{}", r.cmd);
    }
}

fn copy_to(src: &Path, dst: &Path) -> PathBuf {
    std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
    std::fs::copy(src, dst).unwrap();
    dst.to_path_buf()
}

/// A directory is walked, whatever its name: one named `x.jsonl` given as a path is a
/// directory of no rollout (every reader says so on stderr, exit 2, as for any path that
/// holds none; exit 0 with `--allow-empty`), and one holding a rollout has it read. In a
/// walk, a directory named `rollout-x.jsonl` is never opened as a file.
#[test]
fn a_directory_named_like_a_rollout_is_walked_never_read_as_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let base = template_runs();
    let empty = dir.path().join("x.jsonl");
    std::fs::create_dir(&empty).unwrap();
    for r in every(&[], &[&empty], &[]) {
        let searched = if r.cmd == "lint" {
            "rollout-*.jsonl[.zst] and session folders' *.jsonl[.zst]"
        } else {
            "rollout-*.jsonl[.zst]"
        };
        let said = format!(
            "rollscope: {}: no rollout found: searched below it for {searched} \
             (--allow-empty: exit 0)",
            empty.display()
        );
        r.said(2, &[said]);
        assert!(r.rows.is_empty(), "{}", r.cmd);
    }
    for r in every(&["--allow-empty"], &[&empty], &[]) {
        r.said(0, &["rollscope: no rollout files found".into()]);
        assert!(r.rows.is_empty(), "{}", r.cmd);
    }
    let full = dir.path().join("y.jsonl");
    let inside = copy_to(&template(), &full.join(template().file_name().unwrap()));
    let runs = every(&[], &[&full], &[]);
    for r in &runs {
        r.said(0, &of(&base, r.cmd).notes());
    }
    as_template(&base, &runs, &inside);
    // In a Codex home: a directory under a rollout's name beside the real one.
    let day = dir.path().join("home/sessions/2026/11/29");
    let real = copy_to(&template(), &day.join(template().file_name().unwrap()));
    std::fs::create_dir_all(
        day.join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-000000000009.jsonl"),
    )
    .unwrap();
    let runs = every(&[], &[&dir.path().join("home")], &[]);
    for r in &runs {
        r.said(0, &of(&base, r.cmd).notes());
    }
    as_template(&base, &runs, &real);
}

/// A FIFO given as a path is read as a stream, by every reader, as the file it carries
/// (and `replay --through-turn`, which reads a file twice, reads it once); one met in a
/// walk is skipped, never opened (opening it would wait for a writer for ever).
#[cfg(unix)]
#[test]
fn a_fifo_given_as_a_path_is_read_and_one_in_a_walk_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join(template().file_name().unwrap());
    if !mkfifo(&fifo) {
        return;
    }
    let bytes = std::fs::read(template()).unwrap();
    let base = template_runs();
    let mut runs = Vec::new();
    for cmd in READERS {
        let mut args = args_of(cmd);
        args.push(fifo.to_str().unwrap());
        let r = through_fifo(cmd, &args, &fifo, &bytes);
        r.said(0, &of(&base, cmd).notes());
        runs.push(r);
    }
    as_template(&base, &runs, &fifo);
    // With a cut, replay reads the turns first, then the file: a FIFO is read once, into
    // memory (it hung, waiting for a second writer), as is a pipe (it read nothing the
    // second time).
    let cut = ["replay", "--format", "ndjson", "--through-turn", "1"];
    let want = rows(&[&cut[..], &[template().to_str().unwrap()]].concat(), 0);
    let r = through_fifo(
        "replay",
        &[&cut[..], &[fifo.to_str().unwrap()]].concat(),
        &fifo,
        &bytes,
    );
    r.said(0, &[]);
    assert_eq!(
        r.rows.iter().map(placeless).collect::<Vec<_>>(),
        want.iter().map(placeless).collect::<Vec<_>>()
    );
    let piped = rollscope_under(&["bash", "-c", r#""$0" "$@" <(cat "$T")"#])
        .args(cut)
        .env("T", template())
        .output()
        .unwrap();
    let piped = Ran::of("replay", piped);
    piped.said(0, &[]);
    assert_eq!(piped.rows.len(), want.len());
    // In a walk: a FIFO under a rollout's name beside a real rollout.
    let day = dir.path().join("home/sessions/2026/11/29");
    let real = copy_to(&template(), &day.join(template().file_name().unwrap()));
    let walked_fifo =
        day.join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-000000000009.jsonl");
    assert!(mkfifo(&walked_fifo));
    let runs = every_within(&[&dir.path().join("home")]);
    for r in &runs {
        r.said(0, &of(&base, r.cmd).notes());
    }
    as_template(&base, &runs, &real);
}

/// Is this process root (who reads any file whatever its mode)?
#[cfg(unix)]
fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A file nobody may read (mode 000), given as a path and met in a walk, and a directory
/// nobody may enter in a walk: each is one line on stderr (its path, "Permission denied"),
/// the other files are read, exit 2. As root (who reads anything) the readers run as
/// `nobody`, through `setpriv`.
#[cfg(unix)]
#[test]
fn a_file_without_read_permission_is_reported_and_the_others_are_read() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode =
        |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    // `nobody` must reach the files: the temporary directory is 0700.
    mode(dir.path(), 0o755);
    let day = dir.path().join("sessions/2026/11/29");
    let good = copy_to(&template(), &day.join(template().file_name().unwrap()));
    let secret = copy_to(
        &template(),
        &day.join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-000000000009.jsonl"),
    );
    let closed = day.join("closed");
    copy_to(&template(), &closed.join(template().file_name().unwrap()));
    for d in [
        dir.path().join("sessions"),
        dir.path().join("sessions/2026"),
        dir.path().join("sessions/2026/11"),
        day.clone(),
    ] {
        mode(&d, 0o755);
    }
    mode(&good, 0o644);
    mode(&secret, 0o000);
    mode(&closed, 0o000);
    let wrapper: Vec<&str> = if is_root() {
        let setpriv = [
            "/usr/bin/setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ];
        let works = std::process::Command::new(setpriv[0])
            .args(&setpriv[1..])
            .arg(env!("CARGO_BIN_EXE_rollscope"))
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !works {
            eprintln!(
                "SKIPPED: running as root and `setpriv --reuid=65534` cannot run rollscope \
                 here, so no file is unreadable to it; the permission test did not run"
            );
            return;
        }
        setpriv.to_vec()
    } else {
        vec!["env"]
    };
    let base = template_runs();
    let run = |cmd: &'static str, paths: &[&Path]| {
        let mut c = rollscope_under(&wrapper);
        c.args(args_of(cmd)).args(paths);
        Running::start(&mut c).finish(cmd, Duration::from_secs(60))
    };
    for cmd in READERS {
        // Given as a path.
        let r = run(cmd, &[&secret, &good]);
        let mut said = vec![read_error(&secret, "Permission denied")];
        said.extend(of(&base, cmd).notes());
        r.said(2, &said);
        as_template(&base, std::slice::from_ref(&r), &good);
        // In a walk: the file, and the directory.
        let r = run(cmd, &[&dir.path().join("sessions")]);
        let mut said = vec![
            read_error(&closed, "Permission denied"),
            read_error(&secret, "Permission denied"),
        ];
        said.extend(of(&base, cmd).notes());
        r.said(2, &said);
        as_template(&base, std::slice::from_ref(&r), &good);
    }
    mode(&closed, 0o755);
}

/// Symlink loops: two rollout names pointing at each other, one pointing at itself, and a
/// link to an ancestor directory. In a walk none is followed: the real rollout beside them
/// is read, nothing is said, nothing hangs. Given as a path, a loop is one line on stderr
/// (its path and the system's cause), the other files are read, exit 2.
#[cfg(unix)]
#[test]
fn a_symlink_loop_is_not_followed_in_a_walk_and_reported_as_a_path() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join("home/sessions/2026/11/29");
    let real = copy_to(&template(), &day.join(template().file_name().unwrap()));
    let a = day.join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-00000000000a.jsonl");
    let b = day.join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-00000000000b.jsonl");
    let me = day.join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-00000000000c.jsonl");
    symlink(&b, &a).unwrap();
    symlink(&a, &b).unwrap();
    symlink(&me, &me).unwrap();
    symlink("../..", day.join("up")).unwrap();
    symlink("../..", day.join("rollout-up.jsonl")).unwrap();
    let base = template_runs();
    let runs = every_within(&[&dir.path().join("home")]);
    for r in &runs {
        r.said(0, &of(&base, r.cmd).notes());
    }
    as_template(&base, &runs, &real);
    let runs = every_within(&[&a, &real]);
    for r in &runs {
        let mut said = vec![read_error(&a, "Too many levels of symbolic links")];
        said.extend(of(&base, r.cmd).notes());
        r.said(2, &said);
    }
    as_template(&base, &runs, &real);
}

/// A file cut short and written again, over and over, while every reader reads it (and
/// `calls` and `replay` read texts back from it by offset): whatever a reader met, it
/// says it in a line and exits 0, 1 or 2; it never panics. (That reading a text back
/// from a file that shrank is an error, not a panic, is pinned without a race by
/// `input::reread`'s `a_file_cut_since_its_pass_is_an_error_when_read_back`.)
#[test]
fn a_file_truncated_while_read_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_to(
        &template(),
        &dir.path().join(template().file_name().unwrap()),
    );
    let full = std::fs::read(&path).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cutter = {
        let (path, stop, full) = (path.clone(), stop.clone(), full.clone());
        std::thread::spawn(move || {
            let mut cut = full.len() / 3;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
                f.set_len(cut as u64).unwrap();
                std::thread::sleep(Duration::from_micros(700));
                std::fs::write(&path, &full).unwrap();
                std::thread::sleep(Duration::from_micros(900));
                cut = (cut * 7 + 1009) % full.len();
            }
        })
    };
    let (mut runs, mut said) = (0, 0);
    let prefix = format!("{}:", path.display());
    let error = format!("rollscope: {}: ", path.display());
    for round in 0..3 {
        for cmd in READERS {
            let limit = Duration::from_secs(60);
            let r = if cmd == "replay" && round == 1 {
                // The table reads each item's timestamp back too.
                let mut c = rollscope_under(&["env"]);
                c.arg("replay").arg(&path);
                Running::start(&mut c).finish_table(cmd, limit)
            } else {
                let mut args = args_of(cmd);
                args.push(path.to_str().unwrap());
                within_time(cmd, &args, limit)
            };
            runs += 1;
            assert!(
                matches!(r.code, Some(0..=2)),
                "{cmd}: {:?}\n{}",
                r.code,
                r.stderr
            );
            for l in r.stderr.lines() {
                said += 1;
                assert!(
                    l.starts_with(&prefix)
                        || l.starts_with(&error)
                        || l.starts_with("rollscope: no "),
                    "{cmd}: {l}"
                );
            }
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    cutter.join().unwrap();
    eprintln!("{runs} runs on a file cut while read: {said} lines said");
}

/// Every file under `dir` (directories included), with its content and modification time.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Option<Vec<u8>>, std::time::SystemTime)> {
    let mut v: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            let content = meta.is_file().then(|| std::fs::read(e.path()).unwrap());
            (e.path().to_path_buf(), content, meta.modified().unwrap())
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// rollscope never writes to its inputs: every reader, and every view and cut of
/// `replay`, run over a copy of `testdata/` (as paths, and as the Codex home of a fork)
/// leaves every file's content and modification time, and every directory's, as they were.
#[test]
fn no_subcommand_writes_to_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("testdata");
    for e in walkdir::WalkDir::new(testdata("")) {
        let e = e.unwrap();
        let to = copy.join(e.path().strip_prefix(testdata("")).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else if e.file_type().is_file() {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
    // Modification times a second in the past: a write now would show.
    let past = std::time::SystemTime::now() - Duration::from_secs(3600);
    for e in walkdir::WalkDir::new(&copy).contents_first(true) {
        let e = e.unwrap();
        let f = std::fs::File::open(e.path()).unwrap();
        f.set_modified(past).unwrap();
    }
    let before = snapshot(&copy);
    let home = copy.join("real/0.171.0/fork");
    let c = copy.to_str().unwrap();
    let mut runs: Vec<Vec<&str>> = READERS
        .iter()
        .map(|&cmd| {
            let mut a = args_of(cmd);
            a.push(c);
            a
        })
        .collect();
    // The views and the tables (which read texts and times back), over the real rollouts.
    let real = copy.join("real");
    let r = real.to_str().unwrap();
    runs.extend([
        vec!["replay", "--view", "state", r],
        vec!["replay", "--view", "ui", "--format", "ndjson", r],
        vec!["replay", "--for-prompt", "--format", "ndjson", r],
        vec!["lint", "--no-config", "--format", "sarif", r],
        vec!["replay", r],
        vec!["turns", r],
        vec!["calls", r],
        vec!["lint", "--no-config", r],
    ]);
    for args in &runs {
        let out = rollscope().args(args).output().unwrap();
        assert!(matches!(out.status.code(), Some(0..=2)), "{args:?}");
    }
    for cmd in READERS {
        let out = rollscope()
            .args(args_of(cmd))
            .env("CODEX_HOME", &home)
            .output()
            .unwrap();
        assert!(matches!(out.status.code(), Some(0..=2)), "{cmd}");
    }
    let fork = rollouts_under(&home);
    let out = rollscope()
        .args(["replay", "--through-turn", "1", "--format", "ndjson"])
        .arg(&fork[1])
        .env("CODEX_HOME", &home)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let after = snapshot(&copy);
    assert_eq!(before.len(), after.len(), "files appeared or went");
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b.0, a.0);
        assert!(b.1 == a.1, "{} was written", b.0.display());
        assert_eq!(b.2, a.2, "{}: its modification time moved", b.0.display());
    }
}
