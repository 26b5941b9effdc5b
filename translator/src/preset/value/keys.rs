//! The key vocabulary of a preset: per-pass key prefixes (`scale`, `wrap_mode`, ...)
//! with their pass index as RetroArch formats it, the global keys, the per-import keys
//! of the old state tracker, and `;`-separated id lists.
//!
//! It only names keys; it never reads a value or reports anything.

/// Per-pass key prefixes. Longer prefixes sharing a start come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PassKey {
    Shader,
    FilterLinear,
    WrapMode,
    MipmapInput,
    Alias,
    FloatFramebuffer,
    SrgbFramebuffer,
    ScaleTypeX,
    ScaleTypeY,
    ScaleType,
    ScaleX,
    ScaleY,
    Scale,
    FrameCountMod,
}

pub(super) const PASS_KEYS: [(&str, PassKey); 14] = [
    ("shader", PassKey::Shader),
    ("filter_linear", PassKey::FilterLinear),
    ("wrap_mode", PassKey::WrapMode),
    ("mipmap_input", PassKey::MipmapInput),
    ("alias", PassKey::Alias),
    ("float_framebuffer", PassKey::FloatFramebuffer),
    ("srgb_framebuffer", PassKey::SrgbFramebuffer),
    ("scale_type_x", PassKey::ScaleTypeX),
    ("scale_type_y", PassKey::ScaleTypeY),
    ("scale_type", PassKey::ScaleType),
    ("scale_x", PassKey::ScaleX),
    ("scale_y", PassKey::ScaleY),
    ("scale", PassKey::Scale),
    ("frame_count_mod", PassKey::FrameCountMod),
];

pub(super) const GLOBAL_KEYS: [&str; 4] = ["shaders", "feedback_pass", "textures", "parameters"];

/// `scale12` is `(Scale, 12)`. The index is written the way RetroArch formats it (`%u`):
/// `scale01` is not `scale1`.
pub(super) fn pass_key(key: &str) -> Option<(PassKey, usize)> {
    let digits = key.len() - key.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 6 {
        return None;
    }
    let (prefix, index) = key.split_at(key.len() - digits);
    if index.len() > 1 && index.starts_with('0') {
        return None;
    }
    let kind = PASS_KEYS.iter().find(|(p, _)| *p == prefix)?.1;
    Some((kind, index.parse().ok()?))
}

/// Splits `A;B;;C` into ids, dropping empty pieces (RetroArch skips them).
pub fn split_list(s: &str) -> Vec<String> {
    s.split(';').filter(|p| !p.is_empty()).map(str::to_owned).collect()
}

/// Per-import keys of RetroArch's old state tracker.
pub(super) const IMPORT_SUFFIXES: [&str; 5] = ["_semantic", "_wram", "_input_slot", "_mask", "_equal"];
