//! The model history, rebuilt forward as Codex's `reconstruct_history_from_rollout`
//! (upstream `rollout_reconstruction.rs`) materialises it: records become items, a compaction with a
//! replacement history replaces them, a legacy compaction rebuilds them from the user
//! messages and its summary, a rollback drops the last user turns.
//!
//! Replaying forward gives what Codex's reverse scan gives: the newest compaction with a
//! replacement history is the last replacement, and a rollback after it cuts into that
//! replacement as Codex's forward application does.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::item::{At, Item, Items, Meta, Origin};
use super::pairing::Pairing;
use crate::analysis::turns::rollback::{self, Boundaries};
use crate::codex::{shape, Answer, Behaviour, Reading};
use crate::decode::{Kind, Record};
use crate::input::FileText;

/// The text a 0.80-and-later legacy compaction message starts with (already the bridge).
const SUMMARY_PREFIX: &str = "Another language model started to solve this problem";
/// The bridge 0.36 wraps the user messages and a bare summary in.
const BRIDGE_HEAD: &str = "You were originally given instructions from a user over one or more turns. Here were the user messages:\n\n";
const BRIDGE_TAIL: &str = "\n\nAnother language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\n\n";

/// Reads a long user message's text back from its item (a legacy compaction needs it).
pub type Reader<'r> = &'r mut dyn FnMut(&Item) -> Option<String>;

/// What one record did to the history (the session state follows it: a turn's state dies
/// with the turn a rollback drops).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    None,
    /// A real user message was pushed at this index: a user turn's boundary.
    User(usize),
    /// A compaction replaced the history.
    Compaction,
    /// A rollback cut the history back to this length.
    RolledBack(usize),
}

/// What the history rests on: the start of the thread, or a compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    Start,
    /// A `compacted` with a replacement history (`window_number` when it has one).
    Replacement {
        at: At,
        window: Option<u64>,
    },
    /// A legacy `compacted` without one: rebuilt from user messages and its summary.
    Rebuild {
        at: At,
    },
}

/// A rollback marker as the history applied it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rollback {
    pub at: At,
    pub num_turns: u32,
    /// History items it dropped.
    pub items_dropped: usize,
}

/// What went wrong while rebuilding: a record Codex cannot decode, or one it applies in a
/// way the writer cannot have meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// A `thread_rolled_back` whose `num_turns` is not a `u32`: Codex cannot decode it.
    RollbackUndecodable,
    /// `thread_rolled_back.num_turns` exceeds the user turns standing.
    RollbackOverflow { num_turns: u32, user_turns: u64 },
    /// A `compacted` record Codex cannot decode for another reason than its metadata.
    CompactionUndecodable { error: String },
    /// A `response_item` Codex's typed decoder rejects (`codex::shape`): skipped whole.
    ItemUndecodable { error: String },
    /// A `response_item` whose `type` the version does not know (`written`: as written): read
    /// as `Other`, not sent.
    ItemUnknownType { written: String },
    /// `replacement_history_metadata` has `metadata` entries for `history` items (`None`:
    /// no replacement history at all).
    CompactionMetadataLen { history: Option<u64>, metadata: u64 },
    /// A legacy `compacted` without `replacement_history`: the history is rebuilt.
    CompactionLegacy,
    /// A `compacted` with a replacement history but no `window_number`.
    CompactionNoWindow,
}

/// A fault and the record that shows it (in the file replayed, or a lineage source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub at: At,
    pub fault: Fault,
}

/// The forward replay of the model history. Its items are a persistent vector: a copy
/// shares them (the forks of a lineage each take its rebuild: [`super::shared`]).
#[derive(Debug, Default, Clone)]
pub struct History {
    items: Items,
    /// The pairing of the items, as far as it was brought ([`History::pair`]).
    pairing: Pairing,
    bounds: Boundaries,
    base: Option<Base>,
    rollbacks: Vec<Rollback>,
    compactions: u64,
    problems: Vec<Problem>,
    /// The Codex version the history is rebuilt as.
    reading: Reading,
    /// Flag the items that may hold an image ([`Meta::look_for_images`]): the prompt
    /// prepares them.
    images: bool,
}

