//! Which rules a run reports, and at what severity: `--select` and `--ignore` name rules by
//! slug (`ordinal.gap`) or by group (`ordinal`), as ruff selects by code or prefix, and so do
//! the severity overrides of a config file.

use std::borrow::Cow;
use std::fmt;

use crate::findings::{Finding, Rule, Severity};

use super::{all, from_slug};

/// The rules a run reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    on: Vec<bool>,
}

/// A name that is no rule and no group, with the nearest one when one is close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule {
    pub name: String,
    pub suggestion: Option<&'static str>,
}

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule or group `{}`", self.name)?;
        match self.suggestion {
            Some(s) => write!(f, "; did you mean `{s}`?"),
            None => Ok(()),
        }
    }
}

/// The rules a slug or group names.
pub fn named(name: &str) -> Result<Vec<Rule>, UnknownRule> {
    let rules: Vec<Rule> = all()
        .iter()
        .copied()
        .filter(|r| r.slug() == name || r.group() == name)
        .collect();
    if !rules.is_empty() {
        return Ok(rules);
    }
    let candidates = all().iter().flat_map(|r| [r.slug(), r.group()]);
    let suggestion = candidates
        .map(|c| (strsim::jaro_winkler(name, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c);
    Err(UnknownRule {
        name: name.to_string(),
        suggestion,
    })
}

impl Selection {
    /// Every rule of `select` (all when it is empty), less every rule of `ignore`.
    #[allow(
        clippy::indexing_slicing,
        reason = "`index` gives a position in the registry (`rules::all`), and each vector here has one entry a rule of it"
    )]
    pub fn new(select: &[String], ignore: &[String]) -> Result<Selection, UnknownRule> {
        let mut on = vec![select.is_empty(); all().len()];
        for name in select {
            for r in named(name.trim())? {
                on[index(r)] = true;
            }
        }
        for name in ignore {
            for r in named(name.trim())? {
                on[index(r)] = false;
            }
        }
        Ok(Selection { on })
    }

    #[allow(
        clippy::indexing_slicing,
        reason = "`index` gives a position in the registry (`rules::all`), and each vector here has one entry a rule of it"
    )]
    pub fn contains(&self, rule: Rule) -> bool {
        self.on[index(rule)]
    }
}

/// Severities a run gives rules instead of their checks' own, by slug or by group; a rule's
/// own entry wins over its group's, whatever their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overrides {
    own: Vec<Option<Severity>>,
    of_group: Vec<Option<Severity>>,
}

impl Default for Overrides {
    fn default() -> Overrides {
        Overrides {
            own: vec![None; all().len()],
            of_group: vec![None; all().len()],
        }
    }
}

impl Overrides {
    /// Give the rules `name` names (a slug or a group) `severity`.
    #[allow(
        clippy::indexing_slicing,
        reason = "`index` gives a position in the registry (`rules::all`), and each vector here has one entry a rule of it"
    )]
    pub fn set(&mut self, name: &str, severity: Severity) -> Result<(), UnknownRule> {
        let name = name.trim();
        if let Some(r) = from_slug(name) {
            self.own[index(r)] = Some(severity);
            return Ok(());
        }
        for r in named(name)? {
            self.of_group[index(r)] = Some(severity);
        }
        Ok(())
    }

    /// Give `rule` `severity`.
    #[allow(
        clippy::indexing_slicing,
        reason = "`index` gives a position in the registry (`rules::all`), and each vector here has one entry a rule of it"
    )]
    pub fn set_rule(&mut self, rule: Rule, severity: Severity) {
        self.own[index(rule)] = Some(severity);
    }

    /// The severity a finding of `rule` is given, if any.
    #[allow(
        clippy::indexing_slicing,
        reason = "`index` gives a position in the registry (`rules::all`), and each vector here has one entry a rule of it"
    )]
    pub fn get(&self, rule: Rule) -> Option<Severity> {
        let i = index(rule);
        self.own[i].or(self.of_group[i])
    }

    /// Whether no rule is given a severity.
    pub fn is_empty(&self) -> bool {
        self.own.iter().chain(&self.of_group).all(Option::is_none)
    }

    /// The finding at its overridden severity (itself when there is none).
    pub fn apply<'a>(&self, f: &'a Finding) -> Cow<'a, Finding> {
        match self.get(f.rule) {
            Some(s) if s != f.severity => {
                let mut f = f.clone();
                f.severity = s;
                Cow::Owned(f)
            }
            _ => Cow::Borrowed(f),
        }
    }
}

fn index(rule: Rule) -> usize {
    super::index(rule)
}

/// The rule of a slug, or why there is none.
pub fn rule(slug: &str) -> Result<Rule, UnknownRule> {
    from_slug(slug).ok_or_else(|| {
        let mut e = named(slug).err().unwrap_or(UnknownRule {
            name: slug.to_string(),
            suggestion: None,
        });
        // A group is not a rule: suggest its first rule.
        if e.suggestion.is_none() {
            e.suggestion = all().iter().find(|r| r.group() == slug).map(|r| r.slug());
        }
        e
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn select_and_ignore_take_slugs_and_groups_and_ignore_wins() {
        let every = Selection::new(&[], &[]).unwrap();
        assert!(all().iter().all(|&r| every.contains(r)));
        let s = Selection::new(&names(&["ordinal"]), &names(&["ordinal.gap"])).unwrap();
        assert!(
            s.contains(crate::rules::ordinal::missing::RULE)
                && !s.contains(crate::rules::ordinal::gap::RULE)
        );
        assert!(!s.contains(crate::rules::file::bom::RULE));
        let s = Selection::new(&[], &names(&["pair"])).unwrap();
        assert!(
            !s.contains(crate::rules::pair::missing_output::RULE)
                && s.contains(crate::rules::file::bom::RULE)
        );
    }

    #[test]
    fn an_unknown_name_suggests_the_nearest_rule() {
        let e = Selection::new(&names(&["ordinal.gapp"]), &[]).unwrap_err();
        assert_eq!(e.suggestion, Some("ordinal.gap"));
        let e = Selection::new(&[], &names(&["zzz"])).unwrap_err();
        assert_eq!((e.name.as_str(), e.suggestion), ("zzz", None));
        assert_eq!(rule("file.bom"), Ok(crate::rules::file::bom::RULE));
        assert_eq!(
            rule("ordinal").unwrap_err().suggestion,
            Some("ordinal.in-legacy")
        );
        let e = named("ordinal.gapp").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown rule or group `ordinal.gapp`; did you mean `ordinal.gap`?"
        );
    }

    #[test]
    fn a_rules_own_severity_override_beats_its_groups_in_any_order() {
        let mut o = Overrides::default();
        o.set("ordinal.gap", Severity::Error).unwrap();
        o.set("ordinal", Severity::Info).unwrap();
        assert_eq!(
            o.get(crate::rules::ordinal::gap::RULE),
            Some(Severity::Error)
        );
        assert_eq!(
            o.get(crate::rules::ordinal::missing::RULE),
            Some(Severity::Info)
        );
        assert_eq!(o.get(crate::rules::file::bom::RULE), None);
        assert!(o.set("ordinall", Severity::Info).is_err());
        let f = Finding::new(
            crate::rules::file::bom::RULE,
            crate::input::Source::Stdin,
            None,
            String::new(),
        );
        assert_eq!(*o.apply(&f), f);
        o.set("file", Severity::Warning).unwrap();
        assert_eq!(o.apply(&f).severity, Severity::Warning);
    }
}
