//! The Cg standard library, one closure per [`Builtin`], computing exactly what
//! `translator::ir::builtin` documents for each variant (reference implementations of
//! the Cg pages, left-to-right evaluation, every `+ - * /` rounded to the argument's
//! precision). Texture lookups are in [`super::texture`].
//!
//! Arguments arrive with the overload's parameter types; a scalar argument where the
//! result has several components (the scalar-bound `clamp`, scalar-weight `lerp`)
//! applies to every component. Never panics; variants it cannot run give `E0802`.

use super::expr::{place, value, write_code, Place};
use super::{chain, texture, Compiler, Frame};
use crate::reference::hazard::{self, across_lanes, approx_bit, hazard_bit, HAZARD};
use crate::reference::machine::{Bits, Cell, Code, LaneShape, Machine, LANES};
use crate::reference::ops::{self, as_i32, as_u32, kind, Kind};
use crate::reference::recall::Site;
use grammar::Span;
use translator::ir::{Builtin as B, Expr, Handle, Type};

/// The cells of each component of the result and of its up to four arguments (a
/// one-component argument is broadcast).
fn component_cells(args: &[Vec<usize>], dst: &[usize], zero: usize) -> Vec<(usize, [usize; 4])> {
    (0..dst.len())
        .map(|i| {
            let mut a = [zero; 4];
            for (k, arg) in args.iter().take(4).enumerate() {
                a[k] = arg.get(i).or(arg.first()).copied().unwrap_or(zero);
            }
            (dst[i], a)
        })
        .collect()
}

/// The lane-0 values of argument cells that are all lane-uniform: one lane then
/// computes the result of all.
fn lane0_args(m: &Machine, a: &[usize; 4]) -> Option<[f64; 4]> {
    a.iter().all(|&c| m.lane_uniform(c)).then(|| a.map(|c| m.at(c, 0)))
}

/// Per-component over up to four arguments (a one-component argument is broadcast).
#[versioned::versioned]
pub(crate) fn cw<F: Fn([f64; 4]) -> f64 + Send + Sync + 'static>(
    args: &[Vec<usize>],
    dst: &[usize],
    zero: usize,
    f: F,
) -> Code {
    let idx = component_cells(args, dst, zero);
    Box::new(move |m: &mut Machine| {
        for &(d, a) in &idx {
            if let Some(args) = lane0_args(m, &a) {
                m.set_splat(d, f(args));
                continue;
            }
            let cells = [m.cell(a[0]), m.cell(a[1]), m.cell(a[2]), m.cell(a[3])];
            let mut o = [0.0; LANES];
            for (l, ol) in o.iter_mut().enumerate() {
                *ol = f([cells[0][l], cells[1][l], cells[2][l], cells[3][l]]);
            }
            m.set(d, o);
        }
    })
}

/// [`cw`] for a transcendental function: `f` is its correctly rounded value, `error`
/// its device error bound given the arguments and that value (see [`hazard`]'s
/// precision rule). The machine's perturbation of each lane moves its result by that
/// many bounds, rounded back with `r`; at 0 the result is `f`'s exactly. With
/// `recalled` (for functions that cost far more than a lookup, of at most two
/// arguments), `f`'s values are looked up in the machine's [`Recall`] first.
#[versioned::versioned]
fn transcendental<R, F, E>(
    args: &[Vec<usize>],
    dst: &[usize],
    zero: usize,
    r: R,
    f: F,
    error: E,
    recalled: bool,
) -> Code
where
    R: Fn(f64) -> f64 + Copy + Send + Sync + 'static,
    F: Fn([f64; 4]) -> f64 + Send + Sync + 'static,
    E: Fn([f64; 4], f64) -> f64 + Send + Sync + 'static,
{
    let idx = component_cells(args, dst, zero);
    let site = (recalled && args.len() <= 2).then(Site::new);
    Box::new(move |m: &mut Machine| {
        let p = m.perturbation;
        let perturbed = m.perturbed();
        for &(d, a) in &idx {
            // No lane perturbed: every lane computes `f`'s value.
            if let Some(args) = lane0_args(m, &a).filter(|_| !perturbed) {
                m.set_splat(d, f(args));
                continue;
            }
            // Arguments past the second are the zero cell when `site` is set.
            let cells = [*m.cell(a[0]), *m.cell(a[1]), *m.cell(a[2]), *m.cell(a[3])];
            let mut o = [0.0; LANES];
            for (l, ol) in o.iter_mut().enumerate() {
                let x = [cells[0][l], cells[1][l], cells[2][l], cells[3][l]];
                let y = match site {
                    Some(site) => m.recall.get_or(site, [x[0], x[1]], || f(x)),
                    None => f(x),
                };
                *ol = if p[l] == 0.0 { y } else { r(y + p[l] * error(x, y)) };
            }
            m.set(d, o);
        }
    })
}

/// Up to 16 components per argument and per result, one lane at a time.
type LaneBuf = [[f64; 16]; 4];

