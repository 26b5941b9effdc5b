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

use super::discover::{discover, IGNORE_FILE};
use super::migrate_compare::{compare_all, CompareSetup, PresetComparison};
use super::output::{clean_debris, first_existing, write_atomic, WriteError};
use super::{Exit, Reporter};
use clap::Args;
use grammar::{RealFs, Severity};
use rayon::prelude::*;
use runtime_check::compare::Status as CompareStatus;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use translator::migrate::{self, Check, Plan, ReportDiagnostic, Status};

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
    /// Passed on well-defined pixels with more than 5 % of the image hazardous.
    passed_hazardous: usize,
    failed: usize,
    errors: usize,
    /// Non-pass (and hazard-only pass) entries by cause.
    causes: std::collections::BTreeMap<&'static str, usize>,
    frames: u64,
    viewport: [u32; 2],
    psnr_threshold: f64,
    within_2_255_threshold: f64,
    adapter: String,
    /// The adapter's 8-bit decodes against exact (`null` when they could not be probed).
    device_decode: Option<super::compare::JsonDeviceDecode>,
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

pub fn run(args: &MigrateArgs, reporter: &Reporter) -> Exit {
    let start = std::time::Instant::now();
    let found = match discover(&args.sources, &args.out, true) {
        Ok(found) => found,
        Err(message) => {
            reporter.error(&message);
            return Exit::Failure;
        }
    };
    for w in &found.warnings {
        reporter.warning(w);
    }
    let roots = found.roots;
    let ignored = found.ignored;
    let compare_setup = if args.compare {
        let setup = CompareSetup::open(&args.compare_images, args.compare_frames, args.compare_viewport, reporter);
        let Some(setup) = setup else { return Exit::Failure };
        Some(setup)
    } else {
        None
    };
    let cg_files: usize = roots.iter().map(|r| r.cg.len()).sum();
    let cgp_files: usize = roots.iter().map(|r| r.cgp.len()).sum();

    // Plan, in parallel.
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .stack_size(super::STACK_BYTES)
        .build()
    {
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
    let every_output = targets.iter().map(PathBuf::as_path).chain(args.report.as_deref());
    if let Some((count, first)) = first_existing(every_output, args.force) {
        reporter.error(&format!(
            "{count} output files already exist (first: {}); nothing was written. Use --force to overwrite.",
            first.display()
        ));
        return Exit::Failure;
    }
    clean_debris(&args.out);

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
    // Ok(whether it copied a LUT), or Err(why the output could not be written).
    let written: Vec<Result<bool, String>> = pool.install(|| {
        files
            .par_iter()
            .map(|(path, content)| {
                let (bytes, copied) = match content {
                    Content::Text(t) => (std::borrow::Cow::Borrowed(t.as_bytes()), false),
                    Content::Copy(source) => {
                        match grammar::source::read_regular(source, translator::preset::files::MAX_IMAGE_BYTES) {
                            Ok(b) => (std::borrow::Cow::Owned(b), true),
                            // A LUT that cannot be copied leaves a .slangp naming a missing file.
                            Err(e) => return Err(format!("cannot read LUT {}: {e}", source.display())),
                        }
                    }
                };
                match write_atomic(path, &bytes, true) {
                    Ok(()) => Ok(copied),
                    Err(WriteError::Exists) => Err(format!("cannot write {}: exists", path.display())),
                    Err(WriteError::Io(e)) => Err(format!("cannot write {}: {e}", path.display())),
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
            Err(message) => {
                reporter.error(message);
                io_failed = true;
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
        let results = pool.install(|| compare_all(&paths, setup, &tick, &|_, _| {}));
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        for (&i, r) in compared.iter().zip(results) {
            comparisons[i] = Some(r);
        }
    }
    let compare_summary = compare_setup.as_ref().map(|setup| {
        let count = |status: CompareStatus| comparisons.iter().flatten().filter(|c| c.status == status).count();
        let mut causes = std::collections::BTreeMap::new();
        for c in comparisons.iter().flatten().filter(|c| c.status != CompareStatus::Pass) {
            if let Some(cause) = c.cause {
                *causes.entry(cause.as_str()).or_insert(0) += 1;
            }
        }
        JsonCompareSummary {
            compared: compared.len(),
            passed: count(CompareStatus::Pass),
            passed_hazardous: count(CompareStatus::PassHazardous),
            failed: count(CompareStatus::Fail),
            errors: count(CompareStatus::Error),
            causes,
            frames: args.compare_frames,
            viewport: [setup.viewport.width, setup.viewport.height],
            psnr_threshold: setup.thresholds.psnr_db,
            within_2_255_threshold: setup.thresholds.within_pct,
            adapter: setup.gpu.describe(),
            device_decode: runtime_check::compare::device_conversions(&setup.gpu)
                .ok()
                .map(|d| super::compare::JsonDeviceDecode::of(&d)),
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
                if let Err(e) = write_atomic(path, json.as_bytes(), args.force) {
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

/// A shader that did not translate, or whose translation failed validation.
fn failed(s: &migrate::ShaderOut) -> bool {
    s.text.is_none() || s.naga == Check::Error || s.glslang == Check::Error
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
        "shaders",
        s.shaders,
        s.shaders_translated,
        s.shaders_with_warnings,
        plan.shaders.iter().filter(|x| failed(x)).count(),
        s.validated
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
    let mut worst: Vec<&migrate::ShaderOut> = plan.shaders.iter().filter(|x| failed(x)).collect();
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
    let failed_presets: Vec<&migrate::PresetOut> = plan.presets.iter().filter(|p| p.text.is_none()).collect();
    if !failed_presets.is_empty() {
        out.push_str("failed presets (first error):\n");
        for p in failed_presets.iter().take(10) {
            if let Some(d) = p.diagnostics.iter().find(|d| d.severity == Severity::Error) {
                out.push_str(&format!("  {}:{}:{}: {} {}\n", d.file, d.line, d.column, d.code, d.message));
            }
        }
        if failed_presets.len() > 10 {
            out.push_str(&format!("  ... and {} more (see the report)\n", failed_presets.len() - 10));
        }
    }
    if let Some(c) = &s.comparison {
        out.push_str(&format!(
            "old/new comparison: {} presets, {} pass, {} pass with over 5% hazardous pixels, {} below the thresholds, {} could not be compared ({:.1}s)\n",
            c.compared, c.passed, c.passed_hazardous, c.failed, c.errors, c.seconds
        ));
        if !c.causes.is_empty() {
            let causes: Vec<String> = c.causes.iter().map(|(k, v)| format!("{k} {v}")).collect();
            out.push_str(&format!("  causes: {}\n", causes.join(", ")));
        }
        for p in
            r.presets.iter().filter(|p| p.comparison.as_ref().is_some_and(|c| c.status != CompareStatus::Pass)).take(10)
        {
            if let Some(c) = &p.comparison {
                let why = match (&c.cause_detail, c.psnr, c.within_2_255) {
                    (Some(e), _, _) => e.clone(),
                    (None, psnr, within) => format!(
                        "PSNR {} dB, {:.3}% within 2/255",
                        psnr.map_or("inf".to_owned(), |p| format!("{p:.2}")),
                        within.unwrap_or(0.0)
                    ),
                };
                let cause = c.cause.map_or("", |c| c.as_str());
                out.push_str(&format!("  {}: {} {cause} ({why})\n", p.source, c.status.as_str()));
            }
        }
    }
    if s.ignored_paths > 0 {
        out.push_str(&format!("{} paths skipped as listed in {IGNORE_FILE} files\n", s.ignored_paths));
    }
    out.push_str(&format!("done in {:.2}s\n", s.seconds));
    let _ = super::write_stdout(&out);
}
