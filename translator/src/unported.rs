//! What of a Cg file a slang pass cannot carry, said before analysis: geometry and
//! tessellation programs (slang passes have only vertex and fragment stages) and CgFX
//! effect constructs (techniques and state objects: a slang pass is its two entries,
//! with render state in the preset).
//!
//! A program or effect construct beside the pass's entries is a warning (W0430, W0431)
//! at its name, and the entries still translate; an entry that is itself a geometry or
//! tessellation program is an error (E0430). This module reads the syntax tree only; it
//! never analyses, ports or writes anything.

use crate::codes;
use crate::sema::effects::state_object_domain;
use crate::sema::programs;
use grammar::ast;
use grammar::Diagnostic;

/// The diagnostics for the constructs of `unit` that have no slang equivalent, given the
/// pass's vertex and fragment entry names.
pub fn check(unit: &ast::TranslationUnit, vertex_entry: &str, fragment_entry: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for item in &unit.items {
        match item {
            ast::Item::Function(f) if f.body.is_some() => {
                let shape = programs::shape(&f.specifiers.modifiers, &mut Vec::new());
                let Some(domain) = shape.domain() else { continue };
                let modifiers: Vec<String> = f.specifiers.modifiers.iter().map(|(m, _)| m.as_string()).collect();
                let modifiers = modifiers.join(" ");
                let name = &f.name.name;
                if name == vertex_entry || name == fragment_entry {
                    let role = if name == vertex_entry { "vertex" } else { "fragment" };
                    out.push(
                        Diagnostic::error(
                            codes::E_NO_SLANG_STAGE,
                            format!(
                                "the {role} entry `{name}` is a {} program ({modifiers}): a slang pass has only \
                                 vertex and fragment stages",
                                domain.name()
                            ),
                        )
                        .with_primary(f.name.span, format!("declared a {} program here", domain.name()))
                        .with_note("RetroArch's slang runtime runs no geometry or tessellation stage; this pass cannot be translated"),
                    );
                } else {
                    out.push(
                        Diagnostic::warning(
                            codes::W_STAGE_NOT_TRANSLATED,
                            format!(
                                "the {} program `{name}` ({modifiers}) is not translated: slang has no such stage",
                                domain.name()
                            ),
                        )
                        .with_primary(f.name.span, "")
                        .with_note(format!(
                            "the pass is `{vertex_entry}` and `{fragment_entry}`, translated without it"
                        )),
                    );
                }
            }
            ast::Item::Technique(t) => {
                let (what, span) = match &t.name {
                    Some(n) => (format!("technique `{}`", n.name), n.span),
                    None => ("an unnamed technique".to_owned(), t.span),
                };
                out.push(
                    Diagnostic::warning(codes::W_EFFECT_NOT_TRANSLATED, format!("{what} is not translated"))
                        .with_primary(span, "")
                        .with_note(format!(
                            "a slang pass is its `{vertex_entry}` and `{fragment_entry}`; render states and \
                             passes belong in the .slangp preset"
                        )),
                );
            }
            ast::Item::Declaration(d) => {
                let ast::TypeSpec::Named(ty) = &d.specifiers.ty else { continue };
                if state_object_domain(&ty.name).is_none() {
                    continue;
                }
                for decl in &d.declarators {
                    out.push(
                        Diagnostic::warning(
                            codes::W_EFFECT_NOT_TRANSLATED,
                            format!("the {} state object `{}` is not translated", ty.name, decl.name.name),
                        )
                        .with_primary(decl.name.span, "")
                        .with_note("state objects serve CgFX techniques, which slang passes do not have"),
                    );
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::codes;
    use crate::translate::{translate, TranslateOptions};
    use grammar::{MemoryFs, PpOptions, SourceMap};

    const PASS: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0,
                 out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj)
{ oPosition = mul(modelViewProj, position); oTex = tex; }
float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR { return tex2D(s, tex); }
";

    /// Translates `src`; the text (if any) and each diagnostic as `line:col code`.
    fn run(src: &str) -> (Option<String>, Vec<String>) {
        let mut sources = SourceMap::new();
        let parsed = grammar::parse_str(&mut sources, "t.cg", src, &PpOptions::default(), &MemoryFs::new());
        assert!(!parsed.has_errors(), "{}", grammar::diagnostic::render_plain(&sources, &parsed.diagnostics));
        let t = translate(&sources, &parsed, &TranslateOptions::default());
        let diags = t
            .diagnostics
            .iter()
            .map(|d| {
                let short = grammar::diagnostic::render_short(&sources, std::slice::from_ref(d));
                short.split_once(": ").map_or(short.clone(), |(loc, rest)| format!("{loc} {rest}"))
            })
            .collect();
        (t.text, diags)
    }

    fn has(diags: &[String], needle: &str) -> bool {
        diags.iter().any(|d| d.contains(needle))
    }

    #[test]
    fn a_geometry_program_beside_the_entries_is_a_warning_and_the_pass_translates() {
        let src = format!(
            "{PASS}TRIANGLE LINE_OUT void gs(AttribArray<float4> p : POSITION) {{ emitVertex(p[0] : POSITION); }}\n"
        );
        let (text, diags) = run(&src);
        let text = text.expect("the vertex and fragment entries translate");
        assert!(text.contains("#pragma stage fragment") && !text.contains("emitVertex"), "{text}");
        assert!(has(&diags, &format!("t.cg:5:24 warning[{}]", codes::W_STAGE_NOT_TRANSLATED)), "{diags:?}");
        assert!(has(&diags, "the geometry program `gs` (TRIANGLE LINE_OUT) is not translated"), "{diags:?}");
    }

    #[test]
    fn tessellation_programs_are_named_by_domain() {
        let src = format!(
            "{PASS}PATCH_3 void tcs(AttribArray<float3> p : POSITION, out float3 o : POSITION) {{ o = p[0]; }}\n\
             QUADS PATCH_4 void tes(AttribArray<float3> p : POSITION, out float4 o : POSITION) {{ o = float4(p[0], 1); }}\n"
        );
        let (text, diags) = run(&src);
        assert!(text.is_some(), "{diags:?}");
        assert!(has(&diags, "t.cg:5:14 warning[W0430]: the tessellation control program `tcs`"), "{diags:?}");
        assert!(has(&diags, "t.cg:6:20 warning[W0430]: the tessellation evaluation program `tes`"), "{diags:?}");
    }

    #[test]
    fn an_entry_that_is_a_geometry_program_is_an_error() {
        let src = "POINT void main_vertex(AttribArray<float4> p : POSITION) { emitVertex(p[0] : POSITION); }\n\
                   float4 main_fragment() : COLOR { return 1; }\n";
        let (text, diags) = run(src);
        assert!(text.is_none());
        assert!(
            has(&diags, "t.cg:1:12 error[E0430]: the vertex entry `main_vertex` is a geometry program"),
            "{diags:?}"
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
    }

    #[test]
    fn techniques_and_state_objects_are_warnings_and_the_pass_translates() {
        let src = format!(
            "{PASS}VertexShader vs = compile vp40 main_vertex();\n\
             technique Main {{ pass P0 {{ VertexShader = (vs); FragmentProgram = compile fp40 main_fragment(); }} }}\n\
             technique {{ pass {{ }} }}\n"
        );
        let (text, diags) = run(&src);
        assert!(text.is_some(), "{diags:?}");
        assert!(
            has(&diags, "t.cg:5:14 warning[W0431]: the VertexShader state object `vs` is not translated"),
            "{diags:?}"
        );
        assert!(has(&diags, "t.cg:6:11 warning[W0431]: technique `Main` is not translated"), "{diags:?}");
        assert!(has(&diags, "t.cg:7:1 warning[W0431]: an unnamed technique is not translated"), "{diags:?}");
    }

    #[test]
    fn effect_errors_still_stop_the_translation() {
        let src = format!("{PASS}technique T {{ pass {{ VertexProgram = compile fp40 main_vertex(); }} }}\n");
        let (text, diags) = run(&src);
        assert!(text.is_none());
        assert!(has(&diags, "error[E0332]"), "{diags:?}");
    }
}
