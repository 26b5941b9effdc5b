//! Cg types as the IR sees them: a small `Copy` value ([`Type`]) for everything but
//! structs, interfaces and arrays, which are interned in the module and named by id.
//!
//! Matrices follow Cg's naming: `float3x2` is `Matrix(Float, rows: 3, cols: 2)`, indexed
//! `m[row][col]`, built row by row. This module knows nothing of GLSL's conventions.

use std::fmt;

/// The scalar kinds of Cg, including the compile-time `cint`/`cfloat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Fixed,
    Half,
    Float,
    Double,
    /// Type of an integer literal without suffix: takes the type of what it meets.
    CInt,
    /// Type of a floating literal without suffix: takes the type of what it meets.
    CFloat,
}

impl Scalar {
    pub const fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::UChar => "unsigned char",
            Scalar::Short => "short",
            Scalar::UShort => "unsigned short",
            Scalar::Int => "int",
            Scalar::UInt => "unsigned int",
            Scalar::Long => "long",
            Scalar::ULong => "unsigned long",
            Scalar::Fixed => "fixed",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
            Scalar::CInt => "cint",
            Scalar::CFloat => "cfloat",
        }
    }

    /// The prefix used in vector and matrix type names (`float` in `float4`).
    pub const fn vector_prefix(self) -> Option<&'static str> {
        Some(match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::Short => "short",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::Fixed => "fixed",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
            _ => return None,
        })
    }

    /// `cfloat`, `float`, `half`, `fixed`, `double`.
    pub const fn is_floating(self) -> bool {
        matches!(self, Scalar::Fixed | Scalar::Half | Scalar::Float | Scalar::Double | Scalar::CFloat)
    }

    pub const fn is_integral(self) -> bool {
        matches!(
            self,
            Scalar::Char
                | Scalar::UChar
                | Scalar::Short
                | Scalar::UShort
                | Scalar::Int
                | Scalar::UInt
                | Scalar::Long
                | Scalar::ULong
                | Scalar::CInt
        )
    }

    pub const fn is_unsigned(self) -> bool {
        matches!(self, Scalar::UChar | Scalar::UShort | Scalar::UInt | Scalar::ULong)
    }

    pub const fn is_numeric(self) -> bool {
        !matches!(self, Scalar::Bool)
    }

    pub const fn is_compile_time(self) -> bool {
        matches!(self, Scalar::CInt | Scalar::CFloat)
    }

    /// Rank used by the usual arithmetic conversions: within floating and within
    /// integral types, the larger rank wins.
    pub const fn rank(self) -> u8 {
        match self {
            Scalar::Bool => 0,
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort => 2,
            Scalar::CInt | Scalar::Int | Scalar::UInt => 3,
            Scalar::Long | Scalar::ULong => 4,
            Scalar::Fixed => 5,
            Scalar::Half => 6,
            Scalar::CFloat | Scalar::Float => 7,
            Scalar::Double => 8,
        }
    }

    /// The run-time type a compile-time constant becomes when nothing else decides.
    pub const fn concrete(self) -> Scalar {
        match self {
            Scalar::CInt => Scalar::Int,
            Scalar::CFloat => Scalar::Float,
            other => other,
        }
    }

    pub const fn to_unsigned(self) -> Scalar {
        match self {
            Scalar::Char => Scalar::UChar,
            Scalar::Short => Scalar::UShort,
            Scalar::Int | Scalar::CInt => Scalar::UInt,
            Scalar::Long => Scalar::ULong,
            other => other,
        }
    }
}

/// What a sampler samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SamplerDim {
    /// The untyped `sampler` of Cg 1.0: compatible with every other sampler type.
    Any,
    D1,
    D2,
    D3,
    Cube,
    Rect,
}

impl SamplerDim {
    pub const fn name(self) -> &'static str {
        match self {
            SamplerDim::Any => "sampler",
            SamplerDim::D1 => "sampler1D",
            SamplerDim::D2 => "sampler2D",
            SamplerDim::D3 => "sampler3D",
            SamplerDim::Cube => "samplerCUBE",
            SamplerDim::Rect => "samplerRECT",
        }
    }
}

/// Index of a struct in [`crate::ir::Module::structs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// Index of an interface in [`crate::ir::Module::interfaces`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InterfaceId(pub u32);

/// Index of an interned array type in [`crate::ir::Module::arrays`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayId(pub u32);

/// A Cg type. `Copy`; aggregates are named by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Void,
    Scalar(Scalar),
    /// `float1` .. `float4`: distinct from the scalar even at size 1.
    Vector(Scalar, u8),
    /// `floatRxC`: `rows` x `cols`, row-major in meaning.
    Matrix {
        scalar: Scalar,
        rows: u8,
        cols: u8,
    },
    Sampler(SamplerDim),
    String,
    Struct(StructId),
    Interface(InterfaceId),
    Array(ArrayId),
}

