//! Function-local variables that only ever hold one constant become private globals
//! initialised with it.
//!
//! glslang cannot index a constant array with a run-time index in SPIR-V, so for every
//! `const float taps[33]` read as `taps[i]` it emits an `indexable` function variable,
//! stores the whole constant into it and indexes the variable: one 33-float copy per
//! read, inside the loop. RetroArch hands that SPIR-V to the driver; wgpu hands the
//! driver what naga's SPIR-V writer makes of our naga module, in which the copies stay,
//! and NVIDIA's compiler keeps them too: ntsc-pass2-2phase ran 9x slower per frame than
//! the same pass with its tap arrays declared as (non-`const`) globals, on an H100 and
//! an H200, with the same image. A private global initialised with the constant holds
//! the same value at every read, with no copy.
//!
//! The rewrite applies to a local when every write to it is a whole-variable `Store`
//! of one and the same `Constant` (or it has that constant as its initialiser and no
//! other write), and its pointer never leaves the function (no call argument, no
//! statement this module does not know). Every read then sees that constant: after the
//! store, as before; before it, a SPIR-V function variable without initialiser is
//! undefined, so the constant is one of its allowed values. The variable's expressions
//! become the global's, in place (no handle moves), and its stores are dropped.
//!
//! **Invariant:** changes no value any invocation reads on a defined path; touches only
//! locals that pass the test above; never panics. A function holding a statement this
//! module does not model is left as it is.

use naga::{
    AddressSpace, Block, Constant, Expression, Function, GlobalVariable, Handle, LocalVariable, Module, Statement,
};
use std::collections::HashMap;

/// What one local's uses allow.
#[derive(Clone, Copy, PartialEq)]
enum Local {
    /// No write seen yet.
    Unwritten,
    /// Every write seen stores this constant.
    Holds(Handle<Constant>),
    /// Written otherwise, or its pointer escapes: left alone.
    Varies,
}

/// Rewrites every function and entry point of `module`; returns how many locals became
/// globals.
pub fn hoist_constant_locals(module: &mut Module) -> usize {
    let mut globals: HashMap<(Handle<Constant>, Handle<naga::Type>), Handle<GlobalVariable>> = HashMap::new();
    let mut count = 0;
    let mut functions: Vec<Function> = Vec::new();
    for (_, f) in module.functions.iter_mut() {
        functions.push(std::mem::take(f));
    }
    for ep in module.entry_points.iter_mut() {
        functions.push(std::mem::take(&mut ep.function));
    }
    for f in &mut functions {
        count += hoist_in(module, f, &mut globals);
    }
    let mut functions = functions.into_iter();
    for (_, f) in module.functions.iter_mut() {
        if let Some(g) = functions.next() {
            *f = g;
        }
    }
    for ep in module.entry_points.iter_mut() {
        if let Some(g) = functions.next() {
            ep.function = g;
        }
    }
    count
}

fn hoist_in(
    module: &mut Module,
    f: &mut Function,
    globals: &mut HashMap<(Handle<Constant>, Handle<naga::Type>), Handle<GlobalVariable>>,
) -> usize {
    // The local each pointer expression reaches (the variable itself, or an element).
    let mut root: HashMap<Handle<Expression>, Handle<LocalVariable>> = HashMap::new();
    for (h, e) in f.expressions.iter() {
        let base = match *e {
            Expression::LocalVariable(lv) => Some(lv),
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => root.get(&base).copied(),
            _ => None,
        };
        if let Some(lv) = base {
            root.insert(h, lv);
        }
    }
    if root.is_empty() {
        return 0;
    }
    let mut state: HashMap<Handle<LocalVariable>, Local> = HashMap::new();
    for (lv, v) in f.local_variables.iter() {
        let s = match v.init.map(|i| &f.expressions[i]) {
            None => Local::Unwritten,
            Some(&Expression::Constant(c)) => Local::Holds(c),
            Some(_) => Local::Varies,
        };
        state.insert(lv, s);
    }
    for (_, e) in f.expressions.iter() {
        // A pointer read by anything but a load or an access is not modelled.
        if let Expression::ArrayLength(p) = *e {
            if let Some(lv) = root.get(&p) {
                state.insert(*lv, Local::Varies);
            }
        }
    }
    if !scan(&f.body, f, &root, &mut state) {
        return 0;
    }
    let mut hoisted: HashMap<Handle<LocalVariable>, Handle<GlobalVariable>> = HashMap::new();
    for (lv, s) in &state {
        let Local::Holds(c) = *s else { continue };
        let var = &f.local_variables[*lv];
        if var.ty != module.constants[c].ty {
            continue;
        }
        let gv = *globals.entry((c, var.ty)).or_insert_with(|| {
            let init = module.global_expressions.append(Expression::Constant(c), naga::Span::UNDEFINED);
            let name = module.constants[c].name.clone().or_else(|| var.name.clone());
            module.global_variables.append(
                GlobalVariable {
                    name,
                    space: AddressSpace::Private,
                    binding: None,
                    ty: var.ty,
                    init: Some(init),
                    memory_decorations: Default::default(),
                },
                naga::Span::UNDEFINED,
            )
        });
        hoisted.insert(*lv, gv);
    }
    if hoisted.is_empty() {
        return 0;
    }
    let targets: Vec<Handle<Expression>> = f
        .expressions
        .iter()
        .filter_map(|(h, e)| match *e {
            Expression::LocalVariable(lv) if hoisted.contains_key(&lv) => Some(h),
            _ => None,
        })
        .collect();
    for h in &targets {
        if let Expression::LocalVariable(lv) = f.expressions[*h] {
            if let Some(gv) = hoisted.get(&lv) {
                f.expressions[*h] = Expression::GlobalVariable(*gv);
            }
        }
    }
    for lv in hoisted.keys() {
        f.local_variables[*lv].init = None;
    }
    let body = std::mem::take(&mut f.body);
    f.body = without_stores(body, &targets);
    hoisted.len()
}

