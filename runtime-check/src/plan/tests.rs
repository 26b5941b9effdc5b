use super::*;

fn scale(tx: ScaleType, fx: f32, ty: ScaleType, fy: f32) -> Option<Scale> {
    Some(Scale { x: (tx, fx), y: (ty, fy) })
}

fn uniform(t: ScaleType, f: f32) -> Option<Scale> {
    scale(t, f, t, f)
}

fn pass(scale: Option<Scale>) -> PassSpec {
    PassSpec { scale, ..PassSpec::default() }
}

fn spec(passes: Vec<PassSpec>) -> ChainSpec {
    ChainSpec { passes, luts: Vec::new(), runtime: Runtime::Slang }
}

fn plan_ok(spec: &ChainSpec, frame: &Frame) -> ChainPlan {
    match plan(spec, frame) {
        Ok(p) => p,
        Err(e) => panic!("{e:?}"),
    }
}

const VIEWPORT: Size = Size::new(1920, 1080);

#[test]
fn odd_source_sizes_round_to_nearest() {
    let s = spec(vec![
        pass(uniform(ScaleType::Source, 1.5)),
        pass(uniform(ScaleType::Source, 0.5)),
        pass(scale(ScaleType::Source, 3.0, ScaleType::Source, 1.0 / 3.0)),
    ]);
    let sizes = pass_sizes(&s, Size::new(255, 223), VIEWPORT);
    // 382.5 -> 383, 334.5 -> 335 (half away from zero, like roundf).
    assert_eq!(sizes[0], Size::new(383, 335));
    // 191.5 -> 192, 167.5 -> 168.
    assert_eq!(sizes[1], Size::new(192, 168));
    // 576, 56.
    assert_eq!(sizes[2], Size::new(576, 56));
}

#[test]
fn viewport_and_absolute_scales() {
    let s = spec(vec![
        pass(uniform(ScaleType::Viewport, 0.333)),
        pass(scale(ScaleType::Absolute, 320.0, ScaleType::Viewport, 0.5)),
        pass(uniform(ScaleType::Absolute, 7.0)),
    ]);
    let sizes = pass_sizes(&s, Size::new(256, 224), VIEWPORT);
    // 639.36 -> 639, 359.64 -> 360.
    assert_eq!(sizes, vec![Size::new(639, 360), Size::new(320, 540), Size::new(7, 7)]);
}

#[test]
fn sizes_are_clamped() {
    let s = spec(vec![pass(uniform(ScaleType::Source, 100.0)), pass(uniform(ScaleType::Absolute, 0.0)), pass(None)]);
    let sizes = pass_sizes(&s, Size::new(200, 3), Size::new(5, 5));
    assert_eq!(sizes[0], Size::new(MAX_SIZE, 300));
    assert_eq!(sizes[1], Size::new(1, 1));
    assert_eq!(sizes[2], Size::new(5, 5));
    assert_eq!(scaled(ScaleType::Source, f32::NAN, 10, 10), 1);
    assert_eq!(scaled(ScaleType::Source, -2.0, 10, 10), 1);
}

#[test]
fn unscaled_passes_are_source_x1_and_the_last_is_the_viewport() {
    let s = spec(vec![pass(None), pass(uniform(ScaleType::Source, 2.0)), pass(None), pass(None)]);
    let p = plan_ok(&s, &Frame::first(Size::new(101, 77), VIEWPORT));
    let sizes: Vec<Size> = p.passes.iter().map(|p| p.output_size).collect();
    assert_eq!(sizes, vec![Size::new(101, 77), Size::new(202, 154), Size::new(202, 154), VIEWPORT]);
    assert_eq!(p.passes[3].target, Target::Viewport);
    assert_eq!(p.passes[3].quad, Quad::Final);
    assert_eq!(p.passes[3].mvp, ORTHO);
    assert_eq!(p.passes[2].target, Target::Framebuffer);
    assert_eq!(p.passes[2].mvp, IDENTITY);
    assert_eq!(p.stretch, None);
    assert!(p.passes.iter().all(|p| p.final_viewport == VIEWPORT));
}

