//! One pass, as RetroArch's GL + Cg runtime drew it: the vertex program runs on the four
//! vertices of the full-screen quad (`POSITION`, `TEXCOORD0`, `TEXCOORD1`, `COLOR0` as
//! RetroArch fed them, flipped vertices for the on-screen pass), the quad is rasterised
//! as the triangle strip `(0, 1, 2), (2, 1, 3)` with perspective-correct interpolation
//! at pixel centres (affine for `w = 1`), and the fragment program runs on 2x2 quads so
//! that derivatives and implicit levels of detail behave as on a GPU (helper lanes
//! outside the target run but are not stored). Uncovered and discarded pixels keep the
//! clear colour, transparent black. The covered quads of a quad row run in batches of
//! [`QUADS`] (the last batch padded with copies of its last quad, never stored); the
//! vertex stage runs its four vertices in every quad of a batch.
//!
//! The output is the raw fragment colour in `f32`; the caller applies the render
//! target's storage format. Alongside it, one hazard flag per pixel
//! ([`super::hazard`]): the colour's hazard bits or the lane's sticky bit. Fragment
//! varyings are approximate (the rasteriser interpolates them) unless equal at every
//! vertex (plane equations interpolate a constant exactly) or short dyadic values
//! interpolated with short dyadic weights whose plane slopes are short dyadics too (a
//! coordinate at the pixel centres of a power-of-two target; a dyadic weight reached
//! through a rounded slope such as 1/448 is approximate); `WPOS.xy` (pixel
//! centres) is exact, its `zw` approximate; a hazard in a vertex output reaches every
//! fragment that interpolates it, one in `POSITION` every pixel. Never panics; run-time errors (loop cap) come back as
//! diagnostics.

use super::bind::{bind, Attribute, Binding, VaryingKey};
use super::compile::{compile, Compiled};
use super::hazard::{self, approx_bit, APPROX, HAZARD};
use super::image::RgbaF32Image;
use super::inputs::PassInputs;
use super::machine::{Bits, Cell, LaneShape, Machine, LANES, QUADS};
use super::memo::{Fingerprint, KeyWriter};
use super::sample::BoundTexture;
use crate::codes;
use grammar::Diagnostic;
use rayon::prelude::*;
use translator::ir::{Module, Stage};

/// Both stages of a pass, compiled once and rendered any number of times.
pub struct PassProgram {
    vertex: Compiled,
    fragment: Compiled,
    /// `#pragma parameter` ids and initial values, in source order.
    pub parameters: Vec<(String, f32)>,
    /// The digest of what the program was compiled from (every file's path and text,
    /// and the defines), set by [`super::source`]; `None` keeps its renders out of a
    /// [`super::memo::PassMemo`].
    source: Option<Fingerprint>,
}

impl PassProgram {
    /// Compiles the vertex and fragment modules of one `.cg` (typed IR before porting).
    pub fn new(vertex: &Module, fragment: &Module) -> Result<PassProgram, Vec<Diagnostic>> {
        let v = compile(vertex);
        let f = compile(fragment);
        match (v, f) {
            (Ok(vertex), Ok(fragment)) => {
                let parameters = parameter_pragmas(&fragment_pragmas(vertex_pragmas(&vertex), &fragment.pragmas));
                Ok(PassProgram { vertex, fragment, parameters, source: None })
            }
            (v, f) => {
                let mut d = Vec::new();
                if let Err(e) = v {
                    d.extend(e);
                }
                if let Err(e) = f {
                    for x in e {
                        if !d.contains(&x) {
                            d.push(x);
                        }
                    }
                }
                Err(d)
            }
        }
    }

    /// The dotted names of both stages' interfaces (`IN.video_size`, `PREV3.texture`).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vertex.leaves.iter().chain(&self.fragment.leaves).map(|l| l.path.as_str())
    }

    /// The program known by the digest of what it was compiled from.
    pub fn with_source_fingerprint(self, source: Fingerprint) -> PassProgram {
        PassProgram { source: Some(source), ..self }
    }

    /// Warnings found while compiling.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.vertex.warnings.iter().chain(&self.fragment.warnings)
    }
}

fn vertex_pragmas(m: &Compiled) -> &[String] {
    &m.pragmas
}

fn fragment_pragmas<'a>(v: &'a [String], f: &'a [String]) -> Vec<&'a str> {
    if f.is_empty() {
        v.iter().map(String::as_str).collect()
    } else {
        f.iter().map(String::as_str).collect()
    }
}

