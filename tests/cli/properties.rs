//! Property tests (issue #15): invariants that must hold on any input, checked on the real
//! rollouts of `testdata/real` mutated at random (`docs/robustness.md`, "Property tests").
//!
//! The properties of one file's reading (blank lines, CRLF, prefixes) go through the
//! library's one pass (`rollscope::analysis::read_stream`), which is what every subcommand
//! runs per file, so they can afford many cases. Those about files as given on the command
//! line (`.zst`, `-j`, argument order, `--by total`) spawn the binary, with few cases.

use std::fmt;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::{select, subsequence, Index};
use proptest::test_runner::Config;
use serde_json::Value;

use rollscope::analysis::{self, FileFacts, Needs, ReadOptions};
use rollscope::input::Source;
use rollscope::time::Zone;

use crate::util::*;

/// A plain real rollout: its path and its bytes. A failing case shows only the path.
struct Rollout {
    path: PathBuf,
    text: Vec<u8>,
}

impl fmt::Debug for Rollout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} bytes)", self.path.display(), self.text.len())
    }
}

/// Every plain real rollout, read once.
fn plain_rollouts() -> &'static [Rollout] {
    static FILES: OnceLock<Vec<Rollout>> = OnceLock::new();
    FILES.get_or_init(|| {
        let files: Vec<_> = rollouts_under(&testdata("real"))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .map(|path| {
                let text = std::fs::read(&path).unwrap();
                Rollout { path, text }
            })
            .collect();
        assert!(files.len() >= 38, "testdata/real holds {}", files.len());
        files
    })
}

/// Every real rollout, `.jsonl.zst` included, as the paths given on a command line.
fn all_rollouts() -> Vec<String> {
    rollouts_under(&testdata("real"))
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect()
}

/// Any one plain real rollout.
fn a_rollout() -> impl Strategy<Value = &'static Rollout> {
    select(plain_rollouts().iter().collect::<Vec<_>>())
}

/// A reader that hands out at most `chunk` bytes per `read`, as a pipe or a slow disk can.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The one pass with `stats`' census over `text`, read `chunk` bytes at a time through a
/// buffer of `capacity`.
fn read_in_chunks(text: &[u8], chunk: usize, capacity: usize) -> FileFacts {
    let stream = BufReader::with_capacity(capacity, Trickle { data: text, chunk });
    analysis::read_stream(
        stream,
        Source::Stdin,
        &ReadOptions::default(),
        &Needs::default().census(Zone::Utc),
    )
}

/// A file's `stats` row as the library computes it: its session, then its counts (the
/// row's fields but `path`, `history_mode` as the session recorded it).
fn stats_row(text: &[u8]) -> Value {
    let facts = read_in_chunks(text, usize::MAX, 64 * 1024);
    let mut row = serde_json::to_value(&facts.session).unwrap();
    let counts = serde_json::to_value(&facts.census.expect("the census ran").counts).unwrap();
    row.as_object_mut()
        .unwrap()
        .extend(counts.as_object().unwrap().clone());
    row
}

/// Add `n` to the count `key` of `row`.
fn bump(row: &mut Value, key: &str, n: u64) {
    let v = &mut row[key];
    *v = (v.as_u64().unwrap() + n).into();
}

/// The offsets where a line starts (and the end, when the file ends with a newline): where
/// a blank line can go without cutting a line in two.
fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(newlines(text).map(|i| i + 1));
    v
}

fn newlines(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    text.iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i)
}

/// Blank lines as a writer or an editor leaves them: empty, whitespace-only, CRLF.
const BLANKS: [&str; 5] = ["\n", " \n", "\t\n", "  \t \n", "\r\n"];

/// `stats`' NDJSON rows of `rollscope ARGS... --format ndjson FILES...`, exit 0.
fn run_rows(args: &[&str], files: &[String]) -> Vec<Value> {
    let mut a = vec![args[0], "--format", "ndjson"];
    a.extend_from_slice(&args[1..]);
    a.extend(files.iter().map(String::as_str));
    rows(&a, 0)
}

/// The sum of rows' fields `keys` (numbers, or objects of numbers summed key by key).
fn sum_fields(rows: &[Value], keys: &[&str]) -> Value {
    fn add(into: &mut Value, v: &Value) {
        match v {
            Value::Object(o) => {
                if into.is_null() {
                    *into = Value::Object(serde_json::Map::new());
                }
                for (k, x) in o {
                    add(&mut into[k.as_str()], x);
                }
            }
            n => *into = (into.as_u64().unwrap_or(0) + n.as_u64().unwrap()).into(),
        }
    }
    let mut sum = Value::Object(serde_json::Map::new());
    for row in rows {
        for &k in keys {
            add(&mut sum[k], &row[k]);
        }
    }
    sum
}

