//! Rollback: which turns `thread_rolled_back {num_turns}` markers drop, as Codex's
//! `drop_last_n_user_turns` drops them. One piece of code for every reader of a rollback
//! (the `rolled_back` status of `turns`, and the history a resume rebuilds).

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::decode::Record;

/// A turn as rollback sees it: the line it begins at, and whether it is a user turn (holds
/// a real user message: only those are counted by `num_turns`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub line: u64,
    pub user: bool,
}

/// `thread_rolled_back.num_turns` as Codex decodes it: a `u32`. Anything else (a string,
/// a fraction, a negative or larger number, no field) fails to decode the whole line in
/// Codex, so the marker rolls nothing back.
pub fn marker(rec: &Record<'_>) -> Option<u32> {
    #[derive(Deserialize)]
    struct Rollback<'a> {
        #[serde(borrow)]
        num_turns: Option<&'a RawValue>,
    }
    let r: Rollback<'_> = rec.parse_payload().ok()?;
    serde_json::from_str::<u32>(r.num_turns?.get()).ok()
}

/// The user-turn boundaries of a sequence that grows at its end and is cut back by
/// rollbacks: the turns of a file (for `turns`' `rolled_back` status), or the items of a
/// rebuilt history (for `replay`). This is Codex's `drop_last_n_user_turns`, in one place.
#[derive(Debug, Clone, Default)]
pub struct Boundaries {
    /// The positions of the user elements among the standing ones. Persistent: a fork's
    /// history starts as a copy of its lineage's, and a chain of forks copied this one
    /// every fork (its length grows with the chain's depth).
    users: imbl::Vector<usize>,
    /// How many elements stand.
    len: usize,
}

impl Boundaries {
    /// One element more at the end; `user` when it is a user turn's boundary.
    pub fn push(&mut self, user: bool) {
        if user {
            self.users.push_back(self.len);
        }
        self.len += 1;
    }

    /// How many elements stand.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no element stands.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many user boundaries stand.
    pub fn user_turns(&self) -> usize {
        self.users.len()
    }

    /// Roll back `num` user turns: cut at the `num`-th user boundary from the end (at the
    /// first one when `num` is larger) and drop everything from there. The new length,
    /// or `None` when nothing is dropped (`num` is 0, or no user boundary stands).
    pub fn roll_back(&mut self, num: u32) -> Option<usize> {
        if num == 0 || self.users.is_empty() {
            return None;
        }
        let k = usize::try_from(num)
            .unwrap_or(usize::MAX)
            .min(self.users.len());
        // 1 <= k <= users.len(): the boundary `k` from the end.
        let at = self.users.len() - k;
        let cut = *self.users.get(at)?;
        self.users.truncate(at);
        self.len = cut;
        Some(cut)
    }
}

/// Apply `markers` (line and `num_turns`, in file order) to `spans` (in file order): among
/// the spans that began before a marker and still stand, cut at the `num`-th user span from
/// the end and drop everything from there. Consecutive markers add up. Whether each span is
/// dropped.
///
/// The standing spans form a stack (a marker only ever drops a suffix of them), so each span
/// is pushed and dropped at most once: linear in spans plus markers.
pub fn dropped(spans: &[Span], markers: &[(u64, u32)]) -> Vec<bool> {
    let mut out = vec![false; spans.len()];
    // Standing spans, in order, and their user boundaries.
    let mut standing: Vec<usize> = Vec::new();
    let mut bounds = Boundaries::default();
    let mut next = 0;
    for &(line, num) in markers {
        while let Some(span) = spans.get(next).filter(|s| s.line < line) {
            bounds.push(span.user);
            standing.push(next);
            next += 1;
        }
        if let Some(cut) = bounds.roll_back(num) {
            // `standing` holds indices of `spans`; `out` has one entry a span.
            for &i in standing.iter().skip(cut) {
                if let Some(d) = out.get_mut(i) {
                    *d = true;
                }
            }
            standing.truncate(cut);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition: each marker recomputes the standing spans and cuts at its
    /// `num`-th user span from the end.
    fn naive(spans: &[Span], markers: &[(u64, u32)]) -> Vec<bool> {
        let mut rolled = vec![false; spans.len()];
        for &(line, num) in markers {
            let standing: Vec<usize> = (0..spans.len())
                .filter(|&i| spans[i].line < line && !rolled[i])
                .collect();
            let users: Vec<usize> = standing
                .iter()
                .copied()
                .filter(|&i| spans[i].user)
                .collect();
            if num == 0 || users.is_empty() {
                continue;
            }
            let k = (num as usize).min(users.len());
            let cut = users[users.len() - k];
            for i in standing {
                if i >= cut {
                    rolled[i] = true;
                }
            }
        }
        rolled
    }

    #[test]
    fn the_linear_rollback_matches_the_definition() {
        let mut rand = crate::testkit::xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..500 {
            let (mut spans, mut markers) = (Vec::new(), Vec::new());
            let mut line = 1;
            for _ in 0..rand(12) {
                line += 1;
                if rand(3) == 0 {
                    markers.push((line, rand(4) as u32));
                } else {
                    spans.push(Span {
                        line,
                        user: rand(4) != 0,
                    });
                }
            }
            assert_eq!(
                dropped(&spans, &markers),
                naive(&spans, &markers),
                "{spans:?} {markers:?}"
            );
        }
    }

    #[test]
    fn consecutive_markers_add_up_and_a_large_one_drops_every_user_turn() {
        let s = |line, user| Span { line, user };
        let spans = [s(2, true), s(5, true), s(8, false), s(9, true)];
        assert_eq!(
            dropped(&spans, &[(10, 1), (11, 1)]),
            [false, true, true, true]
        );
        assert_eq!(dropped(&spans, &[(10, u32::MAX)]), [true; 4]);
        // A marker only sees the spans that began before it.
        assert_eq!(dropped(&spans, &[(6, 1)]), [false, true, false, false]);
        assert_eq!(dropped(&spans, &[(1, 3)]), [false; 4]);
    }
}
