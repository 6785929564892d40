//! The recipe "A team's sessions in DuckDB" of `docs/recipes.md` runs as the page writes it,
//! on teams made of the real rollouts in `testdata/real` (one with an archive, one where
//! nobody has one, one whose last turn id is no UUID after thousands that are), and
//! DuckDB's tables hold every field of the NDJSON rollscope wrote, typed as its values are,
//! and its numbers. The commands are read from the page, so it cannot rot. (The docs'
//! example runner leaves the block alone, `console,ignore`: what DuckDB prints is the
//! team's.) Skipped where `duckdb` is not installed; a failure under CI.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::*;

const SECTION: &str = "## A team's sessions in DuckDB";

/// The `$ ` commands of the section's console block, in order; a line ending in `\`
/// continues on the next (as in the docs' examples).
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
    let mut commands: Vec<String> = Vec::new();
    for l in &block.lines {
        match commands.last_mut() {
            Some(c) if c.ends_with('\\') => {
                c.push('\n');
                c.push_str(l);
            }
            _ => commands.push(
                l.strip_prefix("$ ")
                    .unwrap_or_else(|| panic!("`{SECTION}`: a line that is no `$ command`: {l}"))
                    .to_string(),
            ),
        }
    }
    commands
}

/// A team of three, each a Codex home's session folders holding real rollouts: alice's
/// Codex 0.171 sessions, bob's 0.147 ones and (archived) his 0.128 ones, carol's 0.36 and
/// 0.80 ones.
const TEAM: [(&str, &str, &str); 5] = [
    ("alice", "sessions", "0.171.0"),
    ("bob", "sessions", "0.147.0"),
    ("bob", "archived_sessions", "0.128.0"),
    ("carol", "sessions", "0.36.0"),
    ("carol", "sessions", "0.80.0"),
];

/// The folder of `who`'s sessions under `dir/team/`: `folder` (`sessions` or
/// `archived_sessions`), one day of it.
fn day(dir: &Path, who: &str, folder: &str) -> PathBuf {
    dir.join("team").join(who).join(folder).join("2026/11/29")
}

/// `members` under `dir/team/`: each person, the folder, and the Codex version whose real
/// rollouts it holds.
fn team(dir: &Path, members: &[(&str, &str, &str)]) {
    for &(who, folder, version) in members {
        let day = day(dir, who, folder);
        std::fs::create_dir_all(&day).unwrap();
        for f in rollouts_under(&testdata(&format!("real/{version}"))) {
            let to = day.join(f.file_name().unwrap());
            assert!(!to.exists(), "two rollouts named {}", to.display());
            std::fs::copy(&f, to).unwrap();
        }
    }
}

/// A table DuckDB drew: its column names and its rows.
type Drawn = (Vec<String>, Vec<Vec<String>>);

/// A table DuckDB drew (its box mode): the column names and the rows, each cell trimmed.
fn table(printed: &str) -> Drawn {
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

/// A table's column names and DuckDB types, read back from `team.duckdb` in `dir`.
fn schema(duckdb: &Path, dir: &Path, table: &str) -> Vec<(String, String)> {
    let rows = query(
        duckdb,
        dir,
        &format!(
            "SELECT column_name, data_type FROM information_schema.columns \
             WHERE table_name = '{table}' ORDER BY ordinal_position"
        ),
    );
    rows.iter()
        .map(|r| {
            let text = |k: &str| r[k].as_str().unwrap().to_string();
            (text("column_name"), text("data_type"))
        })
        .collect()
}

/// What DuckDB answers `sql` over `team.duckdb` in `dir`, its rows as JSON objects.
fn query(duckdb: &Path, dir: &Path, sql: &str) -> Vec<Value> {
    let out = Command::new(duckdb)
        .args(["-json", "team.duckdb", "-c", sql])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    if text.trim().is_empty() {
        return Vec::new();
    }
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{sql}: {e}: {text}"))
}

/// Does DuckDB's type `ty` hold the JSON value `v` as it is: a string as `VARCHAR`, a
/// boolean as `BOOLEAN`, an integer as `UBIGINT` or `BIGINT` (a negative one as `BIGINT`),
/// an object as a `STRUCT` with each of its members? (A column DuckDB guessed as `UUID`
/// or `JSON` holds none of them.)
fn holds(ty: &str, v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(_) => ty == "VARCHAR",
        Value::Bool(_) => ty == "BOOLEAN",
        Value::Number(n) if n.is_u64() => ty == "UBIGINT" || (ty == "BIGINT" && n.is_i64()),
        Value::Number(n) if n.is_i64() => ty == "BIGINT",
        Value::Number(_) => false,
        Value::Array(_) => false,
        Value::Object(o) => {
            let Some(members) = ty.strip_prefix("STRUCT(").and_then(|t| t.strip_suffix(')')) else {
                return false;
            };
            let members: BTreeMap<&str, &str> = members
                .split(", ")
                .filter_map(|m| m.split_once(' '))
                .collect();
            o.iter()
                .all(|(k, v)| members.get(k.as_str()).is_some_and(|t| holds(t, v)))
        }
    }
}

