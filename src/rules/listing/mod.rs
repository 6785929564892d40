//! What Codex's resume picker shows of a thread.

group![no_preview];
