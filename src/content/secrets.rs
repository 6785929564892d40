//! `content.secret`: strings that look like credentials, after the rules of gitleaks and
//! detect-secrets (API keys of the common providers, bearer tokens, private key blocks,
//! JWTs, passwords in URLs).
//!
//! **Prefilter.** Each pattern's fixed parts (`AKIA`, `ghp_`, `PRIVATE KEY`...) are needles
//! of the line pass ([`super::Seen`]) over the raw line. Where one lies, the JSON string
//! around it is decoded alone and that pattern runs over it ([`confirmed`]); the record is
//! walked whole only when one matches, or when the line holds an escape that could hide a
//! fixed part (`\u0041` for `A`, `:\/` for `:/`), which serde_json and Codex never write.
//!
//! **Redaction.** A finding shows the pattern's fixed prefix and the secret's length, never
//! a character of the secret itself.

use std::collections::HashSet;
use std::sync::OnceLock;

use regex::Regex;

use super::{each_string, Class, Needles, Secret, Seen};
use crate::decode::Record;

/// One kind of credential.
struct Pattern {
    /// How the finding names it.
    kind: &'static str,
    /// What any match contains, for the prefilter.
    anchors: &'static [&'static str],
    regex: &'static str,
    /// What a match may show: the fixed prefix, or for URLs the scheme and host.
    show: Show,
    /// What the raw line must hold right after an anchor for a match to be there, checked
    /// before the string is decoded ([`After`]).
    after: After,
}

/// A regex the raw JSON text right after an anchor must match for the pattern to match
/// there, within the bytes that `chars` characters of a match can take (up to 12 each,
/// `\uD83D\uDE00`; `usize::MAX`: no bound). It must hold of the raw text whenever the
/// pattern matches the decoded one, so it is written for what a writer may escape: a
/// printable ASCII character only as a hiding escape (`\u0041`, `:\/`: then the whole
/// record is walked), a `/` as `\/`, anything else as `\uXXXX`. A class of printable
/// ASCII that holds no `/` can therefore be taken as it is.
#[derive(Clone, Copy)]
struct After {
    regex: &'static str,
    chars: usize,
}

#[derive(Clone, Copy)]
enum Show {
    /// The first `n` bytes (the pattern's fixed prefix).
    Prefix(usize),
    /// Up to the first `_` or `-` after the start (`sk-proj-`, `xoxb-`).
    ToSeparator,
    /// A private key block: its header line.
    Header,
    /// A URL: `scheme://…:****@host`.
    Url,
}

