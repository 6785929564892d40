//! A history item as the replay holds it: where it lies (never the item itself, for a plain
//! file), where it came from, and the few facts the replay's rules read from it.

use std::sync::Arc;

use serde::Serialize;

use crate::decode::{select, Pos, Record};
use crate::input::FileText;
use crate::model::{self, CallType, OutputType, RawContent};

/// Where a history item came from (the `origin` of a history row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A `response_item` (or `inter_agent_communication`) record of the file replayed.
    Record,
    /// An entry of a `compacted.replacement_history`.
    ReplacementHistory,
    /// A message rebuilt from a legacy `compacted` without replacement history.
    CompactionRebuild,
    /// A record of a lineage source (`history_base`), read before the file's own.
    SourceRollout,
    /// Made by the prompt normalisation (`--for-prompt`): an `aborted` output.
    Synthetic,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Record => "record",
            Origin::ReplacementHistory => "replacement_history",
            Origin::CompactionRebuild => "compaction_rebuild",
            Origin::SourceRollout => "source_rollout",
            Origin::Synthetic => "synthetic",
        }
    }
}

/// Where a line was read: which file of the replay, its line and ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// 0: the file replayed; a lineage source by its place counted from the lineage's
    /// root (1: the root, read first). Counted from the root, a source has the same number
    /// in every lineage that reaches it with the same sources above it, so a lineage's
    /// rebuild is taken into a deeper one as it is ([`super::shared`]). The replay lists
    /// its files the other way, child first: [`super::Files::listed`].
    pub file: usize,
    pub line: u64,
    /// The line's byte offset.
    pub offset: u64,
    pub ordinal: Option<u64>,
}

impl At {
    /// Where `rec` lies, in file `file` of the replay.
    pub fn of(rec: &Record<'_>, file: usize) -> At {
        At {
            file,
            line: rec.pos.line,
            offset: rec.pos.offset,
            ordinal: rec.ordinal,
        }
    }

    /// Its line's position, in the file replayed (`None` in a lineage source).
    pub fn own_pos(&self) -> Option<Pos> {
        (self.file == 0).then_some(Pos {
            line: self.line,
            offset: self.offset,
        })
    }
}

/// What kind of item it is, as the replay's rules need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A `message`, with its role (`other` for a role Codex does not write).
    Message { role: Option<&'static str> },
    /// A tool call that an output answers, by its `type` (`function_call`,
    /// `custom_tool_call`, `local_shell_call`, `tool_search_call`), its call id and name.
    Call {
        type_: CallType,
        call_id: Option<Arc<str>>,
        name: Option<Arc<str>>,
    },
    /// A tool output, by its `type`, call id and (`tool_search_output`) `execution`.
    Output {
        type_: OutputType,
        call_id: Option<Arc<str>>,
        execution: Option<Arc<str>>,
    },
    /// Anything else (`reasoning`, `web_search_call`, types of newer writers).
    Other,
}

/// The facts of one history item that the replay's rules read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    pub kind: Kind,
    /// A call's `id`, when it has one (synthetic output ids derive from it).
    pub id: Option<Arc<str>>,
    /// A user turn's boundary (Codex's `is_user_turn_boundary`): a real user message. Its
    /// text is read from the item ([`message_text`]) when a legacy compaction, which
    /// rebuilds history from them, needs it: it is not held for one that rarely comes.
    pub user: bool,
    /// A contextual message: `developer`, or `user` scaffolding (initial context).
    pub contextual: bool,
    /// A message or a tool output that may hold an image (`codex::image::may_hold_image`):
    /// the only items whose images Codex prepares. Looked for only when the prompt is built
    /// ([`Meta::look_for_images`]).
    pub images: bool,
}

/// The texts of a message item's content, escapes resolved, joined by newlines.
pub fn message_text(item_json: &str) -> Option<String> {
    let [content] = select::fields(item_json, ["content"])?;
    RawContent::of(content).joined()
}

/// The members [`Meta`] is read from.
const KEYS: [&str; 7] = [
    "type",
    "role",
    "call_id",
    "id",
    "name",
    "execution",
    "content",
];

impl Meta {
    /// From a `response_item` record's payload (its members as the scanner noted them).
    pub fn of_record(rec: &Record<'_>) -> Meta {
        Meta::of_fields(rec.payload_fields(KEYS), Some(rec))
    }

    /// From the JSON text of an item (a replacement history entry).
    pub fn of_json(json: &str) -> Meta {
        Meta::of_fields(select::fields(json, KEYS).unwrap_or([None; 7]), None)
    }

