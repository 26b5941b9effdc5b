//! A stable, indented text form of the AST, for snapshot tests and `--dump-ast`.
//!
//! One node per line: an optional field label (`cond:`), the node kind, its key fields
//! and its position as `@line:col-line:col` (`@line:col-col` on one line) in the user's
//! text. A position in another file than the root (the first file of the source map
//! that holds an item) is prefixed with that file's name; a node that came out of a macro expansion ends with `in MACRO` (the innermost
//! macro). Byte offsets never appear, so snapshots survive unrelated edits.
//!
//! The printer recurses over the tree; that is safe because the parser bounds the depth
//! of every AST it returns (see `crate::parser`). This module only formats: it never
//! fails and never looks anything up beyond the source map.

use super::*;
use crate::source::{FileId, SourceMap, Span};
use std::fmt::Write;

/// Prints `unit` as text (see the module documentation).
pub fn dump(sources: &SourceMap, unit: &TranslationUnit) -> String {
    // The root file is added to the source map before the files it includes.
    let main = unit.items.iter().map(|i| item_span(i).file).min();
    let mut p = Printer { sources, main, out: String::new(), indent: 0 };
    p.open(None, "TranslationUnit", None);
    for item in &unit.items {
        p.item(item);
    }
    p.close();
    p.out
}

fn item_span(item: &Item) -> Span {
    match item {
        Item::Declaration(d) => d.span,
        Item::Function(f) => f.span,
        Item::Interface(i) => i.span,
        Item::ConstantBuffer(c) => c.span,
        Item::Technique(t) => t.span,
        Item::Empty(s) | Item::Error(s) => *s,
    }
}

struct Printer<'a> {
    sources: &'a SourceMap,
    main: Option<FileId>,
    out: String,
    indent: usize,
}

