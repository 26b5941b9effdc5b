//! The state a compiled program runs on: a flat memory of cells, each cell one scalar
//! component for the [`LANES`] lanes of a batch of [`QUADS`] quads (`[f64; LANES]`,
//! lane `4 q + l` is lane `l` of quad `q`), the lane masks of structured control flow
//! (bitsets over all lanes), the bound textures, and the first run-time error of each
//! quad.
//!
//! Lanes keep their meaning in groups of four: a group is one 2x2 fragment quad (or the
//! four vertices, or one pixel under the four [`PERTURBATIONS`]); every operation that
//! mixes lanes (derivatives, implicit levels of detail, [`super::hazard::split`]) mixes
//! them within a group only, so every quad of a batch computes exactly what it would
//! compute alone. A batch only amortises the dispatch of each compiled closure over
//! [`QUADS`] quads.
//!
//! Values are stored canonically in `f64`: `float`/`half`/`fixed` values are exactly
//! representable binary32 numbers, `int`/`uint` exact integers, `bool` 0 or 1, `double`
//! itself, and a sampler is the index of its binding in [`Machine::textures`]. Every
//! operation rounds its result back to its type (see [`super::ops`]).
//!
//! Alongside every cell the machine keeps one word of **hazard flags** ([`Machine::hz`],
//! see [`super::hazard`]): bits `0..LANES` say, per lane, that the value depends on
//! something the GPU is free to do differently (a hazard); bits `LANES..2 LANES` that the
//! value is *approximate*
//! (a GPU may round it differently, so a decision taken on it near its threshold is a
//! hazard). Every operation ORs the flags of its operands into its result.
//!
//! A third record per cell says that it is **lane-uniform** ([`Machine::lane_uniform`]):
//! the same value, bit for bit, and the same flags in every lane (a constant, a uniform
//! and what is computed from them, a texture read of a flat region). An operator whose
//! operands are all lane-uniform computes one lane and writes it to all
//! ([`Machine::put_splat`]); outside the precision rule's render every lane would have
//! computed the same. Every write keeps the record true only where that is certain, so
//! the memory and flags are private: writers go through the methods here.
//!
//! This module holds state only; it never interprets IR and never panics (reads out of
//! the memory give 0, writes out of it are dropped).

use super::sample::BoundTexture;
use grammar::Diagnostic;

/// What [`Machine::cell`] reads outside the memory.
static ZERO_CELL: Cell = [0.0; LANES];

/// Quads per batch: every compiled closure runs on this many quads at once.
pub const QUADS: usize = 8;

/// Lanes per batch (four per quad).
pub const LANES: usize = 4 * QUADS;

/// One scalar component, for lanes `0..LANES`.
pub type Cell = [f64; LANES];

/// Runs `f(dst, x, y)` with cell `d` to write and cells `a` and `b` to read, writing
/// `d` in place when it is neither operand (no cell is copied), else through a copy of
/// the operands. A cell outside `mem` reads as 0, and a write to one is dropped.
#[inline(always)]
pub fn with_cells2<R>(
    mem: &mut [Cell],
    d: usize,
    a: usize,
    b: usize,
    f: impl FnOnce(&mut Cell, &Cell, &Cell) -> R,
) -> R {
    if d != a && d != b {
        if a == b {
            if let Ok([dst, x]) = mem.get_disjoint_mut([d, a]) {
                return f(dst, x, x);
            }
        } else if let Ok([dst, x, y]) = mem.get_disjoint_mut([d, a, b]) {
            return f(dst, x, y);
        }
    }
    let read = |i: usize| mem.get(i).copied().unwrap_or([0.0; LANES]);
    let (x, y) = (read(a), read(b));
    let mut v = [0.0; LANES];
    let r = f(&mut v, &x, &y);
    if let Some(c) = mem.get_mut(d) {
        *c = v;
    }
    r
}

/// A set of lanes (bit `l` = lane `l`), or a cell's hazard flags (bits `0..LANES` hazard,
/// `LANES..2 LANES` approximate).
pub type Bits = u64;

/// Every lane of the batch.
pub const ALL_LANES: Bits = (1 << LANES) - 1;

/// The lanes of quad `q`.
#[inline]
pub fn quad_lanes(q: usize) -> Bits {
    0xF << (4 * q)
}

