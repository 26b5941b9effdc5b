//! Textures of the chain: format mapping, creation, upload of RGBA8 images, read-back
//! into floating-point pixels, and the samplers of [`plan::Sampling`].
//!
//! **Invariant:** never panics on any size or format; read-back of a format it cannot
//! decode is an error, never garbage.

use crate::codes;
use crate::plan::{Filter, Format, Sampling, Size};
use grammar::Diagnostic;
use std::sync::Arc;
use translator::preset::WrapMode;

use super::device::Gpu;

/// The wgpu format of a RetroArch render-target format.
pub fn wgpu_format(f: Format) -> wgpu::TextureFormat {
    use wgpu::TextureFormat as T;
    match f {
        Format::R8Unorm => T::R8Unorm,
        Format::R8Uint => T::R8Uint,
        Format::R8Sint => T::R8Sint,
        Format::R8G8Unorm => T::Rg8Unorm,
        Format::R8G8Uint => T::Rg8Uint,
        Format::R8G8Sint => T::Rg8Sint,
        Format::R8G8B8A8Unorm => T::Rgba8Unorm,
        Format::R8G8B8A8Uint => T::Rgba8Uint,
        Format::R8G8B8A8Sint => T::Rgba8Sint,
        Format::R8G8B8A8Srgb => T::Rgba8UnormSrgb,
        Format::A2B10G10R10UnormPack32 => T::Rgb10a2Unorm,
        Format::A2B10G10R10UintPack32 => T::Rgb10a2Uint,
        Format::R16Uint => T::R16Uint,
        Format::R16Sint => T::R16Sint,
        Format::R16Sfloat => T::R16Float,
        Format::R16G16Uint => T::Rg16Uint,
        Format::R16G16Sint => T::Rg16Sint,
        Format::R16G16Sfloat => T::Rg16Float,
        Format::R16G16B16A16Uint => T::Rgba16Uint,
        Format::R16G16B16A16Sint => T::Rgba16Sint,
        Format::R16G16B16A16Sfloat => T::Rgba16Float,
        Format::R32Uint => T::R32Uint,
        Format::R32Sint => T::R32Sint,
        Format::R32Sfloat => T::R32Float,
        Format::R32G32Uint => T::Rg32Uint,
        Format::R32G32Sint => T::Rg32Sint,
        Format::R32G32Sfloat => T::Rg32Float,
        Format::R32G32B32A32Uint => T::Rgba32Uint,
        Format::R32G32B32A32Sint => T::Rgba32Sint,
        Format::R32G32B32A32Sfloat => T::Rgba32Float,
    }
}

/// The format of the images the chain is given: the input frames (and so the history)
/// and the LUTs. B8G8R8A8_UNORM, as RetroArch's Vulkan driver uploads a core's XRGB8888
/// frame and as librashader loads its LUTs and librashader-cli its input; a shader reads
/// the same values as from R8G8B8A8. Mesa 22.3's llvmpipe samples it faster: 601 frames
/// of crt-geom, whose one pass reads only the input, took 1,347 ms on lavapipe against
/// 1,396 ms with an R8G8B8A8 input (medians of 9 interleaved runs, 256x224). The
/// reference decodes these bytes with the R8G8B8A8 table [`super::probe`] measures; the
/// whole library's old/new came out identical to the byte on the H200 and on lavapipe.
pub const IMAGE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;

/// RGBA8 bytes in B8G8R8A8 order (red and blue swapped in each texel).
fn rgba8_to_bgra8(pixels: &[u8]) -> Vec<u8> {
    let mut out = pixels.to_vec();
    for texel in out.chunks_exact_mut(4) {
        texel.swap(0, 2);
    }
    out
}

/// A texture with the size and format it was made with.
pub struct Texture {
    pub texture: wgpu::Texture,
    /// All mip levels.
    pub view: wgpu::TextureView,
    pub size: Size,
    pub format: wgpu::TextureFormat,
    pub mip_levels: u32,
    /// One view per mip level, made once (a pass draws into level 0 every frame).
    levels: Vec<wgpu::TextureView>,
    /// The frame [`Texture::upload_rgba8`] last wrote to level 0, to skip writing it again.
    uploaded: Option<Arc<[u8]>>,
}

impl Texture {
    /// A texture that can be drawn to, sampled and copied.
    pub fn new(gpu: &Gpu, label: &str, size: Size, format: wgpu::TextureFormat, mip_levels: u32) -> Texture {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: extent(size),
            mip_level_count: mip_levels.max(1),
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let mip_levels = mip_levels.max(1);
        let levels = (0..mip_levels)
            .map(|level| {
                texture.create_view(&wgpu::TextureViewDescriptor {
                    base_mip_level: level,
                    mip_level_count: Some(1),
                    ..wgpu::TextureViewDescriptor::default()
                })
            })
            .collect();
        Texture { texture, view, size, format, mip_levels, levels, uploaded: None }
    }