/// `#pragma parameter ID "description" initial min max [step]`: ids and initial values
/// (a line RetroArch could not parse is skipped; the first of duplicates wins).
pub fn parameter_pragmas(lines: &[&str]) -> Vec<(String, f32)> {
    let mut out: Vec<(String, f32)> = Vec::new();
    for line in lines {
        let rest = line.trim_start().trim_start_matches('#').trim_start();
        let Some(rest) = rest.strip_prefix("pragma") else { continue };
        let Some(rest) = rest.trim_start().strip_prefix("parameter") else { continue };
        let mut it = rest.trim_start().splitn(2, char::is_whitespace);
        let (Some(id), Some(tail)) = (it.next(), it.next()) else { continue };
        let tail = tail.trim_start();
        let after = match tail.strip_prefix('"') {
            Some(t) => t.split_once('"').map_or("", |(_, a)| a),
            None => continue,
        };
        let Some(init) = after.split_whitespace().next().and_then(|x| x.parse::<f32>().ok()) else { continue };
        if !out.iter().any(|(i, _)| i == id) {
            out.push((id.to_owned(), init));
        }
    }
    out
}

/// A rendered pass.
pub struct Rendered {
    pub image: RgbaF32Image,
    /// One flag per pixel (row-major): the pixel's value depends on something a GPU may
    /// compute differently.
    pub hazard: Vec<bool>,
    /// Unbound uniforms and samplers, unfed varyings (deduplicated).
    pub warnings: Vec<Diagnostic>,
    /// Under the precision rule ([`PassInputs::precision`]): the image of each perturbed
    /// lane (perturbations 1.. of [`PERTURBATIONS`]); empty otherwise.
    pub perturbed: Vec<RgbaF32Image>,
}

/// The interface of one stage after binding.
#[derive(Default)]
struct Plan {
    attributes: Vec<(Vec<usize>, Attribute)>,
    varyings_in: Vec<(Vec<usize>, VaryingKey)>,
    frag_coord: Vec<Vec<usize>>,
    position: Vec<usize>,
    varyings_out: Vec<(Vec<usize>, VaryingKey)>,
    color: Vec<usize>,
    snapshot: Vec<(usize, (Cell, Bits, bool))>,
}

fn warn(warnings: &mut Vec<Diagnostic>, d: Diagnostic) {
    if !warnings.contains(&d) {
        warnings.push(d);
    }
}

fn prepare(c: &Compiled, stage: Stage, inp: &PassInputs, warnings: &mut Vec<Diagnostic>) -> (Machine, Plan) {
    let mut m = c.machine();
    m.textures.push(inp.source.clone());
    (c.setup)(&mut m);
    let mut plan = Plan::default();
    for leaf in &c.leaves {
        match bind(leaf, stage, inp) {
            Binding::Uniform(vals) => {
                for (cell, v) in leaf.cells.iter().zip(vals) {
                    m.set_splat(*cell, v);
                }
            }
            Binding::Sampler(t) => {
                let i = m.textures.len();
                m.textures.push(t);
                for &cell in &leaf.cells {
                    m.set_splat(cell, i as f64);
                }
            }
            Binding::UnboundSampler => {
                for &cell in &leaf.cells {
                    m.set_splat(cell, 0.0);
                }
                warn(
                    warnings,
                    Diagnostic::warning(
                        codes::W_REF_UNBOUND_SAMPLER,
                        format!(
                            "sampler `{}` is bound to nothing by the Cg runtime; it reads texture unit 0",
                            leaf.path
                        ),
                    ),
                );
            }
            Binding::Attribute(a) => match stage {
                Stage::Vertex => plan.attributes.push((leaf.cells.clone(), a)),
                Stage::Fragment => {}
            },
            Binding::Varying(k) => plan.varyings_in.push((leaf.cells.clone(), k)),
            Binding::FragCoord => plan.frag_coord.push(leaf.cells.clone()),
            Binding::OutPosition => plan.position = leaf.cells.clone(),
            Binding::OutVarying(k) => plan.varyings_out.push((leaf.cells.clone(), k)),
            Binding::OutColor => plan.color = leaf.cells.clone(),
            Binding::Ignored => {}
            Binding::Unbound => {
                if !leaf.cells.is_empty() && !leaf.path.is_empty() {
                    warn(
                        warnings,
                        Diagnostic::warning(
                            codes::W_REF_UNBOUND_UNIFORM,
                            format!("`{}` is never set by the Cg runtime; it keeps its initialiser or 0", leaf.path),
                        ),
                    );
                }
            }
        }
    }
    plan.snapshot = c.written.iter().map(|&a| (a, m.saved(a))).collect();
    (m, plan)
}

