//! Texture lookups: every `tex1D*`, `tex2D*`, `tex3D*` and `texRECT*` form of the Cg
//! library, on the 2D textures RetroArch binds. A sampler value is an index into
//! [`Machine::textures`]; an index with no texture reads `(0, 0, 0, 0)`.
//!
//! Decisions (RetroArch binds only 2D textures): `tex1D*` reads the 2D texture at
//! `(u, 0.5)`; `tex3D*` reads it at `(x, y)`; `texRECT*` divides by the level-0 size;
//! shadow forms ignore the reference (see `translator::ir::builtin`); the implicit level of
//! detail uses the fine derivatives of the (projected) coordinates across each quad of
//! the batch (never across two quads); cube
//! maps are not supported (`E0802`). Never panics.
//!
//! Hazards ([`crate::reference::hazard`]): a lookup carries its coordinates' flags,
//! the hazard of the texels it reads and of a nearest read at a texel boundary
//! ([`sample::sample_hazard`]), and, for an implicit or biased level of detail on a
//! mipmapped texture, a hazard where coarse derivatives would read a different value
//! or the `NEAREST_MIPMAP_NEAREST` level lies within rounding of `k + 0.5`.

use super::Compiler;
use crate::reference::hazard::{self, approx_bit, hazard_bit, HAZARD};
use crate::reference::machine::{Bits, Code, LaneShape, Machine, ALL_LANES, LANES};
use crate::reference::sample::{self, lod_from_derivatives};
use grammar::Span;
use translator::ir::{Builtin as B, Type};

#[derive(Clone, Copy, PartialEq)]
enum Dim {
    D1,
    D2,
    D3,
    Rect,
}

#[derive(Clone, Copy, PartialEq)]
enum Lod {
    Implicit,
    /// Bias in component `.w` of the coordinate argument.
    Bias,
    /// Bias in argument 2 (GLSL's `texture2DProj(s, c, bias)`).
    BiasArg,
    /// Level in `.w`.
    Level,
    /// Derivatives in arguments 2 and 3.
    Grad,
    /// Unfiltered texel, level in `.w`.
    Fetch,
    /// `*size(s, lod)`.
    Size,
    /// `tex2Dgather(s, uv, [offset,] comp)`: four texels of level 0, one component.
    Gather,
}

struct Spec {
    dim: Dim,
    lod: Lod,
    /// Component of the coordinate argument to divide by.
    proj: Option<usize>,
}

fn spec(b: B) -> Option<Spec> {
    use Dim::*;
    use Lod::*;
    let s = |dim, lod, proj| Some(Spec { dim, lod, proj });
    match b {
        B::Tex1D | B::Tex1DShadow => s(D1, Implicit, None),
        B::Tex1DGrad | B::Tex1DShadowGrad => s(D1, Grad, None),
        B::Tex1DBias | B::Tex1DCmpBias => s(D1, Bias, None),
        B::Tex1DLod | B::Tex1DCmpLod => s(D1, Level, None),
        B::Tex1DProj => s(D1, Implicit, Some(1)),
        B::Tex1DProjShadow => s(D1, Implicit, Some(2)),
        B::Tex1DFetch => s(D1, Fetch, None),
        B::Tex1DSize => s(D1, Size, None),
        B::Tex2D | B::Tex2DShadow => s(D2, Implicit, None),
        B::Tex2DGrad | B::Tex2DShadowGrad => s(D2, Grad, None),
        B::Tex2DBias | B::Tex2DCmpBias => s(D2, Bias, None),
        B::Tex2DLod | B::Tex2DCmpLod => s(D2, Level, None),
        B::Tex2DProj => s(D2, Implicit, Some(2)),
        B::Tex2DProjShadow => s(D2, Implicit, Some(3)),
        B::Texture2DProjBias => s(D2, BiasArg, Some(2)),
        B::Texture2DProj4Bias => s(D2, BiasArg, Some(3)),
        B::Tex2DFetch | B::Tex2DFetchOffset => s(D2, Fetch, None),
        B::Tex2DSize => s(D2, Size, None),
        B::Tex2DGather | B::Tex2DGatherOffset => s(D2, Gather, None),
        B::Tex3D => s(D3, Implicit, None),
        B::Tex3DGrad => s(D3, Grad, None),
        B::Tex3DBias => s(D3, Bias, None),
        B::Tex3DLod => s(D3, Level, None),
        B::Tex3DProj => s(D3, Implicit, Some(3)),
        B::Tex3DFetch => s(D3, Fetch, None),
        B::Tex3DSize => s(D3, Size, None),
        B::TexRect | B::TexRectShadow | B::TexRectGrad | B::TexRectShadowGrad | B::TexRectBias | B::TexRectLod => {
            s(Rect, Level, None)
        }
        B::TexRectProj => s(Rect, Level, Some(2)),
        B::TexRectProjShadow => s(Rect, Level, Some(3)),
        B::TexRectFetch => s(Rect, Fetch, None),
        B::TexRectSize => s(Rect, Size, None),
        _ => None,
    }
}

