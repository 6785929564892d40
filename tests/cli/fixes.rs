//! Fixes as data (issue #24, acceptance 3): for every rule with a fix, its edits applied in
//! memory to its `fires` fixture make it stop firing and start no other rule; every fix is
//! one its rule declares; `--list-rules --format json` says so for every rule. And the
//! related places a finding names: the record a duplicate repeats, a fork's source.
//!
//! `ROLLSCOPE_FIXED_OUT=DIR` also writes each fixed fixture to `DIR/<slug>/`, for asking the
//! real Codex what it makes of them (`docs/contributing.md`, "Ask Codex first").

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rollscope::analysis::ReadOptions;
use rollscope::findings::{apply, Applicability, Edit, Finding, FixWhen, Rule};
use rollscope::input::Source;
use rollscope::lineage::Resolver;
use rollscope::replay::Options;
use rollscope::rules::{self, Checker};
use serde_json::Value;

use crate::lint::{expect, targets};
use crate::util::*;

/// Every rule's findings on `files` (the others of `all` beside them, for their lineage), as
/// `lint` finds them.
fn lint(files: &[PathBuf], all: &[PathBuf]) -> Vec<Finding> {
    let sources: Vec<Source> = all.iter().cloned().map(Source::File).collect();
    let resolver = Mutex::new(Resolver::new(&sources, None));
    let checker = Checker::of_units(|_| true);
    let (read, opts) = (ReadOptions::default(), Options::default());
    files
        .iter()
        .flat_map(|f| {
            let source = Source::File(f.clone());
            rules::replay(&source, &resolver, &read, &opts, &checker).findings
        })
        .collect()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn slugs(findings: &[Finding]) -> BTreeSet<&'static str> {
    findings.iter().map(|f| f.rule.slug()).collect()
}

/// Each finding's fix is one its rule declares: a rule without fixes carries none, a rule
/// that always fixes carries one on every finding, and each applicability is declared.
fn declared(f: &Finding) {
    let fixes = f.rule.fixes();
    let slug = f.rule.slug();
    match (&f.fix, fixes.when) {
        (Some(_), FixWhen::Never) => panic!("{slug}: a fix, though it declares none"),
        (None, FixWhen::Always) => panic!("{slug}: no fix, though it declares one always"),
        _ => {}
    }
    if let Some(fix) = &f.fix {
        assert!(
            fixes.applicabilities.contains(&fix.applicability),
            "{slug}: {:?} is not declared",
            fix.applicability
        );
        assert!(
            !fix.edits.is_empty() && !fix.description.is_empty(),
            "{slug}"
        );
    }
}

/// `files` copied into `into`, each with the edits of `edits` that are its own applied.
fn fixed_copy(files: &[PathBuf], edits: &[&Edit], into: &Path) {
    for f in files {
        let text = std::fs::read(f).unwrap();
        let own: Vec<&Edit> = edits
            .iter()
            .copied()
            .filter(|e| e.file == Source::File(f.clone()))
            .collect();
        let out = apply(&text, &own).unwrap_or_else(|o| panic!("{}: {o:?}", f.display()));
        std::fs::write(into.join(f.file_name().unwrap()), out).unwrap();
    }
}

