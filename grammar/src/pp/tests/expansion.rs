//! Macro expansion: C's rules, each test able to fail if the rule were wrong.

use super::{expands, norm, pp, run_with};
use crate::lexer::TokenKind;
use crate::pp::{PpOptions, Preprocessed};
use crate::source::{decode, normalize, FileKind, FileSystem, MemoryFs, SourceMap, Span};
use std::path::Path;

#[test]
fn object_like_macro() {
    expands("#define N 3\nint a = N;\n", "int a = 3;");
}

#[test]
fn self_reference_is_not_expanded_again() {
    expands("#define foo foo\nfoo\n", "foo");
    expands("#define foo a foo b\nfoo\n", "a foo b");
}

#[test]
fn mutual_recursion_terminates() {
    expands("#define a b\n#define b a\na b\n", "a b");
    expands("#define a x b\n#define b y a\na | b\n", "x y a | y x b");
}

#[test]
fn painted_token_stays_painted_after_its_expansion() {
    // `f(f)`: the inner `f` is found while rescanning f's replacement, so it is
    // painted and not invoked by the `(1)` that follows the expansion.
    expands("#define f(x) x\nf(f)(1)\n", "f(1)");
}

#[test]
fn c_standard_6_10_3_5_example_3() {
    let src = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    let expected = r#"f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };"#;
    expands(src, expected);
}

#[test]
fn c_standard_6_10_3_5_example_4_stringizing_and_pasting() {
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: x), s);
#include xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let fs = MemoryFs::new().with("main.cg", src).with("vers2.h", "from_vers2\n");
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert!(r.diags.is_empty(), "{}", r.short());
    let expected = r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": x", s);
from_vers2
"hello";
"hello" ", world""#;
    assert_eq!(r.text(), norm(expected));
}

#[test]
fn c_standard_6_10_3_5_example_5_placemarkers() {
    expands(
        "#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n t(10,,), t(,11,), t(,,12), t(,,) };\n",
        "int j[] = { 123, 45, 67, 89, 10, 11, 12, };",
    );
}

#[test]
fn c_standard_6_10_3_5_example_7_variadic() {
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let expected = r#"fprintf(stderr, "Flag");
fprintf(stderr, "X = %d\n", x);
puts("The first, second, and third items.");
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#;
    expands(src, expected);
}

#[test]
fn gnu_comma_paste_drops_comma_before_empty_va_args() {
    expands("#define e(fmt, ...) f(fmt, ## __VA_ARGS__)\ne(1) e(1, 2, 3)\n", "f(1) f(1, 2, 3)");
}

#[test]
fn result_is_rescanned_with_following_tokens() {
    expands("#define f(x) g\n#define g(y) y+1\nf(1)(2)\n", "2+1");
    // The standard's `f(2)(9)`: `g` takes its `(` from beyond f's expansion.
    expands("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n", "2*9*g");
}

#[test]
fn function_like_name_without_parenthesis_is_not_invoked() {
    expands("#define f(x) [x]\nint f; f (2) f\n", "int f; [2] f");
    expands("#define f(x) [x]\nf\n(3)\n", "[3]");
}

#[test]
fn space_before_parenthesis_makes_object_like() {
    expands("#define F (x)\n#define G(x) <x>\nF(1) G(1)\n", "(x)(1) <1>");
}

#[test]
fn empty_arguments() {
    expands("#define e(x) [x]\n#define two(a, b) a|b\ne() two(,) two( , 1)\n", "[] | |1");
    expands("#define z() zero\nz() z( )\n", "zero zero");
}

#[test]
fn parentheses_and_commas_in_arguments() {
    expands("#define first(a, b) a\nfirst((1, 2), 3) first(f(x, y), [z])\n", "(1, 2) f(x, y)");
}

