//! `rollscope repair` (issue #28): every broken fixture with a fixable finding repaired into
//! a copy that lints without the cured findings and with no new ones; a clean real file a
//! no-op; no input touched without `--in-place`; `--in-place` refusing a file that grew
//! before the rename; a fork's part of its source left alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::*;

/// Every file under `dir` (not the folders), sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().to_path_buf())
        .collect();
    out.sort();
    out
}

/// `dir`'s files copied under `into`, at the same relative paths.
fn copy_tree(dir: &Path, into: &Path) {
    for f in files_under(dir) {
        let to = into.join(f.strip_prefix(dir).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&f, &to).unwrap();
    }
}

/// Each file's findings under `dir`, by rule: `lint --format ndjson` over its files (each
/// given, whatever its name).
fn findings_by_file(dir: &Path) -> BTreeMap<String, BTreeMap<String, usize>> {
    let out = rollscope()
        .args(["lint", "--format", "ndjson", "-q"])
        .args(files_under(dir))
        .output()
        .unwrap();
    let mut by: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for row in ndjson(&out.stdout) {
        let path = PathBuf::from(row["path"].as_str().unwrap());
        let rel = path.strip_prefix(dir).unwrap().display().to_string();
        *by.entry(rel)
            .or_default()
            .entry(row["rule"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    by
}

/// The folders of broken fixtures: each lint fixture's `fires`, and `testdata/broken`'s
/// files and folders one by one.
fn broken_fixtures() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for e in std::fs::read_dir(testdata("lint")).unwrap() {
        let fires = e.unwrap().path().join("fires");
        if fires.is_dir() {
            dirs.push(fires);
        }
    }
    for e in std::fs::read_dir(testdata("broken")).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() || p.extension().is_some_and(|x| x == "jsonl") {
            dirs.push(p);
        }
    }
    dirs.sort();
    dirs
}

/// Acceptance 1: for every broken fixture with a fixable finding (unsafe fixes too), the
/// copy `repair --out-dir` writes lints without the findings cured and with no new ones.
/// Both sides are linted as copies outside the checkout, at the same relative paths.
#[test]
fn every_fixable_fixture_is_repaired_into_a_copy_that_lints_without_what_was_cured() {
    let mut repaired = 0;
    for fixture in broken_fixtures() {
        let tmp = tempfile::tempdir().unwrap();
        let (orig, fixed) = (tmp.path().join("orig"), tmp.path().join("fixed"));
        // A folder is walked for rollouts; a file not named like one is given itself.
        let input = if fixture.is_dir() {
            copy_tree(&fixture, &orig);
            orig.clone()
        } else {
            std::fs::create_dir_all(&orig).unwrap();
            let file = orig.join(fixture.file_name().unwrap());
            std::fs::copy(&fixture, &file).unwrap();
            file
        };
        let out = rollscope()
            .args([
                "repair",
                "--unsafe-fixes",
                "--format",
                "ndjson",
                "-q",
                "--out-dir",
            ])
            .arg(&fixed)
            .arg(&input)
            .output()
            .unwrap();
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "{}: exit {code:?}\n{}",
            fixture.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let rows = ndjson(&out.stdout);
        let applied: Vec<&Value> = rows.iter().filter(|r| r["applied"] == true).collect();
        if applied.is_empty() {
            continue;
        }
        repaired += 1;
        let (before, after) = (findings_by_file(&orig), findings_by_file(&fixed));
        for (file, rules_after) in &after {
            let had = before.get(file).cloned().unwrap_or_default();
            for (rule, n) in rules_after {
                let m = had.get(rule).copied().unwrap_or(0);
                assert!(
                    *n <= m,
                    "{}: {file}: the repair adds {rule} ({m} before, {n} after)",
                    fixture.display()
                );
            }
        }
        for row in &applied {
            let path = PathBuf::from(row["path"].as_str().unwrap());
            let file = path.strip_prefix(&orig).unwrap().display().to_string();
            let rule = row["rule"].as_str().unwrap();
            let had = before[&file].get(rule).copied().unwrap_or(0);
            let left = after
                .get(&file)
                .and_then(|r| r.get(rule))
                .copied()
                .unwrap_or(0);
            assert!(
                left < had,
                "{}: {file}: {rule} not cured ({had} before, {left} after)",
                fixture.display()
            );
        }
    }
    // The rules with fixes, each with a fixture (the fixes' own test says which).
    assert!(repaired >= 30, "{repaired} fixtures repaired");
}

/// Acceptance 3: a clean real file is a no-op: exit 0, `nothing to repair`, and `-o`
/// writes it byte for byte (a `.zst` too, as it was).
#[test]
fn a_clean_real_file_is_a_no_op_and_its_copy_is_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = real_file("0.171.0", "qa", ".jsonl");
    let zst = compress_into(&plain, tmp.path());
    for file in [plain, zst] {
        let out = output(&["repair", file.to_str().unwrap()], 0);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout, "nothing to repair (1 file read)\n");
        let copy = tmp.path().join("copy");
        output(
            &[
                "repair",
                file.to_str().unwrap(),
                "-o",
                copy.to_str().unwrap(),
            ],
            0,
        );
        assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&file).unwrap());
    }
}

