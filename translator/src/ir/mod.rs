//! The typed IR of a Cg program, analysed for one entry point under one profile.
//!
//! # Shape
//!
//! A [`Module`] holds structs, interfaces, interned array types, global variables (with
//! their initialiser expressions in [`Module::global_exprs`]) and functions. Each
//! [`Function`] owns an [`Exprs`] arena of typed expressions and a statement tree
//! ([`Block`]). Expressions form trees (each handle is used by exactly one parent, or by
//! one statement); a handle is never shared, so evaluating a statement evaluates each of
//! its expressions exactly once.
//!
//! # Evaluation rules (what an interpreter must do)
//!
//! * Every expression has a concrete [`Type`] (`cint`/`cfloat` survive only on literals
//!   that never met another type; they evaluate as `int`/`float`).
//! * Operands are evaluated left to right; a call's arguments left to right; there is no
//!   short-circuit: both sides of `&&`/`||` and all three operands of `?:` are always
//!   evaluated (Cg spec), and [`ExprKind::Select`] then picks per component.
//! * Nothing is implicit: every smear ([`ExprKind::Splat`]), truncation
//!   ([`ExprKind::Truncate`]), shape change ([`ExprKind::Reshape`]) and scalar-type change
//!   ([`ExprKind::Convert`]) is a node. [`ExprKind::Binary`] operands have identical
//!   types except for shifts (the right operand keeps its integer type); arithmetic on
//!   vectors and matrices is component-wise (`*` of two matrices is component-wise; the
//!   linear-algebra product is the `mul` builtin). Comparisons give a `bool` of the
//!   operands' shape; `&&`, `||`, `!` work per component on bool vectors.
//! * Integer `/` and `%` truncate toward zero as in C; `%` exists only on integers.
//!   Division by zero in integers yields 0 (Cg leaves it undefined; we pin it).
//! * Float arithmetic is IEEE binary32 for `float`; `half` and `fixed` are evaluated at
//!   `float` precision (RetroArch's GL profiles do the same); `double` is binary64.
//! * Conversions: float to integer truncates toward zero (saturating at the range);
//!   integer to float rounds to nearest; to `bool` is `x != 0`; from `bool` is 0 or 1.
//! * Places (lvalues) are [`ExprKind::Var`], and [`ExprKind::Member`],
//!   [`ExprKind::Index`], [`ExprKind::Swizzle`], [`ExprKind::MatrixElements`] whose base
//!   is a place. Assigning through a swizzle writes only the named components (a write
//!   mask; components never repeat).
//! * Calls copy `in` arguments in, run the callee, and copy `out`/`inout` parameters back
//!   to the argument places in parameter order after the call (copy-in/copy-out).
//!   `out` parameters start undefined (the interpreter uses zero).
//! * Indexing out of range reads 0 and ignores writes (Cg leaves it undefined).
//! * `discard` ends the invocation and suppresses its output.
//! * Matrices are row-major in meaning: `m[i]` is row `i` (a vector of `cols`
//!   components); `float2x3(a,b,c,d,e,f)` fills row 0 with `a,b,c`.
//!
//! This module defines data only. It never depends on GLSL or RetroArch conventions;
//! those belong to the porting passes.

pub mod arena;
pub mod builtin;
pub mod pretty;
pub mod types;
pub mod valid;

pub use arena::{Arena, Handle};
pub use builtin::Builtin;
pub use grammar::Span;
pub use types::{ArrayId, ArrayType, InterfaceId, SamplerDim, Scalar, StructId, Type};

/// A binding semantic as written (`TEXCOORD1`), split into base and index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semantic {
    /// The name as written, e.g. `texcoord1` or `TEXUNIT0`.
    pub text: String,
    /// Upper-cased base without trailing digits: `TEXCOORD`.
    pub base: String,
    /// Trailing number, if any: `1`. `BUFFER[3]` also gives 3.
    pub index: Option<u32>,
    pub span: Span,
}

