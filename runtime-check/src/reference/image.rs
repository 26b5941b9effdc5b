//! Images of the reference renderer: RGBA `f32` pixels, row 0 at the top of the
//! picture (texture coordinate `t = 0`), plus the storage conversions a GPU applies when
//! it writes a render target (8-bit UNORM quantisation, sRGB encode) and the box-filtered
//! mip chain `glGenerateMipmap` builds. What an 8-bit target stores and what a shader
//! reads back from it follow the device's conversions ([`DeviceConversions`]): exact by
//! default, or the tables measured on the GPU a comparison renders on.
//!
//! Pure data and arithmetic: no file system (PNG loading lives in [`super::png`]), no
//! knowledge of shaders or presets. Never panics: out-of-range pixel reads are `None`.

use super::memo::Fingerprint;
use std::sync::{Arc, OnceLock};

/// An RGBA image of `f32` channels, row-major, row 0 at the top.
#[derive(Clone, Debug, PartialEq)]
pub struct RgbaF32Image {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<[f32; 4]>,
}

impl RgbaF32Image {
    /// An image filled with one colour.
    pub fn filled(width: u32, height: u32, colour: [f32; 4]) -> RgbaF32Image {
        RgbaF32Image { width, height, pixels: vec![colour; width as usize * height as usize] }
    }

    /// A transparent black image (what RetroArch clears history and feedback to).
    pub fn transparent(width: u32, height: u32) -> RgbaF32Image {
        RgbaF32Image::filled(width, height, [0.0; 4])
    }

    /// Builds an image from a function of the pixel position.
    pub fn from_fn(width: u32, height: u32, f: impl Fn(u32, u32) -> [f32; 4]) -> RgbaF32Image {
        let mut pixels = Vec::with_capacity(width as usize * height as usize);
        for y in 0..height {
            for x in 0..width {
                pixels.push(f(x, y));
            }
        }
        RgbaF32Image { width, height, pixels }
    }

    /// The pixel at `(x, y)`, `None` outside.
    pub fn get(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        if x < self.width && y < self.height {
            self.pixels.get(y as usize * self.width as usize + x as usize).copied()
        } else {
            None
        }
    }

    /// Applies the storage format of a render target to every pixel (sRGB targets read
    /// back through `srgb`).
    pub fn store_as(&mut self, format: StorageFormat, conversions: &DeviceConversions) {
        for p in &mut self.pixels {
            *p = format.store(*p, conversions);
        }
    }

    /// The image shrunk by the smallest whole factor that brings both sides to at most
    /// `max_side` pixels, each output pixel the mean of its block (a preview; the image
    /// itself when it is small enough).
    pub fn downscaled(&self, max_side: u32) -> RgbaF32Image {
        let longest = self.width.max(self.height);
        let f = longest.div_ceil(max_side.max(1)).max(1);
        if f == 1 {
            return self.clone();
        }
        let (w, h) = (self.width.div_ceil(f), self.height.div_ceil(f));
        RgbaF32Image::from_fn(w, h, |x, y| {
            let mut sum = [0.0f64; 4];
            let mut n = 0.0;
            for sy in y * f..((y + 1) * f).min(self.height) {
                for sx in x * f..((x + 1) * f).min(self.width) {
                    if let Some(p) = self.get(sx, sy) {
                        for (s, c) in sum.iter_mut().zip(p) {
                            *s += f64::from(c);
                        }
                        n += 1.0;
                    }
                }
            }
            sum.map(|s| if n > 0.0 { (s / n) as f32 } else { 0.0 })
        })
    }

    /// The image as 8-bit RGBA bytes (UNORM quantisation).
    pub fn to_rgba8(&self) -> Vec<u8> {
        self.pixels.iter().flat_map(|p| p.map(|c| unorm8(c) as u8)).collect()
    }

