//! Expressions: AST to typed IR, with every conversion made explicit.
//!
//! Each `ast::Expr` becomes an IR expression tree whose nodes all carry concrete types.
//! Operands meet through the usual arithmetic conversions and scalar smearing
//! ([`super::convert`]), assignments and arguments through the conversion table, calls
//! through overload resolution ([`super::overload`]). Constants without a suffix keep
//! `cint`/`cfloat` until they meet a typed value, whose precision they then take (the
//! literal itself is retyped, so `h * 2.0` with `half h` stays `half`).
//!
//! Errors (E03xx) are reported at the offending expression with the types involved, and
//! the expression yields `None`; the caller drops the statement and goes on.

use super::convert::{arithmetic_scalar, classify, Class};
use super::families;
use super::intrinsics;
use super::overload::{self, Candidate, Resolution};
use super::swizzle;
use super::{Lowerer, Symbol};
use crate::codes;
use crate::ir::{self, BinaryOp, Expr, ExprKind, Handle, Literal, ParamDir, Scalar, Stage, Type, UnaryOp, Var};
use grammar::ast;
use grammar::{Diagnostic, Span};

type H = Handle<Expr>;

/// A user function as overload resolution sees it: handle, parameter types, required
/// parameter count, profiles.
type UserCandidate = (Handle<ir::Function>, Vec<Type>, usize, Vec<String>);

impl<'a> Lowerer<'a> {
    fn add(&mut self, kind: ExprKind, ty: Type, span: Span) -> H {
        self.exprs().append(Expr { kind, ty }, span)
    }

    pub(super) fn ty(&self, h: H) -> Type {
        self.exprs_ref()[h].ty
    }

    fn span_of(&self, h: H) -> Span {
        self.exprs_ref().span(h)
    }

