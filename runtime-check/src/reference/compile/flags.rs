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

use crate::reference::hazard::{self, approx_bit, hazard_bit, APPROX};
use crate::reference::machine::{Code, Machine};
use translator::ir::Builtin as B;

/// Functions whose result both sides compute bit for bit from the same operands.
fn exact(b: B) -> bool {
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
            | B::Modf
            | B::Frexp
            | B::Ldexp
            | B::Isnan
            | B::Isinf
            | B::Isfinite
            | B::FloatToIntBits
            | B::FloatToRawIntBits
            | B::IntBitsToFloat
            | B::BitCount
            | B::BitfieldExtract
            | B::BitfieldInsert
            | B::BitfieldReverse
            | B::FindLsb
            | B::FindMsb
            | B::Pack2Half
            | B::Pack2Ushort
            | B::Pack4Byte
            | B::Pack4Ubyte
            | B::Unpack2Half
            | B::Unpack2Ushort
            | B::Unpack4Byte
            | B::Unpack4Ubyte
            | B::Any
            | B::All
            | B::Transpose
    )
}

/// Functions whose result component `i` reads only component `i` of each argument.
fn componentwise(b: B) -> bool {
    !matches!(
        b,
        B::Pack2Half
            | B::Pack2Ushort
            | B::Pack4Byte
            | B::Pack4Ubyte
            | B::Unpack2Half
            | B::Unpack2Ushort
            | B::Unpack4Byte
            | B::Unpack4Ubyte
            | B::Dot
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
}

fn step_of(b: B) -> Step {
    match b {
        B::Floor | B::Ceil | B::Trunc | B::Frac | B::Modf => Step::Integer,
        B::Round => Step::Half,
        B::Step => Step::Edge,
        B::Fmod | B::GlslMod => Step::Quotient,
        _ => Step::None,
    }
}

fn decided(step: Step, v: [f64; 4], ap: [bool; 4]) -> bool {
    match step {
        Step::None => false,
        Step::Integer => hazard::integer_step(v[0], ap[0]),
        Step::Half => hazard::half_step(v[0], ap[0]),
        Step::Edge => hazard::decision(v[1], v[0], ap[1], ap[0]),
        Step::Quotient => {
            let approx = ap[0] || ap[1] || !hazard::power_of_two(v[1]);
            hazard::integer_step(v[0] / v[1], approx)
        }
    }
}

/// One result cell and the argument cells it reads (at most 4 for a step decision).
struct Target {
    dst: usize,
    srcs: Vec<usize>,
    /// Argument cells of the component, for the step decision.
    args: [usize; 4],
}

/// The flag step of builtin `b` (arguments `locs`, result `dst`, `out` arguments by
/// index); `None` for the functions that flag themselves.
pub(crate) fn compile(b: B, locs: &[Vec<usize>], dst: &[usize], outs: &[usize], zero: usize) -> Option<Code> {
    if matches!(b, B::Ddx | B::Ddy | B::Fwidth | B::Clip) || super::texture::is_texture(b) {
        return None;
    }
    let ins: Vec<&Vec<usize>> = locs.iter().enumerate().filter(|(i, _)| !outs.contains(i)).map(|(_, l)| l).collect();
    let all: Vec<usize> = ins.iter().flat_map(|l| l.iter().copied()).collect();
    let cw = componentwise(b);
    let results: Vec<usize> = dst.iter().copied().chain(outs.iter().flat_map(|&i| locs.get(i).into_iter().flatten().copied())).collect();
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
            Target { dst: d, srcs, args }
        })
        .collect();
    let approx = if exact(b) { 0 } else { APPROX };
    let step = step_of(b);
    Some(Box::new(move |m: &mut Machine| {
        for t in &targets {
            let mut h = approx;
            for &s in &t.srcs {
                h |= m.hz(s);
            }
            let v = m.get(t.dst);
            h = hazard::mark_non_finite(&v, h);
            if !matches!(step, Step::None) {
                let vals = t.args.map(|a| m.get(a));
                let flags = t.args.map(|a| m.hz(a));
                for l in 0..4 {
                    let ap = flags.map(|f| f & approx_bit(l) != 0);
                    if decided(step, vals.map(|c| c[l]), ap) {
                        h |= hazard_bit(l);
                    }
                }
            }
            m.set_hz(t.dst, h);
        }
    }))
}