#[test]
fn a_scaled_last_pass_renders_to_a_framebuffer_then_a_stretch() {
    let s = spec(vec![pass(None), pass(uniform(ScaleType::Source, 3.0))]);
    let p = plan_ok(&s, &Frame::first(Size::new(64, 50), Size::new(640, 480)));
    assert_eq!(p.passes[1].output_size, Size::new(192, 150));
    assert_eq!(p.passes[1].target, Target::Framebuffer);
    assert_eq!(p.passes[1].mvp, IDENTITY);
    let stretch = p.stretch.expect("stretch pass");
    assert_eq!(stretch.input.resource, Resource::PassOutput(1));
    assert_eq!(stretch.input.size, Size::new(192, 150));
    assert_eq!(stretch.output_size, Size::new(640, 480));
    assert_eq!(stretch.input.sampling.wrap, WrapMode::ClampToEdge);
    assert_eq!(stretch.input.sampling.filter, Filter::Nearest);
    assert_eq!(stretch.quad.mvp(), ORTHO);
}

#[test]
fn single_unscaled_pass_draws_to_the_viewport() {
    let s = spec(vec![pass(None)]);
    let p = plan_ok(&s, &Frame::first(Size::new(3, 3), Size::new(9, 4)));
    assert_eq!(p.passes[0].output_size, Size::new(9, 4));
    assert_eq!(p.passes[0].source, Resource::Original);
    assert_eq!(p.passes[0].source().map(|t| t.size), Some(Size::new(3, 3)));
}

#[test]
fn frame_count_mod() {
    let mut a = pass(uniform(ScaleType::Source, 1.0));
    a.frame_count_mod = Some(4);
    let mut b = pass(None);
    b.frame_count_mod = Some(0);
    let s = spec(vec![a, b]);
    let mut frame = Frame::first(Size::new(8, 8), Size::new(8, 8));
    frame.index = 10;
    frame.direction = -1;
    let p = plan_ok(&s, &frame);
    assert_eq!(p.passes[0].frame_count, 2);
    assert_eq!(p.passes[1].frame_count, 10);
    assert!(p.passes.iter().all(|p| p.frame_direction == -1));
    frame.index = 12;
    assert_eq!(plan_ok(&s, &frame).passes[0].frame_count, 0);
}

#[test]
fn samplers_come_from_the_consuming_pass() {
    let mk = |filter, wrap, mip| PassSpec {
        filter,
        wrap,
        mipmap_input: mip,
        scale: uniform(ScaleType::Source, 1.0),
        ..PassSpec::default()
    };
    let mut s = spec(vec![
        mk(Filter::Linear, WrapMode::Repeat, false),
        mk(Filter::Nearest, WrapMode::MirroredRepeat, true),
        mk(Filter::Linear, WrapMode::ClampToEdge, false),
    ]);
    s.passes[2].reads = vec![Resource::PassOutput(0), Resource::Feedback(0), Resource::History(2)];
    let p = plan_ok(&s, &Frame::first(Size::new(10, 10), Size::new(20, 20)));
    let pass2 = &p.passes[2];
    // PassOutput0 is sampled with pass 1's settings (pass 1 mip-maps its input).
    let po0 = pass2.read(Resource::PassOutput(0)).expect("PassOutput0");
    assert_eq!(po0.sampling, Sampling { filter: Filter::Nearest, wrap: WrapMode::MirroredRepeat, mipmap: true });
    // Source of pass 2 = PassOutput1 with pass 2's settings.
    assert_eq!(pass2.source, Resource::PassOutput(1));
    let src = pass2.source().expect("source");
    assert_eq!(src.sampling, Sampling { filter: Filter::Linear, wrap: WrapMode::ClampToEdge, mipmap: false });
    // Original and history: pass 0's.
    for r in [Resource::Original, Resource::History(1), Resource::History(2)] {
        let t = pass2.read(r).expect("history");
        assert_eq!(t.sampling, Sampling { filter: Filter::Linear, wrap: WrapMode::Repeat, mipmap: false }, "{r:?}");
    }
    // Feedback: the pass's own filter and wrap.
    let fb = pass2.read(Resource::Feedback(0)).expect("feedback");
    assert_eq!((fb.sampling.filter, fb.sampling.wrap), (Filter::Linear, WrapMode::Repeat));
    assert!(p.passes[0].mipmapped);
    assert!(!p.passes[1].mipmapped);
    // Pass 0 cannot read PassOutput0.
    assert!(p.passes[0].read(Resource::PassOutput(0)).is_none());
}

