//! The CPU reference renderer: runs a Cg program with Cg semantics on the CPU, as
//! RetroArch's GL + Cg runtime ran it, so that the GPU render of the translation can be
//! compared with what the original did.
//!
//! It interprets the typed IR **before** the porting passes (`translator::port`) and the
//! slang writer (`translator::back`), and resolves the Cg runtime's names (`IN`, `ORIG`,
//! `PASSk`, `PREVk`, `FEEDBACK`, aliases, LUTs, parameters, `modelViewProj`, vertex
//! attributes) itself from the runtime sheet ([`bind`]): it must never call or share the
//! translator's porting rules, or a broken rule would break both sides alike.
//!
//! - [`compile`]: IR to closures over a [`machine::Machine`] (4 lanes = one 2x2 quad,
//!   a batch of [`machine::QUADS`] quads per closure call).
//! - [`ops`]: scalar semantics of operators and conversions.
//! - [`hazard`]: the rules that mark what a GPU may compute differently.
//! - [`image`], [`sample`]: RGBA f32 images, storage formats, mip chains, sampling.
//! - [`inputs`], [`bind`]: what the runtime handed a pass, and which name gets what.
//! - [`pass`]: one pass (vertex quad, rasteriser, fragment quads).
//! - [`driver`]: a whole `.cgp` over several frames, scheduled by [`crate::plan`].
//! - [`memo`]: pass outputs reused across the presets of one run, by render key.
//! - [`png`]: PNG files.
//! - [`recall`]: recalled results of expensive library functions, per machine.
//! - [`source`]: a `.cg` text or file to both stage modules, as RetroArch compiled it.

pub mod bind;
pub mod compile;
pub mod driver;
pub mod hazard;
pub mod image;
pub mod inputs;
pub mod isa;
pub mod machine;
pub mod memo;
pub mod ops;
pub mod pass;
pub mod png;
pub mod recall;
pub mod sample;
pub mod source;

pub use driver::{as_stored, render_preset, render_preset_detailed, PassOutput, PresetOutput, PresetRender};
pub use image::{DeviceConversions, MipChain, RgbaF32Image, StorageFormat};
pub use inputs::{bound, PassInputs, RETROARCH_MVP};
pub use memo::{MemoStats, PassMemo};
pub use pass::{render_pass, PassProgram, Rendered};
pub use sample::{BoundTexture, SamplerState, WrapMode};
pub use source::{analyze_cg, analyze_cg_str};
