//! Rule-by-rule tests of semantic analysis: each feeds a small Cg program through the
//! real front end and sema, validates the IR, and checks the exact types, nodes or
//! diagnostic codes a wrong implementation would get wrong.

use super::*;
use crate::ir::{pretty, valid};
use grammar::{MemoryFs, PpOptions, SourceMap};

pub(super) struct Out {
    pub(super) ir: String,
    pub(super) diags: Vec<Diagnostic>,
}

impl Out {
    /// The IR, asserting that no diagnostic at all (not even a warning) was given.
    pub(super) fn silent(&self) -> &str {
        let all: Vec<String> = self.diags.iter().map(|d| format!("{} {}", d.code, d.message)).collect();
        assert!(self.diags.is_empty(), "unexpected diagnostics: {all:#?}");
        &self.ir
    }
    /// The message of the first diagnostic with `code` (empty when there is none).
    pub(super) fn message(&self, code: &str) -> String {
        self.diags.iter().find(|d| d.code == code).map(|d| d.message.clone()).unwrap_or_default()
    }
    pub(super) fn codes(&self) -> Vec<&'static str> {
        self.diags.iter().map(|d| d.code).collect()
    }
    fn errors(&self) -> Vec<String> {
        self.diags.iter().filter(|d| d.is_error()).map(|d| format!("{} {}", d.code, d.message)).collect()
    }
    fn clean(&self) -> &str {
        assert!(self.diags.iter().all(|d| !d.is_error()), "unexpected errors: {:#?}", self.errors());
        &self.ir
    }
}

pub(super) fn run(src: &str, entry: &str, profile: &str) -> Out {
    let mut sources = SourceMap::new();
    let parsed = grammar::parse_str(&mut sources, "test.cg", src, &PpOptions::default(), &MemoryFs::new());
    assert!(!parsed.has_errors(), "parse errors: {}", grammar::diagnostic::render_plain(&sources, &parsed.diagnostics));
    let options = SemaOptions { entry: Some(entry.into()), profile: Profile::named(profile).expect("known profile") };
    let (module, diags) = analyze(&parsed.unit, &parsed.preprocessed.pragmas, &options);
    let problems = valid::validate(&module);
    assert!(problems.is_empty(), "invalid IR: {problems:#?}\n{}", pretty::module(&module));
    Out { ir: pretty::module(&module), diags }
}

fn frag(body: &str) -> Out {
    run(&format!("float4 main(float2 uv : TEXCOORD0) : COLOR {{\n{body}\nreturn 0;\n}}\n"), "main", "fp40")
}

// ---- constants and promotion ----

#[test]
fn untyped_constant_takes_the_variables_precision() {
    let o = frag("half h = 1.5h; half r = h * 2.0;");
    assert!(o.clean().contains("(mul:half (var local#0:half) (lit 2.0:half))"), "{}", o.ir);
}

#[test]
fn typed_constant_keeps_its_type() {
    let o = frag("half h = 1.5h; float r = h * 2.0f;");
    assert!(o.clean().contains("(mul:float (convert:float (var local#0:half)) (lit 2.0:float))"), "{}", o.ir);
}

#[test]
fn cint_meeting_int_and_float() {
    let o = frag("int i = 3; float f = i * 2; float g = i * 2.5;");
    let ir = o.clean();
    assert!(ir.contains("(mul:int (var local#0:int) (lit 2:int))"), "{ir}");
    // cfloat meets int: the integral side converts to floating (float at run time).
    assert!(ir.contains("(mul:float (convert:float (var local#0:int)) (lit 2.5:float))"), "{ir}");
}

#[test]
fn constant_expression_is_retyped_as_a_whole() {
    let o = frag("half h = 1.0h; half r = h + (1.0 / 3.0);");
    assert!(o.clean().contains("(add:half (var local#0:half) (div:half (lit 1.0:half) (lit 3.0:half)))"), "{}", o.ir);
}

// ---- the conversion table ----

#[test]
fn vector_truncation_warns() {
    let o = frag("float4 a = float4(1, 2, 3, 4); float3 b = a;");
    assert!(o.clean().contains("(truncate:float3 (var local#0:float4))"), "{}", o.ir);
    assert!(o.codes().contains(&codes::W_TRUNCATION));
}

#[test]
fn vector_widening_is_an_error() {
    let o = frag("float3 a = float3(1, 2, 3); float4 b = a;");
    assert_eq!(o.errors(), vec!["E0303 cannot convert float3 to float4".to_string()]);
}

