//! A stable, readable text form of the IR, used by snapshot tests and `--dump-ir`.
//!
//! Declarations print in Cg-like syntax; expressions print as typed s-expressions, e.g.
//! `(add:float3 (var c:float3) (splat:float3 (lit 0.5:float)))`, so every conversion,
//! smear and chosen builtin is visible. Output depends only on the IR (no spans, no
//! addresses), so it is deterministic.

use super::*;
use std::fmt::Write;

/// Prints a whole module.
pub fn module(m: &Module) -> String {
    let mut out = String::new();
    for p in &m.pragmas {
        let _ = writeln!(out, "{p}");
    }
    for (i, s) in m.structs.iter().enumerate() {
        let name = s.name.clone().unwrap_or_else(|| format!("<anonymous #{i}>"));
        let _ = write!(out, "struct {name}");
        if let Some(iface) = s.implements {
            let _ = write!(out, " : {}", m.interface(iface).name);
        }
        out.push_str(" {\n");
        for f in &s.fields {
            let _ = writeln!(out, "    {} {}{};", m.type_name(f.ty), f.name, semantic(&f.semantic));
        }
        out.push_str("}\n");
    }
    for i in &m.interfaces {
        let _ = writeln!(out, "interface {} {{", i.name);
        for s in &i.methods {
            let params: Vec<String> = s.params.iter().map(|(t, d)| format!("{}{}", dir(*d), m.type_name(*t))).collect();
            let _ = writeln!(out, "    {} {}({});", m.type_name(s.ret), s.name, params.join(", "));
        }
        out.push_str("}\n");
    }
    for (_, g) in m.globals.iter() {
        let storage = match g.storage {
            Storage::Uniform => "uniform",
            Storage::Static => "static",
            Storage::Varying => "varying",
            Storage::Buffer => "buffer",
        };
        let c = if g.is_const { "const " } else { "" };
        let _ = write!(out, "{storage} {c}{} {}{}", m.type_name(g.ty), g.name, semantic(&g.semantic));
        if let Some(init) = g.init {
            let _ = write!(out, " = {}", expr(m, &m.global_exprs, init));
        }
        out.push_str(";\n");
    }
    for (h, f) in m.functions.iter() {
        out.push('\n');
        function(&mut out, m, h, f);
    }
    if let Some(e) = &m.entry_point {
        let _ = writeln!(out, "\nentry {} ({:?}, {})", m.functions[e.function].name, e.stage, e.profile);
    }
    out
}

fn semantic(s: &Option<Semantic>) -> String {
    s.as_ref().map_or_else(String::new, |s| format!(" : {}", s.text))
}

fn dir(d: ParamDir) -> &'static str {
    match d {
        ParamDir::In => "",
        ParamDir::Out => "out ",
        ParamDir::InOut => "inout ",
    }
}

fn function(out: &mut String, m: &Module, h: Handle<Function>, f: &Function) {
    for p in &f.profiles {
        let _ = write!(out, "{p} ");
    }
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let u = if p.uniform { "uniform " } else { "" };
            let mut s = format!("{u}{}{} {}{}", dir(p.dir), m.type_name(p.ty), p.name, semantic(&p.semantic));
            if let Some(d) = p.default {
                let _ = write!(s, " = {}", expr(m, &m.global_exprs, d));
            }
            s
        })
        .collect();
    let _ = write!(
        out,
        "fn#{} {}({}) -> {}{}",
        h.index(),
        f.name,
        params.join(", "),
        m.type_name(f.ret),
        semantic(&f.ret_semantic)
    );
    match &f.body {
        None => out.push_str(";\n"),
        Some(b) => {
            out.push_str(" {\n");
            block(out, m, f, b, 1);
            out.push_str("}\n");
        }
    }
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("    ");
    }
}

fn block(out: &mut String, m: &Module, f: &Function, b: &Block, level: usize) {
    for (s, _) in &b.stmts {
        stmt(out, m, f, s, level);
    }
}

