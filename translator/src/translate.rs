//! The translation driver: one parsed Cg file and its pass context to slang text.
//!
//! Says first what of the file has no slang equivalent (`unported`: geometry and
//! tessellation programs, CgFX techniques). Runs sema for `main_vertex` and
//! `main_fragment`, the porting passes, and the writer,
//! and gathers every diagnostic (deduplicated: code shared by both stages reports once).
//! Refuses to produce text while errors remain. Pure: no file system, deterministic.

use crate::back::slang::{self, StageText, WriteInput};
use crate::ir::{Module, Stage};
use crate::port::dialect::Dialect;
use crate::port::{self, semantics};
use crate::retro::PassContext;
use crate::sema::{self, SemaOptions};
use crate::unported;
use grammar::{Diagnostic, ParseResult, SourceMap, Span};

/// A translated pass.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The `.slang` text; `None` when errors prevented it.
    pub text: Option<String>,
    /// For each output line, the Cg span it came from.
    pub line_map: Vec<Option<Span>>,
    pub diagnostics: Vec<Diagnostic>,
    /// The naga dialect of the same pass (one text per stage), when the canonical text
    /// exists and the naga writer could express it.
    pub naga: Option<NagaStages>,
    /// Why the naga dialect is missing although the canonical text exists (errors of
    /// the naga writer alone). Validation reports them under `naga`.
    pub naga_diagnostics: Vec<Diagnostic>,
}

/// The naga dialect of a pass: what naga's GLSL front end and the wgpu chain read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NagaStages {
    pub vertex: StageText,
    pub fragment: StageText,
}

impl Translation {
    /// A translation that produced no text, for these reasons.
    pub fn failed(diagnostics: Vec<Diagnostic>) -> Translation {
        Translation { text: None, line_map: Vec::new(), diagnostics, naga: None, naga_diagnostics: Vec::new() }
    }
}

/// Options of one translation.
#[derive(Clone, Debug)]
pub struct TranslateOptions {
    pub context: PassContext,
    pub vertex_entry: String,
    pub fragment_entry: String,
    /// `#pragma parameter` lines declared by the passes of the preset (first per id).
    /// RetroArch's Cg runtime set a uniform named like any of them in every pass, so
    /// they bind here too, and the output repeats the lines of those it uses.
    pub preset_parameters: Vec<String>,
}

impl Default for TranslateOptions {
    fn default() -> TranslateOptions {
        TranslateOptions {
            context: PassContext::single(),
            vertex_entry: "main_vertex".into(),
            fragment_entry: "main_fragment".into(),
            preset_parameters: Vec::new(),
        }
    }
}

/// The context-free part of a translation: both entry points analysed. Computed once
/// per file (and alias set), then ported into any number of preset contexts.
pub struct Analysis {
    pub vertex: Option<Module>,
    pub fragment: Option<Module>,
    /// Parse and sema diagnostics (deduplicated).
    pub diagnostics: Vec<Diagnostic>,
    pragmas: Vec<String>,
    /// Where each of `pragmas` is in the Cg source.
    pragma_spans: Vec<Span>,
    header: String,
}

