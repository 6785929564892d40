//! The shape of `src/`, checked: imports point down the table of layers ([`LAYERS`]), no
//! two sibling modules use each other, no subcommand file uses another one, no file holds
//! more than 1000 lines outside its tests. (That nothing but `src/output/` writes to stdout
//! or stderr is clippy's check: `clippy.toml`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::util::root;

/// A source file of the crate: its module path (`analysis::turns::log`; `""` for the
/// crate root, `lib.rs` and `main.rs`) and its code outside its `#[cfg(test)]` items,
/// comments left out.
struct Source {
    module: String,
    code: String,
    lines_outside_tests: usize,
}

fn sources() -> Vec<Source> {
    let src = root().join("src");
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(&src) {
        let path = entry.unwrap().into_path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(&src).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let outside_tests = outside_tests(&text);
        let code = outside_tests
            .iter()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|l| without_comment(l))
            .collect::<Vec<_>>()
            .join("\n");
        out.push(Source {
            module: module_of(rel),
            code,
            lines_outside_tests: outside_tests.len(),
        });
    }
    out
}

/// The lines of `text` outside its `#[cfg(test)]` items: a test module, and a test-only
/// `mod`, `use` or function anywhere. An item ends on its first line when that ends with
/// `;`, else at the line that closes it at the attribute's indentation (rustfmt's layout).
fn outside_tests(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_start().strip_prefix("#[cfg(test)]") else {
            out.push(line);
            continue;
        };
        let indent = line.len() - line.trim_start().len();
        // The item's first line: after the attribute, or after its other attributes and docs.
        let first = match rest.trim() {
            "" => lines.by_ref().find(|l| {
                let l = l.trim_start();
                !(l.starts_with("#[") || l.starts_with("//"))
            }),
            same_line => Some(same_line),
        };
        if first.is_none_or(|f| f.trim_end().ends_with(';')) {
            continue;
        }
        for l in lines.by_ref() {
            let body = l.trim_start();
            if l.len() - body.len() == indent && body.starts_with(['}', ')']) {
                break;
            }
        }
    }
    out
}

/// A line without its trailing `// comment` (one that no string around it opens).
fn without_comment(line: &str) -> &str {
    line.match_indices(" //")
        .map(|(i, _)| i)
        .find(|&i| line[..i].matches('"').count() % 2 == 0)
        .map_or(line, |i| &line[..i])
}

/// `analysis/turns/log.rs` → `analysis::turns::log`; `mod.rs` is its directory's module.
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

/// Every `use` path of `code`, braces expanded (`a::{b, c::d}` → `a::b`, `a::c::d`).
fn use_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = find_use(rest) {
        let tail = &rest[i..];
        let end = tail.find(';').unwrap_or(tail.len());
        let tree = tail["use ".len()..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        expand("", &tree, &mut out);
        rest = &tail[end..];
    }
    out
}

/// The start of the next `use` item (at a line's start, maybe `pub` or `pub(crate)`).
fn find_use(code: &str) -> Option<usize> {
    let mut at = 0;
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        let body = trimmed
            .strip_prefix("pub(crate) ")
            .or_else(|| trimmed.strip_prefix("pub(super) "))
            .or_else(|| trimmed.strip_prefix("pub "))
            .unwrap_or(trimmed);
        if body.starts_with("use ") {
            return Some(at + lead + (trimmed.len() - body.len()));
        }
        at += line.len();
    }
    None
}

fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => {
            let leaf = tree.split(" as ").next().unwrap_or(tree).replace(' ', "");
            let path = format!("{prefix}{leaf}");
            let path = path.strip_suffix("::self").unwrap_or(&path);
            if !path.is_empty() {
                out.push(path.to_string());
            }
        }
        Some(i) => {
            let head = tree[..i].replace(' ', "");
            let inner = &tree[i + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut depth = 0;
            let mut from = 0;
            let prefix = format!("{prefix}{head}");
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&prefix, &inner[from..k], out);
                        from = k + 1;
                    }
                    _ => {}
                }
            }
            if from < inner.len() {
                expand(&prefix, &inner[from..], out);
            }
        }
    }
}

