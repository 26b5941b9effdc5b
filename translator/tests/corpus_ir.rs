//! IR snapshots of the corpus: every `corpus/**/*.cg` (outside `corpus/bad/`) is parsed
//! with `-DPARAMETER_UNIFORM`, each of its entry points (`main_vertex`,
//! `main_fragment`, else `main`) is analysed under its default profile, the IR is
//! validated, and its pretty-printed form is compared with `snapshots/ir/`. Adding a
//! corpus file adds its snapshot. Every failure is collected, then asserted once.
//! `SNAPSHOT=<substring>` limits the run to matching files.

use grammar::{ast, PpOptions, RealFs, SourceMap};
use std::path::{Path, PathBuf};
use translator::ir::{pretty, valid, Stage};
use translator::sema::{analyze, SemaOptions};

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "bad") {
                continue;
            }
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "cg") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_ir_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = root.join("corpus");
    let mut files = Vec::new();
    corpus_files(&corpus, &mut files);
    assert!(!files.is_empty(), "no corpus files under {}", corpus.display());
    let filter = std::env::var("SNAPSHOT").ok();
    let options = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let mut failures = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&corpus).unwrap_or(f).to_string_lossy().replace(['/', '\\'], "__");
        if filter.as_ref().is_some_and(|s| !rel.contains(s.as_str())) {
            continue;
        }
        let mut sources = SourceMap::new();
        let parsed = grammar::parse_file(&mut sources, f, &options, &RealFs);
        if parsed.has_errors() {
            failures.push(format!(
                "{rel}: parse errors\n{}",
                grammar::diagnostic::render_plain(&sources, &parsed.diagnostics)
            ));
            continue;
        }
        let has = |name: &str| {
            parsed
                .unit
                .items
                .iter()
                .any(|i| matches!(i, ast::Item::Function(x) if x.name.name == name && x.body.is_some()))
        };
        let mut entries = Vec::new();
        if has("main_vertex") {
            entries.push(("main_vertex", Stage::Vertex));
        }
        if has("main_fragment") {
            entries.push(("main_fragment", Stage::Fragment));
        }
        if entries.is_empty() && has("main") {
            entries.push(("main", Stage::Fragment));
        }
        let mut text = String::new();
        for (entry, stage) in entries {
            let (module, diags) = analyze(&parsed.unit, &parsed.preprocessed.pragmas, &SemaOptions::new(entry, stage));
            if grammar::has_errors(&diags) {
                failures.push(format!(
                    "{rel} {entry}: sema errors\n{}",
                    grammar::diagnostic::render_plain(&sources, &diags)
                ));
                continue;
            }
            let problems = valid::validate(&module);
            if !problems.is_empty() {
                failures.push(format!("{rel} {entry}: invalid IR: {problems:?}"));
                continue;
            }
            text.push_str(&format!("// ==== {entry} ====\n{}\n", pretty::module(&module)));
        }
        if text.is_empty() {
            continue;
        }
        let result = std::panic::catch_unwind(|| {
            insta::with_settings!({ snapshot_path => root.join("snapshots/ir"), prepend_module_to_snapshot => false, omit_expression => true }, {
                insta::assert_snapshot!(rel.clone(), text);
            });
        });
        if result.is_err() {
            failures.push(format!("{rel}: IR snapshot differs (cargo insta review)"));
        }
    }
    assert!(failures.is_empty(), "{} corpus files failed:\n{}", failures.len(), failures.join("\n"));
}
