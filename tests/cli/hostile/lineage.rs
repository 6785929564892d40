//! Hostile lineages: `history_base` chains that loop, that go 10 000 forks deep, and ids
//! that are paths.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::*;

/// A thread id of the chain.
fn uid(i: usize) -> String {
    format!("01a2272d-0000-7000-8000-{i:012}")
}

fn rollout_name(id: &str) -> String {
    format!("rollout-2026-11-29T12-00-00-{id}.jsonl")
}

/// A paginated rollout as a fork's child is written: its `session_meta` at ordinal `first`
/// naming its base (`thread_id`, `end_ordinal_exclusive`, `end_byte_offset`), then one user
/// message, `text`.
fn paginated(id: &str, first: usize, base: Option<(&str, usize, usize)>, text: &str) -> Vec<u8> {
    let base = base.map_or(String::new(), |(src, end, off)| {
        let src = serde_json::to_string(src).unwrap();
        format!(
            r#","history_base":{{"thread_id":{src},"end_ordinal_exclusive":{end},"end_byte_offset":{off}}}"#
        )
    });
    format!(
        concat!(
            r#"{{"timestamp":"2026-11-29T12:00:00.000Z","ordinal":{first},"type":"session_meta","payload":{{"id":"{id}","timestamp":"2026-11-29T12:00:00.000Z","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0","model_provider":"mock","history_mode":"paginated"{base}}}}}"#,
            "\n",
            r#"{{"timestamp":"2026-11-29T12:00:01.000Z","ordinal":{second},"type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}}}"#,
            "\n"
        ),
        first = first,
        id = id,
        base = base,
        second = first + 1,
        text = text,
    )
    .into_bytes()
}

/// `(rule, severity, line, message)` of each of a `lint` run's findings.
fn findings(r: &Ran) -> Vec<Value> {
    r.rows
        .iter()
        .map(|f| json!([f["rule"], f["severity"], f["line"], f["message"]]))
        .collect()
}

/// What a hand-made two-line rollout always gets from `lint` (information only): no token
/// usage, no preview in the resume picker, and its one user turn has no settings.
fn infos() -> Vec<Value> {
    vec![
        json!(["tokens.none", "info", null, "no token_count with usage in the file: on resume Codex's usage starts at zero"]),
        json!(["listing.no-preview", "info", null, "no user message or thread goal in the first 2 records: Codex's resume picker hides this thread (resume it by id)"]),
    ]
}

fn no_context() -> Value {
    json!(["turn.no-context", "info", 2, "user turn 1 has no turn_context: on resume Codex has no previous turn settings and injects the whole context again"])
}

/// `replay --view state`'s row for `path`.
fn state(path: &Path, env: &[(&str, &Path)], jobs: &[&str]) -> Vec<Value> {
    let mut c = rollscope();
    c.args(["replay", "--view", "state", "--format", "ndjson"])
        .args(jobs)
        .arg(path);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ndjson(&out.stdout)
}

/// A and B each name the other as their `history_base`: `replay` reads B for A, meets A
/// again and refuses it (a `history_base.resolve` error, exit 0: replay is no gate);
/// `lint` exits 1 on it. A's cutoff can be right for no B (B's ordinals start where A's
/// do). `check-ordinal` follows the lineage with the same reader (issue #25): it says both,
/// as `lint` does, and exits 1.
#[test]
fn a_history_base_cycle_is_refused_with_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let day = dir.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&day).unwrap();
    let (a, b) = (uid(0xa), uid(0xb));
    let pa = day.join(rollout_name(&a));
    let pb = day.join(rollout_name(&b));
    let fa = paginated(&a, 2, Some((&b, 2, 0)), "a1");
    std::fs::write(&pa, &fa).unwrap();
    std::fs::write(&pb, paginated(&b, 2, Some((&a, 2, 0)), "b1")).unwrap();
    let runs = every(&[], &[&pa], &[]);
    let outside = format!(
        "history_base.end_ordinal_exclusive 2 is outside source rollout {}: it holds no ordinal 1 (its highest is 3)",
        pb.display()
    );
    let cycle = format!(
        "the lineage (history_base) leads back to {}, already read: a cycle, so Codex cannot rebuild the inherited history",
        pa.display()
    );
    of(&runs, "stats").said(0, &[]);
    of(&runs, "turns").said(0, &[]);
    of(&runs, "calls").said(0, &["rollscope: no tool calls in 1 file".into()]);
    let co = of(&runs, "check-ordinal").said(1, &[]);
    let problems = co.rows[0]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert_fields(
        &problems[0],
        json!({"kind": "base", "severity": "error", "line": 0, "message": cycle}),
    );
    assert_fields(
        &problems[1],
        json!({"kind": "base", "severity": "error", "line": 1, "expected": 1, "found": 3, "message": outside}),
    );
    // The history is A's own: B, refused, adds nothing.
    let replay = of(&runs, "replay").said(0, &[]);
    assert_eq!(replay.rows.len(), 1);
    assert_eq!(replay.rows[0]["item"]["content"][0]["text"], "a1");
    let st = &state(&pa, &[], &[])[0];
    assert_eq!(st["files"].as_array().unwrap().len(), 2, "{st:#}");
    let lint = of(&runs, "lint").said(1, &[]);
    let mut want = vec![json!(["history_base.resolve", "error", null, cycle])];
    want.extend(infos());
    want.push(json!(["history_base.resolve", "error", 1, outside]));
    want.push(no_context());
    assert_eq!(findings(lint), want);
}

