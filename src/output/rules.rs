//! The rule registry as a document: `docs/rules.md` is this page, generated (a test fails
//! when the committed page is out of date).

use std::fmt::Write;

use crate::findings::{FixWhen, Rule};

/// A rule's documentation as Markdown: its doc comment, each line without the one space
/// that follows `///`.
pub fn doc_markdown(rule: Rule) -> String {
    rule.doc()
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `docs/rules.md`: an index of every rule, then each rule's documentation.
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str(
        "# Rules\n\n\
         Every finding rollscope reports names one of these rules. `replay --view state` \
         reports the rules about what a resume rebuilds; `check-ordinal` reports the \
         `ordinal.*` and `history_base.*` rules. Severity follows what the real Codex does \
         with such a file: **error** when it refuses the file or loses records or history on \
         resume, or a format rule readers rely on is broken; **warning** when it copes but \
         something is wrong or lossy; **info** for facts worth knowing.\n\n\
         This page is generated from the rule units (`src/rules/<group>/<name>.rs`); do \
         not edit it by hand. `BLESS=1 cargo test --test cli rules_page` writes it again.\n\n\
         A rule whose cure is mechanical gives its findings a fix: edits, and whether they \
         are *safe* (what the real Codex rebuilds from the file, the model's history and \
         what a client is shown, is unchanged or restored, and no record Codex uses is lost) \
         or *unsafe*. Each rule's section says what its fix does and on what evidence. \
         Nothing writes them yet.\n\n\
         | rule | group | severity | fix | summary |\n|---|---|---|---|---|\n",
    );
    for &r in crate::rules::all() {
        let anchor: String = r
            .slug()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
            .collect();
        let _ = writeln!(
            out,
            "| [`{}`](#{anchor}) | `{}` | {} | {} | {} |",
            r.slug(),
            r.group(),
            r.default_severity().as_str(),
            fixes(r),
            r.summary()
        );
    }
    for &r in crate::rules::all() {
        let _ = write!(
            out,
            "\n## `{}`\n\nGroup `{}`, severity **{}**, fix {}: {}.\n\n{}\n",
            r.slug(),
            r.group(),
            r.default_severity().as_str(),
            fixes(r),
            r.summary(),
            doc_markdown(r)
        );
    }
    out
}

/// When a rule's findings carry a fix, and how safe: `sometimes (safe, unsafe)`, `none`.
fn fixes(rule: Rule) -> String {
    let f = rule.fixes();
    let when = match f.when {
        FixWhen::Never => return "none".to_string(),
        FixWhen::Sometimes => "sometimes",
        FixWhen::Always => "always",
    };
    let how: Vec<&str> = f.applicabilities.iter().map(|a| a.as_str()).collect();
    format!("{when} ({})", how.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_an_index_row_and_a_section() {
        let page = markdown();
        for &r in crate::rules::all() {
            assert!(page.contains(&format!("[`{}`]", r.slug())));
            assert!(page.contains(&format!("\n## `{}`\n", r.slug())));
        }
        assert!(!doc_markdown(crate::rules::file::bom::RULE).starts_with(' '));
    }
}
