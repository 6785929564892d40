//! Tool calls and their outputs in the rebuilt history, as Codex pairs them before sending.

group![missing_output, orphan_output, duplicate];

use crate::decode::Line;
use crate::replay::item::Origin;
use crate::replay::prompt::PairFact;

use super::Found;

/// The line of the item `p` is about, when that item is a record of its own in the file,
/// with no ordinal a deletion would leave a gap at: a line a fix may delete.
fn own_line(p: &PairFact, out: &Found<'_>) -> Option<Line> {
    let at =
        p.at.filter(|a| p.origin == Origin::Record && a.ordinal.is_none())?;
    out.line_at(at.own_pos()?)
}