#[test]
fn arguments_are_expanded_except_as_operands_of_hash() {
    expands("#define str(x) #x\n#define xstr(x) str(x)\n#define N 42\nstr(N) xstr(N)\n", r#""N" "42""#);
    expands("#define cat(a, b) a ## b\n#define N 42\n#define NN no\ncat(N, N)\n", "no");
}

#[test]
fn stringizing_collapses_spaces_and_escapes_literals() {
    let r = pp("#define s(x) #x\ns(  a   \"b\\n\"  'c' )\ns(a\n   b) s( /* c */ x /* c */ ) s('\"' \"\\\\\")\n");
    assert!(r.diags.is_empty(), "{}", r.short());
    let texts: Vec<&str> = r.out.tokens.iter().map(|t| r.sources.text(t.span)).collect();
    assert_eq!(texts, [r#""a \"b\\n\" 'c'""#, r#""a b""#, r#""x""#, r#""'\"' \"\\\\\"""#]);
    assert!(r.out.tokens.iter().all(|t| t.kind == TokenKind::StringLit));
}

#[test]
fn paste_then_rescan() {
    expands("#define cat(a, b) a ## b\n#define xy 7\ncat(x, y) cat(1, 2) cat(0x, 1F) cat(., 5)\n", "7 12 0x1F .5");
    expands("#define cat(a, b) a ## b\n#define fn(x) [x]\ncat(f, n)(1)\n", "[1]");
    let r = super::pp("#define cat(a, b) a ## b\ncat(<, <)= cat(-, >) cat(#, #) cat(<<, =)\n");
    let kinds: Vec<TokenKind> = r.out.tokens.iter().map(|t| t.kind).collect();
    use TokenKind::*;
    assert_eq!(kinds, [Shl, Eq, Arrow, HashHash, ShlEq], "{}", r.text());
}

#[test]
fn pasted_and_stringized_tokens_are_spelled_in_scratch_with_their_expansion() {
    let r = pp("#define cat(a, b) a ## b\n#define s(x) #x\ncat(ab, cd) s(q)\n");
    assert_eq!(r.text(), "abcd \"q\"");
    for t in &r.out.tokens {
        assert_eq!(r.sources.file(t.span.file).kind, FileKind::Scratch);
        let e = t.span.expansion.expect("made by an expansion");
        let user = r.sources.user_span(t.span);
        assert_eq!(r.sources.file(user.file).kind, FileKind::Real);
        assert!(["cat", "s"].contains(&r.sources.expansion(e).macro_name.as_str()));
    }
    assert_eq!(r.out.tokens[0].kind, TokenKind::Ident);
}

#[test]
fn tokens_keep_their_origin() {
    let src = "#define ADD(a, b) a + b\nx = ADD(one, two);\n";
    let r = pp(src);
    assert_eq!(r.text(), "x = one + two ;");
    let toks = &r.out.tokens;
    // Argument tokens: spelled where the user wrote them, no expansion.
    let one = toks[2];
    assert_eq!(one.span.expansion, None);
    assert_eq!(one.span.start as usize, src.find("one").expect("in source"));
    // Replacement tokens: spelled in the #define, inside the ADD expansion.
    let plus = toks[3];
    assert_eq!(plus.span.start as usize, src.find('+').expect("in source"));
    let e = r.sources.expansion(plus.span.expansion.expect("from ADD"));
    assert_eq!(e.macro_name, "ADD");
    assert_eq!(r.sources.text(e.call_site), "ADD(one, two)");
    assert_eq!(r.sources.text(e.definition), "ADD");
    assert_eq!(e.parent, None);
    // Diagnostics on the `+` map to the invocation.
    let user = r.sources.user_span(plus.span);
    assert_eq!(r.sources.text(Span { expansion: None, ..user }), "ADD(one, two)");
}

#[test]
fn expansion_chain_records_parents() {
    let r = pp("#define A B + 1\n#define B 2\nA\n");
    assert_eq!(r.text(), "2 + 1");
    let names: Vec<&str> =
        r.sources.expansion_chain(r.out.tokens[0].span).iter().map(|e| e.macro_name.as_str()).collect();
    assert_eq!(names, ["B", "A"]);
    let b = r.sources.expansion(r.out.tokens[0].span.expansion.expect("from B"));
    assert_eq!(r.sources.text(b.call_site), "B");
    assert!(b.call_site.expansion.is_some(), "B was invoked from inside A");
    assert_eq!(r.sources.location(r.sources.user_span(r.out.tokens[0].span)).line, 3);
}

#[test]
fn leading_space_of_expansion_follows_the_invocation() {
    let r = pp("#define E x y\n(E) ( E)\n");
    let spaces: Vec<bool> = r.out.tokens.iter().map(|t| t.leading_space).collect();
    assert_eq!(r.text(), "( x y ) ( x y )");
    assert_eq!(spaces[1..4], [false, true, false]);
    assert_eq!(spaces[5..8], [true, true, false]);
    // ...which stringizing through a second macro relies on.
    expands("#define s(x) #x\n#define xs(x) s(x)\n#define E a   b\nxs([E]) xs( E )\n", r#""[a b]" "a b""#);
}

#[test]
fn no_newlines_in_output() {
    let r = pp("a\n\nb\n#define X\nc X\n");
    assert_eq!(r.text(), "a b c");
    assert!(r.out.tokens.iter().all(|t| t.kind != TokenKind::Newline));
}

#[test]
fn line_is_that_of_the_outermost_invocation() {
    expands("#define id(x) x\nid(a\n__LINE__\n)\n__LINE__\n#define L __LINE__\nL\n", "a 2 5 7");
}

#[test]
fn file_and_line_directive() {
    expands(
        "__FILE__ __LINE__\n#line 100 \"other.cg\"\n__LINE__ __FILE__\n__LINE__\n",
        r#""main.cg" 1 100 "other.cg" 101"#,
    );
    expands("#define N 20\n#line N\n__LINE__\n", "20");
}

#[test]
fn arguments_spanning_lines_and_directives() {
    expands("#define f(x) [x]\nf(1\n#ifdef NOPE\n2\n#else\n3\n#endif\n)\n", "[1 3]");
}

#[test]
fn nested_invocations_in_arguments() {
    expands("#define f(x) (x)\n#define g(x, y) x y\ng(f(f(1)), f(g(2, 3)))\n", "((1)) (2 3)");
}

#[test]
fn command_line_definitions() {
    let fs = MemoryFs::new().with("main.cg", "#ifdef PARAMETER_UNIFORM\nuniform\n#endif\nN F(2)\n");
    let options = PpOptions {
        defines: vec![
            ("PARAMETER_UNIFORM".into(), None),
            ("N".into(), Some("3".into())),
            ("F(x)".into(), Some("x+1".into())),
        ],
        ..PpOptions::default()
    };
    let r = run_with(&fs, "main.cg", &options);
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "uniform 3 2 + 1");
    let e = r.sources.expansion(r.out.tokens[1].span.expansion.expect("from N"));
    assert_eq!(r.sources.file(e.definition.file).kind, FileKind::CommandLine);
    assert_eq!(r.out.files.len(), 1, "the command line is not a file read");
}

#[test]
fn redefinition_with_the_same_body_is_silent() {
    let r = pp("#define A 1 +  2\n#define A 1 /* */ + 2\n#define A 1+2\n");
    assert_eq!(r.codes(), ["W0102"]);
}

#[test]
fn undef_removes() {
    expands("#define A 1\n#undef A\nA\n#undef NEVER_DEFINED\n", "A");
}

#[test]
fn pragmas_are_kept_verbatim_and_unexpanded() {
    let r = pp("#define parameter oops\na\n#pragma parameter GAMMA \"Gamma\" 2.2 1.0 \\\n 3.0 0.1 // note\nb\n#if 0\n#pragma skipped\n#endif\n#pragma once\n");
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "a b");
    assert_eq!(r.out.pragmas.len(), 1);
    let p = &r.out.pragmas[0];
    assert_eq!(p.text, "#pragma parameter GAMMA \"Gamma\" 2.2 1.0  3.0 0.1");
    assert_eq!(p.token_index, 1);
    assert_eq!(r.sources.location(p.span).line, 3);
}

#[test]
fn the_directives_only_walk_keeps_the_same_pragmas() {
    let fs = MemoryFs::new()
        .with(
            "main.cg",
            "#define LEVEL 2\n#define TWICE(x) ((x) * 2)\nfloat a = TWICE(\n  LEVEL);\n\
             #if TWICE(LEVEL) > 3\n#pragma parameter BIG \"Big\" 1.0 0.0 2.0 0.1\n#else\n#pragma parameter SMALL \"Small\" 1.0 0.0 2.0 0.1\n#endif\n\
             #ifdef ALIAS_ALIAS\n#include \"alias.h\"\n#endif\n#include \"common.h\"\n#undef LEVEL\n#if defined(LEVEL)\n#pragma never\n#endif\n",
        )
        .with("alias.h", "#pragma parameter ALIASED \"Aliased\" 0.5 0.0 1.0 0.1\n")
        .with("common.h", "#pragma once\n#ifndef COMMON\n#define COMMON\nfloat c;\n#pragma parameter COMMON_P \"Common\" 0.0 0.0 1.0 0.1\n#endif\n");
    for defines in [vec![], vec![("ALIAS_ALIAS".to_owned(), None)]] {
        let options = PpOptions { defines, ..PpOptions::default() };
        let full = run_with(&fs, "main.cg", &options);
        let mut sources = SourceMap::new();
        let (text, _) = decode(fs.read(Path::new("main.cg")).unwrap_or_default());
        let id = sources.add_file("main.cg", Some(normalize(Path::new("main.cg"))), text);
        let (walk, diags) = crate::pp::preprocess_directives(&mut sources, id, &options, &fs);
        assert!(full.diags.is_empty() && diags.is_empty(), "{}", full.short());
        let texts = |p: &Preprocessed| p.pragmas.iter().map(|p| p.text.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&walk), texts(&full.out));
        assert!(walk.tokens.is_empty() && walk.pragmas.iter().all(|p| p.token_index == 0));
        assert_eq!(walk.files.len(), full.out.files.len());
        assert!(texts(&walk).iter().any(|t| t.contains("BIG")) && !texts(&walk).iter().any(|t| t.contains("never")));
    }
}
