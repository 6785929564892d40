//! The shape of `src/`, checked: no two sibling modules use each other, no subcommand file
//! uses another one, no file holds more than 1000 lines outside its tests. (That nothing
//! but `src/output/` writes to stdout or stderr is clippy's check: `clippy.toml`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::util::root;

/// A source file of the crate: its module path (`analysis::turns::log`; `""` for the
/// crate root) and its code before the test module, comments left out.
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
        let outside_tests: Vec<&str> = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .collect();
        let code = outside_tests
            .iter()
            .filter(|l| !l.trim_start().starts_with("//"))
            .copied()
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

/// Every `crate::…` and `super::…` path written in `code` outside `use` items.
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
            out.push(path.trim_end_matches(':').to_string());
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
        _ => return None,
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
