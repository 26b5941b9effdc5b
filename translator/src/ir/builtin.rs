//! The Cg 3.1 standard library as an enum: one [`Builtin`] per library function, and one
//! per *form* of a texture function (`tex2D(s, uv)` and `tex2D(s, uv, dx, dy)` are
//! different variants that share the Cg name `tex2D`). Which argument types each variant
//! accepts is data in [`crate::sema::intrinsics`]; this module fixes what each variant
//! *computes*, precisely enough for the reference interpreter and for the slang writer.
//!
//! This module never maps anything to GLSL: that belongs to the writer. The variant
//! documentation only points out where a same-named GLSL function computes something
//! else, so that the writer knows what it must emulate.
//!
//! Sources: the Cg 3.1 Toolkit "Cg Standard Library" reference pages (one page per
//! function, `developer.download.nvidia.com/cg/<name>.html`: synopsis, description and
//! reference implementation), the Cg 3.1 language specification, and for the packing
//! functions the NV_fragment_program `PK*`/`UP*` instructions they compile to. Where a
//! page is silent or self-contradictory the choice made here is stated on the variant
//! ("pinned"), so that the interpreter and the writer agree.
//!
//! # Conventions shared by all variants
//!
//! * Arguments arrive with the overload's parameter types exactly (see
//!   [`crate::ir::ExprKind::Builtin`]); `T` below is the overload's generic type (a
//!   scalar, vector or matrix) and "per component" means the scalar rule is applied to
//!   each component independently (row-major order for matrices; the order is not
//!   observable because builtins have no side effects).
//! * Precision follows the IR rules: `float` is binary32, `half` and `fixed` are computed
//!   at `float` precision, `double` at binary64. Formulas are evaluated left to right in
//!   that precision, with no fused multiply-add.
//! * Integers wrap (two's complement) where an operation overflows.
//! * `out` parameters (`sincos`, `modf`, `frexp`) are written back like any call's.
//!
//! # Texture lookups
//!
//! * Every lookup returns `float4`; the `*Size` forms return `int3`. A texture without
//!   some channel reads it as in OpenGL (missing colour channels 0, missing alpha 1).
//! * Filtering, wrapping and mipmapping come from the sampler state (in RetroArch: the
//!   preset), not from the call.
//! * `1D`, `2D`, `3D` coordinates are normalised (`[0, 1]` spans the texture); `CUBE`
//!   coordinates are a direction (any length) selecting a face; `RECT` coordinates are
//!   unnormalised texel units (`[0, width] x [0, height]`) and RECT textures have one
//!   level, so their bias and lod have no effect.
//! * Implicit level of detail (the plain, shadow, `bias` and `proj` forms) comes from the
//!   screen-space derivatives of the coordinate across the 2x2 fragment quad, so these
//!   forms are fragment-only; `lod`, `fetch`, `size` and the explicit-derivative forms work
//!   in both stages.
//! * *Shadow* forms carry a reference value. Cg compares it with the fetched texel only
//!   when the bound texture is a depth texture with comparison enabled (a property of the
//!   texture, not of the call). RetroArch only binds colour textures, so the reference is
//!   **ignored**: the interpreter returns the plain lookup at the leading coordinates. A
//!   writer must not turn these into shadow-sampler lookups.
//! * `proj` forms divide the lookup coordinates (and the reference, for shadow forms) by
//!   the last component first; the implicit level of detail is that of the divided
//!   coordinates.
//! * `fetch` forms read one texel without filtering at integer coordinates and an integer
//!   level; out-of-range coordinates or levels read `(0, 0, 0, 0)` (pinned; Cg leaves it
//!   undefined).
//! * *Texel offsets* (gp4 profiles): the plain, shadow, gradient and `proj` forms of
//!   `tex1D`, `tex2D` and `texRECT` (and `tex1Dproj`, `tex2Dproj`, `texRECTproj`) take an
//!   optional trailing `int` (1D) or `int2` offset; such a call is the same variant with
//!   one more argument. The offset moves the lookup by whole texels of level 0, after
//!   the projection and after the level of detail was chosen (GLSL's `textureOffset`:
//!   the derivatives are those of the coordinates without it). GLSL wants it constant.
//! * Integer samplers (`isampler2D`, ...) are not modelled.

