//! Codex's typed decoding (issue #27), held against the real Codex: the sweep of
//! `testdata/typed/` removed or mistyped each top-level field of each payload variant of the
//! 0.171 shell file, one at a time, and asked the real 0.171 to resume each mutant
//! (`verdicts.ndjson`: the items it sent, the clean ones it dropped or changed). For every
//! `response_item` mutant it kept, `replay --for-prompt` sends what Codex sent.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::util::{ndjson_rows, ndjson_run, testdata};

/// The items `replay --for-prompt` sends, without what Codex strips on the wire.
fn sent(path: &Path) -> Vec<Value> {
    ndjson_rows(&["replay", "--for-prompt"], path)
        .iter()
        .map(|r| {
            let mut i = r["item"].clone();
            if let Some(m) = i.as_object_mut() {
                m.remove("internal_chat_message_metadata_passthrough");
            }
            i
        })
        .collect()
}

/// Every sweep of `testdata/typed/`: its name, its clean base, and whether it mutated the
/// last record of each variant (`--occurrence last`) rather than the first.
const SWEEPS: [(&str, &str, bool); 12] = [
    ("shell171", SHELL171, false),
    ("shell171-tag", SHELL171, false),
    ("compaction171", COMPACTION171, false),
    ("compaction171-last", COMPACTION171, true),
    ("compaction171-last-tag", COMPACTION171, true),
    ("shell147", SHELL147, false),
    ("shell147-tag", SHELL147, false),
    (
        "apply_patch171",
        "real/0.171.0/apply_patch/sessions/2026/11/29/rollout-2026-11-29T12-00-31-01a2272d-a170-7d61-81f0-6de9405146f7.jsonl",
        false,
    ),
    (
        "interrupt171",
        "real/0.171.0/interrupt_sigint/sessions/2026/11/29/rollout-2026-11-29T12-00-33-01a2272d-aa09-73c2-8060-ecafed7e87ea.jsonl",
        false,
    ),
    (
        "web_search171",
        "real/0.171.0/web_search/sessions/2026/11/29/rollout-2026-11-29T12-00-56-01a2272e-0462-7050-87f2-e173f5162324.jsonl",
        false,
    ),
    (
        "mcp171",
        "real/0.171.0/mcp/sessions/2026/11/29/rollout-2026-11-29T12-59-11-01a22763-5672-7d22-8700-fe355115a9f3.jsonl",
        false,
    ),
    (
        "rollback147",
        "real/0.147.0/rollback_twice/sessions/2026/11/29/rollout-2026-11-29T12-31-35-01a2274a-1361-7ef2-8873-a78f4569fac0.jsonl",
        false,
    ),
];
const SHELL171: &str = "real/0.171.0/shell/sessions/2026/11/29/rollout-2026-11-29T12-00-30-01a2272d-9d87-7932-b6ae-b428ac561278.jsonl";
const COMPACTION171: &str = "real/0.171.0/compaction/sessions/2026/11/29/rollout-2026-11-29T12-00-53-01a2272d-f83f-7d03-aa69-5a6c6e7fad9d.jsonl";
const SHELL147: &str = "real/0.147.0/shell/sessions/2026/11/29/rollout-2026-11-29T12-02-13-01a2272f-3017-77a3-b67a-87a70a36353e.jsonl";

/// The value `sweep.py` puts in place of a field for a `mistyped` mutant: another JSON type.
fn wrong_value(v: &Value) -> Value {
    match v {
        Value::Bool(_) => Value::from("true"),
        Value::String(_) => Value::from(5),
        Value::Number(_) => Value::from("5"),
        _ => Value::from("x"),
    }
}

/// Mutant `rt.pt.field.how` of `base` as `sweep.py make` makes it: the first (or last)
/// record of variant (`rt`, `pt`) with payload field `field` removed or mistyped, every other
/// line as it was (the mutated one re-serialized compactly, its keys in their order).
fn make_mutant(base: &str, name: &str, last: bool) -> String {
    let parts: Vec<&str> = name.splitn(3, '.').collect();
    let (rt, pt) = (parts[0], parts[1]);
    let (field, how) = parts[2].rsplit_once('.').unwrap();
    let mut lines: Vec<String> = base.split('\n').map(str::to_owned).collect();
    let variant = |line: &str| -> Option<Value> {
        let rec: Value = serde_json::from_str(line).ok()?;
        let payload_type = rec["payload"]["type"].as_str().unwrap_or("_");
        (rec["type"] == rt && payload_type == pt).then_some(rec)
    };
    let mut at = (0..lines.len()).filter(|&i| variant(&lines[i]).is_some());
    let i = if last { at.next_back() } else { at.next() }.unwrap();
    let mut rec = variant(&lines[i]).unwrap();
    let payload = rec["payload"].as_object_mut().unwrap();
    if how == "removed" {
        payload.shift_remove(field).unwrap();
    } else {
        let w = wrong_value(&payload[field]);
        payload[field] = w;
    }
    lines[i] = serde_json::to_string(&rec).unwrap();
    lines.join("\n")
}

