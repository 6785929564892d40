//! `content.inline-media`: base64 images and audio where Codex's persistence policy now
//! strips them (`clone_without_inline_media_payloads`, in its `rollout/src/policy.rs`, writes
//! a placeholder text for each `data:image/…` or `data:audio/…` URL): tool outputs (in
//! response items and in compactions' replacement histories), `item_completed` and
//! `image_generation_end` events, and an `image_generation_call`'s `result` (cleared).
//! Images a user attached to a message are kept by design and not looked at.

use memchr::memmem;

use super::{each_string, Media, Seen};
use crate::decode::{Kind, Record};

/// Where the policy strips media: (record kind, payload type).
fn stripped_here(rec: &Record<'_>) -> bool {
    match (rec.kind, rec.payload_type()) {
        (Kind::ResponseItem, Some(t)) => {
            matches!(t, "function_call_output" | "custom_tool_call_output")
        }
        (Kind::EventMsg, Some(t)) => matches!(t, "item_completed" | "image_generation_end"),
        (Kind::Compacted, _) => true,
        _ => false,
    }
}

/// A string that is, or holds, a base64 data URL: its media kind.
fn data_url(s: &str) -> Option<&'static str> {
    let at = memmem::find(s.as_bytes(), b"data:")?;
    let rest = &s[at..];
    let kind = if rest.starts_with("data:image/") {
        "image"
    } else if rest.starts_with("data:audio/") {
        "audio"
    } else {
        return None;
    };
    rest.contains(";base64,").then_some(kind)
}

/// The inline media of one record whose raw line the line pass saw as `seen`.
pub fn check(rec: &Record<'_>, seen: &Seen) -> Option<Media> {
    let place = || rec.payload_type().unwrap_or(&rec.type_name).to_string();
    // An image generation's result, which the policy clears.
    let generation = matches!(
        rec.payload_type(),
        Some("image_generation_call" | "image_generation_end")
    );
    let kept = generation
        .then(|| rec.payload_field("result"))
        .flatten()
        .filter(|r| r.starts_with('"') && r.len() > 2);
    if let Some(result) = kept {
        return Some(Media {
            media: "image generation result",
            bytes: result.len() as u64 - 2,
            place: place(),
        });
    }
    // The line pass: no `data:image` or `data:audio` in the raw line, no data URL (the
    // slash may be written `\/`, so it is not part of the needle).
    if !seen.media || !stripped_here(rec) {
        return None;
    }
    let (mut first, mut bytes) = (None, 0u64);
    each_string(
        rec.payload.get(),
        &mut String::from("payload"),
        1,
        &mut |s, _| {
            if let Some(kind) = data_url(s) {
                first.get_or_insert(kind);
                bytes += s.len() as u64;
            }
        },
    );
    first.map(|media| Media {
        media,
        bytes,
        place: place(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit;
    use serde_json::json;

    fn found(line: testkit::Line) -> Vec<String> {
        let mut out = Vec::new();
        testkit::each_record(&testkit::jsonl(&[line]), |rec| {
            out.extend(check(rec, &Seen::of(rec.raw.as_bytes())))
        });
        out.iter().map(|m| m.media.to_string()).collect()
    }

    #[test]
    fn media_is_flagged_only_where_the_policy_strips_it() {
        let image = "data:image/png;base64,iVBORw0KGgo=";
        let output = testkit::item(json!({
            "type": "function_call_output", "call_id": "c",
            "output": [{"type": "input_image", "image_url": image}]
        }));
        assert_eq!(found(output), ["image"]);
        // The slash escaped: still found.
        let escaped = r#"{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c","output":"data:audio\/wav;base64,UklGRg=="}}"#;
        let mut out = Vec::new();
        testkit::each_record(escaped, |rec| {
            out.extend(check(rec, &Seen::of(rec.raw.as_bytes())))
        });
        assert_eq!(out.len(), 1);
        // A user's attached image is kept by design.
        let user = testkit::item(json!({
            "type": "message", "role": "user",
            "content": [{"type": "input_image", "image_url": image}]
        }));
        assert_eq!(found(user), Vec::<String>::new());
        let generated = testkit::item(json!({
            "type": "image_generation_call", "status": "completed", "result": "iVBORw0KGgo="
        }));
        assert_eq!(found(generated), ["image generation result"]);
        let cleared = testkit::item(json!({
            "type": "image_generation_call", "status": "completed", "result": ""
        }));
        assert_eq!(found(cleared), Vec::<String>::new());
    }
}
