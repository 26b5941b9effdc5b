//! The filter chain: builds every pass from its naga modules, then renders frames one
//! after another as the [`crate::plan`] schedules them, keeping the original history
//! ring and the feedback images between frames.
//!
//! **Invariant:** never panics on any module, image or size; a frame either renders
//! completely or returns diagnostics. History and feedback start transparent black.

use super::bind::Semantics;
use super::device::Gpu;
use super::pipeline::{self, Blit, BlitShaders, PassInterface, PassPipeline, PreparedPass};
use super::textures::{self, Pixels, Texture};
use super::timings::{PassTimer, Span, SpanQueries, Timings};
use crate::codes;
use crate::plan::{self, ChainPlan, ChainSpec, Filter, Format, Frame, PassSpec, Resource, Sampling, Size};
use grammar::Diagnostic;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;
use translator::preset::WrapMode;

/// One pass to build: its modules and settings (`spec.reads` is filled in by the chain).
pub struct ChainPass {
    pub vertex: naga::Module,
    pub fragment: naga::Module,
    pub spec: PassSpec,
    /// The parameters its source declares, with their initial values.
    pub parameters: Vec<(String, f32)>,
}

/// A LUT image (RGBA8, rows top to bottom).
pub struct LutImage {
    pub name: String,
    pub size: Size,
    pub rgba8: Arc<[u8]>,
    pub sampling: Sampling,
}

/// An input frame (RGBA8, rows top to bottom). The bytes are shared and immutable, so
/// a chain knows a frame it was given before by identity ([`Arc::ptr_eq`]) without
/// comparing its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct InputImage {
    pub size: Size,
    pub rgba8: Arc<[u8]>,
}

/// A whole chain to build.
pub struct ChainDesc {
    pub passes: Vec<ChainPass>,
    pub luts: Vec<LutImage>,
    /// Parameter values overriding the declared initial values (preset, command line).
    pub parameters: Vec<(String, f32)>,
}

/// A chain made ready for a device, which this needs none of: what [`FilterChain::new`]
/// works out before it makes GPU objects (every pass's interface, the reads checked
/// against a plan, both stages prepared, the coverage proofs, the stock pass's shaders).
/// [`ChainDesc::prepare`] makes it on any thread: `render` does so while the device opens.
pub struct PreparedChain {
    desc: ChainDesc,
    spec: ChainSpec,
    aliases: Vec<Option<String>>,
    lut_names: Vec<String>,
    passes: Vec<PreparedPass>,
    blit: BlitShaders,
}

impl PreparedChain {
    /// How many passes the chain has.
    pub fn pass_count(&self) -> usize {
        self.passes.len()
    }
}

