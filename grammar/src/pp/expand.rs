//! The macro expander: an iterative state machine over explicit stacks.
//!
//! Design (the model of GCC's cpplib, which conforms to C's rescanning rules):
//!
//! * **Contexts.** Each macro expansion pushes a [`Context`] holding its replacement
//!   tokens; the macro is *disabled* while its context is on the stack. Tokens are read
//!   from the top context; an exhausted context is popped (re-enabling its macro) and
//!   reading continues below it, finally from the file ([`Input::File`]). That is how
//!   the result of an expansion is rescanned *together with the tokens that follow*
//!   (`f(1)(2)` where `f(x)` expands to a function-like macro name).
//! * **Hide sets as paint.** An identifier read while the macro it names is disabled is
//!   *painted* ([`PTok::painted`]) and never expanded again, wherever it travels
//!   afterwards. This is C's "not available for further replacement" rule and makes
//!   `#define foo foo` and mutual recursion terminate.
//! * **Arguments.** A function-like invocation's arguments are collected unexpanded
//!   (identifiers naming disabled macros are painted as they are read), then each
//!   argument used outside `#`/`##` is fully expanded *in isolation*: a [`Frame`] is
//!   pushed and the argument becomes a *barrier* context that reading cannot go past.
//!   When it runs dry the frame stores the expanded argument and moves on; after the
//!   last one the body is substituted ([`super::subst`]) and pushed as the macro's
//!   context. Nested invocations inside arguments just push more frames, so nothing
//!   here recurses, whatever the nesting depth.
//!
//! Every token pushed into a context is charged against the expansion budget, which
//! bounds the total work (exponential macros stop with one E0112).
//!
//! This module never reads directives itself (the file [`Input`] does that below it),
//! never recurses per token or nesting level, and never panics on any input.

use super::macros::{Macro, MacroKind};
use super::state::{PTok, Pp};
use super::subst;
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::source::{Expansion, ExpansionId, Span};
use std::ops::Range;
use std::rc::Rc;

/// What lies below the expander's contexts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Input {
    /// The current file, read through [`Pp::next_base`] (which obeys directives).
    File,
    /// Nothing: the expander was made with [`Expander::isolated`] for one line.
    Isolated,
}

#[derive(Debug)]
enum ContextKind {
    /// Tokens pushed back or produced by a builtin; popped when exhausted.
    Plain,
    /// The replacement of a macro, disabled until the context is popped.
    Macro(Rc<Macro>),
    /// An argument being pre-expanded: reading stops at its end.
    Barrier,
    /// The whole input of an isolated expander.
    Bottom,
}

#[derive(Debug)]
struct Context {
    toks: Vec<PTok>,
    pos: usize,
    kind: ContextKind,
}

/// A function-like invocation whose arguments are being pre-expanded.
#[derive(Debug)]
struct Frame {
    mac: Rc<Macro>,
    name: PTok,
    rparen: Token,
    /// The invocation's tokens from `(` to `)`.
    toks: Vec<PTok>,
    /// Each argument's range in `toks`.
    args: Vec<Range<usize>>,
    expanded: Vec<Option<Vec<PTok>>>,
    /// The argument being (or next to be) pre-expanded.
    next: usize,
    /// Expanded tokens of the current argument.
    out: Vec<PTok>,
}

enum Read {
    Tok(PTok),
    /// The barrier context of the innermost frame is exhausted.
    ArgEnd,
    /// Nothing more below (end of the file, or of an isolated line).
    End,
}

#[derive(Debug, Default)]
pub(super) struct Expander {
    contexts: Vec<Context>,
    frames: Vec<Frame>,
    /// Contexts that belong to the input itself (1 for an isolated expander).
    floor: usize,
    /// The invocation that started the current outermost expansion (for `__LINE__`).
    outer_site: Option<Span>,
}

impl Expander {
    pub fn new() -> Expander {
        Expander::default()
    }

    /// An expander over one line of tokens (`#if`, `#include`, `#line`), which cannot
    /// read past them.
    pub fn isolated(toks: Vec<PTok>) -> Expander {
        Expander {
            contexts: vec![Context { toks, pos: 0, kind: ContextKind::Bottom }],
            floor: 1,
            ..Expander::default()
        }
    }

