//! The IR validator: checks that a module is well formed, so that the writer and the
//! interpreter may index without checks and trust every type.
//!
//! Checked: every handle is in bounds; expressions form trees (no handle has two
//! parents); each node's type agrees with its operands (conversion nodes change only
//! what they claim to, binary operands match, constructors have the right number of
//! components, calls match their callee); assignment targets are places; conditions are
//! bool; returns match the function. Tests run it after lowering every fixture. It only
//! reads the module and reports strings; it never fixes anything.

use super::*;

/// Validates a module; returns every problem found, empty when well formed.
pub fn validate(m: &Module) -> Vec<String> {
    let mut v = Validator { m, errors: Vec::new() };
    let mut used = vec![false; m.global_exprs.len()];
    for (_, g) in m.globals.iter() {
        if let Some(init) = g.init {
            v.expr_tree(&m.global_exprs, init, &mut used, None, &format!("global {}", g.name));
            v.same(m.global_exprs[init].ty, g.ty, &format!("initializer of global {}", g.name));
        }
    }
    for (h, f) in m.functions.iter() {
        for p in &f.params {
            if let Some(d) = p.default {
                if m.global_exprs.contains(d) {
                    v.same(m.global_exprs[d].ty, p.ty, &format!("default of {}::{}", f.name, p.name));
                } else {
                    v.err(format!("default of {}::{} has a bad handle", f.name, p.name));
                }
            }
        }
        if let Some(b) = &f.body {
            let mut used = vec![false; f.exprs.len()];
            v.block(f, b, &mut used);
            let _ = h;
        }
    }
    if let Some(e) = &m.entry_point {
        if !m.functions.contains(e.function) {
            v.err("entry point names a function that does not exist".into());
        }
    }
    v.errors
}

struct Validator<'a> {
    m: &'a Module,
    errors: Vec<String>,
}

impl<'a> Validator<'a> {
    fn err(&mut self, s: String) {
        if self.errors.len() < 100 {
            self.errors.push(s);
        }
    }

    fn same(&mut self, a: Type, b: Type, what: &str) {
        if a != b {
            let (x, y) = (self.m.type_name(a), self.m.type_name(b));
            self.err(format!("{what}: type {x} where {y} is required"));
        }
    }

    fn block(&mut self, f: &Function, b: &Block, used: &mut [bool]) {
        for (s, _) in &b.stmts {
            self.stmt(f, s, used);
        }
    }

    fn cond(&mut self, f: &Function, h: Handle<Expr>, used: &mut [bool], what: &str) {
        self.expr_tree(&f.exprs, h, used, Some(f), what);
        if f.exprs.contains(h) && f.exprs[h].ty != Type::BOOL {
            self.err(format!("{}: {what} condition is not bool", f.name));
        }
    }