/// Acceptance 4: without `--in-place` no input changes, in content or modification time,
/// whatever is written; `-o` onto an input, or a link to one, is refused.
#[test]
fn no_input_is_modified_without_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    copy_tree(&testdata("lint/line.blank/fires"), &dir);
    let files = files_under(&dir);
    let stamp = |f: &Path| {
        let m = std::fs::metadata(f).unwrap();
        (std::fs::read(f).unwrap(), m.modified().unwrap(), m.len())
    };
    let before: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    let one = files[0].to_str().unwrap();
    let out_dir = tmp.path().join("out");
    let copy = tmp.path().join("copy.jsonl");
    for args in [
        vec!["repair", one],
        vec!["repair", "--diff", one],
        vec!["repair", "--format", "ndjson", one],
        vec!["repair", one, "-o", copy.to_str().unwrap()],
        vec![
            "repair",
            "--out-dir",
            out_dir.to_str().unwrap(),
            dir.to_str().unwrap(),
        ],
    ] {
        rollscope().args(&args).output().unwrap();
    }
    // The input by its own name, or through a link: a hard link shares its bytes, and
    // writing there would write the input.
    let hard = tmp.path().join("hard.jsonl");
    std::fs::hard_link(&files[0], &hard).unwrap();
    let mut targets = vec![files[0].clone(), hard];
    #[cfg(unix)]
    {
        let soft = tmp.path().join("soft.jsonl");
        std::os::unix::fs::symlink(&files[0], &soft).unwrap();
        targets.push(soft);
    }
    for target in &targets {
        let target = target.to_str().unwrap();
        let out = output(&["repair", one, "-o", target], 1);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Each refused fix's line, and the file's summary, say it once.
        let said = format!("not written: {target} is an input (--in-place replaces inputs)");
        assert!(stderr.contains(&said), "{target}: {stderr}");
        assert!(!stderr.contains("not written: not written"), "{stderr}");
        let rows = output(&["repair", one, "-o", target, "--format", "ndjson"], 1);
        let reason = format!("\"reason\":\"{target} is an input (--in-place replaces inputs)\"");
        assert!(
            String::from_utf8_lossy(&rows.stdout).contains(&reason),
            "{}",
            String::from_utf8_lossy(&rows.stdout)
        );
    }
    let after: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    assert!(before == after, "an input changed");
    assert!(copy.exists() && out_dir.join(files[0].file_name().unwrap()).exists());
}