#[test]
fn matrix_transposed_shape_is_an_error_even_with_a_cast() {
    let o = frag("float4x3 m = 0; float3x4 n = (float3x4)m;");
    assert_eq!(o.errors(), vec!["E0303 cannot convert float4x3 to float3x4".to_string()]);
}

#[test]
fn matrix_to_scalar_and_submatrix_warn() {
    let o = frag("float3x3 m = 1; float s = m; float2x2 n = m;");
    let ir = o.clean();
    assert!(ir.contains("(truncate:float (var local#0:float3x3))"), "{ir}");
    assert!(ir.contains("(truncate:float2x2 (var local#0:float3x3))"), "{ir}");
    assert_eq!(o.codes().iter().filter(|c| **c == codes::W_TRUNCATION).count(), 2);
}

#[test]
fn vector_matrix_reshape_warns_and_cast_silences() {
    let o = frag("float4 v = 1; float2x2 m = v; float2x2 n = (float2x2)v;");
    assert!(o.clean().contains("(reshape:float2x2 (var local#0:float4))"), "{}", o.ir);
    assert_eq!(o.codes().iter().filter(|c| **c == codes::W_RESHAPE).count(), 1);
}

#[test]
fn scalar_smears_into_vectors_and_matrices() {
    let o = frag("float3 v = 2; float2x2 m = 0.5;");
    let ir = o.clean();
    assert!(ir.contains("(splat:float3 (lit 2.0:float))"), "{ir}");
    assert!(ir.contains("(splat:float2x2 (lit 0.5:float))"), "{ir}");
    assert!(o.diags.is_empty());
}

#[test]
fn struct_to_vector_needs_a_cast() {
    let src = "struct S { float2 a; float b; };\nfloat4 main() : COLOR { S s; s.a = 1; s.b = 2; float2 x = s; float2 y = (float2)s; return 0; }";
    let o = run(src, "main", "fp40");
    assert_eq!(o.errors(), vec!["E0304 cannot convert S to float2 without a cast".to_string()]);
}

#[test]
fn float_to_int_warns_about_precision() {
    let o = frag("float f = 2.7; int i = f;");
    assert!(o.codes().contains(&codes::W_PRECISION), "{:?}", o.diags);
}

// ---- operators ----

#[test]
fn binary_smearing_and_mismatched_vectors() {
    let o = frag("float4 a = 1; float b = 2; float4 c = a * b; float3 d = float3(1,2,3); float3 e = a + d;");
    let ir = o.clean();
    assert!(ir.contains("(mul:float4 (var local#0:float4) (splat:float4 (var local#1:float)))"), "{ir}");
    assert!(ir.contains("(add:float3 (truncate:float3 (var local#0:float4)) (var local#3:float3))"), "{ir}");
    assert!(o.codes().contains(&codes::W_TRUNCATION));
}

#[test]
fn modulo_is_for_integers_only() {
    let o = frag("float a = 5; float b = a % 2.0;");
    assert_eq!(o.codes(), vec![codes::E_BAD_OPERANDS]);
    let o = frag("int a = 5; int b = a % 2;");
    assert!(o.clean().contains("(rem:int"), "{}", o.ir);
}

#[test]
fn bool_vector_logic_is_componentwise() {
    let o = frag("float4 a = 1; float4 b = 2; bool4 m = a > b; bool4 n = m && !m || (a == b);");
    let ir = o.clean();
    assert!(ir.contains("(gt:bool4 (var local#0:float4) (var local#1:float4))"), "{ir}");
    assert!(ir.contains("(or:bool4 (and:bool4 (var local#2:bool4) (not:bool4 (var local#2:bool4))) (eq:bool4"), "{ir}");
}

#[test]
fn select_with_bool_vector_condition_smears_scalars() {
    let o = frag("float4 a = 1; float4 r = (a > 0.5) ? 1.0 : a;");
    let ir = o.clean();
    assert!(ir.contains("(select:float4 (gt:bool4 (var local#0:float4) (splat:float4 (lit 0.5:float))) (splat:float4 (lit 1.0:float)) (var local#0:float4))"), "{ir}");
}

#[test]
fn not_of_a_float_vector_gives_bools() {
    let o = frag("float3 a = 0; bool3 b = !a;");
    assert!(o.clean().contains("(not:bool3 (convert:bool3 (var local#0:float3)))"), "{}", o.ir);
}

