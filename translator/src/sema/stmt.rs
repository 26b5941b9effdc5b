//! Statements: AST to IR statement trees, with scopes, local declarations, loop and
//! switch context, return-type checks and the profile rule on `discard`.
//!
//! A statement whose expression failed to lower is dropped (its error is already
//! reported) and lowering continues with the next one.

use super::{Lowerer, Symbol};
use crate::codes;
use crate::ir::{Block, Local, Stage, Stmt, SwitchCase, Type, Var};
use grammar::ast;
use grammar::Span;

impl<'a> Lowerer<'a> {
    /// Lowers statements in a new scope.
    pub(super) fn block_in_scope(&mut self, stmts: &'a [ast::Stmt]) -> Block {
        self.push_scope();
        let mut block = Block::default();
        for s in stmts {
            self.stmt(s, &mut block);
        }
        self.pop_scope();
        block
    }

    /// A sub-statement (`if` branch, loop body) as a block with its own scope.
    /// Lowers a branch; when it is `dead` and produced errors, drops them and the branch.
    fn dead_branch(&mut self, dead: bool, lower: impl FnOnce(&mut Self) -> Block) -> Block {
        let mark = self.body_diags.len();
        let block = lower(self);
        if dead && self.body_diags[mark..].iter().any(|(_, d)| d.is_error()) {
            self.body_diags.truncate(mark);
            return Block::default();
        }
        block
    }

    fn sub_block(&mut self, s: &'a ast::Stmt) -> Block {
        match &s.kind {
            ast::StmtKind::Block(b) => self.block_in_scope(&b.stmts),
            _ => self.block_in_scope(std::slice::from_ref(s)),
        }
    }

    fn stmt(&mut self, s: &'a ast::Stmt, out: &mut Block) {
        let span = s.span;
        match &s.kind {
            ast::StmtKind::Expr(e) => {
                if let Some(s) = self.geometry_statement(e) {
                    if let Some(s) = s {
                        out.stmts.push((s, span));
                    }
                    return;
                }
                if let Some(h) = self.expr(e) {
                    out.stmts.push((Stmt::Expr(h), span));
                }
            }
            ast::StmtKind::Declaration(d) => self.local_declaration(d, out),
            ast::StmtKind::Block(b) => {
                let b = self.block_in_scope(&b.stmts);
                out.stmts.push((Stmt::Block(b), span));
            }
            ast::StmtKind::If { cond, then, else_ } => {
                let c = self.condition(cond);
                // A branch a constant condition never takes is not checked, as cgc did
                // not: crt-royale's `-intel` variants name `MASK_RESIZE` only under
                // `if (sample_orig_luts)` with a `static const bool` true. Such a branch
                // keeps its IR when it has no errors (nothing changes for valid code);
                // with errors it becomes empty and its diagnostics are dropped.
                let known = c.and_then(|h| self.fold(h)).map(super::const_eval::truthy);
                let accept = self.dead_branch(known == Some(false), |me| me.sub_block(then));
                let reject = else_.as_ref().map(|e| self.dead_branch(known == Some(true), |me| me.sub_block(e)));
                if let Some(cond) = c {
                    out.stmts.push((Stmt::If { cond, accept, reject }, span));
                }
            }
            ast::StmtKind::For { init, cond, step, body } => {
                self.push_scope();
                let mut init_block = Block::default();
                if let Some(i) = init {
                    self.stmt(i, &mut init_block);
                }
                let c = cond.as_ref().map(|c| self.condition(c));
                let st = step.as_ref().map(|e| self.expr(e));
                let body = self.loop_body(body);
                self.pop_scope();
                let (Some(cond), Some(step)) =
                    (c.map_or(Some(None), |c| c.map(Some)), st.map_or(Some(None), |s| s.map(Some)))
                else {
                    return;
                };
                out.stmts.push((Stmt::For { init: init_block, cond, step, body }, span));
            }
            ast::StmtKind::While { cond, body } => {
                let c = self.condition(cond);
                let body = self.loop_body(body);
                if let Some(cond) = c {
                    out.stmts.push((Stmt::While { cond, body }, span));
                }
            }
            ast::StmtKind::DoWhile { body, cond } => {
                let body = self.loop_body(body);
                if let Some(cond) = self.condition(cond) {
                    out.stmts.push((Stmt::DoWhile { body, cond }, span));
                }
            }
            ast::StmtKind::Switch { value, body } => self.switch(value, body, span, out),
            ast::StmtKind::Case(_) | ast::StmtKind::Default => {
                self.error(
                    codes::E_BAD_CONTROL_FLOW,
                    span,
                    "`case` and `default` labels belong directly inside a `switch` body",
                );
            }
            ast::StmtKind::Break => {
                if self.stack.last().is_some_and(|c| c.loops + c.switches > 0) {
                    out.stmts.push((Stmt::Break, span));
                } else {
                    self.error(codes::E_BAD_CONTROL_FLOW, span, "`break` outside a loop or switch");
                }
            }
            ast::StmtKind::Continue => {
                if self.stack.last().is_some_and(|c| c.loops > 0) {
                    out.stmts.push((Stmt::Continue, span));
                } else {
                    self.error(codes::E_BAD_CONTROL_FLOW, span, "`continue` outside a loop");
                }
            }
            ast::StmtKind::Return(value) => self.return_stmt(value.as_ref(), span, out),
            ast::StmtKind::Discard => {
                if self.profile.stage == Stage::Vertex {
                    self.profile_error(span, "`discard` is only allowed in fragment programs");
                }
                out.stmts.push((Stmt::Discard, span));
            }
            ast::StmtKind::Empty | ast::StmtKind::Error => {}
        }
    }