const PATTERNS: &[Pattern] = &[
    Pattern {
        kind: "an OpenAI API key",
        anchors: &["sk-proj-", "sk-svcacct-", "sk-admin-", "T3BlbkFJ"],
        regex: r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b",
        show: Show::ToSeparator,
        // The key after its prefix, or the 20 characters after `T3BlbkFJ`.
        after: After {
            regex: r"^[A-Za-z0-9_-]{20}",
            chars: 20,
        },
    },
    Pattern {
        kind: "an Anthropic API key",
        anchors: &["sk-ant-"],
        regex: r"\bsk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{80,}",
        show: Show::Prefix(7),
        // A digit may be a `\\u` escape of a non-ASCII one.
        after: After {
            // Two digits: one or two escapes each (`\uD835\uDFCE` is one digit).
            regex: r"^(?:api|admin|oat)(?:\d|\\u[0-9a-fA-F]{4}){2,4}-[A-Za-z0-9_-]{80}",
            chars: 3 + 2 + 1 + 80,
        },
    },
    Pattern {
        kind: "an AWS access key id",
        anchors: &["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
        regex: r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
        show: Show::Prefix(4),
        after: After {
            regex: r"^[A-Z0-9]?[A-Z2-7]{16}",
            chars: 17,
        },
    },
    Pattern {
        kind: "a GitHub token",
        anchors: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        regex: r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{82}\b",
        show: Show::ToSeparator,
        after: After {
            regex: r"^[A-Za-z0-9_]{36}",
            chars: 36,
        },
    },
    Pattern {
        kind: "a GitLab token",
        anchors: &["glpat-"],
        regex: r"\bglpat-[A-Za-z0-9_-]{20}\b",
        show: Show::Prefix(6),
        after: After {
            regex: r"^[A-Za-z0-9_-]{20}",
            chars: 20,
        },
    },
    Pattern {
        kind: "a Slack token",
        anchors: &["xox", "hooks.slack.com/services/"],
        regex: r"\bxox[abprs]-[0-9]{8,}-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}",
        show: Show::ToSeparator,
        // A token's type and team, or a hook's team.
        after: After {
            regex: r"^(?:[abprs]-[0-9]{8}|T[A-Z0-9]{6})",
            chars: 10,
        },
    },
    Pattern {
        kind: "a Stripe key",
        anchors: &["k_live_", "k_test_"],
        regex: r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}\b",
        show: Show::Prefix(8),
        after: After {
            regex: r"^[A-Za-z0-9]{20}",
            chars: 20,
        },
    },
    Pattern {
        kind: "a Google API key",
        anchors: &["AIza"],
        regex: r"\bAIza[0-9A-Za-z_-]{35}\b",
        show: Show::Prefix(4),
        after: After {
            regex: r"^[0-9A-Za-z_-]{35}",
            chars: 35,
        },
    },
    Pattern {
        kind: "a private key",
        anchors: &["PRIVATE KEY"],
        regex: r"(?s)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----.{64,}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----",
        show: Show::Header,
        // The end of a BEGIN or END line.
        after: After {
            regex: r"^(?: BLOCK)?-----",
            chars: 11,
        },
    },
    Pattern {
        kind: "a JSON web token",
        anchors: &["eyJ"],
        regex: r"\beyJ[A-Za-z0-9_-]{15,}\.eyJ[A-Za-z0-9_-]{15,}\.[A-Za-z0-9_-]{10,}",
        show: Show::Prefix(3),
        after: After {
            regex: r"^[A-Za-z0-9_-]{15}",
            chars: 15,
        },
    },
    Pattern {
        kind: "a bearer token",
        // The three spellings the pattern knows, each its own anchor: a shorter one common
        // to them (`earer `) begins with `ear`, which starts many English words.
        anchors: &["Bearer ", "bearer ", "BEARER "],
        regex: r"\b(?:Bearer|bearer|BEARER) +[A-Za-z0-9._~+/-]{20,}=*",
        show: Show::Prefix(7),
        // A `/` may be written `\\/`.
        after: After {
            regex: r"^ *[A-Za-z0-9._~+/\\-]{20}",
            // Any number of spaces may come first.
            chars: usize::MAX,
        },
    },
    Pattern {
        kind: "a password in a URL",
        anchors: &["://"],
        regex: r#"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@"'<>]{1,64}:[^\s:/@"'<>]{3,128}@[A-Za-z0-9.-]+"#,
        show: Show::Url,
        // `user:password@` after the `://`: 1-64 and 3-128 characters and the separators.
        after: After {
            regex: r#"^[^\s:/@"'<>]+:[^\s:/@"'<>]{3,}@"#,
            chars: 64 + 1 + 128 + 1,
        },
    },
];

/// Passwords in URLs that are placeholders, not secrets (compared lowercase).
const PLACEHOLDERS: &[&str] = &[
    "password", "passwd", "pass", "pwd", "secret", "changeme", "example", "token", "xxx", "xxxx",
    "xxxxx", "xxxxxx", "redacted",
];

/// Each pattern's regexes, compiled the first time a candidate needs them: compiling them
/// all took 4% of `lint` over a chain of 2,000 small forks, where one pattern's anchor
/// is ever seen.
struct Compiled {
    regexes: Vec<OnceLock<Regex>>,
    /// Each pattern's [`After`].
    after: Vec<OnceLock<regex::bytes::Regex>>,
}

impl Compiled {
    #[allow(
        clippy::expect_used,
        clippy::indexing_slicing,
        reason = "the patterns are constants, and every test that scans compiles them all; \
                  `i` is an index of `PATTERNS`, which both vectors follow"
    )]
    fn regex(&self, i: usize) -> &Regex {
        self.regexes[i]
            .get_or_init(|| Regex::new(PATTERNS[i].regex).expect("the patterns are valid"))
    }

    #[allow(
        clippy::expect_used,
        clippy::indexing_slicing,
        reason = "the patterns are constants, and every test that scans compiles them all; \
                  `i` is an index of `PATTERNS`, which both vectors follow"
    )]
    fn after(&self, i: usize) -> &regex::bytes::Regex {
        self.after[i].get_or_init(|| {
            regex::bytes::Regex::new(PATTERNS[i].after.regex).expect("the patterns are valid")
        })
    }
}

