//! One way to rewrite a naga function body statement by statement: the chain's module
//! repairs ([`super::clip_space`], [`super::pre_emitted`], [`super::constant_locals`])
//! each say what replaces one statement, and [`rebuild`] walks the nested blocks.
//!
//! **Invariant:** visits every statement of every nested block (`Block`, `If`, `Switch`,
//! `Loop`) once, inner blocks before the statement that holds them, and keeps spans;
//! never panics.

use naga::{Block, Span, Statement};

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
