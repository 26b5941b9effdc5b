//! Old versus new: compares the CPU reference render of a Cg preset (the original, see
//! [`crate::reference`]) with the GPU render of its translation (the headless chain,
//! see [`crate::chain`]), both driven by [`crate::plan`] over the same frames and
//! viewport.
//!
//! - [`metrics`]: PSNR, maximum absolute error and the share of pixels within 2/255 of
//!   two RGBA `f32` images of equal size; [`heatmap`] an amplified difference image;
//!   [`Metrics::passes`] the verdict against [`Thresholds`] (defaults: 40 dB PSNR and
//!   99.5 % of pixels within 2/255).
//! - [`translate_cgp`]: a loaded `.cgp` to a [`ChainDesc`] of in-memory naga modules
//!   (every pass translated as `migrate` does; the canonical text compiled by glslang
//!   to SPIR-V as RetroArch does, then read by naga, see [`crate::chain::slang`]; where
//!   naga's SPIR-V front end cannot read glslang's output, the pass's naga dialect),
//!   scheduled by the `.slangp` `migrate` writes for it, read back ([`as_migrated`]) and
//!   run by the slang runtime's rules; [`render_new`] renders it, [`render_old_detailed`]
//!   renders the Cg original by the Cg runtime's rules ([`crate::plan::Runtime`]).
//!
//! **Metric definitions.** Every metric is over the **RGB** channels only: the final
//! image is what RetroArch shows, and the display ignores alpha. Channels are clamped
//! to [0, 1] first. `PSNR = 10 log10(1 / MSE)` with the MSE over all RGB samples; two
//! identical images give `f64::INFINITY` (callers serialise it as `null`). The maximum
//! absolute error is in [0, 1] (times 255 in 8-bit steps). A pixel is *within 2/255*
//! when each of its R, G and B differences is at most 2/255 (plus a rounding epsilon).
//!
//! **Hazards and causes.** The reference marks every pixel whose value depends on
//! something a GPU may compute differently ([`crate::reference::hazard`]); a comparison
//! measures the whole image and the well-defined pixels ([`metrics_where`]), judges on
//! the latter ([`verdict::judge`]), and for a failure finds the first pass whose
//! well-defined pixels diverge ([`PassDivergence`]) and names a cause
//! ([`verdict::Cause`]): a pass that two routes of the same translation (glslang's
//! SPIR-V, naga's GLSL dialect) render differently is the chain's; a chain whose every
//! pass matches when it reads the GPU's outputs of the earlier passes is
//! `amplification`; otherwise, without an independent render, it is `unexplained`.
//! Before localising, a failure gets the precision rule ([`judge_with_precision`]).
//!
//! **Invariant:** never panics, never prints, never writes files, and never relaxes a
//! threshold; the old side never shares the translator's porting rules (it interprets
//! the Cg IR itself), so a broken rule cannot break both sides alike.

use crate::chain::image_io::load_image;
use crate::chain::preset::assemble;
use crate::chain::slang::{compile_slang, SlangCache, SlangPass};
use crate::chain::{ChainDesc, FilterChain, Gpu, InputImage, Pixels};
use crate::codes;
use crate::plan::Size;
use crate::reference::{self, PresetRender, RgbaF32Image};
use grammar::{Diagnostic, FileSystem, PpOptions, SourceMap};
use std::sync::Arc;
use translator::preset::Preset;
use translator::translate::{translate, TranslateOptions};

pub mod verdict;
pub use verdict::{Cause, Status, Verdict};

/// Pass thresholds of a comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// The lowest acceptable PSNR, in dB.
    pub psnr_db: f64,
    /// The lowest acceptable share of pixels within 2/255, in percent.
    pub within_pct: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds { psnr_db: 40.0, within_pct: 99.5 }
    }
}

/// How far apart two images are (RGB channels, see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Peak signal-to-noise ratio in dB; `f64::INFINITY` for identical images.
    pub psnr_db: f64,
    /// The largest absolute channel difference, in [0, 1].
    pub max_abs_error: f64,
    /// The share of pixels whose every RGB channel is within 2/255, in percent.
    pub within_2_255_pct: f64,
    /// How many pixels were compared.
    pub pixels: usize,
}

impl Metrics {
    /// The maximum absolute error in 8-bit steps (0..255).
    pub fn max_abs_error_255(&self) -> f64 {
        self.max_abs_error * 255.0
    }

    /// The PSNR, `None` when infinite (identical images), for serialisation.
    pub fn psnr_finite(&self) -> Option<f64> {
        self.psnr_db.is_finite().then_some(self.psnr_db)
    }

    /// True when both thresholds are met.
    pub fn passes(&self, t: &Thresholds) -> bool {
        self.psnr_db >= t.psnr_db && self.within_2_255_pct >= t.within_pct
    }

    /// A one-line verdict: `PASS` or `FAIL` with the figures and thresholds.
    pub fn verdict(&self, t: &Thresholds) -> String {
        let psnr = if self.psnr_db.is_finite() { format!("{:.2} dB", self.psnr_db) } else { "inf dB".into() };
        format!(
            "{}: PSNR {psnr} (min {:.2}), {:.3}% within 2/255 (min {:.3}%), max error {:.1}/255",
            if self.passes(t) { "PASS" } else { "FAIL" },
            t.psnr_db,
            self.within_2_255_pct,
            t.within_pct,
            self.max_abs_error_255(),
        )
    }
}

/// Two images of different sizes cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeMismatch {
    pub a: (u32, u32),
    pub b: (u32, u32),
}

impl std::fmt::Display for SizeMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "images of different sizes: {}x{} and {}x{}", self.a.0, self.a.1, self.b.0, self.b.1)
    }
}

fn check_sizes(a: &RgbaF32Image, b: &RgbaF32Image) -> Result<(), SizeMismatch> {
    let ok = a.width == b.width
        && a.height == b.height
        && a.pixels.len() == a.width as usize * a.height as usize
        && b.pixels.len() == a.pixels.len();
    if ok {
        Ok(())
    } else {
        Err(SizeMismatch { a: (a.width, a.height), b: (b.width, b.height) })
    }
}

fn channel(v: f32) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        f64::from(v.clamp(0.0, 1.0))
    }
}

/// The metrics of `a` against `b` (symmetric). An empty image compares as identical.
pub fn metrics(a: &RgbaF32Image, b: &RgbaF32Image) -> Result<Metrics, SizeMismatch> {
    metrics_where(a, b, &[])
}