/// 10 000 forks, each the `history_base` of the next, in one Codex home: the last one's
/// lineage is followed to its root, as the real Codex follows one (no limit of rollscope's
/// own): the history holds every fork's message, source first. Every cutoff is right, and
/// the one problem each lineage reader finds is Codex's: it refuses to resume a file that
/// reads more than 987 rollouts before it (`testdata/replay/deep-chain/README.md`). No
/// recursion a level: the follow runs on a worker thread's small stack too.
#[test]
fn a_history_base_chain_10_000_deep_is_followed_to_its_root() {
    const FORKS: usize = 10_000;
    let home = tempfile::tempdir().unwrap();
    let day = home.path().join("sessions/2026/11/29");
    std::fs::create_dir_all(&day).unwrap();
    let mut prev: Option<(String, usize)> = None;
    let mut paths: Vec<PathBuf> = Vec::new();
    for i in 0..FORKS {
        let id = uid(i);
        let base = prev.as_ref().map(|(p, len)| (p.as_str(), 2 * i, *len));
        let bytes = paginated(&id, 2 * i, base, &format!("m{i}"));
        let path = day.join(rollout_name(&id));
        std::fs::write(&path, &bytes).unwrap();
        prev = Some((id, bytes.len()));
        paths.push(path);
    }
    let leaf = paths.last().unwrap();
    let env = [("CODEX_HOME", home.path())];
    let runs = every(&[], &[leaf], &env);
    of(&runs, "stats").said(0, &[]);
    of(&runs, "turns").said(0, &[]);
    of(&runs, "calls").said(0, &["rollscope: no tool calls in 1 file".into()]);
    let too_many = format!(
        "the lineage (history_base) reads {} rollouts before this one: Codex refuses to \
         resume past 987 (it cannot list the history of more: \"Expression tree is too \
         large\")",
        FORKS - 1
    );
    let co = of(&runs, "check-ordinal").said(1, &[]);
    assert_fields(
        &co.rows[0],
        json!({"ok": false, "first": 2 * (FORKS - 1), "next_on_resume": 2 * FORKS}),
    );
    let problems = co.rows[0]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_fields(
        &problems[0],
        json!({"kind": "base", "severity": "error", "line": 1, "message": too_many}),
    );
    // Every fork's message, the root's first.
    let replay = of(&runs, "replay").said(0, &[]);
    let texts: Vec<&str> = replay
        .rows
        .iter()
        .map(|r| r["item"]["content"][0]["text"].as_str().unwrap())
        .collect();
    let want: Vec<String> = (0..FORKS).map(|i| format!("m{i}")).collect();
    assert_eq!(texts, want);
    let lint = of(&runs, "lint").said(1, &[]);
    let mut want = infos();
    want.push(json!(["history_base.resolve", "error", 1, too_many]));
    want.push(no_context());
    assert_eq!(findings(lint), want);
    // Four leaves on two workers: the deep follow runs on a spawned thread's stack too.
    let leaves: Vec<&Path> = paths[FORKS - 4..].iter().map(PathBuf::as_path).collect();
    let mut c = rollscope();
    c.args(["replay", "--view", "state", "--format", "ndjson", "-j", "2"])
        .args(&leaves)
        .env("CODEX_HOME", home.path());
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (k, st) in ndjson(&out.stdout).iter().enumerate() {
        assert_eq!(
            st["files"].as_array().unwrap().len(),
            FORKS - 3 + k,
            "{}",
            st["path"]
        );
        assert_eq!(st["outcome"], "refused", "{}", st["path"]);
    }
}

