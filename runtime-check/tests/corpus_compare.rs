//! Old versus new for the whole corpus: every `.cgp` under `corpus/retroarch/` is
//! rendered by the CPU reference (the Cg original) and by the GPU chain on the
//! software adapter (lavapipe, so the numbers do not depend on the machine's GPU), and
//! must pass the default thresholds on its well-defined pixels. The status, the cause
//! of any non-pass, the whole-image and well-defined metrics and the hazard share are
//! snapshotted (`snapshots/compare/`), so a change that moves any preset's numbers or
//! verdict shows in review. Adding a preset adds its line.
//!
//! Then the mutation tests: each breaks one porting rule in the translated text the
//! way a wrong port would (mul operand order, PASS# numbering, fmod as GLSL mod, a
//! dropped float-to-int conversion) and shows that the comparison of a corpus preset
//! exercising the rule fails.
//!
//! The inputs are the test card and the test card moved by (3, 2) pixels, alternating
//! over three frames (history and feedback see motion), at 128x96: twice the card's
//! size, so every 2x2 quad of the final pass covers a single source texel. At
//! non-integer or odd scales, nearest sampling at exact texel edges and the GPU's
//! choice between coarse and fine derivatives decide some pixels either way, which is
//! implementation latitude, not a translation fault.

mod support;

use grammar::{RealFs, SourceMap};
use runtime_check::chain::{image_io, AdapterChoice, Gpu, InputImage};
use runtime_check::compare::{self, Cause, Comparison, Metrics, Status, Thresholds};
use runtime_check::plan::Size;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

const VIEWPORT: Size = Size::new(128, 96);
const FRAMES: usize = 3;

fn gpu() -> Arc<Gpu> {
    static GPU: OnceLock<Arc<Gpu>> = OnceLock::new();
    GPU.get_or_init(|| support::gpu(AdapterChoice::Software)).clone()
}

fn inputs() -> Vec<InputImage> {
    ["testcard_64x48.png", "testcard_moved_64x48.png"]
        .iter()
        .map(|i| {
            image_io::load_image(&support::corpus().join("images").join(i)).unwrap_or_else(|d| panic!("{i}: {d:?}"))
        })
        .collect()
}

/// Old versus new for one preset, with `edit` applied to each pass's translation.
fn compare_edited(path: &Path, edit: &dyn Fn(&Path, String) -> String) -> Result<Comparison, String> {
    static LOCK: Mutex<()> = Mutex::new(());
    let mut sources = SourceMap::new();
    let t = Thresholds::default();
    compare::compare_cgp(
        &mut sources,
        path,
        &RealFs,
        (&gpu(), &LOCK),
        &inputs(),
        FRAMES,
        VIEWPORT,
        &t,
        edit,
        Default::default(),
        false,
    )
    .map_err(|e| format!("{} {:?}", e.cause.as_str(), e.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()))
}

/// A snapshot line: numbers rounded so that only a real change moves them.
fn line(name: &str, c: &Comparison) -> String {
    let m = &c.metrics;
    let psnr = |m: &Metrics| m.psnr_finite().map_or("identical".to_string(), |p| format!("{p:.0} dB"));
    let cause = c.verdict.cause.map_or(String::new(), |k| format!(" cause {}", k.as_str()));
    format!(
        "{name:<22} {} psnr {:<9} max {:>3.0}/255  within 2/255 {:.1}%  hazard {:.1}%  well-defined psnr {}{cause}",
        c.verdict.status.as_str(),
        psnr(m),
        m.max_abs_error_255(),
        m.within_2_255_pct,
        c.hazard_pct,
        psnr(&c.well_defined),
    )
}

