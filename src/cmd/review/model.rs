//! What the review site shows, as data: one [`Row`] per preset and per shader output,
//! where its page lives, and how each output compares with the baseline tree.
//!
//! Built from the migration plan, the optional comparisons and the baseline directory;
//! the page modules only lay this out. Reading the baseline is the one thing here that
//! touches the disk, and a missing or unreadable file is data ([`Baseline`]), never an
//! error that stops the review. Never writes.

use cg2slang::migrate::compare::PresetComparison;
use cg2slang::migrate::{Plan, PresetOut, ReportDiagnostic, ShaderOut, Status};
use runtime_check::compare::Status as CompareStatus;
use runtime_check::validate::Status as Check;
use similar::TextDiff;
use std::path::{Path, PathBuf};

/// Where the pages of the site live, relative to its root.
pub const INDEX: &str = "index.html";

/// The page of a shader output (`shaders/<output>.html`).
pub fn shader_page(s: &ShaderOut) -> PathBuf {
    page("shaders", &s.output)
}

/// The page of a preset (`presets/<output>.html`).
pub fn preset_page(p: &PresetOut) -> PathBuf {
    page("presets", &p.output)
}

fn page(dir: &str, output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".html");
    Path::new(dir).join(name)
}

/// An image beside a preset page: `<page stem>.<what>.png`.
pub fn preset_image(p: &PresetOut, what: &str) -> PathBuf {
    let mut name = Path::new("presets").join(&p.output).into_os_string();
    name.push(format!(".{what}.png"));
    PathBuf::from(name)
}

/// The `what` of pass `k`'s preview on one side (`old` or `new`), for [`preset_image`].
pub fn pass_preview(k: usize, side: &str) -> String {
    format!("pass{k}.{side}")
}

/// A link from the page at `from` to the file at `to` (both relative to the site root).
pub fn link(from: &Path, to: &Path) -> String {
    cg2slang::migrate::paths::relative(from, to)
}

/// How one output compares with the file of the same path in the baseline tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// No `--against` given, or the input did not translate.
    NotCompared,
    Same,
    /// The unified diff, baseline (`a/`) to new (`b/`).
    Changed(String),
    /// The baseline has no such file.
    New,
    /// The file exists but could not be read.
    Unreadable(String),
}

impl Baseline {
    /// Reads `dir/output` and compares it with `text`.
    pub fn of(dir: Option<&Path>, output: &Path, text: Option<&str>) -> Baseline {
        let (Some(dir), Some(text)) = (dir, text) else { return Baseline::NotCompared };
        let path = dir.join(output);
        match std::fs::read(&path) {
            Ok(bytes) => {
                let old = String::from_utf8_lossy(&bytes);
                if old == text {
                    return Baseline::Same;
                }
                let diff = TextDiff::from_lines(old.as_ref(), text);
                let (a, b) = (format!("a/{}", output.display()), format!("b/{}", output.display()));
                Baseline::Changed(diff.unified_diff().context_radius(3).header(&a, &b).to_string())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Baseline::New,
            Err(e) => Baseline::Unreadable(format!("cannot read {}: {e}", path.display())),
        }
    }

    /// The word the index shows and filters on.
    pub fn label(&self) -> &'static str {
        match self {
            Baseline::NotCompared => "-",
            Baseline::Same => "same",
            Baseline::Changed(_) => "changed",
            Baseline::New => "new",
            Baseline::Unreadable(_) => "unreadable",
        }
    }
}

/// What the comparison column shows: verdict and cause (why it is not a pass).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verdict {
    /// `None` when not compared.
    pub status: Option<CompareStatus>,
    /// Why not a pass: the comparison's cause or error, else empty.
    pub cause: String,
    pub psnr: Option<f64>,
    /// Whether it was compared at all (an identical image has no finite PSNR).
    pub compared: bool,
}

impl Verdict {
    pub fn of(c: Option<&PresetComparison>) -> Verdict {
        let Some(c) = c else { return Verdict::default() };
        // The computed cause and its one-line detail; the error when not compared.
        let cause = match (c.cause, &c.cause_detail, &c.error) {
            (Some(cause), Some(detail), _) => format!("{}: {detail}", cause.as_str()),
            (Some(cause), None, _) => cause.as_str().to_owned(),
            (None, _, Some(e)) => e.clone(),
            (None, _, None) => String::new(),
        };
        Verdict { status: Some(c.status), cause, psnr: c.psnr, compared: c.status != CompareStatus::Error }
    }

