//! `lint`'s own words: the closing count, and a rule's documentation (`--explain`). Its
//! findings are written by [`super::diagnostics`].

use owo_colors::OwoColorize;

use super::rules::doc_markdown;
use crate::findings::Rule;

/// The closing count: `2 errors, 1 warning in 3 files`.
/// `read_as`: the Codex version the files were read as, in words.
pub fn summary(
    errors: usize,
    warnings: usize,
    infos: usize,
    files: usize,
    read_as: &str,
) -> String {
    let n = |k: usize, what: &str| super::counted(k as u64, what);
    let mut parts = vec![n(errors, "error"), n(warnings, "warning")];
    if infos > 0 {
        parts.push(n(infos, "info"));
    }
    let text = format!("{} in {}, {read_as}", parts.join(", "), n(files, "file"));
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

    #[test]
    fn the_summary_counts_in_words() {
        assert_eq!(
            summary(0, 1, 0, 1, "read as X"),
            "0 errors, 1 warning in 1 file, read as X"
        );
        assert!(summary(2, 0, 1, 3, "r").contains("2 errors, 0 warnings, 1 info in 3 files, r"));
    }
}