/// The metrics snapshots, one per way the software adapter (lavapipe) rounds. It
/// compiles shaders with LLVM for the host processor, so its rounding follows the
/// instructions LLVM chooses there: on an Intel host with AVX-512 (measured 2026-11-26,
/// Mesa 22.3.6, LLVM 15.0.6, "256 bits") blur-srgb is 76 dB where a host without AVX-512
/// gave 78 dB (and wrap-modes was 1/255 off at 94 dB where it was identical, while its
/// pass 1 still had an sRGB target); an AMD EPYC host with AVX-512 (2026-12-01, the same
/// Mesa and LLVM) gives the 78 dB table. Which table a host gives is not told by its
/// processor's flags, so the table must equal one of them exactly; the verdicts and the
/// thresholds are the same in all.
const METRICS_SNAPSHOTS: [&str; 2] = ["corpus_metrics", "corpus_metrics_avx512"];

/// The snapshot a new or changed table is written to and diffed against when it equals
/// none of [`METRICS_SNAPSHOTS`]: the one hosts like this one gave first.
fn metrics_snapshot() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        return METRICS_SNAPSHOTS[1];
    }
    METRICS_SNAPSHOTS[0]
}

/// The table a committed snapshot holds (insta's file: a header between `---` lines,
/// then the contents), or `None` when the file is missing or malformed.
fn recorded_table(dir: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(format!("{name}.snap"))).ok()?;
    let body = text.strip_prefix("---\n")?;
    let (_, contents) = body.split_once("\n---\n")?;
    Some(contents.trim_end().to_owned())
}

