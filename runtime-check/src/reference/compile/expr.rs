//! Expressions and places. An expression compiles to a [`Val`]: the code that computes
//! it (if any) and the cells holding its components (every lane of the batch). Many
//! nodes need no code at all:
//! a variable, member, constant index, swizzle, splat, truncation, reshape or
//! constructor only re-addresses cells of its operands. Arithmetic writes the node's own
//! cells for all four lanes (pure, so inactive lanes are harmless); only writes to
//! places honour the active lane mask.
//!
//! Places are [`Place::Static`] cell lists, or [`Place::Dynamic`] when an index is
//! computed (resolved per lane; out-of-range indices read 0 and drop writes, as the IR
//! documents). Never panics: a malformed node becomes an `E0802` diagnostic.

use super::{builtins, chain, Compiler, Frame};
use crate::reference::hazard::{self, approx_bit, hazard_bit, HAZARD};
use crate::reference::machine::{flags_of_every_lane, with_cells2, Bits, Cell, Code, Machine, LANES};
use crate::reference::ops::{self, kind, Kind};
use std::sync::Arc;
use translator::ir::{BinaryOp, Expr, ExprKind, Handle, IncDec, Literal, ParamDir, Type, Var};

/// A compiled expression.
pub(crate) struct Val {
    pub code: Option<Code>,
    pub loc: Vec<usize>,
}

/// One step of a dynamic place.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// Keep the listed positions of the current cell list.
    Select(Vec<usize>),
    /// Element `mem[index]` of `len` elements of `elem` cells each.
    Index { index: usize, elem: usize, len: usize },
}

/// An assignable location.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    Static(Vec<usize>),
    Dynamic(Arc<(Vec<usize>, Vec<Step>)>),
}

/// The cells a place names for one lane ([`Place::resolve`]): a run of the root's
/// cells while only indices were taken (no allocation), a list after a selection.
pub(crate) enum Resolved<'a> {
    Run(&'a [usize]),
    List(Vec<usize>),
}

impl Resolved<'_> {
    #[inline]
    pub fn get(&self, i: usize) -> Option<usize> {
        match self {
            Resolved::Run(r) => r.get(i).copied(),
            Resolved::List(v) => v.get(i).copied(),
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[usize] {
        match self {
            Resolved::Run(r) => r,
            Resolved::List(v) => v,
        }
    }
}

impl Place {
    /// The cells of lane `l`, `None` when an index is out of range.
    pub fn resolve(&self, m: &Machine, l: usize) -> Option<Resolved<'_>> {
        match self {
            Place::Static(v) => Some(Resolved::Run(v)),
            Place::Dynamic(d) => {
                let mut cur = Resolved::Run(&d.0);
                for s in &d.1 {
                    cur = match s {
                        Step::Select(sel) => {
                            let c = cur.as_slice();
                            Resolved::List(sel.iter().map(|&i| c.get(i).copied()).collect::<Option<Vec<_>>>()?)
                        }
                        Step::Index { index, elem, len } => {
                            let i = m.at(*index, l);
                            if !(i >= 0.0 && i < *len as f64) {
                                return None;
                            }
                            let i = i as usize;
                            match cur {
                                Resolved::Run(r) => Resolved::Run(r.get(i * elem..(i + 1) * elem)?),
                                Resolved::List(v) => Resolved::List(v.get(i * elem..(i + 1) * elem)?.to_vec()),
                            }
                        }
                    };
                }
                Some(cur)
            }
        }
    }

    fn select(self, sel: Vec<usize>) -> Place {
        match self {
            Place::Static(v) => Place::Static(sel.iter().filter_map(|&i| v.get(i).copied()).collect()),
            Place::Dynamic(d) => {
                let (root, mut steps) = (*d).clone();
                steps.push(Step::Select(sel));
                Place::Dynamic(Arc::new((root, steps)))
            }
        }
    }
}

/// Copies cells `src` to `dst`, all lanes.
#[versioned::versioned]
pub(crate) fn copy_code(src: &[usize], dst: &[usize]) -> Code {
    let pairs: Vec<(usize, usize)> = src.iter().copied().zip(dst.iter().copied()).collect();
    Box::new(move |m: &mut Machine| {
        for &(s, d) in &pairs {
            m.copy(s, d);
        }
    })
}

/// Copies cells `src` to `dst` in the active lanes.
#[versioned::versioned]
pub(crate) fn masked_copy_code(src: &[usize], dst: &[usize]) -> Code {
    let pairs: Vec<(usize, usize)> = src.iter().copied().zip(dst.iter().copied()).collect();
    Box::new(move |m: &mut Machine| {
        let mask = m.active;
        for &(s, d) in &pairs {
            m.copy_masked(s, d, mask);
        }
    })
}

#[versioned::versioned]
pub(crate) fn zero_code(dst: &[usize]) -> Code {
    let dst = dst.to_vec();
    Box::new(move |m: &mut Machine| {
        for &d in &dst {
            m.put(d, [0.0; LANES], 0);
        }
    })
}

