//! Findings: what a check found wrong with a file, as data.
//!
//! A [`Finding`] names its [`Rule`] (the registry: [`rules`]), its severity, the line that
//! proves it, what was expected
//! and found there, and a [`Cause`] holding the facts the finding's message is made of. No
//! prose is built here or in the analyses: the output layer words every cause
//! (`output/findings.rs`) in each format a command prints, so one finding reads the same in
//! `check-ordinal`, `replay` and `lint`.

use std::path::PathBuf;

use serde::Serialize;

use crate::decode::{BadLine, DecodeError, Pos};

pub mod rules;
pub mod select;

pub use rules::{Rule, SECTIONS};

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A fact worth knowing.
    Info,
    /// Codex copes, but something is wrong or lossy for some consumer.
    Warning,
    /// Codex refuses the file, loses records or history, or a format rule readers rely on
    /// is broken.
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`: its name in every format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    /// The line that proves it; `None` for a finding about the whole file.
    pub at: Option<Pos>,
    /// The ordinal (or byte offset, for lineage findings) that should be there.
    pub expected: Option<u64>,
    /// The ordinal (or byte offset) that is there.
    pub found: Option<u64>,
    pub cause: Cause,
}

impl Finding {
    /// A finding of `cause`'s rule at its default severity.
    pub fn new(cause: Cause, at: Option<Pos>) -> Finding {
        let rule = cause.rule();
        Finding {
            rule,
            severity: rule.default_severity(),
            at,
            expected: None,
            found: None,
            cause,
        }
    }

    /// The same finding with what was expected and found.
    pub fn comparing(mut self, expected: Option<u64>, found: Option<u64>) -> Finding {
        self.expected = expected;
        self.found = found;
        self
    }

    /// The same finding at another severity.
    pub fn with_severity(mut self, severity: Severity) -> Finding {
        self.severity = severity;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The line it points at (`0` for a whole-file finding), for sorting.
    pub fn line(&self) -> u64 {
        self.at.map_or(0, |p| p.line)
    }
}

/// What a line that Codex cannot parse is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unparseable {
    /// A record whose `type` Codex does not know (as written).
    UnknownType(String),
    /// A line nobody can decode.
    Bad(Box<BadLine>),
}

/// Where the ordinal boundary of a `history_base` cutoff lies in its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Boundary {
    /// `history_base.end_ordinal_exclusive`.
    pub end_ordinal: u64,
    /// The line of the source's first record with `ordinal >= end_ordinal`; `None` when
    /// there is none (the boundary is then the end of the source).
    pub first_at_end: Option<u64>,
}

/// A place searched for a lineage source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The inputs given on the command line.
    GivenInputs,
    /// A directory walked for rollouts.
    Dir(PathBuf),
    /// A Codex home with neither `sessions` nor `archived_sessions`.
    EmptyHome(PathBuf),
}

/// The facts behind a finding, one variant per thing that can be wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    // --- the head: can Codex start reading this file? ---
    /// Line 1 starts with a UTF-8 byte order mark.
    Bom,
    /// The first non-blank line cannot be decoded.
    FirstLineUnreadable(Box<BadLine>),
    /// The first record is of another type than `session_meta` (as written).
    FirstRecordNotMeta { type_name: String },
    /// No `session_meta` at all, while the lines carry ordinals.
    NoMetaWithOrdinals,
    /// A `history_mode` other than `legacy` or `paginated` (as written).
    UnknownHistoryMode { mode: String },

    // --- ordinals ---
    /// A record of a legacy file carries an ordinal.
    OrdinalInLegacy,
    /// A record of a paginated file has none; `fails_resume` when it is the last record
    /// Codex can parse.
    OrdinalMissing { fails_resume: bool },
    /// The first ordinal is not the one the file must start at.
    OrdinalStart,
    /// An ordinal already used; `previous_line` when it repeats the line just before.
    OrdinalDuplicate { previous_line: Option<u64> },
    /// An ordinal below the highest so far and never used, after `from`.
    OrdinalDecrease { from: u64 },
    /// Ordinals `lo..=hi` skipped, `unseen` of them never appearing anywhere.
    OrdinalGap { lo: u64, hi: u64, unseen: u64 },
    /// A line after the last one Codex can parse carries an ordinal its next resume writes
    /// again.
    OrdinalTailUnparseable {
        line: Unparseable,
        /// The last parseable record: its line and ordinal.
        last_line: u64,
        last_ordinal: u64,
    },
    /// A sub-agent's inherited prefix stops short of `subagent_history_start_ordinal`.
    SubagentPrefix { start: u64, last: u64 },

    // --- lineage (`history_base`) ---
    /// `history_base` has no `thread_id`.
    BaseNoThreadId,
    /// `history_base.end_ordinal_exclusive` is 0.
    BaseZeroEnd,
    /// `history_base` has no `end_ordinal_exclusive`.
    BaseNoEnd,
    /// `history_base` has no `end_byte_offset`.
    BaseNoOffset,
    /// The source rollout is not paginated.
    BaseSourceNotPaginated { source: String, mode: String },
    /// The source holds no ordinal `end - 1` (`highest` is its highest).
    BaseOutsideSource {
        source: String,
        end: u64,
        highest: Option<u64>,
    },
    /// `end_byte_offset` is past the end of the source (`bytes` long).
    BaseOffsetPastEnd {
        source: String,
        bytes: u64,
        boundary: Boundary,
    },
    /// `end_byte_offset` is not just after a newline of the source.
    BaseOffsetNotAtLineStart { source: String, boundary: Boundary },
    /// `end_byte_offset` is not the source's ordinal boundary.
    BaseOffsetMismatch { source: String, boundary: Boundary },
    /// No file declares the source's rollout id in any place searched.
    BaseSourceNotFound {
        rollout_id: String,
        searched: Vec<Place>,
    },
    /// The source was found but could not be read.
    BaseSourceUnreadable {
        source: String,
        rollout_id: String,
        cause: String,
    },
    /// The lineage leads back to a file already read: a cycle.
    BaseCycle { source: String },
    /// The lineage is deeper than rollscope follows.
    BaseTooDeep { depth: usize },

    // --- the file ---
    /// No line holds anything.
    FileEmpty,
    /// The last line has no final newline (and decodes: a torn one is `BadLine`).
    NoFinalNewline,

    // --- lines ---
    /// A line the decoder rejected (as Codex's reader would).
    BadLine(Box<BadLine>),
    /// A record of a type Codex does not know (as written).
    UnknownType { type_name: String },
    /// An event Codex's persistence policy never writes (`exec_command_end`: an old
    /// Codex's extended mode, as info).
    TransientEvent { event: String },
    /// A legacy-only event in a paginated file.
    LegacyEventInPaginated { event: String },
    /// An `item_completed` a legacy file's policy does not persist (its item type).
    PaginatedInLegacy { item: String },
    /// A `response_item` Codex never persists (its type).
    UnpersistedResponseItem { item: String },
    /// A `thread_rolled_back` in a paginated file.
    RollbackInPaginated,
    /// A `timestamp` that is not an RFC 3339 time in UTC (as written).
    TimestampFormat { timestamp: String },

    // --- the session and the history a resume rebuilds (`replay`) ---
    /// No `session_meta` at all.
    NoMeta,
    /// Another `session_meta` after the first; `copied` when it heads a copied history (a
    /// legacy file's, or the parent's in a fork or sub-agent).
    MetaMultiple { first_line: u64, copied: bool },
    /// The first `session_meta`'s id is not the thread id the file name declares.
    MetaIdVsFileName { meta_id: String, file_id: String },
    /// The first `session_meta` lacks a field Codex requires, or has it mistyped: `found`
    /// is what the field is (`None`: absent).
    MetaUndecodable {
        field: &'static str,
        found: Option<&'static str>,
    },
    /// `session_meta.model_provider` is null or empty.
    ModelProviderMissing,
    /// A `compacted` record Codex cannot decode for another reason than its metadata.
    CompactionUndecodable { error: String },
    /// `replacement_history_metadata` has `metadata` entries for `history` items (`None`:
    /// no replacement history at all).
    CompactionMetadataLen { history: Option<u64>, metadata: u64 },
    /// A legacy `compacted` without `replacement_history`: the history is rebuilt.
    CompactionLegacy,
    /// A `compacted` with a replacement history but no `window_number`.
    CompactionNoWindow,
    /// An output written again for a call already answered (`first_line`: the first one).
    OutputDuplicate {
        call_id: String,
        first_line: Option<u64>,
    },
    /// Turns, but no `token_count` with usage anywhere.
    NoTokenCount,
    /// A legacy file with a `history_base`.
    BaseInLegacy,
    /// A `world_state` patch before any full snapshot.
    WorldStatePatchBeforeFull,
    /// A call with no output in the history: the prompt gets a synthetic `aborted` one.
    CallWithoutOutput { call_id: String },
    /// An output whose call is not in the history: the prompt drops it.
    OutputWithoutCall { call_id: String },
    /// A `thread_rolled_back` whose `num_turns` is not a `u32`: Codex cannot decode it.
    RollbackUndecodable,
    /// A turn that never ended while a later one began (`index`, its `turn_id`).
    TurnUnterminated { index: u64, turn_id: Option<String> },
    /// `thread_rolled_back.num_turns` exceeds the user turns standing.
    RollbackOverflow { num_turns: u32, user_turns: u64 },
    /// A `turn_context` or terminal event (`event`) inside turn `index` (id `own`) names
    /// turn id `named`.
    TurnIdMismatch {
        event: &'static str,
        named: String,
        index: u64,
        own: String,
    },
    /// User turn `index` has no `turn_context` of its own.
    TurnNoContext { index: u64 },
    /// A fork by reference whose fork point is missing or not its history base: `has_id`
    /// (`forked_from_id` written), `forked` (`forked_from_ordinal_exclusive`), `base_end`
    /// (`history_base.end_ordinal_exclusive`).
    ForkBoundary {
        has_id: bool,
        forked: Option<u64>,
        base_end: Option<u64>,
    },

    // --- where the file is and how big ---
    /// The file name is not a rollout name; `in_home` inside a Codex home's session folders.
    FileName { in_home: bool },
    /// A rollout of a Codex home outside the folder Codex looks in (`expected`, relative to
    /// the home).
    FileLocation { expected: String },
    /// A `.jsonl.zst` with a plain twin (`plain`) that Codex reads instead.
    ZstShadowed { plain: String },
    /// A record of `bytes` bytes, over Codex's record limits.
    RecordOversized { bytes: u64 },
    /// A file of `bytes` bytes.
    FileLarge { bytes: u64 },
    /// A record of `bytes` bytes, large but within Codex's limits.
    RecordLarge { bytes: u64 },
    /// No preview in the records Codex's listing reads (`scanned` of them).
    NoPreview { scanned: u64 },

    // --- content ---
    /// Inline base64 media (`media`: `image`, `audio`, `image generation result`) of
    /// `bytes` bytes in `place` (the payload type), where Codex's policy strips it.
    InlineMedia {
        media: &'static str,
        bytes: u64,
        place: String,
    },
    /// A string that looks like a credential of `kind`, at `field` (a JSON path in the
    /// record), shown only as `redacted`.
    Secret {
        kind: &'static str,
        field: String,
        redacted: String,
    },
}

impl Cause {
    /// The rule this cause belongs to.
    pub fn rule(&self) -> Rule {
        use Cause::*;
        match self {
            Bom => Rule::FileBom,
            FirstLineUnreadable(_) | FirstRecordNotMeta { .. } => Rule::MetaFirst,
            NoMetaWithOrdinals => Rule::MetaMissing,
            UnknownHistoryMode { .. } => Rule::MetaHistoryMode,
            OrdinalInLegacy => Rule::OrdinalInLegacy,
            OrdinalMissing { .. } => Rule::OrdinalMissing,
            OrdinalStart => Rule::OrdinalStart,
            OrdinalDuplicate { .. } | OrdinalDecrease { .. } => Rule::OrdinalNonMonotonic,
            OrdinalGap { .. } => Rule::OrdinalGap,
            OrdinalTailUnparseable { .. } => Rule::OrdinalTailUnparseable,
            SubagentPrefix { .. } => Rule::OrdinalSubagentPrefix,
            BaseNoThreadId | BaseZeroEnd | BaseNoEnd | BaseNoOffset => Rule::HistoryBaseShape,
            BaseSourceNotPaginated { .. }
            | BaseOutsideSource { .. }
            | BaseSourceNotFound { .. }
            | BaseSourceUnreadable { .. }
            | BaseCycle { .. }
            | BaseTooDeep { .. } => Rule::HistoryBaseResolve,
            BadLine(b) => match b.error {
                DecodeError::Utf8 { .. } | DecodeError::Json { .. } => Rule::LineJson,
                DecodeError::NotObject { .. } => Rule::LineNotObject,
                DecodeError::TimestampMissing | DecodeError::TimestampNotString => {
                    Rule::LineTimestamp
                }
                DecodeError::TypeMissing | DecodeError::TypeNotString => Rule::LineType,
                DecodeError::PayloadMissing | DecodeError::PayloadNotObject => Rule::LinePayload,
                DecodeError::OrdinalInvalid => Rule::LineOrdinal,
                DecodeError::TooLong { .. } => Rule::LineOversized,
            },
            NoMeta => Rule::MetaMissing,
            FileEmpty => Rule::FileEmpty,
            NoFinalNewline => Rule::FileNoFinalNewline,
            UnknownType { .. } => Rule::LineUnknownType,
            TimestampFormat { .. } => Rule::LineTimestampFormat,
            TransientEvent { .. } => Rule::PolicyTransientEvent,
            LegacyEventInPaginated { .. } => Rule::PolicyLegacyEventInPaginated,
            PaginatedInLegacy { .. } => Rule::PolicyPaginatedInLegacy,
            UnpersistedResponseItem { .. } => Rule::PolicyResponseItem,
            RollbackInPaginated => Rule::PolicyRollbackInPaginated,
            MetaMultiple { .. } => Rule::MetaMultiple,
            MetaIdVsFileName { .. } => Rule::MetaIdVsFileName,
            MetaUndecodable { .. } => Rule::MetaFirst,
            ModelProviderMissing => Rule::MetaModelProvider,
            CompactionUndecodable { .. } => Rule::LinePayload,
            CompactionMetadataLen { .. } => Rule::CompactMetadataLen,
            WorldStatePatchBeforeFull => Rule::WorldStatePatchBeforeFull,
            CompactionLegacy => Rule::CompactLegacy,
            CompactionNoWindow => Rule::CompactWindow,
            OutputDuplicate { .. } => Rule::PairDuplicate,
            NoTokenCount => Rule::TokensNone,
            BaseInLegacy => Rule::HistoryBaseInLegacy,
            CallWithoutOutput { .. } => Rule::PairMissingOutput,
            OutputWithoutCall { .. } => Rule::PairOrphanOutput,
            RollbackOverflow { .. } => Rule::RollbackOverflow,
            RollbackUndecodable => Rule::LinePayload,
            TurnUnterminated { .. } => Rule::TurnUnterminated,
            TurnIdMismatch { .. } => Rule::TurnIdMismatch,
            TurnNoContext { .. } => Rule::TurnNoContext,
            ForkBoundary { .. } => Rule::ForkBoundary,
            FileName { .. } => Rule::FileName,
            FileLocation { .. } => Rule::FileLocation,
            ZstShadowed { .. } => Rule::FileZstShadowed,
            RecordOversized { .. } => Rule::LineOversized,
            FileLarge { .. } | RecordLarge { .. } => Rule::SizeLarge,
            NoPreview { .. } => Rule::ListingNoPreview,
            InlineMedia { .. } => Rule::ContentInlineMedia,
            Secret { .. } => Rule::ContentSecret,
            BaseOffsetPastEnd { .. }
            | BaseOffsetNotAtLineStart { .. }
            | BaseOffsetMismatch { .. } => Rule::HistoryBaseByteOffset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_order_info_below_warning_below_error() {
        assert!(Severity::Info < Severity::Warning && Severity::Warning < Severity::Error);
        assert_eq!(
            serde_json::to_string(&Severity::Warning).unwrap(),
            "\"warning\""
        );
    }

    #[test]
    fn a_finding_takes_its_rule_and_default_severity_from_its_cause() {
        let f = Finding::new(
            Cause::OrdinalGap {
                lo: 2,
                hi: 2,
                unseen: 1,
            },
            None,
        );
        assert_eq!(f.rule, Rule::OrdinalGap);
        assert_eq!(f.severity, Severity::Warning);
        let f = f.with_severity(Severity::Error).comparing(Some(2), Some(3));
        assert!(f.is_error());
        assert_eq!((f.expected, f.found, f.line()), (Some(2), Some(3), 0));
    }
}
