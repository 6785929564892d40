//! The config file: `rollscope.toml` or `.rollscope.toml`, found from a directory upwards
//! (the first directory that has one wins, as ruff finds its config), and its `[lint]` and
//! `[codex]` tables checked into data. It knows nothing of the command line or of output: it returns the
//! settings, or a [`ConfigError`] naming the file and the line at fault. The keys are in
//! `docs/lint.md`.

use std::collections::BTreeMap;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::codex::{BadVersion, Spec, VersionSource};
use crate::findings::Severity;
use crate::rules::select::{self, Overrides, UnknownRule};

/// The names a config file may have, in a directory.
pub const NAMES: [&str; 2] = ["rollscope.toml", ".rollscope.toml"];

/// A config file's settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    pub lint: Lint,
    /// `[codex] version`: the Codex version files are read as (`file`: each file's own).
    pub codex: Option<Spec>,
}

/// `[lint]`: each key unset when absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lint {
    pub select: Option<Vec<String>>,
    pub ignore: Option<Vec<String>>,
    pub fail_on: Option<Severity>,
    /// `[lint.severity]`.
    pub severity: Overrides,
}

/// Why a config file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{} and {}: two config files in one directory (keep one)", .0.display(), .1.display())]
    Both(PathBuf, PathBuf),
    #[error("{}: cannot read the config file: {cause}", path.display())]
    Unreadable { path: PathBuf, cause: io::Error },
    #[error("{}:{line}: {problem}", path.display())]
    At {
        path: PathBuf,
        line: usize,
        problem: Problem,
    },
}

/// What is wrong at a line of a config file.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    /// Not TOML, an unknown key, a value of the wrong type (the TOML reader's words).
    #[error("{0}")]
    Toml(String),
    #[error("{0}")]
    UnknownRule(UnknownRule),
    #[error("unknown severity `{0}` (error, warning or info)")]
    UnknownSeverity(String),
    /// `ordinal.gap = …` unquoted: a table `ordinal` holding `gap`.
    #[error("`{0}` is a table: quote a rule's slug (`\"{0}.…\" = \"error\"`)")]
    DottedKey(String),
    #[error("`{0}`: expected a severity (a string)")]
    NotSeverity(String),
    #[error("[codex] version: {0}")]
    BadVersion(BadVersion),
}

/// The config file that applies in `dir`: the one in `dir` or in the nearest of its parents
/// that has one; none when no directory up to the root has one.
pub fn find(dir: &Path) -> Result<Option<PathBuf>, ConfigError> {
    for d in dir.ancestors() {
        let [a, b] = NAMES.map(|n| d.join(n));
        match (a.is_file(), b.is_file()) {
            (true, true) => return Err(ConfigError::Both(a, b)),
            (true, false) => return Ok(Some(a)),
            (false, true) => return Ok(Some(b)),
            (false, false) => {}
        }
    }
    Ok(None)
}

/// Read and check the config file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|cause| ConfigError::Unreadable {
        path: path.to_path_buf(),
        cause,
    })?;
    parse(path, &text)
}

/// Check `text`, the contents of the config file at `path` (named in errors).
pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
    let at = |span: Option<Range<usize>>, problem: Problem| ConfigError::At {
        path: path.to_path_buf(),
        line: span.map_or(1, |s| line_of(text, s.start)),
        problem,
    };
    let file: File = toml::from_str(text).map_err(|e| {
        let message = e.message().trim_end().replace('\n', "; ");
        at(e.span(), Problem::Toml(message))
    })?;
    let codex = match file.codex.and_then(|c| c.version) {
        Some(v) => Some(
            Spec::parse(v.get_ref(), VersionSource::Config)
                .map_err(|e| at(Some(v.span()), Problem::BadVersion(e)))?,
        ),
        None => None,
    };
    let Some(lint) = file.lint else {
        return Ok(Config {
            codex,
            ..Config::default()
        });
    };
    let names = |list: Option<Vec<Spanned<String>>>| -> Result<_, ConfigError> {
        let Some(list) = list else { return Ok(None) };
        for name in &list {
            select::named(name.get_ref().trim())
                .map_err(|e| at(Some(name.span()), Problem::UnknownRule(e)))?;
        }
        Ok(Some(list.into_iter().map(Spanned::into_inner).collect()))
    };
    let select = names(lint.select)?;
    let ignore = names(lint.ignore)?;
    let fail_on = match lint.fail_on {
        Some(s) => Some(
            severity(s.get_ref())
                .ok_or_else(|| at(Some(s.span()), Problem::UnknownSeverity(s.into_inner())))?,
        ),
        None => None,
    };
    let mut overrides = Overrides::default();
    for (name, value) in lint.severity.unwrap_or_default() {
        let sev = match value.get_ref() {
            toml::Value::String(v) => severity(v)
                .ok_or_else(|| at(Some(value.span()), Problem::UnknownSeverity(v.clone())))?,
            toml::Value::Table(_) => {
                let problem = Problem::DottedKey(name.get_ref().clone());
                return Err(at(Some(name.span()), problem));
            }
            _ => {
                let problem = Problem::NotSeverity(name.get_ref().clone());
                return Err(at(Some(value.span()), problem));
            }
        };
        overrides
            .set(name.get_ref(), sev)
            .map_err(|e| at(Some(name.span()), Problem::UnknownRule(e)))?;
    }
    Ok(Config {
        lint: Lint {
            select,
            ignore,
            fail_on,
            severity: overrides,
        },
        codex,
    })
}

