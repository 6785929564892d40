//! Subcommand glue: args → inputs → the one pass → output. One file per subcommand; this
//! module holds what they share (resolving inputs, running the pass over them in parallel,
//! reporting per-file problems).

pub mod calls;
pub mod check_ordinal;
pub mod completions;
pub mod lint;
pub mod man;
pub mod repair;
pub mod replay;
pub mod stats;
pub mod turns;

use std::collections::HashMap;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::analysis::session::SessionInfo;
use crate::analysis::{self, FileFacts, Needs, ReadOptions};
use crate::cli::{
    FormatValue, InputArgs, JqArgs, JsonFormats, LinesOutputArgs, OutputArgs, SettingsArgs,
};
use crate::codex::Reading;
use crate::codex::{Spec, VersionSource};
use crate::config::{self, Config, ConfigError, Problem};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::input::{self, DefaultRoots, Handles, Source, Walk};
use crate::lineage::Resolver;
use crate::output::diag::{Diag, BAD_LINE_NOTES};
use crate::output::diagnostics::{Diagnostics, Report, Style};
use crate::output::jq::Jq;
use crate::output::progress::Progress;
use crate::output::root::Root;
use crate::output::table::FILE_COLUMNS;
use crate::output::{Cell, ColorWhen, Column, FileRows, Format, Out, Shape};
use crate::parallel;
use crate::replay::Options as ReplayOptions;
use crate::rules::{self, Checked, Checker};
use crate::time::{Bound, Range, Zone};

/// Every table a subcommand prints, by the command line that prints it, and its columns:
/// the catalog `docs/columns.md` is made from.
pub fn tables() -> Vec<(&'static str, Vec<Column>)> {
    use crate::analysis::census::GroupBy;
    vec![
        ("stats", stats::columns(None)),
        ("stats --by day|month", stats::columns(Some(GroupBy::Day))),
        (
            "stats --by model|cwd|total",
            stats::columns(Some(GroupBy::Model)),
        ),
        ("turns", turns::columns(true)),
        ("calls", calls::columns(true)),
        ("replay (--view history)", replay::history_columns(true)),
        ("replay --view ui", replay::ui_columns(true)),
    ]
}

/// Every table of [`tables`], and those of the `stats --by` groupings it stands for with
/// another (`month` beside `day`; `cwd` and `total` beside `model`), whose first column is
/// named after the grouping: every column `--columns` can name.
pub fn every_table() -> Vec<(&'static str, Vec<Column>)> {
    use crate::analysis::census::GroupBy;
    let mut all = tables();
    all.extend([
        ("stats --by month", stats::columns(Some(GroupBy::Month))),
        ("stats --by cwd", stats::columns(Some(GroupBy::Cwd))),
        ("stats --by total", stats::columns(Some(GroupBy::Total))),
    ]);
    all
}

/// A subcommand (or view) that prints diagnostics, not a table, refuses the table's
/// options rather than ignoring them.
pub fn no_table<F: FormatValue>(output: &OutputArgs<F>, what: &str) -> Result<(), Error> {
    let flag = if !output.columns.is_empty() {
        "--columns"
    } else if output.width.is_some() {
        "--width"
    } else {
        return Ok(());
    };
    Err(Error::Usage(format!(
        "{flag}: {what} prints diagnostics, not a table"
    )))
}

/// The `--jq` filter, compiled before any input is read: none without `--jq`; a usage
/// error when it does not compile, or when `format` (given with it: alone, `--jq` makes it
/// `ndjson`) prints no JSON.
pub fn jq<F: JsonFormats>(args: &JqArgs, format: F) -> Result<Option<Jq>, Error> {
    let Some(code) = &args.jq else {
        return Ok(None);
    };
    if !format.is_json() {
        return Err(no_json(format, &F::json_values()));
    }
    Jq::compile(code)
        .map(Some)
        .map_err(|e| Error::Usage(format!("--jq: {e}")))
}

