//! The files a loaded preset names (pass shaders, LUT images), checked before anything
//! reads them: each must be a regular file within its size limit, else a coded error
//! at the preset line that names it, as RetroArch refuses a preset whose shader or
//! texture cannot be loaded. A pass shader must also have the dialect's extension
//! (`.cg` in a `.cgp`, `.slang` in a `.slangp`), so no other file is quoted in errors.
//!
//! Probes go through the caller's [`FileSystem`]; nothing here keeps file contents,
//! decodes an image or prints.

use super::model::Preset;
use super::value::Dialect;
use crate::codes;
use grammar::source::{read_error_code, MAX_SOURCE_BYTES};
use grammar::{Diagnostic, FileSystem, Span};
use std::path::Path;

/// The largest LUT (or input frame) image file read (64 MiB).
pub const MAX_IMAGE_BYTES: u64 = 64 << 20;

/// Checks every pass shader and LUT of `preset`; pushes one error per file that cannot
/// be read and returns whether all can.
pub fn check_files(preset: &Preset, fs: &dyn FileSystem, dialect: Dialect, diags: &mut Vec<Diagnostic>) -> bool {
    let mut ok = true;
    // A pass shader of the wrong kind (`shader0 = /etc/passwd`) is never read: its
    // lines would otherwise be quoted back in parse errors.
    let wanted = match dialect {
        Dialect::Cgp => "cg",
        Dialect::Slangp => "slang",
    };
    for (i, pass) in preset.passes.iter().enumerate() {
        let ext = pass.shader_resolved.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        if ext.as_deref() != Some(wanted) {
            diags.push(
                Diagnostic::error(
                    codes::E_PRESET_SHADER_KIND,
                    format!("the shader of pass {i}, {}, is not a .{wanted} file", pass.shader_resolved.display()),
                )
                .with_primary(pass.span, format!("expected a .{wanted} file"))
                .with_note("the file is not read"),
            );
            ok = false;
        }
    }
    if !ok {
        return false;
    }
    let mut check = |path: &Path, span: Span, limit: u64, what: &str| {
        if let Err(e) = fs.probe(path, limit) {
            let code = read_error_code(&e, codes::E_PRESET_FILE_UNREADABLE);
            let why =
                if e.kind() == std::io::ErrorKind::NotFound { "it does not exist".to_owned() } else { e.to_string() };
            diags.push(
                Diagnostic::error(code, format!("{what} {} cannot be read: {why}", path.display()))
                    .with_primary(span, "named here")
                    .with_note("RetroArch refuses a preset whose files cannot be loaded"),
            );
            ok = false;
        }
    };
    for (i, pass) in preset.passes.iter().enumerate() {
        check(&pass.shader_resolved, pass.span, MAX_SOURCE_BYTES, &format!("the shader of pass {i},"));
    }
    for lut in &preset.textures {
        check(&lut.resolved, lut.span, MAX_IMAGE_BYTES, &format!("texture `{}`,", lut.name));
    }
    ok
}
