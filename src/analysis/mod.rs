//! The shared analyses of one file, and the one pass that computes them.
//!
//! Every command asks the same few questions of a rollout: who is this session and which of
//! its records are its own ([`session`]), where do its turns begin and how did they end
//! ([`turns`]), which output answers which call ([`calls`]), are its ordinals sound
//! ([`ordinal`]), how much did it use ([`tokens`]), how many records of each type does it
//! hold ([`census`]). Each question is answered by one piece of code here, and a command
//! states which answers it needs in a [`Needs`]; [`read`] runs exactly those analyses, side
//! by side, in one pass over the file, and hands back a [`FileFacts`] holding each answer.
//!
//! Why a fixed set of analyses with declared needs, rather than reducers that combine: the
//! analyses feed each other (the turn segmentation places calls and needs the usage account
//! to find an implicit first turn; `stats`' census keys usage by the model of the current
//! turn), and two commands asking for the same answer must get the one computed once, not
//! two copies. The pass knows these dependencies and feeds each analysis in a fixed order,
//! statically dispatched: per record, an analysis nobody asked for costs one branch. A
//! command that needs a new answer adds a field to [`Needs`] and [`FileFacts`], not a loop.
//!
//! Analyses are pure: no I/O beyond reading their input, no printing, nothing from clap.
//! They establish facts, with no severity and no wording: the rules (`crate::rules`) judge
//! them.

pub mod boundary;
pub mod calls;
pub mod census;
pub mod listing;
pub mod ordinal;
mod pass;
pub mod session;
pub mod tokens;
pub mod turns;

pub use pass::{
    read, read_observed, read_stream, read_stream_observed, BlankRun, FileFacts, HeldLines, Needs,
    Observer, ReadOptions,
};

use crate::decode::{BadLine, Line, Record};
use session::SessionTracker;

/// A per-file fold the pass feeds: every entry of the file in order, each record after the
/// [`SessionTracker`] has observed it. How it finishes is its own (each analysis needs
/// different things at the end).
pub trait Fold {
    /// A decoded record.
    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker);
    /// A line the decoder rejected.
    fn bad(&mut self, _bad: &BadLine) {}
    /// A blank line.
    fn blank(&mut self, _line: Line) {}
}

/// An analysis a reader runs only when asked: each line goes to it when it is there.
impl<F: Fold> Fold for Option<F> {
    fn record(&mut self, rec: &Record<'_>, session: &SessionTracker) {
        if let Some(f) = self {
            f.record(rec, session);
        }
    }

    fn bad(&mut self, bad: &BadLine) {
        if let Some(f) = self {
            f.bad(bad);
        }
    }

    fn blank(&mut self, line: Line) {
        if let Some(f) = self {
            f.blank(line);
        }
    }
}
