//! From Cg source to a [`PassProgram`], compiled as RetroArch's Cg runtime compiled it:
//! `main_vertex` and `main_fragment`, `-DPARAMETER_UNIFORM`, and `-D<alias>_ALIAS` for
//! every non-empty alias of the preset. Uses the translator's front end and sema only
//! (`analyze_pass`), never its porting passes or writer.

use super::pass::PassProgram;
use crate::codes;
use grammar::{Diagnostic, FileSystem, MemoryFs, PpOptions, SourceMap};
use std::path::Path;
use translator::translate::{analyze_pass, Analysis, TranslateOptions};

fn options(aliases: &[String]) -> PpOptions {
    let mut defines: Vec<(String, Option<String>)> = vec![("PARAMETER_UNIFORM".into(), None)];
    for a in aliases.iter().filter(|a| !a.is_empty()) {
        defines.push((format!("{a}_ALIAS"), None));
    }
    PpOptions { defines, ..PpOptions::default() }
}

fn finish(analysis: Analysis) -> Result<PassProgram, Vec<Diagnostic>> {
    if grammar::has_errors(&analysis.diagnostics) {
        return Err(analysis.diagnostics);
    }
    match (&analysis.vertex, &analysis.fragment) {
        (Some(v), Some(f)) => PassProgram::new(v, f),
        _ => Err(vec![Diagnostic::error(codes::E_REF_COMPILE, "the file has no vertex and fragment program")]),
    }
}

/// Compiles Cg text held in memory (includes resolve against `fs`); its files join
/// `sources`, so diagnostics raised later, while the program runs, can be located.
pub fn analyze_cg_str(
    sources: &mut SourceMap,
    name: &str,
    text: &str,
    aliases: &[String],
    fs: &dyn FileSystem,
) -> Result<PassProgram, Vec<Diagnostic>> {
    let parsed = grammar::parse_str(sources, name, text, &options(aliases), fs);
    finish(analyze_pass(sources, &parsed, &TranslateOptions::default()))
}

/// Compiles a `.cg` file; its files join `sources` (see [`analyze_cg_str`]).
pub fn analyze_cg(
    sources: &mut SourceMap,
    path: &Path,
    aliases: &[String],
    fs: &dyn FileSystem,
) -> Result<PassProgram, Vec<Diagnostic>> {
    let parsed = grammar::parse_file(sources, path, &options(aliases), fs);
    finish(analyze_pass(sources, &parsed, &TranslateOptions::default()))
}

/// Compiles Cg text with no include files (tests).
pub fn cg(text: &str) -> Result<PassProgram, Vec<Diagnostic>> {
    analyze_cg_str(&mut SourceMap::new(), "test.cg", text, &[], &MemoryFs::new())
}
