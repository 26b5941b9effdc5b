//! The slang writer: two stages of one Cg program to one RetroArch `.slang` file.
//!
//! First each stage is planned from the IR alone ([`plan`]: the functions to write,
//! the entry parameters read through a local copy, the uniform reads), and the
//! push/UBO layout both stages share is laid out from the planned reads. Then one
//! [`StageWriter`] per stage prints the reachable IR once, in order, with one `match`
//! per statement and expression kind, consulting the porting passes' plans (bindings,
//! connectors, the standard-library mapping, names) and [`operands`] (which
//! expressions are plain paths that may be repeated). It never re-reads what it
//! printed. Output is deterministic; every output line records the Cg span it came
//! from (the line map).
//!
//! It never decides porting rules itself: those live in [`crate::port`].
//!
//! Submodules: [`plan`], [`operands`], [`declarations`] (the stage's layout: names,
//! interface, structs, globals), [`functions`] (function and entry-point bodies, the
//! connector reads and writes), [`statements`], [`expressions`], [`naga`] (what naga's
//! GLSL front end needs), [`facts`] (questions asked of the IR) and [`text`] (GLSL
//! spellings of literals and precedence).

mod declarations;
mod expressions;
mod facts;
mod functions;
mod naga;
mod operands;
mod plan;
mod statements;
#[cfg(test)]
mod tests;
mod text;

use facts::*;
use naga::*;
use plan::{plan_stage, StagePlan};
use text::*;

use crate::codes;
use crate::ir::{Function, Handle, Module, Stage, StructId, Type, Var};
use crate::port::connectors::{Connectors, Place};
use crate::port::dialect::Dialect;
use crate::port::names::Namer;
use crate::port::semantics::{Binding, Bindings};
use crate::port::stdlib::{glsl_type, Helpers};
use crate::port::uniforms::{self, Layout};
use crate::retro::{CgTextureStruct, Texture, Uniform};
use grammar::{Diagnostic, Span};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What the writer needs besides the two modules.
pub struct WriteInput<'a> {
    pub vertex: &'a Module,
    pub fragment: &'a Module,
    pub vertex_bindings: &'a Bindings,
    pub fragment_bindings: &'a Bindings,
    pub connectors: &'a Connectors,
    /// The Cg file's leading comment block, verbatim (may be empty).
    pub header: String,
    /// `#pragma parameter` lines, verbatim, with the Cg line each came from (none for
    /// a line repeated from another pass of the preset).
    pub parameter_pragmas: Vec<(String, Option<Span>)>,
    /// `<alias>_ALIAS` defines for every alias of the preset.
    pub alias_defines: Vec<String>,
}

/// The emitted file and where each line came from.
pub struct Written {
    pub text: String,
    /// For each output line (0-based), the Cg span it was written from.
    pub line_map: Vec<Option<Span>>,
    pub layout: Layout,
    pub diagnostics: Vec<Diagnostic>,
}

/// In the naga dialect, the sampler of the texture at binding `n` is at `n + 16`
/// (slang bindings stay below 16).
pub const NAGA_SAMPLER_BINDING_OFFSET: usize = 16;

/// The naga dialect's sampler object for a texture: `Source` -> `Source_sampler`.
pub fn naga_sampler_name(t: &Texture) -> String {
    format!("{}_sampler", t.sampler_name())
}

/// One stage of the naga dialect: a complete GLSL 450 text and its line map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageText {
    pub text: String,
    /// For each output line (0-based), the Cg span it was written from.
    pub line_map: Vec<Option<Span>>,
}

/// The naga dialect of a vertex/fragment pair.
pub struct NagaWritten {
    pub vertex: StageText,
    pub fragment: StageText,
    pub diagnostics: Vec<Diagnostic>,
}

/// Both stages written in one dialect.
struct Stages {
    vertex: Lines,
    fragment: Lines,
    layout: Layout,
    diagnostics: Vec<Diagnostic>,
}

