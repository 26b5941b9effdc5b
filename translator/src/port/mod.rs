//! The porting passes: each decides one aspect of how Cg becomes slang, as data the
//! writer ([`crate::back::slang`]) consumes. In pipeline order:
//!
//! 1. [`semantics`]: RetroArch names (IN, ORIG, PASSk, modelViewProj, TEXUNIT0, LUTs,
//!    parameters) to slang semantics, given the pass's preset context.
//! 2. [`connectors`]: connector flattening, varyings and their locations.
//! 3. [`matrix`]: the matrix convention (Cg row-major meaning onto GLSL).
//! 4. [`stdlib`]: the standard library onto GLSL with Cg's semantics.
//! 5. [`uniforms`]: used semantics and parameters into a push block and a UBO.
//! 6. [`names`]: GLSL-legal, collision-free names.

pub mod connectors;
pub mod matrix;
pub mod names;
pub mod semantics;
pub mod stdlib;
pub mod uniforms;
