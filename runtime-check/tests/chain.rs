//! Known-answer tests of the headless wgpu filter chain, read back pixel by pixel.
//!
//! The shaders are hand-written in the translator's naga dialect (separate `texture2D`
//! and `sampler` at binding + 16, std140 UBO at binding 0, push block) and parsed with
//! naga's GLSL front end; the last tests compile canonical `.slang` files from disk.
//! Every test needs a Vulkan adapter (CI installs lavapipe) and fails without one.

mod support;

use runtime_check::chain::timings::Span;
use runtime_check::chain::{AdapterChoice, ChainDesc, ChainPass, FilterChain, Gpu, InputImage, LutImage, Pixels};
use runtime_check::plan::{Filter, PassSpec, Sampling, Size};
use runtime_check::validate::Stage;
use std::sync::Arc;
use support::{naga_module as module, temp_dir};
use translator::preset::{Scale, ScaleType, WrapMode};

fn gpu() -> Arc<Gpu> {
    support::gpu(AdapterChoice::PreferHardware)
}

const VERTEX: &str = concat!(
    "#version 450
layout(std140, set = 0, binding = 0) uniform UBO { mat4 MVP; } global;
",
    support::vertex_interface_and_main!()
);

/// A fragment stage: `decls` after the standard input/output, `body` inside main.
fn fragment(decls: &str, body: &str) -> String {
    format!(
        "#version 450
layout(location = 0) in vec2 vTexCoord;
layout(location = 0) out vec4 FragColor;
{decls}
void main()
{{
{body}
}}
"
    )
}

const SOURCE: &str = "layout(set = 0, binding = 2) uniform texture2D Source;
layout(set = 0, binding = 18) uniform sampler Source_sampler;";

fn pass(frag: &str, spec: PassSpec) -> ChainPass {
    ChainPass {
        vertex: module(VERTEX, Stage::Vertex),
        fragment: module(frag, Stage::Fragment),
        spec,
        parameters: Vec::new(),
    }
}

fn passthrough(spec: PassSpec) -> ChainPass {
    pass(&fragment(SOURCE, "FragColor = texture(sampler2D(Source, Source_sampler), vTexCoord);"), spec)
}

fn scale(t: ScaleType, x: f32, y: f32) -> Option<Scale> {
    Some(Scale { x: (t, x), y: (t, y) })
}

fn scaled(t: ScaleType, f: f32) -> PassSpec {
    PassSpec { scale: scale(t, f, f), ..PassSpec::default() }
}

fn chain(passes: Vec<ChainPass>) -> FilterChain {
    chain_with(passes, Vec::new(), Vec::new())
}

fn chain_with(passes: Vec<ChainPass>, luts: Vec<LutImage>, parameters: Vec<(String, f32)>) -> FilterChain {
    match FilterChain::new(gpu(), ChainDesc { passes, luts, parameters }) {
        Ok(c) => c,
        Err(d) => panic!("chain does not build: {d:#?}"),
    }
}

fn image(size: Size, pixels: &[[u8; 4]]) -> InputImage {
    assert_eq!(pixels.len(), (size.width * size.height) as usize);
    InputImage { size, rgba8: pixels.iter().flatten().copied().collect() }
}

/// A deterministic pseudo-random image.
fn noise(size: Size, seed: u32) -> InputImage {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let pixels: Vec<[u8; 4]> = (0..size.width * size.height)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let b = x.to_le_bytes();
            [b[0], b[1], b[2], 255]
        })
        .collect();
    image(size, &pixels)
}

fn render(c: &mut FilterChain, input: &InputImage, viewport: Size) {
    if let Err(d) = c.render(input, viewport) {
        panic!("frame {} failed: {d:#?}", c.frames_rendered());
    }
}

fn output(c: &FilterChain) -> Pixels {
    c.read_output().unwrap_or_else(|d| panic!("read-back failed: {d:?}"))
}

fn rgba8(p: &Pixels) -> Vec<[u8; 4]> {
    p.to_rgba8().chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
}

fn solid(size: Size, c: [u8; 4]) -> InputImage {
    image(size, &vec![c; (size.width * size.height) as usize])
}

/// Pass 0 copies an 8x8 checkerboard; pass 1 draws it into a 2x2 viewport with nearest
/// sampling, a quarter of its size on each axis (level of detail 2). Only a pass that
/// asks for mipmapped input sees the averaged level 2; any other reads level 0 texels.
#[test]
fn a_pass_reads_the_mip_chain_of_its_input_only_when_it_asks_for_mipmaps() {
    let size = Size::new(8, 8);
    let pixels: Vec<[u8; 4]> =
        (0..64).map(|i| if (i % 8 + i / 8) % 2 == 0 { [255, 255, 255, 255] } else { [0, 0, 0, 255] }).collect();
    let input = image(size, &pixels);
    let run = |mipmap_input: bool| {
        let second = PassSpec { mipmap_input, ..PassSpec::default() };
        let mut c = chain(vec![passthrough(scaled(ScaleType::Source, 1.0)), passthrough(second)]);
        render(&mut c, &input, Size::new(2, 2));
        rgba8(&output(&c))
    };
    let level0 = run(false);
    assert!(level0.iter().all(|p| p[0] == 0 || p[0] == 255), "{level0:?}");
    let level2 = run(true);
    assert!(level2.iter().all(|p| (120..=135).contains(&p[0])), "{level2:?}");
}

