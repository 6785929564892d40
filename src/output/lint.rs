//! `lint`'s own words: a rule's documentation (`--explain`). Its findings, and the closing
//! count it shares with `check-ordinal`, are written by [`super::diagnostics`].

use std::io::{self, Write};

use super::rules::doc_markdown;
use super::{prose, table, ColorWhen};
use crate::findings::Rule;

/// `--explain SLUG`: the rule's title line and its documentation, rendered from its
/// Markdown: at a terminal wrapped at words to its width (`width`), in bold, italics and
/// color where `color` is on; in a pipe plain text, a paragraph a line.
pub fn explain(rule: Rule, width: Option<usize>, color: bool) -> String {
    let title = format!(
        "{} ({}, group {}): {}",
        rule.slug(),
        rule.default_severity().as_str(),
        rule.group(),
        rule.summary(),
    );
    let title = match width {
        Some(w) => prose::wrap("", &title, 2, w).join("\n"),
        None => title,
    };
    format!(
        "{title}\n\n{}",
        prose::markdown(&doc_markdown(rule), width, color)
    )
}

/// Write `--explain SLUG` to stdout: fitted and styled for a terminal, plain in a pipe.
pub fn write_explain(rule: Rule, color: ColorWhen) -> io::Result<()> {
    let choice = match color.choice() {
        anstream::ColorChoice::Auto => anstream::AutoStream::choice(&io::stdout()),
        c => c,
    };
    let styled = choice != anstream::ColorChoice::Never;
    let text = explain(rule, table::stdout_width(), styled);
    let mut w = anstream::AutoStream::new(io::stdout().lock(), choice);
    w.write_all(text.as_bytes())?;
    w.flush()
}
