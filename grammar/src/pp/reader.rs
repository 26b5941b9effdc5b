//! The bottom of the expander: reading the current file's tokens line by line.
//!
//! [`Pp::next_base`] hands out the current file's text tokens (no `Newline`s; a line
//! break counts as whitespace before the next token) and, whenever a line starts with
//! `#`, runs that directive first. Files are a hard boundary: at the end of a file it
//! returns `None` until the driver calls [`Pp::leave_file`], which also reports
//! unterminated conditionals and the file's lexical errors outside skipped text.
//!
//! This module never expands macros and never looks further than the current file.

use super::include;
use super::state::{FileState, LexedFile, PTok, Pp};
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{self, Token, TokenKind};
use crate::source::FileId;
use std::rc::Rc;

impl Pp<'_> {
    /// Enters the root file.
    pub fn enter_root(&mut self, root: FileId) {
        if let Some(path) = self.sources.file(root).path.clone() {
            self.loaded.insert(path, root);
        }
        self.files.push(root);
        self.enter_file(root);
        if let Some(f) = self.stack.last() {
            self.out.reserve(f.lexed.tokens.len());
        }
    }

    /// Pushes `file` on the include stack (lexing it on first use).
    pub fn enter_file(&mut self, file: FileId) {
        let lexed = self.lexed_file(file);
        self.stack.push(FileState {
            file,
            lexed,
            pos: 0,
            cond_base: self.conds.len(),
            line_delta: 0,
            presumed_name: None,
            quiet: Vec::new(),
        });
    }

    pub fn lexed_file(&mut self, file: FileId) -> Rc<LexedFile> {
        if let Some(l) = self.lexed.get(&file) {
            return Rc::clone(l);
        }
        let (tokens, diagnostics) = lexer::lex(&self.sources.file(file).text, file);
        let guard = include::detect_guard(self.sources, &tokens);
        let l = Rc::new(LexedFile { tokens, diagnostics, guard });
        self.lexed.insert(file, Rc::clone(&l));
        l
    }

    /// Pops the current file: reports its unterminated conditionals and its lexical
    /// errors that do not lie in skipped or verbatim text.
    pub fn leave_file(&mut self) {
        let Some(f) = self.stack.pop() else { return };
        while self.conds.len() > f.cond_base {
            let Some(c) = self.conds.pop() else { break };
            self.diags.push(
                Diagnostic::error(codes::E_UNTERMINATED_CONDITIONAL, "unterminated conditional directive")
                    .with_primary(c.open, "this conditional has no matching `#endif`")
                    .with_note(format!("the file `{}` ends first", self.sources.file(f.file).name)),
            );
        }
        for d in &f.lexed.diagnostics {
            let at = d.primary_span().map_or(0, |s| s.start);
            if d.code != codes::E_UNTERMINATED_COMMENT && in_ranges(&f.quiet, at) {
                continue;
            }
            if self.reported.insert((d.code, f.file, at)) {
                self.diags.push(d.clone());
            }
        }
    }

    /// The next text token of the current file, after running any directives before it;
    /// `None` at the end of the file. `in_args`: a macro invocation is being collected.
    pub fn next_base(&mut self, in_args: bool) -> Option<PTok> {
        loop {
            let f = self.stack.last_mut()?;
            let t = *f.lexed.tokens.get(f.pos)?;
            match t.kind {
                TokenKind::Newline => f.pos += 1,
                TokenKind::Hash if t.line_start => self.directive(in_args),
                _ => {
                    f.pos += 1;
                    let leading_space = t.leading_space || t.line_start;
                    return Some(PTok::new(Token { leading_space, ..t }));
                }
            }
        }
    }

    /// The fast path for plain text, used while no expansion is in progress: copies
    /// the current file's tokens straight to the output until a directive, a name that
    /// may be a macro, or the end of the file.
    pub fn copy_plain_tokens(&mut self) {
        let Some(f) = self.stack.last_mut() else {
            return;
        };
        let toks = &f.lexed.tokens;
        let text = self.sources.file(f.file).text.as_str();
        let (filter, macros, out) = (&self.filter, &self.macros, &mut self.out);
        let expanding = !self.expansion_off;
        let mut i = f.pos;
        while let Some(&t) = toks.get(i) {
            match t.kind {
                TokenKind::Newline => {}
                TokenKind::Hash if t.line_start => break,
                TokenKind::Ident
                    if expanding && {
                        let name = text.get(t.span.range()).unwrap_or("");
                        filter.may_contain(name) && macros.contains_key(name)
                    } =>
                {
                    break
                }
                _ => out.push(Token { leading_space: t.leading_space || t.line_start, ..t }),
            }
            i += 1;
        }
        f.pos = i;
    }

    /// Moves past the current file's text tokens up to the next directive or the end of
    /// the file, keeping none (the directives-only walk of
    /// [`super::preprocess_directives`]).
    pub fn skip_plain_tokens(&mut self) {
        let Some(f) = self.stack.last_mut() else {
            return;
        };
        let toks = &f.lexed.tokens;
        let mut i = f.pos;
        while toks.get(i).is_some_and(|t| !(t.kind == TokenKind::Hash && t.line_start)) {
            i += 1;
        }
        f.pos = i;
    }

    /// Whether the next text token of the current file is `(` (a directive line in
    /// between means no). Changes nothing.
    pub fn peek_base_lparen(&self) -> bool {
        let Some(f) = self.stack.last() else {
            return false;
        };
        for t in f.lexed.tokens.get(f.pos..).unwrap_or(&[]) {
            match t.kind {
                TokenKind::Newline => continue,
                TokenKind::LParen => return true,
                _ => return false,
            }
        }
        false
    }

    /// Consumes the current directive line. Returns the file's tokens and the index
    /// range of the line after `#` (the `Newline` is left for the reader).
    pub fn take_line(&mut self) -> Option<(Rc<LexedFile>, usize, usize)> {
        let f = self.stack.last_mut()?;
        let hash = f.pos;
        let toks = &f.lexed.tokens;
        let end = toks
            .get(hash + 1..)
            .and_then(|rest| rest.iter().position(|t| t.kind == TokenKind::Newline))
            .map_or(toks.len(), |i| hash + 1 + i);
        f.pos = end;
        Some((Rc::clone(&f.lexed), hash + 1, end))
    }
}

/// Whether `at` lies in one of the sorted, disjoint ranges.
fn in_ranges(ranges: &[(u32, u32)], at: u32) -> bool {
    let i = ranges.partition_point(|r| r.0 <= at);
    i > 0 && ranges.get(i - 1).is_some_and(|r| at < r.1)
}
