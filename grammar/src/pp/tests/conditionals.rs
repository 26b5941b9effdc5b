//! Conditional inclusion.

use super::{expands, pp};

#[test]
fn if_elif_else_chain_takes_the_first_true_group() {
    let src = |n: u32| {
        format!("#define N {n}\n#if N == 1\none\n#elif N == 2\ntwo\n#elif N >= 2\nmany\n#else\nnone\n#endif\n")
    };
    expands(&src(1), "one");
    expands(&src(2), "two");
    expands(&src(3), "many");
    expands(&src(0), "none");
}

#[test]
fn ifdef_and_ifndef() {
    expands("#define X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif\n#ifdef Y\nc\n#else\nd\n#endif\n", "a d");
}

#[test]
fn defined_forms() {
    expands("#define X 0\n#if defined X && defined(X) && !defined Y && !defined ( Y )\nyes\n#endif\n", "yes");
    // The operand of `defined` is not expanded, even when `defined` comes from a macro.
    expands("#define X Y\n#define D defined(X)\n#if D && defined X\nyes\n#endif\n", "yes");
    expands("#if defined __LINE__ && defined(__FILE__)\nbuiltin\n#endif\n", "builtin");
}

#[test]
fn unsigned_arithmetic_in_if() {
    expands("#if -1 > 0u\nunsigned\n#else\nsigned\n#endif\n", "unsigned");
    expands("#if -1 > 0\nwrong\n#else\nsigned\n#endif\n", "signed");
}

#[test]
fn unselected_operands_are_not_evaluated() {
    expands("#if 1 ? 2 : (1/0)\nok\n#endif\n#if 0 && 1/0\nno\n#else\nok2\n#endif\n", "ok ok2");
}

#[test]
fn precedence_in_if() {
    expands("#if 1 + 2 * 3 == 7 && (1 << 2 | 1) == 5 && !(2 > 3)\nok\n#endif\n", "ok");
}

#[test]
fn remaining_identifiers_are_zero_and_macros_expand() {
    expands("#if UNDEFINED == 0 && !UNDEFINED\nzero\n#endif\n", "zero");
    expands("#define MAX(a, b) ((a) > (b) ? (a) : (b))\n#if MAX(1, 3) == 3\nmax\n#endif\n", "max");
    expands("#define VIEW 2\n#define SPLIT 2\n#if(VIEW == SPLIT)\nsplit\n#endif\n", "split");
}

#[test]
fn elif_after_a_taken_group_is_not_evaluated() {
    expands("#if 1\na\n#elif 1/0\nb\n#elif garbage (\nc\n#else\nd\n#endif\n", "a");
}

#[test]
fn skipped_groups_only_track_nesting() {
    let src = "#if 0\n#foo bar\n#if garbage (\n#else\n#else\n#endif\n#error not reached\ndon't \"x\n#elif 1/0\n#endif\n#if 0\n#elif 1\nok\n#endif\n";
    let r = pp(src);
    assert_eq!(r.codes(), ["E0115"], "{}", r.short());
    assert_eq!(r.text(), "ok");
    // The `#elif 1/0` is evaluated (no group was taken yet) and reports the division.
    assert_eq!(r.place(&r.diags[0]), "main.cg:9:8");
}

#[test]
fn char_constants_in_if() {
    expands("#if 'A' == 65 && '\\n' == 10\nchars\n#endif\n", "chars");
}

#[test]
fn extra_tokens_after_endif_warn() {
    let r = pp("#ifdef X Y\n#else junk\n#endif X\n");
    assert_eq!(r.codes(), ["W0103", "W0103", "W0103"]);
}
