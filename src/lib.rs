//! rollscope: a fast inspector and linter for OpenAI Codex session rollouts.
//!
//! Layers, dependencies pointing one way: `cmd` (glue) → `reduce` (pure per-file folds) and
//! `output` (the only writer to stdout/stderr) → `decode` (the one tolerant line decoder) →
//! `input` (discovery, zstd). Only `cli`, `cmd` and [`run`] know clap.

pub mod cli;
pub mod cmd;
pub mod decode;
pub mod exit;
pub mod input;
pub mod model;
pub mod output;
pub mod reduce;
pub mod time;

#[cfg(test)]
mod testdata;

use cli::{Cli, Command};
use exit::ExitStatus;

/// Why a run failed: already reported or to be reported by the caller.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<cmd::RunError> for Error {
    fn from(e: cmd::RunError) -> Error {
        match e {
            cmd::RunError::Usage(u) => Error::Usage(u.0),
            cmd::RunError::Io(io) => Error::Io(io),
        }
    }
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<ExitStatus, Error> {
    match cli.command {
        Command::Stats(args) => Ok(cmd::stats::run(&args)?),
        Command::Turns(args) => Ok(cmd::turns::run(&args)?),
        Command::Calls(args) => Ok(cmd::calls::run(&args)?),
        Command::CheckOrdinal(args) => Ok(cmd::check_ordinal::run(&args)?),
        Command::Completions(args) => {
            cmd::completions::completions(&args)?;
            Ok(ExitStatus::Clean)
        }
        Command::Man => {
            cmd::completions::man()?;
            Ok(ExitStatus::Clean)
        }
    }
}
