//! The Cg conversion table and the usual arithmetic conversions, as pure functions.
//!
//! [`classify`] answers "may a value of type `from` become type `to`, and how?" exactly
//! as the Cg 3.1 spec's conversion table says (allowed, allowed with a warning, only
//! with an explicit cast, never). [`arithmetic_scalar`] is the spec's "usual arithmetic
//! conversions" including the `cint`/`cfloat` promotion rules. Building the IR nodes
//! that carry a conversion out is [`super::expr`]'s job; nothing here touches the IR
//! arenas or emits diagnostics.
//!
//! One deliberate extension: `bool` converts to and from numeric scalars (and vectors of
//! the same size) implicitly. NVIDIA's compiler accepted it and real shaders rely on it
//! (`float x = a > b;`).

use crate::codes;
use crate::ir::{Module, SamplerDim, Scalar, Type};

/// How a conversion is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The types are the same.
    Same,
    /// Allowed implicitly, silently.
    Implicit,
    /// Allowed implicitly with this warning code (W03xx); silent with a cast.
    Warn(&'static str),
    /// Only with an explicit cast.
    Explicit,
    /// Not even with a cast.
    Never,
}

impl Class {
    pub fn implicit_ok(self) -> bool {
        matches!(self, Class::Same | Class::Implicit | Class::Warn(_))
    }
    pub fn explicit_ok(self) -> bool {
        !matches!(self, Class::Never)
    }
}

/// Element types that convert into each other (any numeric or bool scalar).
fn scalars_compatible(a: Scalar, b: Scalar) -> bool {
    let _ = (a, b);
    true
}

fn scalar_class(from: Scalar, to: Scalar) -> Class {
    if from == to || from.is_compile_time() {
        return if from == to { Class::Same } else { Class::Implicit };
    }
    if !scalars_compatible(from, to) {
        return Class::Never;
    }
    if from.is_floating() && to.is_integral() {
        Class::Warn(codes::W_PRECISION)
    } else {
        Class::Implicit
    }
}

/// Combines the shape class with the element-type class (the stricter wins).
fn combine(shape: Class, elem: Class) -> Class {
    use Class::*;
    match (shape, elem) {
        (Never, _) | (_, Never) => Never,
        (Explicit, _) | (_, Explicit) => Explicit,
        (Warn(c), _) => Warn(c),
        (_, Warn(c)) => Warn(c),
        (Same, Same) => Same,
        _ => Implicit,
    }
}

fn sampler_class(from: SamplerDim, to: SamplerDim) -> Class {
    if from == to {
        Class::Same
    } else if from == SamplerDim::Any || to == SamplerDim::Any {
        Class::Implicit
    } else {
        Class::Never
    }
}

