//! Known-answer tests of the CPU reference renderer: small Cg programs rendered into tiny
//! images, pixels compared with hand-computed values (per standard-library family,
//! operators, control flow, derivatives, sampling and wrap modes, the Cg runtime's
//! names), plus corpus shaders that must render without a diagnostic.

mod support;

use runtime_check::reference::{bound, render_pass, PassInputs, RgbaF32Image, SamplerState, WrapMode};
use support::{cg_program, source4};

const HEADER: &str = "struct input { float2 video_size; float2 texture_size; float2 output_size; float frame_count; float frame_direction; };\n\
void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; }\n";

fn render_with(src: &str, inputs: PassInputs) -> RgbaF32Image {
    let prog = cg_program(src);
    match render_pass(&prog, &inputs) {
        Ok(r) => r.image,
        Err(d) => panic!("render failed: {d:#?}"),
    }
}

/// Renders `body` as `main_fragment(float2 tex : TEXCOORD0, sampler2D s : TEXUNIT0, input IN)`.
fn frag(body: &str, size: (u32, u32)) -> RgbaF32Image {
    let src = format!("{HEADER}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0, uniform input IN) : COLOR\n{{\n{body}\n}}\n");
    render_with(&src, PassInputs::single(source4(), SamplerState::default(), size))
}

/// The colour of pixel (0, 0) of a 2x2 render of `body`.
fn px(body: &str) -> [f32; 4] {
    frag(body, (2, 2)).pixels[0]
}

fn close(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-5 * (1.0 + y.abs()))
}

macro_rules! assert_px {
    ($body:expr, $want:expr) => {{
        let got = px($body);
        assert!(close(got, $want), "{}\n got  {:?}\n want {:?}", $body, got, $want);
    }};
}

#[test]
fn constant_and_texcoords() {
    assert_px!("return float4(0.25, 0.5, 0.75, 1.0);", [0.25, 0.5, 0.75, 1.0]);
    let img = frag("return float4(tex, 0.0, 1.0);", (4, 2));
    // Pixel centres: tex = ((x + 0.5) / 4, (y + 0.5) / 2).
    assert!(close(img.pixels[0], [0.125, 0.25, 0.0, 1.0]), "{:?}", img.pixels[0]);
    assert!(close(img.pixels[4 + 3], [0.875, 0.75, 0.0, 1.0]), "{:?}", img.pixels[7]);
}

const PI: f32 = std::f32::consts::PI;

#[test]
fn trigonometry() {
    assert_px!("return float4(sin(0.5), cos(0.5), tan(0.5), 1);", [0.5f32.sin(), 0.5f32.cos(), 0.5f32.tan(), 1.0]);
    assert_px!(
        "return float4(asin(0.5), acos(0.5), atan(1.0), atan2(1.0, -1.0));",
        [PI / 6.0, PI / 3.0, PI / 4.0, 0.75 * PI]
    );
    assert_px!(
        "return float4(sinh(1.0), cosh(1.0), tanh(1.0), degrees(3.14159265));",
        [1f32.sinh(), 1f32.cosh(), 1f32.tanh(), 180.0]
    );
    assert_px!(
        "float s, c; sincos(0.25, s, c); return float4(s, c, radians(180.0), 1);",
        [0.25f32.sin(), 0.25f32.cos(), PI, 1.0]
    );
}

#[test]
fn fmod_is_cgs_frac_form_with_its_rounding() {
    // Cg's standard library defines fmod(x, y) as frac(|x / y|) * |y| with the sign of
    // x, which cgc inlined: fmod(4, 3) is frac(1.3333334) * 3 = 1.0000001, not 1.
    let got = px("return float4(fmod(4.0, 3.0), fmod(-4.0, 3.0), fmod(6.0, 3.0), 1.0);");
    assert_eq!(got[0], 1.0 + f32::EPSILON, "{got:?}");
    assert_eq!(got[1], -(1.0 + f32::EPSILON), "{got:?}");
    assert_eq!(got[2], 0.0, "{got:?}");
}

#[test]
fn inputs_assigned_by_the_program_keep_their_per_invocation_values() {
    // Both stages overwrite an input parameter; every vertex and every quad must still
    // start from its own attribute or interpolated value.
    let src = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n\
{ oPosition = mul(modelViewProj, position); tex = tex * 2.0; oTex = tex; }\n\
float4 main_fragment(float2 tex : TEXCOORD0) : COLOR { tex = tex * 0.5; return float4(tex, 0.0, 1.0); }\n";
    let img = render_with(src, PassInputs::single(source4(), SamplerState::default(), (4, 2)));
    assert!(close(img.pixels[0], [0.125, 0.25, 0.0, 1.0]), "{:?}", img.pixels[0]);
    assert!(close(img.pixels[7], [0.875, 0.75, 0.0, 1.0]), "{:?}", img.pixels[7]);
}

#[test]
fn semantic_less_connector_fields_link_by_name() {
    // cgc allocated fields without semantics by struct layout in both programs.
    let src = "struct v2f { float2 uv; float2 twice; };\n\
void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out v2f o)\n\
{ oPosition = mul(modelViewProj, position); o.uv = tex; o.twice = tex * 2.0; }\n\
float4 main_fragment(in v2f i) : COLOR { return float4(i.uv, i.twice.x, 1.0); }\n";
    let img = render_with(src, PassInputs::single(source4(), SamplerState::default(), (4, 2)));
    assert!(close(img.pixels[0], [0.125, 0.25, 0.25, 1.0]), "{:?}", img.pixels[0]);
}

