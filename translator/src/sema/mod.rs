//! Semantic analysis: the spanned AST of one Cg file to the typed IR of one program.
//!
//! [`analyze`] walks the translation unit in source order (Cg, like C, declares before
//! use), resolving names through a scope stack, types through [`types`], expressions
//! and conversions through [`expr`], statements through [`stmt`], and calls through
//! [`overload`] (user functions and the standard library in one mechanism). It then
//! checks the chosen entry point: the profile's restrictions apply only to the
//! functions the entry point reaches, and recursion among them is an error.
//!
//! **Invariant:** analysis never panics and never stops at the first error: it returns
//! the module it could build together with every diagnostic (E03xx errors, W03xx
//! warnings). A module is only handed to the porting passes when no error remains.

pub mod const_eval;
pub mod convert;
pub mod effects;
mod expr;
pub mod families;
pub mod intrinsics;
pub mod limits;
pub mod overload;
pub mod profile;
pub mod programs;
mod stmt;
pub mod swizzle;
mod types;

#[cfg(test)]
mod programs_tests;
#[cfg(test)]
mod tests;

use crate::codes;
use crate::ir::{self, Exprs, Function, Handle, Local, Module, Param, Stage, Type, Var};
use grammar::ast;
use grammar::{Diagnostic, Span};
use profile::Profile;
use std::collections::{HashMap, HashSet};

pub use profile::Profile as SemaProfile;

/// What to analyse.
#[derive(Clone, Debug)]
pub struct SemaOptions {
    /// The entry point (`main_vertex`); `None` analyses declarations only.
    pub entry: Option<String>,
    pub profile: Profile,
}

impl SemaOptions {
    pub fn new(entry: impl Into<String>, stage: Stage) -> SemaOptions {
        SemaOptions { entry: Some(entry.into()), profile: Profile::default_for(stage) }
    }
}

/// Analyses `unit` for one entry point. `pragmas` are the `#pragma` lines, verbatim.
pub fn analyze(
    unit: &ast::TranslationUnit,
    pragmas: &[grammar::Pragma],
    options: &SemaOptions,
) -> (Module, Vec<Diagnostic>) {
    let mut lowerer = Lowerer::new(options.profile.clone());
    lowerer.module.pragmas = pragmas.iter().map(|p| p.text.clone()).collect();
    for item in &unit.items {
        lowerer.item(item);
    }
    let reached = options.entry.as_ref().and_then(|entry| lowerer.entry_point(entry));
    let mut diags = std::mem::take(&mut lowerer.diags);
    for (f, d) in std::mem::take(&mut lowerer.body_diags) {
        let keep = match (f, &reached) {
            (Some(f), Some(reached)) => reached.contains(&f),
            _ => true,
        };
        if keep {
            diags.push(d);
        }
    }
    if let Some(reached) = &reached {
        lowerer.check_recursion(reached);
        diags.append(&mut lowerer.diags);
    }
    (lowerer.module, diags)
}

/// A name in a scope.
#[derive(Clone, Copy, Debug)]
enum Symbol {
    Var {
        var: Var,
        ty: Type,
    },
    Type(Type),
    /// A field of `this` inside a member function.
    Field {
        index: u32,
        ty: Type,
    },
}

/// The function whose body is being lowered.
struct FnCtx {
    handle: Handle<Function>,
    params: Vec<Param>,
    locals: ir::Arena<Local>,
    exprs: Exprs,
    ret: Type,
    method_of: Option<ir::StructId>,
    loops: u32,
    switches: u32,
    /// Initialisers of `const` locals, for constant folding (array sizes, case labels).
    const_inits: HashMap<Handle<Local>, Handle<ir::Expr>>,
}

/// A function as declared, with what overload resolution needs.
struct FnEntry {
    handle: Handle<Function>,
    param_types: Vec<Type>,
    required: usize,
    profiles: Vec<String>,
}

