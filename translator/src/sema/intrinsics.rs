//! The Cg 3.1 standard library as data: for every library name, the concrete overloads
//! (parameter types and directions, return type, [`Builtin`], allowed stages) that the
//! overload resolver chooses among. The table below is written in a small pattern
//! language, one or two lines per function, and expanded once, on first use, into
//! [`Overload`]s ([`overloads`]).
//!
//! This module only describes signatures. It never resolves calls (that is
//! [`super::overload`], which also applies implicit conversions and smears scalars, so no
//! mixed scalar/vector forms are listed unless Cg itself declares them), never says what
//! a builtin computes (that is [`crate::ir::builtin`]), and never mentions GLSL (the
//! writer maps builtins). Looking up a name that is not in the library is an ordinary
//! `None`; nothing here can panic on user input.
//!
//! # Pattern language
//!
//! A table row is `(name, builtin, stages, forms)`; `forms` is a `;`-separated list of
//! signatures `[domain:] ret(param, ...)`, each parameter optionally prefixed by `out ` or
//! `inout `.
//!
//! * The domain names the scalars and shapes a generic form is instantiated over:
//!   scalars `f` (the float family: `float`, `half`, `fixed`, `double`), `F` (`float`
//!   only), `D` (`double` only), `h` (`half` only), `x` (`fixed` only), `i` (`int`), `u` (`uint`), `b` (`bool`); shapes `s` (scalar), `v` (vectors of
//!   1 to 4 components), `w` (vectors of 2 to 4), `m` (matrices 1x1 to 4x4), `M`
//!   (matrices 2x2 to 4x4).
//! * A type is `T` (the domain type), or a scalar word followed by a shape. The scalar
//!   word is `E` (the domain's element scalar) or a Cg scalar name (`float`, `half`,
//!   `fixed`, `double`, `int`, `uint`, `bool`); the shape is empty (scalar), `@` (the
//!   domain's shape), a size (`3`, vector) or `RxC` (matrix). Sizes are digits or the
//!   variables `N`, `R`, `C`, `K`, each ranging over 1 to 4 (so `E(ENxN)` is a function of
//!   every square matrix). Anything else (`sampler2D`, `void`) is a Cg type name.
//!
//! So `floor`'s `"f sv: T(T)"` is the 20 overloads `float floor(float)` ...
//! `double4 floor(double4)`, `lerp`'s `"f v: T(T,T,E)"` is `lerp(floatN, floatN,
//! float)` for every float type, and `"f: ER(ERxC,EC)"` is every
//! matrix-times-column-vector `mul`.
//!
//! # Decisions (see [`crate::ir::builtin`] for sources)
//!
//! The reference is NVIDIA's compiler itself: `shared/reference/cg-stdlib-overloads.tsv`
//! lists the overloads cgc 3.1 declares, per profile, and `tests/stdlib_table.rs` checks
//! this table against it (with the gaps it still has named there). RetroArch compiled
//! with the GLSL profiles (glslv/glslf) on most GPUs and gp4/gp5 on NVIDIA's, so a form
//! either family declares is listed here (`abs(int3)` and `max(int3, int)` are gp4/gp5
//! forms).
//!
//! * Sampler parameters use the specific sampler type (`sampler2D` for `tex2D`); the
//!   resolver accepts the untyped Cg 1.x `sampler` ([`crate::ir::SamplerDim::Any`]) for
//!   any of them by itself. Integer samplers and array/buffer/multisample samplers are
//!   not modelled. The gp4 texel-offset forms (`tex2D(s, uv, int2 offset)`, also after the
//!   derivatives, and the `tex1D`, `tex1Dproj`, `tex2Dproj`, `texRECT`, `texRECTproj`
//!   ones) are the plain variants with one more, trailing, `int`/`int2` argument.
//! * Stages: `ddx`, `ddy`, `fwidth`, `clip` and every texture form whose level of detail
//!   is implicit (plain, shadow, `bias`, `proj`, `cmpbias`) are fragment-only. RetroArch's
//!   Cg runtime used vp40/gp4vp/glslv vertex profiles, where textures are read with an
//!   explicit level; the `lod`, `cmplod`, `fetch`, `size` and explicit-derivative forms
//!   are therefore allowed in both stages.
//! * Component-wise functions take scalars and vectors 1-4 of the float family, never
//!   matrices (cgc declares no matrix forms: `sin(float2x2)` is an error there); `abs`,
//!   `sign`, `min`, `max` and `clamp` also `int` and `uint`. Cg's mixed forms are listed as
//!   it declares them: `clamp(floatN, float, float)` and `lerp(floatN, floatN, float)`
//!   (vectors 1-4), `step(float, floatN)` and `smoothstep(float, float, floatN)` (vectors
//!   1-4), `min`/`max(floatN, float)` (vectors 2-4). Without the scalar-edge forms a
//!   vector `x` would be cut to `.x` by the scalar overload.
//! * `isnan`, `isinf`, `isfinite`, `ddx`, `ddy`, `fwidth`, `clip`, `any`, `all` and the
//!   geometric functions take scalars and vectors (as the Cg pages list them); `any` and
//!   `all` also take numeric operands (true when non-zero). GLSL's relational functions
//!   (`equal`, `notEqual`, `lessThan`, `lessThanEqual`, `greaterThan`,
//!   `greaterThanEqual`, `not`), which cgc declared as well, are GLSL names (W0306 when
//!   called) taking vectors 2-4 of `float`, `double`, `int`, `uint` (and `bool` for
//!   `equal`, `notEqual`, `not`), as cgc lists them.
//! * `dot`, `length`, `distance`, `normalize`, `reflect`, `faceforward` take scalars and
//!   vectors 1-4, `refract` too (with a scalar `eta`); `cross` only 3-vectors. `atan(y,
//!   x)` is declared beside `atan2` and is the same function. `mul`, `transpose`,
//!   `determinant` (square only) and `inverse` (square) are float-family only; `mul` has
//!   the matrix-vector, vector-matrix and matrix-matrix forms, and the two scalar forms
//!   cgc declares: `mul(float, float1xC)` and `mul(floatRx1, float)` (a vector).
//! * `frexp` and `ldexp` take the exponent as `T` (Cg's pages) or as the `int` of `T`'s
//!   shape (GLSL's forms, which cgc declares too). `noise(floatN)` returns a `float`.
//! * GLSL names cgc declares beside those: `matrixCompMult` (float and double matrices
//!   2x2 to 4x4), `outerProduct` (vectors 2-4), `mix` with a `bool` or `boolN` selector (a
//!   select), `texture2DProj` (with an optional bias).
//! * `floatToIntBits`, `floatToRawIntBits` take `float` only, `intBitsToFloat` `int` only
//!   (gp4). The gp5 bit functions take `int` and `uint` scalars and vectors. The packing
//!   functions take `float` or `half` vectors, as Cg declares them.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::ir::types::builtin_type;
use crate::ir::Builtin as B;
use crate::ir::{Builtin, ParamDir, Scalar, Stage, Type};

