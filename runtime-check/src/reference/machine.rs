//! The state a compiled program runs on: a flat memory of cells, each cell one scalar
//! component for the four lanes of a quad (`[f64; 4]`), the lane masks of structured
//! control flow, the bound textures, and the first run-time error.
//!
//! Values are stored canonically in `f64`: `float`/`half`/`fixed` values are exactly
//! representable binary32 numbers, `int`/`uint` exact integers, `bool` 0 or 1, `double`
//! itself, and a sampler is the index of its binding in [`Machine::textures`]. Every
//! operation rounds its result back to its type (see [`super::ops`]).
//!
//! Alongside every cell the machine keeps one byte of **hazard flags** ([`Machine::hz`],
//! see [`super::hazard`]): bits 0..4 say, per lane, that the value depends on something
//! the GPU is free to do differently (a hazard); bits 4..8 that the value is *approximate*
//! (a GPU may round it differently, so a decision taken on it near its threshold is a
//! hazard). Every operation ORs the flags of its operands into its result.
//!
//! This module holds state only; it never interprets IR and never panics (reads out of
//! the memory give 0, writes out of it are dropped).

use super::sample::BoundTexture;
use grammar::Diagnostic;

/// One scalar component, for lanes 0..4.
pub type Cell = [f64; 4];

/// All four lanes.
pub const ALL_LANES: u8 = 0b1111;

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
    /// The precision rule's render: the four lanes are one pixel under the four
    /// transcendental perturbations of [`PERTURBATIONS`]; derivatives are 0, and a
    /// decision whose outcome differs between the lanes is a hazard
    /// ([`super::hazard::split`]).
    Perturbed,
}

/// The transcendental perturbation of each lane under [`LaneShape::Perturbed`], in
/// device error bounds: lane 0 exact, the others at the ends and the middle of the
/// interval a device may return.
pub const PERTURBATIONS: [f64; 4] = [0.0, 1.0, -1.0, 0.5];

#[derive(Clone)]
pub struct Machine {
    pub mem: Vec<Cell>,
    /// Hazard flags of each cell: bit `l` = lane `l` carries a hazard, bit `4 + l` = lane
    /// `l` is approximate (see [`super::hazard`]).
    pub hz: Vec<u8>,
    /// Lanes whose control flow at this point depends on a hazard (low nibble): every
    /// write to a place marks these lanes of the written cells, executed or not.
    pub ctl: u8,
    /// Lanes whose whole result depends on a hazard (they left a function, loop or the
    /// invocation on a hazardous decision).
    pub sticky: u8,
    /// Lanes executing the current statement.
    pub active: u8,
    /// Lanes that returned from the current function.
    pub ret: u8,
    /// Lanes that left the innermost loop or switch.
    pub brk: u8,
    /// Lanes that continue the innermost loop.
    pub cont: u8,
    /// Lanes that discarded (for the rest of the invocation).
    pub disc: u8,
    pub textures: Vec<BoundTexture>,
    pub shape: LaneShape,
    /// Loop iteration cap per loop execution.
    pub loop_cap: u64,
    /// The first run-time error; the program stops writing once it is set.
    pub error: Option<Diagnostic>,
    /// Per lane, how far the library's transcendental functions lie from their
    /// correctly rounded values, in device error bounds ([`super::hazard`]'s precision
    /// rule): all 0 except under [`LaneShape::Perturbed`].
    pub perturbation: [f64; 4],
}

impl Machine {
    pub fn new(cells: usize) -> Machine {
        Machine {
            mem: vec![[0.0; 4]; cells],
            hz: vec![0; cells],
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
            perturbation: [0.0; 4],
        }
    }

    /// Lanes not stopped by return, break, continue or discard.
    #[inline]
    pub fn alive(&self) -> u8 {
        !(self.ret | self.brk | self.cont | self.disc) & ALL_LANES
    }

    #[inline]
    pub fn get(&self, a: usize) -> Cell {
        self.mem.get(a).copied().unwrap_or([0.0; 4])
    }

    #[inline]
    pub fn set(&mut self, a: usize, v: Cell) {
        if let Some(c) = self.mem.get_mut(a) {
            *c = v;
        }
    }

    /// The hazard flags of a cell (0 outside the memory).
    #[inline]
    pub fn hz(&self, a: usize) -> u8 {
        self.hz.get(a).copied().unwrap_or(0)
    }

    #[inline]
    pub fn set_hz(&mut self, a: usize, h: u8) {
        if let Some(c) = self.hz.get_mut(a) {
            *c = h;
        }
    }

    /// Writes a value and its flags.
    #[inline]
    pub fn put(&mut self, a: usize, v: Cell, h: u8) {
        self.set(a, v);
        self.set_hz(a, h);
    }

    /// Writes the lanes of `mask` only, value and flags; the lanes of [`Machine::ctl`]
    /// get the hazard bit whether written or not (their control depended on a hazard).
    #[inline]
    pub fn put_masked(&mut self, a: usize, v: Cell, h: u8, mask: u8) {
        self.set_masked(a, v, mask);
        if let Some(c) = self.hz.get_mut(a) {
            let both = mask | (mask << 4);
            *c = (*c & !both) | (h & both) | self.ctl;
        }
    }

    /// Writes the lanes of `mask` only.
    #[inline]
    pub fn set_masked(&mut self, a: usize, v: Cell, mask: u8) {
        if let Some(c) = self.mem.get_mut(a) {
            if mask == ALL_LANES {
                *c = v;
            } else {
                for (l, (dst, src)) in c.iter_mut().zip(v).enumerate() {
                    if mask & (1 << l) != 0 {
                        *dst = src;
                    }
                }
            }
        }
    }

    /// Lanes whose cell is non-zero (a bool condition), within `ALL_LANES`.
    #[inline]
    pub fn truth(&self, a: usize) -> u8 {
        let c = self.get(a);
        let mut m = 0;
        for (l, v) in c.iter().enumerate() {
            if *v != 0.0 {
                m |= 1 << l;
            }
        }
        m
    }

    /// Records the first error and stops every lane.
    pub fn fail(&mut self, d: Diagnostic) {
        if self.error.is_none() {
            self.error = Some(d);
        }
        self.disc = ALL_LANES;
        self.active = 0;
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
