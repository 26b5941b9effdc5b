//! What the grammar's actions call: spans from token indices, node builders that bound
//! the depth of the tree, literal reading, and the conversion of parse errors into
//! diagnostics.
//!
//! The grammar's locations are indices into the preprocessed token slice; [`Ctx::span`]
//! turns an index range into a span in the user's own text. Every builder of a nested
//! node ([`X`] expressions, [`St`] statements) carries the depth of what it holds and
//! fails with [`PErr::TooDeep`] past [`MAX_EXPR_DEPTH`] / [`MAX_STMT_DEPTH`], so no AST
//! the parser returns, or drops half-built, is deep enough to overflow a stack when
//! dropped, printed or walked recursively. Nothing here panics on any input.

use super::literal;
use super::token::Tok;
use crate::ast::*;
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::source::{FileId, SourceMap, Span};
use lalrpop_util::{ErrorRecovery, ParseError};

/// Expressions nested deeper than this (operators, calls, members...) are refused.
pub const MAX_EXPR_DEPTH: u32 = 256;
/// Operators of one left-leaning chain that count as one level of [`MAX_EXPR_DEPTH`].
pub const CHAIN_PER_LEVEL: u32 = 8;
/// Statements nested deeper than this (`if (a) if (b) ...`, blocks) are refused.
pub const MAX_STMT_DEPTH: u32 = 256;

/// Errors raised by actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PErr {
    /// The tree got too deep at this token.
    TooDeep { at: usize, what: &'static str },
}

pub type PError = ParseError<usize, Tok, PErr>;
pub type PResult<T> = Result<T, PError>;

// Grammar symbols are kept small (boxed) because the parser moves them on every shift
// and reduction: unboxed, the largest AST node made each move hundreds of bytes.

/// An expression and its depth (a leaf has depth 1).
///
/// The depth measures nesting, not the height of the tree: a left-leaning chain of
/// operators of one precedence (`a + b - c + ...`) adds one level per
/// [`CHAIN_PER_LEVEL`] operators, so a flat sum of 255 terms costs 32 levels, while
/// the tree stays at most `CHAIN_PER_LEVEL` times [`MAX_EXPR_DEPTH`] high.
#[derive(Debug)]
pub struct X {
    pub e: Box<Expr>,
    pub d: u32,
    /// Operators in the left-leaning chain of one precedence this node ends (0 when it
    /// is no binary operator).
    pub chain: u32,
}

impl X {
    pub fn expr(self) -> Expr {
        *self.e
    }
}

/// A statement and its depth.
#[derive(Debug)]
pub struct St {
    pub s: Box<Stmt>,
    pub d: u32,
}

/// A block and its depth.
#[derive(Debug)]
pub struct Bl {
    pub b: Box<Block>,
    pub d: u32,
}

/// Moves boxed list elements out of their boxes.
pub fn unbox<T>(v: Vec<Box<T>>) -> Vec<T> {
    v.into_iter().map(|b| *b).collect()
}

/// One word before the type in a file-scope declaration.
#[derive(Debug)]
pub enum SpecWord {
    Qualifier(Qualifier, Span),
    Profile(Ident),
}

/// Name, parameters and return semantic of a function.
#[derive(Debug)]
pub struct FnHead {
    pub name: Ident,
    pub params: Vec<Parameter>,
    pub semantic: Option<Semantic>,
}

/// A chain of binary operators as read, `a + b * c`, before folding by precedence.
#[derive(Debug)]
pub struct Flat {
    /// The first operand and its token range.
    first: (X, usize, usize),
    /// Each further operator with its right operand and that operand's token range.
    rest: Vec<(BinaryOp, X, usize, usize)>,
}

impl Flat {
    pub fn new(x: X, l: usize, r: usize) -> Flat {
        Flat { first: (x, l, r), rest: Vec::new() }
    }

    pub fn push(mut self, op: BinaryOp, x: X, l: usize, r: usize) -> Flat {
        self.rest.push((op, x, l, r));
        self
    }
}

/// C precedence of a binary operator (higher binds tighter); all are left-associative.
fn precedence(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Mul | Div | Rem => 10,
        Add | Sub => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        Eq | Ne => 6,
        BitAnd => 5,
        BitXor => 4,
        BitOr => 3,
        And => 2,
        Or => 1,
    }
}

