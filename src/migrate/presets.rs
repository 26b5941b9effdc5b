//! The presets of a migration: each `.cgp` loaded (in parallel) with its `#reference`
//! chain and the `#pragma parameter` lines its passes declare ([`load`]), and, once the shaders are
//! planned, each one's `.slangp` text and LUT copies ([`assemble`]).
//!
//! Reads only through the [`grammar::FileSystem`] it is given and never writes. A
//! preset that cannot be loaded, or a pass that did not translate, becomes an error
//! diagnostic on the preset, never a panic or an abort of the others.

use super::discover::Root;
use super::jobs::{pass_job, Job};
use super::paths::{mirror, relative};
use super::plan::{Copy, Plan, PresetOut, ShaderOut, Status};
use super::report::{report_diagnostics, ReportDiagnostic};
use grammar::{FileSystem, Severity, SourceMap};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use translator::preset::{self, Preset};

/// One `.cgp` as loaded.
pub struct LoadedPreset {
    /// The root it was found under: output paths are relative to it.
    pub base: PathBuf,
    pub path: PathBuf,
    /// `None` when it could not be loaded (`diagnostics` say why).
    pub preset: Option<Preset>,
    pub diagnostics: Vec<ReportDiagnostic>,
    /// The `#pragma parameter` lines its passes declare (empty when not loaded).
    pub parameters: Vec<String>,
}

/// Loads every `.cgp` of every root (each root's presets sorted), each with its own
/// source map.
pub fn load(roots: &[Root], fs: &dyn FileSystem) -> Vec<LoadedPreset> {
    let mut paths: Vec<(&Root, PathBuf)> = Vec::new();
    for root in roots {
        let mut cgps = root.cgp.clone();
        cgps.sort();
        paths.extend(cgps.into_iter().map(|p| (root, p)));
    }
    // Presets in parallel, in the same order; the cache is shared by all of them.
    let cache = preset::ParameterCache::default();
    paths
        .into_par_iter()
        .map(|(root, p)| {
            let mut sources = SourceMap::new();
            let (preset, diags) = preset::load_cgp(&mut sources, &p, fs);
            let diagnostics = report_diagnostics(&sources, &diags);
            let parameters = preset.as_ref().map(|pr| preset::declared_parameters(pr, fs, &cache)).unwrap_or_default();
            LoadedPreset { base: root.base.clone(), path: p, preset, diagnostics, parameters }
        })
        .collect()
}

/// Adds the `.slangp` of every preset and the LUT files to copy to `plan`, whose
/// shaders are planned; `output_of` gives each job's index in `plan.shaders`.
pub fn assemble(loaded: Vec<LoadedPreset>, output_of: &HashMap<Job, usize>, plan: &mut Plan) {
    for l in loaded {
        let preset = assemble_one(l, &plan.shaders, output_of, &mut plan.copies);
        plan.presets.push(preset);
    }
}

/// One preset's `.slangp` (when every pass translated); its LUTs are added to `copies`.
fn assemble_one(
    l: LoadedPreset,
    shaders: &[ShaderOut],
    output_of: &HashMap<Job, usize>,
    copies: &mut Vec<Copy>,
) -> PresetOut {
    let output = mirror(&l.base, &l.path, "slangp").output;
    let mut diags = l.diagnostics;
    let Some(p) = l.preset else {
        return PresetOut {
            source: l.path,
            output,
            text: None,
            status: Status::Error,
            diagnostics: diags,
            passes_ok: 0,
            passes: 0,
            pass_shaders: Vec::new(),
            parameters: l.parameters,
        };
    };
    let mut shader_paths = Vec::new();
    let mut pass_shaders = Vec::new();
    let mut passes_ok = 0;
    for i in 0..p.passes.len() {
        let index = pass_job(&p, i, &l.parameters).and_then(|job| output_of.get(&job).copied());
        pass_shaders.push(index);
        match index.and_then(|k| shaders.get(k)) {
            Some(s) if s.text.is_some() => {
                passes_ok += 1;
                shader_paths.push(relative(&output, &s.output));
            }
            Some(s) => {
                diags.push(pass_failed(&l.path, i, &s.source));
                shader_paths.push(relative(&output, &s.output));
            }
            None => shader_paths.push(String::new()),
        }
    }
    let mut lut_paths = Vec::new();
    for lut in &p.textures {
        let src = grammar::source::normalize(&lut.resolved);
        let ext = src.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        let out = mirror(&l.base, &src, &ext).output;
        lut_paths.push(relative(&output, &out));
        let copy = Copy { source: src, output: out };
        if !copies.contains(&copy) {
            copies.push(copy);
        }
    }
    let text = (passes_ok == p.passes.len()).then(|| preset::write_slangp(&p, &shader_paths, &lut_paths));
    let status = if text.is_some() { Status::of(&diags) } else { Status::Error };
    PresetOut {
        source: l.path,
        output,
        text,
        status,
        diagnostics: diags,
        passes_ok,
        passes: p.passes.len(),
        pass_shaders,
        parameters: l.parameters,
    }
}

/// E0510 on the preset: pass `pass` (of `cg`) did not translate.
fn pass_failed(cgp: &Path, pass: usize, cg: &Path) -> ReportDiagnostic {
    ReportDiagnostic {
        code: translator::codes::E_PRESET_PASS_FAILED.into(),
        severity: Severity::Error,
        message: format!("pass {pass} ({}) did not translate", cg.display()),
        file: cgp.display().to_string(),
        line: 0,
        column: 0,
    }
}
