//! Picking a few fields out of a JSON object the decoder has already accepted, without
//! parsing the rest.
//!
//! A reducer that needs one field of a payload (the `model` of a `turn_context`, the
//! `info` of a `token_count`) would otherwise have serde walk, and often build, every other
//! field: `turn_context` policies became `Value`s, and `stats` spent more instructions in
//! such typed reads than in checking every line. [`fields`] walks the object once, skipping
//! values by their delimiters only, and hands back the raw text of the wanted ones.
//!
//! Only ever called on text that is valid JSON (every decoded record's payload is: the
//! decoder checked the whole line), so skipping needs no validation. On text that is not
//! valid JSON it returns `None` or arbitrary spans; it never panics.

use std::borrow::Cow;

use serde_json::value::RawValue;

/// The raw JSON text of each of `keys` in the object `obj`, or `None` for a key that is
/// absent. A repeated key gives its last value, as Codex reads a repeated key; an escaped
/// key is matched by its text. `None` as a whole when `obj` is not an object.
pub fn fields<'a, const N: usize>(obj: &'a str, keys: [&str; N]) -> Option<[Option<&'a str>; N]> {
    match pick(obj, skip_ws(obj.as_bytes(), 0), keys) {
        Some((out, _)) => Some(out),
        // An escaped key (or text that is not an object): let serde resolve the keys.
        None => fields_slow(obj, keys),
    }
}

/// [`fields`] of the object starting at `obj[start]`, and where it ends; `None` when a key
/// has an escape or the text is not an object there.
fn pick<'a, const N: usize>(
    obj: &'a str,
    start: usize,
    keys: [&str; N],
) -> Option<([Option<&'a str>; N], usize)> {
    let mut out = [None; N];
    let end = members_at(obj, start, |key, value| {
        if let Some((_, slot)) = keys.iter().zip(&mut out).find(|(k, _)| **k == key) {
            *slot = Some(value);
        }
        true
    })?;
    Some((out, end))
}

/// [`fields`] by serde, which resolves escaped keys.
fn fields_slow<'a, const N: usize>(obj: &'a str, keys: [&str; N]) -> Option<[Option<&'a str>; N]> {
    let map: Vec<(String, &'a RawValue)> = serde_json::from_str::<RawMembers<'a>>(obj).ok()?.0;
    let mut out = [None; N];
    for (key, value) in map {
        if let Some((_, slot)) = keys.iter().zip(&mut out).find(|(k, _)| **k == key) {
            *slot = Some(value.get());
        }
    }
    Some(out)
}

/// Call `f(key, raw value)` for each member of a JSON object known to be valid, in order,
/// until it returns `false`. `None` when `f` stopped, a key has an escape (serde would
/// unescape it before matching), or the text is not an object.
pub fn members<'a>(obj: &'a str, f: impl FnMut(&'a str, &'a str) -> bool) -> Option<()> {
    members_at(obj, skip_ws(obj.as_bytes(), 0), f).map(|_| ())
}

/// [`members`] of the object starting at `obj[i]`; returns where it ends (past its `}`).
fn members_at<'a>(
    obj: &'a str,
    mut i: usize,
    mut f: impl FnMut(&'a str, &'a str) -> bool,
) -> Option<usize> {
    let b = obj.as_bytes();
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Some(i + 1);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(b, i)?;
        let key = &obj[i + 1..key_end - 1];
        if key.contains('\\') {
            return None;
        }
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, i + 1);
        let end = value_end(b, start)?;
        if !f(key, &obj[start..end]) {
            return None;
        }
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Some(i + 1),
            _ => return None,
        }
    }
}

