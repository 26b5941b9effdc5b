//! Counted loops proven to terminate, so that wgpu need not bound them.
//!
//! wgpu guards every shader loop against running forever (`force_loop_bounding`): naga's
//! SPIR-V writer gives each loop a hidden 64-bit counter and an extra exit. RetroArch
//! and librashader hand glslang's SPIR-V to the driver without one. On NVIDIA the guard
//! costs far more than its instructions (most likely the driver no longer sees a fixed
//! trip count, so it cannot unroll the loop): a pass summing 16 samples in
//! `for (int i = 0; i < 16; i++)` into 3840x2160 took 5.8-5.9 ms per frame with the
//! guard and 3.1-3.2 ms without it on an H100 (librashader: 3.1-3.4 ms).
//!
//! wgpu drops the guard only through `Device::create_shader_module_trusted`, whose
//! caller must make sure that no loop of the module runs forever. [`every_loop_terminates`]
//! proves that for the one shape glslang gives a counted `for` loop, and
//! [`create_shader_module`] asks for the unguarded module only when it holds for every
//! loop of every function; any other module is created with all of wgpu's checks. The
//! shape, in naga's terms:
//!
//! - the loop body starts (after `Emit`s) with `if c { .. } else { break }` (or
//!   `if c { break } else { .. }`): the test runs first on every iteration, and `c` and
//!   its reads of the counter are evaluated there, not before the loop;
//! - `c` compares a 32-bit integer function variable `i` (read by a `Load`, or that read
//!   converted to a 32-bit float: `float(i)`) with a bound
//!   that no iteration can change: literals and constants, function arguments, reads of
//!   uniform, push-constant and handle globals, of function variables the loop never
//!   writes and of parameters when the loop writes through none, and pure arithmetic,
//!   casts, swizzles and accesses of those;
//! - the `continuing` block ends the iteration with `i = i + s` (or `i = i - s`) for a
//!   constant `s`, evaluated in that block, and nothing else in the loop writes `i` or
//!   hands its pointer to a call;
//! - `i < bound` with `+ 1` and `i > bound` with `- 1` end for every bound (the counter
//!   reaches it before it could wrap); a longer step, and `i <= bound` or
//!   `i >= bound`, only with a constant bound that leaves the step room before the
//!   type's largest (smallest) value (crt-royale's mask resizers count `i += 4` up to a
//!   constant); `float(i)` only with a step of one and a finite constant bound within
//!   2^23 (where the conversion is exact), which an unsigned counter counting down must
//!   pass at or above zero.
//!
//! A `break`, `return` or `discard` anywhere only ends the loop sooner, and a `continue`
//! goes through the increment. Loops in the functions a loop calls are checked too
//! (shaders cannot recurse).
//!
//! **Invariant:** [`every_loop_terminates`] answers `true` only for modules whose every
//! loop has the shape above (anything it does not model is `false`); never panics.
//! This module holds one of the chain's two uses of `unsafe` (the other is
//! [`super::pipeline_cache`]'s), whose precondition is that answer.

use super::naga_blocks::walk;
use naga::{
    AddressSpace, Block, Expression, Function, Handle, Literal, LocalVariable, Module, ScalarKind, Statement, TypeInner,
};

/// A shader module for `module`: without wgpu's loop guard when every loop of it is
/// proven to end ([`every_loop_terminates`]), with all of wgpu's checks otherwise.
pub fn create_shader_module(device: &wgpu::Device, label: &str, module: naga::Module) -> wgpu::ShaderModule {
    let unguarded = every_loop_terminates(&module);
    let desc = wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(module)),
    };
    if !unguarded {
        return device.create_shader_module(desc);
    }
    let mut checks = wgpu::ShaderRuntimeChecks::checked();
    checks.force_loop_bounding = false;
    // SAFETY: `create_shader_module_trusted` requires, for the checks turned off here
    // (only `force_loop_bounding`), that the module contains no infinite loop;
    // `every_loop_terminates` has just proven that every loop of it ends.
    #[allow(unsafe_code)]
    unsafe {
        device.create_shader_module_trusted(desc, checks)
    }
}

