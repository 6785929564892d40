//! The session state a resume restores beside the history (Codex's
//! `rollout_reconstruction.rs` reverse scan, and its token-info recovery): the latest
//! `turn_context` compatible with its turn, the world state (a full snapshot, then RFC 7396
//! merge patches, cleared by a compaction), and the last token usage.
//!
//! The records are noted where they lie while the replay reads; the state is made at the
//! end, once the turn segmentation says which turns a rollback dropped (a dropped turn's
//! context and world-state records do not survive, as in Codex's reverse scan).

use imbl::Vector;
use serde_json::Value;

use super::history::Effect;
use super::item::At;
use crate::analysis::turns::{self, TurnStatus, Turns};
use crate::codex::shape;
use crate::decode::{select, Kind, Record};
use crate::input::FileText;

/// A world-state event, in file order.
#[derive(Debug, Clone)]
enum World {
    Full(FileText),
    Patch(FileText),
    /// A compaction: the baseline is cleared.
    Reset,
}

/// Notes the state records while the replay reads, in persistent vectors: a copy shares
/// them (the forks of a lineage each take its rebuild: [`super::shared`]).
#[derive(Debug, Default, Clone)]
pub struct StateLog {
    /// The turn id of the turn being read (from its `task_started`), per file.
    turn_id: Option<String>,
    /// Each context and world-state event with the turn frame it was written in.
    turn_contexts: Vector<(At, FileText, usize)>,
    world: Vector<(At, World, usize)>,
    /// The turns as the replay reads them, across every file: a rollback that drops a
    /// turn's user message drops its state too, wherever the turn was written (a fork's
    /// marker can drop its source's turns). These are not the file's turns that
    /// `analysis::turns` segments (one file, its start events chosen over the whole file)
    /// but the history's user turns as a resume meets them, file after file; what starts a
    /// turn and which turn a `task_started` names are read as the segmentation reads them
    /// ([`turns::started_turn_id`]), and within the file replayed its rolled-back turns
    /// are the segmentation's ([`StateLog::finish`]).
    frames: Vector<Frame>,
    /// A `task_started` was read in the file being read: it, not user messages, begins turns.
    task_started_seen: bool,
    token_info: Option<(At, FileText)>,
    /// `turn_context` records Codex's decoder rejects, and why.
    undecodable: Vector<(At, String)>,
}

/// One turn as the state sees it.
#[derive(Debug, Clone, Default)]
struct Frame {
    /// The history index of its first real user message (its boundary), while the history
    /// still holds it.
    boundary: Option<usize>,
    dropped: bool,
}

/// The state at the end of the replay.
#[derive(Debug, Default)]
pub struct State {
    pub turn_context: Option<(At, Value)>,
    pub world_state: Option<Value>,
    /// The full snapshot the world state rests on.
    pub world_state_base: Option<At>,
    pub world_state_patches: u64,
    pub token_info: Option<(At, Value)>,
    /// World-state patches that came before any full snapshot (Codex ignores them).
    pub patches_before_full: Vec<At>,
    /// `turn_context` records Codex skips, its decoder rejecting them (`codex::shape`): the
    /// settings come from the one before.
    pub undecodable_contexts: Vec<(At, String)>,
}

impl StateLog {
    /// A new file begins: no turn is open in it yet.
    pub fn new_file(&mut self) {
        self.turn_id = None;
        self.task_started_seen = false;
    }

    fn frame(&mut self) -> usize {
        if self.frames.is_empty() {
            self.frames.push_back(Frame::default());
        }
        self.frames.len() - 1
    }

