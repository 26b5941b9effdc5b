//! The C preprocessor (ANSI C, as the Cg spec requires), working on tokens.
//!
//! [`preprocess`] reads a root file (and everything it `#include`s) as logos tokens,
//! obeys the directives and expands macros, producing the token stream the parser
//! reads: no `Newline`s, every token still pointing at where it is spelled (its file and
//! offset) and, through `span.expansion`, at the chain of macro invocations that
//! produced it. `#pragma` lines are kept verbatim in [`Preprocessed::pragmas`].
//!
//! The work is split into small modules: [`state`] (shared state of one run),
//! [`reader`] (file stack, line structure, directive dispatch), [`directive`] (one
//! handler per directive), [`cond`] (conditional groups and skipping), [`include`]
//! (finding and entering files), [`macros`] (definitions), [`expand`] (the macro
//! expander), [`subst`] (argument substitution, `#` and `##`), [`expr`] (`#if`
//! arithmetic).
//!
//! This module never panics on any input, never stops at the first error, and never
//! recurses per token or per nesting level: deep `#if` nesting, deep parentheses and
//! long macro chains are handled with explicit stacks, and the total expansion work is
//! bounded by [`PpOptions::expansion_budget`].
//!
//! Predefined macros: only `__LINE__` and `__FILE__` (plus the `-D` definitions of
//! [`PpOptions::defines`]). `#include <f>` searches the same places as `#include "f"`.

mod cond;
mod directive;
mod expand;
mod expr;
mod include;
mod macros;
mod reader;
mod state;
mod subst;

#[cfg(test)]
mod tests;

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
///
/// `-D` definitions are written into a `<command line>` pseudo file (so that they have
/// spans) and processed before the root. `#pragma once` is obeyed and not recorded in
/// [`Preprocessed::pragmas`]; every other `#pragma` in a taken group is.
pub fn preprocess(
    sources: &mut SourceMap,
    root: FileId,
    options: &PpOptions,
    fs: &dyn FileSystem,
) -> (Preprocessed, Vec<Diagnostic>) {
    let mut expander = expand::Expander::new();
    drive(sources, root, options, fs, |pp| run(pp, &mut expander))
}

/// [`preprocess`] reduced to the directives: conditionals, definitions, includes and
/// pragmas are obeyed exactly as there, but the text between directives is skipped, not
/// macro-expanded, so [`Preprocessed::tokens`] is empty and every pragma's
/// `token_index` is 0. For a caller that wants only the pragmas of the groups taken
/// (the `#pragma parameter` lines of a preset's passes) at a fraction of the cost.
pub fn preprocess_directives(
    sources: &mut SourceMap,
    root: FileId,
    options: &PpOptions,
    fs: &dyn FileSystem,
) -> (Preprocessed, Vec<Diagnostic>) {
    drive(sources, root, options, fs, run_directives)
}

/// One run: the `-D` definitions (a `<command line>` pseudo file), then the root, each
/// read to its end by `walk`.
fn drive(
    sources: &mut SourceMap,
    root: FileId,
    options: &PpOptions,
    fs: &dyn FileSystem,
    mut walk: impl FnMut(&mut state::Pp<'_>),
) -> (Preprocessed, Vec<Diagnostic>) {
    let mut pp = state::Pp::new(sources, options, fs);
    if !options.defines.is_empty() {
        let text = command_line_text(&options.defines);
        let id = pp.sources.add_command_line(text);
        pp.enter_file(id);
        walk(&mut pp);
    }
    pp.enter_root(root);
    walk(&mut pp);
    pp.finish()
}

/// Runs the directives of every open file, skipping the text between them.
fn run_directives(pp: &mut state::Pp<'_>) {
    while !pp.stack.is_empty() {
        pp.skip_plain_tokens();
        // Runs the directives ahead and reads past the next text token (dropped).
        if pp.next_base(false).is_none() {
            pp.leave_file();
        }
    }
}

/// Expands tokens until every open file has ended.
fn run(pp: &mut state::Pp<'_>, expander: &mut expand::Expander) {
    while !pp.stack.is_empty() {
        if expander.is_idle() {
            pp.copy_plain_tokens();
        }
        match expander.next(pp, expand::Input::File) {
            Some(t) => pp.out.push(t.tok),
            None => pp.leave_file(),
        }
    }
}

/// `#define` lines for the `-D` options. A name may carry parameters (`F(x)=x`);
/// line breaks in names or values become spaces so that each option stays one line.
fn command_line_text(defines: &[(String, Option<String>)]) -> String {
    let mut text = String::new();
    for (name, value) in defines {
        let clean = |s: &str| s.replace(['\r', '\n'], " ");
        text.push_str("#define ");
        text.push_str(&clean(name));
        text.push(' ');
        text.push_str(&clean(value.as_deref().unwrap_or("1")));
        // A trailing space keeps a value ending in `\` from splicing the next line.
        text.push_str(" \n");
    }
    text
}