    /// An image from 8-bit RGBA bytes; `None` when the length does not match.
    pub fn from_rgba8(width: u32, height: u32, bytes: &[u8]) -> Option<RgbaF32Image> {
        if bytes.len() != width as usize * height as usize * 4 {
            return None;
        }
        let pixels = bytes.chunks_exact(4).map(|c| [0, 1, 2, 3].map(|i| f32::from(c[i]) / 255.0)).collect();
        Some(RgbaF32Image { width, height, pixels })
    }
}

/// How a render target stores what a fragment wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StorageFormat {
    /// `R8G8B8A8_UNORM`: clamp to [0, 1], round to 1/255 (NaN stores 0), read back
    /// through the device's [`DeviceConversions`].
    Unorm8,
    /// `R8G8B8A8_SRGB`: colour channels encoded to sRGB, quantised to 8 bits and decoded
    /// back when sampled through the device's [`DeviceConversions`] (what the image keeps is the
    /// decoded value); alpha as UNORM.
    Srgb8,
    /// A 16-bit float target (`R16G16B16A16_SFLOAT`): values rounded to binary16.
    Float16,
    /// A 32-bit float target: values kept as they are.
    Float32,
}

impl StorageFormat {
    /// What reading the target back gives for a written value (8-bit formats read back
    /// through the device's `decode`).
    pub fn store(self, p: [f32; 4], decode: &DeviceConversions) -> [f32; 4] {
        match self {
            StorageFormat::Float32 => p,
            StorageFormat::Float16 => p.map(to_half),
            StorageFormat::Unorm8 => p.map(|c| decode.store_unorm8(c)),
            StorageFormat::Srgb8 => {
                let c = |v: f32| decode.store_srgb8(v);
                [c(p[0]), c(p[1]), c(p[2]), decode.store_unorm8(p[3])]
            }
        }
    }
}

/// A device's 8-bit conversions, in UNORM and sRGB textures: what sampling a stored
/// texel returns for each of the 256 byte values (the decode), and where a written value
/// starts storing the next byte (the encode boundaries). Vulkan leaves their precision to
/// the implementation, and devices differ (measured: lavapipe's sRGB decode is off the
/// transfer function by up to 1.2e-3 of linear value, an H100's by up to 3.7e-3); a chain
/// of 8-bit passes accumulates the difference into whole steps, and a decision near its
/// threshold flips on it. [`DeviceConversions::exact`] is `k / 255` and the transfer function;
/// [`DeviceConversions::measured`] takes the tables read on a GPU (`chain::probe`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceConversions {
    unorm8: Arc<[f32; 256]>,
    srgb8: Arc<[f32; 256]>,
    /// Measured encodes: the smallest written value (linear) that stores byte `k + 1`;
    /// `None`: round to nearest (`k + 0.5` steps).
    unorm8_encode: Option<Arc<[f32; 255]>>,
    srgb8_encode: Option<Arc<[f32; 255]>>,
}

impl Default for DeviceConversions {
    fn default() -> DeviceConversions {
        DeviceConversions::exact()
    }
}

/// A decode table: the value read for each byte.
type ByteTable = Arc<[f32; 256]>;

/// The exact tables: `k / 255` and the sRGB transfer function, in binary32.
fn exact_tables() -> &'static (ByteTable, ByteTable) {
    static EXACT: OnceLock<(ByteTable, ByteTable)> = OnceLock::new();
    EXACT.get_or_init(|| {
        (
            Arc::new(std::array::from_fn(|k| k as f32 / 255.0)),
            Arc::new(std::array::from_fn(|k| srgb_decode(k as f32 / 255.0))),
        )
    })
}

/// A table some device could read back: finite, in [0, 1], never decreasing.
fn plausible(table: &[f32; 256]) -> bool {
    table.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)) && table.windows(2).all(|w| w[0] <= w[1])
}

/// The byte (as `k / 255`) whose entry in `table` is `v`, if any.
fn byte_of(table: &[f32; 256], v: f32) -> Option<f32> {
    let k = table.partition_point(|t| *t < v);
    (table.get(k) == Some(&v)).then_some(k as f32 / 255.0)
}

