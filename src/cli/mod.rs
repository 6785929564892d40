//! The command line, in one place (clap derive). Nothing below `cmd/` sees these types:
//! each subcommand turns its args into plain options before any I/O.

use std::ffi::OsStr;
use std::path::PathBuf;

use clap::builder::{ArgPredicate, PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::analysis::calls::CallStatus;
use crate::analysis::turns::TurnStatus;
use crate::model::{CALL_TYPES, OUTPUT_TYPES};
use crate::output::{Shape, Width};

mod formats;

pub use formats::*;

/// A fast inspector and linter for OpenAI Codex session rollouts.
///
/// Reads rollout JSONL files (plain or zstd), tolerates damaged lines (each one is reported
/// as path:line on stderr), and prints tables for people or NDJSON/JSON for pipelines.
/// Exit codes: 0 clean, 1 findings (check-ordinal, lint --fail-on), 2 usage or I/O error.
#[derive(Debug, Parser)]
#[command(
    name = "rollscope",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_long_help = ROLLSCOPE_EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// The examples `--help` ends with (not `-h`). Each `$ ` line is run by a test
// (`tests/cli/help.rs`) against a sample Codex home, so none of them can rot.

const ROLLSCOPE_EXAMPLES: &str = "\
Examples:
  # Tokens per day over $CODEX_HOME (default ~/.codex), with a bar for each day
  $ rollscope stats --by day
  # The turns that did not end well, and why a resume would stumble
  $ rollscope turns --status failed,aborted,stale
  $ rollscope lint --fail-on warning
  # Every failed tool call, as rows for jq
  $ rollscope calls --status error --format ndjson | jq -r '.name'";

const STATS_EXAMPLES: &str = "\
Examples:
  # One row per session file, fitted to the terminal
  $ rollscope stats
  # Tokens per month, in UTC months, sessions started this year
  $ rollscope stats --by month --utc --since 2026-01-01
  # Total tokens of every session, summed by jq
  $ rollscope stats --format ndjson | jq -s 'map(.tokens.total_tokens) | add'";

const TURNS_EXAMPLES: &str = "\
Examples:
  # Turns that ended badly, or never ended
  $ rollscope turns --status failed,aborted,stale,open
  # Only the columns you want, in your order
  $ rollscope turns --columns path,index,status,duration,user_message
  # Turns longer than a second, as rows for jq
  $ rollscope turns --format ndjson | jq -c 'select(.duration_ms > 1000) | {path, index}'";

const CALLS_EXAMPLES: &str = "\
Examples:
  # Tool calls that failed
  $ rollscope calls --status error
  # Shell commands only, with their exit codes
  $ rollscope calls --name exec_command --name shell --columns name,exit_code,arguments
  # The slowest calls, slowest first
  $ rollscope calls --format ndjson | jq -s -r 'sort_by(.duration_ms // 0) | reverse | .[:5][].name'";

const CHECK_ORDINAL_EXAMPLES: &str = "\
Examples:
  # Every paginated rollout in the Codex home (exit 1 on any error)
  $ rollscope check-ordinal
  # Gaps count as errors too; print only the files that fail
  $ rollscope check-ordinal --deny gap --format ndjson | jq -r 'select(.ok | not) | .path'";

const REPLAY_EXAMPLES: &str = "\
Examples:
  # The history Codex rebuilds on resume, one row per item
  $ rollscope replay
  # What will break on the next resume, file by file
  $ rollscope replay --view state
  # What the next request sends the model, by item type
  $ rollscope replay --for-prompt --format ndjson | jq -r '.item.type' | sort | uniq -c
  # What a client shows on resume
  $ rollscope replay --view ui";

const LINT_EXAMPLES: &str = "\
Examples:
  # Every rule, every file in the Codex home
  $ rollscope lint
  # Only the ordinal rules; exit 1 on a warning too
  $ rollscope lint --select ordinal --fail-on warning
  # What a rule means, and how to fix what it finds
  $ rollscope lint --explain ordinal.gap
  # Annotations for a GitHub Actions job, and a SARIF log for code scanning
  $ rollscope lint --format sarif > rollscope.sarif";

const REPAIR_EXAMPLES: &str = "\
Examples:
  # What would change in the Codex home, file by file (exit 1 when something would)
  $ rollscope repair
  # The same as unified diffs
  $ rollscope repair --diff
  # Repaired copies of the home, laid out as in it (clean files copied as they are)
  $ rollscope repair --out-dir repaired
  # In place, unsafe fixes too, each original kept as <name>.bak
  $ rollscope repair --in-place --unsafe-fixes";

const MAN_EXAMPLES: &str = "\
Examples:
  # One subcommand's page, saved to read with `man -l rollscope-stats.1`
  $ rollscope man stats > rollscope-stats.1
  # Every page, into a directory man searches (MANPATH)
  $ rollscope man --dir man1";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  # Completions for this bash session
  $ source <(rollscope completions bash)
  # Installed for zsh (any directory on $fpath)
  $ rollscope completions zsh > _rollscope";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Counts per record type, turns, tool calls and the session's own token usage
    #[command(
        display_name = "rollscope",
        after_long_help = STATS_EXAMPLES,
        mut_arg("utc", |a| a.help("Use UTC instead of local time: for --since/--until dates, --by day|month and the times tables show"))
    )]
    Stats(StatsArgs),
    /// One row per turn: status, timing, settings, tool calls and own tokens
    #[command(display_name = "rollscope", after_long_help = TURNS_EXAMPLES)]
    Turns(TurnsArgs),
    /// One row per tool call (and per output without a call): pairing, status, exit code
    #[command(display_name = "rollscope", after_long_help = CALLS_EXAMPLES)]
    Calls(CallsArgs),
    /// Prove paginated rollouts' ordinals sound and predict the ones Codex's next resume
    /// breaks (exit 1 on any error)
    #[command(
        name = "check-ordinal",
        display_name = "rollscope",
        after_long_help = CHECK_ORDINAL_EXAMPLES,
        mut_arg("utc", utc_for_dates)
    )]
    CheckOrdinal(CheckOrdinalArgs),
    /// Rebuild what Codex rebuilds on resume and fork: the model history (or the prompt),
    /// the session state with what will break, or what a client is shown
    #[command(
        display_name = "rollscope",
        after_long_help = REPLAY_EXAMPLES,
        mut_arg("width", tables_only),
        mut_arg("columns", tables_only)
    )]
    Replay(ReplayArgs),
    /// Check rollouts against the rule registry: what Codex refuses, loses or misreads, and
    /// how to fix it (exit 1 on a finding at or above --fail-on)
    #[command(
        display_name = "rollscope",
        after_long_help = LINT_EXAMPLES,
        mut_arg("utc", utc_for_dates)
    )]
    Lint(LintArgs),
    /// Apply lint's fixes to broken rollouts: print what would change, or write repaired
    /// copies checked by lint first (exit 1 when something would change, or is left)
    #[command(
        display_name = "rollscope",
        after_long_help = REPAIR_EXAMPLES,
        mut_arg("utc", utc_for_dates)
    )]
    Repair(RepairArgs),
    /// Print shell completions to stdout
    #[command(display_name = "rollscope", after_long_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print a man page (roff): rollscope(1), or a subcommand's (`man stats`); or write
    /// them all into a directory
    #[command(display_name = "rollscope", after_long_help = MAN_EXAMPLES)]
    Man(ManArgs),
}

