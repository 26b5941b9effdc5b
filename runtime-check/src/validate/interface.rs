//! The slang interface rules, checked on the reflected SPIR-V of both stages.
//!
//! These are the checks of RetroArch's `slang_reflect` / `add_active_buffer_ranges`
//! (gfx/drivers_shader/slang_process.cpp); each violation makes RetroArch refuse the
//! preset. RetroArch stops at the first; here every violation is reported, each with its
//! own code ([`crate::codes`]) and a message naming the member, sampler or binding:
//!
//! - vertex: exactly two inputs, at locations 0 and 1; fragment: one output, location 0;
//! - no storage buffers/images, subpass inputs, atomic counters, separate texture or
//!   sampler objects; no samplers in the vertex stage;
//! - at most one uniform buffer and one push-constant block per stage, in set 0, the
//!   uniform buffer at the same binding in both stages; push block at most 128 bytes;
//! - fragment samplers in set 0, bindings below 16 and unique (the uniform buffer's
//!   binding included), names that are texture semantics, pass aliases or LUT ids;
//! - every *active* member of a uniform or push block a known semantic, texture size or
//!   parameter of the preset, of the right type, and at the same offset in both stages;
//! - `PassOutputN` only for N below the current pass; history, feedback and LUT indices
//!   below RetroArch's bounds.
//!
//! Name lookup follows RetroArch: the pass aliases of passes `0..=pass` and the LUT ids
//! first, then a prefix match on the semantic names with the index read as C's
//! `strtoul(.., 0)` does (`PassOutputFoo` is pass 0). The names, their types and that
//! parser are the workspace's one vocabulary, `translator::retro::semantics`; the rules
//! here are this check's own.

use super::locate;
use super::reflect::{Base, Block, Reflection, ResourceKind, ValueType};
use super::stages::{Meta, Stages};
use super::{Issue, Place, Stage, ValidationContext};
use crate::codes;
use std::collections::{HashMap, HashSet};
use translator::retro::semantics::{self, BuiltinUniform, TextureSemantic, UniformType};

/// RetroArch's binding count (`SLANG_NUM_BINDINGS`).
pub const MAX_BINDINGS: u32 = 16;
/// Largest push-constant block RetroArch accepts, in bytes.
pub const MAX_PUSH_BYTES: u32 = 128;
/// Bounds of the arrayed texture semantics (`GFX_MAX_SHADERS`, `GFX_MAX_FRAME_HISTORY`,
/// `GFX_MAX_TEXTURES` of current RetroArch).
pub const MAX_PASS_FEEDBACK: u32 = 64;
pub const MAX_ORIGINAL_HISTORY: u32 = 128;
pub const MAX_USER: u32 = 64;

/// RetroArch's `validate_type_for_semantic`: whether a reflected member has the type
/// `expected`.
fn accepts(expected: UniformType, t: &ValueType) -> bool {
    if t.array || t.width != 32 || !matches!(t.base, Base::Float | Base::Int | Base::UInt) {
        return false;
    }
    let (base, vecsize, columns) = match expected {
        UniformType::Mat4 => (Base::Float, 4, 4),
        UniformType::Vec4 => (Base::Float, 4, 1),
        UniformType::Vec3 => (Base::Float, 3, 1),
        UniformType::Float => (Base::Float, 1, 1),
        UniformType::UInt => (Base::UInt, 1, 1),
        UniformType::Int => (Base::Int, 1, 1),
    };
    t.base == base && t.vecsize == vecsize && t.columns == columns
}

/// What a uniform or push member name means.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum UniformMeaning {
    Builtin(BuiltinUniform),
    Parameter(String),
    TextureSize(TextureSemantic, u32),
}

impl UniformMeaning {
    fn expected(&self) -> UniformType {
        match self {
            UniformMeaning::Builtin(b) => b.ty(),
            UniformMeaning::Parameter(_) => UniformType::Float,
            UniformMeaning::TextureSize(..) => UniformType::Vec4,
        }
    }
}

/// The names visible to one pass.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub pass: u32,
    parameters: HashSet<String>,
    /// Sampler names of aliases and LUTs.
    textures: HashMap<String, (TextureSemantic, u32)>,
    /// `<alias>Size`, `<alias>FeedbackSize`, `<lut>Size`.
    sizes: HashMap<String, (TextureSemantic, u32)>,
}

