//! `lint`'s findings as people and CI read them: rustc-style diagnostics (`human`), one line
//! each (`concise`), and GitHub workflow annotations. Rows (`ndjson`, `json`) are the
//! command's own. Every text from a rollout is cleaned for the terminal first.

use std::sync::OnceLock;

use owo_colors::OwoColorize;

use super::findings::{message, tone};
use super::rules::doc_markdown;
use super::sanitize::{clean, cut};
use super::Cell;
use crate::findings::{Finding, Rule, Severity, SECTIONS};

/// A finding and where it is shown.
pub struct Shown<'a> {
    pub path: &'a str,
    pub finding: &'a Finding,
    /// The start of the line it points at, when it can be read.
    pub excerpt: Option<&'a str>,
}

/// The rule's fix, one paragraph: the `**Fix.**` section of its documentation (made once
/// per rule: a tree can have tens of thousands of findings).
pub fn help(rule: Rule) -> &'static str {
    static HELP: OnceLock<Vec<String>> = OnceLock::new();
    let all = HELP.get_or_init(|| {
        Rule::ALL
            .iter()
            .map(|&r| {
                let doc = doc_markdown(r);
                let text = doc.split_once(SECTIONS[3]).map_or("", |(_, f)| f);
                text.split("\n\n")
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    });
    // `Rule::ALL` lists the rules in the order of their declaration, so of their
    // discriminants (the `rules!` macro writes both from one list).
    all.get(rule as usize).map_or("", String::as_str)
}

/// `path:line:1` (`path` for a finding about the whole file).
fn location(s: &Shown<'_>) -> String {
    match s.finding.at {
        Some(p) => format!("{}:{}:1", clean(s.path), p.line),
        None => clean(s.path).into_owned(),
    }
}

/// rustc-style: `severity[rule]: message`, `--> path:line:col`, the line's start, `= help:`.
pub fn human(s: &Shown<'_>) -> Vec<Cell> {
    let f = s.finding;
    let head = format!("{}[{}]: {}", f.severity.as_str(), f.rule.slug(), message(f));
    let mut lines = vec![Cell::text(&head).tone(tone(f.severity))];
    lines.push(Cell::text(&format!("  --> {}", location(s))));
    if let (Some(p), Some(ex)) = (f.at, s.excerpt) {
        let n = p.line.to_string();
        let pad = " ".repeat(n.len());
        lines.push(Cell::text(&format!("{pad} |")));
        lines.push(Cell::text(&format!("{n} | {}", cut(ex, 100))));
        lines.push(Cell::text(&format!("{pad} |")));
    }
    lines.push(Cell::text(&format!("  = help: {}", help(f.rule))));
    lines.push(Cell::text(""));
    lines
}

/// `path:line:col: severity[rule] message` (`path: ...` for the whole file).
pub fn concise(s: &Shown<'_>) -> Cell {
    let f = s.finding;
    let text = format!(
        "{}: {}[{}] {}",
        location(s),
        f.severity.as_str(),
        f.rule.slug(),
        message(f)
    );
    Cell::text(&text).tone(tone(f.severity))
}

/// GitHub's escaping of a workflow command's message (`%`, CR, LF).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// GitHub's escaping of a workflow command's property values (also `:` and `,`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// `::error file=PATH,line=N,title=RULE::MESSAGE` (`warning`, `notice` for info; no `line`
/// for a finding about the whole file).
pub fn github(s: &Shown<'_>) -> String {
    let f = s.finding;
    let level = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut props = vec![format!("file={}", escape_property(&clean(s.path)))];
    if let Some(p) = f.at {
        props.push(format!("line={}", p.line));
    }
    props.push(format!("title={}", escape_property(f.rule.slug())));
    let text = format!("{} (help: {})", message(f), help(f.rule));
    format!(
        "::{level} {}::{}",
        props.join(","),
        escape_data(&clean(&text))
    )
}

/// The closing count: `2 errors, 1 warning in 3 files`.
pub fn summary(errors: usize, warnings: usize, infos: usize, files: usize) -> String {
    let n = |k: usize, what: &str| super::counted(k as u64, what);
    let mut parts = vec![n(errors, "error"), n(warnings, "warning")];
    if infos > 0 {
        parts.push(n(infos, "info"));
    }
    let text = format!("{} in {}", parts.join(", "), n(files, "file"));
    if errors > 0 {
        text.red().to_string()
    } else {
        text
    }
}

/// `--explain SLUG`: the rule's title line and its documentation.
pub fn explain(rule: Rule) -> String {
    format!(
        "{} ({}, group {}): {}\n\n{}\n",
        rule.slug(),
        rule.default_severity().as_str(),
        rule.group(),
        rule.summary(),
        doc_markdown(rule)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::Pos;
    use crate::findings::Cause;

    #[test]
    fn github_annotations_escape_as_github_says() {
        assert_eq!(escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        let f = Finding::new(Cause::Bom, Some(Pos { line: 1, offset: 0 }));
        let s = Shown {
            path: "dir,x/a:b.jsonl",
            finding: &f,
            excerpt: None,
        };
        let line = github(&s);
        assert!(
            line.starts_with("::error file=dir%2Cx/a%3Ab.jsonl,line=1,title=file.bom::"),
            "{line}"
        );
        let whole = Finding::new(Cause::NoMeta, None);
        let s = Shown {
            path: "p",
            finding: &whole,
            excerpt: None,
        };
        assert!(github(&s).starts_with("::error file=p,title=meta.missing::"));
    }

    #[test]
    fn every_rule_has_a_one_paragraph_help() {
        for &r in Rule::ALL {
            let h = help(r);
            assert!(!h.is_empty() && !h.contains('\n'), "{}: {h}", r.slug());
        }
    }

    #[test]
    fn the_summary_counts_in_words() {
        assert_eq!(summary(0, 1, 0, 1), "0 errors, 1 warning in 1 file");
        assert!(summary(2, 0, 1, 3).contains("2 errors, 0 warnings, 1 info in 3 files"));
    }
}
