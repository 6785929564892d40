//! The `state` rules (Codex's state databases beside the rollouts): each case the real
//! Codex was asked about (`testdata/statedb/cases.py`, `../shared/corpus-gen/statedb/drive.py`)
//! rebuilt from the homes Codex 0.153.4 and 0.171 wrote (each database kept as SQL text),
//! the case applied as `drive.py`'s `mutate` applies it, and `lint` asked; what Codex did is
//! in `testdata/statedb/verdicts/<version>.json` and in the expectations beside each case.

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde_json::Value;
use sha2::Digest;

use crate::util::*;

/// The home the databases' paths were written under.
const WRITTEN_AS: &str = "/home/dev/.codex";

/// A Codex home rebuilt from `testdata/statedb/<version>/<dbs>`: its databases (WAL, as
/// Codex keeps them), and the rollout of `<rollout>` (`home1`: after one turn, `home2`:
/// after two).
struct Home {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Home {
    fn new(version: &str, dbs: &str, rollout: &str) -> Home {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".codex");
        let base = testdata(&format!("statedb/{version}"));
        for db in ["state_5", "thread_history_1"] {
            let sql = std::fs::read_to_string(base.join(dbs).join(format!("{db}.sql"))).unwrap();
            std::fs::create_dir_all(&root).unwrap();
            let conn = Connection::open(root.join(format!("{db}.sqlite"))).unwrap();
            conn.execute_batch(&sql).unwrap();
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        }
        let from = base.join(rollout);
        for f in rollouts_under(&from) {
            let to = root.join(f.strip_prefix(&from).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&f, &to).unwrap();
        }
        Home { _dir: dir, root }
    }

    fn rollout(&self) -> PathBuf {
        rollouts_under(&self.root).remove(0)
    }

    fn sql(&self, db: &str, sql: &str) {
        let conn = Connection::open(self.root.join(format!("{db}.sqlite"))).unwrap();
        conn.execute_batch(sql).unwrap();
    }

    fn checkpoint(&self) -> (u64, u64) {
        let conn = Connection::open(self.root.join("thread_history_1.sqlite")).unwrap();
        conn.query_row(
            "SELECT next_rollout_byte_offset, next_rollout_ordinal FROM thread_history_projection_state",
            [],
            |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
        )
        .unwrap()
    }

    fn set_checkpoint(&self, offset: u64) {
        self.sql(
            "thread_history_1",
            &format!(
                "UPDATE thread_history_projection_state SET next_rollout_byte_offset={offset}"
            ),
        );
    }

    /// What `replay --view state` says a resume of the rollout does, read as `version`:
    /// its `outcome` and `client_view`.
    fn view(&self, version: &str) -> (String, String) {
        let out = rollscope()
            .args([
                "replay", "--view", "state", "--format", "json", "--codex", version,
            ])
            .arg(self.rollout())
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let v = v.as_array().map_or(v.clone(), |a| a[0].clone());
        let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
        (s("outcome"), s("client_view"))
    }

    /// `lint` of the home read as `version`, its `state` findings.
    fn lint(&self, version: &str, extra: &[&str]) -> Vec<Value> {
        let mut args = vec![
            "lint",
            "--format",
            "ndjson",
            "--select",
            "state,ordinal",
            "--codex",
            version,
        ];
        args.extend_from_slice(extra);
        let root = self.root.to_str().unwrap().to_string();
        args.push(&root);
        let out = rollscope().args(&args).output().unwrap();
        assert!(out.status.code().unwrap() < 2, "{out:?}");
        ndjson(&out.stdout)
    }
}

/// Each line of a rollout: its start, its length with the newline, its ordinal, its type.
fn lines(path: &Path) -> Vec<(u64, u64, Option<u64>, String)> {
    let data = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    let mut at = 0u64;
    for line in data.split_inclusive(|&b| b == b'\n') {
        let v: Value = serde_json::from_slice(line).unwrap();
        let kind = format!(
            "{}/{}",
            v["type"].as_str().unwrap_or(""),
            v["payload"]["type"].as_str().unwrap_or("")
        );
        out.push((at, line.len() as u64, v["ordinal"].as_u64(), kind));
        at += line.len() as u64;
    }
    out
}