/// Plans both stages, lays out the uniforms they read, then prints each stage once.
fn write_stages(input: &WriteInput<'_>, dialect: Dialect) -> Stages {
    let vertex_plan = plan_stage(input.vertex, Stage::Vertex, input.vertex_bindings, input.connectors);
    let fragment_plan = plan_stage(input.fragment, Stage::Fragment, input.fragment_bindings, input.connectors);
    let mut reads: BTreeMap<Uniform, usize> = BTreeMap::new();
    for (u, n) in vertex_plan.uniform_reads.iter().chain(&fragment_plan.uniform_reads) {
        *reads.entry(u.clone()).or_default() += n;
    }
    let layout = uniforms::layout(&reads);
    let mut diagnostics = Vec::new();
    let mut write = |m, stage, b, plan| {
        let mut w = StageWriter::new(m, stage, b, input.connectors, &layout, plan, dialect);
        w.write_stage();
        diagnostics.append(&mut w.take_diagnostics());
        w.out
    };
    let vertex = write(input.vertex, Stage::Vertex, input.vertex_bindings, vertex_plan);
    let fragment = write(input.fragment, Stage::Fragment, input.fragment_bindings, fragment_plan);
    Stages { vertex, fragment, layout, diagnostics }
}

/// The push block and UBO, identical in both stages.
fn uniform_blocks(out: &mut Lines, layout: &Layout) {
    let block = |out: &mut Lines, decl: &str, name: &str, members: &[Uniform]| {
        out.push("", None);
        out.push(decl, None);
        out.push("{", None);
        for m in members {
            let (ty, _) = m.glsl_type();
            out.push(&format!("    {ty} {};", m.name()), None);
        }
        out.push(&format!("}} {name};"), None);
    };
    if !layout.push.is_empty() {
        block(out, "layout(push_constant) uniform Push", "params", &layout.push);
    }
    if !layout.ubo.is_empty() {
        block(out, "layout(std140, set = 0, binding = 0) uniform UBO", "global", &layout.ubo);
    }
}

fn append_stage(out: &mut Lines, stage: &Lines) {
    out.lines.extend(stage.lines.iter().cloned());
    out.spans.extend(stage.spans.iter().copied());
}

/// Writes the canonical slang text of a vertex/fragment pair.
pub fn write(input: &WriteInput<'_>) -> Written {
    let stages = write_stages(input, Dialect::Canonical);
    let layout = stages.layout;
    let mut out = Lines::default();
    out.push("#version 450", None);
    if !input.header.is_empty() {
        out.push("", None);
        for l in input.header.lines() {
            out.push(l.trim_end(), None);
        }
    }
    if !input.parameter_pragmas.is_empty() {
        out.push("", None);
        for (p, span) in &input.parameter_pragmas {
            out.push(p, *span);
        }
    }
    if !input.alias_defines.is_empty() {
        out.push("", None);
        for d in &input.alias_defines {
            out.push(&format!("#define {d}"), None);
        }
    }
    uniform_blocks(&mut out, &layout);
    for (pragma, stage) in [("#pragma stage vertex", &stages.vertex), ("#pragma stage fragment", &stages.fragment)] {
        out.push("", None);
        out.push(pragma, None);
        append_stage(&mut out, stage);
    }
    Written { text: out.text(), line_map: out.spans, layout, diagnostics: stages.diagnostics }
}

/// Writes the naga dialect: one GLSL text per stage, separate `texture2D` and
/// `sampler` objects (the sampler of binding `n` at `n + 16`), samplers passed to
/// functions as texture + sampler pairs, no `#pragma` lines. Same IR, same names and
/// same uniform layout as [`write`].
pub fn write_naga(input: &WriteInput<'_>) -> NagaWritten {
    let stages = write_stages(input, Dialect::Naga);
    let stage_text = |lines: &Lines| {
        let mut out = Lines::default();
        out.push("#version 450", None);
        uniform_blocks(&mut out, &stages.layout);
        out.push("", None);
        append_stage(&mut out, lines);
        StageText { text: out.text(), line_map: out.spans }
    };
    NagaWritten {
        vertex: stage_text(&stages.vertex),
        fragment: stage_text(&stages.fragment),
        diagnostics: stages.diagnostics,
    }
}

