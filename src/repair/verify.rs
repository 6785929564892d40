//! Whether a repair holds: the original's findings, each moved by the edits made since,
//! held against the repaired text's. A finding the repaired text has and the original had
//! nowhere is one the repair added; a finding whose fix was applied and that is still
//! where it was is one the repair did not cure.

use std::collections::HashMap;

use crate::findings::{Edit, Finding, Rule};

/// Where a finding is in the text as it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Place {
    /// About the whole file (no span).
    Whole,
    /// On the line that starts at this byte.
    At(u64),
    /// Its line was deleted.
    Gone,
}

impl Place {
    fn of(f: &Finding) -> Place {
        f.span.map_or(Place::Whole, |s| Place::At(s.line_offset))
    }
}

/// A finding as the judge keeps it.
#[derive(Debug, Clone)]
struct Kept {
    rule: Rule,
    place: Place,
    line: Option<u64>,
    message: String,
}

impl Kept {
    fn of(f: &Finding) -> Kept {
        Kept {
            rule: f.rule,
            place: Place::of(f),
            line: f.span.map(|s| s.start_line),
            message: f.message.clone(),
        }
    }

    fn said(&self) -> String {
        match self.line {
            Some(n) => format!("{} (line {n}: {})", self.rule.slug(), self.message),
            None => format!("{} ({})", self.rule.slug(), self.message),
        }
    }
}

/// The original's findings and the cured ones, followed through the passes.
#[derive(Debug)]
pub struct Trail {
    before: Vec<Kept>,
    cured: Vec<Kept>,
}

impl Trail {
    /// The original's findings.
    pub fn new(before: &[Finding]) -> Trail {
        Trail {
            before: before.iter().map(Kept::of).collect(),
            cured: Vec::new(),
        }
    }

    /// `f`'s fix is applied in this pass (its place is in the text the pass read).
    pub fn applied(&mut self, f: &Finding) {
        self.cured.push(Kept::of(f));
    }

    /// The pass made `edits` to `text`: every place moves with them.
    pub fn moved(&mut self, text: &[u8], edits: &[Edit]) {
        let mut sorted: Vec<&Edit> = edits.iter().collect();
        sorted.sort_by_key(|e| (e.start, e.end));
        for k in self.before.iter_mut().chain(self.cured.iter_mut()) {
            if let Place::At(offset) = k.place {
                k.place = moved(offset, text, &sorted);
            }
        }
    }

    /// What is wrong with `after`, the repaired text's findings: each finding added, each
    /// cured one still there. Empty when the repair holds.
    pub fn judge(&self, after: &[Finding]) -> Vec<String> {
        let mut had: HashMap<(Rule, Place), usize> = HashMap::new();
        for k in &self.before {
            *had.entry((k.rule, k.place)).or_default() += 1;
        }
        let mut problems = Vec::new();
        let mut still: HashMap<(Rule, Place), usize> = HashMap::new();
        for f in after {
            let k = Kept::of(f);
            *still.entry((k.rule, k.place)).or_default() += 1;
            match had.get_mut(&(k.rule, k.place)) {
                Some(n) if *n > 0 => *n -= 1,
                _ => problems.push(format!("it adds {}", k.said())),
            }
        }
        for k in &self.cured {
            if k.place != Place::Gone && still.get(&(k.rule, k.place)).is_some_and(|n| *n > 0) {
                problems.push(format!("it leaves {}", k.said()));
            }
        }
        problems
    }
}

/// Where the line that started at `offset` starts once `sorted` (edits of `text`, in
/// order) are made: moved by the bytes removed and added before it, or gone when an edit
/// removes it whole. An edit that starts where the line starts and does not end a line
/// (a byte order mark deleted, a line rewritten) leaves the line in place.
fn moved(offset: u64, text: &[u8], sorted: &[&Edit]) -> Place {
    let mut delta: i64 = 0;
    for e in sorted {
        let added = e.content.len() as i64;
        let removed = (e.end - e.start) as i64;
        if offset < e.start {
            break;
        }
        if e.start == e.end || offset >= e.end {
            delta += added - removed;
            continue;
        }
        let ends_line = e.end as usize >= text.len()
            || text.get(e.end as usize - 1).is_some_and(|&b| b == b'\n');
        if offset == e.start && !ends_line {
            return Place::At(e.start.saturating_add_signed(delta));
        }
        return Place::Gone;
    }
    Place::At(offset.saturating_add_signed(delta))
}