/// `compacted` as Codex decodes it (`CompactedItemWire`, the parts the history needs).
#[derive(Deserialize)]
struct Compacted<'a> {
    #[serde(borrow, default)]
    message: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    replacement_history: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    replacement_history_metadata: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    window_number: Option<u64>,
}

/// The finished history.
#[derive(Debug)]
pub struct Rebuilt {
    pub items: Items,
    pub pairing: Pairing,
    pub base: Base,
    pub rollbacks: Vec<Rollback>,
    pub compactions: u64,
    /// In the order the records came.
    pub problems: Vec<Problem>,
}

impl History {
    pub fn new() -> History {
        History::default()
    }

    /// Flag the items that may hold an image, for the prompt to prepare them.
    pub fn look_for_images(&mut self) {
        self.images = true;
    }

    /// Rebuild as `reading`'s Codex version does (known once the file's `session_meta` is
    /// read, for `--codex file`).
    pub fn read_as(&mut self, reading: Reading) {
        self.reading = reading;
    }

    /// One record, read at `at`; `origin` is `Record`, or `SourceRollout` for a lineage
    /// source's. What it did to the history.
    pub fn record(
        &mut self,
        rec: &Record<'_>,
        at: At,
        origin: Origin,
        rereadable: bool,
        read: Reader<'_>,
    ) -> Effect {
        match rec.kind {
            Kind::ResponseItem => {
                let Some((variant, body)) = self.decoded(rec, at) else {
                    return Effect::None;
                };
                if !model_input(variant, rec) {
                    return Effect::None;
                }
                let (mut meta, body) = match body {
                    // Rewritten as Codex sends it: its meta read from what is sent.
                    Some(json) => (Meta::of_json(&json), FileText::Held(json.into())),
                    None => (
                        Meta::of_record(rec),
                        FileText::of(rec, rec.payload.get(), rereadable),
                    ),
                };
                if self.images {
                    match &body {
                        FileText::Held(json) => meta.look_for_images(json),
                        _ => meta.look_for_images(rec.payload.get()),
                    }
                }
                let user = meta.user;
                self.push(Item {
                    origin,
                    at: Some(at),
                    body,
                    meta,
                });
                if user {
                    return Effect::User(self.items.len() - 1);
                }
            }
            Kind::Other if rec.type_name == "inter_agent_communication" => {
                // Codex converts it with `to_model_input_item()`; the file's payload is what
                // the replay can show of it.
                let meta = Meta::of_json(rec.payload.get());
                self.push(Item {
                    origin,
                    at: Some(at),
                    body: FileText::of(rec, rec.payload.get(), rereadable),
                    meta,
                });
            }
            Kind::Compacted if self.compacted(rec, at, rereadable, read) => {
                return Effect::Compaction;
            }
            Kind::EventMsg if rec.payload_type() == Some("thread_rolled_back") => {
                match rollback::marker(rec) {
                    Some(n) => {
                        self.roll_back(n, at);
                        return Effect::RolledBack(self.items.len());
                    }
                    None => self.problems.push(Problem {
                        at,
                        fault: Fault::RollbackUndecodable,
                    }),
                }
            }
            _ => {}
        }
        Effect::None
    }

