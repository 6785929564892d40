//! The session metadata (`session_meta`): first, present, readable, once, named as the file.

group![
    first,
    missing,
    history_mode,
    multiple,
    id_vs_filename,
    model_provider,
    paginated_unsupported
];
