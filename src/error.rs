//! The error that ends a run early, below the subcommands that return it and the root
//! that maps it to an exit code.

/// What ends a run early: a usage error found after clap (a bad `--since`, say), or an I/O
/// error on stdout (a closed pipe among them, which `main` turns into a quiet exit).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
