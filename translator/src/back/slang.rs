//! The slang writer: two stages of one Cg program to one RetroArch `.slang` file.
//!
//! One [`StageWriter`] per stage walks the reachable IR with one big `match` per
//! statement and expression kind, consulting the porting passes' plans (bindings,
//! connectors, the standard-library mapping, names). Uniform reads are written as
//! placeholders and resolved once the push/UBO layout of both stages is known, so the
//! two stages share identical blocks. Output is deterministic; every output line records
//! the Cg span it came from (the line map).
//!
//! It never decides porting rules itself: those live in [`crate::port`].

use crate::codes;
use crate::ir::{
    BinaryOp, Builtin, Expr, ExprKind, Exprs, Function, Handle, IncDec, Literal, Module, ParamDir, Scalar, Stage, Stmt,
    Type, UnaryOp, Var,
};
use crate::port::connectors::{Connectors, Place, SlotKind};
use crate::port::matrix::{glsl_operands, MulForm};
use crate::port::names::Namer;
use crate::port::semantics::{Binding, Bindings};
use crate::port::stdlib::{self, glsl_type, paren, Arg, Helpers, MULTIPLICATIVE, PRIMARY};
use crate::port::uniforms::{self, Layout};
use crate::retro::{CgTextureStruct, Texture, Uniform};
use grammar::{Diagnostic, Span};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write;

const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';

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

/// Both stages written in one dialect, uniform reads still placeholders.
struct Stages {
    vertex: Lines,
    fragment: Lines,
    layout: Layout,
    diagnostics: Vec<Diagnostic>,
}

fn write_stages(input: &WriteInput<'_>, naga: bool) -> Stages {
    let mut vs = StageWriter::new(input.vertex, Stage::Vertex, input.vertex_bindings, input.connectors, naga);
    vs.write_stage();
    let mut fs = StageWriter::new(input.fragment, Stage::Fragment, input.fragment_bindings, input.connectors, naga);
    fs.write_stage();
    let mut uses: BTreeMap<Uniform, usize> = BTreeMap::new();
    for (u, n) in vs.uses.iter().chain(fs.uses.iter()) {
        *uses.entry(u.clone()).or_default() += n;
    }
    let layout = uniforms::layout(&uses);
    let mut diagnostics = vs.take_diagnostics();
    diagnostics.append(&mut fs.take_diagnostics());
    Stages { vertex: vs.out, fragment: fs.out, layout, diagnostics }
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

fn append_stage(out: &mut Lines, stage: &Lines, layout: &Layout) {
    for (line, span) in stage.lines.iter().zip(&stage.spans) {
        out.push(&resolve_placeholders(line, layout), *span);
    }
}

/// Writes the canonical slang text of a vertex/fragment pair.
pub fn write(input: &WriteInput<'_>) -> Written {
    let stages = write_stages(input, false);
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
        append_stage(&mut out, stage, &layout);
    }
    Written { text: out.text(), line_map: out.spans, layout, diagnostics: stages.diagnostics }
}

/// Writes the naga dialect: one GLSL text per stage, separate `texture2D` and
/// `sampler` objects (the sampler of binding `n` at `n + 16`), samplers passed to
/// functions as texture + sampler pairs, no `#pragma` lines. Same IR, same names and
/// same uniform layout as [`write`].
pub fn write_naga(input: &WriteInput<'_>) -> NagaWritten {
    let stages = write_stages(input, true);
    let stage_text = |lines: &Lines| {
        let mut out = Lines::default();
        out.push("#version 450", None);
        uniform_blocks(&mut out, &stages.layout);
        out.push("", None);
        append_stage(&mut out, lines, &stages.layout);
        StageText { text: out.text(), line_map: out.spans }
    };
    NagaWritten {
        vertex: stage_text(&stages.vertex),
        fragment: stage_text(&stages.fragment),
        diagnostics: stages.diagnostics,
    }
}

fn resolve_placeholders(line: &str, layout: &Layout) -> String {
    if !line.contains(OPEN) {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + OPEN.len_utf8()..];
        let j = after.find(CLOSE).unwrap_or(after.len());
        let name = &after[..j];
        let block = if layout.push.iter().any(|u| u.name() == name) { "params" } else { "global" };
        let _ = write!(out, "{block}.{name}");
        rest = after.get(j + CLOSE.len_utf8()..).unwrap_or("");
    }
    out.push_str(rest);
    out
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
    uses: BTreeMap<Uniform, usize>,
    helpers: Helpers,
    diags: Vec<Diagnostic>,
    /// What the writer found no name for (an internal error each, see [`Self::spelled`]).
    unnamed: std::cell::RefCell<BTreeSet<String>>,
    textures: BTreeSet<Texture>,
    namer: Namer,
    global_names: HashMap<Handle<crate::ir::Global>, String>,
    fn_names: HashMap<Handle<Function>, String>,
    struct_names: HashMap<u32, String>,
    /// Local and parameter names of the function being written.
    local_names: HashMap<Handle<crate::ir::Local>, String>,
    param_names: Vec<String>,
    /// Sampler variables that alias a texture (`const sampler2D t = ORIG.texture`).
    sampler_alias: HashMap<Var, String>,
    cur: Option<Handle<Function>>,
    in_entry: bool,
    /// Entry parameters read through a local copy (written, or used whole).
    copied_params: HashSet<u32>,
    varying_names: HashMap<Place, String>,
    span: Option<Span>,
    /// Writing the naga dialect: separate `texture2D` and `sampler` objects.
    naga: bool,
    /// Naga dialect: the sampler paired with each texture global, by texture name.
    texture_samplers: HashMap<String, String>,
    /// Naga dialect: the sampler parameter paired with each sampler parameter of the
    /// function being written, by parameter name.
    param_samplers: HashMap<String, String>,
    /// Naga dialect: assignments that initialise, at the top of `main`, the globals
    /// whose initialisers naga cannot evaluate as constants.
    deferred_inits: Vec<(String, Option<Span>)>,
}