impl Names {
    /// The names of pass `ctx.pass`: aliases of passes `0..=pass` (this pass's own alias
    /// falls back to the file's `#pragma name`, as in RetroArch), LUTs, parameters of the
    /// file and of the rest of the preset.
    pub fn new(ctx: &ValidationContext<'_>, meta: &Meta) -> Names {
        let pass = u32::try_from(ctx.pass).unwrap_or(u32::MAX);
        let mut n = Names { pass, ..Names::default() };
        for i in 0..=ctx.pass {
            let mut alias = ctx.aliases.get(i).cloned().unwrap_or_default();
            if alias.is_empty() && i == ctx.pass {
                alias = meta.name.clone().unwrap_or_default();
            }
            if alias.is_empty() {
                continue;
            }
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            let feedback = semantics::alias_feedback(&alias);
            n.textures.entry(alias.clone()).or_insert((TextureSemantic::PassOutput, i));
            n.sizes.entry(semantics::named_size(&alias)).or_insert((TextureSemantic::PassOutput, i));
            n.sizes.entry(semantics::named_size(&feedback)).or_insert((TextureSemantic::PassFeedback, i));
            n.textures.entry(feedback).or_insert((TextureSemantic::PassFeedback, i));
        }
        for (i, lut) in ctx.luts.iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            n.textures.entry(lut.clone()).or_insert((TextureSemantic::User, i));
            n.sizes.entry(semantics::named_size(lut)).or_insert((TextureSemantic::User, i));
        }
        n.parameters.extend(meta.parameters.iter().map(|p| p.id.clone()));
        n.parameters.extend(ctx.extra_parameters.iter().cloned());
        n
    }

    /// A pass with the given aliases, LUTs and parameters (for tests and tools).
    pub fn with(pass: u32, aliases: &[&str], luts: &[&str], parameters: &[&str]) -> Names {
        let ctx = ValidationContext {
            pass: pass as usize,
            aliases: aliases.iter().map(|s| (*s).to_owned()).collect(),
            luts: luts.iter().map(|s| (*s).to_owned()).collect(),
            extra_parameters: parameters.iter().map(|s| (*s).to_owned()).collect(),
            ..ValidationContext::default()
        };
        Names::new(&ctx, &Meta::default())
    }

    /// What a uniform member name means, with the texture semantic RetroArch also
    /// derives from it (checked for causality even when the name is a parameter).
    pub fn uniform(&self, name: &str) -> (Option<UniformMeaning>, Option<(TextureSemantic, u32)>) {
        let texture = self.sizes.get(name).copied().or_else(|| semantics::parse_texture_size(name));
        let meaning = if self.parameters.contains(name) {
            Some(UniformMeaning::Parameter(name.to_owned()))
        } else if let Some(b) = BuiltinUniform::parse(name) {
            Some(UniformMeaning::Builtin(b))
        } else {
            texture.map(|(s, i)| UniformMeaning::TextureSize(s, i))
        };
        (meaning, texture)
    }

    /// The texture semantic of a sampler name.
    pub fn texture(&self, name: &str) -> Option<(TextureSemantic, u32)> {
        self.textures.get(name).copied().or_else(|| semantics::parse_texture(name))
    }
}

/// Checks the two reflected stages of one pass against the slang interface rules.
pub fn check_interface(vertex: &Reflection, fragment: &Reflection, stages: &Stages, names: &Names) -> Vec<Issue> {
    let mut c = Checker { stages, names, issues: Vec::new(), seen: HashSet::new() };
    c.vertex_inputs(vertex);
    c.fragment_outputs(fragment);
    for r in [vertex, fragment] {
        c.resource_kinds(r);
        c.block_counts(r);
    }
    let ubo_binding = c.ubos(vertex, fragment);
    c.push_size(vertex, fragment);
    c.members(vertex, fragment);
    c.samplers(fragment, ubo_binding);
    c.issues
}

struct Checker<'a> {
    stages: &'a Stages,
    names: &'a Names,
    issues: Vec<Issue>,
    seen: HashSet<(&'static str, String)>,
}

