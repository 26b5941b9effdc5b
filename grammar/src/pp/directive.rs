//! Directive dispatch and the simple directives: `#define`, `#undef`, `#line`,
//! `#error`, `#warning`, `#pragma`, the null directive, and unknown names (E0116).
//! Conditionals are in [`super::cond`], `#include` in [`super::include`].
//!
//! A directive handler consumes exactly its own line; it never panics on malformed
//! input (each malformation is one diagnostic) and never expands `#pragma` lines.

use super::cond::CondWord;
use super::expand::{Expander, Input};
use super::macros;
use super::state::{PTok, Pp};
use super::Pragma;
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::source::Span;

impl Pp<'_> {
    /// Runs the directive whose `#` is the next token of the current file.
    /// `in_args`: it sits inside the arguments of a macro invocation.
    pub(super) fn directive(&mut self, in_args: bool) {
        let Some((lexed, s, e)) = self.take_line() else {
            return;
        };
        let toks = &lexed.tokens;
        let (Some(&hash), Some(line)) = (toks.get(s.wrapping_sub(1)), toks.get(s..e)) else {
            return;
        };
        // `#` alone: the null directive.
        let Some(&name) = line.first() else { return };
        let args = &line[1..];
        let head = hash.span.to(name.span);
        let whole = hash.span.to(line.last().map_or(name.span, |t| t.span));
        if name.kind == TokenKind::IntLit {
            // GNU line marker `# 12 "file"`: the same as `#line 12 "file"`.
            self.line_directive(line, head, whole);
            return;
        }
        let word = if name.kind == TokenKind::Ident { self.text(name.span) } else { "" };
        if let Some(w) = CondWord::parse(word) {
            match w {
                CondWord::If | CondWord::Ifdef | CondWord::Ifndef => self.open_conditional(w, args, head),
                _ => self.continue_conditional(w, args, head),
            }
            return;
        }
        match word {
            "define" => self.define(args, whole),
            "undef" => self.undef(args, head),
            "include" => self.include(args, head, in_args),
            "line" => self.line_directive(args, head, whole),
            "error" | "warning" => self.message(word == "error", name, whole),
            "pragma" => self.pragma(args, whole),
            _ => {
                let shown = self.text(name.span).to_owned();
                self.diags.push(
                    Diagnostic::error(
                        codes::E_UNKNOWN_DIRECTIVE,
                        format!("unknown preprocessing directive `#{shown}`"),
                    )
                    .with_primary(head, "not a directive"),
                );
            }
        }
    }

    fn define(&mut self, args: &[Token], whole: Span) {
        match macros::parse_define(self.sources, args, whole) {
            Ok(m) => {
                if let Some(old) = self.macros.get(&m.name) {
                    if !old.same_as(&m, self.sources) {
                        let mut d = Diagnostic::warning(
                            codes::W_MACRO_REDEFINED,
                            format!("macro `{}` redefined with a different replacement", m.name),
                        );
                        if let Some(span) = m.name_span {
                            d = d.with_primary(span, "redefined here");
                        }
                        if let Some(span) = old.name_span {
                            d = d.with_secondary(span, "previous definition");
                        }
                        self.diags.push(d);
                    }
                }
                self.define_macro(m);
            }
            Err(d) => self.diags.push(d),
        }
    }

    fn undef(&mut self, args: &[Token], head: Span) {
        match args.first() {
            Some(t) if t.kind == TokenKind::Ident => {
                let name = self.sources.text(t.span);
                self.macros.remove(name);
                self.extra_tokens(&args[1..], "#undef");
            }
            other => self.diags.push(
                Diagnostic::error(codes::E_MALFORMED_DIRECTIVE, "`#undef` expects a macro name")
                    .with_primary(other.map_or(head, |t| t.span), "expected an identifier"),
            ),
        }
    }

    /// `#line N ["file"]` (after macro expansion when not already in that form).
    fn line_directive(&mut self, args: &[Token], head: Span, whole: Span) {
        let direct = match args {
            [n] => n.kind == TokenKind::IntLit,
            [n, f] => n.kind == TokenKind::IntLit && f.kind == TokenKind::StringLit,
            _ => false,
        };
        let toks: Vec<Token> = if direct { args.to_vec() } else { self.expand_line(args) };
        let malformed = |span: Span| {
            Diagnostic::error(codes::E_MALFORMED_DIRECTIVE, "`#line` expects a line number and an optional file name")
                .with_primary(span, "expected `#line 12` or `#line 12 \"file.cg\"`")
        };
        let number = match toks.first() {
            Some(t) if t.kind == TokenKind::IntLit => self.text(t.span).parse::<u32>().ok(),
            _ => None,
        };
        let Some(number) = number else {
            self.diags.push(malformed(toks.first().map_or(head, |t| t.span)));
            return;
        };
        let name = match toks.get(1) {
            None => None,
            Some(t) if t.kind == TokenKind::StringLit && toks.len() == 2 => Some(unquote(self.text(t.span))),
            Some(t) => {
                self.diags.push(malformed(t.span));
                return;
            }
        };
        let next_line = self.sources.file(whole.file).line_index(whole.end) as i64 + 2;
        if let Some(f) = self.stack.last_mut() {
            f.line_delta = i64::from(number) - next_line;
            if name.is_some() {
                f.presumed_name = name;
            }
        }
    }

    /// Fully macro-expands a directive's tokens (for `#include` and `#line`).
    pub(super) fn expand_line(&mut self, args: &[Token]) -> Vec<Token> {
        let mut exp = Expander::isolated(args.iter().map(|t| PTok::new(*t)).collect());
        let mut out = Vec::with_capacity(args.len());
        while let Some(t) = exp.next(self, Input::Isolated) {
            out.push(t.tok);
        }
        out
    }

    /// `#error` (E0113) and `#warning` (W0105): the rest of the line, verbatim.
    fn message(&mut self, error: bool, name: Token, whole: Span) {
        self.quiet(whole.start, whole.end);
        let rest = Span { start: name.span.end, ..whole };
        let text = unsplice(self.text(rest)).trim().to_owned();
        let d = if error {
            Diagnostic::error(codes::E_ERROR_DIRECTIVE, format!("#error {text}"))
                .with_primary(whole, "`#error` directive reached")
        } else {
            Diagnostic::warning(codes::W_WARNING_DIRECTIVE, format!("#warning {text}"))
                .with_primary(whole, "`#warning` directive reached")
        };
        self.diags.push(d);
    }

    /// `#pragma`: kept verbatim, unexpanded. `#pragma once` is obeyed instead.
    fn pragma(&mut self, args: &[Token], whole: Span) {
        self.quiet(whole.start, whole.end);
        if let [once] = args {
            if once.kind == TokenKind::Ident && self.text(once.span) == "once" {
                if let Some(file) = self.current_file() {
                    self.once.insert(file);
                }
                return;
            }
        }
        let text = unsplice(self.text(whole));
        self.pragmas.push(Pragma { text, span: whole, token_index: self.out.len() });
    }
}

/// Removes line splices (backslash-newline).
pub(super) fn unsplice(text: &str) -> String {
    text.replace("\\\r\n", "").replace("\\\n", "")
}

/// The contents of a string literal, with `\\` and `\"` unescaped.
pub(super) fn unquote(text: &str) -> String {
    let inner = text.strip_prefix('"').unwrap_or(text);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut s = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                s.push(n);
            }
        } else {
            s.push(c);
        }
    }
    s
}
