//! `cg2slang review SRC... --out DIR [--against BASELINE] [--compare-image IN.png ...]`:
//! a static site for reviewing a whole migration.
//!
//! Translates exactly as `migrate` does (the same discovery, [`cg2slang::migrate::plan`]
//! with validation, and with `--compare-image` the same old/new comparison as
//! `migrate --compare`), then writes `DIR/index.html`, one page per preset
//! (`presets/<output>.html`, its images beside it as PNG files) and per shader output
//! (`shaders/<output>.html`), and the shared `assets/`. Pages are built in parallel;
//! the bytes depend only on the inputs (the run's timing goes to stdout and to
//! `DIR/timing.txt`, nowhere else). Nothing is overwritten without `--force` (checked
//! before anything is written) and every file is written atomically.
//!
//! Never writes outside `DIR`; a baseline file that is missing or unreadable is shown on
//! the pages, never an abort. Exit 0 when everything translated (and compared), 1 when
//! some input failed, 2 on usage or I/O errors.

mod assets;
mod highlight;
mod index_page;
mod layout;
mod model;
mod preset_page;
mod shader_page;

use super::{write_stdout, Exit, Reporter};
use cg2slang::migrate::compare::{compare_all, CompareSetup, PresetComparison};
use cg2slang::migrate::{self, Plan};
use cg2slang::output::write_atomic;
use clap::Args;
use grammar::RealFs;
use model::{Baseline, Review};
use rayon::prelude::*;
use runtime_check::chain::image_io;
use runtime_check::plan::Size;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Mutex;

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// .cgp presets, .cg files, or directories walked for both (as for migrate).
    #[arg(value_name = "SRC", required = true)]
    pub sources: Vec<PathBuf>,

    /// The directory the site is written to (created).
    #[arg(long = "out", value_name = "DIR")]
    pub out: PathBuf,

    /// A slang tree to diff every output against (an earlier `migrate --out`, the
    /// baseline `check --against` uses).
    #[arg(long = "against", value_name = "BASELINE_DIR")]
    pub against: Option<PathBuf>,

    /// Compare old and new for every translated preset on this input frame (PNG);
    /// several make a sequence.
    #[arg(long = "compare-image", value_name = "IN.png")]
    pub compare_images: Vec<PathBuf>,

    /// Frames each comparison renders.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub compare_frames: u64,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Overwrite existing files of an earlier review.
    #[arg(long)]
    pub force: bool,
}

/// The PNG files of one compared preset: the whole images in [`preset_page::IMAGES`]
/// order, then each pass's previews (old, new).
struct Pngs {
    whole: Vec<Vec<u8>>,
    passes: Vec<(Vec<u8>, Vec<u8>)>,
}

fn encode(width: u32, height: u32, rgba8: &[u8]) -> Option<Vec<u8>> {
    image_io::encode_png(Size::new(width, height), rgba8).ok()
}

/// The comparisons of one review and the images of each compared preset.
struct Compared {
    /// One per preset (`None`: not compared).
    comparisons: Vec<Option<PresetComparison>>,
    /// By preset index, for those whose images could be encoded.
    pngs: HashMap<usize, Pngs>,
}

