//! Substitution of one macro invocation: replacement list plus arguments in, the
//! tokens to rescan out.
//!
//! Replacement-list tokens get the invocation's [`ExpansionId`]; argument tokens keep
//! their own spans (the user wrote them at the call site). `#param` spells the raw
//! argument as a string literal and `a ## b` pastes two tokens into one (with C's
//! placemarkers for empty arguments, and GNU's `, ## __VA_ARGS__` comma removal);
//! tokens made this way are spelled in the source map's scratch file.
//!
//! This module never rescans (that is the expander's job) and never panics: a paste
//! that does not form one token is reported (E0117) and both tokens are kept.

use super::macros::{Item, Macro, MacroKind};
use super::state::{PTok, Pp};
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{self, Token, TokenKind};
use crate::source::{ExpansionId, FileId, Span};
use std::ops::Range;

/// The replacement of one invocation of `mac`. `toks`/`args` are the collected
/// invocation and argument ranges in it; `expanded` the pre-expanded arguments (for the
/// parameters that need them). Object-like macros pass empty slices.
pub(super) fn substitute(
    pp: &mut Pp<'_>,
    mac: &Macro,
    exp: ExpansionId,
    toks: &[PTok],
    args: &[Range<usize>],
    expanded: &[Option<Vec<PTok>>],
) -> Vec<PTok> {
    let raw = |i: usize| args.get(i).and_then(|r| toks.get(r.clone())).unwrap_or(&[]);
    let va_index = match &mac.kind {
        MacroKind::Function { params, variadic: true } => Some(params.len() - 1),
        _ => None,
    };
    let mut out: Vec<PTok> = Vec::with_capacity(mac.body.len());
    // The last operand was an empty argument next to `##` (C's placemarker).
    let mut placemarker = false;
    let mut paste_at: Option<Span> = None;
    for item in &mac.body {
        let (operand, leading_space): (Vec<PTok>, bool) = match *item {
            Item::Paste(span) => {
                paste_at = Some(Span { expansion: Some(exp), ..span });
                continue;
            }
            Item::Tok(t) => {
                (vec![PTok::new(Token { span: Span { expansion: Some(exp), ..t.span }, ..t })], t.leading_space)
            }
            Item::Param { index, leading_space, raw: true } => {
                let arg = raw(index);
                if paste_at.is_some() && Some(index) == va_index {
                    // GNU: `, ## __VA_ARGS__` drops the comma when there are no
                    // variable arguments, and otherwise does not paste.
                    if !placemarker && out.last().is_some_and(|t| t.tok.kind == TokenKind::Comma) {
                        paste_at = None;
                        if arg.is_empty() {
                            out.pop();
                            continue;
                        }
                    }
                }
                (arg.to_vec(), leading_space)
            }
            Item::Param { index, leading_space, raw: false } => {
                let toks = match expanded.get(index) {
                    Some(Some(e)) => e.clone(),
                    _ => raw(index).to_vec(),
                };
                (toks, leading_space)
            }
            Item::Stringize { index, leading_space } => {
                let text = format!("\"{}\"", spell(pp, raw(index)));
                let span = Span { expansion: Some(exp), ..pp.sources.add_scratch(&text) };
                let tok = Token { kind: TokenKind::StringLit, span, leading_space, line_start: false };
                (vec![PTok::new(tok)], leading_space)
            }
        };
        let mut operand = operand.into_iter();
        let first = operand.next().map(|mut t| {
            t.tok.leading_space = leading_space;
            t
        });
        if let Some(at) = paste_at.take() {
            let lhs = if placemarker { None } else { out.pop() };
            match (lhs, first) {
                (None, None) => placemarker = true,
                (None, Some(r)) => {
                    placemarker = false;
                    out.push(r);
                }
                (Some(l), None) => {
                    placemarker = false;
                    out.push(l);
                }
                (Some(l), Some(r)) => {
                    placemarker = false;
                    paste(pp, l, r, at, &mut out);
                }
            }
        } else {
            match first {
                Some(t) => {
                    placemarker = false;
                    out.push(t);
                }
                None => placemarker = true,
            }
        }
        out.extend(operand);
    }
    out
}

/// The spelling of an argument for `#` (without the quotes): tokens separated by one
/// space where the source had any whitespace, none at the ends; `"` and `\\` escaped
/// inside string and character literals.
fn spell(pp: &Pp<'_>, toks: &[PTok]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.tok.leading_space {
            s.push(' ');
        }
        let text = pp.text(t.tok.span);
        if matches!(t.tok.kind, TokenKind::StringLit | TokenKind::CharLit) {
            for c in text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(text);
        }
    }
    s
}

/// Pastes `l ## r` onto `out`: one new token, or (E0117) both unchanged.
fn paste(pp: &mut Pp<'_>, l: PTok, r: PTok, at: Span, out: &mut Vec<PTok>) {
    let lt = pp.text(l.tok.span);
    let rt = pp.text(r.tok.span);
    let text = format!("{lt}{rt}");
    let (toks, errs) = lexer::lex(&text, FileId(u32::MAX));
    let single = match toks.as_slice() {
        [t] if errs.is_empty() && t.span.start == 0 && t.span.end as usize == text.len() => Some(t.kind),
        _ => None,
    };
    match single {
        Some(kind) => {
            let span = Span { expansion: at.expansion, ..pp.sources.add_scratch(&text) };
            let tok = Token { kind, span, leading_space: l.tok.leading_space, line_start: false };
            out.push(PTok::new(tok));
        }
        None => {
            let d = Diagnostic::error(
                codes::E_INVALID_PASTE,
                format!("pasting `{lt}` and `{rt}` does not give a valid token"),
            )
            .with_primary(at, format!("`{text}` is not one token"))
            .with_note("the two tokens are kept separate");
            pp.diags.push(d);
            out.push(l);
            out.push(r);
        }
    }
}
