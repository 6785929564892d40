//! `rollscope lint`: glue from args to the rule registry's checks and the formats in
//! `docs/lint.md`. The checks are the shared ones: each file is read once by the replay
//! (which carries the ordinal check, the lineage, the decoder's bad lines and the history
//! diagnostics), and its findings are filtered by `--select`/`--ignore` and given the config
//! file's severities. Findings are written as they come, except in SARIF: one log, written
//! when the run ends. The command line wins over the config file, key by key.

use serde::Serialize;

use crate::cli::{FormatArg, LintArgs, LintFormatArg, OutputArgs, SeverityArg};
use crate::cmd::Context;
use crate::config::{self, Config, ConfigError, Problem};
use crate::content;
use crate::exit::ExitStatus;
use crate::findings::select::{self, Selection, UnknownRule};
use crate::findings::{Finding, Rule, Severity};
use crate::input::{placement, Walk};
use crate::output::diag::Diag;
use crate::output::lint::{self as render, help, Shown};
use crate::output::sarif::Log;
use crate::output::{self, findings::message, Cell, Column, Format, Out};
use crate::replay::Options;
use crate::Error;

/// One finding row (`--format ndjson|json`; schema in `docs/lint.md`).
#[derive(Serialize)]
struct Row<'a> {
    path: &'a str,
    line: Option<u64>,
    column: Option<u64>,
    byte_offset: Option<u64>,
    rule: Rule,
    severity: Severity,
    message: String,
    help: &'a str,
}

/// One rule of `--list-rules --format json`.
#[derive(Serialize)]
struct RuleRow {
    slug: &'static str,
    group: &'static str,
    severity: Severity,
    summary: &'static str,
}

/// Where the rules are listed, for an unknown one.
const LIST_RULES: &str = " (`rollscope lint --list-rules` lists them)";

fn unknown(e: UnknownRule) -> Error {
    Error::Usage(format!("{e}{LIST_RULES}"))
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

/// The config file's settings: `--config`'s file, none with `--no-config`, else the one
/// found from the current directory upwards (none when there is none).
fn read_config(args: &LintArgs) -> Result<Config, Error> {
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

/// The command line's list when one was given, else the file's.
fn either<'a>(given: &'a [String], file: &'a Option<Vec<String>>) -> &'a [String] {
    match file {
        Some(list) if given.is_empty() => list,
        _ => given,
    }
}

/// Where findings go: rows or lines as they come, or one SARIF log at the end.
enum Sink {
    Out(Out),
    Sarif(Log),
}

fn threshold(s: SeverityArg) -> Severity {
    match s {
        SeverityArg::Error => Severity::Error,
        SeverityArg::Warning => Severity::Warning,
        SeverityArg::Info => Severity::Info,
    }
}

pub fn run(args: &LintArgs) -> Result<ExitStatus, Error> {
    if let Some(slug) = &args.explain {
        let rule = select::rule(slug).map_err(unknown)?;
        output::raw(render::explain(rule).as_bytes())?;
        return Ok(ExitStatus::Clean);
    }
    let json = matches!(args.format, LintFormatArg::Json | LintFormatArg::Ndjson);
    if args.list_rules {
        return list_rules(args, json);
    }
    let lint = read_config(args)?.lint;
    let select = either(&args.select, &lint.select);
    let ignore = either(&args.ignore, &lint.ignore);
    let selection = Selection::new(select, ignore).map_err(unknown)?;
    let fail_on = args.fail_on.map(threshold).or(lint.fail_on);
    let fail_on = fail_on.unwrap_or(Severity::Error);
    // Findings are the output: the per-line notes the other commands print would say
    // the same twice.
    let mut input = args.input.clone();
    input.quiet = true;
    let out_args = OutputArgs {
        format: if json {
            FormatArg::Ndjson
        } else {
            FormatArg::Table
        },
        color: args.color,
        width: None,
        columns: Vec::new(),
    };
    let mut cx = Context::with_walk(&input, &out_args, Walk::Everything)?;
    // The notes are silenced, not the progress bar: that is `-q`'s.
    cx.quiet = args.input.quiet;
    let format = match args.format {
        LintFormatArg::Json => Format::Json,
        LintFormatArg::Ndjson => Format::Ndjson,
        _ => Format::Table,
    };
    let mut sink = match args.format {
        LintFormatArg::Sarif => {
            let rules = Rule::ALL.iter().copied();
            Sink::Sarif(Log::new(rules.filter(|&r| selection.contains(r)).collect()))
        }
        _ => Sink::Out(Out::lines(format, cx.color)),
    };
    let (mut counts, mut files, mut failed) = ([0usize; 3], 0usize, false);
    // The content checks cost a parse of the records they may concern: only when asked.
    let opts = Options {
        content: content::Checks {
            secrets: selection.contains(Rule::ContentSecret),
            media: selection.contains(Rule::ContentInlineMedia),
        },
        ..Options::default()
    };
    cx.each_replay(&opts, |_, r| {
        let path = r.facts.source.display();
        files += 1;
        // Its name and place first (whole-file findings), then what its records say.
        let placed = r.facts.source.path().map(placement::judge);
        let all = placed.iter().flatten().chain(&r.findings);
        for f in all.filter(|f| selection.contains(f.rule)) {
            let f: &Finding = &lint.severity.apply(f);
            #[allow(
                clippy::indexing_slicing,
                reason = "a severity's discriminant is below 3, `counts`' length"
            )]
            {
                counts[f.severity as usize] += 1;
            }
            failed |= f.severity >= fail_on;
            let out = match &mut sink {
                Sink::Sarif(log) => {
                    log.push(r.facts.source.path(), f);
                    continue;
                }
                Sink::Out(out) => out,
            };
            // A line holding a secret is not shown: its start may be the secret.
            let excerpt = match (args.format, f.at) {
                (LintFormatArg::Human, Some(p)) if f.rule != Rule::ContentSecret => {
                    r.excerpt(p, 200)
                }
                _ => None,
            };
            let shown = Shown {
                path: &path,
                finding: f,
                excerpt: excerpt.as_deref(),
            };
            emit(out, args.format, &shown)?;
        }
        Ok(())
    })?;
    match sink {
        Sink::Out(out) => out.finish()?,
        Sink::Sarif(log) => log.finish()?,
    }
    // No rollout to lint is said as every reader says it (the per-line notes are off, not
    // this one): in NDJSON or SARIF a gate given a path that holds none passed in silence
    // (`tests/cli/hostile/files.rs`, `a_directory_named_like_a_rollout_is_walked_never_…`).
    cx.diag = Diag::new(args.input.quiet, cx.color);
    cx.say_if_empty(files as u64, "rollouts");
    if matches!(args.format, LintFormatArg::Human | LintFormatArg::Concise) {
        let [infos, warnings, errors] = counts;
        cx.diag
            .summary(&render::summary(errors, warnings, infos, files));
    }
    if failed {
        cx.status = cx.status.merge(ExitStatus::Findings);
    }
    Ok(cx.status)
}

