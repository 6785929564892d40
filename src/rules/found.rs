//! Where a check's findings go: each made at its rule's default severity and located at the
//! line it points at; in the end sorted by line, then by the [`Stage`] of the facts they
//! rest on, then in the order found.

use crate::decode::{Line, Pos, Record};
use crate::findings::{Finding, Rule, Span};
use crate::input::Source;

use super::stage::Stage;

/// Finds the whole line at a position (reading it back, or as the pass kept it), for a fact
/// that kept only where its line starts; with `true`, its characters counted too.
pub type Lines<'a> = &'a dyn Fn(Pos, bool) -> Option<Line>;

/// The findings of one file, as the checks make them.
#[derive(Debug)]
pub struct Findings {
    file: Source,
    items: Vec<Keyed>,
    /// The lineage was checked after the file's own sequence (`check-ordinal`).
    late_lineage: bool,
    /// Spans reach their ends: a line of which a fact kept only the start is read back for
    /// its length, and the characters of every line a finding spans are counted for its end
    /// column (the one output that prints where a finding ends: SARIF). Otherwise such a
    /// span ends where it starts, and nothing is read back for it.
    columns: bool,
    /// Make fixes and the related places that explain a finding, which read lines back
    /// (`repair` applies the fixes; the other commands print neither).
    fixes: bool,
}

#[derive(Debug)]
struct Keyed {
    line: u64,
    stage: Stage,
    nth: usize,
    finding: Finding,
}

impl Findings {
    pub fn new(file: Source) -> Findings {
        Findings {
            file,
            items: Vec::new(),
            late_lineage: false,
            columns: false,
            fixes: true,
        }
    }

    /// Findings whose spans reach their ends and count their end columns.
    pub fn with_columns(mut self, columns: bool) -> Findings {
        self.columns = columns;
        self
    }

    /// Findings with fixes and related places, or without (neither made, no line read back
    /// for them).
    pub fn with_fixes(mut self, fixes: bool) -> Findings {
        self.fixes = fixes;
        self
    }

    /// Findings whose lineage is checked after the file's own ordinal sequence: on one line,
    /// its findings come after the sequence's ([`Stage::LateLineage`]).
    pub fn lineage_late(mut self) -> Findings {
        self.late_lineage = true;
        self
    }

    /// Where the findings of `rule`'s check at `stage` go.
    pub fn of<'a>(&'a mut self, rule: Rule, stage: Stage, lines: Option<Lines<'a>>) -> Found<'a> {
        let stage = match stage {
            Stage::Lineage if self.late_lineage => Stage::LateLineage,
            s => s,
        };
        Found {
            sink: self,
            rule,
            stage,
            lines,
        }
    }

    /// Every finding, in order.
    pub fn finish(mut self) -> Vec<Finding> {
        self.items.sort_by_key(|k| (k.line, k.stage, k.nth));
        let fixes = self.fixes;
        self.items
            .into_iter()
            .map(|k| k.finding)
            .map(|mut f| {
                // A fix made without reading its line (from the record alone) is dropped too:
                // findings without fixes carry none.
                if !fixes {
                    f.fix = None;
                    f.related.clear();
                }
                f
            })
            .collect()
    }
}

/// Where one rule's findings go.
pub struct Found<'a> {
    sink: &'a mut Findings,
    rule: Rule,
    stage: Stage,
    lines: Option<Lines<'a>>,
}

