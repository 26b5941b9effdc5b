//! Takes out of `Emit` statements the expressions naga evaluates before a function runs.
//!
//! naga's IR has expressions that are in scope from a function's start (literals,
//! constants, zero values, arguments, variables: `Expression::needs_pre_emit`); an
//! `Emit` that names one is invalid ("can't be introduced - it's already in scope").
//! naga's SPIR-V front end (naga 30) emits such an expression when glslang returns an
//! `OpConstantNull` (the `return` glslang appends after a function whose every path
//! already returned: crt-lottes-fast's `CrtsMask`), so the pass could not be rendered.
//! Each `Emit` range is split around those expressions; nothing else changes.
//!
//! **Invariant:** changes `Emit` statements only, and only by dropping pre-emitted
//! expressions from them (which naga evaluates anyway); never panics.

use naga::{Block, Expression, Function, Handle, Module, Range, Statement};

/// Splits the `Emit` ranges of every function and entry point; returns how many
/// expressions it took out.
pub fn drop_pre_emitted(module: &mut Module) -> usize {
    super::naga_blocks::each_function(module, in_function)
}

fn in_function(f: &mut Function) -> usize {
    let pre: Vec<bool> = f.expressions.iter().map(|(_, e)| e.needs_pre_emit()).collect();
    if !pre.iter().any(|&p| p) {
        return 0;
    }
    let mut count = 0;
    let body = std::mem::take(&mut f.body);
    f.body = split_block(body, &pre, &mut count);
    count
}

fn split_block(block: Block, pre: &[bool], count: &mut usize) -> Block {
    super::naga_blocks::rebuild(block, &mut |s, span, out| match s {
        Statement::Emit(range) => {
            for r in split_range(range, pre, count) {
                out.push(Statement::Emit(r), span);
            }
        }
        other => out.push(other, span),
    })
}

/// The runs of `range` that are not pre-emitted (the range itself when none is).
fn split_range(range: Range<Expression>, pre: &[bool], count: &mut usize) -> Vec<Range<Expression>> {
    let handles: Vec<Handle<Expression>> = range.clone().collect();
    if !handles.iter().any(|h| pre.get(h.index()).copied().unwrap_or(false)) {
        return vec![range];
    }
    let mut out = Vec::new();
    let mut run: Option<(Handle<Expression>, Handle<Expression>)> = None;
    for h in handles {
        if pre.get(h.index()).copied().unwrap_or(false) {
            *count += 1;
            if let Some((a, b)) = run.take() {
                out.push(Range::new_from_bounds(a, b));
            }
        } else {
            run = Some(run.map_or((h, h), |(a, _)| (a, h)));
        }
    }
    if let Some((a, b)) = run {
        out.push(Range::new_from_bounds(a, b));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::slang::spirv_to_naga;
    use crate::validate::{glslang, Stage};

    #[test]
    fn a_function_whose_every_path_returns_validates() {
        // glslang appends `return <null>` after the if-chain; naga's front end emits it.
        let src = "#version 450\nlayout(location = 0) out vec4 o;\nlayout(location = 0) in vec4 v;\n\
                   vec3 pick(float x) { if (x < 0.5) { return vec3(1.0); } if (x >= 0.5) { return vec3(0.5); } \
                   if (x == x) { return vec3(0.0); } return vec3(0.25); }\n\
                   vec3 mask(float x) { if (x < 1.0) { vec3 m = vec3(x); m.x = 1.0; return m; } \
                   if (x >= 1.0) { return vec3(2.0); } }\n\
                   void main() { o = vec4(pick(v.x) + mask(v.y), 1.0); }\n";
        let words = glslang::compile(src, Stage::Fragment).unwrap_or_else(|e| panic!("{e:?}"));
        let module = spirv_to_naga(&words, Stage::Fragment).unwrap_or_else(|e| panic!("{e}"));
        assert!(!module.entry_points.is_empty());
    }

    #[test]
    fn an_emit_is_split_around_a_zero_value() {
        let mut module = Module::default();
        let f32 = module.types.insert(
            naga::Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::F32) },
            naga::Span::UNDEFINED,
        );
        let mut f = Function { result: Some(naga::FunctionResult { ty: f32, binding: None }), ..Function::default() };
        let span = naga::Span::UNDEFINED;
        let one = f.expressions.append(Expression::Literal(naga::Literal::F32(1.0)), span);
        let neg = f.expressions.append(Expression::Unary { op: naga::UnaryOperator::Negate, expr: one }, span);
        let zero = f.expressions.append(Expression::ZeroValue(f32), span);
        let sum =
            f.expressions.append(Expression::Binary { op: naga::BinaryOperator::Add, left: neg, right: zero }, span);
        f.body.push(Statement::Emit(Range::new_from_bounds(neg, sum)), span);
        f.body.push(Statement::Return { value: Some(sum) }, span);
        module.functions.append(f, span);
        let validate = |m: &Module| {
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
                .validate(m)
                .is_ok()
        };
        assert!(!validate(&module));
        assert_eq!(drop_pre_emitted(&mut module), 1);
        assert!(validate(&module));
        let (_, f) = module.functions.iter().next().unwrap_or_else(|| panic!("no function"));
        let emitted: Vec<Vec<Handle<Expression>>> = f
            .body
            .iter()
            .filter_map(|s| match s {
                Statement::Emit(r) => Some(r.clone().collect()),
                _ => None,
            })
            .collect();
        assert_eq!(emitted, vec![vec![neg], vec![sum]]);
    }
}
