//! Porting pass: RetroArch's Cg runtime names become the values its slang runtime
//! provides (an IR rewrite of a stage).
//!
//! A member of a bound texture struct (`IN.video_size`, `ORIG.texture`,
//! `PASS2.texture_size`, `IN.mvp_matrix`, `IN.tex_coord`) and a name bound to
//! `modelViewProj` become [`Ported::Runtime`] nodes: a uniform (`SourceSize`,
//! `OriginalSize`, `PassOutputSize1`, `MVP`, `FrameCount`...), a texture, a vertex
//! attribute, or zero (`IN.frame_rotation`, which RetroArch's Cg runtime never set).
//! Members the runtime never bound, and vertex attributes read in the fragment stage,
//! are errors here (E0402) and read as zero. The rule table is [`member_value`]; the
//! writer and its plans only print and count the nodes. It never changes anything
//! else: parameters, samplers and varyings keep their names (the writer spells those
//! from the bindings).

use super::pipeline::StagePort;
use super::semantics::{Binding, Bindings};
use crate::codes;
use crate::ir::{Attribute, Expr, ExprKind, Exprs, Function, Handle, Module, Ported, RuntimeValue, Stage, Type, Var};
use crate::retro::{CgTextureStruct, Texture, Uniform};
use grammar::Diagnostic;
use std::borrow::Cow;

/// What a member of a texture struct reads in slang: a runtime value, or why none.
pub fn member_value(ts: &CgTextureStruct, field: &str, stage: Stage) -> Result<RuntimeValue, String> {
    let input = matches!(ts, CgTextureStruct::Input);
    let texture = || match ts {
        CgTextureStruct::Input => Texture::Source,
        CgTextureStruct::Texture(t) => t.clone(),
    };
    Ok(match field {
        "video_size" | "texture_size" => RuntimeValue::Uniform(Uniform::Size(texture())),
        "output_size" if input => RuntimeValue::Uniform(Uniform::OutputSize),
        "frame_count" if input => RuntimeValue::Uniform(Uniform::FrameCount),
        "frame_direction" if input => RuntimeValue::Uniform(Uniform::FrameDirection),
        "frame_rotation" if input => RuntimeValue::Zero,
        "mvp_matrix" if input => RuntimeValue::Uniform(Uniform::Mvp),
        // RetroArch's Cg runtime fed the POSITION attribute to `IN.vertex_coord` by name.
        "vertex_coord" if input && stage == Stage::Vertex => RuntimeValue::Attribute(Attribute::Position),
        "texture" => RuntimeValue::Texture(texture()),
        "tex_coord" | "lut_tex_coord" if stage == Stage::Vertex => RuntimeValue::Attribute(Attribute::TexCoord),
        "tex_coord" | "lut_tex_coord" => {
            return Err(format!("`.{field}` is a vertex attribute; it cannot be read in the fragment stage"))
        }
        other => {
            let owner = match ts {
                CgTextureStruct::Input => "IN".to_owned(),
                CgTextureStruct::Texture(t) => t.sampler_name(),
            };
            return Err(format!("`{owner}.{other}`: the RetroArch runtime bound no such member"));
        }
    })
}

/// Rewrites the stage's runtime names into [`Ported::Runtime`] nodes; borrows the
/// module unchanged when it reads none. Only what the writer prints is looked at: the
/// functions the entry point reaches and the global initialisers.
pub fn name_runtime_values<'m>(module: &'m Module, port: &mut StagePort) -> Cow<'m, Module> {
    let Some(entry) = module.entry_point.as_ref().map(|e| e.function) else { return Cow::Borrowed(module) };
    let mut out: Option<Module> = None;
    let mut apply = |out: &mut Option<Module>, f: Option<Handle<Function>>, found: Vec<Found>| {
        if found.is_empty() {
            return;
        }
        let m = out.get_or_insert_with(|| module.clone());
        for (h, value) in found {
            let exprs = match f {
                Some(f) => &mut m.functions[f].exprs,
                None => &mut m.global_exprs,
            };
            let value = value.unwrap_or_else(|why| {
                let d = Diagnostic::error(codes::E_UNSUPPORTED, why).with_primary(exprs.span(h), "");
                if !port.diagnostics.contains(&d) {
                    port.diagnostics.push(d);
                }
                RuntimeValue::Zero
            });
            exprs.get_mut(h).kind = ExprKind::Ported(Ported::Runtime(value));
        }
    };
    for f in module.reachable_functions(entry) {
        let func = &module.functions[f];
        let mut roots = Vec::new();
        if let Some(body) = &func.body {
            body.roots(&mut roots);
        }
        let found = runtime_names(module, &func.exprs, &roots, &port.bindings, f == entry, port.stage);
        apply(&mut out, Some(f), found);
    }
    let roots: Vec<Handle<Expr>> = module.globals.iter().filter_map(|(_, g)| g.init).collect();
    let found = runtime_names(module, &module.global_exprs, &roots, &port.bindings, false, port.stage);
    apply(&mut out, None, found);
    match out {
        Some(m) => Cow::Owned(m),
        None => Cow::Borrowed(module),
    }
}

/// A node that names a runtime value, with the value (or why it has none).
type Found = (Handle<Expr>, Result<RuntimeValue, String>);

/// The nodes of the trees at `roots` that name a runtime value.
fn runtime_names(
    m: &Module,
    exprs: &Exprs,
    roots: &[Handle<Expr>],
    b: &Bindings,
    in_entry: bool,
    stage: Stage,
) -> Vec<Found> {
    // Entry parameters are bound in the entry point only; globals everywhere.
    let binding = |v: Var| match v {
        Var::Param(_) if !in_entry => None,
        Var::Local(_) => None,
        _ => b.of(v),
    };
    let mut found = Vec::new();
    for h in roots.iter().flat_map(|&r| exprs.tree(r)) {
        match &exprs[h].kind {
            ExprKind::Var(v) if matches!(binding(*v), Some(Binding::Mvp)) => {
                found.push((h, Ok(RuntimeValue::Uniform(Uniform::Mvp))));
            }
            ExprKind::Member { base, field } => {
                let (ExprKind::Var(v), Type::Struct(s)) = (&exprs[*base].kind, exprs[*base].ty) else { continue };
                let Some(Binding::TextureStruct(ts)) = binding(*v) else { continue };
                let Some(name) = m.struct_def(s).fields.get(*field as usize).map(|f| f.name.as_str()) else {
                    continue;
                };
                found.push((h, member_value(ts, name, stage)));
            }
            _ => {}
        }
    }
    found
}
