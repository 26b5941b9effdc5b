//! An on-disk cache of glslang's SPIR-V, the counterpart of librashader's shader cache:
//! a later process finds the words of a stage text compiled before instead of running
//! glslang, whose built-in symbol tables alone are most of `render`'s start-up on a CPU
//! device.
//!
//! Where: `$CG2SLANG_CACHE_DIR` if set, else `$XDG_CACHE_HOME/cg2slang/spirv`, else
//! `$HOME/.cache/cg2slang/spirv`; `CG2SLANG_NO_CACHE` set to anything non-empty turns
//! it off. Each build of the executable (its size and modification time, digested: a
//! rebuilt binary, maybe with another glslang, starts afresh) has a directory of its
//! own there, holding one file per (stage, text) named by a digest of them. The file
//! holds the stage and the text themselves, and a read that finds anything else (a
//! digest collision, a truncated or foreign file) is a miss. Only successful
//! compilations are stored.
//!
//! The disk it takes is bounded: when a process first uses the cache and finds more
//! than [`MAX_BUILDS`] build directories, it deletes the least recently changed of the
//! others, and only directories that hold nothing but this module's files.
//!
//! Never panics and never fails a compilation: an I/O error is a miss or a skipped
//! write. Writes go to a temporary file in the directory, renamed into place (atomic;
//! writers of one entry write equal bytes). It writes nothing but its own entries and
//! deletes nothing else.

use super::Stage;
use crate::reference::memo::KeyWriter;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;

/// The first bytes of every entry: the format's name and version.
const MAGIC: &[u8; 16] = b"cg2slang-spv\x00\x00\x00\x01";

/// The first word of every SPIR-V module.
const SPIRV_MAGIC: u32 = 0x0723_0203;

/// The largest entry read (a stage text and its SPIR-V are far smaller).
const MAX_ENTRY: u64 = 64 << 20;

/// The build directories kept: this build's and the most recently changed others.
pub const MAX_BUILDS: usize = 8;

/// This build's directory and identity; `None` when the cache is off or the executable
/// cannot be examined. Made once per process, pruning the other builds' directories.
static PLACE: LazyLock<Option<(PathBuf, u128)>> = LazyLock::new(|| {
    let (root, build) = (cache_dir()?, build_id()?);
    prune(&root, build, MAX_BUILDS);
    Some((build_dir(&root, build), build))
});

/// This build's directory of the cache and the build's identity, `None` when the cache
/// is off (the place of other per-build entries: [`crate::chain::pipeline_cache`]).
pub fn place() -> Option<(&'static Path, u128)> {
    PLACE.as_ref().map(|(dir, build)| (dir.as_path(), *build))
}

/// The directory of the build `build` under the cache root.
fn build_dir(root: &Path, build: u128) -> PathBuf {
    root.join(format!("{build:032x}"))
}

/// Whether `name` is one this module gives an entry or its temporary file.
/// The pipeline cache's files ([`crate::chain::pipeline_cache`]) are too.
fn is_entry_name(name: &str) -> bool {
    let spirv = |n: &str| n.len() == 36 && n.ends_with(".spv") && n[..32].bytes().all(|b| b.is_ascii_hexdigit());
    let pipelines = |n: &str| {
        n.strip_prefix("wgpu_pipeline_cache_")
            .and_then(|k| k.strip_suffix(".vkpc"))
            .is_some_and(|k| k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    };
    let temporary = |n: &str| {
        n.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")).is_some_and(|n| {
            // `.NAME.PID.SEQUENCE.tmp`
            let mut parts = n.rsplitn(3, '.');
            let (seq, pid, entry) = (parts.next(), parts.next(), parts.next());
            let number = |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
            number(seq) && number(pid) && entry.is_some_and(|e| spirv(e) || pipelines(e))
        })
    };
    spirv(name) || pipelines(name) || temporary(name)
}

/// Deletes the least recently changed build directories under `root` other than
/// `build`'s, keeping `keep - 1` of them; a directory is touched only if its name is a
/// build's and it holds nothing but entries.
pub fn prune(root: &Path, build: u128, keep: usize) {
    let Ok(dirs) = std::fs::read_dir(root) else { return };
    let own = format!("{build:032x}");
    let mut others: Vec<(std::time::SystemTime, PathBuf)> = dirs
        .filter_map(Result::ok)
        .filter(|d| {
            let name = d.file_name();
            let name = name.to_string_lossy();
            name.len() == 32 && name.bytes().all(|b| b.is_ascii_hexdigit()) && name != own.as_str()
        })
        .filter(|d| d.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|d| Some((d.metadata().ok()?.modified().ok()?, d.path())))
        .filter(|(_, dir)| entries_only(dir).is_some())
        .collect();
    if others.len() < keep {
        return;
    }
    others.sort();
    let excess = others.len() + 1 - keep;
    for (_, dir) in others.into_iter().take(excess) {
        // Read again just before deleting: only entries, then the emptied directory.
        for file in entries_only(&dir).unwrap_or_default() {
            let _ = std::fs::remove_file(file);
        }
        let _ = std::fs::remove_dir(&dir);
    }
}

