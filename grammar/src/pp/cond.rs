//! Conditional inclusion: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`, and
//! skipping the groups that are not taken.
//!
//! Open conditionals live on [`Pp::conds`]; skipping walks the file's line-start `#`
//! tokens with a plain nesting counter, so skipped groups cost one pass and no memory
//! per level. In a skipped group only the nesting of conditional directives is tracked:
//! nothing there is evaluated or reported (an unknown directive there is fine), and an
//! `#elif` after a taken group is not evaluated.
//!
//! This module never expands macros itself (conditions go through an isolated
//! [`Expander`]) and never reads past the end of the current file.

use super::expand::{Expander, Input};
use super::expr::{self, Term};
use super::state::{Cond, PTok, Pp};
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::source::{SourceMap, Span};
use std::rc::Rc;

/// A directive's name, for the directives whose nesting matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CondWord {
    If,
    Ifdef,
    Ifndef,
    Elif,
    Else,
    Endif,
}

impl CondWord {
    pub fn parse(word: &str) -> Option<CondWord> {
        Some(match word {
            "if" => CondWord::If,
            "ifdef" => CondWord::Ifdef,
            "ifndef" => CondWord::Ifndef,
            "elif" => CondWord::Elif,
            "else" => CondWord::Else,
            "endif" => CondWord::Endif,
            _ => return None,
        })
    }

    fn opens(self) -> bool {
        matches!(self, CondWord::If | CondWord::Ifdef | CondWord::Ifndef)
    }
}

/// The conditional word of the directive whose `#` is at `toks[hash]`, if any.
pub(super) fn cond_word(sources: &SourceMap, toks: &[Token], hash: usize) -> Option<CondWord> {
    let t = toks.get(hash + 1)?;
    if t.kind != TokenKind::Ident {
        return None;
    }
    CondWord::parse(sources.text(t.span))
}

/// Index of the next `#` that starts a line, from `from` on.
pub(super) fn next_directive(toks: &[Token], from: usize) -> Option<usize> {
    let rest = toks.get(from..)?;
    rest.iter().position(|t| t.line_start && t.kind == TokenKind::Hash).map(|i| from + i)
}

