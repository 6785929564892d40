//! Codex's reading per version as a document: `docs/codex-versions.md` is this page, made
//! from the table (`crate::codex::table`; a test fails when the committed page is out of
//! date or a fixture it cites is missing).

use std::fmt::Write;

use crate::codex::{table, Behaviour, Evidence, Row, NEWEST};

/// `docs/codex-versions.md`.
pub fn markdown() -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "# Codex versions\n\n\
         Codex versions read the same rollout differently. `replay`, `lint` and \
         `check-ordinal` read each file as one version does (`--codex VERSION`, or `file` for \
         each file's own `session_meta.cli_version`; `[codex] version` in `rollscope.toml`); \
         by default as the newest version this table knows, **{NEWEST}**, since people \
         resume old files with a current Codex. Every row is a range of versions, and a \
         version below every row reads as the oldest. Every output says which version was \
         used and why (`codex_version`, and `codex_version_source`: `default`, `flag`, \
         `config`, `file`, or `default_no_cli_version` when `--codex file` meets a file that \
         names none).\n\n\
         A finding's severity follows what its defect does under that version: **error** \
         when the resume is refused or loses what the user or the model wrote, **warning** \
         when Codex warns or skips something that leaves the history whole, or when what a \
         client is shown is partial or stuck, **info** when nothing changes. `replay --view \
         state` says the file's `outcome` (`resumes`, `resumes_with_loss`, `refused`) and \
         its `client_view` (`complete`, `partial`, `stuck`), the worst of its findings.\n\n\
         Each row cites its evidence: a fixture of `testdata/` with the real Codex's verdict \
         beside it (made with `corpus-gen/verdicts.py --codex-version V`; \
         `testdata/versions/README.md` says how), or upstream code. Where two tried versions \
         answer differently, the boundary lies where upstream moved it when that is known, \
         else at the later one's release; each row names the versions tried.\n\n\
         This page is generated from `src/codex/table.rs`; do not edit it by hand. \
         `BLESS=1 cargo test --test cli versions_page` writes it again.\n\n\
         The versions the table names: {}.\n",
        table::versions()
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for b in Behaviour::ALL {
        let _ = write!(out, "\n## {}\n\n", b.title());
        let rules = b.rules();
        if !rules.is_empty() {
            let names: Vec<String> = rules
                .iter()
                .map(|r| format!("[`{r}`](rules.md#{})", r.replace('.', "")))
                .collect();
            let _ = writeln!(out, "Findings: {}.\n", names.join(", "));
        }
        out.push_str("| versions | Codex | what it does | evidence |\n|---|---|---|---|\n");
        for row in table::TABLE.iter().filter(|r| r.behaviour == b) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                range(row),
                row.answer.as_str(),
                row.does,
                evidence(row)
            );
        }
    }
    out
}

/// `0.147.0 – 0.153.x`, `0.154.0 and later`.
fn range(row: &Row) -> String {
    match row.until {
        None => format!("{} and later", row.from),
        Some(u) if u.patch == 99 => format!("{} – {}.{}.x", row.from, u.major, u.minor),
        Some(u) => format!("{} – {u}", row.from),
    }
}

fn evidence(row: &Row) -> String {
    let cited: Vec<String> = row
        .evidence
        .iter()
        .map(|e| match e {
            Evidence::Fixture(rel) => format!("`{rel}`"),
            Evidence::Upstream(what) => format!("upstream: {what}"),
        })
        .collect();
    if cited.is_empty() {
        "—".to_string()
    } else {
        cited.join("<br>")
    }
}