    /// From an item's members; `rec`, the record it is, keeps the
    /// judgement of whether it is a message the user typed, which the turn segmentation may
    /// have made already.
    fn of_fields(
        [type_, role, call_id, id, name, execution, content]: [Option<&str>; 7],
        rec: Option<&Record<'_>>,
    ) -> Meta {
        let s = |v: Option<&str>| -> Option<Arc<str>> {
            v.and_then(select::str_value).map(|c| Arc::from(c.as_ref()))
        };
        // Known names as constants: most items allocate nothing.
        const ROLES: [&str; 4] = ["user", "assistant", "developer", "system"];
        let type_ = type_.and_then(select::str_value).unwrap_or_default();
        let (kind, id) = if type_ == "message" {
            let role = role
                .and_then(select::str_value)
                .map(|r| ROLES.iter().copied().find(|k| *k == r).unwrap_or("other"));
            (Kind::Message { role }, None)
        } else if let Some(t) = model::answered_call_type(&type_) {
            // A call is paired by its `call_id` alone: a `local_shell_call` that carries only
            // its item `id` gets no synthetic output, and an output naming that id is an
            // orphan (Codex 0.147 and 0.171 send the call as it is and drop the output, "Orphan
            // function call output": `testdata/replay/verdicts/local-shell-call-*.json`; 0.128
            // too, `testdata/replay/by-version/`).
            let kind = Kind::Call {
                type_: t,
                call_id: s(call_id),
                name: s(name),
            };
            (kind, s(id))
        } else if let Some(t) = OutputType::of(&type_) {
            let kind = Kind::Output {
                type_: t,
                call_id: s(call_id),
                execution: if t == OutputType::ToolSearch {
                    s(execution)
                } else {
                    None
                },
            };
            (kind, None)
        } else {
            (Kind::Other, None)
        };
        let (mut user, mut contextual) = (false, false);
        if let Kind::Message { role } = &kind {
            match role {
                Some("user") => {
                    let judge = || RawContent::of(content).is_real_user_message();
                    user = rec.map_or_else(judge, |r| r.judged_user_message(judge));
                    contextual = !user;
                }
                Some("developer") => contextual = true,
                _ => {}
            }
        }
        Meta {
            kind,
            id,
            user,
            contextual,
            images: false,
        }
    }

    /// Flag the item when it may hold an image: a message or a tool output (`item_json`, its
    /// JSON) where the tag is written. A search of the whole item, which only the prompt
    /// needs: the other readers leave it undone.
    pub fn look_for_images(&mut self, item_json: &str) {
        self.images = match &self.kind {
            Kind::Message { .. } => crate::codex::image::may_hold_image(item_json),
            Kind::Output { type_, .. } => {
                *type_ != OutputType::ToolSearch && crate::codex::image::may_hold_image(item_json)
            }
            _ => false,
        };
    }

    /// A call's id, for a call or an output.
    pub fn call_id(&self) -> Option<&str> {
        match &self.kind {
            Kind::Call { call_id, .. } | Kind::Output { call_id, .. } => call_id.as_deref(),
            _ => None,
        }
    }
}

/// The items of a rebuilt history: a persistent vector, each item behind its own pointer.
/// A history shared by a fork's rebuild and the fork that takes it (and by the copy a
/// lineage reader saves before each source) copies a chunk of 64 entries on its first push:
/// of pointers, not of 136-byte items and the counts of their texts (over a chain of
/// 2,000 forks that copy was a tenth of `lint`).
pub type Items = imbl::Vector<Arc<Item>>;

/// One item of a rebuilt history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub origin: Origin,
    /// Where it was read (the `compacted` line, for entries of its replacement history or a
    /// rebuild); `None` for a synthetic item.
    pub at: Option<At>,
    pub body: FileText,
    pub meta: Meta,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn an_item_stays_small() {
        // A replay holds hundreds of thousands of them; its text is three words.
        assert_eq!(size_of::<FileText>(), 24);
        assert_eq!(size_of::<Item>(), 136);
    }

    #[test]
    fn meta_reads_calls_outputs_and_user_turns() {
        let m =
            Meta::of_json(r#"{"type":"function_call","name":"shell","call_id":"c1","id":"fc_1"}"#);
        assert_eq!(m.call_id(), Some("c1"));
        assert_eq!(m.id.as_deref(), Some("fc_1"));
        let m = Meta::of_json(r#"{"type":"local_shell_call","id":"ls_1"}"#);
        assert_eq!((m.call_id(), m.id.as_deref()), (None, Some("ls_1")));
        let m = Meta::of_json(
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"hi\nthere"}]}"#,
        );
        assert!(m.user && !m.contextual);
        let short = r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"hi\nthere"}]}"#;
        assert_eq!(message_text(short).as_deref(), Some("hi\nthere"));
        let m = Meta::of_json(
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]}"#,
        );
        assert!(!m.user && m.contextual);
        let m = Meta::of_json(r#"{"type":"message","role":"developer","content":[]}"#);
        assert!(!m.user && m.contextual);
    }
}
