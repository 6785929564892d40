//! Where a replay stops (`--through-turn`, `--before-turn`): the turn a cut names, found by
//! the turn segmentation, and the last line a fork at that point would carry.

use crate::analysis::turns::Detail;
use crate::analysis::{self, Needs, ReadOptions};
use crate::input::{self, Source};

/// A turn named on the command line: its `index` as `turns` prints it (1-based), or its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnRef {
    Index(u64),
    Id(String),
}

/// Where the replay stops, as a fork at that point would carry the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cut {
    /// Through the end of this turn.
    Through(TurnRef),
    /// Before this turn begins.
    Before(TurnRef),
}

/// Where a cut fell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutAt {
    pub through: bool,
    pub turn_index: u64,
    pub turn_id: Option<String>,
    /// The last line replayed.
    pub last_line: u64,
}

/// Standard input, a pipe or a FIFO cannot be read twice: with a cut, it is read into memory
/// once (the cut's pass and the replay's then read the copy). Opened again, a FIFO waited
/// for a writer that never came, and a pipe named by `/dev/fd/N` was empty
/// (`tests/cli/hostile/files.rs`,
/// `a_fifo_given_as_a_path_is_read_and_one_in_a_walk_is_skipped`). Returns the copy, and
/// why it could not be made whole.
pub(super) fn spool(source: &Source, cut: Option<&Cut>) -> (Option<Vec<u8>>, Option<String>) {
    // Without a cut nothing is read twice: the file is not looked at (a `statx` a file of
    // every replay, `lint`'s included).
    if cut.is_none() {
        return (None, None);
    }
    let once_only = match source {
        Source::Stdin => true,
        Source::File(p) => !std::fs::metadata(p).is_ok_and(|m| m.is_file()),
    };
    if !once_only {
        return (None, None);
    }
    let mut buf = Vec::new();
    let read = input::open(source).and_then(|mut s| {
        use std::io::Read;
        s.read_to_end(&mut buf)
    });
    let error = read
        .err()
        .map(|e| format!("read error: {}", input::io_cause(&e)));
    (Some(buf), error)
}

/// The last line to replay for `cut`, from a first pass over the turns (over `spooled`,
/// standard input read into memory, when there is one).
pub(super) fn cut_line(
    source: &Source,
    spooled: Option<&[u8]>,
    read: &ReadOptions,
    cut: &Cut,
) -> Result<CutAt, String> {
    let needs = Needs::default().turns(Detail::Place);
    let facts = match spooled {
        Some(bytes) => analysis::read_stream(bytes, source.clone(), read, &needs),
        None => analysis::read(source, read, &needs),
    };
    if let Some(e) = facts.io_error {
        return Err(e);
    }
    let turns = facts.turns.map(|t| t.turns).unwrap_or_default();
    let (through, r) = match cut {
        Cut::Through(r) => (true, r),
        Cut::Before(r) => (false, r),
    };
    let found = turns.iter().find(|t| match r {
        TurnRef::Index(n) => t.index == *n,
        TurnRef::Id(id) => t.turn_id.as_deref() == Some(id.as_str()),
    });
    let Some(t) = found else {
        let what = match r {
            TurnRef::Index(n) => format!("no turn {n}"),
            TurnRef::Id(id) => format!("no turn with id {id}"),
        };
        let n = turns.len();
        let s = if n == 1 { "" } else { "s" };
        return Err(format!("{what} in the file ({n} turn{s})"));
    };
    Ok(CutAt {
        through,
        turn_index: t.index,
        turn_id: t.turn_id.clone(),
        last_line: if through {
            t.line_end
        } else {
            t.line_start.saturating_sub(1)
        },
    })
}
