//! The properties the fuzz targets under `fuzz/` check, kept in the library so that
//! `cargo test` holds them on every testdata line and every input the fuzzers ever found
//! (`fuzz/regressions/`), and so that the targets are one call each.
//!
//! Each check panics on a violation: a panic is what libFuzzer reports. None of this runs
//! in a command; see `docs/robustness.md` for the targets, the runs and the findings.

// A check states its property by asserting it; the panics here are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::io::{self, BufRead, BufReader, Read};

use crate::analysis::boundary::Cutoff;
use crate::analysis::turns::Detail;
use crate::analysis::{self, Needs, ReadOptions};
use crate::decode::{self, outcome, scan, Decoder, Entry, Line, Pos, StreamInfo};
use crate::input::Source;
use crate::time::Zone;

/// The scanner differential (target `scanner`): on any bytes taken as one line,
/// - the scalar, SSE2 and AVX2 paths give the same answer and the same payload members;
/// - whatever the scanner accepts, the serde path accepts too, with the same record: the
///   envelope's fields, the payload, its `type`, and its members as serde reads them;
/// - a line scanned where it lies in a read buffer is the line scanned on its own;
/// - a string or a value the scanner measures is one serde reads, of that length.
pub fn scanner(line: &[u8]) {
    let mut auto = Vec::new();
    let parts = scan::scan(line, &mut auto);
    for v in [scan::Vector::Scalar, scan::Vector::Sse2, scan::Vector::Avx2] {
        let mut fields = Vec::new();
        if let Some(got) = scan::scan_with(line, &mut fields, v) {
            assert_eq!(got, parts, "{v:?} path");
            assert_eq!(fields, auto, "{v:?} path's payload members");
        }
    }
    if let Some(p) = parts {
        accepted_as_serde_reads_it(line, &p, &auto);
    }
    in_buffer(line);
    if let Some(n) = decode::json_string_len(line) {
        let s = &line[..n];
        assert!(
            serde_json::from_slice::<String>(s).is_ok(),
            "a string serde rejects: {:?}",
            String::from_utf8_lossy(s)
        );
    }
    if let Some(n) = scan::value_len(line) {
        let v = std::str::from_utf8(&line[..n]).expect("a scanned value is UTF-8");
        assert!(
            decode::codex_value_check(v).is_ok(),
            "a value Codex's reader rejects: {v:?}"
        );
    }
}

/// The scanner accepted `line` with `parts`: serde agrees, field by field.
fn accepted_as_serde_reads_it(line: &[u8], parts: &scan::Parts, fields: &[scan::Field]) {
    let fast = decode::decode_line(line, Pos::default());
    let slow = decode::decode_line_serde(line, Pos::default());
    assert_eq!(outcome(&fast), outcome(&slow), "the scanner and serde");
    // Codex reads the line into a `Value`: the payload's members are those.
    let text = std::str::from_utf8(line).expect("an accepted line is UTF-8");
    let Ok(serde_json::Value::Object(env)) = serde_json::from_str::<serde_json::Value>(text) else {
        // Beyond serde's own `Value` (a number beyond f64, which Codex keeps): nothing more
        // to compare against.
        return;
    };
    let payload = match env.get("payload") {
        Some(serde_json::Value::Object(p)) => p,
        None | Some(serde_json::Value::Null) => {
            assert!(parts.payload.is_none(), "a payload serde does not see");
            return;
        }
        // Not an object: the record is refused, as the comparison above checked.
        Some(_) => return,
    };
    let at = |s: scan::Span| &text[s.0..s.1];
    for f in fields {
        let key = at(f.key);
        let want = payload.get(key).expect("a member serde does not see");
        let got: serde_json::Value = serde_json::from_str(at(f.value)).unwrap();
        // A repeated key: serde keeps the last one, which the list holds last.
        let last = fields.iter().rev().find(|g| at(g.key) == key).unwrap();
        if std::ptr::eq(last, f) {
            assert_eq!(&got, want, "member {key:?}");
        }
    }
    if parts.fields_complete {
        let mut keys: Vec<&str> = fields.iter().map(|f| at(f.key)).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), payload.len(), "the payload's members");
    }
    if let scan::PayloadType::Plain(s) = parts.payload_type {
        assert_eq!(
            payload.get("type").and_then(|t| t.as_str()),
            Some(at(s)),
            "the payload's type"
        );
    }
}

