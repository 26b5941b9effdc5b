//! Stable diagnostic codes of the translator (E03xx/W03xx: semantic analysis).
//!
//! A code never changes meaning once released. Constants only.

/// A name that is not declared.
pub const E_UNDECLARED: &str = "E0301";
/// A type name that is not declared or malformed.
pub const E_UNKNOWN_TYPE: &str = "E0302";
/// A value that cannot be converted to the required type (even with a cast).
pub const E_TYPE_MISMATCH: &str = "E0303";
/// A conversion that needs an explicit cast.
pub const E_NEEDS_CAST: &str = "E0304";
/// No overload matches the arguments.
pub const E_NO_OVERLOAD: &str = "E0305";
/// More than one overload matches equally well.
pub const E_AMBIGUOUS_OVERLOAD: &str = "E0306";
/// An operator applied to operands it does not accept.
pub const E_BAD_OPERANDS: &str = "E0307";
/// A swizzle, matrix swizzle or field that does not exist.
pub const E_BAD_MEMBER: &str = "E0308";
/// An assignment target that is not an lvalue, or a write mask repeating a component.
pub const E_NOT_LVALUE: &str = "E0309";
/// A name declared twice in one scope.
pub const E_REDECLARED: &str = "E0310";
/// An expression that must be a compile-time constant and is not.
pub const E_NOT_CONSTANT: &str = "E0311";
/// Wrong number of constructor components or initialiser elements.
pub const E_BAD_CONSTRUCTOR: &str = "E0312";
/// `break`/`continue` outside a loop or switch, `return` with the wrong value, `case` outside switch.
pub const E_BAD_CONTROL_FLOW: &str = "E0313";
/// The requested entry point does not exist or is not a function.
pub const E_NO_ENTRY_POINT: &str = "E0314";
/// A construct the entry point's profile does not allow (e.g. `ddx` in a vertex program).
pub const E_PROFILE: &str = "E0315";
/// Calling something that is not a function; wrong argument for an `out` parameter.
pub const E_BAD_CALL: &str = "E0316";
/// An interface method not implemented, or a struct deriving from a non-interface.
pub const E_BAD_INTERFACE: &str = "E0317";
/// Recursion (Cg forbids it).
pub const E_RECURSION: &str = "E0318";
/// A declaration that is not allowed where it is (e.g. a sampler local variable).
pub const E_BAD_DECLARATION: &str = "E0319";
/// An array of more scalar components than any Cg profile allowed (`sema::types::MAX_ARRAY_COMPONENTS`).
pub const E_ARRAY_TOO_LARGE: &str = "E0320";
/// A stage that calls more functions than `sema::limits::MAX_STAGE_FUNCTIONS`.
pub const E_TOO_MANY_FUNCTIONS: &str = "E0321";

// Cg 3.x program domains and effect files (E033x), numbered apart from the E03xx list
// above so that codes added there meanwhile never collide.
/// Primitive or patch modifiers (`TRIANGLE`, `LINE_OUT`, `PATCH_3`, `QUADS`) that conflict,
/// that the entry point's profile does not take or lacks, or written on a non-function.
pub const E_PROGRAM_MODIFIER: &str = "E0330";
/// Geometry-program syntax misused: `AttribArray<T>` outside the parameters of a program
/// with a primitive or patch modifier or with a wrong argument, `value : SEMANTIC`
/// outside `emitVertex`, `emitVertex`/`restartStrip` used as a value or with bad arguments.
pub const E_GEOMETRY_SYNTAX: &str = "E0331";
/// CgFX effect constructs misused: a `compile` expression outside a pass state or a
/// state-object initialiser, an unknown profile, a missing function, a program of the
/// wrong domain for its state (`VertexProgram = compile fp40 f()`).
pub const E_EFFECT: &str = "E0332";

