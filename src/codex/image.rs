//! An image as Codex prepares it before sending it (0.171: `core/src/image_preparation.rs`
//! over `utils/image`, `load_data_url_for_prompt`), for each `input_image` of a message or
//! of a tool output's content items:
//!
//! - an `http(s)` URL, or `detail: "low"`, is replaced by a text saying so;
//! - a `data:` URL is decoded (base64, then the image; either failing: replaced by "image
//!   content omitted because it could not be processed");
//! - an image over 2048 pixels a side or 2,500 patches of 32×32 is resized (Triangle filter)
//!   to the largest size within both, and encoded again in its own format (PNG, JPEG at
//!   quality 85, lossless WebP; any other as PNG);
//! - one within the limits is sent as it was, PNG, JPEG and WebP byte for byte (another
//!   format re-encoded as PNG).
//!
//! Verified with the real 0.171 (`testdata/typed/cases/image-*`); which versions do it is
//! the table's (`Behaviour::ImagePreparation`). Everything here runs only where an image is.

use std::io::Cursor;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageEncoder, ImageFormat, ImageReader};

/// Codex's limits for an image sent at `detail` `high` or `auto` (its default).
const HIGH: Limits = Limits {
    max_dimension: 2048,
    max_patches: 2_500,
};
/// Codex's limits for `detail: "original"` (upstream; not asked of the real Codex).
const ORIGINAL: Limits = Limits {
    max_dimension: 6000,
    max_patches: 10_000,
};
const PATCH: u32 = 32;
/// Codex's guard against a pathological data URL (its base64, and the bytes decoded).
const MAX_INPUT_BYTES: usize = 1024 * 1024 * 1024;

/// The texts Codex puts in place of an image it does not send.
pub const COULD_NOT_PROCESS: &str = "image content omitted because it could not be processed";
pub const TOO_LARGE: &str =
    "image content omitted because it exceeded the supported size limit; use a smaller image";
pub const REMOTE: &str = "image content omitted because remote image URLs are not supported";
pub const LOW_DETAIL: &str = "image content omitted because detail 'low' is not supported; use \
                              'high', 'original', or 'auto'";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Limits {
    max_dimension: u32,
    max_patches: u64,
}

/// What Codex does with one image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prepared {
    /// Sent as written.
    AsWritten,
    /// Sent as another data URL: resized (`from` ≠ `to`), or the same pixels encoded again
    /// (a format Codex does not pass through, or a media type the bytes do not have).
    Rewritten {
        from: (u32, u32),
        to: (u32, u32),
        media_type: &'static str,
        /// The data URL sent, when asked for (`encode`).
        url: Option<String>,
    },
    /// Replaced by `text` (an `input_text`); `why` in Codex's words.
    Replaced { text: &'static str, why: String },
}

impl Prepared {
    /// Whether the image is sent at another size.
    pub fn resized(&self) -> bool {
        matches!(self, Prepared::Rewritten { from, to, .. } if from != to)
    }
}

/// What Codex does with the image at `url` sent with `detail` (`None`: absent). With
/// `encode`, a rewritten image's data URL is made (the resize and the encoding: for what is
/// sent); without, only what happens is said (the decoding still runs: an image whose header
/// reads well may not decode).
pub fn prepare(url: &str, detail: Option<&str>, encode: bool) -> Prepared {
    let scheme = url.split_once(':').map(|(s, _)| s);
    if scheme.is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https")) {
        return replaced(REMOTE, "remote image URLs are not supported");
    }
    let Some(rest) = strip_prefix_ignore_case(url, "data:") else {
        return Prepared::AsWritten;
    };
    let limits = match detail {
        None | Some("auto" | "high") => HIGH,
        Some("original") => ORIGINAL,
        Some("low") => return replaced(LOW_DETAIL, "image detail `low` is not supported"),
        // Codex's `ImageDetail` has no other value: the item would not decode.
        Some(_) => HIGH,
    };
    match decode(rest, limits, encode) {
        Ok(p) => p,
        Err(Failure::TooLarge(why)) => replaced(TOO_LARGE, &why),
        Err(Failure::Invalid(why)) => replaced(COULD_NOT_PROCESS, &why),
    }
}

fn replaced(text: &'static str, why: &str) -> Prepared {
    Prepared::Replaced {
        text,
        why: why.to_string(),
    }
}

enum Failure {
    TooLarge(String),
    Invalid(String),
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| s.get(prefix.len()..))
        .flatten()
}

