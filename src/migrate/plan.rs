//! The migration plan: a set of .cgp presets and .cg files to the complete slang tree,
//! in memory ([`plan`]), and the types of that tree ([`Plan`]).
//!
//! Every pass of every preset is translated with its context (pass index, aliases,
//! feedback_pass, LUT names); .cg files no preset uses are translated as one-pass
//! shaders. A .cg translated identically everywhere is emitted once; one that different
//! contexts translate differently gets one file per distinct text (`name.slang`,
//! `name.v2.slang`, ...) and each .slangp points at its own. Output paths mirror the
//! source tree; files outside it go under `_external/`. Validation (on request) runs on
//! every distinct translation in the same parallel loop.
//!
//! The planner reads through a [`FileSystem`] and never writes ([`super::write`] does);
//! it is deterministic: inputs are sorted and translation is pure.

use super::discover::Root;
use super::origins::Origins;
use super::report::ReportDiagnostic;
use super::validate::Checks;
use super::{jobs, presets, shaders, translate};
use grammar::{FileSystem, Severity};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

/// How one output (or preset) fared, as the report shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Ok,
    Warning,
    Error,
}

impl Status {
    /// The name pages show (the report serialises the same).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warning => "warning",
            Status::Error => "error",
        }
    }

    /// The status of an output with these findings.
    pub fn of(diags: &[ReportDiagnostic]) -> Status {
        if diags.iter().any(|d| d.severity == Severity::Error) {
            Status::Error
        } else if diags.iter().any(|d| d.severity == Severity::Warning) {
            Status::Warning
        } else {
            Status::Ok
        }
    }
}

/// One emitted (or failed) .slang file.
#[derive(Clone, Debug)]
pub struct ShaderOut {
    pub source: PathBuf,
    /// Relative to the output directory.
    pub output: PathBuf,
    pub text: Option<String>,
    pub status: Status,
    pub diagnostics: Vec<ReportDiagnostic>,
    /// Who uses this file: `preset.cgp pass N` or `standalone`.
    pub used_by: Vec<String>,
    /// 1 for the first distinct translation of its source, 2.. for further variants.
    pub variant: usize,
    /// naga and glslang outcomes (skipped without validation or without text).
    pub checks: Checks,
    /// Where each output line came from, and the Cg files it points into (for review).
    pub origins: Arc<Origins>,
}

/// One emitted (or failed) .slangp file.
#[derive(Clone, Debug)]
pub struct PresetOut {
    pub source: PathBuf,
    pub output: PathBuf,
    pub text: Option<String>,
    pub status: Status,
    pub diagnostics: Vec<ReportDiagnostic>,
    /// How many passes translated.
    pub passes_ok: usize,
    pub passes: usize,
    /// Per pass, the index of its shader in `Plan::shaders` (`None` if not planned).
    pub pass_shaders: Vec<Option<usize>>,
    /// The `#pragma parameter` lines its passes declare (see
    /// [`translator::preset::declared_parameters`]).
    pub parameters: Vec<String>,
}

/// A file to copy verbatim (LUT images).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    pub source: PathBuf,
    pub output: PathBuf,
}

/// The whole output tree, in memory.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub shaders: Vec<ShaderOut>,
    pub presets: Vec<PresetOut>,
    pub copies: Vec<Copy>,
}

/// Plans the migration of `roots`, validating every translation when `validate` is
/// set. `progress(done, total)` is called after each source file is translated.
pub fn plan(roots: &[Root], fs: &dyn FileSystem, validate: bool, progress: &(dyn Fn(usize, usize) + Sync)) -> Plan {
    std::thread::scope(|scope| {
        // glslang's first compile of a stage builds its built-in symbol tables under a
        // process-wide lock that stalls every other compile: built here, beside the
        // preset loading, which needs no glslang.
        if validate {
            scope.spawn(runtime_check::validate::glslang::warm_up);
        }
        let loaded = presets::load(roots, fs);
        let requests = jobs::requests(roots, &loaded);
        let all: Vec<jobs::Job> = requests.iter().map(|r| r.job.clone()).collect();
        let outcomes = translate::translate_all(&all, fs, validate, progress);
        let grouped = shaders::group(&requests, &outcomes);
        let mut plan = Plan { shaders: grouped.shaders, ..Plan::default() };
        presets::assemble(loaded, &grouped.output_of, &mut plan);
        plan
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grammar::MemoryFs;

    const PASS: &str = "void main_vertex(float4 p : POSITION, float2 t : TEXCOORD0, uniform float4x4 modelViewProj, out float4 op : POSITION, out float2 ot : TEXCOORD0) { op = mul(modelViewProj, p); ot = t; }\n";

    #[test]
    fn parameters_declared_in_one_pass_bind_in_every_pass() {
        // Pass 1 reads GAIN, declared only by pass 0, as RetroArch's Cg runtime allowed.
        let first = format!("#pragma parameter GAIN \"Gain\" 1.5 0.0 4.0 0.1\nuniform float GAIN;\n{PASS}float4 main_fragment(float2 t : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR {{ return tex2D(s, t) * GAIN; }}\n");
        let second = format!("uniform float GAIN;\n{PASS}float4 main_fragment(float2 t : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR {{ return tex2D(s, t) / GAIN; }}\n");
        let fs = MemoryFs::new()
            .with("/lib/a.cg", first)
            .with("/lib/b.cg", second)
            .with("/lib/p.cgp", "shaders = 2\nshader0 = a.cg\nshader1 = b.cg\n");
        let root = Root {
            base: "/lib".into(),
            cgp: vec!["/lib/p.cgp".into()],
            cg: vec!["/lib/a.cg".into(), "/lib/b.cg".into()],
        };
        let plan = plan(&[root], &fs, false, &|_, _| {});
        let b = plan.shaders.iter().find(|s| s.source.ends_with("b.cg")).expect("b.cg planned");
        let text = b.text.as_deref().unwrap_or_default();
        assert!(text.contains("#pragma parameter GAIN \"Gain\" 1.5 0.0 4.0 0.1"), "{text}");
        assert!(text.contains("/ params.GAIN"), "{text}");
        assert!(!b.diagnostics.iter().any(|d| d.code == translator::codes::W_UNBOUND_UNIFORM), "{:?}", b.diagnostics);
    }
}
