//! One pass on the GPU: shader modules from naga IR, the bind-group layout built from
//! the reflected globals, the render pipeline, and the uniform buffer. Also the stock
//! blit used for mip chains and for RetroArch's final stretch pass.
//!
//! Textures bind to their resource by name ([`crate::plan::slang_texture`]); a sampler
//! binds to the texture at its binding minus 16 (the naga dialect's convention), else to
//! the texture named like it without a `_sampler` suffix.
//!
//! **Invariant:** never panics; wgpu's rejections come back as `E0705` diagnostics.

use super::device::Gpu;
use super::reflect::{self, Block, Member, SamplerGlobal, StageReflection, TextureGlobal};
use super::textures::Texture;
use super::timings::SpanQueries;
use crate::codes;
use crate::plan::Resource;
use crate::reference::memo::KeyWriter;
use grammar::Diagnostic;
use naga::{Module, ScalarKind};
use std::collections::HashMap;

/// The sampler binding offset of the naga dialect: texture N, sampler N + 16.
pub const SAMPLER_OFFSET: u32 = 16;

/// Bytes of one vertex: position vec4, texture coordinate vec2.
const VERTEX_STRIDE: u64 = 24;

/// The vertex buffer layout of RetroArch's quad.
fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRIBUTES: [wgpu::VertexAttribute; 2] = [
        wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x4, offset: 0, shader_location: 0 },
        wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x2, offset: 16, shader_location: 1 },
    ];
    wgpu::VertexBufferLayout {
        array_stride: VERTEX_STRIDE,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRIBUTES,
    }
}

/// The two quads, as triangle strips: offscreen (vertices 0..4) and final (4..8).
///
/// RetroArch's quads are mirrored vertically here: Vulkan's clip space has y pointing
/// down, wgpu's (like D3D and Metal) up, and the modules keep the Vulkan coordinate
/// space. The MVP the shaders see stays RetroArch's, and texture coordinate (0,0) still
/// lands on the top-left pixel of the target, as in RetroArch.
pub fn quad_vertices() -> Vec<u8> {
    #[rustfmt::skip]
    let v: [[f32; 4]; 8] = [
        // x, y, u, v — RetroArch's Vulkan quads, in Vulkan's clip space (y = -1 at the
        // top; see `clip_space`). Offscreen (identity MVP):
        [-1.0, -1.0, 0.0, 0.0], [-1.0, 1.0, 0.0, 1.0], [1.0, -1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0],
        // final (ortho MVP of [0,1]²)
        [0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0],
    ];
    v.iter().flat_map(|[x, y, s, t]| [*x, *y, 0.0, 1.0, *s, *t]).flat_map(f32::to_le_bytes).collect()
}

/// A uniform or push block shared by both stages: the members of both (vertex first).
#[derive(Clone, Debug)]
pub struct MergedBlock {
    pub binding: Option<u32>,
    pub size: u32,
    pub members: Vec<Member>,
    pub visibility: wgpu::ShaderStages,
}

fn merge(blocks: [(Option<&Block>, wgpu::ShaderStages); 2]) -> Option<MergedBlock> {
    let mut out: Option<MergedBlock> = None;
    for (b, stage) in blocks {
        let Some(b) = b else { continue };
        let m = out.get_or_insert_with(|| MergedBlock {
            binding: b.binding,
            size: 0,
            members: Vec::new(),
            visibility: wgpu::ShaderStages::NONE,
        });
        m.size = m.size.max(b.size);
        m.visibility |= stage;
        for member in &b.members {
            if !m.members.iter().any(|x| x.name == member.name && x.offset == member.offset) {
                m.members.push(member.clone());
            }
        }
    }
    out
}

/// A texture binding and what it shows.
#[derive(Clone, Debug)]
pub struct TextureSlot {
    pub global: TextureGlobal,
    pub resource: Resource,
}

/// A sampler binding and the texture whose sampling it takes.
#[derive(Clone, Debug)]
pub struct SamplerSlot {
    pub global: SamplerGlobal,
    pub resource: Resource,
    pub filterable: bool,
}

/// A pass ready to draw.
pub struct PassPipeline {
    pub pipeline: wgpu::RenderPipeline,
    pub layout: wgpu::BindGroupLayout,
    pub ubo: Option<(MergedBlock, wgpu::Buffer)>,
    pub push: Option<MergedBlock>,
    pub textures: Vec<TextureSlot>,
    pub samplers: Vec<SamplerSlot>,
    /// Whether its render pass clears the target first: unless it provably writes every
    /// pixel ([`super::coverage`]).
    pub clears: bool,
}

