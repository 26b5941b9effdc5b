//! One snapshot per porting rule: a small Cg program, translated in a given preset
//! context, and the exact slang text it becomes. A change to any rule shows up here as
//! a reviewable diff (`cargo insta review`).

use grammar::{MemoryFs, PpOptions, SourceMap};
use translator::retro::PassContext;
use translator::translate::{translate, TranslateOptions};

const HEADER: &str = "struct input { float2 video_size; float2 texture_size; float2 output_size; float frame_count; float frame_direction; };\n\
struct orig { float2 tex_coord; float2 video_size; float2 texture_size; sampler2D texture; };\n";

const VERTEX: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; }\n";

/// Translates `src` in `ctx`; returns the text or the rendered diagnostics.
fn port(src: &str, ctx: PassContext) -> String {
    let mut sources = SourceMap::new();
    let pp = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let parsed = grammar::parse_str(&mut sources, "rule.cg", src, &pp, &MemoryFs::new());
    let t = translate(&sources, &parsed, &TranslateOptions { context: ctx, ..TranslateOptions::default() });
    match t.text {
        Some(text) => text,
        None => format!("ERRORS:\n{}", grammar::diagnostic::render_plain(&sources, &t.diagnostics)),
    }
}

fn ctx(pass: usize, passes: usize) -> PassContext {
    PassContext { pass, passes, aliases: vec![String::new(); passes], feedback_pass: None, luts: Vec::new() }
}

fn frag(body: &str, params: &str) -> String {
    format!("{HEADER}{VERTEX}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0, uniform input IN{params}) : COLOR\n{{\n{body}\n}}\n")
}

