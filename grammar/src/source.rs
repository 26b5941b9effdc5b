//! Source files, spans and macro-expansion origins.
//!
//! A [`SourceMap`] owns the text of every file the front end reads (the root file,
//! every `#include`d file, and one synthetic "scratch" file that holds tokens made by
//! `#` stringizing and `##` pasting). A [`Span`] is a byte range in one of those files
//! plus, when the tokens came out of a macro expansion, the innermost [`ExpansionId`];
//! the expansion table records the chain back to the user's own text.
//!
//! The map itself never reads the file system and never fails: loading is done by the
//! preprocessor through a [`FileSystem`], and bad bytes become replacement characters
//! (the caller reports them). [`read_regular`] is the one function every crate uses to
//! read a user's file: regular files only, with a size limit, never blocking on a FIFO.

use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// Index of a macro expansion in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExpansionId(pub u32);

/// A byte range in one file, plus the innermost macro expansion it came from.
///
/// For AST nodes the range is always in text the user wrote: when a node's tokens come
/// from a macro expansion, the range is the outermost invocation (`FOO(a, b)`) and
/// `expansion` names the innermost expansion so diagnostics can explain the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
    pub expansion: Option<ExpansionId>,
}

impl Span {
    pub const fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end, expansion: None }
    }

    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub fn len(&self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }

    /// The smallest span covering both, when both lie in the same file; else `self`.
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
            expansion: self.expansion.or(other.expansion),
        }
    }
}

/// One macro expansion: which macro, where it was defined, where it was invoked.
#[derive(Clone, Debug)]
pub struct Expansion {
    pub macro_name: String,
    /// The macro's name in its `#define` line (or a `-D` pseudo file).
    pub definition: Span,
    /// The invocation (name through closing parenthesis), as spelled: it may itself lie
    /// inside another expansion, named by `parent`.
    pub call_site: Span,
    pub parent: Option<ExpansionId>,
}

/// What a file is to the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A file read from disk (or from a test's in-memory file system).
    Real,
    /// `-D` definitions from the command line.
    CommandLine,
    /// Text made by `#` and `##`; never shown as the primary location of a diagnostic.
    Scratch,
}

#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (the path as the user gave it or as it was resolved).
    pub name: String,
    pub path: Option<PathBuf>,
    pub kind: FileKind,
    pub text: String,
    /// Byte offset of the start of every line.
    line_starts: Vec<u32>,
}

impl SourceFile {
    fn new(name: String, path: Option<PathBuf>, kind: FileKind, text: String) -> SourceFile {
        let line_starts = line_starts(&text);
        SourceFile { name, path, kind, text, line_starts }
    }

    /// Zero-based line index of a byte offset.
    pub fn line_index(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    pub fn line_start(&self, line_index: usize) -> Option<u32> {
        self.line_starts.get(line_index).copied()
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// One-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = self.line_index(offset);
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map_or(end - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

fn line_starts(text: &str) -> Vec<u32> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| (i + 1) as u32)).collect()
}

/// A user-facing location: file name, one-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// Every file the front end has seen, plus the macro expansion table.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    expansions: Vec<Expansion>,
    scratch: Option<FileId>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file; invalid UTF-8 is replaced (the caller reports it, see [`decode`]).
    pub fn add_file(&mut self, name: impl Into<String>, path: Option<PathBuf>, text: String) -> FileId {
        self.add(name.into(), path, FileKind::Real, text)
    }

    pub fn add_command_line(&mut self, text: String) -> FileId {
        self.add("<command line>".to_owned(), None, FileKind::CommandLine, text)
    }

