//! Layer 2 of the preset parser: tokens to typed values.
//!
//! Every `key = value` entry becomes one [`Value`]: per-pass keys carry their pass index
//! (`Scale(2, ..)` for `scale2`), per-LUT keys the texture id, parameter values the
//! parameter id. Values are read the way RetroArch reads them: booleans are `true`,
//! `false`, `1`, `0` (here also in any letter case, with a warning, where RetroArch would
//! have ignored the key); integers use C `strtoul`/`strtol` with base auto-detection
//! (`0x..` hex, `0..` octal); floats C `strtod` on the longest numeric prefix. A key given
//! twice keeps its first value, as RetroArch's config map does.
//!
//! What RetroArch ignores (unknown keys, typos such as `scale_1`, unparsable numbers, bad
//! wrap modes) becomes a warning with the key's position and no value; errors are kept
//! for what makes RetroArch's loader fail (a bad `shaders`, a bad scale type).
//! Whether an index is below `shaders`, and whether a listed texture has a path, is the
//! model's business ([`super::model`]): this layer looks at one file at a time.
//!
//! This module holds the types (`Value`, `Located`, `Values`, `Dialect`, ...); the
//! reading is in `reader` (entries and keys), `scalars` (one token to a typed
//! value), `keys` (the key vocabulary), `hints` (notes for unknown keys) and
//! `c_numbers` (C's `strtod`/`strtol`/`strtoul`).
//!
//! **Invariant:** never panics on any token list; each entry gives at most one value.

mod c_numbers;
mod hints;
mod keys;
mod reader;
mod scalars;
#[cfg(test)]
mod tests;

pub use c_numbers::{strtod, strtol, strtoul};
pub use keys::split_list;
pub use reader::values;

use grammar::{Diagnostic, Span};
use std::fmt;
use std::path::PathBuf;

/// GFX_MAX_SHADERS of Cg-era RetroArch: a `.cgp` with more passes has an absurd pass count.
pub const MAX_PASSES_CGP: u32 = 26;
/// GFX_MAX_SHADERS of current RetroArch, which reads `.slangp` files.
pub const MAX_PASSES_SLANGP: u32 = 64;

/// Sampler address mode of a pass input or a LUT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WrapMode {
    ClampToBorder,
    ClampToEdge,
    Repeat,
    MirroredRepeat,
}

impl WrapMode {
    pub fn as_str(self) -> &'static str {
        match self {
            WrapMode::ClampToBorder => "clamp_to_border",
            WrapMode::ClampToEdge => "clamp_to_edge",
            WrapMode::Repeat => "repeat",
            WrapMode::MirroredRepeat => "mirrored_repeat",
        }
    }

    /// The exact spelling RetroArch accepts.
    pub fn parse(s: &str) -> Option<WrapMode> {
        Some(match s {
            "clamp_to_border" => WrapMode::ClampToBorder,
            "clamp_to_edge" => WrapMode::ClampToEdge,
            "repeat" => WrapMode::Repeat,
            "mirrored_repeat" => WrapMode::MirroredRepeat,
            _ => return None,
        })
    }
}

impl fmt::Display for WrapMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one axis of a pass output is sized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScaleType {
    /// A multiple of the pass input.
    Source,
    /// A multiple of the final viewport.
    Viewport,
    /// A fixed number of pixels.
    Absolute,
}

impl ScaleType {
    pub fn as_str(self) -> &'static str {
        match self {
            ScaleType::Source => "source",
            ScaleType::Viewport => "viewport",
            ScaleType::Absolute => "absolute",
        }
    }

    /// The exact spelling RetroArch accepts.
    pub fn parse(s: &str) -> Option<ScaleType> {
        Some(match s {
            "source" => ScaleType::Source,
            "viewport" => ScaleType::Viewport,
            "absolute" => ScaleType::Absolute,
            _ => return None,
        })
    }
}

impl fmt::Display for ScaleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A scale factor as RetroArch reads it both ways: `strtod` for source and viewport
/// axes, `strtol` (base auto) for absolute ones. Which applies is known only once the
/// axis type is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Factor {
    pub float: f32,
    pub int: i64,
}

