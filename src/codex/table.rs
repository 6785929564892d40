//! The table of Codex's reading: for each behaviour rollscope models, which versions do
//! what, each row citing its evidence (a verdict of the real Codex kept in `testdata/`, or
//! an upstream file). Rows are version ranges; a version below every row reads as the
//! oldest row. `docs/codex-versions.md` is rendered from it (`output::versions`), and a test
//! holds every cited fixture to exist.

use super::Version;

/// What rollscope models of Codex's reading, one behaviour a set of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Behaviour {
    /// A duplicate or decreasing `ordinal` in a paginated file.
    OrdinalOutOfOrder,
    /// A forward gap in a paginated file's ordinals.
    OrdinalGap,
    /// A compaction whose `replacement_history_metadata` does not match its
    /// `replacement_history`.
    CompactionMetadataMismatch,
    /// A paginated file's `history_base`, its source present.
    HistoryBase,
    /// A paginated file's `history_base` whose source rollout is absent.
    HistoryBaseMissing,
    /// A `session_meta.id` that differs from the thread id of the file's name.
    MetaIdDiffers,
    /// A paginated file whose last parseable record has no `ordinal`.
    TailWithoutOrdinal,
    /// A paginated file whose first record is not its `session_meta`.
    MetaNotFirst,
    /// A `.jsonl.zst` rollout.
    Compressed,
    /// A `.jsonl.zst` cut short, or with bytes after its frame.
    CompressedCorrupt,
    /// The `id` of history items, sent to the model.
    HistoryItemIds,
    /// A file under `sessions/` whose name is not a rollout name.
    NameUnrecognised,
    /// A record `type` the version does not decode.
    UnknownRecordType,
    /// A `local_shell_call` without `call_id`.
    LocalShellCallWithoutCallId,
    /// A paginated file resumed: whether the records appended carry ordinals.
    PaginatedAppend,
    /// A `response_item` whose fields Codex's typed decoder rejects (`codex::shape`).
    UndecodableItem,
    /// The `response_item` payload types a version decodes (the others it reads as
    /// `Other` and does not send).
    ResponseItemTypes,
    /// A user's or a tool's image, prepared before it is sent (resized, or replaced).
    ImagePreparation,
    /// A `configuration_update` response item.
    ConfigurationUpdate,
    /// An assistant message delivered in code mode (`metadata.delivered_assistant_message`).
    DeliveredAssistantMessage,
    /// A `threads` row of `state_5.sqlite` whose rollout path names no file.
    StateRolloutMissing,
    /// A projection checkpoint past the end of its rollout (the file cut back).
    CheckpointPastEnd,
    /// A projection checkpoint inside a line, the next line's ordinal the one it expects.
    CheckpointInsideLine,
    /// A projection checkpoint whose next line has an ordinal below the one it expects (a
    /// duplicate, or a line it already projected).
    CheckpointRegress,
    /// A projection checkpoint whose next line has an ordinal above the one it expects.
    CheckpointGap,
    /// A stored turn whose rollout offsets or ordinals are not the lines they name.
    TurnBounds,
}

impl Behaviour {
    /// Every behaviour, in the table's order.
    pub const ALL: [Behaviour; 26] = [
        Behaviour::OrdinalOutOfOrder,
        Behaviour::OrdinalGap,
        Behaviour::CompactionMetadataMismatch,
        Behaviour::HistoryBase,
        Behaviour::HistoryBaseMissing,
        Behaviour::MetaIdDiffers,
        Behaviour::TailWithoutOrdinal,
        Behaviour::MetaNotFirst,
        Behaviour::Compressed,
        Behaviour::CompressedCorrupt,
        Behaviour::HistoryItemIds,
        Behaviour::NameUnrecognised,
        Behaviour::UnknownRecordType,
        Behaviour::LocalShellCallWithoutCallId,
        Behaviour::PaginatedAppend,
        Behaviour::UndecodableItem,
        Behaviour::ResponseItemTypes,
        Behaviour::ImagePreparation,
        Behaviour::ConfigurationUpdate,
        Behaviour::DeliveredAssistantMessage,
        Behaviour::StateRolloutMissing,
        Behaviour::CheckpointPastEnd,
        Behaviour::CheckpointInsideLine,
        Behaviour::CheckpointRegress,
        Behaviour::CheckpointGap,
        Behaviour::TurnBounds,
    ];