/// Writes `src` into `place` in the active lanes (through a snapshot when they overlap).
pub(crate) fn write_code(c: &mut Compiler, place: &Place, src: &[usize]) -> Code {
    match place {
        Place::Static(dst) => {
            c.written.extend(dst.iter().copied());
            let overlap = src.iter().any(|s| dst.contains(s));
            if overlap {
                let tmp = c.alloc(src.len());
                let a = copy_code(src, &tmp);
                let b = masked_copy_code(&tmp, dst);
                Box::new(move |m: &mut Machine| {
                    a(m);
                    b(m);
                })
            } else {
                masked_copy_code(src, dst)
            }
        }
        Place::Dynamic(d) => {
            c.written.extend(d.0.iter().copied());
            let place = place.clone();
            let src = src.to_vec();
            Box::new(move |m: &mut Machine| {
                // The source read before any lane writes (a place may overlap it); on the
                // stack for up to 16 cells.
                let mut small = [([0.0f64; LANES], 0 as Bits); 16];
                let large: Vec<(Cell, Bits)>;
                let snapshot: &[(Cell, Bits)] = if src.len() <= small.len() {
                    for (o, &s) in small.iter_mut().zip(&src) {
                        *o = (m.get(s), m.hz(s));
                    }
                    &small[..src.len()]
                } else {
                    large = src.iter().map(|&s| (m.get(s), m.hz(s))).collect();
                    &large
                };
                let ctl = m.ctl;
                for l in 0..LANES {
                    let bits = hazard_bit(l) | approx_bit(l);
                    let active = m.active & (1 << l) != 0;
                    if !active && ctl & hazard_bit(l) == 0 {
                        continue;
                    }
                    let Some(cells) = place.resolve(m, l) else { continue };
                    let cells: &[usize] = cells.as_slice();
                    for (&d, (v, h)) in cells.iter().zip(snapshot) {
                        let mut hz = m.hz(d);
                        if active {
                            if let Some(c) = m.cell_mut(d) {
                                c[l] = v[l];
                            }
                            hz = (hz & !bits) | (h & bits);
                        }
                        m.set_hz(d, hz | (ctl & hazard_bit(l)));
                    }
                }
            })
        }
    }
}

/// Reads a place into fresh cells (for compound assignment and `++`).
fn read_place(c: &mut Compiler, place: &Place, n: usize) -> Val {
    match place {
        Place::Static(v) => Val { code: None, loc: v.clone() },
        Place::Dynamic(_) => {
            let tmp = c.alloc(n);
            let place = place.clone();
            let dst = tmp.clone();
            Val {
                code: Some(Box::new(move |m: &mut Machine| {
                    for l in 0..LANES {
                        let bits = hazard_bit(l) | approx_bit(l);
                        let cells = place.resolve(m, l);
                        for (i, &d) in dst.iter().enumerate() {
                            let src = cells.as_ref().and_then(|cs| cs.get(i));
                            let v = src.map_or(0.0, |a| m.at(a, l));
                            let h = src.map_or(0, |a| m.hz(a)) & bits;
                            if let Some(c) = m.cell_mut(d) {
                                c[l] = v;
                            }
                            let hz = (m.hz(d) & !bits) | h;
                            m.set_hz(d, hz);
                        }
                    }
                })),
                loc: tmp,
            }
        }
    }
}

fn ty_of(f: &Frame, e: Handle<Expr>) -> Type {
    f.exprs[e].ty
}

fn kind_of(t: Type) -> Kind {
    t.scalar().map_or(Kind::F, kind)
}

/// A literal index, for static addressing.
fn const_index(f: &Frame, e: Handle<Expr>) -> Option<i64> {
    match &f.exprs[e].kind {
        ExprKind::Literal(Literal::Int(i)) => Some(*i),
        ExprKind::Literal(Literal::UInt(u)) => i64::try_from(*u).ok(),
        ExprKind::Convert { value } => const_index(f, *value),
        _ => None,
    }
}

/// Element size and count of an indexable type.
fn index_shape(c: &Compiler, t: Type) -> Option<(usize, usize)> {
    match t {
        Type::Vector(_, n) => Some((1, n as usize)),
        Type::Matrix { rows, cols, .. } => Some((cols as usize, rows as usize)),
        Type::Array(id) => {
            let a = c.module.arrays.get(id.0 as usize)?;
            Some((c.cells(a.elem), a.len.unwrap_or(0) as usize))
        }
        _ => None,
    }
}

fn field_range(c: &Compiler, t: Type, field: u32) -> Option<(usize, usize)> {
    let Type::Struct(id) = t else { return None };
    let s = c.module.structs.get(id.0 as usize)?;
    let mut off = 0;
    for (i, fd) in s.fields.iter().enumerate() {
        let n = c.cells(fd.ty);
        if i == field as usize {
            return Some((off, n));
        }
        off += n;
    }
    None
}

/// Positions selected by a truncation from `from` to `to`.
fn truncation(from: Type, to: Type) -> Vec<usize> {
    match (from, to) {
        (Type::Matrix { cols: fc, .. }, Type::Matrix { rows, cols, .. }) => {
            (0..rows as usize).flat_map(|r| (0..cols as usize).map(move |col| r * fc as usize + col)).collect()
        }
        (_, t) => (0..t.components().unwrap_or(1) as usize).collect(),
    }
}

