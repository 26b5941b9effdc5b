//! The token kinds of Cg, as recognised by the logos lexer.
//!
//! These are preprocessing tokens in the C sense: identifiers are not yet split into
//! keywords, type names and plain names (that happens after preprocessing, in
//! [`crate::lexer::classify`], because a macro may be named `float` and a struct
//! name becomes a type name only once declared). Numbers keep their Cg suffixes.
//! This module never allocates and never fails: unknown bytes become [`TokenKind::Error`].

use logos::{Lexer, Logos};

/// Why a lexeme is malformed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LexError {
    #[default]
    UnknownCharacter,
    UnterminatedComment,
    UnterminatedString,
    UnterminatedChar,
}

fn block_comment(lex: &mut Lexer<'_, TokenKind>) -> logos::FilterResult<(), LexError> {
    match lex.remainder().find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            logos::FilterResult::Skip
        }
        None => {
            lex.bump(lex.remainder().len());
            logos::FilterResult::Error(LexError::UnterminatedComment)
        }
    }
}

fn unterminated_string(_lex: &mut Lexer<'_, TokenKind>) -> Result<(), LexError> {
    Err(LexError::UnterminatedString)
}

fn unterminated_char(_lex: &mut Lexer<'_, TokenKind>) -> Result<(), LexError> {
    Err(LexError::UnterminatedChar)
}

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\f\x0B]+")]
#[logos(skip r"\\\r?\n")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
pub enum TokenKind {
    #[token("/*", block_comment)]
    BlockComment,

    #[token("\n")]
    Newline,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,

    /// An integer literal: decimal, octal (`017`) or hex (`0x1F`), any Cg suffix.
    #[regex(r"[0-9]+([uU][sStTiIlL]?|[dDfFhHiIlLsStTxX])?")]
    #[regex(r"0[xX][0-9a-fA-F]+([uU][sStTiIlL]?|[iIlLsStT])?")]
    IntLit,

    /// A floating literal: `1.`, `.5`, `1e-5`, `2.5h`, `1.x` (fixed), any Cg suffix.
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?([uU][sStTiIlL]?|[dDfFhHiIlLsStTxX])?")]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?([uU][sStTiIlL]?|[dDfFhHiIlLsStTxX])?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+([uU][sStTiIlL]?|[dDfFhHiIlLsStTxX])?")]
    FloatLit,

    #[regex(r#""([^"\\\n]|\\.)*""#)]
    StringLit,
    #[regex(r#""([^"\\\n]|\\.)*"#, unterminated_string, priority = 1)]
    UnterminatedString,

    #[regex(r#"'([^'\\\n]|\\.)*'"#)]
    CharLit,
    #[regex(r#"'([^'\\\n]|\\.)*"#, unterminated_char, priority = 1)]
    UnterminatedChar,

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token(":")]
    Colon,
    #[token("::")]
    ColonColon,
    #[token("?")]
    Question,
    #[token("~")]
    Tilde,
    #[token("!")]
    Bang,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("=")]
    Eq,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("#")]
    Hash,
    #[token("##")]
    HashHash,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("%=")]
    PercentEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("^=")]
    CaretEq,
    #[token("->")]
    Arrow,
    #[token("...")]
    Ellipsis,

    /// A byte sequence that is no Cg token (reported, then skipped by the parser).
    Error,
}

impl TokenKind {
    /// The fixed spelling of a punctuator, for messages and for re-spelling tokens.
    pub fn punct_str(self) -> Option<&'static str> {
        use TokenKind::*;
        Some(match self {
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Semi => ";",
            Comma => ",",
            Dot => ".",
            Colon => ":",
            ColonColon => "::",
            Question => "?",
            Tilde => "~",
            Bang => "!",
            Plus => "+",
            Minus => "-",
            Star => "*",
            Slash => "/",
            Percent => "%",
            Lt => "<",
            Gt => ">",
            Eq => "=",
            Amp => "&",
            Pipe => "|",
            Caret => "^",
            Hash => "#",
            HashHash => "##",
            PlusPlus => "++",
            MinusMinus => "--",
            Shl => "<<",
            Shr => ">>",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            AndAnd => "&&",
            OrOr => "||",
            PlusEq => "+=",
            MinusEq => "-=",
            StarEq => "*=",
            SlashEq => "/=",
            PercentEq => "%=",
            ShlEq => "<<=",
            ShrEq => ">>=",
            AmpEq => "&=",
            PipeEq => "|=",
            CaretEq => "^=",
            Arrow => "->",
            Ellipsis => "...",
            _ => return None,
        })
    }

    /// A short description for "expected X, found Y" messages.
    pub fn describe(self) -> &'static str {
        use TokenKind::*;
        match self {
            Ident => "identifier",
            IntLit => "integer literal",
            FloatLit => "floating-point literal",
            StringLit | UnterminatedString => "string literal",
            CharLit | UnterminatedChar => "character literal",
            Newline => "end of line",
            BlockComment => "comment",
            Error => "invalid character",
            other => other.punct_str().unwrap_or("token"),
        }
    }
}
