//! Hazard flags of the Cg library functions ([`crate::reference::hazard`]): after a
//! builtin has computed its result, this step sets the flags of its result cells (and
//! of its `out` arguments): the operands' flags (component by component for
//! component-wise functions, all of them for the others), *approximate* for every
//! function that is not exact, NaN/Inf results, and the decision rules of the step
//! functions (`step`, `floor`, `ceil`, `trunc`, `frac`, `round`, `modf`, `fmod`, GLSL
//! `mod`).
//!
//! Texture lookups, derivatives and `clip` set their own flags (in [`super::texture`]
//! and [`super::builtins`]); this module never changes a value. Never panics.

use crate::reference::hazard::{self, approx_bit, hazard_bit, APPROX, HAZARD};
use crate::reference::machine::{flags_of_every_lane, Bits, Cell, Code, Machine, ALL_LANES, LANES};
use translator::ir::Builtin as B;

/// Functions whose result both sides compute bit for bit from the same operands (the
/// step inside `frac`, `fmod`, `mod` and `modf` is a decision, see [`step_of`]).
pub(crate) fn exact(b: B) -> bool {
    matches!(
        b,
        B::Abs
            | B::Sign
            | B::Min
            | B::Max
            | B::Clamp
            | B::Saturate
            | B::Step
            | B::Floor
            | B::Ceil
            | B::Trunc
            | B::Round
            | B::Frac
            | B::Fmod
            | B::GlslMod
            | B::Modf
            | B::Frexp
            | B::Ldexp
            | B::Isnan
            | B::Isinf
            | B::Isfinite
            | B::FloatToIntBits
            | B::FloatToRawIntBits
            | B::IntBitsToFloat
            | B::FloatBitsToUint
            | B::UintBitsToFloat
            | B::BitCount
            | B::BitfieldExtract
            | B::BitfieldInsert
            | B::BitfieldReverse
            | B::FindLsb
            | B::FindMsb
            | B::Any
            | B::All
            | B::Transpose
            | B::MixSelect
    ) || relational(b)
        || packing(b)
}

/// The packing functions: exact bit moves between whole vectors and one scalar.
fn packing(b: B) -> bool {
    matches!(
        b,
        B::Pack2Half
            | B::Pack2Ushort
            | B::Pack4Byte
            | B::Pack4Ubyte
            | B::Unpack2Half
            | B::Unpack2Ushort
            | B::Unpack4Byte
            | B::Unpack4Ubyte
    )
}

/// Functions whose result component `i` reads only component `i` of each argument.
fn componentwise(b: B) -> bool {
    !packing(b)
        && !matches!(
            b,
            B::Dot
                | B::Cross
                | B::Length
                | B::Distance
                | B::Normalize
                | B::Reflect
                | B::Refract
                | B::Faceforward
                | B::Lit
                | B::MulMatVec
                | B::MulVecMat
                | B::MulMatMat
                | B::OuterProduct
                | B::Transpose
                | B::Determinant
                | B::Inverse
                | B::Any
                | B::All
        )
}

/// The decision a step function takes, on its argument values of one lane.
#[derive(Clone, Copy)]
enum Step {
    None,
    /// Steps at the integers of argument 0.
    Integer,
    /// Steps at the half-integers of argument 0.
    Half,
    /// `step(edge, x)`: `x` against `edge`.
    Edge,
    /// `fmod`/`mod`: steps where `a0 / a1` is an integer.
    Quotient,
    /// A comparison of argument 0 with argument 1 (the GLSL relational functions).
    Compare,
}

/// Functions whose result is an integer or bool decided from their operands: exact,
/// their doubt is the hazard bit.
fn decides(b: B) -> bool {
    matches!(
        b,
        B::Floor
            | B::Ceil
            | B::Trunc
            | B::Round
            | B::Step
            | B::Sign
            | B::Isnan
            | B::Isinf
            | B::Isfinite
            | B::Any
            | B::All
    ) || relational(b)
}

/// GLSL's relational functions (and `not`): exact bool results, decided per component.
fn relational(b: B) -> bool {
    matches!(b, B::Equal | B::NotEqual | B::LessThan | B::LessThanEqual | B::GreaterThan | B::GreaterThanEqual | B::Not)
}

