//! A [`FileSystem`] that remembers what it read: one migration reads each include of a
//! library once, not once per shader and context that includes it (common-shaders'
//! `compat_includes.inc` and its five includes were each opened 396 times).
//!
//! The files of one run are read as they were the first time (a consistent snapshot,
//! which a run reading them hundreds of times never had). Only successful reads and
//! existence answers are kept; a failed read goes to the inner file system each time, so
//! its error is the inner one's. Bounded: past [`CachedFs::BUDGET`] bytes, further
//! files are read through without being kept. Never writes, never panics.

use crate::source::FileSystem;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Remembers the reads of an inner [`FileSystem`].
pub struct CachedFs<'a> {
    inner: &'a dyn FileSystem,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    files: HashMap<PathBuf, Arc<Vec<u8>>>,
    exists: HashMap<PathBuf, bool>,
    bytes: usize,
}

impl<'a> CachedFs<'a> {
    /// The most bytes of file contents kept (256 MiB).
    pub const BUDGET: usize = 256 << 20;

    pub fn new(inner: &'a dyn FileSystem) -> CachedFs<'a> {
        CachedFs { inner, state: Mutex::new(State::default()) }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl FileSystem for CachedFs<'_> {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        if let Some(bytes) = self.state().files.get(path).cloned() {
            return Ok(bytes.to_vec());
        }
        let bytes = self.inner.read(path)?;
        let mut state = self.state();
        if state.bytes + bytes.len() <= Self::BUDGET && !state.files.contains_key(path) {
            state.bytes += bytes.len();
            state.files.insert(path.to_path_buf(), Arc::new(bytes.clone()));
        }
        Ok(bytes)
    }

    fn exists(&self, path: &Path) -> bool {
        if let Some(&e) = self.state().exists.get(path) {
            return e;
        }
        let e = self.inner.exists(path);
        self.state().exists.insert(path.to_path_buf(), e);
        e
    }

    fn probe(&self, path: &Path, limit: u64) -> io::Result<()> {
        match self.state().files.get(path) {
            Some(bytes) if bytes.len() as u64 <= limit => return Ok(()),
            _ => {}
        }
        self.inner.probe(path, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::MemoryFs;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts the reads that reach it.
    struct Counting {
        fs: MemoryFs,
        reads: AtomicUsize,
    }

    impl FileSystem for Counting {
        fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
            self.reads.fetch_add(1, Ordering::Relaxed);
            self.fs.read(path)
        }
        fn exists(&self, path: &Path) -> bool {
            self.fs.exists(path)
        }
    }

    #[test]
    fn a_file_is_read_once_and_a_missing_one_each_time() {
        let inner = Counting { fs: MemoryFs::new().with("/a.inc", "x"), reads: AtomicUsize::new(0) };
        let fs = CachedFs::new(&inner);
        for _ in 0..3 {
            assert_eq!(fs.read(Path::new("/a.inc")).ok(), Some(b"x".to_vec()));
        }
        assert_eq!(inner.reads.load(Ordering::Relaxed), 1);
        assert!(fs.read(Path::new("/missing.inc")).is_err());
        assert!(fs.read(Path::new("/missing.inc")).is_err());
        assert_eq!(inner.reads.load(Ordering::Relaxed), 3);
        assert!(fs.exists(Path::new("/a.inc")));
        assert!(!fs.exists(Path::new("/missing.inc")));
        assert!(fs.probe(Path::new("/a.inc"), 1).is_ok());
        assert!(fs.probe(Path::new("/a.inc"), 0).is_err());
    }
}