/// An implicit conversion that loses components (vector/matrix truncation, vector to scalar).
pub const W_TRUNCATION: &str = "W0301";
/// An implicit conversion between a vector and a matrix of the same size.
pub const W_RESHAPE: &str = "W0302";
/// An implicit conversion that may lose precision (e.g. float to int).
pub const W_PRECISION: &str = "W0303";
/// A qualifier that is ignored where it is written.
pub const W_IGNORED_QUALIFIER: &str = "W0304";
/// A variable declared but used before any assignment (Cg allows it; the value is undefined).
pub const W_UNINITIALIZED: &str = "W0305";
/// A GLSL built-in (`fract`, `mix`, `mod`, `texelFetchOffset`) called from Cg: NVIDIA's
/// compiler accepted it; translated with its GLSL meaning.
pub const W_GLSL_BUILTIN: &str = "W0306";
/// A program past a limit of the profile RetroArch compiled it with on most GPUs (glslv
/// rejects a vertex output `TEXCOORD8`), within what another profile it used (gp4/gp5,
/// on NVIDIA GPUs) accepted.
pub const W_PROFILE_LIMIT: &str = "W0307";
/// A standard-library call whose meaning depends on the profile family RetroArch compiled
/// it with: the overload chosen is declared only in the GLSL profiles or only in gp4/gp5
/// (NVIDIA), and the other family resolved the call to another overload or rejected it
/// (`sema::families`).
pub const W_PROFILE_FAMILY: &str = "W0308";

// ---- porting (E04xx / W04xx) ----
/// A Cg name the RetroArch runtime would not have bound in this pass (PASSPREV in pass 0, an unknown sampler, ...).
pub const E_UNBOUND_NAME: &str = "E0401";
/// A Cg construct the slang output cannot express (yet), e.g. a texture struct passed whole.
pub const E_UNSUPPORTED: &str = "E0402";
/// Varyings that do not link: a fragment input no vertex output provides, types that differ.
pub const E_VARYING: &str = "E0403";
/// More uniforms than a push block and a UBO can hold, or a parameter declared twice differently.
pub const E_UNIFORMS: &str = "E0404";
/// A `#pragma parameter` whose initial, minimum, maximum or step is not a finite number
/// (`nan`, `inf`): the line is not copied into the output.
pub const E_PARAMETER_NOT_FINITE: &str = "E0405";
/// The writer met IR it has no spelling for (a type without a GLSL name, a struct,
/// local, global, field or varying slot without a name): an internal error, reported
/// instead of printing an empty name.
pub const E_WRITER_INTERNAL: &str = "E0406";
/// A porting pass left a stage's IR ill-formed (the IR validator, run after every
/// rewrite in debug builds and tests): an internal error naming the pass.
pub const E_PORT_INVALID_IR: &str = "E0407";
/// A sampler without a TEXUNIT semantic taken as the pass input.
pub const W_ASSUMED_SOURCE: &str = "W0401";
/// A uniform the runtime never set, emitted as a constant with its initial value.
pub const W_UNBOUND_UNIFORM: &str = "W0402";
/// A fragment input that no vertex output writes (undefined in Cg; zero in the output).
pub const W_UNLINKED_VARYING: &str = "W0403";
/// `FEEDBACK` read without a `feedback_pass`: RetroArch's Cg runtime bound `ORIG`.
pub const W_FEEDBACK_IS_ORIGINAL: &str = "W0405";
/// Reading the fragment position (WPOS/VPOS): GL framebuffers were bottom-up, slang's are top-down.
pub const W_FRAG_COORD: &str = "W0404";
/// The pass's vertex or fragment entry is a geometry or tessellation program: slang
/// passes have only vertex and fragment stages.
pub const E_NO_SLANG_STAGE: &str = "E0430";
/// A geometry or tessellation program in the file is not translated (slang has no such
/// stage); the vertex and fragment entries still are.
pub const W_STAGE_NOT_TRANSLATED: &str = "W0430";
/// A CgFX technique or state object (`VertexShader vs = compile ...`) is not translated:
/// a slang pass is its vertex and fragment entries, with render state in the preset.
pub const W_EFFECT_NOT_TRANSLATED: &str = "W0431";

