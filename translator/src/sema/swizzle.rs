//! Parsing of swizzle and matrix-swizzle member names.
//!
//! `xyzw`, `rgba` and `stpq` select vector components (sets never mix); `_m01_m10`
//! (zero-based) and `_12_21` (one-based) select matrix elements (forms never mix). Pure
//! string logic: whether the components exist in a given type is checked by the caller.

/// Components of a vector swizzle such as `xzy` or `rgba`, or `None` if the name is not
/// one (unknown letters, mixed sets, more than four components).
pub fn vector_swizzle(name: &str) -> Option<Vec<u8>> {
    const SETS: [&[u8; 4]; 3] = [b"xyzw", b"rgba", b"stpq"];
    if name.is_empty() || name.len() > 4 {
        return None;
    }
    let first = *name.as_bytes().first()?;
    let set = SETS.iter().find(|s| s.contains(&first))?;
    name.bytes().map(|c| set.iter().position(|&x| x == c).map(|i| i as u8)).collect()
}

/// Elements of a matrix swizzle such as `_m00_m11` or `_11_22`, zero-based (row, col).
pub fn matrix_swizzle(name: &str) -> Option<Vec<(u8, u8)>> {
    let rest = name.strip_prefix('_')?;
    let parts: Vec<&str> = rest.split('_').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let zero_based = parts[0].starts_with('m');
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        let digits = if zero_based { part.strip_prefix('m')? } else { part };
        let b = digits.as_bytes();
        if b.len() != 2 || !b.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let (r, c) = (b[0] - b'0', b[1] - b'0');
        let (r, c) = if zero_based { (r, c) } else { (r.checked_sub(1)?, c.checked_sub(1)?) };
        if r > 3 || c > 3 {
            return None;
        }
        out.push((r, c));
    }
    Some(out)
}

/// True if no component repeats (required of write masks).
pub fn is_write_mask<T: PartialEq>(components: &[T]) -> bool {
    components.iter().enumerate().all(|(i, c)| !components[..i].contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_sets_do_not_mix() {
        assert_eq!(vector_swizzle("xzy"), Some(vec![0, 2, 1]));
        assert_eq!(vector_swizzle("rgba"), Some(vec![0, 1, 2, 3]));
        assert_eq!(vector_swizzle("stpq"), Some(vec![0, 1, 2, 3]));
        assert_eq!(vector_swizzle("xxxx"), Some(vec![0; 4]));
        assert_eq!(vector_swizzle("xg"), None);
        assert_eq!(vector_swizzle("xyzwx"), None);
        assert_eq!(vector_swizzle("length"), None);
        assert_eq!(vector_swizzle(""), None);
    }

    #[test]
    fn matrix_forms() {
        assert_eq!(matrix_swizzle("_m00_m23_m11_m31"), Some(vec![(0, 0), (2, 3), (1, 1), (3, 1)]));
        assert_eq!(matrix_swizzle("_11_34_22_42"), Some(vec![(0, 0), (2, 3), (1, 1), (3, 1)]));
        assert_eq!(matrix_swizzle("_m32"), Some(vec![(3, 2)]));
        assert_eq!(matrix_swizzle("_m00_11"), None, "forms cannot mix");
        assert_eq!(matrix_swizzle("_00"), None, "one-based form has no zero");
        assert_eq!(matrix_swizzle("_m44"), None);
        assert_eq!(matrix_swizzle("_m0"), None);
    }

    #[test]
    fn write_masks_reject_repeats() {
        assert!(is_write_mask(&[0u8, 2, 1]));
        assert!(!is_write_mask(&[0u8, 0]));
    }
}