/// The line scanned where it lies, in a buffer that goes on past it, is the line scanned on
/// its own.
fn in_buffer(line: &[u8]) {
    let mut buf = line.to_vec();
    buf.extend_from_slice(b"\n{\"more\":");
    let mut fields = Vec::new();
    if let Some((p, nl)) = scan::scan_in_buffer(&buf, &mut fields) {
        assert_eq!(buf[nl], b'\n');
        let mut alone = Vec::new();
        assert_eq!(scan::scan(&buf[..nl], &mut alone), Some(p), "in a buffer");
        assert_eq!(alone, fields, "in a buffer: the payload's members");
    }
}

/// The decoder as a whole (target `decoder`): `data`'s first bytes choose a line limit and a
/// read schedule, the rest is the stream. Read in pieces of any size (with `Interrupted`
/// errors between them) through a buffer of any size, the stream gives the same lines as
/// read at once, and the lines account for it exactly:
/// - numbered 1, 2, 3... with offsets rising by each line's bytes, the stream's length in
///   all;
/// - each record's text lies at its offset, and decodes on its own to the same record;
/// - only the last line can be torn, and only when the stream does not end in `\n`.
pub fn decoder(data: &[u8]) {
    let (limit, schedule, stream) = match data {
        [l0, l1, s0, s1, s2, rest @ ..] => {
            // Half the inputs keep the default limit; the others get a small one, so that
            // the cut of a long line and what follows it are reached.
            let limit = (l0 & 1 == 1).then(|| 1 + usize::from(u16::from_le_bytes([*l0, *l1])));
            (limit, [*s0, *s1, *s2], rest)
        }
        _ => (None, [0; 3], data),
    };
    let whole = read_all(stream, limit, |s| Box::new(s));
    let capacity = 1 + usize::from(schedule[0]).pow(2);
    let pieces = read_all(stream, limit, |s| {
        Box::new(BufReader::with_capacity(
            capacity,
            Pieces {
                data: s,
                sizes: schedule,
                calls: 0,
            },
        ))
    });
    assert_eq!(whole, pieces, "read in pieces (buffer {capacity})");
    accounted(stream, &whole);
}

/// What [`decoder`] compares: every line's summary, and the stream facts.
#[derive(Debug, PartialEq, Eq)]
struct Lines {
    lines: Vec<Seen>,
    info: StreamInfo,
}

/// One line as [`decoder`] saw it: where and how long, what, a record's text (offset,
/// length), torn.
type Seen = (Line, String, Option<(u64, usize)>, bool);

fn read_all<'a>(
    stream: &'a [u8],
    limit: Option<usize>,
    open: impl FnOnce(&'a [u8]) -> Box<dyn BufRead + 'a>,
) -> Lines {
    let mut d = Decoder::new(open(stream));
    if let Some(l) = limit {
        d = d.max_line_bytes(l);
    }
    let mut lines = Vec::new();
    while let Some(e) = d.next() {
        let e = e.expect("reading a slice cannot fail");
        lines.push(match e {
            Entry::Record(r) => {
                let at = r
                    .stream_offset_of(r.raw)
                    .expect("a record's text is its own");
                let line = r.line();
                assert_eq!(
                    r.line_uncounted(),
                    Line {
                        chars: None,
                        ..line
                    }
                );
                let alone = decode::decode_line(r.raw.as_bytes(), r.pos);
                let (o, a) = (outcome(&Ok(r)), outcome(&alone));
                assert_eq!(o, a, "a record decoded where it lies and on its own");
                (line, o, Some((at, a.len())), false)
            }
            Entry::Blank(l) => (l, "blank".into(), None, false),
            Entry::Bad(b) => (b.line(), format!("{:?}", b.error), None, b.torn),
        });
    }
    Lines {
        lines,
        info: d.info().clone(),
    }
}

