//! Compiles one stage's typed IR ([`translator::ir::Module`], before any porting pass)
//! into closures over a [`Machine`]: every value is flattened into memory cells (structs
//! and arrays field by field, matrices row-major), each function gets one static frame
//! (Cg has no recursion; recursion is diagnosed), each expression node its own result
//! cells, and control flow runs the lanes of a batch of quads together under lane masks
//! so that derivatives see every lane of a quad, as on a GPU.
//!
//! The result, [`Compiled`], lists the entry point's interface as [`Leaf`]s (dotted
//! names such as `IN.video_size`, semantics, cell addresses) for the runtime binder; this
//! module never decides what RetroArch binds to a name. It never panics on valid IR and
//! reports what it cannot run as `E08xx` diagnostics.

mod builtins;
mod expr;
mod flags;
mod stmt;
mod texture;

use super::machine::{Code, Machine};
use crate::codes;
use grammar::{Diagnostic, Span};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use translator::ir::{self, Function, Handle, Module, ParamDir, Semantic, Storage, Type};

/// Where a leaf of the entry point's interface comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// A parameter of the entry function.
    Param { index: u32, dir: ParamDir, uniform: bool },
    /// A global variable.
    Global { storage: Storage },
    /// The entry function's return value.
    Return,
}

/// One scalar/vector/matrix/sampler/array piece of the entry point's interface.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub origin: Origin,
    /// The Cg name: `IN.video_size`, `modelViewProj`, `ORIG.texture`; `""` plus fields
    /// for the return value (`.color`).
    pub path: String,
    /// The innermost semantic on the way to the leaf (a field's wins over its struct's).
    pub semantic: Option<Semantic>,
    pub ty: Type,
    pub cells: Vec<usize>,
}

/// A compiled stage.
pub struct Compiled {
    pub cells: usize,
    /// Constants to write once.
    pub consts: Vec<(usize, f64)>,
    /// Global initialisers and entry-parameter defaults (run once, before binding).
    pub setup: Code,
    /// `static` global initialisers (run before every invocation).
    pub per_invocation: Code,
    /// The entry function's body.
    pub entry: Code,
    pub leaves: Vec<Leaf>,
    /// Cells of globals and entry parameters that the program may write (to restore
    /// between invocations).
    pub written: Vec<usize>,
    pub warnings: Vec<Diagnostic>,
    /// The module's `#pragma` lines, verbatim.
    pub pragmas: Vec<String>,
}

impl Compiled {
    /// A machine with this program's memory and constants.
    pub fn machine(&self) -> Machine {
        let mut m = Machine::new(self.cells);
        for &(a, v) in &self.consts {
            m.set_splat(a, v);
        }
        m
    }
}

/// Flattened size in cells of a type.
pub fn cells_of(module: &Module, ty: Type) -> usize {
    match ty {
        Type::Scalar(_) | Type::Sampler(_) => 1,
        Type::Vector(_, n) => n as usize,
        Type::Matrix { rows, cols, .. } => rows as usize * cols as usize,
        Type::Struct(id) => {
            module.structs.get(id.0 as usize).map_or(0, |s| s.fields.iter().map(|f| cells_of(module, f.ty)).sum())
        }
        Type::Array(id) => {
            module.arrays.get(id.0 as usize).map_or(0, |a| a.len.unwrap_or(0) as usize * cells_of(module, a.elem))
        }
        Type::Void | Type::String | Type::Interface(_) => 0,
    }
}

/// A compiled function: its frame and body.
pub(crate) struct FnCode {
    pub params: Vec<Vec<usize>>,
    pub dirs: Vec<ParamDir>,
    pub ret: Vec<usize>,
    pub body: Arc<dyn Fn(&mut Machine) + Send + Sync>,
}

/// Per-function compile context.
pub(crate) struct Frame<'m> {
    pub exprs: &'m ir::Exprs,
    pub params: Vec<Vec<usize>>,
    pub locals: Vec<Vec<usize>>,
    pub ret: Vec<usize>,
}

pub(crate) struct Compiler<'m> {
    pub module: &'m Module,
    pub next: usize,
    pub consts: Vec<(usize, f64)>,
    const_cells: HashMap<u64, usize>,
    pub globals: Vec<Vec<usize>>,
    functions: HashMap<usize, Arc<FnCode>>,
    in_progress: Vec<usize>,
    pub diags: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    pub written: BTreeSet<usize>,
}

