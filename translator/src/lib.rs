//! Semantic analysis of Cg, the typed IR, porting passes and the slang writer.
//!
//! **Invariant:** this crate knows nothing of naga, glslang, wgpu or images; it is pure
//! and deterministic: the same inputs give byte-identical outputs.

pub mod back;
pub mod codes;
pub mod ir;
pub mod port;
pub mod preset;
pub mod retro;
pub mod sema;
pub mod translate;
pub mod unported;