/// `--jq` with a `format` that prints no JSON: the formats that do (`values`) are named.
pub fn no_json(format: impl std::fmt::Display, values: &str) -> Error {
    Error::Usage(format!(
        "--jq filters JSON, and --format {format} prints none: give --format {values} (or no \
         --format: --jq alone filters ndjson rows)"
    ))
}

/// Where the rules are listed, for an unknown one.
pub const LIST_RULES: &str = " (`rollscope lint --list-rules` lists them)";

/// What `lint`, `replay` and `check-ordinal` read from their settings: the config file,
/// and the Codex version files are read as (`--codex` wins over the file's `[codex]`).
pub struct Settings {
    pub config: Config,
    pub codex: Spec,
}

/// The rules a run checks or fixes: `--select`/`--ignore` when given, else the config
/// file's `[lint]` lists; an unknown name is a usage error.
pub fn selection(
    select: &[String],
    ignore: &[String],
    lint: &config::Lint,
) -> Result<rules::select::Selection, Error> {
    let either = |given: &'_ [String], file: &Option<Vec<String>>| -> Vec<String> {
        match file {
            Some(list) if given.is_empty() => list.clone(),
            _ => given.to_vec(),
        }
    };
    rules::select::Selection::new(&either(select, &lint.select), &either(ignore, &lint.ignore))
        .map_err(|e| Error::Usage(format!("{e}{LIST_RULES}")))
}

/// The settings of a run: `--config`'s file, none with `--no-config`, else the one found from
/// the current directory upwards; `--codex`, else the file's version, else the newest.
pub fn settings(args: &SettingsArgs) -> Result<Settings, Error> {
    let config = read_config(args)?;
    let codex = match &args.codex {
        Some(v) => Spec::parse(v, VersionSource::Flag)
            .map_err(|e| Error::Usage(format!("--codex: {e}")))?,
        None => config.codex.unwrap_or_default(),
    };
    Ok(Settings { config, codex })
}

fn bad_config(e: ConfigError) -> Error {
    let hint = match &e {
        ConfigError::At {
            problem: Problem::UnknownRule(_),
            ..
        } => LIST_RULES,
        _ => "",
    };
    Error::Usage(format!("{e}{hint}"))
}

fn read_config(args: &SettingsArgs) -> Result<Config, Error> {
    if args.no_config {
        return Ok(Config::default());
    }
    let path = match &args.config {
        Some(p) => Some(p.clone()),
        None => config::find(&std::env::current_dir()?).map_err(bad_config)?,
    };
    match path {
        Some(p) => config::load(&p).map_err(bad_config),
        None => Ok(Config::default()),
    }
}

/// The Codex version a run read its files as, in words (the closing count's end).
pub fn read_as(spec: Spec) -> String {
    match spec {
        Spec::File => "each read as its own cli_version's Codex".to_string(),
        Spec::Version(..) => format!("read as {}", spec.reading(None)),
    }
}

/// How a run's output looks: its format, color, and a table's shape.
#[derive(Debug, Clone)]
pub struct Look {
    pub format: Format,
    pub color: ColorWhen,
    pub shape: Shape,
}

/// Everything a subcommand needs to read its inputs, resolved from the shared args.
pub struct Context {
    pub sources: Vec<Source>,
    pub read: ReadOptions,
    pub jobs: usize,
    pub range: Range,
    pub zone: Zone,
    pub diag: Diag,
    pub format: Format,
    pub color: ColorWhen,
    /// The table's width and columns as asked.
    pub shape: Shape,
    /// `--jq`'s filter, which the run's JSON goes through.
    pub jq: Option<Jq>,
    /// Each file's name in a table: relative to the root it was found under (worked out
    /// for the table format alone, the only one that shows it).
    labels: HashMap<PathBuf, String>,
    /// Errors met so far (inputs that could not be found or read).
    pub status: ExitStatus,
    /// Files handed on to the subcommand (read, and in the `--since`/`--until` range).
    pub handed: u64,
    /// `-q` was given: no progress bar (`lint` silences its notes, not the bar).
    pub quiet: bool,
    /// A compressed stream that cannot be decompressed is a finding of the command
    /// (`file.zst-corrupt`, for `lint` and the state view), not an error of the run.
    pub corrupt_is_finding: bool,
    /// The problems with inputs said on stderr so far, in order (what a SARIF log lists as
    /// the run's notifications).
    pub problems: Vec<input::InputError>,
    /// Nothing was found to read and that was said as an error: no `no rollout files found`
    /// note besides it.
    nothing_found_said: bool,
}

