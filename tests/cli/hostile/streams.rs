//! Hostile bytes: giant, deep, NUL-laden, invalid UTF-8 and endless lines, broken and
//! exploding zstd, a session written to while it is read.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::*;

/// A line to plant in the template, and the cause the decoder must give for it.
struct Bad {
    line: Vec<u8>,
    cause: String,
}

/// `{…"payload":{"type":"agent_reasoning",` as Codex 0.147 writes an event, then `rest`.
fn event(rest: &str) -> Vec<u8> {
    format!(
        r#"{{"timestamp":"2026-11-29T12:02:13.700Z","type":"event_msg","payload":{{"type":"agent_reasoning",{rest}}}}}"#
    )
    .into_bytes()
}

/// The 1-based column of the first `needle` in `line`.
fn column(line: &[u8], needle: &[u8]) -> usize {
    line.windows(needle.len())
        .position(|w| w == needle)
        .unwrap()
        + 1
}

/// The template (its text edited by `edit`) with the `bad` lines planted after its
/// session_meta: every reader but `lint` exits 0 and says each bad line once, at its line
/// and byte offset, with its cause; every record around them is read as in the template
/// (the same rows, lines aside); `lint` exits 1 with one `line.json` error a line, its
/// message `lint_message(cause)`, and nothing else. Returns the runs, for more checks.
fn planted(
    edit: impl Fn(&str) -> String,
    bad: &[Bad],
    lint_message: impl Fn(&str) -> String,
) -> (tempfile::TempDir, PathBuf, Vec<Ran>) {
    let dir = tempfile::tempdir().unwrap();
    let text = edit(&std::fs::read_to_string(template()).unwrap());
    let clean = dir.path().join("clean");
    std::fs::create_dir(&clean).unwrap();
    let name = template().file_name().unwrap().to_owned();
    std::fs::write(clean.join(&name), &text).unwrap();
    let mut lines: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    let n = bad.len();
    for (i, b) in bad.iter().enumerate() {
        lines.insert(1 + i, b.line.clone());
    }
    let (path, offsets) = write_lines(dir.path(), name.to_str().unwrap(), &lines);
    let notes: Vec<String> = bad
        .iter()
        .enumerate()
        .map(|(i, b)| note(&path, i + 2, offsets[i + 1], &b.cause))
        .collect();
    let base = every(&[], &[&clean.join(&name)], &[]);
    let runs = every(&[], &[&path], &[]);
    for cmd in ["stats", "turns", "calls", "check-ordinal", "replay"] {
        let (got, want) = (of(&runs, cmd), of(&base, cmd));
        got.said(0, &notes);
        let strip = |rows: &[Value]| -> Vec<Value> {
            rows.iter()
                .map(|r| {
                    let mut r = placeless(r);
                    for k in ["lines", "bytes", "parse_errors"] {
                        r.as_object_mut().unwrap().remove(k);
                    }
                    r
                })
                .collect()
        };
        assert_eq!(strip(&got.rows), strip(&want.rows), "{cmd}");
        assert!(!got.rows.is_empty(), "{cmd}");
    }
    let stats = &of(&runs, "stats").rows[0];
    assert_fields(
        stats,
        json!({
            "lines": lines.len(),
            "parse_errors": n,
            "bytes": std::fs::metadata(&path).unwrap().len(),
        }),
    );
    let turn = &of(&runs, "turns").rows[0];
    let base_turn = &of(&base, "turns").rows[0];
    assert_eq!(
        turn["line_end"].as_u64().unwrap(),
        base_turn["line_end"].as_u64().unwrap() + n as u64
    );
    let lint = of(&runs, "lint");
    lint.said(1, &[]);
    let findings: Vec<Value> = lint
        .rows
        .iter()
        .map(|r| {
            json!({
                "line": r["line"], "byte_offset": r["byte_offset"], "rule": r["rule"],
                "severity": r["severity"], "message": r["message"],
            })
        })
        .collect();
    let want: Vec<Value> = bad
        .iter()
        .enumerate()
        .map(|(i, b)| {
            json!({
                "line": i + 2, "byte_offset": offsets[i + 1], "rule": "line.json",
                "severity": "error", "message": lint_message(&b.cause),
            })
        })
        .collect();
    assert_eq!(findings, want);
    (dir, path, runs)
}

