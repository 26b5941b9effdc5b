//! The Cg parser: preprocessed tokens to an [`ast::TranslationUnit`] and diagnostics.
//!
//! Three steps:
//! 1. [`stream::terminals`] classifies tokens into grammar terminals (keywords, built-in
//!    and declared type names: the lexer hack), collapses CgFX technique blocks, reports
//!    reserved words and cuts off brackets nested past [`stream::MAX_NESTING`];
//! 2. [`stream::items`] cuts the terminals into top-level chunks (each one or more
//!    whole items), matching brackets;
//! 3. the LALRPOP grammar (`cg.lalrpop`) parses each chunk. Statements and struct members
//!    recover from errors inside the grammar (`!` rules, `Error` nodes); an error
//!    anywhere else ends the chunk, which becomes one `Item::Error`, and parsing goes on
//!    with the next chunk. So one broken declaration never hides the next error.
//!
//! Grammar locations are indices into the preprocessed token slice; spans are made from
//! them by `actions::Ctx::span`, in the user's own text (macro call sites).
//!
//! **Invariants:** parsing never panics and never stops early; the AST it returns is at
//! most a bounded depth (brackets [`stream::MAX_NESTING`], expressions
//! [`actions::MAX_EXPR_DEPTH`], statements [`actions::MAX_STMT_DEPTH`]), so recursive
//! walkers, `Drop`, `Clone` and `Debug` of the AST cannot overflow a normal stack.
//! This module knows nothing of what names mean (that is sema's job).

pub mod actions;
mod literal;
pub mod stream;
pub mod token;

#[allow(
    clippy::all,
    clippy::pedantic,
    clippy::nursery,
    clippy::unwrap_used,
    unused_imports,
    unused_parens,
    unused_mut,
    dead_code,
    unreachable_patterns,
    non_snake_case,
    non_camel_case_types,
    missing_debug_implementations,
    unused_qualifications,
    trivial_casts
)]
mod cg {
    include!(concat!(env!("OUT_DIR"), "/parser/cg.rs"));
}

use crate::ast::{Item, TranslationUnit};
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::source::SourceMap;
use actions::{Ctx, State};

/// Parses preprocessed tokens into an AST. Never panics; recovers from errors.
pub fn parse(sources: &SourceMap, tokens: &[Token]) -> (TranslationUnit, Vec<Diagnostic>) {
    let (terms, pre_diags) = stream::terminals(sources, tokens);
    let chunks = stream::items(&terms);
    let ctx = Ctx { sources, tokens, recoveries: std::cell::Cell::new(0) };
    let mut st = State { diags: pre_diags, ..State::default() };
    let parser = cg::UnitParser::new();
    for chunk in chunks {
        let ts = &terms[chunk.range];
        let (Some(first), Some(last)) = (ts.first(), ts.last()) else {
            continue;
        };
        let (start, end) = (first.start as usize, last.end as usize);
        if chunk.skipped {
            st.push_item(Item::Error(ctx.span(start, end)), end);
            continue;
        }
        st.item_end = start;
        ctx.recoveries.set(0);
        let input = ts
            .iter()
            .take_while(|_| ctx.recoveries.get() < actions::MAX_RECOVERIES)
            .map(|t| (t.start as usize, t.tok, t.end as usize));
        let result = parser.parse(&ctx, &mut st, input);
        if ctx.recoveries.get() >= actions::MAX_RECOVERIES {
            st.error(
                end,
                Diagnostic::error(
                    crate::codes::E_UNEXPECTED_TOKEN,
                    format!(
                        "more than {} syntax errors in this item; the rest of it is skipped",
                        actions::MAX_RECOVERIES
                    ),
                )
                .with_primary(ctx.span(start, end), "this item"),
            );
            if st.item_end < end {
                st.push_item(Item::Error(ctx.span(st.item_end.max(start), end)), end);
            }
            continue;
        }
        if let Err(e) = result {
            let at_eof = matches!(e, lalrpop_util::ParseError::UnrecognizedEof { .. });
            let (at, mut d) = actions::error_diagnostic(&ctx, e);
            if at_eof {
                if let Some(open) = innermost_unclosed(ts) {
                    let what = token::Tok::spelling(open.tok).unwrap_or("bracket");
                    d = d.with_secondary(
                        ctx.span(open.start as usize, open.end as usize),
                        format!("this `{what}` is never closed"),
                    );
                }
            }
            st.error(at, d);
            let from = st.item_end.max(start);
            if from < end {
                st.push_item(Item::Error(ctx.span(from, end)), end);
            }
        }
    }
    let mut diags = st.diags;
    diags.sort_by_key(|(at, _)| *at);
    diags.dedup_by(|b, a| a.0 == b.0 && a.1.code == b.1.code);
    (TranslationUnit { items: st.items }, diags.into_iter().map(|(_, d)| d).collect())
}

/// The innermost bracket of `terms` that is still open at their end.
fn innermost_unclosed(terms: &[stream::Terminal]) -> Option<stream::Terminal> {
    let mut open = Vec::new();
    for t in terms {
        match t.tok {
            token::Tok::LParen | token::Tok::LBracket | token::Tok::LBrace => open.push(*t),
            token::Tok::RParen | token::Tok::RBracket | token::Tok::RBrace => {
                open.pop();
            }
            _ => {}
        }
    }
    open.pop()
}
