//! RetroArch's slang semantics as one vocabulary: the texture semantics (`Original`,
//! `Source`, `OriginalHistory#`, `PassOutput#`, `PassFeedback#`, `User#`), their `*Size`
//! uniforms, the built-in uniforms (`MVP`, `OutputSize`, `FinalViewportSize`,
//! `FrameCount`, `FrameDirection`, ...) with the GLSL type RetroArch requires of each,
//! the names a pass alias or LUT id adds (`X`, `XSize`, `XFeedback`, `XFeedbackSize`),
//! and the one parser that reads a name back as RetroArch's `slang_reflect` does (exact
//! match for `Original`/`Source`, prefix match for the arrayed semantics with the rest
//! read by C's `strtoul`, so `PassOutputFoo` is pass 0).
//!
//! The translator spells the names it emits with it; the validator and the filter chain
//! read names with it. Facts follow shared/reference/retroarch-runtime.md and RetroArch's
//! gfx/drivers_shader/slang_reflection.cpp. This is vocabulary only: it never decides
//! what a name means in one pass (which texture `Source` is, whether an alias is visible
//! there, whether an index is in bounds). Each user decides that for itself, so the checks
//! built on these names stay independent of each other.

use std::fmt;

/// The texture semantics, in RetroArch's order (`texture_semantic_names`), which is the
/// order [`parse_texture`] tries them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TextureSemantic {
    Original,
    Source,
    OriginalHistory,
    PassOutput,
    PassFeedback,
    /// A LUT, by its index in the preset's `textures`.
    User,
}

impl TextureSemantic {
    pub const ALL: [TextureSemantic; 6] = [
        TextureSemantic::Original,
        TextureSemantic::Source,
        TextureSemantic::OriginalHistory,
        TextureSemantic::PassOutput,
        TextureSemantic::PassFeedback,
        TextureSemantic::User,
    ];

    /// The sampler name, or its prefix for an arrayed semantic (`PassOutput`).
    pub fn name(self) -> &'static str {
        self.names().0
    }

    /// The size uniform's name, or its prefix for an arrayed semantic (`PassOutputSize`).
    pub fn size_name(self) -> &'static str {
        self.names().1
    }

    /// Both spellings in one place: (sampler, size uniform).
    fn names(self) -> (&'static str, &'static str) {
        match self {
            TextureSemantic::Original => ("Original", "OriginalSize"),
            TextureSemantic::Source => ("Source", "SourceSize"),
            TextureSemantic::OriginalHistory => ("OriginalHistory", "OriginalHistorySize"),
            TextureSemantic::PassOutput => ("PassOutput", "PassOutputSize"),
            TextureSemantic::PassFeedback => ("PassFeedback", "PassFeedbackSize"),
            TextureSemantic::User => ("User", "UserSize"),
        }
    }

    /// Whether the name carries an index (`PassOutput2`); `Original` and `Source` do not.
    pub fn is_arrayed(self) -> bool {
        !matches!(self, TextureSemantic::Original | TextureSemantic::Source)
    }

    /// The sampler name of entry `index` (`PassOutput2`; `Source` ignores the index).
    pub fn sampler(self, index: usize) -> String {
        indexed(self.name(), self.is_arrayed(), index)
    }

    /// The size uniform of entry `index` (`PassOutputSize2`: the index follows `Size`).
    pub fn size_uniform(self, index: usize) -> String {
        indexed(self.size_name(), self.is_arrayed(), index)
    }
}

fn indexed(base: &str, arrayed: bool, index: usize) -> String {
    if arrayed {
        format!("{base}{index}")
    } else {
        base.to_owned()
    }
}

impl fmt::Display for TextureSemantic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The suffix of a texture's size uniform (`SourceSize`, `<alias>Size`).
pub const SIZE_SUFFIX: &str = "Size";
/// The suffix that names a pass alias's feedback texture (`<alias>Feedback`).
pub const FEEDBACK_SUFFIX: &str = "Feedback";

