//! The documentation is checked against the program, so that it cannot rot:
//!
//! - every flag clap gives a subcommand is in the `| flag | meaning |` table of its page
//!   (`docs/NAME.md`), or, for the shared Input and Output flags, in the one of
//!   `docs/README.md`, with every possible value of a value-enum flag; a flag a page
//!   documents that clap does not have fails too, as does a `rollscope SUB --flag` in any
//!   example that SUB does not take;
//! - every JSON key path the subcommands' `--format ndjson` rows carry over `testdata/` is in
//!   a `| field | type | meaning |` table of its page (the convention is in
//!   `docs/README.md`), and every documented path is seen;
//! - every ```` ```console ```` example of README.md and docs/*.md runs and prints what it
//!   shows ([`examples`]; `BLESS=1` rewrites the shown output);
//! - the README says what each turn and call status means, and the pages use no word a
//!   newcomer cannot place.
//!
//! Failures are collected and reported together, each naming the page (and line), the
//! subcommand and the flag or field, so a renamed flag or a new field is fixed in one pass.

pub(crate) mod examples;
mod setup;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use rollscope::analysis::calls::CallStatus;
use rollscope::analysis::turns::TurnStatus;
use rollscope::cli::Cli;
use serde_json::Value;

use crate::util::*;

// ---------------------------------------------------------------------------------------
// Reading the pages

/// A page of the documentation: its path from the project root and its text.
pub(crate) struct Page {
    pub(crate) rel: String,
    pub(crate) text: String,
}

fn page(rel: &str) -> Page {
    let text = std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    Page {
        rel: rel.to_string(),
        text,
    }
}

/// README.md and every `docs/*.md`, in that order.
pub(crate) fn pages() -> Vec<Page> {
    let mut rels: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    rels.sort();
    rels.insert(0, "README.md".into());
    rels.iter().map(|r| page(r)).collect()
}

/// Where a page lies, for the examples runner.
fn path_of(p: &Page) -> PathBuf {
    root().join(Path::new(&p.rel))
}

/// Panic with every failure, one a paragraph.
#[track_caller]
fn report(what: &str, failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{what}: {} problem(s)\n\n{}\n",
        failures.len(),
        failures.join("\n")
    );
}

/// A fenced code block: its info string (`console`, `sh`, `console,ignore`, …), the 0-based
/// index of its first content line, and its content lines.
pub(crate) struct Block {
    pub(crate) info: String,
    pub(crate) first: usize,
    pub(crate) lines: Vec<String>,
}

/// The info string of a line that opens or closes a code fence (three backquotes at the
/// start of the line, not four: ```` ```` ```` is a code span in prose).
fn fence(line: &str) -> Option<&str> {
    line.strip_prefix("```")
        .filter(|rest| !rest.starts_with('`'))
}

/// The fenced code blocks of a page, in order.
pub(crate) fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut open {
            None => {
                if let Some(info) = fence(line) {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        first: i + 1,
                        lines: Vec::new(),
                    });
                }
            }
            Some(b) => {
                if line.trim_end() == "```" {
                    out.extend(open.take());
                } else {
                    b.lines.push(line.to_string());
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Tables and code spans

/// The lines of a page outside its code fences, with their 1-based numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if fence(line).is_some() {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// One row of a Markdown table: its 1-based line and its cells (`\|` unescaped).
struct Row {
    line: usize,
    cells: Vec<String>,
}

impl Row {
    /// The text of the first code span of the first cell.
    fn key(&self) -> Option<String> {
        code_spans(&self.cells[0]).into_iter().next()
    }

    fn text(&self) -> String {
        self.cells.join(" | ")
    }
}

fn cells(line: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = line.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cell).trim().to_string()),
            c => cell.push(c),
        }
    }
    cells.push(cell.trim().to_string());
    // A row starts and ends with `|`: drop the empty cells outside them.
    cells.remove(0);
    cells.pop();
    cells
}

