//! The output layer: the only code that writes to stdout (rows) and stderr (diagnostics).
//! Clippy enforces it: `clippy.toml` disallows `println!`, `eprintln!`, `std::io::stdout`
//! and their kin everywhere else.
//!
//! A subcommand hands [`Out`] one row at a time, as a serializable object (NDJSON/JSON) plus
//! its table cells. NDJSON rows are written as they come and flushed at the end of each
//! file's rows ([`FileRows`]), or at each row when stdout is a terminal, so `| head` sees a
//! file's rows as soon as the file is read; `json` streams one array; only the table
//! buffers, to size its columns. The
//! format is always what the user asked for (table by default); only color looks at the
//! terminal (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`), and JSON is never colored. With
//! `--jq` ([`Out::filtered`]) the JSON rows go through the filter instead ([`jq`]): each
//! NDJSON row as it comes, a JSON array held to be filtered whole at the end.

#![allow(clippy::disallowed_macros, clippy::disallowed_methods)]

pub mod diag;
pub mod diagnostics;
pub mod fit;
pub mod glyphs;
pub mod jq;
pub mod json;
pub mod lint;
pub mod markdown;
pub mod progress;
pub mod prose;
pub mod repair;
pub mod root;
pub mod rules;
pub mod sanitize;
pub mod sarif;
pub mod table;
pub mod versions;

use std::io::{self, BufWriter, Write};

use serde::Serialize;

pub use table::{Align, Cell, Column, Shape, Width};

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Table,
    Ndjson,
    Json,
}

/// The `--color` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// anstream's choice for this setting (auto honours `NO_COLOR`, `CLICOLOR_FORCE` and the
    /// terminal).
    pub fn choice(self) -> anstream::ColorChoice {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
    }
}

enum Sink {
    Ndjson(BufWriter<RowStdout>),
    Json {
        w: BufWriter<RowStdout>,
        first: bool,
    },
    Table {
        t: table::Table,
        color: ColorWhen,
    },
    /// Plain text lines instead of a table: each cell of a row is one line.
    Lines(anstream::AutoStream<Box<dyn Write + Send>>),
    /// A document written as it is made (a Markdown transcript): made safe where it was
    /// made, never colored.
    Document(BufWriter<RowStdout>),
    /// `--jq`: each row filtered as it comes (`held: None`, NDJSON), or the rows held, to be
    /// filtered as one array at the end (JSON).
    Jq {
        f: Box<jq::Filtered<BufWriter<RowStdout>>>,
        held: Option<Vec<jaq_json::Val>>,
    },
}

/// `1 file`, `3 files`: a count and its noun (plural with an `s`).
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!(
        "{} {noun}{}",
        table::thousands(n),
        if n == 1 { "" } else { "s" }
    )
}

/// Rows to stdout in the chosen format.
pub struct Out {
    sink: Sink,
    /// Rows written so far.
    rows: u64,
    /// Flush after every row (stdout is a terminal, where a person reads them and a
    /// progress bar may share the screen); else once a file's rows are written.
    flush_each_row: bool,
    /// What `--jq` says its errors in.
    color: ColorWhen,
}

/// What a command writes a file's results to: told when one file's are all written, so
/// that they go out together (one write, not one a row: `replay --for-prompt` writes
/// hundreds of thousands of rows over a Codex home). [`crate::cmd::Context`]'s loops over
/// files call it after each file.
pub trait FileRows {
    fn end_file(&mut self) -> io::Result<()>;
}

impl Out {
    /// `columns` describe the table; they are ignored by the JSON formats. The table is
    /// as wide as the terminal lets it be and shows its own choice of columns.
    pub fn new(format: Format, color: ColorWhen, columns: Vec<Column>) -> Out {
        let stdout = || BufWriter::with_capacity(64 * 1024, row_stdout());
        let sink = match format {
            Format::Ndjson => Sink::Ndjson(stdout()),
            Format::Json => Sink::Json {
                w: stdout(),
                first: true,
            },
            Format::Table => Sink::Table {
                t: table::Table::new(columns, Width::Auto),
                color,
            },
        };
        Out {
            sink,
            rows: 0,
            flush_each_row: progress::stdout_is_terminal(),
            color,
        }
    }

