//! `listing.no-preview`: a thread Codex's resume picker hides.

use crate::analysis::listing::PREVIEW_SCAN;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** Reports a file whose first 210 records (Codex's listing reads 10, then up
    /// to 200 more) hold no preview: no `user_message` event or `thread_goal_updated`, nor,
    /// in a paginated file (which persists no `user_message`), an `item_completed`
    /// `UserMessage`.
    ///
    /// **Why it matters.** Codex's resume picker lists a thread only with a preview: this one
    /// is hidden from it, still resumable by id (openai/codex#21619).
    ///
    /// **Example.** A session whose first prompt came after a long run of events; one that
    /// never got a prompt.
    ///
    /// **Fix.** Nothing to fix in the file: resume it by id (`codex resume <id>`).
    "listing.no-preview", Info, "no listing preview in the file's head",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Listing, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    let Some(listing) = facts.file.listing else {
        return;
    };
    // Only a file Codex can list at all lacks a preview: without a session_meta, or of a
    // mode Codex refuses, it is hidden anyway (and `meta.*` says why).
    let session = &facts.file.session;
    let listable = session.meta_line.is_some() && matches!(session.mode(), "legacy" | "paginated");
    if listable && listing.records > 0 && !listing.preview && !facts.partial() {
        let scanned = listing.records.min(PREVIEW_SCAN);
        out.push(
            None,
            format!(
                "no user message or thread goal in the first {scanned} records: Codex's resume \
                 picker hides this thread (resume it by id)"
            ),
        );
    }
}