/// Acceptance 2 of issue #27: every mutant of the sweep (654, remade from its base as
/// `sweep.py make` made it), resumed by the real Codex 0.171: `replay --for-prompt` sends as
/// many items as Codex sent, every clean item Codex sent unchanged and none it dropped or
/// changed, and the items Codex made up (a synthetic output) where Codex put them.
#[test]
fn replay_for_prompt_sends_what_the_real_codex_sent_for_every_mutant_of_the_sweep() {
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (sweep, base, last) in SWEEPS {
        let base_path = testdata(base);
        let base_text = std::fs::read_to_string(&base_path).unwrap();
        let clean = sent(&base_path);
        let dir = testdata(&format!("typed/{sweep}"));
        let text = std::fs::read_to_string(dir.join("verdicts.ndjson")).unwrap();
        for line in text.lines().skip(1) {
            let v: Value = serde_json::from_str(line).unwrap();
            let name = v["mutant"].as_str().unwrap();
            assert_eq!(v["outcome"], "resumed", "{sweep}/{name}");
            let mutant = tmp.path().join(format!("{sweep}-{name}.jsonl"));
            std::fs::write(&mutant, make_mutant(&base_text, name, last)).unwrap();
            let kept = dir.join(format!("mutants/{name}.jsonl"));
            if kept.exists() {
                let kept: Vec<Value> = std::fs::read_to_string(&kept)
                    .unwrap()
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
                    .collect();
                let made: Vec<Value> = std::fs::read_to_string(&mutant)
                    .unwrap()
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
                    .collect();
                assert_eq!(kept, made, "{sweep}/{name}: remade unlike the kept mutant");
            }
            let got = sent(&mutant);
            let what = format!("{sweep}/{name}");
            // The clean items not sent as they were: those Codex dropped or sent changed.
            let missing: BTreeSet<u64> = (0..clean.len())
                .filter(|&i| !got.contains(&clean[i]))
                .map(|i| i as u64)
                .collect();
            let mut want: BTreeSet<u64> = v["dropped"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i.as_u64().unwrap())
                .collect();
            for c in v["changed"].as_array().into_iter().flatten() {
                want.insert(c[0].as_u64().unwrap());
            }
            let mut added_ok = true;
            for a in v["added"].as_array().into_iter().flatten() {
                let at = a[0].as_u64().unwrap() as usize;
                let kind = a[1].as_str().unwrap().split(' ').next().unwrap();
                added_ok &= got.get(at).is_some_and(|g| g["type"] == kind);
            }
            let items = v["items"].as_u64().unwrap();
            if got.len() as u64 != items || missing != want || !added_ok {
                wrong.push(format!(
                    "{what}: {} items (Codex {items}), not sent as clean {missing:?} (Codex {want:?}), added {}",
                    got.len(),
                    if added_ok { "as Codex" } else { "unlike Codex" }
                ));
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 654);
    assert!(
        wrong.is_empty(),
        "{} of {checked}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A `turn_context` Codex's decoder rejects is skipped (the sweep's `shell171` rows: Codex
/// warned `skipping unknown rollout line`): `lint` reports it (`line.payload`, a warning: the
/// history is whole) exactly where Codex skipped one, and the state view no longer takes it.
#[test]
fn a_turn_context_codex_cannot_decode_is_skipped_as_the_real_codex_skips_it() {
    let dir = testdata("typed/shell171");
    let text = std::fs::read_to_string(dir.join("verdicts.ndjson")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["record_type"] != "turn_context" {
            continue;
        }
        let mutant = dir.join(format!("mutants/{}.jsonl", v["mutant"].as_str().unwrap()));
        let skipped = v["warn"].as_array().into_iter().flatten().any(|w| {
            w.as_str()
                .unwrap()
                .contains("skipping unknown rollout line")
        });
        let found: Vec<Value> = ndjson_rows(&["lint", "--select", "line.payload"], &mutant);
        assert_eq!(
            !found.is_empty(),
            skipped,
            "{}: {found:?}",
            mutant.display()
        );
        if skipped {
            assert_eq!(found[0]["severity"], "warning");
            let state = &ndjson_rows(&["replay", "--view", "state"], &mutant)[0];
            assert_ne!(state["turn_context"]["line"], found[0]["line"], "{state:#}");
        }
        checked += 1;
    }
    assert!(checked >= 26, "{checked}");
}

/// An item with each inline image replaced by what the verdicts keep of one (`collect.py`:
/// media type, width, height, bytes, sha256), and without what Codex strips on the wire.
fn comparable(item: &Value) -> Value {
    fn walk(v: &mut Value) {
        match v {
            Value::Array(a) => a.iter_mut().for_each(walk),
            Value::Object(m) => {
                let url = m
                    .get("image_url")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                if let Some(url) = url.filter(|u| u.starts_with("data:") && u.len() > 1024) {
                    let (head, b64) = url.split_once(',').unwrap();
                    use base64::Engine;
                    let raw = base64::engine::general_purpose::STANDARD
                        .decode(b64)
                        .unwrap();
                    let img = image::load_from_memory(&raw).unwrap();
                    let digest = sha256_hex(&raw);
                    m.insert("image_url".into(), Value::from(format!("{head},…")));
                    m.insert(
                        "image".into(),
                        serde_json::json!({
                            "media_type": head[5..].split(';').next().unwrap(),
                            "width": img.width(), "height": img.height(),
                            "bytes": raw.len(), "sha256": digest,
                        }),
                    );
                } else {
                    m.values_mut().for_each(walk);
                }
            }
            _ => {}
        }
    }
    let mut item = item.clone();
    if let Some(m) = item.as_object_mut() {
        m.remove("internal_chat_message_metadata_passthrough");
    }
    walk(&mut item);
    item
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Acceptance 1 of issue #27: each case of `testdata/typed/cases/` (one defect each: an
/// unknown item type, a `type` written as a number, a function call without `arguments`, a
/// mistyped turn context, images Codex resizes or replaces), resumed by the real Codex of
/// each `verdicts/<version>.json`: `replay --for-prompt --codex <version>` sends the items
/// Codex sent, item for item, an image at the media type, pixel size and bytes Codex sent.
#[test]
fn replay_for_prompt_sends_what_the_real_codex_sent_for_each_case() {
    let cases = testdata("typed/cases");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for case in std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().path())
    {
        let Ok(verdicts) = std::fs::read_dir(case.join("verdicts")) else {
            continue;
        };
        for verdict in verdicts.map(|e| e.unwrap().path()) {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(&verdict).unwrap()).unwrap();
            let version = v["codex_version"].as_str().unwrap();
            let fixture = cases.join(v["fixture"].as_str().unwrap());
            if !fixture.exists() {
                // Too large to keep: `a_line_of_30_mib_*` makes it.
                continue;
            }
            let got: Vec<Value> =
                ndjson_rows(&["replay", "--for-prompt", "--codex", version], &fixture)
                    .iter()
                    .map(|r| comparable(&r["item"]))
                    .collect();
            let want: Vec<Value> = v["history"]
                .as_array()
                .unwrap()
                .iter()
                .map(comparable)
                .collect();
            let what = format!("{}", verdict.strip_prefix(&cases).unwrap().display());
            if got.len() != want.len() {
                wrong.push(format!("{what}: {} items, Codex {}", got.len(), want.len()));
            } else if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
                wrong.push(format!(
                    "{what}: item {i}:\n  got  {}\n  want {}",
                    got[i], want[i]
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 23, "{checked}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Case 5 of issue #27: a line of 30 MiB (a tool output), made here as
/// `testdata/typed/cases/line-30mib` was made. The real Codex 0.128 and 0.171 resumed it (and
/// one of 150 MiB) with every item; `replay --for-prompt` sends the same items, and `lint`
/// calls the line a warning, not an error. What Codex sent differs in one way, said here so a
/// change shows: it cut the 30 MiB output in the middle to its model's budget (`…N tokens
/// truncated…`), which `replay` does not do (the budget is the model's, not the file's).
#[test]
fn a_line_of_30_mib_resumes_whole_as_the_real_codex_resumed_it() {
    let base = std::fs::read_to_string(testdata(SHELL171)).unwrap();
    let mut lines: Vec<String> = base.split('\n').map(str::to_owned).collect();
    let mut rec: Value = serde_json::from_str(&lines[18]).unwrap();
    let out = rec["payload"]["output"].as_str().unwrap().to_string();
    let filler = "0123456789abcdef".repeat((30 << 20) / 16);
    rec["payload"]["output"] = Value::from(format!("{out}\n{filler}"));
    lines[18] = serde_json::to_string(&rec).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join(SHELL171.rsplit('/').next().unwrap());
    std::fs::write(&file, lines.join("\n")).unwrap();

    let ours: Vec<Value> = ndjson_rows(&["replay", "--for-prompt"], &file)
        .iter()
        .map(|r| comparable(&r["item"]))
        .collect();
    for version in ["0.128.0", "0.171.0"] {
        let path = testdata(&format!("typed/cases/line-30mib/verdicts/{version}.json"));
        let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(v["outcome"], "resumed");
        let ours: Vec<Value> = if version == "0.128.0" {
            ndjson_rows(&["replay", "--for-prompt", "--codex", version], &file)
                .iter()
                .map(|r| comparable(&r["item"]))
                .collect()
        } else {
            ours.clone()
        };
        let theirs: Vec<Value> = v["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(comparable)
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{version}");
        for i in (0..ours.len()).filter(|&i| i != 7) {
            assert_eq!(ours[i], theirs[i], "{version}: item {i}");
        }
        let (mine, cut) = (
            ours[7]["output"].as_str().unwrap(),
            theirs[7]["output"].as_str().unwrap(),
        );
        assert!(mine.len() > 30 << 20 && cut.len() < 64 << 10, "{version}");
        assert!(cut.contains("tokens truncated"), "{version}");
        assert!(mine.starts_with(&cut[..1000]) && mine.ends_with(&cut[cut.len() - 1000..]));
    }
    let found = ndjson_rows(&["lint", "--select", "line.oversized"], &file);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["severity"], "warning");
    assert_eq!(found[0]["line"], 19);
}

/// The state view's outcome and `lint`'s findings on each case say what the real Codex did
/// (`testdata/typed/cases/README.md`): an item lost or an image replaced is a resume with
/// loss; a resized image is information, the resume whole; 0.128 sends images as written.
#[test]
fn the_outcome_and_the_findings_of_each_case_are_what_codex_did() {
    let cases = [
        (
            "unknown-type",
            "0.171.0",
            "resumes_with_loss",
            Some("line.item-type"),
        ),
        (
            "unknown-type-legacy",
            "0.128.0",
            "resumes_with_loss",
            Some("line.item-type"),
        ),
        (
            "tag-index-99",
            "0.171.0",
            "resumes_with_loss",
            Some("line.item-type"),
        ),
        (
            "tag-index-0",
            "0.171.0",
            "resumes_with_loss",
            Some("line.payload"),
        ),
        ("tag-index-7", "0.171.0", "resumes", None),
        (
            "additional-tools",
            "0.171.0",
            "resumes_with_loss",
            Some("line.payload"),
        ),
        ("compaction-trigger", "0.171.0", "resumes", None),
        (
            "function-call-no-arguments",
            "0.171.0",
            "resumes_with_loss",
            Some("line.payload"),
        ),
        (
            "image-undecodable",
            "0.171.0",
            "resumes_with_loss",
            Some("image.replaced"),
        ),
        (
            "image-remote",
            "0.171.0",
            "resumes_with_loss",
            Some("image.replaced"),
        ),
        (
            "image-detail-low",
            "0.171.0",
            "resumes_with_loss",
            Some("image.replaced"),
        ),
        (
            "image-3840x2160",
            "0.171.0",
            "resumes",
            Some("image.resized"),
        ),
        (
            "image-jpeg-2200x2000",
            "0.171.0",
            "resumes",
            Some("image.resized"),
        ),
        (
            "image-tool-output",
            "0.171.0",
            "resumes",
            Some("image.resized"),
        ),
        ("image-2048x1024", "0.171.0", "resumes", None),
        ("image-undecodable", "0.128.0", "resumes", None),
        ("image-3840x2160", "0.128.0", "resumes", None),
    ];
    let select = "line.item-type,line.payload,image.replaced,image.resized";
    for (case, version, outcome, rule) in cases {
        let dir = testdata(&format!("typed/cases/{case}"));
        let state = &ndjson_rows(&["replay", "--view", "state", "--codex", version], &dir)[0];
        assert_eq!(state["outcome"], outcome, "{case} as {version}: {state:#}");
        // Exit 1 for the errors (each but `image.resized`, information).
        let code = i32::from(rule.is_some_and(|r| r != "image.resized"));
        let (found, _) = ndjson_run(
            &["lint", "--codex", version, "--select", select],
            &dir,
            code,
        );
        let rules: Vec<&str> = found.iter().map(|f| f["rule"].as_str().unwrap()).collect();
        assert_eq!(
            rules,
            rule.into_iter().collect::<Vec<_>>(),
            "{case} as {version}"
        );
    }
}
