//! PNG files to and from [`RgbaF32Image`] (8-bit RGBA, values `k / 255`). The only file
//! access of the reference renderer; errors are `E0807` diagnostics, never panics.

use super::image::RgbaF32Image;
use crate::codes;
use grammar::Diagnostic;
use std::path::Path;

/// Reads an image as RGBA: PNG of any colour type, or (by extension) TGA, JPEG or BMP,
/// the formats RetroArch loads LUTs from.
pub fn load_png(path: &Path) -> Result<RgbaF32Image, Diagnostic> {
    let err = |e: String| Diagnostic::error(codes::E_REF_IMAGE, format!("cannot read {}: {e}", path.display()));
    let img = image::open(path).map_err(|e| err(e.to_string()))?.to_rgba8();
    let (w, h) = img.dimensions();
    RgbaF32Image::from_rgba8(w, h, img.as_raw()).ok_or_else(|| err("bad pixel data".into()))
}

/// Writes an image as an 8-bit RGBA PNG (quantised as a UNORM target would be).
pub fn save_png(image: &RgbaF32Image, path: &Path) -> Result<(), Diagnostic> {
    let err = |e: String| Diagnostic::error(codes::E_REF_IMAGE, format!("cannot write {}: {e}", path.display()));
    let buf = image::RgbaImage::from_raw(image.width, image.height, image.to_rgba8())
        .ok_or_else(|| err("bad size".into()))?;
    buf.save(path).map_err(|e| err(e.to_string()))
}