/// A data URL's part after `data:`, prepared.
fn decode(rest: &str, limits: Limits, encode: bool) -> Result<Prepared, Failure> {
    let invalid = |why: &str| Failure::Invalid(format!("invalid data URL: {why}"));
    let (meta, payload) = rest
        .split_once(',')
        .ok_or_else(|| invalid("missing comma separator"))?;
    if !meta.split(';').any(|p| p.eq_ignore_ascii_case("base64")) {
        return Err(invalid("only base64 data URLs are supported"));
    }
    if payload.len() > MAX_INPUT_BYTES {
        return Err(Failure::TooLarge(format!(
            "base64 payload of {} bytes",
            payload.len()
        )));
    }
    let bytes = BASE64
        .decode(payload)
        .map_err(|e| invalid(&format!("invalid base64 payload: {e}")))?;
    let declared = meta.split(';').next().unwrap_or_default();
    let undecodable =
        |e: image::ImageError| Failure::Invalid(format!("failed to decode image: {e}"));
    let format = image::guess_format(&bytes).map_err(undecodable)?;
    let mut decoder = ImageReader::with_format(Cursor::new(&bytes), format)
        .into_decoder()
        .map_err(undecodable)?;
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder).map_err(undecodable)?;
    img.apply_orientation(orientation);
    let from = (img.width(), img.height());
    let to = output_dimensions(from.0, from.1, limits);
    let kept = passes_through(format);
    if to == from && kept.is_some_and(|m| m.eq_ignore_ascii_case(declared)) {
        return Ok(Prepared::AsWritten);
    }
    let out_format = if kept.is_some() {
        format
    } else {
        ImageFormat::Png
    };
    let media_type = media_type(out_format);
    let url = if encode {
        let bytes = if to == from && kept.is_some() {
            // Only the media type differs: the bytes go as they were.
            bytes
        } else {
            let img = if to == from {
                img
            } else {
                img.resize_exact(to.0, to.1, FilterType::Triangle)
            };
            encode_image(&img, out_format).map_err(undecodable)?
        };
        Some(format!("data:{media_type};base64,{}", BASE64.encode(bytes)))
    } else {
        None
    };
    Ok(Prepared::Rewritten {
        from,
        to,
        media_type,
        url,
    })
}

/// The media type of a format Codex sends as it was, `None` for one it re-encodes.
fn passes_through(format: ImageFormat) -> Option<&'static str> {
    matches!(
        format,
        ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP
    )
    .then(|| media_type(format))
}

fn media_type(format: ImageFormat) -> &'static str {
    match format {
        ImageFormat::Jpeg => "image/jpeg",
        ImageFormat::WebP => "image/webp",
        _ => "image/png",
    }
}

fn encode_image(img: &DynamicImage, format: ImageFormat) -> Result<Vec<u8>, image::ImageError> {
    let mut out = Vec::new();
    match format {
        ImageFormat::Jpeg => {
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85).encode_image(img)?;
        }
        ImageFormat::WebP => {
            let rgba = img.to_rgba8();
            image::codecs::webp::WebPEncoder::new_lossless(&mut out).write_image(
                rgba.as_raw(),
                img.width(),
                img.height(),
                image::ExtendedColorType::Rgba8,
            )?;
        }
        _ => {
            let rgba = img.to_rgba8();
            image::codecs::png::PngEncoder::new(&mut out).write_image(
                rgba.as_raw(),
                img.width(),
                img.height(),
                image::ExtendedColorType::Rgba8,
            )?;
        }
    }
    Ok(out)
}

/// One image of an item and what Codex does with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemImage {
    /// Where it is in the item (`content[1]`, `output[0]`).
    pub place: String,
    pub prepared: Prepared,
}

/// The tag of an image part, which every writer writes plainly.
pub const IMAGE_TAG: &str = "input_image";

/// Whether an item's JSON may hold an image (a cheap look before any parsing: the tag is
/// there). The searcher is built once: `memmem::find` builds one a call, which cost more
/// than the search over most items.
pub fn may_hold_image(item_json: &str) -> bool {
    static TAG: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(IMAGE_TAG));
    TAG.find(item_json.as_bytes()).is_some()
}

/// What Codex does with each image of a response item (`item_json`: its payload): those of
/// a message's `content` and of a tool output's content items. Without `encode`, nothing is
/// encoded.
pub fn item_images(item_json: &str, encode: bool) -> Vec<ItemImage> {
    let mut out = Vec::new();
    if !may_hold_image(item_json) {
        return out;
    }
    let Ok(mut item) = serde_json::from_str::<serde_json::Value>(item_json) else {
        return out;
    };
    each_image(&mut item, |place, part| {
        out.push(ItemImage {
            place,
            prepared: prepare_part(part, encode),
        });
    });
    out
}

