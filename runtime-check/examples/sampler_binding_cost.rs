//! Measures what binding textures apart from their samplers, and naga's SPIR-V, cost a
//! fragment stage on a GPU, with Vulkan directly (no wgpu). The same full-screen pass is
//! drawn from SPIR-V that binds each texture as a combined image sampler, as RetroArch
//! and librashader bind every slang texture, and from SPIR-V that binds a sampled image
//! and a sampler apart, as wgpu must. GPU time comes from timestamp queries around a
//! batch of draws (no CPU time in the figures); the variants run interleaved, and each
//! one's image (read back once) is compared with the combined form's, so that a variant
//! that drew something else shows. A measuring tool, never part of the chain.
//!
//!   cargo run --release -p runtime-check --example sampler_binding_cost -- \
//!       [--slang FILE.slang] [--src 3840x2160] [--scale 2] [--fetches 25] \
//!       [--draws 40] [--rounds 7]
//!
//! The source is an RGBA8 texture of pseudo-random bytes at `--src`, sampled nearest
//! with clamp-to-edge, into an RGBA8 target `--scale` times its size. Without `--slang`
//! the stage is synthetic: `--fetches` weighted reads around each pixel (a 5x5
//! neighbourhood and beyond), from glslang (combined and split) and from naga (split).
//! With `--slang` it is that file's fragment stage (a migrated pass, includes resolved),
//! every texture it reads bound to the source, its push constants filled with the sizes
//! (`OutputSize` the target's, any other `*Size` the source's) and the parameters'
//! initial values, a uniform block with zeros, and a vertex stage of our own feeding its
//! inputs (`vec2`s the texture coordinate, others ones). The variants then are glslang's
//! SPIR-V as RetroArch hands it over (combined); that SPIR-V through the chain's sampler
//! split (`chain::slang::split_combined_samplers`); the chain's naga module written as
//! wgpu writes it (SPIR-V 1.6, wgpu's bounds-check policies with robust access); and
//! four candidate causes of naga's share: every texture reading one sampler variable
//! (both forms), naga's SPIR-V without its zero initialisers of locals, naga's SPIR-V as
//! version 1.0, and glslang's with its image and sampler loads moved to the top of the
//! function, where naga's writer puts them. Where the device offers
//! `VK_KHR_pipeline_executable_properties`, each variant's line is followed by the
//! driver's statistics of the compiled fragment stage (on NVIDIA's: registers and the
//! binary's size).

#![allow(unsafe_code)] // Vulkan directly: every call below is an FFI call.

use ash::vk;
use runtime_check::validate::{glslang, Stage};
use std::ffi::CStr;

struct Args {
    src: (u32, u32),
    scale: u32,
    fetches: u32,
    draws: u32,
    rounds: u32,
    /// A `.slang` file whose fragment stage is drawn instead of the synthetic one.
    slang: Option<std::path::PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args { src: (3840, 2160), scale: 2, fetches: 25, draws: 40, rounds: 7, slang: None };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<u32>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--src" => {
                let (w, h) = value.split_once('x').ok_or("--src takes WxH")?;
                a.src = (num(w)?, num(h)?);
            }
            "--scale" => a.scale = num(&value)?,
            "--fetches" => a.fetches = num(&value)?,
            "--draws" => a.draws = num(&value)?,
            "--rounds" => a.rounds = num(&value)?,
            "--slang" => a.slang = Some(value.into()),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if a.src.0 == 0 || a.src.1 == 0 || a.scale == 0 || a.draws == 0 || a.rounds == 0 {
        return Err("sizes, --scale, --draws and --rounds must be positive".into());
    }
    Ok(a)
}

const VERTEX: &str = "#version 450
layout(location = 0) out vec2 uv;
void main() {
    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
";

/// The fragment shader: `fetches` reads at offsets spiralling out from the pixel, each
/// weighted, in either binding form.
fn fragment(fetches: u32, split: bool) -> String {
    let decl = if split {
        "layout(set = 0, binding = 0) uniform texture2D srcTex;\nlayout(set = 0, binding = 1) uniform sampler srcSmp;\n#define SRC sampler2D(srcTex, srcSmp)\n"
    } else {
        "layout(set = 0, binding = 0) uniform sampler2D srcCombined;\n#define SRC srcCombined\n"
    };
    let mut body = String::new();
    for i in 0..fetches {
        let (dx, dy) = (i as i32 % 5 - 2, (i as i32 / 5) % 5 - 2 + (i as i32 / 25));
        let w = 1.0 + (i as f32) * 0.125;
        body.push_str(&format!(
            "    c = texture(SRC, uv + vec2({dx}.0, {dy}.0) * p.texel);\n    acc += {w:?} * c * (1.0 - abs(c.a - acc.a * 0.01));\n"
        ));
    }
    format!(
        "#version 450\n{decl}layout(push_constant) uniform Push {{ vec2 texel; }} p;\nlayout(location = 0) in vec2 uv;\nlayout(location = 0) out vec4 o;\nvoid main() {{\n    vec4 acc = vec4(0.0);\n    vec4 c;\n{body}    o = acc * {:?};\n}}\n",
        1.0 / (fetches.max(1) as f32 * 4.0)
    )
}

fn glslang_spirv(text: &str, stage: Stage) -> Result<Vec<u32>, String> {
    glslang::compile(text, stage).map_err(|m| m.iter().map(|m| m.text.clone()).collect::<Vec<_>>().join("; "))
}

fn naga_spirv(text: &str) -> Result<Vec<u32>, String> {
    let module = naga::front::glsl::Frontend::default()
        .parse(&naga::front::glsl::Options::from(naga::ShaderStage::Fragment), text)
        .map_err(|e| format!("naga: {e:?}"))?;
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| format!("naga: {e:?}"))?;
    let options = naga::back::spv::Options {
        flags: naga::back::spv::WriterFlags::empty(),
        bounds_check_policies: naga::proc::BoundsCheckPolicies::default(),
        ..naga::back::spv::Options::default()
    };
    let pipeline =
        naga::back::spv::PipelineOptions { shader_stage: naga::ShaderStage::Fragment, entry_point: "main".into() };
    naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline)).map_err(|e| format!("naga: {e:?}"))
}

struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    timestamp_period: f64,
    name: String,
    /// `VK_KHR_pipeline_executable_properties`, where the device has it: the driver's
    /// statistics of each compiled stage (registers, instructions, ...).
    executables: Option<ash::khr::pipeline_executable_properties::Device>,
}

fn vkr<T>(r: Result<T, vk::Result>, what: &str) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e:?}"))
}

impl Gpu {
    fn new() -> Result<Gpu, String> {
        // SAFETY: loads the system's Vulkan loader; nothing else is called before.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("loading Vulkan: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        // SAFETY: valid create info; the instance is destroyed in Drop.
        let instance = vkr(
            unsafe { entry.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None) },
            "instance",
        )?;
        // SAFETY: the instance is live.
        let phys = vkr(unsafe { instance.enumerate_physical_devices() }, "devices")?;
        let pick = phys
            .iter()
            .copied()
            // SAFETY: `p` came from this instance.
            .max_by_key(|&p| match unsafe { instance.get_physical_device_properties(p) }.device_type {
                vk::PhysicalDeviceType::DISCRETE_GPU => 3,
                vk::PhysicalDeviceType::INTEGRATED_GPU => 2,
                _ => 1,
            })
            .ok_or("no Vulkan device")?;
        // SAFETY: `pick` came from this instance.
        let props = unsafe { instance.get_physical_device_properties(pick) };
        let name = props.device_name_as_c_str().map(CStr::to_string_lossy).unwrap_or_default().into_owned();
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(pick) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS) && f.timestamp_valid_bits > 0)
            .ok_or("no graphics queue with timestamps")? as u32;
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&priorities)];
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default().dynamic_rendering(true);
        // SAFETY: `pick` came from this instance.
        let available = vkr(unsafe { instance.enumerate_device_extension_properties(pick) }, "extensions")?;
        let statistics =
            available.iter().any(|e| e.extension_name_as_c_str() == Ok(ash::khr::pipeline_executable_properties::NAME));
        let extensions = [ash::khr::pipeline_executable_properties::NAME.as_ptr()];
        let mut executable_info =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);
        let mut info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).push_next(&mut v13);
        if statistics {
            info = info.enabled_extension_names(&extensions).push_next(&mut executable_info);
        }
        // SAFETY: valid create info for a device of this instance.
        let device = vkr(unsafe { instance.create_device(pick, &info, None) }, "device")?;
        let executables = statistics.then(|| ash::khr::pipeline_executable_properties::Device::new(&instance, &device));
        // SAFETY: the family and index exist.
        let queue = unsafe { device.get_device_queue(family, 0) };
        // SAFETY: `pick` came from this instance.
        let memory = unsafe { instance.get_physical_device_memory_properties(pick) };
        Ok(Gpu {
            _entry: entry,
            instance,
            device,
            queue,
            family,
            memory,
            timestamp_period: f64::from(props.limits.timestamp_period),
            name,
            executables,
        })
    }

    fn memory_type(&self, bits: u32, flags: vk::MemoryPropertyFlags) -> Result<u32, String> {
        (0..self.memory.memory_type_count)
            .find(|&i| bits & (1 << i) != 0 && self.memory.memory_types[i as usize].property_flags.contains(flags))
            .ok_or_else(|| format!("no memory type with {flags:?}"))
    }

    /// A host-visible, coherent buffer of `size` bytes for `usage`, bound to memory of its own.
    fn host_buffer(&self, size: u64, usage: vk::BufferUsageFlags) -> Result<(vk::Buffer, vk::DeviceMemory), String> {
        let d = &self.device;
        // SAFETY: valid create and allocate infos; the buffer is bound once, to fresh
        // memory of its requirements; both live until the process ends.
        unsafe {
            let buffer =
                vkr(d.create_buffer(&vk::BufferCreateInfo::default().size(size).usage(usage), None), "buffer")?;
            let req = d.get_buffer_memory_requirements(buffer);
            let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let memory = vkr(
                d.allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(self.memory_type(req.memory_type_bits, host)?),
                    None,
                ),
                "buffer memory",
            )?;
            vkr(d.bind_buffer_memory(buffer, memory, 0), "bind buffer")?;
            Ok((buffer, memory))
        }
    }

    fn image(&self, w: u32, h: u32, usage: vk::ImageUsageFlags) -> Result<(vk::Image, vk::ImageView), String> {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D { width: w, height: h, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: valid create info; the bench exits after use, the driver frees all.
        let image = vkr(unsafe { self.device.create_image(&info, None) }, "image")?;
        // SAFETY: `image` is live.
        let req = unsafe { self.device.get_image_memory_requirements(image) };
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(self.memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::DEVICE_LOCAL)?);
        // SAFETY: valid allocate info; bound once below.
        let mem = vkr(unsafe { self.device.allocate_memory(&alloc, None) }, "image memory")?;
        // SAFETY: fresh image and memory of its requirements.
        vkr(unsafe { self.device.bind_image_memory(image, mem, 0) }, "bind image")?;
        let view = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .subresource_range(color_range());
        // SAFETY: `image` is live and bound.
        let view = vkr(unsafe { self.device.create_image_view(&view, None) }, "image view")?;
        Ok((image, view))
    }

    fn module(&self, words: &[u32]) -> Result<vk::ShaderModule, String> {
        // SAFETY: `words` is SPIR-V from glslang or naga, validated by them.
        vkr(
            unsafe { self.device.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None) },
            "module",
        )
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: everything made from the device has finished (each submit is waited
        // for); destroying the device frees what is left of it.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn color_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default().aspect_mask(vk::ImageAspectFlags::COLOR).level_count(1).layer_count(1)
}

