//! Porting pass: Cg's `&&` and `||` evaluate both operands (and work per component on
//! bool vectors); GLSL's short-circuit and take scalars only (an IR rewrite of a stage).
//!
//! Where the difference can show, the operation becomes [`Ported::EagerLogical`], which
//! the writer prints as a call of a helper that receives both values: on bool vectors,
//! and where the right operand has side effects (an assignment, a call). Elsewhere GLSL's
//! operator means the same and stays. Decides nothing else.

use super::pipeline::StagePort;
use crate::ir::{BinaryOp, Expr, ExprKind, Exprs, Handle, Module, Ported, Type};
use std::borrow::Cow;

/// Whether `&&`/`||` over these operands needs both evaluated explicitly.
pub fn needs_eager(exprs: &Exprs, op: BinaryOp, lhs: Handle<Expr>, rhs: Handle<Expr>) -> bool {
    let vector = matches!(exprs[lhs].ty, Type::Vector(_, n) if n > 1);
    op.is_logical() && (vector || exprs.has_side_effects(rhs))
}

/// Rewrites every such operation of the stage; borrows the module when there is none.
pub fn make_logic_eager<'m>(module: &'m Module, _: &mut StagePort) -> Cow<'m, Module> {
    let eager = |exprs: &Exprs| -> Vec<Handle<Expr>> {
        exprs
            .iter()
            .filter(|(_, e)| matches!(e.kind, ExprKind::Binary { op, lhs, rhs } if needs_eager(exprs, op, lhs, rhs)))
            .map(|(h, _)| h)
            .collect()
    };
    let found: Vec<_> = module.functions.iter().map(|(f, func)| (f, eager(&func.exprs))).collect();
    let in_globals = eager(&module.global_exprs);
    if in_globals.is_empty() && found.iter().all(|(_, hs)| hs.is_empty()) {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    let rewrite = |exprs: &mut Exprs, hs: Vec<Handle<Expr>>| {
        for h in hs {
            if let ExprKind::Binary { op, lhs, rhs } = exprs[h].kind {
                exprs.get_mut(h).kind = ExprKind::Ported(Ported::EagerLogical { op, lhs, rhs });
            }
        }
    };
    for (f, hs) in found {
        rewrite(&mut out.functions[f].exprs, hs);
    }
    rewrite(&mut out.global_exprs, in_globals);
    Cow::Owned(out)
}
