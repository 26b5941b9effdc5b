//! `cg2slang render`: renders a `.slangp` preset headlessly with the wgpu filter chain.
//!
//! `cg2slang render PRESET.slangp --image IN.png [--image IN2.png ...] --out OUT.png
//! [--frames N] [--viewport WxH] [--param NAME=VALUE]... [--dump-passes DIR] [--timings] [--force]`
//!
//! The images are the input frames, in order, repeated (the last one held) until
//! `--frames` frames are rendered (default: one per image). The viewport defaults to
//! the first image's size. OUT.png (and every file in DIR) is written atomically and
//! never over an existing file without `--force`. `--timings` prints the GPU time of
//! every pass per frame (timestamp queries; the first frame left out when there are
//! others), then the run's wall time phase by phase, on stdout. Exit 0 on success, 1 when the preset
//! or its shaders have errors, 2 on usage, I/O or GPU-availability errors (no Vulkan
//! adapter: install `mesa-vulkan-drivers`).

use super::{Exit, Reporter};
use cg2slang::output::{first_existing, write_atomic, WriteError};
use clap::Args;
use grammar::{Diagnostic, RealFs, SourceMap};
use runtime_check::chain::timings::format_table;
use runtime_check::chain::{self, image_io, ChainDesc, FilterChain, Gpu, PreparedChain};
use runtime_check::codes;
use runtime_check::plan::Size;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The slang preset to render.
    #[arg(value_name = "PRESET.slangp")]
    pub preset: PathBuf,

    /// An input frame (PNG); give several for a sequence.
    #[arg(long = "image", value_name = "IN.png", required = true)]
    pub images: Vec<PathBuf>,

    /// Where to write the final frame (PNG, viewport size).
    #[arg(long = "out", value_name = "OUT.png")]
    pub out: PathBuf,

    /// Frames to render (default: one per image; the last image is held).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub frames: Option<u64>,

    /// The viewport (default: the first image's size).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub viewport: Option<Size>,

    /// Override a parameter (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, f32)>,

    /// Also write every pass's output of the last frame here (`passN.png`).
    #[arg(long, value_name = "DIR")]
    pub dump_passes: Option<PathBuf>,

    /// Print the GPU time of every pass per frame (timestamp queries) and the run's wall
    /// time phase by phase.
    #[arg(long)]
    pub timings: bool,

    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
}

/// Parses `WxH`, both from 1 to 16384.
pub fn parse_size(s: &str) -> Result<Size, String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("`{s}` is not WxH (e.g. 1920x1080)"))?;
    let n = |t: &str| t.trim().parse::<u32>().ok().filter(|v| (1..=runtime_check::plan::MAX_SIZE).contains(v));
    match (n(w), n(h)) {
        (Some(w), Some(h)) => Ok(Size::new(w, h)),
        _ => Err(format!("`{s}`: width and height must be whole numbers from 1 to {}", runtime_check::plan::MAX_SIZE)),
    }
}

/// Parses `NAME=VALUE` with a finite float value.
pub fn parse_param(s: &str) -> Result<(String, f32), String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let name = name.trim();
    let valid = name.chars().next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
    if !valid {
        return Err(format!("`{name}` is not a parameter name"));
    }
    match value.trim().parse::<f32>() {
        Ok(v) if v.is_finite() => Ok((name.to_owned(), v)),
        _ => Err(format!("`{value}` is not a number")),
    }
}

/// The file name of every pass's shader, for the timing table (empty when the preset
/// cannot be read again).
fn shader_names(preset: &Path) -> Vec<String> {
    let (preset, _) = translator::preset::load_slangp(&mut SourceMap::new(), preset, &RealFs);
    preset.map_or_else(Vec::new, |p| {
        p.passes
            .iter()
            .map(|x| x.shader_resolved.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()))
            .collect()
    })
}

fn write(path: &Path, bytes: &[u8], force: bool, reporter: &Reporter) -> bool {
    match write_atomic(path, bytes, force) {
        Ok(()) => true,
        Err(e @ WriteError::Exists) | Err(e @ WriteError::Io(_)) => {
            reporter.error(&format!("cannot write {}: {e}", path.display()));
            false
        }
    }
}

/// Reads the input frames; reports the first that cannot be read.
pub fn load_images(paths: &[PathBuf], reporter: &Reporter) -> Option<Vec<runtime_check::chain::InputImage>> {
    let mut images = Vec::with_capacity(paths.len());
    for path in paths {
        match image_io::load_image(path) {
            Ok(i) => images.push(i),
            Err(d) => {
                reporter.diagnostics(&SourceMap::new(), &[d]);
                return None;
            }
        }
    }
    Some(images)
}

