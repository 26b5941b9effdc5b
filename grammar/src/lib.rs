//! The Cg 3.1 front end of cg2slang: preprocessor, lexer, parser, spanned AST, diagnostics.
//!
//! Pipeline: file bytes are loaded into a [`SourceMap`]; [`pp::preprocess`] lexes them
//! with the logos lexer ([`lexer`]) and runs the C preprocessor, producing tokens that
//! remember their file, offset and macro-expansion chain; [`parser`] classifies
//! identifiers (keywords, type names: the "lexer hack") and runs the LALRPOP grammar,
//! producing an [`ast::TranslationUnit`] in which every node has a [`Span`].
//!
//! **Invariant:** nothing here panics on any input or stops at the first error: each
//! stage returns its result together with a list of [`Diagnostic`]s.
//! **Invariant:** this crate knows nothing of GLSL, RetroArch, naga or wgpu.

pub mod ast;
pub mod cached_fs;
pub mod codes;
pub mod diagnostic;
pub mod lexer;
pub mod parser;
pub mod pp;
pub mod source;

pub use cached_fs::CachedFs;
pub use diagnostic::{cap_per_code, has_errors, Diagnostic, Label, Severity};
pub use pp::{PpOptions, Pragma, Preprocessed};
pub use source::{FileId, FileSystem, MemoryFs, RealFs, SourceMap, Span};

use std::path::Path;

/// Everything the front end produced for one root file.
#[derive(Debug)]
pub struct ParseResult {
    /// The root file, when it could be read.
    pub root: Option<FileId>,
    pub unit: ast::TranslationUnit,
    pub preprocessed: Preprocessed,
    pub diagnostics: Vec<Diagnostic>,
}

impl ParseResult {
    pub fn has_errors(&self) -> bool {
        has_errors(&self.diagnostics)
    }
}

/// Reads `path` through `fs`, preprocesses and parses it.
pub fn parse_file(sources: &mut SourceMap, path: &Path, options: &PpOptions, fs: &dyn FileSystem) -> ParseResult {
    let mut diagnostics = Vec::new();
    let root = match fs.read(path) {
        Ok(bytes) => {
            let (text, bad) = source::decode(bytes);
            let id = sources.add_file(path.display().to_string(), Some(source::normalize(path)), text);
            if let Some(at) = bad {
                diagnostics.push(not_utf8(id, at));
            }
            id
        }
        Err(e) => {
            let code = source::read_error_code(&e, codes::E_IO);
            diagnostics.push(Diagnostic::error(code, format!("cannot read {}: {e}", path.display())));
            return ParseResult {
                root: None,
                unit: ast::TranslationUnit::default(),
                preprocessed: Preprocessed::default(),
                diagnostics,
            };
        }
    };
    let mut result = parse_root(sources, root, options, fs);
    diagnostics.append(&mut result.diagnostics);
    result.diagnostics = diagnostics;
    result
}

/// Preprocesses and parses a file already in `sources`.
pub fn parse_root(sources: &mut SourceMap, root: FileId, options: &PpOptions, fs: &dyn FileSystem) -> ParseResult {
    let (preprocessed, mut diagnostics) = pp::preprocess(sources, root, options, fs);
    let (unit, mut parse_diagnostics) = parser::parse(sources, &preprocessed.tokens);
    diagnostics.append(&mut parse_diagnostics);
    diagnostic::cap_per_code(&mut diagnostics, diagnostic::MAX_PER_CODE);
    ParseResult { root: Some(root), unit, preprocessed, diagnostics }
}

/// Parses Cg text held in memory under `name` (includes resolve against `fs`).
pub fn parse_str(
    sources: &mut SourceMap,
    name: &str,
    text: &str,
    options: &PpOptions,
    fs: &dyn FileSystem,
) -> ParseResult {
    let root = sources.add_file(name, Some(source::normalize(Path::new(name))), text.to_owned());
    parse_root(sources, root, options, fs)
}

/// The W0101 warning for a file that is not UTF-8.
pub fn not_utf8(file: FileId, at: usize) -> Diagnostic {
    let at = at as u32;
    Diagnostic::warning(codes::W_NOT_UTF8, "file is not valid UTF-8; invalid bytes were replaced")
        // The decoded text holds U+FFFD (3 bytes) where the bad byte was.
        .with_primary(Span::new(file, at, at + '\u{FFFD}'.len_utf8() as u32), "first invalid byte here")
}
