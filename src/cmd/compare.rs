//! `cg2slang compare`: renders a `.cgp` preset twice, the Cg original on the CPU
//! reference renderer ("old") and its translation on the headless wgpu chain ("new",
//! the canonical text compiled by glslang as RetroArch does), and compares the two
//! final frames.
//!
//! `cg2slang compare PRESET.cgp --image IN.png [--image IN2.png ...] [--frames N]
//! [--viewport WxH] [--psnr DB] [--within PCT] --out-dir DIR [--force]`
//!
//! Frame `f` reads image `f % count` (the images repeat); `--frames` defaults to one per
//! image and the viewport to the first image's size. DIR receives `old.png`, `new.png`,
//! `diff.png` (differences amplified, see `runtime_check::compare::heatmap`),
//! `hazard.png` (the reference's hazardous pixels in white, see
//! `runtime_check::reference::hazard`) and `metrics.json` (whole-image and
//! well-defined metrics, the hazard share, status, cause, the first divergent pass);
//! for a failure whose first divergent pass is found, also `pass-old.png`,
//! `pass-new.png` and `pass-diff.png` of that pass. Every file is written atomically
//! and none over an existing file without `--force` (checked before rendering). Prints
//! a one-line verdict. The verdict is taken on the well-defined pixels. Exit 0 when
//! both thresholds are met there (defaults 40 dB and 99.5 %), also for
//! `pass-hazardous`; 1 below them or when the preset or its translation has errors; 2
//! on usage, I/O or GPU-availability errors.

use super::render::{gpu, load_images, parse_size};
use super::{write_stdout, Exit, Reporter};
use cg2slang::migrate::report::DeviceDecode;
use cg2slang::output::{first_existing, write_atomic};
use clap::Args;
use grammar::{RealFs, SourceMap};
use runtime_check::chain::image_io;
use runtime_check::codes;
use runtime_check::compare::{self, Cause, Status, Thresholds};
use runtime_check::plan::Size;
use runtime_check::reference::RgbaF32Image;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The Cg preset to compare.
    #[arg(value_name = "PRESET.cgp")]
    pub preset: PathBuf,

    /// An input frame (PNG); give several for a sequence (repeated in order).
    #[arg(long = "image", value_name = "IN.png", required = true)]
    pub images: Vec<PathBuf>,

    /// Frames to render (default: one per image).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub frames: Option<u64>,

    /// The viewport (default: the first image's size).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub viewport: Option<Size>,

    /// The lowest acceptable PSNR in dB (over RGB).
    #[arg(long, value_name = "DB", default_value_t = 40.0, value_parser = parse_finite)]
    pub psnr: f64,

    /// The lowest acceptable share of pixels within 2/255 on every RGB channel, in percent.
    #[arg(long, value_name = "PCT", default_value_t = 99.5, value_parser = parse_percent)]
    pub within: f64,

    /// Where to write old.png, new.png, diff.png and metrics.json.
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,

    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
}

fn parse_finite(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("`{s}` is not a finite number")),
    }
}

fn parse_percent(s: &str) -> Result<f64, String> {
    let v = parse_finite(s)?;
    if (0.0..=100.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("`{s}` is not a percentage from 0 to 100"))
    }
}

const FILES: [&str; 8] =
    ["old.png", "new.png", "diff.png", "hazard.png", "metrics.json", "pass-old.png", "pass-new.png", "pass-diff.png"];

#[derive(Serialize)]
struct JsonThresholds {
    psnr: f64,
    within_2_255: f64,
}

#[derive(Serialize)]
struct JsonMetrics<'a> {
    preset: String,
    /// `null` when the images are identical (infinite PSNR).
    psnr: Option<f64>,
    max_abs_error: f64,
    max_abs_error_255: f64,
    /// Percent of pixels within 2/255 on every RGB channel.
    within_2_255: f64,
    pixels: usize,
    thresholds: JsonThresholds,
    /// The verdict (on the well-defined pixels) met the thresholds.
    passed: bool,
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<Cause>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cause_detail: Option<String>,
    /// The same metrics over the pixels without hazard.
    well_defined: JsonWellDefined,
    /// The share of hazardous pixels, in percent.
    hazard_pct: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divergent_pass: Option<JsonPass>,
    frames: u64,
    viewport: [u32; 2],
    adapter: &'a str,
    /// How far the adapter's 8-bit decodes lie from exact (the reference reads 8-bit
    /// textures through them).
    device_decode: DeviceDecode,
}

