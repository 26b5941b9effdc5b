//! From preprocessed tokens to grammar terminals, and from terminals to items.
//!
//! [`terminals`] walks the preprocessed tokens once, before parsing, and decides what
//! each is to the grammar (the C "lexer hack"):
//! - keywords and built-in types through [`crate::lexer::classify`];
//! - names declared by `struct S`, `interface I` and `typedef ... T;` become
//!   [`Tok::UserType`] from that point to the end of the enclosing `{}` block; a
//!   declarator that reuses a type's name right after a type (`float3 input = ...;`,
//!   `(in coords coords)`) hides the type until the end of its scope (for parameters
//!   and `for` variables: of the body that follows);
//! - any word after `.`, and the tag after `struct`/`interface`, is a plain
//!   [`Tok::Ident`] (so members may share a type's name: `v.float4`, `s.input`);
//! - `unsigned int` is one [`Tok::TypeName`]; `texture`, `vector`, `matrix` are types
//!   only where the next tokens say so;
//! - CgFX: `technique` starting a file-scope block whose braces close is
//!   [`Tok::Technique`] (an unterminated one is reported, E0202, and skipped to the end
//!   of the file), `pass` directly inside it [`Tok::Pass`], `compile` before a profile
//!   and a function name [`Tok::Compile`]; elsewhere all three are names;
//! - `AttribArray` before `<` is [`Tok::AttribArray`] (geometry and tessellation
//!   parameters); the primitive and patch modifiers (`TRIANGLE`, `PATCH_4`) stay names:
//!   the grammar reads them where profile names go, before a function's return type;
//! - reserved words are reported (E0205) and read as names;
//! - a name where a declaration's type belongs (`vec2 p = ...;`: two names in a row
//!   before `;`, `=`, `,`, `[`, `:`, `)`) is reported once as an unknown type (E0208)
//!   and then read as a type, so the declaration still parses;
//! - brackets nested deeper than [`MAX_NESTING`] are reported once (E0204) and the region
//!   up to the bracket that closes the outermost one becomes one [`Tok::Skipped`].
//!
//! [`items`] then cuts the terminals into top-level chunks (at `;` and at the `}` that
//! ends a function body, matched by depth), so the driver can parse them one at a time
//! and a broken item never swallows the next.
//!
//! This module never recurses and never fails; every terminal's location is the range
//! of preprocessed-token indices it covers.

use super::token::Tok;
use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::classify::{classify_word, combines_with_unsigned, is_builtin_type, Contextual, Word};
use crate::lexer::{Token, TokenKind};
use crate::source::SourceMap;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

/// Brackets (`(`, `[`, `{` together) nested deeper than this are not parsed.
pub const MAX_NESTING: usize = 256;

/// One grammar terminal: its kind and the preprocessed tokens `start..end` it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terminal {
    pub tok: Tok,
    pub start: u32,
    pub end: u32,
}

/// What follows a `technique` word at the start of an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TechniqueEnd {
    /// A block whose braces close: parsed by the grammar.
    Closed,
    /// A block whose `{` is never closed (reported).
    Unterminated,
}

/// A diagnostic together with the token index it belongs to (for ordering).
pub type IndexedDiagnostic = (usize, Diagnostic);

/// Classifies every preprocessed token. See the module documentation.
pub fn terminals(sources: &SourceMap, tokens: &[Token]) -> (Vec<Terminal>, Vec<IndexedDiagnostic>) {
    let mut s = Classifier {
        sources,
        tokens,
        out: Vec::with_capacity(tokens.len()),
        diags: Vec::new(),
        bindings: HashMap::default(),
        scoped: Vec::new(),
        nest: 0,
        braces: 0,
        typedef_at: None,
        technique_at: None,
    };
    s.run();
    (s.out, s.diags)
}

struct Classifier<'a> {
    sources: &'a SourceMap,
    tokens: &'a [Token],
    out: Vec<Terminal>,
    diags: Vec<IndexedDiagnostic>,
    /// What each name declared as a type (or redeclared over one) means now: the
    /// innermost binding decides (`true`: a type; `false`: a variable hiding a type).
    bindings: HashMap<&'a str, Vec<(u32, bool)>, BuildHasherDefault<NameHasher>>,
    /// Every binding with the brace depth whose end removes it, sorted by depth.
    scoped: Vec<(u32, &'a str)>,
    /// Open `(`, `[` and `{`.
    nest: usize,
    /// Open `{` only (the scope depth of type names).
    braces: u32,
    /// Inside `typedef ... ;`, at this nesting level.
    typedef_at: Option<usize>,
    /// Inside a technique block that opened at this brace depth (`pass` is a keyword
    /// directly inside it).
    technique_at: Option<u32>,
}

