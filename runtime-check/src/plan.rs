//! The filter-chain schedule as pure data: what each pass of a preset renders, at which
//! size and format, with which frame counters, and what every texture it can read is.
//!
//! Both renderers drive their passes from this plan: the headless wgpu chain
//! ([`crate::chain`]) and the CPU reference renderer of the Cg original. It is therefore
//! independent of the shading language: textures are neutral [`Resource`]s (`Original`,
//! `History(k)`, `PassOutput(n)`, `Feedback(n)`, `Lut(i)`); the slang names
//! (`PassOutputN`, aliases, LUT ids) are mapped by [`slang_texture`] on the parser of
//! the translator's `retro::semantics` vocabulary, the Cg names (`PASSk`, `PREVk`,
//! `ORIG`) by the translator's `retro` module.
//!
//! The rules are RetroArch's slang runtime (Vulkan), as the runtime sheet
//! (shared/reference/retroarch-runtime.md §4-5 and its decisions box) states them:
//! - sizes per axis: source × f (the previous pass's output; the original for pass 0),
//!   viewport × f, or f pixels; rounded to nearest, clamped to [1, 16384]; a pass with no
//!   scale type is source × 1, or the viewport when it is the last pass;
//! - a last pass *with* a scale type renders into a framebuffer at its scale and a stock
//!   stretch pass ([`Stretch`]) draws that to the viewport (nearest, clamp to edge);
//! - formats ([`pass_format`]): the unscaled last pass renders to the output (8-bit
//!   unorm, its `#pragma format` ignored: R8G8B8A8 here, which the chain keeps as
//!   B8G8R8A8, the swapchain's order, with the same values). Every other pass renders
//!   into a framebuffer whose format the spec's [`Runtime`] decides (runtime sheet §8).
//!   Slang (RetroArch's Vulkan runtime): for a pass with a scale type sRGB > float
//!   (RGBA16F) > `#pragma format` > RGBA8 unorm, without one `#pragma format` only (the
//!   flags are ignored). Cg (RetroArch's GL runtime, which the reference renders the
//!   original by): float (RGBA32F) > sRGB > RGBA8 unorm, with or without a scale type;
//! - samplers take the filter/wrap/mip settings of the *consuming* pass: `Source` and
//!   `PassOutput(n)` those of pass n+1, `Original`/`History` those of pass 0,
//!   `Feedback(n)` pass n's own, LUTs their own (linear by default); an absent
//!   `filter_linearN` is nearest, an absent `wrap_modeN` clamp-to-border (transparent
//!   black); a pass output gets a mip chain when the pass reading it as `Source` has
//!   `mipmap_inputN`; the original never has mips (RetroArch's Vulkan runtime);
//! - history depth is the highest `History(k)` any pass reads; a pass's previous output is
//!   kept (feedback) when any pass reads `Feedback(n)`; both start cleared to transparent
//!   black; the unscaled last pass cannot be feedback (an error, as in RetroArch);
//! - `FrameCount` is the frame index modulo `frame_count_modN` when that is not 0;
//! - `MVP` is the identity for framebuffer passes (quad -1..1) and the ortho projection
//!   of [0,1]² for the pass drawn to the viewport (quad 0..1). Texture coordinates run
//!   from (0,0) at the top-left of the image to (1,1).
//!
//! **Invariant:** pure data and arithmetic. No wgpu, naga or image types, no I/O, never
//! panics; the same spec and frame always give the same plan.

use grammar::Diagnostic;
use translator::preset::{Preset, Scale, ScaleType, WrapMode};
use translator::retro::semantics::{self, TextureSemantic};

/// Largest framebuffer side RetroArch and librashader allocate.
pub const MAX_SIZE: u32 = 16384;
/// RetroArch's bound on `OriginalHistory#` (`validate_texture_semantic_index`).
pub const MAX_HISTORY: usize = 128;

/// Width and height in pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Size {
    pub width: u32,
    pub height: u32,
}

impl Size {
    pub const fn new(width: u32, height: u32) -> Size {
        Size { width, height }
    }

    /// The size uniform: (w, h, 1/w, 1/h).
    pub fn vec4(self) -> [f32; 4] {
        let (w, h) = (self.width as f32, self.height as f32);
        [w, h, 1.0 / w, 1.0 / h]
    }