/// Puts back what the program may have overwritten in the previous invocation. Called
/// before an invocation's inputs are written: the program may assign to an input
/// parameter, so its cells are among those restored, and restoring after the inputs
/// would erase them.
fn restore(m: &mut Machine, plan: &Plan) {
    m.reset_lanes();
    for (a, saved) in &plan.snapshot {
        m.restore(*a, saved);
    }
}

/// Runs one invocation of every quad of the batch; the error of the lowest quad that met
/// one, with that quad.
fn run(c: &Compiled, m: &mut Machine) -> Result<(), (usize, Diagnostic)> {
    (c.per_invocation)(m);
    (c.entry)(m);
    match m.error.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One value at each of the four vertices.
type Corners = [f64; 4];

/// Vertex outputs: per vertex clip position, per varying per component per vertex.
struct Vertices {
    clip: [[f64; 4]; 4],
    varyings: Vec<(VaryingKey, Vec<Corners>)>,
    /// Per varying: some vertex's value carries a hazard.
    varying_hazard: Vec<bool>,
    /// Some vertex position carries a hazard.
    position_hazard: bool,
}

fn run_vertices(c: &Compiled, inp: &PassInputs, warnings: &mut Vec<Diagnostic>) -> Result<Vertices, Vec<Diagnostic>> {
    let (mut m, plan) = prepare(c, Stage::Vertex, inp, warnings);
    m.shape = LaneShape::Vertices;
    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)];
    restore(&mut m, &plan);
    for (cells, a) in &plan.attributes {
        let mut vals = [[0.0, 0.0, 0.0, 1.0]; 4];
        for (l, &(x, y)) in corners.iter().enumerate() {
            vals[l] = match a {
                Attribute::Position => {
                    let y = if inp.flipped { 1.0 - y } else { y };
                    [x, y, 0.0, 1.0]
                }
                Attribute::TexCoord | Attribute::LutCoord => [x, y, 0.0, 1.0],
                Attribute::Color => [1.0; 4],
            };
        }
        // Every quad of the batch runs the same four vertices.
        for (k, &cell) in cells.iter().enumerate().take(4) {
            m.set(cell, std::array::from_fn(|l| vals[l % 4][k]));
        }
    }
    run(c, &mut m).map_err(|(_, e)| vec![e])?;
    let mut clip = [[0.0, 0.0, 0.0, 1.0]; 4];
    for (k, &cell) in plan.position.iter().enumerate().take(4) {
        let v = m.get(cell);
        for (l, cl) in clip.iter_mut().enumerate() {
            cl[k] = v[l];
        }
    }
    if plan.position.is_empty() {
        return Err(vec![Diagnostic::error(codes::E_REF_INPUT, "the vertex program writes no POSITION")]);
    }
    let corners = |a: usize| -> Corners {
        let v = m.get(a);
        [v[0], v[1], v[2], v[3]]
    };
    let varyings =
        plan.varyings_out.iter().map(|(cells, k)| (k.clone(), cells.iter().map(|&a| corners(a)).collect())).collect();
    // Quad 0's lanes (every quad ran the same vertices).
    let hazardous = |cells: &[usize]| m.sticky & 0xF != 0 || cells.iter().any(|&a| m.hz(a) & HAZARD & 0xF != 0);
    let varying_hazard = plan.varyings_out.iter().map(|(cells, _)| hazardous(cells)).collect();
    let position_hazard = hazardous(&plan.position);
    Ok(Vertices { clip, varyings, varying_hazard, position_hazard })
}

/// Screen position (image coordinates, y down) and `1/w` of each vertex.
fn screen(v: &Vertices, size: (u32, u32), flipped: bool) -> [[f64; 3]; 4] {
    let (w, h) = (f64::from(size.0), f64::from(size.1));
    v.clip.map(|c| {
        let iw = 1.0 / c[3];
        let (nx, ny) = (c[0] * iw, c[1] * iw);
        let sy = if flipped { (1.0 - ny) * 0.5 * h } else { (ny + 1.0) * 0.5 * h };
        [(nx + 1.0) * 0.5 * w, sy, iw]
    })
}