    /// No expansion in progress: the next token comes straight from the input.
    pub fn is_idle(&self) -> bool {
        self.contexts.is_empty() && self.frames.is_empty()
    }

    fn at_base(&self) -> bool {
        self.contexts.len() <= self.floor && self.frames.is_empty()
    }

    /// The next fully expanded token, or `None` at the end of the input.
    pub fn next(&mut self, pp: &mut Pp<'_>, input: Input) -> Option<PTok> {
        loop {
            let mut t = match self.read(pp, input, false) {
                Read::Tok(t) => t,
                Read::ArgEnd => {
                    self.finish_arg(pp);
                    continue;
                }
                Read::End => return None,
            };
            if t.tok.kind == TokenKind::Ident && !t.painted && !pp.expansion_off {
                if let Some(mac) = pp.lookup(&t.tok) {
                    if mac.is_disabled() {
                        t.painted = true;
                    } else if self.begin(pp, input, t, mac) {
                        continue;
                    }
                }
            }
            match self.frames.last_mut() {
                Some(f) => f.out.push(t),
                None => return Some(t),
            }
        }
    }

    /// The next token without macro expansion (the operand of `defined`).
    pub fn next_unexpanded(&mut self, pp: &mut Pp<'_>, input: Input) -> Option<PTok> {
        match self.read(pp, input, false) {
            Read::Tok(t) => Some(t),
            Read::ArgEnd | Read::End => None,
        }
    }

    fn read(&mut self, pp: &mut Pp<'_>, input: Input, in_args: bool) -> Read {
        loop {
            let Some(c) = self.contexts.last_mut() else {
                return match input {
                    Input::File => pp.next_base(in_args).map_or(Read::End, Read::Tok),
                    Input::Isolated => Read::End,
                };
            };
            if let Some(&t) = c.toks.get(c.pos) {
                c.pos += 1;
                return Read::Tok(t);
            }
            match c.kind {
                ContextKind::Barrier => return Read::ArgEnd,
                ContextKind::Bottom => return Read::End,
                ContextKind::Plain | ContextKind::Macro(_) => {
                    if let Some(Context { kind: ContextKind::Macro(m), .. }) = self.contexts.pop() {
                        m.enable();
                    }
                }
            }
        }
    }

    /// Whether the next token (looking through exhausted contexts, not past a barrier)
    /// is `(`. Changes nothing.
    fn peek_lparen(&self, pp: &Pp<'_>, input: Input) -> bool {
        for c in self.contexts.iter().rev() {
            if let Some(t) = c.toks.get(c.pos) {
                return t.tok.kind == TokenKind::LParen;
            }
            if matches!(c.kind, ContextKind::Barrier | ContextKind::Bottom) {
                return false;
            }
        }
        input == Input::File && pp.peek_base_lparen()
    }

    /// Starts expanding `mac` named by `name`. Returns false when `name` is a
    /// function-like macro not followed by `(` (then it is an ordinary identifier).
    fn begin(&mut self, pp: &mut Pp<'_>, input: Input, name: PTok, mac: Rc<Macro>) -> bool {
        if self.at_base() {
            self.outer_site = Some(name.tok.span);
        }
        match mac.kind {
            MacroKind::Line | MacroKind::File => {
                self.builtin(pp, name, &mac);
                true
            }
            MacroKind::Object => {
                let exp = register(pp, &mac, name.tok, None);
                let toks = subst::substitute(pp, &mac, exp, &[], &[], &[]);
                self.push_expansion(pp, toks, mac, name);
                true
            }
            MacroKind::Function { .. } => {
                if !self.peek_lparen(pp, input) {
                    return false;
                }
                self.invoke(pp, input, name, mac);
                true
            }
        }
    }

    fn builtin(&mut self, pp: &mut Pp<'_>, name: PTok, mac: &Macro) {
        let text = if mac.kind == MacroKind::Line {
            let site = match self.outer_site {
                Some(s) if !self.at_base() => s,
                _ => name.tok.span,
            };
            pp.presumed_line(pp.sources.user_span(site)).to_string()
        } else {
            string_literal(&pp.presumed_file())
        };
        let exp = pp.sources.add_expansion(Expansion {
            macro_name: mac.name.clone(),
            definition: name.tok.span,
            call_site: name.tok.span,
            parent: name.tok.span.expansion,
        });
        let span = Span { expansion: Some(exp), ..pp.sources.add_scratch(&text) };
        let kind = if mac.kind == MacroKind::Line { TokenKind::IntLit } else { TokenKind::StringLit };
        let tok = Token { kind, span, leading_space: name.tok.leading_space, line_start: false };
        self.push_plain(pp, vec![PTok::new(tok)], name.tok.span);
    }