/// Whether every loop of every function and entry point of `module` is a counted loop
/// that ends (see the module documentation). `true` for a module without loops.
pub fn every_loop_terminates(module: &Module) -> bool {
    let functions = module.functions.iter().map(|(_, f)| f);
    let entries = module.entry_points.iter().map(|e| &e.function);
    functions.chain(entries).all(|f| function_loops_terminate(module, f))
}

fn function_loops_terminate(module: &Module, f: &Function) -> bool {
    let mut ok = true;
    walk(&f.body, &mut |s| {
        ok &= match s {
            Statement::Loop { body, continuing, .. } => counted_loop(module, f, body, continuing),
            other => modelled(other),
        };
    });
    ok
}

/// The statements whose effects on function variables the proof knows: `Store` and
/// `Call` write or hand out pointers; the others write none.
fn modelled(s: &Statement) -> bool {
    matches!(
        s,
        Statement::Emit(_)
            | Statement::Block(_)
            | Statement::If { .. }
            | Statement::Switch { .. }
            | Statement::Loop { .. }
            | Statement::Break
            | Statement::Continue
            | Statement::Return { .. }
            | Statement::Kill
            | Statement::ControlBarrier(_)
            | Statement::MemoryBarrier(_)
            | Statement::Store { .. }
            | Statement::ImageStore { .. }
            | Statement::Call { .. }
    )
}

/// The comparison that keeps a loop going, normalised to `counter OP bound`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stay {
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
}

impl Stay {
    fn of(op: naga::BinaryOperator) -> Option<Stay> {
        use naga::BinaryOperator as B;
        match op {
            B::Less => Some(Stay::Less),
            B::LessEqual => Some(Stay::LessEqual),
            B::Greater => Some(Stay::Greater),
            B::GreaterEqual => Some(Stay::GreaterEqual),
            _ => None,
        }
    }

    /// `!(a OP b)` on integers.
    fn negated(self) -> Stay {
        match self {
            Stay::Less => Stay::GreaterEqual,
            Stay::LessEqual => Stay::Greater,
            Stay::Greater => Stay::LessEqual,
            Stay::GreaterEqual => Stay::Less,
        }
    }

    /// `b OP a` as `a OP' b`.
    fn mirrored(self) -> Stay {
        match self {
            Stay::Less => Stay::Greater,
            Stay::LessEqual => Stay::GreaterEqual,
            Stay::Greater => Stay::Less,
            Stay::GreaterEqual => Stay::LessEqual,
        }
    }
}

/// The loop `body`/`continuing` of `f` has the counted shape and ends.
fn counted_loop(module: &Module, f: &Function, body: &Block, continuing: &Block) -> bool {
    let Some((condition, exit_on_true)) = leading_test(body) else { return false };
    let Some((counter, read, stay, bound)) = comparison(f, body, condition, exit_on_true) else { return false };
    let Some(kind) = counter_kind(module, f, counter) else { return false };
    let Some(step) = increment(module, f, continuing, counter) else { return false };
    if !counter_written_only_by_increment(f, body, continuing, counter) {
        return false;
    }
    if !(Scope { module, f, body, continuing }).invariant(bound, 0) {
        return false;
    }
    match read {
        Read::Direct => ends_without_wrapping(stay, step, integer_value(module, f, bound), kind),
        Read::AsFloat => float_bound_reached(stay, step, float_value(module, f, bound), kind),
    }
}

/// Whether `float(counter) STAY c`, the counter moving by one, leaves the loop. The
/// conversion is exact up to 2^23 in size and monotonic beyond, so a finite constant `c`
/// within 2^23 is passed long before the counter could wrap; an unsigned counter
/// counting down must pass it at or above zero.
fn float_bound_reached(stay: Stay, step: i64, bound: Option<f64>, kind: ScalarKind) -> bool {
    const EXACT: f64 = 8_388_608.0;
    let Some(c) = bound.filter(|c| c.is_finite() && c.abs() <= EXACT) else { return false };
    let unsigned = kind == ScalarKind::Uint;
    match (stay, step) {
        (Stay::Less | Stay::LessEqual, 1) => true,
        (Stay::Greater, -1) => !unsigned || c >= 0.0,
        (Stay::GreaterEqual, -1) => !unsigned || c > 0.0,
        _ => false,
    }
}

