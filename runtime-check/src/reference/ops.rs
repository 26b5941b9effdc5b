//! Scalar semantics of Cg operators on the canonical `f64` cell values: which evaluation
//! kind a Cg scalar type has, rounding back to the type, the unary and binary operators
//! and conversions, as `translator::ir` documents them (IEEE binary32 for the float
//! family, two's-complement 32-bit integers that wrap, integer division truncating with
//! `x / 0 == 0`, float-to-int truncating and saturating).
//!
//! `char`, `short` and `long` (and their unsigned forms) evaluate as 32-bit `int`/`uint`,
//! the integer width of every GPU profile RetroArch used. Pure functions, no panics.

use translator::ir::{BinaryOp, Scalar, UnaryOp};

/// How a scalar type evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `float`, `half`, `fixed`, `cfloat`: binary32.
    F,
    /// `double`: binary64.
    D,
    /// Signed integers: 32-bit two's complement.
    I,
    /// Unsigned integers: 32-bit.
    U,
    /// `bool`: 0 or 1.
    B,
}

pub fn kind(s: Scalar) -> Kind {
    match s {
        Scalar::Bool => Kind::B,
        Scalar::Double => Kind::D,
        Scalar::Fixed | Scalar::Half | Scalar::Float | Scalar::CFloat => Kind::F,
        Scalar::UChar | Scalar::UShort | Scalar::UInt | Scalar::ULong => Kind::U,
        Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long | Scalar::CInt => Kind::I,
    }
}

#[inline]
pub fn rf32(x: f64) -> f64 {
    x as f32 as f64
}

#[inline]
pub fn rf64(x: f64) -> f64 {
    x
}

/// The rounding of a floating kind (binary32 or binary64). Computing a `+ - * / sqrt` in
/// binary64 and rounding to binary32 gives the correctly rounded binary32 result.
pub fn rounder(k: Kind) -> fn(f64) -> f64 {
    if k == Kind::D {
        rf64
    } else {
        rf32
    }
}

#[inline]
pub fn as_i32(x: f64) -> i32 {
    // Canonical integer cells are exact; a float input truncates and saturates (`as`).
    if (-2147483648.0..=4294967295.0).contains(&x) {
        (x as i64) as i32
    } else {
        x as i32
    }
}

#[inline]
pub fn as_u32(x: f64) -> u32 {
    if (-2147483648.0..=4294967295.0).contains(&x) {
        (x as i64) as u32
    } else {
        x as u32
    }
}

/// Converts a canonical value of kind `from` to kind `to`.
pub fn convert(x: f64, from: Kind, to: Kind) -> f64 {
    match to {
        Kind::B => f64::from(u8::from(x != 0.0)),
        Kind::F => rf32(x),
        Kind::D => x,
        Kind::I => match from {
            Kind::F | Kind::D => f64::from(x as i32),
            _ => f64::from(as_i32(x)),
        },
        Kind::U => match from {
            Kind::F | Kind::D => f64::from(x as u32),
            _ => f64::from(as_u32(x)),
        },
    }
}

/// The unary operator on one value of kind `k`.
pub fn unary(op: UnaryOp, k: Kind) -> fn(f64) -> f64 {
    match (op, k) {
        (UnaryOp::Neg, Kind::I) => |a| f64::from(as_i32(a).wrapping_neg()),
        (UnaryOp::Neg, Kind::U) => |a| f64::from(as_u32(a).wrapping_neg()),
        (UnaryOp::Neg, Kind::B) => |a| a,
        (UnaryOp::Neg, _) => |a| -a,
        (UnaryOp::Not, _) => |a| f64::from(u8::from(a == 0.0)),
        (UnaryOp::BitNot, Kind::U) => |a| f64::from(!as_u32(a)),
        (UnaryOp::BitNot, Kind::B) => |a| f64::from(u8::from(a == 0.0)),
        (UnaryOp::BitNot, _) => |a| f64::from(!as_i32(a)),
    }
}

/// What is done with the function of a binary operator ([`binary_with`]): called with
/// the operator's own closure type, so that code built from it is compiled for that
/// operator (no call through a function pointer per lane).
pub trait BinaryVisitor {
    type Out;
    fn visit<F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static>(self, f: F) -> Self::Out;
}