/// Old/new of every preset that translated, keeping each one's images as PNG bytes.
fn compare_with_images(pool: &rayon::ThreadPool, plan: &Plan, setup: &CompareSetup) -> Compared {
    let mut comparisons: Vec<Option<PresetComparison>> = vec![None; plan.presets.len()];
    let pngs: Mutex<HashMap<usize, Pngs>> = Mutex::new(HashMap::new());
    let compared: Vec<usize> = (0..plan.presets.len()).filter(|&i| plan.presets[i].text.is_some()).collect();
    let paths: Vec<PathBuf> = compared.iter().map(|&i| plan.presets[i].source.clone()).collect();
    let input = setup.images.first().and_then(|i| encode(i.size.width, i.size.height, &i.rgba8));
    let keep = |k: usize, c: &runtime_check::compare::Comparison| {
        let diff = runtime_check::compare::heatmap(&c.old, &c.new).ok();
        let whole: Option<Vec<Vec<u8>>> = [
            input.clone(),
            encode(c.old.width, c.old.height, &c.old.to_rgba8()),
            encode(c.new.width, c.new.height, &c.new.to_rgba8()),
            diff.and_then(|d| encode(d.width, d.height, &d.to_rgba8())),
        ]
        .into_iter()
        .collect();
        let png = |i: &runtime_check::reference::RgbaF32Image| encode(i.width, i.height, &i.to_rgba8());
        let passes: Option<Vec<(Vec<u8>, Vec<u8>)>> =
            c.pass_previews.iter().map(|p| Some((png(&p.old)?, png(&p.new)?))).collect();
        let files = whole.map(|whole| Pngs { whole, passes: passes.unwrap_or_default() });
        if let (Some(files), Some(&i)) = (files, compared.get(k)) {
            pngs.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(i, files);
        }
    };
    let results = pool.install(|| compare_all(&paths, setup, &|| {}, Some(&keep)));
    for (&i, r) in compared.iter().zip(results) {
        comparisons[i] = Some(r);
    }
    Compared { comparisons, pngs: pngs.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) }
}

