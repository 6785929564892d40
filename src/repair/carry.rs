//! A fork and its source repaired in one run (`--out-dir`, `--in-place`): the source's
//! edits before a fork's cutoff are allowed there, and each such fork's
//! `history_base.end_byte_offset` is rewritten to where those edits moved its cutoff, the
//! same logical place. The fork is then repaired again, checked against its source's
//! repaired copy; its own edits move its own forks' cutoffs, and so on down the lineage.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::PathBuf;

use super::{repair, verify, Repair, Rewrite, Settings};
use crate::analysis::{self, boundary::Cutoff, Needs, ReadOptions};
use crate::input::Source;
use crate::lineage::check::{self, BaseTarget};

/// What a round of [`carry`] starts from: the cutoffs to rewrite, and each file's repaired
/// text. A round that starts where the one before did ends the carrying.
type State = (HashMap<PathBuf, Rewrite>, Vec<Option<Vec<u8>>>);

/// Rewrite the cutoffs of the forks among `results` that their sources' repairs moved, and
/// repair every fork of a repaired source again against its source's repaired copy, until
/// nothing changes (at most as many rounds as there are inputs). A source whose fork then cannot be
/// written is not written either.
pub fn carry(results: &mut [(Source, io::Result<Repair>)], s: &Settings<'_>) -> io::Result<()> {
    let scratch = tempfile::Builder::new()
        .prefix("rollscope-repair-forks-")
        .tempdir()?;
    let mut seen: Option<State> = None;
    // Each round carries the repairs one fork further down: no lineage among the inputs
    // is deeper than they are many.
    for round in 0..=results.len() {
        let wanted = moved_cutoffs(results, s);
        let texts: Vec<Option<Vec<u8>>> = results
            .iter()
            .map(|(_, r)| r.as_ref().ok().and_then(|r| r.repaired.clone()))
            .collect();
        let state = (wanted, texts);
        if seen.as_ref() == Some(&state) {
            break;
        }
        let wanted = &state.0;
        // The forks of the sources repaired so far.
        let affected: HashSet<PathBuf> = results
            .iter()
            .filter(|(_, r)| r.as_ref().is_ok_and(|r| r.repaired.is_some()))
            .filter_map(|(src, _)| src.path())
            .flat_map(|p| s.forks.of(p).iter().map(|f| f.path.clone()))
            .filter(|f| s.carried.is_some_and(|c| c.contains(f)))
            .collect();
        // The repaired copies, where the forks' checks find their sources.
        let mut sources = Vec::with_capacity(results.len());
        for (k, (source, r)) in results.iter().enumerate() {
            match (source.path(), r) {
                (
                    Some(path),
                    Ok(Repair {
                        original: Some(o),
                        repaired: Some(text),
                        ..
                    }),
                ) => {
                    let dir = scratch.path().join(format!("{round}-{k}"));
                    std::fs::create_dir_all(&dir)?;
                    let copy = dir.join(path.file_name().unwrap_or_default());
                    std::fs::write(&copy, o.encode(text)?)?;
                    sources.push(Source::File(copy));
                }
                _ => sources.push(source.clone()),
            }
        }
        let again = Settings {
            selection: s.selection,
            unsafe_fixes: s.unsafe_fixes,
            codex: s.codex,
            read: s.read,
            sources: &sources,
            home: s.home.clone(),
            forks: s.forks,
            carried: s.carried,
            rewrites: wanted,
            homes: s.homes,
            lineages: s.lineages.clone(),
        };
        for (source, r) in results.iter_mut() {
            if source.path().is_some_and(|p| affected.contains(p)) {
                *r = repair(source, &again);
            }
        }
        seen = Some(state);
    }
    hold_back_sources_of_unwritten_forks(results, s);
    Ok(())
}

/// A source whose edits moved a fork's cutoff, where that fork's repair is refused or
/// failed: not written either (the fork would point into bytes that moved).
fn hold_back_sources_of_unwritten_forks(
    results: &mut [(Source, io::Result<Repair>)],
    s: &Settings<'_>,
) {
    let wanted = moved_cutoffs(results, s);
    let stuck: Vec<PathBuf> = results
        .iter()
        .filter(|(src, r)| {
            src.path().is_some_and(|p| wanted.contains_key(p))
                && !r.as_ref().is_ok_and(|r| r.repaired.is_some())
        })
        .filter_map(|(src, _)| src.path().map(PathBuf::from))
        .collect();
    for (source, r) in results.iter_mut() {
        let (Some(path), Ok(r)) = (source.path(), r) else {
            continue;
        };
        let held = s.forks.of(path).iter().find(|f| stuck.contains(&f.path));
        if let (Some(fork), Some(_)) = (held, &r.repaired) {
            r.repaired = None;
            r.refused = Some(format!(
                "its fork {} cannot be written with its cutoff moved",
                fork.path.display()
            ));
        }
    }
}

/// Each fork among the files repaired in the run whose cutoff its source's repair moved:
/// the offset it says, and the one it must say in the repaired source. The offset it says
/// stays when it is still the source's boundary; else it moves with the bytes before it;
/// else (a fork whose offset was already off) it goes to the source's ordinal boundary.
fn moved_cutoffs(
    results: &[(Source, io::Result<Repair>)],
    s: &Settings<'_>,
) -> HashMap<PathBuf, Rewrite> {
    let mut wanted = HashMap::new();
    for (source, r) in results {
        let (Some(path), Ok(r)) = (source.path(), r) else {
            continue;
        };
        let Some(text) = r.repaired.as_deref() else {
            continue;
        };
        for fork in s.forks.of(path) {
            if !s.carried.is_some_and(|c| c.contains(&fork.path)) {
                continue;
            }
            let Some(end_ordinal) = fork.end_ordinal else {
                continue;
            };
            let from = fork.end_byte_offset;
            let holds = |offset: u64| boundary(text, path, end_ordinal, offset);
            if holds(from).0 {
                continue;
            }
            let moved = verify::boundary_moved(from, &r.edits);
            let to = if holds(moved).0 { moved } else { holds(from).1 };
            wanted.insert(fork.path.clone(), Rewrite { from, to });
        }
    }
    wanted
}

/// Whether `offset` is the boundary of ordinal `end` in the source `text` (at `path`), as
/// the lineage check judges a cutoff; and where that boundary is.
fn boundary(text: &[u8], path: &std::path::Path, end: u64, offset: u64) -> (bool, u64) {
    let cutoff = Cutoff {
        end_ordinal: end,
        end_byte_offset: offset,
    };
    let needs = Needs::default().boundary(cutoff);
    let source = Source::File(path.to_path_buf());
    let facts = analysis::read_stream(text, source, &ReadOptions::default(), &needs);
    let Some(probe) = facts.boundary else {
        return (false, offset);
    };
    let target = BaseTarget {
        rollout_id: String::new(),
        cutoff,
    };
    let expected = probe.first_at_end.map_or(probe.bytes, |p| p.offset);
    (
        check::judge(&target, path, &probe, None).is_none(),
        expected,
    )
}