    /// The verdict as shown: `pass`, `pass-hazardous`, `fail`, `error`, or `-` when not
    /// compared.
    pub fn label(&self) -> &'static str {
        self.status.map_or("-", CompareStatus::as_str)
    }

    /// PSNR as shown: `inf` for identical images, `-` when not measured.
    pub fn psnr_text(&self) -> String {
        match (self.compared, self.psnr) {
            (false, _) => "-".into(),
            (true, None) => "inf".into(),
            (true, Some(p)) => format!("{p:.2}"),
        }
    }

    /// A sort key for PSNR: not measured lowest, identical highest.
    pub fn psnr_key(&self) -> String {
        match (self.compared, self.psnr) {
            (false, _) => "-1".into(),
            (true, None) => "1000000".into(),
            (true, Some(p)) => format!("{p:.4}"),
        }
    }
}

/// The kind of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Preset,
    Shader,
}

/// One line of the index.
#[derive(Clone, Debug)]
pub struct Row {
    pub kind: Kind,
    /// The source path as given.
    pub name: String,
    pub page: PathBuf,
    pub status: Status,
    /// `naga/glslang` outcomes for shaders, `-` for presets.
    pub validation: String,
    pub verdict: Verdict,
    pub warnings: usize,
    pub errors: usize,
    pub baseline: &'static str,
}

/// Everything the site needs besides the plan itself.
pub struct Review<'a> {
    pub plan: &'a Plan,
    /// One per preset (`None`: not compared).
    pub comparisons: Vec<Option<PresetComparison>>,
    /// Which presets have images written (input, old, new, diff).
    pub images: Vec<bool>,
    /// How many passes each preset has previews of (old and new, see [`pass_preview`]).
    pub pass_previews: Vec<usize>,
    pub shader_baselines: Vec<Baseline>,
    pub preset_baselines: Vec<Baseline>,
    pub against: Option<PathBuf>,
}

impl Review<'_> {
    /// The index rows: presets first, then shaders, each in plan order.
    pub fn rows(&self) -> Vec<Row> {
        let count = |d: &[ReportDiagnostic], s: grammar::Severity| d.iter().filter(|x| x.severity == s).count();
        let presets = self.plan.presets.iter().enumerate().map(|(i, p)| Row {
            kind: Kind::Preset,
            name: p.source.display().to_string(),
            page: preset_page(p),
            status: p.status,
            validation: "-".into(),
            verdict: Verdict::of(self.comparisons.get(i).and_then(Option::as_ref)),
            warnings: count(&p.diagnostics, grammar::Severity::Warning),
            errors: count(&p.diagnostics, grammar::Severity::Error),
            baseline: self.preset_baselines.get(i).map_or("-", Baseline::label),
        });
        let shaders = self.plan.shaders.iter().enumerate().map(|(i, s)| Row {
            kind: Kind::Shader,
            name: s.output.display().to_string(),
            page: shader_page(s),
            status: s.status,
            validation: validation(s),
            verdict: Verdict::of(None),
            warnings: count(&s.diagnostics, grammar::Severity::Warning),
            errors: count(&s.diagnostics, grammar::Severity::Error),
            baseline: self.shader_baselines.get(i).map_or("-", Baseline::label),
        });
        presets.chain(shaders).collect()
    }
}

/// `ok`, `error` or `skipped` for naga and glslang together.
pub fn validation(s: &ShaderOut) -> String {
    match (s.checks.naga, s.checks.glslang) {
        (Check::Ok, Check::Ok) => "ok".into(),
        (Check::Skipped, Check::Skipped) => "skipped".into(),
        (n, g) => format!("naga {}, glslang {}", n.as_str(), g.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_reports_same_changed_new_and_unreadable() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("a.slang"), "one\ntwo\n").expect("write");
        std::fs::create_dir(dir.path().join("d.slang")).expect("mkdir");
        let base = Some(dir.path());
        assert_eq!(Baseline::of(base, Path::new("a.slang"), Some("one\ntwo\n")), Baseline::Same);
        match Baseline::of(base, Path::new("a.slang"), Some("one\nthree\n")) {
            Baseline::Changed(diff) => {
                assert!(diff.contains("--- a/a.slang") && diff.contains("-two") && diff.contains("+three"), "{diff}")
            }
            other => panic!("expected a change, got {other:?}"),
        }
        assert_eq!(Baseline::of(base, Path::new("b.slang"), Some("x")), Baseline::New);
        assert!(matches!(Baseline::of(base, Path::new("d.slang"), Some("x")), Baseline::Unreadable(_)));
        assert_eq!(Baseline::of(None, Path::new("a.slang"), Some("x")), Baseline::NotCompared);
        assert_eq!(Baseline::of(base, Path::new("a.slang"), None), Baseline::NotCompared);
    }

    #[test]
    fn pages_mirror_outputs() {
        assert_eq!(page("shaders", Path::new("crt/a.slang")), PathBuf::from("shaders/crt/a.slang.html"));
        assert_eq!(link(Path::new("shaders/crt/a.slang.html"), Path::new(INDEX)), "../../index.html");
    }
}
