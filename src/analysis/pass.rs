//! The one pass over a file: decode every line once and feed the analyses a command needs.

use std::collections::BTreeMap;
use std::io;
use std::sync::Arc;

use chrono::NaiveDate;

use crate::analysis::boundary::{BoundaryProbe, Cutoff, LineRecorder, Lines, Probe};
use crate::analysis::calls::{Call, CallCollector};
use crate::analysis::census::{Census, CensusCount, ModelId};
use crate::analysis::listing::Listing;
use crate::analysis::ordinal::{OrdinalCheck, OrdinalReport};
use crate::analysis::session::{SessionInfo, SessionTracker};
use crate::analysis::tokens::{carries_usage, Tokens, UsageAccount};
use crate::analysis::turns::{Detail, TurnCounts, TurnLog, Turns};
use crate::analysis::Fold;
use crate::decode::{BadLine, Decoder, Entry, Line, Pos, Record, StreamInfo};
use crate::input::{self, Handles, Source, SourceFile};
use crate::time::Zone;

/// Which analyses a command needs. Each one pulls in what it stands on: the census and the
/// call pairing need the turn segmentation (at least at the detail they use), and anything
/// about turns needs the usage account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Needs {
    /// `stats`' counts, its usage attributed to days in this zone and to models.
    pub census: Option<Zone>,
    /// The turn segmentation, at this detail.
    pub turns: Option<Detail>,
    /// Every call paired with its output.
    pub calls: bool,
    /// The ordinal sequence check.
    pub ordinals: bool,
    /// Where a lineage cutoff falls.
    pub boundary: Option<Cutoff>,
    /// Every line's start and ordinal, for the probe of any cutoff ([`Lines`]).
    pub lines: bool,
    /// Whether Codex's listing finds a preview.
    pub listing: bool,
    /// Keep a plain file open to read parts of its lines again ([`FileFacts::file`]).
    pub reread: bool,
}

/// The builder methods of the analyses that take an option, each setting the field of its
/// name: `Needs::default().census(zone)`.
macro_rules! with_option {
    ($($need:ident: $option:ty),+ $(,)?) => {$(
        pub fn $need(mut self, option: $option) -> Needs {
            self.$need = Some(option);
            self
        }
    )+};
}

impl Needs {
    with_option! {
        census: Zone,
        turns: Detail,
        boundary: Cutoff,
    }

    pub fn listing(mut self) -> Needs {
        self.listing = true;
        self
    }

    pub fn ordinals(mut self) -> Needs {
        self.ordinals = true;
        self
    }

    pub fn lines(mut self) -> Needs {
        self.lines = true;
        self
    }

    pub fn calls(mut self) -> Needs {
        self.calls = true;
        self
    }

    pub fn reread(mut self) -> Needs {
        self.reread = true;
        self
    }

    /// The detail the turn segmentation runs at, dependencies included.
    fn turn_detail(&self) -> Option<Detail> {
        let implied = [
            self.turns,
            self.census.map(|_| Detail::Count),
            self.calls.then_some(Detail::Place),
        ];
        implied.into_iter().flatten().max()
    }
}

/// Everything one pass over a file found. An analysis that was not asked for is `None`, and
/// so is every one when the file could not be opened ([`FileFacts::opened`]).
#[derive(Debug)]
pub struct FileFacts {
    pub source: Source,
    pub session: SessionInfo,
    pub stream: StreamInfo,
    /// Lines the decoder rejected, in file order.
    pub bad: Vec<BadLine>,
    /// Blank lines (empty, or whitespace only), in runs of consecutive ones, in file order.
    pub blank: Vec<BlankRun>,
    /// Set when the file could not be opened or read to the end: the cause, one line.
    pub io_error: Option<String>,
    /// The read stopped because the compressed stream cannot be decompressed (a truncated
    /// frame, bytes after the last one): zstd's cause. The file's content, not the reading,
    /// failed.
    pub corrupt_compression: Option<String>,
    /// False when the file could not be opened at all.
    pub opened: bool,
    pub census: Option<Census>,
    pub turn_counts: Option<TurnCounts>,
    /// The turns, at the detail asked for (`None` for a count-only segmentation).
    pub turns: Option<Turns>,
    pub calls: Option<Vec<Call>>,
    pub ordinals: Option<OrdinalReport>,
    pub boundary: Option<Probe>,
    /// Shared: a lineage reader keeps them past the file's pass.
    pub lines: Option<Arc<Lines>>,
    pub listing: Option<Listing>,
    /// Every line's extent, kept for input that cannot be read again when
    /// [`Needs::reread`] asked for the file (a plain file's lines are read back instead).
    pub held: Option<HeldLines>,
    /// The file, still open, when some call text is held as where it lies in it
    /// ([`crate::input::FileText::InFile`]), or [`Needs::reread`] asked for it.
    pub file: Option<SourceFile>,
}