/// The weights of the four vertices at one pixel centre.
#[derive(Clone, Copy)]
struct Weights {
    /// Perspective-correct, one per vertex (zero off the covering triangle).
    w: [f64; 4],
    /// Whether the pixel centre lies inside the covering triangle.
    inside: bool,
    /// Per vertex, whether a GPU computes its weight exactly where the weight itself is a
    /// short dyadic: the triangle is affine (equal `w` at its vertices) and the weight's
    /// slopes in x and in y are short dyadics, so its plane equation `A x + B y + C`
    /// carries no rounding. A weight that happens to be dyadic at this pixel is not
    /// enough: over 448 rows the slope 1/448 is rounded, and the row whose exact weight
    /// is 7/896 gets a rounded one on the GPU.
    exact: [bool; 4],
}

/// One triangle of the quad, set up once per pass: its vertices (indices into the
/// four), their screen positions, its doubled signed area and which of its vertices'
/// weights a GPU computes exactly ([`Weights::exact`]).
#[derive(Clone, Copy)]
struct Triangle {
    v: [usize; 3],
    p: [[f64; 3]; 3],
    area: f64,
    exact: [bool; 4],
}

/// The quad's two triangles (`0 1 2`, then `2 1 3`); `None` for a degenerate one.
struct Raster {
    tris: [Option<Triangle>; 2],
}

impl Raster {
    fn new(s: &[[f64; 3]; 4]) -> Raster {
        let tri = |a: usize, b: usize, c: usize| -> Option<Triangle> {
            let (pa, pb, pc) = (s[a], s[b], s[c]);
            let area = (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pc[0] - pa[0]) * (pb[1] - pa[1]);
            if area == 0.0 || !area.is_finite() {
                return None;
            }
            // The slopes (d/dx, d/dy) of the three weights.
            let slopes = [
                ((pb[1] - pc[1]) / area, (pc[0] - pb[0]) / area),
                ((pc[1] - pa[1]) / area, (pa[0] - pc[0]) / area),
                ((pa[1] - pb[1]) / area, (pb[0] - pa[0]) / area),
            ];
            let affine = pa[2] == pb[2] && pb[2] == pc[2];
            let exact_slope = |(dx, dy): (f64, f64)| affine && short_dyadic(dx) && short_dyadic(dy);
            let mut exact = [false; 4];
            exact[a] = exact_slope(slopes[0]);
            exact[b] = exact_slope(slopes[1]);
            exact[c] = exact_slope(slopes[2]);
            Some(Triangle { v: [a, b, c], p: [pa, pb, pc], area, exact })
        };
        Raster { tris: [tri(0, 1, 2), tri(2, 1, 3)] }
    }

    /// Perspective-correct weights of the four vertices at `(x, y)`, and coverage.
    fn weights(&self, x: f64, y: f64) -> Weights {
        let at = |t: &Triangle| -> Weights {
            let ([pa, pb, pc], [a, b, c]) = (t.p, t.v);
            let l0 = ((pb[0] - x) * (pc[1] - y) - (pc[0] - x) * (pb[1] - y)) / t.area;
            let l1 = ((pc[0] - x) * (pa[1] - y) - (pa[0] - x) * (pc[1] - y)) / t.area;
            let l2 = 1.0 - l0 - l1;
            let eps = -1e-9;
            let inside = l0 >= eps && l1 >= eps && l2 >= eps;
            let (q0, q1, q2) = (l0 * pa[2], l1 * pb[2], l2 * pc[2]);
            let sum = q0 + q1 + q2;
            let mut w = [0.0; 4];
            w[a] = q0 / sum;
            w[b] = q1 / sum;
            w[c] = q2 / sum;
            Weights { w, inside, exact: t.exact }
        };
        let first = self.tris[0].as_ref().map(at);
        if let Some(w) = first.as_ref().filter(|w| w.inside) {
            return *w;
        }
        let second = self.tris[1].as_ref().map(at);
        if let Some(w) = second.as_ref().filter(|w| w.inside) {
            return *w;
        }
        match first.or(second) {
            Some(w) => Weights { inside: false, ..w },
            None => Weights { w: [0.0; 4], inside: false, exact: [false; 4] },
        }
    }
}

/// A fragment input: its cells, the vertex values feeding it, how each component
/// interpolates.
type Feed = (Vec<usize>, Option<Vec<Corners>>, Vec<Interp>);

/// How a varying component interpolates (the hazard bits it carries from the vertices).
#[derive(Clone, Copy)]
enum Interp {
    /// Equal at every vertex: exact.
    Exact(Bits),
    /// Short dyadic vertex values: exact where [`exact_interpolation`] says so.
    Dyadic(Bits),
    /// Approximate.
    Approx(Bits),
}

/// A multiple of 2^-16 below 2^16 in magnitude: products and sums of a few are exact
/// in binary32.
fn short_dyadic(x: f64) -> bool {
    x.abs() < 65536.0 && hazard::is_integer(x * 65536.0)
}