    fn stmt(&mut self, f: &Function, s: &Stmt, used: &mut [bool]) {
        match s {
            Stmt::Block(b) => self.block(f, b, used),
            Stmt::Expr(h) => self.expr_tree(&f.exprs, *h, used, Some(f), "statement"),
            Stmt::Local { local, init } => {
                if !f.locals.contains(*local) {
                    return self.err(format!("{}: bad local handle", f.name));
                }
                if let Some(i) = init {
                    self.expr_tree(&f.exprs, *i, used, Some(f), "local initializer");
                    if f.exprs.contains(*i) {
                        self.same(f.exprs[*i].ty, f.locals[*local].ty, "local initializer");
                    }
                }
            }
            Stmt::If { cond, accept, reject } => {
                self.cond(f, *cond, used, "if");
                self.block(f, accept, used);
                if let Some(r) = reject {
                    self.block(f, r, used);
                }
            }
            Stmt::For { init, cond, step, body } => {
                self.block(f, init, used);
                if let Some(c) = cond {
                    self.cond(f, *c, used, "for");
                }
                if let Some(s) = step {
                    self.expr_tree(&f.exprs, *s, used, Some(f), "for step");
                }
                self.block(f, body, used);
            }
            Stmt::While { cond, body } | Stmt::DoWhile { body, cond } => {
                self.cond(f, *cond, used, "loop");
                self.block(f, body, used);
            }
            Stmt::Switch { selector, cases } => {
                self.expr_tree(&f.exprs, *selector, used, Some(f), "switch");
                if f.exprs.contains(*selector)
                    && !matches!(f.exprs[*selector].ty, Type::Scalar(s) if s.is_integral() || s == Scalar::Bool)
                {
                    self.err(format!("{}: switch selector is not an integer", f.name));
                }
                for c in cases {
                    self.block(f, &c.body, used);
                }
            }
            Stmt::Return(v) => match v {
                Some(h) => {
                    self.expr_tree(&f.exprs, *h, used, Some(f), "return");
                    if f.exprs.contains(*h) {
                        self.same(f.exprs[*h].ty, f.ret, "return value");
                    }
                }
                None if f.ret != Type::Void => self.err(format!("{}: return without value", f.name)),
                None => {}
            },
            Stmt::EmitVertex(values) => {
                for (h, _) in values {
                    self.expr_tree(&f.exprs, *h, used, Some(f), "emitted value");
                }
            }
            Stmt::Break | Stmt::Continue | Stmt::Discard | Stmt::RestartStrip => {}
        }
    }

    fn is_place(&self, exprs: &Exprs, h: Handle<Expr>) -> bool {
        match &exprs[h].kind {
            ExprKind::Var(_) => true,
            ExprKind::Member { base, .. }
            | ExprKind::Index { base, .. }
            | ExprKind::Swizzle { base, .. }
            | ExprKind::MatrixElements { base, .. } => self.is_place(exprs, *base),
            _ => false,
        }
    }

    /// Checks the tree under `root` iteratively (no recursion on user-controlled depth).
    fn expr_tree(&mut self, exprs: &Exprs, root: Handle<Expr>, used: &mut [bool], f: Option<&Function>, what: &str) {
        let mut work = vec![root];
        while let Some(h) = work.pop() {
            if !exprs.contains(h) {
                self.err(format!("{what}: expression handle {} out of bounds", h.index()));
                continue;
            }
            if used[h.index()] {
                self.err(format!("{what}: expression {} has two parents", h.index()));
                continue;
            }
            used[h.index()] = true;
            let children = self.node(exprs, h, f, what);
            work.extend(children);
        }
    }

