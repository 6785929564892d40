//! Diagnostics on stderr: skipped lines as `path:line: reason`, and one-line errors as
//! `rollscope: path: cause`.
//!
//! Every path and reason is cleaned of control and escape sequences first. `-q` silences
//! the per-line notes, never the errors.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use owo_colors::OwoColorize;

use super::sanitize::clean;
use super::ColorWhen;
use crate::decode::{BadLine, StreamInfo};

/// Set once any error has been reported: a run cut short by a closed pipe still exits 2
/// when an input failed before it (ripgrep's `ERRORED`).
static ERRORED: AtomicBool = AtomicBool::new(false);

/// Has any error been reported in this process?
pub fn errored() -> bool {
    ERRORED.load(Ordering::Relaxed)
}

/// How many rejected lines of one file are shown one by one; the rest are counted.
pub const BAD_LINE_NOTES: usize = 20;

/// The stderr reporter.
#[derive(Debug, Clone, Copy)]
pub struct Diag {
    quiet: bool,
    color: ColorWhen,
}

impl Diag {
    pub fn new(quiet: bool, color: ColorWhen) -> Diag {
        Diag { quiet, color }
    }

    fn write(&self, line: String) {
        // Past the progress bar, if one is shown.
        super::progress::suspend(|| {
            let mut w = anstream::AutoStream::new(io::stderr().lock(), self.color.choice());
            // stderr failing is not worth dying for.
            let _ = writeln!(w, "{line}");
        });
    }

    /// A rejected line.
    pub fn bad_line(&self, path: &str, bad: &BadLine) {
        if self.quiet {
            return;
        }
        self.write(format!(
            "{}:{}: {} (byte offset {})",
            clean(path),
            bad.pos.line,
            clean(&bad.to_string()).yellow(),
            bad.pos.offset
        ));
    }

    /// What is left of a file's rejected lines once [`BAD_LINE_NOTES`] were shown.
    pub fn more_bad_lines(&self, path: &str, more: usize) {
        if self.quiet {
            return;
        }
        let more = super::counted(more as u64, "more bad line");
        self.write(format!("… and {more} in {}", clean(path)));
    }

    /// Stream-level notes: a BOM (Codex fails on it).
    pub fn stream_notes(&self, path: &str, info: &StreamInfo) {
        if self.quiet {
            return;
        }
        if info.bom {
            self.write(format!(
                "{}:1: {} (byte offset 0)",
                clean(path),
                "UTF-8 byte order mark stripped; Codex cannot read this file".yellow()
            ));
        }
    }

    /// A note about one file that is not an error.
    pub fn note(&self, path: &str, msg: &str) {
        if self.quiet {
            return;
        }
        self.write(format!("{}: {}", clean(path), clean(msg).yellow()));
    }

    /// A run that printed no row says so, in one line (`-q` silences it).
    pub fn empty(&self, msg: &str) {
        if self.quiet {
            return;
        }
        self.write(format!("rollscope: {}", msg.yellow()));
    }

    /// A word about the run, not about one file (`-q` silences it).
    pub fn aside(&self, msg: &str) {
        if self.quiet {
            return;
        }
        self.write(format!("rollscope: {}", clean(msg).yellow()));
    }

    /// A closing summary line (`lint`'s counts): printed whatever `-q` says.
    /// At a terminal, wrapped at words to its width.
    pub fn summary(&self, msg: &str) {
        let msg = clean(msg);
        match super::table::stderr_width() {
            Some(w) => {
                for line in super::prose::wrap("", &msg, 2, w) {
                    self.write(line);
                }
            }
            None => self.write(msg.into_owned()),
        }
    }

    /// An error about one input: printed whatever `-q` says.
    pub fn error(&self, path: &str, cause: &str) {
        ERRORED.store(true, Ordering::Relaxed);
        self.write(format!(
            "{}: {}: {}",
            "rollscope".red().bold(),
            clean(path),
            clean(cause)
        ));
    }

    /// An error not tied to a path.
    pub fn fatal(&self, msg: &str) {
        self.write(format!("{}: {}", "rollscope".red().bold(), clean(msg)));
    }
}

/// The read tally (`ROLLSCOPE_TRACE_READS`): one `rollscope: read N× PATH` line per file.
pub fn passes(passes: &[(std::path::PathBuf, u32)]) {
    let mut w = io::stderr().lock();
    for (path, n) in passes {
        // stderr failing is not worth dying for.
        let _ = writeln!(
            w,
            "rollscope: read {n}× {}",
            clean(&path.display().to_string())
        );
    }
}
