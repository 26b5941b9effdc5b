//! Translation requests: every pass of every loaded preset in its context, then every
//! `.cg` no preset uses as a one-pass shader, each with who asked for it.
//!
//! Pure bookkeeping over loaded presets and discovered roots: never reads a file, never
//! translates; the order is deterministic (presets and files sorted).

use super::discover::Root;
use super::presets::LoadedPreset;
use std::collections::HashSet;
use std::path::PathBuf;
use translator::retro::PassContext;

/// A translation request: a .cg in a context.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Job {
    pub cg: PathBuf,
    pub context: ContextKey,
    /// The preset's `#pragma parameter` lines (see
    /// [`translator::translate::TranslateOptions::preset_parameters`]).
    pub parameters: Vec<String>,
}

/// `PassContext` with an ordering, for deterministic grouping.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContextKey {
    pub pass: usize,
    pub passes: usize,
    pub aliases: Vec<String>,
    pub feedback_pass: Option<usize>,
    pub luts: Vec<String>,
}

impl From<&PassContext> for ContextKey {
    fn from(c: &PassContext) -> ContextKey {
        ContextKey {
            pass: c.pass,
            passes: c.passes,
            aliases: c.aliases.clone(),
            feedback_pass: c.feedback_pass,
            luts: c.luts.clone(),
        }
    }
}

impl ContextKey {
    pub fn context(&self) -> PassContext {
        PassContext {
            pass: self.pass,
            passes: self.passes,
            aliases: self.aliases.clone(),
            feedback_pass: self.feedback_pass,
            luts: self.luts.clone(),
        }
    }

    /// The non-empty aliases, sorted: the alias set the file is preprocessed with.
    pub fn alias_set(&self) -> Vec<String> {
        let mut aliases: Vec<String> = self.aliases.iter().filter(|a| !a.is_empty()).cloned().collect();
        aliases.sort();
        aliases
    }
}

/// A job and who asked for it.
#[derive(Clone, Debug)]
pub struct Request {
    pub job: Job,
    /// The root whose base output paths are relative to.
    pub base: PathBuf,
    /// `preset.cgp pass N` or `standalone`.
    pub used_by: String,
}

/// The job of pass `pass` of a loaded preset.
pub fn pass_job(preset: &translator::preset::Preset, pass: usize, parameters: &[String]) -> Option<Job> {
    let cg = grammar::source::normalize(&preset.passes.get(pass)?.shader_resolved);
    Some(Job { cg, context: ContextKey::from(&preset.pass_context(pass)), parameters: parameters.to_vec() })
}

/// Every preset pass (presets in order), then every .cg no preset uses.
pub fn requests(roots: &[Root], loaded: &[LoadedPreset]) -> Vec<Request> {
    let mut requests: Vec<Request> = Vec::new();
    for l in loaded {
        let Some(p) = &l.preset else { continue };
        for i in 0..p.passes.len() {
            if let Some(job) = pass_job(p, i, &l.parameters) {
                requests.push(Request { job, base: l.base.clone(), used_by: format!("{} pass {i}", l.path.display()) });
            }
        }
    }
    let used: HashSet<PathBuf> = requests.iter().map(|r| r.job.cg.clone()).collect();
    for root in roots {
        let mut cgs = root.cg.clone();
        cgs.sort();
        for cg in cgs {
            let cg = grammar::source::normalize(&cg);
            if !used.contains(&cg) {
                let job = Job { cg, context: ContextKey::from(&PassContext::single()), parameters: Vec::new() };
                requests.push(Request { job, base: root.base.clone(), used_by: "standalone".into() });
            }
        }
    }
    requests
}
