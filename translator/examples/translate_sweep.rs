//! Translates every .cg under DIR as a lone one-pass shader and writes the slang text
//! under OUT (same relative paths, `.slang`). Prints counts and the commonest errors.
//!
//! Usage: cargo run --release -p translator --example translate_sweep -- DIR OUT

use grammar::{PpOptions, RealFs, SourceMap};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use translator::translate::{translate, TranslateOptions};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "cg") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: translate_sweep DIR OUT");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    walk(Path::new(dir), &mut files);
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
    let mut top: Vec<_> = reasons.into_iter().collect();
    top.sort_by_key(|t| std::cmp::Reverse(t.1));
    for (r, n) in top.iter().take(30) {
        println!("{n:5}  {r}");
    }
}