#[test]
fn each_fix_cures_its_rule_on_its_fixture_and_starts_no_other() {
    let out_dir = std::env::var_os("ROLLSCOPE_FIXED_OUT").map(PathBuf::from);
    let mut fixed = Vec::new();
    for &rule in rules::all() {
        let slug = rule.slug();
        if crate::lint::of_a_home(slug) {
            // No fixes; its fixtures are homes (`tests/cli/state.rs`).
            assert_eq!(rule.fixes().when, FixWhen::Never, "{slug}");
            continue;
        }
        let dir = testdata("lint").join(slug);
        let want = expect(&dir);
        let fires_dir = dir.join("fires");
        let all = files_in(&fires_dir);
        let files = targets(&fires_dir, &want);
        let before = lint(&files, &all);
        before.iter().for_each(declared);
        if rule.fixes().when == FixWhen::Never {
            continue;
        }
        let own: Vec<&Finding> = before.iter().filter(|f| f.rule == rule).collect();
        assert!(!own.is_empty(), "{slug}: does not fire on its fixture");
        let edits: Vec<&Edit> = own
            .iter()
            .filter_map(|f| f.fix.as_ref())
            .flat_map(|fix| &fix.edits)
            .collect();
        assert!(!edits.is_empty(), "{slug}: its fixture shows no fix");
        // Every edit is of a file of the fixture.
        for e in &edits {
            assert!(
                all.iter().any(|f| e.file == Source::File(f.clone())),
                "{slug}"
            );
        }
        let tmp = tempfile::tempdir().unwrap();
        fixed_copy(&all, &edits, tmp.path());
        let moved = |p: &PathBuf| tmp.path().join(p.file_name().unwrap());
        let after = lint(
            &files.iter().map(moved).collect::<Vec<_>>(),
            &all.iter().map(moved).collect::<Vec<_>>(),
        );
        assert!(
            after.iter().all(|f| f.rule != rule),
            "{slug}: still fires once fixed: {:?}",
            after.iter().filter(|f| f.rule == rule).collect::<Vec<_>>()
        );
        let started: Vec<&str> = slugs(&after).difference(&slugs(&before)).copied().collect();
        assert!(started.is_empty(), "{slug}: its fix starts {started:?}");
        if let Some(out) = &out_dir {
            let into = out.join(slug);
            std::fs::create_dir_all(&into).unwrap();
            fixed_copy(&all, &edits, &into);
        }
        fixed.push(slug);
    }
    // The rules whose cure is mechanical (issue #24): a BOM, a torn last line, a duplicated
    // record, `session_meta` present but not first, an orphan output Codex drops anyway.
    for slug in [
        "file.bom",
        "file.no-final-newline",
        "ordinal.tail-unparseable",
        "ordinal.non-monotonic",
        "meta.first",
        "pair.orphan-output",
        "pair.duplicate",
        "line.json",
    ] {
        assert!(fixed.contains(&slug), "{slug} has no fix");
    }
}

/// The safe fixes of the fixtures are those the rules' documentation argues for; a fixture
/// whose fix is unsafe says so here (so a change of applicability is a change of this list).
#[test]
fn the_fixtures_fixes_are_safe_but_where_named() {
    // `pair.duplicate`: Codex sends both copies, so deleting one changes the history it
    // sends (`testdata/repair/verdicts/pair.duplicate.json`).
    let unsafe_: &[&str] = &["pair.duplicate"];
    for &rule in rules::all() {
        if rule.fixes().when == FixWhen::Never {
            continue;
        }
        let dir = testdata("lint").join(rule.slug());
        let fires_dir = dir.join("fires");
        let files = targets(&fires_dir, &expect(&dir));
        for f in lint(&files, &files_in(&fires_dir)) {
            if let (true, Some(fix)) = (f.rule == rule, &f.fix) {
                let want = if unsafe_.contains(&rule.slug()) {
                    Applicability::Unsafe
                } else {
                    Applicability::Safe
                };
                assert_eq!(
                    fix.applicability,
                    want,
                    "{}: {}",
                    rule.slug(),
                    fix.description
                );
            }
        }
    }
}

#[test]
fn list_rules_json_says_each_rules_fix_and_applicabilities() {
    let out = output(&["lint", "--list-rules", "--format", "json"], 0);
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows.len(), rules::all().len());
    for row in &rows {
        let slug = row["slug"].as_str().unwrap();
        let rule: Rule = rules::from_slug(slug).unwrap();
        let fixes = rule.fixes();
        let when = match fixes.when {
            FixWhen::Never => "none",
            FixWhen::Sometimes => "sometimes",
            FixWhen::Always => "always",
        };
        assert_eq!(row["fix"], when, "{slug}");
        let applicabilities: Vec<&str> = fixes.applicabilities.iter().map(|a| a.as_str()).collect();
        assert_eq!(
            row["applicabilities"],
            serde_json::json!(applicabilities),
            "{slug}"
        );
        // A rule that fixes says how safe; one that does not, nothing.
        assert_eq!(when == "none", applicabilities.is_empty(), "{slug}");
    }
}