impl<'m> Compiler<'m> {
    pub fn alloc(&mut self, n: usize) -> Vec<usize> {
        let base = self.next;
        self.next += n;
        (base..base + n).collect()
    }

    /// A read-only cell holding `v` in every lane.
    pub fn constant(&mut self, v: f64) -> usize {
        if let Some(&a) = self.const_cells.get(&v.to_bits()) {
            return a;
        }
        let a = self.next;
        self.next += 1;
        self.consts.push((a, v));
        self.const_cells.insert(v.to_bits(), a);
        a
    }

    pub fn cells(&self, ty: Type) -> usize {
        cells_of(self.module, ty)
    }

    pub fn error(&mut self, code: &'static str, msg: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::error(code, msg).with_primary(span, ""));
    }

    pub fn unsupported(&mut self, what: impl Into<String>, span: Span) {
        let what = what.into();
        self.error(codes::E_REF_UNSUPPORTED, format!("the reference renderer cannot run {what}"), span);
    }

    /// Compiles `f` once (its frame is static); `None` on recursion or a missing body.
    pub fn function(&mut self, h: Handle<Function>, span: Span) -> Option<Arc<FnCode>> {
        if let Some(f) = self.functions.get(&h.index()) {
            return Some(f.clone());
        }
        let module = self.module;
        let f = module.functions.get(h)?;
        if self.in_progress.contains(&h.index()) {
            self.error(codes::E_REF_RECURSION, format!("`{}` calls itself (Cg has no recursion)", f.name), span);
            return None;
        }
        let Some(body) = &f.body else {
            self.error(codes::E_REF_UNDEFINED_FUNCTION, format!("`{}` is declared but never defined", f.name), span);
            return None;
        };
        self.in_progress.push(h.index());
        let params: Vec<Vec<usize>> = f.params.iter().map(|p| self.alloc(cells_of(module, p.ty))).collect();
        let locals: Vec<Vec<usize>> = f.locals.iter().map(|(_, l)| self.alloc(cells_of(module, l.ty))).collect();
        let ret = self.alloc(cells_of(module, f.ret));
        let mut frame = Frame { exprs: &f.exprs, params: params.clone(), locals, ret: ret.clone() };
        let code = stmt::block(self, &mut frame, body);
        self.in_progress.pop();
        let body: Arc<dyn Fn(&mut Machine) + Send + Sync> = match code {
            Some(c) => Arc::from(c),
            None => Arc::new(|_: &mut Machine| {}),
        };
        let fc = Arc::new(FnCode { params, dirs: f.params.iter().map(|p| p.dir).collect(), ret, body });
        self.functions.insert(h.index(), fc.clone());
        Some(fc)
    }
}

/// Runs codes in order as one.
#[versioned::versioned]
pub(crate) fn chain(mut codes: Vec<Code>) -> Option<Code> {
    match codes.len() {
        0 => None,
        1 => codes.pop(),
        2 => {
            let b = codes.pop()?;
            let a = codes.pop()?;
            Some(Box::new(move |m| {
                a(m);
                b(m);
            }))
        }
        3 => {
            let c = codes.pop()?;
            let b = codes.pop()?;
            let a = codes.pop()?;
            Some(Box::new(move |m| {
                a(m);
                b(m);
                c(m);
            }))
        }
        _ => {
            let v = codes.into_boxed_slice();
            Some(Box::new(move |m| {
                for c in v.iter() {
                    c(m);
                }
            }))
        }
    }
}

fn noop() -> Code {
    Box::new(|_| {})
}

/// Flattens a value of type `ty` at `cells` into leaves named from `path`.
fn leaves(
    module: &Module,
    origin: &Origin,
    path: String,
    semantic: Option<Semantic>,
    ty: Type,
    cells: &[usize],
    out: &mut Vec<Leaf>,
) {
    if let Type::Struct(id) = ty {
        if let Some(s) = module.structs.get(id.0 as usize) {
            let mut off = 0;
            for f in &s.fields {
                let n = cells_of(module, f.ty);
                let sub = cells.get(off..off + n).unwrap_or(&[]);
                let sem = f.semantic.clone().or_else(|| semantic.clone());
                leaves(module, origin, format!("{path}.{}", f.name), sem, f.ty, sub, out);
                off += n;
            }
            return;
        }
    }
    out.push(Leaf { origin: origin.clone(), path, semantic, ty, cells: cells.to_vec() });
}

