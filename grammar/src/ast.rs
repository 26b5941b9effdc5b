//! The spanned Cg abstract syntax tree.
//!
//! Syntax only: no types are resolved and no names are looked up here (that is sema's
//! job in the translator). Every node carries a [`Span`] in the user's own text (see
//! [`crate::source::Span`] for how macro expansions are mapped). Nodes that the parser
//! could not make sense of become `Error` variants, so one bad declaration never hides
//! the next. [`dump`] prints a stable text form used by snapshot tests.
//!
//! This module must never depend on anything past syntax: no GLSL, no RetroArch.

pub mod dump;

use crate::source::Span;

/// A name as written, e.g. a variable, field, function, semantic or type name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// One file after preprocessing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// Variables, typedefs, `struct S {...};` and other declarations at file scope.
    Declaration(Declaration),
    /// A function definition (with body) or prototype (without).
    Function(Function),
    /// `interface I { float f(float x); };`
    Interface(Interface),
    /// `uniform Block { ... } obj : BUFFER[3];`
    ConstantBuffer(ConstantBuffer),
    /// A CgFX `technique` block with its passes and their state assignments.
    Technique(Technique),
    /// A stray `;` at file scope.
    Empty(Span),
    /// A declaration the parser could not read (a diagnostic was emitted).
    Error(Span),
}

/// Storage classes and qualifiers in a declaration's specifiers, in source order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Qualifier {
    Const,
    Extern,
    Static,
    Uniform,
    Varying,
    In,
    Out,
    InOut,
    Inline,
    Packed,
    Unpacked,
    Typedef,
    RowMajor,
    ColumnMajor,
    Shared,
    Register,
    Volatile,
    NoInline,
    /// `precise` (Cg 3.x): no reassociation of the expressions computing the variable.
    /// The IR already evaluates exactly as written.
    Precise,
}

impl Qualifier {
    pub fn as_str(self) -> &'static str {
        use Qualifier::*;
        match self {
            Const => "const",
            Extern => "extern",
            Static => "static",
            Uniform => "uniform",
            Varying => "varying",
            In => "in",
            Out => "out",
            InOut => "inout",
            Inline => "inline",
            Packed => "packed",
            Unpacked => "unpacked",
            Typedef => "typedef",
            RowMajor => "row_major",
            ColumnMajor => "column_major",
            Shared => "shared",
            Register => "register",
            Volatile => "volatile",
            NoInline => "noinline",
            Precise => "precise",
        }
    }
}

/// A type as written in a declaration, cast or constructor.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeSpec {
    /// A built-in or declared type name: `float4`, `half3x3`, `sampler2D`, `bool`,
    /// `unsigned int` (multi-word names are joined with one space), `S` for a struct,
    /// typedef or interface.
    Named(Ident),
    /// `struct S { ... }` or an anonymous `struct { ... }` defined in place.
    Struct(Box<StructDef>),
    /// `vector<float, 3>` / `matrix<half, 2, 4>` (generic forms; arguments as written).
    Generic { name: Ident, args: Vec<GenericArg>, span: Span },
}