/// The metrics over the pixels whose flag in `excluded` is false (all pixels when
/// `excluded` is shorter than the image: missing flags count as false). With every
/// pixel excluded the comparison is empty and compares as identical.
pub fn metrics_where(a: &RgbaF32Image, b: &RgbaF32Image, excluded: &[bool]) -> Result<Metrics, SizeMismatch> {
    check_sizes(a, b)?;
    let tolerance = 2.0 / 255.0 + 1e-6;
    let mut sum_sq = 0.0f64;
    let mut max = 0.0f64;
    let mut within = 0usize;
    let mut n = 0usize;
    for (i, (p, q)) in a.pixels.iter().zip(&b.pixels).enumerate() {
        if excluded.get(i).copied().unwrap_or(false) {
            continue;
        }
        n += 1;
        let mut ok = true;
        for c in 0..3 {
            let d = (channel(p[c]) - channel(q[c])).abs();
            sum_sq += d * d;
            max = max.max(d);
            ok &= d <= tolerance;
        }
        within += usize::from(ok);
    }
    let (psnr_db, within_2_255_pct) = if n == 0 {
        (f64::INFINITY, 100.0)
    } else {
        let mse = sum_sq / (3 * n) as f64;
        let psnr = if mse == 0.0 { f64::INFINITY } else { 10.0 * (1.0 / mse).log10() };
        (psnr, 100.0 * within as f64 / n as f64)
    };
    Ok(Metrics { psnr_db, max_abs_error: max, within_2_255_pct, pixels: n })
}

/// How much [`heatmap`] amplifies differences: 8/255 already shows at full brightness.
pub const HEATMAP_GAIN: f32 = 255.0 / 8.0;

/// An amplified difference image: each RGB channel is `|a - b| * HEATMAP_GAIN`
/// (clamped to 1), opaque; pixels outside the 2/255 tolerance get at least a dim red so
/// that no failing pixel is invisible.
pub fn heatmap(a: &RgbaF32Image, b: &RgbaF32Image) -> Result<RgbaF32Image, SizeMismatch> {
    check_sizes(a, b)?;
    let tolerance = 2.0 / 255.0 + 1e-6;
    let pixels = a
        .pixels
        .iter()
        .zip(&b.pixels)
        .map(|(p, q)| {
            let d = [0, 1, 2].map(|c| (channel(p[c]) - channel(q[c])).abs());
            let mut out = [0, 1, 2, 3].map(|c| if c == 3 { 1.0 } else { (d[c] as f32 * HEATMAP_GAIN).min(1.0) });
            if d.iter().any(|&x| x > tolerance) {
                out[0] = out[0].max(0.25);
            }
            out
        })
        .collect();
    Ok(RgbaF32Image { width: a.width, height: a.height, pixels })
}

/// Read-back pixels as a reference image (same layout: rows top to bottom).
pub fn from_pixels(p: Pixels) -> RgbaF32Image {
    RgbaF32Image { width: p.size.width, height: p.size.height, pixels: p.data }
}

/// The input image of frame `f` of a comparison: the images in order, repeated
/// (`images[f % len]`, as [`reference::render_preset`] schedules them).
pub fn frame_input(images: &[InputImage], f: usize) -> Option<&InputImage> {
    images.get(f.checked_rem(images.len())?)
}

/// Translates every pass of a loaded `.cgp` (as `migrate` does: `PARAMETER_UNIFORM`
/// and the `<alias>_ALIAS` macros defined, the preset's parameters declared), validates
/// each translation and builds the chain description from its naga modules, with the
/// preset's LUTs read from disk. Diagnostics point into `sources`.
pub fn translate_cgp(
    sources: &mut SourceMap,
    preset: &Preset,
    fs: &dyn FileSystem,
) -> Result<ChainDesc, Vec<Diagnostic>> {
    translate_cgp_edited(sources, preset, fs, &|_, text| text, None)
}

/// [`translate_cgp`], with `edit` applied to each pass's canonical text (given the Cg
/// file it came from) before it is compiled: the mutation tests break one porting rule
/// in the output this way and show that the comparison catches it. `cache` lends the
/// translations and compiled passes of the run's other presets (for the identity
/// `edit` only: an edit applies after the translation, before the compile).
pub fn translate_cgp_edited(
    sources: &mut SourceMap,
    preset: &Preset,
    fs: &dyn FileSystem,
    edit: &dyn Fn(&std::path::Path, String) -> String,
    cache: Option<&NewSideCache>,
) -> Result<ChainDesc, Vec<Diagnostic>> {
    translate_cgp_routed(sources, preset, fs, edit, Route::Glslang, cache)
}

/// Which front end turns a pass's translation into the naga module the chain renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The canonical text compiled by glslang to SPIR-V, as RetroArch does (the naga
    /// dialect only where naga's SPIR-V front end cannot read glslang's output).
    Glslang,
    /// The naga dialect of the same IR, through naga's GLSL front end (no edit applies:
    /// an edited pass fails on this route).
    NagaDialect,
}

/// What one translated pass is known by: its Cg file, where it sits in its preset (which
/// also gives the `_ALIAS` defines) and the preset's declared parameters.
type TranslationKey = (std::path::PathBuf, translator::retro::PassContext, Vec<String>);

/// A pass's canonical text and its naga dialect.
type Translated = (String, Option<translator::translate::NagaStages>);

/// The new side's work shared by the comparisons of one run: successful translations by
/// [`TranslationKey`] (the presets of a library repeat their passes in the same places:
/// 75 console borders differ only in their LUT file), compiled passes by text
/// ([`SlangCache`]) and decoded LUT images by file (the console borders' 3200x1600 PNGs
/// took 5 % of the CPU time of their comparisons when each preset decoded its own). At
/// most [`SlangCache::MAX_ENTRIES`] translations and [`NewSideCache::LUT_BYTES`] of LUT
/// pixels are kept; the files are assumed not to change during the run.
#[derive(Default)]
pub struct NewSideCache {
    translations: std::sync::Mutex<std::collections::HashMap<TranslationKey, Arc<Translated>>>,
    pub slang: SlangCache,
    luts: std::sync::Mutex<DecodedLuts>,
}

/// LUT images decoded by this run, by resolved path, and the bytes they hold.
#[derive(Default)]
struct DecodedLuts {
    images: std::collections::HashMap<std::path::PathBuf, InputImage>,
    bytes: usize,
}

impl NewSideCache {
    /// The most LUT pixel bytes kept (thirteen 3200x1600 RGBA images).
    pub const LUT_BYTES: usize = 256 << 20;