/// A cell holding `v` in every lane.
#[inline]
pub fn splat(v: f64) -> Cell {
    [v; LANES]
}

/// The groups of four lanes (quads) with a bit of `b` (lanes only, `0..LANES`) set, as
/// all four lanes of each such group.
#[inline]
pub fn groups_of(b: Bits) -> Bits {
    let b = b & ALL_LANES;
    let any = (b | (b >> 1) | (b >> 2) | (b >> 3)) & GROUP_FIRST;
    any * 0xF
}

/// Lane 0 of every group.
const GROUP_FIRST: Bits = {
    let mut m = 0;
    let mut q = 0;
    while q < QUADS {
        m |= 1 << (4 * q);
        q += 1;
    }
    m
};

/// A compiled piece of program: an expression (writes its result cells) or a statement.
pub type Code = Box<dyn Fn(&mut Machine) + Send + Sync>;

/// Which stage the lanes are: four vertices, or one 2x2 fragment quad.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LaneShape {
    /// Lanes are the quad's vertices; derivatives are 0.
    Vertices,
    /// Lanes are pixels `(x, y), (x+1, y), (x, y+1), (x+1, y+1)` of the image (row 0 at
    /// the top). `ddy_sign` is +1 when GL window `y + 1` is image row `y + 1` (render to
    /// a framebuffer object) and -1 when it is row `y - 1` (the on-screen pass drawn with
    /// RetroArch's flipped vertices).
    Quad { ddy_sign: f64 },
    /// The precision rule's render: the four lanes of each group are one pixel under the
    /// four transcendental perturbations of [`PERTURBATIONS`]; derivatives are 0, and a
    /// decision whose outcome differs between the lanes of a group is a hazard
    /// ([`super::hazard::split`]).
    Perturbed,
}

/// The transcendental perturbation of each lane under [`LaneShape::Perturbed`], in
/// device error bounds: lane 0 exact, the others at the ends and the middle of the
/// interval a device may return.
pub const PERTURBATIONS: [f64; 4] = [0.0, 1.0, -1.0, 0.5];

/// Whether flags are the same in every lane: each half (hazard, approximate) all set or
/// all clear.
#[inline]
pub fn lane_uniform_flags(h: Bits) -> bool {
    let (hazard, approx) = (h & ALL_LANES, (h >> LANES) & ALL_LANES);
    (hazard == 0 || hazard == ALL_LANES) && (approx == 0 || approx == ALL_LANES)
}

/// Flags set in every lane: `hazard` and `approx` for all lanes or none.
#[inline]
pub fn flags_of_every_lane(hazard: bool, approx: bool) -> Bits {
    (if hazard { ALL_LANES } else { 0 }) | (if approx { ALL_LANES << LANES } else { 0 })
}

#[derive(Clone)]
pub struct Machine {
    mem: Vec<Cell>,
    /// Hazard flags of each cell: bit `l` = lane `l` carries a hazard, bit `LANES + l` =
    /// lane `l` is approximate (see [`super::hazard`]).
    hz: Vec<Bits>,
    /// Per cell: known to hold the same value (bit for bit) and flags
    /// ([`lane_uniform_flags`]) in every lane. Every write keeps it true only when that
    /// is certain (a splat, a whole copy of such a cell, an operator's result on such
    /// operands); false says nothing. Operators on such cells compute one lane
    /// ([`Machine::lane_uniform`]).
    uniform: Vec<bool>,
    /// Lanes whose control flow at this point depends on a hazard: every write to a place
    /// marks these lanes of the written cells, executed or not.
    pub ctl: Bits,
    /// Lanes whose whole result depends on a hazard (they left a function, loop or the
    /// invocation on a hazardous decision).
    pub sticky: Bits,
    /// Lanes executing the current statement.
    pub active: Bits,
    /// Lanes that returned from the current function.
    pub ret: Bits,
    /// Lanes that left the innermost loop or switch.
    pub brk: Bits,
    /// Lanes that continue the innermost loop.
    pub cont: Bits,
    /// Lanes that discarded (for the rest of the invocation).
    pub disc: Bits,
    pub textures: Vec<BoundTexture>,
    pub shape: LaneShape,
    /// Loop iteration cap per loop execution.
    pub loop_cap: u64,
    /// The first run-time error of the lowest quad that met one, with that quad; a quad
    /// stops (all its lanes discarded) at its error, the others run on.
    pub error: Option<(usize, Diagnostic)>,
    /// Per lane, how far the library's transcendental functions lie from their
    /// correctly rounded values, in device error bounds ([`super::hazard`]'s precision
    /// rule): all 0 except under [`LaneShape::Perturbed`] ([`PERTURBATIONS`] in each
    /// group).
    pub perturbation: Cell,
    /// Results of expensive library calls, by call site and argument bits.
    pub recall: super::recall::Recall,
}