/// `--in-place` replaces the file with its repaired copy and keeps the original beside it;
/// a second run with the backup there refuses.
#[test]
fn in_place_keeps_a_backup_and_never_overwrites_one() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("blank.jsonl");
    std::fs::copy(testdata("broken/blank-lines.jsonl"), &file).unwrap();
    let original = std::fs::read(&file).unwrap();
    output(&["repair", "--in-place", file.to_str().unwrap()], 0);
    let backup = tmp.path().join("blank.jsonl.bak");
    assert_eq!(std::fs::read(&backup).unwrap(), original);
    let repaired = std::fs::read(&file).unwrap();
    assert!(
        !repaired.windows(2).any(|w| w == b"\n\n"),
        "blank lines left"
    );
    // Linted, the file has no blank line left and nothing new.
    let (rows, _) = ndjson_run(&["lint", "-q"], &file, 0);
    assert!(rows.iter().all(|r| r["rule"] != "line.blank"), "{rows:?}");
    // Broken again, with its backup there: refused, the file as it was.
    std::fs::write(&file, &original).unwrap();
    let out = output(&["repair", "--in-place", file.to_str().unwrap()], 1);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("a backup is never overwritten"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&file).unwrap(), original);
}

/// Acceptance 4: a file that grows between its read and the rename (a Codex appending) is
/// not replaced. The debug build's hook holds repair just before its last look at the file;
/// the test appends a record meanwhile.
#[test]
fn in_place_refuses_a_file_that_grew_before_the_rename() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("blank.jsonl");
    std::fs::copy(testdata("broken/blank-lines.jsonl"), &file).unwrap();
    let hook = tmp.path().join("hook");
    std::fs::create_dir(&hook).unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_rollscope"))
        .args(["repair", "--in-place", "--color", "never"])
        .arg(&file)
        .env("ROLLSCOPE_TEST_BEFORE_RENAME", &hook)
        .env("HOME", root().join("testdata/no-such-home"))
        .env_remove("CODEX_HOME")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ready = hook.join("ready");
    for _ in 0..3000 {
        if ready.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(ready.exists(), "repair never reached the rename");
    let appended = b"{\"timestamp\":\"2026-11-29T12:02:00.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":\"late\"}}\n";
    let mut grown = std::fs::read(&file).unwrap();
    grown.extend_from_slice(appended);
    std::fs::write(&file, &grown).unwrap();
    std::fs::write(hook.join("go"), "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("changed since it was read"), "{stderr}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        grown,
        "the grown file was replaced"
    );
    assert!(!tmp.path().join("blank.jsonl.bak").exists());
}

/// A dry run says what would change and exits 1; the rows carry the schema of
/// `docs/repair.md`; an unsafe fix is listed, and applied only with `--unsafe-fixes`.
#[test]
fn a_dry_run_lists_each_fix_and_unsafe_ones_wait_for_their_flag() {
    let bom = testdata("broken/bom.jsonl");
    let (rows, _) = ndjson_run(&["repair"], &bom, 1);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_fields(
        &rows[0],
        serde_json::json!({
            "line": 1, "rule": "file.bom", "applicability": "safe",
            "action": "delete the byte order mark", "bytes_removed": 3, "bytes_added": 0,
            "applied": true, "reason": null, "pass": 1
        }),
    );
    let utf8 = testdata("broken/invalid-utf8.jsonl");
    let (held, _) = ndjson_run(&["repair"], &utf8, 1);
    assert!(
        held.iter()
            .all(|r| r["applied"] == false && r["applicability"] == "unsafe"),
        "{held:?}"
    );
    let (taken, _) = ndjson_run(&["repair", "--unsafe-fixes"], &utf8, 1);
    assert!(taken.iter().any(|r| r["applied"] == true), "{taken:?}");
    // The diff shows the mark going.
    let out = output(&["repair", "--diff", bom.to_str().unwrap()], 1);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("--- a/") && text.contains("\n-\u{feff}{"),
        "{text}"
    );
}

/// A `.zst` is repaired in its text and written compressed.
#[test]
fn a_compressed_rollout_stays_compressed() {
    let tmp = tempfile::tempdir().unwrap();
    let zst = compress_into(&testdata("broken/blank-lines.jsonl"), tmp.path());
    let copy = tmp.path().join("fixed.jsonl.zst");
    output(
        &[
            "repair",
            zst.to_str().unwrap(),
            "-o",
            copy.to_str().unwrap(),
        ],
        0,
    );
    let bytes = std::fs::read(&copy).unwrap();
    assert!(bytes.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]), "not zstd");
    let text = zstd::decode_all(&bytes[..]).unwrap();
    let plain = std::fs::read(testdata("broken/blank-lines.jsonl")).unwrap();
    assert!(text.len() < plain.len() && !text.windows(2).any(|w| w == b"\n\n"));
}