/// The binary operator on values of kind `k` (for shifts `k` is the left operand's),
/// handed to `v`. `None` when the operator does not exist on that kind (sema never
/// produces it).
pub fn binary_with<V: BinaryVisitor>(op: BinaryOp, k: Kind, v: V) -> Option<V::Out> {
    use BinaryOp as O;
    use Kind as K;
    Some(match (op, k) {
        (O::Eq, _) => v.visit(|a, b| f64::from(u8::from(a == b))),
        (O::Ne, _) => v.visit(|a, b| f64::from(u8::from(a != b))),
        (O::Lt, _) => v.visit(|a, b| f64::from(u8::from(a < b))),
        (O::Le, _) => v.visit(|a, b| f64::from(u8::from(a <= b))),
        (O::Gt, _) => v.visit(|a, b| f64::from(u8::from(a > b))),
        (O::Ge, _) => v.visit(|a, b| f64::from(u8::from(a >= b))),
        (O::And, _) => v.visit(|a, b| f64::from(u8::from(a != 0.0 && b != 0.0))),
        (O::Or, _) => v.visit(|a, b| f64::from(u8::from(a != 0.0 || b != 0.0))),
        (O::Add, K::F) => v.visit(|a, b| rf32(a + b)),
        (O::Sub, K::F) => v.visit(|a, b| rf32(a - b)),
        (O::Mul, K::F) => v.visit(|a, b| rf32(a * b)),
        (O::Div, K::F) => v.visit(|a, b| rf32(a / b)),
        (O::Rem, K::F) => v.visit(|a, b| rf32(a % b)),
        (O::Add, K::D) => v.visit(|a, b| a + b),
        (O::Sub, K::D) => v.visit(|a, b| a - b),
        (O::Mul, K::D) => v.visit(|a, b| a * b),
        (O::Div, K::D) => v.visit(|a, b| a / b),
        (O::Rem, K::D) => v.visit(|a, b| a % b),
        (O::Add, K::I) => v.visit(|a, b| f64::from(as_i32(a).wrapping_add(as_i32(b)))),
        (O::Sub, K::I) => v.visit(|a, b| f64::from(as_i32(a).wrapping_sub(as_i32(b)))),
        (O::Mul, K::I) => v.visit(|a, b| f64::from(as_i32(a).wrapping_mul(as_i32(b)))),
        (O::Div, K::I) => v.visit(|a, b| f64::from(as_i32(a).checked_div(as_i32(b)).unwrap_or(0))),
        (O::Rem, K::I) => v.visit(|a, b| f64::from(as_i32(a).checked_rem(as_i32(b)).unwrap_or(0))),
        (O::Shl, K::I) => v.visit(|a, b| f64::from(as_i32(a).wrapping_shl(as_u32(b)))),
        (O::Shr, K::I) => v.visit(|a, b| f64::from(as_i32(a).wrapping_shr(as_u32(b)))),
        (O::BitAnd, K::I) => v.visit(|a, b| f64::from(as_i32(a) & as_i32(b))),
        (O::BitOr, K::I) => v.visit(|a, b| f64::from(as_i32(a) | as_i32(b))),
        (O::BitXor, K::I) => v.visit(|a, b| f64::from(as_i32(a) ^ as_i32(b))),
        (O::Add, K::U) => v.visit(|a, b| f64::from(as_u32(a).wrapping_add(as_u32(b)))),
        (O::Sub, K::U) => v.visit(|a, b| f64::from(as_u32(a).wrapping_sub(as_u32(b)))),
        (O::Mul, K::U) => v.visit(|a, b| f64::from(as_u32(a).wrapping_mul(as_u32(b)))),
        (O::Div, K::U) => v.visit(|a, b| f64::from(as_u32(a).checked_div(as_u32(b)).unwrap_or(0))),
        (O::Rem, K::U) => v.visit(|a, b| f64::from(as_u32(a).checked_rem(as_u32(b)).unwrap_or(0))),
        (O::Shl, K::U) => v.visit(|a, b| f64::from(as_u32(a).wrapping_shl(as_u32(b)))),
        (O::Shr, K::U) => v.visit(|a, b| f64::from(as_u32(a).wrapping_shr(as_u32(b)))),
        (O::BitAnd, K::U) => v.visit(|a, b| f64::from(as_u32(a) & as_u32(b))),
        (O::BitOr, K::U) => v.visit(|a, b| f64::from(as_u32(a) | as_u32(b))),
        (O::BitXor, K::U) => v.visit(|a, b| f64::from(as_u32(a) ^ as_u32(b))),
        (O::BitAnd, K::B) => v.visit(|a, b| f64::from(u8::from(a != 0.0 && b != 0.0))),
        (O::BitOr, K::B) => v.visit(|a, b| f64::from(u8::from(a != 0.0 || b != 0.0))),
        (O::BitXor, K::B) => v.visit(|a, b| f64::from(u8::from((a != 0.0) != (b != 0.0)))),
        _ => return None,
    })
}

/// A binary operator as a function value.
pub type BinaryFn = Box<dyn Fn(f64, f64) -> f64 + Send + Sync>;

/// The binary operator on values of kind `k` as a function value (see [`binary_with`]).
pub fn binary(op: BinaryOp, k: Kind) -> Option<BinaryFn> {
    struct Boxed;
    impl BinaryVisitor for Boxed {
        type Out = BinaryFn;
        fn visit<F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static>(self, f: F) -> BinaryFn {
            Box::new(f)
        }
    }
    binary_with(op, k, Boxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_rules() {
        let div = binary(BinaryOp::Div, Kind::I).unwrap();
        assert_eq!(div(-7.0, 2.0), -3.0);
        assert_eq!(div(7.0, 0.0), 0.0);
        let rem = binary(BinaryOp::Rem, Kind::I).unwrap();
        assert_eq!(rem(-7.0, 2.0), -1.0);
        assert_eq!(convert(-2.7, Kind::F, Kind::I), -2.0);
        assert_eq!(convert(-1.0, Kind::I, Kind::U), 4294967295.0);
        assert_eq!(convert(f64::NAN, Kind::F, Kind::B), 1.0);
        let add = binary(BinaryOp::Add, Kind::I).unwrap();
        assert_eq!(add(2147483647.0, 1.0), -2147483648.0);
    }
}