/// Call or constructor arguments as read, and the depth of the deepest.
#[derive(Debug, Default)]
pub struct Args {
    pub list: Vec<Expr>,
    pub d: u32,
}

impl Args {
    pub fn push(mut self, x: X) -> Args {
        if self.list.capacity() == 0 {
            self.list.reserve(4);
        }
        self.d = self.d.max(x.d);
        self.list.push(*x.e);
        self
    }
}

/// The statements of a block as read, and the depth of the deepest.
#[derive(Debug, Default)]
pub struct Stmts {
    pub list: Vec<Stmt>,
    pub d: u32,
}

impl Stmts {
    pub fn push(mut self, s: St) -> Stmts {
        self.d = self.d.max(s.d);
        let s = *s.s;
        // Error recovery stops before the `;` that ends a broken statement; fold that `;`
        // into the error instead of keeping it as an empty statement.
        if let (StmtKind::Empty, Some(prev)) = (&s.kind, self.list.last_mut()) {
            if matches!(prev.kind, StmtKind::Error) && prev.span.file == s.span.file && prev.span.end <= s.span.start {
                prev.span.end = s.span.end;
                return self;
            }
        }
        if self.list.capacity() == 0 {
            self.list.reserve(8);
        }
        self.list.push(s);
        self
    }
}

/// Read-only context of one parse: the sources and the preprocessed tokens.
pub struct Ctx<'a> {
    pub sources: &'a SourceMap,
    pub tokens: &'a [Token],
    /// Errors recovered from in the chunk being parsed (see [`MAX_RECOVERIES`]).
    pub recoveries: std::cell::Cell<usize>,
}

/// Errors the grammar recovers from in one top-level chunk before the rest of the
/// chunk is skipped: each recovery costs the parser an expected-token list, and a
/// runaway macro can make millions.
pub const MAX_RECOVERIES: usize = 200;