/// The rule and effect of each finding, in order.
fn found(rows: &[Value]) -> Vec<(String, String)> {
    rows.iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_string(),
                r["effect"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn pair(rule: &str, effect: &str) -> (String, String) {
    (rule.to_string(), effect.to_string())
}

#[test]
fn a_healthy_home_of_each_version_has_no_state_finding() {
    for v in ["0.153.4", "0.171.0"] {
        let home = Home::new(v, "home2", "home2");
        assert_eq!(found(&home.lint(v, &[])), vec![], "{v}");
        assert_eq!(
            found(&home.lint(v, &["--codex-home-as", WRITTEN_AS])),
            vec![]
        );
    }
}

#[test]
fn a_checkpoint_behind_at_a_line_boundary_is_information() {
    // drive.py `lag`: the databases after turn 1, the rollout after turn 2. Codex (both
    // versions): `thread/read` shows 1 turn of 2 until `thread/resume`.
    for v in ["0.153.4", "0.171.0"] {
        let home = Home::new(v, "home1", "home2");
        let rows = home.lint(v, &[]);
        assert_eq!(
            found(&rows),
            vec![pair("state.projection-behind", "")],
            "{v}"
        );
        assert_eq!(rows[0]["severity"], "info");
        // A resume projects the rest: every turn shown.
        assert_eq!(home.view(v), view("resumes", "complete"));
    }
}

#[test]
fn a_file_cut_back_below_its_checkpoint_leaves_the_client_stuck() {
    // drive.py `a_trunc_boundary`: the databases after turn 2, the rollout after turn 1.
    // Codex: `durable rollout shrank before projection`; the client keeps showing 2 turns.
    for v in ["0.153.4", "0.171.0"] {
        let home = Home::new(v, "home2", "home1");
        let rows = home.lint(v, &[]);
        assert_eq!(
            found(&rows),
            vec![pair("state.checkpoint-past-end", "client_stuck")],
            "{v}"
        );
        let size = std::fs::metadata(home.rollout()).unwrap().len();
        let msg = rows[0]["message"].as_str().unwrap();
        assert_eq!(home.view(v), view("resumes", "stuck"));
        assert!(
            msg.contains(&format!(
                "byte {}, past the end of the file ({size} bytes)",
                home.checkpoint().0
            )),
            "{msg}"
        );
    }
}

#[test]
fn a_checkpoint_inside_a_line_is_judged_by_the_ordinal_after_it() {
    // drive.py `a_offset_inside`: 137 bytes into the line it expects next; every version
    // recovers (Codex 0.153.4 and 0.171: 2 turns, 15 items after a resume).
    for v in ["0.153.4", "0.171.0"] {
        let home = Home::new(v, "home1", "home2");
        let (offset, _) = home.checkpoint();
        home.set_checkpoint(offset + 137);
        let rows = home.lint(v, &[]);
        assert_eq!(
            found(&rows),
            vec![pair("state.checkpoint-misplaced", "warns")],
            "{v}"
        );
        assert!(rows[0]["message"]
            .as_str()
            .unwrap()
            .contains("137 bytes into"));
        assert_eq!(home.view(v), view("resumes", "complete"));
    }
    // `a_offset_foreign_regress`: inside the line of ordinal 20, expecting 45. Codex 0.153.4:
    // stuck at 1 turn; 0.171: skips, 2 turns.
    // `a_offset_foreign_gap`: inside the 4th line after turn 2's start, expecting 45. Codex
    // 0.153.4: stuck at 1 turn; 0.171: 2 turns, 14 of 15 items.
    // What a client was shown after a resume: 0.153.4 one turn of two (stuck), 0.171 both
    // turns, of 15 items after a regress and 14 after a gap (partial).
    for (v, regress, gap, after_regress, after_gap) in [
        ("0.153.4", "client_stuck", "client_stuck", "stuck", "stuck"),
        ("0.171.0", "warns", "client_partial", "complete", "partial"),
    ] {
        let home = Home::new(v, "home1", "home2");
        let l = lines(&home.rollout());
        let at20 = l.iter().find(|x| x.2 == Some(20)).unwrap();
        home.set_checkpoint(at20.0 + at20.1.min(100) / 2);
        assert_eq!(
            found(&home.lint(v, &[])),
            vec![pair("state.checkpoint-misplaced", regress)],
            "{v} regress"
        );
        assert_eq!(home.view(v), view("resumes", after_regress), "{v} regress");
        let t2 = l
            .iter()
            .rposition(|x| x.3 == "event_msg/task_started")
            .unwrap();
        let target = l[t2 + 4].clone();
        home.set_checkpoint(target.0 + target.1.min(100) / 2);
        let rows = home.lint(v, &[]);
        assert_eq!(
            found(&rows),
            vec![pair("state.checkpoint-misplaced", gap)],
            "{v} gap"
        );
        assert!(rows[0]["message"].as_str().unwrap().contains("above 4"));
        assert_eq!(home.view(v), view("resumes", after_gap), "{v} gap");
    }
}

#[test]
fn a_checkpoint_at_a_duplicate_ordinal_stops_0_153_and_not_0_154() {
    // drive.py `b_dup_ordinal` (openai/codex#41079): a copy of turn 1's last token_count
    // numbered like the thread_settings_applied after task_complete. Codex 0.153.4: stuck
    // (`expected ordinal 45, got 44`); 0.154 and 0.171: skipped with a warning.
    for (v, effect) in [("0.153.4", "client_stuck"), ("0.171.0", "warns")] {
        let home = Home::new(v, "home1", "home2");
        let path = home.rollout();
        let l = lines(&path);
        let data = std::fs::read(&path).unwrap();
        let te = l
            .iter()
            .position(|x| x.3 == "event_msg/task_complete")
            .unwrap();
        let tsa = &l[te + 1];
        assert_eq!(tsa.3, "event_msg/thread_settings_applied");
        let tc = l[..te]
            .iter()
            .rfind(|x| x.3 == "event_msg/token_count")
            .unwrap();
        let mut d: Value =
            serde_json::from_slice(&data[tc.0 as usize..(tc.0 + tc.1) as usize]).unwrap();
        let tsa_v: Value =
            serde_json::from_slice(&data[tsa.0 as usize..(tsa.0 + tsa.1) as usize]).unwrap();
        d["ordinal"] = tsa.2.into();
        d["timestamp"] = tsa_v["timestamp"].clone();
        let cut = tsa.0 as usize;
        let mut out = data[..cut].to_vec();
        out.extend(serde_json::to_vec(&d).unwrap());
        out.push(b'\n');
        out.extend(&data[cut..]);
        std::fs::write(&path, out).unwrap();
        assert_eq!(
            home.checkpoint().0,
            tsa.0,
            "the checkpoint is at the duplicate"
        );
        let rows = home.lint(v, &[]);
        let state: Vec<_> = found(&rows)
            .into_iter()
            .filter(|(r, _)| r.starts_with("state."))
            .collect();
        // The checkpoint is behind, at the first of the two: 0.153 stops at the second.
        assert_eq!(
            state,
            vec![
                pair("state.projection-behind", ""),
                pair("state.checkpoint-at-duplicate", effect)
            ],
            "{v}"
        );
        assert!(found(&rows)
            .iter()
            .any(|(r, _)| r == "ordinal.non-monotonic"));
        // 0.153.4: one turn shown for good; 0.171: both after a resume.
        let client = if v == "0.153.4" { "stuck" } else { "complete" };
        assert_eq!(home.view(v), view("resumes", client), "{v}");
    }
}

#[test]
fn a_row_whose_rollout_moved_or_went_is_refused_and_says_where_the_file_is() {
    // drive.py `c_moved`, `f_archived_dir`, `e_file_gone`: every version refuses (`no
    // rollout found for thread id`).
    for v in ["0.153.4", "0.171.0"] {
        for to in [Some("sessions/2026/11/30"), Some("archived_sessions"), None] {
            let home = Home::new(v, "home2", "home2");
            let from = home.rollout();
            let moved = to.map(|to| {
                let dir = home.root.join(to);
                std::fs::create_dir_all(&dir).unwrap();
                let dest = dir.join(from.file_name().unwrap());
                std::fs::rename(&from, &dest).unwrap();
                dest
            });
            if moved.is_none() {
                std::fs::remove_file(&from).unwrap();
            }
            let out = rollscope()
                .args([
                    "lint", "--format", "ndjson", "--select", "state", "--codex", v,
                ])
                .arg(&home.root)
                .output()
                .unwrap();
            let rows = ndjson(&out.stdout);
            assert_eq!(out.status.code(), Some(1), "{v} {to:?}");
            assert_eq!(found(&rows), vec![pair("state.rollout-missing", "refused")]);
            let msg = rows[0]["message"].as_str().unwrap();
            let said = from.strip_prefix(&home.root).unwrap();
            assert!(msg.contains(&said.display().to_string()), "{msg}");
            // A moved file is told at the file; a row with no file at the database.
            let at = rows[0]["path"].as_str().unwrap();
            match &moved {
                Some(dest) => assert_eq!(at, dest.to_str().unwrap()),
                None => assert!(
                    at.ends_with("state_5.sqlite") && msg.contains("stale"),
                    "{msg}"
                ),
            }
        }
    }
}

#[test]
fn a_missing_projection_and_wrong_turn_bounds_are_information() {
    // drive.py `d_no_history`: `thread/read` shows 0 turns until a resume (0.153.4, 0.171).
    let home = Home::new("0.171.0", "home2", "home2");
    for f in ["thread_history_1.sqlite", "thread_history_1.sqlite-wal"] {
        let _ = std::fs::remove_file(home.root.join(f));
    }
    let rows = home.lint("0.171.0", &[]);
    assert_eq!(found(&rows), vec![pair("state.projection-missing", "")]);
    // `thread/read` shows no turn until a resume rebuilds them all.
    assert_eq!(home.view("0.171.0"), view("resumes", "complete"));
    // cases.py `g_turn_start_inside`, `g_turn_end_ordinal`: no view tried reads them.
    let home = Home::new("0.171.0", "home2", "home2");
    home.sql(
        "thread_history_1",
        "UPDATE thread_turns SET rollout_byte_offset = rollout_byte_offset + 137 \
         WHERE rollout_ordinal = (SELECT max(rollout_ordinal) FROM thread_turns); \
         UPDATE thread_turns SET rollout_end_ordinal = rollout_end_ordinal + 1 \
         WHERE rollout_ordinal = (SELECT min(rollout_ordinal) FROM thread_turns);",
    );
    let rows = home.lint("0.171.0", &[]);
    assert_eq!(
        found(&rows),
        vec![
            pair("state.turn-bounds", "nothing"),
            pair("state.turn-bounds", "nothing")
        ]
    );
    assert_eq!(home.view("0.171.0"), view("resumes", "complete"));
}

#[test]
fn a_home_without_its_state_database_has_no_finding() {
    // drive.py `d_no_state`: Codex rebuilds `state_5.sqlite` by backfill; the resume and the
    // client see every turn (0.153.4, 0.171).
    for v in ["0.153.4", "0.171.0"] {
        let home = Home::new(v, "home2", "home2");
        std::fs::remove_file(home.root.join("state_5.sqlite")).unwrap();
        assert_eq!(found(&home.lint(v, &[])), vec![], "{v}");
        assert_eq!(home.view(v), view("resumes", "complete"));
    }
}

#[test]
fn a_version_before_0_153_is_not_judged() {
    let home = Home::new("0.171.0", "home2", "home1");
    assert_eq!(found(&home.lint("0.147.0", &[])), vec![]);
}

#[test]
fn reading_a_home_changes_no_byte_or_time_of_its_databases() {
    let home = Home::new("0.171.0", "home1", "home2");
    let before = snapshot(&home.root);
    home.lint("0.171.0", &[]);
    assert_eq!(snapshot(&home.root), before);
}

/// Each file under `dir` but a WAL's `-shm` (its read marks are a reader's to write): a
/// digest of its bytes, and its modification time.
fn snapshot(dir: &Path) -> Vec<(PathBuf, String, std::time::SystemTime)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && !e.path().to_string_lossy().ends_with("-shm"))
        .map(|e| {
            let p = e.path().to_path_buf();
            let m = std::fs::metadata(&p).unwrap().modified().unwrap();
            let digest = sha2::Sha256::digest(std::fs::read(&p).unwrap());
            (p.clone(), format!("{digest:x}"), m)
        })
        .collect();
    out.sort();
    out
}