/// One typed preset entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `shaders`: the pass count, as read (validated here: 1..=26 unless reported).
    Shaders(u32),
    /// `feedback_pass`: the 0-based pass Cg's `FEEDBACK` reads; negative is none.
    FeedbackPass(i32),
    Shader(usize, PathBuf),
    FilterLinear(usize, bool),
    WrapMode(usize, WrapMode),
    MipmapInput(usize, bool),
    Alias(usize, String),
    FloatFramebuffer(usize, bool),
    SrgbFramebuffer(usize, bool),
    ScaleType(usize, ScaleType),
    ScaleTypeX(usize, ScaleType),
    ScaleTypeY(usize, ScaleType),
    Scale(usize, Factor),
    ScaleX(usize, Factor),
    ScaleY(usize, Factor),
    FrameCountMod(usize, u32),
    /// `textures`: LUT ids, split on `;`, empty pieces dropped.
    Textures(Vec<String>),
    /// `parameters`: parameter ids, split on `;`, empty pieces dropped.
    Parameters(Vec<String>),
    /// `<id> = path` for a LUT id.
    LutPath(String, PathBuf),
    LutLinear(String, bool),
    LutWrapMode(String, WrapMode),
    LutMipmap(String, bool),
    /// `<ID> = float` for a parameter id.
    ParameterValue(String, f32),
    /// A float-valued key that `parameters` does not list, in a `.cgp` (Cg-era RetroArch
    /// applied only listed parameters): kept so a report can name it.
    UnlistedValue(String, f32),
    /// `#reference "path"`.
    Reference(PathBuf),
}

impl Value {
    /// The pass index of a per-pass value.
    pub fn pass(&self) -> Option<usize> {
        match self {
            Value::Shader(i, _)
            | Value::FilterLinear(i, _)
            | Value::WrapMode(i, _)
            | Value::MipmapInput(i, _)
            | Value::Alias(i, _)
            | Value::FloatFramebuffer(i, _)
            | Value::SrgbFramebuffer(i, _)
            | Value::ScaleType(i, _)
            | Value::ScaleTypeX(i, _)
            | Value::ScaleTypeY(i, _)
            | Value::Scale(i, _)
            | Value::ScaleX(i, _)
            | Value::ScaleY(i, _)
            | Value::FrameCountMod(i, _) => Some(*i),
            _ => None,
        }
    }
}

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub value: Value,
    /// The key as written (`#reference` for a reference).
    pub key: String,
    pub key_span: Span,
    /// The value token (quotes included).
    pub span: Span,
}

impl Located {
    /// Key through value.
    pub fn full_span(&self) -> Span {
        self.key_span.to(self.span)
    }
}

/// Which preset language is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Cg-era RetroArch: only parameters listed in `parameters` take a value.
    Cgp,
    /// Current RetroArch: any key may set a parameter the shaders declare.
    Slangp,
}

impl Dialect {
    /// The most passes the RetroArch of this dialect keeps.
    pub fn max_passes(self) -> u32 {
        match self {
            Dialect::Cgp => MAX_PASSES_CGP,
            Dialect::Slangp => MAX_PASSES_SLANGP,
        }
    }
}

/// What the file is to the preset being loaded.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub dialect: Dialect,
    /// `Some(root LUT ids)` when the file only overrides a root preset through
    /// `#reference`; `None` for the root itself.
    pub overrides: Option<&'a [String]>,
}

impl Context<'_> {
    pub fn root(dialect: Dialect) -> Context<'static> {
        Context { dialect, overrides: None }
    }
}

/// The values of one file and what was noticed reading them.
#[derive(Clone, Debug, Default)]
pub struct Values {
    pub items: Vec<Located>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Values {
    pub fn iter(&self) -> impl Iterator<Item = &Located> {
        self.items.iter()
    }

    /// The first value matching `f`.
    pub fn find<T>(&self, f: impl Fn(&Value) -> Option<T>) -> Option<(T, &Located)> {
        self.items.iter().find_map(|l| f(&l.value).map(|t| (t, l)))
    }

    pub fn references(&self) -> impl Iterator<Item = (&PathBuf, &Located)> {
        self.items.iter().filter_map(|l| match &l.value {
            Value::Reference(p) => Some((p, l)),
            _ => None,
        })
    }
}
