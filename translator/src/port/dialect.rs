//! The two GLSL dialects a pass is written in, and what each needs of the writer.
//!
//! [`Dialect::Canonical`] is the `.slang` users get: the GLSL 450 that RetroArch
//! compiles with glslang. [`Dialect::Naga`] is the same program for naga's GLSL front
//! end, which the wgpu chain reads: naga lacks some of GLSL (combined samplers, a few
//! library functions, bool-vector `mix`) and evaluates more of it at compile time than
//! glslang (global initialisers, folded non-finite constants). What the IR can say
//! is rewritten for the naga dialect by its own passes ([`super::naga_dialect`]: non-finite
//! constants, bool-vector selects); every other difference is one question here,
//! answered per dialect, so the porting rule lives in one place and the writer only
//! asks. This module decides nothing else and prints nothing.

/// The GLSL a stage is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// RetroArch's slang: glslang reads it.
    Canonical,
    /// naga's GLSL front end reads it (the headless wgpu chain).
    Naga,
}

impl Dialect {
    /// Textures and samplers are separate objects (`texture2D` at binding n, `sampler`
    /// at n + 16), and functions take a sampler argument as a texture and sampler pair.
    pub fn separate_samplers(self) -> bool {
        self == Dialect::Naga
    }

    /// Global initialisers must be constant expressions the compiler can evaluate
    /// (no indexing, matrix element access or library calls); others are assigned at
    /// the top of `main`. Unbound uniforms stay variables too: their value (often zero)
    /// would fold into a constant division by zero, which the compiler rejects.
    pub fn evaluates_global_initialisers(self) -> bool {
        self == Dialect::Naga
    }

    /// Matrices are not built from a vector of all their components or from scalars
    /// in some shapes: the writer builds them from column vectors.
    pub fn builds_matrices_from_columns(self) -> bool {
        self == Dialect::Naga
    }

    /// No `matrixCompMult`: the component-wise product goes through a helper.
    pub fn lacks_matrix_comp_mult(self) -> bool {
        self == Dialect::Naga
    }

    /// Some library functions (`modf`, `frexp` with an int exponent, `outerProduct`,
    /// gathers) need the forms of `back::slang::naga`.
    pub fn rewrites_library_calls(self) -> bool {
        self == Dialect::Naga
    }

    /// A non-void function must end in a `return` (naga appends an implicit `return;`
    /// and rejects it), even when every path returned already.
    pub fn needs_final_return(self) -> bool {
        self == Dialect::Naga
    }

    /// A `for` condition that starts with a type name (`float(i) < n`) reads as a
    /// declaration: conditions are parenthesised.
    pub fn parenthesises_for_conditions(self) -> bool {
        self == Dialect::Naga
    }
}
