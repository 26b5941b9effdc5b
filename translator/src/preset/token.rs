//! Layer 1 of the preset parser: the lines of a `.cgp`/`.slangp` file to spanned tokens.
//!
//! The rules are those of RetroArch's config reader (libretro-common `config_file.c`),
//! because that reader decided what every real preset meant:
//!
//! - a line whose first byte is `#` is a comment, except `#reference <path>` and
//!   `#include <path>` (the directive word must be followed by a space);
//! - elsewhere a `#` starts a trailing comment unless it lies inside a quoted value;
//! - the key is the run of non-blank characters at the start of the line, so `key=value`
//!   (no blank before `=`) is one key without a value and the line is ignored;
//! - a quoted value runs to the next `"` (to the end of the line if there is none), an
//!   unquoted one to the next blank; anything after it is ignored;
//! - a line starting with `//` is ignored (RetroArch ignores it because it has no `=`).
//!
//! CRLF and LF line ends, a leading UTF-8 byte-order mark, blank lines and trailing junk
//! are all accepted; what RetroArch would have ignored produces a warning here.
//!
//! **Invariant:** this module never panics and never fails: any text gives a token list
//! plus diagnostics. It knows nothing of which keys exist; that is [`super::value`]'s job.

use crate::codes;
use grammar::{Diagnostic, FileId, Span};

/// One token: its text (without quotes), where it lies, and how it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    /// The bytes of the token in its file (quotes included for a quoted value).
    pub span: Span,
    /// One-based line.
    pub row: u32,
    /// One-based column, in characters.
    pub col: u32,
    /// The value was written in double quotes.
    pub quoted: bool,
}

/// One meaningful line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `key = value`.
    Entry { key: Token, value: Token },
    /// `#reference "path"`: `directive` covers `#reference`.
    Reference { directive: Token, path: Token },
    /// `#include "path"` (a config-file include; presets do not use it).
    Include { directive: Token, path: Token },
}

impl Item {
    /// The span of the whole item (key or directive through value).
    pub fn span(&self) -> Span {
        match self {
            Item::Entry { key, value } => key.span.to(value.span),
            Item::Reference { directive, path } | Item::Include { directive, path } => directive.span.to(path.span),
        }
    }
}

/// The tokens of one file and what the tokenizer noticed.
#[derive(Clone, Debug, Default)]
pub struct Tokens {
    pub items: Vec<Item>,
    pub diagnostics: Vec<Diagnostic>,
}

/// C `isspace` in the "C" locale.
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// Splits `text` into tokens. `file` names the file the spans point into.
pub fn tokenize(file: FileId, text: &str) -> Tokens {
    let mut tokens = Tokens::default();
    let mut start = 0usize;
    let mut row = 0u32;
    // A run of lines without `=` (a `/* ... */` block, prose): first span, last span, count.
    let mut junk: Option<(Span, Span, usize)> = None;
    while start <= text.len() {
        row = row.saturating_add(1);
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let mut line = Line { file, text, line_start: start, row, start, end };
        if let Some(stripped) = text[line.start..line.end].strip_suffix('\r') {
            line.end = line.start + stripped.len();
        }
        if start == 0 && text.starts_with('\u{feff}') {
            let bom = '\u{feff}'.len_utf8();
            line.start = bom;
            line.end = line.end.max(bom);
            tokens.diagnostics.push(
                Diagnostic::warning(
                    codes::W_PRESET_BOM,
                    "the file starts with a UTF-8 byte-order mark; it was stripped",
                )
                .with_primary(Span::new(file, 0, bom as u32), "byte-order mark")
                .with_note("RetroArch's config reader does not strip it: it would have ignored the first line"),
            );
        }
        let before = tokens.diagnostics.len();
        match line.tokenize(&mut tokens) {
            Outcome::NoEquals(span) => {
                junk = Some(match junk {
                    Some((first, _, n)) => (first, span, n + 1),
                    None => (span, span, 1),
                })
            }
            Outcome::Blank => {}
            Outcome::Other => flush_junk(&mut junk, text, &mut tokens, before),
        }
        if end >= text.len() {
            break;
        }
        start = end + 1;
    }
    let at = tokens.diagnostics.len();
    flush_junk(&mut junk, text, &mut tokens, at);
    tokens
}

/// What one line was, for grouping lines without `=` into one warning.
enum Outcome {
    Blank,
    NoEquals(Span),
    Other,
}

