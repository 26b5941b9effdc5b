//! The verdict of one old/new comparison and, for every non-pass, its cause: fixed,
//! documented enums (serialised in kebab-case) and the pure decision procedure that
//! picks them from evidence (see ARCHITECTURE.md, "Why a comparison does not pass").
//!
//! - [`Status`]: `pass` (the well-defined pixels meet the thresholds and at most
//!   [`HAZARD_SHARE_LIMIT_PCT`] % of the pixels are hazardous), `pass-hazardous` (the
//!   well-defined pixels meet them but more pixels are hazardous: no proof, whatever the
//!   hazardous pixels show), `fail` (the well-defined pixels miss them), `error` (a side
//!   could not render, or the preset could not be used).
//! - [`Cause`]: `hazard`, `translation`, `chain`, `reference`, `runtime-difference`,
//!   `input`, `limit`, `amplification`, `unexplained`.
//!
//! Never renders and never guesses: where the evidence does not single out a class the
//! cause is [`Cause::Unexplained`].

use super::{Metrics, Thresholds};
use crate::codes;
use grammar::Diagnostic;
use serde::Serialize;

/// Above this share of hazardous pixels (percent) a comparison is never a plain pass.
pub const HAZARD_SHARE_LIMIT_PCT: f64 = 5.0;

/// The outcome of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The well-defined pixels meet the thresholds; few pixels are hazardous.
    Pass,
    /// The well-defined pixels meet the thresholds, but more than
    /// [`HAZARD_SHARE_LIMIT_PCT`] % of the image is hazardous: not a proof.
    PassHazardous,
    /// The well-defined pixels miss a threshold.
    Fail,
    /// A side could not be rendered (or the preset not loaded).
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::PassHazardous => "pass-hazardous",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

/// Why a comparison is not a plain pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// Only pixels whose value a GPU may legitimately compute differently differ, or
    /// too many pixels are hazardous to prove anything.
    Hazard,
    /// The translation is wrong: it fails to translate or validate.
    Translation,
    /// The GPU chain is wrong: it cannot run a valid translation, or two routes of the
    /// same translation (glslang's SPIR-V, naga's GLSL dialect) render the divergent
    /// pass differently.
    Chain,
    /// The CPU reference cannot render the Cg original.
    Reference,
    /// A documented, deliberate difference between RetroArch's Cg and slang runtimes
    /// (ARCHITECTURE.md, "Runtime differences").
    RuntimeDifference,
    /// The preset cannot be used as given: it or a file it names cannot be read or is
    /// malformed (RetroArch refuses it too).
    Input,
    /// Comparing the preset would exceed one of the tool's documented limits (README,
    /// "Limits"), so nothing was rendered.
    Limit,
    /// Every pass matches the GPU's when it reads the GPU's own outputs of the earlier
    /// passes: the divergence is a later pass's gain on differences upstream that are
    /// within the tolerance (8-bit rounding and arithmetic a GPU is free to do
    /// differently), not a pass that computes differently.
    Amplification,
    /// The evidence does not single out a class.
    Unexplained,
}

impl Cause {
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Hazard => "hazard",
            Cause::Translation => "translation",
            Cause::Chain => "chain",
            Cause::Reference => "reference",
            Cause::RuntimeDifference => "runtime-difference",
            Cause::Input => "input",
            Cause::Limit => "limit",
            Cause::Amplification => "amplification",
            Cause::Unexplained => "unexplained",
        }
    }
}

/// A status with its cause (none for a plain pass) and a one-line detail.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub status: Status,
    pub cause: Option<Cause>,
    pub detail: Option<String>,
}

/// The verdict from the metrics alone: the whole image, the well-defined pixels and
/// the hazard share. A `fail` of the well-defined pixels gets no cause here
/// (localisation decides it). Otherwise the verdict is `pass`, or `pass-hazardous` when
/// more than [`HAZARD_SHARE_LIMIT_PCT`] % of the pixels are hazardous; either carries
/// cause `hazard` when the whole image misses the thresholds (only hazardous pixels
/// differ) or the share is over the limit.
pub fn judge(whole: &Metrics, well_defined: &Metrics, hazard_pct: f64, t: &Thresholds) -> Verdict {
    if !well_defined.passes(t) {
        return Verdict { status: Status::Fail, cause: None, detail: None };
    }
    let differ = !whole.passes(t);
    if hazard_pct > HAZARD_SHARE_LIMIT_PCT {
        let what = if differ { "and only they differ beyond the thresholds" } else { "and they match too" };
        return Verdict {
            status: Status::PassHazardous,
            cause: Some(Cause::Hazard),
            detail: Some(format!(
                "{hazard_pct:.1}% of the pixels are hazardous (limit {HAZARD_SHARE_LIMIT_PCT}%), {what}: the match proves little"
            )),
        };
    }
    if differ {
        return Verdict {
            status: Status::Pass,
            cause: Some(Cause::Hazard),
            detail: Some(format!("only hazardous pixels ({hazard_pct:.2}%) differ beyond the thresholds")),
        };
    }
    Verdict { status: Status::Pass, cause: None, detail: None }
}

