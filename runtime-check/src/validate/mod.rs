//! Validation of emitted slang: what RetroArch's loader checks, plus naga.
//!
//! [`validate`] runs, on one translated pass:
//! 1. [`stages::split_stages`]: the file format (first line `#version`, includes, the
//!    `#pragma stage` split, `#pragma parameter`/`name`/`format`) exactly as RetroArch
//!    reads it;
//! 2. [`glslang`]: each stage compiled to SPIR-V for Vulkan 1.0 by glslang, the compiler
//!    RetroArch itself uses;
//! 3. [`interface`]: the slang interface rules RetroArch enforces when it reflects that
//!    SPIR-V ([`reflect`]): vertex inputs, fragment output, descriptor sets, bindings,
//!    block counts and sizes, known semantics and their types, offsets shared between
//!    stages, causality of `PassOutputN`;
//! 4. [`naga`]: naga's GLSL front end and validator on the naga-dialect stage texts, when
//!    the caller has them (the canonical text uses combined samplers, which naga's GLSL
//!    front end does not accept).
//!
//! Every finding is an [`Issue`] with a place in the emitted text; [`validate`] turns it
//! into a [`grammar::Diagnostic`] whose primary label is the Cg span the line map gives
//! for that line, with the emitted slang line in a note (or a label on the slang text
//! when the caller registered it in its `SourceMap`, see [`ValidationContext::slang_file`]).
//!
//! This module never panics on any text (third-party panics are caught, see
//! [`naga::isolate`]), never prints, and never touches the disk except through the
//! [`grammar::FileSystem`] given for includes.

pub mod glslang;
mod glslang_ffi;
pub mod interface;
mod locate;
mod memo;
pub mod naga;
pub mod reflect;
pub mod spirv_cache;
pub mod stages;

pub use self::naga::validate_naga;
pub use interface::check_interface;
pub use stages::{split_stages, split_stages_with, Includes, Meta, Parameter, StageSource, Stages};
/// The shader stage, the translator's own type.
pub use translator::ir::Stage;

use grammar::{Diagnostic, FileId, Severity, Span};

/// Outcome of one validator (serialised `ok`, `error`, `skipped`, as reports show it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Ok,
    Error,
    /// Not run: its input was missing, or an earlier step failed.
    Skipped,
}

impl Status {
    /// The name reports and pages show.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Error => "error",
            Status::Skipped => "skipped",
        }
    }
}

/// Where an issue is: a 1-based line of one of the texts validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A line of the `.slang` text (`file` 0) or of a file it includes (`file` ≥ 1, an
    /// index into [`Stages::files`]).
    Slang { file: usize, line: u32 },
    /// A line of a naga-dialect stage text.
    Naga { stage: Stage, line: u32 },
}

/// A finding, before it is located in the user's Cg source.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub place: Option<Place>,
    /// Text for the label at `place`.
    pub label: String,
    pub notes: Vec<String>,
}

impl Issue {
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        place: Option<Place>,
        label: impl Into<String>,
    ) -> Issue {
        Issue {
            code,
            severity: Severity::Error,
            message: message.into(),
            place,
            label: label.into(),
            notes: Vec::new(),
        }
    }

    pub fn warning(
        code: &'static str,
        message: impl Into<String>,
        place: Option<Place>,
        label: impl Into<String>,
    ) -> Issue {
        Issue { severity: Severity::Warning, ..Issue::error(code, message, place, label) }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Issue {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The 1-based line of the `.slang` text itself, if the issue is on one.
    pub fn slang_line(&self) -> Option<u32> {
        match self.place {
            Some(Place::Slang { file: 0, line }) => Some(line),
            _ => None,
        }
    }
}

/// A naga-dialect stage text (separate `texture2D` and `sampler` objects, no
/// `#pragma`), with its own line map.
#[derive(Clone, Debug, Default)]
pub struct NagaStage {
    pub text: String,
    /// For each line of `text`, the Cg span it came from (may be empty).
    pub line_map: Vec<Option<Span>>,
}

/// What the validator needs to know about the pass besides its text.
#[derive(Clone, Default)]
pub struct ValidationContext<'a> {
    /// 0-based index of this pass in its preset.
    pub pass: usize,
    /// `aliasN` of every pass of the preset, indexed by pass ("" when none). Only the
    /// aliases of passes `0..=pass` are visible to this pass, as in RetroArch.
    pub aliases: Vec<String>,
    /// LUT ids of the preset (`textures`), in order.
    pub luts: Vec<String>,
    /// Parameters declared by the other passes of the preset (RetroArch lets a pass
    /// read any parameter of its preset).
    pub extra_parameters: Vec<String>,
    /// The naga-dialect texts of the two stages, when the writer produced them.
    pub naga_vertex: Option<NagaStage>,
    pub naga_fragment: Option<NagaStage>,
    /// The `.slang` text registered in the caller's `SourceMap`: lines without a Cg
    /// origin are then labelled in it.
    pub slang_file: Option<FileId>,
    /// Where `#include` lines are read from (none: includes are errors).
    pub includes: Option<Includes<'a>>,
}

