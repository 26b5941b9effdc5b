//! Safe output files: never overwrite without `--force`, always write atomically.
//!
//! [`write_atomic`] writes into a temporary file beside the target and renames it into
//! place, so an interrupted run leaves either the old file or the new one, never half a
//! file. The temporary name starts with `.` and ends in `.cg2slang-tmp` so leftovers from
//! a killed process are recognisable.

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

/// Writes `bytes` to `path` atomically, creating parent directories.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), WriteError> {
    if !force && path.exists() {
        return Err(WriteError::Exists);
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(WriteError::Io)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.{}.cg2slang-tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(WriteError::Io)
}
