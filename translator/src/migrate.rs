//! The migration planner: a set of .cgp presets and .cg files to the complete slang tree,
//! in memory.
//!
//! Every pass of every preset is translated with its context (pass index, aliases,
//! feedback_pass, LUT names); .cg files no preset uses are translated as one-pass
//! shaders. A .cg translated identically everywhere is emitted once; one that different
//! contexts translate differently gets one file per distinct text (`name.slang`,
//! `name.v2.slang`, ...) and each .slangp points at its own. Output paths mirror the
//! source tree; files outside it go under `_external/`. The planner reads through a
//! `FileSystem` and never writes: the CLI writes atomically. Validation is the caller's
//! [`Validator`] hook (the validators live in a crate above this one), run on every
//! distinct translation in the same parallel loop.
//! Deterministic: inputs are sorted and translation is pure.

use crate::preset::{self, Preset};
use crate::retro::PassContext;
use crate::translate::{analyze_pass, port, Analysis, TranslateOptions, Translation};
#[cfg(test)]
use grammar::MemoryFs;
use grammar::{Diagnostic, FileSystem, PpOptions, Severity, SourceMap};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// One input root: a directory walked for .cg/.cgp, or a single file.
#[derive(Clone, Debug)]
pub struct Root {
    /// Output paths are relative to this directory.
    pub base: PathBuf,
    pub cgp: Vec<PathBuf>,
    pub cg: Vec<PathBuf>,
}

/// A diagnostic flattened for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportDiagnostic {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// The outcome of one validator on one shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    Ok,
    Error,
    Skipped,
}

impl Check {
    pub fn as_str(self) -> &'static str {
        match self {
            Check::Ok => "ok",
            Check::Error => "error",
            Check::Skipped => "skipped",
        }
    }
}

/// What validation said of one translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    /// naga on the naga dialect.
    pub naga: Check,
    /// RetroArch's loader: file format, glslang, the slang interface rules.
    pub glslang: Check,
    /// Findings, located in the Cg sources of the translation.
    pub diagnostics: Vec<Diagnostic>,
}

impl Validation {
    pub const SKIPPED: Validation =
        Validation { naga: Check::Skipped, glslang: Check::Skipped, diagnostics: Vec::new() };
}

/// Validates one translated pass (called only for translations that produced text).
pub type Validator = dyn Fn(&Translation, &PassContext) -> Validation + Sync;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Ok,
    Warning,
    Error,
}

impl Status {
    pub fn as_str(&self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warning => "warning",
            Status::Error => "error",
        }
    }
    fn of(diags: &[ReportDiagnostic]) -> Status {
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
    /// naga and glslang outcomes (skipped without a validator or without text).
    pub naga: Check,
    pub glslang: Check,
    /// Where each output line came from, and the Cg files it points into (for review).
    pub origins: Arc<Origins>,
}

/// The Cg side of one translation, for reviewing it: every file the preprocessor read
/// (the .cg first, then its includes, as the user wrote them) and, per output line, the
/// lines of those files it came from (macro expansions mapped to their call site).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    pub files: Vec<CgFile>,
    /// One entry per line of `ShaderOut::text`; `None` for lines the writer made up.
    pub lines: Vec<Option<LineOrigin>>,
}

/// One Cg file as read: the name diagnostics use (`ReportDiagnostic::file`) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgFile {
    pub name: String,
    pub text: String,
}

/// The Cg lines (1-based, inclusive) one output line came from, in `Origins::files[file]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOrigin {
    pub file: usize,
    pub first: usize,
    pub last: usize,
}

