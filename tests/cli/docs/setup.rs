//! The README's set-up section (the two commands that run the sample data and the tests)
//! says what they need before they work: the Rust version `Cargo.toml` asks for, `jq` for
//! the examples that pipe into it, and how long the release build takes, so that a
//! newcomer on a small machine is not left wondering (issue #31, item 7).

use super::{examples, page, report};
use crate::util::root;

/// The `## ` section of the README that holds the `cargo test` command.
fn setup_section(readme: &str) -> Option<String> {
    let mut sections: Vec<String> = Vec::new();
    for line in readme.lines() {
        if line.starts_with("## ") || sections.is_empty() {
            sections.push(String::new());
        }
        let s = sections.last_mut().unwrap();
        s.push_str(line);
        s.push('\n');
    }
    sections
        .into_iter()
        .find(|s| s.lines().any(|l| l.trim() == "cargo test"))
}

/// The paragraphs of a text: runs of lines between blank lines, joined by spaces.
fn paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

/// Every `Rust 1.NN` (or `1.NN.P`) a text names, as written.
fn rust_versions(text: &str) -> Vec<String> {
    text.match_indices("Rust ")
        .map(|(i, m)| {
            text[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect::<String>()
                .trim_end_matches('.')
                .to_string()
        })
        .filter(|v| v.starts_with("1."))
        .collect()
}

/// Does a paragraph give a number of minutes (`4 minutes`, `3–5 minutes`, `10½ minutes`)?
fn gives_minutes(p: &str) -> bool {
    p.match_indices(" minute").any(|(i, _)| {
        p[..i]
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_digit() || c == '½')
    })
}

#[test]
fn readme_set_up_names_the_rust_version_jq_and_the_build_time() {
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(root().join("Cargo.toml")).unwrap()).unwrap();
    let rust_version = manifest["package"]["rust-version"]
        .as_str()
        .expect("Cargo.toml: package.rust-version")
        .to_string();
    let readme = page("README.md");
    let Some(section) = setup_section(&readme.text) else {
        panic!("README.md: no `## ` section holds the `cargo test` command");
    };
    let heading = section.lines().next().unwrap_or_default().to_string();
    let paras = paragraphs(&section);
    let mut failures = Vec::new();

    // The minimum Rust version: in the set-up section, and the one Cargo.toml asks for
    // wherever the README names one.
    if !rust_versions(&section).contains(&rust_version) {
        failures.push(format!(
            "README.md, {heading}: does not name the minimum Rust version, `Rust {rust_version}` \
             (Cargo.toml's `rust-version`)"
        ));
    }
    for v in rust_versions(&readme.text) {
        if v != rust_version {
            failures.push(format!(
                "README.md: names `Rust {v}`, but Cargo.toml's `rust-version` is {rust_version}"
            ));
        }
    }

    // `jq`: the examples pipe into it, so the set-up says so and how to get it.
    let piped = examples::of(&readme)
        .iter()
        .filter(|ex| examples::uses_jq(&ex.command))
        .count();
    if piped > 0
        && !paras
            .iter()
            .any(|p| p.contains("`jq`") && p.contains("example") && p.contains("install"))
    {
        failures.push(format!(
            "README.md, {heading}: {piped} examples pipe into `jq`, but no paragraph of the \
             set-up says that the examples need `jq` and how to install it"
        ));
    }

    // The release build's time on a small machine, and where the figures are.
    if !paras.iter().any(|p| {
        p.contains("release build")
            && gives_minutes(p)
            && p.contains("core")
            && p.contains("docs/performance.md")
    }) {
        failures.push(format!(
            "README.md, {heading}: no paragraph says how many minutes the release build takes \
             on a machine of few cores (with a link to docs/performance.md, which has the \
             figures)"
        ));
    }
    report("README.md's set-up", failures);
}
