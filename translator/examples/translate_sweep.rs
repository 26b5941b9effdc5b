//! Translates every .cg under DIR as a lone one-pass shader and writes the slang text
//! under OUT (same relative paths, `.slang`). Prints counts and the commonest errors.
//!
//! With `--naga`, also writes the naga dialect of each (`.naga.vert`, `.naga.frag`):
//! the text the validator and the wgpu chain read, for byte-identity checks of the writer.
//!
//! Usage: cargo run --release -p translator --example translate_sweep -- DIR OUT [--naga] [--list]

#[path = "../../grammar/examples/support/sweep.rs"]
mod sweep;

use grammar::{PpOptions, RealFs, SourceMap};
use std::collections::BTreeMap;
use std::path::Path;
use translator::translate::{translate, TranslateOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: translate_sweep DIR OUT");
        std::process::exit(2);
    };
    let files = sweep::files(Path::new(dir), &["cg"]);
    let options = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let mut ok = 0;
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let start = std::time::Instant::now();
    for f in &files {
        let mut sources = SourceMap::new();
        let parsed = grammar::parse_file(&mut sources, f, &options, &RealFs);
        let t = translate(&sources, &parsed, &TranslateOptions::default());
        match t.text {
            Some(text) => {
                ok += 1;
                let rel = f.strip_prefix(dir).unwrap_or(f);
                let dest = Path::new(out).join(rel).with_extension("slang");
                if let Some(p) = dest.parent() {
                    let _ = std::fs::create_dir_all(p);
                }
                if args.iter().any(|a| a == "--naga") {
                    if let Some(naga) = &t.naga {
                        let _ = std::fs::write(dest.with_extension("naga.vert"), &naga.vertex.text);
                        let _ = std::fs::write(dest.with_extension("naga.frag"), &naga.fragment.text);
                    }
                }
                let _ = std::fs::write(dest, text);
            }
            None => {
                if let Some(d) = t.diagnostics.iter().find(|d| d.is_error()) {
                    let key: String = format!("{} {}", d.code, d.message).chars().take(100).collect();
                    *reasons.entry(key).or_default() += 1;
                    if args.iter().any(|a| a == "--list") {
                        let loc = d.location(&sources).map(|l| format!("{}:{}", l.file, l.line)).unwrap_or_default();
                        println!("{}: {loc} {} {}", f.display(), d.code, d.message);
                    }
                }
            }
        }
    }
    println!(
        "files {} | translated {} | failed {} | {:.2}s",
        files.len(),
        ok,
        files.len() - ok,
        start.elapsed().as_secs_f64()
    );
    sweep::print_top(&reasons, 30);
}