/// `--utc` of a command that shows no times: it is for `--since`/`--until` alone.
fn utc_for_dates(a: clap::Arg) -> clap::Arg {
    a.help("Read --since/--until dates as UTC days instead of local ones")
}

/// A table's option in `replay`, whose state view prints no table: its help says which
/// views it is for.
fn tables_only(a: clap::Arg) -> clap::Arg {
    let say = |h: &clap::builder::StyledStr| {
        let h = h.to_string();
        let mut chars = h.chars();
        let first = chars.next().map(|c| c.to_lowercase().to_string());
        format!(
            "History and ui views: {}{}",
            first.unwrap_or_default(),
            chars.as_str()
        )
    };
    let (help, long) = (a.get_help().map(say), a.get_long_help().map(say));
    let a = match help {
        Some(h) => a.help(h),
        None => a,
    };
    match long {
        Some(h) => a.long_help(h),
        None => a,
    }
}

/// Where rollouts come from and how they are read (shared by every subcommand).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Input")]
pub struct InputArgs {
    /// Rollout files, directories (walked for rollout-*.jsonl[.zst]) or - for stdin.
    /// Default: $CODEX_HOME/sessions and $CODEX_HOME/archived_sessions (CODEX_HOME
    /// defaults to ~/.codex)
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Leave $CODEX_HOME/archived_sessions out when no PATH is given
    #[arg(long)]
    pub no_archived: bool,