impl Origins {
    /// The origins of a translation whose spans point into `sources`.
    pub fn of(sources: &SourceMap, line_map: &[Option<grammar::Span>]) -> Origins {
        let mut index: HashMap<grammar::FileId, usize> = HashMap::new();
        let mut files = Vec::new();
        for (id, f) in sources.files() {
            if f.kind == grammar::source::FileKind::Real {
                index.insert(id, files.len());
                files.push(CgFile { name: f.name.clone(), text: f.text.clone() });
            }
        }
        let lines = line_map
            .iter()
            .map(|span| {
                let span = sources.user_span((*span)?);
                let file = *index.get(&span.file)?;
                let f = sources.file(span.file);
                let first = f.line_index(span.start) + 1;
                let last = f.line_index(span.end.saturating_sub(1).max(span.start)) + 1;
                Some(LineOrigin { file, first, last })
            })
            .collect();
        Origins { files, lines }
    }
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
    /// The `#pragma parameter` lines its passes declare (see [`declared_parameters`]).
    pub parameters: Vec<String>,
}

/// A file to copy verbatim (LUT images).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    pub source: PathBuf,
    pub output: PathBuf,
}

#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub shaders: Vec<ShaderOut>,
    pub presets: Vec<PresetOut>,
    pub copies: Vec<Copy>,
}

/// A translation request: a .cg in a context.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Job {
    cg: PathBuf,
    context: ContextKey,
    /// The preset's `#pragma parameter` lines (see [`TranslateOptions::preset_parameters`]).
    parameters: Vec<String>,
}

/// `PassContext` with an ordering, for deterministic grouping.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct ContextKey {
    pass: usize,
    passes: usize,
    aliases: Vec<String>,
    feedback_pass: Option<usize>,
    luts: Vec<String>,
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
    fn context(&self) -> PassContext {
        PassContext {
            pass: self.pass,
            passes: self.passes,
            aliases: self.aliases.clone(),
            feedback_pass: self.feedback_pass,
            luts: self.luts.clone(),
        }
    }
}

/// Flattens diagnostics for a report, mapping spans to file:line:column.
pub fn report_diagnostics(sources: &SourceMap, diags: &[Diagnostic]) -> Vec<ReportDiagnostic> {
    diags
        .iter()
        .map(|d| {
            let loc = d.location(sources);
            ReportDiagnostic {
                code: d.code.to_owned(),
                severity: d.severity,
                message: d.message.clone(),
                file: loc.as_ref().map(|l| l.file.clone()).unwrap_or_default(),
                line: loc.as_ref().map_or(0, |l| l.line),
                column: loc.as_ref().map_or(0, |l| l.column),
            }
        })
        .collect()
}

/// The output path of `file` relative to `base`; files outside go under `_external/`.
fn mirror(base: &Path, file: &Path, ext: &str) -> (PathBuf, bool) {
    let file_n = grammar::source::normalize(file);
    let base_n = grammar::source::normalize(base);
    match file_n.strip_prefix(&base_n) {
        Ok(rel) if !rel.as_os_str().is_empty() => (rel.with_extension(ext), false),
        _ => {
            let clean: PathBuf = file_n
                .components()
                .filter_map(|c| match c {
                    Component::Normal(s) => Some(s.to_owned()),
                    _ => None,
                })
                .collect();
            (Path::new("_external").join(clean).with_extension(ext), true)
        }
    }
}

/// `to` relative to the directory of `from` (both relative to the output root).
pub fn relative(from_file: &Path, to: &Path) -> String {
    let from_dir: Vec<Component> = from_file.parent().map(|p| p.components().collect()).unwrap_or_default();
    let to_c: Vec<Component> = to.components().collect();
    let common = from_dir.iter().zip(&to_c).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = Vec::new();
    for _ in common..from_dir.len() {
        parts.push("..".into());
    }
    for c in &to_c[common..] {
        parts.push(c.as_os_str().to_string_lossy().into_owned());
    }
    parts.join("/")
}