#[test]
fn exponentials_and_powers() {
    assert_px!(
        "return float4(exp(1.0), exp2(3.0), log(2.718281828), log2(8.0));",
        [std::f32::consts::E, 8.0, 1.0, 3.0]
    );
    assert_px!("return float4(log10(100.0), pow(2.0, 10.0), sqrt(16.0), rsqrt(4.0));", [2.0, 1024.0, 4.0, 0.5]);
    // C99 pow: a negative base with an integral exponent is real.
    assert_px!("return float4(pow(-2.0, 3.0), pow(5.0, 0.0), ldexp(1.5, 2.0), 1);", [-8.0, 1.0, 6.0, 1.0]);
    assert_px!("float e; float m = frexp(12.0, e); return float4(m, e, 0, 1);", [0.75, 4.0, 0.0, 1.0]);
}

#[test]
fn rounding_and_remainders() {
    // Cg fmod truncates: the sign follows x.
    assert_px!("return float4(fmod(-5.5, 2.0), fmod(5.5, -2.0), fmod(5.5, 2.0), frac(-0.25));", [-1.5, 1.5, 1.5, 0.75]);
    assert_px!("return float4(floor(-1.5), ceil(-1.5), trunc(-1.5), round(2.5));", [-2.0, -1.0, -1.0, 2.0]);
    assert_px!(
        "float i; float f = modf(-2.75, i); return float4(f, i, round(-0.5), round(3.5));",
        [-0.75, -2.0, 0.0, 4.0]
    );
    assert_px!(
        "return float4(abs(-2.0), sign(-3.0), sign(0.0), min(2.0, 3.0) + max(2.0, 3.0));",
        [2.0, -1.0, 0.0, 5.0]
    );
}

#[test]
fn interpolation_family() {
    assert_px!(
        "return float4(lerp(2.0, 4.0, 0.25), saturate(-1.0), saturate(2.0), saturate(0.5));",
        [2.5, 0.0, 1.0, 0.5]
    );
    assert_px!(
        "return float4(step(0.5, 0.4), step(0.5, 0.5), smoothstep(0.0, 1.0, 0.5), smoothstep(0.0, 2.0, 0.5));",
        [0.0, 1.0, 0.5, 0.15625]
    );
    assert_px!(
        "return float4(clamp(float2(-1, 5), 0.0, 2.0), lerp(float2(0, 10), float2(1, 20), 0.5));",
        [0.0, 2.0, 0.5, 15.0]
    );
}

#[test]
fn scalar_edge_step_and_smoothstep_keep_every_component() {
    // cgc declares step(float, floatN) and smoothstep(float, float, floatN): each
    // component of x against the one edge (not x cut to x.x by the scalar overload).
    assert_px!("float3 c = float3(0.4, 0.5, 0.9); return float4(step(0.5, c), 1.0);", [0.0, 1.0, 1.0, 1.0]);
    assert_px!(
        "float3 c = float3(0.2, 0.5, 0.65); return float4(smoothstep(0.2, 0.8, c), 1.0);",
        [0.0, 0.5, 0.84375, 1.0]
    );
    // In a vector expression too (the crt-aperture case: only blue differed).
    assert_px!(
        "float3 c = float3(0.1, 0.5, 0.7); return float4(c * 0.0 + smoothstep(0.0, 1.0, c), 1.0);",
        [0.028, 0.5, 0.784, 1.0]
    );
    assert_px!("float2 v = float2(0.25, 0.75); return float4(max(v, 0.5), min(v, 0.5));", [0.5, 0.75, 0.25, 0.5]);
    assert_px!(
        "return float4(atan(1.0, -1.0), refract(float2(0.6, -0.8), float2(0, 1), 1.0), 1);",
        [0.75 * PI, 0.6, -0.8, 1.0]
    );
}

#[test]
fn uniforms_written_by_the_program_start_from_the_bound_value() {
    // Cg's uniform parameters are the program's own copies: written, they change for
    // the rest of the program only (IN.frame_count is 10 % 4 = 2 here).
    assert_eq!(
        names("float a = IN.frame_count = IN.frame_count / 4.0; IN.frame_count += 1.0; return float4(a, IN.frame_count, GAIN, 1);", ""),
        [0.5, 1.5, 0.25, 1.0]
    );
    assert_eq!(names("GAIN *= 2.0; GAIN++; return float4(GAIN, 0, 0, 1);", ""), [1.5, 0.0, 0.0, 1.0]);
}

#[test]
fn geometry() {
    assert_px!("return float4(dot(float3(1, 2, 3), float3(4, 5, 6)), length(float2(3, 4)), distance(float2(1, 1), float2(4, 5)), 1);", [32.0, 5.0, 5.0, 1.0]);
    assert_px!("return float4(cross(float3(1, 0, 0), float3(0, 1, 0)), 1);", [0.0, 0.0, 1.0, 1.0]);
    assert_px!("return float4(normalize(float2(3, 4)), reflect(float2(1, -1), float2(0, 1)));", [0.6, 0.8, 1.0, 1.0]);
    // Straight through (eta = 1) and total internal reflection (zero vector).
    assert_px!("return float4(refract(float3(0, 0, -1), float3(0, 0, 1), 1.0), 1);", [0.0, 0.0, -1.0, 1.0]);
    assert_px!("return float4(refract(normalize(float3(1, 0, -0.1)), float3(0, 0, 1), 1.5), 1);", [0.0, 0.0, 0.0, 1.0]);
    assert_px!(
        "return float4(faceforward(float2(1, 2), float2(1, 0), float2(1, 0)), lit(0.5, 0.5, 2.0).yz);",
        [-1.0, -2.0, 0.5, 0.25]
    );
}

