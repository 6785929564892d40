//! The pairing of a rebuilt history's calls and outputs, as Codex's normalisation pairs them
//! before it sends the history (`ContextManager::for_prompt`, upstream
//! `context_manager/normalize.rs`, as real Codex does it): an output whose call is not in
//! the history is dropped; a call with no output gets a synthetic `aborted` output right
//! after it; a duplicated output is sent twice (verified with 0.147 and 0.171, where
//! upstream's source reads as if it collapsed them); system messages are not sent.
//!
//! The pairing is over the rebuilt history, not the file: a compaction or a rollback
//! changes which calls and outputs meet, so `calls`' pairing of the file's records cannot
//! answer it.
//!
//! Paired forward, item by item, in persistent collections: the history keeps its pairing
//! as it grows ([`super::history::History::pair`]), and a fork takes its lineage's with
//! the items it inherits ([`super::shared`]), so it pairs its own items alone. What Codex
//! decides over the whole history, the forward pass decides as each item comes, but for
//! one case: a call that comes after an output dropped for want of it keeps that output
//! after all; then the whole history is paired again at once ([`Pairing::whole`]).

use std::sync::Arc;

use foldhash::fast::RandomState;
use imbl::shared_ptr::DefaultSharedPtr;
use imbl::{GenericHashMap, GenericHashSet, OrdMap, OrdSet, Vector};

use super::item::{At, Item, Items, Kind, Origin};
use crate::model::OutputType;

/// A call and the outputs that answer it meet on this: the output's type (a call's by
/// [`crate::model::CallType::answer`]) and the call id.
type Key = (OutputType, Arc<str>);
type Set = GenericHashSet<Key, RandomState, DefaultSharedPtr>;
type Map<V> = GenericHashMap<Key, V, RandomState, DefaultSharedPtr>;

/// What the pairing of a history found, for the items paired so far: which the prompt
/// drops, which calls get a synthetic output, which outputs answer a call again. A copy
/// shares what it holds.
#[derive(Debug, Clone, Default)]
pub struct Pairing {
    /// Items paired.
    len: usize,
    /// The calls, by the output type that answers them.
    calls: Set,
    /// The outputs with a call id, by key, with where the first one the prompt keeps lies.
    answered: Map<Answered>,
    /// The calls with no output (yet), by key: an output that comes answers them all. They
    /// get a synthetic output.
    waiting: Map<Waiting>,
    /// How many calls wait.
    waiting_len: usize,
    /// System messages: never sent.
    system: OrdSet<usize>,
    /// Outputs dropped: their call is not in the history.
    orphaned: OrdSet<usize>,
    /// Their keys: a call with one of them, coming later, keeps them after all.
    orphan_keys: Set,
    /// Outputs that answer a call again, and where the first lies in the file replayed.
    duplicates: OrdMap<usize, Option<At>>,
}

/// The outputs of one key.
#[derive(Debug, Clone, Copy, Default)]
struct Answered {
    /// Where the first output the prompt keeps lies in the file replayed, once one is kept.
    first_kept: Option<Option<At>>,
}

/// The calls of one key that wait for an output: almost always one, held without a vector
/// of its own (a call-heavy file's pairing made and dropped one a call).
#[derive(Debug, Clone)]
enum Waiting {
    One(usize),
    More(Vector<usize>),
}

impl Waiting {
    fn push(&mut self, n: usize) {
        match self {
            Waiting::One(m) => *self = Waiting::More(Vector::from_iter([*m, n])),
            Waiting::More(v) => v.push_back(n),
        }
    }

