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
use serde_json::value::RawValue;

use crate::decode::select;

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
    let undecodable =
        |e: image::ImageError| Failure::Invalid(format!("failed to decode image: {e}"));
    if let Some(not_an_image) = sniff(payload) {
        return Err(match not_an_image {
            Err(e) => invalid(&format!("invalid base64 payload: {e}")),
            Ok(e) => undecodable(e),
        });
    }
    let bytes = BASE64
        .decode(payload)
        .map_err(|e| invalid(&format!("invalid base64 payload: {e}")))?;
    let declared = meta.split(';').next().unwrap_or_default();
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

/// Base64 characters enough to tell an image's format: 66 bytes, and
/// `image::guess_format` matches signatures at the start of the bytes only, none longer.
const SNIFF: usize = 88;

/// Why a base64 payload is no image, told without decoding it into memory whole: Codex
/// decodes it whole (its first complaint, a bad payload: `Err`), then guesses the format
/// from the bytes' start (`Ok`: none). `None`: it may be an image, or it is short, or it
/// goes wrong early; it is then decoded whole.
///
/// A checkpoint can hold a data URL of tens of MB that is no image, which took its size
/// again in bytes decoded only to be dropped. Whole groups of four base64 characters,
/// padding and all else aside, decode whatever follows them: the payload's start is
/// decoded for the guess, and from the last such group before the first other character,
/// the rest decoded alone tells what the whole decode says, its offsets moved (a test
/// holds both against the base64 crate's whole decode).
fn sniff(payload: &str) -> Option<Result<image::ImageError, base64::DecodeError>> {
    let symbols = payload
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'+' || b == b'/'))
        .unwrap_or(payload.len());
    // The last whole group is left with the rest: the whole decode checks a last
    // symbol's unused bits.
    let clean = (symbols / 4).saturating_sub(1) * 4;
    if clean < SNIFF {
        return None;
    }
    let head = BASE64.decode(payload.get(..SNIFF)?).ok()?;
    let no_image = image::guess_format(&head).err()?;
    Some(match BASE64.decode(payload.get(clean..)?) {
        Ok(_) => Ok(no_image),
        Err(e) => Err(moved(e, clean)),
    })
}

/// A decoding error of a payload's part from `by` on, as one of the whole payload.
fn moved(e: base64::DecodeError, by: usize) -> base64::DecodeError {
    use base64::DecodeError::{InvalidByte, InvalidLastSymbol, InvalidLength, InvalidPadding};
    match e {
        InvalidByte(at, byte) => InvalidByte(at + by, byte),
        InvalidLength(len) => InvalidLength(len + by),
        InvalidLastSymbol(at, byte) => InvalidLastSymbol(at + by, byte),
        InvalidPadding => InvalidPadding,
    }
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
    let Some(item) = ImageItem::read(item_json) else {
        return out;
    };
    item.each_image(encode, |place, _, prepared| {
        out.push(ItemImage {
            place: place.into(),
            prepared,
        });
    });
    out
}

/// The item as Codex sends it, when its images change it (`None`: as written).
///
/// Neither the item nor its images are copied to find that out: a checkpoint can hold a
/// screenshot of tens of MB as a `data:` URL, and a tree of the whole item doubled what it
/// takes to prepare (`docs/performance.md`). The item is then written as a
/// `serde_json::Value` of it would be, each member parsed alone, an image part as sent.
pub fn item_as_sent(item_json: &str) -> Option<String> {
    if !may_hold_image(item_json) {
        return None;
    }
    let item = ImageItem::read(item_json)?;
    // The parts that change, by their index, each as it is sent.
    let mut sent: Vec<(usize, serde_json::Value)> = Vec::new();
    item.each_image(true, |place, part, prepared| {
        let index = place.index;
        match prepared {
            Prepared::AsWritten | Prepared::Rewritten { url: None, .. } => {}
            Prepared::Rewritten { url: Some(url), .. } => {
                if let Some(part) = with_image_url(part, url) {
                    sent.push((index, part));
                }
            }
            Prepared::Replaced { text, .. } => {
                sent.push((
                    index,
                    serde_json::json!({"type": "input_text", "text": text}),
                ));
            }
        }
    });
    if sent.is_empty() {
        return None;
    }
    serde_json::to_string(&item.with_parts(sent)?).ok()
}

