//! Codex's reading of a rollout, version by version: the table of what each Codex version
//! does with what rollscope models ([`table`], rendered to `docs/codex-versions.md`), the
//! version a run reads files as ([`Spec`]: the newest row by default, a named version, or
//! each file's own `cli_version`), and a [`Reading`]: one version's answers.
//!
//! The analyses, the replay and the rules ask a [`Reading`] what Codex does ("does this
//! version follow a paginated fork's source?"); no code below compares versions itself.

pub mod image;
pub mod shape;
pub mod table;
mod version;

use std::fmt;

pub use table::{Answer, Behaviour, Evidence, Row};
pub use version::{BadVersion, Version};

/// The newest Codex version the table rests on: the default reading.
pub const NEWEST: Version = Version::new(0, 171, 0);

/// Where the version a file is read as comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VersionSource {
    /// Nothing named one: the newest the table knows (people resume old files with a
    /// current Codex).
    Default,
    /// `--codex VERSION`.
    Flag,
    /// `rollscope.toml`'s `[codex] version`.
    Config,
    /// `--codex file`: the file's own `session_meta.cli_version`.
    File,
    /// `--codex file`, and the file names no version that parses: the default.
    FileWithout,
}

impl VersionSource {
    /// Its name in every format (`codex_version_source`).
    pub fn as_str(self) -> &'static str {
        match self {
            VersionSource::Default => "default",
            VersionSource::Flag => "flag",
            VersionSource::Config => "config",
            VersionSource::File => "file",
            VersionSource::FileWithout => "default_no_cli_version",
        }
    }

    /// In words, for people.
    pub fn words(self) -> &'static str {
        match self {
            VersionSource::Default => "the newest rollscope knows",
            VersionSource::Flag => "named by --codex",
            VersionSource::Config => "named by the config file",
            VersionSource::File => "the file's cli_version",
            VersionSource::FileWithout => "the newest rollscope knows; the file names none",
        }
    }
}

/// Which version a run reads its files as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spec {
    /// One version for every file, and where it was named.
    Version(Version, VersionSource),
    /// Each file's own `cli_version` (`--codex file`).
    File,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec::Version(NEWEST, VersionSource::Default)
    }
}

impl Spec {
    /// `file`, or a version (`0.171.0`, `0.153`); `source` says where it was named.
    pub fn parse(s: &str, source: VersionSource) -> Result<Spec, BadVersion> {
        if s.trim().eq_ignore_ascii_case("file") {
            return Ok(Spec::File);
        }
        if s.trim().eq_ignore_ascii_case("newest") {
            return Ok(Spec::Version(NEWEST, source));
        }
        Ok(Spec::Version(s.parse()?, source))
    }

    /// The reading of a file whose `session_meta.cli_version` is `cli_version`.
    pub fn reading(self, cli_version: Option<&str>) -> Reading {
        match self {
            Spec::Version(version, source) => Reading { version, source },
            Spec::File => match cli_version.and_then(|v| v.parse::<Version>().ok()) {
                Some(version) => Reading {
                    version,
                    source: VersionSource::File,
                },
                None => Reading {
                    version: NEWEST,
                    source: VersionSource::FileWithout,
                },
            },
        }
    }

    /// The run's reading, for what is said once for every file (the severities the rules
    /// are listed at, SARIF's run): the version named, or with `--codex file` the newest,
    /// its source `file` (each file says its own).
    pub fn run_reading(self) -> Reading {
        match self {
            Spec::Version(..) => self.reading(None),
            Spec::File => Reading {
                version: NEWEST,
                source: VersionSource::File,
            },
        }
    }

    /// Whether the reading depends on the file (its `cli_version`).
    pub fn per_file(self) -> bool {
        self == Spec::File
    }
}

/// One version's reading: what the table's rows for it answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reading {
    pub version: Version,
    pub source: VersionSource,
}

impl Default for Reading {
    fn default() -> Reading {
        Spec::default().reading(None)
    }
}

impl Reading {
    /// A reading of `version`, named on the command line.
    pub fn of(version: Version) -> Reading {
        Reading {
            version,
            source: VersionSource::Flag,
        }
    }

    /// What this version does about `b`: its row's answer.
    pub fn answer(&self, b: Behaviour) -> Answer {
        table::row(b, self.version).answer
    }

    /// Whether this version does `a` about `b`.
    pub fn does(&self, b: Behaviour, a: Answer) -> bool {
        self.answer(b) == a
    }

    /// The row that answers for this version about `b`.
    pub fn row(&self, b: Behaviour) -> &'static Row {
        table::row(b, self.version)
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Codex {} ({})", self.version, self.source.words())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_reads_a_version_or_each_files_own() {
        let v = |s: &str| s.parse::<Version>().unwrap();
        assert_eq!(
            Spec::parse("0.150", VersionSource::Flag).unwrap(),
            Spec::Version(v("0.150.0"), VersionSource::Flag)
        );
        assert!(Spec::parse("banana", VersionSource::Flag).is_err());
        let file = Spec::parse("FILE", VersionSource::Flag).unwrap();
        assert_eq!(file.reading(Some("0.128.0")).version, v("0.128.0"));
        assert_eq!(file.reading(Some("0.128.0")).source, VersionSource::File);
        assert_eq!(file.reading(Some("weird")).version, NEWEST);
        assert_eq!(file.reading(None).source, VersionSource::FileWithout);
        assert_eq!(Reading::default().version, NEWEST);
        assert_eq!(Reading::default().source, VersionSource::Default);
    }
}
