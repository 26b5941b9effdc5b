//! Porting pass: uniforms and runtime values the program writes.
//!
//! In Cg a uniform parameter of the entry point (and a member of one, such as
//! `IN.frame_count`, and a global uniform) is the program's own copy: it may be assigned
//! (`float a = IN.frame_count = IN.frame_count / 20.0;`, Themaister's blinky blurs). In
//! slang the same value is a member of a push-constant block or UBO, which GLSL cannot
//! assign. This pass rewrites the IR of one stage: every written uniform place (the
//! whole parameter or global, or its chain of struct members down to the written one)
//! becomes a local of the entry point, initialised from the uniform first thing, and
//! every use of that place in the entry point reads and writes the local. The value read
//! first is the value the runtime bound, exactly as Cg's copy-in started.
//!
//! It never touches varyings, samplers or private globals, and leaves a global uniform
//! that other functions also use as it is (those reads would have to see the write).
//! Reads of an enclosing struct as a whole after the write (passing `IN` whole to a
//! helper after writing `IN.frame_count`) would not see the write; no known shader does
//! this.

use crate::ir::{Block, Builtin, Expr, ExprKind, Handle, Local, Module, ParamDir, Stmt, Type, Var};
use crate::port::semantics::{Binding, Bindings};
use std::borrow::Cow;

/// A place: its root variable and the struct members leading from it (field indices).
type Path = (Var, Vec<u32>);

/// Gives every written uniform place of the entry point a local copy.
pub fn localise_written_uniforms<'m>(module: &'m Module, bindings: &Bindings) -> Cow<'m, Module> {
    let Some(entry) = module.entry_point.as_ref().map(|e| e.function) else { return Cow::Borrowed(module) };
    let f = &module.functions[entry];
    if f.body.is_none() {
        return Cow::Borrowed(module);
    }
    let uniform = |v: Var| {
        matches!(
            bindings.of(v),
            Some(Binding::TextureStruct(_) | Binding::Mvp | Binding::Parameter(_) | Binding::Unbound)
        )
    };
    let mut written: Vec<Path> = Vec::new();
    for (_, e) in f.exprs.iter() {
        let mut targets = Vec::new();
        match &e.kind {
            ExprKind::Assign { target, .. } | ExprKind::IncDec { target, .. } => targets.push(*target),
            ExprKind::Call { function, args } => {
                let params = &module.functions[*function].params;
                targets.extend(args.iter().zip(params).filter(|(_, p)| p.dir != ParamDir::In).map(|(a, _)| *a));
            }
            ExprKind::Builtin { builtin: Builtin::Modf | Builtin::Frexp, args } => targets.extend(args.get(1)),
            ExprKind::Builtin { builtin: Builtin::Sincos, args } => targets.extend(args.iter().skip(1)),
            _ => {}
        }
        for t in targets {
            if let Some(path) = place_path(&f.exprs, t) {
                if uniform(path.0)
                    && !path_type(module, f, &path).is_some_and(holds_sampler(module))
                    && !written.contains(&path)
                {
                    written.push(path);
                }
            }
        }
    }
    // A global used by other functions keeps its meaning only as a global: leave it.
    written.retain(|(v, _)| match v {
        Var::Global(g) => !module
            .functions
            .iter()
            .any(|(h, other)| h != entry && other.exprs.iter().any(|(_, e)| e.kind == ExprKind::Var(Var::Global(*g)))),
        _ => true,
    });
    // Only the shortest written path of each root is localised (a write to `IN` whole
    // and to `IN.x` both use `IN`'s copy).
    let paths: Vec<Path> = written
        .iter()
        .filter(|(v, p)| !written.iter().any(|(w, q)| w == v && q.len() < p.len() && p.starts_with(q)))
        .cloned()
        .collect();
    if paths.is_empty() {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    let f = &mut out.functions[entry];
    let mut inits = Vec::new();
    for path in &paths {
        let Some(ty) = path_type(module, &module.functions[entry], path) else { continue };
        let uses: Vec<Handle<Expr>> =
            f.exprs.iter().filter(|(h, _)| path_of(&f.exprs, *h).as_ref() == Some(path)).map(|(h, _)| h).collect();
        let Some(&first) = uses.first() else { continue };
        let span = f.exprs.span(first);
        let name = local_name(module, &module.functions[entry], path);
        let local = f.locals.append(Local { name, ty, is_const: false, span });
        // The initialiser reads the uniform through a fresh copy of the path.
        let mut init = f.exprs.append(Expr { kind: ExprKind::Var(path.0), ty: var_type(module, f, path.0) }, span);
        for &field in &path.1 {
            let Type::Struct(s) = f.exprs[init].ty else { break };
            let fty = module.struct_def(s).fields[field as usize].ty;
            init = f.exprs.append(Expr { kind: ExprKind::Member { base: init, field }, ty: fty }, span);
        }
        for h in uses {
            f.exprs.get_mut(h).kind = ExprKind::Var(Var::Local(local));
        }
        inits.push((Stmt::Local { local, init: Some(init) }, span));
    }
    if let Some(body) = f.body.as_mut() {
        let rest = std::mem::take(&mut body.stmts);
        *body = Block { stmts: inits.into_iter().chain(rest).collect() };
    }
    Cow::Owned(out)
}

