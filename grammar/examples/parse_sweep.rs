//! Parses every `.cg` file under a directory and reports how many parse cleanly.
//!
//! Usage: `cargo run --release -p grammar --example parse_sweep -- DIR [--all] [--time]`
//!
//! Each file goes through `grammar::parse_file` (preprocessor, lexer, parser) with
//! `-D PARAMETER_UNIFORM` and the real file system. Prints the number of files with zero
//! errors, then the first errors of each failing file (`--all`: every error), and with
//! `--time` the throughput. Never writes anything; only reads the files.

use grammar::diagnostic::render_short;
use grammar::{parse_file, Diagnostic, PpOptions, RealFs, SourceMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: parse_sweep DIR [--all] [--time]");
        std::process::exit(2);
    };
    let all = args.iter().any(|a| a == "--all");
    let time = args.iter().any(|a| a == "--time");
    let mut files = Vec::new();
    collect(Path::new(dir), &mut files);
    files.sort();
    let options = PpOptions {
        defines: vec![("PARAMETER_UNIFORM".into(), None)],
        ..PpOptions::default()
    };
    let mut clean = 0usize;
    let mut failing = Vec::new();
    let mut bytes = 0usize;
    let mut elapsed = Duration::ZERO;
    let mut parse_time = Duration::ZERO;
    let mut ntokens = 0usize;
    for path in &files {
        let mut sources = SourceMap::new();
        let start = Instant::now();
        let result = parse_file(&mut sources, path, &options, &RealFs);
        elapsed += start.elapsed();
        if time {
            let start = Instant::now();
            let _ = grammar::parser::parse(&sources, &result.preprocessed.tokens);
            let t = start.elapsed();
            parse_time += t;
            ntokens += result.preprocessed.tokens.len();
            if std::env::var_os("SWEEP_SLOW").is_some() && t.as_millis() > 20 {
                eprintln!(
                    "{} ms {} tokens {}",
                    t.as_millis(),
                    result.preprocessed.tokens.len(),
                    path.display()
                );
            }
        }
        bytes += result
            .preprocessed
            .files
            .iter()
            .map(|&f| sources.file(f).text.len())
            .sum::<usize>();
        let errors: Vec<Diagnostic> = result
            .diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .collect();
        if errors.is_empty() {
            clean += 1;
        } else {
            let shown = if all {
                &errors[..]
            } else {
                &errors[..errors.len().min(3)]
            };
            failing.push((path.clone(), errors.len(), render_short(&sources, shown)));
        }
    }
    println!("{clean} of {} files parse with zero errors", files.len());
    for (path, n, text) in &failing {
        println!("\n{} ({n} errors)", path.display());
        print!("{text}");
    }
    if time {
        let secs = elapsed.as_secs_f64().max(1e-9);
        println!(
            "\n{:.1} MB in {:.3} s: {:.1} MB/s",
            bytes as f64 / 1e6,
            secs,
            bytes as f64 / 1e6 / secs
        );
        println!(
            "of which parsing (terminals, grammar, AST): {:.3} s, {ntokens} tokens",
            parse_time.as_secs_f64()
        );
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "cg") {
            out.push(path);
        }
    }
}