/// Every `crate::…` and `super::…` path written in `code` (`$crate::…` in a macro too),
/// fully qualified names in code bodies among them.
fn inline_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        for (i, _) in code.match_indices(start) {
            let before = code[..i].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let path: String = code[i..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            // `crate::{…}`, `crate::x::*`: a `use` tree, which `use_paths` reads whole.
            if !path.ends_with(':') {
                out.push(path);
            }
        }
    }
    out
}

/// The module a path used in `from` names: the longest of `modules` it starts with.
fn target(from: &str, path: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut segs: Vec<&str> = Vec::new();
    let mut parts = path.split("::").peekable();
    match parts.peek().copied() {
        Some("crate") => {
            parts.next();
        }
        Some("super") | Some("self") => {
            segs = from.split("::").filter(|s| !s.is_empty()).collect();
            while let Some(&p) = parts.peek() {
                match p {
                    "super" => {
                        segs.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                parts.next();
            }
        }
        // A path from the module itself: one of its child modules (`use open::Stream;` in
        // `input`, `use cli::Cli;` in the crate root), or an external crate.
        Some(first) => {
            let child = if from.is_empty() {
                first.to_string()
            } else {
                format!("{from}::{first}")
            };
            if !modules.contains(&child) {
                return None;
            }
            segs = from.split("::").filter(|s| !s.is_empty()).collect();
        }
        None => return None,
    }
    segs.extend(parts);
    (0..=segs.len())
        .rev()
        .map(|n| segs[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// The two sibling modules through which `from` uses `to`, unless one holds the other.
fn sibling_pair(from: &str, to: &str) -> Option<(String, String)> {
    let a: Vec<&str> = from.split("::").filter(|s| !s.is_empty()).collect();
    let b: Vec<&str> = to.split("::").filter(|s| !s.is_empty()).collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == a.len() || common == b.len() {
        return None;
    }
    Some((a[..=common].join("::"), b[..=common].join("::")))
}

/// Which sibling uses which, and through which file.
fn sibling_uses() -> BTreeMap<(String, String), String> {
    let sources = sources();
    let modules: BTreeSet<String> = sources.iter().map(|s| s.module.clone()).collect();
    let mut uses = BTreeMap::new();
    for s in &sources {
        let paths = use_paths(&s.code).into_iter().chain(inline_paths(&s.code));
        for p in paths {
            let Some(to) = target(&s.module, &p, &modules) else {
                continue;
            };
            if let Some(pair) = sibling_pair(&s.module, &to) {
                uses.entry(pair).or_insert_with(|| s.module.clone());
            }
        }
    }
    uses
}

/// The layers of `src/`, top to bottom. A module may use the modules of its own layer (with
/// no cycle among them) and those of the layers below it, never one above.
///
/// It is the order of issue #25 with one change: `cli` sits below `cmd`, not beside the crate
/// root. The subcommands read their arguments from it (`cmd::stats` takes `cli::StatsArgs`),
/// and it uses nothing of `cmd` (only the vocabulary its flags take, from `output`, `rules`,
/// `analysis` and `model`); only the root, which parses and dispatches, is above both.
/// `error` (the error that ends a run) is one of the small base modules, so that `cmd`
/// takes it from below rather than from the root that calls it.
const LAYERS: &[&[&str]] = &[
    // The binary and the library's root: parse, dispatch, map the outcome to an exit code.
    &[ROOT],
    // Glue: one file per subcommand.
    &["cmd"],
    // The command line's definition (every clap type in one place).
    &["cli"],
    // The only writer to stdout and stderr.
    &["output"],
    // Lint's fixes applied to copies, checked, written (`repair`).
    &["repair"],
    // What the commands compute from the facts below: lint rules and their configuration,
    // the replay Codex runs on resume, a fork's lineage on disk.
    &["rules", "replay", "lineage", "config"],
    // The shared per-file analyses, what a record's text holds, and what Codex's state
    // databases say of a rollout.
    &["analysis", "content", "statedb"],
    // The payloads typed, findings as data, discovery and opening of inputs, Codex's reading
    // per version.
    &["model", "findings", "input", "codex"],
    // The line decoder and the small base modules.
    &[
        "decode", "time", "exit", "parallel", "budget", "error", "fifo",
    ],
];

/// Modules outside the table: they may use any module, and none may use them (`fuzz`, the
/// properties the fuzz targets check, is used from `fuzz/`; `testkit` only by tests).
const FREE: &[&str] = &["fuzz", "testkit"];

/// The crate root's module path (`lib.rs`, and the binary's `main.rs`).
const ROOT: &str = "";

/// Imports from a layer above that are known, and owned by work under way elsewhere: each
/// `(module, imported module, why it is allowed for now)`. Empty it as that work lands; an
/// entry that no longer matches an import fails the test, so none outlives its import.
/// (`output::json` taking `analysis::calls::Text` is not one: it points down the table.)
const PENDING: &[(&str, &str, &str)] = &[];

/// The top-level module of a module path (`analysis` for `analysis::turns::log`).
fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or(ROOT)
}

/// How to name a module in a message: the root as `crate`.
fn shown(module: &str) -> &str {
    if module.is_empty() {
        "crate"
    } else {
        module
    }
}

/// The layer of a top-level module (0 is the top), `None` for the free ones.
fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&top))
}

/// Every use of one module by another, as `(module, imported module)`, test code left out.
fn uses() -> BTreeSet<(String, String)> {
    let sources = sources();
    let modules: BTreeSet<String> = sources.iter().map(|s| s.module.clone()).collect();
    let mut out = BTreeSet::new();
    for s in &sources {
        let paths = use_paths(&s.code).into_iter().chain(inline_paths(&s.code));
        for p in paths {
            if let Some(to) = target(&s.module, &p, &modules) {
                out.insert((s.module.clone(), to));
            }
        }
    }
    out
}

/// What `from` using `to` breaks, if anything: an import from a layer above, or of a module
/// outside the table.
fn upward(from: &str, to: &str) -> Option<String> {
    let (a, b) = (top(from), top(to));
    if a == b || FREE.contains(&a) {
        return None;
    }
    let (la, lb) = (layer_of(a)?, layer_of(b));
    match lb {
        None => Some(format!(
            "{} -> {} (used by tests only)",
            shown(from),
            shown(to)
        )),
        Some(lb) if lb < la => Some(format!(
            "{} -> {} (layer {} above layer {})",
            shown(from),
            shown(to),
            lb,
            la
        )),
        _ => None,
    }
}

#[test]
fn every_module_has_one_place_in_the_layers() {
    let mut placed: Vec<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    placed.extend(FREE);
    let unique: BTreeSet<&str> = placed.iter().copied().collect();
    assert_eq!(
        unique.len(),
        placed.len(),
        "a module named twice: {placed:?}"
    );
    let tops: BTreeSet<String> = sources()
        .iter()
        .map(|s| top(&s.module).to_string())
        .collect();
    let missing: Vec<&String> = tops
        .iter()
        .filter(|t| !unique.contains(t.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "modules with no place in LAYERS or FREE (tests/cli/layers.rs): {missing:?}"
    );
    let gone: Vec<&&str> = unique.iter().filter(|m| !tops.contains(**m)).collect();
    assert!(
        gone.is_empty(),
        "LAYERS names modules src/ no longer has: {gone:?}"
    );
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let uses = uses();
    assert!(uses.len() > 100, "the check sees the crate: {uses:?}");
    let found: BTreeSet<(String, String)> = uses
        .iter()
        .filter(|(from, to)| upward(from, to).is_some())
        .cloned()
        .collect();
    let pending: BTreeSet<(String, String)> = PENDING
        .iter()
        .map(|(a, b, _)| (a.to_string(), b.to_string()))
        .collect();
    let offending: Vec<String> = found
        .iter()
        .filter(|u| !pending.contains(*u))
        .filter_map(|(from, to)| upward(from, to))
        .collect();
    assert!(
        offending.is_empty(),
        "imports from a layer above (module -> imported module), against the table LAYERS \
         in tests/cli/layers.rs:\n  {}\n",
        offending.join("\n  ")
    );
    let stale: Vec<String> = pending
        .difference(&found)
        .map(|(a, b)| format!("{} -> {}", shown(a), shown(b)))
        .collect();
    assert!(
        stale.is_empty(),
        "PENDING entries with no such import any more (remove them): {stale:?}"
    );
}

#[test]
fn no_cycle_between_the_modules_of_one_layer() {
    // Which top-level module uses which, within a layer, through which module.
    let mut edges: BTreeMap<(&str, &str), (String, String)> = BTreeMap::new();
    let uses = uses();
    for (from, to) in &uses {
        let (a, b) = (top(from), top(to));
        if a != b && layer_of(a).is_some() && layer_of(a) == layer_of(b) {
            edges
                .entry((a, b))
                .or_insert_with(|| (from.clone(), to.clone()));
        }
    }
    let reaches = |start: &str, goal: &str| {
        let mut seen = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(m) = todo.pop() {
            for &(a, b) in edges.keys() {
                if a == m && seen.insert(b) {
                    todo.push(b);
                }
            }
        }
        seen.contains(goal)
    };
    let cycles: Vec<String> = edges
        .iter()
        .filter(|((a, b), _)| reaches(b, a))
        .map(|(_, (from, to))| format!("{} -> {}", shown(from), shown(to)))
        .collect();
    assert!(
        cycles.is_empty(),
        "modules of one layer using each other, in a cycle (module -> imported module):\n  {}\n",
        cycles.join("\n  ")
    );
}

#[test]
fn no_two_sibling_modules_use_each_other() {
    let uses = sibling_uses();
    assert!(uses.len() > 20, "the check sees the crate: {uses:?}");
    let mut both = Vec::new();
    for ((a, b), via) in &uses {
        if a < b {
            if let Some(back) = uses.get(&(b.clone(), a.clone())) {
                both.push(format!("{a} ({via}) <-> {b} ({back})"));
            }
        }
    }
    assert!(
        both.is_empty(),
        "sibling modules using each other: {both:#?}"
    );
}

#[test]
fn no_subcommand_file_uses_another() {
    let crossed: Vec<String> = sibling_uses()
        .into_iter()
        .filter(|((a, b), _)| a.starts_with("cmd::") && b.starts_with("cmd::"))
        .map(|((a, b), _)| format!("{a} -> {b}"))
        .collect();
    assert!(crossed.is_empty(), "{crossed:?}");
}

#[test]
fn no_source_file_holds_more_than_1000_lines_outside_its_tests() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|s| s.lines_outside_tests > 1000)
        .map(|s| format!("{}: {}", s.module, s.lines_outside_tests))
        .collect();
    assert!(long.is_empty(), "{long:?}");
}