/// Where a boundary between two lines (a fork's cutoff) lies once `passes` (each pass's
/// edits, in turn) are made: moved by the bytes removed and added before it. An insertion
/// at the boundary goes after it; an edit that straddles it cuts it where the edit starts.
pub fn boundary_moved(offset: u64, passes: &[Vec<Edit>]) -> u64 {
    let mut at = offset;
    for edits in passes {
        let mut sorted: Vec<&Edit> = edits.iter().collect();
        sorted.sort_by_key(|e| (e.start, e.end));
        let mut delta: i64 = 0;
        let mut cut = None;
        for e in sorted {
            let added = e.content.len() as i64;
            let removed = (e.end - e.start) as i64;
            if e.start >= at {
                break;
            }
            if e.end <= at {
                delta += added - removed;
            } else {
                cut = Some(e.start.saturating_add_signed(delta));
                break;
            }
        }
        at = cut.unwrap_or(at.saturating_add_signed(delta));
    }
    at
}

/// Whether edits (sorted by start) touch the same bytes or insert at the same place, as
/// [`crate::findings::apply`] refuses them.
pub fn overlap(sorted: &[&Edit]) -> bool {
    let mut at = 0u64;
    let mut last_insert: Option<u64> = None;
    for e in sorted {
        let insert = e.start == e.end;
        if e.start < at || e.end < e.start || (insert && last_insert == Some(e.start)) {
            return true;
        }
        last_insert = insert.then_some(e.start);
        at = e.end;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source;

    fn edit(start: u64, end: u64, s: &str) -> Edit {
        Edit::replace(Source::Stdin, start..end, s.to_string())
    }

    #[test]
    fn a_line_moves_with_the_bytes_before_it_and_goes_with_its_deletion() {
        let text = b"aa\nbb\ncc\n";
        let delete_bb = edit(3, 6, "");
        let edits = [&delete_bb];
        assert_eq!(moved(0, text, &edits), Place::At(0));
        assert_eq!(moved(3, text, &edits), Place::Gone);
        assert_eq!(moved(6, text, &edits), Place::At(3));
        // A mark deleted at the start of a line leaves the line.
        let bom = edit(0, 2, "");
        assert_eq!(moved(0, text, &[&bom]), Place::At(0));
        assert_eq!(moved(3, text, &[&bom]), Place::At(1));
        // A line inserted before another pushes it on.
        let insert = edit(3, 3, "zz\n");
        assert_eq!(moved(3, text, &[&insert]), Place::At(6));
        // The last line, unterminated, deleted whole.
        let tail = b"aa\nbb";
        assert_eq!(moved(3, tail, &[&edit(3, 5, "")]), Place::Gone);
    }

    #[test]
    fn a_cutoff_moves_with_the_bytes_before_it() {
        // "aa\nbb\n|cc\n": the cutoff at 6.
        let passes = vec![vec![edit(3, 4, "")], vec![edit(0, 0, "xyz")]];
        assert_eq!(boundary_moved(6, &passes), 8);
        // An insertion at the cutoff, and edits after it, leave it.
        assert_eq!(
            boundary_moved(6, &[vec![edit(6, 6, "x"), edit(7, 9, "")]]),
            6
        );
        // A deletion across it cuts it where the deletion starts.
        assert_eq!(boundary_moved(6, &[vec![edit(3, 8, "")]]), 3);
    }

    #[test]
    fn overlaps_are_what_apply_refuses() {
        let (a, b) = (edit(0, 3, ""), edit(2, 4, ""));
        assert!(overlap(&[&a, &b]));
        let (c, d) = (edit(0, 2, ""), edit(2, 4, ""));
        assert!(!overlap(&[&c, &d]));
        let (e, f) = (edit(2, 2, "x"), edit(2, 2, "y"));
        assert!(overlap(&[&e, &f]));
        for case in [vec![&a, &b], vec![&c, &d], vec![&e, &f]] {
            let applied = crate::findings::apply(b"abcdef", &case);
            assert_eq!(applied.is_err(), overlap(&case));
        }
    }
}
