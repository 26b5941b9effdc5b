//! Runtime checks of translated shaders: validation with naga and glslang, a headless
//! wgpu filter chain, and a CPU reference renderer of the Cg original.
//!
//! **Invariant:** this is the only crate that touches naga, glslang, wgpu and PNG files.
