//! The Cg runtime's name binding, written independently of the translator's porting
//! rules, straight from the runtime sheet (§1): what RetroArch's `shader_gl_cg.c` bound to
//! each name a Cg program declares.
//!
//! * `IN.video_size`/`IN.texture_size`: the pass input's size; `IN.output_size`; the
//!   frame counters; `IN.frame_rotation` is never set (0); `IN.texture` is never set, so
//!   like every unbound sampler it reads texture unit 0, the pass input.
//! * `ORIG.*`, `PREV`/`PREV1..6` (1..7 frames back), `PASSk` (output of 0-based pass
//!   `k-1`, only `k <= p`), `PASSPREVk` (pass `p-k`, ORIG when `k = p+1`, nothing in
//!   pass 0), `FEEDBACK`, `<alias>` (earlier passes only): members `.texture`,
//!   `.video_size`, `.texture_size` and the vertex attribute `.tex_coord`.
//! * LUT samplers and `#pragma parameter` floats by id; `modelViewProj` (or
//!   `IN.mvp_matrix`); vertex attributes by semantic (`POSITION`, `TEXCOORD0`,
//!   `TEXCOORD1`, `COLOR0`) or by name (`IN.vertex_coord`, `IN.tex_coord`,
//!   `IN.lut_tex_coord`, `IN.color`).
//! * Varyings by semantic; a connector field without one links to the field of the same
//!   name in the other program (cgc allocated both by the same struct layout).
//!
//! Pure name logic; it never renders and never reads the translator's `retro` module.

use super::compile::{Leaf, Origin};
use super::inputs::PassInputs;
use super::sample::BoundTexture;
use translator::ir::{ParamDir, Semantic, Stage, Storage};

/// A per-vertex attribute of RetroArch's full-screen quad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    /// `(x, y, 0, 1)` over `(0, 0)..(1, 1)` (flipped for the on-screen pass).
    Position,
    /// A texture's coordinates `(0, 0)..(1, 1)` (video / texture size, equal here).
    TexCoord,
    /// `TEXCOORD1`: always `(0, 0)..(1, 1)`.
    LutCoord,
    /// `COLOR0`: constant white.
    Color,
}

/// A varying linked by semantic between the stages: `("TEXCOORD", 2)`, `("COLOR", 0)`.
pub type VaryingKey = (String, u32);

/// What the runtime does with one leaf.
#[derive(Clone, Debug)]
pub enum Binding {
    /// A uniform value (components in order).
    Uniform(Vec<f64>),
    /// A sampler bound to this texture.
    Sampler(BoundTexture),
    /// A vertex attribute.
    Attribute(Attribute),
    /// A fragment input fed by the vertex output with this key.
    Varying(VaryingKey),
    /// The fragment's window position (`WPOS`, fragment `POSITION`).
    FragCoord,
    /// The vertex stage's clip position.
    OutPosition,
    /// A vertex output read by the fragment stage.
    OutVarying(VaryingKey),
    /// The fragment colour.
    OutColor,
    /// An output nobody reads (`DEPTH`, `PSIZE`, `FOG`...).
    Ignored,
    /// A sampler nobody binds by name: texture unit 0 (the pass input).
    UnboundSampler,
    /// A uniform the runtime never sets: keeps its initialiser or 0.
    Unbound,
}

fn varying_key(s: &Semantic) -> Option<VaryingKey> {
    match s.base.as_str() {
        "TEXCOORD" | "TEX" => Some(("TEXCOORD".into(), s.index.unwrap_or(0))),
        "COLOR" | "COL" => Some(("COLOR".into(), s.index.unwrap_or(0))),
        _ => None,
    }
}

/// A texture role with its Cg struct members.
struct Role<'a> {
    tex: &'a BoundTexture,
}

fn size_of(t: &BoundTexture) -> Vec<f64> {
    let (w, h) = t.texture.size();
    vec![f64::from(w), f64::from(h)]
}

/// The texture a Cg struct name (`ORIG`, `PASS2`, an alias...) names in this pass.
fn role<'a>(root: &str, inp: &'a PassInputs) -> Option<Role<'a>> {
    let p = inp.pass;
    let tex = match root {
        "ORIG" => &inp.orig,
        "FEEDBACK" => inp.feedback.as_ref().unwrap_or(&inp.orig),
        "PREV" => inp.prev.first()?,
        _ => {
            if let Some(k) = numbered(root, "PASSPREV") {
                if p == 0 || k == 0 || k > p + 1 {
                    return None;
                }
                if k == p + 1 {
                    &inp.orig
                } else {
                    inp.pass_outputs.get(p - k)?
                }
            } else if let Some(k) = numbered(root, "PASS") {
                if k == 0 || k > p {
                    return None;
                }
                inp.pass_outputs.get(k - 1)?
            } else if let Some(k) = numbered(root, "PREV") {
                if !(1..=6).contains(&k) {
                    return None;
                }
                inp.prev.get(k)?
            } else {
                let i = inp.aliases.iter().take(p).position(|a| !a.is_empty() && a == root)?;
                inp.pass_outputs.get(i)?
            }
        }
    };
    Some(Role { tex })
}

/// `PASS12` with prefix `PASS` gives 12 (digits only, no sign, no leading `+`).
fn numbered(name: &str, prefix: &str) -> Option<usize> {
    let rest = name.strip_prefix(prefix)?;
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    rest.parse().ok()
}

fn source_size(inp: &PassInputs) -> Vec<f64> {
    size_of(&inp.source)
}

