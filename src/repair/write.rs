//! Writing a repaired copy: to a new file, or over the original (`--in-place`), never over
//! an input by accident. In place, the copy is written beside the original and renamed
//! over it only when the original is still what was read and no other process has it open
//! for writing (a running Codex appending to it); the original is kept as `<name>.bak`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{Original, Stamp};
use crate::input::reread::FileSet;

/// Why a copy was not written.
#[derive(Debug)]
pub enum Refusal {
    /// The file is not what was read any more.
    Changed(String),
    /// Another process has the file open for writing.
    OpenForWriting(u32),
    /// `<name>.bak` exists already.
    BackupExists(PathBuf),
    /// The target is one of the inputs.
    IsAnInput(PathBuf),
    Io(io::Error),
}

/// Why, without a verb: the report says "not written: …" before it.
impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Changed(what) => write!(f, "the file changed since it was read ({what})"),
            Refusal::OpenForWriting(pid) => write!(
                f,
                "process {pid} has it open for writing (a running Codex?)"
            ),
            Refusal::BackupExists(p) => write!(
                f,
                "{} exists, and a backup is never overwritten",
                p.display()
            ),
            Refusal::IsAnInput(p) => write!(
                f,
                "{} is an input (--in-place replaces inputs)",
                p.display()
            ),
            Refusal::Io(e) => write!(f, "{}", crate::input::io_cause(e)),
        }
    }
}

impl From<io::Error> for Refusal {
    fn from(e: io::Error) -> Refusal {
        Refusal::Io(e)
    }
}

/// Write `bytes` to a new file at `target` (its folders made), unless `target` names one
/// of the `inputs`.
pub fn to_file(target: &Path, bytes: &[u8], inputs: &FileSet) -> Result<(), Refusal> {
    if inputs.holds(target) {
        return Err(Refusal::IsAnInput(target.to_path_buf()));
    }
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let mut f = fs::File::create(target)?;
    f.write_all(bytes)?;
    f.flush()?;
    Ok(())
}

/// The backup of `path`: `<name>.bak` beside it.
pub fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    path.with_file_name(name)
}

/// Replace the file at `path` (read as `original`) by `bytes`: a temporary file beside it,
/// checks, the original kept as `<name>.bak`, then a rename.
pub fn in_place(path: &Path, original: &Original, bytes: &[u8]) -> Result<PathBuf, Refusal> {
    let Some(stamp) = &original.stamp else {
        return Err(Refusal::Io(io::Error::other(
            "--in-place needs a file, not standard input",
        )));
    };
    unchanged(path, stamp)?;
    if let Some(pid) = writer_of(path) {
        return Err(Refusal::OpenForWriting(pid));
    }
    let backup = backup_of(path);
    if backup.symlink_metadata().is_ok() {
        return Err(Refusal::BackupExists(backup));
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".rollscope-tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if let Ok(meta) = fs::metadata(path) {
        // The copy keeps the original's permissions.
        fs::set_permissions(tmp.path(), meta.permissions())?;
    }
    before_rename_hook(path);
    // Looked at again as late as can be: a writer that came meanwhile, or bytes appended.
    unchanged(path, stamp)?;
    if let Some(pid) = writer_of(path) {
        return Err(Refusal::OpenForWriting(pid));
    }
    keep_backup(path, &backup)?;
    tmp.persist(path).map_err(|e| Refusal::Io(e.error))?;
    Ok(backup)
}

/// The original kept at `backup`: a second name for the same file where the file system
/// allows it, else a copy; never over an existing file.
fn keep_backup(path: &Path, backup: &Path) -> Result<(), Refusal> {
    match fs::hard_link(path, backup) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            Err(Refusal::BackupExists(backup.to_path_buf()))
        }
        Err(_) => {
            let mut from = fs::File::open(path)?;
            let mut to = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(backup)
                .map_err(|e| match e.kind() {
                    io::ErrorKind::AlreadyExists => Refusal::BackupExists(backup.to_path_buf()),
                    _ => Refusal::Io(e),
                })?;
            io::copy(&mut from, &mut to)?;
            to.sync_all()?;
            Ok(())
        }
    }
}

/// An error unless the file at `path` is still what `stamp` says was read: its size, its
/// modification time, the digest of its bytes.
fn unchanged(path: &Path, stamp: &Stamp) -> Result<(), Refusal> {
    let meta = fs::metadata(path)?;
    if meta.len() != stamp.size {
        return Err(Refusal::Changed(format!(
            "{} bytes then, {} now",
            stamp.size,
            meta.len()
        )));
    }
    if meta.modified().ok() != stamp.modified {
        return Err(Refusal::Changed("its modification time moved".to_string()));
    }
    let now = Stamp::of(&fs::read(path)?, &meta);
    if now.digest != stamp.digest {
        return Err(Refusal::Changed("its bytes differ".to_string()));
    }
    Ok(())
}

/// A process (not this one) that has `path` open for writing, on Linux (`/proc/*/fd`);
/// `None` elsewhere, or when none does.
pub fn writer_of(path: &Path) -> Option<u32> {
    #[cfg(target_os = "linux")]
    {
        let target = fs::canonicalize(path).ok()?;
        let me = std::process::id();
        for proc_entry in fs::read_dir("/proc").ok()?.flatten() {
            let Some(pid) = proc_entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if pid == me {
                continue;
            }
            let Ok(fds) = fs::read_dir(proc_entry.path().join("fd")) else {
                continue;
            };
            for fd in fds.flatten() {
                if fs::read_link(fd.path()).ok().as_deref() != Some(target.as_path()) {
                    continue;
                }
                let info = proc_entry.path().join("fdinfo").join(fd.file_name());
                if fs::read_to_string(info).is_ok_and(|s| writes(&s)) {
                    return Some(pid);
                }
            }
        }
        None
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
    }
}

/// Whether an `fdinfo` text's `flags` (octal) open the file for writing (`O_WRONLY` or
/// `O_RDWR`).
fn writes(fdinfo: &str) -> bool {
    fdinfo
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 != 0)
}

/// Tests only (debug builds): with `ROLLSCOPE_TEST_BEFORE_RENAME=DIR`, say `DIR/ready`
/// and wait (up to 30 s) for `DIR/go` before the last look at the original, so that a
/// test can change the file in between.
fn before_rename_hook(path: &Path) {
    #[cfg(debug_assertions)]
    if let Some(dir) = std::env::var_os("ROLLSCOPE_TEST_BEFORE_RENAME") {
        let dir = PathBuf::from(dir);
        let _ = fs::write(dir.join("ready"), path.display().to_string());
        for _ in 0..3000 {
            if dir.join("go").exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fdinfo_flags_say_who_writes() {
        assert!(writes("pos:\t0\nflags:\t0100001\nmnt_id:\t1\n"));
        assert!(writes("flags:\t02102\n"));
        assert!(!writes("pos:\t0\nflags:\t0100000\n"));
        assert!(!writes("nothing"));
    }

    #[test]
    fn a_backup_sits_beside_its_file() {
        assert_eq!(
            backup_of(Path::new("a/rollout-x.jsonl")),
            PathBuf::from("a/rollout-x.jsonl.bak")
        );
    }
}
