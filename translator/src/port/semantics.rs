//! Porting pass: RetroArch semantic mapping.
//!
//! Decides, for every entry-point parameter and global of one stage, what the RetroArch
//! runtime bound to it and what replaces it in slang: texture structs (`IN`, `ORIG`,
//! `PASSk`, `PASSPREVk`, `PREVk`, `FEEDBACK`, aliases), `modelViewProj`, samplers
//! (`TEXUNIT0`, LUTs), parameters, and uniforms nothing binds. It only classifies; the
//! writer turns the classification into text. Names the runtime would not have bound in
//! this pass are errors (E04xx) that say what the runtime would have done.

use crate::codes;
use crate::ir::{Global, Handle, Module, Param, ParamDir, Scalar, Storage, Type, Var};
use crate::retro::{texture_struct, CgTextureStruct, PassContext, Texture};
use grammar::Diagnostic;
use std::collections::{BTreeMap, HashSet};

/// What an entry parameter or global stands for in slang.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// `IN`, `ORIG`, `PASS2`, ...: members map to sizes, samplers, counters.
    TextureStruct(CgTextureStruct),
    /// `modelViewProj` / `IN.mvp_matrix`: the `MVP` uniform.
    Mvp,
    /// A sampler bound to a slang texture.
    Sampler(Texture),
    /// A `#pragma parameter` uniform.
    Parameter(String),
    /// A varying input or output of the entry point (see the connector pass).
    Varying,
    /// A uniform nothing binds: it keeps its initial value (zero without one) and is
    /// emitted as a constant, with a warning.
    Unbound,
    /// A private global (static, const): emitted as a GLSL global.
    Private,
    /// A name the runtime would not have bound in this pass; already reported.
    Invalid,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bindings {
    pub params: Vec<Binding>,
    pub globals: BTreeMap<Handle<Global>, Binding>,
}

impl Bindings {
    pub fn of(&self, v: Var) -> Option<&Binding> {
        match v {
            Var::Param(i) => self.params.get(i as usize),
            Var::Global(g) => self.globals.get(&g),
            Var::Local(_) => None,
        }
    }
}

/// The `#pragma parameter` names declared in a file.
pub fn parameter_names(pragmas: &[String]) -> Vec<String> {
    pragmas
        .iter()
        .filter_map(|p| {
            let mut words = p.trim_start_matches('#').split_whitespace();
            (words.next() == Some("pragma") && words.next() == Some("parameter"))
                .then(|| words.next().map(str::to_owned))?
        })
        .collect()
}

/// Classifies the entry point's parameters and the module's globals.
pub fn bind(module: &Module, ctx: &PassContext, parameters: &[String], diags: &mut Vec<Diagnostic>) -> Bindings {
    let mut b = Bindings::default();
    let Some(entry) = &module.entry_point else { return b };
    let f = &module.functions[entry.function];
    let mut seen_source = false;
    for p in &f.params {
        // RetroArch looked IN, ORIG, PASSk... and modelViewProj up by name, `uniform` or not.
        let by_name = matches!(p.ty, Type::Struct(_)) && matches!(texture_struct(&p.name, ctx), Ok(Some(_)) | Err(_))
            || p.name == "modelViewProj";
        let binding = if p.uniform || p.ty.is_sampler() || (by_name && p.dir == ParamDir::In) {
            uniform_binding(module, &p.name, p.ty, p.semantic.as_ref(), ctx, &mut seen_source, diags, p.span, true)
        } else {
            Binding::Varying
        };
        b.params.push(binding);
    }
    let params: HashSet<&str> = parameters.iter().map(String::as_str).collect();
    for (h, g) in module.globals.iter() {
        let binding = global_binding(module, g, ctx, &params, &mut seen_source, diags);
        b.globals.insert(h, binding);
    }
    b
}

