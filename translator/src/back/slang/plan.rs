//! What the writer decides about a stage before it prints a line: the functions it
//! writes (those reachable from the entry point, callees first), which entry
//! parameters are read through a local copy, and how often the stage reads each
//! RetroArch uniform. The push/UBO layout of both stages comes from those counts, so
//! the writer prints every uniform read with its block (`params.SourceSize`) in one
//! pass, in order.
//!
//! The count is a walk of the IR that visits exactly the expressions the writer
//! prints; the writer tallies the reads it printed and reports any difference as an
//! internal error ([`crate::codes::E_WRITER_INTERNAL`]). Never prints.

use super::facts::{used_whole, written_params};
use super::naga::naga_constant;
use crate::ir::{
    Block, Builtin, Expr, ExprKind, Exprs, Function, Handle, Module, ParamDir, Ported, RuntimeValue, Scalar, Stage,
    Stmt, Type, Var,
};
use crate::port::connectors::{Connectors, Place, SlotKind};
use crate::port::semantics::{Binding, Bindings};
use crate::port::stdlib;
use crate::retro::Uniform;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The writer's decisions for one stage, taken from the IR alone.
#[derive(Default)]
pub(super) struct StagePlan {
    /// Functions reachable from the entry point, callees before callers.
    pub(super) order: Vec<Handle<Function>>,
    /// Entry parameters read through a local copy: inputs the body writes or uses
    /// whole as a struct, outputs that are structs or not written straight into
    /// their output variable.
    pub(super) copied_params: HashSet<u32>,
    /// How many uniform reads the stage prints, per uniform.
    pub(super) uniform_reads: BTreeMap<Uniform, usize>,
}

/// Plans one stage.
pub(super) fn plan_stage(m: &Module, stage: Stage, b: &Bindings, conn: &Connectors) -> StagePlan {
    let Some(entry) = m.entry_point.as_ref().map(|e| e.function) else { return StagePlan::default() };
    let order = m.reachable_functions(entry);
    let copied_params = copied_params(m, stage, b, conn, entry);
    let mut reads = Reads {
        m,
        b,
        in_entry: true,
        copied: &copied_params,
        aliases: sampler_globals(m, entry),
        counts: BTreeMap::new(),
    };
    reads.entry_aliases(entry);
    for &f in &order {
        reads.function(f, f == entry);
    }
    reads.global_initialisers(&order);
    let uniform_reads = reads.counts;
    StagePlan { order, copied_params, uniform_reads }
}

/// Entry parameters read through a local copy ([`StagePlan::copied_params`]).
fn copied_params(m: &Module, stage: Stage, b: &Bindings, conn: &Connectors, entry: Handle<Function>) -> HashSet<u32> {
    let func = &m.functions[entry];
    let written = written_params(m, &func.exprs);
    let mut copied = HashSet::new();
    for (i, p) in func.params.iter().enumerate() {
        let i = i as u32;
        if !matches!(b.params.get(i as usize), Some(Binding::Varying)) {
            continue;
        }
        let whole_use = matches!(p.ty, Type::Struct(_)) && used_whole(&func.exprs, Var::Param(i));
        let output_struct = matches!(p.ty, Type::Struct(_)) && p.dir != ParamDir::In;
        let needs_local = match p.dir {
            ParamDir::In => written.contains(&i) || whole_use,
            _ => output_struct || !direct_output(stage, conn, p.ty, i),
        };
        if needs_local {
            copied.insert(i);
        }
    }
    copied
}

/// Whether out parameter `i` (of type `ty`) can be written straight into its output.
fn direct_output(stage: Stage, conn: &Connectors, ty: Type, i: u32) -> bool {
    match conn.slot(stage == Stage::Vertex, Place::Param(i)).map(|s| &s.kind) {
        Some(SlotKind::Varying(_)) => true,
        Some(SlotKind::ClipPosition) | Some(SlotKind::FragColor) => {
            ty == Type::vec(Scalar::Float, 4) || ty == Type::vec(Scalar::Half, 4)
        }
        _ => false,
    }
}