/// Compiles a place (an assignment target or an `out` argument).
pub(crate) fn place(c: &mut Compiler, f: &mut Frame, e: Handle<Expr>) -> (Option<Code>, Place) {
    let span = f.exprs.span(e);
    match &f.exprs[e].kind {
        ExprKind::Var(v) => (None, Place::Static(var_cells(c, f, *v))),
        ExprKind::Member { base, field } => {
            let bt = ty_of(f, *base);
            let (code, p) = place(c, f, *base);
            match field_range(c, bt, *field) {
                Some((off, n)) => (code, p.select((off..off + n).collect())),
                None => {
                    c.unsupported("a member of a non-struct", span);
                    (code, Place::Static(Vec::new()))
                }
            }
        }
        ExprKind::Index { base, index } => {
            let bt = ty_of(f, *base);
            let Some((elem, len)) = index_shape(c, bt) else {
                c.unsupported(format!("indexing into `{bt}`"), span);
                return (None, Place::Static(Vec::new()));
            };
            let (bcode, p) = place(c, f, *base);
            if let Some(i) = const_index(f, *index) {
                if i >= 0 && (i as usize) < len {
                    let i = i as usize;
                    return (bcode, p.select((i * elem..(i + 1) * elem).collect()));
                }
                return (bcode, Place::Static(Vec::new()));
            }
            let iv = value(c, f, *index);
            let icell = index_cell(c, f, *index, &iv);
            let code = chain(bcode.into_iter().chain(iv.code).chain(icell.1).collect());
            let p = match p {
                Place::Static(root) => {
                    Place::Dynamic(Arc::new((root, vec![Step::Index { index: icell.0, elem, len }])))
                }
                Place::Dynamic(d) => {
                    let (root, mut steps) = (*d).clone();
                    steps.push(Step::Index { index: icell.0, elem, len });
                    Place::Dynamic(Arc::new((root, steps)))
                }
            };
            (code, p)
        }
        ExprKind::Swizzle { base, components } => {
            let (code, p) = place(c, f, *base);
            (code, p.select(components.iter().map(|&x| x as usize).collect()))
        }
        ExprKind::MatrixElements { base, elements } => {
            let cols = match ty_of(f, *base) {
                Type::Matrix { cols, .. } => cols as usize,
                _ => 1,
            };
            let (code, p) = place(c, f, *base);
            (code, p.select(elements.iter().map(|&(r, col)| r as usize * cols + col as usize).collect()))
        }
        _ => {
            c.unsupported("an assignment to something that is not a place", span);
            (None, Place::Static(Vec::new()))
        }
    }
}

/// The index as an integer cell (floats truncate toward zero).
fn index_cell(c: &mut Compiler, f: &Frame, index: Handle<Expr>, iv: &Val) -> (usize, Option<Code>) {
    let cell = iv.loc.first().copied().unwrap_or_else(|| c.constant(0.0));
    if kind_of(ty_of(f, index)) == Kind::F || kind_of(ty_of(f, index)) == Kind::D {
        let t = c.alloc(1)[0];
        let code: Code = Box::new(move |m: &mut Machine| {
            let x = m.get(cell);
            let mut h = m.hz(cell);
            for (l, &x) in x.iter().enumerate() {
                if hazard::integer_step(x, h & approx_bit(l) != 0) {
                    h |= hazard_bit(l);
                }
            }
            let t_x = x.map(f64::trunc);
            h |= hazard::split(m, &t_x);
            m.put(t, t_x, h & HAZARD);
        });
        (t, Some(code))
    } else {
        (cell, None)
    }
}

fn var_cells(c: &mut Compiler, f: &Frame, v: Var) -> Vec<usize> {
    match v {
        Var::Local(h) => f.locals.get(h.index()).cloned().unwrap_or_default(),
        Var::Param(i) => f.params.get(i as usize).cloned().unwrap_or_default(),
        Var::Global(h) => c.globals.get(h.index()).cloned().unwrap_or_default(),
    }
}

/// Per-component map of one operand into fresh cells (flags carried, NaN/Inf marked).
#[versioned::versioned]
fn map1(dst: &[usize], a: &[usize], f: fn(f64) -> f64) -> Code {
    let pairs: Vec<(usize, usize)> = dst.iter().copied().zip(a.iter().copied()).collect();
    Box::new(move |m: &mut Machine| {
        for &(d, a) in &pairs {
            if m.lane_uniform(a) {
                let v = f(m.at(a, 0));
                let h = m.hz(a) | flags_of_every_lane(hazard::non_finite(v), false);
                m.put_splat(d, v, h);
                continue;
            }
            let x = m.cell(a);
            let mut v = [0.0; LANES];
            for (o, &x) in v.iter_mut().zip(x) {
                *o = f(x);
            }
            let h = hazard::mark_non_finite(&v, m.hz(a));
            m.put(d, v, h);
        }
    })
}

/// What a binary operator adds to the flags of its operands (see [`hazard`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rule2 {
    /// Flags carried only.
    Plain,
    /// binary32 `+ - *`: approximate where the rounding was inexact (`raw` is the
    /// exact operation in binary64).
    Rounded(Raw),
    /// binary32 `/`: approximate unless the divisor is a power of two.
    Quotient,
    /// binary32 `%`: a step where the quotient is an integer.
    Remainder,
    /// A float comparison: a decision.
    Compare,
}

/// The exact binary64 operation behind a rounded binary32 `+ - *`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Raw {
    Add,
    Sub,
    Mul,
}

/// The [`Rule2`] of operator `op` on operands of kind `k`.
pub(crate) fn rule2(op: BinaryOp, k: Kind) -> Rule2 {
    use BinaryOp as O;
    match (op, k) {
        (O::Eq | O::Ne | O::Lt | O::Le | O::Gt | O::Ge, Kind::F | Kind::D) => Rule2::Compare,
        (O::Add, Kind::F) => Rule2::Rounded(Raw::Add),
        (O::Sub, Kind::F) => Rule2::Rounded(Raw::Sub),
        (O::Mul, Kind::F) => Rule2::Rounded(Raw::Mul),
        (O::Div, Kind::F) => Rule2::Quotient,
        (O::Rem, Kind::F | Kind::D) => Rule2::Remainder,
        _ => Rule2::Plain,
    }
}