    /// Mip levels of a full chain down to 1×1.
    pub fn mip_levels(self) -> u32 {
        32 - self.width.max(self.height).max(1).leading_zeros()
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A texture a pass can read, independent of how a shading language names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    /// The current input frame.
    Original,
    /// The input frame k ≥ 1 frames ago (`History(0)` is never produced: that is `Original`).
    History(usize),
    /// Pass n's output of this frame.
    PassOutput(usize),
    /// Pass n's output of the previous frame.
    Feedback(usize),
    /// LUT i of the preset.
    Lut(usize),
}

/// Sampler filter (minification = magnification; the mip filter follows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    Nearest,
    Linear,
}

impl Filter {
    pub fn from_linear(linear: bool) -> Filter {
        if linear {
            Filter::Linear
        } else {
            Filter::Nearest
        }
    }
}

/// How a texture is sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sampling {
    pub filter: Filter,
    /// Wrap on both axes; the border colour is transparent black.
    pub wrap: WrapMode,
    /// Sampled through a full mip chain (generated each frame for pass outputs).
    pub mipmap: bool,
}

impl Sampling {
    /// RetroArch's defaults: nearest, clamp to border, no mips.
    pub const DEFAULT: Sampling = Sampling { filter: Filter::Nearest, wrap: WrapMode::ClampToBorder, mipmap: false };
}

macro_rules! formats {
    ($($v:ident = $s:literal,)*) => {
        /// Render-target formats RetroArch knows (`#pragma format`, `glslang_format_to_vk`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Format { $($v,)* }

        impl Format {
            pub const ALL: &'static [Format] = &[$(Format::$v,)*];

            /// The Vulkan-style name used by `#pragma format`.
            pub fn as_str(self) -> &'static str {
                match self { $(Format::$v => $s,)* }
            }

            /// Parses a `#pragma format` name.
            pub fn parse(s: &str) -> Option<Format> {
                match s { $($s => Some(Format::$v),)* _ => None }
            }
        }
    };
}

formats! {
    R8Unorm = "R8_UNORM",
    R8Uint = "R8_UINT",
    R8Sint = "R8_SINT",
    R8G8Unorm = "R8G8_UNORM",
    R8G8Uint = "R8G8_UINT",
    R8G8Sint = "R8G8_SINT",
    R8G8B8A8Unorm = "R8G8B8A8_UNORM",
    R8G8B8A8Uint = "R8G8B8A8_UINT",
    R8G8B8A8Sint = "R8G8B8A8_SINT",
    R8G8B8A8Srgb = "R8G8B8A8_SRGB",
    A2B10G10R10UnormPack32 = "A2B10G10R10_UNORM_PACK32",
    A2B10G10R10UintPack32 = "A2B10G10R10_UINT_PACK32",
    R16Uint = "R16_UINT",
    R16Sint = "R16_SINT",
    R16Sfloat = "R16_SFLOAT",
    R16G16Uint = "R16G16_UINT",
    R16G16Sint = "R16G16_SINT",
    R16G16Sfloat = "R16G16_SFLOAT",
    R16G16B16A16Uint = "R16G16B16A16_UINT",
    R16G16B16A16Sint = "R16G16B16A16_SINT",
    R16G16B16A16Sfloat = "R16G16B16A16_SFLOAT",
    R32Uint = "R32_UINT",
    R32Sint = "R32_SINT",
    R32Sfloat = "R32_SFLOAT",
    R32G32Uint = "R32G32_UINT",
    R32G32Sint = "R32G32_SINT",
    R32G32Sfloat = "R32G32_SFLOAT",
    R32G32B32A32Uint = "R32G32B32A32_UINT",
    R32G32B32A32Sint = "R32G32B32A32_SINT",
    R32G32B32A32Sfloat = "R32G32B32A32_SFLOAT",
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One pass of the chain as the plan needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct PassSpec {
    /// `None`: no scale type (source × 1; the viewport when last).
    pub scale: Option<Scale>,
    /// `filter_linearN`, absent = nearest.
    pub filter: Filter,
    /// `wrap_modeN`, absent = clamp to border.
    pub wrap: WrapMode,
    pub mipmap_input: bool,
    pub float_framebuffer: bool,
    pub srgb_framebuffer: bool,
    /// `#pragma format` of the pass's shader.
    pub format: Option<Format>,
    /// `frame_count_modN`; `None` or `Some(0)` for none.
    pub frame_count_mod: Option<u32>,
    /// The pass's name: `aliasN`, else the shader's `#pragma name`.
    pub alias: Option<String>,
    /// The textures the pass's shaders read (sampler or size). Decides the history
    /// depth and which passes keep feedback; `Original` and `Source` need not be listed.
    pub reads: Vec<Resource>,
}

impl Default for PassSpec {
    fn default() -> PassSpec {
        PassSpec {
            scale: None,
            filter: Filter::Nearest,
            wrap: WrapMode::ClampToBorder,
            mipmap_input: false,
            float_framebuffer: false,
            srgb_framebuffer: false,
            format: None,
            frame_count_mod: None,
            alias: None,
            reads: Vec::new(),
        }
    }
}

/// One LUT.
#[derive(Clone, Debug, PartialEq)]
pub struct LutSpec {
    pub name: String,
    /// Size of the loaded image.
    pub size: Size,
    pub sampling: Sampling,
}

/// The runtime whose rules decide what a preset leaves to it: the framebuffer formats
/// ([`pass_format`]; runtime sheet §8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Runtime {
    /// RetroArch's slang runtime (Vulkan): what a migrated `.slangp` runs on.
    #[default]
    Slang,
    /// RetroArch's Cg runtime (GL): what a `.cgp` ran on.
    Cg,
}