/// Which step of a comparison failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Loading the `.cgp`.
    Load,
    /// Checking the comparison against the pixel budget.
    Budget,
    /// Translating, validating and building the chain description (LUTs included).
    Translate,
    /// Rendering the translation on the GPU chain.
    RenderNew,
    /// Rendering the original on the CPU reference.
    RenderOld,
}

/// The cause of a comparison that could not be made, from the step and the first
/// diagnostic's code: a chain code (`E07xx`) or naga's SPIR-V front end (`E0626`..
/// `E0628`) is the chain, the final-pass feedback (`E0703`) a runtime difference, any
/// other translation or validation error the translation, a reference failure the
/// reference; a preset that cannot be loaded is the input, one over the pixel budget a
/// limit.
pub fn cause_of_error(step: Step, diags: &[Diagnostic]) -> (Cause, String) {
    let first = diags.iter().find(|d| d.is_error()).or(diags.first());
    let line = first.map_or_else(|| "no diagnostic".to_owned(), |d| format!("{}: {}", d.code, d.message));
    let code = first.map_or("", |d| d.code);
    let cause = match step {
        Step::Load => Cause::Input,
        Step::Budget => Cause::Limit,
        Step::RenderOld => Cause::Reference,
        Step::Translate | Step::RenderNew => {
            let naga_spirv = [codes::E_NAGA_PARSE, codes::E_NAGA_VALIDATION, codes::E_NAGA_PANIC].contains(&code);
            if code == codes::E_CHAIN_FINAL_FEEDBACK {
                Cause::RuntimeDifference
            } else if step == Step::RenderNew || code.starts_with("E07") || naga_spirv {
                Cause::Chain
            } else {
                Cause::Translation
            }
        }
    };
    (cause, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(psnr: f64, within: f64) -> Metrics {
        Metrics { psnr_db: psnr, max_abs_error: 0.0, within_2_255_pct: within, pixels: 100 }
    }

    #[test]
    fn statuses() {
        let t = Thresholds::default();
        let good = m(50.0, 100.0);
        let bad = m(20.0, 90.0);
        assert_eq!(judge(&good, &good, 0.0, &t), Verdict { status: Status::Pass, cause: None, detail: None });
        assert_eq!(judge(&bad, &good, 1.0, &t).status, Status::Pass);
        assert_eq!(judge(&bad, &good, 1.0, &t).cause, Some(Cause::Hazard));
        assert_eq!(judge(&good, &good, 5.1, &t).status, Status::PassHazardous);
        // Mostly hazardous, and only hazardous pixels differ: no proof, but no failure of
        // the well-defined pixels either.
        let mostly_hazardous = judge(&bad, &good, 50.0, &t);
        assert_eq!((mostly_hazardous.status, mostly_hazardous.cause), (Status::PassHazardous, Some(Cause::Hazard)));
        assert!(mostly_hazardous.detail.is_some_and(|d| d.contains("only they differ")));
        assert_eq!(judge(&good, &good, 5.0, &t).status, Status::Pass);
        assert_eq!(judge(&good, &bad, 0.0, &t).status, Status::Fail);
    }

    #[test]
    fn error_causes() {
        let d = |code: &'static str| vec![Diagnostic::error(code, "x")];
        assert_eq!(cause_of_error(Step::RenderOld, &d(codes::E_REF_UNSUPPORTED)).0, Cause::Reference);
        assert_eq!(cause_of_error(Step::Translate, &d(codes::E_GLSLANG)).0, Cause::Translation);
        assert_eq!(cause_of_error(Step::Translate, &d(codes::E_NAGA_PARSE)).0, Cause::Chain);
        assert_eq!(cause_of_error(Step::Translate, &d(codes::E_CHAIN_IMAGE)).0, Cause::Chain);
        assert_eq!(cause_of_error(Step::RenderNew, &d(codes::E_CHAIN_GPU)).0, Cause::Chain);
        assert_eq!(cause_of_error(Step::RenderNew, &d(codes::E_CHAIN_FINAL_FEEDBACK)).0, Cause::RuntimeDifference);
        assert_eq!(cause_of_error(Step::Load, &d(codes::E_CHAIN_PRESET)).0, Cause::Input);
        assert_eq!(cause_of_error(Step::Budget, &d(codes::E_COMPARE_PIXEL_BUDGET)).0, Cause::Limit);
        assert_eq!(Cause::RuntimeDifference.as_str(), "runtime-difference");
    }
}
