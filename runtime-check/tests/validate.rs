//! Broken emitted texts must fail the right check, with the right code, at the right
//! place in the user's Cg source; a valid text must pass everything.
//!
//! Each case edits one thing in a valid pass modelled on the translator's output. The
//! fake line map maps every line after the first `#pragma stage` to the same line of a
//! fake Cg file (whose text is the slang text itself), so "Cg line N" below is slang
//! line N; lines before it have no Cg origin, as in the translator.

mod support;

use grammar::{Diagnostic, SourceMap, Span};
use runtime_check::codes;
use runtime_check::validate::{
    validate, validate_naga, NagaStage, Place, Stage, Status, ValidationContext, ValidationResult,
};

const VALID: &str = concat!(
    r#"#version 450

// A header comment, as the translator keeps it.

#pragma parameter GAMMA "Gamma" 2.2 1.0 3.0 0.1

layout(push_constant) uniform Push
{
    vec4 SourceSize;
    vec4 OutputSize;
    float GAMMA;
} params;

layout(std140, set = 0, binding = 0) uniform UBO
{
    mat4 MVP;
    uint FrameCount;
} global;

"#,
    support::slang_vertex_stage!(),
    r#"layout(set = 0, binding = 1) uniform sampler2D Source;

void main()
{
    vec4 c = texture(Source, vTexCoord);
    float t = float(global.FrameCount) * params.OutputSize.x / params.SourceSize.x;
    FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t);
}
"#
);

/// A Cg file whose lines are the slang lines, and a line map like the translator's.
fn fake_map(text: &str) -> (SourceMap, Vec<Option<Span>>) {
    let mut sources = SourceMap::new();
    let file = sources.add_file("shader.cg", None, text.to_owned());
    let mut map = Vec::new();
    let mut offset = 0u32;
    let mut mapped = false;
    for line in text.split('\n') {
        mapped |= line.starts_with("#pragma stage");
        let span = Span::new(file, offset, offset + line.len() as u32);
        map.push((mapped && !line.trim().is_empty()).then_some(span));
        offset += line.len() as u32 + 1;
    }
    (sources, map)
}

struct Run {
    sources: SourceMap,
    result: ValidationResult,
}

fn run_with(text: &str, ctx: &ValidationContext<'_>) -> Run {
    let (sources, map) = fake_map(text);
    let result = validate(text, &map, ctx);
    Run { sources, result }
}

fn run(text: &str) -> Run {
    run_with(text, &ValidationContext::default())
}

/// Replaces exactly one occurrence.
fn edit(from: &str, to: &str) -> String {
    assert_eq!(VALID.matches(from).count(), 1, "`{from}` must occur once");
    VALID.replacen(from, to, 1)
}

/// 1-based line of the (only) line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> u32 {
    let lines: Vec<u32> =
        text.lines().enumerate().filter(|(_, l)| l.contains(needle)).map(|(i, _)| i as u32 + 1).collect();
    assert_eq!(lines.len(), 1, "`{needle}` must be on one line");
    lines[0]
}

impl Run {
    fn codes(&self) -> Vec<&'static str> {
        self.result.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect()
    }

    /// The only error diagnostic with `code`.
    fn the(&self, code: &str) -> &Diagnostic {
        let found: Vec<&Diagnostic> = self.result.diagnostics.iter().filter(|d| d.code == code).collect();
        assert_eq!(found.len(), 1, "expected one {code}, got {:#?}", self.result.diagnostics);
        found[0]
    }

    /// The Cg line the diagnostic points at.
    fn cg_line(&self, d: &Diagnostic) -> usize {
        d.location(&self.sources).unwrap_or_else(|| panic!("no location: {d:#?}")).line
    }

    fn explain(&self) -> String {
        grammar::diagnostic::render_plain(&self.sources, &self.result.diagnostics)
    }
}

#[test]
fn valid_text_passes_everything() {
    let r = run(VALID);
    assert!(r.result.diagnostics.is_empty(), "{}", r.explain());
    assert_eq!(r.result.glslang, Status::Ok);
    assert_eq!(r.result.interface, Status::Ok);
    assert_eq!(r.result.naga, Status::Skipped);
    assert!(r.result.is_ok());
    assert_eq!(r.result.meta.parameters[0].id, "GAMMA");
}

