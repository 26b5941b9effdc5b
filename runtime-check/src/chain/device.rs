//! The headless GPU: a wgpu instance, adapter, device and queue, with no surface.
//!
//! Any Vulkan adapter will do, a software one (lavapipe) included; the features a slang
//! chain needs are requested when the adapter has them: immediates (push constants, at
//! most 128 bytes as RetroArch allows), clamp-to-border addressing and filterable
//! 32-bit float textures; pipeline caches kept on disk ([`super::pipeline_cache`]),
//! when the adapter has one; and timestamp queries, which only `render --timings` writes
//! ([`super::timings`]). wgpu errors never panic here: an uncaptured-error handler
//! records them, and [`Gpu::scoped`] turns the errors of a piece of work into data.
//!
//! **Invariant:** never panics, never prints; no adapter is an `E0704` diagnostic
//! telling how to install one.

use crate::codes;
use grammar::Diagnostic;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The device a chain renders on.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    pub features: wgpu::Features,
    /// Errors wgpu reported outside any error scope.
    uncaptured: Arc<Mutex<Vec<String>>>,
    /// The 8-bit decode tables, probed on first use ([`Gpu::decode`]).
    conversions: OnceLock<Result<super::probe::ConversionTables, Diagnostic>>,
    /// Where each pipeline's cache is kept on disk ([`super::pipeline_cache`]).
    pipelines: Option<super::pipeline_cache::PipelineStore>,
}

/// Which adapter [`Gpu::open`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdapterChoice {
    /// A hardware adapter when there is one, else the software one.
    PreferHardware,
    /// The software adapter (lavapipe) only: results that must not depend on the
    /// machine's GPU, such as committed comparison metrics.
    Software,
}

/// Largest push-constant block RetroArch accepts.
pub const MAX_IMMEDIATES: u32 = 128;

impl Gpu {
    /// Opens the first usable adapter (hardware preferred, software accepted).
    pub fn new() -> Result<Gpu, Diagnostic> {
        Gpu::open(AdapterChoice::PreferHardware)
    }

