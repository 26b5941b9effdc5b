//! Texture sampling as a GPU does it: normalised coordinates, texel centres at
//! `(i + 0.5) / size`, nearest and bilinear filtering with the Vulkan/GL rules
//! (`i = floor(u * w)` for nearest; `u' = u * w - 0.5`, `i0 = floor(u')`, weight
//! `frac(u')` for linear), the four wrap modes (clamp_to_border reads transparent black),
//! and mipmapping: level of detail `log2(rho)` from the screen-space derivatives (in
//! texels) plus bias, `NEAREST_MIPMAP_NEAREST` for nearest textures and
//! `LINEAR_MIPMAP_LINEAR` for linear ones (RetroArch's GL choice).
//!
//! Pure arithmetic on [`MipChain`]s; never panics (an empty texture reads 0) and knows
//! nothing of Cg or presets.

use super::hazard;
use super::image::MipChain;
use std::sync::Arc;
pub use translator::preset::WrapMode;

/// Sampler state of one texture binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerState {
    pub linear: bool,
    pub wrap: WrapMode,
    /// Whether mip levels are used (the texture must carry them).
    pub mipmap: bool,
}

impl Default for SamplerState {
    /// Nearest, clamp_to_border, no mipmaps: RetroArch's defaults.
    fn default() -> SamplerState {
        SamplerState { linear: false, wrap: WrapMode::ClampToBorder, mipmap: false }
    }
}

/// A texture bound to a sampler.
#[derive(Clone, Debug)]
pub struct BoundTexture {
    pub texture: Arc<MipChain>,
    pub state: SamplerState,
}

/// Wraps an integer texel coordinate; `None` means the border.
pub fn wrap(i: i64, size: u32, mode: WrapMode) -> Option<u32> {
    let n = i64::from(size.max(1));
    // Inside the texture every mode reads the texel itself (and no division is made).
    if (0..n).contains(&i) {
        return Some(i as u32);
    }
    let r = match mode {
        WrapMode::ClampToBorder => {
            if i < 0 || i >= n {
                return None;
            }
            i
        }
        WrapMode::ClampToEdge => i.clamp(0, n - 1),
        WrapMode::Repeat => i.rem_euclid(n),
        WrapMode::MirroredRepeat => {
            let t = i.rem_euclid(2 * n);
            if t >= n {
                2 * n - 1 - t
            } else {
                t
            }
        }
    };
    Some(r as u32)
}

/// Float to an integer texel index without overflow (NaN gives a border read).
fn texel_index(x: f64) -> i64 {
    index_of_floor(hazard::floor(x))
}

/// [`texel_index`] of a coordinate whose floor is `f` (`floor(NaN)` is NaN), for a
/// caller that needs the floor itself too (a bilinear fraction): one floor for both.
#[inline]
fn index_of_floor(f: f64) -> i64 {
    if f.is_nan() {
        return i64::MIN / 4;
    }
    hazard::small_integer_to_i64(f.clamp(-1e15, 1e15))
}

/// The texel at integer coordinates of one level after wrapping (border = 0).
fn fetch_wrapped(chain: &MipChain, level: usize, x: i64, y: i64, wrap_mode: WrapMode) -> [f32; 4] {
    let Some(img) = chain.levels.get(level) else { return [0.0; 4] };
    match (wrap(x, img.width, wrap_mode), wrap(y, img.height, wrap_mode)) {
        (Some(x), Some(y)) => img.get(x, y).unwrap_or([0.0; 4]),
        _ => [0.0; 4],
    }
}

/// The texel at integer coordinates without wrapping; out of range reads 0 (`*fetch`).
pub fn fetch(chain: &MipChain, level: i64, x: i64, y: i64) -> [f32; 4] {
    if level < 0 || x < 0 || y < 0 {
        return [0.0; 4];
    }
    chain.levels.get(level as usize).and_then(|img| img.get(x as u32, y as u32)).unwrap_or([0.0; 4])
}

