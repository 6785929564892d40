//! What the strings of a record hold: credentials ([`secrets`]) and inline base64 media
//! ([`media`]). Both read strings decoded from the JSON (escapes cannot hide what they look
//! for) behind a prefilter over the raw line that is escape-aware, so a record that cannot
//! hold what a check looks for is never parsed. They find facts ([`Secret`], [`Media`]); the
//! rules `content.secret` and `content.inline-media` judge them, on the one pass.

pub mod media;
pub mod secrets;

use std::fmt::{self, Write};
use std::sync::OnceLock;

use aho_corasick::{packed, AhoCorasick, MatchKind};

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A string that looks like a credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    /// What it looks like (`an AWS access key id`).
    pub kind: &'static str,
    /// Where it is: a JSON path in the record (`payload.output`).
    pub field: String,
    /// The credential shown without its secret part (`AKIA…, 20 characters`).
    pub redacted: String,
}

/// Inline base64 media in a record, where Codex's persistence policy strips it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    /// `image`, `audio` or `image generation result`.
    pub media: &'static str,
    /// Bytes of the strings that hold it.
    pub bytes: u64,
    /// The payload type it is in.
    pub place: String,
}

/// What the one prefilter pass over a raw line found: the anchors of credential patterns,
/// an escape that may hide an anchor (a `\uXXXX` of a printable ASCII character, a `\/`
/// inside an anchor that holds `/`), a media data URL's start (`data:image`, `data:audio`;
/// the slash may be written `\/`), an image part's tag (`input_image`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    /// Where each anchor starts in the line, with its pattern's index in [`secrets`].
    pub anchors: Vec<(usize, usize)>,
    pub escape: bool,
    pub media: bool,
    /// The line may hold an image part (`codex::image::may_hold_image`).
    pub image: bool,
}

/// What a needle of the line pass stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// An anchor of pattern `.0` of [`secrets`].
    Secret(usize),
    Media,
    /// An image part's tag.
    Image,
    /// The start of an escape that may hide an anchor: checked where it is found.
    Escape,
}

/// Every needle of the line pass with its class: the anchors, the media starts, and the
/// escapes that could hide an anchor. A `\u` escape hides an anchor's character only when
/// it writes printable ASCII, so always as `\u00`. A `\/` hides only a `/`, so it is looked
/// for where an anchor has one, after the part before it (`:\/`, `:/\/`): a path of
/// escaped slashes (PHP's JSON) does not make every line a candidate.
fn needles() -> Vec<(String, Class)> {
    let mut all: Vec<(String, Class)> = secrets::anchors()
        .map(|(a, i)| (a.to_string(), Class::Secret(i)))
        .collect();
    all.extend(["data:image", "data:audio"].map(|m| (m.to_string(), Class::Media)));
    all.push((crate::codex::image::IMAGE_TAG.to_string(), Class::Image));
    all.push(("\\u00".to_string(), Class::Escape));
    for (a, _) in secrets::anchors() {
        for (k, _) in a.match_indices('/') {
            all.push((format!("{}\\/", &a[..k]), Class::Escape));
        }
    }
    all
}

/// A set of needles, searched for every place one starts ([`Needles::starts`]).
///
/// The search is aho-corasick's packed searcher (Teddy, SIMD) where the CPU has one, else
/// its automaton. Teddy's speed depends on its buckets: with more than 32 needles
/// aho-corasick picks Fat Teddy (16 buckets), which on the benchmark's tree runs the line
/// pass in half the time of Slim Teddy (8 buckets) with 29 needles, because fewer bytes
/// pass a bucket's fingerprint and need verifying (`docs/performance.md`).
struct Needles {
    packed: Option<packed::Searcher>,
    automaton: AhoCorasick,
    classes: Vec<Class>,
}

