//! Geometry and tessellation programs (Cg 3.1: gp4gp, gp5gp, gp5tcp, gp5tep and their
//! DirectX and GLSL siblings): what a function's primitive and patch modifiers declare,
//! the `AttribArray<T>` parameters they size, `emitVertex`/`restartStrip`, and the checks
//! an entry point of each domain must pass.
//!
//! A function written `TRIANGLE LINE_OUT void gs(AttribArray<float4> p : POSITION)` is a
//! geometry program: one input primitive (`POINT` 1 vertex, `LINE` 2, `LINE_ADJ` 4,
//! `TRIANGLE` 3, `TRIANGLE_ADJ` 6, or a `PATCH_n` on gp5gp), at most one output primitive
//! (`POINT_OUT`, `LINE_OUT`, `TRIANGLE_OUT`). `PATCH_n` alone declares a tessellation
//! control program, a domain (`TRIANGLES`, `QUADS`, `ISOLINES`) with `PATCH_n` a
//! tessellation evaluation program. An `AttribArray<T>` parameter is an array of `T` with
//! one element per input vertex (control point).
//!
//! The rules decided here are syntax-level facts of the language; which profile an entry
//! is compiled under comes from [`super::profile`]. This module never lowers anything but
//! the two geometry statements, and never looks at the porting passes: slang has no
//! geometry or tessellation stage, so these programs stop after analysis.

use super::profile::{Domain, Profile};
use super::Lowerer;
use crate::codes;
use crate::ir::{self, Handle, Stmt, Type};
use grammar::ast::{self, ProgramModifier};
use grammar::{Diagnostic, Span};

/// The most control points a patch may have (`PATCH_1` ... `PATCH_32`).
pub const MAX_PATCH: u32 = 32;

/// What a function's modifiers declare, after the conflicts among them were reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// The geometry input primitive and its vertex count.
    pub input: Option<(ProgramModifier, u32)>,
    pub output: Option<ProgramModifier>,
    /// `PATCH_n`: the control points of the input patch.
    pub patch: Option<u32>,
    /// `TRIANGLES`, `QUADS` or `ISOLINES`.
    pub tess_domain: Option<ProgramModifier>,
}

impl Shape {
    /// True when the function has no modifier: an ordinary function or a vertex or
    /// fragment program.
    pub fn is_plain(&self) -> bool {
        *self == Shape::default()
    }

    /// The domain the modifiers imply, if any (`PATCH_n` alone: tessellation control).
    pub fn domain(&self) -> Option<Domain> {
        if self.input.is_some() || self.output.is_some() {
            Some(Domain::Geometry)
        } else if self.tess_domain.is_some() {
            Some(Domain::TessEval)
        } else if self.patch.is_some() {
            Some(Domain::TessControl)
        } else {
            None
        }
    }

    /// How many elements an `AttribArray` parameter has: the input vertices or control
    /// points.
    pub fn attrib_len(&self) -> Option<u32> {
        self.input.map(|(_, n)| n).or(self.patch)
    }
}

/// The vertices of a geometry input primitive.
fn input_vertices(m: ProgramModifier) -> Option<u32> {
    use ProgramModifier::*;
    match m {
        Point => Some(1),
        Line => Some(2),
        LineAdj => Some(4),
        Triangle => Some(3),
        TriangleAdj => Some(6),
        _ => None,
    }
}