/// Reports a pending run of lines without `=`, inserting the warning at `at` so that
/// warnings stay in line order.
fn flush_junk(junk: &mut Option<(Span, Span, usize)>, text: &str, tokens: &mut Tokens, at: usize) {
    let Some((first, last, n)) = junk.take() else {
        return;
    };
    let span = first.to(last);
    let shown = text.get(first.range()).unwrap_or("");
    let message = if n == 1 {
        format!("`{shown}` is not a `key = value` line (no `=`); ignored")
    } else {
        format!("{n} lines without `=`, from `{shown}` on, are not `key = value` lines; ignored")
    };
    let d = Diagnostic::warning(codes::W_PRESET_SYNTAX, message)
        .with_primary(span, "no `=`")
        .with_note("RetroArch ignores such lines; comments start with `#`");
    tokens.diagnostics.insert(at.min(tokens.diagnostics.len()), d);
}

/// One line of the file: `start..end` excludes the newline and a trailing `\r`.
struct Line<'a> {
    file: FileId,
    text: &'a str,
    /// Byte offset where the line begins in the file (for columns).
    line_start: usize,
    row: u32,
    start: usize,
    end: usize,
}

impl Line<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start as u32, end as u32)
    }

    fn token(&self, start: usize, end: usize, text: &str, quoted: bool) -> Token {
        let col = self.text.get(self.line_start..start).map_or(0, |s| s.chars().count()) + 1;
        Token { text: text.to_owned(), span: self.span(start, end), row: self.row, col: col as u32, quoted }
    }

    /// Offset of the first non-blank byte at or after `at` (at most `end`).
    fn skip_blanks(&self, at: usize, end: usize) -> usize {
        self.text[at..end].find(|c: char| !is_blank(c)).map_or(end, |i| at + i)
    }

    fn tokenize(&self, tokens: &mut Tokens) -> Outcome {
        let line = &self.text[self.start..self.end];
        if line.trim_matches(is_blank).is_empty() {
            return Outcome::Blank;
        }
        if let Some(rest) = line.strip_prefix('#') {
            self.directive(rest, tokens);
            return Outcome::Other;
        }
        // RetroArch's comment rule: cut at the first `#` unless a quoted value encloses it.
        let mut end = self.end;
        if let Some(hash) = line.find('#') {
            let enclosed = line[..hash]
                .find('"')
                .and_then(|q| line[q + 1..].find('"').map(|e| q + 1 + e))
                .is_some_and(|close| close > hash);
            if !enclosed {
                end = self.start + hash;
            }
        }
        let key_start = self.skip_blanks(self.start, end);
        if key_start == end {
            // Only a comment after blanks.
            let rest = line.trim_start_matches(is_blank);
            if rest.starts_with("#reference") || rest.starts_with("#include") {
                let at = self.end - rest.len();
                let word_end = at + rest.find(is_blank).unwrap_or(rest.len());
                tokens.diagnostics.push(
                    Diagnostic::warning(codes::W_PRESET_DIRECTIVE, "an indented directive is a comment")
                        .with_primary(self.span(at, word_end), "not at the start of the line")
                        .with_note("RetroArch reads `#reference` and `#include` only in the first column"),
                );
            }
            return Outcome::Other;
        }
        if self.text[key_start..end].starts_with("//") {
            return Outcome::Other;
        }
        let key_end = self.text[key_start..end].find(is_blank).map_or(end, |i| key_start + i);
        let key_text = &self.text[key_start..key_end];
        if let Some(eq) = key_text.find('=') {
            let message = if eq == 0 {
                "a line that starts with `=` has no key; ignored".to_owned()
            } else {
                format!(
                    "no blank before `=`: RetroArch reads `{key_text}` as a key without a value and ignores the line"
                )
            };
            tokens.diagnostics.push(
                Diagnostic::warning(codes::W_PRESET_SYNTAX, message)
                    .with_primary(self.span(key_start, key_end), "")
                    .with_note("write `key = value`"),
            );
            return Outcome::Other;
        }
        let eq = self.skip_blanks(key_end, end);
        if !self.text[eq..end].starts_with('=') {
            let stop = self.text[key_start..end].trim_end_matches(is_blank).len() + key_start;
            return Outcome::NoEquals(self.span(key_start, stop));
        }
        let key = self.token(key_start, key_end, key_text, false);
        let value_start = self.skip_blanks(eq + 1, end);
        let value = self.value(value_start, end, tokens);
        tokens.items.push(Item::Entry { key, value });
        Outcome::Other
    }

    /// Reads a value at `at` (quoted or not) and warns about anything after it.
    fn value(&self, at: usize, end: usize, tokens: &mut Tokens) -> Token {
        let rest = &self.text[at..end];
        let (token, after) = if let Some(inner) = rest.strip_prefix('"') {
            match inner.find('"') {
                Some(close) => {
                    let stop = at + 1 + close + 1;
                    (self.token(at, stop, &inner[..close], true), stop)
                }
                None => {
                    // RetroArch reads to the end of the line.
                    let value = inner.trim_end_matches(is_blank);
                    let stop = at + 1 + value.len();
                    tokens.diagnostics.push(
                        Diagnostic::warning(codes::W_PRESET_UNTERMINATED, "the closing quote is missing")
                            .with_primary(self.span(at, stop), "read to the end of the line"),
                    );
                    (self.token(at, stop, value, true), end)
                }
            }
        } else {
            let stop = rest.find(is_blank).map_or(end, |i| at + i);
            (self.token(at, stop, &self.text[at..stop], false), stop)
        };
        let junk_start = self.skip_blanks(after, end);
        let tail = &self.text[junk_start..end];
        if junk_start < end && !tail.starts_with("//") && !tail.starts_with('#') {
            let junk = self.text[junk_start..end].trim_end_matches(is_blank);
            let mut d =
                Diagnostic::warning(codes::W_PRESET_TRAILING, format!("text after the value is ignored: `{junk}`"))
                    .with_primary(self.span(junk_start, junk_start + junk.len()), "ignored")
                    .with_secondary(token.span, "the value");
            if !token.quoted {
                d = d.with_note(format!("RetroArch reads only `{}`; quote a value that contains blanks", token.text));
            }
            tokens.diagnostics.push(d);
        }
        token
    }

    /// A line starting with `#`; `rest` follows the `#`.
    fn directive(&self, rest: &str, tokens: &mut Tokens) {
        let word = if rest.starts_with("reference") {
            "reference"
        } else if rest.starts_with("include") {
            "include"
        } else {
            return;
        };
        let directive = self.token(self.start, self.start + 1 + word.len(), &format!("#{word}"), false);
        let after = self.start + 1 + word.len();
        if !self.text[after..self.end].starts_with(' ') {
            let at_end = self.skip_blanks(after, self.end) == self.end;
            if at_end || self.text[after..self.end].starts_with(is_blank) {
                tokens.diagnostics.push(
                    Diagnostic::warning(codes::W_PRESET_DIRECTIVE, format!("`#{word}` without a path is a comment"))
                        .with_primary(directive.span, "")
                        .with_note(format!("write `#{word} \"path\"` (one space after `#{word}`)")),
                );
            }
            // Otherwise a comment such as `#referenced ...`.
            return;
        }
        let value_start = self.skip_blanks(after, self.end);
        if value_start == self.end {
            tokens.diagnostics.push(
                Diagnostic::warning(codes::W_PRESET_DIRECTIVE, format!("`#{word}` without a path; ignored"))
                    .with_primary(directive.span, ""),
            );
            return;
        }
        let path = self.value(value_start, self.end, tokens);
        if path.text.is_empty() {
            tokens.diagnostics.push(
                Diagnostic::warning(codes::W_PRESET_DIRECTIVE, format!("`#{word}` with an empty path; ignored"))
                    .with_primary(directive.span.to(path.span), ""),
            );
            return;
        }
        tokens.items.push(if word == "reference" {
            Item::Reference { directive, path }
        } else {
            Item::Include { directive, path }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Vec<(String, String, bool)> {
        tokenize(FileId(0), text)
            .items
            .into_iter()
            .filter_map(|i| match i {
                Item::Entry { key, value } => Some((key.text, value.text, value.quoted)),
                _ => None,
            })
            .collect()
    }

    fn codes_of(text: &str) -> Vec<&'static str> {
        tokenize(FileId(0), text).diagnostics.iter().map(|d| d.code).collect()
    }

    fn e(k: &str, v: &str, q: bool) -> (String, String, bool) {
        (k.to_owned(), v.to_owned(), q)
    }

    #[test]
    fn quoted_and_unquoted_values() {
        let t = "shaders = 2\nshader0 = \"a b/c.cg\"\nshader1=x\nalias0 =  \"\"\n";
        assert_eq!(entries(t), [e("shaders", "2", false), e("shader0", "a b/c.cg", true), e("alias0", "", true)]);
        assert_eq!(codes_of(t), [codes::W_PRESET_SYNTAX], "`shader1=x` has no blank before `=`");
    }

    #[test]
    fn spans_rows_and_columns() {
        let t = "# c\n\n  shaders   =   \"3\"\r\n";
        let toks = tokenize(FileId(7), t);
        let Some(Item::Entry { key, value }) = toks.items.first() else { panic!("no entry: {toks:?}") };
        assert_eq!((key.row, key.col, value.row, value.col), (3, 3, 3, 17));
        assert_eq!(&t[key.span.start as usize..key.span.end as usize], "shaders");
        assert_eq!(&t[value.span.start as usize..value.span.end as usize], "\"3\"");
        assert_eq!(value.span.file, FileId(7));
        assert!(toks.diagnostics.is_empty());
    }

    #[test]
    fn comments_crlf_bom_and_blank_lines() {
        let t = "\u{feff}shaders = 1\r\n\r\n# shader0 = no.cg\r\nshader0 = a.cg # trailing\r\nfilter_linear0 = \"tr#ue\"\r\n// c++ style\r\n   \r\n";
        assert_eq!(
            entries(t),
            [e("shaders", "1", false), e("shader0", "a.cg", false), e("filter_linear0", "tr#ue", true)]
        );
        assert_eq!(codes_of(t), [codes::W_PRESET_BOM]);
        let toks = tokenize(FileId(0), t);
        let Some(Item::Entry { key, .. }) = toks.items.first() else { panic!() };
        assert_eq!((key.row, key.col, key.span.start), (1, 2, 3), "the BOM is one column");
    }

    #[test]
    fn hash_cuts_unquoted_values_like_retroarch() {
        assert_eq!(entries("alias0 = foo#bar\n"), [e("alias0", "foo", false)]);
        assert_eq!(entries("a = \"x\" # \"#\"\n"), [e("a", "x", true)]);
    }

    #[test]
    fn trailing_junk_and_unterminated_quotes() {
        let t = "alias0 = my pass\nshader0 = \"a.cg\" junk\nshader1 = b.cg // comment\nshader2 = \"c.cg  \n";
        assert_eq!(
            entries(t),
            [
                e("alias0", "my", false),
                e("shader0", "a.cg", true),
                e("shader1", "b.cg", false),
                e("shader2", "c.cg", true)
            ]
        );
        assert_eq!(codes_of(t), [codes::W_PRESET_TRAILING, codes::W_PRESET_TRAILING, codes::W_PRESET_UNTERMINATED]);
    }

    #[test]
    fn lines_without_equals() {
        let t = "/* \nPhosphorLUT v3.0\nshader0 \"a.cg\"\n= 3\nkey= 3\n";
        assert!(entries(t).is_empty());
        // `/*`, `PhosphorLUT v3.0` and `shader0 "a.cg"` form one run; `= 3` and `key= 3` two more.
        assert_eq!(codes_of(t), [codes::W_PRESET_SYNTAX; 3]);
        let toks = tokenize(FileId(0), "a = 1\n/*\n\nprose\n*/\nb = 2\nc\n");
        let msgs: Vec<_> = toks.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs[0].starts_with("3 lines without `=`"), "{msgs:?}");
        assert_eq!(entries("key =\n"), [e("key", "", false)], "an empty value is a value");
    }

    #[test]
    fn directives() {
        let t = "#reference \"../a b.cgp\"\n#reference c.cgp\n#include \"d.cfg\"\n#references are fun\n#reference\n  #reference x\n";
        let toks = tokenize(FileId(0), t);
        let refs: Vec<_> = toks
            .items
            .iter()
            .map(|i| match i {
                Item::Reference { path, .. } => format!("ref {}", path.text),
                Item::Include { path, .. } => format!("inc {}", path.text),
                Item::Entry { key, .. } => format!("entry {}", key.text),
            })
            .collect();
        assert_eq!(refs, ["ref ../a b.cgp", "ref c.cgp", "inc d.cfg"]);
        let codes: Vec<_> = toks.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [codes::W_PRESET_DIRECTIVE, codes::W_PRESET_DIRECTIVE]);
    }

    #[test]
    fn never_panics_on_odd_input() {
        for t in [
            "",
            "\n",
            "\r",
            "#",
            "\"",
            "=",
            "a",
            "a =",
            "a = \"",
            "\u{feff}",
            "\u{feff}#reference ",
            "é = \"ü",
            "x = y\u{0}z\r\r\n",
        ] {
            let _ = tokenize(FileId(0), t);
        }
        let bytes: Vec<u8> = (0u8..=255).cycle().take(4096).collect();
        let _ = tokenize(FileId(0), &String::from_utf8_lossy(&bytes));
    }
}
