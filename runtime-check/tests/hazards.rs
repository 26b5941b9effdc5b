//! Known-answer tests of the reference renderer's hazard rules
//! (`runtime_check::reference::hazard`): small Cg programs rendered on the CPU, with the
//! exact set of pixels each rule must flag, and programs just beside the rule that must
//! flag none. Output pixel `(x, y)` of a `w`-wide render reads `tex.x = (x + 0.5) / w`
//! and `pix = tex * IN.output_size = (x + 0.5, y + 0.5)`. At a power-of-two size the
//! interpolation is exact (short dyadic weights); the tests that need an approximate
//! value use 12 pixels across, where `pix.x` is `x + 0.5` but interpolated with
//! non-dyadic weights.

mod support;

use runtime_check::reference::{render_pass, BoundTexture, MipChain, PassInputs, RgbaF32Image, SamplerState, WrapMode};
use std::sync::Arc;
use support::{cg_program, source4};

const HEADER: &str = "struct input { float2 video_size; float2 texture_size; float2 output_size; float frame_count; float frame_direction; };\n\
void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, uniform input IN, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, out float2 oPix : TEXCOORD1)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; oPix = tex * IN.output_size; }\n";

/// The test program: [`HEADER`], `prelude`, and a fragment program of `body`.
fn program(prelude: &str, body: &str) -> runtime_check::reference::PassProgram {
    cg_program(&format!(
        "{HEADER}{prelude}\nfloat4 main_fragment(float2 tex : TEXCOORD0, float2 pix : TEXCOORD1, uniform sampler2D s : TEXUNIT0, uniform input IN) : COLOR\n{{\n{body}\n}}\n"
    ))
}

fn render(prelude: &str, body: &str, inputs: PassInputs) -> (RgbaF32Image, Vec<bool>) {
    let prog = program(prelude, body);
    let r = render_pass(&prog, &inputs).unwrap_or_else(|d| panic!("render failed: {d:#?}"));
    (r.image, r.hazard)
}

/// The hazard map of `body` rendered at `size` from the 4x4 source (nearest, clamp).
fn hazards(body: &str, size: (u32, u32)) -> Vec<bool> {
    let state = SamplerState { linear: false, wrap: WrapMode::ClampToEdge, mipmap: false };
    render("", body, PassInputs::single(source4(), state, size)).1
}

/// The flagged pixels as `(x, y)`.
fn flagged(map: &[bool], width: u32) -> Vec<(u32, u32)> {
    map.iter().enumerate().filter(|(_, &h)| h).map(|(i, _)| (i as u32 % width, i as u32 / width)).collect()
}

/// Every pixel of column `x` of a `w x h` image.
fn column(x: u32, h: u32) -> Vec<(u32, u32)> {
    (0..h).map(|y| (x, y)).collect()
}

/// The pixels of a 12-wide row whose `pix.x` is approximate: all of them. Where `2x + 1`
/// is a multiple of 3 the exact weight `(x + 0.5) / 12` is a short dyadic, but a GPU
/// computes it from the plane slope 1/12, which is rounded.
fn approx12() -> Vec<(u32, u32)> {
    (0..12).map(|x| (x, 0)).collect()
}

