//! gen-corpus: a deterministic, realistic benchmark corpus of Codex rollouts.
//!
//! It expands the real rollouts in `testdata/real` (written by real Codex CLI versions
//! 0.36 to 0.171) into a `CODEX_HOME`-shaped tree:
//!
//! ```text
//! OUT/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<uuid>.jsonl   (most files)
//! OUT/sessions/YYYY/MM/DD/rollout-…-<uuid>.jsonl.zst                 (a few, zstd)
//! OUT/archived_sessions/rollout-…-<uuid>.jsonl                       (archived, flat)
//! OUT/corpus.json                                                     (what was written)
//! ```
//!
//! Each generated file is one real template session: its real 20-40 KB `session_meta` first
//! line, then its body repeated (as more turns) until the file reaches its drawn size, with
//! timestamps advancing, fresh ids per file and per repetition (call ids stay paired),
//! ordinals renumbered contiguously in paginated files, cumulative `token_count` totals and
//! `token_usage_record.thread_token_usage` that keep growing by each response's usage, and
//! tool outputs padded with generated text. Sizes are heavy-tailed: most files are tens or
//! hundreds of KB, a few are tens of MB. One file carries a `compacted` line of
//! `--giant-line` bytes (64 MiB by default) holding an image as a `data:` URL, as real
//! checkpoints do. The lineage scenarios (fork, revert, copy-fork) are copied verbatim.
//!
//! With `--lineage fanout|chain|spawn` it writes instead one of the lineage shapes of issue
//! #33 (`benches/lineage.sh`), made up rather than expanded from templates: a paginated
//! parent of `--parent-mb` MB (default 200) with `--forks` forks of it (default 50) and a
//! chain of `--chain` (default 20) below the first, or a chain `--depth` forks deep (default
//! 10000), each fork's `history_base` naming its source's end; or a parent with `--forks`
//! forks (default 20) at cutoffs spread over it, as sub-agents are spawned (the `lineage`
//! module, below).
//!
//! Usage:
//!
//! ```text
//! cargo run --release --example gen-corpus -- --out bench-out/corpus-1GB --size 1GB
//! cargo run --release --example gen-corpus -- --out bench-out/single-500MB --single-file 500MB
//! cargo run --release --example gen-corpus -- --out bench-out/lineage/fanout --lineage fanout \
//!     [--parent-mb 200] [--forks 50] [--chain 20]
//! cargo run --release --example gen-corpus -- --out bench-out/lineage/spawn --lineage spawn \
//!     [--parent-mb 200] [--forks 20]
//! cargo run --release --example gen-corpus -- --out bench-out/lineage/chain --lineage chain \
//!     [--depth 10000]
//! ```
//!
//! The output is a pure function of the templates, `--seed` and the sizes: the randomness is
//! a hand-written SplitMix64 (below), so no crate upgrade can change the stream, and files
//! are generated in parallel from per-file seeds drawn up front. The lineage shapes have no
//! randomness: they are a function of their numbers alone.

// A development tool of its own, outside rollscope's layers: it reports on stderr itself.
#![allow(clippy::disallowed_macros, clippy::disallowed_methods)]

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use clap::Parser;
use rayon::prelude::*;
use serde_json::{Map, Value};

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Generate a deterministic, realistic corpus of Codex rollouts")]
struct Args {
    /// Output directory (created; must be empty unless --force)
    #[arg(long)]
    out: PathBuf,
    /// Total size of the tree (decoded bytes): 500MB, 1GB, 2GiB...
    #[arg(long, default_value = "1GB", value_parser = parse_size)]
    size: u64,
    /// Write one rollout of this size instead of a tree
    #[arg(long, value_parser = parse_size)]
    single_file: Option<u64>,
    /// PRNG seed
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Size of the one giant `compacted` line in the tree (0: none)
    #[arg(long, default_value = "64MiB", value_parser = parse_size_or_zero)]
    giant_line: u64,
    /// Where the real template rollouts are
    #[arg(long)]
    templates: Option<PathBuf>,
    /// Wipe OUT/sessions and OUT/archived_sessions (and the state databases) first
    #[arg(long)]
    force: bool,
    /// Write no state databases (OUT/state_5.sqlite, OUT/thread_history_1.sqlite)
    #[arg(long, conflicts_with = "state_db_only")]
    no_state_db: bool,
    /// Write only the state databases, for the rollouts already in OUT
    #[arg(long)]
    state_db_only: bool,
    /// Write one of the lineage shapes of issue #33 instead of a corpus (no templates, no
    /// state databases, no corpus.json)
    #[arg(long, value_enum, conflicts_with_all = [
        "size", "single_file", "seed", "giant_line", "templates", "no_state_db", "state_db_only",
    ])]
    lineage: Option<Shape>,
    /// --lineage fanout|spawn: the parent's size in MB of tool calls and outputs [default: 200]
    #[arg(long, requires = "lineage", conflicts_with = "depth")]
    parent_mb: Option<u64>,
    /// --lineage fanout: the forks of the whole parent [default: 50]; spawn: the forks
    /// spread over it [default: 20]
    #[arg(long, requires = "lineage", conflicts_with = "depth")]
    forks: Option<u64>,
    /// --lineage fanout: the forks chained below the first fork [default: 20]
    #[arg(long, requires = "lineage", conflicts_with = "depth")]
    chain: Option<u64>,
    /// --lineage chain: the forks chained below a root of one message [default: 10000]
    #[arg(long, requires = "lineage")]
    depth: Option<u64>,
    /// Print nothing but errors
    #[arg(long, short)]
    quiet: bool,
}

/// The lineage shapes of issue #33 (`--lineage`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// One paginated parent, forks of the whole of it, and a chain below the first fork
    Fanout,
    /// A root of one message and forks each of the whole of the one before
    Chain,
    /// One paginated parent and forks of it at cutoffs spread over it, as sub-agents fork
    /// their parent wherever it is when each is spawned
    Spawn,
}

fn parse_size_or_zero(s: &str) -> Result<u64, String> {
    if s.trim() == "0" {
        return Ok(0);
    }
    parse_size(s)
}

/// `500MB`, `1GB` (decimal) or `64MiB`, `2GiB` (binary); a bare number is bytes.
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num.parse().map_err(|_| format!("`{s}` is not a size"))?;
    let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("`{s}`: unknown unit")),
    };
    let v = (n * mult) as u64;
    if v == 0 {
        return Err(format!("`{s}` is zero"));
    }
    Ok(v)
}

// ---------------------------------------------------------------------------------------
// PRNG: SplitMix64. Ten lines, no dependency, and a stream that never changes with a crate
// upgrade (rand's distributions may), which the corpus' determinism relies on.

#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    /// Log-uniform in `lo..hi`.
    fn log_uniform(&mut self, lo: u64, hi: u64) -> u64 {
        let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
        (a + (b - a) * self.unit()).exp() as u64
    }
}

/// A stable 64-bit hash (FNV-1a then a SplitMix finaliser), for ids derived from names.
fn hash64(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    Rng(h).next_u64()
}

// ---------------------------------------------------------------------------------------
// Templates.

struct TLine {
    value: Value,
    ts_ms: i64,
}

struct Template {
    /// `version/scenario/file`, for corpus.json.
    name: String,
    version: String,
    paginated: bool,
    first_ordinal: u64,
    session_id: String,
    cwd: Option<String>,
    lines: Vec<TLine>,
    /// Sum of the line lengths (+ newlines): one repetition's size.
    bytes: u64,
}

/// A lineage scenario (fork, revert, copy-fork, sub-agent): copied verbatim, never expanded,
/// since its files refer to each other.
struct Verbatim {
    rel: PathBuf,
    data: Vec<u8>,
}

fn find_rollouts(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            find_rollouts(&p, out);
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("rollout-") && n.ends_with(".jsonl"))
        {
            out.push(p);
        }
    }
}

fn parse_ms(ts: &str) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(ts)
        .ok()
        .map(|d| d.timestamp_millis())
}

