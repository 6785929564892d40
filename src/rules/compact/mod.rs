//! Compactions: what Codex rebuilds the history from, and how its bounded resume finds them.

group![metadata_len, legacy, window];