/// The conversion table of the Cg spec ("Type Conversions").
pub fn classify(module: &Module, from: Type, to: Type) -> Class {
    use Class::*;
    if from == to {
        return Same;
    }
    match (from, to) {
        (Type::Sampler(a), Type::Sampler(b)) => sampler_class(a, b),
        (Type::Scalar(a), Type::Scalar(b)) => scalar_class(a, b),
        // Scalar to vector or matrix: replicated.
        (Type::Scalar(a), Type::Vector(b, _) | Type::Matrix { scalar: b, .. }) => combine(Implicit, scalar_class(a, b)),
        // Vector or matrix to scalar: selects the first element, with a warning.
        (Type::Vector(a, n), Type::Scalar(b)) => {
            let shape = if n == 1 { Implicit } else { Warn(codes::W_TRUNCATION) };
            combine(shape, scalar_class(a, b))
        }
        (Type::Matrix { scalar: a, rows, cols }, Type::Scalar(b)) => {
            let shape = if rows * cols == 1 { Implicit } else { Warn(codes::W_TRUNCATION) };
            combine(shape, scalar_class(a, b))
        }
        (Type::Vector(a, n), Type::Vector(b, m)) => {
            let shape = match m.cmp(&n) {
                std::cmp::Ordering::Equal => Implicit,
                std::cmp::Ordering::Less => Warn(codes::W_TRUNCATION),
                std::cmp::Ordering::Greater => Never,
            };
            combine(shape, scalar_class(a, b))
        }
        (Type::Matrix { scalar: a, rows: r1, cols: c1 }, Type::Matrix { scalar: b, rows: r2, cols: c2 }) => {
            let shape = if (r1, c1) == (r2, c2) {
                Implicit
            } else if r2 <= r1 && c2 <= c1 {
                Warn(codes::W_TRUNCATION)
            } else {
                Never
            };
            combine(shape, scalar_class(a, b))
        }
        (Type::Vector(a, n), Type::Matrix { scalar: b, rows, cols })
        | (Type::Matrix { scalar: a, rows, cols }, Type::Vector(b, n)) => {
            let shape = if n as u32 == rows as u32 * cols as u32 { Warn(codes::W_RESHAPE) } else { Never };
            combine(shape, scalar_class(a, b))
        }
        // Struct to scalar/vector/matrix/array: explicit, through its first member.
        (Type::Struct(s), to) if !matches!(to, Type::Struct(_)) => match module.struct_def(s).fields.first() {
            Some(f) if classify(module, f.ty, to).explicit_ok() => Explicit,
            _ => Never,
        },
        (Type::Struct(a), Type::Struct(b)) => {
            let (fa, fb) = (&module.struct_def(a).fields, &module.struct_def(b).fields);
            let single = fb.len() == 1 && fb[0].ty == from;
            let memberwise =
                fa.len() == fb.len() && fa.iter().zip(fb).all(|(x, y)| classify(module, x.ty, y.ty).implicit_ok());
            if single || memberwise {
                Explicit
            } else {
                Never
            }
        }
        // Anything to a struct: explicit, when the struct's single field takes it, or a
        // scalar that converts to every member.
        (from, Type::Struct(s)) => {
            let fields = &module.struct_def(s).fields;
            let single = fields.len() == 1 && fields[0].ty == from;
            let scalar_all = from.is_scalar() && fields.iter().all(|f| classify(module, from, f.ty).explicit_ok());
            if single || scalar_all {
                Explicit
            } else {
                Never
            }
        }
        (Type::Array(a), Type::Array(b)) => {
            let (a, b) = (module.array_type(a), module.array_type(b));
            match (a.len, b.len) {
                (Some(x), Some(y)) if x == y && classify(module, a.elem, b.elem).implicit_ok() => Explicit,
                // Unsized arrays take on the size of what is assigned to them.
                (_, None) if classify(module, a.elem, b.elem).implicit_ok() => Implicit,
                _ => Never,
            }
        }
        (Type::Array(a), Type::Vector(s, n)) | (Type::Vector(s, n), Type::Array(a)) => {
            let a = module.array_type(a);
            match a.elem {
                Type::Scalar(e) if a.len == Some(n as u32) && scalars_compatible(e, s) => Explicit,
                _ => Never,
            }
        }
        (Type::Array(a), Type::Matrix { scalar, rows, cols })
        | (Type::Matrix { scalar, rows, cols }, Type::Array(a)) => {
            let a = module.array_type(a);
            match a.elem {
                Type::Vector(e, n) if n == cols && a.len == Some(rows as u32) && scalars_compatible(e, scalar) => {
                    Explicit
                }
                _ => Never,
            }
        }
        _ => Never,
    }
}

/// The usual arithmetic conversions for two scalar kinds (Cg spec, "Type-Promotion
/// Rules"): the kind both operands take. `cint` yields to anything; `cfloat` yields to
/// floating types and absorbs integral ones; within floating or integral kinds the larger
/// rank wins; same-size signed and unsigned give unsigned. `bool` meets numbers as `int`.
pub fn arithmetic_scalar(a: Scalar, b: Scalar) -> Scalar {
    use Scalar::*;
    let a = if a == Bool && b != Bool { CInt } else { a };
    let b = if b == Bool && a != Bool { CInt } else { b };
    if a == b {
        return a;
    }
    match (a, b) {
        (CInt, other) | (other, CInt) => other,
        (CFloat, f) | (f, CFloat) if f.is_floating() => f,
        (CFloat, _) | (_, CFloat) => CFloat,
        (x, y) if x.is_floating() && y.is_floating() => {
            if x.rank() >= y.rank() {
                x
            } else {
                y
            }
        }
        (x, _) if x.is_floating() => x,
        (_, y) if y.is_floating() => y,
        (x, y) => {
            if x.rank() == y.rank() {
                if x.is_unsigned() {
                    x
                } else {
                    y
                }
            } else if x.rank() > y.rank() {
                x
            } else {
                y
            }
        }
    }
}

