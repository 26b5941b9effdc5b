//! Sweeps a directory of `.cgp` presets through the preset loader and prints how many
//! load cleanly, load with warnings, or fail, with the reasons (diagnostic code and
//! message shape) counted. Also counts shader and LUT paths that do not exist on disk
//! (not a loader failure: RetroArch would fail later, when compiling or loading images),
//! and writes each loaded preset as `.slangp` and reads it back as a round-trip check.
//!
//! Usage: cargo run -p translator --example cgp_sweep -- DIR [--list] [--warnings] [--slangp]
//!
//! `--list` prints every failing preset with its errors; `--warnings` every warning;
//! `--slangp` sweeps `.slangp` files with the slang reader instead (no round trip).

#[path = "../../grammar/examples/support/sweep.rs"]
mod sweep;

use grammar::diagnostic::render_short;
use grammar::{RealFs, Severity, SourceMap};
use std::collections::BTreeMap;
use std::path::Path;
use translator::preset::{load_cgp, load_slangp, parse_slangp_str, write_slangp_with_notes, WriteNote};

/// Numbers blanked too (`#`), so that messages differing only in counts group.
fn blank_digits(message: &str) -> String {
    message.chars().map(|c| if c.is_ascii_digit() { '#' } else { c }).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: cgp_sweep DIR [--list] [--warnings]");
        std::process::exit(2);
    };
    let list = args.iter().any(|a| a == "--list");
    let show_warnings = args.iter().any(|a| a == "--warnings");
    let slangp = args.iter().any(|a| a == "--slangp");
    let files = sweep::files(Path::new(dir), &[if slangp { "slangp" } else { "cgp" }]);
    let mut notes: BTreeMap<&'static str, usize> = BTreeMap::new();
    let (mut clean, mut warned, mut failed) = (0usize, 0usize, 0usize);
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    let mut warned_files: BTreeMap<String, usize> = BTreeMap::new();
    let (mut missing_shaders, mut missing_luts, mut round_trip_bad) = (0usize, 0usize, 0usize);
    let mut missing_list = Vec::new();
    let mut failures = Vec::new();
    for f in &files {
        let mut sources = SourceMap::new();
        let (preset, diags) =
            if slangp { load_slangp(&mut sources, f, &RealFs) } else { load_cgp(&mut sources, f, &RealFs) };
        let mut codes_here = std::collections::BTreeSet::new();
        for d in &diags {
            let key = format!("{} {}", d.code, blank_digits(&sweep::shape(&d.message)));
            match d.severity {
                Severity::Error => *errors.entry(key).or_default() += 1,
                _ => {
                    *warnings.entry(key).or_default() += 1;
                    codes_here.insert(d.code);
                }
            }
        }
        for c in codes_here {
            *warned_files.entry(c.to_owned()).or_default() += 1;
        }
        let rel = f.strip_prefix(dir).unwrap_or(f).display().to_string();
        match preset {
            None => {
                failed += 1;
                failures.push((rel.clone(), render_short(&sources, &diags)));
            }
            Some(p) => {
                if diags.is_empty() {
                    clean += 1;
                } else {
                    warned += 1;
                    if show_warnings {
                        print!("{}", render_short(&sources, &diags));
                    }
                }
                for pass in &p.passes {
                    if !pass.shader_resolved.is_file() {
                        missing_shaders += 1;
                        missing_list.push(format!("{rel}: shader {}", pass.shader.display()));
                    }
                }
                for lut in &p.textures {
                    if !lut.resolved.is_file() {
                        missing_luts += 1;
                        missing_list.push(format!("{rel}: texture {} = {}", lut.name, lut.path.display()));
                    }
                }
                if slangp {
                    continue;
                }
                let shader_paths: Vec<String> =
                    p.passes.iter().map(|s| s.shader.with_extension("slang").to_string_lossy().into_owned()).collect();
                let lut_paths: Vec<String> = p.textures.iter().map(|l| l.path.to_string_lossy().into_owned()).collect();
                let written = write_slangp_with_notes(&p, &shader_paths, &lut_paths);
                for n in &written.notes {
                    *notes
                        .entry(match n {
                            WriteNote::FeedbackPassDropped(_) => "feedback_pass dropped",
                            WriteNote::ScaleKeysIgnored { .. } => "scale keys without a type not written",
                            WriteNote::ExplicitSourceScale { .. } => {
                                "explicit source x1 scale added (float/sRGB flag kept)"
                            }
                            WriteNote::SrgbBeatenByFloat { .. } => "sRGB flag beaten by the float flag not written",
                            WriteNote::UnlistedValuesDropped(_) => "unlisted parameter values dropped",
                            WriteNote::MissingShaderPath { .. } => "shader path derived",
                            WriteNote::MissingLutPath { .. } => "LUT path kept",
                            WriteNote::Unrepresentable { .. } => "unrepresentable value",
                        })
                        .or_default() += 1;
                }
                let mut s2 = SourceMap::new();
                let (back, d2) = parse_slangp_str(&mut s2, "out.slangp", &written.text);
                let same = back.as_ref().is_some_and(|b| {
                    b.passes.len() == p.passes.len()
                        && b.parameters == p.parameters
                        && b.passes.iter().zip(&p.passes).all(|(x, y)| {
                            (x.filter_linear, x.wrap_mode, x.mipmap_input, &x.alias, x.frame_count_mod)
                                == (y.filter_linear, y.wrap_mode, y.mipmap_input, &y.alias, y.frame_count_mod)
                                && (x.float_framebuffer, x.srgb_framebuffer)
                                    == (y.float_framebuffer, y.srgb_framebuffer && !y.float_framebuffer)
                                && (x.scale == y.scale || y.scale.is_none())
                        })
                        && b.textures.len() == p.textures.len()
                        && b.textures.iter().zip(&p.textures).all(|(x, y)| {
                            (&x.name, x.linear, x.wrap_mode, x.mipmap) == (&y.name, y.linear, y.wrap_mode, y.mipmap)
                        })
                });
                if !same || !d2.is_empty() {
                    round_trip_bad += 1;
                    eprintln!("round trip differs: {rel}\n{}", render_short(&s2, &d2));
                }
            }
        }
    }
    println!("presets: {}", files.len());
    println!("  loaded clean:         {clean}");
    println!("  loaded with warnings: {warned}");
    println!("  failed:               {failed}");
    println!("  shader paths missing on disk: {missing_shaders}; texture paths missing: {missing_luts}");
    println!("  .slangp round trip mismatches: {round_trip_bad}");
    for (n, count) in &notes {
        println!("  writer note: {n}: {count} time(s)");
    }
    if !errors.is_empty() {
        println!("errors (count, code, message shape):");
        for (k, n) in &errors {
            println!("  {n:5}  {k}");
        }
    }
    if !warnings.is_empty() {
        println!("warnings (count, code, message shape):");
        let mut w: Vec<_> = warnings.iter().collect();
        w.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (k, n) in w {
            println!("  {n:5}  {k}");
        }
        println!("presets with each warning code:");
        for (c, n) in &warned_files {
            println!("  {n:5}  {c}");
        }
    }
    if list {
        for (f, d) in &failures {
            println!("FAIL {f}\n{d}");
        }
        for m in &missing_list {
            println!("MISSING {m}");
        }
    }
}
