//! The porting pipeline: [`run`] binds both stages of a pass to RetroArch's runtime
//! ([`bind`], the one step that reads the preset context), runs the IR rewrites in the
//! one order declared in [`REWRITES`], and plans the connectors between the stages. What it returns is everything the writer consumes.
//!
//! Each rewrite runs over both stages before the next one starts (so diagnostics keep
//! the order the passes declare). In debug builds and tests the IR validator
//! ([`crate::ir::valid`]) checks every module a rewrite changed; invalid IR becomes the
//! internal error E0407 naming the pass, so a broken rewrite is caught where it breaks
//! and never reaches the writer as a wrong translation. It never prints text and never
//! decides a spelling: the writer does.

use super::connectors::{self, Connectors};
use super::dialect::Dialect;
use super::semantics::{self, Bindings};
use super::{eager_logic, odd_matrices, runtime_values, texture_args, vertex_derivatives, written_uniforms};
use crate::codes;
use crate::ir::{valid, Expr, ExprKind, Exprs, Handle, Module, Stage};
use crate::retro::PassContext;
use grammar::Diagnostic;
use std::borrow::Cow;

/// What one stage's rewrites may read and update besides its module.
pub struct StagePort {
    pub stage: Stage,
    /// What the runtime bound to the stage's parameters and globals.
    pub bindings: Bindings,
    /// Findings of the rewrites (errors where a rewrite cannot express the program).
    pub diagnostics: Vec<Diagnostic>,
    /// Whether a rewrite left the stage's IR ill-formed (debug builds and tests).
    ill_formed: bool,
}

impl StagePort {
    pub fn new(stage: Stage, bindings: Bindings) -> StagePort {
        StagePort { stage, bindings, diagnostics: Vec::new(), ill_formed: false }
    }
}

/// One IR-to-IR porting pass: the module unchanged (borrowed) or rewritten.
pub type Rewrite = for<'m> fn(&'m Module, &mut StagePort) -> Cow<'m, Module>;

/// The IR rewrites, in the order they run, each with the name E0407 reports.
pub const REWRITES: &[(&str, Rewrite)] = &[
    // Global copies of texture structs (`IN_global = IN;`) become names of them.
    ("texture_args::alias_copies", |m, s| texture_args::alias_copies(m, &mut s.bindings)),
    // After alias_copies: `IN_global = IN;` is a new name of IN, not a write.
    ("written_uniforms", |m, s| written_uniforms::localise_written_uniforms(m, &s.bindings)),
    ("texture_args::flatten", |m, s| texture_args::flatten(m, &s.bindings, &mut s.diagnostics)),
    ("odd_matrices", |m, _| odd_matrices::lower_odd_matrices(m)),
    ("vertex_derivatives", |m, s| vertex_derivatives::zero_vertex_derivatives(m, s.stage)),
    // `IN.video_size`, `modelViewProj`: the values RetroArch's slang runtime provides.
    ("runtime_values", runtime_values::name_runtime_values),
    // `a && f(x)`, `bvec && bvec`: both operands evaluated, per component.
    ("eager_logic", eager_logic::make_logic_eager),
];

/// Both stages of a pass, ported: what the writer consumes.
pub struct PortedStages<'m> {
    pub vertex: Cow<'m, Module>,
    pub fragment: Cow<'m, Module>,
    pub vertex_bindings: Bindings,
    pub fragment_bindings: Bindings,
    pub connectors: Connectors,
    /// The passes' diagnostics, in pipeline order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Ports the two analysed stages of a pass into its preset context. `parameters` are
/// the `#pragma parameter` names the pass may bind (its own and the preset's).
pub fn run<'m>(vertex: &'m Module, fragment: &'m Module, ctx: &PassContext, parameters: &[String]) -> PortedStages<'m> {
    let bound = bind(vertex, fragment, ctx, parameters);
    run_bound(vertex, fragment, &bound)
}

/// What the runtime binds to both stages' parameters and globals in one preset context,
/// with the binding's findings: all that the rest of the porting ([`run_bound`]) reads
/// of the context. Two contexts that bind alike port alike.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundStages {
    pub vertex: Bindings,
    pub fragment: Bindings,
    pub diagnostics: Vec<Diagnostic>,
}

/// Binds both stages in `ctx` (see [`run`] for `parameters`).
pub fn bind(vertex: &Module, fragment: &Module, ctx: &PassContext, parameters: &[String]) -> BoundStages {
    let mut diagnostics = Vec::new();
    let vertex = semantics::bind(vertex, ctx, parameters, &mut diagnostics);
    let fragment = semantics::bind(fragment, ctx, parameters, &mut diagnostics);
    BoundStages { vertex, fragment, diagnostics }
}

