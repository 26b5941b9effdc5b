//! `cg2slang migrate`: a whole Cg library (.cgp presets and .cg files) to slang.
//!
//! Walks each SRC (directories recursively, or single files), plans every translation
//! with [`translator::migrate::plan`] in parallel (rayon, `--jobs`), then writes the
//! output tree under `--out` mirroring the sources: one `.slang` per distinct
//! translation, one `.slangp` per preset, LUT images copied. Nothing is overwritten
//! without `--force` (checked before anything is written), every file is written
//! atomically, and the JSON report (`--report`, format in README.md) lists every shader
//! and preset with its diagnostics. A progress bar shows on a terminal only.
//! Exit 0 when everything translated, 1 when some input failed, 2 on usage/I/O errors.

use super::migrate_compare::{compare_all, CompareSetup, PresetComparison};
use super::output::{write_atomic, WriteError};
use super::{Exit, Reporter};
use clap::Args;
use grammar::{RealFs, Severity};
use rayon::prelude::*;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use translator::migrate::{self, Check, Plan, ReportDiagnostic, Root, Status};

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// .cgp presets, .cg files, or directories walked for both.
    #[arg(value_name = "SRC", required = true)]
    pub sources: Vec<PathBuf>,

    /// The output directory (created; must not lie inside a source directory).
    #[arg(long = "out", value_name = "DIR")]
    pub out: PathBuf,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,

    /// Write the JSON report here.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,

    /// Skip validation of the emitted shaders.
    #[arg(long)]
    pub no_validate: bool,

    /// After writing, compare old and new for every translated preset (CPU reference of
    /// the Cg original against the GPU chain of the translation) and report the metrics.
    #[arg(long, requires = "compare_images")]
    pub compare: bool,

    /// An input frame for `--compare` (PNG); several make a sequence.
    #[arg(long = "compare-image", value_name = "IN.png", requires = "compare")]
    pub compare_images: Vec<PathBuf>,

    /// Frames each comparison renders.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub compare_frames: u64,

    /// The comparison viewport (default: twice the first image's size).
    #[arg(long, value_name = "WxH", value_parser = super::render::parse_size)]
    pub compare_viewport: Option<runtime_check::plan::Size>,
}