#[test]
fn rule_in_fields_map_to_size_and_counters() {
    let src = frag("float2 a = IN.video_size + IN.texture_size; float2 o = IN.output_size; float t = IN.frame_count + IN.frame_direction;\nreturn float4(a / o, t, 1.0) * tex2D(s0, tex);", "");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_pass_numbering_is_one_based() {
    // Pass 3 reads PASS1 (output of pass 0) and PASS3 (pass 2), and PASSPREV2 (pass 1).
    let src = frag("return tex2D(PASS1.texture, tex) + tex2D(PASS3.texture, tex * PASS3.video_size) + tex2D(PASSPREV2.texture, tex) + tex2D(PASSPREV4.texture, tex);", ", uniform orig PASS1, uniform orig PASS3, uniform orig PASSPREV2, uniform orig PASSPREV4");
    insta::assert_snapshot!(port(&src, ctx(3, 4)));
}

#[test]
fn rule_passprev_in_pass_zero_is_an_error() {
    let src = frag("return tex2D(PASSPREV1.texture, tex);", ", uniform orig PASSPREV1");
    insta::assert_snapshot!(port(&src, ctx(0, 2)));
}

#[test]
fn rule_history_feedback_aliases_and_luts() {
    let src = frag("return tex2D(PREV.texture, tex) + tex2D(PREV6.texture, tex) + tex2D(FEEDBACK.texture, tex) + tex2D(FIRST.texture, tex * FIRST.video_size) + tex2D(grade, tex);", ", uniform orig PREV, uniform orig PREV6, uniform orig FEEDBACK, uniform orig FIRST, uniform sampler2D grade");
    let mut c = ctx(2, 3);
    c.aliases[0] = "FIRST".into();
    c.feedback_pass = Some(1);
    c.luts = vec!["grade".into()];
    insta::assert_snapshot!(port(&src, c));
}

#[test]
fn rule_connector_structs_flatten_to_locations() {
    let src = format!("{HEADER}struct out_vertex {{ float4 position : POSITION; float2 uv : TEXCOORD0; float4 t1 : TEXCOORD1; float4 col : COLOR; }};\n\
out_vertex main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, float4 color : COLOR, uniform float4x4 modelViewProj, uniform input IN)\n\
{{ out_vertex OUT; OUT.position = mul(modelViewProj, position); OUT.uv = tex; OUT.t1 = tex.xyxy + float4(-1, -1, 1, 1) / IN.texture_size.xyxy; OUT.col = color; return OUT; }}\n\
float4 main_fragment(in out_vertex VAR, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
{{ return tex2D(s0, VAR.uv) * VAR.col + tex2D(s0, VAR.t1.xy) - tex2D(s0, VAR.t1.zw); }}\n");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_matrix_convention_with_non_symmetric_matrices() {
    let src = frag("float3x2 m = float3x2(1, 2, 3, 4, 5, 6); float2 v = tex; float3 a = mul(m, v); float2 b = mul(a, m); float2x4 n = float2x4(1, 0, 0, 1, 0, 1, 1, 0); float3x4 p = mul(m, n); float e = m._m21 + m[2].y;\nreturn float4(a + p[0].xyz, b.x + e);", "");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_stdlib_with_cg_semantics() {
    let src = frag("float2 a = fmod(tex, 0.3); float2 b = frac(tex) + saturate(tex * 2.0) + lerp(a, tex, 0.25); float c = atan2(tex.y, tex.x) + rsqrt(2.0) + log10(tex.x); float4 d = tex2Dlod(s0, float4(tex, 0.0, 1.0)) + tex2Dbias(s0, float4(tex, 0.0, -1.0)) + tex2Dproj(s0, float3(tex, 2.0));\nfloat s; float k; sincos(c, s, k); clip(a.x - 0.1);\nreturn d * s * k + float4(ddx(tex), ddy(tex));", "");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_bool_vectors_are_componentwise() {
    let src = frag("float4 a = tex2D(s0, tex); float4 b = tex2D(s0, tex + 0.1); bool4 m = a > b; bool4 n = (a == b) || !m && (a < 0.5); float4 r = n ? a : b; bool any_m = any(m);\nreturn any_m ? r : a;", "");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_parameters_fill_the_push_block_then_spill_to_the_ubo() {
    let mut pragmas = String::new();
    let mut uniforms = String::new();
    let mut sum = String::from("0.0");
    for i in 0..40 {
        pragmas.push_str(&format!("#pragma parameter P{i:02} \"Parameter {i}\" 0.5 0.0 1.0 0.01\n"));
        uniforms.push_str(&format!("uniform float P{i:02};\n"));
        sum.push_str(&format!(" + P{i:02}"));
    }
    let src = format!(
        "{pragmas}#ifdef PARAMETER_UNIFORM\n{uniforms}#endif\n{}",
        frag(&format!("return tex2D(s0, tex) * ({sum});"), "")
    );
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_integer_parameters_are_set_and_read_converted() {
    // RetroArch set every #pragma parameter by name, integer uniforms included.
    let src = format!(
        "#pragma parameter TAPS \"Taps\" 3.0 1.0 8.0 1.0\n#pragma parameter GAIN \"Gain\" 1.0 0.0 2.0 0.1\n\
#ifdef PARAMETER_UNIFORM\nuniform int TAPS;\nuniform float GAIN;\n#endif\n{}",
        frag("float3 c = 0.0; for (int i = 0; i < TAPS; i++) c += tex2D(s0, tex).rgb; return float4(c * GAIN / TAPS, 1.0);", "")
    );
    let out = port(&src, ctx(0, 1));
    assert!(out.contains("i < int(params.TAPS)"), "{out}");
    assert!(!out.contains("W0402"), "an integer parameter is not an unset uniform: {out}");
    insta::assert_snapshot!(out);
}

#[test]
fn rule_a_struct_return_under_a_semantic_of_its_own_is_flattened() {
    // phosphorlut-pass1.cg: `output main_fragment(...) : COLOR` returning a struct whose
    // field carries COLOR; the field's semantic wins and its value reaches FragColor.
    let src = format!(
        "{HEADER}{VERTEX}struct output {{ float4 color : COLOR; }};\n\
output main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
{{ output OUT; OUT.color = tex2D(s0, tex) * 0.5; return OUT; }}\n"
    );
    let out = port(&src, ctx(0, 1));
    assert!(out.contains("FragColor = "), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn rule_glsl_reserved_names_are_renamed() {
    let src = frag("float3 input = tex2D(s0, tex).rgb; float sample = input.r; float3 mix = input * sample; float filter = 2.0;\nreturn float4(mix * filter, 1.0);", "");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_helpers_defaults_overloads_and_methods() {
    let src = format!("{HEADER}{VERTEX}struct Tone {{ float gain; float3 apply(float3 c) {{ return c * gain; }} }};\n\
float3 boost(float3 c, float k = 1.5) {{ return c * k; }}\nfloat3 boost(half3 c) {{ return c * 2.0; }}\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
{{ Tone t; t.gain = 0.5; float3 c = tex2D(s0, tex).rgb; half3 h = c; return float4(t.apply(boost(c)) + boost(h), 1.0); }}\n");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_implicit_conversions_become_explicit() {
    let src = frag("float4 c = tex2D(s0, tex); float3 rgb = c; int i = c.r * 10.0; float f = i / 3; bool b = c.a; half h = 0.5; float g = h * 2.0;\nreturn float4(rgb * f, b ? g : 0.0);", "");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_texture_structs_passed_to_helpers_become_member_parameters() {
    // `blur` takes IN and a PASSk whole and hands IN on to `texel`: each parameter becomes
    // one per member read, through the nested call too; `orig` (with its sampler) is
    // never declared as a GLSL struct.
    let src = format!("{HEADER}{VERTEX}\
float2 texel(input I) {{ return 1.0 / I.texture_size; }}\n\
float4 blur(input I, orig P, float2 uv) {{ float2 d = texel(I); return (tex2D(P.texture, uv - d) + tex2D(P.texture, uv + d * P.video_size / P.texture_size)) * 0.5; }}\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform input IN, uniform orig PASS1, uniform orig ORIG) : COLOR\n\
{{ return blur(IN, PASS1, tex) + blur(IN, ORIG, tex); }}\n");
    insta::assert_snapshot!(port(&src, ctx(2, 3)));
}

#[test]
fn rule_texture_struct_used_whole_inside_a_helper_is_an_error() {
    let src = format!(
        "{HEADER}{VERTEX}\
float4 first(orig P, float2 uv) {{ orig copy = P; return tex2D(copy.texture, uv); }}\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform orig ORIG) : COLOR\n\
{{ return first(ORIG, tex); }}\n"
    );
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_glsl_builtins_nvidia_accepted_keep_their_glsl_meaning() {
    // mod floors (unlike fmod), fract is frac, mix is lerp; each call warns (W0306).
    let src = frag(
        "float2 a = mod(tex * 7.0, 3.0); float b = fmod(tex.x - 0.5, 0.25); float3 c = mix(float3(0), float3(1), fract(tex.y * 4.0));\nreturn float4(c, a.x + a.y + b) * tex2D(s0, tex);",
        "",
    );
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_global_copy_of_a_texture_struct_reads_the_texture_struct() {
    // `IN_global = IN;` first thing in main_fragment (crt-lottes-multipass): helpers read
    // the global; it holds what IN holds, so it becomes IN and the copy disappears. A
    // second global copied after other work keeps failing as unbound.
    let src = format!(
        "{HEADER}{VERTEX}\
input IN_global;\nsampler2D s_global;\n\
float2 texel() {{ return 1.0 / IN_global.texture_size; }}\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform input IN, uniform orig ORIG) : COLOR\n\
{{ s_global = ORIG.texture; IN_global = IN; return tex2D(s_global, tex + texel()); }}\n"
    );
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
    let late = format!(
        "{HEADER}{VERTEX}\
input IN_global;\n\
float2 texel() {{ return 1.0 / IN_global.texture_size; }}\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0, uniform input IN) : COLOR\n\
{{ float2 d = texel(); IN_global = IN; return tex2D(s0, tex + d); }}\n"
    );
    insta::assert_snapshot!(port(&late, ctx(0, 1)));
}

#[test]
fn rule_single_row_and_column_matrices_become_vectors() {
    // bicubic-fast / nedi: float4x1 and float1x4 built by rows, multiplied into a 1x1
    // (dot), a 4x4 times a column (mul by a vector), a row times a 2x3.
    let src = frag(
        "float4x4 M = float4x4(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);\n\
         float4x1 col = mul(M, float4x1(tex.x, tex.y, 1.0, 0.5));\n\
         float1x4 row = mul(float1x4(tex.y, tex.x, 0.25, 1.0), M);\n\
         float s = float(mul(row, col)) + col[2] + row._m01;\n\
         float2x3 X = float2x3(1, 2, 3, 4, 5, 6);\n\
         float3 c = mul(float1x2(tex), X);\n\
         return float4(c * s, 1.0);",
        "",
    );
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_bool_matrices_become_arrays_of_rows() {
    // hqx: a bool3x3 from nine bools, read a row at a time into dot products.
    let src = frag(
        "float3 a = tex2D(s0, tex).rgb; bool d = a.r > 0.5;\n\
         bool3x3 p = bool3x3(d, !d, d, a.g > a.b, false, true, d, d, a.b > 0.1);\n\
         float x = dot(p[0], float3(1, 2, 4)) + dot(p[1], float3(8, 0, 16)) + dot(p[2], float3(32, 64, 128));\n\
         return float4(x / 255.0);",
        "",
    );
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_in_vertex_coord_is_the_position_attribute() {
    // motionblur/feedback.cg: attributes reached through a varying `input IN` by name.
    let src = "struct input { float2 tex_coord; float4 vertex_coord; uniform float4x4 mvp_matrix; uniform sampler2D texture; };\n\
void main_vertex(input IN, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n\
{ oPosition = mul(IN.mvp_matrix, IN.vertex_coord); oTex = IN.tex_coord; }\n\
float4 main_fragment(float2 tex : TEXCOORD0, input IN) : COLOR { return tex2D(IN.texture, tex); }\n";
    insta::assert_snapshot!(port(src, ctx(0, 1)));
}

#[test]
fn rule_written_uniforms_become_local_copies() {
    // Cg's uniforms are the program's own copies: `IN.frame_count`, a parameter and a
    // global uniform written by the program each get a local initialised from the
    // uniform (GLSL cannot assign a push-constant or UBO member).
    let src = format!(
        "{HEADER}uniform float GAIN;\nuniform float TINT = 0.5;\n\
         void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj, uniform input IN)\n\
         {{ float a = IN.frame_count = IN.frame_count / 20.0; oPosition = mul(modelViewProj, position); oTex = tex * a; }}\n\
         float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0, uniform input IN) : COLOR\n\
         {{ IN.video_size.x *= 0.5; GAIN++; TINT += GAIN; return tex2D(s0, tex * IN.video_size) * GAIN * TINT * IN.frame_count; }}\n"
    );
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_gp4_texel_offsets_and_gp5_gather() {
    // Constant offsets become GLSL's *Offset lookups (a 1D offset a 2D one on the LUT's
    // middle row; RECT coordinates are normalised first); gather keeps GLSL's order.
    let src = frag(
        "float3 c = float3(tex, 0.5);\nreturn tex2D(s0, tex, int2(1, 0)) + tex2D(s0, c, int2(0, -1)) + tex2Dproj(s0, float3(tex, 1.0), int2(2, 2))\n    + tex2D(s0, tex, ddx(tex), ddy(tex), int2(-1, 1)) + tex1D(ramp, tex.x, 3) + texRECT(rect, tex * 64.0, int2(1, 1))\n    + tex2Dgather(s0, tex, 2) + tex2Dgather(s0, tex, int2(1, 0), 3);",
        ", uniform sampler1D ramp, uniform samplerRECT rect",
    );
    let mut c = ctx(0, 1);
    c.luts = vec!["ramp".into(), "rect".into()];
    insta::assert_snapshot!(port(&src, c));
}

#[test]
fn rule_texel_offset_must_be_constant() {
    // GLSL takes no run-time offset: a diagnostic at the offset, not a wrong lookup.
    let src = frag("int2 o = int2(tex * 4.0);\nreturn tex2D(s0, tex, o) + tex2Dgather(s0, tex, o.x);", "");
    insta::assert_snapshot!(port(&src, ctx(0, 1)));
}

#[test]
fn rule_vertex_derivatives_are_zero_and_vertex_lookups_have_no_binding() {
    // cgc's vertex profiles declare ddx/ddy/fwidth: a vertex has no neighbours, so they
    // are zero; the fragment stage keeps its own.
    let deriv = format!(
        "{HEADER}void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, uniform input IN,\n\
         out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, out float4 oCol : COLOR0)\n{{\n\
         oPosition = mul(modelViewProj, position);\n    oTex = tex;\n    half2 h = half2(tex);\n\
         oCol = float4(ddx(tex), ddy(IN.frame_count), fwidth(h).x) + 0.5;\n}}\n\
         float4 main_fragment(float2 tex : TEXCOORD0, float4 col : COLOR0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n{{\n\
         return tex2D(s0, tex) * col + float4(ddx(tex), 0.0, 0.0);\n}}\n"
    );
    let out = port(&deriv, ctx(0, 1));
    assert!(out.contains("oCol = vec4(vec2(0.0), 0.0, vec2(0.0).x) + 0.5;"), "{out}");
    assert!(out.contains("dFdxFine(tex)"), "the fragment stage keeps its derivative: {out}");
    // A lookup in a vertex program analyses (cgc accepted it) but has no slang binding.
    let lookup = deriv
        .replace("oCol = float4(", "oCol = tex2D(s0, tex) + tex2Dbias(s0, float4(tex, 0.0, 1.0)) + float4(")
        .replace("uniform input IN,\n", "uniform input IN, uniform sampler2D s0 : TEXUNIT0,\n");
    insta::assert_snapshot!(port(&lookup, ctx(0, 1)));
}

#[test]
fn writer_lays_out_uniforms_by_planned_reads_and_prints_each_in_its_block() {
    // ZED is read three times and ALPHA once: the push block lists ZED first (most read
    // first), although ALPHA sorts first by name. Every read names its block.
    let src = format!(
        "#pragma parameter ALPHA \"a\" 0.5 0.0 1.0 0.1\n#pragma parameter ZED \"z\" 0.5 0.0 1.0 0.1\nuniform float ALPHA;\nuniform float ZED;\n{}",
        frag("return tex2D(s0, tex) * (ALPHA + ZED * ZED * ZED);", "")
    );
    let text = port(&src, ctx(0, 1));
    let zed = text.find("    float ZED;").unwrap_or_else(|| panic!("ZED declared: {text}"));
    let alpha = text.find("    float ALPHA;").expect("ALPHA declared");
    assert!(zed < alpha, "{text}");
    assert!(text.contains("(params.ALPHA + params.ZED * params.ZED * params.ZED)"), "{text}");
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "no placeholder survives: {text:?}");
}

#[test]
fn writer_repeats_plain_paths_only() {
    // `v.xy.y` of a local composes to `v.y`. A uniform read is not a plain path: its
    // swizzles stay as the placeholder writer printed them (byte-identical outputs;
    // composing them too is an output change for later).
    let src = frag(
        "float4 v = float4(tex, tex); float a = v.xy.y; float b = IN.video_size.xy.y;\nreturn float4(a, b, 0.0, 1.0) * tex2D(s0, tex);",
        "",
    );
    let text = port(&src, ctx(0, 1));
    assert!(text.contains("float a = v.y;"), "{text}");
    assert!(text.contains("float b = params.SourceSize.xy.xy.y;"), "{text}");
}