/// An image's layout, the accesses that use it in that layout and their stages.
#[derive(Clone, Copy)]
struct Use(vk::ImageLayout, vk::AccessFlags, vk::PipelineStageFlags);

const UNUSED: Use = Use(vk::ImageLayout::UNDEFINED, vk::AccessFlags::empty(), vk::PipelineStageFlags::TOP_OF_PIPE);
const COPY_TO: Use =
    Use(vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::AccessFlags::TRANSFER_WRITE, vk::PipelineStageFlags::TRANSFER);
const COPY_FROM: Use =
    Use(vk::ImageLayout::TRANSFER_SRC_OPTIMAL, vk::AccessFlags::TRANSFER_READ, vk::PipelineStageFlags::TRANSFER);
const SAMPLED: Use = Use(
    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
    vk::AccessFlags::SHADER_READ,
    vk::PipelineStageFlags::FRAGMENT_SHADER,
);
const DRAWN: Use = Use(
    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
    vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
    vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
);

/// Records `image`'s move from one use to the next.
///
/// # Safety
/// `cmd` is recording and `image` is live.
unsafe fn transition(d: &ash::Device, cmd: vk::CommandBuffer, image: vk::Image, from: Use, to: Use) {
    let barrier = vk::ImageMemoryBarrier::default()
        .image(image)
        .old_layout(from.0)
        .new_layout(to.0)
        .src_access_mask(from.1)
        .dst_access_mask(to.1)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(color_range());
    // SAFETY: the caller's.
    unsafe { d.cmd_pipeline_barrier(cmd, from.2, to.2, vk::DependencyFlags::empty(), &[], &[], &[barrier]) };
}

/// A copy of a whole `w` x `h` image to or from a tightly packed buffer.
fn whole_image(w: u32, h: u32) -> vk::BufferImageCopy {
    vk::BufferImageCopy::default()
        .image_subresource(
            vk::ImageSubresourceLayers::default().aspect_mask(vk::ImageAspectFlags::COLOR).layer_count(1),
        )
        .image_extent(vk::Extent3D { width: w, height: h, depth: 1 })
}

/// What a fragment stage reads at one binding.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Combined,
    Image,
    Sampler,
    /// A uniform buffer of this many bytes (bound to zeros).
    Uniform(u64),
}

impl Slot {
    fn descriptor_type(self) -> vk::DescriptorType {
        match self {
            Slot::Combined => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            Slot::Image => vk::DescriptorType::SAMPLED_IMAGE,
            Slot::Sampler => vk::DescriptorType::SAMPLER,
            Slot::Uniform(_) => vk::DescriptorType::UNIFORM_BUFFER,
        }
    }
}

/// One fragment stage to time: its SPIR-V, what it binds, its push-constant bytes.
struct Shader {
    name: &'static str,
    words: Vec<u32>,
    slots: Vec<(u32, Slot)>,
}

/// One way of binding the source: its pipeline and descriptor set.
struct Variant {
    name: &'static str,
    pipeline: vk::Pipeline,
    layout: vk::PipelineLayout,
    set: vk::DescriptorSet,
    /// The driver's statistics of the compiled fragment stage (empty without them).
    statistics: String,
}

struct Bound {
    view: vk::ImageView,
    sampler: vk::Sampler,
    /// A zeroed buffer for any uniform block the stage reads.
    zeros: vk::Buffer,
    push_size: u32,
}

