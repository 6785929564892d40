//! The rule registry: every kind of finding, as data.
//!
//! Each rule has a slug (`group.name`), a default severity, a one-line summary and its
//! documentation, written once in the `rules!` declaration below (the doc comment is the
//! documentation, as clippy and ruff declare their lints). Findings name their rule
//! ([`super::Finding::rule`]); `check-ordinal` reports these rules today, `replay`
//! and `lint` extend the registry with theirs.
//!
//! Severity follows what the real Codex does with such a file: **error** when it refuses
//! the file or loses records or history on resume, or a format rule readers rely on is
//! broken; **warning** when it copes but something is wrong or lossy for some consumer;
//! **info** for facts worth knowing.

use serde::{Serialize, Serializer};

use super::Severity;

/// Declares the [`Rule`] enum and its table from one list of
/// `/// docs` `Variant = "slug", Severity, "summary";` entries.
macro_rules! rules {
    ($( $(#[doc = $doc:literal])+ $variant:ident = $slug:literal, $severity:ident, $summary:literal; )+) => {
        /// A rule of the registry.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $( $(#[doc = $doc])+ $variant, )+
        }

        impl Rule {
            /// Every rule, in registry order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),+];

            /// `group.name`.
            pub fn slug(self) -> &'static str {
                match self { $(Rule::$variant => $slug,)+ }
            }

            /// The severity a finding of this rule has unless its check says otherwise.
            pub fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity,)+ }
            }

            /// One line: what the rule checks.
            pub fn summary(self) -> &'static str {
                match self { $(Rule::$variant => $summary,)+ }
            }

            /// The rule's documentation (its doc comment), one line per doc line.
            pub fn doc(self) -> &'static str {
                match self { $(Rule::$variant => concat!($($doc, "\n"),+),)+ }
            }
        }
    };
}