/// The item as Codex sends it, when its images change it (`None`: as written).
pub fn item_as_sent(item_json: &str) -> Option<String> {
    if !may_hold_image(item_json) {
        return None;
    }
    let mut item = serde_json::from_str::<serde_json::Value>(item_json).ok()?;
    let mut changed = false;
    each_image(&mut item, |_, part| match prepare_part(part, true) {
        Prepared::AsWritten => {}
        Prepared::Rewritten { url, .. } => {
            if let (Some(url), Some(m)) = (url, part.as_object_mut()) {
                m.insert("image_url".into(), serde_json::Value::String(url));
                changed = true;
            }
        }
        Prepared::Replaced { text, .. } => {
            *part = serde_json::json!({"type": "input_text", "text": text});
            changed = true;
        }
    });
    changed.then(|| serde_json::to_string(&item).ok()).flatten()
}

fn prepare_part(part: &serde_json::Value, encode: bool) -> Prepared {
    let url = part.get("image_url").and_then(serde_json::Value::as_str);
    let detail = part.get("detail").and_then(serde_json::Value::as_str);
    url.map_or(Prepared::AsWritten, |u| prepare(u, detail, encode))
}

/// Calls `f` with each `input_image` part of a message's `content` or a function or custom
/// tool output's content items, and where it is.
fn each_image(item: &mut serde_json::Value, mut f: impl FnMut(String, &mut serde_json::Value)) {
    let key = match item.get("type").and_then(serde_json::Value::as_str) {
        Some("message") => "content",
        Some("function_call_output" | "custom_tool_call_output") => "output",
        _ => return,
    };
    let Some(parts) = item.get_mut(key).and_then(serde_json::Value::as_array_mut) else {
        return;
    };
    for (i, part) in parts.iter_mut().enumerate() {
        if part.get("type").and_then(serde_json::Value::as_str) == Some("input_image") {
            f(format!("{key}[{i}]"), part);
        }
    }
}

/// The size Codex sends a `width`×`height` image at: itself when within the limits; else
/// scaled to the longest side's limit, and if that still has too many patches, scaled by
/// area to the patch budget, the patch grid rounded down (upstream
/// `prompt_image_resize_dimensions`).
fn output_dimensions(width: u32, height: u32, limits: Limits) -> (u32, u32) {
    let (w, h) = (width.max(1), height.max(1));
    if fits(w, h, limits) {
        return (w, h);
    }
    let side = (f64::from(limits.max_dimension) / f64::from(w.max(h))).min(1.0);
    let w = ((f64::from(w) * side).round() as u32).max(1);
    let h = ((f64::from(h) * side).round() as u32).max(1);
    if fits(w, h, limits) {
        return (w, h);
    }
    let (fw, fh, p) = (f64::from(w), f64::from(h), f64::from(PATCH));
    let mut scale = (p * p * limits.max_patches as f64 / fw / fh).sqrt();
    let wide = fw * scale / p;
    let high = fh * scale / p;
    scale *= (wide.floor() / wide).min(high.floor() / high);
    (
        ((fw * scale).floor() as u32).max(1),
        ((fh * scale).floor() as u32).max(1),
    )
}

fn fits(w: u32, h: u32, limits: Limits) -> bool {
    let patches = u64::from(w.div_ceil(PATCH)) * u64::from(h.div_ceil(PATCH));
    w <= limits.max_dimension && h <= limits.max_dimension && patches <= limits.max_patches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_those_the_real_codex_sent() {
        // testdata/typed/cases/image-*/verdicts/0.171.0.json
        assert_eq!(output_dimensions(3840, 2160, HIGH), (2048, 1152));
        assert_eq!(output_dimensions(2200, 2000, HIGH), (1654, 1504));
        assert_eq!(output_dimensions(2048, 1024, HIGH), (2048, 1024));
        // Upstream's own cases (`image_tests.rs`).
        assert_eq!(output_dimensions(4096, 2048, HIGH), (2048, 1024));
        assert_eq!(output_dimensions(2048, 2048, HIGH), (1600, 1600));
    }

    #[test]
    fn what_is_not_an_image_is_replaced_and_a_remote_url_too() {
        let bad = format!("data:image/png;base64,{}", BASE64.encode(b"not an image"));
        assert!(matches!(
            prepare(&bad, None, false),
            Prepared::Replaced {
                text: COULD_NOT_PROCESS,
                ..
            }
        ));
        assert!(matches!(
            prepare("https://example.com/x.png", None, false),
            Prepared::Replaced { text: REMOTE, .. }
        ));
        assert_eq!(prepare("file:///x.png", None, false), Prepared::AsWritten);
    }
}