/// An edit inside the part of a source a fork carries is refused with the fork named: the
/// fork's `history_base.end_byte_offset` would no longer end where it did.
#[test]
fn an_edit_a_fork_carries_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&testdata("real/0.171.0/fork"), tmp.path());
    let day = tmp.path().join("sessions/2026/11/29");
    let source = day.join("rollout-2026-11-29T12-00-55-01a2272d-fced-7f63-8ff0-e3a6e151dcbb.jsonl");
    let text = std::fs::read(&source).unwrap();
    // A blank line after line 3 (inside what the fork carries), and one before the last.
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    lines.insert(3, b"");
    let at = lines.len() - 1;
    lines.insert(at, b"");
    std::fs::write(&source, lines.join(&b'\n')).unwrap();
    let (rows, _) = ndjson_run(&["repair"], &source, 1);
    let blank: Vec<&Value> = rows.iter().filter(|r| r["rule"] == "line.blank").collect();
    assert_eq!(blank.len(), 2, "{rows:?}");
    let early = blank.iter().find(|r| r["line"] == 4).unwrap();
    assert_eq!(early["applied"], false);
    assert!(
        early["reason"]
            .as_str()
            .unwrap()
            .contains("the fork's cutoff would move"),
        "{early}"
    );
    assert!(blank.iter().any(|r| r["applied"] == true));
}

/// Acceptance 2: what the real Codex 0.171 made of each fixture and of its repaired copy
/// (`testdata/repair/verdicts/`, made by `testdata/repair/make.sh` and `collect.py`). The
/// copy is made again and must be the bytes Codex judged (a changed fix asks Codex again);
/// a file Codex refused is resumed once repaired; a file it resumed is resumed to the same
/// history, less at most one item for each unsafe fix applied, nothing added or reordered.
#[test]
fn the_real_codex_resumes_every_repaired_copy_to_the_history_it_had() {
    use sha2::{Digest, Sha256};
    let dir = testdata("repair/verdicts");
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let case = v["case"].as_str().unwrap();
        let fixture = root().join(v["fixture"].as_str().unwrap());
        let tmp = tempfile::tempdir().unwrap();
        let copy = tmp.path().join(fixture.file_name().unwrap());
        let mut args: Vec<String> = vec!["repair".into()];
        args.extend(
            v["repair"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string()),
        );
        args.extend(["--format".into(), "ndjson".into(), "-o".into()]);
        args.push(copy.display().to_string());
        args.push(fixture.display().to_string());
        let out = rollscope().args(&args).output().unwrap();
        let digest = format!("{:x}", Sha256::digest(std::fs::read(&copy).unwrap()));
        assert_eq!(
            digest,
            v["repaired_sha256"].as_str().unwrap(),
            "{case}: the repair writes other bytes than the real Codex judged: ask it again \
             (testdata/repair/make.sh)"
        );
        let (before, after) = (&v["original"], &v["repaired"]);
        assert_eq!(after["outcome"], "resumed", "{case}: {}", after["reason"]);
        if before["outcome"] != "resumed" {
            cases += 1;
            continue;
        }
        let hashes = |side: &Value| -> Vec<String> {
            side["history"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["sha256"].as_str().unwrap().to_string())
                .collect()
        };
        let (a, b) = (hashes(before), hashes(after));
        // The repaired history is the original's with some items left out, in order.
        let mut rest = a.iter();
        assert!(
            b.iter().all(|h| rest.any(|x| x == h)),
            "{case}: the repaired copy's history adds or reorders items"
        );
        let unsafe_applied = ndjson(&out.stdout)
            .iter()
            .filter(|r| r["applied"] == true && r["applicability"] == "unsafe")
            .count();
        assert!(
            a.len() - b.len() <= unsafe_applied,
            "{case}: {} items dropped by {unsafe_applied} unsafe fixes",
            a.len() - b.len()
        );
        cases += 1;
    }
    assert!(cases >= 30, "{cases} cases");
}

