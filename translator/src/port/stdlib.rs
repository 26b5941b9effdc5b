//! Porting pass: the Cg standard library in GLSL, with Cg's exact semantics.
//!
//! [`call`] turns one resolved builtin call (arguments already printed) into GLSL text:
//! a same-named GLSL function where the semantics agree (`dot`, `pow`, `clamp`), a
//! renamed one where only the name differs (`lerp` -> `mix`, `frac` -> `fract`, `rsqrt`
//! -> `inversesqrt`, `atan2` -> `atan`, `ddx` -> `dFdxFine`, `round` -> `roundEven`; the GLSL
//! names NVIDIA's Cg compiler accepted, `mod` and `texelFetchOffset`, stay themselves), the
//! texture family mapped onto `texture`/`textureLod`/`textureGrad`/`textureProj`/
//! `texelFetch`/`textureSize` with the right coordinate shapes (a 1D lookup samples the
//! middle row of the 2D LUT RetroArch loads), and small helper functions where GLSL
//! differs (`fmod` truncates, `lit`, `sincos`, `clip`, `isfinite`). `mul` is the writer's
//! (it depends on the matrix convention and on `MVP`). Pure text building.

use crate::ir::{Builtin, Scalar, Type};
use std::collections::BTreeMap;

/// A printed argument: its text, its precedence, its IR type.
#[derive(Clone, Debug)]
pub struct Arg {
    pub text: String,
    pub prec: u8,
    pub ty: Type,
    /// For a sampler in the naga dialect: the `texture2D` and `sampler` it pairs
    /// (`text` is then only the texture). `None` in canonical slang (combined samplers).
    pub pair: Option<(String, String)>,
    /// Whether the argument prints as a plain path (a name, its members and swizzles),
    /// which may be repeated; anything else is evaluated once (a helper's parameter).
    pub plain: bool,
}

/// Precedence of a function call or other primary expression.
pub const PRIMARY: u8 = 16;
/// Precedence of `*`.
pub const MULTIPLICATIVE: u8 = 13;

/// Helper functions needed by the stage, keyed by name and signature.
pub type Helpers = BTreeMap<String, String>;

/// GLSL spelling of a scalar, vector or matrix type (half, fixed and double are float).
pub fn glsl_type(ty: Type) -> Option<String> {
    let scalar = |s: Scalar| -> (&'static str, &'static str) {
        match s {
            Scalar::Bool => ("bool", "bvec"),
            Scalar::UChar | Scalar::UShort | Scalar::UInt | Scalar::ULong => ("uint", "uvec"),
            s if s.is_integral() => ("int", "ivec"),
            _ => ("float", "vec"),
        }
    };
    Some(match ty {
        Type::Void => "void".into(),
        Type::Scalar(s) | Type::Vector(s, 1) => scalar(s).0.into(),
        Type::Vector(s, n) => format!("{}{n}", scalar(s).1),
        Type::Matrix { scalar: s, rows, cols } if rows >= 2 && cols >= 2 && scalar(s).0 == "float" => {
            if rows == cols {
                format!("mat{rows}")
            } else {
                format!("mat{rows}x{cols}")
            }
        }
        Type::Sampler(_) => "sampler2D".into(),
        _ => return None,
    })
}

/// Text of `x` safe as an operand needing precedence `at_least`.
pub fn paren(a: &Arg, at_least: u8) -> String {
    if a.prec >= at_least {
        a.text.clone()
    } else {
        format!("({})", a.text)
    }
}

fn call(name: &str, args: &[&Arg]) -> (String, u8) {
    let list: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    (format!("{name}({})", list.join(", ")), PRIMARY)
}

/// The argument a builtin maps to unchanged, for these argument types: GLSL has no
/// unsigned `abs` (Cg's, gp4/gp5, is the value itself), and `any`/`all` of one bool is
/// that bool.
pub fn identity_argument(b: Builtin, args: &[Type]) -> Option<usize> {
    let first = *args.first()?;
    match b {
        Builtin::Abs if first.scalar() == Some(Scalar::UInt) => Some(0),
        Builtin::Any | Builtin::All if matches!(first, Type::Scalar(Scalar::Bool) | Type::Vector(Scalar::Bool, 1)) => {
            Some(0)
        }
        _ => None,
    }
}

fn helper(helpers: &mut Helpers, name: &str, ty: &str, body: String) -> String {
    helpers.insert(format!("{name}/{ty}"), body);
    name.to_owned()
}