impl DeviceConversions {
    /// Writes every table into a memo key (they decide what a stored target reads back).
    pub fn write_key(&self, k: &mut super::memo::KeyWriter) {
        k.f32s(self.unorm8.as_slice());
        k.f32s(self.srgb8.as_slice());
        for encode in [&self.unorm8_encode, &self.srgb8_encode] {
            match encode {
                Some(t) => {
                    k.tag(1);
                    k.f32s(t.as_slice());
                }
                None => k.tag(0),
            }
        }
    }

    /// `k / 255` and the transfer function.
    pub fn exact() -> DeviceConversions {
        let (unorm8, srgb8) = exact_tables().clone();
        DeviceConversions { unorm8, srgb8, unorm8_encode: None, srgb8_encode: None }
    }

    /// Measured tables, or `None` when one is not a table a device could give: a decode
    /// value not finite, outside [0, 1], or decreasing with the byte; an encode boundary
    /// not finite or not above the one before.
    pub fn measured(
        unorm8: [f32; 256],
        srgb8: [f32; 256],
        unorm8_encode: Option<[f32; 255]>,
        srgb8_encode: Option<[f32; 255]>,
    ) -> Option<DeviceConversions> {
        let rising = |t: &Option<[f32; 255]>| {
            t.as_ref().is_none_or(|t| t.iter().all(|v| v.is_finite()) && t.windows(2).all(|w| w[0] < w[1]))
        };
        (plausible(&unorm8) && plausible(&srgb8) && rising(&unorm8_encode) && rising(&srgb8_encode)).then(|| {
            DeviceConversions {
                unorm8: Arc::new(unorm8),
                srgb8: Arc::new(srgb8),
                unorm8_encode: unorm8_encode.map(Arc::new),
                srgb8_encode: srgb8_encode.map(Arc::new),
            }
        })
    }

    /// The byte a UNORM target stores for a written value (NaN stores 0).
    pub fn unorm8_byte(&self, v: f32) -> u8 {
        match &self.unorm8_encode {
            _ if v.is_nan() => 0,
            // The count of boundaries at or below `v`, searched from the nominal byte (a
            // device's boundaries lie within a step of the nominal ones, see `measured`).
            Some(t) => boundaries_at_or_below(&t[..], v, unorm8(v) as usize) as u8,
            None => unorm8(v) as u8,
        }
    }

    /// The byte an sRGB target stores for a written linear value (NaN stores 0).
    pub fn srgb8_byte(&self, v: f32) -> u8 {
        match &self.srgb8_encode {
            _ if v.is_nan() => 0,
            Some(t) => t.partition_point(|b| *b <= v) as u8,
            None => unorm8(srgb_encode(v)) as u8,
        }
    }

    /// The value a shader reads for a stored UNORM byte.
    pub fn unorm8(&self, byte: u8) -> f32 {
        self.unorm8[usize::from(byte)]
    }

    /// The value a shader reads for a stored sRGB byte.
    pub fn srgb8(&self, byte: u8) -> f32 {
        self.srgb8[usize::from(byte)]
    }

    /// A value in [0, 1] written to a UNORM target and read back.
    pub fn store_unorm8(&self, v: f32) -> f32 {
        self.unorm8(self.unorm8_byte(v))
    }

    /// A linear value written to an sRGB target and read back: encoded, quantised, decoded.
    pub fn store_srgb8(&self, v: f32) -> f32 {
        self.srgb8(self.srgb8_byte(v))
    }

    /// An 8-bit image (values `k / 255`, such as a decoded PNG) as a shader samples it.
    pub fn sampled_unorm8(&self, image: &RgbaF32Image) -> RgbaF32Image {
        if Arc::ptr_eq(&self.unorm8, &exact_tables().0) {
            return image.clone();
        }
        RgbaF32Image {
            width: image.width,
            height: image.height,
            pixels: image.pixels.iter().map(|p| p.map(|c| self.unorm8(unorm8(c) as u8))).collect(),
        }
    }

