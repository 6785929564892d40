//! rollscope: a fast inspector and linter for OpenAI Codex session rollouts.
//!
//! Layers, dependencies pointing one way (a module only uses those below it):
//!
//! ```text
//! main ─ cli (clap, in one place) ─ cmd (glue: one file per subcommand)
//!          │
//!          ├── output    the only writer to stdout and stderr: tables, NDJSON/JSON rows,
//!          │             diagnostics in every format (clippy.toml enforces it)
//!          ├── rules     the lint rules, one unit a rule: facts in, findings (worded, with
//!          │             spans and fixes) out; the registry is the groups' lists
//!          ├── replay    the replay Codex runs on resume: history, prompt, state, UI
//!          ├── lineage   finding a fork's source rollout on disk, judging its cutoff
//!          ├── parallel  the ordered parallel scheduler
//!          │
//!          ├── config    the config file (`rollscope.toml`): found, read, checked
//!          ├── analysis  the shared per-file analyses and the one pass computing them:
//!          │             session, turns, calls, ordinal, tokens, census, boundary
//!          ├── content   what a record's text holds: secrets, inline media
//!          ├── findings  findings as data: Severity, Rule, Span, Finding, Fix
//!          ├── model     typed, lenient views of payloads
//!          ├── decode    the one tolerant line decoder
//!          ├── input     discovery, opening, zstd, reading a plain file again
//!          └── budget    a run-wide budget taken in shares (open handles)
//!
//!          time: timestamps, days and date bounds; exit: the exit-code contract
//!          fuzz: the properties the fuzz targets (`fuzz/`) check, run by `cargo test` too
//! ```
//!
//! Only `cli`, `cmd` and [`run`] know clap. The tests' shared kit is `testkit`.
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
pub mod config;
pub mod content;
pub mod decode;
pub mod error;
pub mod exit;
pub mod findings;
pub mod fuzz;
pub mod input;
pub mod lineage;
pub mod model;
pub mod output;
pub mod parallel;
pub mod replay;
pub mod rules;
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
    status
}

fn run_command(cli: Cli) -> Result<ExitStatus, Error> {
    match cli.command {
        Command::Stats(args) => cmd::stats::run(&args),
        Command::Turns(args) => cmd::turns::run(&args),
        Command::Calls(args) => cmd::calls::run(&args),
        Command::CheckOrdinal(args) => cmd::check_ordinal::run(&args),
        Command::Replay(args) => cmd::replay::run(&args),
        Command::Lint(args) => cmd::lint::run(&args),
        Command::Completions(args) => {
            cmd::completions::completions(&args)?;
            Ok(ExitStatus::Clean)
        }
        Command::Man(args) => cmd::man::run(&args),
    }
}