/// The `(assignment, global)` pairs of the entry's top level that make a sampler
/// global an alias of a texture (`s0_global = PASSPREV.texture;`): the writer prints
/// the value once, where it finds them, and every read of the global as that text.
pub(super) fn sampler_alias_assignments(m: &Module, entry: Handle<Function>) -> Vec<(Handle<Expr>, Var)> {
    let f = &m.functions[entry];
    let Some(body) = &f.body else { return Vec::new() };
    body.stmts
        .iter()
        .filter_map(|(s, _)| {
            let Stmt::Expr(h) = s else { return None };
            let ExprKind::Assign { op: None, target, value } = &f.exprs[*h].kind else { return None };
            match f.exprs[*target].kind {
                ExprKind::Var(v @ Var::Global(_)) if f.exprs[*target].ty.is_sampler() => Some((*value, v)),
                _ => None,
            }
        })
        .collect()
}

fn sampler_globals(m: &Module, entry: Handle<Function>) -> HashSet<Var> {
    sampler_alias_assignments(m, entry).into_iter().map(|(_, v)| v).collect()
}

/// The uniform-read count: a walk over what the writer prints.
struct Reads<'a> {
    m: &'a Module,
    b: &'a Bindings,
    in_entry: bool,
    copied: &'a HashSet<u32>,
    /// Sampler globals that alias a texture: their reads print the texture.
    aliases: HashSet<Var>,
    counts: BTreeMap<Uniform, usize>,
}

