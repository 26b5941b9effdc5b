//! Porting pass: RetroArch texture structs passed whole to helper functions.
//!
//! Cg shaders hand `IN`, `ORIG`, `PASSk`, ... to their own functions as struct values
//! (`float4 blur(input IN, float2 uv)`, `sample_pass(PASS1, uv)`). In slang these names
//! are no values: their members are separate uniforms and samplers (`SourceSize`,
//! `PassOutput0`), and GLSL structs cannot hold samplers anyway. This pass rewrites the
//! IR of one stage so that such a parameter becomes one parameter per member the
//! function reads (`IN_texture`, `IN_video_size`), and every call passes those members.
//! What the runtime bound does not change: the members are read at the call site exactly
//! as the entry point would read them, and a Cg struct parameter was a copy anyway.
//!
//! A parameter is flattened when some call passes it a texture struct (an entry
//! parameter or global the [`super::semantics`] pass bound as one) or a parameter that
//! is itself flattened; the members a function needs include those its callees need
//! (Cg has no recursion, so this settles). Uses that need the struct as a value (copied
//! to a local, returned, written through `out`) stay errors (E0402).
//!
//! [`alias_copies`] runs first and handles the other way helpers reach a texture struct:
//! a global copy made at the top of the entry point (`IN_global = IN;`), which becomes
//! another name of the texture struct.

use crate::codes;
use crate::ir::{Expr, ExprKind, Function, Handle, Module, Param, ParamDir, Stmt, Type, Var};
use crate::port::semantics::{Binding, Bindings};
use grammar::Diagnostic;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// `IN_global = IN;` (crt-lottes-multipass): a global struct the entry point fills from
/// a texture struct before anything else runs, so that helpers can read `IN_global.x`
/// without a parameter. The global was a uniform nothing bound (or a static); after the
/// copy it holds exactly what the texture struct holds, so it is rebound to that
/// texture struct and the copy is dropped. Only a copy at the top level of the entry
/// point, preceded by nothing but other such copies, sampler aliases and local
/// declarations whose initialisers cannot read the global (not even in a function they
/// call), to a global written nowhere else, qualifies: then every read comes after it.
pub fn alias_copies<'m>(module: &'m Module, bindings: &mut Bindings) -> Cow<'m, Module> {
    let Some(entry) = module.entry_point.as_ref().map(|e| e.function) else { return Cow::Borrowed(module) };
    let f = &module.functions[entry];
    let Some(body) = &f.body else { return Cow::Borrowed(module) };
    // (statement index, global, texture struct binding)
    let mut copies: Vec<(usize, Handle<crate::ir::Global>, Binding)> = Vec::new();
    // Local declarations met before a copy (crt-lottes-multipass computes `pos` first):
    // a copy still qualifies when none of them reads its global.
    let mut locals_before: Vec<Handle<Expr>> = Vec::new();
    for (i, (stmt, _)) in body.stmts.iter().enumerate() {
        if let Stmt::Local { init, .. } = stmt {
            locals_before.extend(init.iter().copied());
            continue;
        }
        let Stmt::Expr(h) = stmt else { break };
        let ExprKind::Assign { op: None, target, value } = &f.exprs[*h].kind else { break };
        let ExprKind::Var(Var::Global(g)) = f.exprs[*target].kind else { break };
        let target_ty = f.exprs[*target].ty;
        if target_ty.is_sampler() {
            continue;
        }
        let source = match f.exprs[*value].kind {
            ExprKind::Var(v @ (Var::Param(_) | Var::Global(_))) => bindings.of(v).cloned(),
            _ => None,
        };
        let plain_global = matches!(bindings.of(Var::Global(g)), Some(Binding::Unbound | Binding::Private));
        match source {
            Some(b @ Binding::TextureStruct(_)) if plain_global && f.exprs[*value].ty == target_ty => {
                if locals_before.iter().any(|&e| reads_global(module, entry, e, g)) {
                    break;
                }
                copies.push((i, g, b));
            }
            _ => break,
        }
    }
    copies.retain(|&(_, g, _)| writes_to(module, g) == 1);
    if copies.is_empty() {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    if let Some(b) = out.functions[entry].body.as_mut() {
        let drop: BTreeSet<usize> = copies.iter().map(|c| c.0).collect();
        let mut i = 0;
        b.stmts.retain(|_| {
            i += 1;
            !drop.contains(&(i - 1))
        });
    }
    for (_, g, b) in copies {
        bindings.globals.insert(g, b);
    }
    Cow::Owned(out)
}