macro_rules! builtins {
    ($( $(#[$meta:meta])* $variant:ident => $name:literal, )*) => {
        /// A Cg standard-library function (or texture-function form). See the module
        /// documentation for the conventions every variant follows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Builtin {
            $( $(#[$meta])* $variant, )*
        }

        impl Builtin {
            /// Every variant, in declaration (and therefore `Ord`) order.
            pub const ALL: &'static [Builtin] = &[ $( Builtin::$variant, )* ];

            /// The Cg name the function is called by (several texture forms share one).
            pub const fn name(self) -> &'static str {
                match self {
                    $( Builtin::$variant => $name, )*
                }
            }
        }
    };
}

/// Every variant, in declaration order (the same slice as [`Builtin::ALL`]).
pub const ALL: &[Builtin] = Builtin::ALL;

builtins! {
    // ---- Component-wise arithmetic -------------------------------------------------
    /// `abs(x)`: `|x|` per component. For `int`, two's complement: `abs(INT_MIN)` is
    /// `INT_MIN` (wrapping). `-0.0` gives `+0.0`.
    Abs => "abs",
    /// `sign(x)`: per component `(x > 0) - (x < 0)`, i.e. `1`, `0` or `-1` of `T`'s type
    /// (Cg reference implementation). A NaN component gives 0 (pinned; the page says
    /// "ideally NaN", GLSL leaves it undefined).
    Sign => "sign",
    /// `min(a, b)`: per component `a < b ? a : b` (Cg reference implementation). With one
    /// NaN operand this returns the other (IEEE 754-2008 minNum, pinned: what GPUs compute,
    /// NVIDIA's FMNMX and LLVM's minnum alike, for cgc's output and ours).
    Min => "min",
    /// `max(a, b)`: per component `a > b ? a : b` (Cg reference implementation). With one
    /// NaN operand this returns the other (maxNum, pinned as for [`Builtin::Min`]).
    Max => "max",
    /// `clamp(x, a, b)`: per component `x < a ? a : (x > b ? b : x)` (the Cg page's
    /// definition). The scalar-bound forms `clamp(floatN x, float a, float b)` use the same
    /// `a` and `b` for every component. Unlike GLSL `clamp` (undefined for `a > b`), the
    /// result is defined for `a > b`: `a` when `x < a`, else `b` when `x > b`, else `x`.
    /// A NaN `x` gives `min(a, b)` (pinned: `max(x, a)` then `min(_, b)` as GPUs compute
    /// it, see [`Builtin::Min`]).
    Clamp => "clamp",
    /// `saturate(x)`: per component `x < 0 ? 0 : (x > 1 ? 1 : x)`. A NaN component gives 0
    /// (pinned: the hardware saturate modifier's result; Cg leaves it unspecified).
    Saturate => "saturate",
    /// `lerp(a, b, w)`: per component `a + w * (b - a)` (Cg reference implementation; GLSL
    /// `mix` computes `a * (1 - w) + b * w`, which rounds differently). In the scalar-weight
    /// form `lerp(floatN a, floatN b, float w)` the one `w` weights every component.
    Lerp => "lerp",
    /// `step(a, x)`: per component `x >= a ? 1 : 0`. Note Cg's argument order: the edge
    /// comes first, as in GLSL `step(edge, x)`. A NaN in either operand gives 0.
    Step => "step",
    /// `smoothstep(a, b, x)`: per component `t = saturate((x - a) / (b - a));
    /// t * t * (3 - 2 * t)` (Cg reference implementation). Defined for `a > b` too (the
    /// curve falls). For `a == b` the quotient is `+inf` (gives 1) for `x > a`, `-inf`
    /// (gives 0) for `x < a`, and NaN (gives 0, see [`Builtin::Saturate`]) for `x == a`.
    Smoothstep => "smoothstep",

    // ---- Rounding --------------------------------------------------------------------
    /// `floor(x)`: per component the largest integral value `<= x`.
    Floor => "floor",
    /// `ceil(x)`: per component the smallest integral value `>= x`.
    Ceil => "ceil",
    /// `trunc(x)`: per component the integral value nearest to `x` and not larger in
    /// magnitude (rounds toward zero).
    Trunc => "trunc",
    /// `round(x)`: per component the nearest integral value, halves to **even**
    /// (`round(2.5) == 2`, `round(-0.5) == -0`). The Cg page says the tie rule is profile
    /// dependent: profiles up to fp40/vp40 use `floor(x + 0.5)`, newer ones (gp4, gp5,
    /// glsl: what RetroArch's Cg runtime picked on GL3-class hardware) round to even. We
    /// pin the latter; GLSL `round` leaves ties to the implementation (`roundEven` is
    /// exact).
    Round => "round",
    /// `frac(x)`: per component `x - floor(x)` (`frac(-0.25) == 0.75`; the result is in
    /// `[0, 1]`, reaching 1 only by rounding for tiny negative `x`). Same definition as
    /// GLSL `fract`.
    Frac => "frac",
    /// `fmod(x, y)`: per component the remainder of `x / y` with the sign of `x`, computed
    /// as the Cg reference implementation does: `c = frac(abs(x / y)) * abs(y);
    /// x < 0 ? -c : c`. In exact arithmetic this is `x - y * trunc(x / y)`. GLSL `mod`
    /// floors instead (`x - y * floor(x / y)`, sign of `y`) and differs for operands of
    /// opposite sign. `y == 0` gives NaN. Floating types only; `%` on integers is an
    /// operator.
    Fmod => "fmod",
    /// GLSL `mod(x, y)`, which Cg does not declare but NVIDIA's compiler accepted (see
    /// [`crate::sema::intrinsics::glsl_overloads`]): per component `x - y * floor(x / y)`,
    /// the result has the sign of `y`. The form `mod(floatN x, float y)` uses the one `y`
    /// for every component. `y == 0` gives NaN.
    GlslMod => "mod",
    /// `modf(x, out i)`: per component `i = trunc(x)` and returns `x - trunc(x)`; both carry
    /// the sign of `x` (C `modf`). Infinite `x` gives `i = x` and returns `±0`; NaN gives
    /// NaN in both.
    Modf => "modf",
    /// `frexp(x, out e)`: per component splits `x` into a mantissa `m` with
    /// `0.5 <= |m| < 1` (returned) and an exponent `e` (written, as a value of `T`'s
    /// floating type, or in the forms cgc 3.1 also declared, `frexp(floatN, out intN)`, as
    /// an `int`) with `x == m * 2^e`. Zero gives `m = e = 0` (the Cg
    /// page); infinities and NaN give `m = x`, `e = 0` (pinned; C leaves `e` unspecified).
    Frexp => "frexp",
    /// `ldexp(x, n)`: per component `x * exp2(n)` (Cg reference implementation). `n` is
    /// floating and is *not* truncated: `ldexp(1, 0.5) == sqrt(2)`; cgc 3.1 also declared
    /// `ldexp(floatN, intN)`, GLSL's form, with the same meaning. GLSL `ldexp` takes an
    /// integer exponent only.
    Ldexp => "ldexp",

    // ---- Exponential, power, roots ---------------------------------------------------
    /// `exp(x)`: per component `e^x`.
    Exp => "exp",
    /// `exp2(x)`: per component `2^x`.
    Exp2 => "exp2",
    /// `log(x)`: per component the natural logarithm; `x < 0` gives NaN, `0` gives `-inf`.
    Log => "log",
    /// `log2(x)`: per component the base-2 logarithm (same domain rules as `log`).
    Log2 => "log2",
    /// `log10(x)`: per component the base-10 logarithm (same domain rules as `log`). GLSL
    /// has no `log10`.
    Log10 => "log10",
    /// `pow(x, y)`: per component `x^y` with C99 `pow` semantics (pinned): exact for
    /// `x > 0` up to rounding, `pow(x, 0) == 1`, and for `x < 0` a real result only when
    /// `y` is integral (NaN otherwise). GPUs compute `exp2(y * log2(x))`, which is NaN for
    /// every `x < 0`; Cg and GLSL leave `x < 0` undefined.
    Pow => "pow",
    /// `sqrt(x)`: per component the square root; `x < 0` gives NaN.
    Sqrt => "sqrt",
    /// `rsqrt(x)`: per component `1 / sqrt(x)`; `0` gives `+inf`. GLSL spells it
    /// `inversesqrt`.
    Rsqrt => "rsqrt",

    // ---- Trigonometry (radians) --------------------------------------------------------
    /// `sin(x)`: per component.
    Sin => "sin",
    /// `cos(x)`: per component.
    Cos => "cos",
    /// `tan(x)`: per component.
    Tan => "tan",
    /// `asin(x)`: per component, in `[-pi/2, pi/2]`; `|x| > 1` gives NaN.
    Asin => "asin",
    /// `acos(x)`: per component, in `[0, pi]`; `|x| > 1` gives NaN.
    Acos => "acos",
    /// `atan(x)`: per component, in `[-pi/2, pi/2]`.
    Atan => "atan",
    /// `atan2(y, x)`: per component the angle of the point `(x, y)`, in `[-pi, pi]`, with
    /// C `atan2` semantics (`atan2(0, 0) == 0`, signed zeros respected). Same argument
    /// order (y first) as GLSL's two-argument `atan(y, x)`.
    Atan2 => "atan2",
    /// `sinh(x)`: per component the hyperbolic sine.
    Sinh => "sinh",
    /// `cosh(x)`: per component the hyperbolic cosine.
    Cosh => "cosh",
    /// `tanh(x)`: per component the hyperbolic tangent.
    Tanh => "tanh",
    /// `sincos(x, out s, out c)`: per component `s = sin(x)` and `c = cos(x)`; returns
    /// nothing (`void`).
    Sincos => "sincos",
    /// `degrees(x)`: per component `x * (180 / pi)`.
    Degrees => "degrees",
    /// `radians(x)`: per component `x * (pi / 180)`.
    Radians => "radians",

    // ---- Classification and bit casts --------------------------------------------------
    /// `isnan(x)`: per component whether `x` is NaN; a `bool` of `x`'s shape.
    Isnan => "isnan",
    /// `isinf(x)`: per component whether `x` is `+inf` or `-inf`; a `bool` of `x`'s shape.
    Isinf => "isinf",
    /// `isfinite(x)`: per component whether `x` is neither infinite nor NaN; a `bool` of
    /// `x`'s shape.
    Isfinite => "isfinite",
    /// `floatToIntBits(x)`: per component the IEEE binary32 bit pattern of `x` as an `int`,
    /// except that every NaN gives `0x7fc00000` (Java `Float.floatToIntBits`).
    FloatToIntBits => "floatToIntBits",
    /// `floatToRawIntBits(x)`: per component the IEEE binary32 bit pattern of `x` as an
    /// `int`, NaN payloads kept (GLSL `floatBitsToInt`).
    FloatToRawIntBits => "floatToRawIntBits",
    /// `intBitsToFloat(x)`: per component the `float` whose binary32 bit pattern is `x`.
    IntBitsToFloat => "intBitsToFloat",
    /// `floatBitsToUint(x)` (gp4, GLSL's name): per component the IEEE binary32 bit
    /// pattern of `x` as a `uint`, NaN payloads kept.
    FloatBitsToUint => "floatBitsToUint",
    /// `uintBitsToFloat(x)` (gp4): per component the `float` whose binary32 bit pattern is
    /// `x`.
    UintBitsToFloat => "uintBitsToFloat",
    /// `fma(a, b, c)` (gp5): per component `a * b + c` with a single rounding (the product
    /// is not rounded first), in the operands' precision.
    Fma => "fma",

    // ---- Bit manipulation (gp5 profiles; ARB_gpu_shader5 semantics) ------------------
    /// `bitCount(x)`: per component the number of set bits of `x`, as an `int`.
    BitCount => "bitCount",
    /// `bitfieldExtract(x, offset, bits)`: per component bits `offset .. offset + bits` of
    /// `x`, moved to the low end; sign-extended from the field's top bit for `int`,
    /// zero-extended for `uint`. `bits == 0` gives 0; negative values or
    /// `offset + bits > 32` give 0 (pinned; undefined in Cg and GLSL).
    BitfieldExtract => "bitfieldExtract",
    /// `bitfieldInsert(base, insert, offset, bits)`: per component `base` with bits
    /// `offset .. offset + bits` replaced by the low `bits` bits of the scalar `insert`
    /// (Cg's `insert` is a scalar, unlike GLSL's). Out-of-range fields return `base`
    /// (pinned).
    BitfieldInsert => "bitfieldInsert",
    /// `bitfieldReverse(x)`: per component the 32 bits of `x` in reverse order.
    BitfieldReverse => "bitfieldReverse",
    /// `findLSB(x)`: per component the index of the lowest set bit of `x`, or `-1` for 0;
    /// an `int`.
    FindLsb => "findLSB",
    /// `findMSB(x)`: per component the index of the highest bit that differs from the sign
    /// bit for `int` (highest set bit for non-negative, highest clear bit for negative), the
    /// highest set bit for `uint`; `-1` when there is none (`0` and `-1`); an `int`.
    FindMsb => "findMSB",

    // ---- Packing (the results are `float`s whose bits carry the packed value) --------
    /// `pack_2half(a)`: converts `a.x` and `a.y` to IEEE binary16 (round to nearest even)
    /// and returns the `float` whose 32 bits are `half(a.y) << 16 | half(a.x)`.
    Pack2Half => "pack_2half",
    /// `pack_2ushort(a)`: `u = round(saturate(a) * 65535)` per component (ties away from
    /// zero), returns the `float` whose bits are `u.y << 16 | u.x`.
    Pack2Ushort => "pack_2ushort",
    /// `pack_4byte(a)`: per component `b = round(clamp(a, -128/127, 1) * 127 + 128)` (ties
    /// away from zero; all-zero bits mean `-128/127`, all-one bits `127/127`), returns the
    /// `float` whose bits are `b.w << 24 | b.z << 16 | b.y << 8 | b.x`.
    Pack4Byte => "pack_4byte",
    /// `pack_4ubyte(a)`: per component `b = round(saturate(a) * 255)` (ties away from
    /// zero), returns the `float` whose bits are `b.w << 24 | b.z << 16 | b.y << 8 | b.x`.
    Pack4Ubyte => "pack_4ubyte",
    /// `unpack_2half(a)`: with `u` the 32 bits of `a`, returns
    /// `half2(half_bits(u & 0xffff), half_bits(u >> 16))`.
    Unpack2Half => "unpack_2half",
    /// `unpack_2ushort(a)`: with `u` the 32 bits of `a`, returns
    /// `float2((u & 0xffff) / 65535.0, (u >> 16) / 65535.0)`.
    Unpack2Ushort => "unpack_2ushort",
    /// `unpack_4byte(a)`: with `u` the 32 bits of `a` and `b_i = (u >> 8i) & 0xff`, returns
    /// `half4` with component `i` equal to `(b_i - 128) / 127.0` (x from the low byte).
    Unpack4Byte => "unpack_4byte",
    /// `unpack_4ubyte(a)`: with `u` the 32 bits of `a` and `b_i = (u >> 8i) & 0xff`,
    /// returns `half4` with component `i` equal to `b_i / 255.0` (x from the low byte).
    Unpack4Ubyte => "unpack_4ubyte",

    // ---- Geometry --------------------------------------------------------------------
    /// `dot(a, b)`: the scalar `a.x * b.x + a.y * b.y + ...`, summed left to right; for
    /// scalar operands `a * b`. Returns the element type.
    Dot => "dot",
    /// `cross(a, b)`: the 3-vector `(a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z,
    /// a.x*b.y - a.y*b.x)`.
    Cross => "cross",
    /// `length(v)`: `sqrt(dot(v, v))`; for a scalar `|v|`.
    Length => "length",
    /// `distance(a, b)`: `length(b - a)`.
    Distance => "distance",
    /// `normalize(v)`: `v / length(v)`; a zero vector gives NaN components.
    Normalize => "normalize",
    /// `reflect(i, n)`: `i - 2 * n * dot(n, i)` (`n` is expected to be normalised).
    Reflect => "reflect",
    /// `refract(i, n, eta)` on 3-vectors, the Cg reference implementation:
    /// `cosi = dot(-i, n); cost2 = 1 - eta*eta*(1 - cosi*cosi);
    /// t = eta*i + (eta*cosi - sqrt(abs(cost2))) * n; return cost2 > 0 ? t : 0`. It agrees
    /// with GLSL `refract` except at `cost2 == 0`, where Cg returns the zero vector.
    Refract => "refract",
    /// `faceforward(n, i, ng)`: `dot(ng, i) < 0 ? n : -n` (as GLSL `faceforward`).
    Faceforward => "faceforward",
    /// `lit(NdotL, NdotH, m)`: the `float4` `(1, max(NdotL, 0), spec, 1)` with
    /// `spec = NdotL > 0 ? pow(max(NdotH, 0), m) : 0` (the Cg reference implementation and
    /// the LIT instruction it compiles to; the page's prose says "0 if NdotL < 0", which
    /// differs only at `NdotL == 0`). `pow` here is [`Builtin::Pow`]; LIT's clamp of `m`
    /// to about ±128 is not applied.
    Lit => "lit",

    // ---- Matrices (row-major meaning: `m[i]` is row `i`) ----------------------------
    /// `mul(M, v)` with `M` of `R` rows and `C` columns and `v` of `C` components: `v` is a
    /// column vector, the result is the `R`-vector `r[i] = sum_j M[i][j] * v[j]` (summed
    /// in `j` order).
    MulMatVec => "mul",
    /// `mul(v, M)` with `v` of `R` components and `M` of `R` rows and `C` columns: `v` is a
    /// row vector, the result is the `C`-vector `r[j] = sum_i v[i] * M[i][j]` (summed in
    /// `i` order).
    MulVecMat => "mul",
    /// `mul(A, B)` with `A` of `R x K` and `B` of `K x C`: the matrix product, `R x C`,
    /// `r[i][j] = sum_k A[i][k] * B[k][j]` (summed in `k` order). (`A * B` on matrices is
    /// the component-wise product in Cg.)
    MulMatMat => "mul",
    /// `transpose(A)`: the `C x R` matrix `r[j][i] = A[i][j]`.
    Transpose => "transpose",
    /// `determinant(A)` of a square matrix: the scalar determinant (`A[0][0]` for 1x1,
    /// `A[0][0]*A[1][1] - A[0][1]*A[1][0]` for 2x2, cofactor expansion along row 0 beyond).
    Determinant => "determinant",
    /// `inverse(A)` of a square matrix: `adjugate(A) / determinant(A)`; a singular matrix
    /// gives infinite or NaN components.
    Inverse => "inverse",
    /// `matrixCompMult(A, B)` (a GLSL name cgc 3.1 declared for float matrices 2x2 to 4x4,
    /// and double in gp5): per component `A[i][j] * B[i][j]`, as Cg's `A * B`.
    MatrixCompMult => "matrixCompMult",
    /// `outerProduct(c, r)` (GLSL name, vectors 2-4): the `R x C` matrix
    /// `m[i][j] = c[i] * r[j]` (`c` a column, `r` a row; `outerProduct(float2, float3)` is a
    /// `float2x3`, 2 rows, in Cg's order).
    OuterProduct => "outerProduct",

    // ---- Logic -------------------------------------------------------------------------
    /// `any(x)`: whether some component of `x` is true; numeric components count as true
    /// when `!= 0` (so NaN is true, `-0.0` false).
    Any => "any",
    /// `all(x)`: whether every component of `x` is true; numeric components count as true
    /// when `!= 0`.
    All => "all",
    /// `equal(x, y)`: per component `x == y`, a `bool` vector of `x`'s size (GLSL's
    /// relational functions, which cgc 3.1 declared for vectors 2-4 of `float`, `double`,
    /// `int`, `uint` and `bool`). NaN compares unequal, as with `==`.
    Equal => "equal",
    /// `notEqual(x, y)`: per component `x != y` (true where either is NaN).
    NotEqual => "notEqual",
    /// `lessThan(x, y)`: per component `x < y` (numeric vectors only; false with NaN).
    LessThan => "lessThan",
    /// `lessThanEqual(x, y)`: per component `x <= y`.
    LessThanEqual => "lessThanEqual",
    /// `greaterThan(x, y)`: per component `x > y`.
    GreaterThan => "greaterThan",
    /// `greaterThanEqual(x, y)`: per component `x >= y`.
    GreaterThanEqual => "greaterThanEqual",
    /// `not(x)`: per component logical negation of a `bool` vector 2-4.
    Not => "not",
    /// `mix(x, y, s)` with a `bool` selector (GLSL's select form, which cgc 3.1 declared:
    /// `mix(floatN, floatN, boolN)` and `mix(floatN, floatN, bool)`): per component `s ? y
    /// : x`, a choice, not a blend (no arithmetic: infinities and NaN pass through). A
    /// scalar `s` selects the whole vector.
    MixSelect => "mix",
    /// `noise(x)` (Cg 3.1 declares `float noise(floatN)` in every profile): a Perlin-style
    /// noise value. What NVIDIA's compiler computed for it is not documented and was not
    /// measured, so neither the interpreter nor the writer invents a value: both report
    /// the call as unsupported.
    Noise => "noise",

    // ---- Fragment-only ----------------------------------------------------------------
    /// `ddx(x)`: per component the difference of `x` between the two horizontally adjacent
    /// fragments of the 2x2 quad, right minus left, the same for both fragments of a row
    /// (fine derivative). The interpreter must run fragments in quads.
    Ddx => "ddx",
    /// `ddy(x)`: as [`Builtin::Ddx`] for the vertical neighbours: the value at window
    /// `y + 1` minus the value at `y`, in OpenGL window coordinates (y grows upward, which
    /// is the opposite of Vulkan's framebuffer y).
    Ddy => "ddy",
    /// `fwidth(x)`: `abs(ddx(x)) + abs(ddy(x))` per component.
    Fwidth => "fwidth",
    /// `clip(x)`: discards the fragment (as a `discard` statement) when any component of
    /// `x` is `< 0`; NaN components do not discard. Returns nothing.
    Clip => "clip",

    // ---- 1D textures -------------------------------------------------------------------
    /// `tex1D(sampler1D s, float u)`: filtered lookup at `u`, implicit level of detail.
    Tex1D => "tex1D",
    /// `tex1D(sampler1D s, float2 c)`: shadow form, `c.x` the coordinate, `c.y` the
    /// reference (ignored for colour textures: see the module documentation).
    Tex1DShadow => "tex1D",
    /// `tex1D(sampler1D s, float u, float dx, float dy)`: lookup at `u` with the level of
    /// detail taken from the given screen-space derivatives of `u`.
    Tex1DGrad => "tex1D",
    /// `tex1D(sampler1D s, float2 c, float dx, float dy)`: shadow form of
    /// [`Builtin::Tex1DGrad`] (`c.y` the reference).
    Tex1DShadowGrad => "tex1D",
    /// `tex1Dbias(sampler1D s, float4 c)`: lookup at `c.x` with `c.w` added to the implicit
    /// level of detail.
    Tex1DBias => "tex1Dbias",
    /// `tex1Dlod(sampler1D s, float4 c)`: lookup at `c.x` at level of detail `c.w`.
    Tex1DLod => "tex1Dlod",
    /// `tex1Dproj(sampler1D s, float2 c)`: lookup at `c.x / c.y`.
    Tex1DProj => "tex1Dproj",
    /// `tex1Dproj(sampler1D s, float3 c)`: lookup at `c.x / c.z`, reference `c.y / c.z`
    /// (ignored for colour textures).
    Tex1DProjShadow => "tex1Dproj",
    /// `tex1Dcmpbias(sampler1D s, float4 c)`: coordinate `c.x`, reference `c.y` (ignored
    /// for colour textures), level-of-detail bias `c.w`.
    Tex1DCmpBias => "tex1Dcmpbias",
    /// `tex1Dcmplod(sampler1D s, float4 c)`: coordinate `c.x`, reference `c.y` (ignored for
    /// colour textures), level of detail `c.w`.
    Tex1DCmpLod => "tex1Dcmplod",
    /// `tex1Dfetch(sampler1D s, int4 c)`: the texel at `c.x` of level `c.w`, unfiltered.
    Tex1DFetch => "tex1Dfetch",
    /// `tex1Dsize(sampler1D s, int lod)`: `int3(width, 0, 0)` of level `lod` (components
    /// beyond the dimension are 0, pinned).
    Tex1DSize => "tex1Dsize",

    // ---- 2D textures -------------------------------------------------------------------
    /// `tex2D(sampler2D s, float2 uv)`: filtered lookup at `uv`, implicit level of detail.
    Tex2D => "tex2D",
    /// `tex2D(sampler2D s, float3 c)`: shadow form, `c.xy` the coordinate, `c.z` the
    /// reference (ignored for colour textures: the result is `tex2D(s, c.xy)`).
    Tex2DShadow => "tex2D",
    /// `tex2D(sampler2D s, float2 uv, float2 dx, float2 dy)`: lookup at `uv` with the level
    /// of detail taken from the given derivatives `d(uv)/dx` and `d(uv)/dy`.
    Tex2DGrad => "tex2D",
    /// `tex2D(sampler2D s, float3 c, float2 dx, float2 dy)`: shadow form of
    /// [`Builtin::Tex2DGrad`] (`c.z` the reference).
    Tex2DShadowGrad => "tex2D",
    /// `tex2Dbias(sampler2D s, float4 c)`: lookup at `c.xy` with `c.w` added to the
    /// implicit level of detail (`c.z` unused).
    Tex2DBias => "tex2Dbias",
    /// `tex2Dlod(sampler2D s, float4 c)`: lookup at `c.xy` at level of detail `c.w`
    /// (`c.z` unused).
    Tex2DLod => "tex2Dlod",
    /// `tex2Dproj(sampler2D s, float3 c)`: lookup at `c.xy / c.z`.
    Tex2DProj => "tex2Dproj",
    /// `tex2Dproj(sampler2D s, float4 c)`: lookup at `c.xy / c.w`, reference `c.z / c.w`
    /// (ignored for colour textures).
    Tex2DProjShadow => "tex2Dproj",
    /// GLSL `texture2DProj(sampler2D s, float3 c, float bias)`, which cgc 3.1 declared
    /// (its bias-less forms are [`Builtin::Tex2DProj`] and [`Builtin::Tex2DProjShadow`]):
    /// lookup at `c.xy / c.z` with `bias` added to the implicit level of detail.
    Texture2DProjBias => "texture2DProj",
    /// GLSL `texture2DProj(sampler2D s, float4 c, float bias)`: lookup at `c.xy / c.w`
    /// (`c.z` unused) with `bias` added to the implicit level of detail.
    Texture2DProj4Bias => "texture2DProj",
    /// `tex2Dcmpbias(sampler2D s, float4 c)`: coordinate `c.xy`, reference `c.z` (ignored
    /// for colour textures), level-of-detail bias `c.w`.
    Tex2DCmpBias => "tex2Dcmpbias",
    /// `tex2Dcmplod(sampler2D s, float4 c)`: coordinate `c.xy`, reference `c.z` (ignored
    /// for colour textures), level of detail `c.w`.
    Tex2DCmpLod => "tex2Dcmplod",
    /// `tex2Dfetch(sampler2D s, int4 c)`: the texel at `c.xy` of level `c.w`, unfiltered
    /// (`c.z` unused).
    Tex2DFetch => "tex2Dfetch",
    /// GLSL `texelFetchOffset(sampler2D s, int2 p, int lod, int2 offset)`, which Cg does not
    /// declare but NVIDIA's compiler accepted: the texel at `p + offset` of level `lod`,
    /// unfiltered, with the [`Builtin::Tex2DFetch`] rules. GLSL wants `offset` constant.
    Tex2DFetchOffset => "texelFetchOffset",
    /// `tex2Dsize(sampler2D s, int lod)`: `int3(width, height, 0)` of level `lod`.
    Tex2DSize => "tex2Dsize",
    /// `tex2Dgather(sampler2D s, float2 uv, int comp)` (gp5): component `comp` (0 to 3:
    /// r, g, b, a) of the four texels a bilinear lookup at `uv` of level 0 would blend,
    /// unfiltered, in GLSL's `textureGather` order: with `i0 = floor(u * w - 0.5)`, `j0 =
    /// floor(v * h - 0.5)` (wrapped by the sampler), `(i0, j1), (i1, j1), (i1, j0), (i0,
    /// j0)` where `i1 = i0 + 1`, `j1 = j0 + 1`. GLSL wants `comp` constant.
    Tex2DGather => "tex2Dgather",
    /// `tex2Dgather(sampler2D s, float2 uv, int2 offset, int comp)` (gp5): as
    /// [`Builtin::Tex2DGather`] with the footprint moved by `offset` texels.
    Tex2DGatherOffset => "tex2Dgather",

    // ---- 3D textures -------------------------------------------------------------------
    /// `tex3D(sampler3D s, float3 c)`: filtered lookup at `c`, implicit level of detail.
    Tex3D => "tex3D",
    /// `tex3D(sampler3D s, float3 c, float3 dx, float3 dy)`: lookup at `c` with the level
    /// of detail taken from the given derivatives.
    Tex3DGrad => "tex3D",
    /// `tex3Dbias(sampler3D s, float4 c)`: lookup at `c.xyz` with `c.w` added to the
    /// implicit level of detail.
    Tex3DBias => "tex3Dbias",
    /// `tex3Dlod(sampler3D s, float4 c)`: lookup at `c.xyz` at level of detail `c.w`.
    Tex3DLod => "tex3Dlod",
    /// `tex3Dproj(sampler3D s, float4 c)`: lookup at `c.xyz / c.w`.
    Tex3DProj => "tex3Dproj",
    /// `tex3Dfetch(sampler3D s, int4 c)`: the texel at `c.xyz` of level `c.w`, unfiltered.
    Tex3DFetch => "tex3Dfetch",
    /// `tex3Dsize(sampler3D s, int lod)`: `int3(width, height, depth)` of level `lod`.
    Tex3DSize => "tex3Dsize",

    // ---- Cube textures -----------------------------------------------------------------
    /// `texCUBE(samplerCUBE s, float3 d)`: filtered lookup in direction `d`.
    TexCube => "texCUBE",
    /// `texCUBE(samplerCUBE s, float4 c)`: shadow form, direction `c.xyz`, reference `c.w`
    /// (ignored for colour textures).
    TexCubeShadow => "texCUBE",
    /// `texCUBE(samplerCUBE s, float3 d, float3 dx, float3 dy)`: lookup in direction `d`
    /// with the level of detail taken from the given derivatives of `d`.
    TexCubeGrad => "texCUBE",
    /// `texCUBE(samplerCUBE s, float4 c, float3 dx, float3 dy)`: shadow form of
    /// [`Builtin::TexCubeGrad`] (`c.w` the reference).
    TexCubeShadowGrad => "texCUBE",
    /// `texCUBEbias(samplerCUBE s, float4 c)`: direction `c.xyz`, level-of-detail bias
    /// `c.w`.
    TexCubeBias => "texCUBEbias",
    /// `texCUBElod(samplerCUBE s, float4 c)`: direction `c.xyz`, level of detail `c.w`.
    TexCubeLod => "texCUBElod",
    /// `texCUBEproj(samplerCUBE s, float4 c)`: direction `c.xyz / c.w` (the division only
    /// matters for the sign of `c.w`).
    TexCubeProj => "texCUBEproj",
    /// `texCUBEsize(samplerCUBE s, int lod)`: `int3(width, height, 0)` of one face at
    /// level `lod`.
    TexCubeSize => "texCUBEsize",

    // ---- Rectangle textures (unnormalised coordinates) ---------------------------------
    /// `texRECT(samplerRECT s, float2 c)`: filtered lookup at texel coordinates `c`.
    TexRect => "texRECT",
    /// `texRECT(samplerRECT s, float3 c)`: shadow form, `c.xy` the coordinate, `c.z` the
    /// reference (ignored for colour textures).
    TexRectShadow => "texRECT",
    /// `texRECT(samplerRECT s, float2 c, float2 dx, float2 dy)`: lookup at `c`; the
    /// derivatives only select the filter footprint (one level).
    TexRectGrad => "texRECT",
    /// `texRECT(samplerRECT s, float3 c, float2 dx, float2 dy)`: shadow form of
    /// [`Builtin::TexRectGrad`] (`c.z` the reference).
    TexRectShadowGrad => "texRECT",
    /// `texRECTbias(samplerRECT s, float4 c)`: lookup at `c.xy`; the bias `c.w` has no
    /// effect (one level).
    TexRectBias => "texRECTbias",
    /// `texRECTlod(samplerRECT s, float4 c)`: lookup at `c.xy`; the level `c.w` has no
    /// effect (one level).
    TexRectLod => "texRECTlod",
    /// `texRECTproj(samplerRECT s, float3 c)`: lookup at `c.xy / c.z`.
    TexRectProj => "texRECTproj",
    /// `texRECTproj(samplerRECT s, float4 c)`: lookup at `c.xy / c.w`, reference
    /// `c.z / c.w` (ignored for colour textures).
    TexRectProjShadow => "texRECTproj",
    /// `texRECTfetch(samplerRECT s, int4 c)`: the texel at `c.xy`, unfiltered (`c.zw`
    /// unused).
    TexRectFetch => "texRECTfetch",
    /// `texRECTsize(samplerRECT s, int lod)`: `int3(width, height, 0)`; `lod` unused.
    TexRectSize => "texRECTsize",
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn all_is_sorted_and_unique() {
        assert!(Builtin::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(ALL.len(), Builtin::ALL.len());
    }

    #[test]
    fn names_are_cg_identifiers() {
        for b in Builtin::ALL {
            let n = b.name();
            assert!(!n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{b:?}");
        }
        // Only `mul` and the texture families share a name between variants.
        let mut seen = HashSet::new();
        for b in Builtin::ALL {
            if !seen.insert(b.name()) {
                assert!(b.name() == "mul" || b.name().starts_with("tex"), "{b:?} repeats {}", b.name());
            }
        }
        assert_eq!(Builtin::Tex2DProjShadow.name(), "tex2Dproj");
        assert_eq!(Builtin::FindMsb.name(), "findMSB");
    }
}
