//! The `.jsonl` files of `testdata/` (real copies and hand-made broken ones), for the unit
//! tests that check a reader against serde, or one reader against another, on all of them;
//! and the small random source those tests mutate them with.

use std::path::{Path, PathBuf};

/// Every `.jsonl` file under `testdata/<under>` (`""` for all of `testdata/`), sorted.
pub fn jsonl_files(under: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(under);
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Every line (without its `\n`) of every `.jsonl` file under `testdata/<under>`.
pub fn lines(under: &str) -> Vec<Vec<u8>> {
    jsonl_files(under)
        .iter()
        .flat_map(|p| {
            let data = std::fs::read(p).unwrap();
            data.split(|&b| b == b'\n')
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A xorshift random source, the same sequence for the same seed: `next(n)` is in `0..n`
/// (`0` when `n` is `0`). For tests that try many generated or mutated inputs.
pub fn xorshift(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    }
}