impl<'a> Ctx<'a> {
    /// The spelling of preprocessed token `i`.
    pub fn text(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| self.sources.text(t.span))
    }

    /// The user-visible span of tokens `l..r` (see the module documentation).
    pub fn span(&self, l: usize, r: usize) -> Span {
        let Some(first) = self.tokens.get(l).or(self.tokens.last()) else {
            return Span::new(FileId(0), 0, 0);
        };
        let start = self.sources.user_span(first.span);
        let expansion = first.span.expansion;
        if r <= l + 1 || r > self.tokens.len() {
            if r <= l {
                // An empty range: a zero-width span where the next token starts.
                return Span { end: start.start, expansion, ..start };
            }
            return Span { expansion, ..start };
        }
        let end = self.sources.user_span(self.tokens[r - 1].span);
        if end.file == start.file && end.end >= start.start {
            Span { file: start.file, start: start.start, end: end.end.max(start.end), expansion }
        } else {
            Span { expansion, ..start }
        }
    }

    /// The name spelled by token `i`.
    pub fn ident(&self, i: usize) -> Ident {
        Ident { name: self.text(i).to_owned(), span: self.span(i, i + 1) }
    }

    /// A declared type name over `l..r`: the name is the last token (`struct S` is `S`).
    pub fn user_type(&self, l: usize, r: usize) -> Ident {
        let i = r.saturating_sub(1).max(l);
        Ident { name: self.text(i).to_owned(), span: self.span(l, r) }
    }

    /// A name made of tokens `l..r` joined by `sep` (`unsigned int`, `state.matrix.mvp`).
    pub fn joined(&self, l: usize, r: usize, sep: &str) -> Ident {
        if r <= l + 1 {
            return self.ident(l);
        }
        let mut name = String::new();
        for i in l..r {
            let t = self.text(i);
            if t == "." {
                name.push('.');
                continue;
            }
            if !name.is_empty() && !name.ends_with('.') {
                name.push_str(sep);
            }
            name.push_str(t);
        }
        Ident { name, span: self.span(l, r) }
    }

    fn too_deep(at: usize, what: &'static str) -> PError {
        ParseError::User { error: PErr::TooDeep { at, what } }
    }

    /// An expression node over tokens `l..r` whose deepest child has depth `child`.
    pub fn expr(&self, kind: ExprKind, l: usize, r: usize, child: u32) -> PResult<X> {
        let d = child + 1;
        if d > MAX_EXPR_DEPTH {
            return Err(Self::too_deep(l, "expression"));
        }
        Ok(X { e: Box::new(Expr { kind, span: self.span(l, r) }), d, chain: 0 })
    }

    pub fn leaf(&self, kind: ExprKind, l: usize, r: usize) -> X {
        X { e: Box::new(Expr { kind, span: self.span(l, r) }), d: 1, chain: 0 }
    }

    pub fn binary(&self, op: BinaryOp, a: X, b: X, l: usize, r: usize) -> PResult<X> {
        let continues = matches!(&a.e.kind, ExprKind::Binary { op: prev, .. } if precedence(*prev) == precedence(op))
            && a.chain > 0;
        let chain = if continues { a.chain + 1 } else { 1 };
        // A chain that goes on costs a level only every CHAIN_PER_LEVEL operators.
        let lhs = if continues && chain % CHAIN_PER_LEVEL != 0 { a.d - 1 } else { a.d };
        let mut x = self.expr(ExprKind::Binary { op, lhs: a.e, rhs: b.e }, l, r, lhs.max(b.d))?;
        x.chain = chain;
        Ok(x)
    }

    /// Folds a flat operator chain into a tree by precedence (operator-precedence
    /// parsing with explicit stacks: no recursion, left-associative).
    pub fn fold(&self, flat: Flat) -> PResult<X> {
        let Flat { first, mut rest } = flat;
        if rest.len() <= 1 {
            return match rest.pop() {
                None => Ok(first.0),
                Some((op, b, _, r)) => self.binary(op, first.0, b, first.1, r),
            };
        }
        let mut operands: Vec<(X, usize, usize)> = Vec::with_capacity(rest.len() + 1);
        let mut operators: Vec<BinaryOp> = Vec::with_capacity(rest.len());
        operands.push(first);
        for (op, x, l, r) in rest {
            while operators.last().is_some_and(|&top| precedence(top) >= precedence(op)) {
                self.reduce_top(&mut operands, &mut operators)?;
            }
            operators.push(op);
            operands.push((x, l, r));
        }
        while !operators.is_empty() {
            self.reduce_top(&mut operands, &mut operators)?;
        }
        match operands.pop() {
            Some((x, _, _)) => Ok(x),
            None => Ok(self.leaf(ExprKind::Error, 0, 0)),
        }
    }

    fn reduce_top(&self, operands: &mut Vec<(X, usize, usize)>, operators: &mut Vec<BinaryOp>) -> PResult<()> {
        let (Some(op), Some((b, _, r)), Some((a, l, _))) = (operators.pop(), operands.pop(), operands.pop()) else {
            return Ok(());
        };
        let x = self.binary(op, a, b, l, r)?;
        operands.push((x, l, r));
        Ok(())
    }

    pub fn assign(&self, op: Option<BinaryOp>, a: X, b: X, l: usize, r: usize) -> PResult<X> {
        let d = a.d.max(b.d);
        self.expr(ExprKind::Assign { op, lhs: a.e, rhs: b.e }, l, r, d)
    }

    pub fn unary(&self, op: UnaryOp, a: X, l: usize, r: usize) -> PResult<X> {
        let d = a.d;
        self.expr(ExprKind::Unary { op, operand: a.e }, l, r, d)
    }

    pub fn conditional(&self, c: X, t: X, e: X, l: usize, r: usize) -> PResult<X> {
        let d = c.d.max(t.d).max(e.d);
        self.expr(ExprKind::Conditional { cond: c.e, then: t.e, else_: e.e }, l, r, d)
    }

    pub fn comma(&self, first: X, rest: Vec<X>, l: usize, r: usize) -> PResult<X> {
        let mut d = first.d;
        let mut list = Vec::with_capacity(rest.len() + 1);
        list.push(*first.e);
        for x in rest {
            d = d.max(x.d);
            list.push(*x.e);
        }
        self.expr(ExprKind::Comma(list), l, r, d)
    }

    pub fn cast(&self, ty: TypeName, a: X, l: usize, r: usize) -> PResult<X> {
        let d = a.d;
        self.expr(ExprKind::Cast { ty, operand: a.e }, l, r, d)
    }

    #[allow(clippy::boxed_local)] // grammar symbols arrive boxed (see `X`)
    pub fn constructor(
        &self,
        ty: Box<TypeSpec>,
        array: Vec<Box<ArraySize>>,
        ty_end: usize,
        args: Args,
        l: usize,
        r: usize,
    ) -> PResult<X> {
        let (ty, array) = (*ty, unbox(array));
        let Args { list: args, d } = args;
        let span = if array.is_empty() { ty.span() } else { self.span(l, ty_end) };
        let ty = TypeName { ty, array, span };
        self.expr(ExprKind::Constructor { ty, args }, l, r, d)
    }

    pub fn call(&self, callee: X, args: Args, l: usize, r: usize) -> PResult<X> {
        let Args { list: args, d } = args;
        let d = d.max(callee.d);
        self.expr(ExprKind::Call { callee: callee.e, args }, l, r, d)
    }

    pub fn member(&self, base: X, member: Ident, l: usize, r: usize) -> PResult<X> {
        let d = base.d;
        self.expr(ExprKind::Member { base: base.e, member }, l, r, d)
    }

    pub fn index(&self, base: X, index: X, l: usize, r: usize) -> PResult<X> {
        let d = base.d.max(index.d);
        self.expr(ExprKind::Index { base: base.e, index: index.e }, l, r, d)
    }

    /// A statement node over tokens `l..r` whose deepest child statement has depth `child`.
    pub fn stmt(&self, kind: StmtKind, l: usize, r: usize, child: u32) -> PResult<St> {
        let d = child + 1;
        if d > MAX_STMT_DEPTH {
            return Err(Self::too_deep(l, "statement"));
        }
        Ok(St { s: Box::new(Stmt { kind, span: self.span(l, r) }), d })
    }

    pub fn simple(&self, kind: StmtKind, l: usize, r: usize) -> St {
        St { s: Box::new(Stmt { kind, span: self.span(l, r) }), d: 1 }
    }

    pub fn block(&self, stmts: Stmts, l: usize, r: usize) -> PResult<Bl> {
        let Stmts { list: stmts, d } = stmts;
        let d = d + 1;
        if d > MAX_STMT_DEPTH {
            return Err(Self::too_deep(l, "block"));
        }
        Ok(Bl { b: Box::new(Block { stmts, span: self.span(l, r) }), d })
    }

    /// Declaration specifiers from the words before the type, the type and qualifiers after it.
    #[allow(clippy::boxed_local)] // grammar symbols arrive boxed (see `X`)
    pub fn specifiers(
        &self,
        pre: Vec<SpecWord>,
        ty: Box<TypeSpec>,
        post: Vec<(Qualifier, Span)>,
        l: usize,
        r: usize,
    ) -> Box<DeclSpecifiers> {
        let mut qualifiers = Vec::new();
        let mut profiles = Vec::new();
        let mut modifiers = Vec::new();
        for w in pre {
            match w {
                SpecWord::Qualifier(q, s) => qualifiers.push((q, s)),
                SpecWord::Profile(p) => match ProgramModifier::parse(&p.name) {
                    Some(m) => modifiers.push((m, p.span)),
                    None => profiles.push(p),
                },
            }
        }
        qualifiers.extend(post);
        Box::new(DeclSpecifiers { qualifiers, profiles, modifiers, ty: *ty, span: self.span(l, r) })
    }

    pub fn qualifier(&self, q: Qualifier, l: usize) -> (Qualifier, Span) {
        (q, self.span(l, l + 1))
    }

    /// An identifier expression for a name already read.
    pub fn name_expr(&self, name: Ident) -> X {
        let span = name.span;
        X { e: Box::new(Expr { kind: ExprKind::Ident(name), span }), d: 1, chain: 0 }
    }

    /// Adjacent string literals `l..r`, concatenated.
    pub fn string(&self, l: usize, r: usize) -> X {
        let mut s = String::new();
        for i in l..r {
            s.push_str(&literal::string_literal(self.text(i)));
        }
        self.leaf(ExprKind::Literal(Literal::String(s)), l, r)
    }

    /// A collapsed `technique [name] ... { ... }` block over tokens `l..r`.
    /// `compile profile function(args)`.
    pub fn compile(&self, profile: Ident, function: Ident, args: Args, l: usize, r: usize) -> PResult<X> {
        let Args { list: args, d } = args;
        self.expr(ExprKind::Compile { profile, function, args }, l, r, d)
    }

    /// `value : SEMANTIC` as a call argument.
    pub fn with_semantic(&self, value: X, semantic: Box<Semantic>, l: usize, r: usize) -> PResult<X> {
        let d = value.d;
        self.expr(ExprKind::WithSemantic { value: value.e, semantic }, l, r, d)
    }

    /// `uniform Name { members } object;`: `words` must be qualifiers then the name.
    pub fn constant_buffer(
        &self,
        st: &mut State,
        mut words: Vec<SpecWord>,
        members: Vec<Box<Declaration>>,
        object: Option<Box<Declarator>>,
        l: usize,
        r: usize,
    ) -> Item {
        let span = self.span(l, r);
        let name = match words.pop() {
            Some(SpecWord::Profile(name)) => name,
            _ => {
                let d = Diagnostic::error(codes::E_BAD_DECLARATION, "a constant buffer needs a name before `{`")
                    .with_primary(span, "expected `uniform Name { ... }`");
                st.error(l, d);
                return Item::Error(span);
            }
        };
        let mut qualifiers = Vec::new();
        for w in words {
            match w {
                SpecWord::Qualifier(q, s) => qualifiers.push((q, s)),
                SpecWord::Profile(p) => {
                    let d = Diagnostic::error(
                        codes::E_BAD_DECLARATION,
                        format!("unexpected name `{}` before a constant buffer", p.name),
                    )
                    .with_primary(p.span, "only qualifiers may precede the buffer's name");
                    st.error(l, d);
                    return Item::Error(span);
                }
            }
        }
        if !qualifiers.iter().any(|(q, _)| *q == Qualifier::Uniform) {
            let d = Diagnostic::error(codes::E_BAD_DECLARATION, "a constant buffer must be declared `uniform`")
                .with_primary(name.span, "add `uniform` before this name");
            st.error(l, d);
        }
        Item::ConstantBuffer(ConstantBuffer {
            qualifiers,
            name,
            members: unbox(members),
            object: object.map(|o| *o),
            span,
        })
    }

    #[allow(clippy::boxed_local)] // grammar symbols arrive boxed (see `X`)
    pub fn function(
        &self,
        specifiers: Box<DeclSpecifiers>,
        head: Box<FnHead>,
        body: Option<Bl>,
        l: usize,
        r: usize,
    ) -> Function {
        let head = *head;
        Function {
            specifiers: *specifiers,
            name: head.name,
            params: head.params,
            semantic: head.semantic,
            body: body.map(|b| *b.b),
            span: self.span(l, r),
        }
    }

    #[allow(clippy::boxed_local)] // grammar symbols arrive boxed (see `X`)
    pub fn declaration(
        &self,
        specifiers: Box<DeclSpecifiers>,
        declarators: Vec<Box<Declarator>>,
        l: usize,
        r: usize,
    ) -> Declaration {
        Declaration { specifiers: *specifiers, declarators: unbox(declarators), span: self.span(l, r) }
    }
}

