//! Terminal safety (issue #15): rollout text is untrusted. A rollout whose user text, tool
//! output, model name and file name carry terminal escapes (clear screen, OSC 8 links,
//! OSC 52 clipboard writes, cursor moves, bell), C1 controls and bidi overrides never
//! reaches the terminal through a table, a diagnostic or a `lint` excerpt; NDJSON keeps the
//! text exact.

use crate::util::*;

/// JSON-escaped hostile payloads, and the raw text each decodes to.
const HOSTILE: [(&str, &str); 5] = [
    (r"\u001b[2J\u001b[H", "\u{1b}[2J\u{1b}[H"),
    (r"\u001b]52;c;cHduZWQ=\u0007", "\u{1b}]52;c;cHduZWQ=\u{7}"),
    (
        r"\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\",
        "\u{1b}]8;;https://evil.example/\u{1b}\\link\u{1b}]8;;\u{1b}\\",
    ),
    (r"\u009b31m\u0085", "\u{9b}31m\u{85}"),
    (r"\u202eevil\u2066", "\u{202e}evil\u{2066}"),
];

/// Is there anything in `text` a terminal would act on?
fn acts_on_terminal(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

/// A real rollout, its user message, model name and a tool output laced with every
/// hostile payload, under a file name that carries escapes too.
fn hostile_rollout(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let f = real_file("0.171.0", "shell", "");
    let all_json: String = HOSTILE.iter().map(|(j, _)| *j).collect();
    let all_raw: String = HOSTILE.iter().map(|(_, r)| *r).collect();
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replace(
            "Look around the repo",
            &format!("Look {all_json} around the repo"),
        )
        .replace("\"gpt-5.5\"", &format!("\"gpt-5.5{all_json}\""))
        .replace("Hello from demo", &format!("Hello {all_json} from demo"));
    let name = "rollout-2026-11-29T12-00-30-\u{1b}]0;title\u{7}\u{1b}[31m.jsonl";
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (path, format!("Look {all_raw} around the repo,"))
}

#[test]
fn no_escape_from_a_rollout_reaches_the_terminal_through_any_human_output() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = hostile_rollout(dir.path());
    let f = file.to_str().unwrap();
    let d = dir.path().to_str().unwrap();
    let runs: [&[&str]; 14] = [
        &["stats", f],
        &["stats", "--by", "model", f],
        &["turns", f],
        &["turns", d, f],
        &["calls", f],
        &["calls", "--width", "60", d, f],
        &["check-ordinal", f],
        &["replay", f],
        &["replay", "--view", "ui", f],
        &["replay", "--view", "state", f],
        &["lint", "--no-config", f],
        &["lint", "--no-config", "--format", "concise", f],
        &["lint", "--no-config", "--format", "github", f],
        &["stats", "--since", "2030-01-01", f],
    ];
    for args in runs {
        let out = rollscope()
            .args(args)
            .args(["--color", "never"])
            .output()
            .unwrap();
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            if let Some(c) = acts_on_terminal(&text) {
                panic!("{args:?}: {stream} carries {c:?}:\n{text}");
            }
        }
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {out:?}"
        );
    }
}

#[test]
fn ndjson_keeps_hostile_text_exact() {
    let dir = tempfile::tempdir().unwrap();
    let (file, message) = hostile_rollout(dir.path());
    let f = file.to_str().unwrap();
    let turns = rows(&["turns", "--format", "ndjson", f], 0);
    let got = turns[0]["user_message"].as_str().unwrap();
    assert!(got.starts_with(&message), "{got:?}");
    assert_eq!(turns[0]["path"], f);
    let stats = rows(&["stats", "--format", "ndjson", f], 0);
    assert_eq!(stats[0]["path"], f);
}