#[test]
fn compound_assignment_in_a_narrower_type_is_done_in_the_wider() {
    let o = frag("int i = 3; i *= 0.5;");
    assert!(o.clean().contains("(assign:int (var local#0:int) (convert:int (mul:float (convert:float (var local#0:int)) (lit 0.5:float))))"), "{}", o.ir);
}

// ---- swizzles and write masks ----

#[test]
fn swizzle_forms() {
    let o = frag("float4 v = 1; float s = 2; float3 a = v.xzy; float4 b = v.rgba; float2 c = v.st; float3 d = s.xxx; float e = v.w; float3 f = 1..xxx; float2 g = (1).xx;");
    let ir = o.clean();
    assert!(ir.contains("(swizzle .xzy:float3 (var local#0:float4))"), "{ir}");
    assert!(ir.contains("(swizzle .xxx:float3 (var local#1:float))"), "{ir}");
    assert!(ir.contains("(swizzle .w:float (var local#0:float4))"), "one component gives a scalar: {ir}");
}

#[test]
fn illegal_swizzles() {
    assert_eq!(frag("float4 v = 1; float2 a = v.xg;").codes(), vec![codes::E_BAD_MEMBER], "mixed sets");
    assert_eq!(frag("float2 v = 1; float a = v.z;").codes(), vec![codes::E_BAD_MEMBER], "out of range");
    assert_eq!(frag("float4 v = 1; float4 a = v.xyzwx;").codes(), vec![codes::E_BAD_MEMBER], "too long");
}

#[test]
fn write_masks() {
    let o = frag("float4 v = 0; v.zx = float2(1, 2);");
    assert!(
        o.clean().contains("(assign:float2 (swizzle .zx:float2 (var local#0:float4)) (construct:float2"),
        "{}",
        o.ir
    );
    assert_eq!(frag("float4 v = 0; v.xx = float2(1, 2);").codes(), vec![codes::E_NOT_LVALUE]);
}

#[test]
fn matrix_swizzles_zero_and_one_based() {
    let o = frag(
        "float4x4 m = 1; float4 a = m._m00_m23_m11_m31; float4 b = m._11_34_22_42; float c = m._m32; float4 r = m[1];",
    );
    let ir = o.clean();
    assert!(ir.contains("(elements _m00_m23_m11_m31:float4 (var local#0:float4x4))"), "{ir}");
    assert!(
        ir.contains("(elements _m00_m23_m11_m31:float4 (var local#0:float4x4))\n")
            || ir.matches("elements _m00_m23_m11_m31").count() == 2,
        "{ir}"
    );
    assert!(ir.contains("(index:float4 (var local#0:float4x4) (lit 1:int))"), "{ir}");
}

#[test]
fn constructors_count_components() {
    let o = frag("float2 a = 1; float4 b = float4(a, 3, 4); float3x3 m = float3x3(1, a, float3(1,1,1), 7, 8, 9);");
    o.clean();
    assert_eq!(frag("float4 b = float4(1, 2, 3);").codes(), vec![codes::E_BAD_CONSTRUCTOR]);
}

// ---- overload resolution ----

#[test]
fn user_overloads_pick_exact_then_promotion() {
    let src = "float f(float x) { return 1; }\nfloat f(int x) { return 2; }\nfloat4 main() : COLOR { half h = 1; float a = f(h); int i = 1; float b = f(i); return 0; }";
    let o = run(src, "main", "fp40");
    let ir = o.clean();
    assert!(ir.contains("(call f#0:float (convert:float (var local#0:half)))"), "half promotes to float: {ir}");
    assert!(ir.contains("(call f#1:float (var local#2:int))"), "{ir}");
}

#[test]
fn default_arguments_fill_in() {
    let src = "float scale(float x, float k = 2.0) { return x * k; }\nfloat4 main() : COLOR { return scale(3.0); }";
    let o = run(src, "main", "fp40");
    assert!(o.clean().contains("(call scale#0:float (lit 3.0:float) (lit 2.0:float))"), "{}", o.ir);
}

#[test]
fn ambiguous_and_unmatched_list_candidates() {
    let src = "float f(float2 x) { return 1; }\nfloat f(float3 x) { return 2; }\nfloat4 main() : COLOR { float4 v = 1; float a = f(v); float b = f(true, 1); return 0; }";
    let o = run(src, "main", "fp40");
    assert_eq!(o.codes(), vec![codes::E_AMBIGUOUS_OVERLOAD, codes::E_NO_OVERLOAD]);
    assert_eq!(o.diags[0].notes.len(), 2, "{:?}", o.diags[0]);
}