impl<'a> StageWriter<'a> {
    fn new(m: &'a Module, stage: Stage, b: &'a Bindings, conn: &'a Connectors, naga: bool) -> StageWriter<'a> {
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
            copied_params: HashSet::new(),
            varying_names: HashMap::new(),
            span: None,
            naga,
            texture_samplers: HashMap::new(),
            param_samplers: HashMap::new(),
            deferred_inits: Vec::new(),
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
    fn struct_name(&self, s: u32) -> String {
        self.spelled(self.struct_names.get(&s).cloned(), || format!("struct #{s}"))
    }

    /// The stage's diagnostics, with one internal error per unnamed thing.
    fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        let mut out = std::mem::take(&mut self.diags);
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

    fn uniform(&mut self, u: Uniform) -> String {
        let name = u.name();
        *self.uses.entry(u).or_default() += 1;
        format!("{OPEN}{name}{CLOSE}")
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
        if self.naga {
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

    // ---- the stage ----

    fn write_stage(&mut self) {
        let Some(entry) = self.m.entry_point.clone() else { return };
        let order = self.reachable(entry.function);
        self.name_globals_and_functions(&order);
        // Varying names are taken before any local is named, so locals never shadow them.
        let places: Vec<Place> = if self.vertex() {
            self.conn
                .vertex_outputs
                .iter()
                .filter(|s| matches!(s.kind, SlotKind::Varying(_)))
                .map(|s| s.place)
                .collect()
        } else {
            self.conn
                .fragment_inputs
                .iter()
                .filter(|s| matches!(s.kind, SlotKind::Varying(_)))
                .map(|s| s.place)
                .collect()
        };
        for p in places {
            self.varying_name(self.vertex(), p);
        }
        self.find_sampler_aliases(entry.function);
        // Bodies first (they decide which structs, globals, helpers and textures are
        // needed), then assemble: interface, structs, globals, helpers, functions, main.
        let mut bodies = Vec::new();
        for &f in &order {
            let saved = std::mem::take(&mut self.out);
            if f == entry.function {
                self.entry_main(f);
            } else {
                self.function(f);
            }
            bodies.push(std::mem::replace(&mut self.out, saved));
        }
        let mut head = Lines::default();
        self.interface_decls(&mut head);
        self.struct_decls(&mut head, &order);
        self.global_decls(&mut head, &order);
        // Deferred global initialisers run first in `main` (after its `{`).
        if let Some(main) = order.iter().position(|&f| f == entry.function).and_then(|i| bodies.get_mut(i)) {
            let at = main.lines.iter().position(|l| l == "{").map_or(main.lines.len(), |i| i + 1);
            for (k, (line, span)) in self.deferred_inits.iter().enumerate() {
                main.lines.insert(at + k, format!("    {line}"));
                main.spans.insert(at + k, *span);
            }
        }
        for h in self.helpers.values() {
            head.push("", None);
            head.push(h.trim_end(), None);
        }
        let mut all = head;
        for b in bodies {
            all.push("", None);
            all.lines.extend(b.lines);
            all.spans.extend(b.spans);
        }
        self.out = all;
    }

    /// Functions reachable from the entry point, callees before callers.
    fn reachable(&self, entry: Handle<Function>) -> Vec<Handle<Function>> {
        let mut order = Vec::new();
        let mut state: HashMap<Handle<Function>, u8> = HashMap::new();
        let mut stack = vec![(entry, false)];
        while let Some((f, done)) = stack.pop() {
            if done {
                state.insert(f, 2);
                order.push(f);
                continue;
            }
            if state.contains_key(&f) {
                continue;
            }
            state.insert(f, 1);
            stack.push((f, true));
            let func = &self.m.functions[f];
            let mut callees: Vec<Handle<Function>> = func
                .exprs
                .iter()
                .filter_map(|(_, e)| if let ExprKind::Call { function, .. } = e.kind { Some(function) } else { None })
                .collect();
            callees.sort();
            callees.dedup();
            for c in callees.into_iter().rev() {
                if !state.contains_key(&c) {
                    stack.push((c, false));
                }
            }
        }
        order
    }

    fn name_globals_and_functions(&mut self, order: &[Handle<Function>]) {
        for (i, s) in self.m.structs.iter().enumerate() {
            let name = self.namer.name(s.name.as_deref().unwrap_or("Anonymous"));
            self.struct_names.insert(i as u32, name);
        }
        for (h, g) in self.m.globals.iter() {
            let name = self.namer.name(&g.name);
            self.global_names.insert(h, name);
        }
        let mut signatures: HashSet<String> = HashSet::new();
        let mut given: HashSet<String> = HashSet::new();
        for &f in order {
            let func = &self.m.functions[f];
            if Some(f) == self.m.entry_point.as_ref().map(|e| e.function) {
                continue;
            }
            let wanted = match func.method_of {
                Some(s) => format!("{}_{}", self.m.struct_def(s).name.as_deref().unwrap_or("S"), func.name),
                None => func.name.clone(),
            };
            // GLSL overloads on its own (coarser) types: rename only on a clash.
            let sig: Vec<String> =
                func.params.iter().map(|p| glsl_type(p.ty).unwrap_or_else(|| self.m.type_name(p.ty))).collect();
            let taken_before = given.contains(&wanted);
            let key = format!("{wanted}({})", sig.join(","));
            let name = if taken_before && !signatures.contains(&key) && !crate::port::names::is_reserved(&wanted) {
                wanted.clone()
            } else {
                self.namer.name(&wanted)
            };
            signatures.insert(format!("{name}({})", sig.join(",")));
            given.insert(name.clone());
            self.fn_names.insert(f, name);
        }
    }

    /// Sampler globals assigned in the entry point's top level (`s0_global =
    /// PASSPREV.texture;`) and const sampler locals are aliases of a texture.
    fn find_sampler_aliases(&mut self, entry: Handle<Function>) {
        let f = &self.m.functions[entry];
        let Some(body) = &f.body else { return };
        let saved = (self.cur, self.in_entry);
        self.cur = Some(entry);
        self.in_entry = true;
        for (s, _) in &body.stmts {
            if let Stmt::Expr(h) = s {
                if let ExprKind::Assign { op: None, target, value } = &f.exprs[*h].kind {
                    if let ExprKind::Var(v @ Var::Global(_)) = f.exprs[*target].kind {
                        if f.exprs[*target].ty.is_sampler() {
                            let text = self.expr(&f.exprs, *value).0;
                            self.sampler_alias.insert(v, text);
                        }
                    }
                }
            }
        }
        (self.cur, self.in_entry) = saved;
    }

    fn interface_decls(&mut self, out: &mut Lines) {
        let mut lines = Vec::new();
        if self.vertex() {
            // RetroArch requires exactly these two inputs, used or not.
            lines.push("layout(location = 0) in vec4 Position;".to_owned());
            lines.push("layout(location = 1) in vec2 TexCoord;".to_owned());
            let mut seen = BTreeSet::new();
            for s in &self.conn.vertex_outputs {
                if let SlotKind::Varying(loc) = s.kind {
                    if seen.insert(loc) {
                        let name = self.varying_name(true, s.place);
                        lines.push(format!("layout(location = {loc}) out {} {name};", self.type_name(s.ty)));
                    }
                }
            }
        } else {
            let mut seen = BTreeSet::new();
            for s in &self.conn.fragment_inputs {
                if let SlotKind::Varying(loc) = s.kind {
                    if seen.insert(loc) {
                        let name = self.varying_name(false, s.place);
                        lines.push(format!("layout(location = {loc}) in {} {name};", self.type_name(s.ty)));
                    }
                }
            }
            lines.push("layout(location = 0) out vec4 FragColor;".to_owned());
            for (i, t) in self.textures.iter().enumerate() {
                if self.naga {
                    lines.push(format!("layout(set = 0, binding = {}) uniform texture2D {};", i + 1, t.sampler_name()));
                    lines.push(format!(
                        "layout(set = 0, binding = {}) uniform sampler {};",
                        i + 1 + NAGA_SAMPLER_BINDING_OFFSET,
                        naga_sampler_name(t)
                    ));
                } else {
                    lines.push(format!("layout(set = 0, binding = {}) uniform sampler2D {};", i + 1, t.sampler_name()));
                }
            }
        }
        out.push(&lines.join("\n"), None);
    }

    /// The name of a varying: the Cg field or parameter name, made legal.
    fn varying_name(&mut self, vertex: bool, place: Place) -> String {
        if let Some(n) = self.varying_names.get(&place) {
            return n.clone();
        }
        let slot_name = self
            .spelled(self.conn.slot(vertex, place).map(|s| s.name.clone()), || format!("the varying slot {place:?}"));
        let wanted = if slot_name.is_empty() { "vOut".to_owned() } else { slot_name };
        let name = self.namer.name(&wanted);
        self.varying_names.insert(place, name.clone());
        name
    }

    fn struct_decls(&mut self, out: &mut Lines, order: &[Handle<Function>]) {
        // Structs used by emitted code: by variables, parameters, constructors, returns.
        let mut used: BTreeSet<u32> = BTreeSet::new();
        let note = |t: Type, used: &mut BTreeSet<u32>| {
            let mut t = t;
            while let Type::Array(a) = t {
                t = self.m.array_type(a).elem;
            }
            if let Type::Struct(s) = t {
                used.insert(s.0);
            }
        };
        for &f in order {
            let func = &self.m.functions[f];
            let entry = Some(f) == self.m.entry_point.as_ref().map(|e| e.function);
            for (i, p) in func.params.iter().enumerate() {
                // Entry parameters appear in the output only as local copies.
                if !entry || self.copied_params.contains(&(i as u32)) {
                    note(p.ty, &mut used);
                }
            }
            if !entry {
                note(func.ret, &mut used);
            }
            for (_, l) in func.locals.iter() {
                note(l.ty, &mut used);
            }
            for (_, e) in func.exprs.iter() {
                if matches!(e.kind, ExprKind::Construct { .. }) {
                    note(e.ty, &mut used);
                }
            }
        }
        for (h, g) in self.m.globals.iter() {
            if self.global_names.contains_key(&h)
                && matches!(self.b.globals.get(&(h.index() as u32)), Some(Binding::Private | Binding::Unbound))
            {
                note(g.ty, &mut used);
            }
        }
        // Field types are declared before use in Cg too, so declaration order is a
        // dependency order; close the set over field types and keep that order.
        let mut work: Vec<u32> = used.iter().copied().collect();
        while let Some(s) = work.pop() {
            for f in &self.m.structs[s as usize].fields {
                let mut t = f.ty;
                while let Type::Array(a) = t {
                    t = self.m.array_type(a).elem;
                }
                if let Type::Struct(d) = t {
                    if used.insert(d.0) {
                        work.push(d.0);
                    }
                }
            }
        }
        let ordered: Vec<u32> = used.into_iter().collect();
        for s in ordered {
            let def = &self.m.structs[s as usize];
            let mut text = format!("\nstruct {}\n{{\n", self.struct_names[&s]);
            let mut field_namer = Namer::new();
            for f in &def.fields {
                if f.ty.is_sampler() {
                    self.unsupported(
                        Some(f.span),
                        format!("struct `{}` holds a sampler, which GLSL structs cannot", self.struct_names[&s]),
                    );
                    continue;
                }
                let (ty, dims) = self.decl_type(f.ty);
                let _ = writeln!(text, "    {ty} {}{dims};", field_namer.name(&f.name));
            }
            if def.fields.iter().all(|f| f.ty.is_sampler()) {
                // GLSL structs cannot be empty (method-only Cg structs are).
                text.push_str("    int unused;\n");
            }
            text.push_str("};");
            out.push(&text, Some(def.span));
        }
    }

    fn global_decls(&mut self, out: &mut Lines, order: &[Handle<Function>]) {
        let mut referenced: BTreeSet<Handle<crate::ir::Global>> = BTreeSet::new();
        let mut work: Vec<Handle<crate::ir::Global>> = Vec::new();
        for &f in order {
            for (_, e) in self.m.functions[f].exprs.iter() {
                if let ExprKind::Var(Var::Global(g)) = e.kind {
                    work.push(g);
                }
            }
        }
        // Globals named by the initialisers of emitted globals are emitted too.
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
        let written: HashSet<Handle<crate::ir::Global>> = order
            .iter()
            .flat_map(|&f| {
                let exprs = &self.m.functions[f].exprs;
                exprs
                    .iter()
                    .filter_map(|(_, e)| match e.kind {
                        ExprKind::Assign { target, .. } | ExprKind::IncDec { target, .. } => root_var(exprs, target),
                        _ => None,
                    })
                    .filter_map(|v| if let Var::Global(g) = v { Some(g) } else { None })
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut lines = Vec::new();
        let mut deferred: HashSet<Handle<crate::ir::Global>> = HashSet::new();
        for g in referenced {
            let global = &self.m.globals[g];
            let binding = self.b.globals.get(&(g.index() as u32)).cloned().unwrap_or(Binding::Private);
            match binding {
                Binding::Private | Binding::Unbound => {
                    if global.ty.is_sampler() {
                        continue;
                    }
                    if binding == Binding::Unbound && !written.contains(&g) {
                        self.diags.push(
                            Diagnostic::warning(codes::W_UNBOUND_UNIFORM, format!("uniform `{}` is set by nothing in RetroArch; it becomes a constant with its initial value", global.name))
                                .with_primary(global.span, ""),
                        );
                    }
                    let (ty, dims) = self.decl_type(global.ty);
                    let name = self.global_names[&g].clone();
                    let init = match global.init {
                        Some(i) => self.expr(&self.m.global_exprs, i).0,
                        None => self.zero(global.ty),
                    };
                    if self.naga
                        && global.init.is_some_and(|i| !naga_constant(self.m, &self.m.global_exprs, i, &deferred))
                    {
                        // naga evaluates global initialisers as constants and cannot
                        // index matrices or call most builtins there: initialise in main.
                        lines.push((format!("{ty} {name}{dims};"), global.span));
                        self.deferred_inits.push((format!("{name} = {init};"), Some(global.span)));
                        deferred.insert(g);
                        continue;
                    }
                    // naga folds constants, and an unbound uniform's value (often 0)
                    // can fold into a division by zero it rejects: keep it a variable.
                    let constant = !(written.contains(&g) || self.naga && binding == Binding::Unbound)
                        && global.init.is_none_or(|i| is_constant_init(self.m, &self.m.global_exprs, i));
                    if constant {
                        lines.push((format!("const {ty} {name}{dims} = {init};"), global.span));
                    } else {
                        lines.push((format!("{ty} {name}{dims} = {init};"), global.span));
                    }
                }
                _ => {}
            }
        }
        if !lines.is_empty() {
            out.push("", None);
            for (l, s) in lines {
                out.push(&l, Some(s));
            }
        }
    }

    fn zero(&self, ty: Type) -> String {
        match ty {
            Type::Struct(s) => {
                let fields: Vec<String> = self.m.struct_def(s).fields.iter().map(|f| self.zero(f.ty)).collect();
                format!("{}({})", self.struct_name(s.0), fields.join(", "))
            }
            Type::Array(a) => {
                let at = self.m.array_type(a);
                let n = at.len.unwrap_or(0);
                let elems: Vec<String> = (0..n).map(|_| self.zero(at.elem)).collect();
                let (t, dims) = self.decl_type(Type::Array(a));
                format!("{t}{dims}({})", elems.join(", "))
            }
            Type::Scalar(Scalar::Bool) | Type::Vector(Scalar::Bool, 1) => "false".into(),
            t => {
                let g = glsl_type(t).unwrap_or_else(|| "float".into());
                let zero = match t.scalar() {
                    Some(s) if s.is_integral() && s.is_unsigned() => "0u",
                    Some(s) if s.is_integral() => "0",
                    Some(Scalar::Bool) => "false",
                    _ => "0.0",
                };
                if g == "float" || g == "int" || g == "uint" {
                    zero.to_owned()
                } else {
                    format!("{g}({zero})")
                }
            }
        }
    }

    /// GLSL type and array dimensions suffix for a declaration.
    fn decl_type(&self, ty: Type) -> (String, String) {
        let mut dims = String::new();
        let mut t = ty;
        while let Type::Array(a) = t {
            let at = self.m.array_type(a);
            match at.len {
                Some(n) => {
                    let _ = write!(dims, "[{n}]");
                }
                None => dims.push_str("[]"),
            }
            t = at.elem;
        }
        let name = match t {
            Type::Struct(s) => self.struct_names.get(&s.0).cloned().unwrap_or_else(|| "S".into()),
            other => glsl_type(other).unwrap_or_else(|| self.m.type_name(other)),
        };
        (name, dims)
    }

    fn type_text(&mut self, ty: Type) -> String {
        if let Type::Matrix { rows, cols, scalar } = ty {
            if rows < 2 || cols < 2 || scalar.is_integral() || scalar == Scalar::Bool {
                self.unsupported(None, format!("{} has no GLSL matrix equivalent", self.m.type_name(ty)));
            }
        }
        let (t, d) = self.decl_type(ty);
        format!("{t}{d}")
    }

    // ---- functions ----

    fn line(&mut self, level: usize, text: &str) {
        let mut s = String::with_capacity(level * 4 + text.len());
        for _ in 0..level {
            s.push_str("    ");
        }
        s.push_str(text);
        self.out.push(&s, self.span);
    }

    fn begin_function(&mut self, f: Handle<Function>) {
        self.cur = Some(f);
        self.local_names.clear();
        let func = &self.m.functions[f];
        let mut local_namer = self.namer.scope();
        self.param_names = func
            .params
            .iter()
            .map(|p| {
                local_namer.name(if p.name.is_empty() {
                    "arg"
                } else if p.name == "this" {
                    "self"
                } else {
                    &p.name
                })
            })
            .collect();
        self.param_samplers.clear();
        if self.naga {
            for (p, name) in func.params.iter().zip(&self.param_names) {
                if p.ty.is_sampler() {
                    self.param_samplers.insert(name.clone(), local_namer.name(&format!("{name}_sampler")));
                }
            }
        }
        for (h, l) in func.locals.iter() {
            self.local_names.insert(h, local_namer.name(&l.name));
        }
    }

    fn function(&mut self, f: Handle<Function>) {
        self.begin_function(f);
        self.in_entry = false;
        let func = &self.m.functions[f];
        self.span = Some(func.span);
        let ret = self.type_text(func.ret);
        let mut params = Vec::new();
        for (i, p) in func.params.iter().enumerate() {
            let q = match p.dir {
                ParamDir::In => "",
                ParamDir::Out => "out ",
                ParamDir::InOut => "inout ",
            };
            let (t, dims) = self.decl_type(p.ty);
            let name = &self.param_names[i];
            match self.param_samplers.get(name) {
                Some(sampler) if p.ty.is_sampler() => params.push(format!("texture2D {name}, sampler {sampler}")),
                _ => params.push(format!("{q}{t} {name}{dims}")),
            }
        }
        let name = self.fn_names.get(&f).cloned().unwrap_or_else(|| func.name.clone());
        self.line(0, &format!("{ret} {name}({})", params.join(", ")));
        self.line(0, "{");
        if let Some(body) = &func.body {
            self.block(&func.exprs, body, 1);
            // naga ends every function with an implicit `return;`, which its validator
            // rejects in a non-void function whose every path already returned.
            if self.naga && func.ret != Type::Void && !matches!(body.stmts.last(), Some((Stmt::Return(_), _))) {
                let zero = self.zero(func.ret);
                self.line(1, &format!("return {zero};"));
            }
        }
        self.span = Some(func.span);
        self.line(0, "}");
    }

    fn entry_main(&mut self, f: Handle<Function>) {
        self.begin_function(f);
        self.in_entry = true;
        let func = &self.m.functions[f];
        self.span = Some(func.span);
        // Parameters read through a local copy: those the body writes, and connector
        // structs used whole.
        let written = written_params(self.m, &func.exprs);
        for (i, p) in func.params.iter().enumerate() {
            let i = i as u32;
            let varying = matches!(self.b.params.get(i as usize), Some(Binding::Varying));
            if !varying {
                continue;
            }
            let whole_use = matches!(p.ty, Type::Struct(_)) && used_whole(&func.exprs, Var::Param(i));
            let output_struct = matches!(p.ty, Type::Struct(_)) && p.dir != ParamDir::In;
            let needs_local = match p.dir {
                ParamDir::In => written.contains(&i) || whole_use,
                _ => output_struct || !self.direct_output(i),
            };
            if needs_local {
                self.copied_params.insert(i);
            }
        }
        self.line(0, "void main()");
        self.line(0, "{");
        // Uniform parameters RetroArch never set keep their default (or zero).
        for (i, p) in func.params.iter().enumerate() {
            if !matches!(self.b.params.get(i), Some(Binding::Unbound))
                || p.ty.is_sampler()
                || matches!(p.ty, Type::Struct(_))
            {
                continue;
            }
            let (t, dims) = self.decl_type(p.ty);
            let name = self.param_names[i].clone();
            let value = match p.default {
                Some(d) => self.expr(&self.m.global_exprs, d).0,
                None => self.zero(p.ty),
            };
            self.diags.push(
                Diagnostic::warning(codes::W_UNBOUND_UNIFORM, format!("uniform parameter `{}` is set by nothing in RetroArch; it becomes a constant with its default value", p.name))
                    .with_primary(p.span, ""),
            );
            self.line(1, &format!("const {t} {name}{dims} = {value};"));
        }
        for (i, p) in func.params.iter().enumerate() {
            let i = i as u32;
            if !self.copied_params.contains(&i) {
                continue;
            }
            let (t, dims) = self.decl_type(p.ty);
            let name = self.param_names[i as usize].clone();
            if p.dir == ParamDir::Out {
                self.line(1, &format!("{t} {name}{dims};"));
            } else {
                let init = self.param_input_value(i, p.ty);
                self.line(1, &format!("{t} {name}{dims} = {init};"));
            }
        }
        if let Some(body) = &func.body {
            let n = body.stmts.len();
            for (k, (s, span)) in body.stmts.iter().enumerate() {
                self.span = Some(*span);
                let last = k + 1 == n;
                if let (Stmt::Return(v), true) = (s, last) {
                    self.entry_return(&func.exprs, *v, 1, true);
                } else {
                    self.stmt(&func.exprs, s, 1);
                }
            }
            if !matches!(body.stmts.last(), Some((Stmt::Return(_), _))) {
                self.copy_outputs(1);
            }
        }
        self.span = Some(func.span);
        self.line(0, "}");
    }

    /// Whether out parameter `i` can be written straight into its output variable.
    fn direct_output(&self, i: u32) -> bool {
        let p = &self.m.functions[self.cur.unwrap_or(Handle::new(0))].params[i as usize];
        match self.conn.slot(self.vertex(), Place::Param(i)).map(|s| &s.kind) {
            Some(SlotKind::Varying(_)) => true,
            Some(SlotKind::ClipPosition) | Some(SlotKind::FragColor) => {
                p.ty == Type::vec(Scalar::Float, 4) || p.ty == Type::vec(Scalar::Half, 4)
            }
            _ => false,
        }
    }

    /// The value an input parameter (or input struct) of the entry point reads.
    fn param_input_value(&mut self, i: u32, ty: Type) -> String {
        match ty {
            Type::Struct(s) => {
                let n = self.m.struct_def(s).fields.len() as u32;
                let fields: Vec<String> = (0..n)
                    .map(|f| {
                        let fty = self.m.struct_def(s).fields[f as usize].ty;
                        self.slot_value(Place::ParamField(i, f), fty)
                    })
                    .collect();
                format!("{}({})", self.struct_name(s.0), fields.join(", "))
            }
            _ => self.slot_value(Place::Param(i), ty),
        }
    }

    /// The GLSL text that reads an input slot, shaped to the Cg type.
    fn slot_value(&mut self, place: Place, ty: Type) -> String {
        let slot = self.conn.slot(self.vertex(), place).cloned();
        let Some(slot) = slot else { return self.zero(ty) };
        let (text, have) = match slot.kind {
            SlotKind::Position => ("Position".to_owned(), 4),
            SlotKind::TexCoord => ("TexCoord".to_owned(), 2),
            SlotKind::White => ("vec4(1.0)".to_owned(), 4),
            SlotKind::FragCoord => ("gl_FragCoord".to_owned(), 4),
            SlotKind::Varying(_) => (self.varying_name(self.vertex(), place), slot.ty.components().unwrap_or(4)),
            _ => return self.zero(ty),
        };
        reshape(&text, have, ty)
    }

    fn entry_return(&mut self, exprs: &Exprs, v: Option<Handle<Expr>>, level: usize, last: bool) {
        if let Some(h) = v {
            let ty = exprs[h].ty;
            match ty {
                Type::Struct(s) => {
                    let (value, _) = self.expr(exprs, h);
                    let base = if stdlib::is_simple(&value) {
                        value
                    } else {
                        let t = self.struct_name(s.0);
                        self.line(level, &format!("{t} result = {value};"));
                        "result".into()
                    };
                    let n = self.m.struct_def(s).fields.len() as u32;
                    for f in 0..n {
                        let fname = self.field_name(s, f);
                        self.write_output(
                            Place::ReturnField(f),
                            &format!("{base}.{fname}"),
                            self.m.struct_def(s).fields[f as usize].ty,
                            level,
                        );
                    }
                }
                _ => {
                    let (value, _) = self.expr(exprs, h);
                    self.write_output(Place::Return, &value, ty, level);
                }
            }
        }
        self.copy_outputs(level);
        if !last {
            self.line(level, "return;");
        }
    }

    /// Copies struct and non-direct out parameters to their outputs.
    fn copy_outputs(&mut self, level: usize) {
        let Some(f) = self.cur else { return };
        let params = self.m.functions[f].params.clone();
        for (i, p) in params.iter().enumerate() {
            let i = i as u32;
            if p.dir == ParamDir::In || !self.copied_params.contains(&i) {
                continue;
            }
            let name = self.param_names[i as usize].clone();
            match p.ty {
                Type::Struct(s) => {
                    let n = self.m.struct_def(s).fields.len() as u32;
                    for fi in 0..n {
                        let fname = self.field_name(s, fi);
                        let fty = self.m.struct_def(s).fields[fi as usize].ty;
                        self.write_output(Place::ParamField(i, fi), &format!("{name}.{fname}"), fty, level);
                    }
                }
                ty => self.write_output(Place::Param(i), &name, ty, level),
            }
        }
    }

    fn write_output(&mut self, place: Place, value: &str, ty: Type, level: usize) {
        let slot = self.conn.slot(self.vertex(), place).cloned();
        let Some(slot) = slot else { return };
        let target = match slot.kind {
            SlotKind::ClipPosition => ("gl_Position".to_owned(), 4),
            SlotKind::FragColor => ("FragColor".to_owned(), 4),
            SlotKind::FragDepth => ("gl_FragDepth".to_owned(), 1),
            SlotKind::Varying(_) => (self.varying_name(self.vertex(), place), slot.ty.components().unwrap_or(4)),
            _ => return,
        };
        let have = ty.components().unwrap_or(4);
        let value = if have == target.1 {
            value.to_owned()
        } else if have < target.1 && target.1 == 4 {
            // Cg leaves the missing components undefined; alpha 1 and zeros are chosen.
            let pad = match have {
                1 => ", 0.0, 0.0, 1.0",
                2 => ", 0.0, 1.0",
                _ => ", 1.0",
            };
            format!("vec4({value}{pad})")
        } else {
            reshape(value, have, Type::vec(Scalar::Float, target.1 as u8))
        };
        self.line(level, &format!("{} = {value};", target.0));
    }

    fn field_name(&self, s: crate::ir::StructId, f: u32) -> String {
        let mut namer = Namer::new();
        let mut name = String::new();
        for (i, fd) in self.m.struct_def(s).fields.iter().enumerate() {
            let n = namer.name(&fd.name);
            if i as u32 == f {
                name = n;
            }
        }
        name
    }

    // ---- statements ----

    fn block(&mut self, exprs: &Exprs, b: &crate::ir::Block, level: usize) {
        for (s, span) in &b.stmts {
            self.span = Some(*span);
            self.stmt(exprs, s, level);
        }
    }

    fn stmt(&mut self, exprs: &Exprs, s: &Stmt, level: usize) {
        match s {
            Stmt::Block(b) => {
                self.line(level, "{");
                self.block(exprs, b, level + 1);
                self.line(level, "}");
            }
            Stmt::Expr(h) => {
                // A sampler alias assignment prints nothing: uses read the texture.
                if let ExprKind::Assign { target, op, value } = &exprs[*h].kind {
                    if exprs[*target].ty.is_sampler() {
                        return;
                    }
                    // `m._m00_m11 = v`: GLSL has no matrix write masks; one store per element.
                    if let ExprKind::MatrixElements { base, elements } = &exprs[*target].kind {
                        if elements.len() > 1 {
                            let b = self.expr(exprs, *base);
                            let b = paren_p(&b, PRIMARY);
                            let v = self.expr(exprs, *value);
                            let t = self.type_name(exprs[*value].ty);
                            let op = op.map_or(String::new(), |o| o.symbol().to_owned());
                            self.line(level, "{");
                            self.line(level + 1, &format!("{t} elements = {};", v.0));
                            for (i, (r, c)) in elements.iter().enumerate() {
                                let comp = ['x', 'y', 'z', 'w'][i & 3];
                                self.line(level + 1, &format!("{b}[{r}][{c}] {op}= elements.{comp};"));
                            }
                            self.line(level, "}");
                            return;
                        }
                    }
                }
                let (e, _) = self.expr(exprs, *h);
                self.line(level, &format!("{e};"));
            }
            Stmt::Local { local, init } => {
                let Some(f) = self.cur else { return };
                let l = &self.m.functions[f].locals[*local];
                if l.ty.is_sampler() {
                    if let Some(i) = init {
                        let (text, _) = self.expr(exprs, *i);
                        self.sampler_alias.insert(Var::Local(*local), text);
                    }
                    return;
                }
                let (t, dims) = self.decl_type(l.ty);
                let name = self.spelled(self.local_names.get(local).cloned(), || format!("local {local:?}"));
                let konst = if l.is_const { "const " } else { "" };
                match init {
                    Some(i) => {
                        let (e, _) = self.expr(exprs, *i);
                        self.line(level, &format!("{konst}{t} {name}{dims} = {e};"));
                    }
                    None => self.line(level, &format!("{t} {name}{dims};")),
                }
            }
            Stmt::If { cond, accept, reject } => {
                let (c, _) = self.expr(exprs, *cond);
                self.line(level, &format!("if ({c})"));
                self.sub_block(exprs, accept, level);
                if let Some(r) = reject {
                    // `else if` chains stay flat.
                    if let [(inner @ Stmt::If { .. }, span)] = r.stmts.as_slice() {
                        self.span = Some(*span);
                        let saved = self.out.lines.len();
                        self.stmt(exprs, inner, level);
                        if let Some(l) = self.out.lines.get_mut(saved) {
                            *l = format!("{}else {}", "    ".repeat(level), l.trim_start());
                        }
                    } else {
                        self.line(level, "else");
                        self.sub_block(exprs, r, level);
                    }
                }
            }
            Stmt::For { init, cond, step, body } => {
                let init_text = match init.stmts.as_slice() {
                    [] => String::new(),
                    [(Stmt::Local { local, init: Some(i) }, _)] => {
                        let f = self.cur.unwrap_or(Handle::new(0));
                        let l = &self.m.functions[f].locals[*local];
                        let (t, dims) = self.decl_type(l.ty);
                        let name = self.spelled(self.local_names.get(local).cloned(), || format!("local {local:?}"));
                        let (e, _) = self.expr(exprs, *i);
                        format!("{t} {name}{dims} = {e}")
                    }
                    [(Stmt::Expr(h), _)] => self.expr(exprs, *h).0,
                    _ => {
                        self.line(level, "{");
                        self.block(exprs, init, level + 1);
                        let inner = Stmt::For {
                            init: crate::ir::Block::default(),
                            cond: *cond,
                            step: *step,
                            body: body.clone(),
                        };
                        self.stmt(exprs, &inner, level + 1);
                        self.line(level, "}");
                        return;
                    }
                };
                let mut c = cond.map_or_else(String::new, |c| self.expr(exprs, c).0);
                // naga's GLSL front end reads a `for` condition that starts with a type
                // name (`float(i) < n`) as a declaration and fails: parenthesise it.
                if self.naga && c.split('(').next().is_some_and(|head| glsl_type_name(head.trim())) {
                    c = format!("({c})");
                }
                let st = step.map_or_else(String::new, |s| self.expr(exprs, s).0);
                self.line(level, &format!("for ({init_text}; {c}; {st})"));
                self.sub_block(exprs, body, level);
            }
            Stmt::While { cond, body } => {
                let (c, _) = self.expr(exprs, *cond);
                self.line(level, &format!("while ({c})"));
                self.sub_block(exprs, body, level);
            }
            Stmt::DoWhile { body, cond } => {
                self.line(level, "do");
                self.sub_block(exprs, body, level);
                let (c, _) = self.expr(exprs, *cond);
                self.line(level, &format!("while ({c});"));
            }
            Stmt::Switch { selector, cases } => {
                let (sel, _) = self.expr(exprs, *selector);
                self.line(level, &format!("switch ({sel})"));
                self.line(level, "{");
                for c in cases {
                    for v in &c.values {
                        self.line(level, &format!("case {v}:"));
                    }
                    if c.is_default {
                        self.line(level, "default:");
                    }
                    self.block(exprs, &c.body, level + 1);
                }
                self.line(level, "}");
            }
            Stmt::Break => self.line(level, "break;"),
            Stmt::Continue => self.line(level, "continue;"),
            Stmt::Discard => self.line(level, "discard;"),
            // Only geometry programs emit vertices; the translation refuses them before
            // the writer runs (`translate::unported`), so this is a guard, not a path.
            Stmt::EmitVertex(_) | Stmt::RestartStrip => {
                self.unsupported(
                    None,
                    "`emitVertex`/`restartStrip` belong to geometry programs, which slang has none of",
                );
            }
            Stmt::Return(v) => {
                if self.in_entry {
                    self.entry_return(exprs, *v, level, false);
                } else {
                    match v {
                        Some(h) => {
                            let (e, _) = self.expr(exprs, *h);
                            self.line(level, &format!("return {e};"));
                        }
                        None => self.line(level, "return;"),
                    }
                }
            }
        }
    }

    fn sub_block(&mut self, exprs: &Exprs, b: &crate::ir::Block, level: usize) {
        self.line(level, "{");
        self.block(exprs, b, level + 1);
        self.line(level, "}");
    }

    // ---- expressions ----

    fn expr(&mut self, exprs: &Exprs, h: Handle<Expr>) -> Printed {
        let e = &exprs[h];
        if e.ty.is_numeric_shape() && glsl_type(e.ty).is_none() {
            let t = self.m.type_name(e.ty);
            self.unsupported(
                Some(exprs.span(h)),
                format!("{t} has no GLSL equivalent (GLSL matrices are float, at least 2x2)"),
            );
        }
        match &e.kind {
            ExprKind::Literal(Literal::Float(f)) if self.naga && !(*f as f32).is_finite() => self.expr_literal_bits(*f),
            ExprKind::Literal(l) => literal(*l, e.ty),
            ExprKind::Var(v) => self.var(*v, e.ty),
            ExprKind::Member { base, field } => self.member(exprs, *base, *field, e.ty),
            ExprKind::Index { base, index } => {
                let b = self.expr(exprs, *base);
                if matches!(exprs[*base].ty, Type::Vector(_, 1)) {
                    return b;
                }
                let i = self.expr(exprs, *index);
                (format!("{}[{}]", paren_p(&b, PRIMARY), i.0), PRIMARY)
            }
            ExprKind::Swizzle { base, components } => {
                let b = self.expr(exprs, *base);
                let scalar_base = matches!(exprs[*base].ty, Type::Scalar(_) | Type::Vector(_, 1));
                if scalar_base {
                    if components.len() == 1 {
                        return b;
                    }
                    let t = self.type_name(e.ty);
                    return (format!("{t}({})", b.0), PRIMARY);
                }
                let s: String = components.iter().map(|&c| ['x', 'y', 'z', 'w'][c as usize & 3]).collect();
                // `SourceSize.xy.x` reads better as `SourceSize.x`: compose the swizzles.
                if let Some((head, prev)) = b.0.rsplit_once('.') {
                    let prev_ok = !prev.is_empty() && prev.len() <= 4 && prev.chars().all(|c| "xyzw".contains(c));
                    if prev_ok && b.1 == PRIMARY && stdlib::is_simple(head) {
                        let prev: Vec<char> = prev.chars().collect();
                        let composed: Option<String> =
                            components.iter().map(|&c| prev.get(c as usize).copied()).collect();
                        if let Some(c) = composed {
                            return (format!("{head}.{c}"), PRIMARY);
                        }
                    }
                }
                (format!("{}.{s}", paren_p(&b, PRIMARY)), PRIMARY)
            }
            ExprKind::MatrixElements { base, elements } => {
                let b = self.expr(exprs, *base);
                let b = paren_p(&b, PRIMARY);
                let items: Vec<String> = elements.iter().map(|(r, c)| format!("{b}[{r}][{c}]")).collect();
                if items.len() == 1 {
                    (items[0].clone(), PRIMARY)
                } else {
                    let t = self.type_name(e.ty);
                    (format!("{t}({})", items.join(", ")), PRIMARY)
                }
            }
            ExprKind::Unary { op, operand } => {
                let o = self.expr(exprs, *operand);
                let vector = matches!(e.ty, Type::Vector(_, n) if n > 1);
                match op {
                    UnaryOp::Not if vector => (format!("not({})", o.0), PRIMARY),
                    UnaryOp::Neg if e.ty.is_matrix() => (format!("-{}", paren_p(&o, 14)), 14),
                    UnaryOp::Neg => (format!("-{}", paren_p(&o, 14)), 14),
                    UnaryOp::Not => (format!("!{}", paren_p(&o, 14)), 14),
                    UnaryOp::BitNot => (format!("~{}", paren_p(&o, 14)), 14),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                // naga folds constant divisions and rejects an infinite or NaN result
                // (`0.0 / 0.0` from two constants): write such a value as its bits.
                if self.naga && *op == BinaryOp::Div && e.ty == Type::FLOAT {
                    if let Some(Literal::Float(f)) = crate::sema::const_eval::eval_scalar(self.m, exprs, h, 0) {
                        if !(f as f32).is_finite() {
                            return self.expr_literal_bits(f);
                        }
                    }
                }
                self.binary(exprs, *op, *lhs, *rhs, e.ty)
            }
            ExprKind::Select { cond, accept, reject } => {
                let c = self.expr(exprs, *cond);
                let vector = matches!(exprs[*cond].ty, Type::Vector(_, n) if n > 1);
                // `c ? true : false` on bool vectors is `c` (and the reverse `not(c)`).
                if vector {
                    match (bool_constant(exprs, *accept), bool_constant(exprs, *reject)) {
                        (Some(true), Some(false)) => return c,
                        (Some(false), Some(true)) => return (format!("not({})", c.0), PRIMARY),
                        _ => {}
                    }
                }
                let a = self.expr(exprs, *accept);
                let r = self.expr(exprs, *reject);
                if vector && self.naga && e.ty.scalar() == Some(Scalar::Bool) {
                    // naga has no `mix` on bool vectors: select per component in a helper.
                    let t = self.type_name(e.ty);
                    let n = match e.ty {
                        Type::Vector(_, n) => n as usize,
                        _ => 1,
                    };
                    let comps: Vec<String> = "xyzw".chars().take(n).map(|k| format!("c.{k} ? a.{k} : r.{k}")).collect();
                    self.helpers.insert(
                        format!("cg_select/{t}"),
                        format!("{t} cg_select({t} r, {t} a, {t} c)\n{{\n    return {t}({});\n}}\n", comps.join(", ")),
                    );
                    (format!("cg_select({}, {}, {})", r.0, a.0, c.0), PRIMARY)
                } else if vector {
                    (format!("mix({}, {}, {})", r.0, a.0, c.0), PRIMARY)
                } else {
                    (format!("{} ? {} : {}", paren_p(&c, 3), paren_p(&a, 2), paren_p(&r, 2)), 2)
                }
            }
            ExprKind::Convert { value } => {
                let v = self.expr(exprs, *value);
                let (from, to) = (glsl_type(exprs[*value].ty), glsl_type(e.ty));
                if from == to {
                    return v;
                }
                (format!("{}({})", self.spelled(to, || format!("the type {:?}", e.ty)), v.0), PRIMARY)
            }
            ExprKind::Splat { value } => {
                let v = self.expr(exprs, *value);
                match e.ty {
                    Type::Vector(_, 1) => v,
                    Type::Matrix { rows, cols, .. } => {
                        let t = self.type_name(e.ty);
                        let col = format!("vec{cols}({})", v.0);
                        let cols_text: Vec<String> = (0..rows).map(|_| col.clone()).collect();
                        (format!("{t}({})", cols_text.join(", ")), PRIMARY)
                    }
                    _ => (format!("{}({})", self.type_name(e.ty), v.0), PRIMARY),
                }
            }
            ExprKind::Truncate { value } => {
                let v = self.expr(exprs, *value);
                let from = exprs[*value].ty;
                match (from, e.ty) {
                    (Type::Vector(_, 1), _) => v,
                    (Type::Vector(..), Type::Scalar(_)) => (format!("{}.x", paren_p(&v, PRIMARY)), PRIMARY),
                    (Type::Vector(..), Type::Vector(_, m)) => {
                        let s = &"xyzw"[..m as usize];
                        if m == 1 {
                            return (format!("{}.x", paren_p(&v, PRIMARY)), PRIMARY);
                        }
                        (format!("{}.{s}", paren_p(&v, PRIMARY)), PRIMARY)
                    }
                    (Type::Matrix { .. }, Type::Scalar(_)) => (format!("{}[0][0]", paren_p(&v, PRIMARY)), PRIMARY),
                    _ => (format!("{}({})", self.type_name(e.ty), v.0), PRIMARY),
                }
            }
            ExprKind::Reshape { value } => {
                let v = self.expr(exprs, *value);
                match (exprs[*value].ty, e.ty) {
                    (Type::Matrix { rows, .. }, Type::Vector(..)) => {
                        let t = self.type_name(e.ty);
                        if stdlib::is_simple(&v.0) {
                            let parts: Vec<String> = (0..rows).map(|r| format!("{}[{r}]", v.0)).collect();
                            return (format!("{t}({})", parts.join(", ")), PRIMARY);
                        }
                        // A computed matrix is evaluated once, in a helper.
                        let m = self.type_name(exprs[*value].ty);
                        let parts: Vec<String> = (0..rows).map(|r| format!("m[{r}]")).collect();
                        let name = format!("cg_{t}_from_{m}");
                        self.helpers.insert(
                            format!("{name}/{m}"),
                            format!("{t} {name}({m} m)\n{{\n    return {t}({});\n}}\n", parts.join(", ")),
                        );
                        (format!("{name}({})", v.0), PRIMARY)
                    }
                    (Type::Vector(..), Type::Matrix { .. }) if self.naga => {
                        let t = self.type_name(e.ty);
                        match self.naga_matrix_construct(exprs, &[*value], e.ty, &t, std::slice::from_ref(&v.0)) {
                            Some(p) => p,
                            None => (format!("{t}({})", v.0), PRIMARY),
                        }
                    }
                    _ => (format!("{}({})", self.type_name(e.ty), v.0), PRIMARY),
                }
            }
            ExprKind::Construct { args } => {
                let parts: Vec<String> = args.iter().map(|&a| self.expr(exprs, a).0).collect();
                let t = match e.ty {
                    Type::Array(_) => {
                        let (t, d) = self.decl_type(e.ty);
                        format!("{t}{d}")
                    }
                    Type::Struct(s) => self.struct_name(s.0),
                    _ => {
                        if args.iter().any(|&a| exprs[a].ty.is_matrix()) {
                            self.unsupported(
                                Some(exprs.span(h)),
                                "a matrix built from matrices has no direct GLSL form",
                            );
                        }
                        self.type_name(e.ty)
                    }
                };
                if self.naga {
                    if let Some(p) = self.naga_matrix_construct(exprs, args, e.ty, &t, &parts) {
                        return p;
                    }
                }
                (format!("{t}({})", parts.join(", ")), PRIMARY)
            }
            ExprKind::Call { function, args } => {
                let mut parts = Vec::new();
                for &a in args {
                    let text = self.expr(exprs, a).0;
                    if self.naga && exprs[a].ty.is_sampler() {
                        let (t, s) = self.naga_pair(&text, exprs.span(a));
                        parts.push(format!("{t}, {s}"));
                    } else {
                        parts.push(text);
                    }
                }
                let name =
                    self.fn_names.get(function).cloned().unwrap_or_else(|| self.m.functions[*function].name.clone());
                (format!("{name}({})", parts.join(", ")), PRIMARY)
            }
            ExprKind::Builtin { builtin, args } => self.builtin(exprs, *builtin, args, e.ty, exprs.span(h)),
            ExprKind::Assign { op, target, value } => {
                if matches!(&exprs[*target].kind, ExprKind::MatrixElements { elements, .. } if elements.len() > 1) {
                    self.unsupported(
                        Some(exprs.span(h)),
                        "a multi-element matrix write mask inside an expression (write it as its own statement)",
                    );
                }
                let t = self.expr(exprs, *target);
                let v = self.expr(exprs, *value);
                match op {
                    Some(BinaryOp::Mul) if e.ty.is_matrix() => {
                        let product = self.matrix_comp_mult(&t.0, &v.0, e.ty);
                        (format!("{} = {product}", t.0), 1)
                    }
                    Some(op) => (format!("{} {}= {}", t.0, op.symbol(), paren_p(&v, 1)), 1),
                    None => (format!("{} = {}", t.0, paren_p(&v, 1)), 1),
                }
            }
            ExprKind::IncDec { op, target } => {
                let t = self.expr(exprs, *target);
                match op {
                    IncDec::PreInc => (format!("++{}", paren_p(&t, 14)), 14),
                    IncDec::PreDec => (format!("--{}", paren_p(&t, 14)), 14),
                    IncDec::PostInc => (format!("{}++", paren_p(&t, 15)), 15),
                    IncDec::PostDec => (format!("{}--", paren_p(&t, 15)), 15),
                }
            }
            ExprKind::Sequence { exprs: list } => {
                let parts: Vec<String> = list
                    .iter()
                    .map(|&x| {
                        let p = self.expr(exprs, x);
                        paren_p(&p, 1)
                    })
                    .collect();
                (parts.join(", "), 0)
            }
        }
    }

    fn var(&mut self, v: Var, ty: Type) -> Printed {
        if let Some(alias) = self.sampler_alias.get(&v) {
            return (alias.clone(), PRIMARY);
        }
        match v {
            Var::Local(l) => {
                (self.local_names.get(&l).cloned().unwrap_or_else(|| format!("local{}", l.index())), PRIMARY)
            }
            Var::Param(i) => {
                if self.in_entry {
                    match self.b.params.get(i as usize).cloned() {
                        Some(Binding::Mvp) => return (format!("transpose({})", self.uniform(Uniform::Mvp)), PRIMARY),
                        Some(Binding::Sampler(t)) => return (self.texture(&t), PRIMARY),
                        Some(Binding::Parameter(p)) => return (self.uniform(Uniform::Parameter(p)), PRIMARY),
                        Some(Binding::TextureStruct(_)) => {
                            self.unsupported(None, "a RetroArch texture struct (IN, ORIG, PASSk, ...) used as a whole value; only its members can be read in slang");
                            return ("0.0".into(), PRIMARY);
                        }
                        Some(Binding::Varying) if !self.copied_params.contains(&i) => {
                            let p = self.m.functions[self.cur.unwrap_or(Handle::new(0))].params[i as usize].clone();
                            if p.dir == ParamDir::In {
                                return (self.slot_value(Place::Param(i), ty), PRIMARY);
                            }
                            return match self.conn.slot(self.vertex(), Place::Param(i)).map(|s| s.kind.clone()) {
                                Some(SlotKind::ClipPosition) => ("gl_Position".into(), PRIMARY),
                                Some(SlotKind::FragColor) => ("FragColor".into(), PRIMARY),
                                _ => (self.varying_name(self.vertex(), Place::Param(i)), PRIMARY),
                            };
                        }
                        _ => {}
                    }
                }
                (self.param_names.get(i as usize).cloned().unwrap_or_else(|| format!("arg{i}")), PRIMARY)
            }
            Var::Global(g) => match self.b.globals.get(&(g.index() as u32)).cloned() {
                Some(Binding::Parameter(p)) => {
                    // Parameters are floats in slang; an integer uniform reads one converted.
                    let value = self.uniform(Uniform::Parameter(p));
                    match ty {
                        Type::Scalar(crate::ir::Scalar::Int) => (format!("int({value})"), PRIMARY),
                        Type::Scalar(crate::ir::Scalar::UInt) => (format!("uint({value})"), PRIMARY),
                        _ => (value, PRIMARY),
                    }
                }
                Some(Binding::Mvp) => (format!("transpose({})", self.uniform(Uniform::Mvp)), PRIMARY),
                Some(Binding::Sampler(t)) => (self.texture(&t), PRIMARY),
                Some(Binding::TextureStruct(_)) => {
                    self.unsupported(
                        None,
                        "a RetroArch texture struct used as a whole value; only its members can be read in slang",
                    );
                    ("0.0".into(), PRIMARY)
                }
                _ if ty.is_sampler() => {
                    let name = self.m.globals[g].name.clone();
                    let d = Diagnostic::error(codes::E_UNBOUND_NAME, format!("sampler `{name}` is read but bound to nothing: it is not TEXUNIT0, not a LUT or alias of the preset, and no assignment makes it an alias"))
                        .with_primary(self.m.globals[g].span, "declared here");
                    if !self.diags.contains(&d) {
                        self.diags.push(d);
                    }
                    (name, PRIMARY)
                }
                _ => (self.spelled(self.global_names.get(&g).cloned(), || format!("global {g:?}")), PRIMARY),
            },
        }
    }

    fn texture_struct_of(&self, exprs: &Exprs, base: Handle<Expr>) -> Option<CgTextureStruct> {
        let ExprKind::Var(v) = exprs[base].kind else { return None };
        if let Var::Param(_) = v {
            if !self.in_entry {
                return None;
            }
        }
        match self.b.of(v) {
            Some(Binding::TextureStruct(t)) => Some(t.clone()),
            _ => None,
        }
    }

    fn member(&mut self, exprs: &Exprs, base: Handle<Expr>, field: u32, ty: Type) -> Printed {
        let Type::Struct(s) = exprs[base].ty else { return ("0.0".into(), PRIMARY) };
        let fname = self.spelled(self.m.struct_def(s).fields.get(field as usize).map(|f| f.name.clone()), || {
            format!("field {field} of struct #{}", s.0)
        });
        if let Some(ts) = self.texture_struct_of(exprs, base) {
            return self.texture_struct_member(&ts, &fname, ty);
        }
        if let ExprKind::Var(v) = exprs[base].kind {
            let entry_or_global = matches!(v, Var::Global(_)) || (self.in_entry && matches!(v, Var::Param(_)));
            if entry_or_global && matches!(self.b.of(v), Some(Binding::Invalid)) {
                return (self.zero(ty), PRIMARY);
            }
            if entry_or_global && matches!(self.b.of(v), Some(Binding::Unbound)) {
                let name = match v {
                    Var::Param(i) => {
                        self.m.functions[self.cur.unwrap_or(Handle::new(0))].params[i as usize].name.clone()
                    }
                    Var::Global(g) => self.m.globals[g].name.clone(),
                    Var::Local(_) => String::new(),
                };
                let texture_like = matches!(fname.as_str(), "video_size" | "texture_size" | "texture" | "tex_coord");
                let msg = if texture_like {
                    format!("`{name}.{fname}`: `{name}` is not IN, ORIG, PREV, PASSk, PASSPREVk, FEEDBACK or an alias of the preset, so the runtime bound nothing to it (translate it with its .cgp to get the aliases)")
                } else {
                    format!("`{name}.{fname}`: the uniform `{name}` is set by nothing in RetroArch")
                };
                let d = Diagnostic::error(codes::E_UNBOUND_NAME, msg).with_primary(exprs.span(base), "");
                if !self.diags.contains(&d) {
                    self.diags.push(d);
                }
                return (self.zero(ty), PRIMARY);
            }
        }
        // Connector struct inputs of the entry point read their slots directly.
        if let (true, ExprKind::Var(Var::Param(i))) = (self.in_entry, &exprs[base].kind) {
            let i = *i;
            if matches!(self.b.params.get(i as usize), Some(Binding::Varying)) && !self.copied_params.contains(&i) {
                return (self.slot_value(Place::ParamField(i, field), ty), PRIMARY);
            }
        }
        let b = self.expr(exprs, base);
        let name = self.field_name(s, field);
        (format!("{}.{name}", paren_p(&b, PRIMARY)), PRIMARY)
    }

    fn texture_struct_member(&mut self, ts: &CgTextureStruct, field: &str, ty: Type) -> Printed {
        let tex = match ts {
            CgTextureStruct::Input => Texture::Source,
            CgTextureStruct::Texture(t) => t.clone(),
        };
        let is_input = matches!(ts, CgTextureStruct::Input);
        let shaped = |text: String| -> Printed { (reshape(&text, 4, ty), PRIMARY) };
        match field {
            "video_size" | "texture_size" => shaped(self.uniform(Uniform::Size(tex))),
            "output_size" if is_input => shaped(self.uniform(Uniform::OutputSize)),
            "frame_count" if is_input => {
                let u = self.uniform(Uniform::FrameCount);
                (format!("{}({u})", glsl_type(ty).unwrap_or_else(|| "float".into())), PRIMARY)
            }
            "frame_direction" if is_input => {
                let u = self.uniform(Uniform::FrameDirection);
                (format!("{}({u})", glsl_type(ty).unwrap_or_else(|| "float".into())), PRIMARY)
            }
            "frame_rotation" if is_input => (self.zero(ty), PRIMARY),
            "mvp_matrix" if is_input => (format!("transpose({})", self.uniform(Uniform::Mvp)), PRIMARY),
            // RetroArch's Cg runtime fed the POSITION attribute to `IN.vertex_coord` by name.
            "vertex_coord" if is_input && self.vertex() => (reshape("Position", 4, ty), PRIMARY),
            "texture" => (self.texture(&tex), PRIMARY),
            "tex_coord" | "lut_tex_coord" => {
                if !self.vertex() {
                    self.unsupported(
                        None,
                        format!("`.{field}` is a vertex attribute; it cannot be read in the fragment stage"),
                    );
                }
                (reshape("TexCoord", 2, ty), PRIMARY)
            }
            other => {
                self.unsupported(
                    None,
                    format!(
                        "`{}.{other}`: the RetroArch runtime bound no such member",
                        match ts {
                            CgTextureStruct::Input => "IN".to_owned(),
                            CgTextureStruct::Texture(t) => t.sampler_name(),
                        }
                    ),
                );
                (self.zero(ty), PRIMARY)
            }
        }
    }

    /// Naga dialect: a non-finite float. naga folds `uintBitsToFloat(0x7f800000u)` and
    /// rejects the infinite constant it gets, so this goes through a function call,
    /// which it does not fold.
    fn expr_literal_bits(&mut self, f: f64) -> Printed {
        self.helpers.insert(
            "cg_bits_to_float/uint".into(),
            "float cg_bits_to_float(uint bits)\n{\n    return uintBitsToFloat(bits);\n}\n".into(),
        );
        (float_text(f).replace("uintBitsToFloat", "cg_bits_to_float"), PRIMARY)
    }

    /// Cg's component-wise `*` of two matrices: `matrixCompMult`, which naga's GLSL front
    /// end lacks (the naga dialect gets a helper).
    fn matrix_comp_mult(&mut self, a: &str, b: &str, ty: Type) -> String {
        if !self.naga {
            return format!("matrixCompMult({a}, {b})");
        }
        let t = self.type_name(ty);
        let rows = match ty {
            Type::Matrix { rows, .. } => rows as usize,
            _ => 0,
        };
        let cols: Vec<String> = (0..rows).map(|i| format!("a[{i}] * b[{i}]")).collect();
        self.helpers.insert(
            format!("cg_matrixCompMult/{t}"),
            format!("{t} cg_matrixCompMult({t} a, {t} b)\n{{\n    return {t}({});\n}}\n", cols.join(", ")),
        );
        format!("cg_matrixCompMult({a}, {b})")
    }

    fn binary(&mut self, exprs: &Exprs, op: BinaryOp, lhs: Handle<Expr>, rhs: Handle<Expr>, ty: Type) -> Printed {
        // GLSL mixes scalars and vectors in arithmetic itself: `s * v`, not `vec3(s) * v`.
        let arithmetic = matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div);
        let unsplat = |h: Handle<Expr>, other: Handle<Expr>| -> Handle<Expr> {
            match exprs[h].kind {
                ExprKind::Splat { value }
                    if arithmetic
                        && exprs[h].ty.is_vector()
                        && !matches!(exprs[other].kind, ExprKind::Splat { .. }) =>
                {
                    value
                }
                _ => h,
            }
        };
        let (pl, pr) = (unsplat(lhs, rhs), unsplat(rhs, lhs));
        let l = self.expr(exprs, pl);
        let r = self.expr(exprs, pr);
        let operand_ty = exprs[lhs].ty;
        let vector = matches!(operand_ty, Type::Vector(_, n) if n > 1);
        if vector && (op.is_comparison()) {
            let f = match op {
                BinaryOp::Eq => "equal",
                BinaryOp::Ne => "notEqual",
                BinaryOp::Lt => "lessThan",
                BinaryOp::Le => "lessThanEqual",
                BinaryOp::Gt => "greaterThan",
                _ => "greaterThanEqual",
            };
            return (format!("{f}({}, {})", l.0, r.0), PRIMARY);
        }
        if op.is_logical() && (vector || has_side_effects(exprs, rhs)) {
            let t = glsl_type(ty).unwrap_or_else(|| "bool".into());
            let name = if op == BinaryOp::And { "cg_and" } else { "cg_or" };
            let body = if t == "bool" {
                format!(
                    "// Cg evaluates both sides of {}.\nbool {name}(bool a, bool b)\n{{\n    return a {} b;\n}}\n",
                    op.symbol(),
                    op.symbol()
                )
            } else {
                let n: usize = t.trim_start_matches("bvec").parse().unwrap_or(4);
                let comps: Vec<String> = (0..n)
                    .map(|i| {
                        let c = ['x', 'y', 'z', 'w'][i];
                        format!("a.{c} {} b.{c}", op.symbol())
                    })
                    .collect();
                format!(
                    "// Cg applies {} per component.\n{t} {name}({t} a, {t} b)\n{{\n    return {t}({});\n}}\n",
                    op.symbol(),
                    comps.join(", ")
                )
            };
            self.helpers.insert(format!("{name}/{t}"), body);
            return (format!("{name}({}, {})", l.0, r.0), PRIMARY);
        }
        if op == BinaryOp::Mul && operand_ty.is_matrix() {
            return (self.matrix_comp_mult(&l.0, &r.0, operand_ty), PRIMARY);
        }
        let prec = binary_prec(op);
        (format!("{} {} {}", paren_p(&l, prec), op.symbol(), paren_p(&r, prec + 1)), prec)
    }

    fn is_mvp(&self, exprs: &Exprs, h: Handle<Expr>) -> bool {
        match exprs[h].kind {
            ExprKind::Var(v) => {
                if matches!(v, Var::Param(_)) && !self.in_entry {
                    return false;
                }
                matches!(self.b.of(v), Some(Binding::Mvp))
            }
            ExprKind::Member { base, .. } => {
                let Type::Struct(s) = exprs[base].ty else { return false };
                let ExprKind::Member { field, .. } = exprs[h].kind else { return false };
                matches!(self.texture_struct_of(exprs, base), Some(CgTextureStruct::Input))
                    && self.m.struct_def(s).fields.get(field as usize).is_some_and(|f| f.name == "mvp_matrix")
            }
            _ => false,
        }
    }

    fn builtin(&mut self, exprs: &Exprs, b: Builtin, args: &[Handle<Expr>], ret: Type, span: Span) -> Printed {
        if matches!(b, Builtin::MulMatVec | Builtin::MulVecMat | Builtin::MulMatMat) {
            let (x, y) = (args[0], args[1]);
            let (xm, ym) = (self.is_mvp(exprs, x), self.is_mvp(exprs, y));
            let form = match b {
                Builtin::MulMatVec => MulForm::MatVec,
                Builtin::MulVecMat => MulForm::VecMat,
                _ => MulForm::MatMat,
            };
            let direct = |this: &mut Self, h: Handle<Expr>, is_mvp: bool| -> Printed {
                if is_mvp && form != MulForm::MatMat {
                    (this.uniform(Uniform::Mvp), PRIMARY)
                } else {
                    this.expr(exprs, h)
                }
            };
            let xa = direct(self, x, xm);
            let ya = direct(self, y, ym);
            let (l, r) = glsl_operands(form, &xa.0, &ya.0, xm, ym);
            let (lp, rp) = if l == xa.0 { (xa.1, ya.1) } else { (ya.1, xa.1) };
            let l = if lp >= MULTIPLICATIVE { l.to_owned() } else { format!("({l})") };
            let r = if rp > MULTIPLICATIVE { r.to_owned() } else { format!("({r})") };
            return (format!("{l} * {r}"), MULTIPLICATIVE);
        }
        // GLSL's texel offsets and gather components must be constant expressions.
        for i in stdlib::constant_arguments(b, args.len()) {
            if let Some(&a) = args.get(i) {
                if !naga_constant(self.m, exprs, a, &HashSet::new()) {
                    let why = format!(
                        "`{}`: GLSL needs this texel offset or gather component as a constant expression",
                        b.name()
                    );
                    self.unsupported(Some(exprs.span(a)), why);
                    return (self.zero(ret), PRIMARY);
                }
            }
        }
        let printed: Vec<Arg> = args
            .iter()
            .map(|&a| {
                let (text, prec) = self.expr(exprs, a);
                let pair = (self.naga && exprs[a].ty.is_sampler()).then(|| self.naga_pair(&text, exprs.span(a)));
                Arg { text, prec, ty: exprs[a].ty, pair }
            })
            .collect();
        if self.naga {
            if let Some(p) = self.naga_builtin(b, &printed) {
                return p;
            }
        }
        match stdlib::map(b, &printed, ret, &mut self.helpers) {
            Ok(p) => p,
            Err(why) => {
                self.unsupported(Some(span), why);
                (self.zero(ret), PRIMARY)
            }
        }
    }
}

impl StageWriter<'_> {
    /// naga composes matrices from column vectors only: any other matrix constructor
    /// (`mat2(vec4)`, `mat2(a, b, c, d)`) goes through a helper that regroups the
    /// components into columns (each argument evaluated once).
    fn naga_matrix_construct(
        &mut self,
        exprs: &Exprs,
        args: &[Handle<Expr>],
        ty: Type,
        t: &str,
        parts: &[String],
    ) -> Option<Printed> {
        let Type::Matrix { rows, cols, .. } = ty else { return None };
        let (rows, cols) = (rows as usize, cols as usize);
        let columns =
            args.len() == rows && args.iter().all(|&a| matches!(exprs[a].ty, Type::Vector(_, n) if n as usize == cols));
        // Columns, or scalars only (naga composes those itself).
        let scalars_only = args.iter().all(|&a| matches!(exprs[a].ty, Type::Scalar(_) | Type::Vector(_, 1)));
        if columns || scalars_only {
            return None;
        }
        let mut params = Vec::new();
        let mut scalars = Vec::new();
        let mut signature = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let at = glsl_type(exprs[a].ty)?;
            match exprs[a].ty {
                Type::Vector(_, n) if n > 1 => {
                    scalars.extend("xyzw".chars().take(n as usize).map(|k| format!("a{i}.{k}")))
                }
                Type::Scalar(_) | Type::Vector(_, 1) => scalars.push(format!("a{i}")),
                _ => return None,
            }
            params.push(format!("{at} a{i}"));
            signature.push(at);
        }
        if scalars.len() != rows * cols {
            return None;
        }
        let column_texts: Vec<String> = scalars.chunks(cols).map(|c| format!("vec{cols}({})", c.join(", "))).collect();
        let name = format!("cg_{t}_from_{}", signature.join("_"));
        self.helpers.insert(
            format!("{name}/{t}"),
            format!("{t} {name}({})\n{{\n    return {t}({});\n}}\n", params.join(", "), column_texts.join(", ")),
        );
        Some((format!("{name}({})", parts.join(", ")), PRIMARY))
    }

    /// Builtins naga's GLSL front end lacks or types differently: `modf` (a helper),
    /// `dot` of two scalars (a product), `matrixCompMult` and `frexp` with an `int`
    /// exponent (helpers; `frexp` splits the binary32 bits, which is exact).
    fn naga_builtin(&mut self, b: Builtin, args: &[Arg]) -> Option<Printed> {
        match (b, args) {
            // Cg's float-exponent form too (naga has no `frexp` at all).
            (Builtin::Frexp, [x, e]) => {
                let (t, it) = (glsl_type(x.ty)?, glsl_type(e.ty)?);
                self.helpers.insert(
                    // Keyed to sort before the vector forms that call it.
                    "cg_frexp/float".into(),
                    "// frexp of one float by its bits: zero, infinities and NaN give x and e = 0.\n\
                     float cg_frexp1(float x, out int e)\n{\n    int b = floatBitsToInt(x);\n    \
                     int k = (b >> 23) & 255;\n    e = 0;\n    if (k == 0 || k == 255)\n        return x;\n    \
                     e = k - 126;\n    return intBitsToFloat((b & ~0x7f800000) | 0x3f000000);\n}\n"
                        .into(),
                );
                if t == "float" && it == "int" {
                    return Some((format!("cg_frexp1({}, {})", x.text, e.text), PRIMARY));
                }
                let n = match x.ty {
                    Type::Vector(_, n) => usize::from(n),
                    _ => 1,
                };
                // One `int` per component: naga's SPIR-V writer fails on a vector
                // component passed as an `out` argument.
                let comps: Vec<String> = if n == 1 {
                    vec!["cg_frexp1(x, e0)".into()]
                } else {
                    "xyzw".chars().take(n).enumerate().map(|(i, k)| format!("cg_frexp1(x.{k}, e{i})")).collect()
                };
                let ints: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
                let name = format!("cg_frexp_{t}_{it}");
                self.helpers.insert(
                    format!("cg_frexp/{t}_{it}"),
                    format!(
                        "{t} {name}({t} x, out {it} e)\n{{\n    int {ints};\n    {t} m = {t}({});\n    e = {it}({ints});\n    return m;\n}}\n",
                        comps.join(", "),
                        ints = ints.join(", ")
                    ),
                );
                Some((format!("{name}({}, {})", x.text, e.text), PRIMARY))
            }
            (Builtin::MatrixCompMult, [x, y]) => Some((self.matrix_comp_mult(&x.text, &y.text, x.ty), PRIMARY)),
            // naga types GLSL's `outerProduct` with rows and columns swapped: build the
            // columns (Cg's rows `c[i] * r`) in a helper.
            (Builtin::OuterProduct, [c, r]) => {
                let (Type::Vector(s, rows), Type::Vector(_, cols)) = (c.ty, r.ty) else { return None };
                let (t, ct, rt) = (glsl_type(Type::mat(s, rows, cols))?, glsl_type(c.ty)?, glsl_type(r.ty)?);
                let columns: Vec<String> =
                    "xyzw".chars().take(usize::from(rows)).map(|k| format!("r * c.{k}")).collect();
                self.helpers.insert(
                    format!("cg_outerProduct/{ct}_{rt}"),
                    format!(
                        "{t} cg_outerProduct_{ct}_{rt}({ct} c, {rt} r)\n{{\n    return {t}({});\n}}\n",
                        columns.join(", ")
                    ),
                );
                Some((format!("cg_outerProduct_{ct}_{rt}({}, {})", c.text, r.text), PRIMARY))
            }
            (Builtin::Modf, [x, i]) => {
                let t = glsl_type(x.ty)?;
                self.helpers.insert(
                    format!("cg_modf/{t}"),
                    format!("{t} cg_modf({t} x, out {t} i)\n{{\n    i = trunc(x);\n    return x - i;\n}}\n"),
                );
                Some((format!("cg_modf({}, {})", x.text, i.text), PRIMARY))
            }
            (Builtin::Dot, [x, y]) if matches!(x.ty, Type::Scalar(_) | Type::Vector(_, 1)) => {
                Some((format!("{} * {}", paren(x, MULTIPLICATIVE), paren(y, MULTIPLICATIVE + 1)), MULTIPLICATIVE))
            }
            _ => None,
        }
    }
}

/// Whether `name` is a GLSL scalar, vector or matrix type name (a constructor's name).
fn glsl_type_name(name: &str) -> bool {
    matches!(name, "float" | "int" | "uint" | "bool" | "double")
        || ["vec", "ivec", "uvec", "bvec", "dvec", "mat", "dmat"].iter().any(|p| {
            name.strip_prefix(p)
                .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|ch| ch.is_ascii_digit() || ch == 'x'))
        })
}

/// A bool constant, possibly splat to a vector (`true`, `bvec4(false)`).
fn bool_constant(exprs: &Exprs, h: Handle<Expr>) -> Option<bool> {
    match &exprs[h].kind {
        ExprKind::Literal(Literal::Bool(b)) => Some(*b),
        ExprKind::Splat { value } | ExprKind::Convert { value } if exprs[*value].ty.scalar() == Some(Scalar::Bool) => {
            bool_constant(exprs, *value)
        }
        ExprKind::Construct { args } if !args.is_empty() => {
            let first = bool_constant(exprs, args[0])?;
            args.iter().all(|&a| bool_constant(exprs, a) == Some(first)).then_some(first)
        }
        _ => None,
    }
}

/// Shapes a value with `have` components to the Cg type `ty` (truncating or padding).
fn reshape(text: &str, have: u32, ty: Type) -> String {
    let want = match ty {
        Type::Scalar(_) => 1,
        Type::Vector(_, n) => n as u32,
        _ => return text.to_owned(),
    };
    if want == have {
        return text.to_owned();
    }
    if want < have {
        let s = &"xyzw"[..want as usize];
        return format!("{text}.{s}");
    }
    let pad = match (have, want) {
        (1, n) => return format!("vec{n}({text})"),
        (2, 3) => ", 0.0",
        (2, 4) => ", 0.0, 1.0",
        (3, 4) => ", 1.0",
        _ => "",
    };
    format!("vec{want}({text}{pad})")
}

fn paren_p(p: &Printed, at_least: u8) -> String {
    paren(&Arg { text: p.0.clone(), prec: p.1, ty: Type::Void, pair: None }, at_least)
}

fn binary_prec(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 13,
        BinaryOp::Add | BinaryOp::Sub => 12,
        BinaryOp::Shl | BinaryOp::Shr => 11,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 10,
        BinaryOp::Eq | BinaryOp::Ne => 9,
        BinaryOp::BitAnd => 8,
        BinaryOp::BitXor => 7,
        BinaryOp::BitOr => 6,
        BinaryOp::And => 5,
        BinaryOp::Or => 3,
    }
}

/// A float literal GLSL reads back to the same binary32 value.
fn float_text(v: f64) -> String {
    let f = v as f32;
    if f.is_nan() {
        return "uintBitsToFloat(0x7fc00000u)".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "uintBitsToFloat(0x7f800000u)".into() } else { "uintBitsToFloat(0xff800000u)".into() };
    }
    let mut s = format!("{f}");
    if !s.contains('.') && !s.contains('e') {
        s.push_str(".0");
    }
    s
}

