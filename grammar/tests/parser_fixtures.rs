//! Directory-driven parser fixtures: one insta snapshot per file.
//!
//! `test_data/parser/ok/*.cg` must parse with no diagnostics at all; their snapshot is
//! the AST dump. `test_data/parser/err/*.cg` must produce at least one error; their
//! snapshot is the AST dump followed by the rendered diagnostics. Adding a file adds a
//! snapshot (`INSTA_UPDATE=always cargo test -p grammar --test parser_fixtures`, then
//! review the new `.snap` files in `test_data/parser/snapshots`). Sibling `*.inc` files
//! are available to `#include`. Every AST span is also checked: inside its file, not
//! inverted, and inside the span of the item that holds it when in the same file.
//!
//! The deep-nesting checks run here too: they must finish with one clean diagnostic
//! and no stack overflow on the test thread's small stack.

use grammar::ast::dump::dump;
use grammar::ast::{Item, TranslationUnit};
use grammar::diagnostic::render_plain;
use grammar::{MemoryFs, PpOptions, SourceMap, Span};
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/parser")
}

fn cg_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|rd| rd.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "cg"));
    files.sort();
    files
}

fn include_fs(dir: &Path) -> MemoryFs {
    let mut fs = MemoryFs::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for entry in rd.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "inc") {
                if let (Some(name), Ok(bytes)) = (path.file_name(), std::fs::read(&path)) {
                    fs.insert(PathBuf::from(name), bytes);
                }
            }
        }
    }
    fs
}

/// Every AST node's span is a valid range of its file; checked through the dump's
/// walker would need a visitor, so items are checked here and the dump exercises the rest.
fn check_item_spans(sources: &SourceMap, unit: &TranslationUnit) -> Result<(), String> {
    let mut last: Option<Span> = None;
    for item in &unit.items {
        let span = match item {
            Item::Declaration(d) => d.span,
            Item::Function(f) => f.span,
            Item::Interface(i) => i.span,
            Item::ConstantBuffer(c) => c.span,
            Item::Technique(t) => t.span,
            Item::Empty(s) | Item::Error(s) => *s,
        };
        let text = &sources.file(span.file).text;
        if span.start > span.end || span.end as usize > text.len() {
            return Err(format!("item span {span:?} is not a range of its file"));
        }
        if let Some(prev) = last {
            if prev.file == span.file && prev.expansion.is_none() && span.expansion.is_none() && span.start < prev.end {
                return Err(format!("item spans overlap or go backwards: {prev:?} then {span:?}"));
            }
        }
        last = Some(span);
    }
    Ok(())
}