fn stmt(out: &mut String, m: &Module, f: &Function, s: &Stmt, level: usize) {
    let e = |h: Handle<Expr>| expr(m, &f.exprs, h);
    indent(out, level);
    match s {
        Stmt::Block(b) => {
            out.push_str("{\n");
            block(out, m, f, b, level + 1);
            indent(out, level);
            out.push_str("}\n");
        }
        Stmt::Expr(h) => {
            let _ = writeln!(out, "{};", e(*h));
        }
        Stmt::Local { local, init } => {
            let l = &f.locals[*local];
            let c = if l.is_const { "const " } else { "" };
            let _ = write!(out, "local {c}{} {}", m.type_name(l.ty), l.name);
            if let Some(i) = init {
                let _ = write!(out, " = {}", e(*i));
            }
            out.push_str(";\n");
        }
        Stmt::If { cond, accept, reject } => {
            let _ = writeln!(out, "if {} {{", e(*cond));
            block(out, m, f, accept, level + 1);
            if let Some(r) = reject {
                indent(out, level);
                out.push_str("} else {\n");
                block(out, m, f, r, level + 1);
            }
            indent(out, level);
            out.push_str("}\n");
        }
        Stmt::For { init, cond, step, body } => {
            out.push_str("for {\n");
            indent(out, level + 1);
            out.push_str("init {\n");
            block(out, m, f, init, level + 2);
            indent(out, level + 1);
            out.push_str("}\n");
            if let Some(c) = cond {
                indent(out, level + 1);
                let _ = writeln!(out, "cond {}", e(*c));
            }
            if let Some(s) = step {
                indent(out, level + 1);
                let _ = writeln!(out, "step {}", e(*s));
            }
            block(out, m, f, body, level + 1);
            indent(out, level);
            out.push_str("}\n");
        }
        Stmt::While { cond, body } => {
            let _ = writeln!(out, "while {} {{", e(*cond));
            block(out, m, f, body, level + 1);
            indent(out, level);
            out.push_str("}\n");
        }
        Stmt::DoWhile { body, cond } => {
            out.push_str("do {\n");
            block(out, m, f, body, level + 1);
            indent(out, level);
            let _ = writeln!(out, "}} while {};", e(*cond));
        }
        Stmt::Switch { selector, cases } => {
            let _ = writeln!(out, "switch {} {{", e(*selector));
            for c in cases {
                indent(out, level);
                let mut labels: Vec<String> = c.values.iter().map(|v| format!("case {v}")).collect();
                if c.is_default {
                    labels.push("default".into());
                }
                let _ = writeln!(out, "{}:", labels.join(", "));
                block(out, m, f, &c.body, level + 1);
            }
            indent(out, level);
            out.push_str("}\n");
        }
        Stmt::Break => out.push_str("break;\n"),
        Stmt::Continue => out.push_str("continue;\n"),
        Stmt::Return(None) => out.push_str("return;\n"),
        Stmt::Return(Some(h)) => {
            let _ = writeln!(out, "return {};", e(*h));
        }
        Stmt::Discard => out.push_str("discard;\n"),
        Stmt::EmitVertex(values) => {
            let args: Vec<String> = values.iter().map(|(h, s)| format!("{}{}", e(*h), semantic(s))).collect();
            let _ = writeln!(out, "emitVertex({});", args.join(", "));
        }
        Stmt::RestartStrip => out.push_str("restartStrip();\n"),
    }
}

fn literal(l: Literal) -> String {
    match l {
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::UInt(u) => format!("{u}u"),
        // Values of binary32 types print in their shortest binary32 form.
        Literal::Float(f) if (f as f32) as f64 == f => format!("{:?}", f as f32),
        Literal::Float(f) => format!("{f:?}"),
    }
}

/// Prints one expression tree. Deep trees are bounded by the parser's nesting limit.
pub fn expr(m: &Module, exprs: &Exprs, h: Handle<Expr>) -> String {
    let mut out = String::new();
    write_expr(&mut out, m, exprs, h);
    out
}