    fn add(&mut self, name: String, path: Option<PathBuf>, kind: FileKind, text: String) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(name, path, kind, text));
        id
    }

    /// Appends `text` to the scratch file and returns its span there.
    pub fn add_scratch(&mut self, text: &str) -> Span {
        let id = match self.scratch {
            Some(id) => id,
            None => {
                let id = self.add("<scratch space>".to_owned(), None, FileKind::Scratch, String::new());
                self.scratch = Some(id);
                id
            }
        };
        let file = &mut self.files[id.0 as usize];
        let start = file.text.len() as u32;
        file.text.push_str(text);
        file.text.push('\n');
        file.line_starts.push(file.text.len() as u32);
        Span::new(id, start, start + text.len() as u32)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn find_path(&self, path: &Path) -> Option<FileId> {
        self.files.iter().position(|f| f.path.as_deref() == Some(path)).map(|i| FileId(i as u32))
    }

    /// The text a span covers ("" when out of bounds).
    pub fn text(&self, span: Span) -> &str {
        self.file(span.file).text.get(span.range()).unwrap_or("")
    }

    pub fn add_expansion(&mut self, expansion: Expansion) -> ExpansionId {
        let id = ExpansionId(self.expansions.len() as u32);
        self.expansions.push(expansion);
        id
    }

    pub fn expansion(&self, id: ExpansionId) -> &Expansion {
        &self.expansions[id.0 as usize]
    }

    /// The expansion chain of a span, innermost first.
    pub fn expansion_chain(&self, span: Span) -> Vec<&Expansion> {
        let mut chain = Vec::new();
        let mut next = span.expansion;
        while let Some(id) = next {
            let e = self.expansion(id);
            chain.push(e);
            next = e.parent;
        }
        chain
    }

    /// Where the user wrote the tokens of `span`: for a token produced by a macro, the
    /// outermost invocation; for scratch tokens without an expansion, the span itself.
    /// `expansion` of the result is kept, so notes can still walk the chain.
    pub fn user_span(&self, span: Span) -> Span {
        let mut site = span;
        let mut next = span.expansion;
        while let Some(id) = next {
            let e = self.expansion(id);
            site = e.call_site;
            next = e.parent;
        }
        Span { expansion: span.expansion, ..site }
    }

    /// One-based line and column of the start of a span, in the file it names.
    pub fn location(&self, span: Span) -> Location {
        let f = self.file(span.file);
        let (line, column) = f.line_col(span.start);
        Location { file: f.name.clone(), line, column }
    }
}

/// Decodes file bytes. Returns the text and, for invalid UTF-8, the byte offset of the
/// first bad sequence (the text then holds U+FFFD in its place).
/// A UTF-8 byte-order mark at the start is skipped (editors on Windows write one).
pub fn decode(mut bytes: Vec<u8>) -> (String, Option<usize>) {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    match String::from_utf8(bytes) {
        Ok(s) => (s, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
        }
    }
}

/// Where the preprocessor reads files from: the real disk, or a test's fixture.
pub trait FileSystem: Sync {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// Whether anything is at `path`: the include search stops at the first hit, and
    /// reading it then says what it is when it is not a regular file.
    fn exists(&self, path: &Path) -> bool;
    /// Whether `path` could be read within `limit` bytes, without keeping the bytes
    /// (a preset checks the files it names before anything reads them).
    fn probe(&self, path: &Path, limit: u64) -> io::Result<()> {
        let bytes = self.read(path)?;
        if bytes.len() as u64 > limit {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, ReadRefusal::TooLarge { limit }));
        }
        Ok(())
    }
}

/// The real file system. Reads go through [`read_regular`] with [`MAX_SOURCE_BYTES`].
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

impl FileSystem for RealFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        read_regular(path, MAX_SOURCE_BYTES)
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    fn probe(&self, path: &Path, limit: u64) -> io::Result<()> {
        probe_regular(path, limit).map(|_| ())
    }
}

/// The largest text file read as a source, include, preset or `#reference` (16 MiB;
/// the largest shader of the common-shaders library is under 100 KiB).
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Why a path was refused before or while reading it (carried inside an
/// [`io::Error`]; [`read_refusal`] finds it again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadRefusal {
    /// The path is a directory, FIFO, socket or device; the string names which.
    NotRegular(&'static str),
    /// The file holds more bytes than the limit.
    TooLarge { limit: u64 },
}

impl std::fmt::Display for ReadRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadRefusal::NotRegular(what) => write!(f, "it is {what}, not a regular file"),
            ReadRefusal::TooLarge { limit } => write!(f, "it is larger than the limit of {limit} bytes"),
        }
    }
}

impl std::error::Error for ReadRefusal {}

/// The code for a failed read: [`crate::codes::E_NOT_REGULAR_FILE`] or
/// [`crate::codes::E_FILE_TOO_LARGE`] when [`read_regular`] refused the path, else
/// `fallback` (the caller's own "cannot read" code).
pub fn read_error_code(e: &io::Error, fallback: &'static str) -> &'static str {
    match read_refusal(e) {
        Some(ReadRefusal::NotRegular(_)) => crate::codes::E_NOT_REGULAR_FILE,
        Some(ReadRefusal::TooLarge { .. }) => crate::codes::E_FILE_TOO_LARGE,
        None => fallback,
    }
}

/// The refusal inside an error from [`read_regular`], if that is why it failed.
pub fn read_refusal(e: &io::Error) -> Option<&ReadRefusal> {
    e.get_ref().and_then(|inner| inner.downcast_ref::<ReadRefusal>())
}

/// What kind of file system object `meta` describes, in words.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Checks, from its metadata only, that `path` is a regular file (after symlinks) of at
/// most `limit` bytes; returns its size.
pub fn probe_regular(path: &Path, limit: u64) -> io::Result<u64> {
    let refuse = |r: ReadRefusal| io::Error::new(io::ErrorKind::InvalidInput, r);
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(refuse(ReadRefusal::NotRegular(file_kind(&meta))));
    }
    if meta.len() > limit {
        return Err(refuse(ReadRefusal::TooLarge { limit }));
    }
    Ok(meta.len())
}