#[test]
fn type_error_is_a_glslang_error_on_its_cg_line() {
    let text = edit(
        "FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t);",
        "FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t) * vec3(1.0);",
    );
    let r = run(&text);
    assert_eq!(r.result.glslang, Status::Error);
    assert_eq!(r.result.interface, Status::Skipped);
    let d = r.the(codes::E_GLSLANG);
    assert!(d.message.contains("fragment"), "{}", r.explain());
    assert_eq!(r.cg_line(d), line_of(&text, "* vec3(1.0)") as usize);
    assert!(d.notes.iter().any(|n| n.contains("emitted slang line") && n.contains("vec3(1.0)")), "{d:#?}");
}

#[test]
fn sampler_binding_of_16_is_out_of_range() {
    let text = edit("binding = 1) uniform sampler2D Source", "binding = 16) uniform sampler2D Source");
    let r = run(&text);
    assert_eq!(r.codes(), vec![codes::E_BINDING_RANGE], "{}", r.explain());
    let d = r.the(codes::E_BINDING_RANGE);
    assert!(d.message.contains("`Source`") && d.message.contains("16"), "{}", d.message);
    assert_eq!(r.cg_line(d), line_of(&text, "sampler2D Source") as usize);
}

#[test]
fn duplicated_binding_names_both_users() {
    let text = edit(
        "uniform sampler2D Source;",
        "uniform sampler2D Source;\nlayout(set = 0, binding = 1) uniform sampler2D Original;",
    )
    .replace(
        "vec4 c = texture(Source, vTexCoord);",
        "vec4 c = texture(Source, vTexCoord) + texture(Original, vTexCoord);",
    );
    let r = run(&text);
    assert_eq!(r.codes(), vec![codes::E_BINDING_TWICE], "{}", r.explain());
    let d = r.the(codes::E_BINDING_TWICE);
    assert!(d.message.contains("`Source`") && d.message.contains("`Original`"), "{}", d.message);
    assert_eq!(r.cg_line(d), line_of(&text, "sampler2D Original") as usize);

    // The uniform buffer's binding counts too.
    let text = edit("binding = 1) uniform sampler2D Source", "binding = 0) uniform sampler2D Source");
    let r = run(&text);
    let d = r.the(codes::E_BINDING_TWICE);
    assert!(d.message.contains("uniform buffer `UBO`"), "{}", d.message);
}

#[test]
fn push_block_over_128_bytes() {
    let pad: String = (0..6).map(|i| format!("    vec4 Pad{i};\n")).collect();
    let text = edit("    float GAMMA;\n} params;", &format!("    float GAMMA;\n{pad}}} params;"));
    let r = run(&text);
    assert_eq!(r.codes(), vec![codes::E_PUSH_TOO_LARGE], "{}", r.explain());
    let d = r.the(codes::E_PUSH_TOO_LARGE);
    assert!(d.message.contains("`Push` is 144 bytes"), "{}", d.message);
    // The block is declared before `#pragma stage`: no Cg origin, the slang line is noted.
    assert!(d.labels.is_empty());
    let block = line_of(&text, "uniform Push");
    assert!(d.notes.iter().any(|n| n.contains(&format!("emitted slang line {block}"))), "{d:#?}");
}

#[test]
fn sampler_in_the_vertex_stage() {
    let text = edit(
        "layout(location = 0) out vec2 vTexCoord;\n\nvoid main()\n{\n    gl_Position",
        "layout(location = 0) out vec2 vTexCoord;\nlayout(set = 0, binding = 2) uniform sampler2D Original;\n\nvoid main()\n{\n    gl_Position",
    );
    let r = run(&text);
    assert_eq!(r.codes(), vec![codes::E_VERTEX_SAMPLER], "{}", r.explain());
    let d = r.the(codes::E_VERTEX_SAMPLER);
    assert!(d.message.contains("`Original`"), "{}", d.message);
    assert_eq!(r.cg_line(d), line_of(&text, "sampler2D Original") as usize);
}