#[test]
fn pass_through_reproduces_the_input_exactly() {
    let input = noise(Size::new(13, 7), 1);
    // One pass straight to the viewport.
    let mut c = chain(vec![passthrough(PassSpec::default())]);
    render(&mut c, &input, input.size);
    assert_eq!(output(&c).to_rgba8(), &*input.rgba8);
    // Three passes through framebuffers.
    let mut c = chain(vec![
        passthrough(scaled(ScaleType::Source, 1.0)),
        passthrough(PassSpec::default()),
        passthrough(PassSpec::default()),
    ]);
    render(&mut c, &input, input.size);
    assert_eq!(output(&c).to_rgba8(), &*input.rgba8);
    let p0 = c.read_pass(0).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(p0.to_rgba8(), &*input.rgba8);
}

/// A pass that leaves pixels unwritten still finds its target cleared every frame: its
/// vertex stage draws the whole target on frame 0 and only the middle on frame 1, so the
/// corners of frame 1 are transparent black, not frame 0's colour (a pass proven to
/// write every pixel loads its target instead of clearing it: `chain::coverage`).
#[test]
fn pixels_a_pass_leaves_unwritten_are_cleared_every_frame() {
    let ubo = "layout(std140, set = 0, binding = 0) uniform UBO { mat4 MVP; uint FrameCount; } global;";
    let vertex = format!(
        "#version 450
{ubo}
layout(location = 0) in vec4 Position;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec2 vTexCoord;
void main() {{
    gl_Position = global.MVP * Position;
    if (global.FrameCount == 1u) {{ gl_Position.xy *= 0.5; }}
    vTexCoord = TexCoord;
}}
"
    );
    let frag = fragment(ubo, "FragColor = vec4(1.0, 0.5, 0.25, 1.0);");
    let mk = |spec| ChainPass {
        vertex: module(&vertex, Stage::Vertex),
        fragment: module(&frag, Stage::Fragment),
        spec,
        parameters: Vec::new(),
    };
    let input = solid(Size::new(8, 8), [0, 0, 0, 255]);
    // Drawn into a framebuffer, then copied; and drawn straight into the viewport.
    for passes in
        [vec![mk(scaled(ScaleType::Source, 1.0)), passthrough(PassSpec::default())], vec![mk(PassSpec::default())]]
    {
        let mut c = chain(passes);
        render(&mut c, &input, input.size);
        assert_eq!(rgba8(&output(&c))[0], [255, 128, 64, 255]);
        render(&mut c, &input, input.size);
        let frame1 = rgba8(&output(&c));
        assert_eq!(frame1[0], [0, 0, 0, 0], "a corner the second frame leaves unwritten");
        assert_eq!(frame1[4 * 8 + 4], [255, 128, 64, 255], "the middle");
    }
}

const SIZES: &str = "layout(push_constant) uniform Push { vec4 SourceSize; vec4 OutputSize; vec4 FinalViewportSize; \
                     vec4 PassOutputSize0; vec4 OriginalSize; } params;";

#[test]
fn output_and_source_sizes_as_colours_with_odd_rounding() {
    let sizes = fragment(SIZES, "FragColor = vec4(params.SourceSize.xy, params.OutputSize.xy) / 255.0;");
    let viewport_sizes =
        fragment(SIZES, "FragColor = vec4(params.FinalViewportSize.xy, params.OriginalSize.xy) / 255.0;");
    // 13x7 x1.5 = 19.5x10.5 -> 20x11 (round half away from zero).
    let mut c = chain(vec![passthrough(scaled(ScaleType::Source, 1.5)), pass(&sizes, PassSpec::default())]);
    render(&mut c, &noise(Size::new(13, 7), 2), Size::new(40, 30));
    let out = rgba8(&output(&c));
    assert_eq!(out.len(), 40 * 30);
    assert!(out.iter().all(|p| *p == [20, 11, 40, 30]), "{:?}", out[0]);
    // Viewport and absolute scales; the reciprocals are right too.
    let recip = fragment(
        SIZES,
        "FragColor = vec4(params.SourceSize.zw * params.SourceSize.xy, params.PassOutputSize0.xy / 255.0);",
    );
    let mut c = chain(vec![
        passthrough(scaled(ScaleType::Viewport, 0.5)),
        passthrough(PassSpec { scale: scale(ScaleType::Absolute, 7.0, 3.0), ..PassSpec::default() }),
        pass(&recip, PassSpec::default()),
        pass(&viewport_sizes, PassSpec::default()),
    ]);
    render(&mut c, &noise(Size::new(5, 5), 3), Size::new(41, 21));
    let p2 = rgba8(&c.read_pass(2).unwrap_or_else(|d| panic!("{d:?}")));
    // Pass 2 is source x1 of pass 1 (7x3); PassOutput0 is 41*0.5 x 21*0.5 = 20.5x10.5 -> 21x11.
    assert_eq!(c.read_pass(2).map(|p| p.size).ok(), Some(Size::new(7, 3)));
    assert!(p2.iter().all(|p| *p == [255, 255, 21, 11]), "{:?}", p2[0]);
    assert!(rgba8(&output(&c)).iter().all(|p| *p == [41, 21, 5, 5]));
}

