//! Passes proven to write every pixel of their target, which then need not clear it.
//!
//! The chain gives a pixel that a pass leaves unwritten (outside its primitive, or
//! discarded) transparent black, as the CPU reference does ([`crate::reference::pass`]),
//! so each pass's render pass clears its target. RetroArch's Vulkan runtime does not
//! clear (`VK_ATTACHMENT_LOAD_OP_DONT_CARE`: "we will always write to the entire
//! framebuffer"). The clear costs little on a GPU, but llvmpipe fills every 64x64 tile it
//! clears with a loop of stores before the pass draws over it: super-xbr-6p-adaptive's
//! seven targets, 256x224 to 1024x896, took 1.2 ms of its 29 ms per frame in clears.
//!
//! A pass for which [`draws_every_pixel`] holds loads its target instead
//! (`LoadOp::Load`): its draw overwrites every pixel, each exactly once (the quad's two
//! triangles share an edge, which the rasteriser's fill rule gives to one of them), so
//! the image is the same to the byte without the clear. It holds when, in naga's IR of
//! the two stages as the chain compiles them (a slang file: glslang's SPIR-V through
//! naga's SPIR-V front end; a translation in memory: naga's GLSL front end):
//!
//! - the vertex entry point stores its arguments into private globals, calls the
//!   shader's `main` and returns, and its position output is read from one private place
//!   that `main` writes exactly once, in a statement of its body that no `return` comes
//!   before, with `MVP * Position`: the uniform (or push constant) member named `MVP`, a
//!   `mat4`, times the `vec4` stored from the vertex attribute at location 0; nothing
//!   else in the module stores to that place or to that `Position`, or hands a pointer
//!   into either to a call; and it outputs no clip or cull distance. The value may come
//!   through function variables, as ports from Cg write it (`OUT.position =
//!   global.MVP * Position; ... gl_Position = OUT.position;`, or the whole `out_vertex`
//!   built at once): a load of a variable is followed to the one top-level store, before
//!   the load, that writes that part of it, when nothing else in `main` could write the
//!   part. The chain draws its quad with the MVP RetroArch sets with it (offscreen:
//!   positions -1..1, the identity; the viewport pass: 0..1, the ortho projection of the
//!   unit square), which covers the whole target;
//! - the fragment stage has no `discard` (`Statement::Kill`) in any function, and no
//!   entry point writes the sample mask.
//!
//! Anything else keeps the clear. The chain never blends, and its targets have no depth.
//!
//! **Invariant:** [`draws_every_pixel`] answers `true` only for the shapes above (any
//! shape it does not model is `false`); never panics.

use super::naga_blocks::{walk, walk_statement};
use naga::{
    AddressSpace, BinaryOperator, Binding, BuiltIn, Expression, Function, GlobalVariable, Handle, LocalVariable,
    Module, ScalarKind, ShaderStage, Statement, TypeInner, VectorSize,
};
use translator::retro::semantics::BuiltinUniform;

/// Whether a pass of these two stages, drawn with the chain's quad and MVP, writes every
/// pixel of its target (see the module documentation).
pub fn draws_every_pixel(vertex: &Module, fragment: &Module) -> bool {
    position_is_mvp_times_position(vertex) && never_discards(fragment)
}

/// No `discard` anywhere in `module`, and no fragment entry point writes the sample mask.
fn never_discards(module: &Module) -> bool {
    let functions = module.functions.iter().map(|(_, f)| f);
    let entries = module.entry_points.iter().map(|e| &e.function);
    let mut kills = false;
    for f in functions.chain(entries) {
        walk(&f.body, &mut |s| kills |= matches!(s, Statement::Kill));
    }
    let masks = module.entry_points.iter().any(|e| outputs(module, &e.function, |b| matches!(b, BuiltIn::SampleMask)));
    !kills && !masks
}

/// A place in private memory: a global, or one member of it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Place {
    global: Handle<GlobalVariable>,
    member: Option<u32>,
}