/// The code of binary operator `op` on operands of kind `k` (see [`map2`]); `None` when
/// the operator does not exist on that kind.
fn binary_code(op: BinaryOp, k: Kind, dst: &[usize], a: &[usize], b: &[usize]) -> Option<Code> {
    struct Map2<'a> {
        dst: &'a [usize],
        a: &'a [usize],
        b: &'a [usize],
        rule: Rule2,
    }
    impl ops::BinaryVisitor for Map2<'_> {
        type Out = Code;
        fn visit<F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static>(self, f: F) -> Code {
            map2(self.dst, self.a, self.b, f, self.rule)
        }
    }
    ops::binary_with(op, k, Map2 { dst, a, b, rule: rule2(op, k) })
}

/// The result of `f` on two cells and the operands' flags ORed, NaN/Inf marked.
#[inline(always)]
fn apply2<F: Fn(f64, f64) -> f64>(m: &Machine, a: usize, b: usize, f: F) -> (&Cell, &Cell, Cell, Bits, Bits, Bits) {
    let (x, y) = (m.cell(a), m.cell(b));
    let mut v = [0.0; LANES];
    // The finiteness test rides in the same loop as the operation (one pass over the
    // lanes, vectorised together); the lanes are only told apart when one is not.
    let mut finite = true;
    for l in 0..LANES {
        let r = f(x[l], y[l]);
        v[l] = r;
        finite &= r.abs() <= f64::MAX;
    }
    let (ha, hb) = (m.hz(a), m.hz(b));
    let h = if finite { ha | hb } else { hazard::mark_non_finite(&v, ha | hb) };
    (x, y, v, ha, hb, h)
}

/// `f` over the lanes of `x` and `y` into `v`; the lanes whose result is NaN or
/// infinite, as hazard bits (one compare per lane in the same loop, so it vectorises).
#[inline(always)]
fn apply2_into<F: Fn(f64, f64) -> f64>(v: &mut Cell, x: &Cell, y: &Cell, f: F) -> Bits {
    apply2_into_with(v, x, y, f, |_, _, _, _| {})
}

/// [`apply2_into`], also handing `each(lane, x, y, result)` every lane's operands and
/// result in the same pass.
#[inline(always)]
fn apply2_into_with<F, G>(v: &mut Cell, x: &Cell, y: &Cell, f: F, mut each: G) -> Bits
where
    F: Fn(f64, f64) -> f64,
    G: FnMut(usize, f64, f64, f64),
{
    let mut finite = true;
    for l in 0..LANES {
        let r = f(x[l], y[l]);
        v[l] = r;
        finite &= r.abs() <= f64::MAX;
        each(l, x[l], y[l], r);
    }
    if finite {
        0
    } else {
        hazard::mark_non_finite(v, 0)
    }
}

/// Operands `a` and `b` of an operator that computes one lane for all: both cells
/// lane-uniform and the lanes not under the precision rule (whose lanes differ by
/// their perturbations); their lane-0 values.
#[inline(always)]
fn uniform_operands(m: &Machine, a: usize, b: usize) -> Option<(f64, f64)> {
    (m.lane_uniform(a) && m.lane_uniform(b) && !m.perturbed()).then(|| (m.at(a, 0), m.at(b, 0)))
}

/// An operator whose result is approximate in the lanes where `approx(x, y, result)`
/// holds (binary32 `+ - *` rounded inexactly, `/` by other than a power of two), and
/// under the precision rule moved by an ulp there. `FUSED`: the result and its test in
/// one pass over the lanes, for a branch-free test that repeats `f`'s arithmetic (the
/// compiler computes it once for both); otherwise the result's pass stays apart from a
/// test that would keep it from vectorising.
#[versioned::versioned]
fn approximate<const FUSED: bool, F, A>(triples: Vec<(usize, usize, usize)>, f: F, approx: A) -> Code
where
    F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static,
    A: Fn(f64, f64, f64) -> bool + Copy + Send + Sync + 'static,
{
    Box::new(move |m: &mut Machine| {
        let perturbed = m.perturbed();
        for &(d, a, b) in &triples {
            let operands = m.hz(a) | m.hz(b);
            if let Some((x, y)) = uniform_operands(m, a, b) {
                let v = f(x, y);
                m.put_splat(d, v, operands | flags_of_every_lane(hazard::non_finite(v), approx(x, y, v)));
                continue;
            }
            let (mem, p) = m.memory_for(d);
            let (non_finite, approximate) = with_cells2(mem, d, a, b, |v, x, y| {
                let mut lanes: Bits = 0;
                let non_finite = if FUSED {
                    apply2_into_with(v, x, y, f, |l, a, b, r| lanes |= Bits::from(approx(a, b, r)) << l)
                } else {
                    let non_finite = apply2_into(v, x, y, f);
                    for l in 0..LANES {
                        lanes |= Bits::from(approx(x[l], y[l], v[l])) << l;
                    }
                    non_finite
                };
                if perturbed && lanes != 0 {
                    for (l, v) in v.iter_mut().enumerate() {
                        if lanes & (1 << l) != 0 {
                            *v = hazard::nudge(*v, p[l]);
                        }
                    }
                }
                (non_finite, lanes)
            });
            m.set_hz(d, operands | non_finite | (approximate << LANES));
        }
    })
}

