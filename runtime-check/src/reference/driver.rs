//! The multi-pass driver: renders a whole `.cgp` over several frames on the CPU, the
//! passes scheduled by [`crate::plan`] (sizes, formats, targets, frame counters, history
//! depth, feedback, and the sampler state of every texture a pass reads), each pass run
//! by [`super::pass`] with the Cg runtime's inputs filled from that schedule.
//!
//! Cg-runtime specifics applied on top of the plan (runtime sheet §1): the MVP is always
//! RetroArch's ortho projection of the `[0, 1]^2` quad; the pass drawn to the viewport
//! uses flipped vertices (`flipped`); `FEEDBACK` is the previous frame's output of
//! `feedback_pass`, or the current ORIG when the preset has none (or it names the
//! unscaled last pass); PREV..PREV6 before enough frames exist are transparent black.
//! The plan's storage formats and sampler states are used as they are (the slang
//! runtime's choices, so that old and new are compared under the same chain state).
//!
//! Hazards ([`super::hazard`]): every pass output keeps its pixels' hazard map (through
//! its mip levels, as feedback to the next frame, and into the stock stretch pass), so
//! a pass that reads a hazardous texel inherits it; [`render_preset_detailed`] returns
//! the final map and every pass's output and map of the last frame.
//!
//! Reads `.cg` files through the given file system and LUT PNGs from disk (unless the
//! caller passes them); never panics; failures are diagnostics.

use super::image::{DeviceConversions, MipChain, RgbaF32Image, StorageFormat};
use super::inputs::{PassInputs, RETROARCH_MVP};
use super::memo::{KeyWriter, PassMemo};
use super::pass::{render_key, render_pass, PassProgram};
use super::png::load_png;
use super::sample::{BoundTexture, SamplerState};
use super::source::{analyze_cg, analyze_cg_str};
use crate::codes;
use crate::plan::{self, ChainSpec, Filter, Format, Frame, Resource, Runtime, Sampling, Size, Target};
use grammar::{Diagnostic, FileSystem, MemoryFs, SourceMap};
use std::sync::Arc;
use translator::preset::Preset;

/// What to render.
pub struct PresetRender<'a> {
    pub preset: &'a Preset,
    /// Reads the `.cg` files (and their includes).
    pub fs: &'a dyn FileSystem,
    /// The input frame of each frame index (frame `i` uses `frames[i % len]`).
    pub frames: &'a [RgbaF32Image],
    /// The viewport (final output) size.
    pub viewport: (u32, u32),
    /// How many frames to render; the result is the last one's output.
    pub frame_count: usize,
    /// Parameter overrides (over the preset's values over the `#pragma` defaults).
    pub parameters: &'a [(String, f32)],
    /// The LUT images by `textures` index; `None` loads each LUT's PNG from disk.
    pub luts: Option<&'a [RgbaF32Image]>,
    /// How the GPU compared against reads 8-bit textures back (exact by default): the
    /// input frames, the LUTs and the UNORM and sRGB pass outputs.
    pub conversions: DeviceConversions,
    /// Render under the precision rule ([`super::hazard`]): every fragment pixel also
    /// under perturbed transcendentals, and the pixels those move by more than
    /// [`super::hazard::PRECISION_STEPS`] stored steps marked hazardous. Slower (one
    /// pixel per quad); the images are the exact ones except where a derivative is
    /// involved (0 under the rule), so only the hazard maps are meant to be used.
    pub precision: bool,
    /// Pass outputs of the last frame that later passes read instead of the
    /// reference's own, by pass index (another renderer's, as read back exactly: sRGB
    /// decoded by the transfer function; read here through `conversions`); empty for a
    /// plain render. [`PresetOutput::passes`] keeps each pass's own output, so that
    /// every pass can be compared on the other renderer's inputs.
    pub replaced: &'a [RgbaF32Image],
    /// Pass outputs already rendered by other presets of the run, reused when a pass
    /// would read exactly the same things ([`super::memo`]); not used while
    /// `replaced` is non-empty.
    pub memo: Option<&'a PassMemo>,
}

/// The stock pass RetroArch appended to stretch a scaled last pass to the viewport.
const STOCK: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj,\n\
    out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0) { oPosition = mul(modelViewProj, position); oTex = tex; }\n\
    float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR { return tex2D(s, tex); }\n";

