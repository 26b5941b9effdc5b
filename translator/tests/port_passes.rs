//! Each IR rewrite of the porting pipeline (`port::pipeline::REWRITES`), run alone on a
//! small Cg program: the printed IR of the stage after the pass must contain the
//! expected forms (and lose the ones the pass replaces), and the IR validator must
//! accept what the pass left. The exact slang text of each rule is checked by
//! `port_rules.rs`; these tests pin where in the pipeline each rule is decided.

use grammar::{MemoryFs, PpOptions, SourceMap};
use std::borrow::Cow;
use translator::ir::{pretty, valid, Module, Stage};
use translator::port::naga_dialect;
use translator::port::pipeline::{StagePort, REWRITES};
use translator::port::semantics::{self, Binding};
use translator::retro::{CgTextureStruct, PassContext};
use translator::sema::{self, SemaOptions};

const HEADER: &str = "struct input { float2 video_size; float2 texture_size; float2 output_size; float frame_count; float frame_direction; float frame_rotation; };\n";

const VERTEX: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; }\n";

fn ctx() -> PassContext {
    PassContext { pass: 0, passes: 1, aliases: vec![String::new()], feedback_pass: None, luts: Vec::new() }
}

/// The stage `stage` of `src`, analysed.
fn analysed(src: &str, stage: Stage) -> Module {
    let mut sources = SourceMap::new();
    let parsed = grammar::parse_str(&mut sources, "pass.cg", src, &PpOptions::default(), &MemoryFs::new());
    let entry = match stage {
        Stage::Vertex => "main_vertex",
        Stage::Fragment => "main_fragment",
    };
    let (module, diags) = sema::analyze(&parsed.unit, &parsed.preprocessed.pragmas, &SemaOptions::new(entry, stage));
    assert!(!grammar::has_errors(&diags), "the test program must analyse: {diags:?}");
    module
}

/// Runs the rewrites before `pass` and then `pass` on one stage; returns the printed
/// IR before and after `pass` and the pass's diagnostics' messages. Asserts that the
/// validator accepts the result.
fn around(pass: &str, src: &str, stage: Stage) -> (String, String, Vec<String>) {
    let (before, after, port) = around_port(pass, src, stage);
    (before, after, port.diagnostics.iter().map(|d| d.message.clone()).collect())
}

/// [`around`], with what the stage's rewrites read and updated besides the module.
fn around_port(pass: &str, src: &str, stage: Stage) -> (String, String, StagePort) {
    let module = analysed(src, stage);
    let mut diags = Vec::new();
    let bindings = semantics::bind(&module, &ctx(), &[], &mut diags);
    let mut port = StagePort::new(stage, bindings);
    let mut current = Cow::Borrowed(&module);
    let position = REWRITES.iter().position(|(name, _)| *name == pass).expect("a pass of REWRITES");
    let mut before = String::new();
    for (i, (_, rewrite)) in REWRITES.iter().enumerate().take(position + 1) {
        if i == position {
            before = pretty::module(&current);
        }
        if let Cow::Owned(m) = rewrite(&current, &mut port) {
            current = Cow::Owned(m);
        }
    }
    let problems = valid::validate(&current);
    assert!(problems.is_empty(), "`{pass}` left ill-formed IR: {problems:?}\n{}", pretty::module(&current));
    (before, pretty::module(&current), port)
}

fn fragment(body: &str) -> String {
    format!("{HEADER}{VERTEX}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0, uniform input IN) : COLOR\n{{\n{body}\n}}\n")
}

/// Asserts that `text` has every one of `wanted` and none of `unwanted`.
fn check(text: &str, wanted: &[&str], unwanted: &[&str]) {
    for w in wanted {
        assert!(text.contains(w), "expected `{w}` in:\n{text}");
    }
    for u in unwanted {
        assert!(!text.contains(u), "did not expect `{u}` in:\n{text}");
    }
}