    /// One record, and what it did to the history (a compaction Codex cannot decode
    /// clears nothing).
    pub fn record(&mut self, rec: &Record<'_>, at: At, rereadable: bool, effect: Effect) {
        match effect {
            Effect::User(index) => {
                // Without task_started, each real user message begins a turn.
                let f = self.frame();
                let bounded = self.frames.get(f).is_some_and(|f| f.boundary.is_some());
                if bounded && !self.task_started_seen {
                    self.frames.push_back(Frame::default());
                }
                let f = self.frame();
                if let Some(f) = self.frames.get_mut(f) {
                    f.boundary.get_or_insert(index);
                }
            }
            Effect::RolledBack(len) => {
                for f in self.frames.iter_mut() {
                    if f.boundary.is_some_and(|b| b >= len) {
                        f.dropped = true;
                        f.boundary = None;
                    }
                }
            }
            Effect::Compaction => {
                // The old indices mean nothing in the replaced history.
                for f in self.frames.iter_mut() {
                    f.boundary = None;
                }
            }
            Effect::None => {}
        }
        let compaction = effect == Effect::Compaction;
        match rec.kind {
            Kind::EventMsg => match rec.payload_type() {
                Some("task_started") => {
                    self.task_started_seen = true;
                    self.frames.push_back(Frame::default());
                    self.turn_id = turns::started_turn_id(rec);
                }
                Some("token_count") => {
                    if let Some(info) = rec.payload_field("info").filter(|v| *v != "null") {
                        self.token_info = Some((at, FileText::of(rec, info, rereadable)));
                    }
                }
                _ => {}
            },
            Kind::TurnContext => {
                let mut shape = shape::Shape::turn_context();
                let read = rec.payload_members(|k, v| shape.member(k, v));
                // A key with an escape (members not all known): not judged.
                if read.is_some() || shape.failed() {
                    if let Some(error) = shape.finish() {
                        self.undecodable.push_back((at, error));
                        return;
                    }
                }
                let id = rec.payload_field("turn_id").and_then(select::str_value);
                // Only a context compatible with its turn counts (either id unknown, or the
                // same).
                let compatible = match (&id, &self.turn_id) {
                    (Some(a), Some(b)) => a.as_ref() == b.as_str(),
                    _ => true,
                };
                if compatible {
                    let f = self.frame();
                    self.turn_contexts.push_back((
                        at,
                        FileText::of(rec, rec.payload.get(), rereadable),
                        f,
                    ));
                }
            }
            Kind::WorldState => {
                let body = FileText::of(rec, rec.payload.get(), rereadable);
                let full = rec.payload_field("full") == Some("true");
                let ev = if full {
                    World::Full(body)
                } else {
                    World::Patch(body)
                };
                let f = self.frame();
                self.world.push_back((at, ev, f));
            }
            Kind::Compacted if compaction => {
                let f = self.frame();
                self.world.push_back((at, World::Reset, f));
            }
            _ => {}
        }
    }