    /// What it is, in a few words (the page's headings).
    pub fn title(self) -> &'static str {
        match self {
            Behaviour::OrdinalOutOfOrder => "A duplicate or decreasing ordinal (paginated)",
            Behaviour::OrdinalGap => "Ordinals that never appear (paginated)",
            Behaviour::CompactionMetadataMismatch => {
                "A compaction whose replacement_history_metadata does not match"
            }
            Behaviour::HistoryBase => "A paginated fork's history_base, its source present",
            Behaviour::HistoryBaseMissing => "A paginated fork whose source rollout is absent",
            Behaviour::MetaIdDiffers => "A session_meta id that differs from the file name",
            Behaviour::TailWithoutOrdinal => "A paginated file whose last record has no ordinal",
            Behaviour::MetaNotFirst => "A paginated file whose first record is not session_meta",
            Behaviour::Compressed => "A .jsonl.zst rollout",
            Behaviour::CompressedCorrupt => "A .jsonl.zst cut short or with bytes after its frame",
            Behaviour::HistoryItemIds => "History items' id, sent to the model",
            Behaviour::NameUnrecognised => {
                "A file under sessions/ whose name is not a rollout name"
            }
            Behaviour::UnknownRecordType => "A record type the version does not decode",
            Behaviour::LocalShellCallWithoutCallId => "A local_shell_call without call_id",
            Behaviour::PaginatedAppend => "A paginated file resumed and appended to",
            Behaviour::UndecodableItem => {
                "A response item or turn_context missing a required field, or with a field of \
                 the wrong type"
            }
            Behaviour::ResponseItemTypes => "A response item of a type the version does not know",
            Behaviour::ImagePreparation => "An image in a message or a tool output",
            Behaviour::ConfigurationUpdate => "A configuration_update item",
            Behaviour::DeliveredAssistantMessage => {
                "An assistant message delivered in code mode (retained context)"
            }
            Behaviour::StateRolloutMissing => "A state database row whose rollout is not there",
            Behaviour::CheckpointPastEnd => "A projection checkpoint past the end of the file",
            Behaviour::CheckpointInsideLine => {
                "A projection checkpoint inside a line, the next ordinal the expected one"
            }
            Behaviour::CheckpointRegress => {
                "A projection checkpoint followed by an ordinal below the expected one"
            }
            Behaviour::CheckpointGap => {
                "A projection checkpoint followed by an ordinal above the expected one"
            }
            Behaviour::TurnBounds => "A stored turn whose bounds are not its lines",
        }
    }

    /// The rules whose findings follow it.
    pub fn rules(self) -> &'static [&'static str] {
        match self {
            Behaviour::OrdinalOutOfOrder => &["ordinal.non-monotonic"],
            Behaviour::OrdinalGap => &["ordinal.gap"],
            Behaviour::CompactionMetadataMismatch => &["compact.metadata-len"],
            Behaviour::HistoryBase => &["history_base.ignored"],
            Behaviour::HistoryBaseMissing => &["history_base.resolve"],
            Behaviour::MetaIdDiffers => &["meta.id-vs-filename"],
            Behaviour::TailWithoutOrdinal => &["ordinal.missing"],
            Behaviour::MetaNotFirst => &["meta.first"],
            Behaviour::Compressed => &["file.zst-unsupported"],
            Behaviour::CompressedCorrupt => &["file.zst-corrupt"],
            Behaviour::HistoryItemIds => &[],
            Behaviour::NameUnrecognised => &["file.name"],
            Behaviour::UnknownRecordType => &["line.unknown-type", "ordinal.tail-unparseable"],
            Behaviour::LocalShellCallWithoutCallId => &["pair.missing-output"],
            Behaviour::PaginatedAppend => &["meta.paginated-unsupported"],
            Behaviour::UndecodableItem => &["line.payload"],
            Behaviour::ResponseItemTypes => &["line.item-type"],
            Behaviour::ImagePreparation => &["image.replaced", "image.resized"],
            Behaviour::ConfigurationUpdate | Behaviour::DeliveredAssistantMessage => &[],
            Behaviour::StateRolloutMissing => &["state.rollout-missing"],
            Behaviour::CheckpointPastEnd => &["state.checkpoint-past-end"],
            Behaviour::CheckpointInsideLine => &["state.checkpoint-misplaced"],
            Behaviour::CheckpointRegress => &[
                "state.checkpoint-at-duplicate",
                "state.checkpoint-misplaced",
            ],
            Behaviour::CheckpointGap => &["state.checkpoint-misplaced"],
            Behaviour::TurnBounds => &["state.turn-bounds"],
        }
    }
}

/// What a version does about a behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Refuses to resume the file.
    Refuses,
    /// Reads it as written.
    Reads,
    /// Does not read it at all (the field means nothing to this version).
    Ignores,
    /// Skips the line or record, with a warning.
    Skips,
    /// Logs a warning; nothing is lost.
    Warns,
    /// Its thread-history projection (what a client is shown) stops there for good; the
    /// model still gets everything.
    ProjectionStops,
    /// Resumes the file without what it points to (a fork without its source's history).
    ResumesAlone,
    /// Resumes under the id `session_meta` names.
    ResumesUnderMetaId,
    /// Leaves it out.
    Strips,
    /// Keeps it.
    Keeps,
    /// Prepares it before sending (`codex::image`).
    Prepares,
    /// Knows these names, in its declaration order (a number written in their place is read
    /// as the index of one).
    Knows(&'static [&'static str]),
}

impl Answer {
    /// Its name on the page.
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Refuses => "refuses",
            Answer::Reads => "reads",
            Answer::Ignores => "ignores",
            Answer::Skips => "skips",
            Answer::Warns => "warns",
            Answer::ProjectionStops => "projection stops",
            Answer::ResumesAlone => "resumes alone",
            Answer::ResumesUnderMetaId => "resumes under the meta id",
            Answer::Strips => "strips",
            Answer::Keeps => "keeps",
            Answer::Prepares => "prepares",
            Answer::Knows(_) => "knows",
        }
    }
}