/// An interned array type: element type and length (`None` for unsized `[]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayType {
    pub elem: Type,
    pub len: Option<u32>,
}

impl Type {
    pub const FLOAT: Type = Type::Scalar(Scalar::Float);
    pub const INT: Type = Type::Scalar(Scalar::Int);
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);

    pub const fn vec(scalar: Scalar, size: u8) -> Type {
        Type::Vector(scalar, size)
    }

    pub const fn mat(scalar: Scalar, rows: u8, cols: u8) -> Type {
        Type::Matrix { scalar, rows, cols }
    }

    /// The element scalar of a scalar, vector or matrix.
    pub const fn scalar(self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) | Type::Matrix { scalar: s, .. } => Some(s),
            _ => None,
        }
    }

    /// Same shape, other element scalar.
    pub const fn with_scalar(self, s: Scalar) -> Type {
        match self {
            Type::Scalar(_) => Type::Scalar(s),
            Type::Vector(_, n) => Type::Vector(s, n),
            Type::Matrix { rows, cols, .. } => Type::Matrix { scalar: s, rows, cols },
            other => other,
        }
    }

    /// Number of scalar components of a scalar, vector or matrix.
    pub const fn components(self) -> Option<u32> {
        match self {
            Type::Scalar(_) => Some(1),
            Type::Vector(_, n) => Some(n as u32),
            Type::Matrix { rows, cols, .. } => Some(rows as u32 * cols as u32),
            _ => None,
        }
    }

    pub const fn is_scalar(self) -> bool {
        matches!(self, Type::Scalar(_))
    }

    pub const fn is_vector(self) -> bool {
        matches!(self, Type::Vector(..))
    }

    pub const fn is_matrix(self) -> bool {
        matches!(self, Type::Matrix { .. })
    }

    /// Scalar, vector or matrix.
    pub const fn is_numeric_shape(self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. })
    }

    pub const fn is_sampler(self) -> bool {
        matches!(self, Type::Sampler(_))
    }

    /// Replaces `cint`/`cfloat` by `int`/`float`.
    pub const fn concrete(self) -> Type {
        match self.scalar() {
            Some(s) => self.with_scalar(s.concrete()),
            None => self,
        }
    }
}

/// Formats built-in types with their Cg names; aggregates need the module for their
/// names (see [`crate::ir::Module::type_name`]), here they print as `struct#N`.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Type::Void => f.write_str("void"),
            Type::Scalar(s) => f.write_str(s.name()),
            Type::Vector(s, n) => match s.vector_prefix() {
                Some(p) => write!(f, "{p}{n}"),
                None => write!(f, "{}{n}", s.name()),
            },
            Type::Matrix { scalar, rows, cols } => match scalar.vector_prefix() {
                Some(p) => write!(f, "{p}{rows}x{cols}"),
                None => write!(f, "{}{rows}x{cols}", scalar.name()),
            },
            Type::Sampler(d) => f.write_str(d.name()),
            Type::String => f.write_str("string"),
            Type::Struct(id) => write!(f, "struct#{}", id.0),
            Type::Interface(id) => write!(f, "interface#{}", id.0),
            Type::Array(id) => write!(f, "array#{}", id.0),
        }
    }
}

/// Parses a built-in type name (`float4`, `half3x3`, `uint2`, `sampler2D`, `unsigned int`),
/// including the GLSL spellings NVIDIA's compiler took as aliases ([`glsl_alias`]).
pub fn builtin_type(name: &str) -> Option<Type> {
    if let Some(t) = glsl_alias(name) {
        return Some(t);
    }
    match name {
        "void" => return Some(Type::Void),
        "string" => return Some(Type::String),
        "sampler" => return Some(Type::Sampler(SamplerDim::Any)),
        "sampler1D" => return Some(Type::Sampler(SamplerDim::D1)),
        "sampler2D" => return Some(Type::Sampler(SamplerDim::D2)),
        "sampler3D" => return Some(Type::Sampler(SamplerDim::D3)),
        "samplerCUBE" => return Some(Type::Sampler(SamplerDim::Cube)),
        "samplerRECT" => return Some(Type::Sampler(SamplerDim::Rect)),
        "unsigned" | "unsigned int" | "uint" => return Some(Type::Scalar(Scalar::UInt)),
        "unsigned char" => return Some(Type::Scalar(Scalar::UChar)),
        "unsigned short" | "unsigned short int" => return Some(Type::Scalar(Scalar::UShort)),
        "unsigned long" | "unsigned long int" => return Some(Type::Scalar(Scalar::ULong)),
        "short int" => return Some(Type::Scalar(Scalar::Short)),
        "long int" => return Some(Type::Scalar(Scalar::Long)),
        "cint" => return Some(Type::Scalar(Scalar::CInt)),
        "cfloat" => return Some(Type::Scalar(Scalar::CFloat)),
        _ => {}
    }
    const PREFIXES: [(&str, Scalar); 10] = [
        ("bool", Scalar::Bool),
        ("char", Scalar::Char),
        ("short", Scalar::Short),
        ("uint", Scalar::UInt),
        ("int", Scalar::Int),
        ("long", Scalar::Long),
        ("fixed", Scalar::Fixed),
        ("half", Scalar::Half),
        ("float", Scalar::Float),
        ("double", Scalar::Double),
    ];
    for (prefix, scalar) in PREFIXES {
        let Some(rest) = name.strip_prefix(prefix) else { continue };
        let digit = |c: u8| (b'1'..=b'4').contains(&c).then_some(c - b'0');
        return match rest.as_bytes() {
            [] => Some(Type::Scalar(scalar)),
            [n] => digit(*n).map(|n| Type::Vector(scalar, n)),
            [r, b'x', c] => Some(Type::Matrix { scalar, rows: digit(*r)?, cols: digit(*c)? }),
            _ => None,
        };
    }
    None
}

