//! Where the byte offsets a projection names fall in its rollout, found on the one pass over
//! the file: each record's line is held against the offsets watched (a checkpoint, each
//! stored turn's start and end), so no offset costs a read of its own.

use crate::decode::Line;

/// A record of the rollout: its line number, where its line starts, its ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub line: u64,
    pub offset: u64,
    pub ordinal: Option<u64>,
}

/// Where one offset falls, by the records around it. A line the decoder rejected is no
/// record: an offset at its start or inside it has none of `starts`, `ends` or `inside`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spot {
    pub offset: u64,
    /// The record whose line starts here.
    pub starts: Option<Mark>,
    /// The record whose line (with its ending) ends here.
    pub ends: Option<Mark>,
    /// The record whose line holds it, past its first byte.
    pub inside: Option<Mark>,
    /// The first record that starts after it.
    pub after: Option<Mark>,
}

impl Spot {
    /// At a line boundary of the file: the start of a record's line, the end of one, or the
    /// start of the file.
    pub fn at_boundary(&self) -> bool {
        self.offset == 0 || self.starts.is_some() || self.ends.is_some()
    }
}

/// The offsets watched on one pass.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    spots: Vec<Spot>,
}

impl Probe {
    pub fn new(offsets: impl IntoIterator<Item = u64>) -> Probe {
        let mut at: Vec<u64> = offsets.into_iter().collect();
        at.sort_unstable();
        at.dedup();
        Probe {
            spots: at
                .into_iter()
                .map(|offset| Spot {
                    offset,
                    ..Spot::default()
                })
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.spots.is_empty()
    }

    /// A record's line, in file order.
    pub fn observe(&mut self, line: Line, ordinal: Option<u64>) {
        if self.spots.is_empty() {
            return;
        }
        let (start, next) = (line.pos.offset, line.next());
        let mark = Mark {
            line: line.pos.line,
            offset: start,
            ordinal,
        };
        let first = self.spots.partition_point(|s| s.offset < start);
        // Offsets before this line that have no record after them yet get this one.
        let (before, from) = self.spots.split_at_mut(first);
        for spot in before.iter_mut().rev() {
            if spot.after.is_some() {
                break;
            }
            spot.after = Some(mark);
        }
        for spot in from.iter_mut() {
            match spot.offset {
                o if o == start => spot.starts = Some(mark),
                o if o < next => spot.inside = Some(mark),
                o if o == next => spot.ends = Some(mark),
                _ => break,
            }
        }
    }

    /// Where `offset` fell (an offset not watched falls nowhere).
    pub fn spot(&self, offset: u64) -> Option<&Spot> {
        self.spots
            .binary_search_by_key(&offset, |s| s.offset)
            .ok()
            .and_then(|i| self.spots.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::Pos;

    fn line(n: u64, offset: u64, len: u64) -> Line {
        Line {
            pos: Pos { line: n, offset },
            len,
            eol: 1,
            chars: None,
        }
    }

    #[test]
    fn each_offset_is_placed_by_the_records_around_it() {
        // Lines of 10 bytes and their newline: 0..11, 11..22, 22..33; line 2 rejected.
        let mut p = Probe::new([0, 5, 11, 15, 22, 33, 40]);
        p.observe(line(1, 0, 10), Some(1));
        p.observe(line(3, 22, 10), Some(2));
        let m1 = Mark {
            line: 1,
            offset: 0,
            ordinal: Some(1),
        };
        let m3 = Mark {
            line: 3,
            offset: 22,
            ordinal: Some(2),
        };
        let at = |o| *p.spot(o).unwrap();
        assert_eq!(at(0).starts, Some(m1));
        assert_eq!((at(5).inside, at(5).after), (Some(m1), Some(m3)));
        assert!(!at(5).at_boundary());
        assert_eq!((at(11).ends, at(11).after), (Some(m1), Some(m3)));
        // Inside the rejected line: no record holds it.
        assert!(!at(15).at_boundary() && at(15).inside.is_none());
        assert_eq!((at(22).starts, at(22).after), (Some(m3), None));
        assert_eq!(at(33).ends, Some(m3));
        assert!(!at(40).at_boundary());
        assert!(p.spot(7).is_none());
    }
}