/// Call `f` with [`fields`] of each element of a JSON array known to be valid (`None` for
/// an element that is not an object), in order, until it returns `false`; each element is
/// walked once. `None` when `f` stopped or the text is not an array.
pub fn element_fields<'a, const N: usize>(
    arr: &'a str,
    keys: [&str; N],
    mut f: impl FnMut(Option<[Option<&'a str>; N]>) -> bool,
) -> Option<()> {
    let b = arr.as_bytes();
    walk_elements(b, |i| {
        let (picked, end) = match pick(arr, i, keys) {
            Some((out, end)) => (Some(out), end),
            None => {
                let end = value_end(b, i)?;
                let part = &arr[i..end];
                (
                    part.starts_with('{')
                        .then(|| fields_slow(part, keys))
                        .flatten(),
                    end,
                )
            }
        };
        f(picked).then_some(end)
    })
}

/// Call `f(raw element)` for each element of a JSON array known to be valid, in order,
/// until it returns `false`. `None` when `f` stopped or the text is not an array.
pub fn elements<'a>(arr: &'a str, mut f: impl FnMut(&'a str) -> bool) -> Option<()> {
    let b = arr.as_bytes();
    walk_elements(b, |i| {
        let end = value_end(b, i)?;
        f(&arr[i..end]).then_some(end)
    })
}

/// The walk of an array's elements: `each(start)` handles the element at `start` and says
/// where it ends (`None` to stop the walk).
fn walk_elements(b: &[u8], mut each: impl FnMut(usize) -> Option<usize>) -> Option<()> {
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b']') {
        return Some(());
    }
    loop {
        let end = each(i)?;
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') => return Some(()),
            _ => return None,
        }
    }
}

/// The text of a raw JSON string value (its escapes resolved), `None` for any other value.
pub fn str_value(raw: &str) -> Option<Cow<'_, str>> {
    // Both quotes: a cut at `raw.len() - 1` would not be a character boundary in a text
    // that is no JSON string (`"é`).
    super::unescape(raw.strip_prefix('"')?.strip_suffix('"')?)
}

/// An object's members in order, keys unescaped, values raw, the whole text checked as
/// JSON by serde on the way (nothing of a value is copied): `None` when it is not valid
/// JSON or not an object. For text that may not be valid JSON, where [`members`] would
/// not tell.
pub fn checked_members(obj: &str) -> Option<Vec<(String, &RawValue)>> {
    serde_json::from_str::<RawMembers<'_>>(obj)
        .ok()
        .map(|m| m.0)
}

/// An object's members in order, keys unescaped, values raw (the slow path of [`fields`]).
struct RawMembers<'a>(Vec<(String, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for RawMembers<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawMembers<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    v.push(entry);
                }
                Ok(RawMembers(v))
            }
        }
        d.deserialize_map(V)
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end (past the closing quote) of the JSON string opening at `b[i]`. Only quotes are
/// searched for: backslashes (a `\n` every line of a tool output) do not stop the search.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut at = i + 1;
    loop {
        let rest = b.get(at..)?;
        let k = memchr::memchr(b'"', rest)?;
        // Escaped when an odd run of backslashes precedes it.
        let run = rest
            .iter()
            .take(k)
            .rev()
            .take_while(|&&c| c == b'\\')
            .count();
        if run % 2 == 0 {
            return Some(at + k + 1);
        }
        at += k + 1;
    }
}

