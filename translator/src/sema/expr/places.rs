//! Places and assignment: what may be assigned to, and `=`/`op=`.
//!
//! A place is a variable, or a member, index or write-mask swizzle of one; a constant
//! is not assignable (E0309). `a op= b` is computed in `a`'s type when `b` converts to
//! it, else as `a = (type of a)(a op b)` through a copy of the place.
//!
//! It never accepts an assignment to something that is not a place, and never reads a
//! place with side effects twice (the copy refuses those).

use super::H;
use crate::codes;
use crate::ir::{BinaryOp, ExprKind, Scalar, Var};
use crate::sema::convert::arithmetic_scalar;
use crate::sema::swizzle;
use crate::sema::Lowerer;
use grammar::ast;
use grammar::Span;

impl<'a> Lowerer<'a> {
    pub(super) fn is_place(&self, h: H) -> bool {
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

    pub(super) fn check_place(&mut self, h: H, span: Span) -> Option<()> {
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

    pub(super) fn assign(
        &mut self,
        op: Option<BinaryOp>,
        lhs: &'a ast::Expr,
        rhs: &'a ast::Expr,
        span: Span,
    ) -> Option<H> {
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
}