/// Whether a counter that stays in the loop while `counter STAY bound` and moves by the
/// nonzero `step` each iteration leaves it before it could wrap. A step of one towards a
/// strict bound reaches any bound; otherwise the bound must be a constant that keeps the
/// last value inside the loop a whole step from the type's end: `i < b` with `+ s` needs
/// `b <= MAX - (s - 1)`, `i <= b` needs `b <= MAX - s` (and the mirror images downwards).
fn ends_without_wrapping(stay: Stay, step: i64, bound: Option<i64>, kind: ScalarKind) -> bool {
    let (max, min) = (max_of(kind), min_of(kind));
    match stay {
        Stay::Less if step > 0 => step == 1 || bound.is_some_and(|b| b <= max - (step - 1)),
        Stay::LessEqual if step > 0 => bound.is_some_and(|b| b <= max - step),
        Stay::Greater if step < 0 => step == -1 || bound.is_some_and(|b| b >= min + (-step - 1)),
        Stay::GreaterEqual if step < 0 => bound.is_some_and(|b| b >= min - step),
        _ => false,
    }
}

/// The loop's first statement after `Emit`s, when it is `if c {..} else {break}` or
/// `if c {break} else {..}`: `c`, and whether `c` true leaves the loop.
fn leading_test(body: &Block) -> Option<(Handle<Expression>, bool)> {
    let first = body.iter().find(|s| !matches!(s, Statement::Emit(_)))?;
    let Statement::If { condition, accept, reject } = first else { return None };
    let only_break = |b: &Block| {
        let mut it = b.iter().filter(|s| !matches!(s, Statement::Emit(_)));
        matches!((it.next(), it.next()), (Some(Statement::Break), None))
    };
    if only_break(reject) {
        Some((*condition, false))
    } else if only_break(accept) {
        Some((*condition, true))
    } else {
        None
    }
}

/// Whether `e` lies in an `Emit` of `block`'s top level before the first statement
/// `stop` accepts.
fn emitted_before(block: &Block, e: Handle<Expression>, stop: impl Fn(&Statement) -> bool) -> bool {
    let index = e.index();
    for s in block.iter() {
        if stop(s) {
            return false;
        }
        if let Statement::Emit(range) = s {
            let r = range.index_range();
            if (r.start as usize..r.end as usize).contains(&index) {
                return true;
            }
        }
    }
    false
}

/// How the loop's test reads its counter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Read {
    /// `i` itself.
    Direct,
    /// `float(i)`: its conversion to a 32-bit float.
    AsFloat,
}

/// The counter that `e` reads, how, and the `Load` that reads it: a function variable
/// loaded as a whole, or that load converted to a 32-bit float.
fn counter_read(f: &Function, e: Handle<Expression>) -> Option<(Handle<LocalVariable>, Read, Handle<Expression>)> {
    if let Some(v) = loaded_local(f, e) {
        return Some((v, Read::Direct, e));
    }
    match *expr_of(f, e)? {
        Expression::As { expr, kind: ScalarKind::Float, convert: Some(4) } => {
            loaded_local(f, expr).map(|v| (v, Read::AsFloat, expr))
        }
        _ => None,
    }
}