/// Every field of rollscope's `rows` is a column of DuckDB's `table`, with a type that
/// holds each of its values, and the table has no other column but `who`.
fn typed_as_written(duckdb: &Path, dir: &Path, table: &str, rows: &[Value]) {
    let columns: BTreeMap<String, String> = schema(duckdb, dir, table).into_iter().collect();
    let mut fields: BTreeSet<&str> = rows
        .iter()
        .flat_map(|r| r.as_object().unwrap().keys().map(String::as_str))
        .collect();
    fields.insert("who");
    let names: BTreeSet<&str> = columns.keys().map(String::as_str).collect();
    assert_eq!(
        names, fields,
        "the recipe's `{table}` table and the fields of rollscope's rows differ: name each \
         field in its read_json's `columns`, with its type"
    );
    for r in rows {
        for (k, v) in r.as_object().unwrap() {
            let ty = &columns[k];
            assert!(holds(ty, v), "{table}.{k}: {ty} does not hold {v}");
        }
    }
}

/// The team under `dir` after the recipe ran there: rollscope's rows, DuckDB's tables.
struct Ran {
    turns: Vec<Value>,
    calls: Vec<Value>,
    /// Each `duckdb` command that printed a table, and that table.
    tables: Vec<(String, Drawn)>,
    duckdb: PathBuf,
}

/// Run the recipe's commands in `dir` (which holds `team/`) as a person would, each of
/// them to succeed without a word on stderr; `None` where `duckdb` or `bash` is missing.
fn run_recipe(dir: &Path) -> Option<Ran> {
    let duckdb = tool("duckdb", "the DuckDB recipe of docs/recipes.md did not run")?;
    let bash = tool("bash", "the DuckDB recipe of docs/recipes.md did not run")?;
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
            .current_dir(dir)
            .env("PATH", std::env::join_paths(&dirs).unwrap())
            .env("HOME", dir)
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
    let read = |name: &str| ndjson(&std::fs::read(dir.join(name)).unwrap());
    Some(Ran {
        turns: read("turns.ndjson"),
        calls: read("calls.ndjson"),
        tables,
        duckdb,
    })
}

