//! The normalisation Codex applies to a rebuilt history before it sends it
//! (`ContextManager::for_prompt`, upstream `context_manager/normalize.rs`, as real Codex
//! does it):
//! an output whose call is not in the history is dropped; a call with no output gets a
//! synthetic `aborted` output right after it; a duplicated output is sent twice (verified
//! with 0.147 and 0.171, where upstream's source reads as if it collapsed them); system
//! messages are not sent. Codex 0.80 to 0.128 also rewrite structured shell outputs as text
//! when the freeform `apply_patch` tool is offered (upstream `client_common.rs`,
//! `reserialize_shell_outputs`; seen in the requests 0.80 and 0.128 sent).
//!
//! What it drops and answers is the pairing's ([`super::pairing`]).

use foldhash::{HashMap, HashMapExt};

use serde_json::{json, Value};
use uuid::Uuid;

use super::item::{Item, Items, Kind, Meta, Origin};
pub use super::pairing::{facts, Pair, PairFact, Pairing};
use crate::input::FileText;
use crate::model::{CallType, OutputType};

/// Codex's namespace for the ids of synthetic items (`normalize.rs`).
const SYNTHETIC_NAMESPACE: Uuid = Uuid::from_u128(0x90d38d3e_6a5b_4d52_bfe2_2f1e634bfac4);

/// The synthetic output answering `call`: `{type, call_id, output: "aborted"}` (a tool
/// search: an empty client result), with Codex's deterministic id when the call has one.
fn synthetic(call: &Item) -> Option<Item> {
    let Kind::Call { type_, call_id, .. } = &call.meta.kind else {
        return None;
    };
    let call_id = call_id.as_deref();
    let answer = type_.answer()?;
    let prefix = answer.synthetic_id_prefix();
    let mut v = if answer == OutputType::ToolSearch {
        json!({"type": answer.name(), "call_id": call_id, "status": "completed",
               "execution": "client", "tools": []})
    } else {
        json!({"type": answer.name(), "call_id": call_id, "output": "aborted"})
    };
    if let (Some(id), Value::Object(m)) = (&call.meta.id, &mut v) {
        let name = format!("{prefix}:{id}");
        let uuid = Uuid::new_v5(&SYNTHETIC_NAMESPACE, name.as_bytes());
        m.insert("id".into(), Value::String(format!("{prefix}_{uuid}")));
    }
    let json = v.to_string();
    Some(Item {
        origin: Origin::Synthetic,
        at: None,
        meta: Meta::of_json(&json),
        body: FileText::Held(json.into()),
    })
}

/// The prompt: `items` without what the pairing drops, each unanswered call followed by its
/// synthetic output. `reserialize` applies N2 through `text`, which reads an item's JSON;
/// without `ids`, every item is sent without its `id` (Codex before 0.147,
/// `docs/codex-versions.md`); with `images`, each image is prepared as Codex prepares it
/// (`codex::image`).
pub fn build(
    items: Items,
    p: &Pairing,
    reserialize: bool,
    ids: bool,
    images: bool,
    mut text: impl FnMut(&Item) -> Option<String>,
) -> Vec<Item> {
    let mut out = Vec::with_capacity(items.len() + p.unanswered_len());
    let mut unanswered = p.unanswered().peekable();
    // N2: the first output of each shell or apply_patch call id, once its call was seen.
    let mut shell_calls: HashMap<String, bool> = HashMap::new();
    for (n, item) in items.into_iter().enumerate() {
        if p.drops(n) {
            continue;
        }
        let extra = unanswered.next_if_eq(&n).and_then(|_| synthetic(&item));
        let mut item = std::sync::Arc::unwrap_or_clone(item);
        if reserialize {
            match &item.meta.kind {
                Kind::Call {
                    type_,
                    call_id: Some(id),
                    name,
                } if is_shell_call(*type_, name.as_deref()) => {
                    shell_calls.insert(id.to_string(), true);
                }
                Kind::Output {
                    type_,
                    call_id: Some(id),
                    ..
                } if *type_ != OutputType::ToolSearch
                    && shell_calls.remove(&id.to_string()).is_some() =>
                {
                    if let Some(json) = text(&item).and_then(|t| reserialized(&t)) {
                        item.body = FileText::Held(json.into());
                    }
                }
                _ => {}
            }
        }
        out.push(item);
        out.extend(extra);
    }
    if images {
        for item in out.iter_mut().filter(|i| i.meta.images) {
            let json = text(item).and_then(|t| crate::codex::image::item_as_sent(&t));
            if let Some(json) = json {
                item.body = FileText::Held(json.into());
            }
        }
    }
    if !ids {
        for item in &mut out {
            if let Some(json) = text(item).and_then(|t| without_id(&t)) {
                item.body = FileText::Held(json.into());
            }
        }
    }
    out
}