fn variant(gpu: &Gpu, shader: &Shader, vertex: vk::ShaderModule, bound: &Bound) -> Result<Variant, String> {
    let d = &gpu.device;
    let stage = vk::ShaderStageFlags::FRAGMENT;
    let bindings: Vec<vk::DescriptorSetLayoutBinding> = shader
        .slots
        .iter()
        .map(|&(b, slot)| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b)
                .descriptor_type(slot.descriptor_type())
                .descriptor_count(1)
                .stage_flags(stage)
        })
        .collect();
    // SAFETY (this function): every create info is valid and refers to live objects;
    // the objects live until the process ends.
    let set_layout = vkr(
        unsafe {
            d.create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
        },
        "set layout",
    )?;
    let sizes: Vec<vk::DescriptorPoolSize> =
        bindings.iter().map(|b| vk::DescriptorPoolSize { ty: b.descriptor_type, descriptor_count: 1 }).collect();
    let pool = vkr(
        unsafe {
            d.create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
        },
        "pool",
    )?;
    let layouts = [set_layout];
    let set = vkr(
        unsafe {
            d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&layouts),
            )
        },
        "set",
    )?[0];
    let image_infos: Vec<[vk::DescriptorImageInfo; 1]> = shader
        .slots
        .iter()
        .map(|&(_, slot)| {
            let info = vk::DescriptorImageInfo::default().image_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
            [match slot {
                Slot::Combined => info.image_view(bound.view).sampler(bound.sampler),
                Slot::Image => info.image_view(bound.view),
                Slot::Sampler => info.sampler(bound.sampler),
                Slot::Uniform(_) => info,
            }]
        })
        .collect();
    let buffer_infos: Vec<[vk::DescriptorBufferInfo; 1]> = shader
        .slots
        .iter()
        .map(|&(_, slot)| {
            let size = if let Slot::Uniform(n) = slot { n } else { 0 };
            [vk::DescriptorBufferInfo::default().buffer(bound.zeros).range(size.max(16))]
        })
        .collect();
    let writes: Vec<vk::WriteDescriptorSet> = shader
        .slots
        .iter()
        .zip(image_infos.iter().zip(&buffer_infos))
        .map(|(&(b, slot), (image, buffer))| {
            let w =
                vk::WriteDescriptorSet::default().dst_set(set).dst_binding(b).descriptor_type(slot.descriptor_type());
            match slot {
                Slot::Uniform(_) => w.buffer_info(buffer),
                _ => w.image_info(image),
            }
        })
        .collect();
    unsafe { d.update_descriptor_sets(&writes, &[]) };
    let push = [vk::PushConstantRange::default().stage_flags(stage).size(bound.push_size.max(4))];
    let layout = vkr(
        unsafe {
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts).push_constant_ranges(&push),
                None,
            )
        },
        "pipeline layout",
    )?;
    let fragment = gpu.module(&shader.words)?;
    let main = c"main";
    let stages = [
        vk::PipelineShaderStageCreateInfo::default().stage(vk::ShaderStageFlags::VERTEX).module(vertex).name(main),
        vk::PipelineShaderStageCreateInfo::default().stage(stage).module(fragment).name(main),
    ];
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewport = vk::PipelineViewportStateCreateInfo::default().viewport_count(1).scissor_count(1);
    let raster = vk::PipelineRasterizationStateCreateInfo::default().line_width(1.0);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let attachments =
        [vk::PipelineColorBlendAttachmentState::default().color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments);
    let dynamic_states = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let formats = [vk::Format::R8G8B8A8_UNORM];
    let mut rendering = vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .dynamic_state(&dynamic)
        .layout(layout)
        .push_next(&mut rendering);
    let info =
        if gpu.executables.is_some() { info.flags(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR) } else { info };
    let pipeline = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) }
        .map_err(|(_, e)| format!("pipeline: {e:?}"))?[0];
    let statistics = match &gpu.executables {
        Some(ext) => fragment_statistics(ext, pipeline)?,
        None => String::new(),
    };
    Ok(Variant { name: shader.name, pipeline, layout, set, statistics })
}

/// The driver's statistics of `pipeline`'s fragment executable, as `name value` pairs.
fn fragment_statistics(
    ext: &ash::khr::pipeline_executable_properties::Device,
    pipeline: vk::Pipeline,
) -> Result<String, String> {
    // SAFETY: `pipeline` is live and was created with `CAPTURE_STATISTICS_KHR`.
    let executables = vkr(
        unsafe { ext.get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(pipeline)) },
        "executables",
    )?;
    let mut out = Vec::new();
    for (index, e) in executables.iter().enumerate() {
        if !e.stages.contains(vk::ShaderStageFlags::FRAGMENT) {
            continue;
        }
        let info = vk::PipelineExecutableInfoKHR::default().pipeline(pipeline).executable_index(index as u32);
        // SAFETY: as above; `index` is one of its executables.
        let stats = vkr(unsafe { ext.get_pipeline_executable_statistics(&info) }, "statistics")?;
        for st in &stats {
            let name = st.name_as_c_str().map(CStr::to_string_lossy).unwrap_or_default();
            // SAFETY: `format` says which member of the union the driver wrote.
            let value = unsafe {
                match st.format {
                    vk::PipelineExecutableStatisticFormatKHR::BOOL32 => (st.value.b32 != 0).to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::INT64 => st.value.i64.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::UINT64 => st.value.u64.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => format!("{:.3}", st.value.f64),
                    _ => "?".into(),
                }
            };
            out.push(format!("{name} {value}"));
        }
    }
    Ok(out.join(", "))
}

/// The synthetic stage in both binding forms, and its push constants (the texel size).
fn synthetic(args: &Args) -> Result<(Vec<Shader>, Vec<u8>, String), String> {
    let combined = fragment(args.fetches, false);
    let split = fragment(args.fetches, true);
    let shaders = vec![
        Shader {
            name: "combined (glslang)",
            words: glslang_spirv(&combined, Stage::Fragment)?,
            slots: vec![(0, Slot::Combined)],
        },
        Shader {
            name: "split (glslang)",
            words: glslang_spirv(&split, Stage::Fragment)?,
            slots: vec![(0, Slot::Image), (1, Slot::Sampler)],
        },
        Shader { name: "split (naga)", words: naga_spirv(&split)?, slots: vec![(0, Slot::Image), (1, Slot::Sampler)] },
    ];
    let texel = [1.0 / args.src.0 as f32, 1.0 / args.src.1 as f32];
    Ok((shaders, texel.iter().flat_map(|f| f.to_le_bytes()).collect(), VERTEX.to_owned()))
}

