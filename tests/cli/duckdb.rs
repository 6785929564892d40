//! The recipe "A team's sessions in DuckDB" of `docs/recipes.md` runs as the page writes it,
//! on a team made of the real rollouts in `testdata/real`, and DuckDB's tables hold the
//! numbers of the NDJSON rollscope wrote. The commands are read from the page, so it cannot
//! rot. (The docs' example runner leaves the block alone, `console,ignore`: what DuckDB
//! prints is the team's.) Skipped where `duckdb` is not installed; a failure under CI.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::util::*;

const SECTION: &str = "## A team's sessions in DuckDB";

/// The `$ ` commands of the section's console block, in order.
fn recipe() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs/recipes.md")).unwrap();
    let start = text
        .find(SECTION)
        .unwrap_or_else(|| panic!("docs/recipes.md has no `{SECTION}`"));
    let rest = &text[start + SECTION.len()..];
    let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let blocks = crate::docs::blocks(section);
    let block = blocks
        .iter()
        .find(|b| b.info.starts_with("console"))
        .unwrap_or_else(|| panic!("`{SECTION}` has no console block"));
    block
        .lines
        .iter()
        .map(|l| {
            l.strip_prefix("$ ")
                .unwrap_or_else(|| panic!("`{SECTION}`: a line that is no `$ command`: {l}"))
                .to_string()
        })
        .collect()
}

/// A team of three under `dir/team/`, each a Codex home's session folders holding real
/// rollouts: alice's Codex 0.171 sessions, bob's 0.147 ones and (archived) his 0.128 ones,
/// carol's 0.36 and 0.80 ones.
fn team(dir: &Path) {
    for (who, folder, version) in [
        ("alice", "sessions", "0.171.0"),
        ("bob", "sessions", "0.147.0"),
        ("bob", "archived_sessions", "0.128.0"),
        ("carol", "sessions", "0.36.0"),
        ("carol", "sessions", "0.80.0"),
    ] {
        let day = dir.join("team").join(who).join(folder).join("2026/11/29");
        std::fs::create_dir_all(&day).unwrap();
        for f in rollouts_under(&testdata(&format!("real/{version}"))) {
            let to = day.join(f.file_name().unwrap());
            assert!(!to.exists(), "two rollouts named {}", to.display());
            std::fs::copy(&f, to).unwrap();
        }
    }
}

/// A table DuckDB drew (its box mode): the column names and the rows, each cell trimmed.
fn table(printed: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = printed.lines().filter(|l| l.starts_with('│')).map(|l| {
        l.trim_matches('│')
            .split('│')
            .map(|c| c.trim().to_string())
            .collect::<Vec<_>>()
    });
    let names = lines.next().unwrap_or_default();
    let _types = lines.next();
    (names, lines.collect())
}

/// The person a row's path belongs to: the folder after `team/`, as the recipe's
/// `regexp_extract(path, 'team/([^/]+)/', 1)` reads it.
fn who(row: &Value) -> String {
    let path = row["path"].as_str().unwrap();
    let rest = &path[path.find("team/").unwrap() + "team/".len()..];
    rest[..rest.find('/').unwrap()].to_string()
}

