//! The per-file rebuild: what the replay holds while it reads (the history, the state, the
//! UI view, the files read), fed record by record from the file replayed and, through the
//! one lineage reader, from its sources.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::history::History;
use super::item::{self, At, Item, Origin};
use super::shared::{Held, Keeper};
use super::state::StateLog;
use super::ui::UiLog;
use super::{Files, ReadFile};
use crate::analysis::boundary::Cutoff;
use crate::decode::{Kind, Record};
use crate::input::{self, FileText, Handles, Source, SourceFile};
use crate::lineage::{self, Kept};

/// The replay's state while it reads.
pub(super) struct Run<'r> {
    pub(super) history: History,
    pub(super) state: StateLog,
    pub(super) ui: UiLog,
    pub(super) files: Files,
    /// What the history and state were before each lineage source now being read.
    pub(super) saved: Vec<(History, StateLog)>,
    /// The file replayed, and a second reader of it opened when a text of it must be read
    /// back during its pass.
    replayed_source: &'r Source,
    own: Option<Option<SourceFile>>,
    pub(super) held_times: HashMap<(usize, u64), Box<str>>,
    /// A record of the file replayed was fed (its lineage no longer comes first).
    pub(super) fed: bool,
    /// The lineages other files of the run rebuilt, where this one may take them.
    pub(super) keeper: Option<Keeper>,
}

impl<'r> Run<'r> {
    pub(super) fn new(source: &'r Source) -> Run<'r> {
        Run {
            history: History::new(),
            state: StateLog::default(),
            ui: UiLog::default(),
            files: Files::new(ReadFile::new(&source.display(), None)),
            saved: Vec::new(),
            replayed_source: source,
            own: None,
            held_times: HashMap::new(),
            fed: false,
            keeper: None,
        }
    }

    pub(super) fn feed(&mut self, rec: &Record<'_>, at: At, origin: Origin, rereadable: bool) {
        self.fed |= at.file == 0;
        let Run {
            history,
            files,
            own,
            replayed_source,
            ..
        } = self;
        // A long user message is read back only when a legacy compaction needs its text.
        let mut read = |i: &Item| -> Option<String> {
            let json = match &i.body {
                FileText::Held(s) => s.to_string(),
                FileText::InFile { .. } => {
                    let file = i.at.map_or(0, |a| a.file);
                    let reader = match files.get(file)?.reread.as_ref() {
                        Some(r) => r,
                        // The file replayed, during its pass: opened again for this.
                        None if file == 0 => own
                            .get_or_insert_with(|| {
                                let reopen = input::reopen(replayed_source).ok()??;
                                Some(SourceFile::new(reopen, &Handles::new(1)))
                            })
                            .as_ref()?,
                        None => return None,
                    };
                    i.body.read_string(Some(reader)).ok()?
                }
            };
            item::message_text(&json)
        };
        let effect = history.record(rec, at, origin, rereadable, &mut read);
        if !rereadable && matches!(rec.kind, Kind::ResponseItem | Kind::Compacted) {
            self.held_times
                .insert((at.file, at.line), rec.timestamp.as_ref().into());
        }
        self.state.record(rec, at, rereadable, effect);
        if let Some(f) = self.files.get_mut(at.file) {
            f.records += 1;
        }
    }
}

/// The replay reads its lineage's sources through the one lineage reader: each source is a
/// file of the run, its records below the cutoff fed as the file replayed's are. A source
/// that breaks off part-way is taken back whole, as Codex cannot rebuild from it (the
/// history is still empty when it is opened, as the lineage is followed at the first
/// record, so the copy costs nothing).
impl lineage::Visitor for Run<'_> {
    /// Its place in the list of files ([`Files::listed`]), which the lineage reader names
    /// it by; its records are numbered from the root ([`Files::id_at`]).
    fn open(&mut self, shown: &str, key: &Path, end: u64) -> usize {
        let mut file = ReadFile::new(shown, Some(end));
        file.key = Some(key.into());
        self.saved.push((self.history.clone(), self.state.clone()));
        self.state.new_file();
        self.files.open(file)
    }

    fn reading(&mut self, place: usize, reread: Option<SourceFile>) {
        // Every source is opened by now.
        self.files.number();
        let id = self.files.id_at(place);
        if let Some(f) = id.and_then(|id| self.files.get_mut(id)) {
            f.reread = reread.map(Arc::new);
        }
    }

    fn nested(&mut self) {
        self.state.new_file();
    }

    /// Only while the lineage comes first: nothing of the file replayed read yet, no source
    /// read (the history is empty), none taken.
    fn kept(&mut self, source: &Path, cutoff: Cutoff) -> Option<Kept> {
        let first = !self.fed && self.history.is_empty() && !self.files.has_sources();
        self.keeper
            .as_mut()
            .filter(|_| first)?
            .offer(source, cutoff)
    }

    fn take_kept(&mut self) {
        if let Some(keeper) = self.keeper.as_mut() {
            // A rebuild gone on from is its source's, read on: taken back whole, as a source
            // read would be, when it breaks off ([`lineage::Visitor::close`]).
            if keeper.resuming() {
                self.saved.push((self.history.clone(), self.state.clone()));
            }
            keeper.take(Held {
                history: &mut self.history,
                state: &mut self.state,
                files: &mut self.files,
                held_times: &mut self.held_times,
            });
        }
    }

    fn record(&mut self, rec: &Record<'_>, place: usize, rereadable: bool) {
        let id = self.files.id_at(place).unwrap_or(place);
        self.feed(rec, At::of(rec, id), Origin::SourceRollout, rereadable);
    }

    fn close(&mut self, place: usize, size: u64, whole: bool) {
        let id = self.files.id_at(place);
        if let Some(f) = id.and_then(|id| self.files.get_mut(id)) {
            f.size = size;
        }
        let saved = self.saved.pop();
        if let (false, Some((history, state))) = (whole, saved) {
            (self.history, self.state) = (history, state);
            for f in self.files.listed_from_mut(place) {
                f.records = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lineage::Visitor;
    use crate::testkit;
    use serde_json::json;

    fn user(text: &str) -> String {
        testkit::jsonl(&[testkit::item(
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}),
        )
        .ordinal(1)])
    }

    /// A source that breaks off part-way is taken back whole: the history and the records
    /// counted are what they were before it was opened; one read whole stays.
    #[test]
    fn a_source_read_whole_stays_and_one_that_broke_off_is_taken_back() {
        let source = Source::Stdin;
        let mut run = Run::new(&source);
        for (whole, kept) in [(true, 1), (false, 1)] {
            let file = run.open("source.jsonl", Path::new("/source.jsonl"), 2);
            testkit::each_record(&user("s"), |rec| run.record(rec, file, false));
            assert_eq!(
                run.history.clone().finish().items.len(),
                kept + usize::from(!whole)
            );
            run.close(file, 100, whole);
            let read = run.files.id_at(file).and_then(|id| run.files.get(id));
            assert_eq!(
                read.map(|f| (f.size, f.records)),
                Some((100, u64::from(whole)))
            );
            assert_eq!(run.history.clone().finish().items.len(), kept);
            assert!(run.saved.is_empty());
        }
        assert_eq!(run.files.count(), 3);
    }
}