/// Analyses `main_vertex` and `main_fragment` (or the entries named in `options`).
pub fn analyze_pass(sources: &SourceMap, parsed: &ParseResult, options: &TranslateOptions) -> Analysis {
    let mut diagnostics: Vec<Diagnostic> = parsed.diagnostics.clone();
    let mut pragmas: Vec<String> = Vec::new();
    let mut pragma_spans: Vec<Span> = Vec::new();
    for p in &parsed.preprocessed.pragmas {
        match non_finite_parameter(&p.text) {
            Some(word) => diagnostics.push(
                Diagnostic::error(
                    crate::codes::E_PARAMETER_NOT_FINITE,
                    format!("`#pragma parameter`: `{word}` is not a finite number"),
                )
                .with_primary(p.span, "this parameter line is not used")
                .with_note("the initial value, minimum, maximum and step must be finite numbers"),
            ),
            None => {
                pragmas.push(p.text.clone());
                pragma_spans.push(p.span);
            }
        }
    }
    let header = parsed.root.map(|r| leading_comment(&sources.file(r).text)).unwrap_or_default();
    if grammar::has_errors(&diagnostics) {
        return Analysis { vertex: None, fragment: None, diagnostics, pragmas, pragma_spans, header };
    }
    // Geometry and tessellation programs and effect constructs have no slang equivalent.
    diagnostics.extend(unported::check(&parsed.unit, &options.vertex_entry, &options.fragment_entry));
    if grammar::has_errors(&diagnostics) {
        return Analysis { vertex: None, fragment: None, diagnostics, pragmas, pragma_spans, header };
    }
    let analyse = |entry: &str, stage: Stage, diags: &mut Vec<Diagnostic>| {
        let (m, d) = sema::analyze(&parsed.unit, &parsed.preprocessed.pragmas, &SemaOptions::new(entry, stage));
        for x in d {
            if !diags.contains(&x) {
                diags.push(x);
            }
        }
        m
    };
    let vertex = analyse(&options.vertex_entry, Stage::Vertex, &mut diagnostics);
    let fragment = analyse(&options.fragment_entry, Stage::Fragment, &mut diagnostics);
    Analysis { vertex: Some(vertex), fragment: Some(fragment), diagnostics, pragmas, pragma_spans, header }
}

/// The first number of a `#pragma parameter ID "description" ...` line that reads as
/// NaN or infinity (C `strtod`, as RetroArch reads it), if any.
fn non_finite_parameter(line: &str) -> Option<String> {
    let rest = line.trim_start_matches('#').trim_start().strip_prefix("pragma")?.trim_start();
    let rest = rest.strip_prefix("parameter")?;
    let after = rest.split_once('"')?.1.split_once('"')?.1;
    after
        .split_whitespace()
        .take(4)
        .find(|w| crate::preset::value::strtod(w).is_some_and(|(v, _)| !v.is_finite()))
        .map(str::to_owned)
}

/// Ports an analysed file into the pass context of `options`: [`bind`], then
/// [`port_bound`].
pub fn port(analysis: &Analysis, options: &TranslateOptions) -> Translation {
    match bind(analysis, options) {
        Ok(bound) => port_bound(analysis, &bound),
        Err(diagnostics) => Translation::failed(diagnostics),
    }
}

/// All that a pass's translation reads of its preset context, decided before any
/// rewrite: what the runtime binds to both stages, the `#pragma parameter` lines the
/// output carries and the alias defines. Given the same analysis, equal `BoundPass`es
/// translate to equal [`Translation`]s ([`port_bound`] reads nothing else), so a caller
/// porting one file in many contexts ports each distinct one once.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundPass {
    stages: port::BoundStages,
    parameter_pragmas: Vec<(String, Option<Span>)>,
    alias_defines: Vec<String>,
}

/// Binds an analysed file in the pass context of `options`; the analysis's
/// diagnostics when it has errors (nothing to port).
pub fn bind(analysis: &Analysis, options: &TranslateOptions) -> Result<BoundPass, Vec<Diagnostic>> {
    let diagnostics = &analysis.diagnostics;
    let (Some(vertex), Some(fragment)) = (&analysis.vertex, &analysis.fragment) else {
        return Err(diagnostics.clone());
    };
    if grammar::has_errors(diagnostics) {
        return Err(diagnostics.clone());
    }
    let own_parameters = semantics::parameter_names(&analysis.pragmas);
    let mut parameters = own_parameters.clone();
    for p in semantics::parameter_names(&options.preset_parameters) {
        if !parameters.contains(&p) {
            parameters.push(p);
        }
    }
    let stages = port::bind(vertex, fragment, &options.context, &parameters);
    let (vb, fb) = (&stages.vertex, &stages.fragment);
    let mut parameter_pragmas: Vec<(String, Option<Span>)> = analysis
        .pragmas
        .iter()
        .zip(&analysis.pragma_spans)
        .filter(|(p, _)| p.split_whitespace().nth(1) == Some("parameter"))
        .map(|(p, span)| (p.clone(), Some(*span)))
        .collect();
    // Parameters of other passes this pass reads: their declarations come along. (The
    // rewrites never bind a parameter, so the bindings before them decide.)
    let used: Vec<&String> = vb
        .params
        .iter()
        .chain(vb.globals.values())
        .chain(fb.params.iter())
        .chain(fb.globals.values())
        .filter_map(|b| if let semantics::Binding::Parameter(p) = b { Some(p) } else { None })
        .collect();
    for line in &options.preset_parameters {
        let id = semantics::parameter_names(std::slice::from_ref(line));
        if id.first().is_some_and(|id| !own_parameters.contains(id) && used.contains(&id))
            && !parameter_pragmas.iter().any(|(p, _)| p == line)
            && non_finite_parameter(line).is_none()
        {
            parameter_pragmas.push((line.clone(), None));
        }
    }
    let alias_defines: Vec<String> =
        options.context.aliases.iter().filter(|a| !a.is_empty()).map(|a| format!("{a}_ALIAS")).collect();
    Ok(BoundPass { stages, parameter_pragmas, alias_defines })
}

