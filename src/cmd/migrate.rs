//! `cg2slang migrate`: a whole Cg library (.cgp presets and .cg files) to slang.
//!
//! The command line over [`cg2slang::migrate`], step by step: discover each SRC
//! (directories recursively, or single files), plan every translation in parallel
//! (rayon, `--jobs`), refuse to overwrite (before anything is written, without
//! `--force`), write the output tree under `--out` mirroring the sources (one `.slang`
//! per distinct translation, one `.slangp` per preset, LUT images copied, every file
//! atomically), with `--compare` old/new of every translated preset, then the JSON
//! report (`--report`, format in README.md) and the summary. A progress bar shows on a
//! terminal only. Exit 0 when everything translated, 1 when some input failed, 2 on
//! usage/I/O errors.
//!
//! This module only parses arguments, shows progress and messages and picks the exit
//! code; it must never decide what is translated, written or reported (the library's
//! steps do) and never panic on user input.

use super::{Exit, Reporter};
use cg2slang::migrate::compare::{compare_all, memo_budget, summarise, CompareSetup, PresetComparison};
use cg2slang::migrate::report::{Report, RunFacts};
use cg2slang::migrate::{self, discover, write, Discovered, Plan};
use cg2slang::output::write_atomic;
use clap::Args;
use grammar::RealFs;
use runtime_check::compare::Thresholds;
use runtime_check::plan::Size;
use runtime_check::reference::PassMemo;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

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

pub fn run(args: &MigrateArgs, reporter: &Reporter) -> Exit {
    let start = Instant::now();
    let Some(found) = inputs(&args.sources, &args.out, reporter) else { return Exit::Failure };
    let compare_setup = if args.compare {
        let setup = open_compare(&args.compare_images, args.compare_frames, args.compare_viewport, reporter);
        let Some(setup) = setup else { return Exit::Failure };
        Some(setup)
    } else {
        None
    };
    let Some(pool) = worker_pool(args.jobs, reporter) else { return Exit::Failure };
    let plan = plan_with_progress(&pool, &found, !args.no_validate);
    if let Err(message) = write::check_overwrite(&plan, &args.out, args.report.as_deref(), args.force) {
        reporter.error(&message);
        return Exit::Failure;
    }
    let written = pool.install(|| write::write_all(&plan, &args.out));
    for message in &written.errors {
        reporter.error(message);
    }
    let mut io_failed = !written.errors.is_empty();
    let (comparisons, comparison) = match &compare_setup {
        Some(setup) => {
            let compare_start = Instant::now();
            let comparisons = compare_translated(&pool, &plan, setup);
            let summary = summarise(&comparisons, setup, args.compare_frames, compare_start.elapsed().as_secs_f64());
            (comparisons, Some(summary))
        }
        None => (Vec::new(), None),
    };
    let facts = RunFacts {
        out: args.out.clone(),
        cg_files: found.roots.iter().map(|r| r.cg.len()).sum(),
        cgp_files: found.roots.iter().map(|r| r.cgp.len()).sum(),
        ignored_paths: found.ignored,
        luts_copied: written.luts_copied,
        comparisons,
        comparison,
    };
    let report = Report::build(&plan, facts, start.elapsed().as_secs_f64());
    if let Some(path) = &args.report {
        io_failed |= !write_report(&report, path, args.force, reporter);
    }
    let _ = super::write_stdout(&report.summary_text(&plan));
    if io_failed {
        Exit::Failure
    } else if report.has_failures(&plan) {
        Exit::Errors
    } else {
        Exit::Clean
    }
}

/// The discovered inputs (warnings shown), or `None` after reporting why not.
pub(super) fn inputs(sources: &[PathBuf], out: &std::path::Path, reporter: &Reporter) -> Option<Discovered> {
    match discover::discover(sources, out, true) {
        Ok(found) => {
            for w in &found.warnings {
                reporter.warning(w);
            }
            Some(found)
        }
        Err(message) => {
            reporter.error(&message);
            None
        }
    }
}

/// The setup of `--compare-image IMAGES`: the images loaded, the viewport (default:
/// twice the first image's size) and the GPU; `None` after reporting why not.
pub(super) fn open_compare(
    images: &[PathBuf],
    frames: u64,
    viewport: Option<Size>,
    reporter: &Reporter,
) -> Option<CompareSetup> {
    let images = super::render::load_images(images, reporter)?;
    let Some(first) = images.first() else {
        reporter.error("--compare needs at least one --compare-image");
        return None;
    };
    let viewport = viewport.unwrap_or(Size::new(first.size.width * 2, first.size.height * 2));
    let gpu = super::render::gpu(&grammar::SourceMap::new(), reporter)?;
    let memo = PassMemo::new(memo_budget(rayon::current_num_threads()));
    Some(CompareSetup {
        gpu,
        images,
        frames: frames as usize,
        viewport,
        thresholds: Thresholds::default(),
        memo,
        new_side: Default::default(),
    })
}

/// The worker threads of `--jobs` (all cores by default), with the binary's stack size.
fn worker_pool(jobs: Option<usize>, reporter: &Reporter) -> Option<rayon::ThreadPool> {
    match rayon::ThreadPoolBuilder::new().num_threads(jobs.unwrap_or(0)).stack_size(super::STACK_BYTES).build() {
        Ok(p) => Some(p),
        Err(e) => {
            reporter.error(&format!("cannot start worker threads: {e}"));
            None
        }
    }
}

/// The plan of `found` in `pool`, with a progress bar on a terminal.
fn plan_with_progress(pool: &rayon::ThreadPool, found: &Discovered, validate: bool) -> Plan {
    let bar = progress_bar("translating", 0);
    let progress = |n: usize, total: usize| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(n as u64);
        }
    };
    // Each include is read once for the whole library.
    let fs = grammar::CachedFs::new(&RealFs);
    let plan = pool.install(|| migrate::plan(&found.roots, &fs, validate, &progress));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    plan
}

/// Old/new of every preset that translated (one entry per preset, `None` for the others).
fn compare_translated(pool: &rayon::ThreadPool, plan: &Plan, setup: &CompareSetup) -> Vec<Option<PresetComparison>> {
    let compared: Vec<usize> = (0..plan.presets.len()).filter(|&i| plan.presets[i].text.is_some()).collect();
    let paths: Vec<PathBuf> = compared.iter().map(|&i| plan.presets[i].source.clone()).collect();
    let bar = progress_bar("comparing", paths.len());
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let results = pool.install(|| compare_all(&paths, setup, &tick, None));
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut comparisons: Vec<Option<PresetComparison>> = vec![None; plan.presets.len()];
    for (&i, r) in compared.iter().zip(results) {
        comparisons[i] = Some(r);
    }
    comparisons
}

/// Encodes and writes the report; false (after reporting why) when it could not.
fn write_report(report: &Report, path: &std::path::Path, force: bool, reporter: &Reporter) -> bool {
    match serde_json::to_string_pretty(report) {
        Ok(json) => match write_atomic(path, json.as_bytes(), force) {
            Ok(()) => true,
            Err(e) => {
                reporter.error(&format!("cannot write the report {}: {e}", path.display()));
                false
            }
        },
        Err(e) => {
            reporter.error(&format!("cannot encode the report: {e}"));
            false
        }
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
