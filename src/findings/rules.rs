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
    /// The file starts with a UTF-8 byte order mark. Codex parses the first line as JSON and
    /// fails on the mark ("failed to parse first rollout record", openai/codex#28139): the
    /// resume is refused. Fix: write UTF-8 without a BOM.
    FileBom = "file.bom", Error, "the file starts with a UTF-8 byte order mark";

    /// The first non-blank line is not a decodable `session_meta`. Codex's resume and append
    /// paths require it ("does not start with session metadata"), and the listing hides the
    /// thread. Fix: write `session_meta` as the file's first record.
    MetaFirst = "meta.first", Error, "the first record is not a decodable session_meta";

    /// The file holds no `session_meta` at all. Codex cannot learn the thread id ("failed to
    /// parse thread ID from rollout file") and refuses the file.
    MetaMissing = "meta.missing", Error, "no session_meta in the file";

    /// `session_meta.history_mode` is neither `legacy` nor `paginated`. Codex refuses to
    /// load the rollout at all.
    MetaHistoryMode = "meta.history-mode", Error, "history_mode is not legacy or paginated";

    /// A record of a legacy file carries an `ordinal`. Codex never writes one in legacy mode
    /// and ignores it: a foreign writer.
    OrdinalInLegacy = "ordinal.in-legacy", Warning, "an ordinal in a legacy rollout";

    /// A record of a paginated file has no `ordinal`. The thread-store writer and the history
    /// projection reject the line; on the last record Codex can parse, the next resume fails
    /// ("final paginated rollout record is missing an ordinal", openai/codex#45150).
    OrdinalMissing = "ordinal.missing", Error, "a paginated record without ordinal";

    /// The first ordinal is not `history_base.end_ordinal_exclusive` (0 without a
    /// `history_base`): every later ordinal is shifted and a fork's cut is wrong.
    OrdinalStart = "ordinal.start", Error, "the first ordinal is not where the file must start";

    /// An ordinal repeats an earlier one or goes back. Codex's thread-history projection
    /// stops there for good ("expected ordinal N, got N-1", openai/codex#41566).
    OrdinalNonMonotonic = "ordinal.non-monotonic", Error, "a duplicate or decreasing ordinal";

    /// Ordinals are skipped and never appear. Codex's recorder tolerates gaps; dense readers
    /// of the history (writer reopen, projection) do not.
    OrdinalGap = "ordinal.gap", Warning, "ordinals that never appear";

    /// A line after the last record Codex can parse carries an ordinal at or above the one
    /// the next resume writes: a torn write, an unknown record type, a rejected line. The
    /// resume reuses the ordinal, creating a duplicate (openai/codex#44417).
    OrdinalTailUnparseable = "ordinal.tail-unparseable", Error, "an unparseable tail line whose ordinal the next resume reuses";

    /// A sub-agent file's inherited prefix stops short of
    /// `subagent_history_start_ordinal - 1`: its resume fails.
    OrdinalSubagentPrefix = "ordinal.subagent-prefix", Error, "a sub-agent's inherited prefix is incomplete";

    /// `history_base` lacks a part Codex needs (`thread_id`, an `end_ordinal_exclusive`
    /// above 0, `end_byte_offset`): the lineage cannot even be looked up.
    HistoryBaseShape = "history_base.shape", Error, "a malformed history_base";

    /// The `history_base` source rollout cannot be found, cannot be read, is not paginated,
    /// or does not reach the cutoff: Codex cannot rebuild the inherited prefix ("missing
    /// source rollout", "cutoff is outside resolved source rollout").
    HistoryBaseResolve = "history_base.resolve", Error, "the history_base source is missing or unusable";

    /// `history_base.end_byte_offset` is past the source's end, not just after a newline, or
    /// not the byte offset of the source's first record at or past the cutoff ordinal
    /// ("cutoff byte offset does not match its ordinal boundary").
    HistoryBaseByteOffset = "history_base.byte-offset", Error, "end_byte_offset is not the source's ordinal boundary";

    /// `session_meta.model_provider` is null or empty. Codex resumes only when the user's
    /// config names a provider; otherwise the resume fails with "Model provider not found".
    /// Fix: write the provider the session ran with.
    MetaModelProvider = "meta.model-provider", Warning, "session_meta.model_provider is null or empty";

    /// A line that is not valid JSON, or not valid UTF-8. Codex skips an invalid JSON line
    /// (its record is lost on resume); invalid UTF-8 anywhere makes Codex 0.147 refuse the
    /// whole file. A torn last line (a crash mid-write) is one too. Fix: write each record as
    /// one line of UTF-8 JSON.
    LineJson = "line.json", Error, "a line that is not valid JSON or UTF-8";

    /// A line that is JSON but not an object (an array, a string...). Codex cannot read it as
    /// a record and skips it: what it held is lost on resume.
    LineNotObject = "line.not-object", Error, "a line that is not a JSON object";

    /// A record without a string `timestamp`. Codex's reader rejects the line and the record
    /// is lost on resume.
    LineTimestamp = "line.timestamp", Error, "a record without a string timestamp";

    /// A record without a string `type`. Codex cannot tell what it is and skips it.
    LineType = "line.type", Error, "a record without a string type";

    /// A record whose `ordinal` is not an unsigned integer. Codex rejects the line.
    LineOrdinal = "line.ordinal", Error, "an ordinal that is not an unsigned integer";

    /// A line longer than `--max-line-bytes`: rollscope skipped it unread (Codex's own
    /// limits are lower: see `line.oversized` in `docs/rules.md`).
    LineOversized = "line.oversized", Error, "a line longer than the read limit";

    /// A record whose `payload` is missing or not an object, or a known record whose payload
    /// Codex cannot decode into its type (a `compacted` without the shape
    /// `CompactedItemWire` requires): Codex skips the whole line, and what it carried is lost
    /// on resume.
    LinePayload = "line.payload", Error, "a payload Codex cannot decode into its record type";

    /// A `compacted` record's `replacement_history_metadata` has another length than its
    /// `replacement_history` (or comes without one). Codex rejects the line ("replacement
    /// history metadata has M entries for H history items") and the checkpoint is lost: on
    /// resume the history rests on the previous compaction, and everything written since is
    /// replayed onto it (verified with Codex 0.171). Fix: write one metadata entry (`{}` when
    /// empty) per history item.
    CompactMetadataLen = "compact.metadata-len", Error, "replacement_history_metadata does not match replacement_history";

    /// A `world_state` patch (`full: false`) comes before any full snapshot. Codex ignores it
    /// ("ignored world-state patch without a full snapshot"), so the state it describes is
    /// lost on resume. Fix: write a full snapshot first.
    WorldStatePatchBeforeFull = "world_state.patch-before-full", Warning, "a world_state patch before any full snapshot";

    /// A tool call has no output in the rebuilt history. Codex sends a synthetic `aborted`
    /// output right after it (`ensure_call_outputs_present`): the model reads the call as
    /// aborted. Not reported for the open last turn, whose call may still be running.
    PairMissingOutput = "pair.missing-output", Warning, "a tool call without output";

    /// A tool output has no call in the rebuilt history. Codex drops it before sending
    /// (`remove_orphan_outputs`; the API would reject it with a 400): what the tool said is
    /// lost to the model.
    PairOrphanOutput = "pair.orphan-output", Warning, "a tool output without its call";

    /// `thread_rolled_back.num_turns` is larger than the user turns left in the history:
    /// Codex drops every user turn (keeping only the leading context), which is rarely what
    /// the writer meant.
    RollbackOverflow = "rollback.overflow", Warning, "a rollback larger than the history";

    /// A turn that never ended: no `task_complete` or `turn_aborted`, and a later turn
    /// began (the writer died mid-turn, or lost the event). Codex resumes; its app-server
    /// shows the turn as interrupted (0.128 and later), and nothing proves what the turn's
    /// calls did. The open last turn (still running, or killed last) is not flagged.
    TurnUnterminated = "turn.unterminated", Warning, "a turn that never ended";
}

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
        }
        assert_eq!(Rule::from_slug("ordinal"), None);
    }
}