/// Ports an analysed file bound by [`bind`] (from the same analysis): the rewrites, the
/// writer in both dialects.
pub fn port_bound(analysis: &Analysis, bound: &BoundPass) -> Translation {
    let mut diagnostics = analysis.diagnostics.clone();
    let (Some(vertex), Some(fragment)) = (&analysis.vertex, &analysis.fragment) else {
        return Translation::failed(diagnostics);
    };
    let ported = port::run_bound(vertex, fragment, &bound.stages);
    let input = WriteInput {
        vertex: &ported.vertex,
        fragment: &ported.fragment,
        vertex_bindings: &ported.vertex_bindings,
        fragment_bindings: &ported.fragment_bindings,
        connectors: &ported.connectors,
        header: analysis.header.clone(),
        parameter_pragmas: bound.parameter_pragmas.clone(),
        alias_defines: bound.alias_defines.clone(),
    };
    let written = slang::write(&input);
    for d in ported.diagnostics.iter().cloned().chain(written.diagnostics) {
        if !diagnostics.contains(&d) {
            diagnostics.push(d);
        }
    }
    if grammar::has_errors(&diagnostics) {
        return Translation { line_map: written.line_map, ..Translation::failed(diagnostics) };
    }
    let naga_stages = port::for_dialect(&ported, Dialect::Naga);
    let naga = slang::write_naga(&WriteInput { vertex: &naga_stages.vertex, fragment: &naga_stages.fragment, ..input });
    let naga_diagnostics: Vec<Diagnostic> = naga_stages
        .diagnostics
        .into_iter()
        .chain(naga.diagnostics)
        .filter(|d| d.is_error() && !diagnostics.contains(d))
        .collect();
    let naga = naga_diagnostics.is_empty().then_some(NagaStages { vertex: naga.vertex, fragment: naga.fragment });
    Translation { text: Some(written.text), line_map: written.line_map, diagnostics, naga, naga_diagnostics }
}

/// Translates a parsed file. `parsed` must come from `sources`.
pub fn translate(sources: &SourceMap, parsed: &ParseResult, options: &TranslateOptions) -> Translation {
    port(&analyze_pass(sources, parsed, options), options)
}

/// The comment block at the top of a Cg file (license, author, description), verbatim.
pub fn leading_comment(text: &str) -> String {
    let mut end = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        while i < bytes.len() && (bytes[i] as char).is_ascii_whitespace() {
            i += 1;
        }
        if text[i..].starts_with("//") {
            let e = text[i..].find('\n').map_or(text.len(), |n| i + n);
            i = e;
            end = e;
        } else if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(n) => {
                    i = i + 2 + n + 2;
                    end = i;
                }
                None => break,
            }
        } else {
            break;
        }
    }
    let block = text[..end].trim_matches('\n');
    let block = block.trim_start_matches(['\r', '\n']);
    block.to_owned()
}