/// The files of `dir` when it holds nothing but entries (and their temporary files).
fn entries_only(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    for f in std::fs::read_dir(dir).ok()? {
        let f = f.ok()?;
        if !(f.file_type().ok()?.is_file() && is_entry_name(&f.file_name().to_string_lossy())) {
            return None;
        }
        files.push(f.path());
    }
    Some(files)
}

/// The SPIR-V stored for `text` of `stage`, if any.
pub fn load(text: &str, stage: Stage) -> Option<Vec<u32>> {
    let (dir, build) = PLACE.as_ref()?;
    load_from(dir, *build, text, stage)
}

/// Stores `words` as the SPIR-V of `text` of `stage` (best effort).
pub fn store(text: &str, stage: Stage, words: &[u32]) {
    if let Some((dir, build)) = PLACE.as_ref() {
        store_in(dir, *build, text, stage, words);
    }
}

fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if var("CG2SLANG_NO_CACHE").is_some() {
        return None;
    }
    if let Some(d) = var("CG2SLANG_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    // The XDG base directory specification ignores a relative path.
    if let Some(d) = var("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute()) {
        return Some(d.join("cg2slang").join("spirv"));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".cache").join("cg2slang").join("spirv"))
}

/// The running executable's size and modification time, digested.
fn build_id() -> Option<u128> {
    let meta = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
    let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    let mut k = KeyWriter::new("spirv-cache-build");
    k.str(env!("CARGO_PKG_VERSION"));
    k.u64(meta.len());
    k.u64(modified.as_secs());
    k.u32(modified.subsec_nanos());
    Some(k.finish().0)
}

fn stage_tag(stage: Stage) -> u8 {
    match stage {
        Stage::Vertex => 0,
        Stage::Fragment => 1,
    }
}

/// The entry's file name.
fn entry_name(build: u128, text: &str, stage: Stage) -> String {
    let mut k = KeyWriter::new("spirv-cache-entry");
    k.bytes(&build.to_le_bytes());
    k.tag(stage_tag(stage));
    k.str(text);
    format!("{:032x}.spv", k.finish().0)
}

/// The header of an entry: everything before its words.
fn header(build: u128, text: &str, stage: Stage) -> Vec<u8> {
    let mut h = Vec::with_capacity(MAGIC.len() + 16 + 1 + 8 + text.len() + 8);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&build.to_le_bytes());
    h.push(stage_tag(stage));
    h.extend_from_slice(&(text.len() as u64).to_le_bytes());
    h.extend_from_slice(text.as_bytes());
    h
}