/// The rows of every table of `page` whose header's first cell is `first` (outside code
/// fences), in order.
fn table_rows(text: &str, first: &str) -> Vec<Row> {
    let lines = prose(text);
    let mut rows = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (_, l) = lines[i];
        if l.starts_with('|') && cells(l).first().map(String::as_str) == Some(first) {
            i += 2; // the header and its `|---|` line
            while i < lines.len() && lines[i].1.starts_with('|') {
                rows.push(Row {
                    line: lines[i].0,
                    cells: cells(lines[i].1),
                });
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    rows
}

/// The code spans of a line of Markdown: `` `a` `` and ``` `` a`b `` ```.
fn code_spans(s: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut rest = s;
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let fence = "`".repeat(ticks);
        let body = &rest[start + ticks..];
        match body.find(&fence) {
            Some(end) => {
                spans.push(body[..end].trim().to_string());
                rest = &body[end + ticks..];
            }
            None => break,
        }
    }
    spans
}

// ---------------------------------------------------------------------------------------
// The command line, from clap

/// A flag or positional argument of a subcommand, as clap defines it.
struct Flag {
    /// `--long`, or the value name of a positional (`PATH`).
    key: String,
    short: Option<char>,
    /// The possible values of a value-enum flag (none for free values and switches).
    values: Vec<String>,
    /// One of the shared Input/Output flags, which `docs/README.md` may document once.
    shared: bool,
}

/// Every subcommand clap shows (hidden ones aside), with its flags (`--help` and
/// `--version` aside).
fn subcommands() -> Vec<(String, Vec<Flag>)> {
    Cli::command()
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| (s.get_name().to_string(), flags(s)))
        .collect()
}

fn flags(sub: &clap::Command) -> Vec<Flag> {
    sub.get_arguments()
        .filter(|a| !matches!(a.get_id().as_str(), "help" | "version") && !a.is_hide_set())
        .map(|a| {
            let key = match a.get_long() {
                Some(l) => format!("--{l}"),
                None => a
                    .get_value_names()
                    .and_then(|v| v.first().map(|n| n.to_string()))
                    .unwrap_or_else(|| a.get_id().as_str().to_uppercase()),
            };
            let values = if a.get_action().takes_values() {
                a.get_possible_values()
                    .iter()
                    .filter(|v| !v.is_hide_set())
                    .map(|v| v.get_name().to_string())
                    .collect()
            } else {
                Vec::new()
            };
            Flag {
                key,
                short: a.get_short(),
                values,
                shared: matches!(a.get_help_heading(), Some("Input" | "Output")),
            }
        })
        .collect()
}

/// The flags a `| flag | meaning |` table documents: each row's `--long` (or, for a
/// positional, its value name) and short flag, with the row.
fn documented_flags(text: &str) -> Vec<(String, Option<char>, Row)> {
    table_rows(text, "flag")
        .into_iter()
        .filter_map(|row| {
            let spec = row.key()?;
            let words: Vec<&str> = spec
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .collect();
            let long = words.iter().find(|w| w.starts_with("--"));
            let key = match long {
                Some(l) => l.split('=').next().unwrap().to_string(),
                None => words.first()?.trim_end_matches('.').to_string(),
            };
            let short = words
                .iter()
                .find(|w| w.len() == 2 && w.starts_with('-'))
                .and_then(|w| w.chars().nth(1));
            Some((key, short, row))
        })
        .collect()
}

/// The page of a subcommand.
fn page_of(sub: &str) -> String {
    format!("docs/{sub}.md")
}

