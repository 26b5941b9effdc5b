//! The validation step of the migration: one translated pass through
//! [`runtime_check::validate::validate_translation`] (RetroArch's loader with glslang,
//! the slang interface rules, naga on the naga dialect), summarised as the report shows
//! it: glslang and the interface rules together as `glslang` (RetroArch's loader), naga
//! as `naga`.
//!
//! Called directly by [`super::translate`]; it never reaches back into the planner,
//! never prints and never panics on any text (runtime-check catches third-party panics).

use grammar::Diagnostic;
use runtime_check::validate::{validate_translation, Status, ValidationContext};
use serde::Serialize;
use translator::retro::PassContext;
use translator::translate::Translation;

/// What the two validators said of one output, as the report's `validation` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Checks {
    /// naga on the naga dialect.
    pub naga: Status,
    /// RetroArch's loader: file format, glslang, the slang interface rules.
    pub glslang: Status,
}

impl Checks {
    /// Neither validator ran (no text, or validation off).
    pub const SKIPPED: Checks = Checks { naga: Status::Skipped, glslang: Status::Skipped };

    /// Both validators ran and passed.
    pub fn passed(self) -> bool {
        self.naga == Status::Ok && self.glslang == Status::Ok
    }

    /// A validator ran and failed.
    pub fn failed(self) -> bool {
        self.naga == Status::Error || self.glslang == Status::Error
    }
}

impl Default for Checks {
    fn default() -> Checks {
        Checks::SKIPPED
    }
}

/// What validation said of one translation.
#[derive(Clone, Debug)]
pub struct Validation {
    pub checks: Checks,
    /// Findings, located in the Cg sources of the translation.
    pub diagnostics: Vec<Diagnostic>,
}

impl Validation {
    pub const SKIPPED: Validation = Validation { checks: Checks::SKIPPED, diagnostics: Vec::new() };
}

/// Validates one translated pass in its preset context; skipped when the translation
/// produced no text.
pub fn validate(translation: &Translation, context: &PassContext) -> Validation {
    let Some(v) = validate_translation(translation, &ValidationContext::for_pass(context)) else {
        return Validation::SKIPPED;
    };
    let glslang = match (v.glslang, v.interface) {
        (Status::Error, _) | (_, Status::Error) => Status::Error,
        (g, _) => g,
    };
    Validation { checks: Checks { naga: v.naga, glslang }, diagnostics: v.diagnostics }
}