/// Sums of products (and `lerp`): exact on exact operands whose binary32 result equals
/// the exact one (FMA contraction changes nothing then); see [`polynomial_exact`].
fn polynomial(b: B) -> bool {
    matches!(
        b,
        B::Dot
            | B::Cross
            | B::MulMatVec
            | B::MulVecMat
            | B::MulMatMat
            | B::Lerp
            | B::Determinant
            | B::MatrixCompMult
            | B::OuterProduct
    )
}

/// `min`/`max`/`clamp`/`saturate`: the lanes where the result is an exact operand (or
/// bound) chosen clear of the others, so the approximate bits of the others do not
/// carry.
fn chooses(b: B) -> bool {
    matches!(b, B::Min | B::Max | B::Clamp | B::Saturate)
}

fn step_of(b: B) -> Step {
    match b {
        B::Floor | B::Ceil | B::Trunc | B::Frac | B::Modf => Step::Integer,
        B::Round => Step::Half,
        B::Step => Step::Edge,
        B::Fmod | B::GlslMod => Step::Quotient,
        B::Equal | B::NotEqual | B::LessThan | B::LessThanEqual | B::GreaterThan | B::GreaterThanEqual => Step::Compare,
        // The sign is two comparisons with 0 (the absent second argument reads 0).
        B::Sign => Step::Compare,
        _ => Step::None,
    }
}

#[inline(always)]
fn decided(step: Step, v: [f64; 4], ap: [bool; 4]) -> bool {
    match step {
        Step::None => false,
        Step::Integer => hazard::integer_step(v[0], ap[0]),
        Step::Half => hazard::half_step(v[0], ap[0]),
        Step::Edge => hazard::decision(v[1], v[0], ap[1], ap[0]),
        Step::Compare => hazard::decision(v[0], v[1], ap[0], ap[1]),
        Step::Quotient => {
            let approx = ap[0] || ap[1] || !hazard::exact_quotient(v[0], v[1]);
            hazard::integer_step(v[0] / v[1], approx)
        }
    }
}

/// The outcome of a step decision on one lane's arguments `v` with result `r`: the
/// step index, or the result itself for a comparison (see [`hazard::split`]).
fn outcome(step: Step, v: [f64; 4], r: f64) -> f64 {
    match step {
        Step::None => 0.0,
        Step::Integer => hazard::floor(v[0]),
        Step::Half => hazard::floor(v[0] + 0.5),
        Step::Edge | Step::Compare => r,
        Step::Quotient => hazard::floor(v[0] / v[1]),
    }
}

/// One result cell and the argument cells it reads (at most 4 for a step decision).
struct Target {
    dst: usize,
    srcs: Vec<usize>,
    /// `dot`: the two operands' cells, to compute the exact sum of products.
    dot: Option<(Vec<usize>, Vec<usize>)>,
    /// Argument cells of the component, for the step decision.
    args: [usize; 4],
}