/// The GPU adapter, or the diagnostic saying how to get one (lavapipe) reported.
pub fn gpu(sources: &SourceMap, reporter: &Reporter) -> Option<Arc<Gpu>> {
    match Gpu::new() {
        Ok(g) => Some(Arc::new(g)),
        Err(d) => {
            reporter.diagnostics(sources, &[d]);
            None
        }
    }
}

/// Wall time of `render`'s phases, for `--timings`: where a run's start-up goes.
struct Phases {
    start: Instant,
    last: Instant,
    done: Vec<(&'static str, Duration)>,
}

impl Phases {
    fn new() -> Phases {
        let now = Instant::now();
        Phases { start: now, last: now, done: Vec::new() }
    }

    /// Ends the phase `name` (it began where the last one ended).
    fn end(&mut self, name: &'static str) {
        let now = Instant::now();
        self.done.push((name, now - self.last));
        self.last = now;
    }

    /// One line: each phase in ms, then the whole, then the work done on a second
    /// thread beside a phase (its name and time), which the phases do not count again.
    fn line(&self, beside: &[(&str, Duration)]) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let phases: Vec<String> = self.done.iter().map(|(n, d)| format!("{n} {:.1}", ms(*d))).collect();
        let beside: Vec<String> = beside.iter().map(|(n, d)| format!("{n} {:.1}", ms(*d))).collect();
        format!(
            "wall ms: {}; in all {:.1} (beside them: {})\n",
            phases.join(", "),
            ms(self.last - self.start),
            beside.join(", ")
        )
    }
}

/// Why a preset was not made ready for the device.
enum Unprepared {
    /// `--param` names that no pass declares (a usage error).
    UnknownParameters(Vec<Diagnostic>),
    /// The chain's own errors.
    Errors(Vec<Diagnostic>),
}

/// The chain of `desc` with the command line's parameters, made ready for a device
/// ([`ChainDesc::prepare`]); an unknown `--param` is an error.
fn prepare(mut desc: ChainDesc, args: &RenderArgs) -> Result<PreparedChain, Unprepared> {
    let declared = |name: &str| desc.passes.iter().any(|p| p.parameters.iter().any(|(id, _)| id == name));
    let unknown: Vec<Diagnostic> = args
        .params
        .iter()
        .filter(|(name, _)| !declared(name))
        .map(|(name, _)| {
            Diagnostic::error(
                codes::E_CHAIN_UNKNOWN_PARAMETER,
                format!("--param {name}: no pass of {} declares this parameter", args.preset.display()),
            )
        })
        .collect();
    if !unknown.is_empty() {
        return Err(Unprepared::UnknownParameters(unknown));
    }
    desc.parameters.extend(args.params.iter().cloned());
    desc.prepare().map_err(Unprepared::Errors)
}