impl Printer<'_> {
    fn line(&mut self, label: Option<&str>, text: &str, span: Option<Span>) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        if let Some(label) = label {
            self.out.push_str(label);
            self.out.push_str(": ");
        }
        self.out.push_str(text);
        if let Some(span) = span {
            self.position(span);
        }
        self.out.push('\n');
    }

    fn open(&mut self, label: Option<&str>, text: &str, span: Option<Span>) {
        self.line(label, text, span);
        self.indent += 1;
    }

    fn close(&mut self) {
        self.indent = self.indent.saturating_sub(1);
    }

    fn position(&mut self, span: Span) {
        // AST spans are already ranges of the user's text (see `crate::source::Span`);
        // mapping them through `user_span` again would shrink a node that starts inside
        // a macro to that macro's call site.
        let user = span;
        let file = self.sources.file(user.file);
        let (l1, c1) = file.line_col(user.start);
        let (l2, c2) = file.line_col(user.end);
        self.out.push_str(" @");
        if Some(user.file) != self.main {
            self.out.push_str(&file.name);
            self.out.push(':');
        }
        let _ = if l1 == l2 { write!(self.out, "{l1}:{c1}-{c2}") } else { write!(self.out, "{l1}:{c1}-{l2}:{c2}") };
        if let Some(e) = span.expansion {
            let _ = write!(self.out, " in {}", self.sources.expansion(e).macro_name);
        }
    }

    // ---------------------------------------------------------------- items

    fn item(&mut self, item: &Item) {
        match item {
            Item::Declaration(d) => self.declaration(None, d),
            Item::Function(f) => self.function(f),
            Item::Interface(i) => {
                let text = match &i.base {
                    Some(b) => format!("Interface {} : {}", i.name.name, b.name),
                    None => format!("Interface {}", i.name.name),
                };
                self.open(None, &text, Some(i.span));
                for m in &i.methods {
                    self.function(m);
                }
                self.close();
            }
            Item::ConstantBuffer(c) => {
                let mut text = format!("ConstantBuffer {}", c.name.name);
                for (q, _) in &c.qualifiers {
                    text.push(' ');
                    text.push_str(q.as_str());
                }
                self.open(None, &text, Some(c.span));
                for m in &c.members {
                    self.declaration(None, m);
                }
                if let Some(o) = &c.object {
                    self.declarator(Some("object"), o);
                }
                self.close();
            }
            Item::Technique(t) => {
                let text = match &t.name {
                    Some(n) => format!("Technique {}", n.name),
                    None => "Technique".to_owned(),
                };
                self.open(None, &text, Some(t.span));
                self.annotations(&t.annotations);
                for p in &t.passes {
                    let text = match &p.name {
                        Some(n) => format!("Pass {}", n.name),
                        None => "Pass".to_owned(),
                    };
                    self.open(None, &text, Some(p.span));
                    self.annotations(&p.annotations);
                    for st in &p.states {
                        self.open(None, &format!("State {}", st.name.name), Some(st.span));
                        if let Some(i) = &st.index {
                            self.expr(Some("index"), i);
                        }
                        self.expr(Some("value"), &st.value);
                        self.close();
                    }
                    self.close();
                }
                self.close();
            }
            Item::Empty(s) => self.line(None, "Empty", Some(*s)),
            Item::Error(s) => self.line(None, "Error", Some(*s)),
        }
    }

    fn declaration(&mut self, label: Option<&str>, d: &Declaration) {
        self.open(label, "Declaration", Some(d.span));
        self.specifiers(&d.specifiers);
        for decl in &d.declarators {
            self.declarator(None, decl);
        }
        self.close();
    }

    fn specifiers(&mut self, s: &DeclSpecifiers) {
        let mut text = "Specifiers".to_owned();
        for (q, _) in &s.qualifiers {
            text.push(' ');
            text.push_str(q.as_str());
        }
        for p in &s.profiles {
            let _ = write!(text, " profile={}", p.name);
        }
        for (m, _) in &s.modifiers {
            let _ = write!(text, " modifier={}", m.as_string());
        }
        self.open(None, &text, Some(s.span));
        self.type_spec(None, &s.ty);
        self.close();
    }

    fn type_spec(&mut self, label: Option<&str>, t: &TypeSpec) {
        match t {
            TypeSpec::Named(i) => self.line(label, &format!("Type {}", i.name), Some(i.span)),
            TypeSpec::Generic { name, args, span } => {
                self.open(label, &format!("Generic {}", name.name), Some(*span));
                for a in args {
                    match a {
                        GenericArg::Type(t) => self.type_spec(None, t),
                        GenericArg::Expr(e) => self.expr(None, e),
                    }
                }
                self.close();
            }
            TypeSpec::Struct(s) => {
                let mut text = match &s.name {
                    Some(n) => format!("Struct {}", n.name),
                    None => "Struct <anonymous>".to_owned(),
                };
                if !s.bases.is_empty() {
                    let bases: Vec<&str> = s.bases.iter().map(|b| b.name.as_str()).collect();
                    let _ = write!(text, " : {}", bases.join(", "));
                }
                self.open(label, &text, Some(s.span));
                for m in &s.members {
                    match m {
                        StructMember::Field(d) => self.declaration(None, d),
                        StructMember::Method(f) => self.function(f),
                        StructMember::Error(s) => self.line(None, "Error", Some(*s)),
                    }
                }
                self.close();
            }
        }
    }

    fn type_name(&mut self, label: Option<&str>, t: &TypeName) {
        if t.array.is_empty() {
            self.type_spec(label, &t.ty);
            return;
        }
        self.open(label, "TypeName", Some(t.span));
        self.type_spec(None, &t.ty);
        self.arrays(&t.array);
        self.close();
    }

    fn arrays(&mut self, dims: &[ArraySize]) {
        for a in dims {
            match a {
                ArraySize::Sized(e) => {
                    self.open(None, "ArraySize", None);
                    self.expr(None, e);
                    self.close();
                }
                ArraySize::Unsized(s) => self.line(None, "ArraySize unsized", Some(*s)),
            }
        }
    }

    fn declarator(&mut self, label: Option<&str>, d: &Declarator) {
        self.open(label, &format!("Declarator {}", d.name.name), Some(d.span));
        self.arrays(&d.array);
        if let Some(s) = &d.semantic {
            self.semantic(s);
        }
        self.annotations(&d.annotations);
        if let Some(i) = &d.init {
            self.initializer(Some("init"), i);
        }
        self.close();
    }

    fn annotations(&mut self, list: &[Annotation]) {
        for a in list {
            self.open(None, &format!("Annotation {}", a.name.name), Some(a.span));
            self.type_spec(None, &a.ty);
            if let Some(v) = &a.value {
                self.initializer(Some("value"), v);
            }
            self.close();
        }
    }

    fn semantic(&mut self, s: &Semantic) {
        let text = match &s.argument {
            Some(a) => format!("Semantic {}({})", s.name.name, a.name),
            None => format!("Semantic {}", s.name.name),
        };
        match &s.index {
            Some(i) => {
                self.open(None, &text, Some(s.span));
                self.expr(Some("index"), i);
                self.close();
            }
            None => self.line(None, &text, Some(s.span)),
        }
    }

    fn initializer(&mut self, label: Option<&str>, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(label, e),
            Initializer::List(items, span) => {
                self.open(label, "List", Some(*span));
                for item in items {
                    self.initializer(None, item);
                }
                self.close();
            }
        }
    }

    fn function(&mut self, f: &Function) {
        let text = if f.body.is_some() {
            format!("Function {}", f.name.name)
        } else {
            format!("Function {} (prototype)", f.name.name)
        };
        self.open(None, &text, Some(f.span));
        self.specifiers(&f.specifiers);
        for p in &f.params {
            let text = match &p.name {
                Some(n) => format!("Param {}", n.name),
                None => "Param <unnamed>".to_owned(),
            };
            self.open(None, &text, Some(p.span));
            self.specifiers(&p.specifiers);
            self.arrays(&p.array);
            if let Some(s) = &p.semantic {
                self.semantic(s);
            }
            if let Some(d) = &p.default {
                self.initializer(Some("default"), d);
            }
            self.close();
        }
        if let Some(s) = &f.semantic {
            self.semantic(s);
        }
        if let Some(b) = &f.body {
            self.block(None, b);
        }
        self.close();
    }

    // ---------------------------------------------------------------- statements

    fn block(&mut self, label: Option<&str>, b: &Block) {
        self.open(label, "Block", Some(b.span));
        for s in &b.stmts {
            self.stmt(None, s);
        }
        self.close();
    }

    fn stmt(&mut self, label: Option<&str>, s: &Stmt) {
        let span = Some(s.span);
        match &s.kind {
            StmtKind::Expr(e) => {
                self.open(label, "ExprStmt", span);
                self.expr(None, e);
                self.close();
            }
            StmtKind::Declaration(d) => self.declaration(label, d),
            StmtKind::Block(b) => self.block(label, b),
            StmtKind::If { cond, then, else_ } => {
                self.open(label, "If", span);
                self.expr(Some("cond"), cond);
                self.stmt(Some("then"), then);
                if let Some(e) = else_ {
                    self.stmt(Some("else"), e);
                }
                self.close();
            }
            StmtKind::For { init, cond, step, body } => {
                self.open(label, "For", span);
                if let Some(i) = init {
                    self.stmt(Some("init"), i);
                }
                if let Some(c) = cond {
                    self.expr(Some("cond"), c);
                }
                if let Some(s) = step {
                    self.expr(Some("step"), s);
                }
                self.stmt(Some("body"), body);
                self.close();
            }
            StmtKind::While { cond, body } => {
                self.open(label, "While", span);
                self.expr(Some("cond"), cond);
                self.stmt(Some("body"), body);
                self.close();
            }
            StmtKind::DoWhile { body, cond } => {
                self.open(label, "DoWhile", span);
                self.stmt(Some("body"), body);
                self.expr(Some("cond"), cond);
                self.close();
            }
            StmtKind::Switch { value, body } => {
                self.open(label, "Switch", span);
                self.expr(Some("value"), value);
                self.block(Some("body"), body);
                self.close();
            }
            StmtKind::Case(e) => {
                self.open(label, "Case", span);
                self.expr(None, e);
                self.close();
            }
            StmtKind::Return(e) => match e {
                Some(e) => {
                    self.open(label, "Return", span);
                    self.expr(None, e);
                    self.close();
                }
                None => self.line(label, "Return", span),
            },
            StmtKind::Default => self.line(label, "Default", span),
            StmtKind::Break => self.line(label, "Break", span),
            StmtKind::Continue => self.line(label, "Continue", span),
            StmtKind::Discard => self.line(label, "Discard", span),
            StmtKind::Empty => self.line(label, "Empty", span),
            StmtKind::Error => self.line(label, "Error", span),
        }
    }

    // ---------------------------------------------------------------- expressions

    fn expr(&mut self, label: Option<&str>, e: &Expr) {
        let span = Some(e.span);
        match &e.kind {
            ExprKind::Ident(i) => self.line(label, &format!("Ident {}", i.name), span),
            ExprKind::Literal(l) => self.line(label, &literal(l), span),
            ExprKind::Unary { op, operand } => {
                let text = match op {
                    UnaryOp::PostInc | UnaryOp::PostDec => format!("Unary post{}", op.as_str()),
                    _ => format!("Unary {}", op.as_str()),
                };
                self.open(label, &text, span);
                self.expr(None, operand);
                self.close();
            }
            ExprKind::Binary { op, lhs, rhs } => {
                self.open(label, &format!("Binary {}", op.as_str()), span);
                self.expr(None, lhs);
                self.expr(None, rhs);
                self.close();
            }
            ExprKind::Assign { op, lhs, rhs } => {
                let text = match op {
                    Some(op) => format!("Assign {}=", op.as_str()),
                    None => "Assign =".to_owned(),
                };
                self.open(label, &text, span);
                self.expr(None, lhs);
                self.expr(None, rhs);
                self.close();
            }
            ExprKind::Conditional { cond, then, else_ } => {
                self.open(label, "Conditional", span);
                self.expr(Some("cond"), cond);
                self.expr(Some("then"), then);
                self.expr(Some("else"), else_);
                self.close();
            }
            ExprKind::Comma(list) => {
                self.open(label, "Comma", span);
                for x in list {
                    self.expr(None, x);
                }
                self.close();
            }
            ExprKind::Cast { ty, operand } => {
                self.open(label, "Cast", span);
                self.type_name(Some("type"), ty);
                self.expr(None, operand);
                self.close();
            }
            ExprKind::Constructor { ty, args } => {
                self.open(label, "Constructor", span);
                self.type_name(Some("type"), ty);
                for a in args {
                    self.expr(None, a);
                }
                self.close();
            }
            ExprKind::Call { callee, args } => {
                self.open(label, "Call", span);
                self.expr(Some("callee"), callee);
                for a in args {
                    self.expr(None, a);
                }
                self.close();
            }
            ExprKind::Member { base, member } => {
                self.open(label, &format!("Member .{}", member.name), span);
                self.expr(None, base);
                self.close();
            }
            ExprKind::Index { base, index } => {
                self.open(label, "Index", span);
                self.expr(None, base);
                self.expr(Some("index"), index);
                self.close();
            }
            ExprKind::Compile { profile, function, args } => {
                self.open(label, &format!("Compile {} {}", profile.name, function.name), span);
                for a in args {
                    self.expr(None, a);
                }
                self.close();
            }
            ExprKind::WithSemantic { value, semantic } => {
                self.open(label, "WithSemantic", span);
                self.expr(None, value);
                self.semantic(semantic);
                self.close();
            }
            ExprKind::Error => self.line(label, "Error", span),
        }
    }
}

fn literal(l: &Literal) -> String {
    let suffix = |s: &LiteralSuffix| {
        if *s == LiteralSuffix::None {
            String::new()
        } else {
            format!(" {s:?}")
        }
    };
    match l {
        Literal::Int(v, s) => format!("Int {v}{}", suffix(s)),
        Literal::Float(v, s) => format!("Float {v:?}{}", suffix(s)),
        Literal::Bool(b) => format!("Bool {b}"),
        Literal::String(s) => format!("String {s:?}"),
    }
}