/// The one way the tools read a user's file: only a regular file (after symlinks) and
/// at most `limit` bytes. The type is checked before opening, so a FIFO is never
/// opened (opening one blocks), and again on the open handle; the read itself stops
/// one byte past the limit, so a file that grows while read costs no more than that.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let refuse = |r: ReadRefusal| io::Error::new(io::ErrorKind::InvalidInput, r);
    probe_regular(path, limit)?;
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refuse(ReadRefusal::NotRegular(file_kind(&meta))));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(refuse(ReadRefusal::TooLarge { limit }));
    }
    Ok(bytes)
}

/// An in-memory file system for tests and fixtures.
#[derive(Clone, Debug, Default)]
pub struct MemoryFs {
    files: std::collections::BTreeMap<PathBuf, Vec<u8>>,
}

impl MemoryFs {
    pub fn new() -> MemoryFs {
        MemoryFs::default()
    }
    pub fn with(mut self, path: impl Into<PathBuf>, text: impl Into<Vec<u8>>) -> MemoryFs {
        self.insert(path, text);
        self
    }
    pub fn insert(&mut self, path: impl Into<PathBuf>, text: impl Into<Vec<u8>>) {
        self.files.insert(normalize(&path.into()), text.into());
    }
}

impl FileSystem for MemoryFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files.get(&normalize(path)).cloned().ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file"))
    }
    fn exists(&self, path: &Path) -> bool {
        self.files.contains_key(&normalize(path))
    }
}

/// Lexically normalises `a/./b/../c` to `a/c` (no file system access).
pub fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                // `a/..` is nothing; `..` above `..` (or above nothing) stays; `/..` is `/`.
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(Component::ParentDir | Component::CurDir) | None => out.push(".."),
            },
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_from_one() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("a.cg", None, "ab\nçd x\n".to_owned());
        let x = sm.file(f).text.find('x').unwrap() as u32;
        assert_eq!(sm.location(Span::new(f, x, x + 1)), Location { file: "a.cg".into(), line: 2, column: 4 });
        assert_eq!(sm.file(f).line_col(0), (1, 1));
    }

    #[test]
    fn user_span_walks_to_outermost_call_site() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("a.cg", None, "#define A B\n#define B 1\nA\n".to_owned());
        let outer = sm.add_expansion(Expansion {
            macro_name: "A".into(),
            definition: Span::new(f, 8, 9),
            call_site: Span::new(f, 24, 25),
            parent: None,
        });
        let inner = sm.add_expansion(Expansion {
            macro_name: "B".into(),
            definition: Span::new(f, 20, 21),
            call_site: Span { expansion: Some(outer), ..Span::new(f, 10, 11) },
            parent: Some(outer),
        });
        let tok = Span { expansion: Some(inner), ..Span::new(f, 22, 23) };
        let user = sm.user_span(tok);
        assert_eq!((user.start, user.end, user.expansion), (24, 25, Some(inner)));
        let names: Vec<_> = sm.expansion_chain(tok).iter().map(|e| e.macro_name.clone()).collect();
        assert_eq!(names, ["B", "A"]);
    }

    #[test]
    fn decode_reports_first_bad_byte() {
        let (text, bad) = decode(b"ab\xffcd".to_vec());
        assert_eq!(bad, Some(2));
        assert_eq!(text, "ab\u{fffd}cd");
    }

    #[test]
    fn normalize_resolves_dots() {
        assert_eq!(normalize(Path::new("a/./b/../c.inc")), PathBuf::from("a/c.inc"));
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
        assert_eq!(normalize(Path::new("../../x")), PathBuf::from("../../x"), "`..` never cancels `..`");
        assert_eq!(normalize(Path::new("./../../x")), PathBuf::from("../../x"));
        assert_eq!(normalize(Path::new("a/../../x")), PathBuf::from("../x"));
        assert_eq!(normalize(Path::new("/../x")), PathBuf::from("/x"));
    }
}
