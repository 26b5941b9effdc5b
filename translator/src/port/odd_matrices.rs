//! Porting pass: Cg matrices that GLSL has no type for.
//!
//! GLSL matrices are float and at least 2x2. Cg also has single-row and single-column
//! float matrices (`float1x3`, `float4x1`: nedi, bicubic-fast) and bool, int and uint
//! matrices (`bool3x3`: hqx). This pass rewrites the IR of one stage so that the writer
//! never meets them, without changing what any expression computes:
//!
//! * A float-family `float1xC` is its one row, `floatRx1` its one column: a `floatC` /
//!   `floatR` vector (`float1x1` a `float1`). Constructors keep their components (Cg
//!   fills by rows, one row or one component per row is the vector's order);
//!   `m[i]` of an `Rx1` is component `i`, `m[0]` of a `1xC` is the vector; `_mRC`
//!   becomes a swizzle. `mul` with such an operand becomes the product it is:
//!   `mul(M, floatKx1)` is `mul(M, floatK)`, `mul(float1xK, M)` is `mul(floatK, M)`,
//!   and `mul(float1xK, floatKx1)` (a 1x1 matrix) is `dot`; `mul(s, float1xC)` and
//!   `mul(floatRx1, s)` with a one-component `s` are the vector times `s` smeared. Reshapes between the
//!   matrix and its vector, and `transpose`, disappear.
//! * A bool/int/uint `RxC` is an array of its `R` rows (`bool3 m[3]`): `m[i]` is row `i`
//!   as in Cg, and constructors are regrouped into one row constructor per row.
//!
//! Anything else on these types (operators on whole bool matrices, an outer product,
//! casts between shapes) is left alone, so the writer still reports it (E0402).

use crate::ir::{BinaryOp, Builtin, Expr, ExprKind, Exprs, Handle, Literal, Module, Type};
use std::borrow::Cow;

/// Whether GLSL has no type for `ty` (a matrix that is not float-family and >= 2x2).
fn odd(ty: Type) -> bool {
    matches!(ty, Type::Matrix { scalar, rows, cols } if !scalar.is_floating() || rows < 2 || cols < 2)
}

/// Whether an odd matrix type becomes an array of rows (else it becomes a vector).
fn as_rows(ty: Type) -> bool {
    matches!(ty, Type::Matrix { scalar, .. } if !scalar.is_floating())
}

/// Equal types, or both one component of the same scalar (`float1` and `float`).
fn same(a: Type, b: Type) -> bool {
    a == b || (a.components() == Some(1) && b.components() == Some(1) && a.scalar() == b.scalar())
}

fn uses_odd(m: &Module) -> bool {
    let in_exprs = |x: &Exprs| x.iter().any(|(_, e)| odd(e.ty));
    m.functions.iter().any(|(_, f)| in_exprs(&f.exprs) || f.params.iter().any(|p| odd(p.ty)) || odd(f.ret))
        || in_exprs(&m.global_exprs)
        || m.structs.iter().any(|s| s.fields.iter().any(|f| odd(f.ty)))
        || m.globals.iter().any(|(_, g)| odd(g.ty))
        || m.arrays.iter().any(|a| odd(a.elem))
}

/// The type `ty` becomes (arrays of odd matrices included).
fn lower(m: &mut Module, ty: Type) -> Type {
    match ty {
        Type::Matrix { scalar, rows, cols } if odd(ty) => {
            if as_rows(ty) {
                m.array(Type::vec(scalar, cols), Some(u32::from(rows)))
            } else {
                Type::vec(scalar, if rows == 1 { cols } else { rows })
            }
        }
        Type::Array(id) => {
            let a = m.array_type(id);
            if odd(a.elem) || matches!(a.elem, Type::Array(_)) {
                let elem = lower(m, a.elem);
                if elem != a.elem {
                    return m.array(elem, a.len);
                }
            }
            ty
        }
        _ => ty,
    }
}