#[test]
fn the_checks_see_what_they_look_for() {
    let mut out = Vec::new();
    expand("", "crate::a::{self, b as B, c::{d,e}}", &mut out);
    assert_eq!(
        out,
        [
            "crate::a",
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e"
        ]
    );
    let modules: BTreeSet<String> = ["", "a", "a::b", "c"].map(String::from).into();
    assert_eq!(
        target("a::b", "super::super::c::X", &modules).as_deref(),
        Some("c")
    );
    assert_eq!(
        target("a::b", "crate::a::b::f", &modules).as_deref(),
        Some("a::b")
    );
    assert_eq!(
        sibling_pair("a::b::x", "a::c::y"),
        Some(("a::b".into(), "a::c".into()))
    );
    assert_eq!(sibling_pair("a::b", "a"), None);
    assert_eq!(
        use_paths("pub use crate::x::{Y, z::W};\nuse std::io;"),
        ["crate::x::Y", "crate::x::z::W", "std::io"]
    );
    assert_eq!(target("", "c::X", &modules).as_deref(), Some("c"));
    assert_eq!(target("a", "b::f", &modules).as_deref(), Some("a::b"));
    assert_eq!(target("a", "serde::Serialize", &modules), None);
    assert_eq!(
        inline_paths("use crate::{a, b};\nlet x = crate::c::f(super::d);"),
        ["crate::c::f", "super::d"]
    );
    assert_eq!(
        without_comment("let s = \"a // b\"; // crate::x"),
        "let s = \"a // b\";"
    );
    let code =
        "use a;\n#[cfg(test)]\nmod t;\n    #[cfg(test)]\n    /// doc\n    fn f() {\n        \
                g();\n    }\nuse b;\n#[cfg(test)]\nmod tests {\n    use crate::x;\n}\nuse c;";
    assert_eq!(outside_tests(code), ["use a;", "use b;", "use c;"]);
    assert_eq!(
        upward("decode::scan", "model"),
        Some("decode::scan -> model (layer 7 above layer 8)".into())
    );
    assert_eq!(
        upward("cmd::stats", ""),
        Some("cmd::stats -> crate (layer 0 above layer 1)".into())
    );
    assert_eq!(upward("cmd::stats", "cli"), None);
    assert_eq!(upward("fuzz", "cmd"), None);
    assert!(upward("input", "fuzz").is_some());
}

