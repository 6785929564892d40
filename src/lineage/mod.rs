//! Lineage: a paginated fork or revert continues a source rollout named by its rollout id
//! (`session_meta.history_base`). This module finds that source on disk ([`resolve`]), reads
//! it, its own lineage first ([`follow`], the one reader `replay`, `lint` and
//! `check-ordinal` share), and judges whether the cutoff points at a real boundary of it
//! ([`check`]), as facts ([`Problem`]) the `history_base.*` rules turn into findings.
//!
//! The rules (upstream's fork code, which trims a lineage at its `history_base`, and what
//! the real 0.171 writes; `docs/check-ordinal.md`): `history_base.thread_id` holds the source's **rollout** id: the part of its file name
//! after `_` in `rollout-<ts>-<thread>_<rollout>.jsonl`, or the thread id when there is no
//! `_`. The real 0.171 revert's new file names its base by the old file's id, which has no
//! `_`; the fork's child names its parent's.

pub mod check;
pub mod follow;
pub mod resolve;

pub use check::{Boundary, Fault, Problem};

/// The most lineage sources (the rollouts a file's `history_base` chain reads before it)
/// that Codex resumes a file with. The real Codex 0.171 resumed the last fork of a chain of
/// 987 and refused 988 and more ("failed to list thread history: … Expression tree is too
/// large (maximum depth 1000)": its thread store pages the history with one SQL clause per
/// newer segment); it has no lineage limit of its own (`testdata/replay/deep-chain/`).
pub const CODEX_MAX_SOURCES: usize = 987;
pub use follow::{Followed, Follower, JudgeOnly, Kept, Resume, Visitor};
pub use resolve::{Place, Resolver};

/// The ids a rollout's file name declares (kept beside discovery's name rules).
pub use crate::input::placement::{ids_from_file_name, rollout_id_from_file_name};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_names() {
        let plain = "rollout-2026-11-29T12-31-25-01a22749-ec63-7791-aa7e-90f634c94a03.jsonl";
        assert_eq!(
            ids_from_file_name(plain),
            Some((
                "01a22749-ec63-7791-aa7e-90f634c94a03",
                "01a22749-ec63-7791-aa7e-90f634c94a03"
            ))
        );
        let revert = "rollout-2026-11-29T12-31-26-01a22749-ec63-7791-aa7e-90f634c94a03_01a22749-ed72-7ef2-83d3-0a2ada3ba658.jsonl.zst";
        assert_eq!(
            rollout_id_from_file_name(revert),
            Some("01a22749-ed72-7ef2-83d3-0a2ada3ba658")
        );
        assert_eq!(rollout_id_from_file_name("rollout-short.jsonl"), None);
        assert_eq!(rollout_id_from_file_name("notes.jsonl"), None);
        assert_eq!(
            rollout_id_from_file_name("rollout-2026-11-29T12-31-26-_.jsonl"),
            None
        );
        assert_eq!(
            rollout_id_from_file_name("rollout-2026-11-29T12-31-2é-x.jsonl"),
            None
        );
    }
}