    /// The LUT image of the file at `path`, decoded the first time and then shared
    /// (its bytes are reference-counted: a hit copies nothing). Failures are not kept.
    pub fn lut(&self, path: &std::path::Path) -> Result<InputImage, Diagnostic> {
        let lock = || self.luts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(hit) = lock().images.get(path) {
            return Ok(hit.clone());
        }
        let image = load_image(path)?;
        let mut luts = lock();
        if luts.bytes + image.rgba8.len() <= Self::LUT_BYTES {
            luts.bytes += image.rgba8.len();
            luts.images.insert(path.to_path_buf(), image.clone());
        }
        Ok(image)
    }

    fn translation(&self, key: &TranslationKey) -> Option<Arc<Translated>> {
        self.translations.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(key).cloned()
    }

    fn keep_translation(&self, key: TranslationKey, text: &str, naga: Option<&translator::translate::NagaStages>) {
        let mut done = self.translations.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if done.len() < SlangCache::MAX_ENTRIES {
            done.insert(key, Arc::new((text.to_owned(), naga.cloned())));
        }
    }
}

/// [`translate_cgp_edited`] through the given [`Route`].
pub fn translate_cgp_routed(
    sources: &mut SourceMap,
    preset: &Preset,
    fs: &dyn FileSystem,
    edit: &dyn Fn(&std::path::Path, String) -> String,
    route: Route,
    cache: Option<&NewSideCache>,
) -> Result<ChainDesc, Vec<Diagnostic>> {
    let preset_parameters =
        translator::preset::declared_parameters(preset, fs, &translator::preset::ParameterCache::default());
    let migrated = as_migrated(preset)?;
    let mut load_lut = |path: &std::path::Path| match cache {
        Some(c) => c.lut(path),
        None => load_image(path),
    };
    assemble(&migrated, &mut load_lut, &mut |i, _| {
        let Some(p) = preset.passes.get(i) else {
            return Err(vec![Diagnostic::error(
                codes::E_CHAIN_PRESET,
                "the written .slangp has more passes than the .cgp",
            )]);
        };
        let context = preset.pass_context(i);
        let note = |d: Diagnostic| d.with_note(format!("pass {i} of the preset ({})", p.shader_resolved.display()));
        let key = (p.shader_resolved.clone(), context, preset_parameters.clone());
        let known = cache.and_then(|c| c.translation(&key));
        let (original, naga) = match known {
            Some(t) => (t.0.clone(), t.1.clone()),
            None => {
                let mut defines: Vec<(String, Option<String>)> = vec![("PARAMETER_UNIFORM".into(), None)];
                for a in key.1.aliases.iter().filter(|a| !a.is_empty()) {
                    defines.push((format!("{a}_ALIAS"), None));
                }
                let options = PpOptions { defines, ..PpOptions::default() };
                let topts = TranslateOptions {
                    context: key.1.clone(),
                    preset_parameters: preset_parameters.clone(),
                    ..TranslateOptions::default()
                };
                let parsed = grammar::parse_file(sources, &p.shader_resolved, &options, fs);
                let t = translate(sources, &parsed, &topts);
                let errors: Vec<Diagnostic> =
                    t.diagnostics.into_iter().filter(Diagnostic::is_error).map(note).collect();
                let Some(original) = t.text.filter(|_| errors.is_empty()) else {
                    return Err(if errors.is_empty() {
                        vec![note(Diagnostic::error(codes::E_CHAIN_SHADER, "the translation produced no text"))]
                    } else {
                        errors
                    });
                };
                if let Some(c) = cache {
                    c.keep_translation(key, &original, t.naga.as_ref());
                }
                (original, t.naga)
            }
        };
        // The canonical text, compiled as RetroArch compiles it (glslang to SPIR-V), is
        // what "new" renders: the naga dialect only serves naga's own validation.
        let text = edit(&p.shader_resolved, original.clone());
        if route == Route::NagaDialect {
            return naga_dialect_pass(&text, naga.as_ref()).filter(|_| text == original).ok_or_else(|| {
                vec![note(Diagnostic::error(codes::E_CHAIN_SHADER, "naga's GLSL front end rejects the naga dialect"))]
            });
        }
        let origin = p.shader_resolved.with_extension("slang");
        let compiled = match cache {
            Some(cache) => cache.slang.compile(&origin, &text),
            None => compile_slang(&origin, &text, None),
        };
        compiled.or_else(|ds| {
            // Where naga's SPIR-V front end cannot read what glslang emits (the gaps
            // known so far are closed in `chain::slang`), the naga dialect of the same
            // IR renders.
            naga_dialect_pass(&text, naga.as_ref())
                .filter(|_| text == original)
                .ok_or_else(|| ds.into_iter().map(note).collect())
        })
    })
}

/// `preset` as the slang runtime will see it: the `.slangp` that `migrate` writes for it
/// (the same writer, so its porting of the preset's settings is under test too), read
/// back by the `.slangp` reader, with the shader and LUT paths of the `.cgp` (the
/// shaders are translated from the Cg files, the LUTs read where the `.cgp` found them).
pub fn as_migrated(preset: &Preset) -> Result<Preset, Vec<Diagnostic>> {
    let shaders: Vec<String> = (0..preset.passes.len()).map(|i| format!("pass{i}.slang")).collect();
    let luts: Vec<String> = (0..preset.textures.len()).map(|j| format!("lut{j}.png")).collect();
    let text = translator::preset::write_slangp(preset, &shaders, &luts);
    let mut sources = SourceMap::new();
    let (back, diags) = translator::preset::parse_slangp_str(&mut sources, "migrated.slangp", &text);
    let failed = |why: String| {
        vec![Diagnostic::error(
            codes::E_CHAIN_PRESET,
            format!("the .slangp written for this preset does not read back: {why}"),
        )]
    };
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        return Err(failed(d.message.clone()));
    }
    let Some(mut back) = back else { return Err(failed("no preset".into())) };
    if back.passes.len() != preset.passes.len() || back.textures.len() != preset.textures.len() {
        return Err(failed("the passes or LUTs differ in number".into()));
    }
    for (b, p) in back.passes.iter_mut().zip(&preset.passes) {
        b.shader.clone_from(&p.shader);
        b.shader_resolved.clone_from(&p.shader_resolved);
    }
    for (b, l) in back.textures.iter_mut().zip(&preset.textures) {
        b.path.clone_from(&l.path);
        b.resolved.clone_from(&l.resolved);
    }
    back.path.clone_from(&preset.path);
    back.root.clone_from(&preset.root);
    Ok(back)
}

