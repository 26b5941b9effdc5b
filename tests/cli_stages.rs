//! End to end: what `cg2slang analyze` and `translate` do with the Cg 3.x constructs slang
//! has no equivalent of (geometry and tessellation programs, CgFX techniques and state
//! objects): analysed under their own profiles, not translated, said at file:line:column
//! with a stable code, and the vertex and fragment entries of the same file translated.

mod support;

use std::path::Path;
use support::{cg2slang, expect};

const PASS: &str = "\
void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0,
                 out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0, uniform float4x4 modelViewProj)
{ oPosition = mul(modelViewProj, position); oTex = tex; }
float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s : TEXUNIT0) : COLOR { return tex2D(s, tex); }
TRIANGLE TRIANGLE_OUT void gs(AttribArray<float4> p : POSITION, AttribArray<float2> t : TEXCOORD0)
{
    for (int i = 0; i < p.length; i++) { emitVertex(p[i] : POSITION, t[i] : TEXCOORD0); }
    restartStrip();
}
PATCH_3 void tcs(AttribArray<float3> p : POSITION, out float3 o : POSITION) { o = p[0]; }
technique Main { pass P0 { FragmentProgram = compile fp40 main_fragment(); } }
";

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).expect("write the input");
    name.to_owned()
}

#[test]
fn translate_says_what_it_leaves_out_and_translates_the_entries() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = write(dir.path(), "effect.cg", PASS);
    let run = cg2slang(&["translate", &file], dir.path());
    expect(&run, 0);
    assert!(run.stdout.contains("#pragma stage vertex") && run.stdout.contains("#pragma stage fragment"));
    assert!(!run.stdout.contains("emitVertex"), "{}", run.stdout);
    for (code, at, what) in [
        ("W0430", "effect.cg:5:28", "the geometry program `gs` (TRIANGLE TRIANGLE_OUT) is not translated"),
        ("W0430", "effect.cg:10:14", "the tessellation control program `tcs` (PATCH_3) is not translated"),
        ("W0431", "effect.cg:11:11", "technique `Main` is not translated"),
    ] {
        assert!(run.stderr.contains(&format!("warning[{code}]: {what}")), "{code}: {}", run.stderr);
        assert!(run.stderr.contains(at), "{at}: {}", run.stderr);
    }
}

#[test]
fn a_geometry_entry_is_refused_with_its_location() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let src = PASS
        .replace("void gs(", "void main_gs(")
        .replace("main_vertex", "old_vertex")
        .replace("main_gs", "main_vertex");
    let file = write(dir.path(), "gs_entry.cg", &src);
    let run = cg2slang(&["translate", &file], dir.path());
    expect(&run, 1);
    assert!(
        run.stderr.contains("error[E0430]: the vertex entry `main_vertex` is a geometry program"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("gs_entry.cg:5:28"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn analyze_checks_geometry_and_tessellation_entries_under_their_profiles() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = write(dir.path(), "effect.cg", PASS);
    let run = cg2slang(&["analyze", &file, "--entry", "gs", "--profile", "gp4gp", "--dump-ir"], dir.path());
    expect(&run, 0);
    assert!(run.stdout.contains("emitVertex(") && run.stdout.contains("restartStrip();"), "{}", run.stdout);
    expect(&cg2slang(&["analyze", &file, "--entry", "tcs", "--profile", "gp5tcp"], dir.path()), 0);
    // Without `--profile` the modifiers choose the domain's default profile.
    let run = cg2slang(&["analyze", &file, "--entry", "gs", "--dump-ir"], dir.path());
    expect(&run, 0);
    assert!(run.stdout.contains("// ---- gs (gp5gp) ----"), "{}", run.stdout);
    expect(&cg2slang(&["analyze", &file, "--entry", "tcs"], dir.path()), 0);
    // Under a vertex profile the geometry program is an error at its name.
    let run = cg2slang(&["analyze", &file, "--entry", "gs", "--profile", "glslv"], dir.path());
    expect(&run, 1);
    assert!(run.stderr.contains("error[E0330]") && run.stderr.contains("effect.cg:5:28"), "{}", run.stderr);
}
