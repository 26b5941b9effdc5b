//! Constant folding of IR expressions, at the precision of their types.
//!
//! Used where Cg requires a compile-time constant (array sizes, `case` labels) and for
//! folding `static const` scalars that those use. Integer arithmetic wraps at the type's
//! width (32 bits for `int`/`cint`), float arithmetic runs in binary32 for `float`,
//! `half`, `fixed` and `cfloat`, binary64 for `double`. It only reads the IR; anything
//! not constant yields `None`.

use crate::ir::Expr;
use crate::ir::{BinaryOp, ExprKind, Exprs, Handle, Literal, Local, Module, Scalar, Type, UnaryOp, Var};

/// The initialiser of a `const` local, if it has one (constants may name them).
pub type LocalInits<'a> = &'a dyn Fn(Handle<Local>) -> Option<Handle<Expr>>;

/// Folds a scalar expression to a literal, or `None` if it is not constant.
pub fn eval_scalar(module: &Module, exprs: &Exprs, h: Handle<Expr>, depth: u32) -> Option<Literal> {
    eval_with_locals(module, exprs, h, depth, &|_| None)
}

/// [`eval_scalar`], also folding `const` locals through `locals`.
pub fn eval_with_locals(
    module: &Module,
    exprs: &Exprs,
    h: Handle<Expr>,
    depth: u32,
    locals: LocalInits<'_>,
) -> Option<Literal> {
    if depth > 256 {
        return None;
    }
    let e = &exprs[h];
    let scalar = match e.ty {
        Type::Scalar(s) => s,
        _ => return None,
    };
    let lit = match &e.kind {
        ExprKind::Literal(l) => *l,
        ExprKind::Var(Var::Global(g)) => {
            let g = &module.globals[*g];
            if !g.is_const {
                return None;
            }
            eval_scalar(module, &module.global_exprs, g.init?, depth + 1)?
        }
        ExprKind::Var(Var::Local(l)) => eval_with_locals(module, exprs, locals(*l)?, depth + 1, locals)?,
        ExprKind::Convert { value } => eval_with_locals(module, exprs, *value, depth + 1, locals)?,
        ExprKind::Unary { op, operand } => {
            let v = eval_with_locals(module, exprs, *operand, depth + 1, locals)?;
            match (op, v) {
                (UnaryOp::Neg, Literal::Int(i)) => Literal::Int(i.wrapping_neg()),
                (UnaryOp::Neg, Literal::UInt(u)) => Literal::UInt(u.wrapping_neg()),
                (UnaryOp::Neg, Literal::Float(f)) => Literal::Float(-f),
                (UnaryOp::Not, l) => Literal::Bool(!truthy(l)),
                (UnaryOp::BitNot, Literal::Int(i)) => Literal::Int(!i),
                (UnaryOp::BitNot, Literal::UInt(u)) => Literal::UInt(!u),
                _ => return None,
            }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let a = eval_with_locals(module, exprs, *lhs, depth + 1, locals)?;
            let b = eval_with_locals(module, exprs, *rhs, depth + 1, locals)?;
            binary(*op, a, b)?
        }
        ExprKind::Select { cond, accept, reject } => {
            let c = eval_with_locals(module, exprs, *cond, depth + 1, locals)?;
            let a = eval_with_locals(module, exprs, *accept, depth + 1, locals)?;
            let r = eval_with_locals(module, exprs, *reject, depth + 1, locals)?;
            if truthy(c) {
                a
            } else {
                r
            }
        }
        _ => return None,
    };
    Some(cast(lit, scalar))
}

/// The value as a `u32` array size or `i64` case label.
pub fn as_i64(l: Literal) -> Option<i64> {
    match l {
        Literal::Int(i) => Some(i),
        Literal::UInt(u) => i64::try_from(u).ok(),
        Literal::Bool(b) => Some(b as i64),
        Literal::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(f as i64),
        Literal::Float(_) => None,
    }
}

pub fn truthy(l: Literal) -> bool {
    match l {
        Literal::Bool(b) => b,
        Literal::Int(i) => i != 0,
        Literal::UInt(u) => u != 0,
        Literal::Float(f) => f != 0.0,
    }
}

fn as_f64(l: Literal) -> f64 {
    match l {
        Literal::Bool(b) => b as i64 as f64,
        Literal::Int(i) => i as f64,
        Literal::UInt(u) => u as f64,
        Literal::Float(f) => f,
    }
}

/// Converts a literal to the representation and precision of `scalar`.
pub fn cast(l: Literal, scalar: Scalar) -> Literal {
    match scalar {
        Scalar::Bool => Literal::Bool(truthy(l)),
        Scalar::Double => Literal::Float(as_f64(l)),
        s if s.is_floating() => Literal::Float(as_f64(l) as f32 as f64),
        s if s.is_unsigned() => {
            let v = match l {
                Literal::Float(f) => f as i64 as u64,
                Literal::Int(i) => i as u64,
                Literal::UInt(u) => u,
                Literal::Bool(b) => b as u64,
            };
            Literal::UInt(wrap_unsigned(v, s))
        }
        s => {
            let v = match l {
                Literal::Float(f) => f as i64,
                Literal::Int(i) => i,
                Literal::UInt(u) => u as i64,
                Literal::Bool(b) => b as i64,
            };
            Literal::Int(wrap_signed(v, s))
        }
    }
}

