//! What a rule unit is: its descriptor (made by `rule!`, below), and the hooks through which
//! its check reads facts ([`Hook`]); a group's list of units (`group!`).

use crate::codex::Reading;
use crate::decode::{Kind, Record};
use crate::findings::{Effect, Rule, Severity};

use super::facts::{Facts, HomeFacts, RecordCx};
use super::found::Found;
use super::stage::Stage;

/// Declares a unit's rule from its doc comment (the rule's documentation: **Checks.**, **Why
/// it matters.**, **Example.**, **Fix.**), its slug, default severity and summary, what its
/// defect does on resume under the newest Codex (`effect: Refused`; left out for a rule about
/// something else, whose severity is its own), and the fixes its findings carry (`fix: Always [Safe]`, `fix: Sometimes [Safe, Unsafe]`; none
/// when left out): `INFO`, the descriptor, and `RULE`, the handle findings name.
macro_rules! rule {
    (
        $(#[doc = $doc:literal])+
        $slug:literal, $severity:ident, $summary:literal
        $(, effect: $effect:ident)?
        $(, fix: $when:ident [$($applicability:ident),+])? $(,)?
    ) => {
        /// This unit's rule.
        pub static INFO: $crate::findings::RuleInfo = $crate::findings::RuleInfo {
            slug: $slug,
            severity: $crate::findings::Severity::$severity,
            effect: rule!(@effect $($effect)?),
            summary: $summary,
            doc: concat!($($doc, "\n"),+),
            fixes: rule!(@fixes $($when [$($applicability),+])?),
        };
        /// This unit's rule, as findings name it.
        pub const RULE: $crate::findings::Rule = $crate::findings::Rule::new(&INFO);
    };
    (@effect) => {
        None
    };
    (@effect $effect:ident) => {
        Some($crate::findings::Effect::$effect)
    };
    (@fixes) => {
        $crate::findings::Fixes::NONE
    };
    (@fixes $when:ident [$($applicability:ident),+]) => {
        $crate::findings::Fixes {
            when: $crate::findings::FixWhen::$when,
            applicabilities: &[$($crate::findings::Applicability::$applicability),+],
        }
    };
}

/// A group's units, one module each, in registry order: declares the modules and the
/// group's list `UNITS`. Adding a rule to a group is one line here.
macro_rules! group {
    ($($unit:ident),+ $(,)?) => {
        $(pub mod $unit;)+

        /// This group's units, in registry order.
        pub const UNITS: &[&$crate::rules::Unit] = &[$(&$unit::UNIT),+];
    };
}

/// A rule unit: its rule, and how its check reads facts.
#[derive(Debug)]
pub struct Unit {
    pub rule: Rule,
    pub hooks: &'static [Hook],
    /// Its facts are a file's name and place, or its content: `lint` reports it, `replay
    /// --view state` (which reads records for what a resume rebuilds) does not.
    pub lint_only: bool,
    /// What its findings' defect does under a Codex version, where versions differ
    /// (`docs/codex-versions.md`): its severity under the version a run reads files as.
    pub effect_under: Option<fn(&Reading) -> Effect>,
}

impl Unit {
    /// Its facts are only a file's name and place (its path, the listing beside it), never
    /// what the file holds: a copy elsewhere does not have them, and no edit cures them.
    pub fn about_place(&self) -> bool {
        !self.hooks.is_empty()
            && self
                .hooks
                .iter()
                .all(|h| matches!(h.stage(), Stage::Placement | Stage::Listing))
    }

    pub const fn new(rule: Rule, hooks: &'static [Hook]) -> Unit {
        Unit {
            rule,
            hooks,
            lint_only: false,
            effect_under: None,
        }
    }

    /// A unit whose effect follows the Codex version: `effect` says it for a version.
    pub const fn follows(self, effect: fn(&Reading) -> Effect) -> Unit {
        Unit {
            effect_under: Some(effect),
            ..self
        }
    }

    /// The severity of its findings under `reading`, unless its check says otherwise.
    pub fn severity_under(&self, reading: &Reading) -> Severity {
        match self.effect_under {
            Some(effect) => effect(reading).severity(),
            None => self.rule.default_severity(),
        }
    }

    /// A unit of `lint` alone.
    pub const fn lint_only(self) -> Unit {
        Unit {
            lint_only: true,
            ..self
        }
    }
}

/// A check that reads one record as the pass reads it.
pub type RecordCheck = fn(&Record<'_>, &RecordCx<'_>, &mut Found<'_>);

/// A check that reads the facts of the whole file, once it is read.
pub type FileCheck = fn(&Facts<'_>, &mut Found<'_>);

/// A check that reads one Codex home's state databases once the run's files are read; its
/// findings are about a database file.
pub type HomeCheck = fn(&HomeFacts<'_>, &mut Found<'_>);

/// How a unit's check reads facts, and where its findings come on a line.
#[derive(Debug, Clone, Copy)]
pub enum Hook {
    /// Each record of one of these kinds, longer than `longer_than` bytes, as the pass
    /// reads it.
    Record {
        stage: Stage,
        kinds: Kinds,
        longer_than: u64,
        check: RecordCheck,
    },
    /// The facts of the whole file.
    File { stage: Stage, check: FileCheck },
    /// A Codex home's databases ([`Stage::StateDb`]).
    Home { check: HomeCheck },
}

impl Hook {
    pub const fn record(stage: Stage, kinds: Kinds, check: RecordCheck) -> Hook {
        Hook::Record {
            stage,
            kinds,
            longer_than: 0,
            check,
        }
    }

    /// The record hook only for records longer than `bytes` (a check about large records
    /// costs the others nothing).
    pub const fn longer_than(self, bytes: u64) -> Hook {
        match self {
            Hook::Record {
                stage,
                kinds,
                check,
                ..
            } => Hook::Record {
                stage,
                kinds,
                longer_than: bytes,
                check,
            },
            file => file,
        }
    }

    /// Each `session_meta` record, at [`Stage::RecordKind`] (the checks of a file's
    /// metadata: the first one, or the others).
    pub const fn session_meta(check: RecordCheck) -> Hook {
        Hook::record(Stage::RecordKind, Kinds::of(&[Kind::SessionMeta]), check)
    }

    pub const fn file(stage: Stage, check: FileCheck) -> Hook {
        Hook::File { stage, check }
    }

    pub const fn home(check: HomeCheck) -> Hook {
        Hook::Home { check }
    }

    pub fn stage(&self) -> Stage {
        match self {
            Hook::Record { stage, .. } | Hook::File { stage, .. } => *stage,
            Hook::Home { .. } => Stage::StateDb,
        }
    }
}

/// Record kinds, as a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kinds(u16);

impl Kinds {
    /// Every record.
    pub const ALL: Kinds = Kinds(u16::MAX);

    /// The records of these kinds.
    pub const fn of(kinds: &[Kind]) -> Kinds {
        let mut bits = 0u16;
        let mut rest = kinds;
        while let [kind, tail @ ..] = rest {
            bits |= 1 << *kind as u16;
            rest = tail;
        }
        Kinds(bits)
    }

    #[inline(always)]
    pub fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u16) != 0
    }
}