#[test]
fn texture_args_alias_copies_names_a_global_copy_of_a_texture_struct() {
    let src = format!(
        "{HEADER}{VERTEX}input IN_global;\nfloat4 main_fragment(float2 tex : TEXCOORD0, uniform input IN) : COLOR\n{{\nIN_global = IN;\nreturn float4(IN_global.video_size, 0.0, 1.0);\n}}\n"
    );
    let (before, after, port) = around_port("texture_args::alias_copies", &src, Stage::Fragment);
    check(&before, &["(assign:input (var IN_global:input) (var param#1:input))"], &[]);
    // The copy is gone, and the global is bound as another name of IN.
    check(&after, &["(field 0:float2 (var IN_global:input))"], &["(assign:input"]);
    let bound: Vec<&Binding> = port.bindings.globals.values().collect();
    assert_eq!(bound, [&Binding::TextureStruct(CgTextureStruct::Input)]);
}

#[test]
fn written_uniforms_become_locals_initialised_from_the_uniform() {
    let src = format!(
        "{HEADER}{VERTEX}float4 main_fragment(float2 tex : TEXCOORD0, uniform float gain) : COLOR\n{{\ngain = gain * 2.0;\nreturn float4(gain);\n}}\n"
    );
    let (before, after, _) = around("written_uniforms", &src, Stage::Fragment);
    check(&before, &["(assign:float (var param#1:float)"], &["local float"]);
    check(&after, &["local float", "(var param#1:float)"], &["(assign:float (var param#1:float)"]);
}

#[test]
fn texture_args_flatten_passes_the_members_a_helper_reads() {
    let src = format!(
        "{HEADER}{VERTEX}float2 scale(input I) {{ return I.video_size / I.texture_size; }}\nfloat4 main_fragment(float2 tex : TEXCOORD0, uniform input IN) : COLOR\n{{\nreturn float4(scale(IN), 0.0, 1.0);\n}}\n"
    );
    let (before, after, _) = around("texture_args::flatten", &src, Stage::Fragment);
    check(&before, &["(call scale#1:float2 (var param#1:input))"], &[]);
    // The helper takes the two members it reads, and the call passes them.
    check(
        &after,
        &["(field 0:float2 (var param#1:input)) (field 1:float2 (var param#1:input))"],
        &["(call scale#1:float2 (var param#1:input))"],
    );
}

#[test]
fn odd_matrices_become_vectors_and_their_products_dots() {
    let src = fragment(
        "float4x1 col = float4x1(tex.x, tex.y, 1.0, 0.5);\n\
         float1x4 row = float1x4(tex.y, tex.x, 0.25, 1.0);\n\
         float s = float(mul(row, col)) + col[2];\n\
         return float4(s);",
    );
    let (before, after, _) = around("odd_matrices", &src, Stage::Fragment);
    check(&before, &["local float4x1 col", "(builtin mul:float1x1"], &[]);
    check(
        &after,
        // A row of the column is an element of the vector, read as the float1 it was.
        &["local float4 col", "local float4 row", "(builtin dot:", "(splat:float1 (index:float (var local#0:float4)"],
        &["float4x1", "float1x4", "(builtin mul:float1x1"],
    );
}

#[test]
fn vertex_derivatives_are_zero() {
    let src = format!(
        "{HEADER}void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n\
         {{ oPosition = position; oTex = tex + ddx(tex); }}\nfloat4 main_fragment(float2 tex : TEXCOORD0) : COLOR {{ return float4(tex, 0.0, 1.0); }}\n"
    );
    let (before, after, _) = around("vertex_derivatives", &src, Stage::Vertex);
    check(&before, &["(builtin ddx:float2"], &[]);
    check(&after, &["(lit 0.0:float)"], &["ddx"]);
}

