//! `ordinal.tail-unparseable`: an unparseable last line whose ordinal the next resume writes again.

use crate::analysis::ordinal::Fault;
use crate::analysis::ordinal::Unparseable;
use crate::findings::{Edit, Fix};
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
    ///
    /// The fix deletes the line: safe for a line that does not decode (Codex 0.171 resumes the
    /// cut file without a warning and writes the next ordinal once,
    /// `testdata/lint/ordinal.tail-unparseable/verdict-0.171.0-fixes.json`); unsafe for a
    /// record of a type this Codex does not know, which a later one may read.
    "ordinal.tail-unparseable", Error, "an unparseable tail line whose ordinal the next resume reuses",
    effect: Loses,
    fix: Always [Safe, Unsafe],
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
        let delete = vec![Edit::delete_line(out.file().clone(), &p.at)];
        let (reason, fix) = match line {
            Unparseable::UnknownType(t) => (
                format!("record type `{}` is unknown to Codex", short(t)),
                Fix::unsafe_("delete the record Codex does not know", delete),
            ),
            Unparseable::Bad(bad) => (
                bad.to_string(),
                Fix::safe("delete the line Codex cannot parse", delete),
            ),
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
        f.fixed(fix);
    }
}