#[test]
fn stdlib_resolves_with_constants() {
    let o = frag("float3 c = 1; float3 a = pow(c, 2.2); float3 l = lerp(c, c, 0.5); float d = dot(c, c); half3 h = 1; half3 k = lerp(h, h, 0.25);");
    let ir = o.clean();
    assert!(ir.contains("(builtin pow:float3 (var local#0:float3) (splat:float3 (lit 2.2"), "{ir}");
    assert!(ir.contains("(builtin lerp:float3 (var local#0:float3) (var local#0:float3) (lit 0.5:float))"), "{ir}");
    assert!(ir.contains("(builtin lerp:half3 (var local#4:half3) (var local#4:half3) (lit 0.25:half))"), "{ir}");
}

#[test]
fn glsl_builtins_nvidia_accepted_resolve_with_a_warning() {
    let o = frag(
        "float2 c = uv; float2 f = fract(c); float3 m = mix(float3(0), float3(1), 0.5); float2 r = mod(c, 3.0); \
         float s = mod(c.x, c.y);",
    );
    let ir = o.clean();
    assert!(ir.contains("(builtin frac:float2 (var local#0:float2))"), "{ir}");
    assert!(ir.contains("(builtin lerp:float3"), "{ir}");
    assert!(ir.contains("(builtin mod:float2 (var local#0:float2) (lit 3.0:float))"), "{ir}");
    assert!(ir.contains("(builtin mod:float "), "{ir}");
    assert_eq!(o.codes(), [codes::W_GLSL_BUILTIN; 4]);
}

#[test]
fn glsl_builtins_yield_to_user_functions_and_cg_names() {
    // A program's own `mod` wins and draws no warning; Cg names never warn.
    let o = frag("float m = mod(uv.x, 2.0); float f = frac(uv.x);");
    assert_eq!(o.codes(), [codes::W_GLSL_BUILTIN]);
    let src = "float mod(float a, float b) { return a - b; }\n\
               float4 main(float2 uv : TEXCOORD0) : COLOR { return mod(uv.x, 2.0); }";
    let o = run(src, "main", "fp40");
    assert!(o.clean().contains("(call "), "{}", o.ir);
    assert!(o.codes().is_empty(), "{:?}", o.codes());
    // GLSL names that NVIDIA's compiler did not take stay undeclared; those it
    // declared (cg-stdlib-overloads.tsv) are taken, with the warning.
    assert_eq!(frag("float f = packUnorm2x16(uv);").codes(), [codes::E_UNDECLARED]);
    assert_eq!(frag("float f = inversesqrt(uv.x);").codes(), [codes::W_GLSL_BUILTIN]);
    let o = frag("float2 d = dFdx(uv) + dFdy(uv); float r = roundEven(uv.x);");
    // roundEven is declared in gp4/gp5 only: W0308 too (see the profile-family tests).
    assert_eq!(
        o.codes(),
        [codes::W_GLSL_BUILTIN, codes::W_GLSL_BUILTIN, codes::W_PROFILE_FAMILY, codes::W_GLSL_BUILTIN]
    );
    assert!(o.ir.contains("(builtin ddx:float2") && o.ir.contains("(builtin round:float"), "{}", o.ir);
}

#[test]
fn mul_forms() {
    let o = frag("float3x4 m = 1; float4 v = 1; float3 r = mul(m, v); float3 w = 1; float4 q = mul(w, m); float4x2 n = 1; float3x2 p = mul(m, n);");
    let ir = o.clean();
    assert!(ir.contains("(builtin mul:float3 (var local#0:float3x4) (var local#1:float4))"), "{ir}");
    assert!(ir.contains("(builtin mul:float4 (var local#3:float3) (var local#0:float3x4))"), "{ir}");
    assert!(ir.contains("(builtin mul:float3x2 (var local#0:float3x4) (var local#5:float4x2))"), "{ir}");
}

