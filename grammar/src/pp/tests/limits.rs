//! Limits: expansion budget, deep nesting without stack overflow, linear time.

use super::{pp, run_with};
use crate::pp::PpOptions;
use crate::source::MemoryFs;
use std::fmt::Write;
use std::time::Instant;

#[test]
fn exponential_macros_stop_at_the_budget_with_one_error() {
    let mut src = String::from("#define a0 x x\n");
    for i in 1..40 {
        let _ = writeln!(src, "#define a{i} a{p} a{p}", p = i - 1);
    }
    src.push_str("a39\n#if a39\n#endif\nafter a1\n");
    let start = Instant::now();
    let r = pp(&src);
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    assert_eq!(r.codes(), ["E0112"], "{}", r.short());
    assert_eq!(r.place(&r.diags[0]), "main.cg:41:1");
    assert!(r.out.tokens.len() <= PpOptions::default().expansion_budget);
    assert!(r.text().ends_with("after a1"), "expansion is off after the error");
}

#[test]
fn small_budget_is_respected() {
    let fs = MemoryFs::new().with("main.cg", "#define A x x x x\n#define B A A A A\nB B B\n");
    let options = PpOptions { expansion_budget: 30, ..PpOptions::default() };
    let r = run_with(&fs, "main.cg", &options);
    assert_eq!(r.codes(), ["E0112"]);
    let r = run_with(&fs, "main.cg", &PpOptions { expansion_budget: 100, ..PpOptions::default() });
    assert!(r.diags.is_empty());
    assert_eq!(r.out.tokens.len(), 48);
}

#[test]
fn hundred_thousand_nested_parentheses_through_a_macro_argument() {
    let n = 100_000;
    let src = format!(
        "#define id(x) x\n#define s(x) #x\nid({}1{}) s({}{})\n",
        "(".repeat(n),
        ")".repeat(n),
        "(".repeat(n),
        ")".repeat(n)
    );
    let r = pp(&src);
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.out.tokens.len(), 2 * n + 2);
    let last = r.sources.text(r.out.tokens[2 * n + 1].span);
    assert_eq!(last.len(), 2 * n + 2);
}

#[test]
fn ten_thousand_nested_ifs() {
    let n = 10_000;
    let taken = format!("{}x\n{}", "#if 1\n".repeat(n), "#endif\n".repeat(n));
    let r = pp(&taken);
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "x");
    let skipped = format!("#if 0\n{}x\n{}#else\ny\n#endif\n", "#if 1\n".repeat(n), "#endif\n".repeat(n));
    let r = pp(&skipped);
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "y");
    let unterminated = "#if 1\n".repeat(n);
    assert_eq!(pp(&unterminated).diags.len(), n);
}

#[test]
fn long_macro_chains_and_nested_invocations_do_not_recurse() {
    let mut src = String::from("#define m0 end\n#define id(x) x\n");
    for i in 1..=20_000 {
        let _ = writeln!(src, "#define m{i} m{}", i - 1);
    }
    let depth = 1_000;
    let _ = writeln!(src, "m20000 {}1{}", "id(".repeat(depth), ")".repeat(depth));
    let r = pp(&src);
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "end 1");
}

#[test]
fn ten_megabytes_in_linear_time() {
    let line =
        "float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s) : COLOR { return tex2D(s, tex) * 0.5; }\n";
    let src = line.repeat(10 * 1024 * 1024 / line.len());
    let start = Instant::now();
    let r = pp(&src);
    let elapsed = start.elapsed();
    assert!(r.diags.is_empty());
    assert!(r.out.tokens.len() > 2_000_000);
    // Generous even for unoptimised builds; release builds take a small fraction.
    assert!(elapsed.as_secs() < 30, "took {elapsed:?}");
}
