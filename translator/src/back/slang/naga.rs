//! The naga dialect's needs: what naga's GLSL front end lacks, types differently or
//! folds and rejects, each written as a helper function or another spelling. Never used
//! for the canonical slang text.

use super::*;
use crate::ir::{BinaryOp, Builtin, Expr, ExprKind, Exprs, Handle, Literal, Module, Ported, Type, Var};
use crate::port::stdlib::{glsl_type, paren, Arg, MULTIPLICATIVE, PRIMARY};
use std::collections::HashSet;

impl StageWriter<'_> {
    /// naga composes matrices from column vectors only: any other matrix constructor
    /// (`mat2(vec4)`, `mat2(a, b, c, d)`) goes through a helper that regroups the
    /// components into columns (each argument evaluated once).
    pub(super) fn naga_matrix_construct(
        &mut self,
        exprs: &Exprs,
        args: &[Handle<Expr>],
        ty: Type,
        t: &str,
        parts: &[String],
    ) -> Option<Printed> {
        let Type::Matrix { rows, cols, .. } = ty else { return None };
        let (rows, cols) = (rows as usize, cols as usize);
        let columns =
            args.len() == rows && args.iter().all(|&a| matches!(exprs[a].ty, Type::Vector(_, n) if n as usize == cols));
        // Columns, or scalars only (naga composes those itself).
        let scalars_only = args.iter().all(|&a| matches!(exprs[a].ty, Type::Scalar(_) | Type::Vector(_, 1)));
        if columns || scalars_only {
            return None;
        }
        let mut params = Vec::new();
        let mut scalars = Vec::new();
        let mut signature = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let at = glsl_type(exprs[a].ty)?;
            match exprs[a].ty {
                Type::Vector(_, n) if n > 1 => {
                    scalars.extend("xyzw".chars().take(n as usize).map(|k| format!("a{i}.{k}")))
                }
                Type::Scalar(_) | Type::Vector(_, 1) => scalars.push(format!("a{i}")),
                _ => return None,
            }
            params.push(format!("{at} a{i}"));
            signature.push(at);
        }
        if scalars.len() != rows * cols {
            return None;
        }
        let column_texts: Vec<String> = scalars.chunks(cols).map(|c| format!("vec{cols}({})", c.join(", "))).collect();
        let name = format!("cg_{t}_from_{}", signature.join("_"));
        self.helpers.insert(
            format!("{name}/{t}"),
            format!("{t} {name}({})\n{{\n    return {t}({});\n}}\n", params.join(", "), column_texts.join(", ")),
        );
        Some((format!("{name}({})", parts.join(", ")), PRIMARY))
    }

    /// Builtins naga's GLSL front end lacks or types differently: `modf` (a helper),
    /// `dot` of two scalars (a product), `matrixCompMult` and `frexp` with an `int`
    /// exponent (helpers; `frexp` splits the binary32 bits, which is exact).
    pub(super) fn naga_builtin(&mut self, b: Builtin, args: &[Arg]) -> Option<Printed> {
        match (b, args) {
            // Cg's float-exponent form too (naga has no `frexp` at all).
            (Builtin::Frexp, [x, e]) => {
                let (t, it) = (glsl_type(x.ty)?, glsl_type(e.ty)?);
                self.helpers.insert(
                    // Keyed to sort before the vector forms that call it.
                    "cg_frexp/float".into(),
                    "// frexp of one float by its bits: zero, infinities and NaN give x and e = 0.\n\
                     float cg_frexp1(float x, out int e)\n{\n    int b = floatBitsToInt(x);\n    \
                     int k = (b >> 23) & 255;\n    e = 0;\n    if (k == 0 || k == 255)\n        return x;\n    \
                     e = k - 126;\n    return intBitsToFloat((b & ~0x7f800000) | 0x3f000000);\n}\n"
                        .into(),
                );
                if t == "float" && it == "int" {
                    return Some((format!("cg_frexp1({}, {})", x.text, e.text), PRIMARY));
                }
                let n = match x.ty {
                    Type::Vector(_, n) => usize::from(n),
                    _ => 1,
                };
                // One `int` per component: naga's SPIR-V writer fails on a vector
                // component passed as an `out` argument.
                let comps: Vec<String> = if n == 1 {
                    vec!["cg_frexp1(x, e0)".into()]
                } else {
                    "xyzw".chars().take(n).enumerate().map(|(i, k)| format!("cg_frexp1(x.{k}, e{i})")).collect()
                };
                let ints: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
                let name = format!("cg_frexp_{t}_{it}");
                self.helpers.insert(
                    format!("cg_frexp/{t}_{it}"),
                    format!(
                        "{t} {name}({t} x, out {it} e)\n{{\n    int {ints};\n    {t} m = {t}({});\n    e = {it}({ints});\n    return m;\n}}\n",
                        comps.join(", "),
                        ints = ints.join(", ")
                    ),
                );
                Some((format!("{name}({}, {})", x.text, e.text), PRIMARY))
            }
            (Builtin::MatrixCompMult, [x, y]) => Some((self.matrix_comp_mult(&x.text, &y.text, x.ty), PRIMARY)),
            // naga types GLSL's `outerProduct` with rows and columns swapped: build the
            // columns (Cg's rows `c[i] * r`) in a helper.
            (Builtin::OuterProduct, [c, r]) => {
                let (Type::Vector(s, rows), Type::Vector(_, cols)) = (c.ty, r.ty) else { return None };
                let (t, ct, rt) = (glsl_type(Type::mat(s, rows, cols))?, glsl_type(c.ty)?, glsl_type(r.ty)?);
                let columns: Vec<String> =
                    "xyzw".chars().take(usize::from(rows)).map(|k| format!("r * c.{k}")).collect();
                self.helpers.insert(
                    format!("cg_outerProduct/{ct}_{rt}"),
                    format!(
                        "{t} cg_outerProduct_{ct}_{rt}({ct} c, {rt} r)\n{{\n    return {t}({});\n}}\n",
                        columns.join(", ")
                    ),
                );
                Some((format!("cg_outerProduct_{ct}_{rt}({}, {})", c.text, r.text), PRIMARY))
            }
            (Builtin::Modf, [x, i]) => {
                let t = glsl_type(x.ty)?;
                self.helpers.insert(
                    format!("cg_modf/{t}"),
                    format!("{t} cg_modf({t} x, out {t} i)\n{{\n    i = trunc(x);\n    return x - i;\n}}\n"),
                );
                Some((format!("cg_modf({}, {})", x.text, i.text), PRIMARY))
            }
            (Builtin::Dot, [x, y]) if matches!(x.ty, Type::Scalar(_) | Type::Vector(_, 1)) => {
                Some((format!("{} * {}", paren(x, MULTIPLICATIVE), paren(y, MULTIPLICATIVE + 1)), MULTIPLICATIVE))
            }
            _ => None,
        }
    }
}