fn all(w: u32, h: u32) -> Vec<(u32, u32)> {
    (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect()
}

fn assert_flags(body: &str, size: (u32, u32), want: Vec<(u32, u32)>) {
    let got = flagged(&hazards(body, size), size.0);
    assert_eq!(got, want, "{body}");
}

// ---- NaN and Inf ----

#[test]
fn arithmetic_producing_inf_or_nan_is_flagged_where_it_happens() {
    // pix.x - 2.5 is 0 in column 2 only: 1/0 = Inf there.
    assert_flags("return float4(saturate(1.0 / (pix.x - 2.5)), 0, 0, 1);", (12, 2), column(2, 2));
    assert_flags("return float4(sqrt(tex.x - 0.5), 0, 0, 1);", (4, 1), vec![(0, 0), (1, 0)]);
    assert_flags("return float4(1.0 / (tex.x + 1.0), 0, 0, 1);", (8, 2), vec![]);
    // A NaN that reaches no output is no hazard.
    assert_flags("float unused = sqrt(-1.0); return float4(0.5, 0, 0, 1);", (4, 2), vec![]);
}

// ---- nearest samples at texel boundaries ----

#[test]
fn nearest_samples_on_a_texel_boundary_are_flagged() {
    // 12x12 pixels over 12x12 texels: tex * 12 = x + 0.5 (approximate); half a texel
    // further is a boundary.
    let flags = |body: &str| {
        let state = SamplerState { linear: false, wrap: WrapMode::ClampToEdge, mipmap: false };
        let src = RgbaF32Image::from_fn(12, 12, |x, y| [x as f32 / 12.0, y as f32 / 12.0, 0.5, 1.0]);
        flagged(&render("", body, PassInputs::single(src, state, (12, 12))).1, 12)
    };
    assert_eq!(flags("return tex2D(s, tex + float2(0.5 / 12.0, 0.0));"), all(12, 12));
    assert_eq!(flags("return tex2D(s, tex + float2(0.4999 / 12.0, 0.0));"), all(12, 12));
    assert_eq!(flags("return tex2D(s, tex);"), vec![]);
    assert_eq!(flags("return tex2D(s, tex + float2(0.25 / 12.0, 0.0));"), vec![]);
    // An exact coordinate exactly on a boundary converts the same on every GPU.
    assert_eq!(flags("return tex2D(s, float2(0.5, 0.5));"), vec![]);
    // So does an exact interpolation (power-of-two target): 2 rows over 4 texel rows.
    assert_flags("return tex2D(s, tex);", (4, 2), vec![]);
    // A non-power-of-two target minifying 2:1 (the final stretch of a scaled pass):
    // every pixel lands on a boundary, `(x + 0.5) / 6 * 12 = 2x + 1`. Where the exact
    // weight is a short dyadic (x = 1, 4: 3/12, 9/12) a GPU still rounds the slope 1/6,
    // so those pixels are as doubtful as the rest.
    let state = SamplerState { linear: false, wrap: WrapMode::ClampToEdge, mipmap: false };
    let src = RgbaF32Image::from_fn(12, 1, |x, _| [x as f32 / 12.0, 0.0, 0.5, 1.0]);
    let (_, map) = render("", "return tex2D(s, tex);", PassInputs::single(src, state, (6, 1)));
    assert_eq!(flagged(&map, 6), all(6, 1));
}

#[test]
fn bilinear_samples_are_not_boundary_hazards() {
    let state = SamplerState { linear: true, wrap: WrapMode::ClampToEdge, mipmap: false };
    let (_, map) =
        render("", "return tex2D(s, tex + float2(0.5 / 12.0, 0.0));", PassInputs::single(source4(), state, (12, 12)));
    assert!(map.iter().all(|&h| !h));
}

// ---- derivatives ----

#[test]
fn derivatives_are_flagged_where_coarse_and_fine_differ() {
    // d/dx of a linear function is the same on both rows of a quad.
    assert_flags("return float4(ddx(tex.x) * 4.0, ddy(tex.y) * 4.0, 0, 1);", (4, 4), vec![]);
    // d/dx (x * y) depends on the row: the fine derivative of row 1 differs from the
    // coarse one (row 0's), so odd rows are flagged.
    let odd_rows: Vec<(u32, u32)> = all(4, 4).into_iter().filter(|&(_, y)| y % 2 == 1).collect();
    assert_flags("return float4(ddx(tex.x * tex.y) * 16.0, 0, 0, 1);", (4, 4), odd_rows);
    // d/dy (x * y): odd columns.
    let odd_cols: Vec<(u32, u32)> = all(4, 4).into_iter().filter(|&(x, _)| x % 2 == 1).collect();
    assert_flags("return float4(abs(ddy(tex.x * tex.y)) * 16.0, 0, 0, 1);", (4, 4), odd_cols);
}

#[test]
fn mipmapped_lookups_are_flagged_where_the_level_depends_on_the_derivatives() {
    // A quadratic ramp: box-filtered levels differ from level 0 (a linear ramp would not).
    let big = RgbaF32Image::from_fn(16, 16, |x, y| [(x * x) as f32 / 225.0, (y * y) as f32 / 225.0, 0.0, 1.0]);
    let state = SamplerState { linear: true, wrap: WrapMode::ClampToEdge, mipmap: true };
    // Coordinates scaled by a function of y: the fine and coarse level differ by row.
    let body = "return tex2D(s, float2(tex.x * (1.0 + 8.0 * tex.y * tex.y), tex.y));";
    let (_, map) = render("", body, PassInputs::single(big.clone(), state, (4, 4)));
    assert!(map.iter().any(|&h| h), "a level chosen by the derivatives");
    // A plain lookup at 1:4 minification has the same level everywhere.
    let (_, map) = render("", "return tex2D(s, tex);", PassInputs::single(big, state, (4, 4)));
    assert!(map.iter().all(|&h| !h));
}

// ---- discontinuous decisions ----

#[test]
fn comparisons_on_their_threshold_are_flagged() {
    // pix.x = x + 0.5: equal to 2.5 in column 2 only.
    assert_flags("return float4(pix.x == 2.5 ? 1.0 : 0.0, 0, 0, 1);", (12, 2), column(2, 2));
    assert_flags("return float4(pix.x < 2.5 ? 1.0 : 0.0, 0, 0, 1);", (12, 2), column(2, 2));
    assert_flags("return float4(pix.x < 2.4 ? 1.0 : 0.0, 0, 0, 1);", (12, 2), vec![]);
    // Exact operands decide alike everywhere: an exact interpolation, a uniform.
    assert_flags("return float4(pix.x == 2.5 ? 1.0 : 0.0, 0, 0, 1);", (8, 2), vec![]);
    assert_flags("return float4(IN.video_size.x == 4.0 ? 1.0 : 0.0, 0, 0, 1);", (12, 2), vec![]);
}

#[test]
fn step_functions_on_their_steps_are_flagged() {
    // frac(pix.x) = 0.5 everywhere: a step at 0.5 decides on its threshold.
    let w = (12, 1);
    assert_flags("return float4(step(0.5, frac(pix.x)), 0, 0, 1);", w, approx12());
    assert_flags("return float4(step(0.5, frac(pix.x * 0.5)), 0, 0, 1);", w, vec![]);
    // floor, frac, round and int conversion at their integer (half-integer) steps.
    assert_flags("return float4(floor(pix.x + 0.5) / 16.0, 0, 0, 1);", w, approx12());
    assert_flags("return float4(floor(pix.x) / 16.0, 0, 0, 1);", w, vec![]);
    assert_flags("return float4(frac(pix.x - 0.5), 0, 0, 1);", w, approx12());
    assert_flags("return float4(round(pix.x) / 16.0, 0, 0, 1);", w, approx12());
    assert_flags("return float4(round(pix.x * 0.5) / 16.0, 0, 0, 1);", w, vec![]);
    assert_flags("int i = int(pix.x + 0.5); return float4(i / 16.0, 0, 0, 1);", w, approx12());
    assert_flags("int i = int(pix.x); return float4(i / 16.0, 0, 0, 1);", w, vec![]);
    // fmod where the quotient is an integer: pix.x - 0.5 = x, fmod by 1 in every pixel.
    assert_flags("return float4(fmod(pix.x - 0.5, 1.0), 0, 0, 1);", w, approx12());
    // An exact value on a step is decided alike on every GPU.
    assert_flags("return float4(floor(IN.video_size.x / 4.0), 0, 0, 1);", w, vec![]);
}

// ---- propagation ----

#[test]
fn control_dependence_taints_what_a_hazardous_branch_writes() {
    let cond = "pix.x == 2.5";
    assert_flags(&format!("float4 c = float4(0, 0, 0, 1); if ({cond}) c.r = 1.0; return c;"), (12, 1), column(2, 1));
    // No lane takes the branch (frac is 0.5, not below it), yet what it would have
    // written depends on a hazardous decision in every pixel.
    assert_flags("float4 c = float4(0, 0, 0, 1); if (frac(pix.x) < 0.5) c.r = 1.0; return c;", (12, 1), approx12());
    // A branch on a clean condition writes clean values.
    assert_flags("float4 c = float4(0, 0, 0, 1); if (tex.x < 0.5) c.r = 1.0; return c;", (12, 1), vec![]);
}

#[test]
fn leaving_a_function_or_loop_on_a_hazard_taints_the_lane() {
    let f = "float pick(float x) { if (x == 2.5) return 1.0; return 0.0; }";
    let state = SamplerState::default();
    let (_, map) = render(f, "return float4(pick(pix.x), 0, 0, 1);", PassInputs::single(source4(), state, (12, 1)));
    assert_eq!(flagged(&map, 12), column(2, 1));
    assert_flags(
        "float acc = 0.0; for (int i = 0; i < 4; i++) { if (pix.x == 2.5) break; acc += 0.25; } return float4(acc, 0, 0, 1);",
        (12, 1),
        column(2, 1),
    );
    assert_flags("if (pix.x == 2.5) discard; return float4(1, 0, 0, 1);", (12, 1), column(2, 1));
}

#[test]
fn data_dependence_carries_a_hazard_through_arithmetic_and_functions() {
    let body = "float h = 1.0 / (pix.x - 2.5); float k = saturate(h); float3 v = float3(k, 0.5, 0.5); return float4(dot(v, v) * 0.1, v.y, 0, 1);";
    assert_flags(body, (12, 1), column(2, 1));
}

#[test]
fn a_sample_inherits_the_hazard_of_every_texel_it_reads() {
    // Texel (1, 0) of the source is hazardous (as a previous pass would have left it).
    let mut map = vec![false; 16];
    map[1] = true;
    let chain = MipChain::single(source4()).with_hazard(map);
    let nearest = SamplerState { linear: false, wrap: WrapMode::ClampToEdge, mipmap: false };
    let mut inputs = PassInputs::single(source4(), nearest, (4, 4));
    inputs.source = BoundTexture { texture: Arc::new(chain.clone()), state: nearest };
    let (_, got) = render("", "return tex2D(s, tex);", inputs.clone());
    assert_eq!(flagged(&got, 4), vec![(1, 0)]);
    // Bilinear at 2x: every pixel whose four taps include texel (1, 0) with a weight.
    let linear = SamplerState { linear: true, ..nearest };
    inputs.source = BoundTexture { texture: Arc::new(chain), state: linear };
    inputs.output_size = (8, 8);
    let (_, got) = render("", "return tex2D(s, tex);", inputs);
    // Pixel x reads texels floor((x + 0.5) / 2 - 0.5) and the next: x = 1..=4 touch
    // texel 1; rows 0..=2 touch texel row 0 (row 0 clamped at the top).
    let want: Vec<(u32, u32)> = (0..3).flat_map(|y| (1..5).map(move |x| (x, y))).collect();
    assert_eq!(flagged(&got, 8), want);
}

#[test]
fn mip_levels_inherit_the_hazard_of_the_texels_they_average() {
    let mut map = vec![false; 16];
    map[5] = true; // texel (1, 1)
    let chain = MipChain::generate(source4(), runtime_check::reference::StorageFormat::Float32, &Default::default())
        .with_hazard(map);
    assert!(chain.texel_hazard(1, 0, 0) && !chain.texel_hazard(1, 1, 0) && chain.texel_hazard(2, 0, 0));
    assert!(chain.texel_hazard(0, 1, 1) && !chain.texel_hazard(0, 2, 1));
}

// ---- what stays exact ----

#[test]
fn exact_results_of_approximate_operands_decide_alike() {
    // saturate returns the exact bound 1.0 where tex.x * 8 is well above it.
    assert_flags("return float4(floor(saturate(pix.x * 0.5)), 0, 0, 1);", (12, 1), vec![]);
    // A comparison's result is exact (its doubt is its own hazard bit).
    assert_flags("float b = pix.x > 6.0; return float4(b == 1.0 ? 1.0 : 0.0, 0, 0, 1);", (12, 1), vec![]);
    // A dot product of exact operands with an exact result is exact: floor(i / 2) is
    // on its step (i is 4 or 6) without being a hazard.
    assert_flags(
        "float i = dot(float3(pix.x > 6.0, 1.0, 0.0), float3(2.0, 4.0, 8.0)); return float4(floor(i / 2.0) / 4.0, 0, 0, 1);",
        (12, 1),
        vec![],
    );
    // GLSL mod of exact integers is exact: comparing it with a constant decides alike.
    assert_flags("float k = floor(pix.x); return float4(fmod(k, 3.0) == 1.0 ? 1.0 : 0.0, 0, 0, 1);", (12, 1), vec![]);
}

#[test]
fn a_varying_equal_at_every_vertex_is_exact() {
    // TEXCOORD1 carries the frame counter, the same at all four vertices.
    let src = format!(
        "{}{}",
        "struct input { float2 video_size; float2 texture_size; float2 output_size; float frame_count; float frame_direction; };\n",
        "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, uniform input IN, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, out float oFrame : TEXCOORD1)\n\
         { oPosition = mul(modelViewProj, position); oTex = tex; oFrame = IN.frame_count; }\n\
         float4 main_fragment(float2 tex : TEXCOORD0, float frame : TEXCOORD1) : COLOR\n\
         { return float4(fmod(frame + 2.0, 2.0), floor(tex.x * 12.0 + 0.5) / 16.0, 0, 1); }\n"
    );
    let prog = cg_program(&src);
    let inputs = PassInputs::single(source4(), SamplerState::default(), (12, 1));
    let r = render_pass(&prog, &inputs).unwrap_or_else(|d| panic!("render failed: {d:#?}"));
    // The constant varying's step (fmod(2, 2)) is exact; the interpolated one's is not.
    assert_eq!(flagged(&r.hazard, 12), approx12());
    let src = src.replace("floor(tex.x * 12.0 + 0.5) / 16.0", "0.0");
    let prog = cg_program(&src);
    let r = render_pass(&prog, &inputs).unwrap_or_else(|d| panic!("render failed: {d:#?}"));
    assert_eq!(flagged(&r.hazard, 12), vec![]);
}

/// Flagged pixels as `(x, y)`.
type Pixels = Vec<(u32, u32)>;

/// The hazard maps of `body` at `size`, rendered exactly and under the precision rule
/// (one pixel per quad, its lanes under perturbed transcendentals), as flagged pixels.
fn precision_marks(body: &str, size: (u32, u32)) -> (Pixels, Pixels) {
    let state = SamplerState { linear: false, wrap: WrapMode::ClampToEdge, mipmap: false };
    use runtime_check::reference::{hazard::precision_sensitive, StorageFormat};
    let prog = program("", body);
    let stored = |mut img: RgbaF32Image| {
        img.store_as(StorageFormat::Unorm8, &Default::default());
        img.pixels
    };
    let mut inputs = PassInputs::single(source4(), state, size);
    let exact = render_pass(&prog, &inputs).unwrap_or_else(|d| panic!("{d:#?}"));
    inputs.precision = true;
    let rule = render_pass(&prog, &inputs).unwrap_or_else(|d| panic!("{d:#?}"));
    // Lane 0 of the rule's render is the exact pixel (no derivatives here).
    assert_eq!(exact.image.pixels, rule.image.pixels, "{body}");
    // As the driver does: decisions split by the lanes, and pixels a lane moves.
    let base = stored(rule.image);
    let mut marks = rule.hazard;
    for moved in rule.perturbed {
        for (m, s) in marks.iter_mut().zip(precision_sensitive(&base, &stored(moved))) {
            *m |= s;
        }
    }
    (flagged(&exact.hazard, size.0), flagged(&marks, size.0))
}

#[test]
fn a_sine_hash_depends_on_transcendental_precision() {
    // The `frac(sin(dot(uv, k)) * 43758.5453)` hash: a GPU's sine, a few ulps off and
    // range-reduced in binary32, gives another value at every pixel; the rounding rule
    // alone sees only the pixels where the product is large.
    let hash = "float n = saturate(frac(sin(dot(tex, float2(12.9898, 78.233))) * 43758.5453) + 0.2); return float4(n, n, n, 1.0);";
    let (exact, rule) = precision_marks(hash, (16, 16));
    assert!(exact.len() < 256, "the rounding rule alone flags every pixel");
    assert_eq!(rule, all(16, 16));
}

#[test]
fn the_sign_of_a_sine_at_its_zeros_depends_on_precision() {
    // sin(pi * k) is about 1e-7 in binary32, of either sign on a GPU: `sign` turns that
    // into a whole step. `pix.x = x + 0.5`, so `pix.x - 0.5` is an integer on every
    // pixel.
    let body = "float s = sign(sin((pix.x - 0.5) * 3.14159265)); return float4(s * 0.5 + 0.5, 0.0, 0.0, 1.0);";
    assert_eq!(precision_marks(body, (8, 1)), (vec![], all(8, 1)));
    let off_zero = "float s = sign(sin(pix.x * 3.14159265)); return float4(s * 0.5 + 0.5, 0.0, 0.0, 1.0);";
    assert_eq!(precision_marks(off_zero, (8, 1)), (vec![], vec![]));
}

#[test]
fn a_precision_split_marks_only_its_own_pixel_of_a_batch() {
    // The sine sits on a zero at every third pixel only (`pix.x - 0.5` an integer there):
    // under the rule every pixel is a quad of its own, many to a batch, and a decision
    // split between the lanes of one pixel marks that pixel alone.
    let body = "float k = pix.x - 0.5; float a = fmod(k, 3.0) == 0.0 ? k : pix.x;\n\
        float s = sign(sin(a * 3.14159265)); return float4(s * 0.5 + 0.5, 0.0, 0.0, 1.0);";
    // (The exact render's own rules flag the same pixels.)
    let want: Pixels = (0..20).filter(|x| x % 3 == 0).map(|x| (x, 0)).collect();
    assert_eq!(precision_marks(body, (20, 1)), (want.clone(), want));
}

#[test]
fn a_gain_on_a_precision_sized_value_is_a_hazard() {
    // No decision, only a gain of 1e9 on a sine at its zeros: the perturbed lanes land
    // on the other bound of the clamp.
    let body = "float s = clamp(sin((pix.x - 0.5) * 3.14159265) * 1.0e9, 0.0, 1.0); return float4(s, s, s, 1.0);";
    assert_eq!(precision_marks(body, (8, 1)), (vec![], all(8, 1)));
}

#[test]
fn an_interpolated_value_is_as_uncertain_as_its_vertex_values() {
    // `tex.y` runs from 0 to 1 over 12 rows (approximate weights). A rasteriser rounds
    // at the scale of the vertex values, an ulp of 1 (about 1.2e-7), even where
    // `tex.y` is 0.04: a gain of 1e5 turns that into three 8-bit steps in every row,
    // the top ones included, where an ulp of the value itself would move a tenth of one.
    // Only the pixels on the quad's diagonal (`3x + y = 10`) stay: there the weight of
    // the vertex at (4, 0) is a short dyadic with exact slopes and the third weight is 0,
    // so `tex.y` interpolates exactly.
    let body = "float n = frac(tex.y * 100000.0); return float4(n, n, n, 1.0);";
    let off_diagonal: Pixels = all(4, 12).into_iter().filter(|&(x, y)| 3 * x + y != 10).collect();
    assert_eq!(precision_marks(body, (4, 12)).1, off_diagonal);
    let small_gain = "float n = frac(tex.y * 1000.0 + 0.25); return float4(n, n, n, 1.0);";
    assert_eq!(precision_marks(small_gain, (4, 12)).1, vec![]);
}

#[test]
fn ordinary_transcendentals_are_not_precision_hazards() {
    // Gamma, a scanline sine and an exponential falloff: a few ulps decide nothing.
    let body = "float3 c = pow(tex2D(s, tex).rgb, 2.2) * (0.5 + 0.5 * sin(pix.y * 3.14159)) * exp(-tex.x); return float4(saturate(c), 1.0);";
    let (exact, rule) = precision_marks(body, (16, 16));
    assert_eq!(rule, exact);
}

#[test]
fn precision_bounds_grow_with_the_argument_and_the_value() {
    use runtime_check::reference::hazard::{error_exp2, error_pow, error_sin_cos};
    assert!(error_sin_cos(100.0) > 10.0 * error_sin_cos(0.5));
    assert!(error_sin_cos(0.0) > 0.0);
    assert!(error_exp2(10.0, 1024.0) > error_exp2(1.0, 2.0));
    assert_eq!(error_pow(0.0, 2.2, 0.0), 0.0);
    assert!(error_pow(0.5, 2.2, 0.5f64.powf(2.2)) < 1e-6);
}
