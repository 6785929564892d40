//! `image.replaced`: an image Codex does not send, a text in its place.

use crate::codex::image::Prepared;
use crate::decode::{Kind, Record};
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** Each `input_image` of a message or of a tool output's content items is one
    /// the Codex version read as sends: a `data:` URL of base64 bytes that decode as an image,
    /// not an `http(s)` URL, not `detail: "low"`.
    ///
    /// **Why it matters.** Codex 0.147 and later replace such an image by a text ("image
    /// content omitted because it could not be processed", "… remote image URLs are not
    /// supported", "… detail 'low' is not supported"; `WARN … failed to prepare message
    /// image`): the model never sees it (verified with 0.147, 0.160, 0.171,
    /// `docs/codex-versions.md`). 0.128 sent them as written.
    ///
    /// **Example.** `"image_url": "data:image/png;base64,iVBORw0KGgpub3QgYW4gaW1hZ2U="`: a PNG
    /// signature, then bytes that are not an image.
    ///
    /// **Fix.** Attach the image again from its file, or remove the part.
    "image.replaced", Error, "an image Codex replaces by a text: the model never sees it",
    effect: Loses,
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(
        Stage::ContentMedia,
        Kinds::of(&[Kind::ResponseItem]),
        check,
    )],
);

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    for img in cx.images(rec) {
        if let Prepared::Replaced { why, .. } = &img.prepared {
            out.push_rec(
                rec,
                format!(
                    "the image at payload.{}: Codex {} sends a text in its place ({}): the model \
                     never sees it",
                    img.place,
                    cx.codex.version,
                    short(why)
                ),
            );
        }
    }
}