/// Which stages may call an overload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages {
    pub vertex: bool,
    pub fragment: bool,
}

impl Stages {
    /// Callable from vertex and fragment programs.
    pub const ALL: Stages = Stages { vertex: true, fragment: true };
    /// Callable from fragment programs only.
    pub const FRAGMENT: Stages = Stages { vertex: false, fragment: true };

    /// Whether a program of `stage` may call the overload.
    pub const fn allows(self, stage: Stage) -> bool {
        match stage {
            Stage::Vertex => self.vertex,
            Stage::Fragment => self.fragment,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSig {
    pub ty: Type,
    pub dir: ParamDir,
}

/// One concrete overload of a standard-library function.
#[derive(Clone, Debug, PartialEq)]
pub struct Overload {
    pub builtin: Builtin,
    pub params: Vec<ParamSig>,
    /// The parameter types alone (what overload resolution compares).
    pub param_types: Vec<Type>,
    pub ret: Type,
    pub stages: Stages,
}

/// Every concrete overload of the standard-library function `name`, or `None` when
/// `name` is not a library function.
pub fn overloads(name: &str) -> Option<&'static [Overload]> {
    table().get(name).map(Vec::as_slice)
}

/// Whether `name` is a standard-library function.
pub fn is_stdlib(name: &str) -> bool {
    table().contains_key(name)
}

/// The overloads of `name` when it is one of the GLSL built-ins that NVIDIA's Cg compiler
/// accepted although Cg 3.1's standard library does not declare them (see
/// [`GLSL_ENTRIES`]), or `None`. Callers try these only when neither the program nor the
/// Cg library declares `name`, and warn that a GLSL function was called.
pub fn glsl_overloads(name: &str) -> Option<&'static [Overload]> {
    glsl_table().get(name).map(Vec::as_slice)
}

/// One row of the table: forms of one builtin under one Cg name.
struct Entry {
    name: &'static str,
    builtin: Builtin,
    stages: Stages,
    forms: &'static str,
}

const fn e(name: &'static str, builtin: Builtin, stages: Stages, forms: &'static str) -> Entry {
    Entry { name, builtin, stages, forms }
}

const A: Stages = Stages::ALL;
const P: Stages = Stages::FRAGMENT;

#[rustfmt::skip]
static ENTRIES: &[Entry] = &[
    // Component-wise arithmetic.
    e("abs", B::Abs, A, "fiu sv: T(T)"),
    e("sign", B::Sign, A, "fiu sv: T(T)"),
    e("min", B::Min, A, "fiu sv: T(T,T); fiu w: T(T,E); D: E1(E1,E)"),
    e("max", B::Max, A, "fiu sv: T(T,T); fiu w: T(T,E); D: E1(E1,E)"),
    e("clamp", B::Clamp, A, "fiu sv: T(T,T,T); fiu v: T(T,E,E)"),
    e("saturate", B::Saturate, A, "f sv: T(T)"),
    e("lerp", B::Lerp, A, "f sv: T(T,T,T); f v: T(T,T,E)"),
    e("step", B::Step, A, "f sv: T(T,T); f v: T(E,T)"),
    e("smoothstep", B::Smoothstep, A, "f sv: T(T,T,T); f v: T(E,E,T)"),
    // Rounding.
    e("floor", B::Floor, A, "f sv: T(T)"),
    e("ceil", B::Ceil, A, "f sv: T(T)"),
    e("trunc", B::Trunc, A, "f sv: T(T)"),
    e("round", B::Round, A, "f sv: T(T)"),
    e("frac", B::Frac, A, "f sv: T(T)"),
    e("fmod", B::Fmod, A, "f sv: T(T,T)"),
    e("modf", B::Modf, A, "f sv: T(T, out T)"),
    e("frexp", B::Frexp, A, "f sv: T(T, out T); f sv: T(T, out int@)"),
    e("ldexp", B::Ldexp, A, "f sv: T(T,T); f sv: T(T,int@)"),
    // Exponential, power, roots.
    e("exp", B::Exp, A, "f sv: T(T)"),
    e("exp2", B::Exp2, A, "f sv: T(T)"),
    e("log", B::Log, A, "f sv: T(T)"),
    e("log2", B::Log2, A, "f sv: T(T)"),
    e("log10", B::Log10, A, "f sv: T(T)"),
    e("pow", B::Pow, A, "f sv: T(T,T)"),
    e("sqrt", B::Sqrt, A, "f sv: T(T)"),
    e("rsqrt", B::Rsqrt, A, "f sv: T(T)"),
    // Trigonometry.
    e("sin", B::Sin, A, "f sv: T(T)"),
    e("cos", B::Cos, A, "f sv: T(T)"),
    e("tan", B::Tan, A, "f sv: T(T)"),
    e("asin", B::Asin, A, "f sv: T(T)"),
    e("acos", B::Acos, A, "f sv: T(T)"),
    e("atan", B::Atan, A, "f sv: T(T)"),
    e("atan2", B::Atan2, A, "f sv: T(T,T)"),
    // Cg also declares `atan(y, x)`, the same function as `atan2` (GLSL's spelling).
    e("atan", B::Atan2, A, "f sv: T(T,T)"),
    e("sinh", B::Sinh, A, "f sv: T(T)"),
    e("cosh", B::Cosh, A, "f sv: T(T)"),
    e("tanh", B::Tanh, A, "f sv: T(T)"),
    e("sincos", B::Sincos, A, "f sv: void(T, out T, out T)"),
    e("degrees", B::Degrees, A, "f sv: T(T)"),
    e("radians", B::Radians, A, "f sv: T(T)"),
    // Classification and bit casts.
    e("isnan", B::Isnan, A, "f sv: bool@(T)"),
    e("isinf", B::Isinf, A, "f sv: bool@(T)"),
    e("isfinite", B::Isfinite, A, "f sv: bool@(T)"),
    e("floatToIntBits", B::FloatToIntBits, A, "F sv: int@(T)"),
    e("floatToRawIntBits", B::FloatToRawIntBits, A, "F sv: int@(T)"),
    e("intBitsToFloat", B::IntBitsToFloat, A, "i sv: float@(T)"),
    // Bit manipulation (gp5).
    e("bitCount", B::BitCount, A, "iu sv: int@(T)"),
    e("bitfieldExtract", B::BitfieldExtract, A, "iu sv: T(T,int,int)"),
    e("bitfieldInsert", B::BitfieldInsert, A, "iu sv: T(T,T,int,int)"),
    e("bitfieldReverse", B::BitfieldReverse, A, "iu sv: T(T)"),
    e("findLSB", B::FindLsb, A, "iu sv: int@(T)"),
    e("findMSB", B::FindMsb, A, "iu sv: int@(T)"),
    // Packing.
    e("pack_2half", B::Pack2Half, A, "float(float2); float(half2)"),
    e("pack_2ushort", B::Pack2Ushort, A, "float(float2); float(half2)"),
    e("pack_4byte", B::Pack4Byte, A, "float(float4); float(half4)"),
    e("pack_4ubyte", B::Pack4Ubyte, A, "float(float4); float(half4)"),
    e("unpack_2half", B::Unpack2Half, A, "half2(float)"),
    e("unpack_2ushort", B::Unpack2Ushort, A, "float2(float)"),
    e("unpack_4byte", B::Unpack4Byte, A, "half4(float)"),
    e("unpack_4ubyte", B::Unpack4Ubyte, A, "half4(float)"),
    // Geometry.
    e("dot", B::Dot, A, "f sv: E(T,T)"),
    e("cross", B::Cross, A, "f: E3(E3,E3)"),
    e("length", B::Length, A, "f sv: E(T)"),
    e("distance", B::Distance, A, "f sv: E(T,T)"),
    e("normalize", B::Normalize, A, "f sv: T(T)"),
    e("reflect", B::Reflect, A, "f sv: T(T,T)"),
    e("refract", B::Refract, A, "f sv: T(T,T,E)"),
    e("faceforward", B::Faceforward, A, "f sv: T(T,T,T)"),
    e("lit", B::Lit, A, "f: E4(E,E,E)"),
    e("noise", B::Noise, A, "F sv: float(T)"),
    // Matrices.
    e("mul", B::MulMatVec, A, "f: ER(ERxC,EC)"),
    e("mul", B::MulVecMat, A, "f: EC(ER,ERxC)"),
    e("mul", B::MulMatMat, A, "f: ERxC(ERxK,EKxC)"),
    // A scalar times a one-row matrix, a one-column matrix times a scalar (a vector).
    e("mul", B::MulVecMat, A, "f: EC(E,E1xC)"),
    e("mul", B::MulMatVec, A, "f: ER(ERx1,E)"),
    e("transpose", B::Transpose, A, "f: ECxR(ERxC)"),
    e("determinant", B::Determinant, A, "f: E(ENxN)"),
    e("inverse", B::Inverse, A, "f: ENxN(ENxN)"),
    // Logic.
    e("any", B::Any, A, "bfiu sv: bool(T)"),
    e("all", B::All, A, "bfiu sv: bool(T)"),
    // Fragment-only.
    e("ddx", B::Ddx, A, "f sv: T(T)"),
    e("ddy", B::Ddy, A, "f sv: T(T)"),
    e("fwidth", B::Fwidth, A, "f sv: T(T)"),
    e("clip", B::Clip, P, "f sv: void(T)"),
    // 1D textures.
    e("tex1D", B::Tex1D, P, "float4(sampler1D, float); float4(sampler1D, float, int)"),
    e("tex1D", B::Tex1DShadow, P, "float4(sampler1D, float2); float4(sampler1D, float2, int)"),
    e("tex1D", B::Tex1DGrad, A, "float4(sampler1D, float, float, float); float4(sampler1D, float, float, float, int)"),
    e("tex1D", B::Tex1DShadowGrad, A, "float4(sampler1D, float2, float, float); float4(sampler1D, float2, float, float, int)"),
    e("tex1Dbias", B::Tex1DBias, P, "float4(sampler1D, float4)"),
    e("tex1Dlod", B::Tex1DLod, A, "float4(sampler1D, float4)"),
    e("tex1Dproj", B::Tex1DProj, P, "float4(sampler1D, float2); float4(sampler1D, float2, int)"),
    e("tex1Dproj", B::Tex1DProjShadow, P, "float4(sampler1D, float3); float4(sampler1D, float3, int)"),
    e("tex1Dcmpbias", B::Tex1DCmpBias, P, "float4(sampler1D, float4)"),
    e("tex1Dcmplod", B::Tex1DCmpLod, A, "float4(sampler1D, float4)"),
    e("tex1Dfetch", B::Tex1DFetch, A, "float4(sampler1D, int4)"),
    e("tex1Dsize", B::Tex1DSize, A, "int3(sampler1D, int)"),
    // 2D textures.
    e("tex2D", B::Tex2D, A, "float4(sampler2D, float2)"),
    e("tex2D", B::Tex2D, P, "float4(sampler2D, float2, int2)"),
    e("tex2D", B::Tex2DShadow, P, "float4(sampler2D, float3); float4(sampler2D, float3, int2)"),
    e("tex2D", B::Tex2DGrad, A, "float4(sampler2D, float2, float2, float2); float4(sampler2D, float2, float2, float2, int2)"),
    e("tex2D", B::Tex2DShadowGrad, A, "float4(sampler2D, float3, float2, float2); float4(sampler2D, float3, float2, float2, int2)"),
    e("tex2Dbias", B::Tex2DBias, A, "float4(sampler2D, float4)"),
    e("tex2Dlod", B::Tex2DLod, A, "float4(sampler2D, float4)"),
    e("tex2Dproj", B::Tex2DProj, A, "float4(sampler2D, float3)"),
    e("tex2Dproj", B::Tex2DProj, P, "float4(sampler2D, float3, int2)"),
    e("tex2Dproj", B::Tex2DProjShadow, P, "float4(sampler2D, float4); float4(sampler2D, float4, int2)"),
    e("tex2Dcmpbias", B::Tex2DCmpBias, P, "float4(sampler2D, float4)"),
    e("tex2Dcmplod", B::Tex2DCmpLod, A, "float4(sampler2D, float4)"),
    e("tex2Dfetch", B::Tex2DFetch, A, "float4(sampler2D, int4)"),
    e("tex2Dsize", B::Tex2DSize, A, "int3(sampler2D, int)"),
    // gp5's gather (level 0: no derivatives, so both stages).
    e("tex2Dgather", B::Tex2DGather, A, "float4(sampler2D, float2, int)"),
    e("tex2Dgather", B::Tex2DGatherOffset, A, "float4(sampler2D, float2, int2, int)"),
    // 3D textures.
    e("tex3D", B::Tex3D, P, "float4(sampler3D, float3)"),
    e("tex3D", B::Tex3DGrad, A, "float4(sampler3D, float3, float3, float3)"),
    e("tex3Dbias", B::Tex3DBias, P, "float4(sampler3D, float4)"),
    e("tex3Dlod", B::Tex3DLod, A, "float4(sampler3D, float4)"),
    e("tex3Dproj", B::Tex3DProj, P, "float4(sampler3D, float4)"),
    e("tex3Dfetch", B::Tex3DFetch, A, "float4(sampler3D, int4)"),
    e("tex3Dsize", B::Tex3DSize, A, "int3(sampler3D, int)"),
    // Cube textures.
    e("texCUBE", B::TexCube, P, "float4(samplerCUBE, float3)"),
    e("texCUBE", B::TexCubeShadow, P, "float4(samplerCUBE, float4)"),
    e("texCUBE", B::TexCubeGrad, A, "float4(samplerCUBE, float3, float3, float3)"),
    e("texCUBE", B::TexCubeShadowGrad, A, "float4(samplerCUBE, float4, float3, float3)"),
    e("texCUBEbias", B::TexCubeBias, P, "float4(samplerCUBE, float4)"),
    e("texCUBElod", B::TexCubeLod, A, "float4(samplerCUBE, float4)"),
    e("texCUBEproj", B::TexCubeProj, P, "float4(samplerCUBE, float4)"),
    e("texCUBEsize", B::TexCubeSize, A, "int3(samplerCUBE, int)"),
    // Rectangle textures.
    e("texRECT", B::TexRect, P, "float4(samplerRECT, float2); float4(samplerRECT, float2, int2)"),
    e("texRECT", B::TexRectShadow, P, "float4(samplerRECT, float3); float4(samplerRECT, float3, int2)"),
    e("texRECT", B::TexRectGrad, A, "float4(samplerRECT, float2, float2, float2); float4(samplerRECT, float2, float2, float2, int2)"),
    e("texRECT", B::TexRectShadowGrad, A, "float4(samplerRECT, float3, float2, float2); float4(samplerRECT, float3, float2, float2, int2)"),
    e("texRECTbias", B::TexRectBias, P, "float4(samplerRECT, float4)"),
    e("texRECTlod", B::TexRectLod, A, "float4(samplerRECT, float4)"),
    e("texRECTproj", B::TexRectProj, P, "float4(samplerRECT, float3); float4(samplerRECT, float3, int2)"),
    e("texRECTproj", B::TexRectProjShadow, P, "float4(samplerRECT, float4); float4(samplerRECT, float4, int2)"),
    e("texRECTfetch", B::TexRectFetch, A, "float4(samplerRECT, int4)"),
    e("texRECTsize", B::TexRectSize, A, "int3(samplerRECT, int)"),
];

/// GLSL built-ins called by real RetroArch Cg shaders (common-shaders: `fract` in 16
/// files, `mod` in 13, `mix` in 4, `texelFetchOffset` in `lcd-grid-v2-nvidia.cg`), and
/// the other GLSL names cgc 3.1 declares, that Cg 3.1's documented library lacks. NVIDIA's compiler, whose front end its
/// GLSL compiler shared, accepted them; RetroArch's Cg runtime ran on it. Each keeps its
/// GLSL meaning: `fract` is [`B::Frac`] (same definition), `mix` is [`B::Lerp`] (the
/// writer already emits `mix` for `lerp`), `mod` floors ([`B::GlslMod`], unlike `fmod`),
/// and `texelFetchOffset` is [`B::Tex2DFetchOffset`]. Only the GLSL shapes are listed
/// (scalars and vectors; `mix` and `mod` with a scalar last operand).
#[rustfmt::skip]
static GLSL_ENTRIES: &[Entry] = &[
    e("fract", B::Frac, A, "f sv: T(T)"),
    // cgc 3.1's own declarations of GLSL names (cg-stdlib-overloads.tsv): derivatives
    // for float/half/fixed scalars and 2-4 vectors, `inversesqrt` for float (and double
    // in gp5), `roundEven` (gp5; Cg's `round` already rounds ties to even), and
    // gp4's `floatBitsToInt` (the raw bits, as `floatToRawIntBits`), `floatBitsToUint` and
    // `uintBitsToFloat`, and gp5's `fma` (float and double).
    e("dFdx", B::Ddx, A, "Fhx sw: T(T)"),
    e("dFdy", B::Ddy, A, "Fhx sw: T(T)"),
    e("inversesqrt", B::Rsqrt, A, "FD sv: T(T)"),
    e("roundEven", B::Round, A, "f sv: T(T)"),
    e("floatBitsToInt", B::FloatToRawIntBits, A, "F sv: int@(T)"),
    e("floatBitsToUint", B::FloatBitsToUint, A, "F sv: uint@(T)"),
    e("uintBitsToFloat", B::UintBitsToFloat, A, "u sv: float@(T)"),
    e("fma", B::Fma, A, "FD sv: T(T,T,T)"),
    // The relational functions (vectors 2-4 only).
    e("equal", B::Equal, A, "FDiub w: bool@(T,T)"),
    e("notEqual", B::NotEqual, A, "FDiub w: bool@(T,T)"),
    e("lessThan", B::LessThan, A, "FDiu w: bool@(T,T)"),
    e("lessThanEqual", B::LessThanEqual, A, "FDiu w: bool@(T,T)"),
    e("greaterThan", B::GreaterThan, A, "FDiu w: bool@(T,T)"),
    e("greaterThanEqual", B::GreaterThanEqual, A, "FDiu w: bool@(T,T)"),
    e("not", B::Not, A, "b w: T(T)"),
    e("mix", B::Lerp, A, "f sv: T(T,T,T); f v: T(T,T,E)"),
    // GLSL's select form of `mix` (a bool selector, per component or for all of them).
    e("mix", B::MixSelect, A, "f sv: T(T,T,bool); f w: T(T,T,bool@)"),
    // GLSL's matrix functions (2x2 to 4x4; double in gp5).
    e("matrixCompMult", B::MatrixCompMult, A, "FD M: T(T,T)"),
    e("outerProduct", B::OuterProduct, A, concat!(
        "FD: E2x2(E2,E2); FD: E2x3(E2,E3); FD: E2x4(E2,E4); FD: E3x2(E3,E2); FD: E3x3(E3,E3); ",
        "FD: E3x4(E3,E4); FD: E4x2(E4,E2); FD: E4x3(E4,E3); FD: E4x4(E4,E4)")),
    // GLSL's projective lookup, as cgc declared it (with an optional bias).
    e("texture2DProj", B::Tex2DProj, P, "float4(sampler2D, float3)"),
    e("texture2DProj", B::Tex2DProjShadow, P, "float4(sampler2D, float4)"),
    e("texture2DProj", B::Texture2DProjBias, P, "float4(sampler2D, float3, float)"),
    e("texture2DProj", B::Texture2DProj4Bias, P, "float4(sampler2D, float4, float)"),
    e("mod", B::GlslMod, A, "f sv: T(T,T); f v: T(T,E)"),
    e("texelFetchOffset", B::Tex2DFetchOffset, A, "float4(sampler2D, int2, int, int2)"),
];

/// The expanded table, built on first use.
fn table() -> &'static HashMap<&'static str, Vec<Overload>> {
    static TABLE: OnceLock<HashMap<&'static str, Vec<Overload>>> = OnceLock::new();
    TABLE.get_or_init(|| expand_entries(ENTRIES))
}

/// The expanded [`GLSL_ENTRIES`], built on first use.
fn glsl_table() -> &'static HashMap<&'static str, Vec<Overload>> {
    static TABLE: OnceLock<HashMap<&'static str, Vec<Overload>>> = OnceLock::new();
    TABLE.get_or_init(|| expand_entries(GLSL_ENTRIES))
}

fn expand_entries(entries: &[Entry]) -> HashMap<&'static str, Vec<Overload>> {
    let mut map: HashMap<&'static str, Vec<Overload>> = HashMap::new();
    for entry in entries {
        let list = map.entry(entry.name).or_default();
        for form in entry.forms.split(';') {
            // The tables are static and every row is expanded by the tests, so a
            // malformed row is a bug found before any user input reaches this.
            Form::parse(form)
                .and_then(|f| f.expand(entry, list))
                .unwrap_or_else(|err| panic!("intrinsics table, `{}` form `{form}`: {err}", entry.name));
        }
    }
    map
}