/// An interpolation `a_b + sum_i w_i (a_i - a_b)` over the covering triangle (the
/// vertices with a weight) is exact on any GPU when, for some base vertex `b`, every
/// other vertex either has the base's value or a short dyadic weight computed exactly
/// (`exact`, see [`Weights::exact`]): each term is then exact (a texture coordinate at
/// the pixel centres of a power-of-two target). `exact_dyadic[i]` is `exact[i]` and
/// `w[i]` a short dyadic ([`exact_dyadic_weights`], once per pixel for all varyings).
fn exact_interpolation(w: &[f64; 4], exact_dyadic: &[bool; 4], vals: &[f64; 4]) -> bool {
    (0..4)
        .filter(|&b| w[b] != 0.0)
        .any(|b| (0..4).all(|i| i == b || w[i] == 0.0 || vals[i] == vals[b] || exact_dyadic[i]))
}

/// Per vertex: its weight `w[i]` is computed exactly (`exact[i]`) and a short dyadic.
fn exact_dyadic_weights(w: &[f64; 4], exact: &[bool; 4]) -> [bool; 4] {
    std::array::from_fn(|i| exact[i] && short_dyadic(w[i]))
}

/// The one or two image rows a quad row covers, as parts of the pass's own buffers:
/// pixels, hazard flags and, under the precision rule only, the perturbed lanes' pixels
/// (empty otherwise).
struct QuadRow<'a> {
    qy: u32,
    pixels: &'a mut [[f32; 4]],
    hazard: &'a mut [bool],
    perturbed: &'a mut [[[f32; 4]; 3]],
}

/// Lane `l`'s colour from the COLOR cells (alpha 1 where the program writes fewer
/// than four components).
fn lane_colour(col: &[Cell], l: usize) -> [f32; 4] {
    let mut px = [0.0, 0.0, 0.0, 1.0];
    for (k, cc) in col.iter().enumerate().take(4) {
        px[k] = cc[l] as f32;
    }
    px
}

/// One quad to run: its position and, per lane, the pixel centre, the weights of the
/// vertices there, and coverage.
#[derive(Clone, Copy)]
struct QuadAt {
    qx: u32,
    covered: [bool; 4],
    ws: [[f64; 4]; 4],
    /// Per lane, per vertex: the weight is exact and a short dyadic.
    exact_weights: [[bool; 4]; 4],
    pos: [[f64; 2]; 4],
}

/// What every quad of a pass shares.
struct Fragments<'a> {
    c: &'a Compiled,
    plan: &'a Plan,
    feeds: &'a [Feed],
    verts: &'a Vertices,
    scr: &'a [[f64; 3]; 4],
    raster: Raster,
    inp: &'a PassInputs,
    /// Pixels per quad side: 2, or 1 under the precision rule (one pixel per quad).
    quad: u32,
}