fn literal(l: Literal, ty: Type) -> Printed {
    let text = match (l, ty.scalar()) {
        (Literal::Bool(b), _) => b.to_string(),
        (Literal::Float(f), _) => float_text(f),
        (Literal::Int(i), Some(s)) if s.is_unsigned() => format!("{}u", i as u32),
        (Literal::Int(i), _) => (i as i32).to_string(),
        (Literal::UInt(u), _) => format!("{}u", u as u32),
    };
    let prec = if text.starts_with('-') { 14 } else { PRIMARY };
    (text, prec)
}

fn root_var(exprs: &Exprs, h: Handle<Expr>) -> Option<Var> {
    let mut h = h;
    loop {
        match &exprs[h].kind {
            ExprKind::Var(v) => return Some(*v),
            ExprKind::Member { base, .. }
            | ExprKind::Index { base, .. }
            | ExprKind::Swizzle { base, .. }
            | ExprKind::MatrixElements { base, .. } => h = *base,
            _ => return None,
        }
    }
}

/// Entry parameters the body writes (assignments, increments, out arguments).
fn written_params(m: &Module, exprs: &Exprs) -> HashSet<u32> {
    let mut out = HashSet::new();
    for (_, e) in exprs.iter() {
        let targets: Vec<Handle<Expr>> = match &e.kind {
            ExprKind::Assign { target, .. } | ExprKind::IncDec { target, .. } => vec![*target],
            ExprKind::Call { function, args } => m.functions[*function]
                .params
                .iter()
                .zip(args)
                .filter(|(p, _)| p.dir != ParamDir::In)
                .map(|(_, a)| *a)
                .collect(),
            ExprKind::Builtin { builtin: Builtin::Sincos, args } => args.iter().skip(1).copied().collect(),
            ExprKind::Builtin { builtin: Builtin::Modf | Builtin::Frexp, args } => {
                args.iter().skip(1).copied().collect()
            }
            _ => vec![],
        };
        for t in targets {
            if let Some(Var::Param(i)) = root_var(exprs, t) {
                out.insert(i);
            }
        }
    }
    out
}