/// `condition` (negated when it leaves the loop) as `counter OP bound`, the counter a
/// function variable read by a `Load` (or that read converted to float, [`Read`]). The
/// test, its comparison and its reads of variables must be evaluated by `Emit`s at the
/// head of `body` (before the test), so that each iteration compares the counter's
/// current value, not one read before the loop.
fn comparison(
    f: &Function,
    body: &Block,
    condition: Handle<Expression>,
    exit_on_true: bool,
) -> Option<(Handle<LocalVariable>, Read, Stay, Handle<Expression>)> {
    let at_head = |e: Handle<Expression>| emitted_before(body, e, |s| matches!(s, Statement::If { .. }));
    let mut negate = exit_on_true;
    let mut c = condition;
    if let Some(&Expression::Unary { op: naga::UnaryOperator::LogicalNot, expr }) = expr_of(f, c) {
        negate = !negate;
        c = expr;
    }
    let Some(&Expression::Binary { op, left, right }) = expr_of(f, c) else { return None };
    let reads_at_head = [left, right]
        .into_iter()
        .filter_map(|e| counter_read(f, e).map(|(_, _, load)| [e, load]))
        .flatten()
        .all(at_head);
    if !(at_head(condition) && at_head(c) && reads_at_head) {
        return None;
    }
    let mut stay = Stay::of(op)?;
    if negate {
        stay = stay.negated();
    }
    if let Some((v, read, _)) = counter_read(f, left) {
        Some((v, read, stay, right))
    } else {
        counter_read(f, right).map(|(v, read, _)| (v, read, stay.mirrored(), left))
    }
}

/// Expression `e` of `f` (`None` for a handle outside its arena: never indexed blindly).
fn expr_of(f: &Function, e: Handle<Expression>) -> Option<&Expression> {
    f.expressions.try_get(e).ok()
}

/// The function variable `e` loads, when `e` is `Load` of it as a whole.
fn loaded_local(f: &Function, e: Handle<Expression>) -> Option<Handle<LocalVariable>> {
    let Some(&Expression::Load { pointer }) = expr_of(f, e) else { return None };
    local_of(f, pointer)
}

fn local_of(f: &Function, pointer: Handle<Expression>) -> Option<Handle<LocalVariable>> {
    match *expr_of(f, pointer)? {
        Expression::LocalVariable(v) => Some(v),
        _ => None,
    }
}

/// The function variable at the root of a pointer expression (through accesses).
fn root_local(f: &Function, pointer: Handle<Expression>) -> Option<Handle<LocalVariable>> {
    match *expr_of(f, pointer)? {
        Expression::LocalVariable(v) => Some(v),
        Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => root_local(f, base),
        _ => None,
    }
}

/// The counter's scalar kind, when it is a 32-bit signed or unsigned integer.
fn counter_kind(module: &Module, f: &Function, counter: Handle<LocalVariable>) -> Option<ScalarKind> {
    let ty = f.local_variables.try_get(counter).ok()?.ty;
    match module.types.get_handle(ty).ok()?.inner {
        TypeInner::Scalar(s) if s.width == 4 && matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) => Some(s.kind),
        _ => None,
    }
}

/// `continuing`'s one top-level write of the counter, `i = i + s` or `i = i - s` with a
/// constant `s` (also `i + (-s)`): its step, nonzero and at most 2^31 either way. `None`
/// for any other shape.
fn increment(module: &Module, f: &Function, continuing: &Block, counter: Handle<LocalVariable>) -> Option<i64> {
    let mut writes = continuing.iter().filter_map(|s| match s {
        Statement::Store { pointer, value } if root_local(f, *pointer) == Some(counter) => Some((*pointer, *value)),
        _ => None,
    });
    let (pointer, value) = writes.next()?;
    if writes.next().is_some() || local_of(f, pointer) != Some(counter) {
        return None;
    }
    let Some(&Expression::Binary { op, left, right }) = expr_of(f, value) else { return None };
    // `i + 1` and its read of `i` evaluated in this block, on each iteration.
    let store = |s: &Statement| matches!(s, Statement::Store { value: v, .. } if *v == value);
    if ![value, left, right]
        .into_iter()
        .filter(|&e| loaded_local(f, e).is_some() || e == value)
        .all(|e| emitted_before(continuing, e, store))
    {
        return None;
    }
    let step = |operand| integer_value(module, f, operand);
    match op {
        naga::BinaryOperator::Add if loaded_local(f, left) == Some(counter) => step(right),
        naga::BinaryOperator::Add if loaded_local(f, right) == Some(counter) => step(left),
        naga::BinaryOperator::Subtract if loaded_local(f, left) == Some(counter) => step(right).map(|s| -s),
        _ => None,
    }
    .filter(|s| *s != 0 && s.abs() <= 1 << 31)
}