/// A directory that holds nothing to read is a mistake until said otherwise (a gate given
/// a typo passed in silence): each given one, and an empty default home where `purpose`
/// says so, becomes an error saying what was searched.
fn nothing_found(
    found: &mut input::Discovery,
    roots: Option<&DefaultRoots>,
    walk: Walk,
    purpose: Purpose,
) {
    let nothing = |path: &std::path::Path, what: &str| input::InputError {
        path: path.display().to_string(),
        cause: format!(
            "no rollout found: searched {what} for {} (--allow-empty: exit 0)",
            walk.searched()
        ),
    };
    // A Codex home whose rollouts are gone still has its databases to check (the `state`
    // rules say which rows name no file).
    let has_db = |d: &std::path::Path| d.join(crate::statedb::rows::STATE_DB).is_file();
    let findings = purpose == Purpose::Findings;
    let empty: Vec<input::InputError> = found
        .empty
        .iter()
        .filter(|d| !(findings && has_db(d)))
        .map(|d| nothing(d, "below it"))
        .collect();
    found.errors.extend(empty);
    let home = roots.filter(|r| !has_db(&r.codex_home));
    if let (Some(r), Purpose::Findings, true) = (
        home,
        purpose,
        found.sources.is_empty() && found.errors.is_empty(),
    ) {
        let dirs: Vec<String> = r
            .roots()
            .unwrap_or_default()
            .iter()
            .filter_map(|d| d.file_name())
            .map(|n| format!("{}/", n.to_string_lossy()))
            .collect();
        found
            .errors
            .push(nothing(&r.codex_home, &dirs.join(" and ")));
    }
}

/// What a run's inputs are for: findings (`lint`, `repair`: they gate, so an empty default
/// home is an error too, and a folder holding Codex's state database has something to
/// check), or rows and lines (an empty default home is an empty result).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Findings,
    Rows,
}

impl Context {
    /// Resolve inputs. Discovery errors are reported at once; the run goes on.
    pub fn new<F: FormatValue>(
        input: &InputArgs,
        output: &OutputArgs<F>,
    ) -> Result<Context, Error> {
        let jq = jq(&output.jq, output.format)?;
        let look = Look {
            format: output.format.into(),
            color: output.color.into(),
            shape: output.shape(),
        };
        let mut cx = Context::with_walk(input, look, Walk::Rollouts, Purpose::Rows)?;
        cx.jq = jq;
        Ok(cx)
    }

    /// [`Context::new`] for a command that prints lines, never a table.
    pub fn for_lines<F: FormatValue>(
        input: &InputArgs,
        output: &LinesOutputArgs<F>,
    ) -> Result<Context, Error> {
        let jq = jq(&output.jq, output.format)?;
        let look = Look {
            format: output.format.into(),
            color: output.color.into(),
            shape: Shape::default(),
        };
        let mut cx = Context::with_walk(input, look, Walk::Rollouts, Purpose::Rows)?;
        cx.jq = jq;
        Ok(cx)
    }

    /// A context for a command whose output is findings or fixes (`lint`, `repair`): the
    /// per-line notes the other commands print are off (the findings say the same), not the
    /// progress bar (`-q`'s); every `*.jsonl` of a session folder is walked.
    pub fn for_findings(input: &InputArgs, color: ColorWhen) -> Result<Context, Error> {
        let look = Look {
            format: Format::Table,
            color,
            shape: Shape::default(),
        };
        // What the run reads is said as `-q` says; the notes about lines never are.
        let mut cx = Context::with_walk(input, look, Walk::Everything, Purpose::Findings)?;
        cx.diag = Diag::new(true, color);
        Ok(cx)
    }