#[derive(Serialize)]
struct JsonDiagnostic {
    code: String,
    severity: &'static str,
    message: String,
    file: String,
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct JsonValidation {
    naga: &'static str,
    glslang: &'static str,
}

#[derive(Serialize)]
struct JsonShader {
    source: String,
    output: Option<String>,
    status: &'static str,
    used_by: Vec<String>,
    variant: usize,
    diagnostics: Vec<JsonDiagnostic>,
    validation: JsonValidation,
}

#[derive(Serialize)]
struct JsonPreset {
    source: String,
    output: Option<String>,
    status: &'static str,
    passes: usize,
    passes_translated: usize,
    diagnostics: Vec<JsonDiagnostic>,
    /// With `--compare`, for presets that translated.
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<PresetComparison>,
}

#[derive(Serialize)]
struct JsonCompareSummary {
    compared: usize,
    passed: usize,
    failed: usize,
    errors: usize,
    frames: u64,
    viewport: [u32; 2],
    psnr_threshold: f64,
    within_2_255_threshold: f64,
    adapter: String,
    seconds: f64,
}

#[derive(Serialize)]
struct JsonSummary {
    cg_files: usize,
    cgp_files: usize,
    shaders: usize,
    shaders_translated: usize,
    shaders_with_warnings: usize,
    shaders_failed: usize,
    shader_variants: usize,
    presets: usize,
    presets_translated: usize,
    presets_failed: usize,
    luts_copied: usize,
    /// Paths skipped because a `.cg2slangignore` lists them.
    ignored_paths: usize,
    validated: usize,
    /// With `--compare`.
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<JsonCompareSummary>,
    seconds: f64,
}

#[derive(Serialize)]
struct JsonReport {
    tool: &'static str,
    version: &'static str,
    shaders: Vec<JsonShader>,
    presets: Vec<JsonPreset>,
    summary: JsonSummary,
}

fn json_diags(d: &[ReportDiagnostic]) -> Vec<JsonDiagnostic> {
    d.iter()
        .map(|d| JsonDiagnostic {
            code: d.code.clone(),
            severity: d.severity.as_str(),
            message: d.message.clone(),
            file: d.file.clone(),
            line: d.line,
            column: d.column,
        })
        .collect()
}

/// The file that lists, one per line, paths (relative to its directory) that `migrate`
/// does not walk: test inputs, work in progress. `#` starts a comment line.
pub const IGNORE_FILE: &str = ".cg2slangignore";

/// Walks `dir` for .cg and .cgp files, skipping the output directory, hidden
/// directories and what `.cg2slangignore` files list; returns how many paths the
/// ignore files skipped.
fn walk(dir: &Path, skip: &Path, root: &mut Root) -> std::io::Result<usize> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.flatten().map(|e| e.path()).collect();
    entries.sort();
    let ignored: Vec<PathBuf> = match std::fs::read_to_string(dir.join(IGNORE_FILE)) {
        Ok(text) => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| grammar::source::normalize(&dir.join(l.trim_end_matches('/'))))
            .collect(),
        Err(_) => Vec::new(),
    };
    let mut skipped = 0;
    for p in entries {
        if ignored.contains(&grammar::source::normalize(&p)) {
            skipped += 1;
            continue;
        }
        if p.is_dir() {
            if same_dir(&p, skip) || p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                continue;
            }
            skipped += walk(&p, skip, root)?;
        } else {
            match p.extension().and_then(|e| e.to_str()) {
                Some("cgp") => root.cgp.push(p),
                Some("cg") => root.cg.push(p),
                _ => {}
            }
        }
    }
    Ok(skipped)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The inputs named on the command line: directories walked (skipping `out` and what
/// `.cg2slangignore` files list), single .cg/.cgp files as roots of their own. Returns
/// the roots and how many paths ignore files skipped, or the message of a usage error
/// (missing source, or with `refuse_inside` an output directory inside a source one).
pub fn discover(sources: &[PathBuf], out: &Path, refuse_inside: bool) -> Result<(Vec<Root>, usize), String> {
    let mut roots = Vec::new();
    let mut ignored = 0;
    for src in sources {
        if src.is_dir() {
            if let (Ok(s), Ok(o)) = (src.canonicalize(), absolute(out)) {
                if refuse_inside && o.starts_with(&s) {
                    return Err(format!(
                        "the output directory {} lies inside the source directory {}; choose one outside it",
                        out.display(),
                        src.display()
                    ));
                }
            }
            let mut root = Root { base: src.clone(), cgp: Vec::new(), cg: Vec::new() };
            ignored += walk(src, out, &mut root).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
            roots.push(root);
        } else if src.is_file() {
            let base = src.parent().map(Path::to_path_buf).unwrap_or_default();
            let mut root = Root { base, cgp: Vec::new(), cg: Vec::new() };
            match src.extension().and_then(|e| e.to_str()) {
                Some("cgp") => root.cgp.push(src.clone()),
                Some("cg") => root.cg.push(src.clone()),
                _ => return Err(format!("{}: not a .cg or .cgp file", src.display())),
            }
            roots.push(root);
        } else {
            return Err(format!("{}: no such file or directory", src.display()));
        }
    }
    Ok((roots, ignored))
}

pub fn run(args: &MigrateArgs, reporter: &Reporter) -> Exit {
    let start = std::time::Instant::now();
    let (roots, ignored) = match discover(&args.sources, &args.out, true) {
        Ok(found) => found,
        Err(message) => {
            reporter.error(&message);
            return Exit::Failure;
        }
    };
    let compare_setup = if args.compare {
        let Some(images) = super::render::load_images(&args.compare_images, reporter) else { return Exit::Failure };
        let Some(first) = images.first() else {
            reporter.error("--compare needs at least one --compare-image");
            return Exit::Failure;
        };
        let viewport = args
            .compare_viewport
            .unwrap_or(runtime_check::plan::Size::new(first.size.width * 2, first.size.height * 2));
        let Some(gpu) = super::render::gpu(&grammar::SourceMap::new(), reporter) else { return Exit::Failure };
        Some(CompareSetup {
            gpu,
            images,
            frames: args.compare_frames as usize,
            viewport,
            thresholds: runtime_check::compare::Thresholds::default(),
        })
    } else {
        None
    };
    let cg_files: usize = roots.iter().map(|r| r.cg.len()).sum();
    let cgp_files: usize = roots.iter().map(|r| r.cgp.len()).sum();

    // Plan, in parallel.
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(args.jobs.unwrap_or(0)).build() {
        Ok(p) => p,
        Err(e) => {
            reporter.error(&format!("cannot start worker threads: {e}"));
            return Exit::Failure;
        }
    };
    let bar = progress_bar("translating", 0);
    let progress = |n: usize, total: usize| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(n as u64);
        }
    };
    let validator: Option<&migrate::Validator> =
        if args.no_validate { None } else { Some(&runtime_check::validate::for_migration) };
    let plan: Plan = pool.install(|| migrate::plan(&roots, &RealFs, validator, &progress));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }

    // Refuse to overwrite before writing anything.
    let targets: Vec<PathBuf> = plan
        .shaders
        .iter()
        .filter(|s| s.text.is_some())
        .map(|s| args.out.join(&s.output))
        .chain(plan.presets.iter().filter(|p| p.text.is_some()).map(|p| args.out.join(&p.output)))
        .chain(plan.copies.iter().map(|c| args.out.join(&c.output)))
        .collect();
    if !args.force {
        let existing: Vec<&PathBuf> = targets.iter().filter(|t| t.exists()).collect();
        if !existing.is_empty() {
            reporter.error(&format!(
                "{} output files already exist (first: {}); nothing was written. Use --force to overwrite.",
                existing.len(),
                existing[0].display()
            ));
            return Exit::Failure;
        }
    }

    // Write, in parallel (each file is independent; `write_atomic` syncs each one, so
    // the waits overlap), then report failures in a stable order.
    enum Content<'a> {
        Text(&'a str),
        Copy(&'a Path),
    }
    let files: Vec<(PathBuf, Content)> = plan
        .shaders
        .iter()
        .filter_map(|s| s.text.as_deref().map(|t| (args.out.join(&s.output), Content::Text(t))))
        .chain(
            plan.presets.iter().filter_map(|p| p.text.as_deref().map(|t| (args.out.join(&p.output), Content::Text(t)))),
        )
        .chain(plan.copies.iter().map(|c| (args.out.join(&c.output), Content::Copy(&c.source))))
        .collect();
    // Ok(copied a LUT), or Err((an output could not be written, message)).
    let written: Vec<Result<bool, (bool, String)>> = pool.install(|| {
        files
            .par_iter()
            .map(|(path, content)| {
                let (bytes, copied) = match content {
                    Content::Text(t) => (std::borrow::Cow::Borrowed(t.as_bytes()), false),
                    Content::Copy(source) => match std::fs::read(source) {
                        Ok(b) => (std::borrow::Cow::Owned(b), true),
                        Err(e) => return Err((false, format!("cannot read LUT {}: {e}", source.display()))),
                    },
                };
                match write_atomic(path, &bytes, true) {
                    Ok(()) => Ok(copied),
                    Err(WriteError::Exists) => Err((true, format!("cannot write {}: exists", path.display()))),
                    Err(WriteError::Io(e)) => Err((true, format!("cannot write {}: {e}", path.display()))),
                }
            })
            .collect()
    });
    let mut io_failed = false;
    let mut luts_copied = 0;
    for outcome in &written {
        match outcome {
            Ok(true) => luts_copied += 1,
            Ok(false) => {}
            Err((output, message)) => {
                reporter.error(message);
                io_failed |= *output;
            }
        }
    }

    // Compare.
    let compare_start = std::time::Instant::now();
    let compared: Vec<usize> = (0..plan.presets.len()).filter(|&i| plan.presets[i].text.is_some()).collect();
    let mut comparisons: Vec<Option<PresetComparison>> = vec![None; plan.presets.len()];
    if let Some(setup) = &compare_setup {
        let paths: Vec<PathBuf> = compared.iter().map(|&i| plan.presets[i].source.clone()).collect();
        let bar = progress_bar("comparing", paths.len());
        let tick = || {
            if let Some(b) = &bar {
                b.inc(1);
            }
        };
        let results = pool.install(|| compare_all(&paths, setup, &tick));
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        for (&i, r) in compared.iter().zip(results) {
            comparisons[i] = Some(r);
        }
    }
    let compare_summary = compare_setup.as_ref().map(|setup| {
        let count = |status: &str| comparisons.iter().flatten().filter(|c| c.status == status).count();
        JsonCompareSummary {
            compared: compared.len(),
            passed: count("pass"),
            failed: count("fail"),
            errors: count("error"),
            frames: args.compare_frames,
            viewport: [setup.viewport.width, setup.viewport.height],
            psnr_threshold: setup.thresholds.psnr_db,
            within_2_255_threshold: setup.thresholds.within_pct,
            adapter: setup.gpu.describe(),
            seconds: compare_start.elapsed().as_secs_f64(),
        }
    });

    // Report.
    let report = JsonReport {
        tool: "cg2slang",
        version: env!("CARGO_PKG_VERSION"),
        shaders: plan
            .shaders
            .iter()
            .map(|s| JsonShader {
                source: s.source.display().to_string(),
                output: s.text.as_ref().map(|_| args.out.join(&s.output).display().to_string()),
                status: s.status.as_str(),
                used_by: s.used_by.clone(),
                variant: s.variant,
                diagnostics: json_diags(&s.diagnostics),
                validation: JsonValidation { naga: s.naga.as_str(), glslang: s.glslang.as_str() },
            })
            .collect(),
        presets: plan
            .presets
            .iter()
            .zip(comparisons)
            .map(|(p, comparison)| JsonPreset {
                source: p.source.display().to_string(),
                output: p.text.as_ref().map(|_| args.out.join(&p.output).display().to_string()),
                status: p.status.as_str(),
                passes: p.passes,
                passes_translated: p.passes_ok,
                diagnostics: json_diags(&p.diagnostics),
                comparison,
            })
            .collect(),
        summary: JsonSummary {
            cg_files,
            cgp_files,
            shaders: plan.shaders.len(),
            shaders_translated: plan.shaders.iter().filter(|s| s.text.is_some()).count(),
            shaders_with_warnings: plan.shaders.iter().filter(|s| s.status == Status::Warning).count(),
            shaders_failed: plan.shaders.iter().filter(|s| s.text.is_none()).count(),
            shader_variants: plan.shaders.iter().filter(|s| s.variant > 1).count(),
            presets: plan.presets.len(),
            presets_translated: plan.presets.iter().filter(|p| p.text.is_some()).count(),
            presets_failed: plan.presets.iter().filter(|p| p.text.is_none()).count(),
            luts_copied,
            ignored_paths: ignored,
            validated: plan.shaders.iter().filter(|s| s.naga == Check::Ok && s.glslang == Check::Ok).count(),
            comparison: compare_summary,
            seconds: start.elapsed().as_secs_f64(),
        },
    };
    if let Some(path) = &args.report {
        match serde_json::to_string_pretty(&report) {
            Ok(json) => {
                if let Err(e) = write_atomic(path, json.as_bytes(), true) {
                    reporter.error(&format!("cannot write the report {}: {e}", path.display()));
                    io_failed = true;
                }
            }
            Err(e) => {
                reporter.error(&format!("cannot encode the report: {e}"));
                io_failed = true;
            }
        }
    }
    print_summary(&report, &plan);
    if io_failed {
        Exit::Failure
    } else if report.summary.shaders_failed > 0
        || report.summary.presets_failed > 0
        || plan.shaders.iter().any(|s| s.naga == Check::Error || s.glslang == Check::Error)
        || report.summary.comparison.as_ref().is_some_and(|c| c.failed + c.errors > 0)
    {
        Exit::Errors
    } else {
        Exit::Clean
    }
}

