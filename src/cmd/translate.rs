//! `cg2slang translate`: one Cg file to one slang file.
//!
//! Translates FILE.cg as pass 0 of a one-pass chain (or, with `--preset P.cgp --pass N`,
//! in that preset's context: pass index, aliases, feedback pass, LUT names) and prints
//! the slang text to stdout, or writes it atomically to `-o OUT.slang` (an existing file
//! only with `--force`). The output is validated (glslang, the slang interface rules,
//! naga on the naga dialect) unless `--no-validate`. `--dialect naga` emits the naga
//! dialect instead: one text per stage, to stdout or to `OUT.vert` and `OUT.frag`.
//! Exit 0 clean, 1 on errors (translation or validation), 2 on usage/I/O errors.

use super::{write_stdout, Exit, FrontendArgs, Reporter};
use cg2slang::output::{first_existing, write_atomic, WriteError};
use clap::{Args, ValueEnum};
use grammar::{RealFs, SourceMap};
use runtime_check::validate::{validate_translation, ValidationContext};
use std::path::{Path, PathBuf};
use translator::translate::{translate, TranslateOptions};

/// Which text `translate` emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Dialect {
    /// RetroArch slang: one file, combined `sampler2D`, `#pragma stage`.
    Canonical,
    /// What naga's GLSL front end reads: one text per stage, `texture2D` + `sampler`.
    Naga,
}

#[derive(Debug, Args)]
pub struct TranslateArgs {
    /// The Cg file to translate.
    #[arg(value_name = "FILE.cg")]
    pub file: PathBuf,

    #[command(flatten)]
    pub frontend: FrontendArgs,

    /// Write the slang text here instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT.slang")]
    pub output: Option<PathBuf>,

    /// Overwrite OUT.slang if it exists.
    #[arg(long)]
    pub force: bool,

    /// Translate in the context of this preset (needs --pass).
    #[arg(long, value_name = "P.cgp", requires = "pass")]
    pub preset: Option<PathBuf>,

    /// The 0-based pass of the preset this file is.
    #[arg(long, value_name = "N", requires = "preset")]
    pub pass: Option<usize>,

    /// The output dialect.
    #[arg(long, value_enum, default_value_t = Dialect::Canonical)]
    pub dialect: Dialect,

    /// Skip validation of the output (glslang, interface rules, naga).
    #[arg(long)]
    pub no_validate: bool,
}

pub fn run(args: &TranslateArgs, reporter: &Reporter) -> Exit {
    let mut options = TranslateOptions::default();
    if let (Some(preset_path), Some(pass)) = (&args.preset, args.pass) {
        let mut psources = SourceMap::new();
        let (preset, diags) = translator::preset::load_cgp(&mut psources, preset_path, &RealFs);
        reporter.diagnostics(&psources, &diags);
        let Some(preset) = preset else { return Exit::Errors };
        if pass >= preset.passes.len() {
            reporter.error(&format!("--pass {pass}: the preset has {} passes", preset.passes.len()));
            return Exit::Failure;
        }
        options.context = preset.pass_context(pass);
        options.preset_parameters =
            translator::preset::declared_parameters(&preset, &RealFs, &translator::preset::ParameterCache::default());
    }
    let mut pp = args.frontend.pp_options();
    pp.defines.push(("PARAMETER_UNIFORM".into(), None));
    for a in options.context.aliases.iter().filter(|a| !a.is_empty()) {
        pp.defines.push((format!("{a}_ALIAS"), None));
    }
    let mut sources = SourceMap::new();
    let parsed = grammar::parse_file(&mut sources, &args.file, &pp, &RealFs);
    if parsed.root.is_none() {
        reporter.diagnostics(&sources, &parsed.diagnostics);
        return Exit::Failure;
    }
    let t = translate(&sources, &parsed, &options);
    reporter.diagnostics(&sources, &t.diagnostics);
    let Some(text) = &t.text else { return Exit::Errors };
    let mut exit = Exit::Clean;
    if !args.no_validate {
        if let Some(v) = validate_translation(&t, &ValidationContext::for_pass(&options.context)) {
            reporter.diagnostics(&sources, &v.diagnostics);
            if !v.is_ok() {
                exit = Exit::Errors;
            }
        }
    }
    let outputs: Vec<(Option<PathBuf>, String)> = match args.dialect {
        Dialect::Canonical => vec![(args.output.clone(), text.clone())],
        Dialect::Naga => {
            let Some(naga) = &t.naga else {
                reporter.diagnostics(&sources, &t.naga_diagnostics);
                return Exit::Errors;
            };
            match &args.output {
                Some(path) => vec![
                    (Some(path.with_extension("vert")), naga.vertex.text.clone()),
                    (Some(path.with_extension("frag")), naga.fragment.text.clone()),
                ],
                None => vec![(
                    None,
                    format!(
                        "// ---- vertex stage ----\n{}\n// ---- fragment stage ----\n{}",
                        naga.vertex.text, naga.fragment.text
                    ),
                )],
            }
        }
    };
    if let Some((_, path)) = first_existing(outputs.iter().filter_map(|(p, _)| p.as_deref()), args.force) {
        reporter.error(&format!("not writing {}: {}", path.display(), WriteError::Exists));
        return Exit::Failure;
    }
    for (path, text) in outputs {
        let written = match &path {
            Some(path) => emit_file(path, &text, args.force, reporter),
            None => match write_stdout(&text) {
                Ok(()) => Exit::Clean,
                Err(e) => {
                    reporter.error(&format!("cannot write to stdout: {e}"));
                    Exit::Failure
                }
            },
        };
        if written != Exit::Clean {
            return written;
        }
    }
    exit
}

fn emit_file(path: &Path, text: &str, force: bool, reporter: &Reporter) -> Exit {
    match write_atomic(path, text.as_bytes(), force) {
        Ok(()) => Exit::Clean,
        Err(WriteError::Exists) => {
            reporter.error(&format!("not writing {}: {}", path.display(), WriteError::Exists));
            Exit::Failure
        }
        Err(e) => {
            reporter.error(&format!("cannot write {}: {e}", path.display()));
            Exit::Failure
        }
    }
}
