//! Findings as people and tools read them: the one renderer family of every command that
//! reports findings (`lint`, `check-ordinal`, `replay --view state`), chosen once from the
//! format. Rustc-style diagnostics (`human`), one line each (`concise`), GitHub workflow
//! annotations, one SARIF log, `lint`'s rows, and the two line styles `check-ordinal` and the
//! state view print by default. Every text from a rollout is cleaned for the terminal first;
//! rows stay exact.

use std::io;
use std::sync::OnceLock;

use owo_colors::OwoColorize;
use serde::Serialize;

use super::jq::Jq;
use super::root::Root;
use super::rules::doc_markdown;
use super::sanitize::{clean, cut};
use super::sarif::Log;
use super::table::Tone;
use super::{fit, glyphs, prose, table};
use super::{Cell, ColorWhen, FileRows, Format, Out};
use crate::codex::Reading;
use crate::findings::{Effect, Finding, Rule, Severity};
use crate::input::InputError;
use crate::rules::SECTIONS;

/// How findings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// rustc-style: `severity[rule]: message`, `--> path:line:col`, the line's start,
    /// `= help:`.
    Human,
    /// `path:line:col: severity[rule] message`.
    Concise,
    /// `::error file=…,line=…,title=RULE::MESSAGE`.
    Github,
    /// One SARIF 2.1.0 log, written when the run ends.
    Sarif,
    /// One row a finding (`lint`'s rows, `docs/lint.md`), NDJSON or one JSON array.
    Rows(Format),
    /// `path:line: label: message`: `check-ordinal`'s lines, each finding labelled with its
    /// kind.
    Labelled,
    /// `path:line: severity[rule]: message`: the state view's lines.
    Listed,
}

impl Style {
    /// Whether a command's own lines (its summaries) go with the findings: in the formats
    /// people read, not in those tools read.
    pub fn for_people(self) -> bool {
        !matches!(self, Style::Github | Style::Sarif | Style::Rows(_))
    }
}

/// A finding and how it is shown.
pub struct Shown<'a> {
    pub path: &'a str,
    pub finding: &'a Finding,
    /// The start of the line it points at, when it can be read.
    pub excerpt: Option<&'a str>,
    /// Its label in the [`Style::Labelled`] lines.
    pub label: &'a str,
    /// The Codex version the file was read as.
    pub codex: Reading,
}

/// One finding row (`lint --format ndjson|json`; schema in `docs/lint.md`).
#[derive(Serialize)]
struct Row<'a> {
    path: &'a str,
    line: Option<u64>,
    column: Option<u64>,
    byte_offset: Option<u64>,
    rule: Rule,
    severity: Severity,
    message: &'a str,
    help: &'a str,
    /// What the defect does on resume (`None`: a rule whose severity is its own).
    effect: Option<Effect>,
    codex_version: String,
    codex_version_source: &'static str,
}

/// Writes findings in one style, and counts them by severity.
pub struct Diagnostics {
    style: Style,
    sink: Sink,
    counts: [usize; 3],
    /// What the paths of annotations and of a SARIF log are relative to.
    root: Root,
    /// The terminal's width, which `human` diagnostics fit; `None` in a pipe, where they
    /// are whole.
    width: Option<usize>,
    /// What `--jq` says its errors in.
    color: ColorWhen,
}

enum Sink {
    Out(Out),
    Sarif(Log),
}

impl Diagnostics {
    /// Findings in `style`; a SARIF log describes `rules` (the rules the run reports).
    /// `codex`: the run's reading, whose severities SARIF's rules show by default; `root`:
    /// what the paths of annotations and of a SARIF log are relative to.
    pub fn new(
        style: Style,
        color: ColorWhen,
        rules: Vec<Rule>,
        codex: Reading,
        root: Root,
    ) -> Diagnostics {
        let sink = match style {
            Style::Sarif => Sink::Sarif(Log::new(rules, codex, root.clone())),
            Style::Rows(format) => Sink::Out(Out::lines(format, color)),
            _ => Sink::Out(Out::lines(Format::Table, color)),
        };
        let width = match style {
            Style::Human => table::stdout_width(),
            _ => None,
        };
        Diagnostics {
            style,
            sink,
            counts: [0; 3],
            root,
            width,
            color,
        }
    }

    /// Its JSON (rows, a SARIF log) through `jq` when one is given (`--jq`); the other
    /// styles print no JSON, and are left as they are.
    pub fn filtered(mut self, jq: Option<&Jq>) -> Diagnostics {
        self.sink = match self.sink {
            Sink::Out(out) => Sink::Out(out.filtered(jq)),
            Sink::Sarif(log) => Sink::Sarif(log.filtered(jq, self.color)),
        };
        self
    }

