//! The lint rules, one unit a rule.
//!
//! A unit (`src/rules/<group>/<name>.rs`) holds everything about its rule: the descriptor
//! (slug, default severity, summary, documentation with its **Checks.**, **Why it matters.**,
//! **Example.** and **Fix.** sections, which fixes it gives; the `rule!` macro of
//! [`unit`](mod@unit) makes it from a doc comment), the check that turns the facts the
//! analyses and the replay establish into findings (through [`Hook`]s: one record at a time
//! as the pass reads it, or the facts of the whole file), each finding's message built from
//! its facts, and its fix where the cure is mechanical. A group's `mod.rs` lists its units
//! (`group!`); the registry is those lists, in [`GROUPS`] order, never a second copy.
//! `docs/contributing.md` walks through adding one.
//!
//! Severity follows what the real Codex does with such a file: **error** when it refuses
//! the file or loses records or history on resume, or a format rule readers rely on is
//! broken; **warning** when it copes but something is wrong or lossy for some consumer;
//! **info** for facts worth knowing.

#[macro_use]
mod unit;
mod check;
mod facts;
mod found;
pub mod homes;
pub mod select;
mod stage;
mod words;

use std::sync::LazyLock;

use crate::findings::Rule;

pub use check::{home, ordinals, read_for_ordinals, replay, Checked, Checker};
pub use facts::{Facts, HomeFacts, RecordCx};
pub use found::{Findings, Found};
pub use stage::Stage;
pub use unit::{FileCheck, HomeCheck, Hook, Kinds, RecordCheck, Unit};

/// The groups of units, in registry order: their modules and their list ([`GROUPS`]).
macro_rules! groups {
    ($($group:ident),+ $(,)?) => {
        $(pub mod $group;)+

        /// The groups, in registry order.
        const GROUPS: &[&[&Unit]] = &[$($group::UNITS),+];
    };
}

groups![
    file,
    meta,
    line,
    ordinal,
    history_base,
    fork,
    policy,
    compact,
    world_state,
    pair,
    rollback,
    tokens,
    turn,
    content,
    image,
    size,
    listing,
    state,
];

/// The sections of every rule's documentation, in order.
pub const SECTIONS: [&str; 4] = [
    "**Checks.**",
    "**Why it matters.**",
    "**Example.**",
    "**Fix.**",
];

/// Every unit, in registry order.
pub fn units() -> impl Iterator<Item = &'static Unit> {
    GROUPS.iter().flat_map(|g| g.iter().copied())
}

/// Every rule, in registry order.
pub fn all() -> &'static [Rule] {
    static ALL: LazyLock<Vec<Rule>> = LazyLock::new(|| units().map(|u| u.rule).collect());
    &ALL
}

/// Whether `rule` is about a file's name and place, not its content ([`Unit::about_place`]).
pub fn about_place(rule: Rule) -> bool {
    units().any(|u| u.rule == rule && u.about_place())
}

/// A rule's place in the registry.
pub fn index(rule: Rule) -> usize {
    static INDEX: LazyLock<foldhash::HashMap<Rule, usize>> =
        LazyLock::new(|| all().iter().enumerate().map(|(i, &r)| (r, i)).collect());
    INDEX.get(&rule).copied().unwrap_or(0)
}

/// The severity of `rule`'s findings under `reading` (`--list-rules`, SARIF's default
/// configuration), unless its check says otherwise.
pub fn severity_under(rule: Rule, reading: &crate::codex::Reading) -> crate::findings::Severity {
    units()
        .find(|u| u.rule == rule)
        .map_or(rule.default_severity(), |u| u.severity_under(reading))
}

/// The rule of a slug.
pub fn from_slug(slug: &str) -> Option<Rule> {
    all().iter().copied().find(|r| r.slug() == slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_unique_lowercase_and_name_their_group() {
        let mut seen = std::collections::HashSet::new();
        for &r in all() {
            let slug = r.slug();
            assert!(seen.insert(slug), "{slug} twice");
            assert!(
                slug.bytes()
                    .all(|b| b.is_ascii_lowercase() || b"._-".contains(&b)),
                "{slug}"
            );
            assert!(slug.starts_with(&format!("{}.", r.group())), "{slug}");
            assert_eq!(from_slug(slug), Some(r));
            assert!(!r.summary().is_empty() && r.doc().ends_with('\n'));
            // The documentation's fixed sections, in order.
            let doc = r.doc();
            let at: Vec<Option<usize>> = SECTIONS.iter().map(|s| doc.find(s)).collect();
            assert!(at.iter().all(Option::is_some), "{slug}: {doc}");
            assert!(
                at.windows(2).all(|w| w[0] < w[1]),
                "{slug}: sections out of order"
            );
        }
        assert_eq!(from_slug("ordinal"), None);
    }

    #[test]
    fn each_group_is_one_stretch_of_the_registry_and_each_unit_its_own_files_group() {
        let mut groups: Vec<&str> = all().iter().map(|r| r.group()).collect();
        groups.dedup();
        let mut unique = groups.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(groups.len(), unique.len(), "{groups:?}");
        for unit in units() {
            assert!(!unit.hooks.is_empty(), "{}: no check", unit.rule.slug());
            // A rule's declared severity is what its effect says under the newest Codex.
            let newest = crate::codex::Reading::default();
            if let Some(e) = unit.rule.default_effect() {
                assert_eq!(
                    unit.rule.default_severity(),
                    e.severity(),
                    "{}",
                    unit.rule.slug()
                );
            }
            if let Some(under) = unit.effect_under {
                assert_eq!(
                    Some(under(&newest)),
                    unit.rule.default_effect(),
                    "{}",
                    unit.rule.slug()
                );
            }
        }
    }
}