/// A size in a pattern: a literal or one of the variables `N`, `R`, `C`, `K`.
#[derive(Clone, Copy)]
enum Dim {
    Lit(u8),
    Var(usize),
}

const DIM_VARS: [char; 4] = ['N', 'R', 'C', 'K'];

#[derive(Clone, Copy)]
enum Shape {
    Scalar,
    /// `@`: the shape of the domain type.
    Domain,
    Vector(Dim),
    Matrix(Dim, Dim),
}

/// A parameter or return type in a pattern.
#[derive(Clone, Copy)]
enum Pattern {
    /// `elem: None` is `E`, the domain's element scalar.
    Numeric {
        elem: Option<Scalar>,
        shape: Shape,
    },
    Concrete(Type),
}

/// Scalar words, longest match first where one is a prefix of another.
const SCALAR_WORDS: [(&str, Option<Scalar>); 8] = [
    ("E", None),
    ("double", Some(Scalar::Double)),
    ("float", Some(Scalar::Float)),
    ("fixed", Some(Scalar::Fixed)),
    ("half", Some(Scalar::Half)),
    ("bool", Some(Scalar::Bool)),
    ("uint", Some(Scalar::UInt)),
    ("int", Some(Scalar::Int)),
];

fn parse_dim(text: &str) -> Option<Dim> {
    let mut chars = text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    match c {
        '1'..='4' => Some(Dim::Lit(c as u8 - b'0')),
        _ => DIM_VARS.iter().position(|&v| v == c).map(Dim::Var),
    }
}

