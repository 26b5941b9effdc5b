//! `migrate --compare`: old versus new for every preset that translated, after the
//! output tree is written, with the metrics put in the report.
//!
//! Each preset goes through [`runtime_check::compare::compare_cgp`], the same path as
//! `cg2slang compare`: the Cg original on the CPU reference renderer, the translation on
//! the headless chain. Reference renders run in parallel (rayon); the GPU side is
//! serialised on one device. A preset that cannot be compared (the reference does not
//! support something, the GPU refuses a pass) is an `error` entry with the first
//! diagnostic's message and its cause, never a panic, and does not stop the others.
//!
//! Never writes files and never prints: the caller puts [`PresetComparison`]s and the
//! [`summarise`]d totals in the report. Opening the GPU and the images is the caller's
//! (the command line reports why it cannot).

use super::report::{CauseCounts, CompareSummary, DeviceDecode};
use rayon::prelude::*;
use runtime_check::chain::{Gpu, InputImage};
use runtime_check::compare::{self, Cause, NewSideCache, Status, Thresholds};
use runtime_check::plan::Size;
use runtime_check::reference::PassMemo;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// What `--compare` renders.
pub struct CompareSetup {
    pub gpu: Arc<Gpu>,
    pub images: Vec<InputImage>,
    pub frames: usize,
    pub viewport: Size,
    pub thresholds: Thresholds,
    /// The reference's pass outputs, shared by the run's presets ([`memo_budget`]).
    pub memo: PassMemo,
    /// The new side's translations and compiled passes, shared by the run's presets.
    pub new_side: NewSideCache,
}

/// The pass memo's byte budget for `threads` workers: 256 MiB each, at least 1 GiB and
/// at most 4 GiB. Presets that share passes are mostly neighbours in the library's
/// order, which one worker visits in turn; the budget keeps every worker's last few
/// presets while the others render theirs.
pub fn memo_budget(threads: usize) -> usize {
    (threads * (256 << 20)).clamp(1 << 30, 4 << 30)
}

/// One preset's comparison, as the report shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PresetComparison {
    /// `pass`, `pass-hazardous` (passes on well-defined pixels, but more than 5 % of
    /// the image is hazardous), `fail` (below a threshold) or `error` (not compared).
    pub status: Status,
    /// For every non-pass (and a pass where only hazardous pixels differ): `hazard`,
    /// `translation`, `chain`, `reference`, `runtime-difference` or `unexplained`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// One line on the cause.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause_detail: Option<String>,
    /// Over the whole image; `null` when identical (infinite PSNR) or not compared.
    pub psnr: Option<f64>,
    pub max_abs_error_255: Option<f64>,
    pub within_2_255: Option<f64>,
    /// The same over the pixels without hazard.
    pub well_defined: Option<WellDefined>,
    /// The share of hazardous pixels, in percent.
    pub hazard_pct: Option<f64>,
    /// For a failure: the first pass whose well-defined pixels diverge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divergent_pass: Option<DivergentPass>,
    /// Why it could not be compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where the comparison's time went (absent when it could not be made).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<compare::PhaseSeconds>,
}

/// What a caller may do with the rendered images of one preset (index into `presets`)
/// before they are dropped: `review` writes them beside its pages.
pub type KeepImages<'a> = &'a (dyn Fn(usize, &compare::Comparison) + Sync);

/// Metrics over the well-defined pixels.
#[derive(Clone, Debug, Serialize)]
pub struct WellDefined {
    pub psnr: Option<f64>,
    pub max_abs_error_255: f64,
    pub within_2_255: f64,
}

impl WellDefined {
    pub fn of(m: &compare::Metrics) -> WellDefined {
        WellDefined {
            psnr: m.psnr_finite(),
            max_abs_error_255: m.max_abs_error_255(),
            within_2_255: m.within_2_255_pct,
        }
    }
}

/// The first divergent pass.
#[derive(Clone, Debug, Serialize)]
pub struct DivergentPass {
    pub index: usize,
    pub shader: String,
    pub well_defined: WellDefined,
    pub hazard_pct: f64,
}

