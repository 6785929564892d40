//! Integration tests: one binary, one module per subcommand (ripgrep's layout).

mod util;

mod common;
mod stats;