/// Run `lint` over the home while `hold` keeps a connection of this process in a state, and
/// return its `state` findings and how long it took.
fn lint_while(home: &Home, hold: &Connection) -> (Vec<Value>, std::time::Duration) {
    let _ = hold;
    let t = std::time::Instant::now();
    let rows = home.lint("0.171.0", &[]);
    (rows, t.elapsed())
}

#[test]
fn a_writer_holding_a_wal_database_does_not_stop_the_read() {
    let home = Home::new("0.171.0", "home1", "home2");
    let writer = Connection::open(home.root.join("thread_history_1.sqlite")).unwrap();
    writer.execute_batch("SELECT 1").unwrap();
    // Taken before the write: closing any descriptor of the file (reading it) drops this
    // process's POSIX locks on it.
    let before = snapshot(&home.root);
    writer
        .execute_batch(
            "BEGIN IMMEDIATE; UPDATE thread_history_projection_state \
             SET next_rollout_byte_offset = 1;",
        )
        .unwrap();
    let (rows, _) = lint_while(&home, &writer);
    // The reader sees the last commit, not the writer's uncommitted offset.
    assert_eq!(found(&rows), vec![pair("state.projection-behind", "")]);
    writer.execute_batch("ROLLBACK").unwrap();
    assert_eq!(
        snapshot(&home.root),
        before,
        "no byte, time or file changed"
    );
}

