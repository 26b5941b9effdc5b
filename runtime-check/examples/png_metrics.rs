//! The comparison metrics of two PNG files of the same size, as `cg2slang compare`
//! computes them (PSNR over RGB, maximum error, share of pixels within 2/255):
//! `cargo run --release -p runtime-check --example png_metrics -- A.png B.png`.
//! Used by `tools/librashader-crosscheck.sh` to set our chain next to another slang
//! runtime. Exit 0 when the metrics print, 2 when a file cannot be read or the sizes
//! differ.

use runtime_check::compare::{metrics, Thresholds};
use runtime_check::reference::png::load_png;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b] = args.as_slice() else {
        eprintln!("usage: png_metrics A.png B.png");
        return ExitCode::from(2);
    };
    let load = |p: &str| load_png(Path::new(p)).map_err(|d| format!("{p}: {}", d.message));
    let result = load(a).and_then(|a| load(b).and_then(|b| metrics(&a, &b).map_err(|e| e.to_string())));
    match result {
        Ok(m) => {
            println!("{}", m.verdict(&Thresholds::default()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