/// A swizzle of an argument: duplicated when plain, else `None` (through a helper).
fn component(a: &Arg, swizzle: &str) -> Option<String> {
    a.plain.then(|| format!("{}.{swizzle}", a.text))
}

/// Maps one builtin call. `Err` says why it cannot be expressed in slang.
pub fn map(b: Builtin, args: &[Arg], ret: Type, helpers: &mut Helpers) -> Result<(String, u8), String> {
    use Builtin::*;
    let a = |i: usize| -> Result<&Arg, String> {
        args.get(i).ok_or_else(|| format!("`{}` is missing an argument", b.name()))
    };
    let ty_name = |t: Type| glsl_type(t).ok_or_else(|| format!("`{}` on a type slang has no equivalent for", b.name()));
    if args.iter().any(|x| matches!(x.ty, Type::Matrix { .. }))
        && !matches!(b, MulMatVec | MulVecMat | MulMatMat | Transpose | Determinant | Inverse | MatrixCompMult)
    {
        return Err(format!("`{}` on a matrix has no GLSL equivalent (GLSL applies it to vectors only)", b.name()));
    }
    let same = |name: &str| -> Result<(String, u8), String> {
        let refs: Vec<&Arg> = args.iter().collect();
        Ok(call(name, &refs))
    };
    let types: Vec<Type> = args.iter().map(|x| x.ty).collect();
    if let Some(i) = identity_argument(b, &types) {
        let x = a(i)?;
        return Ok((x.text.clone(), x.prec));
    }
    let unsigned = args.first().is_some_and(|x| matches!(x.ty.scalar(), Some(Scalar::UInt)));
    match b {
        // GLSL has no unsigned `abs` or `sign`: Cg's (gp4/gp5) are the value itself and
        // 0 or 1.
        Sign if unsigned => Ok((format!("min({}, 1u)", a(0)?.text), PRIMARY)),
        Abs | Sign | Min | Max | Clamp | Step | Smoothstep | Floor | Ceil | Trunc | Exp | Exp2 | Log | Log2 | Pow
        | Sqrt | Sin | Cos | Tan | Asin | Acos | Atan | Sinh | Cosh | Tanh | Degrees | Radians | Isnan | Isinf
        | Dot | Cross | Length | Distance | Normalize | Reflect | Refract | Faceforward | Transpose | Determinant
        | Inverse | Modf | Frexp | BitCount | BitfieldExtract | BitfieldInsert | BitfieldReverse | Equal | NotEqual
        | LessThan | LessThanEqual | GreaterThan | GreaterThanEqual | Not | FloatBitsToUint | UintBitsToFloat | Fma => {
            same(b.name())
        }
        FindLsb => same("findLSB"),
        FindMsb => same("findMSB"),
        Saturate => {
            let x = a(0)?;
            Ok((format!("clamp({}, 0.0, 1.0)", x.text), PRIMARY))
        }
        Lerp => same("mix"),
        MatrixCompMult => same("matrixCompMult"),
        // Cg's `RxC` is GLSL's transpose (see `port::matrix`): GLSL's `outerProduct(r, c)`
        // has `c`'s length columns of `r`'s length, i.e. columns `c[i] * r`, which are the
        // rows of Cg's `outerProduct(c, r)`.
        OuterProduct => {
            let (c, r) = (a(0)?, a(1)?);
            Ok((format!("outerProduct({}, {})", r.text, c.text), PRIMARY))
        }
        // GLSL's `mix` with a bool selector is a select; a scalar selector of a vector is
        // widened to the vector's size.
        MixSelect => {
            let (x, y, s) = (a(0)?, a(1)?, a(2)?);
            let s = match (x.ty, s.ty) {
                (Type::Vector(_, n), Type::Scalar(_)) if n > 1 => format!("bvec{n}({})", s.text),
                _ => s.text.clone(),
            };
            Ok((format!("mix({}, {}, {s})", x.text, y.text), PRIMARY))
        }
        Noise => Err("`noise`: what NVIDIA's Cg compiler computed for it is not documented or measured, so it \
                      has no faithful translation (replace it with an explicit noise function)"
            .into()),
        Round => same("roundEven"),
        Frac => same("fract"),
        GlslMod => same("mod"),
        Rsqrt => same("inversesqrt"),
        Atan2 => same("atan"),
        // Cg's ddx/ddy are fine derivatives (NVIDIA's profiles computed them per pixel
        // pair, and shaders that trade values across the 2x2 quad rely on it); GLSL's
        // dFdx leaves coarse or fine to the driver, so the port says Fine.
        Ddx => same("dFdxFine"),
        Ddy => same("dFdyFine"),
        Fwidth => same("fwidthFine"),
        FloatToIntBits | FloatToRawIntBits => same("floatBitsToInt"),
        IntBitsToFloat => same("intBitsToFloat"),
        // GLSL's own `ldexp` and `frexp` take an `int` exponent: the same meaning.
        Ldexp if args.get(1).is_some_and(|e| e.ty.scalar() == Some(Scalar::Int)) => same("ldexp"),
        Ldexp => {
            let (x, e) = (a(0)?, a(1)?);
            Ok((format!("{} * exp2({})", paren(x, MULTIPLICATIVE), e.text), MULTIPLICATIVE))
        }
        Log10 => {
            let x = a(0)?;
            Ok((format!("log2({}) * 0.30102999566398120", x.text), MULTIPLICATIVE))
        }
        Fmod | Sincos | Isfinite | Lit | Clip => helper_call(b, args, ret, helpers),
        Any | All => {
            let x = a(0)?;
            let name = if b == Any { "any" } else { "all" };
            match x.ty {
                Type::Vector(Scalar::Bool, _) => same(name),
                Type::Scalar(_) | Type::Vector(_, 1) => {
                    let t = ty_name(x.ty)?;
                    Ok((format!("{} != {t}(0)", paren(x, 10)), 9))
                }
                Type::Vector(..) => {
                    let t = ty_name(x.ty)?;
                    Ok((format!("{name}(notEqual({}, {t}(0)))", x.text), PRIMARY))
                }
                _ => Err(format!("`{name}` of this type")),
            }
        }
        Pack2Half => Ok((format!("uintBitsToFloat(packHalf2x16({}))", a(0)?.text), PRIMARY)),
        Unpack2Half => Ok((format!("unpackHalf2x16(floatBitsToUint({}))", a(0)?.text), PRIMARY)),
        Pack4Ubyte => Ok((format!("uintBitsToFloat(packUnorm4x8({}))", a(0)?.text), PRIMARY)),
        Unpack4Ubyte => Ok((format!("unpackUnorm4x8(floatBitsToUint({}))", a(0)?.text), PRIMARY)),
        Pack4Byte => Ok((format!("uintBitsToFloat(packSnorm4x8({}))", a(0)?.text), PRIMARY)),
        Unpack4Byte => Ok((format!("unpackSnorm4x8(floatBitsToUint({}))", a(0)?.text), PRIMARY)),
        Pack2Ushort => Ok((format!("uintBitsToFloat(packUnorm2x16({}))", a(0)?.text), PRIMARY)),
        Unpack2Ushort => Ok((format!("unpackUnorm2x16(floatBitsToUint({}))", a(0)?.text), PRIMARY)),
        MulMatVec | MulVecMat | MulMatMat => Err("mul is mapped by the writer".into()),
        _ => texture(b, args, helpers),
    }
}