/// The size uniform of a texture bound by name (a pass alias or a LUT id): `<name>Size`.
pub fn named_size(name: &str) -> String {
    format!("{name}{SIZE_SUFFIX}")
}

/// The sampler name of a pass alias's feedback texture: `<alias>Feedback`.
pub fn alias_feedback(alias: &str) -> String {
    format!("{alias}{FEEDBACK_SUFFIX}")
}

/// Whether `name` is `<alias>Feedback`.
pub fn is_alias_feedback(name: &str, alias: &str) -> bool {
    name.strip_prefix(alias) == Some(FEEDBACK_SUFFIX)
}

/// The texture a size uniform is named after: `FooSize` is `Some("Foo")`.
pub fn size_base(name: &str) -> Option<&str> {
    name.strip_suffix(SIZE_SUFFIX)
}

/// A sampler name read as RetroArch's `slang_name_to_texture_semantic_array` reads it:
/// `Original` and `Source` exactly (index 0), the arrayed semantics by prefix with the
/// rest read by [`strtoul`]. `None` for any other name (aliases and LUT ids are the
/// caller's: only it knows which are visible).
pub fn parse_texture(name: &str) -> Option<(TextureSemantic, u32)> {
    parse(name, TextureSemantic::name)
}

/// A texture size uniform read the same way: `OriginalSize`, `SourceSize`,
/// `PassOutputSize#`, ... (the index follows `Size`; `PassOutput0Size` is no semantic).
pub fn parse_texture_size(name: &str) -> Option<(TextureSemantic, u32)> {
    parse(name, TextureSemantic::size_name)
}

fn parse(name: &str, spelling: fn(TextureSemantic) -> &'static str) -> Option<(TextureSemantic, u32)> {
    for s in TextureSemantic::ALL {
        let base = spelling(s);
        if s.is_arrayed() {
            if let Some(rest) = name.strip_prefix(base) {
                return Some((s, strtoul(rest)));
            }
        } else if name == base {
            return Some((s, 0));
        }
    }
    None
}

/// C's `strtoul(s, NULL, 0)` truncated to 32 bits, as RetroArch reads a semantic's index
/// (into an `unsigned`): optional sign, `0x` hex, leading-`0` octal, else decimal, up to
/// the first non-digit; 0 when there is none; `u32::MAX` on overflow.
pub fn strtoul(s: &str) -> u32 {
    let s = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (negative, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = s.to_ascii_lowercase();
    let (radix, digits) = if lower.starts_with("0x") && lower[2..].chars().next().is_some_and(|c| c.is_ascii_hexdigit())
    {
        (16, &s[2..])
    } else if s.starts_with('0') {
        (8, s)
    } else {
        (10, s)
    };
    let mut value: u64 = 0;
    let mut overflow = false;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else { break };
        match value.checked_mul(u64::from(radix)).and_then(|v| v.checked_add(u64::from(d))) {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    if overflow {
        value = u64::MAX;
    }
    let value = if negative { value.wrapping_neg() } else { value };
    value as u32
}

/// The GLSL type a uniform semantic must be declared with (RetroArch's
/// `validate_type_for_semantic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UniformType {
    Mat4,
    Vec4,
    Vec3,
    Float,
    UInt,
    Int,
}

impl UniformType {
    pub fn glsl(self) -> &'static str {
        match self {
            UniformType::Mat4 => "mat4",
            UniformType::Vec4 => "vec4",
            UniformType::Vec3 => "vec3",
            UniformType::Float => "float",
            UniformType::UInt => "uint",
            UniformType::Int => "int",
        }
    }

    /// Its size in a std140/std430 block, in bytes.
    pub fn bytes(self) -> u32 {
        match self {
            UniformType::Mat4 => 64,
            UniformType::Vec4 => 16,
            UniformType::Vec3 => 12,
            UniformType::Float | UniformType::UInt | UniformType::Int => 4,
        }
    }
}

