//! One stage text to SPIR-V through glslang's C interface, called directly: parse,
//! link, generate, as RetroArch's `compile_spirv` does (`TShader::parse` on the text).
//!
//! The `glslang` crate's `Shader` first runs `TShader::preprocess` and then parses the
//! preprocessed text; `TShader::parse` preprocesses again on its own, so every stage
//! went through glslang's preprocessor and its per-compile symbol-table set-up twice
//! (8 % of `migrate`'s CPU). Here the text is handed to `glslang_shader_parse` as its
//! "preprocessed code" (the C interface parses whatever that string holds), so glslang
//! preprocesses once. The settings are the crate's as [`super::glslang`] chose them:
//! GLSL, Vulkan 1.0, SPIR-V 1.0, default version 100 with no forced profile, glslang's
//! default resource limits (the crate's [`glslang::limits::DEFAULT_LIMITS`]), messages
//! `Default | SpvRules | VulkanRules`, RetroArch's defines in the preamble, no includes.
//!
//! This is the crate's one module allowed `unsafe` code throughout: the calls of the C
//! interface (the only other `unsafe` calls are one proven call in
//! [`crate::chain::loop_bounds`] and one in [`crate::chain::pipeline_cache`]).
//! **Invariant:** every pointer handed to glslang outlives the call that reads it
//! (the text, preamble, input and limits live until the shader is deleted); every
//! object created is deleted exactly once, the program before its shader; a null
//! result is an error, never dereferenced. The process is initialised through the
//! `glslang` crate (`Compiler::acquire`), which finalises it.
#![allow(unsafe_code)]

use glslang_sys as sys;
use std::ffi::{c_char, CStr, CString};

/// Why a compile failed, with glslang's info log.
pub enum Failure {
    /// The text did not parse (or preprocess); the shader's log.
    Parse(String),
    /// Linking failed; the program's log.
    Link(String),
    /// glslang could not be initialised, or returned no object.
    Internal(String),
}

/// glslang's default resource limits, at a fixed address.
static LIMITS: glslang::limits::ResourceLimits = glslang::limits::DEFAULT_LIMITS;

/// Compiles `text` (no NUL inside) as a `stage` shader with `preamble` before it.
pub fn compile(text: &CStr, preamble: &CStr, stage: sys::glslang_stage_t) -> Result<Vec<u32>, Failure> {
    if glslang::Compiler::acquire().is_none() {
        return Err(Failure::Internal("glslang could not be initialised".into()));
    }
    let messages =
        sys::glslang_messages_t::DEFAULT | sys::glslang_messages_t::SPV_RULES | sys::glslang_messages_t::VULKAN_RULES;
    // `ResourceLimits` is `#[repr(transparent)]` over `glslang_resource_t`.
    let limits: *const glslang::limits::ResourceLimits = &LIMITS;
    let input = sys::glslang_input_t {
        language: sys::glslang_source_t::GLSL,
        stage,
        client: sys::glslang_client_t::Vulkan,
        client_version: sys::glslang_target_client_version_t::Vulkan1_0,
        target_language: sys::glslang_target_language_t::SPIRV,
        target_language_version: sys::glslang_target_language_version_t::SPIRV1_0,
        code: text.as_ptr(),
        default_version: 100,
        default_profile: sys::glslang_profile_t::None,
        force_default_version_and_profile: 0,
        forward_compatible: 0,
        messages,
        resource: limits.cast::<sys::glslang_resource_t>(),
        callbacks: sys::glsl_include_callbacks_t {
            include_system: None,
            include_local: None,
            free_include_result: None,
        },
        callbacks_ctx: std::ptr::null_mut(),
    };
    let shader = Shader::new(&input)?;
    // SAFETY: `shader` is live; glslang keeps the preamble pointer (not a copy) until
    // the shader is deleted, and `preamble` outlives `shader`; the code is copied.
    unsafe {
        sys::glslang_shader_set_preamble(shader.0, preamble.as_ptr());
        sys::glslang_shader_set_preprocessed_code(shader.0, text.as_ptr());
    }
    // SAFETY: `shader` and `input` (and what it points to) are live.
    if unsafe { sys::glslang_shader_parse(shader.0, &input) } == 0 {
        // SAFETY: `shader` is live.
        return Err(Failure::Parse(log(unsafe { sys::glslang_shader_get_info_log(shader.0) })));
    }
    let program = Program::new()?;
    // SAFETY: both are live, and `program` is dropped (deleted) before `shader`: it is
    // declared after it.
    unsafe { sys::glslang_program_add_shader(program.0, shader.0) };
    // SAFETY: `program` is live.
    if unsafe { sys::glslang_program_link(program.0, messages.0) } == 0 {
        // SAFETY: `program` is live.
        return Err(Failure::Link(log(unsafe { sys::glslang_program_get_info_log(program.0) })));
    }
    // SAFETY: `program` is live and linked, with a shader of `stage`; the buffer holds
    // the size glslang reports.
    let words = unsafe {
        sys::glslang_program_SPIRV_generate(program.0, stage);
        let size = sys::glslang_program_SPIRV_get_size(program.0);
        let mut words = vec![0u32; size];
        sys::glslang_program_SPIRV_get(program.0, words.as_mut_ptr());
        words
    };
    Ok(words)
}

