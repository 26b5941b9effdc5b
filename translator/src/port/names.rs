//! Porting pass: GLSL-legal, collision-free names.
//!
//! Cg names are kept wherever GLSL allows them. A name that GLSL reserves (keywords,
//! reserved words, built-in functions and types such as `input`, `texture`, `sample`,
//! `mix`, `fract`), that starts with `gl_` or contains `__`, or that collides with a name
//! the output itself introduces (`Source`, `FragColor`, `params`, helper functions) gets
//! a deterministic suffix. Pure string logic.

use crate::retro::semantics::{Texture, Uniform};
use std::collections::HashSet;

/// GLSL 4.50 keywords, reserved words, built-in types and built-in functions.
const GLSL_RESERVED: &[&str] = &[
    // keywords
    "attribute",
    "const",
    "uniform",
    "varying",
    "buffer",
    "shared",
    "coherent",
    "volatile",
    "restrict",
    "readonly",
    "writeonly",
    "atomic_uint",
    "layout",
    "centroid",
    "flat",
    "smooth",
    "noperspective",
    "patch",
    "sample",
    "break",
    "continue",
    "do",
    "for",
    "while",
    "switch",
    "case",
    "default",
    "if",
    "else",
    "subroutine",
    "in",
    "out",
    "inout",
    "float",
    "double",
    "int",
    "void",
    "bool",
    "true",
    "false",
    "invariant",
    "precise",
    "discard",
    "return",
    "lowp",
    "mediump",
    "highp",
    "precision",
    "struct",
    "uint",
    // reserved for future use
    "common",
    "partition",
    "active",
    "asm",
    "class",
    "union",
    "enum",
    "typedef",
    "template",
    "this",
    "resource",
    "goto",
    "inline",
    "noinline",
    "public",
    "static",
    "extern",
    "external",
    "interface",
    "long",
    "short",
    "half",
    "fixed",
    "unsigned",
    "superp",
    "input",
    "output",
    "hvec2",
    "hvec3",
    "hvec4",
    "fvec2",
    "fvec3",
    "fvec4",
    "sampler3DRect",
    "filter",
    "sizeof",
    "cast",
    "namespace",
    "using",
    // types
    "vec2",
    "vec3",
    "vec4",
    "dvec2",
    "dvec3",
    "dvec4",
    "ivec2",
    "ivec3",
    "ivec4",
    "uvec2",
    "uvec3",
    "uvec4",
    "bvec2",
    "bvec3",
    "bvec4",
    "mat2",
    "mat3",
    "mat4",
    "mat2x2",
    "mat2x3",
    "mat2x4",
    "mat3x2",
    "mat3x3",
    "mat3x4",
    "mat4x2",
    "mat4x3",
    "mat4x4",
    "dmat2",
    "dmat3",
    "dmat4",
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCube",
    "sampler2DShadow",
    "sampler2DArray",
    "texture1D",
    "texture2D",
    "texture3D",
    "textureCube",
    "sampler",
    "samplerShadow",
    "image2D",
    // built-in functions
    "radians",
    "degrees",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "pow",
    "exp",
    "log",
    "exp2",
    "log2",
    "sqrt",
    "inversesqrt",
    "abs",
    "sign",
    "floor",
    "trunc",
    "round",
    "roundEven",
    "ceil",
    "fract",
    "mod",
    "modf",
    "min",
    "max",
    "clamp",
    "mix",
    "step",
    "smoothstep",
    "isnan",
    "isinf",
    "floatBitsToInt",
    "floatBitsToUint",
    "intBitsToFloat",
    "uintBitsToFloat",
    "fma",
    "frexp",
    "ldexp",
    "packUnorm2x16",
    "packSnorm2x16",
    "packUnorm4x8",
    "packSnorm4x8",
    "unpackUnorm2x16",
    "unpackSnorm2x16",
    "unpackUnorm4x8",
    "unpackSnorm4x8",
    "packHalf2x16",
    "unpackHalf2x16",
    "length",
    "distance",
    "dot",
    "cross",
    "normalize",
    "faceforward",
    "reflect",
    "refract",
    "matrixCompMult",
    "outerProduct",
    "transpose",
    "determinant",
    "inverse",
    "lessThan",
    "lessThanEqual",
    "greaterThan",
    "greaterThanEqual",
    "equal",
    "notEqual",
    "any",
    "all",
    "not",
    "textureSize",
    "textureQueryLod",
    "textureQueryLevels",
    "texture",
    "textureProj",
    "textureLod",
    "textureOffset",
    "texelFetch",
    "texelFetchOffset",
    "textureProjOffset",
    "textureLodOffset",
    "textureProjLod",
    "textureGrad",
    "textureGradOffset",
    "textureProjGrad",
    "textureGather",
    "dFdx",
    "dFdy",
    "fwidth",
    "dFdxFine",
    "dFdyFine",
    "dFdxCoarse",
    "dFdyCoarse",
    "interpolateAtCentroid",
    "main",
    "bitCount",
    "bitfieldExtract",
    "bitfieldInsert",
    "bitfieldReverse",
    "findLSB",
    "findMSB",
    "uaddCarry",
    "usubBorrow",
];

/// Names the output introduces besides RetroArch's semantics (varyings, the fragment
/// output, the blocks); Cg names equal to them are renamed, as are those of [`generated`].
pub const GENERATED: &[&str] = &["Position", "TexCoord", "FragColor", "params", "global", "Push", "UBO"];

/// Every name the output may introduce whatever the shader uses: [`GENERATED`], the
/// built-in uniforms the translator emits, `Source` and `Original` and their sizes. The
/// indexed textures and aliases a stage binds are reserved by the writer as it binds them.
pub fn generated() -> impl Iterator<Item = String> {
    let textures = [Texture::Source, Texture::Original].into_iter().flat_map(|t| [t.sampler_name(), t.size_name()]);
    GENERATED.iter().map(|g| (*g).to_owned()).chain(Uniform::BUILTINS.iter().map(Uniform::name)).chain(textures)
}