/// `f(void)` has no parameters.
pub fn params(list: Vec<Box<Parameter>>) -> Vec<Parameter> {
    let list = unbox(list);
    if let [p] = list.as_slice() {
        let is_void = matches!(&p.specifiers.ty, TypeSpec::Named(i) if i.name == "void");
        if is_void
            && p.name.is_none()
            && p.array.is_empty()
            && p.semantic.is_none()
            && p.default.is_none()
            && p.specifiers.qualifiers.is_empty()
        {
            return Vec::new();
        }
    }
    list
}

/// Mutable state of one parse: the items built so far and the diagnostics.
#[derive(Debug, Default)]
pub struct State {
    pub items: Vec<Item>,
    /// Token index just past the last item pushed.
    pub item_end: usize,
    pub diags: Vec<(usize, Diagnostic)>,
}

impl State {
    pub fn push_item(&mut self, item: Item, r: usize) {
        self.items.push(item);
        self.item_end = r;
    }

    pub fn int_literal(&mut self, ctx: &Ctx<'_>, i: usize) -> X {
        let (lit, problem) = literal::int_literal(ctx.text(i));
        self.literal(ctx, lit, problem, i)
    }

    pub fn float_literal(&mut self, ctx: &Ctx<'_>, i: usize) -> X {
        let (lit, problem) = literal::float_literal(ctx.text(i));
        self.literal(ctx, lit, problem, i)
    }

