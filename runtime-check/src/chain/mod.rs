//! The headless wgpu filter chain: renders a RetroArch slang preset with no window.
//!
//! - [`device`]: the adapter, device and queue; wgpu errors as data;
//! - [`reflect`]: what a naga module declares (blocks, members, textures, samplers);
//! - [`pipeline`]: shader modules, bind-group layouts, pipelines, the stock blit;
//! - [`clip_space`]: vertex stages in Vulkan's clip space (y = -1 at the top) under
//!   wgpu, so shaders see RetroArch's quad and `gl_Position`;
//! - [`bind`]: uniform values by slang semantic name;
//! - [`textures`]: formats, textures, samplers, read-back;
//! - [`run`]: the chain itself, frame after frame, driven by [`crate::plan`];
//! - [`timings`]: GPU time per pass from timestamp queries (`render --timings`);
//! - [`slang`]: a `.slang` file on disk to naga modules (glslang, combined samplers
//!   split in the SPIR-V, naga's SPIR-V front end); [`preset`] a whole `.slangp`;
//! - [`fetch_offset`]: texel-fetch offsets folded into the coordinate in the SPIR-V,
//!   which naga would drop;
//! - [`pre_emitted`]: `Emit`s of expressions naga evaluates up front (which its SPIR-V
//!   front end writes for glslang's trailing `return <null>`) split around them;
//! - [`predeclared`]: the `modf`/`frexp` result types naga's SPIR-V front end uses but
//!   does not declare;
//! - [`constant_locals`]: the function variables glslang fills with a whole constant
//!   array before each indexed read become private globals (no copy per read);
//! - [`naga_blocks`]: the one statement-by-statement rewrite of a naga body that the
//!   module repairs above share;
//! - [`coverage`]: passes proven to write every pixel of their target, which load it
//!   instead of clearing it;
//! - [`loop_bounds`]: counted loops proven to end, so that wgpu need not guard them
//!   (the chain's `unsafe` call of `create_shader_module_trusted` rests on it);
//! - [`pipeline_cache`]: a Vulkan pipeline cache per pipeline, kept on disk (the
//!   chain's other `unsafe` call, `create_pipeline_cache`, rests on its file format);
//! - [`image_io`]: PNG in and out (writes are atomic);
//! - [`probe`]: what the device does where Vulkan leaves it free (its sRGB decode),
//!   measured once per [`Gpu`] for the CPU reference.
//!
//! Modules come either from memory (the translator's naga dialect, through naga's GLSL
//! front end) or from canonical slang files on disk; the chain itself only sees
//! `naga::Module`s, which wgpu takes as they are (`ShaderSource::Naga`).
//!
//! **Invariant:** nothing here panics on any preset, shader, image or size, or prints;
//! every failure is a [`grammar::Diagnostic`] with an `E07xx` code.

pub mod bind;
pub mod clip_space;
pub mod constant_locals;
pub mod coverage;
pub mod device;
pub mod fetch_offset;
pub mod image_io;
pub mod loop_bounds;
pub mod naga_blocks;
pub mod pipeline;
pub mod pipeline_cache;
pub mod pre_emitted;
pub mod predeclared;
pub mod preset;
pub mod probe;
pub mod reflect;
pub mod run;
pub mod slang;
pub mod tail_returns;
pub mod textures;
pub mod timings;

pub use device::{AdapterChoice, Gpu};
pub use run::{ChainDesc, ChainPass, FilterChain, InputImage, LutImage, PreparedChain};
pub use textures::Pixels;
