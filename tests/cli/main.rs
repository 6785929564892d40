//! Integration tests: one binary, one module per subcommand (ripgrep's layout).

// Tests print their skip notes themselves; the output-layer rule is for `src/`.
#![allow(clippy::disallowed_macros, clippy::disallowed_methods)]

mod util;

mod calls;
mod check_ordinal;
mod common;
mod completion;
mod contract;
mod docs;
mod duckdb;
mod fixes;
mod help;
mod hostile;
mod hostile_text;
mod jq;
mod layers;
mod lint;
mod lint_config;
mod lint_sarif;
mod man;
mod progress;
mod properties;
mod repair;
mod replay;
mod shell;
mod state;
mod stats;
mod terminal;
mod transcript;
mod turns;
mod typed;
mod versions;
