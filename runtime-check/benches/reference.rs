//! Throughput of the CPU reference renderer in pixels x passes per second: the CRT-like
//! `corpus/retroarch/crt_aperture.cg` (scanlines, aperture mask, gamma; 6 taps per
//! pixel) and the `crt-curve.cgp` preset (crt_aperture at viewport scale, then
//! crt_curve), rendered from the 64x48 test card into a 256x192 viewport.
//!
//! Run with `cargo bench -p runtime-check --bench reference` (add
//! `-- --warm-up-time 1 --measurement-time 3` for a quick figure).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grammar::{RealFs, SourceMap};
use runtime_check::reference::png::load_png;
use runtime_check::reference::source::analyze_cg;
use runtime_check::reference::{render_pass, render_preset, PassInputs, PresetRender, SamplerState, WrapMode};
use std::hint::black_box;
use std::path::Path;

const VIEWPORT: (u32, u32) = (256, 192);

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/retroarch");
    let Ok(card) = load_png(&dir.join("images/testcard_64x48.png")) else { return };
    let mut g = c.benchmark_group("reference");
    if let Ok(prog) = analyze_cg(&mut grammar::SourceMap::new(), &dir.join("crt_aperture.cg"), &[], &RealFs) {
        let state = SamplerState { linear: true, wrap: WrapMode::ClampToEdge, mipmap: false };
        let inputs = PassInputs::single(card.clone(), state, VIEWPORT);
        g.throughput(Throughput::Elements(u64::from(VIEWPORT.0 * VIEWPORT.1)));
        g.bench_function("crt_aperture 256x192 (pixels)", |b| {
            b.iter(|| black_box(render_pass(&prog, &inputs).is_ok()))
        });
    }
    let mut sources = SourceMap::new();
    if let (Some(preset), _) = translator::preset::load_cgp(&mut sources, &dir.join("crt-curve.cgp"), &RealFs) {
        let frames = [card];
        let job = PresetRender {
            preset: &preset,
            fs: &RealFs,
            frames: &frames,
            viewport: VIEWPORT,
            frame_count: 1,
            parameters: &[],
            luts: None,
            conversions: Default::default(),
            precision: false,
            replaced: &[],
            memo: None,
        };
        // Two passes at viewport size.
        g.throughput(Throughput::Elements(2 * u64::from(VIEWPORT.0 * VIEWPORT.1)));
        g.bench_function("crt-curve.cgp 2 passes 256x192 (pixels x passes)", |b| {
            b.iter(|| black_box(render_preset(&job).is_ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
