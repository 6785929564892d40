//! Opening one of Codex's SQLite databases to read it and leave it as it was: read-only, one
//! read transaction, no checkpoint on close, a bounded wait for a writer.

use std::path::Path;
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, ErrorCode, OpenFlags, Transaction, TransactionBehavior};

/// How long a database locked by a writer is waited for before it is reported busy. A WAL
/// database never makes a reader wait (readers see the last commit); a rollback-journal
/// database under `BEGIN EXCLUSIVE` does, and Codex's own transactions last milliseconds.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a database could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// A writer held it past [`BUSY_TIMEOUT`].
    Busy,
    /// A WAL database whose shared-memory file (`-shm`) is missing and cannot be made (a
    /// read-only folder): SQLite would have to write to read it.
    NeedsWrite(String),
    /// Not a database, or a damaged one.
    Corrupt(String),
    /// Its tables or columns are not those rollscope knows (`table.column` missing).
    Schema(String),
    /// Anything else SQLite said.
    Other(String),
}

impl Unreadable {
    /// What it is, for a message (`busy: a writer held it for more than 2 s`).
    pub fn words(&self) -> String {
        match self {
            Unreadable::Busy => format!(
                "busy: a writer held it for more than {} s",
                BUSY_TIMEOUT.as_secs()
            ),
            Unreadable::NeedsWrite(e) => format!(
                "a WAL database that cannot be read without writing beside it (its -shm file \
                 is missing and its folder is read-only): {e}"
            ),
            Unreadable::Corrupt(e) => format!("not a database SQLite can read: {e}"),
            Unreadable::Schema(missing) => format!("an unknown schema: no {missing}"),
            Unreadable::Other(e) => e.clone(),
        }
    }

    /// The short name of the case (`busy`, `needs-write`, `corrupt`, `schema`, `other`).
    pub fn case(&self) -> &'static str {
        match self {
            Unreadable::Busy => "busy",
            Unreadable::NeedsWrite(_) => "needs-write",
            Unreadable::Corrupt(_) => "corrupt",
            Unreadable::Schema(_) => "schema",
            Unreadable::Other(_) => "other",
        }
    }
}

impl From<rusqlite::Error> for Unreadable {
    fn from(e: rusqlite::Error) -> Unreadable {
        let text = e.to_string();
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Unreadable::Busy,
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => Unreadable::Corrupt(text),
            Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen) => Unreadable::NeedsWrite(text),
            _ => Unreadable::Other(text),
        }
    }
}

/// Whether `path` is a WAL database that no process has open: its header says WAL (the
/// file format's read and write versions are 2) and it has neither a `-wal` nor a `-shm`
/// file. The last connection to close a WAL database deletes both, and a running Codex
/// keeps its connections open, so such a home is not live: it is read `immutable`, which
/// creates no `-wal` or `-shm` beside it (a read-only reader of a WAL database otherwise
/// makes both).
fn closed_wal(path: &Path) -> bool {
    let beside = |suffix: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        std::path::PathBuf::from(p).exists()
    };
    let mut header = [0u8; 20];
    let wal = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header))
        .is_ok_and(|()| header.get(18..20) == Some(&[2, 2][..]));
    wal && !beside("-wal") && !beside("-shm")
}

/// `path` as an SQLite URI (`file:` and the path, its `%`, `?` and `#` escaped).
fn uri(path: &Path) -> String {
    let mut out = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3f"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}

/// A database opened to be read and left as it was.
///
/// - Read-only (`SQLITE_OPEN_READ_ONLY`), never `immutable=1` on a live home (Codex may
///   write meanwhile, and an immutable reader would read torn pages); only a WAL database
///   nobody has open is read immutable ([`closed_wal`]).
/// - `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`: closing does not checkpoint the WAL into the
///   database file (the last connection to close would, and change the database's bytes).
/// - A busy handler of [`BUSY_TIMEOUT`].
/// - Everything read in one deferred read transaction ([`Db::read`]): the rows of the
///   tables agree with each other even while Codex commits.
///
/// A WAL database makes SQLite map its `-shm` file (creating it if missing); its read marks
/// are the only thing a reader writes.
pub struct Db {
    conn: Connection,
}

impl Db {
    pub fn open(path: &Path) -> Result<Db, Unreadable> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = if closed_wal(path) {
            Connection::open_with_flags(format!("{}?immutable=1", uri(path)), flags)?
        } else {
            Connection::open_with_flags(path, flags)?
        };
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        Ok(Db { conn })
    }

    /// Run `f` in one read transaction. The transaction is started with a first read, so
    /// that a lock or a WAL that cannot be mapped is met here, as [`Unreadable`].
    pub fn read<T>(
        &mut self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, Unreadable>,
    ) -> Result<T, Unreadable> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Deferred)?;
        tx.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })?;
        let out = f(&tx)?;
        // A read transaction ends the same whether committed or rolled back.
        tx.rollback()?;
        Ok(out)
    }
}

/// The columns of `table`, or an empty list when it does not exist.
pub fn columns(tx: &Transaction<'_>, table: &str) -> Result<Vec<String>, Unreadable> {
    let mut stmt = tx.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt
        .query_map([table], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(names)
}

/// Whether `table` has every column of `wanted`; the first one missing, as `table.column`
/// (or the table alone when it does not exist).
pub fn require(tx: &Transaction<'_>, table: &str, wanted: &[&str]) -> Result<(), Unreadable> {
    let have = columns(tx, table)?;
    if have.is_empty() {
        return Err(Unreadable::Schema(format!("table {table}")));
    }
    match wanted.iter().find(|w| !have.iter().any(|h| h == *w)) {
        Some(w) => Err(Unreadable::Schema(format!("column {table}.{w}"))),
        None => Ok(()),
    }
}
