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
//!
//! This module dispatches on the expression's kind and lowers literals and names; each
//! other kind has its submodule: [`conversions`], [`operators`], [`places`] (assignment),
//! [`members`] (fields, swizzles, indexing), [`constructors`] (and initialisers),
//! [`calls`]. None of them reports an error without its code or builds a node whose type
//! its operands do not justify.

use super::intrinsics;
use super::{Lowerer, Symbol};
use crate::codes;
use crate::ir::{BinaryOp, Expr, ExprKind, Handle, Literal, Scalar, Type, Var};
use grammar::ast;
use grammar::Span;

mod calls;
mod constructors;
mod conversions;
mod members;
mod operators;
mod places;

type H = Handle<Expr>;

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
        let (lit, scalar) = match *l {
            ast::Literal::Bool(b) => (Literal::Bool(b), Scalar::Bool),
            ast::Literal::Int(v, suffix) => {
                let scalar = suffix_scalar(suffix, Scalar::CInt);
                (super::const_eval::cast(Literal::UInt(v), scalar), scalar)
            }
            ast::Literal::Float(v, suffix) => {
                let scalar = suffix_scalar(suffix, Scalar::CFloat);
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

/// The scalar type a numeric literal's suffix names; `unsuffixed` without one (Cg's
/// `cint` for integers, `cfloat` for floats).
fn suffix_scalar(suffix: ast::LiteralSuffix, unsuffixed: Scalar) -> Scalar {
    use ast::LiteralSuffix as S;
    match suffix {
        S::None => unsuffixed,
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
    }
}
