//! Registers the result types of `modf` and `frexp` that naga's SPIR-V front end uses
//! without declaring them.
//!
//! glslang compiles `modf(x, out i)` to `OpExtInst ModfStruct` (and `frexp` to
//! `FrexpStruct`); naga's SPIR-V front end (naga 30) turns these into
//! `MathFunction::Modf`/`Frexp`, whose result is the predeclared `__modf_result_*` /
//! `__frexp_result_*` struct of the module's [`naga::SpecialTypes`], but never registers
//! that struct. Validation then fails with "Special type is not registered within the
//! module", and every preset with such a pass (the xBR lv2/lv3/mlv4 multipass family,
//! crt-lottes-fast) could not be rendered. The struct's members are SPIR-V's own
//! (`fract`/`whole`, `fract`/`exp`, in that order), so registering it for every float
//! shape a call takes is all that is missing.
//!
//! **Invariant:** adds types only (no expression, statement or existing type changes),
//! and only to a module that calls `modf` or `frexp`; never panics.

use naga::{Expression, MathFunction, Module, PredeclaredType, Scalar, TypeInner, VectorSize};

/// Registers the predeclared result struct of every `modf`/`frexp` in `module`; returns
/// how many it added.
pub fn register_math_results(module: &mut Module) -> usize {
    // Every call, in expression order (an argument's type may itself depend on an
    // earlier call's result, so each is registered before the next is resolved).
    let mut calls = Vec::new();
    let functions = module.functions.iter().map(|(_, f)| f).chain(module.entry_points.iter().map(|e| &e.function));
    for (i, f) in functions.enumerate() {
        for (_, e) in f.expressions.iter() {
            if let Expression::Math { fun: fun @ (MathFunction::Modf | MathFunction::Frexp), arg, .. } = *e {
                calls.push((i, fun, arg));
            }
        }
    }
    let mut added = 0;
    for (i, fun, arg) in calls {
        let f = match module.functions.iter().nth(i) {
            Some((_, f)) => f,
            None => match module.entry_points.get(i - module.functions.len()) {
                Some(e) => &e.function,
                None => continue,
            },
        };
        let Some((size, scalar)) = float_shape(module, f, arg) else { continue };
        let t = match fun {
            MathFunction::Modf => PredeclaredType::ModfResult { size, scalar },
            _ => PredeclaredType::FrexpResult { size, scalar },
        };
        if !module.special_types.predeclared_types.contains_key(&t) {
            module.generate_predeclared_type(t);
            added += 1;
        }
    }
    added
}

/// The vector size and scalar of a call's float argument (`None` when it does not
/// resolve to one).
fn float_shape(
    module: &Module,
    f: &naga::Function,
    arg: naga::Handle<Expression>,
) -> Option<(Option<VectorSize>, Scalar)> {
    // The typifier resolves every expression of the arena it is given: give it those up
    // to the argument only (a later call's result type may not be registered yet).
    let mut upto = naga::Arena::new();
    for (_, e) in f.expressions.iter().take(arg.index() + 1) {
        upto.append(e.clone(), naga::Span::UNDEFINED);
    }
    let mut typifier = naga::front::Typifier::new();
    let ctx = naga::proc::ResolveContext::with_locals(module, &f.local_variables, &f.arguments);
    typifier.grow(arg, &upto, &ctx).ok()?;
    match typifier.get(arg, &module.types) {
        TypeInner::Scalar(s) => Some((None, *s)),
        TypeInner::Vector { size, scalar } => Some((Some(*size), *scalar)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::slang::spirv_to_naga;
    use crate::validate::{glslang, Stage};

    fn fragment(body: &str) -> Vec<u32> {
        let src = format!(
            "#version 450\nlayout(location = 0) out vec4 o;\nlayout(location = 0) in vec4 v;\n\
             void main() {{ {body} }}\n"
        );
        glslang::compile(&src, Stage::Fragment).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn modf_and_frexp_of_every_shape_validate() {
        let body = "float i; vec3 i3; ivec2 e2; int e; \
                    float f = modf(v.x, i); vec3 f3 = modf(v.xyz, i3); \
                    vec2 m2 = frexp(v.xy, e2); float m = frexp(v.w, e); \
                    o = vec4(f + i, f3.x + i3.y, m2.x + float(e2.y), m + float(e));";
        let module = spirv_to_naga(&fragment(body), Stage::Fragment).unwrap_or_else(|e| panic!("{e}"));
        let types = &module.special_types.predeclared_types;
        let f32 = Scalar::F32;
        assert!(types.contains_key(&PredeclaredType::ModfResult { size: None, scalar: f32 }));
        assert!(types.contains_key(&PredeclaredType::ModfResult { size: Some(VectorSize::Tri), scalar: f32 }));
        assert!(types.contains_key(&PredeclaredType::FrexpResult { size: Some(VectorSize::Bi), scalar: f32 }));
        assert!(types.contains_key(&PredeclaredType::FrexpResult { size: None, scalar: f32 }));
    }

    #[test]
    fn a_module_without_them_gets_no_type() {
        let module = spirv_to_naga(&fragment("o = fract(v);"), Stage::Fragment).unwrap_or_else(|e| panic!("{e}"));
        assert!(module.special_types.predeclared_types.is_empty());
    }
}