impl Found<'_> {
    /// The findings that follow are `rule`'s, at `stage` (a record's checks share a sink).
    pub(super) fn set(&mut self, rule: Rule, stage: Stage) {
        self.rule = rule;
        self.stage = stage;
    }

    /// A finding at `at` (`None`: about the whole file), worded `message`.
    pub fn push(&mut self, at: Option<Line>, message: String) -> &mut Finding {
        self.push_nth(0, at, message)
    }

    /// [`Found::push`], for the `nth` fact of a list several rules read: on one line, their
    /// findings come in the list's order.
    pub fn push_nth(&mut self, nth: usize, at: Option<Line>, message: String) -> &mut Finding {
        let span = at.map(|l| self.span(&l));
        self.push_span(nth, span, message)
    }

    /// [`Found::push_nth`], at the line that starts at `at` (read back for its end only where
    /// spans reach their ends).
    pub fn push_at(&mut self, nth: usize, at: Option<Pos>, message: String) -> &mut Finding {
        let columns = self.sink.columns;
        let line = at.map(|pos| {
            self.lines
                .filter(|_| columns)
                .and_then(|lines| lines(pos, true))
                .unwrap_or(Line {
                    pos,
                    ..Line::default()
                })
        });
        self.push_nth(nth, line, message)
    }

    /// A finding at `rec`'s line (its characters counted where the output prints columns).
    pub fn push_rec(&mut self, rec: &Record<'_>, message: String) -> &mut Finding {
        let line = if self.sink.columns {
            rec.line()
        } else {
            rec.line_uncounted()
        };
        self.push_nth(0, Some(line), message)
    }

    /// [`Found::push_nth`], at a span of the rule's own making (a part of a line).
    pub fn push_span(&mut self, nth: usize, span: Option<Span>, message: String) -> &mut Finding {
        let finding = Finding::new(self.rule, self.sink.file.clone(), span, message);
        self.sink.items.push(Keyed {
            line: span.map_or(0, |s| s.start_line),
            stage: self.stage,
            nth,
            finding,
        });
        let last = self.sink.items.len() - 1;
        #[allow(clippy::indexing_slicing, reason = "the entry pushed just above")]
        &mut self.sink.items[last].finding
    }

    /// The span of the whole of `line`, its characters counted (from the file, when the fact
    /// did not count them) where the output prints columns.
    pub fn span(&self, line: &Line) -> Span {
        let line = match (line.chars, self.sink.columns) {
            (None, true) => self
                .lines
                .and_then(|lines| lines(line.pos, true))
                .unwrap_or(*line),
            _ => *line,
        };
        Span::whole(&line)
    }

    /// The whole line that starts at `pos` (read back, or as the pass kept it), for a fix
    /// that deletes it or a related place; `None` when the findings carry neither.
    pub fn line_at(&self, pos: Pos) -> Option<Line> {
        self.lines
            .filter(|_| self.sink.fixes)
            .and_then(|lines| lines(pos, false))
    }

    /// The stage the findings come at (a check hooked at two stages reads what each gives).
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The file the findings are about.
    pub fn file(&self) -> &Source {
        &self.sink.file
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::{Edit, Fix};
    use std::cell::Cell;

    /// What a pass kept of a 40-byte line at offset 100, reading it back counted.
    fn line_back(pos: Pos, count: bool) -> Option<Line> {
        Some(Line {
            pos,
            len: 40,
            eol: 1,
            chars: count.then_some(38),
        })
    }

    const AT: Pos = Pos {
        line: 3,
        offset: 100,
    };

    /// Findings for an output that prints where they start only: no line is read back for
    /// a span's end, a fix or a related place, and none carries a fix. For SARIF (spans to
    /// their ends) the line is read back and counted; for `repair`, fixes are made.
    #[test]
    fn lines_are_read_back_only_for_what_the_output_prints() {
        let rule = *super::super::all().first().unwrap();
        for (columns, fixes) in [(false, false), (true, false), (false, true), (true, true)] {
            let reads = Cell::new(0);
            let lines = |pos: Pos, count: bool| {
                reads.set(reads.get() + 1);
                line_back(pos, count)
            };
            let mut findings = Findings::new(Source::Stdin)
                .with_columns(columns)
                .with_fixes(fixes);
            let mut found = findings.of(rule, Stage::Pairing, Some(&lines));
            let line = found.line_at(AT);
            assert_eq!(line.is_some(), fixes);
            let f = found.push_at(0, Some(AT), "m".into());
            f.fix = Some(Fix::safe(
                "delete",
                vec![Edit::delete(Source::Stdin, 100..141)],
            ));
            let made = findings.finish();
            let span = made[0].span.unwrap();
            assert_eq!(
                reads.get(),
                usize::from(fixes) + usize::from(columns),
                "{columns} {fixes}"
            );
            assert_eq!(
                (span.start_line, span.start, span.line_offset),
                (3, 100, 100)
            );
            match columns {
                true => assert_eq!((span.end, span.end_column), (140, Some(39))),
                false => assert_eq!((span.end, span.end_column), (100, None)),
            }
            assert_eq!(made[0].fix.is_some(), fixes);
        }
    }
}
