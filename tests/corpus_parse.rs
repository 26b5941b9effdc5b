//! The corpus test: every shader under `corpus/` goes through the front end.
//!
//! Files outside `corpus/bad/` must preprocess and parse with zero errors and produce a
//! non-empty AST without `Error` items (`corpus/bad/` is tested through the whole
//! pipeline by `corpus_bad.rs`). Failures are collected over the whole corpus and
//! reported together, each with its rendered diagnostics. A file that takes longer than [`TIMEOUT`] counts as a failure, so a
//! hang in the front end fails the test instead of stalling CI.

use grammar::ast::Item;
use grammar::diagnostic::render_plain;
use grammar::{PpOptions, RealFs, SourceMap};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(30);

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every `*.cg` below `dir`, sorted.
fn cg_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "cg") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// What the front end made of one file.
struct Outcome {
    /// Codes of the error diagnostics, in order.
    errors: Vec<&'static str>,
    items: usize,
    error_items: usize,
    rendered: String,
}

/// Parses `path` on a worker thread; `None` when it does not finish within [`TIMEOUT`].
fn parse(path: &Path) -> Option<Outcome> {
    let (tx, rx) = mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::spawn(move || {
        let mut sources = SourceMap::new();
        let result = grammar::parse_file(&mut sources, &owned, &PpOptions::default(), &RealFs);
        let outcome = Outcome {
            errors: result.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect(),
            items: result.unit.items.len(),
            error_items: result.unit.items.iter().filter(|i| matches!(i, Item::Error(_))).count(),
            rendered: render_plain(&sources, &result.diagnostics),
        };
        let _ = tx.send(outcome);
    });
    rx.recv_timeout(TIMEOUT).ok()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display().to_string()
}

#[test]
fn good_corpus_files_parse_without_errors() {
    let bad_dir = corpus_dir().join("bad");
    let files: Vec<PathBuf> = cg_files(&corpus_dir()).into_iter().filter(|p| !p.starts_with(&bad_dir)).collect();
    assert!(files.len() >= 12, "expected the corpus to hold at least 12 good files, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let name = relative(path);
        match parse(path) {
            None => failures.push(format!("{name}: did not finish within {TIMEOUT:?}")),
            Some(o) if !o.errors.is_empty() => {
                failures.push(format!("{name}: {} error(s) {:?}\n{}", o.errors.len(), o.errors, o.rendered))
            }
            Some(o) if o.items == 0 => failures.push(format!("{name}: parsed to an empty AST")),
            Some(o) if o.error_items > 0 => {
                failures.push(format!("{name}: {} Error item(s) in the AST without an error diagnostic", o.error_items))
            }
            Some(_) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus files failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