#[test]
fn every_corpus_preset_matches_its_original() {
    let t = Thresholds::default();
    let mut table = String::new();
    let mut failures = Vec::new();
    for path in support::corpus_presets() {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match compare_edited(&path, &|_, text| text) {
            Ok(c) => {
                let _ = writeln!(table, "{}", line(&name, &c));
                if c.verdict.status == Status::Fail {
                    failures.push(format!("{name}: {} {:?}", c.well_defined.verdict(&t), c.verdict.detail));
                }
            }
            Err(e) => {
                let _ = writeln!(table, "{name:<22} ERROR {e}");
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(support::corpus_presets().len() >= 15, "the corpus has at least 15 presets");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots/compare");
    let recorded: Vec<String> = METRICS_SNAPSHOTS.iter().filter_map(|n| recorded_table(&dir, n)).collect();
    assert_eq!(recorded.len(), METRICS_SNAPSHOTS.len(), "every metrics snapshot is in {}", dir.display());
    if !recorded.iter().any(|r| *r == table.trim_end()) {
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(&dir);
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!(metrics_snapshot(), table));
    }
    assert!(failures.is_empty(), "presets below the thresholds:\n{}", failures.join("\n"));
}

/// Applies `from -> to` to the translation of `shader` only, asserting it changed
/// something (so a mutation cannot silently stop applying).
fn mutate(preset: &str, shader: &str, rewrite: &dyn Fn(&str) -> String) -> Comparison {
    let applied = std::sync::atomic::AtomicBool::new(false);
    let edit = |path: &Path, text: String| {
        if path.file_name().is_some_and(|n| n == shader) {
            let out = rewrite(&text);
            if out != text {
                applied.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            out
        } else {
            text
        }
    };
    let m = compare_edited(&support::corpus().join(preset), &edit).unwrap_or_else(|e| panic!("{preset}: {e}"));
    assert!(applied.into_inner(), "the mutation did not apply to {shader}");
    m
}

/// The broken rule fails the comparison on well-defined pixels, and the failure is
/// localised to the mutated shader's pass (an edited pass has no naga-dialect route, so
/// the cause stays `unexplained`).
fn assert_caught(preset: &str, shader: &str, c: &Comparison) {
    let t = Thresholds::default();
    eprintln!("{preset} with the rule broken: {} {:?}", c.well_defined.verdict(&t), c.verdict.detail);
    assert_eq!(c.verdict.status, Status::Fail, "{preset}: the broken rule went unnoticed: {}", c.metrics.verdict(&t));
    assert_eq!(c.verdict.cause, Some(Cause::Unexplained), "{preset}: {:?}", c.verdict.detail);
    let pass = c.divergence.as_ref().unwrap_or_else(|| panic!("{preset}: no divergent pass found"));
    assert!(pass.shader.ends_with(shader), "{preset}: the divergence is localised to {}", pass.shader.display());
}

#[test]
fn swapping_mul_operands_is_caught() {
    // mul(v, M) is v * M in GLSL; the porting guide's M * v transposes the matrix.
    let m = mutate("ntsc.cgp", "ntsc_decode.cg", &|t| t.replace("yiq2rgb * yiq", "yiq * yiq2rgb"));
    assert_caught("ntsc.cgp", "ntsc_decode.cg", &m);
}

#[test]
fn off_by_one_pass_numbering_is_caught() {
    // Cg's PASS1 is the output of pass 0 (PassOutput0); reading PASSk as PassOutputk
    // shows the wrong pass.
    let m = mutate("passprev.cgp", "pass_reader.cg", &|t| {
        t.replace("PassOutputSize1", "PassOutputSize2")
            .replace("PassOutput1", "PassOutput2")
            .replace("PassOutputSize0", "PassOutputSize1")
            .replace("PassOutput0", "PassOutput1")
    });
    assert_caught("passprev.cgp", "pass_reader.cg", &m);
}

#[test]
fn fmod_as_glsl_mod_is_caught() {
    // Cg's fmod keeps the sign of x; GLSL's mod floors (mod(-1, 8) = 7).
    let m = mutate("language-tour-b.cgp", "fmod_negative.cg", &|t| {
        t.replace("float r = cg_fmod(", "float r = mod(").replace("vec2 rv = cg_fmod(", "vec2 rv = mod(")
    });
    assert_caught("language-tour-b.cgp", "fmod_negative.cg", &m);
}

#[test]
fn a_dropped_float_to_int_conversion_is_caught() {
    // `int band = luma * 4.0` truncates in Cg; keeping the fraction loses the bands.
    let m = mutate("language-tour-b.cgp", "implicit_casts.cg", &|t| {
        t.replace(
            "int band = int(dot(res, vec3(0.299, 0.587, 0.114)) * 4.0);",
            "float band = dot(res, vec3(0.299, 0.587, 0.114)) * 4.0;",
        )
    });
    assert_caught("language-tour-b.cgp", "implicit_casts.cg", &m);
}

#[test]
fn a_gain_on_a_sub_tolerance_difference_upstream_is_amplification() {
    // One step more red in pass 5 is within the tolerance there; pass 6 posterises
    // (`c > POSTER_HI`), so the step decides a whole level where red sits on the
    // threshold. Every pass matches on the GPU's own inputs, so the cause is
    // amplification, and the pixels whose reference value changes with those inputs
    // are hazards: the rest must still match.
    let m = mutate("language-tour-a.cgp", "matrix_forms.cg", &|t| {
        t.replace(
            "FragColor = vec4(rgb * inside * shade, 1.0);",
            "FragColor = vec4(rgb * inside * shade + vec3(1.0 / 255.0, 0.0, 0.0), 1.0);",
        )
    });
    let t = Thresholds::default();
    eprintln!("language-tour-a with a step upstream: {} {:?}", m.verdict.status.as_str(), m.verdict.detail);
    assert_eq!(m.verdict.cause, Some(Cause::Amplification), "{:?}", m.verdict.detail);
    assert_ne!(m.verdict.status, Status::Fail, "{}", m.well_defined.verdict(&t));
    let pass = m.divergence.as_ref().unwrap_or_else(|| panic!("no divergent pass found"));
    assert!(pass.index > 5, "the divergence is downstream of the step: pass {}", pass.index);
    let plain = compare_edited(&support::corpus().join("language-tour-a.cgp"), &|_, text| text)
        .unwrap_or_else(|e| panic!("language-tour-a: {e}"));
    assert!(
        m.hazard_pct > plain.hazard_pct,
        "the amplified pixels are marked: {} <= {}",
        m.hazard_pct,
        plain.hazard_pct
    );
}
