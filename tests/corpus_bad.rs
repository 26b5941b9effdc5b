//! Every bad input of the corpus, through the whole pipeline as a user meets it.
//!
//! `corpus/bad/*.cg` go through `cg2slang translate` (preprocessor, parser, semantics,
//! porting, validation); `corpus/bad/*.cgp` through `cg2slang migrate` with a JSON report.
//! Each file names the error codes it must produce on its first line (`// expect: E0104`
//! or `# expect: E0504`; a code listed twice must be reported at least twice), the run
//! must exit with 1 (errors in the input, never 2 and never a crash), and the diagnostics
//! exactly as the user sees them are snapshots under `snapshots/bad/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn bad_files(ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("corpus/bad"))
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == ext)).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The codes in an `expect:` first line (`//` or `#` comment).
fn expected_codes(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let first = text.lines().next().unwrap_or("").trim();
    let rest = first.strip_prefix("//").or_else(|| first.strip_prefix('#')).map(str::trim);
    let codes = rest
        .and_then(|r| r.strip_prefix("expect:"))
        .ok_or_else(|| format!("first line must be `// expect: CODE ...` or `# expect: CODE ...`, found {first:?}"))?;
    let codes: Vec<String> = codes.split_whitespace().map(str::to_owned).collect();
    let well_formed = |c: &String| c.len() == 5 && c.starts_with('E') && c[1..].bytes().all(|b| b.is_ascii_digit());
    if codes.is_empty() || !codes.iter().all(well_formed) {
        return Err(format!("`expect:` must list error codes like E0104, found {first:?}"));
    }
    Ok(codes)
}

/// Which of `expected` (a multiset) are missing from `actual`.
fn missing_codes(expected: &[String], actual: &[String]) -> Vec<String> {
    let mut left: Vec<&String> = actual.iter().collect();
    let mut missing = Vec::new();
    for code in expected {
        match left.iter().position(|c| *c == code) {
            Some(i) => {
                left.remove(i);
            }
            None => missing.push(code.clone()),
        }
    }
    missing
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

fn cg2slang(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cg2slang"))
        .current_dir(root())
        .args(["--color", "never"])
        .args(args)
        .output()
        .expect("the cg2slang binary runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root().join("snapshots/bad"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name.to_owned(), text));
}

#[test]
fn bad_shaders_report_their_codes_through_translate() {
    let files = bad_files("cg");
    assert!(files.len() >= 12, "expected at least 12 .cg files in corpus/bad, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let name = relative(path);
        let expected = match expected_codes(path) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let (code, stderr) = cg2slang(&["translate", &name]);
        let reported: Vec<String> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("error[").and_then(|r| r.split(']').next()).map(str::to_owned))
            .collect();
        let missing = missing_codes(&expected, &reported);
        if code != Some(1) || !missing.is_empty() {
            failures.push(format!("{name}: exit {code:?}, expected {expected:?}, missing {missing:?}\n{stderr}"));
            continue;
        }
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        snapshot(&file, &stderr);
    }
    assert!(failures.is_empty(), "{} bad shaders failed:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn bad_presets_report_their_codes_through_migrate() {
    let files = bad_files("cgp");
    assert!(files.len() >= 3, "expected at least 3 .cgp files in corpus/bad, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let name = relative(path);
        let expected = match expected_codes(path) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let out = tempfile::tempdir().expect("a temporary directory");
        let report = out.path().join("report.json");
        let out_dir = out.path().join("out");
        let (code, stderr) = cg2slang(&[
            "migrate",
            &name,
            "--out",
            &out_dir.display().to_string(),
            "--report",
            &report.display().to_string(),
        ]);
        let json: serde_json::Value = match std::fs::read_to_string(&report).map(|t| serde_json::from_str(&t)) {
            Ok(Ok(v)) => v,
            _ => {
                failures.push(format!("{name}: no readable report (exit {code:?})\n{stderr}"));
                continue;
            }
        };
        let mut lines = Vec::new();
        let mut reported = Vec::new();
        for section in ["presets", "shaders"] {
            for entry in json[section].as_array().into_iter().flatten() {
                lines.push(format!("{section}: {} -> {}", entry["source"].as_str().unwrap_or(""), entry["status"]));
                for d in entry["diagnostics"].as_array().into_iter().flatten() {
                    let code = d["code"].as_str().unwrap_or("").to_owned();
                    lines.push(format!(
                        "  {} {code} {}:{}:{}: {}",
                        d["severity"].as_str().unwrap_or(""),
                        d["file"].as_str().unwrap_or(""),
                        d["line"],
                        d["column"],
                        d["message"].as_str().unwrap_or("")
                    ));
                    if d["severity"] == "error" {
                        reported.push(code);
                    }
                }
            }
        }
        let missing = missing_codes(&expected, &reported);
        if code != Some(1) || !missing.is_empty() {
            failures.push(format!(
                "{name}: exit {code:?}, expected {expected:?}, missing {missing:?}\n{}\n{stderr}",
                lines.join("\n")
            ));
            continue;
        }
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        snapshot(&file, &lines.join("\n"));
    }
    assert!(failures.is_empty(), "{} bad presets failed:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn expected_codes_are_a_multiset() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(missing_codes(&e(&["E0201"]), &e(&["E0201", "E0202"])).is_empty());
    assert_eq!(missing_codes(&e(&["E0201", "E0201"]), &e(&["E0201"])), ["E0201"]);
    assert_eq!(missing_codes(&e(&["E0104"]), &e(&["E0105"])), ["E0104"]);
}