/// The place `pointer` names: `global` or `global.member`.
fn place(f: &Function, pointer: Handle<Expression>) -> Option<Place> {
    match f.expressions[pointer] {
        Expression::GlobalVariable(global) => Some(Place { global, member: None }),
        Expression::AccessIndex { base, index } => match f.expressions[base] {
            Expression::GlobalVariable(global) => Some(Place { global, member: Some(index) }),
            _ => None,
        },
        _ => None,
    }
}

/// The global a pointer expression reaches through accesses, if any.
fn root_global(f: &Function, mut pointer: Handle<Expression>) -> Option<Handle<GlobalVariable>> {
    loop {
        match f.expressions[pointer] {
            Expression::GlobalVariable(g) => return Some(g),
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => pointer = base,
            _ => return None,
        }
    }
}

fn position_is_mvp_times_position(module: &Module) -> bool {
    let [entry] = module.entry_points.as_slice() else { return false };
    if entry.stage != ShaderStage::Vertex {
        return false;
    }
    let f = &entry.function;
    // The entry point: stores of its arguments, one call of `main`, its return.
    let mut position_input = None;
    let mut main = None;
    let mut returned = None;
    for s in f.body.iter() {
        match *s {
            Statement::Emit(_) => {}
            Statement::Store { pointer, value } => {
                let Expression::FunctionArgument(i) = f.expressions[value] else { return false };
                let Some(Place { global, member: None }) = place(f, pointer) else { return false };
                let argument = &f.arguments[i as usize];
                if matches!(argument.binding, Some(Binding::Location { location: 0, .. })) {
                    position_input = Some(global);
                }
            }
            Statement::Call { function, ref arguments, result: None } if arguments.is_empty() && main.is_none() => {
                main = Some(function);
            }
            Statement::Return { value: Some(v) } if returned.is_none() => returned = Some(v),
            _ => return false,
        }
    }
    let (Some(position_input), Some(main), Some(returned)) = (position_input, main, returned) else { return false };
    if !is_private_vec4(module, position_input) {
        return false;
    }
    // Clip and cull distances can cut the quad.
    if outputs(module, f, |b| matches!(b, BuiltIn::ClipDistances | BuiltIn::CullDistance)) {
        return false;
    }
    let Some(output) = returned_position(module, f, returned) else { return false };
    let main_fn = &module.functions[main];
    // `main`'s one store to the output place, with no `return` before it, of a value
    // that is `MVP * Position` (see [`resolves_to_mvp_times`]).
    for (index, s) in main_fn.body.iter().enumerate() {
        if let Statement::Store { pointer, value } = *s {
            if place(main_fn, pointer) == Some(output) {
                let body = Body { module, f: main_fn, position: position_input };
                return body.resolves_to_mvp_times(value, &[], index, 0)
                    && written_once(module, output.global, main, position_input);
            }
        }
        let mut returns = false;
        walk_statement(s, &mut |inner| returns |= matches!(inner, Statement::Return { .. }));
        if returns {
            return false;
        }
    }
    false
}

/// Deepest chain of locals [`Body::resolves_to_mvp_times`] follows.
const MAX_DEPTH: usize = 8;

/// `main`'s body, for following a value through its function variables.
struct Body<'a> {
    module: &'a Module,
    f: &'a Function,
    /// The private global the vertex attribute at location 0 is stored in.
    position: Handle<GlobalVariable>,
}

