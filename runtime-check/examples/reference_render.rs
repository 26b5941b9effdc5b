//! Renders a `.cgp` with the CPU reference renderer and writes the last frame as PNG.
//! Usage: `reference_render <preset.cgp> <input.png> <out.png> [width height frames]`.

use grammar::{RealFs, SourceMap};
use runtime_check::reference::png::{load_png, save_png};
use runtime_check::reference::{render_preset, PresetRender};
use std::path::Path;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("usage: reference_render <preset.cgp> <input.png> <out.png> [width height frames]");
        return;
    }
    let num = |i: usize, d: u32| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let mut sources = SourceMap::new();
    let (Some(preset), diags) = translator::preset::load_cgp(&mut sources, Path::new(&a[1]), &RealFs) else {
        eprintln!("cannot load preset");
        return;
    };
    let _ = diags;
    let frame = match load_png(Path::new(&a[2])) {
        Ok(f) => f,
        Err(d) => return eprintln!("{}", d.message),
    };
    let frames = [frame];
    let job = PresetRender {
        preset: &preset,
        fs: &RealFs,
        frames: &frames,
        viewport: (num(4, 256), num(5, 192)),
        frame_count: num(6, 1) as usize,
        parameters: &[],
        luts: None,
        conversions: Default::default(),
        precision: false,
        replaced: &[],
        memo: None,
    };
    match render_preset(&job) {
        Ok(img) => {
            if let Err(d) = save_png(&img, Path::new(&a[3])) {
                eprintln!("{}", d.message);
            }
        }
        Err(d) => d.iter().for_each(|x| eprintln!("{}: {}", x.code, x.message)),
    }
}
