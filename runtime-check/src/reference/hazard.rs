//! Hazard rules of the reference renderer: when a value the CPU computed depends on
//! something a GPU is free to do differently, so that a difference there proves nothing
//! about the translation. The rules run alongside the values (one flag word per cell
//! in [`super::machine::Machine::hz`]) and end as one hazard bit per output pixel and
//! pass ([`super::pass::Rendered::hazard`]).
//!
//! **Flags.** Per lane a value may be *hazardous* (low half of the word) and/or
//! *approximate* (high half). Every operation ORs its operands' flags into its result (data
//! dependence), and a write under control flow that depends on a hazard marks the
//! written cells for those lanes, written or not ([`Machine::ctl`]); a lane that leaves a
//! function, loop or the invocation (`return`, `break`, `continue`, `discard`, `clip`)
//! on such a decision, or iterates a loop on a hazardous condition, is hazardous as a
//! whole ([`Machine::sticky`]).
//!
//! **Approximate** values: fragment varyings (interpolated by the rasteriser), bilinear
//! and mipmapped samples (GPUs quantise filter weights), quotients other than by a
//! power of two or of integers into an integer (GPUs divide through a reciprocal,
//! [`exact_quotient`]), `+ - *` results that binary32 had to round (FMA contraction
//! rounds them differently), and every library function that is not exact
//! (transcendentals, `lerp`, `dot`, `mul`, `smoothstep`, ...). Literals, uniforms,
//! nearest samples, integers and the exact functions (`abs`, `floor`, ...) are exact:
//! both sides compute them bit for bit. The result of a decision (a comparison, a step
//! function, a conversion to int or bool) is exact: its doubt is its hazard bit. `min`,
//! `max`, `clamp` and `saturate` are as approximate as the operand they return, unless
//! the operands lie within rounding of each other.
//!
//! **Hazards** (the rules, each with known-answer tests in `tests/hazards.rs`):
//! - *NaN/Inf*: a float result that is NaN or infinite ([`non_finite`]).
//! - *Texel boundary*: a nearest sample whose texel coordinate `u * size` lies within
//!   [`SUBTEXEL`] of an integer (GPUs convert coordinates with 8 sub-texel bits); an
//!   exactly integral coordinate counts only when approximate ([`texel_boundary`]).
//!   A sample also inherits the hazard of every texel it reads with a non-zero weight
//!   (pass outputs, history and feedback carry hazard maps, see [`super::image`]).
//! - *Derivatives*: `ddx`/`ddy`/`fwidth` where the coarse and fine derivative across
//!   the 2x2 quad differ beyond rounding ([`near`]), and an implicit or biased level of
//!   detail whose sample differs between coarse and fine derivatives, or whose level lies
//!   within rounding of a level boundary (`NEAREST_MIPMAP_NEAREST`: `k + 0.5`).
//! - *Decisions*: a comparison, `step`, `floor`/`ceil`/`trunc`/`frac`/`round`/`fmod`/`%`/
//!   `modf`, or a float-to-int/bool conversion whose operand is approximate and lies
//!   within rounding of its threshold ([`decision`], [`integer_step`], [`half_step`]).
//!
//! - *Precision*: a pixel whose stored value moves by more than [`PRECISION_STEPS`]
//!   8-bit steps when every transcendental result (`sin`, `cos`, `tan`, the inverse
//!   trigonometric and hyperbolic functions, `exp`, `exp2`, `log`, `log2`, `log10`,
//!   `pow`, `sqrt`, `rsqrt`) is moved by its device error bound
//!   ([`super::machine::Machine::perturbation`]). GPUs
//!   compute these functions with a few ulps of error, and range-reduce `sin`/`cos` in
//!   binary32, so a value they feed through a large gain (`frac(sin(x) * 43758.5453)`
//!   hashes, the `sign` of a sine at its zeros) is not determined by the program. The
//!   bounds ([`error_sin_cos`] and its siblings) are what current GPUs achieve (NVIDIA's
//!   and LLVM's binary32 functions), well inside what Vulkan allows. Every other
//!   approximate binary32 result (a rounded `+ - * /`, a library function that is not
//!   exact, an interpolated varying) moves by one ulp ([`nudge`]): GPUs contract to
//!   FMA, reassociate, divide through a reciprocal and interpolate in their own way.
//!   The rule renders one pixel per group of four lanes, under the perturbations of
//!   [`super::machine::PERTURBATIONS`] (lane 0 exact); a decision whose outcome
//!   differs between the lanes of a group is a hazard ([`split`]), and so is a pixel a perturbed
//!   lane moves by more than [`PRECISION_STEPS`] steps as stored
//!   ([`precision_sensitive`]). Not modelled: the GPU's quantised filter weights and
//!   derivatives (0 under the rule). The comparison applies the rule only to a preset
//!   the other rules leave failing, since it costs another, slower render
//!   ([`crate::compare`]).
//!
//! **Within rounding** ([`near`]): `|a - b| <= REL_EPS * max(|a|, |b|)` with
//! [`REL_EPS`] = 2^-14 (about 128 binary32 ulps): wide enough for a GPU's
//! reassociation, FMA contraction and approximate transcendentals over a typical chain
//! of operations, narrow enough to leave real decisions alone. Two approximate operands
//! that are exactly equal are taken to come from the same computation (which a GPU
//! repeats identically) and are no hazard; an approximate value exactly on a constant
//! threshold is one. Known limits: no error bound is tracked, so a threshold crossed
//! after catastrophic cancellation (a tiny difference of large values) is not seen;
//! 8-bit output quantisation near `k + 0.5` is left to the 2/255 tolerance.
//!
//! Pure functions and constants; never panics; knows nothing of Cg or presets.