fn run(kind: &str, expect_errors: bool) -> Vec<String> {
    let dir = fixture_dir().join(kind);
    let fs = include_fs(&dir);
    let mut failures = Vec::new();
    let files = cg_files(&dir);
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    for path in files {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("fixture").to_owned();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let mut sources = SourceMap::new();
        let name = format!("{stem}.cg");
        let result = grammar::parse_str(&mut sources, &name, &text, &PpOptions::default(), &fs);
        let errors = result.has_errors();
        if expect_errors && !errors {
            failures.push(format!("{kind}/{name}: expected at least one error, got none"));
        }
        if !expect_errors && !result.diagnostics.is_empty() {
            failures.push(format!(
                "{kind}/{name}: expected no diagnostics, got:\n{}",
                render_plain(&sources, &result.diagnostics)
            ));
        }
        if let Err(e) = check_item_spans(&sources, &result.unit) {
            failures.push(format!("{kind}/{name}: {e}"));
        }
        let mut snapshot = dump(&sources, &result.unit);
        if !result.diagnostics.is_empty() {
            snapshot.push_str("\n---- diagnostics ----\n");
            snapshot.push_str(&render_plain(&sources, &result.diagnostics));
        }
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(fixture_dir().join("snapshots"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_input_file(&path);
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!(format!("{kind}__{stem}"), snapshot));
    }
    failures
}

#[test]
fn ok_fixtures_parse_cleanly() {
    let failures = run("ok", false);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn err_fixtures_report_errors() {
    let failures = run("err", true);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn parse_text(text: &str) -> (SourceMap, grammar::ParseResult) {
    let mut sources = SourceMap::new();
    let result = grammar::parse_str(&mut sources, "deep.cg", text, &PpOptions::default(), &MemoryFs::new());
    (sources, result)
}

fn codes(result: &grammar::ParseResult) -> Vec<&'static str> {
    result.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn hundred_thousand_nested_parentheses_give_one_diagnostic() {
    let n = 100_000;
    let text = format!("float x = {}1{};\nfloat y = 2;\n", "(".repeat(n), ")".repeat(n));
    let (sources, result) = parse_text(&text);
    assert_eq!(codes(&result), ["E0204"], "{}", render_plain(&sources, &result.diagnostics));
    // The next declaration still parses.
    assert!(matches!(result.unit.items.last(), Some(Item::Declaration(_))));
    let _ = dump(&sources, &result.unit);

    let unclosed = format!("float x = {}", "(".repeat(n));
    let (sources, result) = parse_text(&unclosed);
    assert_eq!(codes(&result), ["E0204"], "{}", render_plain(&sources, &result.diagnostics));
}

#[test]
fn hundred_thousand_term_chains_give_one_diagnostic() {
    let n = 100_000;
    for op in ["+", "=", ".x", "[0]", "-", "!"] {
        let body = match op {
            "+" | "=" => vec!["a"; n].join(&format!(" {op} ")),
            "-" | "!" => format!("{}a", op.repeat(n)),
            _ => format!("a{}", op.repeat(n)),
        };
        let text = format!("void f() {{ x = {body}; }}\nfloat y = 2;\n");
        let (sources, result) = parse_text(&text);
        let c = codes(&result);
        assert_eq!(c, ["E0204"], "{op}: {}", render_plain(&sources, &result.diagnostics));
        assert!(matches!(result.unit.items.last(), Some(Item::Declaration(_))), "{op}");
        let _ = dump(&sources, &result.unit);
    }
}

#[test]
fn long_flat_chains_of_one_operator_are_not_deep_nesting() {
    // 255 and 1500 terms of one precedence level: flat, accepted (once E0204 at 255).
    for (n, op) in [(255, "+"), (1500, "+"), (1500, "*"), (1000, "&&")] {
        let chain = vec!["a"; n].join(&format!(" {op} "));
        let text = format!("float f(float a) {{ return {chain}; }}\n");
        let (sources, result) = parse_text(&text);
        assert!(codes(&result).is_empty(), "{n} x {op}: {}", render_plain(&sources, &result.diagnostics));
    }
    // Past CHAIN_PER_LEVEL x MAX_EXPR_DEPTH operators the chain is refused all the same.
    let chain = vec!["a"; 2100].join(" + ");
    let (sources, result) = parse_text(&format!("float f(float a) {{ return {chain}; }}\n"));
    assert_eq!(codes(&result), ["E0204"], "{}", render_plain(&sources, &result.diagnostics));
}

#[test]
fn hundred_thousand_nested_statements_give_one_diagnostic() {
    let n = 100_000;
    let text = format!("void f() {{ {} x = 1; }}\nfloat y = 2;\n", "if (a) ".repeat(n));
    let (sources, result) = parse_text(&text);
    assert_eq!(codes(&result), ["E0204"], "{}", render_plain(&sources, &result.diagnostics));
    assert!(matches!(result.unit.items.last(), Some(Item::Declaration(_))));
}

#[test]
fn deepest_accepted_trees_drop_dump_and_clone_on_a_small_stack() {
    // Just under every limit at once: 250 brackets around 250 chained operators in 250
    // nested `if`s (the whole corpus never goes past depth 30). Runs on a thread with
    // the 2 MiB stack of a test thread, in debug builds too.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let chain = vec!["a"; 250].join(" + ");
            let expr = format!("{}{chain}{}", "(".repeat(250), ")".repeat(250));
            let text = format!("void f() {{ {} x = {expr}; }}\n", "if (a) ".repeat(250));
            let (sources, result) = parse_text(&text);
            assert!(result.diagnostics.is_empty(), "{}", render_plain(&sources, &result.diagnostics));
            let copy = result.unit.clone();
            assert_eq!(copy, result.unit);
            dump(&sources, &copy).len()
        })
        .expect("spawn");
    let len = handle.join().expect("no stack overflow");
    assert!(len > 0);
}

#[test]
fn too_deep_brackets_inside_a_function_skip_only_that_function() {
    let text = format!("void f() {{ x = {}1{}; y = 2; }}\nfloat after = 2;\n", "(".repeat(300), ")".repeat(300));
    let (sources, result) = parse_text(&text);
    assert_eq!(codes(&result), ["E0204"], "{}", render_plain(&sources, &result.diagnostics));
    assert_eq!(result.unit.items.len(), 2);
    assert!(matches!(result.unit.items[0], Item::Error(_)));
    assert!(matches!(result.unit.items[1], Item::Declaration(_)));
}