impl Machine {
    pub fn new(cells: usize) -> Machine {
        Machine {
            mem: vec![[0.0; LANES]; cells],
            hz: vec![0; cells],
            uniform: vec![true; cells],
            ctl: 0,
            sticky: 0,
            active: ALL_LANES,
            ret: 0,
            brk: 0,
            cont: 0,
            disc: 0,
            textures: Vec::new(),
            shape: LaneShape::Vertices,
            loop_cap: 1 << 16,
            error: None,
            perturbation: [0.0; LANES],
            recall: super::recall::Recall::default(),
        }
    }

    /// Puts the lanes under the precision rule: shape [`LaneShape::Perturbed`], its
    /// perturbations in every group ([`perturbed_lanes`]).
    pub fn perturb(&mut self) {
        self.shape = LaneShape::Perturbed;
        self.perturbation = perturbed_lanes();
    }

    /// Whether the lanes are under the precision rule (the operators test this once
    /// per call, not the perturbation of every lane).
    #[inline]
    pub fn perturbed(&self) -> bool {
        matches!(self.shape, LaneShape::Perturbed)
    }

    /// Lanes not stopped by return, break, continue or discard.
    #[inline]
    pub fn alive(&self) -> Bits {
        !(self.ret | self.brk | self.cont | self.disc) & ALL_LANES
    }

    #[inline]
    pub fn get(&self, a: usize) -> Cell {
        self.mem.get(a).copied().unwrap_or([0.0; LANES])
    }

    /// Cell `a` without copying it (zeros outside the memory): a cell is 256 bytes, and
    /// the operators read two per component.
    #[inline]
    pub fn cell(&self, a: usize) -> &Cell {
        self.mem.get(a).unwrap_or(&ZERO_CELL)
    }

    /// Lane `l` of cell `a` (0 outside the memory).
    #[inline]
    pub fn at(&self, a: usize, l: usize) -> f64 {
        self.mem.get(a).and_then(|c| c.get(l)).copied().unwrap_or(0.0)
    }

    #[inline]
    pub fn set(&mut self, a: usize, v: Cell) {
        if let Some(c) = self.mem.get_mut(a) {
            *c = v;
            self.uniform[a] = false;
        }
    }

    /// Writes `v` to every lane of cell `a` (its flags unchanged).
    #[inline]
    pub fn set_splat(&mut self, a: usize, v: f64) {
        if let Some(c) = self.mem.get_mut(a) {
            *c = [v; LANES];
            self.uniform[a] = lane_uniform_flags(self.hz[a]);
        }
    }

    /// Whether cell `a` is known to hold the same value and flags in every lane (false
    /// outside the memory).
    #[inline]
    pub fn lane_uniform(&self, a: usize) -> bool {
        self.uniform.get(a).copied().unwrap_or(false)
    }

    /// Cell `a` to write in place (it stops counting as lane-uniform).
    #[inline]
    pub fn cell_mut(&mut self, a: usize) -> Option<&mut Cell> {
        let c = self.mem.get_mut(a)?;
        self.uniform[a] = false;
        Some(c)
    }

    /// The memory, for an operator that writes cell `d` in place ([`with_cells2`]; `d`
    /// stops counting as lane-uniform), and the lanes' perturbations.
    #[inline]
    pub fn memory_for(&mut self, d: usize) -> (&mut Vec<Cell>, &Cell) {
        if let Some(u) = self.uniform.get_mut(d) {
            *u = false;
        }
        (&mut self.mem, &self.perturbation)
    }

    /// The hazard flags of a cell (0 outside the memory).
    #[inline]
    pub fn hz(&self, a: usize) -> Bits {
        self.hz.get(a).copied().unwrap_or(0)
    }