#[test]
fn unknown_ubo_member_points_at_its_use() {
    let text = edit("    uint FrameCount;\n", "    uint FrameCount;\n    float Mystery;\n").replace(
        "FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t);",
        "FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t * global.Mystery);",
    );
    let r = run(&text);
    assert_eq!(r.codes(), vec![codes::E_UNKNOWN_SEMANTIC], "{}", r.explain());
    let d = r.the(codes::E_UNKNOWN_SEMANTIC);
    assert!(d.message.contains("`Mystery`") && d.message.contains("`UBO`"), "{}", d.message);
    assert_eq!(r.cg_line(d), line_of(&text, "global.Mystery") as usize);

    // Unused unknown members are ignored, as in RetroArch.
    let text = edit("    uint FrameCount;\n", "    uint FrameCount;\n    float Mystery;\n");
    assert!(run(&text).result.is_ok());
    // A parameter declared by another pass of the preset is known.
    let text = edit("    uint FrameCount;\n", "    uint FrameCount;\n    float Mystery;\n")
        .replace("t);\n}", "t * global.Mystery);\n}");
    let ctx = ValidationContext { extra_parameters: vec!["Mystery".into()], ..ValidationContext::default() };
    let r = run_with(&text, &ctx);
    assert!(r.result.is_ok(), "{}", r.explain());
}

#[test]
fn member_offsets_must_agree_between_stages() {
    // Each stage declares its own push block, with the members in another order.
    let text = VALID
        .replace(
            "layout(push_constant) uniform Push\n{\n    vec4 SourceSize;\n    vec4 OutputSize;\n    float GAMMA;\n} params;\n",
            "",
        )
        .replace(
            "#pragma stage vertex\n",
            "#pragma stage vertex\nlayout(push_constant) uniform Push { vec4 SourceSize; vec4 OutputSize; } params;\n",
        )
        .replace(
            "#pragma stage fragment\n",
            "#pragma stage fragment\nlayout(push_constant) uniform Push { vec4 OutputSize; vec4 SourceSize; float GAMMA; } params;\n",
        )
        .replace("gl_Position = global.MVP * Position;", "gl_Position = global.MVP * Position * params.SourceSize.x;");
    let r = run(&text);
    // OutputSize is used by the fragment stage only: no conflict there.
    assert_eq!(r.codes(), vec![codes::E_OFFSET_MISMATCH], "{}", r.explain());
    let d = r.the(codes::E_OFFSET_MISMATCH);
    assert!(
        d.message.contains("`SourceSize` is at offset 0") && d.message.contains("at offset 16 in the fragment"),
        "{}",
        d.message
    );
    assert_eq!(r.cg_line(d), line_of(&text, "float t =") as usize);
}

#[test]
fn pass_output_2_in_pass_1_is_not_causal() {
    let text = edit(
        "uniform sampler2D Source;",
        "uniform sampler2D Source;\nlayout(set = 0, binding = 2) uniform sampler2D PassOutput2;",
    )
    .replace(
        "vec4 c = texture(Source, vTexCoord);",
        "vec4 c = texture(Source, vTexCoord) + texture(PassOutput2, vTexCoord);",
    );
    let ctx = ValidationContext { pass: 1, ..ValidationContext::default() };
    let r = run_with(&text, &ctx);
    assert_eq!(r.codes(), vec![codes::E_NON_CAUSAL], "{}", r.explain());
    let d = r.the(codes::E_NON_CAUSAL);
    assert!(d.message.contains("`PassOutput2`") && d.message.contains("pass 1"), "{}", d.message);
    assert_eq!(r.cg_line(d), line_of(&text, "sampler2D PassOutput2") as usize);
    // In pass 3 it is fine.
    let ctx = ValidationContext { pass: 3, ..ValidationContext::default() };
    assert!(run_with(&text, &ctx).result.is_ok());

    // The size form, through a member.
    let text = edit("    vec4 OutputSize;\n", "    vec4 OutputSize;\n    vec4 PassOutputSize2;\n")
        .replace("t);\n}", "t * params.PassOutputSize2.x);\n}");
    let ctx = ValidationContext { pass: 1, ..ValidationContext::default() };
    let r = run_with(&text, &ctx);
    assert_eq!(r.codes(), vec![codes::E_NON_CAUSAL], "{}", r.explain());
    assert_eq!(r.cg_line(r.the(codes::E_NON_CAUSAL)), line_of(&text, "params.PassOutputSize2.x") as usize);

    // An alias of the pass itself is not causal either.
    let text = edit(
        "uniform sampler2D Source;",
        "uniform sampler2D Source;\nlayout(set = 0, binding = 2) uniform sampler2D SELF;",
    )
    .replace("vec4 c = texture(Source, vTexCoord);", "vec4 c = texture(SELF, vTexCoord);");
    let ctx =
        ValidationContext { pass: 1, aliases: vec!["FIRST".into(), "SELF".into()], ..ValidationContext::default() };
    assert_eq!(run_with(&text, &ctx).codes(), vec![codes::E_NON_CAUSAL]);
    let ok = text.replace("SELF", "FIRST");
    assert!(run_with(&ok, &ctx).result.is_ok());
}