impl TypeSpec {
    pub fn span(&self) -> Span {
        match self {
            TypeSpec::Named(i) => i.span,
            TypeSpec::Struct(s) => s.span,
            TypeSpec::Generic { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum GenericArg {
    Type(TypeSpec),
    Expr(Expr),
}

/// A primitive or patch modifier written before a function's return type, where profile
/// names go: it declares the function a geometry or tessellation program and fixes the
/// length of its `AttribArray` parameters (Cg 3.1 gp4gp/gp5gp/gp5tcp/gp5tep).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProgramModifier {
    /// Geometry input primitives: `POINT` (1 vertex), `LINE` (2), `LINE_ADJ` (4),
    /// `TRIANGLE` (3), `TRIANGLE_ADJ` (6).
    Point,
    Line,
    LineAdj,
    Triangle,
    TriangleAdj,
    /// Geometry output primitives: `POINT_OUT`, `LINE_OUT` (line strips),
    /// `TRIANGLE_OUT` (triangle strips).
    PointOut,
    LineOut,
    TriangleOut,
    /// `PATCH_1` ... `PATCH_32`: the control points of an input patch (tessellation,
    /// and gp5gp geometry). Any number is read here; sema checks the range.
    Patch(u32),
    /// Tessellation evaluation domains: `TRIANGLES`, `QUADS`, `ISOLINES`.
    Triangles,
    Quads,
    Isolines,
}

impl ProgramModifier {
    /// The modifier spelled `word` (case-sensitive, as cgc read them), if any.
    pub fn parse(word: &str) -> Option<ProgramModifier> {
        use ProgramModifier::*;
        Some(match word {
            "POINT" => Point,
            "LINE" => Line,
            "LINE_ADJ" => LineAdj,
            "TRIANGLE" => Triangle,
            "TRIANGLE_ADJ" => TriangleAdj,
            "POINT_OUT" => PointOut,
            "LINE_OUT" => LineOut,
            "TRIANGLE_OUT" => TriangleOut,
            "TRIANGLES" => Triangles,
            "QUADS" => Quads,
            "ISOLINES" => Isolines,
            _ => {
                let n = word.strip_prefix("PATCH_")?;
                if n.is_empty() || n.len() > 9 || !n.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                Patch(n.parse().ok()?)
            }
        })
    }

    /// The spelling, as written.
    pub fn as_string(self) -> String {
        use ProgramModifier::*;
        match self {
            Point => "POINT".into(),
            Line => "LINE".into(),
            LineAdj => "LINE_ADJ".into(),
            Triangle => "TRIANGLE".into(),
            TriangleAdj => "TRIANGLE_ADJ".into(),
            PointOut => "POINT_OUT".into(),
            LineOut => "LINE_OUT".into(),
            TriangleOut => "TRIANGLE_OUT".into(),
            Patch(n) => format!("PATCH_{n}"),
            Triangles => "TRIANGLES".into(),
            Quads => "QUADS".into(),
            Isolines => "ISOLINES".into(),
        }
    }
}

/// Everything before the declarators: qualifiers, profile names, the type.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclSpecifiers {
    pub qualifiers: Vec<(Qualifier, Span)>,
    /// Profile names before the return type of a function (`vs float f(...)`), in order.
    pub profiles: Vec<Ident>,
    /// Primitive and patch modifiers among those words (`TRIANGLE LINE_OUT void gs(...)`),
    /// in order; they are not in `profiles`.
    pub modifiers: Vec<(ProgramModifier, Span)>,
    pub ty: TypeSpec,
    pub span: Span,
}

impl DeclSpecifiers {
    pub fn has(&self, q: Qualifier) -> bool {
        self.qualifiers.iter().any(|(x, _)| *x == q)
    }
}

/// `: TEXCOORD0`, `: TEXUNIT0`, `: BUFFER[3]`, `: register(c0)`, `: C12`.
#[derive(Clone, Debug, PartialEq)]
pub struct Semantic {
    pub name: Ident,
    /// `BUFFER[3]` has index `3`.
    pub index: Option<Box<Expr>>,
    /// `register(s0)` has argument `s0`.
    pub argument: Option<Ident>,
    pub span: Span,
}

/// `< string UIName = "Gamma"; float UIMin = 0.0; >`: each entry is a declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub ty: TypeSpec,
    pub name: Ident,
    pub value: Option<Initializer>,
    pub span: Span,
}

/// The size of one array dimension: `[4]`, `[N*2]` or `[]`.
#[derive(Clone, Debug, PartialEq)]
pub enum ArraySize {
    Sized(Expr),
    Unsized(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    /// `{ a, b, { c, d } }`, possibly with a trailing comma.
    List(Vec<Initializer>, Span),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(_, s) => *s,
        }
    }
}

/// One declarator with everything that may follow the name.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Ident,
    /// Dimensions outermost first: `float a[2][3]` is `[2, 3]`.
    pub array: Vec<ArraySize>,
    pub semantic: Option<Semantic>,
    pub annotations: Vec<Annotation>,
    pub init: Option<Initializer>,
    pub span: Span,
}

