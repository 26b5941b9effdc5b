//! Conversions: the nodes that carry a value from one type to another.
//!
//! `convert` judges a conversion by the conversion table ([`crate::sema::convert`]) and
//! reports what needs a cast (E0304) or loses precision (warnings); `build_conversion`
//! builds the `Convert`/`Splat`/`Truncate`/`Reshape`/`Construct` nodes for one the table
//! allows, retyping unsuffixed constants in place instead of converting them. Also here:
//! copying a side-effect-free tree (a conversion that reads its operand more than once)
//! and importing a default argument from the globals' arena.
//!
//! It never decides whether a conversion is allowed by itself (the table does) and never
//! duplicates an expression with side effects.

use super::H;
use crate::codes;
use crate::ir::{self, BinaryOp, Expr, ExprKind, Literal, Scalar, Type};
use crate::sema::convert::{classify, Class};
use crate::sema::Lowerer;
use grammar::Span;

impl<'a> Lowerer<'a> {
    /// Converts `h` to `to`: implicitly (`explicit == false`, as in assignment and
    /// argument passing: warnings for truncation, errors for what needs a cast) or as a
    /// cast.
    pub(in crate::sema) fn convert(&mut self, h: H, to: Type, explicit: bool, span: Span) -> Option<H> {
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
    pub(super) fn build_conversion(&mut self, h: H, to: Type, span: Span) -> Option<H> {
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
                let l = crate::sema::const_eval::cast(*l, scalar);
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
    pub(super) fn clone_tree(&mut self, h: H, span: Span) -> Option<H> {
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
    pub(super) fn import_global_expr(&mut self, h: H) -> Option<H> {
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
}
