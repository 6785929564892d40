//! The `.jsonl` files of `testdata/` (real copies and hand-made broken ones), for the unit
//! tests that check a reader against serde, or one reader against another, on all of them.

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
