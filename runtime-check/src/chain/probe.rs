//! Probes of what the device does where Vulkan leaves it free, measured once per
//! [`Gpu`] so that the CPU reference can do the same: the 8-bit conversions of
//! `R8G8B8A8_UNORM` and `R8G8B8A8_SRGB` textures.
//!
//! - Decode: what sampling a texel returns for each of the 256 byte values. A 256x1
//!   texture holding every byte is drawn, nearest, into a 32-bit float target and read
//!   back.
//! - Encode: where a written value starts storing the next byte, for each of the 255
//!   boundaries, to 1/1024 of a step. A 32-bit float texture holding 1024 values across
//!   each boundary (two boundaries a row) is drawn, nearest, into an 8-bit target and
//!   read back. This needs filterable 32-bit float textures; a device without them
//!   keeps the exact boundaries (`k + 0.5` steps).
//!
//! Never panics, never prints; a device that cannot run the probe, or reads back a
//! table no decode could give (not finite, outside [0, 1], decreasing), is an `E0706`
//! diagnostic.

use super::device::Gpu;
use super::pipeline::{quad_vertices, Blit};
use super::textures::{extent, read_back, sampler, Pixels, Texture};
use crate::codes;
use crate::plan::{Filter, Sampling, Size};
use grammar::Diagnostic;
use translator::preset::WrapMode;

/// The 8-bit conversions of `gpu`: its decodes (what sampling a stored byte returns,
/// for bytes 0 to 255) and its encodes (the smallest written value, linear, that stores
/// byte `k + 1`, for `k` 0 to 254), in UNORM and sRGB textures.
pub fn conversion_tables(gpu: &Gpu) -> Result<ConversionTables, Diagnostic> {
    let float_source = gpu.features.contains(wgpu::Features::FLOAT32_FILTERABLE);
    let encode = |format| if float_source { encode_boundaries(gpu, format) } else { Ok(None) };
    Ok(ConversionTables {
        unorm8: byte_table(gpu, wgpu::TextureFormat::Rgba8Unorm)?,
        srgb8: byte_table(gpu, wgpu::TextureFormat::Rgba8UnormSrgb)?,
        unorm8_encode: encode(wgpu::TextureFormat::Rgba8Unorm)?,
        srgb8_encode: encode(wgpu::TextureFormat::Rgba8UnormSrgb)?,
    })
}

/// The 8-bit conversions of a device: decodes by byte value, encodes by boundary
/// (`None`: not measured, the exact boundaries hold).
#[derive(Clone, Debug, PartialEq)]
pub struct ConversionTables {
    pub unorm8: [f32; 256],
    pub srgb8: [f32; 256],
    pub unorm8_encode: Option<[f32; 255]>,
    pub srgb8_encode: Option<[f32; 255]>,
}

/// Samples per boundary of the encode probe, and boundaries per row (2048 texels).
const PER_BOUNDARY: u32 = 1024;
const BOUNDARIES_PER_ROW: u32 = 2;

/// The exact sRGB transfer function (encoded to linear), in f64.
fn srgb_to_linear(e: f64) -> f64 {
    if e <= 0.040_45 {
        e / 12.92
    } else {
        ((e + 0.055) / 1.055).powf(2.4)
    }
}