    /// A texture in [`IMAGE_FORMAT`] holding `pixels` (RGBA8, `size.width * size.height * 4`
    /// bytes, rows top to bottom), with `mip_levels` levels (level 0 written; the caller
    /// generates the rest).
    pub fn from_rgba8(gpu: &Gpu, label: &str, size: Size, pixels: &[u8], mip_levels: u32) -> Texture {
        let t = Texture::new(gpu, label, size, IMAGE_FORMAT, mip_levels);
        t.write_rgba8(gpu, pixels);
        t
    }

    /// Writes RGBA8 `pixels` to level 0 of a texture of the same size, in its own byte
    /// order: a B8G8R8A8 texture gets each texel's red and blue swapped, and holds the
    /// same values.
    pub fn write_rgba8(&self, gpu: &Gpu, pixels: &[u8]) {
        let swapped;
        let bytes = if self.format == wgpu::TextureFormat::Bgra8Unorm {
            swapped = rgba8_to_bgra8(pixels);
            &swapped[..]
        } else {
            pixels
        };
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(self.size.width * 4),
                rows_per_image: Some(self.size.height),
            },
            extent(self.size),
        );
    }

    /// Writes level 0 of an RGBA8 texture of the same size, unless the last upload
    /// wrote this same frame (the same shared bytes: then the texture holds them
    /// already, and a held input frame is neither compared nor copied to the GPU again).
    pub fn upload_rgba8(&mut self, gpu: &Gpu, pixels: &Arc<[u8]>) {
        if self.uploaded.as_ref().is_some_and(|u| Arc::ptr_eq(u, pixels)) {
            return;
        }
        self.write_rgba8(gpu, pixels);
        self.uploaded = Some(Arc::clone(pixels));
    }

    /// The view a pass samples: every level when it reads through the mip chain, level
    /// 0 alone otherwise.
    pub fn sampled_view(&self, mipmap: bool) -> &wgpu::TextureView {
        match self.levels.first() {
            Some(level0) if !mipmap => level0,
            _ => &self.view,
        }
    }

    /// A view of one mip level.
    pub fn level_view(&self, level: u32) -> wgpu::TextureView {
        match self.levels.get(level as usize) {
            Some(v) => v.clone(),
            None => self.texture.create_view(&wgpu::TextureViewDescriptor {
                base_mip_level: level,
                mip_level_count: Some(1),
                ..wgpu::TextureViewDescriptor::default()
            }),
        }
    }
}

pub fn extent(size: Size) -> wgpu::Extent3d {
    wgpu::Extent3d { width: size.width.max(1), height: size.height.max(1), depth_or_array_layers: 1 }
}

/// Floating-point RGBA pixels read back from a texture, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct Pixels {
    pub size: Size,
    pub data: Vec<[f32; 4]>,
}

impl Pixels {
    /// The pixel at (x, y), or `None` outside the image.
    pub fn get(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        if x >= self.size.width || y >= self.size.height {
            return None;
        }
        self.data.get((y as usize) * (self.size.width as usize) + x as usize).copied()
    }

    /// 8-bit RGBA, each channel clamped to [0, 1] and rounded (`unit_to_u8`).
    pub fn to_rgba8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() * 4);
        for p in &self.data {
            out.extend(p.map(unit_to_u8));
        }
        out
    }
}

/// `round(saturate(c) * 255)` as a byte, NaN 0: the reference's
/// [`crate::reference::image::unorm8`], exactly `f32::round` without its library call.
fn unit_to_u8(c: f32) -> u8 {
    u8::try_from(crate::reference::image::unorm8(c)).unwrap_or(u8::MAX)
}

/// Bytes per texel of the formats read back, with the decoder.
/// Decodes one texel's bytes to RGBA floats.
type TexelDecoder = fn(&[u8]) -> [f32; 4];

