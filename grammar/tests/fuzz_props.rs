//! Property tests: the front end never panics and its diagnostics stay in bounds.
//!
//! Three input generators feed `grammar::parse_file` through an in-memory file system:
//! arbitrary bytes (including invalid UTF-8), "token soups" drawn from Cg keywords,
//! types, punctuation, literals and preprocessor directives (so the preprocessor's and
//! parser's error paths are reached often), and byte-level edits of the corpus files.
//! Each case must not panic, must satisfy [`support::invariants::check`], and the token
//! soups must parse deterministically. The case count defaults to 256 per property to
//! keep CI fast; set `PROPTEST_CASES` for a longer run. The open-ended fuzzer is
//! `translator/examples/fuzz.rs`.

mod support {
    pub mod invariants;
    pub mod words;
}

use grammar::diagnostic::render_short;
use grammar::{MemoryFs, PpOptions, SourceMap};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use support::words::SOUP;

fn base_fs() -> MemoryFs {
    MemoryFs::new()
        .with("x.inc", "#define X_INC 1\nfloat x_inc;\n#define F2(a, b) (a) + (b)\n")
        .with("cycle.inc", "#include \"cycle.inc\"\n")
}

/// Parses `bytes` as the root file `soup.cg`, checking the invariants; returns the
/// short rendering of the diagnostics (for determinism checks).
fn parse_checked(bytes: &[u8]) -> Result<String, TestCaseError> {
    let fs = base_fs().with("soup.cg", bytes.to_vec());
    let mut sources = SourceMap::new();
    let result = grammar::parse_file(&mut sources, Path::new("soup.cg"), &PpOptions::default(), &fs);
    prop_assert!(result.root.is_some(), "the root file is in the file system");
    support::invariants::check(&sources, &result.diagnostics).map_err(TestCaseError::fail)?;
    Ok(render_short(&sources, &result.diagnostics))
}

fn soup() -> impl Strategy<Value = String> {
    let word = prop::sample::select(SOUP);
    let sep = prop::sample::select(&[" ", " ", "", "\n", "\t"][..]);
    prop::collection::vec((word, sep), 0..160).prop_map(|parts| {
        let mut text = String::new();
        for (w, s) in parts {
            text.push_str(w);
            text.push_str(s);
        }
        text
    })
}

/// The corpus files (`*.cg` and `*.inc`), read once.
fn corpus() -> &'static [(PathBuf, Vec<u8>)] {
    static CORPUS: OnceLock<Vec<(PathBuf, Vec<u8>)>> = OnceLock::new();
    CORPUS.get_or_init(read_corpus)
}

fn read_corpus() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "cg" || e == "inc") {
                let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                out.push((path, bytes));
            }
        }
    }
    out.sort();
    out
}

/// An edit of a corpus file: position (as a fraction of the length) and what to do.
#[derive(Clone, Debug)]
enum Edit {
    Flip(f64, u8),
    Insert(f64, u8),
    Delete(f64, usize),
    InsertWord(f64, &'static str),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0f64, any::<u8>()).prop_map(|(p, b)| Edit::Flip(p, b)),
        (0.0..1.0f64, any::<u8>()).prop_map(|(p, b)| Edit::Insert(p, b)),
        (0.0..1.0f64, 1..64usize).prop_map(|(p, n)| Edit::Delete(p, n)),
        (0.0..1.0f64, prop::sample::select(SOUP)).prop_map(|(p, w)| Edit::InsertWord(p, w)),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let at = |p: f64, len: usize| ((p * len as f64) as usize).min(len);
    match *edit {
        Edit::Flip(p, b) => {
            if !bytes.is_empty() {
                let i = at(p, bytes.len() - 1);
                bytes[i] ^= b | 1;
            }
        }
        Edit::Insert(p, b) => {
            let i = at(p, bytes.len());
            bytes.insert(i, b);
        }
        Edit::Delete(p, n) => {
            let i = at(p, bytes.len());
            let end = (i + n).min(bytes.len());
            bytes.drain(i..end);
        }
        Edit::InsertWord(p, w) => {
            let i = at(p, bytes.len());
            bytes.splice(i..i, w.bytes());
        }
    }
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..1024)) {
        parse_checked(&bytes)?;
    }

    #[test]
    fn token_soups_never_panic_and_are_deterministic(text in soup()) {
        let first = parse_checked(text.as_bytes())?;
        let second = parse_checked(text.as_bytes())?;
        prop_assert_eq!(first, second, "the same input must give the same diagnostics");
    }

    #[test]
    fn edited_corpus_files_never_panic(index in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 1..8)) {
        let files = corpus();
        prop_assert!(!files.is_empty(), "the corpus is empty");
        let (path, original) = &files[index.index(files.len())];
        let mut bytes = original.clone();
        for e in &edits {
            apply(&mut bytes, e);
        }
        // Keep the file's own directory so its includes resolve against the real corpus.
        let mut fs = base_fs();
        for (p, b) in files {
            fs.insert(p.clone(), b.clone());
        }
        fs.insert(path.clone(), bytes);
        let mut sources = SourceMap::new();
        let result = grammar::parse_file(&mut sources, path, &PpOptions::default(), &fs);
        prop_assert!(result.root.is_some());
        support::invariants::check(&sources, &result.diagnostics).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn the_corpus_is_there_to_mutate() {
    let files = corpus();
    assert!(files.len() >= 12, "found {} corpus files", files.len());
    assert!(files.iter().any(|(p, _)| p.extension().is_some_and(|e| e == "inc")), "the include helpers are read too");
}
