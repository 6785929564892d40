//! Human tables: buffered rows, rendered once, fitted to the terminal.
//!
//! Every cell's text is cleaned of control and escape sequences when it is made
//! ([`Cell::text`]), so nothing from a rollout reaches the terminal raw. Styling (bold
//! header and footer, dim or red cells) is written as ANSI and removed again by
//! `anstream` when color is off.
//!
//! A table's width is decided when it is rendered ([`Shape`]): on a terminal, the
//! terminal's width (`COLUMNS` wins over the measured one); in a pipe or a file, no limit,
//! so nothing is cut, unless `--width` sets one. How a table gives way is [`fit`]'s.

use std::collections::HashSet;
use std::io::IsTerminal;

use owo_colors::OwoColorize;
use tabled::builder::Builder;
use tabled::settings::object::{Columns, Rows};
use tabled::settings::style::HorizontalLine;
use tabled::settings::{Alignment, Modify, Style};

use super::fit::{self, Give, Need};
use super::{glyphs, sanitize};
use crate::time::Zone;

/// Horizontal alignment of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A column: its header (also its name for `--columns`), the NDJSON field it shows, how
/// it gives way to a narrow terminal, and whether it is shown unless asked for.
#[derive(Debug, Clone)]
pub struct Column {
    pub name: &'static str,
    /// The row field the column shows (`tokens.total_tokens`); empty for a picture.
    pub field: &'static str,
    pub align: Align,
    pub give: Give,
    /// Importance, 0 to 9: on a narrow terminal the lowest goes first.
    pub rank: u8,
    /// Shown without `--columns` asking for it.
    pub shown: bool,
    /// Its cells are times: the header says which clock.
    pub clock: bool,
    /// What a column without a field shows (a picture, a time read from the line).
    pub about: &'static str,
    /// The text the table is read for: kept at least [`fit::WIDE_MIN`] wide when it has
    /// that much, lesser columns dropped first.
    pub wide: bool,
    /// Hidden, but shown (unless `--columns` chose) when two rows alike in the column of
    /// this name differ in this one: the path, when two files hold one session.
    pub alike: Option<&'static str>,
}

/// How many columns [`Column::after_file`] puts first: `session`, `started`, `path`.
pub const FILE_COLUMNS: usize = 3;

impl Column {
    pub const fn left(name: &'static str) -> Column {
        Column {
            name,
            field: name,
            align: Align::Left,
            give: Give::Fixed,
            rank: 5,
            shown: true,
            clock: false,
            about: "",
            wide: false,
            alike: None,
        }
    }
    pub const fn right(name: &'static str) -> Column {
        Column {
            align: Align::Right,
            ..Column::left(name)
        }
    }
    /// The field shown, when it is not the header's name.
    pub const fn field(mut self, field: &'static str) -> Column {
        self.field = field;
        self
    }
    pub const fn rank(mut self, rank: u8) -> Column {
        self.rank = rank;
        self
    }
    /// Cut at its end when the table must narrow.
    pub const fn text(mut self) -> Column {
        self.give = Give::Text;
        self
    }
    /// The text the table is read for ([`Column::wide`]'s field).
    pub const fn wide(mut self) -> Column {
        self.give = Give::Text;
        self.wide = true;
        self
    }
    /// A path, cut in its middle when the table must narrow.
    pub const fn path(mut self) -> Column {
        self.give = Give::Path;
        self
    }
    /// A bar of each row's [`Cell::bar`], showing what `about` says.
    pub const fn bar(mut self, about: &'static str) -> Column {
        self.give = Give::Bar;
        self.field = "";
        self.about = about;
        self
    }
    /// No row field: what it shows instead.
    pub const fn derived(mut self, about: &'static str) -> Column {
        self.field = "";
        self.about = about;
        self
    }
    /// Times, from [`Cell::time`].
    pub const fn clock(mut self) -> Column {
        self.clock = true;
        self
    }
    /// Shown only when `--columns` names it.
    pub const fn hidden(mut self) -> Column {
        self.shown = false;
        self
    }

    /// A table of rows that may come from many files: the file's columns
    /// ([`Column::file`]), then `rest`.
    pub fn after_file(many_files: bool, rest: impl IntoIterator<Item = Column>) -> Vec<Column> {
        Column::file(many_files).into_iter().chain(rest).collect()
    }