impl<'a> Classifier<'a> {
    fn text(&self, i: usize) -> &'a str {
        self.sources.text(self.tokens[i].span)
    }

    fn kind(&self, i: usize) -> Option<TokenKind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    /// Index of the next token after `i` that is not a lexer error.
    fn next_index(&self, i: usize) -> usize {
        let mut j = i + 1;
        while j < self.tokens.len() && matches!(self.tokens[j].kind, TokenKind::Error | TokenKind::Newline) {
            j += 1;
        }
        j
    }

    fn prev_tok(&self) -> Option<Tok> {
        self.out.last().map(|t| t.tok)
    }

    fn push(&mut self, tok: Tok, start: usize, end: usize) {
        self.out.push(Terminal { tok, start: start as u32, end: end as u32 });
    }

    fn bind(&mut self, name: &'a str, depth: u32, is_type: bool) {
        self.bindings.entry(name).or_default().push((depth, is_type));
        // Kept sorted by depth so that ending a scope only looks at the tail.
        let pos = self.scoped.partition_point(|&(d, _)| d <= depth);
        self.scoped.insert(pos, (depth, name));
    }

    fn declare_type(&mut self, name: &'a str) {
        self.bind(name, self.braces, true);
    }

    /// Removes the bindings made for scopes deeper than `depth`.
    fn end_scopes_deeper_than(&mut self, depth: u32) {
        while let Some(&(d, name)) = self.scoped.last() {
            if d <= depth {
                break;
            }
            self.scoped.pop();
            if let Some(stack) = self.bindings.get_mut(name) {
                if let Some(pos) = stack.iter().rposition(|&(bd, _)| bd == d) {
                    stack.remove(pos);
                }
                if stack.is_empty() {
                    self.bindings.remove(name);
                }
            }
        }
    }

    fn close_brace(&mut self) {
        self.braces = self.braces.saturating_sub(1);
        if self.technique_at == Some(self.braces) {
            self.technique_at = None;
        }
        self.end_scopes_deeper_than(self.braces);
    }

    fn is_user_type(&self, text: &str) -> bool {
        self.bindings.get(text).and_then(|b| b.last()).is_some_and(|&(_, is_type)| is_type)
    }

    /// Whether the word at `j` would be a type name (built-in or declared).
    fn is_type_word(&self, j: usize) -> bool {
        if self.kind(j) != Some(TokenKind::Ident) {
            return false;
        }
        let t = self.text(j);
        is_builtin_type(t) || matches!(t, "unsigned" | "texture") || self.is_user_type(t)
    }

    /// Whether the word at `j` could be a declared name (not a keyword or type).
    fn is_name_word(&self, j: usize) -> bool {
        if self.kind(j) != Some(TokenKind::Ident) {
            return false;
        }
        matches!(classify_word(self.text(j)), Word::Plain | Word::Reserved | Word::Contextual(_))
    }

    fn reserved(&mut self, i: usize) {
        let word = self.text(i);
        let d = Diagnostic::error(codes::E_RESERVED_WORD, format!("`{word}` is a reserved word in Cg"))
            .with_primary(self.tokens[i].span, "reserved word used as a name")
            .with_note("it is read as an ordinary name here; rename it");
        self.diags.push((i, d));
    }

    fn run(&mut self) {
        let mut i = 0;
        while i < self.tokens.len() {
            i = self.step(i);
        }
    }

    /// Classifies the token at `i`; returns the index of the next one to look at.
    fn step(&mut self, i: usize) -> usize {
        let kind = self.tokens[i].kind;
        let tok = match kind {
            TokenKind::Ident => return self.word(i),
            // Already reported by the lexer; the parser never sees them.
            TokenKind::Error | TokenKind::Newline | TokenKind::BlockComment => return i + 1,
            TokenKind::IntLit => Tok::IntLit,
            TokenKind::FloatLit => Tok::FloatLit,
            TokenKind::StringLit | TokenKind::UnterminatedString => Tok::StringLit,
            TokenKind::CharLit | TokenKind::UnterminatedChar => Tok::CharLit,
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => {
                self.nest += 1;
                if self.nest > MAX_NESTING {
                    return self.skip_deep(i);
                }
                match kind {
                    TokenKind::LParen => Tok::LParen,
                    TokenKind::LBracket => Tok::LBracket,
                    _ => {
                        self.braces += 1;
                        Tok::LBrace
                    }
                }
            }
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                self.nest = self.nest.saturating_sub(1);
                if self.typedef_at.is_some_and(|d| d > self.nest) {
                    self.typedef_at = None;
                }
                match kind {
                    TokenKind::RParen => Tok::RParen,
                    TokenKind::RBracket => Tok::RBracket,
                    _ => {
                        self.close_brace();
                        Tok::RBrace
                    }
                }
            }
            TokenKind::Semi => {
                if self.typedef_at == Some(self.nest) {
                    self.typedef_at = None;
                }
                if self.nest <= self.braces as usize {
                    // Names a parameter list or `for (...)` hid end with their statement.
                    self.end_scopes_deeper_than(self.braces);
                }
                Tok::Semi
            }
            other => punct(other),
        };
        self.push(tok, i, i + 1);
        i + 1
    }

    /// An identifier-like token at `i`.
    fn word(&mut self, i: usize) -> usize {
        let text = self.text(i);
        let prev = self.prev_tok();
        // Members and struct/interface tags are always plain names.
        if prev == Some(Tok::Dot) {
            self.push(Tok::Ident, i, i + 1);
            return i + 1;
        }
        if matches!(prev, Some(Tok::Struct | Tok::Interface)) && self.is_name_word(i) {
            if classify_word(text) == Word::Reserved {
                self.reserved(i);
            }
            let next = self.kind(self.next_index(i));
            if prev == Some(Tok::Struct) && !matches!(next, Some(TokenKind::LBrace | TokenKind::Colon)) {
                // `struct S x;` or `struct S;`: a reference (or forward declaration),
                // one type-name terminal covering both words.
                if let Some(t) = self.out.pop() {
                    if !self.is_user_type(text) {
                        self.declare_type(text);
                    }
                    self.push(Tok::UserType, t.start as usize, i + 1);
                    return i + 1;
                }
            }
            self.push(Tok::Ident, i, i + 1);
            self.declare_type(text);
            return i + 1;
        }
        match classify_word(text) {
            Word::Token(tok) => {
                if tok == Tok::Typedef {
                    self.typedef_at = Some(self.nest);
                }
                self.push(tok, i, i + 1);
                i + 1
            }
            Word::Contextual(c) => self.contextual(i, c),
            Word::Reserved => {
                self.reserved(i);
                self.name(i);
                i + 1
            }
            Word::Plain => {
                self.name(i);
                i + 1
            }
        }
    }

    /// A plain or declared name at `i`, with typedef tracking.
    fn name(&mut self, i: usize) {
        let text = self.text(i);
        let prev = self.prev_tok();
        if self.typedef_at == Some(self.nest)
            && matches!(prev, Some(Tok::TypeName | Tok::UserType | Tok::Comma | Tok::RBrace | Tok::Gt))
        {
            self.push(Tok::Ident, i, i + 1);
            self.declare_type(text);
            return;
        }
        if !self.is_user_type(text) {
            if self.unknown_type(i, prev) {
                self.push(Tok::UserType, i, i + 1);
            } else {
                self.push(Tok::Ident, i, i + 1);
            }
            return;
        }
        // `input input;`, `float3 input = ...`, `(in coords coords, ...)`: a declarator
        // whose name is a type's. The name is a variable from here to the end of its
        // scope (for a parameter or `for` variable: of the body that follows).
        let next = self.kind(self.next_index(i));
        let declares = matches!(prev, Some(Tok::TypeName | Tok::UserType))
            && matches!(
                next,
                Some(
                    TokenKind::Semi
                        | TokenKind::Comma
                        | TokenKind::Eq
                        | TokenKind::LBracket
                        | TokenKind::Colon
                        | TokenKind::RParen
                )
            );
        if declares {
            let depth = if self.nest > self.braces as usize { self.braces + 1 } else { self.braces };
            self.bind(text, depth, false);
            self.push(Tok::Ident, i, i + 1);
        } else {
            self.push(Tok::UserType, i, i + 1);
        }
    }

    /// `vec2 p = ...;` at the start of a declaration: two names in a row where a type and
    /// a declarator belong. Reports the unknown type once (E0208), then treats the name
    /// as a type for the rest of the file so the declaration still parses.
    fn unknown_type(&mut self, i: usize, prev: Option<Tok>) -> bool {
        let starts_declaration = match prev {
            None | Some(Tok::Semi | Tok::LBrace | Tok::RBrace) => true,
            Some(Tok::LParen | Tok::Comma) => self.nest > self.braces as usize,
            Some(t) => is_qualifier(t),
        };
        if !starts_declaration {
            return false;
        }
        let j = self.next_index(i);
        if !self.is_name_word(j) || self.is_user_type(self.text(j)) {
            return false;
        }
        let after = self.kind(self.next_index(j));
        let follows_declarator = matches!(
            after,
            Some(
                TokenKind::Semi
                    | TokenKind::Eq
                    | TokenKind::Comma
                    | TokenKind::LBracket
                    | TokenKind::Colon
                    | TokenKind::RParen
            )
        ) || (after == Some(TokenKind::LParen) && self.nest == 0);
        if !follows_declarator {
            return false;
        }
        let text = self.text(i);
        let d = Diagnostic::error(codes::E_UNKNOWN_TYPE_NAME, format!("unknown type name `{text}`"))
            .with_primary(self.tokens[i].span, "not a built-in type, and not declared before this point")
            .with_note("types are declared with `struct`, `interface` or `typedef` before their first use");
        self.diags.push((i, d));
        self.bind(text, 0, true);
        true
    }

    fn contextual(&mut self, i: usize, c: Contextual) -> usize {
        let j = self.next_index(i);
        match c {
            Contextual::Unsigned => {
                if self.kind(j) == Some(TokenKind::Ident) && combines_with_unsigned(self.text(j)) {
                    self.push(Tok::TypeName, i, j + 1);
                    return j + 1;
                }
                self.push(Tok::TypeName, i, i + 1);
            }
            Contextual::Precise => {
                let tok = if self.kind(j) == Some(TokenKind::Ident) { Tok::Precise } else { Tok::Ident };
                self.push(tok, i, i + 1);
            }
            Contextual::Texture => {
                let tok = if self.is_name_word(j) { Tok::TypeName } else { Tok::Ident };
                self.push(tok, i, i + 1);
            }
            Contextual::Vector | Contextual::Matrix => {
                let tok = if self.kind(j) == Some(TokenKind::Lt) && self.is_type_word(self.next_index(j)) {
                    if c == Contextual::Vector {
                        Tok::Vector
                    } else {
                        Tok::Matrix
                    }
                } else if self.is_name_word(j) {
                    Tok::TypeName
                } else {
                    Tok::Ident
                };
                self.push(tok, i, i + 1);
            }
            Contextual::Technique => {
                let at_item_start =
                    self.nest == 0 && matches!(self.prev_tok(), None | Some(Tok::Semi | Tok::RBrace | Tok::LBrace));
                if at_item_start {
                    match self.technique_end(i) {
                        Some(TechniqueEnd::Closed) => {
                            self.push(Tok::Technique, i, i + 1);
                            self.technique_at = Some(self.braces);
                            return i + 1;
                        }
                        Some(TechniqueEnd::Unterminated) => {
                            // Reported; the rest of the file is one region the parser skips.
                            self.push(Tok::Skipped, i, self.tokens.len());
                            return self.tokens.len();
                        }
                        None => {}
                    }
                }
                self.name(i);
            }
            Contextual::Pass => {
                let in_technique =
                    self.technique_at.is_some_and(|d| self.braces == d + 1 && self.nest == d as usize + 1);
                let opens = matches!(self.kind(j), Some(TokenKind::LBrace | TokenKind::Lt))
                    || (self.is_name_word(j)
                        && matches!(self.kind(self.next_index(j)), Some(TokenKind::LBrace | TokenKind::Lt)));
                if in_technique && opens && matches!(self.prev_tok(), Some(Tok::LBrace | Tok::RBrace | Tok::Semi)) {
                    self.push(Tok::Pass, i, i + 1);
                } else {
                    self.name(i);
                }
            }
            Contextual::Compile => {
                let k = self.next_index(j);
                if self.kind(j) == Some(TokenKind::Ident)
                    && self.kind(k) == Some(TokenKind::Ident)
                    && self.kind(self.next_index(k)) == Some(TokenKind::LParen)
                {
                    self.push(Tok::Compile, i, i + 1);
                } else {
                    self.name(i);
                }
            }
            Contextual::AttribArray => {
                if self.kind(j) == Some(TokenKind::Lt) {
                    self.push(Tok::AttribArray, i, i + 1);
                } else {
                    self.name(i);
                }
            }
        }
        i + 1
    }

    /// Whether a `technique name <...> { ... } ;?` block starts at `i`: `None` when no
    /// `{` comes before a `;`; `Unterminated` (reported, E0202) when its `{` is never
    /// closed.
    fn technique_end(&mut self, i: usize) -> Option<TechniqueEnd> {
        let mut j = i + 1;
        let mut in_annotation = false;
        while j < self.tokens.len() {
            match self.tokens[j].kind {
                TokenKind::LBrace if !in_annotation => break,
                TokenKind::Lt => in_annotation = true,
                TokenKind::Gt => in_annotation = false,
                TokenKind::Semi if in_annotation => {}
                TokenKind::Semi | TokenKind::RBrace => return None,
                _ => {}
            }
            j += 1;
        }
        if j >= self.tokens.len() {
            return None;
        }
        let open = j;
        let mut depth = 0usize;
        while j < self.tokens.len() {
            match self.tokens[j].kind {
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(TechniqueEnd::Closed);
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let d = Diagnostic::error(codes::E_UNEXPECTED_EOF, "unexpected end of file in a technique block")
            .with_primary(self.tokens[open].span, "this `{` is never closed");
        self.diags.push((open, d));
        Some(TechniqueEnd::Unterminated)
    }

    /// Brackets opened at `i` went past [`MAX_NESTING`]: report once and skip to where
    /// the nesting is back to zero (or to the end).
    fn skip_deep(&mut self, i: usize) -> usize {
        let d = Diagnostic::error(codes::E_NESTING_TOO_DEEP, format!("brackets nested more than {MAX_NESTING} deep"))
            .with_primary(self.tokens[i].span, "nesting limit exceeded here")
            .with_note("the parser skips everything up to where this nesting closes");
        self.diags.push((i, d));
        // Skip up to (not including) the bracket that closes the outermost one still open,
        // so that bracket ends the statement or item as usual.
        let mut j = i + 1;
        while j < self.tokens.len() {
            match self.tokens[j].kind {
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => self.nest += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    if self.nest <= 1 {
                        break;
                    }
                    self.nest -= 1;
                }
                _ => {}
            }
            j += 1;
        }
        // Only the outermost bracket is still open: its closer at `j` comes next.
        while self.braces > 0 {
            self.close_brace();
        }
        let outer_is_brace = self.tokens.get(j).is_some_and(|t| t.kind == TokenKind::RBrace);
        self.nest = 1;
        self.braces = u32::from(outer_is_brace);
        self.typedef_at = None;
        self.push(Tok::Skipped, i, j);
        j
    }
}

