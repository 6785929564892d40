//! Which rules a run reports: `--select` and `--ignore` name rules by slug (`ordinal.gap`)
//! or by group (`ordinal`), as ruff selects by code or prefix.

use super::Rule;

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

/// The rules a slug or group names.
fn named(name: &str) -> Result<Vec<Rule>, UnknownRule> {
    let rules: Vec<Rule> = Rule::ALL
        .iter()
        .copied()
        .filter(|r| r.slug() == name || r.group() == name)
        .collect();
    if !rules.is_empty() {
        return Ok(rules);
    }
    let candidates = Rule::ALL.iter().flat_map(|r| [r.slug(), r.group()]);
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
    pub fn new(select: &[String], ignore: &[String]) -> Result<Selection, UnknownRule> {
        let mut on = vec![select.is_empty(); Rule::ALL.len()];
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

    pub fn contains(&self, rule: Rule) -> bool {
        self.on[index(rule)]
    }
}

fn index(rule: Rule) -> usize {
    Rule::ALL.iter().position(|r| *r == rule).unwrap_or(0)
}

/// The rule of a slug, or why there is none.
pub fn rule(slug: &str) -> Result<Rule, UnknownRule> {
    Rule::from_slug(slug).ok_or_else(|| {
        let mut e = named(slug).err().unwrap_or(UnknownRule {
            name: slug.to_string(),
            suggestion: None,
        });
        // A group is not a rule: suggest its first rule.
        if e.suggestion.is_none() {
            e.suggestion = Rule::ALL
                .iter()
                .find(|r| r.group() == slug)
                .map(|r| r.slug());
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
        let all = Selection::new(&[], &[]).unwrap();
        assert!(Rule::ALL.iter().all(|&r| all.contains(r)));
        let s = Selection::new(&names(&["ordinal"]), &names(&["ordinal.gap"])).unwrap();
        assert!(s.contains(Rule::OrdinalMissing) && !s.contains(Rule::OrdinalGap));
        assert!(!s.contains(Rule::FileBom));
        let s = Selection::new(&[], &names(&["pair"])).unwrap();
        assert!(!s.contains(Rule::PairMissingOutput) && s.contains(Rule::FileBom));
    }

    #[test]
    fn an_unknown_name_suggests_the_nearest_rule() {
        let e = Selection::new(&names(&["ordinal.gapp"]), &[]).unwrap_err();
        assert_eq!(e.suggestion, Some("ordinal.gap"));
        let e = Selection::new(&[], &names(&["zzz"])).unwrap_err();
        assert_eq!((e.name.as_str(), e.suggestion), ("zzz", None));
        assert_eq!(rule("file.bom"), Ok(Rule::FileBom));
        assert_eq!(
            rule("ordinal").unwrap_err().suggestion,
            Some("ordinal.in-legacy")
        );
    }
}