    /// The columns that name the file of a row, in a table whose rows may come from many
    /// files. A person tells sessions apart by a short thread id and a start time, not by
    /// a path cut in its middle: `session` (the thread id's last 8 characters) and
    /// `started` (its start, to the minute) are shown when the rows come from several
    /// files; `path` only when asked for, or when two files of the table hold one session
    /// (copies, a thread in two files), the one thing that tells their rows apart.
    pub const fn file(many_files: bool) -> [Column; FILE_COLUMNS] {
        let session = Column::left("session")
            .derived("the last 8 characters of the session's `thread_id`")
            .rank(9);
        let started = Column::left("started")
            .derived("the session's start (`started_at` of `stats`), to the minute")
            .clock()
            .rank(4);
        let path = Column::left("path").path().rank(9).hidden();
        if many_files {
            [session, started, path.shown_when_alike("session")]
        } else {
            [session.hidden(), started.hidden(), path]
        }
    }

    /// Hidden, but shown when rows alike in column `by` differ in this one.
    pub const fn shown_when_alike(mut self, by: &'static str) -> Column {
        self.alike = Some(by);
        self
    }
}

/// How a cell is emphasised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tone {
    #[default]
    Plain,
    Dim,
    Good,
    Warn,
    Bad,
}

/// The clock a time cell was read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Clock {
    Utc,
    /// Local time, at this offset from UTC (seconds).
    Local(i32),
}

/// One table cell.
#[derive(Debug, Clone, Default)]
pub struct Cell {
    text: String,
    tone: Tone,
    /// A bar cell's value: the bar is as long against its column's width as the value
    /// is against the column's largest.
    bar: Option<f64>,
    clock: Option<Clock>,
}

impl Cell {
    /// Untrusted text, cleaned.
    pub fn text(s: &str) -> Cell {
        Cell {
            text: sanitize::clean(s).into_owned(),
            ..Cell::default()
        }
    }
    /// A row's status, marked `(inherited)` when the row was copied from a parent session.
    pub fn status(status: &str, inherited: bool) -> Cell {
        if inherited {
            Cell::text(&format!("{status} (inherited)"))
        } else {
            Cell::text(status)
        }
    }
    /// An optional value; `-` when absent.
    pub fn opt<T: ToString>(v: Option<T>) -> Cell {
        match v {
            Some(v) => Cell::text(&v.to_string()),
            None => Cell::text("-").tone(Tone::Dim),
        }
    }
    /// A number with thousands separators.
    pub fn num(n: u64) -> Cell {
        Cell {
            text: thousands(n),
            ..Cell::default()
        }
    }
    /// A duration: `340ms`, `1.2s`, `2m05s`, `1h02m`; `-` when absent.
    pub fn duration(ms: Option<u64>) -> Cell {
        let Some(ms) = ms else {
            return Cell::opt(None::<&str>);
        };
        let text = if ms < 1000 {
            format!("{ms}ms")
        } else if ms < 60_000 {
            format!("{:.1}s", ms as f64 / 1000.0)
        } else if ms < 3_600_000 {
            format!("{}m{:02}s", ms / 60_000, (ms / 1000) % 60)
        } else {
            format!("{}h{:02}m", ms / 3_600_000, (ms / 60_000) % 60)
        };
        Cell::text(&text)
    }

    /// A timestamp on `zone`'s clock, to the second (`2026-11-29 12:00:31`) or the minute;
    /// as written when it does not parse, `-` when absent.
    pub fn time(ts: Option<&str>, zone: Zone, seconds: bool) -> Cell {
        let Some(ts) = ts else {
            return Cell::opt(None::<&str>);
        };
        let Some((at, offset)) = zone.clock(ts) else {
            return Cell::text(ts);
        };
        let format = if seconds {
            "%Y-%m-%d %H:%M:%S"
        } else {
            "%Y-%m-%d %H:%M"
        };
        Cell {
            text: at.format(format).to_string(),
            clock: Some(match zone {
                Zone::Utc => Clock::Utc,
                Zone::Local => Clock::Local(offset),
            }),
            ..Cell::default()
        }
    }

    /// A bar of `value`, drawn against the largest value of its column.
    pub fn bar(value: f64) -> Cell {
        Cell {
            bar: Some(value),
            tone: Tone::Dim,
            ..Cell::default()
        }
    }