/// The reflected interface of a pass (both stages), before any GPU object exists.
pub struct PassInterface {
    pub ubo: Option<MergedBlock>,
    pub push: Option<MergedBlock>,
    pub textures: Vec<TextureSlot>,
    pub samplers: Vec<SamplerSlot>,
}

impl PassInterface {
    /// Reflects both stages; `resolve` maps a texture name to its resource.
    pub fn new(
        pass: usize,
        vertex: &Module,
        fragment: &Module,
        resolve: &dyn Fn(&str) -> Option<Resource>,
    ) -> Result<PassInterface, Vec<Diagnostic>> {
        let v = reflect::reflect(vertex, &format!("pass {pass} vertex"));
        let f = reflect::reflect(fragment, &format!("pass {pass} fragment"));
        let (v, f): (StageReflection, StageReflection) = match (v, f) {
            (Ok(v), Ok(f)) => (v, f),
            (v, f) => return Err(v.err().into_iter().chain(f.err()).flatten().collect()),
        };
        let mut errors = Vec::new();
        let ubo = merge([(v.ubo.as_ref(), wgpu::ShaderStages::VERTEX), (f.ubo.as_ref(), wgpu::ShaderStages::FRAGMENT)]);
        if let (Some(a), Some(b)) = (&v.ubo, &f.ubo) {
            if a.binding != b.binding {
                errors.push(Diagnostic::error(
                    codes::E_CHAIN_BINDING,
                    format!("pass {pass}: the vertex and fragment uniform blocks have different bindings"),
                ));
            }
        }
        let push =
            merge([(v.push.as_ref(), wgpu::ShaderStages::VERTEX), (f.push.as_ref(), wgpu::ShaderStages::FRAGMENT)]);
        let mut textures: Vec<TextureSlot> = Vec::new();
        for t in v.textures.iter().chain(&f.textures) {
            if textures.iter().any(|x| x.global.binding == t.binding) {
                continue;
            }
            match resolve(&t.name) {
                Some(resource) => textures.push(TextureSlot { global: t.clone(), resource }),
                None => errors.push(
                    Diagnostic::error(
                        codes::E_CHAIN_BINDING,
                        format!("pass {pass}: texture `{}` is no slang texture semantic, pass alias or LUT", t.name),
                    )
                    .with_note("RetroArch: \"Non-semantic textures not supported\""),
                ),
            }
        }
        let mut samplers: Vec<SamplerSlot> = Vec::new();
        for s in v.samplers.iter().chain(&f.samplers) {
            if samplers.iter().any(|x| x.global.binding == s.binding) {
                continue;
            }
            let paired = textures
                .iter()
                .find(|t| t.global.binding + SAMPLER_OFFSET == s.binding)
                .or_else(|| textures.iter().find(|t| s.name.strip_suffix("_sampler") == Some(t.global.name.as_str())));
            match paired {
                Some(t) => samplers.push(SamplerSlot {
                    global: s.clone(),
                    resource: t.resource,
                    filterable: t.global.kind == ScalarKind::Float,
                }),
                None => errors.push(Diagnostic::error(
                    codes::E_CHAIN_BINDING,
                    format!(
                        "pass {pass}: sampler `{}` (binding {}) has no texture at binding {} nor one named like it",
                        s.name,
                        s.binding,
                        s.binding.saturating_sub(SAMPLER_OFFSET)
                    ),
                )),
            }
        }
        if errors.is_empty() {
            Ok(PassInterface { ubo, push, textures, samplers })
        } else {
            Err(errors)
        }
    }

    /// The textures the pass reads through samplers and `...Size` members.
    pub fn reads(&self, size_resource: &dyn Fn(&str) -> Option<Resource>) -> Vec<Resource> {
        let mut out: Vec<Resource> = self.textures.iter().map(|t| t.resource).collect();
        for b in self.ubo.iter().chain(&self.push) {
            out.extend(b.members.iter().filter_map(|m| size_resource(&m.name)));
        }
        out.sort();
        out.dedup();
        out
    }
}

/// A wgpu shader module and the digest of the SPIR-V naga writes for it: the module's
/// identity in the pipeline cache ([`render_pipeline`]).
pub struct Shader {
    module: wgpu::ShaderModule,
    spirv: u128,
}

/// A naga module made ready for a device, which this needs none of: its vertex stage in
/// Vulkan's clip space (see [`super::clip_space`]) and its SPIR-V written once
/// ([`preflight_spirv`]). `render` prepares its passes while the device opens.
#[derive(Clone)]
pub struct PreparedShader {
    label: String,
    module: Module,
    spirv: u128,
}