/// What a row rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// A fixture and the real Codex's verdict on it, by path from the repository's root.
    Fixture(&'static str),
    /// Upstream code or a discussion in openai/codex, with what it says.
    Upstream(&'static str),
}

/// One row: a range of versions, what they do, and why rollscope believes it.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub behaviour: Behaviour,
    /// The first version of the range (inclusive).
    pub from: Version,
    /// The last version of the range (inclusive); `None`: every later one.
    pub until: Option<Version>,
    pub answer: Answer,
    /// What Codex does, in a sentence (Markdown).
    pub does: &'static str,
    pub evidence: &'static [Evidence],
}

impl Row {
    /// Whether `v` lies in its range.
    pub fn covers(&self, v: Version) -> bool {
        self.from <= v && self.until.is_none_or(|u| v <= u)
    }
}

const fn v(major: u64, minor: u64, patch: u64) -> Version {
    Version::new(major, minor, patch)
}

/// The row that answers for `v` about `b`: the row covering it, or the oldest one for a
/// version below every row.
pub fn row(b: Behaviour, v: Version) -> &'static Row {
    let rows = rows_of(b);
    match rows.iter().find(|r| r.covers(v)).or(rows.first()) {
        Some(r) => r,
        // Every behaviour has rows (a test holds it); this is never reached.
        None => &FALLBACK,
    }
}

/// The rows of `b`: a slice of [`TABLE`], found once for every behaviour. Readers ask the
/// table several times a record, and a walk of the whole table each time cost more than
/// the answer is worth.
fn rows_of(b: Behaviour) -> &'static [Row] {
    static SLICES: std::sync::LazyLock<Vec<&'static [Row]>> = std::sync::LazyLock::new(|| {
        Behaviour::ALL
            .iter()
            .map(|b| {
                let start = TABLE.iter().position(|r| r.behaviour == *b).unwrap_or(0);
                let rest = TABLE.get(start..).unwrap_or_default();
                let len = rest.iter().take_while(|r| r.behaviour == *b).count();
                rest.get(..len).unwrap_or_default()
            })
            .collect()
    });
    // `ALL` lists the behaviours in their declared order (a test holds it).
    SLICES.get(b as usize).copied().unwrap_or_default()
}

static FALLBACK: Row = Row {
    behaviour: Behaviour::UnknownRecordType,
    from: v(0, 0, 0),
    until: None,
    answer: Answer::Reads,
    does: "",
    evidence: &[],
};

/// The versions the table names: the first of each row's range, oldest first.
pub fn versions() -> Vec<Version> {
    let mut out: Vec<Version> = TABLE.iter().map(|r| r.from).collect();
    out.push(super::NEWEST);
    out.sort();
    out.dedup();
    out
}

use Answer::*;
use Behaviour::*;
use Evidence::{Fixture, Upstream};

