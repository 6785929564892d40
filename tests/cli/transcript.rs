//! `replay --format markdown`: a transcript of a real session as the corpus holds it, and
//! what the rollout's text cannot do to it: drive a terminal, make markup of its own, leak a
//! credential with `--redact-secrets`.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{json, Value};

use crate::util::*;

fn markdown(args: &[&str], path: &Path) -> String {
    let mut a = vec!["replay", "--format", "markdown"];
    a.extend_from_slice(args);
    a.push(path.to_str().unwrap());
    String::from_utf8(output(&a, 0).stdout).unwrap()
}

/// The HTML a CommonMark renderer (with GitHub's tables, strikethrough, task lists and
/// footnotes) makes of a transcript.
fn html(md: &str) -> String {
    use pulldown_cmark::{Options, Parser};
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, Parser::new_ext(md, opts));
    out
}

/// The element names of an HTML text.
fn elements(html: &str) -> BTreeSet<String> {
    html.split('<')
        .skip(1)
        .filter_map(|s| {
            let name: String = s
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// The real 0.171 `shell` session (one turn: a question, five shell commands, two answers),
/// read against the rollout itself: the developer instructions cut after 20 lines with the
/// count of the rest, the messages quoted, each command with its exit code, its duration
/// (`Wall time: 0.0000 seconds` is 0 ms) and its output without Codex's header, paired by
/// `call_id` though two calls come before their outputs.
#[test]
fn a_real_session_as_a_transcript() {
    let file = real_file("0.171.0", "shell", "");
    let got = markdown(&["--utc"], &file);
    let want = std::fs::read_to_string(testdata("replay/markdown/shell-0.171.0.md")).unwrap();
    let want = want.replace(
        "testdata/real/",
        &format!("{}/", testdata("real").display()),
    );
    assert_eq!(got, want);
}

/// Turns a rollback dropped are not shown (Codex drops their items from the history, and a
/// client hides them): the headings are the turns `turns` does not call rolled back.
#[test]
fn rolled_back_turns_are_hidden() {
    let dir = real("0.147.0", "rollback_twice");
    let kept: Vec<u64> = ndjson_rows(&["turns"], &dir)
        .iter()
        .filter(|t| t["status"] != "rolled_back")
        .map(|t| t["index"].as_u64().unwrap())
        .collect();
    assert_eq!(kept, [1, 4], "the scenario rolls back turns 2 and 3");
    for view in ["history", "ui"] {
        let md = markdown(&["--view", view], &dir);
        let headings: Vec<u64> = md
            .lines()
            .filter_map(|l| l.strip_prefix("## Turn "))
            .map(|l| l.split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(headings, kept, "--view {view}:\n{md}");
    }
}

/// The real `shell` session with hostile text in every place a transcript shows: the user's
/// message, a tool's name, its command and its output.
fn hostile(dir: &Path) -> std::path::PathBuf {
    const TERMINAL: &str = "\x1b[31mred\x1b[0m \x1b]0;pwned\x07 \x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\ \u{9b}2J \r\x08\x07 \u{202E}evil";
    const MARKUP: &str = "</code></pre><script>alert(1)</script>\n[x](javascript:alert(1))\n\
         ![i](http://evil.example/x.png) <img src=x onerror=alert(1)> <http://evil.example>\n\
         [ref]: javascript:alert(2)\n\n[ref] and a note[^1]\n\n[^1]: footnote\n";
    let file = real_file("0.171.0", "shell", "");
    let mut out = String::new();
    let (mut call, mut output, mut command) = (false, false, false);
    for line in std::fs::read_to_string(file).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        let record = v["type"].as_str().map(str::to_string);
        let p = &mut v["payload"];
        match (record.as_deref(), p["type"].as_str()) {
            (Some("response_item"), Some("message"))
                if p["content"][0]["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("Look around")) =>
            {
                p["content"][0]["text"] = json!(format!(
                    "{TERMINAL}\n{MARKUP}\nAn open fence:\n```\nnever closed"
                ));
            }
            (Some("response_item"), Some("function_call")) if !call => {
                call = true;
                p["name"] = json!("sh`ell\x1b[2J");
                p["arguments"] =
                    json!(json!({"cmd": format!("echo '```` {TERMINAL}'")}).to_string());
            }
            (Some("response_item"), Some("function_call_output")) if !output => {
                output = true;
                p["output"] = json!(format!(
                    "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n```\n{MARKUP}{TERMINAL}\n"
                ));
            }
            // What a client is shown (`--view ui`): the user's message, a command and its
            // output, in their `item_completed` events.
            (Some("event_msg"), Some("item_completed")) => {
                let item = &mut p["item"];
                match item["type"].as_str() {
                    Some("UserMessage") => {
                        item["content"][0]["text"] = json!(format!(
                            "{TERMINAL}\n{MARKUP}\nAn open fence:\n```\nnever closed"
                        ));
                    }
                    Some("CommandExecution") if !command => {
                        command = true;
                        item["command"] = json!(format!("echo '```` {TERMINAL}'"));
                        item["aggregated_output"] = json!(format!("```\n{MARKUP}{TERMINAL}\n"));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    assert!(call && output && command);
    let path = dir.join("rollout-2026-11-29T12-00-30-01a2272d-9d87-7932-b6ae-b428ac561278.jsonl");
    std::fs::write(&path, out).unwrap();
    path
}

/// Nothing of the rollout's text reaches a terminal raw: no control character but the line
/// break, no bidirectional override, in either view.
#[test]
fn a_transcript_cannot_drive_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile(dir.path());
    for view in ["history", "ui"] {
        let md = markdown(&["--view", view], &file);
        let bad: Vec<char> = md
            .chars()
            .filter(|c| {
                (c.is_control() && *c != '\n')
                    || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            })
            .collect();
        assert!(bad.is_empty(), "--view {view}: {bad:?}\n{md}");
        assert!(
            md.contains("red") && md.contains("evil"),
            "the text itself is kept"
        );
    }
}

/// Rendered by a CommonMark renderer, the rollout's text makes no element it did not mean:
/// its HTML, links, images, autolinks, definitions and footnotes are shown as text, the
/// fences in an output do not close the transcript's, and a fence the user left open does
/// not swallow the rest of the transcript.
#[test]
fn a_transcript_makes_no_markup_of_the_rollouts_text() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile(dir.path());
    for view in ["history", "ui"] {
        markup_is_inert(&markdown(&["--view", view], &file), view);
    }
}

fn markup_is_inert(md: &str, view: &str) {
    let html = html(md);
    // What Markdown without links, images, HTML and footnotes makes (the instructions use
    // headings and lists of their own).
    let allowed: BTreeSet<String> = [
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "ul",
        "ol",
        "li",
        "blockquote",
        "pre",
        "code",
        "em",
        "strong",
        "del",
        "hr",
        "br",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
    ]
    .map(String::from)
    .into();
    let made = elements(&html);
    assert!(
        made.is_subset(&allowed),
        "--view {view}: elements the text did not mean: {:?}\n{html}",
        made.difference(&allowed).collect::<Vec<_>>()
    );
    for text in [
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "[x](javascript:alert(1))",
        "![i](http://evil.example/x.png)",
        "&lt;img src=x onerror=alert(1)&gt;",
        "[ref]: javascript:alert(2)",
    ] {
        assert!(
            html.contains(text),
            "--view {view}: {text} is not shown as text:\n{html}"
        );
    }
    // The output's text, fences and all, is one code block; the transcript goes on after
    // the user's open fence and the output: every call and the last answer are still there.
    assert!(
        html.contains("<pre><code class=\"language-text\">```\n&lt;/code&gt;"),
        "--view {view}: {html}"
    );
    assert_eq!(
        html.matches("<strong>Tool call</strong>").count(),
        5,
        "{html}"
    );
    assert!(html.contains("<strong>Assistant</strong>"));
    let last = html.rfind("<strong>Assistant</strong>").unwrap();
    assert!(html[last..].contains("Hello from demo"), "{html}");
}

/// Every credential `content.secret` finds is replaced by a marker naming its kind, and no
/// character of any is left; the same kinds that `lint` reports.
#[test]
fn redaction_replaces_every_kind_of_secret() {
    let secrets = [
        "AKIAQ3EGRSZ7NV5WTXLM".to_string(),
        "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXY".to_string(),
        "sk-proj-Zq3vN8xK2mL5pR7tW9yB1cD4fG6hJ0kM3nP5qS7uV9wX1zA3bC5dE7fH9jK1mN3pQ5rT7".to_string(),
        format!("sk-ant-api03-{}", "x".repeat(90)),
        format!("glpat-{}", "y".repeat(20)),
        format!("xoxb-12345678901-{}", "z".repeat(12)),
        format!("sk_live_{}", "q".repeat(24)),
        format!("AIza{}", "w".repeat(35)),
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U".to_string(),
        "Bearer abc123def456ghi789jkl012".to_string(),
        "postgres://admin:s3cr3tPa55@db.internal:5432/app".to_string(),
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
            "MIIEowIBAAKCAQEA".repeat(8)
        ),
    ];
    let text = secrets.join("\n");
    let file = real_file("0.171.0", "shell", "");
    let dir = tempfile::tempdir().unwrap();
    let mut out = String::new();
    for line in std::fs::read_to_string(file).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        let p = &mut v["payload"];
        if p["type"] == "function_call_output" {
            p["output"] = json!(format!("Exit code: 0\nOutput:\n{text}\n"));
        }
        if p["type"] == "message" && p["role"] == "assistant" {
            p["content"][0]["text"] = json!(text);
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    let path = dir
        .path()
        .join("rollout-2026-11-29T12-00-30-01a2272d-9d87-7932-b6ae-b428ac561278.jsonl");
    std::fs::write(&path, out).unwrap();

    let linted: BTreeSet<String> = ndjson(
        &output(
            &[
                "lint",
                "--select",
                "content.secret",
                "--fail-on",
                "warning",
                "--format",
                "ndjson",
                path.to_str().unwrap(),
            ],
            1,
        )
        .stdout,
    )
    .iter()
    .filter_map(|f| {
        let m = f["message"].as_str()?;
        Some(m.split(" in payload").next()?.to_string())
    })
    .collect();
    assert_eq!(linted.len(), secrets.len(), "one kind a secret: {linted:?}");

    let md = markdown(&["--redact-secrets", "--max-output-lines", "all"], &path);
    let marked: BTreeSet<String> = md
        .match_indices("[REDACTED: ")
        .map(|(i, m)| md[i + m.len()..].split(']').next().unwrap().to_string())
        .collect();
    for kind in &linted {
        assert!(marked.contains(kind), "{kind} is not marked: {marked:?}");
    }
    assert_eq!(marked.len(), secrets.len(), "{marked:?}");
    for s in &secrets {
        let body: String = s
            .chars()
            .rev()
            .take(12)
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        assert!(!md.contains(&body), "{s} shows in\n{md}");
    }
    // Without the flag they are there.
    let plain = markdown(&["--max-output-lines", "all"], &path);
    assert!(plain.contains("AKIAQ3EGRSZ7NV5WTXLM"));
}

/// `--max-output-lines` cuts an output and says how many lines are left; `all` shows them.
#[test]
fn outputs_are_cut_with_a_count() {
    let file = real_file("0.171.0", "shell", "");
    let md = markdown(&["--max-output-lines", "2"], &file);
    // `ls -la` printed 5 lines.
    assert!(md.contains("total 16\ndrwxr-xr-x 2 root root 4096 Nov 29 12:00 .\n```\n\n_3 more lines of the output not shown"), "{md}");
    let all = markdown(&["--max-output-lines", "all"], &file);
    assert!(all.contains("hello.py\n```"));
    assert!(!all.contains("not shown"));
}

/// The transcript's flags belong to the transcript; the state view has none.
#[test]
fn transcript_flags_need_the_transcript() {
    let file = real_file("0.171.0", "shell", "");
    let f = file.to_str().unwrap();
    for args in [
        vec!["replay", "--redact-secrets", "--format", "ndjson", f],
        vec!["replay", "--max-output-lines", "5", f],
        vec!["replay", "--view", "state", "--format", "markdown", f],
        vec![
            "replay",
            "--format",
            "markdown",
            "--max-output-lines",
            "x",
            f,
        ],
    ] {
        let out = output(&args, 2);
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A `.zst` file and standard input, which are read once and held, give the transcript a
/// plain file gives (times included), but for the file's name.
#[test]
fn held_input_gives_the_same_transcript() {
    let file = real_file("0.171.0", "shell", "");
    let without_file = |md: String| -> String {
        md.lines()
            .filter(|l| !l.starts_with("- File: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let dir = tempfile::tempdir().unwrap();
    let zst = compress_into(&file, dir.path());
    for view in ["history", "ui"] {
        let plain = without_file(markdown(&["--view", view], &file));
        assert!(plain.contains("## Turn 1 · 2026-11-29 12:00:30 +00:00 · completed"));
        assert_eq!(without_file(markdown(&["--view", view], &zst)), plain);
        let piped = rollscope()
            .args(["replay", "--format", "markdown", "--view", view, "-"])
            .pipe_stdin(&file)
            .unwrap()
            .output()
            .unwrap();
        assert_eq!(
            without_file(String::from_utf8(piped.stdout).unwrap()),
            plain
        );
    }
}
