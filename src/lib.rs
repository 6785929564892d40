//! rollscope: a fast inspector and linter for OpenAI Codex session rollouts.
//!
//! Layers, top to bottom, dependencies pointing one way: a module uses those of its own
//! layer (with no cycle) and of the layers below it, never one above
//! (`tests/cli/layers.rs` holds this table).
//!
//! ```text
//! main, lib  parse the command line, dispatch, map the outcome to an exit code
//! ─────────
//! cmd        glue: one file per subcommand
//! ─────────
//! cli        every clap definition, in one place: the subcommands read their arguments
//! ─────────
//! output     the only writer to stdout and stderr: tables, NDJSON/JSON rows,
//!            diagnostics in every format (clippy.toml enforces it)
//! ─────────
//! repair     lint's fixes applied to copies in passes, the result checked, the
//!            writers (`-o`, `--out-dir`, `--in-place`)
//! ─────────
//! rules      the lint rules, one unit a rule: facts in, findings (worded, with spans
//!            and fixes) out; the registry is the groups' lists
//! replay     the replay Codex runs on resume: history, prompt, state, UI
//! lineage    the one lineage reader: a fork's source found, read, its cutoff judged
//! config     the config file (`rollscope.toml`): found, read, checked
//! ─────────
//! analysis   the shared per-file analyses and the one pass computing them:
//!            session, turns, calls, ordinal, tokens, census, boundary
//! content    what a record's text holds: secrets, inline media
//! ─────────
//! model      typed, lenient views of payloads
//! findings   findings as data: Severity, Effect, Rule, Span, Finding, Fix
//! codex      Codex's reading per version: the table, a version, a file's reading
//! input      discovery, opening, zstd, reading a plain file again, a file's place
//! ─────────
//! decode     the one tolerant line decoder
//! time       timestamps, days and date bounds
//! exit       the exit-code contract
//! parallel   the ordered parallel scheduler
//! budget     a run-wide budget taken in shares (open handles)
//! error      the error that ends a run early
//!
//! fuzz       the properties the fuzz targets (`fuzz/`) check, run by `cargo test` too;
//!            like the tests' kit (`testkit`), it may use any layer
//! ```
//!
//! Only `cli`, `cmd` and [`run`] know clap.
//!
//! `unsafe` code lives in two places only, the decoder's scanner and its envelope
//! (`decode/scan.rs`, `decode/envelope.rs`), each block with a `// SAFETY:` comment; the
//! lints below keep it so (`docs/robustness.md`, "unsafe").
#![deny(unsafe_code)]
#![warn(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
// No panic reachable from input: docs/robustness.md, "Panics". Tests may unwrap.
#![cfg_attr(
    not(test),
    warn(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic,
        clippy::unreachable
    )
)]

pub mod analysis;
pub mod budget;
pub mod cli;
pub mod cmd;
pub mod codex;
pub mod config;
pub mod content;
pub mod decode;
pub mod error;
pub mod exit;
pub mod fifo;
pub mod findings;
pub mod fuzz;
pub mod input;
pub mod lineage;
pub mod model;
pub mod output;
pub mod parallel;
pub mod repair;
pub mod replay;
pub mod rules;
pub mod statedb;
pub mod time;

#[cfg(test)]
mod testkit;

use cli::{Cli, Command};
use exit::ExitStatus;

/// The error that ends a run (`rollscope::Error`, as `main` matches it).
pub use error::Error;

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<ExitStatus, Error> {
    let status = run_command(cli);
    if let Some(passes) = input::tally::passes() {
        output::diag::passes(&passes);
    }
    // An error said on stderr ends the run with 2, one that no input caused among them:
    // a `--jq` filter that failed on a row (the next rows were filtered still).
    status.map(|s| {
        if output::diag::errored() {
            s.merge(ExitStatus::Error)
        } else {
            s
        }
    })
}

fn run_command(cli: Cli) -> Result<ExitStatus, Error> {
    match cli.command {
        Command::Stats(args) => cmd::stats::run(&args),
        Command::Turns(args) => cmd::turns::run(&args),
        Command::Calls(args) => cmd::calls::run(&args),
        Command::CheckOrdinal(args) => cmd::check_ordinal::run(&args),
        Command::Replay(args) => cmd::replay::run(&args),
        Command::Lint(args) => cmd::lint::run(&args),
        Command::Repair(args) => cmd::repair::run(&args),
        Command::Completions(args) => {
            cmd::completions::completions(&args)?;
            Ok(ExitStatus::Clean)
        }
        Command::Man(args) => cmd::man::run(&args),
    }
}