#[test]
fn every_flag_of_every_subcommand_is_documented_with_its_values() {
    let shared = page("docs/README.md");
    let shared_rows = documented_flags(&shared.text);
    let mut failures = Vec::new();
    for (sub, flags) in subcommands() {
        let rel = page_of(&sub);
        if !root().join(&rel).is_file() {
            failures.push(format!(
                "`rollscope {sub}` has no page: write {rel} (and list it in docs/README.md)"
            ));
            continue;
        }
        let own = page(&rel);
        let own_rows = documented_flags(&own.text);
        for f in &flags {
            let found = own_rows
                .iter()
                .find(|(k, ..)| *k == f.key)
                .map(|r| (&own.rel, r))
                .or_else(|| {
                    f.shared
                        .then(|| shared_rows.iter().find(|(k, ..)| *k == f.key))
                        .flatten()
                        .map(|r| (&shared.rel, r))
                });
            let Some((rel, (_, short, row))) = found else {
                let also = if f.shared {
                    " (a shared flag: or in docs/README.md's shared flags table)"
                } else {
                    ""
                };
                failures.push(format!(
                    "{}: `rollscope {sub} {}` is not documented: add a row to its `| flag | meaning |` table{also}",
                    own.rel, f.key
                ));
                continue;
            };
            let spans = code_spans(&row.text());
            for v in &f.values {
                if !spans.iter().any(|s| s == v) {
                    failures.push(format!(
                        "{rel}:{}: the row of `{}` does not mention its value `{v}` (`rollscope {sub} {} {v}`)",
                        row.line, f.key, f.key
                    ));
                }
            }
            if let Some(s) = short {
                if Some(*s) != f.short {
                    failures.push(format!(
                        "{rel}:{}: the row of `{}` names `-{s}`, but its short flag is {}",
                        row.line,
                        f.key,
                        f.short.map_or("none".into(), |c| format!("`-{c}`"))
                    ));
                }
            }
        }
    }
    report("flags missing from the docs", failures);
}

#[test]
fn every_documented_flag_is_one_clap_has() {
    let subs = subcommands();
    let mut failures = Vec::new();
    for (sub, flags) in &subs {
        let rel = page_of(sub);
        if !root().join(&rel).is_file() {
            continue;
        }
        for (key, _, row) in documented_flags(&page(&rel).text) {
            if !flags.iter().any(|f| f.key == key) {
                failures.push(format!(
                    "{rel}:{}: documents `{key}`, which `rollscope {sub}` does not have",
                    row.line
                ));
            }
        }
    }
    for (key, _, row) in documented_flags(&page("docs/README.md").text) {
        let shared_somewhere = subs
            .iter()
            .any(|(_, fs)| fs.iter().any(|f| f.key == key && f.shared));
        if !shared_somewhere {
            failures.push(format!(
                "docs/README.md:{}: documents `{key}` as a shared flag, but no subcommand has it among its Input/Output flags",
                row.line
            ));
        }
    }
    report("documented flags clap does not have", failures);
}