/// Output lines with their origins.
#[derive(Default)]
struct Lines {
    lines: Vec<String>,
    spans: Vec<Option<Span>>,
}

impl Lines {
    fn push(&mut self, line: &str, span: Option<Span>) {
        for l in line.split('\n') {
            self.lines.push(l.to_owned());
            self.spans.push(span);
        }
    }
    fn text(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }
}

/// A printed expression and its precedence (16 primary ... 0 comma).
type Printed = (String, u8);

struct StageWriter<'a> {
    m: &'a Module,
    stage: Stage,
    b: &'a Bindings,
    conn: &'a Connectors,
    out: Lines,
    /// The uniform blocks of both stages, laid out before either is printed.
    layout: &'a Layout,
    /// What was decided before printing ([`plan`]).
    plan: StagePlan,
    /// The uniform reads printed, per uniform: must equal the plan's count.
    uses: BTreeMap<Uniform, usize>,
    helpers: Helpers,
    diags: Vec<Diagnostic>,
    /// What the writer found no name for (an internal error each, see [`Self::spelled`]).
    unnamed: std::cell::RefCell<BTreeSet<String>>,
    textures: BTreeSet<Texture>,
    namer: Namer,
    global_names: HashMap<Handle<crate::ir::Global>, String>,
    fn_names: HashMap<Handle<Function>, String>,
    struct_names: HashMap<StructId, String>,
    /// Local and parameter names of the function being written.
    local_names: HashMap<Handle<crate::ir::Local>, String>,
    param_names: Vec<String>,
    /// Sampler variables that alias a texture (`const sampler2D t = ORIG.texture`):
    /// the printed texture, and whether it is a plain path ([`operands`]).
    sampler_alias: HashMap<Var, (String, bool)>,
    cur: Option<Handle<Function>>,
    in_entry: bool,
    varying_names: HashMap<Place, String>,
    span: Option<Span>,
    /// The dialect being written: what its compiler needs ([`Dialect`]).
    dialect: Dialect,
    /// Naga dialect: the sampler paired with each texture global, by texture name.
    texture_samplers: HashMap<String, String>,
    /// Naga dialect: the sampler parameter paired with each sampler parameter of the
    /// function being written, by parameter name.
    param_samplers: HashMap<String, String>,
    /// Naga dialect: assignments that initialise, at the top of `main`, the globals
    /// whose initialisers naga cannot evaluate as constants.
    deferred_inits: Vec<(String, Option<Span>)>,
    /// The line of `main`'s text where its body starts (after `{`): where the
    /// deferred initialisers go.
    main_body_start: usize,
}

