//! Findings as data: what a rule found wrong with a file, where it is, and how it may be
//! fixed.
//!
//! These are the types every layer may use; nothing here judges a file or words a message.
//! The analyses and the replay establish facts (typed, with no severity and no wording); the
//! rules (`crate::rules`, one unit a rule) turn facts into [`Finding`]s, each worded by its
//! rule, located by a [`Span`] and, where the cure is mechanical, carrying a [`Fix`]; the
//! output layer writes them in every format.

mod effect;
mod fix;
mod rule;
mod span;

use serde::Serialize;

use crate::input::Source;

pub use effect::{ClientView, Effect, Outcome};
pub use fix::{apply, Applicability, Edit, Fix, FixWhen, Fixes, Overlap};
pub use rule::{Rule, RuleInfo};
pub use span::Span;

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A fact worth knowing.
    Info,
    /// Codex copes, but something is wrong or lossy for some consumer.
    Warning,
    /// Codex refuses the file, loses records or history, or a format rule readers rely on
    /// is broken.
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`: its name in every format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    /// What the defect does on resume, under the Codex version the file was read as: the
    /// severity follows it. `None` for a rule about something else (a secret, a file's
    /// size or place), whose severity is its own.
    pub effect: Option<Effect>,
    /// What is wrong and what it does to Codex, in one sentence (the rule's words).
    pub message: String,
    /// The file it is about.
    pub file: Source,
    /// Where in the file; `None` for a finding about the whole file.
    pub span: Option<Span>,
    /// The ordinal (or byte offset, for lineage findings) that should be there.
    pub expected: Option<u64>,
    /// The ordinal (or byte offset) that is there.
    pub found: Option<u64>,
    /// Which of its rule's cases fired, for a rule with several that a reader tells apart
    /// (`duplicate` or `decrease` for `ordinal.non-monotonic`).
    pub case: Option<&'static str>,
    /// Other places that explain it: the earlier record a duplicate repeats, a fork's
    /// source.
    pub related: Vec<Related>,
    /// How to cure it, where the cure is mechanical.
    pub fix: Option<Fix>,
    /// What it is about inside a file that is not a rollout (a database row:
    /// `threads[<id>]`), for SARIF's logical locations.
    pub logical: Option<String>,
    /// The digest of the line its span starts on, when an output fingerprints findings by
    /// what their line holds (SARIF) and the line could be read again.
    pub digest: Option<crate::input::digest::LineDigest>,
}

impl Finding {
    /// A finding of `rule` at its default severity.
    pub fn new(rule: Rule, file: Source, span: Option<Span>, message: String) -> Finding {
        Finding {
            rule,
            severity: rule.default_severity(),
            effect: rule.default_effect(),
            message,
            file,
            span,
            expected: None,
            found: None,
            case: None,
            related: Vec::new(),
            logical: None,
            fix: None,
            digest: None,
        }
    }

    /// This finding, cured by `fix`.
    pub fn fixed(&mut self, fix: Fix) -> &mut Finding {
        self.fix = Some(fix);
        self
    }

    /// This finding, with what its defect does under the version read as (its severity
    /// follows).
    pub fn effect(&mut self, effect: Effect) -> &mut Finding {
        self.effect = Some(effect);
        self.severity = effect.severity();
        self
    }

    /// This finding, with `related` among the places that explain it.
    pub fn related(&mut self, related: Related) -> &mut Finding {
        self.related.push(related);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The line it points at (`0` for a whole-file finding), for sorting.
    pub fn line(&self) -> u64 {
        self.span.map_or(0, |s| s.start_line)
    }

    /// The byte offset of the line it points at, when it points at one.
    pub fn line_offset(&self) -> Option<u64> {
        self.span.map(|s| s.line_offset)
    }
}

/// Another place a finding points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    pub file: Source,
    /// Where in that file; `None` when only the file is known.
    pub span: Option<Span>,
    /// What the place is, in a few words.
    pub note: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_order_info_below_warning_below_error() {
        assert!(Severity::Info < Severity::Warning && Severity::Warning < Severity::Error);
        assert_eq!(
            serde_json::to_string(&Severity::Warning).unwrap(),
            "\"warning\""
        );
    }
}