/// The table, behaviour by behaviour, oldest range first. Where two tried versions answer
/// differently the boundary between them is where upstream moved it when that is known, else
/// the later one's release (the row says which versions were tried).
pub static TABLE: &[Row] = &[
    // --- ordinals -----------------------------------------------------------------------
    Row {
        behaviour: OrdinalOutOfOrder,
        from: v(0, 36, 0),
        until: Some(v(0, 145, 99)),
        answer: Ignores,
        does: "No thread-history projection: ordinals are not read, and the resume sends \
               everything (tried: 0.110, 0.128).",
        evidence: &[
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.110.0.json"),
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: OrdinalOutOfOrder,
        from: v(0, 146, 0),
        until: Some(v(0, 153, 99)),
        answer: ProjectionStops,
        does: "The projection fails at the record for good (`failed to project durable rollout \
               … expected ordinal N, got M`): a client is shown no turns, while the model still \
               gets everything (tried: 0.147, 0.153.4).",
        evidence: &[
            Upstream(
                "openai/codex#38792 (the projection, 0.146); openai/codex#41079 (0.150–0.153)",
            ),
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.147.0.json"),
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.153.4.json"),
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.153.4-client.json"),
        ],
    },
    Row {
        behaviour: OrdinalOutOfOrder,
        from: v(0, 154, 0),
        until: None,
        answer: Warns,
        does: "The projection skips the record with a warning (`skipping duplicate or regressed \
               rollout ordinal`); the resume sends everything and a client shows every turn \
               (tried: 0.154, 0.160, 0.171).",
        evidence: &[
            Upstream("openai/codex#42369 (0.154)"),
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.154.0.json"),
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.171.0.json"),
            Fixture("testdata/versions/ordinal-duplicate/verdicts/0.171.0-client.json"),
            Fixture("testdata/lint/ordinal.non-monotonic/verdict-0.171.0-message-deleted.json"),
        ],
    },
    Row {
        behaviour: OrdinalGap,
        from: v(0, 36, 0),
        until: Some(v(0, 145, 99)),
        answer: Ignores,
        does: "Ordinals are not read (tried: 0.110, 0.128).",
        evidence: &[
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.110.0.json"),
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: OrdinalGap,
        from: v(0, 146, 0),
        until: Some(v(0, 153, 99)),
        answer: ProjectionStops,
        does: "The projection expects the next ordinal exactly and fails at a jump for good \
               (`expected ordinal 17, got 18; 0 rejected rollout lines cannot cover that gap`): a \
               client is shown no turns; the model still gets everything (tried: 0.147, 0.153.4).",
        evidence: &[
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.147.0.json"),
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.153.4.json"),
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.153.4-client.json"),
        ],
    },
    Row {
        behaviour: OrdinalGap,
        from: v(0, 154, 0),
        until: None,
        answer: Warns,
        does: "The projection records the gap as a skipped range with a warning (`skipping \
               missing rollout ordinal range`); nothing is lost (tried: 0.154, 0.160, 0.171).",
        evidence: &[
            Upstream("openai/codex#42369 (0.154)"),
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.154.0.json"),
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.171.0.json"),
            Fixture("testdata/versions/ordinal-swapped/verdicts/0.171.0-client.json"),
        ],
    },
    // --- compaction -------------------------------------------------------------------
    Row {
        behaviour: CompactionMetadataMismatch,
        from: v(0, 36, 0),
        until: Some(v(0, 153, 99)),
        answer: Reads,
        does: "The compaction is applied as written (tried: 0.110, 0.128, 0.147; 0.148–0.153 \
               untried).",
        evidence: &[
            Fixture("testdata/versions/compaction-metadata-short/verdicts/0.110.0.json"),
            Fixture("testdata/versions/compaction-metadata-short/verdicts/0.128.0.json"),
            Fixture("testdata/versions/compaction-metadata-short/verdicts/0.147.0.json"),
        ],
    },
    Row {
        behaviour: CompactionMetadataMismatch,
        from: v(0, 154, 0),
        until: None,
        answer: Skips,
        does: "The line is skipped (`replacement_history_metadata has M entries for H history \
               items`): the history rests on the previous checkpoint (tried: 0.154, 0.160, 0.171).",
        evidence: &[
            Fixture("testdata/versions/compaction-metadata-short/verdicts/0.154.0.json"),
            Fixture("testdata/versions/compaction-metadata-short/verdicts/0.160.0.json"),
            Fixture("testdata/replay/verdicts/compaction-metadata-len-mismatch.json"),
        ],
    },
    // --- lineage ----------------------------------------------------------------------
    Row {
        behaviour: HistoryBase,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: Ignores,
        does: "`history_base` is not read: only the fork's own items are sent (tried: 0.110, \
               0.128).",
        evidence: &[
            Fixture("testdata/versions/fork-source-present/verdicts/0.110.0.json"),
            Fixture("testdata/versions/fork-source-present/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: HistoryBase,
        from: v(0, 147, 0),
        until: None,
        answer: Reads,
        does: "The source's records below `end_ordinal_exclusive` are sent first, then the \
               fork's (tried: 0.147, 0.154, 0.160, 0.171).",
        evidence: &[
            Fixture("testdata/versions/fork-source-present/verdicts/0.147.0.json"),
            Fixture("testdata/versions/fork-source-present/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: HistoryBaseMissing,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: ResumesAlone,
        does: "The fork is resumed alone (tried: 0.110, 0.128).",
        evidence: &[
            Fixture("testdata/versions/fork-source-absent/verdicts/0.110.0.json"),
            Fixture("testdata/versions/fork-source-absent/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: HistoryBaseMissing,
        from: v(0, 147, 0),
        until: None,
        answer: Refuses,
        does: "Refused: `invalid paginated history lineage …: missing source rollout` (tried: \
               0.147, 0.154, 0.160, 0.171).",
        evidence: &[
            Fixture("testdata/versions/fork-source-absent/verdicts/0.147.0.json"),
            Fixture("testdata/versions/fork-source-absent/verdicts/0.171.0.json"),
        ],
    },
    // --- the file's head and name -------------------------------------------------------
    Row {
        behaviour: MetaIdDiffers,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: ResumesUnderMetaId,
        does: "`resume <the id in the name>` resumes it and runs the thread under the \
               `session_meta` id; `resume <meta id>` is refused (0.128) or starts an empty \
               thread (0.110).",
        evidence: &[
            Fixture("testdata/versions/meta-id-differs/verdicts/0.128.0.json"),
            Fixture("testdata/versions/meta-id-differs/verdicts/0.110.0-meta-id.json"),
        ],
    },
    Row {
        behaviour: MetaIdDiffers,
        from: v(0, 147, 0),
        until: Some(v(0, 160, 99)),
        answer: Warns,
        does: "Resumed by either id and run under the id in the name, with a warning (`state db \
               discrepancy … falling_back`) (tried: 0.147, 0.154, 0.160).",
        evidence: &[
            Fixture("testdata/versions/meta-id-differs/verdicts/0.147.0.json"),
            Fixture("testdata/versions/meta-id-differs/verdicts/0.160.0.json"),
        ],
    },
    Row {
        behaviour: MetaIdDiffers,
        from: v(0, 161, 0),
        until: None,
        answer: Refuses,
        does: "`resume <the id in the name>` is refused (`thread source changed during resume`); \
               `resume <meta id>` and `resume --last` still work (tried: 0.171; 0.161–0.170 \
               untried).",
        evidence: &[
            Fixture("testdata/versions/meta-id-differs/verdicts/0.171.0.json"),
            Fixture("testdata/versions/meta-id-differs/verdicts/0.171.0-meta-id.json"),
        ],
    },
    Row {
        behaviour: TailWithoutOrdinal,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: Reads,
        does: "Resumed: ordinals are not read (tried: 0.110, 0.128).",
        evidence: &[
            Fixture("testdata/versions/paginated-last-no-ordinal/verdicts/0.110.0.json"),
            Fixture("testdata/versions/paginated-last-no-ordinal/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: TailWithoutOrdinal,
        from: v(0, 147, 0),
        until: None,
        answer: Refuses,
        does: "Refused: `final paginated rollout record … is missing an ordinal` (tried: 0.147, \
               0.154, 0.160, 0.171).",
        evidence: &[
            Upstream("openai/codex#45150"),
            Fixture("testdata/versions/paginated-last-no-ordinal/verdicts/0.147.0.json"),
            Fixture("testdata/versions/paginated-last-no-ordinal/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: MetaNotFirst,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: Reads,
        does: "Resumed: the first `session_meta` found is the thread's (tried on a paginated \
               file: 0.110, 0.128; on a legacy one: 0.128, with `state db discrepancy`).",
        evidence: &[
            Fixture("testdata/versions/paginated-meta-not-first/verdicts/0.110.0.json"),
            Fixture("testdata/versions/paginated-meta-not-first/verdicts/0.128.0.json"),
            Fixture("testdata/replay/by-version/meta-not-first-0.128.0.json"),
        ],
    },
    Row {
        behaviour: MetaNotFirst,
        from: v(0, 147, 0),
        until: None,
        answer: Refuses,
        does: "Refused: `rollout at … does not start with session metadata` (tried: 0.147 on a \
               legacy file; 0.147, 0.154, 0.160, 0.171 on a paginated one).",
        evidence: &[
            Fixture("testdata/replay/verdicts/meta-not-first.json"),
            Fixture("testdata/versions/paginated-meta-not-first/verdicts/0.147.0.json"),
            Fixture("testdata/versions/paginated-meta-not-first/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: NameUnrecognised,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: Reads,
        does: "Found by the thread id its name holds (`session-<id>.jsonl`), resumed and \
               appended to (tried: 0.110, 0.128); a name without the id is never found.",
        evidence: &[
            Fixture("testdata/versions/name-unrecognised/verdicts/0.110.0.json"),
            Fixture("testdata/versions/name-unrecognised/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: NameUnrecognised,
        from: v(0, 147, 0),
        until: None,
        answer: Refuses,
        does: "Never found: `no rollout found for thread id` (tried: 0.147, 0.154, 0.160, 0.171).",
        evidence: &[
            Fixture("testdata/versions/name-unrecognised/verdicts/0.147.0.json"),
            Fixture("testdata/versions/name-unrecognised/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: PaginatedAppend,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: Ignores,
        does: "A paginated file is resumed as any other, and the records the resume appends \
               carry no `ordinal`: a later resume by 0.147 or newer refuses the file (tried: \
               0.110, 0.128).",
        evidence: &[
            Fixture("testdata/versions/history-ids/verdicts/0.110.0.json"),
            Fixture("testdata/versions/history-ids/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: PaginatedAppend,
        from: v(0, 147, 0),
        until: None,
        answer: Reads,
        does: "The records the resume appends carry the next ordinals (tried: 0.147, 0.154, \
               0.160, 0.171).",
        evidence: &[Fixture(
            "testdata/versions/history-ids/verdicts/0.171.0.json",
        )],
    },
    // --- compression ------------------------------------------------------------------
    Row {
        behaviour: Compressed,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: Refuses,
        does: "Refused: the compressed bytes are read as text (`stream did not contain valid \
               UTF-8`), with or without `local_thread_store_compression` (tried: 0.110, 0.128).",
        evidence: &[
            Fixture("testdata/versions/zst/verdicts/0.110.0.json"),
            Fixture("testdata/versions/zst/verdicts/0.128.0.json"),
            Fixture("testdata/versions/zst/verdicts/0.128.0-zst-feature.json"),
        ],
    },
    Row {
        behaviour: Compressed,
        from: v(0, 147, 0),
        until: None,
        answer: Reads,
        does: "Decompressed and read; the resume writes it back as a plain `.jsonl` (tried: \
               0.147, 0.154, 0.160, 0.171).",
        evidence: &[
            Fixture("testdata/versions/zst/verdicts/0.147.0.json"),
            Fixture("testdata/versions/zst/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: CompressedCorrupt,
        from: v(0, 36, 0),
        until: None,
        answer: Refuses,
        does: "Refused: `incomplete frame` (cut short), `Unknown frame descriptor` (bytes after \
               the frame) (tried: 0.147, 0.171; before 0.147 every `.zst` is refused).",
        evidence: &[Fixture("testdata/lint/file.zst-corrupt/verdicts.json")],
    },
    // --- what is sent -----------------------------------------------------------------
    Row {
        behaviour: HistoryItemIds,
        from: v(0, 36, 0),
        until: Some(v(0, 146, 99)),
        answer: Strips,
        does: "History items are sent without their `id` (tried: 0.110, 0.128).",
        evidence: &[
            Fixture("testdata/versions/history-ids/verdicts/0.110.0.json"),
            Fixture("testdata/versions/history-ids/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: HistoryItemIds,
        from: v(0, 147, 0),
        until: None,
        answer: Keeps,
        does: "History items are sent with their `id` (tried: 0.147, 0.154, 0.160, 0.171).",
        evidence: &[
            Fixture("testdata/versions/history-ids/verdicts/0.147.0.json"),
            Fixture("testdata/versions/history-ids/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: UnknownRecordType,
        from: v(0, 36, 0),
        until: None,
        answer: Skips,
        does: "The line is skipped with a warning (`skipping unknown rollout line`); 0.171 \
               decodes 13 record types, `dynamic_tools_updated` among them (tried: 0.171).",
        evidence: &[
            Fixture("testdata/replay/verdicts/record-type-unknown.json"),
            Fixture("testdata/replay/verdicts/dynamic-tools-updated.json"),
        ],
    },
    Row {
        behaviour: UndecodableItem,
        from: v(0, 36, 0),
        until: None,
        answer: Skips,
        does: "The line is skipped (`skipping unknown rollout line … missing field …`, \
               `invalid type …`) with a skipped ordinal range: the item is not sent, and a \
               call's output left without its call is dropped as an orphan, a call left \
               without its output gets a synthetic one (tried: 0.171, on every top-level field \
               of `message`, `reasoning`, `function_call`, `function_call_output`, \
               `custom_tool_call`, `custom_tool_call_output`, `web_search_call`, \
               `tool_search_call` and `tool_search_output`; a `function_call_output` without \
               `call_id` is read, a `custom_tool_call_output` without it is not). A \
               `turn_context` that fails is skipped too: the history is whole, the settings \
               are the previous ones.",
        evidence: &[
            Fixture("testdata/typed/shell171/verdicts.ndjson"),
            Fixture("testdata/typed/apply_patch171/verdicts.ndjson"),
            Fixture("testdata/typed/web_search171/verdicts.ndjson"),
            Fixture("testdata/typed/mcp171/verdicts.ndjson"),
        ],
    },
    Row {
        behaviour: ResponseItemTypes,
        from: v(0, 36, 0),
        until: Some(v(0, 128, 99)),
        answer: Knows(&[
            "message",
            "reasoning",
            "local_shell_call",
            "function_call",
            "tool_search_call",
            "function_call_output",
            "custom_tool_call",
            "custom_tool_call_output",
            "tool_search_output",
            "web_search_call",
            "image_generation_call",
            "ghost_snapshot",
            "compaction",
            "other",
        ]),
        does: "Another `type` is read as `Other` and not sent, without a warning (tried: 0.128, \
               legacy and paginated). The names are the 0.128 binary's, in its order; `\"type\": \
               7` on a `function_call_output` was read as index 7, `custom_tool_call_output` \
               (then dropped as an orphan), `99` as `Other`.",
        evidence: &[
            Fixture("testdata/typed/cases/unknown-type/verdicts/0.128.0.json"),
            Fixture("testdata/typed/cases/unknown-type-legacy/verdicts/0.128.0.json"),
            Fixture("testdata/typed/cases/tag-index-7/verdicts/0.128.0.json"),
            Fixture("testdata/typed/cases/tag-index-99/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: ResponseItemTypes,
        from: v(0, 129, 0),
        until: None,
        answer: Knows(&[
            "additional_tools",
            "message",
            "agent_message",
            "reasoning",
            "local_shell_call",
            "function_call",
            "tool_search_call",
            "function_call_output",
            "custom_tool_call",
            "custom_tool_call_output",
            "tool_search_output",
            "web_search_call",
            "image_generation_call",
            "compaction",
            "configuration_update",
            "compaction_trigger",
            "context_compaction",
            "other",
        ]),
        does: "Another `type` is read as `Other` and not sent, without a warning (tried: 0.147, \
               0.160, 0.171, legacy and paginated; versions between 0.128 and 0.147 not \
               asked). The names are \
               the 0.171 binary's; a number is read as an index into them (`0` is \
               `additional_tools`: a message written so is skipped, `missing field tools`; `5` \
               `function_call`, `7` `function_call_output`; `99` `Other`).",
        evidence: &[
            Fixture("testdata/typed/cases/unknown-type/verdicts/0.147.0.json"),
            Fixture("testdata/typed/cases/unknown-type/verdicts/0.160.0.json"),
            Fixture("testdata/typed/cases/unknown-type/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/unknown-type-legacy/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/tag-index-0/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/tag-index-7/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/tag-index-99/verdicts/0.171.0.json"),
            Fixture("testdata/typed/shell171-tag/verdicts.ndjson"),
        ],
    },
    Row {
        behaviour: ImagePreparation,
        from: v(0, 36, 0),
        until: Some(v(0, 128, 99)),
        answer: Keeps,
        does: "Sent as written: a 3840×2160 PNG at its size, bytes that are no image, an \
               `https` URL (tried: 0.128).",
        evidence: &[
            Fixture("testdata/typed/cases/image-3840x2160/verdicts/0.128.0.json"),
            Fixture("testdata/typed/cases/image-undecodable/verdicts/0.128.0.json"),
            Fixture("testdata/typed/cases/image-remote/verdicts/0.128.0.json"),
        ],
    },
    Row {
        behaviour: ImagePreparation,
        from: v(0, 129, 0),
        until: None,
        answer: Prepares,
        does: "A `data:` image of a user message or a tool output is resized to fit 2048 pixels \
               a side and 2,500 patches of 32×32 (3840×2160 → 2048×1152, 2200×2000 → \
               1654×1504), kept PNG, JPEG or WebP, other formats sent as PNG; one Codex cannot \
               decode, an `https` URL or `detail: low` is replaced by a text saying so (`WARN \
               … failed to prepare message image`) (tried: 0.147, 0.160, 0.171; versions \
               between 0.128 and 0.147 not asked).",
        evidence: &[
            Fixture("testdata/typed/cases/image-3840x2160/verdicts/0.147.0.json"),
            Fixture("testdata/typed/cases/image-undecodable/verdicts/0.160.0.json"),
            Fixture("testdata/typed/cases/image-3840x2160/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/image-2200x2000/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/image-jpeg-2200x2000/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/image-2048x1024/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/image-undecodable/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/image-remote/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/image-detail-low/verdicts/0.171.0.json"),
            Fixture("testdata/typed/cases/image-tool-output/verdicts/0.171.0.json"),
            Upstream("codex-rs/utils/image/src/lib.rs, prompt_image_resize_dimensions"),
        ],
    },
    Row {
        behaviour: ConfigurationUpdate,
        from: v(0, 36, 0),
        until: None,
        answer: Strips,
        does: "Decoded (without `reasoning` the line is skipped with a warning) and not sent: \
               `replay` leaves it out of the history (tried: 0.171).",
        evidence: &[Fixture(
            "testdata/replay/verdicts/configuration-update.json",
        )],
    },
    Row {
        behaviour: DeliveredAssistantMessage,
        from: v(0, 36, 0),
        until: None,
        answer: Strips,
        does: "An assistant message with one `output_text`, a passthrough `turn_id`, \
               `metadata.user_input_order` and a delivery marker (`…:complete`, \
               `…:incomplete:<text>`) is read back as retained context and not sent; without \
               the marker or the `turn_id` it is an ordinary message (tried: 0.171).",
        evidence: &[
            Upstream("codex-rs/history/src/rollout_payload.rs, From<RolloutItemWire>"),
            Fixture("testdata/replay/verdicts/delivered-assistant-message.json"),
        ],
    },
    Row {
        behaviour: LocalShellCallWithoutCallId,
        from: v(0, 36, 0),
        until: None,
        answer: Ignores,
        does: "Sent as it is, with no synthetic output: nothing answers it (tried: 0.128, \
               0.147, 0.171).",
        evidence: &[
            Fixture("testdata/replay/verdicts/local-shell-call-no-call-id.json"),
            Fixture("testdata/replay/by-version/local-shell-call-no-call-id-0.147.0.json"),
            Fixture("testdata/replay/by-version/local-shell-call-no-call-id-0.128.0.json"),
        ],
    },
    // --- the state databases (`state` rules; versions before 0.153 are not checked) ----
    Row {
        behaviour: StateRolloutMissing,
        from: v(0, 153, 0),
        until: None,
        answer: Refuses,
        does: "Refuses the thread (`no rollout found for thread id …`; `thread/read`: `invalid \
               paginated history lineage … missing source rollout`), though a file with its id \
               lies elsewhere in the home: moved to another day's folder, renamed, put in \
               `archived_sessions/` without the database, or deleted (tried: 0.153.4, 0.154, \
               0.160, 0.171).",
        evidence: &[
            Fixture("testdata/statedb/verdicts/0.153.4.json"),
            Fixture("testdata/statedb/verdicts/0.160.0.json"),
            Fixture("testdata/statedb/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: CheckpointPastEnd,
        from: v(0, 153, 0),
        until: None,
        answer: ProjectionStops,
        does: "`durable rollout shrank before projection`: the resume sends what the file holds, \
               but a client keeps being shown the turns that are gone and is never shown the \
               next (tried: 0.153.4, 0.154, 0.160, 0.171).",
        evidence: &[
            Fixture("testdata/statedb/verdicts/0.153.4.json"),
            Fixture("testdata/statedb/verdicts/0.160.0.json"),
            Fixture("testdata/statedb/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: CheckpointInsideLine,
        from: v(0, 153, 0),
        until: None,
        answer: Skips,
        does: "The projection skips the part of the line and goes on at the next one, whose \
               ordinal it expected: every turn is shown after a resume (tried: 0.153.4, 0.154, \
               0.160, 0.171).",
        evidence: &[
            Fixture("testdata/statedb/verdicts/0.153.4.json"),
            Fixture("testdata/statedb/verdicts/0.160.0.json"),
            Fixture("testdata/statedb/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: CheckpointRegress,
        from: v(0, 153, 0),
        until: Some(v(0, 153, 99)),
        answer: ProjectionStops,
        does: "The projection stops there for good (`expected ordinal 45, got 44`): a client is \
               shown the turns before it and never another, while the model gets everything \
               (tried: 0.153.4; openai/codex#41079).",
        evidence: &[
            Upstream("openai/codex#41079 (0.150–0.153)"),
            Fixture("testdata/statedb/verdicts/0.153.4.json"),
        ],
    },
    Row {
        behaviour: CheckpointRegress,
        from: v(0, 154, 0),
        until: None,
        answer: Skips,
        does: "The projection skips the line with a warning (`skipping duplicate or regressed \
               rollout ordinal`) and a resume shows every turn; it also repairs a projection \
               0.153 left stuck (tried: 0.154, 0.160, 0.171).",
        evidence: &[
            Upstream("openai/codex#42369 (0.154)"),
            Fixture("testdata/statedb/verdicts/0.160.0.json"),
            Fixture("testdata/statedb/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: CheckpointGap,
        from: v(0, 153, 0),
        until: Some(v(0, 153, 99)),
        answer: ProjectionStops,
        does: "The projection defers the line and stops (`deferring rejected rollout line until \
               a later ordinal resolves it`): a client is shown the turns before the checkpoint \
               and never another (tried: 0.153.4).",
        evidence: &[Fixture("testdata/statedb/verdicts/0.153.4.json")],
    },
    Row {
        behaviour: CheckpointGap,
        from: v(0, 154, 0),
        until: None,
        answer: Skips,
        does: "The projection skips to the line and stores the turn from there: a client is shown \
               the turn without the items before it (14 of 15: the user's message lost), while \
               the model gets everything (tried: 0.154, 0.160, 0.171).",
        evidence: &[
            Upstream("openai/codex#43744"),
            Fixture("testdata/statedb/verdicts/0.160.0.json"),
            Fixture("testdata/statedb/verdicts/0.171.0.json"),
        ],
    },
    Row {
        behaviour: TurnBounds,
        from: v(0, 153, 0),
        until: None,
        answer: Ignores,
        does: "Not read by the views tried: `thread/read`, `thread/resume` and \
               `thread/turns/list` show every turn and item, and the bounds stay wrong (tried: \
               0.153.4, 0.160, 0.171, a turn's start moved into its line and a turn's end ordinal one \
               past it).",
        evidence: &[
            Fixture("testdata/statedb/verdicts/0.153.4.json"),
            Fixture("testdata/statedb/verdicts/0.160.0.json"),
            Fixture("testdata/statedb/verdicts/0.171.0.json"),
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_behaviours_rows_are_ordered_ranges_that_leave_no_version_out() {
        for b in Behaviour::ALL {
            let rows: Vec<&Row> = TABLE.iter().filter(|r| r.behaviour == b).collect();
            assert!(!rows.is_empty(), "{b:?}: no row");
            assert!(rows.last().unwrap().until.is_none(), "{b:?}: no open row");
            for w in rows.windows(2) {
                let until = w[0].until.expect("only the last row is open");
                assert!(w[0].from <= until, "{b:?}");
                // The next range starts right after: no version is in two rows or none.
                let next = w[1].from;
                assert!(until < next, "{b:?}: rows overlap");
                let adjacent = (until.major, until.minor + 1, 0) == (next.major, next.minor, 0)
                    || (until.major, until.minor, until.patch + 1)
                        == (next.major, next.minor, next.patch);
                assert!(adjacent, "{b:?}: {until} then {next}");
            }
        }
        assert!(TABLE.iter().all(|r| r.from <= crate::codex::NEWEST));
    }

    #[test]
    fn each_behaviours_rows_are_together_and_found_by_its_place_in_all() {
        for (i, b) in Behaviour::ALL.into_iter().enumerate() {
            assert_eq!(b as usize, i, "{b:?} is out of its declared order in ALL");
            let all: Vec<*const Row> = TABLE
                .iter()
                .filter(|r| r.behaviour == b)
                .map(|r| r as *const Row)
                .collect();
            let found: Vec<*const Row> = rows_of(b).iter().map(|r| r as *const Row).collect();
            assert_eq!(found, all, "{b:?}: its rows are not together in the table");
        }
    }

    #[test]
    fn a_version_reads_as_its_range_and_an_older_one_as_the_oldest_row() {
        let ordinals = |s: &str| row(OrdinalOutOfOrder, s.parse().unwrap()).answer;
        assert_eq!(ordinals("0.147.0"), ProjectionStops);
        assert_eq!(ordinals("0.153.4"), ProjectionStops);
        assert_eq!(ordinals("0.154.0"), Warns);
        assert_eq!(ordinals("0.999.0"), Warns);
        assert_eq!(ordinals("0.1.0"), Ignores);
    }
}