    #[inline]
    pub fn set_hz(&mut self, a: usize, h: Bits) {
        if let Some(c) = self.hz.get_mut(a) {
            *c = h;
            if !lane_uniform_flags(h) {
                self.uniform[a] = false;
            }
        }
    }

    /// Writes a value and its flags.
    #[inline]
    pub fn put(&mut self, a: usize, v: Cell, h: Bits) {
        self.set(a, v);
        self.set_hz(a, h);
    }

    /// Writes a value and its flags, and finds out whether they are the same in every
    /// lane (a texture read of a flat region, a varying equal at every vertex): worth
    /// its 32 compares where what follows is a chain of operators on the value.
    #[inline(always)]
    pub fn put_detect(&mut self, a: usize, v: Cell, h: Bits) {
        let same = lane_uniform_flags(h) && v.iter().all(|x| x.to_bits() == v[0].to_bits());
        self.put(a, v, h);
        if let Some(u) = self.uniform.get_mut(a) {
            *u = same;
        }
    }

    /// Writes `v` to every lane of cell `a` with flags `h` (lane-uniform flags, see
    /// [`flags_of_every_lane`], keep the cell lane-uniform).
    #[inline]
    pub fn put_splat(&mut self, a: usize, v: f64, h: Bits) {
        if let Some(c) = self.mem.get_mut(a) {
            *c = [v; LANES];
            self.hz[a] = h;
            self.uniform[a] = lane_uniform_flags(h);
        }
    }

    /// Restores a cell saved with [`Machine::saved`].
    #[inline]
    pub fn restore(&mut self, a: usize, saved: &(Cell, Bits, bool)) {
        if let Some(c) = self.mem.get_mut(a) {
            *c = saved.0;
            self.hz[a] = saved.1;
            self.uniform[a] = saved.2;
        }
    }

    /// Cell `a`'s value, flags and lane uniformity, for [`Machine::restore`].
    pub fn saved(&self, a: usize) -> (Cell, Bits, bool) {
        (self.get(a), self.hz(a), self.lane_uniform(a))
    }

    /// Writes the lanes of `mask` only, value and flags; the lanes of [`Machine::ctl`]
    /// get the hazard bit whether written or not (their control depended on a hazard).
    #[inline]
    pub fn put_masked(&mut self, a: usize, v: Cell, h: Bits, mask: Bits) {
        self.set_masked(a, v, mask);
        if let Some(c) = self.hz.get_mut(a) {
            let both = mask | (mask << LANES);
            *c = (*c & !both) | (h & both) | self.ctl;
        }
    }

    /// Writes the lanes of `mask` only.
    #[inline]
    pub fn set_masked(&mut self, a: usize, v: Cell, mask: Bits) {
        if let Some(c) = self.mem.get_mut(a) {
            if mask & ALL_LANES == ALL_LANES {
                *c = v;
            } else if mask != 0 {
                for (l, (dst, src)) in c.iter_mut().zip(v).enumerate() {
                    if (mask >> l) & 1 != 0 {
                        *dst = src;
                    }
                }
            }
            self.uniform[a] = false;
        }
    }

    /// Copies cell `s` to cell `d`, value and flags: what `put(d, get(s), hz(s))` does,
    /// without the copy through the stack (a cell is 256 bytes); `d` is lane-uniform
    /// when `s` is.
    #[inline]
    pub fn copy(&mut self, s: usize, d: usize) {
        if s < self.mem.len() && d < self.mem.len() {
            self.mem.copy_within(s..s + 1, d);
            self.uniform[d] = self.uniform[s];
        } else {
            self.set(d, [0.0; LANES]);
        }
        self.set_hz(d, self.hz(s));
    }

    /// Copies cell `s` to cell `d` in the lanes of `mask`: what
    /// `put_masked(d, get(s), hz(s), mask)` does, without the copy through the stack. A
    /// copy of every lane of a lane-uniform cell is lane-uniform when the lanes of
    /// [`Machine::ctl`] leave its flags so.
    #[inline(always)]
    pub fn copy_masked(&mut self, s: usize, d: usize, mask: Bits) {
        let (h, n) = (self.hz(s), self.mem.len());
        let whole = mask & ALL_LANES == ALL_LANES && s < n && d < n;
        if whole {
            self.mem.copy_within(s..s + 1, d);
        } else if d < n && mask != 0 {
            let v = self.get(s);
            self.set_masked(d, v, mask);
        }
        if let Some(c) = self.hz.get_mut(d) {
            let both = mask | (mask << LANES);
            *c = (*c & !both) | (h & both) | self.ctl;
            let value = if whole { self.uniform[s] } else { self.uniform[d] };
            self.uniform[d] = value && lane_uniform_flags(*c);
        }
    }