/// The fixes whose fixture is the clean twin with something added: fixed, it is the clean
/// twin again, byte for byte (what Codex wrote, and resumes).
#[test]
fn fixes_that_undo_an_addition_give_back_the_file_as_written() {
    for slug in [
        "file.bom",
        "file.no-final-newline",
        "line.not-object",
        "meta.first",
        "ordinal.non-monotonic",
        "pair.duplicate",
        "policy.response-item",
        "policy.transient-event",
    ] {
        let dir = testdata("lint").join(slug);
        let fires = files_in(&dir.join("fires"));
        let findings = lint(&fires, &fires);
        let edits: Vec<&Edit> = findings
            .iter()
            .filter(|f| f.rule.slug() == slug)
            .filter_map(|f| f.fix.as_ref())
            .flat_map(|fix| &fix.edits)
            .collect();
        let tmp = tempfile::tempdir().unwrap();
        fixed_copy(&fires, &edits, tmp.path());
        for f in &fires {
            let name = f.file_name().unwrap();
            let clean = std::fs::read(dir.join("clean").join(name)).unwrap();
            let fixed = std::fs::read(tmp.path().join(name)).unwrap();
            assert!(
                fixed == clean,
                "{slug}: fixed, {name:?} is not its clean twin"
            );
        }
    }
}

/// A duplicate ordinal whose line is not a copy of the one before: deleting it loses a
/// record Codex's resume reads (the real 0.171's verdict), so the fix is unsafe.
#[test]
fn a_duplicate_ordinal_that_is_not_a_copy_has_an_unsafe_fix() {
    let dir = testdata("lint/ordinal.non-monotonic");
    let verdict: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("verdict-0.171.0-message-deleted.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        verdict["fixed"]["history_vs_broken"]["same_as_control"],
        false
    );
    let files = files_in(&dir.join("not-a-copy"));
    let findings = lint(&files, &files);
    let fixes: Vec<_> = findings
        .iter()
        .filter(|f| f.rule.slug() == "ordinal.non-monotonic")
        .map(|f| f.fix.as_ref().map(|x| (x.applicability, f.line())))
        .collect();
    assert_eq!(fixes, [Some((Applicability::Unsafe, 8))]);
    // The finding points at the line it repeats too.
    let related: Vec<u64> = findings
        .iter()
        .flat_map(|f| &f.related)
        .filter_map(|r| r.span.map(|s| s.start_line))
        .collect();
    assert_eq!(related, [7]);
}

/// The evidence a rule's documentation cites from `testdata/` is there.
#[test]
fn the_evidence_rules_cite_is_in_testdata() {
    let mut cited = 0;
    for &rule in rules::all() {
        for path in rule.doc().split('`').filter(|s| s.starts_with("testdata/")) {
            assert!(root().join(path).exists(), "{}: cites {path}", rule.slug());
            cited += 1;
        }
    }
    assert!(cited >= 10, "{cited}");
}

/// A named change of issue #24: `ordinal.non-monotonic`'s help said to renumber from the
/// first bad line, the cure openai/codex#41079 found wrong for a duplicate (delete the
/// redundant line, renumber nothing).
#[test]
fn the_duplicate_ordinal_help_says_not_to_renumber() {
    let (_, rows) = crate::lint::lint(&[], &testdata("broken/ordinal-line-duplicated.jsonl"));
    let help = rows
        .iter()
        .find(|r| r["rule"] == "ordinal.non-monotonic")
        .map(|r| r["help"].as_str().unwrap().to_string())
        .unwrap();
    assert!(
        help.contains("delete the later line and renumber nothing"),
        "{help}"
    );
    assert!(!help.starts_with("Renumber"), "{help}");
}

/// The ordinal boundary of a cutoff, read from the source itself: the line number and byte
/// offset of its first record with `ordinal >= end`, `None` when there is none.
fn first_at_or_past(source: &Path, end: u64) -> Option<(u64, u64)> {
    let text = std::fs::read(source).unwrap();
    let mut offset = 0u64;
    for (i, line) in text.split_inclusive(|&b| b == b'\n').enumerate() {
        let ordinal = serde_json::from_slice::<Value>(line)
            .ok()
            .and_then(|v| v["ordinal"].as_u64());
        if ordinal.is_some_and(|o| o >= end) {
            return Some((i as u64 + 1, offset));
        }
        offset += line.len() as u64;
    }
    None
}

