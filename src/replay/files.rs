//! The files a replay read: the file replayed, then its lineage's sources. Items name their
//! file by number ([`super::item::At::file`]): 0, the file replayed; a source, by its place
//! counted from the lineage's root (1: the root, read first). Counted so, a source has the
//! same number in every lineage that reaches it with the same sources above it, and the
//! sources of a lineage rebuilt once ([`super::shared`]) are taken into a deeper one as
//! they are: held root first in a persistent vector, they are shared, never copied. They
//! are listed the other way, child first ([`Files::listed`]), as the lineage reader opens
//! them.

use std::path::Path;
use std::sync::Arc;

use imbl::Vector;
use serde_json::value::RawValue;

use crate::input::SourceFile;

/// A file the replay read. A lineage rebuilt once lists its sources for every file of the
/// run that takes it ([`super::shared`]).
#[derive(Debug, Clone)]
pub struct ReadFile {
    pub path: Arc<str>,
    /// `path` as a JSON string, escaped once: the state view lists every file of a lineage
    /// in the row of each file that reads it (a chain of 2,000 forks writes two million
    /// paths), and escaping them row by row was half of its time.
    pub path_json: Arc<RawValue>,
    /// The `end_ordinal_exclusive` a source was read up to; `None` for the file replayed.
    pub end_ordinal: Option<u64>,
    /// Records read from it into the replay.
    pub records: u64,
    /// Shared with the runs that take a lineage it is a file of.
    pub(super) reread: Option<Arc<SourceFile>>,
    /// Its length as read (reads back never go past it).
    pub(super) size: u64,
    /// A lineage source's canonical path.
    pub(super) key: Option<Arc<Path>>,
}

impl ReadFile {
    pub(super) fn new(path: &str, end_ordinal: Option<u64>) -> ReadFile {
        let json =
            serde_json::value::to_raw_value(path).unwrap_or_else(|_| RawValue::NULL.to_owned());
        ReadFile {
            path: path.into(),
            path_json: json.into(),
            end_ordinal,
            records: 0,
            reread: None,
            size: 0,
            key: None,
        }
    }
}

/// The file replayed and its sources.
#[derive(Debug, Clone)]
pub struct Files {
    own: ReadFile,
    /// The sources numbered, root first: number k at index k - 1.
    sources: Vector<ReadFile>,
    /// The sources opened and not numbered yet, child first: the lineage reader opens every
    /// source of a lineage before it takes a kept one or reads any ([`Files::number`]).
    opened: Vec<ReadFile>,
}

impl Files {
    pub(super) fn new(own: ReadFile) -> Files {
        Files {
            own,
            sources: Vector::new(),
            opened: Vec::new(),
        }
    }

    /// The file replayed.
    pub fn own(&self) -> &ReadFile {
        &self.own
    }

    pub(super) fn own_mut(&mut self) -> &mut ReadFile {
        &mut self.own
    }

    /// How many: the file replayed and its sources.
    pub fn count(&self) -> usize {
        1 + self.sources.len() + self.opened.len()
    }

    /// Whether it lists a source.
    pub fn has_sources(&self) -> bool {
        self.count() > 1
    }

    /// The file numbered `id` ([`super::item::At::file`]).
    pub fn get(&self, id: usize) -> Option<&ReadFile> {
        match id {
            0 => Some(&self.own),
            _ if id <= self.sources.len() => self.sources.get(id - 1),
            _ => self.opened.get(self.count().checked_sub(id + 1)?),
        }
    }

    pub(super) fn get_mut(&mut self, id: usize) -> Option<&mut ReadFile> {
        let len = self.count();
        match id {
            0 => Some(&mut self.own),
            _ if id <= self.sources.len() => self.sources.get_mut(id - 1),
            _ => self.opened.get_mut(len.checked_sub(id + 1)?),
        }
    }

    /// The number of the file listed at `place` ([`Files::listed`]): the file replayed at
    /// 0, then its source (the child's own) at 1, that source's source at 2...
    pub(super) fn id_at(&self, place: usize) -> Option<usize> {
        match place {
            0 => Some(0),
            _ => self.count().checked_sub(place).filter(|&id| id > 0),
        }
    }