/// The built-in (non-texture) uniform semantics of RetroArch (`semantic_uniform_names`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BuiltinUniform {
    Mvp,
    OutputSize,
    FinalViewportSize,
    FrameCount,
    FrameDirection,
    FrameTimeDelta,
    OriginalFps,
    Rotation,
    OriginalAspect,
    OriginalAspectRotated,
    TotalSubFrames,
    CurrentSubFrame,
    HdrMode,
    BrightnessNits,
    Scanlines,
    SubpixelLayout,
    ExpandGamut,
    InverseTonemap,
    Hdr10,
    Gyroscope,
    Accelerometer,
    AccelerometerRest,
}

impl BuiltinUniform {
    pub const ALL: [BuiltinUniform; 22] = [
        BuiltinUniform::Mvp,
        BuiltinUniform::OutputSize,
        BuiltinUniform::FinalViewportSize,
        BuiltinUniform::FrameCount,
        BuiltinUniform::FrameDirection,
        BuiltinUniform::FrameTimeDelta,
        BuiltinUniform::OriginalFps,
        BuiltinUniform::Rotation,
        BuiltinUniform::OriginalAspect,
        BuiltinUniform::OriginalAspectRotated,
        BuiltinUniform::TotalSubFrames,
        BuiltinUniform::CurrentSubFrame,
        BuiltinUniform::HdrMode,
        BuiltinUniform::BrightnessNits,
        BuiltinUniform::Scanlines,
        BuiltinUniform::SubpixelLayout,
        BuiltinUniform::ExpandGamut,
        BuiltinUniform::InverseTonemap,
        BuiltinUniform::Hdr10,
        BuiltinUniform::Gyroscope,
        BuiltinUniform::Accelerometer,
        BuiltinUniform::AccelerometerRest,
    ];

    /// The member name in a uniform or push-constant block.
    pub fn name(self) -> &'static str {
        self.spec().0
    }

    /// The type RetroArch requires.
    pub fn ty(self) -> UniformType {
        self.spec().1
    }

    fn spec(self) -> (&'static str, UniformType) {
        use UniformType::*;
        match self {
            BuiltinUniform::Mvp => ("MVP", Mat4),
            BuiltinUniform::OutputSize => ("OutputSize", Vec4),
            BuiltinUniform::FinalViewportSize => ("FinalViewportSize", Vec4),
            BuiltinUniform::FrameCount => ("FrameCount", UInt),
            BuiltinUniform::FrameDirection => ("FrameDirection", Int),
            BuiltinUniform::FrameTimeDelta => ("FrameTimeDelta", UInt),
            BuiltinUniform::OriginalFps => ("OriginalFPS", Float),
            BuiltinUniform::Rotation => ("Rotation", UInt),
            BuiltinUniform::OriginalAspect => ("OriginalAspect", Float),
            BuiltinUniform::OriginalAspectRotated => ("OriginalAspectRotated", Float),
            BuiltinUniform::TotalSubFrames => ("TotalSubFrames", UInt),
            BuiltinUniform::CurrentSubFrame => ("CurrentSubFrame", UInt),
            BuiltinUniform::HdrMode => ("HDRMode", UInt),
            BuiltinUniform::BrightnessNits => ("BrightnessNits", Float),
            BuiltinUniform::Scanlines => ("Scanlines", Float),
            BuiltinUniform::SubpixelLayout => ("SubpixelLayout", UInt),
            BuiltinUniform::ExpandGamut => ("ExpandGamut", UInt),
            BuiltinUniform::InverseTonemap => ("InverseTonemap", Float),
            BuiltinUniform::Hdr10 => ("HDR10", Float),
            BuiltinUniform::Gyroscope => ("Gyroscope", Vec3),
            BuiltinUniform::Accelerometer => ("Accelerometer", Vec3),
            BuiltinUniform::AccelerometerRest => ("AccelerometerRest", Vec3),
        }
    }

    /// The built-in uniform spelled `name`, exactly.
    pub fn parse(name: &str) -> Option<BuiltinUniform> {
        BuiltinUniform::ALL.into_iter().find(|b| b.name() == name)
    }
}