/// Is `from -> to` a "promotion" in the sense of overload resolution step 5c: a
/// compile-time constant taking a concrete type, or a scalar kind widening within its
/// category (e.g. `half` to `float`, `short` to `int`), shape unchanged.
pub fn is_promotion(from: Type, to: Type) -> bool {
    let same_shape = from.with_scalar(Scalar::Float) == to.with_scalar(Scalar::Float);
    let (Some(a), Some(b)) = (from.scalar(), to.scalar()) else { return false };
    if !same_shape || a == b {
        return false;
    }
    match a {
        Scalar::CInt => b.is_numeric(),
        Scalar::CFloat => b.is_floating(),
        _ if a.is_floating() && b.is_floating() => b.rank() > a.rank(),
        _ if a.is_integral() && b.is_integral() => b.rank() > a.rank() && a.is_unsigned() == b.is_unsigned(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Scalar::*;

    fn m() -> Module {
        Module::default()
    }

    #[test]
    fn table_row_scalar_target() {
        let m = m();
        assert_eq!(classify(&m, Type::Scalar(Half), Type::FLOAT), Class::Implicit);
        assert_eq!(classify(&m, Type::vec(Float, 4), Type::FLOAT), Class::Warn(codes::W_TRUNCATION));
        assert_eq!(classify(&m, Type::vec(Float, 1), Type::FLOAT), Class::Implicit);
        assert_eq!(classify(&m, Type::mat(Float, 2, 2), Type::FLOAT), Class::Warn(codes::W_TRUNCATION));
        assert_eq!(classify(&m, Type::FLOAT, Type::INT), Class::Warn(codes::W_PRECISION));
        assert_eq!(classify(&m, Type::Scalar(CFloat), Type::INT), Class::Implicit);
    }

    #[test]
    fn table_row_vector_target() {
        let m = m();
        assert_eq!(classify(&m, Type::FLOAT, Type::vec(Float, 3)), Class::Implicit);
        assert_eq!(classify(&m, Type::vec(Half, 3), Type::vec(Float, 3)), Class::Implicit);
        assert_eq!(classify(&m, Type::vec(Float, 4), Type::vec(Float, 3)), Class::Warn(codes::W_TRUNCATION));
        assert_eq!(classify(&m, Type::vec(Float, 3), Type::vec(Float, 4)), Class::Never);
        assert_eq!(classify(&m, Type::mat(Float, 2, 2), Type::vec(Float, 4)), Class::Warn(codes::W_RESHAPE));
        assert_eq!(classify(&m, Type::mat(Float, 2, 3), Type::vec(Float, 4)), Class::Never);
    }

    #[test]
    fn table_row_matrix_target() {
        let m = m();
        assert_eq!(classify(&m, Type::FLOAT, Type::mat(Float, 3, 3)), Class::Implicit);
        assert_eq!(classify(&m, Type::vec(Float, 4), Type::mat(Float, 2, 2)), Class::Warn(codes::W_RESHAPE));
        assert_eq!(classify(&m, Type::mat(Float, 4, 4), Type::mat(Float, 3, 3)), Class::Warn(codes::W_TRUNCATION));
        assert_eq!(classify(&m, Type::mat(Float, 4, 3), Type::mat(Float, 3, 4)), Class::Never);
        assert_eq!(classify(&m, Type::mat(Float, 3, 4), Type::mat(Float, 4, 3)), Class::Never);
        assert_eq!(classify(&m, Type::mat(Half, 3, 4), Type::mat(Float, 3, 4)), Class::Implicit);
    }

    #[test]
    fn table_rows_struct_and_array() {
        use crate::ir::{Field, StructDef};
        let mut m = m();
        let span = grammar::Span::new(grammar::FileId(0), 0, 0);
        let field = |name: &str, ty| Field { name: name.into(), ty, semantic: None, span };
        m.structs.push(StructDef {
            name: Some("A".into()),
            fields: vec![field("x", Type::vec(Float, 2)), field("y", Type::FLOAT)],
            methods: vec![],
            implements: None,
            span,
        });
        m.structs.push(StructDef {
            name: Some("B".into()),
            fields: vec![field("p", Type::vec(Half, 2)), field("q", Type::Scalar(Half))],
            methods: vec![],
            implements: None,
            span,
        });
        m.structs.push(StructDef {
            name: Some("W".into()),
            fields: vec![field("v", Type::FLOAT)],
            methods: vec![],
            implements: None,
            span,
        });
        let (a, b, w) = (
            Type::Struct(crate::ir::StructId(0)),
            Type::Struct(crate::ir::StructId(1)),
            Type::Struct(crate::ir::StructId(2)),
        );
        // struct -> vector through its first member (note 3), explicit only
        assert_eq!(classify(&m, a, Type::vec(Float, 2)), Class::Explicit);
        assert_eq!(classify(&m, a, Type::vec(Float, 3)), Class::Never);
        // struct -> struct member-wise (note 5) and scalar -> struct
        assert_eq!(classify(&m, a, b), Class::Explicit);
        assert_eq!(classify(&m, Type::FLOAT, w), Class::Explicit);
        assert_eq!(classify(&m, Type::FLOAT, a), Class::Explicit);
        assert_eq!(classify(&m, Type::vec(Float, 3), w), Class::Never);
        // arrays (notes 6 and 7)
        let arr4 = m.array(Type::FLOAT, Some(4));
        let arr3 = m.array(Type::FLOAT, Some(3));
        let rows = m.array(Type::vec(Float, 3), Some(2));
        assert_eq!(classify(&m, arr4, Type::vec(Float, 4)), Class::Explicit);
        assert_eq!(classify(&m, arr3, Type::vec(Float, 4)), Class::Never);
        assert_eq!(classify(&m, rows, Type::mat(Float, 2, 3)), Class::Explicit);
        assert_eq!(classify(&m, rows, Type::mat(Float, 3, 2)), Class::Never);
        assert_eq!(classify(&m, Type::FLOAT, arr4), Class::Never);
    }

    #[test]
    fn samplers() {
        let m = m();
        let s = |d| Type::Sampler(d);
        assert_eq!(classify(&m, s(SamplerDim::D2), s(SamplerDim::Any)), Class::Implicit);
        assert_eq!(classify(&m, s(SamplerDim::D1), s(SamplerDim::D2)), Class::Never);
        assert_eq!(classify(&m, s(SamplerDim::D2), Type::FLOAT), Class::Never);
    }

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(arithmetic_scalar(Half, CFloat), Half, "half h; h * 2.0 stays half");
        assert_eq!(arithmetic_scalar(CInt, Fixed), Fixed);
        assert_eq!(arithmetic_scalar(CFloat, Int), CFloat, "the integral side becomes floating");
        assert_eq!(arithmetic_scalar(Half, Float), Float);
        assert_eq!(arithmetic_scalar(Int, Half), Half);
        assert_eq!(arithmetic_scalar(Short, Int), Int);
        assert_eq!(arithmetic_scalar(Int, UInt), UInt);
        assert_eq!(arithmetic_scalar(CInt, CFloat), CFloat);
        assert_eq!(arithmetic_scalar(CInt, CInt), CInt);
    }

    #[test]
    fn promotions() {
        assert!(is_promotion(Type::Scalar(CFloat), Type::Scalar(Half)));
        assert!(is_promotion(Type::Scalar(CInt), Type::FLOAT));
        assert!(is_promotion(Type::vec(Half, 3), Type::vec(Float, 3)));
        assert!(!is_promotion(Type::vec(Float, 3), Type::vec(Half, 3)));
        assert!(!is_promotion(Type::FLOAT, Type::vec(Float, 3)));
        assert!(!is_promotion(Type::Scalar(CFloat), Type::INT));
    }
}