    /// Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,

    /// Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,

    /// Use UTC instead of local time: for --since/--until dates and the times tables show
    #[arg(long)]
    pub utc: bool,

    /// Files read in parallel [default: the number of CPUs]
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)
    #[arg(long, value_name = "SIZE", default_value = "512MiB", value_parser = parse_size)]
    pub max_line_bytes: usize,

    /// Do not report skipped lines on stderr, nor show a progress bar (errors are still
    /// reported)
    #[arg(short, long)]
    pub quiet: bool,

    /// Let a PATH that holds no rollout be an empty result (exit 0), not an error
    ///
    /// Without it, a directory given as a PATH in which no rollout is found (a typo, the
    /// wrong folder, files not named rollout-*) is an error, exit 2, in every format; for
    /// lint and repair, so is a Codex home that holds none. A --since/--until range that
    /// leaves nothing is never an error.
    #[arg(long)]
    pub allow_empty: bool,
}

/// How results are printed (shared by every subcommand; `F` its `--format` values).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs<F: FormatValue = FormatArg> {
    /// Output format; the default is a table whatever stdout is (ndjson with --jq)
    #[arg(long, value_enum, default_value_t = F::default(), default_value_if("jq", ArgPredicate::IsPresent, "ndjson"))]
    pub format: F,

    #[command(flatten)]
    pub jq: JqArgs,

    /// When to color tables and diagnostics (auto honours NO_COLOR and the terminal)
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,

    /// Fit tables to N columns, cutting what must be cut (0: never cut)
    ///
    /// Without it, a table on a terminal fits the terminal's width (COLUMNS, when set, wins
    /// over the measured one): the least important columns go first, then long texts and
    /// paths are cut (a path in its middle, never so far that two rows look alike). A table
    /// piped to a file or a pager is never cut: a text longer than 100 columns wraps in its
    /// cell.
    #[arg(long, value_name = "N")]
    pub width: Option<usize>,

    /// Table columns to show, in this order (comma-separated header names)
    ///
    /// An unknown name is an error that lists the table's columns. Columns named here are
    /// never dropped to fit the width; long texts in them are still cut. Some columns
    /// (`path` for one file) are shown only when named here.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub columns: Vec<String>,
}

impl<F: FormatValue> OutputArgs<F> {
    /// The table's shape as asked.
    pub fn shape(&self) -> Shape {
        Shape {
            width: match self.width {
                None => Width::Auto,
                Some(0) => Width::Unlimited,
                Some(n) => Width::At(n),
            },
            columns: self.columns.clone(),
        }
    }
}

/// `--jq`: the JSON a command prints, filtered in the process (shared by every command
/// that prints JSON; its `--format` turns to `ndjson` when `--jq` is given alone).
#[derive(Debug, Args, Clone, Default)]
pub struct JqArgs {
    /// Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq
    /// needed)
    ///
    /// With ndjson (what --jq alone implies) each row is one input, filtered as it comes;
    /// with json the whole array is one input, and with sarif the whole log: held in memory,
    /// as `jq -s` holds it. A string is printed raw, anything else as compact JSON, one a
    /// line. A filter that does not compile is a usage error (exit 2), as is a --format that
    /// prints no JSON; an error on an input is said on stderr and the run goes on, to end
    /// with exit 2. The filter runs in jaq, which differs from jq in a few places
    /// (docs/recipes.md, "--jq and jq")
    #[arg(long, value_name = "FILTER", allow_hyphen_values = true)]
    pub jq: Option<String>,
}

