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
use grammar::{Diagnostic, FileSystem, Severity, SourceMap};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use translator::preset::{self, Preset, WriteNote};

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
    /// The preset files as read, where the writer's notes point.
    pub sources: SourceMap,
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
            LoadedPreset { base: root.base.clone(), path: p, preset, diagnostics, parameters, sources }
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
    let text = (passes_ok == p.passes.len()).then(|| {
        let written = preset::write_slangp_with_notes(&p, &shader_paths, &lut_paths);
        for mut d in report_diagnostics(&l.sources, &writer_notes(&p, &written.notes)) {
            if d.file.is_empty() {
                d.file = l.path.display().to_string();
            }
            diags.push(d);
        }
        written.text
    });
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

/// What the `.slangp` writer changed that a reviewer should see, at the pass it concerns
/// (its `shaderN` line). Notes already reported when the `.cgp` was loaded (ignored scale
/// keys W0507, unlisted parameter values W0508) and those about paths migrate always
/// gives are left out.
fn writer_notes(p: &Preset, notes: &[WriteNote]) -> Vec<Diagnostic> {
    use translator::codes;
    let at = |d: Diagnostic, pass: usize| match p.passes.get(pass) {
        Some(x) => d.with_primary(x.span, format!("pass {pass}")),
        None => d,
    };
    notes
        .iter()
        .filter_map(|n| match n {
            WriteNote::ExplicitSourceScale { pass } => Some(at(
                Diagnostic::note(
                    codes::N_PRESET_EXPLICIT_SCALE,
                    format!("`scale_type{pass} = \"source\"` written (the same size) so that the slang runtime honours the pass's framebuffer flag"),
                )
                .with_note("RetroArch's Cg runtime honoured `float_framebufferN`/`srgb_framebufferN` on every framebuffer pass; its slang runtime only on a pass with a scale type"),
                *pass,
            )),
            WriteNote::SrgbBeatenByFloat { pass } => Some(at(
                Diagnostic::note(
                    codes::N_PRESET_SRGB_BEATEN,
                    format!("`srgb_framebuffer{pass}` not written: the pass also sets `float_framebuffer{pass}`, which the Cg runtime gave it"),
                )
                .with_note("the slang runtime lets sRGB beat float; its float target holds 16 bits a channel where the Cg runtime's held 32"),
                *pass,
            )),
            WriteNote::FeedbackPassDropped(pass) => Some(Diagnostic::note(
                codes::N_PRESET_FEEDBACK_PASS,
                format!("`feedback_pass = {pass}` not written: slang names the texture `PassFeedback{pass}`, which the translation reads"),
            )),
            WriteNote::Unrepresentable { key } => Some(Diagnostic::warning(
                codes::W_PRESET_UNREPRESENTABLE,
                format!("`{key}` holds a quote or a line break, which a .slangp cannot quote: the written file reads it differently"),
            )),
            WriteNote::ScaleKeysIgnored { .. }
            | WriteNote::UnlistedValuesDropped(_)
            | WriteNote::MissingShaderPath { .. }
            | WriteNote::MissingLutPath { .. } => None,
        })
        .collect()
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