/// Parses and analyses one .cg with the defines of an alias set (the context-free,
/// expensive part, shared by every context with the same aliases).
fn analyze_file(cg: &Path, aliases: &[String], fs: &dyn FileSystem) -> (Analysis, SourceMap) {
    let mut defines: Vec<(String, Option<String>)> = vec![("PARAMETER_UNIFORM".into(), None)];
    for a in aliases.iter().filter(|a| !a.is_empty()) {
        defines.push((format!("{a}_ALIAS"), None));
    }
    let options = PpOptions { defines, ..PpOptions::default() };
    let mut sources = SourceMap::new();
    let parsed = grammar::parse_file(&mut sources, cg, &options, fs);
    let analysis = analyze_pass(&sources, &parsed, &TranslateOptions::default());
    (analysis, sources)
}

/// The `#pragma parameter` lines of every pass of `preset` (first declaration of each
/// id wins), read by preprocessing each pass as RetroArch compiled it. `cache` holds the
/// lines per file and alias set.
pub fn declared_parameters(
    preset: &Preset,
    fs: &dyn FileSystem,
    cache: &mut HashMap<(PathBuf, Vec<String>), Vec<String>>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for (i, pass) in preset.passes.iter().enumerate() {
        let cg = grammar::source::normalize(&pass.shader_resolved);
        let mut aliases: Vec<String> = preset.pass_context(i).aliases.into_iter().filter(|a| !a.is_empty()).collect();
        aliases.sort();
        let lines = cache.entry((cg.clone(), aliases.clone())).or_insert_with(|| {
            let mut defines: Vec<(String, Option<String>)> = vec![("PARAMETER_UNIFORM".into(), None)];
            defines.extend(aliases.iter().map(|a| (format!("{a}_ALIAS"), None)));
            let options = PpOptions { defines, ..PpOptions::default() };
            let mut sources = SourceMap::new();
            let Ok(bytes) = fs.read(&cg) else { return Vec::new() };
            let (text, _) = grammar::source::decode(bytes);
            let root = sources.add_file(cg.display().to_string(), Some(cg.clone()), text);
            let (pp, _) = grammar::pp::preprocess(&mut sources, root, &options, fs);
            pp.pragmas
                .into_iter()
                .map(|p| p.text)
                .filter(|t| t.split_whitespace().nth(1) == Some("parameter"))
                .collect()
        });
        for line in lines.iter() {
            for id in crate::port::semantics::parameter_names(std::slice::from_ref(line)) {
                if !ids.contains(&id) {
                    ids.push(id);
                    out.push(line.clone());
                }
            }
        }
    }
    out
}

/// A preset as loaded, with its own source map's diagnostics flattened.
struct Loaded {
    base: PathBuf,
    path: PathBuf,
    preset: Option<Preset>,
    diags: Vec<ReportDiagnostic>,
}

/// What one job gave: the text, its diagnostics, naga's and glslang's outcomes, and the
/// origins of its lines.
type Outcome = (Option<String>, Vec<ReportDiagnostic>, Check, Check, Arc<Origins>);

