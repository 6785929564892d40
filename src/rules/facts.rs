//! What a rule's check reads: the facts of a whole file ([`Facts`]), or one record as the
//! pass reads it, with its context ([`RecordCx`]).

use std::cell::OnceCell;

use crate::analysis::ordinal::{self, Fault, Head, OrdinalReport};
use crate::analysis::session::SessionInfo;
use crate::analysis::FileFacts;
use crate::codex::image::{self, ItemImage};
use crate::codex::{Answer, Behaviour, Reading};
use crate::content::Seen;
use crate::decode::{self, Kind, Line, Record};
use crate::input::placement::Placement;
use crate::input::Source;
use crate::lineage;
use crate::replay::Replayed;
use crate::statedb::{Home, ThreadState};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use super::stage::Stage;

/// The facts of one file, once it is read.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// The one pass over the file.
    pub file: &'a FileFacts,
    /// What a resume rebuilds from it (`lint`, `replay`; not `check-ordinal`).
    pub replay: Option<&'a Replayed>,
    /// What is wrong with its lineage.
    pub lineage: &'a [lineage::Problem],
    /// Its name and place (`lint`).
    pub placement: Option<&'a Placement>,
    /// The Codex version it is read as: what Codex does with what the rules find.
    pub codex: Reading,
    /// What Codex's state databases say of it (`lint` in a Codex home that has them).
    pub state: Option<&'a ThreadState>,
}

/// What a Codex home's state databases hold, for the checks about the databases
/// themselves.
#[derive(Debug)]
pub struct HomeFacts<'a> {
    pub home: &'a Home,
    /// The rollouts in the home (`sessions/`, `archived_sessions/`), by thread id in lower
    /// case.
    pub rollouts: &'a HashMap<String, Vec<PathBuf>>,
    /// The threads the run asked about; `None`: every thread of the home.
    pub threads: Option<&'a HashSet<String>>,
    /// The threads whose rollouts the run read (a finding about one is said at its file).
    pub read: &'a HashSet<String>,
    /// The Codex version the home is read as.
    pub codex: Reading,
}

impl HomeFacts<'_> {
    /// Whether the run asked about thread `id`.
    pub fn asked(&self, id: &str) -> bool {
        self.threads
            .is_none_or(|t| t.contains(&id.to_ascii_lowercase()))
    }
}