#[test]
fn third_vertex_input() {
    let text = edit(
        "layout(location = 1) in vec2 TexCoord;",
        "layout(location = 1) in vec2 TexCoord;\nlayout(location = 2) in vec4 COLOR;",
    )
    .replace("vTexCoord = TexCoord;", "vTexCoord = TexCoord * COLOR.xy;");
    let r = run(&text);
    assert_eq!(r.codes(), vec![codes::E_VERTEX_INPUTS], "{}", r.explain());
    let d = r.the(codes::E_VERTEX_INPUTS);
    assert!(d.message.contains("it has 3") && d.message.contains("`COLOR` (location 2)"), "{}", d.message);
    assert_eq!(r.cg_line(d), line_of(&text, "in vec4 COLOR") as usize);
}

#[test]
fn more_interface_rules() {
    // Fragment output at location 1.
    let r = run(&edit("layout(location = 0) out vec4 FragColor;", "layout(location = 1) out vec4 FragColor;"));
    assert_eq!(r.codes(), vec![codes::E_FRAGMENT_OUTPUTS]);
    // Descriptor set 1.
    let r = run(&edit("set = 0, binding = 1) uniform sampler2D", "set = 1, binding = 1) uniform sampler2D"));
    assert_eq!(r.codes(), vec![codes::E_DESCRIPTOR_SET]);
    // A sampler named after nothing.
    let renamed =
        VALID.replace("sampler2D Source", "sampler2D MyTexture").replace("texture(Source", "texture(MyTexture");
    let r = run(&renamed);
    assert_eq!(r.codes(), vec![codes::E_UNKNOWN_TEXTURE]);
    // ... unless the preset has a LUT of that name.
    let ctx = ValidationContext { luts: vec!["MyTexture".into()], ..ValidationContext::default() };
    assert!(run_with(&renamed, &ctx).result.is_ok());
    // FrameCount must be uint.
    let r =
        run(&edit("uint FrameCount;", "float FrameCount;").replace("float(global.FrameCount)", "global.FrameCount"));
    let d = r.the(codes::E_SEMANTIC_TYPE);
    assert!(d.message.contains("`FrameCount` must be declared `uint`, not `float`"), "{}", d.message);
    // Two uniform buffers in one stage.
    let r = run(&edit(
        "#pragma stage fragment\n",
        "#pragma stage fragment\nlayout(set = 0, binding = 3) uniform UBO2 { vec4 OriginalSize; } other;\n",
    ));
    assert_eq!(r.codes(), vec![codes::E_TOO_MANY_BLOCKS]);
    // Uniform buffer bound differently in the two stages.
    let text = VALID
        .replace(
            "layout(std140, set = 0, binding = 0) uniform UBO\n{\n    mat4 MVP;\n    uint FrameCount;\n} global;\n",
            "",
        )
        .replace(
            "#pragma stage vertex\n",
            "#pragma stage vertex\nlayout(set = 0, binding = 0) uniform UBO { mat4 MVP; uint FrameCount; } global;\n",
        )
        .replace(
            "#pragma stage fragment\n",
            "#pragma stage fragment\nlayout(set = 0, binding = 2) uniform UBO { mat4 MVP; uint FrameCount; } global;\n",
        );
    assert_eq!(run(&text).codes(), vec![codes::E_UBO_BINDING_MISMATCH]);
    // A uniform buffer at binding 16.
    let r = run(&edit("set = 0, binding = 0) uniform UBO", "set = 0, binding = 16) uniform UBO"));
    let d = r.the(codes::E_BINDING_RANGE);
    assert!(d.message.contains("uniform buffer `UBO` uses binding 16"), "{}", d.message);
    // A history index past RetroArch's bound.
    let r = run(&edit(
        "uniform sampler2D Source;",
        "uniform sampler2D Source;\nlayout(binding = 2) uniform sampler2D OriginalHistory200;",
    ));
    assert_eq!(r.codes(), vec![codes::E_SEMANTIC_INDEX]);
}