/// One level sampled at normalised `(u, v)`.
fn sample_level(chain: &MipChain, level: usize, u: f64, v: f64, state: SamplerState) -> [f32; 4] {
    let Some(img) = chain.levels.get(level) else { return [0.0; 4] };
    let (w, h) = (f64::from(img.width), f64::from(img.height));
    if !state.linear {
        return fetch_wrapped(chain, level, texel_index(u * w), texel_index(v * h), state.wrap);
    }
    let (x, y) = (u * w - 0.5, v * h - 0.5);
    let (floor_x, floor_y) = (hazard::floor(x), hazard::floor(y));
    let (x0, y0) = (index_of_floor(floor_x), index_of_floor(floor_y));
    let (fx, fy) = ((x - floor_x) as f32, (y - floor_y) as f32);
    let (iw, ih) = (i64::from(img.width), i64::from(img.height));
    let (t00, t10, t01, t11) = if x0 >= 0 && y0 >= 0 && x0 + 1 < iw && y0 + 1 < ih {
        // The whole footprint inside the level: the four texels read directly (what
        // the wrapped reads give there).
        let at = |x: i64, y: i64| img.pixels.get((y * iw + x) as usize).copied().unwrap_or([0.0; 4]);
        (at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1))
    } else {
        (
            fetch_wrapped(chain, level, x0, y0, state.wrap),
            fetch_wrapped(chain, level, x0 + 1, y0, state.wrap),
            fetch_wrapped(chain, level, x0, y0 + 1, state.wrap),
            fetch_wrapped(chain, level, x0 + 1, y0 + 1, state.wrap),
        )
    };
    bilinear([t00, t10, t01, t11], fx, fy)
}

/// The bilinear blend of a footprint's texels `[t00, t10, t01, t11]` at binary32
/// fractions `(fx, fy)`.
#[inline]
fn bilinear([t00, t10, t01, t11]: [[f32; 4]; 4], fx: f32, fy: f32) -> [f32; 4] {
    let mut out = [0.0f32; 4];
    for c in 0..4 {
        let top = t00[c] * (1.0 - fx) + t10[c] * fx;
        let bottom = t01[c] * (1.0 - fx) + t11[c] * fx;
        out[c] = top * (1.0 - fy) + bottom * fy;
    }
    out
}

/// Whether a bilinear footprint at fractions `(fx, fy)` reads a texel whose
/// `flag(dx, dy)` is set (`(x0 + dx, y0 + dy)`) with a non-zero weight.
#[inline]
fn weighted_flag(fx: f64, fy: f64, flag: impl Fn(usize, usize) -> bool) -> bool {
    (flag(0, 0) && fx < 1.0 && fy < 1.0)
        || (fx > 0.0 && flag(1, 0))
        || (fy > 0.0 && flag(0, 1))
        || (fx > 0.0 && fy > 0.0 && flag(1, 1))
}

/// GLSL's `textureGather` on level 0: component `comp` (0-3) of the four texels a
/// bilinear lookup at `(u, v)` blends, their footprint moved by `offset` texels, in the
/// order `(i0, j1), (i1, j1), (i1, j0), (i0, j0)` (wrapped by the sampler).
pub fn gather(tex: &BoundTexture, u: f64, v: f64, offset: (i64, i64), comp: usize) -> [f32; 4] {
    let chain = &*tex.texture;
    let Some(img) = chain.levels.first() else { return [0.0; 4] };
    let (i0, j0) = gather_origin(f64::from(img.width), f64::from(img.height), u, v, offset);
    let c = comp.min(3);
    let t = |i: i64, j: i64| fetch_wrapped(chain, 0, i, j, tex.state.wrap)[c];
    [t(i0, j0 + 1), t(i0 + 1, j0 + 1), t(i0 + 1, j0), t(i0, j0)]
}

fn gather_origin(w: f64, h: f64, u: f64, v: f64, offset: (i64, i64)) -> (i64, i64) {
    (texel_index(u * w - 0.5).saturating_add(offset.0), texel_index(v * h - 0.5).saturating_add(offset.1))
}

/// The hazard of [`gather`]: the footprint decided within [`hazard::SUBTEXEL`] of a texel
/// centre, or a hazardous texel in it.
pub fn gather_hazard(tex: &BoundTexture, u: f64, v: f64, offset: (i64, i64), approx: (bool, bool)) -> bool {
    let chain = &*tex.texture;
    let Some(img) = chain.levels.first() else { return false };
    let (w, h) = (f64::from(img.width), f64::from(img.height));
    if hazard::texel_boundary(u * w - 0.5, approx.0) || hazard::texel_boundary(v * h - 0.5, approx.1) {
        return true;
    }
    let (i0, j0) = gather_origin(w, h, u, v, offset);
    let at = |x: i64, y: i64| match (wrap(x, img.width, tex.state.wrap), wrap(y, img.height, tex.state.wrap)) {
        (Some(x), Some(y)) => chain.texel_hazard(0, x, y),
        _ => false,
    };
    !chain.hazard.is_empty() && (at(i0, j0) || at(i0 + 1, j0) || at(i0, j0 + 1) || at(i0 + 1, j0 + 1))
}