/// How a command that prints lines, never a table, prints them (`check-ordinal`): its
/// format and color, and no table's options.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Output")]
pub struct LinesOutputArgs<F: FormatValue> {
    /// Output format (ndjson with --jq)
    #[arg(long, value_enum, default_value_t = F::default(), default_value_if("jq", ArgPredicate::IsPresent, "ndjson"))]
    pub format: F,

    #[command(flatten)]
    pub jq: JqArgs,

    /// When to color lines and diagnostics (auto honours NO_COLOR and the terminal)
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Group rows: one per file (default), or per day, month, model, cwd, or one total
    #[arg(long, value_enum, default_value_t = ByArg::File)]
    pub by: ByArg,

    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ByArg {
    File,
    Day,
    Month,
    Model,
    Cwd,
    Total,
}

/// The settings `lint`, `replay` and `check-ordinal` share: the Codex version files are
/// read as, and the config file.
#[derive(Debug, Clone, Args)]
pub struct SettingsArgs {
    /// Read each file as this Codex version resumes it: a version, `file` or `newest`
    ///
    /// A version (0.153.4, 0.128), `file` for each file's own session_meta.cli_version, or
    /// `newest`. Default: the config file's [codex] version, else the newest version
    /// rollscope knows. What each version does: docs/codex-versions.md
    // The doc comment is the option's help: `[codex]` names the config file's table.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long, value_name = "VERSION|file")]
    pub codex: Option<String>,

    /// Read the settings from this TOML file. Without it, the config file is rollscope.toml
    /// or .rollscope.toml in the current directory, else in the nearest parent directory that
    /// has one (both in one directory is an error). Options given on the command line win
    /// over the file's keys
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Read no config file
    #[arg(long)]
    pub no_config: bool,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// What to show: the model history (one row per item), the session state with its
    /// diagnostics (one object per file), or the turns and items a client shows
    #[arg(long, value_enum, default_value_t = ViewArg::History)]
    pub view: ViewArg,

    /// Normalise the history as Codex does before sending it: synthetic "aborted" outputs
    /// for calls without one, orphan outputs dropped (history view)
    #[arg(long)]
    pub for_prompt: bool,

    /// Replay only through the end of this turn: its number as `turns` prints it, or its id
    #[arg(long, value_name = "N|ID", conflicts_with = "before_turn")]
    pub through_turn: Option<String>,

    /// Replay only what comes before this turn: its number as `turns` prints it, or its id
    #[arg(long, value_name = "N|ID")]
    pub before_turn: Option<String>,

    #[command(flatten)]
    pub transcript: TranscriptArgs,

    #[command(flatten)]
    pub settings: SettingsArgs,

    #[command(flatten)]
    pub state: StateArgs,

    #[command(flatten)]
    pub root: RootArgs,

    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArgs<FindingFormatArg>,
}

/// What `replay --format markdown` shows of long texts and secrets.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Transcript (--format markdown)")]
pub struct TranscriptArgs {
    /// Lines of a tool's output (and of a command, a patch, instructions) shown before a
    /// note of how many more there are; `all` shows them all
    #[arg(long, value_name = "N|all", default_value = "20", value_parser = line_limit)]
    pub max_output_lines: LineLimit,