#[test]
fn profile_overloads_choose_by_stage() {
    let src = "vs float pick() { return 1; }\nps float pick() { return 2; }\nfloat pick() { return 3; }\n\
               float4 main_vertex() : POSITION { return pick(); }\nfloat4 main_fragment() : COLOR { return pick(); }";
    let v = run(src, "main_vertex", "vp40");
    assert!(v.clean().contains("(call pick#0:float)"), "{}", v.ir);
    let f = run(src, "main_fragment", "fp40");
    assert!(f.clean().contains("(call pick#1:float)"), "{}", f.ir);
    let exact =
        "fp40 float pick() { return 9; }\nps float pick() { return 2; }\nfloat4 main() : COLOR { return pick(); }";
    assert!(run(exact, "main", "fp40").clean().contains("(call pick#0:float)"));
    assert!(run(exact, "main", "arbfp1").clean().contains("(call pick#1:float)"));
}

// ---- profiles and entry points ----

#[test]
fn profile_restrictions_apply_only_to_reached_code() {
    let src = "float unused(float x) { clip(x); return x; }\nfloat4 main(float4 p : POSITION) : POSITION { return p; }";
    assert!(run(src, "main", "vp40").diags.is_empty());
    let src =
        "float used(float x) { clip(x); return x; }\nfloat4 main(float4 p : POSITION) : POSITION { return used(p.x); }";
    assert_eq!(run(src, "main", "vp40").codes(), vec![codes::E_PROFILE]);
    assert!(run(src, "main", "fp40").diags.is_empty());
}

#[test]
fn vertex_programs_take_the_lookups_and_derivatives_cgc_declared_for_them() {
    // glslv, gp4vp and gp5vp declare ddx/ddy/fwidth and the implicit-level lookups for
    // every stage; the offset forms and clip stay fragment-only.
    let src = "float4 main(float4 p : POSITION, float2 uv : TEXCOORD0, uniform sampler2D s : TEXUNIT0, out float4 c : COLOR0) : POSITION\n               { c = tex2D(s, uv) + tex2Dbias(s, float4(uv, 0.0, 1.0)) + tex2Dproj(s, float3(uv, 2.0)) + ddx(p) + ddy(p) + fwidth(p); return p; }";
    for profile in ["glslv", "gp4vp", "gp5vp", "vp40"] {
        let v = run(src, "main", profile);
        assert!(v.diags.is_empty(), "{profile}: {:?}", v.codes());
    }
    let offset = src.replace("tex2D(s, uv)", "tex2D(s, uv, int2(1, 0))");
    // (glslv had no offset form at all: W0308 says so beside the stage error.)
    assert!(run(&offset, "main", "glslv").codes().contains(&codes::E_PROFILE));
    assert_eq!(run(&src.replace("return p;", "clip(p.x); return p;"), "main", "glslv").codes(), vec![codes::E_PROFILE]);
}

#[test]
fn missing_entry_point() {
    assert_eq!(run("float f() { return 1; }", "main_fragment", "fp40").codes(), vec![codes::E_NO_ENTRY_POINT]);
}

#[test]
fn recursion_is_rejected() {
    let src = "float f(float x) { return x > 0 ? f(x - 1) : 0; }\nfloat4 main() : COLOR { return f(3); }";
    assert_eq!(run(src, "main", "fp40").codes(), vec![codes::E_RECURSION]);
}

/// A chain of `n` functions, each calling the one before, called by `main`.
fn call_chain(n: usize) -> String {
    let mut src = String::from("float f0(float x) { return x; }\n");
    for i in 1..n {
        src.push_str(&format!("float f{i}(float x) {{ return f{}(x) + 1.0; }}\n", i - 1));
    }
    src.push_str(&format!("float4 main() : COLOR {{ return f{}(0.0); }}\n", n - 1));
    src
}

#[test]
fn a_stage_may_call_up_to_the_function_limit() {
    // `main` plus the chain: exactly the limit is fine, one more is E0321 at the entry point.
    let at_limit = run(&call_chain(limits::MAX_STAGE_FUNCTIONS - 1), "main", "fp40");
    assert!(!at_limit.codes().contains(&codes::E_TOO_MANY_FUNCTIONS), "{:?}", at_limit.errors());
    let over = run(&call_chain(limits::MAX_STAGE_FUNCTIONS), "main", "fp40");
    assert_eq!(over.codes(), vec![codes::E_TOO_MANY_FUNCTIONS]);
    assert!(over.errors()[0].contains("4097 functions"), "{:?}", over.errors());
}