/// The flag step of builtin `b` (arguments `locs`, result `dst`, `out` arguments by
/// index); `None` for the functions that flag themselves.
#[versioned::versioned]
pub(crate) fn compile(b: B, locs: &[Vec<usize>], dst: &[usize], outs: &[usize], zero: usize) -> Option<Code> {
    if matches!(b, B::Ddx | B::Ddy | B::Fwidth | B::Clip) || super::texture::is_texture(b) {
        return None;
    }
    let ins: Vec<&Vec<usize>> = locs.iter().enumerate().filter(|(i, _)| !outs.contains(i)).map(|(_, l)| l).collect();
    let all: Vec<usize> = ins.iter().flat_map(|l| l.iter().copied()).collect();
    let cw = componentwise(b);
    let results: Vec<usize> =
        dst.iter().copied().chain(outs.iter().flat_map(|&i| locs.get(i).into_iter().flatten().copied())).collect();
    let width = dst.len().max(1);
    let targets: Vec<Target> = results
        .iter()
        .enumerate()
        .map(|(j, &d)| {
            let i = j % width;
            let pick = |l: &Vec<usize>| l.get(i).or(l.first()).copied().unwrap_or(zero);
            let srcs = if cw { ins.iter().map(|l| pick(l)).collect() } else { all.clone() };
            let mut args = [zero; 4];
            for (k, l) in ins.iter().take(4).enumerate() {
                args[k] = pick(l);
            }
            let dot = (b == B::Dot).then(|| {
                (ins.first().map_or_else(Vec::new, |v| v.to_vec()), ins.get(1).map_or_else(Vec::new, |v| v.to_vec()))
            });
            Target { dst: d, srcs, args, dot }
        })
        .collect();
    let approx = if exact(b) { 0 } else { APPROX };
    let step = step_of(b);
    let decides = decides(b);
    let chooses = chooses(b) && cw;
    let polynomial = polynomial(b);
    Some(Box::new(move |m: &mut Machine| {
        let perturbed = m.perturbed();
        for t in &targets {
            // The result and every argument the same in every lane (outside the
            // precision rule): lane 0's flags are every lane's, so only lane 0 is decided.
            let one_lane = !perturbed
                && m.lane_uniform(t.dst)
                && t.srcs.iter().chain(&t.args).all(|&s| m.lane_uniform(s))
                && t.dot.as_ref().is_none_or(|(a, b)| a.iter().chain(b).all(|&s| m.lane_uniform(s)));
            let decide = if one_lane { 1 } else { ALL_LANES };
            let mut operands: Bits = 0;
            for &s in &t.srcs {
                operands |= m.hz(s);
            }
            let mut h = approx | operands;
            let v = m.cell(t.dst);
            if chooses {
                h = chosen_flags(m, t, v, h, decide);
            }
            if polynomial {
                h = polynomial_exact(m, t, v, h, operands, decide);
            }
            h = hazard::mark_non_finite(v, h);
            if !matches!(step, Step::None) {
                let vals = t.args.map(|a| m.cell(a));
                let flags = t.args.map(|a| m.hz(a));
                // One lane's argument values (never a copy of the cells per lane).
                let args = |l: usize| -> [f64; 4] { std::array::from_fn(|k| vals[k][l]) };
                // Only a lane with an approximate argument can be decided near its
                // step (a quotient's exactness is its own question: every lane).
                let approx_lanes = flags.iter().fold(0, |a, f| a | f >> LANES) & ALL_LANES;
                let candidates = if matches!(step, Step::Quotient) { ALL_LANES } else { approx_lanes };
                for l in lanes(candidates & decide) {
                    let ap = flags.map(|f| f & approx_bit(l) != 0);
                    if decided(step, args(l), ap) {
                        h |= hazard_bit(l);
                    }
                }
                if m.perturbed() {
                    let outcome: Cell = std::array::from_fn(|l| outcome(step, args(l), v[l]));
                    h |= hazard::split(m, &outcome);
                }
            }
            if decides {
                h &= HAZARD;
            }
            if one_lane {
                h = flags_of_every_lane(h & 1 != 0, h & approx_bit(0) != 0);
            }
            m.set_hz(t.dst, h);
        }
    }))
}

/// Clears the approximate bit of a sum of products in the lanes where every operand is
/// exact and the result is exact: all operands integers (below 2^24), or, for `dot`,
/// the binary32 result equal to the sum of products computed exactly. `operands` is
/// the OR of the operands' flags.
#[inline(always)]
fn polynomial_exact(m: &Machine, t: &Target, v: &Cell, h: Bits, operands: Bits, decide: Bits) -> Bits {
    // The lanes whose operands are all exact: only they can be cleared.
    let exact_operands = !(operands >> LANES) & decide;
    if exact_operands == 0 {
        return h;
    }
    // Lane-uniform operands first: one lane decides for every lane, and a constant that
    // is not an integer (the usual weights) ends the test before any cell is scanned.
    let mut integral = exact_operands;
    for &s in t.srcs.iter().filter(|&&s| m.lane_uniform(s)) {
        if integral == 0 {
            break;
        }
        if !small_integer(m.at(s, 0)) {
            integral = 0;
        }
    }
    for &s in t.srcs.iter().filter(|&&s| !m.lane_uniform(s)) {
        if integral == 0 {
            break;
        }
        integral &= small_integer_lanes(m.cell(s));
    }
    let mut out = h;
    let mut rest = exact_operands;
    for l in lanes(integral) {
        if hazard::is_integer(v[l]) {
            out &= !approx_bit(l);
            rest &= !(1 << l);
        }
    }
    if let Some((a, b)) = &t.dot {
        for l in lanes(rest) {
            let sum: f64 = a.iter().zip(b).map(|(&x, &y)| m.at(x, l) * m.at(y, l)).sum();
            if sum == v[l] {
                out &= !approx_bit(l);
            }
        }
    }
    out
}

