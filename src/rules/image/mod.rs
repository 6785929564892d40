//! Images as Codex prepares them before sending: replaced, or resized.

group![replaced, resized];

use crate::codex::image::{self, ItemImage};
use crate::codex::{Answer, Behaviour};
use crate::decode::Record;
use crate::rules::RecordCx;

/// The images of a response item the version read as prepares, and what it does with each
/// (decoded only where an image is).
fn prepared(rec: &Record<'_>, cx: &RecordCx<'_>) -> Vec<ItemImage> {
    if !cx.codex.does(Behaviour::ImagePreparation, Answer::Prepares) {
        return Vec::new();
    }
    image::item_images(rec.payload.get(), false)
}