/// Whether `v` is used other than through a member access.
fn used_whole(exprs: &Exprs, v: Var) -> bool {
    let mut member_bases = HashSet::new();
    for (_, e) in exprs.iter() {
        if let ExprKind::Member { base, .. } = e.kind {
            member_bases.insert(base);
        }
    }
    exprs.iter().any(|(h, e)| matches!(e.kind, ExprKind::Var(x) if x == v) && !member_bases.contains(&h))
}

fn has_side_effects(exprs: &Exprs, h: Handle<Expr>) -> bool {
    let mut work = vec![h];
    while let Some(x) = work.pop() {
        match &exprs[x].kind {
            ExprKind::Assign { .. } | ExprKind::IncDec { .. } | ExprKind::Call { .. } => return true,
            ExprKind::Builtin { builtin: Builtin::Sincos | Builtin::Modf | Builtin::Frexp | Builtin::Clip, .. } => {
                return true
            }
            k => work.extend(k.children()),
        }
    }
    false
}

/// Whether a global's initialiser is a GLSL constant expression (no uniforms, calls).
fn is_constant_init(m: &Module, exprs: &Exprs, h: Handle<Expr>) -> bool {
    let mut work = vec![h];
    while let Some(x) = work.pop() {
        match &exprs[x].kind {
            ExprKind::Var(Var::Global(g)) if m.globals[*g].is_const => {}
            ExprKind::Var(_) | ExprKind::Call { .. } | ExprKind::Assign { .. } | ExprKind::IncDec { .. } => {
                return false
            }
            k => work.extend(k.children()),
        }
    }
    true
}

