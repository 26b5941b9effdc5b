//! `#if` arithmetic: the integer constant expression of C, on intmax/uintmax.
//!
//! Input is the directive's tokens after macro expansion, with every `defined X`
//! already replaced by its answer ([`Term::Defined`]). Identifiers that remain are 0.
//! Values follow C's usual arithmetic conversions (unsigned if either operand is
//! unsigned, so `-1 > 0u` holds); arithmetic wraps; `&&`, `||` and `?:` evaluate only
//! the operand that is selected, so `0 && 1/0` is fine while `1/0` is E0115.
//!
//! Parsing is operator-precedence with explicit operator and value stacks: no
//! recursion, whatever the nesting of parentheses. This module never panics and never
//! looks at macros.

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::source::{SourceMap, Span};

/// One element of a condition.
#[derive(Clone, Copy, Debug)]
pub(super) enum Term {
    Tok(Token),
    /// The value of `defined X` / `defined(X)`, spanning the whole operator.
    Defined(bool, Span),
}

/// An intmax_t or uintmax_t.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Value {
    pub bits: u64,
    pub unsigned: bool,
}

impl Value {
    pub fn signed(v: i64) -> Value {
        Value { bits: v as u64, unsigned: false }
    }
    fn boolean(b: bool) -> Value {
        Value::signed(i64::from(b))
    }
    pub fn is_true(self) -> bool {
        self.bits != 0
    }
    fn as_i64(self) -> i64 {
        self.bits as i64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bin {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Comma,
}

impl Bin {
    fn from_token(kind: TokenKind) -> Option<Bin> {
        use TokenKind as K;
        Some(match kind {
            K::Star => Bin::Mul,
            K::Slash => Bin::Div,
            K::Percent => Bin::Rem,
            K::Plus => Bin::Add,
            K::Minus => Bin::Sub,
            K::Shl => Bin::Shl,
            K::Shr => Bin::Shr,
            K::Lt => Bin::Lt,
            K::Gt => Bin::Gt,
            K::Le => Bin::Le,
            K::Ge => Bin::Ge,
            K::EqEq => Bin::Eq,
            K::Ne => Bin::Ne,
            K::Amp => Bin::BitAnd,
            K::Caret => Bin::BitXor,
            K::Pipe => Bin::BitOr,
            K::AndAnd => Bin::And,
            K::OrOr => Bin::Or,
            K::Comma => Bin::Comma,
            _ => return None,
        })
    }

    fn prec(self) -> u8 {
        match self {
            Bin::Mul | Bin::Div | Bin::Rem => 13,
            Bin::Add | Bin::Sub => 12,
            Bin::Shl | Bin::Shr => 11,
            Bin::Lt | Bin::Gt | Bin::Le | Bin::Ge => 10,
            Bin::Eq | Bin::Ne => 9,
            Bin::BitAnd => 8,
            Bin::BitXor => 7,
            Bin::BitOr => 6,
            Bin::And => 5,
            Bin::Or => 4,
            Bin::Comma => 1,
        }
    }
}

/// Precedence of the conditional operator (right-associative).
const COND_PREC: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Un {
    Neg,
    Plus,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug)]
enum OpKind {
    Un(Un),
    Bin(Bin),
    Paren,
    /// `?` waiting for its `:`.
    Question,
    /// `?` whose `:` has been seen.
    Colon,
}

#[derive(Clone, Copy, Debug)]
struct Op {
    kind: OpKind,
    span: Span,
    /// The whole operation is not evaluated (inside a skipped `&&`/`||`/`?:` operand).
    skip: bool,
    /// What follows the operator (its right operand) is not evaluated.
    skip_rhs: bool,
}

struct Eval<'s> {
    sources: &'s SourceMap,
    ops: Vec<Op>,
    values: Vec<Value>,
}

fn bad(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error(codes::E_BAD_CONDITION, message).with_primary(span, label)
}