    /// This output, its JSON rows through `jq` when one is given (`--jq`): each NDJSON row
    /// filtered as it comes, a JSON array's rows held and filtered whole by [`Out::finish`].
    /// Tables and lines are left as they are (`--jq` takes no such format).
    pub fn filtered(mut self, jq: Option<&jq::Jq>) -> Out {
        let Some(jq) = jq else {
            return self;
        };
        let color = self.color;
        self.sink = match self.sink {
            Sink::Ndjson(w) => Sink::Jq {
                f: Box::new(jq::Filtered::new(jq.clone(), w, true, color)),
                held: None,
            },
            // Nothing is written before the first row: the array is not begun.
            Sink::Json { w, .. } => Sink::Jq {
                f: Box::new(jq::Filtered::new(jq.clone(), w, false, color)),
                held: Some(Vec::new()),
            },
            other => other,
        };
        self
    }

    /// [`Out::new`], the table shaped as the user asked (`--width`, `--columns`): an
    /// unknown column is an error naming the table's columns.
    pub fn shaped(
        format: Format,
        color: ColorWhen,
        columns: Vec<Column>,
        shape: &Shape,
    ) -> Result<Out, String> {
        // The names are checked whatever the format, so a typo never passes unseen.
        let mut t = table::Table::new(columns, shape.width);
        t.choose(&shape.columns)?;
        let mut out = Out::new(format, color, Vec::new());
        if let Sink::Table { t: table, .. } = &mut out.sink {
            *table = t;
        }
        Ok(out)
    }

    /// Like [`Out::new`], but the human format is plain lines (`path:line: message`, say)
    /// rather than a table: each cell a row's `cells` returns is one line, written at once.
    pub fn lines(format: Format, color: ColorWhen) -> Out {
        if format != Format::Table {
            return Out::new(format, color, Vec::new());
        }
        let choice = match color.choice() {
            anstream::ColorChoice::Auto => anstream::AutoStream::choice(&io::stdout()),
            c => c,
        };
        let w: Box<dyn Write + Send> = Box::new(BufWriter::with_capacity(64 * 1024, io::stdout()));
        Out {
            sink: Sink::Lines(anstream::AutoStream::new(w, choice)),
            rows: 0,
            flush_each_row: progress::stdout_is_terminal(),
            color,
        }
    }

    /// Documents instead of rows ([`Out::document`]): `replay --format markdown`.
    pub fn documents() -> Out {
        Out {
            sink: Sink::Document(BufWriter::with_capacity(64 * 1024, row_stdout())),
            rows: 0,
            flush_each_row: progress::stdout_is_terminal(),
            color: ColorWhen::Never,
        }
    }

    /// One document of [`Out::documents`], which shows `rows` rows' worth (the items of a
    /// transcript, say); ignored by other sinks.
    pub fn document(&mut self, text: &str, rows: u64) -> io::Result<()> {
        let flush = self.flush_each_row;
        let Sink::Document(w) = &mut self.sink else {
            return Ok(());
        };
        self.rows += rows;
        progress::rows(true, || {
            w.write_all(text.as_bytes())?;
            if flush {
                w.flush()?;
            }
            Ok(())
        })
    }

    /// How many rows were written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// True when rows become a table (callers may skip building cells otherwise).
    pub fn is_table(&self) -> bool {
        matches!(self.sink, Sink::Table { .. } | Sink::Lines(_))
    }

    /// One row. `cells` is only called for tables.
    pub fn row<T: Serialize>(
        &mut self,
        obj: &T,
        cells: impl FnOnce() -> Vec<Cell>,
    ) -> io::Result<()> {
        // A table is printed at the end, once the progress bar is gone; other rows go out
        // now, past the bar if it is on the same terminal.
        match self.sink {
            Sink::Table { .. } | Sink::Jq { held: Some(_), .. } => self.put_row(obj, cells),
            Sink::Json { .. } => progress::rows(false, || self.put_row(obj, cells)),
            Sink::Ndjson(_) | Sink::Lines(_) | Sink::Document(_) | Sink::Jq { held: None, .. } => {
                progress::rows(true, || self.put_row(obj, cells))
            }
        }
    }