fn decoder(format: wgpu::TextureFormat) -> Option<(u32, TexelDecoder)> {
    use wgpu::TextureFormat as T;
    fn u8n(b: u8) -> f32 {
        f32::from(b) / 255.0
    }
    fn srgb8(b: u8) -> f32 {
        let v = u8n(b);
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    }
    fn f32at(b: &[u8], i: usize) -> f32 {
        let mut a = [0u8; 4];
        a.copy_from_slice(&b[i * 4..i * 4 + 4]);
        f32::from_le_bytes(a)
    }
    fn f16at(b: &[u8], i: usize) -> f32 {
        half_to_f32(u16::from_le_bytes([b[i * 2], b[i * 2 + 1]]))
    }
    Some(match format {
        T::Rgba8Unorm => (4, |b| [u8n(b[0]), u8n(b[1]), u8n(b[2]), u8n(b[3])]),
        // A shader reading an sRGB texel gets it decoded; so does the read-back, so a
        // pass's output means the same as the reference's (linear) pass output.
        T::Rgba8UnormSrgb => (4, |b| [srgb8(b[0]), srgb8(b[1]), srgb8(b[2]), u8n(b[3])]),
        T::Bgra8Unorm => (4, |b| [u8n(b[2]), u8n(b[1]), u8n(b[0]), u8n(b[3])]),
        T::R8Unorm => (1, |b| [u8n(b[0]), 0.0, 0.0, 1.0]),
        T::Rg8Unorm => (2, |b| [u8n(b[0]), u8n(b[1]), 0.0, 1.0]),
        T::Rgba16Float => (8, |b| [f16at(b, 0), f16at(b, 1), f16at(b, 2), f16at(b, 3)]),
        T::Rg16Float => (4, |b| [f16at(b, 0), f16at(b, 1), 0.0, 1.0]),
        T::R16Float => (2, |b| [f16at(b, 0), 0.0, 0.0, 1.0]),
        T::Rgba32Float => (16, |b| [f32at(b, 0), f32at(b, 1), f32at(b, 2), f32at(b, 3)]),
        T::Rg32Float => (8, |b| [f32at(b, 0), f32at(b, 1), 0.0, 1.0]),
        T::R32Float => (4, |b| [f32at(b, 0), 0.0, 0.0, 1.0]),
        T::Rgb10a2Unorm => (4, |b| {
            let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let c = |s: u32| ((v >> s) & 0x3ff) as f32 / 1023.0;
            [c(0), c(10), c(20), (v >> 30) as f32 / 3.0]
        }),
        _ => return None,
    })
}

/// IEEE 754 half to single precision.
pub fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let mant = f32::from(h & 0x3ff);
    match exp {
        0 => sign * mant * 2f32.powi(-24),
        31 if mant == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + mant / 1024.0) * 2f32.powi(i32::from(e) - 15),
    }
}

/// Bytes of one read-back buffer at most: large textures are read in bands of rows,
/// each within this and the device's `max_buffer_size` (256 MiB on some adapters).
const READ_BACK_BAND_BYTES: u64 = 64 << 20;

/// Reads level 0 of `texture` back as floats ([`read_rows`]).
pub fn read_back(gpu: &Gpu, texture: &Texture) -> Result<Pixels, Diagnostic> {
    let Some((bpp, decode)) = decoder(texture.format) else {
        return Err(Diagnostic::error(
            codes::E_CHAIN_IMAGE,
            format!("cannot read back a texture of format {:?}", texture.format),
        ));
    };
    let size = texture.size;
    let mut data = Vec::with_capacity(size.width as usize * size.height as usize);
    read_rows(gpu, texture, bpp, |row| data.extend(row.chunks_exact(bpp as usize).map(decode)))?;
    Ok(Pixels { size, data })
}

/// Hands each row of level 0 (`bpp` bytes a texel, without the copy's padding) to
/// `row`, top to bottom, read in bands of rows so that no buffer exceeds
/// [`READ_BACK_BAND_BYTES`] or the device's `max_buffer_size`.
fn read_rows(gpu: &Gpu, texture: &Texture, bpp: u32, mut row: impl FnMut(&[u8])) -> Result<(), Diagnostic> {
    let size = texture.size;
    let unpadded = size.width * bpp;
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let padded = unpadded.div_ceil(align) * align;
    let limit = READ_BACK_BAND_BYTES.min(gpu.device.limits().max_buffer_size);
    let band = u32::try_from((limit / u64::from(padded)).max(1)).unwrap_or(u32::MAX).min(size.height.max(1));
    let mut y = 0;
    while y < size.height {
        let rows = band.min(size.height - y);
        read_band(gpu, texture, y, rows, padded, |bytes| row(&bytes[..unpadded as usize]))?;
        y += rows;
    }
    Ok(())
}