// ---- presets: .cgp / .slangp (E05xx / W05xx) ----
// Errors only where RetroArch's own loader fails too; everything else is a warning and
// loading goes on.
/// A preset file (the loaded one or one named by `#reference`) cannot be read.
pub const E_PRESET_IO: &str = "E0501";
/// `shaders` is missing, unparsable or zero (RetroArch: "Need to define at least 1 shader").
pub const E_PRESET_NO_PASSES: &str = "E0502";
/// An absurd pass count: `shaders` above 26 in a `.cgp` (Cg-era GFX_MAX_SHADERS), above 64 in a `.slangp`.
pub const E_PRESET_PASS_COUNT: &str = "E0503";
/// A pass below `shaders` without a `shaderN` path (RetroArch: "Couldn't parse shader source").
pub const E_PRESET_MISSING_SHADER: &str = "E0504";
/// A texture listed in `textures` without a path (RetroArch: "Cannot find path to texture").
pub const E_PRESET_MISSING_TEXTURE: &str = "E0505";
/// `#reference` presets that reference each other in a cycle.
pub const E_PRESET_REFERENCE_CYCLE: &str = "E0506";
/// A `#reference` chain longer than 16 links.
pub const E_PRESET_REFERENCE_DEPTH: &str = "E0507";
/// A scale type other than `source`, `viewport` or `absolute` (RetroArch: "Invalid attribute").
pub const E_PRESET_SCALE_TYPE: &str = "E0508";
/// A second `#reference` whose chain ends at a full preset (one with `shaders`).
pub const E_PRESET_EXTRA_REFERENCE: &str = "E0509";
/// A line that is not `key = value` (no `=`, or no space before `=`): ignored, as RetroArch does.
pub const W_PRESET_SYNTAX: &str = "W0501";
/// Text after a value (an unquoted value with spaces, words after the closing quote): ignored.
pub const W_PRESET_TRAILING: &str = "W0502";
/// A key no loader reads (a typo such as `scale_1`, a librashader-only key): ignored.
pub const W_PRESET_UNKNOWN_KEY: &str = "W0503";
/// A value that is not a valid boolean, number or wrap mode; read as RetroArch reads it or ignored.
pub const W_PRESET_BAD_VALUE: &str = "W0504";
/// A per-pass key whose index is not below `shaders`: ignored.
pub const W_PRESET_PASS_INDEX: &str = "W0505";
/// A key given twice in one file: RetroArch keeps the first.
pub const W_PRESET_DUPLICATE: &str = "W0506";
/// Scale keys RetroArch ignores: factors of a pass with no `scale_type*` (the pass is source
/// x1), per-axis types under `scale_typeN`, per-axis factors under `scaleN`.
pub const W_PRESET_SCALE_IGNORED: &str = "W0507";
/// A parameter value outside the `parameters` list, or a listed parameter with no value.
pub const W_PRESET_PARAMETER: &str = "W0508";
/// A byte-order mark at the start of the file: stripped.
pub const W_PRESET_BOM: &str = "W0509";
/// A `#` directive that is not followed (`#include`, an indented or empty `#reference`).
pub const W_PRESET_DIRECTIVE: &str = "W0510";
/// A key of a referencing preset that RetroArch does not apply (only parameters and texture paths are).
pub const W_PRESET_NOT_OVERRIDABLE: &str = "W0511";
/// A quoted value whose closing quote is missing: read to the end of the line.
pub const W_PRESET_UNTERMINATED: &str = "W0512";
/// migrate: a pass of the preset did not translate, so the preset is not emitted.
pub const E_PRESET_PASS_FAILED: &str = "E0510";
/// A pass shader or LUT the preset names does not exist or cannot be read (a directory, a
/// device or an oversized file has E0121/E0122 instead), reported at the preset line.
pub const E_PRESET_FILE_UNREADABLE: &str = "E0511";
/// A scale factor that is not a finite number above 0 (`scale0 = nan`, `-1`, `0`, `-inf`).
pub const E_PRESET_BAD_SCALE: &str = "E0512";
/// A pass shader without the dialect's extension (`.cg` in a `.cgp`, `.slang` in a `.slangp`): not read.
pub const E_PRESET_SHADER_KIND: &str = "E0513";
/// An alias that is not a Cg identifier of at most 63 bytes (it names a texture and a `<alias>_ALIAS` define).
pub const E_PRESET_BAD_ALIAS: &str = "E0514";
/// migrate: a file the preset uses lies outside the source tree; its output goes under `_external/`.
pub const W_OUTSIDE_TREE: &str = "W0513";
/// migrate: a value holds a `"` or a line break, which a `.slangp` cannot quote: the
/// written file reads it differently.
pub const W_PRESET_UNREPRESENTABLE: &str = "W0514";
/// migrate (a note): `scale_typeN = "source"` written for a pass without a scale type, so
/// that the slang runtime honours its float/sRGB framebuffer flag as the Cg runtime did.
pub const N_PRESET_EXPLICIT_SCALE: &str = "N0501";
/// migrate (a note): `srgb_framebufferN` not written: the pass also sets
/// `float_framebufferN`, which the Cg runtime gave it (the slang runtime would give sRGB).
pub const N_PRESET_SRGB_BEATEN: &str = "N0502";
/// migrate (a note): `feedback_pass` not written: the translation names the texture
/// `PassFeedbackN`.
pub const N_PRESET_FEEDBACK_PASS: &str = "N0503";