#[derive(Serialize)]
struct JsonWellDefined {
    psnr: Option<f64>,
    max_abs_error_255: f64,
    within_2_255: f64,
    pixels: usize,
}

impl JsonWellDefined {
    fn of(m: &compare::Metrics) -> JsonWellDefined {
        JsonWellDefined {
            psnr: m.psnr_finite(),
            max_abs_error_255: m.max_abs_error_255(),
            within_2_255: m.within_2_255_pct,
            pixels: m.pixels,
        }
    }
}

#[derive(Serialize)]
struct JsonPass {
    index: usize,
    shader: String,
    well_defined: JsonWellDefined,
    hazard_pct: f64,
}

/// The hazard map as an image: hazardous pixels white, the others black.
fn hazard_image(width: u32, height: u32, hazard: &[bool]) -> RgbaF32Image {
    RgbaF32Image::from_fn(width, height, |x, y| {
        let h = hazard.get(y as usize * width as usize + x as usize).copied().unwrap_or(false);
        if h {
            [1.0; 4]
        } else {
            [0.0, 0.0, 0.0, 1.0]
        }
    })
}

fn png(image: &RgbaF32Image) -> Result<Vec<u8>, grammar::Diagnostic> {
    image_io::encode_png(Size::new(image.width, image.height), &image.to_rgba8())
}