/// Whether naga's constant evaluator can fold a global's initialiser: a GLSL constant
/// expression without indexing, matrix element access or builtin calls, naming only
/// constants that are themselves not `deferred` (initialised in `main`).
fn naga_constant(m: &Module, exprs: &Exprs, h: Handle<Expr>, deferred: &HashSet<Handle<crate::ir::Global>>) -> bool {
    let mut work = vec![h];
    while let Some(x) = work.pop() {
        match &exprs[x].kind {
            ExprKind::Var(Var::Global(g)) if m.globals[*g].is_const && !deferred.contains(g) => {}
            ExprKind::Var(_)
            | ExprKind::Call { .. }
            | ExprKind::Assign { .. }
            | ExprKind::IncDec { .. }
            | ExprKind::Index { .. }
            | ExprKind::MatrixElements { .. }
            | ExprKind::Select { .. }
            | ExprKind::Builtin { .. } => return false,
            ExprKind::Literal(Literal::Float(f)) if !(*f as f32).is_finite() => return false,
            ExprKind::Binary { op: BinaryOp::Div, .. } if matches!(crate::sema::const_eval::eval_scalar(m, exprs, x, 0), Some(Literal::Float(f)) if !(f as f32).is_finite()) => {
                return false
            }
            k => work.extend(k.children()),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_without_a_glsl_name_is_an_internal_error_not_an_empty_name() {
        let (m, b, c) = (Module::default(), Bindings::default(), Connectors::default());
        let mut w = StageWriter::new(&m, Stage::Fragment, &b, &c, false);
        assert_eq!(w.type_name(Type::Vector(Scalar::Float, 3)), "vec3");
        assert!(w.take_diagnostics().is_empty());
        // float1x3 has no GLSL spelling (the porting passes rewrite it first).
        let odd = Type::Matrix { scalar: Scalar::Float, rows: 1, cols: 3 };
        assert_eq!(w.type_name(odd), "");
        assert_eq!(w.type_name(odd), "");
        assert_eq!(w.struct_name(7), "");
        let d = w.take_diagnostics();
        assert_eq!(d.len(), 2, "one error per unnamed thing: {d:?}");
        assert!(d.iter().all(|d| d.code == codes::E_WRITER_INTERNAL && d.is_error()));
        assert!(d.iter().any(|d| d.message.contains("Matrix")) && d.iter().any(|d| d.message.contains("struct #7")));
        assert!(w.take_diagnostics().is_empty(), "taken once");
    }
}