/// The end of the JSON value starting at `b[i]`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = i;
            loop {
                match *b.get(at)? {
                    b'"' => {
                        at = string_end(b, at)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let n = b
                .get(i..)?
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))?;
            (n > 0).then_some(i + n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_that_is_no_json_string_has_no_string_value() {
        // Its callers pass checked JSON strings; cut one byte short of its end, `"é` was
        // cut inside the `é` and panicked.
        assert_eq!(str_value("\"é"), None);
        assert_eq!(str_value("\""), None);
        assert_eq!(str_value(""), None);
        assert_eq!(str_value("\"é\"").as_deref(), Some("é"));
    }

    #[test]
    fn picks_the_wanted_fields_and_skips_every_kind_of_value() {
        let obj = r#" { "a" : [1, {"model": "no"}, "]}"], "s": "x\"}\\", "model":"gpt-5",
            "n": -1.5e3, "t": true, "z": null, "o": {"k": [[]]}, "last": {} } "#;
        let [model, n, o, last, missing] =
            fields(obj, ["model", "n", "o", "last", "missing"]).unwrap();
        assert_eq!(model, Some(r#""gpt-5""#));
        assert_eq!(n, Some("-1.5e3"));
        assert_eq!(o, Some(r#"{"k": [[]]}"#));
        assert_eq!(last, Some("{}"));
        assert_eq!(missing, None);
    }

    #[test]
    fn a_string_of_escaped_quotes_and_backslashes_ends_at_its_own_quote() {
        for n in [0, 3, 4, 5, 40] {
            let inner = "{\\\"k\\\":\\\"v \\\\\\\"\\\"}".repeat(n);
            let obj = format!(r#"{{"output":"{inner}\\\\","model":"m"}}"#);
            assert!(
                serde_json::from_str::<serde_json::Value>(&obj).is_ok(),
                "{obj}"
            );
            let [output, model] = fields(&obj, ["output", "model"]).unwrap();
            assert_eq!(output, Some(format!(r#""{inner}\\\\""#).as_str()), "{n}");
            assert_eq!(model, Some(r#""m""#));
        }
    }

    #[test]
    fn a_repeated_key_gives_its_last_value_as_codex_reads_it() {
        let [m] = fields(r#"{"model":"a","model":"b"}"#, ["model"]).unwrap();
        assert_eq!(m, Some(r#""b""#));
    }

    #[test]
    fn an_escaped_key_is_matched_by_its_text() {
        let [m] = fields(r#"{"mod\u0065l":"a"}"#, ["model"]).unwrap();
        assert_eq!(m, Some(r#""a""#));
    }

    #[test]
    fn only_objects_have_fields() {
        assert!(fields("[1]", ["a"]).is_none());
        assert!(fields(r#""{}""#, ["a"]).is_none());
        assert_eq!(fields("{}", ["a"]), Some([None]));
    }

    #[test]
    fn broken_text_never_panics() {
        for t in [
            "{",
            "{\"",
            "{\"a\"",
            "{\"a\":",
            "{\"a\":\"\\",
            "{\"a\":[",
            "{\"a\":1,",
            "{\"a\"1}",
            "{\"a\":}",
            "{]",
            "{\"a\":]]]}",
        ] {
            let _ = fields(t, ["a"]);
        }
    }

    #[test]
    fn element_fields_picks_what_fields_picks_from_each_element() {
        // Objects (with repeated, escaped and missing keys, nested values, white space),
        // and elements that are not objects; plus every array of every real payload.
        let mut arrays: Vec<String> = vec![
            r#"[]"#.into(),
            r#" [ ] "#.into(),
            r#"[{"type":"input_text","text":"a\"}]"},{"text":"x","text":"y"},{"t\u0065xt":"esc"}]"#
                .into(),
            r#"[ 1 , "s" , null , [ {"text":"deep"} ] , { } , {"type":{"text":"inner"}} ]"#.into(),
            r#"[{"type":"input_image","image_url":"data:,"},{"type":"input_text","text":"b"}]"#
                .into(),
        ];
        for path in crate::testkit::jsonl_files("real") {
            let text = std::fs::read_to_string(path).unwrap();
            for line in text.lines() {
                let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                    continue;
                };
                if let Some(serde_json::Value::Object(p)) = v.get("payload") {
                    for value in p.values().filter(|v| v.is_array()) {
                        arrays.push(value.to_string());
                    }
                }
            }
        }
        assert!(arrays.len() > 100, "{}", arrays.len());
        for arr in &arrays {
            let mut one_pass = Vec::new();
            let a = element_fields(arr, ["type", "text", "name"], |picked| {
                one_pass.push(picked);
                true
            });
            let mut two_passes = Vec::new();
            let b = elements(arr, |element| {
                two_passes.push(fields(element, ["type", "text", "name"]));
                true
            });
            assert_eq!((a, one_pass), (b, two_passes), "{arr}");
        }
        // Stopping early is a `None`, as for `elements`.
        assert_eq!(element_fields(r#"[{},{}]"#, ["a"], |_| false), None);
        assert_eq!(element_fields(r#"{"a":1}"#, ["a"], |_| true), None);
    }

    #[test]
    fn agrees_with_serde_on_every_field_of_real_payloads() {
        // Every top-level field of every payload in testdata, located by the walker, holds
        // the same value serde reads there (last one wins for a repeated key).
        let mut checked = 0;
        for path in crate::testkit::jsonl_files("real") {
            let text = std::fs::read_to_string(path).unwrap();
            for line in text.lines() {
                let Ok(serde_json::Value::Object(env)) = serde_json::from_str(line) else {
                    continue;
                };
                let Some(payload) = env.get("payload") else {
                    continue;
                };
                let payload_text = payload.to_string();
                let serde_json::Value::Object(p) = payload else {
                    continue;
                };
                for (k, v) in p {
                    let [raw] = fields(&payload_text, [k.as_str()]).unwrap();
                    let got: serde_json::Value = serde_json::from_str(raw.unwrap()).unwrap();
                    assert_eq!(&got, v, "{k}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "only {checked} fields checked");
    }
}
