//! The migration report: diagnostics flattened to file:line:column
//! ([`ReportDiagnostic`]), the JSON report of `migrate --report` ([`Report`], format in
//! README.md) and the summary `migrate` prints ([`Report::summary_text`]).
//!
//! Every status in the report is an enum serialised by serde (`ok`, `warning`, `error`;
//! `ok`, `error`, `skipped` for validators; kebab-case comparison verdicts and causes),
//! never a string built by hand. Building the report never fails, never prints and never
//! writes: the caller encodes it and writes it atomically.

use super::compare::PresetComparison;
use super::discover::IGNORE_FILE;
use super::plan::{Plan, PresetOut, ShaderOut, Status};
use super::validate::Checks;
use grammar::{Diagnostic, Severity, SourceMap};
use runtime_check::compare::{Cause, Status as CompareStatus};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::path::Path;

/// A diagnostic flattened for reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportDiagnostic {
    pub code: String,
    #[serde(serialize_with = "severity_name")]
    pub severity: Severity,
    pub message: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
}

fn severity_name<S: Serializer>(severity: &Severity, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(severity.as_str())
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

/// One shader output in the report.
#[derive(Serialize)]
pub struct ShaderEntry<'a> {
    pub source: String,
    /// The written file (under the output directory); `null` when it did not translate.
    pub output: Option<String>,
    pub status: Status,
    pub used_by: &'a [String],
    pub variant: usize,
    pub diagnostics: &'a [ReportDiagnostic],
    pub validation: Checks,
}

/// One preset in the report.
#[derive(Serialize)]
pub struct PresetEntry<'a> {
    pub source: String,
    pub output: Option<String>,
    pub status: Status,
    pub passes: usize,
    pub passes_translated: usize,
    pub diagnostics: &'a [ReportDiagnostic],
    /// With `--compare`, for presets that translated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<PresetComparison>,
}

/// How far the adapter's 8-bit conversions lie from exact: the largest difference, over
/// the 256 byte values, between what it samples from a texel and the exact decode
/// (`k / 255`, the sRGB transfer function), and the largest distance of a byte boundary
/// of its encode from `k + 0.5`, in 8-bit steps (0 when not measured). Also in
/// `cg2slang compare`'s report.
#[derive(Clone, Debug, Serialize)]
pub struct DeviceDecode {
    pub unorm8_max_deviation: f32,
    pub srgb8_max_deviation: f32,
    pub unorm8_encode_max_offset: f32,
    pub srgb8_encode_max_offset: f32,
}

impl DeviceDecode {
    pub fn of(d: &runtime_check::reference::DeviceConversions) -> DeviceDecode {
        let (unorm8_max_deviation, srgb8_max_deviation) = d.max_deviation();
        let (unorm8_encode_max_offset, srgb8_encode_max_offset) = d.max_encode_offset();
        DeviceDecode { unorm8_max_deviation, srgb8_max_deviation, unorm8_encode_max_offset, srgb8_encode_max_offset }
    }
}

/// How many comparisons have each cause, serialised and listed by the cause's name.
#[derive(Clone, Debug, Default)]
pub struct CauseCounts(BTreeMap<Cause, usize>);

impl CauseCounts {
    pub fn add(&mut self, cause: Cause) {
        *self.0.entry(cause).or_insert(0) += 1;
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `(cause, count)` in the order of the causes' names.
    pub fn by_name(&self) -> Vec<(Cause, usize)> {
        let mut out: Vec<(Cause, usize)> = self.0.iter().map(|(c, n)| (*c, *n)).collect();
        out.sort_by_key(|(c, _)| c.as_str());
        out
    }
}

impl Serialize for CauseCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.by_name())
    }
}

/// The `--compare` part of the summary.
#[derive(Serialize)]
pub struct CompareSummary {
    pub compared: usize,
    pub passed: usize,
    /// Passed on well-defined pixels with more than 5 % of the image hazardous.
    pub passed_hazardous: usize,
    pub failed: usize,
    pub errors: usize,
    /// Non-pass (and hazard-only pass) entries by cause.
    pub causes: CauseCounts,
    pub frames: u64,
    pub viewport: [u32; 2],
    pub psnr_threshold: f64,
    pub within_2_255_threshold: f64,
    pub adapter: String,
    /// The adapter's 8-bit decodes against exact (`null` when they could not be probed).
    pub device_decode: Option<DeviceDecode>,
    pub seconds: f64,
    /// The comparisons' time by phase, summed over presets (thread-seconds: on several
    /// threads the sum exceeds `seconds`).
    pub phase_seconds: runtime_check::compare::PhaseSeconds,
    /// Reference pass renders taken from another preset of the run that rendered the
    /// same pass with the same inputs (`render_old` is the time of the rest).
    pub reused_passes: u64,
}

