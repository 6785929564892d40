//! The rows rollscope reads from Codex's two state databases, and the columns it needs of
//! each (a database without them is an unknown schema, reported and never guessed at).

use std::collections::HashMap;
use std::path::Path;

use rusqlite::Transaction;

use super::open::{require, Db, Unreadable};

/// `state_5.sqlite`: one row per thread Codex knows.
pub const STATE_DB: &str = "state_5.sqlite";
/// `thread_history_1.sqlite`: the thread-history projection (what a client is shown).
pub const HISTORY_DB: &str = "thread_history_1.sqlite";

/// A row of `threads` in `state_5.sqlite`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadRow {
    pub id: String,
    /// The rollout's path as Codex wrote it (absolute, on the machine that wrote it).
    pub rollout_path: String,
    pub archived: bool,
    /// `legacy` or `paginated` (absent before the column was added).
    pub history_mode: Option<String>,
}

/// A thread's projection checkpoint in `thread_history_projection_state`: where in its
/// rollout the projection goes on, and the ordinal it expects there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checkpoint {
    pub next_byte_offset: u64,
    pub next_ordinal: u64,
}

/// A row of `thread_turns`: a turn as the projection stored it, with the rollout lines it
/// names (its `task_started` line, and the end of its last line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnRow {
    pub turn_id: String,
    pub status: String,
    pub ordinal: u64,
    pub byte_offset: Option<u64>,
    pub end_ordinal: Option<u64>,
    pub end_byte_offset: Option<u64>,
}

/// What `thread_history_1.sqlite` holds, by thread id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    pub checkpoints: HashMap<String, Checkpoint>,
    /// Each thread's turns, in rollout order.
    pub turns: HashMap<String, Vec<TurnRow>>,
}

/// What reading one database gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read<T> {
    /// No such file.
    Absent,
    Unreadable(Unreadable),
    Rows(T),
}

impl<T> Read<T> {
    pub fn rows(&self) -> Option<&T> {
        match self {
            Read::Rows(t) => Some(t),
            _ => None,
        }
    }
}

/// Read a database at `path` with `f`, in one read transaction.
pub fn read<T>(path: &Path, f: impl FnOnce(&Transaction<'_>) -> Result<T, Unreadable>) -> Read<T> {
    if !path.is_file() {
        return Read::Absent;
    }
    match Db::open(path).and_then(|mut db| db.read(f)) {
        Ok(rows) => Read::Rows(rows),
        Err(e) => Read::Unreadable(e),
    }
}

/// A non-negative integer column (an offset, an ordinal); a negative or missing one is
/// `None`.
fn unsigned(v: Option<i64>) -> Option<u64> {
    v.and_then(|v| u64::try_from(v).ok())
}

/// Every row of `threads`.
pub fn threads(tx: &Transaction<'_>) -> Result<Vec<ThreadRow>, Unreadable> {
    require(tx, "threads", &["id", "rollout_path", "archived"])?;
    let mode = super::open::columns(tx, "threads")?
        .iter()
        .any(|c| c == "history_mode");
    let sql = if mode {
        "SELECT id, rollout_path, archived, history_mode FROM threads ORDER BY id"
    } else {
        "SELECT id, rollout_path, archived, NULL FROM threads ORDER BY id"
    };
    let mut stmt = tx.prepare(sql)?;
    let rows = stmt
        .query_map([], |r| {
            Ok(ThreadRow {
                id: r.get(0)?,
                rollout_path: r.get(1)?,
                archived: r.get::<_, Option<i64>>(2)?.unwrap_or(0) != 0,
                history_mode: r.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The checkpoints and the turns of `thread_history_1.sqlite`.
pub fn history(tx: &Transaction<'_>) -> Result<History, Unreadable> {
    require(
        tx,
        "thread_history_projection_state",
        &[
            "thread_id",
            "next_rollout_byte_offset",
            "next_rollout_ordinal",
        ],
    )?;
    let turn_columns = [
        "thread_id",
        "turn_id",
        "rollout_ordinal",
        "status",
        "rollout_byte_offset",
        "rollout_end_ordinal",
        "rollout_end_byte_offset",
    ];
    require(tx, "thread_turns", &turn_columns)?;
    let mut out = History::default();
    let mut stmt = tx.prepare(
        "SELECT thread_id, next_rollout_byte_offset, next_rollout_ordinal \
         FROM thread_history_projection_state",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<i64>>(1)?,
            r.get::<_, Option<i64>>(2)?,
        ))
    })?;
    for row in rows {
        let (id, offset, ordinal) = row?;
        if let (Some(next_byte_offset), Some(next_ordinal)) = (unsigned(offset), unsigned(ordinal))
        {
            out.checkpoints.insert(
                id,
                Checkpoint {
                    next_byte_offset,
                    next_ordinal,
                },
            );
        }
    }
    let mut stmt = tx.prepare(
        "SELECT thread_id, turn_id, rollout_ordinal, status, rollout_byte_offset, \
         rollout_end_ordinal, rollout_end_byte_offset FROM thread_turns \
         ORDER BY thread_id, rollout_ordinal, turn_id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            TurnRow {
                turn_id: r.get(1)?,
                ordinal: unsigned(r.get(2)?).unwrap_or(0),
                status: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                byte_offset: unsigned(r.get(4)?),
                end_ordinal: unsigned(r.get(5)?),
                end_byte_offset: unsigned(r.get(6)?),
            },
        ))
    })?;
    for row in rows {
        let (id, turn) = row?;
        out.turns.entry(id).or_default().push(turn);
    }
    Ok(out)
}