/// A progress bar on stderr when it is a terminal, else none.
fn progress_bar(what: &str, len: usize) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let b = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template(&format!("{{spinner}} {what} [{{bar:40}}] {{pos}}/{{len}} {{elapsed}}"))
    {
        b.set_style(style.progress_chars("=> "));
    }
    Some(b)
}

fn absolute(p: &Path) -> std::io::Result<PathBuf> {
    if p.exists() {
        p.canonicalize()
    } else {
        let parent = p.parent().filter(|x| !x.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Ok(absolute(parent)?.join(p.file_name().unwrap_or_default()))
    }
}

fn print_summary(r: &JsonReport, plan: &Plan) {
    let s = &r.summary;
    let mut out = String::new();
    out.push_str(&format!(
        "{:<10} {:>6} {:>11} {:>9} {:>7} {:>10}\n",
        "", "total", "translated", "warnings", "errors", "validated"
    ));
    out.push_str(&format!(
        "{:<10} {:>6} {:>11} {:>9} {:>7} {:>10}\n",
        "shaders", s.shaders, s.shaders_translated, s.shaders_with_warnings, s.shaders_failed, s.validated
    ));
    out.push_str(&format!(
        "{:<10} {:>6} {:>11} {:>9} {:>7} {:>10}\n",
        "presets",
        s.presets,
        s.presets_translated,
        r.presets.iter().filter(|p| p.status == "warning").count(),
        s.presets_failed,
        "-"
    ));
    if s.shader_variants > 0 {
        out.push_str(&format!(
            "{} shaders were emitted in more than one variant (different preset contexts)\n",
            s.shader_variants
        ));
    }
    let mut worst: Vec<&migrate::ShaderOut> = plan.shaders.iter().filter(|x| x.text.is_none()).collect();
    worst.sort_by_key(|x| std::cmp::Reverse(x.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()));
    if !worst.is_empty() {
        out.push_str("failed shaders (first error):\n");
        for w in worst.iter().take(10) {
            if let Some(d) = w.diagnostics.iter().find(|d| d.severity == Severity::Error) {
                out.push_str(&format!("  {}:{}:{}: {} {}\n", d.file, d.line, d.column, d.code, d.message));
            }
        }
        if worst.len() > 10 {
            out.push_str(&format!("  ... and {} more (see the report)\n", worst.len() - 10));
        }
    }
    if let Some(c) = &s.comparison {
        out.push_str(&format!(
            "old/new comparison: {} presets, {} pass, {} below the thresholds, {} could not be compared ({:.1}s)\n",
            c.compared, c.passed, c.failed, c.errors, c.seconds
        ));
        for p in r.presets.iter().filter(|p| p.comparison.as_ref().is_some_and(|c| c.status != "pass")).take(10) {
            if let Some(c) = &p.comparison {
                let why = match (&c.error, c.psnr, c.within_2_255) {
                    (Some(e), _, _) => e.clone(),
                    (None, psnr, within) => format!(
                        "PSNR {} dB, {:.3}% within 2/255",
                        psnr.map_or("inf".to_owned(), |p| format!("{p:.2}")),
                        within.unwrap_or(0.0)
                    ),
                };
                out.push_str(&format!("  {}: {} ({why})\n", p.source, c.status));
            }
        }
    }
    if s.ignored_paths > 0 {
        out.push_str(&format!("{} paths skipped as listed in {IGNORE_FILE} files\n", s.ignored_paths));
    }
    out.push_str(&format!("done in {:.2}s\n", s.seconds));
    let _ = super::write_stdout(&out);
}