#[test]
fn matrices_in_all_three_mul_forms() {
    // float2x3: 2 rows, 3 columns, filled row by row.
    let m = "float2x3 M = float2x3(1, 2, 3, 4, 5, 6);";
    assert_px!(&format!("{m} return float4(mul(M, float3(1, 1, 1)), 0, 1);"), [6.0, 15.0, 0.0, 1.0]);
    assert_px!(&format!("{m} return float4(mul(float2(1, 1), M), 1);"), [5.0, 7.0, 9.0, 1.0]);
    assert_px!(&format!("{m} return float4(mul(M, float3(1, 0, 0)), mul(float2(1, 0), M).yz);"), [1.0, 4.0, 2.0, 3.0]);
    let ab = "float2x2 A = float2x2(1, 2, 3, 4); float2x2 B = float2x2(0, 1, 1, 0);";
    assert_px!(&format!("{ab} float2x2 C = mul(A, B); return float4(C[0], C[1]);"), [2.0, 1.0, 4.0, 3.0]);
    assert_px!(&format!("{ab} float2x2 C = mul(B, A); return float4(C[0], C[1]);"), [3.0, 4.0, 1.0, 2.0]);
    // `*` on matrices is component-wise.
    assert_px!(&format!("{ab} float2x2 C = A * B; return float4(C[0], C[1]);"), [0.0, 2.0, 3.0, 0.0]);
    assert_px!(
        &format!("{ab} float2x2 T = transpose(A); return float4(T[0], determinant(A), T._m10);"),
        [1.0, 3.0, -2.0, 2.0]
    );
    assert_px!(
        "float3x3 M = float3x3(2, 0, 0, 0, 3, 0, 1, 0, 4); return float4(determinant(M), M[2].x, M._m21, M._m22);",
        [24.0, 1.0, 0.0, 4.0]
    );
    assert_px!(
        "float2x2 A = float2x2(4, 7, 2, 6); float2x2 I = inverse(A); return float4(I[0], I[1]);",
        [0.6, -0.7, -0.2, 0.4]
    );
}

#[test]
fn bool_vectors_and_comparisons() {
    assert_px!("bool2 b = float2(1, 2) < float2(2, 1); return float4(b, any(b), all(b));", [1.0, 0.0, 1.0, 0.0]);
    assert_px!("bool3 b = bool3(true, false, true); return float4(!b, all(b.xz));", [0.0, 1.0, 0.0, 1.0]);
    assert_px!("float2 v = float2(1, 5); return float4(v > 2.0 ? v : -v, (v == 1.0) && true);", [-1.0, 5.0, 1.0, 0.0]);
    assert_px!(
        "return float4(any(float3(0, 0, 0)), all(float2(1, 2)), isnan(sqrt(-1.0)), isinf(1.0 / 0.0));",
        [0.0, 1.0, 1.0, 1.0]
    );
}