/// A fast hash for short identifier keys (FNV-1a); the table is looked up once per name.
#[derive(Default)]
struct NameHasher(u64);

impl Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

fn is_qualifier(t: Tok) -> bool {
    use Tok::*;
    matches!(
        t,
        Const
            | Extern
            | Static
            | Uniform
            | Varying
            | In
            | Out
            | InOut
            | Inline
            | NoInline
            | Packed
            | Unpacked
            | Typedef
            | RowMajor
            | ColumnMajor
            | Shared
            | Register
            | Volatile
    )
}

fn punct(kind: TokenKind) -> Tok {
    use TokenKind as K;
    match kind {
        K::Comma => Tok::Comma,
        K::Dot => Tok::Dot,
        K::Colon => Tok::Colon,
        K::Question => Tok::Question,
        K::Tilde => Tok::Tilde,
        K::Bang => Tok::Bang,
        K::Plus => Tok::Plus,
        K::Minus => Tok::Minus,
        K::Star => Tok::Star,
        K::Slash => Tok::Slash,
        K::Percent => Tok::Percent,
        K::Lt => Tok::Lt,
        K::Gt => Tok::Gt,
        K::Eq => Tok::Eq,
        K::Amp => Tok::Amp,
        K::Pipe => Tok::Pipe,
        K::Caret => Tok::Caret,
        K::PlusPlus => Tok::PlusPlus,
        K::MinusMinus => Tok::MinusMinus,
        K::Shl => Tok::Shl,
        K::Shr => Tok::Shr,
        K::Le => Tok::Le,
        K::Ge => Tok::Ge,
        K::EqEq => Tok::EqEq,
        K::Ne => Tok::Ne,
        K::AndAnd => Tok::AndAnd,
        K::OrOr => Tok::OrOr,
        K::PlusEq => Tok::PlusEq,
        K::MinusEq => Tok::MinusEq,
        K::StarEq => Tok::StarEq,
        K::SlashEq => Tok::SlashEq,
        K::PercentEq => Tok::PercentEq,
        K::ShlEq => Tok::ShlEq,
        K::ShrEq => Tok::ShrEq,
        K::AmpEq => Tok::AmpEq,
        K::PipeEq => Tok::PipeEq,
        K::CaretEq => Tok::CaretEq,
        _ => Tok::Stray,
    }
}