/// Is `w` a long flag (`--name`), not an arrow (`-->`) or a rule (`---`)?
fn is_long(w: &str) -> bool {
    w.strip_prefix("--")
        .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// The `--flags` of every `rollscope SUB …` command written in a page (code blocks and code
/// spans), up to the end of the command (a pipe, a redirection, `;`, `&&`, a comment).
fn invocations(text: &str) -> Vec<(usize, String, Vec<String>)> {
    let mut out = Vec::new();
    let mut scan = |line_no: usize, s: &str| {
        let mut rest = s;
        while let Some(i) = rest.find("rollscope ") {
            let before = rest[..i].chars().last();
            let after = &rest[i + "rollscope ".len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '/' || c == '-' || c == '_') {
                continue;
            }
            let mut words = after.split_whitespace();
            let Some(sub) = words.next() else { continue };
            let flags: Vec<String> = words
                .take_while(|w| {
                    !["|", ">", "<", ";", "&", "#", ")", "2>"]
                        .iter()
                        .any(|p| w.starts_with(p))
                })
                .filter(|w| is_long(w))
                .map(|w| {
                    w.split('=')
                        .next()
                        .unwrap()
                        .trim_end_matches('`')
                        .to_string()
                })
                .collect();
            out.push((line_no, sub.trim_end_matches('`').to_string(), flags));
        }
    };
    for b in blocks(text) {
        for (j, l) in b.lines.iter().enumerate() {
            scan(b.first + j + 1, l);
        }
    }
    for (n, l) in prose(text) {
        for span in code_spans(l) {
            scan(n, &span);
        }
    }
    out
}

#[test]
fn every_rollscope_command_in_the_docs_uses_flags_its_subcommand_has() {
    let subs: BTreeMap<String, Vec<Flag>> = Cli::command()
        .get_subcommands()
        .map(|s| (s.get_name().to_string(), flags(s)))
        .collect();
    let mut failures = Vec::new();
    let mut seen = 0;
    for p in pages() {
        for (line, sub, used) in invocations(&p.text) {
            let Some(flags) = subs.get(&sub) else {
                continue;
            };
            seen += 1;
            for u in used {
                if u != "--help" && u != "--version" && !flags.iter().any(|f| f.key == u) {
                    failures.push(format!(
                        "{}:{line}: `rollscope {sub} {u}`: `rollscope {sub}` has no flag `{u}`",
                        p.rel
                    ));
                }
            }
        }
    }
    assert!(seen > 50, "only {seen} commands found in the docs");
    report(
        "commands in the docs with flags clap does not have",
        failures,
    );
}

#[test]
fn flags_named_in_a_subcommands_prose_are_flags_it_has() {
    let mut failures = Vec::new();
    for (sub, flags) in subcommands() {
        let rel = page_of(&sub);
        if !root().join(&rel).is_file() {
            continue;
        }
        let text = page(&rel).text;
        for (n, l) in prose(&text) {
            for span in code_spans(l) {
                let Some(word) = span.split_whitespace().next() else {
                    continue;
                };
                let key = word.split('=').next().unwrap();
                if is_long(key) && !flags.iter().any(|f| f.key == key) {
                    failures.push(format!(
                        "{rel}:{n}: names `{key}`, which `rollscope {sub}` does not have"
                    ));
                }
            }
        }
    }
    report(
        "flags named in the pages that their subcommand lacks",
        failures,
    );
}

// ---------------------------------------------------------------------------------------
// NDJSON fields

/// Every rollout file of `testdata/`, sorted: the broken and lint fixtures too, whatever
/// their names (a directory walk finds `rollout-*` files only).
fn testdata_files() -> Vec<String> {
    let mut v: Vec<String> = walkdir::WalkDir::new(testdata(""))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            let n = p.to_string_lossy();
            n.ends_with(".jsonl") || n.ends_with(".jsonl.zst")
        })
        .map(|p| {
            p.strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    v.sort();
    v
}

/// The possible values clap gives `rollscope SUB --flag`.
fn values_of(sub: &str, flag: &str) -> Vec<String> {
    let subs = subcommands();
    let (_, flags) = subs.iter().find(|(s, _)| s == sub).unwrap();
    let f = flags.iter().find(|f| f.key == flag).unwrap();
    assert!(!f.values.is_empty(), "{sub} {flag} has no possible values");
    f.values.clone()
}

/// The runs whose rows a page documents: every subcommand whose `--format` takes `ndjson`,
/// over every file of `testdata/`, in every variant of its rows (each `stats --by`, over
/// the real files, each `replay --view`, a replay cut at a turn, `lint --list-rules`).
fn field_runs() -> Vec<(String, Vec<String>)> {
    let files = testdata_files();
    let one = "testdata/real/0.171.0/shell";
    let mut runs: Vec<(String, Vec<String>)> = Vec::new();
    for (sub, flags) in subcommands() {
        let ndjson = flags
            .iter()
            .any(|f| f.key == "--format" && f.values.iter().any(|v| v == "ndjson"));
        if !ndjson {
            continue;
        }
        let variants: Vec<Vec<String>> = match sub.as_str() {
            "stats" => values_of("stats", "--by")
                .into_iter()
                .map(|v| vec!["--by".into(), v])
                .collect(),
            "replay" => {
                let mut v: Vec<Vec<String>> = values_of("replay", "--view")
                    .into_iter()
                    .map(|v| vec!["--view".into(), v])
                    .collect();
                v.push(vec!["--for-prompt".into()]);
                v
            }
            _ => vec![vec![]],
        };
        for v in variants {
            let mut args = vec![sub.clone(), "--format".into(), "ndjson".into(), "-q".into()];
            // A group row's fields do not depend on the files: the real ones are enough.
            let grouped = v.first().is_some_and(|f| f == "--by") && v[1] != "file";
            args.extend(v);
            if grouped {
                args.push("testdata/real".into());
            } else {
                args.extend(files.iter().cloned());
            }
            runs.push((sub.clone(), args));
        }
    }
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    runs.push((
        "replay".into(),
        s(&[
            "replay",
            "--view",
            "state",
            "--through-turn",
            "1",
            "--format",
            "ndjson",
            one,
        ]),
    ));
    runs.push((
        "lint".into(),
        s(&["lint", "--list-rules", "--format", "ndjson"]),
    ));
    runs
}

/// Every key path of a row: nested keys joined by dots, array elements flattened (the
/// path of an element's key is the array's path, then the key).
fn key_paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(o) => {
            for (k, v) in o {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.insert(p.clone());
                key_paths(v, &p, out);
            }
        }
        Value::Array(a) => {
            for v in a {
                key_paths(v, prefix, out);
            }
        }
        _ => {}
    }
}