    /// [`Context::new`], output as `look` says, walking directories for what `walk` takes.
    fn with_walk(
        input: &InputArgs,
        look: Look,
        walk: Walk,
        purpose: Purpose,
    ) -> Result<Context, Error> {
        let zone = if input.utc { Zone::Utc } else { Zone::Local };
        let parse = |s: &Option<String>, flag: &str| -> Result<Option<Bound>, Error> {
            s.as_deref()
                .map(|v| Bound::parse(v).map_err(|e| Error::Usage(format!("{flag}: {e}"))))
                .transpose()
        };
        let range = Range {
            since: parse(&input.since, "--since")?,
            until: parse(&input.until, "--until")?,
            zone,
        };
        if range.is_empty() {
            let (since, until) = (input.since.as_deref(), input.until.as_deref());
            return Err(Error::Usage(format!(
                "--since {} is after --until {}: no session can start in that range",
                since.unwrap_or_default(),
                until.unwrap_or_default()
            )));
        }
        let color = look.color;
        let diag = Diag::new(input.quiet, color);
        let roots = if input.paths.is_empty() {
            let roots = DefaultRoots::from_env(!input.no_archived)
                .map_err(|e| Error::Usage(e.to_string()))?;
            // Nothing to read at all: one line, exit 2, before any output.
            let dirs = roots.roots().map_err(|e| Error::Usage(e.to_string()))?;
            // `cat one.jsonl | rollscope stats` read the whole home in silence.
            if input::stdin_is_given() {
                let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
                diag.aside(&format!(
                    "no PATH given: reading the Codex home ({}), not standard input; \
                     `-` reads standard input",
                    dirs.join(", ")
                ));
            }
            Some(roots)
        } else {
            None
        };
        let mut found = input::discover_with(&input.paths, roots.as_ref(), walk);
        if !input.allow_empty {
            nothing_found(&mut found, roots.as_ref(), walk, purpose);
        }
        let nothing_found_said = found.sources.is_empty() && !found.errors.is_empty();
        let mut status = ExitStatus::Clean;
        for e in &found.errors {
            diag.error(&e.path, &e.cause);
            status = ExitStatus::Error;
        }
        // The directories files were found under: the default roots, or the given ones.
        let walked: Vec<PathBuf> = match &roots {
            Some(r) => r.roots().unwrap_or_default(),
            None => input.paths.iter().filter(|p| p.is_dir()).cloned().collect(),
        };
        // Only a table shows them: the other formats name a file as given, and working
        // them out was a sixth of `stats` over a folder of 2,000 forks.
        let labels = match look.format {
            Format::Table => input::label::labels(&found.sources, &walked),
            Format::Ndjson | Format::Json => HashMap::new(),
        };
        if input.jobs == Some(0) {
            return Err(Error::Usage("-j/--jobs must be at least 1".into()));
        }
        Ok(Context {
            sources: found.sources,
            read: ReadOptions {
                max_line_bytes: input.max_line_bytes,
                handles: Handles::default(),
                until_line: None,
            },
            jobs: input.jobs.unwrap_or_else(parallel::default_jobs),
            range,
            zone,
            diag,
            format: look.format,
            color,
            shape: look.shape,
            jq: None,
            labels,
            status,
            handed: 0,
            quiet: input.quiet,
            corrupt_is_finding: false,
            problems: found.errors,
            nothing_found_said,
        })
    }

    /// Say on stderr, in one line, why a run printed no row (`rows`: the rows it wrote;
    /// `what`: what each row is, plural): nothing found, nothing in the date range, or
    /// none of `what` in the files read. Inputs that could not be read were reported.
    pub fn say_if_empty(&self, rows: u64, what: &str) {
        if rows > 0 {
            return;
        }
        let files = |n: u64| crate::output::counted(n, "file");
        let msg = if self.sources.is_empty() {
            if self.nothing_found_said {
                return;
            }
            "no rollout files found".to_string()
        } else if self.handed == 0 && !self.range.is_open() {
            format!(
                "no session started in the --since/--until range ({} read)",
                files(self.sources.len() as u64)
            )
        } else if self.handed == 0 {
            return;
        } else {
            format!("no {what} in {}", files(self.handed))
        };
        self.diag.empty(&msg);
    }

