//! `content.inline-media`: inline base64 media where Codex strips it.

use crate::content::media;
use crate::decode::Record;
use crate::rules::words::{short, size};
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** No persisted tool output, `item_completed` or `image_generation_end` event
    /// holds an inline base64 image or audio (`data:image/…`, `data:audio/…`), and no
    /// `image_generation_call` keeps its `result`: the places Codex's persistence policy now
    /// strips (`clone_without_inline_media_payloads`).
    ///
    /// **Why it matters.** Older writers kept them: each image is megabytes in every
    /// resume's read, in the file and in each compaction that copies it (openai/codex#40111:
    /// a 98 GB rollout). Images the user attached to a message are kept by design and not
    /// flagged.
    ///
    /// **Example.** A `function_call_output` whose content holds an `input_image` with
    /// `"image_url": "data:image/png;base64,iVBOR…"`.
    ///
    /// **Fix.** Replace the data with Codex's placeholder ("[inline tool image omitted from
    /// persisted history]") or save the image to a file.
    "content.inline-media", Warning, "inline base64 media where Codex strips it",
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(Stage::ContentMedia, Kinds::ALL, check)],
)
.lint_only();

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if let Some(m) = media::check(rec, cx.seen(rec)) {
        out.push_rec(
            rec,
            format!(
                "an inline base64 {} ({}) in {}: Codex's policy strips these now; each copy \
                 weighs on every resume",
                m.media,
                size(m.bytes),
                short(&m.place)
            ),
        );
    }
}
