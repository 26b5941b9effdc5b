//! The logos lexer: file text to preprocessing tokens.
//!
//! [`lex`] turns one file's text into [`Token`]s, keeping `Newline` tokens (the
//! preprocessor needs line structure) and recording for each token whether whitespace
//! preceded it and whether it starts a line. Comments and line splices are skipped.
//! Lexical errors become diagnostics and `Error` tokens; lexing never stops early.
//! [`classify`] maps identifiers to keywords after preprocessing.

pub mod classify;
pub mod token;

pub use token::{LexError, TokenKind};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
use logos::Logos;

/// A preprocessing token: kind, where it is spelled, and its spacing.
///
/// The text of a token is `sources.text(token.span)`. Tokens produced by a macro
/// expansion carry the expansion in `span.expansion`; tokens made by `#` or `##` are
/// spelled in the source map's scratch file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// Whitespace or a comment came between this token and the previous one.
    pub leading_space: bool,
    /// First token on its line (only meaningful before macro expansion).
    pub line_start: bool,
}

/// Lexes one file. Returns every token (including `Newline`s) and the lexical errors.
pub fn lex(text: &str, file: FileId) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut tokens = Vec::with_capacity(text.len() / 4);
    let mut diagnostics = Vec::new();
    let mut lexer = TokenKind::lexer(text);
    let mut prev_end = 0usize;
    let mut line_start = true;
    while let Some(result) = lexer.next() {
        let range = lexer.span();
        let span = Span::new(file, range.start as u32, range.end as u32);
        let kind = match result {
            Ok(kind) => kind,
            Err(e) => {
                diagnostics.push(lex_error(e, span, lexer.slice()));
                match e {
                    LexError::UnterminatedComment => {
                        prev_end = range.end;
                        continue;
                    }
                    LexError::UnterminatedString => TokenKind::StringLit,
                    LexError::UnterminatedChar => TokenKind::CharLit,
                    LexError::UnknownCharacter => TokenKind::Error,
                }
            }
        };
        let leading_space = range.start != prev_end;
        prev_end = range.end;
        tokens.push(Token { kind, span, leading_space, line_start });
        line_start = kind == TokenKind::Newline;
    }
    (tokens, diagnostics)
}

#[cold]
fn lex_error(e: LexError, span: Span, slice: &str) -> Diagnostic {
    match e {
        LexError::UnknownCharacter => {
            let c = slice.chars().next().unwrap_or('?');
            Diagnostic::error(codes::E_INVALID_CHARACTER, format!("invalid character {c:?} in Cg source"))
                .with_primary(span, "not part of any Cg token")
        }
        LexError::UnterminatedComment => {
            let start = Span { end: span.start + 2, ..span };
            Diagnostic::error(codes::E_UNTERMINATED_COMMENT, "unterminated block comment")
                .with_primary(start, "this comment is never closed with `*/`")
        }
        LexError::UnterminatedString => Diagnostic::error(codes::E_UNTERMINATED_LITERAL, "unterminated string literal")
            .with_primary(span, "missing closing `\"` before the end of the line"),
        LexError::UnterminatedChar => {
            Diagnostic::error(codes::E_UNTERMINATED_LITERAL, "unterminated character literal")
                .with_primary(span, "missing closing `'` before the end of the line")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(text: &str) -> Vec<(TokenKind, String)> {
        let (toks, diags) = lex(text, FileId(0));
        assert!(diags.is_empty(), "{diags:?}");
        toks.iter().map(|t| (t.kind, text[t.span.range()].to_owned())).collect()
    }

    fn kinds_only(text: &str) -> Vec<TokenKind> {
        kinds(text).into_iter().map(|(k, _)| k).collect()
    }

    #[test]
    fn numeric_literals_with_cg_suffixes() {
        for lit in [
            "0", "42", "017", "0x1F", "0XffU", "3u", "3us", "3ut", "3ui", "3ul", "2s", "2t", "2i", "2l", "5h", "5x",
            "5d",
        ] {
            assert_eq!(kinds(lit), vec![(IntLit, lit.to_owned())], "{lit}");
        }
        for lit in ["1.", ".5", "1e-5", "1E+5", "2.5h", "1.0f", "1.x", "3.25d", "6.02e23f", "1.5F", ".5e2h"] {
            assert_eq!(kinds(lit), vec![(FloatLit, lit.to_owned())], "{lit}");
        }
    }

    #[test]
    fn swizzle_on_literals_from_the_spec() {
        assert_eq!(kinds_only("1..xxx"), [FloatLit, Dot, Ident]);
        assert_eq!(kinds_only("1.0.xxx"), [FloatLit, Dot, Ident]);
        assert_eq!(kinds_only("1.0f.xxx"), [FloatLit, Dot, Ident]);
        assert_eq!(kinds_only("(1).xxx"), [LParen, IntLit, RParen, Dot, Ident]);
    }

    #[test]
    fn punctuators_take_the_longest_match() {
        assert_eq!(kinds_only("<<= >>= ## # -> ..."), [ShlEq, ShrEq, HashHash, Hash, Arrow, Ellipsis]);
        assert_eq!(kinds_only("a+++b"), [Ident, PlusPlus, Plus, Ident]);
    }

    #[test]
    fn comments_and_splices_are_skipped_but_newlines_kept() {
        assert_eq!(kinds_only("a /* x\n y */ b // c\nd\\\ne"), [Ident, Ident, Newline, Ident, Ident]);
    }

    #[test]
    fn spacing_flags() {
        let (toks, _) = lex("#define F(x) x\n  # y", FileId(0));
        let flags: Vec<_> = toks.iter().map(|t| (t.leading_space, t.line_start)).collect();
        assert_eq!(
            flags,
            [
                (false, true),
                (false, false),
                (true, false),
                (false, false),
                (false, false),
                (false, false),
                (true, false),
                (false, false),
                (true, true),
                (true, false)
            ]
        );
    }

    #[test]
    fn errors_are_reported_and_lexing_continues() {
        let (toks, diags) = lex("a @ b \"open\nc /* never", FileId(0));
        let codes: Vec<_> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, [codes::E_INVALID_CHARACTER, codes::E_UNTERMINATED_LITERAL, codes::E_UNTERMINATED_COMMENT]);
        let ks: Vec<_> = toks.iter().map(|t| t.kind).collect();
        assert_eq!(ks, [Ident, Error, Ident, StringLit, Newline, Ident]);
    }
}
