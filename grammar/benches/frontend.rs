//! Front-end throughput: preprocess + lex + parse, and lex alone, in bytes per second.
//!
//! The input is built from the corpus (`corpus/**/*.cg` outside `corpus/bad/`): each
//! file's `#include`s are inlined, and the file is repeated until the text reaches
//! about 8 MiB, every copy with its own names (each identifier that is not a Cg
//! keyword, built-in type, profile or directive name gets a `_<copy>_<file>` suffix,
//! found with the crate's own lexer so comments, strings and literals stay intact).
//! The result is one large translation unit shaped like real shader code, with
//! thousands of distinct structs, typedefs, macros and functions.
//!
//! Run with `cargo bench -p grammar --bench frontend` (add
//! `-- --warm-up-time 1 --measurement-time 3` for a quick figure). Set
//! `FRONTEND_BENCH_INPUT=/some/file.cg` to keep the generated input.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grammar::{lexer, FileId, MemoryFs, PpOptions, SourceMap};
use std::hint::black_box;
use std::path::{Path, PathBuf};

const TARGET_BYTES: usize = 8 * 1024 * 1024;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// The good corpus files, sorted, with their text.
fn corpus_files() -> Vec<(PathBuf, String)> {
    let bad = corpus_dir().join("bad");
    let mut out = Vec::new();
    let mut stack = vec![corpus_dir()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path != bad {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "cg") {
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.push((path, text));
            }
        }
    }
    out.sort();
    out
}