fn global_binding(
    module: &Module,
    g: &Global,
    ctx: &PassContext,
    params: &HashSet<&str>,
    seen_source: &mut bool,
    diags: &mut Vec<Diagnostic>,
) -> Binding {
    match g.storage {
        Storage::Static => return Binding::Private,
        Storage::Varying => return Binding::Varying,
        Storage::Uniform | Storage::Buffer => {}
    }
    // RetroArch set every `#pragma parameter` by name with cgGLSetParameter1f, which
    // the Cg runtime converts for integer uniforms too (`uniform int Ywidth;`).
    let numeric =
        matches!(g.ty, Type::Scalar(Scalar::Float | Scalar::Half | Scalar::Fixed | Scalar::Int | Scalar::UInt));
    if numeric && params.contains(g.name.as_str()) {
        return Binding::Parameter(g.name.clone());
    }
    uniform_binding(module, &g.name, g.ty, g.semantic.as_ref(), ctx, seen_source, diags, g.span, false)
}

#[allow(clippy::too_many_arguments)]
fn uniform_binding(
    module: &Module,
    name: &str,
    ty: Type,
    semantic: Option<&crate::ir::Semantic>,
    ctx: &PassContext,
    seen_source: &mut bool,
    diags: &mut Vec<Diagnostic>,
    span: grammar::Span,
    is_param: bool,
) -> Binding {
    if matches!(ty, Type::Matrix { rows: 4, cols: 4, .. }) && name == "modelViewProj" {
        return Binding::Mvp;
    }
    if let Type::Struct(_) = ty {
        if name == "FEEDBACK" && ctx.feedback_pass.is_none() {
            diags.push(
                Diagnostic::warning(codes::W_FEEDBACK_IS_ORIGINAL, "`FEEDBACK` without `feedback_pass` in the preset: RetroArch's Cg runtime bound the current ORIG here, so it becomes `Original`")
                    .with_primary(span, ""),
            );
        }
        match texture_struct(name, ctx) {
            Ok(Some(t)) => return Binding::TextureStruct(t),
            Ok(None) => {}
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        codes::E_UNBOUND_NAME,
                        format!("{}; the Cg runtime bound nothing to it", e.message),
                    )
                    .with_primary(span, "declared here"),
                );
                return Binding::Invalid;
            }
        }
        let _ = module;
    }
    if ty.is_sampler() {
        if semantic.is_some_and(|s| s.matches("TEXUNIT", 0)) {
            *seen_source = true;
            return Binding::Sampler(Texture::Source);
        }
        if ctx.luts.iter().any(|l| l == name) {
            return Binding::Sampler(Texture::Named(name.to_owned()));
        }
        if let Ok(Some(CgTextureStruct::Texture(t))) = texture_struct(name, ctx) {
            return Binding::Sampler(t);
        }
        if !*seen_source {
            // RetroArch bound the pass input to texture unit 0; the first sampler
            // parameter without a semantic is what cgc allocated there.
            *seen_source = true;
            diags.push(
                Diagnostic::warning(codes::W_ASSUMED_SOURCE, format!("sampler `{name}` has no TEXUNIT semantic; assuming it is the pass input (Source), as texture unit 0 was"))
                    .with_primary(span, ""),
            );
            return Binding::Sampler(Texture::Source);
        }
        if !is_param {
            // A global sampler the entry point assigns (an alias) or that stays unbound;
            // the writer resolves the alias or reports the read.
            return Binding::Private;
        }
        diags.push(
            Diagnostic::error(codes::E_UNBOUND_NAME, format!("sampler `{name}` is neither the pass input (TEXUNIT0), a LUT of the preset, nor a pass alias; the runtime bound nothing to it"))
                .with_primary(span, "declared here"),
        );
        return Binding::Unbound;
    }
    Binding::Unbound
}

/// Whether parameter `p` is an output of the entry point.
pub fn is_output(p: &Param) -> bool {
    !p.uniform && p.dir != ParamDir::In
}
