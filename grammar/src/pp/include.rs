//! `#include`: naming, finding, reading and entering files.
//!
//! A header name is looked up beside the including file, then in each `-I` directory
//! in order (the same for `"f"` and `<f>`). Files are read through the
//! [`crate::FileSystem`], added to the source map once (by normalised path) and lexed
//! once.
//!
//! **Recursion policy.** Including a file that is still open on the include stack is
//! an include cycle (E0105, the chain shown in a note) *unless* that inclusion would be
//! skipped entirely anyway: when the file said `#pragma once`, or when the whole file
//! is one `#ifndef G` ... `#endif` group (detected by [`detect_guard`]) and `G` is
//! defined. Skipping such an inclusion is exactly what C would do (the guard makes the
//! file expand to nothing), so guarded headers that include each other are legal,
//! while real self-inclusion, which in C could only end at the nesting limit, is
//! reported at once. Nesting deeper than `max_include_depth` is E0106.
//!
//! This module never panics on a missing or unreadable file and never reads a file
//! more than once per run.

use super::state::Pp;
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::source::{self, FileId, SourceMap, Span};
use std::path::{Path, PathBuf};

impl Pp<'_> {
    /// `#include` with the tokens after the word `include`.
    pub(super) fn include(&mut self, args: &[Token], head: Span, in_args: bool) {
        if in_args {
            self.diags.push(
                Diagnostic::error(
                    codes::E_MALFORMED_DIRECTIVE,
                    "`#include` inside the arguments of a macro invocation",
                )
                .with_primary(head, "not allowed here"),
            );
            return;
        }
        let Some((name, name_span)) = self.header_name(args, head) else {
            return;
        };
        let Some(includer) = self.current_file() else {
            return;
        };
        let mut dirs: Vec<PathBuf> = Vec::with_capacity(1 + self.options.include_dirs.len());
        let here = self.sources.file(includer).path.as_deref().and_then(Path::parent).map(Path::to_path_buf);
        dirs.push(here.unwrap_or_default());
        dirs.extend(self.options.include_dirs.iter().cloned());
        let found = dirs
            .iter()
            .map(|d| source::normalize(&d.join(&name)))
            .find(|p| self.loaded.contains_key(p) || self.fs.exists(p));
        let Some(path) = found else {
            let searched: Vec<String> = dirs
                .iter()
                .map(|d| if d.as_os_str().is_empty() { ".".to_owned() } else { d.display().to_string() })
                .collect();
            self.diags.push(
                Diagnostic::error(codes::E_INCLUDE_NOT_FOUND, format!("include file `{name}` not found"))
                    .with_primary(name_span, "no such file")
                    .with_note(format!("searched: {}", searched.join(", "))),
            );
            return;
        };
        let Some(id) = self.load(&path, name_span) else {
            return;
        };
        if self.once.contains(&id) {
            return;
        }
        let lexed = self.lexed_file(id);
        if lexed.guard.as_deref().is_some_and(|g| self.macros.contains_key(g)) {
            return;
        }
        if let Some(at) = self.stack.iter().position(|f| f.file == id) {
            let mut chain: Vec<&str> =
                self.stack[at..].iter().map(|f| self.sources.file(f.file).name.as_str()).collect();
            chain.push(self.sources.file(id).name.as_str());
            let note = format!("include cycle: {}", chain.join(" -> "));
            self.diags.push(
                Diagnostic::error(codes::E_INCLUDE_CYCLE, format!("`{}` includes itself", self.sources.file(id).name))
                    .with_primary(name_span, "this file is already being included")
                    .with_note(note)
                    .with_note("add an include guard or `#pragma once`, or remove the inclusion"),
            );
            return;
        }
        if self.stack.len() >= self.options.max_include_depth {
            self.diags.push(
                Diagnostic::error(
                    codes::E_INCLUDE_DEPTH,
                    format!("`#include` nested deeper than {} files", self.options.max_include_depth),
                )
                .with_primary(name_span, "too deep here"),
            );
            return;
        }
        self.enter_file(id);
    }

    /// The header name of `#include "f"`, `#include <f>` or a macro expanding to one.
    fn header_name(&mut self, args: &[Token], head: Span) -> Option<(String, Span)> {
        let expanded;
        let toks = if self.literal_header(args).is_some() {
            args
        } else {
            expanded = self.expand_line(args);
            &expanded[..]
        };
        let Some((name, span, used)) = self.literal_header(toks) else {
            self.diags.push(
                Diagnostic::error(codes::E_MALFORMED_DIRECTIVE, "`#include` expects \"file\" or <file>")
                    .with_primary(args.first().map_or(head, |t| t.span), "expected a file name"),
            );
            return None;
        };
        self.extra_tokens(toks.get(used..).unwrap_or(&[]), "#include");
        if name.is_empty() {
            self.diags.push(
                Diagnostic::error(codes::E_MALFORMED_DIRECTIVE, "empty file name in `#include`")
                    .with_primary(span, "expected a file name"),
            );
            return None;
        }
        Some((name, span))
    }

    /// `"f"` or `< ... >` at the start of `toks`: name, span and tokens used.
    fn literal_header(&self, toks: &[Token]) -> Option<(String, Span, usize)> {
        let first = toks.first()?;
        match first.kind {
            TokenKind::StringLit => {
                let text = self.text(first.span);
                let inner = text.strip_prefix('"')?.strip_suffix('"')?;
                Some((inner.to_owned(), first.span, 1))
            }
            TokenKind::Lt => {
                let close = toks.iter().position(|t| t.kind == TokenKind::Gt)?;
                let last = toks.get(close)?;
                let same_place =
                    toks[..=close].iter().all(|t| t.span.file == first.span.file && t.span.expansion.is_none());
                let name = if same_place {
                    let inner = Span { start: first.span.end, end: last.span.start, ..first.span };
                    self.text(inner).to_owned()
                } else {
                    let mut s = String::new();
                    for (i, t) in toks[1..close].iter().enumerate() {
                        if i > 0 && t.leading_space {
                            s.push(' ');
                        }
                        s.push_str(self.text(t.span));
                    }
                    s
                };
                let span = if same_place { first.span.to(last.span) } else { first.span };
                Some((name, span, close + 1))
            }
            _ => None,
        }
    }

    /// The file at `path`, read and added to the source map on first use.
    fn load(&mut self, path: &Path, at: Span) -> Option<FileId> {
        if let Some(&id) = self.loaded.get(path) {
            return Some(id);
        }
        match self.fs.read(path) {
            Ok(bytes) => {
                let (text, bad) = source::decode(bytes);
                let id = self.sources.add_file(path.display().to_string(), Some(path.to_path_buf()), text);
                if let Some(offset) = bad {
                    self.diags.push(crate::not_utf8(id, offset));
                }
                self.loaded.insert(path.to_path_buf(), id);
                self.files.push(id);
                Some(id)
            }
            Err(e) => {
                let code = source::read_error_code(&e, codes::E_IO);
                self.diags.push(
                    Diagnostic::error(code, format!("cannot read `{}`: {e}", path.display()))
                        .with_primary(at, "included here"),
                );
                None
            }
        }
    }
}