/// Whether GLSL forbids `name` as an identifier (or it would shadow a built-in).
pub fn is_reserved(name: &str) -> bool {
    name.starts_with("gl_") || name.contains("__") || GLSL_RESERVED_SET.contains(name)
}

/// [`GLSL_RESERVED`] as a set: every name the porting passes hand out is tested against
/// it (a scan of the 243 words was 2 % of a whole-library migration).
static GLSL_RESERVED_SET: std::sync::LazyLock<HashSet<&'static str>> =
    std::sync::LazyLock::new(|| GLSL_RESERVED.iter().copied().collect());

/// Hands out names: each Cg name once legal and unique within its namespace.
#[derive(Clone, Debug, Default)]
pub struct Namer {
    taken: HashSet<String>,
}

impl Namer {
    pub fn new() -> Namer {
        let mut n = Namer::default();
        n.taken.extend(generated());
        n
    }

    /// Marks a name as taken without legalising it (for names the output defines).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_owned());
    }

    /// A legal, unused name as close to `wanted` as possible: `wanted` itself, else
    /// `wanted_` / `wanted_2`, ... (`__` runs collapse to one `_`, `gl_` loses its prefix).
    pub fn name(&mut self, wanted: &str) -> String {
        let candidate = pick(wanted, |n| !self.taken.contains(n));
        self.taken.insert(candidate.clone());
        candidate
    }

    /// A namer for one function's parameters and locals: it avoids every name taken
    /// here and records its own apart, so opening a scope costs nothing however many
    /// names the module holds.
    pub fn scope(&self) -> ScopedNamer<'_> {
        ScopedNamer { outer: self, taken: HashSet::new() }
    }
}

/// Names within one scope over a module's [`Namer`]; see [`Namer::scope`].
#[derive(Debug)]
pub struct ScopedNamer<'a> {
    outer: &'a Namer,
    taken: HashSet<String>,
}

impl ScopedNamer<'_> {
    /// As [`Namer::name`], unique against the outer names and this scope's.
    pub fn name(&mut self, wanted: &str) -> String {
        let candidate = pick(wanted, |n| !self.taken.contains(n) && !self.outer.taken.contains(n));
        self.taken.insert(candidate.clone());
        candidate
    }
}

/// The first legal name for `wanted` that `unused` accepts (the naming rule of [`Namer::name`]).
fn pick(wanted: &str, unused: impl Fn(&str) -> bool) -> String {
    let mut base = wanted.to_owned();
    while base.contains("__") {
        base = base.replace("__", "_");
    }
    if let Some(rest) = base.strip_prefix("gl_") {
        base = format!("cg_{rest}");
    }
    if base.is_empty() {
        base = "v".into();
    }
    let free = |n: &str| unused(n) && !is_reserved(n);
    // Suffixes go on the name without its trailing `_`, so they never form `__`.
    let stem = match base.trim_end_matches('_') {
        "" => "v".to_owned(),
        s => s.to_owned(),
    };
    let mut candidate = base.clone();
    if !free(&candidate) {
        candidate = format!("{stem}_");
    }
    let mut n = 2;
    while !free(&candidate) {
        candidate = format!("{stem}_{n}");
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_avoids_the_outer_names_and_its_own_but_leaves_the_outer_unchanged() {
        let mut outer = Namer::new();
        assert_eq!(outer.name("f"), "f");
        let mut scope = outer.scope();
        assert_eq!(scope.name("f"), "f_");
        assert_eq!(scope.name("f"), "f_2");
        assert_eq!(scope.name("input"), "input_");
        let mut other = outer.scope();
        assert_eq!(other.name("f"), "f_", "a new scope starts from the outer names only");
        assert_eq!(outer.name("f"), "f_", "the outer namer never saw the scope's names");
    }

    #[test]
    fn the_names_the_output_introduces_are_taken_from_the_start() {
        let mut n = Namer::new();
        for name in [
            "Position",
            "TexCoord",
            "FragColor",
            "params",
            "global",
            "Push",
            "UBO",
            "MVP",
            "Source",
            "Original",
            "SourceSize",
            "OriginalSize",
            "OutputSize",
            "FinalViewportSize",
            "FrameCount",
            "FrameDirection",
        ] {
            assert_eq!(n.name(name), format!("{name}_"));
        }
        assert_eq!(generated().count(), 16, "no other name is taken up front");
        assert_eq!(n.name("PassOutput0"), "PassOutput0", "indexed names are reserved as they are bound");
    }

    #[test]
    fn reserved_names_get_a_suffix_and_stay_unique() {
        let mut n = Namer::new();
        assert_eq!(n.name("color"), "color");
        assert_eq!(n.name("input"), "input_");
        assert_eq!(n.name("texture"), "texture_");
        assert_eq!(n.name("sample"), "sample_");
        assert_eq!(n.name("mix"), "mix_");
        assert_eq!(n.name("input"), "input_2");
        assert_eq!(n.name("Source"), "Source_");
        assert_eq!(n.name("gl_thing"), "cg_thing");
        assert_eq!(n.name("a__b"), "a_b");
        assert_eq!(n.name("color"), "color_", "a second `color` in the same namespace");
        // A name ending in `_` must not loop through `x__` forms (reserved for GLSL).
        assert_eq!(n.name("x_"), "x_");
        assert_eq!(n.name("x_"), "x_2");
        assert_eq!(n.name("_"), "_");
        assert_eq!(n.name("_"), "v_");
    }
}
