//! Rule-by-rule tests of the Cg 3.x syntax beyond vertex and fragment programs:
//! geometry and tessellation programs (`programs`), CgFX effect constructs (`effects`),
//! and the `precise` qualifier. Each feeds a small program through the real front end and
//! sema, validates the IR, and checks the types, statements or diagnostic codes.

use super::tests::run;
use super::*;

const GS: &str = "TRIANGLE TRIANGLE_OUT void gs(AttribArray<float4> position : POSITION,
                                         AttribArray<float2> uv : TEXCOORD0,
                                         uniform float4x4 mvp)
{
    for (int i = 0; i < position.length; i++) {
        emitVertex(mul(mvp, position[i]) : POSITION, uv[i] : TEXCOORD0);
    }
    restartStrip();
}
float4 main_fragment(float2 uv : TEXCOORD0) : COLOR { return float4(uv, 0, 1); }
";

// ---- geometry programs ----

#[test]
fn a_geometry_program_analyses_under_a_geometry_profile() {
    for profile in ["gp4gp", "gp5gp", "glslg", "gs_4_0"] {
        let o = run(GS, "gs", profile);
        let ir = o.silent();
        assert!(ir.contains("float4[3] position : POSITION"), "{ir}");
        assert!(ir.contains("float2[3] uv : TEXCOORD0"), "{ir}");
        assert!(ir.contains("emitVertex(") && ir.contains(" : POSITION, ") && ir.contains(" : TEXCOORD0);"), "{ir}");
        assert!(ir.contains("restartStrip();"), "{ir}");
    }
}

#[test]
fn each_input_primitive_sizes_attrib_arrays() {
    for (modifier, n) in [("POINT", 1), ("LINE", 2), ("LINE_ADJ", 4), ("TRIANGLE", 3), ("TRIANGLE_ADJ", 6)] {
        let src = format!(
            "{modifier} void gs(AttribArray<float3> p : POSITION) {{ emitVertex(float4(p[{}], 1) : POSITION); }}",
            n - 1
        );
        let o = run(&src, "gs", "gp4gp");
        assert!(o.silent().contains(&format!("float3[{n}] p : POSITION")), "{modifier}: {}", o.ir);
    }
    // gp5gp also takes a patch as its input.
    let src = "PATCH_5 void gs(AttribArray<float3> p : POSITION) { emitVertex(float4(p[4], 1) : POSITION); }";
    assert!(run(src, "gs", "gp5gp").silent().contains("float3[5] p"));
    assert_eq!(run(src, "gs", "gp4gp").codes(), vec![codes::E_PROGRAM_MODIFIER]);
}

#[test]
fn each_output_primitive_is_accepted_once() {
    for out in ["POINT_OUT", "LINE_OUT", "TRIANGLE_OUT"] {
        let src = format!("POINT {out} void gs(AttribArray<float4> p : POSITION) {{ emitVertex(p[0] : POSITION); }}");
        run(&src, "gs", "gp4gp").silent();
    }
}

#[test]
fn conflicting_modifiers_are_errors() {
    let body = "(AttribArray<float4> p : POSITION) { emitVertex(p[0] : POSITION); }";
    for (mods, what) in [
        ("TRIANGLE LINE", "one input primitive"),
        ("POINT LINE_OUT TRIANGLE_OUT", "one output primitive"),
        ("PATCH_0", "1 to 32 control points"),
        ("PATCH_33", "1 to 32 control points"),
        ("LINE_OUT", "without an input primitive"),
        ("TRIANGLE PATCH_3", "one primitive or one patch"),
        ("TRIANGLES PATCH_3 TRIANGLE", "tessellation domain and a geometry primitive"),
    ] {
        let o = run(&format!("{mods} void gs{body}"), "gs", "gp5gp");
        assert!(o.codes().contains(&codes::E_PROGRAM_MODIFIER), "{mods}: {:?}", o.codes());
        let all: Vec<String> = o.diags.iter().map(|d| d.message.clone()).collect();
        assert!(all.iter().any(|m| m.contains(what)), "{mods}: {all:?}");
    }
}

#[test]
fn an_entry_must_match_its_profiles_domain() {
    // A geometry program is no vertex program, and a plain function no geometry program.
    let o = run(GS, "gs", "glslv");
    assert_eq!(o.codes(), vec![codes::E_PROGRAM_MODIFIER, codes::E_PROFILE, codes::E_PROFILE]);
    assert!(o.message(codes::E_PROGRAM_MODIFIER).contains("declared as a geometry program"), "{:?}", o.diags);
    let o = run(GS, "main_fragment", "gp4gp");
    assert_eq!(o.codes(), vec![codes::E_PROGRAM_MODIFIER]);
    assert!(o.message(codes::E_PROGRAM_MODIFIER).contains("has no input primitive"));
    // The fragment entry of the same file is unaffected by the geometry program.
    assert!(run(GS, "main_fragment", "glslf").diags.is_empty());
}