impl Pp<'_> {
    /// `#if`, `#ifdef` or `#ifndef` in a group being processed.
    pub(super) fn open_conditional(&mut self, word: CondWord, args: &[Token], head: Span) {
        let taken = match word {
            CondWord::If => self.eval_condition(args, head),
            _ => match args.first() {
                Some(t) if t.kind == TokenKind::Ident => {
                    let defined = self.macros.contains_key(self.text(t.span));
                    self.extra_tokens(&args[1..], if word == CondWord::Ifdef { "#ifdef" } else { "#ifndef" });
                    defined == (word == CondWord::Ifdef)
                }
                other => {
                    let span = other.map_or(head, |t| t.span);
                    self.diags.push(
                        Diagnostic::error(
                            codes::E_MALFORMED_DIRECTIVE,
                            "expected a macro name after `#ifdef`/`#ifndef`",
                        )
                        .with_primary(span, "not a macro name"),
                    );
                    false
                }
            },
        };
        self.conds.push(Cond { open: head, taken, else_at: None });
        if !taken {
            self.skip_group();
        }
    }

    /// Whether the innermost open conditional belongs to the current file.
    fn cond_open_here(&self) -> bool {
        self.conds.len() > self.stack.last().map_or(0, |f| f.cond_base)
    }

    /// `#elif`, `#else` or `#endif` met in a group being processed: the group was
    /// taken, so the rest of the conditional is skipped.
    pub(super) fn continue_conditional(&mut self, word: CondWord, args: &[Token], head: Span) {
        if !self.cond_open_here() {
            let name = self.text(head).trim_start_matches('#').trim().to_owned();
            self.diags.push(
                Diagnostic::error(codes::E_STRAY_CONDITIONAL, format!("`#{name}` without `#if`"))
                    .with_primary(head, "no open conditional in this file"),
            );
            return;
        }
        match word {
            CondWord::Endif => {
                self.extra_tokens(args, "#endif");
                self.conds.pop();
            }
            CondWord::Else => {
                self.extra_tokens(args, "#else");
                self.check_else(head, "#else");
                if let Some(c) = self.conds.last_mut() {
                    c.else_at.get_or_insert(head);
                }
                self.skip_group();
            }
            _ => {
                self.check_else(head, "#elif");
                self.skip_group();
            }
        }
    }

    /// E0109 when the innermost conditional has had its `#else` already. Returns
    /// whether it had.
    fn check_else(&mut self, head: Span, what: &str) -> bool {
        let Some(first) = self.conds.last().and_then(|c| c.else_at) else {
            return false;
        };
        self.diags.push(
            Diagnostic::error(codes::E_ELSE_AFTER_ELSE, format!("`{what}` after `#else`"))
                .with_primary(head, "no group may follow the `#else` group")
                .with_secondary(first, "the `#else` is here"),
        );
        true
    }

    /// Skips lines until a directive reopens processing: an `#elif` whose condition
    /// holds or an `#else` (when no group was taken yet), or the matching `#endif`.
    pub(super) fn skip_group(&mut self) {
        loop {
            let Some(f) = self.stack.last_mut() else {
                return;
            };
            let lexed = Rc::clone(&f.lexed);
            let toks = &lexed.tokens;
            let file_len = self.sources.file(f.file).text.len() as u32;
            let quiet_from = toks.get(f.pos).map_or(file_len, |t| t.span.start);
            let mut depth = 0usize;
            let mut i = f.pos;
            let found = loop {
                let Some(h) = next_directive(toks, i) else {
                    break None;
                };
                i = h + 1;
                match cond_word(self.sources, toks, h) {
                    Some(w) if w.opens() => depth += 1,
                    Some(CondWord::Endif) if depth > 0 => depth -= 1,
                    Some(w) if depth == 0 => break Some((h, w)),
                    _ => {}
                }
            };
            let quiet_to = found.and_then(|(h, _)| toks.get(h)).map_or(file_len, |t| t.span.start);
            f.pos = found.map_or(toks.len(), |(h, _)| h);
            self.quiet(quiet_from, quiet_to);
            let Some((_, word)) = found else { return };
            let Some((_, s, e)) = self.take_line() else {
                return;
            };
            let (Some(hash), Some(name)) = (toks.get(s.wrapping_sub(1)), toks.get(s)) else {
                return;
            };
            let head = hash.span.to(name.span);
            let args = toks.get(s + 1..e).unwrap_or(&[]);
            match word {
                CondWord::Endif => {
                    self.extra_tokens(args, "#endif");
                    self.conds.pop();
                    return;
                }
                CondWord::Else => {
                    self.extra_tokens(args, "#else");
                    if self.check_else(head, "#else") {
                        continue;
                    }
                    let Some(c) = self.conds.last_mut() else {
                        return;
                    };
                    c.else_at = Some(head);
                    if !c.taken {
                        c.taken = true;
                        return;
                    }
                }
                _ => {
                    let taken_before = self.conds.last().map(|c| c.taken) != Some(false);
                    if self.check_else(head, "#elif") || taken_before {
                        continue;
                    }
                    if self.eval_condition(args, head) {
                        if let Some(c) = self.conds.last_mut() {
                            c.taken = true;
                        }
                        return;
                    }
                }
            }
        }
    }

    /// Macro-expands and evaluates an `#if`/`#elif` condition; errors count as false.
    pub(super) fn eval_condition(&mut self, args: &[Token], head: Span) -> bool {
        let whole = args.last().map_or(head, |t| head.to(t.span));
        let budget_was_off = self.expansion_off;
        let mut exp = Expander::isolated(args.iter().map(|t| PTok::new(*t)).collect());
        let mut terms = Vec::with_capacity(args.len());
        while let Some(t) = exp.next(self, Input::Isolated) {
            if t.tok.kind == TokenKind::Ident && self.text(t.tok.span) == "defined" {
                match self.defined_operand(&mut exp, t.tok) {
                    Ok(term) => terms.push(term),
                    Err(d) => {
                        self.diags.push(d);
                        return false;
                    }
                }
            } else {
                terms.push(Term::Tok(t.tok));
            }
        }
        if self.expansion_off && !budget_was_off {
            return false;
        }
        match expr::evaluate(self.sources, &terms, whole) {
            Ok(v) => v.is_true(),
            Err(d) => {
                self.diags.push(d);
                false
            }
        }
    }

    /// Reads `X` or `( X )` after `defined`, unexpanded.
    fn defined_operand(&mut self, exp: &mut Expander, defined: Token) -> Result<Term, Diagnostic> {
        let err = |span: Span| {
            Diagnostic::error(codes::E_BAD_DEFINED, "`defined` must be followed by a macro name")
                .with_primary(span, "expected `defined NAME` or `defined(NAME)`")
        };
        let name = match exp.next_unexpanded(self, Input::Isolated) {
            Some(t) if t.tok.kind == TokenKind::Ident => return Ok(self.defined_term(defined, t.tok, t.tok)),
            Some(t) if t.tok.kind == TokenKind::LParen => match exp.next_unexpanded(self, Input::Isolated) {
                Some(n) if n.tok.kind == TokenKind::Ident => n.tok,
                other => return Err(err(other.map_or(t.tok.span, |o| o.tok.span))),
            },
            other => return Err(err(other.map_or(defined.span, |o| o.tok.span))),
        };
        match exp.next_unexpanded(self, Input::Isolated) {
            Some(r) if r.tok.kind == TokenKind::RParen => Ok(self.defined_term(defined, name, r.tok)),
            other => Err(err(other.map_or(name.span, |o| o.tok.span))),
        }
    }

    fn defined_term(&self, defined: Token, name: Token, last: Token) -> Term {
        let value = self.macros.contains_key(self.text(name.span));
        let span = if last.span.file == defined.span.file && last.span.expansion == defined.span.expansion {
            defined.span.to(last.span)
        } else {
            defined.span
        };
        Term::Defined(value, span)
    }

    /// W0103 for tokens after a directive that takes none (or no more).
    pub(super) fn extra_tokens(&mut self, extra: &[Token], directive: &str) {
        if let (Some(first), Some(last)) = (extra.first(), extra.last()) {
            self.diags.push(
                Diagnostic::warning(codes::W_EXTRA_TOKENS, format!("extra tokens at the end of `{directive}`"))
                    .with_primary(first.span.to(last.span), "ignored"),
            );
        }
    }
}