/// How many expressions in the module write to global `g` or part of it (assignments,
/// increments, `out` arguments).
/// Whether evaluating `root` (an expression of function `f`) can read global `g`,
/// directly or in a function it calls (Cg has no recursion; the walk is bounded anyway).
fn reads_global(module: &Module, f: Handle<Function>, root: Handle<Expr>, g: Handle<crate::ir::Global>) -> bool {
    let mut work = vec![(f, root)];
    let mut seen_functions = BTreeSet::new();
    let mut steps = 0usize;
    while let Some((fh, e)) = work.pop() {
        steps += 1;
        if steps > 1_000_000 {
            return true;
        }
        let func = &module.functions[fh];
        match &func.exprs[e].kind {
            ExprKind::Var(Var::Global(x)) if *x == g => return true,
            ExprKind::Call { function, .. } if seen_functions.insert(*function) => {
                let callee = &module.functions[*function];
                work.extend(callee.exprs.iter().map(|(h, _)| (*function, h)));
            }
            _ => {}
        }
        work.extend(func.exprs[e].kind.children().into_iter().map(|c| (fh, c)));
    }
    false
}

fn writes_to(module: &Module, g: Handle<crate::ir::Global>) -> usize {
    let mut n = 0;
    for (_, f) in module.functions.iter() {
        let root = |mut e: Handle<Expr>| loop {
            match &f.exprs[e].kind {
                ExprKind::Member { base, .. }
                | ExprKind::Index { base, .. }
                | ExprKind::Swizzle { base, .. }
                | ExprKind::MatrixElements { base, .. } => e = *base,
                ExprKind::Var(v) => return Some(*v),
                _ => return None,
            }
        };
        for (_, e) in f.exprs.iter() {
            let targets: Vec<Handle<Expr>> = match &e.kind {
                ExprKind::Assign { target, .. } | ExprKind::IncDec { target, .. } => vec![*target],
                ExprKind::Call { function, args } => {
                    let params = &module.functions[*function].params;
                    args.iter().zip(params).filter(|(_, p)| p.dir != ParamDir::In).map(|(a, _)| *a).collect()
                }
                _ => Vec::new(),
            };
            n += targets.into_iter().filter(|&t| root(t) == Some(Var::Global(g))).count();
        }
    }
    n
}

/// (function, parameter index) of a flattened parameter.
type Key = (Handle<Function>, u32);

/// Rewrites `module` when a texture struct is passed to a function; borrows it unchanged
/// otherwise. Entry parameters and globals keep their indices, so `bindings` stay valid.
pub fn flatten<'m>(module: &'m Module, bindings: &Bindings, diags: &mut Vec<Diagnostic>) -> Cow<'m, Module> {
    let Some(entry) = module.entry_point.as_ref().map(|e| e.function) else { return Cow::Borrowed(module) };
    let flat = flattened_params(module, entry, bindings);
    if flat.is_empty() {
        return Cow::Borrowed(module);
    }
    let mut problems = Vec::new();
    for (h, f) in module.functions.iter() {
        check_uses(module, h, f, &flat, &mut problems);
    }
    if !problems.is_empty() {
        for d in problems {
            if !diags.contains(&d) {
                diags.push(d);
            }
        }
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    let handles: Vec<Handle<Function>> = module.functions.iter().map(|(h, _)| h).collect();
    for h in handles {
        rewrite_function(module, &mut out, h, entry, &flat, diags);
    }
    Cow::Owned(out)
}

