//! `rollscope lint`: glue from args to the rule registry's checks and the formats in
//! `docs/lint.md`. The checks are the shared ones: each file is read once by the replay
//! (which carries the ordinal check, the lineage, the decoder's bad lines and the history
//! diagnostics), and its findings are filtered by `--select`/`--ignore` and given the config
//! file's severities. Findings are written as they come, except in SARIF: one log, written
//! when the run ends. The command line wins over the config file, key by key.

use serde::Serialize;

use crate::cli::{LintArgs, LintFormatArg, SeverityArg};
use crate::cmd::Context;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::findings::{Applicability, FixWhen, Rule, Severity};
use crate::output::diag::Diag;
use crate::output::diagnostics::{self, Diagnostics, Shown, Style};
use crate::output::jq::Jq;
use crate::output::lint as render;
use crate::output::root::Root;
use crate::output::sarif::Log;
use crate::output::{Cell, Column, Format, Out};
use crate::replay::Options;
use crate::rules::homes::{self, Scope};
use crate::rules::select::{self, UnknownRule};
use crate::rules::{self, Checker};
use crate::statedb::Homes;

/// One rule of `--list-rules --format json`.
#[derive(Serialize)]
struct RuleRow {
    slug: &'static str,
    group: &'static str,
    severity: Severity,
    summary: &'static str,
    /// Whether its findings carry a fix: `none`, `sometimes`, `always`.
    fix: FixWhen,
    /// How safe its fixes can be.
    applicabilities: &'static [Applicability],
}

use super::LIST_RULES;

fn unknown(e: UnknownRule) -> Error {
    Error::Usage(format!("{e}{LIST_RULES}"))
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
        render::write_explain(rule, args.color.into())?;
        return Ok(ExitStatus::Clean);
    }
    let jq = super::jq(&args.jq, args.format)?;
    if args.list_rules {
        return list_rules(args, jq.as_ref());
    }
    check(args, jq.as_ref())
}

/// Lint the inputs: every finding written, the exit code `--fail-on` says.
fn check(args: &LintArgs, jq: Option<&Jq>) -> Result<ExitStatus, Error> {
    let settings = super::settings(&args.settings)?;
    let lint = settings.config.lint.clone();
    let selection = super::selection(&args.select, &args.ignore, &lint)?;
    let fail_on = args.fail_on.map(threshold).or(lint.fail_on);
    let fail_on = fail_on.unwrap_or(Severity::Error);
    let mut cx = Context::for_findings(&args.input, args.color.into())?;
    cx.corrupt_is_finding = true;
    let style = args.format.style();
    // Only the rules the run reports are checked (the content checks cost a parse of the
    // records they may concern).
    // SARIF prints where each span ends: only then are lines read back for their ends and
    // characters counted. No output prints a fix (`repair` applies them).
    let state = &args.state;
    let homes = Homes::new(state.codex_home.clone(), state.codex_home_as.clone());
    let checker = Checker::of_units(|unit| selection.contains(unit.rule))
        .with_columns(style == Style::Sarif)
        .with_digests(style == Style::Sarif)
        .without_fixes()
        .with_state(std::sync::Arc::new(homes));
    let mut diag = Diagnostics::new(
        style,
        cx.color,
        checker.rules(),
        settings.codex.run_reading(),
        Root::new(args.root.root.as_deref()),
    )
    .filtered(jq);
    let (mut files, mut failed) = (0usize, false);
    let mut threads = std::collections::HashSet::new();
    let opts = Options {
        codex: settings.codex,
        lineages: Some(crate::replay::Lineages::default()),
        ..Options::default()
    };
    cx.each_replay(&opts, &checker, &mut diag, |_, diag, c| {
        let path = c.replay.facts.source.display();
        files += 1;
        threads.extend(homes::thread_of(&c.replay.facts.source));
        let overridden = !lint.severity.is_empty();
        for f in &c.findings {
            let f = if overridden {
                lint.severity.apply(f)
            } else {
                std::borrow::Cow::Borrowed(f)
            };
            failed |= f.severity >= fail_on;
            // A line holding a secret is not shown: its start may be the secret.
            let excerpt = match (style, f.span) {
                (Style::Human, Some(s)) if f.rule != rules::content::secret::RULE => {
                    let pos = crate::decode::Pos {
                        line: s.start_line,
                        offset: s.line_offset,
                    };
                    c.replay.excerpt(pos, 200)
                }
                _ => None,
            };
            let shown = Shown {
                path: &path,
                finding: &f,
                excerpt: excerpt.as_deref(),
                label: "",
                codex: c.replay.reading,
            };
            diag.write(&shown)?;
        }
        Ok(())
    })?;
    let home = state.codex_home.as_deref();
    let scope = Scope::of(&args.input.paths, home, cx.codex_home(), threads);
    let codex = settings.codex.run_reading();
    failed |= write_home_findings(&checker, &scope, codex, &mut diag, fail_on)?;
    let (errors, warnings, infos) = diag.counts();
    diag.problems(&cx.problems);
    diag.finish()?;
    // No rollout to lint is said as every reader says it (the per-line notes are off, not
    // this one): in NDJSON or SARIF a gate given a path that holds none passed in silence
    // (`tests/cli/hostile/files.rs`, `a_directory_named_like_a_rollout_is_walked_never_…`).
    cx.diag = Diag::new(args.input.quiet, cx.color);
    cx.say_if_empty(files as u64, "rollouts");
    if matches!(args.format, LintFormatArg::Human | LintFormatArg::Concise) && files > 0 {
        cx.diag.summary(&diagnostics::total(
            errors,
            warnings,
            infos,
            files,
            &super::read_as(settings.codex),
        ));
    }
    if failed {
        cx.status = cx.status.merge(ExitStatus::Findings);
    }
    Ok(cx.status)
}

