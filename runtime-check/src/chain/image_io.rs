//! PNG in and out. Input frames and LUTs are decoded to RGBA8 (any PNG colour type);
//! output is encoded to PNG bytes, which the caller writes atomically.
//!
//! **Invariant:** never panics on any file; a bad or unreadable image is an `E0707`
//! diagnostic naming the file. Nothing here writes to the disk.

use super::run::InputImage;
use crate::codes;
use crate::plan::{Size, MAX_SIZE};
use grammar::Diagnostic;
use std::path::Path;

fn image_error(path: &Path, msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::E_CHAIN_IMAGE, format!("{}: {msg}", path.display()))
}

/// Decodes PNG bytes (`name` labels errors).
/// The size is checked from the header before any pixel is decoded.
pub fn decode_png(bytes: &[u8], name: &Path) -> Result<InputImage, Diagnostic> {
    let header = image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Png)
        .into_dimensions()
        .map_err(|e| image_error(name, format!("not a readable PNG image: {e}")))?;
    let (w, h) = header;
    if w == 0 || h == 0 || w > MAX_SIZE || h > MAX_SIZE {
        return Err(image_error(name, format!("the image is {w}x{h}; sizes from 1 to {MAX_SIZE} are supported")));
    }
    let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map_err(|e| image_error(name, format!("not a readable PNG image: {e}")))?;
    let rgba = img.to_rgba8();
    let size = Size::new(rgba.width(), rgba.height());
    if size.width == 0 || size.height == 0 || size.width > MAX_SIZE || size.height > MAX_SIZE {
        return Err(image_error(name, format!("the image is {size}; sizes from 1 to {MAX_SIZE} are supported")));
    }
    Ok(InputImage { size, rgba8: rgba.into_raw() })
}

pub use translator::preset::files::MAX_IMAGE_BYTES;

/// Reads and decodes a PNG file (a regular file of at most [`MAX_IMAGE_BYTES`]).
pub fn load_png(path: &Path) -> Result<InputImage, Diagnostic> {
    let bytes = grammar::source::read_regular(path, MAX_IMAGE_BYTES).map_err(|e| {
        let code = grammar::source::read_error_code(&e, codes::E_CHAIN_IMAGE);
        Diagnostic::error(code, format!("{}: cannot read: {e}", path.display()))
    })?;
    decode_png(&bytes, path)
}

/// Encodes RGBA8 pixels as PNG bytes.
pub fn encode_png(size: Size, rgba8: &[u8]) -> Result<Vec<u8>, Diagnostic> {
    let Some(img) = image::RgbaImage::from_raw(size.width, size.height, rgba8.to_vec()) else {
        return Err(Diagnostic::error(codes::E_CHAIN_IMAGE, format!("{} bytes for a {size} image", rgba8.len())));
    };
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| Diagnostic::error(codes::E_CHAIN_IMAGE, format!("cannot encode PNG: {e}")))?;
    Ok(out.into_inner())
}
