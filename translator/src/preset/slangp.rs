//! The `.slangp` side: a writer from the preset model, and a reader for what it writes.
//!
//! The writer keeps every setting with its meaning (runtime sheet §4): the pass
//! structure, per-pass keys only where the `.cgp` set them (`filter_linearN` absent stays
//! absent), scale keys only where a scale type was given, LUTs with their settings, and
//! `parameters = "A;B"` together with each value (current RetroArch reads the values,
//! librashader and older RetroArch the list). It never writes `feedback_pass` (consumed
//! by the shader translation), librashader-only keys or `scale_type = original`.
//! Output is deterministic: global keys, then pass by pass, then LUTs, then parameters;
//! strings quoted, numbers and booleans bare.
//!
//! The framebuffer flags need help in slang (runtime sheet §8). RetroArch's Cg runtime
//! honoured `float_framebufferN`/`srgb_framebufferN` on every pass that renders into a
//! framebuffer and let float beat sRGB; its slang runtime ignores both on a pass without
//! a scale type and lets sRGB beat float. So for an unscaled pass that is not the last
//! the writer adds the explicit `scale_typeN = "source"`, `scaleN = 1.0` (the same
//! size), and for a pass with both flags it writes only the float one; it records both.
//! One difference stays: the Cg runtime's float target held 32 bits a channel, the
//! slang runtime's holds 16 (old/new measures what that changes).
//!
//! The reader is the same three layers as for `.cgp` in the slang dialect.
//!
//! **Invariant:** the writer never fails and never panics; what it had to change or
//! drop is returned as [`WriteNote`]s.

use super::cgp::{load, load_str};
use super::model::{Preset, Scale};
use super::value::{Dialect, ScaleType};
use grammar::{Diagnostic, FileSystem, MemoryFs, SourceMap};
use std::fmt::Write as _;
use std::path::Path;

/// Something the writer changed or dropped, for the port report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteNote {
    /// `feedback_pass = N` was not written: slang names the texture `PassFeedbackN`.
    FeedbackPassDropped(usize),
    /// Scale keys RetroArch ignored in the `.cgp` were not written.
    ScaleKeysIgnored { pass: usize, keys: Vec<String> },
    /// `scale_typeN = "source"` / `scaleN = 1.0` added so that the slang runtime honours
    /// the pass's float/sRGB framebuffer flag as the Cg runtime did.
    ExplicitSourceScale { pass: usize },
    /// `srgb_framebufferN` not written: the pass also asks for a float framebuffer, which
    /// the Cg runtime gave it (the slang runtime would give sRGB).
    SrgbBeatenByFloat { pass: usize },
    /// `.cgp` values for parameters not listed in `parameters` (ignored by Cg-era
    /// RetroArch) were not written.
    UnlistedValuesDropped(Vec<String>),
    /// No emitted shader path was given for this pass: the `.cg` path with a `.slang`
    /// extension was written.
    MissingShaderPath { pass: usize },
    /// No emitted path was given for this LUT: its path as written was kept.
    MissingLutPath { lut: String },
    /// A value holds a `"` or a line break, which preset syntax cannot quote.
    Unrepresentable { key: String },
}

/// The written text and its notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub text: String,
    pub notes: Vec<WriteNote>,
}

/// Writes `preset` as a `.slangp`; `shader_paths[i]` is the emitted `.slang` of pass i
/// and `lut_paths[j]` the path of LUT j, both relative to the `.slangp`.
pub fn write_slangp(preset: &Preset, shader_paths: &[String], lut_paths: &[String]) -> String {
    write_slangp_with_notes(preset, shader_paths, lut_paths).text
}

/// [`write_slangp`], also returning what was changed or dropped.
pub fn write_slangp_with_notes(preset: &Preset, shader_paths: &[String], lut_paths: &[String]) -> Written {
    let mut w = Writer { text: String::new(), notes: Vec::new() };
    if let Some(f) = preset.feedback_pass {
        w.notes.push(WriteNote::FeedbackPassDropped(f));
    }
    w.line("shaders", &preset.passes.len().to_string());
    let last = preset.passes.len().saturating_sub(1);
    for (i, pass) in preset.passes.iter().enumerate() {
        w.text.push('\n');
        let path = match shader_paths.get(i) {
            Some(p) => p.clone(),
            None => {
                w.notes.push(WriteNote::MissingShaderPath { pass: i });
                slash(&pass.shader.with_extension("slang"))
            }
        };
        w.string(&format!("shader{i}"), &path);
        if let Some(b) = pass.filter_linear {
            w.line(&format!("filter_linear{i}"), bool_str(b));
        }
        if let Some(m) = pass.wrap_mode {
            w.string(&format!("wrap_mode{i}"), m.as_str());
        }
        if pass.mipmap_input {
            w.line(&format!("mipmap_input{i}"), "true");
        }
        if let Some(a) = &pass.alias {
            w.string(&format!("alias{i}"), a);
        }
        if pass.float_framebuffer {
            w.line(&format!("float_framebuffer{i}"), "true");
        }
        if pass.srgb_framebuffer && pass.float_framebuffer {
            w.notes.push(WriteNote::SrgbBeatenByFloat { pass: i });
        } else if pass.srgb_framebuffer {
            w.line(&format!("srgb_framebuffer{i}"), "true");
        }
        if !pass.ignored_scale_keys.is_empty() {
            w.notes.push(WriteNote::ScaleKeysIgnored { pass: i, keys: pass.ignored_scale_keys.clone() });
        }
        match pass.scale {
            Some(scale) => w.scale(i, scale),
            None if i < last && (pass.float_framebuffer || pass.srgb_framebuffer) => {
                w.notes.push(WriteNote::ExplicitSourceScale { pass: i });
                w.scale(i, Scale { x: (ScaleType::Source, 1.0), y: (ScaleType::Source, 1.0) });
            }
            None => {}
        }
        if let Some(m) = pass.frame_count_mod {
            w.line(&format!("frame_count_mod{i}"), &m.to_string());
        }
    }
    if !preset.textures.is_empty() {
        w.text.push('\n');
        let ids: Vec<&str> = preset.textures.iter().map(|l| l.name.as_str()).collect();
        w.string("textures", &ids.join(";"));
        for (j, lut) in preset.textures.iter().enumerate() {
            let path = match lut_paths.get(j) {
                Some(p) => p.clone(),
                None => {
                    w.notes.push(WriteNote::MissingLutPath { lut: lut.name.clone() });
                    slash(&lut.path)
                }
            };
            w.string(&lut.name, &path);
            if let Some(b) = lut.linear {
                w.line(&format!("{}_linear", lut.name), bool_str(b));
            }
            if let Some(m) = lut.wrap_mode {
                w.string(&format!("{}_wrap_mode", lut.name), m.as_str());
            }
            if lut.mipmap {
                w.line(&format!("{}_mipmap", lut.name), "true");
            }
        }
    }
    if !preset.parameters.is_empty() {
        w.text.push('\n');
        let ids: Vec<&str> = preset.parameters.iter().map(|(p, _)| p.as_str()).collect();
        w.string("parameters", &ids.join(";"));
        for (id, v) in &preset.parameters {
            w.line(id, &float(*v));
        }
    }
    if !preset.unlisted_values.is_empty() {
        w.notes.push(WriteNote::UnlistedValuesDropped(preset.unlisted_values.iter().map(|(k, _)| k.clone()).collect()));
    }
    Written { text: w.text, notes: w.notes }
}