    fn put_row<T: Serialize>(
        &mut self,
        obj: &T,
        cells: impl FnOnce() -> Vec<Cell>,
    ) -> io::Result<()> {
        self.rows += 1;
        match &mut self.sink {
            Sink::Ndjson(w) => {
                serde_json::to_writer(&mut *w, obj)?;
                w.write_all(b"\n")?;
                if self.flush_each_row {
                    w.flush()?;
                }
                Ok(())
            }
            Sink::Json { w, first } => {
                w.write_all(if *first { b"[\n" } else { b",\n" })?;
                *first = false;
                serde_json::to_writer(&mut *w, obj)?;
                Ok(())
            }
            Sink::Table { t, .. } => {
                t.push(cells());
                Ok(())
            }
            // A document's rows are its text ([`Out::document`]).
            Sink::Document(_) => Ok(()),
            Sink::Lines(w) => {
                for cell in cells() {
                    writeln!(w, "{}", cell.render())?;
                }
                if self.flush_each_row {
                    w.flush()?;
                }
                Ok(())
            }
            Sink::Jq {
                held: Some(rows), ..
            } => {
                rows.push(jq::to_val(obj)?);
                Ok(())
            }
            Sink::Jq { f, held: None } => {
                f.input(obj)?;
                if self.flush_each_row {
                    f.flush()?;
                }
                Ok(())
            }
        }
    }

    /// The footer's name, shown only in tables, in the first column that has room for it.
    pub fn footer_label(&mut self, text: &str) {
        if let Sink::Table { t, .. } = &mut self.sink {
            t.footer_label(text);
        }
    }

    /// A line under the table, shown only in tables (a summary, say).
    pub fn caption(&mut self, text: &str) {
        if let Sink::Table { t, .. } = &mut self.sink {
            t.caption(text);
        }
    }

    /// A closing row shown only in tables (a totals line, say).
    pub fn footer(&mut self, cells: Vec<Cell>) {
        if let Sink::Table { t, .. } = &mut self.sink {
            t.footer(cells);
        }
    }

    /// Flush everything: the table is rendered here, the JSON array closed.
    pub fn finish(self) -> io::Result<()> {
        match self.sink {
            Sink::Ndjson(mut w) => w.flush(),
            Sink::Json { mut w, first } => {
                w.write_all(if first { b"[]\n" } else { b"\n]\n" })?;
                w.flush()
            }
            Sink::Table { t, color } => {
                if t.is_empty() {
                    return Ok(());
                }
                let mut w = anstream::AutoStream::new(io::stdout(), color.choice());
                let text = t.render();
                w.write_all(text.as_bytes())?;
                w.flush()
            }
            Sink::Lines(mut w) => w.flush(),
            Sink::Document(mut w) => w.flush(),
            Sink::Jq { mut f, held } => {
                if let Some(rows) = held {
                    f.run(jaq_json::Val::from_iter(rows))?;
                }
                f.flush()
            }
        }
    }
}

impl FileRows for Out {
    /// What is buffered goes out; a table waits for its end.
    fn end_file(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Ndjson(w) | Sink::Json { w, .. } => w.flush(),
            Sink::Lines(w) => w.flush(),
            Sink::Document(w) => w.flush(),
            Sink::Jq { f, .. } => f.flush(),
            Sink::Table { .. } => Ok(()),
        }
    }
}

/// Write bytes made elsewhere (a man page, completions) to stdout as they are.
pub fn raw(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

/// Stdout for rows, which [`Out`] buffers and flushes itself.
pub(crate) type RowStdout = Box<dyn Write + Send>;

/// A duplicate of stdout's descriptor where the platform has one: writing to it is writing
/// to stdout (same open file, same offset), without the line buffering of `io::stdout()`,
/// which searches every write that does not fit its buffer for a newline (every large text
/// of a row, in a slower search than the copy itself). Else `io::stdout()` itself.
pub(crate) fn row_stdout() -> RowStdout {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(io::stdout())
}

/// Is `e` (or what it wraps) a closed pipe? Then the run ends quietly with exit 0.
pub fn is_broken_pipe(e: &io::Error) -> bool {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return true;
    }
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<serde_json::Error>())
        .and_then(|j| j.io_error_kind())
        == Some(io::ErrorKind::BrokenPipe)
}
