//! The pass memo ([`runtime_check::reference::memo`]): presets rendered through one memo
//! give exactly what they give alone, reuse a pass only when everything it reads is the
//! same (program text, parameters, input frames, sampler states, target size), and
//! render it again whenever one of those differs.

mod support;

use grammar::{FileSystem, MemoryFs, RealFs, SourceMap};
use runtime_check::reference::{render_preset_detailed, MemoStats, PassMemo, PresetOutput, PresetRender, RgbaF32Image};
use std::path::Path;

/// Pass 0: the input scaled by the parameter `GAIN`, plus a per-pixel ramp.
const GAIN: &str = "#pragma parameter GAIN \"gain\" 0.5 0.0 2.0 0.1\n\
#ifdef PARAMETER_UNIFORM\nuniform float GAIN;\n#else\n#define GAIN 0.5\n#endif\n\
void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; }\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR\n\
{ return tex2D(s, tex) * GAIN + float4(tex, 0.0, 0.0) * 0.25; }\n";

/// A later pass: its input through a colour matrix named by `k`.
fn tint(k: f32) -> String {
    format!(
        "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n\
         {{ oPosition = mul(modelViewProj, position); oTex = tex; }}\n\
         float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR\n\
         {{ float4 c = tex2D(s, tex); return float4(c.g, c.b * {k:.3}, c.r, 1.0); }}\n"
    )
}

fn files(gain_source: &str) -> MemoryFs {
    let two = |second: &str, extra: &str| {
        format!("shaders = 2\nshader0 = gain.cg\nscale_type0 = source\nscale0 = 2.0\nshader1 = {second}\n{extra}")
    };
    MemoryFs::new()
        .with("/m/gain.cg", gain_source)
        .with("/m/a.cg", tint(0.5).as_str())
        .with("/m/b.cg", tint(0.75).as_str())
        .with("/m/a.cgp", two("a.cg", "").as_str())
        .with("/m/b.cgp", two("b.cg", "").as_str())
        .with("/m/a-linear.cgp", two("a.cg", "filter_linear1 = true\n").as_str())
        .with("/m/a-gain.cgp", two("a.cg", "parameters = \"GAIN\"\nGAIN = 1.5\n").as_str())
        .with("/m/a-small.cgp", two("a.cg", "").replace("scale0 = 2.0", "scale0 = 1.0").as_str())
}

fn frame(shift: f32) -> RgbaF32Image {
    RgbaF32Image::from_fn(6, 4, |x, y| [x as f32 / 6.0, y as f32 / 4.0, shift, 1.0])
}

fn render(fs: &dyn FileSystem, name: &str, input: &RgbaF32Image, memo: Option<&PassMemo>) -> PresetOutput {
    let mut sources = SourceMap::new();
    let (Some(preset), d) = translator::preset::load_cgp(&mut sources, Path::new(name), fs) else {
        panic!("{name}: cannot load");
    };
    assert!(d.iter().all(|d| d.severity != grammar::Severity::Error), "{d:#?}");
    let frames = [input.clone()];
    let job = PresetRender {
        preset: &preset,
        fs,
        frames: &frames,
        viewport: (10, 6),
        frame_count: 2,
        parameters: &[],
        luts: None,
        conversions: Default::default(),
        precision: false,
        replaced: &[],
        memo,
    };
    render_preset_detailed(&mut sources, &job).unwrap_or_else(|d| panic!("{name}: {d:#?}"))
}

/// Both renders bit for bit: final image, hazard map and every pass output.
fn assert_same(a: &PresetOutput, b: &PresetOutput) {
    let bits = |i: &RgbaF32Image| i.pixels.iter().flat_map(|p| p.map(f32::to_bits)).collect::<Vec<_>>();
    assert_eq!(bits(&a.image), bits(&b.image));
    assert_eq!(a.hazard, b.hazard);
    assert_eq!(a.passes.len(), b.passes.len());
    for (x, y) in a.passes.iter().zip(&b.passes) {
        assert_eq!(bits(x.image()), bits(y.image()));
        assert_eq!(x.hazard, y.hazard);
    }
}

