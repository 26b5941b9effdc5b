//! The CPU reference computes the same bits at every x86-64 feature level its compiled
//! closures can run at (`runtime_check::reference::isa`): one program that reaches the
//! versioned closures (rounded arithmetic, the library's transcendental and step
//! functions, sums of products, min/max, filtered, nearest and mipmapped lookups inside
//! and beyond the texture's edges, derivatives, loops and branches) is compiled and
//! rendered at each level this processor has, exactly and under the precision rule, and
//! every pixel, hazard flag and perturbed image must equal the baseline's.

mod support;

use runtime_check::reference::isa::{self, Level};
use runtime_check::reference::{
    render_pass, BoundTexture, DeviceConversions, MipChain, PassInputs, Rendered, RgbaF32Image, SamplerState,
    StorageFormat, WrapMode,
};
use std::sync::Arc;
use support::cg_program;

const PROGRAM: &str = "struct input { float2 video_size; float2 texture_size; float2 output_size; float frame_count; float frame_direction; };\n\
void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, uniform input IN,\n\
    out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, out float2 oPix : TEXCOORD1)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex * 1.3 - 0.15; oPix = tex * IN.output_size; }\n\
float luma(float3 c) { return dot(c, float3(0.299, 0.587, 0.114)); }\n\
float4 main_fragment(float2 tex : TEXCOORD0, float2 pix : TEXCOORD1, uniform sampler2D s : TEXUNIT0,\n\
    uniform sampler2D lut, uniform input IN) : COLOR\n\
{\n\
    float4 a = tex2D(s, tex);\n\
    float4 b = tex2D(lut, tex * 0.7 + 0.1);\n\
    float4 c = tex2Dlod(s, float4(tex, 0.0, 1.4));\n\
    float4 d = tex2Dbias(s, float4(tex.yx, 0.0, -0.6));\n\
    float2 g = float2(ddx(tex.x), ddy(tex.y)) * IN.texture_size;\n\
    float3 acc = 0.0;\n\
    for (int i = 0; i < 5; i++) {\n\
        float w = exp(-0.5 * i * i / 2.25);\n\
        acc += w * tex2D(s, tex + float2(i, -i) / IN.texture_size).rgb;\n\
    }\n\
    float l = luma(a.rgb + acc * 0.2);\n\
    float3 m = pow(max(a.rgb * b.rgb + 0.01, 0.0), float3(2.2, 1.0 / 2.2, 0.4545));\n\
    float3 n = lerp(c.rgb, d.rgb, smoothstep(0.2, 0.8, frac(pix.x * 0.37)));\n\
    float q = floor(pix.x * 0.5 + 0.25) * 0.01 + fmod(pix.y * 1.7, 0.9) + floor(pix.x / 3.0) * step(0.5, l) + sin(pix.x * 0.3) * cos(pix.y);\n\
    float r = sqrt(abs(q)) / (1.0 + length(g)) + log2(1.0 + l) - saturate(q * q) * rsqrt(2.0 + l);\n\
    if (l > 0.45) { m = min(m, n) * 1.0001; } else { m = clamp(m + n * 0.3333, 0.1, 0.9); }\n\
    return float4(normalize(m + 0.01) * r, frac(r * 7.77 + l));\n\
}\n";

/// A 16x12 image whose texels differ in every channel (no flat regions: the lanes of a
/// batch differ, as in a game frame).
fn frame() -> RgbaF32Image {
    RgbaF32Image::from_fn(16, 12, |x, y| {
        let v = |k: u32| ((x * 37 + y * 101 + k * 53) % 256) as f32 / 255.0;
        [v(0), v(1), v(2), 1.0]
    })
}

fn inputs(precision: bool) -> PassInputs {
    let mip = |state: SamplerState| BoundTexture {
        texture: Arc::new(MipChain::generate(frame(), StorageFormat::Unorm8, &DeviceConversions::exact())),
        state,
    };
    let linear = SamplerState { linear: true, wrap: WrapMode::ClampToEdge, mipmap: true };
    let mut inputs = PassInputs::single(frame(), linear, (24, 20));
    inputs.source = mip(linear);
    let nearest = SamplerState { linear: false, wrap: WrapMode::Repeat, mipmap: false };
    inputs.luts = vec![("lut".to_owned(), mip(nearest))];
    inputs.precision = precision;
    inputs
}

/// The program compiled and rendered at `level` (or the processor's, if lower).
fn render_at(level: Level, precision: bool) -> Rendered {
    isa::capped(level, || {
        let prog = cg_program(PROGRAM);
        render_pass(&prog, &inputs(precision)).unwrap_or_else(|d| panic!("render failed: {d:#?}"))
    })
}

/// An image's pixels as bits.
type Bits = Vec<[u32; 4]>;

/// A render as bits: the image, the hazard map, the perturbed images.
fn bits(r: &Rendered) -> (Bits, Vec<bool>, Vec<Bits>) {
    let px = |img: &RgbaF32Image| img.pixels.iter().map(|p| p.map(f32::to_bits)).collect::<Vec<_>>();
    (px(&r.image), r.hazard.clone(), r.perturbed.iter().map(px).collect())
}

#[test]
fn every_feature_level_renders_the_baseline_bits() {
    let levels: Vec<Level> = [Level::V3, Level::V4].into_iter().filter(|&l| l <= isa::detected()).collect();
    for precision in [false, true] {
        let base = render_at(Level::Baseline, precision);
        let (pixels, hazard, perturbed) = bits(&base);
        // The program reaches the rules under test: some pixels hazardous, some not.
        let marked = hazard.iter().filter(|&&h| h).count();
        assert!(
            marked > 0 && marked < hazard.len(),
            "precision {precision}: {marked} of {} pixels hazardous",
            hazard.len()
        );
        assert_eq!(perturbed.is_empty(), !precision);
        for &level in &levels {
            let got = bits(&render_at(level, precision));
            assert!(got.0 == pixels, "{level:?}, precision {precision}: the image differs from the baseline's");
            assert!(got.1 == hazard, "{level:?}, precision {precision}: the hazard map differs");
            assert!(got.2 == perturbed, "{level:?}, precision {precision}: a perturbed image differs");
        }
    }
}

#[test]
fn the_level_never_exceeds_the_processors_or_the_cap() {
    let detected = isa::detected();
    assert!(isa::level() <= detected);
    assert_eq!(isa::capped(Level::Baseline, isa::level), Level::Baseline);
    assert_eq!(isa::capped(Level::V4, isa::level), isa::level());
    // The cap is restored after the call.
    isa::capped(Level::Baseline, || ());
    assert_eq!(isa::level(), isa::capped(Level::V4, isa::level));
}