rules! {
    /// **Checks.** Line 1 starts with a UTF-8 byte order mark (`EF BB BF`).
    ///
    /// **Why it matters.** Codex parses the first line as JSON and fails on the mark
    /// ("failed to parse first rollout record", openai/codex#28139): it refuses to resume the
    /// thread, and its listing hides it.
    ///
    /// **Example.** A writer opened the file with a BOM-adding encoding (`utf-8-sig`).
    ///
    /// **Fix.** Write UTF-8 without a BOM; strip the first three bytes of an affected file.
    FileBom = "file.bom", Error, "the file starts with a UTF-8 byte order mark";

    /// **Checks.** The file holds at least one line that is not blank.
    ///
    /// **Why it matters.** Codex refuses an empty rollout ("does not start with session
    /// metadata"); its listing hides it.
    ///
    /// **Example.** A file created when a session started, and never written.
    ///
    /// **Fix.** Delete it, or write the session's records into it.
    FileEmpty = "file.empty", Error, "the file is empty";

    /// **Checks.** The last line ends with a newline.
    ///
    /// **Why it matters.** Codex's next append goes right after the last byte: Codex 0.128
    /// appends its next record onto the unterminated line, so that record is lost too
    /// (0.147 and 0.171 end the line first).
    ///
    /// **Example.** A writer that puts the newline before each record instead of after.
    ///
    /// **Fix.** End every record with a newline (`\n`).
    FileNoFinalNewline = "file.no-final-newline", Warning, "the last line has no final newline";

    /// **Checks.** The file is named as Codex names rollouts:
    /// `rollout-<YYYY-MM-DDThh-mm-ss>-<thread id>[_<rollout id>].jsonl[.zst]`, the ids
    /// being UUIDs. An error for a `.jsonl`/`.jsonl.zst` inside a Codex home's `sessions/`
    /// or `archived_sessions/` (lint's walk takes every such file, whatever its name); a
    /// warning elsewhere.
    ///
    /// **Why it matters.** Codex finds a thread by its file name: under `sessions/` a file it
    /// does not recognise is never found, so its resume is refused and its listing hides it
    /// (verified with 0.128, 0.147 and 0.171). Elsewhere the file cannot be moved into a Codex
    /// home as it is.
    ///
    /// **Example.** `sessions/2026/11/29/session-copy.jsonl`; `rollout-2026-11-29-abc.jsonl`.
    ///
    /// **Fix.** Rename it `rollout-<local start time>-<session_meta.id>.jsonl`.
    FileName = "file.name", Warning, "the file name is not a rollout name";

    /// **Checks.** A rollout inside a Codex home sits where Codex looks for it: in
    /// `sessions/YYYY/MM/DD/`, the folder of the date its name carries, or directly in
    /// `archived_sessions/`. Files outside any Codex home are not judged.
    ///
    /// **Why it matters.** Codex walks the date folders to list and find threads: a file
    /// elsewhere under `sessions/` is not listed and, for lookups that walk by date, not
    /// found.
    ///
    /// **Example.** `sessions/2026/11/rollout-2026-11-29T12-00-00-….jsonl` (no day folder);
    /// a file of the 29th in `sessions/2026/11/30/`.
    ///
    /// **Fix.** Move it to `sessions/<its name's date as YYYY/MM/DD>/`.
    FileLocation = "file.location", Warning, "a rollout outside the folder Codex looks in";

    /// **Checks.** A `.jsonl.zst` rollout has no plain `.jsonl` twin beside it.
    ///
    /// **Why it matters.** Codex reads the plain file and ignores the compressed one: the
    /// `.zst` is never resumed or listed, and whatever it holds beyond the plain file is
    /// invisible. rollscope's walks prefer the plain file too; lint reports the `.zst`
    /// without reading it.
    ///
    /// **Example.** A compression job that wrote `X.jsonl.zst` but failed to delete `X.jsonl`.
    ///
    /// **Fix.** Keep one of the two: delete the plain file once the `.zst` is verified, or
    /// the `.zst`.
    FileZstShadowed = "file.zst-shadowed", Warning, "a .jsonl.zst shadowed by its plain twin";

    /// **Checks.** The first non-blank line is a decodable `session_meta`: a `session_meta`
    /// record whose `id`, `timestamp`, `cwd`, `originator` and `cli_version` are strings.
    ///
    /// **Why it matters.** Codex's resume and append paths require it: another first record
    /// is refused ("does not start with session metadata"), a mistyped field too ("failed to
    /// read session metadata", verified with 0.171 on a numeric `cli_version`), and the
    /// listing hides the thread.
    ///
    /// **Example.** An `event_msg` written before the `session_meta`; `"cli_version": 171`.
    ///
    /// **Fix.** Write `session_meta` first, with the fields Codex writes, as strings.
    MetaFirst = "meta.first", Error, "the first record is not a decodable session_meta";

    /// **Checks.** The file holds a `session_meta` at all.
    ///
    /// **Why it matters.** Without one Codex cannot learn the thread ("failed to parse thread
    /// ID from rollout file", "does not start with session metadata"): the resume is refused.
    ///
    /// **Example.** The first line was lost in a crash, or a tool wrote only events.
    ///
    /// **Fix.** Write the `session_meta` the session started with as the first line.
    MetaMissing = "meta.missing", Error, "no session_meta in the file";

    /// **Checks.** `session_meta.history_mode` is absent, `legacy` or `paginated`.
    ///
    /// **Why it matters.** Codex refuses to load a rollout of any other mode ("unknown
    /// variant, expected `legacy` or `paginated`", verified with 0.171); its ordinals are not
    /// judged.
    ///
    /// **Example.** `"history_mode": "stacked"` from a newer or foreign writer.
    ///
    /// **Fix.** Write `legacy` (or nothing) unless the file follows the paginated contract.
    MetaHistoryMode = "meta.history-mode", Error, "history_mode is not legacy or paginated";

    /// **Checks.** The file holds one `session_meta`.
    ///
    /// **Why it matters.** In a paginated file, a second one breaks the contract (the
    /// recorder writes it once; "session metadata identity changed" when its id differs). In
    /// a legacy file, or when it is the parent's (`forked_from_id`) heading the copy of its
    /// history that a copy-fork or a sub-agent (the real 0.171 writes it as line 2 of a
    /// paginated child) carries, it is a fact, as info: the first one is the file's own.
    ///
    /// **Example.** A fork that copied its parent's records, `session_meta` included.
    ///
    /// **Fix.** In a paginated file, remove the later ones.
    MetaMultiple = "meta.multiple", Error, "more than one session_meta";

    /// **Checks.** The first `session_meta`'s `id` is the thread id of the file's name
    /// (`rollout-<time>-<thread id>[_<rollout id>].jsonl`).
    ///
    /// **Why it matters.** Codex finds a thread by its file name, then runs it under the
    /// metadata's id (verified with 0.171): a reader that finds threads by name opens the
    /// wrong one, and a resume by id does not find the file.
    ///
    /// **Example.** A rollout copied under another session's name.
    ///
    /// **Fix.** Name the file after its `session_meta.id`.
    MetaIdVsFileName = "meta.id-vs-filename", Error, "the session_meta id differs from the file name";

    /// **Checks.** `session_meta.model_provider`, when written, is not null or empty.
    ///
    /// **Why it matters.** The session's provider is lost: Codex resumes it on whatever
    /// the user's config names. Verified with a config naming no provider: 0.128 and 0.147
    /// take the config's default for any file; 0.171, which keeps a thread on the provider
    /// its file names (and refuses to switch a `mock` thread to `openai`), runs a null one
    /// on the default provider. Without a usable default provider the resume fails ("Model
    /// provider not found").
    ///
    /// **Example.** `"model_provider": null`.
    ///
    /// **Fix.** Write the provider the session ran with.
    MetaModelProvider = "meta.model-provider", Warning, "session_meta.model_provider is null or empty";

    /// **Checks.** Every line is valid UTF-8 JSON.
    ///
    /// **Why it matters.** Codex skips an invalid JSON line: its record is lost on resume.
    /// Invalid UTF-8 anywhere makes Codex 0.147 refuse the whole file. A torn last line (a
    /// crash mid-write) is one too.
    ///
    /// **Example.** A line cut in half; a Latin-1 byte in a message.
    ///
    /// **Fix.** Write each record as one line of UTF-8 JSON.
    LineJson = "line.json", Error, "a line that is not valid JSON or UTF-8";

    /// **Checks.** Every line is a JSON object.
    ///
    /// **Why it matters.** Codex cannot read another value as a record and skips it: what it
    /// held is lost on resume.
    ///
    /// **Example.** `[1,2,3]` on a line of its own.
    ///
    /// **Fix.** Write records as `{timestamp, type, payload}` objects.
    LineNotObject = "line.not-object", Error, "a line that is not a JSON object";

    /// **Checks.** Every record has a string `timestamp`.
    ///
    /// **Why it matters.** Codex's reader rejects the line and the record is lost on resume.
    ///
    /// **Example.** A record written without its envelope's `timestamp`.
    ///
    /// **Fix.** Stamp every record (RFC 3339, UTC).
    LineTimestamp = "line.timestamp", Error, "a record without a string timestamp";

    /// **Checks.** Every record's `timestamp` is an RFC 3339 time in UTC (`…Z`), as Codex
    /// writes them (`2026-11-29T12:00:29.944Z`).
    ///
    /// **Why it matters.** Codex keeps the line, but sorts and lists threads by these times:
    /// a local time or another shape puts the session at the wrong time (or none) in its
    /// listing and in every tool that groups by day.
    ///
    /// **Example.** `"timestamp": "2026-11-29 12:02:16"`; `"…T13:02:16+01:00"`.
    ///
    /// **Fix.** Write UTC times in RFC 3339, with `Z`.
    LineTimestampFormat = "line.timestamp-format", Warning, "a timestamp that is not RFC 3339 UTC";

    /// **Checks.** Every record has a string `type`.
    ///
    /// **Why it matters.** Codex cannot tell what the record is and skips it.
    ///
    /// **Example.** `{"timestamp": "…", "payload": {…}}`.
    ///
    /// **Fix.** Write the record's type.
    LineType = "line.type", Error, "a record without a string type";

    /// **Checks.** An `ordinal`, when written, is an unsigned integer.
    ///
    /// **Why it matters.** Codex rejects the line; in a paginated file the record and its
    /// place in the sequence are lost.
    ///
    /// **Example.** `"ordinal": "12"` or `-1`.
    ///
    /// **Fix.** Write the ordinal as a number.
    LineOrdinal = "line.ordinal", Error, "an ordinal that is not an unsigned integer";

    /// **Checks.** Every record has an object `payload` of the shape its type requires (a
    /// `compacted` as `CompactedItemWire`, a `thread_rolled_back` with a `u32` `num_turns`).
    ///
    /// **Why it matters.** Codex skips the whole line: what it carried is lost on resume (a
    /// rollback marker that does not decode rolls nothing back, verified with 0.147).
    ///
    /// **Example.** `"num_turns": "2"`; a `replacement_history` entry that is a number.
    ///
    /// **Fix.** Write the payload with the types Codex writes.
    LinePayload = "line.payload", Error, "a payload Codex cannot decode into its record type";

    /// **Checks.** Every record's `type` is one the newest Codex decodes (`session_meta`,
    /// `response_item`, `event_msg`, `turn_context`, `compacted`, `world_state`,
    /// `token_usage_record`, `inter_agent_communication[_metadata]`, `retained_context`,
    /// `security_risk_score`, `realtime_item`).
    ///
    /// **Why it matters.** Codex skips a record of another type by design (a newer writer's
    /// record): what it held is not replayed. As the last line of a paginated file it makes
    /// Codex reuse its ordinal (`ordinal.tail-unparseable`).
    ///
    /// **Example.** `"type": "annotation"` from a tool that adds its own records.
    ///
    /// **Fix.** Keep foreign data out of the rollout, or in the payload of a known record.
    LineUnknownType = "line.unknown-type", Warning, "a record of a type Codex does not know";

    /// **Checks.** No record is longer than 16 MiB (a warning) or 24 MiB (an error). A line
    /// longer than `--max-line-bytes` (512 MiB by default) is skipped unread and reported
    /// here too.
    ///
    /// **Why it matters.** Codex's compression validation refuses a record over 16 MiB, and
    /// `codex migrate-rollouts` one over 24 MiB (`oversized_rollout_record`): the file cannot
    /// be compressed or migrated to paginated history. Such records also slow every resume.
    ///
    /// **Example.** A tool output of 30 MB written inline; an old inline compaction
    /// checkpoint.
    ///
    /// **Fix.** Truncate large outputs before writing them.
    LineOversized = "line.oversized", Warning, "a record over 16 MiB (24 MiB: error)";

    /// **Checks.** No record of a legacy file carries an `ordinal`.
    ///
    /// **Why it matters.** Codex never writes ordinals in legacy mode and ignores them: a
    /// foreign writer, whose file a paginated reader would misjudge.
    ///
    /// **Example.** `"ordinal": 5` on one line of a legacy rollout.
    ///
    /// **Fix.** Drop the ordinals, or write the file as paginated throughout.
    OrdinalInLegacy = "ordinal.in-legacy", Warning, "an ordinal in a legacy rollout";

    /// **Checks.** Every record of a paginated file has an `ordinal`.
    ///
    /// **Why it matters.** The thread-store writer and the history projection reject the
    /// line; on the last record Codex can parse, the next resume fails ("final paginated
    /// rollout record is missing an ordinal", openai/codex#45150).
    ///
    /// **Example.** A line appended by a tool that does not know about ordinals.
    ///
    /// **Fix.** Give the record the next ordinal.
    OrdinalMissing = "ordinal.missing", Error, "a paginated record without ordinal";

    /// **Checks.** The first ordinal is `history_base.end_ordinal_exclusive` (0 without a
    /// `history_base`).
    ///
    /// **Why it matters.** Every later ordinal is shifted, and a fork's cut into its source
    /// is wrong.
    ///
    /// **Example.** A fork child that starts again at 0.
    ///
    /// **Fix.** Start at the cutoff the `history_base` names.
    OrdinalStart = "ordinal.start", Error, "the first ordinal is not where the file must start";

    /// **Checks.** Ordinals only grow: none repeats an earlier one or goes back.
    ///
    /// **Why it matters.** Codex's thread-history projection stops there for good ("expected
    /// ordinal N, got N-1", openai/codex#41566); a resume skips the line with a warning.
    ///
    /// **Example.** Two writers appending to one file; a line written twice.
    ///
    /// **Fix.** Renumber from the first bad line; never let two writers share a file.
    OrdinalNonMonotonic = "ordinal.non-monotonic", Error, "a duplicate or decreasing ordinal";

    /// **Checks.** No ordinal is skipped for good.
    ///
    /// **Why it matters.** Codex's recorder tolerates gaps; dense readers of the history
    /// (writer reopen, projection) do not.
    ///
    /// **Example.** A line deleted by hand.
    ///
    /// **Fix.** Renumber the lines after the gap.
    OrdinalGap = "ordinal.gap", Warning, "ordinals that never appear";

    /// **Checks.** No line after the last record Codex can parse carries an ordinal at or
    /// above the one the next resume writes.
    ///
    /// **Why it matters.** The resume continues after the last parseable record and reuses
    /// the ordinal: a duplicate (openai/codex#44417). A torn write or an unknown record type
    /// as the last line does this.
    ///
    /// **Example.** A crash in the middle of writing the last line.
    ///
    /// **Fix.** Remove the unparseable line before resuming (keep the lines up to the last
    /// record Codex parses, `head -n N`): a final newline alone does not make it parseable.
    OrdinalTailUnparseable = "ordinal.tail-unparseable", Error, "an unparseable tail line whose ordinal the next resume reuses";

    /// **Checks.** A sub-agent file's inherited prefix reaches
    /// `subagent_history_start_ordinal - 1`.
    ///
    /// **Why it matters.** Its resume fails: the sub-agent's own history starts after a
    /// prefix that is not all there.
    ///
    /// **Example.** A sub-agent file cut short before its own records.
    ///
    /// **Fix.** Restore the inherited prefix from the parent.
    OrdinalSubagentPrefix = "ordinal.subagent-prefix", Error, "a sub-agent's inherited prefix is incomplete";

    /// **Checks.** A legacy file has no `history_base`.
    ///
    /// **Why it matters.** Only paginated files continue a source by reference; Codex
    /// ignores a legacy file's `history_base`, so the inherited history it names is not
    /// there (a legacy fork copies its parent's records instead).
    ///
    /// **Example.** A writer that adds `history_base` without switching to paginated mode.
    ///
    /// **Fix.** Write `history_mode: paginated` with the paginated contract, or copy the
    /// parent's records.
    HistoryBaseInLegacy = "history_base.in-legacy", Warning, "a history_base in a legacy rollout";

    /// **Checks.** `history_base` has a `thread_id`, an `end_ordinal_exclusive` above 0 and an
    /// `end_byte_offset`.
    ///
    /// **Why it matters.** Without them the lineage cannot even be looked up: Codex cannot
    /// rebuild the inherited prefix.
    ///
    /// **Example.** `"history_base": {"thread_id": "…"}` alone.
    ///
    /// **Fix.** Write the cutoff the fork was made at (ordinal and byte offset).
    HistoryBaseShape = "history_base.shape", Error, "a malformed history_base";

    /// **Checks.** The `history_base` source rollout can be found (the inputs, the file's
    /// folder, its Codex home, `$CODEX_HOME`), read, is paginated and reaches the cutoff; the
    /// lineage does not loop, and is at most 64 rollouts deep (rollscope follows it no
    /// further).
    ///
    /// **Why it matters.** Codex cannot rebuild the inherited prefix ("missing source
    /// rollout", "cutoff is outside resolved source rollout") and refuses the resume. A
    /// warning when no Codex home could be searched: the check could not be done.
    ///
    /// **Example.** A fork copied to another machine without its parent.
    ///
    /// **Fix.** Copy the source rollout into the same Codex home.
    HistoryBaseResolve = "history_base.resolve", Error, "the history_base source is missing or unusable";

    /// **Checks.** `history_base.end_byte_offset` lies within the source, just after a
    /// newline, at the source's first record at or past the cutoff ordinal.
    ///
    /// **Why it matters.** A reader that seeks by the offset ("cutoff byte offset does not
    /// match its ordinal boundary") reads the wrong prefix; Codex 0.171 does not read it.
    ///
    /// **Example.** An offset computed before a final newline was added.
    ///
    /// **Fix.** Write the byte offset of the source's line at the cutoff.
    HistoryBaseByteOffset = "history_base.byte-offset", Error, "end_byte_offset is not the source's ordinal boundary";

    /// **Checks.** In a fork by reference (a `session_meta` with a `history_base`),
    /// `forked_from_id` and `forked_from_ordinal_exclusive` come together, and the latter
    /// equals `history_base.end_ordinal_exclusive`; `forked_from_ordinal_exclusive` is never
    /// written without `forked_from_id`. A legacy copy-fork (which the real 0.171 writes
    /// with `forked_from_id` alone) and a sub-agent are not judged.
    ///
    /// **Why it matters.** Codex records the logical fork point apart from the physical
    /// history base; the real 0.171 fork writes both equal. When they differ, a reader that
    /// follows one and a reader that follows the other rebuild different histories.
    ///
    /// **Example.** `"forked_from_ordinal_exclusive": 12` with `"end_ordinal_exclusive": 14`.
    ///
    /// **Fix.** Write the fork point once, into both fields.
    ForkBoundary = "fork.boundary", Warning, "the fork point and the history base disagree";

    /// **Checks.** No `event_msg` is one Codex's persistence policy never writes: deltas,
    /// `*_begin` events, approval requests, errors and warnings, session and environment
    /// events (`codex-rs/rollout/src/policy.rs`). An `exec_command_end` is info: older Codex
    /// persisted it in its extended mode.
    ///
    /// **Why it matters.** Codex ignores them on resume (verified with 0.128, 0.147 and
    /// 0.171: the same history); a foreign writer that records its event stream wholesale
    /// bloats the file, and its readers see events no Codex file has.
    ///
    /// **Example.** `agent_message_delta` events, one per streamed token.
    ///
    /// **Fix.** Persist what Codex persists (`docs/rules.md` lists the policy's classes).
    PolicyTransientEvent = "policy.transient-event", Warning, "an event Codex never persists";

    /// **Checks.** A paginated file holds none of the events Codex persists only in legacy
    /// mode (`user_message`, `agent_message`, `agent_reasoning`, `patch_apply_end`,
    /// `context_compacted`, `mcp_tool_call_end`, `web_search_end`, …).
    ///
    /// **Why it matters.** Paginated files carry these as `item_completed` items. Codex
    /// resumes with the same history (verified with 0.147 and 0.171, whose app-server shows
    /// the turn once), but the file breaks its mode's contract: a reader that projects both
    /// the events and the items sees the turn's messages twice.
    ///
    /// **Example.** A writer switched to paginated mode that still emits legacy events.
    ///
    /// **Fix.** Write `item_completed` instead.
    PolicyLegacyEventInPaginated = "policy.legacy-event-in-paginated", Warning, "a legacy-only event in a paginated rollout";

    /// **Checks.** A legacy file holds no `item_completed` that only paginated mode
    /// persists (legacy keeps only `FunctionCallOutput`, `Plan`, `Extension` and
    /// `SubAgentActivity` items).
    ///
    /// **Why it matters.** Legacy readers take the turn's items from the legacy events.
    /// Codex resumes with the same history (verified with 0.128, 0.147 and 0.171), but the
    /// extra items duplicate the events for any reader that projects both.
    ///
    /// **Example.** `item_completed` `AgentMessage` beside the `agent_message` event.
    ///
    /// **Fix.** Write one of the two, as the file's mode says.
    PolicyPaginatedInLegacy = "policy.paginated-in-legacy", Warning, "a paginated-only event in a legacy rollout";

    /// **Checks.** No `response_item` is of a type Codex never persists
    /// (`additional_tools`, `compaction_trigger`).
    ///
    /// **Why it matters.** Codex's policy filters them out of its own files, and its reader
    /// drops them on resume (verified with 0.128, 0.147 and 0.171: the same history, the item
    /// not sent). The file comes from a foreign writer or proxy, and other readers may replay
    /// an item Codex never sends.
    ///
    /// **Example.** A `compaction_trigger` item recorded by a proxy.
    ///
    /// **Fix.** Leave them out of the rollout.
    PolicyResponseItem = "policy.response-item", Warning, "a response item Codex never persists";

    /// **Checks.** A paginated file holds no `thread_rolled_back` marker.
    ///
    /// **Why it matters.** Paginated Codex rejects `thread/rollback` and reverts by writing
    /// a new file whose `history_base` cuts the old one (0.171 `thread/revert`). A resume
    /// does apply the marker (verified with 0.128, 0.147 and 0.171: the turn is dropped), but
    /// a reader that projects the paginated history by ordinal does not, and Codex's bounded
    /// resume falls back to a full scan.
    ///
    /// **Example.** A legacy-style rollback appended to a paginated rollout.
    ///
    /// **Fix.** Revert through `history_base`, or keep the file legacy.
    PolicyRollbackInPaginated = "policy.rollback-in-paginated", Warning, "a rollback marker in a paginated rollout";

    /// **Checks.** A `compacted` record's `replacement_history_metadata` has one entry per
    /// `replacement_history` item (and comes only with one).
    ///
    /// **Why it matters.** Codex rejects the line ("replacement_history_metadata has M entries
    /// for H history items") and the checkpoint is lost: on resume the history rests on the
    /// previous compaction, and everything written since is replayed onto it (verified with
    /// 0.171).
    ///
    /// **Example.** A writer that drops the `{}` entries of items without metadata.
    ///
    /// **Fix.** Write one metadata entry (`{}` when empty) per history item.
    CompactMetadataLen = "compact.metadata-len", Error, "replacement_history_metadata does not match replacement_history";

    /// **Checks.** Reports a `compacted` record without `replacement_history` (Codex before
    /// 0.128).
    ///
    /// **Why it matters.** On resume Codex rebuilds the history from the user messages and
    /// the summary (the legacy fallback): an unusual prompt shape, and what the compaction
    /// kept beyond the summary is gone. A fact, not a defect.
    ///
    /// **Example.** Any compaction of Codex 0.36 or 0.80.
    ///
    /// **Fix.** Nothing to fix; newer Codex writes the replacement history.
    CompactLegacy = "compact.legacy", Info, "a compaction without replacement history";

    /// **Checks.** Reports a `compacted` record with a replacement history but no
    /// `window_number`.
    ///
    /// **Why it matters.** Codex's bounded resume (`ModelContextScan`) stops at a compaction
    /// only when it has both; without the window number it reads the whole file back to the
    /// start. Slower, not wrong.
    ///
    /// **Example.** Compactions of Codex 0.128.
    ///
    /// **Fix.** Nothing to fix; newer Codex writes the window.
    CompactWindow = "compact.window", Info, "a compaction without window_number";

    /// **Checks.** No `world_state` patch (`full: false`) comes before a full snapshot.
    ///
    /// **Why it matters.** Codex ignores such a patch ("ignored world-state patch without a
    /// full snapshot", verified with 0.171): the state it describes is lost on resume.
    ///
    /// **Example.** A writer that starts with a patch after a compaction cleared the state.
    ///
    /// **Fix.** Write a full snapshot first.
    WorldStatePatchBeforeFull = "world_state.patch-before-full", Warning, "a world_state patch before any full snapshot";

    /// **Checks.** Every tool call in the rebuilt history has an output.
    ///
    /// **Why it matters.** Codex sends a synthetic `aborted` output right after it
    /// (`ensure_call_outputs_present`, verified with 0.147): the model reads the call as
    /// aborted. Not reported for the open last turn, whose call may still be running.
    ///
    /// **Example.** A session killed while a command ran.
    ///
    /// **Fix.** Nothing, if the session was killed; otherwise write the output.
    PairMissingOutput = "pair.missing-output", Warning, "a tool call without output";

    /// **Checks.** Every tool output in the rebuilt history answers a call in it.
    ///
    /// **Why it matters.** Codex drops it before sending (`remove_orphan_outputs`, "Orphan
    /// function call output", verified with 0.147; the API would reject it with a 400): what
    /// the tool said is lost to the model.
    ///
    /// **Example.** A call line deleted, or cut away by a compaction.
    ///
    /// **Fix.** Keep each call with its output.
    PairOrphanOutput = "pair.orphan-output", Warning, "a tool output without its call";

    /// **Checks.** No call in the rebuilt history gets two outputs.
    ///
    /// **Why it matters.** Codex sends both copies (verified with 0.147 and 0.171, although
    /// its source reads as if it collapsed them): the model sees the tool answer twice.
    ///
    /// **Example.** A writer that retries a write and appends the output again.
    ///
    /// **Fix.** Write each output once.
    PairDuplicate = "pair.duplicate", Warning, "a tool output written twice";

    /// **Checks.** `thread_rolled_back.num_turns` is at most the user turns left in the
    /// history.
    ///
    /// **Why it matters.** Codex drops every user turn (keeping only the leading context),
    /// which is rarely what the writer meant.
    ///
    /// **Example.** `"num_turns": 10` in a session of three turns.
    ///
    /// **Fix.** Count the turns standing before writing the marker.
    RollbackOverflow = "rollback.overflow", Warning, "a rollback larger than the history";

    /// **Checks.** Reports a file with turns but no `token_count` carrying usage.
    ///
    /// **Why it matters.** Codex restores the session's token usage from the last
    /// `token_count` on resume: it starts at zero, and no tool can say what the session
    /// used. A fact about the writer.
    ///
    /// **Example.** A writer that records no usage events.
    ///
    /// **Fix.** Write `token_count` events after each response.
    TokensNone = "tokens.none", Info, "no token usage recorded";

    /// **Checks.** Every turn but the last ends (`task_complete` or `turn_aborted`) before the
    /// next begins.
    ///
    /// **Why it matters.** Codex resumes (verified with 0.147); its app-server shows the turn
    /// as interrupted, and nothing proves what the turn's calls did. The open last turn
    /// (still running, or killed last) is not flagged.
    ///
    /// **Example.** A writer that died mid-turn and was restarted.
    ///
    /// **Fix.** Write `turn_aborted` for a turn given up.
    TurnUnterminated = "turn.unterminated", Warning, "a turn that never ended";

    /// **Checks.** Every `turn_context`, `task_complete` and `turn_aborted` that names a
    /// `turn_id` falls inside the turn of that id.
    ///
    /// **Why it matters.** Codex's reconstruction ignores a `turn_context` that names another
    /// turn, so the turn's settings (model, cwd, policies) are not restored on resume; a
    /// terminal event for another turn leaves the turn it falls in unsettled. rollscope
    /// settles each event on the turn it names, as Codex does.
    ///
    /// **Example.** A `task_complete` with the previous turn's id written after the next
    /// `task_started`.
    ///
    /// **Fix.** Stamp each event with the id of the turn it belongs to.
    TurnIdMismatch = "turn.id-mismatch", Warning, "an event names another turn than its own";

    /// **Checks.** Reports a user turn without a `turn_context` of its own.
    ///
    /// **Why it matters.** Codex takes the previous turn's settings from the last
    /// `turn_context` on resume; without one it has no `previous_turn_settings` and injects
    /// the whole context again. A fact about the writer, or a turn killed before it began.
    ///
    /// **Example.** A writer that records `task_started` and the user message but no
    /// `turn_context`.
    ///
    /// **Fix.** Write a `turn_context` at the start of every turn.
    TurnNoContext = "turn.no-context", Info, "a user turn without a turn_context";

    /// **Checks.** No persisted tool output, `item_completed` or `image_generation_end` event
    /// holds an inline base64 image or audio (`data:image/…`, `data:audio/…`), and no
    /// `image_generation_call` keeps its `result`: the places Codex's persistence policy now
    /// strips (`clone_without_inline_media_payloads`).
    ///
    /// **Why it matters.** Older writers kept them: each image is megabytes in every
    /// resume's read, in the file and in each compaction that copies it (openai/codex#40111:
    /// a 98 GB rollout). Images the user attached to a message are kept by design and not
    /// flagged.
    ///
    /// **Example.** A `function_call_output` whose content holds an `input_image` with
    /// `"image_url": "data:image/png;base64,iVBOR…"`.
    ///
    /// **Fix.** Replace the data with Codex's placeholder ("[inline tool image omitted from
    /// persisted history]") or save the image to a file.
    ContentInlineMedia = "content.inline-media", Warning, "inline base64 media where Codex strips it";

    /// **Checks.** No string of the rollout (messages, reasoning summaries, tool arguments
    /// and output, instructions) looks like a credential: API keys of OpenAI, Anthropic,
    /// AWS (access key ids), GitHub, GitLab, Slack, Stripe and Google; bearer tokens; private
    /// key blocks; JWTs; passwords in URLs. Strings are read decoded (JSON escapes cannot
    /// hide a key), tool arguments as the JSON they hold. The patterns follow gitleaks'
    /// and detect-secrets' rules. Findings show a redacted excerpt, never the secret.
    ///
    /// **Why it matters.** A rollout keeps everything the session saw, verbatim: a key
    /// printed by `env` or pasted into a prompt travels with every copy of the file, into bug
    /// reports and shared transcripts.
    ///
    /// **Example.** A tool output of `cat .env` holding `OPENAI_API_KEY=sk-proj-…`.
    ///
    /// **Fix.** Rotate the credential, then redact it in the file before sharing it.
    ContentSecret = "content.secret", Warning, "a string that looks like a credential";

    /// **Checks.** Reports a file over 100 MB, or a record over 2 MB (up to 16 MiB, where
    /// `line.oversized` takes over).
    ///
    /// **Why it matters.** Codex reads the whole file on every resume and keeps large records
    /// in memory: slow resumes and out-of-memory kills (openai/codex#24948, #29531). A fact
    /// worth knowing before sharing or compressing the file.
    ///
    /// **Example.** A long session with big tool outputs and many compactions.
    ///
    /// **Fix.** Compact or start a new session; truncate large outputs.
    SizeLarge = "size.large", Info, "a file over 100 MB or a record over 2 MB";

    /// **Checks.** Reports a file whose first 210 records (Codex's listing reads 10, then up
    /// to 200 more) hold no preview: no `user_message` event or `thread_goal_updated`, nor,
    /// in a paginated file (which persists no `user_message`), an `item_completed`
    /// `UserMessage`.
    ///
    /// **Why it matters.** Codex's resume picker lists a thread only with a preview: this one
    /// is hidden from it, still resumable by id (openai/codex#21619).
    ///
    /// **Example.** A session whose first prompt came after a long run of events; one that
    /// never got a prompt.
    ///
    /// **Fix.** Nothing to fix in the file: resume it by id (`codex resume <id>`).
    ListingNoPreview = "listing.no-preview", Info, "no listing preview in the file's head";

}

