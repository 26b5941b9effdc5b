//! Integration tests of `cg2slang migrate` and `cg2slang check` on a small library
//! copied from the corpus into a temporary directory: outputs, the JSON report, exit
//! codes, `--force`, atomic writes (a run that fails mid-way and a run that is killed),
//! determinism, and the diff `check` prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tempfile::TempDir;

mod support;

use support::{cg2slang, expect};

/// A library `lib/` (two presets with a LUT and an include, one lone shader) in a
/// fresh temporary directory.
fn library() -> TempDir {
    corpus_library(&[
        "lut-grade.cgp",
        "lut_grade.cg",
        "lut_ramp.cg",
        "luts/grade_256x16.png",
        "luts/ramp_64x1.png",
        "crt-curve.cgp",
        "crt_aperture.cg",
        "crt_curve.cg",
        "include/crt_mask.inc",
        "include/colorspace.inc",
        "include/constants.inc",
        "sharpen.cg",
    ])
}

/// The files `files` of `corpus/retroarch/` copied into `lib/` of a fresh temporary
/// directory.
fn corpus_library(files: &[&str]) -> TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/retroarch");
    let lib = dir.path().join("lib");
    for f in files {
        let to = lib.join(f);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(corpus.join(f), &to).unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
    dir
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn migrate_writes_the_tree_and_a_report() {
    let dir = library();
    let run = cg2slang(&["migrate", "lib", "--out", "out", "--report", "report.json"], dir.path());
    expect(&run, 0);
    for f in ["lut-grade.slangp", "lut_grade.slang", "lut_ramp.slang", "crt-curve.slangp", "sharpen.slang"] {
        assert!(dir.path().join("out").join(f).is_file(), "{f} missing; stdout:\n{}", run.stdout);
    }
    assert!(dir.path().join("out/luts/grade_256x16.png").is_file(), "LUT images are copied");
    let slangp = std::fs::read_to_string(dir.path().join("out/lut-grade.slangp")).expect("read");
    assert!(slangp.contains("shader0 = \"lut_grade.slang\"") && slangp.contains("luts/grade_256x16.png"), "{slangp}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).expect("read")).expect("json");
    let shaders = report["shaders"].as_array().expect("shaders[]");
    assert_eq!(shaders.len(), 5, "{report:#}");
    for s in shaders {
        assert_eq!(s["validation"]["naga"], "ok", "{s:#}");
        assert_eq!(s["validation"]["glslang"], "ok", "{s:#}");
        assert!(s["status"] == "ok" || s["status"] == "warning", "{s:#}");
        assert!(s["source"].as_str().is_some_and(|p| p.ends_with(".cg")));
    }
    assert_eq!(report["presets"].as_array().map(Vec::len), Some(2));
    assert_eq!(report["summary"]["validated"], 5);
    assert_eq!(report["summary"]["presets_translated"], 2);
    assert!(run.stdout.contains("validated"), "the summary table: {}", run.stdout);
}

#[test]
fn nothing_is_overwritten_without_force() {
    let dir = library();
    expect(&cg2slang(&["migrate", "lib", "--out", "out", "--no-validate"], dir.path()), 0);
    let target = dir.path().join("out/sharpen.slang");
    std::fs::write(&target, "// my own edits\n").expect("write");
    let run = cg2slang(&["migrate", "lib", "--out", "out", "--no-validate"], dir.path());
    expect(&run, 2);
    assert!(run.stderr.contains("already exist") && run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "// my own edits\n", "the user's file is kept");
    expect(&cg2slang(&["migrate", "lib", "--out", "out", "--no-validate", "--force"], dir.path()), 0);
    assert_ne!(std::fs::read_to_string(&target).expect("read"), "// my own edits\n", "--force overwrites");
}

#[test]
fn one_failing_file_does_not_stop_the_others() {
    let dir = library();
    std::fs::write(dir.path().join("lib/broken.cg"), "float4 main_fragment() : COLOR { return 1.0 +; }\n").expect("w");
    let run = cg2slang(&["migrate", "lib", "--out", "out", "--report", "r.json"], dir.path());
    expect(&run, 1);
    assert!(dir.path().join("out/sharpen.slang").is_file());
    assert!(!dir.path().join("out/broken.slang").exists(), "no output for a failed translation");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).expect("read")).expect("json");
    let broken = report["shaders"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["source"].as_str().is_some_and(|p| p.ends_with("broken.cg"))))
        .expect("the broken shader is reported");
    assert_eq!(broken["status"], "error");
    let d = &broken["diagnostics"][0];
    assert!(
        d["code"].as_str().is_some_and(|c| c.starts_with("E02")) && d["line"] == 1 && d["column"].as_u64() > Some(1)
    );
    assert_eq!(broken["validation"]["naga"], "skipped");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let dir = library();
    expect(&cg2slang(&["migrate", "lib", "--out", "lib/out"], dir.path()), 2);
    assert!(!dir.path().join("lib/out").exists(), "nothing written inside the sources");
    expect(&cg2slang(&["migrate", "no-such-dir", "--out", "out"], dir.path()), 2);
    expect(&cg2slang(&["migrate", "lib/luts/ramp_64x1.png", "--out", "out"], dir.path()), 2);
}