    /// Checks one node against its children; returns the children.
    fn node(&mut self, exprs: &Exprs, h: Handle<Expr>, f: Option<&Function>, what: &str) -> Vec<Handle<Expr>> {
        let e = &exprs[h];
        let m = self.m;
        let ty_of = |c: Handle<Expr>| if exprs.contains(c) { Some(exprs[c].ty) } else { None };
        let bad = |s: &str| format!("{what}: {s} (expression {})", h.index());
        let mut problems: Vec<String> = Vec::new();
        let children: Vec<Handle<Expr>> = match &e.kind {
            ExprKind::Literal(_) => {
                if !e.ty.is_scalar() {
                    problems.push(bad("literal of non-scalar type"));
                }
                vec![]
            }
            ExprKind::Var(v) => {
                var_node(m, e, v, f, &bad, &mut problems);
                vec![]
            }
            ExprKind::Member { base, field } => {
                match ty_of(*base) {
                    Some(Type::Struct(s)) => match m.struct_def(s).fields.get(*field as usize) {
                        Some(fd) if fd.ty == e.ty => {}
                        _ => problems.push(bad("bad field")),
                    },
                    _ => problems.push(bad("member of a non-struct")),
                }
                vec![*base]
            }
            ExprKind::Index { base, index } => {
                let ok = match ty_of(*base) {
                    Some(Type::Array(a)) => m.array_type(a).elem == e.ty,
                    Some(Type::Vector(s, _)) => e.ty == Type::Scalar(s),
                    Some(Type::Matrix { scalar, cols, .. }) => e.ty == Type::vec(scalar, cols),
                    _ => false,
                };
                if !ok || ty_of(*index) != Some(Type::INT) {
                    problems.push(bad("bad index"));
                }
                vec![*base, *index]
            }
            ExprKind::Swizzle { base, components } => {
                swizzle_node(e, base, components, &ty_of, &bad, &mut problems);
                vec![*base]
            }
            ExprKind::MatrixElements { base, elements } => {
                matrix_elements_node(e, base, elements, &ty_of, &bad, &mut problems);
                vec![*base]
            }
            ExprKind::Unary { op, operand } => {
                let t = ty_of(*operand);
                let ok = match op {
                    UnaryOp::Not => t == Some(e.ty) && e.ty.scalar() == Some(Scalar::Bool),
                    _ => t == Some(e.ty),
                };
                if !ok {
                    problems.push(bad("unary operand type"));
                }
                vec![*operand]
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (ty_of(*lhs), ty_of(*rhs));
                let shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
                if !shift && a != b {
                    problems.push(bad("binary operands differ in type"));
                }
                let expect =
                    if op.is_comparison() || op.is_logical() { a.map(|t| t.with_scalar(Scalar::Bool)) } else { a };
                if expect != Some(e.ty) {
                    problems.push(bad("binary result type"));
                }
                vec![*lhs, *rhs]
            }
            ExprKind::Select { cond, accept, reject } => {
                select_node(e, cond, accept, reject, &ty_of, &bad, &mut problems);
                vec![*cond, *accept, *reject]
            }
            ExprKind::Convert { value } => {
                match ty_of(*value) {
                    Some(t) if t.with_scalar(Scalar::Float) == e.ty.with_scalar(Scalar::Float) && t != e.ty => {}
                    _ => problems.push(bad("convert must change only the scalar type")),
                }
                vec![*value]
            }
            ExprKind::Splat { value } => {
                match ty_of(*value) {
                    Some(Type::Scalar(s)) if (e.ty.is_vector() || e.ty.is_matrix()) && e.ty.scalar() == Some(s) => {}
                    _ => problems.push(bad("splat must replicate a scalar of the same type")),
                }
                vec![*value]
            }
            ExprKind::Truncate { value } => {
                match ty_of(*value) {
                    Some(t) if t.scalar() == e.ty.scalar() && e.ty.components() < t.components() => {}
                    // A one-component vector to its scalar: sema's `float1` to `float`.
                    Some(Type::Vector(s, 1)) if e.ty == Type::Scalar(s) => {}
                    _ => problems.push(bad("truncate must drop components")),
                }
                vec![*value]
            }
            ExprKind::Reshape { value } => {
                match ty_of(*value) {
                    Some(t) if t.scalar() == e.ty.scalar() && e.ty.components() == t.components() => {}
                    _ => problems.push(bad("reshape must keep the component count")),
                }
                vec![*value]
            }
            ExprKind::Construct { args } => {
                construct_node(m, e, args, &ty_of, &bad, &mut problems);
                args.clone()
            }
            ExprKind::Call { function, args } => {
                problems.extend(self.call_node(exprs, e, function, args, &ty_of, &bad));
                args.clone()
            }
            ExprKind::Builtin { args, .. } => args.clone(),
            ExprKind::Assign { target, value, .. } => {
                if !self.is_place(exprs, *target) {
                    problems.push(bad("assignment target is not a place"));
                }
                if ty_of(*target) != Some(e.ty) || ty_of(*value) != Some(e.ty) {
                    problems.push(bad("assignment types"));
                }
                vec![*target, *value]
            }
            ExprKind::IncDec { target, .. } => {
                if !self.is_place(exprs, *target) || ty_of(*target) != Some(e.ty) {
                    problems.push(bad("increment target"));
                }
                vec![*target]
            }
            ExprKind::Sequence { exprs: list } => {
                if list.last().and_then(|&l| ty_of(l)) != Some(e.ty) {
                    problems.push(bad("sequence type"));
                }
                list.clone()
            }
            ExprKind::Ported(p) => ported_node(e, p, &ty_of, &bad, &mut problems),
        };
        for p in problems {
            self.err(p);
        }
        children
    }
}