impl PreparedShader {
    /// Prepares `module`, named `label` in diagnostics.
    pub fn new(label: &str, module: &Module) -> Result<PreparedShader, Diagnostic> {
        let mut module = module.clone();
        super::clip_space::to_vulkan_clip_space(&mut module)
            .map_err(|e| Diagnostic::error(codes::E_CHAIN_SHADER, format!("{label}: {e}")))?;
        let spirv = preflight_spirv(label, &module)?;
        Ok(PreparedShader { label: label.to_owned(), module, spirv })
    }
}

/// Turns a prepared module into a wgpu shader module.
pub fn shader_module(gpu: &Gpu, shader: PreparedShader) -> Result<Shader, Diagnostic> {
    let PreparedShader { label, module, spirv } = shader;
    let module = gpu.scoped(&format!("creating the shader module of {label}"), || {
        super::loop_bounds::create_shader_module(&gpu.device, &label, module)
    })?;
    Ok(Shader { module, spirv })
}

/// Runs naga's SPIR-V writer, which wgpu runs on the module later on a Vulkan adapter,
/// once here, isolated: it can panic on modules naga's validator accepted (naga 30:
/// "Expression [n] is not cached"), and inside wgpu that panic would end the process.
/// Returns the digest of the words it wrote.
fn preflight_spirv(label: &str, module: &Module) -> Result<u128, Diagnostic> {
    let fail = |msg: String| Diagnostic::error(codes::E_CHAIN_SHADER, format!("{label}: {msg}"));
    let outcome = crate::validate::naga::isolate(|| {
        let mut validator =
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), crate::validate::naga::capabilities());
        let info = validator
            .validate(module)
            .map_err(|e| format!("naga validation: {}", crate::validate::naga::error_chain(e.as_inner())))?;
        let words = naga::back::spv::write_vec(module, &info, &naga::back::spv::Options::default(), None)
            .map_err(|e| format!("naga's SPIR-V writer: {e}"))?;
        let mut k = KeyWriter::new("naga-spirv");
        k.u64(words.len() as u64);
        words.iter().for_each(|w| k.u32(*w));
        Ok(k.finish().0)
    });
    match outcome {
        Ok(r) => r.map_err(fail),
        Err(panic) => Err(fail(format!("naga's SPIR-V writer panicked: {panic}"))),
    }
}

/// A pass made ready for a device without one: its interface, both stages prepared, and
/// whether its render pass must clear the target.
pub struct PreparedPass {
    interface: PassInterface,
    vertex: PreparedShader,
    fragment: PreparedShader,
    clears: bool,
}

impl PreparedPass {
    /// Prepares pass `pass` (its stages and their reflected `interface`).
    pub fn new(
        pass: usize,
        vertex: &Module,
        fragment: &Module,
        interface: PassInterface,
    ) -> Result<PreparedPass, Diagnostic> {
        Ok(PreparedPass {
            interface,
            vertex: PreparedShader::new(&format!("pass {pass} vertex"), vertex)?,
            fragment: PreparedShader::new(&format!("pass {pass} fragment"), fragment)?,
            clears: !super::coverage::draws_every_pixel(vertex, fragment),
        })
    }
}

impl PassPipeline {
    pub fn new(
        gpu: &Gpu,
        pass: usize,
        prepared: PreparedPass,
        format: wgpu::TextureFormat,
    ) -> Result<PassPipeline, Diagnostic> {
        let label = format!("pass {pass}");
        let PreparedPass { interface, vertex, fragment, clears } = prepared;
        let vs = shader_module(gpu, vertex)?;
        let fs = shader_module(gpu, fragment)?;
        let PassInterface { ubo, push, textures, samplers } = interface;
        if let Some(p) = &push {
            let max = gpu.device.limits().max_immediate_size;
            if p.size > max {
                return Err(Diagnostic::error(
                    codes::E_CHAIN_BINDING,
                    format!("{label}: the push-constant block is {} bytes; this device allows {max}", p.size),
                ));
            }
        }
        let mut entries = Vec::new();
        if let Some(u) = &ubo {
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: u.binding.unwrap_or(0),
                visibility: u.visibility,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
        }
        let stages = wgpu::ShaderStages::VERTEX_FRAGMENT;
        for t in &textures {
            let sample_type = match t.global.kind {
                ScalarKind::Uint => wgpu::TextureSampleType::Uint,
                ScalarKind::Sint => wgpu::TextureSampleType::Sint,
                _ => wgpu::TextureSampleType::Float { filterable: true },
            };
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: t.global.binding,
                visibility: stages,
                ty: wgpu::BindingType::Texture {
                    sample_type,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            });
        }
        for s in &samplers {
            let ty =
                if s.filterable { wgpu::SamplerBindingType::Filtering } else { wgpu::SamplerBindingType::NonFiltering };
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: s.global.binding,
                visibility: stages,
                ty: wgpu::BindingType::Sampler(ty),
                count: None,
            });
        }
        let immediate_size = push.as_ref().map_or(0, |p| p.size.div_ceil(4) * 4);
        let (pipeline, layout, buffer) = gpu.scoped(&format!("creating the pipeline of {label}"), || {
            let layout = gpu
                .device
                .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(&label), entries: &entries });
            let pipeline_layout = gpu.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(&label),
                bind_group_layouts: &[Some(&layout)],
                immediate_size,
            });
            let pipeline = render_pipeline(gpu, &label, &pipeline_layout, &vs, &fs, format);
            let buffer = ubo.as_ref().map(|u| {
                gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(&label),
                    size: u64::from(u.size.max(16).div_ceil(16) * 16),
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            });
            (pipeline, layout, buffer)
        })?;
        Ok(PassPipeline { pipeline, layout, ubo: ubo.zip(buffer), push, textures, samplers, clears })
    }
}