/// Whether `b` is a texture lookup (this module sets its flags).
pub(crate) fn is_texture(b: B) -> bool {
    spec(b).is_some()
}

#[versioned::versioned]
pub(crate) fn compile(
    c: &mut Compiler,
    b: B,
    locs: &[Vec<usize>],
    tys: &[Type],
    dst: &[usize],
    span: Span,
) -> Option<Code> {
    let Some(spec) = spec(b) else {
        c.unsupported(format!("`{}` (RetroArch binds no cube maps)", b.name()), span);
        return None;
    };
    let zero = c.constant(0.0);
    let get = |i: usize, k: usize| locs.get(i).and_then(|a| a.get(k)).copied().unwrap_or(zero);
    let sampler = get(0, 0);
    // texelFetchOffset(s, int2 p, int lod, int2 offset): the texel at p + offset of level
    // lod, read as tex2Dfetch reads int4(p, 0, lod).
    let fetch_offset = b == B::Tex2DFetchOffset;
    let dim1 = spec.dim == Dim::D1;
    let coord: [usize; 4] = if fetch_offset {
        [get(1, 0), get(1, 1), zero, get(2, 0)]
    } else {
        [get(1, 0), get(1, 1), get(1, 2), get(1, 3)]
    };
    // gp4 texel offsets: a trailing int/int2 argument of a sampling form (see
    // `translator::ir::builtin`); gather's offset is its argument 2 of type int2.
    let integral = |t: Option<&Type>| t.and_then(|t| t.scalar()).is_some_and(|s| s.is_integral());
    let sample_offset =
        !matches!(spec.lod, Lod::Fetch | Lod::Size | Lod::Gather) && tys.len() > 2 && integral(tys.last());
    let gather_offset = b == B::Tex2DGatherOffset;
    let offset: [usize; 2] = if fetch_offset {
        [get(3, 0), get(3, 1)]
    } else if sample_offset {
        let last = tys.len() - 1;
        [get(last, 0), if dim1 { zero } else { get(last, 1) }]
    } else if gather_offset {
        [get(2, 0), get(2, 1)]
    } else {
        [zero, zero]
    };
    let gather_comp = if gather_offset { get(3, 0) } else { get(2, 0) };
    let grads: [usize; 4] = [get(2, 0), get(2, 1), get(3, 0), get(3, 1)];
    let bias_arg = get(2, 0);
    let dst: Vec<usize> = dst.to_vec();
    // A 2D lookup at an implicit level of detail, without projection or offset: the
    // common `tex2D(s, uv)`, which has a shorter path ([`plain_lookup`]).
    let plain = spec.dim == Dim::D2 && spec.lod == Lod::Implicit && spec.proj.is_none() && offset == [zero, zero];
    Some(Box::new(move |m: &mut Machine| {
        let mut hin = coord.iter().chain(&offset).fold(0 as Bits, |h, &a| h | m.hz(a));
        if spec.lod == Lod::Grad {
            hin = grads.iter().fold(hin, |h, &a| h | m.hz(a));
        }
        if spec.lod == Lod::BiasArg {
            hin |= m.hz(bias_arg);
        }
        // A lookup's value is exact unless filtered: only the coordinates' hazard carries.
        let mut hout = hin & HAZARD;
        if plain && plain_lookup(m, sampler, coord, &dst, hout) {
            return;
        }
        let s = m.get(sampler);
        let cc = coord.map(|a| m.get(a));
        if spec.lod == Lod::Size {
            for l in 0..LANES {
                let (w, h) = texture_size(m, s[l], cc[0][l]);
                let d = if spec.dim == Dim::D3 { 1.0 } else { 0.0 };
                let vals = [w, if dim1 { 0.0 } else { h }, d, 0.0];
                for (k, &dd) in dst.iter().enumerate().take(3) {
                    if let Some(cell) = m.cell_mut(dd) {
                        cell[l] = vals[k];
                    }
                    m.set_hz(dd, hin);
                }
            }
            return;
        }
        // Coordinates per lane (normalised, except fetch: texel units).
        let mut u = [0.0f64; LANES];
        let mut v = [0.5f64; LANES];
        for l in 0..LANES {
            let q = spec.proj.map_or(1.0, |p| cc[p][l]);
            u[l] = cc[0][l] / q;
            if !dim1 {
                v[l] = cc[1][l] / q;
            }
            if spec.dim == Dim::Rect && spec.lod != Lod::Fetch {
                let (w, h) = texture_size(m, s[l], 0.0);
                u[l] /= w.max(1.0);
                v[l] /= h.max(1.0);
            }
        }
        let mut out = [[0.0f64; LANES]; 4];
        // The coarse level of detail of the last quad that computed one, with the size
        // of the texture it was computed for (every lane of a quad has the same).
        let mut coarse_of_quad: Option<(usize, (u32, u32), f64)> = None;
        for l in 0..LANES {
            // The read at the fine level of detail (value, hazard, approximate), when the
            // hazard rule made it at the lane's own coordinates.
            let mut fine_read = None;
            let Some(tex) = m.textures.get(s[l] as usize).filter(|_| s[l] >= 0.0) else { continue };
            let off = (m.at(offset[0], l), m.at(offset[1], l));
            let axis = |k: usize| {
                let q = spec.proj.map_or(0, |p| m.hz(coord[p]));
                (m.hz(coord[k]) | q) & approx_bit(l) != 0
            };
            let approx_uv = (axis(0), if dim1 { false } else { axis(1) });
            let texel = if spec.lod == Lod::Gather {
                let ap = |k: usize| m.hz(coord[k]) & approx_bit(l) != 0;
                let o = (off.0 as i64, off.1 as i64);
                if sample::gather_hazard(tex, u[l], v[l], o, (ap(0), ap(1))) {
                    hout |= hazard_bit(l);
                }
                let comp = m.at(gather_comp, l);
                sample::gather(tex, u[l], v[l], o, if comp > 0.0 { comp as usize } else { 0 })
            } else if spec.lod == Lod::Fetch {
                let (ox, oy) = (m.at(offset[0], l) as i64, m.at(offset[1], l) as i64);
                let y = if dim1 { 0 } else { cc[1][l] as i64 + oy };
                let (x, lv) = (cc[0][l] as i64 + ox, cc[3][l] as i64);
                if x >= 0 && y >= 0 && lv >= 0 && tex.texture.texel_hazard(lv as usize, x as u32, y as u32) {
                    hout |= hazard_bit(l);
                }
                sample::fetch(&tex.texture, lv, x, y)
            } else {
                let size = tex.texture.size();
                let lod = match spec.lod {
                    // RECT textures have one level: their bias and lod have no effect.
                    Lod::Level if spec.dim == Dim::Rect => 0.0,
                    Lod::Level => cc[3][l],
                    Lod::Grad => {
                        let g = grads.map(|a| m.at(a, l));
                        if dim1 {
                            lod_from_derivatives(size, (g[0], 0.0), (grads_dy1(m, &grads, l), 0.0))
                        } else {
                            lod_from_derivatives(size, (g[0], g[1]), (g[2], g[3]))
                        }
                    }
                    Lod::Implicit | Lod::Bias | Lod::BiasArg => {
                        let bias = match spec.lod {
                            Lod::Bias => cc[3][l],
                            Lod::BiasArg => m.at(bias_arg, l),
                            _ => 0.0,
                        };
                        let base = match m.shape {
                            LaneShape::Vertices | LaneShape::Perturbed => 0.0,
                            // Without mip levels the level of detail is never read.
                            LaneShape::Quad { .. } if !(tex.state.mipmap && tex.texture.levels.len() > 1) => 0.0,
                            LaneShape::Quad { .. } => {
                                // Within the lane's quad (lanes `q..q + 4`).
                                let q = l & !3;
                                let (a, b) = (l & !1, l | 1);
                                let (t, bo) = (q | (l & 1), q | (l & 1) | 2);
                                let dx = (u[b] - u[a], v[b] - v[a]);
                                let dy = (u[bo] - u[t], v[bo] - v[t]);
                                let fine = lod_from_derivatives(size, dx, dy);
                                if tex.state.mipmap && tex.texture.levels.len() > 1 {
                                    // Coarse derivatives: row 0's dx, column 0's dy.
                                    let coarse = match coarse_of_quad {
                                        Some((cq, csize, c)) if cq == q && csize == size => c,
                                        _ => {
                                            let cdx = (u[q + 1] - u[q], v[q + 1] - v[q]);
                                            let cdy = (u[q + 2] - u[q], v[q + 2] - v[q]);
                                            let c = lod_from_derivatives(size, cdx, cdy);
                                            coarse_of_quad = Some((q, size, c));
                                            c
                                        }
                                    };
                                    // The fine read is the lookup's own when no offset moves
                                    // it: its hazard is read with it.
                                    let a = if off == (0.0, 0.0) {
                                        let read = sample::sample_with_hazard(tex, u[l], v[l], fine + bias, approx_uv);
                                        fine_read = Some(read);
                                        read.0
                                    } else {
                                        sample::sample(tex, u[l], v[l], fine + bias)
                                    };
                                    // Equal levels read equal texels: nothing to compare.
                                    let b =
                                        if coarse == fine { a } else { sample::sample(tex, u[l], v[l], coarse + bias) };
                                    if a != b
                                        && !(a.iter().zip(&b).all(|(x, y)| hazard::near(f64::from(*x), f64::from(*y))))
                                    {
                                        hout |= hazard_bit(l);
                                    }
                                }
                                fine
                            }
                        };
                        base + bias
                    }
                    Lod::Fetch | Lod::Size | Lod::Gather => 0.0,
                };
                let mipmapped = tex.state.mipmap && tex.texture.levels.len() > 1;
                if mipmapped && !tex.state.linear && lod > 0.0 && hazard::half_step(lod, true) {
                    hout |= hazard_bit(l);
                }
                // The texel offset, in texels of level 0, after the level was chosen (on a
                // coarser level GPUs offset by that level's texels: approximate).
                let (uo, vo) = if off == (0.0, 0.0) {
                    (u[l], v[l])
                } else {
                    if mipmapped && lod > 0.0 {
                        hout |= approx_bit(l);
                    }
                    let (w, h) = tex.texture.size();
                    (u[l] + off.0 / f64::from(w.max(1)), v[l] + off.1 / f64::from(h.max(1)))
                };
                let (texel, h, approx) = match fine_read {
                    // The same read (`lod` is `fine + bias`, no offset moved the coordinate).
                    Some(read) => read,
                    None => sample::sample_with_hazard(tex, uo, vo, lod, approx_uv),
                };
                if h {
                    hout |= hazard_bit(l);
                }
                if approx || (mipmapped && lod > 0.0) {
                    hout |= approx_bit(l);
                }
                texel
            };
            for k in 0..4 {
                out[k][l] = f64::from(texel[k]);
            }
        }
        for (k, &d) in dst.iter().enumerate().take(4) {
            m.put_detect(d, out[k], hout);
        }
    }))
}