/// The type of a child expression, `None` when its handle is out of bounds.
type TyOf<'a> = dyn Fn(Handle<Expr>) -> Option<Type> + 'a;
/// A problem with the node being checked, as reported.
type Bad<'a> = dyn Fn(&str) -> String + 'a;

impl Validator<'_> {
    /// A call: arity, return type, argument types, `out` arguments that are places. Returns
    /// the problems found, in order.
    fn call_node(
        &self,
        exprs: &Exprs,
        e: &Expr,
        function: &Handle<Function>,
        args: &[Handle<Expr>],
        ty_of: &TyOf<'_>,
        bad: &Bad<'_>,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        let m = self.m;
        match m.functions.get(*function) {
            Some(callee) => {
                if callee.params.len() != args.len() || callee.ret != e.ty {
                    problems.push(bad("call arity or return type"));
                }
                for (p, &a) in callee.params.iter().zip(args) {
                    let t = ty_of(a);
                    let ok = t == Some(p.ty) || (p.ty.is_sampler() && t.is_some_and(Type::is_sampler));
                    if !ok {
                        problems.push(bad(&format!("argument for {} has the wrong type", p.name)));
                    }
                    if p.dir != ParamDir::In && !self.is_place(exprs, a) {
                        problems.push(bad("out argument is not a place"));
                    }
                }
            }
            None => problems.push(bad("call of a missing function")),
        }
        problems
    }
}

/// A variable: it exists where it is used, with the node's type (samplers alike).
fn var_node(m: &Module, e: &Expr, v: &Var, f: Option<&Function>, bad: &Bad<'_>, problems: &mut Vec<String>) {
    let t = match (v, f) {
        (Var::Global(g), _) => m.globals.get(*g).map(|g| g.ty),
        (Var::Local(l), Some(f)) => f.locals.get(*l).map(|l| l.ty),
        (Var::Param(i), Some(f)) => f.params.get(*i as usize).map(|p| p.ty),
        _ => None,
    };
    match t {
        Some(t) if t == e.ty || (t.is_sampler() && e.ty.is_sampler()) => {}
        Some(_) => problems.push(bad("variable used with another type")),
        None => problems.push(bad("variable does not exist here")),
    }
}

/// A vector swizzle: one to four components its base has, typed by their count.
fn swizzle_node(
    e: &Expr,
    base: &Handle<Expr>,
    components: &[u8],
    ty_of: &TyOf<'_>,
    bad: &Bad<'_>,
    problems: &mut Vec<String>,
) {
    let (s, size) = match ty_of(*base) {
        Some(Type::Vector(s, n)) => (Some(s), n),
        Some(Type::Scalar(s)) => (Some(s), 1),
        _ => (None, 0),
    };
    let want =
        if components.len() == 1 { s.map(Type::Scalar) } else { s.map(|s| Type::vec(s, components.len() as u8)) };
    if components.is_empty() || components.len() > 4 || components.iter().any(|&c| c >= size) || want != Some(e.ty) {
        problems.push(bad("bad swizzle"));
    }
}

/// Matrix elements: of a matrix, inside it, typed by their count.
fn matrix_elements_node(
    e: &Expr,
    base: &Handle<Expr>,
    elements: &[(u8, u8)],
    ty_of: &TyOf<'_>,
    bad: &Bad<'_>,
    problems: &mut Vec<String>,
) {
    match ty_of(*base) {
        Some(Type::Matrix { scalar, rows, cols }) => {
            let want = if elements.len() == 1 { Type::Scalar(scalar) } else { Type::vec(scalar, elements.len() as u8) };
            if elements.iter().any(|&(r, c)| r >= rows || c >= cols) || want != e.ty {
                problems.push(bad("bad matrix elements"));
            }
        }
        _ => problems.push(bad("matrix elements of a non-matrix")),
    }
}