/// The levels a read at level of detail `lod` takes (`lod` is ignored without mipmaps):
/// `level`, blended with `next` at binary32 weight `weight` (0: `level` alone), and
/// whether the value is approximate (bilinear and mipmapped samples are: GPUs quantise
/// their weights). Where `lod` has a fraction (`fractional`) `next`'s hazard counts even
/// when its weight rounds to 0.
struct LevelChoice {
    level: usize,
    next: usize,
    weight: f32,
    fractional: bool,
    approximate: bool,
}

fn choose_levels(tex: &BoundTexture, lod: f64) -> LevelChoice {
    let levels = tex.texture.levels.len();
    let single = |level, approximate| LevelChoice { level, next: level, weight: 0.0, fractional: false, approximate };
    if !tex.state.mipmap || levels <= 1 || lod.is_nan() || lod <= 0.0 {
        return single(0, tex.state.linear);
    }
    let max = (levels - 1) as f64;
    if !tex.state.linear {
        // NEAREST_MIPMAP_NEAREST: level ceil(lod + 0.5) - 1, i.e. lod rounded half down.
        return single(((lod + 0.5).ceil() - 1.0).clamp(0.0, max) as usize, false);
    }
    let lod = lod.min(max);
    let l0 = lod.floor();
    LevelChoice {
        level: l0 as usize,
        next: (l0 as usize + 1).min(levels - 1),
        weight: (lod - l0) as f32,
        fractional: lod > l0,
        approximate: true,
    }
}

/// `a` blended towards `b` by weight `f` (`a` itself at 0).
fn blend(a: [f32; 4], b: [f32; 4], f: f32) -> [f32; 4] {
    if f == 0.0 {
        return a;
    }
    [0, 1, 2, 3].map(|c| a[c] * (1.0 - f) + b[c] * f)
}

/// Samples at normalised `(u, v)` and level of detail `lod` (ignored without mipmaps).
pub fn sample(tex: &BoundTexture, u: f64, v: f64, lod: f64) -> [f32; 4] {
    let (chain, c) = (&*tex.texture, choose_levels(tex, lod));
    let a = sample_level(chain, c.level, u, v, tex.state);
    if c.weight == 0.0 {
        return a;
    }
    blend(a, sample_level(chain, c.next, u, v, tex.state), c.weight)
}

/// The hazard of one level read at `(u, v)` (see [`super::hazard`]): a hazardous texel
/// read with a non-zero weight, or a nearest read within [`hazard::SUBTEXEL`] of a texel
/// boundary (`approx`: whether `u` and `v` are approximate).
fn level_hazard(chain: &MipChain, level: usize, u: f64, v: f64, state: SamplerState, approx: (bool, bool)) -> bool {
    let Some(img) = chain.levels.get(level) else { return false };
    let (w, h) = (f64::from(img.width), f64::from(img.height));
    if !state.linear {
        let (tx, ty) = (u * w, v * h);
        return nearest_hazard(chain, level, (tx, ty), (texel_index(tx), texel_index(ty)), state.wrap, approx);
    }
    if chain.hazard.is_empty() {
        return false;
    }
    let (x, y) = (u * w - 0.5, v * h - 0.5);
    let (floor_x, floor_y) = (hazard::floor(x), hazard::floor(y));
    let (x0, y0) = (index_of_floor(floor_x), index_of_floor(floor_y));
    let at = |dx: usize, dy: usize| texel_hazard_wrapped(chain, level, x0 + dx as i64, y0 + dy as i64, state.wrap);
    weighted_flag(x - floor_x, y - floor_y, at)
}

/// The hazard of a nearest read at texel coordinates `t` (`(u w, v h)`) whose texel is
/// `i`: within [`hazard::SUBTEXEL`] of a texel boundary, or a hazardous texel.
fn nearest_hazard(
    chain: &MipChain,
    level: usize,
    t: (f64, f64),
    i: (i64, i64),
    mode: WrapMode,
    approx: (bool, bool),
) -> bool {
    hazard::texel_boundary(t.0, approx.0)
        || hazard::texel_boundary(t.1, approx.1)
        || (!chain.hazard.is_empty() && texel_hazard_wrapped(chain, level, i.0, i.1, mode))
}