/// Compiles the module's entry point and everything it reaches.
pub fn compile(module: &Module) -> Result<Compiled, Vec<Diagnostic>> {
    let Some(ep) = module.entry_point.clone() else {
        return Err(vec![Diagnostic::error(codes::E_REF_NO_ENTRY, "the module has no entry point")]);
    };
    let mut c = Compiler {
        module,
        next: 0,
        consts: Vec::new(),
        const_cells: HashMap::new(),
        globals: Vec::new(),
        functions: HashMap::new(),
        in_progress: Vec::new(),
        diags: Vec::new(),
        warnings: Vec::new(),
        written: BTreeSet::new(),
    };
    for (_, g) in module.globals.iter() {
        let cells = c.alloc(cells_of(module, g.ty));
        c.globals.push(cells);
    }
    let Some(entry_span) = module.functions.get(ep.function).map(|f| f.span) else {
        return Err(vec![Diagnostic::error(codes::E_REF_NO_ENTRY, "the entry point names no function")]);
    };
    let Some(entry) = c.function(ep.function, entry_span) else {
        if c.diags.is_empty() {
            c.error(codes::E_REF_NO_ENTRY, "the entry point has no body", entry_span);
        }
        return Err(c.diags);
    };
    // Global initialisers and parameter defaults, in the global expression arena.
    let mut gframe = Frame { exprs: &module.global_exprs, params: Vec::new(), locals: Vec::new(), ret: Vec::new() };
    let mut setup = Vec::new();
    let mut per_invocation = Vec::new();
    for (i, (_, g)) in module.globals.iter().enumerate() {
        let cells = c.globals[i].clone();
        let code = match g.init {
            Some(init) => {
                let v = expr::value(&mut c, &mut gframe, init);
                let mut codes: Vec<Code> = v.code.into_iter().collect();
                codes.push(expr::copy_code(&v.loc, &cells));
                chain(codes)
            }
            None => Some(expr::zero_code(&cells)),
        };
        let code = code.unwrap_or_else(noop);
        if g.storage == Storage::Static {
            per_invocation.push(code);
        } else {
            setup.push(code);
        }
    }
    let Some(f) = module.functions.get(ep.function) else { return Err(c.diags) };
    for (i, p) in f.params.iter().enumerate() {
        if let (Some(d), Some(cells)) = (p.default, entry.params.get(i)) {
            let v = expr::value(&mut c, &mut gframe, d);
            let mut codes: Vec<Code> = v.code.into_iter().collect();
            codes.push(expr::copy_code(&v.loc, cells));
            setup.extend(chain(codes));
        }
    }
    if !c.diags.is_empty() {
        return Err(c.diags);
    }
    let mut out = Vec::new();
    for (i, (_, g)) in module.globals.iter().enumerate() {
        let origin = Origin::Global { storage: g.storage };
        leaves(module, &origin, g.name.clone(), g.semantic.clone(), g.ty, &c.globals[i], &mut out);
    }
    for (i, p) in f.params.iter().enumerate() {
        let origin = Origin::Param { index: i as u32, dir: p.dir, uniform: p.uniform };
        let cells = entry.params.get(i).cloned().unwrap_or_default();
        leaves(module, &origin, p.name.clone(), p.semantic.clone(), p.ty, &cells, &mut out);
    }
    leaves(module, &Origin::Return, String::new(), f.ret_semantic.clone(), f.ret, &entry.ret, &mut out);
    let mut interface: BTreeSet<usize> = c.globals.iter().flatten().copied().collect();
    interface.extend(entry.params.iter().flatten().copied());
    let written = c.written.intersection(&interface).copied().collect();
    let body = entry.body.clone();
    Ok(Compiled {
        cells: c.next,
        consts: c.consts,
        setup: chain(setup).unwrap_or_else(noop),
        per_invocation: chain(per_invocation).unwrap_or_else(noop),
        entry: Box::new(move |m| body(m)),
        leaves: out,
        written,
        warnings: c.warnings,
        pragmas: module.pragmas.clone(),
    })
}