impl Semantic {
    /// Splits `TEXCOORD12` into `TEXCOORD` and 12 (semantics are case-insensitive).
    pub fn parse(text: &str, span: Span) -> Semantic {
        let digits = text.len() - text.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (base, num) = text.split_at(text.len() - digits);
        Semantic { text: text.to_owned(), base: base.to_ascii_uppercase(), index: num.parse().ok(), span }
    }

    /// `TEXCOORD` and `TEXCOORD0` are the same semantic.
    pub fn matches(&self, base: &str, index: u32) -> bool {
        self.base == base && self.index.unwrap_or(0) == index
    }
}

/// A constant value as written or folded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Bool(bool),
    /// Signed integers and `cint`.
    Int(i64),
    /// Unsigned integers.
    UInt(u64),
    /// `float`, `half`, `fixed`, `double`, `cfloat` (the node's type says which).
    Float(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Arithmetic negation, component-wise.
    Neg,
    /// Logical not, component-wise on bool scalars and vectors.
    Not,
    /// Bitwise complement on integers.
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// Component-wise, both sides always evaluated.
    And,
    /// Component-wise, both sides always evaluated.
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinaryOp {
    pub const fn is_comparison(self) -> bool {
        matches!(self, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge)
    }
    pub const fn is_logical(self) -> bool {
        matches!(self, BinaryOp::And | BinaryOp::Or)
    }
    pub const fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IncDec {
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

/// A variable an expression can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    Local(Handle<Local>),
    /// Parameter by position (for methods, 0 is `this`).
    Param(u32),
    Global(Handle<Global>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Literal(Literal),
    Var(Var),
    /// Struct field by index.
    Member {
        base: Handle<Expr>,
        field: u32,
    },
    /// Vector component, matrix row, or array element.
    Index {
        base: Handle<Expr>,
        index: Handle<Expr>,
    },
    /// `v.xzy`; the base is a vector or a scalar (a scalar acts as a 1-vector).
    /// One component gives a scalar.
    Swizzle {
        base: Handle<Expr>,
        components: Vec<u8>,
    },
    /// `m._m01_m10`: (row, col) pairs, zero-based. One element gives a scalar.
    MatrixElements {
        base: Handle<Expr>,
        elements: Vec<(u8, u8)>,
    },
    Unary {
        op: UnaryOp,
        operand: Handle<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Handle<Expr>,
        rhs: Handle<Expr>,
    },
    /// `cond ? accept : reject`; all three evaluated; with a bool vector condition the
    /// choice is per component.
    Select {
        cond: Handle<Expr>,
        accept: Handle<Expr>,
        reject: Handle<Expr>,
    },
    /// Same shape, other scalar type, per component.
    Convert {
        value: Handle<Expr>,
    },
    /// Scalar replicated into every component of a vector or matrix (or a 1-vector).
    Splat {
        value: Handle<Expr>,
    },
    /// The leading components of a vector, the upper-left submatrix of a matrix, or
    /// element (0) / (0,0) as a scalar.
    Truncate {
        value: Handle<Expr>,
    },
    /// Vector to matrix or matrix to vector of the same total size, row-major order.
    Reshape {
        value: Handle<Expr>,
    },
    /// Vector, matrix, struct or array built from parts. For vectors and matrices the
    /// arguments' components are concatenated in order (rows of a matrix argument in
    /// row-major order) and already have the element type; for structs one argument per
    /// field, for arrays one per element.
    Construct {
        args: Vec<Handle<Expr>>,
    },
    /// A user function, resolved; `out`/`inout` arguments are places.
    Call {
        function: Handle<Function>,
        args: Vec<Handle<Expr>>,
    },
    /// A standard-library function, resolved to one overload: the arguments have the
    /// overload's parameter types exactly.
    Builtin {
        builtin: Builtin,
        args: Vec<Handle<Expr>>,
    },
    /// `target = value` or `target op= value`; evaluates to the new value of `target`.
    /// For compound assignment `value` already has `target`'s type.
    Assign {
        op: Option<BinaryOp>,
        target: Handle<Expr>,
        value: Handle<Expr>,
    },
    IncDec {
        op: IncDec,
        target: Handle<Expr>,
    },
    /// `a, b, c`: evaluates all, left to right; the value is the last.
    Sequence {
        exprs: Vec<Handle<Expr>>,
    },
    /// A form only the porting passes create: see [`Ported`].
    Ported(Ported),
}

/// Forms the porting passes ([`crate::port`]) put into a stage's IR where the program's
/// meaning in RetroArch's slang needs a form the other nodes do not express. Sema never
/// creates them, so the CPU reference (which runs the IR before porting) never meets
/// them; the writer prints each one mechanically.
#[derive(Clone, Debug, PartialEq)]
pub enum Ported {
    /// A value RetroArch's slang runtime provides in place of a Cg runtime name
    /// (`IN.video_size`, `modelViewProj`). The node's type is the one the Cg program
    /// declared (`float2 video_size`), which the value is read as.
    Runtime(RuntimeValue),
    /// `&&` or `||` evaluating both operands, per component on bool vectors (Cg's
    /// meaning, where GLSL's operators short-circuit and take scalars only).
    EagerLogical { op: BinaryOp, lhs: Handle<Expr>, rhs: Handle<Expr> },
    /// A per-component select on a bool vector condition with bool vector operands,
    /// for a dialect without `mix` on bool vectors ([`crate::port::naga_dialect`]).
    ComponentSelect { cond: Handle<Expr>, accept: Handle<Expr>, reject: Handle<Expr> },
    /// A constant float that is infinite or NaN (a literal, or a division of constants
    /// that folds to one), for a dialect whose compiler folds constants and rejects
    /// such a result: written through its bits ([`crate::port::naga_dialect`]).
    NonFinite(f64),
}

/// What RetroArch's slang runtime provides to a pass ([`Ported::Runtime`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuntimeValue {
    /// A uniform of the push block or UBO (sizes, counters, `MVP`).
    Uniform(crate::retro::Uniform),
    /// A texture (its combined sampler).
    Texture(crate::retro::Texture),
    /// A vertex attribute (vertex stage only).
    Attribute(Attribute),
    /// What the runtime leaves zero (`IN.frame_rotation`), or a member it never bound
    /// (already reported).
    Zero,
}

/// RetroArch's two vertex attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// `Position` (`vec4`, location 0).
    Position,
    /// `TexCoord` (`vec2`, location 1).
    TexCoord,
}

impl ExprKind {
    /// The direct operands, in evaluation order.
    pub fn children(&self) -> Vec<Handle<Expr>> {
        match self {
            ExprKind::Literal(_) | ExprKind::Var(_) => vec![],
            ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixElements { base, .. } => {
                vec![*base]
            }
            ExprKind::Index { base, index } => vec![*base, *index],
            ExprKind::Unary { operand, .. } => vec![*operand],
            ExprKind::Binary { lhs, rhs, .. } => vec![*lhs, *rhs],
            ExprKind::Select { cond, accept, reject } => vec![*cond, *accept, *reject],
            ExprKind::Convert { value }
            | ExprKind::Splat { value }
            | ExprKind::Truncate { value }
            | ExprKind::Reshape { value } => vec![*value],
            ExprKind::Construct { args } | ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } => args.clone(),
            ExprKind::Assign { target, value, .. } => vec![*target, *value],
            ExprKind::IncDec { target, .. } => vec![*target],
            ExprKind::Sequence { exprs } => exprs.clone(),
            ExprKind::Ported(Ported::Runtime(_)) => vec![],
            ExprKind::Ported(Ported::EagerLogical { lhs, rhs, .. }) => vec![*lhs, *rhs],
            ExprKind::Ported(Ported::ComponentSelect { cond, accept, reject }) => vec![*cond, *accept, *reject],
            ExprKind::Ported(Ported::NonFinite(_)) => vec![],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
}

/// An expression arena with a parallel span table.
#[derive(Clone, Debug, Default)]
pub struct Exprs {
    arena: Arena<Expr>,
    spans: Vec<Span>,
}

impl Exprs {
    pub fn append(&mut self, expr: Expr, span: Span) -> Handle<Expr> {
        self.spans.push(span);
        self.arena.append(expr)
    }
    pub fn span(&self, h: Handle<Expr>) -> Span {
        self.spans[h.index()]
    }
    pub fn len(&self) -> usize {
        self.arena.len()
    }
    pub fn is_empty(&self) -> bool {
        self.arena.is_empty()
    }
    pub fn contains(&self, h: Handle<Expr>) -> bool {
        self.arena.contains(h)
    }
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<Expr>, &Expr)> {
        self.arena.iter()
    }
    pub fn get_mut(&mut self, h: Handle<Expr>) -> &mut Expr {
        &mut self.arena[h]
    }
}

impl std::ops::Index<Handle<Expr>> for Exprs {
    type Output = Expr;
    fn index(&self, h: Handle<Expr>) -> &Expr {
        &self.arena[h]
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    pub name: String,
    pub ty: Type,
    pub is_const: bool,
    pub span: Span,
}

/// One `case`/`default` group of a switch. Control falls through to the next group
/// unless the body ends in `break` (C semantics).
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// The case values; empty with `is_default` for `default:` alone.
    pub values: Vec<i64>,
    pub is_default: bool,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Block(Block),
    Expr(Handle<Expr>),
    /// A local declaration; `init` has the local's type.
    Local {
        local: Handle<Local>,
        init: Option<Handle<Expr>>,
    },
    If {
        cond: Handle<Expr>,
        accept: Block,
        reject: Option<Block>,
    },
    /// `for (init; cond; step) body`: `init` runs once; a missing `cond` is true.
    For {
        init: Block,
        cond: Option<Handle<Expr>>,
        step: Option<Handle<Expr>>,
        body: Block,
    },
    While {
        cond: Handle<Expr>,
        body: Block,
    },
    DoWhile {
        body: Block,
        cond: Handle<Expr>,
    },
    /// The selector is an integer scalar.
    Switch {
        selector: Handle<Expr>,
        cases: Vec<SwitchCase>,
    },
    Break,
    Continue,
    /// The value has the function's return type.
    Return(Option<Handle<Expr>>),
    Discard,
    /// Geometry programs only (gp4gp, gp5gp): `emitVertex(v : POSITION, c : COLOR0)`
    /// emits one vertex of the output strip with these values as its outputs. A value
    /// without a semantic is a struct whose fields carry them.
    EmitVertex(Vec<(Handle<Expr>, Option<Semantic>)>),
    /// Geometry programs only: `restartStrip()` ends the current output strip.
    RestartStrip,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub stmts: Vec<(Stmt, Span)>,
}

impl Block {
    /// The expression trees of the block's statements, nested blocks included, in order.
    pub fn roots(&self, out: &mut Vec<Handle<Expr>>) {
        for (s, _) in &self.stmts {
            match s {
                Stmt::Block(b) => b.roots(out),
                Stmt::Expr(e) | Stmt::Return(Some(e)) | Stmt::Local { init: Some(e), .. } => out.push(*e),
                Stmt::If { cond, accept, reject } => {
                    out.push(*cond);
                    accept.roots(out);
                    if let Some(r) = reject {
                        r.roots(out);
                    }
                }
                Stmt::For { init, cond, step, body } => {
                    init.roots(out);
                    out.extend(cond.iter().chain(step.iter()).copied());
                    body.roots(out);
                }
                Stmt::While { cond, body } | Stmt::DoWhile { body, cond } => {
                    out.push(*cond);
                    body.roots(out);
                }
                Stmt::Switch { selector, cases } => {
                    out.push(*selector);
                    for c in cases {
                        c.body.roots(out);
                    }
                }
                Stmt::EmitVertex(values) => out.extend(values.iter().map(|(h, _)| *h)),
                Stmt::Local { init: None, .. }
                | Stmt::Return(None)
                | Stmt::Break
                | Stmt::Continue
                | Stmt::Discard
                | Stmt::RestartStrip => {}
            }
        }
    }
}

impl Exprs {
    /// A bool constant, possibly splat to a vector (`true`, `bvec4(false)`).
    pub fn bool_constant(&self, h: Handle<Expr>) -> Option<bool> {
        match &self[h].kind {
            ExprKind::Literal(Literal::Bool(b)) => Some(*b),
            ExprKind::Splat { value } | ExprKind::Convert { value }
                if self[*value].ty.scalar() == Some(Scalar::Bool) =>
            {
                self.bool_constant(*value)
            }
            ExprKind::Construct { args } if !args.is_empty() => {
                let first = self.bool_constant(args[0])?;
                args.iter().all(|&a| self.bool_constant(a) == Some(first)).then_some(first)
            }
            _ => None,
        }
    }

    /// Whether evaluating the tree at `h` writes anything or may (assignments,
    /// increments, user calls, library calls with out arguments, `clip`).
    pub fn has_side_effects(&self, h: Handle<Expr>) -> bool {
        self.tree(h).into_iter().any(|x| {
            matches!(
                self[x].kind,
                ExprKind::Assign { .. }
                    | ExprKind::IncDec { .. }
                    | ExprKind::Call { .. }
                    | ExprKind::Builtin {
                        builtin: Builtin::Sincos | Builtin::Modf | Builtin::Frexp | Builtin::Clip,
                        ..
                    }
            )
        })
    }

    /// Every node of the tree at `root`, parents before children, operands in
    /// evaluation order.
    pub fn tree(&self, root: Handle<Expr>) -> Vec<Handle<Expr>> {
        let mut out = Vec::new();
        let mut work = vec![root];
        while let Some(h) = work.pop() {
            if self.contains(h) {
                out.push(h);
                work.extend(self[h].kind.children().into_iter().rev());
            }
        }
        out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamDir {
    In,
    Out,
    InOut,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    pub dir: ParamDir,
    /// Declared `uniform` (meaningful on entry points: set by the runtime, not varying).
    pub uniform: bool,
    pub is_const: bool,
    pub semantic: Option<Semantic>,
    /// Default value, in the module's `global_exprs`, already of type `ty`.
    pub default: Option<Handle<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Profile names this version is restricted to (`vs`, `fp40`); empty = open profile.
    pub profiles: Vec<String>,
    pub params: Vec<Param>,
    pub ret: Type,
    pub ret_semantic: Option<Semantic>,
    pub locals: Arena<Local>,
    pub exprs: Exprs,
    /// `None` for a prototype that was never defined.
    pub body: Option<Block>,
    /// For member functions: the struct; parameter 0 is then `this` (inout).
    pub method_of: Option<StructId>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    pub semantic: Option<Semantic>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct StructDef {
    /// `None` for an anonymous struct.
    pub name: Option<String>,
    pub fields: Vec<Field>,
    pub methods: Vec<Handle<Function>>,
    pub implements: Option<InterfaceId>,
    pub span: Span,
}

/// A method signature declared by an interface.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodSig {
    pub name: String,
    pub params: Vec<(Type, ParamDir)>,
    pub ret: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct InterfaceDef {
    pub name: String,
    pub base: Option<InterfaceId>,
    pub methods: Vec<MethodSig>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// Non-static globals and `uniform` ones: set by the runtime.
    Uniform,
    /// `static` globals: private, initialised once per invocation.
    Static,
    /// `varying` globals (inputs or, with `out`, outputs of the entry point).
    Varying,
    /// Members of a constant buffer `uniform Block {...} : BUFFER[n]`.
    Buffer,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub ty: Type,
    pub storage: Storage,
    pub is_const: bool,
    pub semantic: Option<Semantic>,
    /// In [`Module::global_exprs`], of type `ty`.
    pub init: Option<Handle<Expr>>,
    pub span: Span,
}

/// A shader stage: what an entry point is compiled as, and what the validator and the
/// filter chain of `runtime-check` name (the one `Stage` type of the workspace).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    Vertex,
    Fragment,
}

impl Stage {
    pub const BOTH: [Stage; 2] = [Stage::Vertex, Stage::Fragment];

    /// `vertex` or `fragment`, as messages name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The function compiled as a program, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    pub function: Handle<Function>,
    pub stage: Stage,
    /// The profile name it was analysed under, e.g. `vp40`.
    pub profile: String,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub structs: Vec<StructDef>,
    pub interfaces: Vec<InterfaceDef>,
    pub arrays: Vec<ArrayType>,
    pub globals: Arena<Global>,
    pub global_exprs: Exprs,
    pub functions: Arena<Function>,
    pub entry_point: Option<EntryPoint>,
    /// `#pragma` lines of the source, verbatim, in order.
    pub pragmas: Vec<String>,
}

impl Module {
    /// Interns an array type.
    pub fn array(&mut self, elem: Type, len: Option<u32>) -> Type {
        let a = ArrayType { elem, len };
        let id = match self.arrays.iter().position(|x| *x == a) {
            Some(i) => i,
            None => {
                self.arrays.push(a);
                self.arrays.len() - 1
            }
        };
        Type::Array(ArrayId(id as u32))
    }

    pub fn array_type(&self, id: ArrayId) -> ArrayType {
        self.arrays[id.0 as usize]
    }

    /// Scalar components in a value of `ty` (an unsized array counts one element;
    /// samplers and interfaces count one), saturating: how big a value is.
    pub fn scalar_count(&self, ty: Type) -> u64 {
        match ty {
            Type::Array(a) => {
                let at = self.array_type(a);
                self.scalar_count(at.elem).saturating_mul(u64::from(at.len.unwrap_or(1)))
            }
            Type::Struct(s) => {
                self.struct_def(s).fields.iter().fold(0u64, |n, f| n.saturating_add(self.scalar_count(f.ty)))
            }
            t => u64::from(t.components().unwrap_or(1)),
        }
    }

    pub fn struct_def(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }

    pub fn interface(&self, id: InterfaceId) -> &InterfaceDef {
        &self.interfaces[id.0 as usize]
    }

    /// The Cg spelling of a type, with struct and interface names.
    pub fn type_name(&self, ty: Type) -> String {
        match ty {
            Type::Struct(id) => self.struct_def(id).name.clone().unwrap_or_else(|| "<anonymous struct>".to_owned()),
            Type::Interface(id) => self.interface(id).name.clone(),
            Type::Array(id) => {
                let mut dims = String::new();
                let mut t = Type::Array(id);
                while let Type::Array(a) = t {
                    let a = self.array_type(a);
                    match a.len {
                        Some(n) => dims.push_str(&format!("[{n}]")),
                        None => dims.push_str("[]"),
                    }
                    t = a.elem;
                }
                format!("{}{dims}", self.type_name(t))
            }
            other => other.to_string(),
        }
    }
}

impl Module {
    /// Functions reachable from `entry`, callees before callers.
    pub fn reachable_functions(&self, entry: Handle<Function>) -> Vec<Handle<Function>> {
        let m = self;
        let mut order = Vec::new();
        let mut state: std::collections::HashMap<Handle<Function>, u8> = std::collections::HashMap::new();
        let mut stack = vec![(entry, false)];
        while let Some((f, done)) = stack.pop() {
            if done {
                state.insert(f, 2);
                order.push(f);
                continue;
            }
            if state.contains_key(&f) {
                continue;
            }
            state.insert(f, 1);
            stack.push((f, true));
            let mut callees: Vec<Handle<Function>> = m.functions[f]
                .exprs
                .iter()
                .filter_map(|(_, e)| if let ExprKind::Call { function, .. } = e.kind { Some(function) } else { None })
                .collect();
            callees.sort();
            callees.dedup();
            for c in callees.into_iter().rev() {
                if !state.contains_key(&c) {
                    stack.push((c, false));
                }
            }
        }
        order
    }
}
