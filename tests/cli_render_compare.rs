//! Integration tests of `cg2slang render`, `cg2slang compare` and `migrate --compare`
//! on presets copied from the corpus into a temporary directory: the files each writes,
//! their sizes, exit codes, thresholds, `--force`, and the comparison in the report.
//! They render on whatever Vulkan adapter there is (CI installs lavapipe).

use std::path::Path;
use tempfile::TempDir;

mod support;

use support::{cg2slang, expect};

/// `lib/` with two Cg presets (gamma-sharpen: 3 passes; lut-grade: LUTs), the test
/// card images, and `slang/` holding gamma-sharpen migrated.
fn workspace() -> TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/retroarch");
    for f in [
        "gamma-sharpen.cgp",
        "gamma_linearize.cg",
        "sharpen.cg",
        "gamma_encode.cg",
        "include/colorspace.inc",
        "include/constants.inc",
        "lut-grade.cgp",
        "lut_grade.cg",
        "lut_ramp.cg",
        "luts/grade_256x16.png",
        "luts/ramp_64x1.png",
        "images/testcard_64x48.png",
        "images/testcard_moved_64x48.png",
    ] {
        let to = dir.path().join("lib").join(f);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(corpus.join(f), &to).unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
    dir
}

fn png_size(path: &Path) -> (u32, u32) {
    let img = image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (img.width(), img.height())
}

#[test]
fn render_writes_the_viewport_and_every_pass() {
    let dir = workspace();
    let d = dir.path();
    expect(&cg2slang(&["migrate", "lib", "--out", "slang", "--no-validate"], d), 0);
    let run = cg2slang(
        &[
            "render",
            "slang/gamma-sharpen.slangp",
            "--image",
            "lib/images/testcard_64x48.png",
            "--viewport",
            "100x70",
            "--frames",
            "2",
            "--param",
            "SHARPEN_AMOUNT=0.5",
            "--out",
            "out.png",
            "--dump-passes",
            "passes",
            "--timings",
        ],
        d,
    );
    expect(&run, 0);
    assert_eq!(png_size(&d.join("out.png")), (100, 70));
    // --timings: the GPU time of each pass (the second frame: the first is left out),
    // named by its shader, and of the whole frame.
    assert!(run.stdout.contains(": 1 of 2 frames timed (the first left out"), "{}", run.stdout);
    for (n, shader) in ["gamma_linearize.slang", "sharpen.slang", "gamma_encode.slang"].iter().enumerate() {
        let line = run.stdout.lines().find(|l| l.starts_with(&format!("pass {n} "))).unwrap_or_default();
        assert!(line.ends_with(shader), "pass {n}: {}", run.stdout);
    }
    assert!(run.stdout.lines().any(|l| l.starts_with("frame ")), "{}", run.stdout);
    // And where the run's wall time went, phase by phase.
    let phases = run.stdout.lines().find(|l| l.starts_with("wall ms: ")).unwrap_or_default();
    let names = [
        "the device ",
        "waiting for images and preset ",
        "chain ",
        "frames ",
        "read-back ",
        "closing the device ",
        "waiting for the PNG ",
        "; in all ",
    ];
    for phase in names.into_iter().chain(["images and preset read ", "PNG written "]) {
        assert!(phases.contains(phase), "{phase}: {}", run.stdout);
    }
    // Passes 0 and 1 run at source scale; the last renders to the viewport.
    assert_eq!(png_size(&d.join("passes/pass0.png")), (64, 48));
    assert_eq!(png_size(&d.join("passes/pass1.png")), (64, 48));
    assert_eq!(png_size(&d.join("passes/pass2.png")), (100, 70));

    // Nothing is overwritten without --force; with it, the file is replaced.
    let again =
        ["render", "slang/gamma-sharpen.slangp", "--image", "lib/images/testcard_64x48.png", "--out", "out.png"];
    let refused = cg2slang(&again, d);
    expect(&refused, 2);
    assert!(refused.stderr.contains("already exists"), "{}", refused.stderr);
    assert_eq!(png_size(&d.join("out.png")), (100, 70), "the refused run left the file alone");
    let mut forced = again.to_vec();
    forced.push("--force");
    expect(&cg2slang(&forced, d), 0);
    assert_eq!(png_size(&d.join("out.png")), (64, 48), "default viewport: the image size");
}

#[test]
fn render_refuses_bad_arguments_with_exit_2() {
    let dir = workspace();
    let d = dir.path();
    expect(&cg2slang(&["migrate", "lib", "--out", "slang", "--no-validate"], d), 0);
    let base = ["render", "slang/gamma-sharpen.slangp", "--out", "x.png"];
    let missing_image = cg2slang(&[&base[..], &["--image", "lib/images/none.png"]].concat(), d);
    expect(&missing_image, 2);
    let bad_param =
        cg2slang(&[&base[..], &["--image", "lib/images/testcard_64x48.png", "--param", "X=abc"]].concat(), d);
    expect(&bad_param, 2);
    let bad_viewport =
        cg2slang(&[&base[..], &["--image", "lib/images/testcard_64x48.png", "--viewport", "0x10"]].concat(), d);
    expect(&bad_viewport, 2);
    assert!(!d.join("x.png").exists(), "nothing written on a usage error");
}