    /// Consumes `(`, collects the arguments, checks the count and starts pre-expansion.
    fn invoke(&mut self, pp: &mut Pp<'_>, input: Input, name: PTok, mac: Rc<Macro>) {
        let lparen = loop {
            match self.read(pp, input, true) {
                Read::Tok(t) if t.tok.kind == TokenKind::LParen => break t,
                // peek_lparen saw `(`, so only exhausted contexts lie before it.
                Read::Tok(_) => continue,
                Read::ArgEnd | Read::End => return,
            }
        };
        let (named, variadic) = mac.arity();
        let mut toks = vec![lparen];
        let mut args: Vec<Range<usize>> = Vec::new();
        let mut depth = 0usize;
        let mut start = 1;
        let rparen = loop {
            let mut t = match self.read(pp, input, true) {
                Read::Tok(t) => t,
                Read::ArgEnd | Read::End => {
                    self.unterminated(pp, name, &mac);
                    return;
                }
            };
            if t.tok.kind == TokenKind::Ident && !t.painted {
                if let Some(m) = pp.lookup(&t.tok) {
                    t.painted = m.is_disabled();
                }
            }
            match t.tok.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => {
                    args.push(start..toks.len());
                    toks.push(t);
                    break t.tok;
                }
                TokenKind::RParen => depth -= 1,
                TokenKind::Comma if depth == 0 && !(variadic && args.len() >= named) => {
                    args.push(start..toks.len());
                    toks.push(t);
                    start = toks.len();
                    continue;
                }
                _ => {}
            }
            toks.push(t);
        };
        // `f()` passes no argument to a macro without parameters.
        if named == 0 && !variadic && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        // `v(a)` for `v(a, ...)`: empty variable part.
        if variadic && args.len() == named {
            args.push(toks.len() - 1..toks.len() - 1);
        }
        let wanted = named + usize::from(variadic);
        if args.len() != wanted {
            self.arity_error(pp, name, rparen, &mac, args.len());
            return;
        }
        let n = args.len();
        self.frames.push(Frame { mac, name, rparen, toks, args, expanded: vec![None; n], next: 0, out: Vec::new() });
        self.advance(pp);
    }

    /// Pre-expands the next argument that needs it, or finishes the innermost frame.
    fn advance(&mut self, pp: &mut Pp<'_>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        while f.next < f.args.len() {
            let i = f.next;
            if f.mac.needs_expanded.get(i).copied().unwrap_or(false) {
                let arg = &f.toks[f.args[i].clone()];
                if arg.iter().any(|t| t.tok.kind == TokenKind::Ident && !t.painted) {
                    let toks = arg.to_vec();
                    let at = f.name.tok.span;
                    if !pp.charge(toks.len(), at) {
                        self.abort();
                        return;
                    }
                    self.contexts.push(Context { toks, pos: 0, kind: ContextKind::Barrier });
                    return;
                }
                // Nothing in it can expand: the argument is its own expansion.
                f.expanded[i] = Some(arg.to_vec());
            }
            f.next += 1;
        }
        let Some(f) = self.frames.pop() else { return };
        let exp = register(pp, &f.mac, f.name.tok, Some(f.rparen));
        let toks = subst::substitute(pp, &f.mac, exp, &f.toks, &f.args, &f.expanded);
        self.push_expansion(pp, toks, f.mac, f.name);
    }

    /// The barrier of the innermost frame ran dry: store that argument, go on.
    fn finish_arg(&mut self, pp: &mut Pp<'_>) {
        self.contexts.pop();
        if let Some(f) = self.frames.last_mut() {
            let out = std::mem::take(&mut f.out);
            if let Some(slot) = f.expanded.get_mut(f.next) {
                *slot = Some(out);
            }
            f.next += 1;
        }
        self.advance(pp);
    }

    fn push_expansion(&mut self, pp: &mut Pp<'_>, mut toks: Vec<PTok>, mac: Rc<Macro>, name: PTok) {
        if toks.is_empty() {
            return;
        }
        if !pp.charge(toks.len(), name.tok.span) {
            self.abort();
            return;
        }
        toks[0].tok.leading_space = name.tok.leading_space;
        mac.disable();
        self.contexts.push(Context { toks, pos: 0, kind: ContextKind::Macro(mac) });
    }

    fn push_plain(&mut self, pp: &mut Pp<'_>, toks: Vec<PTok>, at: Span) {
        if !pp.charge(toks.len(), at) {
            self.abort();
            return;
        }
        self.contexts.push(Context { toks, pos: 0, kind: ContextKind::Plain });
    }

    /// The budget is spent: drop everything in flight, keep reading the input as is.
    fn abort(&mut self) {
        while self.contexts.len() > self.floor {
            if let Some(Context { kind: ContextKind::Macro(m), .. }) = self.contexts.pop() {
                m.enable();
            }
        }
        if let Some(bottom) = self.contexts.first_mut() {
            bottom.pos = bottom.toks.len();
        }
        self.frames.clear();
    }

    /// The input ended inside an invocation: E0111; the name stays, unexpanded.
    fn unterminated(&mut self, pp: &mut Pp<'_>, name: PTok, mac: &Macro) {
        let mut d = Diagnostic::error(
            codes::E_UNTERMINATED_MACRO_CALL,
            format!("unterminated argument list invoking macro `{}`", mac.name),
        )
        .with_primary(name.tok.span, "this invocation's `)` never comes");
        d = d.with_note(
            if self.contexts.iter().any(|c| matches!(c.kind, ContextKind::Barrier | ContextKind::Bottom)) {
                "the arguments must be complete within the enclosing macro argument or directive line"
            } else {
                "the file ends before the closing `)`"
            },
        );
        if let Some(def) = mac.name_span {
            d = d.with_secondary(def, "macro defined here");
        }
        pp.diags.push(d);
        self.emit_unexpanded(pp, name);
    }

    fn arity_error(&mut self, pp: &mut Pp<'_>, name: PTok, rparen: Token, mac: &Macro, given: usize) {
        let (named, variadic) = mac.arity();
        let expected = match (named, variadic) {
            (1, false) => "1 argument".to_owned(),
            (n, false) => format!("{n} arguments"),
            (n, true) => format!("at least {n} argument{}", if n == 1 { "" } else { "s" }),
        };
        let mut d = Diagnostic::error(
            codes::E_MACRO_ARITY,
            format!(
                "macro `{}` takes {expected}, but {given} {} given",
                mac.name,
                if given == 1 { "was" } else { "were" }
            ),
        )
        .with_primary(call_site(name.tok, Some(rparen)), format!("{given} given here"));
        if let Some(def) = mac.name_span {
            d = d.with_secondary(def, format!("`{}` defined here with {expected}", mac.name));
        }
        pp.diags.push(d);
        self.emit_unexpanded(pp, name);
    }

    /// After an invocation error the name is kept as an ordinary (painted) identifier
    /// and the collected arguments are dropped, as GCC does.
    fn emit_unexpanded(&mut self, pp: &mut Pp<'_>, name: PTok) {
        let t = PTok { painted: true, ..name };
        self.push_plain(pp, vec![t], name.tok.span);
    }
}

/// Name through `)` when both are spelled in the same place; else the name.
fn call_site(name: Token, rparen: Option<Token>) -> Span {
    match rparen {
        Some(r)
            if r.span.file == name.span.file
                && r.span.expansion == name.span.expansion
                && r.span.end >= name.span.start =>
        {
            name.span.to(r.span)
        }
        _ => name.span,
    }
}

/// Records one expansion of `mac` in the source map.
fn register(pp: &mut Pp<'_>, mac: &Macro, name: Token, rparen: Option<Token>) -> ExpansionId {
    pp.sources.add_expansion(Expansion {
        macro_name: mac.name.clone(),
        definition: mac.name_span.unwrap_or(name.span),
        call_site: call_site(name, rparen),
        parent: name.span.expansion,
    })
}

/// `text` as a C string literal (`"` and `\` escaped).
pub(super) fn string_literal(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}