#[test]
fn a_write_that_fails_mid_run_leaves_no_partial_file() {
    let dir = library();
    // A directory where one output file must go: that write fails, the others succeed.
    std::fs::create_dir_all(dir.path().join("out/lut_ramp.slang/blocker")).expect("mkdir");
    let run = cg2slang(&["migrate", "lib", "--out", "out", "--no-validate", "--force"], dir.path());
    expect(&run, 2);
    assert!(run.stderr.contains("lut_ramp.slang"), "{}", run.stderr);
    assert!(dir.path().join("out/sharpen.slang").is_file(), "other outputs are written");
    let leftovers: Vec<PathBuf> = files_under(&dir.path().join("out"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("cg2slang-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn a_killed_run_leaves_only_complete_files() {
    let dir = library();
    // The reference: a complete run.
    expect(&cg2slang(&["migrate", "lib", "--out", "full", "--no-validate"], dir.path()), 0);
    // Many copies of the library so that the run is still writing when it is killed.
    for i in 0..40 {
        let copy = dir.path().join(format!("big/c{i}"));
        for f in files_under(&dir.path().join("lib")) {
            let to = copy.join(f.strip_prefix(dir.path().join("lib")).expect("inside lib"));
            std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
            std::fs::copy(&f, &to).expect("copy");
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_cg2slang"))
        .current_dir(dir.path())
        .args(["migrate", "big", "--out", "partial", "--no-validate", "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // Kill it as soon as the first output appears (or after it ends on its own).
    let start = std::time::Instant::now();
    while !dir.path().join("partial").exists() && start.elapsed() < std::time::Duration::from_secs(60) {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let _ = child.kill();
    let _ = child.wait();
    for f in files_under(&dir.path().join("partial")) {
        if f.to_string_lossy().ends_with(".cg2slang-tmp") {
            continue; // recognisable leftovers of the interrupted write
        }
        let rel = f.strip_prefix(dir.path().join("partial")).expect("inside");
        let mut parts = rel.components();
        parts.next(); // c{i}/
        let reference = dir.path().join("full").join(parts.as_path());
        assert_eq!(std::fs::read(&f).ok(), std::fs::read(&reference).ok(), "{} is incomplete", rel.display());
    }
}

#[test]
fn output_is_byte_identical_across_runs() {
    let dir = library();
    expect(&cg2slang(&["migrate", "lib", "--out", "a", "--report", "a.json", "--jobs", "1"], dir.path()), 0);
    expect(&cg2slang(&["migrate", "lib", "--out", "b", "--report", "b.json", "--jobs", "2"], dir.path()), 0);
    let a = files_under(&dir.path().join("a"));
    assert!(a.len() >= 7);
    for f in a {
        let rel = f.strip_prefix(dir.path().join("a")).expect("inside");
        assert_eq!(std::fs::read(&f).ok(), std::fs::read(dir.path().join("b").join(rel)).ok(), "{}", rel.display());
    }
    let strip = |p: &str| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(p)).expect("read")).expect("json");
        v["summary"]["seconds"] = serde_json::Value::Null;
        serde_json::to_string(&v).expect("json").replace("\"a/", "\"X/").replace("\"b/", "\"X/")
    };
    assert_eq!(strip("a.json"), strip("b.json"));
}

#[test]
fn check_reports_differences_as_unified_diffs() {
    let dir = library();
    expect(&cg2slang(&["migrate", "lib", "--out", "committed", "--no-validate"], dir.path()), 0);
    let same = cg2slang(&["check", "lib", "--against", "committed"], dir.path());
    expect(&same, 0);
    assert!(same.stdout.contains("0 changed, 0 missing"), "{}", same.stdout);

    // A changed porting result (simulated by editing the committed side) shows as a diff.
    let committed = dir.path().join("committed/sharpen.slang");
    let text = std::fs::read_to_string(&committed).expect("read");
    std::fs::write(&committed, text.replacen("FragColor", "FragColour", 1)).expect("write");
    std::fs::remove_file(dir.path().join("committed/lut_ramp.slang")).expect("rm");
    let diff = cg2slang(&["check", "lib", "--against", "committed"], dir.path());
    expect(&diff, 1);
    assert!(
        diff.stdout.contains("--- a/sharpen.slang") && diff.stdout.contains("+++ b/sharpen.slang"),
        "{}",
        diff.stdout
    );
    assert!(diff.stdout.contains("-layout(location = 0) out vec4 FragColour;"), "{}", diff.stdout);
    assert!(diff.stdout.contains("+layout(location = 0) out vec4 FragColor;"), "{}", diff.stdout);
    assert!(diff.stdout.contains("missing: ") && diff.stdout.contains("lut_ramp.slang"), "{}", diff.stdout);
    assert!(diff.stdout.contains("1 changed, 1 missing"), "{}", diff.stdout);
    expect(&cg2slang(&["check", "lib", "--against", "nowhere"], dir.path()), 2);
}

/// What the `.slangp` writer changes to keep the Cg runtime's meaning reaches the report
/// as notes at the pass's `shaderN` line, and leaves the preset's status `ok`.
#[test]
fn the_writers_changes_are_notes_in_the_report() {
    let dir = corpus_library(&[
        "linear-float-unscaled.cgp",
        "gamma_linearize.cg",
        "gamma_encode.cg",
        "include/colorspace.inc",
        "include/constants.inc",
    ]);
    let lib = dir.path().join("lib");
    // Both flags on an unscaled pass: float beats sRGB, and the pass gets a scale type.
    let both = "shaders = 2\nshader0 = gamma_linearize.cg\nsrgb_framebuffer0 = true\nfloat_framebuffer0 = true\n\
                shader1 = gamma_encode.cg\n";
    std::fs::write(lib.join("both.cgp"), both).expect("write");
    expect(&cg2slang(&["migrate", "lib", "--out", "out", "--report", "r.json"], dir.path()), 0);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).expect("read")).expect("json");
    let notes = |name: &str| -> Vec<(String, u64)> {
        let p = report["presets"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["source"].as_str().is_some_and(|s| s.ends_with(name))))
            .unwrap_or_else(|| panic!("{name} in {report:#}"));
        assert_eq!(p["status"], "ok", "{p:#}");
        let ds = p["diagnostics"].as_array().expect("diagnostics[]");
        ds.iter()
            .filter(|d| d["severity"] == "note")
            .map(|d| (d["code"].as_str().unwrap_or_default().to_owned(), d["line"].as_u64().unwrap_or(0)))
            .collect()
    };
    assert_eq!(notes("linear-float-unscaled.cgp"), [("N0501".to_owned(), 10)]);
    assert_eq!(notes("both.cgp"), [("N0502".to_owned(), 2), ("N0501".to_owned(), 2)]);
    let written = std::fs::read_to_string(dir.path().join("out/both.slangp")).expect("written");
    assert!(written.contains("float_framebuffer0 = true\nscale_type0 = \"source\"\n"), "{written}");
    assert!(!written.contains("srgb_framebuffer0"), "{written}");
}
