//! Whole-preset tests: the model's rules, `#reference` chains in memory, the writer and
//! its round trip through the `.slangp` reader. Layer tests live in their modules.

use super::*;
use crate::codes;
use grammar::diagnostic::render_short;
use grammar::{Diagnostic, MemoryFs, SourceMap};
use std::path::{Path, PathBuf};

/// A diagnostic as (code, line, column).
type At = (&'static str, usize, usize);

/// Loads `.cgp` text; returns the preset, the diagnostics as (code, line, column) and
/// the short rendering.
fn cgp(text: &str) -> (Option<Preset>, Vec<At>, String) {
    let mut sources = SourceMap::new();
    let (p, d) = parse_cgp_str(&mut sources, "test.cgp", text);
    (p, located(&sources, &d), render_short(&sources, &d))
}

fn located(sources: &SourceMap, d: &[Diagnostic]) -> Vec<At> {
    d.iter()
        .map(|d| {
            let l = d.location(sources);
            (d.code, l.as_ref().map_or(0, |l| l.line), l.map_or(0, |l| l.column))
        })
        .collect()
}

fn ok(text: &str) -> Preset {
    let (p, d, r) = cgp(text);
    match p {
        Some(p) if d.is_empty() => p,
        _ => panic!("expected a clean load, got {d:?}\n{r}"),
    }
}

fn with_warnings(text: &str) -> (Preset, Vec<At>) {
    let (p, d, r) = cgp(text);
    match p {
        Some(p) => (p, d),
        None => panic!("expected a preset, got {d:?}\n{r}"),
    }
}

fn fails(text: &str) -> Vec<At> {
    let (p, d, _) = cgp(text);
    assert!(p.is_none(), "expected a failure: {d:?}");
    d
}

#[test]
fn every_key_reaches_the_model() {
    let p = ok(r#"
shaders = 3
feedback_pass = 1
shader0 = "passes/first pass.cg"
filter_linear0 = false
wrap_mode0 = clamp_to_edge
mipmap_input0 = true
alias0 = FIRST
float_framebuffer0 = true
srgb_framebuffer0 = false
scale_type0 = source
scale0 = 2.0
frame_count_mod0 = 0x10
shader1 = ../common/second.cg
srgb_framebuffer1 = "true"
scale_type_x1 = viewport
scale_x1 = 0.5
scale_type_y1 = absolute
scale_y1 = 240
frame_count_mod1 = 0
shader2 = "last.cg"
textures = "LUT;MASK"
LUT = "luts/lut.png"
LUT_linear = true
LUT_wrap_mode = "repeat"
LUT_mipmap = true
MASK = mask.png
parameters = "GAMMA;SHARP"
GAMMA = 2.4
SHARP = "0.5"
"#);
    assert_eq!(p.passes.len(), 3);
    let p0 = &p.passes[0];
    assert_eq!(p0.shader, PathBuf::from("passes/first pass.cg"));
    assert_eq!(p0.shader_resolved, PathBuf::from("passes/first pass.cg"));
    assert_eq!(
        (p0.filter_linear, p0.wrap_mode, p0.mipmap_input, p0.alias.as_deref()),
        (Some(false), Some(WrapMode::ClampToEdge), true, Some("FIRST"))
    );
    assert_eq!((p0.float_framebuffer, p0.srgb_framebuffer, p0.frame_count_mod), (true, false, Some(16)));
    assert_eq!(p0.scale, Some(Scale { x: (ScaleType::Source, 2.0), y: (ScaleType::Source, 2.0) }));
    let p1 = &p.passes[1];
    assert_eq!(p1.shader_resolved, PathBuf::from("../common/second.cg"));
    assert_eq!(p1.scale, Some(Scale { x: (ScaleType::Viewport, 0.5), y: (ScaleType::Absolute, 240.0) }));
    assert_eq!((p1.srgb_framebuffer, p1.frame_count_mod, p1.filter_linear, p1.wrap_mode), (true, None, None, None));
    let p2 = &p.passes[2];
    assert_eq!((p2.scale, p2.alias.as_deref(), p2.mipmap_input), (None, None, false));
    assert_eq!(p.feedback_pass, Some(1));
    assert_eq!(p.textures.len(), 2);
    let lut = &p.textures[0];
    assert_eq!(
        (lut.name.as_str(), lut.path.as_path(), lut.linear, lut.wrap_mode, lut.mipmap),
        ("LUT", Path::new("luts/lut.png"), Some(true), Some(WrapMode::Repeat), true)
    );
    let mask = &p.textures[1];
    assert_eq!((mask.linear, mask.wrap_mode, mask.mipmap), (None, None, false));
    assert_eq!(p.parameters, [("GAMMA".to_owned(), 2.4), ("SHARP".to_owned(), 0.5)]);
    assert_eq!(p.parameter("GAMMA"), Some(2.4));
    let ctx = p.pass_context(2);
    assert_eq!((ctx.pass, ctx.passes, ctx.feedback_pass), (2, 3, Some(1)));
    assert_eq!(ctx.aliases, ["FIRST", "", ""]);
    assert_eq!(ctx.luts, ["LUT", "MASK"]);
}

#[test]
fn crlf_quotes_and_comments_do_not_change_the_model() {
    let lf = "shaders = 2\nshader0 = a.cg\nfilter_linear0 = true\nscale_type0 = source\nscale0 = 2\nshader1 = b.cg\n";
    let noisy =
        "\u{feff}# preset\r\nshaders = \"2\" # two\r\n\r\n  shader0   =   \"a.cg\"\r\nfilter_linear0 = \"1\"\r\n\
                 scale_type0 = \"source\"\r\nscale0 = \"2.0\"\r\n// pass 1\r\nshader1 = b.cg\r\n";
    let (a, (b, d)) = (ok(lf), with_warnings(noisy));
    assert_eq!(d.iter().map(|d| d.0).collect::<Vec<_>>(), [codes::W_PRESET_BOM]);
    assert_eq!(settings(&a), settings(&b));
    assert_eq!(
        a.passes.iter().map(|p| &p.shader).collect::<Vec<_>>(),
        b.passes.iter().map(|p| &p.shader).collect::<Vec<_>>()
    );
}

#[test]
fn errors_where_retroarch_fails_with_their_positions() {
    assert_eq!(fails("shader0 = a.cg\n"), [(codes::E_PRESET_NO_PASSES, 1, 1)]);
    assert_eq!(fails("# x\nshaders = 0\n"), [(codes::E_PRESET_NO_PASSES, 2, 11)]);
    assert_eq!(fails("shaders = lots\n"), [(codes::E_PRESET_NO_PASSES, 1, 11)]);
    assert_eq!(fails("shaders = 27\n"), [(codes::E_PRESET_PASS_COUNT, 1, 11)]);
    assert_eq!(fails("shaders = 2\nshader0 = a.cg\n"), [(codes::E_PRESET_MISSING_SHADER, 1, 11)]);
    assert_eq!(fails("shaders = 1\nshader0 = \"\"\n"), [(codes::E_PRESET_MISSING_SHADER, 2, 11)]);
    assert_eq!(
        fails("shaders = 1\nshader0 = a.cg\ntextures = \"A;B\"\nA = a.png\n"),
        [(codes::E_PRESET_MISSING_TEXTURE, 3, 12)]
    );
    assert_eq!(fails("shaders = 1\nshader0 = a.cg\nscale_type0 = Source\n"), [(codes::E_PRESET_SCALE_TYPE, 3, 15)]);
    // A #reference cannot be followed without a file system.
    assert_eq!(fails("#reference \"other.cgp\"\n"), [(codes::E_PRESET_IO, 1, 12)]);
}

#[test]
fn warnings_keep_going_with_their_positions() {
    let (p, d) = with_warnings(
        "shaders = 1\nshader0 = a.cg\nscale_1 = 2.0\nshader1 = b.cg\nfilter_linear0 = maybe\nframe_count_mod0 = ten\n\
         scale_type0 = source\nscale0 = 2x\nalias0 = two words\nshaders=3\n",
    );
    assert_eq!(
        d,
        [
            (codes::W_PRESET_TRAILING, 9, 14),
            (codes::W_PRESET_SYNTAX, 10, 1),
            (codes::W_PRESET_UNKNOWN_KEY, 3, 1),
            (codes::W_PRESET_BAD_VALUE, 5, 18),
            (codes::W_PRESET_BAD_VALUE, 6, 20),
            (codes::W_PRESET_BAD_VALUE, 8, 10),
            (codes::W_PRESET_PASS_INDEX, 4, 1),
        ]
    );
    let p0 = &p.passes[0];
    assert_eq!((p0.filter_linear, p0.frame_count_mod, p0.alias.as_deref()), (None, None, Some("two")));
    assert_eq!(p0.scale, Some(Scale { x: (ScaleType::Source, 2.0), y: (ScaleType::Source, 2.0) }));
}

#[test]
fn diagnostics_render_with_file_line_and_column() {
    let (_, _, rendered) = cgp("shaders = 1\nshader0 = a.cg\nscale_1 = 2.0\n");
    assert_eq!(rendered, "test.cgp:3:1: warning[W0503]: unknown key `scale_1`; ignored\n");
}

#[test]
fn scale_keys_without_a_type_are_ignored() {
    let (p, d) = with_warnings("shaders = 2\nshader0 = a.cg\nscale0 = 2.0\nscale_y0 = 3\nshader1 = b.cg\n");
    assert_eq!(d, [(codes::W_PRESET_SCALE_IGNORED, 3, 1)]);
    assert_eq!(p.passes[0].scale, None);
    assert_eq!(p.passes[0].ignored_scale_keys, ["scale0", "scale_y0"]);
    let w = write_slangp_with_notes(&p, &["a.slang".into(), "b.slang".into()], &[]);
    assert!(!w.text.contains("scale"), "{}", w.text);
    assert_eq!(w.notes, [WriteNote::ScaleKeysIgnored { pass: 0, keys: vec!["scale0".into(), "scale_y0".into()] }]);
}

#[test]
fn scale_type_overrides_axes_and_scale_beats_axis_factors() {
    let (p, d) = with_warnings(
        "shaders = 4\nshader0 = a.cg\nshader1 = b.cg\nshader2 = c.cg\nshader3 = d.cg\n\
         scale_type0 = viewport\nscale_type_x0 = absolute\nscale_x0 = 0.5\n\
         scale_type_x1 = absolute\nscale_x1 = 256.9\nscale_y1 = 2\n\
         scale_type_y2 = viewport\nscale2 = 3\nscale_y2 = 7\n\
         scale_type3 = absolute\nscale_x3 = 320\n",
    );
    let s = |i: usize| p.passes[i].scale;
    assert_eq!(s(0), Some(Scale { x: (ScaleType::Viewport, 0.5), y: (ScaleType::Viewport, 1.0) }));
    assert_eq!(
        s(1),
        Some(Scale { x: (ScaleType::Absolute, 256.0), y: (ScaleType::Source, 2.0) }),
        "absolute as integer; untyped axis is source"
    );
    assert_eq!(
        s(2),
        Some(Scale { x: (ScaleType::Source, 3.0), y: (ScaleType::Viewport, 3.0) }),
        "scale2 beats scale_y2"
    );
    assert_eq!(
        s(3),
        Some(Scale { x: (ScaleType::Absolute, 320.0), y: (ScaleType::Absolute, 0.0) }),
        "RetroArch leaves 0 px"
    );
    assert_eq!(p.passes[0].ignored_scale_keys, ["scale_type_x0"]);
    assert_eq!(p.passes[2].ignored_scale_keys, ["scale_y2"]);
    let codes: Vec<_> = d.iter().map(|d| d.0).collect();
    assert_eq!(codes, [codes::W_PRESET_SCALE_IGNORED, codes::W_PRESET_SCALE_IGNORED, codes::W_PRESET_BAD_VALUE]);
}

#[test]
fn lut_keys() {
    let p = ok("shaders = 1\nshader0 = a.cg\ntextures = \"A;B;C\"\nA = \"a dir\\a.png\"\nA_linear = false\nA_wrap_mode = mirrored_repeat\n\
                B = b.png\nB_mipmap = 1\nC = ../c.png\nC_wrap_mode = clamp_to_edge\n");
    let l: Vec<_> = p.textures.iter().map(|l| (l.name.as_str(), l.linear, l.wrap_mode, l.mipmap)).collect();
    assert_eq!(
        l,
        [
            ("A", Some(false), Some(WrapMode::MirroredRepeat), false),
            ("B", None, None, true),
            ("C", None, Some(WrapMode::ClampToEdge), false)
        ]
    );
    assert_eq!(p.textures[0].resolved, PathBuf::from("a dir/a.png"), "backslashes conformed");
    assert_eq!(p.textures[0].path, PathBuf::from("a dir\\a.png"), "kept as written");
}

#[test]
fn parameters_listed_unlisted_and_missing() {
    let (p, d) = with_warnings("shaders = 1\nshader0 = a.cg\nparameters = \"A;B;A\"\nA = 0.5\nC = 2\n");
    assert_eq!(p.parameters, [("A".to_owned(), 0.5)]);
    assert_eq!(p.unlisted_values, [("C".to_owned(), 2.0)]);
    assert_eq!(d, [(codes::W_PRESET_PARAMETER, 5, 1), (codes::W_PRESET_PARAMETER, 3, 14)]);
    let w = write_slangp_with_notes(&p, &["a.slang".into()], &[]);
    assert!(w.text.ends_with("parameters = \"A\"\nA = 0.5\n"), "{}", w.text);
    assert_eq!(w.notes, [WriteNote::UnlistedValuesDropped(vec!["C".into()])]);
}

#[test]
fn feedback_pass_is_kept_in_the_model_and_dropped_by_the_writer() {
    let p = ok("shaders = 2\nshader0 = a.cg\nshader1 = b.cg\nfeedback_pass = 0\n");
    assert_eq!(p.feedback_pass, Some(0));
    let w = write_slangp_with_notes(&p, &["a.slang".into(), "b.slang".into()], &[]);
    assert!(!w.text.contains("feedback"), "{}", w.text);
    assert_eq!(w.notes, [WriteNote::FeedbackPassDropped(0)]);
    let (p, d) = with_warnings("shaders = 2\nshader0 = a.cg\nshader1 = b.cg\nfeedback_pass = 2\n");
    assert_eq!((p.feedback_pass, d), (None, vec![(codes::W_PRESET_BAD_VALUE, 4, 17)]));
    assert_eq!(ok("shaders = 1\nshader0 = a.cg\nfeedback_pass = -1\n").feedback_pass, None);
}

fn fs(files: &[(&str, &str)]) -> MemoryFs {
    let mut fs = MemoryFs::new();
    for (p, t) in files {
        fs.insert(*p, *t);
    }
    fs
}

/// Loads `path` from `fs`: the preset, the diagnostics located and as they are.
fn load_in(fs: &MemoryFs, path: &str) -> (Option<Preset>, Vec<At>, Vec<Diagnostic>) {
    let mut sources = SourceMap::new();
    let (p, d) = load_cgp(&mut sources, Path::new(path), fs);
    (p, located(&sources, &d), d)
}

#[test]
fn reference_chain_overrides_parameters_and_lut_paths() {
    let fs = fs(&[
        (
            "shaders/crt/root.cgp",
            "shaders = 2\nshader0 = a.cg\nshader1 = b.cg\ntextures = \"MASK;NOISE\"\nMASK = mask.png\nMASK_linear = true\nNOISE = noise.png\n\
             parameters = \"GAMMA;SHARP\"\nGAMMA = 2.2\nSHARP = 1.0\n",
        ),
        ("shaders/presets/mid.cgp", "#reference \"../crt/root.cgp\"\nGAMMA = 2.4\nMASK = \"masks/other.png\"\nEXTRA = 3\n"),
        ("shaders/presets/user/top.cgp", "#reference ../mid.cgp\nSHARP = 0.25\nGAMMA = 2.5\nfilter_linear0 = true\n"),
        // The files the loaded preset names must exist (preset::files).
        ("shaders/crt/a.cg", ""),
        ("shaders/crt/b.cg", ""),
        ("shaders/presets/masks/other.png", ""),
        ("shaders/crt/noise.png", ""),
    ]);
    let (p, d, _) = load_in(&fs, "shaders/presets/user/top.cgp");
    let Some(p) = p else { panic!("{d:?}") };
    assert_eq!(p.path, PathBuf::from("shaders/presets/user/top.cgp"));
    assert_eq!(p.root, PathBuf::from("shaders/crt/root.cgp"));
    assert_eq!(p.references, [PathBuf::from("shaders/presets/mid.cgp"), PathBuf::from("shaders/presets/user/top.cgp")]);
    assert_eq!(p.passes[0].shader_resolved, PathBuf::from("shaders/crt/a.cg"), "passes resolve against the root");
    assert_eq!(p.passes[0].filter_linear, None, "a referencing preset cannot change passes");
    assert_eq!(p.textures[0].path, PathBuf::from("masks/other.png"));
    assert_eq!(
        p.textures[0].resolved,
        PathBuf::from("shaders/presets/masks/other.png"),
        "relative to the overriding preset"
    );
    assert_eq!(p.textures[0].linear, Some(true), "LUT settings stay the root's");
    assert_eq!(p.textures[1].resolved, PathBuf::from("shaders/crt/noise.png"));
    assert_eq!(p.parameters, [("GAMMA".to_owned(), 2.5), ("SHARP".to_owned(), 0.25), ("EXTRA".to_owned(), 3.0)]);
    assert_eq!(d, [(codes::W_PRESET_NOT_OVERRIDABLE, 4, 1)], "filter_linear0 in top.cgp");
}

#[test]
fn reference_cycles_show_the_chain() {
    let fs = fs(&[("p/a.cgp", "#reference \"b.cgp\"\n"), ("p/b.cgp", "#reference \"sub/../a.cgp\"\n")]);
    let (p, d, diags) = load_in(&fs, "p/a.cgp");
    assert!(p.is_none());
    assert_eq!(d, [(codes::E_PRESET_REFERENCE_CYCLE, 1, 12)]);
    assert_eq!(diags[0].notes, ["chain: p/a.cgp -> p/b.cgp -> p/a.cgp"]);
    let fs = fs_self();
    let (_, d, _) = load_in(&fs, "self.cgp");
    assert_eq!(d, [(codes::E_PRESET_REFERENCE_CYCLE, 1, 12)]);
}

fn fs_self() -> MemoryFs {
    fs(&[("self.cgp", "#reference \"self.cgp\"\nshaders = 1\nshader0 = a.cg\n")])
}

#[test]
fn reference_depth_is_limited_to_sixteen() {
    let mut files: Vec<(String, String)> =
        (0..17).map(|i| (format!("r{i}.cgp"), format!("#reference \"r{}.cgp\"\n", i + 1))).collect();
    files.push(("r17.cgp".into(), "shaders = 1\nshader0 = a.cg\n".into()));
    files.push(("a.cg".into(), String::new()));
    let mut memory = MemoryFs::new();
    for (p, t) in &files {
        memory.insert(p.as_str(), t.as_str());
    }
    let (p, d, _) = load_in(&memory, "r0.cgp");
    assert!(p.is_none());
    assert_eq!(d, [(codes::E_PRESET_REFERENCE_DEPTH, 1, 12)]);
    // Sixteen links are fine.
    let (p, d, _) = load_in(&memory, "r1.cgp");
    assert!(p.is_some(), "{d:?}");
    assert_eq!(p.map(|p| p.references.len()), Some(16));
}

#[test]
fn reference_errors_as_in_retroarch() {
    let fs = fs(&[
        ("root.cgp", "shaders = 1\nshader0 = a.cg\n"),
        ("other.cgp", "shaders = 1\nshader0 = b.cg\n"),
        ("params.cgp", "X = 1\n"),
        ("two.cgp", "#reference root.cgp\n#reference params.cgp\n#reference other.cgp\n"),
        ("empty.cgp", "#reference params.cgp\n"),
        ("missing.cgp", "#reference nowhere.cgp\n"),
    ]);
    let (_, d, _) = load_in(&fs, "two.cgp");
    assert_eq!(d, [(codes::E_PRESET_EXTRA_REFERENCE, 3, 12)]);
    let (_, d, _) = load_in(&fs, "empty.cgp");
    assert_eq!(d, [(codes::E_PRESET_NO_PASSES, 1, 1)]);
    let (_, d, _) = load_in(&fs, "missing.cgp");
    assert_eq!(d, [(codes::E_PRESET_IO, 1, 12)]);
    let (_, d, _) = load_in(&fs, "none.cgp");
    assert_eq!(d, [(codes::E_PRESET_IO, 0, 0)]);
}

#[test]
fn non_last_unscaled_float_pass_gets_an_explicit_source_scale() {
    let p = ok("shaders = 2\nshader0 = a.cg\nfloat_framebuffer0 = true\nshader1 = b.cg\nsrgb_framebuffer1 = true\n");
    let w = write_slangp_with_notes(&p, &["a.slang".into(), "b.slang".into()], &[]);
    assert_eq!(
        w.text,
        "shaders = 2\n\nshader0 = \"a.slang\"\nfloat_framebuffer0 = true\nscale_type0 = \"source\"\nscale0 = 1.0\n\n\
         shader1 = \"b.slang\"\nsrgb_framebuffer1 = true\n"
    );
    assert_eq!(w.notes, [WriteNote::ExplicitSourceScale { pass: 0 }]);
}

#[test]
fn float_beats_srgb_as_in_the_cg_runtime() {
    let p = ok("shaders = 2\nshader0 = a.cg\nsrgb_framebuffer0 = true\nfloat_framebuffer0 = true\n\
                scale_type0 = source\nshader1 = b.cg\n");
    let w = write_slangp_with_notes(&p, &["a.slang".into(), "b.slang".into()], &[]);
    assert_eq!(
        w.text,
        "shaders = 2\n\nshader0 = \"a.slang\"\nfloat_framebuffer0 = true\nscale_type0 = \"source\"\nscale0 = 1.0\n\n\
         shader1 = \"b.slang\"\n"
    );
    assert_eq!(w.notes, [WriteNote::SrgbBeatenByFloat { pass: 0 }]);
}

/// A preset in the shape of crt-royale's (written for this test): LUTs with mipmaps,
/// aliases, sRGB and float targets, per-axis viewport and absolute scales, comments.
const ROYALE_SHAPED: &str = r#"# A long comment block, as in the real preset.
# 1.) mask_triads_per_tile = (number of horizontal triads in the LUT)

shaders = "7"

textures = "mask_grille_small;mask_grille_large"
mask_grille_small = "shaders/masks/grille-64.png"
mask_grille_large = "shaders/masks/grille.png"
mask_grille_small_wrap_mode = "repeat"
mask_grille_large_wrap_mode = "repeat"
mask_grille_small_linear = "true"
mask_grille_large_linear = "true"
mask_grille_small_mipmap = "false"  # mipmaps break manual resizes
mask_grille_large_mipmap = "true"   # needed for hardware resizes

# Pass0: linearize.
shader0 = "shaders/src/first-pass-linearize.cg"
alias0 = "ORIG_LINEARIZED"
filter_linear0 = "false"
scale_type0 = "source"
scale0 = "1.0"
srgb_framebuffer0 = "true"

# Pass1: vertical scanlines.
shader1 = "shaders/src/scanlines-vertical.cg"
alias1 = "VERTICAL_SCANLINES"
filter_linear1 = "true"
scale_type_x1 = "source"
scale_x1 = "1.0"
scale_type_y1 = "viewport"
scale_y1 = "1.0"
srgb_framebuffer1 = "true"

# Pass2: absolute-size bloom approximation.
shader2 = "shaders/src/bloom-approx.cg"
alias2 = "BLOOM_APPROX"
filter_linear2 = "true"
scale_type2 = "absolute"
scale_x2 = "320"
scale_y2 = "240"
srgb_framebuffer2 = "true"

# Pass3: blur.
shader3 = "../blurs/blur9fast-vertical.cg"
filter_linear3 = "true"
scale_type3 = "source"
scale3 = "1.0"
srgb_framebuffer3 = "true"

# Pass4: mask resize.
shader4 = "shaders/src/mask-resize-vertical.cg"
filter_linear4 = "true"
scale_type_x4 = "absolute"
scale_x4 = "64"
scale_type_y4 = "viewport"
scale_y4 = "0.0625" # safe for >= 341.333 horizontal triads
mipmap_input4 = "true"
wrap_mode4 = "clamp_to_edge"

# Pass5: brightpass with float targets.
shader5 = "shaders/src/brightpass.cg"
filter_linear5 = "true"
scale_type5 = "viewport"
scale5 = "1.0"
float_framebuffer5 = "true"
frame_count_mod5 = "2"

# Pass6: final, no scale.
shader6 = "shaders/src/geometry-aa-last-pass.cg"
filter_linear6 = "true" # could just as well be nearest
mipmap_input6 = "true"

parameters = "crt_gamma;levels_contrast"
crt_gamma = "2.5"
levels_contrast = "1.0"
"#;

#[test]
fn royale_shaped_preset() {
    let p = ok(ROYALE_SHAPED);
    assert_eq!(p.passes.len(), 7);
    let aliases: Vec<_> = p.passes.iter().map(|p| p.alias.as_deref().unwrap_or("")).collect();
    assert_eq!(aliases, ["ORIG_LINEARIZED", "VERTICAL_SCANLINES", "BLOOM_APPROX", "", "", "", ""]);
    assert_eq!(p.passes[2].scale, Some(Scale { x: (ScaleType::Absolute, 320.0), y: (ScaleType::Absolute, 240.0) }));
    assert_eq!(p.passes[4].scale, Some(Scale { x: (ScaleType::Absolute, 64.0), y: (ScaleType::Viewport, 0.0625) }));
    assert_eq!(p.passes[6].scale, None);
    assert_eq!(p.passes[3].shader_resolved, PathBuf::from("../blurs/blur9fast-vertical.cg"));
    assert_eq!(p.textures.iter().map(|l| l.mipmap).collect::<Vec<_>>(), [false, true]);
    assert_eq!(p.pass_context(3).aliases[2], "BLOOM_APPROX");
}

/// The settings of a preset without spans and source paths, for comparisons across files.
fn settings(p: &Preset) -> String {
    let passes: Vec<String> = p
        .passes
        .iter()
        .map(|s| {
            format!(
                "{:?} {:?} {} {:?} {} {} {:?} {:?}",
                s.filter_linear,
                s.wrap_mode,
                s.mipmap_input,
                s.alias,
                s.float_framebuffer,
                s.srgb_framebuffer,
                s.scale,
                s.frame_count_mod
            )
        })
        .collect();
    let luts: Vec<String> =
        p.textures.iter().map(|l| format!("{} {:?} {:?} {}", l.name, l.linear, l.wrap_mode, l.mipmap)).collect();
    format!("{passes:#?}\n{luts:#?}\n{:?}", p.parameters)
}

#[test]
fn writer_round_trips_through_the_slangp_reader() {
    let p = ok(ROYALE_SHAPED);
    let shader_paths: Vec<String> = (0..7).map(|i| format!("shaders/pass{i}.slang")).collect();
    let lut_paths = vec!["masks/small.png".to_owned(), "masks/large.png".to_owned()];
    let w = write_slangp_with_notes(&p, &shader_paths, &lut_paths);
    assert!(w.notes.is_empty(), "{:?}", w.notes);
    let mut sources = SourceMap::new();
    let (back, d) = parse_slangp_str(&mut sources, "out.slangp", &w.text);
    assert!(d.is_empty(), "{}", render_short(&sources, &d));
    let Some(back) = back else { panic!("no preset") };
    assert_eq!(settings(&back), settings(&p));
    let shaders: Vec<String> = back.passes.iter().map(|s| s.shader.display().to_string()).collect();
    assert_eq!(shaders, shader_paths);
    let luts: Vec<String> = back.textures.iter().map(|l| l.path.display().to_string()).collect();
    assert_eq!(luts, lut_paths);
    // Writing again gives the same text.
    assert_eq!(write_slangp(&back, &shader_paths, &lut_paths), w.text);
}

#[test]
fn writer_output_is_the_house_style() {
    let p = ok(ROYALE_SHAPED);
    let shader_paths: Vec<String> = (0..7).map(|i| format!("p{i}.slang")).collect();
    let text = write_slangp(&p, &shader_paths, &["s.png".into(), "l.png".into()]);
    let expected = r#"shaders = 7

shader0 = "p0.slang"
filter_linear0 = false
alias0 = "ORIG_LINEARIZED"
srgb_framebuffer0 = true
scale_type0 = "source"
scale0 = 1.0

shader1 = "p1.slang"
filter_linear1 = true
alias1 = "VERTICAL_SCANLINES"
srgb_framebuffer1 = true
scale_type_x1 = "source"
scale_x1 = 1.0
scale_type_y1 = "viewport"
scale_y1 = 1.0

shader2 = "p2.slang"
filter_linear2 = true
alias2 = "BLOOM_APPROX"
srgb_framebuffer2 = true
scale_type2 = "absolute"
scale_x2 = 320
scale_y2 = 240

shader3 = "p3.slang"
filter_linear3 = true
srgb_framebuffer3 = true
scale_type3 = "source"
scale3 = 1.0

shader4 = "p4.slang"
filter_linear4 = true
wrap_mode4 = "clamp_to_edge"
mipmap_input4 = true
scale_type_x4 = "absolute"
scale_x4 = 64
scale_type_y4 = "viewport"
scale_y4 = 0.0625

shader5 = "p5.slang"
filter_linear5 = true
float_framebuffer5 = true
scale_type5 = "viewport"
scale5 = 1.0
frame_count_mod5 = 2

shader6 = "p6.slang"
filter_linear6 = true
mipmap_input6 = true

textures = "mask_grille_small;mask_grille_large"
mask_grille_small = "s.png"
mask_grille_small_linear = true
mask_grille_small_wrap_mode = "repeat"
mask_grille_large = "l.png"
mask_grille_large_linear = true
mask_grille_large_wrap_mode = "repeat"
mask_grille_large_mipmap = true

parameters = "crt_gamma;levels_contrast"
crt_gamma = 2.5
levels_contrast = 1.0
"#;
    assert_eq!(text, expected);
}

#[test]
fn never_panics_on_generated_presets() {
    let pieces = [
        "shaders = 3",
        "shaders = 0",
        "shaders = 99",
        "shader0 = a.cg",
        "shader1 = \"b",
        "shader2=c",
        "scale_type0 = viewport",
        "scale_type_x1 = absolute",
        "scale1 = 1e40",
        "scale_y2 = nan",
        "textures = \"A;;B\"",
        "A = a.png",
        "B_linear = TRUE",
        "parameters = \"P\"",
        "P = x",
        "#reference \"x.cgp\"",
        "# comment",
        "",
        "\u{feff}",
        "\r",
        "frame_count_mod0 = 0xffffffffff",
        "alias0 = \"#\"",
        "wrap_mode1 = edge",
        "feedback_pass = 99999999999",
        "= =",
        "\"\" = \"\"",
    ];
    let mut seed = 0x2545_f491_u64;
    for _ in 0..300 {
        let mut text = String::new();
        for _ in 0..12 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            text.push(if seed & 1 == 0 { '\n' } else { '\r' });
        }
        let (p, _, _) = cgp(&text);
        if let Some(p) = p {
            let _ = write_slangp_with_notes(&p, &[], &[]);
        }
    }
}

#[test]
fn files_a_preset_names_must_be_readable_cg_files() {
    let preset = "shaders = 2\nshader0 = a.cg\nshader1 = b.cg\ntextures = L\nL = l.png\n";
    let ok = fs(&[("p.cgp", preset), ("a.cg", ""), ("b.cg", ""), ("l.png", "")]);
    let (p, d, _) = load_in(&ok, "p.cgp");
    assert!(p.is_some() && d.is_empty(), "{d:?}");
    let missing = fs(&[("p.cgp", preset), ("a.cg", "")]);
    let (p, d, _) = load_in(&missing, "p.cgp");
    assert!(p.is_none());
    assert_eq!(d, [(codes::E_PRESET_FILE_UNREADABLE, 3, 11), (codes::E_PRESET_FILE_UNREADABLE, 5, 5)]);
    let not_cg = fs(&[("p.cgp", "shaders = 1\nshader0 = /etc/passwd\n")]);
    let (p, d, _) = load_in(&not_cg, "p.cgp");
    assert!(p.is_none());
    assert_eq!(d, [(codes::E_PRESET_SHADER_KIND, 2, 11)]);
}
