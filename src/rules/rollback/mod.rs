//! Rollback markers (`thread_rolled_back`).

group![overflow];