    fn len(&self) -> usize {
        match self {
            Waiting::One(_) => 1,
            Waiting::More(v) => v.len(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let (one, more) = match self {
            Waiting::One(n) => (Some(*n), None),
            Waiting::More(v) => (None, Some(v.iter().copied())),
        };
        one.into_iter().chain(more.into_iter().flatten())
    }
}

/// What an item is to the pairing.
enum Role {
    System,
    /// A call a synthetic output may answer.
    Call(Key),
    /// An output: its key when it has a call id, and whether it stays without its call.
    Output(Option<Key>, bool),
    None,
}

fn role(i: &Item) -> Role {
    match &i.meta.kind {
        Kind::Message { role } if *role == Some("system") => Role::System,
        // Upstream's `ensure_call_outputs_present` answers only a call with a call id (a
        // `local_shell_call` or `tool_search_call` may have none; the other calls cannot be
        // decoded without one).
        Kind::Call {
            type_,
            call_id: Some(id),
            ..
        } => match type_.answer() {
            Some(answer) => Role::Call((answer, id.clone())),
            None => Role::None,
        },
        // `remove_orphan_outputs` keeps a server-side tool search's output, and a tool search
        // or function output with no call id (0.171 sends a `function_call_output` written
        // without `call_id`: `testdata/typed/shell171`); any other output needs its call.
        Kind::Output {
            type_,
            call_id,
            execution,
        } => {
            let stays = match type_ {
                OutputType::ToolSearch => {
                    execution.as_deref() == Some("server") || call_id.is_none()
                }
                OutputType::Function => call_id.is_none(),
                OutputType::Custom => false,
            };
            Role::Output(call_id.as_ref().map(|id| (*type_, id.clone())), stays)
        }
        _ => Role::None,
    }
}

/// Where an output lies in the file replayed (`None` in a lineage source or made).
fn own(i: &Item) -> Option<At> {
    i.at.filter(|a| a.file == 0)
}

impl Pairing {
    /// The pairing of `items` as a whole.
    pub fn whole(items: &Items) -> Pairing {
        let mut p = Pairing::default();
        let roles: Vec<Role> = items.iter().map(|i| role(i)).collect();
        for r in &roles {
            match r {
                Role::Call(key) => {
                    p.calls.insert(key.clone());
                }
                Role::Output(Some(key), _) => {
                    p.answered.entry(key.clone()).or_default();
                }
                _ => {}
            }
        }
        for ((n, r), i) in roles.into_iter().enumerate().zip(items) {
            match r {
                Role::System => {
                    p.system.insert(n);
                }
                Role::Call(key) if !p.answered.contains_key(&key) => p.wait(key, n),
                Role::Output(key, stays) => {
                    let has_call = key.as_ref().is_some_and(|k| p.calls.contains(k));
                    if !has_call && !stays {
                        p.orphaned.insert(n);
                        p.orphan_keys.extend(key);
                    } else if let Some(key) = key {
                        p.kept_output(n, key, own(i));
                    }
                }
                Role::Call(_) | Role::None => {}
            }
        }
        p.len = items.len();
        p
    }

    /// Pair the items of `items` past those paired already (`items` holds those first, as
    /// they were). The whole history is paired again when a call keeps an output dropped
    /// before it.
    pub fn extend(&mut self, items: &Items) {
        let mut tangled = false;
        // Through a focus, which holds the chunk it last read: not skipped, as a skip
        // walks every item before.
        let mut focus = items.focus();
        for n in self.len..items.len() {
            let Some(i) = focus.get(n) else { break };
            match role(i) {
                Role::System => {
                    self.system.insert(n);
                }
                Role::Call(key) => {
                    tangled |= self.orphan_keys.contains(&key);
                    if !self.answered.contains_key(&key) {
                        self.wait(key.clone(), n);
                    }
                    self.calls.insert(key);
                }
                Role::Output(key, stays) => {
                    let has_call = key.as_ref().is_some_and(|k| self.calls.contains(k));
                    if let Some(calls) = key.as_ref().and_then(|k| self.waiting.remove(k)) {
                        self.waiting_len -= calls.len();
                    }
                    if !has_call && !stays {
                        self.orphaned.insert(n);
                        if let Some(key) = key {
                            self.answered.entry(key.clone()).or_default();
                            self.orphan_keys.insert(key);
                        }
                    } else if let Some(key) = key {
                        self.kept_output(n, key, own(i));
                    }
                }
                Role::None => {}
            }
        }
        self.len = items.len();
        if tangled {
            *self = Pairing::whole(items);
        }
    }

    /// Call `n` waits for an output of `key`.
    fn wait(&mut self, key: Key, n: usize) {
        match self.waiting.get_mut(&key) {
            Some(calls) => calls.push(n),
            None => {
                self.waiting.insert(key, Waiting::One(n));
            }
        }
        self.waiting_len += 1;
    }

    /// An output the prompt keeps: the first for its key, or one answering a call again
    /// (`key` is among the answered: every output with a key is).
    fn kept_output(&mut self, n: usize, key: Key, at: Option<At>) {
        let outputs = self.answered.entry(key).or_default();
        match outputs.first_kept {
            Some(first) => {
                self.duplicates.insert(n, first);
            }
            None => outputs.first_kept = Some(at),
        }
    }

    /// Items paired.
    pub fn paired(&self) -> usize {
        self.len
    }

    /// Whether the prompt drops item `n`.
    pub fn drops(&self, n: usize) -> bool {
        self.system.contains(&n) || self.orphaned.contains(&n)
    }

    /// Items the prompt drops.
    pub fn dropped(&self) -> usize {
        self.system.len() + self.orphaned.len()
    }

    /// The calls that get a synthetic output right after them, in history order.
    pub fn unanswered(&self) -> impl Iterator<Item = usize> + use<> {
        let mut calls: Vec<usize> = self.waiting.values().flat_map(Waiting::iter).collect();
        calls.sort_unstable();
        calls.into_iter()
    }

    /// Calls that get a synthetic output.
    pub fn unanswered_len(&self) -> usize {
        self.waiting_len
    }
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
    items: &Items,
    p: &Pairing,
    open_from: Option<u64>,
    copied: &dyn Fn(u64) -> bool,
) -> Vec<PairFact> {
    let fact = |i: &Item, pair| PairFact {
        pair,
        at: i.at,
        origin: i.origin,
    };
    let call_id = |i: &Item| i.meta.call_id().unwrap_or_default().to_string();
    let mut out = Vec::new();
    for i in p.unanswered().filter_map(|n| items.get(n)) {
        let open_turn =
            matches!((i.at, open_from), (Some(a), Some(o)) if a.file == 0 && a.line >= o);
        let inherited = matches!(i.at, Some(a) if a.file == 0 && copied(a.line));
        let pair = Pair::CallWithoutOutput {
            call_id: call_id(i),
            open_turn,
            inherited,
        };
        out.push(fact(i, pair));
    }
    // The dropped outputs and the duplicates, merged in item order.
    let mut orphaned = p.orphaned.iter().map(|&n| (n, None)).peekable();
    let mut duplicates = p.duplicates.iter().map(|(&n, &f)| (n, Some(f))).peekable();
    loop {
        let orphan_first = match (orphaned.peek(), duplicates.peek()) {
            (Some((o, _)), Some((d, _))) => o < d,
            (o, d) => o.is_some() && d.is_none(),
        };
        let next = if orphan_first {
            orphaned.next()
        } else {
            duplicates.next()
        };
        let Some((n, duplicate_of)) = next else { break };
        let Some(i) = items.get(n) else { continue };
        let call_id = call_id(i);
        let pair = match duplicate_of {
            Some(first) => Pair::OutputDuplicate { call_id, first },
            None => Pair::OutputWithoutCall { call_id },
        };
        out.push(fact(i, pair));
    }
    out.sort_by_key(|f| f.at.filter(|a| a.file == 0).map_or(0, |a| a.line));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::FileText;
    use crate::replay::item::Meta;
    use proptest::prelude::*;

    /// The items the pairing tells apart: messages, each call and output type, with one of
    /// three call ids or none, a tool search's output run on the server or the client.
    const KINDS: [&str; 12] = [
        r#"{"type":"message","role":"system","content":[]}"#,
        r#"{"type":"message","role":"user","content":[]}"#,
        r#"{"type":"function_call","call_id":"ID","name":"shell"}"#,
        r#"{"type":"function_call","name":"shell"}"#,
        r#"{"type":"custom_tool_call","call_id":"ID","name":"apply_patch"}"#,
        r#"{"type":"tool_search_call","call_id":"ID"}"#,
        r#"{"type":"function_call_output","call_id":"ID","output":"1"}"#,
        r#"{"type":"function_call_output","output":"1"}"#,
        r#"{"type":"custom_tool_call_output","call_id":"ID","output":"1"}"#,
        r#"{"type":"tool_search_output","call_id":"ID","execution":"server"}"#,
        r#"{"type":"tool_search_output","call_id":"ID","execution":"client"}"#,
        r#"{"type":"local_shell_call","call_id":"ID"}"#,
    ];

    fn items(spec: &[(usize, usize, bool)]) -> Items {
        spec.iter()
            .enumerate()
            .map(|(n, &(kind, id, own))| {
                let json = KINDS[kind % KINDS.len()].replace("ID", ["a", "b", "c"][id % 3]);
                Item {
                    origin: Origin::Record,
                    at: Some(At {
                        file: usize::from(!own),
                        line: n as u64 + 1,
                        offset: 0,
                        ordinal: None,
                    }),
                    meta: Meta::of_json(&json),
                    body: FileText::Held(json.into()),
                }
            })
            .map(std::sync::Arc::new)
            .collect()
    }

    /// Everything the pairing says of `items`.
    fn said(items: &Items, p: &Pairing) -> (Vec<PairFact>, Vec<usize>, Vec<bool>) {
        let unanswered: Vec<usize> = p.unanswered().collect();
        assert_eq!(p.unanswered_len(), unanswered.len());
        (
            facts(items, p, Some(3), &|line| line % 4 == 0),
            unanswered,
            (0..items.len()).map(|n| p.drops(n)).collect(),
        )
    }

    proptest! {
        /// Paired forward, from nothing or from the pairing of any prefix taken as a fork
        /// takes it, a history gives what pairing it whole gives.
        #[test]
        fn paired_forward_from_any_prefix_is_paired_whole(
            spec in prop::collection::vec((0..12usize, 0..3usize, any::<bool>()), 0..40),
            cut in 0..40usize,
        ) {
            let all = items(&spec);
            let whole = Pairing::whole(&all);
            let mut forward = Pairing::default();
            forward.extend(&all);
            prop_assert_eq!(said(&all, &forward), said(&all, &whole));
            let prefix: Items = all.clone().slice(..cut.min(all.len()));
            let mut taken = Pairing::whole(&prefix);
            let shared = taken.clone();
            taken.extend(&all);
            prop_assert_eq!(said(&all, &taken), said(&all, &whole));
            // The copy the fork took from is as it was.
            prop_assert_eq!(said(&prefix, &shared), said(&prefix, &Pairing::whole(&prefix)));
        }
    }

    #[test]
    fn a_call_after_the_output_it_answers_keeps_it_however_it_is_paired() {
        // An output, then its call: Codex keeps the output (its call is in the history).
        let all = items(&[(6, 0, true), (2, 0, true), (6, 0, true)]);
        let mut forward = Pairing::whole(&all.clone().slice(..1));
        assert!(forward.drops(0));
        forward.extend(&all);
        assert!(!forward.drops(0));
        let (facts, ..) = said(&all, &forward);
        assert!(
            matches!(&facts[..], [f] if matches!(f.pair, Pair::OutputDuplicate { .. })),
            "{facts:?}"
        );
    }
}
