//! Expressions: one printed text and its precedence per IR expression, with the
//! bindings of RetroArch's runtime values and the standard-library mapping applied.

use super::*;
use crate::codes;
use crate::ir::{
    Attribute, BinaryOp, Builtin, Expr, ExprKind, Exprs, Handle, IncDec, ParamDir, Ported, RuntimeValue, Type, UnaryOp,
    Var,
};
use crate::port::connectors::{Place, SlotKind};
use crate::port::matrix::{glsl_operands, MulForm};
use crate::port::semantics::Binding;
use crate::port::stdlib::{self, glsl_type, Arg, MULTIPLICATIVE, PRIMARY};
use crate::retro::Uniform;
use grammar::{Diagnostic, Span};
use std::collections::HashSet;

impl StageWriter<'_> {
    pub(super) fn expr(&mut self, exprs: &Exprs, h: Handle<Expr>) -> Printed {
        let e = &exprs[h];
        if e.ty.is_numeric_shape() && glsl_type(e.ty).is_none() {
            let t = self.m.type_name(e.ty);
            self.unsupported(
                Some(exprs.span(h)),
                format!("{t} has no GLSL equivalent (GLSL matrices are float, at least 2x2)"),
            );
        }
        match &e.kind {
            ExprKind::Literal(l) => literal(*l, e.ty),
            ExprKind::Var(v) => self.var(*v, e.ty),
            ExprKind::Ported(Ported::Runtime(v)) => self.runtime_value(v, e.ty),
            ExprKind::Ported(Ported::EagerLogical { op, lhs, rhs }) => self.eager_logical(exprs, *op, *lhs, *rhs, e.ty),
            ExprKind::Ported(Ported::ComponentSelect { cond, accept, reject }) => {
                self.component_select(exprs, *cond, *accept, *reject, e.ty)
            }
            ExprKind::Ported(Ported::NonFinite(f)) => self.expr_literal_bits(*f),
            ExprKind::Member { base, field } => self.member(exprs, *base, *field, e.ty),
            ExprKind::Index { base, index } => {
                let b = self.expr(exprs, *base);
                if matches!(exprs[*base].ty, Type::Vector(_, 1)) {
                    return b;
                }
                let i = self.expr(exprs, *index);
                (format!("{}[{}]", paren_p(&b, PRIMARY), i.0), PRIMARY)
            }
            ExprKind::Swizzle { base, components } => self.swizzle_expr(exprs, h, base, components),
            ExprKind::MatrixElements { base, elements } => {
                let b = self.expr(exprs, *base);
                let b = paren_p(&b, PRIMARY);
                let items: Vec<String> = elements.iter().map(|(r, c)| format!("{b}[{r}][{c}]")).collect();
                if items.len() == 1 {
                    (items[0].clone(), PRIMARY)
                } else {
                    let t = self.type_name(e.ty);
                    (format!("{t}({})", items.join(", ")), PRIMARY)
                }
            }
            ExprKind::Unary { op, operand } => {
                let o = self.expr(exprs, *operand);
                let vector = matches!(e.ty, Type::Vector(_, n) if n > 1);
                match op {
                    UnaryOp::Not if vector => (format!("not({})", o.0), PRIMARY),
                    UnaryOp::Neg if e.ty.is_matrix() => (format!("-{}", paren_p(&o, 14)), 14),
                    UnaryOp::Neg => (format!("-{}", paren_p(&o, 14)), 14),
                    UnaryOp::Not => (format!("!{}", paren_p(&o, 14)), 14),
                    UnaryOp::BitNot => (format!("~{}", paren_p(&o, 14)), 14),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(exprs, *op, *lhs, *rhs),
            ExprKind::Select { cond, accept, reject } => self.select(exprs, cond, accept, reject),
            ExprKind::Convert { value } => {
                let v = self.expr(exprs, *value);
                let (from, to) = (glsl_type(exprs[*value].ty), glsl_type(e.ty));
                if from == to {
                    return v;
                }
                (format!("{}({})", self.spelled(to, || format!("the type {:?}", e.ty)), v.0), PRIMARY)
            }
            ExprKind::Splat { value } => {
                let v = self.expr(exprs, *value);
                match e.ty {
                    Type::Vector(_, 1) => v,
                    Type::Matrix { rows, cols, .. } => {
                        let t = self.type_name(e.ty);
                        let col = format!("vec{cols}({})", v.0);
                        let cols_text: Vec<String> = (0..rows).map(|_| col.clone()).collect();
                        (format!("{t}({})", cols_text.join(", ")), PRIMARY)
                    }
                    _ => (format!("{}({})", self.type_name(e.ty), v.0), PRIMARY),
                }
            }
            ExprKind::Truncate { value } => {
                let v = self.expr(exprs, *value);
                let from = exprs[*value].ty;
                match (from, e.ty) {
                    (Type::Vector(_, 1), _) => v,
                    (Type::Vector(..), Type::Scalar(_)) => (format!("{}.x", paren_p(&v, PRIMARY)), PRIMARY),
                    (Type::Vector(..), Type::Vector(_, m)) => {
                        let s = &"xyzw"[..m as usize];
                        if m == 1 {
                            return (format!("{}.x", paren_p(&v, PRIMARY)), PRIMARY);
                        }
                        (format!("{}.{s}", paren_p(&v, PRIMARY)), PRIMARY)
                    }
                    (Type::Matrix { .. }, Type::Scalar(_)) => (format!("{}[0][0]", paren_p(&v, PRIMARY)), PRIMARY),
                    _ => (format!("{}({})", self.type_name(e.ty), v.0), PRIMARY),
                }
            }
            ExprKind::Reshape { value } => self.reshape_expr(exprs, h, value),
            ExprKind::Construct { args } => self.construct(exprs, h, args),
            ExprKind::Call { function, args } => {
                let mut parts = Vec::new();
                for &a in args {
                    let text = self.expr(exprs, a).0;
                    if self.dialect.separate_samplers() && exprs[a].ty.is_sampler() {
                        let (t, s) = self.naga_pair(&text, exprs.span(a));
                        parts.push(format!("{t}, {s}"));
                    } else {
                        parts.push(text);
                    }
                }
                let name =
                    self.fn_names.get(function).cloned().unwrap_or_else(|| self.m.functions[*function].name.clone());
                (format!("{name}({})", parts.join(", ")), PRIMARY)
            }
            ExprKind::Builtin { builtin, args } => self.builtin(exprs, *builtin, args, e.ty, exprs.span(h)),
            ExprKind::Assign { op, target, value } => self.assign(exprs, h, op, target, value),
            ExprKind::IncDec { op, target } => {
                let t = self.expr(exprs, *target);
                match op {
                    IncDec::PreInc => (format!("++{}", paren_p(&t, 14)), 14),
                    IncDec::PreDec => (format!("--{}", paren_p(&t, 14)), 14),
                    IncDec::PostInc => (format!("{}++", paren_p(&t, 15)), 15),
                    IncDec::PostDec => (format!("{}--", paren_p(&t, 15)), 15),
                }
            }
            ExprKind::Sequence { exprs: list } => {
                let parts: Vec<String> = list
                    .iter()
                    .map(|&x| {
                        let p = self.expr(exprs, x);
                        paren_p(&p, 1)
                    })
                    .collect();
                (parts.join(", "), 0)
            }
        }
    }

    /// A swizzle (`v.xzy`), composed with a swizzled base where that prints as a plain path.
    fn swizzle_expr(&mut self, exprs: &Exprs, h: Handle<Expr>, base: &Handle<Expr>, components: &[u8]) -> Printed {
        let e = &exprs[h];
        let b = self.expr(exprs, *base);
        let scalar_base = matches!(exprs[*base].ty, Type::Scalar(_) | Type::Vector(_, 1));
        if scalar_base {
            if components.len() == 1 {
                return b;
            }
            let t = self.type_name(e.ty);
            return (format!("{t}({})", b.0), PRIMARY);
        }
        let s: String = components.iter().map(|&c| ['x', 'y', 'z', 'w'][c as usize & 3]).collect();
        // `v.xy.x` reads better as `v.x`: a swizzle of a swizzled path composes.
        if let Some(prev) = self.path(exprs, *base).and_then(|p| p.swizzle) {
            let letters: Vec<char> = prev.chars().collect();
            let composed: Option<String> = components.iter().map(|&c| letters.get(c as usize).copied()).collect();
            if let (Some(c), Some(head)) = (composed, b.0.len().checked_sub(prev.len() + 1).and_then(|n| b.0.get(..n)))
            {
                return (format!("{head}.{c}"), PRIMARY);
            }
        }
        (format!("{}.{s}", paren_p(&b, PRIMARY)), PRIMARY)
    }

    /// `c ? a : b`: GLSL's operator on a scalar condition, `mix` (or a helper where the dialect lacks it on bool vectors) per component.
    fn select(&mut self, exprs: &Exprs, cond: &Handle<Expr>, accept: &Handle<Expr>, reject: &Handle<Expr>) -> Printed {
        let c = self.expr(exprs, *cond);
        let vector = matches!(exprs[*cond].ty, Type::Vector(_, n) if n > 1);
        // `c ? true : false` on bool vectors is `c` (and the reverse `not(c)`).
        if vector {
            match (exprs.bool_constant(*accept), exprs.bool_constant(*reject)) {
                (Some(true), Some(false)) => return c,
                (Some(false), Some(true)) => return (format!("not({})", c.0), PRIMARY),
                _ => {}
            }
        }
        let a = self.expr(exprs, *accept);
        let r = self.expr(exprs, *reject);
        if vector {
            (format!("mix({}, {}, {})", r.0, a.0, c.0), PRIMARY)
        } else {
            (format!("{} ? {} : {}", paren_p(&c, 3), paren_p(&a, 2), paren_p(&r, 2)), 2)
        }
    }

    /// A vector read as a matrix of the same size, or the reverse.
    fn reshape_expr(&mut self, exprs: &Exprs, h: Handle<Expr>, value: &Handle<Expr>) -> Printed {
        let e = &exprs[h];
        let v = self.expr(exprs, *value);
        match (exprs[*value].ty, e.ty) {
            (Type::Matrix { rows, .. }, Type::Vector(..)) => {
                let t = self.type_name(e.ty);
                if self.is_plain(exprs, *value) {
                    let parts: Vec<String> = (0..rows).map(|r| format!("{}[{r}]", v.0)).collect();
                    return (format!("{t}({})", parts.join(", ")), PRIMARY);
                }
                // A computed matrix is evaluated once, in a helper.
                let m = self.type_name(exprs[*value].ty);
                let parts: Vec<String> = (0..rows).map(|r| format!("m[{r}]")).collect();
                let name = format!("cg_{t}_from_{m}");
                self.helpers.insert(
                    format!("{name}/{m}"),
                    format!("{t} {name}({m} m)\n{{\n    return {t}({});\n}}\n", parts.join(", ")),
                );
                (format!("{name}({})", v.0), PRIMARY)
            }
            (Type::Vector(..), Type::Matrix { .. }) if self.dialect.builds_matrices_from_columns() => {
                let t = self.type_name(e.ty);
                match self.naga_matrix_construct(exprs, &[*value], e.ty, &t, std::slice::from_ref(&v.0)) {
                    Some(p) => p,
                    None => (format!("{t}({})", v.0), PRIMARY),
                }
            }
            _ => (format!("{}({})", self.type_name(e.ty), v.0), PRIMARY),
        }
    }

    /// A vector, matrix, struct or array built from parts.
    fn construct(&mut self, exprs: &Exprs, h: Handle<Expr>, args: &[Handle<Expr>]) -> Printed {
        let e = &exprs[h];
        let parts: Vec<String> = args.iter().map(|&a| self.expr(exprs, a).0).collect();
        let t = match e.ty {
            Type::Array(_) => {
                let (t, d) = self.decl_type(e.ty);
                format!("{t}{d}")
            }
            Type::Struct(s) => self.struct_name(s),
            _ => {
                if args.iter().any(|&a| exprs[a].ty.is_matrix()) {
                    self.unsupported(Some(exprs.span(h)), "a matrix built from matrices has no direct GLSL form");
                }
                self.type_name(e.ty)
            }
        };
        if self.dialect.builds_matrices_from_columns() {
            if let Some(p) = self.naga_matrix_construct(exprs, args, e.ty, &t, &parts) {
                return p;
            }
        }
        (format!("{t}({})", parts.join(", ")), PRIMARY)
    }

    /// `target = value` or `target op= value`.
    fn assign(
        &mut self,
        exprs: &Exprs,
        h: Handle<Expr>,
        op: &Option<BinaryOp>,
        target: &Handle<Expr>,
        value: &Handle<Expr>,
    ) -> Printed {
        let e = &exprs[h];
        if matches!(&exprs[*target].kind, ExprKind::MatrixElements { elements, .. } if elements.len() > 1) {
            self.unsupported(
                Some(exprs.span(h)),
                "a multi-element matrix write mask inside an expression (write it as its own statement)",
            );
        }
        let t = self.expr(exprs, *target);
        let v = self.expr(exprs, *value);
        match op {
            Some(BinaryOp::Mul) if e.ty.is_matrix() => {
                let product = self.matrix_comp_mult(&t.0, &v.0, e.ty);
                (format!("{} = {product}", t.0), 1)
            }
            Some(op) => (format!("{} {}= {}", t.0, op.symbol(), paren_p(&v, 1)), 1),
            None => (format!("{} = {}", t.0, paren_p(&v, 1)), 1),
        }
    }

    pub(super) fn var(&mut self, v: Var, ty: Type) -> Printed {
        if let Some((alias, _)) = self.sampler_alias.get(&v) {
            return (alias.clone(), PRIMARY);
        }
        match v {
            Var::Local(l) => {
                (self.local_names.get(&l).cloned().unwrap_or_else(|| format!("local{}", l.index())), PRIMARY)
            }
            Var::Param(i) => {
                if self.in_entry {
                    match self.b.params.get(i as usize).cloned() {
                        Some(Binding::Sampler(t)) => return (self.texture(&t), PRIMARY),
                        Some(Binding::Parameter(p)) => return (self.uniform(Uniform::Parameter(p)), PRIMARY),
                        Some(Binding::TextureStruct(_)) => {
                            self.unsupported(None, "a RetroArch texture struct (IN, ORIG, PASSk, ...) used as a whole value; only its members can be read in slang");
                            return ("0.0".into(), PRIMARY);
                        }
                        Some(Binding::Varying) if !self.plan.copied_params.contains(&i) => {
                            let p = self.m.functions[self.cur.unwrap_or(Handle::new(0))].params[i as usize].clone();
                            if p.dir == ParamDir::In {
                                return (self.slot_value(Place::Param(i), ty), PRIMARY);
                            }
                            return match self.conn.slot(self.vertex(), Place::Param(i)).map(|s| s.kind.clone()) {
                                Some(SlotKind::ClipPosition) => ("gl_Position".into(), PRIMARY),
                                Some(SlotKind::FragColor) => ("FragColor".into(), PRIMARY),
                                _ => (self.varying_name(self.vertex(), Place::Param(i)), PRIMARY),
                            };
                        }
                        _ => {}
                    }
                }
                (self.param_names.get(i as usize).cloned().unwrap_or_else(|| format!("arg{i}")), PRIMARY)
            }
            Var::Global(g) => match self.b.globals.get(&g).cloned() {
                Some(Binding::Parameter(p)) => {
                    // Parameters are floats in slang; an integer uniform reads one converted.
                    let value = self.uniform(Uniform::Parameter(p));
                    match ty {
                        Type::Scalar(crate::ir::Scalar::Int) => (format!("int({value})"), PRIMARY),
                        Type::Scalar(crate::ir::Scalar::UInt) => (format!("uint({value})"), PRIMARY),
                        _ => (value, PRIMARY),
                    }
                }
                Some(Binding::Sampler(t)) => (self.texture(&t), PRIMARY),
                Some(Binding::TextureStruct(_)) => {
                    self.unsupported(
                        None,
                        "a RetroArch texture struct used as a whole value; only its members can be read in slang",
                    );
                    ("0.0".into(), PRIMARY)
                }
                _ if ty.is_sampler() => {
                    let name = self.m.globals[g].name.clone();
                    let d = Diagnostic::error(codes::E_UNBOUND_NAME, format!("sampler `{name}` is read but bound to nothing: it is not TEXUNIT0, not a LUT or alias of the preset, and no assignment makes it an alias"))
                        .with_primary(self.m.globals[g].span, "declared here");
                    if !self.diags.contains(&d) {
                        self.diags.push(d);
                    }
                    (name, PRIMARY)
                }
                _ => (self.spelled(self.global_names.get(&g).cloned(), || format!("global {g:?}")), PRIMARY),
            },
        }
    }

    pub(super) fn member(&mut self, exprs: &Exprs, base: Handle<Expr>, field: u32, ty: Type) -> Printed {
        let Type::Struct(s) = exprs[base].ty else { return ("0.0".into(), PRIMARY) };
        let fname = self.spelled(self.m.struct_def(s).fields.get(field as usize).map(|f| f.name.clone()), || {
            format!("field {field} of struct #{}", s.0)
        });
        if let ExprKind::Var(v) = exprs[base].kind {
            let entry_or_global = matches!(v, Var::Global(_)) || (self.in_entry && matches!(v, Var::Param(_)));
            if entry_or_global && matches!(self.b.of(v), Some(Binding::Invalid)) {
                return (self.zero(ty), PRIMARY);
            }
            if entry_or_global && matches!(self.b.of(v), Some(Binding::Unbound)) {
                let name = match v {
                    Var::Param(i) => {
                        self.m.functions[self.cur.unwrap_or(Handle::new(0))].params[i as usize].name.clone()
                    }
                    Var::Global(g) => self.m.globals[g].name.clone(),
                    Var::Local(_) => String::new(),
                };
                let texture_like = matches!(fname.as_str(), "video_size" | "texture_size" | "texture" | "tex_coord");
                let msg = if texture_like {
                    format!("`{name}.{fname}`: `{name}` is not IN, ORIG, PREV, PASSk, PASSPREVk, FEEDBACK or an alias of the preset, so the runtime bound nothing to it (translate it with its .cgp to get the aliases)")
                } else {
                    format!("`{name}.{fname}`: the uniform `{name}` is set by nothing in RetroArch")
                };
                let d = Diagnostic::error(codes::E_UNBOUND_NAME, msg).with_primary(exprs.span(base), "");
                if !self.diags.contains(&d) {
                    self.diags.push(d);
                }
                return (self.zero(ty), PRIMARY);
            }
        }
        // Connector struct inputs of the entry point read their slots directly.
        if let (true, ExprKind::Var(Var::Param(i))) = (self.in_entry, &exprs[base].kind) {
            let i = *i;
            if matches!(self.b.params.get(i as usize), Some(Binding::Varying)) && !self.plan.copied_params.contains(&i)
            {
                return (self.slot_value(Place::ParamField(i, field), ty), PRIMARY);
            }
        }
        let b = self.expr(exprs, base);
        let name = self.field_name(s, field);
        (format!("{}.{name}", paren_p(&b, PRIMARY)), PRIMARY)
    }

    /// A value RetroArch's runtime provides, read as `ty` (the type the Cg program
    /// declared it with): the port pass [`crate::port::runtime_values`] chose it.
    pub(super) fn runtime_value(&mut self, v: &RuntimeValue, ty: Type) -> Printed {
        match v {
            RuntimeValue::Uniform(u @ (Uniform::Size(_) | Uniform::OutputSize)) => {
                (reshape(&self.uniform(u.clone()), 4, ty), PRIMARY)
            }
            RuntimeValue::Uniform(u @ (Uniform::FrameCount | Uniform::FrameDirection)) => {
                let u = self.uniform(u.clone());
                (format!("{}({u})", glsl_type(ty).unwrap_or_else(|| "float".into())), PRIMARY)
            }
            // Cg's `mul(M, v)` with a row-major M is GLSL's `v * M`: see `port::matrix`.
            RuntimeValue::Uniform(Uniform::Mvp) => (format!("transpose({})", self.uniform(Uniform::Mvp)), PRIMARY),
            RuntimeValue::Uniform(u) => (self.uniform(u.clone()), PRIMARY),
            RuntimeValue::Texture(t) => (self.texture(t), PRIMARY),
            RuntimeValue::Attribute(Attribute::Position) => (reshape("Position", 4, ty), PRIMARY),
            RuntimeValue::Attribute(Attribute::TexCoord) => (reshape("TexCoord", 2, ty), PRIMARY),
            RuntimeValue::Zero => (self.zero(ty), PRIMARY),
        }
    }

    /// Naga dialect: a non-finite float. naga folds `uintBitsToFloat(0x7f800000u)` and
    /// rejects the infinite constant it gets, so this goes through a function call,
    /// which it does not fold.
    pub(super) fn expr_literal_bits(&mut self, f: f64) -> Printed {
        self.helpers.insert(
            "cg_bits_to_float/uint".into(),
            "float cg_bits_to_float(uint bits)\n{\n    return uintBitsToFloat(bits);\n}\n".into(),
        );
        let bits = non_finite_bits(f).unwrap_or("0x7fc00000u");
        (format!("cg_bits_to_float({bits})"), PRIMARY)
    }

    /// Cg's component-wise `*` of two matrices: `matrixCompMult`, which naga's GLSL front
    /// end lacks (the naga dialect gets a helper).
    pub(super) fn matrix_comp_mult(&mut self, a: &str, b: &str, ty: Type) -> String {
        if !self.dialect.lacks_matrix_comp_mult() {
            return format!("matrixCompMult({a}, {b})");
        }
        let t = self.type_name(ty);
        let rows = match ty {
            Type::Matrix { rows, .. } => rows as usize,
            _ => 0,
        };
        let cols: Vec<String> = (0..rows).map(|i| format!("a[{i}] * b[{i}]")).collect();
        self.helpers.insert(
            format!("cg_matrixCompMult/{t}"),
            format!("{t} cg_matrixCompMult({t} a, {t} b)\n{{\n    return {t}({});\n}}\n", cols.join(", ")),
        );
        format!("cg_matrixCompMult({a}, {b})")
    }

    pub(super) fn binary(&mut self, exprs: &Exprs, op: BinaryOp, lhs: Handle<Expr>, rhs: Handle<Expr>) -> Printed {
        // GLSL mixes scalars and vectors in arithmetic itself: `s * v`, not `vec3(s) * v`.
        let arithmetic = matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div);
        let unsplat = |h: Handle<Expr>, other: Handle<Expr>| -> Handle<Expr> {
            match exprs[h].kind {
                ExprKind::Splat { value }
                    if arithmetic
                        && exprs[h].ty.is_vector()
                        && !matches!(exprs[other].kind, ExprKind::Splat { .. }) =>
                {
                    value
                }
                _ => h,
            }
        };
        let (pl, pr) = (unsplat(lhs, rhs), unsplat(rhs, lhs));
        let l = self.expr(exprs, pl);
        let r = self.expr(exprs, pr);
        let operand_ty = exprs[lhs].ty;
        let vector = matches!(operand_ty, Type::Vector(_, n) if n > 1);
        if vector && (op.is_comparison()) {
            let f = match op {
                BinaryOp::Eq => "equal",
                BinaryOp::Ne => "notEqual",
                BinaryOp::Lt => "lessThan",
                BinaryOp::Le => "lessThanEqual",
                BinaryOp::Gt => "greaterThan",
                _ => "greaterThanEqual",
            };
            return (format!("{f}({}, {})", l.0, r.0), PRIMARY);
        }
        if op == BinaryOp::Mul && operand_ty.is_matrix() {
            return (self.matrix_comp_mult(&l.0, &r.0, operand_ty), PRIMARY);
        }
        let prec = binary_prec(op);
        (format!("{} {} {}", paren_p(&l, prec), op.symbol(), paren_p(&r, prec + 1)), prec)
    }

    /// A per-component select between bool vectors in a helper, for a dialect without
    /// `mix` on them ([`crate::port::naga_dialect`]).
    fn component_select(
        &mut self,
        exprs: &Exprs,
        cond: Handle<Expr>,
        accept: Handle<Expr>,
        reject: Handle<Expr>,
        ty: Type,
    ) -> Printed {
        let c = self.expr(exprs, cond);
        let a = self.expr(exprs, accept);
        let r = self.expr(exprs, reject);
        let t = self.type_name(ty);
        let n = match ty {
            Type::Vector(_, n) => n as usize,
            _ => 1,
        };
        let comps: Vec<String> = "xyzw".chars().take(n).map(|k| format!("c.{k} ? a.{k} : r.{k}")).collect();
        self.helpers.insert(
            format!("cg_select/{t}"),
            format!("{t} cg_select({t} r, {t} a, {t} c)\n{{\n    return {t}({});\n}}\n", comps.join(", ")),
        );
        (format!("cg_select({}, {}, {})", r.0, a.0, c.0), PRIMARY)
    }

    /// Cg's `&&`/`||` with both operands evaluated ([`crate::port::eager_logic`]): a
    /// helper call, per component on bool vectors.
    pub(super) fn eager_logical(
        &mut self,
        exprs: &Exprs,
        op: BinaryOp,
        lhs: Handle<Expr>,
        rhs: Handle<Expr>,
        ty: Type,
    ) -> Printed {
        let l = self.expr(exprs, lhs);
        let r = self.expr(exprs, rhs);
        let t = glsl_type(ty).unwrap_or_else(|| "bool".into());
        let name = if op == BinaryOp::And { "cg_and" } else { "cg_or" };
        let body = if t == "bool" {
            format!(
                "// Cg evaluates both sides of {}.\nbool {name}(bool a, bool b)\n{{\n    return a {} b;\n}}\n",
                op.symbol(),
                op.symbol()
            )
        } else {
            let n = match ty {
                Type::Vector(_, n) => usize::from(n),
                _ => 1,
            };
            let comps: Vec<String> = (0..n)
                .map(|i| {
                    let c = ['x', 'y', 'z', 'w'][i];
                    format!("a.{c} {} b.{c}", op.symbol())
                })
                .collect();
            format!(
                "// Cg applies {} per component.\n{t} {name}({t} a, {t} b)\n{{\n    return {t}({});\n}}\n",
                op.symbol(),
                comps.join(", ")
            )
        };
        self.helpers.insert(format!("{name}/{t}"), body);
        (format!("{name}({}, {})", l.0, r.0), PRIMARY)
    }

    /// Whether `h` is RetroArch's `MVP` as the Cg program read it (`modelViewProj`,
    /// `IN.mvp_matrix`).
    pub(super) fn is_mvp(&self, exprs: &Exprs, h: Handle<Expr>) -> bool {
        matches!(exprs[h].kind, ExprKind::Ported(Ported::Runtime(RuntimeValue::Uniform(Uniform::Mvp))))
    }

    pub(super) fn builtin(
        &mut self,
        exprs: &Exprs,
        b: Builtin,
        args: &[Handle<Expr>],
        ret: Type,
        span: Span,
    ) -> Printed {
        if matches!(b, Builtin::MulMatVec | Builtin::MulVecMat | Builtin::MulMatMat) {
            let (x, y) = (args[0], args[1]);
            let (xm, ym) = (self.is_mvp(exprs, x), self.is_mvp(exprs, y));
            let form = match b {
                Builtin::MulMatVec => MulForm::MatVec,
                Builtin::MulVecMat => MulForm::VecMat,
                _ => MulForm::MatMat,
            };
            let direct = |this: &mut Self, h: Handle<Expr>, is_mvp: bool| -> Printed {
                if is_mvp && form != MulForm::MatMat {
                    (this.uniform(Uniform::Mvp), PRIMARY)
                } else {
                    this.expr(exprs, h)
                }
            };
            let xa = direct(self, x, xm);
            let ya = direct(self, y, ym);
            let (l, r) = glsl_operands(form, &xa.0, &ya.0, xm, ym);
            let (lp, rp) = if l == xa.0 { (xa.1, ya.1) } else { (ya.1, xa.1) };
            let l = if lp >= MULTIPLICATIVE { l.to_owned() } else { format!("({l})") };
            let r = if rp > MULTIPLICATIVE { r.to_owned() } else { format!("({r})") };
            return (format!("{l} * {r}"), MULTIPLICATIVE);
        }
        // GLSL's texel offsets and gather components must be constant expressions.
        for i in stdlib::constant_arguments(b, args.len()) {
            if let Some(&a) = args.get(i) {
                if !naga_constant(self.m, exprs, a, &HashSet::new()) {
                    let why = format!(
                        "`{}`: GLSL needs this texel offset or gather component as a constant expression",
                        b.name()
                    );
                    self.unsupported(Some(exprs.span(a)), why);
                    return (self.zero(ret), PRIMARY);
                }
            }
        }
        let printed: Vec<Arg> = args
            .iter()
            .map(|&a| {
                let (text, prec) = self.expr(exprs, a);
                let pair = (self.dialect.separate_samplers() && exprs[a].ty.is_sampler())
                    .then(|| self.naga_pair(&text, exprs.span(a)));
                Arg { text, prec, ty: exprs[a].ty, pair, plain: self.is_plain(exprs, a) }
            })
            .collect();
        if self.dialect.rewrites_library_calls() {
            if let Some(p) = self.naga_builtin(b, &printed) {
                return p;
            }
        }
        match stdlib::map(b, &printed, ret, &mut self.helpers) {
            Ok(p) => p,
            Err(why) => {
                self.unsupported(Some(span), why);
                (self.zero(ret), PRIMARY)
            }
        }
    }
}
