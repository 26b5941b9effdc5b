//! The corpus test: every shader under `corpus/` goes through the front end.
//!
//! Files outside `corpus/bad/` must preprocess and parse with zero errors and produce a
//! non-empty AST without `Error` items. Every file in `corpus/bad/` names the error
//! codes it must produce in a first-line comment, `// expect: E0104` (several codes may
//! be listed; a code listed twice must be reported at least twice). Failures are
//! collected over the whole corpus and reported together, each with its rendered
//! diagnostics. A file that takes longer than [`TIMEOUT`] counts as a failure, so a
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

/// The codes in a `// expect: E0104 E0201` first line.
fn expected_codes(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let first = text.lines().next().unwrap_or("");
    let codes = first
        .trim()
        .strip_prefix("//")
        .map(str::trim)
        .and_then(|rest| rest.strip_prefix("expect:"))
        .ok_or_else(|| format!("first line must be `// expect: CODE ...`, found {first:?}"))?;
    let codes: Vec<String> = codes.split_whitespace().map(str::to_owned).collect();
    let well_formed = |c: &String| c.len() == 5 && c.starts_with('E') && c[1..].bytes().all(|b| b.is_ascii_digit());
    if codes.is_empty() || !codes.iter().all(well_formed) {
        return Err(format!("`// expect:` must list error codes like E0104, found {first:?}"));
    }
    Ok(codes)
}

/// Which of `expected` (a multiset) are missing from `actual`.
fn missing_codes(expected: &[String], actual: &[&str]) -> Vec<String> {
    let mut left: Vec<&str> = actual.to_vec();
    let mut missing = Vec::new();
    for code in expected {
        match left.iter().position(|c| c == code) {
            Some(i) => {
                left.remove(i);
            }
            None => missing.push(code.clone()),
        }
    }
    missing
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

#[test]
fn bad_corpus_files_report_their_expected_codes() {
    let files = cg_files(&corpus_dir().join("bad"));
    assert!(files.len() >= 8, "expected at least 8 files in corpus/bad, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let name = relative(path);
        let expected = match expected_codes(path) {
            Ok(codes) => codes,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        match parse(path) {
            None => failures.push(format!("{name}: did not finish within {TIMEOUT:?}")),
            Some(o) => {
                let missing = missing_codes(&expected, &o.errors);
                if !missing.is_empty() {
                    failures.push(format!(
                        "{name}: expected {expected:?}, missing {missing:?}; errors reported: {:?}\n{}",
                        o.errors, o.rendered
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} bad files failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn expected_codes_are_a_multiset() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(missing_codes(&e(&["E0201"]), &["E0201", "E0202"]).is_empty());
    assert_eq!(missing_codes(&e(&["E0201", "E0201"]), &["E0201"]), ["E0201"]);
    assert_eq!(missing_codes(&e(&["E0104"]), &["E0105"]), ["E0104"]);
}
