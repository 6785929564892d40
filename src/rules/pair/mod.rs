//! Tool calls and their outputs in the rebuilt history, as Codex pairs them before sending.

group![missing_output, orphan_output, duplicate];