/// Makes the chain's render pipeline of `vs` and `fs` drawing into `format`, with the
/// pipeline cache kept for exactly these (their SPIR-V and the format).
fn render_pipeline(
    gpu: &Gpu,
    label: &str,
    layout: &wgpu::PipelineLayout,
    vs: &Shader,
    fs: &Shader,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let mut key = KeyWriter::new("render-pipeline");
    key.bytes(&vs.spirv.to_le_bytes());
    key.bytes(&fs.spirv.to_le_bytes());
    key.str(&format!("{format:?}"));
    let cache = gpu.pipeline_cache(key.finish().0);
    let pipeline = gpu.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: &vs.module,
            entry_point: None,
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: &[Some(vertex_layout())],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleStrip,
            cull_mode: None,
            ..wgpu::PrimitiveState::default()
        },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &fs.module,
            entry_point: None,
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
        }),
        multiview_mask: None,
        cache: cache.as_ref().map(super::pipeline_cache::PipelineEntry::cache),
    });
    if let Some(c) = &cache {
        c.save();
    }
    pipeline
}

const BLIT_VERTEX: &str = "#version 450
layout(location = 0) in vec4 Position;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec2 vTexCoord;
void main()
{
    gl_Position = vec4(Position.xy, 0.0, 1.0);
    vTexCoord = TexCoord;
}
";

const BLIT_FRAGMENT: &str = "#version 450
layout(location = 0) in vec2 vTexCoord;
layout(location = 0) out vec4 FragColor;
layout(set = 0, binding = 0) uniform texture2D Source;
layout(set = 0, binding = 1) uniform sampler Source_sampler;
void main()
{
    FragColor = textureLod(sampler2D(Source, Source_sampler), vTexCoord, 0.0);
}
";

/// RetroArch's stock pass: draws a texture over the whole target (offscreen quad).
/// Used for the final stretch and to build mip chains.
pub struct Blit {
    vs: Shader,
    fs: Shader,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    pipelines: HashMap<wgpu::TextureFormat, wgpu::RenderPipeline>,
    /// Bind groups made so far, by the source view and sampler they bind (by identity):
    /// the stretch and the mip chains draw the same sources every frame.
    groups: HashMap<(wgpu::TextureView, wgpu::Sampler), wgpu::BindGroup>,
}

/// Blit bind groups kept at most.
const MAX_BLIT_GROUPS: usize = 256;

/// The stock pass's two stages, prepared ([`PreparedShader`]).
#[derive(Clone)]
pub struct BlitShaders {
    vertex: PreparedShader,
    fragment: PreparedShader,
}

impl BlitShaders {
    /// The stock pass's stages: parsed and prepared once per process (every chain of a
    /// `migrate --compare` has one), cloned after that.
    pub fn new() -> Result<BlitShaders, Diagnostic> {
        static PREPARED: std::sync::OnceLock<Result<BlitShaders, Diagnostic>> = std::sync::OnceLock::new();
        PREPARED.get_or_init(BlitShaders::prepare).clone()
    }

    fn prepare() -> Result<BlitShaders, Diagnostic> {
        let prepare = |label: &str, text: &str, stage| {
            let module = crate::validate::validate_naga(text, stage).map_err(|d| {
                d.into_iter().next().unwrap_or_else(|| Diagnostic::error(codes::E_CHAIN_SHADER, "blit shader"))
            })?;
            PreparedShader::new(label, &module)
        };
        Ok(BlitShaders {
            vertex: prepare("blit vertex", BLIT_VERTEX, crate::validate::Stage::Vertex)?,
            fragment: prepare("blit fragment", BLIT_FRAGMENT, crate::validate::Stage::Fragment)?,
        })
    }
}

