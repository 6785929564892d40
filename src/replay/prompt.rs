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
//! The pairing here is over the rebuilt history, not the file: a compaction or a rollback
//! changes which calls and outputs meet, so `calls`' pairing of the file's records cannot
//! answer it.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use serde_json::{json, Value};
use uuid::Uuid;

use super::item::{At, Item, Kind, Meta, Origin};
use crate::input::FileText;
use crate::model::{CallType, OutputType};

/// Codex's namespace for the ids of synthetic items (`normalize.rs`).
const SYNTHETIC_NAMESPACE: Uuid = Uuid::from_u128(0x90d38d3e_6a5b_4d52_bfe2_2f1e634bfac4);

/// What the pairing of a history found: per item, whether the prompt drops it, and the
/// calls that get a synthetic output. Its facts ([`facts`]) are the same whether or not the
/// prompt is built.
#[derive(Debug, Default)]
pub struct Pairing {
    pub dropped: Vec<bool>,
    /// Items that get a synthetic output right after them.
    pub unanswered: Vec<usize>,
}

impl Pairing {
    /// Whether the prompt drops item `n` of the items paired.
    fn drops(&self, n: usize) -> bool {
        self.dropped.get(n).is_some_and(|&d| d)
    }
}

/// Pair the calls and outputs of `items`.
pub fn pair(items: &[Item]) -> Pairing {
    // Calls by the output type that answers them (`CallType::answer`), and outputs: sized
    // once (a forked history brings thousands of each at once).
    let half = items.len() / 2;
    let mut calls: HashSet<(OutputType, &str)> = HashSet::with_capacity(half);
    let mut answered: HashSet<(OutputType, &str)> = HashSet::with_capacity(half);
    for i in items {
        match &i.meta.kind {
            Kind::Call {
                type_,
                call_id: Some(id),
                ..
            } => {
                if let Some(answer) = type_.answer() {
                    calls.insert((answer, id));
                }
            }
            Kind::Output {
                type_,
                call_id: Some(id),
                ..
            } => {
                answered.insert((*type_, id));
            }
            _ => {}
        }
    }
    let mut p = Pairing {
        dropped: vec![false; items.len()],
        unanswered: Vec::new(),
    };
    for ((n, i), dropped) in items.iter().enumerate().zip(&mut p.dropped) {
        match &i.meta.kind {
            Kind::Message { role } if *role == Some("system") => *dropped = true,
            // Upstream's `ensure_call_outputs_present` answers only a call with a call id (a
            // `local_shell_call` or `tool_search_call` may have none; the other calls cannot
            // be decoded without one).
            Kind::Call {
                type_,
                call_id: Some(id),
                ..
            } => {
                let Some(answer) = type_.answer() else {
                    continue;
                };
                if !answered.contains(&(answer, id.as_ref())) {
                    p.unanswered.push(n);
                }
            }
            // `remove_orphan_outputs` keeps a server-side tool search's output, and a tool
            // search or function output with no call id (0.171 sends a `function_call_output`
            // written without `call_id`: `testdata/typed/shell171`); any other output needs
            // its call.
            Kind::Output {
                type_,
                call_id,
                execution,
            } => {
                let kept = match type_ {
                    OutputType::ToolSearch => {
                        execution.as_deref() == Some("server") || call_id.is_none()
                    }
                    OutputType::Function => call_id.is_none(),
                    OutputType::Custom => false,
                };
                let has_call = call_id
                    .as_deref()
                    .is_some_and(|id| calls.contains(&(*type_, id)));
                if !has_call && !kept {
                    *dropped = true;
                }
            }
            _ => {}
        }
    }
    p
}

/// What the pairing of a history shows, item by item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pair {
    /// A call that gets a synthetic output; `open_turn` when it lies in the open last turn
    /// of the file replayed (the call may still be running), `inherited` when on a line a
    /// fork or sub-agent copied from its parent (answered in the parent's file, after the
    /// copy was made: the real 0.171 sub-agent child holds the parent's `spawn_agent` call,
    /// and Codex sends `aborted` for it by design).
    CallWithoutOutput {
        call_id: String,
        open_turn: bool,
        inherited: bool,
    },
    /// An output the prompt drops: its call is not in the history.
    OutputWithoutCall { call_id: String },
    /// An output written again for a call already answered; `first`: where the first one
    /// lies in the file replayed.
    OutputDuplicate { call_id: String, first: Option<At> },
}

