//! The session's token usage, as a resume restores it.

group![none];