/// `cargo fmt` does not reach the rule units: their modules are declared inside `group!`,
/// where rustfmt does not follow them. This runs rustfmt on them itself (as `cargo fmt
/// --check` would), so CI's format check covers them too.
#[test]
fn the_rule_units_are_formatted_as_cargo_fmt_would() {
    let files: Vec<std::path::PathBuf> = walkdir::WalkDir::new(root().join("src/rules"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    assert!(files.len() > 50);
    let out = match std::process::Command::new("rustfmt")
        .args(["--edition", "2021", "--check", "-l"])
        .args(&files)
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: no rustfmt ({e})");
            return;
        }
    };
    let unformatted = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "not formatted (run `rustfmt --edition 2021` on them): {unformatted}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The code of `text` with its comments, strings and character literals blanked (each kept
/// as a space, line breaks kept), so braces can be counted: `'{'`, `"{}"`, `r#"}"#` and
/// `// {` hold none. A lifetime (`'a`) is left as it is.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| {
        for &c in s {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            rest.windows(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |k| k + 2)
        } else if rest.starts_with(b"r\"") || rest.starts_with(b"r#") {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let open = 2 + hashes;
            rest.get(open..)
                .and_then(|r| r.windows(close.len()).position(|w| w == close.as_slice()))
                .map_or(rest.len(), |k| open + k + close.len())
        } else if rest[0] == b'"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != b'"' {
                k += if rest[k] == b'\\' { 2 } else { 1 };
            }
            (k + 1).min(rest.len())
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{7f}'), not a lifetime ('a followed by no ').
            let k = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (rest.get(1 + ch) == Some(&b'\'')).then_some(2 + ch)
            };
            match k {
                Some(k) => k,
                None => {
                    out.push('\'');
                    i += 1;
                    continue;
                }
            }
        } else {
            out.push(rest[0] as char);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    out
}

