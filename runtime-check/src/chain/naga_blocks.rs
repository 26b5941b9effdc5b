//! One way to rewrite a naga function body statement by statement: the chain's module
//! repairs ([`super::clip_space`], [`super::pre_emitted`], [`super::constant_locals`])
//! each say what replaces one statement, and [`rebuild`] walks the nested blocks; one
//! way to visit every function of a module ([`each_function`]); and one way to read
//! every statement of a body, nested ones included ([`walk`], [`walk_statement`]), for
//! the proofs ([`super::loop_bounds`], [`super::coverage`]).
//!
//! **Invariant:** visits every statement of every nested block (`Block`, `If`, `Switch`,
//! `Loop`) once, inner blocks before the statement that holds them, and keeps spans;
//! never panics.

use naga::{Block, Function, Module, Span, Statement};

/// Calls `visit` on every statement of `block`, nested ones included, each before the
/// statements it holds.
pub fn walk(block: &Block, visit: &mut impl FnMut(&Statement)) {
    for s in block.iter() {
        walk_statement(s, visit);
    }
}

/// Calls `visit` on `s` and on every statement nested in it.
pub fn walk_statement(s: &Statement, visit: &mut impl FnMut(&Statement)) {
    visit(s);
    match s {
        Statement::Block(b) => walk(b, visit),
        Statement::If { accept, reject, .. } => {
            walk(accept, visit);
            walk(reject, visit);
        }
        Statement::Switch { cases, .. } => cases.iter().for_each(|c| walk(&c.body, visit)),
        Statement::Loop { body, continuing, .. } => {
            walk(body, visit);
            walk(continuing, visit);
        }
        _ => {}
    }
}

/// Applies `f` to every function and every entry point's function of `module`; returns
/// the sum of what it returned (a count of changes).
pub fn each_function(module: &mut Module, mut f: impl FnMut(&mut Function) -> usize) -> usize {
    let mut count = 0;
    for (_, function) in module.functions.iter_mut() {
        count += f(function);
    }
    for ep in module.entry_points.iter_mut() {
        count += f(&mut ep.function);
    }
    count
}

/// `block` rebuilt: the nested blocks of each statement first, then `each` pushes onto
/// the output what replaces the statement (nothing, the statement, or several).
pub fn rebuild(block: Block, each: &mut dyn FnMut(Statement, Span, &mut Block)) -> Block {
    let mut out = Block::with_capacity(block.len());
    for (statement, span) in block.span_into_iter() {
        let statement = match statement {
            Statement::Block(b) => Statement::Block(rebuild(b, each)),
            Statement::If { condition, accept, reject } => {
                Statement::If { condition, accept: rebuild(accept, each), reject: rebuild(reject, each) }
            }
            Statement::Switch { selector, cases } => Statement::Switch {
                selector,
                cases: cases.into_iter().map(|c| naga::SwitchCase { body: rebuild(c.body, each), ..c }).collect(),
            },
            Statement::Loop { body, continuing, break_if } => {
                Statement::Loop { body: rebuild(body, each), continuing: rebuild(continuing, each), break_if }
            }
            other => other,
        };
        each(statement, span, &mut out);
    }
    out
}
