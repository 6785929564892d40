//! The text of a JSON string that the decoder has checked: its escapes resolved by a copy
//! from one backslash to the next, with serde_json's own results (a differential test holds
//! the two together) at less than serde_json's cost per escape.
//!
//! Output texts hold an escape every few dozen bytes (each line break of a command's
//! output, each quote of a JSON output written as a string), where serde_json's string
//! reader stops and dispatches per escape; `calls` unescapes every output's head, and a
//! 0.36 JSON output whole (`docs/performance.md`, fifth pass).

use std::borrow::Cow;

/// The text of `inner`, the contents of a JSON string between its quotes (escapes
/// unresolved), which the decoder has checked. `None` for an unknown or cut escape, or a
/// `\u` that is no character (a lone surrogate). A quote or control character left
/// unescaped, which serde_json rejects, is not looked for: the decoder rejected its line.
pub fn unescape(inner: &str) -> Option<Cow<'_, str>> {
    let b = inner.as_bytes();
    let Some(first) = memchr::memchr(b'\\', b) else {
        return Some(Cow::Borrowed(inner));
    };
    let mut out = String::with_capacity(b.len());
    let mut at = 0;
    let mut next = Some(first);
    while let Some(i) = next {
        // `at` and `i` are the ends of escapes and backslashes, so character boundaries.
        out.push_str(&inner[at..i]);
        at = i + 2;
        let c = match *b.get(i + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                #[allow(clippy::indexing_slicing, reason = "`i` is a backslash found in `b`")]
                let (c, len) = u_escape(&b[i..])?;
                at = i + len;
                c
            }
            _ => return None,
        };
        out.push(c);
        // `b[i + 1]` was read, and a `\u` escape's length is what `u_escape` read.
        #[allow(clippy::indexing_slicing, reason = "`at <= b.len()`")]
        let rest = &b[at..];
        next = memchr::memchr(b'\\', rest).map(|k| at + k);
    }
    out.push_str(&inner[at..]);
    Some(Cow::Owned(out))
}

/// The character of the `\u` escape starting `e`, and how many bytes it took: 6, or 12 for
/// a surrogate pair.
fn u_escape(e: &[u8]) -> Option<(char, usize)> {
    let hi = hex4(e.get(2..6)?)?;
    match hi {
        0xd800..=0xdbff => {
            let lo = match e.get(6..12)? {
                [b'\\', b'u', hex @ ..] => hex4(hex)?,
                _ => return None,
            };
            if !(0xdc00..=0xdfff).contains(&lo) {
                return None;
            }
            let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
            Some((char::from_u32(c)?, 12))
        }
        0xdc00..=0xdfff => None,
        _ => Some((char::from_u32(hi)?, 6)),
    }
}

fn hex4(h: &[u8]) -> Option<u32> {
    h.iter().try_fold(0u32, |n, &d| {
        let v = (d as char).to_digit(16)?;
        Some(n * 16 + v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde_json's text of the JSON string `"inner"`.
    fn serde(inner: &str) -> Option<String> {
        serde_json::from_str::<String>(&format!("\"{inner}\"")).ok()
    }

    /// Contents the decoder accepts as far as unescaping cares: no control character, no
    /// quote but an escaped one.
    fn checked(inner: &str) -> bool {
        let b = inner.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'"' => return false,
                c if c < 0x20 => return false,
                _ => i += 1,
            }
        }
        true
    }

    #[test]
    fn every_string_of_three_pieces_unescapes_as_serde_unescapes_it() {
        let pieces = [
            "a",
            "é",
            "\u{7f}",
            "\u{1}",
            "\"",
            "\\",
            "/",
            r"\/",
            r"\n",
            r"\\",
            r#"\""#,
            r"\b",
            r"\f",
            r"\r",
            r"\t",
            r"\u000a",
            r"\u00E9",
            r"\u00e9",
            r"\ud83d\ude00",
            r"\uD83D\uDE00",
            r"\ud83d",
            r"\ude00",
            r"\ud83dx",
            r"\ud83d\u0041",
            r"\u12",
            r"\uzzzz",
            r"\x",
            "\u{2028}",
            "😀",
        ];
        let mut agreed = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let inner = format!("{a}{b}{c}");
                    let ours = unescape(&inner).map(Cow::into_owned);
                    let theirs = serde(&inner);
                    if checked(&inner) {
                        assert_eq!(ours, theirs, "{inner:?}");
                    } else {
                        // Never the decoder's: serde rejects it, and unescaping it does
                        // not panic.
                        assert_eq!(theirs, None, "{inner:?}");
                    }
                    agreed += usize::from(ours.is_some() && theirs.is_some());
                }
            }
        }
        // Most combinations are valid strings: the agreement is not only on rejections.
        assert!(agreed > 5_000, "{agreed}");
    }

    #[test]
    fn a_cut_escape_is_no_string() {
        for inner in ["\\", "ab\\", "\\u00", "\\ud83d\\u", "\\x", "\\ude00"] {
            assert_eq!(unescape(inner), None, "{inner:?}");
            assert_eq!(serde(inner), None, "{inner:?}");
        }
    }

    #[test]
    fn a_string_without_escapes_is_borrowed() {
        assert!(matches!(
            unescape("plain text"),
            Some(Cow::Borrowed("plain text"))
        ));
    }
}