#[test]
fn a_rollback_journal_database_under_an_exclusive_lock_is_reported_busy() {
    let home = Home::new("0.171.0", "home2", "home2");
    let path = home.root.join("state_5.sqlite");
    let writer = Connection::open(&path).unwrap();
    let mode: String = writer
        .pragma_update_and_check(None, "journal_mode", "DELETE", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    // Taken before the lock: closing any descriptor of the file (reading it) drops this
    // process's POSIX locks on it.
    let before = snapshot(&home.root);
    writer.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let (rows, took) = lint_while(&home, &writer);
    assert_eq!(
        rows.iter()
            .map(|r| (r["rule"].as_str().unwrap(), r["path"].as_str().unwrap()))
            .collect::<Vec<_>>(),
        vec![("state.unreadable", path.to_str().unwrap())]
    );
    let msg = rows[0]["message"].as_str().unwrap();
    assert!(msg.contains("busy"), "{msg}");
    assert_eq!(rows[0]["severity"], "warning");
    assert!(took >= std::time::Duration::from_secs(2), "waited {took:?}");
    writer.execute_batch("COMMIT").unwrap();
    assert_eq!(
        snapshot(&home.root),
        before,
        "no byte, time or file changed"
    );
}

#[test]
fn the_state_view_takes_the_databases_into_its_outcome() {
    // A moved rollout: refused (drive.py `c_moved`); a file cut back below its checkpoint:
    // the client stuck (`a_trunc_boundary`).
    let home = Home::new("0.171.0", "home2", "home2");
    let from = home.rollout();
    let dir = home.root.join("sessions/2026/11/30");
    std::fs::create_dir_all(&dir).unwrap();
    let dest = dir.join(from.file_name().unwrap());
    std::fs::rename(&from, &dest).unwrap();
    let state = |path: &Path| {
        let out = rollscope()
            .args(["replay", "--view", "state", "--format", "json"])
            .arg(path)
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v.as_array().map_or(v.clone(), |a| a[0].clone())
    };
    assert_eq!(state(&dest)["outcome"], "refused");
    // drive.py `f_archived_dir`: put in archived_sessions/ by hand, refused the same.
    let archived = home.root.join("archived_sessions");
    std::fs::create_dir_all(&archived).unwrap();
    let again = archived.join(dest.file_name().unwrap());
    std::fs::rename(&dest, &again).unwrap();
    assert_eq!(state(&again)["outcome"], "refused");
    let home = Home::new("0.171.0", "home2", "home1");
    let s = state(&home.rollout());
    assert_eq!(
        (s["outcome"].clone(), s["client_view"].clone()),
        ("resumes".into(), "stuck".into())
    );
}

#[test]
fn sarif_names_a_database_row_as_a_logical_location() {
    let home = Home::new("0.171.0", "home2", "home2");
    std::fs::remove_file(home.rollout()).unwrap();
    let out = rollscope()
        .args(["lint", "--format", "sarif", "--select", "state"])
        .arg(&home.root)
        .output()
        .unwrap();
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let loc = &log["runs"][0]["results"][0]["locations"][0];
    assert!(loc["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("state_5.sqlite"));
    assert_eq!(
        loc["logicalLocations"][0]["fullyQualifiedName"],
        "threads[01a23a09-771b-7211-b366-5b4d0b149589]"
    );
}

/// Every rule of the `state` group fires in a test of this file (they have no folder in
/// `testdata/lint/`): each slug is asserted here at least once.
#[test]
fn every_state_rule_is_held_to_a_case_here() {
    let listed: Vec<String> = rows(&["lint", "--list-rules", "--format", "ndjson"], 0)
        .iter()
        .map(|r| r["slug"].as_str().unwrap().to_string())
        .filter(|s| s.starts_with("state."))
        .collect();
    let source = std::fs::read_to_string(root().join("tests/cli/state.rs")).unwrap();
    for slug in &listed {
        let asserted = format!("pair(\"{slug}\"");
        let by_rule = format!("(\"{slug}\", ");
        assert!(
            source.contains(&asserted) || source.contains(&by_rule),
            "{slug}: no case asserts it"
        );
    }
    assert_eq!(listed.len(), 8);
}

#[test]
fn repair_holds_back_an_edit_of_bytes_codex_has_projected() {
    // A blank line inside the first turn, the databases as Codex left them after reading
    // the file (its checkpoint at the end): deleting the line would leave the checkpoint
    // past the end (drive.py `a_trunc_*`: a client stuck).
    let home = Home::new("0.171.0", "home2", "home2");
    let path = home.rollout();
    let data = std::fs::read(&path).unwrap();
    let l = lines(&path);
    let cut = l[5].0 as usize;
    let mut edited = data[..cut].to_vec();
    edited.push(b'\n');
    edited.extend(&data[cut..]);
    std::fs::write(&path, &edited).unwrap();
    home.set_checkpoint(edited.len() as u64);
    let report = |extra: &[&str]| {
        let out = rollscope()
            .args(["repair", "--format", "ndjson"])
            .args(extra)
            .arg(&path)
            .output()
            .unwrap();
        (out.status.code(), ndjson(&out.stdout))
    };
    let (code, rows) = report(&[]);
    assert_eq!(code, Some(1));
    let blank: Vec<&Value> = rows.iter().filter(|r| r["rule"] == "line.blank").collect();
    assert_eq!(blank.len(), 1, "{rows:?}");
    assert_eq!(blank[0]["applicability"], "unsafe");
    assert_eq!(blank[0]["applied"], false);
    let why = blank[0]["reason"].as_str().unwrap();
    assert!(
        why.contains("checkpoint") && why.contains("thread_history_1.sqlite"),
        "{why}"
    );
    // With --unsafe-fixes it is applied, and the row says what to do next.
    let out = tempfile::tempdir().unwrap();
    let copy = out.path().join("fixed.jsonl");
    let (code, rows) = report(&["--unsafe-fixes", "-o", copy.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{rows:?}");
    let blank: Vec<&Value> = rows.iter().filter(|r| r["rule"] == "line.blank").collect();
    assert_eq!(
        (
            blank[0]["applied"].clone(),
            blank[0]["applicability"].clone()
        ),
        (true.into(), "unsafe".into())
    );
    assert!(blank[0]["action"]
        .as_str()
        .unwrap()
        .contains("move thread_history_1.sqlite"));
    assert_eq!(std::fs::read(&copy).unwrap(), data);
    // A file Codex has not projected that far (the checkpoint before the line, no turn
    // stored) repairs safely.
    home.set_checkpoint(l[2].0);
    home.sql("thread_history_1", "DELETE FROM thread_turns");
    let (_, rows) = report(&[]);
    let blank: Vec<&Value> = rows.iter().filter(|r| r["rule"] == "line.blank").collect();
    assert_eq!(blank[0]["applicability"], "safe", "{rows:?}");
}

#[test]
fn a_database_that_is_not_one_or_has_another_schema_is_reported_never_guessed() {
    // Not a database: the history database overwritten with text.
    let home = Home::new("0.171.0", "home2", "home2");
    std::fs::write(
        home.root.join("thread_history_1.sqlite"),
        "not a database\n",
    )
    .unwrap();
    let rows = home.lint("0.171.0", &[]);
    assert_eq!(found(&rows), vec![pair("state.unreadable", "")]);
    let msg = rows[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("thread_history_1.sqlite could not be read (not a database"),
        "{msg}"
    );
    // Another schema: the column the rows' paths are in, renamed.
    let home = Home::new("0.171.0", "home2", "home2");
    home.sql(
        "state_5",
        "ALTER TABLE threads RENAME COLUMN rollout_path TO path",
    );
    let rows = home.lint("0.171.0", &[]);
    assert_eq!(found(&rows), vec![pair("state.unreadable", "")]);
    let msg = rows[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("an unknown schema: no column threads.rollout_path"),
        "{msg}"
    );
}

#[test]
fn check_ordinal_says_what_the_projection_makes_of_the_ordinals() {
    // drive.py `b_dup_ordinal`, as 0.153.4 leaves it: the checkpoint before a duplicate.
    let home = Home::new("0.153.4", "home1", "home2");
    let path = home.rollout();
    let l = lines(&path);
    let data = std::fs::read(&path).unwrap();
    let te = l
        .iter()
        .position(|x| x.3 == "event_msg/task_complete")
        .unwrap();
    let tsa = &l[te + 1];
    let tc = l[..te]
        .iter()
        .rfind(|x| x.3 == "event_msg/token_count")
        .unwrap();
    let mut d: Value =
        serde_json::from_slice(&data[tc.0 as usize..(tc.0 + tc.1) as usize]).unwrap();
    d["ordinal"] = tsa.2.into();
    let cut = tsa.0 as usize;
    let mut out = data[..cut].to_vec();
    out.extend(serde_json::to_vec(&d).unwrap());
    out.push(b'\n');
    out.extend(&data[cut..]);
    std::fs::write(&path, out).unwrap();
    let out = rollscope()
        .args(["check-ordinal", "--format", "ndjson", "--codex", "0.153.4"])
        .arg(&path)
        .output()
        .unwrap();
    let rows = ndjson(&out.stdout);
    let kinds: Vec<&str> = rows[0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"projection"), "{rows:?}");
    let projection = rows[0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "projection" && p["message"].as_str().unwrap().contains("repeats"))
        .unwrap();
    assert_eq!(projection["severity"], "warning");
}

/// A state view's `outcome` and `client_view`.
fn view(outcome: &str, client: &str) -> (String, String) {
    (outcome.to_string(), client.to_string())
}