/// The chain: passes in order and LUTs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChainSpec {
    pub passes: Vec<PassSpec>,
    pub luts: Vec<LutSpec>,
    pub runtime: Runtime,
}

impl ChainSpec {
    /// The spec of a loaded preset, run by `runtime`. `lut_sizes[i]` is the size of LUT
    /// i's image (1×1 when missing). Shader facts (`format`, `#pragma name` when no
    /// alias, `reads`) are left for the caller to fill in.
    pub fn from_preset(preset: &Preset, lut_sizes: &[Size], runtime: Runtime) -> ChainSpec {
        let passes = preset
            .passes
            .iter()
            .map(|p| PassSpec {
                scale: p.scale,
                filter: Filter::from_linear(p.filter_linear.unwrap_or(false)),
                wrap: p.wrap_mode.unwrap_or(WrapMode::ClampToBorder),
                mipmap_input: p.mipmap_input,
                float_framebuffer: p.float_framebuffer,
                srgb_framebuffer: p.srgb_framebuffer,
                format: None,
                frame_count_mod: p.frame_count_mod,
                alias: p.alias.clone(),
                reads: Vec::new(),
            })
            .collect();
        let luts = preset
            .textures
            .iter()
            .enumerate()
            .map(|(i, l)| LutSpec {
                name: l.name.clone(),
                size: lut_sizes.get(i).copied().unwrap_or(Size::new(1, 1)),
                sampling: Sampling {
                    filter: Filter::from_linear(l.linear.unwrap_or(true)),
                    wrap: l.wrap_mode.unwrap_or(WrapMode::ClampToBorder),
                    mipmap: l.mipmap,
                },
            })
            .collect();
        ChainSpec { passes, luts, runtime }
    }

    /// The alias of each pass (`None` when it has none).
    pub fn aliases(&self) -> Vec<Option<String>> {
        self.passes.iter().map(|p| p.alias.clone()).collect()
    }

    /// The LUT names, in order.
    pub fn lut_names(&self) -> Vec<String> {
        self.luts.iter().map(|l| l.name.clone()).collect()
    }
}

/// The frame being planned.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Frames rendered before this one by this chain (0 for the first). `FrameCount`
    /// derives from it; history k and feedback hold cleared images while `index < k`
    /// (resp. `index == 0`).
    pub index: u64,
    /// `FrameDirection`: +1, or -1 while rewinding.
    pub direction: i32,
    /// Size of the current input frame.
    pub input: Size,
    /// Sizes of earlier input frames, most recent first (`previous_inputs[0]` is the
    /// previous frame's). May be shorter than the history depth.
    pub previous_inputs: Vec<Size>,
    /// The final viewport.
    pub viewport: Size,
}

impl Frame {
    /// The first frame of a chain, playing forwards.
    pub fn first(input: Size, viewport: Size) -> Frame {
        Frame { index: 0, direction: 1, input, previous_inputs: Vec::new(), viewport }
    }
}

/// Where a pass draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Its own framebuffer (a [`Resource::PassOutput`]).
    Framebuffer,
    /// The final output at the viewport size.
    Viewport,
}