/// The preamble RetroArch's defines make, as the `glslang` crate writes them.
pub fn preamble(defines: &[&str]) -> CString {
    let text: String = defines.iter().map(|d| format!("#define {d} \n")).collect();
    CString::new(text).unwrap_or_default()
}

fn log(ptr: *const c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: glslang's logs are NUL-terminated strings owned by the live object.
    unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned()
}

/// A `glslang_shader_t`, deleted on drop.
struct Shader(*mut sys::glslang_shader_t);

impl Shader {
    fn new(input: &sys::glslang_input_t) -> Result<Shader, Failure> {
        // SAFETY: `input` is a complete input whose code is a NUL-terminated string.
        let raw = unsafe { sys::glslang_shader_create(input) };
        if raw.is_null() {
            return Err(Failure::Internal("glslang created no shader".into()));
        }
        Ok(Shader(raw))
    }
}

impl Drop for Shader {
    fn drop(&mut self) {
        // SAFETY: created by `glslang_shader_create`, deleted once, here.
        unsafe { sys::glslang_shader_delete(self.0) }
    }
}

/// A `glslang_program_t`, deleted on drop.
struct Program(*mut sys::glslang_program_t);

impl Program {
    fn new() -> Result<Program, Failure> {
        // SAFETY: no arguments; a null result is checked.
        let raw = unsafe { sys::glslang_program_create() };
        if raw.is_null() {
            return Err(Failure::Internal("glslang created no program".into()));
        }
        Ok(Program(raw))
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: created by `glslang_program_create`, deleted once, here.
        unsafe { sys::glslang_program_delete(self.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glslang::{ShaderInput, ShaderSource, ShaderStage};

    const DEFINES: [&str; 2] = ["_HAS_ORIGINALASPECT_UNIFORMS", "_HAS_FRAMETIME_UNIFORMS"];

    /// The `glslang` crate's compile (preprocess, then parse the preprocessed text).
    fn through_the_crate(text: &str, stage: ShaderStage) -> Vec<u32> {
        let compiler = glslang::Compiler::acquire().unwrap_or_else(|| panic!("glslang initialises"));
        let source = ShaderSource::from(text);
        let options = crate::validate::glslang::crate_options();
        let defines: Vec<(&str, Option<&str>)> = DEFINES.iter().map(|d| (*d, None)).collect();
        let input = ShaderInput::new(&source, stage, &options, Some(&defines), None).unwrap_or_else(|e| panic!("{e}"));
        let shader = compiler.create_shader(input).unwrap_or_else(|e| panic!("{e}"));
        shader.compile().unwrap_or_else(|e| panic!("{e}"))
    }

    fn here(text: &str, stage: sys::glslang_stage_t) -> Result<Vec<u32>, Failure> {
        let code = CString::new(text).unwrap_or_else(|e| panic!("{e}"));
        compile(&code, &preamble(&DEFINES), stage)
    }

    #[test]
    fn the_spirv_is_the_crates_word_for_word() {
        let fragment = "#version 450
#define GAIN(x) ((x) * 1.5)
#ifdef _HAS_FRAMETIME_UNIFORMS
#define EXTRA 0.25
#endif
layout(push_constant) uniform Push { vec4 SourceSize; uint FrameCount; } params;
layout(set = 0, binding = 2) uniform sampler2D Source;
layout(location = 0) in vec2 vTexCoord;
layout(location = 0) out vec4 FragColor;
float f(float v) { return GAIN(v) + EXTRA; } // a comment
/* a block
   comment */
void main() { FragColor = texture(Source, vTexCoord) * f(float(params.FrameCount % 7u)); }
";
        let vertex = "#version 450
layout(std140, set = 0, binding = 0) uniform UBO { mat4 MVP; } global;
layout(location = 0) in vec4 Position;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec2 vTexCoord;
void main() { gl_Position = global.MVP * Position; vTexCoord = TexCoord; }
";
        let ours = |t, s| here(t, s).unwrap_or_else(|_| panic!("compiles"));
        assert_eq!(ours(fragment, sys::glslang_stage_t::Fragment), through_the_crate(fragment, ShaderStage::Fragment));
        assert_eq!(ours(vertex, sys::glslang_stage_t::Vertex), through_the_crate(vertex, ShaderStage::Vertex));
    }

    #[test]
    fn a_failed_parse_and_a_failed_link_come_back_with_their_logs() {
        match here("#version 450\nvoid main() { x = 1; }\n", sys::glslang_stage_t::Fragment) {
            Err(Failure::Parse(log)) => assert!(log.contains("0:2: 'x'"), "{log}"),
            _ => panic!("a parse failure"),
        }
        match here("#version 450\nvoid f() {}\n", sys::glslang_stage_t::Fragment) {
            Err(Failure::Link(log)) => assert!(log.contains("Missing entry point"), "{log}"),
            _ => panic!("a link failure"),
        }
    }

    #[test]
    fn the_preamble_holds_each_define_on_a_line() {
        assert_eq!(
            preamble(&DEFINES).to_str().ok(),
            Some("#define _HAS_ORIGINALASPECT_UNIFORMS \n#define _HAS_FRAMETIME_UNIFORMS \n")
        );
    }
}
