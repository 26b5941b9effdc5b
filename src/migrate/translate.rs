//! The translation step: every distinct [`Job`] translated once, files in parallel
//! (rayon), each validated by [`super::validate`] in the same loop when validation is on.
//!
//! Each file is parsed and analysed once, and again per alias set only when its text
//! mentions `_ALIAS` (the defines cannot change the others); it is bound in every
//! context ([`translator::translate::bind`], cheap) and ported once per distinct
//! binding, in parallel: most contexts differ only in what the program never reads
//! (common-shaders: 1,591 jobs, 629 distinct texts). Contexts that translate alike are
//! validated once, distinct validations in parallel. Reads only through the [`grammar::FileSystem`] it is given, never
//! writes, never prints; the result does not depend on the thread schedule.

use super::jobs::Job;
use super::origins::{Origins, SharedTexts};
use super::report::{report_diagnostics, ReportDiagnostic};
use super::validate::{validate, Checks, Validation};
use grammar::{Diagnostic, FileSystem, PpOptions, SourceMap};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use translator::translate::{analyze_pass, bind, port_bound, Analysis, BoundPass, TranslateOptions, Translation};

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
    let texts = SharedTexts::default();
    by_cg
        .par_iter()
        .flat_map_iter(|(cg, jobs)| {
            let out = translate_file(cg, jobs, fs, validate, &texts);
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

/// One job ported, with the key its validation is shared under.
struct Ported {
    translation: Translation,
    options: TranslateOptions,
    own_analysis: bool,
    key: Option<ValidationKey>,
}

/// Every job of one file: the file analysed once per alias set, its jobs ported in
/// parallel, and each distinct validation run once, in parallel too (a pass shared by
/// many presets has many jobs, and this file must not be the one long task at the end).
fn translate_file(
    cg: &Path,
    jobs: &[Job],
    fs: &dyn FileSystem,
    validate_on: bool,
    texts: &SharedTexts,
) -> Vec<(Job, Outcome)> {
    let base = analyze_file(cg, &[], fs);
    let uses_aliases = base.sources.files().any(|(_, f)| f.text.contains("_ALIAS"));
    let mut per_aliases: BTreeMap<Vec<String>, Analysed> = BTreeMap::new();
    if uses_aliases {
        for job in jobs {
            let alias_set = job.context.alias_set();
            if !alias_set.is_empty() && !per_aliases.contains_key(&alias_set) {
                let analysed = analyze_file(cg, &alias_set, fs);
                per_aliases.insert(alias_set, analysed);
            }
        }
    }
    let analysed_for = |own: bool, job: &Job| -> &Analysed {
        if own {
            per_aliases.get(&job.context.alias_set()).unwrap_or(&base)
        } else {
            &base
        }
    };
    let options: Vec<TranslateOptions> = jobs
        .iter()
        .map(|job| TranslateOptions {
            context: job.context.context(),
            preset_parameters: job.parameters.clone(),
            ..TranslateOptions::default()
        })
        .collect();
    let own: Vec<bool> = jobs.iter().map(|job| uses_aliases && !job.context.alias_set().is_empty()).collect();
    let analysed: Vec<&Analysed> = jobs.iter().zip(&own).map(|(job, &own)| analysed_for(own, job)).collect();
    // Binding is cheap and is all a translation reads of its context: jobs that bind
    // alike from the same analysis are ported once.
    let bound: Vec<Result<BoundPass, Vec<Diagnostic>>> =
        analysed.par_iter().zip(&options).map(|(a, options)| bind(&a.analysis, options)).collect();
    // Each job's port: an index into `distinct` (one analysis and binding per group), or
    // the diagnostics of an analysis with errors.
    let mut distinct: Vec<(&Analysed, &BoundPass)> = Vec::new();
    let port_of: Vec<Result<usize, &Vec<Diagnostic>>> = bound
        .iter()
        .zip(&analysed)
        .map(|(b, &a)| {
            let b = b.as_ref()?;
            let same = |&(other_a, other_b): &(&Analysed, &BoundPass)| std::ptr::eq(other_a, a) && other_b == b;
            Ok(distinct.iter().position(same).unwrap_or_else(|| {
                distinct.push((a, b));
                distinct.len() - 1
            }))
        })
        .collect();
    let translations: Vec<Translation> = distinct.par_iter().map(|&(a, b)| port_bound(&a.analysis, b)).collect();
    let ported: Vec<Ported> = jobs
        .iter()
        .zip(options)
        .zip(port_of)
        .enumerate()
        .map(|(i, ((job, options), port_of))| {
            let translation = match port_of {
                Ok(k) => translations[k].clone(),
                Err(diagnostics) => Translation::failed(diagnostics.clone()),
            };
            let own_analysis = own[i];
            let alias_set = job.context.alias_set();
            let key = match (validate_on, &translation.text) {
                (true, Some(text)) => {
                    let c = &options.context;
                    Some(ValidationKey {
                        own_analysis,
                        alias_set,
                        text: text.clone(),
                        pass: c.pass,
                        aliases: c.aliases.clone(),
                        luts: c.luts.clone(),
                    })
                }
                _ => None,
            };
            Ported { translation, options, own_analysis, key }
        })
        .collect();
    // The first job of each distinct key stands for all of them.
    let mut first: HashMap<&ValidationKey, usize> = HashMap::new();
    for (i, p) in ported.iter().enumerate() {
        if let Some(k) = &p.key {
            first.entry(k).or_insert(i);
        }
    }
    let validated: HashMap<&ValidationKey, Validation> =
        first.into_par_iter().map(|(k, i)| (k, validate(&ported[i].translation, &ported[i].options.context))).collect();
    jobs.iter()
        .zip(&ported)
        .map(|(job, p)| {
            let v = p.key.as_ref().and_then(|k| validated.get(k)).cloned().unwrap_or(Validation::SKIPPED);
            let sources = &analysed_for(p.own_analysis, job).sources;
            let t = &p.translation;
            let mut diagnostics = report_diagnostics(sources, &t.diagnostics);
            diagnostics.extend(report_diagnostics(sources, &v.diagnostics));
            // Findings about the file as a whole (no span) name the file.
            for d in diagnostics.iter_mut().filter(|d| d.file.is_empty()) {
                d.file = cg.display().to_string();
            }
            let origins = Arc::new(Origins::of(sources, &t.line_map, texts));
            (job.clone(), Outcome { text: t.text.clone(), diagnostics, checks: v.checks, origins })
        })
        .collect()
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
