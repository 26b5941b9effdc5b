//! Bad input: each problem gives one clear diagnostic at the right place, no panic.

use super::{pp, run_with};
use crate::pp::PpOptions;
use crate::source::MemoryFs;

#[test]
fn unterminated_conditional_points_at_the_opening_if() {
    let r = pp("a\n#ifdef X\n#if 1\nb\n#endif\n");
    let d = r.single();
    assert_eq!(d.code, "E0107");
    assert_eq!(r.place(d), "main.cg:2:1");
}

#[test]
fn stray_conditional_directives() {
    for (src, word) in [("#endif\n", "#endif"), ("#else\n", "#else"), ("#elif 1\n", "#elif")] {
        let r = pp(src);
        let d = r.single();
        assert_eq!(d.code, "E0108", "{src}");
        assert!(d.message.contains(word), "{}", d.message);
    }
}

#[test]
fn else_after_else() {
    let r = pp("#if 1\na\n#else\nb\n#else\nc\n#endif\n");
    let d = r.single();
    assert_eq!(d.code, "E0109");
    assert_eq!(r.place(d), "main.cg:5:1");
    assert_eq!(r.text(), "a");
    let r = pp("#if 0\na\n#else\nb\n#elif 1\nc\n#endif\n");
    assert_eq!(r.codes(), ["E0109"]);
    assert_eq!(r.text(), "b");
}

#[test]
fn arity_mismatch_names_counts_and_definition() {
    let r = pp("#define two(a, b) a b\nx two(1) y\n");
    let d = r.single();
    assert_eq!(d.code, "E0110");
    assert!(d.message.contains("takes 2 arguments, but 1 was given"), "{}", d.message);
    assert_eq!(r.place(d), "main.cg:2:3");
    assert!(d.labels.iter().any(|l| !l.primary && r.sources.location(l.span).line == 1));
    assert_eq!(r.text(), "x two y");
    let r = pp("#define none() 0\n#define v(a, ...) a\nnone(1) v()\n");
    assert_eq!(r.codes(), ["E0110"], "v() passes one empty argument: fine");
}

#[test]
fn unterminated_invocation_at_end_of_file() {
    let r = pp("#define f(x) x\na f(1, (2)\n");
    let d = r.single();
    assert_eq!(d.code, "E0111");
    assert_eq!(r.place(d), "main.cg:2:3");
    assert_eq!(r.text(), "a f");
}

#[test]
fn unterminated_invocation_inside_an_argument() {
    let r = pp("#define g(x) x\n#define h f(\n#define f(x) x\ng(h 1))\n");
    assert_eq!(r.codes(), ["E0111"], "{}", r.short());
}

#[test]
fn invocations_cannot_span_the_end_of_an_included_file() {
    let fs = MemoryFs::new().with("main.cg", "#define f(x) x\n#include \"h.h\"\n1)\n").with("h.h", "f(\n");
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert_eq!(r.codes(), ["E0111"]);
    assert_eq!(r.place(&r.diags[0]), "h.h:1:1");
}

#[test]
fn error_and_warning_directives() {
    let r = pp("#warning careful: don't\n#error stop \\\n here\n#if 0\n#error skipped\n#endif\n");
    assert_eq!(r.codes(), ["W0105", "E0113"], "{}", r.short());
    assert_eq!(r.diags[0].message, "#warning careful: don't");
    assert_eq!(r.diags[1].message, "#error stop  here");
    assert_eq!(r.place(&r.diags[1]), "main.cg:2:1");
}

#[test]
fn line_directive_keeps_diagnostics_on_real_lines() {
    let r = pp("#line 500 \"fake.cg\"\n#error here\n");
    assert_eq!(r.place(r.single()), "main.cg:2:1");
}

#[test]
fn unknown_and_null_directives() {
    let r = pp("#\n# \n#foo bar\n#if 0\n#bar\n#endif\n");
    let d = r.single();
    assert_eq!(d.code, "E0116");
    assert!(d.message.contains("#foo"));
    assert_eq!(r.place(d), "main.cg:3:1");
}

#[test]
fn malformed_directives() {
    for src in [
        "#define\n",
        "#define 3 x\n",
        "#define defined 1\n",
        "#define f(a, a) a\n",
        "#define f(a b) a\n",
        "#define f(a\n",
        "#define f(...x) a\n",
        "#define p(a) ## a\n",
        "#define p(a) a ##\n",
        "#undef\n",
        "#undef 1\n",
        "#include\n",
        "#include nothing\n",
        "#include <unclosed\n",
        "#include \"\"\n",
        "#line\n",
        "#line x\n",
        "#line 1 2\n",
        "#ifdef 3\n#endif\n",
    ] {
        let r = pp(src);
        assert_eq!(r.codes(), ["E0114"], "{src:?}:\n{}", r.short());
    }
}

#[test]
fn stringize_needs_a_parameter() {
    let r = pp("#define s(x) #y\n#define o #y\n");
    assert_eq!(r.codes(), ["E0119"], "object-like `#` is an ordinary token");
}

#[test]
fn bad_conditions() {
    for src in ["#if 1/0\n#endif\n", "#if\n#endif\n", "#if (1\n#endif\n", "#if 1.0\n#endif\n", "#if 1 +\n#endif\n"] {
        let r = pp(src);
        assert_eq!(r.codes(), ["E0115"], "{src:?}:\n{}", r.short());
    }
    for src in ["#if defined\n#endif\n", "#if defined(X\n#endif\n", "#if defined 3\n#endif\n"] {
        let r = pp(src);
        assert_eq!(r.codes(), ["E0120"], "{src:?}:\n{}", r.short());
    }
}

#[test]
fn invalid_paste_keeps_tokens_and_maps_to_the_invocation() {
    let r = pp("#define cat(a, b) a ## b\nx = cat(+, /);\n");
    let d = r.single();
    assert_eq!(d.code, "E0117");
    // The `##` is in the #define; the diagnostic lands on the user's invocation.
    assert_eq!(r.place(d), "main.cg:2:5");
    let span = d.primary_span().expect("has a primary label");
    assert!(span.expansion.is_some());
    assert_eq!(r.sources.location(span).line, 1, "spelled in the definition");
    assert_eq!(r.text(), "x = + / ;");
    let r = pp("#define cat(a, b) a ## b\ncat(/, /) cat(., .)\n");
    assert_eq!(r.codes(), ["E0117", "E0117"]);
}

#[test]
fn condition_error_inside_a_macro_maps_to_its_use() {
    let r = pp("#define DIV 1 / 0\n#if 1 && DIV\n#endif\n");
    let d = r.single();
    assert_eq!(d.code, "E0115");
    assert_eq!(r.place(d), "main.cg:2:10");
    let rendered = crate::diagnostic::render_plain(&r.sources, &r.diags);
    assert!(rendered.contains("in expansion of macro `DIV`"), "{rendered}");
}

#[test]
fn lexical_errors_are_reported_in_text_only() {
    let r = pp("a @ b\n#if 0\n@ 'x\n#endif\n#pragma x 'y\n");
    assert_eq!(r.codes(), ["E0101"]);
    assert_eq!(r.place(&r.diags[0]), "main.cg:1:3");
}