    /// How the version read as decodes this `response_item`: its variant, and the JSON
    /// Codex sends when it differs from the file's (a `type` written as a variant index, a
    /// field Codex sends as `null` left out); `None` when Codex skips the line (a problem
    /// noted) or reads it as `Other`, which it never sends (a problem noted too).
    fn decoded<'r>(&mut self, rec: &'r Record<'_>, at: At) -> Option<(&'r str, Option<String>)> {
        if !self.reading.does(Behaviour::UndecodableItem, Answer::Skips) {
            return Some((rec.payload_type().unwrap_or_default(), None));
        }
        let Answer::Knows(known) = self.reading.answer(Behaviour::ResponseItemTypes) else {
            return Some((rec.payload_type().unwrap_or_default(), None));
        };
        let raw_tag = match rec.payload_type() {
            Some(_) => None,
            None => rec.payload_field("type"),
        };
        let name = match shape::variant(rec.payload_type(), raw_tag, known) {
            shape::Variant::Known(name) => name,
            shape::Variant::Other => {
                let written = rec
                    .payload_type()
                    .map_or_else(|| raw_tag.unwrap_or_default().to_string(), str::to_string);
                let fault = Fault::ItemUnknownType { written };
                self.problems.push(Problem { at, fault });
                return None;
            }
            shape::Variant::Fails(error) => {
                let fault = Fault::ItemUndecodable { error };
                self.problems.push(Problem { at, fault });
                return None;
            }
        };
        let Some(mut shape) = shape::Shape::of(name) else {
            return Some((name, retagged(rec, name, raw_tag, &[])));
        };
        let read = rec.payload_members(|k, v| shape.member(k, v));
        // Stopped early with no fault: a key written with an escape, so the members are not
        // all known; nothing is judged.
        if read.is_none() && !shape.failed() {
            return Some((name, retagged(rec, name, raw_tag, &[])));
        }
        if let Some(error) = shape.finish() {
            let fault = Fault::ItemUndecodable { error };
            self.problems.push(Problem { at, fault });
            return None;
        }
        let nulls: Vec<&'static str> = shape.unwritten().collect();
        Some((name, retagged(rec, name, raw_tag, &nulls)))
    }

    fn push(&mut self, item: Item) {
        self.bounds.push(item.meta.user);
        self.items.push_back(Arc::new(item));
    }

    fn replace(&mut self, items: Vec<Item>) {
        self.items = items.into_iter().map(Arc::new).collect();
        self.pairing = Pairing::default();
        self.bounds = Boundaries::default();
        for i in &self.items {
            self.bounds.push(i.meta.user);
        }
    }

    fn roll_back(&mut self, num_turns: u32, at: At) {
        let standing = self.bounds.user_turns();
        if u64::from(num_turns) > standing as u64 {
            let fault = Fault::RollbackOverflow {
                num_turns,
                user_turns: standing as u64,
            };
            self.problems.push(Problem { at, fault });
        }
        let before = self.items.len();
        if let Some(cut) = self.bounds.roll_back(num_turns) {
            self.items.truncate(cut);
            // Paired past the cut: what the items dropped did to the pairing stays.
            if self.pairing.paired() > cut {
                self.pairing = Pairing::default();
            }
        }
        self.rollbacks.push(Rollback {
            at,
            num_turns,
            items_dropped: before - self.items.len(),
        });
    }

    fn compacted(&mut self, rec: &Record<'_>, at: At, rereadable: bool, read: Reader<'_>) -> bool {
        if self.reading.does(Behaviour::UndecodableItem, Answer::Skips) {
            let mut shape = shape::Shape::compacted();
            let read = rec.payload_members(|k, v| shape.member(k, v));
            if read.is_some() || shape.failed() {
                if let Some(error) = shape.finish() {
                    let fault = Fault::CompactionUndecodable { error };
                    self.problems.push(Problem { at, fault });
                    return false;
                }
            }
        }
        let c: Compacted<'_> = match rec.parse_payload() {
            Ok(c) => c,
            Err(e) => {
                let fault = Fault::CompactionUndecodable {
                    error: e.to_string(),
                };
                self.problems.push(Problem { at, fault });
                return false;
            }
        };
        if let Some(fault) = rejected(&c) {
            // Versions before the paginated projection apply a compaction whose metadata
            // does not match (`docs/codex-versions.md`); the fault is kept for the rule.
            let applied = matches!(fault, Fault::CompactionMetadataLen { .. })
                && self
                    .reading
                    .does(Behaviour::CompactionMetadataMismatch, Answer::Reads);
            self.problems.push(Problem { at, fault });
            if !applied {
                return false;
            }
        }
        self.compactions += 1;
        match c.replacement_history {
            Some(entries) => {
                if c.window_number.is_none() {
                    self.problems.push(Problem {
                        at,
                        fault: Fault::CompactionNoWindow,
                    });
                }
                let items = entries
                    .into_iter()
                    .map(|e| {
                        let mut meta = Meta::of_json(e.get());
                        if self.images {
                            meta.look_for_images(e.get());
                        }
                        Item {
                            origin: Origin::ReplacementHistory,
                            at: Some(at),
                            body: FileText::of(rec, e.get(), rereadable),
                            meta,
                        }
                    })
                    .collect();
                self.replace(items);
                self.base = Some(Base::Replacement {
                    at,
                    window: c.window_number,
                });
            }
            None => {
                self.problems.push(Problem {
                    at,
                    fault: Fault::CompactionLegacy,
                });
                let summary = c.message.as_deref().unwrap_or_default();
                let rebuilt = self.rebuild(summary, at, read);
                self.replace(rebuilt);
                self.base = Some(Base::Rebuild { at });
            }
        }
        true
    }

    /// Codex's legacy fallback (`compact::build_compacted_history`, as the real 0.36 and
    /// 0.80 rebuilt it on resume, `docs/replay.md`): the leading contextual messages, then
    /// the real user messages so far (earlier summaries and bridges left out), then the
    /// summary. A summary that is already the
    /// bridge (0.80 and later) follows the user messages as one message each; a bare one
    /// (0.36) is wrapped with them in one bridge message.
    fn rebuild(&self, summary: &str, at: At, read: Reader<'_>) -> Vec<Item> {
        let mut out: Vec<Item> = self
            .items
            .iter()
            .take_while(|i| i.meta.contextual)
            .map(|i| Item::clone(i))
            .collect();
        let users: Vec<Cow<'_, str>> = self
            .items
            .iter()
            .filter(|i| i.meta.user)
            .filter_map(|i| read(i).map(Cow::<str>::Owned))
            .filter(|t| !t.starts_with(SUMMARY_PREFIX) && !t.starts_with(BRIDGE_HEAD.trim_end()))
            .collect();
        let message = |text: &str| {
            let json = serde_json::json!({
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": text}],
            })
            .to_string();
            Item {
                origin: Origin::CompactionRebuild,
                at: Some(at),
                meta: Meta::of_json(&json),
                body: FileText::Held(json.into()),
            }
        };
        if summary.starts_with(SUMMARY_PREFIX) {
            out.extend(users.iter().map(|u| message(u)));
            out.push(message(summary));
        } else {
            let text = format!("{BRIDGE_HEAD}{}{BRIDGE_TAIL}{summary}", users.join("\n\n"));
            out.push(message(&text));
        }
        out
    }

    /// Items held so far (before the history is finished).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it flags the items that may hold an image (`--for-prompt`).
    pub fn images(&self) -> bool {
        self.images
    }

    /// Whether it holds no item yet.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Pair the items not paired yet (all of them, after a compaction or a rollback that
    /// cut into those paired): a copy taken then pairs its own items alone.
    pub fn pair(&mut self) {
        self.pairing.extend(&self.items);
    }

    pub fn finish(mut self) -> Rebuilt {
        self.pair();
        Rebuilt {
            pairing: self.pairing,
            items: self.items,
            base: self.base.unwrap_or(Base::Start),
            rollbacks: self.rollbacks,
            compactions: self.compactions,
            problems: self.problems,
        }
    }
}