#[versioned::versioned]
pub(crate) fn lanewise<F: Fn(&LaneBuf, &mut [f64; 16]) + Send + Sync + 'static>(
    args: &[Vec<usize>],
    dst: &[usize],
    f: F,
) -> Code {
    let args: Vec<Vec<usize>> = args.iter().take(4).map(|a| a.iter().take(16).copied().collect()).collect();
    let dst: Vec<usize> = dst.iter().take(16).copied().collect();
    Box::new(move |m: &mut Machine| {
        // Components past an argument's length read 0 in every lane (never written);
        // the result cells are fresh, never an argument's, so each lane writes its own.
        let mut buf: LaneBuf = [[0.0; 16]; 4];
        // Arguments the same in every lane: one lane computes the result of all.
        if args.iter().flatten().all(|&a| m.lane_uniform(a)) {
            for (k, arg) in args.iter().enumerate() {
                for (i, &a) in arg.iter().enumerate() {
                    buf[k][i] = m.at(a, 0);
                }
            }
            let mut out = [0.0; 16];
            f(&buf, &mut out);
            for (&d, &o) in dst.iter().zip(&out) {
                m.set_splat(d, o);
            }
            return;
        }
        for l in 0..LANES {
            for (k, arg) in args.iter().enumerate() {
                for (i, &a) in arg.iter().enumerate() {
                    buf[k][i] = m.at(a, l);
                }
            }
            let mut out = [0.0; 16];
            f(&buf, &mut out);
            for (&d, &o) in dst.iter().zip(&out) {
                if let Some(c) = m.cell_mut(d) {
                    c[l] = o;
                }
            }
        }
    })
}

/// What [`dot_columns`] computes.
#[derive(Clone, Copy, PartialEq)]
enum Column {
    /// `dot(a, b)`.
    Dot,
    /// `length(a)`: `|a|` for a scalar, else `sqrt(dot(a, a))`.
    Length,
}

/// `dot` and `length` over the lanes a component at a time (what [`lanewise`] computes
/// with [`dot_r`] lane by lane, in the same order of roundings, without gathering each
/// lane's arguments): `n` components of argument 0 (and of argument 1 for `dot`; a
/// missing component reads 0).
#[versioned::versioned]
fn dot_columns<R: Fn(f64) -> f64 + Copy + Send + Sync + 'static>(
    locs: &[Vec<usize>],
    dst: &[usize],
    n: usize,
    r: R,
    what: Column,
) -> Code {
    let component = |k: usize, i: usize| locs.get(k).and_then(|a| a.get(i)).copied();
    let a: Vec<Option<usize>> = (0..n).map(|i| component(0, i)).collect();
    let b: Vec<Option<usize>> = (0..n).map(|i| component(if what == Column::Dot { 1 } else { 0 }, i)).collect();
    let d = dst.first().copied();
    let finish = move |acc: f64| if what == Column::Length { r(acc.sqrt()) } else { acc };
    Box::new(move |m: &mut Machine| {
        let Some(d) = d else { return };
        let scalar_length = what == Column::Length && n == 1;
        // Arguments the same in every lane: one lane computes the result of all.
        if a.iter().chain(&b).flatten().all(|&c| m.lane_uniform(c)) {
            let at = |c: Option<usize>| c.map_or(0.0, |c| m.at(c, 0));
            let v = if scalar_length {
                at(a[0]).abs()
            } else {
                let (mut x, mut y) = ([0.0; 16], [0.0; 16]);
                for (i, (&ca, &cb)) in a.iter().zip(&b).enumerate().take(16) {
                    (x[i], y[i]) = (at(ca), at(cb));
                }
                finish(dot_r(r, &x[..n.min(16)], &y[..n.min(16)]))
            };
            m.set_splat(d, v);
            return;
        }
        let zero: Cell = [0.0; LANES];
        let cell = |c: Option<usize>| c.map_or(&zero, |c| m.cell(c));
        let mut acc: Cell = [0.0; LANES];
        if scalar_length {
            let x = cell(a[0]);
            for l in 0..LANES {
                acc[l] = x[l].abs();
            }
        } else {
            for (i, (&ca, &cb)) in a.iter().zip(&b).enumerate() {
                let (x, y) = (cell(ca), cell(cb));
                if i == 0 {
                    for l in 0..LANES {
                        acc[l] = r(x[l] * y[l]);
                    }
                } else {
                    for l in 0..LANES {
                        acc[l] = r(acc[l] + r(x[l] * y[l]));
                    }
                }
            }
            for v in acc.iter_mut() {
                *v = finish(*v);
            }
        }
        m.set(d, acc);
    })
}

fn frac_r<R: Fn(f64) -> f64>(r: R, x: f64) -> f64 {
    r(x - hazard::floor(x))
}

fn dot_r<R: Fn(f64) -> f64>(r: R, a: &[f64], b: &[f64]) -> f64 {
    let mut acc = 0.0;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let p = r(x * y);
        acc = if i == 0 { p } else { r(acc + p) };
    }
    acc
}