    /// A line of text wrapped at words to `width` columns (continuation lines indented
    /// by two), each line a cell of the same tone.
    pub fn wrapped(self, width: usize) -> Vec<Cell> {
        let tone = self.tone;
        super::prose::wrap("", &self.text, 2, width)
            .iter()
            .map(|l| Cell::text(l).tone(tone))
            .collect()
    }

    pub fn tone(mut self, tone: Tone) -> Cell {
        self.tone = tone;
        self
    }

    /// `text` with its tone as ANSI styling (removed later when color is off).
    fn styled(&self, text: &str) -> String {
        if text.is_empty() {
            return String::new();
        }
        match self.tone {
            Tone::Plain => text.to_string(),
            Tone::Dim => text.dimmed().to_string(),
            Tone::Good => text.green().to_string(),
            Tone::Warn => text.yellow().to_string(),
            Tone::Bad => text.red().to_string(),
        }
    }

    /// The text with its tone, uncut (for plain lines, not tables).
    pub(crate) fn render(&self) -> String {
        self.styled(&self.text)
    }
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How wide a table may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Width {
    /// The terminal's width when stdout is one (`COLUMNS` first), else no limit.
    #[default]
    Auto,
    /// At most this many columns, terminal or not.
    At(usize),
    /// No limit: nothing is cut.
    Unlimited,
}

impl Width {
    /// The limit for this run, if any.
    pub fn budget(self) -> Option<usize> {
        match self {
            Width::At(n) => Some(n),
            Width::Unlimited => None,
            Width::Auto => std::io::stdout()
                .is_terminal()
                .then(terminal_width)
                .flatten(),
        }
    }
}

/// The terminal's width when stdout is one (`COLUMNS` first), else `None` (a pipe, a
/// file): what human diagnostics and `lint --explain` fit.
pub fn stdout_width() -> Option<usize> {
    Width::Auto.budget()
}

/// The terminal's width when stderr is one (`COLUMNS` first), else `None`: what the
/// closing count on stderr fits.
pub fn stderr_width() -> Option<usize> {
    std::io::stderr().is_terminal().then(|| {
        columns().unwrap_or_else(|| {
            terminal_size::terminal_size_of(std::io::stderr())
                .map(|(w, _)| w.0 as usize)
                .filter(|&n| n > 0)
                .unwrap_or(80)
        })
    })
}

/// `COLUMNS`, when it is a number.
fn columns() -> Option<usize> {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
}

/// `COLUMNS` when it is a number, else the terminal's measured width, else 80 (a
/// terminal that does not say its size).
fn terminal_width() -> Option<usize> {
    columns().or_else(|| {
        terminal_size::terminal_size_of(std::io::stdout())
            .map(|(w, _)| w.0 as usize)
            .filter(|&n| n > 0)
            .or(Some(80))
    })
}

/// What the user chose of a table's shape: its width, and its columns.
#[derive(Debug, Clone, Default)]
pub struct Shape {
    pub width: Width,
    /// Column names, in the order to show them; empty: the table's own choice.
    pub columns: Vec<String>,
}

/// A buffered table.
#[derive(Debug)]
pub struct Table {
    columns: Vec<Column>,
    /// The columns to show, in order, and whether the user chose them.
    shown: Vec<usize>,
    chosen: bool,
    width: Width,
    rows: Vec<Vec<Cell>>,
    footer: Option<Vec<Cell>>,
    /// A line under the table.
    caption: Option<String>,
    /// The footer's name (`9 turns`), in the first column shown whose footer cell is empty.
    footer_label: Option<String>,
}

impl Table {
    /// A table of `columns`, as wide as `width` lets it be, showing the columns they show
    /// by default (see [`Table::choose`]).
    pub fn new(columns: Vec<Column>, width: Width) -> Table {
        let shown = columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.shown)
            .map(|(i, _)| i)
            .collect();
        Table {
            columns,
            shown,
            chosen: false,
            width,
            rows: Vec::new(),
            footer: None,
            caption: None,
            footer_label: None,
        }
    }

    /// Show these columns, in this order (`--columns`); an unknown name is an error naming
    /// the columns there are. None named: the table's own choice stays.
    pub fn choose(&mut self, names: &[String]) -> Result<(), String> {
        // `index,` is `index`: an empty name (a trailing comma) names nothing.
        let names: Vec<&str> = names
            .iter()
            .map(|n| n.trim())
            .filter(|n| !n.is_empty())
            .collect();
        if names.is_empty() {
            return Ok(());
        }
        let mut shown = Vec::new();
        for name in names {
            match self.columns.iter().position(|c| c.name == name) {
                Some(i) if !shown.contains(&i) => shown.push(i),
                Some(_) => {}
                None => {
                    let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
                    return Err(format!(
                        "--columns: this table has no column `{name}`; its columns: {}",
                        names.join(", ")
                    ));
                }
            }
        }
        self.shown = shown;
        self.chosen = true;
        Ok(())
    }