/// [`load`] from `dir` for the build `build`.
pub fn load_from(dir: &Path, build: u128, text: &str, stage: Stage) -> Option<Vec<u32>> {
    let path = dir.join(entry_name(build, text, stage));
    if std::fs::metadata(&path).ok()?.len() > MAX_ENTRY {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    let rest = bytes.strip_prefix(header(build, text, stage).as_slice())?;
    let (count, words) = rest.split_first_chunk::<8>()?;
    let count = usize::try_from(u64::from_le_bytes(*count)).ok()?;
    if words.len() != count.checked_mul(4)? {
        return None;
    }
    let words: Vec<u32> = words.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
    (words.first() == Some(&SPIRV_MAGIC)).then_some(words)
}

/// [`store`] into `dir` for the build `build`.
pub fn store_in(dir: &Path, build: u128, text: &str, stage: Stage, words: &[u32]) {
    let mut bytes = header(build, text, stage);
    bytes.extend_from_slice(&(words.len() as u64).to_le_bytes());
    bytes.extend(words.iter().flat_map(|w| w.to_le_bytes()));
    write_entry_file(dir, &entry_name(build, text, stage), &bytes);
}

/// Writes `bytes` as the entry `name` of `dir` (created if missing), best effort, the way
/// every entry of a build directory is written: into `.NAME.PID.SEQUENCE.tmp` beside it,
/// renamed into place (the temporary names [`is_entry_name`] knows).
pub(crate) fn write_entry_file(dir: &Path, name: &str, bytes: &[u8]) {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let temporary =
        dir.join(format!(".{name}.{}.{}.tmp", std::process::id(), SEQUENCE.fetch_add(1, Ordering::Relaxed)));
    let written = std::fs::File::create_new(&temporary).and_then(|mut f| f.write_all(bytes));
    if written.is_err() || std::fs::rename(&temporary, dir.join(name)).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

/// The names of the files in `dir`, for tests (an unreadable directory panics).
#[cfg(test)]
pub(crate) fn file_names(dir: &Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{e}")).filter_map(|e| e.ok().map(|e| e.file_name())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: [u32; 5] = [SPIRV_MAGIC, 0x0001_0000, 8, 42, 0];

    #[test]
    fn a_stored_entry_is_found_for_the_same_build_stage_and_text_only() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let text = "#version 450\nvoid main() {}\n";
        assert_eq!(load_from(dir.path(), 7, text, Stage::Vertex), None);
        store_in(dir.path(), 7, text, Stage::Vertex, &WORDS);
        assert_eq!(load_from(dir.path(), 7, text, Stage::Vertex), Some(WORDS.to_vec()));
        assert_eq!(load_from(dir.path(), 7, text, Stage::Fragment), None);
        assert_eq!(load_from(dir.path(), 8, text, Stage::Vertex), None);
        assert_eq!(load_from(dir.path(), 7, "#version 450\n", Stage::Vertex), None);
        // No temporary file is left behind.
        let names = file_names(dir.path());
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn damaged_entries_are_misses() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let text = "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n";
        store_in(dir.path(), 1, text, Stage::Vertex, &WORDS);
        let path = dir.path().join(entry_name(1, text, Stage::Vertex));
        let good = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
        // Truncated, one byte too many, a wrong word count, the text changed, not SPIR-V.
        let mut cases: Vec<Vec<u8>> = vec![good[..good.len() - 1].to_vec(), [good.clone(), vec![0]].concat()];
        let count_at = header(1, text, Stage::Vertex).len();
        let mut wrong_count = good.clone();
        wrong_count[count_at] += 1;
        cases.push(wrong_count);
        let mut other_text = good.clone();
        other_text[MAGIC.len() + 16 + 1 + 8] ^= 0x20;
        cases.push(other_text);
        let mut not_spirv = good.clone();
        not_spirv[count_at + 8] ^= 1;
        cases.push(not_spirv);
        for bytes in cases {
            std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(load_from(dir.path(), 1, text, Stage::Vertex), None);
        }
        std::fs::write(&path, &good).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(load_from(dir.path(), 1, text, Stage::Vertex), Some(WORDS.to_vec()));
    }

    #[test]
    fn pruning_keeps_the_newest_builds_and_only_touches_its_own_directories() {
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let text = "#version 450\nvoid main() {}\n";
        for build in 1..=5u128 {
            store_in(&build_dir(root.path(), build), build, text, Stage::Vertex, &WORDS);
            // The pipeline cache's file and a writer's temporary files are entries too.
            let dir = build_dir(root.path(), build);
            for name in [
                "wgpu_pipeline_cache_vulkan_4318_9013_0123456789abcdef0123456789abcdef.vkpc",
                ".wgpu_pipeline_cache_vulkan_4318_9013_0123456789abcdef0123456789abcdef.vkpc.12.0.tmp",
                ".0123456789abcdef0123456789abcdef.spv.7.3.tmp",
            ] {
                std::fs::write(dir.join(name), b"x").unwrap_or_else(|e| panic!("{e}"));
            }
            // Distinct modification times, oldest first.
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // A user's directory that looks like a build's but holds another file, and a
        // directory with another name: neither is touched.
        let foreign = build_dir(root.path(), 0);
        std::fs::create_dir_all(&foreign).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(foreign.join("notes.txt"), b"mine").unwrap_or_else(|e| panic!("{e}"));
        // One whose temporary-looking file is not a writer's: kept as well.
        let odd = build_dir(root.path(), 6);
        std::fs::create_dir_all(&odd).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(odd.join(".notes.txt.tmp"), b"mine").unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::create_dir_all(root.path().join("other")).unwrap_or_else(|e| panic!("{e}"));
        // Build 9 runs, keeping 3 directories: its own and the two newest others (4, 5).
        prune(root.path(), 9, 3);
        let alive = |b: u128| build_dir(root.path(), b).exists();
        assert!(!alive(1) && !alive(2) && !alive(3), "the oldest builds are deleted");
        assert!(alive(4) && alive(5), "the newest are kept");
        assert_eq!(load_from(&build_dir(root.path(), 5), 5, text, Stage::Vertex), Some(WORDS.to_vec()));
        assert!(foreign.join("notes.txt").exists() && root.path().join("other").exists());
        assert!(odd.join(".notes.txt.tmp").exists());
    }

    #[test]
    fn an_unwritable_directory_is_skipped() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"x").unwrap_or_else(|e| panic!("{e}"));
        // A directory below a regular file cannot be created: nothing happens.
        store_in(&file.join("cache"), 1, "t", Stage::Fragment, &WORDS);
        assert_eq!(load_from(&file.join("cache"), 1, "t", Stage::Fragment), None);
        assert_eq!(std::fs::read(&file).unwrap_or_default(), b"x");
    }
}