impl Needles {
    fn new(needles: Vec<(String, Class)>) -> Needles {
        let (words, classes): (Vec<String>, Vec<Class>) = needles.into_iter().unzip();
        Needles {
            packed: packed::Config::new()
                .match_kind(packed::MatchKind::LeftmostFirst)
                .builder()
                .extend(&words)
                .build(),
            #[allow(
                clippy::expect_used,
                reason = "the needles are a few dozen constant strings, far below any limit of the builder; every test that scans builds them"
            )]
            automaton: AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostFirst)
                .build(&words)
                .expect("the needles are plain strings"),
            classes,
        }
    }

    /// The needles of the line pass.
    fn of_lines() -> &'static Needles {
        static LINE: OnceLock<Needles> = OnceLock::new();
        LINE.get_or_init(|| Needles::new(needles()))
    }

    /// Every place in `text` where a needle starts, with the needle's class, in order. Each
    /// search resumes one byte after the start of the match before: needles that overlap
    /// (`data:imageyJ…`, `A3T3BlbkFJ`) are all found, and as long as no needle is a prefix
    /// of another (the tests say so), the leftmost-first match at a place is the only
    /// needle there.
    fn starts<'t>(&'t self, text: &'t [u8]) -> impl Iterator<Item = (usize, Class)> + 't {
        let mut at = 0;
        std::iter::from_fn(move || {
            let span = aho_corasick::Span::from(at..text.len());
            let m = match &self.packed {
                Some(teddy) => teddy.find_in(text, span),
                None => self
                    .automaton
                    .find(aho_corasick::Input::new(text).span(span)),
            }?;
            at = m.start() + 1;
            #[allow(
                clippy::indexing_slicing,
                reason = "a pattern's id is its index among the needles, and `classes` has one entry a needle"
            )]
            let class = self.classes[m.pattern().as_usize()];
            Some((m.start(), class))
        })
    }
}

impl Seen {
    /// One pass of the line's needles ([`Needles::starts`]) over the line.
    pub fn of(raw: &[u8]) -> Seen {
        let mut seen = Seen::default();
        for (at, class) in Needles::of_lines().starts(raw) {
            match class {
                Class::Secret(i) => seen.anchors.push((at, i)),
                Class::Media => seen.media = true,
                Class::Image => seen.image = true,
                Class::Escape => seen.escape |= hides(raw, at),
            }
        }
        seen
    }
}

/// Whether the escape needle at `at` (`\u00` or a `\/`) may hide a character of an anchor:
/// a `\/` always does, a `\u00XX` when it writes printable ASCII. A backslash before it does
/// not change this: inside a string that holds JSON (tool arguments), `\\u0041` is the
/// inner document's escape of `A`.
fn hides(raw: &[u8], at: usize) -> bool {
    let Some(slash) = raw
        .get(at..)
        .and_then(|r| r.iter().position(|&b| b == b'\\'))
    else {
        return false;
    };
    let at = at + slash;
    raw.get(at + 1) == Some(&b'/') || printable_escape(raw, at).is_some()
}

/// The printable ASCII character a `\uXXXX` escape at `i` writes.
fn printable_escape(raw: &[u8], i: usize) -> Option<u8> {
    if raw.get(i + 1) != Some(&b'u') {
        return None;
    }
    let hex = raw.get(i + 2..i + 6)?;
    let code = u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
    (0x20..0x7f).contains(&code).then_some(code as u8)
}

/// Call `f` with every string of the JSON text `json` and its JSON path (`path` extended:
/// `payload.output[0].text`). A string that holds a JSON object or array (tool arguments)
/// is walked too, its path marked `(json)`, to the depth of `nested` such strings. The text
/// is walked by a serde visitor, never built into a tree: an unescaped string is handed over
/// where it lies. Text that is not JSON is walked as far as it parses.
fn each_string(json: &str, path: &mut String, nested: u8, f: &mut dyn FnMut(&str, &str)) {
    let mut de = serde_json::Deserializer::from_str(json);
    let _ = Walk { path, nested, f }.deserialize(&mut de);
}

/// The visitor of [`each_string`], at one place of the document.
struct Walk<'w> {
    path: &'w mut String,
    nested: u8,
    f: &'w mut dyn FnMut(&str, &str),
}