fn write_expr(out: &mut String, m: &Module, exprs: &Exprs, h: Handle<Expr>) {
    if !exprs.contains(h) {
        let _ = write!(out, "<bad handle {}>", h.index());
        return;
    }
    let e = &exprs[h];
    let ty = m.type_name(e.ty);
    let node = |out: &mut String, name: &str, children: &[Handle<Expr>]| {
        let _ = write!(out, "({name}:{ty}");
        for c in children {
            out.push(' ');
            write_expr(out, m, exprs, *c);
        }
        out.push(')');
    };
    match &e.kind {
        ExprKind::Literal(l) => {
            let _ = write!(out, "(lit {}:{ty})", literal(*l));
        }
        ExprKind::Var(v) => {
            let name = match v {
                Var::Local(l) => format!("local#{}", l.index()),
                Var::Param(i) => format!("param#{i}"),
                Var::Global(g) => m.globals.get(*g).map_or_else(|| "<bad global>".into(), |g| g.name.clone()),
            };
            let _ = write!(out, "(var {name}:{ty})");
        }
        ExprKind::Member { base, field } => node(out, &format!("field {field}"), &[*base]),
        ExprKind::Index { base, index } => node(out, "index", &[*base, *index]),
        ExprKind::Swizzle { base, components } => {
            let s: String = components.iter().map(|&c| b"xyzw".get(c as usize).map_or('?', |&b| b as char)).collect();
            node(out, &format!("swizzle .{s}"), &[*base])
        }
        ExprKind::MatrixElements { base, elements } => {
            let s: String = elements.iter().map(|(r, c)| format!("_m{r}{c}")).collect();
            node(out, &format!("elements {s}"), &[*base])
        }
        ExprKind::Unary { op, operand } => node(out, &format!("{op:?}").to_lowercase(), &[*operand]),
        ExprKind::Binary { op, lhs, rhs } => node(out, &format!("{op:?}").to_lowercase(), &[*lhs, *rhs]),
        ExprKind::Select { cond, accept, reject } => node(out, "select", &[*cond, *accept, *reject]),
        ExprKind::Convert { value } => node(out, "convert", &[*value]),
        ExprKind::Splat { value } => node(out, "splat", &[*value]),
        ExprKind::Truncate { value } => node(out, "truncate", &[*value]),
        ExprKind::Reshape { value } => node(out, "reshape", &[*value]),
        ExprKind::Construct { args } => node(out, "construct", args),
        ExprKind::Call { function, args } => {
            let name = m.functions.get(*function).map_or("<bad function>", |f| f.name.as_str());
            node(out, &format!("call {name}#{}", function.index()), args)
        }
        ExprKind::Builtin { builtin, args } => node(out, &format!("builtin {}", builtin.name()), args),
        ExprKind::Assign { op, target, value } => {
            let name = match op {
                Some(op) => format!("assign{}", op.symbol()),
                None => "assign".to_owned(),
            };
            node(out, &name, &[*target, *value])
        }
        ExprKind::IncDec { op, target } => node(out, &format!("{op:?}").to_lowercase(), &[*target]),
        ExprKind::Sequence { exprs: list } => node(out, "sequence", list),
        ExprKind::Ported(Ported::Runtime(v)) => {
            let _ = write!(out, "(runtime {v:?}:{ty})");
        }
        ExprKind::Ported(Ported::ComponentSelect { cond, accept, reject }) => {
            node(out, "component select", &[*cond, *accept, *reject])
        }
        ExprKind::Ported(Ported::NonFinite(f)) => {
            let _ = write!(out, "(non-finite {}:{ty})", literal(Literal::Float(*f)));
        }
        ExprKind::Ported(Ported::EagerLogical { op, lhs, rhs }) => {
            node(out, &format!("eager {:?}", op).to_lowercase(), &[*lhs, *rhs])
        }
    }
}