/// `tex2D(s, uv)` where `s` is the same texture in every lane and that texture has no
/// mip levels to choose from (the level of detail is then never read): each lane's
/// read is [`sample::sample_with_hazard`] at level of detail 0, exactly what the
/// general path computes for it ([`sample::level0_with_hazard`]), without the per-lane
/// sampler, offset and level decisions. `hout`: the result's flags so far (the coordinates' hazards). Returns
/// false, having written nothing, when the lookup is not of that kind.
#[inline(always)]
fn plain_lookup(m: &mut Machine, sampler: usize, coord: [usize; 4], dst: &[usize], mut hout: Bits) -> bool {
    if !m.lane_uniform(sampler) {
        return false;
    }
    let s = m.at(sampler, 0);
    let Some(tex) = m.textures.get(s as usize).filter(|_| s >= 0.0) else { return false };
    if tex.state.mipmap && tex.texture.levels.len() > 1 {
        return false;
    }
    let (cu, cv) = (m.cell(coord[0]), m.cell(coord[1]));
    let (hu, hv) = (m.hz(coord[0]), m.hz(coord[1]));
    // Filtered reads are approximate, in every lane (`sample::level0_with_hazard`).
    if tex.state.linear {
        hout |= ALL_LANES << LANES;
    }
    let mut out = [[0.0f64; LANES]; 4];
    for l in 0..LANES {
        // As the general path divides by the projection's 1.
        let (u, v) = (cu[l] / 1.0, cv[l] / 1.0);
        let approx_uv = (hu & approx_bit(l) != 0, hv & approx_bit(l) != 0);
        let (texel, h) = sample::level0_with_hazard(tex, u, v, approx_uv);
        if h {
            hout |= hazard_bit(l);
        }
        for k in 0..4 {
            out[k][l] = f64::from(texel[k]);
        }
    }
    for (k, &d) in dst.iter().enumerate().take(4) {
        m.put_detect(d, out[k], hout);
    }
    true
}

/// For 1D gradient forms the `dy` argument is argument 3's first component.
fn grads_dy1(m: &Machine, grads: &[usize; 4], l: usize) -> f64 {
    m.at(grads[2], l)
}

/// `(width, height)` of `level` of the texture behind a sampler value (0 when none).
fn texture_size(m: &Machine, sampler: f64, level: f64) -> (f64, f64) {
    let Some(tex) = m.textures.get(sampler as usize).filter(|_| sampler >= 0.0) else { return (0.0, 0.0) };
    let level = if level.is_finite() && level >= 0.0 { level as usize } else { 0 };
    match tex.texture.levels.get(level) {
        Some(img) => (f64::from(img.width), f64::from(img.height)),
        None => {
            let (w, h) = tex.texture.size();
            let sh = level.min(31) as u32;
            (f64::from((w >> sh).max(1)), f64::from((h >> sh).max(1)))
        }
    }
}