impl Fragments<'_> {
    /// Pixel of lane `l` of the quad at `(qx, qy)`.
    fn lane_pixel(&self, qx: u32, qy: u32, l: usize) -> (u32, u32) {
        if self.quad == 1 {
            (qx, qy)
        } else {
            (qx + (l as u32 & 1), qy + (l as u32 >> 1))
        }
    }

    /// The quad at `(qx, qy)`, `None` when no lane of it is covered (it never runs).
    fn quad_at(&self, qx: u32, qy: u32) -> Option<QuadAt> {
        let mut q =
            QuadAt { qx, covered: [false; 4], ws: [[0.0; 4]; 4], exact_weights: [[false; 4]; 4], pos: [[0.0; 2]; 4] };
        for l in 0..4 {
            let (x, y) = self.lane_pixel(qx, qy, l);
            let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let at = self.raster.weights(px, py);
            q.ws[l] = at.w;
            q.exact_weights[l] = exact_dyadic_weights(&at.w, &at.exact);
            q.covered[l] = at.inside;
            q.pos[l] = [px, py];
        }
        q.covered.iter().any(|&c| c).then_some(q)
    }

    /// Writes the interpolated varyings and `WPOS` of a batch of quads (`batch[g]` in
    /// lanes `4 g..4 g + 4`).
    fn write_inputs(&self, m: &mut Machine, batch: &[QuadAt; QUADS]) {
        for (cells, src, flags) in self.feeds {
            for (k, &cell) in cells.iter().enumerate() {
                let mut out = [0.0; LANES];
                let mut exact_lanes: Bits = 0;
                // Which lanes interpolate exactly matters for dyadic components only.
                let dyadic = matches!(flags.get(k), Some(Interp::Dyadic(_)));
                let vals = src.as_ref().and_then(|s| s.get(k));
                if let Some(vals) = vals {
                    for (i, q) in batch.iter().enumerate() {
                        for l in 0..4 {
                            let w = q.ws[l];
                            let v = w[0] * vals[0] + w[1] * vals[1] + w[2] * vals[2] + w[3] * vals[3];
                            if dyadic && exact_interpolation(&w, &q.exact_weights[l], vals) {
                                exact_lanes |= 1 << (4 * i + l);
                            }
                            out[4 * i + l] = v as f32 as f64;
                        }
                    }
                }
                let h = match flags.get(k) {
                    Some(Interp::Exact(h)) => *h,
                    Some(Interp::Dyadic(h)) => *h | (APPROX & !(exact_lanes << LANES)),
                    Some(Interp::Approx(h)) => *h | APPROX,
                    None => APPROX,
                };
                // Under the precision rule an interpolated value moves by an ulp of the
                // vertex values feeding it.
                if let Some(vals) = vals.filter(|_| m.perturbed()) {
                    for (i, q) in batch.iter().enumerate() {
                        for l in 0..4 {
                            let gl = 4 * i + l;
                            if h & approx_bit(gl) != 0 {
                                let scale =
                                    (0..4).filter(|&j| q.ws[l][j] != 0.0).map(|j| vals[j].abs()).fold(0.0, f64::max);
                                out[gl] = hazard::nudge_interpolated(out[gl], m.perturbation[gl], scale);
                            }
                        }
                    }
                }
                m.put_detect(cell, out, h);
            }
        }
        let fh = f64::from(self.inp.output_size.1);
        for cells in &self.plan.frag_coord {
            let mut v = [[0.0; LANES]; 4];
            for (i, q) in batch.iter().enumerate() {
                for l in 0..4 {
                    let gl = 4 * i + l;
                    let gl_y = if self.inp.flipped { fh - q.pos[l][1] } else { q.pos[l][1] };
                    let w = q.ws[l];
                    let clip = &self.verts.clip;
                    let z: f64 = (0..4).map(|j| w[j] * (clip[j][2] / clip[j][3] * 0.5 + 0.5)).sum();
                    let iw: f64 = (0..4).map(|j| w[j] * self.scr[j][2]).sum();
                    let at = [q.pos[l][0], gl_y, z, iw];
                    for (vk, a) in v.iter_mut().zip(at) {
                        vk[gl] = a;
                    }
                }
            }
            for (k, &cell) in cells.iter().enumerate().take(4) {
                let flags = if k < 2 { 0 } else { APPROX };
                m.put(cell, v[k].map(|x| x as f32 as f64), flags);
            }
        }
    }

    /// Stores the outputs of the first `real` quads of a batch into `row`.
    fn store(&self, m: &Machine, batch: &[QuadAt; QUADS], real: usize, row: &mut QuadRow) {
        let qy = row.qy;
        let (width, height) = self.inp.output_size;
        // The COLOR cells (at most four are read).
        let mut colour = [[0.0f64; LANES]; 4];
        for (c, &a) in colour.iter_mut().zip(&self.plan.color) {
            *c = m.get(a);
        }
        let col = &colour[..self.plan.color.len().min(4)];
        let col_hazard = self.plan.color.iter().fold(m.sticky, |h, &a| h | m.hz(a)) & HAZARD;
        for (i, q) in batch.iter().enumerate().take(real) {
            let base = 4 * i;
            if self.quad == 1 {
                // One pixel: its lanes' hazards are one, and its perturbed colours are
                // kept for the driver to compare as stored.
                let at = q.qx as usize;
                if let Some(h) = row.hazard.get_mut(at) {
                    *h |= (col_hazard >> base) & 0xF != 0;
                }
                if let Some(p) = row.perturbed.get_mut(at) {
                    for (k, lane) in p.iter_mut().enumerate() {
                        if m.disc & (1 << (base + k + 1)) == 0 {
                            *lane = lane_colour(col, base + k + 1);
                        }
                    }
                }
            }
            for (l, &inside) in q.covered.iter().enumerate() {
                let (x, y) = self.lane_pixel(q.qx, qy, l);
                if x >= width || y >= height || !inside || (self.quad == 1 && l > 0) {
                    continue;
                }
                let at = (y - qy) as usize * width as usize + x as usize;
                if let Some(h) = row.hazard.get_mut(at) {
                    *h |= col_hazard & (1 << (base + l)) != 0;
                }
                if m.disc & (1 << (base + l)) != 0 {
                    continue;
                }
                if let Some(p) = row.pixels.get_mut(at) {
                    *p = lane_colour(col, base + l);
                }
            }
        }
    }

    /// Renders the quad row `row` on `m`: its covered quads in batches of [`QUADS`].
    fn row(&self, m: &mut Machine, row: &mut QuadRow) -> Result<(), Diagnostic> {
        let (width, qy) = (self.inp.output_size.0, row.qy);
        let quads: Vec<QuadAt> = (0..width).step_by(self.quad as usize).filter_map(|qx| self.quad_at(qx, qy)).collect();
        for chunk in quads.chunks(QUADS) {
            let Some(&last) = chunk.last() else { continue };
            // The tail batch is padded with copies of its last quad: they compute what it
            // computes, and are neither stored nor reported.
            let batch: [QuadAt; QUADS] = std::array::from_fn(|i| chunk.get(i).copied().unwrap_or(last));
            restore(m, self.plan);
            self.write_inputs(m, &batch);
            match run(self.c, m) {
                Err((q, e)) if q < chunk.len() => return Err(e),
                _ => {}
            }
            self.store(m, &batch, chunk.len(), row);
        }
        Ok(())
    }
}