pub fn run(args: &ReviewArgs, reporter: &Reporter) -> Exit {
    let start = std::time::Instant::now();
    if let Some(dir) = &args.against {
        if !dir.is_dir() {
            reporter.error(&format!("--against {}: not a directory", dir.display()));
            return Exit::Failure;
        }
    }
    let Some(found) = super::migrate::inputs(&args.sources, &args.out, reporter) else { return Exit::Failure };
    let roots = found.roots;
    let setup = if args.compare_images.is_empty() {
        None
    } else {
        match super::migrate::open_compare(&args.compare_images, args.compare_frames, None, reporter) {
            Some(s) => Some(s),
            None => return Exit::Failure,
        }
    };
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(args.jobs.unwrap_or(0)).build() {
        Ok(p) => p,
        Err(e) => {
            reporter.error(&format!("cannot start worker threads: {e}"));
            return Exit::Failure;
        }
    };
    let fs = grammar::CachedFs::new(&RealFs);
    let plan: Plan = pool.install(|| migrate::plan(&roots, &fs, true, &|_, _| {}));

    // Old/new, keeping each compared preset's images as PNG bytes.
    let Compared { comparisons, pngs } = match &setup {
        Some(setup) => compare_with_images(&pool, &plan, setup),
        None => Compared { comparisons: vec![None; plan.presets.len()], pngs: HashMap::new() },
    };

    let against = args.against.as_deref();
    let review = Review {
        plan: &plan,
        images: (0..plan.presets.len()).map(|i| pngs.contains_key(&i)).collect(),
        pass_previews: (0..plan.presets.len()).map(|i| pngs.get(&i).map_or(0, |p| p.passes.len())).collect(),
        comparisons,
        shader_baselines: plan.shaders.iter().map(|s| Baseline::of(against, &s.output, s.text.as_deref())).collect(),
        preset_baselines: plan.presets.iter().map(|p| Baseline::of(against, &p.output, p.text.as_deref())).collect(),
        against: args.against.clone(),
    };

    // Pages, in parallel: Cg files coloured once each, shared by the shaders including them.
    let highlighter = highlight::Highlighter::new();
    let files: BTreeMap<&str, &str> =
        plan.shaders.iter().flat_map(|s| s.origins.files.iter().map(|f| (f.name.as_str(), &*f.text))).collect();
    let cg: shader_page::CgCache =
        pool.install(|| files.par_iter().map(|(name, text)| ((*name).to_owned(), highlighter.lines(text))).collect());
    let mut site: Vec<(PathBuf, Vec<u8>)> = pool.install(|| {
        let shaders = (0..plan.shaders.len()).into_par_iter().map(|i| {
            let html = shader_page::render(&plan, i, &review.shader_baselines[i], &highlighter, &cg);
            (model::shader_page(&plan.shaders[i]), html.into_bytes())
        });
        let presets = (0..plan.presets.len())
            .into_par_iter()
            .map(|i| (model::preset_page(&plan.presets[i]), preset_page::render(&review, i).into_bytes()));
        shaders.chain(presets).collect()
    });
    site.push((PathBuf::from(model::INDEX), index_page::render(&review).into_bytes()));
    site.push((PathBuf::from(assets::CSS_PATH), assets::CSS.as_bytes().to_vec()));
    site.push((PathBuf::from(assets::JS_PATH), assets::JS.as_bytes().to_vec()));
    let mut images: Vec<(&usize, &Pngs)> = pngs.iter().collect();
    images.sort_by_key(|(i, _)| **i);
    for (&i, files) in images {
        for (what, bytes) in preset_page::IMAGES.iter().zip(&files.whole) {
            site.push((model::preset_image(&plan.presets[i], what), bytes.clone()));
        }
        for (k, (old, new)) in files.passes.iter().enumerate() {
            site.push((model::preset_image(&plan.presets[i], &model::pass_preview(k, "old")), old.clone()));
            site.push((model::preset_image(&plan.presets[i], &model::pass_preview(k, "new")), new.clone()));
        }
    }

    // Refuse to overwrite before writing anything, then write.
    if !args.force {
        let existing: Vec<PathBuf> = site.iter().map(|(p, _)| args.out.join(p)).filter(|p| p.exists()).collect();
        if let Some(first) = existing.first() {
            reporter.error(&format!(
                "{} files of the review already exist (first: {}); nothing was written. Use --force to overwrite.",
                existing.len(),
                first.display()
            ));
            return Exit::Failure;
        }
    }
    let mut io_failed = false;
    for (path, bytes) in &site {
        let path = args.out.join(path);
        if let Err(e) = write_atomic(&path, bytes, true) {
            reporter.error(&format!("cannot write {}: {e}", path.display()));
            io_failed = true;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    // The one place the run's timing goes (pages stay byte-identical between runs).
    let timing = format!("review written in {seconds:.2}s\n");
    if let Err(e) = write_atomic(&args.out.join("timing.txt"), timing.as_bytes(), true) {
        reporter.error(&format!("cannot write timing.txt: {e}"));
        io_failed = true;
    }

    let failed = plan.shaders.iter().filter(|s| s.text.is_none()).count()
        + plan.presets.iter().filter(|p| p.text.is_none()).count();
    let invalid = plan.shaders.iter().filter(|s| s.checks.failed()).count();
    let not_passing =
        review.comparisons.iter().flatten().filter(|c| c.status != runtime_check::compare::Status::Pass).count();
    let unreadable = review
        .shader_baselines
        .iter()
        .chain(&review.preset_baselines)
        .filter(|b| matches!(b, Baseline::Unreadable(_)))
        .count();
    let summary = format!(
        "review of {} shaders and {} presets: {} pages in {}; {failed} inputs failed, {invalid} outputs failed validation{}{}\n{timing}",
        plan.shaders.len(),
        plan.presets.len(),
        plan.shaders.len() + plan.presets.len() + 1,
        args.out.join(model::INDEX).display(),
        if setup.is_some() { format!(", {not_passing} comparisons did not pass") } else { String::new() },
        if unreadable > 0 { format!(", {unreadable} baseline files unreadable") } else { String::new() },
    );
    if write_stdout(&summary).is_err() {
        io_failed = true;
    }
    if io_failed {
        Exit::Failure
    } else if failed + invalid + not_passing > 0 {
        Exit::Errors
    } else {
        Exit::Clean
    }
}
