//! Message content: a `response_item` message's texts, read by serde or off the raw line.

use std::borrow::Cow;

use serde::{de, Deserialize, Deserializer};

use super::lenient::{keys, read_leniently, Discard, Lenient, MaybeStr};
use super::scaffolding::{is_contextual_fragment, raw_is_contextual_fragment};
use crate::decode::select;

/// A `response_item` message, reduced to what turn detection needs.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Message<'a> {
    #[serde(borrow, rename = "type")]
    pub type_: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub role: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub content: Option<Content<'a>>,
}

/// A message's `content`, read without building a `serde_json::Value` (which copied every
/// text): a string, or parts, of which only the `type` and `text` strings are kept. It
/// accepts and rejects exactly what a `Value` would, and keeps the last of duplicate keys as
/// a `Value` does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Content<'a> {
    Text(Cow<'a, str>),
    Parts(Vec<Part<'a>>),
    /// An object, number or boolean: no text.
    #[default]
    Other,
}

/// One content part: its `type` and `text` when they are strings (a part that is not an
/// object has neither).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Part<'a> {
    pub type_: Option<Cow<'a, str>>,
    pub text: Option<Cow<'a, str>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read_leniently(d)
    }
}

impl<'de: 'a, 'a> Lenient<'de> for Content<'a> {
    fn str(s: &str) -> Self {
        Content::Text(Cow::Owned(s.to_string()))
    }
    fn borrowed_str(s: &'de str) -> Self {
        Content::Text(Cow::Borrowed(s))
    }
    fn string(s: String) -> Self {
        Content::Text(Cow::Owned(s))
    }
    fn seq<A: de::SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut parts = Vec::new();
        while let Some(p) = seq.next_element::<Part<'a>>()? {
            parts.push(p);
        }
        Ok(Content::Parts(parts))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Part<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read_leniently(d)
    }
}

impl<'de: 'a, 'a> Lenient<'de> for Part<'a> {
    fn map<A: de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        keys! {
            /// The keys of a content part that matter.
            enum PartKey { Type = "type", Text = "text" }
        }
        let mut part = Part::default();
        while let Some(key) = map.next_key::<PartKey>()? {
            match key {
                PartKey::Type => part.type_ = map.next_value::<MaybeStr<'a>>()?.0,
                PartKey::Text => part.text = map.next_value::<MaybeStr<'a>>()?.0,
                PartKey::Other => {
                    map.next_value::<Discard>()?;
                }
            }
        }
        Ok(part)
    }
}

impl Message<'_> {
    /// The `input_text` / `output_text` / `text` parts of the content.
    pub fn texts(&self) -> Vec<&str> {
        match &self.content {
            Some(Content::Text(s)) => vec![s.as_ref()],
            Some(Content::Parts(parts)) => parts.iter().filter_map(|p| p.text.as_deref()).collect(),
            _ => Vec::new(),
        }
    }

    /// A `role: user` message that the user really typed: it has content and none of its
    /// text parts is contextual scaffolding (Codex's `is_user_turn_boundary`).
    pub fn is_real_user_message(&self) -> bool {
        if self.type_.as_deref() != Some("message") || self.role.as_deref() != Some("user") {
            return false;
        }
        let texts = self.texts();
        let has_image = matches!(&self.content, Some(Content::Parts(parts))
            if parts.iter().any(|p| p.type_.as_deref() == Some("input_image")));
        (!texts.is_empty() || has_image) && !texts.iter().any(|t| is_contextual_fragment(t))
    }
}

/// A message's `content` as it lies in the line: the raw JSON strings of its texts (what
/// [`Message::texts`] gives, escapes unresolved) and whether a part is an image. Read by
/// walking the (valid) text instead of parsing it: a user message is often long
/// scaffolding, and only the ends of its texts decide.
#[derive(Debug, Default)]
pub struct RawContent<'a> {
    pub texts: Vec<&'a str>,
    pub has_image: bool,
}