fn parse_shape(text: &str) -> Option<Shape> {
    match text {
        "" => Some(Shape::Scalar),
        "@" => Some(Shape::Domain),
        _ => match text.split_once('x') {
            Some((r, c)) => Some(Shape::Matrix(parse_dim(r)?, parse_dim(c)?)),
            None => Some(Shape::Vector(parse_dim(text)?)),
        },
    }
}

fn parse_type(text: &str) -> Result<Pattern, String> {
    if text == "T" {
        return Ok(Pattern::Numeric { elem: None, shape: Shape::Domain });
    }
    for (word, elem) in SCALAR_WORDS {
        if let Some(shape) = text.strip_prefix(word).and_then(parse_shape) {
            return Ok(Pattern::Numeric { elem, shape });
        }
    }
    builtin_type(text).map(Pattern::Concrete).ok_or_else(|| format!("unknown type `{text}`"))
}

/// One parsed signature with its domain.
struct Form {
    scalars: Vec<Scalar>,
    /// Domain shapes, as `float` types to be re-scalared.
    shapes: Vec<Type>,
    ret: Pattern,
    params: Vec<(ParamDir, Pattern)>,
}

impl Form {
    fn parse(text: &str) -> Result<Form, String> {
        let (domain, sig) = match text.split_once(':') {
            Some((d, s)) => (d.trim(), s.trim()),
            None => ("", text.trim()),
        };
        let mut words = domain.split_whitespace();
        let mut scalars = Vec::new();
        for c in words.next().unwrap_or("").chars() {
            scalars.extend_from_slice(match c {
                'f' => &[Scalar::Float, Scalar::Half, Scalar::Fixed, Scalar::Double][..],
                'F' => &[Scalar::Float],
                'D' => &[Scalar::Double],
                'h' => &[Scalar::Half],
                'x' => &[Scalar::Fixed],
                'i' => &[Scalar::Int],
                'u' => &[Scalar::UInt],
                'b' => &[Scalar::Bool],
                _ => return Err(format!("unknown scalar class `{c}`")),
            });
        }
        let mut shapes = Vec::new();
        for c in words.next().unwrap_or("").chars() {
            match c {
                's' => shapes.push(Type::FLOAT),
                'v' => shapes.extend((1..=4).map(|n| Type::vec(Scalar::Float, n))),
                'w' => shapes.extend((2..=4).map(|n| Type::vec(Scalar::Float, n))),
                'M' => shapes.extend((2..=4).flat_map(|r| (2..=4).map(move |c| Type::mat(Scalar::Float, r, c)))),
                'm' => shapes.extend((1..=4).flat_map(|r| (1..=4).map(move |c| Type::mat(Scalar::Float, r, c)))),
                _ => return Err(format!("unknown shape class `{c}`")),
            }
        }
        if words.next().is_some() {
            return Err("too many words in the domain".into());
        }
        let (ret, rest) = sig.split_once('(').ok_or("missing `(`")?;
        let inner = rest.strip_suffix(')').ok_or("missing `)`")?;
        let mut params = Vec::new();
        for p in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (dir, ty) = if let Some(t) = p.strip_prefix("out ") {
                (ParamDir::Out, t)
            } else if let Some(t) = p.strip_prefix("inout ") {
                (ParamDir::InOut, t)
            } else {
                (ParamDir::In, p)
            };
            params.push((dir, parse_type(ty.trim())?));
        }
        let form = Form { scalars, shapes, ret: parse_type(ret.trim())?, params };
        // A domain part that no type uses is a typo in the table.
        let pats = || std::iter::once(&form.ret).chain(form.params.iter().map(|(_, p)| p));
        let uses_elem = pats().any(|p| matches!(p, Pattern::Numeric { elem: None, .. }));
        let uses_shape = pats().any(|p| matches!(p, Pattern::Numeric { shape: Shape::Domain, .. }));
        if uses_elem == form.scalars.is_empty() || uses_shape == form.shapes.is_empty() {
            return Err("domain and types disagree".into());
        }
        Ok(form)
    }

    /// Appends every instantiation of the form to `out`.
    fn expand(&self, entry: &Entry, out: &mut Vec<Overload>) -> Result<(), String> {
        let mut vars = [false; 4];
        for p in std::iter::once(&self.ret).chain(self.params.iter().map(|(_, p)| p)) {
            if let Pattern::Numeric { shape: Shape::Vector(d) | Shape::Matrix(d, _), .. } = *p {
                mark(&mut vars, d);
            }
            if let Pattern::Numeric { shape: Shape::Matrix(_, d), .. } = *p {
                mark(&mut vars, d);
            }
        }
        let mut dims = vec![[0u8; 4]];
        for (i, _) in vars.iter().enumerate().filter(|(_, &used)| used) {
            dims = dims.iter().flat_map(|d| (1..=4).map(move |n| with(*d, i, n))).collect();
        }
        let scalars: Vec<Option<Scalar>> =
            if self.scalars.is_empty() { vec![None] } else { self.scalars.iter().copied().map(Some).collect() };
        let shapes: Vec<Option<Type>> =
            if self.shapes.is_empty() { vec![None] } else { self.shapes.iter().copied().map(Some).collect() };
        for &scalar in &scalars {
            for &shape in &shapes {
                for d in &dims {
                    let inst = |p: &Pattern| resolve(p, scalar, shape, d);
                    let params = self
                        .params
                        .iter()
                        .map(|(dir, p)| Ok(ParamSig { ty: inst(p)?, dir: *dir }))
                        .collect::<Result<Vec<_>, String>>()?;
                    out.push(Overload {
                        builtin: entry.builtin,
                        param_types: params.iter().map(|p| p.ty).collect(),
                        params,
                        ret: inst(&self.ret)?,
                        stages: entry.stages,
                    });
                }
            }
        }
        Ok(())
    }
}