/// The lines of [`decoder`] account for the stream.
fn accounted(stream: &[u8], got: &Lines) {
    assert_eq!(got.info.bytes, stream.len() as u64, "bytes");
    assert_eq!(got.info.lines, got.lines.len() as u64, "lines");
    let records = got.lines.iter().filter(|l| l.2.is_some()).count();
    assert_eq!(got.info.records, records as u64, "records");
    let mut next = 0u64;
    for (k, (whole, _, record, torn)) in got.lines.iter().enumerate() {
        let pos = whole.pos;
        assert_eq!(pos.line, k as u64 + 1, "line numbers");
        assert_eq!(pos.offset, next, "line {}'s offset", pos.line);
        let rest = &stream[next as usize..];
        let len = memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n + 1);
        // Its length before its ending, the ending, and its characters (a BOM is one).
        let physical = &rest[..len];
        let unended = physical.strip_suffix(b"\n").unwrap_or(physical);
        let content = unended.strip_suffix(b"\r").unwrap_or(unended);
        assert_eq!(
            whole.len,
            content.len() as u64,
            "line {}'s length",
            pos.line
        );
        assert_eq!(whole.next(), next + len as u64, "line {}'s end", pos.line);
        let chars = match std::str::from_utf8(content) {
            Ok(t) => t.chars().count(),
            Err(_) => content.iter().filter(|&&b| (b as i8) >= -0x40).count(),
        };
        assert_eq!(
            whole.chars,
            Some(chars as u64),
            "line {}'s characters",
            pos.line
        );
        next += len as u64;
        if let Some((at, _)) = record {
            // A record's text starts where its line does, past a BOM on line 1.
            let bom = if k == 0 && stream.starts_with(b"\xEF\xBB\xBF") {
                3
            } else {
                0
            };
            assert_eq!(*at, pos.offset + bom, "line {}'s text", pos.line);
        }
        let last = k + 1 == got.lines.len();
        assert!(
            !torn || (last && !stream.ends_with(b"\n")),
            "line {} torn",
            pos.line
        );
    }
    assert_eq!(next, stream.len() as u64, "the lines cover the stream");
}

/// A reader handing out its data in pieces of the sizes its schedule says, with an
/// `Interrupted` error now and then, as a pipe or a signal gives them.
struct Pieces<'a> {
    data: &'a [u8],
    sizes: [u8; 3],
    calls: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        let s = self.sizes[self.calls % 3];
        if s == 0 && self.calls % 2 == 0 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        // From one byte at a time (a schedule of zeros) to 300 KiB.
        let n = (1 + usize::from(s).pow(2) * (1 + self.calls % 5))
            .min(out.len())
            .min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The one pass every subcommand runs over a file (part of target `commands`), every
/// analysis on: it must not panic, and what two analyses both count must agree.
pub fn analyses(stream: &[u8]) {
    let needs = Needs::default()
        .census(Zone::Utc)
        .turns(Detail::Full)
        .calls()
        .ordinals()
        .boundary(Cutoff {
            end_ordinal: 3,
            end_byte_offset: 600,
        });
    let facts = analysis::read_stream(stream, Source::Stdin, &ReadOptions::default(), &needs);
    let turns = facts.turns.as_ref().expect("asked for");
    let counts = facts.turn_counts.as_ref().expect("asked for");
    assert_eq!(
        counts.turns,
        turns.turns.len() as u64,
        "turns counted and listed"
    );
    assert!(
        facts.stream.records + facts.bad.len() as u64 <= facts.stream.lines,
        "records and bad lines are lines"
    );
}

