//! Integration tests: one binary, one module per subcommand (ripgrep's layout).

mod util;

mod calls;
mod check_ordinal;
mod common;
mod stats;
mod turns;