fn mark(vars: &mut [bool; 4], d: Dim) {
    if let Dim::Var(i) = d {
        vars[i] = true;
    }
}

fn with(mut d: [u8; 4], i: usize, n: u8) -> [u8; 4] {
    d[i] = n;
    d
}

fn resolve(p: &Pattern, scalar: Option<Scalar>, domain: Option<Type>, dims: &[u8; 4]) -> Result<Type, String> {
    let (elem, shape) = match *p {
        Pattern::Concrete(t) => return Ok(t),
        Pattern::Numeric { elem, shape } => (elem, shape),
    };
    let s = elem.or(scalar).ok_or("`E` or `T` without domain scalars")?;
    let size = |d: Dim| match d {
        Dim::Lit(n) => n,
        Dim::Var(i) => dims[i],
    };
    Ok(match shape {
        Shape::Scalar => Type::Scalar(s),
        Shape::Domain => domain.ok_or("`@` or `T` without domain shapes")?.with_scalar(s),
        Shape::Vector(n) => Type::vec(s, size(n)),
        Shape::Matrix(r, c) => Type::mat(s, size(r), size(c)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::SamplerDim;
    use std::collections::HashSet;

    fn ty(name: &str) -> Type {
        builtin_type(name).unwrap_or_else(|| panic!("test uses unknown type {name}"))
    }

    fn find(name: &str, params: &[&str]) -> Option<&'static Overload> {
        let want: Vec<Type> = params.iter().map(|p| ty(p)).collect();
        overloads(name)?.iter().find(|o| o.params.iter().map(|p| p.ty).eq(want.iter().copied()))
    }

    fn sig(name: &str, params: &[&str]) -> &'static Overload {
        find(name, params).unwrap_or_else(|| panic!("no {name}{params:?}"))
    }

    fn all() -> impl Iterator<Item = (&'static str, &'static Overload)> {
        table().iter().flat_map(|(name, list)| list.iter().map(move |o| (*name, o)))
    }

    #[test]
    fn intrinsics_every_builtin_is_reachable_under_its_own_name() {
        let mut reached = HashSet::new();
        for (name, o) in all() {
            // Cg declares `atan(y, x)` beside `atan2`.
            let second_name = name == "atan" && o.builtin == Builtin::Atan2;
            assert!(o.builtin.name() == name || second_name, "{:?} is filed under `{name}`", o.builtin);
            reached.insert(o.builtin);
        }
        // The GLSL-only builtins are reachable through the GLSL names alone.
        for (name, list) in glsl_table() {
            assert!(!is_stdlib(name), "`{name}` is a Cg name too");
            for o in list {
                reached.insert(o.builtin);
            }
        }
        for b in Builtin::ALL {
            assert!(reached.contains(b), "{b:?} has no overload");
        }
    }

    #[test]
    fn intrinsics_no_two_overloads_share_parameter_types() {
        for (name, list) in table() {
            let mut seen = HashSet::new();
            for o in list {
                let key: Vec<Type> = o.params.iter().map(|p| p.ty).collect();
                assert!(seen.insert(key), "`{name}` is ambiguous for {:?}", o.params);
            }
        }
    }

    #[test]
    fn intrinsics_types_are_concrete_and_samplers_specific() {
        for (name, o) in all() {
            for t in o.params.iter().map(|p| p.ty).chain([o.ret]) {
                assert!(!t.scalar().is_some_and(Scalar::is_compile_time), "`{name}` uses {t}");
                assert_ne!(t, Type::Sampler(SamplerDim::Any), "`{name}` takes the untyped sampler");
            }
            assert!(o.stages.vertex || o.stages.fragment, "`{name}` is callable nowhere");
            if name.starts_with("tex") {
                assert!(o.params[0].ty.is_sampler(), "`{name}` lacks its sampler");
                let want = if name.ends_with("size") { ty("int3") } else { ty("float4") };
                assert_eq!(o.ret, want, "`{name}`");
            }
        }
        assert!(overloads("tex2D").is_some_and(|l| l.iter().all(|o| o.params[0].ty == Type::Sampler(SamplerDim::D2))));
    }

    #[test]
    fn intrinsics_spot_checks() {
        assert_eq!(sig("mul", &["float3x4", "float4"]).ret, ty("float3"));
        assert_eq!(sig("mul", &["float3x4", "float4"]).builtin, Builtin::MulMatVec);
        assert_eq!(sig("mul", &["float3", "float3x4"]).ret, ty("float4"));
        assert_eq!(sig("mul", &["float3", "float3x4"]).builtin, Builtin::MulVecMat);
        assert_eq!(sig("mul", &["float2x3", "float3x4"]).ret, ty("float2x4"));
        assert_eq!(sig("mul", &["half4x4", "half4x4"]).builtin, Builtin::MulMatMat);
        assert!(find("mul", &["float", "float"]).is_none());
        assert_eq!(sig("mul", &["float", "float1x3"]).ret, ty("float3"));
        assert_eq!(sig("mul", &["half4x1", "half"]).ret, ty("half4"));
        assert_eq!(sig("mul", &["float", "float1x1"]).ret, ty("float1"));
        let frexp = sig("frexp", &["float2", "int2"]);
        assert_eq!((frexp.ret, frexp.params[1].dir), (ty("float2"), ParamDir::Out));
        assert_eq!(sig("ldexp", &["double3", "int3"]).ret, ty("double3"));
        assert_eq!(sig("noise", &["float3"]).ret, Type::FLOAT);
        assert!(find("mul", &["float3x4", "float3"]).is_none());
        assert_eq!(sig("lerp", &["half3", "half3", "half"]).ret, ty("half3"));
        assert!(find("lerp", &["float2x2", "float2x2", "float"]).is_none());
        assert!(find("lerp", &["float2x2", "float2x2", "float2x2"]).is_none());
        assert_eq!(sig("clamp", &["float3", "float", "float"]).ret, ty("float3"));
        assert_eq!(sig("dot", &["float4", "float4"]).ret, Type::FLOAT);
        assert_eq!(sig("dot", &["float", "float"]).ret, Type::FLOAT);
        assert_eq!(sig("length", &["half2"]).ret, ty("half"));
        assert_eq!(sig("abs", &["int2"]).ret, ty("int2"));
        assert!(find("abs", &["float2x3"]).is_none());
        assert!(find("sin", &["float2x2"]).is_none());
        assert_eq!(sig("abs", &["uint2"]).ret, ty("uint2"));
        assert_eq!(sig("step", &["float", "float3"]).ret, ty("float3"));
        assert_eq!(sig("smoothstep", &["half", "half", "half4"]).ret, ty("half4"));
        assert_eq!(sig("max", &["float3", "float"]).ret, ty("float3"));
        assert!(find("max", &["float1", "float"]).is_none());
        assert_eq!(sig("atan", &["float2", "float2"]).builtin, Builtin::Atan2);
        assert_eq!(sig("max", &["uint3", "uint3"]).ret, ty("uint3"));
        assert_eq!(sig("any", &["bool3"]).ret, Type::BOOL);
        assert_eq!(sig("all", &["float2"]).ret, Type::BOOL);
        assert_eq!(sig("isnan", &["float2"]).ret, ty("bool2"));
        assert_eq!(sig("determinant", &["float3x3"]).ret, Type::FLOAT);
        assert!(find("determinant", &["float2x3"]).is_none());
        assert_eq!(sig("transpose", &["float2x3"]).ret, ty("float3x2"));
        assert_eq!(sig("inverse", &["double4x4"]).ret, ty("double4x4"));
        assert_eq!(sig("lit", &["float", "float", "float"]).ret, ty("float4"));
        assert_eq!(sig("refract", &["float3", "float3", "float"]).ret, ty("float3"));
        assert_eq!(sig("refract", &["float4", "float4", "float"]).ret, ty("float4"));
        assert_eq!(sig("floatToIntBits", &["float3"]).ret, ty("int3"));
        assert_eq!(sig("intBitsToFloat", &["int"]).ret, Type::FLOAT);
        assert_eq!(sig("bitfieldInsert", &["uint2", "uint2", "int", "int"]).ret, ty("uint2"));
        assert_eq!(sig("unpack_4ubyte", &["float"]).ret, ty("half4"));
        assert_eq!(sig("pack_2half", &["half2"]).ret, Type::FLOAT);

        let cross = overloads("cross").expect("cross");
        assert_eq!(cross.len(), 4);
        for o in cross {
            let s = o.ret.scalar().expect("numeric");
            assert!(s.is_floating() && o.ret == Type::vec(s, 3));
            assert!(o.params.iter().all(|p| p.ty == o.ret));
        }

        for o in overloads("fmod").expect("fmod") {
            assert!(o.params.iter().all(|p| p.ty.scalar().is_some_and(Scalar::is_floating)));
        }
        assert!(find("fmod", &["int", "int"]).is_none());
        assert!(overloads("%").is_none() && !is_stdlib("%") && !is_stdlib("main"));
        assert!(is_stdlib("tex2Dproj") && is_stdlib("pack_4ubyte"));

        let sincos = sig("sincos", &["float2", "float2", "float2"]);
        let dirs: Vec<ParamDir> = sincos.params.iter().map(|p| p.dir).collect();
        assert_eq!(dirs, [ParamDir::In, ParamDir::Out, ParamDir::Out]);
        assert_eq!(sincos.ret, Type::Void);
        assert_eq!(sig("modf", &["half", "half"]).params[1].dir, ParamDir::Out);
        assert_eq!(sig("frexp", &["float4", "float4"]).params[1].dir, ParamDir::Out);

        let tex2d = sig("tex2D", &["sampler2D", "float2"]);
        // cgc's vertex profiles declare the implicit-level lookups too (glslv, gp5vp).
        assert_eq!((tex2d.ret, tex2d.builtin, tex2d.stages), (ty("float4"), Builtin::Tex2D, Stages::ALL));
        assert_eq!(sig("tex2Dbias", &["sampler2D", "float4"]).stages, Stages::ALL);
        assert_eq!(sig("tex2Dproj", &["sampler2D", "float3"]).stages, Stages::ALL);
        assert_eq!(sig("texRECT", &["samplerRECT", "float2"]).stages, Stages::FRAGMENT);
        assert_eq!(sig("tex2D", &["sampler2D", "float2", "float2", "float2"]).stages, Stages::ALL);
        assert_eq!(sig("tex2Dlod", &["sampler2D", "float4"]).stages, Stages::ALL);
        assert_eq!(sig("tex2Dproj", &["sampler2D", "float3"]).builtin, Builtin::Tex2DProj);
        assert_eq!(sig("tex2Dproj", &["sampler2D", "float4"]).builtin, Builtin::Tex2DProjShadow);
        assert_eq!(sig("tex2Dsize", &["sampler2D", "int"]).ret, ty("int3"));
        assert_eq!(sig("tex2Dfetch", &["sampler2D", "int4"]).stages, Stages::ALL);
        assert_eq!(sig("texCUBE", &["samplerCUBE", "float3"]).builtin, Builtin::TexCube);
        assert_eq!(sig("texRECT", &["samplerRECT", "float2"]).builtin, Builtin::TexRect);
        assert!(find("tex2D", &["sampler", "float2"]).is_none());
        let offset = sig("tex2D", &["sampler2D", "float2", "int2"]);
        assert_eq!((offset.builtin, offset.stages), (Builtin::Tex2D, Stages::FRAGMENT));
        let grad = sig("texRECT", &["samplerRECT", "float3", "float2", "float2", "int2"]);
        assert_eq!((grad.builtin, grad.stages), (Builtin::TexRectShadowGrad, Stages::ALL));
        assert_eq!(sig("tex1Dproj", &["sampler1D", "float3", "int"]).builtin, Builtin::Tex1DProjShadow);
        let gather = sig("tex2Dgather", &["sampler2D", "float2", "int2", "int"]);
        assert_eq!((gather.builtin, gather.stages), (Builtin::Tex2DGatherOffset, Stages::ALL));

        for name in ["ddx", "ddy", "fwidth"] {
            assert!(overloads(name).expect(name).iter().all(|o| o.stages == Stages::ALL), "{name}");
        }
        for name in ["dFdx", "dFdy"] {
            assert!(glsl_overloads(name).expect(name).iter().all(|o| o.stages == Stages::ALL), "{name}");
        }
        assert!(overloads("clip").expect("clip").iter().all(|o| o.stages == Stages::FRAGMENT), "clip");
        assert!(Stages::FRAGMENT.allows(Stage::Fragment) && !Stages::FRAGMENT.allows(Stage::Vertex));
    }

    #[test]
    fn intrinsics_glsl_names() {
        let glsl = |name: &str, args: &[&str]| -> Option<&'static Overload> {
            let want: Vec<Type> = args.iter().map(|a| ty(a)).collect();
            glsl_overloads(name)?.iter().find(|o| o.param_types == want)
        };
        assert_eq!(glsl("fract", &["float2"]).map(|o| o.builtin), Some(Builtin::Frac));
        assert_eq!(glsl("mix", &["float3", "float3", "float"]).map(|o| o.builtin), Some(Builtin::Lerp));
        assert_eq!(
            glsl("mod", &["float3", "float"]).map(|o| (o.builtin, o.ret)),
            Some((Builtin::GlslMod, ty("float3")))
        );
        assert!(glsl("mod", &["float3x3", "float3x3"]).is_none());
        let fetch = glsl("texelFetchOffset", &["sampler2D", "int2", "int", "int2"]).expect("texelFetchOffset");
        assert_eq!((fetch.builtin, fetch.ret), (Builtin::Tex2DFetchOffset, ty("float4")));
        assert!(glsl_overloads("frac").is_none() && overloads("fract").is_none());
        let select = glsl("mix", &["float3", "float3", "bool3"]).expect("mix select");
        assert_eq!((select.builtin, select.ret), (Builtin::MixSelect, ty("float3")));
        assert_eq!(glsl("mix", &["half2", "half2", "bool"]).map(|o| o.builtin), Some(Builtin::MixSelect));
        assert!(glsl("mix", &["float", "float", "bool2"]).is_none());
        let outer = glsl("outerProduct", &["float2", "float3"]).expect("outerProduct");
        assert_eq!((outer.builtin, outer.ret), (Builtin::OuterProduct, ty("float2x3")));
        assert!(glsl("outerProduct", &["float1", "float3"]).is_none());
        assert_eq!(glsl("matrixCompMult", &["double3x2", "double3x2"]).map(|o| o.ret), Some(ty("double3x2")));
        assert!(glsl("matrixCompMult", &["float1x3", "float1x3"]).is_none());
        let proj = glsl("texture2DProj", &["sampler2D", "float4", "float"]).expect("texture2DProj bias");
        assert_eq!((proj.builtin, proj.stages), (Builtin::Texture2DProj4Bias, Stages::FRAGMENT));
    }

    #[test]
    fn intrinsics_patterns_reject_typos() {
        for bad in
            ["q svm: T(T)", "f svm: E(E)", "f: T(T)", "f s: float(float)", "f svm: T(T", "f sv: T(Tx)", "f: E5(E5)"]
        {
            assert!(Form::parse(bad).is_err(), "`{bad}` parsed");
        }
    }

    // Summary of the expanded table (update deliberately when the table changes):
    // 113 names, 2031 overloads. Component-wise float functions have 20 overloads each
    // (float, half, fixed, double x scalar and 4 vectors; no matrices, as in cgc); abs
    // and sign 30 (+int, uint), min and max 49 (+int, uint, + 18 vector-scalar, + 1
    // double1-double), clamp 54 (+24 scalar-bound), lerp 36 (+16 scalar-weight), step 36
    // (+16 scalar-edge), smoothstep 36 (+16 scalar-edge), atan 40 (+20 two-argument);
    // mul 416 (104 per float type: 16 M*v, 16 v*M, 64 M*M, 4 s*1xC, 4 Rx1*s); frexp and
    // ldexp 40 (+20 int-exponent); noise 5; any/all 35; tex2D 8 (4 + gp4 texel
    // offsets), tex1D and texRECT 8, the proj forms 4; tex2Dgather 2. Among the
    // GLSL names: the relational functions 12 or 15 (float, double, int, uint, and bool
    // for equal and notEqual, x vectors 2-4), not 3; fma 10 (float, double x scalar and
    // 4 vectors); mix 68 (36 lerp forms, 32 bool-selector forms); matrixCompMult and
    // outerProduct 18 (float, double x 9 shapes); texture2DProj 4.
    #[test]
    fn intrinsics_overload_counts() {
        let count = |name: &str| overloads(name).map_or(0, <[Overload]>::len);
        let total: usize = table().values().map(Vec::len).sum();
        assert_eq!((table().len(), total), (113, 2031));
        assert_eq!(count("sin"), 4 * 5);
        assert_eq!(count("abs"), 6 * 5);
        assert_eq!(count("max"), 6 * 5 + 6 * 3 + 1);
        assert_eq!(count("clamp"), 6 * 5 + 6 * 4);
        assert_eq!(count("lerp"), 4 * 5 + 4 * 4);
        assert_eq!(count("step"), 4 * 5 + 4 * 4);
        assert_eq!(count("smoothstep"), 4 * 5 + 4 * 4);
        assert_eq!(count("atan"), 4 * 5 * 2);
        assert_eq!(count("mul"), 4 * (16 + 16 + 64 + 4 + 4));
        assert_eq!(count("frexp"), 2 * 4 * 5);
        assert_eq!(count("ldexp"), 2 * 4 * 5);
        assert_eq!(count("noise"), 5);
        assert_eq!(count("dot"), 4 * 5);
        assert_eq!(count("any"), 7 * 5);
        assert_eq!(count("tex2D"), 8);
        assert_eq!(count("tex2Dproj"), 4);
        assert_eq!(count("tex1D"), 8);
        assert_eq!(count("tex2Dgather"), 2);
        let glsl = |name: &str| glsl_overloads(name).map_or(0, <[Overload]>::len);
        assert_eq!(glsl("equal"), 5 * 3);
        assert_eq!(glsl("lessThan"), 4 * 3);
        assert_eq!(glsl("not"), 3);
        assert_eq!(glsl("fma"), 2 * 5);
        assert_eq!(glsl("mix"), 4 * 5 + 4 * 4 + 4 * 5 + 4 * 3);
        assert_eq!(glsl("matrixCompMult"), 2 * 9);
        assert_eq!(glsl("outerProduct"), 2 * 9);
        assert_eq!(glsl("texture2DProj"), 4);
    }
}