/// The quad RetroArch draws (positions; texture coordinates are always (0,0)..(1,1),
/// (0,0) at the top-left of the image).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quad {
    /// Positions -1..1, drawn with the identity MVP (framebuffer passes).
    Offscreen,
    /// Positions 0..1, drawn with the ortho MVP (the pass drawn to the viewport).
    Final,
}

impl Quad {
    /// The column-major MVP RetroArch sets with this quad.
    pub fn mvp(self) -> [f32; 16] {
        match self {
            Quad::Offscreen => IDENTITY,
            Quad::Final => ORTHO,
        }
    }
}

/// The identity matrix.
pub const IDENTITY: [f32; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
/// `ortho(left 0, right 1, bottom 0, top 1, near -1, far 1)`, column-major: maps [0,1]² to
/// [-1,1]² (RetroArch's default projection for the viewport pass).
pub const ORTHO: [f32; 16] = [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, -1.0, -1.0, 0.0, 1.0];

/// A texture as one pass sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureRead {
    pub resource: Resource,
    /// Size of the image (the `...Size` uniform).
    pub size: Size,
    pub sampling: Sampling,
    /// The image holds no frame yet: it is transparent black (history and feedback on
    /// the first frames).
    pub cleared: bool,
}

/// What one pass does in this frame.
#[derive(Clone, Debug, PartialEq)]
pub struct PassPlan {
    pub index: usize,
    /// What `Source` is: `Original` for pass 0, else `PassOutput(index - 1)`.
    pub source: Resource,
    pub target: Target,
    /// `OutputSize`: the framebuffer's size, or the viewport.
    pub output_size: Size,
    pub format: Format,
    /// The output gets a mip chain after it is drawn (the next pass has `mipmap_input`).
    pub mipmapped: bool,
    /// `FrameCount`, the modulo applied.
    pub frame_count: u32,
    pub frame_direction: i32,
    pub quad: Quad,
    /// `MVP`.
    pub mvp: [f32; 16],
    /// `FinalViewportSize`.
    pub final_viewport: Size,
    /// Every texture the pass can read, in a fixed order: Original, history 1.., pass
    /// outputs 0..index, feedback of every feedback pass, LUTs.
    pub textures: Vec<TextureRead>,
}

impl PassPlan {
    /// How this pass sees `resource`, if it can read it.
    pub fn read(&self, resource: Resource) -> Option<&TextureRead> {
        self.textures.iter().find(|t| t.resource == resource)
    }

    /// How this pass sees its `Source`.
    pub fn source(&self) -> Option<&TextureRead> {
        self.read(self.source)
    }
}

/// The stock pass RetroArch appends when the last pass has a scale type: it draws the
/// last pass's output to the viewport.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stretch {
    pub input: TextureRead,
    pub output_size: Size,
    pub quad: Quad,
}

/// The schedule of one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainPlan {
    pub passes: Vec<PassPlan>,
    /// Present when the last pass renders into a framebuffer (it has a scale type).
    pub stretch: Option<Stretch>,
    /// How many earlier input frames are kept (the highest `History(k)` read).
    pub history_depth: usize,
    /// The passes whose previous output is kept (read as `Feedback(n)`), ascending.
    pub feedback: Vec<usize>,
    pub viewport: Size,
}

impl ChainPlan {
    /// The size of the final image.
    pub fn output_size(&self) -> Size {
        self.viewport
    }
}

/// Why a chain cannot be planned. Each has a stable code (`E07xx`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The preset has no pass.
    NoPasses,
    /// Pass `pass` reads `PassOutput(n)` with n ≥ pass.
    NonCausal { pass: usize, n: usize },
    /// A `Feedback(n)` or `PassOutput(n)` of a pass the chain does not have.
    NoSuchPass { pass: usize, n: usize },
    /// `Feedback(n)` of the last pass, which draws straight to the viewport.
    FinalPassFeedback { pass: usize, n: usize },
    /// `History(k)` with k ≥ 128.
    HistoryTooDeep { pass: usize, k: usize },
    /// `Lut(i)` of a LUT the preset does not have.
    NoSuchLut { pass: usize, i: usize },
    /// A zero input or viewport size.
    EmptySize { what: &'static str },
}

