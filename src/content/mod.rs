//! What the strings of a record hold: credentials ([`secrets`]) and inline base64 media
//! ([`media`]). Both read strings decoded from the JSON (escapes cannot hide what they look
//! for) behind a prefilter over the raw line that is escape-aware, so a record that cannot
//! hold what a check looks for is never parsed. `lint` asks for them; the replay runs them
//! in its one pass.

pub mod media;
pub mod secrets;

use std::fmt::{self, Write};
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::decode::Record;
use crate::findings::Finding;

/// Which content checks to run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Checks {
    pub secrets: bool,
    pub media: bool,
}

impl Checks {
    pub fn any(self) -> bool {
        self.secrets || self.media
    }

    /// Judge one record.
    pub fn observe(self, rec: &Record<'_>, out: &mut Vec<Finding>) {
        if !self.any() {
            return;
        }
        let seen = Seen::of(rec.raw.as_bytes());
        if self.secrets {
            secrets::check(rec, seen, out);
        }
        if self.media {
            media::check(rec, seen, out);
        }
    }
}

/// What the one prefilter pass over a raw line found: an anchor of a credential pattern,
/// a backslash before `/` or `u` (an escape that may hide an anchor), a media data URL's
/// start (`data:image`, `data:audio`; the slash may be written `\/`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    pub secret: bool,
    pub escape: bool,
    pub media: bool,
}

/// The classes of the prefilter's needles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Secret,
    Media,
}

/// Every needle of the line pass with its class. The escapes (two bytes) have a pass of
/// their own: Teddy's masks are as long as the shortest needle (up to 4 bytes), and it
/// slows down past 32 needles, so the main pass keeps to 3-byte needles and to 32 (a test
/// says so).
fn needles() -> Vec<(&'static str, Class)> {
    let mut all: Vec<(&str, Class)> = secrets::anchors()
        .map(|(a, _)| (a, Class::Secret))
        .collect();
    all.extend([("data:image", Class::Media), ("data:audio", Class::Media)]);
    all
}

/// The escapes' needles.
const ESCAPES: [&str; 2] = ["\\/", "\\u"];

impl Seen {
    /// One leftmost-first pass (Teddy, SIMD) over the line ([`match_starts`]).
    pub fn of(raw: &[u8]) -> Seen {
        static PASS: OnceLock<(AhoCorasick, Vec<Class>, AhoCorasick)> = OnceLock::new();
        let (ac, classes, escapes) = PASS.get_or_init(|| {
            let leftmost = |words: &[&str]| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostFirst)
                    .build(words)
                    .expect("the needles are plain strings")
            };
            let (words, classes): (Vec<&str>, Vec<Class>) = needles().into_iter().unzip();
            (leftmost(&words), classes, leftmost(&ESCAPES))
        });
        let mut seen = Seen {
            escape: escapes.is_match(raw),
            ..Seen::default()
        };
        for m in match_starts(ac, raw) {
            match classes[m.pattern().as_usize()] {
                Class::Secret => seen.secret = true,
                Class::Media => seen.media = true,
            }
            if seen.secret && seen.media {
                break;
            }
        }
        seen
    }
}

/// Every match of the leftmost-first automaton `ac` in `text`, each search resuming one
/// byte after the start of the match before: needles that overlap (`data:imageyJ…`,
/// `A3T3BlbkFJ`) are all found, and as long as no needle is a prefix of another (the
/// callers' tests say so), the leftmost-first match at a position is the only one there.
/// Each search skips ahead with Teddy (SIMD), unlike the automaton's overlapping search.
fn match_starts<'t>(
    ac: &'t AhoCorasick,
    text: &'t [u8],
) -> impl Iterator<Item = aho_corasick::Match> + 't {
    let mut at = 0;
    std::iter::from_fn(move || {
        let m = ac.find(aho_corasick::Input::new(text).span(at..text.len()))?;
        at = m.start() + 1;
        Some(m)
    })
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
        assert!(all.len() <= 32 && all.iter().all(|(n, _)| n.len() >= 3));
        for (a, _) in &all {
            for (b, _) in &all {
                assert!(a == b || !b.starts_with(a), "{a:?} is a prefix of {b:?}");
            }
        }
        let overlapping = Seen::of(b"data:imageyJ");
        assert!(overlapping.media && overlapping.secret);
        let seen = Seen::of(br#"{"x":"data:image\/png AKIA \u0041"}"#);
        assert_eq!(
            seen,
            Seen {
                secret: true,
                escape: true,
                media: true
            }
        );
        assert_eq!(Seen::of(b"plain"), Seen::default());
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