    /// Opens the adapter `choice` asks for.
    pub fn open(choice: AdapterChoice) -> Result<Gpu, Diagnostic> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            flags: wgpu::InstanceFlags::empty(),
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: choice == AdapterChoice::Software,
            compatible_surface: None,
            apply_limit_buckets: false,
        };
        let adapter = match pollster::block_on(instance.request_adapter(&options)) {
            Ok(a) => a,
            Err(e) if choice == AdapterChoice::Software => return Err(no_adapter(&e.to_string())),
            Err(_) => {
                let fallback = wgpu::RequestAdapterOptions { force_fallback_adapter: true, ..options };
                pollster::block_on(instance.request_adapter(&fallback)).map_err(|e| no_adapter(&e.to_string()))?
            }
        };
        if choice == AdapterChoice::Software && adapter.get_info().device_type != wgpu::DeviceType::Cpu {
            return Err(no_adapter(&format!("`{}` is not a software adapter", adapter.get_info().name)));
        }
        let wanted = wgpu::Features::IMMEDIATES
            | wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER
            | wgpu::Features::FLOAT32_FILTERABLE
            | wgpu::Features::PIPELINE_CACHE
            | wgpu::Features::TIMESTAMP_QUERY;
        let features = adapter.features() & wanted;
        let adapter_limits = adapter.limits();
        let limits = wgpu::Limits {
            max_immediate_size: adapter_limits.max_immediate_size.min(MAX_IMMEDIATES),
            max_texture_dimension_2d: adapter_limits.max_texture_dimension_2d.min(crate::plan::MAX_SIZE),
            ..wgpu::Limits::downlevel_defaults()
        };
        let info = adapter.get_info();
        let desc = wgpu::DeviceDescriptor {
            label: Some("cg2slang chain"),
            required_features: features,
            required_limits: limits,
            // wgpu's default (`Performance`) sub-allocates from large device-memory
            // blocks, made up front and freed at the end: on an H200 a 1-frame `render`
            // spent about 17 ms more before its read-back and 9 ms more tearing the
            // device down with it (start-up 246-270 ms against 225-252 ms for crt-geom).
            // A chain allocates its textures once, so frames do not feel the difference.
            memory_hints: wgpu::MemoryHints::MemoryUsage,
            ..wgpu::DeviceDescriptor::default()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&desc)).map_err(|e| {
            Diagnostic::error(codes::E_CHAIN_NO_ADAPTER, format!("cannot open the GPU device on `{}`: {e}", info.name))
        })?;
        let uncaptured = Arc::new(Mutex::new(Vec::new()));
        let sink = uncaptured.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            sink.lock().unwrap_or_else(PoisonError::into_inner).push(e.to_string());
        }));
        let pipelines = super::pipeline_cache::PipelineStore::open(&device, &info);
        Ok(Gpu { device, queue, info, features, uncaptured, conversions: OnceLock::new(), pipelines })
    }

    /// What sampling a stored byte returns on this device, in UNORM and sRGB textures
    /// (measured on first use, see [`super::probe`]).
    pub fn conversions(&self) -> Result<super::probe::ConversionTables, Diagnostic> {
        self.conversions.get_or_init(|| super::probe::conversion_tables(self)).clone()
    }

    /// The cache to create the pipeline `pipeline` (a digest of what makes it) with,
    /// when the cache is on; save it once the pipeline is made.
    pub fn pipeline_cache(&self, pipeline: u128) -> Option<super::pipeline_cache::PipelineEntry> {
        self.pipelines.as_ref()?.entry(&self.device, pipeline)
    }

    /// A one-line description of the adapter.
    pub fn describe(&self) -> String {
        format!("{} ({:?}, {})", self.info.name, self.info.device_type, self.info.driver_info)
    }

    /// Runs `f`, returning its result or the first wgpu validation or memory error it
    /// caused, as an `E0706` diagnostic saying what was being done.
    pub fn scoped<R>(&self, what: &str, f: impl FnOnce() -> R) -> Result<R, Diagnostic> {
        let memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let r = f();
        let v = pollster::block_on(validation.pop());
        let m = pollster::block_on(memory.pop());
        if let Some(e) = v.or(m) {
            return Err(Diagnostic::error(codes::E_CHAIN_GPU, format!("{what}: {}", error_text(&e))));
        }
        if let Some(e) = self.take_uncaptured() {
            return Err(Diagnostic::error(codes::E_CHAIN_GPU, format!("{what}: {e}")));
        }
        Ok(r)
    }

    fn take_uncaptured(&self) -> Option<String> {
        let mut errors = self.uncaptured.lock().unwrap_or_else(PoisonError::into_inner);
        let first = errors.first().cloned();
        errors.clear();
        first
    }

    /// Blocks until the queue is idle.
    pub fn wait(&self) -> Result<(), Diagnostic> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| Diagnostic::error(codes::E_CHAIN_GPU, format!("waiting for the GPU: {e}")))
    }

    /// Blocks until `submission` has finished on the GPU (later ones may still run).
    pub fn wait_for(&self, submission: wgpu::SubmissionIndex) -> Result<(), Diagnostic> {
        self.device
            .poll(wgpu::PollType::Wait { submission_index: Some(submission), timeout: None })
            .map(|_| ())
            .map_err(|e| Diagnostic::error(codes::E_CHAIN_GPU, format!("waiting for the GPU: {e}")))
    }
}

/// The full text of a wgpu error with its sources.
fn error_text(e: &wgpu::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let s_text = s.to_string();
        if !text.contains(&s_text) {
            text.push_str(": ");
            text.push_str(&s_text);
        }
        source = s.source();
    }
    text
}

fn no_adapter(why: &str) -> Diagnostic {
    Diagnostic::error(codes::E_CHAIN_NO_ADAPTER, format!("no Vulkan adapter found ({why})"))
        .with_note("rendering needs a Vulkan driver; without a GPU install the software one: `apt-get install mesa-vulkan-drivers` (lavapipe)")
}