use super::machine::{groups_of, Bits, Cell, Machine, ALL_LANES, LANES};

/// Relative width of "within rounding" (see the module documentation).
pub const REL_EPS: f64 = 1.0 / 16384.0;

/// How close to a texel boundary a nearest sample is a hazard, in texels.
pub const SUBTEXEL: f64 = 1.0 / 256.0;

/// How many 8-bit steps a pixel may move under the precision rule's perturbation and
/// still count as determined (one step: a value near `k + 0.5` may always round either
/// way).
pub const PRECISION_STEPS: f64 = 1.0;

/// One binary32 ulp relative to the value (2^-23).
const ULP: f64 = 1.0 / 8_388_608.0;

/// The absolute error floor of the GPU transcendentals near zero (2^-21).
const ABS_FLOOR: f64 = 1.0 / 2_097_152.0;

/// Device error bound of `sin(x)` and `cos(x)`: 2^-21 absolute, plus the binary32
/// range reduction's loss, which grows with `|x|` (two ulps of `x`).
#[inline]
pub fn error_sin_cos(x: f64) -> f64 {
    ABS_FLOOR + 2.0 * ULP * x.abs()
}

/// Device error bound of `tan(x) = y`: the sine's and cosine's, through the slope
/// `1 + y^2`.
#[inline]
pub fn error_tan(x: f64, y: f64) -> f64 {
    (1.0 + y * y) * error_sin_cos(x)
}

/// Device error bound of `exp2(e) = y` (and of `exp`, `sinh`, `cosh`, `tanh` with `e`
/// their base-2 exponent): Vulkan's `3 + 2|e|` ulps.
#[inline]
pub fn error_exp2(e: f64, y: f64) -> f64 {
    y.abs() * (3.0 + 2.0 * e.abs()) * ULP
}

/// Device error bound of `log(x) = y` in any base: 2^-21 absolute plus 3 ulps.
#[inline]
pub fn error_log(y: f64) -> f64 {
    ABS_FLOOR + 3.0 * ULP * y.abs()
}

/// Device error bound of `pow(x, e) = y`, computed as `exp2(e * log2(x))`: the
/// logarithm's absolute error scaled by `e`, then the exponential's.
#[inline]
pub fn error_pow(x: f64, e: f64, y: f64) -> f64 {
    let l = e * x.abs().log2();
    let l = if l.is_finite() { l } else { 0.0 };
    y.abs() * ((3.0 + 2.0 * l.abs()) * ULP + e.abs() * ABS_FLOOR)
}

