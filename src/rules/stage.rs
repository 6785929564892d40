//! Where a finding comes on its line: the facts it rests on, in the order they are
//! established.

/// The facts a finding rests on, in the order they are established: on one line, findings
/// come in this order (and in the order their facts were found within one stage). For
/// `lint` and `replay`: the file's name and place, the lineage (followed as the
/// `session_meta` is read), the history rebuilt, its calls and outputs paired, the session
/// state, the turns, the ordinal sequence (and a paginated file's head), another file's
/// head, the lines the decoder rejected, the file's `session_meta`, each record's shape and
/// what Codex's persistence policy says of it, its content, and the file's end.
/// `check-ordinal` checks the lineage after the file's own sequence ([`Stage::LateLineage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Placement,
    Lineage,
    History,
    Pairing,
    State,
    Turns,
    Ordinals,
    Head,
    Decoder,
    /// No `session_meta` at all (a whole-file finding).
    NoMeta,
    /// The first `session_meta`'s fields.
    MetaFields,
    /// The first `session_meta`'s `history_base` in a legacy file.
    MetaBase,
    /// Usage over the whole file.
    Usage,
    RecordSize,
    RecordTimestamp,
    RecordKind,
    RecordPolicy,
    FileSize,
    Listing,
    ContentSecret,
    ContentMedia,
    Empty,
    FinalNewline,
    /// The first `session_meta`'s `model_provider`.
    MetaProvider,
    /// What Codex's state databases say of the file.
    StateDb,
    /// `check-ordinal`'s lineage, checked once the file's own sequence is.
    LateLineage,
}