/// Nothing in the loop but the increment writes the counter or hands out its pointer.
fn counter_written_only_by_increment(
    f: &Function,
    body: &Block,
    continuing: &Block,
    counter: Handle<LocalVariable>,
) -> bool {
    let mut writes = 0usize;
    let mut escapes = false;
    let mut visit = |s: &Statement| match s {
        Statement::Store { pointer, .. } if root_local(f, *pointer) == Some(counter) => writes += 1,
        Statement::Call { arguments, .. } => {
            escapes |= arguments.iter().any(|a| root_local(f, *a) == Some(counter));
        }
        _ => {}
    };
    walk(body, &mut visit);
    walk(continuing, &mut visit);
    writes == 1 && !escapes
}

/// Expressions deeper than this are not followed (the answer is then "not invariant").
const MAX_DEPTH: usize = 32;

/// One loop of one function: what its bound may read.
struct Scope<'a> {
    module: &'a Module,
    f: &'a Function,
    body: &'a Block,
    continuing: &'a Block,
}

impl Scope<'_> {
    /// `e` has the same value on every iteration of the loop.
    fn invariant(&self, e: Handle<Expression>, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let sub = |e: Handle<Expression>| self.invariant(e, depth + 1);
        let Some(expression) = expr_of(self.f, e) else { return false };
        match expression {
            Expression::Literal(_)
            | Expression::Constant(_)
            | Expression::Override(_)
            | Expression::ZeroValue(_)
            | Expression::FunctionArgument(_) => true,
            Expression::Load { pointer } => self.read_only_place(*pointer, depth + 1),
            Expression::As { expr, .. } | Expression::Unary { expr, .. } => sub(*expr),
            Expression::Swizzle { vector, .. } => sub(*vector),
            Expression::Splat { value, .. } => sub(*value),
            Expression::AccessIndex { base, .. } => sub(*base),
            Expression::Access { base, index } => sub(*base) && sub(*index),
            Expression::Binary { left, right, .. } => sub(*left) && sub(*right),
            Expression::Select { condition, accept, reject } => sub(*condition) && sub(*accept) && sub(*reject),
            Expression::Compose { components, .. } => components.iter().all(|c| sub(*c)),
            Expression::Math { arg, arg1, arg2, arg3, .. } => {
                sub(*arg) && [arg1, arg2, arg3].into_iter().flatten().all(|a| sub(*a))
            }
            _ => false,
        }
    }

    /// A place the loop cannot write: a uniform, push-constant or handle global, or a
    /// function variable that nothing in the loop writes or hands to a call (with
    /// invariant indices on the way).
    fn read_only_place(&self, pointer: Handle<Expression>, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let (f, body, continuing) = (self.f, self.body, self.continuing);
        let Some(place) = expr_of(f, pointer) else { return false };
        match place {
            Expression::GlobalVariable(g) => self.module.global_variables.try_get(*g).is_ok_and(|v| {
                matches!(v.space, AddressSpace::Uniform | AddressSpace::Immediate | AddressSpace::Handle)
            }),
            Expression::LocalVariable(v) => !written_in_loop(f, body, continuing, *v),
            // glslang passes every parameter through a pointer to a copy the caller made;
            // only a write through a pointer parameter could change what it points at.
            Expression::FunctionArgument(_) => !writes_through_arguments(f, body, continuing),
            Expression::AccessIndex { base, .. } => self.read_only_place(*base, depth + 1),
            Expression::Access { base, index } => {
                self.read_only_place(*base, depth + 1) && self.invariant(*index, depth + 1)
            }
            _ => false,
        }
    }
}

