//! `content.secret`: strings that look like credentials, after the rules of gitleaks and
//! detect-secrets (API keys of the common providers, bearer tokens, private key blocks,
//! JWTs, passwords in URLs).
//!
//! **Prefilter.** An Aho-Corasick automaton of each pattern's fixed part (`AKIA`, `ghp_`,
//! `-----BEGIN`...) runs over the raw line; a record is parsed only when it hits, or when the
//! line holds an escape that could hide a fixed part (`\u0041` for `A`, `\/` for `/`: any
//! `\u` escape of a printable ASCII character). serde_json and Codex write neither, so
//! real records almost never pay for it. The patterns then run over the decoded strings,
//! each behind the same automaton.
//!
//! **Redaction.** A finding shows the pattern's fixed prefix and the secret's length, never
//! a character of the secret itself.

use std::collections::HashSet;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use memchr::memmem;
use regex::Regex;

use super::{each_string, payload_value};
use crate::decode::Record;
use crate::findings::{Cause, Finding};

/// One kind of credential.
struct Pattern {
    /// How the finding names it.
    kind: &'static str,
    /// What any match contains, for the prefilter.
    anchors: &'static [&'static str],
    regex: &'static str,
    /// What a match may show: the fixed prefix, or for URLs the scheme and host.
    show: Show,
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
    },
    Pattern {
        kind: "an Anthropic API key",
        anchors: &["sk-ant-"],
        regex: r"\bsk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{80,}",
        show: Show::Prefix(7),
    },
    Pattern {
        kind: "an AWS access key id",
        anchors: &["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
        regex: r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
        show: Show::Prefix(4),
    },
    Pattern {
        kind: "a GitHub token",
        anchors: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        regex: r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{82}\b",
        show: Show::ToSeparator,
    },
    Pattern {
        kind: "a GitLab token",
        anchors: &["glpat-"],
        regex: r"\bglpat-[A-Za-z0-9_-]{20}\b",
        show: Show::Prefix(6),
    },
    Pattern {
        kind: "a Slack token",
        anchors: &[
            "xoxb-",
            "xoxa-",
            "xoxp-",
            "xoxr-",
            "xoxs-",
            "hooks.slack.com/services/",
        ],
        regex: r"\bxox[abprs]-[0-9]{8,}-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}",
        show: Show::ToSeparator,
    },
    Pattern {
        kind: "a Stripe key",
        anchors: &["sk_live_", "rk_live_", "sk_test_", "rk_test_"],
        regex: r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}\b",
        show: Show::Prefix(8),
    },
    Pattern {
        kind: "a Google API key",
        anchors: &["AIza"],
        regex: r"\bAIza[0-9A-Za-z_-]{35}\b",
        show: Show::Prefix(4),
    },
    Pattern {
        kind: "a private key",
        anchors: &["PRIVATE KEY"],
        regex: r"(?s)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----.{64,}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----",
        show: Show::Header,
    },
    Pattern {
        kind: "a JSON web token",
        anchors: &["eyJ"],
        regex: r"\beyJ[A-Za-z0-9_-]{15,}\.eyJ[A-Za-z0-9_-]{15,}\.[A-Za-z0-9_-]{10,}",
        show: Show::Prefix(3),
    },
    Pattern {
        kind: "a bearer token",
        anchors: &["Bearer ", "bearer ", "BEARER "],
        regex: r"\b(?:Bearer|bearer|BEARER)\s+[A-Za-z0-9._~+/-]{20,}=*",
        show: Show::Prefix(7),
    },
    Pattern {
        kind: "a password in a URL",
        anchors: &["://"],
        regex: r#"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@"'<>]{1,64}:[^\s:/@"'<>]{3,128}@[A-Za-z0-9.-]+"#,
        show: Show::Url,
    },
];

/// Passwords in URLs that are placeholders, not secrets (compared lowercase).
const PLACEHOLDERS: &[&str] = &[
    "password", "passwd", "pass", "pwd", "secret", "changeme", "example", "token", "xxx", "xxxx",
    "xxxxx", "xxxxxx", "redacted",
];

struct Compiled {
    /// Every pattern's anchors; pattern `i`'s are `owner[j] == i`.
    anchors: AhoCorasick,
    owner: Vec<usize>,
    regexes: Vec<Regex>,
}

fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| {
        let mut needles = Vec::new();
        let mut owner = Vec::new();
        for (i, p) in PATTERNS.iter().enumerate() {
            for a in p.anchors {
                needles.push(*a);
                owner.push(i);
            }
        }
        Compiled {
            anchors: AhoCorasick::new(&needles).expect("the anchors are plain strings"),
            owner,
            regexes: PATTERNS
                .iter()
                .map(|p| Regex::new(p.regex).expect("the patterns are valid"))
                .collect(),
        }
    })
}

/// The patterns whose anchors `text` holds, as a bit set.
fn hits(c: &Compiled, text: &[u8]) -> u32 {
    let mut set = 0u32;
    for m in c.anchors.find_overlapping_iter(text) {
        set |= 1 << c.owner[m.pattern().as_usize()];
    }
    set
}

/// Whether the raw line holds a `\/` or a `\u` escape of a printable ASCII character: an
/// escape that could hide an anchor from the prefilter.
fn hiding_escape(raw: &[u8]) -> bool {
    if memmem::find(raw, b"\\/").is_some() {
        return true;
    }
    memmem::find_iter(raw, b"\\u").any(|i| {
        let hex = raw
            .get(i + 2..i + 6)
            .and_then(|h| std::str::from_utf8(h).ok());
        hex.and_then(|h| u32::from_str_radix(h, 16).ok())
            .is_some_and(|c| (0x20..0x7f).contains(&c))
    })
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
fn scan<'s>(c: &Compiled, s: &'s str, mut f: impl FnMut(&'static Pattern, &'s str)) {
    let set = hits(c, s.as_bytes());
    if set == 0 {
        return;
    }
    for (i, p) in PATTERNS.iter().enumerate() {
        if set & (1 << i) == 0 {
            continue;
        }
        for m in c.regexes[i].find_iter(s) {
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

pub fn check(rec: &Record<'_>, out: &mut Vec<Finding>) {
    let c = compiled();
    let raw = rec.raw.as_bytes();
    if hits(c, raw) == 0 && !hiding_escape(raw) {
        return;
    }
    let Some(payload) = payload_value(rec) else {
        return;
    };
    // One finding per secret and place in the record.
    let mut seen: HashSet<(String, String)> = HashSet::new();
    each_string(&payload, &mut String::from("payload"), 2, &mut |s, path| {
        scan(c, s, |p, m| {
            if seen.insert((m.to_string(), path.to_string())) {
                let cause = Cause::Secret {
                    kind: p.kind,
                    field: path.to_string(),
                    redacted: redact(p, m),
                };
                out.push(Finding::new(cause, Some(rec.pos)));
            }
        });
    });
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
        assert!(hiding_escape(br#""\u0041KIA""#));
        assert!(hiding_escape(br#""https:\/\/x""#));
        // Control characters cannot be part of a key: no need to decode for them.
        assert!(!hiding_escape(br#""\u001b[31m red\n""#));
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
                .filter(|(i, _)| c.regexes[*i].is_match(s))
                .map(|(i, _)| 1 << i)
                .sum();
            assert_ne!(matched, 0, "{s} matches no pattern");
            assert_eq!(hits(c, s.as_bytes()) & matched, matched, "{s}");
        }
    }
}