/// Acceptance 6: on real rollouts damaged at random in ways a fix cures (a byte order mark,
/// blank lines, a line written twice, a junk line, a torn or unterminated last line),
/// repair writes nothing, its copy has no finding its input lacked, and repairing the copy
/// changes nothing (`rollscope::fuzz::repaired`, which the `commands` fuzz target checks too).
mod properties {
    use proptest::prelude::*;
    use proptest::test_runner::Config;

    use crate::util::*;

    #[derive(Debug, Clone)]
    enum Damage {
        Bom,
        Blank(usize),
        Twice(usize),
        Junk(usize),
        Torn,
        NoFinalNewline,
    }

    fn damage() -> impl Strategy<Value = Damage> {
        prop_oneof![
            Just(Damage::Bom),
            any::<usize>().prop_map(Damage::Blank),
            any::<usize>().prop_map(Damage::Twice),
            any::<usize>().prop_map(Damage::Junk),
            Just(Damage::Torn),
            Just(Damage::NoFinalNewline),
        ]
    }

    fn damaged(text: &[u8], damages: &[Damage]) -> Vec<u8> {
        let mut lines: Vec<Vec<u8>> = text
            .strip_suffix(b"\n")
            .unwrap_or(text)
            .split(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect();
        let (mut bom, mut torn, mut open) = (false, false, false);
        for d in damages {
            let at = |i: usize| i % (lines.len() + 1);
            match d {
                Damage::Bom => bom = true,
                Damage::Blank(i) => lines.insert(at(*i), Vec::new()),
                Damage::Twice(i) => {
                    let k = i % lines.len();
                    lines.insert(k + 1, lines[k].clone());
                }
                Damage::Junk(i) => lines.insert(at(*i), b"{\"timestamp\": oops".to_vec()),
                Damage::Torn => torn = true,
                Damage::NoFinalNewline => open = true,
            }
        }
        if torn {
            let last = lines.last_mut().unwrap();
            last.truncate(last.len() / 2);
        }
        let mut out = if bom {
            b"\xEF\xBB\xBF".to_vec()
        } else {
            Vec::new()
        };
        out.extend(lines.join(&b'\n'));
        if !open {
            out.push(b'\n');
        }
        out
    }

    proptest! {
        #![proptest_config(Config { cases: 16, failure_persistence: None, ..Config::default() })]

        #[test]
        fn repair_writes_nothing_adds_nothing_and_is_idempotent(
            pick in any::<prop::sample::Index>(),
            damages in prop::collection::vec(damage(), 1..4),
        ) {
            let files: Vec<_> = rollouts_under(&testdata("real"))
                .into_iter()
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
                .collect();
            let file = pick.get(&files);
            let tmp = tempfile::tempdir().unwrap();
            let copy = tmp.path().join(file.file_name().unwrap());
            std::fs::write(&copy, damaged(&std::fs::read(file).unwrap(), &damages)).unwrap();
            rollscope::fuzz::repaired(&[copy]);
        }
    }
}

/// Acceptance 5: a fork and its source repaired in one run (`--out-dir` over the home): the
/// source's blank line inside the fork's part is deleted and the fork's `end_byte_offset`
/// rewritten to the same cutoff; both come out as the real Codex wrote them, and Codex
/// 0.171 resumed both copies (`testdata/repair/fork/verdicts.json`, with the digests of the
/// bytes it judged).
#[test]
fn a_fork_and_its_source_repaired_together_stay_resumable() {
    use sha2::{Digest, Sha256};
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    copy_tree(&testdata("repair/fork/home"), &home);
    let out_dir = tmp.path().join("out");
    let (rows, _) = ndjson_run(
        &["repair", "--out-dir", out_dir.to_str().unwrap()],
        &home,
        0,
    );
    let rewrite = rows
        .iter()
        .find(|r| r["rule"] == "history_base.byte-offset")
        .expect("the fork's offset rewritten");
    assert_eq!(rewrite["applied"], true);
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(testdata("repair/fork/verdicts.json")).unwrap(),
    )
    .unwrap();
    let day = "sessions/2026/11/29";
    for (name, verdict) in v["files"].as_object().unwrap() {
        let written = std::fs::read(out_dir.join(day).join(name)).unwrap();
        assert_eq!(
            format!("{:x}", Sha256::digest(&written)),
            verdict["repaired_sha256"].as_str().unwrap(),
            "{name}: other bytes than the real Codex judged"
        );
        let real = std::fs::read(testdata("real/0.171.0/fork").join(day).join(name)).unwrap();
        assert!(written == real, "{name}: not the file Codex wrote");
        assert_eq!(verdict["repaired"]["outcome"], "resumed", "{name}");
        assert_eq!(
            verdict["repaired"]["history"], verdict["original"]["history"],
            "{name}"
        );
    }
}