#[test]
fn glsl_relational_functions_compare_per_component() {
    let nan = "sqrt(-1.0)";
    assert_px!(
        &format!("float3 a = float3(1, 2, {nan}); float3 b = float3(2, 2, 0); return float4(lessThan(a, b).xy, lessThanEqual(a, b).yz);"),
        [1.0, 0.0, 1.0, 0.0]
    );
    assert_px!(
        &format!("float3 a = float3(3, 2, {nan}); float3 b = float3(2, 2, {nan}); return float4(greaterThan(a, b).xy, greaterThanEqual(a, b).yz);"),
        [1.0, 0.0, 1.0, 0.0]
    );
    assert_px!(
        &format!("float3 a = float3(1, 2, {nan}); return float4(equal(a, float3(1, 3, {nan})).xyz, notEqual(a, a).z);"),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_px!(
        "int2 i = int2(-1, 4); bool2 n = not(bool2(true, false)); return float4(equal(i, int2(-1, 5)), n);",
        [1.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn gp4_gp5_bit_casts_and_fma() {
    // 1.0 is 0x3f800000; -0.0 is 0x80000000 (as uint: 2147483648).
    assert_px!(
        "float2 u = floatBitsToUint(float2(1.0, -0.0)); return float4(u.x == 1065353216.0, u.y / 2147483648.0, uintBitsToFloat(floatBitsToUint(3.0)), 1);",
        [1.0, 1.0, 3.0, 1.0]
    );
    // fma rounds once: (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 exactly, which a rounded
    // product (1 + 2^-11 + 2^-24 -> 1 + 2^-11 in binary32) would lose.
    assert_px!(
        "float a = 1.0 + exp2(-12.0); float f = fma(a, a, -(1.0 + exp2(-11.0))); return float4(f * 16777216.0, 0, 0, 1);",
        [1.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn glsl_mix_with_a_bool_selector_selects() {
    // A select, not a blend: lerp(inf, 7, 1) would be NaN; a scalar selector picks the
    // whole vector.
    assert_px!(
        "float3 x = float3(1, 2, exp2(200.0)); float3 m = mix(x, float3(5, 6, 7), bool3(true, false, true)); return float4(m, mix(0.25, 0.75, false));",
        [5.0, 2.0, 7.0, 0.25]
    );
    assert_px!(
        "float2 v = mix(float2(1, 2), float2(3, 4), true); return float4(v, mix(v, -v, false));",
        [3.0, 4.0, 3.0, 4.0]
    );
}

#[test]
fn glsl_matrix_functions_keep_cgs_row_order() {
    // outerProduct(c, r)[i][j] = c[i] * r[j]: a float2x3 of rows (3 4 5) and (6 8 10).
    assert_px!(
        "float2x3 o = outerProduct(float2(1, 2), float3(3, 4, 5)); return float4(o[1], o[0][2]);",
        [6.0, 8.0, 10.0, 5.0]
    );
    assert_px!(
        "float2x2 m = matrixCompMult(float2x2(1, 2, 3, 4), float2x2(5, 6, 7, 8)); return float4(m[0], m[1]);",
        [5.0, 12.0, 21.0, 32.0]
    );
}

#[test]
fn int_exponent_frexp_ldexp_and_scalar_mul_forms() {
    assert_px!("int2 e; float2 m = frexp(float2(8.0, -0.75), e); return float4(m, e);", [0.5, -0.75, 4.0, 0.0]);
    assert_px!(
        "float2 x = ldexp(float2(0.75, 3.0), int2(2, -1)); return float4(x, ldexp(1.0, 3), 1);",
        [3.0, 1.5, 8.0, 1.0]
    );
    // mul(float, float1xC) and mul(floatRx1, float): the vector scaled.
    assert_px!(
        "float3 v = mul(2.0, float1x3(1, 2, 3)); float3 w = mul(float3x1(4, 5, 6), 0.5); return float4(v.z, w.x, v.x + w.z, 1);",
        [6.0, 2.0, 5.0, 1.0]
    );
}

#[test]
fn glsl_texture2dproj_divides_by_the_last_component() {
    let src = format!(
        "{HEADER}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR {{ return float4(texture2DProj(s, float3(0.6, 1.2, 2.0)).rg, texture2DProj(s, float4(0.6, 1.2, 9.0, 2.0), -1.0).rg); }}\n"
    );
    let p = render_with(&src, PassInputs::single(source4(), SamplerState::default(), (1, 1))).pixels[0];
    assert!(close(p, [0.25, 0.5, 0.25, 0.5]), "{p:?}");
}

#[test]
fn gp4_texel_offsets_move_the_lookup_by_whole_texels() {
    // Pixel (0, 0) of the 2x2 render reads the 4x4 source at texel (1, 1) (r = x / 4,
    // g = y / 4); the offset moves it, after the projection.
    assert_px!("return tex2D(s, tex, int2(1, 0));", [0.5, 0.25, 0.5, 1.0]);
    assert_px!("return tex2Dproj(s, float3(tex * 2.0, 2.0), int2(0, 1));", [0.25, 0.5, 0.5, 1.0]);
    assert_px!("return tex2D(s, tex, float2(0, 0), float2(0, 0), int2(-1, 1));", [0.0, 0.5, 0.5, 1.0]);
    assert_px!("return tex2D(s, float3(tex, 0.9), int2(2, 2));", [0.75, 0.75, 0.5, 1.0]);
}

#[test]
fn gp5_gather_reads_the_bilinear_footprint_in_glsl_order() {
    // At (0.5, 0.5) the footprint is texels x 1-2, y 1-2; the order is (i0, j1), (i1, j1),
    // (i1, j0), (i0, j0).
    assert_px!("return tex2Dgather(s, float2(0.5, 0.5), 0);", [0.25, 0.5, 0.5, 0.25]);
    assert_px!("return tex2Dgather(s, float2(0.5, 0.5), 1);", [0.5, 0.5, 0.25, 0.25]);
    assert_px!("return tex2Dgather(s, float2(0.5, 0.5), int2(1, 0), 0);", [0.5, 0.75, 0.75, 0.5]);
}

#[test]
fn noise_is_reported_not_invented() {
    let src = format!(
        "{HEADER}float4 main_fragment(float2 tex : TEXCOORD0) : COLOR {{ return float4(noise(tex), 0, 0, 1); }}\n"
    );
    // The front end accepts it (cgc declares it); the reference compiler refuses to run it.
    let err = runtime_check::reference::source::cg(&src).err().expect("refused");
    assert_eq!(err[0].code, "E0802");
    assert!(err[0].message.contains("noise"), "{}", err[0].message);
}

#[test]
fn integer_arithmetic() {
    assert_px!("int a = -7; int b = 2; return float4(a / b, a % b, 7 / (b - 2), 7 % 3);", [-3.0, -1.0, 0.0, 1.0]);
    assert_px!("int a = 5; unsigned int u = 7; return float4(a << 2, a >> 1, a & 3, u / 2);", [20.0, 2.0, 1.0, 3.0]);
    assert_px!(
        "int i = int(-2.7); int j = int(2.7); int q = 7 / 2; return float4(i, j, q, 7.0 / 2);",
        [-2.0, 2.0, 3.0, 3.5]
    );
}

#[test]
fn control_flow() {
    assert_px!("float s = 0; for (int i = 0; i < 10; i++) { if (i == 2) continue; if (i == 5) break; s += i; } return float4(s, 0, 0, 1);", [8.0, 0.0, 0.0, 1.0]);
    assert_px!("int i = 0; float s = 0; while (i < 4) { s += 2; i++; } do { s += 1; } while (false); return float4(s, i, 0, 1);", [9.0, 4.0, 0.0, 1.0]);
    // C fall-through: case 1 runs into case 2, default only for unmatched values.
    assert_px!("int k = 1; float s = 0; switch (k) { case 0: s = 10; break; case 1: s += 1; case 2: s += 2; break; default: s = 99; } return float4(s, 0, 0, 1);", [3.0, 0.0, 0.0, 1.0]);
    // Per-pixel divergence: pixel x = 0 takes one branch, x = 1 the other.
    let img = frag("if (tex.x < 0.5) return float4(1, 0, 0, 1); else return float4(0, 1, 0, 1);", (2, 1));
    assert_eq!(img.pixels, vec![[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]]);
    // Divergent loop trip counts in one quad.
    let img =
        frag("float s = 0; for (int i = 0; i < int(tex.x * 4.0); i++) s += 1; return float4(s, 0, 0, 1);", (4, 1));
    let r: Vec<f32> = img.pixels.iter().map(|p| p[0]).collect();
    assert_eq!(r, vec![0.0, 1.0, 2.0, 3.0]);
}

#[test]
fn functions_with_out_and_inout() {
    let src = format!(
        "{HEADER}void f(in float a, out float b, inout float c) {{ b = a * 2.0; c += a; a = 100.0; }}\n\
         float g(float x) {{ if (x > 1.0) return 1.0; return x * 0.5; }}\n\
         float4 main_fragment(float2 tex : TEXCOORD0) : COLOR {{ float a = 3, b = 0, c = 1; f(a, b, c); return float4(a, b, c, g(0.5) + g(5.0)); }}\n"
    );
    let img = render_with(&src, PassInputs::single(source4(), SamplerState::default(), (2, 2)));
    assert_eq!(img.pixels[0], [3.0, 6.0, 4.0, 1.25]);
}

#[test]
fn swizzles_write_masks_and_arrays() {
    assert_px!("float4 v = 0; v.zx = float2(1, 2); v.w += 3; return v;", [2.0, 0.0, 1.0, 3.0]);
    assert_px!("float4 v = float4(1, 2, 3, 4); v.xy = v.yx; return v.wzyx;", [4.0, 3.0, 1.0, 2.0]);
    assert_px!("float a[3] = { 0.5, 1.5, 2.5 }; int i = int(tex.x * 0.0) + 2; a[i - 1] = 7; return float4(a[0], a[1], a[i], 1);", [0.5, 7.0, 2.5, 1.0]);
    // Out-of-range indices read 0 and drop writes.
    assert_px!("float a[2] = { 1, 2 }; int i = 5; a[i] = 9; return float4(a[0], a[1], a[i], 1);", [1.0, 2.0, 0.0, 1.0]);
    assert_px!(
        "float2x2 m = float2x2(1, 2, 3, 4); m[1] = float2(7, 8); m._m00 = 5; return float4(m[0], m[1]);",
        [5.0, 2.0, 7.0, 8.0]
    );
}

#[test]
fn derivatives_per_quad() {
    // tex.x steps 1/4 per pixel in x, tex.y 1/4 per pixel in y (render target: GL y
    // up is image row + 1).
    let img = frag("return float4(ddx(tex.x), ddy(tex.y), ddx(tex.y), fwidth(tex.x));", (4, 4));
    for p in &img.pixels {
        assert!(close(*p, [0.25, 0.25, 0.0, 0.25]), "{p:?}");
    }
    // A quadratic: ddx(x^2) = (x+1)^2 - x^2 of the quad's left pixel, the same in both.
    let img = frag("float x = tex.x * 4.0 - 0.5; return float4(ddx(x * x), 0, 0, 1);", (4, 1));
    let r: Vec<f32> = img.pixels.iter().map(|p| p[0]).collect();
    assert_eq!(r, vec![1.0, 1.0, 5.0, 5.0]);
}

#[test]
fn discard_keeps_the_clear_colour() {
    let img = frag("if (tex.x > 0.5) discard; return float4(1, 1, 1, 1);", (2, 1));
    assert_eq!(img.pixels, vec![[1.0; 4], [0.0; 4]]);
    let img = frag("clip(tex.x - 0.5); return float4(1, 1, 1, 1);", (2, 1));
    assert_eq!(img.pixels, vec![[0.0; 4], [1.0; 4]]);
}

fn sample_with(state: SamplerState, uv: &str) -> [f32; 4] {
    let src = format!("{HEADER}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR {{ return tex2D(s, {uv}); }}\n");
    render_with(&src, PassInputs::single(source4(), state, (1, 1))).pixels[0]
}

fn st(linear: bool, wrap: WrapMode) -> SamplerState {
    SamplerState { linear, wrap, mipmap: false }
}

#[test]
fn sampling_nearest_and_bilinear() {
    // Texel (1, 2) of the 4x4 source: r = 1/4, g = 2/4.
    assert!(close(sample_with(st(false, WrapMode::ClampToEdge), "float2(0.3, 0.6)"), [0.25, 0.5, 0.5, 1.0]));
    // Exactly between texel centres 1 and 2 in x (u = 0.5): r = (0.25 + 0.5) / 2.
    assert!(close(sample_with(st(true, WrapMode::ClampToEdge), "float2(0.5, 0.375)"), [0.375, 0.25, 0.5, 1.0]));
    // A quarter of the way from centre 0 to centre 1 in x and in y.
    assert!(close(sample_with(st(true, WrapMode::ClampToEdge), "float2(0.1875, 0.1875)"), [0.0625, 0.0625, 0.5, 1.0]));
}

#[test]
fn sampling_wrap_modes() {
    let uv = "float2(1.1, 0.6)"; // texel x = floor(4.4) = 4: one past the edge
    assert!(close(sample_with(st(false, WrapMode::ClampToEdge), uv), [0.75, 0.5, 0.5, 1.0]));
    assert!(close(sample_with(st(false, WrapMode::Repeat), uv), [0.0, 0.5, 0.5, 1.0]));
    assert!(close(sample_with(st(false, WrapMode::MirroredRepeat), uv), [0.75, 0.5, 0.5, 1.0]));
    // The border is transparent black, alpha included.
    assert_eq!(sample_with(st(false, WrapMode::ClampToBorder), uv), [0.0; 4]);
    let uv = "float2(-0.3, 0.6)"; // texel x = floor(-1.2) = -2
    assert!(close(sample_with(st(false, WrapMode::Repeat), uv), [0.5, 0.5, 0.5, 1.0]));
    assert!(close(sample_with(st(false, WrapMode::MirroredRepeat), uv), [0.25, 0.5, 0.5, 1.0]));
    assert!(close(sample_with(st(false, WrapMode::ClampToEdge), uv), [0.0, 0.5, 0.5, 1.0]));
    // Bilinear at the edge with clamp_to_border blends in transparent black.
    let b = sample_with(st(true, WrapMode::ClampToBorder), "float2(0.0, 0.125)");
    assert!(close(b, [0.0, 0.0, 0.25, 0.5]), "{b:?}");
}

#[test]
fn tex1d_reads_a_lut_and_lod_forms() {
    let src = format!(
        "{HEADER}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0, uniform sampler1D RAMP) : COLOR {{ return float4(tex1D(RAMP, 0.6).r, tex2Dlod(s, float4(0.3, 0.6, 0, 0)).g, tex2Dproj(s, float3(0.6, 1.2, 2.0)).rg); }}\n"
    );
    let mut inputs = PassInputs::single(source4(), SamplerState::default(), (1, 1));
    let ramp = RgbaF32Image::from_fn(8, 1, |x, _| [x as f32 / 8.0, 0.0, 0.0, 1.0]);
    inputs.luts.push(("RAMP".into(), bound(ramp, SamplerState::default())));
    let p = render_with(&src, inputs).pixels[0];
    assert!(close(p, [0.5, 0.5, 0.25, 0.5]), "{p:?}");
}

#[test]
fn mipmapped_lookup_uses_the_derivatives() {
    // An 8x8 checkerboard rendered into 2x2: lod = log2(4) = 2 -> the 2x2 mip averages.
    let check = RgbaF32Image::from_fn(8, 8, |x, y| if (x + y) % 2 == 0 { [1.0; 4] } else { [0.0, 0.0, 0.0, 1.0] });
    let src = format!("{HEADER}float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR {{ return float4(tex2D(s, tex).r, tex2Dlod(s, float4(tex, 0, 0)).r, tex2Dbias(s, float4(tex, 0, -2)).r, 1); }}\n");
    let inputs =
        PassInputs::single(check, SamplerState { linear: false, wrap: WrapMode::ClampToEdge, mipmap: true }, (2, 2));
    let p = render_with(&src, inputs).pixels[0];
    // Level 2 of a checkerboard is 0.5 grey (quantised to 8 bits: 128/255); lod 0 reads a texel.
    assert!((p[0] - 128.0 / 255.0).abs() < 1e-6, "{p:?}");
    assert!(p[1] == 0.0 || p[1] == 1.0, "{p:?}");
    assert!(p[2] == 0.0 || p[2] == 1.0, "{p:?}");
}

#[test]
fn loop_cap_is_a_diagnostic() {
    let src = format!("{HEADER}float4 main_fragment(float2 tex : TEXCOORD0) : COLOR {{ float s = 0; while (tex.x < 2.0) s += 1; return float4(s, 0, 0, 1); }}\n");
    let prog = cg_program(&src);
    let err =
        render_pass(&prog, &PassInputs::single(source4(), SamplerState::default(), (2, 2))).err().expect("capped");
    assert_eq!(err[0].code, "E0804");
    // The diagnostic points at the loop that did not end.
    let label = err[0].labels.iter().find(|l| l.primary).expect("a primary label");
    let at = &src[label.span.start as usize..label.span.end as usize];
    assert!(at.starts_with("while (tex.x < 2.0)"), "{at:?}");
}

/// A 1x1 texture of one colour.
fn solid(c: [f32; 4]) -> runtime_check::reference::BoundTexture {
    bound(RgbaF32Image::filled(1, 1, c), SamplerState::default())
}

/// Pass 2 of a 3-pass chain: pass outputs 0 and 1 are solid red and green, ORIG blue,
/// PREV1 (two frames back) grey, LUT "TAB" white, alias "first" on pass 0.
fn pass2_inputs() -> PassInputs {
    let mut inp = PassInputs::single(RgbaF32Image::filled(3, 2, [0.0, 0.0, 1.0, 1.0]), SamplerState::default(), (5, 4));
    inp.pass = 2;
    inp.pass_outputs = vec![solid([1.0, 0.0, 0.0, 1.0]), solid([0.0, 1.0, 0.0, 1.0])];
    inp.source = inp.pass_outputs[1].clone();
    inp.prev[1] = solid([0.5, 0.5, 0.5, 1.0]);
    inp.aliases = vec!["first".into(), String::new(), String::new()];
    inp.luts.push(("TAB".into(), solid([1.0; 4])));
    inp.parameters.push(("GAIN".into(), 0.25));
    inp.frame_count = 10;
    inp.frame_count_mod = 4;
    inp
}

fn names(body: &str, uniforms: &str) -> [f32; 4] {
    let src = format!(
        "struct input {{ float2 video_size; float2 texture_size; float2 output_size; float frame_count; float frame_direction; }};\n\
         struct tex {{ float2 video_size; float2 texture_size; sampler2D texture; }};\n\
         uniform float GAIN;\n\
         void main_vertex(float4 position : POSITION, float2 t : TEXCOORD0, uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out float2 oT : TEXCOORD0)\n\
         {{ oPosition = mul(modelViewProj, position); oT = t; }}\n\
         float4 main_fragment(float2 t : TEXCOORD0, uniform input IN{uniforms}) : COLOR {{ {body} }}\n"
    );
    render_with(&src, pass2_inputs()).pixels[0]
}

#[test]
fn cg_runtime_sizes_counters_and_parameters() {
    // IN.video_size = texture_size = the pass input (pass 1's output, 1x1 here).
    assert_eq!(names("return float4(IN.video_size, IN.output_size);", ""), [1.0, 1.0, 5.0, 4.0]);
    assert_eq!(
        names("return float4(IN.frame_count, IN.frame_direction, GAIN, IN.texture_size.x);", ""),
        [2.0, 1.0, 0.25, 1.0]
    );
    assert_eq!(names("return float4(ORIG.video_size, ORIG.texture_size);", ", uniform tex ORIG"), [3.0, 2.0, 3.0, 2.0]);
}

#[test]
fn cg_runtime_texture_roles() {
    // PASS1 is the output of 0-based pass 0; PASS2 that of pass 1.
    assert_eq!(names("return tex2D(PASS1.texture, t);", ", uniform tex PASS1"), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(names("return tex2D(PASS2.texture, t);", ", uniform tex PASS2"), [0.0, 1.0, 0.0, 1.0]);
    // PASSPREV1 in pass 2 is pass 1's output, PASSPREV2 pass 0's, PASSPREV3 is ORIG.
    assert_eq!(names("return tex2D(PASSPREV2.texture, t);", ", uniform tex PASSPREV2"), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(names("return tex2D(PASSPREV3.texture, t);", ", uniform tex PASSPREV3"), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(names("return tex2D(ORIG.texture, t);", ", uniform tex ORIG"), [0.0, 0.0, 1.0, 1.0]);
    // PREV1 is two frames back; FEEDBACK without feedback_pass is ORIG.
    assert_eq!(names("return tex2D(PREV1.texture, t);", ", uniform tex PREV1"), [0.5, 0.5, 0.5, 1.0]);
    assert_eq!(names("return tex2D(FEEDBACK.texture, t);", ", uniform tex FEEDBACK"), [0.0, 0.0, 1.0, 1.0]);
    // Aliases, LUTs, TEXUNIT0 and the never-bound IN.texture read the pass input.
    assert_eq!(names("return tex2D(first.texture, t);", ", uniform tex first"), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(names("return tex2D(TAB, t);", ", uniform sampler2D TAB"), [1.0; 4]);
    assert_eq!(names("return tex2D(s, t);", ", uniform sampler2D s : TEXUNIT0"), [0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn vertex_attributes_and_mvp_order() {
    // mul(position, modelViewProj) (the wrong operand order) does not cover the target.
    let wrong = format!(
        "{}float4 main_fragment(float2 tex : TEXCOORD0) : COLOR {{ return float4(1, 1, 1, 1); }}\n",
        HEADER.replace("mul(modelViewProj, position)", "mul(position, modelViewProj)")
    );
    let img = render_with(&wrong, PassInputs::single(source4(), SamplerState::default(), (4, 4)));
    assert!(img.pixels.contains(&[0.0; 4]));
    // TEXCOORD1 spans 0..1 and COLOR0 is white.
    let src = "void main_vertex(float4 position : POSITION, float2 lut : TEXCOORD1, float4 col : COLOR0, uniform float4x4 modelViewProj,\n\
        out float4 oPosition : POSITION, out float2 oLut : TEXCOORD0, out float4 oCol : COLOR0) { oPosition = mul(modelViewProj, position); oLut = lut; oCol = col; }\n\
        float4 main_fragment(float2 lut : TEXCOORD0, float4 col : COLOR0, float4 wpos : WPOS) : COLOR { return float4(lut, col.a, wpos.y); }\n";
    let img = render_with(src, PassInputs::single(source4(), SamplerState::default(), (2, 2)));
    assert_eq!(img.pixels[0], [0.25, 0.25, 1.0, 0.5]);
    assert_eq!(img.pixels[2], [0.25, 0.75, 1.0, 1.5]);
}

mod corpus {
    use super::*;
    use grammar::{RealFs, SourceMap};
    use runtime_check::reference::png::load_png;
    use runtime_check::reference::source::analyze_cg;
    use runtime_check::reference::{render_preset_detailed, PresetOutput, PresetRender};
    use std::path::PathBuf;

    fn dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/retroarch")
    }

    fn files(ext: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
            .map(|r| r.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == ext)).collect())
            .unwrap_or_default();
        v.sort();
        v
    }

    fn card() -> RgbaF32Image {
        load_png(&dir().join("images/testcard_64x48.png")).expect("test card")
    }

    /// Renders corpus preset `name` from the test card, later passes of the last frame
    /// reading `replaced` instead of the reference's own outputs (none: a plain render).
    fn render_with(name: &str, viewport: (u32, u32), frames: usize, replaced: &[RgbaF32Image]) -> PresetOutput {
        let mut sources = SourceMap::new();
        let (Some(p), _) = translator::preset::load_cgp(&mut sources, &dir().join(name), &RealFs) else {
            panic!("{name}: cannot load");
        };
        let input = [card()];
        let job = PresetRender {
            preset: &p,
            fs: &RealFs,
            frames: &input,
            viewport,
            frame_count: frames,
            parameters: &[],
            luts: None,
            conversions: Default::default(),
            precision: false,
            replaced,
            memo: None,
        };
        render_preset_detailed(&mut sources, &job).unwrap_or_else(|d| panic!("{name}: {d:#?}"))
    }

    fn preset(name: &str, viewport: (u32, u32), frames: usize) -> RgbaF32Image {
        render_with(name, viewport, frames, &[]).image
    }

    /// Renders preset `cgp` (with its shader `cg`, from memory) over `frames`, returning
    /// the top-left pixel of the last frame.
    fn render_frames(cgp: &str, cg: &str, frames: &[RgbaF32Image], frame_count: usize) -> [f32; 4] {
        let fs = grammar::MemoryFs::new().with("/m/p.cgp", cgp).with("/m/s.cg", cg);
        let mut sources = SourceMap::new();
        let (Some(p), d) = translator::preset::load_cgp(&mut sources, std::path::Path::new("/m/p.cgp"), &fs) else {
            panic!("cannot load the preset");
        };
        assert!(d.iter().all(|d| d.severity != grammar::Severity::Error), "{d:#?}");
        let job = PresetRender {
            preset: &p,
            fs: &fs,
            frames,
            viewport: (4, 4),
            frame_count,
            parameters: &[],
            luts: None,
            conversions: Default::default(),
            precision: false,
            replaced: &[],
            memo: None,
        };
        let out = render_preset_detailed(&mut sources, &job).unwrap_or_else(|d| panic!("{d:#?}"));
        out.image.get(0, 0).unwrap_or_default()
    }

    const PASSTHROUGH_VERTEX: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, \
        uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0) \
        { oPosition = mul(modelViewProj, position); oTex = tex; }\n";

    /// The history is the chain's input of earlier frames: the last frame alone is
    /// rendered, yet `PREV1` is the input of two frames back, and a history deeper than
    /// the frames so far is transparent black.
    #[test]
    fn history_reads_the_inputs_of_earlier_frames() {
        let solid = |c: [f32; 4]| RgbaF32Image::filled(2, 2, c);
        let frames = [solid([1.0, 0.0, 0.0, 1.0]), solid([0.0, 1.0, 0.0, 1.0]), solid([0.0, 0.0, 1.0, 1.0])];
        let cgp = "shaders = 1\nshader0 = s.cg\n";
        let reading = |name: &str| {
            format!(
                "struct prev {{ float2 tex_coord; uniform sampler2D texture; }};\n{PASSTHROUGH_VERTEX}\
                 float4 main_fragment(float2 tex : TEXCOORD0, uniform prev {name}) : COLOR \
                 {{ return tex2D({name}.texture, tex); }}\n"
            )
        };
        // Frame 3 (the fourth) shows frame 1's input two frames back: green.
        assert_eq!(render_frames(cgp, &reading("PREV1"), &frames, 4), [0.0, 1.0, 0.0, 1.0]);
        // PREV is frame 2's input: blue.
        assert_eq!(render_frames(cgp, &reading("PREV"), &frames, 4), [0.0, 0.0, 1.0, 1.0]);
        // PREV6 would be frame -4: transparent black.
        assert_eq!(render_frames(cgp, &reading("PREV6"), &frames, 4), [0.0, 0.0, 0.0, 0.0]);
    }

    /// A feedback pass accumulates over the frames: the earlier frames render it (and
    /// the passes before it), so the last frame reads their result.
    #[test]
    fn feedback_accumulates_over_the_earlier_frames() {
        let cgp = "shaders = 2\nfeedback_pass = 0\nshader0 = s.cg\nfloat_framebuffer0 = true\n\
                   scale_type0 = source\nshader1 = s.cg\n";
        // Pass 0: half the input plus half of its previous output; pass 1 (which also
        // reads FEEDBACK, the same image) shows its input.
        let cg = format!(
            "struct feedback {{ uniform sampler2D texture; }};\n{PASSTHROUGH_VERTEX}\
             float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0, uniform feedback FEEDBACK) \
             : COLOR {{ return 0.5 * tex2D(s, tex) + 0.5 * tex2D(FEEDBACK.texture, tex); }}\n"
        );
        let white = RgbaF32Image::filled(2, 2, [1.0; 4]);
        let black = RgbaF32Image::filled(2, 2, [0.0, 0.0, 0.0, 1.0]);
        let frames = [white, black.clone(), black];
        // Pass 0: frame 0 0.5 (no feedback yet), frame 1 0.25, frame 2 0.125; pass 1 of
        // frame 2: 0.5 * 0.125 + 0.5 * 0.125 (its FEEDBACK is pass 0's previous output,
        // 0.25) = 0.0625 + 0.125.
        let got = render_frames(cgp, &cg, &frames, 3);
        let want = 0.5 * 0.125 + 0.5 * 0.25;
        assert!((got[0] - want).abs() <= 0.5 / 255.0, "{got:?} against {want}");
    }

    /// With `replaced`, later passes read the given outputs instead of the reference's
    /// own, while each pass still reports its own output (the isolated comparison of a
    /// failing preset reads the GPU's outputs this way).
    #[test]
    fn replaced_pass_outputs_feed_later_passes_only() {
        let render = |replaced: &[RgbaF32Image]| render_with("gamma-sharpen.cgp", (64, 48), 1, replaced);
        let plain = render(&[]);
        let grey = RgbaF32Image::filled(64, 48, [0.25, 0.25, 0.25, 1.0]);
        let fed = render(std::slice::from_ref(&grey));
        assert_eq!(fed.passes[0].image().pixels, plain.passes[0].image().pixels, "pass 0 keeps its own output");
        assert_ne!(fed.passes[1].image().pixels, plain.passes[1].image().pixels, "pass 1 reads the replacement");
        // A flat input sharpens to itself away from the border: pass 1 saw the grey.
        let centre = fed.passes[1].image().get(32, 24).unwrap_or_default();
        assert!(centre.iter().take(3).all(|c| (c - 0.25).abs() < 1e-6), "{centre:?}");
        // Replacing with the reference's own outputs changes nothing.
        let own: Vec<RgbaF32Image> = plain.passes.iter().map(|o| o.image().clone()).collect();
        assert_eq!(render(&own).image.pixels, plain.image.pixels);
    }

    /// Every corpus `.cg` renders as a lone pass without an error diagnostic (no IR
    /// construct is left that the interpreter cannot run).
    #[test]
    fn every_corpus_shader_renders() {
        let cgs = files("cg");
        assert!(cgs.len() >= 50, "corpus has {} .cg files", cgs.len());
        let mut failures = Vec::new();
        let small = RgbaF32Image::from_fn(16, 12, |x, y| [x as f32 / 16.0, y as f32 / 12.0, 0.5, 1.0]);
        for f in &cgs {
            let result = analyze_cg(&mut grammar::SourceMap::new(), f, &[], &RealFs).and_then(|prog| {
                let mut inputs = PassInputs::single(small.clone(), SamplerState::default(), (16, 12));
                for id in ["RAMP", "GRADE", "LUT"] {
                    inputs.luts.push((id.into(), bound(small.clone(), SamplerState::default())));
                }
                render_pass(&prog, &inputs).map(|_| ())
            });
            if let Err(d) = result {
                failures.push(format!("{}: {} {}", f.display(), d[0].code, d[0].message));
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// Every corpus `.cgp` renders through the multi-pass driver (2 frames).
    #[test]
    fn every_corpus_preset_renders() {
        for f in files("cgp") {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("").to_owned();
            let img = preset(&name, (24, 18), 2);
            assert_eq!((img.width, img.height), (24, 18), "{name}");
        }
    }

    /// The stock preset is a pass-through: same size in and out gives the input back.
    #[test]
    fn stock_preset_is_identity() {
        let img = preset("stock.cgp", (64, 48), 1);
        assert_eq!(img.pixels, card().pixels);
    }
}

/// The on-screen pass (flipped vertices in a y-up window): the picture keeps its
/// orientation, but `ddy` and `WPOS.y` count from the bottom of the screen.
#[test]
fn on_screen_pass_flips_ddy_and_wpos() {
    let src = format!("{HEADER}float4 main_fragment(float2 tex : TEXCOORD0, float4 wpos : WPOS) : COLOR {{ return float4(tex.y, ddy(tex.y), wpos.y, 1); }}\n");
    let mut inputs = PassInputs::single(source4(), SamplerState::default(), (4, 4));
    inputs.flipped = true;
    let img = render_with(&src, inputs);
    assert!(close(img.pixels[0], [0.125, -0.25, 3.5, 1.0]), "{:?}", img.pixels[0]);
}