fn fmt_ts(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .expect("timestamp in range")
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

fn load_templates(root: &Path) -> (Vec<Template>, Vec<Verbatim>) {
    let mut files = Vec::new();
    find_rollouts(root, &mut files);
    // Group by scenario directory (the part before `/sessions` or `/archived_sessions`).
    let scenario_of = |p: &Path| -> PathBuf {
        let mut cur = p.parent();
        while let Some(d) = cur {
            let n = d.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if n == "sessions" || n == "archived_sessions" {
                return d.parent().unwrap_or(d).to_path_buf();
            }
            cur = d.parent();
        }
        p.parent().unwrap_or(p).to_path_buf()
    };
    let mut parsed: Vec<(PathBuf, PathBuf, Vec<u8>, Vec<Value>)> = Vec::new();
    let mut lineage_dirs = std::collections::BTreeSet::new();
    for f in files {
        let data = fs::read(&f).expect("read template");
        let mut vals = Vec::new();
        let mut ok = true;
        for line in data.split(|&b| b == b'\n') {
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            match serde_json::from_slice::<Value>(line) {
                Ok(v) if v.is_object() => vals.push(v),
                _ => ok = false,
            }
        }
        let scen = scenario_of(&f);
        if !ok || vals.is_empty() {
            continue;
        }
        let metas = vals
            .iter()
            .filter(|v| v["type"] == "session_meta")
            .collect::<Vec<_>>();
        let first = &vals[0];
        let lineage = metas.len() != 1
            || first["type"] != "session_meta"
            || !first["payload"]["forked_from_id"].is_null()
            || !first["payload"]["history_base"].is_null()
            || !first["payload"]["subagent_history_start_ordinal"].is_null()
            || !first["payload"]["source"]["subagent"].is_null();
        if lineage {
            lineage_dirs.insert(scen.clone());
        }
        parsed.push((f, scen, data, vals));
    }
    let mut templates = Vec::new();
    let mut verbatim = Vec::new();
    for (f, scen, data, vals) in parsed {
        if lineage_dirs.contains(&scen) {
            let rel = f.strip_prefix(&scen).unwrap_or(&f).to_path_buf();
            verbatim.push(Verbatim { rel, data });
            continue;
        }
        let meta = &vals[0]["payload"];
        let session_id = meta["id"].as_str().unwrap_or_default().to_string();
        if session_id.len() != 36 {
            continue;
        }
        let version = meta["cli_version"].as_str().unwrap_or("?").to_string();
        let paginated = vals[0].get("ordinal").is_some_and(|o| o.is_u64());
        let first_ordinal = vals[0]["ordinal"].as_u64().unwrap_or(0);
        let cwd = meta["cwd"].as_str().map(str::to_string);
        let mut lines = Vec::new();
        let mut last_ms = 0;
        for v in vals {
            let ts_ms = v["timestamp"]
                .as_str()
                .and_then(parse_ms)
                .unwrap_or(last_ms);
            last_ms = ts_ms;
            lines.push(TLine { value: v, ts_ms });
        }
        let name = f
            .strip_prefix(root)
            .unwrap_or(&f)
            .to_string_lossy()
            .into_owned();
        templates.push(Template {
            name,
            version,
            paginated,
            first_ordinal,
            session_id,
            cwd,
            lines,
            bytes: data.len() as u64,
        });
    }
    (templates, verbatim)
}

// ---------------------------------------------------------------------------------------
// Generated text for tool outputs.

/// A pool of realistic-looking tool output (code, logs, listings), with quotes, backslashes,
/// tabs and a little non-ASCII, so that JSON escaping costs what it costs in real files.
fn text_pool(rng: &mut Rng, size: usize) -> String {
    const WORDS: &[&str] = &[
        "fn",
        "let",
        "mut",
        "self",
        "return",
        "match",
        "impl",
        "struct",
        "pub",
        "use",
        "crate",
        "src",
        "main.rs",
        "lib.rs",
        "Cargo.toml",
        "error",
        "warning",
        "INFO",
        "DEBUG",
        "test",
        "ok",
        "FAILED",
        "passed",
        "request",
        "response",
        "handler",
        "config",
        "value",
        "index",
        "buffer",
        "stream",
        "reader",
        "writer",
        "token",
        "session",
        "rollout",
        "thread",
        "turn",
        "model",
        "output",
        "input",
        "json",
        "parse",
        "decode",
        "line",
        "column",
        "offset",
        "bytes",
        "file",
        "path",
        "dir",
        "node_modules",
        "package.json",
        "import",
        "export",
        "const",
        "function",
        "async",
        "await",
        "Promise",
        "string",
        "number",
        "null",
        "true",
        "false",
        "self.inner",
        "Vec<u8>",
        "Option<T>",
        "Result<(), Error>",
        "=>",
        "->",
        "::",
        "&&",
        "||",
        "==",
        "!=",
        "+=",
        "0",
        "1",
        "42",
        "1024",
        "0x7f",
        "3.14",
        "200",
        "404",
        "500",
        "GET",
        "POST",
        "/api/v1/items",
        "localhost:8080",
        "127.0.0.1",
        "drwxr-xr-x",
        "-rw-r--r--",
        "root",
        "dev",
        "staff",
        "Nov",
        "29",
        "12:00",
        "total",
        "cargo",
        "build",
        "Compiling",
        "Finished",
        "release",
        "target",
        "warning: unused variable",
        "note:",
        "help:",
        "-->",
        "|",
        "^",
    ];
    // Non-ASCII is rare in real tool output: about 0.07% of the bytes of the real rollouts.
    const UNICODE: &[&str] = &[
        "naïve",
        "café",
        "→",
        "✓",
        "✗",
        "日本語",
        "Ünïcødé",
        "…",
        "─",
    ];
    let mut s = String::with_capacity(size + 256);
    while s.len() < size {
        let style = rng.below(10);
        let indent = rng.below(4) as usize * 4;
        for _ in 0..indent {
            s.push(' ');
        }
        if style == 0 {
            s.push('\t');
        }
        let words = 3 + rng.below(14);
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            let w = if rng.below(600) == 0 {
                UNICODE[rng.below(UNICODE.len() as u64) as usize]
            } else {
                WORDS[rng.below(WORDS.len() as u64) as usize]
            };
            match rng.below(24) {
                0 => {
                    s.push('"');
                    s.push_str(w);
                    s.push('"');
                }
                1 => {
                    s.push_str(w);
                    s.push_str("\\n");
                }
                2 => {
                    s.push_str("C:\\Users\\dev\\");
                    s.push_str(w);
                }
                _ => s.push_str(w),
            }
        }
        if rng.below(8) == 0 {
            s.push_str(&format!(" ({} ms)", rng.below(5000)));
        }
        s.push('\n');
    }
    s
}

/// A slice of the pool of about `len` bytes at a char boundary.
fn pool_slice(pool: &str, start: usize, len: usize) -> &str {
    let len = len.min(pool.len() / 2);
    let mut a = start % (pool.len() - len);
    while !pool.is_char_boundary(a) {
        a += 1;
    }
    let mut b = (a + len).min(pool.len());
    while !pool.is_char_boundary(b) {
        b -= 1;
    }
    &pool[a..b]
}

// ---------------------------------------------------------------------------------------
// Planning.

struct Plan {
    template: usize,
    target: u64,
    start_ms: i64,
    uuid: String,
    model: &'static str,
    cwd: String,
    archived: bool,
    zst: bool,
    giant: u64,
    seed: u64,
    /// Pad hard (single-file mode: a long tool-heavy session).
    heavy: bool,
}

const MODELS: &[&str] = &[
    "gpt-5.5",
    "gpt-5.5",
    "gpt-5",
    "gpt-5-codex",
    "gpt-5-mini",
    "o3",
];