/// Whether a `response_item` is model input (`docs/codex-versions.md`). Not: a ghost
/// snapshot; a configuration update
/// (0.171 reads it and sends none, `testdata/replay/verdicts/configuration-update.json`); a
/// compaction trigger (0.171 sends none, `testdata/typed/cases/compaction-trigger`) or the
/// additional tools (never in a rollout; upstream's non-persisted kinds);
/// an assistant message delivered in code mode, which Codex reads back as retained context
/// (`delivered-assistant-message.json`; upstream `codex-rs/history/src/rollout_payload.rs`,
/// `From<RolloutItemWire>`: one `output_text`, a passthrough `turn_id`, the envelope's
/// `metadata.user_input_order` and a delivery marker).
fn model_input(variant: &str, rec: &Record<'_>) -> bool {
    if matches!(
        variant,
        "ghost_snapshot" | "configuration_update" | "additional_tools" | "compaction_trigger"
    ) {
        return false;
    }
    !retained_delivery(rec)
}

/// The item's JSON as Codex sends it when that differs from the file's: the `type` written
/// as a variant index sent as the variant's name, and `nulls`, fields Codex sends as `null`,
/// added where the record lacks them. `None` when it is the file's. Rare: parses the payload.
fn retagged(
    rec: &Record<'_>,
    name: &str,
    raw_tag: Option<&str>,
    nulls: &[&'static str],
) -> Option<String> {
    if raw_tag.is_none() && nulls.is_empty() {
        return None;
    }
    let mut v: serde_json::Value = serde_json::from_str(rec.payload.get()).ok()?;
    let m = v.as_object_mut()?;
    if raw_tag.is_some() {
        m.insert("type".into(), serde_json::Value::String(name.into()));
    }
    for f in nulls {
        m.insert((*f).into(), serde_json::Value::Null);
    }
    serde_json::to_string(&v).ok()
}

/// The marker of a complete delivery, and the prefix of an incomplete one's.
const DELIVERY_COMPLETE: &str = "codex:code-mode-delivery:v1:complete";
const DELIVERY_INCOMPLETE: &str = "codex:code-mode-delivery:v1:incomplete:";

/// An assistant message Codex reads back as a delivered message of retained context.
fn retained_delivery(rec: &Record<'_>) -> bool {
    let Some(meta) = rec.metadata else {
        return false;
    };
    // Rare: parsed only when the marker's field is there.
    if rec.payload_type() != Some("message") || !meta.get().contains("delivered_assistant_message")
    {
        return false;
    }
    let (Ok(meta), Ok(item)) = (
        serde_json::from_str::<serde_json::Value>(meta.get()),
        serde_json::from_str::<serde_json::Value>(rec.payload.get()),
    ) else {
        return false;
    };
    let marker = meta
        .get("delivered_assistant_message")
        .and_then(serde_json::Value::as_str);
    let marked =
        marker.is_some_and(|m| m == DELIVERY_COMPLETE || m.starts_with(DELIVERY_INCOMPLETE));
    let ordered = meta.get("user_input_order").is_some_and(|o| o.is_u64());
    let one_text = item
        .get("content")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|c| {
            c.len() == 1
                && c.first()
                    .and_then(|p| p.get("type"))
                    .and_then(|t| t.as_str())
                    == Some("output_text")
        });
    let turn = item
        .get("internal_chat_message_metadata_passthrough")
        .and_then(|p| p.get("turn_id"))
        .is_some_and(serde_json::Value::is_string);
    item.get("role").and_then(serde_json::Value::as_str) == Some("assistant")
        && marked
        && ordered
        && one_text
        && turn
}