    pub(super) fn expr(&mut self, e: &'a ast::Expr) -> Option<H> {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::Literal(l) => self.literal(l, span),
            ast::ExprKind::Ident(id) => self.ident(id),
            ast::ExprKind::Unary { op, operand } => self.unary(*op, operand, span),
            ast::ExprKind::Binary { op, lhs, rhs } => {
                let l = self.expr(lhs);
                let r = self.expr(rhs);
                self.binary(binary_op(*op), l?, r?, span)
            }
            ast::ExprKind::Assign { op, lhs, rhs } => self.assign(op.map(binary_op), lhs, rhs, span),
            ast::ExprKind::Conditional { cond, then, else_ } => self.conditional(cond, then, else_, span),
            ast::ExprKind::Comma(items) => {
                let mut exprs = Vec::with_capacity(items.len());
                for i in items {
                    exprs.push(self.expr(i));
                }
                let exprs: Option<Vec<H>> = exprs.into_iter().collect();
                let exprs = exprs?;
                let ty = self.ty(*exprs.last()?);
                Some(self.add(ExprKind::Sequence { exprs }, ty, span))
            }
            ast::ExprKind::Cast { ty, operand } => {
                let target = self.type_name_type(ty)?;
                let v = self.expr(operand)?;
                self.convert(v, target, true, span)
            }
            ast::ExprKind::Constructor { ty, args } => self.constructor(ty, args, span),
            ast::ExprKind::Call { callee, args } => self.call(callee, args, span),
            ast::ExprKind::Member { base, member } => {
                let b = self.expr(base)?;
                self.member(b, member, span)
            }
            ast::ExprKind::Index { base, index } => {
                let b = self.expr(base);
                let i = self.expr(index);
                self.index(b?, i?, span)
            }
            ast::ExprKind::Compile { .. } => self.misplaced_compile(span),
            ast::ExprKind::WithSemantic { .. } => self.misplaced_semantic(span),
            ast::ExprKind::Error => None,
        }
    }

    fn type_name_type(&mut self, t: &'a ast::TypeName) -> Option<Type> {
        let base = self.resolve_type(&t.ty)?;
        self.array_type(base, &t.array)
    }

    fn literal(&mut self, l: &ast::Literal, span: Span) -> Option<H> {
        use ast::LiteralSuffix as S;
        let (lit, scalar) = match *l {
            ast::Literal::Bool(b) => (Literal::Bool(b), Scalar::Bool),
            ast::Literal::Int(v, suffix) => {
                let scalar = match suffix {
                    S::None => Scalar::CInt,
                    S::Int => Scalar::Int,
                    S::Long => Scalar::Long,
                    S::Short => Scalar::Short,
                    S::Char => Scalar::Char,
                    S::Unsigned | S::UnsignedInt => Scalar::UInt,
                    S::UnsignedShort => Scalar::UShort,
                    S::UnsignedChar => Scalar::UChar,
                    S::UnsignedLong => Scalar::ULong,
                    S::Float => Scalar::Float,
                    S::Half => Scalar::Half,
                    S::Fixed => Scalar::Fixed,
                    S::Double => Scalar::Double,
                };
                (super::const_eval::cast(Literal::UInt(v), scalar), scalar)
            }
            ast::Literal::Float(v, suffix) => {
                let scalar = match suffix {
                    S::None => Scalar::CFloat,
                    S::Float => Scalar::Float,
                    S::Half => Scalar::Half,
                    S::Fixed => Scalar::Fixed,
                    S::Double => Scalar::Double,
                    S::Int => Scalar::Int,
                    S::Long => Scalar::Long,
                    S::Short => Scalar::Short,
                    S::Char => Scalar::Char,
                    S::Unsigned | S::UnsignedInt => Scalar::UInt,
                    S::UnsignedShort => Scalar::UShort,
                    S::UnsignedChar => Scalar::UChar,
                    S::UnsignedLong => Scalar::ULong,
                };
                (super::const_eval::cast(Literal::Float(v), scalar), scalar)
            }
            ast::Literal::String(_) => {
                self.error(codes::E_TYPE_MISMATCH, span, "string values can only appear in annotations");
                return None;
            }
        };
        Some(self.add(ExprKind::Literal(lit), Type::Scalar(scalar), span))
    }

    fn ident(&mut self, id: &ast::Ident) -> Option<H> {
        match self.lookup(&id.name) {
            Some(Symbol::Var { var, ty }) => Some(self.add(ExprKind::Var(var), ty, id.span)),
            Some(Symbol::Field { index, ty }) => {
                let this_ty = self.stack.last().and_then(|c| c.params.first()).map(|p| p.ty)?;
                let this = self.add(ExprKind::Var(Var::Param(0)), this_ty, id.span);
                Some(self.add(ExprKind::Member { base: this, field: index }, ty, id.span))
            }
            Some(Symbol::Type(t)) => {
                let name = self.type_name(t);
                self.error(codes::E_UNDECLARED, id.span, format!("`{name}` is a type, not a value"));
                None
            }
            None => {
                let msg = if self.functions.contains_key(&id.name) || intrinsics::overloads(&id.name).is_some() {
                    format!("function `{}` used as a value", id.name)
                } else {
                    format!("`{}` is not declared", id.name)
                };
                self.error(codes::E_UNDECLARED, id.span, msg);
                None
            }
        }
    }

    // ---- conversions ----

    /// Converts `h` to `to`: implicitly (`explicit == false`, as in assignment and
    /// argument passing: warnings for truncation, errors for what needs a cast) or as a
    /// cast.
    pub(super) fn convert(&mut self, h: H, to: Type, explicit: bool, span: Span) -> Option<H> {
        let from = self.ty(h);
        if from == to {
            return Some(h);
        }
        let class = classify(&self.module, from, to);
        match class {
            Class::Never => {
                let (f, t) = (self.type_name(from), self.type_name(to));
                self.error(codes::E_TYPE_MISMATCH, span, format!("cannot convert {f} to {t}"));
                return None;
            }
            Class::Explicit if !explicit => {
                let (f, t) = (self.type_name(from), self.type_name(to));
                self.error(codes::E_NEEDS_CAST, span, format!("cannot convert {f} to {t} without a cast"));
                return None;
            }
            Class::Warn(code) if !explicit => {
                let (f, t) = (self.type_name(from), self.type_name(to));
                let what = match code {
                    codes::W_TRUNCATION => "implicit truncation",
                    codes::W_RESHAPE => "implicit vector/matrix reshape",
                    _ => "implicit conversion may lose precision",
                };
                self.warn(code, span, format!("{what}: {f} to {t}"));
            }
            _ => {}
        }
        self.build_conversion(h, to, span)
    }

    /// Builds the nodes that carry a conversion the table allows (no checks).
    fn build_conversion(&mut self, h: H, to: Type, span: Span) -> Option<H> {
        let mut h = h;
        let mut from = self.ty(h);
        if from == to {
            return Some(h);
        }
        if let (Some(fs), Some(ts)) = (from.scalar(), to.scalar()) {
            if fs.is_compile_time() && self.retype_constant(h, ts) {
                from = self.ty(h);
            }
        }
        if from == to {
            return Some(h);
        }
        let convert_elems = |this: &mut Self, h: H, target: Type| -> H {
            let t = this.ty(h);
            if t == target {
                h
            } else {
                this.add(ExprKind::Convert { value: h }, target, span)
            }
        };
        match (from, to) {
            (Type::Sampler(_), Type::Sampler(_)) => Some(h),
            (Type::Scalar(_), Type::Scalar(_)) => Some(convert_elems(self, h, to)),
            (Type::Scalar(_), Type::Vector(s, _) | Type::Matrix { scalar: s, .. }) => {
                let v = convert_elems(self, h, Type::Scalar(s));
                Some(self.add(ExprKind::Splat { value: v }, to, span))
            }
            (Type::Vector(fs, _) | Type::Matrix { scalar: fs, .. }, Type::Scalar(_)) => {
                // A float1x1 keeps its one component: a reshape.
                let kind = if from.is_matrix() && from.components() == Some(1) {
                    ExprKind::Reshape { value: h }
                } else {
                    ExprKind::Truncate { value: h }
                };
                let v = self.add(kind, Type::Scalar(fs), span);
                Some(convert_elems(self, v, to))
            }
            (Type::Vector(fs, n), Type::Vector(_, m)) => {
                if m < n {
                    h = self.add(ExprKind::Truncate { value: h }, Type::Vector(fs, m), span);
                }
                Some(convert_elems(self, h, to))
            }
            (Type::Matrix { scalar: fs, rows, cols }, Type::Matrix { rows: r, cols: c, .. }) => {
                if (r, c) != (rows, cols) {
                    h = self.add(ExprKind::Truncate { value: h }, Type::mat(fs, r, c), span);
                }
                Some(convert_elems(self, h, to))
            }
            (Type::Vector(fs, _) | Type::Matrix { scalar: fs, .. }, Type::Vector(..) | Type::Matrix { .. }) => {
                let reshaped = self.add(ExprKind::Reshape { value: h }, to.with_scalar(fs), span);
                Some(convert_elems(self, reshaped, to))
            }
            (Type::Struct(s), _) if !matches!(to, Type::Struct(_)) => {
                let first = self.module.struct_def(s).fields.first().map(|f| f.ty)?;
                let m = self.add(ExprKind::Member { base: h, field: 0 }, first, span);
                self.build_conversion(m, to, span)
            }
            (_, Type::Struct(s)) => {
                let fields: Vec<Type> = self.module.struct_def(s).fields.iter().map(|f| f.ty).collect();
                let mut args = Vec::with_capacity(fields.len());
                if let Type::Struct(src) = from {
                    for (i, fty) in fields.iter().enumerate() {
                        let base = if i == 0 { h } else { self.clone_tree(h, span)? };
                        let sty = self.module.struct_def(src).fields.get(i).map(|f| f.ty)?;
                        let m = self.add(ExprKind::Member { base, field: i as u32 }, sty, span);
                        args.push(self.build_conversion(m, *fty, span)?);
                    }
                } else {
                    for (i, fty) in fields.iter().enumerate() {
                        let v = if i == 0 { h } else { self.clone_tree(h, span)? };
                        args.push(self.build_conversion(v, *fty, span)?);
                    }
                }
                Some(self.add(ExprKind::Construct { args }, to, span))
            }
            (Type::Array(a), Type::Array(b)) => {
                let (a, b) = (self.module.array_type(a), self.module.array_type(b));
                if b.len.is_none() || a.elem == b.elem {
                    // An unsized array takes the size of what it is given.
                    return Some(h);
                }
                let n = a.len?;
                let mut args = Vec::new();
                for i in 0..n {
                    let base = if i == 0 { h } else { self.clone_tree(h, span)? };
                    let idx = self.add(ExprKind::Literal(Literal::Int(i as i64)), Type::INT, span);
                    let e = self.add(ExprKind::Index { base, index: idx }, a.elem, span);
                    args.push(self.build_conversion(e, b.elem, span)?);
                }
                Some(self.add(ExprKind::Construct { args }, to, span))
            }
            (Type::Array(a), Type::Vector(..) | Type::Matrix { .. }) => {
                let a = self.module.array_type(a);
                let n = a.len?;
                let elem_target = match to {
                    Type::Matrix { scalar, cols, .. } => Type::vec(scalar, cols),
                    _ => Type::Scalar(to.scalar()?),
                };
                let mut args = Vec::new();
                for i in 0..n {
                    let base = if i == 0 { h } else { self.clone_tree(h, span)? };
                    let idx = self.add(ExprKind::Literal(Literal::Int(i as i64)), Type::INT, span);
                    let e = self.add(ExprKind::Index { base, index: idx }, a.elem, span);
                    args.push(self.build_conversion(e, elem_target, span)?);
                }
                Some(self.add(ExprKind::Construct { args }, to, span))
            }
            (Type::Vector(..) | Type::Matrix { .. }, Type::Array(b)) => {
                let b = self.module.array_type(b);
                let n = b.len?;
                let mut args = Vec::new();
                for i in 0..n {
                    let base = if i == 0 { h } else { self.clone_tree(h, span)? };
                    let idx = self.add(ExprKind::Literal(Literal::Int(i as i64)), Type::INT, span);
                    let elem_ty = match from {
                        Type::Matrix { scalar, cols, .. } => Type::vec(scalar, cols),
                        _ => Type::Scalar(from.scalar()?),
                    };
                    let e = self.add(ExprKind::Index { base, index: idx }, elem_ty, span);
                    args.push(self.build_conversion(e, b.elem, span)?);
                }
                Some(self.add(ExprKind::Construct { args }, to, span))
            }
            _ => {
                let (f, t) = (self.type_name(from), self.type_name(to));
                self.error(codes::E_TYPE_MISMATCH, span, format!("cannot convert {f} to {t}"));
                None
            }
        }
    }

    /// Gives a compile-time constant expression the scalar type it meets, in place.
    /// Returns false when `h` is not such a constant tree (a `Convert` is then needed).
    fn retype_constant(&mut self, h: H, scalar: Scalar) -> bool {
        let e = self.exprs_ref()[h].clone();
        if !e.ty.scalar().is_some_and(Scalar::is_compile_time) {
            return false;
        }
        let ok = match &e.kind {
            ExprKind::Literal(l) => {
                let l = super::const_eval::cast(*l, scalar);
                self.exprs().get_mut(h).kind = ExprKind::Literal(l);
                true
            }
            ExprKind::Unary { operand, .. } => self.retype_constant(*operand, scalar),
            ExprKind::Binary { op, lhs, rhs } if !op.is_comparison() && !op.is_logical() => {
                let a = self.retype_constant(*lhs, scalar);
                let b = matches!(op, BinaryOp::Shl | BinaryOp::Shr) || self.retype_constant(*rhs, scalar);
                a && b
            }
            ExprKind::Select { accept, reject, .. } => {
                let a = self.retype_constant(*accept, scalar);
                let b = self.retype_constant(*reject, scalar);
                a && b
            }
            _ => false,
        };
        if ok {
            self.exprs().get_mut(h).ty = e.ty.with_scalar(scalar);
        }
        ok
    }

    /// Deep copy of a side-effect-free expression (for conversions that read a value
    /// more than once); `None` with E0303 if it has side effects.
    fn clone_tree(&mut self, h: H, span: Span) -> Option<H> {
        let e = self.exprs_ref()[h].clone();
        let s = self.span_of(h);
        let kind = match e.kind {
            ExprKind::Literal(_) | ExprKind::Var(_) => e.kind,
            ExprKind::Member { base, field } => ExprKind::Member { base: self.clone_tree(base, span)?, field },
            ExprKind::Index { base, index } => {
                ExprKind::Index { base: self.clone_tree(base, span)?, index: self.clone_tree(index, span)? }
            }
            ExprKind::Swizzle { base, components } => {
                ExprKind::Swizzle { base: self.clone_tree(base, span)?, components }
            }
            ExprKind::MatrixElements { base, elements } => {
                ExprKind::MatrixElements { base: self.clone_tree(base, span)?, elements }
            }
            ExprKind::Unary { op, operand } => ExprKind::Unary { op, operand: self.clone_tree(operand, span)? },
            ExprKind::Binary { op, lhs, rhs } => {
                ExprKind::Binary { op, lhs: self.clone_tree(lhs, span)?, rhs: self.clone_tree(rhs, span)? }
            }
            ExprKind::Convert { value } => ExprKind::Convert { value: self.clone_tree(value, span)? },
            ExprKind::Splat { value } => ExprKind::Splat { value: self.clone_tree(value, span)? },
            ExprKind::Truncate { value } => ExprKind::Truncate { value: self.clone_tree(value, span)? },
            ExprKind::Reshape { value } => ExprKind::Reshape { value: self.clone_tree(value, span)? },
            ExprKind::Select { cond, accept, reject } => ExprKind::Select {
                cond: self.clone_tree(cond, span)?,
                accept: self.clone_tree(accept, span)?,
                reject: self.clone_tree(reject, span)?,
            },
            ExprKind::Construct { args } => {
                let mut out = Vec::with_capacity(args.len());
                for a in args {
                    out.push(self.clone_tree(a, span)?);
                }
                ExprKind::Construct { args: out }
            }
            _ => {
                self.error(
                    codes::E_TYPE_MISMATCH,
                    span,
                    "this conversion reads its operand more than once, which needs an operand without side effects",
                );
                return None;
            }
        };
        Some(self.exprs().append(Expr { kind, ty: e.ty }, s))
    }

    /// Copies a default-argument expression from the globals' arena into the current one.
    fn import_global_expr(&mut self, h: H) -> Option<H> {
        if self.stack.is_empty() {
            return Some(h);
        }
        let src = std::mem::take(&mut self.module.global_exprs);
        let copied = self.copy_from(&src, h, 0);
        self.module.global_exprs = src;
        copied
    }

    fn copy_from(&mut self, src: &ir::Exprs, h: H, depth: u32) -> Option<H> {
        if depth > 512 {
            return None;
        }
        let e = src[h].clone();
        let span = src.span(h);
        let mut c = |x: H| self.copy_from(src, x, depth + 1);
        let kind = match e.kind {
            ExprKind::Literal(_) | ExprKind::Var(_) => e.kind,
            ExprKind::Member { base, field } => ExprKind::Member { base: c(base)?, field },
            ExprKind::Index { base, index } => ExprKind::Index { base: c(base)?, index: c(index)? },
            ExprKind::Swizzle { base, components } => ExprKind::Swizzle { base: c(base)?, components },
            ExprKind::MatrixElements { base, elements } => ExprKind::MatrixElements { base: c(base)?, elements },
            ExprKind::Unary { op, operand } => ExprKind::Unary { op, operand: c(operand)? },
            ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary { op, lhs: c(lhs)?, rhs: c(rhs)? },
            ExprKind::Select { cond, accept, reject } => {
                ExprKind::Select { cond: c(cond)?, accept: c(accept)?, reject: c(reject)? }
            }
            ExprKind::Convert { value } => ExprKind::Convert { value: c(value)? },
            ExprKind::Splat { value } => ExprKind::Splat { value: c(value)? },
            ExprKind::Truncate { value } => ExprKind::Truncate { value: c(value)? },
            ExprKind::Reshape { value } => ExprKind::Reshape { value: c(value)? },
            ExprKind::Construct { args } => {
                ExprKind::Construct { args: args.into_iter().map(&mut c).collect::<Option<_>>()? }
            }
            ExprKind::Call { function, args } => {
                ExprKind::Call { function, args: args.into_iter().map(&mut c).collect::<Option<_>>()? }
            }
            ExprKind::Builtin { builtin, args } => {
                ExprKind::Builtin { builtin, args: args.into_iter().map(&mut c).collect::<Option<_>>()? }
            }
            ExprKind::Assign { op, target, value } => ExprKind::Assign { op, target: c(target)?, value: c(value)? },
            ExprKind::IncDec { op, target } => ExprKind::IncDec { op, target: c(target)? },
            ExprKind::Sequence { exprs } => {
                ExprKind::Sequence { exprs: exprs.into_iter().map(&mut c).collect::<Option<_>>()? }
            }
            // Only the porting passes create these, after sema.
            ExprKind::Ported(_) => return None,
        };
        Some(self.exprs().append(Expr { kind, ty: e.ty }, span))
    }

    // ---- operators ----

    fn unary(&mut self, op: ast::UnaryOp, operand: &'a ast::Expr, span: Span) -> Option<H> {
        let v = self.expr(operand)?;
        let ty = self.ty(v);
        match op {
            ast::UnaryOp::Plus | ast::UnaryOp::Neg => {
                if !ty.is_numeric_shape() {
                    return self.bad_unary(op.as_str(), ty, span);
                }
                let v = if ty.scalar() == Some(Scalar::Bool) {
                    self.build_conversion(v, ty.with_scalar(Scalar::Int), span)?
                } else {
                    v
                };
                if op == ast::UnaryOp::Plus {
                    return Some(v);
                }
                let ty = self.ty(v);
                Some(self.add(ExprKind::Unary { op: UnaryOp::Neg, operand: v }, ty, span))
            }
            ast::UnaryOp::Not => {
                if !(ty.is_scalar() || ty.is_vector()) {
                    return self.bad_unary("!", ty, span);
                }
                let b = ty.with_scalar(Scalar::Bool);
                let v = self.build_conversion(v, b, span)?;
                Some(self.add(ExprKind::Unary { op: UnaryOp::Not, operand: v }, b, span))
            }
            ast::UnaryOp::BitNot => {
                if !ty.scalar().is_some_and(Scalar::is_integral) || ty.is_matrix() {
                    return self.bad_unary("~", ty, span);
                }
                let ty = ty.concrete();
                let v = self.build_conversion(v, ty, span)?;
                Some(self.add(ExprKind::Unary { op: UnaryOp::BitNot, operand: v }, ty, span))
            }
            ast::UnaryOp::PreInc | ast::UnaryOp::PreDec | ast::UnaryOp::PostInc | ast::UnaryOp::PostDec => {
                self.check_place(v, span)?;
                if !ty.scalar().is_some_and(Scalar::is_numeric) {
                    return self.bad_unary(op.as_str(), ty, span);
                }
                let op = match op {
                    ast::UnaryOp::PreInc => ir::IncDec::PreInc,
                    ast::UnaryOp::PreDec => ir::IncDec::PreDec,
                    ast::UnaryOp::PostInc => ir::IncDec::PostInc,
                    _ => ir::IncDec::PostDec,
                };
                Some(self.add(ExprKind::IncDec { op, target: v }, ty, span))
            }
        }
    }

    fn bad_unary(&mut self, op: &str, ty: Type, span: Span) -> Option<H> {
        let t = self.type_name(ty);
        self.error(codes::E_BAD_OPERANDS, span, format!("operator `{op}` cannot be applied to {t}"));
        None
    }

    fn bad_binary(&mut self, op: BinaryOp, a: Type, b: Type, span: Span, why: &str) -> Option<H> {
        let (a, b) = (self.type_name(a), self.type_name(b));
        self.error(
            codes::E_BAD_OPERANDS,
            span,
            format!("operator `{}` cannot be applied to {a} and {b}{why}", op.symbol()),
        );
        None
    }

    /// The common shape of two operands (scalar smearing; float1 acts as a scalar;
    /// mismatched vectors or matrices truncate to the smaller with a warning).
    fn common_shape(&mut self, a: Type, b: Type, span: Span, op: &str) -> Result<Type, ()> {
        let as_scalar = |t: Type| match t {
            Type::Vector(s, 1) => Type::Scalar(s),
            Type::Matrix { scalar, rows: 1, cols: 1 } => Type::Scalar(scalar),
            t => t,
        };
        let (a1, b1) = (as_scalar(a), as_scalar(b));
        let shape = match (a1, b1) {
            (Type::Scalar(_), Type::Scalar(_)) => {
                if a.is_vector() || b.is_vector() {
                    if a == b || a.is_vector() {
                        a
                    } else {
                        b
                    }
                } else {
                    a
                }
            }
            (Type::Scalar(_), t) | (t, Type::Scalar(_)) => t,
            (Type::Vector(s, n), Type::Vector(_, m)) => {
                if n != m {
                    let (x, y) = (self.type_name(a), self.type_name(b));
                    self.warn(
                        codes::W_TRUNCATION,
                        span,
                        format!("implicit truncation: `{op}` on {x} and {y} uses the first {} components", n.min(m)),
                    );
                }
                Type::Vector(s, n.min(m))
            }
            (Type::Matrix { scalar, rows: r1, cols: c1 }, Type::Matrix { rows: r2, cols: c2, .. })
                if (r1 <= r2 && c1 <= c2) || (r2 <= r1 && c2 <= c1) =>
            {
                if (r1, c1) != (r2, c2) {
                    let (x, y) = (self.type_name(a), self.type_name(b));
                    self.warn(codes::W_TRUNCATION, span, format!("implicit truncation: `{op}` on {x} and {y}"));
                }
                Type::mat(scalar, r1.min(r2), c1.min(c2))
            }
            _ => return Err(()),
        };
        Ok(shape)
    }

    pub(super) fn binary(&mut self, op: BinaryOp, l: H, r: H, span: Span) -> Option<H> {
        let (ta, tb) = (self.ty(l), self.ty(r));
        if !ta.is_numeric_shape() || !tb.is_numeric_shape() {
            return self.bad_binary(op, ta, tb, span, "");
        }
        let Ok(shape) = self.common_shape(ta, tb, span, op.symbol()) else {
            return self.bad_binary(op, ta, tb, span, ": their shapes do not match");
        };
        let (sa, sb) = (ta.scalar()?, tb.scalar()?);
        let constant = sa.is_compile_time() && sb.is_compile_time();
        let mut elem = if op.is_logical() { Scalar::Bool } else { arithmetic_scalar(sa, sb) };
        if elem.is_compile_time() && !constant {
            elem = elem.concrete();
        }
        if op.is_comparison() && elem == Scalar::Bool && !(sa == Scalar::Bool && sb == Scalar::Bool) {
            elem = Scalar::Int;
        }
        // Arithmetic on bools is done in int (true is 1), as C and NVIDIA's compiler do.
        if !op.is_comparison() && !op.is_logical() && elem == Scalar::Bool {
            elem = Scalar::Int;
        }
        let integral_only = matches!(
            op,
            BinaryOp::Rem | BinaryOp::Shl | BinaryOp::Shr | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor
        );
        if integral_only && !(sa.is_integral() || sa == Scalar::Bool) | !(sb.is_integral() || sb == Scalar::Bool) {
            let why = if op == BinaryOp::Rem {
                ": `%` needs integer operands (use fmod for floating values)"
            } else {
                ": it needs integer operands"
            };
            return self.bad_binary(op, ta, tb, span, why);
        }
        if op.is_logical() && shape.is_matrix() {
            return self.bad_binary(op, ta, tb, span, "");
        }
        let operand_ty = shape.with_scalar(elem);
        let (l, r) = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            let l = self.build_conversion(l, operand_ty, span)?;
            let rt = shape.with_scalar(sb.concrete());
            (l, self.build_conversion(r, rt, span)?)
        } else {
            (self.build_conversion(l, operand_ty, span)?, self.build_conversion(r, operand_ty, span)?)
        };
        let result = if op.is_comparison() || op.is_logical() { shape.with_scalar(Scalar::Bool) } else { operand_ty };
        Some(self.add(ExprKind::Binary { op, lhs: l, rhs: r }, result, span))
    }

    fn conditional(&mut self, cond: &'a ast::Expr, then: &'a ast::Expr, else_: &'a ast::Expr, span: Span) -> Option<H> {
        let c = self.expr(cond);
        let a = self.expr(then);
        let b = self.expr(else_);
        let (c, a, b) = (c?, a?, b?);
        let (tc, ta, tb) = (self.ty(c), self.ty(a), self.ty(b));
        if matches!(ta, Type::Struct(_)) || matches!(tb, Type::Struct(_)) {
            if ta != tb {
                let (x, y) = (self.type_name(ta), self.type_name(tb));
                self.error(codes::E_BAD_OPERANDS, span, format!("`?:` operands have different types {x} and {y}"));
                return None;
            }
            let c = self.bool_condition(c, span)?;
            return Some(self.add(ExprKind::Select { cond: c, accept: a, reject: b }, ta, span));
        }
        if !ta.is_numeric_shape() || !tb.is_numeric_shape() || !tc.is_numeric_shape() {
            let (x, y) = (self.type_name(ta), self.type_name(tb));
            self.error(codes::E_BAD_OPERANDS, span, format!("`?:` cannot select between {x} and {y}"));
            return None;
        }
        // The binary rule on the second and third operands, then with the first.
        let Ok(mut shape) = self.common_shape(ta, tb, span, "?:") else {
            let (x, y) = (self.type_name(ta), self.type_name(tb));
            self.error(codes::E_BAD_OPERANDS, span, format!("`?:` operands {x} and {y} do not match"));
            return None;
        };
        let (sa, sb) = (ta.scalar()?, tb.scalar()?);
        let mut elem = arithmetic_scalar(sa, sb);
        if elem.is_compile_time() && !(sa.is_compile_time() && sb.is_compile_time()) {
            elem = elem.concrete();
        }
        let cond_ty = match tc {
            Type::Vector(_, n) if n > 1 => {
                if shape.is_scalar() || matches!(shape, Type::Vector(_, 1)) {
                    shape = Type::Vector(elem, n);
                } else if shape != Type::Vector(shape.scalar()?, n) {
                    let (x, y) = (self.type_name(tc), self.type_name(shape));
                    self.error(
                        codes::E_BAD_OPERANDS,
                        span,
                        format!("`?:` with a {x} condition needs operands of the same size, not {y}"),
                    );
                    return None;
                }
                Type::Vector(Scalar::Bool, n)
            }
            Type::Scalar(_) | Type::Vector(_, 1) => Type::BOOL,
            _ => {
                let x = self.type_name(tc);
                self.error(
                    codes::E_BAD_OPERANDS,
                    span,
                    format!("`?:` condition must be bool or a bool vector, not {x}"),
                );
                return None;
            }
        };
        let c = self.build_conversion(c, cond_ty, span)?;
        let operand_ty = shape.with_scalar(elem);
        let a = self.build_conversion(a, operand_ty, span)?;
        let b = self.build_conversion(b, operand_ty, span)?;
        Some(self.add(ExprKind::Select { cond: c, accept: a, reject: b }, operand_ty, span))
    }

    /// A condition (`if`, loops): a bool scalar; numeric scalars compare with zero.
    pub(super) fn bool_condition(&mut self, h: H, span: Span) -> Option<H> {
        let t = self.ty(h);
        match t {
            Type::Scalar(_) | Type::Vector(_, 1) => self.build_conversion(h, Type::BOOL, span),
            _ => {
                let x = self.type_name(t);
                self.error(codes::E_TYPE_MISMATCH, span, format!("a condition must be a bool scalar, not {x}"));
                None
            }
        }
    }

    // ---- places and assignment ----

    fn is_place(&self, h: H) -> bool {
        match &self.exprs_ref()[h].kind {
            ExprKind::Var(_) => true,
            ExprKind::Member { base, .. } | ExprKind::Index { base, .. } => self.is_place(*base),
            ExprKind::Swizzle { base, components } => swizzle::is_write_mask(components) && self.is_place(*base),
            ExprKind::MatrixElements { base, elements } => swizzle::is_write_mask(elements) && self.is_place(*base),
            _ => false,
        }
    }

    fn root_var(&self, h: H) -> Option<Var> {
        match &self.exprs_ref()[h].kind {
            ExprKind::Var(v) => Some(*v),
            ExprKind::Member { base, .. }
            | ExprKind::Index { base, .. }
            | ExprKind::Swizzle { base, .. }
            | ExprKind::MatrixElements { base, .. } => self.root_var(*base),
            _ => None,
        }
    }

    fn var_is_const(&self, v: Var) -> bool {
        match v {
            Var::Global(g) => self.module.globals[g].is_const,
            Var::Local(l) => self.stack.last().is_some_and(|c| c.locals[l].is_const),
            Var::Param(i) => self.stack.last().and_then(|c| c.params.get(i as usize)).is_some_and(|p| p.is_const),
        }
    }

    fn check_place(&mut self, h: H, span: Span) -> Option<()> {
        if !self.is_place(h) {
            let msg = match &self.exprs_ref()[h].kind {
                ExprKind::Swizzle { .. } | ExprKind::MatrixElements { .. } => "a write mask cannot repeat a component",
                _ => "this expression cannot be assigned to",
            };
            self.error(codes::E_NOT_LVALUE, span, msg);
            return None;
        }
        if let Some(v) = self.root_var(h) {
            if self.var_is_const(v) {
                self.error(codes::E_NOT_LVALUE, span, "cannot assign to a constant");
                return None;
            }
        }
        // Assigning samplers to sampler variables (aliases) was accepted by NVIDIA's
        // compiler and is used (crt-lottes-multipass); the porting passes resolve the
        // alias statically or report it.
        Some(())
    }

    fn assign(&mut self, op: Option<BinaryOp>, lhs: &'a ast::Expr, rhs: &'a ast::Expr, span: Span) -> Option<H> {
        let target = self.expr(lhs);
        let value = self.expr(rhs);
        let (target, value) = (target?, value?);
        self.check_place(target, lhs.span)?;
        let tt = self.ty(target);
        let Some(op) = op else {
            let v = self.convert(value, tt, false, rhs.span)?;
            return Some(self.add(ExprKind::Assign { op: None, target, value: v }, tt, span));
        };
        let tv = self.ty(value);
        let same_elem = match (tt.scalar(), tv.scalar()) {
            (Some(a), Some(b)) => arithmetic_scalar(a, b) == a,
            _ => false,
        };
        if same_elem && !matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            // `a op= b` computed in `a`'s type: b smears/converts to it.
            let v = self.convert(value, tt, false, rhs.span)?;
            let probe_ok = tt.is_numeric_shape();
            if !probe_ok {
                return self.bad_binary(op, tt, tv, span, "");
            }
            if matches!(op, BinaryOp::Rem | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor)
                && !tt.scalar().is_some_and(Scalar::is_integral)
            {
                return self.bad_binary(op, tt, tv, span, ": it needs integer operands");
            }
            return Some(self.add(ExprKind::Assign { op: Some(op), target, value: v }, tt, span));
        }
        // Otherwise `a = (type of a)(a op b)`, reading `a` through a copy of the place.
        let read = self.clone_tree(target, span)?;
        let combined = self.binary(op, read, value, span)?;
        let v = self.convert(combined, tt, false, span)?;
        Some(self.add(ExprKind::Assign { op: None, target, value: v }, tt, span))
    }

    // ---- members and indexing ----

    fn member(&mut self, b: H, member: &ast::Ident, span: Span) -> Option<H> {
        let ty = self.ty(b);
        let name = member.name.as_str();
        match ty {
            Type::Struct(s) => {
                let def = self.module.struct_def(s);
                if let Some((i, f)) = def.fields.iter().enumerate().find(|(_, f)| f.name == name) {
                    let fty = f.ty;
                    return Some(self.add(ExprKind::Member { base: b, field: i as u32 }, fty, span));
                }
                let sname = self.type_name(ty);
                self.error(codes::E_BAD_MEMBER, member.span, format!("struct `{sname}` has no field `{name}`"));
                None
            }
            Type::Scalar(s) | Type::Vector(s, _) => {
                let size = if let Type::Vector(_, n) = ty { n } else { 1 };
                match swizzle::vector_swizzle(name) {
                    Some(c) if c.iter().all(|&i| i < size) => {
                        let rty = if c.len() == 1 { Type::Scalar(s) } else { Type::vec(s, c.len() as u8) };
                        Some(self.add(ExprKind::Swizzle { base: b, components: c }, rty, span))
                    }
                    Some(_) => {
                        let t = self.type_name(ty);
                        self.error(
                            codes::E_BAD_MEMBER,
                            member.span,
                            format!("swizzle `.{name}` reads a component that {t} does not have"),
                        );
                        None
                    }
                    None => {
                        let t = self.type_name(ty);
                        self.error(
                            codes::E_BAD_MEMBER,
                            member.span,
                            format!(
                                "`.{name}` is not a valid swizzle of {t} (use one of xyzw, rgba or stpq, up to four)"
                            ),
                        );
                        None
                    }
                }
            }
            Type::Matrix { scalar, rows, cols } => match swizzle::matrix_swizzle(name) {
                Some(e) if e.iter().all(|&(r, c)| r < rows && c < cols) => {
                    let rty = if e.len() == 1 { Type::Scalar(scalar) } else { Type::vec(scalar, e.len() as u8) };
                    Some(self.add(ExprKind::MatrixElements { base: b, elements: e }, rty, span))
                }
                _ => {
                    let t = self.type_name(ty);
                    self.error(
                        codes::E_BAD_MEMBER,
                        member.span,
                        format!("`.{name}` is not a valid matrix swizzle of {t} (`_m00`..`_m33` or `_11`..`_44`)"),
                    );
                    None
                }
            },
            Type::Array(a) if name == "length" => {
                let a = self.module.array_type(a);
                match a.len {
                    Some(n) => {
                        Some(self.add(ExprKind::Literal(Literal::Int(n as i64)), Type::Scalar(Scalar::CInt), span))
                    }
                    None => {
                        self.error(
                            codes::E_BAD_MEMBER,
                            member.span,
                            "an unsized array has no `.length` until it is given a size",
                        );
                        None
                    }
                }
            }
            _ => {
                let t = self.type_name(ty);
                self.error(codes::E_BAD_MEMBER, member.span, format!("{t} has no member `{name}`"));
                None
            }
        }
    }

    fn index(&mut self, b: H, i: H, span: Span) -> Option<H> {
        let ty = self.ty(b);
        let elem = match ty {
            Type::Array(a) => self.module.array_type(a).elem,
            Type::Vector(s, _) => Type::Scalar(s),
            Type::Matrix { scalar, cols, .. } => Type::vec(scalar, cols),
            _ => {
                let t = self.type_name(ty);
                self.error(codes::E_BAD_OPERANDS, span, format!("{t} cannot be indexed"));
                return None;
            }
        };
        let it = self.ty(i);
        if !matches!(it, Type::Scalar(s) if s.is_numeric()) {
            let t = self.type_name(it);
            self.error(codes::E_TYPE_MISMATCH, self.span_of(i), format!("an index must be an integer scalar, not {t}"));
            return None;
        }
        let i = self.build_conversion(i, Type::INT, span)?;
        Some(self.add(ExprKind::Index { base: b, index: i }, elem, span))
    }

    // ---- constructors and initialisers ----

    fn constructor(&mut self, t: &'a ast::TypeName, args: &'a [ast::Expr], span: Span) -> Option<H> {
        let target = self.type_name_type(t)?;
        let mut lowered = Vec::with_capacity(args.len());
        for a in args {
            lowered.push(self.expr(a));
        }
        let lowered: Vec<H> = lowered.into_iter().collect::<Option<_>>()?;
        self.construct(target, lowered, span)
    }

    /// `T(args)`: a vector, matrix or scalar from components; one argument is a cast.
    fn construct(&mut self, target: Type, args: Vec<H>, span: Span) -> Option<H> {
        if let Type::Struct(s) = target {
            return self.struct_constructor(s, args, span);
        }
        if let Type::Array(a) = target {
            return self.array_constructor(a, args, span);
        }
        if !target.is_numeric_shape() {
            let t = self.type_name(target);
            self.error(codes::E_BAD_CONSTRUCTOR, span, format!("{t} has no constructor; use an initializer list"));
            return None;
        }
        if let [one] = args[..] {
            let ot = self.ty(one);
            if ot.is_scalar() || ot.components() >= target.components() || !ot.is_numeric_shape() {
                return self.convert(one, target, true, span);
            }
        }
        let want = target.components()?;
        let mut have = 0;
        let elem = target.scalar()?;
        let mut parts = Vec::with_capacity(args.len());
        for a in args {
            let at = self.ty(a);
            if !at.is_numeric_shape() {
                let t = self.type_name(at);
                self.error(codes::E_BAD_CONSTRUCTOR, self.span_of(a), format!("{t} cannot be a constructor argument"));
                return None;
            }
            have += at.components()?;
            let s = self.span_of(a);
            parts.push(self.build_conversion(a, at.with_scalar(elem), s)?);
        }
        if have != want {
            let t = self.type_name(target);
            self.error(
                codes::E_BAD_CONSTRUCTOR,
                span,
                format!("{t} needs {want} components, but the arguments give {have}"),
            );
            return None;
        }
        Some(self.add(ExprKind::Construct { args: parts }, target, span))
    }

    /// `S(a, b, ...)`: one argument per field, each converted implicitly (NVIDIA's
    /// compiler accepted struct constructors; phosphor-trails.cg uses one).
    fn struct_constructor(&mut self, s: ir::StructId, args: Vec<H>, span: Span) -> Option<H> {
        let fields: Vec<Type> = self.module.struct_def(s).fields.iter().map(|f| f.ty).collect();
        if fields.len() != args.len() {
            let t = self.type_name(Type::Struct(s));
            self.error(
                codes::E_BAD_CONSTRUCTOR,
                span,
                format!("{t} has {} fields, the constructor gives {}", fields.len(), args.len()),
            );
            return None;
        }
        let mut out = Vec::with_capacity(args.len());
        for (a, f) in args.into_iter().zip(fields) {
            let s = self.span_of(a);
            out.push(self.convert(a, f, false, s)?);
        }
        Some(self.add(ExprKind::Construct { args: out }, Type::Struct(s), span))
    }

    /// `float[](a, b, c)` / `float[3](...)`: GLSL-style array constructors, which
    /// NVIDIA's compiler accepted (gb-pass-2.cg). An unsized type takes the count.
    fn array_constructor(&mut self, a: ir::ArrayId, args: Vec<H>, span: Span) -> Option<H> {
        let at = self.module.array_type(a);
        if at.len.is_some_and(|n| n as usize != args.len()) {
            let t = self.type_name(Type::Array(a));
            self.error(
                codes::E_BAD_CONSTRUCTOR,
                span,
                format!("{t} has {} elements, the constructor gives {}", at.len.unwrap_or(0), args.len()),
            );
            return None;
        }
        let mut out = Vec::with_capacity(args.len());
        for x in args {
            let s = self.span_of(x);
            out.push(self.convert(x, at.elem, false, s)?);
        }
        let ty = self.module.array(at.elem, Some(out.len() as u32));
        Some(self.add(ExprKind::Construct { args: out }, ty, span))
    }

    /// An initialiser (`= expr` or `= { ... }`) for a value of type `ty`; for an unsized
    /// array the result's type carries the size.
    pub(super) fn initializer(&mut self, init: &'a ast::Initializer, ty: Type) -> Option<H> {
        match init {
            ast::Initializer::Expr(e) => {
                let v = self.expr(e)?;
                let vt = self.ty(v);
                if let (Type::Array(t), Type::Array(_)) = (ty, vt) {
                    if self.module.array_type(t).len.is_none() {
                        return Some(v);
                    }
                }
                self.convert(v, ty, false, e.span)
            }
            ast::Initializer::List(items, span) => self.init_list(items, ty, *span),
        }
    }

    fn init_list(&mut self, items: &'a [ast::Initializer], ty: Type, span: Span) -> Option<H> {
        match ty {
            Type::Scalar(_) if items.len() == 1 => self.initializer(&items[0], ty),
            Type::Vector(..) | Type::Matrix { .. } => {
                let mut leaves = Vec::new();
                flatten(items, &mut leaves);
                let mut args = Vec::with_capacity(leaves.len());
                for e in leaves {
                    args.push(self.expr(e));
                }
                let args: Vec<H> = args.into_iter().collect::<Option<_>>()?;
                self.construct(ty, args, span)
            }
            Type::Struct(s) => {
                let fields: Vec<Type> = self.module.struct_def(s).fields.iter().map(|f| f.ty).collect();
                if items.len() != fields.len() {
                    let t = self.type_name(ty);
                    self.error(
                        codes::E_BAD_CONSTRUCTOR,
                        span,
                        format!("{t} has {} fields, the initializer gives {}", fields.len(), items.len()),
                    );
                    return None;
                }
                let mut args = Vec::new();
                for (item, f) in items.iter().zip(fields) {
                    args.push(self.initializer(item, f));
                }
                let args: Vec<H> = args.into_iter().collect::<Option<_>>()?;
                Some(self.add(ExprKind::Construct { args }, ty, span))
            }
            Type::Array(a) => {
                let at = self.module.array_type(a);
                let elem_components = at.elem.components();
                // Brace elision: `float2 a[2] = {1, 2, 3, 4}`.
                let all_exprs = items.iter().all(|i| matches!(i, ast::Initializer::Expr(_)));
                let n = at.len.unwrap_or(items.len() as u32) as usize;
                let mut args = Vec::new();
                if all_exprs && items.len() != n && elem_components.is_some_and(|c| c as usize * n == items.len()) {
                    let c = elem_components? as usize;
                    for chunk in items.chunks(c) {
                        args.push(self.init_list(chunk, at.elem, span));
                    }
                } else {
                    if items.len() != n {
                        let t = self.type_name(ty);
                        self.error(
                            codes::E_BAD_CONSTRUCTOR,
                            span,
                            format!("{t} has {n} elements, the initializer gives {}", items.len()),
                        );
                        return None;
                    }
                    for item in items {
                        args.push(self.initializer(item, at.elem));
                    }
                }
                let args: Vec<H> = args.into_iter().collect::<Option<_>>()?;
                let ty = self.module.array(at.elem, Some(args.len() as u32));
                Some(self.add(ExprKind::Construct { args }, ty, span))
            }
            _ => {
                let t = self.type_name(ty);
                self.error(codes::E_BAD_CONSTRUCTOR, span, format!("{t} cannot be initialised from a list"));
                None
            }
        }
    }

    // ---- calls ----

    fn call(&mut self, callee: &'a ast::Expr, args: &'a [ast::Expr], span: Span) -> Option<H> {
        match &callee.kind {
            ast::ExprKind::Ident(id)
                if super::programs::is_geometry_call(&id.name)
                    && !self.functions.contains_key(&id.name)
                    && self.lookup(&id.name).is_none() =>
            {
                self.geometry_call_as_value(id)
            }
            ast::ExprKind::Ident(id) => {
                let mut lowered = Vec::with_capacity(args.len());
                for a in args {
                    lowered.push(self.expr(a));
                }
                let lowered: Vec<H> = lowered.into_iter().collect::<Option<_>>()?;
                // Inside a member function, a sibling method is called on `this`.
                if let Some(s) = self.stack.last().and_then(|c| c.method_of) {
                    let key = super::qualified_name(&self.module, Some(s), &id.name);
                    if self.functions.contains_key(&key) {
                        let this = self.add(ExprKind::Var(Var::Param(0)), Type::Struct(s), id.span);
                        let mut all = vec![this];
                        all.extend(lowered);
                        return self.resolve_call(&key, &id.name, all, span, false);
                    }
                }
                if let Some(Symbol::Type(t)) = self.lookup(&id.name) {
                    return self.construct(t, lowered, span);
                }
                self.resolve_call(&id.name.clone(), &id.name, lowered, span, true)
            }
            ast::ExprKind::Member { base, member } => {
                let b = self.expr(base)?;
                let bt = self.ty(b);
                let Type::Struct(s) = bt else {
                    let t = self.type_name(bt);
                    let msg = match bt {
                        Type::Interface(_) => {
                            format!("method `{}` of interface {t} cannot be resolved statically here", member.name)
                        }
                        _ => format!("{t} has no method `{}`", member.name),
                    };
                    self.error(codes::E_BAD_CALL, member.span, msg);
                    return None;
                };
                let key = super::qualified_name(&self.module, Some(s), &member.name);
                if !self.functions.contains_key(&key) {
                    let t = self.type_name(bt);
                    self.error(
                        codes::E_BAD_MEMBER,
                        member.span,
                        format!("struct `{t}` has no method `{}`", member.name),
                    );
                    return None;
                }
                let mut all = vec![b];
                for a in args {
                    all.push(self.expr(a)?);
                }
                self.resolve_call(&key, &member.name, all, span, false)
            }
            _ => {
                self.error(codes::E_BAD_CALL, callee.span, "only functions can be called");
                None
            }
        }
    }

    /// Resolves and builds a call of `key` (a free function name or `S::method`).
    fn resolve_call(&mut self, key: &str, display: &str, args: Vec<H>, span: Span, with_stdlib: bool) -> Option<H> {
        let arg_types: Vec<Type> = args.iter().map(|&a| self.ty(a)).collect();
        let user: Vec<UserCandidate> = self
            .functions
            .get(key)
            .map(|l| l.iter().map(|e| (e.handle, e.param_types.clone(), e.required, e.profiles.clone())).collect())
            .unwrap_or_default();
        let stdlib: Vec<&'static intrinsics::Overload> = if with_stdlib {
            intrinsics::overloads(key)
                .map(|o| o.iter().filter(|o| !user.iter().any(|u| u.1 == o.param_types)).collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        // GLSL built-ins NVIDIA's compiler accepted: only when nothing else has the name.
        let glsl = with_stdlib && user.is_empty() && stdlib.is_empty();
        let stdlib = match intrinsics::glsl_overloads(key) {
            Some(list) if glsl => list.iter().collect(),
            _ => stdlib,
        };
        let glsl = glsl && !stdlib.is_empty();
        if user.is_empty() && stdlib.is_empty() {
            self.error(codes::E_UNDECLARED, span, format!("function `{display}` is not declared"));
            return None;
        }
        let no_profiles: Vec<String> = Vec::new();
        let mut candidates: Vec<Candidate> =
            user.iter().map(|(_, p, r, pr)| Candidate { params: p, required: *r, profiles: pr }).collect();
        candidates.extend(stdlib.iter().map(|o| Candidate {
            params: &o.param_types,
            required: o.param_types.len(),
            profiles: &no_profiles,
        }));
        // Arguments written as `sampler` match any specific sampler formal.
        let resolution_args = sampler_args(&arg_types, &candidates);
        let resolved = overload::resolve(&self.module, &candidates, &resolution_args, &self.profile);
        let chosen = match resolved {
            Resolution::Unique(i) => i,
            Resolution::NoMatch(why) => {
                let sig = self.signature_list(&arg_types);
                let mut d = Diagnostic::error(
                    codes::E_NO_OVERLOAD,
                    format!("no overload of `{display}` matches ({sig}): {why}"),
                )
                .with_primary(span, "");
                for c in candidates.iter().take(6) {
                    d = d.with_note(format!("candidate: {display}({})", self.signature_list(c.params)));
                }
                if candidates.len() > 6 {
                    d = d.with_note(format!("... and {} more candidates", candidates.len() - 6));
                }
                self.push(d);
                return None;
            }
            Resolution::Ambiguous(set) => {
                let sig = self.signature_list(&arg_types);
                let mut d = Diagnostic::error(
                    codes::E_AMBIGUOUS_OVERLOAD,
                    format!("call of `{display}` with ({sig}) is ambiguous"),
                )
                .with_primary(span, "");
                for &i in set.iter().take(6) {
                    d = d.with_note(format!("candidate: {display}({})", self.signature_list(candidates[i].params)));
                }
                self.push(d);
                return None;
            }
        };
        if chosen < user.len() {
            let (handle, params, _, _) = user[chosen].clone();
            self.build_user_call(handle, &params, args, span)
        } else {
            let o = stdlib[chosen - user.len()];
            if user.is_empty() {
                self.warn_family_difference(display, &stdlib, chosen, &resolution_args, span);
            }
            if glsl {
                let cg = match o.builtin.name() {
                    "frac" => "; Cg spells it `frac`",
                    "lerp" => "; Cg spells it `lerp`",
                    "mod" => "; Cg's `fmod` truncates where `mod` floors",
                    _ => "",
                };
                self.warn(
                    codes::W_GLSL_BUILTIN,
                    span,
                    format!(
                        "`{display}` is a GLSL function, not in Cg 3.1's standard library{cg}; NVIDIA's Cg \
                         compiler accepted it, so it keeps its GLSL meaning"
                    ),
                );
            }
            self.build_builtin_call(o, args, span)
        }
    }

    /// W0308 where the standard-library overload chosen for a call is declared in one
    /// profile family only and the other family read the call differently.
    fn warn_family_difference(
        &mut self,
        display: &str,
        stdlib: &[&'static intrinsics::Overload],
        chosen: usize,
        args: &[Type],
        span: Span,
    ) {
        let Some(d) = families::family_difference(&self.module, display, stdlib, chosen, args, &self.profile) else {
            return;
        };
        let o = stdlib[chosen];
        let form = format!("{display}({})", self.signature_list(&o.param_types));
        let (gpus, ret) = (if d.declared.starts_with("glsl") { "most GPUs" } else { "NVIDIA GPUs" }, o.ret);
        let ret = self.type_name(ret);
        let there = match d.elsewhere {
            families::Elsewhere::Resolved(j) => {
                let alt = stdlib[j];
                let (sig, alt_ret) = (self.signature_list(&alt.param_types), self.type_name(alt.ret));
                format!(
                    "{} chose `{display}({sig})` (returning {alt_ret}), so the result differed between GPUs",
                    d.other
                )
            }
            families::Elsewhere::Rejected => format!("{} rejected the call, so the shader ran only on {gpus}", d.other),
        };
        self.warn(
            codes::W_PROFILE_FAMILY,
            span,
            format!(
                "`{form}` is declared only in the {} profiles ({gpus} in RetroArch); NVIDIA's compiler under {there}; \
                 translated with the {} form (returning {ret})",
                d.declared, d.declared
            ),
        );
    }

    fn signature_list(&self, types: &[Type]) -> String {
        types.iter().map(|&t| self.type_name(t)).collect::<Vec<_>>().join(", ")
    }

    fn build_user_call(
        &mut self,
        handle: Handle<ir::Function>,
        params: &[Type],
        args: Vec<H>,
        span: Span,
    ) -> Option<H> {
        let decl = self.module.functions[handle].params.clone();
        let mut handle = handle;
        // Interface parameters: call the version specialised for these structs.
        if decl.iter().any(|p| matches!(p.ty, Type::Interface(_))) {
            let concrete: Vec<Type> = decl
                .iter()
                .enumerate()
                .map(|(i, p)| match p.ty {
                    Type::Interface(_) => args.get(i).map_or(p.ty, |&a| self.ty(a)),
                    t => t,
                })
                .collect();
            handle = self.specialise(handle, &concrete)?;
        }
        let decl = self.module.functions[handle].params.clone();
        let mut out = Vec::with_capacity(decl.len());
        for (i, p) in decl.iter().enumerate() {
            match args.get(i) {
                Some(&a) => {
                    let s = self.span_of(a);
                    let a = if p.dir == ParamDir::In {
                        self.convert(a, p.ty, false, s)?
                    } else {
                        if !self.is_place(a) {
                            self.error(
                                codes::E_BAD_CALL,
                                s,
                                format!("argument for `{}` parameter `{}` must be assignable", dir_name(p.dir), p.name),
                            );
                            return None;
                        }
                        if self.ty(a) != p.ty && !(matches!(params.get(i), Some(Type::Interface(_)))) {
                            let (x, y) = (self.type_name(self.ty(a)), self.type_name(p.ty));
                            self.error(
                                codes::E_BAD_CALL,
                                s,
                                format!(
                                    "argument of type {x} cannot bind to `{}` parameter of type {y}",
                                    dir_name(p.dir)
                                ),
                            );
                            return None;
                        }
                        a
                    };
                    out.push(a);
                }
                None => {
                    let d = p.default?;
                    out.push(self.import_global_expr(d)?);
                }
            }
        }
        let caller = self.stack.last().map(|c| c.handle);
        self.calls.push((caller, handle, span));
        let ret = self.module.functions[handle].ret;
        Some(self.add(ExprKind::Call { function: handle, args: out }, ret, span))
    }

    fn build_builtin_call(&mut self, o: &'static intrinsics::Overload, args: Vec<H>, span: Span) -> Option<H> {
        let stage = self.profile.stage;
        let allowed = match stage {
            Stage::Vertex => o.stages.vertex,
            Stage::Fragment => o.stages.fragment,
        };
        if !allowed {
            let where_ = if o.stages.fragment { "fragment" } else { "vertex" };
            self.profile_error(span, format!("`{}` is only available in {where_} programs", o.builtin.name()));
        }
        let mut out = Vec::with_capacity(args.len());
        for (a, p) in args.into_iter().zip(&o.params) {
            let s = self.span_of(a);
            if p.dir == ParamDir::In {
                out.push(self.convert(a, p.ty, false, s)?);
            } else {
                if !self.is_place(a) || self.ty(a) != p.ty {
                    let y = self.type_name(p.ty);
                    self.error(
                        codes::E_BAD_CALL,
                        s,
                        format!("`out` argument of `{}` must be an assignable {y}", o.builtin.name()),
                    );
                    return None;
                }
                out.push(a);
            }
        }
        Some(self.add(ExprKind::Builtin { builtin: o.builtin, args: out }, o.ret, span))
    }
}

/// Arguments of the generic `sampler` type take the type of the formal they meet, so
/// that `tex2D(s, uv)` resolves for `sampler s` (the spec allows `sampler` wherever a
/// specific sampler type is valid).
fn sampler_args(args: &[Type], candidates: &[Candidate<'_>]) -> Vec<Type> {
    args.iter()
        .enumerate()
        .map(|(i, &t)| match t {
            Type::Sampler(ir::SamplerDim::Any) => {
                candidates.iter().find_map(|c| c.params.get(i).copied().filter(|p| p.is_sampler())).unwrap_or(t)
            }
            t => t,
        })
        .collect()
}

fn dir_name(d: ParamDir) -> &'static str {
    match d {
        ParamDir::In => "in",
        ParamDir::Out => "out",
        ParamDir::InOut => "inout",
    }
}

fn flatten<'a>(items: &'a [ast::Initializer], out: &mut Vec<&'a ast::Expr>) {
    for i in items {
        match i {
            ast::Initializer::Expr(e) => out.push(e),
            ast::Initializer::List(inner, _) => flatten(inner, out),
        }
    }
}

