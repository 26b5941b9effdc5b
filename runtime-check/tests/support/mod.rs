//! What the integration tests of runtime-check share, as the other crates' `tests/support`:
//! the project corpus (its directory and its presets), the GPU, naga
//! modules of hand-written stages, the vertex stage of a hand-written slang pass, a
//! scratch directory, and for the reference renderer's tests a compiled Cg program and a
//! 4x4 source image. Test code only: it panics, with the reason, where a test cannot go on.

// Each test binary uses part of it.
#![allow(dead_code)]

use runtime_check::chain::{AdapterChoice, Gpu};
use runtime_check::reference::source::cg;
use runtime_check::reference::{PassProgram, RgbaF32Image};
use runtime_check::validate::{validate_naga, Stage};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The project's corpus of RetroArch Cg shaders and presets.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/retroarch")
}

/// The `.cgp` presets at the top of the corpus, sorted.
pub fn corpus_presets() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap_or_else(|e| panic!("corpus/retroarch: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cgp"))
        .collect();
    out.sort();
    out
}

/// The adapter `choice` asks for; the tests that need one fail without it.
pub fn gpu(choice: AdapterChoice) -> Arc<Gpu> {
    match Gpu::open(choice) {
        Ok(g) => Arc::new(g),
        Err(d) => panic!("no GPU adapter ({}): install mesa-vulkan-drivers (lavapipe); CI does", d.message),
    }
}

/// A hand-written stage parsed by naga, which must accept it.
pub fn naga_module(text: &str, stage: Stage) -> naga::Module {
    match validate_naga(text, stage) {
        Ok(m) => m,
        Err(d) => panic!("{stage} stage does not parse: {d:#?}\n{text}"),
    }
}

/// The vertex stage's interface and `main` as every hand-written pass here has them
/// (RetroArch's two inputs, the texture coordinate passed on), for `concat!` after the
/// stage's blocks.
#[allow(unused_macros)]
macro_rules! vertex_interface_and_main {
    () => {
        "layout(location = 0) in vec4 Position;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec2 vTexCoord;

void main()
{
    gl_Position = global.MVP * Position;
    vTexCoord = TexCoord;
}
"
    };
}
#[allow(unused_imports)]
pub(crate) use vertex_interface_and_main;

/// The vertex stage of a hand-written canonical slang pass as the translator emits it,
/// up to the fragment stage's interface: `concat!` it between the pass's header (version,
/// parameters, blocks) and its fragment declarations.
#[allow(unused_macros)]
macro_rules! slang_vertex_stage {
    () => {
        concat!(
            "#pragma stage vertex\n",
            crate::support::vertex_interface_and_main!(),
            "
#pragma stage fragment
layout(location = 0) in vec2 vTexCoord;
layout(location = 0) out vec4 FragColor;
"
        )
    };
}
#[allow(unused_imports)]
pub(crate) use slang_vertex_stage;

/// A fresh, empty directory under the system's temporary directory, named after the
/// test and this process.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cg2slang-runtime-check-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// A Cg program the reference renderer compiles, which it must accept.
pub fn cg_program(src: &str) -> PassProgram {
    cg(src).unwrap_or_else(|d| panic!("compile failed: {d:#?}"))
}

/// A 4x4 source with distinct texels: r = x / 4, g = y / 4.
pub fn source4() -> RgbaF32Image {
    RgbaF32Image::from_fn(4, 4, |x, y| [x as f32 / 4.0, y as f32 / 4.0, 0.5, 1.0])
}