/// Replaces `#include "file"` lines with the file's text (recursively, each file once,
/// as an include guard would).
fn inline_includes(path: &Path, text: &str, seen: &mut Vec<PathBuf>) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let trimmed = line.trim_start();
        let target = trimmed
            .strip_prefix('#')
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix("include"))
            .map(str::trim)
            .and_then(|r| r.strip_prefix('"'))
            .and_then(|r| r.split('"').next());
        match target {
            Some(name) => {
                let inc = path.parent().unwrap_or(Path::new(".")).join(name);
                if !seen.contains(&inc) {
                    seen.push(inc.clone());
                    let body = std::fs::read_to_string(&inc).unwrap_or_else(|e| panic!("{}: {e}", inc.display()));
                    out.push_str(&inline_includes(&inc, &body, seen));
                }
                out.push('\n');
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Names that keep their spelling: what the text needs to stay the same Cg program
/// (keywords, built-in types, profiles, directive words) and what makes it read like
/// real shader code (standard library functions, semantics, and, after a `.`, swizzles).
fn is_builtin(name: &str, after_dot: bool) -> bool {
    #[rustfmt::skip]
    const WORDS: &[&str] = &[
        // keywords and reserved words
        "asm", "auto", "bool", "break", "case", "catch", "char", "class", "column_major", "compile", "const",
        "continue", "default", "discard", "do", "double", "else", "emit", "enum", "extern", "false", "fixed",
        "float", "for", "goto", "half", "if", "in", "inline", "inout", "int", "interface", "long", "matrix",
        "noinline", "out", "packed", "pass", "register", "return", "row_major", "sampler", "sampler_state",
        "sampler1D", "sampler2D", "sampler3D", "samplerCUBE", "samplerRECT", "shared", "short", "signed", "sizeof",
        "static", "string", "struct", "switch", "technique", "texture", "true", "typedef", "uniform", "unpacked",
        "unsigned", "varying", "vector", "void", "volatile", "while", "cint", "cfloat",
        // preprocessor
        "define", "undef", "include", "ifdef", "ifndef", "elif", "endif", "pragma", "error", "line", "defined",
        "parameter", "once", "PARAMETER_UNIFORM",
        // profiles
        "vs", "ps", "vs_1", "vs_2", "ps_1", "ps_2", "vp20", "vp30", "vp40", "fp20", "fp30", "fp40", "arbvp1",
        "arbfp1", "glslv", "glslf", "gp4vp", "gp4fp", "gp5vp", "gp5fp",
        // standard library
        "abs", "all", "any", "ceil", "clamp", "cos", "cross", "distance", "dot", "exp", "exp2", "floor", "fmod",
        "frac", "length", "lerp", "log", "log2", "max", "min", "mul", "normalize", "pow", "reflect", "round",
        "saturate", "sign", "sin", "smoothstep", "sqrt", "step", "tex2D", "tex2Dlod", "tex1D", "texCUBE",
        "transpose",
        // semantics (without their numbers)
        "POSITION", "COLOR", "TEXCOORD", "TEXUNIT", "NORMAL", "FOG", "BUFFER", "PSIZE", "TANGENT", "BINORMAL",
        "DEPTH", "WPOS", "C", "WORLDVIEWPROJECTION",
    ];
    let without_digits = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if WORDS.contains(&name) || WORDS.contains(&without_digits) || name.starts_with("__") {
        return true;
    }
    let dims = |s: &str| matches!(s.as_bytes(), [] | [b'1'..=b'4'] | [b'1'..=b'4', b'x', b'1'..=b'4']);
    let numeric_type = ["float", "half", "fixed", "int", "bool", "double", "cint", "cfloat", "short", "long", "char"]
        .iter()
        .any(|base| name.strip_prefix(base).is_some_and(dims));
    let swizzle = |set: &str| name.len() <= 4 && name.chars().all(|c| set.contains(c));
    let matrix_swizzle = name.starts_with('_') && name.bytes().all(|b| b == b'_' || b == b'm' || b.is_ascii_digit());
    numeric_type || (after_dot && (swizzle("xyzw") || swizzle("rgba") || matrix_swizzle))
}

/// Appends `suffix` to every identifier of `text` that is not built in.
fn rename(text: &str, suffix: &str) -> String {
    use lexer::TokenKind;
    let (tokens, _) = lexer::lex(text, FileId(0));
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut at = 0;
    let mut previous = TokenKind::Newline;
    for t in &tokens {
        if t.kind == TokenKind::Ident {
            let range = t.span.range();
            out.push_str(&text[at..range.end]);
            if !is_builtin(&text[range.clone()], previous == TokenKind::Dot) {
                out.push_str(suffix);
            }
            at = range.end;
        }
        previous = t.kind;
    }
    out.push_str(&text[at..]);
    out
}

/// One translation unit of about [`TARGET_BYTES`] made of renamed corpus copies.
fn big_input() -> String {
    let files: Vec<String> =
        corpus_files().into_iter().map(|(path, text)| inline_includes(&path, &text, &mut Vec::new())).collect();
    assert!(!files.is_empty(), "no corpus files under {}", corpus_dir().display());
    let mut out = String::with_capacity(TARGET_BYTES + 64 * 1024);
    let mut copy = 0;
    while out.len() < TARGET_BYTES {
        for (i, text) in files.iter().enumerate() {
            out.push_str(&rename(text, &format!("_{copy}_{i}")));
        }
        copy += 1;
    }
    out
}

fn parse(text: &str) -> grammar::ParseResult {
    let mut sources = SourceMap::new();
    grammar::parse_str(&mut sources, "bench.cg", text, &PpOptions::default(), &MemoryFs::new())
}

fn benches(c: &mut Criterion) {
    let text = big_input();
    let bytes = text.len() as u64;
    if let Some(path) = std::env::var_os("FRONTEND_BENCH_INPUT") {
        // Keep the generated input for inspection or for running the CLI on it.
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("warning: cannot write {}: {e}", Path::new(&path).display());
        }
    }
    let check = parse(&text);
    let errors = check.diagnostics.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        eprintln!("warning: the benchmark input has {errors} error diagnostics; the figures include error recovery");
        for d in check.diagnostics.iter().filter(|d| d.is_error()).take(5) {
            eprintln!("  {}: {}", d.code, d.message);
        }
    }
    eprintln!(
        "benchmark input: {:.1} MiB, {} tokens after preprocessing, {} top-level items",
        bytes as f64 / (1024.0 * 1024.0),
        check.preprocessed.tokens.len(),
        check.unit.items.len()
    );
    drop(check);

    let mut group = c.benchmark_group("frontend");
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(10);
    group.bench_function("preprocess+lex+parse", |b| b.iter(|| black_box(parse(black_box(&text)))));
    group.bench_function("preprocess+lex", |b| {
        b.iter(|| {
            let mut sources = SourceMap::new();
            let root = sources.add_file("bench.cg", Some(PathBuf::from("bench.cg")), text.clone());
            black_box(grammar::pp::preprocess(&mut sources, root, &PpOptions::default(), &MemoryFs::new()))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("lex");
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(10);
    group.bench_function("lex", |b| b.iter(|| black_box(lexer::lex(black_box(&text), FileId(0)))));
    group.finish();
}

criterion_group!(frontend, benches);
criterion_main!(frontend);
