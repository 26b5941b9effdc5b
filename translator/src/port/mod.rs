//! The porting passes: each decides one aspect of how Cg becomes slang, as data the
//! writer ([`crate::back::slang`]) consumes. In pipeline order:
//!
//! 1. [`semantics`]: RetroArch names (IN, ORIG, PASSk, modelViewProj, TEXUNIT0, LUTs,
//!    parameters) to slang semantics, given the pass's preset context.
//! 2. [`texture_args`]: global copies of texture structs (`IN_global = IN;`) become
//!    names of them; texture structs passed whole to helper functions become one
//!    parameter per member read (an IR rewrite of the stage).
//!    Then [`written_uniforms`]: uniforms and runtime values the program assigns
//!    become locals of the entry point initialised from them (an IR rewrite of the
//!    stage; after the global copies, which are names, not writes).
//! 3. [`odd_matrices`]: matrices GLSL has no type for (`float1x3`, `float4x1`,
//!    `bool3x3`) become vectors or arrays of rows (an IR rewrite of the stage).
//!    Then [`vertex_derivatives`]: in a vertex stage, derivatives become zero (an IR
//!    rewrite of the stage).
//! 4. [`connectors`]: connector flattening, varyings and their locations.
//! 5. [`matrix`]: the matrix convention (Cg row-major meaning onto GLSL).
//! 6. [`stdlib`]: the standard library onto GLSL with Cg's semantics.
//! 7. [`uniforms`]: used semantics and parameters into a push block and a UBO.
//! 8. [`names`]: GLSL-legal, collision-free names.

pub mod connectors;
pub mod dialect;
pub mod eager_logic;
pub mod matrix;
pub mod naga_dialect;
pub mod names;
pub mod odd_matrices;
pub mod pipeline;
pub mod runtime_values;
pub mod semantics;
pub mod stdlib;
pub mod texture_args;
pub mod uniforms;
pub mod vertex_derivatives;
pub mod written_uniforms;

pub use pipeline::{bind, for_dialect, run, run_bound, BoundStages, PortedStages};