#[test]
fn history_depth_feedback_and_clearing() {
    let mut s = spec(vec![pass(uniform(ScaleType::Source, 2.0)), pass(None)]);
    s.passes[1].reads = vec![Resource::History(3), Resource::Feedback(0), Resource::History(1)];
    let mut frame = Frame::first(Size::new(10, 12), Size::new(40, 40));
    let p = plan_ok(&s, &frame);
    assert_eq!(p.history_depth, 3);
    assert_eq!(p.feedback, vec![0]);
    let cleared = |p: &ChainPlan, r| p.passes[1].read(r).map(|t| t.cleared);
    assert_eq!(cleared(&p, Resource::History(1)), Some(true));
    assert_eq!(cleared(&p, Resource::Feedback(0)), Some(true));
    frame.index = 2;
    frame.previous_inputs = vec![Size::new(5, 6), Size::new(7, 8)];
    let p = plan_ok(&s, &frame);
    assert_eq!(cleared(&p, Resource::History(1)), Some(false));
    assert_eq!(cleared(&p, Resource::History(2)), Some(false));
    assert_eq!(cleared(&p, Resource::History(3)), Some(true));
    assert_eq!(cleared(&p, Resource::Feedback(0)), Some(false));
    assert_eq!(p.passes[1].read(Resource::History(2)).map(|t| t.size), Some(Size::new(7, 8)));
    // Feedback holds the previous frame's output: input 5x6 scaled x2.
    assert_eq!(p.passes[1].read(Resource::Feedback(0)).map(|t| t.size), Some(Size::new(10, 12)));
    assert_eq!(p.passes[1].read(Resource::PassOutput(0)).map(|t| t.size), Some(Size::new(20, 24)));
}

#[test]
fn read_errors() {
    let mut s = spec(vec![pass(None), pass(None)]);
    s.passes[0].reads = vec![Resource::PassOutput(0), Resource::Lut(0), Resource::History(MAX_HISTORY)];
    s.passes[1].reads = vec![Resource::Feedback(1), Resource::Feedback(5)];
    let errors = plan(&s, &Frame::first(Size::new(1, 1), Size::new(1, 1))).expect_err("errors");
    assert_eq!(
        errors,
        vec![
            PlanError::NonCausal { pass: 0, n: 0 },
            PlanError::NoSuchLut { pass: 0, i: 0 },
            PlanError::HistoryTooDeep { pass: 0, k: MAX_HISTORY },
            PlanError::FinalPassFeedback { pass: 1, n: 1 },
            PlanError::NoSuchPass { pass: 1, n: 5 },
        ]
    );
    assert_eq!(errors[3].code(), crate::codes::E_CHAIN_FINAL_FEEDBACK);
    // With a scale type the last pass renders to a framebuffer and can be feedback.
    s.passes[0].reads.clear();
    s.passes[1].reads = vec![Resource::Feedback(1)];
    s.passes[1].scale = uniform(ScaleType::Viewport, 1.0);
    assert_eq!(plan_ok(&s, &Frame::first(Size::new(1, 1), Size::new(1, 1))).feedback, vec![1]);
    assert_eq!(plan(&spec(vec![]), &Frame::first(Size::new(1, 1), Size::new(1, 1))), Err(vec![PlanError::NoPasses]));
    assert!(plan(&spec(vec![pass(None)]), &Frame::first(Size::new(0, 1), Size::new(1, 1))).is_err());
}

