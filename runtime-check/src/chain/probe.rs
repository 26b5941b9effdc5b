//! Probes of what the device does where Vulkan leaves it free, measured once per
//! [`Gpu`] so that the CPU reference can do the same: today the 8-bit decodes, what
//! sampling a texel of an `R8G8B8A8_UNORM` and of an `R8G8B8A8_SRGB` texture returns for
//! each of the 256 byte values. A 256x1 texture holding every byte is drawn with nearest
//! sampling into a 32-bit float target of the same size and read back.
//!
//! Never panics, never prints; a device that cannot run the probe, or reads back a
//! table no decode could give (not finite, outside [0, 1], decreasing), is an `E0706`
//! diagnostic.

use super::device::Gpu;
use super::pipeline::{quad_vertices, Blit};
use super::textures::{read_back, sampler, Texture};
use crate::codes;
use crate::plan::{Filter, Sampling, Size};
use grammar::Diagnostic;
use translator::preset::WrapMode;

/// The device's 8-bit decodes: what sampling a stored byte returns on `gpu`, for bytes 0
/// to 255, in a UNORM and in an sRGB texture.
pub fn decode_tables(gpu: &Gpu) -> Result<DecodeTables, Diagnostic> {
    Ok(DecodeTables {
        unorm8: byte_table(gpu, wgpu::TextureFormat::Rgba8Unorm)?,
        srgb8: byte_table(gpu, wgpu::TextureFormat::Rgba8UnormSrgb)?,
    })
}

/// The 8-bit decodes of a device, by byte value.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeTables {
    pub unorm8: [f32; 256],
    pub srgb8: [f32; 256],
}

/// What sampling a stored byte of a `format` texture returns, for bytes 0 to 255 (the
/// red channel; green and blue hold the same byte and must read the same).
fn byte_table(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<[f32; 256], Diagnostic> {
    let size = Size::new(256, 1);
    let bytes: Vec<u8> = (0..=255u8).flat_map(|b| [b, b, b, 255]).collect();
    let (source, target, vertices, nearest) = gpu.scoped("creating the decode probe", || {
        let source = Texture::new(gpu, "decode probe", size, format, 1);
        source.write_rgba8(gpu, &bytes);
        let target = Texture::new(gpu, "decode probe read", size, wgpu::TextureFormat::Rgba32Float, 1);
        let data = quad_vertices();
        let vertices = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("decode probe quad"),
            size: data.len() as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        gpu.queue.write_buffer(&vertices, 0, &data);
        let s = Sampling { filter: Filter::Nearest, wrap: WrapMode::ClampToEdge, mipmap: false };
        (source, target, vertices, sampler(gpu, s, false))
    })?;
    let mut blit = Blit::new(gpu)?;
    let mut encoder =
        gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("decode probe") });
    blit.draw(gpu, &mut encoder, &vertices, &source.view, &nearest, &target.view, target.format)?;
    gpu.scoped("running the decode probe", || gpu.queue.submit([encoder.finish()]))?;
    let read = read_back(gpu, &target)?;
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
