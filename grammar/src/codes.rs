//! Stable diagnostic codes of the front end.
//!
//! A code never changes meaning once released: tests, reports and users' scripts match
//! on it. `E01xx` are preprocessing errors, `E02xx` parse errors, `W01xx`/`W02xx` the
//! matching warnings. Later stages (sema, porting, validation) own their own ranges in
//! their crates. This module holds constants only.

// ---- lexing and preprocessing ----
/// A byte sequence that is no Cg token.
pub const E_INVALID_CHARACTER: &str = "E0101";
/// `/*` without `*/`.
pub const E_UNTERMINATED_COMMENT: &str = "E0102";
/// A string or character literal not closed on its line.
pub const E_UNTERMINATED_LITERAL: &str = "E0103";
/// `#include` names a file found neither beside the includer nor on an `-I` path.
pub const E_INCLUDE_NOT_FOUND: &str = "E0104";
/// A file includes itself, directly or through others.
pub const E_INCLUDE_CYCLE: &str = "E0105";
/// Includes nested deeper than the limit (64).
pub const E_INCLUDE_DEPTH: &str = "E0106";
/// `#if`/`#ifdef`/`#ifndef` without a matching `#endif` at the end of the file.
pub const E_UNTERMINATED_CONDITIONAL: &str = "E0107";
/// `#else`, `#elif` or `#endif` without an open `#if`.
pub const E_STRAY_CONDITIONAL: &str = "E0108";
/// `#elif` or `#else` after `#else`.
pub const E_ELSE_AFTER_ELSE: &str = "E0109";
/// A function-like macro invoked with the wrong number of arguments.
pub const E_MACRO_ARITY: &str = "E0110";
/// A function-like macro invocation whose `)` never comes.
pub const E_UNTERMINATED_MACRO_CALL: &str = "E0111";
/// Macro expansion produced more tokens than the expansion budget allows.
pub const E_EXPANSION_BUDGET: &str = "E0112";
/// An `#error` directive was reached.
pub const E_ERROR_DIRECTIVE: &str = "E0113";
/// A directive with malformed syntax (`#define` without a name, `#include` without a file, ...).
pub const E_MALFORMED_DIRECTIVE: &str = "E0114";
/// An `#if`/`#elif` expression that is not a valid integer constant expression.
pub const E_BAD_CONDITION: &str = "E0115";
/// An unknown directive name such as `#foo`.
pub const E_UNKNOWN_DIRECTIVE: &str = "E0116";
/// `##` whose result is not one valid token.
pub const E_INVALID_PASTE: &str = "E0117";
/// A file that could not be read.
pub const E_IO: &str = "E0118";
/// `#` in a function-like macro not followed by a parameter name.
pub const E_STRINGIZE_NOT_PARAM: &str = "E0119";
/// `defined` used without an identifier, or other misuse inside `#if`.
pub const E_BAD_DEFINED: &str = "E0120";
/// A path that is a directory, FIFO, socket or device where a file was expected.
pub const E_NOT_REGULAR_FILE: &str = "E0121";
/// A file larger than the size limit for its kind (`source::MAX_SOURCE_BYTES` for text).
pub const E_FILE_TOO_LARGE: &str = "E0122";

/// File bytes that are not UTF-8 (replaced with U+FFFD; comments in old shaders often are Latin-1).
pub const W_NOT_UTF8: &str = "W0101";
/// A macro redefined with a different body.
pub const W_MACRO_REDEFINED: &str = "W0102";
/// Extra tokens after a directive that takes none (`#endif FOO`).
pub const W_EXTRA_TOKENS: &str = "W0103";
/// `#undef` of a name that is not defined, or similar harmless oddities.
pub const W_PP_NOTE: &str = "W0104";

// ---- parsing ----
/// A token the grammar does not allow here.
pub const E_UNEXPECTED_TOKEN: &str = "E0201";
/// The file ended in the middle of a construct.
pub const E_UNEXPECTED_EOF: &str = "E0202";
/// A numeric literal that is malformed or out of range.
pub const E_BAD_LITERAL: &str = "E0203";
/// Brackets, parentheses or braces nested deeper than the parser's limit.
pub const E_NESTING_TOO_DEEP: &str = "E0204";
/// A reserved word used as a name.
pub const E_RESERVED_WORD: &str = "E0205";
/// A declaration that parses but is not well formed (e.g. two storage classes that exclude each other).
pub const E_BAD_DECLARATION: &str = "E0206";
/// A matrix swizzle or member name that is malformed.
pub const E_BAD_SWIZZLE_SYNTAX: &str = "E0207";

/// Preprocessing: a `#warning` directive was reached.
pub const W_WARNING_DIRECTIVE: &str = "W0105";
/// A declaration whose type is neither built in nor declared (`vec2 p;`); reported once per name.
pub const E_UNKNOWN_TYPE_NAME: &str = "E0208";