fn make_uuid(rng: &mut Rng, ms: i64, v7: bool) -> String {
    let r1 = rng.next_u64();
    let r2 = rng.next_u64();
    if v7 {
        let ms = ms as u64 & 0xFFFF_FFFF_FFFF;
        format!(
            "{:08x}-{:04x}-7{:03x}-{:04x}-{:012x}",
            ms >> 16,
            ms & 0xFFFF,
            r1 & 0xFFF,
            0x8000 | (r1 >> 12) & 0x3FFF,
            r2 & 0xFFFF_FFFF_FFFF
        )
    } else {
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            r1 >> 32,
            (r1 >> 16) & 0xFFFF,
            r1 & 0xFFF,
            0x8000 | (r2 >> 48) & 0x3FFF,
            r2 & 0xFFFF_FFFF_FFFF
        )
    }
}

/// The drawn size of one file: heavy-tailed, as real homes are (most sessions are short).
fn draw_size(rng: &mut Rng) -> u64 {
    let p = rng.unit();
    if p < 0.86 {
        rng.log_uniform(30_000, 250_000)
    } else if p < 0.978 {
        rng.log_uniform(250_000, 2_500_000)
    } else if p < 0.997 {
        rng.log_uniform(2_500_000, 12_000_000)
    } else {
        rng.log_uniform(12_000_000, 50_000_000)
    }
}

fn plan_tree(args: &Args, templates: &[Template], verbatim_bytes: u64) -> Vec<Plan> {
    let mut rng = Rng::new(args.seed);
    let mut plans = Vec::new();
    let mut total = verbatim_bytes;
    // 2025-06-01 .. 2026-11-28, UTC.
    let lo = 1_748_736_000_000i64;
    let hi = 1_796_083_200_000i64;
    // Lead with a few large sessions so that even a small corpus has files of tens of MB.
    let forced: Vec<u64> = if args.size >= 400_000_000 {
        vec![48_000_000, 31_000_000, 22_000_000]
    } else {
        Vec::new()
    };
    let mut giant_done = args.giant_line == 0;
    while total < args.size {
        let i = plans.len();
        let template = rng.below(templates.len() as u64) as usize;
        let t = &templates[template];
        let mut target = forced
            .get(i)
            .copied()
            .unwrap_or_else(|| draw_size(&mut rng));
        let mut giant = 0;
        if !giant_done && t.paginated && t.version.starts_with("0.171") && i >= forced.len() {
            giant = args.giant_line;
            target = target.max(4_000_000.min(args.size / 8));
            giant_done = true;
        }
        // Ids and paths come out a little longer than the template's.
        let base = t.bytes * 11 / 10;
        let expected = target.max(base) + giant;
        let remaining = args.size - total;
        if expected > remaining && plans.len() > 8 {
            target = remaining.max(base);
        }
        let start_ms = lo + rng.below((hi - lo) as u64) as i64;
        let uuid = make_uuid(&mut rng, start_ms, !t.version.starts_with("0.36"));
        let model = MODELS[rng.below(MODELS.len() as u64) as usize];
        let cwd = format!("/home/dev/src/project-{:02}", rng.below(24));
        let archived = rng.chance(0.06);
        let zst = !archived && target < 250_000 && giant == 0 && rng.chance(0.04);
        let seed = rng.next_u64();
        total += target.max(base) + giant;
        plans.push(Plan {
            template,
            target,
            start_ms,
            uuid,
            model,
            cwd,
            archived,
            zst,
            giant,
            seed,
            heavy: false,
        });
    }
    plans
}

// ---------------------------------------------------------------------------------------
// Writing one file.

/// Keys whose string values are ids: renewed per file and per repetition, consistently
/// (a call id and its output's call id stay paired).
const ID_KEYS: &[&str] = &[
    "id",
    "call_id",
    "turn_id",
    "thread_id",
    "session_id",
    "root_turn_id",
    "response_id",
    "item_id",
    "window_id",
    "first_window_id",
    "previous_window_id",
    "compaction_response_id",
];

struct Gen<'a> {
    t: &'a Template,
    plan: &'a Plan,
    pool: &'a str,
    rng: Rng,
    rep: u64,
    ordinal: u64,
    clock: i64,
    /// Cumulative token_count total, by field, in the template's key order.
    cum_count: Vec<(String, u64)>,
    cum_records: Vec<(String, u64)>,
    tmpl_prev_total: Option<Value>,
    out: Box<dyn Write + 'a>,
    buf: Vec<u8>,
    bytes: u64,
    lines: u64,
    longest: u64,
    /// The file is full: stop.
    full: bool,
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