impl ValidationContext<'_> {
    /// The context of a translated pass.
    pub fn for_pass(context: &translator::retro::PassContext) -> ValidationContext<'static> {
        ValidationContext {
            pass: context.pass,
            aliases: context.aliases.clone(),
            luts: context.luts.clone(),
            ..ValidationContext::default()
        }
    }

    fn naga_stage(&self, stage: Stage) -> Option<&NagaStage> {
        match stage {
            Stage::Vertex => self.naga_vertex.as_ref(),
            Stage::Fragment => self.naga_fragment.as_ref(),
        }
    }
}

/// What [`validate`] found.
#[derive(Debug)]
pub struct ValidationResult {
    /// The file format, the meta pragmas and glslang's compilation of both stages.
    pub glslang: Status,
    /// The slang interface rules on the SPIR-V (skipped when glslang failed).
    pub interface: Status,
    /// naga on the naga-dialect texts (skipped when the context has none).
    pub naga: Status,
    /// Located diagnostics, in the order of `issues`.
    pub diagnostics: Vec<Diagnostic>,
    /// The findings before location; `issues[i]` became `diagnostics[i]`.
    pub issues: Vec<Issue>,
    /// The meta pragmas read from the file.
    pub meta: Meta,
}

impl ValidationResult {
    /// True when every validator that ran passed.
    pub fn is_ok(&self) -> bool {
        ![self.glslang, self.interface, self.naga].contains(&Status::Error)
    }
}

/// Validates one emitted pass: `text` is the canonical `.slang` text, `line_map` its
/// line map (for each output line, the Cg span it came from).
pub fn validate(text: &str, line_map: &[Option<Span>], ctx: &ValidationContext<'_>) -> ValidationResult {
    let stages = stages::split_stages_with(text, ctx.includes);
    let mut issues = stages.issues.clone();
    let mut spirv = Vec::new();
    for stage in Stage::BOTH {
        let source = stages.stage(stage);
        match glslang::compile(&source.text, stage) {
            Ok(words) => spirv.push((stage, words)),
            Err(messages) => issues.extend(messages.into_iter().map(|m| m.into_issue(stage, source))),
        }
    }
    let format_ok = !stages.has_errors();
    let glslang = if format_ok && spirv.len() == 2 { Status::Ok } else { Status::Error };

    let interface = if spirv.len() == 2 {
        let mut reflected = Vec::new();
        for (stage, words) in &spirv {
            match reflect::reflect_memoized(words, *stage) {
                Ok(r) => reflected.push(r),
                Err(e) => issues.push(Issue::error(
                    crate::codes::E_VALIDATOR_INTERNAL,
                    format!("cannot read the SPIR-V glslang produced for the {stage} stage: {e}"),
                    None,
                    "",
                )),
            }
        }
        if let [v, f] = reflected.as_slice() {
            let names = interface::Names::new(ctx, &stages.meta);
            let found = check_interface(v, f, &stages, &names);
            let status = if found.iter().any(Issue::is_error) { Status::Error } else { Status::Ok };
            issues.extend(found);
            status
        } else {
            Status::Error
        }
    } else {
        Status::Skipped
    };

    let mut naga = Status::Skipped;
    for stage in Stage::BOTH {
        let Some(ns) = ctx.naga_stage(stage) else {
            continue;
        };
        match naga::naga_verdict(&ns.text, stage) {
            Ok(()) => {
                if naga == Status::Skipped {
                    naga = Status::Ok;
                }
            }
            Err(found) => {
                issues.extend(found);
                naga = Status::Error;
            }
        }
    }

    dedup(&mut issues);
    let locator = locate::Locator::new(text, line_map, ctx, &stages.files);
    let diagnostics = issues.iter().map(|i| locator.diagnostic(i)).collect();
    ValidationResult { glslang, interface, naga, diagnostics, issues, meta: stages.meta }
}

/// Validates a translated pass: the canonical text through RetroArch's rules and
/// glslang, its naga dialect through naga. `None` when the translation produced no text.
/// When the writer could not express the pass in the naga dialect, `naga` is an error
/// carrying the writer's diagnostics.
pub fn validate_translation(
    translation: &translator::translate::Translation,
    ctx: &ValidationContext<'_>,
) -> Option<ValidationResult> {
    let text = translation.text.as_deref()?;
    let mut ctx = ctx.clone();
    if let Some(naga) = &translation.naga {
        let stage =
            |s: &translator::back::slang::StageText| NagaStage { text: s.text.clone(), line_map: s.line_map.clone() };
        ctx.naga_vertex = Some(stage(&naga.vertex));
        ctx.naga_fragment = Some(stage(&naga.fragment));
    }
    let mut result = validate(text, &translation.line_map, &ctx);
    if translation.naga.is_none() && !translation.naga_diagnostics.is_empty() {
        result.naga = Status::Error;
        result.diagnostics.extend(translation.naga_diagnostics.iter().cloned());
    }
    Some(result)
}

/// Drops repeated issues (the same finding in both stages is reported once).
fn dedup(issues: &mut Vec<Issue>) {
    let mut seen: Vec<(&'static str, String, Option<Place>)> = Vec::new();
    issues.retain(|i| {
        let key = (i.code, i.message.clone(), i.place);
        if seen.contains(&key) {
            false
        } else {
            seen.push(key);
            true
        }
    });
}
