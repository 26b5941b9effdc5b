//! C's number readers as RetroArch's config code calls them: `strtod` (decimal and
//! hexadecimal floats, `inf`, `infinity`, `nan`) and `strtol`/`strtoul` with base 0
//! (`0x` hex, leading `0` octal), each on the longest prefix, saturating on overflow.
//!
//! Pure functions of the text: they never report, and never read past what C would.

fn skip_c_blanks(s: &str) -> usize {
    s.len() - s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']).len()
}

/// C `strtod` on the longest prefix of `s`: the value and the bytes read, or `None`
/// when nothing converts. Decimal and hexadecimal forms, `inf`, `infinity`, `nan`.
pub fn strtod(s: &str) -> Option<(f64, usize)> {
    let start = skip_c_blanks(s);
    let b = s.as_bytes();
    let mut i = start;
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let sign = if negative { -1.0 } else { 1.0 };
    let rest = &s[i..];
    let lower = rest.get(..8).unwrap_or(rest).to_ascii_lowercase();
    if lower.starts_with("infinity") {
        return Some((sign * f64::INFINITY, i + 8));
    }
    if lower.starts_with("inf") {
        return Some((sign * f64::INFINITY, i + 3));
    }
    if lower.starts_with("nan") {
        return Some((f64::NAN, i + 3));
    }
    if (rest.starts_with("0x") || rest.starts_with("0X"))
        && rest[2..].starts_with(|c: char| c.is_ascii_hexdigit() || c == '.')
    {
        if let Some((v, n)) = hex_float(&rest[2..]) {
            return Some((sign * v, i + 2 + n));
        }
    }
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(i);
    let mut j = i + int;
    let mut frac = 0;
    if b.get(j) == Some(&b'.') {
        frac = digits(j + 1);
        if int + frac > 0 {
            j += 1 + frac;
        }
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let e = digits(k);
        if e > 0 {
            j = k + e;
        }
    }
    let v: f64 = s[start..j].parse().ok()?;
    Some((v, j))
}

/// The mantissa and optional `p` exponent of a hex float after `0x`.
fn hex_float(s: &str) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let mut v = 0f64;
    let mut i = 0;
    let mut any = false;
    while let Some(d) = b.get(i).and_then(|c| (*c as char).to_digit(16)) {
        v = v * 16.0 + f64::from(d);
        i += 1;
        any = true;
    }
    if b.get(i) == Some(&b'.') {
        let mut scale = 1.0 / 16.0;
        let mut j = i + 1;
        while let Some(d) = b.get(j).and_then(|c| (*c as char).to_digit(16)) {
            v += f64::from(d) * scale;
            scale /= 16.0;
            j += 1;
            any = true;
        }
        if any {
            i = j;
        }
    }
    if !any {
        return None;
    }
    if matches!(b.get(i), Some(b'p' | b'P')) {
        let mut k = i + 1;
        let neg = b.get(k) == Some(&b'-');
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let n = b[k..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n > 0 {
            let e: i32 = s[k..k + n].parse().unwrap_or(i32::MAX);
            v *= 2f64.powi(if neg { -e } else { e });
            i = k + n;
        }
    }
    Some((v, i))
}

/// C `strtol` with base 0 on the longest prefix: `0x` hex, leading `0` octal, else
/// decimal; saturates on overflow. The value and the bytes read, or `None`.
pub fn strtol(s: &str) -> Option<(i64, usize)> {
    let (magnitude, len, negative) = c_integer(s)?;
    let v = if negative {
        0i64.checked_sub_unsigned(magnitude).unwrap_or(i64::MIN)
    } else {
        i64::try_from(magnitude).unwrap_or(i64::MAX)
    };
    Some((v, len))
}

/// C `strtoul` with base 0: the magnitude, the bytes read and whether a `-` preceded it
/// (C would wrap it around; callers reject it).
pub fn strtoul(s: &str) -> Option<(u64, usize, bool)> {
    c_integer(s)
}

fn c_integer(s: &str) -> Option<(u64, usize, bool)> {
    let b = s.as_bytes();
    let mut i = skip_c_blanks(s);
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let (radix, mut j) = if b.get(i) == Some(&b'0')
        && matches!(b.get(i + 1), Some(b'x' | b'X'))
        && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        (16, i + 2)
    } else if b.get(i) == Some(&b'0') {
        (8, i)
    } else {
        (10, i)
    };
    let from = j;
    let mut v: u64 = 0;
    while let Some(d) = b.get(j).and_then(|c| (*c as char).to_digit(radix)) {
        v = v.saturating_mul(u64::from(radix)).saturating_add(u64::from(d));
        j += 1;
    }
    if j == from {
        return None;
    }
    Some((v, j, negative))
}
