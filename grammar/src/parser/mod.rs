//! PLACEHOLDER: the LALRPOP parser, being implemented.
use crate::ast::TranslationUnit;
use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::source::SourceMap;

/// Parses preprocessed tokens into an AST. Never panics; recovers from errors.
pub fn parse(sources: &SourceMap, tokens: &[Token]) -> (TranslationUnit, Vec<Diagnostic>) {
    let _ = (sources, tokens);
    (TranslationUnit::default(), Vec::new())
}