/// `static const float4 a = ..., b[2] : C0;` or `typedef float3 color;` or `struct S {...};`
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    pub specifiers: DeclSpecifiers,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    pub name: Option<Ident>,
    /// Interfaces it implements: `struct Light : ILight { ... }`.
    pub bases: Vec<Ident>,
    pub members: Vec<StructMember>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StructMember {
    Field(Box<Declaration>),
    Method(Box<Function>),
    Error(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Interface {
    pub name: Ident,
    /// An interface may extend one other interface.
    pub base: Option<Ident>,
    /// Method prototypes (`body` is `None`).
    pub methods: Vec<Function>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConstantBuffer {
    pub qualifiers: Vec<(Qualifier, Span)>,
    pub name: Ident,
    pub members: Vec<Declaration>,
    /// The object declarator after the closing brace (`obj : BUFFER[3]`), if any.
    pub object: Option<Declarator>,
    pub span: Span,
}

/// `technique Name < annotations > { pass ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Technique {
    pub name: Option<Ident>,
    pub annotations: Vec<Annotation>,
    pub passes: Vec<Pass>,
    pub span: Span,
}

/// `pass Name < annotations > { State = value; ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub name: Option<Ident>,
    pub annotations: Vec<Annotation>,
    pub states: Vec<StateAssignment>,
    pub span: Span,
}

/// One render-state assignment of a pass: `FragmentProgram = compile fp40 f();`,
/// `BlendFunc = int2(SrcAlpha, One);`, `Texture[0] = <tex>;`. The state names and their
/// value words belong to the effect runtime, not to the language.
#[derive(Clone, Debug, PartialEq)]
pub struct StateAssignment {
    pub name: Ident,
    pub index: Option<Expr>,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub specifiers: DeclSpecifiers,
    /// Prototypes may leave parameters unnamed.
    pub name: Option<Ident>,
    pub array: Vec<ArraySize>,
    pub semantic: Option<Semantic>,
    pub default: Option<Initializer>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Return type, qualifiers (`static`, `inline`) and profile names.
    pub specifiers: DeclSpecifiers,
    pub name: Ident,
    /// Empty for both `f()` and `f(void)`.
    pub params: Vec<Parameter>,
    /// Semantic of the return value: `float4 main(...) : COLOR`.
    pub semantic: Option<Semantic>,
    /// `None` for a prototype.
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    Declaration(Declaration),
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        else_: Option<Box<Stmt>>,
    },
    /// `for (init; cond; step) body`; `init` is a declaration or expression statement.
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    /// The body is a block whose statements include `Case`/`Default` labels, as in C.
    Switch {
        value: Expr,
        body: Block,
    },
    Case(Expr),
    Default,
    Break,
    Continue,
    Return(Option<Expr>),
    Discard,
    Empty,
    /// A statement the parser could not read (a diagnostic was emitted).
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// The suffix of a numeric literal, as the Cg spec lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiteralSuffix {
    /// No suffix: `cint` without a decimal point, `cfloat` with one.
    None,
    Double,
    Float,
    Half,
    Fixed,
    Int,
    Long,
    Short,
    Char,
    Unsigned,
    UnsignedShort,
    UnsignedChar,
    UnsignedInt,
    UnsignedLong,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// Value (saturated at `u64::MAX` when out of range, with a diagnostic), suffix.
    Int(u64, LiteralSuffix),
    Float(f64, LiteralSuffix),
    Bool(bool),
    /// The string's contents with escapes resolved.
    String(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

impl BinaryOp {
    pub fn as_str(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            And => "&&",
            Or => "||",
        }
    }
}

impl UnaryOp {
    pub fn as_str(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Neg => "-",
            Plus => "+",
            Not => "!",
            BitNot => "~",
            PreInc | PostInc => "++",
            PreDec | PostDec => "--",
        }
    }
}

/// A type in expression position (casts, constructors): the type and any array dims.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub ty: TypeSpec,
    pub array: Vec<ArraySize>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Ident(Ident),
    Literal(Literal),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a = b` has `op: None`; `a += b` has `op: Some(Add)`.
    Assign {
        op: Option<BinaryOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Conditional {
        cond: Box<Expr>,
        then: Box<Expr>,
        else_: Box<Expr>,
    },
    /// `a, b, c` (at least two).
    Comma(Vec<Expr>),
    /// `(float3) x`
    Cast {
        ty: TypeName,
        operand: Box<Expr>,
    },
    /// `float4(a, b)`, `float3x3(...)`, `S(...)`.
    Constructor {
        ty: TypeName,
        args: Vec<Expr>,
    },
    /// `f(a, b)` or a method call `obj.f(a)` (the callee is then a `Member`).
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `.x`, `.rgba`, `._m01`, `._11`, `.field`, `.length`: resolved by sema.
    Member {
        base: Box<Expr>,
        member: Ident,
    },
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// CgFX `compile fp40 f(args)`: the function compiled under a profile, with its
    /// leading uniform parameters bound to `args`.
    Compile {
        profile: Ident,
        function: Ident,
        args: Vec<Expr>,
    },
    /// `value : SEMANTIC`, an argument of a geometry program's `emitVertex`.
    WithSemantic {
        value: Box<Expr>,
        semantic: Box<Semantic>,
    },
    /// An expression the parser could not read (a diagnostic was emitted).
    Error,
}