impl fmt::Display for BuiltinUniform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A texture as the translator names it in slang.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Texture {
    Source,
    Original,
    OriginalHistory(usize),
    PassOutput(usize),
    PassFeedback(usize),
    /// A pass alias or a LUT id, bound by name.
    Named(String),
}

impl Texture {
    /// Its semantic and index, `None` for a texture bound by name.
    pub fn semantic(&self) -> Option<(TextureSemantic, usize)> {
        self.spelled().ok()
    }

    /// Its semantic and index, or the name it is bound by.
    fn spelled(&self) -> Result<(TextureSemantic, usize), &str> {
        Ok(match self {
            Texture::Source => (TextureSemantic::Source, 0),
            Texture::Original => (TextureSemantic::Original, 0),
            Texture::OriginalHistory(n) => (TextureSemantic::OriginalHistory, *n),
            Texture::PassOutput(n) => (TextureSemantic::PassOutput, *n),
            Texture::PassFeedback(n) => (TextureSemantic::PassFeedback, *n),
            Texture::Named(name) => return Err(name),
        })
    }

    /// The sampler name in slang.
    pub fn sampler_name(&self) -> String {
        match self.spelled() {
            Ok((s, n)) => s.sampler(n),
            Err(name) => name.to_owned(),
        }
    }

    /// The size uniform in slang (`SourceSize`, `PassOutputSize2`, `<alias>Size`).
    pub fn size_name(&self) -> String {
        match self.spelled() {
            Ok((s, n)) => s.size_uniform(n),
            Err(name) => named_size(name),
        }
    }
}

impl fmt::Display for Texture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sampler_name())
    }
}

/// The uniforms a translated shader may use.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Uniform {
    Mvp,
    OutputSize,
    FinalViewportSize,
    FrameCount,
    FrameDirection,
    /// The size vec4 of a texture.
    Size(Texture),
    /// A `#pragma parameter`.
    Parameter(String),
}

