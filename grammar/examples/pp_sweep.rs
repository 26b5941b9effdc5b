//! Preprocesses every `.cg` file under a directory (as RetroArch does, with
//! `-DPARAMETER_UNIFORM`) and reports which files preprocess without errors.
//!
//! Usage: `cargo run --release -p grammar --example pp_sweep -- DIR [--warnings]`
//! Prints the errors of each failing file, then `N of M files with zero errors` and
//! the throughput. Exit status 1 when any file has errors.

#[path = "support/sweep.rs"]
mod sweep;

use grammar::diagnostic::{has_errors, render_short};
use grammar::pp::{preprocess, PpOptions};
use grammar::source::{self, FileSystem, RealFs, SourceMap};
use std::path::Path;
use std::time::Instant;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: pp_sweep DIR");
        std::process::exit(2);
    };
    let files = sweep::files(Path::new(&dir), &["cg"]);
    let options = PpOptions { defines: vec![("PARAMETER_UNIFORM".to_owned(), None)], ..PpOptions::default() };
    let fs = RealFs;
    let mut clean = 0;
    let mut bytes = 0usize;
    let mut tokens = 0usize;
    let mut warnings: std::collections::BTreeMap<&'static str, usize> = Default::default();
    let show_warnings = std::env::args().any(|a| a == "--warnings");
    let start = Instant::now();
    for path in &files {
        let mut sources = SourceMap::new();
        let (text, bad) = match fs.read(path) {
            Ok(b) => source::decode(b),
            Err(e) => {
                println!("{}: cannot read: {e}", path.display());
                continue;
            }
        };
        let root = sources.add_file(path.display().to_string(), Some(source::normalize(path)), text);
        let (out, mut diags) = preprocess(&mut sources, root, &options, &fs);
        if let Some(at) = bad {
            diags.insert(0, grammar::not_utf8(root, at));
        }
        bytes += out.files.iter().map(|f| sources.file(*f).text.len()).sum::<usize>();
        tokens += out.tokens.len();
        for d in diags.iter().filter(|d| !d.is_error()) {
            *warnings.entry(d.code).or_default() += 1;
            if show_warnings {
                print!("{}", render_short(&sources, std::slice::from_ref(d)));
            }
        }
        if has_errors(&diags) {
            let errors: Vec<_> = diags.into_iter().filter(|d| d.is_error()).collect();
            print!("{}", render_short(&sources, &errors));
        } else {
            clean += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{clean} of {} files with zero preprocessing errors", files.len());
    if !warnings.is_empty() {
        println!("warnings: {warnings:?} (pass --warnings to list them)");
    }
    println!(
        "{:.1} MB read (includes counted per inclusion), {tokens} tokens out, {secs:.2} s, {:.1} MB/s",
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
    if clean != files.len() {
        std::process::exit(1);
    }
}