/// DuckDB's tables hold every field rollscope wrote, typed as written, and each query the
/// recipe prints shows the numbers of rollscope's rows.
fn check(dir: &Path, ran: &Ran) {
    let Ran {
        turns,
        calls,
        tables,
        duckdb,
    } = ran;
    typed_as_written(duckdb, dir, "turns", turns);
    typed_as_written(duckdb, dir, "calls", calls);
    // Every row made it into DuckDB.
    for (table, rows) in [("turns", turns), ("calls", calls)] {
        let n = query(duckdb, dir, &format!("SELECT count(*) AS n FROM {table}"));
        assert_eq!(n[0]["n"], rows.len(), "{table}");
    }

    // Each query the recipe prints, known by its columns.
    let mut checked = Vec::new();
    for (command, (names, rows)) in tables {
        let got = match names.join(",").as_str() {
            "who,model,turns,tokens" => {
                let mut want: BTreeMap<Vec<String>, (u64, Option<u64>)> = BTreeMap::new();
                for t in turns {
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
                let people: BTreeSet<String> = want.keys().map(|k| k[0].clone()).collect();
                assert_eq!(people, turns.iter().map(who).collect());
                "turns and tokens per person and model"
            }
            "who,status,count_star()" => {
                let mut want: BTreeMap<Vec<String>, u64> = BTreeMap::new();
                for t in turns {
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
                for c in calls {
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
            "who,command,exit_code" => {
                let mut want: Vec<Vec<String>> = Vec::new();
                for c in calls {
                    let code = c["exit_code"].as_i64();
                    if c["arguments_encoding"] != "json" || code.is_none_or(|n| n == 0) {
                        continue;
                    }
                    let args: Value =
                        serde_json::from_str(c["arguments"].as_str().unwrap()).unwrap();
                    let shell = command_of(&args).unwrap_or_else(|| "NULL".into());
                    want.push(vec![who(c), shell, code.unwrap().to_string()]);
                }
                assert!(!want.is_empty());
                let mut got = rows.clone();
                got.sort();
                want.sort();
                assert_eq!(got, want, "`{command}`");
                "failed commands per person"
            }
            _ => continue,
        };
        checked.push(got);
    }
    assert!(
        checked.contains(&"turns and tokens per person and model")
            && checked.contains(&"failed commands per person"),
        "the recipe printed neither turns and tokens per person nor failed commands \
         ({checked:?}); update this test with the recipe"
    );
}

/// The command of a call's JSON arguments, as the recipe's last query reads it: `cmd`, the
/// last word of a `command` argv, or a `command` string.
fn command_of(args: &Value) -> Option<String> {
    match (&args["cmd"], &args["command"]) {
        (Value::String(c), _) => Some(c.clone()),
        (_, Value::Array(argv)) => argv.last().map(shown),
        (_, Value::String(c)) => Some(c.clone()),
        _ => None,
    }
}

#[test]
fn the_duckdb_recipe_runs_on_a_team_and_its_tables_hold_rollscope_s_numbers() {
    let dir = tempfile::tempdir().unwrap();
    team(dir.path(), &TEAM);
    let Some(ran) = run_recipe(dir.path()) else {
        return;
    };
    assert!(
        ran.turns.len() > 40 && ran.calls.len() > 40,
        "{} {}",
        ran.turns.len(),
        ran.calls.len()
    );
    // Every person's sessions and archived ones.
    for rows in [&ran.turns, &ran.calls] {
        assert!(rows
            .iter()
            .any(|t| t["path"].as_str().unwrap().contains("/archived_sessions/")));
    }
    check(dir.path(), &ran);
}

#[test]
fn the_duckdb_recipe_runs_on_a_team_where_nobody_has_archived_sessions() {
    // A glob such as `team/*/archived_sessions` matches nothing here: passed on as it is,
    // it named a path that does not exist, and rollscope failed (exit 2).
    let dir = tempfile::tempdir().unwrap();
    let members: Vec<_> = TEAM
        .into_iter()
        .filter(|(_, folder, _)| *folder != "archived_sessions")
        .collect();
    team(dir.path(), &members);
    let archives = walkdir::WalkDir::new(dir.path())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "archived_sessions")
        .count();
    assert_eq!(archives, 0);
    let Some(ran) = run_recipe(dir.path()) else {
        return;
    };
    assert!(ran.turns.len() > 30 && ran.calls.len() > 30);
    check(dir.path(), &ran);
}

/// DuckDB's default `sample_size`: the rows `read_json_auto` reads to guess each column's
/// type before it reads the rest.
const DUCKDB_SAMPLE_ROWS: usize = 20_480;

#[test]
fn the_duckdb_recipe_reads_a_turn_id_that_is_no_uuid_after_thousands_that_are() {
    // A guessing `read_json_auto` takes `turn_id` for a UUID from its sample, and fails on
    // the first id past it that is none. dave's session is a real rollout whose turn (its
    // start and its end) is repeated with a UUID each, then once more as `T1`.
    let dir = tempfile::tempdir().unwrap();
    team(dir.path(), &TEAM);
    let real = real_file("0.128.0", "qa", "");
    let text = std::fs::read_to_string(&real).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let payload_type = |l: &str| -> String {
        let v: Value = serde_json::from_str(l).unwrap();
        v["payload"]["type"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let start = *lines
        .iter()
        .find(|l| payload_type(l) == "task_started")
        .unwrap();
    let end = *lines
        .iter()
        .find(|l| payload_type(l) == "task_complete")
        .unwrap();
    let id: Value = serde_json::from_str(start).unwrap();
    let id = id["payload"]["turn_id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 36, "{id}");
    let mut out = lines[0].to_string() + "\n";
    let turns = DUCKDB_SAMPLE_ROWS + 500;
    for i in 0..=turns {
        let new = if i == turns {
            "T1".to_string()
        } else {
            format!("{i:08x}-0000-4000-8000-{i:012x}")
        };
        for l in [start, end] {
            out += &l.replace(&id, &new);
            out.push('\n');
        }
    }
    let dave = day(dir.path(), "dave", "sessions");
    std::fs::create_dir_all(&dave).unwrap();
    std::fs::write(dave.join(real.file_name().unwrap()), out).unwrap();

    let Some(ran) = run_recipe(dir.path()) else {
        return;
    };
    let t1 = ran.turns.iter().position(|t| t["turn_id"] == "T1").unwrap();
    assert!(t1 > DUCKDB_SAMPLE_ROWS, "{t1}");
    check(dir.path(), &ran);
    let dave = query(
        &ran.duckdb,
        dir.path(),
        "SELECT turn_id, count(*) OVER () AS turns FROM turns WHERE who = 'dave' \
         ORDER BY line_start DESC LIMIT 1",
    );
    assert_eq!(dave[0]["turn_id"], "T1");
    assert_eq!(dave[0]["turns"], turns + 1);
}
