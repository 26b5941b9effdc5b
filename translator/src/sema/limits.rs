//! Profile limits on an entry point's interface, checked as NVIDIA's compiler did.
//!
//! RetroArch compiled Cg with the GLSL profiles (glslv/glslf) on most GPUs and with
//! gp4/gp5 on NVIDIA's. glslv rejects a vertex output `TEXCOORD` with an index above 7
//! ("output semantic attribute TEXCOORD has too big of a numeric index (8)"); gp4vp
//! accepted it, so the program ran on some machines: that is a warning (W0307), and the
//! translation goes on. This module only reads the IR of the entry point; it never
//! changes it.

use super::profile::Profile;
use crate::codes;
use crate::ir::{Function, Handle, Module, ParamDir, Semantic, Stage, Type};
use grammar::Diagnostic;

/// The most functions one stage may call (its entry point and every function it reaches).
/// glslang's call-graph checks are quadratic in this count (20,000 take 20 s); the
/// largest real shader calls fewer than 200.
pub const MAX_STAGE_FUNCTIONS: usize = 4096;

/// The highest `TEXCOORD` index glslv accepts on a vertex output.
pub const GLSLV_MAX_TEXCOORD: u32 = 7;

/// Warnings for the entry point `function` analysed under `profile`.
pub fn check_entry(module: &Module, function: Handle<Function>, profile: &Profile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if profile.stage != Stage::Vertex || !matches!(profile.name.as_str(), "glslv") {
        return out;
    }
    let f = &module.functions[function];
    let mut outputs: Vec<(Type, Option<&Semantic>)> = vec![(f.ret, f.ret_semantic.as_ref())];
    outputs.extend(f.params.iter().filter(|p| p.dir != ParamDir::In).map(|p| (p.ty, p.semantic.as_ref())));
    let mut steps = 0;
    while let Some((ty, sem)) = outputs.pop() {
        steps += 1;
        if steps > 4096 {
            break;
        }
        if let Some(s) = sem {
            if s.base == "TEXCOORD" && s.index.is_some_and(|i| i > GLSLV_MAX_TEXCOORD) {
                out.push(
                    Diagnostic::warning(
                        codes::W_PROFILE_LIMIT,
                        format!(
                            "vertex output `{}`: glslv (RetroArch's vertex profile on most GPUs) rejects a TEXCOORD \
                             index above {GLSLV_MAX_TEXCOORD}; only gp4vp/gp5vp (NVIDIA GPUs) compiled it",
                            s.text
                        ),
                    )
                    .with_primary(s.span, ""),
                );
            }
        }
        if let Type::Struct(id) = ty {
            outputs.extend(module.struct_def(id).fields.iter().map(|fd| (fd.ty, fd.semantic.as_ref())));
        }
    }
    out
}