/// A `.slang` file's fragment stage three ways: glslang's SPIR-V as RetroArch and
/// librashader hand it over (combined image samplers); that SPIR-V with its samplers
/// split by the chain's rewrite; the chain's naga module written by naga as wgpu writes
/// it. Every texture reads the one source image; push constants hold the sizes
/// (`*Size` members: the source's, `OutputSize` the target's) and the parameters'
/// initial values; a vertex stage of our own feeds its inputs (`vec2`s the texture
/// coordinate, others ones).
fn from_slang(args: &Args, path: &std::path::Path) -> Result<(Vec<Shader>, Vec<u8>, String), String> {
    use runtime_check::chain::slang;
    let fs = grammar::RealFs;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let includes = || Some(runtime_check::validate::Includes { path, fs: &fs });
    let stages = runtime_check::validate::split_stages_with(&text, includes());
    let combined = glslang_spirv(&stages.fragment.text, Stage::Fragment)?;
    let rewritten = slang::split_combined_samplers(&combined)?;
    let pass = slang::compile_slang(path, &text, includes())
        .map_err(|d| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))?;
    let module = &pass.fragment;
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(module)
        .map_err(|e| format!("naga: {e:?}"))?;
    let options = naga::back::spv::Options {
        lang_version: (1, 6),
        flags: naga::back::spv::WriterFlags::LABEL_VARYINGS,
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: naga::proc::BoundsCheckPolicy::Restrict,
            buffer: naga::proc::BoundsCheckPolicy::Unchecked,
            image_load: naga::proc::BoundsCheckPolicy::Unchecked,
            binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
        },
        ..naga::back::spv::Options::default()
    };
    let pipeline = naga::back::spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Fragment,
        entry_point: module.entry_points.first().map(|e| e.name.clone()).unwrap_or_else(|| "main".into()),
    };
    let naga_words =
        naga::back::spv::write_vec(module, &info, &options, Some(&pipeline)).map_err(|e| format!("naga: {e:?}"))?;

    let mut split_slots = Vec::new();
    let mut push = Vec::new();
    let ctx = module.to_ctx();
    for (_, gv) in module.global_variables.iter() {
        let inner = &module.types[gv.ty].inner;
        if gv.space == naga::AddressSpace::Immediate {
            if let naga::TypeInner::Struct { members, span } = inner {
                push = vec![0u8; *span as usize];
                for m in members {
                    let name = m.name.as_deref().unwrap_or("");
                    let at = m.offset as usize;
                    let (w, h) = if name == "OutputSize" || name == "FinalViewportSize" {
                        (args.src.0 * args.scale, args.src.1 * args.scale)
                    } else {
                        args.src
                    };
                    let value: Vec<f32> = if name.ends_with("Size") {
                        vec![w as f32, h as f32, 1.0 / w as f32, 1.0 / h as f32]
                    } else if let Some(p) = pass.meta.parameters.iter().find(|p| p.id == name) {
                        vec![p.initial]
                    } else {
                        vec![]
                    };
                    for (k, v) in value.iter().enumerate() {
                        if let Some(dst) = push.get_mut(at + 4 * k..at + 4 * k + 4) {
                            dst.copy_from_slice(&v.to_le_bytes());
                        }
                    }
                }
            }
            continue;
        }
        let Some(rb) = &gv.binding else { continue };
        let slot = match inner {
            naga::TypeInner::Image { .. } => Slot::Image,
            naga::TypeInner::Sampler { .. } => Slot::Sampler,
            _ => Slot::Uniform(u64::from(inner.size(ctx))),
        };
        split_slots.push((rb.binding, slot));
    }
    let combined_slots: Vec<(u32, Slot)> = split_slots
        .iter()
        .filter_map(|&(b, s)| match s {
            Slot::Image => Some((b, Slot::Combined)),
            Slot::Sampler => None,
            other => Some((b, other)),
        })
        .collect();

    // The vertex stage: one output per fragment input, at its location.
    let mut outs = String::new();
    let mut sets = String::new();
    if let Some(ep) = module.entry_points.first() {
        for arg in &ep.function.arguments {
            let Some(naga::Binding::Location { location, .. }) = &arg.binding else { continue };
            let (ty, value) = match &module.types[arg.ty].inner {
                naga::TypeInner::Vector { size: naga::VectorSize::Bi, .. } => ("vec2", "uv"),
                naga::TypeInner::Vector { size: naga::VectorSize::Tri, .. } => ("vec3", "vec3(1.0)"),
                naga::TypeInner::Vector { size: naga::VectorSize::Quad, .. } => ("vec4", "vec4(1.0)"),
                _ => ("float", "1.0"),
            };
            outs.push_str(&format!("layout(location = {location}) out {ty} v{location};\n"));
            sets.push_str(&format!("    v{location} = {value};\n"));
        }
    }
    let vertex = format!(
        "#version 450\n{outs}void main() {{\n    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));\n    vec2 uv = p;\n{sets}    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n}}\n"
    );
    let mut shared = pass.fragment.clone();
    share_samplers_naga(&mut shared);
    let shared_info =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&shared)
            .map_err(|e| format!("naga: {e:?}"))?;
    let naga_shared = naga::back::spv::write_vec(&shared, &shared_info, &options, Some(&pipeline))
        .map_err(|e| format!("naga: {e:?}"))?;
    let rewritten_shared = share_samplers_spirv(&rewritten)?;
    let naga_uninit = strip_local_inits(&naga_words)?;
    let rewritten_hoisted = load_handles_at_entry(&rewritten)?;
    let options10 = naga::back::spv::Options { lang_version: (1, 0), ..options.clone() };
    let naga_10 =
        naga::back::spv::write_vec(module, &info, &options10, Some(&pipeline)).map_err(|e| format!("naga: {e:?}"))?;
    if let Ok(dir) = std::env::var("DUMP") {
        for (name, words) in [
            ("combined", &combined),
            ("rewritten", &rewritten),
            ("naga", &naga_words),
            ("naga_shared", &naga_shared),
            ("rewritten_shared", &rewritten_shared),
        ] {
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            std::fs::write(format!("{dir}/{name}.spv"), bytes).map_err(|e| e.to_string())?;
        }
    }
    let shaders = vec![
        Shader { name: "combined (glslang)", words: combined, slots: combined_slots },
        Shader { name: "split (glslang, rewritten)", words: rewritten, slots: split_slots.clone() },
        Shader { name: "split (naga, chain)", words: naga_words, slots: split_slots.clone() },
        Shader { name: "split, 1 sampler (glslang)", words: rewritten_shared, slots: split_slots.clone() },
        Shader { name: "split, 1 sampler (naga)", words: naga_shared, slots: split_slots.clone() },
        Shader { name: "split (naga, no local init)", words: naga_uninit, slots: split_slots.clone() },
        Shader { name: "split (naga, SPIR-V 1.0)", words: naga_10, slots: split_slots.clone() },
        Shader { name: "split (glslang, loads first)", words: rewritten_hoisted, slots: split_slots },
    ];
    Ok((shaders, push, vertex))
}

