//! Early returns of functions without a result become `else` branches: at the tail of
//! such a function, `if (c) { A; return; } B` becomes `if (c) { A } else { B }`.
//!
//! A translated fragment stage returns early where its Cg original did (`FragColor =
//! ...; return;` in `main`). glslang's SPIR-V has that `OpReturn` in the entry point
//! itself; naga's SPIR-V front end makes `main` a function that the entry point calls,
//! and the `return` leaves that function to the entry point's output store. NVIDIA's
//! compiler makes larger and slower code of that shape: super-xbr's pass that doubles
//! the image into 7680x4320 took 20.40 ms with it, 18.54 ms with the same stage written
//! with an `else`, and takes 18.61 ms with this rewrite (glslang's own SPIR-V with the
//! early return, bound as librashader binds it: 18.71 ms; an H200,
//! `examples/sampler_binding_cost.rs`).
//!
//! The rewrite, in a block at a function's tail (its body; the branches of an `if` that
//! is the last statement of a tail block; a nested block that is): an `if` one of whose
//! branches ends with a valueless `return`, while the other does not end with a jump
//! (`return`, `kill`, `break`, `continue`), takes the statements after it into that
//! other branch, and the `return` is dropped (its branch now reaches the function's
//! end). The `if` is then the block's last statement, and its branches are rewritten
//! likewise. Expressions are not touched: each moved statement still follows every
//! `Emit` and store it depended on, and nothing after the `if` can use an expression
//! emitted inside a branch.
//!
//! **Invariant:** changes no value and no path: the moved statements run exactly when
//! they ran before (when the branch that returned was not taken), in the same order,
//! after the same statements; only functions without a result are rewritten; never
//! panics.

use naga::{Block, Function, Module, Statement};

/// Rewrites every function and entry point of `module` that has no result; returns how
/// many early returns became `else` branches.
pub fn fold_tail_returns(module: &mut Module) -> usize {
    super::naga_blocks::each_function(module, fold_function)
}

fn fold_function(f: &mut Function) -> usize {
    if f.result.is_some() {
        return 0;
    }
    let mut count = 0;
    f.body = fold_tail(std::mem::take(&mut f.body), &mut count);
    count
}

/// Whether `block` ends with a valueless `return`.
fn ends_with_bare_return(block: &Block) -> bool {
    matches!(block.last(), Some(Statement::Return { value: None }))
}

/// Whether `block` ends with a statement that leaves it (control never falls out).
fn ends_with_jump(block: &Block) -> bool {
    matches!(block.last(), Some(Statement::Return { .. } | Statement::Kill | Statement::Break | Statement::Continue))
}

/// `block`, which nothing follows in its function, rewritten.
fn fold_tail(block: Block, count: &mut usize) -> Block {
    let mut out = Block::with_capacity(block.len());
    let mut statements = block.span_into_iter().peekable();
    while let Some((statement, span)) = statements.next() {
        let last = statements.peek().is_none();
        match statement {
            Statement::If { condition, mut accept, mut reject } => {
                let into_reject = ends_with_bare_return(&accept) && !ends_with_jump(&reject);
                let into_accept = !into_reject && ends_with_bare_return(&reject) && !ends_with_jump(&accept);
                if !last && (into_reject || into_accept) {
                    let (returns, other) =
                        if into_reject { (&mut accept, &mut reject) } else { (&mut reject, &mut accept) };
                    returns.cull(returns.len() - 1..);
                    for (rest, rest_span) in statements.by_ref() {
                        other.push(rest, rest_span);
                    }
                    *count += 1;
                }
                if last || into_reject || into_accept {
                    // The `if` ends the block now: its branches are at the tail too.
                    accept = fold_tail(accept, count);
                    reject = fold_tail(reject, count);
                }
                out.push(Statement::If { condition, accept, reject }, span);
            }
            Statement::Block(inner) if last => out.push(Statement::Block(fold_tail(inner, count)), span),
            other => out.push(other, span),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use naga::{Expression, Handle, Literal, Span};

    /// A function without a result and the one `bool` literal its conditions use.
    fn function() -> (Function, Handle<Expression>) {
        let mut f = Function::default();
        let c = f.expressions.append(Expression::Literal(Literal::Bool(true)), Span::UNDEFINED);
        (f, c)
    }

    fn ret() -> Statement {
        Statement::Return { value: None }
    }

    /// A statement that stands for work, told apart by its level (a barrier's flags).
    fn work(n: u32) -> Statement {
        Statement::ControlBarrier(naga::Barrier::from_bits_truncate(n))
    }

    fn block(statements: Vec<Statement>) -> Block {
        Block::from_vec(statements)
    }

    fn when(c: Handle<Expression>, accept: Vec<Statement>, reject: Vec<Statement>) -> Statement {
        Statement::If { condition: c, accept: block(accept), reject: block(reject) }
    }

    /// `f` with `body` folded: its new body (as text, to compare) and the fold count.
    fn folded(mut f: Function, body: Vec<Statement>) -> (String, usize) {
        f.body = block(body);
        let n = fold_function(&mut f);
        (format!("{:?}", f.body), n)
    }

    fn text(statements: Vec<Statement>) -> String {
        format!("{:?}", block(statements))
    }

    #[test]
    fn an_early_return_becomes_an_else() {
        let (f, c) = function();
        let (body, n) = folded(f, vec![work(1), when(c, vec![work(2), ret()], vec![]), work(4), ret()]);
        assert_eq!(n, 1);
        assert_eq!(body, text(vec![work(1), when(c, vec![work(2)], vec![work(4), ret()])]));
    }

    #[test]
    fn a_return_in_the_else_branch_takes_the_rest_into_the_then_branch() {
        let (f, c) = function();
        let (body, n) = folded(f, vec![when(c, vec![work(2)], vec![ret()]), work(4)]);
        assert_eq!(n, 1);
        assert_eq!(body, text(vec![when(c, vec![work(2), work(4)], vec![])]));
    }

    #[test]
    fn successive_early_returns_nest() {
        let (f, c) = function();
        let early = |n| when(c, vec![work(n), ret()], vec![]);
        let (body, n) = folded(f, vec![early(1), early(2), work(4)]);
        assert_eq!(n, 2);
        assert_eq!(body, text(vec![when(c, vec![work(1)], vec![when(c, vec![work(2)], vec![work(4)])])]));
    }

    #[test]
    fn returns_outside_the_tail_and_functions_with_results_stay() {
        let (_, c) = function();
        let early = when(c, vec![work(1), ret()], vec![]);
        // Inside a loop: what follows the loop runs after the loop's end, not the `if`'s.
        let in_loop = vec![
            Statement::Loop { body: block(vec![early.clone(), work(2)]), continuing: Block::new(), break_if: None },
            work(4),
        ];
        // Both branches leave: what follows is dead, and is left where it is.
        let both = vec![when(c, vec![ret()], vec![Statement::Kill]), work(4)];
        // An `if` that is not at the tail: its branches are not either.
        let nested = vec![when(c, vec![early.clone(), work(2)], vec![]), work(4)];
        for body in [in_loop, both, nested] {
            let before = text(body.clone());
            let (f, _) = function();
            assert_eq!(folded(f, body), (before, 0));
        }
        let (mut f, _) = function();
        let mut types = naga::UniqueArena::new();
        let ty =
            types.insert(naga::Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::F32) }, Span::UNDEFINED);
        f.result = Some(naga::FunctionResult { ty, binding: None });
        let body = vec![early, work(4)];
        let before = text(body.clone());
        assert_eq!(folded(f, body), (before, 0));
    }
}