/// Device error bound of `sqrt` and `rsqrt` (`= y`): 3 ulps.
#[inline]
pub fn error_root(y: f64) -> f64 {
    3.0 * ULP * y.abs()
}

/// Device error bound of `asin`, `acos`, `atan` and `atan2` (`= y`): 2^-21 absolute
/// plus 2 ulps.
#[inline]
pub fn error_inverse_trig(y: f64) -> f64 {
    ABS_FLOOR + 2.0 * ULP * y.abs()
}

/// Under the precision rule, an approximate binary32 result as a GPU may round it: one
/// ulp up for a positive lane perturbation `p`, one down for a negative one, itself
/// for 0 (and for values that are not finite).
#[inline]
pub fn nudge(x: f64, p: f64) -> f64 {
    if p == 0.0 || !x.is_finite() {
        return x;
    }
    let f = x as f32;
    f64::from(if p > 0.0 { f.next_up() } else { f.next_down() })
}

/// Under the precision rule, an interpolated varying as a GPU may compute it: moved by
/// `p` binary32 ulps of `scale`, the largest magnitude among the vertex values that
/// feed it (at least by [`nudge`]'s one ulp of the value itself). A rasteriser
/// evaluates a plane equation or a barycentric sum whose terms are as large as the
/// vertex values, so its rounding is relative to those, not to the result: near the
/// zero of a texture coordinate that runs from 0 to 1, the error is an ulp of 1, many
/// ulps of the value (which triangle of the quad covers the pixel decides which).
#[inline]
pub fn nudge_interpolated(x: f64, p: f64, scale: f64) -> f64 {
    if p == 0.0 || !x.is_finite() || !scale.is_finite() {
        return nudge(x, p);
    }
    let moved = (x + p * ulp32(scale.abs().max(x.abs()))) as f32;
    if moved == x as f32 {
        nudge(x, p)
    } else {
        f64::from(moved)
    }
}

/// The spacing of binary32 values at `x` (its ulp; the smallest normal's below it).
fn ulp32(x: f64) -> f64 {
    let f = (x.abs() as f32).max(f32::MIN_POSITIVE);
    f64::from(f.next_up()) - f64::from(f)
}

/// Pixels that the precision rule marks: `perturbed` stored values more than
/// [`PRECISION_STEPS`] 8-bit steps from `exact`'s in some RGB channel. Images of
/// different sizes mark nothing.
pub fn precision_sensitive(exact: &[[f32; 4]], perturbed: &[[f32; 4]]) -> Vec<bool> {
    if exact.len() != perturbed.len() {
        return vec![false; exact.len()];
    }
    let limit = (PRECISION_STEPS + 0.5) / 255.0;
    exact
        .iter()
        .zip(perturbed)
        .map(|(a, b)| (0..3).any(|c| f64::from((a[c] - b[c]).abs()) > limit || (a[c].is_nan() != b[c].is_nan())))
        .collect()
}

/// The hazard bits (one per lane).
pub const HAZARD: Bits = ALL_LANES;

/// The approximate bits (one per lane).
pub const APPROX: Bits = ALL_LANES << LANES;

/// The hazard bit of lane `l`.
#[inline]
pub fn hazard_bit(l: usize) -> Bits {
    1 << l
}

/// The approximate bit of lane `l`.
#[inline]
pub fn approx_bit(l: usize) -> Bits {
    1 << (LANES + l)
}

/// `a` and `b` lie within rounding of each other.
#[inline]
pub fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= REL_EPS * a.abs().max(b.abs())
}

/// A decision between `a` and `b` (a comparison, or a value against its threshold) is a
/// hazard: some operand is approximate and they lie within rounding, except two exactly
/// equal approximate operands (one computation) and an exact zero.
#[inline]
pub fn decision(a: f64, b: f64, approx_a: bool, approx_b: bool) -> bool {
    if !(approx_a || approx_b) || a.is_nan() || b.is_nan() {
        return false;
    }
    if a == b {
        approx_a != approx_b && a != 0.0
    } else {
        near(a, b)
    }
}