    pub fn char_literal(&mut self, ctx: &Ctx<'_>, i: usize) -> X {
        let (lit, problem) = literal::char_literal(ctx.text(i));
        self.literal(ctx, lit, problem, i)
    }

    fn literal(&mut self, ctx: &Ctx<'_>, lit: Literal, problem: Option<String>, i: usize) -> X {
        if let Some(message) = problem {
            let d = Diagnostic::error(codes::E_BAD_LITERAL, message).with_primary(ctx.span(i, i + 1), "");
            self.diags.push((i, d));
        }
        ctx.leaf(ExprKind::Literal(lit), i, i + 1)
    }

    /// A statement, member or argument the grammar recovered from.
    pub fn recovered(&mut self, ctx: &Ctx<'_>, e: ErrorRecovery<usize, Tok, PErr>) {
        ctx.recoveries.set(ctx.recoveries.get() + 1);
        let (at, d) = error_diagnostic(ctx, e.error);
        self.diags.push((at, d));
    }

    /// A diagnostic for an error found at file scope or in a skipped region.
    pub fn error(&mut self, at: usize, d: Diagnostic) {
        self.diags.push((at, d));
    }
}

/// Converts any parse error into a diagnostic and the token index it belongs to.
pub fn error_diagnostic(ctx: &Ctx<'_>, e: PError) -> (usize, Diagnostic) {
    match e {
        ParseError::UnrecognizedToken { token: (l, tok, r), expected } => {
            let found = found(ctx, l, r, tok);
            if let Some(prev_end) = semicolon_at_line_end(ctx, l, &expected) {
                let d = Diagnostic::error(codes::E_UNEXPECTED_TOKEN, format!("expected `;`, found {found}"))
                    .with_primary(prev_end, "expected `;` here")
                    .with_secondary(ctx.span(l, r), "unexpected here");
                return (l, d);
            }
            let message = match expected_list(&expected) {
                Some(list) => format!("expected {list}, found {found}"),
                None => format!("unexpected {found}"),
            };
            let mut d =
                Diagnostic::error(codes::E_UNEXPECTED_TOKEN, message).with_primary(ctx.span(l, r), "unexpected here");
            if let Some(note) = geometry_hint(ctx, l) {
                d = d.with_note(note);
            }
            (l, d)
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let last = location.saturating_sub(1).min(ctx.tokens.len().saturating_sub(1));
            let s = ctx.span(last, last + 1);
            let at_end = Span { start: s.end, ..s };
            let message = match expected_list(&expected) {
                Some(list) => format!("unexpected end of file; expected {list}"),
                None => "unexpected end of file".to_owned(),
            };
            let d = Diagnostic::error(codes::E_UNEXPECTED_EOF, message).with_primary(at_end, "the file ends here");
            (location, d)
        }
        ParseError::ExtraToken { token: (l, tok, r) } => {
            let d = Diagnostic::error(codes::E_UNEXPECTED_TOKEN, format!("unexpected {}", found(ctx, l, r, tok)))
                .with_primary(ctx.span(l, r), "unexpected here");
            (l, d)
        }
        ParseError::InvalidToken { location } => {
            let d = Diagnostic::error(codes::E_UNEXPECTED_TOKEN, "invalid token")
                .with_primary(ctx.span(location, location + 1), "");
            (location, d)
        }
        ParseError::User { error: PErr::TooDeep { at, what } } => {
            let limit = if what == "expression" { MAX_EXPR_DEPTH } else { MAX_STMT_DEPTH };
            let d =
                Diagnostic::error(codes::E_NESTING_TOO_DEEP, format!("{what} nested more than {limit} levels deep"))
                    .with_primary(ctx.span(at, at + 1), "the level past the limit starts here")
                    .with_note(
                        "every operator of another precedence, call, member access and index is one level, a \
                     chain of one operator (`a + b - c ...`) one level per 8 operators, and every nested statement \
                     or block one more; the parser skips this declaration",
                    );
            (at, d)
        }
    }
}