/// `--in-place` refuses a file another process has open for writing (a running Codex
/// appending to it): this test process holds it open for appending while repair runs.
#[cfg(target_os = "linux")]
#[test]
fn in_place_refuses_a_file_another_process_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("blank.jsonl");
    std::fs::copy(testdata("broken/blank-lines.jsonl"), &file).unwrap();
    let before = std::fs::read(&file).unwrap();
    let writer = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    let out = output(&["repair", "--in-place", file.to_str().unwrap()], 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "process {} has it open for writing",
            std::process::id()
        )),
        "{stderr}"
    );
    drop(writer);
    assert_eq!(std::fs::read(&file).unwrap(), before);
    assert!(!tmp.path().join("blank.jsonl.bak").exists());
}

/// Repairing a chain checks each file's lineage from the rebuilds the run keeps (the
/// originals', each copy's, each pass's share them): every file of the 101-deep chain is
/// read a few times whatever its depth, where each check read its whole lineage again (its
/// root 103 times). `ROLLSCOPE_TRACE_READS` tallies the passes.
#[test]
fn repairing_a_deep_chain_reads_each_file_a_few_times_whatever_its_depth() {
    let tmp = tempfile::tempdir().unwrap();
    let out = rollscope()
        .env("ROLLSCOPE_TRACE_READS", "1")
        .args(["repair", "--format", "ndjson", "--out-dir"])
        .arg(tmp.path().join("out"))
        .arg(testdata("replay/deep-chain/sessions"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let reads: Vec<u32> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("rollscope: read "))
        .map(|l| l.split_once("× ").unwrap().0.parse().unwrap())
        .collect();
    assert_eq!(reads.len(), 102, "{stderr}");
    assert!(reads.iter().all(|&n| n <= 4), "{reads:?}");
    assert_eq!(files_under(&tmp.path().join("out")).len(), 102);
}

/// A file whose repair is refused with no fix of its own to carry the reason says why on
/// its own line: here a fork whose source's repair moves its cutoff, and whose
/// `session_meta` names that `end_byte_offset` twice, so the one to rewrite is not known.
#[test]
fn a_fork_that_cannot_follow_its_source_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    copy_tree(&testdata("repair/fork/home"), &home);
    let day = home.join("sessions/2026/11/29");
    let fork = day.join("rollout-2026-11-29T12-00-55-01a2272d-fdfa-7c33-abe8-a07f91b0fc53.jsonl");
    let text = std::fs::read_to_string(&fork).unwrap();
    let (meta, rest) = text.split_once('\n').unwrap();
    let offset = serde_json::from_str::<Value>(meta).unwrap()["payload"]["history_base"]
        ["end_byte_offset"]
        .as_u64()
        .unwrap();
    let meta = meta.replacen(
        "\"payload\":{",
        &format!("\"payload\":{{\"note\":{{\"end_byte_offset\":{offset}}},"),
        1,
    );
    std::fs::write(&fork, format!("{meta}\n{rest}")).unwrap();
    for format in ["human", "ndjson"] {
        let out = rollscope()
            .args(["repair", "--format", format, "--out-dir"])
            .arg(tmp.path().join(format))
            .arg(&home)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let said = format!(
            "{}: not written: its source's repair moves its cutoff from byte {offset}",
            fork.display()
        );
        assert!(stderr.contains(&said), "{format}: {stderr}");
        // Neither is written: the source's fix would move the fork's cutoff.
        let written = tmp.path().join(format);
        assert!(!written.exists() || files_under(&written).is_empty());
    }
}
