//! Compiling one stage text to SPIR-V with glslang, as RetroArch does.
//!
//! Settings are RetroArch's (`deps/glslang/glslang.cpp` `compile_spirv`): GLSL source,
//! Vulkan 1.0 client, SPIR-V 1.0, default resource limits, messages
//! `Default | SpvRules | VulkanRules`, no optimisation. RetroArch also injects
//! `_HAS_ORIGINALASPECT_UNIFORMS`, `_HAS_FRAMETIME_UNIFORMS` and `_HAS_SENSOR_UNIFORMS`
//! defines after `#version`; here they go into glslang's preamble, which keeps the line
//! numbers of the stage text (RetroArch uses `#line` directives for the same purpose).
//!
//! glslang's info log is parsed into [`Message`]s carrying the stage line, so the
//! caller can map them to the user's source. Each distinct stage text is compiled once
//! per process (a bounded memo; glslang is deterministic), and its SPIR-V is kept
//! across processes in the user's cache directory ([`super::spirv_cache`]). The call is isolated like naga's (see
//! [`super::naga::isolate`]): the Rust bindings `expect` on some impossible-looking
//! states, and a panic there must not take the CLI down.

use super::glslang_ffi;
use super::memo::StageMemo;
use super::stages::StageSource;
use super::{Issue, Stage};
use crate::codes;
use glslang::{
    CompilerOptions, ShaderInput, ShaderMessage, ShaderSource, ShaderStage, SourceLanguage, SpirvVersion, Target,
    VulkanVersion,
};
use grammar::Severity;
use std::sync::LazyLock;

/// The defines RetroArch adds to every slang file.
pub const RETROARCH_DEFINES: [&str; 3] =
    ["_HAS_ORIGINALASPECT_UNIFORMS", "_HAS_FRAMETIME_UNIFORMS", "_HAS_SENSOR_UNIFORMS"];

/// One line of glslang's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub severity: Severity,
    /// 1-based line of the stage text, when glslang gave one.
    pub line: Option<u32>,
    pub text: String,
    /// True when the failure is the tool's own, not the shader's.
    pub internal: bool,
}

impl Message {
    fn internal(text: impl Into<String>) -> Message {
        Message { severity: Severity::Error, line: None, text: text.into(), internal: true }
    }

    /// The issue for this message, placed through the stage's origins.
    pub fn into_issue(self, stage: Stage, source: &StageSource) -> Issue {
        let place = self.line.and_then(|l| source.place(l));
        if self.internal {
            return Issue::error(
                codes::E_VALIDATOR_INTERNAL,
                format!("glslang failed on the {stage} stage: {}", self.text),
                place,
                "",
            );
        }
        let mut issue = Issue::error(codes::E_GLSLANG, format!("glslang ({stage} stage): {}", self.text), place, "");
        issue.severity = self.severity;
        issue
    }
}

/// Compiles one stage text (as built by [`super::split_stages`]) to SPIR-V words.
///
/// glslang is deterministic, so each distinct (stage, text) is compiled once per
/// process and its outcome remembered ([`super::memo`]): a library repeats stage texts (stock
/// vertex stages, a shader validated in several preset contexts, `migrate --compare`
/// compiling again what validation compiled). Across processes a success is kept on
/// disk ([`super::spirv_cache`]) unless the user turns that off.
pub fn compile(text: &str, stage: Stage) -> Outcome {
    MEMO.get_or_compute(
        stage,
        text,
        || match super::spirv_cache::load(text, stage) {
            Some(words) => Ok(words),
            None => {
                let result = compile_uncached(text, stage);
                if let Ok(words) = &result {
                    super::spirv_cache::store(text, stage, words);
                }
                result
            }
        },
        |result| text.len() + result.as_ref().map_or(256, |w| w.len() * 4),
    )
}