/// A hint for the likely mistakes with geometry-program syntax: a primitive modifier
/// somewhere else than before a function's return type (`void TRIANGLE gs(...)`,
/// `f(TRIANGLE float4 x)`), and an `AttribArray<T` whose `>` is missing. `l` is the
/// unexpected token.
fn geometry_hint(ctx: &Ctx<'_>, l: usize) -> Option<String> {
    let word = |i: usize| ctx.tokens.get(i).map(|t| ctx.sources.text(t.span));
    // Only where the words around read as a function header, so that a variable that
    // happens to be called `LINE` gets no such hint.
    let typeish = |i: usize| {
        word(i).is_some_and(|w| crate::lexer::classify::is_builtin_type(w) || ProgramModifier::parse(w).is_some())
    };
    if let Some(here) = word(l).filter(|w| ProgramModifier::parse(w).is_some() && typeish(l + 1)) {
        return Some(format!(
            "`{here}` is a primitive or patch modifier: it goes before a function's return type, nowhere else"
        ));
    }
    let prev = word(l.checked_sub(1)?)?;
    if ProgramModifier::parse(prev).is_some() && l >= 2 && typeish(l - 2) {
        return Some(format!(
            "`{prev}` is a primitive or patch modifier: it goes before the function's return type \
             (`{prev} void {}(...)`)",
            word(l).unwrap_or("name")
        ));
    }
    if l >= 3 && word(l - 3) == Some("AttribArray") && word(l - 2) == Some("<") {
        return Some("`AttribArray<T>` takes one type and is closed by `>`".to_owned());
    }
    None
}