    fn condition(&mut self, e: &'a ast::Expr) -> Option<crate::ir::Handle<crate::ir::Expr>> {
        let h = self.expr(e)?;
        self.bool_condition(h, e.span)
    }

    fn loop_body(&mut self, body: &'a ast::Stmt) -> Block {
        if let Some(c) = self.stack.last_mut() {
            c.loops += 1;
        }
        let b = self.sub_block(body);
        if let Some(c) = self.stack.last_mut() {
            c.loops -= 1;
        }
        b
    }

    fn return_stmt(&mut self, value: Option<&'a ast::Expr>, span: Span, out: &mut Block) {
        let Some(ret) = self.stack.last().map(|c| c.ret) else { return };
        match (value, ret) {
            (None, Type::Void) => out.stmts.push((Stmt::Return(None), span)),
            (None, _) => {
                let t = self.type_name(ret);
                self.error(
                    codes::E_BAD_CONTROL_FLOW,
                    span,
                    format!("`return` without a value in a function returning {t}"),
                );
            }
            (Some(e), Type::Void) => {
                self.error(codes::E_BAD_CONTROL_FLOW, e.span, "a `void` function cannot return a value");
            }
            (Some(e), _) => {
                if let Some(h) = self.expr(e) {
                    if let Some(v) = self.convert(h, ret, false, e.span) {
                        out.stmts.push((Stmt::Return(Some(v)), span));
                    }
                }
            }
        }
    }