pub fn run(args: &RenderArgs, reporter: &Reporter) -> Exit {
    let mut phases = Phases::new();
    if let Some((_, path)) = first_existing([args.out.as_path()], args.force) {
        reporter.error(&format!("cannot write {}: it already exists (use --force to overwrite)", path.display()));
        return Exit::Failure;
    }
    let mut sources = SourceMap::new();
    // Opening the device (Vulkan instance, adapter) and reading the images and the
    // preset (compiling its passes and preparing the chain, which needs no device) are
    // independent, so the reading runs on a second thread meanwhile. The device opens on
    // this thread: on an H200 the end of a thread that had opened it took 13 ms more
    // (start-up time).
    let (opened, (loaded, loading_time)) = std::thread::scope(|s| {
        let loading = s.spawn(|| {
            let t = Instant::now();
            let images = load_images(&args.images, reporter);
            let (desc, diags) = chain::preset::load_preset(&mut sources, &args.preset, &RealFs);
            let prepared = desc.map(|d| prepare(d, args));
            ((images, (prepared, diags)), t.elapsed())
        });
        let opened = Gpu::new();
        phases.end("the device");
        let loaded = loading.join().map_or((None, Duration::ZERO), |(l, t)| (Some(l), t));
        phases.end("waiting for images and preset");
        (opened, loaded)
    });
    let Some((images, (prepared, diags))) = loaded else {
        reporter.error("reading the images and the preset failed (its thread panicked)");
        return Exit::Failure;
    };
    let Some(images) = images else { return Exit::Failure };
    reporter.diagnostics(&sources, &diags);
    let prepared = match prepared {
        None => return Exit::Errors,
        Some(Err(Unprepared::UnknownParameters(d))) => {
            reporter.diagnostics(&sources, &d);
            return Exit::Failure;
        }
        Some(Err(Unprepared::Errors(d))) => {
            reporter.diagnostics(&sources, &d);
            return Exit::Errors;
        }
        Some(Ok(p)) => p,
    };
    let dumps: Vec<PathBuf> = match &args.dump_passes {
        Some(dir) => (0..prepared.pass_count()).map(|n| dir.join(format!("pass{n}.png"))).collect(),
        None => Vec::new(),
    };
    if let Some((count, first)) = first_existing(dumps.iter().map(PathBuf::as_path), args.force) {
        reporter.error(&format!(
            "{count} pass images already exist (first: {}); nothing was written. Use --force to overwrite.",
            first.display()
        ));
        return Exit::Failure;
    }
    let gpu = match opened {
        Ok(g) => Arc::new(g),
        Err(d) => {
            reporter.diagnostics(&sources, &[d]);
            return Exit::Failure;
        }
    };
    let mut chain = match FilterChain::from_prepared(gpu, prepared) {
        Ok(c) => c,
        Err(d) => {
            reporter.diagnostics(&sources, &d);
            return Exit::Errors;
        }
    };
    phases.end("chain");
    if args.timings {
        if let Err(d) = chain.time_passes() {
            reporter.diagnostics(&sources, &[d]);
            return Exit::Failure;
        }
    }
    let Some(first) = images.first() else {
        reporter.error("no input image");
        return Exit::Failure;
    };
    let viewport = args.viewport.unwrap_or(first.size);
    let frames = args.frames.unwrap_or(images.len() as u64);
    for f in 0..frames {
        let idx = (f as usize).min(images.len() - 1);
        if let Err(d) = chain.render(&images[idx], viewport) {
            let code = if d.iter().any(|x| x.code == codes::E_CHAIN_GPU) { Exit::Failure } else { Exit::Errors };
            reporter.diagnostics(&sources, &d);
            return code;
        }
    }
    phases.end("frames");
    for (i, unknown) in chain.unknown_uniforms.iter().enumerate() {
        if !unknown.is_empty() {
            reporter.error(&format!(
                "warning: pass {i}: uniform(s) {} match no semantic or parameter and were left 0",
                unknown.join(", ")
            ));
        }
    }
    if let Some(timings) = chain.pass_timings() {
        match timings {
            Ok(t) => print!("{}", format_table(&t, &chain.gpu_name(), &shader_names(&args.preset))),
            Err(d) => {
                reporter.diagnostics(&sources, &[d]);
                return Exit::Failure;
            }
        }
        phases.end("the GPU's timestamps");
    }
    let output = match chain.read_output_rgba8() {
        Ok(p) => p,
        Err(d) => {
            reporter.diagnostics(&sources, &[d]);
            return Exit::Failure;
        }
    };
    phases.end("read-back");
    if !dumps.is_empty() {
        for (n, path) in dumps.iter().enumerate().take(chain.pass_count()) {
            let png = chain.read_pass(n).and_then(|p| image_io::encode_png(p.size, &p.to_rgba8()));
            match png {
                Ok(bytes) => {
                    if !write(path, &bytes, args.force, reporter) {
                        return Exit::Failure;
                    }
                }
                Err(d) => reporter.diagnostics(&sources, &[d]),
            }
        }
    }
    // Encoding and writing the PNG need nothing of the GPU, so they run on a second
    // thread while this one, which opened the device, closes it (dropping the chain
    // drops the last handle): on an H200 the driver takes about 47 ms to close a device.
    let (written, writing_time) = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let t = Instant::now();
            let written =
                image_io::encode_png(output.0, &output.1).map(|bytes| write(&args.out, &bytes, args.force, reporter));
            (written, t.elapsed())
        });
        drop(chain);
        phases.end("closing the device");
        let written = writer.join();
        phases.end("waiting for the PNG");
        written.map_or((None, Duration::ZERO), |(w, t)| (Some(w), t))
    });
    let exit = match written {
        None => {
            reporter.error("encoding and writing the PNG failed (its thread panicked)");
            Exit::Failure
        }
        Some(Ok(true)) => Exit::Clean,
        Some(Ok(false)) => Exit::Failure,
        Some(Err(d)) => {
            reporter.diagnostics(&sources, &[d]);
            Exit::Failure
        }
    };
    if args.timings && exit == Exit::Clean {
        print!("{}", phases.line(&[("images and preset read", loading_time), ("PNG written", writing_time)]));
    }
    exit
}
