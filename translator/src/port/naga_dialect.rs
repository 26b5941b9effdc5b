//! Porting passes of the naga dialect only (IR rewrites of a stage, run on a copy
//! after [`super::run`], for the text naga's GLSL front end and the wgpu chain read).
//!
//! naga folds constant expressions as it reads them and rejects an infinite or NaN
//! result, so a non-finite literal, or a division of constants that folds to one,
//! becomes [`Ported::NonFinite`] (written through its bits, in a call naga does not
//! fold). naga has no `mix` on bool vectors, so a select between bool vectors on a
//! vector condition becomes [`Ported::ComponentSelect`] (a helper that selects per
//! component); `c ? true : false` and its reverse stay selects, which the writer
//! prints as `c` and `not(c)`. The canonical dialect never runs these passes.

use super::pipeline::{replace_nodes, Rewrite, StagePort};
use crate::ir::{BinaryOp, Expr, ExprKind, Exprs, Handle, Literal, Module, Ported, Scalar, Type};
use crate::sema::const_eval;

/// The naga dialect's rewrites, in the order they run.
pub const REWRITES: &[(&str, Rewrite)] = &[
    ("naga_dialect::non_finite_constants", |m, _: &mut StagePort| replace_nodes(m, &non_finite)),
    ("naga_dialect::bool_vector_selects", |m, _: &mut StagePort| replace_nodes(m, &bool_vector_select)),
];

/// A non-finite float constant: a literal, or a float division of constants.
fn non_finite(m: &Module, exprs: &Exprs, h: Handle<Expr>) -> Option<ExprKind> {
    let e = &exprs[h];
    let value = match e.kind {
        ExprKind::Literal(Literal::Float(f)) => f,
        ExprKind::Binary { op: BinaryOp::Div, .. } if e.ty == Type::FLOAT => {
            match const_eval::eval_scalar(m, exprs, h, 0) {
                Some(Literal::Float(f)) => f,
                _ => return None,
            }
        }
        _ => return None,
    };
    (!(value as f32).is_finite()).then_some(ExprKind::Ported(Ported::NonFinite(value)))
}

/// A select between bool vectors on a vector condition, other than `c ? true : false`
/// and `c ? false : true`.
fn bool_vector_select(_: &Module, exprs: &Exprs, h: Handle<Expr>) -> Option<ExprKind> {
    let ExprKind::Select { cond, accept, reject } = exprs[h].kind else { return None };
    let vector = matches!(exprs[cond].ty, Type::Vector(_, n) if n > 1);
    let bools = exprs[h].ty.scalar() == Some(Scalar::Bool);
    let constants = (exprs.bool_constant(accept), exprs.bool_constant(reject));
    let plain = matches!(constants, (Some(true), Some(false)) | (Some(false), Some(true)));
    (vector && bools && !plain).then_some(ExprKind::Ported(Ported::ComponentSelect { cond, accept, reject }))
}