/// The sections of every rule's documentation, in order.
pub const SECTIONS: [&str; 4] = [
    "**Checks.**",
    "**Why it matters.**",
    "**Example.**",
    "**Fix.**",
];

impl Rule {
    /// The slug's prefix: `ordinal`, `history_base`, ...
    pub fn group(self) -> &'static str {
        let slug = self.slug();
        slug.split_once('.').map_or(slug, |(g, _)| g)
    }

    /// The rule of a slug.
    pub fn from_slug(slug: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.slug() == slug)
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.slug())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_unique_lowercase_and_name_their_group() {
        let mut seen = std::collections::HashSet::new();
        for &r in Rule::ALL {
            let slug = r.slug();
            assert!(seen.insert(slug), "{slug} twice");
            assert!(
                slug.bytes()
                    .all(|b| b.is_ascii_lowercase() || b"._-".contains(&b)),
                "{slug}"
            );
            assert!(slug.starts_with(&format!("{}.", r.group())), "{slug}");
            assert_eq!(Rule::from_slug(slug), Some(r));
            assert!(!r.summary().is_empty() && r.doc().ends_with('\n'));
            // The documentation's fixed sections, in order.
            let doc = r.doc();
            let at: Vec<Option<usize>> = SECTIONS.iter().map(|s| doc.find(s)).collect();
            assert!(at.iter().all(Option::is_some), "{slug}: {doc}");
            assert!(
                at.windows(2).all(|w| w[0] < w[1]),
                "{slug}: sections out of order"
            );
        }
        assert_eq!(Rule::from_slug("ordinal"), None);
    }
}