/// Whether `e`, read in `f`, is a texture struct: a bound entry parameter or global, or a
/// parameter of `f` already known to be flattened.
fn is_texture_struct(
    e: &Expr,
    f: Handle<Function>,
    entry: Handle<Function>,
    bindings: &Bindings,
    flat: &BTreeMap<Key, BTreeSet<u32>>,
) -> bool {
    if !matches!(e.ty, Type::Struct(_)) {
        return false;
    }
    match e.kind {
        ExprKind::Var(Var::Param(i)) if f == entry => {
            matches!(bindings.of(Var::Param(i)), Some(Binding::TextureStruct(_)))
        }
        ExprKind::Var(Var::Param(i)) => flat.contains_key(&(f, i)),
        ExprKind::Var(v @ Var::Global(_)) => matches!(bindings.of(v), Some(Binding::TextureStruct(_))),
        _ => false,
    }
}

/// The flattened parameters and, for each, the fields the function (and its callees)
/// read. Iterates to a fixed point over the (acyclic) call graph.
fn flattened_params(module: &Module, entry: Handle<Function>, bindings: &Bindings) -> BTreeMap<Key, BTreeSet<u32>> {
    let mut flat: BTreeMap<Key, BTreeSet<u32>> = BTreeMap::new();
    // Bounded: every round adds a parameter or a field, and both are finite.
    for _ in 0..1000 {
        let mut changed = false;
        for (h, f) in module.functions.iter() {
            for (_, e) in f.exprs.iter() {
                let ExprKind::Call { function, args } = &e.kind else { continue };
                if Some(*function) == Some(entry) || module.functions[*function].method_of.is_some() {
                    continue;
                }
                for (n, &a) in args.iter().enumerate() {
                    let key = (*function, n as u32);
                    let param_in = module.functions[*function].params.get(n).is_some_and(|p| p.dir == ParamDir::In);
                    if param_in && !flat.contains_key(&key) && is_texture_struct(&f.exprs[a], h, entry, bindings, &flat)
                    {
                        flat.insert(key, BTreeSet::new());
                        changed = true;
                    }
                }
            }
        }
        let keys: Vec<Key> = flat.keys().copied().collect();
        for (g, m) in keys {
            let mut fields = BTreeSet::new();
            for (_, e) in module.functions[g].exprs.iter() {
                match &e.kind {
                    ExprKind::Member { base, field }
                        if module.functions[g].exprs[*base].kind == ExprKind::Var(Var::Param(m)) =>
                    {
                        fields.insert(*field);
                    }
                    ExprKind::Call { function, args } => {
                        for (n, &a) in args.iter().enumerate() {
                            if module.functions[g].exprs[a].kind == ExprKind::Var(Var::Param(m)) {
                                if let Some(callee) = flat.get(&(*function, n as u32)) {
                                    fields.extend(callee.iter().copied());
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            let entry_fields = flat.entry((g, m)).or_default();
            if !fields.is_subset(entry_fields) {
                entry_fields.extend(fields);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    flat
}

/// Reports every use of a flattened parameter of `h` that needs the whole struct: only
/// member reads and passing it on to another flattened parameter can be rewritten.
fn check_uses(
    module: &Module,
    h: Handle<Function>,
    f: &Function,
    flat: &BTreeMap<Key, BTreeSet<u32>>,
    problems: &mut Vec<Diagnostic>,
) {
    let Some(body) = &f.body else { return };
    let mut stack = Vec::new();
    body.roots(&mut stack);
    let mut whole: Vec<Handle<Expr>> = stack.clone();
    while let Some(e) = stack.pop() {
        let kind = &f.exprs[e].kind;
        let kids = kind.children();
        for (n, &c) in kids.iter().enumerate() {
            let fine = match kind {
                ExprKind::Member { .. } => true,
                ExprKind::Call { function, .. } => flat.contains_key(&(*function, n as u32)),
                _ => false,
            };
            if !fine {
                whole.push(c);
            }
            stack.push(c);
        }
    }
    for e in whole {
        if let ExprKind::Var(Var::Param(i)) = f.exprs[e].kind {
            if flat.contains_key(&(h, i)) {
                let name = f.params.get(i as usize).map(|p| p.name.as_str()).unwrap_or_default();
                problems.push(
                    Diagnostic::error(
                        codes::E_UNSUPPORTED,
                        format!(
                            "`{name}` of `{}` receives a RetroArch texture struct (IN, ORIG, PASSk, ...) and is used \
                             as a whole value here; slang has its members only as separate uniforms and samplers",
                            module.functions[h].name
                        ),
                    )
                    .with_primary(f.exprs.span(e), ""),
                );
            }
        }
    }
}

/// Rewrites one function of `out` (read from the unchanged `module`): its flattened
/// parameters become per-member parameters, and calls to flattened parameters pass the
/// members.
fn rewrite_function(
    module: &Module,
    out: &mut Module,
    h: Handle<Function>,
    entry: Handle<Function>,
    flat: &BTreeMap<Key, BTreeSet<u32>>,
    diags: &mut Vec<Diagnostic>,
) {
    let f = &module.functions[h];
    // New parameter list and index maps.
    let mut params: Vec<Param> = Vec::new();
    let mut plain: BTreeMap<u32, u32> = BTreeMap::new();
    let mut member: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for (i, p) in f.params.iter().enumerate() {
        let i = i as u32;
        match (flat.get(&(h, i)), p.ty) {
            (Some(fields), Type::Struct(s)) => {
                for &j in fields {
                    let Some(field) = module.struct_def(s).fields.get(j as usize) else { continue };
                    member.insert((i, j), params.len() as u32);
                    params.push(Param {
                        name: format!("{}_{}", p.name, field.name),
                        ty: field.ty,
                        dir: ParamDir::In,
                        uniform: false,
                        is_const: false,
                        semantic: None,
                        default: None,
                        span: p.span,
                    });
                }
            }
            _ => {
                plain.insert(i, params.len() as u32);
                params.push(p.clone());
            }
        }
    }
    let renumber = |v: Var| match v {
        Var::Param(i) => Var::Param(plain.get(&i).copied().unwrap_or(i)),
        v => v,
    };
    let g = &mut out.functions[h];
    g.params = params;
    let handles: Vec<Handle<Expr>> = f.exprs.iter().map(|(e, _)| e).collect();
    for e in handles {
        let kind = f.exprs[e].kind.clone();
        match kind {
            ExprKind::Var(v) => g.exprs.get_mut(e).kind = ExprKind::Var(renumber(v)),
            ExprKind::Member { base, field } => {
                if let ExprKind::Var(Var::Param(i)) = f.exprs[base].kind {
                    if let Some(&n) = member.get(&(i, field)) {
                        g.exprs.get_mut(e).kind = ExprKind::Var(Var::Param(n));
                    }
                }
            }
            ExprKind::Call { function, args } => {
                let mut new_args = Vec::with_capacity(args.len());
                for (n, &a) in args.iter().enumerate() {
                    let Some(fields) = flat.get(&(function, n as u32)) else {
                        new_args.push(a);
                        continue;
                    };
                    let arg = &f.exprs[a];
                    let span = f.exprs.span(a);
                    let (Type::Struct(s), ExprKind::Var(v)) = (arg.ty, &arg.kind) else {
                        diags.push(
                            Diagnostic::error(
                                codes::E_UNSUPPORTED,
                                format!(
                                    "`{}` also receives RetroArch texture structs, so its struct argument must be a \
                                     variable here",
                                    module.functions[function].name
                                ),
                            )
                            .with_primary(span, ""),
                        );
                        new_args.push(a);
                        continue;
                    };
                    for &j in fields {
                        let Some(field) = module.struct_def(s).fields.get(j as usize) else { continue };
                        let inner = match *v {
                            Var::Param(i) if h != entry && member.contains_key(&(i, j)) => {
                                Expr { kind: ExprKind::Var(Var::Param(member[&(i, j)])), ty: field.ty }
                            }
                            v => {
                                let base = g.exprs.append(Expr { kind: ExprKind::Var(renumber(v)), ty: arg.ty }, span);
                                Expr { kind: ExprKind::Member { base, field: j }, ty: field.ty }
                            }
                        };
                        new_args.push(g.exprs.append(inner, span));
                    }
                }
                g.exprs.get_mut(e).kind = ExprKind::Call { function, args: new_args };
            }
            _ => {}
        }
    }
}
