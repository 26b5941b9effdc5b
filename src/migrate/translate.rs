//! The translation step: every distinct [`Job`] translated once, files in parallel
//! (rayon), each validated by [`super::validate`] in the same loop when validation is on.
//!
//! Each file is parsed and analysed once, and again per alias set only when its text
//! mentions `_ALIAS` (the defines cannot change the others); it is ported once per
//! context. Contexts that translate alike (most presets reuse a pass unchanged) are
//! validated once. Reads only through the [`grammar::FileSystem`] it is given, never
//! writes, never prints; the result does not depend on the thread schedule.

use super::jobs::Job;
use super::origins::Origins;
use super::report::{report_diagnostics, ReportDiagnostic};
use super::validate::{validate, Checks, Validation};
use grammar::{FileSystem, PpOptions, SourceMap};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use translator::translate::{analyze_pass, port, Analysis, TranslateOptions};

/// What one job produced.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The `.slang` text; `None` when errors prevented it.
    pub text: Option<String>,
    /// The translation's findings, then validation's.
    pub diagnostics: Vec<ReportDiagnostic>,
    pub checks: Checks,
    pub origins: Arc<Origins>,
}

/// Translates (and with `validate`, validates) every job; `progress(done, total)` is
/// called after each file.
pub fn translate_all(
    jobs: &[Job],
    fs: &dyn FileSystem,
    validate: bool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> HashMap<Job, Outcome> {
    let mut distinct: Vec<Job> = jobs.to_vec();
    distinct.sort();
    distinct.dedup();
    let mut by_cg: BTreeMap<PathBuf, Vec<Job>> = BTreeMap::new();
    for job in distinct {
        by_cg.entry(job.cg.clone()).or_default().push(job);
    }
    let by_cg: Vec<(PathBuf, Vec<Job>)> = by_cg.into_iter().collect();
    let total = by_cg.len();
    let done = AtomicUsize::new(0);
    by_cg
        .par_iter()
        .flat_map_iter(|(cg, jobs)| {
            let out = translate_file(cg, jobs, fs, validate);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(n, total);
            out
        })
        .collect()
}

/// One file parsed and analysed (the context-free, expensive part).
struct Analysed {
    analysis: Analysis,
    sources: SourceMap,
}

/// What validation depends on: the text, the analysis its spans point into, and the
/// context fields the interface rules read.
#[derive(PartialEq, Eq, Hash)]
struct ValidationKey {
    own_analysis: bool,
    alias_set: Vec<String>,
    text: String,
    pass: usize,
    aliases: Vec<String>,
    luts: Vec<String>,
}

/// Every job of one file.
fn translate_file(cg: &Path, jobs: &[Job], fs: &dyn FileSystem, validate_on: bool) -> Vec<(Job, Outcome)> {
    let base = analyze_file(cg, &[], fs);
    let uses_aliases = base.sources.files().any(|(_, f)| f.text.contains("_ALIAS"));
    let mut per_aliases: BTreeMap<Vec<String>, Analysed> = BTreeMap::new();
    let mut validated: HashMap<ValidationKey, Validation> = HashMap::new();
    let mut out = Vec::with_capacity(jobs.len());
    for job in jobs {
        let options = TranslateOptions {
            context: job.context.context(),
            preset_parameters: job.parameters.clone(),
            ..TranslateOptions::default()
        };
        let alias_set = job.context.alias_set();
        let own_analysis = uses_aliases && !alias_set.is_empty();
        let analysed = if own_analysis {
            &*per_aliases.entry(alias_set.clone()).or_insert_with(|| analyze_file(cg, &alias_set, fs))
        } else {
            &base
        };
        let t = port(&analysed.analysis, &options);
        let v = match (validate_on, &t.text) {
            (true, Some(text)) => {
                let c = &options.context;
                let key = ValidationKey {
                    own_analysis,
                    alias_set,
                    text: text.clone(),
                    pass: c.pass,
                    aliases: c.aliases.clone(),
                    luts: c.luts.clone(),
                };
                validated.entry(key).or_insert_with(|| validate(&t, c)).clone()
            }
            _ => Validation::SKIPPED,
        };
        let sources = &analysed.sources;
        let mut diagnostics = report_diagnostics(sources, &t.diagnostics);
        diagnostics.extend(report_diagnostics(sources, &v.diagnostics));
        // Findings about the file as a whole (no span) name the file.
        for d in diagnostics.iter_mut().filter(|d| d.file.is_empty()) {
            d.file = cg.display().to_string();
        }
        let origins = Arc::new(Origins::of(sources, &t.line_map));
        out.push((job.clone(), Outcome { text: t.text, diagnostics, checks: v.checks, origins }));
    }
    out
}

/// Parses and analyses one .cg with the defines of an alias set (the context-free,
/// expensive part, shared by every context with the same aliases).
fn analyze_file(cg: &Path, aliases: &[String], fs: &dyn FileSystem) -> Analysed {
    let mut defines: Vec<(String, Option<String>)> = vec![("PARAMETER_UNIFORM".into(), None)];
    for a in aliases.iter().filter(|a| !a.is_empty()) {
        defines.push((format!("{a}_ALIAS"), None));
    }
    let options = PpOptions { defines, ..PpOptions::default() };
    let mut sources = SourceMap::new();
    let parsed = grammar::parse_file(&mut sources, cg, &options, fs);
    let analysis = analyze_pass(&sources, &parsed, &TranslateOptions::default());
    Analysed { analysis, sources }
}