    /// Rows to stdout in the run's format; a table of `columns`, shaped as asked; JSON
    /// through `--jq`'s filter.
    pub fn out(&self, columns: Vec<Column>) -> Result<Out, Error> {
        let out = Out::shaped(self.format, self.color, columns, &self.shape);
        Ok(out.map_err(Error::Usage)?.filtered(self.jq.as_ref()))
    }

    /// Rows to stdout in the run's format, lines instead of a table; JSON through `--jq`'s
    /// filter.
    pub fn lines(&self) -> Out {
        Out::lines(self.format, self.color).filtered(self.jq.as_ref())
    }

    /// Findings to stdout in `style`, through `--jq`'s filter: those of `checker`'s rules,
    /// read as `codex` reads them, files named relative to `root`.
    pub fn findings(
        &self,
        style: Style,
        checker: &Checker,
        codex: Reading,
        root: Option<&std::path::Path>,
    ) -> Report {
        Report::Findings(Box::new(
            Diagnostics::new(style, self.color, checker.rules(), codex, Root::new(root))
                .filtered(self.jq.as_ref()),
        ))
    }

    /// A file's path as a table shows it: relative to the root it was found under, the
    /// root's name first (`sessions/2026/11/29/rollout-…`, `archived_sessions/…`), else as
    /// given.
    pub fn path_cell(&self, source: &Source) -> Cell {
        match source.path().and_then(|p| self.labels.get(p)) {
            Some(label) => Cell::text(label),
            None => Cell::text(&source.display()),
        }
    }

    /// The cells of [`Column::file`]'s columns for a file's rows: its session's short id,
    /// its start on the run's clock, its path.
    pub fn file_cells(&self, source: &Source, session: &SessionInfo) -> [Cell; FILE_COLUMNS] {
        [
            Cell::opt(session.short_id()),
            Cell::time(session.started_at.as_deref(), self.zone, false),
            self.path_cell(source),
        ]
    }

    /// The run's Codex home (`$CODEX_HOME`, else `~/.codex`), when one can be named.
    pub fn codex_home(&self) -> Option<PathBuf> {
        DefaultRoots::from_env(true).ok().map(|r| r.codex_home)
    }

    /// Run the pass `needs` names over every input, in parallel, and hand each file's facts
    /// to `f` in input order, once its skipped lines and errors are reported, with `out`,
    /// whose rows are flushed after each file. Files outside `--since`/`--until`, and files
    /// that could not be opened, are not handed on.
    pub fn each_file<O: FileRows + Send>(
        &mut self,
        needs: &Needs,
        out: &mut O,
        mut f: impl FnMut(&mut Context, &mut O, FileFacts) -> io::Result<()> + Send,
    ) -> io::Result<()> {
        self.each_file_with(
            |s, read| (analysis::read(s, read, needs), ()),
            out,
            |cx, out, facts, ()| f(cx, out, facts),
        )
    }

    /// [`Context::each_file`], each file read by `read_one`, which hands on what it found
    /// besides the facts (what Codex's databases say of the file, for `check-ordinal`).
    pub fn each_file_with<O: FileRows + Send, T: Send>(
        &mut self,
        read_one: impl Fn(&Source, &ReadOptions) -> (FileFacts, T) + Sync,
        out: &mut O,
        mut f: impl FnMut(&mut Context, &mut O, FileFacts, T) -> io::Result<()> + Send,
    ) -> io::Result<()> {
        let sources = std::mem::take(&mut self.sources);
        let read = self.read.clone();
        let progress = self.progress(&sources);
        let result = parallel::ordered(
            &sources,
            self.jobs,
            |s| read_one(s, &read),
            |(facts, extra)| {
                progress.file_done();
                if self.report(&facts) {
                    self.handed += 1;
                    f(self, out, facts, extra)?;
                    out.end_file()
                } else {
                    Ok(())
                }
            },
        );
        progress.finish();
        self.sources = sources;
        result
    }