impl Body<'_> {
    /// Whether the part `path` (member indices) of the value of `e`, as the top-level
    /// statement `at` of the body sees it, is `MVP * Position`. A load of a function
    /// variable is followed to the one store that writes that part of it: a store of the
    /// variable or of a member on the way to the part, at the top level, before the
    /// load is evaluated; any other store or call that could write the part (dynamic
    /// indices could write any) makes it unknown.
    fn resolves_to_mvp_times(&self, e: Handle<Expression>, path: &[u32], at: usize, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match self.f.expressions[e] {
            Expression::Binary { .. } if path.is_empty() => is_mvp_times(self.module, self.f, e, self.position),
            Expression::Compose { ref components, .. } => match path.split_first() {
                Some((&first, rest)) => {
                    components.get(first as usize).is_some_and(|&c| self.resolves_to_mvp_times(c, rest, at, depth + 1))
                }
                None => false,
            },
            Expression::AccessIndex { base, index } => {
                let mut full = vec![index];
                full.extend_from_slice(path);
                self.resolves_to_mvp_times(base, &full, at, depth + 1)
            }
            Expression::Load { pointer } => {
                let Some((local, mut full)) = local_path(self.f, pointer) else { return false };
                full.extend(path.iter().map(|&i| Some(i)));
                let Some(loaded) = self.emitted_at(e) else { return false };
                if loaded > at {
                    return false;
                }
                let Some((stored_at, value, prefix)) = self.only_store(local, &full) else { return false };
                if stored_at >= loaded {
                    return false;
                }
                let rest: Option<Vec<u32>> = full[prefix..].iter().copied().collect();
                rest.is_some_and(|rest| self.resolves_to_mvp_times(value, &rest, stored_at, depth + 1))
            }
            _ => false,
        }
    }

    /// The top-level statement whose `Emit` evaluates `e`.
    fn emitted_at(&self, e: Handle<Expression>) -> Option<usize> {
        self.f.body.iter().position(|s| matches!(s, Statement::Emit(range) if range.clone().any(|h| h == e)))
    }

    /// The one statement of the body that writes the part `path` of `local`: a top-level
    /// store of a path that leads to it (a prefix, no dynamic index), and no other
    /// store, call or atomic that touches the part. Returns its index, the value stored
    /// and the length of its path.
    fn only_store(
        &self,
        local: Handle<LocalVariable>,
        path: &[Option<u32>],
    ) -> Option<(usize, Handle<Expression>, usize)> {
        let f = self.f;
        let overlaps = |p: &[Option<u32>]| p.iter().zip(path).all(|(a, b)| a.is_none() || b.is_none() || a == b);
        let mut writers = 0;
        let mut escapes = false;
        let mut found = None;
        for (index, s) in f.body.iter().enumerate() {
            walk_statement(s, &mut |inner| match *inner {
                Statement::Store { pointer, value } => {
                    if let Some((l, p)) = local_path(f, pointer) {
                        if l == local && overlaps(&p) {
                            writers += 1;
                            let leads = p.len() <= path.len() && p.iter().all(Option::is_some);
                            if leads && std::ptr::eq(inner, s) {
                                found = Some((index, value, p.len()));
                            }
                        }
                    }
                }
                Statement::Call { ref arguments, .. } => {
                    escapes |= arguments.iter().any(|&a| local_root(f, a) == Some(local));
                }
                Statement::Atomic { pointer, .. } => escapes |= local_root(f, pointer) == Some(local),
                _ => {}
            });
        }
        if writers == 1 && !escapes {
            found
        } else {
            None
        }
    }
}

/// A pointer into a function variable: the variable and the member path to the part
/// it points at (`None`: a dynamic index).
fn local_path(f: &Function, mut pointer: Handle<Expression>) -> Option<(Handle<LocalVariable>, Vec<Option<u32>>)> {
    let mut path = Vec::new();
    loop {
        match f.expressions[pointer] {
            Expression::LocalVariable(l) => {
                path.reverse();
                return Some((l, path));
            }
            Expression::AccessIndex { base, index } => {
                path.push(Some(index));
                pointer = base;
            }
            Expression::Access { base, .. } => {
                path.push(None);
                pointer = base;
            }
            _ => return None,
        }
    }
}

/// The function variable a pointer expression reaches through accesses, if any.
fn local_root(f: &Function, pointer: Handle<Expression>) -> Option<Handle<LocalVariable>> {
    local_path(f, pointer).map(|(l, _)| l)
}

/// Whether the entry point function `f` outputs a built-in that `which` picks: as its
/// result, or as a member of its result struct.
fn outputs(module: &Module, f: &Function, which: impl Fn(BuiltIn) -> bool) -> bool {
    let Some(result) = &f.result else { return false };
    let picked = |b: Option<&Binding>| matches!(b, Some(&Binding::BuiltIn(built_in)) if which(built_in));
    picked(result.binding.as_ref())
        || match &module.types[result.ty].inner {
            TypeInner::Struct { members, .. } => members.iter().any(|m| picked(m.binding.as_ref())),
            _ => false,
        }
}