/// The library functions GLSL lacks, as calls of helpers written once per type (Cg's
/// own definitions: `fmod`'s sign, `sincos`, `isfinite`, `lit`, `clip`).
fn helper_call(b: Builtin, args: &[Arg], ret: Type, helpers: &mut Helpers) -> Result<(String, u8), String> {
    use Builtin::*;
    let a = |i: usize| -> Result<&Arg, String> {
        args.get(i).ok_or_else(|| format!("`{}` is missing an argument", b.name()))
    };
    let ty_name = |t: Type| glsl_type(t).ok_or_else(|| format!("`{}` on a type slang has no equivalent for", b.name()));
    let same = |name: &str| -> Result<(String, u8), String> {
        let refs: Vec<&Arg> = args.iter().collect();
        Ok(call(name, &refs))
    };
    match b {
        Fmod => {
            let t = ty_name(a(0)?.ty)?;
            // The Cg standard library's own definition, which its compiler inlined:
            // frac of |x/y| scaled back, so its rounding (fmod(4.0, 3.0) is not exactly
            // 1.0) is reproduced and not only its sign rule.
            let sign = match t.as_str() {
                "float" => "x < 0.0 ? -c : c".to_string(),
                _ => format!("mix(c, -c, lessThan(x, {t}(0.0)))"),
            };
            let name = helper(helpers, "cg_fmod", &t, format!(
                "// Cg fmod: the remainder has the sign of x (GLSL mod floors).\n{t} cg_fmod({t} x, {t} y)\n{{\n    {t} c = fract(abs(x / y)) * abs(y);\n    return {sign};\n}}\n"
            ));
            same(&name)
        }
        Sincos => {
            let t = ty_name(a(0)?.ty)?;
            let name = helper(
                helpers,
                "cg_sincos",
                &t,
                format!("void cg_sincos({t} x, out {t} s, out {t} c)\n{{\n    s = sin(x);\n    c = cos(x);\n}}\n"),
            );
            same(&name)
        }
        Isfinite => {
            let t = ty_name(a(0)?.ty)?;
            let r = ty_name(ret)?;
            let body = if r == "bool" {
                format!("bool cg_isfinite({t} x)\n{{\n    return !(isnan(x) || isinf(x));\n}}\n")
            } else {
                let u = r.replace("bvec", "uvec");
                format!("{r} cg_isfinite({t} x)\n{{\n    return not({r}({u}(isnan(x)) | {u}(isinf(x))));\n}}\n")
            };
            let name = helper(helpers, "cg_isfinite", &t, body);
            same(&name)
        }
        Lit => {
            let t = ty_name(a(0)?.ty)?;
            let name = helper(helpers, "cg_lit", &t, format!(
                "// Cg lit: (ambient, diffuse, specular, 1) of the Blinn-Phong model.\nvec4 cg_lit({t} NdotL, {t} NdotH, {t} m)\n{{\n    float specular = NdotL > 0.0 ? pow(max(NdotH, 0.0), m) : 0.0;\n    return vec4(1.0, max(NdotL, 0.0), specular, 1.0);\n}}\n"
            ));
            same(&name)
        }
        Clip => {
            let x = a(0)?;
            let t = ty_name(x.ty)?;
            let test = if t == "float" { "x < 0.0".to_owned() } else { format!("any(lessThan(x, {t}(0.0)))") };
            let name = helper(helpers, "cg_clip", &t, format!(
                "// Cg clip: discard the fragment when any component is negative.\nvoid cg_clip({t} x)\n{{\n    if ({test})\n        discard;\n}}\n"
            ));
            same(&name)
        }
        _ => Err(format!("`{}` has no helper", b.name())),
    }
}