    /// Lanes whose cell is non-zero (a bool condition), within `ALL_LANES`.
    #[inline]
    pub fn truth(&self, a: usize) -> Bits {
        let c = self.cell(a);
        let mut m = 0;
        for (l, v) in c.iter().enumerate() {
            m |= Bits::from(*v != 0.0) << l;
        }
        m
    }

    /// Records quad `q`'s error (the lowest quad's is kept) and stops every lane of it.
    pub fn fail(&mut self, q: usize, d: Diagnostic) {
        if self.error.as_ref().is_none_or(|(e, _)| q < *e) {
            self.error = Some((q, d));
        }
        self.disc |= quad_lanes(q);
        self.active &= !quad_lanes(q);
    }

    /// Clears the control masks for a new invocation.
    pub fn reset_lanes(&mut self) {
        self.active = ALL_LANES;
        self.ret = 0;
        self.brk = 0;
        self.cont = 0;
        self.disc = 0;
        self.ctl = 0;
        self.sticky = 0;
    }
}

/// [`PERTURBATIONS`] repeated in every group of four lanes.
pub fn perturbed_lanes() -> Cell {
    std::array::from_fn(|l| PERTURBATIONS[l % 4])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell that claims to be lane-uniform holds one value and lane-uniform flags.
    fn claims_hold(m: &Machine) -> bool {
        (0..m.mem.len()).all(|a| {
            !m.uniform[a]
                || (m.mem[a].iter().all(|x| x.to_bits() == m.mem[a][0].to_bits()) && lane_uniform_flags(m.hz[a]))
        })
    }

    #[test]
    fn lane_uniformity_is_claimed_only_where_it_holds() {
        let ramp: Cell = std::array::from_fn(|l| l as f64);
        let mut m = Machine::new(6);
        assert!((0..6).all(|a| m.lane_uniform(a)), "a fresh memory is zeros");
        m.set_splat(0, 2.5);
        m.put_splat(1, 4.0, flags_of_every_lane(false, true));
        assert!(m.lane_uniform(0) && m.lane_uniform(1));
        // A splat with flags that differ between lanes is not uniform.
        m.put_splat(2, 1.0, 1);
        assert!(!m.lane_uniform(2));
        // Whole copies carry the claim; a partial one, or one the control flow's hazard
        // marks in some lanes, does not.
        m.copy(1, 3);
        assert!(m.lane_uniform(3));
        m.copy_masked(0, 4, ALL_LANES);
        assert!(m.lane_uniform(4));
        m.copy_masked(0, 5, quad_lanes(0));
        assert!(!m.lane_uniform(5));
        m.ctl = 1 << 3;
        m.copy_masked(0, 4, ALL_LANES);
        assert!(!m.lane_uniform(4));
        m.ctl = 0;
        // Per-lane writes drop it; detection finds it again.
        m.set(0, ramp);
        assert!(!m.lane_uniform(0));
        m.put_detect(0, splat(7.0), 0);
        assert!(m.lane_uniform(0));
        m.put_detect(0, ramp, 0);
        assert!(!m.lane_uniform(0));
        m.put_detect(1, splat(7.0), APPROX_LANE_3);
        assert!(!m.lane_uniform(1));
        if let Some(c) = m.cell_mut(3) {
            c[5] = 9.0;
        }
        assert!(!m.lane_uniform(3));
        m.set_splat(3, 1.0);
        m.set_hz(3, 1 << 9);
        assert!(!m.lane_uniform(3), "flags that differ between lanes end the claim");
        let _ = m.memory_for(4);
        assert!(!m.lane_uniform(4));
        // Saved and restored with the cell.
        m.set_splat(5, 3.0);
        let saved = m.saved(5);
        m.set(5, ramp);
        m.restore(5, &saved);
        assert!(m.lane_uniform(5) && m.get(5) == splat(3.0));
        assert!(claims_hold(&m));
        assert!(!m.lane_uniform(99), "outside the memory");
    }

    const APPROX_LANE_3: Bits = 1 << (LANES + 3);

    #[test]
    fn cells_are_written_in_place_or_through_a_copy_with_the_same_result() {
        // Cells 0..3 hold 1, 2, 3; `d = x - y` for every way the three can coincide.
        let start = || vec![splat(1.0), splat(2.0), splat(3.0)];
        let sub = |v: &mut Cell, x: &Cell, y: &Cell| {
            for l in 0..LANES {
                v[l] = x[l] - y[l];
            }
            x[0] + y[0]
        };
        for (d, a, b, want) in [(2, 0, 1, -1.0), (0, 0, 1, -1.0), (1, 0, 1, -1.0), (2, 1, 1, 0.0), (1, 1, 1, 0.0)] {
            let mut mem = start();
            let r = with_cells2(&mut mem, d, a, b, sub);
            assert_eq!(mem[d], splat(want), "d {d} a {a} b {b}");
            assert_eq!(r, start()[a][0] + start()[b][0]);
            for other in (0..3).filter(|&i| i != d) {
                assert_eq!(mem[other], start()[other]);
            }
        }
        // Outside the memory: operands read 0, the write is dropped.
        let mut mem = start();
        assert_eq!(with_cells2(&mut mem, 9, 7, 1, sub), 2.0);
        assert_eq!(mem, start());
        with_cells2(&mut mem, 0, 8, 1, sub);
        assert_eq!(mem[0], splat(-2.0));
    }

    #[test]
    fn a_quad_that_fails_stops_alone_and_the_lowest_quad_reports() {
        let mut m = Machine::new(1);
        let d = |s: &str| Diagnostic::error("E0804", s.to_owned());
        m.fail(3, d("three"));
        assert_eq!(m.disc, quad_lanes(3));
        assert_eq!(m.active, ALL_LANES & !quad_lanes(3));
        m.fail(1, d("one"));
        m.fail(5, d("five"));
        assert_eq!(m.error.as_ref().map(|(q, e)| (*q, e.message.clone())), Some((1, "one".to_owned())));
        assert_eq!(m.alive(), ALL_LANES & !(quad_lanes(1) | quad_lanes(3) | quad_lanes(5)));
    }

    /// `copy` and `copy_masked` do what reading the cell out and putting it back does,
    /// inside the memory and across its end, under full, partial and empty masks.
    #[test]
    fn copies_equal_a_read_and_a_put() {
        let fresh = || {
            let mut m = Machine::new(4);
            for a in 0..4 {
                m.put(a, std::array::from_fn(|l| (a * 100 + l) as f64), 0b1011 << a | 1 << (LANES + a));
            }
            m.ctl = 1 << 7;
            m
        };
        for (s, d) in [(0, 2), (3, 1), (9, 1), (1, 9), (2, 2)] {
            let (mut a, mut b) = (fresh(), fresh());
            a.copy(s, d);
            let (v, h) = (b.get(s), b.hz(s));
            b.put(d, v, h);
            assert_eq!((a.mem, a.hz), (b.mem, b.hz), "copy {s} -> {d}");
            for mask in [ALL_LANES, quad_lanes(1) | 1, 0] {
                let (mut a, mut b) = (fresh(), fresh());
                a.copy_masked(s, d, mask);
                let (v, h) = (b.get(s), b.hz(s));
                b.put_masked(d, v, h, mask);
                assert_eq!((a.mem, a.hz), (b.mem, b.hz), "copy_masked {s} -> {d} under {mask:#x}");
            }
        }
    }

    #[test]
    fn groups_and_lanes() {
        assert_eq!(groups_of(0b0100), 0xF);
        assert_eq!(groups_of(1 << 5 | 1 << (LANES - 1)), quad_lanes(1) | quad_lanes(QUADS - 1));
        assert_eq!(groups_of(ALL_LANES), ALL_LANES);
        let p = perturbed_lanes();
        assert_eq!(p[4..8], PERTURBATIONS);
        let mut m = Machine::new(2);
        m.set_masked(1, splat(2.0), quad_lanes(2));
        assert_eq!(m.truth(1), quad_lanes(2));
        assert_eq!(m.at(1, 9), 2.0);
        assert_eq!(m.at(1, 0), 0.0);
        assert_eq!(m.at(7, 0), 0.0);
    }
}