/// Whether texel `(x, y)` of `level`, wrapped by `mode`, is hazardous (the border is not).
fn texel_hazard_wrapped(chain: &MipChain, level: usize, x: i64, y: i64, mode: WrapMode) -> bool {
    let Some(img) = chain.levels.get(level) else { return false };
    match (wrap(x, img.width, mode), wrap(y, img.height, mode)) {
        (Some(x), Some(y)) => chain.texel_hazard(level, x, y),
        _ => false,
    }
}

/// The hazard of [`sample`] at the same arguments, and whether its value is
/// approximate.
pub fn sample_hazard(tex: &BoundTexture, u: f64, v: f64, lod: f64, approx: (bool, bool)) -> (bool, bool) {
    let (chain, c) = (&*tex.texture, choose_levels(tex, lod));
    let hazard = level_hazard(chain, c.level, u, v, tex.state, approx)
        || (c.fractional && level_hazard(chain, c.next, u, v, tex.state, approx));
    (hazard, c.approximate)
}

/// [`sample`] and [`sample_hazard`] at the same arguments in one read: the value, its
/// hazard and whether it is approximate, exactly what the two give (a nearest read
/// finds its texel once for both).
#[inline]
pub fn sample_with_hazard(
    tex: &BoundTexture,
    u: f64,
    v: f64,
    lod: f64,
    approx: (bool, bool),
) -> ([f32; 4], bool, bool) {
    let (chain, c) = (&*tex.texture, choose_levels(tex, lod));
    let (a, hazard_a) = level_read(chain, c.level, u, v, tex.state, approx);
    if !c.fractional {
        return (a, hazard_a, c.approximate);
    }
    let (b, hazard_b) = level_read(chain, c.next, u, v, tex.state, approx);
    (blend(a, b, c.weight), hazard_a || hazard_b, c.approximate)
}

/// [`sample_with_hazard`] of a texture without mip levels to choose from (its level of
/// detail is never read): level 0's value and hazard. It is approximate exactly when the
/// texture is filtered (`tex.state.linear`), the same for every read, so the caller
/// decides that once.
#[inline]
pub fn level0_with_hazard(tex: &BoundTexture, u: f64, v: f64, approx: (bool, bool)) -> ([f32; 4], bool) {
    level_read(&tex.texture, 0, u, v, tex.state, approx)
}

/// [`sample_level`] and [`level_hazard`] of one level at once: the footprint is found
/// once for both, and where it lies inside the level (the common case) its texels and
/// their hazard flags are read directly, as the wrapped reads would read them.
#[inline(always)]
fn level_read(
    chain: &MipChain,
    level: usize,
    u: f64,
    v: f64,
    state: SamplerState,
    approx: (bool, bool),
) -> ([f32; 4], bool) {
    let Some(img) = chain.levels.get(level) else { return ([0.0; 4], false) };
    let (w, h) = (f64::from(img.width), f64::from(img.height));
    if !state.linear {
        // The texel wrapped once for its value and its flag.
        let t = (u * w, v * h);
        let at = match (wrap(texel_index(t.0), img.width, state.wrap), wrap(texel_index(t.1), img.height, state.wrap)) {
            (Some(x), Some(y)) => Some((x, y)),
            _ => None,
        };
        let value = at.and_then(|(x, y)| img.get(x, y)).unwrap_or([0.0; 4]);
        let hazard = hazard::texel_boundary(t.0, approx.0)
            || hazard::texel_boundary(t.1, approx.1)
            || at.is_some_and(|(x, y)| chain.texel_hazard(level, x, y));
        return (value, hazard);
    }
    let (x, y) = (u * w - 0.5, v * h - 0.5);
    let (floor_x, floor_y) = (hazard::floor(x), hazard::floor(y));
    let (x0, y0) = (index_of_floor(floor_x), index_of_floor(floor_y));
    let (iw, ih) = (i64::from(img.width), i64::from(img.height));
    if !(x0 >= 0 && y0 >= 0 && x0 + 1 < iw && y0 + 1 < ih) {
        return (sample_level(chain, level, u, v, state), level_hazard(chain, level, u, v, state, approx));
    }
    let (fxd, fyd) = (x - floor_x, y - floor_y);
    let (fx, fy) = (fxd as f32, fyd as f32);
    let base = (y0 * iw + x0) as usize;
    let row = iw as usize;
    let at = |i: usize| img.pixels.get(i).copied().unwrap_or([0.0; 4]);
    let (t00, t10, t01, t11) = (at(base), at(base + 1), at(base + row), at(base + row + 1));
    // The flags of the texels with a weight (see `level_hazard`).
    let hazard = chain
        .hazard
        .get(level)
        .is_some_and(|map| weighted_flag(fxd, fyd, |dx, dy| map.get(base + dx + dy * row).copied().unwrap_or(false)));
    (bilinear([t00, t10, t01, t11], fx, fy), hazard)
}

