//! What Codex's resume picker reads of a file's head: whether it finds a preview there.
//!
//! The listing reads `HEAD_RECORD_LIMIT` (10) records, then up to `USER_EVENT_SCAN_LIMIT`
//! (200) more (`rollout/src/list.rs`), for a record to preview the thread by: a
//! `user_message` event, a `thread_goal_updated`, or in a paginated file (which persists no
//! `user_message`, so this is inferred) an `item_completed` `UserMessage`.

use crate::analysis::session::SessionTracker;
use crate::analysis::Fold;
use crate::decode::{Kind, Record};

/// The records the listing reads for a preview.
pub const PREVIEW_SCAN: u64 = 10 + 200;

/// What the listing finds in a file's head.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Listing {
    /// Records in the file.
    pub records: u64,
    /// A preview lies in the records the listing reads.
    pub preview: bool,
}

impl Fold for Listing {
    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        self.records += 1;
        if !self.preview && self.records <= PREVIEW_SCAN {
            self.preview = is_preview(rec, session.info().mode() == "paginated");
        }
    }
}

/// A record the listing takes its preview from.
fn is_preview(rec: &Record<'_>, paginated: bool) -> bool {
    if rec.kind != Kind::EventMsg {
        return false;
    }
    match rec.payload_type() {
        Some("user_message" | "thread_goal_updated") => true,
        Some("item_completed") if paginated => {
            crate::model::completed_item_type(rec).is_some_and(|t| t == "UserMessage")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Needs;
    use crate::testkit;
    use serde_json::json;

    #[test]
    fn a_preview_counts_only_within_the_records_the_listing_reads() {
        let user = testkit::event(json!({"type": "user_message", "message": "hi"}));
        let filler = testkit::event(json!({"type": "token_count"}));
        let early = testkit::jsonl(&[filler.clone(), user.clone()]);
        let l = testkit::facts(&early, Needs::default().listing())
            .listing
            .unwrap();
        assert_eq!(
            l,
            Listing {
                records: 2,
                preview: true
            }
        );
        let mut lines = vec![filler; PREVIEW_SCAN as usize];
        lines.push(user);
        let late = testkit::facts(&testkit::jsonl(&lines), Needs::default().listing());
        assert!(!late.listing.unwrap().preview);
    }
}