/// Resolves a dotted runtime name (`IN.video_size`, `ORIG.texture`, `modelViewProj`).
fn by_name(path: &str, inp: &PassInputs, is_sampler: bool) -> Option<Binding> {
    let (root, member) = match path.split_once('.') {
        Some((r, m)) => (r, Some(m)),
        None => (path, None),
    };
    let f = |v: f32| Binding::Uniform(vec![f64::from(v)]);
    match (root, member) {
        ("IN", Some(m)) => {
            return Some(match m {
                "video_size" | "texture_size" => Binding::Uniform(source_size(inp)),
                "output_size" => Binding::Uniform(vec![f64::from(inp.output_size.0), f64::from(inp.output_size.1)]),
                "frame_count" => f(inp.frame_count_value()),
                "frame_direction" => f(inp.frame_direction),
                "mvp_matrix" => Binding::Uniform(inp.mvp.iter().map(|&x| f64::from(x)).collect()),
                "vertex_coord" => Binding::Attribute(Attribute::Position),
                "tex_coord" => Binding::Attribute(Attribute::TexCoord),
                "lut_tex_coord" => Binding::Attribute(Attribute::LutCoord),
                "color" => Binding::Attribute(Attribute::Color),
                _ if is_sampler => Binding::UnboundSampler,
                _ => Binding::Unbound,
            })
        }
        ("modelViewProj", None) => return Some(Binding::Uniform(inp.mvp.iter().map(|&x| f64::from(x)).collect())),
        _ => {}
    }
    if let Some(m) = member {
        if let Some(r) = role(root, inp) {
            return Some(match m {
                "texture" => Binding::Sampler(r.tex.clone()),
                "video_size" | "texture_size" => Binding::Uniform(size_of(r.tex)),
                "tex_coord" => Binding::Attribute(Attribute::TexCoord),
                _ if is_sampler => Binding::UnboundSampler,
                _ => Binding::Unbound,
            });
        }
        return None;
    }
    if is_sampler {
        if let Some((_, t)) = inp.luts.iter().find(|(id, _)| id == root) {
            return Some(Binding::Sampler(t.clone()));
        }
        return None;
    }
    inp.parameters.iter().find(|(id, _)| id == root).map(|(_, v)| f(*v))
}

/// Decides the binding of one leaf of a stage's interface.
pub fn bind(leaf: &Leaf, stage: Stage, inp: &PassInputs) -> Binding {
    let is_sampler = leaf.ty.is_sampler();
    let sem = leaf.semantic.as_ref();
    let (output, varying_in) = match &leaf.origin {
        Origin::Return => (true, false),
        Origin::Param { dir: ParamDir::Out, .. } => (true, false),
        Origin::Param { dir, uniform, .. } => (false, !*uniform && *dir == ParamDir::In),
        Origin::Global { storage } => (false, *storage == Storage::Varying),
    };
    if output {
        let Some(s) = sem else {
            // cgc linked semantic-less connector fields of the two programs by their
            // layout; the same field names stand for the same layout.
            return match stage {
                Stage::Vertex => name_key(&leaf.path).map_or(Binding::Ignored, Binding::OutVarying),
                Stage::Fragment => Binding::Ignored,
            };
        };
        return match stage {
            Stage::Vertex if s.base == "POSITION" || s.base == "HPOS" => Binding::OutPosition,
            Stage::Vertex => varying_key(s).map_or(Binding::Ignored, Binding::OutVarying),
            Stage::Fragment if s.matches("COLOR", 0) || s.base == "COL" => Binding::OutColor,
            Stage::Fragment => Binding::Ignored,
        };
    }
    if let Some(s) = sem {
        if s.base == "TEXUNIT" && is_sampler {
            if let Some(b) = by_name(&leaf.path, inp, true) {
                return b;
            }
            return if s.index.unwrap_or(0) == 0 {
                Binding::Sampler(inp.source.clone())
            } else {
                Binding::UnboundSampler
            };
        }
        // A sampler is never a varying, even inside a varying struct with a semantic
        // (`in orig ORIG : TEXCOORD2`): the runtime binds it by name.
        if !is_sampler {
            let b = match stage {
                Stage::Vertex => match s.base.as_str() {
                    "POSITION" | "ATTR" if s.index.unwrap_or(0) == 0 => Some(Binding::Attribute(Attribute::Position)),
                    "TEXCOORD" if s.index.unwrap_or(0) == 0 => Some(Binding::Attribute(Attribute::TexCoord)),
                    "TEXCOORD" if s.index == Some(1) => Some(Binding::Attribute(Attribute::LutCoord)),
                    "COLOR" if s.index.unwrap_or(0) == 0 => Some(Binding::Attribute(Attribute::Color)),
                    _ => None,
                },
                Stage::Fragment => match s.base.as_str() {
                    "WPOS" | "POSITION" | "VPOS" => Some(Binding::FragCoord),
                    _ => varying_key(s).map(Binding::Varying),
                },
            };
            if let Some(b) = b {
                return b;
            }
        }
    }
    match by_name(&leaf.path, inp, is_sampler) {
        Some(b) => b,
        None if is_sampler => Binding::UnboundSampler,
        None if sem.is_none() && varying_in && stage == Stage::Fragment => {
            name_key(&leaf.path).map_or(Binding::Unbound, Binding::Varying)
        }
        None => Binding::Unbound,
    }
}

/// The linking key of a semantic-less varying: its field (or parameter) name.
fn name_key(path: &str) -> Option<VaryingKey> {
    let name = path.rsplit('.').next().filter(|n| !n.is_empty())?;
    Some((format!("name:{name}"), 0))
}
