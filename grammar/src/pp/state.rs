//! The shared state of one preprocessing run and the small types every part uses.
//!
//! [`Pp`] owns the macro table, the include stack, the conditional stack, the output
//! and the diagnostics; the expander ([`super::expand`]) is kept apart so that a
//! directive met in the middle of a macro invocation can run a second, isolated
//! expander on its own line. This module holds data and bookkeeping only: it never
//! reads files and never expands macros.

use super::macros::{Macro, MacroTable, NameFilter};
use super::{PpOptions, Pragma, Preprocessed};
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::source::{FileId, FileSystem, SourceMap, Span};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

/// A token inside the preprocessor: the token plus its "painted blue" mark.
///
/// A painted identifier named a macro that was being expanded when the identifier was
/// read; C forbids expanding it ever again, even after that expansion has ended.
#[derive(Clone, Copy, Debug)]
pub(super) struct PTok {
    pub tok: Token,
    pub painted: bool,
}

impl PTok {
    pub fn new(tok: Token) -> PTok {
        PTok { tok, painted: false }
    }
}

/// A file lexed once and shared by all of its inclusions.
#[derive(Debug)]
pub(super) struct LexedFile {
    pub tokens: Vec<Token>,
    /// Lexical errors, in file order; reported unless they lie in skipped or verbatim text.
    pub diagnostics: Vec<Diagnostic>,
    /// The include-guard macro, when the whole file is one `#ifndef X` ... `#endif` group.
    pub guard: Option<String>,
}

/// One open file on the include stack.
#[derive(Debug)]
pub(super) struct FileState {
    pub file: FileId,
    pub lexed: Rc<LexedFile>,
    /// Index of the next token to read.
    pub pos: usize,
    /// Depth of the conditional stack when the file was entered.
    pub cond_base: usize,
    /// `#line`: presumed line = physical line + `line_delta`.
    pub line_delta: i64,
    /// `#line N "name"`: the name `__FILE__` reports.
    pub presumed_name: Option<String>,
    /// Byte ranges whose lexical errors are not reported (skipped groups, `#error` text).
    pub quiet: Vec<(u32, u32)>,
}

/// One open `#if` group.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cond {
    /// The opening directive (`#` through its name).
    pub open: Span,
    /// Some group of this conditional has been taken (so later `#elif`/`#else` are skipped).
    pub taken: bool,
    /// Where `#else` was seen.
    pub else_at: Option<Span>,
}

pub(super) struct Pp<'a> {
    pub sources: &'a mut SourceMap,
    pub options: &'a PpOptions,
    pub fs: &'a dyn FileSystem,
    /// Use [`Pp::define_macro`] to add, so that `filter` stays in step.
    pub macros: MacroTable,
    pub filter: NameFilter,
    pub diags: Vec<Diagnostic>,
    pub out: Vec<Token>,
    pub pragmas: Vec<Pragma>,
    /// Files read, root first.
    pub files: Vec<FileId>,
    pub stack: Vec<FileState>,
    pub conds: Vec<Cond>,
    /// Normalised path to file, for files already read.
    pub loaded: HashMap<PathBuf, FileId>,
    pub lexed: HashMap<FileId, Rc<LexedFile>>,
    /// Files that said `#pragma once`.
    pub once: HashSet<FileId>,
    /// Lexical errors already reported (a file included twice reports them once).
    pub reported: HashSet<(&'static str, FileId, u32)>,
    /// Tokens charged against [`PpOptions::expansion_budget`].
    pub budget_used: usize,
    /// Set once the budget ran out: macros are no longer expanded.
    pub expansion_off: bool,
}

impl<'a> Pp<'a> {
    pub fn new(sources: &'a mut SourceMap, options: &'a PpOptions, fs: &'a dyn FileSystem) -> Pp<'a> {
        let mut pp = Pp {
            sources,
            options,
            fs,
            macros: MacroTable::default(),
            filter: NameFilter::default(),
            diags: Vec::new(),
            out: Vec::new(),
            pragmas: Vec::new(),
            files: Vec::new(),
            stack: Vec::new(),
            conds: Vec::new(),
            loaded: HashMap::new(),
            lexed: HashMap::new(),
            once: HashSet::new(),
            reported: HashSet::new(),
            budget_used: 0,
            expansion_off: false,
        };
        for m in [Macro::builtin_line(), Macro::builtin_file()] {
            pp.define_macro(m);
        }
        pp
    }

    pub fn define_macro(&mut self, m: Macro) {
        self.filter.insert(&m.name);
        self.macros.insert(m.name.clone(), Rc::new(m));
    }

    pub fn finish(self) -> (Preprocessed, Vec<Diagnostic>) {
        (Preprocessed { tokens: self.out, pragmas: self.pragmas, files: self.files }, self.diags)
    }

    pub fn text(&self, span: Span) -> &str {
        self.sources.text(span)
    }

    /// The macro an identifier token names, if any.
    #[inline]
    pub fn lookup(&self, tok: &Token) -> Option<Rc<Macro>> {
        let name = self.sources.text(tok.span);
        if !self.filter.may_contain(name) {
            return None;
        }
        self.macros.get(name).cloned()
    }

    /// Charges `n` tokens of expansion work. Returns false (after reporting E0112 once)
    /// when the budget is spent; from then on no macro is expanded.
    pub fn charge(&mut self, n: usize, at: Span) -> bool {
        if self.expansion_off {
            return false;
        }
        self.budget_used = self.budget_used.saturating_add(n);
        if self.budget_used <= self.options.expansion_budget {
            return true;
        }
        self.expansion_off = true;
        let site = self.sources.user_span(at);
        self.diags.push(
            Diagnostic::error(
                codes::E_EXPANSION_BUDGET,
                format!(
                    "macro expansion produced more than {} tokens; expansion stopped here",
                    self.options.expansion_budget
                ),
            )
            .with_primary(Span { expansion: at.expansion, ..site }, "while expanding this")
            .with_note("macros are not expanded in the rest of this file set (runaway or exponential macro?)"),
        );
        false
    }

    /// The file the reader is in (the `<command line>` pseudo file included).
    pub fn current_file(&self) -> Option<FileId> {
        self.stack.last().map(|f| f.file)
    }

    /// The line `__LINE__` reports for a span in the user's text.
    pub fn presumed_line(&self, span: Span) -> i64 {
        let physical = self.sources.file(span.file).line_index(span.start) as i64 + 1;
        match self.stack.last() {
            Some(f) if f.file == span.file => physical + f.line_delta,
            _ => physical,
        }
    }

    /// The file name `__FILE__` reports.
    pub fn presumed_file(&self) -> String {
        match self.stack.last() {
            Some(f) => match &f.presumed_name {
                Some(name) => name.clone(),
                None => self.sources.file(f.file).name.clone(),
            },
            None => String::new(),
        }
    }

    /// Marks a byte range of the current file as not to report lexical errors in.
    pub fn quiet(&mut self, start: u32, end: u32) {
        if let Some(f) = self.stack.last_mut() {
            if start < end {
                f.quiet.push((start, end));
            }
        }
    }
}