/// What a render of `prog` with `inp` reads, as one fingerprint: the program's source,
/// the pass input (texture unit 0), the target size, the on-screen flip, the precision
/// rule and, for every name of both stages in order, what the runtime binds to it
/// ([`bind`]: each uniform's value, each texture's fingerprint and sampler state).
/// Everything [`render_pass`] reads goes through these, so equal keys render equal
/// images, hazard maps and perturbed images. `None` for a program without a source
/// fingerprint.
pub fn render_key(prog: &PassProgram, inp: &PassInputs) -> Option<Fingerprint> {
    let mut k = KeyWriter::new("pass");
    k.fingerprint(prog.source?);
    let texture = |k: &mut KeyWriter, t: &BoundTexture| {
        k.fingerprint(t.texture.fingerprint());
        k.tag(u8::from(t.state.linear));
        k.tag(u8::from(t.state.mipmap));
        k.str(t.state.wrap.as_str());
    };
    texture(&mut k, &inp.source);
    k.u32(inp.output_size.0);
    k.u32(inp.output_size.1);
    k.tag(u8::from(inp.flipped));
    k.tag(u8::from(inp.precision));
    for (c, stage) in [(&prog.vertex, Stage::Vertex), (&prog.fragment, Stage::Fragment)] {
        k.u64(c.leaves.len() as u64);
        for leaf in &c.leaves {
            match bind(leaf, stage, inp) {
                Binding::Uniform(values) => {
                    k.tag(0);
                    k.u64(values.len() as u64);
                    values.iter().for_each(|v| k.u64(v.to_bits()));
                }
                Binding::Sampler(t) => {
                    k.tag(1);
                    texture(&mut k, &t);
                }
                Binding::Attribute(a) => {
                    k.tag(2);
                    k.tag(a as u8);
                }
                Binding::Varying((name, index)) => {
                    k.tag(3);
                    k.str(&name);
                    k.u32(index);
                }
                Binding::OutVarying((name, index)) => {
                    k.tag(4);
                    k.str(&name);
                    k.u32(index);
                }
                Binding::FragCoord => k.tag(5),
                Binding::OutPosition => k.tag(6),
                Binding::OutColor => k.tag(7),
                Binding::Ignored => k.tag(8),
                Binding::UnboundSampler => k.tag(9),
                Binding::Unbound => k.tag(10),
            }
        }
    }
    Some(k.finish())
}