fn written_in_loop(f: &Function, body: &Block, continuing: &Block, v: Handle<LocalVariable>) -> bool {
    loop_writes(body, continuing, |p| root_local(f, p) == Some(v))
}

/// Whether the loop stores through a pointer `hits` accepts or hands one to a call.
fn loop_writes(body: &Block, continuing: &Block, hits: impl Fn(Handle<Expression>) -> bool) -> bool {
    let mut writes = false;
    let mut visit = |s: &Statement| match s {
        Statement::Store { pointer, .. } => writes |= hits(*pointer),
        Statement::Call { arguments, .. } => writes |= arguments.iter().any(|a| hits(*a)),
        _ => {}
    };
    walk(body, &mut visit);
    walk(continuing, &mut visit);
    writes
}

/// Whether the loop stores through a pointer parameter of `f` or hands one to a call.
fn writes_through_arguments(f: &Function, body: &Block, continuing: &Block) -> bool {
    loop_writes(body, continuing, |p| argument_root(f, p, 0))
}

/// A pointer expression rooted at one of `f`'s parameters (through accesses).
fn argument_root(f: &Function, pointer: Handle<Expression>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    match expr_of(f, pointer) {
        Some(Expression::FunctionArgument(_)) => true,
        Some(&(Expression::Access { base, .. } | Expression::AccessIndex { base, .. })) => {
            argument_root(f, base, depth + 1)
        }
        _ => false,
    }
}

/// The value of a 32-bit integer literal or constant, or of such a value reinterpreted
/// as the other 32-bit integer type.
fn integer_value(module: &Module, f: &Function, e: Handle<Expression>) -> Option<i64> {
    match expr_of(f, e)? {
        // glslang writes `++u` on a `uint` as `u + uint(1)`: a reinterpretation (or a
        // 32-bit conversion, the same on integers) of an integer constant.
        Expression::As { expr, kind, convert: None | Some(4) } => {
            let v = integer_value(module, f, *expr)?;
            match kind {
                ScalarKind::Uint => Some(v.rem_euclid(1 << 32)),
                ScalarKind::Sint => Some(i64::from(v.rem_euclid(1 << 32) as u32 as i32)),
                _ => None,
            }
        }
        _ => match literal_of(module, f, e)? {
            Literal::I32(v) => Some(i64::from(v)),
            Literal::U32(v) => Some(i64::from(v)),
            _ => None,
        },
    }
}

/// The value of a 32-bit float literal or constant.
fn float_value(module: &Module, f: &Function, e: Handle<Expression>) -> Option<f64> {
    match literal_of(module, f, e)? {
        Literal::F32(v) => Some(f64::from(v)),
        _ => None,
    }
}

/// The literal `e` is: a literal, or a module constant initialised by one.
fn literal_of(module: &Module, f: &Function, e: Handle<Expression>) -> Option<Literal> {
    match expr_of(f, e)? {
        Expression::Literal(l) => Some(*l),
        Expression::Constant(c) => {
            let init = module.constants.try_get(*c).ok()?.init;
            match module.global_expressions.try_get(init).ok()? {
                Expression::Literal(l) => Some(*l),
                _ => None,
            }
        }
        _ => None,
    }
}

fn max_of(kind: ScalarKind) -> i64 {
    if kind == ScalarKind::Uint {
        i64::from(u32::MAX)
    } else {
        i64::from(i32::MAX)
    }
}