/// A step function of `x` with steps at the integers (`floor`, `ceil`, `trunc`, `frac`,
/// float-to-int) is decided within rounding of a step (an approximate 0 included: a
/// GPU's `-1e-8` floors to -1).
#[inline]
pub fn integer_step(x: f64, approx: bool) -> bool {
    approx && x.is_finite() && near(x, round(x))
}

/// `round`: steps at the half-integers.
#[inline]
pub fn half_step(x: f64, approx: bool) -> bool {
    approx && x.is_finite() && near(x, floor(x) + 0.5)
}

/// A float result that is NaN or infinite.
#[inline]
pub fn non_finite(x: f64) -> bool {
    !x.is_finite()
}

/// Whether `|d|` is a power of two (a quotient by it is exact on any GPU).
///
/// Decided by `log2(|d|)` being integral. A binary32 value (what every `float` cell
/// holds) is a power of two exactly when its binary64 mantissa bits are all zero, and
/// then its `log2` is that integer; a binary32 value that is not one has a `log2` at
/// least `2^-24 / ln 2` away from every integer, so the bits decide for it without the
/// logarithm. Only other values (binary64 cells) take the logarithm.
#[inline]
pub fn power_of_two(d: f64) -> bool {
    let a = d.abs();
    if !(a.is_finite() && a != 0.0) {
        return false;
    }
    if f64::from(a as f32) == a && a >= f64::from(f32::MIN_POSITIVE) {
        return a.to_bits() & ((1u64 << 52) - 1) == 0;
    }
    is_integer(a.log2())
}

/// `x.fract() == 0.0` (a finite integral value), without the library call `fract`
/// makes on targets without a rounding instruction: below 2^51 in magnitude rounding to
/// the nearest integer ([`nearest_integer`]) leaves exactly the integers unchanged,
/// below 2^52 the conversion to `i64` and back does, and above it every finite
/// binary64 value is an integer.
#[inline]
pub fn is_integer(x: f64) -> bool {
    let a = x.abs();
    if a < TWO_51 {
        nearest_integer(x) == x
    } else if a < 4_503_599_627_370_496.0 {
        (x as i64) as f64 == x
    } else {
        x.is_finite()
    }
}

/// 1.5 * 2^52: a binary64 value of magnitude below 2^51 plus this lies in [2^52, 2^53),
/// where consecutive values are 1 apart, so the sum is the value rounded to the nearest
/// integer (ties to even), and subtracting it again is exact. Two additions, where a
/// conversion to `i64` and back costs two conversions and Rust's saturation checks.
pub const ROUNDING_MAGIC: f64 = 6_755_399_441_055_744.0;

/// 2^51: below it in magnitude [`nearest_integer`] is exact.
pub const TWO_51: f64 = 2_251_799_813_685_248.0;

/// `x` rounded to the nearest integer, ties to even (the sign of a zero result is
/// `+`); only for `|x| < 2^51`.
#[inline(always)]
pub fn nearest_integer(x: f64) -> f64 {
    (x + ROUNDING_MAGIC) - ROUNDING_MAGIC
}

/// An integral `f` of magnitude at most 2^50 as an `i64`: the low bits of
/// `f + ROUNDING_MAGIC` hold it (in two's complement relative to the constant).
#[inline(always)]
pub fn small_integer_to_i64(f: f64) -> i64 {
    (f + ROUNDING_MAGIC).to_bits() as i64 - ROUNDING_MAGIC.to_bits() as i64
}

/// `x.round()` (half away from zero), bit for bit (the sign of a zero included),
/// without the library call on targets without a rounding instruction.
#[inline]
pub fn round(x: f64) -> f64 {
    let a = x.abs();
    if a < TWO_51 {
        let t = nearest_integer(x);
        // Exact: `x` lies within a half of `t`; a tie goes away from zero, where `x +-
        // 0.5` is exact.
        let r = if (x - t).abs() == 0.5 { x + 0.5f64.copysign(x) } else { t };
        if r == 0.0 {
            0.0f64.copysign(x)
        } else {
            r
        }
    } else if a < 4_503_599_627_370_496.0 {
        let t = (x as i64) as f64;
        // Exact: `t` is `x` with its fraction bits cleared.
        let d = x - t;
        let r = if d >= 0.5 {
            t + 1.0
        } else if d <= -0.5 {
            t - 1.0
        } else {
            t
        };
        if r == 0.0 {
            0.0f64.copysign(x)
        } else {
            r
        }
    } else {
        x.round()
    }
}