impl<'a> StageWriter<'a> {
    fn new(
        m: &'a Module,
        stage: Stage,
        b: &'a Bindings,
        conn: &'a Connectors,
        layout: &'a Layout,
        plan: StagePlan,
        dialect: Dialect,
    ) -> StageWriter<'a> {
        let mut namer = Namer::new();
        // Texture names (and their naga samplers) are the runtime's: no Cg name may take
        // them. Reserved in both dialects so that both name everything alike.
        for binding in b.params.iter().chain(b.globals.values()) {
            let t = match binding {
                Binding::Sampler(t) | Binding::TextureStruct(CgTextureStruct::Texture(t)) => t.clone(),
                Binding::TextureStruct(CgTextureStruct::Input) => Texture::Source,
                _ => continue,
            };
            namer.reserve(&t.sampler_name());
            namer.reserve(&naga_sampler_name(&t));
        }
        StageWriter {
            m,
            stage,
            b,
            conn,
            out: Lines::default(),
            layout,
            plan,
            uses: BTreeMap::new(),
            helpers: Helpers::new(),
            diags: Vec::new(),
            unnamed: std::cell::RefCell::new(BTreeSet::new()),
            textures: BTreeSet::new(),
            namer,
            global_names: HashMap::new(),
            fn_names: HashMap::new(),
            struct_names: HashMap::new(),
            local_names: HashMap::new(),
            param_names: Vec::new(),
            sampler_alias: HashMap::new(),
            cur: None,
            in_entry: false,
            varying_names: HashMap::new(),
            span: None,
            dialect,
            texture_samplers: HashMap::new(),
            param_samplers: HashMap::new(),
            deferred_inits: Vec::new(),
            main_body_start: 0,
        }
    }

    fn vertex(&self) -> bool {
        self.stage == Stage::Vertex
    }

    /// `name`, or, where the IR gave none, an empty string and an internal error
    /// naming `what` (reported with the stage's diagnostics: the output is not used).
    fn spelled(&self, name: Option<String>, what: impl FnOnce() -> String) -> String {
        name.unwrap_or_else(|| {
            self.unnamed.borrow_mut().insert(what());
            String::new()
        })
    }

    /// The GLSL spelling of `ty` ([`Self::spelled`]).
    fn type_name(&self, ty: Type) -> String {
        self.spelled(glsl_type(ty), || format!("the type {ty:?}"))
    }

    /// The name of struct `s` ([`Self::spelled`]).
    fn struct_name(&self, s: StructId) -> String {
        self.spelled(self.struct_names.get(&s).cloned(), || format!("struct #{}", s.0))
    }

    /// The stage's diagnostics, with one internal error per unnamed thing and one when
    /// the uniform reads printed differ from those planned (the layout would be wrong).
    fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        let mut out = std::mem::take(&mut self.diags);
        if self.uses != self.plan.uniform_reads {
            out.push(Diagnostic::error(
                codes::E_WRITER_INTERNAL,
                format!(
                    "internal error: the slang writer printed the uniform reads {:?} but planned {:?}; the uniform blocks are not usable",
                    self.uses, self.plan.uniform_reads
                ),
            ));
            self.uses = self.plan.uniform_reads.clone();
        }
        for what in std::mem::take(&mut *self.unnamed.borrow_mut()) {
            out.push(Diagnostic::error(
                codes::E_WRITER_INTERNAL,
                format!("internal error: the slang writer has no name for {what}; the output is not usable"),
            ));
        }
        out
    }

    fn unsupported(&mut self, span: Option<Span>, message: impl Into<String>) {
        let mut d = Diagnostic::error(codes::E_UNSUPPORTED, message);
        if let Some(s) = span.or(self.span) {
            d = d.with_primary(s, "");
        }
        if !self.diags.contains(&d) {
            self.diags.push(d);
        }
    }

    /// A read of uniform `u`, in its block (`params.SourceSize`).
    fn uniform(&mut self, u: Uniform) -> String {
        let text = format!("{}.{}", self.layout.block_of(&u), u.name());
        *self.uses.entry(u).or_default() += 1;
        text
    }

    fn texture(&mut self, t: &Texture) -> String {
        if self.vertex() {
            self.unsupported(
                None,
                format!(
                    "texture `{}` read in the vertex stage: slang binds samplers in the fragment stage only",
                    t.sampler_name()
                ),
            );
        }
        self.textures.insert(t.clone());
        if self.dialect.separate_samplers() {
            self.texture_samplers.insert(t.sampler_name(), naga_sampler_name(t));
        }
        t.sampler_name()
    }

    /// Naga dialect: the sampler object paired with a printed texture expression.
    fn sampler_of(&self, texture: &str) -> Option<String> {
        self.param_samplers.get(texture).or_else(|| self.texture_samplers.get(texture)).cloned()
    }

    /// A printed sampler-typed expression as a naga-dialect pair, or a diagnostic when
    /// the expression is not a texture the writer knows the sampler of.
    fn naga_pair(&mut self, texture: &str, span: Span) -> (String, String) {
        match self.sampler_of(texture) {
            Some(s) => (texture.to_owned(), s),
            None => {
                self.unsupported(
                    Some(span),
                    format!("sampler expression `{texture}` cannot be split into a texture and a sampler for naga"),
                );
                (texture.to_owned(), format!("{texture}_sampler"))
            }
        }
    }
}
