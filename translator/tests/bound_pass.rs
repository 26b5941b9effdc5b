//! [`translator::translate::bind`] decides all that a translation reads of its preset
//! context: contexts that bind a program alike translate it alike, so a migration ports
//! each distinct binding once. These tests pin which context fields separate bindings
//! (those the program reads) and which do not, and that a shared binding gives the
//! translation each context would have got on its own.

use grammar::{MemoryFs, PpOptions, SourceMap};
use translator::retro::PassContext;
use translator::translate::{analyze_pass, bind, port, port_bound, Analysis, TranslateOptions};

const VERTEX: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; }\n";

/// A program that reads only its input texture and a parameter it declares.
const PLAIN: &str = "#pragma parameter GAIN \"Gain\" 1.0 0.0 2.0 0.1\n\
uniform float GAIN;\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0) : COLOR\n\
{ return GAIN * tex2D(s0, tex); }\n";

/// A program that reads the output of the pass two before it and a parameter another
/// pass declares.
const READS_PASSPREV2: &str = "struct prev { float2 tex_coord; float2 video_size; sampler2D texture; };\n\
uniform float SHARED;\n\
float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0, uniform prev PASSPREV2) : COLOR\n\
{ return SHARED * tex2D(s0, tex) + tex2D(PASSPREV2.texture, tex); }\n";

fn analysed(fragment: &str) -> Analysis {
    let mut sources = SourceMap::new();
    let pp = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let src = format!("{VERTEX}{fragment}");
    let parsed = grammar::parse_str(&mut sources, "bound.cg", &src, &pp, &MemoryFs::new());
    analyze_pass(&sources, &parsed, &TranslateOptions::default())
}

fn options(pass: usize, passes: usize, luts: &[&str], aliases: &[&str], parameters: &[&str]) -> TranslateOptions {
    let mut all_aliases = vec![String::new(); passes];
    for (slot, a) in all_aliases.iter_mut().zip(aliases) {
        *slot = (*a).to_owned();
    }
    TranslateOptions {
        context: PassContext {
            pass,
            passes,
            aliases: all_aliases,
            feedback_pass: None,
            luts: luts.iter().map(|l| (*l).to_owned()).collect(),
        },
        preset_parameters: parameters.iter().map(|p| (*p).to_owned()).collect(),
        ..TranslateOptions::default()
    }
}

const SHARED: &str = "#pragma parameter SHARED \"Shared\" 0.5 0.0 1.0 0.05";
const OTHER: &str = "#pragma parameter OTHER \"Other\" 0.5 0.0 1.0 0.05";

#[test]
fn fields_the_program_does_not_read_bind_alike() {
    let a = analysed(PLAIN);
    let contexts =
        [options(0, 1, &[], &[], &[]), options(3, 5, &["mask", "lut"], &[], &[]), options(2, 3, &[], &[], &[OTHER])];
    let bound: Vec<_> = contexts.iter().map(|o| bind(&a, o).expect("analysed without errors")).collect();
    assert_eq!(bound[0], bound[1]);
    assert_eq!(bound[0], bound[2]);
    // The shared binding ports to what each context gives on its own.
    let shared = port_bound(&a, &bound[0]);
    for o in &contexts {
        let own = port(&a, o);
        assert_eq!(own.text, shared.text);
        assert_eq!(own.diagnostics, shared.diagnostics);
        assert_eq!(own.naga, shared.naga);
    }
}

#[test]
fn fields_the_program_reads_bind_apart() {
    let a = analysed(READS_PASSPREV2);
    let base = bind(&a, &options(2, 3, &[], &[], &[SHARED])).expect("analysed without errors");
    // Two passes back from pass 3 instead of pass 2: another pass's output.
    let later = bind(&a, &options(3, 4, &[], &[], &[SHARED])).expect("analysed without errors");
    assert_ne!(base, later);
    // The parameter another pass declares is bound only when the preset has it.
    let without = bind(&a, &options(2, 3, &[], &[], &[])).expect("analysed without errors");
    assert_ne!(base, without);
    // An alias is a define the output carries, read or not.
    let aliased = bind(&a, &options(2, 3, &[], &["FIRST"], &[SHARED])).expect("analysed without errors");
    assert_ne!(base, aliased);
    // A parameter it does not read changes nothing.
    let other = bind(&a, &options(2, 3, &["lut"], &[], &[SHARED, OTHER])).expect("analysed without errors");
    assert_eq!(base, other);
    for (b, o) in [(&base, options(2, 3, &[], &[], &[SHARED])), (&aliased, options(2, 3, &[], &["FIRST"], &[SHARED]))] {
        assert_eq!(port_bound(&a, b).text, port(&a, &o).text);
    }
    assert_ne!(port_bound(&a, &base).text, port_bound(&a, &aliased).text);
}

#[test]
fn an_analysis_with_errors_binds_to_its_diagnostics() {
    let a = analysed("float4 main_fragment() : COLOR { return undefined_name; }\n");
    let diagnostics = bind(&a, &options(0, 1, &[], &[], &[])).expect_err("errors");
    assert!(grammar::has_errors(&diagnostics));
    assert_eq!(port(&a, &options(0, 1, &[], &[], &[])).diagnostics, diagnostics);
}
