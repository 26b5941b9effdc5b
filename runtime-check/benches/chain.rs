//! Frames per second of a 3-pass chain at a 1920x1080 viewport (input 320x240):
//! pass 0 source x2, pass 1 viewport x1 reading `Original` and `PassOutput0`, pass 2 to
//! the viewport. Prints the adapter and the figure; `cargo bench -p runtime-check --bench chain`.
//! With `CHAIN_BENCH_PRESET=FILE.slangp` (and `CHAIN_BENCH_IMAGE=IN.png`, else a
//! 320x240 pattern) it times that preset instead, so the figure can be set next to
//! another slang runtime rendering the same file (`CHAIN_BENCH_FRAMES`, default 600).
//! Fails loudly without a Vulkan adapter.

use grammar::{RealFs, SourceMap};
use runtime_check::chain::{image_io, preset::load_preset, ChainDesc, ChainPass, FilterChain, Gpu, InputImage};
use runtime_check::plan::{Filter, PassSpec, Size};
use runtime_check::validate::{validate_naga, Stage};
use std::sync::Arc;
use std::time::Instant;
use translator::preset::{Scale, ScaleType};

const VERTEX: &str = "#version 450
layout(std140, set = 0, binding = 0) uniform UBO { mat4 MVP; } global;
layout(location = 0) in vec4 Position;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec2 vTexCoord;
void main() { gl_Position = global.MVP * Position; vTexCoord = TexCoord; }
";

const FRAGMENT: &str = "#version 450
layout(location = 0) in vec2 vTexCoord;
layout(location = 0) out vec4 FragColor;
layout(push_constant) uniform Push { vec4 SourceSize; } params;
layout(set = 0, binding = 2) uniform texture2D Source;
layout(set = 0, binding = 18) uniform sampler Source_sampler;
layout(set = 0, binding = 3) uniform texture2D Original;
layout(set = 0, binding = 19) uniform sampler Original_sampler;
void main()
{
    vec2 d = params.SourceSize.zw;
    vec4 c = texture(sampler2D(Source, Source_sampler), vTexCoord) * 0.5
           + texture(sampler2D(Source, Source_sampler), vTexCoord + vec2(d.x, 0.0)) * 0.25
           + texture(sampler2D(Original, Original_sampler), vTexCoord) * 0.25;
    FragColor = c;
}
";

fn main() {
    let gpu = match Gpu::new() {
        Ok(g) => Arc::new(g),
        Err(d) => panic!("no GPU adapter: {} (install mesa-vulkan-drivers)", d.message),
    };
    println!("adapter: {}", gpu.describe());
    let preset = std::env::var_os("CHAIN_BENCH_PRESET").map(std::path::PathBuf::from);
    let desc = match &preset {
        Some(path) => {
            let (desc, diags) = load_preset(&mut SourceMap::new(), path, &RealFs);
            desc.unwrap_or_else(|| panic!("{}: {diags:?}", path.display()))
        }
        None => synthetic_chain(),
    };
    let mut chain = FilterChain::new(gpu.clone(), desc).unwrap_or_else(|d| panic!("{d:?}"));
    let input = match std::env::var_os("CHAIN_BENCH_IMAGE") {
        Some(p) => image_io::load_image(std::path::Path::new(&p)).unwrap_or_else(|d| panic!("{d:?}")),
        None => {
            let size = Size::new(320, 240);
            InputImage { size, rgba8: (0..size.width * size.height * 4).map(|i| (i % 251) as u8).collect() }
        }
    };
    let viewport = Size::new(1920, 1080);
    for _ in 0..5 {
        chain.render(&input, viewport).unwrap_or_else(|d| panic!("{d:?}"));
    }
    gpu.wait().unwrap_or_else(|d| panic!("{d:?}"));
    let frames: u32 = std::env::var("CHAIN_BENCH_FRAMES").ok().and_then(|f| f.parse().ok()).unwrap_or(600);
    let start = Instant::now();
    for _ in 0..frames {
        chain.render(&input, viewport).unwrap_or_else(|d| panic!("{d:?}"));
    }
    gpu.wait().unwrap_or_else(|d| panic!("{d:?}"));
    let secs = start.elapsed().as_secs_f64();
    let what = preset.map_or("3-pass chain".to_string(), |p| p.display().to_string());
    let (w, h) = (input.size.width, input.size.height);
    println!("{what}, {w}x{h} -> 1920x1080: {frames} frames in {secs:.3} s = {:.1} fps", f64::from(frames) / secs);
}

fn synthetic_chain() -> ChainDesc {
    let module = |t: &str, s| validate_naga(t, s).unwrap_or_else(|d| panic!("{d:?}"));
    let mk = |scale: Option<Scale>| ChainPass {
        vertex: module(VERTEX, Stage::Vertex),
        fragment: module(FRAGMENT, Stage::Fragment),
        spec: PassSpec { scale, filter: Filter::Linear, ..PassSpec::default() },
        parameters: Vec::new(),
    };
    let s = |t, f| Some(Scale { x: (t, f), y: (t, f) });
    ChainDesc {
        passes: vec![mk(s(ScaleType::Source, 2.0)), mk(s(ScaleType::Viewport, 1.0)), mk(None)],
        luts: Vec::new(),
        parameters: Vec::new(),
    }
}
