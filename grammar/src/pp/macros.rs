//! Macro definitions: parsing a `#define` line into a [`Macro`], and comparing two
//! definitions (a redefinition with a different body is warned about).
//!
//! The replacement list is stored pre-digested as [`Item`]s: parameters, `#param`
//! and `##` are recognised once at definition time so that expansion never looks at
//! parameter names again. This module only builds and compares definitions: it never
//! expands anything and never touches the macro table's users.

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::source::{SourceMap, Span};
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Macro name to definition. Definitions are shared (`Rc`) with expansions in flight,
/// so a `#define` or `#undef` in the middle of an invocation cannot pull one away.
pub(super) type MacroTable = HashMap<String, std::rc::Rc<Macro>, BuildHasherDefault<FxHasher>>;

/// The Fx hash (as in rustc): macro lookup happens for every identifier, and SipHash
/// would dominate the time spent on plain code.
#[derive(Default, Clone, Copy)]
pub(super) struct FxHasher {
    hash: u64,
}

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A quick "certainly not a macro" test: one bit per (first byte, length) pair of every
/// name ever defined. Bits are never cleared (`#undef` leaves them), so a set bit only
/// means "look it up".
#[derive(Clone, Debug)]
pub(super) struct NameFilter {
    bits: Box<[u64; 256]>,
}

impl Default for NameFilter {
    fn default() -> NameFilter {
        NameFilter { bits: Box::new([0; 256]) }
    }
}

impl NameFilter {
    pub fn insert(&mut self, name: &str) {
        if let Some(&b) = name.as_bytes().first() {
            self.bits[usize::from(b)] |= 1 << name.len().min(63);
        }
    }