#[test]
fn compare_writes_its_files_and_exits_by_the_thresholds() {
    let dir = workspace();
    let d = dir.path();
    let args = [
        "compare",
        "lib/lut-grade.cgp",
        "--image",
        "lib/images/testcard_64x48.png",
        "--image",
        "lib/images/testcard_moved_64x48.png",
        "--frames",
        "3",
        "--viewport",
        "128x96",
        "--out-dir",
        "cmp",
    ];
    let run = cg2slang(&args, d);
    expect(&run, 0);
    assert!(run.stdout.contains("PASS"), "{}", run.stdout);
    for f in ["old.png", "new.png", "diff.png", "hazard.png"] {
        assert_eq!(png_size(&d.join("cmp").join(f)), (128, 96), "{f}");
    }
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("cmp/metrics.json")).expect("read")).expect("json");
    assert_eq!(metrics["passed"], true);
    assert_eq!(metrics["viewport"], serde_json::json!([128, 96]));
    assert!(metrics["within_2_255"].as_f64().is_some_and(|w| w >= 99.5), "{metrics:#}");
    assert_eq!(metrics["status"], "pass", "{metrics:#}");
    assert!(metrics["hazard_pct"].as_f64().is_some_and(|h| (0.0..=5.0).contains(&h)), "{metrics:#}");
    assert!(metrics["well_defined"]["within_2_255"].as_f64().is_some_and(|w| w >= 99.5), "{metrics:#}");

    // Existing files are kept without --force.
    expect(&cg2slang(&args, d), 2);
    // A threshold no real render meets: the verdict fails, exit 1.
    let strict = cg2slang(&[&args[..], &["--psnr", "500", "--force"]].concat(), d);
    expect(&strict, 1);
    assert!(strict.stdout.contains("FAIL"), "{}", strict.stdout);
    let metrics: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("cmp/metrics.json")).expect("read")).expect("json");
    assert_eq!(metrics["status"], "fail", "{metrics:#}");
    let causes = ["hazard", "translation", "chain", "reference", "runtime-difference", "unexplained"];
    assert!(metrics["cause"].as_str().is_some_and(|c| causes.contains(&c)), "{metrics:#}");
    assert!(metrics["cause_detail"].as_str().is_some_and(|c| !c.is_empty()), "{metrics:#}");
    // A divergent pass, when one is found, has its images written.
    let localised = metrics["divergent_pass"]["index"].as_u64().is_some();
    assert_eq!(localised, d.join("cmp/pass-diff.png").exists(), "{metrics:#}");
}

#[test]
fn migrate_compare_puts_the_metrics_in_the_report() {
    let dir = workspace();
    let d = dir.path();
    let run = cg2slang(
        &[
            "migrate",
            "lib",
            "--out",
            "out",
            "--report",
            "report.json",
            "--compare",
            "--compare-image",
            "lib/images/testcard_64x48.png",
            "--compare-image",
            "lib/images/testcard_moved_64x48.png",
        ],
        d,
    );
    expect(&run, 0);
    assert!(run.stdout.contains("old/new comparison: 2 presets, 2 pass"), "{}", run.stdout);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).expect("read")).expect("json");
    let summary = &report["summary"]["comparison"];
    assert_eq!(summary["compared"], 2, "{summary:#}");
    assert_eq!(summary["passed"], 2);
    assert_eq!(summary["viewport"], serde_json::json!([128, 96]), "twice the first image by default");
    for p in report["presets"].as_array().expect("presets[]") {
        assert_eq!(p["comparison"]["status"], "pass", "{p:#}");
        assert!(p["comparison"]["max_abs_error_255"].as_f64().is_some(), "{p:#}");
        assert!(p["comparison"]["hazard_pct"].as_f64().is_some(), "{p:#}");
        assert!(p["comparison"]["well_defined"]["within_2_255"].as_f64().is_some(), "{p:#}");
    }

    // --compare needs an image: a usage error before anything is written.
    let usage = cg2slang(&["migrate", "lib", "--out", "out2", "--compare"], d);
    expect(&usage, 2);
    assert!(!d.join("out2").exists());
}

#[test]
fn a_reference_run_time_error_is_located_in_the_cg_file() {
    // The loop ends on the GPU (70,000 iterations) but passes the reference renderer's
    // cap: E0804 must point at the loop in loop.cg, line 5, not at the preset.
    let dir = workspace();
    let d = dir.path();
    std::fs::write(
        d.join("lib/loop.cg"),
        "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj,\n\
         out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0) { oPosition = mul(modelViewProj, position); oTex = tex; }\n\
         float4 main_fragment(float2 tex : TEXCOORD0) : COLOR {\n\
         float s = 0;\n\
         for (int i = 0; i < 70000; i++) s += 1e-6;\n\
         return float4(s, tex, 1);\n\
         }\n",
    )
    .expect("write");
    std::fs::write(d.join("lib/loop.cgp"), "shaders = 1\nshader0 = loop.cg\n").expect("write");
    let args = ["compare", "lib/loop.cgp", "--image", "lib/images/testcard_64x48.png", "--viewport", "4x4"];
    let run = cg2slang(&[&args[..], &["--out-dir", "cmp", "--color", "never"]].concat(), d);
    expect(&run, 1);
    assert!(run.stderr.contains("error[E0804]"), "{}", run.stderr);
    assert!(run.stderr.contains("loop.cg:5:1"), "{}", run.stderr);
}