/// The modules of a pass from its naga dialect (naga's GLSL front end), with the
/// metadata of its canonical `text`; `None` when naga does not accept a stage.
fn naga_dialect_pass(text: &str, naga: Option<&translator::translate::NagaStages>) -> Option<SlangPass> {
    let naga = naga?;
    let vertex = crate::validate::validate_naga(&naga.vertex.text, crate::validate::Stage::Vertex).ok()?;
    let fragment = crate::validate::validate_naga(&naga.fragment.text, crate::validate::Stage::Fragment).ok()?;
    Some(SlangPass { vertex, fragment, meta: crate::validate::split_stages(text).meta })
}

/// Renders `frames` frames of the translated chain (frame `f` reads
/// [`frame_input`]`(images, f)`) and reads the last one back at viewport size.
pub fn render_new(
    gpu: Arc<Gpu>,
    desc: ChainDesc,
    images: &[InputImage],
    frames: usize,
    viewport: Size,
) -> Result<RgbaF32Image, Vec<Diagnostic>> {
    render_new_chain(gpu, desc, images, frames, viewport).map(|n| n.image)
}

/// The most pixels the pass outputs and the viewport of one comparison may hold
/// together: 2^26 (1 GiB as the reference renderer's RGBA f32). A one-pass preset at
/// 8192x8192 fits; `scale0 = 100000` (clamped to 16384 squared) does not.
pub const MAX_COMPARE_PIXELS: u64 = 1 << 26;

/// Checks, from the schedule of the first frame and before anything is allocated, that
/// comparing `preset` on `input`-sized frames at `viewport` stays within
/// [`MAX_COMPARE_PIXELS`]. A preset the planner refuses passes here (the renderers
/// report it).
pub fn check_pixel_budget(preset: &Preset, input: Size, viewport: Size) -> Result<(), Diagnostic> {
    use crate::plan::{plan, ChainSpec, Frame, Runtime};
    let spec = ChainSpec::from_preset(preset, &vec![Size::new(1, 1); preset.textures.len()], Runtime::Cg);
    let frame = Frame { index: 0, direction: 1, input, previous_inputs: Vec::new(), viewport };
    let Ok(schedule) = plan(&spec, &frame) else { return Ok(()) };
    let area = |s: Size| u64::from(s.width) * u64::from(s.height);
    let pixels = schedule.passes.iter().map(|p| area(p.output_size)).sum::<u64>() + area(viewport);
    if pixels <= MAX_COMPARE_PIXELS {
        return Ok(());
    }
    let sizes: Vec<String> = schedule.passes.iter().map(|p| p.output_size.to_string()).collect();
    Err(Diagnostic::error(
        codes::E_COMPARE_PIXEL_BUDGET,
        format!(
            "comparing {} needs {pixels} pixels (passes {}, viewport {viewport}); the budget is {MAX_COMPARE_PIXELS}",
            preset.path.display(),
            sizes.join(", ")
        ),
    )
    .with_note("lower the scale factors or --viewport; nothing was rendered"))
}

/// [`render_new`], with every pass's output of the last frame (pass order).
pub fn render_new_passes(
    gpu: Arc<Gpu>,
    desc: ChainDesc,
    images: &[InputImage],
    frames: usize,
    viewport: Size,
) -> Result<(RgbaF32Image, Vec<RgbaF32Image>), Vec<Diagnostic>> {
    let new = render_new_chain(gpu, desc, images, frames, viewport)?;
    let passes = new.passes.read_all()?;
    Ok((new.image, passes))
}

/// The new side after its frames: the final image, read back at once, and every pass's
/// output of the last frame, read back only when something asks for it
/// ([`LazyPasses::get`]: a failure's localisation, the review's previews). Most
/// comparisons pass, and reading every pass back would cost them more GPU and copying
/// time than rendering.
pub struct NewRender {
    pub image: RgbaF32Image,
    pub passes: LazyPasses,
}

/// A rendered chain's pass outputs of its last frame, read back on first use.
pub struct LazyPasses {
    chain: FilterChain,
    read: Option<Vec<RgbaF32Image>>,
}

impl LazyPasses {
    /// Every pass's output of the last frame, in pass order: read back on the first
    /// call (holding `lock`, which serialises the GPU side), then kept.
    pub fn get(&mut self, lock: &std::sync::Mutex<()>) -> Result<&[RgbaF32Image], Vec<Diagnostic>> {
        if self.read.is_none() {
            let read = {
                let _serial = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                self.read_all()?
            };
            self.read = Some(read);
        }
        Ok(self.read.as_deref().unwrap_or_default())
    }

    fn read_all(&self) -> Result<Vec<RgbaF32Image>, Vec<Diagnostic>> {
        (0..self.chain.pass_count())
            .map(|n| self.chain.read_pass(n).map(from_pixels))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|d| vec![d])
    }
}

/// Renders `frames` frames of the translated chain like [`render_new`], keeping the
/// chain for its pass outputs ([`NewRender`]).
pub fn render_new_chain(
    gpu: Arc<Gpu>,
    desc: ChainDesc,
    images: &[InputImage],
    frames: usize,
    viewport: Size,
) -> Result<NewRender, Vec<Diagnostic>> {
    let mut chain = FilterChain::new(gpu, desc)?;
    for f in 0..frames.max(1) {
        let Some(input) = frame_input(images, f) else {
            return Err(vec![Diagnostic::error(codes::E_CHAIN_IMAGE, "no input image")]);
        };
        chain.render(input, viewport)?;
    }
    let image = chain.read_output().map(from_pixels).map_err(|d| vec![d])?;
    Ok(NewRender { image, passes: LazyPasses { chain, read: None } })
}

/// What the old side renders: the Cg original of `preset` over the same inputs, frames
/// and viewport as the new side, reading 8-bit textures through the compared device's
/// `conversions` (see [`device_conversions`]).
pub struct OldSide<'a> {
    pub preset: &'a Preset,
    pub fs: &'a dyn FileSystem,
    pub images: &'a [InputImage],
    pub frames: usize,
    pub viewport: Size,
    pub conversions: &'a reference::DeviceConversions,
    /// Pass outputs shared with the other presets of the run ([`reference::memo`]).
    pub memo: Option<&'a reference::PassMemo>,
}

