//! What RetroArch's Cg runtime handed one pass, by Cg role, as plain data the caller
//! fills (the multi-pass driver, or a test): the pass input, ORIG, PREV..PREV6, the
//! outputs of earlier passes, FEEDBACK, aliases, LUTs, parameter values, the MVP matrix
//! and the frame counters. Each texture carries the sampler state the runtime used for
//! it (for `PASSk` that is the consuming pass's filter and wrap).
//!
//! Data only: nothing here resolves Cg names (that is [`super::bind`]) or renders.

use super::image::{DeviceConversions, MipChain, RgbaF32Image, StorageFormat};
use super::sample::{BoundTexture, SamplerState};
use std::sync::Arc;

/// The MVP RetroArch's Cg runtime set (`cgGLSetMatrixParameterfc` of the ortho projection
/// of `[0, 1]^2` with near -1, far 1), in Cg's row-major meaning: `mul(M, v)` maps the
/// quad vertex `v` to clip space.
pub const RETROARCH_MVP: [f32; 16] =
    [2.0, 0.0, 0.0, -1.0, 0.0, 2.0, 0.0, -1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// A texture with the sampler state the runtime bound it with.
pub fn bound(image: RgbaF32Image, state: SamplerState) -> BoundTexture {
    let chain = if state.mipmap {
        MipChain::generate(image, StorageFormat::Unorm8, &DeviceConversions::exact())
    } else {
        MipChain::single(image)
    };
    BoundTexture { texture: Arc::new(chain), state }
}

/// Everything one pass sees. `texture_size == video_size` everywhere (no power-of-two
/// padding, the project's decision for the reference renderer), so every `.tex_coord`
/// spans `(0, 0)..(1, 1)`.
#[derive(Clone, Debug)]
pub struct PassInputs {
    /// 0-based index `p` of the pass in its preset (the Cg runtime's program `p + 1`).
    pub pass: usize,
    /// The pass input (`IN.texture`, `TEXUNIT0`): the frame for pass 0, else pass `p-1`'s
    /// output, with this pass's filter and wrap.
    pub source: BoundTexture,
    /// This pass's render-target size (`IN.output_size`).
    pub output_size: (u32, u32),
    /// The global frame counter (before `frame_count_mod`).
    pub frame_count: u64,
    /// `frame_count_modN` of this pass; 0 = none.
    pub frame_count_mod: u32,
    /// 1.0, or -1.0 while rewinding.
    pub frame_direction: f32,
    /// `ORIG`: the current frame, with pass 0's sampler state.
    pub orig: BoundTexture,
    /// `PREV`, `PREV1` .. `PREV6` in that order (1 .. 7 frames back).
    pub prev: Vec<BoundTexture>,
    /// Output of each earlier pass by 0-based index (`PASSk` is `pass_outputs[k-1]`),
    /// each with the sampler state of the pass that consumes it.
    pub pass_outputs: Vec<BoundTexture>,
    /// `FEEDBACK`: the previous frame's output of `feedback_pass`; `None` binds ORIG.
    pub feedback: Option<BoundTexture>,
    /// `aliasN` of each pass by 0-based index (empty when none).
    pub aliases: Vec<String>,
    /// LUTs by id.
    pub luts: Vec<(String, BoundTexture)>,
    /// Current parameter values by id.
    pub parameters: Vec<(String, f32)>,
    /// `modelViewProj`, row-major meaning.
    pub mvp: [f32; 16],
    /// The on-screen pass: RetroArch drew it with flipped vertices into a y-up window,
    /// which flips the sign of `ddy` and the origin of `WPOS.y` relative to the image.
    pub flipped: bool,
    /// Render under the precision rule ([`super::hazard`]): one pixel per fragment quad,
    /// its lanes under different transcendental perturbations
    /// ([`super::machine::LaneShape::Perturbed`]).
    pub precision: bool,
}

impl PassInputs {
    /// A lone pass 0 reading `frame` (also ORIG, and empty history) into `output_size`.
    pub fn single(frame: RgbaF32Image, state: SamplerState, output_size: (u32, u32)) -> PassInputs {
        let (w, h) = (frame.width, frame.height);
        let tex = bound(frame, state);
        PassInputs {
            pass: 0,
            source: tex.clone(),
            output_size,
            frame_count: 0,
            frame_count_mod: 0,
            frame_direction: 1.0,
            orig: tex,
            prev: (0..7).map(|_| bound(RgbaF32Image::transparent(w, h), state)).collect(),
            pass_outputs: Vec::new(),
            feedback: None,
            aliases: vec![String::new()],
            luts: Vec::new(),
            parameters: Vec::new(),
            mvp: RETROARCH_MVP,
            flipped: false,
            precision: false,
        }
    }

    /// `IN.frame_count`: the counter modulo `frame_count_mod` when that is non-zero.
    pub fn frame_count_value(&self) -> f32 {
        let n = if self.frame_count_mod != 0 {
            self.frame_count % u64::from(self.frame_count_mod)
        } else {
            self.frame_count
        };
        n as f32
    }
}