#[test]
fn a_scaled_last_pass_renders_at_its_scale_then_is_stretched() {
    let sizes = fragment(SIZES, "FragColor = vec4(params.OutputSize.xy, params.SourceSize.xy) / 255.0;");
    let mut c = chain(vec![pass(&sizes, scaled(ScaleType::Source, 2.0))]);
    render(&mut c, &noise(Size::new(3, 2), 4), Size::new(9, 5));
    let out = output(&c);
    assert_eq!(out.size, Size::new(9, 5));
    assert!(rgba8(&out).iter().all(|p| *p == [6, 4, 3, 2]));
    // Without a scale type the last pass draws to the viewport.
    let mut c = chain(vec![pass(&sizes, PassSpec::default())]);
    render(&mut c, &noise(Size::new(3, 2), 4), Size::new(9, 5));
    assert!(rgba8(&output(&c)).iter().all(|p| *p == [9, 5, 3, 2]));
}

/// The spans the chain's frames were timed in, in drawing order.
fn timed_spans(c: &mut FilterChain) -> Vec<Span> {
    match c.pass_timings() {
        Some(Ok(t)) => {
            assert!(t.frames_timed > 0 && t.spans.iter().all(|(_, s)| s.mean_ms >= 0.0), "{t:?}");
            t.spans.iter().map(|(span, _)| *span).collect()
        }
        other => panic!("no timings: {other:?}"),
    }
}

/// RetroArch draws a last pass with a scale type into a framebuffer and stretches that
/// to the viewport. Where the stretch would copy texel for texel (the viewport's size
/// and format, nothing reading the framebuffer again) the chain draws the pass into the
/// viewport instead: the same image without the stretch's draw (the timed spans show
/// which draws a frame made).
#[test]
fn a_last_pass_scaled_to_the_viewport_draws_into_it_with_the_stretched_image() {
    let body = "vec4 c = texture(sampler2D(Source, Source_sampler), vTexCoord);
    FragColor = vec4(c.rg * 0.7, fract(gl_FragCoord.x * 0.37 + gl_FragCoord.y * 0.11), 1.0);";
    let feedback = "layout(set = 0, binding = 5) uniform texture2D PassFeedback1;
layout(set = 0, binding = 21) uniform sampler PassFeedback1_sampler;";
    let reads_feedback =
        format!("{body}\n    FragColor += 0.0 * texture(sampler2D(PassFeedback1, PassFeedback1_sampler), vTexCoord);");
    let last = |decls: &str, body: &str, spec: PassSpec| pass(&fragment(decls, body), spec);
    let run = |last_pass: ChainPass| {
        let mut c = chain(vec![passthrough(scaled(ScaleType::Source, 1.0)), last_pass]);
        if let Err(d) = c.time_passes() {
            panic!("{d:?}");
        }
        for _ in 0..3 {
            render(&mut c, &noise(Size::new(5, 3), 9), Size::new(13, 7));
        }
        let spans = timed_spans(&mut c);
        (rgba8(&output(&c)), spans, c)
    };
    let at_viewport = scaled(ScaleType::Viewport, 1.0);
    let (direct, spans, c) = run(last(SOURCE, body, at_viewport.clone()));
    assert_eq!(spans, vec![Span::Pass(0), Span::Pass(1)]);
    assert_eq!(c.read_pass(1).map(|p| rgba8(&p)).ok().as_ref(), Some(&direct));
    // The same pass reading its own feedback keeps its framebuffer, and the stretch.
    let (stretched, spans, _) = run(last(&format!("{SOURCE}\n{feedback}"), &reads_feedback, at_viewport.clone()));
    assert_eq!(spans, vec![Span::Pass(0), Span::Pass(1), Span::Stretch]);
    assert_eq!(direct, stretched);
    assert!(direct.iter().any(|p| *p != direct[0]), "the image is flat");
    // Another size or format keeps the stretch too.
    let half = scaled(ScaleType::Viewport, 0.5);
    let srgb = PassSpec { srgb_framebuffer: true, ..at_viewport };
    for spec in [half, srgb] {
        assert_eq!(run(last(SOURCE, body, spec)).1, vec![Span::Pass(0), Span::Pass(1), Span::Stretch]);
    }
}