/// Whether naga's constant evaluator can fold a global's initialiser: a GLSL constant
/// expression without indexing, matrix element access or builtin calls, naming only
/// constants that are themselves not `deferred` (initialised in `main`).
pub(super) fn naga_constant(
    m: &Module,
    exprs: &Exprs,
    h: Handle<Expr>,
    deferred: &HashSet<Handle<crate::ir::Global>>,
) -> bool {
    let mut work = vec![h];
    while let Some(x) = work.pop() {
        match &exprs[x].kind {
            ExprKind::Var(Var::Global(g)) if m.globals[*g].is_const && !deferred.contains(g) => {}
            ExprKind::Var(_)
            | ExprKind::Ported(Ported::Runtime(_) | Ported::NonFinite(_) | Ported::ComponentSelect { .. })
            | ExprKind::Call { .. }
            | ExprKind::Assign { .. }
            | ExprKind::IncDec { .. }
            | ExprKind::Index { .. }
            | ExprKind::MatrixElements { .. }
            | ExprKind::Select { .. }
            | ExprKind::Builtin { .. } => return false,
            ExprKind::Literal(Literal::Float(f)) if !(*f as f32).is_finite() => return false,
            ExprKind::Binary { op: BinaryOp::Div, .. } if matches!(crate::sema::const_eval::eval_scalar(m, exprs, x, 0), Some(Literal::Float(f)) if !(f as f32).is_finite()) => {
                return false
            }
            k => work.extend(k.children()),
        }
    }
    true
}