/// The totals of the report.
#[derive(Serialize)]
pub struct Summary {
    pub cg_files: usize,
    pub cgp_files: usize,
    pub shaders: usize,
    pub shaders_translated: usize,
    pub shaders_with_warnings: usize,
    pub shaders_failed: usize,
    pub shader_variants: usize,
    pub presets: usize,
    pub presets_translated: usize,
    pub presets_failed: usize,
    pub luts_copied: usize,
    /// Paths skipped because a `.cg2slangignore` lists them.
    pub ignored_paths: usize,
    pub validated: usize,
    /// With `--compare`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<CompareSummary>,
    pub seconds: f64,
}

/// The JSON report of one migration.
#[derive(Serialize)]
pub struct Report<'a> {
    pub tool: &'static str,
    pub version: &'static str,
    pub shaders: Vec<ShaderEntry<'a>>,
    pub presets: Vec<PresetEntry<'a>>,
    pub summary: Summary,
}

/// What the report says besides the plan.
pub struct RunFacts {
    /// The output directory (outputs are reported under it).
    pub out: std::path::PathBuf,
    pub cg_files: usize,
    pub cgp_files: usize,
    pub ignored_paths: usize,
    pub luts_copied: usize,
    /// One per preset (`None`: not compared).
    pub comparisons: Vec<Option<PresetComparison>>,
    pub comparison: Option<CompareSummary>,
}

impl<'a> Report<'a> {
    /// The report of `plan`; `seconds` is the run's time so far.
    pub fn build(plan: &'a Plan, facts: RunFacts, seconds: f64) -> Report<'a> {
        let out = &facts.out;
        let comparisons = facts.comparisons.into_iter().chain(std::iter::repeat(None));
        Report {
            tool: "cg2slang",
            version: env!("CARGO_PKG_VERSION"),
            shaders: plan.shaders.iter().map(|s| shader_entry(s, out)).collect(),
            presets: plan.presets.iter().zip(comparisons).map(|(p, c)| preset_entry(p, out, c)).collect(),
            summary: Summary {
                cg_files: facts.cg_files,
                cgp_files: facts.cgp_files,
                shaders: plan.shaders.len(),
                shaders_translated: plan.shaders.iter().filter(|s| s.text.is_some()).count(),
                shaders_with_warnings: plan.shaders.iter().filter(|s| s.status == Status::Warning).count(),
                shaders_failed: plan.shaders.iter().filter(|s| s.text.is_none()).count(),
                shader_variants: plan.shaders.iter().filter(|s| s.variant > 1).count(),
                presets: plan.presets.len(),
                presets_translated: plan.presets.iter().filter(|p| p.text.is_some()).count(),
                presets_failed: plan.presets.iter().filter(|p| p.text.is_none()).count(),
                luts_copied: facts.luts_copied,
                ignored_paths: facts.ignored_paths,
                validated: plan.shaders.iter().filter(|s| s.checks.passed()).count(),
                comparison: facts.comparison,
                seconds,
            },
        }
    }

    /// Whether anything failed: a shader or preset that did not translate, a validator
    /// error, a comparison below the thresholds or not made.
    pub fn has_failures(&self, plan: &Plan) -> bool {
        self.summary.shaders_failed > 0
            || self.summary.presets_failed > 0
            || plan.shaders.iter().any(|s| s.checks.failed())
            || self.summary.comparison.as_ref().is_some_and(|c| c.failed + c.errors > 0)
    }

    /// The summary `migrate` prints: totals, the first failures, the comparison.
    pub fn summary_text(&self, plan: &Plan) -> String {
        let mut out = self.totals_text(plan);
        out.push_str(&failures_text(plan));
        if let Some(c) = &self.summary.comparison {
            out.push_str(&self.comparison_text(c));
        }
        if self.summary.ignored_paths > 0 {
            out.push_str(&format!("{} paths skipped as listed in {IGNORE_FILE} files\n", self.summary.ignored_paths));
        }
        out.push_str(&format!("done in {:.2}s\n", self.summary.seconds));
        out
    }

    /// The table of shaders and presets.
    fn totals_text(&self, plan: &Plan) -> String {
        let s = &self.summary;
        let mut out = String::new();
        out.push_str(&format!(
            "{:<10} {:>6} {:>11} {:>9} {:>7} {:>10}\n",
            "", "total", "translated", "warnings", "errors", "validated"
        ));
        out.push_str(&format!(
            "{:<10} {:>6} {:>11} {:>9} {:>7} {:>10}\n",
            "shaders",
            s.shaders,
            s.shaders_translated,
            s.shaders_with_warnings,
            plan.shaders.iter().filter(|x| failed(x)).count(),
            s.validated
        ));
        out.push_str(&format!(
            "{:<10} {:>6} {:>11} {:>9} {:>7} {:>10}\n",
            "presets",
            s.presets,
            s.presets_translated,
            self.presets.iter().filter(|p| p.status == Status::Warning).count(),
            s.presets_failed,
            "-"
        ));
        if s.shader_variants > 0 {
            out.push_str(&format!(
                "{} shaders were emitted in more than one variant (different preset contexts)\n",
                s.shader_variants
            ));
        }
        out
    }

    /// The comparison's totals, causes and first non-passes.
    fn comparison_text(&self, c: &CompareSummary) -> String {
        let mut out = format!(
            "old/new comparison: {} presets, {} pass, {} pass with over 5% hazardous pixels, {} below the thresholds, {} could not be compared ({:.1}s)\n",
            c.compared, c.passed, c.passed_hazardous, c.failed, c.errors, c.seconds
        );
        let t = &c.phase_seconds;
        out.push_str(&format!(
            "  time by phase (thread-seconds): translate {:.1}, waiting for the GPU {:.1}, GPU chain {:.1}, CPU reference {:.1}, judging {:.1}\n",
            t.translate, t.gpu_wait, t.render_new, t.render_old, t.judge
        ));
        if !c.causes.is_empty() {
            let causes: Vec<String> = c.causes.by_name().iter().map(|(k, v)| format!("{} {v}", k.as_str())).collect();
            out.push_str(&format!("  causes: {}\n", causes.join(", ")));
        }
        let not_passed =
            self.presets.iter().filter(|p| p.comparison.as_ref().is_some_and(|c| c.status != CompareStatus::Pass));
        for p in not_passed.take(10) {
            if let Some(c) = &p.comparison {
                let why = match (&c.cause_detail, c.psnr, c.within_2_255) {
                    (Some(e), _, _) => e.clone(),
                    (None, psnr, within) => format!(
                        "PSNR {} dB, {:.3}% within 2/255",
                        psnr.map_or("inf".to_owned(), |p| format!("{p:.2}")),
                        within.unwrap_or(0.0)
                    ),
                };
                let cause = c.cause.map_or("", |c| c.as_str());
                out.push_str(&format!("  {}: {} {cause} ({why})\n", p.source, c.status.as_str()));
            }
        }
        out
    }
}

fn shader_entry<'a>(s: &'a ShaderOut, out: &Path) -> ShaderEntry<'a> {
    ShaderEntry {
        source: s.source.display().to_string(),
        output: s.text.as_ref().map(|_| out.join(&s.output).display().to_string()),
        status: s.status,
        used_by: &s.used_by,
        variant: s.variant,
        diagnostics: &s.diagnostics,
        validation: s.checks,
    }
}

