//! Old versus new: metric known answers, then whole corpus presets rendered by the CPU
//! reference (the Cg original) and by the GPU chain (the translation) and compared
//! under the default thresholds. The end-to-end tests need a Vulkan adapter (CI
//! installs lavapipe) and fail without one.

mod support;

use grammar::{RealFs, SourceMap};
use runtime_check::chain::{image_io, AdapterChoice, InputImage};
use runtime_check::compare::{self, heatmap, metrics, Metrics, Thresholds};
use runtime_check::plan::Size;
use runtime_check::reference::RgbaF32Image;
use std::sync::Mutex;

fn gradient(w: u32, h: u32) -> RgbaF32Image {
    RgbaF32Image::from_fn(w, h, |x, y| [x as f32 / w as f32, y as f32 / h as f32, 0.5, 1.0])
}

#[test]
fn identical_images_have_infinite_psnr_and_all_pixels_within() {
    let a = gradient(16, 8);
    let m = metrics(&a, &a).expect("same size");
    assert_eq!(m.psnr_db, f64::INFINITY);
    assert_eq!(m.psnr_finite(), None);
    assert_eq!(m.max_abs_error, 0.0);
    assert_eq!(m.within_2_255_pct, 100.0);
    assert_eq!(m.pixels, 128);
    assert!(m.passes(&Thresholds::default()));
    assert!(m.verdict(&Thresholds::default()).starts_with("PASS"));
}

#[test]
fn a_uniform_offset_gives_the_psnr_computed_by_hand() {
    // Every RGB channel off by 0.01: MSE = 1e-4, PSNR = 10 log10(1 / 1e-4) = 40 dB.
    let a = RgbaF32Image::filled(10, 10, [0.5, 0.5, 0.5, 1.0]);
    let b = RgbaF32Image::filled(10, 10, [0.51, 0.49, 0.51, 0.0]);
    let m = metrics(&a, &b).expect("same size");
    assert!((m.psnr_db - 40.0).abs() < 1e-3, "{m:?}");
    assert!((m.max_abs_error - 0.01).abs() < 1e-6);
    assert!((m.max_abs_error_255() - 2.55).abs() < 1e-3);
    // 0.01 > 2/255 (0.00784): no pixel is within; alpha is ignored.
    assert_eq!(m.within_2_255_pct, 0.0);
    assert!(!m.passes(&Thresholds::default()));

    // An offset of 1/255 on one channel only: MSE = (1/255)^2 / 3.
    let c = RgbaF32Image::filled(4, 4, [0.5 + 1.0 / 255.0, 0.5, 0.5, 1.0]);
    let m = metrics(&a_small(), &c).expect("same size");
    let expected = 10.0 * (3.0f64 * 255.0 * 255.0).log10();
    assert!((m.psnr_db - expected).abs() < 1e-3, "{} vs {expected}", m.psnr_db);
    assert_eq!(m.within_2_255_pct, 100.0);
}

fn a_small() -> RgbaF32Image {
    RgbaF32Image::filled(4, 4, [0.5, 0.5, 0.5, 1.0])
}