/// `x.floor()`, bit for bit (the sign of a zero included), without the library call
/// on targets without a rounding instruction.
#[inline]
pub fn floor(x: f64) -> f64 {
    let a = x.abs();
    if a < TWO_51 {
        let t = nearest_integer(x);
        let f = if t > x { t - 1.0 } else { t };
        if f == 0.0 {
            0.0f64.copysign(x)
        } else {
            f
        }
    } else if a < 4_503_599_627_370_496.0 {
        let t = (x as i64) as f64;
        let f = if t > x { t - 1.0 } else { t };
        if f == 0.0 {
            0.0f64.copysign(x)
        } else {
            f
        }
    } else {
        x.floor()
    }
}

/// A quotient `a / b` of exact operands that every GPU computes exactly: `b` a power of
/// two, or integral operands with an integral quotient (a GPU's `a * rcp(b)` lies within
/// an ulp of the integer and rounds to it).
#[inline]
pub fn exact_quotient(a: f64, b: f64) -> bool {
    if power_of_two(b) {
        return true;
    }
    let q = a / b;
    is_integer(a) && is_integer(b) && is_integer(q) && q.abs() < 16_777_216.0
}

/// A nearest sample at texel coordinate `t` (`u * size`): within [`SUBTEXEL`] of a texel
/// boundary; exactly on one only when `t` is approximate.
#[inline]
pub fn texel_boundary(t: f64, approx: bool) -> bool {
    if !t.is_finite() {
        return false;
    }
    let d = (t - round(t)).abs();
    d < SUBTEXEL && (d > 0.0 || approx)
}

/// Under the precision rule's render ([`super::machine::LaneShape::Perturbed`]: the lanes of a group
/// are one pixel under different transcendental perturbations), the hazard bits of the
/// groups where a decision's `outcome` (a step index, a bool, which operand a `min`
/// chose) differs between the active lanes of the group: the decision then depends on
/// the device's precision. Always 0 under the other shapes.
#[inline]
pub fn split(m: &Machine, outcome: &Cell) -> Bits {
    if !m.perturbed() {
        return 0;
    }
    let mut out = 0;
    for (g, lanes) in outcome.chunks_exact(4).enumerate() {
        let active = (m.active >> (4 * g)) & 0xF;
        let mut first: Option<f64> = None;
        for (l, &o) in lanes.iter().enumerate() {
            if active & (1 << l) == 0 {
                continue;
            }
            match first {
                None => first = Some(o),
                Some(f) if f != o && !(f.is_nan() && o.is_nan()) => {
                    out |= 0xF << (4 * g);
                    break;
                }
                Some(_) => {}
            }
        }
    }
    out
}

/// The flags of lane `l` of cell `a`: (hazard, approximate).
#[inline]
pub fn lane(m: &Machine, a: usize, l: usize) -> (bool, bool) {
    let h = m.hz(a);
    (h & hazard_bit(l) != 0, h & approx_bit(l) != 0)
}

/// Sets the hazard bit of every lane whose value in `v` is NaN or infinite.
#[inline(always)]
pub fn mark_non_finite(v: &Cell, h: Bits) -> Bits {
    // A branch-free test of the whole cell first: almost every value is finite. `|x| <=
    // MAX` is false exactly for NaN and the infinities, and an AND over the lanes (not
    // `&&`, which stops early) vectorises into independent compares, no serial chain.
    let finite = v.iter().fold(true, |all, x| all & (x.abs() <= f64::MAX));
    if finite {
        return h;
    }
    let mut h = h;
    for (l, x) in v.iter().enumerate() {
        h |= Bits::from(non_finite(*x)) << l;
    }
    h
}