/// The repair properties (part of target `commands`), over rollout files on disk (their
/// forks, if any, beside them):
/// - nothing is written: each file's bytes and modification time are what they were;
/// - the repaired copy, linted as a copy of the same name, has no finding by a rule more
///   often than the file had it;
/// - repairing is idempotent: the copy needs no fix, and none is refused.
pub fn repaired(files: &[std::path::PathBuf]) {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use crate::findings::Finding;
    use crate::lineage::Resolver;
    use crate::repair::{self, forks::Forks, Settings};
    use crate::rules::{self, select::Selection, Checker};

    let sources: Vec<Source> = files.iter().cloned().map(Source::File).collect();
    let stamp = |p: &std::path::Path| {
        let m = std::fs::metadata(p).ok();
        (std::fs::read(p).ok(), m.and_then(|m| m.modified().ok()))
    };
    let before: Vec<_> = files.iter().map(|p| stamp(p)).collect();
    let selection = Selection::new(&[], &[]).expect("no rule named");
    let read = ReadOptions::default();
    let forks = Forks::find(&sources, None);
    let settings = Settings {
        selection: &selection,
        unsafe_fixes: true,
        codex: crate::codex::Spec::default(),
        read: &read,
        sources: &sources,
        home: None,
        forks: &forks,
        carried: None,
        rewrites: &HashMap::new(),
        homes: &crate::statedb::Homes::default(),
        lineages: crate::replay::Lineages::default(),
    };
    let by_rule = |path: &std::path::Path| -> HashMap<&'static str, usize> {
        let resolver = Mutex::new(Resolver::new(&[], None));
        let opts = crate::replay::Options::default();
        let found: Vec<Finding> = rules::replay(
            &Source::File(path.to_path_buf()),
            &resolver,
            &read,
            &opts,
            &Checker::of_units(|_| true),
        )
        .findings;
        let mut n = HashMap::new();
        for f in found {
            *n.entry(f.rule.slug()).or_default() += 1;
        }
        n
    };
    for source in &sources {
        let Ok(r) = repair::repair(source, &settings) else {
            continue;
        };
        let (Some(original), Some(text)) = (&r.original, &r.repaired) else {
            continue;
        };
        let path = source.path().expect("a file");
        let name = path.file_name().expect("a file name");
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        std::fs::write(a.path().join(name), &original.raw).unwrap();
        let copy = b.path().join(name);
        std::fs::write(&copy, original.encode(text).unwrap()).unwrap();
        let (had, has) = (by_rule(&a.path().join(name)), by_rule(&copy));
        for (rule, n) in &has {
            let m = had.get(rule).copied().unwrap_or(0);
            assert!(
                *n <= m,
                "{}: the repair adds {rule} ({m} before, {n} after)",
                path.display()
            );
        }
        let again = repair::repair(&Source::File(copy.clone()), &settings).expect("the copy reads");
        assert!(
            !again.changes() && again.refused.is_none(),
            "{}: repairing the repaired copy changes it again: {:?}",
            path.display(),
            again.fixes
        );
    }
    let after: Vec<_> = files.iter().map(|p| stamp(p)).collect();
    assert!(before == after, "repair changed an input");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inputs the fuzzers found and kept (`fuzz/regressions/<target>/`), each a test.
    fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/regressions")
            .join(target);
        let mut v: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| {
                        let p = e.path();
                        (p.display().to_string(), std::fs::read(&p).unwrap())
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    #[test]
    fn every_testdata_line_and_mutations_of_it_pass_the_scanner_differential() {
        let lines = crate::testkit::lines("");
        assert!(lines.len() > 900);
        let mut rnd = crate::testkit::xorshift(0x5851_f42d_4c95_7f2d);
        for l in &lines {
            scanner(l);
            for _ in 0..4 {
                let mut m = l.clone();
                let at = rnd(m.len() + 1);
                let ins = crate::testkit::fragment(&mut rnd);
                m.splice(at..at, ins.iter().copied());
                scanner(&m);
            }
        }
    }

    #[test]
    fn every_testdata_file_reads_alike_in_any_pieces_and_accounts_for_its_bytes() {
        for (k, p) in crate::testkit::jsonl_files("").iter().enumerate() {
            let data = std::fs::read(p).unwrap();
            // A default limit and a small one, three read schedules.
            for head in [[0u8, 0, 0, 1, 2], [1, 2, 7, 0, 250], [3, 0, k as u8, 9, 0]] {
                let mut input = head.to_vec();
                input.extend_from_slice(&data);
                decoder(&input);
            }
        }
    }

    #[test]
    fn every_broken_testdata_file_repairs_to_a_copy_with_no_new_finding_once() {
        let mut files: Vec<std::path::PathBuf> = crate::testkit::jsonl_files("broken")
            .into_iter()
            .filter(|p| p.parent().is_some_and(|d| d.ends_with("broken")))
            .collect();
        files.sort();
        assert!(files.len() > 20);
        repaired(&files);
    }

    #[test]
    fn every_testdata_file_passes_the_analyses_check() {
        for p in crate::testkit::jsonl_files("") {
            analyses(&std::fs::read(p).unwrap());
        }
    }

    #[test]
    fn the_inputs_the_fuzzers_found_pass_their_checks() {
        type Check = fn(&[u8]);
        let checks: [(&str, Check); 3] = [
            ("scanner", scanner),
            ("decoder", decoder),
            ("analyses", analyses),
        ];
        for (target, check) in checks {
            for (path, data) in regressions(target) {
                let held = std::panic::catch_unwind(|| check(&data));
                assert!(held.is_ok(), "{path} fails the {target} check again");
            }
        }
    }
}