/// Every use of a sampler global reads the first sampler global instead (all of them
/// are bound to the same sampler here).
fn share_samplers_naga(module: &mut naga::Module) {
    let samplers: Vec<naga::Handle<naga::GlobalVariable>> = module
        .global_variables
        .iter()
        .filter(|(_, gv)| matches!(module.types[gv.ty].inner, naga::TypeInner::Sampler { .. }))
        .map(|(h, _)| h)
        .collect();
    let Some(&first) = samplers.first() else { return };
    let fix = |f: &mut naga::Function| {
        for (_, e) in f.expressions.iter_mut() {
            if let naga::Expression::GlobalVariable(h) = e {
                if samplers.contains(h) {
                    *h = first;
                }
            }
        }
    };
    for (_, f) in module.functions.iter_mut() {
        fix(f);
    }
    for ep in &mut module.entry_points {
        fix(&mut ep.function);
    }
}

/// [`share_samplers_naga`] on SPIR-V: loads of any sampler variable load the first.
fn share_samplers_spirv(words: &[u32]) -> Result<Vec<u32>, String> {
    use rspirv::binary::Assemble;
    use rspirv::dr::Operand;
    use rspirv::spirv::Op;
    let mut module = rspirv::dr::load_words(words).map_err(|e| format!("{e}"))?;
    let sampler_types: Vec<u32> = module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypeSampler)
        .filter_map(|i| i.result_id)
        .collect();
    let vars = variables_of(
        &module,
        |pointer| matches!(pointer.operands.get(1), Some(Operand::IdRef(t)) if sampler_types.contains(t)),
    );
    let Some(&first) = vars.first() else { return Ok(words.to_vec()) };
    for f in &mut module.functions {
        for b in &mut f.blocks {
            for i in &mut b.instructions {
                if i.class.opcode == Op::Load {
                    if let Some(Operand::IdRef(p)) = i.operands.get_mut(0) {
                        if vars.contains(p) {
                            *p = first;
                        }
                    }
                }
            }
        }
    }
    Ok(module.assemble())
}

/// The global variables of `module` whose pointer type (an `OpTypePointer`) passes `keep`.
fn variables_of(module: &rspirv::dr::Module, keep: impl Fn(&rspirv::dr::Instruction) -> bool) -> Vec<u32> {
    use rspirv::spirv::Op;
    let globals = &module.types_global_values;
    let pointers: Vec<u32> =
        globals.iter().filter(|i| i.class.opcode == Op::TypePointer && keep(i)).filter_map(|i| i.result_id).collect();
    globals
        .iter()
        .filter(|i| i.class.opcode == Op::Variable && i.result_type.is_some_and(|t| pointers.contains(&t)))
        .filter_map(|i| i.result_id)
        .collect()
}

/// SPIR-V with every load of an image or sampler variable moved to the top of its
/// function's first block (after its variables), where naga's writer loads them, instead
/// of before each use, where glslang does.
fn load_handles_at_entry(words: &[u32]) -> Result<Vec<u32>, String> {
    use rspirv::binary::Assemble;
    use rspirv::dr::Operand;
    use rspirv::spirv::{Op, StorageClass};
    let mut module = rspirv::dr::load_words(words).map_err(|e| format!("{e}"))?;
    let handles = variables_of(&module, |pointer| {
        pointer.operands.first() == Some(&Operand::StorageClass(StorageClass::UniformConstant))
    });
    for f in &mut module.functions {
        let mut moved = Vec::new();
        for b in &mut f.blocks {
            b.instructions.retain(|i| {
                let load = i.class.opcode == Op::Load
                    && matches!(i.operands.first(), Some(Operand::IdRef(p)) if handles.contains(p));
                if load {
                    moved.push(i.clone());
                }
                !load
            });
        }
        if let Some(first) = f.blocks.first_mut() {
            let at = first.instructions.iter().take_while(|i| i.class.opcode == Op::Variable).count();
            first.instructions.splice(at..at, moved);
        }
    }
    Ok(module.assemble())
}