fn lost(cause: &str) -> String {
    format!("Codex cannot read this line ({cause}): its record is lost on resume")
}

/// serde_json, the parser of Codex and of rollscope's decoder alike, refuses the 128th
/// nested container (the envelope and the payload are the first two): each line is a
/// located error at that container's column. A recursive reader would have overflowed its
/// stack long before 100 000; the next line is read.
#[test]
fn json_nested_100_000_deep_is_a_located_error_and_reading_goes_on() {
    const DEEP: usize = 100_000;
    let arrays = event(&format!(
        r#""deep":{}{}"#,
        "[".repeat(DEEP),
        "]".repeat(DEEP)
    ));
    let objects = event(&format!(
        r#""deep":{}1{}"#,
        r#"{"a":"#.repeat(DEEP),
        "}".repeat(DEEP)
    ));
    let mixed = event(&format!(r#""deep":{}"#, r#"[{"a":"#.repeat(DEEP)));
    let at = |line: &[u8], opener: &[u8], nth: usize| {
        // The column of the nth `opener` after the payload's `"deep":`.
        let start = column(line, b"\"deep\":") + b"\"deep\":".len() - 1;
        start + (nth - 1) * opener.len() + 1
    };
    let bad = [
        Bad {
            cause: format!(
                "invalid JSON at column {}: recursion limit exceeded",
                at(&arrays, b"[", 126)
            ),
            line: arrays.clone(),
        },
        Bad {
            cause: format!(
                "invalid JSON at column {}: recursion limit exceeded",
                at(&objects, br#"{"a":"#, 126)
            ),
            line: objects.clone(),
        },
        Bad {
            // `[{"a":` is two containers: the 126th container is the 63rd pair's `{`.
            cause: format!(
                "invalid JSON at column {}: recursion limit exceeded",
                at(&mixed, br#"[{"a":"#, 63) + 1
            ),
            line: mixed.clone(),
        },
    ];
    planted(str::to_string, &bad, lost);
}

/// A raw NUL is a control character JSON does not allow in a string, and no token between
/// tokens: each is a located error (the column of the NUL) and reading goes on. `\u0000`
/// is a valid escape: the text carries the NUL, exact in NDJSON.
#[test]
fn nul_bytes_raw_are_located_errors_and_escaped_are_text() {
    let in_string = event("\"text\":\"a\0b\"");
    let between = {
        let mut l = event("\"text\":\"ab\"");
        let at = column(&l, b",\"payload\"");
        l.insert(at, 0);
        l
    };
    let after = {
        let mut l = event("\"text\":\"ab\"");
        l.push(0);
        l
    };
    let only = b"\0\0\0".to_vec();
    let bad = [
        Bad {
            cause: format!(
                "invalid JSON at column {}: control character (\\u0000-\\u001F) found while parsing a string",
                column(&in_string, b"\0")
            ),
            line: in_string.clone(),
        },
        Bad {
            cause: format!(
                "invalid JSON at column {}: key must be a string",
                column(&between, b"\0")
            ),
            line: between.clone(),
        },
        Bad {
            cause: format!(
                "invalid JSON at column {}: trailing characters",
                column(&after, b"\0")
            ),
            line: after.clone(),
        },
        Bad {
            cause: "invalid JSON at column 1: expected value".into(),
            line: only,
        },
    ];
    let escaped = |t: &str| t.replace("Look around the repo", r"Look \u0000 around the repo");
    let (_dir, _path, runs) = planted(escaped, &bad, lost);
    assert_eq!(
        of(&runs, "turns").rows[0]["user_message"],
        "Look \u{0} around the repo, run hello.py and tell me what happens."
    );
}

/// Invalid UTF-8 (a stray byte in a key, a cut sequence, an overlong form, a surrogate, a
/// lone continuation byte) is a located error with the column of its first bad byte; the
/// lines after it are read. `lint` says what it costs: Codex 0.147 refuses such a file.
#[test]
fn invalid_utf8_in_keys_and_values_is_located_by_column() {
    let cases: [(&[u8], &[u8]); 5] = [
        (b"\"te\xffxt\":\"ab\"", b"\xff"),
        (b"\"text\":\"a\xc3b\"", b"\xc3"),
        (b"\"text\":\"a\xc0\xafb\"", b"\xc0"),
        (b"\"text\":\"a\xed\xa0\x80b\"", b"\xed"),
        (b"\"\x80\":1,\"text\":\"ab\"", b"\x80"),
    ];
    let bad: Vec<Bad> = cases
        .iter()
        .map(|(rest, first_bad)| {
            let mut line = event("").to_vec();
            // `event("")` ends `"agent_reasoning",}}`: put `rest` before the braces.
            let at = line.len() - 2;
            line.splice(at..at, rest.iter().copied());
            let col = column(&line, first_bad);
            Bad {
                cause: format!("invalid UTF-8 at column {col}"),
                line,
            }
        })
        .collect();
    planted(str::to_string, &bad, |cause| {
        format!(
            "Codex cannot read this line ({cause}): invalid UTF-8 makes Codex 0.147 refuse the whole file"
        )
    });
}

/// A byte count as `lint` writes it (`docs/rules.md`): `812 B`, `3.4 MiB`, `1.2 GiB`.
fn human(bytes: u64) -> String {
    let units = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let (mut v, mut unit) = (bytes as f64 / 1024.0, 0);
    while v >= 1024.0 && unit + 1 < units.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", units[unit])
}

/// One line, a real `session_meta` whose `base_instructions` text is `len` bytes: a valid
/// record of about `len` bytes, read whole (the default `--max-line-bytes` is 512 MiB) in
/// memory within the bound of `docs/performance.md`, 64 MiB plus the longest line.
fn giant_line(len: usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut line = lines_of(&template()).remove(0);
    // Spliced in, not built by serde: a debug build of the test takes seconds for that.
    let key = br#""base_instructions":{"text":""#;
    let at = column(&line, key) - 1 + key.len();
    line.splice(at..at, std::iter::repeat_n(b'x', len));
    let name = template()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let (path, _) = write_lines(dir.path(), &name, &[line.clone()]);
    let bound = 64 * MIB + line.len() as u64 / 1024;
    let runs = every_measured(&[], &[&path]);
    for r in &runs {
        r.within(bound);
    }
    let stats = of(&runs, "stats").said(0, &[]);
    assert_fields(
        &stats.rows[0],
        json!({
            "lines": 1, "parse_errors": 0, "records": {"session_meta": 1},
            "bytes": line.len() + 1, "session_id": "01a2272f-3017-77a3-b67a-87a70a36353e",
        }),
    );
    for (cmd, what) in [
        ("turns", "turns"),
        ("calls", "tool calls"),
        ("replay", "history items"),
    ] {
        let r = of(&runs, cmd).said(0, &[format!("rollscope: no {what} in 1 file")]);
        assert!(r.rows.is_empty(), "{cmd}");
    }
    let co = of(&runs, "check-ordinal").said(0, &[]);
    assert_fields(&co.rows[0], json!({"ok": true, "records": 1}));
    // Over 16 MiB a record is a warning (Codex's compression refuses it, over 24 MiB `codex
    // migrate-rollouts` too; the resume reads it whole: `testdata/typed/cases/line-*`); a
    // file over 100 MB is worth knowing of.
    let n = line.len() as u64;
    let severity = "warning";
    let mut want = vec![];
    if n + 1 > 100_000_000 {
        want.push(json!({
            "line": null, "rule": "size.large", "severity": "info",
            "message": format!("the file is {}: every resume reads it whole", human(n + 1)),
        }));
    }
    want.push(json!({
        "line": null, "rule": "listing.no-preview", "severity": "info",
        "message": "no user message or thread goal in the first 1 records: Codex's resume \
                    picker hides this thread (resume it by id)",
    }));
    want.push(json!({
        "line": 1, "rule": "line.oversized", "severity": severity,
        "message": format!(
            "a record of {}: Codex resumes it, but its compression refuses records over 16 MiB{}",
            human(n),
            if n > 24 << 20 { ", and `codex migrate-rollouts` over 24 MiB" } else { "" }
        ),
    }));
    let lint = of(&runs, "lint").said(0, &[]);
    let got: Vec<Value> = lint
        .rows
        .iter()
        .map(|r| json!({"line": r["line"], "rule": r["rule"], "severity": r["severity"], "message": r["message"]}))
        .collect();
    assert_eq!(got, want);
}

/// A 20 MB line: the always-run twin of [`a_200_mb_line_is_one_record_in_bounded_memory`].
#[test]
fn a_20_mb_line_is_one_record_in_bounded_memory() {
    giant_line(20_000_000);
}

/// A 200 MB line: one record, no parse error, peak RSS within 64 MiB plus the line.
/// Long: `cargo test --release --test cli -- --ignored hostile`.
#[test]
#[ignore]
fn a_200_mb_line_is_one_record_in_bounded_memory() {
    giant_line(200_000_000);
}

/// An endless line (no newline, 80 MiB of it) fed through standard input by a writer
/// thread, after a whole rollout: cut at `--max-line-bytes 1MiB`, reported once as too long
/// where it starts, never held in memory (peak RSS far below what went through); the
/// rollout before it is read in full.
#[test]
fn an_endless_line_on_stdin_is_cut_at_max_line_bytes_in_bounded_memory() {
    const ENDLESS: usize = 80 << 20;
    let head = std::fs::read(template()).unwrap();
    let head_len = head.len();
    let base = template_runs();
    for cmd in READERS {
        let mut args = args_of(cmd);
        args.extend(["--max-line-bytes", "1MiB", "-"]);
        let head = head.clone();
        let feed = Box::new(move |mut w: std::process::ChildStdin| {
            // A closed pipe is the reader's choice: the test looks at what it said.
            let _ = w.write_all(&head);
            let _ = w.write_all(&event("\"text\":\"")[..]);
            let chunk = vec![b'x'; 1 << 20];
            let mut sent = event("\"text\":\"").len();
            while sent < ENDLESS {
                let n = chunk.len().min(ENDLESS - sent);
                if w.write_all(&chunk[..n]).is_err() {
                    return;
                }
                sent += n;
            }
        });
        let (out, rss) = measured(&args, Some(feed));
        let mut r = Ran::of(cmd, out);
        r.rss_kib = rss;
        eprintln!("{cmd}: peak RSS {rss:?} KiB");
        // Far below the 80 MiB fed, and within the bound (64 MiB + the 1 MiB limit).
        r.within(40 * MIB);
        let too_long = note(
            Path::new("-"),
            36,
            head_len,
            &format!("line is {ENDLESS} bytes, longer than --max-line-bytes 1048576; skipped"),
        );
        let want = of(&base, cmd);
        match cmd {
            "lint" => {
                // A warning: Codex reads a line this long whole (`testdata/typed/cases/line-*`).
                r.said(0, &[]);
                let got: Vec<Value> = r
                    .rows
                    .iter()
                    .map(|f| json!({"line": f["line"], "byte_offset": f["byte_offset"], "rule": f["rule"], "severity": f["severity"], "message": f["message"]}))
                    .collect();
                assert_eq!(
                    got,
                    [json!({
                        "line": 36, "byte_offset": head_len, "rule": "line.oversized",
                        "severity": "warning",
                        "message": lost(&format!("line is {ENDLESS} bytes, longer than --max-line-bytes 1048576; skipped")),
                    })]
                );
            }
            _ => {
                r.said(0, &[too_long]);
                let strip = |rows: &[Value]| -> Vec<Value> {
                    rows.iter()
                        .map(|row| {
                            let mut row = placeless(row);
                            for k in ["lines", "bytes", "parse_errors"] {
                                row.as_object_mut().unwrap().remove(k);
                            }
                            row
                        })
                        .collect()
                };
                assert_eq!(strip(&r.rows), strip(&want.rows), "{cmd}");
            }
        }
        if cmd == "stats" {
            assert_fields(
                &r.rows[0],
                json!({"lines": 36, "parse_errors": 1, "bytes": head_len + ENDLESS}),
            );
        }
    }
}

/// The first frame's first block made reserved (block type 3): zstd's "Data corruption".
fn corrupt_first_block(frame: &mut [u8]) {
    let fhd = frame[4];
    let single_segment = fhd >> 5 & 1 == 1;
    let window = if single_segment { 0 } else { 1 };
    let dict = [0, 1, 2, 4][(fhd & 3) as usize];
    let fcs = [usize::from(single_segment), 2, 4, 8][(fhd >> 6) as usize];
    frame[4 + 1 + window + dict + fcs] |= 0b110;
}

/// A `.jsonl.zst` cut in half and one whose first block is corrupt, given with a good file:
/// each broken one is one line on stderr (its path and zstd's cause) from every reader but
/// `lint`, which still reads the good file and exits 2. For `lint` each is one
/// `file.zst-corrupt` finding with zstd's cause (Codex refuses such a file), and it exits 1;
/// it says nothing else about the content it could not read.
#[test]
fn a_truncated_and_a_corrupt_zstd_are_one_line_each_and_the_good_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let good = template();
    let packed = zstd::encode_all(&std::fs::read(&good).unwrap()[..], 3).unwrap();
    let trunc = dir
        .path()
        .join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-000000000001.jsonl.zst");
    std::fs::write(&trunc, &packed[..packed.len() / 2]).unwrap();
    let corrupt = dir
        .path()
        .join("rollout-2026-11-29T12-02-13-01a2272f-0000-7000-8000-000000000002.jsonl.zst");
    let mut bad = packed.clone();
    corrupt_first_block(&mut bad);
    std::fs::write(&corrupt, &bad).unwrap();
    let said = [
        read_error(&trunc, "read error: incomplete frame"),
        read_error(&corrupt, "read error: Data corruption detected"),
    ];
    let base = template_runs();
    let runs = every(&[], &[&trunc, &corrupt, &good], &[]);
    for r in &runs {
        // For `lint` a file Codex cannot decompress is a finding (it refuses to resume it:
        // `testdata/lint/file.zst-corrupt/verdicts.json`), not an error of the run.
        if r.cmd == "lint" {
            r.said(1, &[]);
        } else {
            r.said(2, &said);
        }
        let good_rows: Vec<&Value> = r
            .rows
            .iter()
            .filter(|row| row["path"] == good.to_str().unwrap())
            .collect();
        assert_eq!(good_rows.len(), of(&base, r.cmd).rows.len(), "{}", r.cmd);
        let others: Vec<&Value> = r
            .rows
            .iter()
            .filter(|row| row["path"] != good.to_str().unwrap())
            .collect();
        match r.cmd {
            // A row of what was read (nothing) for each file: the counts, the ordinals.
            "stats" | "check-ordinal" => {
                assert_eq!(others.len(), 2, "{}", r.cmd);
                for o in others {
                    assert_eq!(o[if r.cmd == "stats" { "lines" } else { "records" }], 0);
                    if r.cmd == "check-ordinal" {
                        // Not read to its end, so never called ok.
                        assert_eq!(o["ok"], false, "{o}");
                    }
                }
            }
            "lint" => {
                let said: Vec<(&str, &str)> = others
                    .iter()
                    .map(|f| (f["rule"].as_str().unwrap(), f["message"].as_str().unwrap()))
                    .collect();
                let cannot = |cause: &str| {
                    format!("the compressed stream cannot be decompressed ({cause}): Codex refuses to resume it")
                };
                assert_eq!(
                    said,
                    [
                        ("file.zst-corrupt", cannot("incomplete frame").as_str()),
                        (
                            "file.zst-corrupt",
                            cannot("Data corruption detected").as_str()
                        ),
                    ]
                );
            }
            // Nothing read, nothing to list, and no finding about what was never seen.
            _ => assert!(others.is_empty(), "{}: {others:?}", r.cmd),
        }
    }
}

/// A zstd bomb: the template, then `frames` frames of 1 MiB of valid `agent_reasoning`
/// lines each (every frame compresses 1 MiB to a few hundred bytes; a multi-frame file is
/// one stream). Every reader streams it: each line is counted, nothing is said, peak RSS
/// stays within 64 MiB plus the longest line.
fn zstd_bomb(frames: usize) {
    let dir = tempfile::tempdir().unwrap();
    let head = std::fs::read(template()).unwrap();
    let mut line = event(&format!("\"text\":\"{}\"", "x".repeat(9000)));
    line.push(b'\n');
    let per_frame = (1 << 20) / line.len();
    let chunk = line.repeat(per_frame);
    let frame = zstd::encode_all(&chunk[..], 19).unwrap();
    let name = format!("{}.zst", template().file_name().unwrap().to_str().unwrap());
    let path = dir.path().join(name);
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        f.write_all(&zstd::encode_all(&head[..], 3).unwrap())
            .unwrap();
        for _ in 0..frames {
            f.write_all(&frame).unwrap();
        }
    }
    let packed = std::fs::metadata(&path).unwrap().len();
    let unpacked = head.len() + frames * chunk.len();
    eprintln!(
        "zstd bomb: {packed} bytes unpack to {unpacked} ({}x)",
        unpacked as u64 / packed
    );
    assert!(unpacked as u64 / packed > 1000);
    let longest = lines_of(&template())
        .iter()
        .map(Vec::len)
        .max()
        .unwrap()
        .max(line.len());
    let bound = 64 * MIB + longest as u64 / 1024 + 1;
    let runs = every_measured(&[], &[&path]);
    let base = template_runs();
    let lines = 35 + frames * per_frame;
    for r in &runs {
        r.within(bound);
        // Far below what it unpacks to, too.
        r.within(unpacked as u64 / 1024 / 2);
        let want = of(&base, r.cmd);
        if r.cmd == "lint" {
            // The only finding: the file, unpacked, is large.
            r.said(0, &[]);
            let got: Vec<(&Value, &Value)> =
                r.rows.iter().map(|f| (&f["rule"], &f["message"])).collect();
            assert_eq!(
                got,
                [(
                    &json!("size.large"),
                    &json!(format!(
                        "the file is {}: every resume reads it whole",
                        human(unpacked as u64)
                    ))
                )]
            );
            continue;
        }
        r.said(0, &want.notes());
        if r.cmd == "stats" {
            let s = &r.rows[0];
            assert_fields(
                s,
                json!({"lines": lines, "parse_errors": 0, "bytes": unpacked}),
            );
            assert_eq!(s["events"]["agent_reasoning"], 4 + frames * per_frame);
            assert_eq!(s["records"]["event_msg"], 13 + frames * per_frame);
        } else if r.cmd == "check-ordinal" {
            assert_fields(
                &r.rows[0],
                json!({"ok": true, "records": lines, "problems": []}),
            );
        } else {
            let strip = |rows: &[Value]| rows.iter().map(placeless).collect::<Vec<_>>();
            assert_eq!(strip(&r.rows), strip(&want.rows), "{}", r.cmd);
        }
    }
}

/// A bomb of about 200 MiB: the always-run twin of [`a_zstd_bomb_of_4_gib_is_streamed_in_bounded_memory`].
#[test]
fn a_zstd_bomb_of_200_mib_is_streamed_in_bounded_memory() {
    zstd_bomb(200);
}

/// A bomb of about 4 GiB from a file of about 1 MB.
/// Long: `cargo test --release --test cli -- --ignored hostile`.
#[test]
#[ignore]
fn a_zstd_bomb_of_4_gib_is_streamed_in_bounded_memory() {
    zstd_bomb(4096);
}

/// `token_count` without usage at `ordinal`: a record a paginated rollout may always add.
fn appended(ordinal: usize) -> Vec<u8> {
    format!(
        r#"{{"timestamp":"2026-11-29T12:00:40.000Z","ordinal":{ordinal},"type":"event_msg","payload":{{"type":"token_count","info":null,"rate_limits":null}}}}"#
    )
    .into_bytes()
}

/// A live session through a FIFO, deterministically: the writer gives the whole paginated
/// rollout, then half a line, and stops (as Codex killed mid-write). Every reader sees the
/// half line as the torn last line, never as damage mid-file, and exits as for a torn last
/// line: 0, but 1 for `check-ordinal` and `lint`, as the next resume writes its ordinal
/// again.
#[cfg(unix)]
#[test]
fn a_live_session_cut_mid_line_through_a_fifo_ends_in_one_torn_line() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join(paginated_template().file_name().unwrap());
    if !mkfifo(&fifo) {
        return;
    }
    let mut bytes = std::fs::read(paginated_template()).unwrap();
    let head = bytes.len();
    let next = appended(16);
    // Cut inside the `"event_msg"` string.
    let half = &next[..column(&next, b"event_msg") + 3];
    bytes.extend_from_slice(half);
    let torn = note(
        &fifo,
        17,
        head,
        &format!(
            "torn last line (no final newline): invalid JSON at column {}: EOF while parsing a string",
            half.len()
        ),
    );
    for cmd in READERS {
        let mut args = args_of(cmd);
        args.push(fifo.to_str().unwrap());
        let r = through_fifo(cmd, &args, &fifo, &bytes);
        match cmd {
            "calls" => r.said(
                0,
                &[torn.clone(), "rollscope: no tool calls in 1 file".into()],
            ),
            "check-ordinal" => {
                r.said(1, std::slice::from_ref(&torn));
                let p = &r.rows[0]["problems"];
                assert_eq!(p.as_array().unwrap().len(), 1, "{p}");
                assert_fields(
                    &p[0],
                    json!({"kind": "tail_unparseable", "line": 17, "byte_offset": head, "expected": 16}),
                );
                &r
            }
            "lint" => {
                r.said(1, &[]);
                let got: Vec<(&Value, &Value)> =
                    r.rows.iter().map(|f| (&f["rule"], &f["line"])).collect();
                let (tail, json_rule, line) = (
                    json!("ordinal.tail-unparseable"),
                    json!("line.json"),
                    json!(17),
                );
                assert_eq!(got, [(&tail, &line), (&json_rule, &line)]);
                &r
            }
            _ => r.said(0, std::slice::from_ref(&torn)),
        };
    }
}

/// A live session in a regular file: a writer appends lines in pieces (half a line, a
/// pause, the rest) while every reader reads, over and over. Whatever a reader saw, a bad
/// line can only be its last, torn (never damage mid-file), and nothing panics.
#[test]
fn a_live_session_appended_while_read_is_never_damaged_mid_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(paginated_template().file_name().unwrap());
    std::fs::copy(paginated_template(), &path).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (path, stop) = (path.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            let mut ordinal = 16;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let mut line = appended(ordinal);
                line.push(b'\n');
                let (a, b) = line.split_at(line.len() / 2);
                f.write_all(a).unwrap();
                std::thread::sleep(std::time::Duration::from_micros(300));
                f.write_all(b).unwrap();
                std::thread::sleep(std::time::Duration::from_micros(200));
                ordinal += 1;
            }
        })
    };
    let (mut torn_seen, mut runs) = (0, 0);
    for _ in 0..3 {
        for r in every(&[], &[&path], &[]) {
            runs += 1;
            let prefix = format!("{}:", path.display());
            for l in r.stderr.lines() {
                if let Some(rest) = l.strip_prefix(&prefix) {
                    assert!(
                        rest.contains(": torn last line (no final newline): "),
                        "{}: {l}",
                        r.cmd
                    );
                    torn_seen += 1;
                } else {
                    assert_eq!(l, "rollscope: no tool calls in 1 file", "{}", r.cmd);
                }
            }
            let torn = r.stderr.contains("torn last line");
            let code = r.code.unwrap();
            match r.cmd {
                "check-ordinal" => assert_eq!(code, i32::from(torn), "{}", r.stderr),
                "lint" => {
                    for f in &r.rows {
                        let msg = f["message"].as_str().unwrap();
                        assert!(
                            f["rule"] == "ordinal.tail-unparseable" || f["rule"] == "line.json",
                            "{f}"
                        );
                        assert!(msg.contains("torn last line"), "{f}");
                    }
                    assert_eq!(code, i32::from(!r.rows.is_empty()));
                }
                _ => assert_eq!(code, 0, "{}: {}", r.cmd, r.stderr),
            }
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    eprintln!("{runs} runs on a live file, {torn_seen} of them ending in a torn line");
}