/// Whether `global` is a private `vec4<f32>`.
fn is_private_vec4(module: &Module, global: Handle<GlobalVariable>) -> bool {
    let g = &module.global_variables[global];
    g.space == AddressSpace::Private
        && matches!(
            module.types[g.ty].inner,
            TypeInner::Vector { size: VectorSize::Quad, scalar } if scalar.kind == ScalarKind::Float && scalar.width == 4
        )
}

/// The private place the entry point's returned value takes its position from.
fn returned_position(module: &Module, f: &Function, returned: Handle<Expression>) -> Option<Place> {
    let result = f.result.as_ref()?;
    let is_position = |b: Option<&Binding>| matches!(b, Some(Binding::BuiltIn(BuiltIn::Position { .. })));
    let loaded = if is_position(result.binding.as_ref()) {
        returned
    } else {
        let TypeInner::Struct { members, .. } = &module.types[result.ty].inner else { return None };
        let index = members.iter().position(|m| is_position(m.binding.as_ref()))?;
        let Expression::Compose { ref components, .. } = f.expressions[returned] else { return None };
        *components.get(index)?
    };
    let Expression::Load { pointer } = f.expressions[loaded] else { return None };
    let p = place(f, pointer)?;
    (module.global_variables[p.global].space == AddressSpace::Private).then_some(p)
}

/// Whether `value` is `MVP * Load(position)`, `MVP` a `mat4` member of a uniform or
/// push-constant block that the chain fills with the pass's MVP.
fn is_mvp_times(module: &Module, f: &Function, value: Handle<Expression>, position: Handle<GlobalVariable>) -> bool {
    let Expression::Binary { op: BinaryOperator::Multiply, left, right } = f.expressions[value] else { return false };
    let Expression::Load { pointer: right } = f.expressions[right] else { return false };
    if place(f, right) != Some(Place { global: position, member: None }) {
        return false;
    }
    // `MVP` read as glslang's SPIR-V reads it (a load of the member) or as naga's GLSL
    // front end does (the member of the loaded block).
    let (block, index) = match f.expressions[left] {
        Expression::Load { pointer } => match f.expressions[pointer] {
            Expression::AccessIndex { base, index } => (base, index),
            _ => return false,
        },
        Expression::AccessIndex { base, index } => match f.expressions[base] {
            Expression::Load { pointer } => (pointer, index),
            _ => return false,
        },
        _ => return false,
    };
    let Expression::GlobalVariable(block) = f.expressions[block] else { return false };
    let g = &module.global_variables[block];
    if !matches!(g.space, AddressSpace::Uniform | AddressSpace::Immediate) {
        return false;
    }
    let TypeInner::Struct { members, .. } = &module.types[g.ty].inner else { return false };
    let Some(member) = members.get(index as usize) else { return false };
    let named_mvp = member.name.as_deref().and_then(BuiltinUniform::parse) == Some(BuiltinUniform::Mvp);
    let mat4 = matches!(
        module.types[member.ty].inner,
        TypeInner::Matrix { columns: VectorSize::Quad, rows: VectorSize::Quad, scalar }
            if scalar.kind == ScalarKind::Float && scalar.width == 4
    );
    named_mvp && mat4
}

