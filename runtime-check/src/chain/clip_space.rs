//! Vulkan's clip space under wgpu. A slang vertex shader is written for RetroArch's
//! Vulkan runtime, where clip-space `y = -1` is the top of the framebuffer and the
//! offscreen quad's vertex `(-1, -1)` carries texture coordinate `(0, 0)`. wgpu puts
//! `y = +1` at the top (it flips with a negative viewport height on Vulkan). Feeding the
//! shader RetroArch's vertices and letting wgpu rasterise them would store every pass
//! upside down; feeding it flipped vertices (what this chain did before) shows the
//! shader a `Position` and a `gl_Position` that RetroArch never gave it, which breaks
//! shaders that compute from them (the shared-sample blurs derive each pixel's place in
//! its 2x2 quad from `gl_Position`).
//!
//! [`to_vulkan_clip_space`] rewrites a naga module's vertex entry points so that the
//! position they output has its `y` negated on the way out, after everything the shader
//! computed: the shader sees exactly RetroArch's inputs and values, and the rasteriser
//! puts them where Vulkan would.
//!
//! **Invariant:** touches only the vertex entry points' returns, never a value the shader
//! reads; never panics (a shape it does not know is reported, not guessed).

use naga::{
    Binding, BuiltIn, Expression, Function, Handle, Module, Range, ShaderStage, Span, Statement, Type, TypeInner,
    UnaryOperator,
};

/// Where the position is in an entry point's result.
#[derive(Clone, Copy)]
enum Slot {
    /// The result itself is the position.
    Whole { vec4: Handle<Type> },
    /// Member `index` of a result struct of `len` members.
    Member { index: u32, len: u32, vec4: Handle<Type>, result: Handle<Type> },
}

fn is_position(binding: Option<&Binding>) -> bool {
    matches!(binding, Some(Binding::BuiltIn(BuiltIn::Position { .. })))
}

/// Negates the clip-space `y` of every vertex entry point's position output.
pub fn to_vulkan_clip_space(module: &mut Module) -> Result<(), String> {
    for ep in module.entry_points.iter_mut().filter(|e| e.stage == ShaderStage::Vertex) {
        let Some(result) = &ep.function.result else { continue };
        let slot = if is_position(result.binding.as_ref()) {
            Slot::Whole { vec4: result.ty }
        } else {
            match &module.types[result.ty].inner {
                TypeInner::Struct { members, .. } => {
                    let Some(index) = members.iter().position(|m| is_position(m.binding.as_ref())) else {
                        return Err(format!("vertex entry point `{}` outputs no position", ep.name));
                    };
                    Slot::Member {
                        index: index as u32,
                        len: members.len() as u32,
                        vec4: members[index].ty,
                        result: result.ty,
                    }
                }
                _ => return Err(format!("vertex entry point `{}` outputs no position", ep.name)),
            }
        };
        let body = std::mem::take(&mut ep.function.body);
        ep.function.body = rewrite_block(&mut ep.function, body, slot);
    }
    Ok(())
}

/// `block` with every `return value;` replaced by the flipped value's computation and
/// its return, recursively.
fn rewrite_block(f: &mut Function, block: naga::Block, slot: Slot) -> naga::Block {
    super::naga_blocks::rebuild(block, &mut |statement, span, out| match statement {
        Statement::Return { value: Some(value) } => {
            let (range, flipped) = flip(f, value, slot);
            out.push(Statement::Emit(range), span);
            out.push(Statement::Return { value: Some(flipped) }, span);
        }
        other => out.push(other, span),
    })
}

/// Appends the expressions that build `value` with its position's `y` negated; returns
/// them as one range to emit and the new value.
fn flip(f: &mut Function, value: Handle<Expression>, slot: Slot) -> (Range<Expression>, Handle<Expression>) {
    let mut add = |e: Expression| f.expressions.append(e, Span::UNDEFINED);
    let (position, vec4) = match slot {
        Slot::Whole { vec4 } => (None, vec4),
        Slot::Member { index, vec4, .. } => (Some(index), vec4),
    };
    let accessed = position.map(|index| add(Expression::AccessIndex { base: value, index }));
    let pos = accessed.unwrap_or(value);
    let mut comps = [0, 1, 2, 3].map(|i| add(Expression::AccessIndex { base: pos, index: i }));
    let first = accessed.unwrap_or(comps[0]);
    comps[1] = add(Expression::Unary { op: UnaryOperator::Negate, expr: comps[1] });
    let mut last = add(Expression::Compose { ty: vec4, components: comps.to_vec() });
    if let Slot::Member { index, len, result, .. } = slot {
        let flipped_pos = last;
        let components = (0..len)
            .map(|i| if i == index { flipped_pos } else { add(Expression::AccessIndex { base: value, index: i }) })
            .collect();
        last = add(Expression::Compose { ty: result, components });
    }
    (Range::new_from_bounds(first, last), last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(text: &str) -> Module {
        let mut frontend = naga::front::glsl::Frontend::default();
        frontend.parse(&naga::front::glsl::Options::from(ShaderStage::Vertex), text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn validates(module: &Module) {
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(module)
            .unwrap_or_else(|e| panic!("{e:?}"));
    }

    /// The Return of the vertex entry point, and the expression it returns.
    fn returned(module: &Module) -> Vec<Expression> {
        let f = &module.entry_points[0].function;
        let mut out = Vec::new();
        for s in f.body.iter() {
            if let Statement::Return { value: Some(v) } = s {
                out.push(f.expressions[*v].clone());
            }
        }
        out
    }

    #[test]
    fn negates_y_of_the_position_and_keeps_the_other_outputs() {
        let mut m = vertex(
            "#version 450\nlayout(location = 0) in vec4 Position;\nlayout(location = 0) out vec2 uv;\n\
             void main() { gl_Position = Position; uv = Position.xy; }\n",
        );
        let before = returned(&m);
        to_vulkan_clip_space(&mut m).expect("rewritten");
        validates(&m);
        let after = returned(&m);
        assert_eq!(before.len(), after.len());
        // The new return composes the struct again, with a position whose y is negated.
        let f = &m.entry_points[0].function;
        let Expression::Compose { components, .. } = &after[0] else { panic!("{after:?}") };
        let negated = components.iter().any(|c| match &f.expressions[*c] {
            Expression::Compose { components: p, .. } => {
                matches!(f.expressions[p[1]], Expression::Unary { op: UnaryOperator::Negate, .. })
            }
            _ => false,
        });
        assert!(negated, "{components:?}");
    }

    #[test]
    fn leaves_fragment_stages_alone() {
        let mut frontend = naga::front::glsl::Frontend::default();
        let mut m = frontend
            .parse(
                &naga::front::glsl::Options::from(ShaderStage::Fragment),
                "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n",
            )
            .expect("fragment");
        let before = format!("{:?}", m.entry_points[0].function.body);
        to_vulkan_clip_space(&mut m).expect("nothing to do");
        assert_eq!(before, format!("{:?}", m.entry_points[0].function.body));
    }
}