struct Writer {
    text: String,
    notes: Vec<WriteNote>,
}

impl Writer {
    fn line(&mut self, key: &str, value: &str) {
        let _ = writeln!(self.text, "{key} = {value}");
    }

    fn string(&mut self, key: &str, value: &str) {
        if value.contains(['"', '\n', '\r']) {
            self.notes.push(WriteNote::Unrepresentable { key: key.to_owned() });
        }
        let _ = writeln!(self.text, "{key} = \"{value}\"");
    }

    fn scale(&mut self, i: usize, s: Scale) {
        let factor = |(t, f): (ScaleType, f32)| match t {
            ScaleType::Absolute => format!("{}", f as i64),
            _ => float(f),
        };
        if s.x.0 == s.y.0 {
            self.string(&format!("scale_type{i}"), s.x.0.as_str());
            if factor(s.x) == factor(s.y) {
                self.line(&format!("scale{i}"), &factor(s.x));
            } else {
                self.line(&format!("scale_x{i}"), &factor(s.x));
                self.line(&format!("scale_y{i}"), &factor(s.y));
            }
        } else {
            self.string(&format!("scale_type_x{i}"), s.x.0.as_str());
            self.line(&format!("scale_x{i}"), &factor(s.x));
            self.string(&format!("scale_type_y{i}"), s.y.0.as_str());
            self.line(&format!("scale_y{i}"), &factor(s.y));
        }
    }
}

fn bool_str(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// The shortest text that reads back as the same `f32`, with a `.0` on whole numbers.
fn float(v: f32) -> String {
    let s = format!("{v}");
    if v.is_finite() && !s.contains(['.', 'e', 'E']) {
        format!("{s}.0")
    } else {
        s
    }
}

/// A path with `/` separators, as presets write them.
fn slash(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// Loads a `.slangp` preset and everything it references.
pub fn load_slangp(sources: &mut SourceMap, path: &Path, fs: &dyn FileSystem) -> (Option<Preset>, Vec<Diagnostic>) {
    load(sources, path, fs, Dialect::Slangp)
}

/// Parses `.slangp` text held in memory under `name` (no `#reference` can be followed).
pub fn parse_slangp_str(sources: &mut SourceMap, name: &str, text: &str) -> (Option<Preset>, Vec<Diagnostic>) {
    load_str(sources, name, text, &MemoryFs::new(), Dialect::Slangp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::value::WrapMode;

    #[test]
    fn floats_read_back() {
        for v in [1.0f32, 0.0625, 2.5, 1e-7, 3.0e9, -0.5, 0.1] {
            let s = float(v);
            let back = crate::preset::value::strtod(&s).map(|(f, _)| f as f32);
            assert_eq!(back, Some(v), "{s}");
        }
        assert_eq!(float(2.0), "2.0");
        assert_eq!(float(0.5), "0.5");
    }

    #[test]
    fn writes_a_minimal_preset() {
        let mut sources = SourceMap::new();
        let (p, d) = crate::preset::parse_cgp_str(
            &mut sources,
            "a.cgp",
            "shaders = 1\nshader0 = a.cg\nwrap_mode0 = repeat\nfeedback_pass = 0\n",
        );
        let Some(p) = p else { panic!("{d:?}") };
        let w = write_slangp_with_notes(&p, &[], &[]);
        assert_eq!(w.text, "shaders = 1\n\nshader0 = \"a.slang\"\nwrap_mode0 = \"repeat\"\n");
        assert_eq!(w.notes, [WriteNote::FeedbackPassDropped(0), WriteNote::MissingShaderPath { pass: 0 }]);
        assert_eq!(p.passes[0].wrap_mode, Some(WrapMode::Repeat));
    }
}
