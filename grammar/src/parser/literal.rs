//! Reading the text of numeric, string and character literals into values.
//!
//! Cg numbers are C numbers plus Cg's type suffixes (`d f h x i l s t u us ut ui ul`,
//! any case). A decimal integer with a floating suffix (`2h`, `1f`) is a floating
//! literal. Values that do not fit the literal's type, malformed octal digits and
//! suffixes that do not apply give a message (the caller reports E0203); the value is
//! then saturated or zero so parsing goes on. Pure functions: no diagnostics, no state.

use crate::ast::{Literal, LiteralSuffix};

/// Reads an integer-literal token (`42`, `017`, `0x1Fu`, `3us`, `2h`).
pub fn int_literal(text: &str) -> (Literal, Option<String>) {
    let (body, radix) = if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        (hex, 16)
    } else {
        (text, 10)
    };
    let digits_len = body
        .bytes()
        .position(|b| if radix == 16 { !b.is_ascii_hexdigit() } else { !b.is_ascii_digit() })
        .unwrap_or(body.len());
    let (digits, suffix_text) = body.split_at(digits_len);
    let Some(suffix) = suffix(suffix_text) else {
        return (Literal::Int(0, LiteralSuffix::None), Some(format!("invalid suffix `{suffix_text}` on `{text}`")));
    };
    if is_floating(suffix) {
        // `2h`, `1f`: a decimal number of a floating type.
        let value = digits.parse::<f64>().unwrap_or(0.0);
        let problem = float_range(value, suffix).then(|| format!("`{text}` is out of range for its type"));
        return (Literal::Float(value, suffix), problem);
    }
    let (digits, radix) =
        if radix == 10 && digits.len() > 1 && digits.starts_with('0') { (&digits[1..], 8) } else { (digits, radix) };
    let mut value: u64 = 0;
    let mut overflow = false;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else {
            return (Literal::Int(0, suffix), Some(format!("invalid digit `{c}` in octal literal `{text}`")));
        };
        match value.checked_mul(u64::from(radix)).and_then(|v| v.checked_add(u64::from(d))) {
            Some(v) => value = v,
            None => {
                overflow = true;
                value = u64::MAX;
                break;
            }
        }
    }
    let max = int_max(suffix);
    if overflow || value > max {
        let value = if overflow { u64::MAX } else { value };
        return (Literal::Int(value, suffix), Some(format!("`{text}` is out of range for its type")));
    }
    (Literal::Int(value, suffix), None)
}

/// Reads a floating-literal token (`1.`, `.5`, `1e-5`, `2.5h`, `1.x`).
pub fn float_literal(text: &str) -> (Literal, Option<String>) {
    let numeric_len = text.trim_end_matches(|c: char| c.is_ascii_alphabetic()).len();
    let (number, suffix_text) = text.split_at(numeric_len);
    let suffix = match suffix(suffix_text) {
        Some(s) if s == LiteralSuffix::None || is_floating(s) => s,
        _ => {
            let value = number.parse::<f64>().unwrap_or(0.0);
            return (
                Literal::Float(value, LiteralSuffix::None),
                Some(format!("suffix `{suffix_text}` is not allowed on the floating-point literal `{text}`")),
            );
        }
    };
    match number.parse::<f64>() {
        Ok(value) if value.is_finite() => {
            let problem = float_range(value, suffix).then(|| format!("`{text}` is out of range for its type"));
            (Literal::Float(value, suffix), problem)
        }
        Ok(_) => (Literal::Float(f64::MAX, suffix), Some(format!("`{text}` is out of range for its type"))),
        Err(_) => (Literal::Float(0.0, suffix), Some(format!("malformed floating-point literal `{text}`"))),
    }
}

/// Reads a string literal token (with quotes), resolving C escapes.
pub fn string_literal(text: &str) -> String {
    let inner = text.strip_prefix('"').unwrap_or(text);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    unescape(inner)
}

/// Reads a character literal token (`'a'`, `'\n'`) as its code point.
pub fn char_literal(text: &str) -> (Literal, Option<String>) {
    let inner = text.strip_prefix('\'').unwrap_or(text);
    let inner = inner.strip_suffix('\'').unwrap_or(inner);
    let s = unescape(inner);
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => (Literal::Int(u64::from(u32::from(c)), LiteralSuffix::None), None),
        _ => (
            Literal::Int(0, LiteralSuffix::None),
            Some(format!("character literal `{text}` must hold exactly one character")),
        ),
    }
}