/// Write the findings about the databases of the homes the run read (after every file's);
/// whether one reaches `fail_on`.
fn write_home_findings(
    checker: &Checker,
    scope: &Scope,
    codex: crate::codex::Reading,
    diag: &mut Diagnostics,
    fail_on: Severity,
) -> std::io::Result<bool> {
    let mut failed = false;
    for f in homes::findings(checker, scope, codex) {
        failed |= f.severity >= fail_on;
        let path = f.file.display();
        diag.write(&Shown {
            path: &path,
            finding: &f,
            excerpt: None,
            label: "",
            codex,
        })?;
    }
    Ok(failed)
}

fn list_rules(args: &LintArgs, jq: Option<&Jq>) -> Result<ExitStatus, Error> {
    let color = args.color.into();
    // The severities of the version files are read as (the newest for `--codex file`).
    let codex = super::settings(&args.settings)?.codex.run_reading();
    let severity = |r: Rule| rules::severity_under(r, &codex);
    let all: &[Rule] = rules::all();
    // The rules as code scanning takes them: a log whose driver describes every rule.
    if args.format == LintFormatArg::Sarif {
        Log::new(all.to_vec(), codex, Root::new(args.root.root.as_deref()))
            .filtered(jq, color)
            .finish()?;
        return Ok(ExitStatus::Clean);
    }
    if matches!(args.format, LintFormatArg::Json | LintFormatArg::Ndjson) {
        let rows: Vec<RuleRow> = all
            .iter()
            .map(|&r| RuleRow {
                slug: r.slug(),
                group: r.group(),
                severity: severity(r),
                summary: r.summary(),
                fix: r.fixes().when,
                applicabilities: r.fixes().applicabilities,
            })
            .collect();
        // An array (`json`), or one rule a line (`ndjson`).
        let format = if args.format == LintFormatArg::Json {
            Format::Json
        } else {
            Format::Ndjson
        };
        let mut out = Out::new(format, color, Vec::new()).filtered(jq);
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
    for &r in all {
        out.row(&(), || {
            vec![
                Cell::text(r.slug()),
                Cell::text(r.group()),
                Cell::text(severity(r).as_str()).tone(diagnostics::tone(severity(r))),
                Cell::text(r.summary()),
            ]
        })?;
    }
    out.finish()?;
    Ok(ExitStatus::Clean)
}
