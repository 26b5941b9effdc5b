//! Images in and out. Input frames and LUTs are decoded to RGBA8 from the formats
//! RetroArch's image loader reads (PNG of any colour type, TGA, JPEG and BMP; the format
//! comes from the file's signature, or from its extension for TGA, which has none);
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

/// The formats RetroArch loads LUTs and screenshots from.
const FORMATS: [image::ImageFormat; 4] =
    [image::ImageFormat::Png, image::ImageFormat::Jpeg, image::ImageFormat::Tga, image::ImageFormat::Bmp];

/// The format of `bytes`: its signature, else (TGA has none) the extension of `name`.
fn format_of(bytes: &[u8], name: &Path) -> Option<image::ImageFormat> {
    image::guess_format(bytes).ok().or_else(|| image::ImageFormat::from_path(name).ok()).filter(|f| FORMATS.contains(f))
}

/// Decodes an image file's bytes to RGBA8 (`name` labels errors and, for TGA, gives
/// the format).
pub fn decode_rgba8(bytes: &[u8], name: &Path) -> Result<image::RgbaImage, Diagnostic> {
    let Some(format) = format_of(bytes, name) else {
        return Err(image_error(name, "not a PNG, JPEG, TGA or BMP image"));
    };
    // The size comes from the header, checked before any pixel is decoded.
    let (w, h) = image::ImageReader::with_format(std::io::Cursor::new(bytes), format)
        .into_dimensions()
        .map_err(|e| image_error(name, format!("not a readable {format:?} image: {e}")))?;
    if w == 0 || h == 0 || w > MAX_SIZE || h > MAX_SIZE {
        return Err(image_error(name, format!("the image is {w}x{h}; sizes from 1 to {MAX_SIZE} are supported")));
    }
    let img = image::load_from_memory_with_format(bytes, format)
        .map_err(|e| image_error(name, format!("not a readable {format:?} image: {e}")))?;
    Ok(img.into_rgba8())
}

/// Decodes an image file's bytes (`name` labels errors) to an input image.
pub fn decode_image(bytes: &[u8], name: &Path) -> Result<InputImage, Diagnostic> {
    let rgba = decode_rgba8(bytes, name)?;
    let size = Size::new(rgba.width(), rgba.height());
    if size.width == 0 || size.height == 0 || size.width > MAX_SIZE || size.height > MAX_SIZE {
        return Err(image_error(name, format!("the image is {size}; sizes from 1 to {MAX_SIZE} are supported")));
    }
    Ok(InputImage { size, rgba8: rgba.into_raw().into() })
}

pub use translator::preset::files::MAX_IMAGE_BYTES;

/// Reads an image file's bytes: a regular file of at most [`MAX_IMAGE_BYTES`]
/// (E0121/E0122 otherwise, E0707 when it cannot be read).
pub fn read_image_file(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    grammar::source::read_regular(path, MAX_IMAGE_BYTES).map_err(|e| {
        let code = grammar::source::read_error_code(&e, codes::E_CHAIN_IMAGE);
        Diagnostic::error(code, format!("{}: cannot read: {e}", path.display()))
    })
}

/// Reads and decodes an image file.
pub fn load_image(path: &Path) -> Result<InputImage, Diagnostic> {
    let bytes = read_image_file(path)?;
    decode_image(&bytes, path)
}

/// Encodes RGBA8 pixels as PNG bytes (the `image` crate's PNG encoder with its
/// defaults), straight from the slice.
pub fn encode_png(size: Size, rgba8: &[u8]) -> Result<Vec<u8>, Diagnostic> {
    use image::ImageEncoder;
    let expected = size.width as usize * size.height as usize * 4;
    if rgba8.len() != expected {
        return Err(Diagnostic::error(codes::E_CHAIN_IMAGE, format!("{} bytes for a {size} image", rgba8.len())));
    }
    let mut out = Vec::with_capacity(expected / 4 + 1024);
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(rgba8, size.width, size.height, image::ExtendedColorType::Rgba8)
        .map_err(|e| Diagnostic::error(codes::E_CHAIN_IMAGE, format!("cannot encode PNG: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An uncompressed 24-bit TGA, bottom-up rows (the format's default origin).
    fn tga_2x2() -> Vec<u8> {
        let mut b = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0];
        // BGR, bottom row first: bottom = red, green; top = blue, white.
        b.extend_from_slice(&[0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255]);
        b
    }

    #[test]
    fn reads_tga_by_extension_with_its_origin() {
        let img = decode_image(&tga_2x2(), Path::new("lut.tga")).expect("a TGA LUT");
        assert_eq!(img.size, Size::new(2, 2));
        // Row 0 of the decoded image is the top row: blue, white.
        assert_eq!(&img.rgba8[..8], &[0, 0, 255, 255, 255, 255, 255, 255]);
        assert_eq!(&img.rgba8[8..], &[255, 0, 0, 255, 0, 255, 0, 255]);
    }

    #[test]
    fn reads_jpeg_by_signature_whatever_the_name() {
        let src = image::RgbImage::from_pixel(8, 4, image::Rgb([200, 100, 50]));
        let mut jpeg = std::io::Cursor::new(Vec::new());
        src.write_to(&mut jpeg, image::ImageFormat::Jpeg).expect("encode");
        let img = decode_image(jpeg.get_ref(), Path::new("lut.png")).expect("a JPEG LUT");
        assert_eq!(img.size, Size::new(8, 4));
        let px = &img.rgba8[..4];
        assert!(px[0].abs_diff(200) <= 2 && px[1].abs_diff(100) <= 2 && px[2].abs_diff(50) <= 2, "{px:?}");
    }

    #[test]
    fn names_what_it_cannot_read() {
        let e = decode_image(b"not an image", Path::new("lut.dat")).expect_err("garbage");
        assert_eq!(e.code, codes::E_CHAIN_IMAGE);
        assert!(e.message.contains("lut.dat") && e.message.contains("not a PNG, JPEG, TGA or BMP"), "{}", e.message);
    }
}