/// A severity's name in the file.
fn severity(s: &str) -> Option<Severity> {
    [Severity::Error, Severity::Warning, Severity::Info]
        .into_iter()
        .find(|v| v.as_str() == s)
}

/// The 1-based line of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()
        .iter()
        .take(offset)
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The file as written: every table and key it may hold, nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    lint: Option<LintTable>,
    codex: Option<CodexTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CodexTable {
    version: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct LintTable {
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    fail_on: Option<Spanned<String>>,
    severity: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Config, String> {
        parse(Path::new("r.toml"), text).map_err(|e| e.to_string())
    }

    #[test]
    fn every_key_is_read_and_checked() {
        let c = parsed(
            "[lint]\nselect = [\"ordinal\", \"pair.duplicate\"]\nignore = [\"tokens.none\"]\n\
             fail-on = \"warning\"\n[lint.severity]\n\"ordinal.gap\" = \"error\"\n\
             \"policy\" = \"info\"\n",
        )
        .unwrap();
        let lint = c.lint;
        assert_eq!(lint.select.unwrap(), ["ordinal", "pair.duplicate"]);
        assert_eq!(lint.ignore.unwrap(), ["tokens.none"]);
        assert_eq!(lint.fail_on, Some(Severity::Warning));
        assert_eq!(
            lint.severity.get(crate::rules::ordinal::gap::RULE),
            Some(Severity::Error)
        );
        assert_eq!(
            lint.severity
                .get(crate::rules::policy::transient_event::RULE),
            Some(Severity::Info)
        );
        assert_eq!(parsed("").unwrap(), Config::default());
        let c = parsed("[codex]\nversion = \"0.153.4\"\n").unwrap();
        assert_eq!(
            c.codex,
            Some(Spec::parse("0.153.4", VersionSource::Config).unwrap())
        );
        assert_eq!(
            parsed("[codex]\nversion = \"file\"\n").unwrap().codex,
            Some(Spec::File)
        );
    }

    #[test]
    fn each_error_names_the_file_and_line() {
        let cases = [
            ("[lint]\nselct = []\n", "r.toml:2: unknown field `selct`"),
            (
                "[lint]\n\nfail-on = 3\n",
                "r.toml:3: invalid type: integer `3`",
            ),
            (
                "[lint]\nselect = [\"ordinal.gapp\"]\n",
                "r.toml:2: unknown rule or group `ordinal.gapp`; did you mean `ordinal.gap`?",
            ),
            (
                "[lint]\nfail-on = \"fatal\"\n",
                "r.toml:2: unknown severity `fatal`",
            ),
            (
                "[lint.severity]\n\"file\" = \"warning\"\n\"zzz\" = \"info\"\n",
                "r.toml:3: unknown rule or group `zzz`",
            ),
            (
                "[lint.severity]\nordinal.gap = \"error\"\n",
                "r.toml:2: `ordinal` is a table",
            ),
            (
                "[lint.severity]\n\"file\" = 1\n",
                "r.toml:2: `file`: expected a severity",
            ),
            ("[format]\n", "r.toml:1: unknown field `format`"),
            (
                "[codex]\n\nversion = \"latest\"\n",
                "r.toml:3: [codex] version: `latest` is not a Codex version",
            ),
            (
                "[codex]\nversoin = \"0.1\"\n",
                "r.toml:2: unknown field `versoin`",
            ),
            ("[lint\n", "r.toml:1: "),
        ];
        for (text, want) in cases {
            let e = parsed(text).unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn the_nearest_directory_with_a_config_wins_and_two_in_one_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let sub = tmp.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        let top = tmp.path().join(".rollscope.toml");
        std::fs::write(&top, "").unwrap();
        assert_eq!(find(&sub).unwrap(), Some(top.clone()));
        let near = tmp.path().join("a/rollscope.toml");
        std::fs::write(&near, "").unwrap();
        assert_eq!(find(&sub).unwrap(), Some(near));
        std::fs::write(tmp.path().join("a/.rollscope.toml"), "").unwrap();
        let e = find(&sub).unwrap_err().to_string();
        assert!(
            e.contains("a/rollscope.toml and ") && e.contains("a/.rollscope.toml: two"),
            "{e}"
        );
    }
}