impl Gen<'_> {
    /// The new form of an id (own session id: the file's uuid).
    fn map_id(&self, s: &str) -> String {
        let split = s.len().saturating_sub(36);
        let (prefix, tail) = s.split_at(split);
        if is_uuid(tail) {
            if tail == self.t.session_id {
                return format!("{prefix}{}", self.plan.uuid);
            }
            let h1 = hash64(&[
                tail.as_bytes(),
                &self.plan.seed.to_le_bytes(),
                &self.rep.to_le_bytes(),
            ]);
            let h2 = Rng(h1).next_u64();
            // Keep the version nibble and the time prefix shape of the original.
            let mut out = String::with_capacity(s.len());
            out.push_str(prefix);
            let hex = format!("{h1:016x}{h2:016x}");
            let mut hx = hex.chars();
            for (i, c) in tail.chars().enumerate() {
                match i {
                    8 | 13 | 18 | 23 => out.push('-'),
                    14 => out.push(c),
                    _ => out.push(hx.next().unwrap_or('0')),
                }
            }
            return out;
        }
        if s.is_empty() {
            return String::new();
        }
        let h = hash64(&[
            s.as_bytes(),
            &self.plan.seed.to_le_bytes(),
            &self.rep.to_le_bytes(),
        ]);
        format!("{s}_{:08x}", h as u32)
    }

    fn renew_ids(&self, v: &mut Value) {
        match v {
            Value::Object(m) => {
                for (k, val) in m.iter_mut() {
                    if let Value::String(s) = val {
                        if ID_KEYS.contains(&k.as_str()) {
                            *s = self.map_id(s);
                        }
                    } else if k.ends_with("_at_ms") {
                        // Shifted by the caller.
                    } else {
                        self.renew_ids(val);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| self.renew_ids(x)),
            _ => {}
        }
    }

    fn pad_text(&self, key: &str, big: bool) -> &str {
        let h = hash64(&[
            key.as_bytes(),
            &self.plan.seed.to_le_bytes(),
            &self.rep.to_le_bytes(),
        ]);
        let mut r = Rng(h);
        if !big && !r.chance(0.7) {
            return "";
        }
        let len = if self.plan.heavy {
            // One long session: many turns of ordinary outputs, a few huge ones.
            if r.chance(0.015) {
                r.log_uniform(200_000, 3_000_000)
            } else {
                r.log_uniform(200, 40_000)
            }
        } else if r.chance(0.01) || (big && r.chance(0.04)) {
            r.log_uniform(200_000, 3_000_000)
        } else if big {
            r.log_uniform(1_000, 300_000)
        } else {
            r.log_uniform(200, 60_000)
        };
        pool_slice(self.pool, r.next_u64() as usize, len as usize)
    }

    /// Pad a tool output with generated text (the same text for a call's output and its
    /// item_completed twin).
    fn pad_output(&self, payload: &mut Map<String, Value>, key_field: &str, out_field: &str) {
        let big = self.plan.heavy || self.plan.target > 2_000_000;
        // Small files stay close to their template.
        if !big && self.plan.target < self.t.bytes * 2 {
            return;
        }
        let key = payload
            .get(key_field)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string();
        let pad = self.pad_text(&key, big);
        if pad.is_empty() {
            return;
        }
        match payload.get_mut(out_field) {
            Some(Value::String(s)) => {
                // 0.36 wraps shell output in a JSON string: pad inside it.
                if s.starts_with('{') {
                    if let Ok(Value::Object(mut inner)) = serde_json::from_str::<Value>(s) {
                        if let Some(Value::String(o)) = inner.get_mut("output") {
                            o.push_str(pad);
                            *s = serde_json::to_string(&inner).unwrap();
                            return;
                        }
                    }
                }
                s.push_str(pad);
            }
            Some(Value::Array(items)) => {
                if let Some(Value::Object(first)) = items.first_mut() {
                    if let Some(Value::String(t)) = first.get_mut("text") {
                        t.push_str(pad);
                    }
                }
            }
            _ => {}
        }
    }

    fn add_usage(cum: &mut Vec<(String, u64)>, inc: &Value) {
        if let Value::Object(m) = inc {
            for (k, v) in m {
                let n = v.as_u64().unwrap_or(0);
                match cum.iter_mut().find(|(ck, _)| ck == k) {
                    Some((_, c)) => *c += n,
                    None => cum.push((k.clone(), n)),
                }
            }
        }
    }

    fn usage_value(cum: &[(String, u64)], shape: &Value) -> Value {
        let mut m = Map::new();
        if let Value::Object(s) = shape {
            for k in s.keys() {
                let n = cum.iter().find(|(ck, _)| ck == k).map_or(0, |(_, c)| *c);
                m.insert(k.clone(), Value::from(n));
            }
        }
        for (k, n) in cum {
            if !m.contains_key(k) {
                m.insert(k.clone(), Value::from(*n));
            }
        }
        Value::Object(m)
    }

    /// Rewrite usage so that cumulative totals keep growing across repetitions.
    fn fix_tokens(&mut self, kind: &str, payload: &mut Map<String, Value>) {
        if kind == "token_usage_record" {
            if let Some(u) = payload.get("usage").cloned() {
                Self::add_usage(&mut self.cum_records, &u);
                if let Some(t) = payload.get_mut("thread_token_usage") {
                    *t = Self::usage_value(&self.cum_records, t);
                }
            }
            return;
        }
        let Some(Value::Object(info)) = payload.get_mut("info") else {
            return;
        };
        let Some(total) = info.get("total_token_usage").cloned() else {
            return;
        };
        let repeated = self.tmpl_prev_total.as_ref() == Some(&total);
        if !repeated {
            let inc = match info.get("last_token_usage") {
                Some(l) if l.is_object() => l.clone(),
                _ => total.clone(),
            };
            Self::add_usage(&mut self.cum_count, &inc);
        }
        self.tmpl_prev_total = Some(total.clone());
        info.insert(
            "total_token_usage".into(),
            Self::usage_value(&self.cum_count, &total),
        );
    }

    fn shift_ms(v: &mut Value, delta: i64) {
        match v {
            Value::Object(m) => {
                for (k, val) in m.iter_mut() {
                    if k.ends_with("_at_ms") {
                        if let Some(n) = val.as_i64() {
                            *val = Value::from(n + delta);
                        }
                    } else if val.is_object() || val.is_array() {
                        Self::shift_ms(val, delta);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| Self::shift_ms(x, delta)),
            _ => {}
        }
    }

    fn write_value(&mut self, v: &Value) -> std::io::Result<()> {
        self.buf.clear();
        serde_json::to_writer(&mut self.buf, v)?;
        // The template's own id and cwd may also sit inside text.
        let own = self.t.session_id.as_bytes();
        let new = self.plan.uuid.as_bytes();
        let mut at = 0;
        while let Some(i) = memchr::memmem::find(&self.buf[at..], own) {
            self.buf[at + i..at + i + 36].copy_from_slice(new);
            at += i + 36;
        }
        if let Some(cwd) = &self.t.cwd {
            if memchr::memmem::find(&self.buf, cwd.as_bytes()).is_some() {
                let s = String::from_utf8(std::mem::take(&mut self.buf)).unwrap();
                self.buf = s.replace(cwd.as_str(), &self.plan.cwd).into_bytes();
            }
        }
        self.buf.push(b'\n');
        // Past the first repetition, a line that would overshoot the file's size by much
        // ends the file instead (so that the corpus comes out close to --size).
        if self.rep > 0 && self.bytes + self.buf.len() as u64 > self.goal() + (64 << 10) {
            self.full = true;
            return Ok(());
        }
        self.emit()
    }

    fn emit(&mut self) -> std::io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.bytes += self.buf.len() as u64;
        self.lines += 1;
        self.longest = self.longest.max(self.buf.len() as u64 - 1);
        Ok(())
    }

    fn session_meta(&mut self) -> std::io::Result<()> {
        let mut v = self.t.lines[0].value.clone();
        self.clock = self.plan.start_ms;
        v["timestamp"] = Value::from(fmt_ts(self.clock));
        if self.t.paginated {
            v["ordinal"] = Value::from(self.ordinal);
            self.ordinal += 1;
        }
        if let Some(Value::Object(p)) = v.get_mut("payload") {
            p.insert("timestamp".into(), Value::from(fmt_ts(self.clock)));
            if let Some(Value::Object(cw)) = p.get_mut("context_window") {
                if let Some(Value::String(w)) = cw.get_mut("window_id") {
                    *w = make_uuid(&mut self.rng, self.clock, true);
                }
            }
        }
        self.write_value(&v)
    }

    /// One repetition of the template's body (every line after session_meta).
    fn body(&mut self) -> std::io::Result<()> {
        let t = self.t;
        for i in 1..t.lines.len() {
            if (self.bytes >= self.goal() || self.full) && self.rep > 0 {
                return Ok(());
            }
            let tl = &t.lines[i];
            let dt = (tl.ts_ms - t.lines[i - 1].ts_ms).clamp(1, 120_000);
            let jitter = 1.0 + self.rng.unit() * 3.0;
            self.clock += (dt as f64 * jitter) as i64;
            let mut v = tl.value.clone();
            let kind = v["type"].as_str().unwrap_or("").to_string();
            v["timestamp"] = Value::from(fmt_ts(self.clock));
            if t.paginated {
                v["ordinal"] = Value::from(self.ordinal);
                self.ordinal += 1;
            }
            self.renew_ids(&mut v);
            Self::shift_ms(&mut v, self.clock - tl.ts_ms);
            if let Some(Value::Object(p)) = v.get_mut("payload") {
                let ptype = p
                    .get("type")
                    .and_then(|x| x.as_str())
                    .unwrap_or("")
                    .to_string();
                match (kind.as_str(), ptype.as_str()) {
                    ("response_item", "function_call_output" | "custom_tool_call_output") => {
                        self.pad_output(p, "call_id", "output")
                    }
                    ("event_msg", "exec_command_end") => {
                        self.pad_output(p, "call_id", "aggregated_output")
                    }
                    ("event_msg", "item_completed") => {
                        if let Some(Value::Object(item)) = p.get_mut("item") {
                            if item.get("type").and_then(|x| x.as_str()) == Some("CommandExecution")
                            {
                                self.pad_output(item, "id", "aggregated_output");
                            }
                        }
                    }
                    ("event_msg", "token_count") | ("token_usage_record", _) => {
                        self.fix_tokens(&kind, p)
                    }
                    ("turn_context", _) if p.contains_key("model") => {
                        p.insert("model".into(), Value::from(self.plan.model));
                    }
                    _ => {}
                }
            }
            self.write_value(&v)?;
        }
        Ok(())
    }

    /// A `compacted` checkpoint holding a screenshot as a `data:` URL, `size` bytes long.
    fn giant_line(&mut self, size: u64) -> std::io::Result<()> {
        self.clock += 30_000;
        let mut head = format!("{{\"timestamp\":\"{}\",", fmt_ts(self.clock));
        if self.t.paginated {
            head.push_str(&format!("\"ordinal\":{},", self.ordinal));
            self.ordinal += 1;
        }
        head.push_str(concat!(
            "\"type\":\"compacted\",\"payload\":{\"message\":\"Summary of the work so far: ",
            "the user shared a screenshot of the failing page.\",\"replacement_history\":[",
            "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",",
            "\"text\":\"Here is what I see:\"},{\"type\":\"input_image\",\"image_url\":",
            "\"data:image/png;base64,"
        ));
        let tail = "\"}]}]}}";
        let fill = size.saturating_sub((head.len() + tail.len()) as u64) as usize;
        const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        self.buf.clear();
        self.buf.reserve(head.len() + fill + tail.len() + 1);
        self.buf.extend_from_slice(head.as_bytes());
        let mut left = fill;
        while left > 0 {
            let r = self.rng.next_u64();
            for k in 0..10.min(left) {
                self.buf.push(B64[((r >> (k * 6)) & 63) as usize]);
            }
            left -= 10.min(left);
        }
        self.buf.extend_from_slice(tail.as_bytes());
        self.buf.push(b'\n');
        self.emit()?;
        self.buf = Vec::new();
        Ok(())
    }

    fn goal(&self) -> u64 {
        self.plan.target + self.plan.giant
    }

    fn run(&mut self) -> std::io::Result<()> {
        self.session_meta()?;
        loop {
            self.body()?;
            if self.rep == 0 && self.plan.giant > 0 {
                self.giant_line(self.plan.giant)?;
            }
            self.rep += 1;
            if self.bytes >= self.goal() || self.full {
                break;
            }
            // A pause between sessions of work: minutes to hours.
            self.clock += self.rng.log_uniform(20_000, 4 * 3_600_000) as i64;
        }
        self.out.flush()
    }
}

struct Written {
    path: PathBuf,
    bytes: u64,
    lines: u64,
    longest: u64,
}

fn write_file(out: &Path, t: &Template, plan: &Plan, pool: &str) -> std::io::Result<Written> {
    let ts = chrono::DateTime::from_timestamp_millis(plan.start_ms).unwrap();
    let name = format!(
        "rollout-{}-{}.jsonl{}",
        ts.format("%Y-%m-%dT%H-%M-%S"),
        plan.uuid,
        if plan.zst { ".zst" } else { "" }
    );
    let dir = if plan.archived {
        out.join("archived_sessions")
    } else {
        out.join("sessions").join(ts.format("%Y/%m/%d").to_string())
    };
    fs::create_dir_all(&dir)?;
    let path = dir.join(name);
    let file = BufWriter::with_capacity(1 << 20, File::create(&path)?);
    let sink: Box<dyn Write> = if plan.zst {
        Box::new(zstd::stream::write::Encoder::new(file, 3)?.auto_finish())
    } else {
        Box::new(file)
    };
    let mut g = Gen {
        t,
        plan,
        pool,
        rng: Rng::new(plan.seed),
        rep: 0,
        ordinal: t.first_ordinal,
        clock: plan.start_ms,
        cum_count: Vec::new(),
        cum_records: Vec::new(),
        tmpl_prev_total: None,
        out: sink,
        buf: Vec::with_capacity(1 << 16),
        bytes: 0,
        lines: 0,
        longest: 0,
        full: false,
    };
    g.run()?;
    let (bytes, lines, longest) = (g.bytes, g.lines, g.longest);
    drop(g);
    Ok(Written {
        path,
        bytes,
        lines,
        longest,
    })
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("gen-corpus: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let t0 = std::time::Instant::now();
    if args.state_db_only {
        let mut paths = Vec::new();
        for sub in ["sessions", "archived_sessions"] {
            let walk = walkdir::WalkDir::new(args.out.join(sub)).sort_by_file_name();
            for e in walk.into_iter().filter_map(Result::ok) {
                let name = e.file_name().to_string_lossy();
                if e.file_type().is_file() && name.starts_with("rollout-") {
                    paths.push(e.into_path());
                }
            }
        }
        return state_db::write(&args.out, &paths);
    }
    if let Some(shape) = args.lineage {
        return lineage::run(args, shape, t0);
    }
    let root = args
        .templates
        .clone()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/real"));
    let (templates, verbatim) = load_templates(&root);
    if templates.is_empty() {
        return Err(format!("no template rollouts under {}", root.display()));
    }
    clear(&args.out, args.force)?;
    let mut rng = Rng::new(args.seed ^ 0xA5A5);
    let pool = text_pool(&mut rng, 8 << 20);

    let mut plans;
    let mut verbatim_written = Vec::new();
    if let Some(size) = args.single_file {
        // One long, tool-heavy paginated 0.171 session.
        let template = templates
            .iter()
            .position(|t| t.paginated && t.name.contains("/shell/"))
            .or_else(|| templates.iter().position(|t| t.paginated))
            .unwrap_or(0);
        let mut r = Rng::new(args.seed);
        let start_ms = 1_795_000_000_000;
        plans = vec![Plan {
            template,
            target: size,
            start_ms,
            uuid: make_uuid(&mut r, start_ms, true),
            model: "gpt-5.5",
            cwd: "/home/dev/src/big-monorepo".into(),
            archived: false,
            zst: false,
            giant: 0,
            seed: r.next_u64(),
            heavy: true,
        }];
    } else {
        let vb: u64 = verbatim.iter().map(|v| v.data.len() as u64).sum();
        plans = plan_tree(args, &templates, vb);
        for v in &verbatim {
            let p = args
                .out
                .join("sessions")
                .join(v.rel.strip_prefix("sessions").unwrap_or(&v.rel));
            fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
            fs::write(&p, &v.data).map_err(|e| format!("{}: {e}", p.display()))?;
            let longest = v
                .data
                .split(|&b| b == b'\n')
                .map(|l| l.len())
                .max()
                .unwrap_or(0);
            verbatim_written.push(Written {
                path: p,
                bytes: v.data.len() as u64,
                lines: v.data.iter().filter(|&&b| b == b'\n').count() as u64,
                longest: longest as u64,
            });
        }
    }
    plans.shrink_to_fit();
    let done = AtomicU64::new(0);
    let results: Vec<Result<Written, String>> = plans
        .par_iter()
        .map(|p| {
            let r = write_file(&args.out, &templates[p.template], p, &pool)
                .map_err(|e| format!("writing a file: {e}"));
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if !args.quiet && n % 500 == 0 {
                eprintln!("gen-corpus: {n}/{} files", plans.len());
            }
            r
        })
        .collect();
    let mut written = verbatim_written;
    for r in results {
        written.push(r?);
    }
    let bytes: u64 = written.iter().map(|w| w.bytes).sum();
    let lines: u64 = written.iter().map(|w| w.lines).sum();
    let longest = written.iter().map(|w| w.longest).max().unwrap_or(0);
    let largest = written.iter().map(|w| w.bytes).max().unwrap_or(0);
    let zst = plans.iter().filter(|p| p.zst).count();
    let archived = plans.iter().filter(|p| p.archived).count();
    let paginated = plans
        .iter()
        .filter(|p| templates[p.template].paginated)
        .count();
    let mut per_template: HashMap<&str, u64> = HashMap::new();
    for p in &plans {
        *per_template
            .entry(&templates[p.template].version)
            .or_default() += 1;
    }
    let mut versions: Vec<_> = per_template.into_iter().collect();
    versions.sort();
    let summary = serde_json::json!({
        "generator": "examples/gen-corpus.rs",
        "seed": args.seed,
        "requested_bytes": args.single_file.unwrap_or(args.size),
        "single_file": args.single_file.is_some(),
        "files": written.len(),
        "bytes": bytes,
        "lines": lines,
        "longest_line": longest,
        "largest_file": largest,
        "zst_files": zst,
        "archived_files": archived,
        "paginated_files": paginated,
        "verbatim_lineage_files": written.len() - plans.len(),
        "files_per_version": versions.iter().map(|(v, n)| (v.to_string(), Value::from(*n))).collect::<serde_json::Map<_,_>>(),
        "paths": if args.single_file.is_some() {
            Value::from(written.iter().map(|w| w.path.display().to_string()).collect::<Vec<_>>())
        } else { Value::Null },
    });
    if !args.no_state_db {
        let paths: Vec<PathBuf> = written.iter().map(|w| w.path.clone()).collect();
        state_db::write(&args.out, &paths)?;
    }
    let meta = args.out.join("corpus.json");
    fs::write(
        &meta,
        serde_json::to_string_pretty(&summary).unwrap() + "\n",
    )
    .map_err(|e| format!("{}: {e}", meta.display()))?;
    if !args.quiet {
        eprintln!(
            "gen-corpus: {} files, {:.1} MB, {} lines, longest line {:.1} MiB, in {:.1}s -> {}",
            written.len(),
            bytes as f64 / 1e6,
            lines,
            longest as f64 / (1u64 << 20) as f64,
            t0.elapsed().as_secs_f64(),
            args.out.display()
        );
    }
    Ok(())
}

/// Makes `out` ready for a tree: its `sessions` and `archived_sessions` removed with
/// `--force`, an error without it.
fn clear(out: &Path, force: bool) -> Result<(), String> {
    for sub in ["sessions", "archived_sessions"] {
        let d = out.join(sub);
        if d.exists() {
            if !force {
                return Err(format!(
                    "{} exists (use --force to replace it)",
                    d.display()
                ));
            }
            fs::remove_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
    }
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))
}

/// The lineage shapes of issue #33 (`--lineage`), as Codex homes: paginated 0.171 rollouts
/// whose `session_meta.history_base` names their source and cutoff, all in
/// `OUT/sessions/2026/11/29/rollout-2026-11-29T12-00-00-<id>.jsonl`, ids
/// `01a2272d-0000-7000-8000-<12 digits>` numbered from 0 (the root or parent).
///
/// - `fanout`: one parent of about `--parent-mb` MB (tool calls with 8 KB outputs),
///   `--forks` forks of the whole of it (each one user message of its own), and a chain of
///   `--chain` forks below the first fork, each forking the whole of the one before.
/// - `chain`: a root of one message and `--depth` forks, each of the whole of the one
///   before.
/// - `spawn`: the same parent and `--forks` forks of it at cutoffs spread evenly over it
///   (fork `k` of `n` after the `k/(n+1)`th of its calls), each at the start of a call, as
///   a sub-agent forks its parent where it was when spawned.
///
/// Each fork's `session_meta` is at the ordinal its `history_base` ends at, with
/// `end_byte_offset` its source's length (as the real 0.171 fork writes it), so ordinals
/// run on contiguously down a lineage. No randomness: the files are a function of the
/// shape's numbers alone (byte for byte those of the Python script that made them before).
mod lineage {
    use std::fs::{self, File};
    use std::io::{BufWriter, Write};
    use std::path::{Path, PathBuf};
    use std::time::Instant;

    use super::{Args, Shape};

    /// A source of a fork: its id, the ordinal after its last line, its length in bytes.
    type Source = (String, u64, u64);

    pub fn run(args: &Args, shape: Shape, t0: Instant) -> Result<(), String> {
        let parent = args.parent_mb.is_some() || args.forks.is_some();
        if shape == Shape::Chain && (parent || args.chain.is_some()) {
            return Err("--parent-mb, --forks and --chain are for --lineage fanout|spawn".into());
        }
        if shape != Shape::Chain && args.depth.is_some() {
            return Err("--depth is for --lineage chain".into());
        }
        if shape == Shape::Spawn && args.chain.is_some() {
            return Err("--chain is for --lineage fanout".into());
        }
        super::clear(&args.out, args.force)?;
        let day = args.out.join("sessions/2026/11/29");
        fs::create_dir_all(&day).map_err(|e| format!("{}: {e}", day.display()))?;
        let (files, bytes) = match shape {
            Shape::Fanout => fanout(
                &day,
                args.parent_mb.unwrap_or(200),
                args.forks.unwrap_or(50),
                args.chain.unwrap_or(20),
            )?,
            Shape::Chain => chain(&day, args.depth.unwrap_or(10_000))?,
            Shape::Spawn => spawn(
                &day,
                args.parent_mb.unwrap_or(200),
                args.forks.unwrap_or(20),
            )?,
        };
        if !args.quiet {
            eprintln!(
                "gen-corpus: {files} files, {:.1} MB, in {:.1}s -> {}",
                bytes as f64 / 1e6,
                t0.elapsed().as_secs_f64(),
                args.out.display()
            );
        }
        Ok(())
    }

    fn uid(i: u64) -> String {
        format!("01a2272d-0000-7000-8000-{i:012}")
    }

    fn path(day: &Path, k: u64) -> PathBuf {
        day.join(format!("rollout-2026-11-29T12-00-00-{}.jsonl", uid(k)))
    }

    /// A `session_meta` line at ordinal `first`, with `history_base` = (source id, its
    /// end ordinal, its end byte offset) for a fork.
    fn meta(id: &str, first: u64, base: Option<(&str, u64, u64)>) -> String {
        let base = base.map_or(String::new(), |(thread, end, offset)| {
            format!(
                concat!(
                    r#","history_base":{{"thread_id":"{}","end_ordinal_exclusive":{},"#,
                    r#""end_byte_offset":{}}}"#
                ),
                thread, end, offset
            )
        });
        format!(
            concat!(
                r#"{{"timestamp":"2026-11-29T12:00:00.000Z","ordinal":{},"type":"session_meta","#,
                r#""payload":{{"id":"{}","timestamp":"2026-11-29T12:00:00.000Z","cwd":"/w","#,
                r#""originator":"codex_exec","cli_version":"0.171.0","model_provider":"mock","#,
                r#""history_mode":"paginated"{}}}}}"#,
                "\n"
            ),
            first, id, base
        )
    }

    /// A user message at ordinal `o`.
    fn msg(o: u64, text: &str) -> String {
        format!(
            concat!(
                r#"{{"timestamp":"2026-11-29T12:00:02.000Z","ordinal":{},"type":"response_item","#,
                r#""payload":{{"type":"message","role":"user","content":[{{"type":"input_text","#,
                r#""text":"{}"}}]}}}}"#,
                "\n"
            ),
            o, text
        )
    }

    /// Writes rollout `k`, returning its length.
    fn write(day: &Path, k: u64, text: &str) -> Result<u64, String> {
        let p = path(day, k);
        fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(text.len() as u64)
    }

    /// `n` forks numbered from `first_id`, each of the whole of the one before, the first
    /// of the whole of `src`. Returns their total length.
    fn chain_below(day: &Path, first_id: u64, mut src: Source, n: u64) -> Result<u64, String> {
        let mut bytes = 0;
        for j in first_id..first_id + n {
            let first = src.1;
            let text = meta(&uid(j), first, Some((&src.0, first, src.2)))
                + &msg(first + 1, &format!("c{j}"));
            let size = write(day, j, &text)?;
            bytes += size;
            src = (uid(j), first + 2, size);
        }
        Ok(bytes)
    }

    /// A parent written: the ordinal after its last line, its length, and where each of its
    /// calls starts (ordinal, byte offset).
    type Parent = (u64, u64, Vec<(u64, u64)>);

    /// The parent: about `parent_mb` MB of calls and 8 KB outputs after its `session_meta`.
    fn parent(day: &Path, parent_mb: u64) -> Result<Parent, String> {
        let out = "x".repeat(8000);
        let p = path(day, 0);
        let err = |e: std::io::Error| format!("{}: {e}", p.display());
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&p).map_err(err)?);
        let head = meta(&uid(0), 0, None);
        w.write_all(head.as_bytes()).map_err(err)?;
        // The calls and outputs, until they reach the size (the first line not counted).
        let (mut o, mut size) = (1u64, 0u64);
        let mut calls = Vec::new();
        while size < parent_mb * 1_000_000 {
            calls.push((o, head.len() as u64 + size));
            let call = format!(
                concat!(
                    r#"{{"timestamp":"2026-11-29T12:00:01.000Z","ordinal":{},"type":"response_item","#,
                    r#""payload":{{"type":"function_call","name":"shell","call_id":"c{}","#,
                    r#""arguments":"{{\"cmd\":\"ls\"}}"}}}}"#,
                    "\n"
                ),
                o, o
            );
            let answer = format!(
                concat!(
                    r#"{{"timestamp":"2026-11-29T12:00:01.000Z","ordinal":{},"type":"response_item","#,
                    r#""payload":{{"type":"function_call_output","call_id":"c{}","output":"{}"}}}}"#,
                    "\n"
                ),
                o + 1,
                o,
                out
            );
            w.write_all(call.as_bytes()).map_err(err)?;
            w.write_all(answer.as_bytes()).map_err(err)?;
            size += (call.len() + answer.len()) as u64;
            o += 2;
        }
        w.flush().map_err(err)?;
        Ok((o, head.len() as u64 + size, calls))
    }

    /// Returns the files written and their total length.
    fn fanout(day: &Path, parent_mb: u64, forks: u64, chain: u64) -> Result<(u64, u64), String> {
        let (o, parent_len, _) = parent(day, parent_mb)?;
        let (mut files, mut bytes) = (1, parent_len);
        let mut first_fork = None;
        for k in 1..=forks {
            let text =
                meta(&uid(k), o, Some((&uid(0), o, parent_len))) + &msg(o + 1, &format!("f{k}"));
            let size = write(day, k, &text)?;
            (files, bytes) = (files + 1, bytes + size);
            if k == 1 {
                first_fork = Some((uid(1), o + 2, size));
            }
        }
        if let Some(src) = first_fork.filter(|_| chain > 0) {
            bytes += chain_below(day, forks + 1, src, chain)?;
            files += chain;
        }
        Ok((files, bytes))
    }

    /// Returns the files written and their total length.
    fn spawn(day: &Path, parent_mb: u64, forks: u64) -> Result<(u64, u64), String> {
        let (_, parent_len, calls) = parent(day, parent_mb)?;
        let (mut files, mut bytes) = (1, parent_len);
        for k in 1..=forks {
            // After the k/(n+1)th of the calls: before the call there.
            let at = (calls.len() as u64 * k / (forks + 1)) as usize;
            let Some(&(o, offset)) = calls.get(at) else {
                continue;
            };
            let text = meta(&uid(k), o, Some((&uid(0), o, offset))) + &msg(o + 1, &format!("s{k}"));
            bytes += write(day, k, &text)?;
            files += 1;
        }
        Ok((files, bytes))
    }

    /// Returns the files written and their total length.
    fn chain(day: &Path, depth: u64) -> Result<(u64, u64), String> {
        let size = write(day, 0, &(meta(&uid(0), 0, None) + &msg(1, "root")))?;
        let bytes = chain_below(day, 1, (uid(0), 2, size), depth)?;
        Ok((1 + depth, size + bytes))
    }
}