/// Evaluates a condition. `whole` spans the directive, for errors at its end.
pub(super) fn evaluate(sources: &SourceMap, terms: &[Term], whole: Span) -> Result<Value, Diagnostic> {
    let mut e = Eval { sources, ops: Vec::new(), values: Vec::new() };
    let mut expect_operand = true;
    let mut last = whole;
    for term in terms {
        let tok = match *term {
            Term::Defined(v, span) => {
                if !expect_operand {
                    return Err(bad(span, "missing operator before `defined`", "expected an operator here"));
                }
                e.values.push(Value::boolean(v));
                expect_operand = false;
                last = span;
                continue;
            }
            Term::Tok(t) => t,
        };
        last = tok.span;
        if expect_operand {
            expect_operand = e.operand(tok)?;
        } else {
            expect_operand = e.operator(tok)?;
        }
    }
    let end = Span { start: last.end, ..last };
    if expect_operand {
        let msg =
            if terms.is_empty() { "`#if` with no expression" } else { "expected a value at the end of the condition" };
        return Err(bad(if terms.is_empty() { whole } else { end }, msg, "a value is missing here"));
    }
    while let Some(op) = e.ops.last().copied() {
        match op.kind {
            OpKind::Paren => return Err(bad(op.span, "missing `)` in condition", "this `(` is never closed")),
            OpKind::Question => return Err(bad(op.span, "`?` without `:` in condition", "this `?` has no `:`")),
            _ => e.reduce()?,
        }
    }
    match e.values.as_slice() {
        [v] => Ok(*v),
        _ => Err(bad(whole, "malformed condition", "")),
    }
}

impl Eval<'_> {
    fn skipping(&self) -> bool {
        self.ops.last().is_some_and(|o| o.skip_rhs)
    }

    fn push_op(&mut self, kind: OpKind, span: Span, skip_rhs_extra: bool) {
        let skip = self.skipping();
        self.ops.push(Op { kind, span, skip, skip_rhs: skip || skip_rhs_extra });
    }

    /// Handles a token where a value is expected; returns whether one still is.
    fn operand(&mut self, t: Token) -> Result<bool, Diagnostic> {
        use TokenKind as K;
        let un = match t.kind {
            K::IntLit => {
                self.values.push(int_literal(self.sources.text(t.span), t.span)?);
                return Ok(false);
            }
            K::CharLit => {
                self.values.push(char_literal(self.sources.text(t.span), t.span)?);
                return Ok(false);
            }
            K::Ident => {
                self.values.push(Value::signed(0));
                return Ok(false);
            }
            K::LParen => {
                self.push_op(OpKind::Paren, t.span, false);
                return Ok(true);
            }
            K::Minus => Un::Neg,
            K::Plus => Un::Plus,
            K::Bang => Un::Not,
            K::Tilde => Un::BitNot,
            K::FloatLit => {
                return Err(bad(
                    t.span,
                    "floating-point literal in preprocessor condition",
                    "only integers are allowed",
                ))
            }
            K::StringLit => return Err(bad(t.span, "string literal in preprocessor condition", "not an integer")),
            other => {
                return Err(bad(
                    t.span,
                    format!("expected a value in condition, found `{}`", self.describe(t, other)),
                    "expected a value",
                ))
            }
        };
        self.push_op(OpKind::Un(un), t.span, false);
        Ok(true)
    }

    fn describe(&self, t: Token, kind: TokenKind) -> String {
        kind.punct_str().map_or_else(|| self.sources.text(t.span).to_owned(), str::to_owned)
    }

    /// Handles a token after a complete value; returns whether a value is expected next.
    fn operator(&mut self, t: Token) -> Result<bool, Diagnostic> {
        match t.kind {
            TokenKind::RParen => {
                loop {
                    match self.ops.last().map(|o| o.kind) {
                        Some(OpKind::Paren) => break,
                        Some(OpKind::Question) => {
                            return Err(bad(t.span, "`)` before the `:` of a `?`", "expected `:` first"))
                        }
                        Some(_) => self.reduce()?,
                        None => return Err(bad(t.span, "unmatched `)` in condition", "no `(` before it")),
                    }
                }
                self.ops.pop();
                Ok(false)
            }
            TokenKind::Question => {
                self.reduce_while(COND_PREC, true)?;
                let cond = self.values.last().is_some_and(|v| v.is_true());
                self.push_op(OpKind::Question, t.span, !cond);
                Ok(true)
            }
            TokenKind::Colon => {
                loop {
                    match self.ops.last().map(|o| o.kind) {
                        Some(OpKind::Question) => break,
                        Some(OpKind::Paren) | None => {
                            return Err(bad(t.span, "`:` without `?` in condition", "no `?` before it"))
                        }
                        Some(_) => self.reduce()?,
                    }
                }
                let cond =
                    self.values.len().checked_sub(2).and_then(|i| self.values.get(i)).is_some_and(|v| v.is_true());
                if let Some(op) = self.ops.last_mut() {
                    op.kind = OpKind::Colon;
                    op.skip_rhs = op.skip || cond;
                }
                Ok(true)
            }
            kind => {
                let Some(b) = Bin::from_token(kind) else {
                    let what = self.describe(t, kind);
                    let msg = match kind {
                        TokenKind::Eq
                        | TokenKind::PlusEq
                        | TokenKind::MinusEq
                        | TokenKind::StarEq
                        | TokenKind::SlashEq
                        | TokenKind::PercentEq
                        | TokenKind::ShlEq
                        | TokenKind::ShrEq
                        | TokenKind::AmpEq
                        | TokenKind::PipeEq
                        | TokenKind::CaretEq
                        | TokenKind::PlusPlus
                        | TokenKind::MinusMinus => {
                            format!("`{what}` is not allowed in a preprocessor condition")
                        }
                        _ => format!("missing operator before `{what}` in condition"),
                    };
                    return Err(bad(t.span, msg, "expected an operator"));
                };
                self.reduce_while(b.prec(), false)?;
                let left = self.values.last().is_some_and(|v| v.is_true());
                let skip_rhs = match b {
                    Bin::And => !left,
                    Bin::Or => left,
                    _ => false,
                };
                self.push_op(OpKind::Bin(b), t.span, skip_rhs);
                Ok(true)
            }
        }
    }

    /// Reduces the operators that bind tighter than an incoming one of precedence `p`.
    fn reduce_while(&mut self, p: u8, right_assoc: bool) -> Result<(), Diagnostic> {
        while let Some(op) = self.ops.last() {
            let top = match op.kind {
                OpKind::Un(_) => u8::MAX,
                OpKind::Bin(b) => b.prec(),
                OpKind::Colon => COND_PREC,
                OpKind::Paren | OpKind::Question => break,
            };
            if top > p || (top == p && !right_assoc) {
                self.reduce()?;
            } else {
                break;
            }
        }
        Ok(())
    }

    fn pop_value(&mut self) -> Value {
        self.values.pop().unwrap_or(Value::signed(0))
    }

    /// Applies the operator on top of the stack.
    fn reduce(&mut self) -> Result<(), Diagnostic> {
        let Some(op) = self.ops.pop() else {
            return Ok(());
        };
        let v = match op.kind {
            OpKind::Un(u) => {
                let a = self.pop_value();
                match u {
                    Un::Neg => Value { bits: a.bits.wrapping_neg(), ..a },
                    Un::Plus => a,
                    Un::Not => Value::boolean(!a.is_true()),
                    Un::BitNot => Value { bits: !a.bits, ..a },
                }
            }
            OpKind::Bin(b) => {
                let r = self.pop_value();
                let l = self.pop_value();
                binary(b, l, r, op)?
            }
            OpKind::Colon => {
                let else_ = self.pop_value();
                let then = self.pop_value();
                let cond = self.pop_value();
                let unsigned = then.unsigned || else_.unsigned;
                let chosen = if cond.is_true() { then } else { else_ };
                Value { bits: chosen.bits, unsigned }
            }
            OpKind::Paren | OpKind::Question => return Ok(()),
        };
        self.values.push(v);
        Ok(())
    }
}