/// Rewrites the module when it uses such matrices and every use can be rewritten;
/// borrows it unchanged otherwise (the writer then reports what is left).
pub fn lower_odd_matrices(module: &Module) -> Cow<'_, Module> {
    if !uses_odd(module) {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    let handles: Vec<_> = module.functions.iter().map(|(h, _)| h).collect();
    for &h in &handles {
        let params: Vec<Type> = out.functions[h].params.iter().map(|p| p.ty).collect();
        for (i, t) in params.into_iter().enumerate() {
            let t = lower(&mut out, t);
            out.functions[h].params[i].ty = t;
        }
        let ret = out.functions[h].ret;
        out.functions[h].ret = lower(&mut out, ret);
        let locals: Vec<_> = out.functions[h].locals.iter().map(|(l, x)| (l, x.ty)).collect();
        for (l, t) in locals {
            let t = lower(&mut out, t);
            out.functions[h].locals[l].ty = t;
        }
    }
    for s in 0..out.structs.len() {
        for f in 0..out.structs[s].fields.len() {
            let t = out.structs[s].fields[f].ty;
            out.structs[s].fields[f].ty = lower(&mut out, t);
        }
    }
    let globals: Vec<_> = out.globals.iter().map(|(g, x)| (g, x.ty)).collect();
    for (g, t) in globals {
        let t = lower(&mut out, t);
        out.globals[g].ty = t;
    }
    let mut ok = true;
    for &h in &handles {
        let mut exprs = std::mem::take(&mut out.functions[h].exprs);
        ok &= rewrite(&mut out, &module.functions[h].exprs, &mut exprs);
        out.functions[h].exprs = exprs;
    }
    let mut exprs = std::mem::take(&mut out.global_exprs);
    ok &= rewrite(&mut out, &module.global_exprs, &mut exprs);
    out.global_exprs = exprs;
    if ok {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(module)
    }
}

/// A library call with an odd-matrix argument (`mul` of a `float1x4` and a
/// `float4x1` is a `dot`; component-wise functions read the vectors alike). Returns
/// false when the call cannot be rewritten.
fn rewrite_builtin(
    src: &Exprs,
    dst: &mut Exprs,
    h: Handle<Expr>,
    builtin: Builtin,
    args: &[Handle<Expr>],
    ty: Type,
) -> bool {
    let span = src.span(h);
    let builtin = &builtin;
    let types: Vec<Type> = args.iter().map(|&a| src[a].ty).collect();
    let shape = |t: Type| match t {
        Type::Matrix { rows, cols, .. } => Some((rows, cols)),
        _ => None,
    };
    // `mul(s, float1xC)` and `mul(floatRx1, s)` with a one-component `s`: the
    // vector scaled, `s` smeared over it (the one product per component is
    // the same either way round).
    let scaled = match (builtin, types.as_slice()) {
        _ if types.iter().any(|&t| as_rows(t)) => None,
        (Builtin::MulVecMat, &[s, m]) if components(s) == Some(1) && shape(m).is_some_and(|x| x.1 >= 2) => {
            Some((args[0], args[1]))
        }
        (Builtin::MulMatVec, &[m, s]) if components(s) == Some(1) && shape(m).is_some_and(|x| x.0 >= 2) => {
            Some((args[1], args[0]))
        }
        _ => None,
    };
    if let Some((s, v)) = scaled {
        let n = match ty {
            Type::Vector(_, n) => n,
            _ => 1,
        };
        let kind = match src[s].ty {
            Type::Scalar(_) => ExprKind::Splat { value: s },
            _ => ExprKind::Swizzle { base: s, components: vec![0; usize::from(n)] },
        };
        let smeared = dst.append(Expr { kind, ty }, span);
        dst.get_mut(h).kind = ExprKind::Binary { op: BinaryOp::Mul, lhs: smeared, rhs: v };
        return true;
    }
    let new = match (builtin, types.as_slice()) {
        _ if types.iter().any(|&t| as_rows(t)) => None,
        (Builtin::MulMatMat, &[a, b]) => match (shape(a), shape(b)) {
            (Some((1, _)), Some((_, 1))) => Some(Builtin::Dot),
            (Some((ra, _)), Some((_, 1))) if ra >= 2 && !odd(a) => Some(Builtin::MulMatVec),
            (Some((1, _)), Some((_, cb))) if cb >= 2 && !odd(b) => Some(Builtin::MulVecMat),
            _ => None,
        },
        (Builtin::MulMatVec, &[a, _]) if shape(a).is_some_and(|s| s.0 == 1) => Some(Builtin::Dot),
        (Builtin::MulVecMat, &[_, b]) if shape(b).is_some_and(|s| s.1 == 1) => Some(Builtin::Dot),
        (Builtin::Transpose, &[_]) => {
            adopt(dst, h, args[0], ty);
            return true;
        }
        // Component-wise functions read vectors as they read these matrices.
        (b, _) if !matches!(b, Builtin::MulMatMat | Builtin::MulMatVec | Builtin::MulVecMat) => Some(*b),
        _ => None,
    };
    match new {
        Some(b) => dst.get_mut(h).kind = ExprKind::Builtin { builtin: b, args: args.to_vec() },
        None => return false,
    }
    true
}

