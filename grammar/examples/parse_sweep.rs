//! Parses every `.cg` file under a directory and reports how many parse cleanly.
//!
//! Usage: `cargo run --release -p grammar --example parse_sweep -- PATH [--all] [--time]`
//!
//! `PATH` is a directory (every `.cg` below it) or one file. Each file goes through the
//! front end (preprocessor, lexer, parser) with `-D PARAMETER_UNIFORM` and the real file
//! system. Prints the number of files with zero errors, then the first errors of each
//! failing file (`--all`: every error). With `--time` it also prints the throughput of
//! preprocessing + lexing and of parsing (classification, grammar, AST), measured
//! separately and without file reading or dropping the results. Only reads files.

#[path = "support/sweep.rs"]
mod sweep;

use grammar::diagnostic::render_short;
use grammar::{Diagnostic, PpOptions, RealFs, SourceMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(root) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: parse_sweep PATH [--all] [--time]");
        std::process::exit(2);
    };
    let all = args.iter().any(|a| a == "--all");
    let time = args.iter().any(|a| a == "--time");
    let files =
        if Path::new(root).is_file() { vec![PathBuf::from(root)] } else { sweep::files(Path::new(root), &["cg"]) };
    let options = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let (mut clean, mut bytes, mut tokens) = (0usize, 0usize, 0usize);
    let (mut pp_time, mut parse_time) = (Duration::ZERO, Duration::ZERO);
    let mut failing = Vec::new();
    for path in &files {
        let mut sources = SourceMap::new();
        let mut diagnostics = Vec::new();
        let root = match std::fs::read(path) {
            Ok(bytes) => {
                let (text, bad) = grammar::source::decode(bytes);
                let id = sources.add_file(path.display().to_string(), Some(grammar::source::normalize(path)), text);
                if let Some(at) = bad {
                    diagnostics.push(grammar::not_utf8(id, at));
                }
                id
            }
            Err(e) => {
                failing.push((path.clone(), 1, format!("cannot read: {e}\n")));
                continue;
            }
        };
        let start = Instant::now();
        let (pre, mut pp_diags) = grammar::pp::preprocess(&mut sources, root, &options, &RealFs);
        let middle = Instant::now();
        let (unit, mut parse_diags) = grammar::parser::parse(&sources, &pre.tokens);
        let end = Instant::now();
        pp_time += middle - start;
        parse_time += end - middle;
        bytes += pre.files.iter().map(|&f| sources.file(f).text.len()).sum::<usize>();
        tokens += pre.tokens.len();
        drop(unit);
        diagnostics.append(&mut pp_diags);
        diagnostics.append(&mut parse_diags);
        let errors: Vec<Diagnostic> = diagnostics.into_iter().filter(Diagnostic::is_error).collect();
        if errors.is_empty() {
            clean += 1;
        } else {
            let shown = if all { &errors[..] } else { &errors[..errors.len().min(3)] };
            failing.push((path.clone(), errors.len(), render_short(&sources, shown)));
        }
    }
    println!("{clean} of {} files parse with zero errors", files.len());
    for (path, n, text) in &failing {
        println!("\n{} ({n} errors)", path.display());
        print!("{text}");
    }
    if time {
        let mb = bytes as f64 / 1e6;
        let rate = |d: Duration| mb / d.as_secs_f64().max(1e-9);
        println!("\n{mb:.1} MB of source ({tokens} tokens after preprocessing)");
        println!("preprocess + lex: {:.3} s, {:.1} MB/s", pp_time.as_secs_f64(), rate(pp_time));
        println!("parse:            {:.3} s, {:.1} MB/s", parse_time.as_secs_f64(), rate(parse_time));
        println!(
            "front end:        {:.3} s, {:.1} MB/s",
            (pp_time + parse_time).as_secs_f64(),
            rate(pp_time + parse_time)
        );
    }
}