/// An item's JSON without its top-level `id`, or `None` when it has none.
fn without_id(item_json: &str) -> Option<String> {
    let mut item: Value = serde_json::from_str(item_json).ok()?;
    item.as_object_mut()?.shift_remove("id")?;
    serde_json::to_string(&item).ok()
}

/// The calls whose outputs N2 rewrites.
fn is_shell_call(type_: CallType, name: Option<&str>) -> bool {
    match type_ {
        CallType::LocalShell => true,
        CallType::Custom => name == Some("apply_patch"),
        CallType::Function => matches!(name, Some("shell" | "container.exec" | "apply_patch")),
        _ => false,
    }
}

/// Whether N2 applies: Codex below 0.147 (0.147 and later store and send these outputs
/// as text), when the history proves the freeform `apply_patch` tool was offered (a
/// `custom_tool_call` named `apply_patch`; the request's tool list is not in the file).
pub fn reserializes(cli_version: Option<&str>, items: &Items) -> bool {
    let old = super::cli_version(cli_version).is_some_and(|v| v < (0, 147));
    old && items.iter().any(|i| {
        matches!(&i.meta.kind, Kind::Call { type_, name, .. }
            if *type_ == CallType::Custom && name.as_deref() == Some("apply_patch"))
    })
}

/// An output item's JSON with its structured shell output rewritten as Codex's text
/// (`reserialize_shell_outputs`), or `None` when it is not such an output.
fn reserialized(item_json: &str) -> Option<String> {
    let mut item: Value = serde_json::from_str(item_json).ok()?;
    let raw = item.get("output")?.as_str()?;
    let parsed: Value = serde_json::from_str(raw).ok()?;
    let output = parsed.get("output")?.as_str()?;
    let meta = parsed.get("metadata")?.as_object()?;
    let exit_code = meta
        .get("exit_code")
        .filter(|v| v.is_i64() || v.is_u64())?
        .as_i64()?;
    let duration = meta.get("duration_seconds")?.as_f64()?;
    let mut sections = vec![
        format!("Exit code: {exit_code}"),
        format!("Wall time: {} seconds", duration as f32),
    ];
    let mut body = output;
    if let Some(rest) = output.strip_prefix("Total output lines: ") {
        if let Some((n, tail)) = rest.split_once('\n') {
            if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
                sections.push(format!("Total output lines: {n}"));
                body = tail.strip_prefix('\n').unwrap_or(tail);
            }
        }
    }
    sections.push("Output:".into());
    sections.push(body.to_string());
    *item.get_mut("output")? = Value::String(sections.join("\n"));
    Some(item.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::item::At;

    fn dropped(p: &Pairing, n: usize) -> Vec<bool> {
        (0..n).map(|k| p.drops(k)).collect()
    }

    fn item(json: &str, line: u64) -> Item {
        Item {
            origin: Origin::Record,
            at: Some(At {
                file: 0,
                line,
                offset: 0,
                ordinal: None,
            }),
            meta: Meta::of_json(json),
            body: FileText::Held(json.into()),
        }
    }

    fn json_of(i: &Item) -> Value {
        match &i.body {
            FileText::Held(s) => serde_json::from_str(s).unwrap(),
            FileText::InFile { .. } => unreachable!("held"),
        }
    }

    #[test]
    fn a_call_without_output_gets_an_aborted_output_with_codex_id() {
        let items = vec![
            item(
                r#"{"type":"function_call","id":"fc_call_sleep","call_id":"call_sleep","name":"exec_command","arguments":"{}"}"#,
                5,
            ),
            item(
                r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"next"}]}"#,
                9,
            ),
        ];
        let items: Items = items.into_iter().map(std::sync::Arc::new).collect();
        let p = Pairing::whole(&items);
        assert_eq!(p.unanswered().collect::<Vec<_>>(), [0]);
        let f = facts(&items, &p, None, &|_| false);
        let open = |f: &[PairFact]| match &f[0].pair {
            Pair::CallWithoutOutput { open_turn, .. } => *open_turn,
            _ => unreachable!(),
        };
        assert!(!open(&f));
        assert!(
            open(&facts(&items, &p, Some(4), &|_| false)),
            "in the open turn"
        );
        let out = build(items, &p, false, true, false, |_| None);
        assert_eq!(out.len(), 3);
        assert_eq!(
            json_of(&out[1]),
            // The id real Codex 0.171 sent after a killed call: "fco_" and the UUIDv5, in
            // Codex's namespace, of "fco:" and the call item's id.
            json!({"type": "function_call_output", "call_id": "call_sleep", "output": "aborted",
                   "id": "fco_694ef6df-2fed-5b5b-93af-107f7f4424d3"})
        );
        assert_eq!(out[1].origin, Origin::Synthetic);
    }

    #[test]
    fn an_orphan_output_is_dropped_and_a_duplicate_stays_twice() {
        let items = vec![
            item(
                r#"{"type":"function_call_output","call_id":"gone","output":"x"}"#,
                2,
            ),
            item(
                r#"{"type":"function_call","call_id":"c","name":"shell","arguments":"{}"}"#,
                3,
            ),
            item(
                r#"{"type":"function_call_output","call_id":"c","output":"1"}"#,
                4,
            ),
            item(
                r#"{"type":"function_call_output","call_id":"c","output":"1"}"#,
                5,
            ),
        ];
        let items: Items = items.into_iter().map(std::sync::Arc::new).collect();
        let p = Pairing::whole(&items);
        assert_eq!(dropped(&p, 4), [true, false, false, false]);
        let f = facts(&items, &p, None, &|_| false);
        let got: Vec<(&str, u64)> = f
            .iter()
            .map(|f| {
                let what = match f.pair {
                    Pair::OutputWithoutCall { .. } => "orphan",
                    Pair::OutputDuplicate { .. } => "duplicate",
                    Pair::CallWithoutOutput { .. } => "missing",
                };
                (what, f.at.unwrap().line)
            })
            .collect();
        // The orphan is dropped; the second output of `c` is sent again, and said so.
        assert_eq!(got, [("orphan", 2), ("duplicate", 5)]);
        assert_eq!(build(items, &p, false, true, false, |_| None).len(), 3);
    }

    #[test]
    fn a_custom_output_does_not_answer_a_function_call() {
        let items = vec![
            item(r#"{"type":"function_call","call_id":"c","name":"x"}"#, 2),
            item(
                r#"{"type":"custom_tool_call_output","call_id":"c","output":"1"}"#,
                3,
            ),
        ];
        let items: Items = items.into_iter().map(std::sync::Arc::new).collect();
        let p = Pairing::whole(&items);
        assert_eq!(
            (p.unanswered().collect::<Vec<_>>(), dropped(&p, 2)),
            (vec![0], vec![false, true])
        );
    }

    #[test]
    fn structured_shell_outputs_are_reserialized_as_codex_text() {
        let out = r#"{"type":"custom_tool_call_output","call_id":"p","output":"{\"output\":\"Success. Updated the following files:\\nA greet.py\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"}"#;
        let v: Value = serde_json::from_str(&reserialized(out).unwrap()).unwrap();
        assert_eq!(
            v["output"],
            "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA greet.py\n"
        );
        let long = r#"{"type":"function_call_output","call_id":"p","output":"{\"output\":\"Total output lines: 3\\n\\na\\nb\\nc\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":1.25}}"}"#;
        let v: Value = serde_json::from_str(&reserialized(long).unwrap()).unwrap();
        assert_eq!(
            v["output"],
            "Exit code: 1\nWall time: 1.25 seconds\nTotal output lines: 3\nOutput:\na\nb\nc"
        );
        assert_eq!(
            reserialized(r#"{"type":"function_call_output","output":"plain"}"#),
            None
        );
        assert!(!reserializes(Some("0.147.0"), &Items::new()));
    }
}