impl PlanError {
    pub fn code(&self) -> &'static str {
        use crate::codes;
        match self {
            PlanError::NoPasses | PlanError::EmptySize { .. } => codes::E_CHAIN_PLAN,
            PlanError::NonCausal { .. } | PlanError::NoSuchPass { .. } => codes::E_CHAIN_PASS_INDEX,
            PlanError::FinalPassFeedback { .. } => codes::E_CHAIN_FINAL_FEEDBACK,
            PlanError::HistoryTooDeep { .. } | PlanError::NoSuchLut { .. } => codes::E_CHAIN_PASS_INDEX,
        }
    }

    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.code(), self.to_string())
    }
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::NoPasses => write!(f, "the chain has no pass"),
            PlanError::NonCausal { pass, n } => {
                write!(f, "pass {pass} reads PassOutput{n}, which is not drawn before it (non-causal filter chain)")
            }
            PlanError::NoSuchPass { pass, n } => {
                write!(f, "pass {pass} reads the output of pass {n}, which does not exist")
            }
            PlanError::FinalPassFeedback { pass, n } => write!(
                f,
                "pass {pass} reads PassFeedback{n}, but pass {n} is the last pass and draws to the viewport \
                 (RetroArch cannot keep its feedback; give it a scale type)"
            ),
            PlanError::HistoryTooDeep { pass, k } => {
                write!(f, "pass {pass} reads OriginalHistory{k}; RetroArch keeps at most {} frames", MAX_HISTORY - 1)
            }
            PlanError::NoSuchLut { pass, i } => write!(f, "pass {pass} reads LUT {i}, which the preset does not have"),
            PlanError::EmptySize { what } => write!(f, "the {what} size is empty"),
        }
    }
}

/// One axis of a pass's output size: `f32` arithmetic, round to nearest, clamp.
pub fn scaled(ty: ScaleType, factor: f32, source: u32, viewport: u32) -> u32 {
    let v = match ty {
        ScaleType::Source => (source as f32 * factor).round(),
        ScaleType::Viewport => (viewport as f32 * factor).round(),
        ScaleType::Absolute => factor.round(),
    };
    // NaN and negatives become 1 here.
    if v >= MAX_SIZE as f32 {
        MAX_SIZE
    } else if v >= 1.0 {
        v as u32
    } else {
        1
    }
}

/// The output size of every pass for an input of size `input` (the last pass without a
/// scale type gets the viewport).
pub fn pass_sizes(spec: &ChainSpec, input: Size, viewport: Size) -> Vec<Size> {
    let mut out = Vec::with_capacity(spec.passes.len());
    let mut source = input;
    let last = spec.passes.len().saturating_sub(1);
    for (i, p) in spec.passes.iter().enumerate() {
        let size = match p.scale {
            Some(s) => Size {
                width: scaled(s.x.0, s.x.1, source.width, viewport.width),
                height: scaled(s.y.0, s.y.1, source.height, viewport.height),
            },
            None if i == last => viewport,
            None => source,
        };
        out.push(size);
        source = size;
    }
    out
}

/// The render-target format of pass `i` under the spec's [`Runtime`] (see the module
/// docs).
pub fn pass_format(spec: &ChainSpec, i: usize) -> Format {
    let Some(p) = spec.passes.get(i) else { return Format::R8G8B8A8Unorm };
    if p.scale.is_none() && i + 1 == spec.passes.len() {
        return Format::R8G8B8A8Unorm;
    }
    let shader_format = p.format.unwrap_or(Format::R8G8B8A8Unorm);
    match spec.runtime {
        Runtime::Slang if p.scale.is_none() => shader_format,
        Runtime::Slang if p.srgb_framebuffer => Format::R8G8B8A8Srgb,
        Runtime::Slang if p.float_framebuffer => Format::R16G16B16A16Sfloat,
        Runtime::Slang => shader_format,
        Runtime::Cg if p.float_framebuffer => Format::R32G32B32A32Sfloat,
        Runtime::Cg if p.srgb_framebuffer => Format::R8G8B8A8Srgb,
        Runtime::Cg => Format::R8G8B8A8Unorm,
    }
}