#[test]
fn file_format_errors_are_reported_and_located() {
    let text = edit(
        "#pragma parameter GAMMA \"Gamma\" 2.2 1.0 3.0 0.1",
        "#pragma parameter GAMMA \"Gamma\" 2.2 1.0 3.0 0.1\n#pragma parameter GAMMA \"Gamma\" 2.4 1.0 3.0 0.1\n#pragma format R8G8B8_UNORM",
    );
    let r = run(&text);
    assert_eq!(r.codes(), vec![codes::E_PARAMETER_MISMATCH, codes::E_UNKNOWN_FORMAT], "{}", r.explain());
    assert_eq!(r.result.glslang, Status::Error);
    assert_eq!(r.result.issues[0].place, Some(Place::Slang { file: 0, line: line_of(&text, "2.4 1.0") }));

    // With the slang text registered in the SourceMap, lines without Cg origin get a label there.
    let (mut sources, map) = fake_map(&text);
    let slang = sources.add_file("out.slang", None, text.clone());
    let ctx = ValidationContext { slang_file: Some(slang), ..ValidationContext::default() };
    let result = validate(&text, &map, &ctx);
    let loc = result.diagnostics[0].location(&sources).expect("located");
    assert_eq!((loc.file.as_str(), loc.line), ("out.slang", line_of(&text, "2.4 1.0") as usize));
}

// ---- naga ----

const NAGA_VS: &str = concat!(
    r"#version 450
layout(push_constant) uniform Push { vec4 SourceSize; vec4 OutputSize; float GAMMA; } params;
layout(set = 0, binding = 0, std140) uniform UBO { mat4 MVP; uint FrameCount; } global;
",
    support::vertex_interface_and_main!()
);

const NAGA_FS: &str = r"#version 450
layout(push_constant) uniform Push { vec4 SourceSize; vec4 OutputSize; float GAMMA; } params;
layout(set = 0, binding = 0, std140) uniform UBO { mat4 MVP; uint FrameCount; } global;
layout(set = 0, binding = 1) uniform texture2D Source;
layout(set = 0, binding = 2) uniform sampler Source_sampler;
layout(location = 0) in vec2 vTexCoord;
layout(location = 0) out vec4 FragColor;
void main()
{
    vec4 c = texture(sampler2D(Source, Source_sampler), vTexCoord);
    float t = float(global.FrameCount) * params.OutputSize.x / params.SourceSize.x;
    FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t);
}
";

#[test]
fn naga_accepts_the_naga_dialect() {
    let vs = support::naga_module(NAGA_VS, Stage::Vertex);
    assert_eq!(vs.entry_points.len(), 1);
    support::naga_module(NAGA_FS, Stage::Fragment);
    let ctx = ValidationContext {
        naga_vertex: Some(NagaStage { text: NAGA_VS.into(), line_map: Vec::new() }),
        naga_fragment: Some(NagaStage { text: NAGA_FS.into(), line_map: Vec::new() }),
        ..ValidationContext::default()
    };
    let r = run_with(VALID, &ctx);
    assert_eq!(r.result.naga, Status::Ok, "{}", r.explain());
}