/// A select: a bool condition (a bool vector of the operands' size) and both operands
/// of the node's type.
fn select_node(
    e: &Expr,
    cond: &Handle<Expr>,
    accept: &Handle<Expr>,
    reject: &Handle<Expr>,
    ty_of: &TyOf<'_>,
    bad: &Bad<'_>,
    problems: &mut Vec<String>,
) {
    let c = ty_of(*cond);
    let ok_cond = match c {
        Some(Type::Scalar(Scalar::Bool)) => true,
        Some(Type::Vector(Scalar::Bool, n)) => e.ty == Type::Vector(e.ty.scalar().unwrap_or(Scalar::Bool), n),
        _ => false,
    };
    if !ok_cond || ty_of(*accept) != Some(e.ty) || ty_of(*reject) != Some(e.ty) {
        problems.push(bad("bad select"));
    }
}

/// A constructor: the components of a vector or matrix, the fields of a struct, the
/// elements of a sized array.
fn construct_node(
    m: &Module,
    e: &Expr,
    args: &[Handle<Expr>],
    ty_of: &TyOf<'_>,
    bad: &Bad<'_>,
    problems: &mut Vec<String>,
) {
    match e.ty {
        Type::Vector(..) | Type::Matrix { .. } => {
            let sum: Option<u32> = args.iter().map(|&a| ty_of(a).and_then(|t| t.components())).sum();
            let scalars_ok = args.iter().all(|&a| ty_of(a).and_then(|t| t.scalar()) == e.ty.scalar());
            if sum != e.ty.components() || !scalars_ok {
                problems.push(bad("constructor components"));
            }
        }
        Type::Struct(s) => {
            let fields = &m.struct_def(s).fields;
            if fields.len() != args.len() || fields.iter().zip(args).any(|(f, &a)| ty_of(a) != Some(f.ty)) {
                problems.push(bad("struct constructor fields"));
            }
        }
        Type::Array(a) => {
            let a = m.array_type(a);
            if a.len != Some(args.len() as u32) || args.iter().any(|&x| ty_of(x) != Some(a.elem)) {
                problems.push(bad("array constructor elements"));
            }
        }
        _ => problems.push(bad("constructor of a non-aggregate")),
    }
}

/// The porting passes' own forms ([`Ported`]); returns the children.
fn ported_node(e: &Expr, p: &Ported, ty_of: &TyOf<'_>, bad: &Bad<'_>, problems: &mut Vec<String>) -> Vec<Handle<Expr>> {
    match p {
        Ported::Runtime(_) => {
            if !(e.ty.is_numeric_shape() || e.ty.is_sampler()) {
                problems.push(bad("a runtime value is a number, vector, matrix or sampler"));
            }
            vec![]
        }
        Ported::ComponentSelect { cond, accept, reject } => {
            let bools = matches!(e.ty, Type::Vector(Scalar::Bool, n) if n > 1);
            let operands = [*cond, *accept, *reject].iter().all(|&x| ty_of(x) == Some(e.ty));
            if !bools || !operands {
                problems.push(bad("a component select takes and gives one bool vector type"));
            }
            vec![*cond, *accept, *reject]
        }
        Ported::NonFinite(f) => {
            if !matches!(e.ty, Type::Scalar(_)) || (*f as f32).is_finite() {
                problems.push(bad("a non-finite constant is a scalar that is infinite or NaN"));
            }
            vec![]
        }
        Ported::EagerLogical { lhs, rhs, .. } => {
            let bools = e.ty.scalar() == Some(Scalar::Bool) && !e.ty.is_matrix();
            if !bools || ty_of(*lhs) != Some(e.ty) || ty_of(*rhs) != Some(e.ty) {
                problems.push(bad("eager logical operands must have its bool type"));
            }
            vec![*lhs, *rhs]
        }
    }
}
