//! Every shader of the project's corpus, translated in the context of every preset that
//! uses it (and alone when no preset does), must pass all three checks: RetroArch's
//! loader with glslang, the slang interface rules, and naga on the naga dialect.
//! The migration planner runs with validation, as `cg2slang migrate` does.
//! Every emitted text is also an insta snapshot under `snapshots/slang/` (one per output
//! file, `.slang` and `.slangp`), so that any change in a translation is a reviewable diff.

use cg2slang::migrate::{plan, Plan, Root};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Shaders of corpus/retroarch that must NOT translate, each with the reason (none:
/// inputs that must fail live in corpus/bad and are tested by `tests/corpus_bad.rs`).
const EXPECTED_FAILURES: &[(&str, &str)] = &[];

/// The corpus as one migration root: every `.cg` and `.cgp` below it, in sorted order.
fn corpus_root() -> Root {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/retroarch");
    let mut root = Root { base: base.clone(), cgp: Vec::new(), cg: Vec::new() };
    walk(&base, &mut root);
    root
}

fn walk(dir: &Path, root: &mut Root) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, root);
        } else if p.extension().is_some_and(|e| e == "cgp") {
            root.cgp.push(p);
        } else if p.extension().is_some_and(|e| e == "cg") {
            root.cg.push(p);
        }
    }
}

/// The corpus migrated once, with validation, shared by the tests of this file.
fn corpus_plan() -> &'static Plan {
    static PLAN: OnceLock<Plan> = OnceLock::new();
    PLAN.get_or_init(|| {
        let root = corpus_root();
        assert!(root.cg.len() >= 40 && root.cgp.len() >= 15, "the corpus is missing");
        plan(&[root], &grammar::RealFs, true, &|_, _| {})
    })
}

#[test]
fn every_corpus_output_is_a_snapshot() {
    let plan = corpus_plan();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots/slang"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let outputs = plan
        .shaders
        .iter()
        .filter_map(|s| Some((&s.output, s.text.as_ref()?)))
        .chain(plan.presets.iter().filter_map(|p| Some((&p.output, p.text.as_ref()?))));
    let mut n = 0;
    for (output, text) in outputs {
        let name = output.display().to_string().replace(['/', '\\'], "__");
        settings.bind(|| insta::assert_snapshot!(name, text));
        n += 1;
    }
    assert!(n >= 70, "only {n} outputs");
}

#[test]
fn every_corpus_translation_passes_glslang_the_interface_rules_and_naga() {
    let plan = corpus_plan();

    let mut failures = Vec::new();
    let mut validated = 0;
    for s in &plan.shaders {
        let name = s.source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let expected = EXPECTED_FAILURES.iter().any(|(n, _)| *n == name);
        match (&s.text, expected) {
            (Some(_), true) => failures.push(format!("{name}: translated, but is listed as an expected failure")),
            (None, true) => {}
            (None, false) => {
                failures.push(format!("{name} ({}): did not translate: {:?}", s.used_by.join(", "), s.diagnostics))
            }
            (Some(_), false) => {
                if !s.checks.passed() {
                    let errors: Vec<String> = s
                        .diagnostics
                        .iter()
                        .filter(|d| d.severity == grammar::Severity::Error)
                        .map(|d| format!("{}:{}: {} {}", d.file, d.line, d.code, d.message))
                        .collect();
                    failures.push(format!(
                        "{name} ({}): glslang {}, naga {}: {errors:#?}",
                        s.used_by.join(", "),
                        s.checks.glslang.as_str(),
                        s.checks.naga.as_str()
                    ));
                } else {
                    validated += 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} corpus shaders failed:\n{}", failures.len(), failures.join("\n"));
    assert!(validated >= 50, "only {validated} shader outputs validated");
}