impl ChainDesc {
    /// Everything about the chain that needs no device ([`PreparedChain`]).
    pub fn prepare(self) -> Result<PreparedChain, Vec<Diagnostic>> {
        let desc = self;
        let mut spec = ChainSpec {
            passes: desc.passes.iter().map(|p| p.spec.clone()).collect(),
            luts: desc
                .luts
                .iter()
                .map(|l| plan::LutSpec { name: l.name.clone(), size: l.size, sampling: l.sampling })
                .collect(),
            runtime: plan::Runtime::Slang,
        };
        let aliases = spec.aliases();
        let lut_names = spec.lut_names();
        let mut errors = Vec::new();
        let mut interfaces = Vec::new();
        for (i, p) in desc.passes.iter().enumerate() {
            let resolve = |name: &str| plan::slang_texture(name, i, &aliases, &lut_names);
            match PassInterface::new(i, &p.vertex, &p.fragment, &resolve) {
                Ok(iface) => {
                    // Samplers must resolve (an error otherwise); sizes only count where
                    // they are readable (RetroArch checks active members only, and naga
                    // keeps members the shader never touches).
                    let size = |name: &str| plan::slang_size(name, i, &aliases, &lut_names);
                    let n = desc.passes.len();
                    let lut_count = desc.luts.len();
                    let textures: Vec<Resource> = iface.textures.iter().map(|t| t.resource).collect();
                    spec.passes[i].reads = iface
                        .reads(&size)
                        .into_iter()
                        .filter(|r| {
                            textures.contains(r)
                                || match *r {
                                    Resource::Original => true,
                                    Resource::History(k) => k < plan::MAX_HISTORY,
                                    Resource::PassOutput(m) => m < i,
                                    Resource::Feedback(m) => m + 1 < n,
                                    Resource::Lut(j) => j < lut_count,
                                }
                        })
                        .collect();
                    interfaces.push(iface);
                }
                Err(e) => errors.extend(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        // Check the reads once (sizes do not matter for that).
        let probe = Frame::first(Size::new(1, 1), Size::new(1, 1));
        plan::plan(&spec, &probe).map_err(|e| e.iter().map(plan::PlanError::diagnostic).collect::<Vec<_>>())?;
        let jobs: Vec<_> = desc.passes.iter().zip(interfaces).collect();
        let mut passes = Vec::new();
        for result in in_parallel(jobs, |i, (p, iface)| PreparedPass::new(i, &p.vertex, &p.fragment, iface)) {
            match result {
                Ok(pp) => passes.push(pp),
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let blit = BlitShaders::new().map_err(|e| vec![e])?;
        Ok(PreparedChain { desc, spec, aliases, lut_names, passes, blit })
    }
}

/// A built chain and its state between frames.
pub struct FilterChain {
    gpu: Arc<Gpu>,
    spec: ChainSpec,
    aliases: Vec<Option<String>>,
    lut_names: Vec<String>,
    passes: Vec<PassPipeline>,
    blit: Blit,
    vertices: wgpu::Buffer,
    outputs: Vec<Option<Texture>>,
    feedback: Vec<Option<Texture>>,
    /// Earlier inputs, most recent first.
    history: VecDeque<Texture>,
    input: Option<Texture>,
    /// An input texture no longer needed, reused for the next frame.
    spare: Option<Texture>,
    target: Option<Texture>,
    luts: Vec<Texture>,
    black: Texture,
    samplers: HashMap<(Sampling, bool), wgpu::Sampler>,
    parameters: BTreeMap<String, f32>,
    frame: u64,
    direction: i32,
    last_plan: Option<ChainPlan>,
    /// Per pass, the bind groups made so far by what they bind (views and samplers,
    /// compared by identity): history and feedback rotate through a few textures, so
    /// each frame finds its bind group here instead of making one.
    bind_groups: Vec<HashMap<BindKey, wgpu::BindGroup>>,
    /// Per pass, the uniform-buffer bytes last written (unchanged bytes are not written again).
    ubo_written: Vec<Option<Vec<u8>>>,
    /// Uniform names no semantic or parameter matched (left 0), per pass.
    pub unknown_uniforms: Vec<Vec<String>>,
    /// Timestamps around every render pass, once [`FilterChain::time_passes`] asked.
    timer: Option<PassTimer>,
}

impl FilterChain {
    /// Builds the chain: reflects every pass, checks what it reads, creates pipelines
    /// and LUT textures.
    pub fn new(gpu: Arc<Gpu>, desc: ChainDesc) -> Result<FilterChain, Vec<Diagnostic>> {
        FilterChain::from_prepared(gpu, desc.prepare()?)
    }

    /// Builds the chain [`ChainDesc::prepare`] made ready: pipelines and LUT textures.
    pub fn from_prepared(gpu: Arc<Gpu>, prepared: PreparedChain) -> Result<FilterChain, Vec<Diagnostic>> {
        let PreparedChain { desc, spec, aliases, lut_names, passes: prepared_passes, blit } = prepared;
        let mut errors = Vec::new();
        let mut passes = Vec::new();
        let n = prepared_passes.len();
        let made = in_parallel(prepared_passes, |i, p| {
            PassPipeline::new(&gpu, i, p, stored_format(plan::pass_format(&spec, i), i + 1 == n))
        });
        for result in made {
            match result {
                Ok(pp) => passes.push(pp),
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut blit = Blit::new(&gpu, blit).map_err(|e| vec![e])?;
        let vertices = gpu
            .scoped("creating the quad", || {
                let data = pipeline::quad_vertices();
                let b = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("quad"),
                    size: data.len() as u64,
                    usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                gpu.queue.write_buffer(&b, 0, &data);
                b
            })
            .map_err(|e| vec![e])?;
        let black = Texture::from_rgba8(&gpu, "cleared", Size::new(1, 1), &[0; 4], 1);
        let mut luts = Vec::new();
        let mut samplers = HashMap::new();
        for l in &desc.luts {
            let expected = (l.size.width as usize) * (l.size.height as usize) * 4;
            if l.rgba8.len() != expected || l.size.width == 0 || l.size.height == 0 {
                return Err(vec![Diagnostic::error(
                    codes::E_CHAIN_IMAGE,
                    format!("LUT `{}`: {} bytes for a {} image", l.name, l.rgba8.len(), l.size),
                )]);
            }
            let levels = if l.sampling.mipmap { l.size.mip_levels() } else { 1 };
            let t = Texture::from_rgba8(&gpu, &l.name, l.size, &l.rgba8, levels);
            if levels > 1 {
                let s = linear_sampler(&gpu, &mut samplers).clone();
                let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
                blit.mipmaps(&gpu, &mut encoder, &vertices, &t, &s, None).map_err(|e| vec![e])?;
                gpu.queue.submit([encoder.finish()]);
            }
            luts.push(t);
        }
        let mut parameters = BTreeMap::new();
        for p in &desc.passes {
            for (id, v) in &p.parameters {
                parameters.entry(id.clone()).or_insert(*v);
            }
        }
        for (id, v) in &desc.parameters {
            parameters.insert(id.clone(), *v);
        }
        let n = passes.len();
        Ok(FilterChain {
            gpu,
            spec,
            aliases,
            lut_names,
            passes,
            blit,
            vertices,
            outputs: (0..n).map(|_| None).collect(),
            feedback: (0..n).map(|_| None).collect(),
            history: VecDeque::new(),
            input: None,
            spare: None,
            target: None,
            luts,
            black,
            samplers,
            parameters,
            frame: 0,
            direction: 1,
            last_plan: None,
            bind_groups: (0..n).map(|_| HashMap::new()).collect(),
            ubo_written: vec![None; n],
            unknown_uniforms: vec![Vec::new(); n],
            timer: None,
        })
    }

    /// The adapter the chain renders on, in one line.
    pub fn gpu_name(&self) -> String {
        self.gpu.describe()
    }

    /// The chain's spec (with what every pass reads).
    pub fn spec(&self) -> &ChainSpec {
        &self.spec
    }

    /// The current parameter values.
    pub fn parameters(&self) -> &BTreeMap<String, f32> {
        &self.parameters
    }

    /// Sets `FrameDirection` for the next frames (+1, or -1 to rewind).
    pub fn set_direction(&mut self, direction: i32) {
        self.direction = if direction < 0 { -1 } else { 1 };
    }

    /// Frames rendered so far.
    pub fn frames_rendered(&self) -> u64 {
        self.frame
    }

    /// The plan of the last frame rendered.
    pub fn last_plan(&self) -> Option<&ChainPlan> {
        self.last_plan.as_ref()
    }

    /// Times every render pass of the frames rendered from now on on the GPU
    /// ([`super::timings`]); `E0711` when the device has no timestamp queries.
    pub fn time_passes(&mut self) -> Result<(), Diagnostic> {
        // A frame's spans: each pass, its mipmaps, and the stretch.
        self.timer = Some(PassTimer::new(&self.gpu, self.passes.len() * 2 + 1)?);
        Ok(())
    }

    /// The GPU times of the frames rendered since [`FilterChain::time_passes`] (every
    /// frame read back), or `None` when they were not timed.
    pub fn pass_timings(&mut self) -> Option<Result<Timings, Diagnostic>> {
        let gpu = self.gpu.clone();
        self.timer.as_mut().map(|t| t.finish(&gpu))
    }

    /// Renders one frame of `input` at `viewport`.
    pub fn render(&mut self, input: &InputImage, viewport: Size) -> Result<(), Vec<Diagnostic>> {
        let expected = (input.size.width as usize) * (input.size.height as usize) * 4;
        if input.rgba8.len() != expected {
            return Err(vec![Diagnostic::error(
                codes::E_CHAIN_IMAGE,
                format!("input frame: {} bytes for a {} image", input.rgba8.len(), input.size),
            )]);
        }
        let frame = Frame {
            index: self.frame,
            direction: self.direction,
            input: input.size,
            previous_inputs: self.history.iter().map(|t| t.size).collect(),
            viewport,
        };
        let plan = plan::plan(&self.spec, &frame)
            .map_err(|e| e.iter().map(plan::PlanError::diagnostic).collect::<Vec<_>>())?;
        let gpu = self.gpu.clone();
        gpu.scoped("rendering a frame", || self.encode(&plan, input)).map_err(|e| vec![e])?.map_err(|e| vec![e])?;
        // Keep the input for the history ring, rotate feedback.
        if let Some(t) = self.input.take() {
            if plan.history_depth > 0 {
                self.history.push_front(t);
                if self.history.len() > plan.history_depth {
                    self.spare = self.history.pop_back();
                }
            } else {
                self.spare = Some(t);
            }
        }
        for &n in &plan.feedback {
            if let (Some(out), Some(fb)) = (self.outputs.get_mut(n), self.feedback.get_mut(n)) {
                std::mem::swap(out, fb);
            }
        }
        self.frame += 1;
        self.last_plan = Some(plan);
        Ok(())
    }

    fn sampler(&mut self, s: Sampling, filterable: bool) -> wgpu::Sampler {
        let gpu = &self.gpu;
        self.samplers.entry((s, filterable)).or_insert_with(|| textures::sampler(gpu, s, filterable)).clone()
    }

    /// Makes sure the textures this frame draws into exist with the right size and format
    /// (`direct`: the pass that draws into the viewport instead of its framebuffer).
    fn prepare(&mut self, plan: &ChainPlan, input: &InputImage, direct: Option<usize>) {
        let gpu = self.gpu.clone();
        // Reuse the input texture of an earlier frame that nothing needs any more.
        let reuse = self.input.take().or_else(|| self.spare.take());
        let mut created = false;
        let t = match reuse {
            Some(mut t) if t.size == input.size && t.format == textures::IMAGE_FORMAT => {
                t.upload_rgba8(&gpu, &input.rgba8);
                t
            }
            _ => {
                created = true;
                let mut t = Texture::new(&gpu, "original", input.size, textures::IMAGE_FORMAT, 1);
                t.upload_rgba8(&gpu, &input.rgba8);
                t
            }
        };
        self.input = Some(t);
        for p in &plan.passes {
            if p.target == plan::Target::Viewport {
                continue;
            }
            if direct == Some(p.index) {
                // Drawn into the viewport: a framebuffer kept from earlier frames goes.
                created |= self.outputs[p.index].take().is_some();
                continue;
            }
            let format = stored_format(p.format, p.index + 1 == plan.passes.len());
            let levels = if p.mipmapped { p.output_size.mip_levels() } else { 1 };
            let fits = |t: &Option<Texture>| {
                t.as_ref().is_some_and(|t| t.size == p.output_size && t.format == format && t.mip_levels == levels)
            };
            if !fits(&self.outputs[p.index]) {
                created = true;
                self.outputs[p.index] =
                    Some(Texture::new(&gpu, &format!("pass {}", p.index), p.output_size, format, levels));
            }
        }
        let fits = self.target.as_ref().is_some_and(|t| t.size == plan.viewport);
        if !fits {
            created = true;
            self.target = Some(Texture::new(&gpu, "viewport", plan.viewport, VIEWPORT_FORMAT, 1));
        }
        if created {
            // Bind groups of replaced textures would keep them alive.
            self.bind_groups.iter_mut().for_each(HashMap::clear);
            self.blit.forget_bind_groups();
        }
    }

    /// The view a pass samples `r` through (see [`Texture::sampled_view`]).
    fn view(&self, r: Resource, cleared: bool, mipmap: bool) -> Option<&wgpu::TextureView> {
        if cleared {
            return Some(&self.black.view);
        }
        let texture = match r {
            Resource::Original => self.input.as_ref()?,
            Resource::History(k) => self.history.get(k.checked_sub(1)?)?,
            Resource::PassOutput(n) => self.outputs.get(n)?.as_ref()?,
            Resource::Feedback(n) => match self.feedback.get(n)? {
                Some(t) => t,
                None => &self.black,
            },
            Resource::Lut(i) => self.luts.get(i)?,
        };
        Some(texture.sampled_view(mipmap))
    }

    fn encode(&mut self, plan: &ChainPlan, input: &InputImage) -> Result<(), Diagnostic> {
        let direct = drawn_into_viewport(plan);
        self.prepare(plan, input, direct);
        let gpu = self.gpu.clone();
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        let linear = linear_sampler(&gpu, &mut self.samplers).clone();
        if let Some(t) = self.timer.as_mut() {
            t.begin_frame(&gpu)?;
        }
        for (i, p) in plan.passes.iter().enumerate() {
            // Samplers first (needs &mut self).
            let slots: Vec<(Resource, bool)> =
                self.passes[i].samplers.iter().map(|s| (s.resource, s.filterable)).collect();
            let mut samplers = Vec::new();
            for (resource, filterable) in slots {
                let sampling = p.read(resource).map_or(Sampling::DEFAULT, |t| t.sampling);
                samplers.push(self.sampler(sampling, filterable));
            }
            let pp = &self.passes[i];
            let semantics =
                Semantics { pass: p, aliases: &self.aliases, luts: &self.lut_names, parameters: &self.parameters };
            let mut unknown = Vec::new();
            if let Some((block, buffer)) = &pp.ubo {
                let mut bytes = vec![0u8; buffer.size() as usize];
                unknown.extend(semantics.fill(&block.members, &mut bytes));
                if self.ubo_written[i].as_deref() != Some(&bytes[..]) {
                    gpu.queue.write_buffer(buffer, 0, &bytes);
                    self.ubo_written[i] = Some(bytes);
                }
            }
            let mut push = Vec::new();
            if let Some(block) = &pp.push {
                push = vec![0u8; (block.size.div_ceil(4) * 4) as usize];
                unknown.extend(semantics.fill(&block.members, &mut push));
            }
            unknown.sort();
            unknown.dedup();
            let mut views = Vec::with_capacity(pp.textures.len());
            for t in &pp.textures {
                let read = p.read(t.resource);
                let view = read.and_then(|r| self.view(r.resource, r.cleared, r.sampling.mipmap)).ok_or_else(|| {
                    Diagnostic::error(
                        codes::E_CHAIN_BINDING,
                        format!(
                            "pass {i}: texture `{}` ({:?}) is not available to this pass",
                            t.global.name, t.resource
                        ),
                    )
                })?;
                views.push(view.clone());
            }
            let key = BindKey { views, samplers };
            // wgpu's handles hash and compare by identity (`impl_eq_ord_hash_proxy`),
            // which their interior mutability does not change.
            #[allow(clippy::mutable_key_type)]
            let cache = &mut self.bind_groups[i];
            if !cache.contains_key(&key) {
                if cache.len() >= MAX_BIND_GROUPS {
                    cache.clear();
                }
                let mut entries = Vec::new();
                if let Some((block, buffer)) = &pp.ubo {
                    entries.push(wgpu::BindGroupEntry {
                        binding: block.binding.unwrap_or(0),
                        resource: buffer.as_entire_binding(),
                    });
                }
                for (t, view) in pp.textures.iter().zip(&key.views) {
                    entries.push(wgpu::BindGroupEntry {
                        binding: t.global.binding,
                        resource: wgpu::BindingResource::TextureView(view),
                    });
                }
                for (s, sampler) in pp.samplers.iter().zip(&key.samplers) {
                    entries.push(wgpu::BindGroupEntry {
                        binding: s.global.binding,
                        resource: wgpu::BindingResource::Sampler(sampler),
                    });
                }
                let bind = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("pass"),
                    layout: &pp.layout,
                    entries: &entries,
                });
                cache.insert(key.clone(), bind);
            }
            let bind = cache
                .get(&key)
                .cloned()
                .ok_or_else(|| Diagnostic::error(codes::E_CHAIN_GPU, format!("pass {i}: its bind group is missing")))?;
            let target = match p.target {
                plan::Target::Framebuffer if direct != Some(i) => self.outputs[i].as_ref(),
                plan::Target::Viewport | plan::Target::Framebuffer => self.target.as_ref(),
            }
            .ok_or_else(|| Diagnostic::error(codes::E_CHAIN_GPU, format!("pass {i} has no target")))?;
            let target_view = target.level_view(0);
            let timed = self.timer.as_mut().and_then(|t| t.span(Span::Pass(i)));
            {
                let mut rp = pipeline::begin(
                    &mut encoder,
                    "pass",
                    &target_view,
                    pp.clears,
                    timed.as_ref().map(SpanQueries::whole),
                );
                rp.set_pipeline(&pp.pipeline);
                rp.set_bind_group(0, &bind, &[]);
                rp.set_vertex_buffer(0, self.vertices.slice(..));
                if !push.is_empty() {
                    rp.set_immediates(0, &push);
                }
                let first = if p.quad == plan::Quad::Final { 4 } else { 0 };
                rp.draw(first..first + 4, 0..1);
            }
            self.unknown_uniforms[i] = unknown;
            if p.mipmapped {
                if let Some(t) = self.outputs[i].as_ref() {
                    let timed = self.timer.as_mut().and_then(|t| t.span(Span::Mipmaps(i)));
                    self.blit.mipmaps(&gpu, &mut encoder, &self.vertices, t, &linear, timed.as_ref())?;
                }
            }
        }
        if let Some(stretch) = plan.stretch.as_ref().filter(|_| direct.is_none()) {
            let sampler = self.sampler(stretch.input.sampling, true);
            let n = plan.passes.len() - 1;
            let (Some(src), Some(dst)) = (self.outputs[n].as_ref(), self.target.as_ref()) else {
                return Err(Diagnostic::error(codes::E_CHAIN_GPU, "the stretch pass has no source or target"));
            };
            let dst_view = dst.level_view(0);
            let timed = self.timer.as_mut().and_then(|t| t.span(Span::Stretch));
            let timestamps = timed.as_ref().map(SpanQueries::whole);
            self.blit.draw(
                &gpu,
                &mut encoder,
                &self.vertices,
                &src.view,
                &sampler,
                &dst_view,
                dst.format,
                timestamps,
            )?;
        }
        if let Some(t) = self.timer.as_mut() {
            t.end_frame(&mut encoder);
        }
        let submission = gpu.queue.submit([encoder.finish()]);
        if let Some(t) = self.timer.as_mut() {
            t.submitted(submission);
        }
        Ok(())
    }

    /// The final image of the last frame (viewport size, RGBA8).
    pub fn read_output(&self) -> Result<Pixels, Diagnostic> {
        let t = self.target.as_ref().ok_or_else(|| Diagnostic::error(codes::E_CHAIN_GPU, "no frame was rendered"))?;
        textures::read_back(&self.gpu, t)
    }

    /// [`Self::read_output`] as 8-bit RGBA (what a PNG of it holds), read without a
    /// float image in between ([`textures::read_back_rgba8`]).
    pub fn read_output_rgba8(&self) -> Result<(Size, Vec<u8>), Diagnostic> {
        let t = self.target.as_ref().ok_or_else(|| Diagnostic::error(codes::E_CHAIN_GPU, "no frame was rendered"))?;
        textures::read_back_rgba8(&self.gpu, t)
    }

    /// Pass `n`'s output of the last frame (the final image for a pass drawn to the viewport).
    pub fn read_pass(&self, n: usize) -> Result<Pixels, Diagnostic> {
        let to_viewport = self.last_plan.as_ref().is_some_and(|plan| {
            plan.passes.get(n).is_some_and(|p| p.target == plan::Target::Viewport)
                || drawn_into_viewport(plan) == Some(n)
        });
        if to_viewport {
            return self.read_output();
        }
        // After the swap, a feedback pass's last output is in `feedback`.
        let is_feedback = self.last_plan.as_ref().is_some_and(|p| p.feedback.contains(&n));
        let t = if is_feedback { self.feedback.get(n) } else { self.outputs.get(n) };
        let t = t
            .and_then(Option::as_ref)
            .ok_or_else(|| Diagnostic::error(codes::E_CHAIN_GPU, format!("pass {n} has no output")))?;
        textures::read_back(&self.gpu, t)
    }

    /// How many passes the chain has.
    pub fn pass_count(&self) -> usize {
        self.passes.len()
    }
}

/// The format of the viewport texture the last pass (or the stretch) draws into:
/// B8G8R8A8_UNORM, the swapchain format RetroArch's Vulkan driver gets on most systems and
/// the one librashader-cli renders into. It holds the same values as R8G8B8A8_UNORM
/// (read-back swaps the channels back); Mesa 22.3's llvmpipe keeps its fast rasterizer
/// (a quad drawn as one rectangle, no edge tests) for BGRA targets, not RGBA ones: a
/// one-pass copy at 256x224 took 0.58 ms per frame into RGBA8 and 0.25 ms into BGRA8
/// (librashader 0.21).
const VIEWPORT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;

/// The texture format a pass draws into: its own, except that the last pass keeps an
/// R8G8B8A8_UNORM output in the viewport's format, which holds the same values. The last
/// pass then draws into the viewport and into its own framebuffer with one pipeline
/// ([`drawn_into_viewport`] picks either per frame).
fn stored_format(format: Format, last: bool) -> wgpu::TextureFormat {
    match textures::wgpu_format(format) {
        wgpu::TextureFormat::Rgba8Unorm if last => VIEWPORT_FORMAT,
        f => f,
    }
}

/// The last pass of `plan` when it can draw straight into the viewport instead of into
/// its framebuffer: RetroArch stretches a last pass with a scale type to the viewport
/// with a nearest read, which copies every texel to the pixel at the same place when the
/// framebuffer has the viewport's size and format, and nothing else reads it (no
/// feedback, no mipmaps). The image is the same to the byte, and the GPU is spared a
/// full-screen pass: 0.30 ms of crt-royale's 7.74 ms per frame at 1920x1080 on an H200.
fn drawn_into_viewport(plan: &ChainPlan) -> Option<usize> {
    let stretch = plan.stretch.as_ref()?;
    let last = plan.passes.last()?;
    let copies = stretch.input.resource == Resource::PassOutput(last.index)
        && stretch.input.size == plan.viewport
        && stretch.output_size == plan.viewport
        && stretch.input.sampling.filter == Filter::Nearest
        && stored_format(last.format, true) == VIEWPORT_FORMAT
        && !last.mipmapped
        && !plan.feedback.contains(&last.index);
    copies.then_some(last.index)
}

/// `f(i, item)` for every item, results in the items' order, on up to as many threads
/// as the machine has: preparing and making every pass's pipeline (naga's validation and
/// SPIR-V writer, the driver's compiler) is start-up time. wgpu's error scopes are per
/// thread, so each pass's errors stay its own.
fn in_parallel<T: Send, R: Send>(
    items: Vec<T>,
    f: impl Fn(usize, T) -> Result<R, Diagnostic> + Sync,
) -> Vec<Result<R, Diagnostic>> {
    use std::sync::{Mutex, PoisonError};
    let n = items.len();
    let jobs: Vec<Mutex<Option<T>>> = items.into_iter().map(|i| Mutex::new(Some(i))).collect();
    let results: Vec<Mutex<Option<Result<R, Diagnostic>>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(job) = jobs.get(i) else { break };
        let Some(item) = job.lock().unwrap_or_else(PoisonError::into_inner).take() else { continue };
        let r = f(i, item);
        if let Some(slot) = results.get(i) {
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(r);
        }
    };
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get).clamp(1, n.max(1));
    std::thread::scope(|s| {
        for _ in 1..workers {
            s.spawn(work);
        }
        work();
    });
    results
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            m.into_inner().unwrap_or_else(PoisonError::into_inner).unwrap_or_else(|| {
                Err(Diagnostic::error(codes::E_CHAIN_GPU, format!("pass {i}: its thread returned nothing")))
            })
        })
        .collect()
}

/// Bind groups kept per pass at most (a history ring of depth k needs k + 1).
const MAX_BIND_GROUPS: usize = 64;

/// What a pass's bind group binds besides its uniform buffer (which never changes):
/// its texture views and samplers in binding order, compared by identity.
#[derive(Clone, PartialEq, Eq, Hash)]
struct BindKey {
    views: Vec<wgpu::TextureView>,
    samplers: Vec<wgpu::Sampler>,
}

fn linear_sampler<'a>(gpu: &Gpu, cache: &'a mut HashMap<(Sampling, bool), wgpu::Sampler>) -> &'a wgpu::Sampler {
    let s = Sampling { filter: Filter::Linear, wrap: WrapMode::ClampToEdge, mipmap: false };
    cache.entry((s, true)).or_insert_with(|| textures::sampler(gpu, s, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the last pass's R8G8B8A8_UNORM output goes into the viewport's format; every
    /// other format, and every earlier pass, keeps its own.
    #[test]
    fn the_last_pass_stores_rgba8_in_the_viewport_format() {
        use wgpu::TextureFormat as T;
        assert_eq!(VIEWPORT_FORMAT, T::Bgra8Unorm);
        assert_eq!(stored_format(Format::R8G8B8A8Unorm, true), VIEWPORT_FORMAT);
        assert_eq!(stored_format(Format::R8G8B8A8Unorm, false), T::Rgba8Unorm);
        for (format, wgpu) in [
            (Format::R8G8B8A8Srgb, T::Rgba8UnormSrgb),
            (Format::R16G16B16A16Sfloat, T::Rgba16Float),
            (Format::R32G32B32A32Sfloat, T::Rgba32Float),
            (Format::A2B10G10R10UnormPack32, T::Rgb10a2Unorm),
        ] {
            assert_eq!(stored_format(format, true), wgpu);
            assert_eq!(stored_format(format, false), wgpu);
        }
    }
}