/// Determinant of an `n x n` row-major matrix by cofactor expansion along row 0.
fn det_r<R: Fn(f64) -> f64 + Copy>(r: R, m: &[f64], n: usize) -> f64 {
    match n {
        0 => 1.0,
        1 => m[0],
        2 => r(r(m[0] * m[3]) - r(m[1] * m[2])),
        _ => {
            let mut acc = 0.0;
            for j in 0..n {
                let minor: Vec<f64> = (1..n)
                    .flat_map(|i| (0..n).filter(move |&k| k != j).map(move |k| (i, k)))
                    .map(|(i, k)| m[i * n + k])
                    .collect();
                let term = r(m[j] * det_r(r, &minor, n - 1));
                acc = if j == 0 {
                    term
                } else if j % 2 == 1 {
                    r(acc - term)
                } else {
                    r(acc + term)
                };
            }
            acc
        }
    }
}

fn half_bits(x: f32) -> u32 {
    // binary32 to binary16, round to nearest even.
    let b = x.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut h = m >> shift;
        if rest > half || (rest == half && h & 1 == 1) {
            h += 1;
        }
        return sign | h;
    }
    let mut h = ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h
}

fn half_value(h: u32) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = f64::from(h & 0x3ff);
    sign * match e {
        0 => m * 2f64.powi(-24),
        0x1f => {
            if m == 0.0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

fn round_away(x: f64) -> f64 {
    x.round()
}

fn bits_float(u: u32) -> f64 {
    f64::from(f32::from_bits(u))
}

fn float_bits(x: f64) -> u32 {
    (x as f32).to_bits()
}

fn frexp(x: f64) -> (f64, f64) {
    if x == 0.0 || !x.is_finite() {
        return (if x == 0.0 { 0.0 } else { x }, 0.0);
    }
    let mut e = x.abs().log2().floor() + 1.0;
    let mut m = x / 2f64.powf(e);
    if m.abs() >= 1.0 {
        m /= 2.0;
        e += 1.0;
    } else if m.abs() < 0.5 {
        m *= 2.0;
        e -= 1.0;
    }
    (m, e)
}

/// Which arguments are `out` places.
fn out_args(b: B) -> &'static [usize] {
    match b {
        B::Sincos => &[1, 2],
        B::Modf | B::Frexp => &[1],
        _ => &[],
    }
}

pub(crate) fn compile(
    c: &mut Compiler,
    f: &mut Frame,
    b: B,
    args: &[Handle<Expr>],
    ty: Type,
    span: Span,
) -> super::expr::Val {
    let outs = out_args(b);
    let mut codes: Vec<Code> = Vec::new();
    let mut locs: Vec<Vec<usize>> = Vec::new();
    let mut places: Vec<(usize, Place, usize)> = Vec::new();
    let mut tys: Vec<Type> = Vec::new();
    for (i, &a) in args.iter().enumerate() {
        let t = f.exprs[a].ty;
        tys.push(t);
        if outs.contains(&i) {
            let (pc, p) = place(c, f, a);
            codes.extend(pc);
            let n = c.cells(t);
            let tmp = c.alloc(n);
            locs.push(tmp.clone());
            places.push((i, p, n));
        } else {
            let v = value(c, f, a);
            codes.extend(v.code);
            locs.push(v.loc);
        }
    }
    let n = c.cells(ty);
    let dst = c.alloc(n);
    let arg_kind = tys.first().and_then(|t| t.scalar()).map_or(Kind::F, kind);
    let z = c.constant(0.0);
    let code: Option<Code> = if arg_kind == Kind::D {
        library(c, b, &locs, &tys, &dst, z, arg_kind, span, ops::rf64)
    } else {
        library(c, b, &locs, &tys, &dst, z, arg_kind, span, ops::rf32)
    };
    if let Some(code) = code {
        codes.push(code);
    }
    codes.extend(super::flags::compile(b, &locs, &dst, outs, z));
    if !super::flags::exact(b) && arg_kind == Kind::F {
        codes.push(nudge_approximate(dst.clone()));
    }
    for (i, p, _) in places {
        let w = write_code(c, &p, &locs[i]);
        codes.push(w);
    }
    super::expr::Val { code: chain(codes), loc: dst }
}

/// The computation of library function `b` (its flags are set by [`super::flags`]),
/// with the rounding `r` of its argument kind compiled in.
#[allow(clippy::too_many_arguments)]
#[versioned::versioned]
fn library<R: Fn(f64) -> f64 + Copy + Send + Sync + 'static>(
    c: &mut Compiler,
    b: B,
    locs: &[Vec<usize>],
    tys: &[Type],
    dst: &[usize],
    z: usize,
    arg_kind: Kind,
    span: Span,
    r: R,
) -> Option<Code> {
    let a0n = locs.first().map_or(0, Vec::len).min(16);
    let shape = |t: Option<&Type>| match t {
        Some(Type::Matrix { rows, cols, .. }) => (*rows as usize, *cols as usize),
        Some(t) => (1, t.components().unwrap_or(1) as usize),
        None => (1, 1),
    };
    match b {
        B::Abs => Some(match arg_kind {
            Kind::I => cw(locs, dst, z, |a| f64::from(as_i32(a[0]).wrapping_abs())),
            Kind::U => cw(locs, dst, z, |a| a[0]),
            _ => cw(locs, dst, z, |a| a[0].abs()),
        }),
        B::Sign => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] > 0.0)) - f64::from(u8::from(a[0] < 0.0)))),
        // GPUs take min and max as IEEE 754-2008 minNum/maxNum: a NaN operand loses to
        // a number (NVIDIA's FMNMX, LLVM's minnum/maxnum on lavapipe), and clamp is
        // max then min. cgc's GLSL output called the same functions, so NaN-producing
        // arithmetic that a clamp absorbs (NEDI's singular systems on flat areas)
        // rendered as a number there too.
        B::Min => Some(cw(locs, dst, z, |a| a[0].min(a[1]))),
        B::Max => Some(cw(locs, dst, z, |a| a[0].max(a[1]))),
        B::Clamp => Some(cw(locs, dst, z, |a| {
            if a[0].is_nan() {
                a[1].min(a[2])
            } else if a[0] < a[1] {
                a[1]
            } else if a[0] > a[2] {
                a[2]
            } else {
                a[0]
            }
        })),
        B::Saturate => Some(cw(locs, dst, z, saturate)),
        B::Lerp => Some(cw(locs, dst, z, move |a| r(a[0] + r(a[2] * r(a[1] - a[0]))))),
        // One rounding: the binary32 product is exact in binary64, then rounded once more.
        B::Fma => Some(cw(locs, dst, z, move |a| r(a[0].mul_add(a[1], a[2])))),
        B::Step => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[1] >= a[0])))),
        B::Smoothstep => Some(cw(locs, dst, z, move |a| {
            let t = saturate([r(r(a[2] - a[0]) / r(a[1] - a[0])), 0.0, 0.0, 0.0]);
            r(r(t * t) * r(3.0 - r(2.0 * t)))
        })),
        B::Floor => Some(cw(locs, dst, z, |a| hazard::floor(a[0]))),
        B::Ceil => Some(cw(locs, dst, z, |a| a[0].ceil())),
        B::Trunc => Some(cw(locs, dst, z, |a| a[0].trunc())),
        B::Round => Some(cw(locs, dst, z, |a| a[0].round_ties_even())),
        B::Frac => Some(cw(locs, dst, z, move |a| frac_r(r, a[0]))),
        B::Fmod => Some(cw(locs, dst, z, move |a| {
            let c = r(frac_r(r, r(a[0] / a[1]).abs()) * a[1].abs());
            if a[0] < 0.0 {
                -c
            } else {
                c
            }
        })),
        // GLSL `mod`, which NVIDIA's compiler accepted: floored, the sign of `y`; a
        // scalar `y` serves every component (`cw` repeats a one-component argument).
        B::GlslMod => Some(cw(locs, dst, z, move |a| r(a[0] - r(a[1] * r(a[0] / a[1]).floor())))),
        B::Modf => {
            let ip = locs.get(1).cloned().unwrap_or_default();
            let a = vec![locs.first().cloned().unwrap_or_default()];
            let c1 = cw(&a, &ip, z, |a| if a[0].is_infinite() { a[0] } else { a[0].trunc() });
            let c2 = cw(
                &a,
                dst,
                z,
                move |a| {
                    if a[0].is_infinite() {
                        0.0f64.copysign(a[0])
                    } else {
                        r(a[0] - a[0].trunc())
                    }
                },
            );
            chain(vec![c1, c2])
        }
        B::Frexp => {
            let ep = locs.get(1).cloned().unwrap_or_default();
            let a = vec![locs.first().cloned().unwrap_or_default()];
            chain(vec![cw(&a, &ep, z, |a| frexp(a[0]).1), cw(&a, dst, z, |a| frexp(a[0]).0)])
        }
        B::Ldexp => Some(cw(locs, dst, z, move |a| r(a[0] * r(a[1].exp2())))),
        B::Exp => Some(transcendental(locs, dst, z, r, move |a| r(a[0].exp()), natural_exp_error, true)),
        B::Exp2 => {
            Some(transcendental(locs, dst, z, r, move |a| r(a[0].exp2()), |a, y| hazard::error_exp2(a[0], y), true))
        }
        B::Log => Some(transcendental(locs, dst, z, r, move |a| r(a[0].ln()), |_, y| hazard::error_log(y), true)),
        B::Log2 => Some(transcendental(locs, dst, z, r, move |a| r(a[0].log2()), |_, y| hazard::error_log(y), true)),
        B::Log10 => Some(transcendental(locs, dst, z, r, move |a| r(a[0].log10()), |_, y| hazard::error_log(y), true)),
        B::Pow => Some(transcendental(
            locs,
            dst,
            z,
            r,
            move |a| r(a[0].powf(a[1])),
            |a, y| hazard::error_pow(a[0], a[1], y),
            true,
        )),
        B::Sqrt => Some(transcendental(locs, dst, z, r, move |a| r(a[0].sqrt()), |_, y| hazard::error_root(y), false)),
        B::Rsqrt => {
            Some(transcendental(locs, dst, z, r, move |a| r(1.0 / r(a[0].sqrt())), |_, y| hazard::error_root(y), false))
        }
        B::Sin => {
            Some(transcendental(locs, dst, z, r, move |a| r(a[0].sin()), |a, _| hazard::error_sin_cos(a[0]), true))
        }
        B::Cos => {
            Some(transcendental(locs, dst, z, r, move |a| r(a[0].cos()), |a, _| hazard::error_sin_cos(a[0]), true))
        }
        B::Tan => {
            Some(transcendental(locs, dst, z, r, move |a| r(a[0].tan()), |a, y| hazard::error_tan(a[0], y), true))
        }
        B::Asin => {
            Some(transcendental(locs, dst, z, r, move |a| r(a[0].asin()), |_, y| hazard::error_inverse_trig(y), true))
        }
        B::Acos => {
            Some(transcendental(locs, dst, z, r, move |a| r(a[0].acos()), |_, y| hazard::error_inverse_trig(y), true))
        }
        B::Atan => {
            Some(transcendental(locs, dst, z, r, move |a| r(a[0].atan()), |_, y| hazard::error_inverse_trig(y), true))
        }
        B::Atan2 => Some(transcendental(
            locs,
            dst,
            z,
            r,
            move |a| r(a[0].atan2(a[1])),
            |_, y| hazard::error_inverse_trig(y),
            true,
        )),
        B::Sinh => Some(transcendental(locs, dst, z, r, move |a| r(a[0].sinh()), natural_exp_error, true)),
        B::Cosh => Some(transcendental(locs, dst, z, r, move |a| r(a[0].cosh()), natural_exp_error, true)),
        B::Tanh => Some(transcendental(
            locs,
            dst,
            z,
            r,
            move |a| r(a[0].tanh()),
            |a, _| hazard::error_exp2(2.0 * a[0] * std::f64::consts::LOG2_E, 1.0),
            true,
        )),
        B::Sincos => {
            let a = vec![locs.first().cloned().unwrap_or_default()];
            let s = locs.get(1).cloned().unwrap_or_default();
            let co = locs.get(2).cloned().unwrap_or_default();
            let e = |a: [f64; 4], _| hazard::error_sin_cos(a[0]);
            chain(vec![
                transcendental(&a, &s, z, r, move |a| r(a[0].sin()), e, true),
                transcendental(&a, &co, z, r, move |a| r(a[0].cos()), e, true),
            ])
        }
        B::Degrees => {
            let k = r(180.0 / std::f64::consts::PI);
            Some(cw(locs, dst, z, move |a| r(a[0] * k)))
        }
        B::Radians => {
            let k = r(std::f64::consts::PI / 180.0);
            Some(cw(locs, dst, z, move |a| r(a[0] * k)))
        }
        B::Isnan => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0].is_nan())))),
        B::Equal => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] == a[1])))),
        B::NotEqual => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] != a[1])))),
        B::LessThan => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] < a[1])))),
        B::LessThanEqual => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] <= a[1])))),
        B::GreaterThan => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] > a[1])))),
        B::GreaterThanEqual => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] >= a[1])))),
        B::Not => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0] == 0.0)))),
        // GLSL's select form of `mix`: the operand itself, no arithmetic (a scalar
        // selector serves every component).
        B::MixSelect => Some(cw(locs, dst, z, |a| if a[2] != 0.0 { a[1] } else { a[0] })),
        B::MatrixCompMult => Some(cw(locs, dst, z, move |a| r(a[0] * a[1]))),
        B::OuterProduct => {
            let (rows, cols) = (locs.first().map_or(0, Vec::len).min(4), locs.get(1).map_or(0, Vec::len).min(4));
            Some(lanewise(locs, dst, move |a, o| {
                for i in 0..rows {
                    for j in 0..cols {
                        o[i * cols + j] = r(a[0][i] * a[1][j]);
                    }
                }
            }))
        }
        B::Noise => {
            c.unsupported("`noise` (what NVIDIA's compiler computed for it is not known)".to_owned(), span);
            None
        }
        B::Isinf => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0].is_infinite())))),
        B::Isfinite => Some(cw(locs, dst, z, |a| f64::from(u8::from(a[0].is_finite())))),
        B::FloatToIntBits => Some(cw(locs, dst, z, |a| {
            if a[0].is_nan() {
                f64::from(0x7fc0_0000i32)
            } else {
                f64::from(float_bits(a[0]) as i32)
            }
        })),
        B::FloatToRawIntBits => Some(cw(locs, dst, z, |a| f64::from(float_bits(a[0]) as i32))),
        B::IntBitsToFloat => Some(cw(locs, dst, z, |a| bits_float(as_i32(a[0]) as u32))),
        B::FloatBitsToUint => Some(cw(locs, dst, z, |a| f64::from(float_bits(a[0])))),
        B::UintBitsToFloat => Some(cw(locs, dst, z, |a| bits_float(as_u32(a[0])))),
        B::BitCount => Some(cw(locs, dst, z, |a| f64::from(as_u32(a[0]).count_ones()))),
        B::BitfieldExtract => {
            let signed = arg_kind == Kind::I;
            Some(cw(locs, dst, z, move |a| {
                let (x, off, bits) = (as_u32(a[0]), as_i32(a[1]), as_i32(a[2]));
                if bits <= 0 || off < 0 || off + bits > 32 {
                    return 0.0;
                }
                let v = if bits == 32 { x } else { (x >> off) & ((1u32 << bits) - 1) };
                if signed {
                    let sh = 32 - bits as u32;
                    f64::from(((v << sh) as i32) >> sh)
                } else {
                    f64::from(v)
                }
            }))
        }
        B::BitfieldInsert => {
            let signed = arg_kind == Kind::I;
            Some(cw(locs, dst, z, move |a| {
                let (base, ins, off, bits) = (as_u32(a[0]), as_u32(a[1]), as_i32(a[2]), as_i32(a[3]));
                let v = if bits <= 0 || off < 0 || off + bits > 32 {
                    base
                } else {
                    let mask = if bits == 32 { u32::MAX } else { ((1u32 << bits) - 1) << off };
                    (base & !mask) | ((ins << off) & mask)
                };
                if signed {
                    f64::from(v as i32)
                } else {
                    f64::from(v)
                }
            }))
        }
        B::BitfieldReverse => {
            let signed = arg_kind == Kind::I;
            Some(cw(locs, dst, z, move |a| {
                let v = as_u32(a[0]).reverse_bits();
                if signed {
                    f64::from(v as i32)
                } else {
                    f64::from(v)
                }
            }))
        }
        B::FindLsb => Some(cw(locs, dst, z, |a| {
            let v = as_u32(a[0]);
            if v == 0 {
                -1.0
            } else {
                f64::from(v.trailing_zeros())
            }
        })),
        B::FindMsb => {
            let signed = arg_kind == Kind::I;
            Some(cw(locs, dst, z, move |a| {
                let mut v = as_u32(a[0]);
                if signed && (v as i32) < 0 {
                    v = !v;
                }
                if v == 0 {
                    -1.0
                } else {
                    f64::from(31 - v.leading_zeros())
                }
            }))
        }
        B::Pack2Half => Some(lanewise(locs, dst, |a, o| {
            let lo = half_bits(a[0][0] as f32);
            let hi = half_bits(a[0][1] as f32);
            o[0] = bits_float(hi << 16 | lo);
        })),
        B::Pack2Ushort => Some(lanewise(locs, dst, |a, o| {
            let u = |x: f64| round_away(saturate([x, 0.0, 0.0, 0.0]) * 65535.0) as u32;
            o[0] = bits_float(u(a[0][1]) << 16 | u(a[0][0]));
        })),
        B::Pack4Byte | B::Pack4Ubyte => {
            let signed = b == B::Pack4Byte;
            Some(lanewise(locs, dst, move |a, o| {
                let mut bits = 0u32;
                for (i, &x) in a[0].iter().enumerate().take(4) {
                    let v = if signed {
                        round_away(x.clamp(-128.0 / 127.0, 1.0) * 127.0 + 128.0)
                    } else {
                        round_away(saturate([x, 0.0, 0.0, 0.0]) * 255.0)
                    };
                    bits |= ((v as u32) & 0xff) << (8 * i);
                }
                o[0] = bits_float(bits);
            }))
        }
        B::Unpack2Half => Some(lanewise(locs, dst, |a, o| {
            let u = float_bits(a[0][0]);
            o[0] = half_value(u & 0xffff);
            o[1] = half_value(u >> 16);
        })),
        B::Unpack2Ushort => Some(lanewise(locs, dst, |a, o| {
            let u = float_bits(a[0][0]);
            o[0] = ops::rf32(f64::from(u & 0xffff) / 65535.0);
            o[1] = ops::rf32(f64::from(u >> 16) / 65535.0);
        })),
        B::Unpack4Byte | B::Unpack4Ubyte => {
            let signed = b == B::Unpack4Byte;
            Some(lanewise(locs, dst, move |a, o| {
                let u = float_bits(a[0][0]);
                for (i, oi) in o.iter_mut().enumerate().take(4) {
                    let byte = f64::from((u >> (8 * i)) & 0xff);
                    *oi = ops::rf32(if signed { (byte - 128.0) / 127.0 } else { byte / 255.0 });
                }
            }))
        }
        B::Dot => Some(dot_columns(locs, dst, a0n, r, Column::Dot)),
        B::Cross => Some(lanewise(locs, dst, move |a, o| {
            let (x, y) = (&a[0], &a[1]);
            o[0] = r(r(x[1] * y[2]) - r(x[2] * y[1]));
            o[1] = r(r(x[2] * y[0]) - r(x[0] * y[2]));
            o[2] = r(r(x[0] * y[1]) - r(x[1] * y[0]));
        })),
        B::Length => Some(dot_columns(locs, dst, a0n, r, Column::Length)),
        B::Distance => Some(lanewise(locs, dst, move |a, o| {
            let mut d = [0.0f64; 16];
            for (i, di) in d.iter_mut().enumerate().take(a0n) {
                *di = r(a[1][i] - a[0][i]);
            }
            let d = &d[..a0n];
            o[0] = if a0n == 1 { d[0].abs() } else { r(dot_r(r, d, d).sqrt()) };
        })),
        B::Normalize => Some(lanewise(locs, dst, move |a, o| {
            let len = if a0n == 1 { a[0][0].abs() } else { r(dot_r(r, &a[0][..a0n], &a[0][..a0n]).sqrt()) };
            for i in 0..a0n {
                o[i] = r(a[0][i] / len);
            }
        })),
        B::Reflect => Some(lanewise(locs, dst, move |a, o| {
            let d = dot_r(r, &a[1][..a0n], &a[0][..a0n]);
            for i in 0..a0n {
                o[i] = r(a[0][i] - r(r(2.0 * a[1][i]) * d));
            }
        })),
        B::Refract => Some(lanewise(locs, dst, move |a, o| {
            let (i, nn, eta) = (&a[0], &a[1], a[2][0]);
            // Scalars and vectors of 1 to 4 components (Cg declares them all).
            let neg: Vec<f64> = (0..a0n).map(|k| -i[k]).collect();
            let cosi = dot_r(r, &neg, &nn[..a0n]);
            let cost2 = r(1.0 - r(r(eta * eta) * r(1.0 - r(cosi * cosi))));
            let s = r(r(eta * cosi) - r(cost2.abs().sqrt()));
            for k in 0..a0n {
                let t = r(r(eta * i[k]) + r(s * nn[k]));
                o[k] = if cost2 > 0.0 { t } else { 0.0 };
            }
        })),
        B::Faceforward => Some(lanewise(locs, dst, move |a, o| {
            let d = dot_r(r, &a[2][..a0n], &a[1][..a0n]);
            for i in 0..a0n {
                o[i] = if d < 0.0 { a[0][i] } else { -a[0][i] };
            }
        })),
        B::Lit => Some(lanewise(locs, dst, move |a, o| {
            let (ndotl, ndoth, m) = (a[0][0], a[1][0], a[2][0]);
            o[0] = 1.0;
            o[1] = if ndotl > 0.0 { ndotl } else { 0.0 };
            o[2] = if ndotl > 0.0 { r((if ndoth > 0.0 { ndoth } else { 0.0 }).powf(m)) } else { 0.0 };
            o[3] = 1.0;
        })),
        B::MulMatVec => {
            let (rows, cols) = shape(tys.first());
            Some(lanewise(locs, dst, move |a, o| {
                for i in 0..rows {
                    o[i] = dot_r(r, &a[0][i * cols..(i + 1) * cols], &a[1][..cols]);
                }
            }))
        }
        B::MulVecMat => {
            let (rows, cols) = shape(tys.get(1));
            Some(lanewise(locs, dst, move |a, o| {
                let mut col = [0.0f64; 16];
                for j in 0..cols {
                    for (i, ci) in col.iter_mut().enumerate().take(rows) {
                        *ci = a[1][i * cols + j];
                    }
                    o[j] = dot_r(r, &a[0][..rows], &col[..rows]);
                }
            }))
        }
        B::MulMatMat => {
            let (rows, inner) = shape(tys.first());
            let (_, cols) = shape(tys.get(1));
            Some(lanewise(locs, dst, move |a, o| {
                let mut col = [0.0f64; 16];
                for i in 0..rows {
                    for j in 0..cols {
                        for (k, ck) in col.iter_mut().enumerate().take(inner) {
                            *ck = a[1][k * cols + j];
                        }
                        o[i * cols + j] = dot_r(r, &a[0][i * inner..(i + 1) * inner], &col[..inner]);
                    }
                }
            }))
        }
        B::Transpose => {
            let (rows, cols) = shape(tys.first());
            Some(lanewise(locs, dst, move |a, o| {
                for i in 0..rows {
                    for j in 0..cols {
                        o[j * rows + i] = a[0][i * cols + j];
                    }
                }
            }))
        }
        B::Determinant => {
            let (n, _) = shape(tys.first());
            Some(lanewise(locs, dst, move |a, o| o[0] = det_r(r, &a[0][..n * n], n)))
        }
        B::Inverse => {
            let (n, _) = shape(tys.first());
            Some(lanewise(locs, dst, move |a, o| {
                let m = &a[0][..n * n];
                let det = det_r(r, m, n);
                for i in 0..n {
                    for j in 0..n {
                        // adjugate[i][j] = cofactor[j][i]
                        let minor: Vec<f64> = (0..n)
                            .filter(|&x| x != j)
                            .flat_map(|x| (0..n).filter(move |&y| y != i).map(move |y| (x, y)))
                            .map(|(x, y)| m[x * n + y])
                            .collect();
                        let cof = det_r(r, &minor, n - 1);
                        let cof = if (i + j) % 2 == 1 { -cof } else { cof };
                        o[i * n + j] = r(cof / det);
                    }
                }
            }))
        }
        B::Any => {
            Some(lanewise(locs, dst, move |a, o| o[0] = f64::from(u8::from(a[0][..a0n].iter().any(|&x| x != 0.0)))))
        }
        B::All => {
            Some(lanewise(locs, dst, move |a, o| o[0] = f64::from(u8::from(a[0][..a0n].iter().all(|&x| x != 0.0)))))
        }
        B::Ddx | B::Ddy | B::Fwidth => Some(derivative(b, locs.first().cloned().unwrap_or_default(), dst.to_vec(), r)),
        B::Clip => {
            let a = locs.first().cloned().unwrap_or_default();
            Some(Box::new(move |m: &mut Machine| {
                let mut kill: Bits = 0;
                let mut hazard: Bits = 0;
                for &x in &a {
                    let v = m.get(x);
                    let h = m.hz(x);
                    hazard |= h & HAZARD;
                    for (l, x) in v.iter().enumerate() {
                        kill |= Bits::from(*x < 0.0) << l;
                        if hazard::decision(*x, 0.0, h & approx_bit(l) != 0, false) {
                            hazard |= hazard_bit(l);
                        }
                    }
                    hazard |= hazard::split(m, &v.map(|x| f64::from(u8::from(x < 0.0))));
                }
                // Discarding on a hazardous value makes the whole lane hazardous.
                m.sticky |= hazard & m.active;
                let k = kill & m.active;
                m.disc |= k;
                m.active &= !k;
            }))
        }
        _ => texture::compile(c, b, locs, tys, dst, span),
    }
}

