//! Unit tests of the value layer: every key kind, booleans, lists, typo hints, C numbers,
//! and the diagnostics of bad values.

use super::*;
use crate::codes;
use crate::preset::token::tokenize;
use grammar::FileId;

fn read(text: &str, ctx: Context<'_>) -> (Vec<Value>, Vec<(&'static str, String)>) {
    let v = values(&tokenize(FileId(0), text), ctx);
    (v.items.into_iter().map(|l| l.value).collect(), v.diagnostics.into_iter().map(|d| (d.code, d.message)).collect())
}

fn cgp(text: &str) -> (Vec<Value>, Vec<(&'static str, String)>) {
    read(text, Context::root(Dialect::Cgp))
}

fn codes(d: &[(&'static str, String)]) -> Vec<&'static str> {
    d.iter().map(|(c, _)| *c).collect()
}

#[test]
fn every_pass_key() {
    let text = "shaders = 1\nshader0 = a.cg\nfilter_linear0 = true\nwrap_mode0 = repeat\nmipmap_input0 = 1\nalias0 = X\n\
                float_framebuffer0 = false\nsrgb_framebuffer0 = 0\nscale_type0 = viewport\nscale_type_x0 = source\n\
                scale_type_y0 = absolute\nscale0 = 2\nscale_x0 = 0x10\nscale_y0 = 0.5\nframe_count_mod0 = 010\nfeedback_pass = -1\n";
    let (v, d) = cgp(text);
    assert!(d.is_empty(), "{d:?}");
    let f = |float: f32, int: i64| Factor { float, int };
    assert_eq!(
        v,
        [
            Value::Shaders(1),
            Value::Shader(0, "a.cg".into()),
            Value::FilterLinear(0, true),
            Value::WrapMode(0, WrapMode::Repeat),
            Value::MipmapInput(0, true),
            Value::Alias(0, "X".into()),
            Value::FloatFramebuffer(0, false),
            Value::SrgbFramebuffer(0, false),
            Value::ScaleType(0, ScaleType::Viewport),
            Value::ScaleTypeX(0, ScaleType::Source),
            Value::ScaleTypeY(0, ScaleType::Absolute),
            Value::Scale(0, f(2.0, 2)),
            Value::ScaleX(0, f(16.0, 16)),
            Value::ScaleY(0, f(0.5, 0)),
            Value::FrameCountMod(0, 8),
            Value::FeedbackPass(-1),
        ]
    );
}

#[test]
fn booleans() {
    let (v, d) = cgp("filter_linear0 = TRUE\nfilter_linear1 = False\nfilter_linear2 = yes\nfilter_linear3 = \"\"\nmipmap_input0 = \"true\"\n");
    assert_eq!(v, [Value::FilterLinear(0, true), Value::FilterLinear(1, false), Value::MipmapInput(0, true)]);
    assert_eq!(codes(&d), [codes::W_PRESET_BAD_VALUE; 4]);
    assert!(d[0].1.contains("read as true"), "{d:?}");
    assert!(d[2].1.contains("expected `true`"), "{d:?}");
}

#[test]
fn luts_and_parameters() {
    let text = "textures = \"A;;B\"\nA = a.png\nA_linear = false\nA_wrap_mode = mirrored_repeat\nA_mipmap = true\nB = \"b c.png\"\n\
                parameters = \"P;Q\"\nP = 0.25\nQ = 3\nR = 1.5\nC_linear = true\n";
    let (v, d) = cgp(text);
    assert_eq!(
        v,
        [
            Value::Textures(vec!["A".into(), "B".into()]),
            Value::LutPath("A".into(), "a.png".into()),
            Value::LutLinear("A".into(), false),
            Value::LutWrapMode("A".into(), WrapMode::MirroredRepeat),
            Value::LutMipmap("A".into(), true),
            Value::LutPath("B".into(), "b c.png".into()),
            Value::Parameters(vec!["P".into(), "Q".into()]),
            Value::ParameterValue("P".into(), 0.25),
            Value::ParameterValue("Q".into(), 3.0),
            Value::UnlistedValue("R".into(), 1.5),
        ]
    );
    assert_eq!(codes(&d), [codes::W_PRESET_PARAMETER, codes::W_PRESET_UNKNOWN_KEY]);
    assert!(d[1].1.contains("C_linear"));
    // In a .slangp (current RetroArch) any numeric key may be a parameter.
    let (v, d) = read("R = 1.5\n", Context::root(Dialect::Slangp));
    assert_eq!((v, d.len()), (vec![Value::ParameterValue("R".into(), 1.5)], 0));
}

#[test]
fn typos_get_hints() {
    let tokens = tokenize(FileId(0), "scale_1 = 2.0\nScale0 = 1\nfilter_liner0 = true\nscale = 2\nshader01 = a.cg\ntexture = \"A\"\nrepeat_mode0 = repeat\n");
    let v = values(&tokens, Context::root(Dialect::Cgp));
    assert!(v.items.is_empty(), "{:?}", v.items);
    let hints: Vec<_> = v.diagnostics.iter().map(|d| (d.code, d.notes.join(" "))).collect();
    assert!(hints.iter().all(|(c, _)| *c == codes::W_PRESET_UNKNOWN_KEY), "{hints:?}");
    let notes: Vec<_> = hints.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        notes,
        [
            "did you mean `scale1`?",
            "keys are case-sensitive: did you mean `scale0`?",
            "did you mean `filter_linear0`?",
            "per-pass keys need the pass number: `scale0`, `scale1`, ...",
            "RetroArch looks for `shader1`, without leading zeros",
            "did you mean `textures`?",
            "RetroArch spells it `wrap_mode0`",
        ]
    );
}

#[test]
fn numbers_read_like_c() {
    assert_eq!(strtod("1.5x"), Some((1.5, 3)));
    assert_eq!(strtod(" -.5e1"), Some((-5.0, 6)));
    assert_eq!(strtod("1e"), Some((1.0, 1)));
    assert_eq!(strtod("0x1p4"), Some((16.0, 5)));
    assert_eq!(strtod("abc"), None);
    assert_eq!(strtod("."), None);
    assert_eq!(strtol("0x1F"), Some((31, 4)));
    assert_eq!(strtol("017"), Some((15, 3)));
    assert_eq!(strtol("-3"), Some((-3, 2)));
    assert_eq!(strtol("0"), Some((0, 1)));
    assert_eq!(strtol("09"), Some((0, 1)), "octal stops at 9");
    assert_eq!(strtoul("99999999999999999999999"), Some((u64::MAX, 23, false)));
    assert_eq!(strtoul("x"), None);
}

#[test]
fn malformed_numbers_warn_and_keep_going() {
    let (v, d) =
        cgp("scale0 = 2.0x\nscale1 = big\nframe_count_mod0 = -2\nframe_count_mod1 = 3.5\nfeedback_pass = one\n");
    assert_eq!(v, [Value::Scale(0, Factor { float: 2.0, int: 2 }), Value::FrameCountMod(1, 3)]);
    assert_eq!(codes(&d), [codes::W_PRESET_BAD_VALUE; 5]);
}

#[test]
fn shaders_errors() {
    for (text, code) in [
        ("shaders = 0\n", codes::E_PRESET_NO_PASSES),
        ("shaders = many\n", codes::E_PRESET_NO_PASSES),
        ("shaders = 27\n", codes::E_PRESET_PASS_COUNT),
        ("shaders = -1\n", codes::E_PRESET_PASS_COUNT),
    ] {
        let (_, d) = cgp(text);
        assert_eq!(codes(&d), [code], "{text}");
    }
    let (v, d) = cgp("shaders = \"26\"\n");
    assert_eq!((v, d.len()), (vec![Value::Shaders(26)], 0));
}

#[test]
fn scale_types_and_wrap_modes() {
    let (v, d) = cgp(
        "scale_type0 = Source\nscale_type1 = original\nscale_type2 = \"\"\nwrap_mode0 = border\nwrap_mode1 = REPEAT\n",
    );
    assert!(v.is_empty(), "{v:?}");
    assert_eq!(
        codes(&d),
        [
            codes::E_PRESET_SCALE_TYPE,
            codes::E_PRESET_SCALE_TYPE,
            codes::W_PRESET_BAD_VALUE,
            codes::W_PRESET_BAD_VALUE,
            codes::W_PRESET_BAD_VALUE
        ]
    );
}

#[test]
fn duplicates_keep_the_first() {
    let (v, d) = cgp("shader0 = a.cg\nshader0 = b.cg\n");
    assert_eq!(v, [Value::Shader(0, "a.cg".into())]);
    assert_eq!(codes(&d), [codes::W_PRESET_DUPLICATE]);
}

#[test]
fn override_files_see_the_root_luts() {
    let luts = vec!["mask".to_owned()];
    let ctx = Context { dialect: Dialect::Cgp, overrides: Some(&luts) };
    let (v, d) = read("#reference \"root.cgp\"\nmask = other.png\nGAMMA = 2.2\n", ctx);
    assert_eq!(
        v,
        [
            Value::Reference("root.cgp".into()),
            Value::LutPath("mask".into(), "other.png".into()),
            Value::ParameterValue("GAMMA".into(), 2.2)
        ]
    );
    assert!(d.is_empty(), "{d:?}");
}