#[test]
fn retroarch_style_entry_points() {
    let src = "struct input { float2 video_size; float2 texture_size; float2 output_size; float frame_count; };\n\
        void main_vertex(float4 position : POSITION, out float4 oPosition : POSITION, float2 tex : TEXCOORD0, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj, uniform input IN)\n\
        { oPosition = mul(modelViewProj, position); oTex = tex * (IN.video_size / IN.texture_size); }\n\
        float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0, uniform input IN) : COLOR\n\
        { return tex2D(s0, tex) * frac(IN.frame_count / 60.0); }";
    let v = run(src, "main_vertex", "vp40");
    assert!(v.clean().contains("(builtin mul:float4 (var param#4:float4x4) (var param#0:float4))"), "{}", v.ir);
    let f = run(src, "main_fragment", "fp40");
    assert!(f.clean().contains("(builtin tex2D:float4 (var param#1:sampler2D) (var param#0:float2))"), "{}", f.ir);
}

// ---- declarations ----

#[test]
fn structs_methods_interfaces() {
    let src = "interface Light { float3 illuminate(float3 n); };\n\
        struct Sun : Light { float3 dir; float3 illuminate(float3 n) { return max(dot(n, dir), 0) * float3(1, 1, 1); } };\n\
        struct Lamp : Light { float3 pos; float3 illuminate(float3 n) { return saturate(n - pos); } };\n\
        float3 shade(Light l, float3 n) { return l.illuminate(n); }\n\
        float4 main(float3 n : TEXCOORD0) : COLOR { Sun s; s.dir = float3(0, 0, 1); Lamp l; l.pos = 0; return float4(shade(s, n) + shade(l, n), 1); }";
    let o = run(src, "main", "fp40");
    let ir = o.clean();
    assert_eq!(ir.matches("fn#").count(), 6, "two methods, the generic shade, main and two specialisations: {ir}");
    assert!(ir.contains("fn#4 shade(Sun l, float3 n)") && ir.contains("fn#5 shade(Lamp l, float3 n)"), "{ir}");
    assert!(ir.contains("(call illuminate#0:float3 (var param#0:Sun)"), "{ir}");
    assert!(ir.contains("(call illuminate#1:float3 (var param#0:Lamp)"), "{ir}");
}

#[test]
fn missing_interface_method() {
    let src = "interface I { float f(); };\nstruct S : I { float x; };\nfloat4 main() : COLOR { return 0; }";
    assert_eq!(run(src, "main", "fp40").codes(), vec![codes::E_BAD_INTERFACE]);
}

#[test]
fn arrays_initializer_lists_and_length() {
    let o = frag("float w[3] = { 0.25, 0.5, 0.25 }; float2 o2[2] = { 1, 2, 3, 4 }; float u[] = { 1, 2 }; int n = w.length; float3x3 m = { {1,0,0}, {0,1,0}, {0,0,1} };");
    let ir = o.clean();
    assert!(ir.contains("local float[3] w"), "{ir}");
    assert!(ir.contains("local float[2] u"), "unsized array takes its size from the initializer: {ir}");
    assert!(ir.contains("(lit 3:int)"), "{ir}");
}

#[test]
fn typedefs_and_generic_types() {
    let o = frag("typedef float3 color; color c = 1; vector<half, 2> v = 1; matrix<float, 2, 3> m = 0;");
    let ir = o.clean();
    assert!(ir.contains("local float3 c"), "{ir}");
    assert!(ir.contains("local half2 v"), "{ir}");
    assert!(ir.contains("local float2x3 m"), "{ir}");
}

#[test]
fn switch_loops_and_control_flow() {
    let o = frag(
        "int k = 2; float acc = 0; for (int i = 0; i < 4; i++) { if (i == 2) continue; acc += i; }\n\
        switch (k) { case 1: case 2: acc = 1; break; default: acc = 2; }\n\
        do { acc -= 1; } while (acc > 0); while (acc < 3) acc++; if (acc > 100) discard;",
    );
    let ir = o.clean();
    assert!(ir.contains("case 1, case 2:"), "{ir}");
    assert!(frag("break;").codes() == vec![codes::E_BAD_CONTROL_FLOW]);
}

#[test]
fn analysis_continues_after_errors() {
    let o = frag("float a = nope; float b = also_nope; float4 c = float4(1,2,3);");
    assert_eq!(o.codes(), vec![codes::E_UNDECLARED, codes::E_UNDECLARED, codes::E_BAD_CONSTRUCTOR]);
}