/// A response item read for its images: its members in order (the whole item checked as
/// JSON, each member's value left as text), and which of them holds the parts: the last
/// `content` of a message, `output` of a tool output (a repeated key is read as its last,
/// as `serde_json` and Codex read it).
struct ImageItem<'a> {
    members: Vec<(String, &'a RawValue)>,
    parts: Option<(usize, &'static str)>,
}

/// Where an image part is in its item: `content[1]`, `output[0]`.
#[derive(Debug, Clone, Copy)]
struct Place {
    key: &'static str,
    index: usize,
}

impl From<Place> for String {
    fn from(p: Place) -> String {
        format!("{}[{}]", p.key, p.index)
    }
}

impl<'a> ImageItem<'a> {
    fn read(item_json: &'a str) -> Option<ImageItem<'a>> {
        let members = select::checked_members(item_json)?;
        let last = |name: &str| members.iter().rposition(|(k, _)| k == name);
        let type_ = last("type")
            .and_then(|i| members.get(i))
            .and_then(|(_, v)| select::str_value(v.get()));
        let key = match type_.as_deref() {
            Some("message") => "content",
            Some("function_call_output" | "custom_tool_call_output") => "output",
            _ => {
                return Some(ImageItem {
                    members,
                    parts: None,
                })
            }
        };
        let parts = last(key).map(|i| (i, key));
        Some(ImageItem { members, parts })
    }

    /// Calls `f` with each `input_image` part: where it is, its text and what Codex does
    /// with it.
    fn each_image(&self, encode: bool, mut f: impl FnMut(Place, &'a str, Prepared)) {
        let Some((at, key)) = self.parts else {
            return;
        };
        let Some((_, parts)) = self.members.get(at) else {
            return;
        };
        let mut index = 0;
        // The item was checked whole: its parts' text is valid JSON.
        select::elements(parts.get(), |part| {
            if let Some([Some(type_), url, detail]) =
                select::fields(part, ["type", "image_url", "detail"])
            {
                if select::str_value(type_).as_deref() == Some(IMAGE_TAG) {
                    let url = url.and_then(select::str_value);
                    let detail = detail.and_then(select::str_value);
                    let prepared = url.map_or(Prepared::AsWritten, |u| {
                        prepare(&u, detail.as_deref(), encode)
                    });
                    f(Place { key, index }, part, prepared);
                }
            }
            index += 1;
            true
        });
    }

    /// The item as a `serde_json::Value`, with the parts `sent` (by index, in order) in
    /// place of those written; members a later one of the same key replaces are not parsed.
    fn with_parts(&self, sent: Vec<(usize, serde_json::Value)>) -> Option<serde_json::Value> {
        let (at, _) = self.parts?;
        let mut sent = sent.into_iter().peekable();
        let mut out = serde_json::Map::new();
        for (k, (key, raw)) in self.members.iter().enumerate() {
            let replaced_later = self
                .members
                .get(k + 1..)
                .is_some_and(|rest| rest.iter().any(|(later, _)| later == key));
            let value = if replaced_later {
                serde_json::Value::Null
            } else if k == at {
                let mut parts = Vec::new();
                let mut index = 0;
                let walked = select::elements(raw.get(), |part| {
                    let value = match sent.next_if(|(i, _)| *i == index) {
                        Some((_, v)) => Some(v),
                        None => serde_json::from_str(part).ok(),
                    };
                    index += 1;
                    value.map(|v| parts.push(v)).is_some()
                });
                walked?;
                serde_json::Value::Array(parts)
            } else {
                serde_json::from_str(raw.get()).ok()?
            };
            out.insert(key.clone(), value);
        }
        Some(serde_json::Value::Object(out))
    }
}

/// An image part (`part`: its text, an object) with its `image_url` set to `url`; the
/// URL written is never parsed.
fn with_image_url(part: &str, url: String) -> Option<serde_json::Value> {
    let mut out = serde_json::Map::new();
    for (key, raw) in select::checked_members(part)? {
        let value = if key == "image_url" {
            serde_json::Value::Null
        } else {
            serde_json::from_str(raw.get()).ok()?
        };
        out.insert(key, value);
    }
    out.insert("image_url".into(), serde_json::Value::String(url));
    Some(serde_json::Value::Object(out))
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

    /// The reading this module had before it read items without a tree of them: the
    /// whole item parsed into a `serde_json::Value`, its image parts changed in place. What
    /// is sent and what is said of each image must be what that gave.
    mod by_value {
        use super::super::*;

        fn prepare_part(part: &serde_json::Value, encode: bool) -> Prepared {
            let url = part.get("image_url").and_then(serde_json::Value::as_str);
            let detail = part.get("detail").and_then(serde_json::Value::as_str);
            url.map_or(Prepared::AsWritten, |u| prepare(u, detail, encode))
        }

        fn each_image(
            item: &mut serde_json::Value,
            mut f: impl FnMut(String, &mut serde_json::Value),
        ) {
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
    }

    fn png(width: u32, height: u32) -> String {
        let img = DynamicImage::new_rgba8(width, height);
        let bytes = encode_image(&img, ImageFormat::Png).unwrap();
        BASE64.encode(bytes)
    }

    /// Image parts of every kind Codex treats apart, written in ways a `Value` reads alike
    /// (escaped keys and URLs, repeated keys, a `detail` that is no string).
    fn image_parts() -> Vec<String> {
        let small = png(4, 3);
        let wide = png(2100, 2);
        vec![
            format!(r#"{{"type":"input_image","image_url":"data:image/png;base64,{small}"}}"#),
            format!(
                r#"{{"type":"input_image","image_url":"data:image/jpeg;base64,{small}","detail":"high"}}"#
            ),
            format!(
                r#"{{"image_url":"data:image\/png;base64,{wide}","type":"input_image","x":1.50}}"#
            ),
            format!(
                r#"{{"type":"input_image","image\u005furl":"data:image/png;base64,{wide}","detail":"original"}}"#
            ),
            format!(
                r#"{{"type":"input_image","image_url":"x","image_url":"data:image/png;base64,{small}","detail":"low"}}"#
            ),
            format!(
                r#"{{"type":"input_image","image_url":"data:image/png;base64,{small}","detail":7}}"#
            ),
            r#"{"type":"input_image","image_url":"https://example.com/a.png"}"#.into(),
            r#"{"type":"input_image","image_url":"file:///a.png"}"#.into(),
            r#"{"type":"input_image","image_url":"data:image/png;base64,!!!!"}"#.into(),
            r#"{"type":"input_image","image_url":"data:image/png;base64,bm90IGFuIGltYWdl"}"#.into(),
            r#"{"type":"input_image","image_url":"data:image/png,plain"}"#.into(),
            r#"{"type":"input_image","image_url":3}"#.into(),
            r#"{"type":"input_image"}"#.into(),
            r#"{"type":"input_\u0069mage","image_url":"http://x"}"#.into(),
        ]
    }

    /// Parts that are no image part, and members around them.
    const OTHER_PARTS: [&str; 5] = [
        r#"{"type":"input_text","text":"caf\u00e9 \/ 1e5"}"#,
        r#"{"type":"output_text","text":"","annotations":[1e2,-0,12345678901234567890]}"#,
        r#""input_image""#,
        r#"[{"type":"input_image","image_url":"http://x"}]"#,
        r#"null"#,
    ];

    const TYPES: [&str; 6] = [
        r#""message""#,
        r#""function_call_output""#,
        r#""custom_tool_call_output""#,
        r#""mess\u0061ge""#,
        r#""reasoning""#,
        r#"1"#,
    ];

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Every item made of those pieces is sent, and its images judged, as the whole
        /// `Value` reading sent and judged it.
        #[test]
        fn items_are_read_for_their_images_as_a_whole_value_read_them(
            type_ in 0..TYPES.len(),
            key in 0..3usize,
            parts in prop::collection::vec(0..19usize, 0..5),
            extra in prop::collection::vec(0..6usize, 0..4),
            repeat in 0..3usize,
        ) {
            let images = image_parts();
            let part = |k: usize| {
                images.get(k).cloned().unwrap_or_else(|| OTHER_PARTS[k - images.len()].to_string())
            };
            let key = ["content", "output", "cont\\u0065nt"][key];
            let array = format!("[{}]", parts.iter().map(|&k| part(k)).collect::<Vec<_>>().join(" , "));
            let mut members = vec![format!(r#""type":{}"#, TYPES[type_]), format!(r#""{key}":{array}"#)];
            for e in &extra {
                members.push(match e {
                    0 => r#""id":"x\u0041""#.into(),
                    1 => r#""n":1.0"#.into(),
                    2 => r#""role":"user""#.into(),
                    3 => r#""type":"message""#.into(),
                    4 => format!(r#""{key}":[{}]"#, part(0)),
                    _ => r#""deep":{"a":[{"b":{}}]}"#.into(),
                });
            }
            let n = members.len();
            members.rotate_left(repeat % n);
            let item = format!("{{ {} }}", members.join(", "));
            prop_assert_eq!(item_as_sent(&item), by_value::item_as_sent(&item), "{}", item);
            prop_assert_eq!(item_images(&item, false), by_value::item_images(&item, false));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// A payload judged no image from its start is judged as decoding it whole and
        /// guessing its format judge it: the same base64 error, offsets and all, the same
        /// guess; and every payload long enough that decodes to no image is judged so.
        #[test]
        fn a_payload_is_sniffed_as_the_whole_decode_judges_it(
            bytes in prop::collection::vec(any::<u8>(), 0..2000),
            image in 0..3usize,
            edits in prop::collection::vec((any::<prop::sample::Index>(), 0..8usize, any::<bool>()), 0..3),
            cut in 0..4usize,
        ) {
            let mut bytes = bytes;
            let signature: &[u8] = [&b""[..], b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff"][image];
            bytes.splice(0..0, signature.iter().copied());
            let mut text = BASE64.encode(&bytes).into_bytes();
            for (at, edit, near_end) in edits {
                if text.is_empty() {
                    break;
                }
                let i = at.index(text.len());
                // Often near the end, where padding and last symbols are judged.
                let i = if near_end { text.len() - 1 - i % 8.min(text.len()) } else { i };
                text[i] = b"=!A/ \n-+"[edit];
            }
            text.truncate(text.len().saturating_sub(cut));
            let text = String::from_utf8(text).unwrap();
            let whole = BASE64.decode(&text);
            let expected = match &whole {
                Err(e) => Some(Err(e.to_string())),
                Ok(b) => image::guess_format(b).err().map(|e| Ok(e.to_string())),
            };
            match sniff(&text) {
                Some(r) => {
                    let sniffed = r.map(|e| e.to_string()).map_err(|e| e.to_string());
                    prop_assert_eq!(Some(sniffed), expected, "{}", text);
                }
                // Left to the whole decode (its start may be an image's): never a payload
                // that decodes to no image, which is what the sniff is for.
                None => prop_assert!(
                    text.len() < SNIFF + 8 || !matches!(expected, Some(Ok(_))),
                    "{}",
                    text
                ),
            }
        }
    }

    /// Deep items as deep as a line Codex reads can hold them (a line nested 128 levels
    /// deep is not read: `decode/scan.rs`), and text that is no JSON object.
    #[test]
    fn deep_items_and_text_no_object_are_read_as_a_whole_value_read_them() {
        let image = r#"{"type":"input_image","image_url":"http://x"}"#;
        // The item's own levels: its object, its `content`, then `depth` arrays.
        for depth in [1, 60, 120, 125] {
            let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            let item = format!(r#"{{"type":"message","content":[{image}],"d":{deep}}}"#);
            assert_eq!(
                item_as_sent(&item),
                by_value::item_as_sent(&item),
                "{depth}"
            );
            let item = format!(r#"{{"type":"message","content":[{image},{deep}]}}"#);
            assert_eq!(
                item_as_sent(&item),
                by_value::item_as_sent(&item),
                "{depth}"
            );
        }
        for broken in [
            r#"{"type":"message","content":[{"type":"input_image","image_url":"http://x"}]"#,
            r#"{"type":"message","content":[{"type":"input_image","image_url":"http://x"}]} x"#,
            r#"[{"type":"input_image","image_url":"http://x"}]"#,
        ] {
            assert_eq!(
                item_as_sent(broken),
                by_value::item_as_sent(broken),
                "{broken}"
            );
            assert_eq!(
                item_images(broken, false),
                by_value::item_images(broken, false)
            );
        }
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