/// Reads a function's modifiers into a [`Shape`], reporting conflicts (E0330): two input
/// primitives, two outputs, two patch sizes or domains, a patch size outside 1..=32, an
/// output without an input, a tessellation domain beside geometry primitives.
pub fn shape(modifiers: &[(ProgramModifier, Span)], diags: &mut Vec<Diagnostic>) -> Shape {
    let mut s = Shape::default();
    let mut first: [Option<(ProgramModifier, Span)>; 4] = [None; 4];
    let mut conflict = |slot: usize, m: ProgramModifier, span: Span, what: &str, diags: &mut Vec<Diagnostic>| {
        if let Some((prev, prev_span)) = first[slot] {
            diags.push(
                Diagnostic::error(
                    codes::E_PROGRAM_MODIFIER,
                    format!("`{}` and `{}`: a program has one {what}", prev.as_string(), m.as_string()),
                )
                .with_primary(span, "second one here")
                .with_secondary(prev_span, "first one here"),
            );
            true
        } else {
            first[slot] = Some((m, span));
            false
        }
    };
    for &(m, span) in modifiers {
        use ProgramModifier::*;
        match m {
            Point | Line | LineAdj | Triangle | TriangleAdj => {
                if !conflict(0, m, span, "input primitive", diags) {
                    s.input = input_vertices(m).map(|n| (m, n));
                }
            }
            PointOut | LineOut | TriangleOut => {
                if !conflict(1, m, span, "output primitive", diags) {
                    s.output = Some(m);
                }
            }
            Patch(n) => {
                if !(1..=MAX_PATCH).contains(&n) {
                    diags.push(
                        Diagnostic::error(
                            codes::E_PROGRAM_MODIFIER,
                            format!("`PATCH_{n}`: a patch has 1 to {MAX_PATCH} control points"),
                        )
                        .with_primary(span, ""),
                    );
                } else if !conflict(2, m, span, "patch size", diags) {
                    s.patch = Some(n);
                }
            }
            Triangles | Quads | Isolines => {
                if !conflict(3, m, span, "tessellation domain", diags) {
                    s.tess_domain = Some(m);
                }
            }
        }
    }
    let span_of = |slot: usize| first[slot].map(|(_, sp)| sp);
    if let (Some(a), Some(b)) = (span_of(0), span_of(2)) {
        diags.push(
            Diagnostic::error(
                codes::E_PROGRAM_MODIFIER,
                "a geometry program's input is one primitive or one patch, not both",
            )
            .with_primary(b, "patch size")
            .with_secondary(a, "input primitive"),
        );
    }
    if let (Some(out), None, None) = (span_of(1), span_of(0), span_of(2)) {
        diags.push(
            Diagnostic::error(codes::E_PROGRAM_MODIFIER, "an output primitive without an input primitive")
                .with_primary(out, "")
                .with_note("a geometry program names its input first: `TRIANGLE LINE_OUT void gs(...)`"),
        );
    }
    if let Some(d) = span_of(3) {
        if let Some(g) = span_of(0).or(span_of(1)) {
            diags.push(
                Diagnostic::error(
                    codes::E_PROGRAM_MODIFIER,
                    "a tessellation domain and a geometry primitive on one function",
                )
                .with_primary(d, "tessellation evaluation")
                .with_secondary(g, "geometry"),
            );
        }
    }
    s
}

/// Checks that the entry point's modifiers fit the profile's domain (E0330).
pub fn check_entry(name: &ast::Ident, shape: &Shape, profile: &Profile, diags: &mut Vec<Diagnostic>) {
    let mut fail = |message: String, note: &str| {
        let mut d = Diagnostic::error(codes::E_PROGRAM_MODIFIER, message).with_primary(name.span, "entry point");
        if !note.is_empty() {
            d = d.with_note(note.to_owned());
        }
        diags.push(d);
    };
    let declared = shape.domain();
    let p = &profile.name;
    match profile.domain {
        Domain::Vertex | Domain::Fragment => {
            if let Some(d) = declared {
                fail(
                    format!(
                        "`{}` is declared as a {} program; {p} compiles {} programs",
                        name.name,
                        d.name(),
                        profile.domain.name()
                    ),
                    &format!("analyse it under a {} profile ({})", d.name(), d.example_profiles()),
                );
            }
        }
        Domain::Geometry => {
            let patch_input = shape.patch.is_some() && shape.input.is_none();
            if shape.input.is_none() && !patch_input {
                fail(
                    format!("the geometry program `{}` has no input primitive", name.name),
                    "write POINT, LINE, LINE_ADJ, TRIANGLE or TRIANGLE_ADJ before its return type",
                );
            } else if patch_input && p != "gp5gp" {
                fail(format!("{p} takes no patch input; gp5gp does"), "");
            }
            if shape.tess_domain.is_some() {
                fail(format!("the geometry program `{}` has a tessellation domain", name.name), "");
            }
        }
        Domain::TessControl => {
            if shape.patch.is_none() {
                fail(
                    format!("the tessellation control program `{}` has no patch size", name.name),
                    "write PATCH_1 ... PATCH_32 before its return type",
                );
            }
            if shape.input.is_some() || shape.output.is_some() || shape.tess_domain.is_some() {
                fail(format!("the tessellation control program `{}` takes only a patch size (PATCH_n)", name.name), "");
            }
        }
        Domain::TessEval => {
            if shape.tess_domain.is_none() || shape.patch.is_none() {
                fail(
                    format!("the tessellation evaluation program `{}` needs a domain and a patch size", name.name),
                    "write TRIANGLES, QUADS or ISOLINES and PATCH_1 ... PATCH_32 before its return type",
                );
            }
            if shape.input.is_some() || shape.output.is_some() {
                fail(format!("the tessellation evaluation program `{}` has a geometry primitive", name.name), "");
            }
        }
    }
}

/// The two statement-only functions of geometry programs.
pub fn is_geometry_call(name: &str) -> bool {
    matches!(name, "emitVertex" | "restartStrip")
}