#[test]
fn type_errors_carry_the_span_of_the_expression() {
    let mut sources = SourceMap::new();
    let src = "float4 main() : COLOR {\n    float3 a = 1;\n    float4 b = a;\n    return b;\n}\n";
    let parsed = grammar::parse_str(&mut sources, "t.cg", src, &PpOptions::default(), &MemoryFs::new());
    let (_, diags) = analyze(&parsed.unit, &[], &SemaOptions::new("main", Stage::Fragment));
    let loc = diags[0].location(&sources).expect("located");
    assert_eq!((loc.line, loc.column), (3, 16));
}

// ---- what cgc 3.1 meant (shared/reference/cgc-facts.md) ----

#[test]
fn glsl_type_names_are_cg_types_and_constructors() {
    let o = frag(
        "vec2 a = vec2(1.0, 2.0); vec3 b = vec3(a, 3.0); vec4 c = vec4(b, 1.0); ivec2 i = ivec2(1, 2); \
         uvec3 u = uvec3(1, 2, 3); bvec4 q = bvec4(true, false, true, false); dvec2 d = dvec2(1.0, 2.0); \
         mat2 m2 = mat2(1, 0, 0, 1); mat3 m3; mat4 m4; mat4x2 m42;",
    );
    let ir = o.clean();
    for want in [
        "local float2 a = (construct:float2",
        "local float3 b = (construct:float3",
        "local float4 c = (construct:float4",
        "local int2 i = (construct:int2",
        "local uint3 u = (construct:uint3",
        "local bool4 q = (construct:bool4",
        "local double2 d = (construct:double2",
        "local float2x2 m2 = (construct:float2x2",
        "local float3x3 m3;",
        "local float4x4 m4;",
        "local float4x2 m42;",
    ] {
        assert!(ir.contains(want), "{want}\n{ir}");
    }
}

#[test]
fn mat_rxc_is_cgs_rows_by_columns() {
    // `mat2x3` is Cg's float2x3: 2 rows of 3, so mul(m, float3) is a float2 and
    // mul(m, float2) finds no overload, as with float2x3 (cgc: ambiguous).
    let o = frag("mat2x3 m = mat2x3(1, 2, 3, 4, 5, 6); float2 r = mul(m, float3(1, 1, 1));");
    let ir = o.clean();
    assert!(ir.contains("local float2x3 m"), "{ir}");
    assert!(ir.contains("(builtin mul:float2 (var local#0:float2x3)"), "{ir}");
    let o = frag("mat2x3 m; float3 r = mul(m, float2(1, 1));");
    assert!(!o.errors().is_empty(), "{}", o.ir);
}

#[test]
fn texture2d_stays_a_type_name_not_a_function() {
    // cgc: "invalid type in type constructor".
    let src = "float4 main(float2 uv : TEXCOORD0, uniform sampler2D s) : COLOR { return texture2D(s, uv); }";
    assert!(!run(src, "main", "glslf").errors().is_empty());
}

#[test]
fn scalar_edges_keep_the_vector() {
    let o = frag("float3 c = float3(0.1, 0.5, 0.9); float3 s = smoothstep(0.2, 0.8, c); float3 t = step(0.5, c);");
    let ir = o.clean();
    assert!(ir.contains("(builtin smoothstep:float3 (lit 0.2:float) (lit 0.8:float) (var local#0:float3))"), "{ir}");
    assert!(ir.contains("(builtin step:float3 (lit 0.5:float) (var local#0:float3))"), "{ir}");
    // Inside a vector expression the vector form wins too (was: x cut to x.x).
    let o = frag("float3 c = 0.5; float4 r = float4(smoothstep(0.2, 0.8, c), 1.0);");
    assert!(o.clean().contains("(builtin smoothstep:float3"), "{}", o.ir);
}

#[test]
fn component_wise_functions_take_no_matrices() {
    // cgc declares none: `sin(float2x2)` is an error there.
    assert!(!frag("float2x2 m = 1; float2x2 r = sin(m);").errors().is_empty());
}

#[test]
fn glslv_warns_on_texcoord_above_7() {
    let src = "void main(float4 p : POSITION, out float4 o : POSITION, out float2 t8 : TEXCOORD8, out float2 t7 : TEXCOORD7) { o = p; t8 = 0; t7 = 0; }";
    let o = run(src, "main", "glslv");
    assert_eq!(o.codes().iter().filter(|c| **c == codes::W_PROFILE_LIMIT).count(), 1, "{:?}", o.diags);
    // gp4vp accepted it.
    assert!(!run(src, "main", "gp4vp").codes().contains(&codes::W_PROFILE_LIMIT));
    // Struct outputs too.
    let src = "struct V { float4 p : POSITION; float2 t : TEXCOORD9; }; V main(float4 p : POSITION) { V v; v.p = p; v.t = 0; return v; }";
    assert!(run(src, "main", "glslv").codes().contains(&codes::W_PROFILE_LIMIT));
}