/// Why Codex's decoder rejects a compaction that parses, losing its checkpoint: a
/// `replacement_history_metadata` that does not match the history entry for entry, or an
/// entry that is not a response item (an object).
fn rejected(c: &Compacted<'_>) -> Option<Fault> {
    match (&c.replacement_history, &c.replacement_history_metadata) {
        (Some(h), Some(m)) if h.len() != m.len() => {
            return Some(Fault::CompactionMetadataLen {
                history: Some(h.len() as u64),
                metadata: m.len() as u64,
            })
        }
        (None, Some(m)) => {
            return Some(Fault::CompactionMetadataLen {
                history: None,
                metadata: m.len() as u64,
            })
        }
        _ => {}
    }
    let bad = c
        .replacement_history
        .iter()
        .flatten()
        .find(|e| !e.get().starts_with('{'))?;
    Some(Fault::CompactionUndecodable {
        error: format!(
            "a replacement_history entry is not an object: {}",
            bad.get()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{self, Line};
    use serde_json::json;

    fn replay(lines: &[Line]) -> Rebuilt {
        let mut h = History::new();
        testkit::each_record(&testkit::jsonl(lines), |rec| {
            let at = At::of(rec, 0);
            // Not re-readable: each item holds its JSON, as the replay's reader reads it.
            let mut read = |i: &Item| match &i.body {
                FileText::Held(json) => super::super::item::message_text(json),
                FileText::InFile { .. } => None,
            };
            let _ = h.record(rec, at, Origin::Record, false, &mut read);
        });
        h.finish()
    }

    fn message(role: &str, text: &str) -> Line {
        testkit::item(json!({
            "type": "message", "role": role,
            "content": [{"type": "input_text", "text": text}],
        }))
    }

    fn user(text: &str) -> Line {
        message("user", text)
    }

    fn assistant(text: &str) -> Line {
        message("assistant", text)
    }

    fn context() -> Line {
        user("<environment_context>x</environment_context>")
    }

    fn rollback(n: u32) -> Line {
        testkit::event(json!({"type": "thread_rolled_back", "num_turns": n}))
    }

    fn compacted(payload: serde_json::Value) -> Line {
        testkit::line("compacted", payload)
    }

    fn texts(r: &Rebuilt) -> Vec<String> {
        r.items
            .iter()
            .map(|i| match &i.body {
                FileText::Held(s) => {
                    let v: serde_json::Value = serde_json::from_str(s).unwrap();
                    v["content"][0]["text"].as_str().unwrap_or("").to_string()
                }
                FileText::InFile { .. } => unreachable!("read as held"),
            })
            .collect()
    }

    #[test]
    fn a_rollback_drops_the_last_user_turns_and_two_markers_add_up() {
        let lines = [
            user("a"),
            assistant("A"),
            user("b"),
            assistant("B"),
            user("c"),
            assistant("C"),
        ];
        let mut one = lines.to_vec();
        one.push(rollback(1));
        assert_eq!(texts(&replay(&one)), ["a", "A", "b", "B"]);
        let mut two = one.clone();
        two.push(rollback(1));
        let r = replay(&two);
        assert_eq!(texts(&r), ["a", "A"]);
        assert_eq!(r.rollbacks.len(), 2);
        assert!(r.problems.is_empty());
    }

    #[test]
    fn a_rollback_past_the_first_turn_keeps_the_leading_context_and_is_diagnosed() {
        let r = replay(&[context(), user("a"), assistant("A"), rollback(3)]);
        assert_eq!(texts(&r), ["<environment_context>x</environment_context>"]);
        assert_eq!(
            r.problems[0].fault,
            Fault::RollbackOverflow {
                num_turns: 3,
                user_turns: 1
            }
        );
    }

    #[test]
    fn a_replacement_history_replaces_everything_before_it() {
        let c = compacted(json!({"message": "s", "replacement_history": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "kept"}]}
        ]}));
        let r = replay(&[user("a"), c, assistant("after")]);
        assert_eq!(texts(&r), ["kept", "after"]);
        assert!(matches!(r.base, Base::Replacement { .. }));
        assert_eq!(r.items[0].origin, Origin::ReplacementHistory);
    }

    #[test]
    fn a_compaction_whose_metadata_length_differs_is_skipped() {
        let entry = |t: &str| {
            json!({"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": t}]})
        };
        let good = compacted(
            json!({"message": "s", "replacement_history": [entry("base")], "window_number": 1}),
        );
        let bad = compacted(
            json!({"message": "s", "replacement_history": [entry("lost")],
            "replacement_history_metadata": [{}, {}]}),
        );
        let r = replay(&[user("a"), good, assistant("x"), bad, assistant("y")]);
        assert_eq!(texts(&r), ["base", "x", "y"]);
        assert_eq!(r.problems.len(), 1);
        assert_eq!(
            r.problems[0].fault,
            Fault::CompactionMetadataLen {
                history: Some(1),
                metadata: 2
            }
        );
    }

    #[test]
    fn a_legacy_compaction_rebuilds_from_user_messages_and_summary() {
        let bare = compacted(json!({"message": "the summary"}));
        let r = replay(&[context(), user("a"), assistant("A"), user("b"), bare]);
        let t = texts(&r);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1], format!("{BRIDGE_HEAD}a\n\nb{BRIDGE_TAIL}the summary"));
        let framed = compacted(json!({"message": format!("{SUMMARY_PREFIX} framed")}));
        let r = replay(&[context(), user("a"), assistant("A"), user("b"), framed]);
        let t = texts(&r);
        assert_eq!(
            t[1..],
            [
                "a".to_string(),
                "b".into(),
                format!("{SUMMARY_PREFIX} framed")
            ]
        );
        assert!(matches!(r.base, Base::Rebuild { .. }));
    }

    #[test]
    fn a_long_user_message_is_read_back_when_a_legacy_compaction_needs_it() {
        let long = "y".repeat(10_000);
        let lines = [user(&long), compacted(json!({"message": "s"}))];
        let mut h = History::new();
        let mut asked = 0;
        testkit::each_record(&testkit::jsonl(&lines), |rec| {
            let mut read = |i: &Item| {
                asked += 1;
                match &i.body {
                    FileText::Held(s) => crate::replay::item::message_text(s),
                    FileText::InFile { .. } => None,
                }
            };
            let _ = h.record(rec, At::of(rec, 0), Origin::Record, false, &mut read);
        });
        let r = h.finish();
        assert_eq!(asked, 1);
        assert_eq!(texts(&r), [format!("{BRIDGE_HEAD}{long}{BRIDGE_TAIL}s")]);
    }

    #[test]
    fn a_replacement_history_entry_that_is_not_an_object_skips_the_compaction() {
        let bad = compacted(json!({"message": "s", "replacement_history": [1, "x"]}));
        let r = replay(&[user("a"), bad, assistant("b")]);
        assert_eq!(texts(&r), ["a", "b"]);
        assert!(matches!(
            r.problems[0].fault,
            Fault::CompactionUndecodable { .. }
        ));
        assert_eq!(r.compactions, 0);
    }

    #[test]
    fn ghost_snapshots_are_dropped() {
        let ghost = testkit::item(json!({"type": "ghost_snapshot", "ghost_commit": {}}));
        let r = replay(&[user("a"), ghost]);
        assert_eq!(r.items.len(), 1);
    }

    /// What upstream's reader turns into retained context, and nothing else
    /// (`rollout_payload.rs`): the real 0.171 sent the message when its marker or its
    /// `turn_id` was taken away.
    #[test]
    fn a_delivered_assistant_message_and_a_configuration_update_are_not_model_input() {
        let delivered = |marker: &str, turn: bool, parts: usize| {
            let mut item = json!({"type": "message", "role": "assistant",
                "content": vec![json!({"type": "output_text", "text": "sent"}); parts]});
            if turn {
                item["internal_chat_message_metadata_passthrough"] = json!({"turn_id": "t1"});
            }
            testkit::item(item)
                .metadata(json!({"delivered_assistant_message": marker, "user_input_order": 2}))
        };
        let complete = "codex:code-mode-delivery:v1:complete";
        let config = testkit::item(json!({"type": "configuration_update", "reasoning": {}}));
        let cases = [
            (delivered(complete, true, 1), 1),
            (
                delivered("codex:code-mode-delivery:v1:incomplete:cut", true, 1),
                1,
            ),
            (delivered(complete, false, 1), 2),
            (delivered(complete, true, 2), 2),
            (delivered("other", true, 1), 2),
            (config, 1),
        ];
        for (i, (line, n)) in cases.into_iter().enumerate() {
            assert_eq!(replay(&[user("a"), line]).items.len(), n, "case {i}");
        }
    }
}
