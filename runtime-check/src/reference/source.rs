//! From Cg source to a [`PassProgram`], compiled as RetroArch's Cg runtime compiled it:
//! `main_vertex` and `main_fragment`, `-DPARAMETER_UNIFORM`, and `-D<alias>_ALIAS` for
//! every non-empty alias of the preset. Uses the translator's front end and sema only
//! (`analyze_pass`), never its porting passes or writer. Each program carries the digest
//! of the files and defines it was compiled from, for [`super::memo`].

use super::memo::{Fingerprint, KeyWriter};
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

/// The digest of a compile: the defines, then the name, path and text of every file
/// the parse added to `sources` (the root and its includes, in the order read), from
/// file number `first` on. Everything the program is made of comes from these.
fn source_fingerprint(sources: &SourceMap, first: usize, aliases: &[String]) -> Fingerprint {
    let mut k = KeyWriter::new("cg source");
    let options = options(aliases);
    k.u64(options.defines.len() as u64);
    for (name, value) in &options.defines {
        k.str(name);
        k.str(value.as_deref().unwrap_or(""));
    }
    for (_, file) in sources.files().skip(first) {
        k.str(&file.name);
        k.str(&file.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default());
        k.str(&file.text);
    }
    k.finish()
}

fn finish(analysis: Analysis, source: Fingerprint) -> Result<PassProgram, Vec<Diagnostic>> {
    if grammar::has_errors(&analysis.diagnostics) {
        return Err(analysis.diagnostics);
    }
    match (&analysis.vertex, &analysis.fragment) {
        (Some(v), Some(f)) => PassProgram::new(v, f).map(|p| p.with_source_fingerprint(source)),
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
    let first = sources.files().count();
    let parsed = grammar::parse_str(sources, name, text, &options(aliases), fs);
    let source = source_fingerprint(sources, first, aliases);
    finish(analyze_pass(sources, &parsed, &TranslateOptions::default()), source)
}

/// Compiles a `.cg` file; its files join `sources` (see [`analyze_cg_str`]).
pub fn analyze_cg(
    sources: &mut SourceMap,
    path: &Path,
    aliases: &[String],
    fs: &dyn FileSystem,
) -> Result<PassProgram, Vec<Diagnostic>> {
    let first = sources.files().count();
    let parsed = grammar::parse_file(sources, path, &options(aliases), fs);
    let source = source_fingerprint(sources, first, aliases);
    finish(analyze_pass(sources, &parsed, &TranslateOptions::default()), source)
}

/// Compiles Cg text with no include files (tests).
pub fn cg(text: &str) -> Result<PassProgram, Vec<Diagnostic>> {
    analyze_cg_str(&mut SourceMap::new(), "test.cg", text, &[], &MemoryFs::new())
}