/// Checks what the passes read; returns the history depth and the feedback passes.
fn requirements(spec: &ChainSpec) -> Result<(usize, Vec<usize>), Vec<PlanError>> {
    let n = spec.passes.len();
    let last_is_viewport = spec.passes.last().is_some_and(|p| p.scale.is_none());
    let mut errors = Vec::new();
    let mut depth = 0;
    let mut feedback = Vec::new();
    for (pass, p) in spec.passes.iter().enumerate() {
        for r in &p.reads {
            match *r {
                Resource::Original => {}
                Resource::History(k) if k >= MAX_HISTORY => errors.push(PlanError::HistoryTooDeep { pass, k }),
                Resource::History(k) => depth = depth.max(k),
                Resource::PassOutput(m) if m >= n => errors.push(PlanError::NoSuchPass { pass, n: m }),
                Resource::PassOutput(m) if m >= pass => errors.push(PlanError::NonCausal { pass, n: m }),
                Resource::PassOutput(_) => {}
                Resource::Feedback(m) if m >= n => errors.push(PlanError::NoSuchPass { pass, n: m }),
                Resource::Feedback(m) if m + 1 == n && last_is_viewport => {
                    errors.push(PlanError::FinalPassFeedback { pass, n: m })
                }
                Resource::Feedback(m) => {
                    if !feedback.contains(&m) {
                        feedback.push(m)
                    }
                }
                Resource::Lut(i) if i >= spec.luts.len() => errors.push(PlanError::NoSuchLut { pass, i }),
                Resource::Lut(_) => {}
            }
        }
    }
    feedback.sort_unstable();
    errors.dedup();
    if errors.is_empty() {
        Ok((depth, feedback))
    } else {
        Err(errors)
    }
}

/// Plans one frame of the chain.
pub fn plan(spec: &ChainSpec, frame: &Frame) -> Result<ChainPlan, Vec<PlanError>> {
    if spec.passes.is_empty() {
        return Err(vec![PlanError::NoPasses]);
    }
    for (what, s) in [("input", frame.input), ("viewport", frame.viewport)] {
        if s.width == 0 || s.height == 0 {
            return Err(vec![PlanError::EmptySize { what }]);
        }
    }
    let (history_depth, feedback) = requirements(spec)?;
    let n = spec.passes.len();
    let sizes = pass_sizes(spec, frame.input, frame.viewport);
    // Feedback images hold the previous frame's outputs: their sizes follow the previous input.
    let previous_sizes = match frame.previous_inputs.first() {
        Some(prev) if frame.index > 0 => pass_sizes(spec, *prev, frame.viewport),
        _ => sizes.clone(),
    };
    let last_is_viewport = spec.passes[n - 1].scale.is_none();
    let pass_sampling = |i: usize| {
        spec.passes.get(i).map_or(Sampling::DEFAULT, |p| Sampling { filter: p.filter, wrap: p.wrap, mipmap: false })
    };
    // The output of pass m is mip-mapped when pass m + 1 asks for mipmapped input.
    let mipmapped = |m: usize| spec.passes.get(m + 1).is_some_and(|p| p.mipmap_input);
    let original_sampling = pass_sampling(0);

    let mut passes = Vec::with_capacity(n);
    for (i, p) in spec.passes.iter().enumerate() {
        let mut textures = Vec::new();
        textures.push(TextureRead {
            resource: Resource::Original,
            size: frame.input,
            sampling: original_sampling,
            cleared: false,
        });
        for k in 1..=history_depth {
            let available = frame.index >= k as u64;
            let size = frame.previous_inputs.get(k - 1).copied().filter(|_| available).unwrap_or(frame.input);
            textures.push(TextureRead {
                resource: Resource::History(k),
                size,
                sampling: original_sampling,
                cleared: !available,
            });
        }
        for (m, &size) in sizes.iter().enumerate().take(i) {
            let consumer = pass_sampling(m + 1);
            textures.push(TextureRead {
                resource: Resource::PassOutput(m),
                size,
                sampling: Sampling { mipmap: mipmapped(m), ..consumer },
                cleared: false,
            });
        }
        for &m in &feedback {
            let own = pass_sampling(m);
            textures.push(TextureRead {
                resource: Resource::Feedback(m),
                size: previous_sizes[m],
                sampling: Sampling { mipmap: mipmapped(m), ..own },
                cleared: frame.index == 0,
            });
        }
        for (j, lut) in spec.luts.iter().enumerate() {
            textures.push(TextureRead {
                resource: Resource::Lut(j),
                size: lut.size,
                sampling: lut.sampling,
                cleared: false,
            });
        }
        let to_viewport = i + 1 == n && last_is_viewport;
        let quad = if to_viewport { Quad::Final } else { Quad::Offscreen };
        let frame_count = match p.frame_count_mod {
            Some(m) if m != 0 => (frame.index % u64::from(m)) as u32,
            _ => frame.index as u32,
        };
        passes.push(PassPlan {
            index: i,
            source: if i == 0 { Resource::Original } else { Resource::PassOutput(i - 1) },
            target: if to_viewport { Target::Viewport } else { Target::Framebuffer },
            output_size: sizes[i],
            format: pass_format(spec, i),
            mipmapped: !to_viewport && mipmapped(i),
            frame_count,
            frame_direction: frame.direction,
            quad,
            mvp: quad.mvp(),
            final_viewport: frame.viewport,
            textures,
        });
    }
    let stretch = (!last_is_viewport).then(|| Stretch {
        input: TextureRead {
            resource: Resource::PassOutput(n - 1),
            size: sizes[n - 1],
            sampling: Sampling { filter: Filter::Nearest, wrap: WrapMode::ClampToEdge, mipmap: false },
            cleared: false,
        },
        output_size: frame.viewport,
        quad: Quad::Final,
    });
    Ok(ChainPlan { passes, stretch, history_depth, feedback, viewport: frame.viewport })
}

