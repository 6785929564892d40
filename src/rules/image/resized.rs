//! `image.resized`: an image Codex sends smaller than written.

use crate::codex::image::Prepared;
use crate::decode::{Kind, Record};
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** Each `data:` image of a message or of a tool output's content items fits
    /// what the Codex version read as sends unchanged: 2048 pixels a side and 2,500 patches
    /// of 32×32 pixels.
    ///
    /// **Why it matters.** Codex 0.147 and later resize a larger one before sending it
    /// (3840×2160 went out as 2048×1152, 2200×2000 as 1654×1504, in its own format; verified
    /// with 0.147, 0.160, 0.171, byte for byte with `replay --for-prompt`): the model sees
    /// less detail than the file holds. Nothing is lost from the file.
    ///
    /// **Example.** A 4K screenshot pasted into a prompt.
    ///
    /// **Fix.** Nothing to fix; crop the image to what matters if its detail does.
    "image.resized", Info, "an image Codex sends resized to fit its limits",
    effect: Nothing,
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
    for img in cx.images(rec).iter().filter(|i| i.prepared.resized()) {
        if let Prepared::Rewritten {
            from,
            to,
            media_type,
            ..
        } = &img.prepared
        {
            out.push_rec(
                rec,
                format!(
                    "the image at payload.{}: {}×{}, sent by Codex {} as {}×{} ({media_type})",
                    img.place, from.0, from.1, cx.codex.version, to.0, to.1
                ),
            );
        }
    }
}