/// Builds glslang's built-in symbol tables of both stages now. Its first compile of a
/// stage builds them under a process-wide lock, stalling every other compile meanwhile;
/// a caller runs this on a thread of its own while it does work that needs no glslang.
pub fn warm_up() {
    for stage in [Stage::Vertex, Stage::Fragment] {
        let _ = compile_uncached("#version 450\nvoid main() {}\n", stage);
    }
}

/// What [`compile`] returns.
type Outcome = Result<Vec<u32>, Vec<Message>>;

/// Outcomes of earlier compilations by (stage, text): up to 64 MiB of text and SPIR-V.
static MEMO: LazyLock<StageMemo<String, Outcome>> = LazyLock::new(|| StageMemo::new(64 << 20));

fn compile_uncached(text: &str, stage: Stage) -> Result<Vec<u32>, Vec<Message>> {
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() as u32 + 1;
        return Err(vec![Message {
            severity: Severity::Error,
            line: Some(line),
            text: "the text contains a NUL character".into(),
            internal: false,
        }]);
    }
    match super::naga::isolate(|| compile_unisolated(text, stage)) {
        Ok(result) => result,
        Err(panic) => Err(vec![Message::internal(format!("the glslang bindings panicked: {panic}"))]),
    }
}

/// RetroArch's settings in the `glslang` crate's terms (its `#version` checks use them;
/// [`super::glslang_ffi`] passes the same to glslang's C interface).
pub(super) fn crate_options() -> CompilerOptions {
    CompilerOptions {
        source_language: SourceLanguage::GLSL,
        target: Target::Vulkan { version: VulkanVersion::Vulkan1_0, spirv_version: SpirvVersion::SPIRV1_0 },
        version_profile: None,
        messages: ShaderMessage::DEFAULT | ShaderMessage::SPV_RULES | ShaderMessage::VULKAN_RULES,
    }
}

fn compile_unisolated(text: &str, stage: Stage) -> Result<Vec<u32>, Vec<Message>> {
    let source = ShaderSource::from(text);
    let options = crate_options();
    let shader_stage = match stage {
        Stage::Vertex => ShaderStage::Vertex,
        Stage::Fragment => ShaderStage::Fragment,
    };
    let defines: Vec<(&str, Option<&str>)> = RETROARCH_DEFINES.iter().map(|d| (*d, None)).collect();
    let input = match ShaderInput::new(&source, shader_stage, &options, Some(&defines), None) {
        Ok(input) => input,
        Err(e) => {
            return Err(vec![Message {
                severity: Severity::Error,
                line: Some(1),
                text: e.to_string(),
                internal: false,
            }])
        }
    };
    // The crate's checks of the `#version` line stay (`ShaderInput::new` above); the
    // compile itself preprocesses once (see `glslang_ffi`).
    drop(input);
    let stage = match stage {
        Stage::Vertex => glslang_sys::glslang_stage_t::Vertex,
        Stage::Fragment => glslang_sys::glslang_stage_t::Fragment,
    };
    let Ok(code) = std::ffi::CString::new(text) else {
        return Err(vec![Message::internal("the text contains a NUL character")]);
    };
    glslang_ffi::compile(&code, &PREAMBLE, stage).map_err(|f| match f {
        glslang_ffi::Failure::Parse(log) => from_log(&log, "parsing"),
        glslang_ffi::Failure::Link(log) => from_log(&log, "linking"),
        glslang_ffi::Failure::Internal(text) => vec![Message::internal(text)],
    })
}

/// RetroArch's defines as glslang's preamble.
static PREAMBLE: LazyLock<std::ffi::CString> = LazyLock::new(|| glslang_ffi::preamble(&RETROARCH_DEFINES));

/// The messages of a failed compile's log; `what` failed (parse, link) when the log
/// names no error.
fn from_log(log: &str, what: &str) -> Vec<Message> {
    let mut out = parse_log(log);
    if !out.iter().any(|m| m.severity == Severity::Error) {
        let text = log.trim();
        out.push(Message {
            severity: Severity::Error,
            line: None,
            text: if text.is_empty() { format!("{what} failed, and glslang gave no log") } else { text.to_owned() },
            internal: false,
        });
    }
    out
}