    /// The inputs that could not be read: a SARIF log lists them as its run's
    /// notifications (the other styles said them on stderr as they came).
    pub fn problems(&mut self, problems: &[InputError]) {
        if let Sink::Sarif(log) = &mut self.sink {
            log.problems(problems);
        }
    }

    pub fn style(&self) -> Style {
        self.style
    }

    /// Write one finding.
    pub fn write(&mut self, s: &Shown<'_>) -> io::Result<()> {
        let f = s.finding;
        if let Some(n) = self.counts.get_mut(f.severity as usize) {
            *n += 1;
        }
        let out = match &mut self.sink {
            Sink::Sarif(log) => {
                log.push(f, &s.codex);
                return Ok(());
            }
            Sink::Out(out) => out,
        };
        let help = help(f.rule);
        let row = Row {
            path: s.path,
            line: f.span.map(|s| s.start_line),
            column: f.span.map(|s| s.start_column),
            byte_offset: f.line_offset(),
            rule: f.rule,
            severity: f.severity,
            message: &f.message,
            help,
            effect: f.effect,
            codex_version: s.codex.version.to_string(),
            codex_version_source: s.codex.source.as_str(),
        };
        let style = self.style;
        let root = &self.root;
        let width = self.width;
        out.row(&row, || match style {
            Style::Human => match width {
                Some(w) => human_at(s, w),
                None => human(s),
            },
            Style::Github => vec![Cell::text(&github(s, root))],
            Style::Labelled => vec![labelled(s)],
            Style::Listed => vec![listed(s)],
            _ => vec![concise(s)],
        })
    }

    /// A command's own lines (a summary), where people read the findings.
    /// At a terminal, a human diagnostic's are wrapped at words to its width, as the
    /// findings are.
    pub fn note(&mut self, lines: impl FnOnce() -> Vec<Cell>) -> io::Result<()> {
        let width = self.width;
        let lines = || match width {
            Some(w) => lines().into_iter().flat_map(|c| c.wrapped(w)).collect(),
            None => lines(),
        };
        match &mut self.sink {
            Sink::Out(out) if self.style.for_people() => out.row(&(), lines),
            _ => Ok(()),
        }
    }

    /// The findings written so far: errors, warnings, infos.
    pub fn counts(&self) -> (usize, usize, usize) {
        let [infos, warnings, errors] = self.counts;
        (errors, warnings, infos)
    }

    /// Flush everything (the SARIF log is written here).
    pub fn finish(self) -> io::Result<()> {
        match self.sink {
            Sink::Out(out) => out.finish(),
            Sink::Sarif(log) => log.finish(),
        }
    }
}

impl FileRows for Diagnostics {
    /// A SARIF log is written whole at the end; the other styles' rows go out now.
    fn end_file(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Out(out) => out.end_file(),
            Sink::Sarif(_) => Ok(()),
        }
    }
}

/// Where a command that has both writes: its own rows, or its findings in a style with its
/// summary lines (`check-ordinal`, `replay --view state`).
pub enum Report {
    Rows(Out),
    /// Boxed: a SARIF log's state is several times a sink of rows.
    Findings(Box<Diagnostics>),
}

impl Report {
    /// Flush everything.
    pub fn finish(self) -> io::Result<()> {
        match self {
            Report::Rows(out) => out.finish(),
            Report::Findings(diag) => diag.finish(),
        }
    }
}

impl FileRows for Report {
    fn end_file(&mut self) -> io::Result<()> {
        match self {
            Report::Rows(out) => out.end_file(),
            Report::Findings(diag) => diag.end_file(),
        }
    }
}

/// How a severity is emphasised.
pub fn tone(s: Severity) -> Tone {
    match s {
        Severity::Error => Tone::Bad,
        Severity::Warning => Tone::Warn,
        Severity::Info => Tone::Plain,
    }
}

