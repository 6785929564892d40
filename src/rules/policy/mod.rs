//! What Codex's persistence policy would never have written (`codex-rs/rollout/src/policy.rs`):
//! transient events, one mode's events in the other's file, response items Codex filters out,
//! a rollback marker in a paginated file.

group![
    transient_event,
    legacy_event_in_paginated,
    paginated_in_legacy,
    response_item,
    rollback_in_paginated
];

use crate::decode::Record;
use crate::findings::{Edit, Fix};
use crate::input::Source;

/// Delete `rec`'s line (safe: Codex does not use it), when it carries no ordinal a deletion
/// would leave a gap at.
fn delete(rec: &Record<'_>, description: &str, file: Source) -> Option<Fix> {
    rec.ordinal.is_none().then(|| {
        Fix::safe(
            description,
            vec![Edit::delete_line(file, &rec.line_uncounted())],
        )
    })
}
