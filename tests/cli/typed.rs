//! Codex's typed decoding (issue #27), held against the real Codex: the sweep of
//! `testdata/typed/` removed or mistyped each top-level field of each payload variant of the
//! 0.171 shell file, one at a time, and asked the real 0.171 to resume each mutant
//! (`verdicts.ndjson`: the items it sent, the clean ones it dropped or changed). For every
//! `response_item` mutant it kept, `replay --for-prompt` sends what Codex sent.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::util::{ndjson_rows, testdata};

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

/// Each sweep whose `response_item` mutants are kept, and its clean base.
const SWEEPS: [(&str, &str); 4] = [
    (
        "shell171",
        "real/0.171.0/shell/sessions/2026/11/29/rollout-2026-11-29T12-00-30-01a2272d-9d87-7932-b6ae-b428ac561278.jsonl",
    ),
    (
        "apply_patch171",
        "real/0.171.0/apply_patch/sessions/2026/11/29/rollout-2026-11-29T12-00-31-01a2272d-a170-7d61-81f0-6de9405146f7.jsonl",
    ),
    (
        "web_search171",
        "real/0.171.0/web_search/sessions/2026/11/29/rollout-2026-11-29T12-00-56-01a2272e-0462-7050-87f2-e173f5162324.jsonl",
    ),
    (
        "mcp171",
        "real/0.171.0/mcp/sessions/2026/11/29/rollout-2026-11-29T12-59-11-01a22763-5672-7d22-8700-fe355115a9f3.jsonl",
    ),
];

#[test]
fn a_response_item_codex_cannot_decode_is_skipped_as_the_real_codex_skips_it() {
    let mut checked = 0;
    for (sweep, base) in SWEEPS {
        checked += check_sweep(sweep, base);
    }
    assert!(checked >= 70, "{checked}");
}

/// The mutants of one sweep checked.
fn check_sweep(sweep: &str, base: &str) -> usize {
    let dir = testdata(&format!("typed/{sweep}"));
    let clean = sent(&testdata(base));
    let text = std::fs::read_to_string(dir.join("verdicts.ndjson")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["record_type"] != "response_item" || v["outcome"] != "resumed" {
            continue;
        }
        let mutant = dir.join(format!("mutants/{}.jsonl", v["mutant"].as_str().unwrap()));
        if !mutant.exists() {
            continue;
        }
        let got = sent(&mutant);
        let what = mutant.display();
        assert_eq!(got.len() as u64, v["items"].as_u64().unwrap(), "{what}");
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
        assert_eq!(missing, want, "{what}");
        checked += 1;
    }
    checked
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