/// The rule's fix, one paragraph: the `**Fix.**` section of its documentation (made once
/// per rule: a tree can have tens of thousands of findings).
pub fn help(rule: Rule) -> &'static str {
    static HELP: OnceLock<Vec<String>> = OnceLock::new();
    let all = HELP.get_or_init(|| {
        crate::rules::all()
            .iter()
            .map(|&r| {
                let doc = doc_markdown(r);
                let text = doc.split_once(SECTIONS[3]).map_or("", |(_, f)| f);
                text.split("\n\n")
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    });
    all.get(crate::rules::index(rule))
        .map_or("", String::as_str)
}

/// `path:line:col` (`path` for a finding about the whole file).
fn location(s: &Shown<'_>) -> String {
    match s.finding.span {
        Some(span) => format!(
            "{}:{}:{}",
            clean(s.path),
            span.start_line,
            span.start_column
        ),
        None => clean(s.path).into_owned(),
    }
}

/// rustc-style: `severity[rule]: message`, `--> path:line:col`, the line's start, `= help:`.
fn human(s: &Shown<'_>) -> Vec<Cell> {
    let f = s.finding;
    let head = format!("{}[{}]: {}", f.severity.as_str(), f.rule.slug(), f.message);
    let mut lines = vec![Cell::text(&head).tone(tone(f.severity))];
    lines.push(Cell::text(&format!("  --> {}", location(s))));
    if let (Some(span), Some(ex)) = (f.span, s.excerpt) {
        let n = span.start_line.to_string();
        let pad = " ".repeat(n.len());
        lines.push(Cell::text(&format!("{pad} |")));
        lines.push(Cell::text(&format!("{n} | {}", cut(ex, 100))));
        lines.push(Cell::text(&format!("{pad} |")));
    }
    lines.push(Cell::text(&format!("  = help: {}", help(f.rule))));
    lines.push(Cell::text(""));
    lines
}

/// [`human`] at a terminal `width` columns wide: the message and the help wrapped at words,
/// their continuation lines under their text (rustc's hanging indent); the quoted line cut
/// to fit, and a path too long for its line cut in its middle, the cuts marked.
fn human_at(s: &Shown<'_>, width: usize) -> Vec<Cell> {
    let f = s.finding;
    let ellipsis = glyphs::ellipsis(glyphs::unicode());
    let tone = tone(f.severity);
    let head = format!("{}[{}]: ", f.severity.as_str(), f.rule.slug());
    let message = clean(&f.message);
    let mut lines: Vec<Cell> = prose::wrap(&head, &message, fit::width(&head), width)
        .iter()
        .map(|l| Cell::text(l).tone(tone))
        .collect();
    let arrow = "  --> ";
    let path = clean(s.path);
    let at = f
        .span
        .map(|span| format!(":{}:{}", span.start_line, span.start_column))
        .unwrap_or_default();
    let room = width.saturating_sub(fit::width(arrow) + fit::width(&at));
    let path = fit::cut_middle(&path, room, room / 3, ellipsis);
    lines.push(Cell::text(&format!("{arrow}{path}{at}")));
    if let (Some(span), Some(ex)) = (f.span, s.excerpt) {
        let n = span.start_line.to_string();
        let pad = " ".repeat(n.len());
        let ex = clean(ex);
        let room = width.saturating_sub(n.len() + 3).min(100);
        lines.push(Cell::text(&format!("{pad} |")));
        lines.push(Cell::text(&format!(
            "{n} | {}",
            fit::cut_end(ex.trim(), room, ellipsis)
        )));
        lines.push(Cell::text(&format!("{pad} |")));
    }
    let help_at = "  = help: ";
    lines.extend(
        prose::wrap(help_at, help(f.rule), help_at.len(), width)
            .iter()
            .map(|l| Cell::text(l)),
    );
    lines.push(Cell::text(""));
    lines
}

/// `path:line:col: severity[rule] message` (`path: ...` for the whole file).
fn concise(s: &Shown<'_>) -> Cell {
    let f = s.finding;
    let text = format!(
        "{}: {}[{}] {}",
        location(s),
        f.severity.as_str(),
        f.rule.slug(),
        f.message
    );
    Cell::text(&text).tone(tone(f.severity))
}

/// `path:line: label: message` in the finding's tone (`check-ordinal`'s lines; line 0 for a
/// finding about the whole file).
fn labelled(s: &Shown<'_>) -> Cell {
    let f = s.finding;
    Cell::text(&format!(
        "{}:{}: {}: {}",
        s.path,
        f.line(),
        s.label,
        f.message
    ))
    .tone(tone(f.severity))
}

/// `path:line: severity[slug]: message` (`path: ...` for a finding about the whole file).
fn listed(s: &Shown<'_>) -> Cell {
    let f = s.finding;
    let at = f
        .span
        .map(|span| format!(":{}", span.start_line))
        .unwrap_or_default();
    let text = format!(
        "{}{at}: {}[{}]: {}",
        s.path,
        f.severity.as_str(),
        f.rule.slug(),
        f.message
    );
    Cell::text(&text).tone(tone(f.severity))
}

/// GitHub's escaping of a workflow command's message (`%`, CR, LF).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// GitHub's escaping of a workflow command's property values (also `:` and `,`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// `::error file=PATH,line=N,title=RULE::MESSAGE` (`warning`, `notice` for info; `endLine`
/// for a span over several lines; no position for a finding about the whole file). `PATH` is relative
/// to the root (the repository a workflow checked out), else absolute.
fn github(s: &Shown<'_>, root: &Root) -> String {
    let f = s.finding;
    let level = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let path = root.display(&f.file);
    let mut props = vec![format!("file={}", escape_property(&clean(&path)))];
    if let Some(span) = f.span {
        props.push(format!("line={}", span.start_line));
        if span.end_line != span.start_line {
            props.push(format!("endLine={}", span.end_line));
        }
    }
    let title = format!("{} (Codex {})", f.rule.slug(), s.codex.version);
    props.push(format!("title={}", escape_property(&title)));
    let text = format!("{} (help: {})", f.message, help(f.rule));
    format!(
        "::{level} {}::{}",
        props.join(","),
        escape_data(&clean(&text))
    )
}

/// The closing count of a command that reports findings (`lint`, `check-ordinal`):
/// `2 errors, 1 warning in 3 files, read as …`.
/// `read_as`: the Codex version the files were read as, in words.
pub fn total(errors: usize, warnings: usize, infos: usize, files: usize, read_as: &str) -> String {
    let n = |k: usize, what: &str| super::counted(k as u64, what);
    let mut parts = vec![n(errors, "error"), n(warnings, "warning")];
    if infos > 0 {
        parts.push(n(infos, "info"));
    }
    let text = format!("{} in {}, {read_as}", parts.join(", "), n(files, "file"));
    if errors > 0 {
        text.red().to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{Line, Pos};

    #[test]
    fn the_total_counts_in_words() {
        assert_eq!(
            total(0, 1, 0, 1, "read as X"),
            "0 errors, 1 warning in 1 file, read as X"
        );
        assert!(total(2, 0, 1, 3, "r").contains("2 errors, 0 warnings, 1 info in 3 files, r"));
    }
    use crate::findings::Span;
    use crate::input::Source;

    fn finding(rule: Rule, line: Option<u64>) -> Finding {
        let span = line.map(|n| {
            Span::whole(&Line {
                pos: Pos { line: n, offset: 0 },
                len: 4,
                eol: 1,
                chars: Some(4),
            })
        });
        Finding::new(rule, Source::Stdin, span, "m".to_string())
    }

    #[test]
    fn github_annotations_escape_as_github_says() {
        assert_eq!(escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        let root = Root::new(Some(std::path::Path::new("/repo")));
        let mut f = finding(crate::rules::file::bom::RULE, Some(1));
        f.file = Source::File("/repo/./dir,x/a:b.jsonl".into());
        let s = Shown {
            path: "dir,x/a:b.jsonl",
            finding: &f,
            excerpt: None,
            label: "",
            codex: Reading::default(),
        };
        let line = github(&s, &root);
        assert!(
            line.starts_with(
                "::error file=dir%2Cx/a%3Ab.jsonl,line=1,title=file.bom (Codex 0.171.0)::"
            ),
            "{line}"
        );
        // Outside the root: its absolute path.
        let mut whole = finding(crate::rules::meta::missing::RULE, None);
        whole.file = Source::File("/elsewhere/p".into());
        let s = Shown {
            path: "p",
            finding: &whole,
            excerpt: None,
            label: "",
            codex: Reading::default(),
        };
        let line = github(&s, &root);
        assert!(
            line.starts_with("::error file=/elsewhere/p,title=meta.missing (Codex 0.171.0)::"),
            "{line}"
        );
    }

    #[test]
    fn every_rule_has_a_one_paragraph_help() {
        for &r in crate::rules::all() {
            let h = help(r);
            assert!(!h.is_empty() && !h.contains('\n'), "{}: {h}", r.slug());
        }
    }

    /// A cell's text without its color.
    fn plain(c: Cell) -> String {
        let mut out = String::new();
        let mut rest = c.render();
        while let Some(i) = rest.find('\u{1b}') {
            out.push_str(&rest[..i]);
            rest = rest[i..]
                .split_once('m')
                .map_or(String::new(), |(_, r)| r.to_string());
        }
        out + &rest
    }

    #[test]
    fn the_line_styles_locate_a_finding_as_their_commands_always_did() {
        let f = finding(crate::rules::ordinal::gap::RULE, Some(9));
        let s = Shown {
            path: "p",
            finding: &f,
            excerpt: None,
            label: "gap",
            codex: Reading::default(),
        };
        assert_eq!(plain(labelled(&s)), "p:9: gap: m");
        assert_eq!(plain(listed(&s)), "p:9: warning[ordinal.gap]: m");
        assert_eq!(plain(concise(&s)), "p:9:1: warning[ordinal.gap] m");
        let whole = finding(crate::rules::tokens::none::RULE, None);
        let s = Shown {
            path: "p",
            finding: &whole,
            excerpt: None,
            label: "",
            codex: Reading::default(),
        };
        assert_eq!(plain(listed(&s)), "p: info[tokens.none]: m");
        assert_eq!(plain(labelled(&s)), "p:0: : m");
    }
}