/// What a [`Uniform`] is, for spelling it.
enum UniformKind<'a> {
    Builtin(BuiltinUniform),
    Size(&'a Texture),
    Parameter(&'a str),
}

impl Uniform {
    /// The built-in uniforms the translator emits.
    pub const BUILTINS: [Uniform; 5] =
        [Uniform::Mvp, Uniform::OutputSize, Uniform::FinalViewportSize, Uniform::FrameCount, Uniform::FrameDirection];

    fn kind(&self) -> UniformKind<'_> {
        match self {
            Uniform::Mvp => UniformKind::Builtin(BuiltinUniform::Mvp),
            Uniform::OutputSize => UniformKind::Builtin(BuiltinUniform::OutputSize),
            Uniform::FinalViewportSize => UniformKind::Builtin(BuiltinUniform::FinalViewportSize),
            Uniform::FrameCount => UniformKind::Builtin(BuiltinUniform::FrameCount),
            Uniform::FrameDirection => UniformKind::Builtin(BuiltinUniform::FrameDirection),
            Uniform::Size(t) => UniformKind::Size(t),
            Uniform::Parameter(p) => UniformKind::Parameter(p),
        }
    }

    /// The built-in semantic it is, if any.
    pub fn builtin(&self) -> Option<BuiltinUniform> {
        match self.kind() {
            UniformKind::Builtin(b) => Some(b),
            UniformKind::Size(_) | UniformKind::Parameter(_) => None,
        }
    }

    pub fn name(&self) -> String {
        match self.kind() {
            UniformKind::Builtin(b) => b.name().to_owned(),
            UniformKind::Size(t) => t.size_name(),
            UniformKind::Parameter(p) => p.to_owned(),
        }
    }

    /// The GLSL type RetroArch requires and its size in bytes (a parameter is a float).
    pub fn glsl_type(&self) -> (&'static str, u32) {
        let ty = match self.kind() {
            UniformKind::Builtin(b) => b.ty(),
            UniformKind::Size(_) => UniformType::Vec4,
            UniformKind::Parameter(_) => UniformType::Float,
        };
        (ty.glsl(), ty.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_through_the_parser() {
        for s in TextureSemantic::ALL {
            let index = if s.is_arrayed() { 3 } else { 0 };
            assert_eq!(parse_texture(&s.sampler(3)), Some((s, index)), "{s}");
            assert_eq!(parse_texture_size(&s.size_uniform(3)), Some((s, index)), "{s}");
        }
        for b in BuiltinUniform::ALL {
            assert_eq!(BuiltinUniform::parse(b.name()), Some(b));
        }
        for u in Uniform::BUILTINS {
            assert_eq!(u.builtin().map(BuiltinUniform::name), Some(u.name().as_str()));
        }
    }

    #[test]
    fn the_translator_spells_indices_after_the_size_suffix() {
        assert_eq!(Texture::OriginalHistory(2).sampler_name(), "OriginalHistory2");
        assert_eq!(Texture::PassFeedback(1).size_name(), "PassFeedbackSize1");
        assert_eq!(Texture::Source.size_name(), "SourceSize");
        assert_eq!(Texture::Named("LUT".into()).size_name(), "LUTSize");
        assert_eq!(Uniform::Size(Texture::PassOutput(0)).name(), "PassOutputSize0");
        assert_eq!(Uniform::Mvp.glsl_type(), ("mat4", 64));
        assert_eq!(Uniform::FrameCount.glsl_type(), ("uint", 4));
        assert_eq!(Uniform::FrameDirection.glsl_type(), ("int", 4));
        assert_eq!(Uniform::Size(Texture::Original).glsl_type(), ("vec4", 16));
        assert_eq!(Uniform::Parameter("p".into()).glsl_type(), ("float", 4));
    }

    #[test]
    fn names_are_read_as_retroarch_reads_them() {
        assert_eq!(parse_texture("Source"), Some((TextureSemantic::Source, 0)));
        assert_eq!(parse_texture("SourceX"), None, "Source is matched exactly");
        assert_eq!(parse_texture("OriginalHistory0"), Some((TextureSemantic::OriginalHistory, 0)));
        assert_eq!(parse_texture("PassOutputFoo"), Some((TextureSemantic::PassOutput, 0)), "strtoul reads no digit");
        assert_eq!(parse_texture("PassOutput010"), Some((TextureSemantic::PassOutput, 8)), "leading 0 is octal");
        assert_eq!(parse_texture("User0x1F"), Some((TextureSemantic::User, 31)));
        assert_eq!(parse_texture("decal"), None);
        assert_eq!(parse_texture_size("PassOutput0Size"), None, "the index follows Size");
        assert_eq!(parse_texture_size("OriginalSize"), Some((TextureSemantic::Original, 0)));
        assert_eq!(BuiltinUniform::parse("OriginalFPS"), Some(BuiltinUniform::OriginalFps));
        assert_eq!(BuiltinUniform::parse("mvp"), None, "names are case-sensitive");
        assert!(is_alias_feedback(&alias_feedback("FIRST"), "FIRST"));
        assert!(!is_alias_feedback("FIRSTFeedbackSize", "FIRST"));
        assert_eq!(size_base(&named_size("LUT")), Some("LUT"));
    }

    #[test]
    fn strtoul_like_c() {
        assert_eq!(strtoul("12"), 12);
        assert_eq!(strtoul(""), 0);
        assert_eq!(strtoul("Foo"), 0);
        assert_eq!(strtoul("0x1F"), 31);
        assert_eq!(strtoul("0x"), 0);
        assert_eq!(strtoul("010"), 8);
        assert_eq!(strtoul("3abc"), 3);
        assert_eq!(strtoul("-1"), u32::MAX);
        assert_eq!(strtoul("99999999999999999999999"), u32::MAX);
    }
}