/// binary32 `+ - *` (`f`, rounded) whose exact binary64 value is `raw`: approximate
/// where the rounding was inexact.
fn rounded<F, R>(triples: Vec<(usize, usize, usize)>, f: F, raw: R) -> Code
where
    F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static,
    R: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static,
{
    approximate::<true, _, _>(triples, f, move |x, y, v| {
        let exact = raw(x, y);
        v != exact && !exact.is_nan()
    })
}

#[versioned::versioned]
fn map2<F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static>(
    dst: &[usize],
    a: &[usize],
    b: &[usize],
    f: F,
    rule: Rule2,
) -> Code {
    let n = dst.len();
    let at = |v: &[usize], i: usize| v.get(i).or(v.first()).copied().unwrap_or(0);
    let triples: Vec<(usize, usize, usize)> = (0..n).map(|i| (dst[i], at(a, i), at(b, i))).collect();
    // Under the precision rule a rounded result moves by an ulp per lane.
    match rule {
        Rule2::Plain => Box::new(move |m: &mut Machine| {
            for &(d, a, b) in &triples {
                let operands = m.hz(a) | m.hz(b);
                if let Some((x, y)) = uniform_operands(m, a, b) {
                    let v = f(x, y);
                    m.put_splat(d, v, operands | flags_of_every_lane(hazard::non_finite(v), false));
                    continue;
                }
                let (mem, _) = m.memory_for(d);
                let non_finite = with_cells2(mem, d, a, b, |v, x, y| apply2_into(v, x, y, f));
                m.set_hz(d, operands | non_finite);
            }
        }),
        Rule2::Rounded(Raw::Add) => rounded(triples, f, |a, b| a + b),
        Rule2::Rounded(Raw::Sub) => rounded(triples, f, |a, b| a - b),
        Rule2::Rounded(Raw::Mul) => rounded(triples, f, |a, b| a * b),
        Rule2::Quotient => approximate::<false, _, _>(triples, f, |x, y, _| !hazard::exact_quotient(x, y)),
        Rule2::Remainder => Box::new(move |m: &mut Machine| {
            for &(d, a, b) in &triples {
                if let Some((x, y)) = uniform_operands(m, a, b) {
                    let (ha, hb) = (m.hz(a), m.hz(b));
                    let v = f(x, y);
                    let approx = (ha | hb) & approx_bit(0) != 0 || !hazard::exact_quotient(x, y);
                    let step = hazard::integer_step(x / y, approx);
                    m.put_splat(d, v, ha | hb | flags_of_every_lane(hazard::non_finite(v) || step, false));
                    continue;
                }
                let (x, y, v, ha, hb, mut h) = apply2(m, a, b, f);
                for l in 0..LANES {
                    let approx = (ha | hb) & approx_bit(l) != 0 || !hazard::exact_quotient(x[l], y[l]);
                    if hazard::integer_step(x[l] / y[l], approx) {
                        h |= hazard_bit(l);
                    }
                }
                if m.perturbed() {
                    h |= hazard::split(m, &std::array::from_fn(|l| hazard::floor(x[l] / y[l])));
                }
                m.put(d, v, h);
            }
        }),
        Rule2::Compare => Box::new(move |m: &mut Machine| {
            for &(d, a, b) in &triples {
                if let Some((x, y)) = uniform_operands(m, a, b) {
                    let (ha, hb) = (m.hz(a), m.hz(b));
                    let v = f(x, y);
                    let doubt = hazard::decision(x, y, ha & approx_bit(0) != 0, hb & approx_bit(0) != 0);
                    let h = (ha | hb | flags_of_every_lane(hazard::non_finite(v) || doubt, false)) & HAZARD;
                    m.put_splat(d, v, h);
                    continue;
                }
                let (x, y, v, ha, hb, mut h) = apply2(m, a, b, f);
                for l in 0..LANES {
                    if hazard::decision(x[l], y[l], ha & approx_bit(l) != 0, hb & approx_bit(l) != 0) {
                        h |= hazard_bit(l);
                    }
                }
                h |= hazard::split(m, &v);
                // A decision's result is exact; its doubt is the hazard bit.
                h &= HAZARD;
                m.put(d, v, h);
            }
        }),
    }
}

fn cfloat_literal(t: Type, v: f64) -> f64 {
    if kind_of(t) == Kind::D {
        v
    } else {
        ops::rf32(v)
    }
}