    pub fn set_width(&mut self, width: Width) {
        self.width = width;
    }

    pub fn push(&mut self, row: Vec<Cell>) {
        self.rows.push(row);
    }

    /// Name the footer: the label goes in the first column shown whose footer cell is
    /// empty, so it stays whichever columns the width leaves.
    pub fn footer_label(&mut self, text: &str) {
        self.footer_label = Some(text.to_string());
    }

    pub fn caption(&mut self, text: &str) {
        self.caption = Some(sanitize::clean(text).into_owned());
    }

    pub fn footer(&mut self, row: Vec<Cell>) {
        self.footer = Some(row);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.footer.is_none()
    }

    /// Render with ANSI styling (stripped later when color is off), fitted to the width.
    pub fn render(&self) -> String {
        self.render_at(self.width.budget(), glyphs::unicode())
    }

    /// Render within `budget` columns (none: no limit), in Unicode or ASCII.
    pub fn render_at(&self, budget: Option<usize>, unicode: bool) -> String {
        let ellipsis = glyphs::ellipsis(unicode);
        let headers: Vec<String> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| self.header(i, c))
            .collect();
        // A row shorter than the columns has empty cells at its end. Tables trim their
        // cells (plain lines keep their indentation).
        static EMPTY: Cell = Cell {
            text: String::new(),
            tone: Tone::Plain,
            bar: None,
            clock: None,
        };
        fn cell(row: &[Cell], i: usize) -> &Cell {
            row.get(i).unwrap_or(&EMPTY)
        }
        // A time column on a local clock whose offset changes within the table (daylight
        // saving) shows each time's offset, or an hour could read twice.
        let mixed: Vec<bool> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| c.clock && self.clocks(i).len() > 1)
            .collect();
        // Every index `i` below is a column's: from the loop over the columns, or from the
        // plan, which holds only shown columns (`new` and `choose` make `shown` of column
        // indices). `headers`, `mixed` and `most` have one entry a column.
        #[allow(clippy::indexing_slicing, reason = "a column's index")]
        let text_of = |c: &'_ Cell, i: usize| -> String {
            match c.clock {
                Some(Clock::Local(off)) if mixed[i] => format!("{} {}", c.text.trim(), offset(off)),
                _ => c.text.trim().to_string(),
            }
        };
        // What each column needs; a path column also where its cut goes.
        let mut needs = Vec::with_capacity(self.columns.len());
        for (((i, c), header), &mixed) in self.columns.iter().enumerate().zip(&headers).zip(&mixed)
        {
            let body = self.rows.iter().map(|r| cell(r, i));
            let widest = body
                .chain(self.footer.iter().map(|f| cell(f, i)))
                .map(|c| match c.clock {
                    Some(_) if mixed => fit::width(&text_of(c, i)),
                    _ => fit::width(c.text.trim()),
                })
                .max()
                .unwrap_or(0);
            let natural = match c.give {
                Give::Bar => fit::BAR_WIDTH,
                _ => widest,
            }
            .max(fit::width(header));
            // A text's width is set by its typical cells; a rare long one is cut.
            let typical = match c.give {
                Give::Text => fit::typical(
                    self.rows
                        .iter()
                        .map(|r| fit::width(cell(r, i).text.trim()))
                        .collect(),
                )
                .max(fit::width(header))
                .min(natural),
                _ => natural,
            };
            let min = match c.give {
                Give::Fixed => natural,
                Give::Text if c.wide => fit::WIDE_MIN.max(fit::width(header)).min(typical),
                Give::Text => fit::TEXT_MIN.max(fit::width(header)).min(typical),
                Give::Bar => fit::BAR_MIN.max(fit::width(header)).min(natural),
                // Without a width to fit, nothing is cut: no need to know how far.
                Give::Path if budget.is_none() => natural,
                Give::Path => {
                    let paths = self.paths(i);
                    fit::path_min(&paths, natural, ellipsis).max(fit::width(header))
                }
            };
            needs.push(Need {
                give: c.give,
                rank: c.rank,
                natural,
                min,
                typical,
            });
        }
        let plan = fit::plan(&needs, &self.shown_now(), budget, self.chosen);
        // The footer, its label in the first shown column free for it.
        let footer: Option<Vec<Cell>> = self.footer.as_ref().map(|f| {
            let mut f = f.clone();
            if let Some(label) = &self.footer_label {
                // Of the empty cells, the first wide enough, else the widest.
                let empty: Vec<(usize, usize)> = plan
                    .iter()
                    .copied()
                    .filter(|&(i, _)| {
                        f.get(i)
                            .is_none_or(|c| c.text.trim().is_empty() && c.bar.is_none())
                    })
                    .collect();
                let fits = empty.iter().find(|&&(_, w)| w >= fit::width(label));
                let free = fits
                    .or_else(|| empty.iter().max_by_key(|&&(_, w)| w))
                    .map(|&(i, _)| i);
                if let Some(i) = free {
                    if f.len() <= i {
                        f.resize(i + 1, Cell::default());
                    }
                    if let Some(cell) = f.get_mut(i) {
                        *cell = Cell::text(label);
                    }
                }
            }
            f
        });

        let mut b = Builder::default();
        #[allow(clippy::indexing_slicing, reason = "a column's index")]
        b.push_record(plan.iter().map(|&(i, _)| headers[i].bold().to_string()));
        #[allow(clippy::indexing_slicing, reason = "a column's index")]
        let heads: Vec<Option<usize>> = plan
            .iter()
            .map(|&(i, w)| match self.columns[i].give {
                Give::Path => fit::path_head(&self.paths(i), w, ellipsis),
                _ => None,
            })
            .collect();
        let most: Vec<f64> = (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(i)?.bar)
                    .filter(|v| v.is_finite())
                    .fold(0.0, f64::max)
            })
            .collect();
        #[allow(clippy::indexing_slicing, reason = "a column's index")]
        let shown = |row: &[Cell], footer: bool| -> Vec<String> {
            plan.iter()
                .zip(&heads)
                .map(|(&(i, w), head)| {
                    let c = cell(row, i);
                    let owned = text_of(c, i);
                    let trimmed = owned.as_str();
                    let text = match (self.columns[i].give, c.bar) {
                        (_, Some(v)) if most[i] > 0.0 => fit::bar(v / most[i], w, unicode),
                        (_, Some(_)) => String::new(),
                        (Give::Path, None) if !footer => match head {
                            Some(h) => fit::cut_middle(trimmed, w, *h, ellipsis),
                            None => trimmed.to_string(),
                        },
                        // Nothing is cut without a width to fit: a long text wraps.
                        (Give::Text, None) if budget.is_none() => fit::wrap(trimmed, w),
                        _ => fit::cut_end(trimmed, w, ellipsis),
                    };
                    let styled = c.styled(&text);
                    if footer && !text.is_empty() {
                        styled.bold().to_string()
                    } else {
                        styled
                    }
                })
                .collect()
        };
        for row in &self.rows {
            b.push_record(shown(row, false));
        }
        if let Some(f) = &footer {
            b.push_record(shown(f, true));
        }
        let mut t = b.build();
        if unicode {
            t.with(Style::sharp());
        } else {
            // Sharp's shape in ASCII: a line under the header, none between rows.
            t.with(
                Style::ascii()
                    .remove_horizontal()
                    .horizontals([(1, HorizontalLine::full('-', '+', '+', '+'))]),
            );
        }
        for (at, &(i, _)) in plan.iter().enumerate() {
            if self.columns.get(i).is_some_and(|c| c.align == Align::Right) {
                t.with(Modify::new(Columns::single(at)).with(Alignment::right()));
            }
        }
        t.with(Modify::new(Rows::first()).with(Alignment::left()));
        let mut s = t.to_string();
        s.push('\n');
        if let Some(c) = &self.caption {
            match budget {
                Some(w) => s.push_str(&fit::cut_end(c, w, ellipsis)),
                None => s.push_str(c),
            }
            s.push('\n');
        }
        s
    }

    /// The columns to show, in order: those chosen or shown by default, and a column shown
    /// when alike ([`Column::shown_when_alike`]) whose rows need it, in its place.
    fn shown_now(&self) -> Vec<usize> {
        let mut shown = self.shown.clone();
        if self.chosen {
            return shown;
        }
        fn text(r: &[Cell], i: usize) -> &str {
            r.get(i).map_or("", |c| c.text.trim())
        }
        for (i, c) in self.columns.iter().enumerate() {
            let Some(by) = c.alike else {
                continue;
            };
            let Some(j) = self.columns.iter().position(|c| c.name == by) else {
                continue;
            };
            if shown.contains(&i) || !shown.contains(&j) {
                continue;
            }
            let mut seen = std::collections::HashMap::new();
            let alike = self
                .rows
                .iter()
                .any(|r| *seen.entry(text(r, j)).or_insert(text(r, i)) != text(r, i));
            if alike {
                let at = shown.iter().position(|&s| s > i).unwrap_or(shown.len());
                shown.insert(at, i);
            }
        }
        shown
    }

    /// The clocks of column `i`'s times.
    fn clocks(&self, i: usize) -> HashSet<Clock> {
        self.rows.iter().filter_map(|r| r.get(i)?.clock).collect()
    }

    /// The distinct texts of column `i`'s rows.
    fn paths(&self, i: usize) -> HashSet<&str> {
        self.rows
            .iter()
            .filter_map(|r| r.get(i))
            .map(|c| c.text.trim())
            .collect()
    }

    /// The header of column `c`, at `i`: its name, and for times the clock they are on: `(UTC)`, the
    /// local offset (`(+14:00)`) when every row has the same one, else `(local)` (and each
    /// time then shows its own offset).
    fn header(&self, i: usize, c: &Column) -> String {
        if !c.clock {
            return c.name.to_string();
        }
        let clocks = self.clocks(i);
        let mut it = clocks.iter();
        let note = match (it.next(), it.next()) {
            (None, _) => return c.name.to_string(),
            (Some(Clock::Utc), None) => "UTC".to_string(),
            (Some(Clock::Local(off)), None) => offset(*off),
            _ => "local".to_string(),
        };
        format!("{} ({note})", c.name)
    }
}