impl<'a> Facts<'a> {
    /// The facts of a file replayed.
    pub fn of_replay(r: &'a Replayed, placement: Option<&'a Placement>) -> Facts<'a> {
        Facts {
            file: &r.facts,
            replay: Some(r),
            lineage: &r.lineage,
            placement,
            codex: r.reading,
            state: None,
        }
    }

    pub fn source(&self) -> &'a Source {
        &self.file.source
    }

    pub fn ordinals(&self) -> Option<&'a OrdinalReport> {
        self.file.ordinals.as_ref()
    }

    /// The last line a cut keeps (`replay --through-turn`, `--before-turn`).
    pub fn cut_line(&self) -> Option<u64> {
        self.replay?.cut.as_ref().map(|c| c.last_line)
    }

    /// The ordinal sequence's problems (with a paginated file's head), each with its place
    /// in the list: the rules that read them find in that order on one line.
    pub fn sequence(&self) -> impl Iterator<Item = (usize, &'a ordinal::Problem)> {
        self.ordinals()
            .into_iter()
            .flat_map(|o| o.problems.iter().enumerate())
    }

    /// The head of a file that is not paginated, when Codex cannot read it.
    pub fn legacy_head(&self) -> Option<&'a ordinal::Problem> {
        self.ordinals()?.legacy_head.as_ref()
    }

    /// What the head rules read at `stage`: a paginated file's ordinal problems (its head
    /// among them) at [`Stage::Ordinals`], another file's head at [`Stage::Head`]; each with
    /// its place in its list.
    pub fn heads(
        &self,
        stage: Stage,
    ) -> Box<dyn Iterator<Item = (usize, &'a ordinal::Problem)> + 'a> {
        match stage {
            Stage::Ordinals => Box::new(self.sequence()),
            Stage::Head => Box::new(self.legacy_head().into_iter().map(|p| (0, p))),
            _ => Box::new(std::iter::empty()),
        }
    }

    /// The head Codex cannot read the file's `session_meta` from, in a file of any mode.
    pub fn head(&self) -> Option<&'a Head> {
        let rep = self.ordinals()?;
        let head = |p: &'a crate::analysis::ordinal::Problem| match &p.fault {
            Fault::Head(h) => Some(h),
            _ => None,
        };
        rep.problems
            .iter()
            .find_map(head)
            .or_else(|| rep.legacy_head.as_ref().and_then(head))
    }

    /// The bytes of `line` (without its ending), read back from the file: for a fix that
    /// moves or compares lines (`None` where the file cannot be read again).
    pub fn bytes(&self, line: &Line) -> Option<Vec<u8>> {
        self.replay?.bytes(line)
    }

    /// The record at `line`, read back and decoded: its `ordinal`, and its payload's JSON
    /// text as written.
    pub fn record_at(&self, line: &Line) -> Option<(Option<u64>, String)> {
        let bytes = self.bytes(line)?;
        let rec = decode::decode_line(&bytes, line.pos).ok()?;
        Some((rec.ordinal, rec.payload.get().to_string()))
    }

    /// No line holds anything: opened and read whole, no record, no bad line.
    pub fn empty(&self) -> bool {
        let f = self.file;
        let records = self.ordinals().map_or(0, |o| o.records);
        f.opened && records == 0 && f.bad.is_empty() && f.io_error.is_none()
    }

    /// The file was not read to its end: what it lacks is not known.
    pub fn partial(&self) -> bool {
        self.file.io_error.is_some()
    }
}

/// One record's context: the session so far, and what the file's name declares.
#[derive(Debug)]
pub struct RecordCx<'a> {
    pub session: &'a SessionInfo,
    /// The thread id of the file's name (lowercase), when it is a rollout name.
    pub file_id: Option<&'a str>,
    /// The Codex version the file is read as.
    pub codex: Reading,
    /// The content prefilter's pass over the record, made once for the checks that ask.
    seen: OnceCell<Seen>,
    /// The record's images as the version read as prepares them, decoded once for the
    /// checks that ask.
    images: OnceCell<Vec<ItemImage>>,
}

impl<'a> RecordCx<'a> {
    pub fn new(session: &'a SessionInfo, file_id: Option<&'a str>, codex: Reading) -> RecordCx<'a> {
        RecordCx {
            session,
            file_id,
            codex,
            seen: OnceCell::new(),
            images: OnceCell::new(),
        }
    }

    /// `legacy`, `paginated`, or what the file wrote.
    pub fn mode(&self) -> &'a str {
        self.session.mode()
    }

    pub fn paginated(&self) -> bool {
        self.session.paginated
    }

    pub fn legacy(&self) -> bool {
        self.mode() == "legacy"
    }

    /// `rec` is the first `session_meta`: the one the session is read from.
    pub fn is_first_meta(&self, rec: &Record<'_>) -> bool {
        rec.kind == Kind::SessionMeta && self.session.meta_line == Some(rec.pos.line)
    }

    /// What the content prefilter finds in `rec`'s line (one pass, shared by the checks).
    pub fn seen(&self, rec: &Record<'_>) -> &Seen {
        self.seen.get_or_init(|| Seen::of(rec.raw.as_bytes()))
    }

    /// What the version read as does with each image of `rec`, a response item (none when
    /// it sends images as written; decoded once, shared by the checks).
    pub fn images(&self, rec: &Record<'_>) -> &[ItemImage] {
        self.images.get_or_init(|| {
            if !self
                .codex
                .does(Behaviour::ImagePreparation, Answer::Prepares)
            {
                return Vec::new();
            }
            // The content pass, when a check made it, has looked for the tag already.
            if self.seen.get().is_some_and(|s| !s.image) {
                return Vec::new();
            }
            image::item_images(rec.payload.get(), false)
        })
    }
}
