//! Human tables: buffered rows, rendered once with sized columns.
//!
//! Every cell's text is cleaned of control and escape sequences when it is made
//! ([`Cell::text`]), so nothing from a rollout reaches the terminal raw. Styling (bold
//! header and footer, dim or red cells) is written as ANSI and removed again by
//! `anstream` when color is off.

use owo_colors::OwoColorize;
use tabled::builder::Builder;
use tabled::settings::object::{Columns, Rows};
use tabled::settings::{Alignment, Modify, Style};

use super::sanitize;

/// Horizontal alignment of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A column: header and alignment.
#[derive(Debug, Clone)]
pub struct Column {
    pub name: &'static str,
    pub align: Align,
}

impl Column {
    pub const fn left(name: &'static str) -> Column {
        Column {
            name,
            align: Align::Left,
        }
    }
    pub const fn right(name: &'static str) -> Column {
        Column {
            name,
            align: Align::Right,
        }
    }

    /// The columns of a table whose rows may come from many files: a `file` column first
    /// when they do, then `rest`.
    pub fn with_file(many_files: bool, rest: impl IntoIterator<Item = Column>) -> Vec<Column> {
        let file = many_files.then(|| Column::left("file"));
        file.into_iter().chain(rest).collect()
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

/// One table cell.
#[derive(Debug, Clone, Default)]
pub struct Cell {
    text: String,
    tone: Tone,
}

impl Cell {
    /// Untrusted text, cleaned.
    pub fn text(s: &str) -> Cell {
        Cell {
            text: sanitize::clean(s).into_owned(),
            tone: Tone::Plain,
        }
    }
    /// Untrusted text cut to `max` characters.
    pub fn cut(s: &str, max: usize) -> Cell {
        Cell {
            text: sanitize::cut(s, max),
            tone: Tone::Plain,
        }
    }
    /// A path keeping its end.
    pub fn path(s: &str, max: usize) -> Cell {
        Cell {
            text: sanitize::cut_left(s, max),
            tone: Tone::Plain,
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
            tone: Tone::Plain,
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

    /// A timestamp to the second: `2026-11-29 12:00:31`; as written when it is shorter.
    pub fn time(ts: Option<&str>) -> Cell {
        match ts {
            Some(t) if t.len() >= 19 && t.is_char_boundary(19) => {
                Cell::text(&t[..19].replace('T', " "))
            }
            other => Cell::opt(other),
        }
    }

    pub fn tone(mut self, tone: Tone) -> Cell {
        self.tone = tone;
        self
    }

    /// The text with its tone as ANSI styling (removed later when color is off).
    pub(crate) fn render(&self) -> String {
        match self.tone {
            Tone::Plain => self.text.clone(),
            Tone::Dim => self.text.dimmed().to_string(),
            Tone::Good => self.text.green().to_string(),
            Tone::Warn => self.text.yellow().to_string(),
            Tone::Bad => self.text.red().to_string(),
        }
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

/// A buffered table.
#[derive(Debug)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<Cell>>,
    footer: Option<Vec<Cell>>,
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
            footer: None,
        }
    }

    pub fn push(&mut self, row: Vec<Cell>) {
        self.rows.push(row);
    }

    pub fn footer(&mut self, row: Vec<Cell>) {
        self.footer = Some(row);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.footer.is_none()
    }

    /// Render with ANSI styling (stripped later when color is off).
    pub fn render(&self) -> String {
        let mut b = Builder::default();
        b.push_record(self.columns.iter().map(|c| c.name.bold().to_string()));
        let width = self.columns.len();
        for row in &self.rows {
            b.push_record(pad(row.iter().map(Cell::render).collect(), width));
        }
        if let Some(f) = &self.footer {
            b.push_record(pad(
                f.iter().map(|c| c.render().bold().to_string()).collect(),
                width,
            ));
        }
        let mut t = b.build();
        t.with(Style::sharp());
        for (i, c) in self.columns.iter().enumerate() {
            if c.align == Align::Right {
                t.with(Modify::new(Columns::single(i)).with(Alignment::right()));
            }
        }
        t.with(Modify::new(Rows::first()).with(Alignment::left()));
        let mut s = t.to_string();
        s.push('\n');
        s
    }
}

fn pad(mut v: Vec<String>, width: usize) -> Vec<String> {
    v.resize(width, String::new());
    v
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
        assert_eq!(
            text(Cell::time(Some("2026-11-29T12:00:31.628Z"))),
            "2026-11-29 12:00:31"
        );
        assert_eq!(text(Cell::time(Some("t"))), "t");
    }

    #[test]
    fn cells_never_carry_escape_sequences() {
        let c = Cell::text("evil\x1b[2Jtext");
        assert_eq!(c.text, "eviltext");
    }
}