/// `row`'s fields `keys`.
fn fields(row: &Value, keys: &[&str]) -> Value {
    Value::Object(
        keys.iter()
            .map(|&k| (k.to_string(), row[k].clone()))
            .collect(),
    )
}

/// `n` cases, or `$PROPTEST_CASES` when set (a longer run: `docs/robustness.md`).
fn cases(n: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    Config {
        cases,
        ..Config::default()
    }
}

/// The counts of a `stats` row that a `--by total` row sums. `bom` is each file's own
/// (absent from a group's row).
const SUMMED: [&str; 10] = [
    "lines",
    "blank_lines",
    "bytes",
    "parse_errors",
    "records",
    "response_items",
    "events",
    "turns",
    "tool_calls",
    "tokens",
];

proptest! {
    #![proptest_config(cases(256))]

    /// Blank lines anywhere between lines change no count but those of lines: `lines` and
    /// `blank_lines` grow by the lines inserted and `bytes` by their bytes; the session,
    /// records, payload types, turns, calls and tokens stay as they were.
    #[test]
    fn blank_lines_inserted_between_lines_change_only_the_line_and_byte_counts(
        file in a_rollout(),
        inserts in prop::collection::vec((any::<Index>(), select(BLANKS.to_vec())), 1..8),
    ) {
        let (path, text) = (&file.path, &file.text);
        let starts = line_starts(text);
        let mut at: Vec<(usize, &str)> =
            inserts.iter().map(|(i, b)| (*i.get(&starts), *b)).collect();
        at.sort();
        let mut mutated = text.clone();
        for &(offset, blank) in at.iter().rev() {
            mutated.splice(offset..offset, blank.bytes());
        }
        let mut want = stats_row(text);
        bump(&mut want, "lines", at.len() as u64);
        bump(&mut want, "blank_lines", at.len() as u64);
        bump(&mut want, "bytes", at.iter().map(|(_, b)| b.len() as u64).sum());
        prop_assert_eq!(stats_row(&mutated), want, "{} with blank lines at {:?}", path.display(), at);
    }

    /// Ending any lines with CRLF instead of LF changes no count but `bytes` (one more per
    /// line switched): Codex's reader and rollscope's take `\r\n` as a line end.
    #[test]
    fn crlf_line_ends_change_only_the_byte_count(
        file in a_rollout(),
        all in any::<bool>(),
        mask in prop::collection::vec(any::<bool>(), 0..400),
    ) {
        let (path, text) = (&file.path, &file.text);
        let mut mutated = Vec::with_capacity(text.len() + text.len() / 64);
        let mut switched = 0u64;
        for (i, line) in text.split_inclusive(|&b| b == b'\n').enumerate() {
            if (all || mask.get(i) == Some(&true)) && line.ends_with(b"\n") {
                mutated.extend_from_slice(&line[..line.len() - 1]);
                mutated.extend_from_slice(b"\r\n");
                switched += 1;
            } else {
                mutated.extend_from_slice(line);
            }
        }
        let mut want = stats_row(text);
        bump(&mut want, "bytes", switched);
        prop_assert_eq!(stats_row(&mutated), want, "{} with {} CRLF lines", path.display(), switched);
    }

    /// Any prefix of a valid file, read in any sizes of reads, decodes with no bad line
    /// except possibly its last, torn one: a file cut where a writer crashed or while it is
    /// being written loses at most the line it was writing.
    #[test]
    fn any_prefix_of_a_valid_file_has_no_bad_line_but_its_torn_last_one(
        file in a_rollout(),
        cut in any::<Index>(),
        chunk in 1usize..5000,
        capacity in 1usize..9000,
    ) {
        let (path, text) = (&file.path, &file.text);
        let prefix = &text[..cut.index(text.len() + 1)];
        let facts = read_in_chunks(prefix, chunk, capacity);
        let what = format!("{} cut at {} of {}", path.display(), prefix.len(), text.len());
        let whole_lines = newlines(prefix).count() as u64;
        let partial = !prefix.is_empty() && !prefix.ends_with(b"\n");
        prop_assert_eq!(facts.io_error.as_deref(), None, "{}", what);
        prop_assert_eq!(facts.stream.lines, whole_lines + u64::from(partial), "{}", what);
        prop_assert!(facts.bad.len() <= 1, "{}: {:?}", what, facts.bad);
        if let Some(bad) = facts.bad.first() {
            prop_assert!(partial, "{}: a bad line in a whole-line prefix: {:?}", what, bad);
            prop_assert_eq!(bad.pos.line, facts.stream.lines, "{}: {:?}", what, bad);
            prop_assert!(bad.torn, "{}: the last line is not called torn: {:?}", what, bad);
        }
        // Every other line is a record (the real rollouts have no blank line).
        prop_assert_eq!(
            facts.stream.records + facts.bad.len() as u64,
            facts.stream.lines,
            "{}", what
        );
    }
}