/// The lanes of `c` holding an integer of magnitude below 2^24 ([`small_integer`]; a
/// test over all lanes at once, where a per-lane conversion would not vectorise).
fn small_integer_lanes(c: &Cell) -> Bits {
    let mut out: Bits = 0;
    for (l, &x) in c.iter().enumerate() {
        out |= Bits::from(small_integer(x)) << l;
    }
    out
}

/// One lane of [`small_integer_lanes`]: `x` is an integer of magnitude below 2^24
/// (branch-free: [`hazard::nearest_integer`] leaves exactly the integers unchanged).
#[inline(always)]
fn small_integer(x: f64) -> bool {
    let a = x.abs();
    a < 16_777_216.0 && hazard::nearest_integer(a) == a
}

/// The lanes set in `b`, lowest first.
fn lanes(mut b: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let l = b.trailing_zeros() as usize;
            b &= b - 1;
            l
        })
    })
}

/// The flags of a `min`/`max`/`clamp`/`saturate` result: per lane, the approximate bit
/// of the operand it equals (the bounds of `saturate` are exact), all operands' when
/// they lie within rounding of the result.
#[inline(always)]
fn chosen_flags(m: &Machine, t: &Target, v: &Cell, h: Bits, decide: Bits) -> Bits {
    // The operands' cells and flags, read once (`min`/`max`/`clamp`/`saturate` have at
    // most three).
    let zero: &Cell = &[0.0; LANES];
    let mut buf: [(&Cell, Bits); 4] = [(zero, 0); 4];
    let n = t.srcs.len();
    if n > buf.len() {
        return chosen_flags_of(m, t, v, h, decide);
    }
    for (b, &s) in buf.iter_mut().zip(&t.srcs) {
        *b = (m.cell(s), m.hz(s));
    }
    let srcs = &buf[..n];
    let mut out = h & HAZARD;
    let zero_one = n == 1;
    // A lane whose operands are all exact takes no approximate bit: `h`'s approximate
    // bits are the operands' (these functions are exact), so neither `from` nor `close
    // && h & bit` can hold there.
    let approx_lanes = srcs.iter().fold(0, |a, (_, hz)| a | hz) >> LANES;
    for l in lanes(decide & approx_lanes & ALL_LANES) {
        let r = v[l];
        let bit = approx_bit(l);
        let mut close = false;
        let mut from = false;
        for (cell, hz) in srcs {
            let x = cell[l];
            if x == r {
                from |= hz & bit != 0;
            } else if hazard::near(x, r) {
                close = true;
            }
        }
        if zero_one {
            // saturate: the input, or a bound it lies clear of.
            let x = srcs[0].0[l];
            let ap = srcs[0].1 & bit != 0;
            from = ap && (x == r || hazard::near(x, r));
            close = false;
        }
        if from || (close && h & bit != 0) {
            out |= bit;
        }
    }
    out
}

