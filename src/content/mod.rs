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

/// Every word the line pass looks for, with its class: the anchors, the media starts, the
/// image tag, and the escapes that could hide an anchor. A `\u` escape hides an anchor's
/// character only when it writes printable ASCII, so always as `\u00`. A `\/` hides only a
/// `/`, so it is looked for where an anchor has one, after the part before it (`:\/`,
/// `:/\/`): a path of escaped slashes (PHP's JSON) does not make every line a candidate.
fn words() -> Vec<(String, Class)> {
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

/// The starts of words that Teddy does not search from: a word that begins with one of
/// these is searched from the byte after it (its *key*: `a:image` for `data:image`), and
/// checked whole where its key is found. Teddy's fingerprint of a needle is its first three bytes, and these would make
/// it verify candidates all the time: `inp` begins `input_text` (every message), `dat`
/// begins `data`, `hoo` begins `hooks`, `gith` begins every GitHub URL.
const NOT_SEARCHED_FROM: &[&str] = &["input", "dat", "hooks.", "gith"];

/// The needles' keys in the order they are given to Teddy. aho-corasick 1.1 puts a needle
/// whose key starts with a new three-byte pattern (its low nibbles) into bucket `15 - index
/// % 16`, and a bucket passes a byte whose nibbles any of its needles has at that place: the
/// order decides which keys share a bucket and so which other three-byte strings pass the
/// filter and must be verified. This one was found by simulating the filter over the bench
/// tree and the real corpus (`docs/performance.md`): 76 and 185 candidates a megabyte where
/// the order of [`words`] gave 6,241 and 6,739. Another order finds the same places
/// (no key is a prefix of another), only more slowly; a new word goes anywhere in it (a test
/// says which are missing).
const ORDER: &[&str] = &[
    "BEARER ",
    "sk-svcacct-",
    "sk-admin-",
    "://",
    "A3T",
    "ASIA",
    "AKIA",
    "\\u00",
    "ACCA",
    "ghp_",
    "ABIA",
    "ghu_",
    "bearer ",
    "Bearer ",
    "ub_pat_",
    "slack.com\\/",
    "a:audio",
    "PRIVATE KEY",
    "slack.com/services/",
    "k_live_",
    "k_test_",
    "T3BlbkFJ",
    "ghr_",
    "eyJ",
    "ghs_",
    "glpat-",
    ":\\/",
    "AIza",
    "a:image",
    "gho_",
    "_image",
    "xox",
    "sk-ant-",
    "slack.com/services\\/",
    "sk-proj-",
    ":/\\/",
];

/// A needle of the line pass: the key Teddy searches for, the word around it, and the
/// key's offset in the word.
#[derive(Debug, Clone)]
struct Needle {
    key: String,
    word: String,
    offset: usize,
    class: Class,
}

/// The needles of the line pass, in [`ORDER`] (words it does not name last).
fn needles() -> Vec<Needle> {
    let mut all: Vec<Needle> = words()
        .into_iter()
        .map(|(word, class)| {
            let offset = NOT_SEARCHED_FROM
                .iter()
                .find(|start| word.starts_with(**start))
                .map_or(0, |start| start.len());
            Needle {
                key: word[offset..].to_string(),
                word,
                offset,
                class,
            }
        })
        .collect();
    all.sort_by_key(|n| {
        ORDER
            .iter()
            .position(|k| *k == n.key)
            .unwrap_or(ORDER.len())
    });
    all
}

/// A set of needles, searched for every place one's word starts ([`Needles::starts`]).
///
/// The search is aho-corasick's packed searcher (Teddy, SIMD) where the CPU has one, else
/// its automaton. Teddy's speed depends on its buckets: with more than 32 needles
/// aho-corasick picks Fat Teddy (16 buckets), which on the benchmark's tree runs the line
/// pass in half the time of Slim Teddy (8 buckets) with 29 needles, because fewer bytes
/// pass a bucket's fingerprint and need verifying; which needles share a bucket matters as
/// much ([`ORDER`]; `docs/performance.md`).
struct Needles {
    packed: Option<packed::Searcher>,
    automaton: AhoCorasick,
    needles: Vec<Needle>,
}

impl Needles {
    fn new(needles: Vec<Needle>) -> Needles {
        let keys: Vec<&str> = needles.iter().map(|n| n.key.as_str()).collect();
        Needles {
            packed: packed::Config::new()
                .match_kind(packed::MatchKind::LeftmostFirst)
                .builder()
                .extend(&keys)
                .build(),
            #[allow(
                clippy::expect_used,
                reason = "the needles are a few dozen constant strings, far below any limit of the builder; every test that scans builds them"
            )]
            automaton: AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostFirst)
                .build(&keys)
                .expect("the needles are plain strings"),
            needles,
        }
    }

    /// The needles of the line pass.
    fn of_lines() -> &'static Needles {
        static LINE: OnceLock<Needles> = OnceLock::new();
        LINE.get_or_init(|| Needles::new(needles()))
    }

    /// Every place in `text` where a needle's word starts, with the needle's class, in the
    /// order of their keys. Each search resumes one byte after the start of the key found
    /// before: keys that overlap (`data:imageyJ…`, `A3T3BlbkFJ`) are all found, and as long
    /// as no key is a prefix of another (the tests say so), the leftmost-first match at a
    /// place is the only key there. A key whose word is not around it is passed over.
    fn starts<'t>(&'t self, text: &'t [u8]) -> impl Iterator<Item = (usize, Class)> + 't {
        let mut at = 0;
        std::iter::from_fn(move || loop {
            let span = aho_corasick::Span::from(at..text.len());
            let m = match &self.packed {
                Some(teddy) => teddy.find_in(text, span),
                None => self
                    .automaton
                    .find(aho_corasick::Input::new(text).span(span)),
            }?;
            at = m.start() + 1;
            let needle = self.needles.get(m.pattern().as_usize())?;
            let Some(start) = m.start().checked_sub(needle.offset) else {
                continue;
            };
            if text
                .get(start..)
                .is_some_and(|t| t.starts_with(needle.word.as_bytes()))
            {
                return Some((start, needle.class));
            }
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
        // A key may lie inside its word (`ub_pat_` in `github_pat_`): sorted, the anchors
        // are in the order of the line again.
        seen.anchors.sort_unstable();
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
        assert!(all.len() > 32 && all.iter().all(|n| n.key.len() >= 3));
        for a in &all {
            assert_eq!(&a.word[a.offset..], a.key);
            for b in &all {
                assert!(
                    a.key == b.key || !b.key.starts_with(&a.key),
                    "{:?} is a prefix of {:?}",
                    a.key,
                    b.key
                );
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

    /// [`ORDER`] names every needle's key once, and nothing else: a new word must be placed.
    #[test]
    fn the_order_names_every_key_once() {
        let mut keys: Vec<String> = needles().into_iter().map(|n| n.key).collect();
        let mut order: Vec<String> = ORDER.iter().map(|k| k.to_string()).collect();
        assert_eq!(keys, order, "the needles come in ORDER");
        keys.sort();
        keys.dedup();
        order.sort();
        assert_eq!(keys, order, "ORDER names each key once");
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
            needles: n.needles.clone(),
        };
        let words: String = needles()
            .iter()
            .map(|n| format!("{w}x{w}{k}", w = n.word, k = n.key))
            .collect();
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