struct Lowerer<'a> {
    module: Module,
    diags: Vec<Diagnostic>,
    profile: Profile,
    scopes: Vec<HashMap<String, Symbol>>,
    functions: HashMap<String, Vec<FnEntry>>,
    /// The AST of each user function, for specialising interface parameters.
    fn_ast: HashMap<Handle<Function>, &'a ast::Function>,
    /// Specialisations of functions with interface parameters, by concrete types.
    specialised: HashMap<(Handle<Function>, Vec<Type>), Handle<Function>>,
    stack: Vec<FnCtx>,
    /// Calls made by each function (callee, call span); global initialisers use `None`.
    calls: Vec<(Option<Handle<Function>>, Handle<Function>, Span)>,
    /// Diagnostics with the function whose body raised them (`None` outside bodies).
    body_diags: Vec<(Option<Handle<Function>>, Diagnostic)>,
    /// While a function's parameters are declared: the length of its `AttribArray`
    /// parameters (its input vertices), from its primitive or patch modifier.
    attrib_len: Option<u32>,
    /// CgFX state objects declared so far (`VertexShader vs = ...`), by name.
    state_object_names: HashMap<String, profile::Domain>,
}

impl<'a> Lowerer<'a> {
    fn new(profile: Profile) -> Lowerer<'a> {
        Lowerer {
            module: Module::default(),
            diags: Vec::new(),
            profile,
            scopes: vec![HashMap::new()],
            functions: HashMap::new(),
            fn_ast: HashMap::new(),
            specialised: HashMap::new(),
            stack: Vec::new(),
            calls: Vec::new(),
            body_diags: Vec::new(),
            attrib_len: None,
            state_object_names: HashMap::new(),
        }
    }

    // ---- diagnostics ----

    fn error(&mut self, code: &'static str, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::error(code, message).with_primary(span, ""));
    }

    fn warn(&mut self, code: &'static str, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::warning(code, message).with_primary(span, ""));
    }

    /// Records a diagnostic. Inside a function body it belongs to that function and is
    /// reported only if the entry point reaches it: NVIDIA's compiler checked only what
    /// the program uses, and real shaders (crt-royale) rely on it, e.g. helpers naming
    /// globals that only some passes declare.
    fn push(&mut self, d: Diagnostic) {
        let f = self.stack.last().map(|c| c.handle);
        self.body_diags.push((f, d));
    }

    /// A restriction of the current profile (same reachability rule).
    fn profile_error(&mut self, span: Span, message: impl Into<String>) {
        self.error(codes::E_PROFILE, span, message);
    }

    fn type_name(&self, ty: Type) -> String {
        self.module.type_name(ty)
    }

    // ---- scopes ----

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    fn lookup(&self, name: &str) -> Option<Symbol> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// Declares a name in the innermost scope; a clash there is E0310.
    fn declare(&mut self, name: &ast::Ident, symbol: Symbol) {
        let scope = self.scopes.last_mut();
        if let Some(scope) = scope {
            if scope.contains_key(&name.name) && !matches!(symbol, Symbol::Type(_)) {
                let d = Diagnostic::error(
                    codes::E_REDECLARED,
                    format!("`{}` is already declared in this scope", name.name),
                )
                .with_primary(name.span, "declared again here");
                self.diags.push(d);
                return;
            }
            scope.insert(name.name.clone(), symbol);
        }
    }

    fn at_global_scope(&self) -> bool {
        self.stack.is_empty()
    }

    // ---- expression arenas ----

    fn exprs(&mut self) -> &mut Exprs {
        match self.stack.last_mut() {
            Some(c) => &mut c.exprs,
            None => &mut self.module.global_exprs,
        }
    }

    /// Folds a scalar expression of the current arena, seeing `const` locals.
    fn fold(&self, h: Handle<ir::Expr>) -> Option<ir::Literal> {
        let inits = |l: Handle<Local>| self.stack.last().and_then(|c| c.const_inits.get(&l).copied());
        const_eval::eval_with_locals(&self.module, self.exprs_ref(), h, 0, &inits)
    }

    fn exprs_ref(&self) -> &Exprs {
        match self.stack.last() {
            Some(c) => &c.exprs,
            None => &self.module.global_exprs,
        }
    }

    // ---- items ----

    fn item(&mut self, item: &'a ast::Item) {
        match item {
            ast::Item::Declaration(d) => self.global_declaration(d),
            ast::Item::Function(f) => {
                self.function(f, None);
            }
            ast::Item::Interface(i) => self.interface(i),
            ast::Item::ConstantBuffer(cb) => self.constant_buffer(cb),
            ast::Item::Technique(t) => self.technique(t),
            ast::Item::Empty(_) | ast::Item::Error(_) => {}
        }
    }

    fn global_declaration(&mut self, d: &'a ast::Declaration) {
        if let Some((m, span)) = d.specifiers.modifiers.first() {
            let d = Diagnostic::error(
                codes::E_PROGRAM_MODIFIER,
                format!("`{}` declares a geometry or tessellation program: it belongs on a function", m.as_string()),
            )
            .with_primary(*span, "not a function");
            self.diags.push(d);
        }
        if let ast::TypeSpec::Named(id) = &d.specifiers.ty {
            if let Some(domain) = effects::state_object_domain(&id.name) {
                self.state_objects(d, domain);
                return;
            }
        }
        let Some(base) = self.decl_base_type(&d.specifiers) else { return };
        if d.specifiers.has(ast::Qualifier::Typedef) {
            for decl in &d.declarators {
                if let Some(ty) = self.array_type(base, &decl.array) {
                    self.declare(&decl.name, Symbol::Type(ty));
                }
            }
            return;
        }
        let storage = if d.specifiers.has(ast::Qualifier::Static) {
            ir::Storage::Static
        } else if d.specifiers.has(ast::Qualifier::Varying) {
            ir::Storage::Varying
        } else if d.specifiers.has(ast::Qualifier::Const) && !d.specifiers.has(ast::Qualifier::Uniform) {
            // A non-static `const` global with an initialiser is a constant, as NVIDIA's
            // compiler treated it; without one it stays a uniform.
            ir::Storage::Static
        } else {
            ir::Storage::Uniform
        };
        let is_const = d.specifiers.has(ast::Qualifier::Const);
        for decl in &d.declarators {
            self.global_variable(decl, base, storage, is_const);
        }
    }

    fn global_variable(&mut self, decl: &'a ast::Declarator, base: Type, storage: ir::Storage, is_const: bool) {
        let Some(mut ty) = self.array_type(base, &decl.array) else { return };
        let mut storage = storage;
        if is_const && storage == ir::Storage::Static && decl.init.is_none() {
            storage = ir::Storage::Uniform;
        }
        let init = match &decl.init {
            Some(init) => {
                let h = self.initializer(init, ty);
                if let Some(h) = h {
                    ty = self.exprs_ref()[h].ty;
                }
                h
            }
            None => None,
        };
        let semantic = decl.semantic.as_ref().map(semantic);
        let g = self.module.globals.append(ir::Global {
            name: decl.name.name.clone(),
            ty,
            storage,
            is_const,
            semantic,
            init,
            span: decl.name.span,
        });
        self.declare(&decl.name, Symbol::Var { var: Var::Global(g), ty });
    }

    fn constant_buffer(&mut self, cb: &'a ast::ConstantBuffer) {
        for d in &cb.members {
            let Some(base) = self.decl_base_type(&d.specifiers) else { continue };
            for decl in &d.declarators {
                self.global_variable(decl, base, ir::Storage::Buffer, false);
            }
        }
    }

    // ---- functions ----

    /// Declares (and, with a body, defines) a function; for a member function `method_of`
    /// names the struct. Returns the function's handle.
    fn function(&mut self, f: &'a ast::Function, method_of: Option<ir::StructId>) -> Option<Handle<Function>> {
        let ret = self.resolve_type(&f.specifiers.ty)?;
        let shape = programs::shape(&f.specifiers.modifiers, &mut self.diags);
        let mut params = Vec::new();
        if let Some(s) = method_of {
            params.push(Param {
                name: "this".into(),
                ty: Type::Struct(s),
                dir: ir::ParamDir::InOut,
                uniform: false,
                is_const: false,
                semantic: None,
                default: None,
                span: f.name.span,
            });
        }
        let mut ok = true;
        self.attrib_len = shape.attrib_len();
        for p in &f.params {
            match self.parameter(p) {
                Some(p) => params.push(p),
                None => ok = false,
            }
        }
        self.attrib_len = None;
        if !ok {
            return None;
        }
        for p in &f.specifiers.profiles {
            if !profile::is_profile_name(&p.name) {
                self.warn(codes::W_IGNORED_QUALIFIER, p.span, format!("`{}` is not a known Cg profile name", p.name));
            }
        }
        let profiles: Vec<String> = f.specifiers.profiles.iter().map(|p| p.name.clone()).collect();
        let param_types: Vec<Type> = params.iter().map(|p| p.ty).collect();
        let required = params.iter().take_while(|p| p.default.is_none()).count();
        let key = qualified_name(&self.module, method_of, &f.name.name);

        // A prototype followed by its definition share one function.
        let existing = self.functions.get(&key).and_then(|list| {
            list.iter().find(|e| e.param_types == param_types && e.profiles == profiles).map(|e| e.handle)
        });
        let handle = match existing {
            Some(h) => {
                if f.body.is_some() && self.module.functions[h].body.is_some() {
                    let d = Diagnostic::error(
                        codes::E_REDECLARED,
                        format!("function `{}` is defined twice with the same parameter types", f.name.name),
                    )
                    .with_primary(f.name.span, "defined again here")
                    .with_secondary(self.module.functions[h].span, "first definition");
                    self.push(d);
                    return Some(h);
                }
                h
            }
            None => {
                let h = self.module.functions.append(Function {
                    name: f.name.name.clone(),
                    profiles: profiles.clone(),
                    params: params.clone(),
                    ret,
                    ret_semantic: f.semantic.as_ref().map(semantic),
                    locals: ir::Arena::new(),
                    exprs: Exprs::default(),
                    body: None,
                    method_of,
                    span: f.name.span,
                });
                self.functions.entry(key).or_default().push(FnEntry { handle: h, param_types, required, profiles });
                if let Some(s) = method_of {
                    self.module.structs[s.0 as usize].methods.push(h);
                }
                h
            }
        };
        if f.body.is_some() {
            self.fn_ast.insert(handle, f);
            self.function_body(handle, f, params, ret, method_of);
        }
        Some(handle)
    }

    fn parameter(&mut self, p: &'a ast::Parameter) -> Option<Param> {
        let base = self.decl_base_type(&p.specifiers)?;
        let ty = self.array_type(base, &p.array)?;
        let q = |x| p.specifiers.has(x);
        let dir = if q(ast::Qualifier::InOut) || (q(ast::Qualifier::In) && q(ast::Qualifier::Out)) {
            ir::ParamDir::InOut
        } else if q(ast::Qualifier::Out) {
            ir::ParamDir::Out
        } else {
            ir::ParamDir::In
        };
        let default = match &p.default {
            Some(init) => {
                // Defaults are evaluated in the caller's place; keep them with the globals.
                let saved = std::mem::take(&mut self.stack);
                let h = self.initializer(init, ty);
                self.stack = saved;
                h
            }
            None => None,
        };
        Some(Param {
            name: p.name.as_ref().map_or_else(String::new, |n| n.name.clone()),
            ty,
            dir,
            uniform: q(ast::Qualifier::Uniform),
            is_const: q(ast::Qualifier::Const) || ty.is_sampler(),
            semantic: p.semantic.as_ref().map(semantic),
            default,
            span: p.span,
        })
    }

    fn function_body(
        &mut self,
        handle: Handle<Function>,
        f: &'a ast::Function,
        params: Vec<Param>,
        ret: Type,
        method_of: Option<ir::StructId>,
    ) {
        let Some(body) = &f.body else { return };
        // Interface-typed parameters make a generic function: it is lowered once per
        // concrete struct it is called with (see `specialise`).
        if params.iter().any(|p| matches!(p.ty, Type::Interface(_))) {
            return;
        }
        self.stack.push(FnCtx {
            handle,
            params: params.clone(),
            locals: ir::Arena::new(),
            exprs: Exprs::default(),
            ret,
            method_of,
            loops: 0,
            switches: 0,
            const_inits: HashMap::new(),
        });
        self.push_scope();
        if let Some(s) = method_of {
            let fields: Vec<(String, Type)> =
                self.module.struct_def(s).fields.iter().map(|f| (f.name.clone(), f.ty)).collect();
            for (i, (name, ty)) in fields.into_iter().enumerate() {
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(name, Symbol::Field { index: i as u32, ty });
                }
            }
        }
        self.push_scope();
        for (i, p) in params.iter().enumerate() {
            if p.name.is_empty() || (method_of.is_some() && i == 0) {
                continue;
            }
            let ident = ast::Ident { name: p.name.clone(), span: p.span };
            self.declare(&ident, Symbol::Var { var: Var::Param(i as u32), ty: p.ty });
        }
        let block = self.block_in_scope(&body.stmts);
        self.pop_scope();
        self.pop_scope();
        if let Some(ctx) = self.stack.pop() {
            let func = &mut self.module.functions[handle];
            func.locals = ctx.locals;
            func.exprs = ctx.exprs;
            func.body = Some(block);
        }
    }

    /// The version of `generic` whose interface parameters take the given struct types.
    fn specialise(&mut self, generic: Handle<Function>, arg_types: &[Type]) -> Option<Handle<Function>> {
        let key = (generic, arg_types.to_vec());
        if let Some(h) = self.specialised.get(&key) {
            return Some(*h);
        }
        let f = *self.fn_ast.get(&generic)?;
        let template = &self.module.functions[generic];
        let mut params = template.params.clone();
        for (p, &t) in params.iter_mut().zip(arg_types) {
            if matches!(p.ty, Type::Interface(_)) {
                p.ty = t;
            }
        }
        let name = template.name.clone();
        let handle = self.module.functions.append(Function {
            name,
            profiles: template.profiles.clone(),
            params: params.clone(),
            ret: template.ret,
            ret_semantic: template.ret_semantic.clone(),
            locals: ir::Arena::new(),
            exprs: Exprs::default(),
            body: None,
            method_of: template.method_of,
            span: template.span,
        });
        self.specialised.insert(key, handle);
        // Lower the body in the global scope's view, as the original was.
        let saved_scopes = self.scopes.split_off(1);
        let ret = self.module.functions[handle].ret;
        let method_of = self.module.functions[handle].method_of;
        self.function_body(handle, f, params, ret, method_of);
        self.scopes.extend(saved_scopes);
        Some(handle)
    }

    fn interface(&mut self, i: &'a ast::Interface) {
        let base = match &i.base {
            Some(b) => match self.lookup(&b.name) {
                Some(Symbol::Type(Type::Interface(id))) => Some(id),
                _ => {
                    self.error(codes::E_BAD_INTERFACE, b.span, format!("`{}` is not an interface", b.name));
                    None
                }
            },
            None => None,
        };
        let id = ir::InterfaceId(self.module.interfaces.len() as u32);
        self.module.interfaces.push(ir::InterfaceDef {
            name: i.name.name.clone(),
            base,
            methods: Vec::new(),
            span: i.span,
        });
        self.declare(&i.name, Symbol::Type(Type::Interface(id)));
        let mut methods = Vec::new();
        for m in &i.methods {
            let Some(ret) = self.resolve_type(&m.specifiers.ty) else { continue };
            let mut params = Vec::new();
            for p in &m.params {
                if let Some(p) = self.parameter(p) {
                    params.push((p.ty, p.dir));
                }
            }
            methods.push(ir::MethodSig { name: m.name.name.clone(), params, ret, span: m.name.span });
        }
        self.module.interfaces[id.0 as usize].methods = methods;
    }

    // ---- entry point ----

    /// Picks the entry point; returns the functions it reaches (`None` if it is missing).
    fn entry_point(&mut self, entry: &str) -> Option<HashSet<Handle<Function>>> {
        let candidates: Vec<Handle<Function>> =
            self.functions.get(entry).map(|l| l.iter().map(|e| e.handle).collect()).unwrap_or_default();
        let chosen = candidates.iter().copied().find(|&h| {
            let f = &self.module.functions[h];
            f.body.is_some()
                && (f.profiles.is_empty()
                    || f.profiles.iter().any(|p| self.profile.match_spec(p) != profile::Match::None))
        });
        let Some(function) = chosen else {
            let d = Diagnostic::error(
                codes::E_NO_ENTRY_POINT,
                format!("no function `{entry}` with a body to compile as the {} program", self.profile.domain.name()),
            );
            self.diags.push(d);
            return None;
        };
        self.module.entry_point =
            Some(ir::EntryPoint { function, stage: self.profile.stage, profile: self.profile.name.clone() });
        if let Some(f) = self.fn_ast.get(&function).copied() {
            let shape = programs::shape(&f.specifiers.modifiers, &mut Vec::new());
            programs::check_entry(&f.name, &shape, &self.profile, &mut self.diags);
        }
        for d in limits::check_entry(&self.module, function, &self.profile) {
            self.diags.push(d);
        }

        // Reachable functions: from the entry point and from global initialisers.
        // One pass over the calls builds the callee lists, so the walk is linear.
        let mut callees: HashMap<Option<Handle<Function>>, Vec<Handle<Function>>> = HashMap::new();
        for (caller, callee, _) in &self.calls {
            callees.entry(*caller).or_default().push(*callee);
        }
        let mut reached: HashSet<Handle<Function>> = HashSet::new();
        let mut work = vec![function];
        work.extend(callees.get(&None).into_iter().flatten().copied());
        while let Some(f) = work.pop() {
            if reached.insert(f) {
                work.extend(callees.get(&Some(f)).into_iter().flatten().copied());
            }
        }
        if reached.len() > limits::MAX_STAGE_FUNCTIONS {
            let d = Diagnostic::error(
                codes::E_TOO_MANY_FUNCTIONS,
                format!(
                    "the {} program calls {} functions; the limit is {} (the GLSL validator's call-graph \
                     check grows with the square of the count, and no real shader comes near it)",
                    self.profile.domain.name(),
                    reached.len(),
                    limits::MAX_STAGE_FUNCTIONS
                ),
            )
            .with_primary(self.module.functions[function].span, "entry point");
            self.diags.push(d);
        }
        Some(reached)
    }

    fn check_recursion(&mut self, reached: &HashSet<Handle<Function>>) {
        let mut edges: HashMap<Handle<Function>, Vec<(Handle<Function>, Span)>> = HashMap::new();
        for (caller, callee, span) in &self.calls {
            if let Some(c) = caller {
                if reached.contains(c) {
                    edges.entry(*c).or_default().push((*callee, *span));
                }
            }
        }
        // Iterative DFS with colours.
        let mut colour: HashMap<Handle<Function>, u8> = HashMap::new();
        let mut roots: Vec<Handle<Function>> = reached.iter().copied().collect();
        roots.sort();
        for root in roots {
            if colour.contains_key(&root) {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            colour.insert(root, 1);
            while let Some((node, next)) = stack.pop() {
                let out = edges.get(&node).map_or(&[][..], |v| v.as_slice());
                if let Some(&(callee, span)) = out.get(next) {
                    stack.push((node, next + 1));
                    match colour.get(&callee).copied() {
                        None => {
                            colour.insert(callee, 1);
                            stack.push((callee, 0));
                        }
                        Some(1) => {
                            let name = self.module.functions[callee].name.clone();
                            let d = Diagnostic::error(
                                codes::E_RECURSION,
                                format!("recursive call to `{name}`: Cg does not allow recursion"),
                            )
                            .with_primary(span, "");
                            self.diags.push(d);
                        }
                        _ => {}
                    }
                } else {
                    colour.insert(node, 2);
                }
            }
        }
    }
}

/// Methods are keyed `Struct::name` so they never clash with free functions.
fn qualified_name(module: &Module, method_of: Option<ir::StructId>, name: &str) -> String {
    match method_of {
        Some(s) => format!("{}::{name}", module.struct_def(s).name.as_deref().unwrap_or("")),
        None => name.to_owned(),
    }
}

fn semantic(s: &ast::Semantic) -> ir::Semantic {
    let mut sem = ir::Semantic::parse(&s.name.name, s.span);
    if let Some(index) = &s.index {
        if let ast::ExprKind::Literal(ast::Literal::Int(v, _)) = index.kind {
            sem.index = u32::try_from(v).ok();
        }
    }
    if let Some(arg) = &s.argument {
        sem.text = format!("{}({})", s.name.name, arg.name);
    }
    sem
}
