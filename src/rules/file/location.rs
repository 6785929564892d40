//! `file.location`: a rollout outside the folder Codex looks in.

use crate::input::placement::{Home, Placement, ARCHIVED, SESSIONS};
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Stage, Unit};

rule! {
    /// **Checks.** A rollout inside a Codex home sits where Codex looks for it: in
    /// `sessions/YYYY/MM/DD/`, the folder of the date its name carries, or directly in
    /// `archived_sessions/`. Files outside any Codex home are not judged.
    ///
    /// **Why it matters.** Codex walks the date folders to list and find threads: a file
    /// elsewhere under `sessions/` is not listed and, for lookups that walk by date, not
    /// found.
    ///
    /// **Example.** `sessions/2026/11/rollout-2026-11-29T12-00-00-….jsonl` (no day folder);
    /// a file of the 29th in `sessions/2026/11/30/`.
    ///
    /// **Fix.** Move it to `sessions/<its name's date as YYYY/MM/DD>/`.
    "file.location", Warning, "a rollout outside the folder Codex looks in",
}

pub const UNIT: Unit = Unit::new(RULE, &[Hook::file(Stage::Placement, check)]).lint_only();

fn check(facts: &Facts<'_>, out: &mut Found<'_>) {
    if let Some(expected) = facts.placement.and_then(belongs_in) {
        out.push(
            None,
            format!(
                "a rollout outside the folder Codex looks in: it belongs in {}",
                short(&expected)
            ),
        );
    }
}

/// Where Codex would look for the file, relative to its home, when it lies elsewhere there:
/// `sessions/YYYY/MM/DD/` (its name's date), or `archived_sessions/` (archives are flat).
/// Nothing for a file outside a Codex home, or whose name Codex does not parse (that is
/// `file.name`'s).
fn belongs_in(p: &Placement) -> Option<String> {
    let date = p.date.as_ref()?;
    match p.home.as_ref()? {
        Home::Sessions { dirs } if dirs.as_slice() != date.as_slice() => {
            Some(format!("{SESSIONS}/{}/", date.join("/")))
        }
        Home::Archived { dirs } if !dirs.is_empty() => Some(format!("{ARCHIVED}/")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::input::placement::placement;

    const ID: &str = "01a2272f-3a4a-7f32-804b-af9053b29ff1";

    /// Where a file at `path` belongs, when it is not there.
    fn belongs(path: &str) -> Option<String> {
        belongs_in(&placement(Path::new(path)).unwrap())
    }

    #[test]
    fn a_rollout_belongs_in_its_date_folder_or_flat_in_the_archive() {
        let name = format!("rollout-2026-11-29T12-02-16-{ID}.jsonl");
        assert_eq!(belongs(&format!("/h/sessions/2026/11/29/{name}")), None);
        assert_eq!(belongs(&format!("/h/archived_sessions/{name}")), None);
        assert_eq!(belongs(&format!("/tmp/{name}")), None);
        assert_eq!(
            belongs(&format!("/h/sessions/2026/11/30/{name}")),
            Some("sessions/2026/11/29/".into())
        );
        assert_eq!(
            belongs(&format!("/h/sessions/2026/11/{name}")),
            Some("sessions/2026/11/29/".into())
        );
        assert_eq!(
            belongs(&format!("/h/archived_sessions/2026/{name}")),
            Some("archived_sessions/".into())
        );
        // A name Codex does not parse has no date to belong to.
        assert_eq!(belongs("/h/sessions/2026/11/29/copy.jsonl"), None);
        assert_eq!(belongs("/tmp/copy.jsonl"), None);
    }
}
