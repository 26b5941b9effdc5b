//! The shader outputs of a migration: the requests of one source file grouped by the
//! text they translated to, one `.slang` per distinct text (`name.slang`,
//! `name.v2.slang`, ...), each listing who uses it.
//!
//! Pure bookkeeping over translated outcomes: never translates, reads or writes; the
//! order (and so each variant's number) follows the requests' order.

use super::jobs::{Job, Request};
use super::paths::mirror;
use super::plan::{ShaderOut, Status};
use super::report::ReportDiagnostic;
use super::translate::Outcome;
use grammar::Severity;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

/// The shader outputs and, per job, its index among them.
#[derive(Debug, Default)]
pub struct Grouped {
    pub shaders: Vec<ShaderOut>,
    pub output_of: HashMap<Job, usize>,
}

/// Groups `requests` by source file and translated text.
pub fn group(requests: &[Request], outcomes: &HashMap<Job, Outcome>) -> Grouped {
    let mut grouped = Grouped::default();
    let mut per_source: BTreeMap<&Path, Vec<usize>> = BTreeMap::new();
    let missing = Outcome::default();
    for request in requests {
        let job = &request.job;
        let outcome = outcomes.get(job).unwrap_or(&missing);
        let variants = per_source.entry(job.cg.as_path()).or_default();
        let existing = variants.iter().copied().find(|&i| {
            let s = &grouped.shaders[i];
            s.text == outcome.text && (outcome.text.is_some() || s.diagnostics == outcome.diagnostics)
        });
        let index = match existing {
            Some(i) => i,
            None => {
                grouped.shaders.push(new_output(request, outcome, variants.len() + 1));
                let i = grouped.shaders.len() - 1;
                variants.push(i);
                i
            }
        };
        grouped.shaders[index].used_by.push(request.used_by.clone());
        grouped.output_of.insert(job.clone(), index);
    }
    grouped
}

/// The output of the `variant`th distinct translation of a source file.
fn new_output(request: &Request, outcome: &Outcome, variant: usize) -> ShaderOut {
    let cg = &request.job.cg;
    let mirrored = mirror(&request.base, cg, "slang");
    let mut output = mirrored.output;
    if variant > 1 {
        let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        output.set_file_name(format!("{stem}.v{variant}.slang"));
    }
    let mut diagnostics = outcome.diagnostics.clone();
    if mirrored.external {
        diagnostics.push(ReportDiagnostic {
            code: translator::codes::W_OUTSIDE_TREE.into(),
            severity: Severity::Warning,
            message: format!("{} lies outside the source tree; its output goes under _external/", cg.display()),
            file: cg.display().to_string(),
            line: 0,
            column: 0,
        });
    }
    let status = if outcome.text.is_some() { Status::of(&diagnostics) } else { Status::Error };
    ShaderOut {
        source: cg.clone(),
        output,
        text: outcome.text.clone(),
        status,
        diagnostics,
        used_by: Vec::new(),
        variant,
        checks: outcome.checks,
        origins: Arc::clone(&outcome.origins),
    }
}