fn binary(b: Bin, l: Value, r: Value, op: Op) -> Result<Value, Diagnostic> {
    let unsigned = l.unsigned || r.unsigned;
    let arith = |bits: u64| Value { bits, unsigned };
    Ok(match b {
        Bin::Mul => arith(l.bits.wrapping_mul(r.bits)),
        Bin::Add => arith(l.bits.wrapping_add(r.bits)),
        Bin::Sub => arith(l.bits.wrapping_sub(r.bits)),
        Bin::Div | Bin::Rem => {
            if r.bits == 0 {
                if op.skip {
                    return Ok(arith(0));
                }
                let what = if b == Bin::Div { "division" } else { "remainder" };
                return Err(bad(
                    op.span,
                    format!("{what} by zero in preprocessor condition"),
                    "the right operand is 0",
                ));
            }
            let bits = match (b, unsigned) {
                (Bin::Div, true) => l.bits / r.bits,
                (Bin::Div, false) => l.as_i64().wrapping_div(r.as_i64()) as u64,
                (_, true) => l.bits % r.bits,
                (_, false) => l.as_i64().wrapping_rem(r.as_i64()) as u64,
            };
            arith(bits)
        }
        Bin::Shl | Bin::Shr => shift(b == Bin::Shl, l, r),
        Bin::Lt | Bin::Gt | Bin::Le | Bin::Ge => {
            let ord = if unsigned { l.bits.cmp(&r.bits) } else { l.as_i64().cmp(&r.as_i64()) };
            Value::boolean(match b {
                Bin::Lt => ord.is_lt(),
                Bin::Gt => ord.is_gt(),
                Bin::Le => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        Bin::Eq => Value::boolean(l.bits == r.bits),
        Bin::Ne => Value::boolean(l.bits != r.bits),
        Bin::BitAnd => arith(l.bits & r.bits),
        Bin::BitXor => arith(l.bits ^ r.bits),
        Bin::BitOr => arith(l.bits | r.bits),
        Bin::And => Value::boolean(l.is_true() && r.is_true()),
        Bin::Or => Value::boolean(l.is_true() || r.is_true()),
        Bin::Comma => r,
    })
}

/// `l << r` / `l >> r`: the result has `l`'s type; a negative count shifts the other
/// way; counts of 64 or more give 0 (or -1 for a negative signed value shifted right).
fn shift(left: bool, l: Value, r: Value) -> Value {
    let count = if !r.unsigned && r.as_i64() < 0 { r.as_i64().unsigned_abs() } else { r.bits };
    let left = left ^ (!r.unsigned && r.as_i64() < 0);
    let bits = if left {
        if count >= 64 {
            0
        } else {
            l.bits << count
        }
    } else if l.unsigned {
        if count >= 64 {
            0
        } else {
            l.bits >> count
        }
    } else {
        (l.as_i64() >> count.min(63)) as u64
    };
    Value { bits, unsigned: l.unsigned }
}

/// An integer literal: decimal, octal or hex; `u` makes it unsigned, so does a value
/// that only fits in uintmax_t; `l`, `i`, `s`, `t` suffixes are accepted and ignored.
fn int_literal(text: &str, span: Span) -> Result<Value, Diagnostic> {
    let (digits, radix) = match text.get(..2) {
        Some("0x" | "0X") => (&text[2..], 16),
        _ if text.starts_with('0') && text.len() > 1 => (&text[1..], 8),
        _ => (text, 10),
    };
    let end = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    let (digits, suffix) = digits.split_at(end);
    let mut unsigned = false;
    for c in suffix.chars() {
        match c {
            'u' | 'U' => unsigned = true,
            'l' | 'L' | 'i' | 'I' | 's' | 'S' | 't' | 'T' => {}
            _ => {
                return Err(bad(
                    span,
                    format!("`{text}` is not an integer constant"),
                    "floating, half or fixed suffixes are not allowed in a preprocessor condition",
                ))
            }
        }
    }
    let digits = if digits.is_empty() && radix == 8 { "0" } else { digits };
    let v = u64::from_str_radix(digits, radix).map_err(|_| {
        bad(span, format!("integer constant `{text}` is too large or malformed"), "does not fit in 64 bits")
    })?;
    Ok(Value { bits: v, unsigned: unsigned || v > i64::MAX as u64 })
}

/// A character constant: its `char` value (signed, as on the usual targets); several
/// characters combine base 256 into an int, as GCC does.
fn char_literal(text: &str, span: Span) -> Result<Value, Diagnostic> {
    let inner = text.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')).unwrap_or("");
    let mut bytes: Vec<u8> = Vec::new();
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some(e) = it.next() else { break };
        let b = match e {
            'n' => b'\n',
            't' => b'\t',
            'r' => b'\r',
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'x' => {
                let mut v: u32 = 0;
                while let Some(d) = it.peek().and_then(|c| c.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    it.next();
                }
                v as u8
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match it.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            it.next();
                        }
                        None => break,
                    }
                }
                v as u8
            }
            other => other as u8,
        };
        bytes.push(b);
    }
    match bytes.as_slice() {
        [] => Err(bad(span, "empty character constant in preprocessor condition", "no character")),
        [b] => Ok(Value::signed(i64::from(*b as i8))),
        many => {
            let v = many.iter().fold(0i32, |acc, &b| acc.wrapping_shl(8) | i32::from(b));
            Ok(Value::signed(i64::from(v)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn eval(text: &str) -> Result<i64, String> {
        let mut sm = SourceMap::new();
        let f = sm.add_file("t", None, text.to_owned());
        let (toks, _) = lex(text, f);
        let terms: Vec<Term> = toks.into_iter().map(Term::Tok).collect();
        evaluate(&sm, &terms, Span::new(f, 0, text.len() as u32))
            .map(|v| v.bits as i64)
            .map_err(|d| format!("{}: {}", d.code, d.message))
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(eval("1 + 2 * 3"), Ok(7));
        assert_eq!(eval("(1 + 2) * 3"), Ok(9));
        assert_eq!(eval("10 - 4 - 3"), Ok(3));
        assert_eq!(eval("1 << 2 + 1"), Ok(8));
        assert_eq!(eval("1 | 2 ^ 3 & 1"), Ok(1 | (2 ^ (3 & 1))));
        assert_eq!(eval("1 == 1 < 2"), Ok(1));
        assert_eq!(eval("2 == 2 == 1"), Ok(1));
        assert_eq!(eval("- - 3"), Ok(3));
        assert_eq!(eval("!0 + ~0"), Ok(0));
        assert_eq!(eval("1 || 0 && 0"), Ok(1));
        assert_eq!(eval("(1, 2)"), Ok(2));
    }

    #[test]
    fn conditional_operator_is_right_associative() {
        assert_eq!(eval("0 ? 1 : 0 ? 2 : 3"), Ok(3));
        assert_eq!(eval("1 ? 0 ? 5 : 6 : 7"), Ok(6));
        assert_eq!(eval("1 ? 2 : 3 + 10"), Ok(2));
        assert_eq!(eval("0 ? 2 : 3 + 10"), Ok(13));
    }

    #[test]
    fn unsigned_arithmetic_follows_usual_conversions() {
        assert_eq!(eval("-1 > 0u"), Ok(1));
        assert_eq!(eval("-1 > 0"), Ok(0));
        assert_eq!(eval("-1 / 2"), Ok(0));
        assert_eq!(eval("-1 / 2u"), Ok((u64::MAX / 2) as i64));
        assert_eq!(eval("0xFFFFFFFFFFFFFFFF == -1"), Ok(1));
        assert_eq!(eval("18446744073709551615 > 0"), Ok(1));
        assert_eq!(eval("(1 ? -1 : 0u) > 0"), Ok(1));
        assert_eq!(eval("-8 >> 1"), Ok(-4));
        assert_eq!(eval("1 << 64"), Ok(0));
        assert_eq!(eval("-9223372036854775807 - 1 < 0"), Ok(1));
    }

    #[test]
    fn unevaluated_operands_may_divide_by_zero() {
        assert_eq!(eval("0 && 1 / 0"), Ok(0));
        assert_eq!(eval("1 || 1 % 0"), Ok(1));
        assert_eq!(eval("1 ? 2 : (1 / 0)"), Ok(2));
        assert_eq!(eval("0 ? 1 / 0 : 3"), Ok(3));
        assert_eq!(eval("0 && (1 ? 1/0 : 2)"), Ok(0));
        assert!(eval("1 / 0").is_err_and(|e| e.starts_with("E0115")));
        assert!(eval("1 && 1 / 0").is_err_and(|e| e.contains("division by zero")));
        assert!(eval("1 ? 1 / 0 : 3").is_err());
    }

    #[test]
    fn literals() {
        assert_eq!(eval("'a'"), Ok(97));
        assert_eq!(eval("'\\n' + '\\0'"), Ok(10));
        assert_eq!(eval("'\\xff'"), Ok(-1));
        assert_eq!(eval("'\\377' == -1"), Ok(1));
        assert_eq!(eval("'ab'"), Ok(0x6162));
        assert_eq!(eval("010 + 0x10 + 10"), Ok(34));
        assert_eq!(eval("10L + 2u"), Ok(12));
        assert_eq!(eval("0"), Ok(0));
        assert_eq!(eval("undefined_name + 1"), Ok(1));
    }

    #[test]
    fn malformed_conditions_are_errors() {
        for bad in [
            "",
            "1 +",
            "(1",
            "1)",
            "1 ? 2",
            "1 : 2",
            "1 2",
            "1.5",
            "\"s\"",
            "x = 1",
            "2h",
            "99999999999999999999",
            "''",
        ] {
            let r = eval(bad);
            assert!(r.as_ref().is_err_and(|e| e.starts_with("E0115")), "{bad:?}: {r:?}");
        }
    }

    #[test]
    fn deep_parentheses_do_not_recurse() {
        let text = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(eval(&text), Ok(1));
        let text = format!("{}1", "- ".repeat(100_000));
        assert_eq!(eval(&text), Ok(1));
    }
}