/// A fork whose `history_base.end_byte_offset` misses its boundary names its source as a
/// related place: the source's first record at the cutoff where there is one (a cutoff
/// inside the source), the source file where the boundary is its end (the fixture, a fork
/// of its parent's whole file). The boundary is read from the source here, not from
/// rollscope.
#[test]
fn a_byte_offset_finding_relates_the_source_and_its_line_at_the_cutoff() {
    let dir = testdata("lint/history_base.byte-offset/fires");
    let tmp = tempfile::tempdir().unwrap();
    for f in files_in(&dir) {
        std::fs::copy(&f, tmp.path().join(f.file_name().unwrap())).unwrap();
    }
    let files = files_in(tmp.path());
    let child = files
        .iter()
        .find(|f| f.to_string_lossy().contains("fdfa"))
        .unwrap()
        .clone();
    let source = files.iter().find(|f| **f != child).unwrap().clone();
    let text = std::fs::read_to_string(&child).unwrap();
    let (meta, rest) = text.split_once('\n').unwrap();
    let meta: Value = serde_json::from_str(meta).unwrap();

    // As the fixture is: the boundary is the end of the source.
    let end = meta["payload"]["history_base"]["end_ordinal_exclusive"]
        .as_u64()
        .unwrap();
    assert_eq!(first_at_or_past(&source, end), None);
    let related = |files: &[PathBuf]| -> Vec<_> {
        let found = lint(std::slice::from_ref(&child), files);
        let f = found
            .iter()
            .find(|f| f.rule.slug() == "history_base.byte-offset")
            .expect("history_base.byte-offset fires");
        f.related.clone()
    };
    let r = related(&files);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].file, Source::File(source.clone()));
    assert_eq!(r[0].span, None);

    // A cutoff inside the source (ordinal 5; the offset left as it was, now wrong): the
    // related place is the source's first record at ordinal 5 or past it.
    let mut inside = meta.clone();
    inside["payload"]["history_base"]["end_ordinal_exclusive"] = 5.into();
    inside["payload"]["forked_from_ordinal_exclusive"] = 5.into();
    std::fs::write(&child, format!("{inside}\n{rest}")).unwrap();
    let (line, offset) = first_at_or_past(&source, 5).expect("the source has ordinal 5");
    let r = related(&files);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].file, Source::File(source.clone()));
    let span = r[0].span.expect("a line of the source");
    assert_eq!(
        (span.start_line, span.start, span.line_offset),
        (line, offset, offset)
    );
    assert!(r[0].note.contains("cutoff"), "{}", r[0].note);
}

/// A fork whose source cannot be found names no related place; one whose source is not
/// paginated names the source file.
#[test]
fn a_resolve_finding_relates_the_source_when_one_was_found() {
    let dir = testdata("lint/history_base.byte-offset/fires");
    let files = files_in(&dir);
    let is_child = |f: &PathBuf| f.to_string_lossy().contains("fdfa");
    // Alone in a folder, its source is not found (and no Codex home is searched).
    let alone = tempfile::tempdir().unwrap();
    let child = files.iter().find(|f| is_child(f)).unwrap();
    let copy = alone.path().join(child.file_name().unwrap());
    std::fs::copy(child, &copy).unwrap();
    let found = lint(std::slice::from_ref(&copy), std::slice::from_ref(&copy));
    let f = found
        .iter()
        .find(|f| f.rule.slug() == "history_base.resolve")
        .expect("history_base.resolve fires without the source");
    assert!(f.related.is_empty(), "{:?}", f.related);

    // Beside a legacy copy of its source.
    let tmp = tempfile::tempdir().unwrap();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let text = if is_child(f) {
            text
        } else {
            text.replacen(
                "\"history_mode\":\"paginated\"",
                "\"history_mode\":\"legacy\"",
                1,
            )
        };
        std::fs::write(tmp.path().join(f.file_name().unwrap()), text).unwrap();
    }
    let copies = files_in(tmp.path());
    let child = copies.iter().find(|f| is_child(f)).unwrap();
    let source = copies.iter().find(|f| *f != child).unwrap();
    let found = lint(std::slice::from_ref(child), &copies);
    let f = found
        .iter()
        .find(|f| f.rule.slug() == "history_base.resolve")
        .expect("history_base.resolve fires for a legacy source");
    assert!(f.message.contains("not paginated"), "{}", f.message);
    assert_eq!(f.related.len(), 1, "{:?}", f.related);
    assert_eq!(f.related[0].file, Source::File(source.clone()));
    assert_eq!(f.related[0].span, None);
}