/// Consecutive blank lines: the first and the last (the same line for a run of one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlankRun {
    pub first: Line,
    pub last: Line,
}

impl BlankRun {
    /// How many lines it holds.
    pub fn lines(&self) -> u64 {
        self.last.pos.line - self.first.pos.line + 1
    }
}

/// How to read.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub max_line_bytes: usize,
    /// The budget of files kept open past their pass.
    pub handles: Handles,
    /// Read only through this line: the analyses see the file as a copy cut there would
    /// be (`replay --through-turn`).
    pub until_line: Option<u64>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_line_bytes: crate::decode::DEFAULT_MAX_LINE_BYTES,
            handles: Handles::default(),
            until_line: None,
        }
    }
}

/// What a reader beside the analyses sees of each record: the record, the session so far,
/// and whether the file can be read again where the record lies (a plain file).
pub type Observer<'o> = &'o mut dyn FnMut(&Record<'_>, &SessionTracker, bool);

/// Open one source and run the analyses `needs` names over it.
pub fn read(source: &Source, opts: &ReadOptions, needs: &Needs) -> FileFacts {
    read_observed(source, opts, needs, &mut |_, _, _| {})
}

/// [`read`], handing every record to `observe` too, after the analyses saw it (a reader
/// whose state spans several files, as `replay`'s, rides along the one pass).
pub fn read_observed(
    source: &Source,
    opts: &ReadOptions,
    needs: &Needs,
    observe: Observer<'_>,
) -> FileFacts {
    // Only call texts and observed parts are ever read again, and only from a plain file.
    let opened = if needs.calls || needs.reread {
        input::open_rereadable(source)
    } else {
        input::open(source).map(|s| (s, None))
    };
    match opened {
        Ok((stream, reopen)) => {
            let file = reopen.map(|r| SourceFile::new(r, &opts.handles));
            run(stream, source.clone(), file, opts, needs, observe)
        }
        Err(e) => FileFacts {
            source: source.clone(),
            session: SessionInfo::default(),
            stream: StreamInfo::default(),
            bad: Vec::new(),
            blank: Vec::new(),
            io_error: Some(input::io_cause(&e)),
            corrupt_compression: None,
            opened: false,
            census: None,
            turn_counts: None,
            turns: None,
            calls: None,
            ordinals: None,
            boundary: None,
            lines: None,
            listing: None,
            held: None,
            file: None,
        },
    }
}

/// Run the analyses `needs` names over one stream (standard input, a test's text).
pub fn read_stream(
    stream: impl io::BufRead,
    source: Source,
    opts: &ReadOptions,
    needs: &Needs,
) -> FileFacts {
    run(stream, source, None, opts, needs, &mut |_, _, _| {})
}

/// [`read_stream`], handing every record to `observe` too (see [`read_observed`]).
pub fn read_stream_observed(
    stream: impl io::BufRead,
    source: Source,
    opts: &ReadOptions,
    needs: &Needs,
    observe: Observer<'_>,
) -> FileFacts {
    run(stream, source, None, opts, needs, observe)
}

fn run(
    stream: impl io::BufRead,
    source: Source,
    file: Option<SourceFile>,
    opts: &ReadOptions,
    needs: &Needs,
    observe: Observer<'_>,
) -> FileFacts {
    let rereadable = file.is_some();
    let mut pass = Pass::new(needs, rereadable);
    let mut held = (needs.reread && !rereadable).then(HeldLines::default);
    let mut dec = Decoder::new(stream).max_line_bytes(opts.max_line_bytes);
    let mut io_error = None;
    let mut corrupt = None;
    let until = opts.until_line.unwrap_or(u64::MAX);
    while let Some(next) = dec.next() {
        let line = match &next {
            Ok(Entry::Record(rec)) => rec.pos.line,
            Ok(Entry::Blank(l)) => l.pos.line,
            Ok(Entry::Bad(b)) => b.pos.line,
            Err(_) => 0,
        };
        if line > until {
            break;
        }
        match next {
            Ok(Entry::Record(rec)) => {
                if let Some(h) = &mut held {
                    h.push(rec.line());
                }
                pass.record(&rec);
                observe(&rec, &pass.session, rereadable);
            }
            Ok(Entry::Blank(l)) => {
                if let Some(h) = &mut held {
                    h.push(l);
                }
                pass.blank(l)
            }
            Ok(Entry::Bad(b)) => {
                if let Some(h) = &mut held {
                    h.push(b.line());
                }
                pass.bad(b)
            }
            Err(e) => {
                let cause = input::io_cause(&e);
                corrupt = input::is_corrupt_compression(&e).then(|| cause.clone());
                io_error = Some(format!("read error: {cause}"));
            }
        }
    }
    let info = dec.info().clone();
    let mut facts = pass.finish(source, info, io_error, file);
    facts.held = held;
    facts.corrupt_compression = corrupt;
    facts
}

/// The extent of every line of a file that cannot be read again (standard input, a
/// `.zst`): what a finding's span needs (a plain file's lines are read back instead).
#[derive(Debug, Default)]
pub struct HeldLines(Vec<Extent>);

#[derive(Debug, Clone, Copy)]
struct Extent {
    len: u64,
    chars: u64,
    eol: u8,
}

impl HeldLines {
    fn push(&mut self, l: Line) {
        self.0.push(Extent {
            len: l.len,
            chars: l.chars.unwrap_or(l.len),
            eol: l.eol,
        });
    }

    /// The whole line at `pos`.
    pub fn line(&self, pos: Pos) -> Option<Line> {
        let e = self
            .0
            .get(usize::try_from(pos.line.checked_sub(1)?).ok()?)?;
        Some(Line {
            pos,
            len: e.len,
            eol: e.eol,
            chars: Some(e.chars),
        })
    }
}

/// Where an increment of usage is attributed: its line, where the turn segmentation needs
/// it, and its day and model, where the census needs them. One account serves both, so each
/// usage record is read once.
#[derive(Debug, Clone, PartialEq, Eq)]
struct UsageAt {
    line: Option<u64>,
    day: Option<NaiveDate>,
    model: Option<ModelId>,
}

/// The analyses of one pass.
struct Pass {
    /// Keep the file open past the pass.
    reread: bool,
    session: SessionTracker,
    bad: Vec<BadLine>,
    blank: Vec<BlankRun>,
    census: Option<CensusCount>,
    turns: Option<TurnLog>,
    calls: Option<CallCollector>,
    ordinals: Option<OrdinalCheck>,
    boundary: Option<BoundaryProbe>,
    lines: Option<LineRecorder>,
    listing: Option<Listing>,
    usage: Option<UsageAccount<UsageAt>>,
}

impl Pass {
    fn new(needs: &Needs, rereadable: bool) -> Pass {
        let turns = needs.turn_detail().map(TurnLog::new);
        Pass {
            reread: needs.reread,
            session: SessionTracker::new(),
            bad: Vec::new(),
            blank: Vec::new(),
            census: needs.census.map(CensusCount::new),
            usage: (turns.is_some() || needs.census.is_some()).then(UsageAccount::new),
            turns,
            calls: needs.calls.then(|| CallCollector::new(rereadable)),
            // A file kept to be read again has its lines counted when a finding needs them.
            ordinals: needs
                .ordinals
                .then(|| OrdinalCheck::new(!(needs.reread && rereadable))),
            boundary: needs.boundary.map(BoundaryProbe::new),
            lines: needs.lines.then(LineRecorder::default),
            listing: needs.listing.then(Listing::default),
        }
    }

    fn record(&mut self, rec: &Record<'_>) {
        let session = &mut self.session;
        session.observe(rec);
        let session = &*session;
        if let Some(c) = &mut self.census {
            c.record(rec, session);
        }
        if let Some(t) = &mut self.turns {
            t.record(rec, session);
        }
        if let Some(c) = &mut self.calls {
            c.record(rec, session);
        }
        if let Some(o) = &mut self.ordinals {
            o.record(rec, session);
        }
        if let Some(b) = &mut self.boundary {
            b.record(rec, session);
        }
        if let Some(l) = &mut self.lines {
            l.record(rec, session);
        }
        if let Some(l) = &mut self.listing {
            l.record(rec, session);
        }
        if let Some(usage) = &mut self.usage {
            if carries_usage(rec) {
                // The segmentation needs the usage of every line (full detail), or only of
                // the lines that may begin an implicit first turn.
                let line = self
                    .turns
                    .as_ref()
                    .filter(|t| t.keeps_usage_by_line() || t.is_early_usage(rec.pos.line))
                    .map(|_| rec.pos.line);
                let census = self.census.as_ref();
                usage.feed(rec, session.provenance(), session.own_id(), || UsageAt {
                    line,
                    day: census.and_then(|c| c.day_of(rec)),
                    model: census.and_then(CensusCount::model),
                });
            }
        }
    }

    fn bad(&mut self, bad: BadLine) {
        if let Some(c) = &mut self.census {
            c.bad(&bad);
        }
        if let Some(o) = &mut self.ordinals {
            o.bad(&bad);
        }
        if let Some(b) = &mut self.boundary {
            b.bad(&bad);
        }
        if let Some(l) = &mut self.lines {
            l.bad(&bad);
        }
        self.bad.push(bad);
    }

    fn blank(&mut self, line: Line) {
        if let Some(c) = &mut self.census {
            c.blank(line);
        }
        if let Some(b) = &mut self.boundary {
            b.blank(line);
        }
        if let Some(l) = &mut self.lines {
            l.blank(line);
        }
        match self.blank.last_mut() {
            Some(run) if run.last.pos.line + 1 == line.pos.line => run.last = line,
            _ => self.blank.push(BlankRun {
                first: line,
                last: line,
            }),
        }
    }

    fn finish(
        self,
        source: Source,
        stream: StreamInfo,
        io_error: Option<String>,
        file: Option<SourceFile>,
    ) -> FileFacts {
        let Pass {
            reread,
            session,
            bad,
            blank,
            census,
            turns,
            calls,
            ordinals,
            boundary,
            lines,
            listing,
            usage,
        } = self;
        let usage = usage.map(UsageAccount::finish).unwrap_or_default();
        // By line, sorted and summed per line (the account adds in line order, but for a
        // lost record's usage, added to its line at the end).
        let mut by_line: Vec<(u64, Tokens)> = usage
            .iter()
            .filter_map(|(at, t)| Some((at.line?, *t)))
            .collect();
        by_line.sort_by_key(|&(line, _)| line);
        by_line.dedup_by(|next, kept| {
            let same = next.0 == kept.0;
            if same {
                kept.1 += next.1;
            }
            same
        });
        let mut by_day_model: BTreeMap<(Option<NaiveDate>, Option<ModelId>), Tokens> =
            BTreeMap::new();
        if census.is_some() {
            for (at, t) in usage {
                *by_day_model.entry((at.day, at.model)).or_default() += t;
            }
        }
        let (turn_counts, turns) = match turns {
            None => (None, None),
            Some(log) if log.detail() == Detail::Count => (Some(log.count(&by_line)), None),
            Some(log) => {
                let turns = log.finish(&by_line);
                (Some(turns.counts), Some(turns))
            }
        };
        // The file stays open only while some row's text is held as where it lies.
        let keep_file = reread || calls.as_ref().is_some_and(CallCollector::points_into_file);
        let calls = match (calls, &turns) {
            (Some(c), Some(t)) => Some(c.finish(t)),
            _ => None,
        };
        let census = match (census, turn_counts) {
            (Some(c), Some(counts)) => Some(c.finish(&stream, by_day_model, counts)),
            _ => None,
        };
        FileFacts {
            source,
            bad,
            blank,
            io_error,
            corrupt_compression: None,
            opened: true,
            census,
            turn_counts,
            turns,
            calls,
            ordinals: ordinals.map(|o| o.finish(&stream)),
            boundary: boundary.map(|b| b.finish(&session, &stream)),
            lines: lines
                .and_then(|l| l.finish(&session, &stream))
                .map(Arc::new),
            listing,
            held: None,
            file: file.filter(|_| keep_file),
            session: session.into_info(),
            stream,
        }
    }
}
