//! Finding the inputs of `migrate` and `check`: directories walked for `.cg` and
//! `.cgp` files, single files taken as they are.
//!
//! The walk follows directory symlinks, as a user expects, but never enters a
//! directory twice: each is known by its real identity (device and inode), so a
//! symlink loop, or two links to one tree, is walked once and the repeat is named in a
//! warning. It also stops at [`MAX_WALK_DEPTH`] levels with a warning. It skips the
//! output directory, hidden directories and what `.cg2slangignore` files list. It
//! never reads a file's contents (the planner does) and never writes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One input root: a directory walked for .cg/.cgp, or a single file.
#[derive(Clone, Debug)]
pub struct Root {
    /// Output paths are relative to this directory.
    pub base: PathBuf,
    pub cgp: Vec<PathBuf>,
    pub cg: Vec<PathBuf>,
}

/// The file that lists, one per line, paths (relative to its directory) that `migrate`
/// does not walk: test inputs, work in progress. `#` starts a comment line.
pub const IGNORE_FILE: &str = ".cg2slangignore";

/// How many directory levels below a source directory the walk enters (the
/// common-shaders library uses 4).
pub const MAX_WALK_DEPTH: usize = 32;

/// What discovery found.
#[derive(Debug, Default)]
pub struct Discovered {
    pub roots: Vec<Root>,
    /// Paths skipped because a `.cg2slangignore` lists them.
    pub ignored: usize,
    /// Directories skipped (reached twice, or too deep), one sentence each.
    pub warnings: Vec<String>,
}

/// A directory's real identity (device and inode): what two paths to it share.
#[cfg(unix)]
type Identity = (u64, u64);
#[cfg(not(unix))]
type Identity = PathBuf;

#[cfg(unix)]
fn identity(dir: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(dir).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(dir: &Path) -> Option<Identity> {
    dir.canonicalize().ok()
}

/// State of one walk.
struct Walk<'a> {
    skip: &'a Path,
    seen: HashSet<Identity>,
    ignored: usize,
    warnings: Vec<String>,
}

impl Walk<'_> {
    /// Walks `dir` (at `depth` below the source directory) into `root`.
    fn dir(&mut self, dir: &Path, depth: usize, root: &mut Root) -> std::io::Result<()> {
        if identity(dir).is_some_and(|id| !self.seen.insert(id)) {
            self.warnings.push(format!(
                "{}: skipped, this directory was already walked through another path (a symlink loop or a second link)",
                dir.display()
            ));
            return Ok(());
        }
        if depth > MAX_WALK_DEPTH {
            self.warnings.push(format!(
                "{}: skipped, directories nested deeper than {MAX_WALK_DEPTH} levels are not walked",
                dir.display()
            ));
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.flatten().map(|e| e.path()).collect();
        entries.sort();
        let ignored: Vec<PathBuf> =
            match grammar::source::read_regular(&dir.join(IGNORE_FILE), grammar::source::MAX_SOURCE_BYTES) {
                Ok(bytes) => String::from_utf8_lossy(&bytes)
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(|l| grammar::source::normalize(&dir.join(l.trim_end_matches('/'))))
                    .collect(),
                Err(_) => Vec::new(),
            };
        for p in entries {
            if ignored.contains(&grammar::source::normalize(&p)) {
                self.ignored += 1;
                continue;
            }
            if p.is_dir() {
                if same_dir(&p, self.skip) || p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                    continue;
                }
                self.dir(&p, depth + 1, root)?;
            } else {
                match p.extension().and_then(|e| e.to_str()) {
                    Some("cgp") => root.cgp.push(p),
                    Some("cg") => root.cg.push(p),
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The inputs named on the command line: directories walked (skipping `out` and what
/// `.cg2slangignore` files list), single .cg/.cgp files as roots of their own. Returns
/// what was found, or the message of a usage error (missing source, or with
/// `refuse_inside` an output directory inside a source one).
pub fn discover(sources: &[PathBuf], out: &Path, refuse_inside: bool) -> Result<Discovered, String> {
    let mut found = Discovered::default();
    let mut walk = Walk { skip: out, seen: HashSet::new(), ignored: 0, warnings: Vec::new() };
    for src in sources {
        if src.is_dir() {
            if let (Ok(s), Ok(o)) = (src.canonicalize(), absolute(out)) {
                if refuse_inside && o.starts_with(&s) {
                    return Err(format!(
                        "the output directory {} lies inside the source directory {}; choose one outside it",
                        out.display(),
                        src.display()
                    ));
                }
            }
            let mut root = Root { base: src.clone(), cgp: Vec::new(), cg: Vec::new() };
            walk.dir(src, 0, &mut root).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
            found.roots.push(root);
        } else if src.is_file() {
            let base = src.parent().map(Path::to_path_buf).unwrap_or_default();
            let mut root = Root { base, cgp: Vec::new(), cg: Vec::new() };
            match src.extension().and_then(|e| e.to_str()) {
                Some("cgp") => root.cgp.push(src.clone()),
                Some("cg") => root.cg.push(src.clone()),
                _ => return Err(format!("{}: not a .cg or .cgp file", src.display())),
            }
            found.roots.push(root);
        } else if src.exists() {
            return Err(format!("{}: not a regular file or a directory", src.display()));
        } else {
            return Err(format!("{}: no such file or directory", src.display()));
        }
    }
    found.ignored = walk.ignored;
    found.warnings = walk.warnings;
    Ok(found)
}

/// `p` made absolute through its nearest existing ancestor (the output directory may
/// not exist yet).
fn absolute(p: &Path) -> std::io::Result<PathBuf> {
    if p.exists() {
        p.canonicalize()
    } else {
        let parent = p.parent().filter(|x| !x.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Ok(absolute(parent)?.join(p.file_name().unwrap_or_default()))
    }
}