/// Records every write to a local in `state`; false when a statement is one this
/// module does not model (the function is then left alone).
fn scan(
    block: &Block,
    f: &Function,
    root: &HashMap<Handle<Expression>, Handle<LocalVariable>>,
    state: &mut HashMap<Handle<LocalVariable>, Local>,
) -> bool {
    let vary = |state: &mut HashMap<Handle<LocalVariable>, Local>, p: Handle<Expression>| {
        if let Some(lv) = root.get(&p) {
            state.insert(*lv, Local::Varies);
        }
    };
    for s in block.iter() {
        match s {
            Statement::Store { pointer, value } => {
                let Some(lv) = root.get(pointer).copied() else { continue };
                let whole = matches!(f.expressions[*pointer], Expression::LocalVariable(_));
                let next = match (state.get(&lv).copied().unwrap_or(Local::Varies), &f.expressions[*value]) {
                    (Local::Unwritten, &Expression::Constant(c)) if whole => Local::Holds(c),
                    (Local::Holds(k), &Expression::Constant(c)) if whole && k == c => Local::Holds(c),
                    _ => Local::Varies,
                };
                state.insert(lv, next);
            }
            Statement::Call { arguments, .. } => {
                for a in arguments {
                    vary(state, *a);
                }
            }
            Statement::WorkGroupUniformLoad { pointer, .. } => vary(state, *pointer),
            Statement::Block(b) => {
                if !scan(b, f, root, state) {
                    return false;
                }
            }
            Statement::If { accept, reject, .. } => {
                if !scan(accept, f, root, state) || !scan(reject, f, root, state) {
                    return false;
                }
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    if !scan(&c.body, f, root, state) {
                        return false;
                    }
                }
            }
            Statement::Loop { body, continuing, .. } => {
                if !scan(body, f, root, state) || !scan(continuing, f, root, state) {
                    return false;
                }
            }
            Statement::Emit(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Return { .. }
            | Statement::Kill
            | Statement::ControlBarrier(_)
            | Statement::MemoryBarrier(_)
            | Statement::ImageStore { .. }
            | Statement::ImageAtomic { .. }
            | Statement::SubgroupBallot { .. }
            | Statement::SubgroupGather { .. }
            | Statement::SubgroupCollectiveOperation { .. } => {}
            _ => return false,
        }
    }
    true
}

