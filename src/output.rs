//! Safe output files: never overwrite without `--force`, always write atomically.
//!
//! [`write_atomic`] writes into a temporary file beside the target and renames it into
//! place, so an interrupted run leaves either the old file or the new one, never half a
//! file (a replaced file is synced first, so that holds through a power loss too). The
//! temporary name starts with `.` and ends in `.cg2slang-tmp` so leftovers from
//! a killed process are recognisable, and [`clean_debris`] removes those of processes
//! that are gone. [`first_existing`] is the check every command makes, for every path
//! it will write (`-o`, `--out`, `--out-dir`, `--report`, `--dump-passes`), before it
//! writes anything.

use std::io::{self, Write};
use std::path::Path;

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The target exists and `--force` was not given.
    Exists,
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Exists => f.write_str("it already exists (use --force to overwrite)"),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Writes `bytes` to `path` atomically, creating parent directories. A file it replaces
/// is kept until the new one is on disk (the new one is synced before the rename, so
/// even a power loss leaves one of the two); a new file is not synced, since nothing of
/// the user's is at stake and a rerun rewrites it (a sync per file was a quarter of a
/// second of a whole-library migration on 2 cores).
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), WriteError> {
    let replaces = path.symlink_metadata().is_ok();
    if !force && replaces {
        return Err(WriteError::Exists);
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(WriteError::Io)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.{}.cg2slang-tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if replaces {
            f.sync_all()?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(WriteError::Io)
}

/// How many of `paths` exist, and the first of them; `None` when none does or `force`.
pub fn first_existing<'a>(paths: impl IntoIterator<Item = &'a Path>, force: bool) -> Option<(usize, &'a Path)> {
    if force {
        return None;
    }
    let mut existing = paths.into_iter().filter(|p| p.symlink_metadata().is_ok());
    let first = existing.next()?;
    Some((1 + existing.count(), first))
}

/// Whether `name` is a temporary file of [`write_atomic`] left by a process that no
/// longer runs (`.NAME.PID.cg2slang-tmp`, PID not alive and not ours).
fn is_stale_temporary(name: &str) -> bool {
    let Some(stem) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".cg2slang-tmp")) else { return false };
    let Some(pid) = stem.rsplit_once('.').and_then(|(_, pid)| pid.parse::<u32>().ok()) else { return false };
    pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes, under `dir` (recursively, not following symlinks), the temporary files a
/// killed run of this tool left. Returns how many were removed. Only names of the
/// exact form [`write_atomic`] makes are touched.
pub fn clean_debris(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if kind.is_dir() {
            removed += clean_debris(&path);
        } else if kind.is_file()
            && entry.file_name().to_str().is_some_and(is_stale_temporary)
            && std::fs::remove_file(&path).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temporaries_are_recognised_by_their_exact_form() {
        assert!(is_stale_temporary(".a.slang.999999999.cg2slang-tmp"));
        assert!(!is_stale_temporary(&format!(".a.slang.{}.cg2slang-tmp", std::process::id())));
        assert!(!is_stale_temporary("a.slang.999999999.cg2slang-tmp"));
        assert!(!is_stale_temporary(".a.slang.x.cg2slang-tmp"));
        assert!(!is_stale_temporary(".a.slang"));
    }
}