/// Plans the migration of `roots`. `progress` is called after each translation.
pub fn plan(
    roots: &[Root],
    fs: &dyn FileSystem,
    validator: Option<&Validator>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Plan {
    // 1. Presets, each with its own source map.
    let loaded = load_presets(roots, fs);
    // 2. Jobs: every preset pass, then every .cg no preset uses.
    let mut pragma_cache: HashMap<(PathBuf, Vec<String>), Vec<String>> = HashMap::new();
    let preset_parameters: Vec<Vec<String>> = loaded
        .iter()
        .map(|l| l.preset.as_ref().map_or_else(Vec::new, |p| declared_parameters(p, fs, &mut pragma_cache)))
        .collect();
    let requests = requests(roots, &loaded, &preset_parameters);
    // 3. Translate each distinct job once, in parallel.
    let by_job = translate_jobs(&requests, fs, validator, progress);
    // 4. Group by source file: one output per distinct text.
    let mut plan = Plan::default();
    let output_of = plan_shaders(&mut plan, &requests, &by_job);
    // 5. Presets.
    for (l, parameters) in loaded.into_iter().zip(preset_parameters) {
        plan_preset(&mut plan, l, parameters, &output_of);
    }
    plan
}

/// Loads every .cgp of `roots`, sorted per root, each with its own source map.
fn load_presets(roots: &[Root], fs: &dyn FileSystem) -> Vec<Loaded> {
    let mut loaded: Vec<Loaded> = Vec::new();
    for root in roots {
        let mut cgps = root.cgp.clone();
        cgps.sort();
        for p in cgps {
            let mut sources = SourceMap::new();
            let (preset, diags) = preset::load_cgp(&mut sources, &p, fs);
            let diags = report_diagnostics(&sources, &diags);
            loaded.push(Loaded { base: root.base.clone(), path: p, preset, diags });
        }
    }
    loaded
}

/// The translation requests, each with its base and who uses it: every pass of every
/// loaded preset, then every .cg no preset uses (as a one-pass shader).
fn requests(roots: &[Root], loaded: &[Loaded], preset_parameters: &[Vec<String>]) -> Vec<(Job, PathBuf, String)> {
    let mut requests: Vec<(Job, PathBuf, String)> = Vec::new(); // job, base, used_by
    for (l, parameters) in loaded.iter().zip(preset_parameters) {
        let Some(p) = &l.preset else { continue };
        for i in 0..p.passes.len() {
            let cg = grammar::source::normalize(&p.passes[i].shader_resolved);
            let job = Job { cg, context: ContextKey::from(&p.pass_context(i)), parameters: parameters.clone() };
            requests.push((job, l.base.clone(), format!("{} pass {i}", l.path.display())));
        }
    }
    let used: std::collections::HashSet<PathBuf> = requests.iter().map(|(j, _, _)| j.cg.clone()).collect();
    for root in roots {
        let mut cgs = root.cg.clone();
        cgs.sort();
        for cg in cgs {
            let cg = grammar::source::normalize(&cg);
            if !used.contains(&cg) {
                let job = Job { cg, context: ContextKey::from(&PassContext::single()), parameters: Vec::new() };
                requests.push((job, root.base.clone(), "standalone".into()));
            }
        }
    }
    requests
}

/// Translates each distinct job of `requests` once, in parallel over the .cg files.
fn translate_jobs(
    requests: &[(Job, PathBuf, String)],
    fs: &dyn FileSystem,
    validator: Option<&Validator>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> HashMap<Job, Outcome> {
    let mut distinct: Vec<Job> = requests.iter().map(|(j, _, _)| j.clone()).collect();
    distinct.sort();
    distinct.dedup();
    // Parse and analyse once per file; again per alias set only for files whose text
    // mentions `_ALIAS` (the defines cannot change the others). Port once per context.
    let mut by_cg: BTreeMap<PathBuf, Vec<Job>> = BTreeMap::new();
    for job in distinct {
        by_cg.entry(job.cg.clone()).or_default().push(job);
    }
    let by_cg: Vec<(PathBuf, Vec<Job>)> = by_cg.into_iter().collect();
    let total = by_cg.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(Job, Outcome)> = by_cg
        .par_iter()
        .flat_map_iter(|(cg, jobs)| {
            let out = translate_file(cg, jobs, fs, validator);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(n, total);
            out
        })
        .collect();
    results.into_iter().collect()
}

/// Translates the jobs of one .cg: analysed once (again per alias set where the text
/// mentions `_ALIAS`), ported per context, validated once per distinct text and context.
fn translate_file(cg: &Path, jobs: &[Job], fs: &dyn FileSystem, validator: Option<&Validator>) -> Vec<(Job, Outcome)> {
    let base = analyze_file(cg, &[], fs);
    let uses_aliases = base.1.files().any(|(_, f)| f.text.contains("_ALIAS"));
    let mut per_aliases: BTreeMap<Vec<String>, (Analysis, SourceMap)> = BTreeMap::new();
    let mut out = Vec::with_capacity(jobs.len());
    // Validation depends on the text, the analysis its spans point into, and the
    // context fields the interface rules read: contexts that translate alike
    // (most presets reuse a pass unchanged) are validated once.
    type ValidationKey = (bool, Vec<String>, String, usize, Vec<String>, Vec<String>);
    let mut validated: HashMap<ValidationKey, Validation> = HashMap::new();
    for job in jobs {
        let options = TranslateOptions {
            context: job.context.context(),
            preset_parameters: job.parameters.clone(),
            ..TranslateOptions::default()
        };
        let mut aliases: Vec<String> = job.context.aliases.iter().filter(|a| !a.is_empty()).cloned().collect();
        aliases.sort();
        let own_analysis = uses_aliases && !aliases.is_empty();
        let (analysis, sources) = if own_analysis {
            let entry = per_aliases.entry(aliases.clone()).or_insert_with(|| analyze_file(cg, &aliases, fs));
            (&entry.0, &entry.1)
        } else {
            (&base.0, &base.1)
        };
        let t = port(analysis, &options);
        let v = match (validator, &t.text) {
            (Some(validate), Some(text)) => {
                let c = &options.context;
                let key = (own_analysis, aliases.clone(), text.clone(), c.pass, c.aliases.clone(), c.luts.clone());
                validated.entry(key).or_insert_with(|| validate(&t, c)).clone()
            }
            _ => Validation::SKIPPED,
        };
        let mut diags = report_diagnostics(sources, &t.diagnostics);
        diags.extend(report_diagnostics(sources, &v.diagnostics));
        // Findings about the file as a whole (no span) name the file.
        for d in diags.iter_mut().filter(|d| d.file.is_empty()) {
            d.file = cg.display().to_string();
        }
        let origins = Arc::new(Origins::of(sources, &t.line_map));
        out.push((job.clone(), (t.text, diags, v.naga, v.glslang, origins)));
    }
    out
}

/// Adds one shader output per distinct text of each source file to `plan`, in request
/// order; returns the output each job uses.
fn plan_shaders(
    plan: &mut Plan,
    requests: &[(Job, PathBuf, String)],
    by_job: &HashMap<Job, Outcome>,
) -> HashMap<Job, usize> {
    let mut output_of: HashMap<Job, usize> = HashMap::new();
    let mut per_source: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (job, base, used_by) in requests {
        let (text, diags, naga, glslang, origins) =
            by_job.get(job).cloned().unwrap_or((None, Vec::new(), Check::Skipped, Check::Skipped, Arc::default()));
        let variants = per_source.entry(job.cg.clone()).or_default();
        let existing = variants.iter().copied().find(|&i| {
            let s = &plan.shaders[i];
            s.text == text && (text.is_some() || s.diagnostics == diags)
        });
        let index = match existing {
            Some(i) => i,
            None => {
                let variant = variants.len() + 1;
                let (mut output, external) = mirror(base, &job.cg, "slang");
                if variant > 1 {
                    let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                    output.set_file_name(format!("{stem}.v{variant}.slang"));
                }
                let mut diags = diags.clone();
                if external {
                    diags.push(ReportDiagnostic {
                        code: crate::codes::W_OUTSIDE_TREE.into(),
                        severity: Severity::Warning,
                        message: format!(
                            "{} lies outside the source tree; its output goes under _external/",
                            job.cg.display()
                        ),
                        file: job.cg.display().to_string(),
                        line: 0,
                        column: 0,
                    });
                }
                let status = if text.is_some() { Status::of(&diags) } else { Status::Error };
                plan.shaders.push(ShaderOut {
                    source: job.cg.clone(),
                    output,
                    text: text.clone(),
                    status,
                    diagnostics: diags,
                    used_by: Vec::new(),
                    variant,
                    naga,
                    glslang,
                    origins,
                });
                let i = plan.shaders.len() - 1;
                variants.push(i);
                i
            }
        };
        plan.shaders[index].used_by.push(used_by.clone());
        output_of.insert(job.clone(), index);
    }
    output_of
}

/// Adds the .slangp output of one loaded preset to `plan` (text only when every pass
/// translated), with the LUT copies it needs.
fn plan_preset(plan: &mut Plan, l: Loaded, parameters: Vec<String>, output_of: &HashMap<Job, usize>) {
    let (output, _) = mirror(&l.base, &l.path, "slangp");
    let mut diags = l.diags;
    let Some(p) = l.preset else {
        plan.presets.push(PresetOut {
            source: l.path,
            output,
            text: None,
            status: Status::Error,
            diagnostics: diags,
            passes_ok: 0,
            passes: 0,
            pass_shaders: Vec::new(),
            parameters,
        });
        return;
    };
    let mut shader_paths = Vec::new();
    let mut pass_shaders = Vec::new();
    let mut passes_ok = 0;
    for i in 0..p.passes.len() {
        let cg = grammar::source::normalize(&p.passes[i].shader_resolved);
        let job = Job { cg, context: ContextKey::from(&p.pass_context(i)), parameters: parameters.clone() };
        pass_shaders.push(output_of.get(&job).copied());
        let s = output_of.get(&job).map(|&k| &plan.shaders[k]);
        match s {
            Some(s) if s.text.is_some() => {
                passes_ok += 1;
                shader_paths.push(relative(&output, &s.output));
            }
            Some(s) => {
                diags.push(ReportDiagnostic {
                    code: crate::codes::E_PRESET_PASS_FAILED.into(),
                    severity: Severity::Error,
                    message: format!("pass {i} ({}) did not translate", s.source.display()),
                    file: l.path.display().to_string(),
                    line: 0,
                    column: 0,
                });
                shader_paths.push(relative(&output, &s.output));
            }
            None => shader_paths.push(String::new()),
        }
    }
    let mut lut_paths = Vec::new();
    for lut in &p.textures {
        let src = grammar::source::normalize(&lut.resolved);
        let ext = src.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        let (out, _) = mirror(&l.base, &src, &ext);
        lut_paths.push(relative(&output, &out));
        let copy = Copy { source: src, output: out };
        if !plan.copies.contains(&copy) {
            plan.copies.push(copy);
        }
    }
    let text = (passes_ok == p.passes.len()).then(|| preset::write_slangp(&p, &shader_paths, &lut_paths));
    let status = if text.is_some() { Status::of(&diags) } else { Status::Error };
    plan.presets.push(PresetOut {
        source: l.path,
        output,
        text,
        status,
        diagnostics: diags,
        passes_ok,
        passes: p.passes.len(),
        pass_shaders,
        parameters,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let plan = plan(&[root], &fs, None, &|_, _| {});
        let b = plan.shaders.iter().find(|s| s.source.ends_with("b.cg")).expect("b.cg planned");
        let text = b.text.as_deref().unwrap_or_default();
        assert!(text.contains("#pragma parameter GAIN \"Gain\" 1.5 0.0 4.0 0.1"), "{text}");
        assert!(text.contains("/ params.GAIN"), "{text}");
        assert!(!b.diagnostics.iter().any(|d| d.code == crate::codes::W_UNBOUND_UNIFORM), "{:?}", b.diagnostics);
    }

    #[test]
    fn mirrored_and_relative_paths() {
        let (o, ext) = mirror(Path::new("lib"), Path::new("lib/crt/a.cg"), "slang");
        assert_eq!((o, ext), (PathBuf::from("crt/a.slang"), false));
        let (o, ext) = mirror(Path::new("lib/crt"), Path::new("lib/shaders/b.cg"), "slang");
        assert_eq!((o, ext), (PathBuf::from("_external/lib/shaders/b.slang"), true));
        assert_eq!(relative(Path::new("crt/x.slangp"), Path::new("crt/shaders/a.slang")), "shaders/a.slang");
        assert_eq!(relative(Path::new("crt/x.slangp"), Path::new("shaders/a.slang")), "../shaders/a.slang");
        assert_eq!(relative(Path::new("x.slangp"), Path::new("a.slang")), "a.slang");
    }
}