/// The include-guard macro of a file that consists of one `#ifndef G` (or
/// `#if !defined G` / `#if !defined(G)`) group and nothing else but whitespace and
/// comments around it.
pub(super) fn detect_guard(sources: &SourceMap, toks: &[Token]) -> Option<String> {
    let start = toks.iter().position(|t| t.kind != TokenKind::Newline)?;
    if toks[start].kind != TokenKind::Hash {
        return None;
    }
    let line_end = toks[start..].iter().position(|t| t.kind == TokenKind::Newline).map_or(toks.len(), |i| start + i);
    let line = &toks[start + 1..line_end];
    let text = |t: &Token| sources.text(t.span);
    let is = |t: &Token, kind: TokenKind, s: &str| t.kind == kind && text(t) == s;
    let guard = match line {
        [d, g] if is(d, TokenKind::Ident, "ifndef") && g.kind == TokenKind::Ident => text(g),
        [d, n, def, g]
            if is(d, TokenKind::Ident, "if")
                && n.kind == TokenKind::Bang
                && is(def, TokenKind::Ident, "defined")
                && g.kind == TokenKind::Ident =>
        {
            text(g)
        }
        [d, n, def, l, g, r]
            if is(d, TokenKind::Ident, "if")
                && n.kind == TokenKind::Bang
                && is(def, TokenKind::Ident, "defined")
                && l.kind == TokenKind::LParen
                && g.kind == TokenKind::Ident
                && r.kind == TokenKind::RParen =>
        {
            text(g)
        }
        _ => return None,
    };
    let mut depth = 1usize;
    let mut i = line_end;
    loop {
        let h = super::cond::next_directive(toks, i)?;
        i = h + 1;
        match super::cond::cond_word(sources, toks, h) {
            Some(super::cond::CondWord::If | super::cond::CondWord::Ifdef | super::cond::CondWord::Ifndef) => {
                depth += 1
            }
            Some(super::cond::CondWord::Endif) => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Some(super::cond::CondWord::Elif | super::cond::CondWord::Else) if depth == 1 => return None,
            _ => {}
        }
    }
    // Nothing but the rest of the `#endif` line may follow.
    let after = toks[i..].iter().position(|t| t.kind == TokenKind::Newline).map_or(toks.len(), |n| i + n);
    if toks[after..].iter().all(|t| t.kind == TokenKind::Newline) {
        Some(guard.to_owned())
    } else {
        None
    }
}