/// [`chosen_flags`] for any number of operands, reading them lane by lane.
fn chosen_flags_of(m: &Machine, t: &Target, v: &Cell, h: Bits, decide: Bits) -> Bits {
    let mut out = h & HAZARD;
    let zero_one = t.srcs.len() == 1;
    for l in lanes(decide) {
        let r = v[l];
        let bit = approx_bit(l);
        let mut close = false;
        let mut from = false;
        for &s in &t.srcs {
            let x = m.at(s, l);
            if x == r {
                from |= m.hz(s) & bit != 0;
            } else if hazard::near(x, r) {
                close = true;
            }
        }
        if zero_one {
            // saturate: the input, or a bound it lies clear of.
            let x = m.at(t.srcs[0], l);
            let ap = m.hz(t.srcs[0]) & bit != 0;
            from = ap && (x == r || hazard::near(x, r));
            close = false;
        }
        if from || (close && h & bit != 0) {
            out |= bit;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::machine::lane_uniform_flags;

    #[test]
    fn small_integer_lanes_agree_with_the_scalar_test() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -3.0,
            0.5,
            -2.5,
            16_777_215.0,
            16_777_216.0,
            -16_777_215.0,
            1e-300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            4_503_599_627_370_497.0,
            0.999_999_999_999_999_9,
            8_388_607.5,
        ];
        let cell: Cell = std::array::from_fn(|l| values[l % values.len()] * if l >= 16 { -1.0 } else { 1.0 });
        let want = (0..LANES)
            .filter(|&l| hazard::is_integer(cell[l]) && cell[l].abs() < 16_777_216.0)
            .fold(0, |b, l| b | 1 << l);
        assert_eq!(small_integer_lanes(&cell), want);
        assert_eq!(want.count_ones(), 12, "the sample has integers and non-integers on both sides");
    }

    /// A builtin, its arguments (value, flags) and its result.
    type Case = (B, Vec<(f64, Bits)>, f64);

    /// The flags builtin `b`'s flag step gives result `r` of arguments `args` (one
    /// component each), with the cells written lane by lane or as lane-uniform splats.
    fn flags_of(b: B, args: &[(f64, Bits)], r: f64, uniform: bool) -> Bits {
        let n = args.len();
        let (dst, zero) = (n, n + 1);
        let mut m = Machine::new(n + 2);
        let write = |m: &mut Machine, cell: usize, v: f64, h: Bits| {
            if uniform {
                m.put_splat(cell, v, h);
            } else {
                m.put(cell, [v; LANES], h);
            }
        };
        for (i, &(v, h)) in args.iter().enumerate() {
            write(&mut m, i, v, h);
        }
        write(&mut m, dst, r, 0);
        write(&mut m, zero, 0.0, 0);
        let locs: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        let code = compile(b, &locs, &[dst], &[], zero).expect("a builtin with a flag step");
        code(&mut m);
        assert_eq!(m.lane_uniform(dst), uniform && lane_uniform_flags(m.hz(dst)));
        m.hz(dst)
    }

    #[test]
    fn lane_zero_decides_for_lane_uniform_arguments_as_every_lane_would() {
        let approx = ALL_LANES << LANES;
        let a = |v: f64| (v, approx);
        let e = |v: f64| (v, 0);
        let cases: Vec<Case> = vec![
            (B::Floor, vec![a(2.0000001)], 2.0),
            (B::Floor, vec![e(2.5)], 2.0),
            (B::Frac, vec![a(0.9999999)], 0.9999999),
            (B::Round, vec![a(1.5)], 2.0),
            (B::Step, vec![a(0.5), a(0.50000006)], 1.0),
            (B::Step, vec![e(0.5), e(0.25)], 0.0),
            (B::Min, vec![a(0.3), e(0.30000001)], 0.3),
            (B::Max, vec![e(1.0), a(2.0)], 2.0),
            (B::Saturate, vec![a(1.0000001)], 1.0),
            (B::Clamp, vec![a(0.5), e(0.0), e(0.5)], 0.5),
            (B::Dot, vec![e(3.0), e(2.0)], 6.0),
            (B::Dot, vec![a(0.1), e(3.0)], 0.3),
            (B::Lerp, vec![e(1.0), e(3.0), e(0.5)], 2.0),
            (B::Fmod, vec![e(6.0), a(3.0)], 0.0),
            (B::Fmod, vec![e(7.0), e(2.0)], 1.0),
            (B::Pow, vec![e(2.0), e(0.5)], std::f64::consts::SQRT_2 as f32 as f64),
            (B::Sqrt, vec![e(f64::INFINITY)], f64::INFINITY),
            (B::LessThan, vec![a(0.1), a(0.1)], 0.0),
            (B::Sign, vec![a(-0.0)], 0.0),
        ];
        for (b, args, r) in &cases {
            let every = flags_of(*b, args, *r, false);
            let one = flags_of(*b, args, *r, true);
            assert_eq!(one, every, "{b:?} {args:?} -> {r}");
        }
        // The cases decide something: some lanes end hazardous or exact.
        let all = |want: Bits| cases.iter().any(|(b, args, r)| flags_of(*b, args, *r, false) & want == want);
        assert!(all(ALL_LANES) && cases.iter().any(|(b, args, r)| flags_of(*b, args, *r, false) & approx == 0));
    }

    #[test]
    fn lanes_lists_the_set_bits_in_order() {
        assert_eq!(lanes(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(lanes(1 << 31).collect::<Vec<_>>(), vec![31]);
        assert_eq!(lanes(0).count(), 0);
    }
}
