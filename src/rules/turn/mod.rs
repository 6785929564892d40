//! Turns: ended, stamped with their own id, with their settings.

group![unterminated, id_mismatch, no_context];