/// The Cg type a GLSL type name stands for in cgc 3.1, in every profile: `vecN`,
/// `ivecN`, `uvecN`, `bvecN`, `dvecN` are `floatN`, `intN`, `uintN`, `boolN`, `doubleN`;
/// `matN` is `floatNxN`; `matRxC` is Cg's `floatRxC`, R rows and C columns (Cg's order,
/// not GLSL's columns x rows: cgc's reflection lists `uniform mat2x3 m` as `float2x3`).
/// Sizes are 2 to 4, as in GLSL.
pub fn glsl_alias(name: &str) -> Option<Type> {
    let dim = |c: u8| (b'2'..=b'4').contains(&c).then_some(c - b'0');
    let vec = |s: Scalar, n: u8| dim(n).map(|n| Type::Vector(s, n));
    match *name.as_bytes() {
        [b'v', b'e', b'c', n] => vec(Scalar::Float, n),
        [b'i', b'v', b'e', b'c', n] => vec(Scalar::Int, n),
        [b'u', b'v', b'e', b'c', n] => vec(Scalar::UInt, n),
        [b'b', b'v', b'e', b'c', n] => vec(Scalar::Bool, n),
        [b'd', b'v', b'e', b'c', n] => vec(Scalar::Double, n),
        [b'm', b'a', b't', n] => dim(n).map(|n| Type::Matrix { scalar: Scalar::Float, rows: n, cols: n }),
        [b'm', b'a', b't', r, b'x', c] => Some(Type::Matrix { scalar: Scalar::Float, rows: dim(r)?, cols: dim(c)? }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glsl_type_names_are_exact_cg_aliases() {
        let t = |n: &str| builtin_type(n).unwrap_or_else(|| panic!("{n}"));
        for (alias, cg) in [
            ("vec2", "float2"),
            ("vec3", "float3"),
            ("vec4", "float4"),
            ("ivec2", "int2"),
            ("ivec4", "int4"),
            ("uvec3", "uint3"),
            ("bvec2", "bool2"),
            ("dvec4", "double4"),
            ("mat2", "float2x2"),
            ("mat3", "float3x3"),
            ("mat4", "float4x4"),
            ("mat2x3", "float2x3"),
            ("mat3x2", "float3x2"),
            ("mat4x2", "float4x2"),
            ("mat2x4", "float2x4"),
        ] {
            assert_eq!(t(alias), t(cg), "{alias}");
        }
        // `mat2x3` has Cg's 2 rows and 3 columns, not GLSL's 2 columns.
        assert_eq!(t("mat2x3"), Type::Matrix { scalar: Scalar::Float, rows: 2, cols: 3 });
        for bad in ["vec1", "vec5", "mat1", "mat2x1", "mat5x2", "ivec", "dmat2", "Vec2"] {
            assert_eq!(builtin_type(bad), None, "{bad}");
        }
    }

    #[test]
    fn builtin_names_round_trip() {
        for name in ["float", "float1", "float4", "half3x2", "fixed4x4", "bool3", "int2", "double1x4", "uint2"] {
            let t = builtin_type(name).unwrap();
            assert_eq!(t.to_string(), name);
        }
        assert_eq!(builtin_type("float3x2"), Some(Type::mat(Scalar::Float, 3, 2)));
        assert_eq!(builtin_type("float5"), None);
        assert_eq!(builtin_type("float0x1"), None);
        assert_eq!(builtin_type("floaty"), None);
        assert_eq!(builtin_type("unsigned int"), Some(Type::Scalar(Scalar::UInt)));
    }

    #[test]
    fn shapes_and_components() {
        assert_eq!(Type::mat(Scalar::Half, 2, 3).components(), Some(6));
        assert_eq!(Type::vec(Scalar::Float, 1).components(), Some(1));
        assert_ne!(Type::vec(Scalar::Float, 1), Type::FLOAT);
        assert_eq!(Type::vec(Scalar::CFloat, 3).concrete(), Type::vec(Scalar::Float, 3));
    }
}