#[test]
fn the_share_within_counts_pixels_and_the_verdict_needs_both_thresholds() {
    // 1 of 4 pixels far off: 75 % within, MSE = 3 * 0.25 / 12 = 0.0625 -> 12.04 dB.
    let a = RgbaF32Image::filled(2, 2, [0.0, 0.0, 0.0, 1.0]);
    let mut b = a.clone();
    b.pixels[3] = [0.5, 0.5, 0.5, 1.0];
    let m = metrics(&a, &b).expect("same size");
    assert_eq!(m.within_2_255_pct, 75.0);
    assert!((m.psnr_db - 10.0 * 16.0f64.log10()).abs() < 1e-9);
    let lenient = Thresholds { psnr_db: 10.0, within_pct: 75.0 };
    assert!(m.passes(&lenient));
    assert!(!m.passes(&Thresholds { psnr_db: 13.0, ..lenient }));
    assert!(!m.passes(&Thresholds { within_pct: 76.0, ..lenient }));
    let h = heatmap(&a, &b).expect("same size");
    assert_eq!(h.pixels[0], [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(h.pixels[3], [1.0, 1.0, 1.0, 1.0]);
}

#[test]
fn different_sizes_are_refused() {
    assert!(metrics(&gradient(4, 4), &gradient(4, 5)).is_err());
    assert!(heatmap(&gradient(4, 4), &gradient(5, 4)).is_err());
}

/// One comparison of the corpus preset `name` on the corpus `images`, with the run's
/// `shared` work and, with `previews`, pass previews.
fn compare_with(
    name: &str,
    images: &[&str],
    frames: usize,
    viewport: Size,
    shared: compare::Shared,
    previews: bool,
) -> compare::Comparison {
    static LOCK: Mutex<()> = Mutex::new(());
    let dir = support::corpus();
    let inputs: Vec<InputImage> = images
        .iter()
        .map(|i| image_io::load_image(&dir.join("images").join(i)).unwrap_or_else(|d| panic!("{i}: {d:?}")))
        .collect();
    let gpu = support::gpu(AdapterChoice::PreferHardware);
    let mut sources = SourceMap::new();
    compare::compare_cgp(
        &mut sources,
        &dir.join(name),
        &RealFs,
        (&gpu, &LOCK),
        &inputs,
        frames,
        viewport,
        &Thresholds::default(),
        &|_, t| t,
        shared,
        previews,
    )
    .unwrap_or_else(|d| panic!("{name}: {d:#?}"))
}

fn compare_preset(name: &str, images: &[&str], frames: usize, viewport: Size) -> Metrics {
    let c = compare_with(name, images, frames, viewport, compare::Shared::default(), false);
    eprintln!("{name}: {}", c.metrics.verdict(&Thresholds::default()));
    c.metrics
}

fn assert_passes(name: &str, images: &[&str], frames: usize, viewport: Size) {
    let m = compare_preset(name, images, frames, viewport);
    assert!(m.passes(&Thresholds::default()), "{name}: {}", m.verdict(&Thresholds::default()));
}

#[test]
fn stock_matches_its_original() {
    assert_passes("stock.cgp", &["gradient_32x32.png"], 1, Size::new(32, 32));
}

#[test]
fn multi_pass_gamma_sharpen_matches_its_original() {
    assert_passes("gamma-sharpen.cgp", &["edges_16x16.png"], 1, Size::new(32, 32));
}

#[test]
fn multi_pass_bloom_lite_matches_its_original() {
    assert_passes("bloom-lite.cgp", &["testcard_64x48.png"], 1, Size::new(64, 48));
}

#[test]
fn feedback_over_frames_matches_its_original() {
    assert_passes("feedback.cgp", &["gradient_32x32.png", "edges_16x16.png"], 3, Size::new(32, 32));
}

/// [`compare_with`] on the 64x48 test card at 64x48.
fn compare_on_card(name: &str, frames: usize, shared: compare::Shared, previews: bool) -> compare::Comparison {
    compare_with(name, &["testcard_64x48.png"], frames, Size::new(64, 48), shared, previews)
}

#[test]
fn pass_previews_come_only_when_asked_for_and_change_no_verdict() {
    let run = |previews: bool| compare_on_card("bloom-lite.cgp", 1, compare::Shared::default(), previews);
    let (without, with) = (run(false), run(true));
    assert!(without.pass_previews.is_empty());
    // One preview per pass (bloom-lite has 5), each side at most PREVIEW_SIDE a side.
    assert_eq!(with.pass_previews.len(), 5);
    for p in &with.pass_previews {
        assert!(p.old.width.max(p.old.height) <= compare::PREVIEW_SIDE);
        assert_eq!((p.old.width, p.old.height), (p.new.width, p.new.height));
    }
    assert_eq!(without.verdict, with.verdict);
    assert_eq!(without.metrics.psnr_db.to_bits(), with.metrics.psnr_db.to_bits());
    assert_eq!(without.new.pixels, with.new.pixels);
}

#[test]
fn a_run_cache_of_the_new_side_changes_no_comparison() {
    let cache = compare::NewSideCache::default();
    for name in ["bloom-lite.cgp", "lut-grade.cgp", "bloom-lite.cgp", "lut-grade.cgp"] {
        let alone = compare_on_card(name, 2, compare::Shared::default(), false);
        let shared = compare_on_card(name, 2, compare::Shared { memo: None, new_side: Some(&cache) }, false);
        assert_eq!(alone.verdict, shared.verdict, "{name}");
        assert_eq!(alone.new.pixels, shared.new.pixels, "{name}");
        assert_eq!(alone.old.pixels, shared.old.pixels, "{name}");
    }
    // Every pass of both presets was compiled once and kept.
    assert!(cache.slang.len() >= 2, "{} compiled passes kept", cache.slang.len());
}

/// `float_framebuffer0` on a pass without a scale type: the Cg runtime honoured it, the
/// slang runtime honours it only with a scale type. Old/new runs the `.slangp` that
/// `migrate` writes (with its explicit source x1 scale) by the slang runtime's rules and
/// the original by the Cg runtime's, so the flag is in force on both sides (16 and 32
/// bits a channel); the chain without the written scale stores the linear light in 8-bit
/// unorm and loses the dark end, which the comparison would have shown.
#[test]
fn a_framebuffer_flag_without_a_scale_type_is_in_force_on_both_sides() {
    use runtime_check::plan::{plan, ChainSpec, Format, Frame, Runtime};
    let name = "linear-float-unscaled.cgp";
    let dir = support::corpus();
    let mut sources = SourceMap::new();
    let (preset, diags) = translator::preset::load_cgp(&mut sources, &dir.join(name), &RealFs);
    let preset = preset.unwrap_or_else(|| panic!("{diags:?}"));
    let frame = Frame::first(Size::new(64, 48), Size::new(64, 48));
    let format = |spec: &ChainSpec| plan(spec, &frame).expect("plan").passes[0].format;
    let migrated = compare::as_migrated(&preset).expect("reads back");
    assert_eq!(format(&ChainSpec::from_preset(&preset, &[], Runtime::Cg)), Format::R32G32B32A32Sfloat);
    assert_eq!(format(&ChainSpec::from_preset(&preset, &[], Runtime::Slang)), Format::R8G8B8A8Unorm);
    assert_eq!(format(&ChainSpec::from_preset(&migrated, &[], Runtime::Slang)), Format::R16G16B16A16Sfloat);

    let c = compare_on_card(name, 1, compare::Shared::default(), false);
    let t = Thresholds::default();
    assert!(c.metrics.passes(&t), "{}", c.metrics.verdict(&t));
    assert!(c.metrics.max_abs_error_255() <= 2.0, "{}", c.metrics.verdict(&t));

    let mut desc = compare::translate_cgp(&mut sources, &preset, &RealFs).expect("translates");
    assert_eq!(desc.passes[0].spec.scale, migrated.passes[0].scale);
    desc.passes[0].spec.scale = None;
    let card = image_io::load_image(&dir.join("images/testcard_64x48.png")).expect("card");
    let gpu = support::gpu(AdapterChoice::PreferHardware);
    let unscaled = compare::render_new(gpu, desc, &[card], 1, Size::new(64, 48)).expect("renders");
    let m = metrics(&c.old, &unscaled).expect("same size");
    eprintln!("as migrated: {}; without the scale: {}", c.metrics.verdict(&t), m.verdict(&t));
    assert!(m.max_abs_error_255() >= 8.0, "the flag made no difference: {}", m.verdict(&t));
}