/// The catalog of tables (`docs/columns.md`): for each table, its columns, the NDJSON
/// field each one shows, and how it gives way on a narrow terminal.
pub fn catalog_markdown(tables: &[(&str, Vec<Column>)]) -> String {
    let mut md = String::from(
        "# Table columns\n\n\
         <!-- Generated from the column definitions by `cargo test` (BLESS=1 rewrites it). -->\n\n\
         A table's header is the name of the NDJSON field its column shows, or, where the cell\n\
         shows the field in another form (a duration, a group's key, a token count of the\n\
         nested `tokens`), a short name this page maps to the field. The same names pick\n\
         columns with `--columns`.\n\n\
         On a terminal narrower than the table, the columns of lowest importance go first\n\
         (9 goes last); then texts are cut at their end and paths in their middle. A path is\n\
         never cut so far that two files look alike. A column marked *hidden* is shown only\n\
         when `--columns` names it. Rows of several files name their session by `session` (the\n\
         thread id's last 8 characters) and `started`; `path` is shown only when two files\n\
         hold one session, or when `--columns` names it (NDJSON rows always carry it).\n\
         A text is first cut to the width that holds 90% of its cells, so one rare long\n\
         value never takes the width of the others.\n\
         Times are local unless `--utc` is given; their header says which clock\n\
         (`started_at (UTC)`, `started_at (+01:00)`, or `(local)` when the offsets differ).\n",
    );
    for (command, columns) in tables {
        md.push_str(&format!(
            "\n## `rollscope {command}`\n\n\
             | column | field | importance | on a narrow terminal |\n\
             |---|---|---|---|\n"
        ));
        for c in columns {
            let field = if c.field.is_empty() {
                format!("({})", c.about)
            } else {
                format!("`{}`", c.field)
            };
            let give = match c.give {
                Give::Fixed => "shown whole or dropped",
                Give::Text if c.wide => "cut at its end, kept 40 wide before others stay",
                Give::Text => "cut at its end",
                Give::Path => "cut in its middle",
                Give::Bar => "drawn narrower",
            };
            let mut notes = vec![give.to_string()];
            if c.clock {
                notes.push("a time: its header names the clock".into());
            }
            if let (false, Some(by)) = (c.shown, c.alike) {
                notes.push(format!("hidden unless two files share a `{by}`"));
            } else if !c.shown {
                notes.push("hidden".into());
            }
            md.push_str(&format!(
                "| `{}` | {field} | {} | {} |\n",
                c.name,
                c.rank,
                notes.join("; ")
            ));
        }
    }
    md
}