#[test]
fn attrib_array_needs_a_program_and_one_type() {
    for (src, entry, profile) in [
        ("float4 f(AttribArray<float4> p : POSITION) : COLOR { return p[0]; }", "f", "fp40"),
        ("POINT void gs(AttribArray<float4, 2> p : POSITION) { }", "gs", "gp4gp"),
        ("POINT void gs(AttribArray<sampler2D> s) { }", "gs", "gp4gp"),
        ("POINT void gs(float4 p : POSITION) { AttribArray<float4> a; }", "gs", "gp4gp"),
    ] {
        let o = run(src, entry, profile);
        // A function whose parameter cannot be typed is not declared, so the entry point
        // may be missing too; the AttribArray error comes first in the source.
        assert!(o.codes().contains(&codes::E_GEOMETRY_SYNTAX), "{src}: {:?}", o.codes());
        assert!(o.codes().iter().all(|c| [codes::E_GEOMETRY_SYNTAX, codes::E_NO_ENTRY_POINT].contains(c)), "{src}");
    }
}

#[test]
fn emit_vertex_and_restart_strip_belong_to_geometry_programs() {
    let src = "float4 helper(float4 p) { emitVertex(p : POSITION); restartStrip(); return p; }
               float4 main(float4 p : POSITION) : POSITION { return helper(p); }";
    let o = run(src, "main", "vp40");
    assert_eq!(o.codes(), vec![codes::E_PROFILE, codes::E_PROFILE]);
    assert!(o.message(codes::E_PROFILE).contains("only available in geometry programs"));
    // Unreached, as cgc checked only what the program uses.
    let src = "void unused(float4 p) { emitVertex(p : POSITION); }
               float4 main(float4 p : POSITION) : POSITION { return p; }";
    assert!(run(src, "main", "vp40").diags.is_empty());
}

#[test]
fn emit_vertex_arguments_are_checked() {
    let gs = |body: &str| {
        format!("struct V {{ float4 p : POSITION; float4 c : COLOR0; }};\nPOINT void gs(AttribArray<float4> p : POSITION) {{ {body} }}")
    };
    // A struct carries its own semantics.
    let ir = run(&gs("V v; v.p = p[0]; v.c = 1; emitVertex(v);"), "gs", "gp4gp").silent().to_owned();
    assert!(ir.contains("emitVertex((var local#0:V));"), "{ir}");
    for (body, what) in [
        ("emitVertex(p[0]);", "without a semantic"),
        ("emitVertex();", "needs the vertex's outputs"),
        ("restartStrip(p[0]);", "takes no arguments"),
        ("float x = emitVertex(p[0] : POSITION);", "call it as a statement"),
        ("float4 y = max(p[0] : POSITION, 1);", "only an argument of a geometry program's `emitVertex`"),
        ("emitVertex(restartStrip : POSITION);", "not declared"),
    ] {
        let o = run(&gs(body), "gs", "gp4gp");
        let all: Vec<String> = o.diags.iter().map(|d| format!("{} {}", d.code, d.message)).collect();
        assert!(all.iter().any(|m| m.contains(what)), "{body}: {all:?}");
        assert!(o.diags.iter().all(|d| d.is_error()), "{body}: {all:?}");
    }
}

#[test]
fn a_user_function_named_emit_vertex_is_an_ordinary_function() {
    let src =
        "float emitVertex(float x) { return x; }\nfloat4 main() : COLOR { emitVertex(1.0); return emitVertex(2.0); }";
    assert!(run(src, "main", "fp40").silent().contains("call emitVertex"));
}

#[test]
fn modifiers_on_a_variable_are_errors() {
    let o = run("TRIANGLE float x;\nfloat4 main() : COLOR { return 1; }", "main", "fp40");
    assert_eq!(o.codes(), vec![codes::E_PROGRAM_MODIFIER]);
}

// ---- tessellation programs ----

const TESS: &str = "PATCH_3 void tcs(AttribArray<float3> position : POSITION, int id : CONTROLPOINT_ID,
                  out float3 oPosition : POSITION, out float oOuter[3] : TESSLEVELOUTER, out float oInner : TESSLEVELINNER)
{
    oPosition = position[id];
    oOuter[0] = oOuter[1] = oOuter[2] = 4.0;
    oInner = 4.0;
}
TRIANGLES PATCH_3 void tes(AttribArray<float3> position : POSITION, float3 uvw : TESSCOORD, out float4 oPosition : POSITION)
{
    oPosition = float4(uvw.x * position[0] + uvw.y * position[1] + uvw.z * position[2], 1.0);
}
QUADS PATCH_16 void quads(AttribArray<float3> p : POSITION, out float4 o : POSITION) { o = float4(p[15], 1); }
ISOLINES PATCH_4 void lines(AttribArray<float3> p : POSITION, out float4 o : POSITION) { o = float4(p[3], 1); }
";