    #[inline]
    pub fn may_contain(&self, name: &str) -> bool {
        match name.as_bytes().first() {
            Some(&b) => self.bits[usize::from(b)] & (1 << name.len().min(63)) != 0,
            None => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum MacroKind {
    Object,
    Function {
        params: Vec<String>,
        variadic: bool,
    },
    /// `__LINE__`
    Line,
    /// `__FILE__`
    File,
}

/// One element of a replacement list.
#[derive(Clone, Copy, Debug)]
pub(super) enum Item {
    /// A token copied as is (its span is in the `#define` line).
    Tok(Token),
    /// A parameter. `raw`: it is an operand of `##`, so the argument is used unexpanded.
    Param { index: usize, leading_space: bool, raw: bool },
    /// `# param`: the argument spelled as a string literal.
    Stringize { index: usize, leading_space: bool },
    /// `##`, with its span.
    Paste(Span),
}

#[derive(Debug)]
pub(super) struct Macro {
    pub name: String,
    /// The name in the `#define` line (None for builtins).
    pub name_span: Option<Span>,
    pub kind: MacroKind,
    pub body: Vec<Item>,
    /// Per parameter: used somewhere outside `#`/`##`, so its argument must be expanded.
    pub needs_expanded: Vec<bool>,
    /// Number of expansions of this macro in progress (C's "being replaced").
    disabled: Cell<u32>,
}

impl Macro {
    pub fn builtin_line() -> Macro {
        Macro::builtin("__LINE__", MacroKind::Line)
    }

    pub fn builtin_file() -> Macro {
        Macro::builtin("__FILE__", MacroKind::File)
    }

    fn builtin(name: &str, kind: MacroKind) -> Macro {
        Macro {
            name: name.to_owned(),
            name_span: None,
            kind,
            body: Vec::new(),
            needs_expanded: Vec::new(),
            disabled: Cell::new(0),
        }
    }

    pub fn is_disabled(&self) -> bool {
        self.disabled.get() > 0
    }

    pub fn disable(&self) {
        self.disabled.set(self.disabled.get().saturating_add(1));
    }

    pub fn enable(&self) {
        self.disabled.set(self.disabled.get().saturating_sub(1));
    }

    /// Number of named parameters and whether `...` follows them.
    pub fn arity(&self) -> (usize, bool) {
        match &self.kind {
            MacroKind::Function { params, variadic } => (params.len() - usize::from(*variadic), *variadic),
            _ => (0, false),
        }
    }

    /// Same definition in the sense of C 6.10.3p2 (same parameters, same replacement
    /// list token for token, same whitespace separation).
    pub fn same_as(&self, other: &Macro, sources: &SourceMap) -> bool {
        if self.kind != other.kind || self.body.len() != other.body.len() {
            return false;
        }
        self.body.iter().zip(&other.body).enumerate().all(|(i, (a, b))| match (a, b) {
            (Item::Tok(x), Item::Tok(y)) => {
                x.kind == y.kind
                    && (i == 0 || x.leading_space == y.leading_space)
                    && sources.text(x.span) == sources.text(y.span)
            }
            (Item::Param { index: x, leading_space: sx, .. }, Item::Param { index: y, leading_space: sy, .. }) => {
                x == y && (i == 0 || sx == sy)
            }
            (
                Item::Stringize { index: x, leading_space: sx, .. },
                Item::Stringize { index: y, leading_space: sy, .. },
            ) => x == y && (i == 0 || sx == sy),
            (Item::Paste(_), Item::Paste(_)) => true,
            _ => false,
        })
    }
}

/// Parses the tokens of a `#define` line after the word `define`. `directive` spans
/// the whole line, for errors that have no better place.
pub(super) fn parse_define(sources: &SourceMap, line: &[Token], directive: Span) -> Result<Macro, Diagnostic> {
    let malformed = |span: Span, msg: &str, label: &str| {
        Diagnostic::error(codes::E_MALFORMED_DIRECTIVE, msg.to_owned()).with_primary(span, label.to_owned())
    };
    let Some(&name_tok) = line.first() else {
        return Err(malformed(directive, "`#define` without a macro name", "expected a macro name here"));
    };
    if name_tok.kind != TokenKind::Ident {
        return Err(malformed(name_tok.span, "macro name must be an identifier", "not an identifier"));
    }
    let name = sources.text(name_tok.span);
    if name == "defined" {
        return Err(malformed(name_tok.span, "`defined` cannot be used as a macro name", "reserved in `#if`"));
    }
    let mut rest = &line[1..];
    let mut kind = MacroKind::Object;
    if let Some(paren) = rest.first().filter(|t| t.kind == TokenKind::LParen && !t.leading_space) {
        let (params, variadic, used) = parse_params(sources, rest, *paren)?;
        rest = &rest[used..];
        kind = MacroKind::Function { params, variadic };
    }
    let body = parse_body(sources, rest, &kind)?;
    let mut needs_expanded = vec![false; if let MacroKind::Function { params, .. } = &kind { params.len() } else { 0 }];
    for item in &body {
        if let Item::Param { index, raw: false, .. } = item {
            if let Some(n) = needs_expanded.get_mut(*index) {
                *n = true;
            }
        }
    }
    Ok(Macro {
        name: name.to_owned(),
        name_span: Some(name_tok.span),
        kind,
        body,
        needs_expanded,
        disabled: Cell::new(0),
    })
}

/// Parses `( a, b, ... )` starting at `line[0]`; returns the names (with
/// `__VA_ARGS__` last for `...`), whether variadic, and tokens used.
fn parse_params(sources: &SourceMap, line: &[Token], paren: Token) -> Result<(Vec<String>, bool, usize), Diagnostic> {
    let err = |span: Span, msg: &str| {
        Diagnostic::error(codes::E_MALFORMED_DIRECTIVE, msg.to_owned())
            .with_primary(span, "in this parameter list")
            .with_secondary(paren.span, "parameter list starts here")
    };
    let mut params: Vec<String> = Vec::new();
    let mut i = 1;
    if line.get(1).map(|t| t.kind) == Some(TokenKind::RParen) {
        return Ok((params, false, 2));
    }
    loop {
        let Some(&t) = line.get(i) else {
            return Err(err(paren.span, "missing `)` in macro parameter list"));
        };
        match t.kind {
            TokenKind::Ident => {
                let p = sources.text(t.span);
                if p == "__VA_ARGS__" {
                    return Err(err(t.span, "`__VA_ARGS__` can only name the `...` parameter"));
                }
                if params.iter().any(|q| q == p) {
                    return Err(err(t.span, &format!("duplicate macro parameter `{p}`")));
                }
                params.push(p.to_owned());
            }
            TokenKind::Ellipsis => {
                params.push("__VA_ARGS__".to_owned());
                return match line.get(i + 1) {
                    Some(r) if r.kind == TokenKind::RParen => Ok((params, true, i + 2)),
                    Some(r) => Err(err(r.span, "expected `)` after `...`")),
                    None => Err(err(t.span, "expected `)` after `...`")),
                };
            }
            _ => return Err(err(t.span, "expected a parameter name")),
        }
        match line.get(i + 1) {
            Some(c) if c.kind == TokenKind::Comma => i += 2,
            Some(r) if r.kind == TokenKind::RParen => return Ok((params, false, i + 2)),
            Some(other) => return Err(err(other.span, "expected `,` or `)` after a parameter name")),
            None => return Err(err(t.span, "missing `)` in macro parameter list")),
        }
    }
}

fn parse_body(sources: &SourceMap, toks: &[Token], kind: &MacroKind) -> Result<Vec<Item>, Diagnostic> {
    let params: &[String] = match kind {
        MacroKind::Function { params, .. } => params,
        _ => &[],
    };
    let function_like = matches!(kind, MacroKind::Function { .. });
    let param_index = |t: &Token| {
        if t.kind != TokenKind::Ident {
            return None;
        }
        let text = sources.text(t.span);
        params.iter().position(|p| p == text)
    };
    let mut body = Vec::with_capacity(toks.len());
    let mut i = 0;
    while let Some(&t) = toks.get(i) {
        let leading_space = t.leading_space && i > 0;
        if t.kind == TokenKind::HashHash {
            body.push(Item::Paste(t.span));
        } else if function_like && t.kind == TokenKind::Hash {
            match toks.get(i + 1).and_then(|n| param_index(n).map(|p| (p, n))) {
                Some((index, _)) => {
                    body.push(Item::Stringize { index, leading_space });
                    i += 1;
                }
                None => {
                    return Err(Diagnostic::error(
                        codes::E_STRINGIZE_NOT_PARAM,
                        "`#` in a function-like macro must be followed by a parameter name",
                    )
                    .with_primary(toks.get(i + 1).map_or(t.span, |n| n.span), "not a parameter")
                    .with_secondary(t.span, "stringizing operator"))
                }
            }
        } else if let Some(index) = param_index(&t) {
            body.push(Item::Param { index, leading_space, raw: false });
        } else {
            body.push(Item::Tok(Token { leading_space, ..t }));
        }
        i += 1;
    }
    for (at, end) in [(body.first(), "start"), (body.last(), "end")] {
        if let Some(Item::Paste(span)) = at {
            return Err(Diagnostic::error(
                codes::E_MALFORMED_DIRECTIVE,
                format!("`##` cannot appear at the {end} of a macro replacement list"),
            )
            .with_primary(*span, "nothing to paste with"));
        }
    }
    // Parameters next to `##` are pasted unexpanded.
    for i in 0..body.len() {
        let next_to_paste = matches!(body.get(i.wrapping_sub(1)), Some(Item::Paste(_)))
            || matches!(body.get(i + 1), Some(Item::Paste(_)));
        if let Some(Item::Param { raw, .. }) = body.get_mut(i) {
            *raw = next_to_paste;
        }
    }
    Ok(body)
}