/// Write `data` zstd-compressed at `level` into `path`, cut into frames at `cuts`.
fn write_zst(path: &Path, data: &[u8], level: i32, cuts: &[Index]) {
    let mut at: Vec<usize> = cuts.iter().map(|c| c.index(data.len() + 1)).collect();
    at.push(0);
    at.push(data.len());
    at.sort();
    let mut out = Vec::new();
    for w in at.windows(2) {
        out.extend(zstd::encode_all(&data[w[0]..w[1]], level).unwrap());
    }
    std::fs::write(path, out).unwrap();
}

proptest! {
    #![proptest_config(cases(32))]

    /// A rollout compressed with zstd, at any level and in any number of frames, reads as
    /// the plain file: `stats` and `turns` rows equal but for `path`.
    #[test]
    fn a_zst_file_reads_as_its_plain_file_at_any_level_and_framing(
        file in a_rollout(),
        level in -5i32..=19,
        cuts in prop::collection::vec(any::<Index>(), 0..3),
    ) {
        let (path, text) = (&file.path, &file.text);
        let dir = tempfile::tempdir().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let zst = dir.path().join(format!("{name}.zst"));
        write_zst(&zst, text, level, &cuts);
        let files = [path.to_str().unwrap().to_string(), zst.to_str().unwrap().to_string()];
        for cmd in ["stats", "turns"] {
            let rows = run_rows(&[cmd], &files);
            let (plain, packed): (Vec<_>, Vec<_>) = rows
                .iter()
                .partition(|r| r["path"].as_str() == Some(files[0].as_str()));
            let plain: Vec<_> = plain.into_iter().map(without_path).collect();
            let packed: Vec<_> = packed.into_iter().map(without_path).collect();
            prop_assert!(!plain.is_empty(), "{} {}: no rows", cmd, name);
            prop_assert_eq!(plain, packed, "{} {} at level {}, cut at {:?}", cmd, name, level, cuts);
        }
    }

    /// Any set of files, in any order, given to `stats`: the rows follow the arguments,
    /// each file's row is the one it has in any other order, and `--by total`'s row sums
    /// them, tokens and per-type counts included.
    #[test]
    fn stats_of_a_set_of_files_are_its_files_stats_in_any_order_and_sum_to_its_total(
        files in subsequence(all_rollouts(), 1..=12).prop_shuffle(),
    ) {
        let rows = run_rows(&["stats"], &files);
        let paths: Vec<_> = rows.iter().map(|r| r["path"].as_str().unwrap()).collect();
        prop_assert_eq!(&paths, &files);
        let mut sorted = files.clone();
        sorted.sort();
        let mut by_path = rows.clone();
        by_path.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
        prop_assert_eq!(&by_path, &run_rows(&["stats"], &sorted));
        let total = run_rows(&["stats", "--by", "total"], &files);
        prop_assert_eq!(total.len(), 1);
        prop_assert_eq!(total[0]["sessions"].as_u64(), Some(files.len() as u64));
        prop_assert_eq!(fields(&total[0], &SUMMED), sum_fields(&rows, &SUMMED));
    }
}

proptest! {
    #![proptest_config(cases(24))]

    /// Reading files in parallel changes nothing: `stats`, `turns` and `calls` print the
    /// same rows, in the same order, with `-j 1` as with `-j N`.
    #[test]
    fn one_job_and_many_jobs_print_the_same_rows(
        files in subsequence(all_rollouts(), 1..=16).prop_shuffle(),
        jobs in 2usize..=8,
    ) {
        let jobs = jobs.to_string();
        for cmd in ["stats", "turns", "calls"] {
            let one = run_rows(&[cmd, "-j", "1"], &files);
            let many = run_rows(&[cmd, "-j", &jobs], &files);
            // A file with no call has no `calls` row; every file has a `stats` row.
            prop_assert!(cmd == "calls" || !one.is_empty(), "{}: no rows", cmd);
            prop_assert_eq!(one, many, "{} -j {} over {:?}", cmd, jobs, files);
        }
    }
}
