//! `man`: rollscope(1) and one page per subcommand, generated from the clap definition,
//! committed under `docs/man/` and checked fresh; the top page names only pages there are
//! (it listed `rollscope-stats(1)` and others that did not exist), and `--help` lists `man`.

use std::collections::BTreeMap;
use std::path::Path;

use clap::CommandFactory;

use crate::util::*;

/// The subcommands `--help` lists, but `help`: each has a page.
fn subcommands() -> Vec<String> {
    let mut cli = rollscope::cli::Cli::command();
    cli.build();
    cli.get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .map(|c| c.get_name().to_string())
        .collect()
}

/// Every page (`*.1`) of a directory: name → bytes.
fn pages_in(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut pages = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".1") {
            pages.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    pages
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn man_pages_are_generated_from_the_cli_and_match_the_committed_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("new/man1");
    output(&["man", "--dir", out_dir.to_str().unwrap()], 0);
    let generated = pages_in(&out_dir);
    let committed_dir = root().join("docs/man");
    if std::env::var_os("BLESS").is_some() {
        std::fs::create_dir_all(&committed_dir).unwrap();
        for name in pages_in(&committed_dir).keys() {
            std::fs::remove_file(committed_dir.join(name)).unwrap();
        }
        for (name, page) in &generated {
            std::fs::write(committed_dir.join(name), page).unwrap();
        }
    }
    let committed = pages_in(&committed_dir);
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&committed),
        names(&generated),
        "docs/man/ holds other pages than `man --dir` writes: rerun this test with BLESS=1"
    );
    for (name, page) in &generated {
        assert!(
            committed[name] == *page,
            "docs/man/{name} is stale: rerun this test with BLESS=1"
        );
    }
    // One page per subcommand, and the top page; each is what `man [COMMAND]` prints.
    let mut want = vec!["rollscope.1".to_string()];
    want.extend(subcommands().iter().map(|s| format!("rollscope-{s}.1")));
    want.sort();
    assert_eq!(names(&generated), want);
    assert_eq!(output(&["man"], 0).stdout, generated["rollscope.1"]);
    for sub in subcommands() {
        let page = &generated[&format!("rollscope-{sub}.1")];
        assert_eq!(output(&["man", &sub], 0).stdout, *page, "man {sub}");
    }
}

/// Roff escapes `-` as `\-`.
fn roff(name: &str) -> String {
    name.replace('-', "\\-")
}

#[test]
fn the_top_page_lists_exactly_the_subcommand_pages_there_are() {
    let top = text(&output(&["man"], 0).stdout);
    assert!(top.starts_with(".ie"), "{top}");
    assert!(top.contains("\n.TH rollscope 1 "), "{top}");
    let listed: Vec<String> = top
        .lines()
        .filter_map(|l| l.strip_prefix("rollscope\\-")?.strip_suffix("(1)"))
        .map(|s| s.replace("\\-", "-"))
        .collect();
    assert_eq!(listed, subcommands());
    for sub in &listed {
        let page = text(&output(&["man", sub], 0).stdout);
        // Named as the top page names it, not `rollscope` (each subcommand's display name).
        let th = format!(
            "\n.TH rollscope-{sub} 1  \"rollscope {}\"",
            env!("CARGO_PKG_VERSION")
        );
        assert!(page.contains(&th), "{sub}: {page}");
        let name = format!("\n.SH NAME\n{} \\- ", roff(&format!("rollscope-{sub}")));
        assert!(page.contains(&name), "{sub}: {page}");
        let synopsis = format!(
            "\n.SH SYNOPSIS\n\\fB{}\\fR",
            roff(&format!("rollscope {sub}"))
        );
        assert!(page.contains(&synopsis), "{sub}: {page}");
    }
}

#[test]
fn help_lists_man() {
    for flag in ["-h", "--help"] {
        let help = text(&output(&[flag], 0).stdout);
        assert!(
            help.lines().any(|l| l.trim_start().starts_with("man ")),
            "{flag}: {help}"
        );
    }
}

#[test]
fn man_of_no_subcommand_or_into_an_unwritable_place_is_a_usage_error() {
    let out = output(&["man", "no-such-command"], 2);
    assert!(out.stdout.is_empty());
    // `help` has no page.
    output(&["man", "help"], 2);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = output(&["man", "--dir", file.to_str().unwrap()], 2);
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("rollscope: "), "{err}");
    assert!(err.contains(file.to_str().unwrap()), "{err}");
    output(&["man", "stats", "--dir", tmp.path().to_str().unwrap()], 2);
}