    /// Replace each credential `content.secret` finds by a marker naming its kind
    #[arg(long)]
    pub redact_secrets: bool,
}

/// A number of lines, or no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineLimit(pub Option<usize>);

fn line_limit(s: &str) -> Result<LineLimit, String> {
    if s == "all" {
        return Ok(LineLimit(None));
    }
    s.parse()
        .map(|n| LineLimit(Some(n)))
        .map_err(|_| format!("`{s}` is neither a number of lines nor `all`"))
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Output format: rustc-style diagnostics for people, one line per finding, rows for
    /// pipelines, GitHub workflow annotations, or one SARIF 2.1.0 log for code scanning
    /// (ndjson with --jq)
    #[arg(long, value_enum, default_value_t = LintFormatArg::Human, default_value_if("jq", ArgPredicate::IsPresent, "ndjson"))]
    pub format: LintFormatArg,

    #[command(flatten)]
    pub jq: JqArgs,

    /// Only these rules: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Vec<String>,

    /// Leave these rules out: slugs or groups, comma-separated (wins over --select)
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,

    /// Exit 1 when a finding of this severity or above is reported [default: error]
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<SeverityArg>,

    #[command(flatten)]
    pub settings: SettingsArgs,

    /// Print a rule's documentation and exit
    #[arg(long, value_name = "SLUG", conflicts_with_all = ["list_rules", "jq"])]
    pub explain: Option<String>,

    /// List every rule (a table; {slug, group, severity, summary} objects, as one array
    /// with --format json or one a line with ndjson; a SARIF log of the rules and no
    /// results with --format sarif) and exit
    #[arg(long)]
    pub list_rules: bool,

    /// When to color diagnostics (auto honours NO_COLOR and the terminal)
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,

    #[command(flatten)]
    pub root: RootArgs,

    #[command(flatten)]
    pub state: StateArgs,

    #[command(flatten)]
    pub input: InputArgs,
}

/// Where the `state` rules read Codex's state databases.
#[derive(Debug, Args, Clone, Default)]
pub struct StateArgs {
    /// Read Codex's state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for
    /// every input [default: the Codex home each rollout lies in]
    #[arg(long, value_name = "DIR")]
    pub codex_home: Option<PathBuf>,

    /// The path the databases' rollout paths were written under, for a home copied
    /// elsewhere [default: what comes before their last sessions/ or archived_sessions/]
    #[arg(long, value_name = "PATH")]
    pub codex_home_as: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RepairArgs {
    /// Output format: a line per fix for people, or one row per fix for pipelines (one a
    /// line with ndjson, one array with json; ndjson with --jq)
    #[arg(long, value_enum, default_value_t = RepairFormatArg::Human, default_value_if("jq", ArgPredicate::IsPresent, "ndjson"))]
    pub format: RepairFormatArg,

    #[command(flatten)]
    pub jq: JqArgs,

    /// Show each file's repair as a unified diff (not with --jq: a diff is no JSON)
    #[arg(long, conflicts_with = "jq")]
    pub diff: bool,

    /// Write the repaired copy of the one input to FILE (- for standard output); a clean
    /// file is copied as it is
    #[arg(short = 'o', long, value_name = "FILE", conflicts_with_all = ["out_dir", "in_place"])]
    pub output: Option<PathBuf>,

    /// Write a copy of each input under DIR, at its path relative to its Codex home or to
    /// the folder it was found in (a file given alone: DIR/<its name>)
    // The doc comment is the option's help, where `<…>` is a placeholder, not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, value_name = "DIR", conflicts_with = "in_place")]
    pub out_dir: Option<PathBuf>,

    /// Replace each repaired file, keeping the original as <name>.bak; refused when the
    /// file changed since it was read, another process has it open for writing, or the
    /// backup exists
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long)]
    pub in_place: bool,

    /// Also apply the fixes that drop data or renumber (each is listed)
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Only these rules' fixes: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Vec<String>,

    /// Leave these rules' fixes out: slugs or groups, comma-separated (wins over --select)
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,

    #[command(flatten)]
    pub settings: SettingsArgs,

    /// When to color the report (auto honours NO_COLOR and the terminal)
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,

    #[command(flatten)]
    pub input: InputArgs,
}

/// `lint --fail-on`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    Error,
    Warning,
    Info,
}

/// `replay --view`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ViewArg {
    History,
    State,
    Ui,
}