/// Renders the Cg original on the CPU, with the hazard maps and every pass's output of
/// the last frame; `precision` renders under the precision rule instead (see
/// [`mark_precision_hazards`]).
pub fn render_old_detailed(
    sources: &mut SourceMap,
    old: &OldSide,
    precision: bool,
) -> Result<reference::PresetOutput, Vec<Diagnostic>> {
    render_old_with(sources, old, precision, &[])
}

/// [`render_old_detailed`], later passes of the last frame reading `replaced` (the
/// GPU's pass outputs) instead of the reference's own ([`PresetRender::replaced`]).
fn render_old_with(
    sources: &mut SourceMap,
    old: &OldSide,
    precision: bool,
    replaced: &[RgbaF32Image],
) -> Result<reference::PresetOutput, Vec<Diagnostic>> {
    let frames = old.frames.max(1);
    let mut inputs = Vec::with_capacity(old.images.len());
    for img in old.images {
        let Some(r) = RgbaF32Image::from_rgba8(img.size.width, img.size.height, &img.rgba8) else {
            return Err(vec![Diagnostic::error(codes::E_REF_INPUT, "an input image has the wrong byte count")]);
        };
        inputs.push(r);
    }
    reference::render_preset_detailed(
        sources,
        &PresetRender {
            preset: old.preset,
            fs: old.fs,
            frames: &inputs,
            viewport: (old.viewport.width, old.viewport.height),
            frame_count: frames,
            parameters: &[],
            luts: None,
            conversions: old.conversions.clone(),
            precision,
            replaced,
            memo: old.memo,
        },
    )
}

/// The precision rule of [`reference::hazard`]: renders the original again under the
/// rule (every fragment pixel also under transcendentals moved by their device error
/// bounds) and adds its hazard maps to `out`'s (the final image and each pass output).
/// Returns the share of the final image it newly marked, in percent. A render under the
/// rule that fails marks nothing (the exact render succeeded, so this does not happen
/// in practice).
pub fn mark_precision_hazards(sources: &mut SourceMap, old: &OldSide, out: &mut reference::PresetOutput) -> f64 {
    let before = hazard_pct(&out.hazard);
    let Ok(moved) = render_old_detailed(sources, old, true) else { return 0.0 };
    let or = |into: &mut Vec<bool>, from: &[bool]| {
        if into.len() == from.len() {
            into.iter_mut().zip(from).for_each(|(h, m)| *h |= m);
        }
    };
    or(&mut out.hazard, &moved.hazard);
    for (pass, moved_pass) in out.passes.iter_mut().zip(&moved.passes) {
        or(&mut pass.hazard, &moved_pass.hazard);
    }
    hazard_pct(&out.hazard) - before
}

/// The measurements and verdict of one comparison.
pub struct Judged {
    /// Over the whole image.
    pub metrics: Metrics,
    /// Over the pixels without hazard.
    pub well_defined: Metrics,
    /// The hazardous pixels, in percent.
    pub hazard_pct: f64,
    pub verdict: Verdict,
}

/// Measures `new` against the old side's render `out` and judges them. A failure of the
/// well-defined pixels first gets the precision rule ([`mark_precision_hazards`], which
/// adds to `out`'s hazard maps) and is judged again; the verdict's detail then says how
/// much of the image the rule marked. A failure that remains has no cause yet.
pub fn judge_with_precision(
    sources: &mut SourceMap,
    old: &OldSide,
    out: &mut reference::PresetOutput,
    new: &RgbaF32Image,
    t: &Thresholds,
) -> Result<Judged, SizeMismatch> {
    let first = judge_output(out, new, t)?;
    if first.verdict.status != Status::Fail {
        return Ok(first);
    }
    let marked = mark_precision_hazards(sources, old, out);
    if marked == 0.0 {
        return Ok(first);
    }
    let mut again = judge_output(out, new, t)?;
    if let Some(detail) = &mut again.verdict.detail {
        detail.push_str(&format!(" ({marked:.1}% by the precision rule: they depend on the precision of transcendentals, roundings and interpolation)"));
    }
    Ok(again)
}

/// Measures `new` against the old side's render `out` (whole image and well-defined
/// pixels) and judges them.
fn judge_output(out: &reference::PresetOutput, new: &RgbaF32Image, t: &Thresholds) -> Result<Judged, SizeMismatch> {
    let metrics = metrics(&out.image, new)?;
    let well_defined = metrics_where(&out.image, new, &out.hazard)?;
    let hazard_pct = hazard_pct(&out.hazard);
    let verdict = verdict::judge(&metrics, &well_defined, hazard_pct, t);
    Ok(Judged { metrics, well_defined, hazard_pct, verdict })
}

/// The whole judgement of a comparison: [`judge_with_precision`], then, for a failure
/// left without a cause, its explanation ([`explain_failure`], which reads the new
/// side's pass outputs back). An amplification's pixels (those whose reference value
/// moves by more than a step when every pass reads the GPU's outputs of the earlier
/// passes) become hazards of `out`'s final image and the comparison is judged again:
/// when the rest then meets the thresholds the status is that judgement's, with cause
/// `amplification`. Returns the judgement and, for a failure, the divergent pass; an
/// error when the images cannot be compared or the pass outputs cannot be read back.
pub fn judge_and_explain(
    sources: &mut SourceMap,
    job: &Job,
    old: &OldSide,
    out: &mut reference::PresetOutput,
    new: &mut NewRender,
) -> Result<(Judged, Option<PassDivergence>), Vec<Diagnostic>> {
    let mut judged = judge_with_precision(sources, old, out, &new.image, job.thresholds).map_err(size_error)?;
    if judged.verdict.status != Status::Fail || judged.verdict.cause.is_some() {
        return Ok((judged, None));
    }
    let new_passes = new.passes.get(job.gpu.1)?;
    let e = explain_failure(sources, job, old, &judged.well_defined, out, new_passes);
    if e.cause == Cause::Amplification && e.amplified.len() == out.hazard.len() {
        let share = hazard_pct(&e.amplified);
        out.hazard.iter_mut().zip(&e.amplified).for_each(|(h, a)| *h |= a);
        judged = judge_output(out, &new.image, job.thresholds).map_err(size_error)?;
        if judged.verdict.status != Status::Fail {
            let detail = format!(
                "{}; the {share:.1}% of pixels that those inputs move by more than a step are hazards, the rest match ({})",
                e.detail,
                short(&judged.well_defined)
            );
            judged.verdict.detail = Some(detail);
            judged.verdict.cause = Some(Cause::Amplification);
            return Ok((judged, e.divergence));
        }
    }
    judged.verdict.cause = Some(e.cause);
    judged.verdict.detail = Some(e.detail);
    Ok((judged, e.divergence))
}