/// A documented field: its path's segments, and whether its value is JSON copied from the
/// rollout (type `JSON…`), whose keys are the file's and are not listed.
struct Field {
    path: Vec<String>,
    opaque: bool,
    line: usize,
}

/// The `| field | type | meaning |` tables of a page.
fn documented_fields(text: &str) -> Vec<Field> {
    table_rows(text, "field")
        .into_iter()
        .filter_map(|row| {
            let key = row.key()?;
            Some(Field {
                path: key.split('.').map(str::to_string).collect(),
                opaque: row.cells.get(1).is_some_and(|t| t.starts_with("JSON")),
                line: row.line,
            })
        })
        .collect()
}

/// A documented segment in capitals (`TYPE`) stands for any key of a map.
fn segment_matches(doc: &str, seen: &str) -> bool {
    doc == seen || is_placeholder(doc)
}

fn is_placeholder(segment: &str) -> bool {
    !segment.is_empty() && segment.chars().all(|c| c.is_ascii_uppercase() || c == '_')
}

/// Does the documented field `f` document the key path `seen`? Its own path; anything below
/// an opaque one; and the map a `map.KEY` row describes.
fn documents(f: &Field, seen: &[&str]) -> bool {
    let n = f.path.len();
    let matches = |k: usize| {
        f.path[..k]
            .iter()
            .zip(seen)
            .all(|(d, s)| segment_matches(d, s))
    };
    let map_of_keys = n > 1 && seen.len() == n - 1 && is_placeholder(&f.path[n - 1]);
    (seen.len() == n && matches(n))
        || (f.opaque && seen.len() > n && matches(n))
        || (map_of_keys && matches(n - 1))
}

/// Documented fields that no row of `testdata/` carries: each with why, and the test fails
/// when it starts appearing (then this line goes).
const UNSEEN: &[(&str, &str, &str)] = &[(
    "docs/replay.md",
    "success",
    "a legacy `patch_apply_end` with `success` (Codex 0.140 to 0.147 apply_patch): no such file in testdata/",
)];

/// The key paths each page's rows carry, over every run of [`field_runs`].
fn seen_paths() -> BTreeMap<String, BTreeSet<String>> {
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (sub, args) in field_runs() {
        let out = rollscope()
            .current_dir(root())
            .args(&args)
            .output()
            .unwrap();
        let rows = ndjson(&out.stdout);
        assert!(
            !rows.is_empty(),
            "rollscope {} …: no rows\n{}",
            args[..args.len().min(6)].join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        let paths = seen.entry(page_of(&sub)).or_default();
        for r in &rows {
            key_paths(r, "", paths);
        }
    }
    seen
}

#[test]
fn every_ndjson_field_is_documented_on_its_page_and_every_documented_field_is_seen() {
    let mut failures = Vec::new();
    for (rel, paths) in seen_paths() {
        let fields = documented_fields(&page(&rel).text);
        for p in &paths {
            let segs: Vec<&str> = p.split('.').collect();
            if !fields.iter().any(|f| documents(f, &segs)) {
                failures.push(format!(
                    "{rel}: the NDJSON field `{p}` is not documented: add its row to a `| field | type | meaning |` table"
                ));
            }
        }
        for f in &fields {
            let name = f.path.join(".");
            let is_seen = paths.iter().any(|p| {
                let segs: Vec<&str> = p.split('.').collect();
                segs.len() == f.path.len() && documents(f, &segs)
            });
            let exempt = UNSEEN.iter().any(|(r, n, _)| *r == rel && *n == name);
            if is_seen && exempt {
                failures.push(format!(
                    "{rel}:{}: `{name}` now appears in the rows: remove it from UNSEEN in tests/cli/docs.rs",
                    f.line
                ));
            } else if !is_seen && !exempt {
                failures.push(format!(
                    "{rel}:{}: documents the field `{name}`, which no row over testdata/ carries (renamed or removed?)",
                    f.line
                ));
            }
        }
    }
    report("NDJSON fields and their docs", failures);
}

// ---------------------------------------------------------------------------------------
// The README

/// The statuses a README table documents (`| turn status | meaning |`), with their meanings.
fn status_table(what: &str) -> Vec<(String, String)> {
    let readme = page("README.md");
    table_rows(&readme.text, what)
        .into_iter()
        .filter_map(|r| Some((r.key()?, r.cells.get(1).cloned().unwrap_or_default())))
        .collect()
}

#[track_caller]
fn assert_statuses_explained(what: &str, all: &[&str]) {
    let table = status_table(what);
    let documented: Vec<&str> = table.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        documented, all,
        "README.md's `| {what} | meaning |` table must list every status, in `--status` order"
    );
    for (status, meaning) in &table {
        assert!(
            meaning.split_whitespace().count() >= 5,
            "README.md: `{status}` needs a meaning a newcomer can act on, not `{meaning}`"
        );
    }
}