#[test]
fn formats() {
    let mut a = pass(uniform(ScaleType::Source, 1.0));
    a.float_framebuffer = true;
    a.srgb_framebuffer = true;
    let mut b = pass(uniform(ScaleType::Source, 1.0));
    b.float_framebuffer = true;
    b.format = Some(Format::R32Sfloat);
    let mut c = pass(uniform(ScaleType::Source, 1.0));
    c.format = Some(Format::R8Unorm);
    // No scale type: flags ignored, #pragma format honoured.
    let mut d = pass(None);
    d.float_framebuffer = true;
    d.format = Some(Format::R16G16Sfloat);
    let mut e = pass(None);
    e.float_framebuffer = true;
    // Last, unscaled: the output format whatever it asks.
    let mut f = pass(None);
    f.format = Some(Format::R32Sfloat);
    let mut s = spec(vec![a, b, c, d, e, f]);
    let formats = |s: &ChainSpec| -> Vec<Format> {
        plan_ok(s, &Frame::first(Size::new(4, 4), Size::new(4, 4))).passes.iter().map(|p| p.format).collect()
    };
    assert_eq!(
        formats(&s),
        vec![
            Format::R8G8B8A8Srgb,
            Format::R16G16B16A16Sfloat,
            Format::R8Unorm,
            Format::R16G16Sfloat,
            Format::R8G8B8A8Unorm,
            Format::R8G8B8A8Unorm
        ]
    );
    // The Cg runtime: float (32-bit) beats sRGB, flags count without a scale type, and
    // Cg has no `#pragma format`.
    s.runtime = Runtime::Cg;
    assert_eq!(
        formats(&s),
        vec![
            Format::R32G32B32A32Sfloat,
            Format::R32G32B32A32Sfloat,
            Format::R8G8B8A8Unorm,
            Format::R32G32B32A32Sfloat,
            Format::R32G32B32A32Sfloat,
            Format::R8G8B8A8Unorm
        ]
    );
    for f in Format::ALL {
        assert_eq!(Format::parse(f.as_str()), Some(*f));
        assert!(crate::validate::stages::FORMATS.contains(&f.as_str()));
    }
    assert_eq!(Format::ALL.len(), crate::validate::stages::FORMATS.len());
}

#[test]
fn luts_keep_their_own_sampling() {
    let mut s = spec(vec![pass(None)]);
    let sampling = Sampling { filter: Filter::Linear, wrap: WrapMode::Repeat, mipmap: true };
    s.luts.push(LutSpec { name: "lut".into(), size: Size::new(16, 2), sampling });
    let p = plan_ok(&s, &Frame::first(Size::new(4, 4), Size::new(4, 4)));
    let t = p.passes[0].read(Resource::Lut(0)).expect("lut");
    assert_eq!((t.size, t.sampling), (Size::new(16, 2), sampling));
}

