//! Subcommand glue: args → inputs → reducers → output. One file per subcommand; this module
//! holds what they share (resolving inputs, reporting per-file problems).

pub mod calls;
pub mod check_ordinal;
pub mod completions;
pub mod stats;
pub mod turns;

use crate::cli::{InputArgs, OutputArgs};
use crate::exit::ExitStatus;
use crate::input::{self, DefaultRoots, Source};
use crate::output::diag::Diag;
use crate::output::{ColorWhen, Format};
use crate::reduce::{self, FileReport, ReadOptions};
use crate::time::{Bound, Range, Zone};

/// What can end a subcommand early: a usage error found after clap, or an I/O error on
/// stdout (a closed pipe among them, which `main` turns into a quiet exit).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A usage error found after clap (a bad `--since`, say): exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Everything a subcommand needs to read its inputs, resolved from the shared args.
pub struct Context {
    pub sources: Vec<Source>,
    pub read: ReadOptions,
    pub range: Range,
    pub zone: Zone,
    pub diag: Diag,
    pub format: Format,
    pub color: ColorWhen,
    /// Errors met so far (inputs that could not be found or read).
    pub status: ExitStatus,
}

impl Context {
    /// Resolve inputs. Discovery errors are reported at once; the run goes on.
    pub fn new(input: &InputArgs, output: &OutputArgs) -> Result<Context, UsageError> {
        let zone = if input.utc { Zone::Utc } else { Zone::Local };
        let parse = |s: &Option<String>, flag: &str| -> Result<Option<Bound>, UsageError> {
            s.as_deref()
                .map(|v| Bound::parse(v).map_err(|e| UsageError(format!("{flag}: {e}"))))
                .transpose()
        };
        let range = Range {
            since: parse(&input.since, "--since")?,
            until: parse(&input.until, "--until")?,
            zone,
        };
        let color: ColorWhen = output.color.into();
        let diag = Diag::new(input.quiet, color);
        let roots = if input.paths.is_empty() {
            let roots = DefaultRoots::from_env(!input.no_archived)
                .map_err(|e| UsageError(e.to_string()))?;
            // Nothing to read at all: one line, exit 2, before any output.
            roots.roots().map_err(|e| UsageError(e.to_string()))?;
            Some(roots)
        } else {
            None
        };
        let found = input::discover(&input.paths, roots.as_ref());
        let mut status = ExitStatus::Clean;
        for e in &found.errors {
            diag.error(&e.path, &e.cause);
            status = ExitStatus::Error;
        }
        if input.jobs == Some(0) {
            return Err(UsageError("-j/--jobs must be at least 1".into()));
        }
        Ok(Context {
            sources: found.sources,
            read: ReadOptions {
                max_line_bytes: input.max_line_bytes,
                jobs: input.jobs.unwrap_or_else(reduce::default_jobs),
            },
            range,
            zone,
            diag,
            format: output.format.into(),
            color,
            status,
        })
    }

    /// Report a file's skipped lines and errors on stderr; remember errors for the exit
    /// code. Returns false when the file is outside `--since`/`--until` (and so reported
    /// on nothing but I/O errors).
    pub fn report<O>(&mut self, r: &FileReport<O>) -> bool {
        let path = r.source.display();
        if let Some(cause) = &r.io_error {
            self.diag.error(&path, cause);
            self.status = self.status.merge(ExitStatus::Error);
        }
        if !self.range.contains(r.session.started_ms) {
            return false;
        }
        self.diag.stream_notes(&path, &r.info);
        for b in &r.bad {
            self.diag.bad_line(&path, b);
        }
        r.output.is_some()
    }
}