/// Compiles an expression for its value.
pub(crate) fn value(c: &mut Compiler, f: &mut Frame, e: Handle<Expr>) -> Val {
    let span = f.exprs.span(e);
    let ty = f.exprs[e].ty;
    let n = c.cells(ty);
    match f.exprs[e].kind.clone() {
        ExprKind::Literal(l) => {
            let v = match l {
                Literal::Bool(b) => f64::from(u8::from(b)),
                Literal::Int(i) => ops::convert(i as f64, Kind::D, kind_of(ty)),
                Literal::UInt(u) => ops::convert(u as f64, Kind::D, kind_of(ty)),
                Literal::Float(x) => match kind_of(ty) {
                    Kind::F | Kind::D => cfloat_literal(ty, x),
                    k => ops::convert(x, Kind::D, k),
                },
            };
            Val { code: None, loc: vec![c.constant(v)] }
        }
        ExprKind::Var(v) => Val { code: None, loc: var_cells(c, f, v) },
        ExprKind::Member { base, field } => {
            let bt = ty_of(f, base);
            let b = value(c, f, base);
            match field_range(c, bt, field) {
                Some((off, n)) => Val { code: b.code, loc: b.loc.get(off..off + n).unwrap_or(&[]).to_vec() },
                None => {
                    c.unsupported("a member of a non-struct", span);
                    Val { code: b.code, loc: Vec::new() }
                }
            }
        }
        ExprKind::Index { base, index } => {
            let bt = ty_of(f, base);
            let Some((elem, len)) = index_shape(c, bt) else {
                c.unsupported(format!("indexing into `{bt}`"), span);
                return Val { code: None, loc: vec![c.constant(0.0); n] };
            };
            let b = value(c, f, base);
            if let Some(i) = const_index(f, index) {
                if i >= 0 && (i as usize) < len {
                    let i = i as usize;
                    return Val { code: b.code, loc: b.loc.get(i * elem..(i + 1) * elem).unwrap_or(&[]).to_vec() };
                }
                let z = c.constant(0.0);
                return Val { code: b.code, loc: vec![z; elem] };
            }
            let iv = value(c, f, index);
            let (icell, icode) = index_cell(c, f, index, &iv);
            let dst = c.alloc(elem);
            let base_loc = b.loc.clone();
            let d2 = dst.clone();
            // `d2` are fresh cells, never among the base's: the element is gathered
            // straight into them (lanes whose index is out of range keep 0).
            let gather: Code = Box::new(move |m: &mut Machine| {
                let idx = m.get(icell);
                let ih = m.hz(icell) & HAZARD;
                // One index in every lane (a loop counter, a constant): whole cells move,
                // the same values and flags as lane by lane.
                let i0 = idx[0];
                if idx.iter().all(|&i| i == i0) && i0 >= 0.0 && i0 < len as f64 {
                    let i = i0 as usize;
                    for (k, &d) in d2.iter().enumerate() {
                        let (v, h) = match base_loc.get(i * elem + k) {
                            Some(&a) => (*m.cell(a), m.hz(a)),
                            None => ([0.0; LANES], 0),
                        };
                        m.put(d, v, ih | h);
                    }
                    return;
                }
                for &d in &d2 {
                    m.put(d, [0.0; LANES], ih);
                }
                for (l, &i) in idx.iter().enumerate() {
                    if i >= 0.0 && i < len as f64 {
                        let i = i as usize;
                        let bits = hazard_bit(l) | approx_bit(l);
                        for (k, &d) in d2.iter().enumerate() {
                            if let Some(&a) = base_loc.get(i * elem + k) {
                                let x = m.at(a, l);
                                let h = m.hz(a) & bits;
                                if let Some(c) = m.cell_mut(d) {
                                    c[l] = x;
                                }
                                m.set_hz(d, m.hz(d) | h);
                            }
                        }
                    }
                }
            });
            Val { code: chain(b.code.into_iter().chain(iv.code).chain(icode).chain([gather]).collect()), loc: dst }
        }
        ExprKind::Swizzle { base, components } => {
            let b = value(c, f, base);
            let z = c.constant(0.0);
            let loc = components.iter().map(|&k| b.loc.get(k as usize).copied().unwrap_or(z)).collect();
            Val { code: b.code, loc }
        }
        ExprKind::MatrixElements { base, elements } => {
            let cols = match ty_of(f, base) {
                Type::Matrix { cols, .. } => cols as usize,
                _ => 1,
            };
            let b = value(c, f, base);
            let z = c.constant(0.0);
            let loc = elements
                .iter()
                .map(|&(r, k)| b.loc.get(r as usize * cols + k as usize).copied().unwrap_or(z))
                .collect();
            Val { code: b.code, loc }
        }
        ExprKind::Unary { op, operand } => {
            let k = kind_of(ty_of(f, operand));
            let a = value(c, f, operand);
            let dst = c.alloc(n);
            let code = map1(&dst, &a.loc, ops::unary(op, k));
            Val { code: chain(a.code.into_iter().chain([code]).collect()), loc: dst }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            // Shifts keep the right operand's own integer type; the left decides.
            let k = kind_of(ty_of(f, lhs));
            let a = value(c, f, lhs);
            let b = value(c, f, rhs);
            let dst = c.alloc(n);
            let Some(code) = binary_code(op, k, &dst, &a.loc, &b.loc) else {
                c.unsupported(format!("operator `{}` on `{}`", op.symbol(), ty_of(f, lhs)), span);
                return Val { code: None, loc: dst };
            };
            Val { code: chain(a.code.into_iter().chain(b.code).chain([code]).collect()), loc: dst }
        }
        ExprKind::Select { cond, accept, reject } => {
            let cv = value(c, f, cond);
            let a = value(c, f, accept);
            let r = value(c, f, reject);
            let dst = c.alloc(n);
            let at = |v: &[usize], i: usize| v.get(i).or(v.first()).copied().unwrap_or(0);
            let quads: Vec<[usize; 4]> =
                (0..n).map(|i| [dst[i], at(&cv.loc, i), at(&a.loc, i), at(&r.loc, i)]).collect();
            let code: Code = Box::new(move |m: &mut Machine| {
                for &[d, kc, xc, yc] in &quads {
                    let (k, x, y) = (m.get(kc), m.get(xc), m.get(yc));
                    let (hx, hy) = (m.hz(xc), m.hz(yc));
                    // The condition's hazard decides which value: control dependence.
                    let h = m.hz(kc) & HAZARD;
                    let mut o = [0.0; LANES];
                    // The lanes that take `x`, and the flags of the value each lane takes.
                    let mut kx: Bits = 0;
                    for l in 0..LANES {
                        let t = k[l] != 0.0;
                        o[l] = if t { x[l] } else { y[l] };
                        kx |= Bits::from(t) << l;
                    }
                    let ky = !kx & HAZARD;
                    let h = h | (hx & (kx | kx << LANES)) | (hy & (ky | ky << LANES));
                    m.put(d, o, h);
                }
            });
            Val { code: chain(cv.code.into_iter().chain(a.code).chain(r.code).chain([code]).collect()), loc: dst }
        }
        ExprKind::Convert { value: v } => {
            let from = kind_of(ty_of(f, v));
            let to = kind_of(ty);
            let a = value(c, f, v);
            if from == to || (from == Kind::F && to == Kind::F) {
                return a;
            }
            let dst = c.alloc(n);
            let pairs: Vec<(usize, usize)> = dst.iter().copied().zip(a.loc.iter().copied()).collect();
            let step = matches!(from, Kind::F | Kind::D) && matches!(to, Kind::I | Kind::U);
            let code: Code = Box::new(move |m: &mut Machine| {
                for &(d, s) in &pairs {
                    let x = m.get(s);
                    let mut h = m.hz(s);
                    if step {
                        for (l, &x) in x.iter().enumerate() {
                            if hazard::integer_step(x, h & approx_bit(l) != 0) {
                                h |= hazard_bit(l);
                            }
                        }
                    }
                    if matches!(to, Kind::I | Kind::U | Kind::B) {
                        h |= hazard::split(m, &x.map(|x| ops::convert(x, from, to)));
                    }
                    if matches!(to, Kind::I | Kind::U | Kind::B) {
                        // An integer or bool is exact; its doubt is the hazard bit.
                        h &= HAZARD;
                    }
                    m.put(d, x.map(|x| ops::convert(x, from, to)), h);
                }
            });
            Val { code: chain(a.code.into_iter().chain([code]).collect()), loc: dst }
        }
        ExprKind::Splat { value: v } => {
            let a = value(c, f, v);
            let z = c.constant(0.0);
            let cell = a.loc.first().copied().unwrap_or(z);
            Val { code: a.code, loc: vec![cell; n] }
        }
        ExprKind::Truncate { value: v } => {
            let from = ty_of(f, v);
            let a = value(c, f, v);
            let z = c.constant(0.0);
            let loc = truncation(from, ty).into_iter().map(|i| a.loc.get(i).copied().unwrap_or(z)).collect();
            Val { code: a.code, loc }
        }
        ExprKind::Reshape { value: v } => value(c, f, v),
        ExprKind::Construct { args } => {
            let mut codes = Vec::new();
            let mut loc = Vec::new();
            for a in args {
                let v = value(c, f, a);
                codes.extend(v.code);
                loc.extend(v.loc);
            }
            let z = c.constant(0.0);
            loc.resize(n, z);
            Val { code: chain(codes), loc }
        }
        ExprKind::Call { function, args } => call(c, f, function, &args, n, span),
        ExprKind::Builtin { builtin, args } => builtins::compile(c, f, builtin, &args, ty, span),
        ExprKind::Assign { op, target, value: v } => {
            let (pcode, p) = place(c, f, target);
            let val = value(c, f, v);
            let mut codes: Vec<Code> = pcode.into_iter().chain(val.code).collect();
            let src = match op {
                None => val.loc,
                Some(op) => {
                    let k = kind_of(ty_of(f, target));
                    let cur = read_place(c, &p, n);
                    codes.extend(cur.code);
                    let dst = c.alloc(n);
                    match binary_code(op, k, &dst, &cur.loc, &val.loc) {
                        Some(code) => codes.push(code),
                        None => c.unsupported(format!("operator `{}=` on `{ty}`", op.symbol()), span),
                    }
                    dst
                }
            };
            codes.push(write_code(c, &p, &src));
            Val { code: chain(codes), loc: src }
        }
        ExprKind::IncDec { op, target } => {
            let (pcode, p) = place(c, f, target);
            let k = kind_of(ty);
            let cur = read_place(c, &p, n);
            let old = c.alloc(n);
            let new = c.alloc(n);
            let one = c.constant(1.0);
            let bop = if matches!(op, IncDec::PreInc | IncDec::PostInc) { BinaryOp::Add } else { BinaryOp::Sub };
            let mut codes: Vec<Code> = pcode.into_iter().chain(cur.code).collect();
            codes.push(copy_code(&cur.loc, &old));
            codes.extend(binary_code(bop, k, &new, &old, &vec![one; n]));
            codes.push(write_code(c, &p, &new));
            let loc = if matches!(op, IncDec::PreInc | IncDec::PreDec) { new } else { old };
            Val { code: chain(codes), loc }
        }
        ExprKind::Sequence { exprs } => {
            let mut codes = Vec::new();
            let mut loc = Vec::new();
            for x in exprs {
                let v = value(c, f, x);
                codes.extend(v.code);
                loc = v.loc;
            }
            Val { code: chain(codes), loc }
        }
        // The reference runs the IR before porting: these never reach it.
        ExprKind::Ported(_) => {
            c.unsupported("a ported form (the reference reads the Cg program before porting)", span);
            Val { code: None, loc: vec![c.constant(0.0); n] }
        }
    }
}