/// When `;` would fit and the unexpected token starts a later line than the token
/// before it, the likely mistake is a missing `;` at the end of that earlier line: the
/// zero-width span just after it.
fn semicolon_at_line_end(ctx: &Ctx<'_>, l: usize, expected: &[String]) -> Option<Span> {
    if l == 0 || !expected.iter().any(|e| e == "\";\"") {
        return None;
    }
    let prev = ctx.sources.user_span(ctx.tokens.get(l - 1)?.span);
    let next = ctx.sources.user_span(ctx.tokens.get(l)?.span);
    if prev.file != next.file {
        return None;
    }
    let file = ctx.sources.file(prev.file);
    (file.line_index(prev.end) < file.line_index(next.start)).then_some(Span { start: prev.end, ..prev })
}

fn found(ctx: &Ctx<'_>, l: usize, r: usize, tok: Tok) -> String {
    match tok {
        Tok::Skipped => "a nested region".to_owned(),
        _ => {
            let text = if r > l + 1 { ctx.joined(l, r, " ").name } else { ctx.text(l).to_owned() };
            match tok {
                Tok::Ident => format!("identifier `{text}`"),
                Tok::TypeName | Tok::UserType => format!("type name `{text}`"),
                Tok::IntLit | Tok::FloatLit => format!("number `{text}`"),
                Tok::StringLit => format!("string {text}"),
                _ if text.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                    format!("keyword `{text}`")
                }
                _ => format!("`{text}`"),
            }
        }
    }
}

/// A short, readable form of LALRPOP's expected-terminal list, or `None` when empty.
fn expected_list(expected: &[String]) -> Option<String> {
    let has = |t: &str| expected.iter().any(|e| e == t);
    let mut parts: Vec<String> = Vec::new();
    for p in [";", ")", "]", "}", ",", ":", "=", "{", "(", "while"] {
        if has(&format!("\"{p}\"")) {
            parts.push(format!("`{p}`"));
        }
    }
    let expression = has("IntLit") && has("Ident");
    if expression {
        parts.push("an expression".to_owned());
    } else if has("Ident") {
        parts.push("an identifier".to_owned());
    }
    if !expression && (has("TypeName") || has("UserType")) {
        parts.push("a type".to_owned());
    }
    // Binary operators only: prefix `-`, `!`, `++` are part of "an expression".
    let binary = ["\"*\"", "\"&&\"", "\"==\"", "\"?\""].iter().any(|o| has(o));
    if binary {
        parts.push("an operator".to_owned());
    }
    if expression || binary {
        // `(` then only opens an expression or a call, and `while` a statement: not worth
        // their own mention.
        parts.retain(|p| p != "`(`" && p != "`while`");
    }
    if parts.is_empty() {
        // Something unusual: show the first few terminals as LALRPOP names them.
        parts = expected.iter().take(4).map(|e| pretty_terminal(e)).collect();
    }
    match parts.len() {
        0 => None,
        1 => Some(parts.remove(0)),
        2 => Some(format!("{} or {}", parts[0], parts[1])),
        n => {
            let last = parts.remove(n - 1);
            Some(format!("one of {}, or {last}", parts.join(", ")))
        }
    }
}

fn pretty_terminal(t: &str) -> String {
    match t.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        Some(inner) => format!("`{inner}`"),
        None => match t {
            "StringLit" => "a string".to_owned(),
            "FloatLit" | "IntLit" => "a number".to_owned(),
            other => other.to_owned(),
        },
    }
}