fn suffix(text: &str) -> Option<LiteralSuffix> {
    use LiteralSuffix::*;
    Some(match text.to_ascii_lowercase().as_str() {
        "" => None,
        "d" => Double,
        "f" => Float,
        "h" => Half,
        "x" => Fixed,
        "i" => Int,
        "l" => Long,
        "s" => Short,
        "t" => Char,
        "u" => Unsigned,
        "us" => UnsignedShort,
        "ut" => UnsignedChar,
        "ui" => UnsignedInt,
        "ul" => UnsignedLong,
        _ => return Option::None,
    })
}

fn is_floating(s: LiteralSuffix) -> bool {
    matches!(s, LiteralSuffix::Double | LiteralSuffix::Float | LiteralSuffix::Half | LiteralSuffix::Fixed)
}

fn int_max(s: LiteralSuffix) -> u64 {
    use LiteralSuffix::*;
    match s {
        Char | UnsignedChar => u64::from(u8::MAX),
        Short | UnsignedShort => u64::from(u16::MAX),
        Long | UnsignedLong => u64::MAX,
        _ => u64::from(u32::MAX),
    }
}

/// True when `value` does not fit the type of a floating literal with suffix `s`.
fn float_range(value: f64, s: LiteralSuffix) -> bool {
    match s {
        LiteralSuffix::Half => value > 65504.0,
        LiteralSuffix::Double | LiteralSuffix::Fixed => false,
        _ => value > f64::from(f32::MAX),
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            'x' => {
                let mut v = 0u32;
                let mut any = false;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.saturating_mul(16).saturating_add(d);
                    any = true;
                    chars.next();
                }
                if any {
                    out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
                } else {
                    out.push('x');
                }
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use LiteralSuffix as S;

    #[test]
    fn integers_with_suffixes_and_bases() {
        assert_eq!(int_literal("42").0, Literal::Int(42, S::None));
        assert_eq!(int_literal("017").0, Literal::Int(15, S::None));
        assert_eq!(int_literal("0").0, Literal::Int(0, S::None));
        assert_eq!(int_literal("0x1Fu").0, Literal::Int(31, S::Unsigned));
        assert_eq!(int_literal("3US").0, Literal::Int(3, S::UnsignedShort));
        assert_eq!(int_literal("3ul").0, Literal::Int(3, S::UnsignedLong));
        assert_eq!(int_literal("2h").0, Literal::Float(2.0, S::Half));
        assert_eq!(int_literal("5x").0, Literal::Float(5.0, S::Fixed));
        assert_eq!(int_literal("0xFFFFFFFF"), (Literal::Int(u32::MAX.into(), S::None), None));
    }

    #[test]
    fn bad_integers_are_reported() {
        assert!(int_literal("09").1.is_some());
        assert!(int_literal("4294967296").1.is_some());
        assert!(int_literal("300t").1.is_some());
        let (lit, msg) = int_literal("99999999999999999999999");
        assert_eq!(lit, Literal::Int(u64::MAX, S::None));
        assert!(msg.is_some());
        assert!(int_literal("18446744073709551615l").1.is_none());
    }

    #[test]
    fn floats() {
        assert_eq!(float_literal("1.").0, Literal::Float(1.0, S::None));
        assert_eq!(float_literal(".5").0, Literal::Float(0.5, S::None));
        assert_eq!(float_literal("1e-5").0, Literal::Float(1e-5, S::None));
        assert_eq!(float_literal("2.5h").0, Literal::Float(2.5, S::Half));
        assert_eq!(float_literal("1.x").0, Literal::Float(1.0, S::Fixed));
        assert_eq!(float_literal("6.02e23f").0, Literal::Float(6.02e23, S::Float));
        assert!(float_literal("1e400").1.is_some());
        assert!(float_literal("1e39").1.is_some());
        assert!(float_literal("1e39d").1.is_none());
        assert!(float_literal("1e5h").1.is_some());
        assert!(float_literal("1.5u").1.is_some());
    }

    #[test]
    fn strings_and_chars() {
        assert_eq!(string_literal(r#""a\"b\n\x41\101""#), "a\"b\nAA");
        assert_eq!(char_literal("'a'").0, Literal::Int(97, S::None));
        assert_eq!(char_literal(r"'\n'").0, Literal::Int(10, S::None));
        assert!(char_literal("'ab'").1.is_some());
    }
}