/// Each function of `text` longer than `max` lines (signature to closing brace): its name
/// and length. A `fn` is a line whose code starts with it (after `pub`, `const`, `async`,
/// `unsafe`); a declaration without a body is none.
fn long_functions(text: &str, max: usize) -> Vec<(String, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|w| *w == "fn") else {
            continue;
        };
        let prefix_ok = words[..at]
            .iter()
            .all(|w| matches!(*w, "pub" | "const" | "async" | "unsafe") || w.starts_with("pub("));
        if !prefix_ok {
            continue;
        }
        let name: String = words
            .get(at + 1)
            .map(|w| {
                w.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect()
            })
            .unwrap_or_default();
        let mut depth = 0i64;
        let mut opened = false;
        for (k, l) in lines.iter().enumerate().skip(start) {
            if !opened && depth == 0 && l.contains(';') && !l.contains('{') {
                break;
            }
            for c in l.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth <= 0 {
                let len = k - start + 1;
                if len > max {
                    out.push((name.clone(), len));
                }
                break;
            }
        }
    }
    out
}

/// No function over about 100 lines in `src/replay/` and `src/cmd/`, the code a reader
/// follows to see what a command does (issue #25).
#[test]
fn no_function_in_the_replay_or_the_commands_is_over_100_lines() {
    let mut long = Vec::new();
    for dir in ["src/replay", "src/cmd"] {
        for entry in walkdir::WalkDir::new(root().join(dir)) {
            let path = entry.unwrap().into_path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (name, len) in long_functions(&text, 100) {
                long.push(format!("{}: fn {name}, {len} lines", path.display()));
            }
        }
    }
    assert!(long.is_empty(), "split these: {long:#?}");
}

#[test]
fn the_function_lengths_are_counted_past_braces_in_strings_and_comments() {
    let body = "    let x = 1;\n".repeat(3);
    let text = format!(
        "pub(crate) fn a() {{\n    let s = \"}}\";\n    let c = '}}';\n    // }}\n{body}}}\nfn b<'x>(v: &'x str) -> &'x str {{\n    let r = r#\"{{\"#;\n    v\n}}\nfn decl();\n"
    );
    assert_eq!(
        long_functions(&text, 0),
        [("a".to_string(), 8), ("b".to_string(), 4)]
    );
    assert_eq!(long_functions(&text, 7), [("a".to_string(), 8)]);
}
