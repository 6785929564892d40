//! The `rollscope` binary: parse, run, map the outcome to an exit code.

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

use std::process::ExitCode;

use clap::Parser;

use rollscope::exit::ExitStatus;
use rollscope::output::{diag::Diag, is_broken_pipe, ColorWhen};

fn main() -> ExitCode {
    let cli = rollscope::cli::Cli::parse();
    match rollscope::run(cli) {
        Ok(status) => status.into(),
        // A closed pipe (`| head`) is a clean exit, unless an input failed before it.
        Err(rollscope::Error::Io(e)) if is_broken_pipe(&e) => {
            if rollscope::output::diag::errored() {
                ExitStatus::Error.into()
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            Diag::new(false, ColorWhen::Auto).fatal(&e.to_string());
            ExitStatus::Error.into()
        }
    }
}
