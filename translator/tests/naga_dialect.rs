//! The naga dialect: the same IR written with separate `texture2D` and `sampler`
//! objects, one text per stage, no pragmas, and the rewrites naga's GLSL front end
//! needs (helpers for `modf`, `matrixCompMult`, `frexp`, `outerProduct` and `tex2Dgather`, matrices composed from columns,
//! global initialisers naga cannot fold moved into `main`, non-finite constants as bits).
//! Snapshots show the whole fragment stage; assertions pin the rules.

use grammar::{MemoryFs, PpOptions, SourceMap};
use translator::translate::{translate, NagaStages, TranslateOptions, Translation};

const VERTEX: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; }\n";

fn translate_src(src: &str) -> Translation {
    let mut sources = SourceMap::new();
    let pp = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let parsed = grammar::parse_str(&mut sources, "naga.cg", src, &pp, &MemoryFs::new());
    translate(&sources, &parsed, &TranslateOptions::default())
}

fn naga(src: &str) -> NagaStages {
    let t = translate_src(src);
    assert!(t.text.is_some(), "canonical translation failed: {:?}", t.diagnostics);
    match t.naga {
        Some(n) => n,
        None => panic!("no naga dialect: {:?}", t.naga_diagnostics),
    }
}

#[test]
fn samplers_split_into_texture_and_sampler_and_travel_in_pairs() {
    let src = format!(
        "{VERTEX}float4 blur(sampler2D s, float2 uv, float2 d) {{ return tex2D(s, uv - d) + tex2Dlod(s, float4(uv + d, 0.0, 0.0)); }}\n\
         float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
         {{ return blur(s0, tex, float2(0.001, 0.0)) * 0.5; }}\n"
    );
    let n = naga(&src);
    let f = &n.fragment.text;
    assert!(f.contains("layout(set = 0, binding = 1) uniform texture2D Source;"), "{f}");
    assert!(f.contains("layout(set = 0, binding = 17) uniform sampler Source_sampler;"), "{f}");
    assert!(f.contains("vec4 blur(texture2D s, sampler s_sampler, vec2 uv, vec2 d)"), "{f}");
    assert!(f.contains("blur(Source, Source_sampler, "), "{f}");
    assert!(f.contains("texture(sampler2D(s, s_sampler), uv - d)"), "{f}");
    assert!(!f.contains("#pragma") && !f.contains("sampler2D Source"), "{f}");
    assert!(!n.vertex.text.contains("texture2D"), "the vertex stage binds no texture");
    insta::assert_snapshot!(f);
}

#[test]
fn canonical_and_naga_share_names_and_uniform_layout() {
    let src = format!(
        "{VERTEX}#pragma parameter strength \"Strength\" 0.5 0.0 1.0 0.1\nuniform float strength;\n\
         float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
         {{ float4 texture = tex2D(s0, tex); return texture * strength; }}\n"
    );
    let t = translate_src(&src);
    let canonical = t.text.clone().unwrap_or_default();
    let n = naga(&src);
    let block = |text: &str| {
        let start = text.find("layout(push_constant)").unwrap_or(0);
        let end = text[start..].find("} params;").map_or(text.len(), |e| start + e);
        text[start..end].to_owned()
    };
    assert_eq!(block(&canonical), block(&n.fragment.text));
    assert_eq!(block(&canonical), block(&n.vertex.text));
    // The reserved word `texture` is renamed alike in both.
    assert!(canonical.contains("vec4 texture_ = texture(Source, tex);"), "{canonical}");
    assert!(n.fragment.text.contains("texture_ = texture(sampler2D(Source, Source_sampler), "));
}