pub fn run(args: &CompareArgs, reporter: &Reporter) -> Exit {
    let files: Vec<PathBuf> = FILES.iter().map(|f| args.out_dir.join(f)).collect();
    if let Some((_, p)) = first_existing(files.iter().map(PathBuf::as_path), args.force) {
        reporter.error(&format!("cannot write {}: it already exists (use --force to overwrite)", p.display()));
        return Exit::Failure;
    }
    let Some(images) = load_images(&args.images, reporter) else { return Exit::Failure };
    let Some(first) = images.first() else {
        reporter.error("no input image");
        return Exit::Failure;
    };
    let viewport = args.viewport.unwrap_or(first.size);
    let frames = args.frames.unwrap_or(images.len() as u64);

    let mut sources = SourceMap::new();
    let (preset, diags) = translator::preset::load_cgp(&mut sources, &args.preset, &RealFs);
    reporter.diagnostics(&sources, &diags);
    let Some(preset) = preset else {
        return if args.preset.exists() { Exit::Errors } else { Exit::Failure };
    };
    if let Err(d) = compare::check_pixel_budget(&preset, first.size, viewport) {
        reporter.diagnostics(&sources, &[d]);
        return Exit::Errors;
    }
    let desc = match compare::translate_cgp(&mut sources, &preset, &RealFs) {
        Ok(d) => d,
        Err(d) => {
            let code = if d.iter().all(|x| x.code == codes::E_CHAIN_IMAGE) { Exit::Failure } else { Exit::Errors };
            reporter.diagnostics(&sources, &d);
            return code;
        }
    };
    let Some(gpu) = gpu(&sources, reporter) else { return Exit::Failure };
    let adapter = gpu.describe();
    let mut new = match compare::render_new_chain(gpu.clone(), desc, &images, frames as usize, viewport) {
        Ok(i) => i,
        Err(d) => {
            let code = if d.iter().any(|x| x.code == codes::E_CHAIN_GPU) { Exit::Failure } else { Exit::Errors };
            reporter.diagnostics(&sources, &d);
            return code;
        }
    };
    let conversions = match compare::device_conversions(&gpu) {
        Ok(t) => t,
        Err(d) => {
            reporter.diagnostics(&sources, &[d]);
            return Exit::Failure;
        }
    };
    let device_decode = DeviceDecode::of(&conversions);
    let thresholds = Thresholds { psnr_db: args.psnr, within_pct: args.within };
    let old_side = compare::OldSide {
        preset: &preset,
        fs: &RealFs,
        images: &images,
        frames: frames as usize,
        viewport,
        conversions: &conversions,
        memo: None,
    };
    let mut old_render = match compare::render_old_detailed(&mut sources, &old_side, false) {
        Ok(i) => i,
        Err(d) => {
            reporter.diagnostics(&sources, &d);
            return Exit::Errors;
        }
    };
    let lock = std::sync::Mutex::new(());
    let job = compare::Job {
        preset: &preset,
        fs: &RealFs,
        gpu: (&gpu, &lock),
        images: &images,
        frames: frames as usize,
        viewport,
        thresholds: &thresholds,
        edit: &|_, text| text,
    };
    let judged = match compare::judge_and_explain(&mut sources, &job, &old_side, &mut old_render, &mut new) {
        Ok(j) => j,
        Err(d) => {
            let code = if d.iter().any(|x| x.code == codes::E_CHAIN_GPU) { Exit::Failure } else { Exit::Errors };
            reporter.diagnostics(&sources, &d);
            return code;
        }
    };
    let new = new.image;
    let diff = match compare::heatmap(&old_render.image, &new) {
        Ok(h) => h,
        Err(e) => {
            reporter.error(&format!("cannot compare: {e}"));
            return Exit::Errors;
        }
    };
    let (compare::Judged { metrics, well_defined, hazard_pct, verdict }, divergence) = judged;
    let old = &old_render.image;
    let passed = verdict.status != Status::Fail;
    let json = JsonMetrics {
        preset: args.preset.display().to_string(),
        psnr: metrics.psnr_finite(),
        max_abs_error: metrics.max_abs_error,
        max_abs_error_255: metrics.max_abs_error_255(),
        within_2_255: metrics.within_2_255_pct,
        pixels: metrics.pixels,
        thresholds: JsonThresholds { psnr: thresholds.psnr_db, within_2_255: thresholds.within_pct },
        passed,
        status: verdict.status,
        cause: verdict.cause,
        cause_detail: verdict.detail.clone(),
        well_defined: JsonWellDefined::of(&well_defined),
        hazard_pct,
        divergent_pass: divergence.as_ref().map(|d| JsonPass {
            index: d.index,
            shader: d.shader.display().to_string(),
            well_defined: JsonWellDefined::of(&d.well_defined),
            hazard_pct: d.hazard_pct,
        }),
        frames,
        viewport: [viewport.width, viewport.height],
        adapter: &adapter,
        device_decode,
    };
    let json = match serde_json::to_string_pretty(&json) {
        Ok(s) => s + "\n",
        Err(e) => {
            reporter.error(&format!("cannot serialise the metrics: {e}"));
            return Exit::Failure;
        }
    };
    let hazard = hazard_image(old.width, old.height, &old_render.hazard);
    let mut images_out: Vec<(&str, RgbaF32Image)> =
        vec![("old.png", old.clone()), ("new.png", new.clone()), ("diff.png", diff), ("hazard.png", hazard)];
    if let Some(d) = &divergence {
        if let Ok(h) = compare::heatmap(&d.old, &d.new) {
            images_out.push(("pass-old.png", d.old.clone()));
            images_out.push(("pass-new.png", d.new.clone()));
            images_out.push(("pass-diff.png", h));
        }
    }
    let mut outputs: Vec<(&str, Vec<u8>)> = Vec::new();
    for (name, image) in &images_out {
        match png(image) {
            Ok(bytes) => outputs.push((name, bytes)),
            Err(d) => {
                reporter.diagnostics(&sources, &[d]);
                return Exit::Failure;
            }
        }
    }
    outputs.push(("metrics.json", json.into_bytes()));
    for (name, bytes) in &outputs {
        let path: &Path = &args.out_dir.join(name);
        if let Err(e) = write_atomic(path, bytes, args.force) {
            reporter.error(&format!("cannot write {}: {e}", path.display()));
            return Exit::Failure;
        }
    }
    let mut line = format!(
        "{}: {} on well-defined pixels ({:.2}% hazardous); whole image {}",
        args.preset.display(),
        verdict.status.as_str(),
        hazard_pct,
        metrics.verdict(&thresholds)
    );
    if let (Some(c), Some(d)) = (verdict.cause, &verdict.detail) {
        line.push_str(&format!("\n  cause: {} ({d})", c.as_str()));
    }
    line.push('\n');
    if write_stdout(&line).is_err() {
        return Exit::Failure;
    }
    if passed {
        Exit::Clean
    } else {
        Exit::Errors
    }
}