fn min_of(kind: ScalarKind) -> i64 {
    if kind == ScalarKind::Uint {
        0
    } else {
        i64::from(i32::MIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The fragment stage of a one-pass slang shader whose `main` body is `body`, through
    /// glslang and naga's SPIR-V front end as the chain compiles it.
    fn fragment(body: &str) -> naga::Module {
        let text = format!(
            "#version 450\n\
             layout(push_constant) uniform Push {{ vec4 SourceSize; vec4 OutputSize; uint FrameCount; float Taps; }} params;\n\
             layout(std140, set = 0, binding = 0) uniform UBO {{ mat4 MVP; }} global;\n\
             #pragma stage vertex\n\
             layout(location = 0) in vec4 Position;\nlayout(location = 1) in vec2 TexCoord;\n\
             layout(location = 0) out vec2 vTexCoord;\n\
             void main() {{ gl_Position = global.MVP * Position; vTexCoord = TexCoord; }}\n\
             #pragma stage fragment\n\
             layout(location = 0) in vec2 vTexCoord;\nlayout(location = 0) out vec4 FragColor;\n\
             layout(set = 0, binding = 2) uniform sampler2D Source;\n\
             float grow(inout int k) {{ k += 1; return float(k); }}\n\
             float sum(int n) {{ float s = 0.0; for (int i = 0; i < n; i++) {{ s += 1.0; }} return s; }}\n\
             float sum_grow(int n) {{ float s = 0.0; for (int i = 0; i < n; i++) {{ s += grow(n); }} return s; }}\n\
             void main() {{ vec4 c = vec4(0.0); {body} FragColor = c; }}\n"
        );
        match crate::chain::slang::compile_slang(Path::new("loops.slang"), &text, None) {
            Ok(pass) => pass.fragment,
            Err(e) => panic!("the test shader does not compile: {e:?}"),
        }
    }

    fn terminates(body: &str) -> bool {
        every_loop_terminates(&fragment(body))
    }

    #[test]
    fn counted_loops_with_fixed_or_uniform_bounds_are_proven() {
        assert!(terminates("for (int i = 0; i < 16; i++) { c += texture(Source, vTexCoord + float(i) * 0.01); }"));
        assert!(terminates("for (int i = 0; i < int(params.Taps); i++) { c.x += 1.0; }"));
        assert!(terminates("for (uint i = 0u; i < params.FrameCount; ++i) { c.y += 1.0; }"));
        assert!(terminates("for (int i = 8; i > -3; i--) { c.z += float(i); }"));
        assert!(terminates("for (int i = -4; i <= 4; i++) { if (c.x > 3.0) break; c.x += 1.0; }"));
        assert!(terminates(
            "for (int i = 0; i < 4; i++) { for (int j = i; j < 4; j++) { c.x += float(j); if (j == 2) continue; } }"
        ));
        // Longer constant steps towards a constant bound with room for the step.
        assert!(terminates("for (int i = 0; i < 16; i += 4) { c.x += 1.0; }"));
        assert!(terminates("const int n = 24; const int s = 4; for (int i = 0; i < n; i += s) { c.x += 1.0; }"));
        assert!(terminates("for (int i = 0; i < 2147483646; i += 2) { c.x += 1.0; if (c.x > 9.0) break; }"));
        assert!(terminates("for (int i = 0; i <= 2147483645; i += 2) { c.x += 1.0; if (c.x > 9.0) break; }"));
        assert!(terminates("for (uint i = 30u; i > 1u; i -= 2u) { c.x += 1.0; }"));
        // The counter compared as a float, with a constant bound (snow, pal-r57shell).
        assert!(terminates("for (int i = 0; float(i) < 15.0; i++) { c.x += 1.0; }"));
        assert!(terminates("const float w = 24.0; for (int i = 0; w > float(i); ++i) { c.x += 1.0; }"));
        assert!(terminates("for (int i = 10; float(i) >= -3.5; i--) { c.x += 1.0; }"));
        assert!(terminates("for (uint i = 10u; float(i) > 0.5; i--) { c.x += 1.0; }"));
        assert!(terminates("c.x = sum(int(params.Taps));"), "a parameter the loop never writes");
        assert!(terminates("c.x = 1.0;"), "a module without loops has nothing to prove");
    }

    #[test]
    fn loops_that_might_not_end_keep_the_guard() {
        // The counter also written in the body.
        assert!(!terminates("for (int i = 0; i < 16; i++) { c.x += 1.0; i -= 1; }"));
        // The counter handed to a function that writes it.
        assert!(!terminates("for (int i = 0; i < 16; i++) { c.x += grow(i); }"));
        // A bound the loop changes, as a variable and as a parameter.
        assert!(!terminates("int n = 4; for (int i = 0; i < n; i++) { n += 1; c.x += 1.0; }"));
        assert!(!terminates("c.x = sum_grow(int(params.Taps));"));
        // The wrong direction, and a bound the counter can never pass.
        assert!(!terminates("for (int i = 0; i > -5; i++) { c.x += 1.0; }"));
        assert!(!terminates("for (int i = 0; i <= 2147483647; i++) { c.x += 1.0; if (c.x > 9.0) break; }"));
        // A float counter, a step of two, and a loop with no test at its head.
        assert!(!terminates("for (float x = 0.0; x < 4.0; x += 1.0) { c.x += x; }"));
        assert!(!terminates("for (int i = 0; i < int(params.Taps); i += 2) { c.x += 1.0; }"));
        assert!(!terminates("for (int i = 0; i < 2147483647; i += 2) { c.x += 1.0; if (c.x > 9.0) break; }"));
        assert!(!terminates("for (int i = 0; i <= 2147483646; i += 2) { c.x += 1.0; if (c.x > 9.0) break; }"));
        assert!(!terminates("for (int i = 0; i < 16; i += 0) { c.x += 1.0; if (c.x > 9.0) break; }"));
        // `float(i)` against a bound that is not a constant, too large to be exact, or below
        // an unsigned counter's zero; and with a longer step.
        assert!(!terminates("for (int i = 0; float(i) < params.Taps; i++) { c.x += 1.0; }"));
        assert!(!terminates("for (int i = 0; float(i) < 3.0e9; i++) { c.x += 1.0; if (c.x > 9.0) break; }"));
        assert!(!terminates("for (uint i = 10u; float(i) > -1.0; i--) { c.x += 1.0; if (c.x > 9.0) break; }"));
        assert!(!terminates("for (int i = 0; float(i) < 16.0; i += 2) { c.x += 1.0; }"));
        assert!(!terminates("int i = 0; while (true) { i++; if (i > 9) break; c.x += 1.0; }"));
        // One unproven loop anywhere keeps the guard for the whole module.
        assert!(!terminates(
            "for (int i = 0; i < 4; i++) { c.x += 1.0; } for (float x = 0.0; x < 4.0; x += 1.0) { c.y += x; }"
        ));
    }

    /// `module` with the leading `Emit`s of its first loop's body (`from_body`) or
    /// continuing block moved to just before the loop: the test or the increment then
    /// reads the counter once, before the loop, and the loop never ends.
    fn hoist_first_loop_emits(module: &mut naga::Module, from_body: bool) -> bool {
        for (_, f) in module.functions.iter_mut() {
            let position = f.body.iter().position(|s| matches!(s, Statement::Loop { .. }));
            let Some(k) = position else { continue };
            let mut hoisted = Block::new();
            for (s, _) in f.body.span_iter_mut() {
                if let Statement::Loop { body, continuing, .. } = s {
                    let block = if from_body { body } else { continuing };
                    let n = block.iter().take_while(|s| matches!(s, Statement::Emit(_))).count();
                    let mut rest = std::mem::take(block);
                    let tail: Vec<_> = std::mem::take(&mut rest).span_into_iter().collect();
                    for (i, (st, span)) in tail.into_iter().enumerate() {
                        if i < n {
                            hoisted.push(st, span)
                        } else {
                            block.push(st, span)
                        }
                    }
                    break;
                }
            }
            f.body.splice(k..k, hoisted);
            return true;
        }
        false
    }

    #[test]
    fn a_test_or_increment_evaluated_before_the_loop_is_refused() {
        let source = "for (int i = 0; i < 16; i++) { c.x += 1.0; }";
        assert!(every_loop_terminates(&fragment(source)));
        for from_body in [true, false] {
            let mut m = fragment(source);
            assert!(hoist_first_loop_emits(&mut m, from_body), "the shader has a loop in a function");
            assert!(
                !every_loop_terminates(&m),
                "hoisted from the {}",
                if from_body { "body" } else { "continuing block" }
            );
        }
    }
}
