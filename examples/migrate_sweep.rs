//! Plans the migration of a whole Cg library (as `cg2slang migrate` does, without the
//! binary's validation) and prints the coverage ladder: .cg files seen, those whose every
//! translation succeeded, .cgp presets whose every pass translated, and the failures
//! bucketed by their first error (code and message shape). With OUT, writes the emitted
//! .slang and .slangp files there (for `corpus-sweep --slang-only OUT`).
//!
//! Usage: cargo run --release --example migrate_sweep -- DIR [OUT] [--list]

#[path = "../grammar/examples/support/sweep.rs"]
mod sweep;

use cg2slang::migrate::{plan, ReportDiagnostic, Root, Status};
use grammar::{RealFs, Severity};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The code and the message's shape, so similar messages group.
fn shape(d: &ReportDiagnostic) -> String {
    format!("{} {}", d.code, sweep::shape(&d.message)).chars().take(120).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.iter().any(|a| a == "--list");
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(dir) = positional.first() else {
        eprintln!("usage: migrate_sweep DIR [OUT] [--list]");
        std::process::exit(2);
    };
    let out = positional.get(1);
    let mut root = Root { base: PathBuf::from(dir), cgp: Vec::new(), cg: Vec::new() };
    for f in sweep::files(Path::new(dir), &["cg", "cgp"]) {
        if f.extension().is_some_and(|e| e == "cgp") {
            root.cgp.push(f);
        } else {
            root.cg.push(f);
        }
    }
    let (cg_seen, cgp_seen) = (root.cg.len(), root.cgp.len());
    let start = std::time::Instant::now();
    let p = plan(&[root], &RealFs, false, &|_, _| {});
    let seconds = start.elapsed().as_secs_f64();

    let mut by_source: BTreeMap<&Path, bool> = BTreeMap::new();
    let mut buckets: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in &p.shaders {
        let ok = s.status != Status::Error;
        *by_source.entry(&s.source).or_insert(true) &= ok;
        if let Some(d) = s.diagnostics.iter().find(|d| d.severity == Severity::Error) {
            let rel = s.source.strip_prefix(dir.as_str()).unwrap_or(&s.source);
            buckets.entry(shape(d)).or_default().push(format!("{}:{} {}", rel.display(), d.line, d.message));
        }
        if let (Some(o), Some(text)) = (out, &s.text) {
            let dest = Path::new(o).join(&s.output);
            if let Some(parent) = dest.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(dest, text);
        }
    }
    let failing_sources: BTreeSet<&Path> = by_source.iter().filter(|(_, ok)| !**ok).map(|(s, _)| *s).collect();
    let mut preset_reasons: BTreeMap<String, usize> = BTreeMap::new();
    for pr in &p.presets {
        if pr.status == Status::Error {
            let key = pr
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
                .map(|d| {
                    let m = d.message.strip_prefix(dir.as_str()).unwrap_or(&d.message);
                    format!("{} {}", d.code, m.replace(dir.as_str(), ""))
                })
                .unwrap_or_else(|| "(no error message)".into());
            *preset_reasons.entry(key.chars().take(140).collect()).or_default() += 1;
        }
        if let (Some(o), Some(text)) = (out, &pr.text) {
            let dest = Path::new(o).join(&pr.output);
            if let Some(parent) = dest.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(dest, text);
        }
    }
    let presets_ok = p.presets.iter().filter(|x| x.status != Status::Error).count();
    println!(
        ".cg seen {cg_seen} | translated (every context) {} | failed {} | outputs {} ({} failed)",
        by_source.len() - failing_sources.len(),
        failing_sources.len(),
        p.shaders.len(),
        p.shaders.iter().filter(|s| s.status == Status::Error).count()
    );
    println!(".cgp seen {cgp_seen} | every pass translated {presets_ok} | {seconds:.2}s");
    let mut top: Vec<_> = buckets.into_iter().collect();
    top.sort_by_key(|(k, v)| (std::cmp::Reverse(v.len()), k.clone()));
    println!("\nshader failures by first error:");
    for (k, v) in &top {
        println!("{:5}  {k}", v.len());
        if list {
            for x in v {
                println!("         {x}");
            }
        }
    }
    println!("\npreset failures by first error:");
    sweep::print_top(&preset_reasons, usize::MAX);
}
