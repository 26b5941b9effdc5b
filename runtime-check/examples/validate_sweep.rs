//! Validates every `.slang` under DIR as a standalone pass 0 (no aliases, no LUTs) and
//! prints how many pass glslang and the interface rules, failures by code and by
//! message, and the time per shader.
//!
//! With `--cgp`, DIR is walked for `.cgp` presets instead: every pass is translated in
//! its preset's context (pass index, aliases, LUTs, as the migration does) and
//! validated in that same context, with the parameters of all passes of the preset
//! known. This exercises the rules a lone pass never meets (`PassOutputN`, aliases).
//!
//! Usage: cargo run --release -p runtime-check --example validate_sweep -- DIR [--cgp] [--list] [--naga]
//!   --list  print every failing file with its diagnostics
//!   --naga  also run naga on the canonical stage texts (expected to fail on combined
//!           samplers; reported for information, not counted as failures)

#[path = "../../grammar/examples/support/sweep.rs"]
mod sweep;

use grammar::{PpOptions, RealFs, SourceMap};
use runtime_check::validate::{split_stages, validate, validate_naga, Stage, Status, ValidationContext};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use translator::retro::{semantics, PassContext};
use translator::translate::{translate, TranslateOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: validate_sweep DIR [--list] [--naga]");
        std::process::exit(2);
    };
    let list = args.iter().any(|a| a == "--list");
    let naga = args.iter().any(|a| a == "--naga");
    let cgp = args.iter().any(|a| a == "--cgp");
    let jobs = if cgp { preset_jobs(Path::new(dir)) } else { slang_jobs(Path::new(dir)) };
    let files: Vec<&Job> = jobs.iter().collect();

    let (mut glslang_ok, mut interface_ok, mut all_ok) = (0usize, 0usize, 0usize);
    let mut by_code: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut by_message: BTreeMap<String, usize> = BTreeMap::new();
    let mut naga_by_message: BTreeMap<String, usize> = BTreeMap::new();
    let mut naga_ok = [0usize; 2];
    let mut textures: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut total = Duration::ZERO;
    let mut slowest = (Duration::ZERO, PathBuf::new());
    for job in &files {
        let (f, text, ctx) = (&job.name, &job.text, &job.ctx);
        for line in text.lines().filter(|l| l.contains("uniform sampler2D ")) {
            let name = line.rsplit("sampler2D ").next().unwrap_or("").trim_end_matches(';').trim();
            *textures.entry(texture_class(name, ctx)).or_default() += 1;
        }
        let start = Instant::now();
        let r = validate(text, &[], ctx);
        let took = start.elapsed();
        total += took;
        if took > slowest.0 {
            slowest = (took, PathBuf::from(f));
        }
        glslang_ok += usize::from(r.glslang == Status::Ok);
        interface_ok += usize::from(r.interface == Status::Ok);
        all_ok += usize::from(r.is_ok());
        let mut codes_here: Vec<&'static str> = Vec::new();
        for d in r.diagnostics.iter().filter(|d| d.is_error()) {
            if !codes_here.contains(&d.code) {
                codes_here.push(d.code);
                *by_code.entry(d.code).or_default() += 1;
            }
            let key: String = format!("{} {}", d.code, d.message).chars().take(140).collect();
            *by_message.entry(key).or_default() += 1;
        }
        if list && !r.is_ok() {
            println!("{f}");
            for d in r.diagnostics.iter().filter(|d| d.is_error()) {
                println!("    {} {} {}", d.code, d.message, d.notes.join(" | "));
            }
        }
        if naga {
            let stages = split_stages(text);
            for (i, stage) in Stage::BOTH.into_iter().enumerate() {
                match validate_naga(&stages.stage(stage).text, stage) {
                    Ok(_) => naga_ok[i] += 1,
                    Err(ds) => {
                        if let Some(d) = ds.first() {
                            let key: String = format!("{stage}: {} {}", d.code, d.message).chars().take(140).collect();
                            *naga_by_message.entry(key).or_default() += 1;
                        }
                    }
                }
            }
        }
    }
    let n = files.len().max(1);
    if cgp {
        println!("(preset mode: passes that translated, validated in their preset's context)");
    }
    println!(
        "files {} | glslang ok {} | interface ok {} | all ok {} | failed {}",
        files.len(),
        glslang_ok,
        interface_ok,
        all_ok,
        files.len() - all_ok
    );
    println!(
        "time {:.2}s in all, {:.2} ms/shader on average, slowest {:.2} ms ({})",
        total.as_secs_f64(),
        total.as_secs_f64() * 1000.0 / n as f64,
        slowest.0.as_secs_f64() * 1000.0,
        slowest.1.display()
    );
    let seen: Vec<String> = textures.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("samplers declared: {}", seen.join(", "));
    if !by_code.is_empty() {
        println!("failing files by code:");
        for (code, count) in &by_code {
            println!("{count:5}  {code}");
        }
        println!("errors by message:");
        sweep::print_top(&by_message, 40);
    }
    if naga {
        println!("naga on the canonical stage texts: vertex ok {} | fragment ok {}", naga_ok[0], naga_ok[1]);
        sweep::print_top(&naga_by_message, 25);
    }
}