impl Reads<'_> {
    fn read(&mut self, u: Uniform) {
        *self.counts.entry(u).or_default() += 1;
    }

    fn entry_aliases(&mut self, entry: Handle<Function>) {
        self.in_entry = true;
        for (value, _) in sampler_alias_assignments(self.m, entry) {
            self.expr(&self.m.functions[entry].exprs, value);
        }
    }

    fn function(&mut self, f: Handle<Function>, entry: bool) {
        self.in_entry = entry;
        let func = &self.m.functions[f];
        if entry {
            // Uniform parameters nothing sets become constants with their default.
            for (i, p) in func.params.iter().enumerate() {
                let unbound = matches!(self.b.params.get(i), Some(Binding::Unbound));
                if unbound && !p.ty.is_sampler() && !matches!(p.ty, Type::Struct(_)) {
                    if let Some(d) = p.default {
                        self.expr(&self.m.global_exprs, d);
                    }
                }
            }
        }
        if let Some(body) = &func.body {
            self.block(&func.exprs, body);
        }
    }

    /// The initialisers of the private globals the stage declares.
    fn global_initialisers(&mut self, order: &[Handle<Function>]) {
        let mut referenced: BTreeSet<Handle<crate::ir::Global>> = BTreeSet::new();
        let mut work: Vec<Handle<crate::ir::Global>> = order
            .iter()
            .flat_map(|&f| self.m.functions[f].exprs.iter())
            .filter_map(|(_, e)| if let ExprKind::Var(Var::Global(g)) = e.kind { Some(g) } else { None })
            .collect();
        while let Some(g) = work.pop() {
            if !referenced.insert(g) {
                continue;
            }
            if let Some(init) = self.m.globals[g].init {
                let mut stack = vec![init];
                while let Some(x) = stack.pop() {
                    let e = &self.m.global_exprs[x];
                    if let ExprKind::Var(Var::Global(h)) = e.kind {
                        work.push(h);
                    }
                    stack.extend(e.kind.children());
                }
            }
        }
        for g in referenced {
            let global = &self.m.globals[g];
            let private = matches!(self.b.globals.get(&g), None | Some(Binding::Private | Binding::Unbound));
            if private && !global.ty.is_sampler() {
                if let Some(init) = global.init {
                    self.expr(&self.m.global_exprs, init);
                }
            }
        }
    }

    fn block(&mut self, exprs: &Exprs, b: &Block) {
        for (s, _) in &b.stmts {
            self.stmt(exprs, s);
        }
    }

    fn stmt(&mut self, exprs: &Exprs, s: &Stmt) {
        match s {
            Stmt::Block(b) => self.block(exprs, b),
            Stmt::Expr(h) => {
                // A sampler alias assignment prints nothing.
                let sampler_assign =
                    matches!(&exprs[*h].kind, ExprKind::Assign { target, .. } if exprs[*target].ty.is_sampler());
                if !sampler_assign {
                    self.expr(exprs, *h);
                }
            }
            Stmt::Local { init, .. } => {
                if let Some(i) = init {
                    self.expr(exprs, *i);
                }
            }
            Stmt::If { cond, accept, reject } => {
                self.expr(exprs, *cond);
                self.block(exprs, accept);
                if let Some(r) = reject {
                    self.block(exprs, r);
                }
            }
            Stmt::For { init, cond, step, body } => {
                match init.stmts.as_slice() {
                    // A lone expression is printed inside `for (...)`, as it is.
                    [(Stmt::Expr(h), _)] => self.expr(exprs, *h),
                    _ => self.block(exprs, init),
                }
                for h in cond.iter().chain(step) {
                    self.expr(exprs, *h);
                }
                self.block(exprs, body);
            }
            Stmt::While { cond, body } | Stmt::DoWhile { body, cond } => {
                self.expr(exprs, *cond);
                self.block(exprs, body);
            }
            Stmt::Switch { selector, cases } => {
                self.expr(exprs, *selector);
                for c in cases {
                    self.block(exprs, &c.body);
                }
            }
            Stmt::Return(Some(h)) => self.expr(exprs, *h),
            Stmt::Return(None)
            | Stmt::Break
            | Stmt::Continue
            | Stmt::Discard
            | Stmt::EmitVertex(_)
            | Stmt::RestartStrip => {}
        }
    }

    fn expr(&mut self, exprs: &Exprs, h: Handle<Expr>) {
        let e = &exprs[h];
        match &e.kind {
            ExprKind::Var(v) => self.var(*v),
            ExprKind::Ported(Ported::Runtime(RuntimeValue::Uniform(u))) => self.read(u.clone()),
            ExprKind::Member { base, .. } => self.member(exprs, *base),
            ExprKind::Index { base, index } => {
                self.expr(exprs, *base);
                // A one-component vector is its element: the index is not printed.
                if !matches!(exprs[*base].ty, Type::Vector(_, 1)) {
                    self.expr(exprs, *index);
                }
            }
            ExprKind::Select { cond, accept, reject } => {
                self.expr(exprs, *cond);
                let vector = matches!(exprs[*cond].ty, Type::Vector(_, n) if n > 1);
                let constants = (exprs.bool_constant(*accept), exprs.bool_constant(*reject));
                // `c ? true : false` on bool vectors prints `c` (or `not(c)`) alone.
                if !(vector && matches!(constants, (Some(true), Some(false)) | (Some(false), Some(true)))) {
                    self.expr(exprs, *accept);
                    self.expr(exprs, *reject);
                }
            }
            ExprKind::Builtin { builtin, args } => {
                let mul = matches!(builtin, Builtin::MulMatVec | Builtin::MulVecMat | Builtin::MulMatMat);
                // A texel offset that is not a constant makes the call an error: nothing printed.
                let refused = !mul
                    && stdlib::constant_arguments(*builtin, args.len())
                        .into_iter()
                        .filter_map(|i| args.get(i))
                        .any(|&a| !naga_constant(self.m, exprs, a, &HashSet::new()));
                if !refused {
                    for &a in args {
                        self.expr(exprs, a);
                    }
                }
            }
            k => {
                for c in k.children() {
                    self.expr(exprs, c);
                }
            }
        }
    }

    fn var(&mut self, v: Var) {
        if self.aliases.contains(&v) {
            return;
        }
        let binding = match v {
            Var::Param(_) if self.in_entry => self.b.of(v),
            Var::Global(_) => self.b.of(v),
            _ => None,
        };
        if let Some(Binding::Parameter(p)) = binding {
            self.read(Uniform::Parameter(p.clone()));
        }
    }

    fn member(&mut self, exprs: &Exprs, base: Handle<Expr>) {
        let Type::Struct(_) = exprs[base].ty else { return };
        if let ExprKind::Var(v) = exprs[base].kind {
            let entry_or_global = matches!(v, Var::Global(_)) || (self.in_entry && matches!(v, Var::Param(_)));
            if entry_or_global {
                match self.b.of(v) {
                    Some(Binding::Invalid | Binding::Unbound) => return,
                    Some(Binding::Varying) if matches!(v, Var::Param(i) if !self.copied.contains(&i)) => return,
                    _ => {}
                }
            }
        }
        self.expr(exprs, base);
    }
}