/// Where a gp4 texel offset sits in a sampling form's arguments (it is optional, last).
fn offset_index(b: Builtin) -> Option<usize> {
    use Builtin::*;
    match b {
        Tex1DGrad | Tex1DShadowGrad | Tex2DGrad | Tex2DShadowGrad | TexRectGrad | TexRectShadowGrad => Some(4),
        Tex1D | Tex1DShadow | Tex1DProj | Tex1DProjShadow | Tex2D | Tex2DShadow | Tex2DProj | Tex2DProjShadow
        | TexRect | TexRectShadow | TexRectProj | TexRectProjShadow => Some(2),
        _ => None,
    }
}

/// The arguments of a call of `b` with `n` arguments that its GLSL mapping needs as
/// constant expressions (GLSL's texel offsets and gather component); the writer checks
/// them on the IR and reports any that is not.
pub fn constant_arguments(b: Builtin, n: usize) -> Vec<usize> {
    match b {
        Builtin::Tex2DGather => vec![2],
        Builtin::Tex2DGatherOffset => vec![2, 3],
        _ => offset_index(b).filter(|&i| i < n).into_iter().collect(),
    }
}

/// A sampling form with a gp4 texel offset: GLSL's `*Offset` lookups. `s` is the printed
/// sampler; the coordinate is split with swizzles, so a projective RECT or 1D coordinate
/// (read twice) must be a simple name.
fn texture_offset(b: Builtin, args: &[Arg], off: &Arg, s: &str) -> Result<(String, u8), String> {
    use Builtin::*;
    let arg = |i: usize| args.get(i).ok_or_else(|| format!("`{}` is missing an argument", b.name()));
    let part = |c: &Arg, swizzle: &str| {
        component(c, swizzle).ok_or_else(|| format!("`{}` with a texel offset and a complex coordinate", b.name()))
    };
    // A swizzle read once: any expression, parenthesised.
    let once = |c: &Arg, swizzle: &str| -> Result<String, String> { Ok(format!("{}.{swizzle}", paren(c, PRIMARY))) };
    let c = arg(1)?;
    let size = format!("vec2(textureSize({s}, 0))");
    let o = off.text.as_str();
    let o1 = format!("ivec2({o}, 0)");
    let text = match b {
        Tex2D => format!("textureOffset({s}, {}, {o})", c.text),
        TexRect => format!("textureOffset({s}, {} / {size}, {o})", paren(c, MULTIPLICATIVE + 1)),
        Tex2DShadow => format!("textureOffset({s}, {}, {o})", once(c, "xy")?),
        TexRectShadow => format!("textureOffset({s}, {} / {size}, {o})", once(c, "xy")?),
        Tex2DGrad | TexRectGrad | Tex2DShadowGrad | TexRectShadowGrad => {
            let xy = if matches!(b, Tex2DGrad | TexRectGrad) { c.text.clone() } else { once(c, "xy")? };
            let xy = if matches!(b, TexRectGrad | TexRectShadowGrad) { format!("({xy}) / {size}") } else { xy };
            format!("textureGradOffset({s}, {xy}, {}, {}, {o})", arg(2)?.text, arg(3)?.text)
        }
        Tex2DProj | Tex2DProjShadow => format!("textureProjOffset({s}, {}, {o})", c.text),
        TexRectProj => format!("textureOffset({s}, {} / {} / {size}, {o})", part(c, "xy")?, part(c, "z")?),
        TexRectProjShadow => format!("textureOffset({s}, {} / {} / {size}, {o})", part(c, "xy")?, part(c, "w")?),
        Tex1D => format!("textureOffset({s}, vec2({}, 0.5), {o1})", c.text),
        Tex1DShadow => format!("textureOffset({s}, vec2({}, 0.5), {o1})", once(c, "x")?),
        Tex1DGrad | Tex1DShadowGrad => {
            let x = if b == Tex1DGrad { c.text.clone() } else { once(c, "x")? };
            let (dx, dy) = (arg(2)?, arg(3)?);
            format!("textureGradOffset({s}, vec2({x}, 0.5), vec2({}, 0.0), vec2({}, 0.0), {o1})", dx.text, dy.text)
        }
        Tex1DProj => format!("textureOffset({s}, vec2({} / {}, 0.5), {o1})", part(c, "x")?, part(c, "y")?),
        Tex1DProjShadow => format!("textureOffset({s}, vec2({} / {}, 0.5), {o1})", part(c, "x")?, part(c, "z")?),
        _ => return Err(format!("`{}` has no texel-offset form", b.name())),
    };
    Ok((text, PRIMARY))
}

