//! Exit codes, a contract: 0 clean, 1 findings, 2 usage or I/O error.

use std::process::ExitCode;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// Nothing to report.
    Clean,
    /// The check found problems (`check-ordinal`, `lint`).
    Findings,
    /// A usage error, or an input that could not be read.
    Error,
}

impl ExitStatus {
    /// Combine two outcomes: an error beats findings, findings beat clean.
    pub fn merge(self, other: ExitStatus) -> ExitStatus {
        self.max(other)
    }

    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Clean => 0,
            ExitStatus::Findings => 1,
            ExitStatus::Error => 2,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(s: ExitStatus) -> ExitCode {
        ExitCode::from(s.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_beat_findings_beat_clean() {
        use ExitStatus::*;
        assert_eq!(Clean.merge(Findings), Findings);
        assert_eq!(Findings.merge(Error), Error);
        assert_eq!(Error.merge(Clean), Error);
        assert_eq!((Clean.code(), Findings.code(), Error.code()), (0, 1, 2));
    }
}
