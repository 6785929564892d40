//! Findings in words: the message of every [`Cause`], and the human line a finding prints as.
//!
//! The analyses hand over findings as data; this is the one place that words them, so a
//! finding reads the same in every command and format. Messages are one sentence: what is
//! wrong and what it breaks in Codex.

use crate::findings::{Boundary, Cause, Finding, Place, Severity, Unparseable};
use crate::output::table::Tone;
use crate::output::Cell;

/// The finding's message.
pub fn message(f: &Finding) -> String {
    use Cause::*;
    let expected = f.expected;
    let found = f.found;
    match &f.cause {
        Bom => "line 1 starts with a UTF-8 byte order mark: Codex cannot parse its first record, \
                so its resume fails (openai/codex#28139)"
            .to_string(),
        FirstLineUnreadable(bad) => format!(
            "Codex cannot parse the first line ({bad}): its resume fails (\"failed to parse first \
             rollout record\")"
        ),
        FirstRecordNotMeta { type_name } => format!(
            "the first record is `{}`, not session_meta: Codex's resume fails (\"does not start \
             with session metadata\")",
            short(type_name)
        ),
        NoMetaWithOrdinals => "no session_meta: the lines carry ordinals, so the file is checked \
                               as paginated, but Codex cannot resume it (\"failed to parse thread \
                               ID from rollout file\")"
            .to_string(),
        UnknownHistoryMode { mode } => format!(
            "history_mode {mode:?} is unknown: Codex refuses to load this rollout at all (its \
             ordinals are not checked)"
        ),
        OrdinalInLegacy => format!(
            "ordinal {} in a legacy rollout: Codex never writes ordinals in legacy mode (a foreign \
             writer?)",
            num(found)
        ),
        OrdinalMissing {
            fails_resume: false,
        } => "record has no ordinal: every record of a \
                                                   paginated rollout needs one (Codex's history \
                                                   projection rejects the line)"
            .to_string(),
        OrdinalMissing { fails_resume: true } => "the last record Codex can parse has no ordinal: \
                                                  the next resume fails (\"final paginated \
                                                  rollout record is missing an ordinal\")"
            .to_string(),
        OrdinalStart => {
            let e = expected.unwrap_or(0);
            let why = if e == 0 {
                "a paginated rollout without history_base starts at 0".to_string()
            } else {
                format!("history_base.end_ordinal_exclusive is {e}")
            };
            format!("first ordinal is {}, expected {e}: {why}", num(found))
        }
        OrdinalDuplicate { previous_line } => {
            let earlier = match previous_line {
                Some(line) => format!("the previous line's (line {line})"),
                None => "an earlier line's".to_string(),
            };
            format!(
                "ordinal {} repeats {earlier}; expected {}: Codex's thread-history projection \
                 stops here for good",
                num(found),
                due(expected)
            )
        }
        OrdinalDecrease { from } => format!(
            "ordinal goes back from {from} to {}; expected {}: Codex's thread-history projection \
             stops here for good",
            num(found),
            due(expected)
        ),
        OrdinalGap { lo, hi, unseen } => {
            let what = if lo == hi {
                format!("ordinal {lo} never appears")
            } else if *unseen == (hi - lo).saturating_add(1) {
                format!("ordinals {lo}..={hi} never appear")
            } else {
                format!("{unseen} of the ordinals {lo}..={hi} never appear")
            };
            format!(
                "ordinal jumps to {}, expected {lo}: {what} (Codex's recorder tolerates gaps; \
                 dense readers of the history do not)",
                num(found)
            )
        }
        OrdinalTailUnparseable {
            line,
            last_line,
            last_ordinal,
        } => {
            let reason = match line {
                Unparseable::UnknownType(t) => {
                    format!("record type `{}` is unknown to Codex", short(t))
                }
                Unparseable::Bad(bad) => bad.to_string(),
            };
            let next = num(expected);
            let effect = if expected == found {
                format!("writes ordinal {next} again")
            } else {
                format!("starts at ordinal {next} and writes {} again", num(found))
            };
            format!(
                "Codex cannot parse this line: {reason}. Its next resume continues after line \
                 {last_line} (ordinal {last_ordinal}) and {effect}, a duplicate"
            )
        }
        SubagentPrefix { start, last } => format!(
            "sub-agent rollout is incomplete: its inherited prefix must reach ordinal {} \
             (subagent_history_start_ordinal {start}) but the last parseable record has {last}: \
             the next resume fails",
            start.saturating_sub(1)
        ),
        BaseNoThreadId => "history_base has no thread_id (the source's rollout id)".to_string(),
        BaseZeroEnd => "history_base.end_ordinal_exclusive is 0: the cutoff cannot include the \
                        source's session metadata"
            .to_string(),
        BaseNoEnd => "history_base has no end_ordinal_exclusive".to_string(),
        BaseNoOffset => "history_base has no end_byte_offset".to_string(),
        BaseCycle { source } => format!(
            "the lineage (history_base) leads back to {source}, already read: a cycle, so Codex \
             cannot rebuild the inherited history"
        ),
        BaseTooDeep { depth } => format!(
            "the lineage (history_base) is more than {depth} rollouts deep: not followed further"
        ),
        BadLine(bad) if matches!(bad.error, crate::decode::DecodeError::Utf8 { .. }) => format!(
            "Codex cannot read this line ({bad}): invalid UTF-8 makes Codex 0.147 refuse the \
             whole file"
        ),
        BadLine(bad) => {
            format!("Codex cannot read this line ({bad}): its record is lost on resume")
        }
        MetaUndecodable { field, found } => {
            let what = match found {
                Some(kind) => format!("session_meta.{field} is {kind}, not a string"),
                None => format!("session_meta has no {field}"),
            };
            format!(
                "{what}: Codex cannot read the session metadata and refuses the file (\"failed \
                 to read session metadata\")"
            )
        }
        FileEmpty => {
            "the file is empty: Codex refuses to resume it (\"does not start with session \
                      metadata\")"
                .to_string()
        }
        NoFinalNewline => "the last line has no final newline: Codex 0.128 appends its next \
                           record onto it, and that record is lost too"
            .to_string(),
        TransientEvent { event } => format!(
            "event `{}` is never persisted by Codex (its persistence policy drops it): a \
             foreign writer's stream",
            short(event)
        ),
        LegacyEventInPaginated { event } => format!(
            "event `{}` is persisted only in legacy rollouts; a paginated one carries it as an \
             item_completed",
            short(event)
        ),
        PaginatedInLegacy { item } => format!(
            "item_completed `{}` is persisted only in paginated rollouts: a legacy client may \
             show it twice",
            short(item)
        ),
        UnpersistedResponseItem { item } => format!(
            "response_item `{}` is never persisted by Codex: it would replay as history Codex \
             never sends",
            short(item)
        ),
        RollbackInPaginated => "thread_rolled_back in a paginated rollout: paginated Codex \
                                reverts through a new file's history_base"
            .to_string(),
        TimestampFormat { timestamp } => format!(
            "timestamp {:?} is not an RFC 3339 time in UTC: Codex lists and sorts threads by \
             these times",
            short(timestamp)
        ),
        UnknownType { type_name } => format!(
            "record type `{}` is unknown to Codex: it skips the record on resume",
            short(type_name)
        ),
        MetaMultiple {
            first_line,
            copied: false,
        } => format!(
            "another session_meta (the first is at line {first_line}): a paginated rollout has \
             exactly one"
        ),
        MetaMultiple {
            first_line,
            copied: true,
        } => format!(
            "another session_meta (the first, at line {first_line}, is the file's own): copied \
             history, as a fork or sub-agent copies its parent's"
        ),
        MetaIdVsFileName { meta_id, file_id } => format!(
            "session_meta.id {} is not the thread id {} of the file name: Codex finds the \
             file by its name and runs it under the metadata's id",
            short(meta_id),
            short(file_id)
        ),
        NoMeta => "no session_meta in the file: Codex cannot learn the thread and refuses to \
                   resume it (\"does not start with session metadata\")"
            .to_string(),
        ModelProviderMissing => "session_meta.model_provider is null or empty: the resume fails \
                                 (\"Model provider not found\") unless the config names one"
            .to_string(),
        CompactionUndecodable { error } => format!(
            "Codex cannot decode this compacted record ({}): it skips the line and the \
             checkpoint is lost",
            short(error)
        ),
        CompactionMetadataLen {
            history: Some(h),
            metadata,
        } => format!(
            "replacement_history_metadata has {metadata} entries for {h} history items: Codex \
             skips this compaction, so the history rests on the previous one"
        ),
        CompactionMetadataLen {
            history: None,
            metadata,
        } => format!(
            "replacement_history_metadata ({metadata} entries) without replacement_history: \
             Codex skips this compaction, so the history rests on the previous one"
        ),
        CompactionLegacy => "compaction without replacement_history: on resume Codex rebuilds \
                             the history from the user messages and this summary"
            .to_string(),
        CompactionNoWindow => "compaction without window_number: Codex's bounded resume scan \
                               reads past it to the start of the file"
            .to_string(),
        OutputDuplicate {
            call_id,
            first_line,
        } => format!(
            "output for call {} written again{}: the resumed prompt sends both copies",
            short(call_id),
            first_line
                .map(|l| format!(" (first at line {l})"))
                .unwrap_or_default()
        ),
        NoTokenCount => "no token_count with usage in the file: on resume Codex's usage starts \
                         at zero"
            .to_string(),
        BaseInLegacy => "history_base in a legacy rollout: Codex ignores it (only paginated \
                         files continue a source by reference)"
            .to_string(),
        WorldStatePatchBeforeFull => "world_state patch before any full snapshot: Codex ignores \
                                      it on resume"
            .to_string(),
        CallWithoutOutput { call_id } => format!(
            "call {} has no output: the resumed prompt gets a synthetic \"aborted\" output",
            short(call_id)
        ),
        OutputWithoutCall { call_id } => format!(
            "output for call {} has no call in the history: the resumed prompt drops it",
            short(call_id)
        ),
        RollbackUndecodable => "thread_rolled_back.num_turns is not an unsigned 32-bit integer: \
                                Codex cannot decode the line, so nothing is rolled back"
            .to_string(),
        TurnUnterminated { index, turn_id } => format!(
            "turn {index}{} never ended (no task_complete or turn_aborted) before the next \
             began: the writer died or lost the event",
            turn_id
                .as_deref()
                .map(|t| format!(" ({})", short(t)))
                .unwrap_or_default()
        ),
        TurnIdMismatch {
            event,
            named,
            index,
            own,
        } => format!(
            "{event} names turn {} but falls in turn {index} ({}): Codex settles it on the turn \
             it names{}",
            short(named),
            short(own),
            if *event == "turn_context" {
                ", so this turn's settings are not restored on resume"
            } else {
                ""
            }
        ),
        TurnNoContext { index } => format!(
            "user turn {index} has no turn_context: on resume Codex has no previous turn \
             settings and injects the whole context again"
        ),
        ForkBoundary {
            has_id,
            forked,
            base_end,
        } => match (has_id, forked, base_end) {
            (false, Some(f), _) => format!(
                "forked_from_ordinal_exclusive {f} without forked_from_id: a fork point of no \
                 fork"
            ),
            (_, None, Some(b)) => format!(
                "forked_from_id without forked_from_ordinal_exclusive, in a fork by reference \
                 (history_base.end_ordinal_exclusive {b}): the fork point is not recorded"
            ),
            (_, f, b) => format!(
                "forked_from_ordinal_exclusive {} is not history_base.end_ordinal_exclusive {}: \
                 the fork point and the history base disagree",
                num(*f),
                num(*b)
            ),
        },
        FileName { in_home: true } => "not a rollout file name \
                                       (rollout-<time>-<thread id>.jsonl): Codex never finds this \
                                       file, so it cannot be listed or resumed"
            .to_string(),
        FileName { in_home: false } => "not a rollout file name \
                                        (rollout-<time>-<thread id>.jsonl): Codex would not find \
                                        it in a Codex home under this name"
            .to_string(),
        FileLocation { expected } => format!(
            "a rollout outside the folder Codex looks in: it belongs in {}",
            short(expected)
        ),
        ZstShadowed { plain } => format!(
            "{plain} sits beside this file: Codex reads the plain file and ignores this one"
        ),
        RecordOversized { bytes } => format!(
            "a record of {}: Codex's compression refuses records over 16 MiB{}",
            size(*bytes),
            if *bytes > 24 << 20 {
                ", and `codex migrate-rollouts` over 24 MiB"
            } else {
                ""
            }
        ),
        FileLarge { bytes } => format!("the file is {}: every resume reads it whole", size(*bytes)),
        RecordLarge { bytes } => format!(
            "a record of {}: every resume holds it in memory",
            size(*bytes)
        ),
        NoPreview { scanned } => format!(
            "no user message or thread goal in the first {scanned} records: Codex's resume \
             picker hides this thread (resume it by id)"
        ),
        InlineMedia {
            media,
            bytes,
            place,
        } => format!(
            "an inline base64 {media} ({}) in {}: Codex's policy strips these now; each copy \
             weighs on every resume",
            size(*bytes),
            short(place)
        ),
        Secret {
            kind,
            field,
            redacted,
        } => format!(
            "{kind} in {} ({redacted}): redact it before sharing this file, and rotate it",
            short(field)
        ),
        RollbackOverflow {
            num_turns,
            user_turns,
        } => format!(
            "thread_rolled_back drops {num_turns} turns but only {user_turns} user turns stand: \
             every user turn is dropped"
        ),
        BaseSourceNotPaginated { source, mode } => format!(
            "source rollout {source} is not paginated (history_mode {mode}): Codex refuses the \
             lineage"
        ),
        BaseOutsideSource {
            source,
            end,
            highest,
        } => format!(
            "history_base.end_ordinal_exclusive {end} is outside source rollout {source}: it \
             holds no ordinal {} (its highest is {})",
            end.saturating_sub(1),
            num(*highest)
        ),
        BaseOffsetPastEnd {
            source,
            bytes,
            boundary,
        } => format!(
            "history_base.end_byte_offset {} is past the end of source rollout {source} ({bytes} \
             decoded bytes); expected {}, {}",
            num(found),
            num(expected),
            boundary_text(boundary)
        ),
        BaseOffsetNotAtLineStart { source, boundary } => format!(
            "history_base.end_byte_offset {} is not just after a newline in source rollout \
             {source}; expected {}, {}",
            num(found),
            num(expected),
            boundary_text(boundary)
        ),
        BaseOffsetMismatch { source, boundary } => format!(
            "history_base.end_byte_offset {} does not match its ordinal boundary in source \
             rollout {source}: expected {}, {}",
            num(found),
            num(expected),
            boundary_text(boundary)
        ),
        BaseSourceNotFound {
            rollout_id,
            searched,
        } => {
            let places: Vec<String> = searched.iter().map(place).collect();
            format!(
                "source rollout {rollout_id} (history_base.thread_id) not found in {}: the lineage \
                 could not be checked",
                places.join(", ")
            )
        }
        BaseSourceUnreadable {
            source,
            rollout_id,
            cause,
        } => format!(
            "source rollout {source} (history_base.thread_id {rollout_id}) could not be read \
             ({cause}): the lineage could not be checked"
        ),
    }
}

