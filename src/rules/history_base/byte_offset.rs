//! `history_base.byte-offset`: a history base whose byte offset misses its boundary.

use crate::lineage::Fault;
use crate::rules::words::{self, num};
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** `history_base.end_byte_offset` lies within the source, just after a
    /// newline, at the source's first record at or past the cutoff ordinal.
    ///
    /// **Why it matters.** A reader that seeks by the offset ("cutoff byte offset does not
    /// match its ordinal boundary") reads the wrong prefix; Codex 0.171 does not read it.
    ///
    /// **Example.** An offset computed before a final newline was added.
    ///
    /// **Fix.** Write the byte offset of the source's line at the cutoff.
    "history_base.byte-offset", Error, "end_byte_offset is not the source's ordinal boundary",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Lineage, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.lineage.iter().enumerate() {
        let message = match &p.fault {
            Fault::OffsetPastEnd {
                source,
                bytes,
                boundary,
            } => format!(
                "history_base.end_byte_offset {} is past the end of source rollout {source} \
                 ({bytes} decoded bytes); expected {}, {}",
                num(p.found),
                num(p.expected),
                words::boundary(boundary)
            ),
            Fault::OffsetNotAtLineStart { source, boundary } => format!(
                "history_base.end_byte_offset {} is not just after a newline in source rollout \
                 {source}; expected {}, {}",
                num(p.found),
                num(p.expected),
                words::boundary(boundary)
            ),
            Fault::OffsetMismatch { source, boundary } => format!(
                "history_base.end_byte_offset {} does not match its ordinal boundary in source \
                 rollout {source}: expected {}, {}",
                num(p.found),
                num(p.expected),
                words::boundary(boundary)
            ),
            _ => continue,
        };
        let f = out.push_nth(nth, p.at, message);
        (f.expected, f.found) = (p.expected, p.found);
        f.related.extend(super::source(p));
    }
}
