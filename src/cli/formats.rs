//! The `--format` and `--color` values of the command line: which formats each command
//! takes, what each prints (rows, lines, findings in a style), and which print JSON for
//! `--jq`.

use clap::ValueEnum;

use crate::output::diagnostics::Style;
use crate::output::{ColorWhen, Format};

/// A `--format` value set: [`FormatArg`] for the commands that print tables and rows,
/// [`FindingFormatArg`] for those that report findings.
pub trait FormatValue: JsonFormats + Send + Sync + Default + Into<Format> + 'static {}

/// A `--format` value set, as `--jq` sees it: which values print JSON to filter.
pub trait JsonFormats: ValueEnum + Copy + std::fmt::Display {
    /// Does this format print JSON (rows, one array, a SARIF log)? Told by its name, the
    /// same for every command.
    fn is_json(self) -> bool {
        matches!(self.to_string().as_str(), "ndjson" | "json" | "sarif")
    }

    /// The values that do, as `--format` takes them: `ndjson, json or sarif`.
    fn json_values() -> String {
        let names: Vec<String> = Self::value_variants()
            .iter()
            .filter(|v| v.is_json())
            .map(ToString::to_string)
            .collect();
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum FormatArg {
    #[default]
    Table,
    Ndjson,
    Json,
}

impl FormatValue for FormatArg {}

impl JsonFormats for FormatArg {}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Table => Format::Table,
            FormatArg::Ndjson => Format::Ndjson,
            FormatArg::Json => Format::Json,
        }
    }
}

/// `replay --format`: the views' tables (`table`; the state view's lines) and rows, and the
/// findings' formats `lint` has (for `--view state`). `check-ordinal`, which prints no
/// table, has its own values ([`CheckFormatArg`]), with help of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum FindingFormatArg {
    /// The history and ui views: a table. The state view: a line per finding and per file
    #[default]
    Table,
    /// One JSON row per line
    Ndjson,
    /// One JSON array of the rows
    Json,
    /// The history and ui views: a transcript to read and share, turn by turn
    Markdown,
    /// The state view: rustc-style diagnostics, each with the start of its line
    Human,
    /// The state view: one line per finding
    Concise,
    /// The state view: GitHub workflow annotations
    Github,
    /// The state view: one SARIF 2.1.0 log, for code scanning
    Sarif,
}

/// `check-ordinal --format`: its own lines (`text`), rows, and the findings' formats `lint`
/// has. (`table`, the default's old name, is taken still: it never printed a table.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum CheckFormatArg {
    /// A line per problem and per file, then the run's total
    #[default]
    #[value(alias = "table")]
    Text,
    /// One JSON row per file
    Ndjson,
    /// One JSON array of the rows
    Json,
    /// rustc-style diagnostics, each with the start of its line
    Human,
    /// One line per finding
    Concise,
    /// GitHub workflow annotations
    Github,
    /// One SARIF 2.1.0 log, for code scanning
    Sarif,
}

impl FormatValue for CheckFormatArg {}

impl JsonFormats for CheckFormatArg {}

impl From<CheckFormatArg> for Format {
    /// Rows for `ndjson` and `json`; lines of text otherwise.
    fn from(f: CheckFormatArg) -> Format {
        match f {
            CheckFormatArg::Ndjson => Format::Ndjson,
            CheckFormatArg::Json => Format::Json,
            _ => Format::Table,
        }
    }
}

impl CheckFormatArg {
    /// How its findings are written (`text`: labelled lines); `None` for its rows.
    pub fn style(self) -> Option<Style> {
        Some(match self {
            CheckFormatArg::Text => Style::Labelled,
            CheckFormatArg::Human => Style::Human,
            CheckFormatArg::Concise => Style::Concise,
            CheckFormatArg::Github => Style::Github,
            CheckFormatArg::Sarif => Style::Sarif,
            CheckFormatArg::Ndjson | CheckFormatArg::Json => return None,
        })
    }
}

impl FormatValue for FindingFormatArg {}

impl JsonFormats for FindingFormatArg {}

impl From<FindingFormatArg> for Format {
    /// Rows for `ndjson` and `json`; lines of text otherwise.
    fn from(f: FindingFormatArg) -> Format {
        match f {
            FindingFormatArg::Ndjson => Format::Ndjson,
            FindingFormatArg::Json => Format::Json,
            _ => Format::Table,
        }
    }
}

impl FindingFormatArg {
    /// How its findings are written, given the style of the command's own lines (`table`);
    /// `None` for the command's own rows.
    pub fn style(self, table: Style) -> Option<Style> {
        Some(match self {
            FindingFormatArg::Table => table,
            FindingFormatArg::Human => Style::Human,
            FindingFormatArg::Concise => Style::Concise,
            FindingFormatArg::Github => Style::Github,
            FindingFormatArg::Sarif => Style::Sarif,
            FindingFormatArg::Ndjson | FindingFormatArg::Json | FindingFormatArg::Markdown => {
                return None
            }
        })
    }
}

/// A value's name as `--format` takes it (clap shows the default this way).
macro_rules! display_as_value {
    ($($t:ty),+) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let v = self.to_possible_value();
                f.write_str(v.as_ref().map_or("", |v| v.get_name()))
            }
        }
    )+};
}

display_as_value!(
    FormatArg,
    FindingFormatArg,
    CheckFormatArg,
    LintFormatArg,
    RepairFormatArg
);

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

impl From<ColorArg> for ColorWhen {
    fn from(c: ColorArg) -> ColorWhen {
        match c {
            ColorArg::Auto => ColorWhen::Auto,
            ColorArg::Always => ColorWhen::Always,
            ColorArg::Never => ColorWhen::Never,
        }
    }
}

/// `repair --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RepairFormatArg {
    Human,
    Ndjson,
    Json,
}

impl JsonFormats for RepairFormatArg {}

/// `lint --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormatArg {
    Human,
    Concise,
    Ndjson,
    Json,
    Github,
    Sarif,
}

impl JsonFormats for LintFormatArg {}

impl LintFormatArg {
    /// How its findings are written.
    pub fn style(self) -> Style {
        match self {
            LintFormatArg::Human => Style::Human,
            LintFormatArg::Concise => Style::Concise,
            LintFormatArg::Ndjson => Style::Rows(Format::Ndjson),
            LintFormatArg::Json => Style::Rows(Format::Json),
            LintFormatArg::Github => Style::Github,
            LintFormatArg::Sarif => Style::Sarif,
        }
    }
}
