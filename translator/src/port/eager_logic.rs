//! Porting pass: Cg's `&&` and `||` evaluate both operands (and work per component on
//! bool vectors); GLSL's short-circuit and take scalars only (an IR rewrite of a stage).
//!
//! Where the difference can show, the operation becomes [`Ported::EagerLogical`], which
//! the writer prints as a call of a helper that receives both values: on bool vectors,
//! and where the right operand has side effects (an assignment, a call). Elsewhere GLSL's
//! operator means the same and stays. Decides nothing else.

use super::pipeline::{replace_nodes, StagePort};
use crate::ir::{BinaryOp, Expr, ExprKind, Exprs, Handle, Module, Ported, Type};
use std::borrow::Cow;

/// Whether `&&`/`||` over these operands needs both evaluated explicitly.
pub fn needs_eager(exprs: &Exprs, op: BinaryOp, lhs: Handle<Expr>, rhs: Handle<Expr>) -> bool {
    let vector = matches!(exprs[lhs].ty, Type::Vector(_, n) if n > 1);
    op.is_logical() && (vector || exprs.has_side_effects(rhs))
}

/// Rewrites every such operation of the stage; borrows the module when there is none.
pub fn make_logic_eager<'m>(module: &'m Module, _: &mut StagePort) -> Cow<'m, Module> {
    replace_nodes(module, &|_, exprs, h| match exprs[h].kind {
        ExprKind::Binary { op, lhs, rhs } if needs_eager(exprs, op, lhs, rhs) => {
            Some(ExprKind::Ported(Ported::EagerLogical { op, lhs, rhs }))
        }
        _ => None,
    })
}