fn preset_entry<'a>(p: &'a PresetOut, out: &Path, comparison: Option<PresetComparison>) -> PresetEntry<'a> {
    PresetEntry {
        source: p.source.display().to_string(),
        output: p.text.as_ref().map(|_| out.join(&p.output).display().to_string()),
        status: p.status,
        passes: p.passes,
        passes_translated: p.passes_ok,
        diagnostics: &p.diagnostics,
        comparison,
    }
}

/// A shader that did not translate, or whose translation failed validation.
fn failed(s: &ShaderOut) -> bool {
    s.text.is_none() || s.checks.failed()
}

/// The first error of the first failed shaders and presets.
fn failures_text(plan: &Plan) -> String {
    let mut out = String::new();
    let mut worst: Vec<&ShaderOut> = plan.shaders.iter().filter(|x| failed(x)).collect();
    worst.sort_by_key(|x| std::cmp::Reverse(x.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()));
    if !worst.is_empty() {
        out.push_str("failed shaders (first error):\n");
        for w in worst.iter().take(10) {
            if let Some(d) = w.diagnostics.iter().find(|d| d.severity == Severity::Error) {
                out.push_str(&format!("  {}:{}:{}: {} {}\n", d.file, d.line, d.column, d.code, d.message));
            }
        }
        if worst.len() > 10 {
            out.push_str(&format!("  ... and {} more (see the report)\n", worst.len() - 10));
        }
    }
    let failed_presets: Vec<&PresetOut> = plan.presets.iter().filter(|p| p.text.is_none()).collect();
    if !failed_presets.is_empty() {
        out.push_str("failed presets (first error):\n");
        for p in failed_presets.iter().take(10) {
            if let Some(d) = p.diagnostics.iter().find(|d| d.severity == Severity::Error) {
                out.push_str(&format!("  {}:{}:{}: {} {}\n", d.file, d.line, d.column, d.code, d.message));
            }
        }
        if failed_presets.len() > 10 {
            out.push_str(&format!("  ... and {} more (see the report)\n", failed_presets.len() - 10));
        }
    }
    out
}