impl Blit {
    pub fn new(gpu: &Gpu, shaders: BlitShaders) -> Result<Blit, Diagnostic> {
        let vs = shader_module(gpu, shaders.vertex)?;
        let fs = shader_module(gpu, shaders.fragment)?;
        let (layout, pipeline_layout) = gpu.scoped("creating the blit layout", || {
            let layout = gpu.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("blit"),
                entries: &[
                    wgpu::BindGroupLayoutEntry {
                        binding: 0,
                        visibility: wgpu::ShaderStages::FRAGMENT,
                        ty: wgpu::BindingType::Texture {
                            sample_type: wgpu::TextureSampleType::Float { filterable: true },
                            view_dimension: wgpu::TextureViewDimension::D2,
                            multisampled: false,
                        },
                        count: None,
                    },
                    wgpu::BindGroupLayoutEntry {
                        binding: 1,
                        visibility: wgpu::ShaderStages::FRAGMENT,
                        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                        count: None,
                    },
                ],
            });
            let pipeline_layout = gpu.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("blit"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
            (layout, pipeline_layout)
        })?;
        Ok(Blit { vs, fs, layout, pipeline_layout, pipelines: HashMap::new(), groups: HashMap::new() })
    }

    fn pipeline(&mut self, gpu: &Gpu, format: wgpu::TextureFormat) -> Result<&wgpu::RenderPipeline, Diagnostic> {
        if !self.pipelines.contains_key(&format) {
            let p = gpu.scoped("creating a blit pipeline", || {
                render_pipeline(gpu, "blit", &self.pipeline_layout, &self.vs, &self.fs, format)
            })?;
            self.pipelines.insert(format, p);
        }
        self.pipelines.get(&format).ok_or_else(|| Diagnostic::error(codes::E_CHAIN_GPU, "the blit pipeline is missing"))
    }

    /// Records a draw of `source` over all of `target` (a view of format `format`).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        vertices: &wgpu::Buffer,
        source: &wgpu::TextureView,
        sampler: &wgpu::Sampler,
        target: &wgpu::TextureView,
        format: wgpu::TextureFormat,
        timestamps: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) -> Result<(), Diagnostic> {
        let key = (source.clone(), sampler.clone());
        let bind = match self.groups.get(&key) {
            Some(b) => b.clone(),
            None => {
                let b = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("blit"),
                    layout: &self.layout,
                    entries: &[
                        wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(source) },
                        wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(sampler) },
                    ],
                });
                if self.groups.len() >= MAX_BLIT_GROUPS {
                    self.groups.clear();
                }
                self.groups.insert(key, b.clone());
                b
            }
        };
        let pipeline = self.pipeline(gpu, format)?;
        // The stock quad covers the target and the stock shader never discards: every
        // pixel is drawn, so the target needs no clear.
        let mut pass = begin(encoder, "blit", target, false, timestamps);
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.set_vertex_buffer(0, vertices.slice(..));
        pass.draw(0..4, 0..1);
        Ok(())
    }

    /// Drops the bind groups kept so far (their textures are being replaced).
    pub fn forget_bind_groups(&mut self) {
        self.groups.clear();
    }

    /// Records the mip chain of `texture` from its level 0 (linear, clamp to edge);
    /// `timed`: the span its draws start and end, when timed.
    pub fn mipmaps(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        vertices: &wgpu::Buffer,
        texture: &Texture,
        sampler: &wgpu::Sampler,
        timed: Option<&SpanQueries>,
    ) -> Result<(), Diagnostic> {
        for level in 1..texture.mip_levels {
            let src = texture.level_view(level - 1);
            let dst = texture.level_view(level);
            let timestamps = timed.and_then(|t| t.writes(level == 1, level + 1 == texture.mip_levels));
            self.draw(gpu, encoder, vertices, &src, sampler, &dst, texture.format, timestamps)?;
        }
        Ok(())
    }
}

/// Begins a render pass that draws into `target`, having cleared it to transparent
/// black if `clear`; else it keeps what the target holds, for a draw that overwrites
/// every pixel ([`super::coverage`]). `timestamps`: where it writes its start and end
/// times, when timed ([`super::timings`]).
pub fn begin<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    target: &wgpu::TextureView,
    clear: bool,
    timestamps: Option<wgpu::RenderPassTimestampWrites<'_>>,
) -> wgpu::RenderPass<'e> {
    let load = if clear { wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT) } else { wgpu::LoadOp::Load };
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: timestamps,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}
