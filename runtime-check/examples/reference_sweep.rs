//! Renders every `.cg` of a corpus directory as a lone pass (pass 0 of a one-pass chain,
//! the 64x48 test card in, 64x48 out, LUT ids bound to the corpus LUTs) and every `.cgp`
//! through the multi-pass driver (3 frames), and prints one line per file: `ok`, or the
//! first diagnostic. Usage: `cargo run -p runtime-check --example reference_sweep [dir]`.

use grammar::{RealFs, SourceMap};
use runtime_check::reference::png::load_png;
use runtime_check::reference::source::analyze_cg;
use runtime_check::reference::{bound, render_pass, render_preset, PassInputs, PresetRender, SamplerState};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/retroarch"), PathBuf::from);
    let Ok(card) = load_png(&dir.join("images/testcard_64x48.png")) else {
        eprintln!("no test card in {}", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).map(|r| r.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.sort();
    let (mut ok, mut total, mut pixels) = (0, 0, 0u64);
    let start = Instant::now();
    for f in &files {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let result = match ext {
            "cg" => analyze_cg(&mut grammar::SourceMap::new(), f, &[], &RealFs).and_then(|prog| {
                let mut inputs = PassInputs::single(card.clone(), SamplerState::default(), (64, 48));
                for (id, file) in [
                    ("RAMP", "luts/ramp_64x1.png"),
                    ("GRADE", "luts/grade_256x16.png"),
                    ("LUT", "luts/grade_256x16.png"),
                ] {
                    if let Ok(img) = load_png(&dir.join(file)) {
                        inputs.luts.push((id.into(), bound(img, SamplerState::default())));
                    }
                }
                pixels += 64 * 48;
                render_pass(&prog, &inputs).map(|_| ())
            }),
            "cgp" => {
                let mut sources = SourceMap::new();
                match translator::preset::load_cgp(&mut sources, f, &RealFs) {
                    (Some(p), _) => {
                        let frames = [card.clone()];
                        let job = PresetRender {
                            preset: &p,
                            fs: &RealFs,
                            frames: &frames,
                            viewport: (96, 72),
                            frame_count: 3,
                            parameters: &[],
                            luts: None,
                            conversions: Default::default(),
                            precision: false,
                            replaced: &[],
                            memo: None,
                        };
                        pixels += 3 * p.passes.len() as u64 * 96 * 72;
                        render_preset(&job).map(|_| ())
                    }
                    (None, d) => Err(d),
                }
            }
            _ => continue,
        };
        total += 1;
        match result {
            Ok(()) => {
                ok += 1;
                println!("ok    {name}");
            }
            Err(d) => {
                let first = d.iter().find(|x| x.severity == grammar::Severity::Error).or(d.first());
                println!("FAIL  {name}: {}", first.map_or(String::new(), |x| format!("{} {}", x.code, x.message)));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{ok}/{total} rendered in {secs:.2} s (~{:.0} pixel-passes/s incl. compile)", pixels as f64 / secs);
}
