//! Statements, one line or block each, at an indentation level. Never prints an
//! expression itself: [`super::expressions`] does.

use super::*;
use crate::ir::{Block, Expr, ExprKind, Exprs, Handle, Stmt, Var};
use crate::port::stdlib::PRIMARY;

impl StageWriter<'_> {
    pub(super) fn block(&mut self, exprs: &Exprs, b: &crate::ir::Block, level: usize) {
        for (s, span) in &b.stmts {
            self.span = Some(*span);
            self.stmt(exprs, s, level);
        }
    }

    pub(super) fn stmt(&mut self, exprs: &Exprs, s: &Stmt, level: usize) {
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
                        let plain = self.is_plain(exprs, *i);
                        self.sampler_alias.insert(Var::Local(*local), (text, plain));
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
            Stmt::If { cond, accept, reject } => self.if_chain(exprs, "if", *cond, accept, reject.as_ref(), level),
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
                // A dialect that reads `float(i) < n` as a declaration gets every
                // condition parenthesised.
                let c = match cond.map(|c| self.expr(exprs, c).0) {
                    Some(c) if self.dialect.parenthesises_for_conditions() => format!("({c})"),
                    Some(c) => c,
                    None => String::new(),
                };
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

    /// `if`, or `else if` (`keyword`) in a chain, which stays flat.
    fn if_chain(
        &mut self,
        exprs: &Exprs,
        keyword: &str,
        cond: Handle<Expr>,
        accept: &Block,
        reject: Option<&Block>,
        level: usize,
    ) {
        let (c, _) = self.expr(exprs, cond);
        self.line(level, &format!("{keyword} ({c})"));
        self.sub_block(exprs, accept, level);
        let Some(r) = reject else { return };
        if let [(Stmt::If { cond, accept, reject }, span)] = r.stmts.as_slice() {
            self.span = Some(*span);
            self.if_chain(exprs, "else if", *cond, accept, reject.as_ref(), level);
        } else {
            self.line(level, "else");
            self.sub_block(exprs, r, level);
        }
    }

    pub(super) fn sub_block(&mut self, exprs: &Exprs, b: &crate::ir::Block, level: usize) {
        self.line(level, "{");
        self.block(exprs, b, level + 1);
        self.line(level, "}");
    }
}