/// The memo's counts after rendering `names` (in order) through one memo, each checked
/// against its render without a memo.
fn through_one_memo(fs: &MemoryFs, names: &[(&str, &RgbaF32Image)]) -> MemoStats {
    let memo = PassMemo::new(1 << 30);
    for (name, input) in names {
        let alone = render(fs, name, input, None);
        let shared = render(fs, name, input, Some(&memo));
        assert_same(&alone, &shared);
    }
    memo.stats()
}

#[test]
fn the_same_preset_again_renders_nothing() {
    let fs = files(GAIN);
    let card = frame(0.0);
    let stats = through_one_memo(&fs, &[("/m/a.cgp", &card), ("/m/a.cgp", &card)]);
    assert_eq!(stats, MemoStats { hits: 2, misses: 2 });
}

#[test]
fn a_preset_that_differs_in_its_last_pass_reuses_the_first() {
    let fs = files(GAIN);
    let card = frame(0.0);
    let stats = through_one_memo(&fs, &[("/m/a.cgp", &card), ("/m/b.cgp", &card)]);
    assert_eq!(stats, MemoStats { hits: 1, misses: 3 });
    // The last pass reads the first through another filter: only that pass differs.
    let stats = through_one_memo(&fs, &[("/m/a.cgp", &card), ("/m/a-linear.cgp", &card)]);
    assert_eq!(stats, MemoStats { hits: 1, misses: 3 });
}

#[test]
fn a_pass_reading_anything_else_renders_again() {
    let fs = files(GAIN);
    let card = frame(0.0);
    // Another parameter value, another input frame, another target size: both passes.
    for (name, input) in [("/m/a-gain.cgp", &card), ("/m/a.cgp", &frame(0.5)), ("/m/a-small.cgp", &card)] {
        let stats = through_one_memo(&fs, &[("/m/a.cgp", &card), (name, input)]);
        assert_eq!(stats, MemoStats { hits: 0, misses: 4 }, "{name}");
    }
    // The same file name with another text (a changed include would read the same).
    let memo = PassMemo::new(1 << 30);
    render(&fs, "/m/a.cgp", &card, Some(&memo));
    let edited = files(&GAIN.replace("* 0.25", "* 0.125"));
    let alone = render(&edited, "/m/a.cgp", &card, None);
    let shared = render(&edited, "/m/a.cgp", &card, Some(&memo));
    assert_same(&alone, &shared);
    assert_eq!(memo.stats(), MemoStats { hits: 0, misses: 4 });
}

/// A preset with two LUTs (one mip-mapped) renders through a memo exactly as alone, the
/// second time with the LUTs the first time loaded (their sizes known without decoding).
#[test]
fn luts_are_loaded_once_per_run_and_render_as_alone() {
    let path = support::corpus().join("lut-grade.cgp");
    let name = path.to_string_lossy().into_owned();
    let mut sources = SourceMap::new();
    let (Some(preset), _) = translator::preset::load_cgp(&mut sources, &path, &RealFs) else {
        panic!("lut-grade.cgp: cannot load");
    };
    let luts: Vec<_> = preset.textures.iter().map(|t| t.resolved.clone()).collect();
    assert_eq!(luts.len(), 2);
    let alone = render(&RealFs, &name, &frame(0.25), None);
    let memo = PassMemo::new(1 << 30);
    assert!(luts.iter().all(|l| memo.lut_size(l).is_none()));
    let first = render(&RealFs, &name, &frame(0.25), Some(&memo));
    assert_eq!(memo.lut_size(&luts[0]), Some((256, 16)));
    assert_eq!(memo.lut_size(&luts[1]), Some((64, 1)));
    let second = render(&RealFs, &name, &frame(0.25), Some(&memo));
    assert_same(&alone, &first);
    assert_same(&alone, &second);
}