/// Parses glslang's info log: `ERROR: 0:12: 'x' : undeclared identifier`, `WARNING: ...`.
/// The summary lines (`N compilation errors.  No code generated.`) are dropped.
pub fn parse_log(log: &str) -> Vec<Message> {
    let mut out = Vec::new();
    for raw in log.lines() {
        let (severity, rest) = if let Some(r) = raw.strip_prefix("ERROR: ") {
            (Severity::Error, r)
        } else if let Some(r) = raw.strip_prefix("WARNING: ") {
            (Severity::Warning, r)
        } else {
            continue;
        };
        if rest.contains("compilation errors.")
            || rest.contains("compilation warnings.")
            || rest.trim_end().ends_with("'' : compilation terminated")
        {
            continue;
        }
        // `<string>:<line>: message`; the string part may be a number or a file name.
        let located = rest.split_once(": ").and_then(|(loc, msg)| {
            let (_, line) = loc.rsplit_once(':')?;
            Some((line.trim().parse::<u32>().ok()?, msg))
        });
        match located {
            Some((line, msg)) => out.push(Message { severity, line: Some(line), text: tidy(msg), internal: false }),
            None => out.push(Message { severity, line: None, text: tidy(rest), internal: false }),
        }
    }
    // glslang only warns here about things RetroArch ignores; keep errors only.
    out.retain(|m| m.severity == Severity::Error);
    out
}

/// `'x' : undeclared identifier` -> `` `x`: undeclared identifier ``.
fn tidy(msg: &str) -> String {
    let msg = msg.trim();
    if let Some(rest) = msg.strip_prefix('\'') {
        if let Some((token, tail)) = rest.split_once("' : ") {
            return format!("`{token}`: {}", tail.trim());
        }
    }
    msg.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const VS: &str = "#version 450\nlayout(location = 0) in vec4 Position;\nvoid main() { gl_Position = Position; }\n";

    #[test]
    fn compiles_a_valid_stage() {
        let words = compile(VS, Stage::Vertex).expect("compiles");
        assert_eq!(words[0], 0x0723_0203);
    }

    #[test]
    fn errors_carry_the_stage_line() {
        let text = "#version 450\n\nvoid main()\n{\n    gl_Position = vec4(undefined_thing);\n}\n";
        let errors = compile(text, Stage::Vertex).expect_err("fails");
        assert_eq!(errors[0].line, Some(5), "{errors:?}");
        assert!(errors[0].text.contains("undefined_thing"), "{errors:?}");
    }

    #[test]
    fn retroarch_defines_are_visible_and_lines_kept() {
        let text = "#version 450\n#ifndef _HAS_FRAMETIME_UNIFORMS\n#error no define\n#endif\nvoid main() { gl_Position = vec4(x); }\n";
        let errors = compile(text, Stage::Vertex).expect_err("fails");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, Some(5));
    }

    #[test]
    fn parses_log_lines() {
        let log = "ERROR: 0:7: 'foo' : undeclared identifier \nERROR: 0:7: '' : compilation terminated \nERROR: 2 compilation errors.  No code generated.\n\n";
        let m = parse_log(log);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].line, Some(7));
        assert_eq!(m[0].text, "`foo`: undeclared identifier");
        let m = parse_log("ERROR: Linking vertex stage: Missing entry point: Each stage requires one entry point\n");
        assert_eq!(m[0].line, None);
    }

    #[test]
    fn nul_bytes_are_refused_not_panicked_on() {
        let errors = compile("#version 450\nvoid main() {}\0\n", Stage::Vertex).expect_err("fails");
        assert_eq!(errors[0].line, Some(2));
    }
}
