//! A fork's or revert's lineage (`session_meta.history_base`): well formed, its source found
//! and read, its cutoff on the source's boundary.

group![in_legacy, shape, resolve, byte_offset];