fn wrap_signed(v: i64, s: Scalar) -> i64 {
    match s {
        Scalar::Char => v as i8 as i64,
        Scalar::Short => v as i16 as i64,
        Scalar::Long => v,
        _ => v as i32 as i64,
    }
}

fn wrap_unsigned(v: u64, s: Scalar) -> u64 {
    match s {
        Scalar::UChar => v as u8 as u64,
        Scalar::UShort => v as u16 as u64,
        Scalar::ULong => v,
        _ => v as u32 as u64,
    }
}

fn binary(op: BinaryOp, a: Literal, b: Literal) -> Option<Literal> {
    use BinaryOp::*;
    use Literal::*;
    Some(match (a, b) {
        (Int(x), Int(y)) => match op {
            Add => Int(x.wrapping_add(y)),
            Sub => Int(x.wrapping_sub(y)),
            Mul => Int(x.wrapping_mul(y)),
            Div => Int(if y == 0 { 0 } else { x.wrapping_div(y) }),
            Rem => Int(if y == 0 { 0 } else { x.wrapping_rem(y) }),
            Shl => Int(x.wrapping_shl(y as u32)),
            Shr => Int(x.wrapping_shr(y as u32)),
            BitAnd => Int(x & y),
            BitOr => Int(x | y),
            BitXor => Int(x ^ y),
            And => Bool(x != 0 && y != 0),
            Or => Bool(x != 0 || y != 0),
            Eq => Bool(x == y),
            Ne => Bool(x != y),
            Lt => Bool(x < y),
            Le => Bool(x <= y),
            Gt => Bool(x > y),
            Ge => Bool(x >= y),
        },
        (UInt(x), UInt(y)) => match op {
            Add => UInt(x.wrapping_add(y)),
            Sub => UInt(x.wrapping_sub(y)),
            Mul => UInt(x.wrapping_mul(y)),
            Div => UInt(x.checked_div(y).unwrap_or(0)),
            Rem => UInt(x.checked_rem(y).unwrap_or(0)),
            Shl => UInt(x.wrapping_shl(y as u32)),
            Shr => UInt(x.wrapping_shr(y as u32)),
            BitAnd => UInt(x & y),
            BitOr => UInt(x | y),
            BitXor => UInt(x ^ y),
            And => Bool(x != 0 && y != 0),
            Or => Bool(x != 0 || y != 0),
            Eq => Bool(x == y),
            Ne => Bool(x != y),
            Lt => Bool(x < y),
            Le => Bool(x <= y),
            Gt => Bool(x > y),
            Ge => Bool(x >= y),
        },
        (Bool(x), Bool(y)) => match op {
            And => Bool(x && y),
            Or => Bool(x || y),
            Eq => Bool(x == y),
            Ne => Bool(x != y),
            _ => return binary(op, Int(x as i64), Int(y as i64)),
        },
        (x, y) => {
            let (x, y) = (as_f64(x), as_f64(y));
            match op {
                Add => Float(x + y),
                Sub => Float(x - y),
                Mul => Float(x * y),
                Div => Float(x / y),
                Eq => Bool(x == y),
                Ne => Bool(x != y),
                Lt => Bool(x < y),
                Le => Bool(x <= y),
                Gt => Bool(x > y),
                Ge => Bool(x >= y),
                And => Bool(x != 0.0 && y != 0.0),
                Or => Bool(x != 0.0 || y != 0.0),
                _ => return None,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_follow_the_target_precision() {
        assert_eq!(cast(Literal::Float(0.1), Scalar::Float), Literal::Float(0.1f32 as f64));
        assert_eq!(cast(Literal::Float(0.1), Scalar::Double), Literal::Float(0.1));
        assert_eq!(cast(Literal::Float(-2.7), Scalar::Int), Literal::Int(-2));
        assert_eq!(cast(Literal::Int(300), Scalar::Char), Literal::Int(44));
        assert_eq!(cast(Literal::Int(-1), Scalar::UInt), Literal::UInt(u32::MAX as u64));
        assert_eq!(cast(Literal::Int(2), Scalar::Bool), Literal::Bool(true));
    }

    #[test]
    fn integer_division_truncates_and_never_panics() {
        assert_eq!(binary(BinaryOp::Div, Literal::Int(-7), Literal::Int(2)), Some(Literal::Int(-3)));
        assert_eq!(binary(BinaryOp::Rem, Literal::Int(-7), Literal::Int(2)), Some(Literal::Int(-1)));
        assert_eq!(binary(BinaryOp::Div, Literal::Int(1), Literal::Int(0)), Some(Literal::Int(0)));
        assert_eq!(binary(BinaryOp::Div, Literal::Int(i64::MIN), Literal::Int(-1)), Some(Literal::Int(i64::MIN)));
    }
}