/// The resource texture semantic `semantic` with index `index` stands for in pass `pass`:
/// `Source` is the previous pass's output (the original in pass 0), `OriginalHistory0`
/// the original, `User#` LUT #.
fn resource(semantic: TextureSemantic, index: u32, pass: usize) -> Resource {
    let k = usize::try_from(index).unwrap_or(usize::MAX);
    match semantic {
        TextureSemantic::Source if pass == 0 => Resource::Original,
        TextureSemantic::Source => Resource::PassOutput(pass - 1),
        TextureSemantic::Original => Resource::Original,
        TextureSemantic::OriginalHistory if k == 0 => Resource::Original,
        TextureSemantic::OriginalHistory => Resource::History(k),
        TextureSemantic::PassOutput => Resource::PassOutput(k),
        TextureSemantic::PassFeedback => Resource::Feedback(k),
        TextureSemantic::User => Resource::Lut(k),
    }
}

/// The texture a slang sampler name means in pass `pass`: pass aliases and LUT ids
/// first (an alias `X` is `PassOutput`, `XFeedback` its feedback), then the semantic
/// names as RetroArch reads them ([`semantics::parse_texture`]): `Source`, `Original`,
/// `OriginalHistory#` (0 = `Original`), `PassOutput#`, `PassFeedback#`, `User#` (LUT #).
/// `None` for any other name.
pub fn slang_texture(name: &str, pass: usize, aliases: &[Option<String>], luts: &[String]) -> Option<Resource> {
    for (n, alias) in aliases.iter().enumerate() {
        let Some(a) = alias else { continue };
        if name == a {
            return Some(Resource::PassOutput(n));
        }
        if semantics::is_alias_feedback(name, a) {
            return Some(Resource::Feedback(n));
        }
    }
    if let Some(i) = luts.iter().position(|l| l == name) {
        return Some(Resource::Lut(i));
    }
    let (semantic, index) = semantics::parse_texture(name)?;
    Some(resource(semantic, index, pass))
}

/// The texture whose size a slang `...Size` uniform name means (`SourceSize`,
/// `OriginalHistorySize#`, `<alias>Size`, `<alias>FeedbackSize`, `<lut>Size`, ...).
pub fn slang_size(name: &str, pass: usize, aliases: &[Option<String>], luts: &[String]) -> Option<Resource> {
    match semantics::parse_texture_size(name) {
        // Indexed forms put the index after "Size".
        Some((semantic, index)) if semantic.is_arrayed() => return Some(resource(semantic, index, pass)),
        // `SourceSize`, `OriginalSize`: the size of what the sampler name means.
        Some((semantic, _)) => return slang_texture(semantic.name(), pass, aliases, luts),
        None => {}
    }
    let base = semantics::size_base(name)?;
    // Only names of aliases and LUTs, never the indexed texture prefixes.
    let r = slang_texture(base, pass, aliases, luts)?;
    let named = aliases.iter().flatten().any(|a| base == a || semantics::is_alias_feedback(base, a))
        || luts.iter().any(|l| l == base);
    named.then_some(r)
}

#[cfg(test)]
mod tests;