/// A user-function call: copy in, run, copy the result and `out`/`inout` back.
fn call(
    c: &mut Compiler,
    f: &mut Frame,
    function: Handle<translator::ir::Function>,
    args: &[Handle<Expr>],
    n: usize,
    span: grammar::Span,
) -> Val {
    let dst = c.alloc(n);
    let Some(fc) = c.function(function, span) else { return Val { code: None, loc: dst } };
    let mut codes: Vec<Code> = Vec::new();
    let mut copy_in: Vec<(usize, usize)> = Vec::new();
    let mut zero: Vec<usize> = Vec::new();
    let mut back: Vec<(Place, Vec<usize>)> = Vec::new();
    for (i, &a) in args.iter().enumerate() {
        let dir = fc.dirs.get(i).copied().unwrap_or(ParamDir::In);
        let pcells = fc.params.get(i).cloned().unwrap_or_default();
        match dir {
            ParamDir::In => {
                let v = value(c, f, a);
                codes.extend(v.code);
                copy_in.extend(v.loc.iter().copied().zip(pcells.iter().copied()));
            }
            ParamDir::Out | ParamDir::InOut => {
                let (pc, p) = place(c, f, a);
                codes.extend(pc);
                if dir == ParamDir::InOut {
                    let cur = read_place(c, &p, pcells.len());
                    codes.extend(cur.code);
                    copy_in.extend(cur.loc.iter().copied().zip(pcells.iter().copied()));
                } else {
                    zero.extend(pcells.iter().copied());
                }
                back.push((p, pcells));
            }
        }
    }
    let writes: Vec<Code> = back.iter().map(|(p, cells)| write_code(c, p, cells)).collect();
    let ret = fc.ret.clone();
    let body = fc.body.clone();
    let d2 = dst.clone();
    codes.push(Box::new(move |m: &mut Machine| {
        for &(s, d) in &copy_in {
            m.copy(s, d);
        }
        for &z in &zero {
            m.put(z, [0.0; LANES], 0);
        }
        let (active, ret_mask, brk, cont) = (m.active, m.ret, m.brk, m.cont);
        m.ret = 0;
        m.brk = 0;
        m.cont = 0;
        body(m);
        m.ret = ret_mask;
        m.brk = brk;
        m.cont = cont;
        m.active = active & !m.disc;
        for (s, d) in ret.iter().zip(&d2) {
            m.copy(*s, *d);
        }
        for w in &writes {
            w(m);
        }
    }));
    Val { code: chain(codes), loc: dst }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::machine::{lane_uniform_flags, ALL_LANES};

    /// Operand values where the rules decide something: inexact and exact roundings,
    /// quotients by powers of two and others, integer quotients, equal and nearly equal
    /// compares, zeros of both signs, NaN and infinities.
    const VALUES: [f64; 12] = [0.1, 3.0, -0.0, 0.0, 2.0, 0.3, 1.0e30, f64::NAN, f64::INFINITY, 0.30000001, -7.0, 0.5];

    /// The result cell and flags of `op` on `x` and `y`, the operands written lane by lane
    /// (`uniform` false: every lane computed) or as splats (one lane computes all).
    fn run(op: BinaryOp, k: Kind, x: f64, y: f64, flags: (Bits, Bits), uniform: bool) -> (Vec<u64>, Bits, bool) {
        let mut m = Machine::new(3);
        let code = binary_code(op, k, &[2], &[0], &[1]).expect("an operator of that kind");
        for (cell, v, h) in [(0, x, flags.0), (1, y, flags.1)] {
            if uniform {
                m.put_splat(cell, v, h);
            } else {
                m.put(cell, [v; LANES], h);
            }
        }
        assert_eq!(m.lane_uniform(0) && m.lane_uniform(1), uniform);
        code(&mut m);
        (m.get(2).iter().map(|v| v.to_bits()).collect(), m.hz(2), m.lane_uniform(2))
    }

    #[test]
    fn one_lane_for_all_gives_what_every_lane_gives() {
        use BinaryOp as O;
        let approx = ALL_LANES << LANES;
        let flag_sets = [(0, 0), (approx, 0), (0, ALL_LANES), (approx | ALL_LANES, approx)];
        let mut fast = 0;
        let float =
            [O::Add, O::Sub, O::Mul, O::Div, O::Rem, O::Lt, O::Le, O::Eq, O::Ne, O::Gt, O::Ge].map(|o| (o, Kind::F));
        // Integer operators carry their operands' flags only (the plain rule).
        let int = [O::Add, O::Mul, O::Lt].map(|o| (o, Kind::I));
        for (op, k) in float.into_iter().chain(int) {
            let values: Vec<f64> = match k {
                Kind::F => VALUES.to_vec(),
                _ => vec![0.0, 3.0, -7.0, 2147483647.0],
            };
            for &x in &values {
                for &y in &values {
                    for flags in flag_sets {
                        let (every, every_h, _) = run(op, k, x, y, flags, false);
                        let (one, one_h, claimed) = run(op, k, x, y, flags, true);
                        assert_eq!((&one, one_h), (&every, every_h), "{op:?} {x} {y} {flags:?}");
                        assert!(lane_uniform_flags(one_h));
                        fast += usize::from(claimed);
                    }
                }
            }
        }
        // Every result of uniform operands is itself known uniform.
        assert_eq!(fast, (11 * VALUES.len() * VALUES.len() + 3 * 16) * 4);
    }
}
