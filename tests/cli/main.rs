//! Integration tests: one binary, one module per subcommand (ripgrep's layout).

mod util;

mod calls;
mod common;
mod stats;
mod turns;