/// Codex's state databases for the tree, agreeing with its files as a healthy home's do
/// (`docs/state.md`): a `threads` row per rollout (its absolute path, archived or not, its
/// history mode), and for each paginated one its projection checkpoint at the end of the
/// file and its turns, each from its `task_started` line to the end of its `task_complete`.
/// Only the columns rollscope reads; a `.zst` gets its row alone.
mod state_db {
    use std::fs;
    use std::path::{Path, PathBuf};

    use rayon::prelude::*;
    use rollscope::decode::{Decoder, Entry};

    const SCHEMA: &str = "
        CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL,
            archived INTEGER NOT NULL DEFAULT 0, history_mode TEXT NOT NULL DEFAULT 'legacy');
    ";
    const HISTORY_SCHEMA: &str = "
        CREATE TABLE thread_history_projection_state (thread_id TEXT PRIMARY KEY,
            next_rollout_byte_offset INTEGER NOT NULL, next_rollout_ordinal INTEGER NOT NULL);
        CREATE TABLE thread_turns (thread_id TEXT NOT NULL, turn_id TEXT NOT NULL,
            rollout_ordinal INTEGER NOT NULL, status TEXT NOT NULL, rollout_byte_offset INTEGER,
            rollout_end_ordinal INTEGER, rollout_end_byte_offset INTEGER,
            PRIMARY KEY (thread_id, turn_id));
    ";

    /// A stored turn: its id, its `task_started` line's ordinal and offset, its
    /// `task_complete` line's ordinal and end.
    type Turn = (String, u64, u64, u64, u64);

    /// A paginated thread's projection: its checkpoint (offset, next ordinal) and turns.
    type Projection = ((u64, u64), Vec<Turn>);

    /// One rollout as the databases see it.
    struct Thread {
        id: String,
        path: String,
        archived: bool,
        /// The checkpoint (the file's size, the ordinal after its last) and the turns
        /// (id, ordinal, start, end ordinal, end), for a paginated file.
        paginated: Option<Projection>,
    }

    fn thread(path: &Path) -> Option<Thread> {
        let name = path.file_name()?.to_str()?;
        let (id, _) = rollscope::lineage::ids_from_file_name(name)?;
        let abs = std::path::absolute(path).ok()?;
        let archived = path
            .components()
            .any(|c| c.as_os_str() == "archived_sessions");
        let mut t = Thread {
            id: id.to_ascii_lowercase(),
            path: abs.display().to_string(),
            archived,
            paginated: None,
        };
        if name.ends_with(".zst") {
            return Some(t);
        }
        let stream = rollscope::input::wrap(Box::new(fs::File::open(path).ok()?)).ok()?;
        let mut dec = Decoder::new(stream);
        let (mut last, mut end) = (None::<u64>, 0u64);
        let mut turns = Vec::new();
        let mut open: Option<(String, u64, u64)> = None;
        while let Some(e) = dec.next() {
            let Ok(Entry::Record(rec)) = e else { continue };
            let line = rec.line_uncounted();
            end = line.next();
            let Some(o) = rec.ordinal else { continue };
            last = Some(o);
            match rec.payload_type() {
                Some("task_started") => {
                    let turn = rec.payload_field("turn_id").unwrap_or("\"\"");
                    let turn = turn.trim_matches('"').to_string();
                    open = Some((turn, o, line.pos.offset));
                }
                Some("task_complete") => {
                    if let Some((turn, ordinal, start)) = open.take() {
                        turns.push((turn, ordinal, start, o, end));
                    }
                }
                _ => {}
            }
        }
        if let Some(last) = last {
            t.paginated = Some(((end, last + 1), turns));
        }
        Some(t)
    }

    pub fn write(out: &Path, files: &[PathBuf]) -> Result<(), String> {
        let mut threads: Vec<Thread> = files.par_iter().filter_map(|p| thread(p)).collect();
        threads.sort_by(|a, b| a.id.cmp(&b.id));
        threads.dedup_by(|a, b| a.id == b.id);
        let err = |e: rusqlite::Error| e.to_string();
        for (db, schema) in [
            ("state_5.sqlite", SCHEMA),
            ("thread_history_1.sqlite", HISTORY_SCHEMA),
        ] {
            for suffix in ["", "-wal", "-shm"] {
                let _ = fs::remove_file(out.join(format!("{db}{suffix}")));
            }
            let mut conn = rusqlite::Connection::open(out.join(db)).map_err(err)?;
            conn.execute_batch(schema).map_err(err)?;
            let tx = conn.transaction().map_err(err)?;
            for t in &threads {
                if db == "state_5.sqlite" {
                    let mode = if t.paginated.is_some() {
                        "paginated"
                    } else {
                        "legacy"
                    };
                    tx.execute(
                        "INSERT INTO threads VALUES (?1, ?2, ?3, ?4)",
                        rusqlite::params![t.id, t.path, t.archived, mode],
                    )
                    .map_err(err)?;
                    continue;
                }
                let Some(((size, next), turns)) = &t.paginated else {
                    continue;
                };
                tx.execute(
                    "INSERT INTO thread_history_projection_state VALUES (?1, ?2, ?3)",
                    rusqlite::params![t.id, *size as i64, *next as i64],
                )
                .map_err(err)?;
                for (turn, o, start, end_o, end) in turns {
                    tx.execute(
                        "INSERT OR IGNORE INTO thread_turns VALUES (?1, ?2, ?3, 'completed', ?4, ?5, ?6)",
                        rusqlite::params![t.id, turn, *o as i64, *start as i64, *end_o as i64, *end as i64],
                    )
                    .map_err(err)?;
                }
            }
            tx.commit().map_err(err)?;
            conn.pragma_update(None, "journal_mode", "WAL")
                .map_err(err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rollscope::decode::{Decoder, Entry};

    fn generate(out: &Path, extra: &[&str]) {
        let mut argv = vec!["gen-corpus", "--out", out.to_str().unwrap(), "--quiet"];
        argv.extend_from_slice(extra);
        run(&Args::parse_from(argv)).unwrap();
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut v = Vec::new();
        for sub in ["sessions", "archived_sessions"] {
            find_rollouts(&dir.join(sub), &mut v);
            let mut zst = Vec::new();
            collect_zst(&dir.join(sub), &mut zst);
            v.extend(zst);
        }
        v.sort();
        v
    }

    fn collect_zst(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = fs::read_dir(dir) else { return };
        for e in rd.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                collect_zst(&p, out);
            } else if p.to_string_lossy().ends_with(".jsonl.zst") {
                out.push(p);
            }
        }
    }

    /// A small tree decodes cleanly: no bad line, contiguous ordinals in paginated files,
    /// timestamps and cumulative token totals that never go back, one session_meta first.
    #[test]
    fn a_small_corpus_is_valid_and_deterministic() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let args = ["--size", "4MB", "--giant-line", "200KiB", "--seed", "42"];
        generate(a.path(), &args);
        generate(b.path(), &args);
        let fa = files(a.path());
        assert!(fa.len() > 10, "{} files", fa.len());
        let mut saw_giant = false;
        let mut saw_paginated = false;
        let mut saw_zst = false;
        for f in &fa {
            let rel = f.strip_prefix(a.path()).unwrap();
            let data = fs::read(f).unwrap();
            assert_eq!(
                data,
                fs::read(b.path().join(rel)).unwrap(),
                "{rel:?} differs"
            );
            let stream = rollscope::input::wrap(Box::new(std::io::Cursor::new(data))).unwrap();
            saw_zst |= rel.to_string_lossy().ends_with(".zst");
            let mut dec = Decoder::new(stream);
            let (mut ordinal, mut last_ts, mut last_total) = (None::<u64>, String::new(), 0u64);
            let mut lines = 0;
            while let Some(e) = dec.next() {
                lines += 1;
                let rec = match e.unwrap() {
                    Entry::Record(r) => r,
                    other => panic!("{rel:?}: {other:?}"),
                };
                if lines == 1 {
                    assert_eq!(rec.type_name, "session_meta", "{rel:?}");
                }
                saw_giant |= rec.raw.len() >= 200 * 1024 && rec.type_name == "compacted";
                if let Some(o) = rec.ordinal {
                    saw_paginated = true;
                    if let Some(prev) = ordinal {
                        assert_eq!(o, prev + 1, "{rel:?}:{lines}");
                    }
                    ordinal = Some(o);
                }
                let ts = rec.timestamp.to_string();
                // The lineage scenarios are copied verbatim: real, and already in order.
                assert!(ts >= last_ts, "{rel:?}:{lines}: {ts} < {last_ts}");
                last_ts = ts;
                if rec.payload_type() == Some("token_count") {
                    let v: serde_json::Value = serde_json::from_str(rec.payload.get()).unwrap();
                    if let Some(t) = v["info"]["total_token_usage"]["total_tokens"].as_u64() {
                        let verbatim = rel.to_string_lossy().contains("2026-11-29T12-");
                        assert!(verbatim || t >= last_total, "{rel:?}:{lines}");
                        last_total = t;
                    }
                }
            }
            assert!(lines > 0, "{rel:?} is empty");
        }
        assert!(saw_giant && saw_paginated && saw_zst);
    }

    /// The lineage shapes keep their rules: each fork's `session_meta` at the ordinal its
    /// `history_base` ends at, which is its source's end, `end_byte_offset` its source's
    /// length, ordinals contiguous in each file.
    #[test]
    fn the_lineage_shapes_keep_their_rules() {
        let d = tempfile::tempdir().unwrap();
        let fanout = ["--parent-mb", "1", "--forks", "3", "--chain", "4"];
        for (shape, extra, n) in [
            ("fanout", &fanout[..], 8),
            ("chain", &["--depth", "30"], 31),
        ] {
            let out = d.path().join(shape);
            let mut argv = vec!["--lineage", shape];
            argv.extend_from_slice(extra);
            generate(&out, &argv);
            let all = files(&out);
            assert_eq!(all.len(), n, "{shape}");
            // id -> (length, ordinal after the last line); (first ordinal, history_base).
            let mut ends: HashMap<String, (u64, u64)> = HashMap::new();
            let mut bases = Vec::new();
            for f in &all {
                let text = fs::read_to_string(f).unwrap();
                let (mut id, mut next) = (String::new(), None::<u64>);
                for (i, line) in text.lines().enumerate() {
                    let v: Value = serde_json::from_str(line).unwrap();
                    let o = v["ordinal"].as_u64().unwrap();
                    assert!(next.is_none_or(|n| n == o), "{f:?}:{i}");
                    next = Some(o + 1);
                    if i == 0 {
                        assert_eq!(v["type"], "session_meta", "{f:?}");
                        id = v["payload"]["id"].as_str().unwrap().to_string();
                        if let Some(b) = v["payload"].get("history_base") {
                            bases.push((o, b.clone()));
                        }
                    }
                }
                ends.insert(id, (text.len() as u64, next.unwrap()));
            }
            assert_eq!(bases.len(), n - 1, "{shape}");
            for (first, b) in bases {
                let (len, end) = ends[b["thread_id"].as_str().unwrap()];
                assert_eq!(b["end_ordinal_exclusive"].as_u64(), Some(first), "{b}");
                assert_eq!((len, end), (b["end_byte_offset"].as_u64().unwrap(), first));
            }
        }
    }

    /// The spawn shape's forks each cut the parent at the start of one of its calls, each
    /// at its own cutoff, spread over it.
    #[test]
    fn the_spawn_shape_forks_its_parent_where_its_calls_start() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("spawn");
        generate(
            &out,
            &["--lineage", "spawn", "--parent-mb", "1", "--forks", "4"],
        );
        let all = files(&out);
        assert_eq!(all.len(), 5);
        let parent = fs::read_to_string(&all[0]).unwrap();
        // Ordinal -> where its line starts, and its type.
        let mut starts: HashMap<u64, (u64, String)> = HashMap::new();
        let mut at = 0u64;
        for line in parent.split_inclusive('\n') {
            let v: Value = serde_json::from_str(line).unwrap();
            let kind = v["payload"]["type"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            starts.insert(v["ordinal"].as_u64().unwrap(), (at, kind));
            at += line.len() as u64;
        }
        let mut cutoffs = Vec::new();
        for f in &all[1..] {
            let text = fs::read_to_string(f).unwrap();
            let meta: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
            let b = &meta["payload"]["history_base"];
            let end = b["end_ordinal_exclusive"].as_u64().unwrap();
            assert_eq!(meta["ordinal"].as_u64(), Some(end), "{f:?}");
            let (offset, kind) = &starts[&end];
            assert_eq!(b["end_byte_offset"].as_u64(), Some(*offset), "{f:?}");
            assert_eq!(kind, "function_call", "{f:?}");
            cutoffs.push(end);
        }
        assert!(cutoffs.windows(2).all(|w| w[0] < w[1]), "{cutoffs:?}");
        assert!(cutoffs[0] > 1 && *cutoffs.last().unwrap() < starts.len() as u64 - 1);
    }
}
