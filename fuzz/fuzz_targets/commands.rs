//! Every subcommand over structure-aware rollouts: an `arbitrary` list of one to three
//! files, each a sequence of plausible records (real record shapes from `templates.jsonl`,
//! their ids, numbers and texts swapped for values shared between the files, so turns pair
//! up, calls meet their outputs, forks find their sources or loop back on themselves), mixed
//! with raw bytes, blank lines, torn and CRLF lines, ordinals right and wrong, BOMs and
//! zstd. The files are written into a Codex home of their own and every subcommand runs
//! over them in this process, in every format: no input may panic, hang or run out of
//! memory; and repair's properties hold on them (`rollscope::fuzz::repaired`: nothing
//! written, no finding added, idempotent). Run with stdout to /dev/null (the rows are printed).
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use clap::Parser;
use serde_json::{Map, Value};

/// The record shapes, one JSON line each.
const TEMPLATES: &str = include_str!("../templates.jsonl");

/// Thread ids: a file's own, and what a fork names. Two are hostile: a path out of the
/// sessions folder, and one with a NUL.
const THREADS: &[&str] = &[
    "01a2272d-fced-7f63-8ff0-e3a6e151dcbb",
    "01a2272d-fdfa-7c33-abe8-a07f91b0fc53",
    "01a2272e-0462-7050-87f2-e173f5162324",
    "01a2272f-0000-7000-8000-000000000009",
    "../../../../etc/shadow",
    "/etc/passwd",
    "",
    "x\u{0}y",
];

/// Turn and call ids, and other ids.
const IDS: &[&str] = &[
    "T1",
    "T2",
    "T3",
    "call_1",
    "call_2",
    "fc_1",
    "",
    "T1\u{1b}[2J",
];

/// Texts: plain, empty, long, hostile to a terminal, JSON-looking, multi-line.
const TEXTS: &[&str] = &[
    "hello",
    "",
    "\u{1b}]52;c;aGVsbG8=\u{7}\u{1b}[2J\u{9b}31m\u{202e}evil",
    "{\"type\":\"message\"}",
    "line one\nline two\r\n",
    "sk-proj-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
    "2025-01-01T00:00:00.000Z",
    "legacy",
    "paginated",
    "user",
    "assistant",
    "function_call",
    "exec_command",
];

/// Keys whose values the edits change, wherever they occur in a record.
const KEYS: &[&str] = &[
    "turn_id",
    "call_id",
    "id",
    "thread_id",
    "session_id",
    "forked_from_id",
    "root_turn_id",
    "num_turns",
    "end_ordinal_exclusive",
    "end_byte_offset",
    "history_base",
    "history_mode",
    "type",
    "role",
    "timestamp",
    "cwd",
    "model",
    "status",
    "output",
    "arguments",
    "name",
    "message",
    "total_tokens",
    "input_tokens",
    "output_tokens",
    "replacement_history",
    "content",
    "text",
    "exit_code",
    "duration",
    "info",
    "last_agent_message",
];

#[derive(Debug, Arbitrary)]
struct Input {
    files: Vec<File>,
    /// Which formats and views run (a bit each), so every exec need not run them all.
    runs: u16,
}

#[derive(Debug, Arbitrary)]
struct File {
    thread: u8,
    zst: bool,
    bom: bool,
    lines: Vec<Line>,
}

#[derive(Debug, Arbitrary)]
struct Line {
    shape: Shape,
    ordinal: Ordinal,
    end: End,
}

#[derive(Debug, Arbitrary)]
enum Shape {
    Template { which: u8, edits: Vec<Edit> },
    Bytes(Vec<u8>),
    Blank,
}

#[derive(Debug, Arbitrary)]
enum Edit {
    Thread {
        key: u8,
        nth: u8,
        value: u8,
    },
    Id {
        key: u8,
        nth: u8,
        value: u8,
    },
    Number {
        key: u8,
        nth: u8,
        value: Number,
    },
    Text {
        key: u8,
        nth: u8,
        value: u8,
    },
    Null {
        key: u8,
        nth: u8,
    },
    Remove {
        key: u8,
        nth: u8,
    },
    /// Cut the line's text here (a torn write, a cut file).
    Cut {
        at: u16,
    },
}