fn storage(format: Format) -> StorageFormat {
    let name = format.as_str();
    if name.ends_with("_SRGB") {
        StorageFormat::Srgb8
    } else if name.ends_with("_UNORM") || name.ends_with("_UNORM_PACK32") {
        StorageFormat::Unorm8
    } else if name.starts_with("R16") && name.ends_with("SFLOAT") {
        StorageFormat::Float16
    } else {
        StorageFormat::Float32
    }
}

fn state(s: Sampling) -> SamplerState {
    SamplerState { linear: s.filter == Filter::Linear, wrap: s.wrap, mipmap: s.mipmap }
}

fn texture(image: &Arc<MipChain>, s: Sampling) -> BoundTexture {
    BoundTexture { texture: image.clone(), state: state(s) }
}

fn size(img: &RgbaF32Image) -> Size {
    Size::new(img.width, img.height)
}

fn err(msg: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::error(codes::E_REF_INPUT, msg)]
}

/// Which history depth and feedback a compiled pass reads, from its Cg names.
fn reads(prog: &PassProgram, feedback_pass: Option<usize>, n: usize) -> Vec<Resource> {
    let mut out = Vec::new();
    for name in prog.names() {
        let root = name.split('.').next().unwrap_or("");
        if root == "PREV" {
            out.push(Resource::History(1));
        } else if let Some(k) = root.strip_prefix("PREV").and_then(|d| d.parse::<usize>().ok()) {
            if (1..=6).contains(&k) {
                out.push(Resource::History(k + 1));
            }
        } else if root == "FEEDBACK" {
            if let Some(f) = feedback_pass.filter(|&f| f < n) {
                out.push(Resource::Feedback(f));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// One pass's output of the last frame.
pub struct PassOutput {
    /// The render target after its storage format: level 0 of the chain later passes
    /// read (shared, not copied: a [`super::memo::PassMemo`] may hold it too), or the
    /// reference's own output where later passes read another renderer's.
    level0: Level0,
    /// One flag per pixel: hazardous (see [`super::hazard`]).
    pub hazard: Vec<bool>,
    /// The target's storage format (`image` holds what a shader reads back: decoded
    /// linear values for sRGB).
    pub storage: StorageFormat,
    /// The device conversions `image` was read back through.
    pub conversions: DeviceConversions,
}

/// Where a [`PassOutput`]'s image is.
enum Level0 {
    /// Level 0 of this chain (which has one).
    Chain(Arc<MipChain>),
    Own(RgbaF32Image),
}

impl PassOutput {
    /// The render target after its storage format (level 0; what a shader reads back:
    /// decoded linear values for sRGB).
    pub fn image(&self) -> &RgbaF32Image {
        static EMPTY: RgbaF32Image = RgbaF32Image { width: 0, height: 0, pixels: Vec::new() };
        match &self.level0 {
            Level0::Chain(c) => c.base().unwrap_or(&EMPTY),
            Level0::Own(i) => i,
        }
    }

    /// The output as its target stores it: 8-bit channels as their stored bytes
    /// (`k / 255`, sRGB colour encoded), float formats as read back.
    pub fn stored(&self) -> RgbaF32Image {
        as_stored(self.image(), self.storage, &self.conversions)
    }
}

/// An image read back through `conversions` from a target of format `storage`, as the target
/// stores it: 8-bit channels as their bytes (`k / 255`, sRGB colour encoded), float
/// formats as they are.
pub fn as_stored(image: &RgbaF32Image, storage: StorageFormat, conversions: &DeviceConversions) -> RgbaF32Image {
    let d = conversions;
    let pixels = match storage {
        StorageFormat::Srgb8 => image
            .pixels
            .iter()
            .map(|p| [d.srgb_encoded(p[0]), d.srgb_encoded(p[1]), d.srgb_encoded(p[2]), d.unorm_stored(p[3])])
            .collect(),
        StorageFormat::Unorm8 => image.pixels.iter().map(|p| p.map(|c| d.unorm_stored(c))).collect(),
        StorageFormat::Float16 | StorageFormat::Float32 => return image.clone(),
    };
    RgbaF32Image { width: image.width, height: image.height, pixels }
}

/// A whole preset's render: the viewport image, its hazard map, and every pass of the
/// last frame.
pub struct PresetOutput {
    /// The last frame at viewport size (8-bit quantised, as the swapchain stores it).
    pub image: RgbaF32Image,
    /// One flag per pixel of `image`.
    pub hazard: Vec<bool>,
    /// Each pass's output of the last frame, in pass order.
    pub passes: Vec<PassOutput>,
}

/// History images a pass can read: `PREV` to `PREV6`.
const HISTORY_DEPTH: usize = 7;

/// The first frame the render visits: frame 0 when a pass reads a feedback image (a
/// pass output carried between frames), the [`HISTORY_DEPTH`] frames before the last
/// when a pass reads the history (their input frames only: the history is the chain's
/// input, nothing of theirs is rendered), else the last frame itself. Every other input
/// of a frame (its image, `FrameCount`, sizes) is computed from its index alone, so
/// skipping the earlier frames is exact.
fn first_frame(spec: &ChainSpec, frame_count: usize) -> usize {
    let reads = |which: fn(&Resource) -> bool| spec.passes.iter().any(|p| p.reads.iter().any(which));
    let last = frame_count.saturating_sub(1);
    if reads(|r| matches!(r, Resource::Feedback(_))) {
        0
    } else if reads(|r| matches!(r, Resource::History(_))) {
        last.saturating_sub(HISTORY_DEPTH)
    } else {
        last
    }
}

/// How many passes of frame `f` are rendered: all of the last frame; of an earlier one,
/// those up to the feedback pass (the only output a later frame reads), none without.
fn passes_of_frame(f: usize, frame_count: usize, feedback_pass: Option<usize>, n: usize) -> usize {
    if f + 1 == frame_count {
        n
    } else {
        feedback_pass.map_or(0, |fp| (fp + 1).min(n))
    }
}

/// Renders `job.frame_count` frames of the preset (of the earlier frames only what the
/// last one reads, see [`first_frame`] and [`passes_of_frame`]); returns the last frame's output at
/// viewport size (8-bit quantised, as the swapchain stores it).
/// Its diagnostics' spans belong to a source map of its own: use
/// [`render_preset_detailed`] to print them.
pub fn render_preset(job: &PresetRender) -> Result<RgbaF32Image, Vec<Diagnostic>> {
    render_preset_detailed(&mut SourceMap::new(), job).map(|o| o.image)
}

/// [`render_preset`] with the hazard maps and the pass outputs of the last frame. The
/// Cg files join `sources`, which locates every diagnostic, run-time ones included.
pub fn render_preset_detailed(sources: &mut SourceMap, job: &PresetRender) -> Result<PresetOutput, Vec<Diagnostic>> {
    let preset = job.preset;
    if job.frames.is_empty() || job.frame_count == 0 {
        return Err(err("no input frame to render"));
    }
    let n = preset.passes.len();
    let aliases: Vec<String> = preset.passes.iter().map(|p| p.alias.clone().unwrap_or_default()).collect();
    let mut programs = Vec::with_capacity(n);
    for p in &preset.passes {
        let prog = analyze_cg(sources, &p.shader_resolved, &aliases, job.fs).map_err(|mut d| {
            d.insert(
                0,
                Diagnostic::error(codes::E_REF_COMPILE, format!("cannot compile {}", p.shader_resolved.display())),
            );
            d
        })?;
        programs.push(prog);
    }
    let stock = analyze_cg_str(sources, "stock.cg", STOCK, &[], &MemoryFs::new())?;
    // Parameters: pragma defaults < preset values < caller overrides.
    let mut params: Vec<(String, f32)> = Vec::new();
    for prog in &programs {
        for (id, v) in &prog.parameters {
            if !params.iter().any(|(i, _)| i == id) {
                params.push((id.clone(), *v));
            }
        }
    }
    for (id, v) in preset.parameters.iter().chain(job.parameters) {
        match params.iter_mut().find(|(i, _)| i == id) {
            Some(p) => p.1 = *v,
            None => params.push((id.clone(), *v)),
        }
    }
    // LUTs: each an 8-bit UNORM texture, sampled through the device's decode; from the
    // caller's images, else from their files, made once per run where the run's memo
    // holds them (`PassMemo::lut`).
    let lut_chain = |img: &RgbaF32Image, mipmap: bool| {
        let img = job.conversions.sampled_unorm8(img);
        if mipmap {
            MipChain::generate(img, StorageFormat::Unorm8, &job.conversions)
        } else {
            MipChain::single(img)
        }
    };
    let memo_luts = job.memo.filter(|_| job.luts.is_none()).map(|memo| {
        let mut k = KeyWriter::new("conversions");
        job.conversions.write_key(&mut k);
        (memo, k.finish())
    });
    let mut luts: Vec<(String, Arc<MipChain>, bool)> = Vec::with_capacity(preset.textures.len());
    for (i, l) in preset.textures.iter().enumerate() {
        let from_file = || load_png(&l.resolved).map(|img| lut_chain(&img, l.mipmap));
        let chain = match (job.luts, memo_luts) {
            (Some(given), _) => match given.get(i) {
                Some(img) => Arc::new(lut_chain(img, l.mipmap)),
                None => break,
            },
            (None, Some((memo, key))) => memo.lut(&l.resolved, l.mipmap, key, from_file).map_err(|d| vec![d])?,
            (None, None) => Arc::new(from_file().map_err(|d| vec![d])?),
        };
        luts.push((l.name.clone(), chain, l.mipmap));
    }
    let lut_sizes: Vec<Size> = luts.iter().map(|(_, c, _)| c.size()).map(|(w, h)| Size::new(w, h)).collect();
    let mut spec = ChainSpec::from_preset(preset, &lut_sizes, Runtime::Cg);
    // The Cg runtime keeps feedback only for an FBO pass.
    let last_unscaled = preset.passes.last().is_some_and(|p| p.scale.is_none());
    let feedback_pass = preset.feedback_pass.filter(|&f| f < n && !(f + 1 == n && last_unscaled));
    for (i, prog) in programs.iter().enumerate() {
        if let Some(p) = spec.passes.get_mut(i) {
            p.reads = reads(prog, feedback_pass, n);
        }
    }
    // History: inputs of earlier frames, newest first.
    let mut history: Vec<Arc<MipChain>> = Vec::new();
    let mut feedback: Vec<Option<Arc<MipChain>>> = vec![None; n];
    let mut last = None;
    for f in first_frame(&spec, job.frame_count)..job.frame_count {
        let input = &job.frames[f % job.frames.len()];
        let previous_inputs: Vec<Size> =
            (1..=f.min(8)).map(|k| size(&job.frames[(f - k) % job.frames.len()])).collect();
        let frame = Frame {
            index: f as u64,
            direction: 1,
            input: size(input),
            previous_inputs,
            viewport: Size::new(job.viewport.0, job.viewport.1),
        };
        let chain = plan::plan(&spec, &frame).map_err(|e| e.iter().map(|x| x.diagnostic()).collect::<Vec<_>>())?;
        // The input frame is an 8-bit UNORM texture: sampled through the device's decode.
        let original = Arc::new(MipChain::single(job.conversions.sampled_unorm8(input)));
        let mut outputs: Vec<Arc<MipChain>> = Vec::with_capacity(n);
        // The reference's own output of a pass whose output later passes read from
        // `job.replaced` instead (last frame only).
        let mut own: Vec<Option<RgbaF32Image>> = Vec::new();
        // The history frames that do not exist yet, one transparent image shared by all
        // passes of the frame (made on first use).
        let blank: std::cell::OnceCell<Arc<MipChain>> = std::cell::OnceCell::new();
        let transparent = || Arc::new(MipChain::single(RgbaF32Image::transparent(input.width, input.height)));
        let rendered_passes = passes_of_frame(f, job.frame_count, feedback_pass, n);
        for (i, pp) in chain.passes.iter().enumerate().take(rendered_passes) {
            let read = |r: Resource| pp.read(r).map_or(Sampling::DEFAULT, |t| t.sampling);
            let orig_s = read(Resource::Original);
            let source = if i == 0 {
                texture(&original, orig_s)
            } else {
                texture(&outputs[i - 1], read(Resource::PassOutput(i - 1)))
            };
            let prev = (1..=HISTORY_DEPTH)
                .map(|k| {
                    let img = history.get(k - 1).cloned().unwrap_or_else(|| blank.get_or_init(transparent).clone());
                    texture(&img, Sampling { mipmap: false, ..orig_s })
                })
                .collect();
            let fb = feedback_pass.map(|fp| {
                let img = feedback.get(fp).cloned().flatten().unwrap_or_else(|| {
                    let s = chain.passes.get(fp).map_or(Size::new(1, 1), |p| p.output_size);
                    Arc::new(MipChain::single(RgbaF32Image::transparent(s.width, s.height)))
                });
                texture(&img, read(Resource::Feedback(fp)))
            });
            let inputs = PassInputs {
                pass: i,
                source,
                output_size: (pp.output_size.width, pp.output_size.height),
                frame_count: u64::from(pp.frame_count),
                frame_count_mod: 0,
                frame_direction: pp.frame_direction as f32,
                orig: texture(&original, orig_s),
                prev,
                pass_outputs: (0..i).map(|m| texture(&outputs[m], read(Resource::PassOutput(m)))).collect(),
                feedback: fb,
                aliases: aliases.clone(),
                luts: luts
                    .iter()
                    .enumerate()
                    .map(|(j, (name, img, _))| (name.clone(), texture(img, read(Resource::Lut(j)))))
                    .collect(),
                parameters: params.clone(),
                mvp: RETROARCH_MVP,
                flipped: pp.target == Target::Viewport,
                precision: job.precision,
            };
            let fmt = storage(pp.format);
            let memo = job.memo.filter(|_| job.replaced.is_empty());
            let key = memo.and_then(|_| output_key(&programs[i], &inputs, fmt, pp.mipmapped, &job.conversions));
            if let Some(done) = memo.zip(key).and_then(|(memo, key)| memo.get(key)) {
                if f + 1 == job.frame_count {
                    own.push(None);
                }
                outputs.push(done);
                continue;
            }
            let rendered = render_pass(&programs[i], &inputs)?;
            let (mut image, hazard) = stored_with_precision(rendered, fmt, &job.conversions);
            if f + 1 == job.frame_count {
                match job.replaced.get(i).filter(|o| o.pixels.len() == image.pixels.len()) {
                    Some(other) => own.push(Some(std::mem::replace(&mut image, as_read(other, fmt, &job.conversions)))),
                    None => own.push(None),
                }
            }
            let chain_img =
                if pp.mipmapped { MipChain::generate(image, fmt, &job.conversions) } else { MipChain::single(image) };
            let mut chain_img = chain_img.with_hazard(hazard);
            if let Some(key) = key {
                chain_img = chain_img.with_fingerprint(key);
            }
            let out = Arc::new(chain_img);
            if let Some((memo, key)) = memo.zip(key) {
                memo.put(key, out.clone());
            }
            outputs.push(out);
        }
        if f + 1 < job.frame_count {
            // An earlier frame leaves its input to the history and its feedback pass's
            // output to the next frame, nothing else.
            history.insert(0, original);
            history.truncate(HISTORY_DEPTH);
            if let Some(fp) = feedback_pass {
                if let Some(o) = outputs.into_iter().nth(fp) {
                    feedback[fp] = Some(o);
                }
            }
            continue;
        }
        let mut result = outputs.last().and_then(|o| o.base().cloned()).ok_or_else(|| err("the chain has no pass"))?;
        let mut result_storage = chain.passes.last().map_or(StorageFormat::Unorm8, |p| storage(p.format));
        let last_pass = outputs.last();
        let mut result_hazard = last_pass.map(|o| level0_hazard(o)).unwrap_or_default();
        if let Some(st) = &chain.stretch {
            let src = outputs.last().cloned().ok_or_else(|| err("the chain has no pass"))?;
            let mut inputs = PassInputs::single(
                RgbaF32Image::transparent(1, 1),
                state(st.input.sampling),
                (st.output_size.width, st.output_size.height),
            );
            inputs.source = texture(&src, st.input.sampling);
            inputs.orig = texture(&original, Sampling::DEFAULT);
            inputs.flipped = true;
            inputs.precision = job.precision;
            let rendered = render_pass(&stock, &inputs)?;
            (result, result_hazard) = stored_with_precision(rendered, StorageFormat::Unorm8, &job.conversions);
            result_storage = StorageFormat::Unorm8;
        }
        // What the viewport holds is read back as bytes, not sampled.
        let result = as_stored(&result, result_storage, &job.conversions);
        // Every pass's output of the last frame.
        let mut passes = Vec::with_capacity(n);
        for (i, (o, pp)) in outputs.into_iter().zip(&chain.passes).enumerate() {
            let hazard = level0_hazard(&o);
            let level0 = match own.get_mut(i).and_then(Option::take) {
                Some(image) => Some(Level0::Own(image)),
                None => o.base().is_some().then_some(Level0::Chain(o)),
            };
            if let Some(level0) = level0 {
                passes.push(PassOutput {
                    level0,
                    hazard,
                    storage: storage(pp.format),
                    conversions: job.conversions.clone(),
                });
            }
        }
        last = Some(PresetOutput { image: result, hazard: result_hazard, passes });
    }
    last.ok_or_else(|| err("no frame rendered"))
}

/// The memo key of a pass's output: what its render reads ([`render_key`]), then what
/// is done to the result (storage format, mip chain, the device's conversions).
fn output_key(
    prog: &PassProgram,
    inputs: &PassInputs,
    format: StorageFormat,
    mipmapped: bool,
    conversions: &DeviceConversions,
) -> Option<super::memo::Fingerprint> {
    let mut k = KeyWriter::new("pass output");
    k.fingerprint(render_key(prog, inputs)?);
    k.tag(format as u8);
    k.tag(u8::from(mipmapped));
    conversions.write_key(&mut k);
    Some(k.finish())
}

/// A pass's image stored as `format` (what later passes read back) and its hazard map;
/// under the precision rule the map also marks the pixels that a perturbed lane moves by
/// more than [`super::hazard::PRECISION_STEPS`] steps as stored.
fn stored_with_precision(
    rendered: super::pass::Rendered,
    format: StorageFormat,
    conversions: &DeviceConversions,
) -> (RgbaF32Image, Vec<bool>) {
    let mut image = rendered.image;
    image.store_as(format, conversions);
    let mut hazard = rendered.hazard;
    if !rendered.perturbed.is_empty() {
        let exact = as_stored(&image, format, conversions);
        for mut moved in rendered.perturbed {
            moved.store_as(format, conversions);
            let marks =
                super::hazard::precision_sensitive(&exact.pixels, &as_stored(&moved, format, conversions).pixels);
            hazard.iter_mut().zip(marks).for_each(|(h, m)| *h |= m);
        }
    }
    (image, hazard)
}

/// Another renderer's output of a target of format `format`, read back exactly (sRGB
/// decoded by the transfer function), as a shader on the device of `conversions` reads
/// it: 8-bit channels through the device's decode of their stored bytes.
fn as_read(image: &RgbaF32Image, format: StorageFormat, conversions: &DeviceConversions) -> RgbaF32Image {
    let bytes = as_stored(image, format, &DeviceConversions::exact());
    let byte = |v: f32| super::image::unorm8(v) as u8;
    let pixels = match format {
        StorageFormat::Float16 | StorageFormat::Float32 => return image.clone(),
        StorageFormat::Unorm8 => bytes.pixels.iter().map(|p| p.map(|c| conversions.unorm8(byte(c)))).collect(),
        StorageFormat::Srgb8 => bytes
            .pixels
            .iter()
            .map(|p| {
                let s = |c: f32| conversions.srgb8(byte(c));
                [s(p[0]), s(p[1]), s(p[2]), conversions.unorm8(byte(p[3]))]
            })
            .collect(),
    };
    RgbaF32Image { width: image.width, height: image.height, pixels }
}

/// Level 0's hazard map of a chain, one flag per pixel (all false without a map).
fn level0_hazard(chain: &MipChain) -> Vec<bool> {
    let n = chain.base().map_or(0, |b| b.pixels.len());
    match chain.hazard.first() {
        Some(m) if m.len() == n => m.clone(),
        _ => vec![false; n],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grey(v: f32) -> RgbaF32Image {
        RgbaF32Image { width: 1, height: 1, pixels: vec![[v, v, v, 1.0]] }
    }

    /// One pixel rendered as `exact`, one perturbed lane giving `moved`.
    fn rendered(exact: f32, moved: f32) -> super::super::pass::Rendered {
        super::super::pass::Rendered {
            image: grey(exact),
            hazard: vec![false],
            warnings: Vec::new(),
            perturbed: vec![grey(exact), grey(moved), grey(exact)],
        }
    }

    #[test]
    fn a_pixel_that_a_perturbed_lane_moves_by_two_steps_is_marked() {
        let exact = DeviceConversions::exact();
        let at = |e: f32, moved: f32, format| stored_with_precision(rendered(e, moved), format, &exact).1;
        // 2.55 steps: marked; 0.77 of a step: not (a value may always round either way).
        assert_eq!(at(0.5, 0.51, StorageFormat::Unorm8), vec![true]);
        assert_eq!(at(0.5, 0.503, StorageFormat::Unorm8), vec![false]);
        assert_eq!(at(0.5, 0.503, StorageFormat::Float32), vec![false]);
        // Near black an sRGB target stores a small linear move as several steps.
        assert_eq!(at(0.001, 0.0015, StorageFormat::Srgb8), vec![true]);
        assert_eq!(at(0.001, 0.0015, StorageFormat::Unorm8), vec![false]);
    }
}
