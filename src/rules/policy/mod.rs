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