/// Reads level 0 of `texture` back as 8-bit RGBA, rows top to bottom: exactly
/// [`read_back`]`(..).to_rgba8()`. A texture of 8-bit channels is mapped through two
/// 256-entry tables made with its own decoder (colour and alpha), with no float image
/// in between (a 1920x1080 frame would be 33 MB of floats); other formats go through
/// [`read_back`].
pub fn read_back_rgba8(gpu: &Gpu, texture: &Texture) -> Result<(Size, Vec<u8>), Diagnostic> {
    use wgpu::TextureFormat as T;
    let order: [usize; 4] = match texture.format {
        T::Rgba8Unorm | T::Rgba8UnormSrgb => [0, 1, 2, 3],
        T::Bgra8Unorm => [2, 1, 0, 3],
        _ => {
            let p = read_back(gpu, texture)?;
            return Ok((p.size, p.to_rgba8()));
        }
    };
    let Some((4, decode)) = decoder(texture.format) else {
        return Err(Diagnostic::error(codes::E_CHAIN_IMAGE, format!("no decoder for {:?}", texture.format)));
    };
    let mut colour = [0u8; 256];
    let mut alpha = [0u8; 256];
    for v in 0..=255u8 {
        let d = decode(&[v; 4]);
        colour[usize::from(v)] = unit_to_u8(d[0]);
        alpha[usize::from(v)] = unit_to_u8(d[3]);
    }
    let size = texture.size;
    let mut data = Vec::with_capacity(size.width as usize * size.height as usize * 4);
    read_rows(gpu, texture, 4, |row| {
        for t in row.chunks_exact(4) {
            data.extend([
                colour[usize::from(t[order[0]])],
                colour[usize::from(t[order[1]])],
                colour[usize::from(t[order[2]])],
                alpha[usize::from(t[order[3]])],
            ]);
        }
    })?;
    Ok((size, data))
}

/// Copies rows `y..y + rows` of level 0 into one buffer and hands each row's bytes
/// (`padded` long) to `row`, top to bottom.
fn read_band(
    gpu: &Gpu,
    texture: &Texture,
    y: u32,
    rows: u32,
    padded: u32,
    mut row: impl FnMut(&[u8]),
) -> Result<(), Diagnostic> {
    let buffer = gpu.scoped("reading a texture back", || {
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read-back"),
            size: u64::from(padded) * u64::from(rows),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("read-back") });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &texture.texture,
                mip_level: 0,
                origin: wgpu::Origin3d { x: 0, y, z: 0 },
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(rows),
                },
            },
            wgpu::Extent3d { width: texture.size.width, height: rows, depth_or_array_layers: 1 },
        );
        gpu.queue.submit([encoder.finish()]);
        buffer
    })?;
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    gpu.wait()?;
    match rx.recv() {
        Ok(Ok(())) => {}
        _ => return Err(Diagnostic::error(codes::E_CHAIN_GPU, "cannot map the read-back buffer")),
    }
    let view = buffer
        .get_mapped_range(..)
        .map_err(|e| Diagnostic::error(codes::E_CHAIN_GPU, format!("cannot map the read-back buffer: {e}")))?;
    for r in 0..rows as usize {
        let start = r * padded as usize;
        row(&view[start..start + padded as usize]);
    }
    drop(view);
    buffer.unmap();
    Ok(())
}

fn address(w: WrapMode, border: bool) -> wgpu::AddressMode {
    match w {
        WrapMode::ClampToBorder if border => wgpu::AddressMode::ClampToBorder,
        WrapMode::ClampToBorder | WrapMode::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        WrapMode::Repeat => wgpu::AddressMode::Repeat,
        WrapMode::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
    }
}

/// The sampler for `s`; `filterable` false forces nearest (integer textures).
///
/// Its level of detail is never clamped (RetroArch's and librashader's samplers leave
/// `maxLod` unclamped): a read without mip mapping binds a view of level 0 alone
/// ([`Texture::sampled_view`]) instead. The two mean the same; the sampler's form is the
/// one drivers optimise (llvmpipe compiles a `minLod == maxLod` sampler into a slower
/// shader, 25 % per frame for a one-pass copy at 1920x1080).
pub fn sampler(gpu: &Gpu, s: Sampling, filterable: bool) -> wgpu::Sampler {
    let border = gpu.features.contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER);
    let linear = s.filter == Filter::Linear && filterable;
    let filter = if linear { wgpu::FilterMode::Linear } else { wgpu::FilterMode::Nearest };
    let mip = if linear && s.mipmap { wgpu::MipmapFilterMode::Linear } else { wgpu::MipmapFilterMode::Nearest };
    let a = address(s.wrap, border);
    gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("pass sampler"),
        address_mode_u: a,
        address_mode_v: a,
        address_mode_w: a,
        mag_filter: filter,
        min_filter: filter,
        mipmap_filter: mip,
        lod_min_clamp: 0.0,
        lod_max_clamp: 32.0,
        compare: None,
        anisotropy_clamp: 1,
        border_color: (a == wgpu::AddressMode::ClampToBorder).then_some(wgpu::SamplerBorderColor::TransparentBlack),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves() {
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0x4000), 2.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x3800), 0.5);
        assert_eq!(half_to_f32(0x0000), 0.0);
        assert_eq!(half_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
    }
}