#[test]
fn frame_count_with_a_modulo_and_frame_direction() {
    let decls =
        "layout(std140, set = 0, binding = 0) uniform UBO { mat4 MVP; uint FrameCount; int FrameDirection; } global;";
    let body = "FragColor = vec4(float(global.FrameCount), float(global.FrameDirection + 2), 0.0, 255.0) / 255.0;";
    let frag = fragment(decls, body);
    let vertex = "#version 450
layout(std140, set = 0, binding = 0) uniform UBO { mat4 MVP; uint FrameCount; int FrameDirection; } global;
layout(location = 0) in vec4 Position;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec2 vTexCoord;
void main() { gl_Position = global.MVP * Position; vTexCoord = TexCoord; }
";
    let mk = |m: Option<u32>| ChainPass {
        vertex: module(vertex, Stage::Vertex),
        fragment: module(&frag, Stage::Fragment),
        spec: PassSpec { frame_count_mod: m, ..PassSpec::default() },
        parameters: Vec::new(),
    };
    let input = solid(Size::new(2, 2), [0, 0, 0, 255]);
    let mut with_mod = chain(vec![mk(Some(3))]);
    let mut without = chain(vec![mk(None)]);
    for _ in 0..5 {
        render(&mut with_mod, &input, Size::new(2, 2));
        render(&mut without, &input, Size::new(2, 2));
    }
    // The fifth frame has index 4: 4 % 3 = 1.
    assert_eq!(rgba8(&output(&with_mod))[0], [1, 3, 0, 255]);
    assert_eq!(rgba8(&output(&without))[0], [4, 3, 0, 255]);
    without.set_direction(-1);
    render(&mut without, &input, Size::new(2, 2));
    assert_eq!(rgba8(&output(&without))[0], [5, 1, 0, 255]);
}

#[test]
fn history_shows_the_frame_from_n_frames_ago() {
    let decls = "layout(set = 0, binding = 3) uniform texture2D OriginalHistory2;
layout(set = 0, binding = 19) uniform sampler OriginalHistory2_sampler;";
    let frag =
        fragment(decls, "FragColor = texture(sampler2D(OriginalHistory2, OriginalHistory2_sampler), vTexCoord);");
    let mut c = chain(vec![pass(&frag, PassSpec::default())]);
    let colours = [[10, 0, 0, 255], [20, 0, 0, 255], [30, 0, 0, 255], [40, 0, 0, 255], [50, 0, 0, 255]];
    let mut seen = Vec::new();
    for col in colours {
        render(&mut c, &solid(Size::new(3, 3), col), Size::new(3, 3));
        seen.push(rgba8(&output(&c))[4]);
    }
    assert_eq!(c.last_plan().map(|p| p.history_depth), Some(2));
    // Frames 0 and 1 see cleared history (transparent black), then the frame 2 back.
    assert_eq!(seen, vec![[0, 0, 0, 0], [0, 0, 0, 0], [10, 0, 0, 255], [20, 0, 0, 255], [30, 0, 0, 255]]);
}

#[test]
fn feedback_accumulates_over_frames() {
    let decls = "layout(set = 0, binding = 3) uniform texture2D PassFeedback0;
layout(set = 0, binding = 19) uniform sampler PassFeedback0_sampler;";
    let body = "FragColor = texture(sampler2D(PassFeedback0, PassFeedback0_sampler), vTexCoord) + vec4(1.0, 2.0, 0.0, 1.0) / 255.0;";
    let mut c =
        chain(vec![pass(&fragment(decls, body), scaled(ScaleType::Source, 1.0)), passthrough(PassSpec::default())]);
    let input = solid(Size::new(4, 4), [0, 0, 0, 255]);
    for _ in 0..6 {
        render(&mut c, &input, Size::new(4, 4));
    }
    assert_eq!(c.last_plan().map(|p| p.feedback.clone()), Some(vec![0]));
    // Starts from transparent black: six frames add six steps.
    assert!(rgba8(&output(&c)).iter().all(|p| *p == [6, 12, 0, 6]), "{:?}", rgba8(&output(&c))[0]);
}

#[test]
fn lut_sampling_and_size() {
    let decls = "layout(set = 0, binding = 4) uniform texture2D Mask;
layout(set = 0, binding = 20) uniform sampler Mask_sampler;
layout(push_constant) uniform Push { vec4 MaskSize; } params;";
    let body = "vec4 c = texture(sampler2D(Mask, Mask_sampler), vTexCoord);
    FragColor = vec4(c.rg, params.MaskSize.xy / 255.0);";
    let lut = LutImage {
        name: "Mask".into(),
        size: Size::new(2, 1),
        rgba8: vec![255, 0, 0, 255, 0, 255, 0, 255].into(),
        sampling: Sampling { filter: Filter::Nearest, wrap: WrapMode::ClampToEdge, mipmap: false },
    };
    let mut c = chain_with(vec![pass(&fragment(decls, body), PassSpec::default())], vec![lut], Vec::new());
    render(&mut c, &solid(Size::new(1, 1), [0; 4]), Size::new(4, 1));
    assert_eq!(rgba8(&output(&c)), vec![[255, 0, 2, 1], [255, 0, 2, 1], [0, 255, 2, 1], [0, 255, 2, 1]]);
}

fn near(a: &[[u8; 4]], b: &[[u8; 4]]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.iter().zip(y).all(|(p, q)| p.abs_diff(*q) <= 1))
}