fn emit(out: &mut Out, format: LintFormatArg, s: &Shown<'_>) -> std::io::Result<()> {
    let f: &Finding = s.finding;
    let row = Row {
        path: s.path,
        line: f.at.map(|p| p.line),
        column: f.at.map(|_| 1),
        byte_offset: f.at.map(|p| p.offset),
        rule: f.rule,
        severity: f.severity,
        message: message(f),
        help: help(f.rule),
    };
    out.row(&row, || match format {
        LintFormatArg::Human => render::human(s),
        LintFormatArg::Github => vec![Cell::text(&render::github(s))],
        _ => vec![render::concise(s)],
    })
}

fn list_rules(args: &LintArgs, json: bool) -> Result<ExitStatus, Error> {
    let color = args.color.into();
    // The rules as code scanning takes them: a log whose driver describes every rule.
    if args.format == LintFormatArg::Sarif {
        Log::new(Rule::ALL.to_vec()).finish()?;
        return Ok(ExitStatus::Clean);
    }
    if json {
        let rows: Vec<RuleRow> = Rule::ALL
            .iter()
            .map(|&r| RuleRow {
                slug: r.slug(),
                group: r.group(),
                severity: r.default_severity(),
                summary: r.summary(),
            })
            .collect();
        // An array (`json`), or one rule a line (`ndjson`).
        let format = if args.format == LintFormatArg::Json {
            Format::Json
        } else {
            Format::Ndjson
        };
        let mut out = Out::new(format, color, Vec::new());
        for row in &rows {
            out.row(row, Vec::new)?;
        }
        out.finish()?;
        return Ok(ExitStatus::Clean);
    }
    let columns = vec![
        Column::left("slug").rank(9),
        Column::left("group").rank(2),
        Column::left("severity").rank(6),
        Column::left("summary").text().rank(7),
    ];
    let mut out = Out::new(Format::Table, color, columns);
    for &r in Rule::ALL {
        out.row(&(), || {
            vec![
                Cell::text(r.slug()),
                Cell::text(r.group()),
                Cell::text(r.default_severity().as_str())
                    .tone(output::findings::tone(r.default_severity())),
                Cell::text(r.summary()),
            ]
        })?;
    }
    out.finish()?;
    Ok(ExitStatus::Clean)
}
