//! A rule as findings name it: a handle on its descriptor. The descriptors, one a rule unit,
//! and the registry of them all live in `crate::rules`.

use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Serialize, Serializer};

use super::{Effect, Fixes, Severity};

/// What a rule is: its slug (`group.name`), default severity, one-line summary, its
/// documentation (Markdown, the sections **Checks.**, **Why it matters.**, **Example.**,
/// **Fix.**) and which fixes its findings carry.
#[derive(Debug)]
pub struct RuleInfo {
    pub slug: &'static str,
    pub severity: Severity,
    /// What its findings' defect does on resume under the newest Codex (their severity
    /// follows it); `None` for a rule about something else, whose severity is its own.
    pub effect: Option<Effect>,
    pub summary: &'static str,
    pub doc: &'static str,
    pub fixes: Fixes,
}

/// A rule: a handle on its [`RuleInfo`] (two handles are the same rule when they point at
/// the same descriptor).
#[derive(Clone, Copy)]
pub struct Rule(&'static RuleInfo);

impl Rule {
    pub const fn new(info: &'static RuleInfo) -> Rule {
        Rule(info)
    }

    /// `group.name`.
    pub fn slug(self) -> &'static str {
        self.0.slug
    }

    /// The slug's prefix: `ordinal`, `history_base`, ...
    pub fn group(self) -> &'static str {
        let slug = self.slug();
        slug.split_once('.').map_or(slug, |(g, _)| g)
    }

    /// The severity a finding of this rule has unless its check says otherwise.
    pub fn default_severity(self) -> Severity {
        self.0.severity
    }

    /// What its findings' defect does on resume unless its check says otherwise (under the
    /// newest Codex); `None` when its severity is its own.
    pub fn default_effect(self) -> Option<Effect> {
        self.0.effect
    }

    /// One line: what the rule checks.
    pub fn summary(self) -> &'static str {
        self.0.summary
    }

    /// The rule's documentation, one line per doc line (each as written after `///`).
    pub fn doc(self) -> &'static str {
        self.0.doc
    }

    /// Which fixes its findings carry.
    pub fn fixes(self) -> Fixes {
        self.0.fixes
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Rule {}

impl Hash for Rule {
    fn hash<H: Hasher>(&self, h: &mut H) {
        std::ptr::hash(self.0, h);
    }
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rule({})", self.slug())
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.slug())
    }
}