#[derive(Debug, Args)]
pub struct CheckOrdinalArgs {
    /// Treat this warning as an error (exit 1): `gap`, `non-monotonic`
    ///
    /// `gap`: ordinals that never appear; `non-monotonic`: a duplicate or decreasing ordinal
    /// (a warning from Codex 0.146 on: what a client is shown suffers, not what the model is
    /// sent). Repeat for both
    #[arg(long, value_enum, value_name = "KIND")]
    pub deny: Vec<DenyArg>,

    #[command(flatten)]
    pub settings: SettingsArgs,

    #[command(flatten)]
    pub state: StateArgs,

    #[command(flatten)]
    pub root: RootArgs,

    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: LinesOutputArgs<CheckFormatArg>,
}

/// What the paths of SARIF logs and GitHub annotations are relative to (the commands that
/// write them).
#[derive(Debug, Args, Clone)]
pub struct RootArgs {
    /// Name files in SARIF logs and GitHub annotations relative to DIR [default: the current
    /// directory]
    ///
    /// Code scanning and annotations tie a finding to a file of the repository: run from its
    /// checkout, or give it here. A file outside DIR is named by its absolute path (a
    /// file:// URI in SARIF).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Warnings `check-ordinal --deny` can turn into errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DenyArg {
    Gap,
    NonMonotonic,
}

// `--status` and `--kind` take the names the analyses give their values (their rows'
// `status` and `kind`): the subcommands map them back.

#[derive(Debug, Args)]
pub struct TurnsArgs {
    /// Only turns with one of these statuses (comma-separated)
    #[arg(long, value_delimiter = ',', value_name = "LIST", value_parser = turn_statuses())]
    pub status: Vec<String>,

    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct CallsArgs {
    /// Only calls whose name matches this glob (`*`, `?`, `[...]`, `{a,b}`); a namespaced
    /// call also matches as NAMESPACE__NAME. Repeat to match any of several
    #[arg(long, value_name = "GLOB", value_parser = parse_glob)]
    pub name: Vec<String>,

    /// Only calls with one of these statuses (comma-separated)
    #[arg(long, value_delimiter = ',', value_name = "LIST", value_parser = call_statuses())]
    pub status: Vec<String>,

    /// Only calls of these response item types (comma-separated; an orphan row has its
    /// output's type)
    #[arg(long, value_delimiter = ',', value_name = "LIST", value_parser = call_kinds())]
    pub kind: Vec<String>,

    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// `turns --status` values: [`TurnStatus::as_str`] of each status.
fn turn_statuses() -> PossibleValuesParser {
    PossibleValuesParser::new(TurnStatus::ALL.map(TurnStatus::as_str))
}

/// `calls --status` values: [`CallStatus::as_str`] of each status.
fn call_statuses() -> PossibleValuesParser {
    PossibleValuesParser::new(CallStatus::ALL.map(CallStatus::as_str))
}

/// `calls --kind` values: the call item types, and the output types orphan rows carry.
fn call_kinds() -> PossibleValuesParser {
    PossibleValuesParser::new(CALL_TYPES.iter().chain(OUTPUT_TYPES).copied())
}

/// Check a `--name` glob at parse time, so a bad one is a usage error with clap's message.
fn parse_glob(s: &str) -> Result<String, String> {
    globset::Glob::new(s)
        .map(|_| s.to_string())
        .map_err(|e| format!("invalid glob: {}", e.kind()))
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate completions for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The subcommand whose page to print, rollscope-COMMAND(1); without it, rollscope(1)
    #[arg(value_name = "COMMAND", value_parser = SubcommandName)]
    pub command: Option<String>,

    /// Write every page into this directory instead (rollscope.1 and one
    /// rollscope-COMMAND.1 per subcommand), creating it if need be
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    #[arg(value_hint = clap::ValueHint::DirPath)]
    pub dir: Option<PathBuf>,
}

/// `man COMMAND`: the name of a subcommand `--help` lists, read from [`Cli`] when a value is
/// parsed or listed (reading it while `Cli`'s command is made would make it again, forever).
#[derive(Debug, Clone, Copy)]
struct SubcommandName;

impl SubcommandName {
    fn parser() -> PossibleValuesParser {
        let cli = Cli::command();
        let names = cli.get_subcommands().filter(|c| !c.is_hide_set());
        PossibleValuesParser::new(names.map(|c| c.get_name().to_string()))
    }
}

impl TypedValueParser for SubcommandName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        Self::parser().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let values: Vec<PossibleValue> = Self::parser().possible_values()?.collect();
        Some(Box::new(values.into_iter()))
    }
}