pub(super) fn binary_op(op: ast::BinaryOp) -> BinaryOp {
    match op {
        ast::BinaryOp::Mul => BinaryOp::Mul,
        ast::BinaryOp::Div => BinaryOp::Div,
        ast::BinaryOp::Rem => BinaryOp::Rem,
        ast::BinaryOp::Add => BinaryOp::Add,
        ast::BinaryOp::Sub => BinaryOp::Sub,
        ast::BinaryOp::Shl => BinaryOp::Shl,
        ast::BinaryOp::Shr => BinaryOp::Shr,
        ast::BinaryOp::Lt => BinaryOp::Lt,
        ast::BinaryOp::Gt => BinaryOp::Gt,
        ast::BinaryOp::Le => BinaryOp::Le,
        ast::BinaryOp::Ge => BinaryOp::Ge,
        ast::BinaryOp::Eq => BinaryOp::Eq,
        ast::BinaryOp::Ne => BinaryOp::Ne,
        ast::BinaryOp::BitAnd => BinaryOp::BitAnd,
        ast::BinaryOp::BitXor => BinaryOp::BitXor,
        ast::BinaryOp::BitOr => BinaryOp::BitOr,
        ast::BinaryOp::And => BinaryOp::And,
        ast::BinaryOp::Or => BinaryOp::Or,
    }
}