    /// The stored byte (as `k / 255`) that reads back as `v` from an sRGB target; a value
    /// this table never reads back is encoded by the transfer function.
    pub fn srgb_encoded(&self, v: f32) -> f32 {
        byte_of(&self.srgb8, v).unwrap_or_else(|| srgb_encode(v))
    }

    /// The stored byte (as `k / 255`) that reads back as `v` from a UNORM target; a
    /// value this table never reads back is kept.
    pub fn unorm_stored(&self, v: f32) -> f32 {
        byte_of(&self.unorm8, v).unwrap_or(v)
    }

    /// The largest difference from the exact tables over the 256 bytes: (UNORM, sRGB).
    pub fn max_deviation(&self) -> (f32, f32) {
        let (u, s) = exact_tables();
        let dev = |a: &[f32; 256], b: &[f32; 256]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
        (dev(&self.unorm8, u), dev(&self.srgb8, s))
    }

    /// The largest distance of a measured encode boundary from `k + 0.5`, in 8-bit
    /// steps of the stored (for sRGB: encoded) value: (UNORM, sRGB); 0 when not measured.
    pub fn max_encode_offset(&self) -> (f32, f32) {
        let off = |t: &Option<Arc<[f32; 255]>>, enc: fn(f32) -> f32| {
            t.as_ref().map_or(0.0, |t| {
                t.iter().enumerate().map(|(k, v)| (enc(*v) * 255.0 - (k as f32 + 0.5)).abs()).fold(0.0, f32::max)
            })
        };
        (off(&self.unorm8_encode, |v| v), off(&self.srgb8_encode, srgb_encode))
    }
}

/// Rounds to the nearest binary16 value (ties to even; overflow to infinity).
pub fn to_half(v: f32) -> f32 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let a = v.abs();
    if a >= 65520.0 {
        return f32::INFINITY.copysign(v);
    }
    // Quantum: 2^(e - 10) for normals, 2^-24 for subnormals.
    let e = a.log2().floor().max(-14.0);
    let q = (e - 10.0).exp2();
    ((a / q).round_ties_even() * q).copysign(v)
}

/// How many of the strictly rising `boundaries` lie at or below `v` (what
/// `partition_point(|b| *b <= v)` gives), found by walking from `guess`: a few steps
/// from a guess near the answer, where a binary search takes eight.
fn boundaries_at_or_below(boundaries: &[f32], v: f32, guess: usize) -> usize {
    let mut k = guess.min(boundaries.len());
    while boundaries.get(k).is_some_and(|b| *b <= v) {
        k += 1;
    }
    while k > 0 && boundaries.get(k - 1).is_some_and(|b| *b > v) {
        k -= 1;
    }
    k
}

/// `round(saturate(v) * 255)` (half away from zero), NaN gives 0.
pub fn unorm8(v: f32) -> u32 {
    if v.is_nan() {
        return 0;
    }
    let x = v.clamp(0.0, 1.0) * 255.0;
    // `x.round()` without the library call: `x - t` is exact for `t = trunc(x)` in
    // [0, 255] (both multiples of `x`'s ulp), so the half is decided exactly.
    let t = x as u32;
    t + u32::from(x - t as f32 >= 0.5)
}

