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
/// `--param NAME=VALUE` names a parameter no pass of the preset declares.
pub const E_CHAIN_UNKNOWN_PARAMETER: &str = "E0710";
/// `render --timings` on a device that cannot write timestamps in render passes.
pub const E_CHAIN_NO_TIMESTAMPS: &str = "E0711";

// ---- CPU reference renderer (`E08xx`/`W08xx`) ----
/// The module handed to the reference renderer has no entry point, or a pass lacks one
/// of its two stages (sema failed on it).
pub const E_REF_NO_ENTRY: &str = "E0801";
/// An IR construct the reference interpreter cannot run (named in the message).
pub const E_REF_UNSUPPORTED: &str = "E0802";
/// A user function calls itself, directly or through others (Cg forbids recursion).
pub const E_REF_RECURSION: &str = "E0803";
/// A loop ran more iterations than the interpreter's cap (a hang on the GPU too).
pub const E_REF_LOOP_CAP: &str = "E0804";
/// A call to a function that was declared but never defined.
pub const E_REF_UNDEFINED_FUNCTION: &str = "E0805";
/// The pass inputs do not fit the program (a texture role the caller did not provide,
/// a zero-sized image, a preset the driver cannot schedule).
pub const E_REF_INPUT: &str = "E0806";
/// Reading an image or a LUT failed.
pub const E_REF_IMAGE: &str = "E0807";
/// Compiling or analysing a pass of a preset failed (parse or sema errors).
pub const E_REF_COMPILE: &str = "E0808";
/// A comparison whose pass outputs and viewport hold more pixels than `compare::MAX_COMPARE_PIXELS`.
pub const E_COMPARE_PIXEL_BUDGET: &str = "E0809";
/// A uniform the Cg runtime never set: it keeps its initialiser, or 0.
pub const W_REF_UNBOUND_UNIFORM: &str = "W0801";
/// A sampler the Cg runtime never bound by name: it reads texture unit 0 (the pass input).
pub const W_REF_UNBOUND_SAMPLER: &str = "W0802";
/// A fragment input no vertex output feeds: it reads 0.
pub const W_REF_UNFED_VARYING: &str = "W0803";