fn family_warnings(o: &Out) -> Vec<String> {
    o.diags.iter().filter(|d| d.code == codes::W_PROFILE_FAMILY).map(|d| d.message.clone()).collect()
}

#[test]
fn profile_family_only_in_gp4_gp5_and_rejected_by_glsl() {
    // cgc 3.1 declares `fma` in gp5 only and `abs(int2)` in gp4/gp5 only; under glslf
    // the first is undeclared and the second ties the float-family forms.
    let o = run("float4 main(float2 uv : TEXCOORD0) : COLOR { int2 i = int2(uv * 8.0); return float4(abs(i - 4), fma(uv.x, uv.y, 0.5), 1); }", "main", "glslf");
    let w = family_warnings(&o);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("`abs(int2)` is declared only in the gp4fp/gp5fp profiles"), "{}", w[0]);
    assert!(w[0].contains("glslf rejected the call"), "{}", w[0]);
    assert!(w[1].starts_with("`fma(float, float, float)` is declared only in the gp5fp profiles"), "{}", w[1]);
    // The translation keeps the gp4/gp5 meaning (an int abs).
    assert!(o.clean().contains("(builtin abs:int2"), "{}", o.ir);
}

#[test]
fn profile_family_resolves_differently_in_glslv() {
    // cgc measured: clamp(int3, int, int) is float3 under glslv (no int or half forms in
    // its vertex profile) and int3 under gp5vp.
    let src = "void main(float4 p : POSITION, out float4 o : POSITION) { int3 i = int3(p.xyz); int3 c = clamp(i, 0, 2); o = float4(c, 1); }";
    let w = family_warnings(&run(src, "main", "glslv"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("`clamp(int3, int, int)` is declared only in the gp4vp/gp5vp profiles"), "{}", w[0]);
    assert!(w[0].contains("glslv chose `clamp(float3, float, float)` (returning float3)"), "{}", w[0]);
    // `step(half, half3)` exists in every fragment profile (no warning there) but in no
    // GLSL vertex profile.
    let frag_src =
        "float4 main(float2 uv : TEXCOORD0) : COLOR { half3 h = half3(uv, 1); return float4(step(half(0.5), h), 1); }";
    assert!(family_warnings(&run(frag_src, "main", "glslf")).is_empty());
    let vert = "void main(float4 p : POSITION, out float4 o : POSITION) { half3 h = half3(p.xyz); o = float4(step(half(0.5), h), 1); }";
    let w = family_warnings(&run(vert, "main", "glslv"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("glslv chose `step(float, float3)`"), "{}", w[0]);
}

#[test]
fn profile_family_silent_where_both_agree_or_a_user_function_is_called() {
    let o = frag("float3 c = float3(uv, 1); float3 r = clamp(sin(c), 0.0, 1.0) + step(0.5, c); float d = dot(c, c);");
    assert!(family_warnings(&o).is_empty(), "{:?}", family_warnings(&o));
    let src = "int2 abs(int2 x) { return x < 0 ? -x : x; }\n\
               float4 main(float2 uv : TEXCOORD0) : COLOR { return float4(abs(int2(uv)), 0, 1); }";
    assert!(family_warnings(&run(src, "main", "glslf")).is_empty());
}

#[test]
fn a_branch_a_constant_condition_never_takes_is_not_checked() {
    // crt-royale's -intel variants: cgc compiled them.
    let o = frag("static const bool on = true; float x; if (on) x = 1; else x = MISSING.y;");
    assert!(o.errors().is_empty(), "{:?}", o.errors());
    let o = frag("if (false) { float y = undeclared_thing; }");
    assert!(o.errors().is_empty(), "{:?}", o.errors());
    // A branch that may run is checked.
    let o =
        run("float4 main(float2 uv : TEXCOORD0) : COLOR { if (uv.x > 0) return MISSING; return 0; }", "main", "fp40");
    assert_eq!(o.codes(), [codes::E_UNDECLARED]);
}
