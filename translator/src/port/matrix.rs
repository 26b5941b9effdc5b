//! Porting pass: the matrix convention.
//!
//! Cg matrices are row-major in meaning: `floatRxC` has R rows, `M[i]` is row i, and
//! `floatRxC(a, b, ...)` fills row by row. We map Cg `floatRxC` to GLSL `matRxC` (R
//! columns of C rows), which holds the transpose `G = Mᵀ`. Then nothing else moves:
//!
//! | Cg                | GLSL          | why                                       |
//! |-------------------|---------------|-------------------------------------------|
//! | `floatRxC(a,...)` | `matRxC(a,...)` | GLSL fills columns: G's columns are M's rows |
//! | `M[i]`            | `G[i]`        | column i of G is row i of M               |
//! | `M._mRC`          | `G[R][C]`     |                                           |
//! | `mul(M, v)`       | `v * G`       | (M v)ᵀ = vᵀ Mᵀ                            |
//! | `mul(v, M)`       | `G * v`       | vᵀ M = (Mᵀ v)ᵀ                            |
//! | `mul(A, B)`       | `GB * GA`     | (A B)ᵀ = Bᵀ Aᵀ                            |
//! | `transpose(M)`    | `transpose(G)`|                                           |
//! | `A * B` (Cg: per component) | `matrixCompMult(GA, GB)` |                    |
//!
//! The one exception is what the runtime uploads: slang's `MVP` holds the matrix in
//! GLSL's own convention, so `mul(modelViewProj, v)` becomes `MVP * v`, `mul(v,
//! modelViewProj)` becomes `v * MVP`, and any other use reads `transpose(MVP)`.
//! Tests use non-symmetric matrices so that a swapped operand shows.

/// How a `mul` is written, given its two printed operands in Cg order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MulForm {
    MatVec,
    VecMat,
    MatMat,
}

/// The GLSL operand order for a Cg `mul(a, b)`: returns `(left, right)` of `*`.
pub fn glsl_operands<'a>(form: MulForm, a: &'a str, b: &'a str, a_is_mvp: bool, b_is_mvp: bool) -> (&'a str, &'a str) {
    match form {
        // Cg mul(M, v): with MVP uploaded in GLSL convention, MVP * v; else v * G.
        MulForm::MatVec if a_is_mvp => (a, b),
        MulForm::MatVec => (b, a),
        // Cg mul(v, M): v * MVP for the uploaded matrix; else G * v.
        MulForm::VecMat if b_is_mvp => (a, b),
        MulForm::VecMat => (b, a),
        MulForm::MatMat => (b, a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2x3 row-major Cg matrix times a vector, against the GLSL reading of the
    /// emitted `v * G` (G = the transpose held column-major), computed by hand.
    #[test]
    fn mat_vec_with_a_non_symmetric_matrix() {
        let m = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]; // Cg float2x3, rows
        let v = [1.0, 10.0, 100.0];
        let cg: Vec<f64> = m.iter().map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum()).collect();
        // GLSL mat2x3 G: columns are Cg rows; `v * G` gives dot(v, G[j]) per column j.
        let glsl: Vec<f64> = m.iter().map(|col| col.iter().zip(v).map(|(a, b)| a * b).sum()).collect();
        assert_eq!(cg, glsl);
        assert_eq!(cg, vec![321.0, 654.0]);
        assert_eq!(glsl_operands(MulForm::MatVec, "M", "v", false, false), ("v", "M"));
        assert_eq!(glsl_operands(MulForm::MatVec, "MVP", "v", true, false), ("MVP", "v"));
        assert_eq!(glsl_operands(MulForm::VecMat, "v", "M", false, false), ("M", "v"));
        assert_eq!(glsl_operands(MulForm::MatMat, "A", "B", false, false), ("B", "A"));
    }
}