/// The kind of texture a sampler name stands for, for the coverage line.
fn texture_class(name: &str, ctx: &ValidationContext<'_>) -> &'static str {
    if ctx.aliases.iter().any(|a| !a.is_empty() && (name == a || semantics::is_alias_feedback(name, a))) {
        return "alias";
    }
    if ctx.luts.iter().any(|l| l == name) {
        return "LUT";
    }
    semantics::parse_texture(name).map_or("other", |(s, _)| s.name())
}

/// How long one translation may take before the sweep reports it as a hang.
const TRANSLATE_TIMEOUT: Duration = Duration::from_secs(30);

/// One text to validate, in its context.
struct Job {
    name: String,
    text: String,
    ctx: ValidationContext<'static>,
}

fn slang_jobs(dir: &Path) -> Vec<Job> {
    sweep::files(dir, &["slang"])
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            Some(Job { name: f.display().to_string(), text, ctx: ValidationContext::default() })
        })
        .collect()
}

/// Every pass of every preset under `dir`, translated in its context.
fn preset_jobs(dir: &Path) -> Vec<Job> {
    let presets = sweep::files(dir, &["cgp"]);
    let (mut passes, mut translated) = (0usize, 0usize);
    let mut jobs = Vec::new();
    let mut hangs = Vec::new();
    for p in &presets {
        let mut sources = SourceMap::new();
        let (Some(preset), _) = translator::preset::load_cgp(&mut sources, p, &RealFs) else {
            continue;
        };
        let aliases: Vec<String> = preset.passes.iter().map(|x| x.alias.clone().unwrap_or_default()).collect();
        let luts: Vec<String> = preset.textures.iter().map(|l| l.name.clone()).collect();
        let mut here = Vec::new();
        for (i, pass) in preset.passes.iter().enumerate() {
            passes += 1;
            let context = PassContext {
                pass: i,
                passes: preset.passes.len(),
                aliases: aliases.clone(),
                feedback_pass: preset.feedback_pass,
                luts: luts.clone(),
            };
            let mut defines: Vec<(String, Option<String>)> = vec![("PARAMETER_UNIFORM".into(), None)];
            defines.extend(aliases.iter().filter(|a| !a.is_empty()).map(|a| (format!("{a}_ALIAS"), None)));
            let options = PpOptions { defines, ..PpOptions::default() };
            let name = format!("{} pass {i} ({})", p.display(), pass.shader_resolved.display());
            // The translator runs on its own thread so that a hang is reported, not waited on.
            let (tx, rx) = std::sync::mpsc::channel();
            let (shader, ctx2) = (pass.shader_resolved.clone(), context.clone());
            std::thread::spawn(move || {
                let mut sources = SourceMap::new();
                let parsed = grammar::parse_file(&mut sources, &shader, &options, &RealFs);
                let options = TranslateOptions { context: ctx2, ..TranslateOptions::default() };
                let _ = tx.send(translate(&sources, &parsed, &options).text);
            });
            let Ok(text) = rx.recv_timeout(TRANSLATE_TIMEOUT) else {
                hangs.push(name);
                continue;
            };
            if let Some(text) = text {
                translated += 1;
                here.push(Job { name, text, ctx: ValidationContext::for_pass(&context) });
            }
        }
        // Every pass may read every parameter of its preset.
        let params: Vec<String> =
            here.iter().flat_map(|j| split_stages(&j.text).meta.parameters.into_iter().map(|p| p.id)).collect();
        for j in &mut here {
            j.ctx.extra_parameters.clone_from(&params);
        }
        jobs.extend(here);
    }
    println!(
        "presets {} | passes {passes} | translated {translated} | translator hung (> {}s) on {}",
        presets.len(),
        TRANSLATE_TIMEOUT.as_secs(),
        hangs.len()
    );
    for h in &hangs {
        println!("    translator hang: {h}");
    }
    jobs
}