/// Ports two bound stages: the rewrites, then the connectors. Reads no preset context
/// but what `bound` holds.
pub fn run_bound<'m>(vertex: &'m Module, fragment: &'m Module, bound: &BoundStages) -> PortedStages<'m> {
    let mut diagnostics = bound.diagnostics.clone();
    let mut stages = [
        (Cow::Borrowed(vertex), StagePort::new(Stage::Vertex, bound.vertex.clone())),
        (Cow::Borrowed(fragment), StagePort::new(Stage::Fragment, bound.fragment.clone())),
    ];
    for &(name, rewrite) in REWRITES {
        for (module, port) in &mut stages {
            apply(name, rewrite, module, port);
            diagnostics.append(&mut port.diagnostics);
        }
    }
    let [(vertex, vp), (fragment, fp)] = stages;
    let connectors = connectors::plan(Some((&vertex, &vp.bindings)), Some((&fragment, &fp.bindings)), &mut diagnostics);
    PortedStages {
        vertex,
        fragment,
        vertex_bindings: vp.bindings,
        fragment_bindings: fp.bindings,
        connectors,
        diagnostics,
    }
}

/// Runs one rewrite on `module`; in debug builds and tests, validates what it changed
/// (the first pass that breaks a stage is the one reported, E0407).
fn apply<'m>(name: &str, rewrite: Rewrite, module: &mut Cow<'m, Module>, port: &mut StagePort) {
    let rewritten = match rewrite(module, port) {
        Cow::Borrowed(_) => None,
        Cow::Owned(m) => Some(m),
    };
    if let Some(m) = rewritten {
        if cfg!(debug_assertions) && !port.ill_formed {
            if let Some(d) = invalid_ir(name, port.stage, &m) {
                port.ill_formed = true;
                port.diagnostics.push(d);
            }
        }
        *module = Cow::Owned(m);
    }
}

/// A node-by-node rule: the new kind of a node, or `None` to keep it.
pub type NodeRule = dyn Fn(&Module, &Exprs, Handle<Expr>) -> Option<ExprKind>;

/// Replaces every node `rule` gives a new kind, in every expression arena of the
/// module (all functions and the global initialisers); borrows the module when there is
/// none. The mechanism of the rewrites that decide node by node.
pub fn replace_nodes<'m>(module: &'m Module, rule: &NodeRule) -> Cow<'m, Module> {
    let found = |exprs: &Exprs| -> Vec<(Handle<Expr>, ExprKind)> {
        exprs.iter().filter_map(|(h, _)| rule(module, exprs, h).map(|k| (h, k))).collect()
    };
    let in_functions: Vec<_> = module.functions.iter().map(|(f, func)| (f, found(&func.exprs))).collect();
    let in_globals = found(&module.global_exprs);
    if in_globals.is_empty() && in_functions.iter().all(|(_, x)| x.is_empty()) {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    for (f, nodes) in in_functions {
        for (h, kind) in nodes {
            out.functions[f].exprs.get_mut(h).kind = kind;
        }
    }
    for (h, kind) in in_globals {
        out.global_exprs.get_mut(h).kind = kind;
    }
    Cow::Owned(out)
}

/// E0407 for a module a rewrite left ill-formed (debug builds and tests only).
fn invalid_ir(pass: &str, stage: Stage, m: &Module) -> Option<Diagnostic> {
    let problems = valid::validate(m);
    let first = problems.first()?;
    let more = match problems.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(
        Diagnostic::error(
            codes::E_PORT_INVALID_IR,
            format!("internal error: the porting pass `{pass}` left the {stage} stage's IR ill-formed: {first}{more}"),
        )
        .with_note("this is a bug in cg2slang, not in the shader; please report it with the shader"),
    )
}

/// The two stages of `ported` as `dialect` needs them: rewritten by the dialect's own
/// passes (the naga dialect's, [`super::naga_dialect::REWRITES`]), borrowed unchanged
/// for canonical slang. Validated like the main pipeline.
pub fn for_dialect<'p>(ported: &'p PortedStages<'_>, dialect: Dialect) -> DialectStages<'p> {
    let rewrites = match dialect {
        Dialect::Canonical => &[][..],
        Dialect::Naga => super::naga_dialect::REWRITES,
    };
    let mut diagnostics = Vec::new();
    let mut stage = |module: &'p Module, stage: Stage, bindings: &Bindings| {
        let mut port = StagePort::new(stage, bindings.clone());
        let mut current = Cow::Borrowed(module);
        for &(name, rewrite) in rewrites {
            apply(name, rewrite, &mut current, &mut port);
        }
        diagnostics.append(&mut port.diagnostics);
        current
    };
    let vertex = stage(&ported.vertex, Stage::Vertex, &ported.vertex_bindings);
    let fragment = stage(&ported.fragment, Stage::Fragment, &ported.fragment_bindings);
    DialectStages { vertex, fragment, diagnostics }
}

/// Both stages in one dialect's form ([`for_dialect`]).
pub struct DialectStages<'p> {
    pub vertex: Cow<'p, Module>,
    pub fragment: Cow<'p, Module>,
    /// The dialect passes' diagnostics (E0407 only, in debug builds).
    pub diagnostics: Vec<Diagnostic>,
}
