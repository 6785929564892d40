//! `lint`'s own words: a rule's documentation (`--explain`). Its findings, and the closing
//! count it shares with `check-ordinal`, are written by [`super::diagnostics`].

use super::rules::doc_markdown;
use crate::findings::Rule;

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