#[derive(Debug, Arbitrary)]
enum Number {
    Small(u8),
    Negative(i8),
    Big(u64),
    Float(f64),
}

#[derive(Debug, Arbitrary)]
enum Ordinal {
    /// As the template has it (mostly none).
    Keep,
    /// The file's next one: 0, 1, 2...
    Next,
    Absent,
    Value(u16),
    Huge,
}

#[derive(Debug, Arbitrary)]
enum End {
    Lf,
    CrLf,
    /// No line ending (a torn last line, or two lines run together).
    None,
}

fn templates() -> &'static [Value] {
    static T: OnceLock<Vec<Value>> = OnceLock::new();
    T.get_or_init(|| {
        TEMPLATES
            .lines()
            .map(|l| serde_json::from_str(l).expect("templates.jsonl holds JSON lines"))
            .collect()
    })
}

/// The home the files go in, made once per process.
fn home() -> &'static Path {
    static H: OnceLock<PathBuf> = OnceLock::new();
    H.get_or_init(|| {
        let h = std::env::temp_dir().join(format!("rollscope-fuzz-{}", std::process::id()));
        std::env::set_var("CODEX_HOME", &h);
        std::env::set_var("ROLLSCOPE_PROGRESS", "never");
        std::env::set_var("TZ", "UTC");
        std::env::set_var("NO_COLOR", "1");
        h
    })
}

/// Apply `f` to the value of the `nth` occurrence of `key` (depth first), if any.
fn at_nth(
    v: &mut Value,
    key: &str,
    nth: &mut u8,
    f: &mut dyn FnMut(&mut Map<String, Value>, &str),
) -> bool {
    match v {
        Value::Object(m) => {
            if m.contains_key(key) {
                if *nth == 0 {
                    f(m, key);
                    return true;
                }
                *nth -= 1;
            }
            m.values_mut().any(|x| at_nth(x, key, nth, f))
        }
        Value::Array(a) => a.iter_mut().any(|x| at_nth(x, key, nth, f)),
        _ => false,
    }
}

fn pick<'a>(pool: &[&'a str], k: u8) -> &'a str {
    pool[usize::from(k) % pool.len()]
}

fn number(n: &Number) -> Value {
    match *n {
        Number::Small(v) => v.into(),
        Number::Negative(v) => v.into(),
        Number::Big(v) => v.into(),
        Number::Float(v) => serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
    }
}

/// One line's bytes.
fn line_bytes(line: &Line, next_ordinal: &mut u64) -> Vec<u8> {
    let mut out = match &line.shape {
        Shape::Blank => b"  ".to_vec(),
        Shape::Bytes(b) => b.clone(),
        Shape::Template { which, edits } => {
            let t = templates();
            let mut v = t[usize::from(*which) % t.len()].clone();
            let mut cut = None;
            for e in edits.iter().take(8) {
                let (key, nth) = match e {
                    Edit::Thread { key, nth, .. }
                    | Edit::Id { key, nth, .. }
                    | Edit::Number { key, nth, .. }
                    | Edit::Text { key, nth, .. }
                    | Edit::Null { key, nth }
                    | Edit::Remove { key, nth } => (pick(KEYS, *key), *nth % 4),
                    Edit::Cut { at } => {
                        cut = Some(usize::from(*at));
                        continue;
                    }
                };
                let mut nth = nth;
                at_nth(&mut v, key, &mut nth, &mut |m, k| match e {
                    Edit::Thread { value, .. } => {
                        m.insert(k.into(), pick(THREADS, *value).into());
                    }
                    Edit::Id { value, .. } => {
                        m.insert(k.into(), pick(IDS, *value).into());
                    }
                    Edit::Number { value, .. } => {
                        m.insert(k.into(), number(value));
                    }
                    Edit::Text { value, .. } => {
                        m.insert(k.into(), pick(TEXTS, *value).into());
                    }
                    Edit::Null { .. } => {
                        m.insert(k.into(), Value::Null);
                    }
                    Edit::Remove { .. } => {
                        m.remove(k);
                    }
                    Edit::Cut { .. } => {}
                });
            }
            if let Value::Object(env) = &mut v {
                match line.ordinal {
                    Ordinal::Keep => {}
                    Ordinal::Next => {
                        env.insert("ordinal".into(), (*next_ordinal).into());
                        *next_ordinal += 1;
                    }
                    Ordinal::Absent => {
                        env.remove("ordinal");
                    }
                    Ordinal::Value(n) => {
                        env.insert("ordinal".into(), n.into());
                    }
                    Ordinal::Huge => {
                        env.insert("ordinal".into(), u64::MAX.into());
                    }
                }
            }
            let mut b = serde_json::to_vec(&v).expect("a Value serializes");
            if let Some(at) = cut {
                b.truncate(at);
            }
            b
        }
    };
    match line.end {
        End::Lf => out.push(b'\n'),
        End::CrLf => out.extend_from_slice(b"\r\n"),
        End::None => {}
    }
    out
}

