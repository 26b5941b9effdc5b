//! Tests of the preprocessor: C semantics, directives, includes, diagnostics, limits.
//!
//! Every test runs the whole [`preprocess`] on in-memory files and looks at the output
//! rendered back to text (tokens joined by single spaces) and at diagnostic codes.

mod conditionals;
mod diagnostics;
mod expansion;
mod includes;
mod limits;

use super::{preprocess, PpOptions, Preprocessed};
use crate::diagnostic::{render_short, Diagnostic};
use crate::lexer::{lex, TokenKind};
use crate::source::{decode, normalize, FileId, FileSystem, MemoryFs, SourceMap};
use std::path::Path;

pub(super) struct Run {
    pub sources: SourceMap,
    pub out: Preprocessed,
    pub diags: Vec<Diagnostic>,
}

impl Run {
    /// The output tokens, joined by single spaces.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self.out.tokens.iter().map(|t| self.sources.text(t.span)).collect();
        texts.join(" ")
    }

    pub fn codes(&self) -> Vec<&'static str> {
        self.diags.iter().map(|d| d.code).collect()
    }

    pub fn short(&self) -> String {
        render_short(&self.sources, &self.diags)
    }

    /// The only diagnostic; fails the test otherwise.
    pub fn single(&self) -> &Diagnostic {
        assert_eq!(self.diags.len(), 1, "expected one diagnostic, got:\n{}", self.short());
        &self.diags[0]
    }

    /// `file:line:col` of a diagnostic, mapped to the user's text.
    pub fn place(&self, d: &Diagnostic) -> String {
        let l = d.location(&self.sources).expect("diagnostic has a location");
        format!("{}:{}:{}", l.file, l.line, l.column)
    }
}

/// Preprocesses `root` read from `fs`.
pub(super) fn run_with(fs: &MemoryFs, root: &str, options: &PpOptions) -> Run {
    let mut sources = SourceMap::new();
    let (text, _) = decode(fs.read(Path::new(root)).unwrap_or_default());
    let id = sources.add_file(root, Some(normalize(Path::new(root))), text);
    let (out, diags) = preprocess(&mut sources, id, options, fs);
    Run { sources, out, diags }
}

/// Preprocesses one file `main.cg` holding `src`.
pub(super) fn pp(src: &str) -> Run {
    run_with(&MemoryFs::new().with("main.cg", src), "main.cg", &PpOptions::default())
}

/// Lexes `text` and joins its tokens with single spaces (the form [`Run::text`] gives).
pub(super) fn norm(text: &str) -> String {
    let (toks, _) = lex(text, FileId(0));
    let texts: Vec<&str> =
        toks.iter().filter(|t| t.kind != TokenKind::Newline).map(|t| &text[t.span.range()]).collect();
    texts.join(" ")
}

/// Asserts that `src` preprocesses without diagnostics to the tokens of `expected`.
#[track_caller]
pub(super) fn expands(src: &str, expected: &str) {
    let r = pp(src);
    assert!(r.diags.is_empty(), "unexpected diagnostics:\n{}", r.short());
    assert_eq!(r.text(), norm(expected), "\nsource:\n{src}");
}
