//! GLSL spellings that need no IR: literals, reshaping a printed value to a type,
//! operator precedence and parentheses. Never reads the IR or decides a porting rule.

use super::*;
use crate::ir::{BinaryOp, Literal, Type};
use crate::port::stdlib::{paren, Arg, PRIMARY};

/// Shapes a value with `have` components to the Cg type `ty` (truncating or padding).
pub(super) fn reshape(text: &str, have: u32, ty: Type) -> String {
    let want = match ty {
        Type::Scalar(_) => 1,
        Type::Vector(_, n) => n as u32,
        _ => return text.to_owned(),
    };
    if want == have {
        return text.to_owned();
    }
    if want < have {
        let s = &"xyzw"[..want as usize];
        return format!("{text}.{s}");
    }
    let pad = match (have, want) {
        (1, n) => return format!("vec{n}({text})"),
        (2, 3) => ", 0.0",
        (2, 4) => ", 0.0, 1.0",
        (3, 4) => ", 1.0",
        _ => "",
    };
    format!("vec{want}({text}{pad})")
}

pub(super) fn paren_p(p: &Printed, at_least: u8) -> String {
    paren(&Arg { text: p.0.clone(), prec: p.1, ty: Type::Void, pair: None, plain: false }, at_least)
}

pub(super) fn binary_prec(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 13,
        BinaryOp::Add | BinaryOp::Sub => 12,
        BinaryOp::Shl | BinaryOp::Shr => 11,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 10,
        BinaryOp::Eq | BinaryOp::Ne => 9,
        BinaryOp::BitAnd => 8,
        BinaryOp::BitXor => 7,
        BinaryOp::BitOr => 6,
        BinaryOp::And => 5,
        BinaryOp::Or => 3,
    }
}

/// The binary32 bits of a NaN or infinite value, as a GLSL `uint` literal.
pub(super) fn non_finite_bits(v: f64) -> Option<&'static str> {
    let f = v as f32;
    if f.is_nan() {
        Some("0x7fc00000u")
    } else if f.is_infinite() {
        Some(if f > 0.0 { "0x7f800000u" } else { "0xff800000u" })
    } else {
        None
    }
}

/// A float literal GLSL reads back to the same binary32 value.
pub(super) fn float_text(v: f64) -> String {
    let f = v as f32;
    if let Some(bits) = non_finite_bits(v) {
        return format!("uintBitsToFloat({bits})");
    }
    let mut s = format!("{f}");
    if !s.contains('.') && !s.contains('e') {
        s.push_str(".0");
    }
    s
}

pub(super) fn literal(l: Literal, ty: Type) -> Printed {
    let text = match (l, ty.scalar()) {
        (Literal::Bool(b), _) => b.to_string(),
        (Literal::Float(f), _) => float_text(f),
        (Literal::Int(i), Some(s)) if s.is_unsigned() => format!("{}u", i as u32),
        (Literal::Int(i), _) => (i as i32).to_string(),
        (Literal::UInt(u), _) => format!("{}u", u as u32),
    };
    let prec = if text.starts_with('-') { 14 } else { PRIMARY };
    (text, prec)
}