impl PresetComparison {
    /// The report entry of a comparison.
    pub fn of(c: &compare::Comparison) -> PresetComparison {
        PresetComparison {
            status: c.verdict.status,
            cause: c.verdict.cause,
            cause_detail: c.verdict.detail.clone(),
            psnr: c.metrics.psnr_finite(),
            max_abs_error_255: Some(c.metrics.max_abs_error_255()),
            within_2_255: Some(c.metrics.within_2_255_pct),
            well_defined: Some(WellDefined::of(&c.well_defined)),
            hazard_pct: Some(c.hazard_pct),
            divergent_pass: c.divergence.as_ref().map(|d| DivergentPass {
                index: d.index,
                shader: d.shader.display().to_string(),
                well_defined: WellDefined::of(&d.well_defined),
                hazard_pct: d.hazard_pct,
            }),
            error: None,
            seconds: Some(c.seconds),
        }
    }

    /// The report entry of a comparison that could not be made.
    pub fn error(e: &compare::CompareError) -> PresetComparison {
        PresetComparison {
            status: Status::Error,
            cause: Some(e.cause),
            cause_detail: Some(e.detail.clone()),
            psnr: None,
            max_abs_error_255: None,
            within_2_255: None,
            well_defined: None,
            hazard_pct: None,
            divergent_pass: None,
            error: Some(e.detail.clone()),
            seconds: None,
        }
    }
}

/// Compares every preset in `presets` (in order; the result has one entry each). With
/// `keep`, each comparison also makes its pass previews and is handed to `keep`.
pub fn compare_all(
    presets: &[PathBuf],
    setup: &CompareSetup,
    progress: &(dyn Fn() + Sync),
    keep: Option<KeepImages>,
) -> Vec<PresetComparison> {
    let lock = Mutex::new(());
    presets
        .par_iter()
        .enumerate()
        .map(|(i, path)| {
            let mut sources = grammar::SourceMap::new();
            let outcome = compare::compare_cgp(
                &mut sources,
                path,
                &grammar::RealFs,
                (&setup.gpu, &lock),
                &setup.images,
                setup.frames,
                setup.viewport,
                &setup.thresholds,
                &|_, text| text,
                compare::Shared { memo: Some(&setup.memo), new_side: Some(&setup.new_side) },
                keep.is_some(),
            );
            progress();
            if let (Ok(c), Some(keep)) = (&outcome, keep) {
                keep(i, c);
            }
            match outcome {
                Ok(c) => PresetComparison::of(&c),
                Err(e) => PresetComparison::error(&e),
            }
        })
        .collect()
}

/// The `--compare` totals of `comparisons` (one per preset, `None` where not compared)
/// run with `setup` for `frames` frames in `seconds`.
pub fn summarise(
    comparisons: &[Option<PresetComparison>],
    setup: &CompareSetup,
    frames: u64,
    seconds: f64,
) -> CompareSummary {
    let done = || comparisons.iter().flatten();
    let count = |status: Status| done().filter(|c| c.status == status).count();
    let mut causes = CauseCounts::default();
    for cause in done().filter(|c| c.status != Status::Pass).filter_map(|c| c.cause) {
        causes.add(cause);
    }
    CompareSummary {
        compared: done().count(),
        passed: count(Status::Pass),
        passed_hazardous: count(Status::PassHazardous),
        failed: count(Status::Fail),
        errors: count(Status::Error),
        causes,
        frames,
        viewport: [setup.viewport.width, setup.viewport.height],
        psnr_threshold: setup.thresholds.psnr_db,
        within_2_255_threshold: setup.thresholds.within_pct,
        adapter: setup.gpu.describe(),
        device_decode: compare::device_conversions(&setup.gpu).ok().map(|d| DeviceDecode::of(&d)),
        seconds,
        reused_passes: setup.memo.stats().hits,
        phase_seconds: done().filter_map(|c| c.seconds).fold(compare::PhaseSeconds::default(), |a, b| a.plus(b)),
    }
}