/// Two images that cannot be compared, as a diagnostic.
fn size_error(e: SizeMismatch) -> Vec<Diagnostic> {
    vec![Diagnostic::error(codes::E_CHAIN_IMAGE, format!("cannot compare: {e}"))]
}

/// The share of flagged pixels, in percent (0 for an empty map).
pub fn hazard_pct(hazard: &[bool]) -> f64 {
    if hazard.is_empty() {
        0.0
    } else {
        100.0 * hazard.iter().filter(|&&h| h).count() as f64 / hazard.len() as f64
    }
}

/// The first pass whose well-defined pixels diverge.
pub struct PassDivergence {
    /// 0-based pass index.
    pub index: usize,
    /// The pass's Cg file.
    pub shader: std::path::PathBuf,
    /// Over the pass's well-defined pixels.
    pub well_defined: Metrics,
    /// Over all its pixels.
    pub metrics: Metrics,
    /// Its hazardous pixels, in percent.
    pub hazard_pct: f64,
    pub old: RgbaF32Image,
    pub new: RgbaF32Image,
}

/// The longest side of a pass preview ([`Comparison::pass_previews`]), in pixels.
pub const PREVIEW_SIDE: u32 = 192;

/// One pass's output of the last frame on both sides, as its target stores it (sRGB
/// targets encoded), shrunk to a preview of at most [`PREVIEW_SIDE`] pixels a side.
pub struct PassPreview {
    pub old: RgbaF32Image,
    pub new: RgbaF32Image,
}

/// The outcome of one whole comparison.
pub struct Comparison {
    /// Over the whole image.
    pub metrics: Metrics,
    /// Over the pixels without hazard.
    pub well_defined: Metrics,
    /// The hazardous pixels of the final image, in percent.
    pub hazard_pct: f64,
    /// Status, cause and detail.
    pub verdict: Verdict,
    /// For a failure: the first pass that diverges on well-defined pixels.
    pub divergence: Option<PassDivergence>,
    pub old: RgbaF32Image,
    pub new: RgbaF32Image,
    /// One flag per pixel of the final image.
    pub hazard: Vec<bool>,
    /// Every pass's output on both sides, in pass order, as previews (when asked for).
    pub pass_previews: Vec<PassPreview>,
    /// Where the comparison's time went.
    pub seconds: PhaseSeconds,
}

/// Where one comparison's wall time went, in seconds: what to speed up first.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct PhaseSeconds {
    /// Loading the preset and translating its passes.
    pub translate: f64,
    /// Waiting for the GPU, which comparisons on other threads held.
    pub gpu_wait: f64,
    /// The new side: the chain built and rendered on the GPU (shaders compiled).
    pub render_new: f64,
    /// The old side: the CPU reference.
    pub render_old: f64,
    /// Measuring and judging, with the re-renders that explain a failure (the
    /// precision rule, the naga route, isolation).
    pub judge: f64,
}

impl PhaseSeconds {
    /// The sum of two, phase by phase.
    pub fn plus(self, o: PhaseSeconds) -> PhaseSeconds {
        PhaseSeconds {
            translate: self.translate + o.translate,
            gpu_wait: self.gpu_wait + o.gpu_wait,
            render_new: self.render_new + o.render_new,
            render_old: self.render_old + o.render_old,
            judge: self.judge + o.judge,
        }
    }
}

/// A comparison that could not be made: which side, why, and the diagnostics.
#[derive(Debug)]
pub struct CompareError {
    pub cause: Cause,
    /// The first diagnostic, on one line.
    pub detail: String,
    pub diagnostics: Vec<Diagnostic>,
}

fn failed(step: verdict::Step, diagnostics: Vec<Diagnostic>) -> CompareError {
    let (cause, detail) = verdict::cause_of_error(step, &diagnostics);
    CompareError { cause, detail, diagnostics }
}

/// What the comparisons of one run share (nothing, for a lone comparison).
#[derive(Clone, Copy, Default)]
pub struct Shared<'a> {
    /// The old side's pass outputs ([`reference::memo`]).
    pub memo: Option<&'a reference::PassMemo>,
    /// The new side's translations and compiled passes.
    pub new_side: Option<&'a NewSideCache>,
}

/// Loads the `.cgp` at `path`, translates it with `edit` applied (see
/// [`translate_cgp_edited`]; the identity for a plain comparison), renders the new side
/// on `gpu` and the old side on the CPU, measures, judges against `thresholds` and,
/// for a failure, localises and classifies it. Diagnostics point into `sources`.
/// `gpu_lock` serialises the GPU side when comparisons run on several threads; `shared`
/// lends both sides what the run's other presets computed; `previews` asks for
/// [`Comparison::pass_previews`] (empty otherwise: the new side's passes are then read
/// back only to localise a failure).
#[allow(clippy::too_many_arguments)]
pub fn compare_cgp(
    sources: &mut SourceMap,
    path: &std::path::Path,
    fs: &dyn FileSystem,
    gpu: (&Arc<Gpu>, &std::sync::Mutex<()>),
    images: &[InputImage],
    frames: usize,
    viewport: Size,
    thresholds: &Thresholds,
    edit: &dyn Fn(&std::path::Path, String) -> String,
    shared: Shared,
    previews: bool,
) -> Result<Comparison, CompareError> {
    use verdict::Step;
    let clock = std::time::Instant::now();
    let mut seconds = PhaseSeconds::default();
    let mut lap = {
        let mut last = clock;
        move || {
            let now = std::time::Instant::now();
            let d = now.duration_since(last).as_secs_f64();
            last = now;
            d
        }
    };
    let (preset, diags) = translator::preset::load_cgp(sources, path, fs);
    let Some(preset) = preset else {
        return Err(failed(Step::Load, diags.into_iter().filter(Diagnostic::is_error).collect()));
    };
    let input = images.first().map_or(Size::new(1, 1), |i| i.size);
    check_pixel_budget(&preset, input, viewport).map_err(|d| failed(Step::Budget, vec![d]))?;
    let desc =
        translate_cgp_edited(sources, &preset, fs, edit, shared.new_side).map_err(|d| failed(Step::Translate, d))?;
    seconds.translate = lap();
    // The GPU is held only to read its conversions (measured once per device), then to
    // render the new side after the CPU reference: comparisons on other threads mostly
    // find it free, instead of all queueing for it at once before their long CPU part.
    let conversions = {
        let _serial = gpu.1.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        seconds.gpu_wait = lap();
        device_conversions(gpu.0).map_err(|d| failed(Step::RenderNew, vec![d]))?
    };
    let old_side =
        OldSide { preset: &preset, fs, images, frames, viewport, conversions: &conversions, memo: shared.memo };
    let old = render_old_detailed(sources, &old_side, false);
    seconds.render_old = lap();
    let rendered_new = {
        let _serial = gpu.1.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        seconds.gpu_wait += lap();
        render_new_chain(gpu.0.clone(), desc, images, frames, viewport)
    };
    seconds.render_new = lap();
    // The new side's failure is reported first, as when it rendered first.
    let mut new = rendered_new.map_err(|d| failed(Step::RenderNew, d))?;
    let mut old = old.map_err(|d| failed(Step::RenderOld, d))?;
    let job = Job { preset: &preset, fs, gpu, images, frames, viewport, thresholds, edit };
    let (Judged { metrics, well_defined, hazard_pct, verdict }, divergence) =
        judge_and_explain(sources, &job, &old_side, &mut old, &mut new).map_err(|d| failed(Step::RenderNew, d))?;
    let pass_previews = if previews {
        let new_passes = new.passes.get(gpu.1).map_err(|d| failed(Step::RenderNew, d))?;
        old.passes
            .iter()
            .zip(new_passes)
            .map(|(o, n)| PassPreview {
                old: as_stored(&o.image().downscaled(PREVIEW_SIDE), o.storage),
                new: as_stored(&n.downscaled(PREVIEW_SIDE), o.storage),
            })
            .collect()
    } else {
        Vec::new()
    };
    seconds.judge = lap();
    Ok(Comparison {
        metrics,
        well_defined,
        hazard_pct,
        verdict,
        divergence,
        old: old.image,
        new: new.image,
        hazard: old.hazard,
        pass_previews,
        seconds,
    })
}