/// Every pattern's anchors, in order, with the pattern each belongs to.
pub(super) fn anchors() -> impl Iterator<Item = (&'static str, usize)> {
    PATTERNS
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.anchors.iter().map(move |a| (*a, i)))
}

fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| Compiled {
        regexes: PATTERNS.iter().map(|_| OnceLock::new()).collect(),
        after: PATTERNS.iter().map(|_| OnceLock::new()).collect(),
    })
}

/// The patterns whose anchors `text` holds, as a bit set (every anchor found, overlapping
/// ones too), by the line pass's own needles.
fn hits(text: &[u8]) -> u32 {
    Needles::of_lines()
        .starts(text)
        .fold(0u32, |set, (_, class)| match class {
            Class::Secret(i) => set | 1 << i,
            _ => set,
        })
}

/// The raw line with the escapes that could hide an anchor (`\/`, `\u` of printable
/// ASCII, each with the backslashes before it, as nested JSON writes them) written out, the
/// rest as it is: enough to ask for the anchors again without parsing the record. (This
/// can only add a candidate, never lose one.)
#[allow(
    clippy::indexing_slicing,
    reason = "`i <= raw.len()`: each step moves it past bytes seen (`at + 1` and `at + 5` were read); `run..=at` is the run of backslashes found"
)]
fn unhidden(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'\\', &raw[i..]) {
        let run = i + k;
        out.extend_from_slice(&raw[i..run]);
        let at = run + raw[run..].iter().take_while(|&&b| b == b'\\').count() - 1;
        if raw.get(at + 1) == Some(&b'/') {
            out.push(b'/');
            i = at + 2;
        } else if let Some(ch) = super::printable_escape(raw, at) {
            out.push(ch);
            i = at + 6;
        } else {
            out.extend_from_slice(&raw[run..=at]);
            i = at + 1;
        }
    }
    out.extend_from_slice(&raw[i..]);
    out
}

/// Whether a raw line that the line pass saw as `seen` may hold a credential in its
/// decoded strings: an anchor whose string a pattern matches ([`confirmed`]), or an anchor
/// once the hiding escapes are written out.
fn candidate(c: &Compiled, raw: &[u8], seen: &Seen) -> bool {
    confirmed(c, raw, &seen.anchors) || (seen.escape && hits(&unhidden(raw)) != 0)
}

/// Whether a pattern matches in a string of the raw line where one of its anchors lies
/// (`anchors`: start and pattern, in order). An anchor counts only when what follows it
/// in the raw line can start a match ([`After`]); each string that holds such an anchor
/// (between the unescaped quotes around it: an anchor holds no quote or backslash, so it
/// lies in a string of the line as it is) is then walked alone, as the record's walk would
/// walk it, with only the patterns anchored in it: a line where no pattern matches is never
/// parsed whole. (An anchor that escapes hide is [`unhidden`]'s; strings outside the
/// payload are walked too, which can only add a candidate.)
fn confirmed(c: &Compiled, raw: &[u8], anchors: &[(usize, usize)]) -> bool {
    let mut live = anchors
        .iter()
        .filter(|&&(at, i)| may_follow(c, raw, at, i))
        .peekable();
    while let Some(&(at, i)) = live.next() {
        let Some((open, close)) = string_around(raw, at) else {
            return true;
        };
        let mut set = 1u32 << i;
        while let Some(&(_, j)) = live.next_if(|&&(a, _)| a < close) {
            set |= 1 << j;
        }
        #[allow(
            clippy::indexing_slicing,
            reason = "`string_around` returns two quotes found in `raw`, `open < close`"
        )]
        let literal = &raw[open..=close];
        let Ok(literal) = std::str::from_utf8(literal) else {
            return true;
        };
        let mut any = false;
        each_string(literal, &mut String::new(), 2, &mut |s, _| {
            scan_for(c, s, set, |_, _| any = true);
        });
        if any {
            return true;
        }
    }
    false
}