fn run(args: &[&str]) {
    if let Ok(cli) = rollscope::cli::Cli::try_parse_from(args) {
        let _ = rollscope::run(cli);
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let home = home();
    let day = home.join("sessions/2025/01/01");
    let _ = std::fs::remove_dir_all(home);
    std::fs::create_dir_all(&day).expect("the fuzz home");
    let mut paths = Vec::new();
    for (k, f) in input.files.iter().take(3).enumerate() {
        let mut bytes = Vec::new();
        if f.bom {
            bytes.extend_from_slice(b"\xEF\xBB\xBF");
        }
        let mut next_ordinal = 0;
        for l in f.lines.iter().take(64) {
            bytes.extend(line_bytes(l, &mut next_ordinal));
        }
        rollscope::fuzz::analyses(&bytes);
        let thread = THREADS[usize::from(f.thread) % 4];
        let mut name = format!("rollout-2025-01-01T00-00-0{k}-{thread}.jsonl");
        if f.zst {
            bytes = zstd::encode_all(&bytes[..], 1).expect("zstd in memory");
            name.push_str(".zst");
        }
        let path = day.join(name);
        std::fs::write(&path, &bytes).expect("the fuzz home is writable");
        paths.push(path.display().to_string());
    }
    if paths.is_empty() {
        // With no path, some subcommands read standard input: nothing to fuzz there.
        return;
    }
    let files: Vec<&str> = paths.iter().map(String::as_str).collect();
    let with = |head: &[&'static str]| {
        let mut a: Vec<&str> = vec!["rollscope"];
        a.extend_from_slice(head);
        a.extend_from_slice(&["-j", "1"]);
        a.extend_from_slice(&files);
        a
    };
    let runs: &[&[&str]] = &[
        &["stats", "--format", "ndjson"],
        &["stats", "--by", "day", "--width", "40"],
        &["stats", "--by", "model", "--format", "json"],
        &["turns", "--format", "ndjson"],
        &["turns", "--width", "50"],
        &["calls", "--format", "ndjson", "--status", "failed,ok"],
        &["calls", "--width", "0"],
        &["check-ordinal"],
        &["check-ordinal", "--format", "ndjson", "--deny", "gap"],
        &["replay", "--format", "ndjson"],
        &["replay", "--view", "state"],
        &["replay", "--view", "ui", "--format", "ndjson"],
        &["replay", "--for-prompt", "--format", "json"],
        &["replay", "--through-turn", "1"],
        &["lint", "--no-config", "--format", "ndjson"],
        &["lint", "--no-config", "--format", "sarif"],
    ];
    for (k, head) in runs.iter().enumerate() {
        if input.runs >> k & 1 == 1 || k < 2 {
            run(&with(head));
        }
    }
    // Repair: a dry run, and its properties (nothing written, no finding added, idempotent).
    run(&with(&["repair", "--no-config", "--format", "ndjson", "--unsafe-fixes"]));
    let on_disk: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    rollscope::fuzz::repaired(&on_disk);
    // And the walk of the home itself, with no path given.
    if input.runs >> 15 & 1 == 1 {
        run(&["rollscope", "lint", "--no-config", "-j", "1"]);
    }
});