impl<'a> Lowerer<'a> {
    /// `AttribArray<T>`: an array of `T` with one element per input vertex of the
    /// function whose parameters are being declared (E0331 anywhere else).
    pub(super) fn attrib_array(&mut self, args: &'a [ast::GenericArg], span: Span) -> Option<Type> {
        let [ast::GenericArg::Type(t)] = args else {
            self.error(codes::E_GEOMETRY_SYNTAX, span, "`AttribArray<T>` takes exactly one type");
            return None;
        };
        let elem = self.resolve_type(t)?;
        let Some(len) = self.attrib_len else {
            let d = Diagnostic::error(
                codes::E_GEOMETRY_SYNTAX,
                "`AttribArray<T>` is only the type of a geometry or tessellation program's parameter",
            )
            .with_primary(span, "")
            .with_note(
                "its length is the input primitive's vertex count: declare the function with a primitive or \
                 patch modifier (`TRIANGLE void gs(AttribArray<float4> p : POSITION)`)",
            );
            self.push(d);
            return None;
        };
        if matches!(elem, Type::Array(_)) || elem.is_sampler() {
            let name = self.type_name(elem);
            self.error(codes::E_GEOMETRY_SYNTAX, span, format!("`AttribArray<{name}>`: the element is a value type"));
            return None;
        }
        Some(self.module.array(elem, Some(len)))
    }

    /// An expression statement that calls `emitVertex` or `restartStrip` (and no user
    /// function of that name): lowered to its statement. `None` when `e` is no such call.
    pub(super) fn geometry_statement(&mut self, e: &'a ast::Expr) -> Option<Option<Stmt>> {
        let ast::ExprKind::Call { callee, args } = &e.kind else { return None };
        let ast::ExprKind::Ident(id) = &callee.kind else { return None };
        if !is_geometry_call(&id.name) || self.functions.contains_key(&id.name) || self.lookup(&id.name).is_some() {
            return None;
        }
        if self.profile.domain != Domain::Geometry {
            self.profile_error(
                id.span,
                format!(
                    "`{}` is only available in geometry programs ({}); this is a {} program ({})",
                    id.name,
                    Domain::Geometry.example_profiles(),
                    self.profile.domain.name(),
                    self.profile.name
                ),
            );
        }
        if id.name == "restartStrip" {
            if !args.is_empty() {
                self.error(codes::E_GEOMETRY_SYNTAX, e.span, "`restartStrip()` takes no arguments");
                return Some(None);
            }
            return Some(Some(Stmt::RestartStrip));
        }
        if args.is_empty() {
            self.error(codes::E_GEOMETRY_SYNTAX, e.span, "`emitVertex` needs the vertex's outputs as arguments");
            return Some(None);
        }
        let mut values = Vec::with_capacity(args.len());
        let mut ok = true;
        for a in args {
            match self.emitted_value(a) {
                Some(v) => values.push(v),
                None => ok = false,
            }
        }
        Some(ok.then_some(Stmt::EmitVertex(values)))
    }

    /// One argument of `emitVertex`: `value : SEMANTIC`, or a struct whose fields carry
    /// the semantics.
    fn emitted_value(&mut self, a: &'a ast::Expr) -> Option<(Handle<ir::Expr>, Option<ir::Semantic>)> {
        if let ast::ExprKind::WithSemantic { value, semantic } = &a.kind {
            let v = self.expr(value)?;
            let ty = self.ty(v);
            if ty.is_sampler() || matches!(ty, Type::Struct(_) | Type::Interface(_) | Type::Void) {
                let name = self.type_name(ty);
                self.error(codes::E_GEOMETRY_SYNTAX, value.span, format!("a {name} is no vertex output"));
                return None;
            }
            return Some((v, Some(super::semantic(semantic))));
        }
        let v = self.expr(a)?;
        if matches!(self.ty(v), Type::Struct(_)) {
            return Some((v, None));
        }
        let d = Diagnostic::error(codes::E_GEOMETRY_SYNTAX, "an `emitVertex` argument without a semantic")
            .with_primary(a.span, "")
            .with_note("write `value : SEMANTIC` (`p : POSITION`), or pass a struct whose fields have semantics");
        self.push(d);
        None
    }

    /// `value : SEMANTIC` outside `emitVertex`'s arguments.
    pub(super) fn misplaced_semantic(&mut self, span: Span) -> Option<Handle<ir::Expr>> {
        self.error(
            codes::E_GEOMETRY_SYNTAX,
            span,
            "`value : SEMANTIC` is only an argument of a geometry program's `emitVertex`",
        );
        None
    }

    /// `emitVertex(...)`/`restartStrip()` inside a larger expression.
    pub(super) fn geometry_call_as_value(&mut self, id: &ast::Ident) -> Option<Handle<ir::Expr>> {
        self.error(
            codes::E_GEOMETRY_SYNTAX,
            id.span,
            format!("`{}` returns nothing: call it as a statement of its own", id.name),
        );
        None
    }
}