/// `+14:00`, `-09:30`, `+00:00`.
fn offset(secs: i32) -> String {
    let sign = if secs < 0 { '-' } else { '+' };
    let m = secs.unsigned_abs() / 60;
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(17178), "17,178");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn durations_and_times() {
        let text = |c: Cell| c.text;
        assert_eq!(text(Cell::duration(Some(340))), "340ms");
        assert_eq!(text(Cell::duration(Some(1_200))), "1.2s");
        assert_eq!(text(Cell::duration(Some(125_000))), "2m05s");
        assert_eq!(text(Cell::duration(Some(3_720_000))), "1h02m");
        assert_eq!(text(Cell::duration(None)), "-");
        let ts = Some("2026-11-29T12:00:31.628Z");
        assert_eq!(text(Cell::time(ts, Zone::Utc, true)), "2026-11-29 12:00:31");
        assert_eq!(text(Cell::time(ts, Zone::Utc, false)), "2026-11-29 12:00");
        assert_eq!(text(Cell::time(Some("t"), Zone::Utc, true)), "t");
    }

    #[test]
    fn offsets_are_signed_hours_and_minutes() {
        assert_eq!(offset(14 * 3600), "+14:00");
        assert_eq!(offset(-(9 * 3600 + 1800)), "-09:30");
        assert_eq!(offset(0), "+00:00");
    }

    #[test]
    fn cells_never_carry_escape_sequences() {
        let c = Cell::text("evil\x1b[2Jtext");
        assert_eq!(c.text, "eviltext");
    }

    fn table(width: Width, columns: &[&str]) -> Table {
        let cols = vec![
            Column::left("path").path().rank(9),
            Column::right("n").rank(3),
            Column::left("note").text().rank(1),
        ];
        let mut t = Table::new(cols, width);
        let names: Vec<String> = columns.iter().map(|s| s.to_string()).collect();
        t.choose(&names).unwrap();
        for (p, n) in [
            ("a/sessions/x/rollout-1.jsonl", 1),
            ("b/sessions/x/rollout-1.jsonl", 2),
        ] {
            t.push(vec![
                Cell::text(p),
                Cell::num(n),
                Cell::text(&"word ".repeat(30)),
            ]);
        }
        t
    }

    /// `s` without the styling ANSI (as anstream writes it with color off).
    fn plain(s: &str) -> String {
        let mut out = String::new();
        let mut esc = false;
        for c in s.chars() {
            match (esc, c) {
                (false, '\u{1b}') => esc = true,
                (true, 'm') => esc = false,
                (true, _) => {}
                (false, c) => out.push(c),
            }
        }
        out
    }

    fn widest(s: &str) -> usize {
        plain(s).lines().map(fit::width).max().unwrap_or(0)
    }

    #[test]
    fn a_table_fits_its_budget_and_is_whole_without_one() {
        let t = table(Width::Auto, &[]);
        let whole = plain(&t.render_at(None, true));
        assert_eq!(whole.matches("word").count(), 60, "{whole}");
        assert!(!whole.contains('…'), "{whole}");
        for budget in [40, 60, 80] {
            let s = t.render_at(Some(budget), true);
            assert!(widest(&s) <= budget, "{budget}:\n{s}");
            // The paths give first, and stay apart.
            assert!(s.contains("│ a/") && s.contains("│ b/"), "{s}");
        }
    }

    #[test]
    fn chosen_columns_come_in_the_order_given_and_unknown_ones_are_named() {
        let t = table(Width::Auto, &["n", "path"]);
        let s = plain(&t.render_at(None, true));
        let header = s.lines().nth(1).unwrap();
        assert!(
            header.find(" n ").unwrap() < header.find("path").unwrap(),
            "{s}"
        );
        assert!(!s.contains("note"));
        let err = Table::new(vec![Column::left("a")], Width::Auto)
            .choose(&["b".into()])
            .unwrap_err();
        assert!(
            err.contains("no column `b`") && err.contains(": a"),
            "{err}"
        );
    }

    #[test]
    fn ascii_tables_have_ascii_borders_and_cut_marks() {
        let s = plain(&table(Width::Auto, &[]).render_at(Some(28), false));
        assert!(s.is_ascii(), "{s}");
        assert!(s.contains("..."), "{s}");
    }
}
