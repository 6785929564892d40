//! The world state a resume restores beside the history.

group![patch_before_full];
