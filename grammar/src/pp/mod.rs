//! The C preprocessor (ANSI C, as the Cg spec requires), working on tokens.
//!
//! PLACEHOLDER API: being implemented. See the contract on [`preprocess`].

use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::source::{FileId, FileSystem, SourceMap, Span};
use std::path::PathBuf;

/// Options of one preprocessing run.
#[derive(Clone, Debug)]
pub struct PpOptions {
    /// `-I` directories, searched in order after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]` in command-line order; `None` value means `1`.
    pub defines: Vec<(String, Option<String>)>,
    /// `#include` nesting limit (64).
    pub max_include_depth: usize,
    /// Upper bound on tokens produced by macro expansion in one run.
    pub expansion_budget: usize,
}

impl Default for PpOptions {
    fn default() -> PpOptions {
        PpOptions { include_dirs: Vec::new(), defines: Vec::new(), max_include_depth: 64, expansion_budget: 4_000_000 }
    }
}

/// A `#pragma` line, kept verbatim for later stages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// The whole directive line as written, from `#` to the end of the line
    /// (line splices removed), e.g. `#pragma parameter GAMMA "Gamma" 2.2 1.0 3.0 0.1`.
    pub text: String,
    /// Span of the directive line in its file.
    pub span: Span,
    /// Number of output tokens that precede the pragma (where it sits in the token stream).
    pub token_index: usize,
}

/// The result of preprocessing a root file.
#[derive(Clone, Debug, Default)]
pub struct Preprocessed {
    /// Output tokens, no `Newline`s, macros expanded.
    pub tokens: Vec<Token>,
    pub pragmas: Vec<Pragma>,
    /// Every file read, root first, in the order first included.
    pub files: Vec<FileId>,
}

/// Preprocesses `root` (already in `sources`). Never panics, never stops early.
pub fn preprocess(
    sources: &mut SourceMap,
    root: FileId,
    options: &PpOptions,
    fs: &dyn FileSystem,
) -> (Preprocessed, Vec<Diagnostic>) {
    let _ = (options, fs);
    let text = sources.file(root).text.clone();
    let (tokens, diags) = crate::lexer::lex(&text, root);
    let tokens = tokens.into_iter().filter(|t| t.kind != crate::lexer::TokenKind::Newline).collect();
    (Preprocessed { tokens, pragmas: Vec::new(), files: vec![root] }, diags)
}