/// A pairing fact and the item it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairFact {
    pub pair: Pair,
    /// Where the item was read (`None` for one the replay made).
    pub at: Option<At>,
    pub origin: Origin,
}

/// What the pairing `p` of `items` shows: each call that gets a synthetic output, then each
/// output the prompt drops or that answers a call again, in item order; by line of the file
/// replayed (items of a lineage source first). `open_from`: the open last turn's first line
/// in the file replayed; `copied`: whether a line of it was copied from a parent.
pub fn facts(
    items: &[Item],
    p: &Pairing,
    open_from: Option<u64>,
    copied: &dyn Fn(u64) -> bool,
) -> Vec<PairFact> {
    let fact = |i: &Item, pair| PairFact {
        pair,
        at: i.at,
        origin: i.origin,
    };
    let mut out = Vec::new();
    for i in p.unanswered.iter().filter_map(|&n| items.get(n)) {
        let open_turn =
            matches!((i.at, open_from), (Some(a), Some(o)) if a.file == 0 && a.line >= o);
        let inherited = matches!(i.at, Some(a) if a.file == 0 && copied(a.line));
        let call_id = i.meta.call_id().unwrap_or_default().to_string();
        out.push(fact(
            i,
            Pair::CallWithoutOutput {
                call_id,
                open_turn,
                inherited,
            },
        ));
    }
    // Outputs answered again: the first of each call's outputs, by type and call id.
    let mut first: HashMap<(OutputType, &str), Option<At>> = HashMap::new();
    for (n, i) in items.iter().enumerate() {
        if p.drops(n) && matches!(i.meta.kind, Kind::Output { .. }) {
            let call_id = i.meta.call_id().unwrap_or_default().to_string();
            out.push(fact(i, Pair::OutputWithoutCall { call_id }));
            continue;
        }
        if let Kind::Output {
            type_,
            call_id: Some(id),
            ..
        } = &i.meta.kind
        {
            let at = i.at.filter(|a| a.file == 0);
            match first.get(&(*type_, &**id)) {
                Some(earlier) => {
                    let pair = Pair::OutputDuplicate {
                        call_id: id.to_string(),
                        first: *earlier,
                    };
                    out.push(fact(i, pair));
                }
                None => {
                    first.insert((*type_, &**id), at);
                }
            }
        }
    }
    out.sort_by_key(|f| f.at.filter(|a| a.file == 0).map_or(0, |a| a.line));
    out
}

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
    items: Vec<Item>,
    p: &Pairing,
    reserialize: bool,
    ids: bool,
    images: bool,
    mut text: impl FnMut(&Item) -> Option<String>,
) -> Vec<Item> {
    let unanswered: HashSet<usize> = p.unanswered.iter().copied().collect();
    let mut out = Vec::with_capacity(items.len() + unanswered.len());
    // N2: the first output of each shell or apply_patch call id, once its call was seen.
    let mut shell_calls: HashMap<String, bool> = HashMap::new();
    for (n, item) in items.into_iter().enumerate() {
        if p.drops(n) {
            continue;
        }
        let extra = unanswered.contains(&n).then(|| synthetic(&item)).flatten();
        let mut item = item;
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
pub fn reserializes(cli_version: Option<&str>, items: &[Item]) -> bool {
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
        let p = pair(&items);
        assert_eq!(p.unanswered, [0]);
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
        let p = pair(&items);
        assert_eq!(p.dropped, [true, false, false, false]);
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
        let p = pair(&items);
        assert_eq!(
            (p.unanswered.as_slice(), p.dropped.as_slice()),
            (&[0][..], &[false, true][..])
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
        assert!(!reserializes(Some("0.147.0"), &[]));
    }
}
