//! Stable diagnostic codes of runtime-check (`E06xx`/`W06xx`: validation of emitted slang).
//!
//! A code never changes meaning once released: tests, reports and users' scripts match
//! on it. Each interface rule of RetroArch's slang loader has its own code, so a report
//! can count failures by rule. Constants only.

// ---- glslang and the file format ----
/// glslang rejected a stage (syntax, types, anything its front end or linker reports).
pub const E_GLSLANG: &str = "E0601";
/// The first line of the file is not `#version ...` (RetroArch refuses the file).
pub const E_NO_VERSION: &str = "E0602";
/// An `#include` that is malformed, cannot be read, or includes itself.
pub const E_INCLUDE: &str = "E0603";
/// A `#pragma parameter` line RetroArch cannot parse.
pub const E_BAD_PARAMETER: &str = "E0604";
/// The same parameter declared twice with different arguments.
pub const E_PARAMETER_MISMATCH: &str = "E0605";
/// `#pragma name` given twice.
pub const E_NAME_TWICE: &str = "E0606";
/// `#pragma format` names no format RetroArch knows.
pub const E_UNKNOWN_FORMAT: &str = "E0607";
/// `#pragma format` given twice.
pub const E_FORMAT_TWICE: &str = "E0608";

// ---- slang interface rules (checked on the SPIR-V) ----
/// The vertex stage does not have exactly two inputs at locations 0 and 1.
pub const E_VERTEX_INPUTS: &str = "E0610";
/// The fragment stage does not have exactly one output, at location 0.
pub const E_FRAGMENT_OUTPUTS: &str = "E0611";
/// A resource in a descriptor set other than 0.
pub const E_DESCRIPTOR_SET: &str = "E0612";
/// More than one uniform buffer, or more than one push-constant block, in one stage.
pub const E_TOO_MANY_BLOCKS: &str = "E0613";
/// The vertex and fragment uniform buffers have different bindings.
pub const E_UBO_BINDING_MISMATCH: &str = "E0614";
/// The push-constant block is larger than 128 bytes.
pub const E_PUSH_TOO_LARGE: &str = "E0615";
/// A binding of 16 or more.
pub const E_BINDING_RANGE: &str = "E0616";
/// Two resources share a binding.
pub const E_BINDING_TWICE: &str = "E0617";
/// A sampler declared in the vertex stage.
pub const E_VERTEX_SAMPLER: &str = "E0618";
/// A resource kind RetroArch does not bind (storage buffer or image, subpass input,
/// atomic counter, separate texture or sampler object).
pub const E_RESOURCE_KIND: &str = "E0619";
/// A used uniform/push member that is no known semantic, texture size or parameter.
pub const E_UNKNOWN_SEMANTIC: &str = "E0620";
/// A uniform/push member whose type is wrong for its semantic.
pub const E_SEMANTIC_TYPE: &str = "E0621";
/// The same semantic at different offsets in the vertex and fragment stages.
pub const E_OFFSET_MISMATCH: &str = "E0622";
/// `PassOutputN` (sampler or size) with N not below the current pass.
pub const E_NON_CAUSAL: &str = "E0623";
/// A texture semantic index above RetroArch's bound (history, feedback, LUT).
pub const E_SEMANTIC_INDEX: &str = "E0624";
/// A sampler whose name is no texture semantic, pass alias or LUT.
pub const E_UNKNOWN_TEXTURE: &str = "E0625";

// ---- naga ----
/// naga's GLSL front end rejected a stage.
pub const E_NAGA_PARSE: &str = "E0626";
/// naga's validator rejected the module the front end produced.
pub const E_NAGA_VALIDATION: &str = "E0627";
/// naga panicked on the stage (isolated; a naga bug, reported as a diagnostic).
pub const E_NAGA_PANIC: &str = "E0628";

// ---- the tools themselves ----
/// glslang could not be started, panicked, or produced SPIR-V that cannot be read.
pub const E_VALIDATOR_INTERNAL: &str = "E0629";

// ---- warnings ----
/// A `#pragma stage` line that is neither exactly `#pragma stage vertex` nor
/// `#pragma stage fragment` (RetroArch then drops the lines after it from both stages).
pub const W_ODD_STAGE_PRAGMA: &str = "W0601";
/// The file has no `#pragma stage vertex` or no `#pragma stage fragment`.
pub const W_MISSING_STAGE: &str = "W0602";

// ---- the filter chain (E07xx) ----
/// The chain cannot be planned: no pass, or an empty input or viewport size.
pub const E_CHAIN_PLAN: &str = "E0701";
/// A pass reads a pass output, feedback, history or LUT that does not exist or is not
/// drawn before it.
pub const E_CHAIN_PASS_INDEX: &str = "E0702";
/// A pass reads the feedback of the last pass, which draws straight to the viewport.
pub const E_CHAIN_FINAL_FEEDBACK: &str = "E0703";
/// No usable GPU adapter (install `mesa-vulkan-drivers` for lavapipe).
pub const E_CHAIN_NO_ADAPTER: &str = "E0704";
/// wgpu rejected something the chain asked of it (a shader module, a pipeline, a draw).
pub const E_CHAIN_GPU: &str = "E0705";
/// A pass's shader declares a texture or uniform the chain cannot bind (no slang
/// semantic, pass output, alias or LUT of that name; a type the semantic cannot have).
pub const E_CHAIN_BINDING: &str = "E0706";
/// An image (input frame, LUT) cannot be read or decoded, or an output cannot be written.
pub const E_CHAIN_IMAGE: &str = "E0707";
/// A shader of a preset cannot be turned into a naga module (file, glslang, SPIR-V, naga).
pub const E_CHAIN_SHADER: &str = "E0708";
/// A preset cannot be loaded for rendering, or a parameter value is malformed.
pub const E_CHAIN_PRESET: &str = "E0709";
