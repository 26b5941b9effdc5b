//! Runtime checks of translated shaders: validation with naga and glslang, a headless
//! wgpu filter chain, and a CPU reference renderer of the Cg original.
//!
//! **Invariant:** this is the only crate that touches naga, glslang, wgpu and PNG files.
//!
//! - [`reference`]: the CPU reference renderer of the Cg original (typed IR before
//!   porting, Cg runtime emulated; codes `E08xx`).
//! - [`validate`]: RetroArch's loader rules (file format, glslang, slang interface) and
//!   naga, on one emitted pass; findings are [`grammar::Diagnostic`]s with codes in
//!   [`codes`] (`E06xx`).
//! - [`plan`]: the chain schedule as pure data (sizes, formats, frame counters, what
//!   every pass can read and how it is sampled), shared by the GPU chain and the CPU
//!   reference renderer; its errors are `E07xx`.
//! - [`compare`]: old (CPU reference) versus new (GPU chain) renders of a `.cgp`,
//!   with PSNR and tolerance metrics and a verdict against thresholds.
//! - [`chain`]: the headless wgpu filter chain that renders a preset from naga modules
//!   (in memory, or compiled from `.slang` files on disk), driven by [`plan`].

pub mod chain;
pub mod codes;
pub mod compare;
pub mod plan;
pub mod reference;
pub mod validate;