/// Whether pattern `i` may match at its anchor at byte `at` of the raw line, by its
/// [`After`].
#[allow(
    clippy::indexing_slicing,
    reason = "`i` is a pattern's index (the needles name them so); `at` is where one of its anchors was found, so `at + anchor <= raw.len()`"
)]
fn may_follow(c: &Compiled, raw: &[u8], at: usize, i: usize) -> bool {
    let p = &PATTERNS[i];
    let anchor = p
        .anchors
        .iter()
        .find(|a| raw[at..].starts_with(a.as_bytes()))
        .map_or(0, |a| a.len());
    let from = at + anchor;
    let end = from.saturating_add(12usize.saturating_mul(p.after.chars));
    c.after(i).is_match(&raw[from..raw.len().min(end)])
}

/// The quotes of the JSON string around byte `at` of a line of JSON: the nearest
/// unescaped `"` before it and the one at or after it.
#[allow(
    clippy::indexing_slicing,
    reason = "`at` is an anchor's start, inside `raw`; `q` is a quote found in `raw`"
)]
fn string_around(raw: &[u8], at: usize) -> Option<(usize, usize)> {
    let unescaped = |q: usize| raw[..q].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 0;
    let open = memchr::memrchr_iter(b'"', &raw[..at]).find(|&q| unescaped(q))?;
    let close = memchr::memchr_iter(b'"', &raw[at..])
        .map(|k| at + k)
        .find(|&q| unescaped(q))?;
    Some((open, close))
}

/// A match as a finding may show it.
fn redact(p: &Pattern, m: &str) -> String {
    let n = m.chars().count();
    let head = match p.show {
        Show::Prefix(k) => m.get(..k).unwrap_or(""),
        Show::ToSeparator => {
            let end = m
                .char_indices()
                .skip(1)
                .filter(|&(_, c)| c == '_' || c == '-')
                .map(|(i, _)| i + 1)
                .take_while(|&i| i <= 12)
                .last()
                .unwrap_or(0);
            &m[..end]
        }
        Show::Header => {
            let end = m
                .get(5..)
                .and_then(|r| r.find("-----"))
                .map_or(0, |i| i + 10);
            return format!("{} …, {n} characters", m.get(..end).unwrap_or(""));
        }
        Show::Url => {
            let scheme = m.split("://").next().unwrap_or("");
            let host = m.rsplit('@').next().unwrap_or("");
            return format!("{scheme}://…:****@{host}");
        }
    };
    format!("{head}…, {n} characters")
}

/// Whether a URL match's password is a placeholder (`user:password@`, `${PASS}`).
fn placeholder_url(m: &str) -> bool {
    let Some(userinfo) = m.split("://").nth(1).and_then(|r| r.rsplit_once('@')) else {
        return true;
    };
    let pass = userinfo.0.split_once(':').map_or("", |(_, p)| p);
    let lower = pass.to_ascii_lowercase();
    PLACEHOLDERS.contains(&lower.as_str())
        || pass.starts_with(['$', '%', '{', '<', '*', '['])
        || pass.chars().all(|c| c == '*' || c == 'x' || c == '.')
}

/// Whether a bearer match's token looks like one: it holds a digit (prose does not).
fn token_like(m: &str) -> bool {
    m.split_whitespace()
        .nth(1)
        .is_some_and(|t| t.bytes().any(|b| b.is_ascii_digit()))
}

/// The credentials in one string: (pattern, match).
fn scan<'s>(c: &Compiled, s: &'s str, f: impl FnMut(&'static Pattern, &'s str)) {
    scan_for(c, s, hits(s.as_bytes()), f)
}

/// The credentials of the patterns in `set` (a bit set of [`PATTERNS`]) in one string.
fn scan_for<'s>(c: &Compiled, s: &'s str, set: u32, mut f: impl FnMut(&'static Pattern, &'s str)) {
    if set == 0 {
        return;
    }
    for (i, p) in PATTERNS.iter().enumerate() {
        if set & (1 << i) == 0 {
            continue;
        }
        for m in c.regex(i).find_iter(s) {
            let text = m.as_str();
            let keep = match p.show {
                Show::Url => !placeholder_url(text),
                _ if p.kind == "a bearer token" => token_like(text),
                _ => true,
            };
            if keep {
                f(p, text);
            }
        }
    }
}