/// Whether, in the whole module, `output` is stored to only once in `main` and
/// `position` only by the entry point (from its argument), and no call is handed a
/// pointer into either.
fn written_once(
    module: &Module,
    output: Handle<GlobalVariable>,
    main: Handle<Function>,
    position: Handle<GlobalVariable>,
) -> bool {
    let mut ok = true;
    let mut check = |f: &Function, is_main: bool, is_entry: bool| {
        let mut output_stores = 0;
        let touches = |p: Handle<Expression>, g: Handle<GlobalVariable>| root_global(f, p) == Some(g);
        walk(&f.body, &mut |s| match s {
            Statement::Store { pointer, .. } => {
                if touches(*pointer, output) {
                    output_stores += 1;
                }
                ok &= is_entry || !touches(*pointer, position);
            }
            Statement::Call { arguments, .. } => {
                ok &= arguments.iter().all(|&a| !touches(a, output) && !touches(a, position));
            }
            Statement::Atomic { pointer, .. } => ok &= !touches(*pointer, output) && !touches(*pointer, position),
            _ => {}
        });
        ok &= output_stores == usize::from(is_main);
    };
    for (h, f) in module.functions.iter() {
        check(f, h == main, false);
    }
    for e in &module.entry_points {
        check(&e.function, false, true);
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Both stages of a one-pass slang shader, through glslang and naga's SPIR-V front
    /// end as the chain compiles a slang file.
    fn stages(vertex_main: &str, fragment_main: &str) -> (Module, Module) {
        let text = format!(
            "#version 450\n\
             layout(push_constant) uniform Push {{ vec4 SourceSize; mat4 Other; }} params;\n\
             layout(std140, set = 0, binding = 0) uniform UBO {{ mat4 MVP; }} global;\n\
             #pragma stage vertex\n\
             layout(location = 0) in vec4 Position;\nlayout(location = 1) in vec2 TexCoord;\n\
             layout(location = 0) out vec2 vTexCoord;\n\
             void scale(inout vec4 p) {{ p.xy *= 0.5; }}\n\
             void main() {{ {vertex_main} }}\n\
             #pragma stage fragment\n\
             layout(location = 0) in vec2 vTexCoord;\nlayout(location = 0) out vec4 FragColor;\n\
             layout(set = 0, binding = 2) uniform sampler2D Source;\n\
             void cut(float x) {{ if (x < 0.0) discard; }}\n\
             void main() {{ {fragment_main} }}\n"
        );
        match crate::chain::slang::compile_slang(Path::new("coverage.slang"), &text, None) {
            Ok(pass) => (pass.vertex, pass.fragment),
            Err(e) => panic!("the test shader does not compile: {e:?}"),
        }
    }

    const VERTEX: &str = "gl_Position = global.MVP * Position; vTexCoord = TexCoord;";
    const FRAGMENT: &str = "FragColor = texture(Source, vTexCoord);";

    fn covers(vertex_main: &str, fragment_main: &str) -> bool {
        let (v, f) = stages(vertex_main, fragment_main);
        draws_every_pixel(&v, &f)
    }

    #[test]
    fn the_usual_pass_draws_every_pixel() {
        assert!(covers(VERTEX, FRAGMENT));
        assert!(covers("vTexCoord = TexCoord * 1.0001; gl_Position = global.MVP * Position;", FRAGMENT));
        assert!(covers(VERTEX, "vec4 c = texture(Source, vTexCoord); if (c.r > 0.5) { c.g = 1.0; } FragColor = c;"));
    }

    /// The same stages through naga's GLSL front end, as the chain compiles a
    /// translation held in memory (the naga dialect: separate textures and samplers).
    fn glsl_stages(vertex_main: &str, fragment_main: &str) -> (Module, Module) {
        let parse = |stage, text: &str| {
            let mut frontend = naga::front::glsl::Frontend::default();
            frontend.parse(&naga::front::glsl::Options::from(stage), text).unwrap_or_else(|e| panic!("{e:?}"))
        };
        let vertex = format!(
            "#version 450\nlayout(std140, set = 0, binding = 0) uniform UBO {{ mat4 MVP; }} global;\n\
             layout(location = 0) in vec4 Position;\nlayout(location = 1) in vec2 TexCoord;\n\
             layout(location = 0) out vec2 vTexCoord;\nvoid main() {{ {vertex_main} }}\n"
        );
        let fragment = format!(
            "#version 450\nlayout(location = 0) in vec2 vTexCoord;\nlayout(location = 0) out vec4 FragColor;\n\
             void main() {{ {fragment_main} }}\n"
        );
        (parse(ShaderStage::Vertex, &vertex), parse(ShaderStage::Fragment, &fragment))
    }

    #[test]
    fn translations_in_memory_are_proven_alike() {
        let covers = |v: &str, f: &str| {
            let (v, f) = glsl_stages(v, f);
            draws_every_pixel(&v, &f)
        };
        let fragment = "FragColor = vec4(vTexCoord, 0.0, 1.0);";
        assert!(covers(VERTEX, fragment));
        assert!(!covers(VERTEX, "if (vTexCoord.x > 0.5) discard; FragColor = vec4(1.0);"));
        assert!(!covers("gl_Position = global.MVP * Position * 0.5; vTexCoord = TexCoord;", fragment));
        assert!(!covers(&format!("{VERTEX} gl_ClipDistance[0] = -1.0;"), fragment));
    }

    /// The shapes ports from Cg write: the position through a local `out_vertex`.
    #[test]
    fn the_position_is_followed_through_function_variables() {
        let through = |body: &str| {
            let (v, f) = stages(&format!("struct V {{ vec4 position; vec2 uv; }}; {body}"), FRAGMENT);
            draws_every_pixel(&v, &f)
        };
        assert!(through("V OUT = V(global.MVP * Position, TexCoord); gl_Position = OUT.position; vTexCoord = OUT.uv;"));
        assert!(through(
            "V OUT; OUT.uv = TexCoord; OUT.position = global.MVP * Position; OUT.uv *= 2.0; \
             gl_Position = OUT.position; vTexCoord = OUT.uv;"
        ));
        assert!(through("vec4 p = global.MVP * Position; vec4 q = p; gl_Position = q; vTexCoord = TexCoord;"));
        // Written again, partly, before it is read; or read before it is written.
        assert!(!through(
            "V OUT; OUT.position = global.MVP * Position; OUT.position.y += 0.1; \
             gl_Position = OUT.position; vTexCoord = OUT.uv;"
        ));
        assert!(!through(
            "V OUT; OUT.position = vec4(0.0); gl_Position = OUT.position; \
             OUT.position = global.MVP * Position; vTexCoord = TexCoord;"
        ));
        // Written in a branch, or through a call.
        assert!(!through(
            "V OUT; OUT.position = global.MVP * Position; if (TexCoord.x > 2.0) { OUT.position = vec4(0.0); } \
             gl_Position = OUT.position; vTexCoord = TexCoord;"
        ));
        assert!(!through(
            "V OUT; OUT.position = global.MVP * Position; scale(OUT.position); \
             gl_Position = OUT.position; vTexCoord = TexCoord;"
        ));
    }

    #[test]
    fn a_discard_anywhere_keeps_the_clear() {
        assert!(!covers(VERTEX, "if (vTexCoord.x > 0.5) discard; FragColor = texture(Source, vTexCoord);"));
        assert!(!covers(VERTEX, "cut(vTexCoord.x - 0.5); FragColor = texture(Source, vTexCoord);"));
    }

    #[test]
    fn any_other_position_keeps_the_clear() {
        assert!(!covers("gl_Position = Position; vTexCoord = TexCoord;", FRAGMENT));
        assert!(!covers("gl_Position = global.MVP * (Position * 0.5); vTexCoord = TexCoord;", FRAGMENT));
        assert!(!covers("gl_Position = params.Other * Position; vTexCoord = TexCoord;", FRAGMENT));
        assert!(!covers("gl_Position = global.MVP * Position; gl_Position.x *= 0.5; vTexCoord = TexCoord;", FRAGMENT));
        assert!(!covers("gl_Position = global.MVP * Position; scale(gl_Position); vTexCoord = TexCoord;", FRAGMENT));
        assert!(!covers(
            "if (TexCoord.x > 2.0) { gl_Position = global.MVP * Position; } else { gl_Position = vec4(0.0); } \
             vTexCoord = TexCoord;",
            FRAGMENT
        ));
        assert!(!covers(
            "vTexCoord = TexCoord; if (TexCoord.x > 2.0) return; gl_Position = global.MVP * Position;",
            FRAGMENT
        ));
    }
}
