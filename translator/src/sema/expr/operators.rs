//! Operators: unary, binary and conditional (`?:`) expressions, and conditions.
//!
//! Operands meet in their common shape (scalar smearing, `float1` as a scalar, the
//! smaller of two vectors or matrices with a warning) and the usual arithmetic scalar;
//! bools compute in int; the integer-only operators refuse floating operands (E0307).
//!
//! It never converts an operand without a node for it: every conversion is explicit in
//! the IR.

use super::H;
use crate::codes;
use crate::ir::{self, BinaryOp, ExprKind, Scalar, Type, UnaryOp};
use crate::sema::convert::arithmetic_scalar;
use crate::sema::Lowerer;
use grammar::ast;
use grammar::Span;

impl<'a> Lowerer<'a> {
    pub(super) fn unary(&mut self, op: ast::UnaryOp, operand: &'a ast::Expr, span: Span) -> Option<H> {
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

    pub(super) fn bad_binary(&mut self, op: BinaryOp, a: Type, b: Type, span: Span, why: &str) -> Option<H> {
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

    pub(super) fn conditional(
        &mut self,
        cond: &'a ast::Expr,
        then: &'a ast::Expr,
        else_: &'a ast::Expr,
        span: Span,
    ) -> Option<H> {
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
    pub(in crate::sema) fn bool_condition(&mut self, h: H, span: Span) -> Option<H> {
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
}
