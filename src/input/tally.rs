//! A tally of the passes made over each file, kept only when `ROLLSCOPE_TRACE_READS` is
//! set: the proof that a command reads each input once (and a fork's source again for its
//! lineage). A pass is a stream opened over the file from its start; reading a few bytes
//! back where a line lies (an excerpt, a history row) is not one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The environment variable that turns the tally on.
pub const ENV: &str = "ROLLSCOPE_TRACE_READS";

fn tally() -> Option<&'static Mutex<BTreeMap<PathBuf, u32>>> {
    static TALLY: OnceLock<Option<Mutex<BTreeMap<PathBuf, u32>>>> = OnceLock::new();
    TALLY
        .get_or_init(|| std::env::var_os(ENV).map(|_| Mutex::new(BTreeMap::new())))
        .as_ref()
}

/// Count one pass over `path`.
pub fn pass(path: &Path) {
    if let Some(t) = tally() {
        let mut t = t.lock().unwrap_or_else(|e| e.into_inner());
        *t.entry(path.to_path_buf()).or_default() += 1;
    }
}

/// Every file passed over and how many times, by path; `None` when the tally is off.
pub fn passes() -> Option<Vec<(PathBuf, u32)>> {
    let t = tally()?.lock().unwrap_or_else(|e| e.into_inner());
    Some(t.iter().map(|(p, n)| (p.clone(), *n)).collect())
}