/// One top-level chunk of terminals (indices into the terminal vector).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub range: Range<usize>,
    /// The chunk holds a [`Tok::Skipped`] region: it is not parsed (already reported).
    pub skipped: bool,
}

/// Cuts terminals into chunks that each hold whole file-scope items (usually one).
///
/// A chunk ends after a `;` at depth zero (outside an annotation `< ... >`) and after a
/// `}` that brings the depth back to zero unless what
/// follows continues the same declaration (`} s;`, `} = ...`, `} obj : BUFFER[3];`); a
/// name followed by a type or another name (`} vs float g()`, `} TRIANGLE void gs()`)
/// starts a new item.
pub fn items(terms: &[Terminal]) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut depth = 0usize;
    let mut skipped = false;
    let mut in_annotation = false;
    let mut seen_eq = false;
    for (i, t) in terms.iter().enumerate() {
        let mut end_here = false;
        match t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket => depth = depth.saturating_sub(1),
            Tok::RBrace => {
                if depth <= 1 {
                    depth = 0;
                    let next = terms.get(i + 1).map(|t| t.tok);
                    let after = terms.get(i + 2).map(|t| t.tok);
                    // `} vs float g()`, `} TRIANGLE void gs()`: a name followed by a type
                    // or another name is never a declarator of the same declaration.
                    let new_item =
                        next == Some(Tok::Ident) && matches!(after, Some(Tok::TypeName | Tok::UserType | Tok::Ident));
                    end_here = new_item
                        || !matches!(
                            next,
                            Some(
                                Tok::Semi
                                    | Tok::Comma
                                    | Tok::Eq
                                    | Tok::Colon
                                    | Tok::LBracket
                                    | Tok::Ident
                                    | Tok::UserType
                                    | Tok::Lt
                            )
                        );
                } else {
                    depth -= 1;
                }
            }
            Tok::Skipped => {
                // The outermost bracket is still open; its closer follows.
                depth = 1;
                skipped = true;
            }
            Tok::Eq if depth == 0 => seen_eq = true,
            Tok::Lt if depth == 0 && !seen_eq && i > start => {
                let prev = terms[i - 1].tok;
                if matches!(prev, Tok::Ident | Tok::UserType | Tok::RBracket | Tok::RParen) {
                    in_annotation = true;
                }
            }
            Tok::Gt if in_annotation && depth == 0 => in_annotation = false,
            Tok::Semi if depth == 0 && !in_annotation => end_here = true,
            _ => {}
        }
        if end_here {
            chunks.push(Chunk { range: start..i + 1, skipped });
            start = i + 1;
            skipped = false;
            in_annotation = false;
            seen_eq = false;
        }
    }
    if start < terms.len() {
        chunks.push(Chunk { range: start..terms.len(), skipped });
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::source::SourceMap;

    /// Terminals of `text` with their spellings, and the diagnostic codes.
    fn terms(text: &str) -> (Vec<(Tok, String)>, Vec<&'static str>) {
        let mut sources = SourceMap::new();
        let file = sources.add_file("t.cg", None, text.to_owned());
        let (tokens, _) = lex(text, file);
        let tokens: Vec<Token> = tokens.into_iter().filter(|t| t.kind != TokenKind::Newline).collect();
        let (ts, diags) = terminals(&sources, &tokens);
        let spelled = ts
            .iter()
            .map(|t| {
                let words: Vec<&str> = (t.start..t.end).map(|i| sources.text(tokens[i as usize].span)).collect();
                (t.tok, words.join(" "))
            })
            .collect();
        (spelled, diags.into_iter().map(|(_, d)| d.code).collect())
    }

    fn kind_of(text: &str, word: &str, nth: usize) -> Tok {
        terms(text).0.into_iter().filter(|(_, w)| w == word).nth(nth).map_or(Tok::Stray, |(t, _)| t)
    }

    #[test]
    fn struct_and_interface_tags_become_types_after_their_name() {
        let text = "struct S { float x; }; S s; interface I { float f(); }; I i;";
        assert_eq!(kind_of(text, "S", 0), Tok::Ident);
        assert_eq!(kind_of(text, "S", 1), Tok::UserType);
        assert_eq!(kind_of(text, "I", 0), Tok::Ident);
        assert_eq!(kind_of(text, "I", 1), Tok::UserType);
        // `struct S x;` and forward declarations are one type terminal.
        let (ts, _) = terms("struct F; struct F f;");
        assert!(ts.contains(&(Tok::UserType, "struct F".to_owned())));
    }

    #[test]
    fn words_after_a_dot_are_plain_names() {
        let text = "struct S { float x; }; void f() { a.S = b.float4 + c.if; }";
        assert_eq!(kind_of(text, "S", 1), Tok::Ident);
        assert_eq!(kind_of(text, "float4", 0), Tok::Ident);
        assert_eq!(kind_of(text, "if", 0), Tok::Ident);
    }

    #[test]
    fn typedef_names_are_scoped_to_their_block() {
        let text = "typedef float3 color, rgb[2]; void f() { typedef int local; local x; } float y = local; color c;";
        assert_eq!(kind_of(text, "color", 0), Tok::Ident);
        assert_eq!(kind_of(text, "color", 1), Tok::UserType);
        assert_eq!(kind_of(text, "rgb", 0), Tok::Ident);
        assert_eq!(kind_of(text, "local", 1), Tok::UserType);
        assert_eq!(kind_of(text, "local", 2), Tok::Ident);
    }

    #[test]
    fn a_declarator_named_like_a_type_hides_it_in_its_scope() {
        let text = "struct in_t { float a; }; float g(in_t in_t, float b) { return in_t.a; } in_t after;";
        let kinds: Vec<Tok> = terms(text).0.into_iter().filter(|(_, w)| w == "in_t").map(|(t, _)| t).collect();
        assert_eq!(kinds, [Tok::Ident, Tok::UserType, Tok::Ident, Tok::Ident, Tok::UserType]);
        // A prototype's parameter names end with the prototype.
        let text = "struct T { float a; }; float p(T T); T t;";
        let kinds: Vec<Tok> = terms(text).0.into_iter().filter(|(_, w)| w == "T").map(|(t, _)| t).collect();
        assert_eq!(kinds, [Tok::Ident, Tok::UserType, Tok::Ident, Tok::UserType]);
    }

    #[test]
    fn contextual_type_words() {
        assert!(terms("unsigned int x;").0.contains(&(Tok::TypeName, "unsigned int".to_owned())));
        assert_eq!(kind_of("unsigned x;", "unsigned", 0), Tok::TypeName);
        assert_eq!(kind_of("texture t;", "texture", 0), Tok::TypeName);
        assert_eq!(kind_of("f(texture, uv);", "texture", 0), Tok::Ident);
        assert_eq!(kind_of("vector<float, 3> v;", "vector", 0), Tok::Vector);
        assert_eq!(kind_of("matrix<half, 2, 2> m;", "matrix", 0), Tok::Matrix);
        assert_eq!(kind_of("x = matrix < 3;", "matrix", 0), Tok::Ident);
        assert_eq!(kind_of("y = matrix[0];", "matrix", 0), Tok::Ident);
    }

    #[test]
    fn effect_words_are_keywords_only_where_an_effect_construct_starts() {
        let (ts, codes) = terms("technique T < int a = 1; > { pass P { X = compile fp40 f(); } } float x;");
        assert!(codes.is_empty());
        let kinds: Vec<Tok> = ts.iter().map(|t| t.0).collect();
        assert_eq!(kinds[0], Tok::Technique);
        assert!(ts.contains(&(Tok::Pass, "pass".to_owned())));
        assert!(ts.contains(&(Tok::Compile, "compile".to_owned())));
        assert!(ts.contains(&(Tok::TypeName, "float".to_owned())));
        // Outside those places the same words are names.
        assert_eq!(kind_of("float pass = 1; float t = pass * 2;", "pass", 1), Tok::Ident);
        assert_eq!(kind_of("void f() { pass = 2; }", "pass", 0), Tok::Ident);
        assert_eq!(kind_of("float compile = 1;", "compile", 0), Tok::Ident);
        assert_eq!(kind_of("float technique = 1;", "technique", 0), Tok::Ident);
        assert_eq!(kind_of("x = compile(fp40);", "compile", 0), Tok::Ident);
        // An unterminated technique is reported once and skipped to the end.
        let (ts, codes) = terms("technique T { pass P { X = 1; } float y;");
        assert_eq!(codes, ["E0202"]);
        assert_eq!(ts.len(), 1);
        assert_eq!(ts[0].0, Tok::Skipped);
    }

    #[test]
    fn attrib_array_is_a_generic_only_before_a_bracket() {
        assert_eq!(kind_of("TRIANGLE void g(AttribArray<float4> p : POSITION) {}", "AttribArray", 0), Tok::AttribArray);
        assert_eq!(kind_of("float AttribArray = 1;", "AttribArray", 0), Tok::Ident);
        // The primitive modifiers stay names: the grammar reads them as specifier words.
        assert_eq!(kind_of("TRIANGLE void g() {}", "TRIANGLE", 0), Tok::Ident);
    }

    #[test]
    fn reserved_words_are_reported() {
        let (ts, codes) = terms("float goto, ASM, __x;");
        assert_eq!(codes, ["E0205", "E0205", "E0205"]);
        assert!(ts.iter().filter(|(t, _)| *t == Tok::Ident).count() == 3);
        assert_eq!(terms("a # b ## c").0[1].0, Tok::Stray);
        // The CgFX state-object types are type names now, in any case.
        let (ts, codes) = terms("VertexShader vs; pixelshader ps;");
        assert!(codes.is_empty());
        assert_eq!((ts[0].0, ts[3].0), (Tok::TypeName, Tok::TypeName));
    }

    #[test]
    fn unknown_type_names_are_reported_once_and_then_read_as_types() {
        let (ts, codes) = terms("void f() { point2 p = 1; point2 q; } float g(point2 a);");
        assert_eq!(codes, ["E0208"]);
        let point2: Vec<Tok> = ts.into_iter().filter(|(_, w)| w == "point2").map(|(t, _)| t).collect();
        assert_eq!(point2, [Tok::UserType; 3]);
        // GLSL's type names are Cg type names (cgc took them as aliases).
        let (ts, codes) = terms("vec2 p; mat2x3 m;");
        assert!(codes.is_empty());
        assert_eq!((ts[0].0, ts[3].0), (Tok::TypeName, Tok::TypeName));
    }

    #[test]
    fn deep_nesting_is_skipped_as_one_terminal() {
        let text = format!("float a = {}1{}; float b;", "(".repeat(300), ")".repeat(300));
        let (ts, codes) = terms(&text);
        assert_eq!(codes, ["E0204"]);
        assert_eq!(ts.iter().filter(|(t, _)| *t == Tok::Skipped).count(), 1);
        assert_eq!(ts.iter().filter(|(t, _)| *t == Tok::LParen).count(), MAX_NESTING);
        assert_eq!(ts.last().map(|t| t.0), Some(Tok::Semi));
    }

    #[test]
    fn chunks_end_at_top_level_semicolons_and_function_bodies() {
        let text = "float a < string s = \"x\"; > = 1; struct S { float x; } s; \
                    float f() { return 1; } vs float g() { } float b[2] = { 1, 2 }; technique T { } float c;";
        let mut sources = SourceMap::new();
        let file = sources.add_file("t.cg", None, text.to_owned());
        let (tokens, _) = lex(text, file);
        let (ts, _) = terminals(&sources, &tokens);
        let chunks = items(&ts);
        let firsts: Vec<String> =
            chunks.iter().map(|c| sources.text(tokens[ts[c.range.start].start as usize].span).to_owned()).collect();
        // `} vs float g`: a name before a type starts a new item (a profile word).
        assert_eq!(firsts, ["float", "struct", "float", "vs", "float", "technique", "float"]);
    }
}