#[test]
fn readme_says_what_every_turn_status_means() {
    let all: Vec<&str> = TurnStatus::ALL.iter().map(|s| s.as_str()).collect();
    assert_statuses_explained("turn status", &all);
}

#[test]
fn readme_says_what_every_call_status_means() {
    let all: Vec<&str> = CallStatus::ALL.iter().map(|s| s.as_str()).collect();
    assert_statuses_explained("call status", &all);
}

/// The pages a user reads to use rollscope: the README, the index, one per subcommand and
/// the recipes. (`docs/rules.md` is generated from the registry; `docs/performance.md` is
/// the benchmark log, where its generator's `--seed` is an option; `docs/contributing.md`
/// is the developers' page, which names the team's tools beside the checkout.)
fn user_pages() -> Vec<Page> {
    const NOT_FOR_USERS: [&str; 3] = [
        "docs/rules.md",
        "docs/performance.md",
        "docs/contributing.md",
    ];
    pages()
        .into_iter()
        .filter(|p| !NOT_FOR_USERS.contains(&p.rel.as_str()))
        .collect()
}

#[test]
fn docs_use_no_word_a_newcomer_cannot_place() {
    // The project's own vocabulary: the test data's origins and its tracker.
    const JARGON: [&str; 4] = ["seed", "oracle", "../shared", "research/"];
    let mut failures = Vec::new();
    for p in user_pages() {
        for (i, line) in p.text.lines().enumerate() {
            let lower = line.to_lowercase();
            for word in JARGON {
                if lower.contains(word) {
                    failures.push(format!("{}:{}: `{word}`: {line}", p.rel, i + 1));
                }
            }
            // An issue number means something only with its repository: `openai/codex#123`.
            for (j, _) in line.match_indices('#') {
                let digits = line[j + 1..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .count();
                if digits >= 2 && !line[..j].ends_with("openai/codex") {
                    failures.push(format!(
                        "{}:{}: an issue number without its repository (`openai/codex#N`): {line}",
                        p.rel,
                        i + 1
                    ));
                }
            }
        }
    }
    report("jargon in the docs", failures);
}

#[test]
fn the_readme_failed_command_example_prints_the_commands_not_their_json() {
    let mut checked = 0;
    for rel in ["README.md", "docs/recipes.md"] {
        for ex in examples::of(&page(rel)) {
            if !(ex.command.contains("calls") && ex.command.contains("--status error")) {
                continue;
            }
            let Some(printed) = examples::run(&ex.command) else {
                return; // no jq here: the runner said so
            };
            assert!(
                !printed.trim().is_empty() && !printed.contains("{\""),
                "{rel}:{}: `{}` must print commands, not the JSON of their arguments:\n{printed}",
                ex.line,
                ex.command
            );
            checked += usize::from(rel == "README.md");
        }
    }
    assert!(
        checked > 0,
        "README.md has no failed-command example (`calls --status error`)"
    );
}
