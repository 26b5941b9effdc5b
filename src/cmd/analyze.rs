//! `cg2slang analyze`: semantic analysis of one Cg file under its profiles.
//!
//! Parses the file, then analyses each entry point: the one named by `--entry` under
//! `--profile` (or the default profile of the entry's stage: gp5gp, gp5tcp or gp5tep
//! for a function whose primitive or patch modifiers declare such a program), else `main_vertex` and
//! `main_fragment` where they exist, else `main` as a fragment program. Reports
//! every diagnostic once (code shared by both programs reports once); `--dump-ir` prints
//! the typed IR of each analysed program. Exit 0 clean, 1 on errors, 2 on I/O/usage.

use super::{write_stdout, Exit, FrontendArgs, Reporter};
use clap::Args;
use grammar::{ast, RealFs, SourceMap};
use std::path::PathBuf;
use translator::ir::{pretty, Stage};
use translator::sema::{analyze, profile::Profile, programs, SemaOptions};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The Cg file to analyse.
    #[arg(value_name = "FILE.cg")]
    pub file: PathBuf,

    #[command(flatten)]
    pub frontend: FrontendArgs,

    /// The entry point to analyse (default: main_vertex and main_fragment).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,

    /// The profile to analyse under (vp40, fp40, arbfp1, glslv, ps_3_0, gp4gp, gp5tcp, gp5tep, ...).
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,

    /// Print the typed IR of each analysed program to stdout.
    #[arg(long)]
    pub dump_ir: bool,
}

pub fn run(args: &AnalyzeArgs, reporter: &Reporter) -> Exit {
    let profile = match &args.profile {
        Some(name) => match Profile::named(name) {
            Some(p) => Some(p),
            None => {
                reporter.error(&format!(
                    "unknown profile `{name}` (try glslv, glslf, vp40, fp40, arbvp1, arbfp1, vs_3_0, ps_3_0, \
                     gp4gp, gp5tcp, gp5tep)"
                ));
                return Exit::Failure;
            }
        },
        None => None,
    };
    let mut sources = SourceMap::new();
    let parsed = grammar::parse_file(&mut sources, &args.file, &args.frontend.pp_options(), &RealFs);
    if parsed.root.is_none() {
        reporter.diagnostics(&sources, &parsed.diagnostics);
        return Exit::Failure;
    }
    let mut diagnostics = parsed.diagnostics.clone();
    let mut dumps = Vec::new();
    if !parsed.has_errors() {
        let has = |name: &str| {
            parsed
                .unit
                .items
                .iter()
                .any(|i| matches!(i, ast::Item::Function(f) if f.name.name == name && f.body.is_some()))
        };
        let entries: Vec<(String, Profile)> = match (&args.entry, &profile) {
            (Some(e), Some(p)) => vec![(e.clone(), p.clone())],
            (Some(e), None) => {
                // A geometry or tessellation program says so with its modifiers.
                let declared = parsed.unit.items.iter().find_map(|i| match i {
                    ast::Item::Function(f) if f.name.name == *e && f.body.is_some() => {
                        programs::shape(&f.specifiers.modifiers, &mut Vec::new()).domain()
                    }
                    _ => None,
                });
                let profile = match declared {
                    Some(domain) => Profile::default_for_domain(domain),
                    None if e.contains("vertex") => Profile::default_for(Stage::Vertex),
                    None => Profile::default_for(Stage::Fragment),
                };
                vec![(e.clone(), profile)]
            }
            (None, p) => {
                let mut v = Vec::new();
                if has("main_vertex") {
                    v.push(("main_vertex".to_owned(), p.clone().unwrap_or(Profile::default_for(Stage::Vertex))));
                }
                if has("main_fragment") {
                    v.push(("main_fragment".to_owned(), p.clone().unwrap_or(Profile::default_for(Stage::Fragment))));
                }
                if v.is_empty() {
                    v.push(("main".to_owned(), p.clone().unwrap_or(Profile::default_for(Stage::Fragment))));
                }
                v
            }
        };
        for (entry, profile) in entries {
            let options = SemaOptions { entry: Some(entry.clone()), profile: profile.clone() };
            let (module, diags) = analyze(&parsed.unit, &parsed.preprocessed.pragmas, &options);
            for d in diags {
                if !diagnostics.contains(&d) {
                    diagnostics.push(d);
                }
            }
            if args.dump_ir {
                dumps.push(format!("// ---- {entry} ({}) ----\n{}", profile.name, pretty::module(&module)));
            }
        }
    }
    reporter.diagnostics(&sources, &diagnostics);
    if !dumps.is_empty() {
        if let Err(e) = write_stdout(&dumps.join("\n")) {
            reporter.error(&format!("cannot write the IR to stdout: {e}"));
            return Exit::Failure;
        }
    }
    if grammar::has_errors(&diagnostics) {
        Exit::Errors
    } else {
        Exit::Clean
    }
}
