//! Hints for unknown keys: a key that looks like a known one (letter case, an underscore
//! or leading zeros before the pass index, a librashader-only spelling, a one- or
//! two-letter typo, a LUT key for a texture `textures` does not list) gets a note
//! saying what RetroArch would have read.
//!
//! It only suggests: it never turns an unknown key into a value.

use super::keys::{pass_key, GLOBAL_KEYS, PASS_KEYS};

/// A hint for an unknown key that looks like a known one; `true` when the key is a
/// librashader-only spelling.
pub(super) fn suggestion(key: &str, luts: &[String]) -> Option<(String, bool)> {
    let known = |k: &str| GLOBAL_KEYS.contains(&k) || pass_key(k).is_some();
    let lower = key.to_ascii_lowercase();
    if lower != key && known(&lower) {
        return Some((format!("keys are case-sensitive: did you mean `{lower}`?"), false));
    }
    // `scale_1`, `filter_linear_0`: an underscore before the index.
    let body = key.trim_end_matches(|c: char| c.is_ascii_digit());
    let index = &key[body.len()..];
    if !index.is_empty() {
        if let Some(b) = body.strip_suffix('_') {
            if known(&format!("{b}{index}")) {
                return Some((format!("did you mean `{b}{index}`?"), false));
            }
        }
        if index.len() > 1 && index.starts_with('0') {
            let n = index.trim_start_matches('0');
            let n = if n.is_empty() { "0" } else { n };
            if known(&format!("{body}{n}")) {
                return Some((format!("RetroArch looks for `{body}{n}`, without leading zeros"), false));
            }
        }
        // librashader-only spellings.
        let lr = match body {
            "repeat_mode" | "texture_wrap_mode" => Some("wrap_mode"),
            "mipmap" => Some("mipmap_input"),
            _ => None,
        };
        if let Some(ra) = lr {
            return Some((format!("RetroArch spells it `{ra}{index}`"), true));
        }
        let close = PASS_KEYS.iter().map(|(p, _)| *p).filter(|p| near(body, p)).min_by_key(|p| edit_distance(body, p));
        if let Some(p) = close {
            return Some((format!("did you mean `{p}{index}`?"), false));
        }
    } else if PASS_KEYS.iter().any(|(p, _)| *p == key) {
        return Some((format!("per-pass keys need the pass number: `{key}0`, `{key}1`, ..."), false));
    }
    if let Some(id) = key.strip_prefix("filter_") {
        if luts.iter().any(|l| l == id) {
            return Some((format!("RetroArch spells it `{id}_linear`"), true));
        }
    }
    if let Some(id) = key.strip_suffix("_repeat_mode") {
        if luts.iter().any(|l| l == id) {
            return Some((format!("RetroArch spells it `{id}_wrap_mode`"), true));
        }
    }
    for suffix in ["_linear", "_wrap_mode", "_mipmap"] {
        if let Some(id) = key.strip_suffix(suffix) {
            if !id.is_empty() && !luts.iter().any(|l| l == id) {
                return Some((format!("`{id}` is not listed in `textures`"), false));
            }
        }
    }
    if index.is_empty() {
        if let Some(g) = GLOBAL_KEYS.iter().find(|g| near(key, g)) {
            return Some((format!("did you mean `{g}`?"), false));
        }
    }
    None
}

/// A likely typo of `known`: one edit away, two for long keys.
fn near(key: &str, known: &str) -> bool {
    edit_distance(key, known) <= if known.len() >= 8 { 2 } else { 1 }
}

/// Levenshtein distance (bytes), for typo hints on short keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