/// `path:line: label: message`, in the finding's tone (the human line of `check-ordinal`).
pub fn located(path: &str, f: &Finding, label: &str) -> Cell {
    Cell::text(&format!("{path}:{}: {label}: {}", f.line(), message(f))).tone(tone(f.severity))
}

/// A finding as a diagnostic line, rustc-style: `path:line: severity[slug]: message`
/// (`path: ...` for a finding about the whole file).
pub fn diagnostic(path: &str, f: &Finding) -> Cell {
    let sev = f.severity.as_str();
    let at = f.at.map(|p| format!(":{}", p.line)).unwrap_or_default();
    let text = format!("{path}{at}: {sev}[{}]: {}", f.rule.slug(), message(f));
    Cell::text(&text).tone(tone(f.severity))
}

/// How a severity is emphasised.
pub fn tone(s: Severity) -> Tone {
    match s {
        Severity::Error => Tone::Bad,
        Severity::Warning => Tone::Warn,
        Severity::Info => Tone::Plain,
    }
}

fn boundary_text(b: &Boundary) -> String {
    match b.first_at_end {
        Some(line) => format!(
            "the byte offset of its first record with ordinal >= {} (line {line})",
            b.end_ordinal
        ),
        None => format!(
            "the end of the source: no record there has ordinal >= {}",
            b.end_ordinal
        ),
    }
}

fn place(p: &Place) -> String {
    match p {
        Place::GivenInputs => "the given inputs".to_string(),
        Place::Dir(d) => d.display().to_string(),
        Place::EmptyHome(h) => format!("{} (no sessions or archived_sessions there)", h.display()),
    }
}

/// A number, or `none`.
fn num(n: Option<u64>) -> String {
    n.map_or_else(|| "none".to_string(), |n| n.to_string())
}

/// The ordinal due next, which does not exist past `u64::MAX`.
fn due(n: Option<u64>) -> String {
    n.map_or_else(|| "none (overflow)".to_string(), |n| n.to_string())
}

/// A type name as written, cut for a message.
fn short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

/// A byte count as people read it: `812 B`, `3.4 MiB`, `1.2 GiB`.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    #[allow(
        clippy::indexing_slicing,
        reason = "`unit + 1 < UNITS.len()`: the loop condition"
    )]
    let unit = UNITS[unit];
    format!("{v:.1} {unit}")
}