/// Spreads the hazard bits and the approximate bits of flags to all four lanes of
/// their group (a derivative mixes the lanes of a quad, never of two quads).
#[inline]
pub fn across_lanes(h: Bits) -> Bits {
    groups_of(h & HAZARD) | (groups_of((h & APPROX) >> LANES) << LANES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_lanes_are_marked_wherever_they_are() {
        let mut v: Cell = std::array::from_fn(|l| l as f64 * 1e300 - 3e301);
        assert_eq!(mark_non_finite(&v, 0b10), 0b10, "every lane finite, huge values included");
        v[5] = f64::NAN;
        v[31] = f64::NEG_INFINITY;
        v[30] = f64::INFINITY;
        let want = (1 << 5) | (1 << 30) | (1 << 31) | 0b10;
        assert_eq!(mark_non_finite(&v, 0b10), want);
    }

    #[test]
    fn within_rounding() {
        assert!(near(1.0, 1.0 + 1e-6));
        assert!(!near(1.0, 1.001));
        assert!(near(1000.0, 1000.01));
        assert!(!near(1e-7, 0.0));
    }

    #[test]
    fn decisions() {
        // Exact operands decide the same on every GPU.
        assert!(!decision(0.5, 0.5, false, false));
        // An approximate value exactly on a constant threshold.
        assert!(decision(0.5, 0.5, true, false));
        // One computation on both sides.
        assert!(!decision(0.5, 0.5, true, true));
        assert!(decision(0.5, 0.500001, true, true));
        assert!(!decision(0.5, 0.6, true, false));
        assert!(!decision(0.0, 0.0, true, false));
        assert!(integer_step(3.0, true) && !integer_step(3.0, false) && !integer_step(3.5, true));
        assert!(integer_step(2.99999, true));
        assert!(half_step(2.5, true) && !half_step(2.0, true));
    }

    #[test]
    fn fast_rounding_matches_the_library_bit_for_bit() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            2_251_799_813_685_247.5,
            -2_251_799_813_685_247.5,
            2_251_799_813_685_248.0,
            2_251_799_813_685_248.5,
            -2_251_799_813_685_248.5,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            -4_503_599_627_370_497.0,
            1e300,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from(f32::MAX),
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::from_bits(1)),
        ];
        // A deterministic spread of magnitudes and fractions.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let x = f64::from_bits(seed);
            if x.is_finite() {
                xs.push(x);
            }
            let scale = 2f64.powi((seed >> 58) as i32 - 8);
            xs.push(((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * scale);
            xs.push(f64::from((seed >> 40) as u32 as f32 / 1024.0) - 8000.0);
        }
        for &x in &xs {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "floor {x:e}");
            assert_eq!(round(x).to_bits(), x.round().to_bits(), "round {x:e}");
            assert_eq!(is_integer(x), x.fract() == 0.0, "is_integer {x:e}");
            let f = x.floor();
            if f.abs() <= 1e15 {
                assert_eq!(small_integer_to_i64(f), f as i64, "small_integer_to_i64 {f:e}");
            }
            let a = x.abs();
            let by_log = a.is_finite() && a != 0.0 && a.log2().fract() == 0.0;
            if f64::from(x as f32) == x {
                assert_eq!(power_of_two(x), by_log, "power_of_two {x:e}");
            }
        }
        for k in -149..128 {
            let p = 2f64.powi(k);
            assert!(power_of_two(p) && power_of_two(-p), "2^{k}");
            assert!(!power_of_two(f64::from(p as f32) * (1.0 + f64::from(f32::EPSILON))) || k >= 127);
        }
    }

    #[test]
    fn texels_and_powers() {
        assert!(texel_boundary(100.001, false));
        assert!(!texel_boundary(100.0, false));
        assert!(texel_boundary(100.0, true));
        assert!(!texel_boundary(100.5, true));
        assert!(power_of_two(0.25) && power_of_two(-8.0) && !power_of_two(3.0) && !power_of_two(0.0));
        let mut v = [0.0; LANES];
        v[1] = f64::NAN;
        v[2] = f64::INFINITY;
        v[LANES - 1] = f64::NEG_INFINITY;
        assert_eq!(mark_non_finite(&v, 0), 0b0110 | 1 << (LANES - 1));
        // Lane 2 hazardous, lane 4's approximate: each spreads within its own quad only.
        assert_eq!(across_lanes(hazard_bit(2) | approx_bit(4)), 0xF | (0xF0 << LANES));
    }
}