#[test]
fn constructs_naga_cannot_read_are_rewritten() {
    let src = format!(
        "{VERTEX}static const float3x3 yuv = float3x3(0.299, 0.587, 0.114, -0.169, -0.331, 0.499, 0.499, -0.418, -0.0813);\n\
         static const float3x3 weighted = float3x3(48.0 * yuv[0], 7.0 * yuv[1], 6.0 * yuv[2]);\n\
         static const float zero = 0.0;\n\
         float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
         {{\n\
             float3 c = tex2D(s0, tex).rgb;\n\
             float2x2 m = float2x2(float4(c, 1.0));\n\
             float2x2 k = m * float2x2(1.0, 2.0, 3.0, 4.0);\n\
             float ip;\n\
             float fr = modf(c.r * 3.0, ip);\n\
             bool3 big = c > 0.5;\n\
             bool3 pick = big ? bool3(true, true, true) : bool3(false, false, false);\n\
             float inf = 1.0 / zero;\n\
             float d = dot(c.r, c.g);\n\
             return float4(mul(weighted, c) + float3(pick), fr + ip + k[0][1] + d + min(inf, 1.0));\n\
         }}\n"
    );
    let n = naga(&src);
    let f = &n.fragment.text;
    assert!(f.contains("mat3 weighted;"), "an initialiser naga cannot fold is deferred: {f}");
    assert!(f.contains("    weighted = mat3(48.0 * yuv[0], 7.0 * yuv[1], 6.0 * yuv[2]);"), "{f}");
    assert!(f.contains("const mat3 yuv = mat3(0.299"), "scalars compose a constant matrix: {f}");
    assert!(f.contains("cg_mat2_from_vec4("), "vector to matrix goes through a helper: {f}");
    assert!(f.contains("cg_matrixCompMult("), "{f}");
    assert!(f.contains("cg_modf("), "{f}");
    assert!(f.contains("bvec3 pick = big;"), "`c ? true : false` is `c`: {f}");
    assert!(f.contains("cg_bits_to_float(0x7f800000u)"), "1.0 / 0.0 folds to +inf, written as bits: {f}");
    assert!(f.contains("float d = c.x * c.y;"), "dot of scalars is a product: {f}");
    insta::assert_snapshot!(f);
}

#[test]
fn non_void_functions_end_in_a_return_for_naga() {
    let src = format!(
        "{VERTEX}float3 pick(float x) {{ if (x > 0.5) return float3(1.0, 0.0, 0.0); else return float3(0.0, 1.0, 0.0); }}\n\
         float4 main_fragment(float2 tex : TEXCOORD0) : COLOR {{ return float4(pick(tex.x), 1.0); }}\n"
    );
    let t = translate_src(&src);
    let canonical = t.text.unwrap_or_default();
    let f = naga(&src).fragment.text;
    let count = |s: &str| s.matches("return vec3(0.0)").count();
    assert_eq!(count(&canonical), 0, "canonical keeps the Cg function as written");
    assert_eq!(count(&f), 1, "{f}");
}

#[test]
fn line_maps_cover_every_line() {
    let src = format!("{VERTEX}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n{{ return tex2D(s0, tex); }}\n");
    let n = naga(&src);
    for s in [&n.vertex, &n.fragment] {
        assert_eq!(s.text.lines().count(), s.line_map.len());
        assert!(s.line_map.iter().any(Option::is_some), "some lines map back to the Cg source");
    }
}

#[test]
fn for_conditions_starting_with_a_constructor_are_parenthesised() {
    let src = format!(
        "{VERTEX}float4 main_fragment(float2 tex : TEXCOORD0) : COLOR\n\
         {{ float s = 0.0; for (int i = 0; i < 3.0; ++i) s += 0.25; return float4(s, 0.0, 0.0, 1.0); }}\n"
    );
    let t = translate_src(&src);
    let canonical = t.text.unwrap_or_default();
    let f = naga(&src).fragment.text;
    assert!(canonical.contains("for (int i = 0; float(i) < 3.0; ++i)"), "{canonical}");
    assert!(f.contains("for (int i = 0; (float(i) < 3.0); ++i)"), "{f}");
}

#[test]
fn glsl_functions_naga_lacks_go_through_helpers() {
    // frexp (either exponent type) splits the bits; outerProduct is built from Cg's rows
    // (naga types GLSL's transposed); tex2Dgather reads the footprint's texel centres.
    let src = format!(
        "{VERTEX}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
         {{ int2 e; float2 f; float2 m = frexp(tex, e) + frexp(tex, f); float2x3 o = outerProduct(tex, float3(1, 2, 3));\n\
         return float4(m + f + e, o[1].z, 0) + tex2Dgather(s0, tex, 2); }}\n"
    );
    let n = naga(&src);
    let f = &n.fragment.text;
    assert!(f.contains("float cg_frexp1(float x, out int e)"), "{f}");
    assert!(f.contains("cg_frexp_vec2_ivec2(tex, e)") && f.contains("cg_frexp_vec2_vec2(tex, f)"), "{f}");
    assert!(f.find("float cg_frexp1(") < f.find("vec2 cg_frexp_vec2_ivec2("), "helper order: {f}");
    assert!(
        f.contains("mat2x3 cg_outerProduct_vec2_vec3(vec2 c, vec3 r)\n{\n    return mat2x3(r * c.x, r * c.y);"),
        "{f}"
    );
    assert!(f.contains("cg_gather(Source, Source_sampler, tex, ivec2(0), 2)"), "{f}");
    assert!(!f.contains("textureGather(") && !f.contains(" outerProduct("), "naga lacks them: {f}");
}