    /// Replay and check every input (in parallel, lineage sources found by one shared
    /// resolver) and hand each file's replay and findings to `f` in input order, once its
    /// errors are reported, with `out`, whose rows are flushed after each file. Files
    /// outside `--since`/`--until`, files that could not be opened, and files whose cut
    /// names no turn are not handed on.
    pub fn each_replay<O: FileRows + Send>(
        &mut self,
        opts: &ReplayOptions,
        checker: &Checker,
        out: &mut O,
        mut f: impl FnMut(&mut Context, &mut O, Checked) -> io::Result<()> + Send,
    ) -> io::Result<()> {
        let resolver = Mutex::new(Resolver::new(&self.sources, self.codex_home()));
        let sources = std::mem::take(&mut self.sources);
        let read = self.read.clone();
        let progress = self.progress(&sources);
        let result = parallel::ordered(
            &sources,
            self.jobs,
            |s| rules::replay(s, &resolver, &read, opts, checker),
            |c| {
                progress.file_done();
                let r = &c.replay;
                let path = r.facts.source.display();
                // A read error of the file is the pass's too, which `report` says: said
                // here as well, it came out twice (`tests/cli/hostile/streams.rs`,
                // `a_truncated_and_a_corrupt_zstd_are_one_line_each_and_the_good_file_is_read`).
                if let Some(e) = r
                    .error
                    .as_ref()
                    .filter(|e| r.facts.io_error.as_ref() != Some(*e))
                {
                    self.error(&path, e);
                }
                let cut_failed = opts.cut.is_some() && r.cut.is_none() && r.error.is_some();
                if !self.report(&r.facts) || cut_failed {
                    return Ok(());
                }
                self.handed += 1;
                f(self, out, c)?;
                out.end_file()
            },
        );
        progress.finish();
        self.sources = sources;
        result
    }

    /// The progress bar of a pass over `sources` (several of them; none for one file).
    fn progress(&self, sources: &[Source]) -> Progress {
        if sources.len() < 2 || !Progress::wanted(self.quiet) {
            return Progress::off();
        }
        let sources = sources.to_vec();
        Progress::start(self.quiet, sources.len(), move || {
            input::disk_sizes(&sources)
        })
    }

    /// Report a file's skipped lines and errors on stderr; remember errors for the exit
    /// code. Returns false when the file is outside `--since`/`--until` (and so reported
    /// on nothing but I/O errors), or could not be opened.
    fn report(&mut self, r: &FileFacts) -> bool {
        let path = r.source.display();
        if let Some(cause) = &r.io_error {
            if !(r.corrupt_compression.is_some() && self.corrupt_is_finding) {
                self.error(&path, cause);
            }
        }
        if !self.range.contains(r.session.started_ms) {
            return false;
        }
        self.diag.stream_notes(&path, &r.stream);
        for b in r.bad.iter().take(BAD_LINE_NOTES) {
            self.diag.bad_line(&path, b);
        }
        if r.bad.len() > BAD_LINE_NOTES {
            self.diag
                .more_bad_lines(&path, r.bad.len() - BAD_LINE_NOTES);
        }
        // Lines, none of them a record: no rollout (a binary, another tool's log).
        if r.opened && r.stream.records == 0 && !r.bad.is_empty() {
            self.diag.note(
                &path,
                "does not look like a rollout: no line is a JSON record",
            );
        }
        r.opened
    }

    /// An error about one input (the run goes on; it ends with exit 2).
    pub fn error(&mut self, path: &str, cause: &str) {
        self.diag.error(path, cause);
        self.status = self.status.merge(ExitStatus::Error);
        self.problems.push(input::InputError {
            path: path.to_string(),
            cause: cause.to_string(),
        });
    }
}