/// The credentials in one record whose raw line the line pass saw as `seen`, one a secret
/// and place, in the order they are found.
pub fn check(rec: &Record<'_>, seen: &Seen) -> Vec<Secret> {
    let mut out = Vec::new();
    let c = compiled();
    if !candidate(c, rec.raw.as_bytes(), seen) {
        return out;
    }
    // One finding per secret and place in the record.
    let mut seen: HashSet<(String, String)> = HashSet::new();
    each_string(
        rec.payload.get(),
        &mut String::from("payload"),
        2,
        &mut |s, path| {
            scan(c, s, |p, m| {
                if seen.insert((m.to_string(), path.to_string())) {
                    out.push(Secret {
                        kind: p.kind,
                        field: path.to_string(),
                        redacted: redact(p, m),
                    });
                }
            });
        },
    );
    out
}

/// `text` with each credential [`check`] finds in a string replaced by a marker naming its
/// kind (`[REDACTED: a GitHub token]`), for a transcript shared with others. Overlapping
/// matches are one marker, named by the first.
pub fn redact_text(text: &str) -> std::borrow::Cow<'_, str> {
    let mut found: Vec<(usize, usize, &'static str)> = Vec::new();
    scan(compiled(), text, |p, m| {
        // `m` is a slice of `text`.
        let start = m.as_ptr() as usize - text.as_ptr() as usize;
        found.push((start, start + m.len(), p.kind));
    });
    if found.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    found.sort_unstable_by_key(|&(start, end, _)| (start, std::cmp::Reverse(end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, kind) in found {
        if end <= at {
            continue;
        }
        out.push_str(text.get(at..start.max(at)).unwrap_or_default());
        if start >= at {
            out.push_str(&format!("[REDACTED: {kind}]"));
        }
        at = end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys made for these tests: the shapes of real ones, valid for nothing.
    const AWS: &str = "AKIAQ3EGRSZ7NV5WTXLM";
    const GITHUB: &str = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXY";
    const OPENAI: &str =
        "sk-proj-Zq3vN8xK2mL5pR7tW9yB1cD4fG6hJ0kM3nP5qS7uV9wX1zA3bC5dE7fH9jK1mN3pQ5rT7";

    fn kinds(s: &str) -> Vec<(&'static str, String)> {
        let mut got = Vec::new();
        scan(compiled(), s, |p, m| got.push((p.kind, redact(p, m))));
        got
    }

    #[test]
    fn each_provider_key_is_found_and_shown_redacted() {
        let text = format!("export AWS_ACCESS_KEY_ID={AWS}\nGH={GITHUB}\nOPENAI_API_KEY={OPENAI}");
        let got = kinds(&text);
        assert_eq!(
            got,
            [
                (
                    "an OpenAI API key",
                    format!("sk-proj-…, {} characters", OPENAI.len())
                ),
                ("an AWS access key id", "AKIA…, 20 characters".to_string()),
                ("a GitHub token", "ghp_…, 40 characters".to_string()),
            ]
        );
        for (_, shown) in &got {
            assert!(!shown.contains("Q3EG") && !shown.contains("R4nd") && !shown.contains("Zq3v"));
        }
    }

    #[test]
    fn tokens_urls_and_key_blocks_are_found_and_placeholders_are_not() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assert_eq!(kinds(jwt)[0].0, "a JSON web token");
        let bearer = "curl -H 'Authorization: Bearer abc123def456ghi789jkl012'";
        assert_eq!(kinds(bearer)[0].0, "a bearer token");
        assert!(kinds("the Bearer authenticationmechanisms are").is_empty());
        let url = "postgres://admin:s3cr3tPa55@db.internal:5432/app";
        assert_eq!(
            kinds(url),
            [(
                "a password in a URL",
                "postgres://…:****@db.internal".to_string()
            )]
        );
        assert!(kinds("https://user:password@example.com").is_empty());
        assert!(kinds("https://user:${PASS}@example.com").is_empty());
        let body = "MIIEowIBAAKCAQEA".repeat(8);
        let key = format!("-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----");
        let got = kinds(&key);
        assert_eq!(got[0].0, "a private key");
        assert!(got[0].1.starts_with("-----BEGIN RSA PRIVATE KEY-----"));
        assert!(!got[0].1.contains("MIIE"));
        // A header alone (docs, code) is not a key.
        assert!(kinds("if line.starts_with(\"-----BEGIN RSA PRIVATE KEY-----\")").is_empty());
    }

    #[test]
    fn an_escape_that_hides_an_anchor_makes_the_record_a_candidate() {
        let escape = |raw: &[u8]| Seen::of(raw).escape;
        assert!(escape(br#""\u0041KIA""#));
        assert!(escape(br#""https:\/\/x""#));
        assert!(escape(br#""https:/\/x""#));
        assert!(escape(br#""hooks.slack.com\/services\/T0""#));
        // Control characters and non-ASCII letters cannot be part of an anchor, and a `\/`
        // outside one (a path written by PHP) hides nothing: no need to decode for them.
        assert!(!escape(br#""\u001b[31m red\n \u00e9""#));
        assert!(!escape(br#""\/usr\/local\/bin""#));
        // Inside a string that holds JSON, `\\u0041` is the inner document's `A`.
        assert!(escape(br#""{\"k\":\"\\u0041KIA\"}""#));
    }

    #[test]
    fn an_anchor_written_with_escapes_is_still_a_candidate() {
        let c = compiled();
        let is_candidate = |raw: &[u8]| candidate(c, raw, &Seen::of(raw));
        let hidden = br#"{"output":"id=\u0041\u004bIAQ3EGRSZ7NV5WTXLM"}"#;
        assert_eq!(hits(hidden), 0);
        assert!(is_candidate(hidden));
        assert_eq!(unhidden(br#"a\/b\u0041\n\u001b\"#), br#"a/bA\n\u001b\"#);
        assert_eq!(unhidden(br#"x\\u0041\\\/y"#), b"xA/y");
        assert!(!is_candidate(br#"{"output":"plain text\n"}"#));
        let nested = br#"{"arguments":"{\"cmd\":\"echo \\u0041KIAQ3EGRSZ7NV5WTXLM\"}"}"#;
        assert!(is_candidate(nested));
    }

    #[test]
    fn an_anchor_is_a_candidate_only_where_its_pattern_matches_the_string_it_lies_in() {
        let c = compiled();
        let is_candidate = |raw: &[u8]| candidate(c, raw, &Seen::of(raw));
        assert!(!is_candidate(
            br#"{"text":"see https://example.com and AKIA"}"#
        ));
        assert!(is_candidate(
            format!(r#"{{"a":"AKIA","b":"https://example.com","c":"key {AWS}"}}"#).as_bytes()
        ));
        // A string with escapes is decoded before the patterns run, so `\n` ends a token.
        assert!(is_candidate(
            br#"{"text":"line\npostgres://admin:s3cr3tPa55@db.internal\n"}"#
        ));
        // Tool arguments hold JSON: their strings are walked as the record's walk does.
        assert!(is_candidate(
            format!(r#"{{"arguments":"{{\"env\":\"AWS={AWS}\"}}"}}"#).as_bytes()
        ));
    }

    /// The line prefilter against the full check, on every line of `testdata/`: whatever
    /// the patterns find in a record's decoded strings, the prefilter lets through.
    #[test]
    fn the_line_prefilter_lets_through_every_record_with_a_finding() {
        let c = compiled();
        let mut found = 0;
        for line in crate::testkit::lines("") {
            let Ok(text) = std::str::from_utf8(&line) else {
                continue;
            };
            let mut any = false;
            each_string(text, &mut String::new(), 2, &mut |s, _| {
                scan(c, s, |_, _| any = true);
            });
            if any {
                found += 1;
                let seen = Seen::of(&line);
                assert!(
                    candidate(c, &line, &seen),
                    "{}",
                    String::from_utf8_lossy(&line)
                );
            }
        }
        assert!(found >= 2, "the content.secret fixtures hold secrets");
    }

    #[test]
    fn anchors_that_overlap_are_all_found_and_none_is_a_prefix_of_another() {
        let all: Vec<(&str, usize)> = anchors().collect();
        for (a, _) in &all {
            for (b, _) in &all {
                assert!(a == b || !b.starts_with(a), "{a} is a prefix of {b}");
            }
        }
        let aws = PATTERNS
            .iter()
            .position(|p| p.kind == "an AWS access key id")
            .unwrap();
        let openai = PATTERNS
            .iter()
            .position(|p| p.kind == "an OpenAI API key")
            .unwrap();
        let google = PATTERNS
            .iter()
            .position(|p| p.kind == "a Google API key")
            .unwrap();
        assert_eq!(hits(b"xA3T3BlbkFJx"), (1 << aws) | (1 << openai));
        assert_eq!(hits(b"AKIAIza"), (1 << aws) | (1 << google));
        assert_eq!(hits(b"nothing here"), 0);
    }

    /// The prefilter against the patterns alone: whatever a pattern matches, the
    /// automaton hits.
    #[test]
    fn the_prefilter_never_misses_what_a_pattern_matches() {
        let c = compiled();
        let samples = [
            AWS.to_string(),
            GITHUB.to_string(),
            OPENAI.to_string(),
            format!("sk-{}T3BlbkFJ{}", "a".repeat(20), "b".repeat(20)),
            format!("sk-ant-api03-{}", "x".repeat(90)),
            format!("glpat-{}", "y".repeat(20)),
            format!("xoxb-12345678901-{}", "z".repeat(12)),
            format!("sk_live_{}", "q".repeat(24)),
            format!("AIza{}", "w".repeat(35)),
            "https://hooks.slack.com/services/T0123456/B0123456/abcdefghijklmnopqrstuvwx".into(),
        ];
        for s in &samples {
            let matched: u32 = PATTERNS
                .iter()
                .enumerate()
                .filter(|(i, _)| c.regex(*i).is_match(s))
                .map(|(i, _)| 1 << i)
                .sum();
            assert_ne!(matched, 0, "{s} matches no pattern");
            assert_eq!(hits(s.as_bytes()) & matched, matched, "{s}");
            // As a record holds it: on a line of its own in a tool output, as JSON text
            // (`\n` around it), and as tool arguments (JSON in a string).
            let output = serde_json::json!({"output": format!("$ env\n{s}\nexit 0")});
            let arguments =
                serde_json::json!({"arguments": serde_json::json!({"k": s}).to_string()});
            for line in [output.to_string(), arguments.to_string()] {
                let raw = line.as_bytes();
                assert!(candidate(c, raw, &Seen::of(raw)), "{line}");
            }
        }
    }

    /// What a writer may escape (a `/` as `\/`, a non-ASCII digit as `\u0663`) does not
    /// hide a match from the check after an anchor ([`After`]); what cannot start one is
    /// no candidate.
    #[test]
    fn the_check_after_an_anchor_reads_escapes_as_their_characters() {
        let c = compiled();
        let is_candidate = |raw: &[u8]| candidate(c, raw, &Seen::of(raw));
        assert!(is_candidate(
            br#"{"t":"Authorization: Bearer abc\/def1234567890123456789"}"#
        ));
        let digits = format!(r#"{{"t":"sk-ant-api\u0660\u0663-{}"}}"#, "x".repeat(90));
        assert!(is_candidate(digits.as_bytes()));
        // Digits outside the BMP: a surrogate pair of escapes each.
        let astral = format!(
            r#"{{"t":"sk-ant-api\uD835\uDFCE\uD835\uDFCF-{}"}}"#,
            "x".repeat(90)
        );
        assert!(is_candidate(astral.as_bytes()));
        assert!(is_candidate(br#"{"t":"mysql://root:hunter2x@db\n"}"#));
        // An anchor followed by what no match can start with.
        assert!(!is_candidate(
            br#"{"t":"AKIA is a prefix; so is ghp_ and eyJ"}"#
        ));
        assert!(!is_candidate(br#"{"t":"see https://example.com/a?b=c:d"}"#));
        assert!(!is_candidate(
            br#"{"t":"-----BEGIN PRIVATE KEY: none here"}"#
        ));
    }

    #[test]
    fn redaction_names_each_kind_and_keeps_the_rest() {
        let text = format!("key {AWS} and {GITHUB}.");
        assert_eq!(
            redact_text(&text),
            "key [REDACTED: an AWS access key id] and [REDACTED: a GitHub token]."
        );
        assert!(matches!(
            redact_text("nothing here"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
