//! A paginated rollout's ordinals: present, starting where they must, rising by one, and
//! what Codex's next resume writes.

group![
    in_legacy,
    missing,
    start,
    non_monotonic,
    gap,
    tail_unparseable,
    subagent_prefix
];