#[test]
fn runtime_values_replace_texture_struct_members_and_the_mvp() {
    let src = fragment(
        "float2 a = IN.video_size / IN.output_size; float t = IN.frame_count + IN.frame_rotation;\n\
         return float4(a, t, 1.0) * tex2D(s0, tex);",
    );
    let (before, after, diags) = around("runtime_values", &src, Stage::Fragment);
    check(&before, &["(field 0:float2 (var param#2:input))"], &[]);
    check(
        &after,
        &[
            "(runtime Uniform(Size(Source)):float2)",
            "(runtime Uniform(OutputSize):float2)",
            "(runtime Uniform(FrameCount):float)",
            "(runtime Zero:float)",
        ],
        &["(var param#2:input)"],
    );
    assert!(diags.is_empty(), "{diags:?}");
    let (_, vertex, _) = around("runtime_values", &src, Stage::Vertex);
    check(&vertex, &["(builtin mul:float4 (runtime Uniform(Mvp):float4x4)"], &["(var param#4:float4x4)"]);
}

#[test]
fn runtime_values_refuse_what_the_runtime_never_bound() {
    let src = format!(
        "struct input {{ float2 video_size; float2 tex_coord; float4 colour; }};\n{VERTEX}float4 main_fragment(float2 tex : TEXCOORD0, uniform input IN) : COLOR\n{{\nreturn float4(IN.tex_coord, IN.colour.xy);\n}}\n"
    );
    let (_, after, diags) = around("runtime_values", &src, Stage::Fragment);
    assert_eq!(
        diags,
        [
            "`.tex_coord` is a vertex attribute; it cannot be read in the fragment stage",
            "`IN.colour`: the RetroArch runtime bound no such member",
        ]
    );
    check(&after, &["(runtime Zero:float2)", "(runtime Zero:float4)"], &[]);
}

#[test]
fn eager_logic_keeps_both_operands_where_glsl_would_not() {
    let src = fragment(
        "float k = 0.0; bool a = tex.x > 0.5;\n\
         bool scalar = a && tex.y > 0.5;\n\
         bool effect = a && (k += 1.0) > 0.0;\n\
         bool2 v = bool2(a, !a) || bool2(tex > 0.25);\n\
         return float4(scalar, effect, v.x, k);",
    );
    let (before, after, _) = around("eager_logic", &src, Stage::Fragment);
    check(&before, &["(and:bool", "(or:bool2"], &["eager"]);
    // A side-effect-free scalar `&&` stays GLSL's; the others evaluate both sides.
    check(&after, &["(and:bool (var local#1:bool) (gt:bool", "(eager and:bool", "(eager or:bool2"], &["(or:bool2"]);
}

/// The naga dialect's own rewrites, after the whole pipeline: the printed IR before
/// and after them.
fn naga_dialect(src: &str) -> (String, String) {
    let module = analysed(src, Stage::Fragment);
    let mut diags = Vec::new();
    let bindings = semantics::bind(&module, &ctx(), &[], &mut diags);
    let mut port = StagePort::new(Stage::Fragment, bindings);
    let mut current = Cow::Borrowed(&module);
    for (_, rewrite) in REWRITES.iter().chain(naga_dialect::REWRITES) {
        if let Cow::Owned(m) = rewrite(&current, &mut port) {
            current = Cow::Owned(m);
        }
    }
    let problems = valid::validate(&current);
    assert!(problems.is_empty(), "the naga dialect left ill-formed IR: {problems:?}");
    (pretty::module(&module), pretty::module(&current))
}

#[test]
fn naga_dialect_writes_non_finite_constants_and_bool_vector_selects_its_own_way() {
    let src = fragment(
        "float inf = 1.0 / 0.0; bool2 c = tex > 0.5; bool2 a = tex > 0.25;\n\
         bool2 s = c ? a : !a; bool2 same = c ? true : false;\n\
         return float4(inf, s.x, same.y, 1.0);",
    );
    let (before, after) = naga_dialect(&src);
    check(&before, &["(div:float (lit 1.0:float) (lit 0.0:float))"], &["non-finite", "component select"]);
    check(
        &after,
        &["(non-finite inf:float)", "(component select:bool2 (var local#1:bool2) (var local#2:bool2)"],
        // `c ? true : false` stays a select, which the writer prints as `c`.
        &["(div:float (lit 1.0:float) (lit 0.0:float))"],
    );
    assert!(after.contains("(select:bool2 (var local#1:bool2) (splat:bool2 (lit true:bool))"), "{after}");
}