    /// The state. `turns` is the segmentation of the file replayed (file 0): what lies in a
    /// rolled-back turn of it does not count. `read` gives a body's JSON text.
    pub fn finish(
        self,
        turns: Option<&Turns>,
        mut read: impl FnMut(&At, &FileText) -> Option<String>,
    ) -> State {
        // Dropped: in a turn the segmentation of the file replayed marks rolled back (the
        // code `turns` shares), or in a frame a rollback dropped (a source's turns).
        let frames = &self.frames;
        let rolled_back = |at: &At, frame: usize| {
            frames.get(frame).is_some_and(|f| f.dropped)
                || at.file == 0
                    && turns
                        .and_then(|t| t.turns.get(t.turn_of(at.line)?))
                        .is_some_and(|t| t.status == TurnStatus::RolledBack)
        };
        let mut parse = |at: &At, b: &FileText| {
            read(at, b).and_then(|t| serde_json::from_str::<Value>(&t).ok())
        };
        let mut st = State {
            turn_context: None,
            world_state: None,
            world_state_base: None,
            world_state_patches: 0,
            token_info: None,
            patches_before_full: Vec::new(),
            undecodable_contexts: self.undecodable.iter().cloned().collect(),
        };
        st.turn_context = self
            .turn_contexts
            .iter()
            .rev()
            .find(|(at, _, f)| !rolled_back(at, *f))
            .and_then(|(at, b, _)| Some((*at, parse(at, b)?)));
        st.token_info = self
            .token_info
            .as_ref()
            .and_then(|(at, b)| Some((*at, parse(at, b)?)));
        // Which events count, and where the last baseline begins: only the snapshot and the
        // patches after it are parsed (a file writes a full snapshot per turn).
        let world: Vec<(At, &World)> = self
            .world
            .iter()
            .filter(|(at, _, f)| !rolled_back(at, *f))
            .map(|(at, ev, _)| (*at, ev))
            .collect();
        let mut has_baseline = false;
        let mut from = None;
        for (i, (at, ev)) in world.iter().enumerate() {
            match ev {
                World::Reset => {
                    has_baseline = false;
                    from = Some(i);
                }
                World::Full(_) => {
                    has_baseline = true;
                    from = Some(i);
                }
                World::Patch(_) if !has_baseline => st.patches_before_full.push(*at),
                World::Patch(_) => {}
            }
        }
        let mut baseline: Option<Value> = None;
        for &(at, ev) in from.and_then(|i| world.get(i..)).unwrap_or_default() {
            let at = &at;
            match ev {
                World::Reset => {}
                World::Full(b) => {
                    baseline = parse(at, b).and_then(|mut v| v.get_mut("state").map(Value::take));
                    st.world_state_base = Some(*at);
                }
                World::Patch(b) => {
                    let patch = parse(at, b).and_then(|mut v| v.get_mut("state").map(Value::take));
                    if let (Some(base), Some(patch)) = (&mut baseline, patch) {
                        json_patch::merge(base, &patch);
                        st.world_state_patches += 1;
                    }
                }
            }
        }
        st.world_state = baseline;
        st
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit;
    use serde_json::json;

    fn state(lines: &[testkit::Line]) -> State {
        let mut log = StateLog::default();
        testkit::each_record(&testkit::jsonl(lines), |rec| {
            let at = At::of(rec, 0);
            let effect = if rec.kind == Kind::Compacted {
                Effect::Compaction
            } else {
                Effect::None
            };
            log.record(rec, at, false, effect);
        });
        log.finish(None, |_, b| match b {
            FileText::Held(s) => Some(s.to_string()),
            FileText::InFile { .. } => None,
        })
    }

    fn world(full: bool, state: Value) -> testkit::Line {
        testkit::line("world_state", json!({"full": full, "state": state}))
    }

    #[test]
    fn a_patch_merges_per_rfc_7396_and_one_before_any_full_snapshot_is_diagnosed() {
        let st = state(&[
            world(false, json!({"a": 1})),
            world(true, json!({"a": {"b": "c", "d": 1}, "e": [1]})),
            world(false, json!({"a": {"b": "z", "d": null}, "f": true})),
        ]);
        assert_eq!(
            st.world_state,
            Some(json!({"a": {"b": "z"}, "e": [1], "f": true}))
        );
        assert_eq!(st.world_state_patches, 1);
        assert_eq!(st.patches_before_full.len(), 1);
        assert_eq!(st.patches_before_full[0].line, 1);
    }

    #[test]
    fn a_compaction_clears_the_world_state() {
        let st = state(&[
            world(true, json!({"a": 1})),
            testkit::line("compacted", json!({"message": "s"})),
            world(false, json!({"b": 1})),
        ]);
        assert_eq!(st.world_state, None);
        assert_eq!(st.patches_before_full.len(), 1);
    }

    #[test]
    fn only_a_turn_context_of_its_own_turn_counts() {
        let st = state(&[
            testkit::event(json!({"type": "task_started", "turn_id": "t1"})),
            testkit::turn_context(
                json!({"turn_id": "t1", "model": "good", "cwd": "/w", "approval_policy": "never"}),
            ),
            testkit::turn_context(
                json!({"turn_id": "other", "model": "bad", "cwd": "/w", "approval_policy": "never"}),
            ),
            // Codex cannot decode it (`cwd` missing): skipped, as the real 0.171 skips it.
            testkit::turn_context(json!({"turn_id": "t1", "model": "undecodable"})),
            testkit::event(json!({"type": "token_count", "info": {"total": 1}})),
            testkit::event(json!({"type": "token_count", "info": null})),
        ]);
        assert_eq!(st.turn_context.unwrap().1["model"], "good");
        assert_eq!(st.undecodable_contexts.len(), 1);
        assert_eq!(st.token_info.unwrap().1, json!({"total": 1}));
    }
}