impl Walk<'_> {
    fn string(self, s: &str) {
        (self.f)(s, self.path);
        let t = s.trim_start();
        if self.nested > 0 && (t.starts_with('{') || t.starts_with('[')) {
            let len = self.path.len();
            self.path.push_str("(json)");
            each_string(s, self.path, self.nested - 1, self.f);
            self.path.truncate(len);
        }
    }

    fn at(&mut self) -> Walk<'_> {
        Walk {
            path: &mut *self.path,
            nested: self.nested,
            f: &mut *self.f,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.string(s);
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let len = self.path.len();
            let _ = write!(self.path, "[{i}]");
            let more = seq.next_element_seed(self.at())?;
            self.path.truncate(len);
            if more.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        loop {
            let len = self.path.len();
            self.path.push('.');
            if map.next_key_seed(Key(&mut *self.path))?.is_none() {
                self.path.truncate(len);
                return Ok(());
            }
            map.next_value_seed(self.at())?;
            self.path.truncate(len);
        }
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// A map key, appended to the path.
struct Key<'p>(&'p mut String);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.0.push_str(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The strings of a `Value`, walked the plain way.
    fn tree_strings(v: &Value, path: &mut String, nested: u8, out: &mut Vec<(String, String)>) {
        match v {
            Value::String(s) => {
                out.push((s.clone(), path.clone()));
                let t = s.trim_start();
                if nested > 0 && (t.starts_with('{') || t.starts_with('[')) {
                    if let Ok(inner) = serde_json::from_str::<Value>(s) {
                        let len = path.len();
                        path.push_str("(json)");
                        tree_strings(&inner, path, nested - 1, out);
                        path.truncate(len);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    tree_strings(item, path, nested, out);
                    path.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    let len = path.len();
                    path.push('.');
                    path.push_str(k);
                    tree_strings(item, path, nested, out);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn the_line_pass_finds_every_class_even_where_needles_overlap() {
        let all = needles();
        // More than 32 needles: aho-corasick runs Fat Teddy (the doc of `Needles`).
        assert!(all.len() > 32 && all.iter().all(|(n, _)| n.len() >= 3));
        for (a, _) in &all {
            for (b, _) in &all {
                assert!(a == b || !b.starts_with(a), "{a:?} is a prefix of {b:?}");
            }
        }
        let overlapping = Seen::of(b"data:imageyJ");
        assert!(overlapping.media && !overlapping.anchors.is_empty());
        let seen = Seen::of(br#"{"x":"data:image\/png AKIA \u0041"}"#);
        assert!(seen.media && seen.escape);
        assert_eq!(seen.anchors.iter().map(|a| a.0).collect::<Vec<_>>(), [22]);
        assert_eq!(Seen::of(b"plain"), Seen::default());
        let image = Seen::of(
            br#"{"content":[{"type":"input_image","image_url":"data:image/png;base64,AA"}]}"#,
        );
        assert!(image.image && image.media && !image.escape);
        assert!(!seen.image);
    }

    /// Teddy against the automaton (the fallback on CPUs without SIMD), on every line of
    /// `testdata/` and on lines made to hold every needle, overlapping: the same places.
    #[test]
    fn the_packed_searcher_finds_what_the_automaton_finds() {
        let n = Needles::of_lines();
        assert!(n.packed.is_some() || !cfg!(target_arch = "x86_64"));
        let automaton = Needles {
            packed: None,
            automaton: n.automaton.clone(),
            classes: n.classes.clone(),
        };
        let words: String = needles().iter().map(|(w, _)| format!("{w}x{w}")).collect();
        let mut lines: Vec<Vec<u8>> = crate::testkit::lines("");
        lines.push(words.into_bytes());
        lines.push(b"data:imageyJA3T3BlbkFJ:\\/\\u0041".to_vec());
        let mut found = 0;
        for line in &lines {
            let want: Vec<_> = automaton.starts(line).collect();
            assert_eq!(n.starts(line).collect::<Vec<_>>(), want);
            found += want.len();
        }
        assert!(found > needles().len() * 2);
    }

    /// The visitor against a `Value` tree, on every line of `testdata/` (keys unique, as
    /// Codex writes them): the same strings at the same paths, in the same order.
    #[test]
    fn the_visitor_finds_the_strings_a_value_tree_holds() {
        let mut lines = 0;
        for line in crate::testkit::lines("") {
            let Ok(text) = std::str::from_utf8(&line) else {
                continue;
            };
            let Ok(v) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            let mut want = Vec::new();
            tree_strings(&v, &mut String::new(), 2, &mut want);
            let mut got = Vec::new();
            each_string(text, &mut String::new(), 2, &mut |s, p| {
                got.push((s.to_string(), p.to_string()))
            });
            if want.len() == got.len() {
                assert_eq!(got, want, "{text}");
            } else {
                // A repeated key: the tree keeps the last value, the visitor sees both.
                assert!(got.len() > want.len(), "{text}");
            }
            lines += 1;
        }
        assert!(lines > 1000);
        let mut got = Vec::new();
        each_string(
            r#"{"a":[1,"x\u0041",{"b":"{\"c\":\"d\"}"}]}"#,
            &mut String::from("payload"),
            2,
            &mut |s, p| got.push(format!("{p}={s}")),
        );
        assert_eq!(
            got,
            [
                "payload.a[1]=xA",
                "payload.a[2].b={\"c\":\"d\"}",
                "payload.a[2].b(json).c=d"
            ]
        );
    }
}