    /// The file replayed, then its sources from the child's own up to the root.
    pub fn listed(&self) -> impl Iterator<Item = &ReadFile> {
        std::iter::once(&self.own)
            .chain(self.opened.iter())
            .chain(self.sources.iter().rev())
    }

    /// A source opened, listed after those opened before it; its place in the list.
    pub(super) fn open(&mut self, file: ReadFile) -> usize {
        self.opened.push(file);
        self.opened.len()
    }

    /// Number the sources opened (the deepest first), below any numbered already.
    pub(super) fn number(&mut self) {
        self.sources.extend(self.opened.drain(..).rev());
    }

    /// The sources of a kept lineage, as its root's first: numbered as they were, below the
    /// sources opened (nothing is numbered yet).
    pub(super) fn take(&mut self, sources: &Vector<ReadFile>) {
        self.sources = sources.clone();
        self.number();
    }

    /// The sources, numbered, root first: what a kept lineage lists.
    pub(super) fn sources(&mut self) -> &Vector<ReadFile> {
        self.number();
        &self.sources
    }

    /// Each file from `place` on ([`Files::listed`]), for its records to be taken back.
    pub(super) fn listed_from_mut(&mut self, place: usize) -> impl Iterator<Item = &mut ReadFile> {
        let opened = self.opened.len();
        let skip_sources = place.saturating_sub(1 + opened);
        let own = (place == 0).then_some(&mut self.own);
        own.into_iter()
            .chain(self.opened.iter_mut().skip(place.saturating_sub(1)))
            .chain(self.sources.iter_mut().rev().skip(skip_sources))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(files: &Files) -> Vec<String> {
        files.listed().map(|f| f.path.to_string()).collect()
    }

    /// A lineage's sources keep their numbers, opened before a kept lineage is taken or
    /// after: the root is 1 whatever lies above it.
    #[test]
    fn sources_are_numbered_from_the_root_and_listed_from_the_child() {
        let mut kept = Files::new(ReadFile::new("fork", None));
        assert_eq!(kept.open(ReadFile::new("parent", Some(5))), 1);
        assert_eq!(kept.open(ReadFile::new("root", Some(3))), 2);
        kept.number();
        assert_eq!(paths(&kept), ["fork", "parent", "root"]);
        assert_eq!(kept.get(1).unwrap().path.as_ref(), "root");
        assert_eq!(kept.get(2).unwrap().path.as_ref(), "parent");
        let lineage = kept.sources().clone();

        let mut files = Files::new(ReadFile::new("leaf", None));
        let place = files.open(ReadFile::new("fork", Some(2)));
        assert_eq!(place, 1);
        files.take(&lineage);
        assert_eq!(paths(&files), ["leaf", "fork", "parent", "root"]);
        assert_eq!(files.id_at(place), Some(3));
        assert_eq!(files.get(3).unwrap().path.as_ref(), "fork");
        assert_eq!(files.get(1).unwrap().path.as_ref(), "root");
        assert_eq!(files.id_at(3), Some(1));
        assert_eq!(files.get(4).map(|f| f.path.clone()), None);
        assert_eq!(files.id_at(4), None);

        // Numbered while still opened too: the same numbers.
        let mut pending = Files::new(ReadFile::new("leaf", None));
        pending.open(ReadFile::new("fork", Some(2)));
        pending.open(ReadFile::new("parent", Some(5)));
        assert_eq!(pending.id_at(1), Some(2));
        assert_eq!(pending.get(2).unwrap().path.as_ref(), "fork");
        assert_eq!(pending.get(1).unwrap().path.as_ref(), "parent");

        let taken_back: Vec<String> = files
            .listed_from_mut(2)
            .map(|f| f.path.to_string())
            .collect();
        assert_eq!(taken_back, ["parent", "root"]);
        let all: Vec<String> = pending
            .listed_from_mut(0)
            .map(|f| f.path.to_string())
            .collect();
        assert_eq!(all, ["leaf", "fork", "parent"]);
    }
}