/// Level of detail from the derivatives of the normalised coordinates, in texels of
/// level 0: `log2(max(|d/dx|, |d/dy|))`.
pub fn lod_from_derivatives(size: (u32, u32), dx: (f64, f64), dy: (f64, f64)) -> f64 {
    let (w, h) = (f64::from(size.0), f64::from(size.1));
    let lx = ((dx.0 * w).powi(2) + (dx.1 * h).powi(2)).sqrt();
    let ly = ((dy.0 * w).powi(2) + (dy.1 * h).powi(2)).sqrt();
    lx.max(ly).log2()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::image::RgbaF32Image;

    fn tex(linear: bool, wrap: WrapMode) -> BoundTexture {
        let img = RgbaF32Image::from_fn(4, 1, |x, _| [x as f32, 0.0, 0.0, 1.0]);
        BoundTexture { texture: Arc::new(MipChain::single(img)), state: SamplerState { linear, wrap, mipmap: false } }
    }

    #[test]
    fn wraps() {
        assert_eq!(wrap(-1, 4, WrapMode::ClampToBorder), None);
        assert_eq!(wrap(5, 4, WrapMode::ClampToEdge), Some(3));
        assert_eq!(wrap(-1, 4, WrapMode::Repeat), Some(3));
        assert_eq!(wrap(4, 4, WrapMode::MirroredRepeat), Some(3));
        assert_eq!(wrap(-1, 4, WrapMode::MirroredRepeat), Some(0));
    }

    /// The fused read gives exactly what the two separate ones give, for every filter,
    /// wrap mode and level of detail, with a hazard map on every level.
    #[test]
    fn the_fused_read_equals_the_value_and_hazard_reads() {
        use crate::reference::image::{DeviceConversions, StorageFormat};
        let img = RgbaF32Image::from_fn(8, 6, |x, y| [x as f32 / 8.0, y as f32 / 6.0, ((x * y) % 5) as f32 / 5.0, 1.0]);
        let chain = MipChain::generate(img, StorageFormat::Float32, &DeviceConversions::exact())
            .with_hazard((0..48).map(|i| i % 7 == 3).collect());
        let chain = Arc::new(chain);
        assert!(!chain.hazard.is_empty() && chain.levels.len() > 2);
        let modes = [WrapMode::ClampToBorder, WrapMode::ClampToEdge, WrapMode::Repeat, WrapMode::MirroredRepeat];
        let (mut checked, mut hazards) = (0, 0);
        for linear in [false, true] {
            for mipmap in [false, true] {
                for wrap in modes {
                    let tex = BoundTexture { texture: chain.clone(), state: SamplerState { linear, wrap, mipmap } };
                    for i in -3..=19 {
                        for j in [-0.3, 0.0, 0.26, 0.5, 0.5625, 0.99, 1.4] {
                            for lod in [f64::NAN, -1.0, 0.0, 0.3, 1.0, 1.5, 2.75, 9.0] {
                                let (u, v) = (f64::from(i) / 16.0, j);
                                for approx in [(false, false), (true, true)] {
                                    let (value, hazard, approximate) = sample_with_hazard(&tex, u, v, lod, approx);
                                    let separate = sample(&tex, u, v, lod);
                                    assert_eq!(value.map(f32::to_bits), separate.map(f32::to_bits));
                                    assert_eq!((hazard, approximate), sample_hazard(&tex, u, v, lod, approx));
                                    checked += 1;
                                    hazards += usize::from(hazard);
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 2 * 4 * 23 * 7 * 8 * 2);
        assert!(hazards > checked / 10 && hazards < checked * 9 / 10, "{hazards} of {checked} hazardous");
    }

    #[test]
    fn nearest_and_linear() {
        assert_eq!(sample(&tex(false, WrapMode::ClampToEdge), 0.3, 0.5, 0.0)[0], 1.0);
        let l = sample(&tex(true, WrapMode::ClampToEdge), 0.25, 0.5, 0.0)[0];
        assert!((l - 0.5).abs() < 1e-6);
        let b = sample(&tex(true, WrapMode::ClampToBorder), 0.0, 0.5, 0.0);
        assert!((b[0] - 0.0).abs() < 1e-6 && (b[3] - 0.5).abs() < 1e-6);
    }
}
