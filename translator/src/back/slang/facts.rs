//! Questions the writer asks of the IR: constants, roots of l-values, written and
//! whole-used parameters, side effects. Pure functions of the IR; never print.

use crate::ir::{Builtin, Expr, ExprKind, Exprs, Handle, Module, ParamDir, Ported, Var};
use std::collections::HashSet;

pub(super) fn root_var(exprs: &Exprs, h: Handle<Expr>) -> Option<Var> {
    let mut h = h;
    loop {
        match &exprs[h].kind {
            ExprKind::Var(v) => return Some(*v),
            ExprKind::Member { base, .. }
            | ExprKind::Index { base, .. }
            | ExprKind::Swizzle { base, .. }
            | ExprKind::MatrixElements { base, .. } => h = *base,
            _ => return None,
        }
    }
}

/// Entry parameters the body writes (assignments, increments, out arguments).
pub(super) fn written_params(m: &Module, exprs: &Exprs) -> HashSet<u32> {
    let mut out = HashSet::new();
    for (_, e) in exprs.iter() {
        let targets: Vec<Handle<Expr>> = match &e.kind {
            ExprKind::Assign { target, .. } | ExprKind::IncDec { target, .. } => vec![*target],
            ExprKind::Call { function, args } => m.functions[*function]
                .params
                .iter()
                .zip(args)
                .filter(|(p, _)| p.dir != ParamDir::In)
                .map(|(_, a)| *a)
                .collect(),
            ExprKind::Builtin { builtin: Builtin::Sincos, args } => args.iter().skip(1).copied().collect(),
            ExprKind::Builtin { builtin: Builtin::Modf | Builtin::Frexp, args } => {
                args.iter().skip(1).copied().collect()
            }
            _ => vec![],
        };
        for t in targets {
            if let Some(Var::Param(i)) = root_var(exprs, t) {
                out.insert(i);
            }
        }
    }
    out
}

/// Whether `v` is used other than through a member access.
pub(super) fn used_whole(exprs: &Exprs, v: Var) -> bool {
    let mut member_bases = HashSet::new();
    for (_, e) in exprs.iter() {
        if let ExprKind::Member { base, .. } = e.kind {
            member_bases.insert(base);
        }
    }
    exprs.iter().any(|(h, e)| matches!(e.kind, ExprKind::Var(x) if x == v) && !member_bases.contains(&h))
}

/// Whether a global's initialiser is a GLSL constant expression (no uniforms, calls).
pub(super) fn is_constant_init(m: &Module, exprs: &Exprs, h: Handle<Expr>) -> bool {
    let mut work = vec![h];
    while let Some(x) = work.pop() {
        match &exprs[x].kind {
            ExprKind::Var(Var::Global(g)) if m.globals[*g].is_const => {}
            ExprKind::Var(_)
            | ExprKind::Ported(Ported::Runtime(_))
            | ExprKind::Call { .. }
            | ExprKind::Assign { .. }
            | ExprKind::IncDec { .. } => return false,
            k => work.extend(k.children()),
        }
    }
    true
}