/// What a comparison renders, for [`explain_failure`].
pub struct Job<'a> {
    pub preset: &'a Preset,
    pub fs: &'a dyn FileSystem,
    pub gpu: (&'a Arc<Gpu>, &'a std::sync::Mutex<()>),
    pub images: &'a [InputImage],
    pub frames: usize,
    pub viewport: Size,
    pub thresholds: &'a Thresholds,
    pub edit: &'a dyn Fn(&std::path::Path, String) -> String,
}

/// Why a failing comparison fails ([`explain_failure`]).
pub struct Explanation {
    /// The first pass whose well-defined pixels diverge.
    pub divergence: Option<PassDivergence>,
    pub cause: Cause,
    pub detail: String,
    /// For [`Cause::Amplification`]: one flag per pixel of the final image, set where
    /// the reference's stored value moves by more than a step when every pass reads
    /// the GPU's outputs of the earlier passes. Empty otherwise.
    pub amplified: Vec<bool>,
}

/// Localises and classifies a failing comparison: the first pass whose well-defined
/// pixels diverge (given both sides' pass outputs of the last frame), rendered again
/// through the naga-dialect route to tell the chain from the rest, then in isolation
/// ([`isolated`]) for a later pass both routes agree on.
pub fn explain_failure(
    sources: &mut SourceMap,
    job: &Job,
    old: &OldSide,
    well_defined: &Metrics,
    out: &reference::PresetOutput,
    new_passes: &[RgbaF32Image],
) -> Explanation {
    let old_passes = &out.passes;
    let divergence = first_divergence(job.preset, old_passes, new_passes, job.thresholds);
    let mut amplified = Vec::new();
    let (cause, detail) = match &divergence {
        None => (
            Cause::Unexplained,
            format!("no pass diverges on its well-defined pixels, the final image does ({})", short(well_defined)),
        ),
        Some(d) => {
            let naga = {
                let _serial = job.gpu.1.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                translate_cgp_routed(sources, job.preset, job.fs, job.edit, Route::NagaDialect, None)
                    .and_then(|desc| render_new_passes(job.gpu.0.clone(), desc, job.images, job.frames, job.viewport))
            };
            let (cause, detail) = classify_divergence(
                d,
                naga.ok().as_ref().and_then(|(_, p)| p.get(d.index)),
                old_passes,
                job.thresholds,
            );
            match cause {
                Cause::Unexplained if d.index > 0 => {
                    let (cause, detail, changed) =
                        isolated(sources, old, &out.image, new_passes, job.thresholds, d, detail);
                    amplified = changed;
                    (cause, detail)
                }
                _ => (cause, detail),
            }
        }
    };
    Explanation { divergence, cause, detail, amplified }
}

/// Renders the original again with every pass reading the GPU's outputs of the earlier
/// passes, and compares each pass's own output with the GPU's on its well-defined
/// pixels. All matching: the divergence `d` is [`Cause::Amplification`], and the third
/// value marks the final image's pixels whose stored value moves by more than
/// [`reference::hazard::PRECISION_STEPS`] steps between that render and `chained` (the
/// reference's own final image): the pixels a pass's gain makes hang on the
/// differences upstream (a difference carried through unamplified moves a step).
/// Otherwise it stays unexplained, `detail` extended with the first pass that diverges
/// on the GPU's inputs too, and nothing is marked.
fn isolated(
    sources: &mut SourceMap,
    old: &OldSide,
    chained: &RgbaF32Image,
    new_passes: &[RgbaF32Image],
    t: &Thresholds,
    d: &PassDivergence,
    detail: String,
) -> (Cause, String, Vec<bool>) {
    let Ok(out) = render_old_with(sources, old, false, new_passes) else {
        return (Cause::Unexplained, detail, Vec::new());
    };
    if let Some(again) = first_divergence(old.preset, &out.passes, new_passes, t) {
        let index = again.index;
        return (
            Cause::Unexplained,
            format!("{detail}; on the GPU's inputs pass {index} diverges too ({})", short(&again.well_defined)),
            Vec::new(),
        );
    }
    let name = d.shader.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    (
        Cause::Amplification,
        format!(
            "pass {} ({name}) diverges on well-defined pixels ({}), but every pass matches when it reads the GPU's outputs of the earlier passes: it amplifies differences upstream that are within the tolerance",
            d.index,
            short(&d.well_defined)
        ),
        reference::hazard::precision_sensitive(&chained.pixels, &out.image.pixels),
    )
}