impl Checker<'_> {
    fn text(&self, stage: Stage) -> &str {
        &self.stages.stage(stage).text
    }

    fn place(&self, stage: Stage, line: Option<u32>) -> Option<Place> {
        line.and_then(|l| self.stages.stage(stage).place(l))
    }

    fn push(&mut self, issue: Issue) {
        if self.seen.insert((issue.code, issue.message.clone())) {
            self.issues.push(issue);
        }
    }

    fn io_place(&self, stage: Stage, keyword: &str, name: &str) -> Option<Place> {
        let text = self.text(stage);
        let line = locate::var_decl_line(text, keyword, name).or_else(|| locate::main_line(text));
        self.place(stage, line)
    }

    fn vertex_inputs(&mut self, v: &Reflection) {
        let describe = |r: &Reflection| {
            r.inputs
                .iter()
                .map(|i| format!("`{}` (location {})", i.name, i.location.map_or("none".into(), |l| l.to_string())))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let note = "RetroArch feeds exactly `layout(location = 0) in vec4 Position;` and `layout(location = 1) in vec2 TexCoord;`";
        if v.inputs.len() != 2 {
            // Blame the first input that is not at location 0 or 1, else the last one.
            let culprit = v.inputs.iter().find(|i| !matches!(i.location, Some(0 | 1))).or(v.inputs.last());
            let place = match culprit {
                Some(i) => self.io_place(Stage::Vertex, "in", &i.name),
                None => self.place(Stage::Vertex, locate::main_line(self.text(Stage::Vertex))),
            };
            let label = culprit.map_or_else(String::new, |i| {
                format!(
                    "`{}` is vertex input {} of {}",
                    i.name,
                    v.inputs.iter().position(|x| x == i).unwrap_or(0) + 1,
                    v.inputs.len()
                )
            });
            let message = format!(
                "the vertex stage must have exactly two inputs, at locations 0 and 1; it has {}{}{}",
                v.inputs.len(),
                if v.inputs.is_empty() { "" } else { ": " },
                describe(v)
            );
            self.push(Issue::error(codes::E_VERTEX_INPUTS, message, place, label).with_note(note));
            return;
        }
        let mask: u32 =
            v.inputs.iter().map(|i| i.location.filter(|l| *l < 32).map_or(0, |l| 1u32 << l)).fold(0, |a, b| a | b);
        if mask != 0b11 {
            let culprit = v.inputs.iter().find(|i| !matches!(i.location, Some(0 | 1))).unwrap_or(&v.inputs[1]);
            let place = self.io_place(Stage::Vertex, "in", &culprit.name);
            self.push(
                Issue::error(
                    codes::E_VERTEX_INPUTS,
                    format!("the two vertex inputs must use locations 0 and 1; they are {}", describe(v)),
                    place,
                    format!("`{}` must be at location 0 or 1", culprit.name),
                )
                .with_note(note),
            );
        }
    }

    fn fragment_outputs(&mut self, f: &Reflection) {
        if f.outputs.len() != 1 {
            let names: Vec<String> = f.outputs.iter().map(|o| format!("`{}`", o.name)).collect();
            let culprit = f.outputs.get(1);
            let place = match culprit {
                Some(o) => self.io_place(Stage::Fragment, "out", &o.name),
                None => self.place(Stage::Fragment, locate::main_line(self.text(Stage::Fragment))),
            };
            self.push(Issue::error(
                codes::E_FRAGMENT_OUTPUTS,
                format!(
                    "the fragment stage must have exactly one output, at location 0; it has {}{}{}",
                    f.outputs.len(),
                    if names.is_empty() { "" } else { ": " },
                    names.join(", ")
                ),
                place,
                culprit.map_or_else(String::new, |o| format!("second output `{}`", o.name)),
            ));
            return;
        }
        let out = &f.outputs[0];
        if out.location != Some(0) {
            let place = self.io_place(Stage::Fragment, "out", &out.name);
            self.push(Issue::error(
                codes::E_FRAGMENT_OUTPUTS,
                format!(
                    "the fragment output `{}` must use location 0, not {}",
                    out.name,
                    out.location.map_or("none".into(), |l| l.to_string())
                ),
                place,
                "must be `layout(location = 0) out vec4 ...`",
            ));
        }
    }

    fn resource_kinds(&mut self, r: &Reflection) {
        for res in &r.resources {
            let place = self.place(
                r.stage,
                locate::var_decl_line(self.text(r.stage), "uniform", &res.name)
                    .or_else(|| locate::var_decl_line(self.text(r.stage), "buffer", &res.name)),
            );
            if res.kind == ResourceKind::SampledImage {
                if r.stage == Stage::Vertex {
                    self.push(Issue::error(
                        codes::E_VERTEX_SAMPLER,
                        format!("sampler `{}` is declared in the vertex stage; RetroArch binds textures to the fragment stage only", res.name),
                        place,
                        "move it after `#pragma stage fragment`",
                    ));
                }
                continue;
            }
            self.push(Issue::error(
                codes::E_RESOURCE_KIND,
                format!(
                    "`{}` in the {} stage is a {}; RetroArch binds only one uniform buffer, one push-constant block and combined samplers (`sampler2D`)",
                    res.name,
                    r.stage,
                    res.kind.describe()
                ),
                place,
                "not bindable in RetroArch",
            ));
        }
    }

    fn block_place(&self, stage: Stage, b: &Block) -> Option<Place> {
        self.place(stage, locate::block_line(self.text(stage), &b.type_name))
    }

    fn block_counts(&mut self, r: &Reflection) {
        for (blocks, what) in [(&r.ubos, "uniform buffers"), (&r.push, "push-constant blocks")] {
            if blocks.len() > 1 {
                let list: Vec<String> = blocks.iter().map(|b| format!("`{}`", b.type_name)).collect();
                let place = self.block_place(r.stage, &blocks[1]);
                self.push(Issue::error(
                    codes::E_TOO_MANY_BLOCKS,
                    format!(
                        "the {} stage declares {} {what} ({}); RetroArch allows at most one",
                        r.stage,
                        blocks.len(),
                        list.join(", ")
                    ),
                    place,
                    "one too many",
                ));
            }
        }
    }

    /// Checks the uniform buffers; returns the binding RetroArch reserves for them.
    fn ubos(&mut self, v: &Reflection, f: &Reflection) -> Option<u32> {
        for r in [v, f] {
            if let Some(b) = r.ubos.first() {
                let set = b.set.unwrap_or(0);
                if set != 0 {
                    let place = self.block_place(r.stage, b);
                    self.push(Issue::error(
                        codes::E_DESCRIPTOR_SET,
                        format!(
                            "uniform buffer `{}` is in descriptor set {set}; RetroArch uses set 0 only",
                            b.type_name
                        ),
                        place,
                        "use `set = 0`",
                    ));
                }
            }
        }
        let vb = v.ubos.first().map(|b| b.binding.unwrap_or(0));
        let fb = f.ubos.first().map(|b| b.binding.unwrap_or(0));
        if let (Some(x), Some(y)) = (vb, fb) {
            if x != y {
                let place = f.ubos.first().and_then(|b| self.block_place(Stage::Fragment, b));
                self.push(Issue::error(
                    codes::E_UBO_BINDING_MISMATCH,
                    format!("the uniform buffer has binding {x} in the vertex stage and {y} in the fragment stage; RetroArch requires the same binding"),
                    place,
                    "",
                ));
            }
        }
        let binding = vb.or(fb);
        let first =
            (v.ubos.first().map(|b| (Stage::Vertex, b))).or_else(|| f.ubos.first().map(|b| (Stage::Fragment, b)));
        if let (Some(b), Some((stage, block))) = (binding, first) {
            if b >= MAX_BINDINGS {
                let place = self.block_place(stage, block);
                self.push(Issue::error(
                    codes::E_BINDING_RANGE,
                    format!(
                        "uniform buffer `{}` uses binding {b}; RetroArch's bindings are 0 to {}",
                        block.type_name,
                        MAX_BINDINGS - 1
                    ),
                    place,
                    "binding out of range",
                ));
            }
        }
        binding
    }

    fn push_size(&mut self, v: &Reflection, f: &Reflection) {
        let biggest =
            [v, f].into_iter().filter_map(|r| r.push.first().map(|b| (r.stage, b))).max_by_key(|(_, b)| b.size);
        let Some((stage, block)) = biggest else {
            return;
        };
        if block.size > MAX_PUSH_BYTES {
            let layout: Vec<String> =
                block.members.iter().map(|m| format!("{} {} @{}", m.ty, m.name, m.offset)).collect();
            let place = self.block_place(stage, block);
            self.push(
                Issue::error(
                    codes::E_PUSH_TOO_LARGE,
                    format!(
                        "push-constant block `{}` is {} bytes; RetroArch allows at most {MAX_PUSH_BYTES}",
                        block.type_name, block.size
                    ),
                    place,
                    format!("{} bytes", block.size),
                )
                .with_note(format!("layout: {}", layout.join(", ")))
                .with_note("move members into the uniform buffer"),
            );
        }
    }

    fn members(&mut self, v: &Reflection, f: &Reflection) {
        // (push?, meaning) -> (stage, offset, member name)
        let mut offsets: HashMap<(bool, UniformMeaning), (Stage, u32, String)> = HashMap::new();
        for r in [v, f] {
            for (push, block) in
                r.ubos.iter().take(1).map(|b| (false, b)).chain(r.push.iter().take(1).map(|b| (true, b)))
            {
                let what = if push { "push-constant block" } else { "uniform buffer" };
                let text = self.text(r.stage).to_owned();
                let block_line = locate::block_line(&text, &block.type_name);
                for m in block.members.iter().filter(|m| m.active) {
                    let line = block_line.and_then(|b| {
                        locate::member_use_line(&text, b, &block.instance, &m.name)
                            .or_else(|| locate::member_decl_line(&text, b, &m.name))
                    });
                    let place = self.place(r.stage, line);
                    let (meaning, texture) = self.names.uniform(&m.name);
                    if let Some((sem, index)) = texture {
                        self.texture_index(&m.name, sem, index, place);
                    }
                    let Some(meaning) = meaning else {
                        self.unknown_member(&m.name, what, &block.type_name, place);
                        continue;
                    };
                    let expected = meaning.expected();
                    if !accepts(expected, &m.ty) {
                        self.push(Issue::error(
                            codes::E_SEMANTIC_TYPE,
                            format!("`{}` must be declared `{}`, not `{}`", m.name, expected.glsl(), m.ty),
                            place,
                            format!("RetroArch expects {}", expected.glsl()),
                        ));
                        continue;
                    }
                    match offsets.get(&(push, meaning.clone())) {
                        Some((stage, offset, _)) if *stage != r.stage && *offset != m.offset => {
                            let message = format!(
                                "`{}` is at offset {} of the {what} in the {} stage but at offset {} in the {} stage; RetroArch requires the same offset",
                                m.name, offset, stage, m.offset, r.stage
                            );
                            self.push(Issue::error(
                                codes::E_OFFSET_MISMATCH,
                                message,
                                place,
                                format!("offset {}", m.offset),
                            ));
                        }
                        Some(_) => {}
                        None => {
                            offsets.insert((push, meaning), (r.stage, m.offset, m.name.clone()));
                        }
                    }
                }
            }
        }
    }

    fn unknown_member(&mut self, name: &str, what: &str, block: &str, place: Option<Place>) {
        let mut issue = Issue::error(
            codes::E_UNKNOWN_SEMANTIC,
            format!("`{name}` in {what} `{block}` is no RetroArch semantic, texture size or declared parameter"),
            place,
            "unknown semantic",
        );
        if let Some(prefix) = semantics::size_base(name).filter(|p| !p.is_empty()) {
            issue = issue
                .with_note(format!("`{name}` would need a pass alias or LUT named `{prefix}` visible to this pass"));
        } else {
            issue = issue.with_note(format!("declare it with `#pragma parameter {name} \"...\" init min max`, or use a semantic such as MVP, OutputSize, FrameCount, SourceSize"));
        }
        self.push(issue);
    }

    /// Causality and RetroArch's bounds on arrayed texture semantics.
    fn texture_index(&mut self, name: &str, sem: TextureSemantic, index: u32, place: Option<Place>) {
        let pass = self.names.pass;
        let (cap, label) = match sem {
            TextureSemantic::PassOutput => {
                if index >= pass {
                    let message = format!(
                        "`{name}` reads the output of pass {index}, but this is pass {pass}: a pass can read only earlier passes (RetroArch: \"Non causal filter chain\")"
                    );
                    self.push(Issue::error(
                        codes::E_NON_CAUSAL,
                        message,
                        place,
                        format!("pass {index} is not before pass {pass}"),
                    ));
                }
                return;
            }
            TextureSemantic::PassFeedback => (MAX_PASS_FEEDBACK, "GFX_MAX_SHADERS"),
            TextureSemantic::OriginalHistory => (MAX_ORIGINAL_HISTORY, "GFX_MAX_FRAME_HISTORY"),
            TextureSemantic::User => (MAX_USER, "GFX_MAX_TEXTURES"),
            TextureSemantic::Original | TextureSemantic::Source => return,
        };
        if index >= cap {
            self.push(Issue::error(
                codes::E_SEMANTIC_INDEX,
                format!("`{name}` uses {} index {index}; RetroArch allows indices below {cap} ({label})", sem.name()),
                place,
                "index out of range",
            ));
        }
    }

    fn samplers(&mut self, f: &Reflection, ubo_binding: Option<u32>) {
        let mut used: HashMap<u32, String> = HashMap::new();
        if let Some(b) = ubo_binding {
            let name = f
                .ubos
                .first()
                .map_or_else(|| "the uniform buffer".to_owned(), |u| format!("uniform buffer `{}`", u.type_name));
            used.insert(b, name);
        }
        for res in f.resources.iter().filter(|r| r.kind == ResourceKind::SampledImage) {
            let line = locate::var_decl_line(self.text(Stage::Fragment), "uniform", &res.name);
            let place = self.place(Stage::Fragment, line);
            let set = res.set.unwrap_or(0);
            let binding = res.binding.unwrap_or(0);
            if set != 0 {
                self.push(Issue::error(
                    codes::E_DESCRIPTOR_SET,
                    format!("sampler `{}` is in descriptor set {set}; RetroArch uses set 0 only", res.name),
                    place,
                    "use `set = 0`",
                ));
            }
            if binding >= MAX_BINDINGS {
                self.push(Issue::error(
                    codes::E_BINDING_RANGE,
                    format!(
                        "sampler `{}` uses binding {binding}; RetroArch's bindings are 0 to {}",
                        res.name,
                        MAX_BINDINGS - 1
                    ),
                    place,
                    "binding out of range",
                ));
            } else if let Some(other) = used.get(&binding) {
                let message = format!("binding {binding} is used by both {other} and sampler `{}`", res.name);
                self.push(Issue::error(
                    codes::E_BINDING_TWICE,
                    message,
                    place,
                    format!("binding {binding} already taken"),
                ));
            } else {
                used.insert(binding, format!("sampler `{}`", res.name));
            }
            match self.names.texture(&res.name) {
                Some((sem, index)) => self.texture_index(&res.name, sem, index, place),
                None => self.push(
                    Issue::error(
                        codes::E_UNKNOWN_TEXTURE,
                        format!("sampler `{}` is no RetroArch texture: not Original, Source, OriginalHistory#, PassOutput#, PassFeedback#, User#, nor a pass alias or LUT of the preset", res.name),
                        place,
                        "unknown texture",
                    )
                    .with_note("RetroArch: \"Non-semantic textures not supported\""),
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_like_retroarch() {
        let n = Names::with(2, &["FIRST", "", "SELF", "LATER"], &["LUT"], &["gamma"]);
        assert_eq!(n.texture("Source"), Some((TextureSemantic::Source, 0)));
        assert_eq!(n.texture("OriginalHistory3"), Some((TextureSemantic::OriginalHistory, 3)));
        assert_eq!(n.texture("PassOutput1"), Some((TextureSemantic::PassOutput, 1)));
        assert_eq!(n.texture("FIRST"), Some((TextureSemantic::PassOutput, 0)));
        assert_eq!(n.texture("SELF"), Some((TextureSemantic::PassOutput, 2)));
        assert_eq!(n.texture("LATER"), None);
        assert_eq!(n.texture("FIRSTFeedback"), Some((TextureSemantic::PassFeedback, 0)));
        assert_eq!(n.texture("LUT"), Some((TextureSemantic::User, 0)));
        assert_eq!(n.texture("Sourcey"), None);
        assert_eq!(n.uniform("FIRSTSize").0, Some(UniformMeaning::TextureSize(TextureSemantic::PassOutput, 0)));
        assert_eq!(n.uniform("LUTSize").0, Some(UniformMeaning::TextureSize(TextureSemantic::User, 0)));
        assert_eq!(n.uniform("gamma").0, Some(UniformMeaning::Parameter("gamma".into())));
        assert_eq!(n.uniform("FrameCount").0, Some(UniformMeaning::Builtin(BuiltinUniform::FrameCount)));
        assert_eq!(
            n.uniform("OriginalHistorySize2").0,
            Some(UniformMeaning::TextureSize(TextureSemantic::OriginalHistory, 2))
        );
        assert_eq!(n.uniform("OriginalSize").0, Some(UniformMeaning::TextureSize(TextureSemantic::Original, 0)));
        assert_eq!(n.uniform("Mystery").0, None);
    }

    #[test]
    fn types_are_checked_like_retroarch() {
        let t = |base, vecsize, columns| ValueType { base, width: 32, vecsize, columns, array: false };
        assert!(accepts(UniformType::Mat4, &t(Base::Float, 4, 4)));
        assert!(!accepts(UniformType::Mat4, &t(Base::Float, 4, 1)));
        assert!(accepts(UniformType::UInt, &t(Base::UInt, 1, 1)));
        assert!(!accepts(UniformType::UInt, &t(Base::Int, 1, 1)));
        assert!(!accepts(UniformType::Int, &t(Base::Float, 1, 1)));
        assert!(!accepts(UniformType::Float, &ValueType { array: true, ..t(Base::Float, 1, 1) }));
    }
}