/// `block` without the stores whose pointer is one of `targets`, recursively.
fn without_stores(block: Block, targets: &[Handle<Expression>]) -> Block {
    super::naga_blocks::rebuild(block, &mut |s, span, out| match s {
        Statement::Store { pointer, .. } if targets.contains(&pointer) => {}
        other => out.push(other, span),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::slang::spirv_to_naga;
    use crate::validate::{glslang, Stage};
    use rspirv::spirv::Op;

    /// A fragment stage with `decls` at file scope and `body` in `main`, through glslang
    /// and [`spirv_to_naga`] (which runs the rewrite).
    fn module(decls: &str, body: &str) -> Module {
        let src = format!(
            "#version 450\nlayout(location = 0) out vec4 o;\nlayout(location = 0) in vec2 uv;\n{decls}\n\
             void main() {{ {body} }}\n"
        );
        let words = glslang::compile(&src, Stage::Fragment).unwrap_or_else(|e| panic!("{e:?}"));
        spirv_to_naga(&words, Stage::Fragment).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Private globals with an initialiser.
    fn hoisted(m: &Module) -> usize {
        m.global_variables.iter().filter(|(_, g)| g.space == AddressSpace::Private && g.init.is_some()).count()
    }

    /// How many stores of a constant composite naga's SPIR-V writer emits for `m`: the
    /// per-read copies this module removes.
    fn composite_stores(m: &Module) -> usize {
        let mut validator =
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), crate::validate::naga::capabilities());
        let info = validator.validate(m).unwrap_or_else(|e| panic!("{e:?}"));
        let words = naga::back::spv::write_vec(m, &info, &naga::back::spv::Options::default(), None)
            .unwrap_or_else(|e| panic!("{e}"));
        let spv = rspirv::dr::load_words(&words).unwrap_or_else(|e| panic!("{e}"));
        let composites: Vec<u32> = spv
            .types_global_values
            .iter()
            .filter(|i| i.class.opcode == Op::ConstantComposite)
            .filter_map(|i| i.result_id)
            .collect();
        spv.functions
            .iter()
            .flat_map(|f| f.blocks.iter().flat_map(|b| &b.instructions))
            .filter(|i| i.class.opcode == Op::Store)
            .filter(|i| matches!(i.operands.get(1), Some(rspirv::dr::Operand::IdRef(v)) if composites.contains(v)))
            .count()
    }

    const TAPS: &str = "const float taps[5] = float[5](0.1, 0.2, 0.4, 0.2, 0.1);\n\
                        const float other[5] = float[5](1.0, 2.0, 3.0, 4.0, 5.0);";

    #[test]
    fn a_constant_array_read_with_a_loop_index_is_read_from_a_private_global() {
        let body = "float s = 0.0; for (int i = 0; i < 5; i++) { s += taps[i] * uv.x + other[i] * taps[4 - i]; } \
                    o = vec4(s);";
        let m = module(TAPS, body);
        // One global per constant, however many reads and copies glslang made.
        assert_eq!(hoisted(&m), 2);
        assert_eq!(composite_stores(&m), 0);
    }

    #[test]
    fn without_the_rewrite_naga_keeps_a_copy_per_read() {
        // What the rewrite removes: the same shader parsed without it.
        let src = format!(
            "#version 450\nlayout(location = 0) out vec4 o;\nlayout(location = 0) in vec2 uv;\n{TAPS}\n\
             void main() {{ float s = 0.0; for (int i = 0; i < 5; i++) {{ s += taps[i] * uv.x; }} o = vec4(s); }}\n"
        );
        let words = glslang::compile(&src, Stage::Fragment).unwrap_or_else(|e| panic!("{e:?}"));
        let split = crate::chain::slang::split_combined_samplers(&words).unwrap_or_else(|e| panic!("{e}"));
        let options = naga::front::spv::Options {
            adjust_coordinate_space: false,
            strict_capabilities: false,
            block_ctx_dump_prefix: None,
        };
        let mut m =
            naga::front::spv::Frontend::new(split.iter().copied(), &options).parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(composite_stores(&m) >= 1);
        assert_eq!(hoist_constant_locals(&mut m), 1);
        assert_eq!(composite_stores(&m), 0);
    }

    #[test]
    fn a_local_array_written_by_element_or_with_two_values_stays_local() {
        // Element writes.
        let m = module(TAPS, "float a[5] = taps; a[int(uv.x)] = 9.0; o = vec4(a[int(uv.y)]);");
        assert_eq!(hoisted(&m), 0);
        // Two different constants stored into one variable.
        let m = module(TAPS, "float a[5] = taps; if (uv.x > 0.5) { a = other; } o = vec4(a[int(uv.y)]);");
        assert_eq!(hoisted(&m), 0);
        // Passed to a function that may write it.
        let decls = format!("{TAPS}\nvoid bump(inout float a[5]) {{ a[0] += 1.0; }}");
        let m = module(&decls, "float a[5] = taps; bump(a); o = vec4(a[int(uv.y)]);");
        assert_eq!(hoisted(&m), 0);
    }
}