/// PSNR and share within 2/255, for one-line details.
fn short(m: &Metrics) -> String {
    let psnr = m.psnr_finite().map_or_else(|| "identical".to_owned(), |p| format!("{p:.1} dB"));
    format!("{psnr}, {:.2}% within 2/255", m.within_2_255_pct)
}

/// The first pass (of the last frame) whose well-defined pixels miss the thresholds.
fn first_divergence(
    preset: &Preset,
    old: &[reference::PassOutput],
    new: &[RgbaF32Image],
    t: &Thresholds,
) -> Option<PassDivergence> {
    for (index, (o, n)) in old.iter().zip(new).enumerate() {
        // An sRGB target is compared as stored (encoded): one 8-bit step of its storage
        // near white is more than 2/255 of linear value.
        let (o_img, n_img) = (o.stored(), as_stored(n, o.storage));
        let Ok(well_defined) = metrics_where(&o_img, &n_img, &o.hazard) else { continue };
        if well_defined.passes(t) {
            continue;
        }
        let Ok(metrics) = metrics(&o_img, &n_img) else { continue };
        let shader = preset.passes.get(index).map(|p| p.shader_resolved.clone()).unwrap_or_default();
        return Some(PassDivergence {
            index,
            shader,
            well_defined,
            metrics,
            hazard_pct: hazard_pct(&o.hazard),
            old: o_img,
            new: n_img,
        });
    }
    None
}

/// A GPU pass output as its target stores it ([`reference::as_stored`] with the exact
/// conversions: the chain reads sRGB targets back through the transfer function, so the
/// encode recovers the stored bytes).
fn as_stored(img: &RgbaF32Image, storage: reference::StorageFormat) -> RgbaF32Image {
    reference::as_stored(img, storage, &reference::DeviceConversions::exact())
}

/// The 8-bit conversions of the device `gpu` (measured once per device), for the
/// reference to read and store its inputs and 8-bit targets as that device does.
pub fn device_conversions(gpu: &Gpu) -> Result<reference::DeviceConversions, Diagnostic> {
    let t = gpu.conversions()?;
    reference::DeviceConversions::measured(t.unorm8, t.srgb8, t.unorm8_encode, t.srgb8_encode)
        .ok_or_else(|| Diagnostic::error(codes::E_CHAIN_GPU, "the device's 8-bit conversion tables are not monotone"))
}

/// The cause of a divergent pass: the chain when the naga-dialect route renders the
/// pass differently from glslang's route (same translation, two front ends), else
/// unexplained (no independent render to tell the translation from the reference).
fn classify_divergence(
    d: &PassDivergence,
    naga_route: Option<&RgbaF32Image>,
    old: &[reference::PassOutput],
    t: &Thresholds,
) -> (Cause, String) {
    let name = d.shader.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let at = format!("pass {} ({name}) diverges on well-defined pixels ({})", d.index, short(&d.well_defined));
    let hazard = old.get(d.index).map_or(&[][..], |o| &o.hazard[..]);
    // `d.new` is as stored; so must the other route's output be.
    let storage = old.get(d.index).map_or(reference::StorageFormat::Float32, |o| o.storage);
    match naga_route.map(|n| metrics_where(&d.new, &as_stored(n, storage), hazard)) {
        Some(Ok(m)) if !m.passes(t) => {
            (Cause::Chain, format!("{at}; glslang's SPIR-V and naga's GLSL front end render it apart ({})", short(&m)))
        }
        Some(Ok(_)) => (Cause::Unexplained, format!("{at}; both GPU routes agree")),
        _ => (Cause::Unexplained, format!("{at}; no second GPU route to compare")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_pass_outputs_are_compared_as_stored() {
        // A linear 3/255 reads back as itself; stored in an sRGB target it is about 28.2/255.
        let img = RgbaF32Image { width: 1, height: 1, pixels: vec![[3.0 / 255.0, 1.0, 0.0, 0.5]] };
        let stored = as_stored(&img, reference::StorageFormat::Srgb8);
        let [r, g, b, a] = stored.pixels[0];
        assert!((r * 255.0 - 28.2).abs() < 0.1, "{r}");
        assert!((g - 1.0).abs() < 1e-6 && b == 0.0, "1 and 0 are fixed points: {g} {b}");
        assert_eq!(a, 0.5, "alpha is linear");
        assert_eq!(as_stored(&img, reference::StorageFormat::Unorm8).pixels, img.pixels);
        // One sRGB step near white is more than 2/255 of linear value, but one step stored.
        let step = |v: f32| RgbaF32Image { width: 1, height: 1, pixels: vec![[v, v, v, 1.0]] };
        let (lo, hi) = (reference::image::srgb_decode(253.0 / 255.0), reference::image::srgb_decode(254.0 / 255.0));
        let t = Thresholds::default();
        let linear = metrics(&step(lo), &step(hi)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!linear.passes(&t), "linear: {linear:?}");
        let s = reference::StorageFormat::Srgb8;
        let stored = metrics(&as_stored(&step(lo), s), &as_stored(&step(hi), s)).unwrap_or_else(|e| panic!("{e}"));
        assert!(stored.within_2_255_pct == 100.0, "stored: {stored:?}");
    }

    #[test]
    fn a_lut_file_is_decoded_once_per_run_and_a_failure_is_not_kept() {
        let dir = std::env::temp_dir().join(format!("cg2slang-lut-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e:?}"));
        let png = |rgba: [u8; 4]| {
            crate::chain::image_io::encode_png(crate::plan::Size::new(1, 1), &rgba).unwrap_or_else(|e| panic!("{e:?}"))
        };
        let path = dir.join("lut.png");
        let cache = NewSideCache::default();
        let missing = cache.lut(&path).expect_err("no file yet");
        assert_eq!(missing.code, codes::E_CHAIN_IMAGE, "{}", missing.message);
        std::fs::write(&path, png([10, 20, 30, 255])).unwrap_or_else(|e| panic!("{e:?}"));
        let first = cache.lut(&path).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(&first.rgba8[..], &[10, 20, 30, 255], "the failure was not kept");
        // A changed file is not read again during the run, and a hit shares the bytes.
        std::fs::write(&path, png([99, 99, 99, 255])).unwrap_or_else(|e| panic!("{e:?}"));
        let again = cache.lut(&path).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(Arc::ptr_eq(&first.rgba8, &again.rgba8));
        // Without the cache the file is read as it is now.
        let fresh = load_image(&path).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(&fresh.rgba8[..], &[99, 99, 99, 255]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
