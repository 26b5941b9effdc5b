//! Every shader of the project's corpus, translated in the context of every preset that
//! uses it (and alone when no preset does), must pass all three checks: RetroArch's
//! loader with glslang, the slang interface rules, and naga on the naga dialect.
//! The migration planner runs with the same validator `cg2slang migrate` uses.
//! Every emitted text is also an insta snapshot under `snapshots/slang/` (one per output
//! file, `.slang` and `.slangp`), so that any change in a translation is a reviewable diff.

mod support;

use std::path::Path;
use std::sync::OnceLock;
use translator::migrate::{plan, Check, Plan};

/// Shaders of corpus/retroarch that must NOT translate, each with the reason (none:
/// inputs that must fail live in corpus/bad and are tested by `tests/corpus_bad.rs`).
const EXPECTED_FAILURES: &[(&str, &str)] = &[];

/// The corpus migrated once, with validation, shared by the tests of this file.
fn corpus_plan() -> &'static Plan {
    static PLAN: OnceLock<Plan> = OnceLock::new();
    PLAN.get_or_init(|| {
        let root = support::corpus_root();
        assert!(root.cg.len() >= 40 && root.cgp.len() >= 15, "the corpus is missing");
        let validator: &translator::migrate::Validator = &runtime_check::validate::for_migration;
        plan(&[root], &grammar::RealFs, Some(validator), &|_, _| {})
    })
}

#[test]
fn every_corpus_output_is_a_snapshot() {
    let plan = corpus_plan();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots/slang"));
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
                if s.glslang != Check::Ok || s.naga != Check::Ok {
                    let errors: Vec<String> = s
                        .diagnostics
                        .iter()
                        .filter(|d| d.severity == grammar::Severity::Error)
                        .map(|d| format!("{}:{}: {} {}", d.file, d.line, d.code, d.message))
                        .collect();
                    failures.push(format!(
                        "{name} ({}): glslang {}, naga {}: {errors:#?}",
                        s.used_by.join(", "),
                        s.glslang.as_str(),
                        s.naga.as_str()
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