    fn switch(&mut self, value: &'a ast::Expr, body: &'a ast::Block, span: Span, out: &mut Block) {
        let selector = self.expr(value).and_then(|h| {
            let t = self.ty(h);
            match t {
                Type::Scalar(s) if s.is_integral() || s == crate::ir::Scalar::Bool => {
                    self.convert(h, t.concrete(), false, value.span)
                }
                _ => {
                    let n = self.type_name(t);
                    self.error(
                        codes::E_TYPE_MISMATCH,
                        value.span,
                        format!("a switch value must be an integer scalar, not {n}"),
                    );
                    None
                }
            }
        });
        if let Some(c) = self.stack.last_mut() {
            c.switches += 1;
        }
        self.push_scope();
        let mut cases: Vec<SwitchCase> = Vec::new();
        let mut seen: Vec<i64> = Vec::new();
        for s in &body.stmts {
            match &s.kind {
                ast::StmtKind::Case(e) => {
                    let v = self.case_value(e);
                    if let Some(v) = v {
                        if seen.contains(&v) {
                            self.error(codes::E_BAD_CONTROL_FLOW, e.span, format!("duplicate case value {v}"));
                        }
                        seen.push(v);
                    }
                    // Consecutive labels share one group.
                    match cases.last_mut() {
                        Some(last) if last.body.stmts.is_empty() => last.values.extend(v),
                        _ => cases.push(SwitchCase {
                            values: v.into_iter().collect(),
                            is_default: false,
                            body: Block::default(),
                        }),
                    }
                }
                ast::StmtKind::Default => match cases.last_mut() {
                    Some(last) if last.body.stmts.is_empty() => last.is_default = true,
                    _ => cases.push(SwitchCase { values: Vec::new(), is_default: true, body: Block::default() }),
                },
                _ => {
                    let mut b = Block::default();
                    self.stmt(s, &mut b);
                    match cases.last_mut() {
                        Some(last) => last.body.stmts.extend(b.stmts),
                        None => {
                            if !b.stmts.is_empty() {
                                self.error(
                                    codes::E_BAD_CONTROL_FLOW,
                                    s.span,
                                    "statement before the first `case` label is never executed",
                                );
                            }
                        }
                    }
                }
            }
        }
        self.pop_scope();
        if let Some(c) = self.stack.last_mut() {
            c.switches -= 1;
        }
        if let Some(selector) = selector {
            out.stmts.push((Stmt::Switch { selector, cases }, span));
        }
    }

    fn case_value(&mut self, e: &'a ast::Expr) -> Option<i64> {
        let h = self.expr(e)?;
        let v = self.fold(h).and_then(super::const_eval::as_i64);
        if v.is_none() {
            self.error(codes::E_NOT_CONSTANT, e.span, "a case label must be an integer constant");
        }
        v
    }

    fn local_declaration(&mut self, d: &'a ast::Declaration, out: &mut Block) {
        let Some(base) = self.decl_base_type(&d.specifiers) else { return };
        if d.specifiers.has(ast::Qualifier::Typedef) {
            for decl in &d.declarators {
                if let Some(ty) = self.array_type(base, &decl.array) {
                    self.declare(&decl.name, Symbol::Type(ty));
                }
            }
            return;
        }
        if self.at_global_scope() {
            return;
        }
        let is_const = d.specifiers.has(ast::Qualifier::Const);
        for decl in &d.declarators {
            let Some(mut ty) = self.array_type(base, &decl.array) else { continue };
            // A `const` sampler local initialised from another sampler is an alias
            // (crt-royale writes `const sampler2D texture = ORIG_LINEARIZED.texture;`).
            if ty.is_sampler() && !(is_const && decl.init.is_some()) {
                self.error(
                    codes::E_BAD_DECLARATION,
                    decl.name.span,
                    "a sampler local must be `const` and initialised from a sampler",
                );
                continue;
            }
            if decl.semantic.is_some() {
                self.warn(codes::W_IGNORED_QUALIFIER, decl.name.span, "a semantic on a local variable is ignored");
            }
            let init = match &decl.init {
                Some(i) => {
                    let h = self.initializer(i, ty);
                    if let Some(h) = h {
                        ty = self.ty(h);
                    }
                    h
                }
                None => None,
            };
            if is_const && init.is_none() {
                self.error(codes::E_BAD_DECLARATION, decl.name.span, "a `const` local needs an initializer");
            }
            let Some(ctx) = self.stack.last_mut() else { return };
            let local = ctx.locals.append(Local { name: decl.name.name.clone(), ty, is_const, span: decl.name.span });
            if let (true, Some(i)) = (is_const, init) {
                ctx.const_inits.insert(local, i);
            }
            self.declare(&decl.name, Symbol::Var { var: Var::Local(local), ty });
            out.stmts.push((Stmt::Local { local, init }, decl.span));
        }
    }
}