/// Under the precision rule, moves the approximate lanes of a library function's
/// binary32 result by an ulp ([`hazard::nudge`]); nothing otherwise.
#[versioned::versioned]
fn nudge_approximate(dst: Vec<usize>) -> Code {
    Box::new(move |m: &mut Machine| {
        if !m.perturbed() {
            return;
        }
        let p = m.perturbation;
        for &d in &dst {
            let (mut v, h) = (m.get(d), m.hz(d));
            for (l, x) in v.iter_mut().enumerate() {
                if h & approx_bit(l) != 0 {
                    *x = hazard::nudge(*x, p[l]);
                }
            }
            m.set(d, v);
        }
    })
}

/// The device error bound of `exp(x) = y` and of the hyperbolic functions built on it:
/// [`hazard::error_exp2`] at the base-2 exponent `x log2(e)`.
fn natural_exp_error(a: [f64; 4], y: f64) -> f64 {
    hazard::error_exp2(a[0] * std::f64::consts::LOG2_E, y)
}

fn saturate(a: [f64; 4]) -> f64 {
    let x = a[0];
    if x.is_nan() || x < 0.0 {
        0.0
    } else if x > 1.0 {
        1.0
    } else {
        x
    }
}

/// Fine derivatives across each 2x2 quad of the batch (0 in the vertex stage). Hazard:
/// the result mixes the lanes of a quad (their flags spread to its four lanes), and a
/// lane whose coarse derivative (row 0's `ddx`, column 0's `ddy`, which a GPU may use
/// instead) differs from the fine one beyond rounding is hazardous.
#[versioned::versioned]
fn derivative<R: Fn(f64) -> f64 + Copy + Send + Sync + 'static>(b: B, src: Vec<usize>, dst: Vec<usize>, r: R) -> Code {
    Box::new(move |m: &mut Machine| {
        let sign = match m.shape {
            LaneShape::Vertices | LaneShape::Perturbed => {
                for &d in &dst {
                    m.put(d, [0.0; LANES], 0);
                }
                return;
            }
            LaneShape::Quad { ddy_sign } => ddy_sign,
        };
        for (&s, &d) in src.iter().zip(&dst) {
            let v = m.get(s);
            let mut out: Cell = [0.0; LANES];
            let mut coarse: Cell = [0.0; LANES];
            for ((v, out), coarse) in v.chunks_exact(4).zip(out.chunks_exact_mut(4)).zip(coarse.chunks_exact_mut(4)) {
                let (o, c) = quad_derivative(b, [v[0], v[1], v[2], v[3]], sign, r);
                out.copy_from_slice(&o);
                coarse.copy_from_slice(&c);
            }
            let mut h = hazard::mark_non_finite(&out, across_lanes(m.hz(s)));
            for l in 0..LANES {
                if out[l] != coarse[l] && !hazard::near(out[l], coarse[l]) {
                    h |= hazard_bit(l);
                }
            }
            m.put(d, out, h);
        }
    })
}

/// The fine and the coarse derivative `b` of one quad's values `v`.
#[inline]
fn quad_derivative<R: Fn(f64) -> f64>(b: B, v: [f64; 4], sign: f64, r: R) -> ([f64; 4], [f64; 4]) {
    let dx = [r(v[1] - v[0]), r(v[1] - v[0]), r(v[3] - v[2]), r(v[3] - v[2])];
    let dy = [r(v[2] - v[0]), r(v[3] - v[1]), r(v[2] - v[0]), r(v[3] - v[1])].map(|x| x * sign);
    let (cx, cy) = (dx[0], dy[0]);
    let coarse_x = [cx; 4];
    let coarse_y = [cy; 4];
    let out = match b {
        B::Ddx => dx,
        B::Ddy => dy,
        _ => [0, 1, 2, 3].map(|l| r(dx[l].abs() + dy[l].abs())),
    };
    let coarse = match b {
        B::Ddx => coarse_x,
        B::Ddy => coarse_y,
        _ => [0, 1, 2, 3].map(|l| r(coarse_x[l].abs() + coarse_y[l].abs())),
    };
    (out, coarse)
}