/// The command line as completion scripts see it: [`Cli`], with the rule registry's slugs
/// and groups as the values of `lint`'s and `repair`'s `--select` and `--ignore`, and its
/// slugs as those of `lint --explain`. Parsing never sees these values, nor does `--help`:
/// `lint` and `repair` take any name and report an unknown one themselves, with the
/// nearest rule.
pub fn for_completions() -> clap::Command {
    // In place: `mut_subcommand` and `mut_arg` would move them last in the scripts.
    Cli::command().mut_subcommands(|sub| {
        if !matches!(sub.get_name(), "lint" | "repair") {
            return sub;
        }
        sub.mut_args(|a| match a.get_id().as_str() {
            "select" | "ignore" => a.value_parser(rule_names(true)),
            "explain" => a.value_parser(rule_names(false)),
            _ => a,
        })
    })
}

/// Every rule's slug, with its summary, in registry order; with `groups`, each group too,
/// before its first rule.
fn rule_names(groups: bool) -> PossibleValuesParser {
    let mut values: Vec<PossibleValue> = Vec::new();
    for rule in crate::rules::all() {
        let group = rule.group();
        let new_group = !values.iter().any(|v| v.get_name() == group);
        if groups && new_group && group != rule.slug() {
            values.push(PossibleValue::new(group).help(format!("every {group}.* rule")));
        }
        values.push(PossibleValue::new(rule.slug()).help(rule.summary()));
    }
    PossibleValuesParser::new(values)
}

/// Parse `123`, `64K`, `512MiB`, `1G`... (binary multiples).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: usize = num.parse().map_err(|_| format!("`{s}` is not a size"))?;
    let mult: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(format!("`{s}`: unknown unit (use K, M or G)")),
    };
    n.checked_mul(mult)
        .filter(|v| *v > 0)
        .ok_or_else(|| format!("`{s}` is out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
        for_completions().debug_assert();
    }

    #[test]
    fn completions_see_the_rule_names_and_the_cli_in_its_own_order() {
        let names = |a: &clap::Arg| -> Vec<String> {
            let values = a.get_possible_values();
            values.iter().map(|v| v.get_name().to_string()).collect()
        };
        let (cli, completed) = (Cli::command(), for_completions());
        let order = |c: &clap::Command| -> Vec<String> {
            let lint = c.find_subcommand("lint").unwrap();
            let subs = c.get_subcommands().map(|s| s.get_name().to_string());
            subs.chain(lint.get_arguments().map(|a| a.get_id().to_string()))
                .collect()
        };
        assert_eq!(order(&completed), order(&cli));
        let named = [
            ("lint", "select", true),
            ("lint", "ignore", true),
            ("lint", "explain", false),
            ("repair", "select", true),
            ("repair", "ignore", true),
        ];
        for (sub, id, groups) in named {
            let arg = |c: &clap::Command| {
                let sub = c.find_subcommand(sub).unwrap();
                sub.get_arguments()
                    .find(|a| a.get_id() == id)
                    .unwrap()
                    .clone()
            };
            let offered = names(&arg(&completed));
            for rule in crate::rules::all() {
                assert!(offered.iter().any(|n| n == rule.slug()), "{id}: {rule:?}");
                assert_eq!(offered.iter().any(|n| n == rule.group()), groups, "{id}");
            }
            assert!(names(&arg(&cli)).is_empty(), "{sub} {id} takes any name");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("100"), Ok(100));
        assert!(parse_size("0").is_err());
        assert!(parse_size("3 parsecs").is_err());
    }
}