/// The texture family. RetroArch binds 2D textures only: 1D lookups read the middle row
/// of the 2D LUT, RECT lookups divide by the texture size, and shadow-compare forms are
/// plain lookups (RetroArch's textures are colour textures: the reference is ignored).
fn texture(b: Builtin, args: &[Arg], helpers: &mut Helpers) -> Result<(String, u8), String> {
    use Builtin::*;
    let first = args.first().ok_or("texture call without a sampler")?;
    // `s` is a sampler expression; helpers take it as one `sampler2D` parameter, or in
    // the naga dialect as a texture and a sampler, combined where it is used.
    let (s, helper_params, helper_s, call_s) = match &first.pair {
        None => (first.text.clone(), "sampler2D s", "s", first.text.clone()),
        Some((t, smp)) => {
            (format!("sampler2D({t}, {smp})"), "texture2D t, sampler s", "sampler2D(t, s)", format!("{t}, {smp}"))
        }
    };
    let arg = |i: usize| args.get(i).ok_or_else(|| format!("`{}` is missing an argument", b.name()));
    if let Some(off) = offset_index(b).and_then(|i| args.get(i)) {
        return texture_offset(b, args, off, &s);
    }
    // Splits a packed coordinate (`float4 c` with lod/bias in w) without evaluating it
    // twice: swizzles of a simple argument, else a helper function.
    let mut packed = |name: &str, coord_ty: &str, body_expr: &str, c: &Arg| -> Result<(String, u8), String> {
        if c.plain {
            Ok((body_expr.replace("$s", &s).replace("$c", &c.text), PRIMARY))
        } else {
            let f = format!("cg_{name}");
            helpers.insert(
                format!("{f}/{coord_ty}"),
                format!(
                    "vec4 {f}({helper_params}, {coord_ty} c)\n{{\n    return {};\n}}\n",
                    body_expr.replace("$s", helper_s).replace("$c", "c")
                ),
            );
            Ok((format!("{f}({call_s}, {})", c.text), PRIMARY))
        }
    };
    match b {
        Tex2D | TexRect if args.len() == 2 => {
            let c = arg(1)?;
            if b == TexRect {
                Ok((format!("texture({s}, {} / vec2(textureSize({s}, 0)))", paren(c, MULTIPLICATIVE + 1)), PRIMARY))
            } else {
                Ok((format!("texture({s}, {})", c.text), PRIMARY))
            }
        }
        Tex2DShadow | TexRectShadow => {
            let c = arg(1)?;
            let rect = if b == TexRectShadow { " / vec2(textureSize($s, 0))" } else { "" };
            packed(&format!("{}_xy", b.name()), "vec3", &format!("texture($s, $c.xy{rect})"), c)
        }
        Tex2DGrad | TexRectGrad => {
            let (c, dx, dy) = (arg(1)?, arg(2)?, arg(3)?);
            let c = if b == TexRectGrad {
                format!("{} / vec2(textureSize({s}, 0))", paren(c, MULTIPLICATIVE + 1))
            } else {
                c.text.clone()
            };
            Ok((format!("textureGrad({s}, {c}, {}, {})", dx.text, dy.text), PRIMARY))
        }
        Tex2DShadowGrad | TexRectShadowGrad => {
            let (c, dx, dy) = (arg(1)?, arg(2)?, arg(3)?);
            let xy = component(c, "xy").ok_or("shadow lookup with a complex coordinate")?;
            Ok((format!("textureGrad({s}, {xy}, {}, {})", dx.text, dy.text), PRIMARY))
        }
        Tex2DBias | TexRectBias | Tex2DCmpBias => packed("tex2Dbias", "vec4", "texture($s, $c.xy, $c.w)", arg(1)?),
        Tex2DLod | TexRectLod | Tex2DCmpLod => packed("tex2Dlod", "vec4", "textureLod($s, $c.xy, $c.w)", arg(1)?),
        Tex2DProj | Tex2DProjShadow => Ok((format!("textureProj({s}, {})", arg(1)?.text), PRIMARY)),
        // RECT coordinates are texels: divided, then normalised (textureProj alone would
        // read them as normalised coordinates).
        TexRectProj => packed("texRECTproj", "vec3", "texture($s, $c.xy / $c.z / vec2(textureSize($s, 0)))", arg(1)?),
        TexRectProjShadow => {
            packed("texRECTproj4", "vec4", "texture($s, $c.xy / $c.w / vec2(textureSize($s, 0)))", arg(1)?)
        }
        Texture2DProjBias | Texture2DProj4Bias => {
            Ok((format!("textureProj({s}, {}, {})", arg(1)?.text, arg(2)?.text), PRIMARY))
        }
        Tex2DFetch | TexRectFetch => packed("tex2Dfetch", "ivec4", "texelFetch($s, $c.xy, $c.w)", arg(1)?),
        // naga's GLSL front end drops the offset of `texelFetchOffset`; the naga dialect
        // adds it to the coordinate, which reads the same texel.
        Tex2DFetchOffset if first.pair.is_some() => {
            Ok((format!("texelFetch({s}, ({}) + ({}), {})", arg(1)?.text, arg(3)?.text, arg(2)?.text), PRIMARY))
        }
        Tex2DFetchOffset => {
            Ok((format!("texelFetchOffset({s}, {}, {}, {})", arg(1)?.text, arg(2)?.text, arg(3)?.text), PRIMARY))
        }
        Tex2DSize | TexRectSize => Ok((format!("ivec3(textureSize({s}, {}), 0)", arg(1)?.text), PRIMARY)),
        // naga's GLSL front end has no `textureGather`: four level-0 lookups at the texel
        // centres of the footprint read exactly those texels, filtered or not, wrapped
        // by the sampler as the gather would be.
        Tex2DGather | Tex2DGatherOffset if first.pair.is_some() => {
            let (off, comp) =
                if b == Tex2DGather { ("ivec2(0)".to_owned(), arg(2)?) } else { (arg(2)?.text.clone(), arg(3)?) };
            helpers.insert(
                "cg_gather/naga".into(),
                format!(
                    "// tex2Dgather: component `comp` of the bilinear footprint at uv (moved by off texels),\n\
                     // in textureGather's order, by lookups at the four texel centres.\n\
                     vec4 cg_gather({helper_params}, vec2 uv, ivec2 off, int comp)\n{{\n    \
                     vec2 size = vec2(textureSize({helper_s}, 0));\n    \
                     vec2 f = floor(uv * size - 0.5) + vec2(off);\n    \
                     vec4 a = textureLod({helper_s}, (f + vec2(0.5, 1.5)) / size, 0.0);\n    \
                     vec4 b = textureLod({helper_s}, (f + vec2(1.5, 1.5)) / size, 0.0);\n    \
                     vec4 c = textureLod({helper_s}, (f + vec2(1.5, 0.5)) / size, 0.0);\n    \
                     vec4 d = textureLod({helper_s}, (f + vec2(0.5, 0.5)) / size, 0.0);\n    \
                     return vec4(a[comp], b[comp], c[comp], d[comp]);\n}}\n"
                ),
            );
            Ok((format!("cg_gather({call_s}, {}, {off}, {})", arg(1)?.text, comp.text), PRIMARY))
        }
        Tex2DGather => Ok((format!("textureGather({s}, {}, {})", arg(1)?.text, arg(2)?.text), PRIMARY)),
        Tex2DGatherOffset => {
            Ok((format!("textureGatherOffset({s}, {}, {}, {})", arg(1)?.text, arg(2)?.text, arg(3)?.text), PRIMARY))
        }
        Tex1D => Ok((format!("texture({s}, vec2({}, 0.5))", arg(1)?.text), PRIMARY)),
        Tex1DShadow => packed("tex1D_x", "vec2", "texture($s, vec2($c.x, 0.5))", arg(1)?),
        Tex1DGrad => Ok((
            format!(
                "textureGrad({s}, vec2({}, 0.5), vec2({}, 0.0), vec2({}, 0.0))",
                arg(1)?.text,
                arg(2)?.text,
                arg(3)?.text
            ),
            PRIMARY,
        )),
        Tex1DBias | Tex1DCmpBias => packed("tex1Dbias", "vec4", "texture($s, vec2($c.x, 0.5), $c.w)", arg(1)?),
        Tex1DLod | Tex1DCmpLod => packed("tex1Dlod", "vec4", "textureLod($s, vec2($c.x, 0.5), $c.w)", arg(1)?),
        Tex1DProj => packed("tex1Dproj", "vec2", "texture($s, vec2($c.x / $c.y, 0.5))", arg(1)?),
        Tex1DProjShadow => packed("tex1Dproj4", "vec3", "texture($s, vec2($c.x / $c.z, 0.5))", arg(1)?),
        Tex1DFetch => packed("tex1Dfetch", "ivec4", "texelFetch($s, ivec2($c.x, 0), $c.w)", arg(1)?),
        Tex1DSize => Ok((format!("ivec3(textureSize({s}, {}).x, 0, 0)", arg(1)?.text), PRIMARY)),
        _ => Err(format!("`{}`: RetroArch's slang runtime binds only 2D textures (no 3D or cube maps)", b.name())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(text: &str, ty: Type) -> Arg {
        Arg {
            text: text.into(),
            prec: PRIMARY,
            ty,
            pair: None,
            plain: text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'),
        }
    }

    #[test]
    fn renamed_and_helper_builtins() {
        let mut h = Helpers::new();
        let v3 = Type::vec(Scalar::Float, 3);
        assert_eq!(
            map(Builtin::Lerp, &[arg("a", v3), arg("b", v3), arg("t", Type::FLOAT)], v3, &mut h).unwrap().0,
            "mix(a, b, t)"
        );
        assert_eq!(map(Builtin::Frac, &[arg("x", v3)], v3, &mut h).unwrap().0, "fract(x)");
        assert_eq!(
            map(Builtin::Atan2, &[arg("y", Type::FLOAT), arg("x", Type::FLOAT)], Type::FLOAT, &mut h).unwrap().0,
            "atan(y, x)"
        );
        assert_eq!(map(Builtin::Saturate, &[arg("x", v3)], v3, &mut h).unwrap().0, "clamp(x, 0.0, 1.0)");
        assert_eq!(map(Builtin::Fmod, &[arg("x", v3), arg("y", v3)], v3, &mut h).unwrap().0, "cg_fmod(x, y)");
        assert!(h["cg_fmod/vec3"].contains("fract(abs(x / y)) * abs(y)"), "fmod is Cg's frac form");
        assert!(h["cg_fmod/vec3"].contains("lessThan(x, vec3(0.0))"), "the sign follows x");
        let m = map(Builtin::GlslMod, &[arg("x", v3), arg("y", Type::FLOAT)], v3, &mut h).unwrap().0;
        assert_eq!(m, "mod(x, y)", "GLSL mod keeps its flooring meaning");
        assert_eq!(map(Builtin::Round, &[arg("x", Type::FLOAT)], Type::FLOAT, &mut h).unwrap().0, "roundEven(x)");
    }

    #[test]
    fn glsl_forms_cgc_declared() {
        let mut h = Helpers::new();
        let (v2, v3) = (Type::vec(Scalar::Float, 2), Type::vec(Scalar::Float, 3));
        // Cg's outerProduct(c, r) has rows c[i] * r: GLSL's outerProduct(r, c) (transposed).
        let outer = map(Builtin::OuterProduct, &[arg("c", v2), arg("r", v3)], Type::mat(Scalar::Float, 2, 3), &mut h);
        assert_eq!(outer.unwrap().0, "outerProduct(r, c)");
        let b3 = Type::vec(Scalar::Bool, 3);
        let sel = map(Builtin::MixSelect, &[arg("x", v3), arg("y", v3), arg("s", b3)], v3, &mut h).unwrap().0;
        assert_eq!(sel, "mix(x, y, s)");
        let sel = map(Builtin::MixSelect, &[arg("x", v3), arg("y", v3), arg("b", Type::BOOL)], v3, &mut h).unwrap().0;
        assert_eq!(sel, "mix(x, y, bvec3(b))", "a scalar selector is widened");
        let i3 = Type::vec(Scalar::Int, 3);
        assert_eq!(map(Builtin::Ldexp, &[arg("x", v3), arg("e", i3)], v3, &mut h).unwrap().0, "ldexp(x, e)");
        assert_eq!(map(Builtin::Ldexp, &[arg("x", v3), arg("e", v3)], v3, &mut h).unwrap().0, "x * exp2(e)");
        let noise = map(Builtin::Noise, &[arg("x", v2)], Type::FLOAT, &mut h).unwrap_err();
        assert!(noise.contains("not documented or measured"), "{noise}");
        let s = arg("Source", Type::Sampler(crate::ir::SamplerDim::D2));
        let v4 = Type::vec(Scalar::Float, 4);
        let proj = map(Builtin::Texture2DProj4Bias, &[s, arg("c", v4), arg("1.0", Type::FLOAT)], v4, &mut h);
        assert_eq!(proj.unwrap().0, "textureProj(Source, c, 1.0)");
    }

    #[test]
    fn texture_forms() {
        let mut h = Helpers::new();
        let s = arg("Source", Type::Sampler(crate::ir::SamplerDim::D2));
        let v4 = Type::vec(Scalar::Float, 4);
        let lod = map(Builtin::Tex2DLod, &[s.clone(), arg("c", v4)], v4, &mut h).unwrap().0;
        assert_eq!(lod, "textureLod(Source, c.xy, c.w)");
        let lod = map(Builtin::Tex2DLod, &[s.clone(), arg("vec4(uv, 0.0, 0.0)", v4)], v4, &mut h).unwrap().0;
        assert_eq!(lod, "cg_tex2Dlod(Source, vec4(uv, 0.0, 0.0))", "a complex coordinate is not evaluated twice");
        let one_d = map(Builtin::Tex1D, &[s.clone(), arg("x", Type::FLOAT)], v4, &mut h).unwrap().0;
        assert_eq!(one_d, "texture(Source, vec2(x, 0.5))", "1D lookups read the middle row");
        let i2 = Type::vec(Scalar::Int, 2);
        let args = [s.clone(), arg("p", i2), arg("0", Type::INT), arg("ivec2(1, 0)", i2)];
        let fetch = map(Builtin::Tex2DFetchOffset, &args, v4, &mut h).unwrap().0;
        assert_eq!(fetch, "texelFetchOffset(Source, p, 0, ivec2(1, 0))");
        let v3 = Type::vec(Scalar::Float, 3);
        let rect = map(Builtin::TexRectProj, &[s.clone(), arg("c", v3)], v4, &mut h).unwrap().0;
        assert_eq!(rect, "texture(Source, c.xy / c.z / vec2(textureSize(Source, 0)))", "RECT texels are normalised");
        assert!(map(Builtin::Tex3D, &[s, arg("c", Type::vec(Scalar::Float, 3))], v4, &mut h).is_err());
    }
}
