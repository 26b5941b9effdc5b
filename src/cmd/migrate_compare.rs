//! `migrate --compare`: old versus new for every preset that translated, after the
//! output tree is written, with the metrics put in the report.
//!
//! Each preset goes through [`runtime_check::compare::compare_cgp`], the same path as
//! `cg2slang compare`: the Cg original on the CPU reference renderer, the translation on
//! the headless chain. Reference renders run in parallel (rayon); the GPU side is
//! serialised on one device. A preset that cannot be compared (the reference does not
//! support something, the GPU refuses a pass) is an `error` entry with the first
//! diagnostic's message, never a panic, and does not stop the others.
//!
//! Never writes files: the caller puts [`PresetComparison`]s in the report.

use rayon::prelude::*;
use runtime_check::chain::{Gpu, InputImage};
use runtime_check::compare::{self, Thresholds};
use runtime_check::plan::Size;
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
}

/// One preset's comparison, as the report shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PresetComparison {
    /// `pass`, `fail` (below a threshold) or `error` (could not be compared).
    pub status: &'static str,
    /// `null` when identical (infinite PSNR) or not compared.
    pub psnr: Option<f64>,
    pub max_abs_error_255: Option<f64>,
    pub within_2_255: Option<f64>,
    /// Why it could not be compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl CompareSetup {
    /// The setup of `--compare-image IMAGES`: the images loaded, the viewport (default:
    /// twice the first image's size) and the GPU; `None` after reporting why not.
    pub fn open(
        images: &[PathBuf],
        frames: u64,
        viewport: Option<Size>,
        reporter: &super::Reporter,
    ) -> Option<CompareSetup> {
        let images = super::render::load_images(images, reporter)?;
        let Some(first) = images.first() else {
            reporter.error("--compare needs at least one --compare-image");
            return None;
        };
        let viewport = viewport.unwrap_or(Size::new(first.size.width * 2, first.size.height * 2));
        let gpu = super::render::gpu(&grammar::SourceMap::new(), reporter)?;
        Some(CompareSetup { gpu, images, frames: frames as usize, viewport, thresholds: Thresholds::default() })
    }
}

/// What a caller may do with the rendered images of one preset (index into `presets`)
/// before they are dropped: `review` writes them beside its pages.
pub type KeepImages<'a> = &'a (dyn Fn(usize, &compare::Comparison) + Sync);

/// Compares every preset in `presets` (in order; the result has one entry each).
pub fn compare_all(
    presets: &[PathBuf],
    setup: &CompareSetup,
    progress: &(dyn Fn() + Sync),
    keep: KeepImages,
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
                &|_, text| text,
            );
            progress();
            if let Ok(c) = &outcome {
                keep(i, c);
            }
            match outcome {
                Ok(c) => PresetComparison {
                    status: if c.metrics.passes(&setup.thresholds) { "pass" } else { "fail" },
                    psnr: c.metrics.psnr_finite(),
                    max_abs_error_255: Some(c.metrics.max_abs_error_255()),
                    within_2_255: Some(c.metrics.within_2_255_pct),
                    error: None,
                },
                Err(d) => {
                    PresetComparison {
                        status: "error",
                        psnr: None,
                        max_abs_error_255: None,
                        within_2_255: None,
                        error: Some(d.first().map_or_else(
                            || "could not be compared".to_owned(),
                            |d| format!("{}: {}", d.code, d.message),
                        )),
                    }
                }
            }
        })
        .collect()
}