#[test]
fn nearest_versus_linear() {
    let input = image(Size::new(2, 1), &[[0, 0, 0, 255], [255, 255, 255, 255]]);
    let run = |filter| {
        let spec = PassSpec { filter, wrap: WrapMode::ClampToEdge, ..PassSpec::default() };
        let mut c = chain(vec![passthrough(spec)]);
        render(&mut c, &input, Size::new(4, 1));
        rgba8(&output(&c))
    };
    let n = run(Filter::Nearest);
    assert_eq!(n, vec![[0, 0, 0, 255], [0, 0, 0, 255], [255, 255, 255, 255], [255, 255, 255, 255]]);
    // Linear at texel positions 0.25, 0.75, 1.25, 1.75: 0, 0.25, 0.75, 1.
    let l = run(Filter::Linear);
    let want = [[0, 0, 0, 255], [64, 64, 64, 255], [191, 191, 191, 255], [255, 255, 255, 255]];
    assert!(near(&l, &want), "{l:?}");
}

#[test]
fn each_wrap_mode() {
    let a = [200, 10, 10, 255];
    let b = [10, 200, 10, 255];
    let z = [0, 0, 0, 0];
    let input = image(Size::new(2, 1), &[a, b]);
    let frag =
        fragment(SOURCE, "FragColor = texture(sampler2D(Source, Source_sampler), vec2(vTexCoord.x * 3.0 - 1.0, 0.5));");
    // Pixel centres map to u = -0.75, -0.25, 0.25, 0.75, 1.25, 1.75.
    for (wrap, want) in [
        (WrapMode::ClampToEdge, [a, a, a, b, b, b]),
        (WrapMode::ClampToBorder, [z, z, a, b, z, z]),
        (WrapMode::Repeat, [a, b, a, b, a, b]),
        (WrapMode::MirroredRepeat, [b, a, a, b, b, a]),
    ] {
        let mut c = chain(vec![pass(&frag, PassSpec { wrap, ..PassSpec::default() })]);
        render(&mut c, &input, Size::new(6, 1));
        assert_eq!(rgba8(&output(&c)), want.to_vec(), "{wrap:?}");
    }
}

#[test]
fn the_consuming_pass_decides_how_a_pass_output_is_sampled() {
    // Pass 1 reads pass 0's 2x1 output magnified to 4x1; pass 1's filter is linear.
    let input = image(Size::new(2, 1), &[[0, 0, 0, 255], [255, 255, 255, 255]]);
    let mut c = chain(vec![
        passthrough(PassSpec { scale: scale(ScaleType::Source, 1.0, 1.0), ..PassSpec::default() }),
        passthrough(PassSpec { filter: Filter::Linear, wrap: WrapMode::ClampToEdge, ..PassSpec::default() }),
    ]);
    render(&mut c, &input, Size::new(4, 1));
    let want = [[0, 0, 0, 255], [64, 64, 64, 255], [191, 191, 191, 255], [255, 255, 255, 255]];
    let got = rgba8(&output(&c));
    assert!(near(&got, &want), "{got:?}");
}

#[test]
fn float_framebuffer_keeps_values_above_one() {
    let write = fragment("", "FragColor = vec4(2.5, -1.0, 0.25, 1.0);");
    let quarter = fragment(SOURCE, "FragColor = texture(sampler2D(Source, Source_sampler), vTexCoord) / 4.0;");
    let run = |float| {
        let spec = PassSpec { float_framebuffer: float, ..scaled(ScaleType::Source, 1.0) };
        let mut c = chain(vec![pass(&write, spec), pass(&quarter, PassSpec::default())]);
        render(&mut c, &solid(Size::new(2, 2), [0; 4]), Size::new(2, 2));
        (c.read_pass(0).unwrap_or_else(|d| panic!("{d:?}")), rgba8(&output(&c)))
    };
    let (p0, out) = run(true);
    assert_eq!(p0.data[0], [2.5, -1.0, 0.25, 1.0]);
    assert_eq!(out[0], [159, 0, 16, 64]);
    let (p0, out) = run(false);
    assert_eq!(p0.data[0], [1.0, 0.0, 64.0 / 255.0, 1.0]);
    // 64/255 / 4 -> 16.
    assert_eq!(out[0], [64, 0, 16, 64]);
}

#[test]
fn parameters_default_then_overridden() {
    let decls = "layout(push_constant) uniform Push { float Gain; } params;";
    let mut p = pass(&fragment(decls, "FragColor = vec4(params.Gain / 255.0, 0.0, 0.0, 1.0);"), PassSpec::default());
    p.parameters = vec![("Gain".into(), 7.0)];
    let mut c = chain_with(vec![p], Vec::new(), Vec::new());
    render(&mut c, &solid(Size::new(1, 1), [0; 4]), Size::new(1, 1));
    assert_eq!(rgba8(&output(&c))[0], [7, 0, 0, 255]);
    let mut p = pass(&fragment(decls, "FragColor = vec4(params.Gain / 255.0, 0.0, 0.0, 1.0);"), PassSpec::default());
    p.parameters = vec![("Gain".into(), 7.0)];
    let mut c = chain_with(vec![p], Vec::new(), vec![("Gain".into(), 42.0)]);
    render(&mut c, &solid(Size::new(1, 1), [0; 4]), Size::new(1, 1));
    assert_eq!(rgba8(&output(&c))[0], [42, 0, 0, 255]);
}

