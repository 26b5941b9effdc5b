//! Porting pass: the derivatives NVIDIA's Cg compiler accepted in a vertex program
//! (glslv, gp4vp and gp5vp declare `ddx`, `ddy` and `fwidth` for every stage, and with
//! them the implicit-level lookups `tex2D`, `tex2Dbias` and `tex2Dproj`).
//!
//! A vertex has no neighbouring pixels, so a derivative there is zero (the CPU
//! reference's vertex lanes compute the same). slang is GLSL 4.50 for Vulkan, where
//! `dFdx` belongs to fragment stages, so in a vertex stage this pass rewrites `ddx(x)`,
//! `ddy(x)` and `fwidth(x)` into a zero of `x`'s type. The lookups need no rewrite:
//! RetroArch's slang runtime binds no texture to a vertex stage, which the writer
//! reports (E0402).
//!
//! Fragment stages are returned as they are. Never fails, never panics.

use crate::ir::{Builtin, Expr, ExprKind, Exprs, Literal, Module, Stage, Type};
use std::borrow::Cow;

fn derivative(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Builtin { builtin: Builtin::Ddx | Builtin::Ddy | Builtin::Fwidth, .. })
}

/// Rewrites the derivatives of a vertex stage into zeros; any other stage, or a stage
/// without them, is borrowed unchanged.
pub fn zero_vertex_derivatives(module: &Module, stage: Stage) -> Cow<'_, Module> {
    // Only a vertex stage is rewritten: the other never scans its expressions.
    if stage != Stage::Vertex {
        return Cow::Borrowed(module);
    }
    let uses = module.functions.iter().any(|(_, f)| f.exprs.iter().any(|(_, e)| derivative(e)))
        || module.global_exprs.iter().any(|(_, e)| derivative(e));
    if !uses {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    let handles: Vec<_> = out.functions.iter().map(|(h, _)| h).collect();
    for h in handles {
        rewrite(&mut out.functions[h].exprs);
    }
    rewrite(&mut out.global_exprs);
    Cow::Owned(out)
}

fn rewrite(exprs: &mut Exprs) {
    let handles: Vec<_> = exprs.iter().filter(|(_, e)| derivative(e)).map(|(h, _)| h).collect();
    for h in handles {
        let ty = exprs[h].ty;
        let Some(scalar) = ty.scalar() else { continue };
        let zero = ExprKind::Literal(Literal::Float(0.0));
        let kind = if matches!(ty, Type::Scalar(_)) {
            zero
        } else {
            let span = exprs.span(h);
            ExprKind::Splat { value: exprs.append(Expr { kind: zero, ty: Type::Scalar(scalar) }, span) }
        };
        exprs.get_mut(h).kind = kind;
    }
}
