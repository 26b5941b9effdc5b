//! Function bodies: helper functions, the entry point as `main`, and the connector
//! reads and writes around it (input slots, varyings, `gl_Position`, `FragColor`).
//! Never decides where a connector goes: [`crate::port::connectors`] does.

use super::*;
use crate::codes;
use crate::ir::{Expr, Exprs, Function, Handle, ParamDir, Scalar, Stmt, Type};
use crate::port::connectors::{Place, SlotKind};
use crate::port::names::Namer;
use crate::port::semantics::Binding;
use grammar::Diagnostic;

impl StageWriter<'_> {
    pub(super) fn line(&mut self, level: usize, text: &str) {
        let mut s = String::with_capacity(level * 4 + text.len());
        for _ in 0..level {
            s.push_str("    ");
        }
        s.push_str(text);
        self.out.push(&s, self.span);
    }

    pub(super) fn begin_function(&mut self, f: Handle<Function>) {
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
        if self.dialect.separate_samplers() {
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

    pub(super) fn function(&mut self, f: Handle<Function>) {
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
            if self.dialect.needs_final_return()
                && func.ret != Type::Void
                && !matches!(body.stmts.last(), Some((Stmt::Return(_), _)))
            {
                let zero = self.zero(func.ret);
                self.line(1, &format!("return {zero};"));
            }
        }
        self.span = Some(func.span);
        self.line(0, "}");
    }

    pub(super) fn entry_main(&mut self, f: Handle<Function>) {
        self.begin_function(f);
        self.in_entry = true;
        let func = &self.m.functions[f];
        self.span = Some(func.span);
        self.line(0, "void main()");
        self.line(0, "{");
        self.main_body_start = self.out.lines.len();
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
            if !self.plan.copied_params.contains(&i) {
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

    /// The value an input parameter (or input struct) of the entry point reads.
    pub(super) fn param_input_value(&mut self, i: u32, ty: Type) -> String {
        match ty {
            Type::Struct(s) => {
                let n = self.m.struct_def(s).fields.len() as u32;
                let fields: Vec<String> = (0..n)
                    .map(|f| {
                        let fty = self.m.struct_def(s).fields[f as usize].ty;
                        self.slot_value(Place::ParamField(i, f), fty)
                    })
                    .collect();
                format!("{}({})", self.struct_name(s), fields.join(", "))
            }
            _ => self.slot_value(Place::Param(i), ty),
        }
    }

    /// The GLSL text that reads an input slot, shaped to the Cg type.
    pub(super) fn slot_value(&mut self, place: Place, ty: Type) -> String {
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

    pub(super) fn entry_return(&mut self, exprs: &Exprs, v: Option<Handle<Expr>>, level: usize, last: bool) {
        if let Some(h) = v {
            let ty = exprs[h].ty;
            match ty {
                Type::Struct(s) => {
                    let (value, _) = self.expr(exprs, h);
                    let base = if self.is_plain(exprs, h) {
                        value
                    } else {
                        let t = self.struct_name(s);
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
    pub(super) fn copy_outputs(&mut self, level: usize) {
        let Some(f) = self.cur else { return };
        let params = self.m.functions[f].params.clone();
        for (i, p) in params.iter().enumerate() {
            let i = i as u32;
            if p.dir == ParamDir::In || !self.plan.copied_params.contains(&i) {
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

    pub(super) fn write_output(&mut self, place: Place, value: &str, ty: Type, level: usize) {
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

    pub(super) fn field_name(&self, s: crate::ir::StructId, f: u32) -> String {
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
}