/// A value as DuckDB shows it in a table: `NULL` for null.
fn shown(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// Rows keyed by their leading `key` cells, the rest their values: a table's rows, which
/// DuckDB may print in any order where the query does not fix it.
fn keyed(rows: &[Vec<String>], key: usize) -> BTreeMap<Vec<String>, Vec<String>> {
    rows.iter()
        .map(|r| (r[..key].to_vec(), r[key..].to_vec()))
        .collect()
}

#[test]
fn the_duckdb_recipe_runs_on_a_team_and_its_tables_hold_rollscope_s_numbers() {
    let Some(_) = tool("duckdb", "the DuckDB recipe of docs/recipes.md did not run") else {
        return;
    };
    let Some(bash) = tool("bash", "the DuckDB recipe of docs/recipes.md did not run") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    team(dir.path());
    let bin = Path::new(env!("CARGO_BIN_EXE_rollscope"));
    let mut dirs = vec![bin.parent().unwrap().to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let commands = recipe();
    assert!(commands.len() >= 4, "{commands:#?}");
    let mut tables = Vec::new();
    for command in &commands {
        let mut c = Command::new(&bash);
        c.args(["-o", "pipefail", "-c", command])
            .current_dir(dir.path())
            .env("PATH", std::env::join_paths(&dirs).unwrap())
            .env("HOME", dir.path())
            .env("TZ", "UTC")
            .env("LC_ALL", "C.UTF-8");
        for var in [
            "COLUMNS",
            "LINES",
            "CODEX_HOME",
            "NO_COLOR",
            "ROLLSCOPE_PROGRESS",
        ] {
            c.env_remove(var);
        }
        let out = c.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.is_empty(),
            "`{command}` exited {:?}:\n{stderr}\n{stdout}",
            out.status.code()
        );
        if command.starts_with("duckdb ") && !stdout.is_empty() {
            tables.push((command.clone(), table(&stdout)));
        }
    }

    // What rollscope wrote, every person's sessions and archived ones.
    let read = |name: &str| ndjson(&std::fs::read(dir.path().join(name)).unwrap());
    let turns = read("turns.ndjson");
    let calls = read("calls.ndjson");
    assert!(
        turns.len() > 40 && calls.len() > 40,
        "{} {}",
        turns.len(),
        calls.len()
    );
    assert!(turns
        .iter()
        .any(|t| t["path"].as_str().unwrap().contains("/archived_sessions/")));

    // Each query the recipe prints, known by its columns.
    let mut checked = Vec::new();
    for (command, (names, rows)) in &tables {
        let got = match names.join(",").as_str() {
            "who,model,turns,tokens" => {
                let mut want: BTreeMap<Vec<String>, (u64, Option<u64>)> = BTreeMap::new();
                for t in &turns {
                    let e = want.entry(vec![who(t), shown(&t["model"])]).or_default();
                    e.0 += 1;
                    if let Some(n) = t["tokens"]["total_tokens"].as_u64() {
                        e.1 = Some(e.1.unwrap_or(0) + n);
                    }
                }
                let want: BTreeMap<_, _> = want
                    .into_iter()
                    .map(|(k, (n, tokens))| {
                        let tokens = tokens.map_or("NULL".into(), |t| t.to_string());
                        (k, vec![n.to_string(), tokens])
                    })
                    .collect();
                assert_eq!(want.len(), rows.len(), "`{command}`: {rows:?}");
                assert_eq!(keyed(rows, 2), want, "`{command}`");
                let people: BTreeSet<&str> = want.keys().map(|k| k[0].as_str()).collect();
                assert_eq!(people, BTreeSet::from(["alice", "bob", "carol"]));
                "turns and tokens per person and model"
            }
            "who,status,count_star()" => {
                let mut want: BTreeMap<Vec<String>, u64> = BTreeMap::new();
                for t in &turns {
                    let status = t["status"].as_str().unwrap();
                    if ["stale", "aborted", "failed"].contains(&status) {
                        *want.entry(vec![who(t), status.to_string()]).or_default() += 1;
                    }
                }
                let want: BTreeMap<_, _> = want
                    .into_iter()
                    .map(|(k, n)| (k, vec![n.to_string()]))
                    .collect();
                assert!(!want.is_empty());
                assert_eq!(want.len(), rows.len(), "`{command}`: {rows:?}");
                assert_eq!(keyed(rows, 2), want, "`{command}`");
                "turns that did not complete, per person"
            }
            "name,calls,avg_ms,errors" => {
                let mut want: BTreeMap<Vec<String>, (u64, u64)> = BTreeMap::new();
                for c in &calls {
                    let e = want.entry(vec![shown(&c["name"])]).or_default();
                    e.0 += 1;
                    e.1 += u64::from(c["status"] == "error");
                }
                assert_eq!(want.len(), rows.len(), "`{command}`: {rows:?}");
                let got: BTreeMap<_, _> = rows
                    .iter()
                    .map(|r| (vec![r[0].clone()], (r[1].clone(), r[3].clone())))
                    .collect();
                let want: BTreeMap<_, _> = want
                    .into_iter()
                    .map(|(k, (n, errors))| (k, (n.to_string(), errors.to_string())))
                    .collect();
                assert_eq!(got, want, "`{command}`");
                "calls and errors per tool"
            }
            _ => continue,
        };
        checked.push(got);
    }
    assert!(
        checked.contains(&"turns and tokens per person and model"),
        "no query of the recipe printed turns and tokens per person ({checked:?}); \
         update this test with the recipe"
    );
}