impl<'a> RawContent<'a> {
    /// From the raw `content` member (absent: no texts).
    pub fn of(content: Option<&'a str>) -> RawContent<'a> {
        let mut c = RawContent::default();
        let Some(raw) = content else { return c };
        if raw.starts_with('"') {
            c.texts.push(raw);
            return c;
        }
        let mut texts = Vec::new();
        let mut has_image = false;
        // Each part walked once: its `type` and `text` picked as it is skipped.
        let walked = select::element_fields(raw, ["type", "text"], |picked| {
            if let Some([type_, text]) = picked {
                if let Some(t) = text.filter(|t| t.starts_with('"')) {
                    texts.push(t);
                }
                has_image |= type_.and_then(select::str_value).as_deref() == Some("input_image");
            }
            true
        });
        if walked.is_some() {
            c.texts = texts;
            c.has_image = has_image;
        }
        c
    }

    /// [`Message::is_real_user_message`] for a `role: user` message with this content.
    pub fn is_real_user_message(&self) -> bool {
        (!self.texts.is_empty() || self.has_image)
            && !self.texts.iter().any(|t| raw_is_contextual_fragment(t))
    }

    /// The texts, escapes resolved, joined by newlines; `None` without texts.
    pub fn joined(&self) -> Option<String> {
        if self.texts.is_empty() {
            return None;
        }
        let texts: Vec<Cow<'_, str>> = self
            .texts
            .iter()
            .map(|t| select::str_value(t).unwrap_or_default())
            .collect();
        Some(texts.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// `RawContent` against the serde `Message` reader, for a message payload.
    fn raw_content_agrees(payload: &str) {
        let Ok(m) = serde_json::from_str::<Message<'_>>(payload) else {
            return;
        };
        let [content] = select::fields(payload, ["content"]).unwrap();
        let c = RawContent::of(content);
        let texts = m.texts();
        let joined = (!texts.is_empty()).then(|| texts.join("\n"));
        assert_eq!(c.joined(), joined, "{payload}");
        if m.role.as_deref() == Some("user") && m.type_.as_deref() == Some("message") {
            assert_eq!(
                c.is_real_user_message(),
                m.is_real_user_message(),
                "{payload}"
            );
        }
    }

    #[test]
    fn raw_content_reads_messages_as_the_serde_reader_does() {
        let long = "x".repeat(600);
        let cases = [
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"<environment_context>{long}</environment_context>"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"\n <environment_context>{long}</environment_context>\n"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"<environment_context>\n{long}\n</environment_context>"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"\u003cenvironment_context>{long}</environment_context>"}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"  <ENVIRONMENT_CONTEXT>{long}é</environment_context>  "}}]}}"#),
            format!(r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"hello {long}"}},{{"type":"input_image","image_url":"data:"}}]}}"#),
            r#"{"type":"message","role":"user","content":[{"type":"input_image","image_url":"data:"}]}"#.to_string(),
            r#"{"type":"message","role":"user","content":[]}"#.to_string(),
            r#"{"type":"message","role":"user","content":"typed"}"#.to_string(),
            r#"{"type":"message","role":"user","content":{"text":"no"}}"#.to_string(),
            r#"{"type":"message","role":"user","content":[1,"s",null,{"text":7},{"text":"a","text":"b"},{"typ\u0065":"input_image"}]}"#.to_string(),
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a\u00e9\n"},{"type":"output_text","text":""}]}"#.to_string(),
            r#"{"type":"message","role":"user"}"#.to_string(),
        ];
        for c in &cases {
            raw_content_agrees(c);
        }
        // Every message of testdata.
        let mut n = 0;
        for path in crate::testkit::jsonl_files("") {
            let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
            for line in text.lines() {
                let Ok(Value::Object(env)) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                if let Some(p @ Value::Object(o)) = env.get("payload") {
                    if o.get("type").and_then(Value::as_str) == Some("message") {
                        raw_content_agrees(&p.to_string());
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 100, "only {n} messages");
    }

    fn msg(json: &str) -> Message<'_> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn environment_context_is_not_a_user_turn() {
        let m = msg(
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n <cwd>/x</cwd>\n</environment_context>"}]}"#,
        );
        assert!(!m.is_real_user_message());
    }

    /// What `Message` read when its content was a `serde_json::Value`.
    fn value_reading(json: &str) -> Option<(Vec<String>, bool)> {
        let v: Value = serde_json::from_str(json).ok()?;
        let content = v.get("content");
        let texts: Vec<String> = match content {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str).map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        let image = matches!(content, Some(Value::Array(parts))
            if parts.iter().any(|p| p.get("type").and_then(Value::as_str) == Some("input_image")));
        Some((texts, image))
    }

    #[test]
    fn borrowed_content_reads_what_a_value_read() {
        let cases = [
            r#"{"content":"plain"}"#,
            r#"{"content":"esc\naped \u00e9"}"#,
            r#"{"content":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"x"}]}"#,
            r#"{"content":[{"text":"first","text":"last"},{"text":5},{"type":7,"text":"t"}]}"#,
            r#"{"content":[1,"s",null,true,[{"text":"nested"}],{"text":{"a":[1,2]}}]}"#,
            r#"{"content":{"text":"object"}}"#,
            r#"{"content":null}"#,
            r#"{"content":42}"#,
            r#"{"content":[{"text":"x","extra":1e400}]}"#,
            r#"{"content":[{"te\u0078t":"escaped key"}]}"#,
            r#"{"content":[{"text":"lone \ud800"}]}"#,
            r#"{}"#,
        ];
        for c in cases {
            let new = serde_json::from_str::<Message<'_>>(c).ok().map(|m| {
                let image = matches!(&m.content, Some(Content::Parts(p))
                        if p.iter().any(|p| p.type_.as_deref() == Some("input_image")));
                (
                    m.texts().iter().map(|t| t.to_string()).collect::<Vec<_>>(),
                    image,
                )
            });
            assert_eq!(new, value_reading(c), "{c}");
        }
    }

    #[test]
    fn typed_text_is_a_user_turn() {
        let m = msg(
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"run hello.py"}]}"#,
        );
        assert!(m.is_real_user_message());
        let a = msg(
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}"#,
        );
        assert!(!a.is_real_user_message());
    }
}