#[test]
fn naga_errors_name_their_line() {
    let bad = NAGA_FS.replace(
        "FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t);",
        "FragColor = vec4(pow(c.rgb, vec3(params.GAMMA)), t) * vec3(1.0);",
    );
    let errors = validate_naga(&bad, Stage::Fragment).expect_err("rejected");
    assert!(errors.iter().all(|d| d.code == codes::E_NAGA_PARSE || d.code == codes::E_NAGA_VALIDATION), "{errors:#?}");
    let line = line_of(&bad, "vec3(1.0)");
    assert!(errors[0].notes.iter().any(|n| n.contains(&format!("line {line}"))), "{errors:#?}");

    // Through validate(), with a line map for the naga text.
    let (sources, _) = fake_map(&bad);
    let file = sources.files().next().map(|(id, _)| id).expect("file");
    let mut offset = 0u32;
    let line_map: Vec<Option<Span>> = bad
        .split('\n')
        .map(|l| {
            let s = Span::new(file, offset, offset + l.len() as u32);
            offset += l.len() as u32 + 1;
            Some(s)
        })
        .collect();
    let ctx = ValidationContext {
        naga_fragment: Some(NagaStage { text: bad.clone(), line_map }),
        ..ValidationContext::default()
    };
    let result = validate(VALID, &fake_map(VALID).1, &ctx);
    assert_eq!(result.naga, Status::Error);
    assert_eq!(result.glslang, Status::Ok);
    let d = result
        .diagnostics
        .iter()
        .find(|d| d.code == codes::E_NAGA_PARSE || d.code == codes::E_NAGA_VALIDATION)
        .expect("naga error");
    assert_eq!(d.location(&sources).map(|l| l.line), Some(line as usize), "{d:#?}");
}

#[test]
fn naga_rejects_combined_samplers_of_the_canonical_text() {
    // The canonical fragment stage as glslang sees it (see gfx-rs/wgpu#4342).
    let stages = runtime_check::validate::split_stages(VALID);
    let result = validate_naga(&stages.fragment.text, Stage::Fragment);
    assert!(result.is_err());
}

/// naga 30.0.1's GLSL front end panics (index out of bounds in its constant evaluator)
/// on a constant matrix indexed past its columns. If a naga upgrade fixes this, find
/// another panicking input (gfx-rs/wgpu#7687 lists fuzzer finds) or keep only the
/// simulated panic below.
const NAGA_PANICS_ON: &str = "#version 450
layout(location = 0) out vec4 o;
const mat2 m = mat2(1.0);
const float q = m[3][0];
void main() { o = vec4(q); }
";

#[test]
fn naga_panics_become_diagnostics() {
    let errors = validate_naga(NAGA_PANICS_ON, Stage::Fragment).expect_err("rejected");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code, codes::E_NAGA_PANIC, "{errors:#?}");
    assert!(errors[0].message.contains("index out of bounds"), "{}", errors[0].message);
    // The same through validate(): the canonical text still passes glslang.
    let ctx = ValidationContext {
        naga_fragment: Some(NagaStage { text: NAGA_PANICS_ON.into(), line_map: Vec::new() }),
        ..ValidationContext::default()
    };
    let r = run_with(VALID, &ctx);
    assert_eq!((r.result.glslang, r.result.naga), (Status::Ok, Status::Error));
    assert_eq!(r.codes(), vec![codes::E_NAGA_PANIC]);

    // A panic inside the isolation wrapper, exactly as a naga panic would travel.
    let r: Result<u32, String> = runtime_check::validate::naga::isolate(|| panic!("simulated naga panic"));
    assert!(r.expect_err("isolated").contains("simulated naga panic"));
    // Many shapes of garbage through the real front end: never a crash.
    for text in [
        "",
        "#version 450\n",
        "#version 450\nvoid main() {",
        "#version 450\n#define A(x) A(x)\nvoid main() { A(1); }\n",
        "\u{0}\u{1}",
        "#version 450\nlayout(location = 99999999999) out vec4 x;\nvoid main(){}\n",
    ] {
        for stage in Stage::BOTH {
            let _ = validate_naga(text, stage);
        }
    }
}