#[test]
fn tessellation_programs_analyse_under_their_profiles() {
    assert!(run(TESS, "tcs", "gp5tcp").silent().contains("float3[3] position : POSITION"));
    assert!(run(TESS, "tcs", "hs_5_0").silent().contains("out float[3] oOuter : TESSLEVELOUTER"));
    assert!(run(TESS, "tes", "gp5tep").silent().contains("float3 uvw : TESSCOORD"));
    assert!(run(TESS, "quads", "gp5tep").silent().contains("float3[16] p"));
    assert!(run(TESS, "lines", "ds_5_0").silent().contains("float3[4] p"));
}

#[test]
fn tessellation_entries_need_their_modifiers() {
    // A control program analysed as an evaluation program lacks its domain, and the
    // other way round the evaluation program has one too many.
    let o = run(TESS, "tcs", "gp5tep");
    assert!(o.message(codes::E_PROGRAM_MODIFIER).contains("needs a domain and a patch size"));
    let o = run(TESS, "tes", "gp5tcp");
    assert!(o.message(codes::E_PROGRAM_MODIFIER).contains("takes only a patch size"));
    let o = run("void tcs(float3 p : POSITION) { }", "tcs", "gp5tcp");
    assert!(o.message(codes::E_PROGRAM_MODIFIER).contains("has no patch size"));
    let o = run(TESS, "tes", "gp4gp");
    assert!(o.codes().contains(&codes::E_PROGRAM_MODIFIER));
}

// ---- CgFX effect constructs ----

const EFFECT: &str = "float4 vs_main(float4 p : POSITION, uniform float4x4 mvp) : POSITION { return mul(mvp, p); }
float4 ps_main(uniform float gain) : COLOR { return float4(gain); }
float4x4 world_view_proj;
VertexShader vs = compile vp40 vs_main(world_view_proj);
pixelshader ps = compile fp40 ps_main(0.5);
PixelShader pair[2] = { compile fp40 ps_main(1.0), compile arbfp1 ps_main(2.0) };
technique Objects { pass P0 { VertexShader = (vs); PixelShader = (ps); DepthTestEnable = true; } }
technique Inline {
    pass P0 {
        VertexProgram = compile arbvp1 vs_main(world_view_proj);
        FragmentProgram = compile arbfp1 ps_main(1.0);
        BlendFunc = int2(SrcAlpha, OneMinusSrcAlpha);
    }
}
";

#[test]
fn effect_state_objects_and_techniques_analyse() {
    let o = run(EFFECT, "ps_main", "fp40");
    let ir = o.silent();
    // State objects are no program variables: nothing of them is in the IR.
    assert!(!ir.contains("vs :") && !ir.contains("pair"), "{ir}");
    run(EFFECT, "vs_main", "vp40").silent();
}

#[test]
fn effect_errors_are_reported() {
    for (extra, what) in [
        ("VertexShader a = compile fp40 vs_main(world_view_proj);", "compiles fragment programs"),
        ("VertexShader b = compile nope vs_main();", "not a Cg profile"),
        ("PixelShader c = compile fp40 missing();", "no function `missing`"),
        ("PixelShader d = compile fp40 ps_main(1.0, 2.0);", "binds 2 argument(s)"),
        ("PixelShader e = ps_main(1.0);", "initialised with `compile"),
        ("technique T { pass { VertexShader = (ps); } }", "is a fragment state object"),
        ("technique U { pass { PixelShader = (nothing); } }", "not a state object"),
        ("technique V { pass { GeometryProgram = compile gp4fp ps_main(1.0); } }", "takes a geometry program"),
        ("float4 f() : COLOR { return compile fp40 ps_main(1.0); }", "only the value of a technique pass"),
        ("float4 g() : COLOR { VertexShader v; return 1; }", "state-object type"),
    ] {
        let entry = if extra.contains("float4 f()") {
            "f"
        } else if extra.contains("float4 g()") {
            "g"
        } else {
            "ps_main"
        };
        let o = run(&format!("{EFFECT}{extra}\n"), entry, "fp40");
        assert_eq!(o.codes(), vec![codes::E_EFFECT], "{extra}: {:?}", o.diags);
        assert!(o.message(codes::E_EFFECT).contains(what), "{extra}: {}", o.message(codes::E_EFFECT));
    }
}

// ---- precise ----

#[test]
fn precise_is_accepted_everywhere_and_changes_nothing() {
    let with = "precise float g = 1.0;
        float4 main(precise float2 uv : TEXCOORD0) : COLOR { precise float a = uv.x * uv.y + g; return float4(a); }";
    let without = with.replace("precise ", "");
    let a = run(with, "main", "fp40");
    let b = run(&without, "main", "fp40");
    assert_eq!(a.silent(), b.silent());
    // Older shaders name a variable `precise`.
    run("static const float precise = 2.0;\nfloat4 main() : COLOR { return precise; }", "main", "fp40").silent();
}