/// The sRGB transfer function (linear to encoded), in f64.
fn srgb_encode_exact(v: f32) -> f64 {
    let v = f64::from(v).clamp(0.0, 1.0);
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

/// The value (linear) the encode probe writes at sample `j` across boundary `k`:
/// `(k + 0.5 + (j - 512) / 1024) / 255` in the target's encoding.
fn probe_value(format: wgpu::TextureFormat, k: u32, j: u32) -> f32 {
    let e = (f64::from(k) + 0.5 + (f64::from(j) - f64::from(PER_BOUNDARY / 2)) / f64::from(PER_BOUNDARY)) / 255.0;
    let v = if format == wgpu::TextureFormat::Rgba8UnormSrgb { srgb_to_linear(e) } else { e };
    v as f32
}

/// Where each of the 255 byte boundaries of a `format` target lies on `gpu`: the
/// smallest probed value (linear) that stores byte `k + 1`. A boundary within one
/// sample of `k + 0.5` is taken as exact (the probe cannot tell it apart, nor how the
/// device breaks a tie); `None` when every boundary is.
fn encode_boundaries(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Option<[f32; 255]>, Diagnostic> {
    let rows = 255u32.div_ceil(BOUNDARIES_PER_ROW);
    let width = PER_BOUNDARY * BOUNDARIES_PER_ROW;
    let size = Size::new(width, rows);
    let mut texels: Vec<u8> = Vec::with_capacity((width * rows * 16) as usize);
    for r in 0..rows {
        for x in 0..width {
            let k = (r * BOUNDARIES_PER_ROW + x / PER_BOUNDARY).min(254);
            let v = probe_value(format, k, x % PER_BOUNDARY);
            texels.extend([v, v, v, 1.0].iter().flat_map(|c| c.to_le_bytes()));
        }
    }
    let source = gpu.scoped("creating the encode probe", || {
        let source = Texture::new(gpu, "encode probe", size, wgpu::TextureFormat::Rgba32Float, 1);
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &source.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &texels,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(width * 16), rows_per_image: Some(rows) },
            extent(size),
        );
        source
    })?;
    let read = draw_and_read(gpu, &source, format)?;
    // The stored byte of each sample (read back decoded by the transfer function).
    let byte = |x: u32, y: u32| -> Option<u32> {
        let v = read.get(x, y)?[0];
        let e = if format == wgpu::TextureFormat::Rgba8UnormSrgb { srgb_encode_exact(v) } else { f64::from(v) };
        Some((e * 255.0).round() as u32)
    };
    let mut out = [0.0f32; 255];
    let mut off_exact = false;
    let mid = PER_BOUNDARY / 2;
    for (k, slot) in out.iter_mut().enumerate() {
        let k = k as u32;
        let (r, x0) = (k / BOUNDARIES_PER_ROW, (k % BOUNDARIES_PER_ROW) * PER_BOUNDARY);
        let first = (0..PER_BOUNDARY).find(|&j| byte(x0 + j, r).is_none_or(|b| b > k));
        *slot = match first {
            // Every sample already stores k + 1, or none does: the boundary lies outside
            // the probed step (no device rounds that far off); keep the exact one.
            Some(0) | None => probe_value(format, k, mid),
            Some(j) if j.abs_diff(mid) <= 1 => probe_value(format, k, mid),
            Some(j) if byte(x0 + j, r) == Some(k + 1) => {
                off_exact = true;
                probe_value(format, k, j)
            }
            Some(_) => f32::NAN,
        };
    }
    let sane = out.iter().all(|v| v.is_finite()) && out.windows(2).all(|w| w[0] < w[1]);
    if !sane {
        return Err(Diagnostic::error(
            codes::E_CHAIN_GPU,
            format!("the encode probe of {format:?} read back no monotone encode"),
        ));
    }
    Ok(off_exact.then_some(out))
}

/// Draws `source`, nearest, over a new target of its size in `format` and reads the
/// target back.
fn draw_and_read(gpu: &Gpu, source: &Texture, format: wgpu::TextureFormat) -> Result<Pixels, Diagnostic> {
    let (target, vertices, nearest) = gpu.scoped("creating a probe target", || {
        let target = Texture::new(gpu, "probe read", source.size, format, 1);
        let data = quad_vertices();
        let vertices = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("probe quad"),
            size: data.len() as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        gpu.queue.write_buffer(&vertices, 0, &data);
        let s = Sampling { filter: Filter::Nearest, wrap: WrapMode::ClampToEdge, mipmap: false };
        (target, vertices, sampler(gpu, s, false))
    })?;
    let mut blit = Blit::new(gpu, super::pipeline::BlitShaders::new()?)?;
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("probe") });
    blit.draw(gpu, &mut encoder, &vertices, &source.view, &nearest, &target.view, target.format, None)?;
    gpu.scoped("running a probe", || gpu.queue.submit([encoder.finish()]))?;
    read_back(gpu, &target)
}

/// What sampling a stored byte of a `format` texture returns, for bytes 0 to 255 (the
/// red channel; green and blue hold the same byte and must read the same).
fn byte_table(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<[f32; 256], Diagnostic> {
    let size = Size::new(256, 1);
    let bytes: Vec<u8> = (0..=255u8).flat_map(|b| [b, b, b, 255]).collect();
    let source = gpu.scoped("creating the decode probe", || {
        let source = Texture::new(gpu, "decode probe", size, format, 1);
        source.write_rgba8(gpu, &bytes);
        source
    })?;
    let read = draw_and_read(gpu, &source, wgpu::TextureFormat::Rgba32Float)?;
    let mut table = [0.0f32; 256];
    for (k, slot) in table.iter_mut().enumerate() {
        let p = read.get(k as u32, 0).unwrap_or([f32::NAN; 4]);
        *slot = if p[1] == p[0] && p[2] == p[0] { p[0] } else { f32::NAN };
    }
    let sane = table.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)) && table.windows(2).all(|w| w[0] <= w[1]);
    if !sane {
        return Err(Diagnostic::error(
            codes::E_CHAIN_GPU,
            format!("the decode probe of {format:?} read back no decode table: {:?}", &table[..8]),
        ));
    }
    Ok(table)
}