/// Node `h` (of lowered type `ty`) becomes what its descendant `child` computes: a
/// copy of the child where the types agree; where one is a scalar and the other a
/// one-component vector (a 1x1 product lowered to `dot`, a row of a column matrix),
/// the conversion between them, which prints as nothing.
fn adopt(dst: &mut Exprs, h: Handle<Expr>, child: Handle<Expr>, ty: Type) {
    let kind = match (dst[child].ty, ty) {
        (Type::Vector(s, 1), Type::Scalar(t)) if s == t => ExprKind::Truncate { value: child },
        (Type::Scalar(s), Type::Vector(t, 1)) if s == t => ExprKind::Splat { value: child },
        _ => {
            let copy = dst[child].clone();
            *dst.get_mut(h) = copy;
            return;
        }
    };
    *dst.get_mut(h) = Expr { kind, ty };
}

/// Number of scalar components of a scalar, vector or matrix type.
fn components(ty: Type) -> Option<u32> {
    match ty {
        Type::Scalar(_) => Some(1),
        Type::Vector(_, n) => Some(u32::from(n)),
        Type::Matrix { rows, cols, .. } => Some(u32::from(rows) * u32::from(cols)),
        _ => None,
    }
}

/// Rewrites the nodes of one arena (`src` is the original, `dst` a copy being edited).
/// Children precede parents in an arena, so a node copied from a child is final.
/// Returns false when some use of an odd matrix cannot be rewritten.
fn rewrite(m: &mut Module, src: &Exprs, dst: &mut Exprs) -> bool {
    let handles: Vec<_> = src.iter().map(|(h, _)| h).collect();
    let mut ok = true;
    for h in handles {
        let e = &src[h];
        let span = src.span(h);
        let ty = lower(m, e.ty);
        dst.get_mut(h).ty = ty;
        let odd_child = |c| odd(src[c].ty);
        match &e.kind {
            ExprKind::Construct { args } if odd(e.ty) && as_rows(e.ty) => {
                let Type::Matrix { scalar, rows, cols } = e.ty else { continue };
                let mut groups: Vec<Vec<_>> = Vec::new();
                let (mut cur, mut filled) = (Vec::new(), 0);
                for &a in args {
                    match components(src[a].ty) {
                        Some(n) if !src[a].ty.is_matrix() && filled + n <= u32::from(cols) => {
                            cur.push(a);
                            filled += n;
                        }
                        _ => ok = false,
                    }
                    if filled == u32::from(cols) {
                        groups.push(std::mem::take(&mut cur));
                        filled = 0;
                    }
                }
                if groups.len() != usize::from(rows) || !cur.is_empty() {
                    ok = false;
                    continue;
                }
                let row_ty = Type::vec(scalar, cols);
                let mut row_handles = Vec::new();
                for g in groups {
                    if g.len() == 1 && src[g[0]].ty == row_ty {
                        row_handles.push(g[0]);
                    } else {
                        row_handles.push(dst.append(Expr { kind: ExprKind::Construct { args: g }, ty: row_ty }, span));
                    }
                }
                dst.get_mut(h).kind = ExprKind::Construct { args: row_handles };
            }
            ExprKind::Builtin { builtin, args } if args.iter().any(|&a| odd_child(a)) => {
                ok &= rewrite_builtin(src, dst, h, *builtin, args, ty);
            }
            ExprKind::Reshape { value } | ExprKind::Truncate { value } | ExprKind::Convert { value }
                if odd(e.ty) || odd_child(*value) =>
            {
                let from = lower(m, src[*value].ty);
                if as_rows(e.ty) || as_rows(src[*value].ty) {
                    ok &= same(from, ty);
                    if same(from, ty) {
                        adopt(dst, h, *value, ty);
                    }
                } else if matches!(e.kind, ExprKind::Reshape { .. })
                    || src[*value].ty.is_matrix() && !odd(src[*value].ty)
                {
                    // A reshape between the matrix and its vector is nothing now; a
                    // conversion out of a full matrix has no vector meaning.
                    if same(from, ty) {
                        adopt(dst, h, *value, ty);
                    } else {
                        ok = false;
                    }
                }
            }
            ExprKind::Index { base, index } if odd_child(*base) => match src[*base].ty {
                Type::Matrix { rows: 1, .. } if !as_rows(src[*base].ty) => {
                    if dst[*index].kind == ExprKind::Literal(Literal::Int(0)) {
                        adopt(dst, h, *base, ty);
                    } else {
                        ok = false;
                    }
                }
                // A row of a column matrix is now an element of its vector, a scalar:
                // made the one-component vector the program reads (both print alike).
                Type::Matrix { scalar, cols: 1, .. } if !as_rows(src[*base].ty) => {
                    let element = Expr { kind: e.kind.clone(), ty: Type::Scalar(scalar) };
                    let element = dst.append(element, span);
                    dst.get_mut(h).kind = ExprKind::Splat { value: element };
                }
                _ => {}
            },
            ExprKind::MatrixElements { base, elements } if odd_child(*base) => {
                let Type::Matrix { rows, .. } = src[*base].ty else { continue };
                if as_rows(src[*base].ty) {
                    ok = false;
                    continue;
                }
                let components: Vec<u8> = elements.iter().map(|&(r, c)| if rows == 1 { c } else { r }).collect();
                if matches!(ty, Type::Vector(_, 1) | Type::Scalar(_)) && components == [0] && src[*base].ty.is_matrix()
                {
                    // `_m00` of a 1x1: the value itself.
                    if matches!(lower(m, src[*base].ty), Type::Vector(_, 1)) {
                        adopt(dst, h, *base, ty);
                        continue;
                    }
                }
                dst.get_mut(h).kind = ExprKind::Swizzle { base: *base, components };
            }
            ExprKind::Binary { lhs, rhs, .. } if as_rows(src[*lhs].ty) || as_rows(src[*rhs].ty) => ok = false,
            ExprKind::Unary { operand, .. } if as_rows(src[*operand].ty) => ok = false,
            ExprKind::Splat { .. } | ExprKind::Select { .. } if as_rows(e.ty) => ok = false,
            ExprKind::Assign { op: Some(_), target, .. } if as_rows(src[*target].ty) => ok = false,
            ExprKind::IncDec { target, .. } if odd_child(*target) => ok = false,
            _ => {}
        }
    }
    ok
}