/// The sRGB transfer function (linear to encoded), on [0, 1] (clamped).
pub fn srgb_encode(v: f32) -> f32 {
    let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

/// The inverse sRGB transfer function (encoded to linear).
pub fn srgb_decode(v: f32) -> f32 {
    if v <= 0.040_45 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

/// A texture as the sampler sees it: level 0 and, when mipmapped, the smaller levels.
/// A chain is not changed once a pass can read it: its [`MipChain::fingerprint`] is
/// taken once.
#[derive(Clone, Debug)]
pub struct MipChain {
    pub levels: Vec<RgbaF32Image>,
    /// Per level, one flag per texel (row-major): the texel's value depends on something
    /// a GPU may compute differently (see [`super::hazard`]). Empty: no hazard anywhere.
    pub hazard: Vec<Vec<bool>>,
    /// What the content is known by: the render key of the pass that made it
    /// ([`MipChain::with_fingerprint`]), else the digest of its content, taken on first use.
    fingerprint: OnceLock<Fingerprint>,
}

/// Chains are equal by content (levels and hazard maps), whatever their fingerprints.
impl PartialEq for MipChain {
    fn eq(&self, other: &MipChain) -> bool {
        self.levels == other.levels && self.hazard == other.hazard
    }
}

impl MipChain {
    /// A texture with one level.
    pub fn single(image: RgbaF32Image) -> MipChain {
        MipChain { levels: vec![image], hazard: Vec::new(), fingerprint: OnceLock::new() }
    }

    /// What the content is known by in a [`super::memo::PassMemo`] key: the fingerprint
    /// given by [`MipChain::with_fingerprint`], else the digest of the content.
    pub fn fingerprint(&self) -> Fingerprint {
        *self.fingerprint.get_or_init(|| super::memo::content(self))
    }

    /// The chain known by `fingerprint`: the key of the deterministic render that made
    /// it, which equal content always has (no pixel is hashed).
    pub fn with_fingerprint(self, fingerprint: Fingerprint) -> MipChain {
        MipChain { fingerprint: OnceLock::from(fingerprint), ..self }
    }

    /// Attaches level 0's hazard map (one flag per texel; ignored when its length does
    /// not match) and derives the smaller levels' maps: a texel of level `k + 1` is
    /// hazardous when any of the texels it averages is.
    pub fn with_hazard(mut self, map: Vec<bool>) -> MipChain {
        self.fingerprint = OnceLock::new();
        let Some(base) = self.levels.first() else { return self };
        if map.len() != base.pixels.len() || !map.iter().any(|&h| h) {
            self.hazard = Vec::new();
            return self;
        }
        let mut maps = vec![map];
        for w in self.levels.windows(2) {
            let (last, next) = (&w[0], &w[1]);
            let prev = maps.last().cloned().unwrap_or_default();
            let at = |x: u32, y: u32| prev.get(y as usize * last.width as usize + x as usize).copied().unwrap_or(false);
            let mut m = Vec::with_capacity(next.pixels.len());
            for y in 0..next.height {
                for x in 0..next.width {
                    let sx = |d: u32| (2 * x + d).min(last.width.saturating_sub(1));
                    let sy = |d: u32| (2 * y + d).min(last.height.saturating_sub(1));
                    m.push(at(sx(0), sy(0)) || at(sx(1), sy(0)) || at(sx(0), sy(1)) || at(sx(1), sy(1)));
                }
            }
            maps.push(m);
        }
        self.hazard = maps;
        self
    }

    /// Whether texel `(x, y)` of `level` is hazardous (false outside or without a map).
    pub fn texel_hazard(&self, level: usize, x: u32, y: u32) -> bool {
        let (Some(map), Some(img)) = (self.hazard.get(level), self.levels.get(level)) else { return false };
        x < img.width && map.get(y as usize * img.width as usize + x as usize).copied().unwrap_or(false)
    }

    /// Level 0 plus the full chain down to 1x1, each level the 2x2 box filter of the
    /// previous one (odd sizes: the last row/column is averaged with itself), stored in
    /// `format` as `glGenerateMipmap` does.
    pub fn generate(image: RgbaF32Image, format: StorageFormat, srgb: &DeviceConversions) -> MipChain {
        let mut levels = vec![image];
        while let Some(last) = levels.last() {
            if last.width <= 1 && last.height <= 1 {
                break;
            }
            let (w, h) = ((last.width / 2).max(1), (last.height / 2).max(1));
            let mut next = RgbaF32Image::from_fn(w, h, |x, y| {
                let mut acc = [0.0f32; 4];
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let sx = (2 * x + dx).min(last.width - 1);
                    let sy = (2 * y + dy).min(last.height - 1);
                    let p = last.get(sx, sy).unwrap_or([0.0; 4]);
                    for c in 0..4 {
                        acc[c] += p[c] * 0.25;
                    }
                }
                acc
            });
            next.store_as(format, srgb);
            levels.push(next);
        }
        MipChain { levels, hazard: Vec::new(), fingerprint: OnceLock::new() }
    }

    pub fn base(&self) -> Option<&RgbaF32Image> {
        self.levels.first()
    }

    /// `(width, height)` of level 0, `(0, 0)` for an empty chain.
    pub fn size(&self) -> (u32, u32) {
        self.base().map_or((0, 0), |b| (b.width, b.height))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk from any guess counts what a binary search counts, for boundaries
    /// moved off the nominal ones by up to a step and for values anywhere.
    #[test]
    fn the_boundary_walk_counts_what_a_binary_search_counts() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut table = [0.0f32; 255];
        for (k, b) in table.iter_mut().enumerate() {
            *b = ((k as f64 + 0.5 + (next() - 0.5) * 0.9) / 255.0) as f32;
        }
        assert!(table.windows(2).all(|w| w[0] < w[1]));
        let mut values: Vec<f32> = (0..4000).map(|_| (next() * 1.2 - 0.1) as f32).collect();
        values.extend(table.iter().copied());
        values.extend([f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1.0, f32::MAX, f32::MIN]);
        for v in values {
            let expected = table.partition_point(|b| *b <= v);
            for guess in [0, 17, 128, 254, 255, 300, unorm8(v) as usize] {
                assert_eq!(boundaries_at_or_below(&table, v, guess), expected, "v = {v}, guess {guess}");
            }
        }
    }

    #[test]
    fn unorm8_rounds_as_the_library_round_does() {
        let library = |v: f32| if v.is_nan() { 0 } else { (v.clamp(0.0, 1.0) * 255.0).round() as u32 };
        // Every value around each half step and each step, a few ulps either side, plus
        // a dense sweep and the specials.
        let mut values = vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, -1.0, 2.0, f32::MIN_POSITIVE];
        for k in 0..=510u32 {
            let centre = k as f32 / 510.0;
            let mut v = centre;
            for _ in 0..8 {
                v = f32::from_bits(v.to_bits().saturating_sub(1));
            }
            for _ in 0..17 {
                values.push(v);
                v = f32::from_bits(v.to_bits() + 1);
            }
        }
        values.extend((0..=1_000_000).map(|i| i as f32 / 1_000_000.0));
        for v in values {
            assert_eq!(unorm8(v), library(v), "{v:e}");
        }
    }

    #[test]
    fn unorm_and_srgb_round_trip() {
        assert_eq!(unorm8(0.5), 128);
        assert_eq!(unorm8(f32::NAN), 0);
        assert_eq!(unorm8(2.0), 255);
        let s = StorageFormat::Srgb8.store([0.5, 0.0, 1.0, 0.5], &DeviceConversions::exact());
        assert!((s[0] - 0.5).abs() < 0.01 && s[1] == 0.0 && s[2] == 1.0);
    }

    #[test]
    fn targets_read_back_through_the_device_tables() {
        let exact = DeviceConversions::exact();
        assert_eq!(exact.max_deviation(), (0.0, 0.0));
        // A device that reads every sRGB byte 0.002 low (0 as 0) and UNORM 255 as 0.999.
        let srgb: [f32; 256] = std::array::from_fn(|k| (exact.srgb8(k as u8) - 0.002).max(0.0));
        let mut unorm: [f32; 256] = std::array::from_fn(|k| k as f32 / 255.0);
        unorm[255] = 0.999;
        let dev = DeviceConversions::measured(unorm, srgb, None, None)
            .unwrap_or_else(|| panic!("monotone tables in [0, 1] are measured tables"));
        let v = 0.5;
        let byte = unorm8(srgb_encode(v)) as u8;
        assert_eq!(dev.store_srgb8(v), exact.srgb8(byte) - 0.002);
        assert_eq!(
            StorageFormat::Srgb8.store([v, v, v, 1.0], &dev),
            [dev.store_srgb8(v); 3].into_iter().chain([0.999]).collect::<Vec<_>>()[..]
        );
        assert_eq!(StorageFormat::Unorm8.store([1.0, 0.5, 0.0, 1.0], &dev), [0.999, 128.0 / 255.0, 0.0, 0.999]);
        let (du, ds) = dev.max_deviation();
        assert!((du - (1.0 - 0.999)).abs() < 1e-6 && (ds - 0.002).abs() < 1e-6, "{du} {ds}");
        // The stored byte is recovered from what either table reads back.
        assert_eq!(dev.srgb_encoded(dev.store_srgb8(v)), f32::from(byte) / 255.0);
        assert_eq!(exact.srgb_encoded(exact.store_srgb8(v)), f32::from(byte) / 255.0);
        assert_eq!(dev.unorm_stored(0.999), 1.0);
        // Input images are sampled through the UNORM table.
        let img = RgbaF32Image::filled(1, 1, [1.0, 0.0, 1.0, 1.0]);
        assert_eq!(dev.sampled_unorm8(&img).pixels[0], [0.999, 0.0, 0.999, 0.999]);
        assert_eq!(exact.sampled_unorm8(&img), img);
        // Tables no device reads back are refused.
        assert!(DeviceConversions::measured(unorm, [f32::NAN; 256], None, None).is_none());
        assert!(
            DeviceConversions::measured(std::array::from_fn(|k| 1.0 - k as f32 / 255.0), srgb, None, None).is_none()
        );
        assert!(DeviceConversions::measured(unorm, srgb, Some([0.5; 255]), None).is_none(), "boundaries must rise");
    }

    #[test]
    fn targets_store_through_the_device_encode_boundaries() {
        let exact = DeviceConversions::exact();
        let (u, s) = exact_tables();
        // A device whose UNORM boundaries sit 0.3 step high (it rounds k + 0.7 up), and
        // whose sRGB boundaries are exact.
        let high: [f32; 255] = std::array::from_fn(|k| (k as f32 + 0.8) / 255.0);
        let srgb_exact: [f32; 255] = std::array::from_fn(|k| srgb_decode((k as f32 + 0.5) / 255.0));
        let dev = DeviceConversions::measured(**u, **s, Some(high), Some(srgb_exact))
            .unwrap_or_else(|| panic!("rising boundaries are measured boundaries"));
        let v = 10.6 / 255.0;
        assert_eq!((exact.unorm8_byte(v), dev.unorm8_byte(v)), (11, 10));
        assert_eq!(dev.unorm8_byte(10.9 / 255.0), 11);
        assert_eq!(dev.store_unorm8(v), 10.0 / 255.0);
        assert_eq!((dev.unorm8_byte(f32::NAN), dev.unorm8_byte(-1.0), dev.unorm8_byte(2.0)), (0, 0, 255));
        // Exact sRGB boundaries store what the transfer function rounds to.
        for v in [0.001f32, 0.02, 0.2, 0.5, 0.9] {
            assert_eq!(dev.srgb8_byte(v), exact.srgb8_byte(v), "{v}");
        }
        let (du, ds) = dev.max_encode_offset();
        assert!((du - 0.3).abs() < 1e-3 && ds < 1e-3, "{du} {ds}");
        assert_eq!(exact.max_encode_offset(), (0.0, 0.0));
    }

    #[test]
    fn mip_chain_box_filters() {
        let img = RgbaF32Image::from_fn(4, 2, |x, _| [x as f32, 0.0, 0.0, 1.0]);
        let chain = MipChain::generate(img, StorageFormat::Float32, &DeviceConversions::exact());
        assert_eq!(chain.levels.len(), 3);
        assert_eq!(chain.levels[1].pixels, vec![[0.5, 0.0, 0.0, 1.0], [2.5, 0.0, 0.0, 1.0]]);
        assert_eq!(chain.levels[2].pixels, vec![[1.5, 0.0, 0.0, 1.0]]);
    }
}
