//! `ordinal.tail-unparseable`: an unparseable last line whose ordinal the next resume writes again.

use crate::analysis::ordinal::Fault;
use crate::analysis::ordinal::Unparseable;
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
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
    "ordinal.tail-unparseable", Error, "an unparseable tail line whose ordinal the next resume reuses",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Ordinals, check)]);

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.sequence() {
        let Fault::TailUnparseable {
            line,
            last_line,
            last_ordinal,
            next,
            found,
        } = &p.fault
        else {
            continue;
        };
        let reason = match line {
            Unparseable::UnknownType(t) => format!("record type `{}` is unknown to Codex", short(t)),
            Unparseable::Bad(bad) => bad.to_string(),
        };
        let effect = if next == found {
            format!("writes ordinal {next} again")
        } else {
            format!("starts at ordinal {next} and writes {found} again")
        };
        let f = out.push_nth(
            nth,
            Some(p.at),
            format!(
                "Codex cannot parse this line: {reason}. Its next resume continues after line \
                 {last_line} (ordinal {last_ordinal}) and {effect}, a duplicate"
            ),
        );
        (f.expected, f.found) = (Some(*next), Some(*found));
    }
}