#[test]
fn from_preset_defaults() {
    let mut sources = grammar::SourceMap::new();
    let text = "shaders = 2\nshader0 = a.slang\nshader1 = b.slang\nfilter_linear1 = true\nwrap_mode1 = repeat\n\
                scale_type0 = viewport\nscale0 = 0.5\nalias0 = First\nframe_count_mod1 = 3\n\
                textures = \"L\"\nL = l.png\nL_wrap_mode = mirrored_repeat\n";
    let (preset, diags) = translator::preset::parse_slangp_str(&mut sources, "p.slangp", text);
    let Some(preset) = preset else { panic!("{diags:?}") };
    let s = ChainSpec::from_preset(&preset, &[Size::new(3, 5)], Runtime::Slang);
    assert_eq!(s.passes[0].filter, Filter::Nearest);
    assert_eq!(s.passes[0].wrap, WrapMode::ClampToBorder);
    assert_eq!(s.passes[1].filter, Filter::Linear);
    assert_eq!(s.passes[1].wrap, WrapMode::Repeat);
    assert_eq!(s.passes[1].frame_count_mod, Some(3));
    assert_eq!(s.aliases(), vec![Some("First".to_owned()), None]);
    assert_eq!(s.luts[0].size, Size::new(3, 5));
    assert_eq!(s.luts[0].sampling, Sampling { filter: Filter::Linear, wrap: WrapMode::MirroredRepeat, mipmap: false });
    let p = plan_ok(&s, &Frame::first(Size::new(10, 10), Size::new(101, 51)));
    assert_eq!(p.passes[0].output_size, Size::new(51, 26));
}

#[test]
fn slang_names() {
    let aliases = vec![Some("First".to_owned()), None, Some("Third".to_owned())];
    let luts = vec!["Mask".to_owned()];
    let t = |n: &str| slang_texture(n, 2, &aliases, &luts);
    assert_eq!(t("Source"), Some(Resource::PassOutput(1)));
    assert_eq!(slang_texture("Source", 0, &aliases, &luts), Some(Resource::Original));
    assert_eq!(t("Original"), Some(Resource::Original));
    assert_eq!(t("OriginalHistory0"), Some(Resource::Original));
    assert_eq!(t("OriginalHistory12"), Some(Resource::History(12)));
    assert_eq!(t("PassOutput1"), Some(Resource::PassOutput(1)));
    assert_eq!(t("PassFeedback2"), Some(Resource::Feedback(2)));
    assert_eq!(t("User0"), Some(Resource::Lut(0)));
    assert_eq!(t("First"), Some(Resource::PassOutput(0)));
    assert_eq!(t("ThirdFeedback"), Some(Resource::Feedback(2)));
    assert_eq!(t("Mask"), Some(Resource::Lut(0)));
    assert_eq!(t("Something"), None);
    // The index is read as RetroArch (and the validator) read it: C's strtoul.
    assert_eq!(t("PassOutput01"), Some(Resource::PassOutput(1)));
    assert_eq!(t("OriginalHistory0x2"), Some(Resource::History(2)));
    assert_eq!(t("PassFeedback"), Some(Resource::Feedback(0)));
    let s = |n: &str| slang_size(n, 2, &aliases, &luts);
    assert_eq!(s("SourceSize"), Some(Resource::PassOutput(1)));
    assert_eq!(s("OriginalSize"), Some(Resource::Original));
    assert_eq!(s("OriginalHistorySize3"), Some(Resource::History(3)));
    assert_eq!(s("PassOutputSize0"), Some(Resource::PassOutput(0)));
    assert_eq!(s("PassFeedbackSize1"), Some(Resource::Feedback(1)));
    assert_eq!(s("UserSize0"), Some(Resource::Lut(0)));
    assert_eq!(s("FirstSize"), Some(Resource::PassOutput(0)));
    assert_eq!(s("FirstFeedbackSize"), Some(Resource::Feedback(0)));
    assert_eq!(s("MaskSize"), Some(Resource::Lut(0)));
    assert_eq!(s("OutputSize"), None);
    assert_eq!(s("FinalViewportSize"), None);
    assert_eq!(s("PassOutput0Size"), None);
}

#[test]
fn size_helpers() {
    assert_eq!(Size::new(4, 2).vec4(), [4.0, 2.0, 0.25, 0.5]);
    assert_eq!(Size::new(1, 1).mip_levels(), 1);
    assert_eq!(Size::new(256, 3).mip_levels(), 9);
    assert_eq!(Size::new(255, 3).mip_levels(), 8);
}