#[test]
fn unknown_textures_and_non_causal_reads_are_errors() {
    let bad = fragment(
        "layout(set = 0, binding = 2) uniform texture2D NotASemantic;
layout(set = 0, binding = 18) uniform sampler NotASemantic_sampler;",
        "FragColor = texture(sampler2D(NotASemantic, NotASemantic_sampler), vTexCoord);",
    );
    let r = FilterChain::new(
        gpu(),
        ChainDesc { passes: vec![pass(&bad, PassSpec::default())], luts: vec![], parameters: vec![] },
    );
    let codes: Vec<&str> = r.err().unwrap_or_default().iter().map(|d| d.code).collect();
    // The texture, and its sampler that pairs with nothing.
    assert!(!codes.is_empty() && codes.iter().all(|c| *c == runtime_check::codes::E_CHAIN_BINDING), "{codes:?}");
    let ahead = fragment(
        "layout(set = 0, binding = 2) uniform texture2D PassOutput0;
layout(set = 0, binding = 18) uniform sampler PassOutput0_sampler;",
        "FragColor = texture(sampler2D(PassOutput0, PassOutput0_sampler), vTexCoord);",
    );
    let r = FilterChain::new(
        gpu(),
        ChainDesc { passes: vec![pass(&ahead, PassSpec::default())], luts: vec![], parameters: vec![] },
    );
    let codes: Vec<&str> = r.err().unwrap_or_default().iter().map(|d| d.code).collect();
    assert_eq!(codes, vec![runtime_check::codes::E_CHAIN_PASS_INDEX]);
}

// ---- path (b): canonical slang files on disk ----

const SLANG_PASS: &str = concat!(
    r#"#version 450
#pragma parameter Gain "Gain" 1.0 0.0 4.0 0.1

layout(push_constant) uniform Push
{
    vec4 SourceSize;
    float Gain;
} params;

layout(std140, set = 0, binding = 0) uniform UBO
{
    mat4 MVP;
} global;

"#,
    support::slang_vertex_stage!(),
    r#"layout(set = 0, binding = 2) uniform sampler2D Source;

vec4 fetch(sampler2D s, vec2 uv)
{
    return texture(s, uv);
}

void main()
{
    FragColor = vec4(fetch(Source, vTexCoord).rgb * params.Gain, 1.0);
}
"#
);

fn load(dir: &std::path::Path, preset: &str) -> ChainDesc {
    let path = dir.join("p.slangp");
    std::fs::write(&path, preset).unwrap_or_else(|e| panic!("{e}"));
    let mut sources = grammar::SourceMap::new();
    let (desc, diags) = runtime_check::chain::preset::load_preset(&mut sources, &path, &grammar::RealFs);
    match desc {
        Some(d) => d,
        None => panic!("preset does not load: {diags:#?}"),
    }
}

