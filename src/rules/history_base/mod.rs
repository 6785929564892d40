//! A fork's or revert's lineage (`session_meta.history_base`): well formed, its source found
//! and read, its cutoff on the source's boundary.

group![in_legacy, shape, resolve, byte_offset, ignored];

use crate::findings::{Related, Span};
use crate::input::Source;
use crate::lineage::Problem;

/// The source rollout a lineage problem is about, as a related place: the line at the
/// cutoff for a fault of the byte offset, the file for the others.
fn source(p: &Problem) -> Option<Related> {
    let s = p.source.as_ref()?;
    Some(Related {
        file: Source::File(s.path.clone()),
        span: s.at.map(Span::start_of),
        note: match s.at {
            Some(_) => "the source's first record at the cutoff",
            None => "the source rollout",
        }
        .to_string(),
    })
}