/// `history_base.thread_id` names a rollout by its id, never by a path: an id that is a
/// relative path climbing out of the Codex home, or an absolute path, is a source not
/// found (a `history_base.resolve` finding naming the id and where rollscope looked), and
/// nothing is read there. Proof: a valid source is planted where each path leads (from the
/// child's folder, from the working directory, the absolute path) and none is read; with
/// strace, no system call names any of them.
#[test]
fn a_history_base_thread_id_that_is_a_path_is_a_finding_never_a_read() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let day = home.join("sessions/2026/11/29");
    let cwd = tmp.path().join("a/b/c/d");
    std::fs::create_dir_all(&day).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    // The source a right cutoff (ordinal 2, its whole length) would be read from.
    let source = paginated(&uid(0x50), 0, None, "planted");
    let relative = "../../../../planted.jsonl";
    for p in [day.join(relative), cwd.join(relative)] {
        std::fs::write(p, &source).unwrap();
    }
    let absolute = tmp.path().join("abs-planted.jsonl");
    std::fs::write(&absolute, &source).unwrap();
    let absolute = absolute.to_str().unwrap().to_string();
    let mut children = Vec::new();
    for (n, id) in [(0xc1, relative), (0xc2, absolute.as_str())] {
        let path = day.join(rollout_name(&uid(n)));
        std::fs::write(
            &path,
            paginated(&uid(n), 2, Some((id, 2, source.len())), "own"),
        )
        .unwrap();
        children.push((path, id));
    }
    let paths: Vec<&Path> = children.iter().map(|(p, _)| p.as_path()).collect();
    // A Codex home was searched: Codex refuses the resume, for every reader (issue #25).
    let not_found = |id: &str| {
        format!(
            "source rollout {id} (history_base.thread_id) not found in the given inputs, {}, {}: Codex cannot rebuild the inherited history and refuses the resume",
            day.display(),
            home.join("sessions").display()
        )
    };
    let run = |cmd: &'static str, wrapper: &[&str]| {
        let mut c = rollscope_under(wrapper);
        c.args(args_of(cmd))
            .args(&paths)
            .env("CODEX_HOME", &home)
            .current_dir(&cwd);
        Running::start(&mut c).finish(cmd, std::time::Duration::from_secs(60))
    };
    for cmd in READERS {
        let r = run(cmd, &["env"]);
        for row in &r.rows {
            assert!(
                !row["path"].as_str().unwrap().contains("planted"),
                "{cmd}: {row}"
            );
        }
        match cmd {
            "calls" => r.said(0, &["rollscope: no tool calls in 2 files".into()]),
            "check-ordinal" => {
                r.said(1, &[]);
                for (row, (_, id)) in r.rows.iter().zip(&children) {
                    let p = &row["problems"];
                    assert_eq!(p.as_array().unwrap().len(), 1, "{p}");
                    assert_fields(
                        &p[0],
                        json!({"kind": "base", "severity": "error", "line": 1, "message": not_found(id)}),
                    );
                }
                &r
            }
            "replay" => {
                r.said(0, &[]);
                let texts: Vec<&Value> = r
                    .rows
                    .iter()
                    .map(|i| &i["item"]["content"][0]["text"])
                    .collect();
                assert_eq!(texts, [&json!("own"), &json!("own")]);
                &r
            }
            "lint" => {
                r.said(1, &[]);
                for (path, id) in &children {
                    let mine: Vec<Value> = r
                        .rows
                        .iter()
                        .filter(|f| {
                            f["path"] == path.to_str().unwrap()
                                && f["rule"] == "history_base.resolve"
                        })
                        .map(|f| json!([f["severity"], f["line"], f["message"]]))
                        .collect();
                    assert_eq!(mine, [json!(["error", 1, not_found(id)])]);
                }
                &r
            }
            _ => r.said(0, &[]),
        };
    }
    let Some(strace) = tool("strace", "the system calls were not traced") else {
        return;
    };
    let strace = strace.to_str().unwrap();
    for cmd in READERS {
        let log = tmp.path().join(format!("{cmd}.strace"));
        let log_s = log.to_str().unwrap().to_string();
        let r = run(
            cmd,
            &[strace, "-f", "-qq", "-e", "trace=%file", "-o", &log_s],
        );
        assert!(matches!(r.code, Some(0 | 1)), "{cmd}: {}", r.stderr);
        let trace = std::fs::read_to_string(&log).unwrap();
        assert!(
            trace.contains("rollout-2026-11-29T12-00-00-"),
            "{cmd}: nothing traced"
        );
        let touched: Vec<&str> = trace.lines().filter(|l| l.contains("planted")).collect();
        assert!(
            touched.is_empty(),
            "{cmd} looked at a planted file: {touched:#?}"
        );
    }
}