/// Renders one pass into an image of `inputs.output_size` (raw fragment colours), its
/// quad rows in parallel.
pub fn render_pass(prog: &PassProgram, inp: &PassInputs) -> Result<Rendered, Vec<Diagnostic>> {
    let (width, height) = inp.output_size;
    if width == 0 || height == 0 || width > 16384 || height > 16384 {
        return Err(vec![Diagnostic::error(
            codes::E_REF_INPUT,
            format!("output size {width}x{height} is outside 1..=16384"),
        )]);
    }
    let mut warnings: Vec<Diagnostic> = prog.warnings().cloned().collect();
    let verts = run_vertices(&prog.vertex, inp, &mut warnings)?;
    let scr = screen(&verts, inp.output_size, inp.flipped);
    let c = &prog.fragment;
    let (mut m, plan) = prepare(c, Stage::Fragment, inp, &mut warnings);
    if plan.color.is_empty() {
        return Err(vec![Diagnostic::error(codes::E_REF_INPUT, "the fragment program writes no COLOR")]);
    }
    m.shape = LaneShape::Quad { ddy_sign: if inp.flipped { -1.0 } else { 1.0 } };
    // Under the precision rule each "quad" is one pixel, its lanes perturbed apart.
    let quad = if inp.precision {
        m.perturb();
        1
    } else {
        2
    };
    let feeds = feeds(&plan, &verts, &mut warnings);
    let frags =
        Fragments { c, plan: &plan, feeds: &feeds, verts: &verts, scr: &scr, raster: Raster::new(&scr), inp, quad };
    // Quad rows are independent (every invocation starts from the restored snapshot), so
    // they run in parallel, each on a copy of the machine taken from a pool and put back
    // after the row: a copy per row (or per piece rayon splits the rows into) would cost
    // more than the row, since a machine holds every cell for a whole batch; the pool
    // holds at most one copy per worker that ran a row at once. The first error in row
    // order is the one a row-major loop meets first.
    // Every quad row writes its part of the pass's buffers in place. Pixels that no
    // fragment writes keep the clear colour, transparent black.
    let n = width as usize * height as usize;
    let mut pixels = vec![[0.0f32; 4]; n];
    let mut hazard = vec![verts.position_hazard; n];
    let mut lanes = if inp.precision { vec![[[0.0f32; 4]; 3]; n] } else { Vec::new() };
    let per_row = width as usize * quad as usize;
    let (mut p, mut h, mut l) = (pixels.chunks_mut(per_row), hazard.chunks_mut(per_row), lanes.chunks_mut(per_row));
    let mut rows: Vec<QuadRow> = (0..height)
        .step_by(quad as usize)
        .map(|qy| QuadRow {
            qy,
            pixels: p.next().unwrap_or_default(),
            hazard: h.next().unwrap_or_default(),
            perturbed: l.next().unwrap_or_default(),
        })
        .collect();
    let machines: std::sync::Mutex<Vec<Machine>> = std::sync::Mutex::new(Vec::new());
    let take = || machines.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
    let results = rows
        .par_iter_mut()
        .map(|row| {
            let mut copy = take().unwrap_or_else(|| m.clone());
            let done = frags.row(&mut copy, row);
            machines.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(copy);
            done
        })
        .collect::<Vec<Result<(), Diagnostic>>>();
    drop(rows);
    if let Some(Err(e)) = results.into_iter().find(Result::is_err) {
        return Err(vec![e]);
    }
    let image = RgbaF32Image { width, height, pixels };
    let perturbed: Vec<RgbaF32Image> = if inp.precision {
        (0..3).map(|k| RgbaF32Image { width, height, pixels: lanes.iter().map(|p| p[k]).collect() }).collect()
    } else {
        Vec::new()
    };
    Ok(Rendered { image, hazard, warnings, perturbed })
}

/// Each fragment input: its cells, the vertex values feeding it, how it interpolates.
fn feeds(plan: &Plan, verts: &Vertices, warnings: &mut Vec<Diagnostic>) -> Vec<Feed> {
    let mut feeds: Vec<Feed> = Vec::new();
    for (cells, key) in &plan.varyings_in {
        let found = verts.varyings.iter().position(|(k, _)| k == key);
        let src = found.and_then(|i| verts.varyings.get(i)).map(|(_, v)| v.clone());
        let vh = found.and_then(|i| verts.varying_hazard.get(i)).copied().unwrap_or(false);
        let hazard = if vh || verts.position_hazard { HAZARD } else { 0 };
        // A component equal at every vertex interpolates exactly (plane equations with
        // zero slopes); one whose vertex values are short dyadics is exact where the
        // pixel's weights are (see `exact_weights`); any other is approximate.
        let flags = (0..cells.len())
            .map(|k| match src.as_ref().and_then(|s| s.get(k)) {
                None => Interp::Exact(hazard),
                Some(v) if v.iter().all(|&x| x == v[0]) => Interp::Exact(hazard),
                Some(v) if v.iter().all(|&x| short_dyadic(x)) => Interp::Dyadic(hazard),
                Some(_) => Interp::Approx(hazard),
            })
            .collect();
        if src.is_none() {
            warn(
                warnings,
                Diagnostic::warning(
                    codes::W_REF_UNFED_VARYING,
                    format!("fragment input {}{} is written by no vertex output; it reads 0", key.0, key.1),
                ),
            );
        }
        feeds.push((cells.clone(), src, flags));
    }
    feeds
}