#[test]
fn a_slang_preset_from_disk_renders() {
    let dir = temp_dir("slang");
    std::fs::write(dir.join("gain.slang"), SLANG_PASS).unwrap_or_else(|e| panic!("{e}"));
    let input = noise(Size::new(5, 3), 9);
    let dark: Vec<u8> = input.rgba8.chunks_exact(4).flat_map(|p| [p[0] / 2, p[1] / 2, p[2] / 2, 255]).collect();
    let dark = InputImage { size: input.size, rgba8: dark.into() };
    // Default parameter value 1.0: pass-through through a framebuffer and a function
    // taking a sampler2D.
    let desc = load(&dir, "shaders = 2\nshader0 = gain.slang\nscale_type0 = source\nshader1 = gain.slang\n");
    let mut c = FilterChain::new(gpu(), desc).unwrap_or_else(|d| panic!("{d:#?}"));
    render(&mut c, &dark, dark.size);
    assert_eq!(output(&c).to_rgba8(), &*dark.rgba8);
    // The preset's value overrides the default: x2 twice, clamped by the unorm targets.
    let desc = load(&dir, "shaders = 1\nshader0 = gain.slang\nparameters = \"Gain\"\nGain = 2.0\n");
    let mut c = FilterChain::new(gpu(), desc).unwrap_or_else(|d| panic!("{d:#?}"));
    render(&mut c, &dark, dark.size);
    let want: Vec<u8> = dark.rgba8.chunks_exact(4).flat_map(|p| [p[0] * 2, p[1] * 2, p[2] * 2, 255]).collect();
    assert_eq!(output(&c).to_rgba8(), want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-pass `.slang` file: the UBO with the MVP, the standard vertex stage, `Source`,
/// then `fragment` (the rest of the fragment stage).
fn one_pass_slang(fragment: &str) -> String {
    format!(
        "#version 450\n\nlayout(std140, set = 0, binding = 0) uniform UBO\n{{\n    mat4 MVP;\n}} global;\n\n{}\
         layout(set = 0, binding = 2) uniform sampler2D Source;\n\n{fragment}",
        support::slang_vertex_stage!()
    )
}

/// Renders `text` as the one pass of a preset, from disk, over noise of `size`.
fn render_slang_file(name: &str, text: &str, size: Size) -> Vec<[u8; 4]> {
    let dir = temp_dir(name);
    std::fs::write(dir.join(format!("{name}.slang")), text).unwrap_or_else(|e| panic!("{e}"));
    let desc = load(&dir, &format!("shaders = 1\nshader0 = {name}.slang\n"));
    let mut c = FilterChain::new(gpu(), desc).unwrap_or_else(|d| panic!("{d:#?}"));
    let input = noise(size, 4);
    render(&mut c, &input, input.size);
    let out = rgba8(&output(&c));
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn constant_arrays_read_with_a_run_time_index_keep_their_values() {
    // The chain hoists `levels` into a private global; `changed`, a local copy the shader
    // then changes, stays local.
    let text = one_pass_slang(
        "const float levels[4] = float[4](0.0, 0.2, 0.4, 1.0);

void main()
{
    int i = int(gl_FragCoord.x) % 4;
    float changed[4] = levels;
    changed[1] = 0.6;
    float sum = 0.0;
    for (int k = 0; k <= i; k++)
    {
        sum += levels[k];
    }
    FragColor = vec4(levels[i], changed[i], sum * 0.25, 1.0);
}
",
    );
    let out = render_slang_file("taps", &text, Size::new(8, 2));
    // Per column x: levels[x % 4], the changed copy, and a quarter of the running sum.
    let want = [[0, 0, 0, 255], [51, 153, 13, 255], [102, 102, 38, 255], [255, 255, 102, 255]];
    for (x, p) in out.iter().enumerate() {
        assert_eq!(*p, want[x % 8 % 4], "pixel {x}");
    }
}

#[test]
fn early_returns_render_as_written() {
    // Two early returns in `main`, which the chain's module makes `else` branches
    // (`chain::tail_returns`), and one inside a loop, which stays.
    let text = one_pass_slang(
        "void main()
{
    float x = floor(gl_FragCoord.x);
    if (x < 1.0)
    {
        FragColor = vec4(1.0, 0.0, 0.0, 1.0);
        return;
    }
    float sum = 0.0;
    for (int k = 0; k < 4; k++)
    {
        if (float(k) >= x)
        {
            FragColor = vec4(0.0, sum / 255.0, 0.0, 1.0);
            return;
        }
        sum += 10.0;
    }
    if (x > 4.0)
    {
        FragColor = vec4(0.0, 0.0, 1.0, 1.0);
        return;
    }
    FragColor = vec4(1.0, 1.0, 1.0, 1.0);
}
",
    );
    let compiled = runtime_check::chain::slang::compile_slang(std::path::Path::new("early.slang"), &text, None)
        .unwrap_or_else(|d| panic!("{d:#?}"));
    let mut fragment = compiled.fragment;
    assert_eq!(runtime_check::chain::tail_returns::fold_tail_returns(&mut fragment), 0, "already folded");
    // Columns 0..6: red; the loop's return with 10, 20, 30; x = 4 falls through; x = 5 blue.
    assert_eq!(
        render_slang_file("early", &text, Size::new(6, 1)),
        vec![
            [255, 0, 0, 255],
            [0, 10, 0, 255],
            [0, 20, 0, 255],
            [0, 30, 0, 255],
            [255, 255, 255, 255],
            [0, 0, 255, 255]
        ]
    );
}

#[test]
fn modf_and_frexp_render() {
    // glslang's `ModfStruct`/`FrexpStruct`, whose result types naga's SPIR-V front end
    // leaves undeclared.
    let text = one_pass_slang(
        "void main()
{
    float whole;
    float fraction = modf(1.75 + floor(gl_FragCoord.x), whole);
    int e;
    float m = frexp(12.0, e);
    FragColor = vec4(fraction, whole / 255.0, m, float(e) / 255.0);
}
",
    );
    // x + 1.75 = whole + 0.75; 12 = 0.75 * 2^4.
    assert_eq!(
        render_slang_file("modf", &text, Size::new(3, 1)),
        vec![[191, 1, 191, 4], [191, 2, 191, 4], [191, 3, 191, 4]]
    );
}

#[test]
fn a_slang_preset_with_errors_is_diagnosed() {
    let dir = temp_dir("bad");
    std::fs::write(
        dir.join("bad.slang"),
        "#version 450\n#pragma stage vertex\nvoid main() { nope; }\n#pragma stage fragment\nvoid main() {}\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // A shader that does not compile: the chain's own error, for both stages.
    let path = dir.join("p.slangp");
    std::fs::write(&path, "shaders = 1\nshader0 = bad.slang\n").unwrap_or_else(|e| panic!("{e}"));
    let mut sources = grammar::SourceMap::new();
    let (desc, diags) = runtime_check::chain::preset::load_preset(&mut sources, &path, &grammar::RealFs);
    assert!(desc.is_none());
    assert!(diags.iter().any(|d| d.code == runtime_check::codes::E_CHAIN_SHADER), "{diags:#?}");
    // A shader file that does not exist: the preset reader refuses it, naming the file.
    let path = dir.join("q.slangp");
    std::fs::write(&path, "shaders = 2\nshader0 = bad.slang\nshader1 = missing.slang\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let (desc, diags) = runtime_check::chain::preset::load_preset(&mut sources, &path, &grammar::RealFs);
    assert!(desc.is_none());
    assert!(
        diags
            .iter()
            .any(|d| d.code == translator::codes::E_PRESET_FILE_UNREADABLE && d.message.contains("missing.slang")),
        "{diags:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn srgb_encode(v: f64) -> f64 {
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

#[test]
fn the_devices_8_bit_decodes_are_probed_once_and_near_exact() {
    let g = gpu();
    let t = g.conversions().unwrap_or_else(|d| panic!("probe: {}", d.message));
    let srgb = |k: usize| {
        let v = k as f64 / 255.0;
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    assert_eq!((t.unorm8[0], t.srgb8[0]), (0.0, 0.0), "black decodes to 0");
    // Vulkan leaves the precision to the device; lavapipe and an H100 stay within 4e-3.
    for k in 0..256 {
        let (u, s) = (f64::from(t.unorm8[k]), f64::from(t.srgb8[k]));
        assert!((u - k as f64 / 255.0).abs() < 1e-3, "UNORM byte {k}: {u}");
        assert!((s - srgb(k)).abs() < 5e-3, "sRGB byte {k}: {s} against {}", srgb(k));
    }
    assert!(t.srgb8.windows(2).all(|w| w[0] <= w[1]), "a decode table rises with the byte");
    // The encode boundaries (measured where 32-bit float textures filter) lie within
    // half a step of k + 0.5.
    // (`None`: every boundary within one probe sample of exact.)
    for k in 0..255 {
        let half = k as f64 + 0.5;
        if let Some(u) = t.unorm8_encode {
            assert!((f64::from(u[k]) * 255.0 - half).abs() < 0.5, "UNORM boundary {k}: {}", u[k]);
        }
        if let Some(s) = t.srgb8_encode {
            let e = srgb_encode(f64::from(s[k])) * 255.0;
            assert!((e - half).abs() < 0.5, "sRGB boundary {k}: {} ({e})", s[k]);
        }
    }
    assert_eq!(g.conversions().ok(), Some(t), "measured once, the same afterwards");
}

#[test]
fn eight_bit_read_back_is_the_float_read_back_rounded() {
    use runtime_check::chain::textures::{read_back, read_back_rgba8, Texture};
    let gpu = gpu();
    let size = Size::new(16, 16);
    // Every byte value in every channel, each channel a different permutation.
    let bytes: Vec<u8> = (0..=255u8).flat_map(|v| [v, 255 - v, v ^ 0x5a, v.wrapping_mul(7)]).collect();
    for format in
        [wgpu::TextureFormat::Rgba8Unorm, wgpu::TextureFormat::Rgba8UnormSrgb, wgpu::TextureFormat::Bgra8Unorm]
    {
        let t = Texture::new(&gpu, "read-back", size, format, 1);
        t.write_rgba8(&gpu, &bytes);
        let floats = read_back(&gpu, &t).unwrap_or_else(|d| panic!("{d:?}"));
        let (got_size, got) = read_back_rgba8(&gpu, &t).unwrap_or_else(|d| panic!("{d:?}"));
        assert_eq!(got_size, size);
        assert_eq!(got, floats.to_rgba8(), "{format:?}");
    }
}

/// The pipeline cache goes to disk through wgpu and back, one file per pipeline: what a
/// pipeline's cache holds is written once, read back by the next device on the same
/// adapter, and not written again when nothing was added; another pipeline has a file of
/// its own.
#[test]
fn the_pipeline_cache_round_trips_through_the_device() {
    use runtime_check::chain::pipeline_cache::{read_entry, PipelineStore};
    let g = gpu();
    // wgpu offers a pipeline cache on every Vulkan adapter, the chain's only backend.
    assert!(g.features.contains(wgpu::Features::PIPELINE_CACHE), "{}", g.describe());
    let key = wgpu::util::pipeline_cache_key(&g.info).unwrap_or_else(|| panic!("no cache key for {}", g.describe()));
    let dir = temp_dir("pipeline-cache");
    let name = |pipeline: u128| format!("{key}_{pipeline:032x}");
    let path = dir.join(format!("{}.vkpc", name(7)));
    let store = PipelineStore::open_in(&g.device, &g.info, &dir, 11).unwrap_or_else(|| panic!("no pipeline cache"));
    let first = store.entry(&g.device, 7).unwrap_or_else(|| panic!("no pipeline cache"));
    first.save();
    let data = read_entry(&path, 11, &name(7)).unwrap_or_else(|| panic!("nothing written to {}", path.display()));
    assert_eq!(first.cache().get_data().as_deref(), Some(&data[..]));
    // Another build's file, or another pipeline's, is not read.
    assert_eq!(read_entry(&path, 12, &name(7)), None);
    assert_eq!(read_entry(&path, 11, &name(8)), None);
    let again = PipelineStore::open_in(&g.device, &g.info, &dir, 11).unwrap_or_else(|| panic!("no pipeline cache"));
    let second = again.entry(&g.device, 7).unwrap_or_else(|| panic!("no pipeline cache"));
    std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{e}"));
    second.save();
    assert!(!path.exists(), "an unchanged cache was written again");
    again.entry(&g.device, 8).unwrap_or_else(|| panic!("no pipeline cache")).save();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    assert_eq!(names, [format!("{}.vkpc", name(8))], "one file for the new pipeline, none for the other");
    let _ = std::fs::remove_dir_all(&dir);
}
