//! The stage's layout: the functions reachable from the entry point, the names of
//! structs, globals and functions, and the declarations before the bodies (interface,
//! structs, globals). Never prints a statement or an expression of a body.

use super::*;
use crate::codes;
use crate::ir::{ExprKind, Function, Handle, Scalar, Type, Var};
use crate::port::connectors::{Place, SlotKind};
use crate::port::names::Namer;
use crate::port::semantics::Binding;
use crate::port::stdlib::glsl_type;
use grammar::Diagnostic;
use std::collections::{BTreeSet, HashSet};
use std::fmt::Write;

impl StageWriter<'_> {
    pub(super) fn write_stage(&mut self) {
        let Some(entry) = self.m.entry_point.clone() else { return };
        let order = self.plan.order.clone();
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
        // Deferred global initialisers run first in `main`, where its body starts.
        if let Some(main) = order.iter().position(|&f| f == entry.function).and_then(|i| bodies.get_mut(i)) {
            let at = self.main_body_start.min(main.lines.len());
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

    pub(super) fn name_globals_and_functions(&mut self, order: &[Handle<Function>]) {
        for (i, s) in self.m.structs.iter().enumerate() {
            let name = self.namer.name(s.name.as_deref().unwrap_or("Anonymous"));
            self.struct_names.insert(StructId(i as u32), name);
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
    pub(super) fn find_sampler_aliases(&mut self, entry: Handle<Function>) {
        let saved = (self.cur, self.in_entry);
        self.cur = Some(entry);
        self.in_entry = true;
        let exprs = &self.m.functions[entry].exprs;
        for (value, v) in super::plan::sampler_alias_assignments(self.m, entry) {
            let text = self.expr(exprs, value).0;
            let plain = self.is_plain(exprs, value);
            self.sampler_alias.insert(v, (text, plain));
        }
        (self.cur, self.in_entry) = saved;
    }

    pub(super) fn interface_decls(&mut self, out: &mut Lines) {
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
                if self.dialect.separate_samplers() {
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
    pub(super) fn varying_name(&mut self, vertex: bool, place: Place) -> String {
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

    pub(super) fn struct_decls(&mut self, out: &mut Lines, order: &[Handle<Function>]) {
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
                if !entry || self.plan.copied_params.contains(&(i as u32)) {
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
                && matches!(self.b.globals.get(&h), Some(Binding::Private | Binding::Unbound))
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
            let mut text = format!("\nstruct {}\n{{\n", self.struct_name(StructId(s)));
            let mut field_namer = Namer::new();
            for f in &def.fields {
                if f.ty.is_sampler() {
                    self.unsupported(
                        Some(f.span),
                        format!(
                            "struct `{}` holds a sampler, which GLSL structs cannot",
                            self.struct_name(StructId(s))
                        ),
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

    pub(super) fn global_decls(&mut self, out: &mut Lines, order: &[Handle<Function>]) {
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
            let binding = self.b.globals.get(&g).cloned().unwrap_or(Binding::Private);
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
                    if self.dialect.evaluates_global_initialisers()
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
                    let constant = !(written.contains(&g)
                        || self.dialect.evaluates_global_initialisers() && binding == Binding::Unbound)
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

    pub(super) fn zero(&self, ty: Type) -> String {
        match ty {
            Type::Struct(s) => {
                let fields: Vec<String> = self.m.struct_def(s).fields.iter().map(|f| self.zero(f.ty)).collect();
                format!("{}({})", self.struct_name(s), fields.join(", "))
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
    pub(super) fn decl_type(&self, ty: Type) -> (String, String) {
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
            Type::Struct(s) => self.struct_names.get(&s).cloned().unwrap_or_else(|| "S".into()),
            other => glsl_type(other).unwrap_or_else(|| self.m.type_name(other)),
        };
        (name, dims)
    }

    pub(super) fn type_text(&mut self, ty: Type) -> String {
        if let Type::Matrix { rows, cols, scalar } = ty {
            if rows < 2 || cols < 2 || scalar.is_integral() || scalar == Scalar::Bool {
                self.unsupported(None, format!("{} has no GLSL matrix equivalent", self.m.type_name(ty)));
            }
        }
        let (t, d) = self.decl_type(ty);
        format!("{t}{d}")
    }
}
