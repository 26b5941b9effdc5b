//! Sweeps a directory of Cg files: parses each with `-DPARAMETER_UNIFORM` and analyses
//! `main_vertex` and `main_fragment` (those that exist) under the default profiles.
//! Prints how many files check with zero errors and the most common errors.
//!
//! Usage: cargo run --release -p translator --example sema_sweep -- DIR [--list]
//!        [--known-failures FILE]
//!
//! With `--known-failures`, every file listed there must fail with the listed code and
//! every other file must check clean; any difference is printed and the exit code is 1.

#[path = "../../grammar/examples/support/sweep.rs"]
mod sweep;

use grammar::{ast, PpOptions, RealFs, SourceMap};
use std::collections::BTreeMap;
use std::path::Path;
use translator::ir::Stage;
use translator::sema::{analyze, SemaOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: sema_sweep DIR [--list]");
        std::process::exit(2);
    };
    let list = args.iter().any(|a| a == "--list");
    let known: Option<BTreeMap<String, String>> = args.iter().position(|a| a == "--known-failures").map(|i| {
        let text = args.get(i + 1).and_then(|p| std::fs::read_to_string(p).ok()).unwrap_or_default();
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once(": ").map(|(p, r)| (p.to_owned(), r.to_owned())))
            .collect()
    });
    let mut first_error: BTreeMap<String, String> = BTreeMap::new();
    let files = sweep::files(Path::new(dir), &["cg"]);
    let options = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let (mut clean, mut no_entry, mut parse_fail) = (0, 0, 0);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let start = std::time::Instant::now();
    let (mut parse_time, mut analyze_time) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    for f in &files {
        let mut sources = SourceMap::new();
        let t0 = std::time::Instant::now();
        let parsed = grammar::parse_file(&mut sources, f, &options, &RealFs);
        parse_time += t0.elapsed();
        if parsed.has_errors() {
            parse_fail += 1;
            continue;
        }
        let has = |name: &str| {
            parsed
                .unit
                .items
                .iter()
                .any(|i| matches!(i, ast::Item::Function(func) if func.name.name == name && func.body.is_some()))
        };
        let mut entries = Vec::new();
        if has("main_vertex") {
            entries.push(("main_vertex", Stage::Vertex));
        }
        if has("main_fragment") {
            entries.push(("main_fragment", Stage::Fragment));
        }
        if entries.is_empty() {
            no_entry += 1;
            continue;
        }
        let mut errors = Vec::new();
        for (entry, stage) in entries {
            let t1 = std::time::Instant::now();
            let (_, diags) = analyze(&parsed.unit, &parsed.preprocessed.pragmas, &SemaOptions::new(entry, stage));
            analyze_time += t1.elapsed();
            for d in diags.iter().filter(|d| d.is_error()) {
                let loc =
                    d.location(&sources).map(|l| format!("{}:{}:{}", l.file, l.line, l.column)).unwrap_or_default();
                errors.push(format!("{loc}: {}[{}] {}", entry, d.code, d.message));
            }
        }
        if errors.is_empty() {
            clean += 1;
        } else {
            let rel = f.strip_prefix(dir).unwrap_or(f).to_string_lossy().trim_start_matches('/').to_owned();
            let first = errors[0].split(": ").skip(1).collect::<Vec<_>>().join(": ");
            first_error.insert(rel, first);
            errors.dedup();
            for e in &errors {
                let key: String = e.split("] ").nth(1).unwrap_or(e).chars().take(90).collect();
                *reasons.entry(key).or_default() += 1;
            }
            if list {
                println!("{}\n  {}", f.display(), errors.iter().take(3).cloned().collect::<Vec<_>>().join("\n  "));
            }
        }
    }
    let with_entry = files.len() - no_entry - parse_fail;
    println!(
        "files {} | parse errors {} | no entry point {} | with entry points {} | check clean {} | with sema errors {} | {:.2}s",
        files.len(),
        parse_fail,
        no_entry,
        with_entry,
        clean,
        with_entry - clean,
        start.elapsed().as_secs_f64()
    );
    println!(
        "time: preprocess+parse {:.3}s, analysis (both entry points) {:.3}s",
        parse_time.as_secs_f64(),
        analyze_time.as_secs_f64()
    );
    sweep::print_top(&reasons, 40);
    if let Some(known) = known {
        let code = |s: &str| s.split(']').next().unwrap_or("").to_owned();
        let mut mismatches = 0;
        for (path, reason) in &known {
            match first_error.get(path) {
                Some(e) if code(e) == code(reason) => {}
                Some(e) => {
                    mismatches += 1;
                    println!("known failure {path} now fails differently: {e}");
                }
                None => {
                    mismatches += 1;
                    println!("known failure {path} now passes (or is missing): remove it from the list");
                }
            }
        }
        for (path, e) in &first_error {
            if !known.contains_key(path) {
                mismatches += 1;
                println!("new failure {path}: {e}");
            }
        }
        println!("known failures: {} listed, {} mismatches", known.len(), mismatches);
        if mismatches > 0 {
            std::process::exit(1);
        }
    }
}
