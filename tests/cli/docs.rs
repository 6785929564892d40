//! The documentation is checked against the program, so that it cannot rot: every
//! ```` ```console ```` example of README.md and docs/*.md runs and prints what it shows
//! ([`examples`]; `BLESS=1` rewrites the shown output).
//!
//! Failures are collected and reported together, each naming the page and line.

mod examples;

use std::path::{Path, PathBuf};

use crate::util::*;

// ---------------------------------------------------------------------------------------
// Reading the pages

/// A page of the documentation: its path from the project root and its text.
struct Page {
    rel: String,
    text: String,
}

fn page(rel: &str) -> Page {
    let text = std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    Page {
        rel: rel.to_string(),
        text,
    }
}

/// README.md and every `docs/*.md`, in that order.
fn pages() -> Vec<Page> {
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
struct Block {
    info: String,
    first: usize,
    lines: Vec<String>,
}

/// The info string of a line that opens or closes a code fence (three backquotes at the
/// start of the line, not four: ```` ```` ```` is a code span in prose).
fn fence(line: &str) -> Option<&str> {
    line.strip_prefix("```")
        .filter(|rest| !rest.starts_with('`'))
}

/// The fenced code blocks of a page, in order.
fn blocks(text: &str) -> Vec<Block> {
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