/// The variable and member chain `h` names, when it is exactly that (no index or
/// swizzle at the top: those are parts of the place, handled by its prefix).
fn path_of(exprs: &crate::ir::Exprs, h: Handle<Expr>) -> Option<Path> {
    match &exprs[h].kind {
        ExprKind::Var(v) => Some((*v, Vec::new())),
        ExprKind::Member { base, field } => {
            let (v, mut p) = path_of(exprs, *base)?;
            p.push(*field);
            Some((v, p))
        }
        _ => None,
    }
}

/// The member chain a written place goes through, stripped of indexing and swizzles.
fn place_path(exprs: &crate::ir::Exprs, h: Handle<Expr>) -> Option<Path> {
    let mut h = h;
    loop {
        match &exprs[h].kind {
            ExprKind::Var(_) | ExprKind::Member { .. } => return path_of(exprs, h),
            ExprKind::Index { base, .. } | ExprKind::Swizzle { base, .. } | ExprKind::MatrixElements { base, .. } => {
                h = *base
            }
            _ => return None,
        }
    }
}

fn var_type(module: &Module, f: &crate::ir::Function, v: Var) -> Type {
    match v {
        Var::Local(l) => f.locals[l].ty,
        Var::Param(i) => f.params.get(i as usize).map_or(Type::Void, |p| p.ty),
        Var::Global(g) => module.globals[g].ty,
    }
}

fn path_type(module: &Module, f: &crate::ir::Function, path: &Path) -> Option<Type> {
    let mut ty = var_type(module, f, path.0);
    for &field in &path.1 {
        let Type::Struct(s) = ty else { return None };
        ty = module.struct_def(s).fields.get(field as usize)?.ty;
    }
    Some(ty)
}

/// Whether a value of the type holds a sampler (such a struct is no value in slang).
fn holds_sampler(module: &Module) -> impl Fn(Type) -> bool + '_ {
    move |ty| {
        let mut work = vec![ty];
        let mut steps = 0;
        while let Some(t) = work.pop() {
            steps += 1;
            if t.is_sampler() || steps > 4096 {
                return true;
            }
            match t {
                Type::Struct(s) => work.extend(module.struct_def(s).fields.iter().map(|f| f.ty)),
                Type::Array(a) => work.push(module.array_type(a).elem),
                _ => {}
            }
        }
        false
    }
}

/// `IN_frame_count`: the root's name and the members', joined (the names pass makes it
/// unique and GLSL-legal).
fn local_name(module: &Module, f: &crate::ir::Function, path: &Path) -> String {
    let mut name = match path.0 {
        Var::Local(l) => f.locals[l].name.clone(),
        Var::Param(i) => f.params.get(i as usize).map_or_else(|| "uniform".to_owned(), |p| p.name.clone()),
        Var::Global(g) => module.globals[g].name.clone(),
    };
    let mut ty = var_type(module, f, path.0);
    for &field in &path.1 {
        let Type::Struct(s) = ty else { break };
        let Some(fd) = module.struct_def(s).fields.get(field as usize) else { break };
        name.push('_');
        name.push_str(&fd.name);
        ty = fd.ty;
    }
    name
}