/// naga's SPIR-V with its function-scope variables left uninitialised (naga gives each
/// an `OpConstantNull` initialiser).
fn strip_local_inits(words: &[u32]) -> Result<Vec<u32>, String> {
    use rspirv::binary::Assemble;
    use rspirv::spirv::Op;
    let mut module = rspirv::dr::load_words(words).map_err(|e| format!("{e}"))?;
    for f in &mut module.functions {
        for b in &mut f.blocks {
            for i in &mut b.instructions {
                if i.class.opcode == Op::Variable && i.operands.len() == 2 {
                    i.operands.truncate(1);
                }
            }
        }
    }
    Ok(module.assemble())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("sampler_binding_cost: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let gpu = Gpu::new()?;
    let d = &gpu.device;
    let (sw, sh) = args.src;
    let (tw, th) = (sw.checked_mul(args.scale).ok_or("too large")?, sh.checked_mul(args.scale).ok_or("too large")?);
    println!("device: {}; source {sw}x{sh}, target {tw}x{th}, {} fetches per pixel", gpu.name, args.fetches);

    let (src, src_view) = gpu.image(sw, sh, vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST)?;
    let (dst, dst_view) =
        gpu.image(tw, th, vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC)?;

    // Pseudo-random source bytes through a staging buffer.
    let bytes = u64::from(sw) * u64::from(sh) * 4;
    // SAFETY (this function): every create info is valid and refers to live objects;
    // each submit is waited for before what it used is read or changed.
    let (staging, staging_mem) = gpu.host_buffer(bytes, vk::BufferUsageFlags::TRANSFER_SRC)?;
    let len = usize::try_from(bytes).map_err(|_| "too large")?;
    let ptr = vkr(unsafe { d.map_memory(staging_mem, 0, bytes, vk::MemoryMapFlags::empty()) }, "map")?;
    // SAFETY: the mapping holds `bytes` bytes and nothing else refers to it.
    let data = unsafe { std::slice::from_raw_parts_mut(ptr.cast::<u8>(), len) };
    let mut x: u32 = 0x9e37_79b9;
    for b in data.iter_mut() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *b = (x >> 24) as u8;
    }
    unsafe { d.unmap_memory(staging_mem) };

    let pool = vkr(
        unsafe {
            d.create_command_pool(
                &vk::CommandPoolCreateInfo::default()
                    .queue_family_index(gpu.family)
                    .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                None,
            )
        },
        "command pool",
    )?;
    let cmd = vkr(
        unsafe {
            d.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default().command_pool(pool).command_buffer_count(1),
            )
        },
        "command buffer",
    )?[0];
    let fence = vkr(unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }, "fence")?;
    let submit = |record: &dyn Fn()| -> Result<(), String> {
        unsafe {
            vkr(d.reset_command_buffer(cmd, vk::CommandBufferResetFlags::empty()), "reset")?;
            vkr(d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()), "begin")?;
            record();
            vkr(d.end_command_buffer(cmd), "end")?;
            let cmds = [cmd];
            vkr(d.queue_submit(gpu.queue, &[vk::SubmitInfo::default().command_buffers(&cmds)], fence), "submit")?;
            vkr(d.wait_for_fences(&[fence], true, u64::MAX), "wait")?;
            vkr(d.reset_fences(&[fence]), "reset fence")
        }
    };
    submit(&|| unsafe {
        transition(d, cmd, src, UNUSED, COPY_TO);
        d.cmd_copy_buffer_to_image(cmd, staging, src, COPY_TO.0, &[whole_image(sw, sh)]);
        transition(d, cmd, src, COPY_TO, SAMPLED);
        transition(d, cmd, dst, UNUSED, DRAWN);
    })?;

    let sampler = vkr(
        unsafe {
            d.create_sampler(
                &vk::SamplerCreateInfo::default()
                    .mag_filter(vk::Filter::NEAREST)
                    .min_filter(vk::Filter::NEAREST)
                    .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                    .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                    .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                    .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                    .max_anisotropy(1.0)
                    .max_lod(vk::LOD_CLAMP_NONE),
                None,
            )
        },
        "sampler",
    )?;
    let (shaders, push, vertex_text) = match &args.slang {
        Some(path) => from_slang(&args, path)?,
        None => synthetic(&args)?,
    };
    let (zeros, zeros_mem) = gpu.host_buffer(65536, vk::BufferUsageFlags::UNIFORM_BUFFER)?;
    let ptr = vkr(unsafe { d.map_memory(zeros_mem, 0, 65536, vk::MemoryMapFlags::empty()) }, "map uniform")?;
    // SAFETY: the mapping holds 65536 bytes and nothing else refers to it.
    unsafe { std::ptr::write_bytes(ptr.cast::<u8>(), 0, 65536) };
    unsafe { d.unmap_memory(zeros_mem) };
    let vertex = gpu.module(&glslang_spirv(&vertex_text, Stage::Vertex)?)?;
    let bound = Bound { view: src_view, sampler, zeros, push_size: push.len() as u32 };
    let variants = shaders.iter().map(|s| variant(&gpu, s, vertex, &bound)).collect::<Result<Vec<_>, _>>()?;

    let queries = vkr(
        unsafe {
            d.create_query_pool(
                &vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(2),
                None,
            )
        },
        "query pool",
    )?;
    // A host buffer the warm-up round's image of each variant is read back into.
    let target_bytes = u64::from(tw) * u64::from(th) * 4;
    let (readback, readback_mem) = gpu.host_buffer(target_bytes, vk::BufferUsageFlags::TRANSFER_DST)?;
    let target_len = usize::try_from(target_bytes).map_err(|_| "too large")?;
    let read_image = || -> Result<Vec<u8>, String> {
        submit(&|| unsafe {
            transition(d, cmd, dst, DRAWN, COPY_FROM);
            d.cmd_copy_image_to_buffer(cmd, dst, COPY_FROM.0, readback, &[whole_image(tw, th)]);
            transition(d, cmd, dst, COPY_FROM, DRAWN);
        })?;
        let ptr = vkr(unsafe { d.map_memory(readback_mem, 0, target_bytes, vk::MemoryMapFlags::empty()) }, "map")?;
        // SAFETY: the mapping holds `target_bytes` bytes; the copy into it was waited for.
        let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), target_len) }.to_vec();
        unsafe { d.unmap_memory(readback_mem) };
        Ok(bytes)
    };
    let mut images: Vec<Vec<u8>> = Vec::new();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    // One warm-up round, then `rounds` measured, the variants interleaved.
    for round in 0..=args.rounds {
        for (vi, v) in variants.iter().enumerate() {
            submit(&|| unsafe {
                d.cmd_reset_query_pool(cmd, queries, 0, 2);
                d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::TOP_OF_PIPE, queries, 0);
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, v.pipeline);
                d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, v.layout, 0, &[v.set], &[]);
                if !push.is_empty() {
                    d.cmd_push_constants(cmd, v.layout, vk::ShaderStageFlags::FRAGMENT, 0, &push);
                }
                let extent = vk::Extent2D { width: tw, height: th };
                d.cmd_set_viewport(
                    cmd,
                    0,
                    &[vk::Viewport {
                        x: 0.0,
                        y: 0.0,
                        width: tw as f32,
                        height: th as f32,
                        min_depth: 0.0,
                        max_depth: 1.0,
                    }],
                );
                d.cmd_set_scissor(cmd, 0, &[vk::Rect2D { offset: vk::Offset2D::default(), extent }]);
                for _ in 0..args.draws {
                    let attachments = [vk::RenderingAttachmentInfo::default()
                        .image_view(dst_view)
                        .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                        .load_op(vk::AttachmentLoadOp::CLEAR)
                        .store_op(vk::AttachmentStoreOp::STORE)];
                    let info = vk::RenderingInfo::default()
                        .render_area(vk::Rect2D { offset: vk::Offset2D::default(), extent })
                        .layer_count(1)
                        .color_attachments(&attachments);
                    d.cmd_begin_rendering(cmd, &info);
                    d.cmd_draw(cmd, 3, 1, 0, 0);
                    d.cmd_end_rendering(cmd);
                    // Each draw after the last one's writes, as a chain's passes run.
                    let order = vk::MemoryBarrier::default()
                        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
                        .dst_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE);
                    d.cmd_pipeline_barrier(
                        cmd,
                        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                        vk::DependencyFlags::empty(),
                        &[order],
                        &[],
                        &[],
                    );
                }
                d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, queries, 1);
            })?;
            let mut stamps = [0u64; 2];
            vkr(
                unsafe {
                    d.get_query_pool_results(
                        queries,
                        0,
                        &mut stamps,
                        vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                    )
                },
                "timestamps",
            )?;
            let ms = stamps[1].wrapping_sub(stamps[0]) as f64 * gpu.timestamp_period / 1e6 / f64::from(args.draws);
            if round > 0 {
                times[vi].push(ms);
            } else {
                images.push(read_image()?);
            }
        }
    }
    let base = median(&times[0]);
    if let Some(first) = images.first() {
        let sum: u64 = first.iter().map(|&b| u64::from(b)).sum();
        println!(
            "combined's image: mean byte {:.1} (0 or 255 would mean the pass drew nothing of the source)",
            sum as f64 / first.len().max(1) as f64
        );
    }
    for ((v, t), image) in variants.iter().zip(&times).zip(&images) {
        let m = median(t);
        let (lo, hi) = t.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        let (differ, most) = images[0]
            .iter()
            .zip(image)
            .filter(|(a, b)| a != b)
            .fold((0usize, 0u8), |(n, most), (a, b)| (n + 1, most.max(a.abs_diff(*b))));
        println!(
            "{:<28} {m:8.4} ms per draw (median of {}; {lo:.4}-{hi:.4}), {:.3} of combined; image: {differ} bytes differ from combined's, by at most {most}",
            v.name,
            t.len(),
            m / base
        );
        if !v.statistics.is_empty() {
            println!("    fragment stage: {}", v.statistics);
        }
    }
    Ok(())
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.get(s.len() / 2).copied().unwrap_or(f64::NAN)
}
